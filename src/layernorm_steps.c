/* layernorm_steps.c — LayerNorm of one vector with every step kept, for the
 * figure that shows them (see posnorm_figures.h). */
#include "pn_f64.h"
#include "pn_internal.h"
#include "pn_simd.h"
#include "posnorm_figures.h"

int pn_layernorm_steps_f32(float *centered, float *normalized, float *y,
                           float *stats, const float *x, const float *gamma,
                           const float *beta, int32_t n, float eps) {
  if (!x) return PN_ERR_NULL;
  if (!pn_count2(n, 1)) return PN_ERR_SIZE;
  if (!(eps >= 0.0f) || !isfinite(eps)) return PN_ERR_ARG;
  double mu, var;
  pn_mean_var_f64(pn_values_f32(x, (size_t)n), 1, &mu, &var, NULL);
  const double inv = 1.0 / sqrt(var + (double)eps);
  PN_LOOP_AS_WRITTEN
  for (int32_t j = 0; j < n; j++) {
    const double c = (double)x[j] - mu, xh = c * inv;
    if (centered) centered[j] = (float)c;
    if (normalized) normalized[j] = (float)xh;
    if (y) y[j] = (float)((gamma ? (double)gamma[j] : 1.0) * xh + (beta ? (double)beta[j] : 0.0));
  }
  if (stats) {
    stats[0] = (float)mu;
    stats[1] = (float)var;
  }
  return PN_OK;
}
