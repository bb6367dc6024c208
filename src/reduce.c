/* reduce.c — the accurate row sums behind LayerNorm and RMSNorm, and the
 * statistics taken from them (pn_sums.h). */
#include "pn_internal.h"
#include "pn_simd.h"
#include "pn_sums.h"

/* pn_sums_add and pn_shifted_sums_f32 stay out of line even within this
 * file: inlined into pn_shifted_sums_f32 and pn_moments_finish (whose
 * second pass runs for about one row in 200) they cost the SIMD wasm 920
 * bytes of its 44 KB budget, for a call per row (two for a row that takes
 * that second pass; LayerNorm 512×768 unchanged within the noise, side by
 * side). */
__attribute__((noinline)) void pn_sums_add(pn_sums *acc, const float *x,
                                           int32_t n, float shift) {
  const pn_f32x4 k = pn_f32x4_splat(shift);
  pn_sums a = *acc;
  int32_t j = 0;
  for (; j + PN_SUMS_BLOCK <= n; j += PN_SUMS_BLOCK)
    PN_SUMS_BLOCK_STEPS(a, x + j, k, PN_SUMS_SHIFTED, PN_SUMS_NOTHING_ALONGSIDE);
  pn_f64x2 s64 = a.s, q64 = a.q;
  PN_LOOP_AS_WRITTEN
  for (; j + 4 <= n; j += 4) {
    const pn_f32x4 d = pn_f32x4_sub(pn_f32x4_load(x + j), k);
    s64 = pn_sums_fold(s64, d);
    q64 = pn_sums_fold(q64, pn_f32x4_mul(d, d));
  }
  acc->s = s64;
  acc->q = q64;
}

void pn_sums_finish(const pn_sums *acc, const float *x, int32_t j, int32_t n,
                    float shift, double *sum, double *sumsq) {
  double ts = 0.0, tq = 0.0;
  PN_LOOP_AS_WRITTEN
  for (; j < n; j++) {
    const float d = x[j] - shift;
    ts += (double)d;
    tq += (double)(d * d);
  }
  *sum = (pn_f64x2_lo(acc->s) + pn_f64x2_hi(acc->s)) + ts;
  *sumsq = (pn_f64x2_lo(acc->q) + pn_f64x2_hi(acc->q)) + tq;
}

__attribute__((noinline)) void pn_shifted_sums_f32(const float *x, int32_t n,
                                                   float shift, double *sum,
                                                   double *sumsq) {
  pn_sums acc = pn_sums_zero();
  const int32_t n4 = n & ~3;
  pn_sums_add(&acc, x, n4, shift);
  pn_sums_finish(&acc, x, n4, n, shift, sum, sumsq);
}

float pn_provisional_shift(const float *x, int32_t n) {
  const int32_t k = n < PN_SHIFT_SAMPLE ? n : PN_SHIFT_SAMPLE;
  /* four chains, each exact for a constant row (h[0] takes up to 10
   * float32 terms of one value, the others 8: such sums are exact in
   * float64), so the shift of a constant row is its value */
  double h[4] = {0.0, 0.0, 0.0, 0.0};
  int32_t j = 0;
  PN_LOOP_AS_WRITTEN
  for (; j + 4 <= k; j += 4)
    for (int a = 0; a < 4; a++) h[a] += (double)x[j + a];
  PN_LOOP_AS_WRITTEN
  for (; j < k; j++) h[0] += (double)x[j];
  return (float)(((h[0] + h[1]) + (h[2] + h[3])) / (double)k);
}

int pn_moments_finish(const float *x, int32_t n, float shift, double sd,
                      double sq, double *mean, double *var) {
  const double dn = (double)n;
  for (int pass = 0;; pass++) {
    if (!pn_sums_trustworthy((double)shift, sd, sq, n)) return 0;
    const double c = sd / dn;
    const double v = sq / dn - c * c;
    /* the shift was within half a standard deviation of the mean (or this is
     * the second pass, about the float32 mean itself): the float32 sums lost
     * at most a factor 1.25 of their precision to the shift */
    if (pass == 1 || c * c <= 0.25 * v) {
      *mean = (double)shift + c;
      *var = v < 0.0 ? 0.0 : v;
      return 1;
    }
    shift = (float)((double)shift + c);
    pn_shifted_sums_f32(x, n, shift, &sd, &sq);
  }
}
