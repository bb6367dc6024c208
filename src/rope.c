/* rope.c — rotary position embedding (see posnorm.h). */
#include <string.h>

#include "pn_internal.h"
#include "pn_simd.h"

/* Rotates one head vector v (head_dim values) by the angles whose sin/cos
 * are sn/cs[0..half). */
static void rope_head(float *out, const float *v, const float *sn,
                      const float *cs, int32_t half, int32_t head_dim,
                      int32_t interleaved) {
  if (interleaved) {
    for (int32_t i = 0; i < half; i++) {
      const float a = v[2 * i], b = v[2 * i + 1];
      out[2 * i] = a * cs[i] - b * sn[i];
      out[2 * i + 1] = a * sn[i] + b * cs[i];
    }
  } else {
    int32_t i = 0;
    for (; i + 4 <= half; i += 4) {
      pn_f32x4 a = pn_f32x4_load(v + i), b = pn_f32x4_load(v + half + i);
      pn_f32x4 c = pn_f32x4_load(cs + i), s = pn_f32x4_load(sn + i);
      pn_f32x4_store(out + i, pn_f32x4_sub(pn_f32x4_mul(a, c), pn_f32x4_mul(b, s)));
      pn_f32x4_store(out + half + i, pn_f32x4_add(pn_f32x4_mul(a, s), pn_f32x4_mul(b, c)));
    }
    for (; i < half; i++) {
      const float a = v[i], b = v[half + i];
      out[i] = a * cs[i] - b * sn[i];
      out[half + i] = a * sn[i] + b * cs[i];
    }
  }
  if (out != v && head_dim > 2 * half)
    memcpy(out + 2 * half, v + 2 * half, sizeof(float) * (size_t)(head_dim - 2 * half));
}

int pn_rope_shape_ok(int32_t batch, int32_t seq_len, int32_t heads,
                     int32_t head_dim) {
  return pn_fits(pn_size_mul(pn_size_mul(pn_size(batch), pn_size(seq_len)),
                             pn_size_mul(pn_size(heads), pn_size(head_dim))));
}

int pn_rope_args_ok(int32_t head_dim, int32_t rotary_dim, int32_t interleaved,
                    int32_t layout) {
  return rotary_dim >= 2 && rotary_dim <= head_dim && !(rotary_dim & 1) &&
         (interleaved == 0 || interleaved == 1) &&
         (layout == PN_ROPE_BSHD || layout == PN_ROPE_BHSD);
}

int pn_rope_positions_ok(const int32_t *position_ids, size_t tokens,
                         int32_t offset, int32_t seq_len) {
  if (position_ids) {
    for (size_t t = 0; t < tokens; t++)
      if (position_ids[t] < 0) return 0;
    return 1;
  }
  return offset >= 0 && (double)offset + (double)seq_len <= PN_POS_LIMIT;
}

/* Rotates every head of token (b, s) by the angles of one sin/cos row. */
static void rope_token(float *y, const float *x, const float *srow,
                       const float *crow, int32_t b, int32_t s, int32_t seq_len,
                       int32_t heads, int32_t head_dim, int32_t half,
                       int32_t interleaved, int32_t layout) {
  for (int32_t h = 0; h < heads; h++) {
    const size_t at = pn_rope_at(layout, b, s, h, seq_len, heads, head_dim);
    rope_head(y + at, x + at, srow, crow, half, head_dim, interleaved);
  }
}

int pn_rope_f32(float *y, const float *x, const int32_t *position_ids,
                int32_t batch, int32_t seq_len, int32_t heads,
                int32_t head_dim, int32_t rotary_dim, double base,
                int32_t offset, int32_t interleaved, int32_t layout) {
  if (!x || !y) return PN_ERR_NULL;
  if (!pn_rope_shape_ok(batch, seq_len, heads, head_dim)) return PN_ERR_SIZE;
  if (!pn_rope_args_ok(head_dim, rotary_dim, interleaved, layout) ||
      !isfinite(base) || !(base > 1.0))
    return PN_ERR_ARG;
  const size_t tokens = (size_t)batch * (size_t)seq_len; /* <= 2^28: checked */
  if (!pn_rope_positions_ok(position_ids, tokens, offset, seq_len)) return PN_ERR_ARG;
  const int32_t half = rotary_dim / 2;
  /* one sin row and one cos row per position; with ids, one row and the
   * frequencies, taken once per call (per row they were an exp per pair:
   * 35 → 20 ns per pair, the same bits), with their double-double rests
   * (pn_pe_frequencies) beside them */
  const size_t table_rows = position_ids ? 1 : (size_t)seq_len;
  const size_t n_freq = position_ids ? 2 * (size_t)half : 0;
  const size_t bytes = pn_size_mul_add(pn_size_mul(table_rows, (size_t)half), 2 * sizeof(float),
                                       n_freq * sizeof(double));
  if (bytes == PN_SIZE_OVERFLOW) return PN_ERR_SIZE;
  double *freq = pn_malloc(bytes);
  if (!freq) return PN_ERR_NOMEM;
  float *sn = (float *)(freq + n_freq);
  float *cs = sn + table_rows * (size_t)half;
  const double *freq_lo = freq + half;
  if (position_ids) {
    int32_t p_max = 0;
    for (size_t t = 0; t < tokens; t++)
      if (position_ids[t] > p_max) p_max = position_ids[t];
    if (!pn_pe_frequencies(freq, freq + half, half, rotary_dim, base, (double)p_max)) freq_lo = NULL;
  }
  if (!position_ids)
    pn_pe_sincos_table(sn, cs, seq_len, half, rotary_dim, base, (double)offset);
  for (int32_t b = 0; b < batch; b++) {
    for (int32_t s = 0; s < seq_len; s++) {
      const float *srow = sn, *crow = cs;
      if (position_ids) {
        pn_pe_sincos_row(sn, cs, (double)position_ids[(size_t)b * (size_t)seq_len + (size_t)s], freq, freq_lo, half);
      } else {
        srow = sn + (size_t)s * (size_t)half;
        crow = cs + (size_t)s * (size_t)half;
      }
      rope_token(y, x, srow, crow, b, s, seq_len, heads, head_dim, half, interleaved, layout);
    }
  }
  pn_free(freq);
  return PN_OK;
}

int pn_rope_cache_f32(float *y, const float *x, const float *cos_cache,
                      const float *sin_cache, const int32_t *position_ids,
                      int32_t cache_rows, int32_t batch, int32_t seq_len,
                      int32_t heads, int32_t head_dim, int32_t rotary_dim,
                      int32_t interleaved, int32_t layout) {
  if (!x || !y || !cos_cache || !sin_cache) return PN_ERR_NULL;
  if (!pn_rope_shape_ok(batch, seq_len, heads, head_dim) || cache_rows < 1)
    return PN_ERR_SIZE;
  const int args_ok = pn_rope_args_ok(head_dim, rotary_dim, interleaved, layout);
  const int32_t half = rotary_dim / 2;
  /* the caches' count is a size, checked before every other argument; it
     needs rotary_dim >= 2 to mean anything (a smaller one is PN_ERR_ARG
     below), and is cache_rows·(rotary_dim/2) for any rotary_dim from 2 */
  if (rotary_dim >= 2 && !pn_count2(cache_rows, half)) return PN_ERR_SIZE;
  const size_t tokens = (size_t)batch * (size_t)seq_len; /* <= 2^28: checked */
  if (!position_ids && (size_t)cache_rows != tokens) return PN_ERR_SIZE;
  if (!args_ok) return PN_ERR_ARG;
  if (position_ids)
    for (size_t t = 0; t < tokens; t++)
      if (position_ids[t] < 0 || position_ids[t] >= cache_rows) return PN_ERR_ARG;
  for (int32_t b = 0; b < batch; b++) {
    for (int32_t s = 0; s < seq_len; s++) {
      const size_t token = (size_t)b * (size_t)seq_len + (size_t)s;
      const size_t row = position_ids ? (size_t)position_ids[token] : token;
      rope_token(y, x, sin_cache + row * (size_t)half, cos_cache + row * (size_t)half,
                 b, s, seq_len, heads, head_dim, half, interleaved, layout);
    }
  }
  return PN_OK;
}
