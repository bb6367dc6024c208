/* histogram.c — equal-width histogram for the figures (see posnorm_figures.h). */
#include <string.h>

#include "pn_internal.h"
#include "posnorm_figures.h"

int pn_histogram_f32(uint32_t *counts, uint32_t *extra, const float *x,
                     int32_t n, int32_t bins, float min, float max) {
  if (!counts || !extra || !x) return PN_ERR_NULL;
  if ((n != 0 && !pn_count2(n, 1)) || bins < 1 || bins > 65536) return PN_ERR_SIZE;
  if (!isfinite(min) || !isfinite(max) || !(min < max)) return PN_ERR_ARG;
  memset(counts, 0, sizeof(uint32_t) * (size_t)bins);
  uint32_t below = 0, above = 0, nan = 0;
  /* the edges are lo + k·w in float64; (v - lo)·scale estimates k, and
   * where it rounds across an edge (49 in [0, 147) by 3 gave 0.999…) the
   * edge itself decides, one bin either way */
  const double lo = (double)min, hi = (double)max;
  const double w = (hi - lo) / (double)bins, scale = (double)bins / (hi - lo);
  for (int32_t j = 0; j < n; j++) {
    const double v = (double)x[j];
    if (v != v) {
      nan++;
    } else if (v < lo) {
      below++;
    } else if (v > hi) {
      above++;
    } else {
      int32_t k = (int32_t)((v - lo) * scale);
      if (k >= bins) k = bins - 1; /* x == max, or rounding just below it */
      if (k > 0 && v < lo + (double)k * w)
        k--;
      else if (k < bins - 1 && v >= lo + (double)(k + 1) * w)
        k++;
      counts[k]++;
    }
  }
  extra[0] = below;
  extra[1] = above;
  extra[2] = nan;
  return PN_OK;
}
