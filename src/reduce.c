/* reduce.c — the accurate row sums behind LayerNorm and RMSNorm, and the
 * copy kernel that stands for memory bandwidth in the benchmarks. */
#include "pn_internal.h"
#include "pn_simd.h"

double pn_sum_f32(const float *x, int32_t n) {
  pn_f64x2 acc = pn_f64x2_splat(0.0);
  int32_t j = 0;
  for (; j + 16 <= n; j += 16) {
    pn_f32x4 a = pn_f32x4_add(pn_f32x4_load(x + j), pn_f32x4_load(x + j + 4));
    pn_f32x4 b = pn_f32x4_add(pn_f32x4_load(x + j + 8), pn_f32x4_load(x + j + 12));
    pn_f32x4 s = pn_f32x4_add(a, b);
    acc = pn_f64x2_add(acc, pn_f64x2_add(pn_f64x2_from_lo(s), pn_f64x2_from_hi(s)));
  }
  for (; j + 4 <= n; j += 4) {
    pn_f32x4 s = pn_f32x4_load(x + j);
    acc = pn_f64x2_add(acc, pn_f64x2_add(pn_f64x2_from_lo(s), pn_f64x2_from_hi(s)));
  }
  double tail = 0.0;
  for (; j < n; j++) tail += (double)x[j];
  return (pn_f64x2_lo(acc) + pn_f64x2_hi(acc)) + tail;
}

/* Folds a float32 accumulator into a float64 one. */
static inline pn_f64x2 fold(pn_f64x2 acc, pn_f32x4 a) {
  return pn_f64x2_add(acc, pn_f64x2_add(pn_f64x2_from_lo(a), pn_f64x2_from_hi(a)));
}

void pn_shifted_sums_f32(const float *x, int32_t n, float shift, double *sum,
                         double *sumsq) {
  const pn_f32x4 k = pn_f32x4_splat(shift);
  const pn_f32x4 zero = pn_f32x4_splat(0.0f);
  pn_f64x2 s64 = pn_f64x2_splat(0.0), q64 = pn_f64x2_splat(0.0);
  int32_t j = 0;
  while (j + 4 <= n) {
    pn_f32x4 s0 = zero, s1 = zero, q0 = zero, q1 = zero;
    const int32_t end = (n - j) >= 64 ? j + 64 : j + ((n - j) & ~3);
    for (; j + 8 <= end; j += 8) {
      pn_f32x4 d0 = pn_f32x4_sub(pn_f32x4_load(x + j), k);
      pn_f32x4 d1 = pn_f32x4_sub(pn_f32x4_load(x + j + 4), k);
      s0 = pn_f32x4_add(s0, d0);
      s1 = pn_f32x4_add(s1, d1);
      q0 = pn_f32x4_add(q0, pn_f32x4_mul(d0, d0));
      q1 = pn_f32x4_add(q1, pn_f32x4_mul(d1, d1));
    }
    if (j + 4 <= end) {
      pn_f32x4 d0 = pn_f32x4_sub(pn_f32x4_load(x + j), k);
      s0 = pn_f32x4_add(s0, d0);
      q0 = pn_f32x4_add(q0, pn_f32x4_mul(d0, d0));
      j += 4;
    }
    s64 = fold(fold(s64, s0), s1);
    q64 = fold(fold(q64, q0), q1);
  }
  double ts = 0.0, tq = 0.0;
  for (; j < n; j++) {
    const float d = x[j] - shift;
    ts += (double)d;
    tq += (double)(d * d);
  }
  *sum = (pn_f64x2_lo(s64) + pn_f64x2_hi(s64)) + ts;
  *sumsq = (pn_f64x2_lo(q64) + pn_f64x2_hi(q64)) + tq;
}

int pn_copy_f32(float *dst, const float *src, int32_t n) {
  if (!dst || !src) return PN_ERR_NULL;
  if (n < 1 || n > PN_MAX_ELEMENTS) return PN_ERR_SIZE;
  int32_t j = 0;
  for (; j + 16 <= n; j += 16) {
    pn_f32x4 a = pn_f32x4_load(src + j), b = pn_f32x4_load(src + j + 4);
    pn_f32x4 c = pn_f32x4_load(src + j + 8), d = pn_f32x4_load(src + j + 12);
    pn_f32x4_store(dst + j, a);
    pn_f32x4_store(dst + j + 4, b);
    pn_f32x4_store(dst + j + 8, c);
    pn_f32x4_store(dst + j + 12, d);
  }
  for (; j < n; j++) dst[j] = src[j];
  return PN_OK;
}

int pn_version(void) {
  return POSNORM_VERSION_MAJOR * 10000 + POSNORM_VERSION_MINOR * 100 +
         POSNORM_VERSION_PATCH;
}

int pn_simd_enabled(void) {
#if defined(__wasm_simd128__)
  return 1;
#else
  return 0;
#endif
}
