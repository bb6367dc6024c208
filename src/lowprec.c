/* lowprec.c — sinusoidal PE and RoPE in bfloat16 and float16, step by step
 * as PyTorch computes them (see posnorm.h: pn_pe_lowprec_f32,
 * pn_rope_lowprec_f32, pn_round_f32). Every step is one float32 operation
 * (sin, cos, exp and pow: the float64 result rounded to float32) followed by
 * R, the step rounding: to the type in PN_COMPUTE_LOW, to float32 (nothing
 * more) in PN_COMPUTE_FLOAT32. */
#include <float.h>
#include <math.h>

#include "pn_internal.h"
#include "pn_lowprec.h"
#include "pn_math.h"

static int dtype_ok(int32_t dtype) {
  return dtype == PN_DTYPE_FLOAT32 || dtype == PN_DTYPE_BFLOAT16 || dtype == PN_DTYPE_FLOAT16;
}

int pn_round_f32(float *y, const float *x, int32_t n, int32_t dtype) {
  if (!y || !x) return PN_ERR_NULL;
  if (n < 1 || n > PN_MAX_ELEMENTS) return PN_ERR_SIZE;
  if (!dtype_ok(dtype)) return PN_ERR_ARG;
  for (int32_t k = 0; k < n; k++) y[k] = pn_round_to(x[k], dtype);
  return PN_OK;
}

int pn_pe_lowprec_f32(float *out, int32_t seq_len, int32_t d_model, double base,
                      int32_t offset, int32_t layout, int32_t dtype,
                      int32_t compute) {
  if (!out) return PN_ERR_NULL;
  if (!pn_count2(seq_len, d_model)) return PN_ERR_SIZE;
  if (!isfinite(base) || !(base > 1.0) || offset < 0 ||
      (double)offset + (double)seq_len > PN_POS_LIMIT ||
      (layout != PN_PE_INTERLEAVED && layout != PN_PE_CONCAT) ||
      !dtype_ok(dtype) || (compute != PN_COMPUTE_FLOAT32 && compute != PN_COMPUTE_LOW))
    return PN_ERR_ARG;
  const int32_t st = compute == PN_COMPUTE_LOW ? dtype : PN_DTYPE_FLOAT32; /* R */
  const int32_t n_pairs = (d_model + 1) / 2, n_cos = d_model / 2;
  /* the Python scalar -ln(base)/d_model enters as float32, not rounded to R */
  const float scale = (float)(-pn_log(base) / (double)d_model);
  /* div_term depends on the pair alone: once per block of pairs, used by
   * every row (as pe_float32.c) */
  enum { PAIRS_PER_BLOCK = 128 };
  float div[PAIRS_PER_BLOCK];
  for (int32_t i0 = 0; i0 < n_pairs; i0 += PAIRS_PER_BLOCK) {
    const int32_t i1 = n_pairs - i0 < PAIRS_PER_BLOCK ? n_pairs : i0 + PAIRS_PER_BLOCK;
    for (int32_t i = i0; i < i1; i++) {
      const float k = pn_round_to((float)(2 * i), st);
      const float e = pn_round_to(k * scale, st);
      div[i - i0] = pn_round_to((float)exp((double)e), st);
    }
    for (int32_t r = 0; r < seq_len; r++) {
      const float pos = pn_round_to((float)((double)offset + (double)r), st);
      float *row = out + (size_t)r * (size_t)d_model;
      for (int32_t i = i0; i < i1; i++) {
        const float angle = pn_round_to(pos * div[i - i0], st);
        double s, c;
        pn_sincos((double)angle, &s, &c);
        pn_pe_store_pair(row, layout, i, n_pairs, n_cos, pn_round_to((float)s, dtype), pn_round_to((float)c, dtype));
      }
    }
  }
  return PN_OK;
}

int pn_rope_lowprec_f32(float *y, const float *x, const int32_t *position_ids,
                        int32_t batch, int32_t seq_len, int32_t heads,
                        int32_t head_dim, int32_t rotary_dim, double base,
                        int32_t offset, int32_t interleaved, int32_t layout,
                        int32_t dtype, int32_t compute) {
  if (!x || !y) return PN_ERR_NULL;
  if (!pn_rope_shape_ok(batch, seq_len, heads, head_dim)) return PN_ERR_SIZE;
  if (!pn_rope_args_ok(head_dim, rotary_dim, interleaved, layout) ||
      !(base > 1.0) || !(base <= FLT_MAX) || !dtype_ok(dtype) ||
      (compute != PN_COMPUTE_FLOAT32 && compute != PN_COMPUTE_LOW))
    return PN_ERR_ARG;
  const size_t tokens = (size_t)batch * (size_t)seq_len; /* <= 2^28: checked */
  if (position_ids) {
    for (size_t t = 0; t < tokens; t++)
      if (position_ids[t] < 0) return PN_ERR_ARG;
  } else if (offset < 0 || (double)offset + (double)seq_len > PN_POS_LIMIT) {
    return PN_ERR_ARG;
  }
  const int32_t st = compute == PN_COMPUTE_LOW ? dtype : PN_DTYPE_FLOAT32; /* R */
  const int32_t half = rotary_dim / 2;
  /* the Python scalars base and rotary_dim enter as float32 */
  const float fbase = (float)base, fdim = (float)rotary_dim;
  const double log_base = pn_log((double)fbase);
  for (int32_t b = 0; b < batch; b++) {
    for (int32_t s = 0; s < seq_len; s++) {
      const size_t token = (size_t)b * (size_t)seq_len + (size_t)s;
      const double p = position_ids ? (double)position_ids[token] : (double)offset + (double)s;
      const float pos = pn_round_to((float)p, st);
      for (int32_t i = 0; i < half; i++) {
        const float k = pn_round_to((float)(2 * i), st);
        const float ex = pn_round_to(k / fdim, st);
        const float pw = pn_round_to((float)exp((double)ex * log_base), st);
        const float inv = pn_round_to(1.0f / pw, st);
        const float angle = pn_round_to(pos * inv, st);
        double sd, cd;
        pn_sincos((double)angle, &sd, &cd);
        const float c = pn_round_to((float)cd, dtype), sn = pn_round_to((float)sd, dtype);
        const size_t ia = interleaved ? 2 * (size_t)i : (size_t)i;
        const size_t ib = interleaved ? 2 * (size_t)i + 1 : (size_t)(i + half);
        for (int32_t h = 0; h < heads; h++) {
          const size_t at = pn_rope_at(layout, b, s, h, seq_len, heads, head_dim);
          const float va = pn_round_to(x[at + ia], dtype), vb = pn_round_to(x[at + ib], dtype);
          const float ac = pn_round_to(va * c, dtype), bs = pn_round_to(vb * sn, dtype);
          const float bc = pn_round_to(vb * c, dtype), as = pn_round_to(va * sn, dtype);
          y[at + ia] = pn_round_to(ac - bs, dtype);
          y[at + ib] = pn_round_to(bc + as, dtype);
        }
      }
      for (int32_t h = 0; h < heads; h++) {
        const size_t at = pn_rope_at(layout, b, s, h, seq_len, heads, head_dim);
        for (int32_t c = rotary_dim; c < head_dim; c++) y[at + (size_t)c] = pn_round_to(x[at + (size_t)c], dtype);
      }
    }
  }
  return PN_OK;
}
