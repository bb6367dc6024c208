/* block.c — one Transformer block (multi-head self-attention and a GELU
 * feed-forward network, each behind a residual connection, with Pre- or
 * Post-Norm), every intermediate tensor kept, for the block figure. */
#include "pn_f64.h"
#include "pn_internal.h"
#include "posnorm_figures.h"

/* out = concat(heads)·Wo of the multi-head attention of s [T × d]
 * (pn_f64.c), with w = Wq, Wk, Wv, Wo; the heads' weights, rounded, go to
 * attn [heads × T × T]. scratch: q, k, v and a row of scores, then ctx. */
static void attention64(double *out, float *attn, const double *s,
                        const float *w, int32_t T, int32_t d, int32_t heads,
                        double *scratch) {
  const size_t n = (size_t)T * (size_t)d, dd = (size_t)d * (size_t)d;
  double *ctx = scratch + 3 * n + (size_t)T;
  pn_attention_f64(ctx, attn, s, w, w + dd, w + 2 * dd, T, d, heads, d / heads, scratch);
  pn_matmul_f64(out, ctx, w + 3 * dd, T, d, d);
}

/* out = GELU(s·W1)·W2 (GELU in the pn_gelu_form `gelu`), s [T × d], with
 * the hidden layer [T × d_ff] in `hidden`. */
static void ffn64(double *out, const double *s, const float *w1,
                  const float *w2, int32_t T, int32_t d, int32_t d_ff,
                  int32_t gelu, double *hidden) {
  pn_matmul_f64(hidden, s, w1, T, d, d_ff);
  for (size_t i = 0; i < (size_t)T * (size_t)d_ff; i++) hidden[i] = pn_gelu_f64(hidden[i], gelu);
  pn_matmul_f64(out, hidden, w2, T, d_ff, d);
}

/* The block on slot[PN_TRACE_INPUT], filling the other slots in the order
 * of enum pn_block_trace. scratch: attention64's, then the FFN's hidden
 * layer. */
static void block64(double *const slot[], float *attn, const float *weights,
                    int32_t T, int32_t d, int32_t heads, int32_t d_ff,
                    int32_t placement, int rms, int32_t gelu, double eps,
                    double *scratch) {
  const size_t n = (size_t)T * (size_t)d, dd = (size_t)d * (size_t)d;
  double *hidden = scratch + 4 * n + (size_t)T;
  if (placement == PN_PRE_NORM) pn_norm_rows_f64(slot[1], NULL, slot[0], T, d, rms, eps);
  else for (size_t i = 0; i < n; i++) slot[1][i] = slot[0][i];
  attention64(slot[2], attn, slot[1], weights, T, d, heads, scratch);
  for (size_t i = 0; i < n; i++) slot[3][i] = slot[0][i] + slot[2][i];
  pn_norm_rows_f64(slot[4], NULL, slot[3], T, d, rms, eps);
  ffn64(slot[5], slot[4], weights + 4 * dd, weights + 4 * dd + (size_t)d * (size_t)d_ff, T, d, d_ff, gelu, hidden);
  /* Pre-Norm adds the FFN to the unnormalised sum; Post-Norm to its norm */
  const double *stream = placement == PN_PRE_NORM ? slot[3] : slot[4];
  for (size_t i = 0; i < n; i++) slot[6][i] = stream[i] + slot[5][i];
  if (placement == PN_PRE_NORM) for (size_t i = 0; i < n; i++) slot[7][i] = slot[6][i];
  else pn_norm_rows_f64(slot[7], NULL, slot[6], T, d, rms, eps);
}

int pn_transformer_block_f32(float *trace, float *attn, const float *x,
                             const float *weights, int32_t tokens,
                             int32_t d_model, int32_t heads, int32_t d_ff,
                             int32_t placement, int32_t norm, int32_t gelu,
                             float eps) {
  if (!trace || !attn || !x || !weights) return PN_ERR_NULL;
  if (tokens < 1 || tokens > 512 || d_model < 1 || d_model > 1024 ||
      heads < 1 || heads > d_model || d_ff < 1 || d_ff > 4096)
    return PN_ERR_SIZE;
  if (d_model % heads != 0 || (placement != PN_PRE_NORM && placement != PN_POST_NORM) ||
      (norm != PN_NORM_LAYER && norm != PN_NORM_RMS) || !(eps >= 0.0f) || !isfinite(eps) ||
      (gelu != PN_GELU_TANH && gelu != PN_GELU_ERF))
    return PN_ERR_ARG;
  const size_t n = (size_t)tokens * (size_t)d_model;
  /* the 8 traced tensors, then the attention's q, k, v, one row of scores
   * and ctx, then the FFN's hidden layer: 8·(12·T·d + T + T·d_ff) bytes */
  const size_t values = pn_size_mul_add(n, 12, pn_size_mul_add((size_t)tokens, (size_t)d_ff, (size_t)tokens));
  const size_t bytes = pn_size_mul(values, sizeof(double));
  if (bytes == PN_SIZE_OVERFLOW) return PN_ERR_SIZE;
  double *s = pn_malloc(bytes);
  if (!s) return PN_ERR_NOMEM;
  double *slot[PN_BLOCK_TRACE_SLOTS];
  for (int i = 0; i < PN_BLOCK_TRACE_SLOTS; i++) slot[i] = s + (size_t)i * n;
  for (size_t i = 0; i < n; i++) slot[PN_TRACE_INPUT][i] = (double)x[i];
  block64(slot, attn, weights, tokens, d_model, heads, d_ff, placement,
          norm == PN_NORM_RMS, gelu, (double)eps, s + 8 * n);
  for (size_t i = 0; i < 8 * n; i++) trace[i] = (float)s[i];
  pn_free(s);
  return PN_OK;
}
