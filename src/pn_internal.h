/* pn_internal.h — helpers shared by the kernel files; not part of the API. */
#ifndef PN_INTERNAL_H
#define PN_INTERNAL_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "pn_alloc.h"
#include "posnorm.h"

/* Rows between exact re-anchoring of the PE rotation (see pe.c). */
#define PN_PE_ANCHOR 1024

/* 2^31: the largest position any kernel accepts. */
#define PN_POS_LIMIT 2147483648.0

/* Checked sizes. Every allocation size and every element-count bound is
 * computed with pn_size_mul_add, in the target's size_t (32 bits on
 * wasm32): a result that does not fit saturates to PN_SIZE_OVERFLOW
 * (SIZE_MAX) and stays there through every later product and sum, so a
 * kernel checks once, at the end, and nothing wraps. */
#define PN_SIZE_OVERFLOW SIZE_MAX

/* a·b + c in size_t, or PN_SIZE_OVERFLOW if any operand is
 * PN_SIZE_OVERFLOW or the result does not fit. */
static inline size_t pn_size_mul_add(size_t a, size_t b, size_t c) {
  size_t ab, r;
  if (a == PN_SIZE_OVERFLOW || b == PN_SIZE_OVERFLOW || c == PN_SIZE_OVERFLOW ||
      __builtin_mul_overflow(a, b, &ab) || __builtin_add_overflow(ab, c, &r))
    return PN_SIZE_OVERFLOW;
  return r;
}

/* a·b and a + b through pn_size_mul_add. */
static inline size_t pn_size_mul(size_t a, size_t b) { return pn_size_mul_add(a, b, 0); }
static inline size_t pn_size_add(size_t a, size_t b) { return pn_size_mul_add(a, 1, b); }

/* An int32 size as a size_t factor: itself when >= 1, else
 * PN_SIZE_OVERFLOW (so a product with a size < 1 never fits). */
static inline size_t pn_size(int32_t a) {
  return a >= 1 ? (size_t)a : PN_SIZE_OVERFLOW;
}

/* Whether n is the element count of a tensor: 1 <= n <= PN_MAX_ELEMENTS. */
static inline int pn_fits(size_t n) {
  return n >= 1 && n <= (size_t)PN_MAX_ELEMENTS;
}

/* Element count of a [a × b] tensor, or 0 if a or b < 1 or a·b exceeds
 * PN_MAX_ELEMENTS. */
static inline size_t pn_count2(int32_t a, int32_t b) {
  const size_t n = pn_size_mul(pn_size(a), pn_size(b));
  return pn_fits(n) ? n : 0;
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

/* RoPE's shared checks (rope.c, rope_scaling.c). pn_rope_shape_ok: the
 * element count of x, batch·seq_len·heads·head_dim, is a tensor's (else
 * PN_ERR_SIZE). pn_rope_args_ok: rotary_dim even in [2, head_dim],
 * interleaved 0 or 1, layout a pn_rope_layout (else PN_ERR_ARG). */
int pn_rope_shape_ok(int32_t batch, int32_t seq_len, int32_t heads,
                     int32_t head_dim);
int pn_rope_args_ok(int32_t head_dim, int32_t rotary_dim, int32_t interleaved,
                    int32_t layout);

/* Row reductions (reduce.c), shared by the normalisation kernels. */

/* *sum = Σ(x - shift), *sumsq = Σ(x - shift)^2, the differences formed in
 * float32, accumulated in float32 over blocks of 64 values (four
 * accumulators of 4 terms per lane, added pairwise) and the blocks in
 * float64 (the steps are in pn_sums.h). */
void pn_shifted_sums_f32(const float *x, int32_t n, float shift, double *sum,
                         double *sumsq);

/* Whether the float32 block sums of a row (pn_shifted_sums_f32 about a
 * finite shift → sd, sq; `mean` is that shift) can be trusted: all finite (no float32 block
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

/* Mean and (biased) variance of x[0..n) for LayerNorm, in one pass over the
 * row for ordinary rows: the sums are taken about a provisional shift
 * (pn_provisional_shift: the mean of the first 8 values, rounded to float32,
 * exact for a constant row) and corrected by their mean; when that shift
 * turns out to be more than half a standard deviation from the mean, a
 * second pass about the float32 mean itself replaces them. Returns 0
 * (outputs unset) when the float32 sums cannot be trusted (see
 * pn_sums_trustworthy); the caller then redoes the row in float64.
 * pn_moments_finish takes the first pass's sums about `shift` (the caller
 * took them, pn_sums.h) and runs the second pass when it is needed. */
float pn_provisional_shift(const float *x, int32_t n);
int pn_moments_finish(const float *x, int32_t n, float shift, double sd,
                      double sq, double *mean, double *var);

/* The output pass of LayerNorm and RMSNorm (layernorm.c).
 * A span writes y = ((x - hi) - c)·inv·gamma + beta over n values (center:
 * LayerNorm) or y = x·inv·gamma (RMSNorm; hi, c, beta unused), every step in
 * float32, gamma and beta NULL for 1 and 0. pn_norm_span picks the variant.
 * pn_norm_row_and_sums writes one row with `span` in chunks of 256 values
 * while it sums the row `next` about `shift` (pn_sums.h, the same bits as
 * pn_shifted_sums_f32): the read of row r+1 and the write of row r stream
 * together, which brings a large tensor close to the time of a copy. */
typedef void (*pn_norm_span_fn)(float *y, const float *x, const float *gamma,
                                const float *beta, int32_t n, float hi,
                                float c, float inv);
pn_norm_span_fn pn_norm_span(int center, int has_gamma, int has_beta);
void pn_norm_row_and_sums(pn_norm_span_fn span, float *y, const float *x,
                          const float *gamma, const float *beta, int32_t n,
                          float hi, float c, float inv, const float *next,
                          float shift, double *sd, double *sq);

#endif
