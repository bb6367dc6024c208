/* pn_lowprec.h — rounding a float32 to bfloat16 or float16 (IEEE binary16),
 * round to nearest, ties to even; not part of the API.
 *
 * Method: the rounding itself is done by the FPU. To round |x| to a multiple
 * of 2^q, add the power of two M = 2^(q+23): the sum lies in M's binade,
 * whose float32 spacing is 2^q, so the hardware's round-to-nearest-even
 * addition rounds |x| there, and subtracting M again is exact. q is the
 * exponent of x less the type's fraction bits (7 for bfloat16, 10 for
 * float16), but never below the exponent of the type's smallest subnormal
 * (2^-133 for bfloat16, 2^-24 for float16), which makes the subnormals. The
 * only bit work is reading x's exponent field and making M. Values too large
 * for M (q + 23 > 127) are scaled down by 2^64 first and back up after, both
 * exact, so an upward rounding past the largest float32 gives +Inf.
 * NaN gives the quiet NaN 0x7FC00000 (the float32 form of bfloat16 0x7FC0 and
 * of float16 0x7E00); ±Inf and ±0 keep themselves; float16 values that
 * round above 65504 become ±Inf. */
#ifndef PN_LOWPREC_H
#define PN_LOWPREC_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "posnorm.h"

static inline uint32_t pn_bits_of(float x) {
  uint32_t u;
  memcpy(&u, &x, sizeof u);
  return u;
}

static inline float pn_float_of(uint32_t u) {
  float x;
  memcpy(&x, &u, sizeof x);
  return x;
}

/* |x| rounded to `frac` fraction bits, its spacing never below 2^qmin;
 * a is finite and >= 0. */
static inline float pn_round_mag(float a, int32_t frac, int32_t qmin) {
  if (a == 0.0f) return a;
  const int32_t field = (int32_t)((pn_bits_of(a) >> 23) & 0xFF);
  int32_t q = (field ? field - 127 : -127) - frac;
  if (q < qmin) q = qmin;
  float scale = 1.0f;
  if (q + 23 > 100) { /* M would not fit: work 2^64 lower */
    a *= 0x1p-64f;
    q -= 64;
    scale = 0x1p64f;
  }
  const float m = pn_float_of((uint32_t)(q + 23 + 127) << 23);
  const float sum = a + m; /* the rounding (no fast-math: not folded) */
  return (sum - m) * scale;
}

/* x rounded to bfloat16 (8 significant bits, float32's exponent range). */
static inline float pn_round_bf16(float x) {
  if (isnan(x)) return pn_float_of(0x7FC00000u);
  if (isinf(x)) return x;
  return copysignf(pn_round_mag(fabsf(x), 7, -133), x);
}

/* x rounded to float16 (11 significant bits, normal from 2^-14, subnormal
 * spacing 2^-24, largest finite 65504). */
static inline float pn_round_f16(float x) {
  if (isnan(x)) return pn_float_of(0x7FC00000u);
  if (isinf(x)) return x;
  float r = pn_round_mag(fabsf(x), 10, -24);
  if (r > 65504.0f) r = INFINITY;
  return copysignf(r, x);
}

/* x rounded to dtype (a pn_dtype). */
static inline float pn_round_to(float x, int32_t dtype) {
  return dtype == PN_DTYPE_BFLOAT16 ? pn_round_bf16(x)
         : dtype == PN_DTYPE_FLOAT16 ? pn_round_f16(x)
                                     : x;
}

#endif /* PN_LOWPREC_H */
