/* depth_grad.c — the residual stack of depth.c with a loss and its gradient
 * with respect to every weight (backpropagation, float64), for showing how
 * gradients grow or stay level through depth (Xiong et al., 2020). */
#include <string.h>

#include "pn_f64.h"
#include "pn_internal.h"
#include "posnorm_figures.h"

/* One call's shape and its float64 scratch: what the forward pass keeps for
 * the backward pass, and the backward pass's work rows. */
typedef struct {
  const float *weights;
  const float *memory; /* m [width], or NULL (no memory branch) */
  int32_t rows, width, block, gelu;
  size_t N, L, wsize; /* rows·width values, layers, width² */
  size_t per_layer;   /* weights per layer: W_l, then C_l with a memory */
  int pre, rms;       /* a norm in front of each branch; RMSNorm */
  double s;           /* weight_scale */
  double *xs;         /* x_0 .. x_L, [(L + 1) × N] */
  double *hs, *zs;    /* each branch's input h_l and product z_l, [L × N] */
  double *out;        /* what the read-out sees: x_L or its final norm */
  double *dx, *dh, *dbranch; /* work rows, N values each */
  double *invs;       /* the norms' per-row 1/spread, [(L + 1) × rows] */
  double *mrow;       /* with a memory: c = m·(s·C_l), then column sums, [width] */
} grad_stack;

/* W_l, and C_l right after it when there is a memory. */
static const float *layer_weights(const grad_stack *g, size_t l) {
  return g->weights + l * g->per_layer * g->wsize;
}

/* c = m·(s·C_l) [width] into g->mrow: the memory branch, one row that every
 * row of the stream receives. */
static void memory_branch(const grad_stack *g, size_t l) {
  const float *cw = layer_weights(g, l) + g->wsize;
  for (int32_t j = 0; j < g->width; j++) {
    double acc = 0.0;
    for (int32_t k = 0; k < g->width; k++) acc += (double)g->memory[k] * (double)cw[(size_t)k * g->width + j];
    g->mrow[j] = g->s * acc;
  }
}

/* ======================================================================
 * Forward: x_{l+1} = x_l + GELU(s·norm(x_l)·W_l) (or Post-LN of it), and
 * with a memory + c_l (Pre-Norm: added in front of the norm)
 * ====================================================================== */

static void forward(const grad_stack *g, const float *x0, float *std_out) {
  const size_t N = g->N, width = (size_t)g->width;
  for (size_t k = 0; k < N; k++) g->xs[k] = (double)x0[k];
  for (size_t l = 0; l < g->L; l++) {
    const double *x = g->xs + l * N;
    double *h = g->hs + l * N, *z = g->zs + l * N, *next = g->xs + (l + 1) * N;
    double *inv = g->invs + l * (size_t)g->rows;
    if (g->memory) memory_branch(g, l);
    /* the stream the branch reads: x, or x' = x + c for Pre-Norm with a
     * memory (kept in next, which it becomes part of) */
    if (g->pre && g->memory) {
      for (size_t k = 0; k < N; k++) next[k] = x[k] + g->mrow[k % width];
      x = next;
    }
    if (g->pre) pn_norm_rows_f64(h, inv, x, g->rows, g->width, g->rms, 1e-5);
    else memcpy(h, x, sizeof(double) * N);
    pn_matmul_f64(z, h, layer_weights(g, l), g->rows, g->width, g->width);
    for (size_t k = 0; k < N; k++) z[k] = g->s * z[k];
    for (size_t k = 0; k < N; k++) next[k] = x[k] + pn_gelu_f64(z[k], g->gelu);
    if (g->memory && !g->pre)
      for (size_t k = 0; k < N; k++) next[k] += g->mrow[k % width];
    /* Post-LN: x_{l+1} = LN(u); the backward pass needs only LN's output and inv */
    if (g->block == PN_BLOCK_POST_LN) pn_norm_rows_f64(next, inv, next, g->rows, g->width, 0, 1e-5);
    std_out[l] = (float)pn_population_std_f64(pn_values_f64(next, N));
  }
}

/* loss = Σ readout·out, out = x_L after a final norm for the Pre-Norm
 * variants (as real Pre-Norm models end with one). */
static double readout_loss(const grad_stack *g, const float *readout) {
  const double *last = g->xs + g->L * g->N;
  if (g->pre) pn_norm_rows_f64(g->out, g->invs + g->L * (size_t)g->rows, last, g->rows, g->width, g->rms, 1e-5);
  else memcpy(g->out, last, sizeof(double) * g->N);
  double loss = 0.0;
  for (size_t k = 0; k < g->N; k++) loss += (double)readout[k] * g->out[k];
  return loss;
}

/* ======================================================================
 * Backward
 * ====================================================================== */

/* grad = s·hᵀ·dz, written rounded; returns its Frobenius norm (from the
 * float64 values). */
static double weight_grad(float *grad, const double *h, const double *dz,
                          int32_t rows, int32_t width, double s) {
  double gn = 0.0;
  for (int32_t k = 0; k < width; k++)
    for (int32_t c = 0; c < width; c++) {
      double acc = 0.0;
      for (int32_t r = 0; r < rows; r++) acc += h[(size_t)r * width + k] * dz[(size_t)r * width + c];
      acc *= s;
      grad[(size_t)k * width + c] = (float)acc;
      gn += acc * acc;
    }
  return gn;
}

/* dh = s·dz·Wᵀ: the branch's input gradient. */
static void branch_input_grad(double *dh, const double *dz, const float *w,
                              int32_t rows, int32_t width, double s) {
  for (int32_t r = 0; r < rows; r++)
    for (int32_t k = 0; k < width; k++) {
      double acc = 0.0;
      for (int32_t c = 0; c < width; c++) acc += dz[(size_t)r * width + c] * (double)w[(size_t)k * width + c];
      dh[(size_t)r * width + k] = s * acc;
    }
}

/* dx = ∂loss/∂x_L: the read-out, back through the final norm when there is one. */
static void readout_grad(const grad_stack *g, const float *readout) {
  memset(g->dx, 0, sizeof(double) * g->N);
  if (g->pre) {
    double *dy = g->dh;
    for (size_t k = 0; k < g->N; k++) dy[k] = (double)readout[k];
    pn_norm_rows_back_f64(g->dx, dy, g->out, g->invs + g->L * (size_t)g->rows, g->rows, g->width, g->rms);
  } else {
    for (size_t k = 0; k < g->N; k++) g->dx[k] = (double)readout[k];
  }
}

/* ∂loss/∂C_l = s·mᵀ·(Σ_r d_r), d the gradient where c_l joins the stream
 * (every row receives the same c_l), written rounded after W_l's gradient. */
static void memory_grad(const grad_stack *g, size_t l, const double *d, float *grad) {
  float *gc = grad + l * g->per_layer * g->wsize + g->wsize;
  for (int32_t j = 0; j < g->width; j++) {
    double col = 0.0;
    for (int32_t r = 0; r < g->rows; r++) col += d[(size_t)r * g->width + j];
    g->mrow[j] = col;
  }
  for (int32_t k = 0; k < g->width; k++)
    for (int32_t j = 0; j < g->width; j++)
      gc[(size_t)k * g->width + j] = (float)(g->s * (double)g->memory[k] * g->mrow[j]);
}

/* Block l, given dx = ∂loss/∂x_{l+1}: writes ∂loss/∂W_l (and ∂loss/∂C_l)
 * and W_l's gradient norm, and leaves dx = ∂loss/∂x_l. */
static void layer_grad(const grad_stack *g, size_t l, float *grad, float *grad_norm) {
  const size_t N = g->N;
  const double *h = g->hs + l * N, *z = g->zs + l * N;
  const double *inv = g->invs + l * (size_t)g->rows;
  if (g->block == PN_BLOCK_POST_LN) {
    /* x_{l+1} = LN(u), u = x + f(h) (+ c): du = LNᵀ·dx, with LN's output x_{l+1} */
    double *tmp = g->dh;
    memset(tmp, 0, sizeof(double) * N);
    pn_norm_rows_back_f64(tmp, g->dx, g->xs + (l + 1) * N, inv, g->rows, g->width, 0);
    memcpy(g->dx, tmp, sizeof(double) * N);
  }
  /* plain and Post-LN add c_l to u beside the branch: it sees du */
  if (g->memory && !g->pre) memory_grad(g, l, g->dx, grad);
  /* dz = du·gelu'(z); dW = s·hᵀ·dz; dh = s·dz·Wᵀ */
  double *dz = g->dh;
  for (size_t k = 0; k < N; k++) dz[k] = g->dx[k] * pn_gelu_grad_f64(z[k], g->gelu);
  const float *w = layer_weights(g, l);
  grad_norm[l] = (float)sqrt(weight_grad(grad + l * g->per_layer * g->wsize, h, dz, g->rows, g->width, g->s));
  branch_input_grad(g->dbranch, dz, w, g->rows, g->width, g->s);
  /* dx_l = du (the residual) + the branch's input gradient through the norm */
  if (g->pre) pn_norm_rows_back_f64(g->dx, g->dbranch, h, inv, g->rows, g->width, g->rms);
  else for (size_t k = 0; k < N; k++) g->dx[k] += g->dbranch[k];
  /* Pre-Norm adds c_l in front of the norm: dx is now ∂loss/∂x', which c_l
   * sees, and ∂loss/∂x_l is the same */
  if (g->memory && g->pre) memory_grad(g, l, g->dx, grad);
}

/* ======================================================================
 * The kernel
 * ====================================================================== */

int pn_residual_stack_grad_f32(float *std_out, double *loss, float *grad,
                               float *grad_norm, const float *x0,
                               const float *weights, const float *memory,
                               const float *readout, int32_t layers,
                               int32_t rows, int32_t width, int32_t block,
                               int32_t gelu, float weight_scale) {
  if (!std_out || !loss || !grad || !grad_norm || !x0 || !weights || !readout) return PN_ERR_NULL;
  if (layers < 1 || layers > 1024 || rows < 1 || rows > 4096 || width < 1 || width > 4096)
    return PN_ERR_SIZE;
  const size_t N = (size_t)rows * (size_t)width, L = (size_t)layers; /* N <= 2^24 */
  const size_t wsize = (size_t)width * (size_t)width, per_layer = memory ? 2 : 1;
  if (!pn_fits(pn_size_mul(wsize, pn_size_mul(per_layer, L))) || !pn_fits(pn_size_mul(N, L + 1)) ||
      !pn_work_fits(3 * (uint64_t)layers, (uint64_t)wsize, (uint64_t)rows + (memory ? 1 : 0)))
    return PN_ERR_SIZE;
  if (block < PN_BLOCK_PLAIN || block > PN_BLOCK_PRE_RMS || !isfinite(weight_scale) ||
      (gelu != PN_GELU_TANH && gelu != PN_GELU_ERF))
    return PN_ERR_ARG;
  /* kept for the backward pass: x_l (L+1), the branch input h_l and z_l (L
   * each), the final norm's output and three work rows, the per-row
   * inverse spreads of the norms (L+1), and with a memory one row of width:
   * 8·(N·(3L + 5) + rows·(L + 1) (+ width)) bytes, which passes 2^32 for
   * shapes the limits allow (4096 × 4096, 9 layers) */
  const size_t values = pn_size_mul_add(N, 3 * L + 5,
                                        pn_size_mul_add((size_t)rows, L + 1, memory ? (size_t)width : 0));
  const size_t bytes = pn_size_mul(values, sizeof(double));
  if (bytes == PN_SIZE_OVERFLOW) return PN_ERR_SIZE;
  double *xs = pn_malloc(bytes);
  if (!xs) return PN_ERR_NOMEM;
  grad_stack g = {weights, memory, rows, width, block, gelu, N, L, wsize, per_layer,
                  block == PN_BLOCK_PRE_LN || block == PN_BLOCK_PRE_RMS,
                  block == PN_BLOCK_PRE_RMS, (double)weight_scale,
                  xs, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL};
  g.hs = xs + N * (L + 1);
  g.zs = g.hs + N * L;
  g.out = g.zs + N * L;
  g.dx = g.out + N;
  g.dh = g.dx + N;
  g.dbranch = g.dh + N;
  g.invs = g.dbranch + N;
  g.mrow = memory ? g.invs + (size_t)rows * (L + 1) : NULL;
  forward(&g, x0, std_out);
  *loss = readout_loss(&g, readout);
  readout_grad(&g, readout);
  for (size_t l = L; l-- > 0;) layer_grad(&g, l, grad, grad_norm);
  pn_free(xs);
  return PN_OK;
}
