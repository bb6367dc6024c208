// The edges of float32: LayerNorm, RMSNorm and BatchNorm on finite inputs of
// any size (up to 3.4028235e38, deviations of any size, down to denormals)
// and any eps >= 0, against the float64 references of tests/reference/; the colormap
// for any finite vmin < vmax; minRowDistance with NaN rows.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { builds, rng, ulp32 } from './helpers.mjs';
import { colormapIndex } from './reference/colormap.mjs';
import { batchNorm, columnStats, exactMeanAndDeviation, layerNorm, rmsNorm } from './reference/norms.mjs';

const all = await builds();
const F32_MAX = 3.4028234663852886e38;
const F32_MIN_NORMAL = 1.1754943508222875e-38;
const f32 = Math.fround;

/** Relative error where the reference is a normal float32, else skipped. */
function relOk(got, ref, tol) {
  const a = Math.abs(ref);
  if (!(a >= F32_MIN_NORMAL && a <= F32_MAX)) return true;
  return Math.abs(got - ref) <= tol * a;
}

/** Rows of hard cases, each [values], plus random rows of every magnitude. */
function hardRows(cols, seed) {
  const r = rng(seed);
  const rows = [];
  const fill = (fn) => Float32Array.from({ length: cols }, (_, j) => f32(fn(j)));
  rows.push(fill((j) => (j % 2 ? -2e19 : 2e19)));
  rows.push(fill((j) => (j % 3 ? 3e38 : 3.4e38)));
  rows.push(fill((j) => (j % 2 ? -F32_MAX : F32_MAX)));
  rows.push(fill((j) => (j % 2 ? 1e-23 : -1e-23)));
  rows.push(fill((j) => (j + 1) * 1.401298464324817e-45)); // denormals
  rows.push(fill(() => 1e30 + 0));
  rows.push(fill((j) => 1e20 * r.normal()));
  for (let k = 0; k < 4; k++) {
    const e = -45 + r.uniform() * 83; // log10 magnitude from 1e-45 to 1e38
    rows.push(fill(() => Math.max(-F32_MAX, Math.min(F32_MAX, 10 ** e * r.normal()))));
    rows.push(fill(() => Math.max(-F32_MAX, Math.min(F32_MAX, 10 ** (-45 + r.uniform() * 83) * Math.sign(r.normal())))));
  }
  return rows;
}

const EPS = [0, 2 ** -149, 1e-30, 1e-12, 1e-5, 1]; // 2^-149: the smallest positive float32
// Measured over these rows in both builds: LayerNorm 9.5e-7, RMSNorm 9.2e-8·max|y| (and at most
// 2.9e-45, two denormal steps, where every |y| is below 1e-30), BatchNorm 1.1e-7.

for (const { name, pn } of all) {
  test(`${name}: LayerNorm stays finite and within 2e-6 of float64 (posnorm.h promises 5e-6) over the whole float32 range`, () => {
    for (const cols of [1, 2, 3, 5, 16, 67, 300, 1031]) {
      for (const [k, row] of hardRows(cols, cols).entries()) {
        for (const eps of EPS) {
          const got = pn.layerNorm(row, { cols, eps });
          const ref = layerNorm(row, cols, { eps: f32(eps) });
          for (let j = 0; j < cols; j++) {
            const want = ref.y[j];
            if (Number.isNaN(want)) { // 0·∞ with eps 0 on a constant row: NaN in float64, and so here
              assert.ok(Number.isNaN(got.y[j]), `cols ${cols} row ${k} eps ${eps}: y[${j}] = ${got.y[j]}, float64 NaN`);
              continue;
            }
            assert.ok(Number.isFinite(got.y[j]), `cols ${cols} row ${k} eps ${eps}: y[${j}] = ${got.y[j]}, float64 ${want}`);
            assert.ok(Math.abs(got.y[j] - want) <= 2e-6, `cols ${cols} row ${k} eps ${eps}: y[${j}] ${got.y[j]} vs ${want}`);
          }
          assert.ok(relOk(got.mean[0], ref.mean[0], 1e-5), `mean ${got.mean[0]} vs ${ref.mean[0]}`);
          assert.ok(relOk(got.invStdDev[0], ref.invStd[0], 1e-5), `cols ${cols} row ${k} eps ${eps}: invStdDev ${got.invStdDev[0]} vs ${ref.invStd[0]}`);
        }
      }
    }
  });

  test(`${name}: LayerNorm's mean is within 1e-5·|mean| + 1e-6·σ of the exact mean, where values cancel as well`, () => {
    // No float32 sum can hold a small mean of large values to 1e-5 of
    // itself (posnorm.h once promised that: [1e8, -1e8, 3, 0] gave 1.125
    // for 0.75); its error scales with the row's spread, σ. Measured over
    // these rows, both builds: at most 9.1e-8·σ beyond the relative term.
    const r = rng(11);
    let cancelled = 0;
    for (let t = 0; t < 1500; t++) {
      const cols = [1, 2, 3, 4, 5, 8, 16, 17, 33, 64, 127, 128, 129, 300, 768, 1031][t % 16];
      const big = 10 ** (r.uniform() * 38 * (t % 3 === 0 ? 1 : 0.5)), small = 10 ** (r.uniform() * 10 - 5);
      const kind = t % 5;
      const row = Float32Array.from({ length: cols }, (_, j) => f32(
        kind === 0 ? (j % 2 ? -big : big) + small * r.normal() // pairs that cancel, a small mean
          : kind === 1 ? (j < 2 ? (j ? -big : big) : small * r.normal() + small) // two outliers first
            : kind === 2 ? big * r.normal()
              : kind === 3 ? (j === 0 ? big : small * (j % 7))
                : small + big * (j / cols - 0.5))); // a ramp about a small mean
      const { mean, sd } = exactMeanAndDeviation(row);
      const got = pn.layerNorm(row, { cols }).mean[0];
      if (1e-6 * sd > 1e-5 * Math.abs(mean)) cancelled++;
      assert.ok(Math.abs(got - mean) <= 1e-5 * Math.abs(mean) + 1e-6 * sd + 2 ** -149, `kind ${kind}, cols ${cols}: mean ${got}, exact ${mean}, σ ${sd}`);
    }
    // a subnormal mean is written to float32's step (an audit found the bound without 2^-149 could not hold):
    // {0, 2^-149} has mean 2^-150, exactly half a step
    const tiny = pn.layerNorm(new Float32Array([0, 2 ** -149]), { cols: 2, eps: 0 }).mean[0];
    assert.ok(tiny === 0 || tiny === 2 ** -149, `mean ${tiny}`);
    // most rows are ones where the σ term is the larger (the inputs, not the code)
    assert.ok(cancelled > 500, `${cancelled} rows where 1e-6·σ passes 1e-5·|mean|`);
  });

  test(`${name}: RMSNorm stays finite and within 2e-7·max|y| of float64 (posnorm.h promises 2e-6) over the whole float32 range`, () => {
    const r0 = pn.rmsNorm(new Float32Array([2e19, -2e19, 2e19, 2e19]), { cols: 4 });
    assert.deepEqual([...r0.y], [1, -1, 1, 1]);
    assert.ok(relOk(r0.invRms[0], 1 / 2e19, 1e-6));
    const r1 = pn.rmsNorm(new Float32Array([1e-23, -1e-23]), { cols: 2, eps: 0 });
    assert.deepEqual([...r1.y], [1, -1]);
    for (const cols of [1, 2, 3, 5, 16, 67, 300, 1031]) {
      for (const [k, row] of hardRows(cols, 100 + cols).entries()) {
        for (const eps of EPS) {
          const got = pn.rmsNorm(row, { cols, eps });
          const { y: want, invRms: [inv] } = rmsNorm(row, cols, { eps: f32(eps) });
          const top = Math.max(...Array.from(want, Math.abs));
          for (let j = 0; j < cols; j++) {
            if (Number.isNaN(want[j])) { assert.ok(Number.isNaN(got.y[j]), `cols ${cols} row ${k} eps ${eps}: y[${j}] = ${got.y[j]}, float64 NaN`); continue; }
            assert.ok(Number.isFinite(got.y[j]) && Math.abs(got.y[j] - want[j]) <= 2e-7 * top + 3 * 2 ** -149,
              `cols ${cols} row ${k} eps ${eps}: y[${j}] ${got.y[j]} vs ${want[j]}`);
          }
          assert.ok(relOk(got.invRms[0], inv, 1e-5), `invRms ${got.invRms[0]} vs ${inv}`);
        }
      }
    }
  });

  test(`${name}: RMSNorm with gamma is within 2e-6·max|y| + 2^-148·max(1, max|gamma|) of float64 where x·inv is subnormal`, () => {
    // x·inv is rounded to float32 (a subnormal step, 1.4e-45) before gamma
    // scales it: by hand, x = {1, 2^-148}: mean square 1/2 (+ 2^-297), inv =
    // √2, y[1] = γ·2^-148·√2 = γ·3.96e-45 in float64; t = x·inv rounds to
    // 3·2^-149 = 4.2e-45, 6 % off, before γ multiplies it
    for (const gamma of [[0, 1024], [1e-30, 2 ** 100], [1, 16], [-3, 2 ** 120]]) {
      const x = new Float32Array([1, 2 ** -148]), g = Float32Array.from(gamma);
      const got = pn.rmsNorm(x, { cols: 2, gamma: g, eps: 0 }).y;
      const want = [1, 2 ** -148].map((v, j) => v * Math.SQRT2 * g[j]);
      const top = Math.max(...want.map(Math.abs)), gmax = Math.max(...Array.from(g, Math.abs));
      for (let j = 0; j < 2; j++) {
        assert.ok(Math.abs(got[j] - want[j]) <= 2e-6 * top + 2 ** -148 * Math.max(1, gmax), `gamma ${gamma}: y[${j}] ${got[j]} vs ${want[j]}`);
        // and what that term is for: at most half a subnormal step of t, times |γ|, and y's own rounding
        assert.ok(Math.abs(got[j] - want[j]) <= 2 ** -24 * Math.abs(want[j]) + 2 ** -150 * (Math.abs(g[j]) + 1), `gamma ${gamma}: y[${j}] ${got[j]} vs ${want[j]}, beyond half a step times γ`);
      }
    }
  });

  test(`${name}: BatchNorm of a column of 63161283 near-equal values is within 5e-6 of the exact y (the float64 mean's rounding alone was 7.4e-6 off)`, () => {
    // by hand: n values a = 16777214 but one a + 1 (both float32): mean a +
    // 1/n, variance (n - 1)/n², so y = -1/√(n - 1) for the a's and √(n - 1)
    // for the other (eps 0). Σx/n rounded to float64 is 9.3e-10 from the
    // mean, and σ is 1.3e-4: without the mean's rest every y moved 7.4e-6
    const n = 63161283, a = 16777214;
    const buf = pn.alloc(n);
    try {
      const x = buf.array;
      x.fill(a);
      x[n >> 1] = a + 1;
      const { mean, var: variance } = pn.batchNorm(buf, { cols: 1, eps: 0, out: buf });
      const y = buf.array;
      const low = -1 / Math.sqrt(n - 1), high = Math.sqrt(n - 1);
      assert.ok(Math.abs(y[0] - low) <= 5e-6 && Math.abs(y[n - 1] - low) <= 5e-6, `y ${y[0]}, exact ${low}`);
      assert.ok(Math.abs(y[n >> 1] - high) <= 0.5 * ulp32(high) + 1e-9 * high, `outlier ${y[n >> 1]}, exact ${high}`);
      assert.equal(mean[0], a, 'the mean a + 1.6e-8 is a in float32');
      assert.ok(Math.abs(variance[0] - (n - 1) / n / n) <= 1e-5 * variance[0], `var ${variance[0]}`);
    } finally {
      buf.free();
    }
  });

  test(`${name}: BatchNorm's mean of a column with ±Inf is the float64 formula's (Σx/n: Inf, or NaN for Inf and -Inf), in the running mean too`, () => {
    const x = new Float32Array([Infinity, 1, -Infinity, 2, 5, 7, Infinity, Infinity, 3]); // columns [Inf, 2, Inf], [1, 5, Inf], [-Inf, 7, 3]
    const runningMean = new Float32Array(3), runningVar = new Float32Array(3).fill(1);
    const r = pn.batchNorm(x, { cols: 3, runningMean, runningVar, momentum: 0 });
    assert.deepEqual([...r.mean], [Infinity, Infinity, -Infinity]);
    assert.deepEqual([...runningMean], [Infinity, Infinity, -Infinity]);
    // (x - Inf) gives -Inf or NaN, so the variance and every y of those columns is NaN, as in float64
    assert.ok([...r.var, ...r.y].every(Number.isNaN), `${[...r.var]} ${[...r.y]}`);
    assert.ok(Number.isNaN(pn.batchNorm(new Float32Array([Infinity, -Infinity]), { cols: 1 }).mean[0]), 'Inf and -Inf: NaN');
  });

  test(`${name}: BatchNorm stays finite and within 2.5e-7 of float64 (posnorm.h promises 5e-6) over the whole float32 range`, () => {
    for (const rows of [1, 2, 3, 17]) {
      const cols = 5;
      for (const [k, column] of hardRows(rows, 200 + rows).entries()) {
        const x = new Float32Array(rows * cols);
        for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) x[r * cols + c] = column[(r + c) % rows];
        for (const eps of EPS) {
          const got = pn.batchNorm(x, { cols, eps });
          const stats = columnStats(x, cols);
          const ref = batchNorm(x, cols, { ...stats, eps: f32(eps) });
          for (let c = 0; c < cols; c++) {
            const m = stats.mean[c], v = stats.variance[c];
            for (let r = 0; r < rows; r++) {
              const want = ref[r * cols + c];
              if (Number.isNaN(want)) { // one row and eps 0: 0·∞ in float64
                assert.ok(Number.isNaN(got.y[r * cols + c]), `rows ${rows} case ${k} eps ${eps}: ${got.y[r * cols + c]}, float64 NaN`);
                continue;
              }
              const g = got.y[r * cols + c];
              assert.ok(Number.isFinite(g) && Math.abs(g - want) <= 2.5e-7, `rows ${rows} case ${k} eps ${eps}: ${g} vs ${want}`);
            }
            assert.ok(relOk(got.mean[c], m, 1e-5) && relOk(got.var[c], v, 1e-5), `mean/var ${got.mean[c]}/${got.var[c]} vs ${m}/${v}`);
          }
        }
      }
    }
  });

  test(`${name}: colormap gives every finite value an opaque colour for any finite vmin < vmax`, () => {
    const x = new Float32Array([-F32_MAX, -1e38, -1, 0, 1e-45, 1, 1e38, F32_MAX, NaN, Infinity, -Infinity]);
    for (const [vmin, vmax] of [[-F32_MAX, F32_MAX], [-3.4e38, 3.4e38], [0, 1.401298464324817e-45], [1, f32(1 + 2 ** -23)], [-1e-40, 1e-40], [-1, 1]]) {
      const px = pn.colormap(x, { vmin, vmax });
      const lut = pn.colormapTable('diverging');
      for (let j = 0; j < x.length; j++) {
        const alpha = px[4 * j + 3];
        if (Number.isNaN(x[j])) { assert.equal(alpha, 0, 'NaN is transparent'); continue; }
        assert.equal(alpha, 255, `x ${x[j]} in [${vmin}, ${vmax}] is opaque`);
        // the colour is the table entry of round(255·(x − vmin)/(vmax − vmin)), clamped
        const k = colormapIndex(x[j], f32(vmin), f32(vmax));
        assert.deepEqual([...px.subarray(4 * j, 4 * j + 3)], [...lut.subarray(4 * k, 4 * k + 3)], `x ${x[j]} in [${vmin}, ${vmax}]`);
      }
    }
  });

  test(`${name}: minRowDistance never picks a pair with a NaN row; with no comparable pair it says Infinity`, () => {
    const x = new Float32Array([0, 0, NaN, 0, 0.1, 0, 5, 5, 0.1, 0.05]);
    const r = pn.minRowDistance(x, { cols: 2 });
    assert.deepEqual([r.i, r.j], [2, 4]);
    assert.ok(Math.abs(r.distance - 0.05) < 1e-7);
    const none = pn.minRowDistance(new Float32Array([NaN, 1, 2, NaN]), { cols: 2 });
    assert.deepEqual([none.distance, none.i, none.j], [Infinity, 0, 1]);
  });
}

test('LayerNorm with any gamma and beta: within |γ|·(5e-6 + 2^-22·|t|) + 2^-23·(|γ·t| + |y|) + 2^-148 of float64 (t = the row normalised), also where β cancels γ·t', () => {
  // The kernel rounds t = (x − mean)·invStdDev to float32 (within the bound
  // without γ and β, 5e-6 + 2^-22·|t|), then y = t·γ + β in float32, a
  // product and a sum each rounded once. So γ scales t's error: γ = 10^4 and
  // β = −γ·t rounded to float32 leave a float64 y below 5e-4 that posnorm
  // misses by about 5e-5, past the 5e-6 + 2^-22·|y| that the docs stated
  // for every input until 2026-12-06 (it holds for |γ|, |β| ≤ 2).
  const cols = 64, rows = 12, r = rng(606);
  const x = Float32Array.from({ length: rows * cols }, () => 3 + 2 * r.normal());
  const t = layerNorm(x, cols, { eps: 1e-5 }).y;
  const mag = () => (r.uniform() < 0.5 ? -1 : 1) * 10 ** (7 * r.uniform() - 3);
  // one γ and β per column, as the API takes them; in the even columns β
  // cancels row 0's γ·t (column 0 with γ = 10^4), in the odd ones it is random
  const gamma = Float32Array.from({ length: cols }, mag);
  gamma[0] = 1e4;
  const beta = Float32Array.from({ length: cols }, (_, j) => (j % 2 === 0 ? -gamma[j] * t[j] : mag()));
  const want = layerNorm(x, cols, { gamma, beta, eps: 1e-5 }).y;
  for (const { name, pn } of all) {
    const { y } = pn.layerNorm(x, { cols, gamma, beta, eps: 1e-5 });
    for (let k = 0; k < rows * cols; k++) {
      const g = gamma[k % cols], err = Math.abs(y[k] - want[k]);
      const bound = Math.abs(g) * (5e-6 + 2 ** -22 * Math.abs(t[k])) + 2 ** -23 * (Math.abs(g * t[k]) + Math.abs(want[k])) + 2 ** -148;
      assert.ok(err <= bound, `${name}: y[${k}] ${y[k]} vs float64 ${want[k]} (γ ${g}, β ${beta[k % cols]}, t ${t[k]}): off by ${err.toExponential(2)}, bound ${bound.toExponential(2)}`);
    }
    // row 0, column 0 is the case this test is for: β cancels γ·t, y is what the rounding of β left
    assert.ok(Math.abs(want[0]) < 5e-3, `the cancelling case: y ${want[0]}`);
  }
});
