// row-dots.js — the dot products of the figures' RoPE scores (long-context,
// compare): every row of a row-major matrix against one vector.

/**
 * out[j] = Σ_c rows[j·dim + c]·v[c] for j < n, in float64. A function of its
 * own, with only typed arrays and numbers for arguments, so that V8 keeps
 * its optimised code when the code around it is deoptimised. It was made
 * for that: a new d_model took long-context's `_scores` down branches it
 * had no type feedback for, and with the loop inside it, the first d_model
 * drag ran the loop unoptimised for a few inputs (a heap number per
 * product: 13.8 MB of garbage in 32 inputs, and a 10 ms garbage collection
 * mid-drag). On 2026-12-05 the loop put back inside `_scores` no longer
 * did so (tests/figure_alloc.test.mjs); it stays a function, shared with
 * compare.
 */
export function rowDots(rows, v, n, dim) {
  const out = new Float64Array(n);
  for (let j = 0; j < n; j++) {
    let s = 0;
    for (let c = 0; c < dim; c++) s += rows[j * dim + c] * v[c];
    out[j] = s;
  }
  return out;
}
