/* copy.c — dst = src: the memory-bandwidth yardstick of the benchmarks, the
 * loads and stores no kernel can avoid, in the same SIMD layer. */
#include "pn_internal.h"
#include "pn_simd.h"

int pn_copy_f32(float *dst, const float *src, int32_t n) {
  if (!dst || !src) return PN_ERR_NULL;
  if (!pn_count2(n, 1)) return PN_ERR_SIZE;
  int32_t j = 0;
  for (; j + 16 <= n; j += 16) {
    pn_f32x4 a = pn_f32x4_load(src + j), b = pn_f32x4_load(src + j + 4);
    pn_f32x4 c = pn_f32x4_load(src + j + 8), d = pn_f32x4_load(src + j + 12);
    pn_f32x4_store(dst + j, a);
    pn_f32x4_store(dst + j + 4, b);
    pn_f32x4_store(dst + j + 8, c);
    pn_f32x4_store(dst + j + 12, d);
  }
  PN_LOOP_AS_WRITTEN
  for (; j < n; j++) dst[j] = src[j];
  return PN_OK;
}
