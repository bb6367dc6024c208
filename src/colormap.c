/* colormap.c — float32 values to RGBA8 pixels (see posnorm_figures.h). */
#include <string.h>

#include "colormap_lut.h"
#include "pn_internal.h"
#include "posnorm_figures.h"

static const uint8_t *colormap_table(int32_t map) {
  switch (map) {
  case PN_COLORMAP_DIVERGING: return pn_lut_diverging;
  case PN_COLORMAP_SEQUENTIAL: return pn_lut_sequential;
  default: return NULL;
  }
}

int pn_colormap_rgba8(uint8_t *rgba, const float *x, int32_t n, float vmin,
                      float vmax, int32_t map) {
  if (!rgba || !x) return PN_ERR_NULL;
  if (!pn_count2(n, 1)) return PN_ERR_SIZE; /* 4·n bytes: at most 2^30 */
  const uint8_t *lut = colormap_table(map);
  if (!lut || !isfinite(vmin) || !isfinite(vmax) || !(vmin < vmax))
    return PN_ERR_ARG;
  /* index = floor((x - vmin)·(255/(vmax - vmin)) + 0.5), clamped to [0, 255],
   * in float64 (the scale once per call, not a division per value): vmax - vmin of any two finite floats (up to 6.8e38, down to
   * 1.4e-45) and every quotient stay finite there, so every finite x gets an
   * opaque colour; only NaN is transparent */
  const double lo = (double)vmin, scale = 255.0 / ((double)vmax - lo);
  for (int32_t j = 0; j < n; j++) {
    const double t = ((double)x[j] - lo) * scale + 0.5;
    uint8_t *px = rgba + 4 * (size_t)j;
    if (t != t) {
      memset(px, 0, 4);
      continue;
    }
    const int32_t k = t <= 0.0 ? 0 : t >= 255.0 ? 255 : (int32_t)t;
    memcpy(px, lut + 4 * k, 4);
  }
  return PN_OK;
}

int pn_colormap_lut_rgba8(uint8_t *rgba, int32_t map) {
  if (!rgba) return PN_ERR_NULL;
  const uint8_t *lut = colormap_table(map);
  if (!lut) return PN_ERR_ARG;
  memcpy(rgba, lut, 256 * 4);
  return PN_OK;
}
