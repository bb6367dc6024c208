/* pn_f64.c — float64 statistics, row norms, GELU, products and attention,
 * shared by the figure kernels and the float32 norms' float64 row
 * (pn_f64.h). */
#include "pn_f64.h"

#include <math.h>

#include "posnorm_figures.h"

/* ======================================================================
 * Statistics
 * ====================================================================== */

void pn_sums_about_f64(pn_values x, double shift, double *sum, double *sumsq) {
  double s = 0.0, q = 0.0;
  for (size_t k = 0; k < x.n; k++) {
    const double d = (x.f32 ? (double)x.f32[k] : x.f64[k]) - shift;
    s += d;
    q += d * d;
  }
  *sum = s;
  *sumsq = q;
}

/* Two passes rather than one (Σx and Σx² together): Σ(x - mean)² does not
 * cancel, whatever the mean is beside the spread. */
void pn_mean_var_f64(pn_values x, int center, double *mean, double *var,
                     double *residual) {
  const double n = (double)x.n;
  double m = 0.0, sum, sumsq;
  if (center) {
    pn_sums_about_f64(x, 0.0, &sum, &sumsq);
    m = sum / n;
  }
  pn_sums_about_f64(x, m, &sum, &sumsq);
  *mean = m;
  *var = sumsq / n;
  if (residual) *residual = sum / n;
}

double pn_population_std_f64(pn_values x) {
  double mean, var;
  pn_mean_var_f64(x, 1, &mean, &var, NULL);
  return sqrt(var);
}

/* ======================================================================
 * Rows: LayerNorm and RMSNorm, forward and backward
 * ====================================================================== */

void pn_norm_rows_f64(double *y, double *inv, const double *x, int32_t rows,
                      int32_t n, int rms, double eps) {
  for (int32_t r = 0; r < rows; r++) {
    const double *xr = x + (size_t)r * n;
    double m, var;
    pn_mean_var_f64(pn_values_f64(xr, (size_t)n), !rms, &m, &var, NULL);
    const double k = 1.0 / sqrt(var + eps);
    if (inv) inv[r] = k;
    for (int32_t j = 0; j < n; j++) y[(size_t)r * n + j] = (xr[j] - m) * k;
  }
}

/* With y = (x - m)·inv: dx = inv·(dy - mean(dy) - y·mean(dy·y)); RMSNorm
 * has no mean to subtract, so no mean(dy) term. */
void pn_norm_rows_back_f64(double *dx, const double *dy, const double *y,
                           const double *inv, int32_t rows, int32_t n,
                           int rms) {
  for (int32_t r = 0; r < rows; r++) {
    const double *dyr = dy + (size_t)r * n, *yr = y + (size_t)r * n;
    double mdy = 0.0, mdyy = 0.0;
    for (int32_t j = 0; j < n; j++) {
      mdy += dyr[j];
      mdyy += dyr[j] * yr[j];
    }
    mdy /= n;
    mdyy /= n;
    for (int32_t j = 0; j < n; j++)
      dx[(size_t)r * n + j] += inv[r] * (dyr[j] - (rms ? 0.0 : mdy) - yr[j] * mdyy);
  }
}

/* ======================================================================
 * GELU, tanh form
 * ====================================================================== */

#define PN_GELU_K 0.79788456080286536 /* sqrt(2/pi) */
#define PN_GELU_C 0.044715

/* tanh(sqrt(2/pi)·(z + 0.044715 z³)) as 1 - 2/(e^(2u) + 1), so that only
 * exp is linked in; GELU and its derivative take the same t. */
static double gelu_tanh_t(double z) {
  return 1.0 - 2.0 / (exp(2.0 * PN_GELU_K * (z + PN_GELU_C * z * z * z)) + 1.0);
}

double pn_gelu_tanh(double z) {
  const double t = gelu_tanh_t(z);
  return 0.5 * z * (1.0 + t);
}

double pn_gelu_tanh_grad(double z) {
  const double t = gelu_tanh_t(z);
  return 0.5 * (1.0 + t) + 0.5 * z * (1.0 - t * t) * PN_GELU_K * (1.0 + 3.0 * PN_GELU_C * z * z);
}

/* ======================================================================
 * GELU, erf form: z·Φ(z)
 * ====================================================================== */

#define PN_SQRT1_2 0.70710678118654752440    /* 1/sqrt(2) */
#define PN_2_SQRTPI 1.12837916709551257390   /* 2/sqrt(pi) */
#define PN_1_SQRT2PI 0.39894228040143267794  /* 1/sqrt(2 pi) */

/* e^(-a²/2) without rounding a²: a = hi + lo with hi of 24 bits, so hi² is
 * exact and only the small remainder's exponent carries rounding. */
static double exp_minus_half_square(double a) {
  const double hi = (double)(float)a, lo = a - hi;
  return exp(-0.5 * hi * hi) * exp(-(hi * lo + 0.5 * lo * lo));
}

/* P(Z > a) = erfc(x)/2, x = a/sqrt(2), for 0 <= a <= 40, given
 * e = e^(-a²/2) = e^(-x²):
 *   x < cut  erf(x) = 2/sqrt(pi)·e^(-x²)·Σ 2^n x^(2n+1)/(1·3·…·(2n+1))
 *            (A&S 7.1.6: positive terms, at most 33 below x = 2),
 *            P = (1 - erf(x))/2
 *   x >= cut erfc(x) = e^(-x²)/sqrt(pi) / (x + (1/2)/(x + (2/2)/(x + …)))
 *            (A&S 7.1.14), evaluated from the bottom up with 200/x² + 9
 *            levels (209 at x = 1, 58 at x = 2, 14 at x = 6): where the
 *            fraction stops changing in float64 (measured with 40 digits).
 * cut = 2 when P is subtracted from 1 (z > 0: only P's absolute error
 * matters) and 1 when P itself is the result (z < 0: 1 - erf(x) would lose
 * up to 8 bits just below x = 2). */
static double normal_upper_tail(double a, double e, double cut) {
  const double x = a * PN_SQRT1_2;
  if (x < cut) {
    double term = x, sum = x;
    for (int n = 1; n < 64 && term > 1e-17 * sum; n++) {
      term *= 2.0 * x * x / (double)(2 * n + 1);
      sum += term;
    }
    return 0.5 - 0.5 * PN_2_SQRTPI * e * sum;
  }
  const int levels = (int)(200.0 / (x * x)) + 9;
  double t = x;
  for (int k = levels; k >= 1; k--) t = x + 0.5 * (double)k / t;
  return 0.25 * PN_2_SQRTPI * e / t;
}

/* Φ(z), and e^(-z²/2) in *e_out (both from one exp pair); past |z| = 40
 * the tail is below every float64 and is 0. NaN stays NaN. */
static double normal_cdf(double z, double *e_out) {
  const double a = fabs(z);
  double e = 0.0, q = 0.0;
  if (!(a <= 40.0)) {
    if (a != a) q = e = a; /* NaN */
  } else {
    e = exp_minus_half_square(a);
    q = normal_upper_tail(a, e, z < 0.0 ? 1.0 : 2.0);
  }
  *e_out = e;
  return z < 0.0 ? q : 1.0 - q;
}

double pn_gelu_erf(double z) {
  double e;
  return z * normal_cdf(z, &e);
}

double pn_gelu_erf_grad(double z) {
  double e;
  const double p = normal_cdf(z, &e);
  return e == 0.0 ? p : p + z * e * PN_1_SQRT2PI; /* no Inf·0 past |z| = 40 */
}

double pn_gelu_f64(double z, int32_t form) {
  return form == PN_GELU_ERF ? pn_gelu_erf(z) : pn_gelu_tanh(z);
}

double pn_gelu_grad_f64(double z, int32_t form) {
  return form == PN_GELU_ERF ? pn_gelu_erf_grad(z) : pn_gelu_tanh_grad(z);
}

/* ======================================================================
 * Products and attention
 * ====================================================================== */

void pn_matmul_f64(double *y, const double *x, const float *w, int32_t rows,
                   int32_t n, int32_t m) {
  for (int32_t r = 0; r < rows; r++) {
    double *yr = y + (size_t)r * (size_t)m;
    for (int32_t c = 0; c < m; c++) yr[c] = 0.0;
    for (int32_t k = 0; k < n; k++) {
      const double a = x[(size_t)r * (size_t)n + (size_t)k];
      const float *wk = w + (size_t)k * (size_t)m;
      for (int32_t c = 0; c < m; c++) yr[c] += a * (double)wk[c];
    }
  }
}

/* One query of one head: the scores of q against every key, their softmax
 * in a[] (rounded into attn_row when given), then ctx_row = Σ_j a[j]·v_j.
 * k and v point at the head's first column, their rows `stride` apart.
 * ctx_row may be q: q is read in the first loop only. */
static void attention_row(double *ctx_row, float *attn_row, const double *q,
                          const double *k, const double *v, int32_t tokens,
                          size_t stride, int32_t d_head, double scale,
                          double *a) {
  double top = -INFINITY, sum = 0.0;
  for (int32_t j = 0; j < tokens; j++) {
    const double *kj = k + (size_t)j * stride;
    double dot = 0.0;
    for (int32_t c = 0; c < d_head; c++) dot += q[c] * kj[c];
    a[j] = dot * scale;
    if (a[j] > top) top = a[j];
  }
  for (int32_t j = 0; j < tokens; j++) sum += (a[j] = exp(a[j] - top));
  for (int32_t j = 0; j < tokens; j++) {
    a[j] /= sum;
    if (attn_row) attn_row[j] = (float)a[j];
  }
  for (int32_t c = 0; c < d_head; c++) {
    double acc = 0.0;
    for (int32_t j = 0; j < tokens; j++) acc += a[j] * v[(size_t)j * stride + (size_t)c];
    ctx_row[c] = acc;
  }
}

void pn_attention_f64(double *ctx, float *attn, const double *x,
                      const float *wq, const float *wk, const float *wv,
                      int32_t tokens, int32_t d_in, int32_t heads,
                      int32_t d_head, double *scratch) {
  const int32_t width = heads * d_head; /* <= 4096 for every caller */
  const size_t stride = (size_t)width, n = (size_t)tokens * stride;
  double *q = scratch, *k = q + n, *v = k + n, *a = v + n;
  pn_matmul_f64(q, x, wq, tokens, d_in, width);
  pn_matmul_f64(k, x, wk, tokens, d_in, width);
  pn_matmul_f64(v, x, wv, tokens, d_in, width);
  const double scale = 1.0 / sqrt((double)d_head);
  for (int32_t h = 0; h < heads; h++) {
    const size_t o = (size_t)h * (size_t)d_head;
    for (int32_t i = 0; i < tokens; i++) {
      const size_t row = (size_t)i * stride + o;
      float *attn_row = attn ? attn + ((size_t)h * (size_t)tokens + (size_t)i) * (size_t)tokens : NULL;
      attention_row(ctx + row, attn_row, q + row, k + o, v + o, tokens, stride, d_head, scale, a);
    }
  }
}
