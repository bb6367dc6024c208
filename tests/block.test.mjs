// transformerBlock: the article's Pre-/Post-Norm block (multi-head
// attention, GELU FFN, residuals, LayerNorm or RMSNorm), every traced tensor
// in both builds against the float64 block of tests/reference/block.mjs, and the
// properties a reader is shown: norms pin each token, residuals carry x.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { builds, compareValues, normals, ulp32 } from './helpers.mjs';
import { transformerBlock } from './reference/block.mjs';

const all = await builds();
const TENSORS = ['x', 'attnInput', 'attnOutput', 'residual1', 'ffnInput', 'ffnOutput', 'residual2', 'output', 'attention'];

function inputs(T, d, dFF, seed) {
  const x = normals(T * d, { seed });
  const weights = new Float32Array(4 * d * d + 2 * d * dFF);
  weights.set(normals(4 * d * d, { seed: seed + 1, std: 1 / Math.sqrt(d) }));
  weights.set(normals(d * dFF, { seed: seed + 2, std: 1 / Math.sqrt(d) }), 4 * d * d);
  weights.set(normals(dFF * d, { seed: seed + 3, std: 1 / Math.sqrt(dFF) }), 4 * d * d + d * dFF);
  return { x, weights };
}

/** float64 inside, every tensor rounded once: within about half an ulp (measured 0.49997). */
const within = (got, ref, what) => {
  const c = compareValues(got, ref, ulp32);
  assert.ok(c.err <= 0.6 && c.compared === ref.length, `${what}: ${c.err} ulp`);
};

for (const { name, pn } of all) {
  test(`${name}: every tensor of the block equals the float64 block (Pre/Post × LayerNorm/RMSNorm, 1–4 heads, GELU erf (the default) and tanh)`, () => {
    const shapes = [[3, 8, 1, 32], [3, 16, 2, 64], [7, 12, 4, 20], [1, 8, 2, 8], [5, 4, 4, 16]];
    let seed = 10;
    // the tolerance (0.6 ulp) must not pass the other GELU form: they differ by up to 4.7e-4
    const toldApart = { erf: 0, tanh: 0 };
    for (const [T, d, heads, dFF] of shapes) {
      const { x, weights } = inputs(T, d, dFF, seed += 10);
      for (const placement of ['pre', 'post']) {
        for (const norm of ['layer', 'rms']) {
          for (const gelu of [undefined, 'erf', 'tanh']) {
            const form = gelu ?? 'erf';
            const got = pn.transformerBlock(x, weights, { dModel: d, heads, dFF, placement, norm, gelu });
            const ref = transformerBlock(x, weights, { dModel: d, heads, dFF, placement, norm, gelu: form });
            for (const k of TENSORS) within(got[k], ref[k], `${placement}/${norm}/${gelu} T${T} d${d} h${heads} ${k}`);
            const other = transformerBlock(x, weights, { dModel: d, heads, dFF, placement, norm, gelu: form === 'erf' ? 'tanh' : 'erf' });
            if (compareValues(got.ffnOutput, other.ffnOutput, ulp32).err > 0.6) toldApart[form]++;
          }
        }
      }
    }
    // measured: every one of the 20 blocks per form (40 with the default) tells them apart
    assert.equal(toldApart.erf, 40, 'erf output against the tanh block fails the tolerance');
    assert.equal(toldApart.tanh, 20, 'tanh output against the erf block fails the tolerance');
  });

  test(`${name}: what the figure shows — norms pin every token, the residual carries x, attention rows sum to 1`, () => {
    const T = 3, d = 16, heads = 2;
    const { x, weights } = inputs(T, d, 4 * d, 77);
    const stats = (a, r) => {
      const row = Array.from(a.subarray(r * d, (r + 1) * d));
      const m = row.reduce((s, v) => s + v, 0) / d;
      return { m, sd: Math.sqrt(row.reduce((s, v) => s + (v - m) ** 2, 0) / d), rms: Math.sqrt(row.reduce((s, v) => s + v * v, 0) / d) };
    };
    const pre = pn.transformerBlock(x, weights, { dModel: d, heads });
    const post = pn.transformerBlock(x, weights, { dModel: d, heads, placement: 'post' });
    const rms = pn.transformerBlock(x, weights, { dModel: d, heads, norm: 'rms' });
    for (let r = 0; r < T; r++) {
      for (const t of [pre.attnInput, pre.ffnInput, post.ffnInput, post.output]) {
        const s = stats(t, r);
        assert.ok(Math.abs(s.m) < 1e-6 && Math.abs(s.sd - 1) < 1e-4, `LayerNorm pins token ${r}: mean ${s.m}, std ${s.sd}`);
      }
      assert.ok(Math.abs(stats(rms.attnInput, r).rms - 1) < 1e-4, 'RMSNorm pins the root mean square');
      // Pre-Norm's output is not normalised: the residual stream keeps x's scale
      assert.ok(Math.abs(stats(pre.output, r).sd - 1) > 1e-3, 'Pre-Norm output is left unnormalised');
      for (let h = 0; h < heads; h++) {
        const row = pre.attention.subarray((h * T + r) * T, (h * T + r + 1) * T);
        assert.ok(Math.abs(row.reduce((s, v) => s + v, 0) - 1) < 1e-6, 'softmax rows sum to 1');
      }
    }
    // the residual connections: x + a and (x + a) + f, exactly as float32 sums of the kept tensors allow
    for (let i = 0; i < T * d; i++) {
      assert.ok(Math.abs(pre.residual1[i] - (x[i] + pre.attnOutput[i])) < 1e-6 * (1 + Math.abs(pre.residual1[i])));
      assert.ok(Math.abs(pre.output[i] - (pre.residual1[i] + pre.ffnOutput[i])) < 1e-6 * (1 + Math.abs(pre.output[i])));
    }
    assert.deepEqual(pre.x, x);
    assert.deepEqual(post.attnInput, x, 'Post-Norm attends to x itself');
  });

  test(`${name}: transformerBlock rejects bad arguments by name and stays usable`, () => {
    const { x, weights } = inputs(3, 8, 32, 5);
    assert.throws(() => pn.transformerBlock(x, weights, { dModel: 8, heads: 3 }), /heads must divide dModel \(8\), got 3/);
    assert.throws(() => pn.transformerBlock(x, weights, { dModel: 8, placement: 'middle' }), /placement/);
    assert.throws(() => pn.transformerBlock(x, weights, { dModel: 8, norm: 'batch' }), /norm/);
    assert.throws(() => pn.transformerBlock(x, weights.subarray(1), { dModel: 8 }), /weights \(Wq, Wk, Wv, Wo, W1, W2\)\.length must be 768, got 767/);
    assert.throws(() => pn.transformerBlock(x, weights, { dModel: 5 }), /multiple of cols/);
    assert.throws(() => pn.transformerBlock(x, weights, { dModel: 8, dFF: 0 }), /dFF/);
    assert.throws(() => pn.transformerBlock(x, weights, { dModel: 8, eps: -1 }), /eps/);
    assert.throws(() => pn.transformerBlock(x, weights, { dModel: 8, head: 2 }), /head/);
    assert.throws(() => pn.transformerBlock(x, weights, { dModel: 8, gelu: 'none' }), (e) => e instanceof RangeError && /transformerBlock: gelu must be "tanh" or "erf", got "none"/.test(e.message));
    assert.throws(() => pn.transformerBlock(x, weights, { dModel: 8, gelu: 0 }), (e) => e instanceof TypeError && /gelu/.test(e.message));
    const before = pn.heapStats().allocations;
    const ok = pn.transformerBlock(x, weights, { dModel: 8, heads: 2 });
    assert.equal(ok.output.length, 24);
    assert.equal(pn.heapStats().allocations, before, 'no allocation outlives the call');
  });
}
