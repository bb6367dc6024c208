/* pn_internal.h — helpers shared by the kernel files; not part of the API. */
#ifndef PN_INTERNAL_H
#define PN_INTERNAL_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "posnorm.h"

/* Rows between exact re-anchoring of the PE rotation (see pe.c). */
#define PN_PE_ANCHOR 1024

/* π in float64 (M_PI is not C11). */
#define PN_PI 3.14159265358979323846

/* 2^31: the largest position any kernel accepts. */
#define PN_POS_LIMIT 2147483648.0

/* Element count of a [a × b] tensor, or -1 if a or b < 1 or it exceeds
 * PN_MAX_ELEMENTS. */
static inline int64_t pn_count2(int32_t a, int32_t b) {
  if (a < 1 || b < 1) return -1;
  int64_t n = (int64_t)a * (int64_t)b;
  return n > PN_MAX_ELEMENTS ? -1 : n;
}

/* Natural log of a finite x > 0 from IEEE + - * / only (random.c): keeps
 * libm's log and pow, and their tables, out of the wasm. Within 2 ulp. */
double pn_log(double x);

/* Frequency of pair i for an encoding of `dims` dimensions:
 * base^(-2i/dims) = exp(-2i/dims · ln base), in float64, given
 * log_base = pn_log(base) (taken once per call, not once per pair). Shared
 * by PE and RoPE so both agree. */
static inline double pn_pe_frequency(double log_base, int32_t i, int32_t dims) {
  return exp(-2.0 * (double)i / (double)dims * log_base);
}

/* Writes sin/cos(p·w_i) for i in [0, n_pairs) at one position into
 * sin_out[i], cos_out[i], float64 libm, rounded once. Defined in pe.c;
 * used by RoPE for explicit position ids. */
void pn_pe_sincos_row(float *sin_out, float *cos_out, double pos,
                      int32_t n_pairs, int32_t dims, double base);

/* Fills rows [0, rows) of a [rows × n_pairs] pair of tables with
 * sin/cos((offset + r)·w_i), same method as pn_pe_sinusoidal_f32. */
void pn_pe_sincos_table(float *sin_out, float *cos_out, int32_t rows,
                        int32_t n_pairs, int32_t dims, double base,
                        double offset);

/* Row reductions (reduce.c), shared by the normalisation kernels. */

/* Sum of x[0..n) in float64. float32 values are added four at a time in
 * pairs ((x0+x1)+(x2+x3) per lane), which is exact for a constant row, and
 * every such partial sum is accumulated in float64. */
double pn_sum_f32(const float *x, int32_t n);

/* *sum = Σ(x - shift), *sumsq = Σ(x - shift)^2, the differences formed in
 * float32, accumulated in float32 over blocks of 64 values (four
 * accumulators of 4 terms per lane, added pairwise) and the blocks in
 * float64. */
void pn_shifted_sums_f32(const float *x, int32_t n, float shift, double *sum,
                         double *sumsq);

/* Whether the float32 block sums of a row (pn_sum_f32 → mean, then
 * pn_shifted_sums_f32 → sd, sq) can be trusted: all finite (no float32 block
 * overflowed, which also catches NaN and ±Inf in the row), and the mean
 * square not so small that float32 squares lost precision to underflow
 * (each square below 2^-126 is a denormal with an absolute error up to
 * 2^-150, so n of them are negligible only when sq >= n·2^-100). Rows that
 * fail are redone in float64 by the kernel; ordinary rows pay two compares. */
static inline int pn_sums_trustworthy(double mean, double sd, double sq,
                                      int32_t n) {
  return isfinite(mean) && isfinite(sd) && isfinite(sq) &&
         sq >= (double)n * 0x1p-100;
}

#endif
