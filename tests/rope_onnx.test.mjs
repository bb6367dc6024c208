// RoPE as ONNX RotaryEmbedding (opset 23) and Hugging Face lay it out:
// 4-D input [batch, heads, seq, headDim] ('bhsd'), 3-D input with numHeads,
// and the cos/sin caches as inputs (2-D with position ids, 3-D without).
// Expected values come from a float64 re-implementation, written here, of
// the operator's reference semantics, and of HF's apply_rotary_pos_emb.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { builds, normals, rng } from './helpers.mjs';

const all = await builds();

/**
 * ONNX RotaryEmbedding reference semantics in float64.
 * input: 4-D [B, H, S, D] or 3-D [B, S, hidden] (with numHeads), flat.
 * cos/sin: 2-D [maxPos, cacheDim] with positionIds [B, S], or 3-D [B, S, cacheDim] without.
 */
function onnxRotaryEmbedding({ input, dims, cos, sin, cacheDim, positionIds, interleaved, rotaryDim, numHeads }) {
  let B, S, H, D;
  // to [B, S, H, D]
  const x4 = new Float64Array(input.length);
  if (dims.length === 4) {
    [B, H, S, D] = dims;
    for (let b = 0; b < B; b++) for (let h = 0; h < H; h++) for (let s = 0; s < S; s++) for (let d = 0; d < D; d++) {
      x4[((b * S + s) * H + h) * D + d] = input[((b * H + h) * S + s) * D + d];
    }
  } else {
    [B, S] = dims;
    H = numHeads;
    D = dims[2] / numHeads;
    x4.set(input);
  }
  const rd = rotaryDim || D;
  const half = rd / 2;
  const out4 = Float64Array.from(x4);
  for (let b = 0; b < B; b++) for (let s = 0; s < S; s++) {
    const row = positionIds ? positionIds[b * S + s] : b * S + s;
    const c = (i) => cos[row * cacheDim + i], sn = (i) => sin[row * cacheDim + i];
    for (let h = 0; h < H; h++) {
      const at = ((b * S + s) * H + h) * D;
      for (let i = 0; i < half; i++) {
        const [j1, j2] = interleaved ? [2 * i, 2 * i + 1] : [i, i + half];
        const x1 = x4[at + j1], x2 = x4[at + j2];
        out4[at + j1] = c(i) * x1 - sn(i) * x2; // real
        out4[at + j2] = sn(i) * x1 + c(i) * x2; // imag
      }
    }
  }
  if (dims.length === 3) return out4;
  const out = new Float64Array(input.length);
  for (let b = 0; b < B; b++) for (let h = 0; h < H; h++) for (let s = 0; s < S; s++) for (let d = 0; d < D; d++) {
    out[((b * H + h) * S + s) * D + d] = out4[((b * S + s) * H + h) * D + d];
  }
  return out;
}

/** cos/sin of p·base^(-2i/rd) in float64, [rows × cacheDim], for the positions given. */
function cache(positions, rd, cacheDim, base = 10000) {
  const cos = new Float64Array(positions.length * cacheDim), sin = new Float64Array(positions.length * cacheDim);
  positions.forEach((p, r) => {
    for (let i = 0; i < cacheDim; i++) {
      const a = p * Math.pow(base, (-2 * i) / rd);
      cos[r * cacheDim + i] = Math.cos(a);
      sin[r * cacheDim + i] = Math.sin(a);
    }
  });
  return { cos, sin };
}

function maxErr(got, want) {
  let m = 0;
  for (let k = 0; k < want.length; k++) m = Math.max(m, Math.abs(got[k] - want[k]));
  return m;
}

for (const { name, pn } of all) {
  test(`${name}: 4-D [batch, heads, seq, headDim] input ('bhsd') matches ONNX RotaryEmbedding`, () => {
    for (const [B, H, S, D, rd, interleaved, withIds] of [[2, 3, 5, 8, 0, false, false], [1, 4, 7, 16, 8, true, true], [3, 2, 4, 10, 6, false, true], [1, 1, 1, 2, 0, true, false]]) {
      const x = normals(B * H * S * D, { seed: B * 100 + D });
      const r = rng(D);
      const ids = Int32Array.from({ length: B * S }, (_, k) => (withIds ? Math.floor(r.uniform() * 5000) : k % S));
      const rot = rd || D;
      const { cos, sin } = cache([...ids], rot, rot / 2);
      const want = onnxRotaryEmbedding({ input: x, dims: [B, H, S, D], cos, sin, cacheDim: rot / 2, positionIds: [...Array(B * S).keys()], interleaved, rotaryDim: rd });
      const got = pn.rope(x, { batch: B, seqLen: S, heads: H, headDim: D, layout: 'bhsd', interleaved, rotaryDim: rot, ...(withIds ? { positionIds: ids } : {}) });
      assert.ok(maxErr(got, want) <= 2e-6, `B${B} H${H} S${S} D${D}: ${maxErr(got, want)}`);
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
      assert.ok(maxErr(got, want) <= 1e-5, `2-D caches: ${maxErr(got, want)}`);
      // 3-D input [B, S, H·D] with numHeads, 3-D caches [B, S, half], no ids
      const cos3 = Float32Array.from({ length: B * S * half }, () => r.normal());
      const sin3 = Float32Array.from({ length: B * S * half }, () => r.normal());
      want = onnxRotaryEmbedding({ input: x, dims: [B, S, H * D], cos: cos3, sin: sin3, cacheDim: half, interleaved, rotaryDim: rd, numHeads: H });
      got = pn.rope(x, { batch: B, seqLen: S, numHeads: H, rotaryDim: rd, interleaved, cosCache: cos3, sinCache: sin3 });
      assert.ok(maxErr(got, want) <= 1e-5, `3-D caches, numHeads: ${maxErr(got, want)}`);
    }
    // errors that name the argument
    const x = new Float32Array(2 * 4);
    assert.throws(() => pn.rope(x, { seqLen: 2, heads: 1, headDim: 4, cosCache: new Float32Array(4), sinCache: new Float32Array(4), positionIds: [0, 2] }), /positionIds\[1\] must be an integer in \[0, 1\]/);
    assert.throws(() => pn.rope(x, { seqLen: 2, heads: 1, headDim: 4, cosCache: new Float32Array(6), sinCache: new Float32Array(6) }), /cosCache\.length must be 4/);
    assert.throws(() => pn.rope(x, { seqLen: 2, heads: 1, headDim: 4, cosCache: new Float32Array(4) }), /sinCache must be a Float32Array/);
    assert.throws(() => pn.rope(x, { seqLen: 2, heads: 1, headDim: 4, cosCache: new Float32Array(4), sinCache: new Float32Array(4), base: 500 }), /base and offset are not used/);
    assert.throws(() => pn.rope(x, { seqLen: 2, numHeads: 3 }), /numHeads/);
    assert.throws(() => pn.rope(x, { seqLen: 2, heads: 1, headDim: 4, layout: 'bsdh' }), /layout must be "bshd" or "bhsd"/);
  });

  test(`${name}: equals Hugging Face's apply_rotary_pos_emb (q·cos + rotate_half(q)·sin, [batch, heads, seq, dim])`, () => {
    const [B, H, S, D] = [2, 4, 6, 16];
    const q = normals(B * H * S * D, { seed: 31 });
    const ids = Int32Array.from({ length: B * S }, (_, k) => 3 + k * 7);
    // HF: inv_freq = 1/base^(arange(0, dim, 2)/dim); freqs = pos·inv_freq; emb = cat(freqs, freqs)
    const want = new Float64Array(q.length);
    for (let b = 0; b < B; b++) for (let h = 0; h < H; h++) for (let s = 0; s < S; s++) {
      const p = ids[b * S + s];
      const at = ((b * H + h) * S + s) * D;
      for (let d = 0; d < D; d++) {
        const i = d % (D / 2);
        const a = p * (1 / Math.pow(10000, (2 * i) / D));
        const rotated = d < D / 2 ? -q[at + d + D / 2] : q[at + d - D / 2];
        want[at + d] = q[at + d] * Math.cos(a) + rotated * Math.sin(a);
      }
    }
    const got = pn.rope(q, { batch: B, seqLen: S, heads: H, headDim: D, layout: 'bhsd', positionIds: ids });
    assert.ok(maxErr(got, want) <= 2e-6, `${maxErr(got, want)}`);
  });
}
