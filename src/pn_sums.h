/* pn_sums.h — the blocked row sums of the normalisation kernels (reduce.c),
 * and the statistics taken from them. The sums come in steps, so a kernel
 * can run them over one row while it writes another (LayerNorm and RMSNorm
 * sum row r+1 in the loop that writes row r, norm_rows.c, which keeps a read
 * stream and a write stream in flight together, as a copy does).
 *
 * The order of operations is fixed in reduce.c and nowhere else: for a row of n
 * values, blocks of 64 (four float32 accumulators of 4 terms per lane, added
 * pairwise, then folded into float64), then groups of 4 folded one by one,
 * then the last n % 4 values in float64. Every caller that walks a row with
 * these steps in this order gets the same bits as pn_shifted_sums_f32.
 */
#ifndef PN_SUMS_H
#define PN_SUMS_H

#include <math.h>

#include "pn_simd.h"

/* float64 accumulators of Σ(x - shift) and Σ(x - shift)^2 */
typedef struct {
  pn_f64x2 s, q;
} pn_sums;

PN_INLINE pn_sums pn_sums_zero(void) {
  pn_sums a = {pn_f64x2_splat(0.0), pn_f64x2_splat(0.0)};
  return a;
}

/* Adds x[0..n) about `shift` to acc; n a multiple of 4: blocks of 64, then
 * groups of 4. Chunks that are multiples of 64, then the rest, give the
 * same bits as one call over the whole row (reduce.c). */
void pn_sums_add(pn_sums *acc, const float *x, int32_t n, float shift);

/* The last n - j (< 4) values, and the totals. */
void pn_sums_finish(const pn_sums *acc, const float *x, int32_t j, int32_t n,
                    float shift, double *sum, double *sumsq);

/* ---- whole rows, and the statistics from their sums ------------------- */

/* *sum = Σ(x - shift), *sumsq = Σ(x - shift)^2, the differences formed in
 * float32, accumulated in float32 over blocks of 64 values (four
 * accumulators of 4 terms per lane, added pairwise) and the blocks in
 * float64 (the steps above). */
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
 * took them, with the steps above) and runs the second pass when it is needed. */
float pn_provisional_shift(const float *x, int32_t n);
int pn_moments_finish(const float *x, int32_t n, float shift, double sd,
                      double sq, double *mean, double *var);

#endif /* PN_SUMS_H */
