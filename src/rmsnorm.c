/* rmsnorm.c — RMSNorm over each row (see posnorm.h). */
#include <math.h>

#include "pn_internal.h"
#include "pn_simd.h"

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
