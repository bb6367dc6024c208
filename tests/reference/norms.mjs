// LayerNorm (Ba et al. 2016, eq. 4; ONNX LayerNormalization), RMSNorm (Zhang & Sennrich 2019, eq. 4;
// ONNX RMSNormalization) and BatchNorm (Ioffe & Szegedy 2015, Alg. 1; ONNX BatchNormalization-15) in float64.

/**
 * LayerNorm of each row of x [rows × cols]: y = γ·(x − μ)/√(σ² + ε) + β, σ² biased.
 * Returns { y, mean, variance, invStd } (Float64Array). With ε = 0 a constant row gives 0·∞ = NaN.
 */
export function layerNorm(x, cols, { gamma, beta, eps = 1e-5 } = {}) {
  const rows = x.length / cols;
  const y = new Float64Array(x.length), mean = new Float64Array(rows), variance = new Float64Array(rows), invStd = new Float64Array(rows);
  for (let r = 0; r < rows; r++) {
    let m = 0;
    for (let j = 0; j < cols; j++) m += x[r * cols + j];
    m /= cols;
    let v = 0;
    for (let j = 0; j < cols; j++) v += (x[r * cols + j] - m) ** 2;
    v /= cols;
    const inv = 1 / Math.sqrt(v + eps);
    mean[r] = m;
    variance[r] = v;
    invStd[r] = inv;
    for (let j = 0; j < cols; j++) y[r * cols + j] = (gamma ? gamma[j] : 1) * ((x[r * cols + j] - m) * inv) + (beta ? beta[j] : 0);
  }
  return { y, mean, variance, invStd };
}

/** RMSNorm of each row: y = γ·x/√(mean(x²) + ε). Returns { y, invRms }. */
export function rmsNorm(x, cols, { gamma, eps = 1e-6 } = {}) {
  const rows = x.length / cols;
  const y = new Float64Array(x.length), invRms = new Float64Array(rows);
  for (let r = 0; r < rows; r++) {
    let sq = 0;
    for (let j = 0; j < cols; j++) sq += x[r * cols + j] ** 2;
    const inv = 1 / Math.sqrt(sq / cols + eps);
    invRms[r] = inv;
    for (let j = 0; j < cols; j++) y[r * cols + j] = (gamma ? gamma[j] : 1) * (x[r * cols + j] * inv);
  }
  return { y, invRms };
}

/** LayerNorm ('layer') or RMSNorm ('rms') without γ, β: { y, inv } with inv = 1/√(σ² + ε) or 1/rms. */
export function normRows(x, cols, kind, eps) {
  if (kind === 'rms') { const r = rmsNorm(x, cols, { eps }); return { y: r.y, inv: r.invRms }; }
  const r = layerNorm(x, cols, { eps });
  return { y: r.y, inv: r.invStd };
}

/**
 * Backward pass of normRows: dx for dy, given its output y and inv. LayerNorm:
 * dx = inv·(dy − mean(dy) − y·mean(dy·y)); RMSNorm: dx = inv·(dy − y·mean(dy·y)).
 */
export function normRowsBackward(dy, y, inv, cols, kind) {
  const rows = y.length / cols, dx = new Float64Array(y.length);
  for (let r = 0; r < rows; r++) {
    let mdy = 0, mdyy = 0;
    for (let j = 0; j < cols; j++) { mdy += dy[r * cols + j]; mdyy += dy[r * cols + j] * y[r * cols + j]; }
    mdy /= cols;
    mdyy /= cols;
    for (let j = 0; j < cols; j++) {
      dx[r * cols + j] = inv[r] * (dy[r * cols + j] - (kind === 'rms' ? 0 : mdy) - y[r * cols + j] * mdyy);
    }
  }
  return dx;
}

/** Per-column mean and variance of x [rows × cols] (BatchNorm's batch statistics; biased as ONNX, or unbiased). */
export function columnStats(x, cols, { unbiased = false } = {}) {
  const rows = x.length / cols;
  const mean = new Float64Array(cols), variance = new Float64Array(cols);
  for (let c = 0; c < cols; c++) {
    for (let r = 0; r < rows; r++) mean[c] += x[r * cols + c];
    mean[c] /= rows;
    for (let r = 0; r < rows; r++) variance[c] += (x[r * cols + c] - mean[c]) ** 2;
    variance[c] /= unbiased ? rows - 1 : rows;
  }
  return { mean, variance };
}

/** BatchNorm with given per-column statistics: y = γ·(x − m)/√(v + ε) + β. */
export function batchNorm(x, cols, { mean, variance, gamma, beta, eps = 1e-5 }) {
  return Float64Array.from(x, (t, k) => {
    const c = k % cols;
    return (gamma ? gamma[c] : 1) * ((t - mean[c]) / Math.sqrt(variance[c] + eps)) + (beta ? beta[c] : 0);
  });
}

/** ONNX's running-statistics update: momentum·running + (1 − momentum)·batch (biased batch variance). */
export function runningUpdate(running, batch, momentum) {
  return Float64Array.from(running, (t, c) => momentum * t + (1 - momentum) * batch[c]);
}

/**
 * The exact mean of float32 values, rounded once to float64, and the
 * standard deviation about it: every float32 is an integer times 2^-149, so
 * their sum is an exact BigInt of such steps (the float64 loop of layerNorm
 * above loses a small value added to a large one: 5 + 1e30 − 1e30 gives 0).
 */
export function exactMeanAndDeviation(values) {
  const STEPS = 2 ** 149;
  let sum = 0n;
  for (const x of values) sum += BigInt(x * STEPS);
  // the quotient of the BigInt first (an integer part), then the remainder's
  // fraction: the result within an ulp or two of the true mean
  const n = BigInt(values.length);
  const q = sum / n, rem = sum % n;
  const mean = (Number(q) + Number(rem) / values.length) / STEPS;
  let v = 0;
  for (const x of values) v += (x - mean) ** 2;
  return { mean, sd: Math.sqrt(v / values.length) };
}
