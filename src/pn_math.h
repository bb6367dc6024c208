/* pn_math.h — the scalar maths every kernel family shares: the natural log
 * from IEEE + - * / only, the power built on it, and the frequencies of
 * sinusoidal PE and RoPE. Not part of the API.
 *
 * Why not libm's log and pow: their tables would cost the wasm kilobytes,
 * and their last bits differ between C libraries: with pn_log every build
 * gets the same bits. */
#ifndef PN_MATH_H
#define PN_MATH_H

#include <stdint.h>
#include <string.h>

#include "pn_simd.h"

/* π in float64 (M_PI is not C11). */
#define PN_PI 3.14159265358979323846

/* Natural log from IEEE + - * / only. Within a few ulp for every x > 0
 * (4.71 ulp at x = 0.69207969894311427, where e·ln2 and the series cancel,
 * found by an audit against 50-digit arithmetic; 2 ulp was claimed before),
 * subnormals included; -Inf for ±0, +Inf for +Inf, NaN for NaN and x < 0;
 * O(1): no loop over the exponent. */
double pn_log(double x);

/* pn_log's argument reduction: x (positive, finite) = m·2^e with m in
 * [sqrt(1/2), sqrt(2)); returns m and sets *e_out = e. */
PN_INLINE double pn_log_reduce(double x, double *e_out) {
  int e = 0;
  if (x < 0x1p-1022) { /* subnormal */
    x *= 0x1p54;
    e = -54;
  }
  uint64_t bits;
  memcpy(&bits, &x, sizeof bits);
  e += (int)(bits >> 52) - 1023; /* x = m0·2^e, m0 in [1, 2) */
  bits = (bits & 0x000FFFFFFFFFFFFFull) | 0x3FF0000000000000ull;
  memcpy(&x, &bits, sizeof x);
  if (x >= 1.4142135623730951) { /* into [sqrt(1/2), sqrt(2)) */
    x *= 0.5;
    e++;
  }
  *e_out = (double)e;
  return x;
}

/* pn_log of both lanes of x, each positive and finite (not checked): the
 * same operations on each lane as pn_log, which calls it, so the same bits.
 * Inline, so that a caller that takes many logs (the random normals,
 * random.c) runs the series' twelve divisions of two logs two at a time. */
PN_INLINE pn_f64x2 pn_log_x2(pn_f64x2 x) {
  double e0, e1;
  const double m0 = pn_log_reduce(pn_f64x2_lo(x), &e0);
  const double m1 = pn_log_reduce(pn_f64x2_hi(x), &e1);
  const pn_f64x2 m = pn_f64x2_make(m0, m1), e = pn_f64x2_make(e0, e1);
  const pn_f64x2 one = pn_f64x2_splat(1.0);
  const pn_f64x2 z = pn_f64x2_div(pn_f64x2_sub(m, one), pn_f64x2_add(m, one));
  const pn_f64x2 z2 = pn_f64x2_mul(z, z);
  pn_f64x2 term = z, acc = pn_f64x2_splat(0.0);
  for (int k = 1; k <= 23; k += 2) {
    acc = pn_f64x2_add(acc, pn_f64x2_div(term, pn_f64x2_splat((double)k)));
    term = pn_f64x2_mul(term, z2);
  }
  /* e·ln2_hi + (2·acc + e·ln2_lo): ln 2 in two parts, so e·ln 2 stays exact */
  return pn_f64x2_add(
      pn_f64x2_mul(e, pn_f64x2_splat(0.693147180369123816490)),
      pn_f64x2_add(pn_f64x2_mul(pn_f64x2_splat(2.0), acc),
                   pn_f64x2_mul(e, pn_f64x2_splat(1.90821492927058770002e-10))));
}

/* b^e = exp(e·ln b) for b > 0, with ln from pn_log. */
double pn_pow_pos(double b, double e);

/* Frequency of pair i for an encoding of `dims` dimensions:
 * base^(-2i/dims) = exp(-2i/dims · ln base), in float64, given
 * log_base = pn_log(base) (taken once per call, not once per pair). Shared
 * by PE and RoPE so both agree. */
double pn_pe_frequency(double log_base, int32_t i, int32_t dims);

/* *s = sin(a), *c = cos(a): the same bits as libm's sin() and cos() (its
 * sincos, which reduces the argument once for both: the reduction of a
 * large angle, as at positions near 2^24, is most of each call). Checked for
 * musl (the wasm builds) and glibc (the native ones, 64- and 32-bit); a libm
 * without sincos (macOS has __sincos) would need this one line changed. */
void pn_sincos(double a, double *s, double *c);

#endif /* PN_MATH_H */
