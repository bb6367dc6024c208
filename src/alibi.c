/* alibi.c — ALiBi slopes and bias (see posnorm.h). */
#include <math.h>

#include "pn_internal.h"
#include "pn_math.h"

/* m_h for a power-of-two head count p: 2^(-8(h+1)/p). */
static double slope_pow2(int32_t h, int32_t p) {
  /* exponent -8(h+1)/p: an integer part (exact, ldexp) and a fraction */
  const int32_t num = 8 * (h + 1);
  const double frac = (double)(num % p) / (double)p;
  return ldexp(frac == 0.0 ? 1.0 : pn_pow_pos(2.0, -frac), -(num / p));
}

static double alibi_slope(int32_t h, int32_t heads) {
  int32_t p = 1;
  while (p * 2 <= heads) p *= 2;
  if (h < p) return slope_pow2(h, p);
  return slope_pow2(2 * (h - p), 2 * p);
}

int pn_alibi_slopes_f32(float *slopes, int32_t heads) {
  if (!slopes) return PN_ERR_NULL;
  if (heads < 1 || heads > 65536) return PN_ERR_SIZE;
  for (int32_t h = 0; h < heads; h++) slopes[h] = (float)alibi_slope(h, heads);
  return PN_OK;
}

int pn_alibi_bias_f32(float *bias, int32_t heads, int32_t seq_len) {
  if (!bias) return PN_ERR_NULL;
  if (heads < 1 || heads > 65536 || seq_len < 1) return PN_ERR_SIZE;
  const size_t sq = pn_count2(seq_len, seq_len);
  if (!sq || !pn_fits(pn_size_mul(sq, (size_t)heads))) return PN_ERR_SIZE;
  for (int32_t h = 0; h < heads; h++) {
    const double m = alibi_slope(h, heads);
    float *bh = bias + (size_t)h * sq;
    for (int32_t i = 0; i < seq_len; i++) {
      float *row = bh + (size_t)i * (size_t)seq_len;
      for (int32_t j = 0; j < seq_len; j++)
        row[j] = (float)(-m * (double)(i > j ? i - j : j - i));
    }
  }
  return PN_OK;
}
