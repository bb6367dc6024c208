// ALiBi head slopes and bias (Press, Smith & Lewis, "Train Short, Test Long", ICLR 2022, §3, and the
// rule of its reference code's get_slopes for head counts that are not powers of two).

/** m_h, h < heads: 2^(−8(h+1)/P) for the P = 2^⌊log2 heads⌋ heads, then every other slope of 2P heads. */
export function alibiSlopes(heads) {
  const p = 2 ** Math.floor(Math.log2(heads));
  const pow2 = (h, n) => 2 ** ((-8 * (h + 1)) / n);
  return Float64Array.from({ length: heads }, (_, h) => (h < p ? pow2(h, p) : pow2(2 * (h - p), 2 * p)));
}

/** bias[h][i][j] = −m_h·|i − j|, [heads × seqLen × seqLen]. */
export function alibiBias(heads, seqLen) {
  const m = alibiSlopes(heads), out = new Float64Array(heads * seqLen * seqLen);
  for (let h = 0; h < heads; h++) for (let i = 0; i < seqLen; i++) for (let j = 0; j < seqLen; j++) out[(h * seqLen + i) * seqLen + j] = -m[h] * Math.abs(i - j);
  return out;
}
