/* rmsnorm.c — RMSNorm over each row (see posnorm.h). */
#include <math.h>

#include "pn_internal.h"
#include "pn_simd.h"

/* The whole row in float64, for rows whose float32 sums overflowed or
 * underflowed (see pn_sums_trustworthy). */
static void rmsnorm_row_f64(float *y, float *inv_rms, const float *x,
                            const float *gamma, int32_t n, float eps) {
  double sq = 0.0;
  for (int32_t j = 0; j < n; j++) sq += (double)x[j] * (double)x[j];
  const double inv = 1.0 / sqrt(sq / (double)n + (double)eps);
  if (inv_rms) *inv_rms = (float)inv;
  PN_LOOP_AS_WRITTEN
  for (int32_t j = 0; j < n; j++) {
    double t = (double)x[j] * inv;
    if (gamma) t *= (double)gamma[j];
    y[j] = (float)t;
  }
}

int pn_rmsnorm_f32(float *y, float *inv_rms, const float *x,
                   const float *gamma, int32_t rows, int32_t cols, float eps) {
  if (!x || !y) return PN_ERR_NULL;
  if (!pn_count2(rows, cols)) return PN_ERR_SIZE;
  if (!(eps >= 0.0f) || !isfinite(eps)) return PN_ERR_ARG;
  /* row r's sum of squares was taken while row r-1 was written (the last
   * row's "next" is itself, summed once more, unused) */
  const pn_norm_span_fn span = pn_norm_span(0, gamma != NULL, 0);
  double sum, sumsq;
  pn_shifted_sums_f32(x, cols, 0.0f, &sum, &sumsq);
  for (int32_t r = 0; r < rows; r++) {
    const float *xr = x + (size_t)r * (size_t)cols;
    float *yr = y + (size_t)r * (size_t)cols;
    const float *next = r + 1 < rows ? xr + cols : xr;
    if (!pn_sums_trustworthy(0.0, sum, sumsq, cols)) {
      rmsnorm_row_f64(yr, inv_rms ? inv_rms + r : NULL, xr, gamma, cols, eps);
      pn_shifted_sums_f32(next, cols, 0.0f, &sum, &sumsq);
      continue;
    }
    const double inv = 1.0 / sqrt(sumsq / (double)cols + (double)eps);
    if (inv_rms) inv_rms[r] = (float)inv;
    pn_norm_row_and_sums(span, yr, xr, gamma, NULL, cols, 0.0f, 0.0f,
                         (float)inv, next, 0.0f, &sum, &sumsq);
  }
  return PN_OK;
}
