// RoPE frequencies for long context, as Hugging Face transformers' rope_scaling
// types define them (linear = Position Interpolation, dynamic NTK, YaRN,
// Llama 3.1, LongRoPE), against a float64 re-implementation written here
// from the published formulas; and RoPE with scaling against a float64
// rotation with the attention factor on cos and sin.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { builds, hfRope, normals, rng } from './helpers.mjs';

const all = await builds();
const f32 = Math.fround;

/** float32 ulp of x. */
function ulp(x) {
  const a = Math.abs(f32(x));
  return a < 1.1754943508222875e-38 ? 2 ** -149 : 2 ** (Math.floor(Math.log2(a)) - 23);
}

function cases(dim) {
  const r = rng(dim);
  const longrope = (factor) => ({
    type: 'longrope', factor, originalMaxPositions: 4096,
    shortFactor: Array.from({ length: dim / 2 }, () => 1 + r.uniform()), longFactor: Array.from({ length: dim / 2 }, () => 1 + 20 * r.uniform()),
  });
  const out = [];
  for (const factor of [2, 4, 8, 32]) {
    out.push({ type: 'linear', factor });
    out.push({ type: 'dynamic', factor, originalMaxPositions: 2048 });
    out.push({ type: 'yarn', factor, originalMaxPositions: 4096 });
    out.push({ type: 'yarn', factor, originalMaxPositions: 4096, mscale: 0.707, mscaleAllDim: 0.707, betaFast: 16, betaSlow: 2, truncate: false });
    out.push({ type: 'yarn', factor, originalMaxPositions: 8192, attentionFactor: 1.25 });
    out.push({ type: 'llama3', factor, originalMaxPositions: 8192, lowFreqFactor: 1, highFreqFactor: 4 });
    out.push(longrope(factor));
  }
  return out;
}

for (const { name, pn } of all) {
  test(`${name}: ropeFrequencies is within one float32 ulp of the float64 formulas for every type, over factors, dims and bases`, () => {
    let n = 0;
    for (const dim of [8, 64, 96, 128]) {
      for (const base of [10000, 500000, 1e6]) {
        for (const s of [undefined, ...cases(dim)]) {
          for (const seqLen of [0, 1000, 3000, 100000]) {
            const got = pn.ropeFrequencies({ dim, base, scaling: s, seqLen });
            const want = hfRope(dim, base, s, seqLen);
            assert.equal(got.invFreq.length, dim / 2);
            for (let i = 0; i < dim / 2; i++) {
              assert.ok(Math.abs(got.invFreq[i] - want.inv[i]) <= ulp(want.inv[i]), `${JSON.stringify(s)} dim ${dim} base ${base} seqLen ${seqLen}: w${i} ${got.invFreq[i]} vs ${want.inv[i]}`);
            }
            assert.ok(Math.abs(got.attentionFactor - want.af) <= 1e-12 * want.af, `${s?.type} attention factor ${got.attentionFactor} vs ${want.af}`);
            n++;
          }
        }
      }
    }
    assert.ok(n > 1000);
  });

  test(`${name}: rope with scaling equals the float64 rotation with the attention factor on cos and sin (within 2e-6)`, () => {
    const [B, H, S, D] = [2, 2, 5, 32];
    const x = normals(B * S * H * D, { seed: 17 });
    for (const s of cases(D)) {
      for (const [label, opts, positions] of [
        ['offset', { offset: 5000 }, (b, t) => 5000 + t],
        ['ids', { positionIds: Int32Array.from({ length: B * S }, (_, k) => 100 + 977 * k) }, (b, t) => 100 + 977 * (b * S + t)],
      ]) {
        // dynamic and longrope choose their frequencies by the highest position + 1
        const top = Math.max(...Array.from({ length: B * S }, (_, k) => positions(Math.floor(k / S), k % S))) + 1;
        const { inv, af } = hfRope(D, 10000, s, top);
        const want = new Float64Array(x.length);
        for (let b = 0; b < B; b++) for (let t = 0; t < S; t++) for (let h = 0; h < H; h++) {
          const at = ((b * S + t) * H + h) * D, p = positions(b, t);
          for (let i = 0; i < D / 2; i++) {
            const c = Math.cos(p * inv[i]) * af, sn = Math.sin(p * inv[i]) * af;
            want[at + i] = x[at + i] * c - x[at + i + D / 2] * sn;
            want[at + i + D / 2] = x[at + i] * sn + x[at + i + D / 2] * c;
          }
        }
        const got = pn.rope(x, { batch: B, seqLen: S, heads: H, headDim: D, scaling: s, ...opts });
        let err = 0;
        for (let k = 0; k < x.length; k++) err = Math.max(err, Math.abs(got[k] - want[k]));
        assert.ok(err <= 2e-6 * Math.max(1, af), `${s.type} ${label}: ${err}`);
      }
    }
  });

  test(`${name}: scaling options are checked and named`, () => {
    const f = (scaling) => () => pn.ropeFrequencies({ dim: 8, scaling });
    assert.throws(f({ type: 'ntk' }), /scaling\.type must be "linear" or "dynamic" or "yarn" or "llama3" or "longrope"/);
    assert.throws(f({ type: 'yarn', factor: 4 }), /scaling type "yarn" needs scaling\.originalMaxPositions/);
    assert.throws(f({ type: 'linear', factor: 2, betaFast: 3 }), /scaling type "linear" has no option "betaFast"/);
    assert.throws(f({ type: 'linear', factr: 2 }), /unknown option "factr"/);
    assert.throws(f({ type: 'llama3', factor: 8, originalMaxPositions: 8192, lowFreqFactor: 4, highFreqFactor: 1 }), /highFreqFactor must be greater than lowFreqFactor/);
    assert.throws(f({ type: 'longrope', originalMaxPositions: 10, shortFactor: [1, 1], longFactor: [1, 1, 1, 1] }), /shortFactor must hold dim\/2 = 4 factors, got 2/);
    assert.throws(() => pn.rope(new Float32Array(8), { seqLen: 1, heads: 1, headDim: 8, scaling: { type: 'linear', factor: 2 }, cosCache: new Float32Array(4), sinCache: new Float32Array(4) }), /cannot be combined/);
    assert.equal(pn.ropeFrequencies({ dim: 8 }).invFreq.length, 4, 'still usable');
  });
}
