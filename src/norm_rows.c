/* norm_rows.c — the row loop LayerNorm and RMSNorm share (method and
 * accuracy: posnorm.h): each row's statistics from float32 block sums taken
 * while the previous row was written, the check that those sums can be
 * trusted, the float32 output pass, and the float64 row for the rows that
 * fail the check. layernorm.c and rmsnorm.c validate and call it. */
#include <math.h>

#include "pn_f64.h"
#include "pn_internal.h"
#include "pn_simd.h"
#include "pn_sums.h"

/* ======================================================================
 * The output pass: spans of a row, written in float32
 * ====================================================================== */

/* y = ((x - hi) - c)·inv·gamma + beta over n values (CENTER: LayerNorm) or
 * y = x·inv·gamma (RMSNorm); every step in float32. CENTER, HAS_GAMMA and
 * HAS_BETA are compile-time constants in each instantiation, so the loop
 * carries no branches. */
#define NORM_VEC(J, CENTER, HAS_GAMMA, HAS_BETA)                               \
  do {                                                                         \
    pn_f32x4 t = pn_f32x4_load(x + (J));                                       \
    if (CENTER) t = pn_f32x4_sub(pn_f32x4_sub(t, vhi), vc);                    \
    t = pn_f32x4_mul(t, vinv);                                                 \
    if (HAS_GAMMA) t = pn_f32x4_mul(t, pn_f32x4_load(gamma + (J)));            \
    if (HAS_BETA) t = pn_f32x4_add(t, pn_f32x4_load(beta + (J)));              \
    pn_f32x4_store(y + (J), t);                                                \
  } while (0)
#define NORM_SPAN(NAME, CENTER, HAS_GAMMA, HAS_BETA)                           \
  static void NAME(float *y, const float *x, const float *gamma,               \
                   const float *beta, int32_t n, float hi, float c,            \
                   float inv) {                                                \
    (void)gamma;                                                               \
    (void)beta;                                                                \
    const pn_f32x4 vhi = pn_f32x4_splat(hi), vc = pn_f32x4_splat(c);           \
    const pn_f32x4 vinv = pn_f32x4_splat(inv);                                 \
    int32_t j = 0;                                                             \
    PN_LOOP_AS_WRITTEN                                                         \
    for (; j + 4 <= n; j += 4) NORM_VEC(j, CENTER, HAS_GAMMA, HAS_BETA);       \
    PN_LOOP_AS_WRITTEN                                                         \
    for (; j < n; j++) {                                                       \
      float t = CENTER ? ((x[j] - hi) - c) * inv : x[j] * inv;                 \
      if (HAS_GAMMA) t = t * gamma[j];                                         \
      if (HAS_BETA) t = t + beta[j];                                           \
      y[j] = t;                                                                \
    }                                                                          \
  }
NORM_SPAN(span_plain, 1, 0, 0)
NORM_SPAN(span_gamma, 1, 1, 0)
NORM_SPAN(span_beta, 1, 0, 1)
NORM_SPAN(span_affine, 1, 1, 1)
NORM_SPAN(span_scale, 0, 0, 0)
NORM_SPAN(span_scale_gamma, 0, 1, 0)

typedef void (*span_fn)(float *y, const float *x, const float *gamma,
                        const float *beta, int32_t n, float hi, float c,
                        float inv);

static span_fn pick_span(int center, int has_gamma, int has_beta) {
  if (!center) return has_gamma ? span_scale_gamma : span_scale;
  return has_gamma ? (has_beta ? span_affine : span_gamma)
                   : (has_beta ? span_beta : span_plain);
}

/* Writes one row with `span` in chunks of 256 values while it sums the row
 * `next` about `shift` (pn_sums.h, the same bits as pn_shifted_sums_f32):
 * the read of row r+1 and the write of row r stream together, which brings
 * a large tensor close to the time of a copy. */
static void row_and_sums(span_fn span, float *y, const float *x,
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

/* ======================================================================
 * The statistics of a row
 * ====================================================================== */

/* The shift a row's float32 sums are taken about: LayerNorm's provisional
 * mean; RMSNorm sums the squares themselves, about 0. */
static float row_shift(int center, const float *x, int32_t n) {
  return center ? pn_provisional_shift(x, n) : 0.0f;
}

/* The row's mean (0 for RMSNorm) and its mean square about it, from the
 * sums (sd, sq) about `shift`; 0 when the float32 sums cannot be trusted
 * (pn_sums_trustworthy), and the row must be redone in float64. */
static int row_moments(int center, const float *x, int32_t n, float shift,
                       double sd, double sq, double *mean, double *var) {
  if (center) return pn_moments_finish(x, n, shift, sd, sq, mean, var);
  if (!pn_sums_trustworthy(0.0, sd, sq, n)) return 0;
  *mean = 0.0;
  *var = sq / (double)n;
  return 1;
}

/* The whole row in float64, for rows whose float32 sums overflowed or
 * underflowed (|x| or deviations beyond about 1.8e19, or below about
 * 1e-15): float64 holds squares of every float32 and their sums, so the
 * result is the float64 one rounded once. NaN and ±Inf propagate as in the
 * fast path. LayerNorm adds back the part of the mean its rounding left
 * out, as pn_moments_finish does. */
static void row_f64(float *y, float *mean, float *inv_out, const float *x,
                    const float *gamma, const float *beta, int32_t n,
                    float eps, int center) {
  double m, var, c;
  pn_mean_var_f64(pn_values_f32(x, (size_t)n), center, &m, &var, &c);
  if (center) {
    var -= c * c;
    if (var < 0.0) var = 0.0;
  }
  const double inv = 1.0 / sqrt(var + (double)eps);
  if (center) m += c;
  if (mean) *mean = (float)m;
  if (inv_out) *inv_out = (float)inv;
  PN_LOOP_AS_WRITTEN
  for (int32_t j = 0; j < n; j++) {
    double t = ((double)x[j] - m) * inv;
    if (gamma) t *= (double)gamma[j];
    if (beta) t += (double)beta[j];
    y[j] = (float)t;
  }
}

/* ======================================================================
 * The row loop
 * ====================================================================== */

/* Row r's sums about its shift were taken while row r-1 was written (row
 * 0's here). The last row's "next" is itself: it is summed once more,
 * unused, rather than carry a variant of the loop. */
void pn_norm_rows_f32(float *y, float *mean, float *inv_out, const float *x,
                      const float *gamma, const float *beta, int32_t rows,
                      int32_t cols, float eps, int center) {
  const span_fn span = pick_span(center, gamma != NULL, beta != NULL);
  float shift = row_shift(center, x, cols);
  double sd, sq;
  pn_shifted_sums_f32(x, cols, shift, &sd, &sq);
  for (int32_t r = 0; r < rows; r++) {
    const float *xr = x + (size_t)r * (size_t)cols;
    float *yr = y + (size_t)r * (size_t)cols;
    const float *next = r + 1 < rows ? xr + cols : xr;
    const float next_shift = row_shift(center, next, cols);
    double mu, var;
    if (!row_moments(center, xr, cols, shift, sd, sq, &mu, &var)) {
      row_f64(yr, mean ? mean + r : NULL, inv_out ? inv_out + r : NULL, xr,
              gamma, beta, cols, eps, center);
      pn_shifted_sums_f32(next, cols, next_shift, &sd, &sq);
    } else {
      /* y = ((x - hi) - c)·inv, hi + c being the mean (0 for RMSNorm) */
      const float hi = (float)mu;
      const double c = mu - (double)hi;
      const double inv = 1.0 / sqrt(var + (double)eps);
      if (mean) mean[r] = hi;
      if (inv_out) inv_out[r] = (float)inv;
      row_and_sums(span, yr, xr, gamma, beta, cols, hi, (float)c, (float)inv,
                   next, next_shift, &sd, &sq);
    }
    shift = next_shift;
  }
}
