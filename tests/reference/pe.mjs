// Sinusoidal positional encoding in float64 (Vaswani et al., "Attention Is All You Need", 2017, §3.5),
// and the tensor2tensor layout that puts the sines first.

/** w_i = base^(−2i/dims), the frequency of pair i. */
export function frequency(i, dims, base = 10000) {
  return Math.pow(base, (-2 * i) / dims);
}

/** PE(pos, col) for a d_model-wide encoding: interleaved (sin at 2i, cos at 2i+1) or concat (sines, then cosines). */
export function peValue(pos, col, dModel, { base = 10000, layout = 'interleaved' } = {}) {
  let i, isCos;
  if (layout === 'interleaved') { i = col >> 1; isCos = col % 2 === 1; } else {
    const half = Math.ceil(dModel / 2);
    isCos = col >= half;
    i = isCos ? col - half : col;
  }
  const a = pos * frequency(i, dModel, base);
  return isCos ? Math.cos(a) : Math.sin(a);
}

/** The [seqLen × dModel] encoding of positions offset … offset + seqLen − 1. */
export function sinusoidal(seqLen, dModel, { base = 10000, offset = 0, layout = 'interleaved' } = {}) {
  const out = new Float64Array(seqLen * dModel);
  for (let r = 0; r < seqLen; r++) for (let c = 0; c < dModel; c++) out[r * dModel + c] = peValue(offset + r, c, dModel, { base, layout });
  return out;
}

/** One column `dim` at positions start + k·step, k < n (interleaved numbering: even dim sin, odd cos). */
export function peSample({ n, dim, dModel, base = 10000, start = 0, step = 1 }) {
  return Float64Array.from({ length: n }, (_, k) => peValue(start + k * step, dim, dModel, { base }));
}

/**
 * The article's PyTorch float32 code (posnorm.h, pn_pe_float32_code_f32) step by step in float32:
 * scale = fround(−ln(base)/d), div_i = fround(exp(fround(fround(2i)·scale))), a = fround(fround(p)·div_i),
 * value fround(sin a) or fround(cos a); interleaved columns.
 */
export function float32CodeRow(pos, dModel, base = 10000) {
  const f = Math.fround, scale = f(-Math.log(base) / dModel);
  return Float64Array.from({ length: dModel }, (_, c) => {
    const a = f(f(pos) * f(Math.exp(f(f(2 * (c >> 1)) * scale))));
    return f(c % 2 ? Math.cos(a) : Math.sin(a));
  });
}

/**
 * The largest |values − PE| over a [seqLen × dModel] encoding (interleaved
 * unless `layout` says otherwise), PE from float64 sin/cos (peValue).
 */
export function maxErrorVsFloat64(values, { seqLen, dModel, base = 10000, layout = 'interleaved' }) {
  let worst = 0;
  for (let p = 0; p < seqLen; p++) {
    for (let c = 0; c < dModel; c++) worst = Math.max(worst, Math.abs(values[p * dModel + c] - peValue(p, c, dModel, { base, layout })));
  }
  return worst;
}
