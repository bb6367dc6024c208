/* rmsnorm.c — RMSNorm over each row (method and accuracy: posnorm.h; the
 * row loop, shared with LayerNorm: norm_rows.c). */
#include <math.h>

#include "pn_internal.h"

int pn_rmsnorm_f32(float *y, float *inv_rms, const float *x,
                   const float *gamma, int32_t rows, int32_t cols, float eps) {
  if (!x || !y) return PN_ERR_NULL;
  if (!pn_count2(rows, cols)) return PN_ERR_SIZE;
  if (!(eps >= 0.0f) || !isfinite(eps)) return PN_ERR_ARG;
  pn_norm_rows_f32(y, NULL, inv_rms, x, gamma, NULL, rows, cols, eps, 0);
  return PN_OK;
}
