// RoPE as ONNX RotaryEmbedding (opset 23) and Hugging Face lay it out:
// 4-D input [batch, heads, seq, headDim] ('bhsd'), 3-D input with numHeads,
// and the cos/sin caches as inputs (2-D with position ids, 3-D without).
// Expected values come from the float64 re-implementations in
// tests/reference/rope.mjs of the operator's reference semantics and of HF's
// apply_rotary_pos_emb.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { builds, maxAbsDiff as maxErr, normals, rng } from './helpers.mjs';
import { hfApplyRotaryPosEmb, onnxRotaryEmbedding, ropeCaches as cache } from './reference/rope.mjs';

const all = await builds();

for (const { name, pn } of all) {
  test(`${name}: 4-D [batch, heads, seq, headDim] input ('bhsd') matches ONNX RotaryEmbedding`, () => {
    for (const [B, H, S, D, rd, interleaved, withIds] of [[2, 3, 5, 8, 0, false, false], [1, 4, 7, 16, 8, true, true], [3, 2, 4, 10, 6, false, true], [1, 1, 1, 2, 0, true, false], [2, 2, 3, 12, 8, false, false]]) {
      const x = normals(B * H * S * D, { seed: B * 100 + D });
      const r = rng(D);
      const ids = Int32Array.from({ length: B * S }, (_, k) => (withIds ? Math.floor(r.uniform() * 5000) : k % S));
      const rot = rd || D;
      const { cos, sin } = cache([...ids], rot, rot / 2);
      const want = onnxRotaryEmbedding({ input: x, dims: [B, H, S, D], cos, sin, cacheDim: rot / 2, positionIds: [...Array(B * S).keys()], interleaved, rotaryDim: rd });
      const got = pn.rope(x, { batch: B, seqLen: S, heads: H, headDim: D, layout: 'bhsd', interleaved, rotaryDim: rot, ...(withIds ? { positionIds: ids } : {}) });
      // cos/sin rounded once, float32 products (measured 2.5e-7)
      assert.ok(maxErr(got, want) <= 5e-7, `B${B} H${H} S${S} D${D}: ${maxErr(got, want)}`);
    }
  });

  test(`${name}: cosCache/sinCache as ONNX's inputs — 2-D indexed by position ids, 3-D per token — and 3-D input with numHeads`, () => {
    const r = rng(77);
    for (const [B, H, S, D, rd, interleaved] of [[2, 3, 4, 8, 8, false], [1, 2, 6, 12, 8, true], [2, 1, 3, 6, 4, false]]) {
      const half = rd / 2;
      // caches of arbitrary values (not necessarily cos/sin of anything): the operator just uses them
      const maxPos = 11;
      const cos2 = Float32Array.from({ length: maxPos * half }, () => r.normal());
      const sin2 = Float32Array.from({ length: maxPos * half }, () => r.normal());
      const ids = Int32Array.from({ length: B * S }, () => Math.floor(r.uniform() * maxPos));
      const x = normals(B * H * S * D, { seed: 7 * D + S });
      // 4-D bhsd with 2-D caches and ids
      let want = onnxRotaryEmbedding({ input: x, dims: [B, H, S, D], cos: cos2, sin: sin2, cacheDim: half, positionIds: ids, interleaved, rotaryDim: rd });
      let got = pn.rope(x, { batch: B, seqLen: S, heads: H, headDim: D, rotaryDim: rd, layout: 'bhsd', interleaved, cosCache: cos2, sinCache: sin2, positionIds: ids });
      // float32 products of normal values (measured 3.9e-7)
      assert.ok(maxErr(got, want) <= 8e-7, `2-D caches: ${maxErr(got, want)}`);
      // 3-D input [B, S, H·D] with numHeads, 3-D caches [B, S, half], no ids
      const cos3 = Float32Array.from({ length: B * S * half }, () => r.normal());
      const sin3 = Float32Array.from({ length: B * S * half }, () => r.normal());
      want = onnxRotaryEmbedding({ input: x, dims: [B, S, H * D], cos: cos3, sin: sin3, cacheDim: half, interleaved, rotaryDim: rd, numHeads: H });
      got = pn.rope(x, { batch: B, seqLen: S, numHeads: H, rotaryDim: rd, interleaved, cosCache: cos3, sinCache: sin3 });
      assert.ok(maxErr(got, want) <= 8e-7, `3-D caches, numHeads: ${maxErr(got, want)}`);
    }
    // errors that name the argument
    const x = new Float32Array(2 * 4);
    assert.throws(() => pn.rope(x, { seqLen: 2, heads: 1, headDim: 4, cosCache: new Float32Array(4), sinCache: new Float32Array(4), positionIds: [0, 2] }), /positionIds\[1\] must be an integer in \[0, 1\]/);
    assert.throws(() => pn.rope(x, { seqLen: 2, heads: 1, headDim: 4, cosCache: new Float32Array(6), sinCache: new Float32Array(6) }), /cosCache\.length must be 4/);
    assert.throws(() => pn.rope(x, { seqLen: 2, heads: 1, headDim: 4, cosCache: new Float32Array(4) }), /sinCache must be a Float32Array/);
    assert.throws(() => pn.rope(x, { seqLen: 2, heads: 1, headDim: 4, cosCache: new Float32Array(4), sinCache: new Float32Array(4), base: 500 }), /base and offset are not used/);
    assert.throws(() => pn.rope(x, { seqLen: 2, heads: 1, headDim: 4, cosCache: new Float32Array(4), sinCache: new Float32Array(2) }), /sinCache\.length must be 4, got 2/);
    assert.throws(() => pn.rope(x, { seqLen: 2, heads: 1, headDim: 4, cosCache: new Float32Array(5), sinCache: new Float32Array(5), positionIds: [0, 0] }), /cosCache\.length \(5\) must be maxPosition × rotaryDim\/2 \(2\)/);
    assert.throws(() => pn.rope(x, { seqLen: 2, numHeads: 3 }), /numHeads/);
    assert.throws(() => pn.rope(x, { seqLen: 2, numHeads: 1, layout: 'bhsd' }), /numHeads describes 3-D input .* layout 'bshd'/);
    assert.throws(() => pn.rope(x, { seqLen: 2, heads: 1, headDim: 4, layout: 'bsdh' }), /layout must be "bshd" or "bhsd"/);
  });

  test(`${name}: equals Hugging Face's apply_rotary_pos_emb (q·cos + rotate_half(q)·sin, [batch, heads, seq, dim])`, () => {
    const [B, H, S, D] = [2, 4, 6, 16];
    const q = normals(B * H * S * D, { seed: 31 });
    const ids = Int32Array.from({ length: B * S }, (_, k) => 3 + k * 7);
    const want = hfApplyRotaryPosEmb(q, { batch: B, heads: H, seqLen: S, headDim: D, positionIds: ids });
    const got = pn.rope(q, { batch: B, seqLen: S, heads: H, headDim: D, layout: 'bhsd', positionIds: ids });
    // measured 2.2e-7
    assert.ok(maxErr(got, want) <= 5e-7, `${maxErr(got, want)}`);
  });
}

test('with caches given, each output is within 1.2e-7·(|a·c| + |b·s|) + 2^-149 of the float64 rotation by the caches as given (two float32 products and their sum, each rounded once), whatever the caches hold', () => {
  // ONNX takes the caches as given: they need not be a cosine and a sine.
  // A pair (3, 1) with cos 1000.3 and sin 77.7: y ≈ (2923, 1233), whose
  // float32 spacing is 2.4e-4 and 1.2e-4, so no float32 result is within
  // the 1e-5 the docs said until 2026-12-06 (posnorm's was off by 1.5e-5
  // and 4.6e-5). The bound: each product rounds within 2^-24 of itself and
  // the sum within 2^-24 of itself, so 2^-23·(1 + 2^-24) < 1.2e-7 of
  // |a·c| + |b·s|, and 2^-149 where the products are subnormal.
  const r = rng(2026);
  const mag = () => (r.uniform() < 0.5 ? -1 : 1) * 10 ** (6 * r.uniform() - 3);
  const cases = [[3, 1, 1000.3, 77.7], [1, 1, 1, -1], [1e-20, 3e-20, 1e-20, 1e-19], [1e18, 1e18, 1e18, 1e18], [0.5, -0.25, 0.8, 0.6]];
  for (let k = 0; k < 400; k++) cases.push([mag(), mag(), mag(), mag()]);
  const n = cases.length;
  const x = new Float32Array(2 * n), cos = new Float32Array(n), sin = new Float32Array(n);
  cases.forEach(([a, b, c, s], t) => { x[2 * t] = a; x[2 * t + 1] = b; cos[t] = c; sin[t] = s; });
  for (const { name, pn } of all) {
    for (const interleaved of [false, true]) {
      // one pair per token: [1, n, 1, 2] with 3-D caches (a row per token); a pair is (x[0], x[1]) in both layouts at headDim 2
      const got = pn.rope(x, { seqLen: n, heads: 1, headDim: 2, cosCache: cos, sinCache: sin, interleaved });
      for (let t = 0; t < n; t++) {
        const [a, b, c, s] = [x[2 * t], x[2 * t + 1], cos[t], sin[t]];
        const want = [a * c - b * s, a * s + b * c];
        const bound = [1.2e-7 * (Math.abs(a * c) + Math.abs(b * s)) + 2 ** -149, 1.2e-7 * (Math.abs(a * s) + Math.abs(b * c)) + 2 ** -149];
        for (const j of [0, 1]) {
          const err = Math.abs(got[2 * t + j] - want[j]);
          assert.ok(err <= bound[j], `${name}, ${interleaved ? 'interleaved' : 'halves'}, pair ${t} (${a}, ${b}) with cos ${c}, sin ${s}: output ${j} is ${got[2 * t + j]}, float64 ${want[j]}: off by ${err}, bound ${bound[j]}`);
        }
      }
    }
  }
});
