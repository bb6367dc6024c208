/* layernorm.c — LayerNorm over each row, exact to float32 (see posnorm.h). */
#include <math.h>

#include "pn_internal.h"
#include "pn_simd.h"

/* y = ((x - hi) - c)·inv·gamma + beta for one row; every step in float32.
 * HAS_GAMMA/HAS_BETA are compile-time constants in each instantiation, so
 * the hot loop carries no branches. */
#define LAYERNORM_ROW_OUT(NAME, HAS_GAMMA, HAS_BETA)                           \
  static void NAME(float *y, const float *x, const float *gamma,               \
                   const float *beta, int32_t n, float hi, float c,            \
                   float inv) {                                                \
    (void)gamma;                                                               \
    (void)beta;                                                                \
    const pn_f32x4 vhi = pn_f32x4_splat(hi), vc = pn_f32x4_splat(c);           \
    const pn_f32x4 vinv = pn_f32x4_splat(inv);                                 \
    int32_t j = 0;                                                             \
    for (; j + 4 <= n; j += 4) {                                               \
      pn_f32x4 t = pn_f32x4_mul(                                               \
          pn_f32x4_sub(pn_f32x4_sub(pn_f32x4_load(x + j), vhi), vc), vinv);    \
      if (HAS_GAMMA) t = pn_f32x4_mul(t, pn_f32x4_load(gamma + j));            \
      if (HAS_BETA) t = pn_f32x4_add(t, pn_f32x4_load(beta + j));              \
      pn_f32x4_store(y + j, t);                                                \
    }                                                                          \
    for (; j < n; j++) {                                                       \
      float t = ((x[j] - hi) - c) * inv;                                       \
      if (HAS_GAMMA) t = t * gamma[j];                                         \
      if (HAS_BETA) t = t + beta[j];                                           \
      y[j] = t;                                                                \
    }                                                                          \
  }
LAYERNORM_ROW_OUT(row_out_plain, 0, 0)
LAYERNORM_ROW_OUT(row_out_gamma, 1, 0)
LAYERNORM_ROW_OUT(row_out_beta, 0, 1)
LAYERNORM_ROW_OUT(row_out_affine, 1, 1)

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
  if (pn_count2(rows, cols) < 0) return PN_ERR_SIZE;
  if (!(eps >= 0.0f) || !isfinite(eps)) return PN_ERR_ARG;
  const double n = (double)cols;
  for (int32_t r = 0; r < rows; r++) {
    const float *xr = x + (size_t)r * (size_t)cols;
    /* pass 1: the mean in float64; its float32 rounding is the shift */
    const double mu1 = pn_sum_f32(xr, cols) / n;
    const float hi = (float)mu1;
    /* pass 2: sums about the shift correct the mean and give the variance */
    double sd, sq;
    pn_shifted_sums_f32(xr, cols, hi, &sd, &sq);
    if (!pn_sums_trustworthy(mu1, sd, sq, cols)) {
      layernorm_row_f64(y + (size_t)r * (size_t)cols, mean ? mean + r : NULL,
                        inv_std_dev ? inv_std_dev + r : NULL, xr, gamma, beta,
                        cols, eps);
      continue;
    }
    const double c = sd / n;
    double var = sq / n - c * c;
    if (var < 0.0) var = 0.0;
    const double inv = 1.0 / sqrt(var + (double)eps);
    if (mean) mean[r] = (float)((double)hi + c);
    if (inv_std_dev) inv_std_dev[r] = (float)inv;
    /* pass 3 */
    float *yr = y + (size_t)r * (size_t)cols;
    const float fc = (float)c, finv = (float)inv;
    if (gamma && beta) row_out_affine(yr, xr, gamma, beta, cols, hi, fc, finv);
    else if (gamma) row_out_gamma(yr, xr, gamma, beta, cols, hi, fc, finv);
    else if (beta) row_out_beta(yr, xr, gamma, beta, cols, hi, fc, finv);
    else row_out_plain(yr, xr, gamma, beta, cols, hi, fc, finv);
  }
  return PN_OK;
}

int pn_layernorm_steps_f32(float *centered, float *normalized, float *y,
                           float *stats, const float *x, const float *gamma,
                           const float *beta, int32_t n, float eps) {
  if (!x) return PN_ERR_NULL;
  if (n < 1 || n > PN_MAX_ELEMENTS) return PN_ERR_SIZE;
  if (!(eps >= 0.0f) || !isfinite(eps)) return PN_ERR_ARG;
  double mu = 0.0, var = 0.0;
  for (int32_t j = 0; j < n; j++) mu += (double)x[j];
  mu /= (double)n;
  for (int32_t j = 0; j < n; j++) var += ((double)x[j] - mu) * ((double)x[j] - mu);
  var /= (double)n;
  const double inv = 1.0 / sqrt(var + (double)eps);
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
