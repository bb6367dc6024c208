/* pn_math.c — the natural log, the power and the PE frequency that PE,
 * RoPE, RoPE scaling, ALiBi and the random normals share (pn_math.h). */
/* sincos() is a GNU/BSD extension of <math.h> (musl's in the wasm builds,
 * glibc's in the native ones): declared only with _GNU_SOURCE */
#define _GNU_SOURCE
#include "pn_math.h"

#include "pn_internal.h" /* pn_sincos_calls (test builds) */

#include <math.h>

/* Natural log from + - * / only: x = m·2^e, m in [sqrt(1/2), sqrt(2)),
 * ln m = 2·atanh(z), z = (m-1)/(m+1), |z| < 0.172, series to z^23
 * (truncation < 1e-19), ln 2 split in two parts so e·ln 2 stays exact.
 * m and e are read from the bits of x in O(1) (a subnormal is first scaled
 * by 2^54, exactly): the same m and e the former loop of halvings and
 * doublings reached, so the same bits for every x > 0. Both steps are
 * pn_math.h's (pn_log_reduce, pn_log_x2), shared with the random normals,
 * which take their logs two at a time. */
double pn_log(double x) {
  if (!(x > 0.0)) return x == 0.0 ? -INFINITY : NAN; /* ±0; x < 0 and NaN */
  if (x == INFINITY) return x;
  return pn_f64x2_lo(pn_log_x2(pn_f64x2_splat(x)));
}

double pn_pow_pos(double b, double e) { return exp(e * pn_log(b)); }

double pn_pe_frequency(double log_base, int32_t i, int32_t dims) {
  return exp(-2.0 * (double)i / (double)dims * log_base);
}

#ifdef PN_COUNT_ALLOC
size_t pn_sincos_calls = 0;
#define COUNT_SINCOS() (pn_sincos_calls++)
#else
#define COUNT_SINCOS() ((void)0)
#endif

void pn_sincos(double a, double *s, double *c) {
  COUNT_SINCOS();
  sincos(a, s, c);
}
