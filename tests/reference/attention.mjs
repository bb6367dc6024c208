// Scaled dot-product attention in float64 (Vaswani et al., "Attention Is All You Need", 2017, eq. 1 and §3.2.2):
// softmax(Q·Kᵀ/√d_k)·V, one head or several over column blocks of d_model.
import { matmul } from './linear.mjs';

/** Row-wise softmax of scores [rows × cols] (max-subtracted). */
export function softmaxRows(scores, cols) {
  const out = new Float64Array(scores.length);
  for (let r = 0; r < scores.length / cols; r++) {
    let top = -Infinity;
    for (let j = 0; j < cols; j++) top = Math.max(top, scores[r * cols + j]);
    let z = 0;
    for (let j = 0; j < cols; j++) z += (out[r * cols + j] = Math.exp(scores[r * cols + j] - top));
    for (let j = 0; j < cols; j++) out[r * cols + j] /= z;
  }
  return out;
}

/**
 * Self-attention of x [seqLen × dModel] through columns [c0, c0 + dk) of q, k, v [seqLen × width]:
 * returns { out [seqLen × dk], weights [seqLen × seqLen] }.
 */
function head(q, k, v, seqLen, width, c0, dk) {
  const scores = new Float64Array(seqLen * seqLen);
  for (let i = 0; i < seqLen; i++) for (let j = 0; j < seqLen; j++) {
    let dot = 0;
    for (let c = 0; c < dk; c++) dot += q[i * width + c0 + c] * k[j * width + c0 + c];
    scores[i * seqLen + j] = dot / Math.sqrt(dk);
  }
  const weights = softmaxRows(scores, seqLen), out = new Float64Array(seqLen * dk);
  for (let i = 0; i < seqLen; i++) for (let c = 0; c < dk; c++) {
    let s = 0;
    for (let j = 0; j < seqLen; j++) s += weights[i * seqLen + j] * v[j * width + c0 + c];
    out[i * dk + c] = s;
  }
  return { out, weights };
}

/** Single-head self-attention: Q = x·wq, K = x·wk, V = x·wv (w* [dModel × dHead]); { out, weights }. */
export function attention(x, wq, wk, wv, { seqLen, dModel, dHead = dModel }) {
  const q = matmul(x, wq, seqLen, dModel, dHead), k = matmul(x, wk, seqLen, dModel, dHead), v = matmul(x, wv, seqLen, dModel, dHead);
  return head(q, k, v, seqLen, dHead, 0, dHead);
}

/**
 * Multi-head self-attention of s [T × d] with Wq, Wk, Wv, Wo [d × d]: head h on columns
 * [h·d/heads, (h+1)·d/heads), out = concat(heads)·Wo; weights [heads × T × T].
 */
export function multiHeadAttention(s, [wq, wk, wv, wo], { tokens: T, dModel: d, heads }) {
  const q = matmul(s, wq, T, d, d), k = matmul(s, wk, T, d, d), v = matmul(s, wv, T, d, d);
  const dh = d / heads, ctx = new Float64Array(T * d), weights = new Float64Array(heads * T * T);
  for (let h = 0; h < heads; h++) {
    const r = head(q, k, v, T, d, h * dh, dh);
    weights.set(r.weights, h * T * T);
    for (let i = 0; i < T; i++) for (let c = 0; c < dh; c++) ctx[i * d + h * dh + c] = r.out[i * dh + c];
  }
  return { out: matmul(ctx, wo, T, d, d), weights };
}
