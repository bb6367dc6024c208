// A stack of residual blocks x ← x + GELU(s·h·W_l) in float64, plain, Post-LN, Pre-LN and Pre-RMSNorm
// (Xiong et al., "On Layer Normalization in the Transformer Architecture", ICML 2020, Fig. 1, with one
// GELU layer as the sub-layer; GELU tanh form unless told), its loss Σ readout·y and the loss's gradient
// with respect to every weight by backpropagation (chain rule through the norms, GELU and products).
// With a memory m [width] (a decoder's encoder output, one vector seen by every row), each block also
// adds the cross-attention branch c_l = m·(scale·C_l), which does not depend on x: plain x + f(x) + c,
// Post-LN LN(x + f(x) + c), Pre-Norm x' = x + c, then x' + f(Norm(x')); weights per layer W_l then C_l.
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

/** c = m·(scale·C) for a memory m [width] and C [width × width] (row-major), or null without memory. */
function memoryBranch(memory, weights, offset, width, scale) {
  if (!memory) return null;
  const c = new Float64Array(width);
  for (let j = 0; j < width; j++) {
    let acc = 0;
    for (let k = 0; k < width; k++) acc += memory[k] * weights[offset + k * width + j];
    c[j] = scale * acc;
  }
  return c;
}

/**
 * Forward pass on x0 [rows × width] with weights [layers × width × width] (W_l row-major, used as
 * h·(scale·W_l)), or [layers × 2 × width × width] (W_l then C_l) with a memory: block 'plain' x + f(x) (+ c),
 * 'post-ln' LN(x + f(x) (+ c)), 'pre-ln' x' + f(LN(x')), 'pre-rms' x' + f(RMS(x')) with x' = x (+ c),
 * f(h) = GELU(scale·h·W_l), c = m·(scale·C_l), eps 1e-5. Returns { std[layers], xs, hs, zs, invs, postInvs },
 * the per-layer tensors a backward pass needs (xs[l] the input of block l, xs[layers] the output).
 */
export function forward(x0, weights, { width, layers, block, scale = 1, gelu = 'tanh', memory = null }) {
  const rows = x0.length / width, n = rows * width, per = memory ? 2 : 1;
  const xs = [Float64Array.from(x0)], hs = [], zs = [], invs = [], postInvs = [], std = new Float64Array(layers);
  for (let l = 0; l < layers; l++) {
    const wOff = l * per * width * width;
    const c = memoryBranch(memory, weights, wOff + width * width, width, scale);
    const pre = Boolean(NORM[block]);
    // Pre-Norm: the memory branch joins the stream in front of the norm
    const x = pre && c ? xs[l].map((t, k) => t + c[k % width]) : xs[l];
    let h = x, inv = null;
    if (NORM[block]) ({ y: h, inv } = normRows(x, width, NORM[block], EPS));
    const z = new Float64Array(n);
    for (let r = 0; r < rows; r++) for (let j = 0; j < width; j++) {
      let acc = 0;
      for (let k = 0; k < width; k++) acc += h[r * width + k] * weights[wOff + k * width + j];
      z[r * width + j] = scale * acc;
    }
    let u = x.map((t, k) => t + GELU[gelu].f(z[k]) + (!pre && c ? c[k % width] : 0));
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
 * loss and ∂loss/∂weights (the raw weights, before scale) with the per-layer norms and spreads:
 * { loss, grad [layers × (1 or 2) × width × width] (W_l, then C_l with a memory), gradNorm[layers] (the
 * Frobenius norm of W_l's gradient), memoryGradNorm[layers] (C_l's; zeros without a memory), std[layers],
 * y (the read-out's input) }.
 */
export function lossAndGradient(x0, weights, readout, opts) {
  const { width, layers, block, scale = 1, gelu = 'tanh', memory = null } = opts;
  const rows = x0.length / width, n = rows * width, kind = NORM[block], per = memory ? 2 : 1;
  const f = forward(x0, weights, opts);
  const out = readoutOf(f.xs[layers], width, block);
  let lossValue = 0;
  for (let k = 0; k < n; k++) lossValue += readout[k] * out.y[k];
  let dx = kind ? normRowsBackward(Float64Array.from(readout), out.y, out.inv, width, kind) : Float64Array.from(readout);
  const grad = new Float64Array(layers * per * width * width), gradNorm = new Float64Array(layers);
  const memoryGradNorm = new Float64Array(layers);
  // ∂loss/∂C_l from the gradient d at the point where c_l is added: s·m[k]·Σ_r d[r][j]
  const memoryGrad = (l, d) => {
    let sq = 0;
    for (let k = 0; k < width; k++) for (let j = 0; j < width; j++) {
      let col = 0;
      for (let r = 0; r < rows; r++) col += d[r * width + j];
      const g = scale * memory[k] * col;
      grad[(l * 2 + 1) * width * width + k * width + j] = g;
      sq += g * g;
    }
    memoryGradNorm[l] = Math.sqrt(sq);
  };
  for (let l = layers - 1; l >= 0; l--) {
    const wOff = l * per * width * width;
    // x_{l+1} = LN(u) for Post-LN: du through LN's backward; else du = dx
    const du = block === 'post-ln' ? normRowsBackward(dx, f.xs[l + 1], f.postInvs[l], width, 'layer') : dx;
    if (memory && !kind) memoryGrad(l, du);
    const dz = du.map((t, k) => t * GELU[gelu].df(f.zs[l][k]));
    const h = f.hs[l];
    let sq = 0;
    for (let k = 0; k < width; k++) for (let j = 0; j < width; j++) {
      let acc = 0;
      for (let r = 0; r < rows; r++) acc += h[r * width + k] * dz[r * width + j];
      grad[wOff + k * width + j] = scale * acc;
      sq += (scale * acc) ** 2;
    }
    gradNorm[l] = Math.sqrt(sq);
    const dh = new Float64Array(n);
    for (let r = 0; r < rows; r++) for (let k = 0; k < width; k++) {
      let acc = 0;
      for (let j = 0; j < width; j++) acc += dz[r * width + j] * weights[wOff + k * width + j];
      dh[r * width + k] = scale * acc;
    }
    const dBranch = kind ? normRowsBackward(dh, h, f.invs[l], width, kind) : dh;
    dx = du.map((t, k) => t + dBranch[k]);
    // Pre-Norm: x' = x + c, so ∂loss/∂x' (now in dx) is what C_l sees, and ∂loss/∂x = ∂loss/∂x'
    if (memory && kind) memoryGrad(l, dx);
  }
  return { loss: lossValue, grad, gradNorm, memoryGradNorm, std: f.std, y: out.y };
}
