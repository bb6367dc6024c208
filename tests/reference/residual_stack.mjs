// A stack of residual blocks x ← x + GELU(s·h·W_l) in float64, plain, Post-LN, Pre-LN and Pre-RMSNorm
// (Xiong et al., "On Layer Normalization in the Transformer Architecture", ICML 2020, Fig. 1, with one
// GELU layer as the sub-layer; GELU tanh form unless told), its loss Σ readout·y and the loss's gradient
// with respect to every weight by backpropagation (chain rule through the norms, GELU and products).
import { GELU } from './gelu.mjs';
import { normRows, normRowsBackward } from './norms.mjs';

const EPS = 1e-5;
const NORM = { 'pre-ln': 'layer', 'pre-rms': 'rms' };

/** Population standard deviation of every value of x. */
export function populationStd(x) {
  let m = 0;
  for (const t of x) m += t;
  m /= x.length;
  let v = 0;
  for (const t of x) v += (t - m) ** 2;
  return Math.sqrt(v / x.length);
}

/**
 * Forward pass on x0 [rows × width] with weights [layers × width × width] (W_l row-major, used as
 * h·(scale·W_l)): block 'plain' x + f(x), 'post-ln' LN(x + f(x)), 'pre-ln' x + f(LN(x)), 'pre-rms'
 * x + f(RMS(x)), f(h) = GELU(scale·h·W_l), eps 1e-5. Returns { std[layers], xs, hs, zs, invs, postInvs },
 * the per-layer tensors a backward pass needs (xs[l] the input of block l, xs[layers] the output).
 */
export function forward(x0, weights, { width, layers, block, scale = 1, gelu = 'tanh' }) {
  const rows = x0.length / width, n = rows * width;
  const xs = [Float64Array.from(x0)], hs = [], zs = [], invs = [], postInvs = [], std = new Float64Array(layers);
  for (let l = 0; l < layers; l++) {
    const x = xs[l];
    let h = x, inv = null;
    if (NORM[block]) ({ y: h, inv } = normRows(x, width, NORM[block], EPS));
    const z = new Float64Array(n);
    for (let r = 0; r < rows; r++) for (let c = 0; c < width; c++) {
      let acc = 0;
      for (let k = 0; k < width; k++) acc += h[r * width + k] * weights[l * width * width + k * width + c];
      z[r * width + c] = scale * acc;
    }
    let u = x.map((t, k) => t + GELU[gelu].f(z[k]));
    let postInv = null;
    if (block === 'post-ln') ({ y: u, inv: postInv } = normRows(u, width, 'layer', EPS));
    hs.push(h); zs.push(z); invs.push(inv); postInvs.push(postInv);
    xs.push(u);
    std[l] = populationStd(u);
  }
  return { std, xs, hs, zs, invs, postInvs };
}

/** The read-out y (after a final norm of the block's kind for the Pre-Norm variants) and loss Σ readout·y. */
function readoutOf(last, width, block) {
  return NORM[block] ? normRows(last, width, NORM[block], EPS) : { y: last, inv: null };
}

/** loss = Σ readout·y of the stack. */
export function loss(x0, weights, readout, opts) {
  const f = forward(x0, weights, opts);
  const { y } = readoutOf(f.xs[opts.layers], opts.width, opts.block);
  let s = 0;
  for (let k = 0; k < y.length; k++) s += readout[k] * y[k];
  return s;
}

/**
 * loss and ∂loss/∂weights (the raw weights, before scale) with the per-layer Frobenius norms and spreads:
 * { loss, grad [layers × width × width], gradNorm[layers], std[layers], y (the read-out's input) }.
 */
export function lossAndGradient(x0, weights, readout, opts) {
  const { width, layers, block, scale = 1, gelu = 'tanh' } = opts;
  const rows = x0.length / width, n = rows * width, kind = NORM[block];
  const f = forward(x0, weights, opts);
  const out = readoutOf(f.xs[layers], width, block);
  let lossValue = 0;
  for (let k = 0; k < n; k++) lossValue += readout[k] * out.y[k];
  let dx = kind ? normRowsBackward(Float64Array.from(readout), out.y, out.inv, width, kind) : Float64Array.from(readout);
  const grad = new Float64Array(layers * width * width), gradNorm = new Float64Array(layers);
  for (let l = layers - 1; l >= 0; l--) {
    // x_{l+1} = LN(u) for Post-LN: du through LN's backward; else du = dx
    const du = block === 'post-ln' ? normRowsBackward(dx, f.xs[l + 1], f.postInvs[l], width, 'layer') : dx;
    const dz = du.map((t, k) => t * GELU[gelu].df(f.zs[l][k]));
    const h = f.hs[l];
    let sq = 0;
    for (let k = 0; k < width; k++) for (let c = 0; c < width; c++) {
      let acc = 0;
      for (let r = 0; r < rows; r++) acc += h[r * width + k] * dz[r * width + c];
      grad[l * width * width + k * width + c] = scale * acc;
      sq += (scale * acc) ** 2;
    }
    gradNorm[l] = Math.sqrt(sq);
    const dh = new Float64Array(n);
    for (let r = 0; r < rows; r++) for (let k = 0; k < width; k++) {
      let acc = 0;
      for (let c = 0; c < width; c++) acc += dz[r * width + c] * weights[l * width * width + k * width + c];
      dh[r * width + k] = scale * acc;
    }
    const dBranch = kind ? normRowsBackward(dh, h, f.invs[l], width, kind) : dh;
    dx = du.map((t, k) => t + dBranch[k]);
  }
  return { loss: lossValue, grad, gradNorm, std: f.std, y: out.y };
}
