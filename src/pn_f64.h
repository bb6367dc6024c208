/* pn_f64.h — the float64 linear algebra the figure kernels share (the
 * residual stack and its gradients, the Transformer block, attention,
 * LayerNorm's steps) and the float64 row of the float32 norms. Not part of
 * the API.
 *
 * Every sum here runs in index order into one float64 accumulator per
 * result, never reassociated (no SIMD lanes), so a kernel built on it gives
 * the same bits in every build; the figure kernels round each output to
 * float32 once. */
#ifndef PN_F64_H
#define PN_F64_H

#include <stddef.h>
#include <stdint.h>

/* ---- statistics over float32 or float64 values ------------------------ */

/* n values read as float64, from float32 or from float64 storage (exactly
 * one pointer set): the float32 kernels and the float64 activations of the
 * figure kernels share one body for each statistic. */
typedef struct {
  const float *f32;
  const double *f64;
  size_t n;
} pn_values;

static inline pn_values pn_values_f32(const float *x, size_t n) {
  const pn_values v = {x, NULL, n};
  return v;
}
static inline pn_values pn_values_f64(const double *x, size_t n) {
  const pn_values v = {NULL, x, n};
  return v;
}

/* *sum = Σ(x - shift), *sumsq = Σ(x - shift)², in float64. */
void pn_sums_about_f64(pn_values x, double shift, double *sum, double *sumsq);

/* The two-pass mean and biased variance: mean = Σx/n, var = Σ(x - mean)²/n.
 * With center = 0 (RMSNorm) mean = 0 and var is the mean square, in one
 * pass. residual (or NULL) receives Σ(x - mean)/n, what rounding left out
 * of the mean (LayerNorm's float64 row adds it back). */
void pn_mean_var_f64(pn_values x, int center, double *mean, double *var,
                     double *residual);

/* sqrt of pn_mean_var_f64's variance: the population standard deviation. */
double pn_population_std_f64(pn_values x);

/* ---- rows ---------------------------------------------------------------- */

/* y = norm(x) for each row of x [rows × n] in float64: LayerNorm (two-pass
 * mean and variance) or, with rms, RMSNorm; gamma = 1, beta = 0. inv[r]
 * (when inv != NULL) keeps 1/sqrt(var + eps) (or 1/rms) for the backward
 * pass. y may be x. */
void pn_norm_rows_f64(double *y, double *inv, const double *x, int32_t rows,
                      int32_t n, int rms, double eps);

/* dx += (∂norm/∂x)ᵀ·dy for each row, given y = norm(x) and inv from
 * pn_norm_rows_f64 (the same rms). */
void pn_norm_rows_back_f64(double *dx, const double *dy, const double *y,
                           const double *inv, int32_t rows, int32_t n,
                           int rms);

/* ---- GELU in its tanh form ----------------------------------------------- */

/* z/2·(1 + tanh(sqrt(2/pi)·(z + 0.044715 z³))) (PyTorch's
 * approximate='tanh', as in GPT-2), and its derivative. */
double pn_gelu_tanh(double z);
double pn_gelu_tanh_grad(double z);

/* ---- GELU in its exact form, and either form by name --------------------- */

/* z·Φ(z) = z/2·(1 + erf(z/sqrt(2))) (PyTorch's nn.GELU() default,
 * approximate='none'), and its derivative Φ(z) + z·φ(z); Φ from a series
 * below |z| = 2·sqrt(2) and a continued fraction above (pn_f64.c), no libm
 * erf. Measured against 40-digit values: GELU within 5e-15 relative (33
 * ulp at worst, near z = -1.41), the derivative within 8e-16 absolute;
 * ±0 keep their sign, NaN in, NaN out, 0 (and a derivative of 0 or 1) past
 * |z| = 40. */
double pn_gelu_erf(double z);
double pn_gelu_erf_grad(double z);

/* GELU and its derivative in the form `form` (a pn_gelu_form of
 * posnorm_figures.h: PN_GELU_ERF, else the tanh form). */
double pn_gelu_f64(double z, int32_t form);
double pn_gelu_grad_f64(double z, int32_t form);

/* ---- products ------------------------------------------------------------ */

/* y = x·w (x [rows × n] in float64, w [n × m] in float32), each sum in k
 * order. */
void pn_matmul_f64(double *y, const double *x, const float *w, int32_t rows,
                   int32_t n, int32_t m);

/* Multi-head scaled dot-product self-attention of x [tokens × d_in]:
 *   Q = x·wq, K = x·wk, V = x·wv, each [tokens × heads·d_head] (w*
 *   [d_in × heads·d_head], float32), head h on columns [h·d_head,
 *   (h+1)·d_head); A_h = softmax(Q_h·K_hᵀ/sqrt(d_head)), row-wise,
 *   max-subtracted; ctx = concat_h(A_h·V_h) [tokens × heads·d_head].
 * attn (or NULL) receives every A_h rounded to float32, [heads × tokens ×
 * tokens]. scratch holds 3·tokens·heads·d_head + tokens doubles (Q, K, V,
 * one row of scores); ctx may be scratch itself, Q's place: a row of Q is
 * read only before the row of ctx that replaces it is written. */
void pn_attention_f64(double *ctx, float *attn, const double *x,
                      const float *wq, const float *wk, const float *wv,
                      int32_t tokens, int32_t d_in, int32_t heads,
                      int32_t d_head, double *scratch);

#endif /* PN_F64_H */
