/* pn_sums.h — the blocked row sums of the normalisation kernels, in
 * steps, so a kernel can run them over one row while it writes another
 * (LayerNorm and RMSNorm sum row r+1 in the loop that writes row r, which
 * keeps a read stream and a write stream in flight together, as a copy does).
 *
 * The order of operations is fixed in reduce.c and nowhere else: for a row of n
 * values, blocks of 64 (four float32 accumulators of 4 terms per lane, added
 * pairwise, then folded into float64), then groups of 4 folded one by one,
 * then the last n % 4 values in float64. Every caller that walks a row with
 * these steps in this order gets the same bits as pn_shifted_sums_f32.
 */
#ifndef PN_SUMS_H
#define PN_SUMS_H

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

#endif /* PN_SUMS_H */
