// bfloat16 and float16 (IEEE 754 binary16) by integer bit manipulation, and
// PyTorch's sinusoidal PE and Hugging Face's Llama RoPE with their tensors in
// those types. The rounding works on the float32 bit pattern as an integer
// (Uint32Array over the same buffer as a Float32Array): the bits below the
// kept ones are compared with the halfway pattern, ties go to the even
// significand — an approach unrelated to the kernels' FPU-add rounding.
//
// Formats (IEEE 754-2008 binary16; bfloat16 as defined by Google Brain /
// Intel's BF16 spec: the top 16 bits of a float32). NaN results are the
// quiet NaN 0x7FC0 (bfloat16) / 0x7E00 (float16), PyTorch's c10 choice for
// bfloat16 and the canonical binary16 quiet NaN.

const u32 = new Uint32Array(1);
const f32 = new Float32Array(u32.buffer);
const f = Math.fround;

/** The float32 bit pattern of x (x rounded to float32 first). */
export function bitsOf(x) { f32[0] = x; return u32[0]; }
/** The float32 value of a bit pattern. */
export function floatOf(bits) { u32[0] = bits >>> 0; return f32[0]; }

/** bfloat16 bits of x: round to nearest even on the low 16 bits. */
export function bf16Bits(x) {
  const u = bitsOf(x);
  if ((u & 0x7fffffff) > 0x7f800000) return 0x7fc0;
  const low = u & 0xffff, keep = u >>> 16;
  // above half, or exactly half with an odd kept part: one up (a carry into
  // the exponent is the next binade, or Inf from the largest finite)
  return low > 0x8000 || (low === 0x8000 && (keep & 1)) ? keep + 1 : keep;
}
/** The value of bfloat16 bits. */
export function fromBf16Bits(h) { return floatOf(h << 16); }

/** float16 bits of x: round to nearest even, subnormals, overflow to Inf. */
export function f16Bits(x) {
  const u = bitsOf(x);
  const sign = (u >>> 16) & 0x8000, exp = (u >>> 23) & 0xff, man = u & 0x7fffff;
  if (exp === 0xff) return man ? 0x7e00 : sign | 0x7c00;
  if (exp === 0) return sign; // float32 subnormals are below 2^-126 ≪ 2^-25
  const e = exp - 127;
  const sig = man | 0x800000; // 24 significant bits, value sig·2^(e−23)
  // target spacing 2^(e−10) for normals, 2^−24 below 2^−14
  const shift = e >= -14 ? 13 : 13 + (-14 - e);
  if (shift > 24) return sign; // below 2^-25: rounds to zero
  let q = Math.floor(sig / 2 ** shift);
  const rem = sig - q * 2 ** shift, halfway = 2 ** (shift - 1);
  if (rem > halfway || (rem === halfway && q % 2 === 1)) q += 1;
  if (e < -14) return sign | q; // subnormal (q = 0x400 is the smallest normal)
  let e16 = e + 15;
  if (q === 0x800) { q = 0x400; e16 += 1; }
  if (e16 >= 31) return sign | 0x7c00;
  return sign | (e16 << 10) | (q & 0x3ff);
}
/** The value of float16 bits. */
export function fromF16Bits(h) {
  const sign = (h & 0x8000) << 16, e = (h >>> 10) & 0x1f;
  let m = h & 0x3ff;
  if (e === 0x1f) return floatOf(sign | 0x7f800000 | (m << 13));
  if (e === 0) {
    if (m === 0) return floatOf(sign);
    let ee = -14;
    while (!(m & 0x400)) { m <<= 1; ee -= 1; }
    return floatOf(sign | ((ee + 127) << 23) | ((m & 0x3ff) << 13));
  }
  return floatOf(sign | ((e - 15 + 127) << 23) | (m << 13));
}

export const roundBf16 = (x) => fromBf16Bits(bf16Bits(x));
export const roundF16 = (x) => fromF16Bits(f16Bits(x));
/** Rounding to a precision name: 'bfloat16', 'float16', or 'float32' (Math.fround). */
export function rounder(precision) {
  return { bfloat16: roundBf16, float16: roundF16, float32: f }[precision];
}

/**
 * PyTorch's SinusoidalPositionalEncoding (the article's code: pe[:, 0::2] =
 * sin(position · div_term), div_term = exp(arange(0, d, 2) · (−ln 10000 / d)))
 * with its tensors in `precision`: compute 'low' rounds every tensor op's
 * float32 result to the type, 'float32' runs the float32 code and rounds the
 * finished table (model.to(dtype)). Float32Array [seqLen × dModel].
 */
export function peLowPrecision({ seqLen, dModel, base = 10000, offset = 0, layout = 'interleaved', precision, compute = 'float32' }) {
  const T = rounder(precision), R = compute === 'low' ? T : f;
  const out = new Float32Array(seqLen * dModel), pairs = Math.ceil(dModel / 2);
  const scale = f(-Math.log(base) / dModel); // a Python float meets a tensor: float32 opmath
  const div = Array.from({ length: pairs }, (_, i) => R(Math.exp(R(R(2 * i) * scale))));
  for (let r = 0; r < seqLen; r++) {
    const position = R(offset + r);
    for (let i = 0; i < pairs; i++) {
      const angle = R(position * div[i]);
      const s = T(Math.sin(angle)), c = T(Math.cos(angle));
      const row = r * dModel;
      if (layout === 'interleaved') {
        out[row + 2 * i] = s;
        if (2 * i + 1 < dModel) out[row + 2 * i + 1] = c;
      } else {
        out[row + i] = s;
        if (2 * i + 1 < dModel) out[row + pairs + i] = c;
      }
    }
  }
  return out;
}

/**
 * Hugging Face's Llama RoPE (inv_freq = 1 / base^(arange(0, dim, 2) / dim);
 * freqs = position · inv_freq; q·cos + rotate_half(q)·sin) with the model in
 * `precision`: cos/sin and the rotation in the type; with compute 'low' the
 * frequencies, positions and angles too. Float32Array like x.
 */
export function ropeLowPrecision(x, { batch = 1, seqLen, heads, headDim, rotaryDim = headDim, base = 10000, offset = 0, positionIds,
  interleaved = false, layout = 'bshd', precision, compute = 'float32' }) {
  const T = rounder(precision), R = compute === 'low' ? T : f;
  const y = new Float32Array(x.length), half = rotaryDim / 2;
  const inv = Array.from({ length: half }, (_, i) => R(1 / R(Math.pow(f(base), R(R(2 * i) / f(rotaryDim))))));
  for (let b = 0; b < batch; b++) {
    for (let s = 0; s < seqLen; s++) {
      const p = R(positionIds ? positionIds[b * seqLen + s] : offset + s);
      for (let h = 0; h < heads; h++) {
        const at = (layout === 'bhsd' ? (b * heads + h) * seqLen + s : (b * seqLen + s) * heads + h) * headDim;
        for (let i = 0; i < half; i++) {
          const angle = R(p * inv[i]), c = T(Math.cos(angle)), sn = T(Math.sin(angle));
          const ia = at + (interleaved ? 2 * i : i), ib = at + (interleaved ? 2 * i + 1 : i + half);
          const a = T(x[ia]), bb = T(x[ib]);
          // rotate_half(q) = (−q2, q1): q1·cos + (−q2)·sin, q2·cos + q1·sin
          y[ia] = T(T(a * c) + T(-bb * sn));
          y[ib] = T(T(bb * c) + T(a * sn));
        }
        for (let k = rotaryDim; k < headDim; k++) y[at + k] = T(x[at + k]);
      }
    }
  }
  return y;
}
