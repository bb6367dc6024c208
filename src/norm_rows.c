/* norm_rows.c — the row loop LayerNorm and RMSNorm share (method and
 * accuracy: posnorm.h): each row's statistics from float32 block sums taken
 * while the previous row was written (RMSNorm past the caches: just before
 * the row is written, "two passes per row" below), the check that those
 * sums can be trusted, the float32 output pass, and the float64 row for
 * the rows that fail the check. layernorm.c and rmsnorm.c validate and
 * call it. */
#include <math.h>

#include "pn_f64.h"
#include "pn_internal.h"
#include "pn_simd.h"
#include "pn_sums.h"

/* ======================================================================
 * The output pass: a row written in float32
 * ====================================================================== */

/* A row's output takes one of three forms (WRITE), every step in float32:
 *   WRITE_CENTER    LayerNorm t = ((x - a) - c)·inv, a + c the mean (a its
 *                   float32 rounding, c the rest);
 *   WRITE_CENTER_HI LayerNorm t = (x - a)·inv, for rows whose |c·inv| is at
 *                   most DROP_LO (2^-24): the term left out is at most
 *                   6e-8 before rounding (|γ| times that with γ), so an
 *                   output moves by about an ulp of itself at most (a
 *                   review measured 1.8e-7 at t near 1 without γ, β, and
 *                   4.8e-7 with |γ| <= 2), against the bound of 5e-6.
 *                   As |c| <= 2^-24·|mean|, every row with |mean| <= its
 *                   standard deviation qualifies, and some up to twice
 *                   that (2^-26 took rows up to a quarter: make bench's
 *                   rows, mean 3 and std 2, paid a subtraction per
 *                   value; 0.086 → 0.072 ms at 512×768);
 *   WRITE_SCALE     RMSNorm t = x·inv;
 * then y = t·gamma + beta where given (norm_affine, a second pass over the
 * row while it is in cache: t is stored and reloaded as float32, exactly,
 * so the bits are those of one pass). WRITE is a compile-time constant in
 * each row function below, and each γ/β loop has its own flags, so no
 * output loop carries a branch: the variant is chosen once per row
 * (write_row) and per call (pick_affine), not per value. */
enum { WRITE_SCALE = 0, WRITE_CENTER = 1, WRITE_CENTER_HI = 2 };
#define DROP_LO 0x1p-24
#define NORM_VEC(XP, YP)                                                       \
  do {                                                                         \
    pn_f32x4 t = pn_f32x4_load(XP);                                            \
    if (write_ != WRITE_SCALE) t = pn_f32x4_sub(t, va);                        \
    if (write_ == WRITE_CENTER) t = pn_f32x4_sub(t, vc);                       \
    t = pn_f32x4_mul(t, vinv);                                                 \
    pn_f32x4_store(YP, t);                                                     \
  } while (0)
/* 16 values of this row at offset t of the block at j, written between
 * the steps of the next row's block sums (PN_SUMS_BLOCK_STEPS); constant
 * offsets from one pointer per array, which wasm loads carry as immediates */
#define NORM_STEP(t)                                                           \
  do {                                                                         \
    const float *xs = x + j + (t);                                             \
    float *ys = y + j + (t);                                                   \
    NORM_VEC(xs, ys);                                                          \
    NORM_VEC(xs + 4, ys + 4);                                                  \
    NORM_VEC(xs + 8, ys + 8);                                                  \
    NORM_VEC(xs + 12, ys + 12);                                                \
  } while (0)

/* Writes one row y (n values) from x in the form WRITE while it sums the
 * row `next` about `shift` in the mode SUMS (pn_sums.h, the same bits as
 * pn_shifted_sums_f32): one loop whose every step reads 16 values of row
 * r+1 and writes 16 of row r, so a read stream and a write stream stay in
 * flight together, as in a copy, and the float32 work of both interleaves.
 * RMSNorm (PN_SUMS_SQUARES) takes only the squares (*sd is set to 0). The
 * last row passes itself as `next` (in place too: each step reads its
 * values of `next` before it writes). Past the caches LayerNorm's rows
 * through this loop run about 1.6× the copy loop on issue #20's EPYC at
 * 4096×4096 and 65536×256 (RMSNorm's long rows take two passes there,
 * below); what was tried against that is in docs/decisions.md, "LayerNorm
 * past the caches". */
#define NORM_ROW(NAME, WRITE, SUMS)                                            \
  static void NAME(float *y, const float *x, int32_t n, float a, float c,      \
                   float inv, const float *next, float shift, double *sd,      \
                   double *sq) {                                               \
    const int write_ = WRITE;                                                  \
    const pn_f32x4 va = pn_f32x4_splat(a), vc = pn_f32x4_splat(c);             \
    const pn_f32x4 vinv = pn_f32x4_splat(inv), k = pn_f32x4_splat(shift);      \
    pn_sums acc = pn_sums_zero();                                              \
    int32_t j = 0;                                                             \
    for (; j + PN_SUMS_BLOCK <= n; j += PN_SUMS_BLOCK)                         \
      PN_SUMS_BLOCK_STEPS(acc, next + j, k, SUMS, NORM_STEP);                  \
    const int32_t n4 = n & ~3;                                                 \
    pn_sums_add(&acc, next + j, n4 - j, shift);                                \
    pn_sums_finish(&acc, next, n4, n, shift, sd, sq);                          \
    if ((SUMS) == PN_SUMS_SQUARES) *sd = 0.0;                                  \
    PN_LOOP_AS_WRITTEN                                                         \
    for (; j + 4 <= n; j += 4) NORM_VEC(x + j, y + j);                         \
    PN_LOOP_AS_WRITTEN                                                         \
    for (; j < n; j++) {                                                       \
      y[j] = write_ == WRITE_SCALE ? x[j] * inv                                \
             : write_ == WRITE_CENTER ? ((x[j] - a) - c) * inv                 \
                                      : (x[j] - a) * inv;                      \
    }                                                                          \
  }
/* The scalar wasm (pn_simd.h lane by lane) goes without the variants that
 * sum about +0 without subtractions: they give the same bits as subtracting
 * +0, and would take it past its 44 KB budget (tests/build_outputs). The
 * SIMD wasm and the native build (which the C tests, sanitizers and
 * fuzzers run) have them. */
#if defined(__wasm_simd128__) || !defined(__wasm__)
#define SUMS_AT_0_VARIANTS 1
#else
#define SUMS_AT_0_VARIANTS 0
#endif

NORM_ROW(row_center, WRITE_CENTER, PN_SUMS_SHIFTED)
NORM_ROW(row_center_hi, WRITE_CENTER_HI, PN_SUMS_SHIFTED)
NORM_ROW(row_scale, WRITE_SCALE, PN_SUMS_SQUARES)
#if SUMS_AT_0_VARIANTS
NORM_ROW(row_center_next_at_0, WRITE_CENTER, PN_SUMS_UNSHIFTED)
NORM_ROW(row_center_hi_next_at_0, WRITE_CENTER_HI, PN_SUMS_UNSHIFTED)
#else
#define row_center_next_at_0 row_center
#define row_center_hi_next_at_0 row_center_hi
#endif

/* Writes row r (the arguments of the row functions) in the variant for its
 * write form and its next row's shift: sums without subtractions when that
 * shift is +0 (the same bits). Direct calls, not a table: each is inlined
 * (a call through a pointer cost 8 % at 512×768). */
static void write_row(int center, double c_inv, float *y, const float *x,
                      int32_t n, float a, float c, float inv,
                      const float *next, float shift, double *sd, double *sq) {
  if (!center) {
    row_scale(y, x, n, a, c, inv, next, shift, sd, sq);
    return;
  }
  const int at_0 = shift == 0.0f && !signbit(shift);
  if (fabs(c_inv) <= DROP_LO) {
    if (at_0) row_center_hi_next_at_0(y, x, n, a, c, inv, next, shift, sd, sq);
    else row_center_hi(y, x, n, a, c, inv, next, shift, sd, sq);
  } else {
    if (at_0) row_center_next_at_0(y, x, n, a, c, inv, next, shift, sd, sq);
    else row_center(y, x, n, a, c, inv, next, shift, sd, sq);
  }
}

/* y = y·gamma + beta over a row of n, as the row functions left it; one
 * loop per variant (HAS_GAMMA, HAS_BETA compile-time constants) */
#define NORM_AFFINE(NAME, HAS_GAMMA, HAS_BETA)                                 \
  static void NAME(float *y, const float *gamma, const float *beta,            \
                   int32_t n) {                                                \
    (void)gamma;                                                               \
    (void)beta;                                                                \
    int32_t j = 0;                                                             \
    PN_LOOP_AS_WRITTEN                                                         \
    for (; j + 4 <= n; j += 4) {                                               \
      pn_f32x4 t = pn_f32x4_load(y + j);                                       \
      if (HAS_GAMMA) t = pn_f32x4_mul(t, pn_f32x4_load(gamma + j));            \
      if (HAS_BETA) t = pn_f32x4_add(t, pn_f32x4_load(beta + j));              \
      pn_f32x4_store(y + j, t);                                                \
    }                                                                          \
    PN_LOOP_AS_WRITTEN                                                         \
    for (; j < n; ++j) {                                                       \
      float t = y[j];                                                          \
      if (HAS_GAMMA) t = t * gamma[j];                                         \
      if (HAS_BETA) t = t + beta[j];                                           \
      y[j] = t;                                                                \
    }                                                                          \
  }
NORM_AFFINE(affine_gamma, 1, 0)
NORM_AFFINE(affine_beta, 0, 1)
NORM_AFFINE(affine_both, 1, 1)

typedef void (*affine_fn)(float *y, const float *gamma, const float *beta,
                          int32_t n);

static affine_fn pick_affine(int has_gamma, int has_beta) {
  if (!has_gamma) return has_beta ? affine_beta : NULL;
  return has_beta ? affine_both : affine_gamma;
}

/* ======================================================================
 * The statistics of a row
 * ====================================================================== */

/* The shift a row's float32 sums are taken about: LayerNorm's provisional
 * mean; RMSNorm sums the squares themselves, about 0. */
static float row_shift(int center, const float *x, int32_t n) {
  return center ? pn_provisional_shift(x, n) : 0.0f;
}

/* The row's mean (0 for RMSNorm) and its mean square about it, from the
 * sums (sd, sq) about `shift`; 0 when the float32 sums cannot be trusted
 * (pn_sums_trustworthy), and the row must be redone in float64. */
static int row_moments(int center, const float *x, int32_t n, float shift,
                       double sd, double sq, double *mean, double *var) {
  if (center) return pn_moments_finish(x, n, shift, sd, sq, mean, var);
  if (!pn_sums_trustworthy(0.0, sd, sq, n)) return 0;
  *mean = 0.0;
  *var = sq / (double)n;
  return 1;
}

/* The whole row in float64, for rows whose float32 sums overflowed or
 * underflowed (|x| or deviations beyond about 1.8e19, or below about
 * 1e-15): float64 holds squares of every float32 and their sums, so the
 * result is the float64 one rounded once. NaN and ±Inf propagate as in the
 * fast path. LayerNorm adds back the part of the mean its rounding left
 * out, as pn_moments_finish does. */
static void row_f64(float *y, float *mean, float *inv_out, const float *x,
                    const float *gamma, const float *beta, int32_t n,
                    float eps, int center) {
  double m, var, c;
  pn_mean_var_f64(pn_values_f32(x, (size_t)n), center, &m, &var, &c);
  if (center) {
    var -= c * c;
    if (var < 0.0) var = 0.0;
  }
  const double inv = 1.0 / sqrt(var + (double)eps);
  if (center) m += c;
  if (mean) *mean = (float)m;
  if (inv_out) *inv_out = (float)inv;
  PN_LOOP_AS_WRITTEN
  for (int32_t j = 0; j < n; j++) {
    double t = ((double)x[j] - m) * inv;
    if (gamma) t *= (double)gamma[j];
    if (beta) t += (double)beta[j];
    y[j] = (float)t;
  }
}

/* ======================================================================
 * RMSNorm over matrices past the caches: two passes per row
 * ====================================================================== */

/* From TWO_PASS_MIN values up (16 MiB in, as much out) in rows of
 * TWO_PASS_MIN_COLS or more, RMSNorm sums each row and then writes it from
 * cache, instead of summing row r+1 while it writes row r (why the fused
 * loop, its read stream a row ahead of its writes, costs this much once the
 * matrices leave the caches was not found; what was measured is this).
 * Side by side on this AMD EPYC (Node 20, SIMD build, rows of mean 3 and
 * std 2, ratio to the wasm copy loop of the same bytes), 4096×4096: in make
 * bench's order (LayerNorm first, fastest of 7 rounds, three runs each)
 * 1.20–1.24× against 1.26–1.94× fused, whose runs split between about 1.3×
 * and 1.9×; paired medians with LayerNorm in the same instance 1.03–1.16×
 * against 1.55–1.72×; in processes that ran RMSNorm alone, a review
 * measured 1.32–1.37× in four runs of six and 1.68–1.73× in two, against
 * 1.39–1.43×, so the gain is not in every run. 2048×2048 0.90–1.02×
 * against 0.87–1.03× (the crossing); 2048×1024, in cache, 0.88× against
 * 0.78–0.82×, so smaller matrices keep the fused loop. LayerNorm keeps it
 * at every size: two passes measured the same at 4096×4096 (1.08–1.45×
 * against 1.14–1.42×) and 20 % slower in cache. The sums are those of the
 * fused loop (the blocks of pn_sums.h, squares only) and the output the
 * same x·inv, so the bits are the same either way (tests/norm.test.mjs,
 * test_kernels.c). */
#define TWO_PASS_MIN ((size_t)1 << 22)
/* Short rows keep the fused loop at every size: a review measured two
 * passes 15–23 % slower at 65536×64, 5–16 % at 32768×128, 11 % at 2^22×1,
 * and the same or faster from rows of 512 (4096×1024). */
#define TWO_PASS_MIN_COLS 512
/* The SIMD wasm and the native build have it; the scalar wasm, bound by
 * its arithmetic at every size, goes without (its 44 KB budget). */
#if defined(__wasm_simd128__) || !defined(__wasm__)
#define TWO_PASS 1
#else
#define TWO_PASS 0
#endif

#ifdef PN_COUNT_ALLOC
size_t pn_norm_two_pass_rows = 0;
#define COUNT_TWO_PASS_ROW() (pn_norm_two_pass_rows++)
#else
#define COUNT_TWO_PASS_ROW() ((void)0)
#endif

/* Σx² of one row (*sd = 0), in the blocks and order of the fused loop
 * (pn_sums.h), so the same bits */
static void sums_squares(const float *x, int32_t n, double *sd, double *sq) {
  const pn_f32x4 k = pn_f32x4_splat(0.0f);
  pn_sums acc = pn_sums_zero();
  int32_t j = 0;
  for (; j + PN_SUMS_BLOCK <= n; j += PN_SUMS_BLOCK)
    PN_SUMS_BLOCK_STEPS(acc, x + j, k, PN_SUMS_SQUARES,
                        PN_SUMS_NOTHING_ALONGSIDE);
  const int32_t n4 = n & ~3;
  pn_sums_add(&acc, x + j, n4 - j, 0.0f);
  pn_sums_finish(&acc, x, n4, n, 0.0f, sd, sq);
  *sd = 0.0;
}

/* y = x·inv over one row, as row_scale writes it */
static void scale_row(float *y, const float *x, int32_t n, float inv) {
  const pn_f32x4 vinv = pn_f32x4_splat(inv);
  int32_t j = 0;
  PN_LOOP_AS_WRITTEN
  for (; j + 4 <= n; j += 4)
    pn_f32x4_store(y + j, pn_f32x4_mul(pn_f32x4_load(x + j), vinv));
  PN_LOOP_AS_WRITTEN
  for (; j < n; j++) y[j] = x[j] * inv;
}

/* ======================================================================
 * The row loop
 * ====================================================================== */

/* Row r's sums about its shift were taken while row r-1 was written (row
 * 0's here). The last row's "next" is itself: it is summed once more,
 * unused, rather than carry a variant of the loop. */
void pn_norm_rows_f32(float *y, float *mean, float *inv_out, const float *x,
                      const float *gamma, const float *beta, int32_t rows,
                      int32_t cols, float eps, int center) {
  const affine_fn affine = pick_affine(gamma != NULL, beta != NULL);
  const int two_pass = TWO_PASS && !center && cols >= TWO_PASS_MIN_COLS &&
                       (size_t)rows * (size_t)cols >= TWO_PASS_MIN;
  float shift = row_shift(center, x, cols);
  double sd, sq;
  pn_shifted_sums_f32(x, cols, shift, &sd, &sq);
  for (int32_t r = 0; r < rows; r++) {
    const float *xr = x + (size_t)r * (size_t)cols;
    float *yr = y + (size_t)r * (size_t)cols;
    const float *next = r + 1 < rows ? xr + cols : xr;
    double mu, var;
    /* two passes: this row's sums now (row 0's were taken above), about 0
     * and with the squares' bits of PN_SUMS_SQUARES (x - 0 is x); its Σx
     * is finite whenever its squares are, so the trust check is the same */
    if (two_pass) {
      if (r > 0) sums_squares(xr, cols, &sd, &sq);
      COUNT_TWO_PASS_ROW();
    }
    const int trusted = row_moments(center, xr, cols, shift, sd, sq, &mu, &var);
    /* LayerNorm's next row is summed about 0, without subtractions, when
     * this row's mean was within a quarter of its deviation of 0 (the rows
     * of one matrix tend to be alike; a row that is not takes the second
     * pass of pn_moments_finish, which costs time, not accuracy); else
     * about its provisional shift */
    const float next_shift = center && trusted && 16.0 * mu * mu <= var
                                 ? 0.0f
                                 : row_shift(center, next, cols);
    if (!trusted) {
      row_f64(yr, mean ? mean + r : NULL, inv_out ? inv_out + r : NULL, xr,
              gamma, beta, cols, eps, center);
      if (!two_pass) pn_shifted_sums_f32(next, cols, next_shift, &sd, &sq);
    } else {
      /* y = ((x - hi) - c)·inv, hi + c being the mean (0 for RMSNorm), or
       * (x - hi)·inv where c·inv is negligible (write_row) */
      const float hi = (float)mu;
      const double c = mu - (double)hi;
      const double inv = 1.0 / sqrt(var + (double)eps);
      if (mean) mean[r] = hi;
      if (inv_out) inv_out[r] = (float)inv;
      if (two_pass)
        scale_row(yr, xr, cols, (float)inv);
      else
        write_row(center, c * inv, yr, xr, cols, hi, (float)c, (float)inv,
                  next, next_shift, &sd, &sq);
      if (affine) affine(yr, gamma, beta, cols);
    }
    shift = next_shift;
  }
}
