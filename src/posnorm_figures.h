/* posnorm_figures.h — the kernels behind posnorm's web figures.
 *
 * Random normals, histograms and colormaps to draw with; and the article's
 * other figures: attention, the properties of sinusoidal PE, a residual
 * stack with its gradients, a Transformer block, LayerNorm step by step.
 * These serve the figures; the kernels to build with are in posnorm.h, which
 * this header includes and whose CONVENTIONS (types, status codes, checked
 * sizes, scratch, aliasing, determinism) hold here too. Every function below
 * is exported from both wasm builds, as posnorm.h's are.
 *
 * ======================================================================
 * LIMITS (every range and precondition of the figure kernels)
 * ======================================================================
 *
 *   any tensor                 as posnorm.h: 1 .. PN_MAX_ELEMENTS values
 *   random normal              n >= 1; std >= 0, mean and std finite
 *   histogram                  1 <= bins <= 65536; min < max, both finite
 *   colormap                   vmin < vmax, both finite (any finite range)
 *   attention                  seq_len, d_model, d_head <= 4096
 *   gram / minRowDistance      rows <= 8192 (minRowDistance: rows >= 2)
 *   work                       attention, gram, minRowDistance and the
 *                              residual stack take at most PN_MAX_WORK
 *                              (2^32) multiply-adds a call, counted as each
 *                              function says: their other limits allowed
 *                              calls of 2^40, which ran for hours (gram at
 *                              8192 × 32768, 1–1.5 h). At 2^32 they take
 *                              from under 1 s (the residual stack) to about
 *                              15 s (gram) and 17 s (the gradient stack) in
 *                              Node on issue #20's EPYC
 *   PE shift                   even d_model; |k| < 2^31 (k != INT32_MIN)
 *   residual stack             layers <= 1024; rows, width <= 4096;
 *                              layers·width² (twice that with a memory)
 *                              <= PN_MAX_ELEMENTS
 *   Transformer block          tokens <= 512, d_model <= 1024, d_ff <= 4096;
 *                              heads divides d_model
 *   scratch memory             attention, the residual stack (and its
 *                              gradients) and the Transformer block malloc
 *                              scratch (exact sizes at each function) and
 *                              return PN_ERR_NOMEM when it is not there.
 *                              Within the limits above it is at most 2^30
 *                              bytes, but for the gradient stack: up to
 *                              1.85e9 bytes (4096 rows of 18, 1024 layers,
 *                              a memory; before the work limit 6.7e9, past
 *                              2^32)
 */
#ifndef POSNORM_FIGURES_H
#define POSNORM_FIGURES_H

#include <stdint.h>

#include "posnorm.h"

/* The most multiply-adds one call of attention, gram, minRowDistance or the
 * residual stack may take (LIMITS above); a call past it is PN_ERR_SIZE
 * before any work. */
#define PN_MAX_WORK (UINT64_C(1) << 32)

#ifdef __cplusplus
extern "C" {
#endif

/* ======================================================================
 * FOR THE FIGURES (src/random.c, src/histogram.c, src/colormap.c)
 * ====================================================================== */

/* pn_random_normal_f32 — n samples of N(mean, std²), reproducible: the same
 * seed gives the same float32 sequence on every platform and in every build.
 * Generator: xoshiro128** (Blackman & Vigna, 2018), its four state words
 * taken from four steps of splitmix32 started at `seed` (state += 0x9E3779B9,
 * then the murmur3 32-bit finaliser). Uniforms on (-1, 1):
 * 2·((next >> 8) + 0.5)·2^-24 - 1, taken in pairs (a, b); Marsaglia's polar
 * method rejects q = a²+b² >= 1 and gives a·f, b·f with f = sqrt(-2 ln q/q),
 * the log built from IEEE + - * / only, so no libm can change the sequence.
 * out[k] = (float)(mean + std·z_k); an odd n drops the last pair's second,
 * so the first m values of any n >= m are those of n = m (a figure may draw
 * a prefix now and the rest later).
 * Preconditions: out != NULL; 1 <= n <= PN_MAX_ELEMENTS; std >= 0; mean and
 * std finite. Errors: PN_ERR_NULL, PN_ERR_SIZE, PN_ERR_ARG. */
int pn_random_normal_f32(float *out, int32_t n, uint32_t seed, double mean,
                         double std);

/* pn_histogram_f32 — equal-width histogram over [min, max).
 * Bin k covers [e_k, e_(k+1)), e_k = min + k·w and w = (max-min)/bins, both
 * in float64 (so a value on an edge float64 holds exactly, as 49 in
 * [0, 147) by 3, is in the bin above it; a true edge float64 does not hold
 * may round either way: in [-a, a) by an even count, 0 can fall in the bin
 * below when min + k·w rounds to just above 0); x == max is counted in the
 * last bin. counts: [bins] uint32 (overwritten).
 * extra: [3] uint32 = {below (x < min, incl. -Inf), above (x > max, incl.
 * +Inf), nan}. sum(counts) + below + above + nan == n.
 * Preconditions: counts, extra, x != NULL; 0 <= n <= PN_MAX_ELEMENTS (n = 0
 * gives zeros); 1 <= bins <= 65536; min < max, both finite (-0 == 0).
 * Errors: PN_ERR_NULL, PN_ERR_SIZE, PN_ERR_ARG. */
int pn_histogram_f32(uint32_t *counts, uint32_t *extra, const float *x,
                     int32_t n, int32_t bins, float min, float max);

/* Colormaps of pn_colormap_rgba8. Both are posnorm's own, built in OKLab
 * (tools/gen_colormap.py): lightness changes linearly with the index, hue
 * stays on a blue/orange axis that deuteranopes, protanopes and tritanopes
 * can tell apart. */
enum pn_colormap {
  /* Diverging, for signed values: blue (vmin) -> light grey (middle) ->
   * orange (vmax); lightness symmetric about the middle. */
  PN_COLORMAP_DIVERGING = 0,
  /* Sequential, for magnitudes: dark blue-violet (vmin) -> yellow (vmax);
   * lightness rises linearly. */
  PN_COLORMAP_SEQUENTIAL = 1
};

/* pn_colormap_rgba8 — writes 4 bytes (R, G, B, A=255) per value, ready to be
 * an ImageData's data. The value is mapped to index
 * floor((x - vmin)·(255/(vmax - vmin)) + 0.5) clamped to [0, 255] of a
 * 256-entry table, computed in float64 (the scale taken once, not a division
 * per value: where 255·(x - vmin)/(vmax - vmin) + 0.5 lies within a few
 * float64 rounding errors of an integer, the index may be one off that
 * formula's, either way), so any finite vmin < vmax works —
 * a range of 6.8e38 or of one denormal step — and every finite x (and ±Inf,
 * clamped) gets an opaque colour. NaN gives transparent black (0, 0, 0, 0).
 * Preconditions: rgba, x != NULL; 1 <= n <= PN_MAX_ELEMENTS; vmin < vmax,
 * both finite (vmin == vmax is PN_ERR_ARG: a one-value range has no scale;
 * pick a range around it); map is a pn_colormap.
 * Errors: PN_ERR_NULL, PN_ERR_SIZE, PN_ERR_ARG. */
int pn_colormap_rgba8(uint8_t *rgba, const float *x, int32_t n, float vmin,
                      float vmax, int32_t map);

/* pn_colormap_lut_rgba8 — copies the 256-entry table of `map` (1024 bytes).
 * Preconditions: rgba != NULL; map a pn_colormap.
 * Errors: PN_ERR_NULL, PN_ERR_ARG. */
int pn_colormap_lut_rgba8(uint8_t *rgba, int32_t map);

/* ======================================================================
 * FOR THE ARTICLE'S OTHER FIGURES (src/attention.c, src/pe_props.c,
 * src/depth.c, src/depth_grad.c, src/block.c, src/layernorm_steps.c;
 * their float64 algebra: src/pn_f64.c)
 * ====================================================================== */

/* pn_attention_f32 — single-head scaled dot-product self-attention.
 *
 *   Q = X·Wq, K = X·Wk, V = X·Wv          X: [seq_len × d_model],
 *                                         W*: [d_model × d_head]
 *   A = softmax(Q·Kᵀ / sqrt(d_head))      row-wise, max-subtracted
 *   out = A·V                             [seq_len × d_head]
 * weights: [seq_len × seq_len] receives A, or NULL.
 * All sums run in float64 and each output is rounded once, so permuting the
 * rows of X permutes the rows of out (and of A) to within float32 rounding
 * (permutation equivariance); the tests check it.
 * Preconditions: out, x, wq, wk, wv != NULL; 1 <= seq_len <= 4096;
 * 1 <= d_model, d_head <= 4096; seq_len·d_head·(3·d_model + 2·seq_len)
 * (its multiply-adds) <= PN_MAX_WORK. Scratch: 24·seq_len·d_head + 8·seq_len +
 * 8·seq_len·d_model bytes (at most 2^29 + 2^15).
 * Errors: PN_ERR_NULL, PN_ERR_SIZE, PN_ERR_NOMEM. */
int pn_attention_f32(float *out, float *weights, const float *x,
                     const float *wq, const float *wk, const float *wv,
                     int32_t seq_len, int32_t d_model, int32_t d_head);

/* pn_gram_f32 — out[i][j] = Σ_k x[i][k]·x[j][k] (float64 sums), out:
 * [rows × rows]. For PE rows this is the position × position dot product.
 * Preconditions: out, x != NULL; 1 <= rows <= 8192; cols >= 1; rows·cols
 * <= PN_MAX_ELEMENTS; rows·(rows + 1)/2·cols (its multiply-adds) <=
 * PN_MAX_WORK. Errors: PN_ERR_NULL, PN_ERR_SIZE. */
int pn_gram_f32(float *out, const float *x, int32_t rows, int32_t cols);

/* pn_min_row_distance_f32 — the smallest Euclidean distance between two
 * different rows of x [rows × cols], from float64 differences (no
 * cancellation). *distance receives it, pair[0] < pair[1] the rows (the
 * first such pair in row-major order).
 * NaN: a pair whose distance is NaN (a NaN in either row) is never chosen;
 * if no pair has a comparable distance, *distance is +Inf and pair is
 * (0, 1).
 * Preconditions: all pointers != NULL; 2 <= rows <= 8192; cols >= 1;
 * rows·cols <= PN_MAX_ELEMENTS; rows·(rows - 1)/2·cols (its multiply-adds
 * at most) <= PN_MAX_WORK. Errors: PN_ERR_NULL, PN_ERR_SIZE. */
int pn_min_row_distance_f32(float *distance, int32_t *pair, const float *x,
                            int32_t rows, int32_t cols);

/* pn_pe_shift_f32 — applies the relative-position map of sinusoidal PE:
 * for every pair i (interleaved layout, w_i = base^(-2i/d_model)),
 *   [s', c'] = [s·cos(k·w_i) + c·sin(k·w_i),  c·cos(k·w_i) - s·sin(k·w_i)]
 * so that pe_shift(PE(p), k) = PE(p + k): the 2×2 rotation R(k) per pair,
 * independent of p. d_model must be even (an odd one has a sin column
 * without its cos partner, which no rotation can move).
 * out, pe_row: [d_model]; float64 arithmetic, rounded once; k may be
 * negative. Preconditions: out, pe_row != NULL; 2 <= d_model <=
 * PN_MAX_ELEMENTS (PN_ERR_SIZE); d_model even, base > 1 and finite,
 * |k| < 2^31, i.e. k != INT32_MIN (PN_ERR_ARG).
 * Errors: PN_ERR_NULL, PN_ERR_SIZE, PN_ERR_ARG. */
int pn_pe_shift_f32(float *out, const float *pe_row, int32_t d_model,
                    double base, int32_t k);

/* The two forms of GELU the residual stack and the Transformer block take.
 *   PN_GELU_TANH  z/2·(1 + tanh(sqrt(2/pi)·(z + 0.044715 z³))) (PyTorch's
 *                 approximate='tanh', GPT-2's)
 *   PN_GELU_ERF   z·Φ(z) = z/2·(1 + erf(z/sqrt(2))) (PyTorch's nn.GELU()
 *                 default), without libm's erf: a series below
 *                 |z| = 2·sqrt(2) (sqrt(2) for z < 0) and a continued
 *                 fraction above; measured against 40-digit values within
 *                 5e-15 relative (GELU) and 8.4e-16 absolute (its derivative)
 * The two differ by at most 4.7e-4 (at z = ±2.70). */
enum pn_gelu_form {
  PN_GELU_TANH = 0,
  PN_GELU_ERF = 1
};

/* Residual block variants of pn_residual_stack_f32. f(h) = GELU(h·W_l) in
 * the pn_gelu_form asked for; c_l = m·C_l, the memory branch, when a memory
 * m is given (else c_l = 0); norms have no gamma/beta and eps = 1e-5. */
enum pn_block {
  PN_BLOCK_PLAIN = 0,    /* x <- x + f(x) + c_l            (no normalisation) */
  PN_BLOCK_POST_LN = 1,  /* x <- LayerNorm(x + f(x) + c_l) (Post-Norm)        */
  PN_BLOCK_PRE_LN = 2,   /* x <- x + c_l; x <- x + f(LayerNorm(x)) (Pre-Norm) */
  PN_BLOCK_PRE_RMS = 3   /* x <- x + c_l; x <- x + f(RMSNorm(x))   (Pre-RMS)  */
};

/* pn_residual_stack_f32 — runs `layers` residual blocks on x0 [rows ×
 * width] and writes std_out[l] = the population standard deviation of all
 * rows·width activations after block l (float64 statistics).
 * memory: NULL (an encoder-style stack: weights [layers × width × width],
 *   W_l row-major, the branch h·(weight_scale·W_l)), or m [width], a
 *   decoder's memory (the encoder output one cross-attention reads, the same
 *   vector for every row): each block also adds c_l = m·(weight_scale·C_l)
 *   as enum pn_block says, and weights holds per layer W_l then C_l
 *   ([layers × 2 × width × width]).
 * gelu: a pn_gelu_form. The products and sums run in float32.
 * Activations that overflow give Inf/NaN entries (so do non-finite values
 * in x0, weights or memory); they are reported, not an error.
 * Preconditions: std_out, x0, weights != NULL; 1 <= layers <= 1024;
 * 1 <= rows, width <= 4096; the weight count (layers·width², twice that
 * with a memory) <= PN_MAX_ELEMENTS (rows·width <= 2^24 by those limits);
 * layers·width²·(rows + 1 with a memory) (its multiply-adds) <=
 * PN_MAX_WORK; block is a pn_block, gelu a pn_gelu_form; weight_scale finite.
 * Scratch: 4·(3·rows·width + width) bytes (at most 4·(3·2^24 + 2^12)).
 * Errors: PN_ERR_NULL, PN_ERR_SIZE, PN_ERR_ARG, PN_ERR_NOMEM. */
int pn_residual_stack_f32(float *std_out, const float *x0,
                          const float *weights, const float *memory,
                          int32_t layers, int32_t rows, int32_t width,
                          int32_t block, int32_t gelu, float weight_scale);

/* pn_residual_stack_grad_f32 — the stack of pn_residual_stack_f32, in
 * float64, with a loss and its gradient with respect to every weight
 * (backpropagation), for showing how gradients behave through depth.
 *   loss = Σ readout[r][c]·y[r][c], y = the last block's output, after a
 *          final norm of the block's kind for the Pre-Norm variants (as real
 *          Pre-Norm models end with one)
 *   grad = ∂loss/∂weights (the raw weights, before weight_scale), the
 *          same layout and count as weights: per layer W_l's gradient, then
 *          with a memory C_l's (∂loss/∂C_l[k][j] = weight_scale·m[k]·Σ_r of
 *          the loss's gradient where c_l joins the stream)
 *   grad_norm[l] = the Frobenius norm of W_l's gradient (also with a
 *          memory: the same quantity in both kinds of stack)
 *   std_out[l]   = the population std after block l (as pn_residual_stack_f32,
 *                  here from the float64 forward pass)
 * memory, gelu: as pn_residual_stack_f32. readout: [rows × width].
 * Everything is float64 inside; outputs rounded once.
 * Scratch: 8·rows·width·(3·layers + 5) + 8·rows·(layers + 1) bytes, plus
 * 8·width with a memory; within the limits below it is largest, 1.85e9
 * bytes (1 848 475 792), at 4096 rows of 18 with 1024 layers and a memory
 * (the shapes that took it past 2^32, 4096 × 4096 from 9 layers on and
 * 2713 × 64 with 1024, are past the work limit); PN_ERR_NOMEM where
 * malloc cannot give it.
 * Preconditions as pn_residual_stack_f32, all pointers but memory !=
 * NULL, and rows·width·(layers + 1) <= PN_MAX_ELEMENTS; the work is
 * counted as 3·layers·width²·(rows + 1 with a memory) (a forward product
 * and two backward ones per layer) <= PN_MAX_WORK.
 * Errors: PN_ERR_NULL, PN_ERR_SIZE, PN_ERR_ARG, PN_ERR_NOMEM. */
int pn_residual_stack_grad_f32(float *std_out, double *loss, float *grad,
                               float *grad_norm, const float *x0,
                               const float *weights, const float *memory,
                               const float *readout, int32_t layers,
                               int32_t rows, int32_t width, int32_t block,
                               int32_t gelu, float weight_scale);

/* Where a Transformer block puts its norms, and which norm it uses. */
enum pn_norm_placement {
  PN_PRE_NORM = 0,  /* x + Attn(Norm(x)), then h + FFN(Norm(h)) (GPT-2 on)   */
  PN_POST_NORM = 1  /* Norm(x + Attn(x)), then Norm(h + FFN(h)) (Vaswani)   */
};
enum pn_norm_kind {
  PN_NORM_LAYER = 0, /* LayerNorm: (x - mean)/sqrt(var + eps)               */
  PN_NORM_RMS = 1    /* RMSNorm: x/sqrt(mean(x²) + eps)                      */
};

/* The tensors pn_transformer_block_f32 keeps, in this order in `trace`. */
enum pn_block_trace {
  PN_TRACE_INPUT = 0,       /* x, the block's input                         */
  PN_TRACE_ATTN_INPUT = 1,  /* Pre: Norm1(x); Post: x                       */
  PN_TRACE_ATTN_OUTPUT = 2, /* a = concat(heads)·Wo                         */
  PN_TRACE_RESIDUAL1 = 3,   /* x + a                                        */
  PN_TRACE_FFN_INPUT = 4,   /* Norm(x + a): Pre: Norm2; Post: Norm1, which  */
                            /* is also the stream h the FFN adds to         */
  PN_TRACE_FFN_OUTPUT = 5,  /* f = GELU(ffn_input·W1)·W2                    */
  PN_TRACE_RESIDUAL2 = 6,   /* Pre: (x + a) + f; Post: h + f                */
  PN_TRACE_OUTPUT = 7,      /* Pre: the same as RESIDUAL2; Post: Norm2 of it */
  PN_BLOCK_TRACE_SLOTS = 8
};

/* pn_transformer_block_f32 — one Transformer block over `tokens` token
 * vectors, with every intermediate tensor kept (the article's §10 block:
 * Pre-Norm as in its code, or Post-Norm as in the original paper).
 *
 *   attention   multi-head scaled dot-product self-attention, no mask:
 *               Q = s·Wq, K = s·Wk, V = s·Wv, head h on columns
 *               [h·dh, (h+1)·dh), dh = d_model/heads,
 *               A_h = softmax(Q_h·K_hᵀ/sqrt(dh)) (row-wise, max-subtracted),
 *               a = concat_h(A_h·V_h)·Wo
 *   FFN         f = GELU(s·W1)·W2, GELU in the pn_gelu_form `gelu`
 *               (PN_GELU_ERF: the article's nn.GELU(); PN_GELU_TANH:
 *               approximate='tanh', GPT-2's)
 *   norms       LayerNorm or RMSNorm over each token, gamma = 1, beta = 0
 *               (their values at initialisation)
 *   no biases   every linear layer is x·W (the biases at initialisation,
 *               zero, left out)
 * x: [tokens × d_model]. weights: Wq, Wk, Wv, Wo [d_model × d_model], W1
 * [d_model × d_ff], W2 [d_ff × d_model], one after the other, each
 * row-major [in × out] (4·d_model² + 2·d_model·d_ff values).
 * trace: [PN_BLOCK_TRACE_SLOTS × tokens × d_model], slot order of
 * enum pn_block_trace. attn: [heads × tokens × tokens], A_h row by row.
 * Everything is float64 inside and each written value is rounded once.
 * Preconditions: pointers != NULL; 1 <= tokens <= 512; 1 <= d_model <=
 * 1024; 1 <= heads <= d_model (PN_ERR_SIZE), heads divides d_model;
 * 1 <= d_ff <= 4096; placement a pn_norm_placement, norm a pn_norm_kind,
 * gelu a pn_gelu_form; eps >= 0 and finite. attn holds up to 1024·512² = 2^28 values.
 * Scratch: 8·(12·tokens·d_model + tokens + tokens·d_ff) bytes (at most
 * 8·(12·2^19 + 2^9 + 2^21)).
 * Errors: PN_ERR_NULL, PN_ERR_SIZE, PN_ERR_ARG (heads does not divide
 * d_model, placement, norm, gelu or eps out of range), PN_ERR_NOMEM. */
int pn_transformer_block_f32(float *trace, float *attn, const float *x,
                             const float *weights, int32_t tokens,
                             int32_t d_model, int32_t heads, int32_t d_ff,
                             int32_t placement, int32_t norm, int32_t gelu,
                             float eps);

/* pn_layernorm_steps_f32 — LayerNorm of one vector, keeping every step:
 *   centered = x - mu, normalized = centered/sqrt(var + eps),
 *   y = gamma·normalized + beta;  stats = {mu, var} (biased variance).
 * Any of centered, normalized, y, stats may be NULL; gamma/beta NULL = 1/0.
 * All steps in float64, each output rounded once.
 * Preconditions: x != NULL; 1 <= n <= PN_MAX_ELEMENTS; eps >= 0 and finite.
 * Errors: PN_ERR_NULL, PN_ERR_SIZE, PN_ERR_ARG. */
int pn_layernorm_steps_f32(float *centered, float *normalized, float *y,
                           float *stats, const float *x, const float *gamma,
                           const float *beta, int32_t n, float eps);

#ifdef __cplusplus
}
#endif
#endif /* POSNORM_FIGURES_H */
