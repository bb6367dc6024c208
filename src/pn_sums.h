/* pn_sums.h — the blocked row sums of the normalisation kernels (reduce.c),
 * and the statistics taken from them. The sums come in steps, so a kernel
 * can run them over one row while it writes another (LayerNorm and RMSNorm
 * sum row r+1 in the loop that writes row r, norm_rows.c, which keeps a read
 * stream and a write stream in flight together, as a copy does).
 *
 * The order of operations is fixed here and nowhere else: for a row of n
 * values, blocks of PN_SUMS_BLOCK = 128 (steps of 16 values added
 * pairwise into one float32 accumulator per sum, which is folded into
 * float64 once per block), then groups of 4 folded one by one, then the last
 * n % 4 values in float64. Every caller that walks a row with these steps in
 * this order gets the same bits as pn_shifted_sums_f32.
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

/* Folds a float32 accumulator into a float64 one. */
PN_INLINE pn_f64x2 pn_sums_fold(pn_f64x2 acc, pn_f32x4 a) {
  return pn_f64x2_add(acc, pn_f64x2_add(pn_f64x2_from_lo(a), pn_f64x2_from_hi(a)));
}

#define PN_SUMS_BLOCK 128

/* What the steps of a block take (a compile-time constant in each loop):
 *   PN_SUMS_SQUARES   Σx² only, about 0 (RMSNorm);
 *   PN_SUMS_SHIFTED   Σ(x - k) and Σ(x - k)², k the splat shift;
 *   PN_SUMS_UNSHIFTED Σx and Σx², for a shift of exactly +0: x - 0 is x for
 *                     every float32 (-0 included), so these are the bits of
 *                     PN_SUMS_SHIFTED with k = 0, without its subtractions. */
enum { PN_SUMS_SQUARES = 0, PN_SUMS_SHIFTED = 1, PN_SUMS_UNSHIFTED = 2 };

/* One step of a block: 16 values X[0..16) about the splat shift K, as four
 * groups of 4 d0..d3, added pairwise, (d0 + d1) + (d2 + d3), into the
 * block's float32 accumulator *s, and their squares likewise into *q. One
 * accumulator per sum keeps the registers free for the work a kernel
 * interleaves (norm_rows.c); the pairwise step keeps each lane's chain of
 * float32 additions at one per 16 values. MODE is one of the PN_SUMS_
 * constants above; PN_SUMS_SQUARES leaves *s alone. */
PN_INLINE void pn_sums_step(pn_f32x4 *s, pn_f32x4 *q, const float *x,
                            pn_f32x4 k, int mode) {
  pn_f32x4 d[4];
  for (int a = 0; a < 4; a++) {
    d[a] = pn_f32x4_load(x + 4 * a);
    if (mode == PN_SUMS_SHIFTED) d[a] = pn_f32x4_sub(d[a], k);
  }
  *q = pn_f32x4_add(
      *q, pn_f32x4_add(
              pn_f32x4_add(pn_f32x4_mul(d[0], d[0]), pn_f32x4_mul(d[1], d[1])),
              pn_f32x4_add(pn_f32x4_mul(d[2], d[2]), pn_f32x4_mul(d[3], d[3]))));
  if (mode != PN_SUMS_SQUARES)
    *s = pn_f32x4_add(
        *s, pn_f32x4_add(pn_f32x4_add(d[0], d[1]), pn_f32x4_add(d[2], d[3])));
}

/* One block of PN_SUMS_BLOCK values X[0..PN_SUMS_BLOCK) about the splat
 * shift K into the pn_sums ACC, in steps of 16 (pn_sums_step), its float32
 * accumulators (started at -0, which adds exactly: -0 + v is v for every
 * v) then folded into float64 once. After each step ALONGSIDE(t) runs (t =
 * the step's offset, 0, 16, ...), so a kernel can interleave other work of
 * its own (norm_rows.c writes the previous row there) without touching the
 * order of the sums. MODE: a PN_SUMS_ constant; PN_SUMS_SQUARES (RMSNorm)
 * leaves ACC.s alone. */
#define PN_SUMS_BLOCK_STEPS(ACC, X, K, MODE, ALONGSIDE)                        \
  do {                                                                         \
    pn_f32x4 s_ = pn_f32x4_splat(-0.0f), q_ = s_;                              \
    PN_LOOP_NOT_UNROLLED                                                       \
    for (int t_ = 0; t_ < PN_SUMS_BLOCK; t_ += 16) {                           \
      pn_sums_step(&s_, &q_, (X) + t_, (K), (MODE));                           \
      ALONGSIDE(t_);                                                           \
    }                                                                          \
    if ((MODE) != PN_SUMS_SQUARES) (ACC).s = pn_sums_fold((ACC).s, s_);        \
    (ACC).q = pn_sums_fold((ACC).q, q_);                                       \
  } while (0)
#define PN_SUMS_NOTHING_ALONGSIDE(t) ((void)(t))

/* Adds x[0..n) about `shift` to acc; n a multiple of 4: blocks of 128, then
 * groups of 4. Chunks that are multiples of 128, then the rest, give the
 * same bits as one call over the whole row (reduce.c). */
void pn_sums_add(pn_sums *acc, const float *x, int32_t n, float shift);

/* The last n - j (< 4) values, and the totals. */
void pn_sums_finish(const pn_sums *acc, const float *x, int32_t j, int32_t n,
                    float shift, double *sum, double *sumsq);

/* ---- whole rows, and the statistics from their sums ------------------- */

/* *sum = Σ(x - shift), *sumsq = Σ(x - shift)^2, the differences formed in
 * float32, accumulated in float32 over blocks of 128 values (steps of 16 added
 * pairwise, 8 steps per block) and the blocks in float64 (the steps
 * above). */
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

/* 32 values: for normal rows the shift lands within half a standard
 * deviation of the mean unless the first 32 values are 2.8 standard errors
 * off, so about 1 row in 200 takes the second pass (with 8 values, 1 in 6;
 * issue #20). */
#define PN_SHIFT_SAMPLE 32

/* Mean and (biased) variance of x[0..n) for LayerNorm, in one pass over the
 * row for ordinary rows: the sums are taken about a provisional shift
 * (pn_provisional_shift: the mean of the first PN_SHIFT_SAMPLE values, rounded to float32,
 * exact for a constant row; norm_rows.c takes 0 instead, summing without
 * subtractions, PN_SUMS_UNSHIFTED, when the row before had its mean within
 * a quarter of its standard deviation of 0) and corrected by their mean; when that shift
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
