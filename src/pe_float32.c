/* pe_float32.c — the article's PyTorch float32 positional encoding, step by
 * step, to show what float32 does to it (see posnorm.h). */
#include <math.h>

#include "pn_internal.h"
#include "pn_math.h"

int pn_pe_float32_code_f32(float *out, int32_t seq_len, int32_t d_model,
                           double base, int32_t offset, int32_t layout) {
  if (!out) return PN_ERR_NULL;
  if (!pn_count2(seq_len, d_model)) return PN_ERR_SIZE;
  if (!isfinite(base) || !(base > 1.0) || offset < 0 ||
      (double)offset + (double)seq_len > PN_POS_LIMIT ||
      (layout != PN_PE_INTERLEAVED && layout != PN_PE_CONCAT))
    return PN_ERR_ARG;
  const int32_t n_pairs = (d_model + 1) / 2, n_cos = d_model / 2;
  /* -math.log(10000.0) / d_model: a Python float, cast to float32 by the
   * float32 tensor it multiplies */
  const float scale = (float)(-pn_log(base) / (double)d_model);
  /* div_term depends on the pair alone: computed once per block of pairs
   * and used by every row (the same bits as per value; the rows are still
   * written in order, a block of each row at a time) */
  enum { PAIRS_PER_BLOCK = 128 };
  float div[PAIRS_PER_BLOCK];
  for (int32_t i0 = 0; i0 < n_pairs; i0 += PAIRS_PER_BLOCK) {
    const int32_t i1 = n_pairs - i0 < PAIRS_PER_BLOCK ? n_pairs : i0 + PAIRS_PER_BLOCK;
    /* div_term = exp(arange(0, d, 2).float() · scale): float32 product,
     * float32 exp (here correctly rounded) */
    for (int32_t i = i0; i < i1; i++)
      div[i - i0] = (float)exp((double)((float)(2 * i) * scale));
    for (int32_t r = 0; r < seq_len; r++) {
      /* torch.arange(0, max_len).float(): exact below 2^24, rounded above */
      const float pos = (float)((double)offset + (double)r);
      float *row = out + (size_t)r * (size_t)d_model;
      for (int32_t i = i0; i < i1; i++) {
        const float angle = pos * div[i - i0]; /* position · div_term in float32 */
        double s, c;
        pn_sincos((double)angle, &s, &c);
        pn_pe_store_pair(row, layout, i, n_pairs, n_cos, (float)s, (float)c);
      }
    }
  }
  return PN_OK;
}
