// Equal-width histogram as posnorm_figures.h defines it (pn_histogram_f32): bins over [min, max), x = max in the last.

/**
 * Bin k covers [e_k, e_(k+1)), e_k = min + k·w and w = (max − min)/bins in
 * float64 (JS numbers); x = max in the last bin; below/above/nan apart. Each
 * value's bin is found by a binary search over the edges themselves.
 */
export function histogram(x, { bins, min, max }) {
  const counts = new Array(bins).fill(0);
  const w = (max - min) / bins;
  let below = 0, above = 0, nan = 0;
  for (const t of x) {
    if (Number.isNaN(t)) nan++;
    else if (t < min) below++;
    else if (t > max) above++;
    else {
      // the last k in [0, bins − 1] whose edge min + k·w is at most t
      let lo = 0, hi = bins - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (min + mid * w <= t) lo = mid;
        else hi = mid - 1;
      }
      counts[lo]++;
    }
  }
  return { counts, below, above, nan };
}
