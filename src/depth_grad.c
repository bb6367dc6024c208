/* depth_grad.c — the residual stack of depth.c with a loss and its gradient
 * with respect to every weight (backpropagation, float64), for showing how
 * gradients grow or stay level through depth (Xiong et al., 2020). */
#include <math.h>
#include <string.h>

#include "pn_internal.h"


static double gelu64_grad(double z) {
  const double t = 1.0 - 2.0 / (exp(2.0 * PN_GELU_K * (z + PN_GELU_C * z * z * z)) + 1.0);
  return 0.5 * (1.0 + t) + 0.5 * z * (1.0 - t * t) * PN_GELU_K * (1.0 + 3.0 * PN_GELU_C * z * z);
}

void pn_norm_rows_f64(double *y, double *inv, const double *x, int32_t rows,
                      int32_t n, int rms, double eps) {
  for (int32_t r = 0; r < rows; r++) {
    const double *xr = x + (size_t)r * n;
    double m = 0.0, v = 0.0;
    if (!rms) {
      for (int32_t j = 0; j < n; j++) m += xr[j];
      m /= n;
    }
    for (int32_t j = 0; j < n; j++) v += (xr[j] - m) * (xr[j] - m);
    const double k = 1.0 / sqrt(v / n + eps);
    if (inv) inv[r] = k;
    for (int32_t j = 0; j < n; j++) y[(size_t)r * n + j] = (xr[j] - m) * k;
  }
}

/* dx += d norm(x)ᵀ·dy, given y = norm(x) and inv from pn_norm_rows_f64. */
static void norm_rows_back(double *dx, const double *dy, const double *y,
                           const double *inv, int32_t rows, int32_t n, int rms) {
  for (int32_t r = 0; r < rows; r++) {
    const double *dyr = dy + (size_t)r * n, *yr = y + (size_t)r * n;
    double mdy = 0.0, mdyy = 0.0;
    for (int32_t j = 0; j < n; j++) {
      mdy += dyr[j];
      mdyy += dyr[j] * yr[j];
    }
    mdy /= n;
    mdyy /= n;
    for (int32_t j = 0; j < n; j++)
      dx[(size_t)r * n + j] += inv[r] * (dyr[j] - (rms ? 0.0 : mdy) - yr[j] * mdyy);
  }
}

int pn_residual_stack_grad_f32(float *std_out, double *loss, float *grad,
                               float *grad_norm, const float *x0,
                               const float *weights, const float *readout,
                               int32_t layers, int32_t rows, int32_t width,
                               int32_t block, float weight_scale) {
  if (!std_out || !loss || !grad || !grad_norm || !x0 || !weights || !readout) return PN_ERR_NULL;
  if (layers < 1 || layers > 1024 || rows < 1 || rows > 4096 || width < 1 || width > 4096)
    return PN_ERR_SIZE;
  const size_t N = (size_t)rows * (size_t)width, L = (size_t)layers; /* N <= 2^24 */
  const size_t wsize = (size_t)width * (size_t)width;
  if (!pn_fits(pn_size_mul(wsize, L)) || !pn_fits(pn_size_mul(N, L + 1))) return PN_ERR_SIZE;
  if (block < PN_BLOCK_PLAIN || block > PN_BLOCK_PRE_RMS || !isfinite(weight_scale))
    return PN_ERR_ARG;
  /* kept for the backward pass: x_l (L+1), the branch input h_l and z_l (L
   * each), the final norm's output and three work rows, and the per-row
   * inverse spreads of the norms (L+1): 8·(N·(3L + 5) + rows·(L + 1)) bytes,
   * which passes 2^32 for shapes the limits allow (4096 × 4096, 9 layers) */
  const size_t values = pn_size_mul_add(N, 3 * L + 5, pn_size_mul((size_t)rows, L + 1));
  const size_t bytes = pn_size_mul(values, sizeof(double));
  if (bytes == PN_SIZE_OVERFLOW) return PN_ERR_SIZE;
  const int pre = block == PN_BLOCK_PRE_LN || block == PN_BLOCK_PRE_RMS;
  const int rms = block == PN_BLOCK_PRE_RMS;
  double *xs = pn_malloc(bytes);
  if (!xs) return PN_ERR_NOMEM;
  double *hs = xs + N * (L + 1), *zs = hs + N * L, *out = zs + N * L;
  double *dx = out + N, *dh = dx + N, *dbranch = dh + N, *invs = dbranch + N;
  const double s = (double)weight_scale;
  for (size_t k = 0; k < N; k++) xs[k] = (double)x0[k];
  for (size_t l = 0; l < L; l++) {
    const double *x = xs + l * N;
    double *h = hs + l * N, *z = zs + l * N, *next = xs + (l + 1) * N;
    const float *w = weights + l * (size_t)wsize;
    if (pre) pn_norm_rows_f64(h, invs + l * rows, x, rows, width, rms, 1e-5);
    else memcpy(h, x, sizeof(double) * N);
    for (int32_t r = 0; r < rows; r++)
      for (int32_t c = 0; c < width; c++) {
        double acc = 0.0;
        for (int32_t k = 0; k < width; k++) acc += h[(size_t)r * width + k] * (double)w[(size_t)k * width + c];
        z[(size_t)r * width + c] = s * acc;
      }
    for (size_t k = 0; k < N; k++) next[k] = x[k] + pn_gelu_tanh(z[k]);
    /* Post-LN: x_{l+1} = LN(u); the backward pass needs only LN's output and inv */
    if (block == PN_BLOCK_POST_LN) pn_norm_rows_f64(next, invs + l * rows, next, rows, width, 0, 1e-5);
    double m = 0.0, v = 0.0;
    for (size_t k = 0; k < N; k++) m += next[k];
    m /= (double)N;
    for (size_t k = 0; k < N; k++) v += (next[k] - m) * (next[k] - m);
    std_out[l] = (float)sqrt(v / (double)N);
  }
  /* the read-out: after a final norm for the Pre-Norm variants */
  const double *last = xs + L * N;
  double *final_inv = invs + L * rows;
  if (pre) pn_norm_rows_f64(out, final_inv, last, rows, width, rms, 1e-5);
  else memcpy(out, last, sizeof(double) * N);
  double lsum = 0.0;
  for (size_t k = 0; k < N; k++) lsum += (double)readout[k] * out[k];
  *loss = lsum;
  /* backward: dx = dloss/dx_L */
  memset(dx, 0, sizeof(double) * N);
  if (pre) {
    double *dy = dh;
    for (size_t k = 0; k < N; k++) dy[k] = (double)readout[k];
    norm_rows_back(dx, dy, out, final_inv, rows, width, rms);
  } else {
    for (size_t k = 0; k < N; k++) dx[k] = (double)readout[k];
  }
  for (size_t li = L; li-- > 0;) {
    const double *h = hs + li * N, *z = zs + li * N;
    const float *w = weights + li * (size_t)wsize;
    float *g = grad + li * (size_t)wsize;
    double *du = dx;
    if (block == PN_BLOCK_POST_LN) {
      /* x_{l+1} = LN(u), u = x + f(h): du = LNᵀ·dx, with LN's output x_{l+1} */
      double *tmp = dh;
      memset(tmp, 0, sizeof(double) * N);
      norm_rows_back(tmp, dx, xs + (li + 1) * N, invs + li * rows, rows, width, 0);
      memcpy(dx, tmp, sizeof(double) * N);
      du = dx;
    }
    /* dz = du·gelu'(z); dW = s·hᵀ·dz; dh = s·dz·Wᵀ */
    double *dz = dh;
    for (size_t k = 0; k < N; k++) dz[k] = du[k] * gelu64_grad(z[k]);
    double gn = 0.0;
    for (int32_t k = 0; k < width; k++)
      for (int32_t c = 0; c < width; c++) {
        double acc = 0.0;
        for (int32_t r = 0; r < rows; r++) acc += h[(size_t)r * width + k] * dz[(size_t)r * width + c];
        acc *= s;
        g[(size_t)k * width + c] = (float)acc;
        gn += acc * acc;
      }
    grad_norm[li] = (float)sqrt(gn);
    /* the branch's input gradient, into the residual path */
    for (int32_t r = 0; r < rows; r++)
      for (int32_t k = 0; k < width; k++) {
        double acc = 0.0;
        for (int32_t c = 0; c < width; c++) acc += dz[(size_t)r * width + c] * (double)w[(size_t)k * width + c];
        dbranch[(size_t)r * width + k] = s * acc;
      }
    /* dx_l = du (the residual) + the branch's input gradient through the norm */
    if (pre) norm_rows_back(dx, dbranch, h, invs + li * rows, rows, width, rms);
    else for (size_t k = 0; k < N; k++) dx[k] += dbranch[k];
  }
  pn_free(xs);
  return PN_OK;
}
