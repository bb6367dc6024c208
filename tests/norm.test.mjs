// LayerNorm, RMSNorm and BatchNorm against float64 references, both builds.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { builds, columnStats, layerNormRef, maxAbsDiff, normals, rng } from './helpers.mjs';

const all = await builds();
const COLS = [1, 2, 3, 7, 17, 768, 4097, 8192];
const MEANS = [0, 1, -100, 1e4, -1e4, 1e6, -1e6];
const STDS = [1e-2, 0.1, 1, 10, 1e3];

function affine(cols, seed) {
  const r = rng(seed);
  const gamma = new Float32Array(cols).map(() => Math.max(-2, Math.min(2, 1 + 0.5 * r.normal())));
  const beta = new Float32Array(cols).map(() => Math.max(-2, Math.min(2, r.normal())));
  return { gamma, beta };
}

for (const { name, pn } of all) {
  test(`${name}: LayerNorm max abs error <= 5e-6 for |mean| <= 1e6, std 1e-2..1e3, cols 1..8192`, () => {
    let worst = 0;
    let seed = 1;
    for (const cols of COLS) {
      const { gamma, beta } = affine(cols, cols);
      for (const mean of MEANS) {
        for (const std of STDS) {
          const rows = cols > 1000 ? 2 : 4;
          const x = normals(rows * cols, { mean, std, seed: seed++ });
          const got = pn.layerNorm(x, { cols, gamma, beta });
          const ref = layerNormRef(x, cols, gamma, beta, 1e-5);
          const err = maxAbsDiff(got.y, ref.y);
          worst = Math.max(worst, err);
          assert.ok(err <= 5e-6, `cols ${cols} mean ${mean} std ${std}: ${err}`);
          for (let r = 0; r < rows; r++) {
            assert.ok(Math.abs(got.mean[r] - ref.mean[r]) <= 1e-7 * Math.abs(ref.mean[r]) + 1e-6 * std);
            assert.ok(Math.abs(got.invStdDev[r] - ref.inv[r]) <= 1e-6 * ref.inv[r]);
          }
        }
      }
    }
    assert.ok(worst > 0, 'the comparison saw rounding at all');
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
    const ref = layerNormRef(new Float32Array([1, 2, 3, 4, 10, 20, 30, 40]), 4, null, null, 1e-5).y;
    assert.ok(maxAbsDiff(buf.array, ref) < 1e-6);
    buf.free();
  });

  test(`${name}: NaN and Inf reach only their own row`, () => {
    const x = normals(4 * 9, { seed: 3 });
    x[9 + 2] = NaN;
    x[27 + 5] = Infinity;
    const clean = layerNormRef(x, 9, null, null, 1e-5).y;
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
      let maxY = 0;
      const ref = new Float64Array(x.length);
      for (let r = 0; r < 3; r++) {
        let ss = 0;
        for (let j = 0; j < cols; j++) ss += x[r * cols + j] ** 2;
        const inv = 1 / Math.sqrt(ss / cols + 1e-6);
        assert.ok(Math.abs(invRms[r] - inv) <= 1e-6 * inv);
        for (let j = 0; j < cols; j++) {
          ref[r * cols + j] = gamma[j] * x[r * cols + j] * inv;
          maxY = Math.max(maxY, Math.abs(ref[r * cols + j]));
        }
      }
      assert.ok(maxAbsDiff(y, ref) <= 2e-6 * maxY, `cols ${cols}`);
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
      for (let c = 0; c < cols; c++) {
        const m = stats.mean[c], v = stats.variance[c];
        assert.ok(Math.abs(res.mean[c] - m) <= 1e-6 * Math.abs(m));
        assert.ok(Math.abs(res.var[c] - v) <= 1e-6 * v + 1e-12);
        assert.ok(Math.abs(runningMean[c] - (0.8 * 0.5 + 0.2 * m)) <= 1e-6);
        assert.ok(Math.abs(runningVar[c] - (0.8 * 2 + 0.2 * v)) <= 1e-6);
        for (let r = 0; r < rows; r++) {
          const ref = gamma[c] * (x[r * cols + c] - m) / Math.sqrt(v + 1e-5) + beta[c];
          assert.ok(Math.abs(res.y[r * cols + c] - ref) <= 3e-6, `${rows}×${cols} (${r}, ${c})`);
        }
      }
      if (rows === 1) assert.deepEqual(res.y, beta); // batch of one: variance 0, y = beta
      const inf = pn.batchNorm(x, { cols, training: false, runningMean, runningVar, eps: 0 });
      for (let k = 0; k < x.length; k += 5) {
        const c = k % cols;
        assert.ok(Math.abs(inf.y[k] - (x[k] - runningMean[c]) / Math.sqrt(runningVar[c])) <= 2e-6);
      }
    }
  });

  test(`${name}: BatchNorm updates running statistics held in wasm buffers in place`, () => {
    const x = normals(5 * 3, { mean: 2, seed: 21 });
    const rm = pn.alloc(3).set([1, 1, 1]), rv = pn.alloc(3).set([4, 4, 4]);
    pn.batchNorm(x, { cols: 3, runningMean: rm, runningVar: rv, momentum: 0.5 });
    const stats = columnStats(x, 3); // the batch statistics in float64 here, not the kernel's
    for (let c = 0; c < 3; c++) {
      const m = stats.mean[c], v = stats.variance[c];
      assert.ok(Math.abs(rm.array[c] - (0.5 + 0.5 * m)) < 1e-6);
      assert.ok(Math.abs(rv.array[c] - (2 + 0.5 * v)) < 1e-6);
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

test('SIMD and scalar norms are bit-identical', () => {
  const [a, b] = all;
  const x = normals(5 * 1031, { mean: 1e4, std: 3, seed: 99 });
  const { gamma, beta } = affine(1031, 2);
  assert.deepEqual(a.pn.layerNorm(x, { cols: 1031, gamma, beta }), b.pn.layerNorm(x, { cols: 1031, gamma, beta }));
  assert.deepEqual(a.pn.rmsNorm(x, { cols: 1031, gamma }), b.pn.rmsNorm(x, { cols: 1031, gamma }));
  assert.deepEqual(a.pn.batchNorm(x, { cols: 1031 }), b.pn.batchNorm(x, { cols: 1031 }));
});
