/* depth.c — a stack of residual blocks, for the depth-stability figure:
 * how the spread of activations grows, shrinks or stays put with depth
 * with and without normalisation. */
#include <string.h>

#include "pn_f64.h"
#include "pn_internal.h"
#include "pn_simd.h"
#include "posnorm_figures.h"

/* z = (scale·h)·W, h: [rows × n], W: [n × n], float32 (the figure needs shape, not
 * exactness); vectorised over the columns of W. */
static void matmul(float *z, const float *h, const float *w, int32_t rows,
                   int32_t n, float scale) {
  for (int32_t r = 0; r < rows; r++) {
    float *zr = z + (size_t)r * (size_t)n;
    memset(zr, 0, sizeof(float) * (size_t)n);
    for (int32_t k = 0; k < n; k++) {
      const float a = h[(size_t)r * (size_t)n + (size_t)k] * scale;
      const float *wk = w + (size_t)k * (size_t)n;
      const pn_f32x4 va = pn_f32x4_splat(a);
      int32_t c = 0;
      for (; c + 4 <= n; c += 4)
        pn_f32x4_store(zr + c, pn_f32x4_add(pn_f32x4_load(zr + c),
                                            pn_f32x4_mul(va, pn_f32x4_load(wk + c))));
      for (; c < n; c++) zr[c] = zr[c] + a * wk[c];
    }
  }
}

int pn_residual_stack_f32(float *std_out, const float *x0,
                          const float *weights, const float *memory,
                          int32_t layers, int32_t rows, int32_t width,
                          int32_t block, int32_t gelu, float weight_scale) {
  if (!std_out || !x0 || !weights) return PN_ERR_NULL;
  if (layers < 1 || layers > 1024 || rows < 1 || rows > 4096 || width < 1 || width > 4096)
    return PN_ERR_SIZE;
  const size_t n = (size_t)rows * (size_t)width, wsize = (size_t)width * (size_t)width; /* <= 2^24 */
  /* per layer W_l, and C_l after it when there is a memory */
  const size_t per_layer = memory ? 2 : 1;
  if (!pn_fits(pn_size_mul(wsize, pn_size_mul(per_layer, (size_t)layers))) ||
      !pn_work_fits((uint64_t)layers, (uint64_t)wsize, (uint64_t)rows + (memory ? 1 : 0)))
    return PN_ERR_SIZE;
  if (block < PN_BLOCK_PLAIN || block > PN_BLOCK_PRE_RMS || !isfinite(weight_scale) ||
      (gelu != PN_GELU_TANH && gelu != PN_GELU_ERF))
    return PN_ERR_ARG;
  /* x, the branch input h and its product z, [rows × width] each, and the
   * memory branch's row c = m·(s·C_l) [width] */
  const size_t bytes = pn_size_mul(pn_size_mul_add(n, 3, (size_t)width), sizeof(float));
  if (bytes == PN_SIZE_OVERFLOW) return PN_ERR_SIZE;
  float *x = pn_malloc(bytes);
  if (!x) return PN_ERR_NOMEM;
  float *h = x + n, *z = h + n, *c = z + n;
  memcpy(x, x0, sizeof(float) * (size_t)n);
  for (int32_t l = 0; l < layers; l++) {
    const float *w = weights + (size_t)l * per_layer * wsize;
    if (memory) {
      matmul(c, memory, w + wsize, 1, width, weight_scale);
      /* Pre-Norm: the memory branch joins the stream before the norm */
      if (block == PN_BLOCK_PRE_LN || block == PN_BLOCK_PRE_RMS)
        for (size_t k = 0; k < n; k++) x[k] = x[k] + c[k % (size_t)width];
    }
    const float *in = x;
    if (block == PN_BLOCK_PRE_LN) {
      pn_layernorm_f32(h, NULL, NULL, x, NULL, NULL, rows, width, 1e-5f);
      in = h;
    } else if (block == PN_BLOCK_PRE_RMS) {
      pn_rmsnorm_f32(h, NULL, x, NULL, rows, width, 1e-5f);
      in = h;
    }
    matmul(z, in, w, rows, width, weight_scale);
    for (size_t k = 0; k < n; k++) x[k] = x[k] + (float)pn_gelu_f64((double)z[k], gelu);
    if (memory && (block == PN_BLOCK_PLAIN || block == PN_BLOCK_POST_LN))
      for (size_t k = 0; k < n; k++) x[k] = x[k] + c[k % (size_t)width];
    if (block == PN_BLOCK_POST_LN)
      pn_layernorm_f32(x, NULL, NULL, x, NULL, NULL, rows, width, 1e-5f);
    std_out[l] = (float)pn_population_std_f64(pn_values_f32(x, n));
  }
  pn_free(x);
  return PN_OK;
}
