/* batchnorm.c — BatchNorm over the batch (row) axis, per column.
 * Statistics are taken column by column in float64, COLS_PER_PASS columns at
 * a time so the accumulators live on the stack and rows are read in order.
 * Σx is compensated (Neumaier: a float64 sum and the sum of its rounding
 * errors), so values that cancel leave the small ones' part intact. The
 * mean is m + lo: m = Σx/n rounded to float64, lo the part m's rounding
 * left out, (Σx - m·n)/n with m·n taken exactly (rest_of_mean). Without lo
 * a column of tens of millions of near-equal values (16777214 with one
 * 16777215 in 63161283 rows: σ 1.3e-4 against m's half-ulp 9.3e-10) was
 * off by 7.4e-6 in every y, past the bound of 5e-6. lo was Σ(x - m)/n until
 * 2026-12-06: each x - m is rounded, so a column whose large values cancel
 * got a wrong rest ([1e17, -1e17, 1, 0]: mean 0.375, not 0.25). */
#include <math.h>

#include "pn_internal.h"

#define COLS_PER_PASS 64

/* y[:, c] = gamma[c]·((x[:, c] - m[c]) - lo[c])·inv[c] + beta[c], for c in
 * [c0, c0+cn): m + lo the mean (lo 0 at inference) */
static void batchnorm_apply(float *y, const float *x, const float *gamma,
                            const float *beta, const double *m,
                            const double *lo, const double *inv, int32_t rows,
                            int32_t cols, int32_t c0, int32_t cn) {
  for (int32_t r = 0; r < rows; r++) {
    const size_t row = (size_t)r * (size_t)cols + (size_t)c0;
    for (int32_t k = 0; k < cn; k++) {
      /* in float64, so a large mean does not cancel in float32 */
      const double g = gamma ? (double)gamma[c0 + k] : 1.0;
      const double b = beta ? (double)beta[c0 + k] : 0.0;
      y[row + k] =
          (float)(g * ((((double)x[row + k] - m[k]) - lo[k]) * inv[k]) + b);
    }
  }
}

/* (s + c - m·rows)/rows: the part of the mean m's rounding left out, from
 * the compensated sum s + c. m·rows is taken as four exact products (m in
 * halves of 26 and 27 bits, Veltkamp's split; rows < 2^31 in halves of 15
 * and 16), subtracted from s largest first. */
static double rest_of_mean(double s, double c, double m, int32_t rows) {
  const double t = m * 134217729.0; /* 2^27 + 1 */
  const double mh = t - (t - m), ml = m - mh;
  const double nh = (double)(rows & ~0xffff), nl = (double)(rows & 0xffff);
  double r = s - mh * nh;
  r -= mh * nl;
  r -= ml * nh;
  r -= ml * nl;
  return (r + c) / (double)rows;
}

int pn_batchnorm_train_f32(float *y, float *batch_mean, float *batch_var,
                           float *running_mean, float *running_var,
                           const float *x, const float *gamma,
                           const float *beta, int32_t rows, int32_t cols,
                           float eps, float momentum) {
  if (!x || !y) return PN_ERR_NULL;
  if ((running_mean == NULL) != (running_var == NULL)) return PN_ERR_NULL;
  if (!pn_count2(rows, cols)) return PN_ERR_SIZE;
  if (!(eps >= 0.0f) || !isfinite(eps) || !(momentum >= 0.0f && momentum <= 1.0f))
    return PN_ERR_ARG;
  /* m holds Σx and lo its compensation until they become the mean's parts */
  double m[COLS_PER_PASS], lo[COLS_PER_PASS], v[COLS_PER_PASS],
      inv[COLS_PER_PASS];
  for (int32_t c0 = 0; c0 < cols; c0 += COLS_PER_PASS) {
    const int32_t cn = cols - c0 < COLS_PER_PASS ? cols - c0 : COLS_PER_PASS;
    for (int32_t k = 0; k < cn; k++) m[k] = lo[k] = v[k] = 0.0;
    for (int32_t r = 0; r < rows; r++) {
      const float *xr = x + (size_t)r * (size_t)cols + c0;
      for (int32_t k = 0; k < cn; k++) {
        const double t = (double)xr[k], sum = m[k] + t;
        lo[k] += fabs(m[k]) >= fabs(t) ? (m[k] - sum) + t : (t - sum) + m[k];
        m[k] = sum;
      }
    }
    for (int32_t k = 0; k < cn; k++) {
      const double s = m[k], c = lo[k];
      /* with ±Inf or NaN in the column the sum is not finite: the mean is
       * Σx/n (as the float64 formula), x - m gives NaN, and y as before */
      if (!isfinite(s) || !isfinite(c)) {
        m[k] = s / (double)rows;
        lo[k] = 0.0;
      } else {
        m[k] = (s + c) / (double)rows;
        lo[k] = rest_of_mean(s, c, m[k], rows);
      }
    }
    for (int32_t r = 0; r < rows; r++) {
      const float *xr = x + (size_t)r * (size_t)cols + c0;
      for (int32_t k = 0; k < cn; k++) {
        const double d = (double)xr[k] - m[k];
        v[k] += d * d;
      }
    }
    for (int32_t k = 0; k < cn; k++) {
      /* Σ(x - m)²/n about m, less the square of the mean's rest lo (about
       * the mean itself); NaN and Inf propagate as they did */
      v[k] = v[k] / (double)rows - lo[k] * lo[k];
      if (v[k] < 0.0) v[k] = 0.0;
      inv[k] = 1.0 / sqrt(v[k] + (double)eps);
      const int32_t c = c0 + k;
      const double mean = m[k] + lo[k];
      if (batch_mean) batch_mean[c] = (float)mean;
      if (batch_var) batch_var[c] = (float)v[k];
      if (running_mean) {
        running_mean[c] = (float)((double)momentum * (double)running_mean[c] +
                                  (1.0 - (double)momentum) * mean);
        running_var[c] = (float)((double)momentum * (double)running_var[c] +
                                 (1.0 - (double)momentum) * v[k]);
      }
    }
    batchnorm_apply(y, x, gamma, beta, m, lo, inv, rows, cols, c0, cn);
  }
  return PN_OK;
}

int pn_batchnorm_infer_f32(float *y, const float *x, const float *gamma,
                           const float *beta, const float *running_mean,
                           const float *running_var, int32_t rows,
                           int32_t cols, float eps) {
  if (!x || !y || !running_mean || !running_var) return PN_ERR_NULL;
  if (!pn_count2(rows, cols)) return PN_ERR_SIZE;
  if (!(eps >= 0.0f) || !isfinite(eps)) return PN_ERR_ARG;
  double m[COLS_PER_PASS], lo[COLS_PER_PASS], inv[COLS_PER_PASS];
  for (int32_t c0 = 0; c0 < cols; c0 += COLS_PER_PASS) {
    const int32_t cn = cols - c0 < COLS_PER_PASS ? cols - c0 : COLS_PER_PASS;
    for (int32_t k = 0; k < cn; k++) {
      m[k] = (double)running_mean[c0 + k];
      lo[k] = 0.0;
      inv[k] = 1.0 / sqrt((double)running_var[c0 + k] + (double)eps);
    }
    batchnorm_apply(y, x, gamma, beta, m, lo, inv, rows, cols, c0, cn);
  }
  return PN_OK;
}
