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
  for (int32_t j = 0; j < n; j++) {
    double t = (double)x[j] * inv;
    if (gamma) t *= (double)gamma[j];
    y[j] = (float)t;
  }
}

int pn_rmsnorm_f32(float *y, float *inv_rms, const float *x,
                   const float *gamma, int32_t rows, int32_t cols, float eps) {
  if (!x || !y) return PN_ERR_NULL;
  if (pn_count2(rows, cols) < 0) return PN_ERR_SIZE;
  if (!(eps >= 0.0f) || !isfinite(eps)) return PN_ERR_ARG;
  for (int32_t r = 0; r < rows; r++) {
    const float *xr = x + (size_t)r * (size_t)cols;
    float *yr = y + (size_t)r * (size_t)cols;
    double sum, sumsq;
    pn_shifted_sums_f32(xr, cols, 0.0f, &sum, &sumsq);
    if (!pn_sums_trustworthy(0.0, sum, sumsq, cols)) {
      rmsnorm_row_f64(yr, inv_rms ? inv_rms + r : NULL, xr, gamma, cols, eps);
      continue;
    }
    const double inv = 1.0 / sqrt(sumsq / (double)cols + (double)eps);
    if (inv_rms) inv_rms[r] = (float)inv;
    const float invf = (float)inv;
    const pn_f32x4 vinv = pn_f32x4_splat(invf);
    int32_t j = 0;
    for (; j + 4 <= cols; j += 4) {
      pn_f32x4 t = pn_f32x4_mul(pn_f32x4_load(xr + j), vinv);
      if (gamma) t = pn_f32x4_mul(t, pn_f32x4_load(gamma + j));
      pn_f32x4_store(yr + j, t);
    }
    for (; j < cols; j++) {
      float t = xr[j] * invf;
      if (gamma) t = t * gamma[j];
      yr[j] = t;
    }
  }
  return PN_OK;
}
