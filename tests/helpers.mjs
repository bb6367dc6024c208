// helpers.mjs — shared by the Node tests: both builds, a random generator of
// the tests' own, and comparisons. The float64 references the tests compare
// with are in tests/reference/, one module per concern, written from the
// published formulas (never from posnorm's code).
import { init } from '../src/js/posnorm.js';

/** Both builds, loaded once per test file. */
export async function builds() {
  return [
    { name: 'simd', pn: await init({ simd: true }) },
    { name: 'scalar', pn: await init({ simd: false }) },
  ];
}

/** mulberry32 uniforms and Box–Muller normals: the tests' own generator. */
export function rng(seed) {
  let a = seed >>> 0;
  const uniform = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (((t ^ (t >>> 14)) >>> 0) + 0.5) / 4294967296;
  };
  const normal = () => Math.sqrt(-2 * Math.log(uniform())) * Math.cos(2 * Math.PI * uniform());
  return { uniform, normal };
}

/** Float32Array of n values mean + std·N(0,1) from the tests' generator. */
export function normals(n, { mean = 0, std = 1, seed = 1 } = {}) {
  const r = rng(seed);
  const out = new Float32Array(n);
  for (let k = 0; k < n; k++) out[k] = mean + std * r.normal();
  return out;
}

/** Largest |a[k] − b[k]| (NaN anywhere makes it NaN, which fails every `<=`). */
export function maxAbsDiff(a, b) {
  if (a.length !== b.length) return NaN;
  let m = 0;
  for (let k = 0; k < a.length; k++) {
    const d = Math.abs(a[k] - b[k]);
    if (Number.isNaN(d)) return NaN;
    if (d > m) m = d;
  }
  return m;
}

/** The spacing of float32 numbers at x (the ulp of fround(x); 2^-149 below the normal range). */
export function ulp32(x) {
  const a = Math.abs(Math.fround(x));
  if (a < 1.1754943508222875e-38) return 2 ** -149;
  if (!Number.isFinite(a)) return NaN;
  return 2 ** (Math.floor(Math.log2(a)) - 23);
}

/**
 * Compares float32 results `got` with float64 references `want` value by value:
 * where want is NaN got must be NaN, and where want is ±Inf or beyond the float32
 * range (so that it rounds to ±Inf) got must be that infinity (else the error is
 * Infinity); elsewhere the error is |got − want| / unit(want, k) (unit 1: absolute;
 * ulp32: in float32 ulps).
 * Returns { err, compared } with compared = the number of values looked at.
 */
export function compareValues(got, want, unit = () => 1) {
  if (got.length !== want.length) return { err: Infinity, compared: 0 };
  let err = 0;
  for (let k = 0; k < want.length; k++) {
    const w = want[k], g = got[k];
    let e;
    if (Number.isNaN(w)) e = Number.isNaN(g) ? 0 : Infinity;
    else if (!Number.isFinite(Math.fround(w))) e = g === Math.fround(w) ? 0 : Infinity;
    else e = Math.abs(g - w) / unit(w, k);
    if (Number.isNaN(e)) e = Infinity; // a NaN result where the reference has a number
    if (e > err) err = e;
  }
  return { err, compared: want.length };
}

// The references below move to tests/reference/ as each test file is converted; they go when none is left.

/** PE(pos, c) in float64 for either layout. */
export function peRef(seqLen, dModel, { base = 10000, offset = 0, layout = 'interleaved' } = {}) {
  const out = new Float64Array(seqLen * dModel);
  const half = Math.ceil(dModel / 2);
  for (let r = 0; r < seqLen; r++) {
    for (let c = 0; c < dModel; c++) {
      let i, isCos;
      if (layout === 'interleaved') { i = c >> 1; isCos = c % 2 === 1; }
      else { isCos = c >= half; i = isCos ? c - half : c; }
      const a = (offset + r) * Math.pow(base, (-2 * i) / dModel);
      out[r * dModel + c] = isCos ? Math.cos(a) : Math.sin(a);
    }
  }
  return out;
}

/** LayerNorm in float64 on float32 inputs. */
export function layerNormRef(x, cols, gamma, beta, eps) {
  const rows = x.length / cols;
  const y = new Float64Array(x.length), mean = new Float64Array(rows), inv = new Float64Array(rows);
  for (let r = 0; r < rows; r++) {
    let m = 0;
    for (let j = 0; j < cols; j++) m += x[r * cols + j];
    m /= cols;
    let v = 0;
    for (let j = 0; j < cols; j++) v += (x[r * cols + j] - m) ** 2;
    v /= cols;
    const is = 1 / Math.sqrt(v + eps);
    mean[r] = m;
    inv[r] = is;
    for (let j = 0; j < cols; j++) {
      y[r * cols + j] = (gamma ? gamma[j] : 1) * (x[r * cols + j] - m) * is + (beta ? beta[j] : 0);
    }
  }
  return { y, mean, inv };
}

/** Per-column mean and biased variance in float64 of x [rows × cols] (BatchNorm's statistics). */
export function columnStats(x, cols) {
  const rows = x.length / cols;
  const mean = new Float64Array(cols), variance = new Float64Array(cols);
  for (let c = 0; c < cols; c++) {
    for (let r = 0; r < rows; r++) mean[c] += x[r * cols + c];
    mean[c] /= rows;
    for (let r = 0; r < rows; r++) variance[c] += (x[r * cols + c] - mean[c]) ** 2;
    variance[c] /= rows;
  }
  return { mean, variance };
}

/**
 * RoPE inv_freq and attention factor in float64 for a Hugging Face rope_scaling
 * (camelCase keys), written from the published formulas (not posnorm's code).
 */
export function hfRope(dim, base, s, seqLen = 0) {
  const half = dim / 2;
  const plain = (b) => Array.from({ length: half }, (_, i) => 1 / b ** ((2 * i) / dim));
  if (!s) return { inv: plain(base), af: 1 };
  const orig = s.originalMaxPositions;
  const mscale = (scale, m = 1) => (scale <= 1 ? 1 : 0.1 * m * Math.log(scale) + 1);
  switch (s.type) {
    case 'linear': return { inv: plain(base).map((w) => w / s.factor), af: 1 };
    case 'dynamic': {
      const sl = Math.max(seqLen, orig);
      const b = base * (s.factor * sl / orig - (s.factor - 1)) ** (dim / (dim - 2));
      return { inv: plain(b), af: 1 };
    }
    case 'yarn': {
      const af = s.attentionFactor ?? (s.mscale && s.mscaleAllDim ? mscale(s.factor, s.mscale) / mscale(s.factor, s.mscaleAllDim) : mscale(s.factor));
      const corr = (rot) => (dim * Math.log(orig / (rot * 2 * Math.PI))) / (2 * Math.log(base));
      let low = corr(s.betaFast ?? 32), high = corr(s.betaSlow ?? 1);
      if (s.truncate ?? true) { low = Math.floor(low); high = Math.ceil(high); }
      low = Math.max(low, 0);
      high = Math.min(high, dim - 1);
      if (low === high) high += 0.001;
      const inv = plain(base).map((w, i) => {
        const ramp = Math.min(1, Math.max(0, (i - low) / (high - low)));
        const extrapolation = 1 - ramp;
        return (w / s.factor) * (1 - extrapolation) + w * extrapolation;
      });
      return { inv, af };
    }
    case 'llama3': {
      const lowWave = orig / s.lowFreqFactor, highWave = orig / s.highFreqFactor;
      const inv = plain(base).map((w) => {
        const wave = (2 * Math.PI) / w;
        if (wave < highWave) return w;
        if (wave > lowWave) return w / s.factor;
        const t = (orig / wave - s.lowFreqFactor) / (s.highFreqFactor - s.lowFreqFactor);
        return ((1 - t) * w) / s.factor + t * w;
      });
      return { inv, af: 1 };
    }
    case 'longrope': {
      const ext = seqLen > orig ? s.longFactor : s.shortFactor;
      const factor = s.factor ?? 1;
      const af = s.attentionFactor ?? (factor <= 1 ? 1 : Math.sqrt(1 + Math.log(factor) / Math.log(orig)));
      return { inv: plain(base).map((w, i) => w / ext[i]), af };
    }
    default: throw new Error(s.type);
  }
}


/**
 * One Transformer block in float64, written from the published formulas
 * (Vaswani et al. 2017 attention; GELU's tanh form via Math.tanh; LayerNorm
 * and RMSNorm with γ = 1, β = 0; no biases), for transformerBlock and
 * <posnorm-block>. weights: Wq, Wk, Wv, Wo, W1, W2 row-major [in × out].
 * Returns the eight traced tensors and the attention weights (Float64Array).
 */
export function blockRef(x, weights, { dModel: d, heads = 1, dFF = 4 * d, placement = 'pre', norm = 'layer', eps = 1e-5 }) {
  const T = x.length / d, dh = d / heads;
  const W = (k) => weights.subarray(k * d * d, (k + 1) * d * d);
  const W1 = weights.subarray(4 * d * d, 4 * d * d + d * dFF), W2 = weights.subarray(4 * d * d + d * dFF);
  const mm = (a, w, n, m) => {
    const y = new Float64Array(T * m);
    for (let r = 0; r < T; r++) for (let c = 0; c < m; c++) { let s = 0; for (let k = 0; k < n; k++) s += a[r * n + k] * w[k * m + c]; y[r * m + c] = s; }
    return y;
  };
  const nrm = (a) => {
    const y = new Float64Array(T * d);
    for (let r = 0; r < T; r++) {
      const row = a.subarray(r * d, (r + 1) * d);
      const m = norm === 'layer' ? row.reduce((s, v) => s + v, 0) / d : 0;
      const v = row.reduce((s, t) => s + (t - m) ** 2, 0) / d;
      for (let c = 0; c < d; c++) y[r * d + c] = (row[c] - m) / Math.sqrt(v + eps);
    }
    return y;
  };
  const add = (a, b) => a.map((v, i) => v + b[i]);
  const K = Math.sqrt(2 / Math.PI);
  const gelu = (z) => 0.5 * z * (1 + Math.tanh(K * (z + 0.044715 * z ** 3)));
  const x64 = Float64Array.from(x);
  const attnInput = placement === 'pre' ? nrm(x64) : x64;
  const q = mm(attnInput, W(0), d, d), k = mm(attnInput, W(1), d, d), v = mm(attnInput, W(2), d, d);
  const attention = new Float64Array(heads * T * T), ctx = new Float64Array(T * d);
  for (let h = 0; h < heads; h++) {
    for (let i = 0; i < T; i++) {
      const s = Array.from({ length: T }, (_, j) => {
        let dot = 0;
        for (let c = 0; c < dh; c++) dot += q[i * d + h * dh + c] * k[j * d + h * dh + c];
        return dot / Math.sqrt(dh);
      });
      const top = Math.max(...s), e = s.map((t) => Math.exp(t - top)), z = e.reduce((a, b) => a + b, 0);
      for (let j = 0; j < T; j++) attention[(h * T + i) * T + j] = e[j] / z;
      for (let c = 0; c < dh; c++) {
        let acc = 0;
        for (let j = 0; j < T; j++) acc += attention[(h * T + i) * T + j] * v[j * d + h * dh + c];
        ctx[i * d + h * dh + c] = acc;
      }
    }
  }
  const attnOutput = mm(ctx, W(3), d, d);
  const residual1 = add(x64, attnOutput);
  const ffnInput = nrm(residual1);
  const ffnOutput = mm(mm(ffnInput, W1, d, dFF).map(gelu), W2, dFF, d);
  const residual2 = add(placement === 'pre' ? residual1 : ffnInput, ffnOutput);
  const output = placement === 'pre' ? residual2 : nrm(residual2);
  return { x: x64, attnInput, attnOutput, residual1, ffnInput, ffnOutput, residual2, output, attention };
}
