/* posnorm.h — accurate kernels for Transformer position and normalisation maths.
 *
 * This header is the manual of the kernels: positional encoding, RoPE and
 * its long-context scaling, ALiBi, LayerNorm, RMSNorm and BatchNorm. The
 * kernels behind posnorm's web figures are in posnorm_figures.h, which
 * includes this header; the conventions below hold for both. Every function
 * the two headers declare is exported from both wasm builds (SIMD128 and
 * scalar; build.sh takes the export list from these declarations) and from
 * the native library used by the C tests.
 *
 * ======================================================================
 * CONVENTIONS (read once, they hold for every function)
 * ======================================================================
 *
 * Data types   float32 tensors are `float *`, row-major, densely packed.
 *              Sizes are `int32_t` and must be >= 1 unless a function says
 *              otherwise. A tensor's element count must not exceed
 *              PN_MAX_ELEMENTS (2^28, i.e. 1 GiB of float32).
 * Return       every function returns an `int` status: PN_OK (0) on success,
 *              or a negative PN_ERR_* code. Every function checks all of
 *              its arguments before it writes an output or allocates
 *              anything: on error nothing has been written (outputs, and
 *              in/out arguments such as BatchNorm's running statistics,
 *              hold what they held) and nothing is left allocated. The
 *              checks run in the order of the codes: pointers
 *              (PN_ERR_NULL), then sizes (PN_ERR_SIZE), then the other
 *              arguments (PN_ERR_ARG), then the scratch allocation
 *              (PN_ERR_NOMEM); so with one invalid argument the status
 *              names its kind.
 * Sizes        every element count and every scratch byte count is
 *              computed with one checked, saturating multiply-add in the
 *              target's size_t (32 bits in wasm; pn_internal.h), so nothing
 *              wraps: a count past its limit, or a scratch that does not
 *              fit in size_t, is PN_ERR_SIZE; one malloc cannot give is
 *              PN_ERR_NOMEM.
 * Scratch      a function's "Scratch:" line is the exact byte count of the
 *              one malloc it makes (after validating), freed before it
 *              returns; functions without that line allocate nothing. The
 *              JS wrapper computes the same formulas to refuse calls that
 *              cannot fit in wasm memory before it allocates.
 * Aliasing     outputs may alias their main input only where a function says
 *              "in place allowed"; otherwise buffers must not overlap (this
 *              is not checked: overlapping buffers give unspecified values,
 *              never out-of-bounds access).
 * Determinism  results depend only on the arguments: the SIMD128 build, the
 *              scalar build and the native build run the same algorithm
 *              (see pn_simd.h) and return bit-identical float32 results, as
 *              long as the C library's sin/cos/exp agree to the last bit of a
 *              double (they do for musl, used by both wasm builds). Powers
 *              and logs are computed from exp and an IEEE-only log, not
 *              libm's pow/log.
 * Accuracy     each function states a bound: the float32 result is within
 *              that bound of the float64 formula evaluated on the same
 *              float32 inputs, measured by tests/ over the ranges it names.
 *              No function promises correct rounding (0.5 ulp): PE reaches
 *              about half an ulp of values near 1 (2.99e-8 absolute), but
 *              near the zeros of sin the float64 reference itself is not
 *              precise enough to count ulps. PE and RoPE angles p·w_i of
 *              2^20 and more are taken in double-double (src/pn_math.h) and
 *              are closer to the exact values than a float64 formula,
 *              which is up to 6e-7 off near p = 2^31: their bounds there
 *              are against the exact values.
 * Non-finite   NaN/Inf inputs propagate only into the rows (LayerNorm,
 *              RMSNorm) or columns (BatchNorm) whose statistics they enter:
 *              a LayerNorm row holding ±Inf or NaN has mean, inv_std and
 *              every y NaN (its variance is Inf − Inf); RMSNorm's inv_rms is
 *              then 0 for ±Inf (y = x·0: 0, NaN at the Inf) and NaN for NaN.
 * Threads      no global mutable state (but the counters of the test
 *              builds: allocations, src/pn_alloc.h, and pn_sincos_calls and
 *              pn_norm_two_pass_rows, src/pn_internal.h); all functions are
 *              re-entrant.
 *
 * ======================================================================
 * LIMITS (every range and precondition of this header's kernels)
 * ======================================================================
 *
 *   any tensor                 1 .. PN_MAX_ELEMENTS (2^28) values; sizes are
 *                              int32 >= 1; the wasm memory is capped at 2 GiB
 *   positions (PE, RoPE)       0 <= p < 2^31; PE/RoPE base > 1 and finite;
 *                              accuracy is tested for p < 2^20, d_model <= 8192
 *                              against float64, and near 2^31, 2^24 and 2^20
 *                              against 60-digit values (tests/c/test_angles.c)
 *   peSample positions         |start|, |start + (n-1)·step| <= 2^31
 *   LayerNorm/RMSNorm/BatchNorm  any finite float32 input (up to FLT_MAX,
 *                              denormals included), eps >= 0 finite; NaN/Inf
 *                              reach only their own row (column)
 *   BatchNorm momentum         0 <= momentum <= 1
 *   RoPE                       rotary_dim even, 2 <= rotary_dim <= head_dim;
 *                              interleaved 0 or 1; cache ids in
 *                              [0, cache_rows); given frequencies finite,
 *                              attention factor finite and > 0
 *   RoPE scaling               dim even in [2, 65536] (>= 4 for dynamic);
 *                              every parameter of the type in its range
 *                              (pn_rope_frequencies_f64); the attention
 *                              factor, frequencies and a grown base finite
 *   RoPE scaling accuracy      may miss RoPE's bound near 2^31 for yarn
 *                              ramps (untruncated) and llama3 bands a few
 *                              float64 ulps of beta (of highFreqFactor)
 *                              wide: the double-double ends' own ~1e-31
 *                              over a width of ~1e-16 (measured 1.1 to 5.3
 *                              times it at 1-2 ulps; at base 1.0001 up to
 *                              12 ulps, 4.7 times at 3; order 1 where the
 *                              float64 ends round equal and +0.001 is
 *                              taken), and for llama3 with factor < 1,
 *                              whose frequencies w/factor multiply the
 *                              smoothing's error (32 times it at factor
 *                              1e-9 for a band 1e-9 wide). Narrow ones
 *                              wider than that (ratios 1.03, 1.003)
 *                              take their rests at every angle and meet
 *                              it. Accepted, as Hugging Face accepts them;
 *                              HF's defaults and published configs are far
 *                              from this (docs/accuracy.md)
 *   ALiBi                      1 <= heads <= 65536
 *   scratch memory             RoPE (computed and scaled) mallocs scratch
 *                              (exact sizes at each function), at most 2^31
 *                              bytes (pn_rope_f32 with position ids), and returns PN_ERR_NOMEM when it is
 *                              not there; no other kernel here allocates
 *   aliasing                   only where a function says "in place allowed"
 *                              (unchecked, see CONVENTIONS)
 *   the figure kernels         their own limits: posnorm_figures.h
 */
#ifndef POSNORM_H
#define POSNORM_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define POSNORM_VERSION_MAJOR 0
#define POSNORM_VERSION_MINOR 2
#define POSNORM_VERSION_PATCH 0

/* Largest element count of any one tensor argument (2^28 float32 = 1 GiB). */
#define PN_MAX_ELEMENTS (1 << 28)

/* ---- status codes ---------------------------------------------------- */
enum pn_status {
  PN_OK = 0,
  PN_ERR_NULL = -1,  /* a required pointer is NULL                         */
  PN_ERR_SIZE = -2,  /* a size is < 1 or past its limit, a product of sizes
                        is too large, or a scratch does not fit in size_t */
  PN_ERR_ARG = -3,   /* a scalar argument is outside its allowed range     */
  /* -4 is reserved */
  PN_ERR_NOMEM = -5  /* the scratch allocation failed                      */
};

/* ---- the library itself (src/version.c) ------------------------------ */

/* pn_version — POSNORM_VERSION_MAJOR*10000 + MINOR*100 + PATCH. */
int pn_version(void);

/* pn_simd_enabled — 1 when built with WebAssembly SIMD128 code paths, 0
 * otherwise. */
int pn_simd_enabled(void);

/* ======================================================================
 * POSITIONAL ENCODING (src/pe.c)
 * ====================================================================== */

/* Layouts of pn_pe_sinusoidal_f32. */
enum pn_pe_layout {
  /* "Attention Is All You Need": column 2i = sin(p·w_i), 2i+1 = cos(p·w_i). */
  PN_PE_INTERLEAVED = 0,
  /* tensor2tensor style: the sin columns first, then the cos columns.
   * Exactly a column permutation of PN_PE_INTERLEAVED: interleaved column 2i
   * goes to column i, column 2i+1 to column ceil(d/2)+i. */
  PN_PE_CONCAT = 1
};

/* pn_pe_sinusoidal_f32 — sinusoidal positional encoding.
 *
 *   out[r][c], r in [0, seq_len), c in [0, d_model), row-major [seq_len × d_model]
 *   p   = offset + r                      (position)
 *   w_i = base^(-2i/d_model)              (frequency of pair i)
 *   interleaved: out[r][2i] = sin(p·w_i), out[r][2i+1] = cos(p·w_i)
 *
 * Odd d_model: the last column (d_model-1 = 2i, i = (d_model-1)/2) holds
 * sin(p·w_i) with its cos partner dropped; in the concat layout the sin block
 * has ceil(d/2) columns and the cos block floor(d/2).
 *
 * Accuracy: max abs error <= 2e-7 against float64 sin/cos for p < 2^20 and
 * d_model <= 8192 (measured 2.99e-8: the angles are carried in float64 and
 * rotated forward one position at a time, re-anchored with libm sin/cos
 * every PN_PE_ANCHOR rows, and rounded to float32 once). For p up to 2^31,
 * <= 1e-7 against the exact values (measured 3.0e-8, half a float32 ulp of
 * values near 1): an anchor whose angle p·w_i reaches 2^20 takes it as a
 * double-double, p times w_i's double-double (within about 1e-29 of
 * base^(-2i/d_model)), so its float64 sin/cos are within about 2e-16 of
 * the exact ones, and the rotation over the anchor's 1024 rows, with the
 * float64 w_i, adds about 1e-12; below 2^20 the float64 angle is within
 * 3e-9 rad (2^20 times w_i's few ulps, and its rounding). Against the
 * float64 formula <= 1e-6 (that formula is itself up to 6e-7 from the
 * exact values near 2^31: 2^31 times its w_i's ulp or two, and the
 * rounding of p·w_i).
 *
 * Preconditions: out != NULL; seq_len, d_model >= 1; seq_len·d_model <=
 * PN_MAX_ELEMENTS; base > 1 and finite; offset >= 0; offset + seq_len <= 2^31;
 * layout is PN_PE_INTERLEAVED or PN_PE_CONCAT.
 * Errors: PN_ERR_NULL, PN_ERR_SIZE, PN_ERR_ARG. */
int pn_pe_sinusoidal_f32(float *out, int32_t seq_len, int32_t d_model,
                         double base, int32_t offset, int32_t layout);

/* pn_pe_float32_code_f32 — the article's PyTorch SinusoidalPositionalEncoding
 * as float32 computes it, step by step, for showing its error (not for use):
 *   scale = (float)(-ln(base)/d_model)
 *   div_i = (float)exp((float)(2i)·scale)          (float32 product and exp)
 *   a     = (float)p · div_i                        (float32 product)
 *   sin(a), cos(a) of the float32 angle, rounded to float32
 * in the same layouts as pn_pe_sinusoidal_f32. Its error against float64
 * grows with the position (up to 3.9e-3 for p < 65536 at d_model = 512,
 * measured against float64 in 2026-12; about p·2^-24): the
 * float32 angle p·div_i loses the low bits of p·w_i. float32 exp and sin are
 * taken correctly rounded here; PyTorch's own kernels are within an ulp of
 * that, so individual values may differ from a given PyTorch build in the
 * last bit, and the error's size and growth are the same.
 * Preconditions and errors as pn_pe_sinusoidal_f32. */
int pn_pe_float32_code_f32(float *out, int32_t seq_len, int32_t d_model,
                           double base, int32_t offset, int32_t layout);

/* pn_pe_sample_f32 — one PE column at fractional positions (smooth curves).
 *
 *   out[k] = f(p_k · w_i), p_k = pos_start + k·pos_step, k in [0, n)
 *   i = dim / 2, w_i = base^(-2i/d_model), f = sin for even dim, cos for odd.
 * p_k is computed in float64 as written (k·pos_step, then the sum, each
 * rounded: numpy.arange's positions), and is the position the value is
 * for: near 2^31 a fractional p_k is up to 1.2e-7 from the real sum.
 *
 * Accuracy: max abs error <= 2e-7 (float64 libm, rounded once) for |p_k| <
 * 2^20; up to 2^31 <= 1e-7 against the exact values at p_k (the angles of 2^20
 * and more in double-double, as pn_pe_sinusoidal_f32's anchors, fractional
 * and negative positions too: measured 3.0e-8), <= 1e-6 against the
 * float64 formula.
 * Preconditions: out != NULL; 1 <= n <= PN_MAX_ELEMENTS; d_model >= 1;
 * 0 <= dim < d_model; base > 1; pos_start, pos_step finite and
 * |pos_start|, |pos_start + (n-1)·pos_step| <= 2^31.
 * Errors: PN_ERR_NULL, PN_ERR_SIZE, PN_ERR_ARG. */
int pn_pe_sample_f32(float *out, int32_t n, double pos_start, double pos_step,
                     int32_t dim, int32_t d_model, double base);

/* ======================================================================
 * NORMALISATION (src/layernorm.c, src/rmsnorm.c, their row loop
 * src/norm_rows.c; src/batchnorm.c)
 * ====================================================================== */

/* pn_layernorm_f32 — LayerNorm over the last `cols` values of each row
 * (ONNX LayerNormalization with the normalised axes folded into cols).
 *
 *   mu_r   = mean(x[r][:])
 *   var_r  = mean((x[r][:] - mu_r)^2)              (biased)
 *   inv_r  = 1 / sqrt(var_r + eps)
 *   y[r][c] = gamma[c]·(x[r][c] - mu_r)·inv_r + beta[c]
 *
 * x, y: [rows × cols]; gamma, beta: [cols] or NULL (gamma = 1, beta = 0);
 * mean, inv_std_dev: [rows] or NULL (not written). In place allowed (y == x).
 * Method: one pass takes Σ(x-s) and Σ(x-s)^2 in float32 blocks of 128 (steps
 * of 16 values added pairwise into one accumulator per sum) flushed to
 * float64, about a provisional shift s (the mean of the row's first 32
 * values rounded to float32, or 0 when the row before had its mean within
 * a quarter of its standard deviation of 0: the sums then need no
 * subtractions); their mean corrects s to the row mean without
 * cancellation. (So a row's bits can differ between a call on the whole
 * matrix and a call on that row alone; the bounds below hold either way.)
 * When s proves to be more than half a standard deviation from
 * the mean (rows that open with outliers or ramps) a second pass repeats the
 * sums about the float32 mean itself. The output pass writes
 * ((x - hi) - lo)·inv in float32, hi + lo being the mean ((x - hi)·inv
 * for rows where |lo·inv| <= 2^-24: the term left out is at most 6e-8
 * before rounding, and moves an output by about an ulp of itself at most),
 * in one loop that
 * sums 16 values of the next row between every 16 it writes of this one,
 * then ·gamma + beta in a second pass over the row while it is in cache
 * (the same bits as one pass). A row whose float32 block sums
 * overflow or underflow (|x| or deviations beyond about 1.8e19, mean squares
 * below 2^-100, constant rows) is redone entirely in float64, which holds the
 * square of every float32, and rounded once; ordinary rows pay two compares
 * for this check. A constant row gives exactly beta (for eps > 0).
 * Accuracy: max abs error <= 5e-6 + 2^-22·|y| against float64 on every
 * finite input (the second term matters only where |y| passes about 20,
 * as for a row with one outlier, |t| = sqrt(cols - 1): float32 holds 70.7
 * to 7.6e-6) —
 * |x| up to FLT_MAX, deviations of any size, denormals — and every eps >= 0,
 * wherever the float64 result is a finite float32; inv_std_dev within 1e-5
 * relative where it is a normal float32, and mean within 1e-5·|mean| +
 * 1e-6·sd + 2^-149 of the exact mean, sd the row's standard deviation (the
 * last term for a subnormal mean, which float32 holds only to its step:
 * {0, 1.4e-45} has mean 7e-46, written 0 or 1.4e-45): the sums'
 * error scales with the spread, so a small mean of large values that
 * cancel is not held to 1e-5 of itself ([1e8, -1e8, 3, 0] gives 1.125 for
 * 0.75; measured at most 9.1e-8·sd beyond the relative term) —
 * tests/edges.test.mjs and tests/norm.test.mjs; |gamma| <= 2, |beta| <= 2.
 * With any gamma and beta: t (the row normalised) is rounded to float32
 * within the bound above, then t·gamma + beta in float32, so gamma scales
 * t's error: within |gamma|·(5e-6 + 2^-22·|t|) + 2^-23·(|gamma·t| + |y|)
 * + 2^-148 (a beta that cancels gamma·t leaves a small y with that error,
 * not within 5e-6 + 2^-22·|y|: gamma 1e4 misses it by about 5e-5).
 * Preconditions: x, y != NULL; rows, cols >= 1; rows·cols <= PN_MAX_ELEMENTS;
 * eps >= 0 and finite. With eps = 0 a constant row has variance 0 and gives
 * 0·Inf = NaN, exactly as the float64 formula does.
 * Errors: PN_ERR_NULL, PN_ERR_SIZE, PN_ERR_ARG. */
int pn_layernorm_f32(float *y, float *mean, float *inv_std_dev, const float *x,
                     const float *gamma, const float *beta, int32_t rows,
                     int32_t cols, float eps);

/* pn_rmsnorm_f32 — RMSNorm over each row.
 *
 *   inv_r   = 1 / sqrt(mean(x[r][:]^2) + eps)
 *   y[r][c] = gamma[c]·x[r][c]·inv_r
 *
 * gamma: [cols] or NULL (1); inv_rms: [rows] or NULL. In place allowed.
 * Method: sum of squares in float32 blocks flushed to float64 (the blocks
 * of LayerNorm, squares only), taken for row r+1 while row r is written (as
 * LayerNorm); from 2^22 values up (16 MiB, past the caches) in rows of 512
 * or more, the SIMD wasm (and the native test build) sums each row and
 * then writes it from cache instead (the same bits either way: a row's
 * result does not depend on the rows around it); a row whose blocks
 * overflow or underflow is redone in float64 (as LayerNorm).
 * Accuracy: max abs error <= 2e-6·max|y| + 2^-148·max(1, max|gamma|)
 * against float64 on every finite input and eps >= 0 (the second term, two
 * subnormal steps, for rows whose every y is subnormal, where even the
 * correctly rounded y is half a step from float64; with gamma, t = x·inv is
 * rounded to float32 before it is multiplied by gamma, so a subnormal t
 * carries up to half a step that |gamma| scales: x = {1, 2.8e-45}, gamma =
 * {0, 1024}, eps = 0 gives y[1] 2.5e-43 from float64); inv_rms within 1e-5 relative where it is a normal
 * float32 (an all-zero row with eps = 0 gives inv_rms = Inf and y = NaN).
 * Preconditions and errors as pn_layernorm_f32. */
int pn_rmsnorm_f32(float *y, float *inv_rms, const float *x,
                   const float *gamma, int32_t rows, int32_t cols, float eps);

/* pn_batchnorm_train_f32 — BatchNorm in training mode over the batch axis.
 *
 * x, y: [rows × cols] where rows is the batch (N, or N·spatial) and cols the
 * channels. For every column c:
 *   m_c = mean over rows of x[:][c],  v_c = mean((x[:][c] - m_c)^2) (biased)
 *   y[r][c] = gamma[c]·(x[r][c] - m_c)/sqrt(v_c + eps) + beta[c]
 * batch_mean, batch_var: [cols] outputs (may be NULL).
 * running_mean, running_var: [cols], updated in place when non-NULL (both or
 * neither), as in ONNX BatchNormalization (opset 15):
 *   running = momentum·running + (1 - momentum)·batch     (biased batch var;
 *   note PyTorch uses the unbiased variance and the opposite momentum sense)
 * Statistics are accumulated in float64 (two passes: Σx compensated, so
 * values that cancel leave the small ones' part, then the variance; y also
 * subtracts (Σx - m·n)/n, the part of the mean that m = Σx/n lost to its
 * rounding: a column of 63161283 values 16777214, one 16777215, was 7.4e-6
 * off without it; the mean is within 1e-5 relative + n·2^-105·max|x|,
 * the second term for columns cancelling across about 2^100) and y is
 * formed in float64, so every finite input
 * gives a finite y rounded once from float64: within 0.6 ulp of the float64
 * formula (half an ulp, and what two float64 evaluations of it differ by;
 * within 5e-6 for |y| < 128)
 * (a batch variance beyond FLT_MAX is returned as Inf). In place allowed.
 * With rows == 1 every y equals beta (the batch variance is 0): this is the
 * documented failure of BatchNorm at batch size 1, not an error. With eps
 * = 0 a constant column (rows == 1 included) gives 0/0 = NaN, exactly as
 * the float64 formula does.
 * Preconditions: x, y != NULL; running_mean and running_var both given or
 * both NULL (else PN_ERR_NULL); rows, cols >= 1, rows·cols <=
 * PN_MAX_ELEMENTS; eps >= 0 and finite; momentum in [0, 1].
 * Errors: PN_ERR_NULL, PN_ERR_SIZE, PN_ERR_ARG. */
int pn_batchnorm_train_f32(float *y, float *batch_mean, float *batch_var,
                           float *running_mean, float *running_var,
                           const float *x, const float *gamma,
                           const float *beta, int32_t rows, int32_t cols,
                           float eps, float momentum);

/* pn_batchnorm_infer_f32 — BatchNorm at inference with running statistics:
 *   y[r][c] = gamma[c]·(x[r][c] - running_mean[c])/sqrt(running_var[c] + eps)
 *             + beta[c]
 * running_mean, running_var: [cols], required. gamma/beta may be NULL.
 * In place allowed. Preconditions: x, y, running_mean, running_var !=
 * NULL; rows, cols >= 1, rows·cols <= PN_MAX_ELEMENTS; eps >= 0 and finite.
 * running_var is not checked: where running_var[c] + eps is negative (or
 * 0) the column's y is NaN (or ±Inf), as the float64 formula gives.
 * Errors: PN_ERR_NULL, PN_ERR_SIZE, PN_ERR_ARG (eps). */
int pn_batchnorm_infer_f32(float *y, const float *x, const float *gamma,
                           const float *beta, const float *running_mean,
                           const float *running_var, int32_t rows,
                           int32_t cols, float eps);

/* ======================================================================
 * ROTARY AND LINEAR-BIAS POSITIONS (src/rope.c, src/alibi.c)
 * ====================================================================== */

/* Memory layouts of RoPE's input and output. */
enum pn_rope_layout {
  /* [batch × seq_len × heads × head_dim]; also ONNX's 3-D input
   * [batch × seq_len × heads·head_dim] (num_heads given) */
  PN_ROPE_BSHD = 0,
  /* [batch × heads × seq_len × head_dim]: ONNX RotaryEmbedding's 4-D input
   * and Hugging Face's apply_rotary_pos_emb */
  PN_ROPE_BHSD = 1
};

/* pn_rope_f32 — rotary position embedding (ONNX RotaryEmbedding semantics,
 * opset 23, with the cos/sin values computed here).
 *
 * x, y: [batch × seq_len × heads × head_dim] (PN_ROPE_BSHD) or
 * [batch × heads × seq_len × head_dim] (PN_ROPE_BHSD). For token (b, s) the
 * position is p = position_ids[b·seq_len + s] when position_ids != NULL,
 * else offset + s. For i in [0, rotary_dim/2), w_i = base^(-2i/rotary_dim) and
 *   interleaved:  (a, b) = (x[2i], x[2i+1])
 *   half-split:   (a, b) = (x[i],  x[i + rotary_dim/2])
 *   a' = a·cos(p·w_i) - b·sin(p·w_i),  b' = a·sin(p·w_i) + b·cos(p·w_i)
 * in float32 with cos/sin rounded once from float64, as PE (not always
 * correctly rounded: a float64 value within its own error of a float32
 * midpoint may round either way). An angle p·w_i of 2^20 or more is a
 * double-double, as PE's (with ids every such angle; with an offset each
 * table anchor, the rows after it rotated): cos/sin within about 1e-12 of
 * the exact ones before rounding, where a float64 angle was up to 6e-7 rad
 * off near 2^31; below 2^20 the float64 angle, within 3e-9 rad. Each output
 * of the pair (a, b) is within 3e-7·(|a| + |b|) + 2^-149 of the exact
 * rotation. Dims at and beyond rotary_dim are copied.
 * In place allowed.
 * Preconditions: x, y != NULL; batch, seq_len, heads, head_dim >= 1;
 * batch·seq_len·heads·head_dim <= PN_MAX_ELEMENTS (PN_ERR_SIZE);
 * rotary_dim even, 2 <= rotary_dim <= head_dim; interleaved 0 or 1; layout
 * a pn_rope_layout; base > 1 and finite; offset >= 0 and offset + seq_len
 * <= 2^31 (when position_ids == NULL); every position id >= 0
 * (PN_ERR_ARG; the ids are read before anything is allocated).
 * Scratch: 8·seq_len·(rotary_dim/2) bytes, 24·(rotary_dim/2) with position
 * ids (one row, the float64 frequencies and their double-double rests; at
 * most 3·2^30, for rotary_dim 2^28, past the wasm builds' 2 GiB:
 * PN_ERR_NOMEM).
 * Errors: PN_ERR_NULL, PN_ERR_SIZE, PN_ERR_ARG, PN_ERR_NOMEM. */
int pn_rope_f32(float *y, const float *x, const int32_t *position_ids,
                int32_t batch, int32_t seq_len, int32_t heads,
                int32_t head_dim, int32_t rotary_dim, double base,
                int32_t offset, int32_t interleaved, int32_t layout);

/* pn_rope_cache_f32 — RoPE with the cos/sin caches given, exactly as ONNX
 * RotaryEmbedding (opset 23) receives them as inputs.
 *
 * cos_cache, sin_cache: [cache_rows × rotary_dim/2]. With position_ids
 * (ONNX's 2-D caches) token (b, s) takes row position_ids[b·seq_len + s],
 * which must be in [0, cache_rows); without (ONNX's 3-D caches
 * [batch × seq_len × rotary_dim/2]) cache_rows must be batch·seq_len and
 * token (b, s) takes row b·seq_len + s. The rotation is pn_rope_f32's with
 * cos(p·w_i), sin(p·w_i) replaced by the cache values c, s (float32
 * products): each output is within 1.2e-7·(|a·c| + |b·s|) + 2^-149 of the
 * float64 rotation by c and s as given, products within float32's range
 * (ONNX allows any values; the two
 * products and their sum are each rounded once, no fused multiply-add).
 * x, y, layout, interleaved, rotary_dim as pn_rope_f32; in place allowed.
 * Preconditions: x, y, cos_cache, sin_cache != NULL; the shape as
 * pn_rope_f32; cache_rows >= 1 and cache_rows·(rotary_dim/2) <=
 * PN_MAX_ELEMENTS (counted for any rotary_dim >= 2, valid or not), and
 * without ids cache_rows == batch·seq_len (PN_ERR_SIZE); rotary_dim, interleaved, layout as pn_rope_f32 and every
 * id in [0, cache_rows) (PN_ERR_ARG). No scratch.
 * Errors: PN_ERR_NULL, PN_ERR_SIZE, PN_ERR_ARG. */
int pn_rope_cache_f32(float *y, const float *x, const float *cos_cache,
                      const float *sin_cache, const int32_t *position_ids,
                      int32_t cache_rows, int32_t batch, int32_t seq_len,
                      int32_t heads, int32_t head_dim, int32_t rotary_dim,
                      int32_t interleaved, int32_t layout);

/* ======================================================================
 * ROPE SCALING FOR LONG CONTEXT (src/rope_scaling.c)
 * ====================================================================== */

/* The rope_scaling types of Hugging Face transformers (main branch, late
 * 2026), which long-context models ship in their configs. */
enum pn_rope_scaling_type {
  PN_SCALING_NONE = 0,     /* plain RoPE                                        */
  PN_SCALING_LINEAR = 1,   /* Position Interpolation (Chen et al., 2023)        */
  PN_SCALING_DYNAMIC = 2,  /* dynamic NTK-aware: the base grows with seq_len    */
  PN_SCALING_YARN = 3,     /* YaRN (Peng et al., 2023)                          */
  PN_SCALING_LLAMA3 = 4,   /* the Llama 3.1 rule                                */
  PN_SCALING_LONGROPE = 5  /* LongRoPE (Phi-3): per-pair factors               */
};

/* Indices into the params[PN_SCALING_PARAMS] array of pn_rope_frequencies_f64
 * (HF's keys; NaN where a key is absent). */
enum pn_rope_scaling_param {
  PN_SCALING_FACTOR = 0,              /* factor                                  */
  PN_SCALING_ORIGINAL_MAX = 1,        /* original_max_position_embeddings        */
  PN_SCALING_BETA_FAST = 2,           /* yarn (HF's default: 32; not applied)   */
  PN_SCALING_BETA_SLOW = 3,           /* yarn (HF's default: 1; not applied)    */
  PN_SCALING_MSCALE = 4,              /* yarn                                    */
  PN_SCALING_MSCALE_ALL_DIM = 5,      /* yarn                                    */
  PN_SCALING_ATTENTION_FACTOR = 6,    /* any type; NaN: the type's default      */
  PN_SCALING_LOW_FREQ_FACTOR = 7,     /* llama3                                  */
  PN_SCALING_HIGH_FREQ_FACTOR = 8,    /* llama3                                  */
  PN_SCALING_TRUNCATE = 9,            /* yarn: 1 (default) or 0                  */
  PN_SCALING_PARAMS = 10
};

/* pn_rope_frequencies_f64 — inv_freq[i], i in [0, dim/2), and the attention
 * factor for a rope_scaling type, in float64, as HF transformers computes
 * them (with original_max_position_embeddings in the role of HF's
 * max_position_embeddings where HF falls back to it):
 *   none:     w_i = base^(-2i/dim); attention factor 1 (and for every type
 *             below but yarn and longrope)
 *   linear:   w_i / factor
 *   dynamic:  base' = base·(factor·s/orig - (factor - 1))^(dim/(dim-2)) with
 *             s = max(seq_len, orig); w_i from base'
 *   yarn:     low = max(floor(d(beta_fast)), 0), high = min(ceil(d(beta_slow)),
 *             dim-1) (no rounding when truncate = 0; as HF, each is
 *             bounded on one side only, so beta values far outside the
 *             usual 32 and 1 can give high < 0 or low > dim-1), where
 *             d(r) = dim·ln(orig/(2π·r))/(2·ln base); ramp_i = clamp((i -
 *             low)/(high - low), 0, 1) (high += 0.001 if equal);
 *             w_i = (w_i/factor)·ramp_i + w_i·(1 - ramp_i); attention factor
 *             = m(factor, mscale)/m(factor, mscale_all_dim) when both are
 *             given and non-zero, else m(factor, 1), m(s, k) = 0.1·k·ln s + 1
 *             (1 for s <= 1)
 *   llama3:   with wavelength λ_i = 2π/w_i, L = orig/low_freq_factor,
 *             H = orig/high_freq_factor: λ_i > L → w_i/factor; H <= λ_i <= L
 *             → (1 - t)·w_i/factor + t·w_i, t = (orig/λ_i - low_freq_factor)/
 *             (high_freq_factor - low_freq_factor); else w_i
 *   longrope: w_i / ext_i, ext = long_factor when seq_len > orig else
 *             short_factor (each dim/2 values > 0); attention factor
 *             sqrt(1 + ln factor / ln orig) (1 when factor <= 1)
 * An attention factor given in params (not NaN) replaces the type's
 * default, for every type, none included (HF reads attention_factor for
 * yarn and longrope only; posnorm.js's rope takes it for those two, as
 * HF). The other parameters a type does not use are ignored (any value).
 * Preconditions, in the order they are checked:
 *   PN_ERR_NULL  inv_freq, attention_factor != NULL; params != NULL for
 *                every type but none; longrope: short_factor and
 *                long_factor both != NULL (dim/2 values each)
 *   PN_ERR_SIZE  dim even in [2, 65536]; dim >= 4 for dynamic (its exponent
 *                is dim/(dim - 2))
 *   PN_ERR_ARG   base > 1 and finite; type a pn_rope_scaling_type; seq_len
 *                >= 0 and finite; a given attention factor (not NaN) finite
 *                and > 0; every type but none: factor finite and > 0;
 *                dynamic, yarn, llama3, longrope: orig finite and >= 1;
 *                dynamic: the grown base finite (and > 1);
 *                yarn: beta_fast, beta_slow finite and > 0 (HF's defaults
 *                32 and 1 are the caller's to fill in), both correction
 *                dimensions d(beta) finite (orig/(2π·beta) neither 0 nor
 *                +Inf), mscale and mscale_all_dim finite or NaN, truncate
 *                NaN, 0 or 1;
 *                llama3: 0 < low_freq_factor < high_freq_factor, finite;
 *                longrope: every value of both lists finite and > 0;
 *                the attention factor, given or computed, finite and > 0
 *                (yarn's m(factor, mscale)/m(factor, mscale_all_dim) can be
 *                negative or divide by 0; longrope's divides by ln orig,
 *                0 for orig = 1 when factor > 1);
 *                every inv_freq finite (a subnormal factor overflows
 *                w_i/factor).
 * Everything is computed before anything is written. No scratch.
 * Errors: PN_ERR_NULL, PN_ERR_SIZE, PN_ERR_ARG. */
int pn_rope_frequencies_f64(double *inv_freq, double *attention_factor,
                            int32_t dim, double base, int32_t type,
                            const double *params, const double *short_factor,
                            const double *long_factor, double seq_len);

/* pn_rope_frequencies_dd_f64 — pn_rope_frequencies_f64 (the same
 * inv_freq, bit for bit, and attention factor, the same checks and errors;
 * inv_freq_lo != NULL too, else PN_ERR_NULL) with each frequency's rest in
 * double-double: inv_freq_lo[i] such that inv_freq[i] + inv_freq_lo[i] is
 * the type's formula above with w_i = base^(-2i/dim) exact (of the grown
 * base for dynamic, as computed in float64), yarn's ramp and llama3's
 * smoothing exact too (in double-double: the ramp's ends from ln and π in
 * double-double, llama3's wavelength from the exact w_i; the ramp's clamp
 * and llama3's bands decided on those values; yarn's floor/ceil, the
 * clamps of its ends to [0, dim - 1] and low == high as in float64),
 * within about 1e-29 relative (1e-31 over the relative width of a narrow
 * yarn ramp or llama3 band; see LIMITS), for every frequency (also a
 * float64 one that is tiny, 0 or negative, which a ramp or band narrow
 * against its float64 ends' rounding can give where the exact one is not);
 * inv_freq_lo[i] = 0 where |inv_freq[i]| >= 2^41 (no factor the JS API
 * allows gives one: such a frequency's angles carry its float64 rounding
 * times p), and where the
 * rest's double-double arithmetic would overflow (a quotient a/d past
 * 2^996: factors below about 1e-300). inv_freq alone is a few ulps from
 * the formula's value, which positions near 2^31 multiply into angles off
 * by up to 5e-7 rad (docs/accuracy.md). Everything is computed before
 * anything is written. No scratch.
 * Errors: PN_ERR_NULL, PN_ERR_SIZE, PN_ERR_ARG. */
int pn_rope_frequencies_dd_f64(double *inv_freq, double *inv_freq_lo,
                               double *attention_factor, int32_t dim,
                               double base, int32_t type, const double *params,
                               const double *short_factor,
                               const double *long_factor, double seq_len);

/* pn_rope_scaled_f32 — RoPE with given float64 frequencies (from
 * pn_rope_frequencies_f64) and attention factor, applied as those models
 * apply it: cos(p·w_i)·factor and sin(p·w_i)·factor, each rounded once to
 * float32, rotate the pairs as in pn_rope_f32. Positions, layout and
 * in-place use as pn_rope_f32. The angle p·w_i is the exact product of the
 * position and the given w_i: rounded to float64 where |p·w_i| < 2^20 (at
 * most 2^-33 rad off), a double-double from 2^20 on (cos/sin within
 * about 2e-16 of those of the exact product; past 2^41, which a linear
 * factor under 1/1024 reaches, from sin and cos of both parts);
 * pn_rope_scaled_dd_f32 takes the frequencies' rests too.
 * Preconditions: x, y, inv_freq != NULL; the shape, rotary_dim,
 * interleaved, layout, offset and position ids as pn_rope_f32;
 * attention_factor finite and > 0; inv_freq[0 .. rotary_dim/2) finite
 * (an angle p·w_i past float64's range gives NaN, not an error: the
 * frequencies pn_rope_frequencies_f64 computes stay far below that).
 * Scratch: 8·batch·seq_len·(rotary_dim/2) bytes (at most 2^30).
 * Errors: PN_ERR_NULL, PN_ERR_SIZE, PN_ERR_ARG, PN_ERR_NOMEM. */
int pn_rope_scaled_f32(float *y, const float *x, const int32_t *position_ids,
                       const double *inv_freq, double attention_factor,
                       int32_t batch, int32_t seq_len, int32_t heads,
                       int32_t head_dim, int32_t rotary_dim, int32_t offset,
                       int32_t interleaved, int32_t layout);

/* pn_rope_scaled_dd_f32 — pn_rope_scaled_f32 with the frequencies as
 * double-doubles: w_i = inv_freq[i] + inv_freq_lo[i] (from
 * pn_rope_frequencies_dd_f64), where an angle |p·inv_freq[i]| reaches 2^20
 * or |inv_freq_lo[i]| passes 2^-44·max(|inv_freq[i]|, 2^-11) (a yarn
 * ramp or llama3 band narrow against its float64 ends' rounding: the
 * float64 frequency many ulps off; the angle in double-double as from
 * 2^20, p·inv_freq_lo[i] rounded once: up to p·|inv_freq_lo[i]|·2^-53
 * more); elsewhere inv_freq_lo is not used: the same bits as
 * pn_rope_scaled_f32 (a rest left out below 2^20 is at most 2^-24 = 6e-8
 * rad; real configs' rests are within 2^-47.8·w_i).
 * Preconditions as pn_rope_scaled_f32, and inv_freq_lo != NULL
 * (PN_ERR_NULL), inv_freq_lo[0 .. rotary_dim/2) finite (PN_ERR_ARG).
 * Scratch: as pn_rope_scaled_f32.
 * Errors: PN_ERR_NULL, PN_ERR_SIZE, PN_ERR_ARG, PN_ERR_NOMEM. */
int pn_rope_scaled_dd_f32(float *y, const float *x,
                          const int32_t *position_ids, const double *inv_freq,
                          const double *inv_freq_lo, double attention_factor,
                          int32_t batch, int32_t seq_len, int32_t heads,
                          int32_t head_dim, int32_t rotary_dim, int32_t offset,
                          int32_t interleaved, int32_t layout);

/* pn_alibi_slopes_f32 — the ALiBi head slopes m_h, h in [0, heads).
 * For heads = 2^k: m_h = 2^(-8(h+1)/heads). Otherwise, with P the largest
 * power of two below heads: the P slopes for P heads, followed by the slopes
 * for 2P heads at even positions 0, 2, 4, … up to heads - P of them
 * (Press et al., 2022, "Train Short, Test Long", reference implementation).
 * Preconditions: slopes != NULL; 1 <= heads <= 65536.
 * Errors: PN_ERR_NULL, PN_ERR_SIZE. */
int pn_alibi_slopes_f32(float *slopes, int32_t heads);

/* pn_alibi_bias_f32 — bias[h][i][j] = -m_h·|i - j|, [heads × seq_len × seq_len]
 * (the symmetric form; a causal mask, if wanted, is applied separately).
 * Preconditions: bias != NULL; heads in [1, 65536]; seq_len >= 1;
 * heads·seq_len² <= PN_MAX_ELEMENTS. Errors: PN_ERR_NULL, PN_ERR_SIZE. */
int pn_alibi_bias_f32(float *bias, int32_t heads, int32_t seq_len);

/* ======================================================================
 * BFLOAT16 AND FLOAT16 (src/lowprec.c)
 * ======================================================================
 *
 * What PE and RoPE become when a model runs in bfloat16 or float16, step by
 * step as PyTorch computes them on the CPU. Results are float32 arrays that
 * hold values of the type exactly (every value is a bfloat16 or float16
 * value; its float32 bits are the type's bits widened). Rounding to the type
 * is round to nearest, ties to even: bfloat16 keeps 8 significant bits with
 * float32's exponent range (subnormals down to 2^-133, largest finite
 * 0x1.FEp127); float16 keeps 11 with normals from 2^-14, subnormals down to
 * 2^-24 and largest finite 65504 (from 65520 up: Inf). ±0 and ±Inf keep
 * themselves; every NaN becomes the quiet NaN 0x7FC00000.
 *
 * A step is one float32 operation — sin, cos, exp and pow are the float64
 * function of the float32 argument rounded to float32 — followed by R: the
 * rounding to the type under PN_COMPUTE_LOW (every tensor is in the type, as
 * PyTorch keeps a bfloat16/float16 tensor: compute in float32, round each
 * result), none under PN_COMPUTE_FLOAT32 (the float32 code; only the steps
 * marked T below round to the type). Python scalars (ln(base)/d_model, base,
 * rotary_dim) enter as float32 and are not rounded to the type. */

/* The types. */
enum pn_dtype {
  PN_DTYPE_FLOAT32 = 0, /* no rounding: the float32 code itself */
  PN_DTYPE_BFLOAT16 = 1,
  PN_DTYPE_FLOAT16 = 2
};

/* Which steps run in the type. */
enum pn_compute {
  PN_COMPUTE_FLOAT32 = 0, /* float32 steps, the results rounded to the type */
  PN_COMPUTE_LOW = 1      /* every step rounded to the type */
};

/* pn_round_f32 — y[k] = x[k] rounded to dtype (a pn_dtype; PN_DTYPE_FLOAT32
 * copies), round to nearest, ties to even, as described above.
 * In place allowed.
 * Preconditions: y, x != NULL; 1 <= n <= PN_MAX_ELEMENTS; dtype a pn_dtype.
 * Errors: PN_ERR_NULL, PN_ERR_SIZE, PN_ERR_ARG. */
int pn_round_f32(float *y, const float *x, int32_t n, int32_t dtype);

/* pn_pe_lowprec_f32 — the article's PyTorch sinusoidal PE
 * (pn_pe_float32_code_f32) with its tensors in dtype. For row r, pair i:
 *   1. pos   = R((float)(offset + r))            torch.arange(...).float()
 *   2. k     = R(2i)                             torch.arange(0, d, 2)
 *   3. e     = R(k · (float)(-ln(base)/d_model))
 *   4. div   = R(exp(e))
 *   5. angle = R(pos · div)
 *   6. sin   = T(sin(angle)), cos = T(cos(angle))
 * where T rounds to dtype and R is T under PN_COMPUTE_LOW and nothing under
 * PN_COMPUTE_FLOAT32. So PN_COMPUTE_FLOAT32 is pn_pe_float32_code_f32's table
 * rounded to the type (what model.to(dtype) does to a stored table), and
 * PN_DTYPE_FLOAT32 is pn_pe_float32_code_f32 itself in either mode. Layouts
 * as pn_pe_sinusoidal_f32.
 * Preconditions as pn_pe_sinusoidal_f32; dtype a pn_dtype; compute a
 * pn_compute (else PN_ERR_ARG).
 * Errors: PN_ERR_NULL, PN_ERR_SIZE, PN_ERR_ARG. */
int pn_pe_lowprec_f32(float *out, int32_t seq_len, int32_t d_model, double base,
                      int32_t offset, int32_t layout, int32_t dtype,
                      int32_t compute);

/* pn_rope_lowprec_f32 — RoPE as Hugging Face's Llama code runs it with the
 * model in dtype. For token (b, s) at position p (as pn_rope_f32) and pair i
 * in [0, rotary_dim/2):
 *   1. k     = R(2i)                               torch.arange(0, dim, 2)
 *   2. ex    = R(k / (float)rotary_dim)
 *   3. pw    = R(pow((float)base, ex))
 *   4. inv   = R(1 / pw)                           inv_freq
 *   5. pos   = R((float)p)                         position_ids
 *   6. angle = R(pos · inv)                        freqs
 *   7. c     = T(cos(angle)), s = T(sin(angle))    cos/sin cast to the type
 *   8. (a, b) = (T(x_a), T(x_b))                   the activations in the type
 *   9. a' = T(T(a·c) − T(b·s)),  b' = T(T(b·c) + T(a·s))
 * with the pairs (a, b) of pn_rope_f32 (interleaved or half-split); dims at
 * and beyond rotary_dim are T(x). T and R as pn_pe_lowprec_f32:
 * PN_COMPUTE_FLOAT32 is HF's path (float32 angles, cos/sin and the rotation in
 * the type), PN_COMPUTE_LOW computes the frequencies and angles in the type
 * too; PN_DTYPE_FLOAT32 is HF's float32 code. In place allowed.
 * Preconditions as pn_rope_f32, and base <= FLT_MAX (it is taken as a
 * float32, step 3); dtype a pn_dtype; compute a pn_compute (else
 * PN_ERR_ARG). Allocates nothing.
 * Errors: PN_ERR_NULL, PN_ERR_SIZE, PN_ERR_ARG. */
int pn_rope_lowprec_f32(float *y, const float *x, const int32_t *position_ids,
                        int32_t batch, int32_t seq_len, int32_t heads,
                        int32_t head_dim, int32_t rotary_dim, double base,
                        int32_t offset, int32_t interleaved, int32_t layout,
                        int32_t dtype, int32_t compute);

/* ======================================================================
 * MEMORY BANDWIDTH (src/copy.c)
 * ====================================================================== */

/* pn_copy_f32 — dst[k] = src[k]: the memory-bandwidth yardstick of the
 * benchmarks (same loads and stores a kernel cannot avoid).
 * Preconditions: dst, src != NULL; 1 <= n <= PN_MAX_ELEMENTS.
 * Errors: PN_ERR_NULL, PN_ERR_SIZE. */
int pn_copy_f32(float *dst, const float *src, int32_t n);

#ifdef __cplusplus
}
#endif
#endif /* POSNORM_H */
