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

/* ---- Double-double ("dd") frequencies and angles -------------------------
 * A dd is an unevaluated sum hi + lo of two float64 with |lo| <= ulp(hi)/2:
 * about 106 bits. Only + - * / and exact splits (Veltkamp's split, Dekker's
 * two-product, Knuth's two-sum): no fma(), which the wasm builds would take
 * from libc's software version, so the native, scalar-wasm and SIMD-wasm
 * builds give the same bits (build.sh compiles with -ffp-contract=off).
 *
 * Why: θ = p·w_i at positions p near 2^31. w_i in float64 is a few ulps
 * from base^(-2i/dims) (exp and pn_log each round), and p multiplies that
 * error: 2^31 · 2 ulps of w ≈ 4.7e-7 rad where w is close to 1; rounding
 * θ itself to float64 costs up to ulp(θ)/2 ≈ 1.2e-7 more. Where |p·w_i| >=
 * 2^20 the kernels take θ as a dd from a dd w_i instead
 * (pn_sincos_pw); below 2^20 they compute exactly what they did before
 * (docs/decisions.md, "Angles near 2^31 in double-double"). */
typedef struct {
  double hi, lo;
} pn_dd;

/* The dd frequencies w_i = base^(-2i/dims) of one (base, dims), pair by
 * pair, for the rests of the float64 ones. pn_freq_dd_prepare stores base
 * and dims (no work: a call whose angles all stay below 2^20 takes no dd
 * exp); the first pn_freq_dd_rest takes ln base in dd and r = base^(-2/dims)
 * (three dd exps), each later one a dd exp at the first pair of each block
 * of PN_FREQ_BLOCK = 256 and one dd multiplication per pair after it:
 * w_i = exp_dd(-2b·ln base/dims)·r^(i-b), b = i rounded down to a multiple
 * of 256 (a pair asked out of order starts again at its b, so every w_i
 * has the same bits whatever order the pairs are asked in). Relative error
 * within about 1e-29 (255 dd products at most after a dd exp; measured:
 * 5.0e-31 for tests/c/test_angles.c's pairs) where w_i is a normal number.
 * A dd exp costs about 1 µs in the wasm builds, a step about 10 ns: with
 * blocks of 64 a call with 4096 pairs near 2^31 spent 64 µs on exps. */
#define PN_FREQ_BLOCK 256 /* pairs per dd exp */
typedef struct {
  double base;
  int32_t dims;
  int32_t i;  /* the last pair asked; -2 before the first, -1 once set up */
  pn_dd x2;   /* -2·ln(base)/dims */
  pn_dd step; /* base^(-2/dims) */
  pn_dd w;    /* w_i of the last pair asked */
} pn_freq_dd;

PN_INLINE void pn_freq_dd_prepare(pn_freq_dd *f, double base, int32_t dims) {
  f->base = base;
  f->dims = dims;
  f->i = -2;
}

/* w_i in dd (f->w, until the next call). base > 1, finite; dims >= 1. */
const pn_dd *pn_freq_dd_w(pn_freq_dd *f, int32_t i);

/* The rest of a float64 frequency w (within a few ulps of its exact value
 * v) in double-double: v - w rounded to float64 ((v.hi - w) + v.lo, the
 * subtraction exact), so that w + rest is v within about 2^-53 of the rest.
 * v = w_i (pn_freq_dd_w), or with k != NULL the scaled frequency
 * w_i·(a/k[1] + 1 - a) of rope_scaling.c (its formulas with w_i factored
 * out), a = k[0] + k[2] a dd in [0, 1], that product in dd (0 where that
 * dd overflows: a quotient a/k[1] past 2^996). */
double pn_freq_dd_rest(pn_freq_dd *f, int32_t i, double w, const double *k);

/* dd arithmetic (pn_math.c), results through r (which may be a): a + b,
 * a·b and a/b for b = bh + bl, within about 2^-104 relative (the sum: of
 * |a| + |b|); ln x for x > 0 finite, within about 1e-31 absolute. */
void pn_dd_add(pn_dd *r, const pn_dd *a, double bh, double bl);
void pn_dd_mul(pn_dd *r, const pn_dd *a, double bh, double bl);
void pn_dd_div(pn_dd *r, const pn_dd *a, double bh, double bl);
void pn_log_dd(pn_dd *r, double x);

/* pn_sincos_pw's angles from 2^20 on, t = p * w (below). */
void pn_sincos_dd(double p, double w, double w_lo, double t, double *s, double *c);

/* sin and cos of the angle p·w_i, with w = w_i rounded to float64 and
 * *w_lo its rest (pn_freq_dd_rest):
 * - |p·w| < 2^20: exactly pn_sincos(p * w), the same bits as before the dd
 *   angles (*w_lo is not read: a caller computes it only for the pairs
 *   whose largest |p|·w reaches 2^20, and may leave the others unset);
 * - 2^20 <= |p·w| < 2^41 (pn_sincos_dd): θ = p·(w + w_lo) as a dd (θ_hi,
 *   θ_lo), |θ_lo| <= ulp(θ_hi)/2, from Dekker's exact p·w; then with
 *   pn_sincos(θ_hi), s_l = θ_lo - θ_lo³/6 (sin θ_lo) and h_l = θ_lo²/2
 *   (1 - cos θ_lo):
 *     sin θ = sin θ_hi + (cos θ_hi·s_l - sin θ_hi·h_l)
 *     cos θ = cos θ_hi - (sin θ_hi·s_l + cos θ_hi·h_l),
 *   within about 2e-16 of sin and cos of the exact p·(w + w_lo) (libm's
 *   ulp, one rounding, θ_lo⁴/24 <= 2^-52/24);
 * - |p·w| >= 2^41 (no PE or RoPE frequency reaches it below position 2^31,
 *   only a scaled one above 1024, and there θ_lo's polynomials would not
 *   do): the same dd angle, and sin θ = sin θ_hi·cos θ_lo + cos θ_hi·sin
 *   θ_lo, cos θ = cos θ_hi·cos θ_lo − sin θ_hi·sin θ_lo (two pn_sincos);
 * - NaN or ±Inf: pn_sincos(p * w), as before.
 * One pn_sincos per angle below 2^41, as before. Inline, and libm's sincos called
 * from pn_sincos alone: the linker's wasm-opt then inlines sincos into
 * pn_sincos, as it did before the dd angles (a second caller of sincos
 * cost RoPE with ids 10 % at positions below 2^20). */
PN_INLINE void pn_sincos_pw(double p, double w, const double *w_lo, double *s,
                            double *c) {
  const double t = p * w;
  if (fabs(t) < 0x1p20)
    pn_sincos(t, s, c);
  else
    pn_sincos_dd(p, w, *w_lo, t, s, c);
}

#endif /* PN_MATH_H */
