/* layernorm.c — LayerNorm over each row (method and accuracy: posnorm.h). */
#include <math.h>

#include "pn_f64.h"
#include "pn_internal.h"
#include "pn_simd.h"
#include "pn_sums.h"

/* y = ((x - hi) - c)·inv·gamma + beta over n values; every step in
 * float32. HAS_GAMMA/HAS_BETA are compile-time constants in each
 * instantiation, so the loop carries no branches. */
#define LAYERNORM_VEC(J, CENTER, HAS_GAMMA, HAS_BETA)                         \
  do {                                                                         \
    pn_f32x4 t = pn_f32x4_load(x + (J));                                       \
    if (CENTER) t = pn_f32x4_sub(pn_f32x4_sub(t, vhi), vc);                    \
    t = pn_f32x4_mul(t, vinv);                                                 \
    if (HAS_GAMMA) t = pn_f32x4_mul(t, pn_f32x4_load(gamma + (J)));            \
    if (HAS_BETA) t = pn_f32x4_add(t, pn_f32x4_load(beta + (J)));              \
    pn_f32x4_store(y + (J), t);                                                \
  } while (0)
#define LAYERNORM_SPAN(NAME, CENTER, HAS_GAMMA, HAS_BETA)                     \
  static void NAME(float *y, const float *x, const float *gamma,               \
                   const float *beta, int32_t n, float hi, float c,            \
                   float inv) {                                                \
    (void)gamma;                                                               \
    (void)beta;                                                                \
    const pn_f32x4 vhi = pn_f32x4_splat(hi), vc = pn_f32x4_splat(c);           \
    const pn_f32x4 vinv = pn_f32x4_splat(inv);                                 \
    int32_t j = 0;                                                             \
    PN_LOOP_AS_WRITTEN                                                         \
    for (; j + 4 <= n; j += 4) LAYERNORM_VEC(j, CENTER, HAS_GAMMA, HAS_BETA);  \
    PN_LOOP_AS_WRITTEN                                                         \
    for (; j < n; j++) {                                                       \
      float t = CENTER ? ((x[j] - hi) - c) * inv : x[j] * inv;                 \
      if (HAS_GAMMA) t = t * gamma[j];                                         \
      if (HAS_BETA) t = t + beta[j];                                           \
      y[j] = t;                                                                \
    }                                                                          \
  }
LAYERNORM_SPAN(span_plain, 1, 0, 0)
LAYERNORM_SPAN(span_gamma, 1, 1, 0)
LAYERNORM_SPAN(span_beta, 1, 0, 1)
LAYERNORM_SPAN(span_affine, 1, 1, 1)
LAYERNORM_SPAN(span_scale, 0, 0, 0)
LAYERNORM_SPAN(span_scale_gamma, 0, 1, 0)

pn_norm_span_fn pn_norm_span(int center, int has_gamma, int has_beta) {
  if (!center) return has_gamma ? span_scale_gamma : span_scale;
  return has_gamma ? (has_beta ? span_affine : span_gamma)
                   : (has_beta ? span_beta : span_plain);
}

void pn_norm_row_and_sums(pn_norm_span_fn span, float *y, const float *x,
                          const float *gamma, const float *beta, int32_t n,
                          float hi, float c, float inv, const float *next,
                          float shift, double *sd, double *sq) {
  pn_sums acc = pn_sums_zero();
  int32_t j = 0;
  for (; j + 256 <= n; j += 256) { /* 1 KiB of the next row, 1 KiB of this */
    pn_sums_add(&acc, next + j, 256, shift);
    span(y + j, x + j, gamma ? gamma + j : NULL, beta ? beta + j : NULL, 256,
         hi, c, inv);
  }
  const int32_t n4 = n & ~3;
  pn_sums_add(&acc, next + j, n4 - j, shift);
  pn_sums_finish(&acc, next, n4, n, shift, sd, sq);
  if (j < n)
    span(y + j, x + j, gamma ? gamma + j : NULL, beta ? beta + j : NULL,
         n - j, hi, c, inv);
}

/* The whole row in float64, for rows whose float32 sums overflowed or
 * underflowed (|x| or deviations beyond about 1.8e19, or below about 1e-15):
 * float64 holds squares of every float32 and their sums, so the result is
 * the float64 one rounded once. NaN and ±Inf propagate as in the fast path. */
static void layernorm_row_f64(float *y, float *mean, float *inv_std_dev,
                              const float *x, const float *gamma,
                              const float *beta, int32_t n, float eps) {
  double m = 0.0;
  for (int32_t j = 0; j < n; j++) m += (double)x[j];
  m /= (double)n;
  double sd = 0.0, sq = 0.0;
  PN_LOOP_AS_WRITTEN
  for (int32_t j = 0; j < n; j++) {
    const double d = (double)x[j] - m;
    sd += d;
    sq += d * d;
  }
  const double c = sd / (double)n;
  double var = sq / (double)n - c * c;
  if (var < 0.0) var = 0.0;
  const double inv = 1.0 / sqrt(var + (double)eps);
  m += c;
  if (mean) *mean = (float)m;
  if (inv_std_dev) *inv_std_dev = (float)inv;
  PN_LOOP_AS_WRITTEN
  for (int32_t j = 0; j < n; j++) {
    double t = ((double)x[j] - m) * inv;
    if (gamma) t *= (double)gamma[j];
    if (beta) t += (double)beta[j];
    y[j] = (float)t;
  }
}

int pn_layernorm_f32(float *y, float *mean, float *inv_std_dev, const float *x,
                     const float *gamma, const float *beta, int32_t rows,
                     int32_t cols, float eps) {
  if (!x || !y) return PN_ERR_NULL;
  if (!pn_count2(rows, cols)) return PN_ERR_SIZE;
  if (!(eps >= 0.0f) || !isfinite(eps)) return PN_ERR_ARG;
  /* Row r's sums about its provisional shift were taken while row r-1 was
   * written (row 0's here); pn_moments_finish adds a second pass only for
   * rows whose first values sit far from their mean. The last row's "next"
   * is itself: it is summed once more, unused, rather than carry a variant. */
  const pn_norm_span_fn span = pn_norm_span(1, gamma != NULL, beta != NULL);
  float shift = pn_provisional_shift(x, cols);
  double sd, sq;
  pn_shifted_sums_f32(x, cols, shift, &sd, &sq);
  for (int32_t r = 0; r < rows; r++) {
    const float *xr = x + (size_t)r * (size_t)cols;
    float *yr = y + (size_t)r * (size_t)cols;
    const float *next = r + 1 < rows ? xr + cols : xr;
    const float next_shift = pn_provisional_shift(next, cols);
    double mu, var;
    if (!pn_moments_finish(xr, cols, shift, sd, sq, &mu, &var)) {
      layernorm_row_f64(yr, mean ? mean + r : NULL,
                        inv_std_dev ? inv_std_dev + r : NULL, xr, gamma, beta,
                        cols, eps);
      pn_shifted_sums_f32(next, cols, next_shift, &sd, &sq);
    } else {
      /* y = ((x - hi) - c)·inv, hi + c being the mean */
      const float hi = (float)mu;
      const double c = mu - (double)hi;
      const double inv = 1.0 / sqrt(var + (double)eps);
      if (mean) mean[r] = hi;
      if (inv_std_dev) inv_std_dev[r] = (float)inv;
      pn_norm_row_and_sums(span, yr, xr, gamma, beta, cols, hi, (float)c,
                           (float)inv, next, next_shift, &sd, &sq);
    }
    shift = next_shift;
  }
  return PN_OK;
}

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
