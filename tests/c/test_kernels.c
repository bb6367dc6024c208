/* test_kernels.c — native C tests of every kernel, against float64
 * references written here, run under AddressSanitizer and UBSan.
 * Prints "N passed, N failed" and exits non-zero on any failure. */
#if !defined(__EMSCRIPTEN__)
#define _POSIX_C_SOURCE 200809L /* alarm() */
#include <unistd.h>
#endif
#include <assert.h> /* the tests' own preconditions (not counted as checks) */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "posnorm.h"
#include "posnorm_figures.h"
#include "pn_f64.h" /* pn_gelu_erf: the erf GELU the block and stack share */
#include "pn_sums.h" /* pn_provisional_shift, PN_SHIFT_SAMPLE */
#include "pn_internal.h" /* pn_norm_two_pass_rows (test builds) */

#include "check.h"

int passed, failed;

/* tests own generator (not the library's): LCG + Box-Muller in float64 */
static unsigned long long lcg_state = 12345;
static double uniform01(void) {
  lcg_state = lcg_state * 6364136223846793005ULL + 1442695040888963407ULL;
  return ((double)(lcg_state >> 11) + 0.5) / 9007199254740992.0;
}
static double gauss(void) {
  return sqrt(-2.0 * log(uniform01())) * cos(6.283185307179586 * uniform01());
}

static float *falloc(size_t n) {
  float *p = malloc(n * sizeof(float) + 1);
  if (!p) abort();
  return p;
}

static void test_pe(void) {
  const int sizes[][2] = {{1, 1}, {2, 2}, {3, 3}, {7, 17}, {17, 7}, {33, 64}, {5, 4097}};
  for (size_t t = 0; t < sizeof sizes / sizeof sizes[0]; t++) {
    for (int layout = 0; layout < 2; layout++) {
      const int S = sizes[t][0], D = sizes[t][1], off = 1000003;
      float *o = falloc((size_t)S * D);
      CHECK(pn_pe_sinusoidal_f32(o, S, D, 10000.0, off, layout) == PN_OK, "pe status");
      double err = 0;
      const int half = (D + 1) / 2;
      for (int r = 0; r < S; r++)
        for (int c = 0; c < D; c++) {
          int i, is_cos;
          if (layout == PN_PE_INTERLEAVED) { i = c / 2; is_cos = c & 1; }
          else { is_cos = c >= half; i = is_cos ? c - half : c; }
          const double a = (double)(off + r) * pow(10000.0, -2.0 * i / D);
          const double ref = is_cos ? cos(a) : sin(a);
          err = fmax(err, fabs(o[(size_t)r * D + c] - ref));
        }
      CHECK(err <= 2e-7, "pe %dx%d layout %d err %g", S, D, layout, err);
      free(o);
    }
  }
  /* long run across several re-anchors at a large offset */
  const int S = 5000, D = 6;
  float *o = falloc((size_t)S * D);
  pn_pe_sinusoidal_f32(o, S, D, 10000.0, (1 << 20) - S, PN_PE_INTERLEAVED);
  double err = 0;
  for (int r = 0; r < S; r++)
    for (int c = 0; c < D; c++) {
      const double a = (double)((1 << 20) - S + r) * pow(10000.0, -2.0 * (c / 2) / D);
      err = fmax(err, fabs(o[r * D + c] - ((c & 1) ? cos(a) : sin(a))));
    }
  CHECK(err <= 2e-7, "pe long run err %g", err);
  free(o);
  float s[5];
  CHECK(pn_pe_sample_f32(s, 5, 0.25, 0.5, 3, 8, 100.0) == PN_OK, "sample status");
  for (int k = 0; k < 5; k++)
    CHECK(fabs(s[k] - cos((0.25 + 0.5 * k) * pow(100.0, -2.0 / 8))) < 1e-7, "sample %d", k);
  /* one row at a position reduces d_model/2 angles, p·w_i; from two rows
   * on, the rotation by one position (w_i itself) is reduced as well, and
   * row 0 of a longer call has the bits of the row alone */
  {
    float one[64], two[2 * 64], five[5 * 64];
    size_t before = pn_sincos_calls;
    CHECK(pn_pe_sinusoidal_f32(one, 1, 64, 10000.0, 123457, PN_PE_INTERLEAVED) == PN_OK, "pe one row");
    CHECK(pn_sincos_calls - before == 32, "one PE row of 64: %zu sin/cos calls, not 32", pn_sincos_calls - before);
    before = pn_sincos_calls;
    CHECK(pn_pe_sinusoidal_f32(two, 2, 64, 10000.0, 123457, PN_PE_INTERLEAVED) == PN_OK, "pe two rows");
    CHECK(pn_sincos_calls - before == 64, "two PE rows of 64: %zu sin/cos calls, not 64", pn_sincos_calls - before);
    before = pn_sincos_calls;
    CHECK(pn_pe_sinusoidal_f32(five, 5, 64, 10000.0, 123457, PN_PE_INTERLEAVED) == PN_OK, "pe five rows");
    CHECK(pn_sincos_calls - before == 64, "five PE rows of 64: %zu sin/cos calls, not 64", pn_sincos_calls - before);
    CHECK(memcmp(one, five, sizeof one) == 0, "one PE row: the bits of row 0 of five");
    CHECK(memcmp(two, five, sizeof two) == 0, "two PE rows: the bits of rows 0 and 1 of five");
  }
  CHECK(pn_pe_sinusoidal_f32(NULL, 1, 1, 10000, 0, 0) == PN_ERR_NULL, "pe null");
  CHECK(pn_pe_sinusoidal_f32(s, 0, 1, 10000, 0, 0) == PN_ERR_SIZE, "pe size");
  CHECK(pn_pe_sinusoidal_f32(s, 1, 1, 1.0, 0, 0) == PN_ERR_ARG, "pe base");
  CHECK(pn_pe_sinusoidal_f32(s, 1, 1, 10000, -1, 0) == PN_ERR_ARG, "pe offset");
  CHECK(pn_pe_sinusoidal_f32(s, 1, 1, 10000, 0, 2) == PN_ERR_ARG, "pe layout");
  CHECK(pn_pe_sample_f32(s, 1, 0, 1, 8, 8, 10000) == PN_ERR_ARG, "sample dim");
}

static void test_layernorm(void) {
  const int colss[] = {1, 2, 3, 7, 17, 64, 4097, 8192};
  const double means[] = {0, 1e4, -1e6}, stds[] = {1e-2, 1, 1e3};
  for (size_t ci = 0; ci < 8; ci++)
    for (int mi = 0; mi < 3; mi++)
      for (int si = 0; si < 3; si++) {
        const int R = 3, C = colss[ci];
        float *x = falloc((size_t)R * C), *y = falloc((size_t)R * C);
        float *g = falloc(C), *b = falloc(C), mu[3], inv[3];
        for (int j = 0; j < C; j++) { g[j] = (float)(1 + 0.5 * gauss()); b[j] = (float)gauss(); }
        for (int k = 0; k < R * C; k++) x[k] = (float)(means[mi] + stds[si] * gauss());
        CHECK(pn_layernorm_f32(y, mu, inv, x, g, b, R, C, 1e-5f) == PN_OK, "ln status");
        double err = 0;
        for (int r = 0; r < R; r++) {
          double m = 0, v = 0;
          for (int j = 0; j < C; j++) m += x[r * C + j];
          m /= C;
          for (int j = 0; j < C; j++) v += (x[r * C + j] - m) * (x[r * C + j] - m);
          v /= C;
          const double is = 1 / sqrt(v + 1e-5);
          for (int j = 0; j < C; j++)
            err = fmax(err, fabs(y[r * C + j] - (g[j] * (x[r * C + j] - m) * is + b[j])));
          CHECK(fabs(mu[r] - m) <= 1e-6 * fabs(m) + 1e-7 * stds[si], "ln mean");
          CHECK(fabs(inv[r] - is) <= 1e-6 * is, "ln inv");
        }
        CHECK(err <= 5e-6, "ln cols %d mean %g std %g err %g", C, means[mi], stds[si], err);
        free(x); free(y); free(g); free(b);
      }
  /* constant row gives exactly beta; in place */
  float x[5] = {0.1f, 0.1f, 0.1f, 0.1f, 0.1f}, b[5] = {1, -2, 3, 0.5f, 7};
  CHECK(pn_layernorm_f32(x, NULL, NULL, x, NULL, b, 1, 5, 1e-5f) == PN_OK, "ln inplace");
  CHECK(memcmp(x, b, sizeof x) == 0, "constant row gives beta");
  CHECK(pn_layernorm_f32(x, NULL, NULL, x, NULL, NULL, 1, 5, -1.0f) == PN_ERR_ARG, "ln eps");
}

/* A row with one outlier: |t| reaches sqrt(cols - 1) (70.7 at 5000 columns),
 * where float32 itself cannot hold 5e-6 (an ulp of 70.7 is 7.6e-6): the
 * bound is 5e-6 + 2^-22·|y| (posnorm.h). Measured: 6.6e-6 at 5000 × {0, one
 * 100}, 1.3e-5 at 8784 columns, under 2^-22·|y| + 5e-6 in every case below;
 * the plain 5e-6 fails for several. */
static void test_layernorm_outlier_rows(void) {
  const int colss[] = {4097, 5000, 8784, 16384};
  const double bases[] = {0, 3, 1000, -7.5}, outs[] = {1, 100, 1e6};
  int past_abs = 0;
  for (size_t ci = 0; ci < 4; ci++) {
    const int C = colss[ci];
    float *x = falloc(C), *y = falloc(C), *g = falloc(C), *b = falloc(C);
    for (int j = 0; j < C; j++) { g[j] = (float)(2.0 * sin(0.37 * j)); b[j] = (float)(2.0 * cos(0.11 * j)); }
    for (int bi = 0; bi < 4; bi++)
      for (int oi = 0; oi < 3; oi++)
        for (int affine = 0; affine < 2; affine++) {
          for (int j = 0; j < C; j++) x[j] = (float)bases[bi];
          x[C / 2] = (float)(bases[bi] + outs[oi]);
          CHECK(pn_layernorm_f32(y, NULL, NULL, x, affine ? g : NULL, affine ? b : NULL, 1, C, 0.0f) == PN_OK, "outlier status");
          double m = 0, v = 0;
          for (int j = 0; j < C; j++) m += x[j];
          m /= C;
          for (int j = 0; j < C; j++) v += (x[j] - m) * (x[j] - m);
          const double inv = 1 / sqrt(v / C);
          double worst = 0, worst_y = 0, worst_err = 0;
          for (int j = 0; j < C; j++) {
            const double ref = affine ? g[j] * (x[j] - m) * inv + b[j] : (x[j] - m) * inv;
            const double err = fabs(y[j] - ref), used = err / (5e-6 + 0x1p-22 * fabs(ref));
            if (err > 5e-6) past_abs++;
            if (used > worst) { worst = used; worst_y = ref; worst_err = err; }
          }
          CHECK(worst <= 1.0, "outlier row cols %d base %g out %g affine %d: y %g error %g", C, bases[bi], outs[oi], affine, worst_y, worst_err);
        }
    free(x); free(y); free(g); free(b);
  }
  CHECK(past_abs > 0, "outlier rows: some output must pass 5e-6 absolute (the reason for the relative term)");
}

/* LayerNorm's provisional shift: the mean of the first PN_SHIFT_SAMPLE
 * values (all of a shorter row) against a float64 mean of the same values,
 * for every n up to past the sample (the leftover values of n % 4), and
 * exactly the value of a constant row, for values that stress the float64
 * sum (FLT_MAX, the smallest subnormal, 0.1f). */
static void test_provisional_shift(void) {
  float x[40];
  for (int n = 1; n <= 40; n++) {
    for (int j = 0; j < n; j++) x[j] = (float)(3.0 + gauss()) * (j % 3 == 2 ? 10.0f : 1.0f);
    const int k = n < PN_SHIFT_SAMPLE ? n : PN_SHIFT_SAMPLE;
    double m = 0.0;
    for (int j = 0; j < k; j++) m += x[j];
    m /= k;
    const float s = pn_provisional_shift(x, n);
    /* the float64 mean rounded once to float32: within half an ulp */
    CHECK(fabs((double)s - m) <= 0x1p-24 * fabs(m) * (1 + 1e-9), "shift of %d values %.9g, float64 mean %.9g", n, s, m);
    const float values[] = {0.1f, FLT_MAX, -FLT_MAX, 0x1p-149f, 3.0f, -7.25e-20f};
    for (size_t v = 0; v < sizeof values / sizeof values[0]; v++) {
      for (int j = 0; j < n; j++) x[j] = values[v];
      CHECK(pn_provisional_shift(x, n) == values[v], "constant row of %d × %g: shift %g", n, values[v], pn_provisional_shift(x, n));
    }
  }
}

/* LayerNorm drops the low part lo of the mean (hi + lo, hi its float32
 * rounding) from rows whose |lo·inv| <= 2^-24 (norm_rows.c, DROP_LO): every
 * output of such a row moves by about -lo·inv before rounding. Rows of
 * uniform values (|t| < 1.8): 400 with spreads from 2^-8 to 2^6 about means
 * in [1, 4), which put |lo·inv| anywhere from about 2^-34 to 2^-15, and 200
 * of spread 0.4 about means in [1, 2), whose |lo·inv| is spread evenly up
 * to about 2^-22 (most of them just past the threshold, where a looser one
 * would drop lo). Each row is held to
 *   - its largest error: what the float32 arithmetic leaves (2.5e-7 here;
 *     2.3e-7 measured) plus 2^-24 where lo may be left out;
 *   - for the 200 rows of spread 0.4 (whose x - hi is exact), its mean
 *     error (the outputs' rounding errors average out over 256 values, a
 *     shift of all of them does not; 2.9e-8 at most where lo is kept):
 *     at most min(|lo·inv|, 2^-24) plus 5e-9, so lo is left out of no row
 *     past the threshold. With the threshold at 2^-23 48 checks fail.
 * Keeping lo everywhere passes (it is slower, not less accurate). */
static void test_layernorm_drop_lo(void) {
  enum { R = 600, C = 256 };
  float *x = falloc((size_t)R * C), *y = falloc((size_t)R * C);
  uint32_t seed = 12345;
  for (int r = 0; r < R; r++) {
    const double m = r < 400 ? 1.0 + 3.0 * (r % 97) / 97.0 : 1.0 + (r % 89) / 89.0;
    const double s = r < 400 ? ldexp(1.0, -8 + (14 * r) / 400) : 0.4;
    for (int j = 0; j < C; j++) {
      seed = seed * 1664525u + 1013904223u;
      x[r * C + j] = (float)(m + s * (2.0 * (seed >> 8) / 16777216.0 - 1.0));
    }
  }
  CHECK(pn_layernorm_f32(y, NULL, NULL, x, NULL, NULL, R, C, 0.0f) == PN_OK, "drop_lo status");
  int past = 0;
  for (int r = 0; r < R; r++) {
    double m = 0, v = 0, err = 0, bias = 0;
    for (int j = 0; j < C; j++) m += x[r * C + j];
    m /= C;
    for (int j = 0; j < C; j++) v += (x[r * C + j] - m) * (x[r * C + j] - m);
    const double inv = 1 / sqrt(v / C), lo_inv = fabs((m - (float)m) * inv);
    for (int j = 0; j < C; j++) {
      const double e = y[r * C + j] - (x[r * C + j] - m) * inv;
      err = fmax(err, fabs(e));
      bias += e / C;
    }
    const double allowed = 2.5e-7 + (lo_inv <= 0x1p-24 * 1.001 ? 0x1p-24 : 0.0);
    if (r >= 400 && lo_inv > 0x1p-24 * 1.01) past++;
    CHECK(err <= allowed, "drop_lo row %d: |lo·inv| %g, error %g > %g", r, lo_inv, err, allowed);
    if (r >= 400) CHECK(fabs(bias) <= fmin(lo_inv, 0x1p-24) + 5e-9, "drop_lo row %d: |lo·inv| %g, mean error %g", r, lo_inv, bias);
  }
  CHECK(past >= 100, "drop_lo: %d rows past the threshold (the inputs must reach it)", past);
  free(x); free(y);
}

/* Rows of every kind in one call, so the pipelined output pass (row r+1 is
 * summed while row r is written) meets each transition: ordinary rows; rows
 * that open with outliers or climb as a ramp (the provisional shift is far
 * from the mean, so a second pass runs); a constant row and a 1e30 row (both
 * redone in float64); a row of 1e4 + small noise (|mean| >> std). */
static void test_layernorm_row_kinds(void) {
  const int colss[] = {5, 64, 300, 1031, 8192};
  for (size_t ci = 0; ci < 5; ci++) {
    const int R = 8, C = colss[ci];
    float *x = falloc((size_t)R * C), *y = falloc((size_t)R * C);
    for (int j = 0; j < C; j++) {
      x[0 * C + j] = (float)gauss();
      /* the outliers fill the provisional shift's whole sample, so the shift
       * is theirs and the second pass must run (C = 5: the whole row) */
      x[1 * C + j] = (float)(j < PN_SHIFT_SAMPLE ? 1e3 + gauss() : gauss());       /* outliers first */
      x[2 * C + j] = (float)(1000.0 * j + gauss());                  /* ramp */
      x[3 * C + j] = 0.375f;                                         /* constant */
      x[4 * C + j] = (float)(1e30 * (1 + gauss()));                  /* float64 path */
      x[5 * C + j] = (float)(1e4 + 1e-2 * gauss());                  /* |mean| >> std */
      x[6 * C + j] = (float)(j < PN_SHIFT_SAMPLE ? -50.0 : 0.1 * gauss());         /* outliers, small std */
      x[7 * C + j] = (float)(j < PN_SHIFT_SAMPLE ? 3e4 : 1e-3 * gauss());          /* the same, farther */
    }
    for (int inplace = 0; inplace < 2; inplace++) {
      float *out = inplace ? falloc((size_t)R * C) : y;
      if (inplace) memcpy(out, x, sizeof(float) * (size_t)R * C);
      CHECK(pn_layernorm_f32(out, NULL, NULL, inplace ? out : x, NULL, NULL, R, C, 1e-5f) == PN_OK, "kinds status");
      for (int r = 0; r < R; r++) {
        double m = 0, v = 0, err = 0;
        for (int j = 0; j < C; j++) m += x[r * C + j];
        m /= C;
        for (int j = 0; j < C; j++) v += (x[r * C + j] - m) * (x[r * C + j] - m);
        v /= C;
        const double is = 1 / sqrt(v + 1e-5);
        for (int j = 0; j < C; j++) err = fmax(err, fabs(out[r * C + j] - (x[r * C + j] - m) * is));
        CHECK(err <= 5e-6, "ln row kind %d cols %d in place %d err %g", r, C, inplace, err);
      }
      if (inplace) free(out);
    }
    /* RMSNorm shares the pipelined output pass: the same rows, one call */
    CHECK(pn_rmsnorm_f32(y, NULL, x, NULL, R, C, 1e-6f) == PN_OK, "kinds rms status");
    for (int r = 0; r < R; r++) {
      double sq = 0, err = 0, top = 0;
      for (int j = 0; j < C; j++) sq += (double)x[r * C + j] * x[r * C + j];
      const double is = 1 / sqrt(sq / C + 1e-6);
      for (int j = 0; j < C; j++) {
        const double ref = x[r * C + j] * is;
        top = fmax(top, fabs(ref));
        err = fmax(err, fabs(y[r * C + j] - ref));
      }
      CHECK(err <= 2e-6 * top, "rms row kind %d cols %d err %g", r, C, err);
    }
    free(x); free(y);
  }
}

/* The Transformer block on a case worked by hand: one token (attention
 * weight 1), Wv = Wo = I, W1 = 0 (GELU(0) = 0, so the FFN adds nothing). */
static void test_transformer_block(void) {
  const float x[2] = {1.0f, 3.0f};
  float w[4 * 4 + 2 * 2 * 2] = {0}; /* Wq, Wk, Wv, Wo [2×2], W1 [2×2], W2 [2×2] */
  w[8] = w[11] = 1.0f;  /* Wv = I */
  w[12] = w[15] = 1.0f; /* Wo = I */
  w[20] = w[23] = 1.0f; /* W2 = I (W1 = 0) */
  float trace[8 * 2], attn[1];
  const double e = 1e-5;
  CHECK(pn_transformer_block_f32(trace, attn, x, w, 1, 2, 1, 2, PN_PRE_NORM, PN_NORM_LAYER, PN_GELU_TANH, 1e-5f) == PN_OK, "block pre");
  const double n1 = 1.0 / sqrt(1.0 + e); /* LayerNorm([1, 3]) = [-1, 1]/sqrt(1 + eps) */
  /* ffnInput is LayerNorm([1 - n1, 3 + n1]) = [-h, h]: spread 2 + 2·n1 */
  const double h = 1.0 / sqrt(1.0 + e / ((1 + n1) * (1 + n1)));
  const double pre[8][2] = {{1, 3}, {-n1, n1}, {-n1, n1}, {1 - n1, 3 + n1}, {-h, h}, {0, 0}, {1 - n1, 3 + n1}, {1 - n1, 3 + n1}};
  CHECK(attn[0] == 1.0f, "one token attends to itself with weight 1");
  for (int k = 0; k < 16; k++) CHECK(fabs(trace[k] - pre[k / 2][k % 2]) < 1e-6, "block pre slot %d: %g vs %g", k / 2, trace[k], pre[k / 2][k % 2]);
  CHECK(fabs(trace[10]) < 1e-30 && fabs(trace[11]) < 1e-30, "block pre ffn output 0");
  CHECK(pn_transformer_block_f32(trace, attn, x, w, 1, 2, 1, 2, PN_POST_NORM, PN_NORM_RMS, PN_GELU_TANH, 0.0f) == PN_OK, "block post");
  /* Post-Norm, RMSNorm, eps 0: a = x; x + a = [2, 6]; RMS = sqrt(20) */
  const double r = 1.0 / sqrt(20.0), o = 1.0 / sqrt((4 * r * r + 36 * r * r) / 2);
  const double post[8][2] = {{1, 3}, {1, 3}, {1, 3}, {2, 6}, {2 * r, 6 * r}, {0, 0}, {2 * r, 6 * r}, {2 * r * o, 6 * r * o}};
  for (int k = 0; k < 16; k++) CHECK(fabs(trace[k] - post[k / 2][k % 2]) < 1e-6, "block post slot %d: %g vs %g", k / 2, trace[k], post[k / 2][k % 2]);
  CHECK(pn_transformer_block_f32(trace, attn, x, w, 1, 2, 3, 2, PN_PRE_NORM, PN_NORM_LAYER, PN_GELU_TANH, 1e-5f) == PN_ERR_SIZE, "heads > d_model");
  CHECK(pn_transformer_block_f32(trace, attn, x, w, 2, 1, 1, 2, 2, PN_NORM_LAYER, PN_GELU_TANH, 1e-5f) == PN_ERR_ARG, "placement");
  CHECK(pn_transformer_block_f32(trace, attn, x, w, 1, 2, 1, 2, PN_PRE_NORM, 2, PN_GELU_TANH, 1e-5f) == PN_ERR_ARG, "norm kind");
  CHECK(pn_transformer_block_f32(trace, attn, x, NULL, 1, 2, 1, 2, PN_PRE_NORM, 0, PN_GELU_TANH, 1e-5f) == PN_ERR_NULL, "null");
}

/* The block/tail sweep of tests/kernel_table.mjs for the blocked norm
 * kernels, here so that it also runs natively and on the SIMD128 build:
 * every cols from 1 to 3·64 + 3, the four gamma/beta variants, ordinary,
 * 1e30 and 1e-30 magnitudes, eps 0 and 1e-5, against float64. */
static void test_norm_sweep(void) {
  const double scales[] = {1, 1e30, 1e-30};
  const float epss[] = {0.0f, 1e-5f};
  for (int C = 1; C <= 3 * 64 + 3; C++) {
    float *x = falloc(2 * (size_t)C), *y = falloc(2 * (size_t)C), *g = falloc(C), *b = falloc(C);
    for (int j = 0; j < C; j++) { g[j] = (float)(1 + 0.4 * gauss()); b[j] = (float)gauss(); }
    for (int si = 0; si < 3; si++)
      for (int ei = 0; ei < 2; ei++)
        for (int v = 0; v < 4; v++) {
          const float *gg = v & 1 ? g : NULL, *bb = v & 2 ? b : NULL;
          for (int k = 0; k < 2 * C; k++) x[k] = (float)(scales[si] * (2 + 3 * gauss()));
          CHECK(pn_layernorm_f32(y, NULL, NULL, x, gg, bb, 2, C, epss[ei]) == PN_OK, "sweep ln");
          double err = 0, rerr = 0, top = 0;
          for (int r = 0; r < 2; r++) {
            double m = 0, var = 0;
            for (int j = 0; j < C; j++) m += x[r * C + j];
            m /= C;
            for (int j = 0; j < C; j++) var += (x[r * C + j] - m) * (x[r * C + j] - m);
            var /= C;
            const double is = 1 / sqrt(var + (double)epss[ei]);
            for (int j = 0; j < C; j++) {
              const double ref = (gg ? gg[j] : 1.0) * (x[r * C + j] - m) * is + (bb ? bb[j] : 0.0);
              if (isfinite(ref)) err = fmax(err, fabs(y[r * C + j] - ref));
            }
          }
          CHECK(err <= 5e-6, "sweep ln cols %d scale %g eps %g variant %d err %g", C, scales[si], epss[ei], v, err);
          CHECK(pn_rmsnorm_f32(y, NULL, x, gg, 2, C, epss[ei]) == PN_OK, "sweep rms");
          for (int r = 0; r < 2; r++) {
            double sq = 0;
            for (int j = 0; j < C; j++) sq += (double)x[r * C + j] * x[r * C + j];
            const double is = 1 / sqrt(sq / C + (double)epss[ei]);
            for (int j = 0; j < C; j++) top = fmax(top, fabs(x[r * C + j] * is * (gg ? gg[j] : 1.0)));
            for (int j = 0; j < C; j++) rerr = fmax(rerr, fabs(y[r * C + j] - x[r * C + j] * is * (gg ? gg[j] : 1.0)));
          }
          CHECK(rerr <= 2e-6 * top, "sweep rms cols %d scale %g variant %d err %g", C, scales[si], v, rerr);
        }
    free(x); free(y); free(g); free(b);
  }
}

/* RMSNorm from 2^22 values takes two passes per row (norm_rows.c,
 * TWO_PASS_MIN), below it one loop that sums row r+1 while it writes row r:
 * the same rows must give the same bits either way, in place too, with
 * rows redone in float64 among them and next to each other. */
static void test_rmsnorm_two_pass(void) {
  const int R = 1024, C = 4211, half = 512; /* 32 blocks of 128, 28 groups of 4, a tail of 3 */
  const size_t n = (size_t)R * C;
  /* the test's own sizes: the whole matrix takes the two passes, its first half does not */
  assert(n >= ((size_t)1 << 22) && (size_t)half * C < ((size_t)1 << 22));
  float *x = falloc(n), *y = falloc(n), *y2 = falloc(n), *g = falloc(C);
  float *inv = falloc(R), *inv2 = falloc(R);
  for (size_t k = 0; k < n; k++) x[k] = (float)(3 + 2 * gauss());
  for (int j = 0; j < C; j++) {
    g[j] = (float)(1 + 0.3 * gauss());
    x[0 * (size_t)C + j] = (float)(1e4 + gauss());  /* summed before the loop */
    x[1 * (size_t)C + j] = (float)(50 * gauss());   /* not row 0's sums */
    x[2 * (size_t)C + j] = (float)(1e30 * gauss()); /* float64 row */
    x[3 * (size_t)C + j] = (float)(1e-30 * gauss());
    x[4 * (size_t)C + j] = (float)(1e-40 * gauss());
    x[(size_t)(R - 1) * C + j] = (float)(1e20 * gauss());
  }
  x[500 * (size_t)C + 7] = NAN;
  x[501 * (size_t)C + 4098] = INFINITY;
  /* which loop each call takes: every row of the large call in two passes,
   * none of the halves' (the bits below cannot tell the two apart) */
  size_t before = pn_norm_two_pass_rows;
  CHECK(pn_rmsnorm_f32(y, inv, x, g, R, C, 1e-6f) == PN_OK, "two-pass rms status");
  CHECK(pn_norm_two_pass_rows - before == (size_t)R, "2^22 values and more: %zu rows in two passes, not %d",
        pn_norm_two_pass_rows - before, R);
  before = pn_norm_two_pass_rows;
  CHECK(pn_rmsnorm_f32(y2, inv2, x, g, half, C, 1e-6f) == PN_OK, "rms first half");
  CHECK(pn_rmsnorm_f32(y2 + (size_t)half * C, inv2 + half, x + (size_t)half * C, g, R - half, C, 1e-6f) == PN_OK,
        "rms second half");
  CHECK(pn_norm_two_pass_rows == before, "below 2^22 values: the fused loop");
  CHECK(memcmp(y, y2, n * sizeof *y) == 0 && memcmp(inv, inv2, R * sizeof *inv) == 0,
        "two-pass RMSNorm: the bits of the same rows in calls below 2^22 values");
  double err = 0;
  for (int r = 0; r < R; r++) {
    if (r == 500 || r == 501) continue;
    double ss = 0, top = 0;
    for (int j = 0; j < C; j++) ss += (double)x[(size_t)r * C + j] * x[(size_t)r * C + j];
    const double is = 1 / sqrt(ss / C + (double)1e-6f);
    for (int j = 0; j < C; j++) top = fmax(top, fabs(g[j] * x[(size_t)r * C + j] * is));
    for (int j = 0; j < C; j++)
      err = fmax(err, fabs(y[(size_t)r * C + j] - g[j] * x[(size_t)r * C + j] * is) / top);
  }
  CHECK(err <= 2e-6, "two-pass rms err %g of max|y|", err);
  /* a NaN makes its row NaN; an Inf makes its row's inv 0: 0 but Inf·0 */
  CHECK(isnan(y[500 * (size_t)C]) && y[501 * (size_t)C] == 0.0f && isnan(y[501 * (size_t)C + 4098]) &&
            !isnan(y[502 * (size_t)C]) && !isnan(y[499 * (size_t)C]),
        "NaN and Inf stay in their own rows");
  memcpy(y2, x, n * sizeof *x);
  CHECK(pn_rmsnorm_f32(y2, inv2, y2, g, R, C, 1e-6f) == PN_OK, "two-pass rms in place");
  CHECK(memcmp(y, y2, n * sizeof *y) == 0, "two-pass RMSNorm in place: the same bits");
  /* rows shorter than 512 keep the fused loop at any size (2^22 values) */
  before = pn_norm_two_pass_rows;
  CHECK(pn_rmsnorm_f32(y2, NULL, x, NULL, (int32_t)(((size_t)1 << 22) / 511) + 1, 511, 1e-6f) == PN_OK,
        "rms short rows");
  CHECK(pn_norm_two_pass_rows == before, "rows of 511: the fused loop");
  CHECK(pn_rmsnorm_f32(y2, NULL, x, NULL, ((int32_t)1 << 22) / 512, 512, 1e-6f) == PN_OK, "rms rows of 512");
  CHECK(pn_norm_two_pass_rows - before == ((size_t)1 << 22) / 512, "2^22 values in rows of 512: two passes");
  /* LayerNorm keeps its one loop at every size: the same bits in halves */
  before = pn_norm_two_pass_rows;
  CHECK(pn_layernorm_f32(y, inv, NULL, x, g, NULL, R, C, 1e-5f) == PN_OK, "ln at 2^22");
  CHECK(pn_norm_two_pass_rows == before, "LayerNorm: the fused loop at every size");
  CHECK(pn_layernorm_f32(y2, inv2, NULL, x, g, NULL, half, C, 1e-5f) == PN_OK &&
            pn_layernorm_f32(y2 + (size_t)half * C, inv2 + half, NULL, x + (size_t)half * C, g, NULL, R - half, C,
                             1e-5f) == PN_OK,
        "ln halves");
  CHECK(memcmp(y, y2, n * sizeof *y) == 0 && memcmp(inv, inv2, R * sizeof *inv) == 0,
        "LayerNorm past 2^22 values: the bits of the same rows in smaller calls");
  double ln_err = 0;
  for (int r = 5; r < 400; r++) { /* ordinary rows (the first five are extremes) */
    double m = 0, v = 0;
    for (int j = 0; j < C; j++) m += x[(size_t)r * C + j];
    m /= C;
    for (int j = 0; j < C; j++) v += (x[(size_t)r * C + j] - m) * (x[(size_t)r * C + j] - m);
    const double is = 1 / sqrt(v / C + (double)1e-5f);
    for (int j = 0; j < C; j++) ln_err = fmax(ln_err, fabs(y[(size_t)r * C + j] - g[j] * (x[(size_t)r * C + j] - m) * is));
  }
  CHECK(ln_err <= 5e-6, "LayerNorm past 2^22 values: err %g", ln_err);
  free(x); free(y); free(y2); free(g); free(inv); free(inv2);
}

static void test_rms_bn(void) {
  const int R = 9, C = 19;
  float x[9 * 19], y[9 * 19], g[19], bt[19], inv[9], bm[19], bv[19], rm[19], rv[19];
  for (int k = 0; k < R * C; k++) x[k] = (float)(3 + 2 * gauss());
  for (int j = 0; j < C; j++) { g[j] = (float)(1 + 0.3 * gauss()); bt[j] = (float)gauss(); rm[j] = 0.5f; rv[j] = 2.0f; }
  CHECK(pn_rmsnorm_f32(y, inv, x, g, R, C, 1e-6f) == PN_OK, "rms status");
  double err = 0;
  for (int r = 0; r < R; r++) {
    double ss = 0;
    for (int j = 0; j < C; j++) ss += (double)x[r * C + j] * x[r * C + j];
    const double is = 1 / sqrt(ss / C + 1e-6);
    for (int j = 0; j < C; j++) err = fmax(err, fabs(y[r * C + j] - g[j] * x[r * C + j] * is));
  }
  CHECK(err < 2e-6, "rms err %g", err);
  CHECK(pn_batchnorm_train_f32(y, bm, bv, rm, rv, x, g, bt, R, C, 1e-5f, 0.9f) == PN_OK, "bn");
  err = 0;
  for (int j = 0; j < C; j++) {
    double m = 0, v = 0;
    for (int r = 0; r < R; r++) m += x[r * C + j];
    m /= R;
    for (int r = 0; r < R; r++) v += (x[r * C + j] - m) * (x[r * C + j] - m);
    v /= R;
    for (int r = 0; r < R; r++)
      err = fmax(err, fabs(y[r * C + j] - (g[j] * (x[r * C + j] - m) / sqrt(v + 1e-5) + bt[j])));
    CHECK(fabs(rm[j] - (0.9 * 0.5 + 0.1 * m)) < 1e-6, "running mean");
    CHECK(fabs(rv[j] - (0.9 * 2.0 + 0.1 * v)) < 1e-6, "running var");
    CHECK(fabs(bm[j] - m) < 1e-6 && fabs(bv[j] - v) < 1e-5, "batch stats");
  }
  CHECK(err < 5e-6, "bn err %g", err);
  CHECK(pn_batchnorm_infer_f32(y, x, NULL, NULL, rm, rv, R, C, 0.0f) == PN_OK, "bn infer");
  CHECK(fabs(y[5] - (x[5] - rm[5]) / sqrt(rv[5])) < 1e-6, "bn infer value");
  CHECK(pn_batchnorm_train_f32(y, bm, bv, rm, NULL, x, g, bt, R, C, 1e-5f, 0.9f) == PN_ERR_NULL, "bn pair");
  CHECK(pn_batchnorm_train_f32(y, bm, bv, rm, rv, x, g, bt, R, C, 1e-5f, 1.5f) == PN_ERR_ARG, "bn momentum");
}

static void test_rope_alibi(void) {
  const int B = 2, S = 5, H = 3, D = 10, RD = 6;
  float x[2 * 5 * 3 * 10], y[2 * 5 * 3 * 10];
  int32_t pid[10];
  for (int k = 0; k < B * S * H * D; k++) x[k] = (float)gauss();
  for (int k = 0; k < B * S; k++) pid[k] = 7 * k + 3;
  for (int inter = 0; inter < 2; inter++)
    for (int use_ids = 0; use_ids < 2; use_ids++) {
      CHECK(pn_rope_f32(y, x, use_ids ? pid : NULL, B, S, H, D, RD, 500.0, 11, inter, PN_ROPE_BSHD) == PN_OK, "rope");
      double err = 0;
      for (int b = 0; b < B; b++)
        for (int s = 0; s < S; s++)
          for (int h = 0; h < H; h++) {
            const int at = ((b * S + s) * H + h) * D;
            const double p = use_ids ? pid[b * S + s] : 11 + s;
            for (int i = 0; i < RD / 2; i++) {
              const int ia = inter ? 2 * i : i, ib = inter ? 2 * i + 1 : i + RD / 2;
              const double th = p * pow(500.0, -2.0 * i / RD);
              err = fmax(err, fabs(y[at + ia] - (x[at + ia] * cos(th) - x[at + ib] * sin(th))));
              err = fmax(err, fabs(y[at + ib] - (x[at + ia] * sin(th) + x[at + ib] * cos(th))));
            }
            for (int j = RD; j < D; j++) err = fmax(err, fabs(y[at + j] - x[at + j]));
          }
      CHECK(err < 1e-6, "rope inter %d ids %d err %g", inter, use_ids, err);
    }
  CHECK(pn_rope_f32(y, x, NULL, B, S, H, D, 5, 500.0, 0, 0, PN_ROPE_BSHD) == PN_ERR_ARG, "rope odd rotary");
  float sl[12];
  pn_alibi_slopes_f32(sl, 8);
  for (int h = 0; h < 8; h++) CHECK(sl[h] == ldexpf(1.0f, -(h + 1)), "slope 8 heads %d", h);
  pn_alibi_slopes_f32(sl, 12); /* 8 slopes of 8 heads, then 16-head slopes 0, 2, 4, 6 */
  for (int h = 0; h < 8; h++) CHECK(sl[h] == ldexpf(1.0f, -(h + 1)), "slope 12 heads %d", h);
  for (int h = 8; h < 12; h++)
    CHECK(fabs(sl[h] - pow(2.0, -0.5 * (2 * (h - 8) + 1))) < 1e-7, "slope 12 heads %d", h);
  float bias[2 * 4 * 4];
  pn_alibi_bias_f32(bias, 2, 4);
  CHECK(bias[0] == 0.0f && bias[3] == -0.1875f && bias[16 + 12] == -0.01171875f, "alibi bias (2 heads: m = 2^-4, 2^-8)");
}

static void test_figures(void) {
  float a[1001], b[1001];
  CHECK(pn_random_normal_f32(a, 1001, 42, 0.0, 1.0) == PN_OK, "rng");
  pn_random_normal_f32(b, 1001, 42, 0.0, 1.0);
  CHECK(memcmp(a, b, sizeof a) == 0, "rng reproducible");
  double m = 0, v = 0;
  for (int k = 0; k < 1001; k++) m += a[k];
  m /= 1001;
  for (int k = 0; k < 1001; k++) v += (a[k] - m) * (a[k] - m);
  v /= 1001;
  CHECK(fabs(m) < 0.12 && fabs(v - 1) < 0.12, "rng moments %g %g", m, v);
  /* the same seed with mean 2 and std 3 is 2 + 3·(the standard draw), each
   * rounded once from float64 (with mean 0 and std 1 alone, std² = std and
   * mean + std·z passes for std·std·z) */
  float c[1001];
  pn_random_normal_f32(c, 1001, 42, 2.0, 3.0);
  double worst = 0;
  for (int k = 0; k < 1001; k++) {
    const double rel = fabs(c[k] - (2.0 + 3.0 * (double)a[k])) / (2.0 + 3.0 * fabs(a[k]));
    if (rel > worst) worst = rel;
  }
  CHECK(worst < 4e-7, "rng mean 2, std 3: 2 + 3·z within %g relative", worst);
  /* every n from 1 to 40 (each remainder of the pairs drawn together, odd
   * and even): the first n values of the longer draw a, and nothing
   * written past n (sentinels after it) */
  int prefix_ok = 1, bounds_ok = 1;
  for (int n = 1; n <= 40; n++) {
    float d[48];
    for (int k = 0; k < 48; k++) d[k] = 12345.0f;
    pn_random_normal_f32(d, n, 42, 0.0, 1.0);
    if (memcmp(d, a, sizeof(float) * (size_t)n) != 0) prefix_ok = 0;
    for (int k = n; k < 48; k++)
      if (d[k] != 12345.0f) bounds_ok = 0;
  }
  CHECK(prefix_ok, "rng: the first n values of a longer draw, n = 1 .. 40");
  CHECK(bounds_ok, "rng: nothing written past n, n = 1 .. 40");
  float h[8] = {0.0f, 0.5f, 1.0f, -0.1f, 2.0f, NAN, 0.25f, 0.999f};
  uint32_t counts[4], extra[3];
  CHECK(pn_histogram_f32(counts, extra, h, 8, 4, 0.0f, 1.0f) == PN_OK, "hist");
  CHECK(counts[0] == 1 && counts[1] == 1 && counts[2] == 1 && counts[3] == 2, "hist bins %u %u %u %u",
        counts[0], counts[1], counts[2], counts[3]);
  CHECK(extra[0] == 1 && extra[1] == 1 && extra[2] == 1, "hist extra");
  uint8_t px[12];
  float vals[3] = {-1.0f, 1.0f, NAN};
  uint8_t lut[1024];
  pn_colormap_lut_rgba8(lut, PN_COLORMAP_DIVERGING);
  CHECK(pn_colormap_rgba8(px, vals, 3, -1.0f, 1.0f, 0) == PN_OK, "cmap");
  CHECK(memcmp(px, lut, 4) == 0 && memcmp(px + 4, lut + 1020, 4) == 0, "cmap ends");
  CHECK(px[8] == 0 && px[11] == 0, "cmap nan transparent");
  float src[37], dst[37];
  for (int k = 0; k < 37; k++) src[k] = (float)k;
  pn_copy_f32(dst, src, 37);
  CHECK(memcmp(src, dst, sizeof src) == 0, "copy");
}

/* PN_MAX_WORK at its edge: minRowDistance of 8192 rows of zeros stops each
 * pair's loop once a distance of 0 is found, so the largest call the limit
 * allows (8192·8191/2·128 = 2^32 - 524288 multiply-adds at most) runs in
 * a moment; one more column is past it, refused before any work. */
static void test_work_limit(void) {
  float *zeros = calloc((size_t)8192 * 129, sizeof(float));
  float d = -1.0f;
  int32_t pair[2] = {-1, -1};
  CHECK(zeros != NULL, "8192 × 129 zeros");
  if (!zeros) return;
  CHECK(pn_min_row_distance_f32(&d, pair, zeros, 8192, 128) == PN_OK && d == 0.0f && pair[0] == 0 && pair[1] == 1,
        "minRowDistance at 8192 × 128 (within 2^32 multiply-adds) runs: rows 0 and 1, distance 0");
  CHECK(pn_min_row_distance_f32(&d, pair, zeros, 8192, 129) == PN_ERR_SIZE, "minRowDistance at 8192 × 129 (past 2^32) is refused");
  zeros[0] = 7.0f; /* out and x: a kernel that ran would write row 0's product over it */
  CHECK(pn_gram_f32(zeros, zeros, 8192, 128) == PN_ERR_SIZE && zeros[0] == 7.0f, "gram at 8192 × 128 (2^32 + 524288) is refused, nothing written");
  free(zeros);
}

static void test_article_kernels(void) {
  /* attention: permuting the rows of X permutes the output rows */
  enum { S = 4, D = 6, H = 5 };
  float x[S * D], xp[S * D], wq[D * H], wk[D * H], wv[D * H], o[S * H], op[S * H], a[S * S];
  for (int k = 0; k < S * D; k++) x[k] = (float)gauss();
  for (int k = 0; k < D * H; k++) { wq[k] = (float)gauss(); wk[k] = (float)gauss(); wv[k] = (float)gauss(); }
  const int perm[S] = {2, 0, 3, 1};
  for (int i = 0; i < S; i++) memcpy(xp + i * D, x + perm[i] * D, sizeof(float) * D);
  CHECK(pn_attention_f32(o, a, x, wq, wk, wv, S, D, H) == PN_OK, "attention");
  pn_attention_f32(op, NULL, xp, wq, wk, wv, S, D, H);
  double err = 0;
  for (int i = 0; i < S; i++)
    for (int c = 0; c < H; c++) err = fmax(err, fabs(op[i * H + c] - o[perm[i] * H + c]));
  CHECK(err < 1e-6, "attention permutation equivariance %g", err);
  for (int i = 0; i < S; i++) {
    double rs = 0;
    for (int j = 0; j < S; j++) rs += a[i * S + j];
    CHECK(fabs(rs - 1) < 1e-6, "attention rows sum to 1");
  }
  /* gram, closest pair, shift */
  float pe[6 * 8], g[36], dist, row[8], shifted[8];
  int32_t pair[2];
  pn_pe_sinusoidal_f32(pe, 6, 8, 10000.0, 0, PN_PE_INTERLEAVED);
  CHECK(pn_gram_f32(g, pe, 6, 8) == PN_OK && fabs(g[0] - 4.0) < 1e-6, "gram diagonal = d/2");
  CHECK(pn_min_row_distance_f32(&dist, pair, pe, 6, 8) == PN_OK && pair[0] < pair[1], "min distance");
  double ref = 0;
  for (int c = 0; c < 8; c++) ref += (pe[pair[0] * 8 + c] - pe[pair[1] * 8 + c]) * (double)(pe[pair[0] * 8 + c] - pe[pair[1] * 8 + c]);
  CHECK(fabs(dist - sqrt(ref)) < 1e-6, "min distance value");
  pn_pe_sinusoidal_f32(row, 1, 8, 10000.0, 2, PN_PE_INTERLEAVED);
  CHECK(pn_pe_shift_f32(shifted, row, 8, 10000.0, 3) == PN_OK, "shift");
  for (int c = 0; c < 8; c++) CHECK(fabs(shifted[c] - pe[5 * 8 + c]) < 3e-7, "PE(2) shifted by 3 = PE(5)");
  CHECK(pn_pe_shift_f32(shifted, row, 7, 10000.0, 3) == PN_ERR_ARG, "shift odd d");
  /* residual stack against a float64 run of the same blocks, plain and
   * Post-LN. Row 0 is constant, so Post-LN's spread there comes from the
   * branch alone: "std about 1" would hold for any branch, since LayerNorm
   * pins it; the whole forward pass does not. */
  enum { L = 5, R = 3, W = 8 };
  float x0[R * W], w[L * W * W], sd[L];
  for (int k = 0; k < R * W; k++) x0[k] = k < W ? 0.75f : (float)gauss();
  for (int k = 0; k < L * W * W; k++) w[k] = (float)(gauss() / sqrt(W));
  for (int post = 0; post < 2; post++) {
    const int block = post ? PN_BLOCK_POST_LN : PN_BLOCK_PLAIN;
    CHECK(pn_residual_stack_f32(sd, x0, w, NULL, L, R, W, block, PN_GELU_TANH, 1.0f) == PN_OK, "stack");
    double x[R * W];
    for (int k = 0; k < R * W; k++) x[k] = x0[k];
    for (int l = 0; l < L; l++) {
      double u[R * W];
      for (int r = 0; r < R; r++)
        for (int c = 0; c < W; c++) {
          double z = 0;
          for (int k = 0; k < W; k++) z += x[r * W + k] * w[(l * W + k) * W + c];
          /* GELU, tanh form (PyTorch's approximate='tanh') */
          u[r * W + c] = x[r * W + c] + 0.5 * z * (1 + tanh(sqrt(2 / 3.141592653589793) * (z + 0.044715 * z * z * z)));
        }
      for (int r = 0; r < R; r++) {
        double m = 0, v = 0;
        for (int c = 0; c < W; c++) m += u[r * W + c] / W;
        for (int c = 0; c < W; c++) v += (u[r * W + c] - m) * (u[r * W + c] - m) / W;
        for (int c = 0; c < W; c++) x[r * W + c] = post ? (u[r * W + c] - m) / sqrt(v + 1e-5) : u[r * W + c];
      }
      double m = 0, v = 0;
      for (int k = 0; k < R * W; k++) m += x[k] / (R * W);
      for (int k = 0; k < R * W; k++) v += (x[k] - m) * (x[k] - m) / (R * W);
      CHECK(fabs(sd[l] - sqrt(v)) <= 1e-5 * sqrt(v), "%s stack layer %d std %g vs float64 %g", post ? "post-ln" : "plain", l, sd[l], sqrt(v));
    }
  }
  CHECK(pn_residual_stack_f32(sd, x0, w, NULL, L, R, W, 4, PN_GELU_TANH, 1.0f) == PN_ERR_ARG, "stack block");
  float st[2], y[3];
  const float v[3] = {1, 2, 6};
  CHECK(pn_layernorm_steps_f32(NULL, NULL, y, st, v, NULL, NULL, 3, 0.0f) == PN_OK, "steps");
  CHECK(st[0] == 3.0f && fabs(st[1] - 14.0 / 3) < 1e-6, "steps stats");
  CHECK(fabs(y[2] - 3 / sqrt(14.0 / 3)) < 1e-6, "steps y");
}

/* bfloat16/float16 rounding, hand-worked (ties to even, subnormals, overflow,
 * ±0, NaN): the same cases natively (x86 SSE adds) and in wasm */
static void test_lowprec(void) {
  const float x[] = {1.0f + 0x1p-8f, 1.0f + 0x3p-8f, 1.0f + 0x1p-11f, 1.0f + 0x3p-11f, 257.0f, 259.0f,
                     65504.0f, 65519.0f, 65520.0f, 0x1p-25f, 0x3p-25f, -0.0f, FLT_MAX, 0x3p-134f, 0x1p-149f, -INFINITY};
  const float bf[] = {1.0f, 1.0f + 0x1p-6f, 1.0f, 1.0f, 256.0f, 260.0f,
                      65536.0f, 65536.0f, 65536.0f, 0x1p-25f, 0x3p-25f, -0.0f, INFINITY, 0x1p-132f, 0.0f, -INFINITY};
  const float h[] = {1.0f + 0x1p-8f, 1.0f + 0x3p-8f, 1.0f, 1.0f + 0x1p-9f, 257.0f, 259.0f,
                     65504.0f, 65504.0f, INFINITY, 0.0f, 0x1p-23f, -0.0f, INFINITY, 0.0f, 0.0f, -INFINITY};
  enum { N = sizeof x / sizeof x[0] };
  float y[N];
  CHECK(pn_round_f32(y, x, N, PN_DTYPE_BFLOAT16) == PN_OK, "bf16 status");
  for (int k = 0; k < N; k++) CHECK(memcmp(&y[k], &bf[k], 4) == 0, "bf16(%a) = %a, want %a", (double)x[k], (double)y[k], (double)bf[k]);
  CHECK(pn_round_f32(y, x, N, PN_DTYPE_FLOAT16) == PN_OK, "f16 status");
  for (int k = 0; k < N; k++) CHECK(memcmp(&y[k], &h[k], 4) == 0, "f16(%a) = %a, want %a", (double)x[k], (double)y[k], (double)h[k]);
  const float nan_in = -NAN;
  uint32_t bits;
  CHECK(pn_round_f32(y, &nan_in, 1, PN_DTYPE_FLOAT16) == PN_OK, "nan status");
  memcpy(&bits, y, 4);
  CHECK(bits == 0x7FC00000u, "f16(NaN) bits %08x", bits);
  /* bfloat16 positions 256 and 257 give the same row when every step is bfloat16 */
  float pe[2 * 16];
  CHECK(pn_pe_lowprec_f32(pe, 2, 16, 1e4, 256, PN_PE_INTERLEAVED, PN_DTYPE_BFLOAT16, PN_COMPUTE_LOW) == PN_OK, "pe low");
  CHECK(memcmp(pe, pe + 16, sizeof(float) * 16) == 0, "bf16 rows 256 and 257 equal");
}

/* GELU's erf form, z·Φ(z), and its derivative Φ(z) + z·φ(z), against
 * values computed with 40 digits (mpmath 1.3: z*ncdf(z), ncdf(z) +
 * z*npdf(z)), rounded to 25 here. The points straddle where the kernel
 * switches from the series to the continued fraction (|z| = sqrt(2) for
 * z < 0, 2·sqrt(2) above) and reach into the subnormal tail. Measured over
 * 20000 points: GELU within 5e-15 relative (33 ulp at worst, near
 * z = -1.41, from 1 - erf's cancellation just below the switch), the
 * derivative within 8e-16 absolute. */
static void test_gelu_erf(void) {
  static const double cases[][3] = {
      {-37.5, -1.727007378593233066435488e-306, -6.476271143055812622971645e-305},
      {-20.0, -5.507248237212467390151246e-88, -1.101436048313346404221472e-86},
      {-10.0, -7.619853024160526065973343e-23, -7.6184000964648140856793e-22},
      {-6.0, -5.919525870226188844205185e-9, -3.546870945390201478127698e-8},
      {-4.0, -0.000126684967332479685015083, -0.0005036496612264214858425272},
      {-3.0, -0.004049694094890283579955444, -0.01194564720418392700015524},
      {-2.828125, -0.0066208556306245566431642, -0.01834136717747903118541109},
      {-2.6875, -0.009673535619976786807824594, -0.02536588695506808497107081},
      {-2.0, -0.04550026389635841440056527, -0.08523180107819689670084576},
      {-1.5, -0.1002108019032870990067411, -0.1274691922299795254166553},
      {-1.40625, -0.1122538370926011111251265, -0.1288909083546261714815106},
      {-1.0, -0.1586552539314570514147675, -0.08331547058768629838306274},
      {-0.75, -0.1699705142826511494952966, 0.0007742782607648956283087645},
      {-0.3, -0.1146265733433142058362825, 0.2676722331728901450984896},
      {-1e-08, -4.999999960105772064469535e-9, 0.4999999920211543919713465},
      {1e-08, 5.000000039894228144756073e-9, 0.5000000079788456080286535},
      {0.3, 0.1853734266566857830614872, 0.7323277668271098549015104},
      {0.75, 0.5800294857173488505047034, 0.9992257217392351043716912},
      {1.0, 0.8413447460685429485852325, 1.083315470587686298383063},
      {1.40625, 1.293996162907398888874874, 1.128890908354626171481511},
      {1.5, 1.399789198096712900993259, 1.127469192229979525416655},
      {2.0, 1.954499736103641585599435, 1.085231801078196896700846},
      {2.6875, 2.677826464380023213192175, 1.025365886955068084971071},
      {2.828125, 2.821504144369375443356836, 1.018341367177479031185411},
      {3.0, 2.995950305905109716420045, 1.011945647204183927000155},
      {4.0, 3.999873315032667520314985, 1.000503649661226421485843},
      {6.0, 5.999999994080474129773811, 1.000000035468709453902015},
      {10.0, 9.999999999999999999999924, 1.000000000000000000000762},
      {20.0, 20.0, 1.0},
      {37.5, 37.5, 1.0},
  };
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    const double z = cases[k][0], g = pn_gelu_erf(z), d = pn_gelu_erf_grad(z);
    CHECK(fabs(g - cases[k][1]) <= 6e-15 * fabs(cases[k][1]), "gelu_erf(%.17g) = %.17g, want %.17g", z, g, cases[k][1]);
    CHECK(fabs(d - cases[k][2]) <= 1e-15, "gelu_erf'(%.17g) = %.17g, want %.17g", z, d, cases[k][2]);
  }
  /* the form selector, and the edges: ±0 keep their sign, ±Inf, NaN */
  CHECK(pn_gelu_f64(1.0, PN_GELU_ERF) == pn_gelu_erf(1.0) && pn_gelu_f64(1.0, PN_GELU_TANH) == pn_gelu_tanh(1.0), "form selector");
  CHECK(pn_gelu_erf(0.0) == 0.0 && !signbit(pn_gelu_erf(0.0)) && signbit(pn_gelu_erf(-0.0)), "GELU(±0) = ±0");
  CHECK(pn_gelu_erf_grad(0.0) == 0.5 && pn_gelu_erf_grad(-0.0) == 0.5, "GELU'(0) = 1/2");
  /* subnormal z: z·Φ(z) = z/2 to within z²/sqrt(2π), exactly z/2 where that is a double */
  CHECK(pn_gelu_erf(4e-320) == 4e-320 / 2 && pn_gelu_erf(4e-320) > 0, "GELU(4e-320) = 2e-320 (subnormal, not flushed)");
  CHECK(pn_gelu_tanh(4e-320) == 4e-320 / 2, "tanh form: GELU(4e-320) = 2e-320");
  /* the least subnormal: z·Φ(z) lies just above half of it, between its two neighbours 0 and 5e-324 */
  CHECK(pn_gelu_erf(5e-324) == 5e-324 || pn_gelu_erf(5e-324) == 0.0, "GELU(5e-324) is 0 or 5e-324");
  CHECK(pn_gelu_erf(INFINITY) == INFINITY && pn_gelu_erf_grad(INFINITY) == 1.0, "GELU(+Inf) = +Inf");
  CHECK(pn_gelu_erf(-50.0) == 0.0 && pn_gelu_erf_grad(-50.0) == 0.0, "GELU(-50) = -0");
  CHECK(isnan(pn_gelu_erf(NAN)) && isnan(pn_gelu_erf_grad(NAN)), "NaN stays NaN");
  /* -Inf·Φ(-Inf) = -Inf·0: NaN in both forms (the kernels never pass it: their inputs are finite) */
  CHECK(isnan(pn_gelu_erf(-INFINITY)) && isnan(pn_gelu_tanh(-INFINITY)), "GELU(-Inf) is NaN (-Inf·0) in both forms");
}

int main(void) {
#if !defined(__EMSCRIPTEN__)
  alarm(600); /* a kernel that hangs (pn_log did, #16) ends the run as a failure */
#endif
  setvbuf(stdout, NULL, _IOLBF, 0); /* a crash keeps the failures printed before it */
  /* which code path of pn_simd.h these tests exercise */
#if defined(__wasm_simd128__)
  CHECK(pn_simd_enabled() == 1, "built with -msimd128: the SIMD128 path");
  printf("code path: wasm SIMD128 (pn_simd.h intrinsics)\n");
#else
  CHECK(pn_simd_enabled() == 0, "the lane-by-lane path");
  printf("code path: lane-by-lane (portable pn_simd.h)\n");
#endif
  test_article_kernels();
  test_gelu_erf();
  test_pe();
  test_angles();
  test_lowprec();
  test_layernorm();
  test_provisional_shift();
  test_layernorm_row_kinds();
  test_layernorm_drop_lo();
  test_layernorm_outlier_rows();
  test_transformer_block();
  test_norm_sweep();
  test_rms_bn();
  test_rmsnorm_two_pass();
  test_rope_alibi();
  test_figures();
  test_work_limit();
  test_safety();
  printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
