/* pe_props.c — the kernels behind the "four properties" figure: dot
 * products between positions, the closest pair of positions, and the
 * relative-position rotation PE(p) -> PE(p + k). */
#include "pn_internal.h"
#include "pn_math.h"
#include "posnorm_figures.h"

_Static_assert(PN_MAX_WORK == (UINT64_C(1) << 32), "pn_work_fits (pn_internal.h) holds PN_MAX_WORK");

int pn_gram_f32(float *out, const float *x, int32_t rows, int32_t cols) {
  if (!out || !x) return PN_ERR_NULL;
  if (rows < 1 || rows > 8192 || !pn_count2(rows, cols)) return PN_ERR_SIZE; /* out: rows² <= 2^26 */
  if (!pn_work_fits((uint64_t)rows * (uint64_t)(rows + 1) / 2, (uint64_t)cols, 1)) return PN_ERR_SIZE;
  for (int32_t i = 0; i < rows; i++) {
    const float *xi = x + (size_t)i * (size_t)cols;
    for (int32_t j = 0; j <= i; j++) {
      const float *xj = x + (size_t)j * (size_t)cols;
      double s = 0.0;
      for (int32_t c = 0; c < cols; c++) s += (double)xi[c] * (double)xj[c];
      out[(size_t)i * (size_t)rows + (size_t)j] = (float)s;
      out[(size_t)j * (size_t)rows + (size_t)i] = (float)s;
    }
  }
  return PN_OK;
}

int pn_min_row_distance_f32(float *distance, int32_t *pair, const float *x,
                            int32_t rows, int32_t cols) {
  if (!distance || !pair || !x) return PN_ERR_NULL;
  if (rows < 2 || rows > 8192 || !pn_count2(rows, cols)) return PN_ERR_SIZE;
  if (!pn_work_fits((uint64_t)rows * (uint64_t)(rows - 1) / 2, (uint64_t)cols, 1)) return PN_ERR_SIZE;
  double best = INFINITY;
  int32_t bi = 0, bj = 1;
  for (int32_t i = 0; i < rows; i++) {
    const float *xi = x + (size_t)i * (size_t)cols;
    for (int32_t j = i + 1; j < rows; j++) {
      const float *xj = x + (size_t)j * (size_t)cols;
      double s = 0.0;
      for (int32_t c = 0; c < cols && s < best; c++) {
        const double d = (double)xi[c] - (double)xj[c];
        s += d * d;
      }
      if (s < best) {
        best = s;
        bi = i;
        bj = j;
      }
    }
  }
  *distance = (float)sqrt(best);
  pair[0] = bi;
  pair[1] = bj;
  return PN_OK;
}

int pn_pe_shift_f32(float *out, const float *pe_row, int32_t d_model,
                    double base, int32_t k) {
  if (!out || !pe_row) return PN_ERR_NULL;
  if (d_model < 2 || !pn_count2(d_model, 1)) return PN_ERR_SIZE;
  if ((d_model & 1) || !isfinite(base) || !(base > 1.0) || k == INT32_MIN) /* |k| < 2^31 */
    return PN_ERR_ARG;
  const double log_base = pn_log(base);
  for (int32_t i = 0; i < d_model / 2; i++) {
    const double a = (double)k * pn_pe_frequency(log_base, i, d_model);
    const double c = cos(a), s = sin(a);
    const double ps = (double)pe_row[2 * i], pc = (double)pe_row[2 * i + 1];
    out[2 * i] = (float)(ps * c + pc * s);
    out[2 * i + 1] = (float)(pc * c - ps * s);
  }
  return PN_OK;
}
