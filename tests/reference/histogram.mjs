// Equal-width histogram as posnorm.h defines it (pn_histogram_f32): bins over [min, max), x = max in the last.

/** Bin k covers [min + k·w, min + (k+1)·w), w = (max − min)/bins, x = max in the last bin; below/above/nan apart. */
export function histogram(x, { bins, min, max }) {
  const counts = new Array(bins).fill(0);
  let below = 0, above = 0, nan = 0;
  for (const t of x) {
    if (Number.isNaN(t)) nan++;
    else if (t < min) below++;
    else if (t > max) above++;
    else counts[Math.min(bins - 1, Math.floor(((t - min) / (max - min)) * bins))]++;
  }
  return { counts, below, above, nan };
}
