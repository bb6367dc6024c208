/* attention.c — single-head self-attention for the order figure. */
#include "pn_internal.h"

void pn_matmul_f64(double *y, const double *x, const float *w, int32_t rows,
                   int32_t n, int32_t m) {
  for (int32_t r = 0; r < rows; r++) {
    double *yr = y + (size_t)r * (size_t)m;
    for (int32_t c = 0; c < m; c++) yr[c] = 0.0;
    for (int32_t k = 0; k < n; k++) {
      const double a = x[(size_t)r * (size_t)n + (size_t)k];
      const float *wk = w + (size_t)k * (size_t)m;
      for (int32_t c = 0; c < m; c++) yr[c] += a * (double)wk[c];
    }
  }
}

int pn_attention_f32(float *out, float *weights, const float *x,
                     const float *wq, const float *wk, const float *wv,
                     int32_t seq_len, int32_t d_model, int32_t d_head) {
  if (!out || !x || !wq || !wk || !wv) return PN_ERR_NULL;
  if (seq_len < 1 || seq_len > 4096 || d_model < 1 || d_model > 4096 ||
      d_head < 1 || d_head > 4096)
    return PN_ERR_SIZE;
  const size_t nq = (size_t)seq_len * (size_t)d_head, nx = (size_t)seq_len * (size_t)d_model;
  /* q, k, v [seq_len × d_head], one row of scores, x in float64:
   * 24·seq_len·d_head + 8·seq_len + 8·seq_len·d_model bytes */
  const size_t values = pn_size_mul_add(nq, 3, pn_size_add((size_t)seq_len, nx));
  const size_t bytes = pn_size_mul(values, sizeof(double));
  if (bytes == PN_SIZE_OVERFLOW) return PN_ERR_SIZE;
  double *q = pn_malloc(bytes);
  if (!q) return PN_ERR_NOMEM;
  double *k = q + nq, *v = k + nq, *a = v + nq, *x64 = a + seq_len;
  for (size_t i = 0; i < nx; i++) x64[i] = (double)x[i];
  pn_matmul_f64(q, x64, wq, seq_len, d_model, d_head);
  pn_matmul_f64(k, x64, wk, seq_len, d_model, d_head);
  pn_matmul_f64(v, x64, wv, seq_len, d_model, d_head);
  const double scale = 1.0 / sqrt((double)d_head);
  for (int32_t i = 0; i < seq_len; i++) {
    const double *qi = q + (size_t)i * (size_t)d_head;
    double top = -INFINITY;
    for (int32_t j = 0; j < seq_len; j++) {
      const double *kj = k + (size_t)j * (size_t)d_head;
      double s = 0.0;
      for (int32_t c = 0; c < d_head; c++) s += qi[c] * kj[c];
      a[j] = s * scale;
      if (a[j] > top) top = a[j];
    }
    double sum = 0.0;
    for (int32_t j = 0; j < seq_len; j++) {
      a[j] = exp(a[j] - top);
      sum += a[j];
    }
    for (int32_t j = 0; j < seq_len; j++) {
      a[j] /= sum;
      if (weights) weights[(size_t)i * (size_t)seq_len + (size_t)j] = (float)a[j];
    }
    float *oi = out + (size_t)i * (size_t)d_head;
    for (int32_t c = 0; c < d_head; c++) {
      double s = 0.0;
      for (int32_t j = 0; j < seq_len; j++) s += a[j] * v[(size_t)j * (size_t)d_head + (size_t)c];
      oi[c] = (float)s;
    }
  }
  pn_free(q);
  return PN_OK;
}
