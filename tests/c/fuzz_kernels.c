/* fuzz_kernels.c — libFuzzer driver: every kernel with sizes, parameters and
 * data taken from the fuzzer's bytes, under AddressSanitizer and UBSan.
 * Checks that no call reads or writes outside its buffers, that invalid
 * arguments are refused with an error code, and a few invariants:
 * LayerNorm of finite data with eps > 0 is finite, histogram counts add up.
 *   build: ./build.sh fuzz     run: build/native/fuzz_kernels -runs=100000 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "posnorm.h"

typedef struct { const uint8_t *p; size_t n; } bytes;

static uint32_t take_u32(bytes *b) {
  uint32_t v = 0;
  for (int k = 0; k < 4; k++) {
    v = (v << 8) | (b->n ? *b->p : 0);
    if (b->n) { b->p++; b->n--; }
  }
  return v;
}
/* an int in [lo, hi], sometimes just outside, to reach the error paths */
static int32_t take_int(bytes *b, int32_t lo, int32_t hi) {
  const uint32_t v = take_u32(b);
  if ((v & 31) == 0) return (v & 32) ? lo - 1 : hi + 1;
  return lo + (int32_t)((v >> 6) % (uint32_t)(hi - lo + 1));
}
static float take_float(bytes *b) {
  const uint32_t v = take_u32(b);
  float f;
  memcpy(&f, &v, 4);
  return f;
}

#define TRAP(cond) do { if (!(cond)) abort(); } while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  bytes b = {data, size};
  const int which = (int)(take_u32(&b) % 9);
  const int32_t rows = take_int(&b, 1, 16), cols = take_int(&b, 1, 70);
  const size_t n = (size_t)(rows > 0 ? rows : 1) * (size_t)(cols > 0 ? cols : 1);
  float *x = malloc(n * sizeof(float)), *y = malloc(n * sizeof(float));
  float *g = malloc(80 * sizeof(float)), *st = malloc(80 * sizeof(float));
  for (size_t k = 0; k < n; k++) x[k] = take_float(&b);
  for (int k = 0; k < 80; k++) g[k] = (float)((int)(take_u32(&b) % 2001) - 1000) / 250.0f;
  const float eps = take_float(&b);
  int all_finite = 1;
  for (size_t k = 0; k < n; k++) all_finite &= isfinite(x[k]) && fabsf(x[k]) < 1e18f;
  int rc;
  switch (which) {
  case 0:
    rc = pn_layernorm_f32(y, st, st + 16, x, g, g, rows, cols, eps);
    if (rc == PN_OK && all_finite && eps > 1e-6f && eps < 1e6f)
      for (size_t k = 0; k < n; k++) TRAP(isfinite(y[k]));
    break;
  case 1: rc = pn_rmsnorm_f32(y, st, x, g, rows, cols, eps); break;
  case 2: rc = pn_batchnorm_train_f32(y, st, st + 70, NULL, NULL, x, g, NULL, rows, cols > 5 ? 5 : cols, eps, 0.5f); break;
  case 3: rc = pn_pe_sinusoidal_f32(y, rows, cols, 1.0 + fabs((double)take_float(&b)), take_int(&b, 0, 1 << 20), take_int(&b, 0, 1)); break;
  case 4: {
    const int32_t hd = cols, rd = take_int(&b, 2, hd > 2 ? hd : 2);
    rc = pn_rope_f32(y, x, NULL, 1, rows, 1, hd, rd, 10000.0, take_int(&b, 0, 1000), take_int(&b, 0, 1), take_int(&b, 0, 1));
    break;
  }
  case 5: {
    uint32_t counts[65], extra[3]; // take_int may give 65 (valid for the kernel)
    const int32_t bins = take_int(&b, 1, 64);
    rc = pn_histogram_f32(counts, extra, x, (int32_t)n, bins, -1.0f, 1.0f);
    if (rc == PN_OK) {
      uint64_t sum = (uint64_t)extra[0] + extra[1] + extra[2];
      for (int32_t k = 0; k < bins; k++) sum += counts[k];
      TRAP(sum == n);
    }
    break;
  }
  case 6: {
    uint8_t *px = malloc(n * 4);
    rc = pn_colormap_rgba8(px, x, (int32_t)n, -1.0f, take_float(&b), take_int(&b, 0, 1));
    free(px);
    break;
  }
  case 7: {
    const int32_t d = cols > 8 ? 8 : cols, s = (int32_t)(n / (size_t)(d > 0 ? d : 1)) > 8 ? 8 : (int32_t)(n / (size_t)(d > 0 ? d : 1));
    float w[64], out[64];
    for (int k = 0; k < 64; k++) w[k] = g[k];
    rc = pn_attention_f32(out, NULL, x, w, w, w, s, d, d);
    break;
  }
  default: rc = pn_layernorm_steps_f32(y, y, y, st, x, NULL, NULL, (int32_t)(n > 80 ? 80 : n), eps); break;
  }
  TRAP(rc <= 0 && rc >= PN_ERR_NOMEM);
  free(x); free(y); free(g); free(st);
  return 0;
}
