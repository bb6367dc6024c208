// One Transformer block in float64 (Vaswani et al. 2017, §3.1, Post-Norm; Xiong et al., "On Layer
// Normalization in the Transformer Architecture", ICML 2020, Fig. 1, Pre-Norm): multi-head attention and
// a GELU FFN (the exact erf form unless told, as the article's nn.GELU(); 'tanh' for approximate='tanh'), each behind a residual, LayerNorm or RMSNorm with γ = 1, β = 0, no biases.
import { multiHeadAttention } from './attention.mjs';
import { GELU } from './gelu.mjs';
import { matmul } from './linear.mjs';
import { normRows } from './norms.mjs';

/**
 * The block on x [tokens × dModel] with weights Wq, Wk, Wv, Wo [d × d], W1 [d × dFF], W2 [dFF × d]
 * (row-major, one after the other). Returns the eight traced tensors and the attention weights.
 */
export function transformerBlock(x, weights, { dModel: d, heads = 1, dFF = 4 * d, placement = 'pre', norm = 'layer', eps = 1e-5, gelu = 'erf' }) {
  const T = x.length / d;
  const W = (k) => weights.subarray(k * d * d, (k + 1) * d * d);
  const W1 = weights.subarray(4 * d * d, 4 * d * d + d * dFF), W2 = weights.subarray(4 * d * d + d * dFF, 4 * d * d + 2 * d * dFF);
  const nrm = (a) => normRows(a, d, norm, eps).y;
  const add = (a, b) => a.map((v, i) => v + b[i]);
  const x64 = Float64Array.from(x);
  const attnInput = placement === 'pre' ? nrm(x64) : x64;
  const { out: attnOutput, weights: attention } = multiHeadAttention(attnInput, [W(0), W(1), W(2), W(3)], { tokens: T, dModel: d, heads });
  const residual1 = add(x64, attnOutput);
  const ffnInput = nrm(residual1);
  const ffnOutput = matmul(matmul(ffnInput, W1, T, d, dFF).map(GELU[gelu].f), W2, T, dFF, d);
  const residual2 = add(placement === 'pre' ? residual1 : ffnInput, ffnOutput);
  const output = placement === 'pre' ? residual2 : nrm(residual2);
  return { x: x64, attnInput, attnOutput, residual1, ffnInput, ffnOutput, residual2, output, attention };
}
