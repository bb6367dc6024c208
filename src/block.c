/* block.c — one Transformer block (multi-head self-attention and a GELU
 * feed-forward network, each behind a residual connection, with Pre- or
 * Post-Norm), every intermediate tensor kept, for the block figure. */
#include "pn_internal.h"

/* Multi-head scaled dot-product self-attention of s [T × d] with the
 * weights w = Wq, Wk, Wv, Wo; writes the heads' weights (rounded) to attn
 * [heads × T × T] and the output (concat(heads)·Wo) to out. */
static void attention64(double *out, float *attn, const double *s,
                        const float *w, int32_t T, int32_t d, int32_t heads,
                        double *scratch) {
  const size_t n = (size_t)T * (size_t)d, dd = (size_t)d * (size_t)d;
  double *q = scratch, *k = q + n, *v = k + n, *ctx = v + n, *a = ctx + n;
  pn_matmul_f64(q, s, w, T, d, d);
  pn_matmul_f64(k, s, w + dd, T, d, d);
  pn_matmul_f64(v, s, w + 2 * dd, T, d, d);
  const int32_t dh = d / heads;
  const double scale = 1.0 / sqrt((double)dh);
  for (int32_t h = 0; h < heads; h++) {
    const size_t o = (size_t)h * (size_t)dh;
    for (int32_t i = 0; i < T; i++) {
      const double *qi = q + (size_t)i * (size_t)d + o;
      double top = -INFINITY, sum = 0.0;
      for (int32_t j = 0; j < T; j++) {
        const double *kj = k + (size_t)j * (size_t)d + o;
        double dot = 0.0;
        for (int32_t c = 0; c < dh; c++) dot += qi[c] * kj[c];
        a[j] = dot * scale;
        if (a[j] > top) top = a[j];
      }
      for (int32_t j = 0; j < T; j++) sum += (a[j] = exp(a[j] - top));
      float *ai = attn + ((size_t)h * (size_t)T + (size_t)i) * (size_t)T;
      for (int32_t j = 0; j < T; j++) ai[j] = (float)(a[j] /= sum);
      double *ci = ctx + (size_t)i * (size_t)d + o;
      for (int32_t c = 0; c < dh; c++) {
        double acc = 0.0;
        for (int32_t j = 0; j < T; j++) acc += a[j] * v[(size_t)j * (size_t)d + o + (size_t)c];
        ci[c] = acc;
      }
    }
  }
  pn_matmul_f64(out, ctx, w + 3 * dd, T, d, d);
}

int pn_transformer_block_f32(float *trace, float *attn, const float *x,
                             const float *weights, int32_t tokens,
                             int32_t d_model, int32_t heads, int32_t d_ff,
                             int32_t placement, int32_t norm, float eps) {
  if (!trace || !attn || !x || !weights) return PN_ERR_NULL;
  if (tokens < 1 || tokens > 512 || d_model < 1 || d_model > 1024 ||
      heads < 1 || heads > d_model || d_ff < 1 || d_ff > 4096)
    return PN_ERR_SIZE;
  if (d_model % heads != 0 || (placement != PN_PRE_NORM && placement != PN_POST_NORM) ||
      (norm != PN_NORM_LAYER && norm != PN_NORM_RMS) || !(eps >= 0.0f) || !isfinite(eps))
    return PN_ERR_ARG;
  const int32_t T = tokens, d = d_model;
  const size_t n = (size_t)T * (size_t)d, dd = (size_t)d * (size_t)d;
  /* the 8 traced tensors, then the attention's q, k, v, ctx and one row of
   * scores, then the FFN's hidden layer: 8·(12·T·d + T + T·d_ff) bytes */
  const size_t values = pn_size_mul_add(n, 12, pn_size_mul_add((size_t)T, (size_t)d_ff, (size_t)T));
  const size_t bytes = pn_size_mul(values, sizeof(double));
  if (bytes == PN_SIZE_OVERFLOW) return PN_ERR_SIZE;
  double *s = pn_malloc(bytes);
  if (!s) return PN_ERR_NOMEM;
  double *slot[PN_BLOCK_TRACE_SLOTS];
  for (int i = 0; i < PN_BLOCK_TRACE_SLOTS; i++) slot[i] = s + (size_t)i * n;
  double *scratch = s + 8 * n, *hidden = scratch + 4 * n + (size_t)T;
  const double e = (double)eps;

  for (size_t i = 0; i < n; i++) slot[0][i] = (double)x[i];
  if (placement == PN_PRE_NORM) pn_norm_rows_f64(slot[1], NULL, slot[0], T, d, norm == PN_NORM_RMS, e);
  else for (size_t i = 0; i < n; i++) slot[1][i] = slot[0][i];
  attention64(slot[2], attn, slot[1], weights, T, d, heads, scratch);
  for (size_t i = 0; i < n; i++) slot[3][i] = slot[0][i] + slot[2][i];
  pn_norm_rows_f64(slot[4], NULL, slot[3], T, d, norm == PN_NORM_RMS, e);
  pn_matmul_f64(hidden, slot[4], weights + 4 * dd, T, d, d_ff);
  for (size_t i = 0; i < (size_t)T * (size_t)d_ff; i++) hidden[i] = pn_gelu_tanh(hidden[i]);
  pn_matmul_f64(slot[5], hidden, weights + 4 * dd + (size_t)d * (size_t)d_ff, T, d_ff, d);
  /* Pre-Norm adds the FFN to the unnormalised sum; Post-Norm to its norm */
  const double *stream = placement == PN_PRE_NORM ? slot[3] : slot[4];
  for (size_t i = 0; i < n; i++) slot[6][i] = stream[i] + slot[5][i];
  if (placement == PN_PRE_NORM) for (size_t i = 0; i < n; i++) slot[7][i] = slot[6][i];
  else pn_norm_rows_f64(slot[7], NULL, slot[6], T, d, norm == PN_NORM_RMS, e);

  for (size_t i = 0; i < 8 * n; i++) trace[i] = (float)s[i];
  pn_free(s);
  return PN_OK;
}
