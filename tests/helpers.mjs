// helpers.mjs — shared by the Node tests: both builds, a random generator of
// the tests' own, and float64 reference implementations written from the
// formulas (never from posnorm's code).
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

export function maxAbsDiff(a, b) {
  let m = 0;
  for (let k = 0; k < a.length; k++) {
    const d = Math.abs(a[k] - b[k]);
    if (!(d <= m)) m = d; // NaN wins
  }
  return m;
}

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
