// The kernels behind the article's other figures, against the float64
// references of tests/reference/, and the references' own checks (erf
// against tabulated values).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { builds, compareValues, maxAbsDiff, normals, ulp32 } from './helpers.mjs';
import { attention } from './reference/attention.mjs';
import { erf, erfc, geluErf, geluTanh } from './reference/gelu.mjs';
import { layerNorm } from './reference/norms.mjs';
import { sinusoidal } from './reference/pe.mjs';
import { forward } from './reference/residual_stack.mjs';

const all = await builds();
const f32 = Math.fround;

test('the reference erf and erfc equal tabulated values to float64 accuracy; GELU in both forms', () => {
  // x, erf(x), erfc(x): Abramowitz & Stegun Table 7.1 and DLMF §7, to 22 digits (as mpmath 1.3.0 gives them)
  const TABLE = [
    [0.1, 0.1124629160182848922033, 0.8875370839817151077967],
    [0.5, 0.5204998778130465376827, 0.4795001221869534623173],
    [1, 0.8427007929497148693412, 0.1572992070502851306588],
    [2, 0.9953222650189527341621, 0.004677734981047265837931],
    [3, 0.9999779095030014145586, 0.00002209049699858544137278],
    [4, 0.99999998458274209972, 1.541725790028001885216e-8],
    [5, 0.9999999999984625402056, 1.537459794428034850188e-12],
    [6, 0.9999999999999999784803, 2.151973671249891311659e-17],
    [10, 1, 2.088487583762544757001e-45],
  ];
  for (const [x, e, c] of TABLE) {
    // measured: erf within 2.5e-16 relative, erfc within 9e-16 relative
    assert.ok(Math.abs(erf(x) - e) <= 4e-16 * e, `erf(${x}) = ${erf(x)}, table ${e}`);
    assert.equal(erf(-x), -erf(x), `erf(−${x}) = −erf(${x})`);
    assert.ok(Math.abs(erfc(x) - c) <= 2e-15 * c, `erfc(${x}) = ${erfc(x)}, table ${c}`);
    assert.ok(Math.abs(erfc(-x) - (1 + e)) <= 4e-16 * (1 + e), `erfc(−${x})`);
  }
  assert.equal(erf(0), 0);
  // z·Φ(z) (mpmath, 22 digits) and the tanh form at the same points (Hendrycks & Gimpel's approximation)
  for (const [z, v] of [[-3, -0.004049694094890283579955], [-1, -0.1586552539314570514148], [0.5, 0.3457312306370065518189], [2, 1.954499736103641585599]]) {
    assert.ok(Math.abs(geluErf(z) - v) <= 1e-15 * Math.abs(v), `geluErf(${z}) = ${geluErf(z)}, ${v}`);
    assert.ok(Math.abs(geluTanh(z) - v) <= 5e-4, `geluTanh(${z}) = ${geluTanh(z)} is within 5e-4 of the exact form`);
    assert.ok(Math.abs(geluTanh(z) - v) >= 1e-6 * Math.abs(v), 'and they are different functions');
  }
});

for (const { name, pn } of all) {
  test(`${name}: attention equals float64 attention and is permutation-equivariant`, () => {
    for (const [s, d, h] of [[1, 1, 1], [3, 8, 8], [7, 5, 3], [17, 16, 4]]) {
      const x = normals(s * d, { seed: s }), wq = normals(d * h, { seed: 2 }), wk = normals(d * h, { seed: 3 }), wv = normals(d * h, { seed: 4 });
      const { out, weights } = pn.attention(x, { dModel: d, dHead: h, wq, wk, wv });
      const ref = attention(x, wq, wk, wv, { seqLen: s, dModel: d, dHead: h });
      // float64 inside, rounded once: within half an ulp (measured 0.4996)
      const o = compareValues(out, ref.out, ulp32), a = compareValues(weights, ref.weights, ulp32);
      assert.ok(o.err <= 0.6 && a.err <= 0.6, `${s}×${d}→${h}: out ${o.err} ulp, weights ${a.err} ulp`);
      for (let i = 0; i < s; i++) assert.ok(Math.abs(weights.subarray(i * s, i * s + s).reduce((p, q) => p + q, 0) - 1) <= s * 6e-8, 'rows sum to 1');
      const perm = Array.from({ length: s }, (_, i) => (i * 5 + 2) % s);
      if (new Set(perm).size !== s) continue;
      const xp = new Float32Array(s * d);
      perm.forEach((p, i) => xp.set(x.subarray(p * d, p * d + d), i * d));
      const op = pn.attention(xp, { dModel: d, dHead: h, wq, wk, wv }).out;
      // the same float64 values summed in another order, rounded once: at most one ulp apart
      perm.forEach((p, i) => {
        const c = compareValues(op.subarray(i * h, i * h + h), out.subarray(p * h, p * h + h), ulp32);
        assert.ok(c.err <= 1, `row ${i} of the permuted input: ${c.err} ulp`);
      });
    }
  });

  test(`${name}: attention of scores far beyond exp's range (a softmax that does not subtract the row's largest score first gives Inf/Inf = NaN)`, () => {
    // by hand: x = [[30, -30], [10, 5]], wq = wk = wv = I, d_k = 2: row 0's
    // scores are [1800, 150]/√2, so its weights are [1, e^-1166.7] = [1, 0]
    // and its output is v_0 = [30, -30]
    const eye = new Float32Array([1, 0, 0, 1]);
    const r = pn.attention(new Float32Array([30, -30, 10, 5]), { dModel: 2, wq: eye, wk: eye, wv: eye });
    assert.deepEqual([...r.weights.subarray(0, 2)], [1, 0]);
    assert.deepEqual([...r.out.subarray(0, 2)], [30, -30]);
    // and against float64 attention (max-subtracted) at scores of about ±1e3
    const x = normals(5 * 4, { seed: 9 }).map((v) => 40 * v), w = normals(16, { seed: 10 });
    const { out, weights } = pn.attention(x, { dModel: 4, wq: w, wk: w, wv: w });
    const ref = attention(x, w, w, w, { seqLen: 5, dModel: 4, dHead: 4 });
    assert.ok(Math.max(...ref.weights.map((v, k) => Math.abs(v - weights[k]))) <= 1e-7 && out.every((v, k) => Math.abs(v - ref.out[k]) <= 1e-6 * (1 + Math.abs(ref.out[k]))), 'within float32 rounding of float64');
  });

  test(`${name}: PE dot products, closest positions and the shift R(k)`, () => {
    const pe = pn.positionalEncoding({ seqLen: 40, dModel: 16, base: 100 });
    const g = pn.gram(pe, { cols: 16 });
    const ref = sinusoidal(40, 16, { base: 100 });
    for (const [i, j] of [[0, 0], [3, 17], [39, 1]]) {
      let t = 0;
      for (let c = 0; c < 16; c++) t += ref[i * 16 + c] * ref[j * 16 + c];
      // the float32 PE's own rounding (16 terms of 3e-8) and the product's: measured 3.0e-7 over all pairs
      assert.ok(Math.abs(g[i * 40 + j] - t) <= 6e-7, `PE(${i})·PE(${j}) = ${g[i * 40 + j]}, float64 ${t}`);
    }
    const m = pn.minRowDistance(pe, { cols: 16 });
    let best = Infinity;
    for (let i = 0; i < 40; i++) for (let j = i + 1; j < 40; j++) {
      let t = 0;
      for (let c = 0; c < 16; c++) t += (pe[i * 16 + c] - pe[j * 16 + c]) ** 2;
      best = Math.min(best, Math.sqrt(t));
    }
    // rounded once (measured 0.3 ulp); rows at the same exact distance may tie, so the pair's own distance
    assert.ok(Math.abs(m.distance - best) <= 0.6 * ulp32(best) && m.i < m.j, `${m.distance} vs ${best}`);
    let own = 0;
    for (let c = 0; c < 16; c++) own += (pe[m.i * 16 + c] - pe[m.j * 16 + c]) ** 2;
    assert.ok(Math.abs(Math.sqrt(own) - best) <= 0.6 * ulp32(best), `pair ${m.i}, ${m.j}`);
    for (const [p, k] of [[5, 3], [30, -12], [0, 39]]) {
      const shifted = pn.peShift(pe.subarray(p * 16, p * 16 + 16), { k, base: 100 });
      // the float32 PE(p) (within 3e-8) rotated in float64 and rounded once: measured 3.8e-8 (5.9e-8 in the sweep)
      assert.ok(maxAbsDiff(shifted, ref.subarray((p + k) * 16, (p + k) * 16 + 16)) <= 1.2e-7, `PE(${p}) shifted by ${k}`);
    }
    assert.throws(() => pn.peShift(new Float32Array(5), { k: 1 }), /must be even/);
  });

  test(`${name}: gram and peShift round their float64 result once; minRowDistance takes the first closest pair`, () => {
    // the header's contract, value by value: gram's float64 sums of the
    // float32 products (exact in float64), peShift's float64 rotation of the
    // float32 row, each rounded once (≤ 0.5 ulp; + what another order of the
    // float64 sums, 16·2^-53·Σ|terms|, or a few ulp of k·w_i in float64,
    // 8·2^-52·max(1, |k·w_i|), may move the value before that rounding)
    const pe = pn.positionalEncoding({ seqLen: 40, dModel: 16, base: 100 });
    const g = pn.gram(pe, { cols: 16 });
    for (let i = 0; i < 40; i++) for (let j = 0; j < 40; j++) {
      let t = 0, size = 0;
      for (let c = 0; c < 16; c++) { t += pe[i * 16 + c] * pe[j * 16 + c]; size += Math.abs(pe[i * 16 + c] * pe[j * 16 + c]); }
      assert.ok(Math.abs(g[i * 40 + j] - t) <= 0.5 * ulp32(t) + 16 * 2 ** -53 * size, `gram (${i}, ${j}): ${g[i * 40 + j]} vs ${t}`);
    }
    for (const [p, k, base] of [[5, 3, 100], [30, -12, 100], [0, 39, 100], [7, 1000, 10000]]) {
      const row = pn.positionalEncoding({ seqLen: 1, dModel: 16, base, offset: p });
      const shifted = pn.peShift(row, { k, base });
      for (let i = 0; i < 8; i++) {
        const a = k * base ** (-2 * i / 16), sn = row[2 * i], cs = row[2 * i + 1];
        const want = [sn * Math.cos(a) + cs * Math.sin(a), cs * Math.cos(a) - sn * Math.sin(a)];
        for (let h = 0; h < 2; h++) {
          assert.ok(Math.abs(shifted[2 * i + h] - want[h]) <= 0.5 * ulp32(want[h]) + 8 * 2 ** -52 * Math.max(1, Math.abs(a)), `peShift(PE(${p}), ${k}) pair ${i}${h ? ' cos' : ' sin'}: ${shifted[2 * i + h]} vs ${want[h]}`);
        }
      }
    }
    // hand-worked: the closest pair at the matrix's end, and ties (the first in row-major order)
    const closest = (rows) => pn.minRowDistance(Float32Array.from(rows.flat()), { cols: 2 });
    let m = closest([[0, 0], [5, 5], [9, 0], [0.1, 0]]);
    assert.deepEqual([m.i, m.j, m.distance], [0, 3, f32(0.1)], 'the first row and the last');
    m = closest([[0, 0], [10, 10], [20, 0], [3, 4], [3.5, 4]]);
    assert.deepEqual([m.i, m.j, m.distance], [3, 4, 0.5], 'the last two rows');
    m = closest([[5, 5], [0, 0], [6, 5], [1, 0]]);
    assert.deepEqual([m.i, m.j, m.distance], [0, 2, 1], '(0, 2) and (1, 3) tie: the first in row-major order');
    m = closest([[9, 12], [0, 0], [3, 4], [6, 8]]);
    assert.deepEqual([m.i, m.j, m.distance], [0, 3, 5], '(0, 3), (1, 2) and (2, 3) at 5, none closer: (0, 3)');
  });

  test(`${name}: residual stack spreads equal the float64 stack, close enough to tell the GELU forms apart`, () => {
    const rows = 4, width = 8, layers = 6, scale = 1.5;
    const x0 = normals(rows * width, { seed: 5 });
    const w = normals(layers * width * width, { seed: 6, std: 1 / Math.sqrt(width) });
    // measured 6.8e-8 relative at most (pre-ln): the matrix products run in float32
    const TOL = 2e-7;
    for (const block of ['plain', 'post-ln', 'pre-ln', 'pre-rms']) {
      const got = pn.residualStack(x0, w, { width, layers, block, scale });
      const ref = forward(x0, w, { width, layers, block, scale }).std;
      for (let l = 0; l < layers; l++) assert.ok(Math.abs(got[l] - ref[l]) <= TOL * ref[l], `${block} layer ${l}: ${got[l]} vs ${ref[l]}`);
      if (block === 'post-ln') continue; // LayerNorm pins this std near 1 whatever the branch: see the next test
      const erfRef = forward(x0, w, { width, layers, block, scale, gelu: 'erf' }).std;
      assert.ok(erfRef.some((s, l) => Math.abs(got[l] - s) > 10 * TOL * s), `${block}: the tolerance must not pass the erf form of GELU`);
    }
  });

  test(`${name}: residual stack, rows where the spread depends on the branch (Post-LN and plain)`, () => {
    // Constant rows: LayerNorm of a constant row is 0, so after a Post-LN block every
    // spread comes from the branch GELU(s·x·W); its columns of W sum to values that put
    // z in GELU's negative tail (−6…−2.5), where the outputs are small (variance near ε,
    // so LayerNorm's output spread √(v/(v + ε)) follows them) and the two GELU forms differ.
    const rows = 4, width = 8, scale = 1024;
    const x0 = Float32Array.from({ length: rows * width }, (_, k) => 2 ** -10 * (1 + 0.1 * Math.floor(k / width)));
    const noise = normals(2 * width * width, { seed: 9, std: 0.3 });
    const w = Float32Array.from(noise, (t, k) => (k < width * width ? -(2.5 + (2 * (k % width)) / (width - 1)) / width + 0.02 * t : t));
    // measured 3.3e-7 relative (plain, layer 2): float32 products in GELU's steep tail
    const TOL = 1e-6;
    for (const block of ['plain', 'post-ln']) {
      const opts = { width, layers: 2, block, scale };
      const got = pn.residualStack(x0, w, opts);
      const ref = forward(x0, w, opts).std, erfRef = forward(x0, w, { ...opts, gelu: 'erf' }).std;
      for (let l = 0; l < 2; l++) assert.ok(Math.abs(got[l] - ref[l]) <= TOL * ref[l], `${block} layer ${l}: ${got[l]} vs ${ref[l]}`);
      assert.ok(Math.abs(got[0] - erfRef[0]) > 100 * TOL * erfRef[0], `${block}: the erf form of GELU is told apart`);
    }
    const post = pn.residualStack(x0, w, { width, layers: 1, block: 'post-ln', scale });
    assert.ok(post[0] > 0.5, `Post-LN's spread comes from its branch: ${post[0]} (0 without it)`);
  });

  test(`${name}: LayerNorm steps`, () => {
    const x = normals(12, { mean: 4, std: 3, seed: 8 });
    const gamma = new Float32Array(12).fill(1.5), beta = new Float32Array(12).fill(-0.5);
    const s = pn.layerNormSteps(x, { gamma, beta, eps: 1e-5 });
    const ref = layerNorm(x, 12, { gamma, beta, eps: f32(1e-5) }), plain = layerNorm(x, 12, { eps: f32(1e-5) });
    const m = ref.mean[0];
    // every step in float64, rounded once: within half an ulp (measured 0.49)
    const c = [compareValues([s.mean, s.variance], [m, ref.variance[0]], ulp32), compareValues(s.centered, Float64Array.from(x, (t) => t - m), ulp32),
      compareValues(s.normalized, plain.y, ulp32), compareValues(s.y, ref.y, ulp32)];
    assert.deepEqual(c.map((r) => r.compared), [2, 12, 12, 12]);
    c.forEach((r, k) => assert.ok(r.err <= 0.6, `${['stats', 'centered', 'normalized', 'y'][k]}: ${r.err} ulp`));
  });
}
