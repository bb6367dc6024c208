// Matrix product in float64 (the linear layers x·W of Vaswani et al., "Attention Is All You Need", 2017, §3).

/** y = x·w in float64; x [rows × n], w [n × m], both row-major. */
export function matmul(x, w, rows, n, m) {
  const y = new Float64Array(rows * m);
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < m; c++) {
      let s = 0;
      for (let k = 0; k < n; k++) s += x[r * n + k] * w[k * m + c];
      y[r * m + c] = s;
    }
  }
  return y;
}
