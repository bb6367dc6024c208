// The kernels behind the article's other figures, against float64 references.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { builds, maxAbsDiff, normals, peRef } from './helpers.mjs';

const all = await builds();

/** y = x·w in float64; x [r × n], w [n × m]. */
function matmul(x, w, r, n, m) {
  const y = new Float64Array(r * m);
  for (let i = 0; i < r; i++) for (let k = 0; k < n; k++) for (let c = 0; c < m; c++) y[i * m + c] += x[i * n + k] * w[k * m + c];
  return y;
}

export function attentionRef(x, wq, wk, wv, s, d, h) {
  const q = matmul(x, wq, s, d, h), k = matmul(x, wk, s, d, h), v = matmul(x, wv, s, d, h);
  const out = new Float64Array(s * h);
  for (let i = 0; i < s; i++) {
    const sc = [];
    for (let j = 0; j < s; j++) {
      let t = 0;
      for (let c = 0; c < h; c++) t += q[i * h + c] * k[j * h + c];
      sc.push(t / Math.sqrt(h));
    }
    const top = Math.max(...sc);
    const e = sc.map((t) => Math.exp(t - top));
    const z = e.reduce((a, b) => a + b, 0);
    for (let c = 0; c < h; c++) for (let j = 0; j < s; j++) out[i * h + c] += (e[j] / z) * v[j * h + c];
  }
  return out;
}

for (const { name, pn } of all) {
  test(`${name}: attention matches float64 and is permutation-equivariant`, () => {
    for (const [s, d, h] of [[1, 1, 1], [3, 8, 8], [7, 5, 3], [17, 16, 4]]) {
      const x = normals(s * d, { seed: s }), wq = normals(d * h, { seed: 2 }), wk = normals(d * h, { seed: 3 }), wv = normals(d * h, { seed: 4 });
      const { out, weights } = pn.attention(x, { dModel: d, dHead: h, wq, wk, wv });
      assert.ok(maxAbsDiff(out, attentionRef(x, wq, wk, wv, s, d, h)) < 1e-6, `${s}×${d}→${h}`);
      for (let i = 0; i < s; i++) assert.ok(Math.abs(weights.subarray(i * s, i * s + s).reduce((a, b) => a + b, 0) - 1) < 1e-6);
      const perm = Array.from({ length: s }, (_, i) => (i * 5 + 2) % s);
      if (new Set(perm).size !== s) continue;
      const xp = new Float32Array(s * d);
      perm.forEach((p, i) => xp.set(x.subarray(p * d, p * d + d), i * d));
      const op = pn.attention(xp, { dModel: d, dHead: h, wq, wk, wv }).out;
      perm.forEach((p, i) => assert.ok(maxAbsDiff(op.subarray(i * h, i * h + h), out.subarray(p * h, p * h + h)) < 1e-6));
    }
  });

  test(`${name}: PE dot products, closest positions and the shift R(k)`, () => {
    const pe = pn.positionalEncoding({ seqLen: 40, dModel: 16, base: 100 });
    const g = pn.gram(pe, { cols: 16 });
    const ref = peRef(40, 16, { base: 100 });
    for (const [i, j] of [[0, 0], [3, 17], [39, 1]]) {
      let t = 0;
      for (let c = 0; c < 16; c++) t += ref[i * 16 + c] * ref[j * 16 + c];
      assert.ok(Math.abs(g[i * 40 + j] - t) < 2e-6);
    }
    const m = pn.minRowDistance(pe, { cols: 16 });
    let best = Infinity;
    for (let i = 0; i < 40; i++) for (let j = i + 1; j < 40; j++) {
      let t = 0;
      for (let c = 0; c < 16; c++) t += (pe[i * 16 + c] - pe[j * 16 + c]) ** 2;
      best = Math.min(best, Math.sqrt(t));
    }
    assert.ok(Math.abs(m.distance - best) < 1e-6 && m.i < m.j);
    for (const [p, k] of [[5, 3], [30, -12], [0, 39]]) {
      const shifted = pn.peShift(pe.subarray(p * 16, p * 16 + 16), { k, base: 100 });
      assert.ok(maxAbsDiff(shifted, ref.subarray((p + k) * 16, (p + k) * 16 + 16)) < 3e-7, `PE(${p}) shifted by ${k}`);
    }
    assert.throws(() => pn.peShift(new Float32Array(5), { k: 1 }), /must be even/);
  });

  test(`${name}: residual stack statistics match a float64 reference`, () => {
    const rows = 4, width = 8, layers = 6;
    const x0 = normals(rows * width, { seed: 5 });
    const w = normals(layers * width * width, { seed: 6, std: 1 / Math.sqrt(width) });
    const gelu = (z) => 0.5 * z * (1 + Math.tanh(Math.sqrt(2 / Math.PI) * (z + 0.044715 * z ** 3)));
    const norm = (x, rms) => {
      const y = new Float64Array(x.length);
      for (let r = 0; r < rows; r++) {
        const row = x.slice(r * width, r * width + width);
        const m = rms ? 0 : row.reduce((a, b) => a + b, 0) / width;
        const v = row.reduce((a, b) => a + (b - m) ** 2, 0) / width;
        row.forEach((t, c) => { y[r * width + c] = (t - m) / Math.sqrt(v + 1e-5); });
      }
      return y;
    };
    const std = (x) => { const m = x.reduce((a, b) => a + b, 0) / x.length; return Math.sqrt(x.reduce((a, b) => a + (b - m) ** 2, 0) / x.length); };
    for (const block of ['plain', 'post-ln', 'pre-ln', 'pre-rms']) {
      const got = pn.residualStack(x0, w, { width, layers, block, scale: 1.5 });
      let x = Float64Array.from(x0);
      for (let l = 0; l < layers; l++) {
        const h = block === 'pre-ln' ? norm(x, false) : block === 'pre-rms' ? norm(x, true) : x;
        const z = matmul(h, w.subarray(l * width * width).map((t) => 1.5 * t), rows, width, width);
        x = x.map((t, k) => t + gelu(z[k]));
        if (block === 'post-ln') x = norm(x, false);
        assert.ok(Math.abs(got[l] - std(x)) <= 1e-4 * std(x), `${block} layer ${l}: ${got[l]} vs ${std(x)}`);
      }
    }
  });

  test(`${name}: LayerNorm steps`, () => {
    const x = normals(12, { mean: 4, std: 3, seed: 8 });
    const gamma = new Float32Array(12).fill(1.5), beta = new Float32Array(12).fill(-0.5);
    const s = pn.layerNormSteps(x, { gamma, beta, eps: 1e-5 });
    const m = x.reduce((a, b) => a + b, 0) / 12;
    const v = x.reduce((a, b) => a + (b - m) ** 2, 0) / 12;
    assert.ok(Math.abs(s.mean - m) < 1e-6 && Math.abs(s.variance - v) < 1e-5);
    x.forEach((t, j) => {
      assert.ok(Math.abs(s.centered[j] - (t - m)) < 1e-6);
      assert.ok(Math.abs(s.normalized[j] - (t - m) / Math.sqrt(v + 1e-5)) < 1e-6);
      assert.ok(Math.abs(s.y[j] - (1.5 * (t - m) / Math.sqrt(v + 1e-5) - 0.5)) < 1e-6);
    });
  });
}
