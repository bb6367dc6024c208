// LayerNorm, RMSNorm and BatchNorm against the float64 references of tests/reference/norms.mjs, both builds.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { builds, compareValues, maxAbsDiff, normals, rng, ulp32 } from './helpers.mjs';
import { batchNorm, columnStats, layerNorm, rmsNorm, runningUpdate } from './reference/norms.mjs';

const all = await builds();
const COLS = [1, 2, 3, 7, 17, 768, 4097, 8192];
const MEANS = [0, 1, -100, 1e4, -1e4, 1e6, -1e6];
const STDS = [1e-2, 0.1, 1, 10, 1e3];
// RMSNorm (posnorm.h promises 2e-6·max|y|): measured 9.3e-8·max|y|, invRms 5.4e-8 relative
const RMS_Y = 2e-7, RMS_INV = 1.2e-7;

function affine(cols, seed) {
  const r = rng(seed);
  const gamma = new Float32Array(cols).map(() => Math.max(-2, Math.min(2, 1 + 0.5 * r.normal())));
  const beta = new Float32Array(cols).map(() => Math.max(-2, Math.min(2, r.normal())));
  return { gamma, beta };
}

for (const { name, pn } of all) {
  test(`${name}: LayerNorm within 3.5e-6 of float64 (posnorm.h promises 5e-6) for |mean| <= 1e6, std 1e-2..1e3, cols 1..8192`, () => {
    let worst = 0;
    let seed = 1;
    for (const cols of COLS) {
      const { gamma, beta } = affine(cols, cols);
      for (const mean of MEANS) {
        for (const std of STDS) {
          const rows = cols > 1000 ? 2 : 4;
          const x = normals(rows * cols, { mean, std, seed: seed++ });
          const got = pn.layerNorm(x, { cols, gamma, beta });
          const ref = layerNorm(x, cols, { gamma, beta, eps: Math.fround(1e-5) });
          const err = maxAbsDiff(got.y, ref.y);
          worst = Math.max(worst, err);
          // measured 1.76e-6 (|γ|, |β| up to 2)
          assert.ok(err <= 3.5e-6, `cols ${cols} mean ${mean} std ${std}: ${err}`);
          for (let r = 0; r < rows; r++) {
            // measured: mean 0.54 of this bound; invStdDev 9.0e-8 relative
            assert.ok(Math.abs(got.mean[r] - ref.mean[r]) <= 1e-7 * Math.abs(ref.mean[r]) + 1e-6 * std, `mean ${got.mean[r]} vs ${ref.mean[r]}`);
            assert.ok(Math.abs(got.invStdDev[r] - ref.invStd[r]) <= 2e-7 * ref.invStd[r], `invStdDev ${got.invStdDev[r]} vs ${ref.invStd[r]}`);
          }
        }
      }
    }
    assert.ok(worst > 0, 'the comparison saw rounding at all');
  });

  test(`${name}: LayerNorm and RMSNorm over rows of every kind in one call (outliers first, ramps, constant, float64 rows)`, () => {
    // Rows whose first values sit far from their mean (outliers first, a ramp) take a second
    // pass about the mean; a constant row and a 1e30 row are redone in float64; each kind
    // next to the others, so the pipelined output pass meets every transition.
    const r = rng(4);
    const KINDS = [
      () => r.normal(),
      (j) => (j < 8 ? 1e3 + r.normal() : r.normal()),
      (j) => 1000 * j + r.normal(),
      () => 0.375,
      () => 1e30 * (1 + r.normal()),
      () => 1e4 + 1e-2 * r.normal(),
      (j) => (j < 8 ? -50 : 0.1 * r.normal()),
      (j) => (j < 8 ? 3e4 : 1e-3 * r.normal()),
    ];
    for (const cols of [5, 64, 300, 1031, 8192]) {
      const x = new Float32Array(KINDS.length * cols);
      KINDS.forEach((kind, k) => { for (let j = 0; j < cols; j++) x[k * cols + j] = kind(j); });
      const ln = pn.layerNorm(x, { cols }).y, lnRef = layerNorm(x, cols, { eps: Math.fround(1e-5) }).y;
      const rms = pn.rmsNorm(x, { cols }), rmsRef = rmsNorm(x, cols, { eps: Math.fround(1e-6) });
      for (let k = 0; k < KINDS.length; k++) {
        const row = (a) => a.subarray(k * cols, (k + 1) * cols);
        // in float32 ulps of the row's largest |y| (outliers give |y| up to 32): measured 1.94
        let big = 0;
        for (const t of row(lnRef)) big = Math.max(big, Math.abs(t));
        const e = maxAbsDiff(row(ln), row(lnRef)) / (big ? ulp32(big) : 1);
        assert.ok(e <= 4, `LayerNorm row kind ${k}, cols ${cols}: ${e} ulp of the row's largest |y|`);
        let top = 0;
        for (const t of row(rmsRef.y)) top = Math.max(top, Math.abs(t));
        const er = maxAbsDiff(row(rms.y), row(rmsRef.y)) / top;
        assert.ok(er <= RMS_Y, `RMSNorm row kind ${k}, cols ${cols}: ${er}·max|y|`); // measured 1.0e-7
      }
    }
  });

  test(`${name}: LayerNorm after a centred row: every kind of row, summed about 0 on the strength of the row before, keeps its bound`, () => {
    // After a row whose mean is within a quarter of its deviation of 0, the
    // kernel sums the next row about 0 (norm_rows.c): a narrow row far from
    // 0, outliers, a ramp, a row whose squares about 0 overflow float32 (redone
    // in float64), subnormals, NaN must still come out within the bound.
    const r = rng(11);
    const KINDS = [
      () => 1e4 + 1e-2 * r.normal(),
      () => 16777216 + r.normal(),
      () => 1e20 + 1e18 * r.normal(),
      () => 1e30 * r.normal(),
      () => 3e38 * (r.normal() > 0 ? 1 : -1),
      (j) => (j < 8 ? 1e3 + r.normal() : r.normal()),
      (j) => 1000 * j + r.normal(),
      () => 1e-40 * r.normal(),
      () => -0,
      () => 3 + 2 * r.normal(),
    ];
    const centred = () => r.normal();
    for (const cols of [5, 64, 300, 1031]) {
      // centred, kind 0, centred, kind 1, …
      const x = new Float32Array(2 * KINDS.length * cols);
      KINDS.forEach((kind, k) => {
        for (let j = 0; j < cols; j++) {
          x[2 * k * cols + j] = centred();
          x[(2 * k + 1) * cols + j] = kind(j);
        }
      });
      const got = pn.layerNorm(x, { cols }), ref = layerNorm(x, cols, { eps: Math.fround(1e-5) });
      for (let k = 0; k < 2 * KINDS.length; k++) {
        const row = (a) => a.subarray(k * cols, (k + 1) * cols);
        let big = 0;
        for (const t of row(ref.y)) big = Math.max(big, Math.abs(t));
        const e = maxAbsDiff(row(got.y), row(ref.y));
        // the header's bound (5e-6), and in ulps of the row's largest |y| as the test above
        assert.ok(e <= 5e-6 && e / (big ? ulp32(big) : 1) <= 4, `row ${k} (${k % 2 ? `kind ${k >> 1}` : 'centred'}), cols ${cols}: ${e}`);
        // the mean within 1e-5 relative where it is a normal float32 (posnorm.h)
        if (Number.isFinite(ref.mean[k]) && Math.abs(ref.mean[k]) >= 2 ** -126) {
          assert.ok(Math.abs(got.mean[k] - ref.mean[k]) <= 1e-5 * Math.abs(ref.mean[k]) + 1e-6 * Math.sqrt(ref.variance[k]), `mean of row ${k}, cols ${cols}: ${got.mean[k]} vs ${ref.mean[k]}`);
        }
      }
    }
    // NaN after a centred row stays in its row
    const x = new Float32Array(3 * 64);
    for (let j = 0; j < 64; j++) { x[j] = centred(); x[64 + j] = j === 5 ? NaN : 1e4 + r.normal(); x[128 + j] = centred(); }
    const y = pn.layerNorm(x, { cols: 64 }).y;
    assert.ok(y.subarray(64, 128).every(Number.isNaN), 'the NaN row is NaN');
    const ref = layerNorm(x.subarray(128), 64, { eps: Math.fround(1e-5) }).y;
    assert.ok(maxAbsDiff(y.subarray(128), ref) <= 5e-6, 'the row after it is untouched');
  });

  test(`${name}: LayerNorm hand-worked case, defaults, constant rows and in place`, () => {
    const { y, mean, invStdDev } = pn.layerNorm(new Float32Array([1, 2, 3, 4]), { cols: 4, eps: 0 });
    const s = 1 / Math.sqrt(1.25);
    // within one float32 ulp of the exact values
    assert.ok(maxAbsDiff(y, [-1.5 * s, -0.5 * s, 0.5 * s, 1.5 * s]) <= 1.2e-7);
    assert.equal(mean[0], 2.5);
    assert.equal(invStdDev[0], Math.fround(s));
    // a constant row gives exactly beta
    const beta = new Float32Array([0.25, -7, 3.5]);
    for (const c of [0.1, -12345.678, 1e6]) {
      const out = pn.layerNorm(new Float32Array([c, c, c]), { cols: 3, beta }).y;
      assert.deepEqual(out, beta);
    }
    // in place through a zero-copy buffer
    const buf = pn.alloc(8);
    buf.array.set([1, 2, 3, 4, 10, 20, 30, 40]);
    const res = pn.layerNorm(buf, { cols: 4, out: buf });
    assert.equal(res.y, buf);
    const ref = layerNorm(new Float32Array([1, 2, 3, 4, 10, 20, 30, 40]), 4).y;
    assert.ok(maxAbsDiff(buf.array, ref) < 1e-6);
    buf.free();
  });

  test(`${name}: NaN and Inf reach only their own row`, () => {
    const x = normals(4 * 9, { seed: 3 });
    x[9 + 2] = NaN;
    x[27 + 5] = Infinity;
    const clean = layerNorm(x, 9).y;
    for (const fnName of ['layerNorm', 'rmsNorm']) {
      const { y } = pn[fnName](x, { cols: 9 });
      for (let j = 0; j < 9; j++) {
        assert.ok(Number.isNaN(y[9 + j]), `${fnName} row 1 NaN`);
        assert.ok(Number.isFinite(y[j]) && Number.isFinite(y[18 + j]), `${fnName} rows 0, 2 finite`);
      }
      // the row with +Inf: the float64 formula gives (Inf − Inf)·0 = NaN at the Inf and
      // (x − Inf)·0 = NaN elsewhere for LayerNorm (mean Inf); for RMSNorm x·(1/√Inf) = 0
      // for finite x and Inf·0 = NaN at the Inf
      for (let j = 0; j < 9; j++) {
        const v = y[27 + j];
        if (fnName === 'layerNorm') assert.ok(Number.isNaN(v), `layerNorm row 3 [${j}] = ${v}, float64 NaN`);
        else assert.ok(j === 5 ? Number.isNaN(v) : Object.is(Math.abs(v), 0), `rmsNorm row 3 [${j}] = ${v}, float64 ${j === 5 ? 'NaN' : '±0'}`);
      }
      if (fnName === 'layerNorm') {
        assert.ok(maxAbsDiff(y.subarray(0, 9), clean.subarray(0, 9)) < 1e-6);
        assert.ok(maxAbsDiff(y.subarray(18, 27), clean.subarray(18, 27)) < 1e-6);
      }
    }
  });

  test(`${name}: RMSNorm matches float64`, () => {
    for (const cols of [1, 2, 3, 7, 17, 4097]) {
      const { gamma } = affine(cols, 5);
      const x = normals(3 * cols, { mean: 0.5, std: 3, seed: cols });
      const { y, invRms } = pn.rmsNorm(x, { cols, gamma });
      const ref = rmsNorm(x, cols, { gamma, eps: Math.fround(1e-6) });
      let maxY = 0;
      for (const t of ref.y) maxY = Math.max(maxY, Math.abs(t));
      for (let r = 0; r < 3; r++) assert.ok(Math.abs(invRms[r] - ref.invRms[r]) <= RMS_INV * ref.invRms[r], `cols ${cols} invRms[${r}]`);
      assert.ok(maxAbsDiff(y, ref.y) <= RMS_Y * maxY, `cols ${cols}: ${maxAbsDiff(y, ref.y)}`);
    }
  });

  test(`${name}: BatchNorm training, running statistics, inference`, () => {
    for (const [rows, cols] of [[1, 3], [2, 1], [7, 17], [64, 70]]) {
      const { gamma, beta } = affine(cols, 9);
      const x = normals(rows * cols, { mean: 5, std: 2, seed: rows * cols });
      const runningMean = new Float32Array(cols).fill(0.5);
      const runningVar = new Float32Array(cols).fill(2);
      const res = pn.batchNorm(x, { cols, gamma, beta, runningMean, runningVar, momentum: 0.8 });
      const stats = columnStats(x, cols); // biased variance, as ONNX
      const rm = runningUpdate(new Float64Array(cols).fill(0.5), stats.mean, Math.fround(0.8));
      const rv = runningUpdate(new Float64Array(cols).fill(2), stats.variance, Math.fround(0.8));
      const ref = batchNorm(x, cols, { ...stats, gamma, beta, eps: Math.fround(1e-5) });
      // statistics and y in float64, each rounded once: half an ulp (measured 0.5)
      for (let c = 0; c < cols; c++) {
        assert.ok(Math.abs(res.mean[c] - stats.mean[c]) <= 0.5 * ulp32(stats.mean[c]), `mean[${c}]`);
        assert.ok(Math.abs(res.var[c] - stats.variance[c]) <= 0.5 * ulp32(stats.variance[c]), `var[${c}]`);
        assert.ok(Math.abs(runningMean[c] - rm[c]) <= 0.5 * ulp32(rm[c]), `runningMean[${c}] ${runningMean[c]} vs ${rm[c]}`);
        assert.ok(Math.abs(runningVar[c] - rv[c]) <= 0.5 * ulp32(rv[c]), `runningVar[${c}] ${runningVar[c]} vs ${rv[c]}`);
      }
      const e = compareValues(res.y, ref, ulp32);
      assert.ok(e.err <= 0.6, `${rows}×${cols}: y ${e.err} ulp`);
      if (rows === 1) assert.deepEqual(res.y, beta); // batch of one: variance 0, y = beta
      const inf = pn.batchNorm(x, { cols, training: false, runningMean, runningVar, eps: 0 });
      const infRef = batchNorm(x, cols, { mean: runningMean, variance: runningVar, eps: 0 });
      const ei = compareValues(inf.y, infRef, ulp32);
      assert.ok(ei.err <= 0.6 && ei.compared === x.length, `inference: ${ei.err} ulp`);
      // and with an eps that matters (0 above would not see where it goes): (x - m)/sqrt(v + eps)
      const eps = Math.fround(0.25);
      const infE = pn.batchNorm(x, { cols, training: false, runningMean, runningVar, eps });
      const eie = compareValues(infE.y, batchNorm(x, cols, { mean: runningMean, variance: runningVar, eps }), ulp32);
      assert.ok(eie.err <= 0.6 && eie.compared === x.length, `inference, eps ${eps}: ${eie.err} ulp`);
    }
  });

  test(`${name}: BatchNorm on columns whose large values cancel: the mean is the exact one, rounded, and y within 0.6 ulp of the formula at that mean`, () => {
    // The exact mean of float32 values, from their exact sum: every float32
    // times 2^149 is an integer, summed as a BigInt (then one rounding of the
    // sum to float64 and one of the division: within an ulp of float64).
    const exactMean = (xs) => Number(xs.reduce((a, t) => a + BigInt(t * 2 ** 149), 0n)) / xs.length / 2 ** 149;
    // each column one case, one row per value: large values that cancel
    // with small ones left, in orders where a plain float64 sum loses the
    // small ones or keeps them
    const columns = [[1e17, -1e17, 1, 0], [1e11, -1e11, 0.3, 0], [1e13, 0.3, -1e13, 0.7], [0.5, 3e18, 0.25, -3e18],
      [16777215, 16777214, 16777214, 16777214]];
    const rows = 4, cols = columns.length;
    const x = new Float32Array(rows * cols);
    columns.forEach((col, c) => col.forEach((t, r) => { x[r * cols + c] = t; }));
    const gamma = Float32Array.from({ length: cols }, (_, c) => [1, 1e17, 3, 1e10, 1][c]);
    const res = pn.batchNorm(x, { cols, gamma, eps: 0 });
    for (let c = 0; c < cols; c++) {
      const col = Array.from({ length: rows }, (_, r) => x[r * cols + c]);
      const m = exactMean(col);
      const v = col.reduce((a, t) => a + (t - m) ** 2, 0) / rows;
      assert.ok(Math.abs(res.mean[c] - m) <= 0.5 * ulp32(m), `column ${c}: mean ${res.mean[c]} against ${m}`);
      assert.ok(Math.abs(res.var[c] - v) <= 1e-5 * v, `column ${c}: var ${res.var[c]} against ${v}`);
      const want = col.map((t) => gamma[c] * ((t - m) / Math.sqrt(v)));
      const e = compareValues(Float32Array.from(col, (_, r) => res.y[r * cols + c]), want, ulp32);
      assert.ok(e.err <= 0.6 && e.compared === rows, `column ${c}: y ${e.err} ulp`);
    }
  });

  test(`${name}: BatchNorm updates running statistics held in wasm buffers in place`, () => {
    const x = normals(5 * 3, { mean: 2, seed: 21 });
    const rm = pn.alloc(3).set([1, 1, 1]), rv = pn.alloc(3).set([4, 4, 4]);
    pn.batchNorm(x, { cols: 3, runningMean: rm, runningVar: rv, momentum: 0.5 });
    const stats = columnStats(x, 3); // the batch statistics in float64 here, not the kernel's
    const wantMean = runningUpdate([1, 1, 1], stats.mean, 0.5), wantVar = runningUpdate([4, 4, 4], stats.variance, 0.5);
    for (let c = 0; c < 3; c++) {
      assert.ok(Math.abs(rm.array[c] - wantMean[c]) <= 0.5 * ulp32(wantMean[c]), `runningMean[${c}]`);
      assert.ok(Math.abs(rv.array[c] - wantVar[c]) <= 0.5 * ulp32(wantVar[c]), `runningVar[${c}]`);
    }
    rm.free();
    rv.free();
  });

  test(`${name}: BatchNorm NaN reaches only its own column`, () => {
    const x = normals(6 * 4, { seed: 11 });
    x[2 * 4 + 1] = NaN;
    const { y } = pn.batchNorm(x, { cols: 4 });
    for (let r = 0; r < 6; r++) {
      assert.ok(Number.isNaN(y[r * 4 + 1]));
      assert.ok(Number.isFinite(y[r * 4]) && Number.isFinite(y[r * 4 + 2]) && Number.isFinite(y[r * 4 + 3]));
    }
  });
}

test('RMSNorm past 2^22 values, where the SIMD build takes two passes per row: rows of every kind within the bound of float64, and the bits of the scalar build, of the same rows in smaller calls, and of the call in place', () => {
  // norm_rows.c: from 2^22 values RMSNorm sums each row, then writes it
  // (TWO_PASS_MIN); below, and in the scalar build, it sums row r+1 while
  // it writes row r. Both must give the same bits; 4211 columns leave 28
  // groups of 4 and a tail of 3 after 32 blocks of 128, and the special rows sit first (row
  // 0's sums are taken before the loop), in the middle, next to each other, and last.
  const cols = 4211, rows = 1024, n = rows * cols;
  assert.ok(n >= 2 ** 22 && 512 * cols < 2 ** 22);
  const r = rng(20);
  const x = new Float32Array(n);
  for (let i = 0; i < n; i++) x[i] = 3 + 2 * r.normal();
  const SPECIAL = {
    0: () => 1e4 + r.normal(), // summed before the loop
    1: () => 50 * r.normal(), // must not take row 0's sums
    2: () => 1e30 * r.normal(), // squares overflow float32: the row in float64
    3: () => 1e-30 * r.normal(), // squares underflow: float64
    4: () => 1e-40 * r.normal(), // subnormals
    5: () => -0,
    500: () => 3e38 * (r.normal() > 0 ? 1 : -1),
    501: (j) => (j === 7 ? NaN : r.normal()),
    502: (j) => (j === 4098 ? Infinity : r.normal()),
    503: (j) => (j < 8 ? 1e3 : 1e-3 * r.normal()),
    [rows - 1]: () => 1e20 * r.normal(),
  };
  for (const [row, kind] of Object.entries(SPECIAL)) for (let j = 0; j < cols; j++) x[row * cols + j] = kind(j);
  const { gamma } = affine(cols, 21);
  const eps = Math.fround(1e-6);
  const ref = rmsNorm(x, cols, { gamma, eps });
  const bits = (a) => new Uint32Array(a.buffer, a.byteOffset, a.length);
  const results = all.map(({ name, pn }) => ({ name, ...pn.rmsNorm(x, { cols, gamma, eps }) }));
  for (const { name, y, invRms } of results) {
    for (let row = 0; row < rows; row++) {
      const got = y.subarray(row * cols, (row + 1) * cols), want = ref.y.subarray(row * cols, (row + 1) * cols);
      if (Number.isFinite(ref.invRms[row]) && want.every(Number.isFinite)) {
        let top = 0;
        for (const t of want) top = Math.max(top, Math.abs(t));
        const err = top ? maxAbsDiff(got, want) / top : maxAbsDiff(got, want);
        assert.ok(err <= RMS_Y, `${name} row ${row}: ${err}·max|y|`);
        assert.ok(Math.abs(invRms[row] - ref.invRms[row]) <= RMS_INV * ref.invRms[row], `${name} invRms ${row}`);
      } else {
        // NaN or ±Inf in the row: NaN wherever float64 gives NaN
        for (let j = 0; j < cols; j++) assert.equal(Number.isNaN(got[j]), Number.isNaN(want[j]), `${name} row ${row} col ${j}`);
      }
    }
  }
  const [simd, scalar] = results;
  assert.deepEqual(bits(simd.y), bits(scalar.y), 'the SIMD build (two passes) and the scalar build (one loop) disagree');
  assert.deepEqual(bits(simd.invRms), bits(scalar.invRms));
  for (const { name, pn } of all) {
    const { y, invRms } = results.find((res) => res.name === name);
    const parts = [0, 512].map((row) => pn.rmsNorm(x.subarray(row * cols, (row + 512) * cols), { cols, gamma, eps }));
    assert.deepEqual(bits(y), bits(Float32Array.from([...parts[0].y, ...parts[1].y])), `${name}: a row's bits depend on the rows around it`);
    assert.deepEqual(bits(invRms), bits(Float32Array.from([...parts[0].invRms, ...parts[1].invRms])));
    const buf = pn.alloc(n);
    try {
      buf.array.set(x);
      const inPlace = pn.rmsNorm(buf, { cols, gamma, eps, out: buf });
      assert.deepEqual(bits(buf.array), bits(y), `${name}: in place`);
      assert.deepEqual(bits(inPlace.invRms), bits(invRms));
    } finally {
      buf.free();
    }
  }
  // LayerNorm keeps its one loop at every size: the same rows, the same bits
  // in both builds and in smaller calls, within its bound where finite
  const ln = all.map(({ pn }) => pn.layerNorm(x, { cols, gamma })), lnRef = layerNorm(x, cols, { gamma, eps: Math.fround(1e-5) });
  assert.deepEqual(bits(ln[0].y), bits(ln[1].y));
  const lnParts = [0, 512].map((row) => all[0].pn.layerNorm(x.subarray(row * cols, (row + 512) * cols), { cols, gamma }));
  assert.deepEqual(bits(ln[0].y), bits(Float32Array.from([...lnParts[0].y, ...lnParts[1].y])));
  for (let row = 0; row < rows; row++) {
    const want = lnRef.y.subarray(row * cols, (row + 1) * cols);
    if (!want.every(Number.isFinite)) continue;
    const err = maxAbsDiff(ln[0].y.subarray(row * cols, (row + 1) * cols), want);
    assert.ok(err <= 3.5e-6 + 2 ** -22 * Math.max(...want.map(Math.abs)), `LayerNorm row ${row}: ${err}`);
  }
});

test('SIMD and scalar norms are bit-identical', () => {
  const [a, b] = all;
  const x = normals(5 * 1031, { mean: 1e4, std: 3, seed: 99 });
  const { gamma, beta } = affine(1031, 2);
  assert.deepEqual(a.pn.layerNorm(x, { cols: 1031, gamma, beta }), b.pn.layerNorm(x, { cols: 1031, gamma, beta }));
  assert.deepEqual(a.pn.rmsNorm(x, { cols: 1031, gamma }), b.pn.rmsNorm(x, { cols: 1031, gamma }));
  assert.deepEqual(a.pn.batchNorm(x, { cols: 1031 }), b.pn.batchNorm(x, { cols: 1031 }));
});
