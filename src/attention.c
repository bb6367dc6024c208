/* attention.c — single-head self-attention for the order figure: the
 * heads = 1 case of the Transformer block's attention (pn_f64.c). */
#include "pn_f64.h"
#include "pn_internal.h"
#include "posnorm_figures.h"

int pn_attention_f32(float *out, float *weights, const float *x,
                     const float *wq, const float *wk, const float *wv,
                     int32_t seq_len, int32_t d_model, int32_t d_head) {
  if (!out || !x || !wq || !wk || !wv) return PN_ERR_NULL;
  if (seq_len < 1 || seq_len > 4096 || d_model < 1 || d_model > 4096 ||
      d_head < 1 || d_head > 4096 ||
      !pn_work_fits((uint64_t)seq_len, (uint64_t)d_head, 3 * (uint64_t)d_model + 2 * (uint64_t)seq_len))
    return PN_ERR_SIZE;
  const size_t nq = (size_t)seq_len * (size_t)d_head, nx = (size_t)seq_len * (size_t)d_model;
  /* q, k, v [seq_len × d_head], one row of scores, x in float64:
   * 24·seq_len·d_head + 8·seq_len + 8·seq_len·d_model bytes */
  const size_t values = pn_size_mul_add(nq, 3, pn_size_add((size_t)seq_len, nx));
  const size_t bytes = pn_size_mul(values, sizeof(double));
  if (bytes == PN_SIZE_OVERFLOW) return PN_ERR_SIZE;
  double *scratch = pn_malloc(bytes);
  if (!scratch) return PN_ERR_NOMEM;
  double *x64 = scratch + 3 * nq + (size_t)seq_len;
  for (size_t i = 0; i < nx; i++) x64[i] = (double)x[i];
  /* the context replaces q in the scratch, then is rounded once */
  pn_attention_f64(scratch, weights, x64, wq, wk, wv, seq_len, d_model, 1, d_head, scratch);
  for (size_t i = 0; i < nq; i++) out[i] = (float)scratch[i];
  pn_free(scratch);
  return PN_OK;
}
