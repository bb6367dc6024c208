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

/* π in float64 (M_PI is not C11). */
#define PN_PI 3.14159265358979323846

/* Natural log from IEEE + - * / only. Within a few ulp for every x > 0
 * (4.71 ulp at x = 0.69207969894311427, where e·ln2 and the series cancel,
 * found by an audit against 50-digit arithmetic; 2 ulp was claimed before),
 * subnormals included; -Inf for ±0, +Inf for +Inf, NaN for NaN and x < 0;
 * O(1): no loop over the exponent. */
double pn_log(double x);

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
