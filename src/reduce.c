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
  pn_f64x2 s64 = pn_f64x2_splat(0.0), q64 = pn_f64x2_splat(0.0);
  int32_t j = 0;
  /* blocks of 64: four float32 accumulators per sum, 4 terms each */
  for (; j + 64 <= n; j += 64) {
    pn_f32x4 s[4], q[4];
    for (int a = 0; a < 4; a++) {
      s[a] = pn_f32x4_sub(pn_f32x4_load(x + j + 4 * a), k);
      q[a] = pn_f32x4_mul(s[a], s[a]);
    }
    for (int t = 16; t < 64; t += 16) {
      for (int a = 0; a < 4; a++) {
        const pn_f32x4 d = pn_f32x4_sub(pn_f32x4_load(x + j + t + 4 * a), k);
        s[a] = pn_f32x4_add(s[a], d);
        q[a] = pn_f32x4_add(q[a], pn_f32x4_mul(d, d));
      }
    }
    s64 = fold(s64, pn_f32x4_add(pn_f32x4_add(s[0], s[1]), pn_f32x4_add(s[2], s[3])));
    q64 = fold(q64, pn_f32x4_add(pn_f32x4_add(q[0], q[1]), pn_f32x4_add(q[2], q[3])));
  }
  for (; j + 4 <= n; j += 4) {
    const pn_f32x4 d = pn_f32x4_sub(pn_f32x4_load(x + j), k);
    s64 = fold(s64, d);
    q64 = fold(q64, pn_f32x4_mul(d, d));
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
