// Rotary position embedding in float64 (Su et al., "RoFormer", 2021, eq. 34; ONNX RotaryEmbedding-23
// for the layouts, the cos/sin caches and rotary_embedding_dim; Hugging Face's apply_rotary_pos_emb).
import { frequency } from './pe.mjs';

/** Offset of head h of token (b, s) in [B × S × H × D] ('bshd') or [B × H × S × D] ('bhsd'). */
export function headOffset(layout, b, s, h, { seqLen, heads, headDim }) {
  return (layout === 'bhsd' ? (b * heads + h) * seqLen + s : (b * seqLen + s) * heads + h) * headDim;
}

/**
 * RoPE of x: for token (b, s) at position p = positions(b, s) and pair i < rotaryDim/2 with
 * angle θ = p·w_i, (a, b) → (a cos θ − b sin θ, a sin θ + b cos θ), pairs (2i, 2i+1) when
 * interleaved, else (i, i + rotaryDim/2); w_i = invFreq[i] or base^(−2i/rotaryDim); cos and sin
 * times attentionFactor (RoPE scaling). Dims from rotaryDim on are copied.
 */
export function rope(x, { batch = 1, seqLen, heads, headDim, rotaryDim = headDim - (headDim % 2), base = 10000, positions = (b, s) => s,
  interleaved = false, layout = 'bshd', invFreq, attentionFactor = 1 }) {
  const y = Float64Array.from(x), half = rotaryDim / 2;
  const w = Float64Array.from({ length: half }, (_, i) => (invFreq ? invFreq[i] : frequency(i, rotaryDim, base)));
  for (let b = 0; b < batch; b++) {
    for (let s = 0; s < seqLen; s++) {
      const p = positions(b, s);
      for (let h = 0; h < heads; h++) {
        const at = headOffset(layout, b, s, h, { seqLen, heads, headDim });
        for (let i = 0; i < half; i++) {
          const ia = at + (interleaved ? 2 * i : i), ib = at + (interleaved ? 2 * i + 1 : i + half);
          const c = Math.cos(p * w[i]) * attentionFactor, sn = Math.sin(p * w[i]) * attentionFactor;
          y[ia] = x[ia] * c - x[ib] * sn;
          y[ib] = x[ia] * sn + x[ib] * c;
        }
      }
    }
  }
  return y;
}

/** cos/sin of p·base^(−2i/rotaryDim), [positions.length × cacheDim]: the caches ONNX RotaryEmbedding takes. */
export function ropeCaches(positions, rotaryDim, cacheDim = rotaryDim / 2, base = 10000) {
  const cos = new Float64Array(positions.length * cacheDim), sin = new Float64Array(positions.length * cacheDim);
  positions.forEach((p, r) => {
    for (let i = 0; i < cacheDim; i++) {
      const a = p * frequency(i, rotaryDim, base);
      cos[r * cacheDim + i] = Math.cos(a);
      sin[r * cacheDim + i] = Math.sin(a);
    }
  });
  return { cos, sin };
}

/**
 * ONNX RotaryEmbedding (opset 23) as its reference semantics state it: input 4-D [B, H, S, D] or 3-D
 * [B, S, hidden] with numHeads; cos/sin 2-D [maxPos × cacheDim] indexed by positionIds [B, S], or 3-D
 * [B, S, cacheDim] without; real = cos·x1 − sin·x2, imag = sin·x1 + cos·x2.
 */
export function onnxRotaryEmbedding({ input, dims, cos, sin, cacheDim, positionIds, interleaved, rotaryDim, numHeads }) {
  let B, S, H, D;
  const x4 = new Float64Array(input.length); // as [B, S, H, D]
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
  const half = (rotaryDim || D) / 2;
  const out4 = Float64Array.from(x4);
  for (let b = 0; b < B; b++) for (let s = 0; s < S; s++) {
    const row = positionIds ? positionIds[b * S + s] : b * S + s;
    for (let h = 0; h < H; h++) {
      const at = ((b * S + s) * H + h) * D;
      for (let i = 0; i < half; i++) {
        const [j1, j2] = interleaved ? [2 * i, 2 * i + 1] : [i, i + half];
        const c = cos[row * cacheDim + i], sn = sin[row * cacheDim + i], x1 = x4[at + j1], x2 = x4[at + j2];
        out4[at + j1] = c * x1 - sn * x2;
        out4[at + j2] = sn * x1 + c * x2;
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

/**
 * Hugging Face's apply_rotary_pos_emb on q [B, H, S, D]: inv_freq = 1/base^(arange(0, D, 2)/D),
 * emb = cat(freqs, freqs), q·cos(emb) + rotate_half(q)·sin(emb), rotate_half(q) = cat(−q2, q1).
 */
export function hfApplyRotaryPosEmb(q, { batch, heads, seqLen, headDim, positionIds, base = 10000 }) {
  const out = new Float64Array(q.length), half = headDim / 2;
  for (let b = 0; b < batch; b++) for (let h = 0; h < heads; h++) for (let s = 0; s < seqLen; s++) {
    const p = positionIds[b * seqLen + s], at = ((b * heads + h) * seqLen + s) * headDim;
    for (let d = 0; d < headDim; d++) {
      const a = p * (1 / Math.pow(base, (2 * (d % half)) / headDim));
      const rotated = d < half ? -q[at + d + half] : q[at + d - half];
      out[at + d] = q[at + d] * Math.cos(a) + rotated * Math.sin(a);
    }
  }
  return out;
}

/**
 * q·k after RoPE, q rotated to position `dist` and k left at 0, for the
 * half-split pairs (q[i], q[i + dim/2]) of frequencies inv (dim/2 of them),
 * times the attention factor af for each: af²·Σ_i k_i·R(dist·inv_i)·q_i.
 */
export function ropeScore(q, k, inv, af, dist) {
  const half = inv.length;
  let s = 0;
  for (let i = 0; i < half; i++) {
    const c = Math.cos(dist * inv[i]), sn = Math.sin(dist * inv[i]);
    s += k[i] * (q[i] * c - q[i + half] * sn) + k[i + half] * (q[i] * sn + q[i + half] * c);
  }
  return s * af * af;
}
