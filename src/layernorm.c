/* layernorm.c — LayerNorm over each row (method and accuracy: posnorm.h;
 * the row loop: norm_rows.c). */
#include <math.h>

#include "pn_internal.h"

int pn_layernorm_f32(float *y, float *mean, float *inv_std_dev, const float *x,
                     const float *gamma, const float *beta, int32_t rows,
                     int32_t cols, float eps) {
  if (!x || !y) return PN_ERR_NULL;
  if (!pn_count2(rows, cols)) return PN_ERR_SIZE;
  if (!(eps >= 0.0f) || !isfinite(eps)) return PN_ERR_ARG;
  pn_norm_rows_f32(y, mean, inv_std_dev, x, gamma, beta, rows, cols, eps, 1);
  return PN_OK;
}
