/* loops.c — the bare access patterns behind LayerNorm past the caches (see
 * bench/row-ahead.mjs and docs/decisions.md, "LayerNorm past the caches"):
 * linked beside the kernels into build/probe/ (./build.sh probe), never
 * into the shipped wasm.
 *
 * Each loop writes y[j] for j in [0, n - ahead) while it sums x[j + ahead]
 * (16 values of each per step): ahead = 0 is one stream, ahead = a row is
 * the pattern of a row normalisation, which must read a row before its
 * first output. The sums are returned so that no load is dead. The rows_*
 * loops compute LayerNorm (about the shift 3, without the kernel's
 * accuracy machinery) in other arrangements of the same reads and writes;
 * bench/row-ahead.mjs checks each against layerNorm before it times it. */
#include <stddef.h>
#include <stdint.h>
#include <wasm_simd128.h>

float ahead_layernorm(float *y, const float *x, int32_t n, int32_t ahead);
float ahead_bare(float *y, const float *x, int32_t n, int32_t ahead);
float ahead_noreread(float *y, const float *x, int32_t n, int32_t ahead);
float read_only(const float *x, int32_t n);
float ahead_readtwice(const float *x, int32_t n, int32_t ahead);
float rows_layernorm(float *y, const float *x, int32_t rows, int32_t cols,
                     int32_t fold);
float rows_copy_layernorm(float *y, const float *x, int32_t rows,
                          int32_t cols);
float rows_scratch_layernorm(float *y, const float *x, int32_t rows,
                             int32_t cols, float *scratch);
float rows_wholepass_layernorm(float *y, const float *x, int32_t rows,
                               int32_t cols, double *stats);

/* s += (d0 + d1) + (d2 + d3), q += the same of their squares: a step's
 * sums, in the kernels' order (src/pn_sums.h) */
static inline void sum_step(v128_t *s, v128_t *q, const v128_t d[4]) {
  *s = wasm_f32x4_add(*s, wasm_f32x4_add(wasm_f32x4_add(d[0], d[1]),
                                         wasm_f32x4_add(d[2], d[3])));
  *q = wasm_f32x4_add(
      *q, wasm_f32x4_add(wasm_f32x4_add(wasm_f32x4_mul(d[0], d[0]),
                                        wasm_f32x4_mul(d[1], d[1])),
                         wasm_f32x4_add(wasm_f32x4_mul(d[2], d[2]),
                                        wasm_f32x4_mul(d[3], d[3]))));
}

/* the sum of a vector's four lanes */
static inline float hsum(v128_t t) {
  return wasm_f32x4_extract_lane(t, 0) + wasm_f32x4_extract_lane(t, 1) +
         wasm_f32x4_extract_lane(t, 2) + wasm_f32x4_extract_lane(t, 3);
}

/* LayerNorm's arithmetic: y = (x - a)·c; Σ(x' - k) and Σ(x' - k)², x' the
 * values `ahead` further on (per 16 values: 8 loads, 4 stores, 16 adds or
 * subtractions, 8 multiplies, as the shipped loop for rows summed about a
 * shift). At ahead = 0 both loads read the same line, one stream. */
float ahead_layernorm(float *y, const float *x, int32_t n, int32_t ahead) {
  const v128_t a = wasm_f32x4_splat(3.0f), c = wasm_f32x4_splat(0.5f);
  v128_t s = wasm_f32x4_splat(0.0f), q = s;
  for (int32_t j = 0; j + 16 + ahead <= n; j += 16) {
    v128_t d[4];
    for (int k = 0; k < 4; k++) {
      d[k] = wasm_f32x4_sub(wasm_v128_load(x + ahead + j + 4 * k), a);
      const v128_t t = wasm_f32x4_sub(wasm_v128_load(x + j + 4 * k), a);
      wasm_v128_store(y + j + 4 * k, wasm_f32x4_mul(t, c));
    }
    sum_step(&s, &q, d);
  }
  return hsum(wasm_f32x4_add(s, q));
}

/* Almost no arithmetic: y = x·c while x' is summed (per 16 values: 8 loads,
 * 4 stores, 4 multiplies, 4 adds); without `reread`, y = c and nothing
 * reads x[j] (two streams only, `ahead` apart). `reread` is a constant at
 * each call, so the branch is gone once inlined. */
static inline float bare_loop(float *y, const float *x, int32_t n,
                              int32_t ahead, int reread) {
  const v128_t c = wasm_f32x4_splat(0.5f);
  v128_t s = wasm_f32x4_splat(0.0f);
  for (int32_t j = 0; j + 16 + ahead <= n; j += 16) {
    v128_t d[4];
    for (int k = 0; k < 4; k++) {
      d[k] = wasm_v128_load(x + ahead + j + 4 * k);
      wasm_v128_store(y + j + 4 * k,
                      reread ? wasm_f32x4_mul(wasm_v128_load(x + j + 4 * k), c)
                             : c);
    }
    s = wasm_f32x4_add(s, wasm_f32x4_add(wasm_f32x4_add(d[0], d[1]),
                                         wasm_f32x4_add(d[2], d[3])));
  }
  return hsum(s);
}

float ahead_bare(float *y, const float *x, int32_t n, int32_t ahead) {
  return bare_loop(y, x, n, ahead, 1);
}

/* Against ahead_bare, what the re-read of x a row behind costs. */
float ahead_noreread(float *y, const float *x, int32_t n, int32_t ahead) {
  return bare_loop(y, x, n, ahead, 0);
}

/* LayerNorm's rows without its accuracy machinery: row r written as
 * (x - mean)·inv from the float32 sums of row r, taken while row r-1 was
 * written (row 0's first), both about the shift 3 as the kernel's are about
 * a provisional mean; the mean and inv in double between rows; with
 * `fold`, the float32 sums go into double every 128 values as the kernel's
 * blocks do, else once per row. What this adds to ahead_layernorm at the
 * distance of a row is the cost of rows themselves. */
static void sums_row(const float *x, int32_t n, double *s, double *q) {
  const v128_t k = wasm_f32x4_splat(3.0f);
  v128_t a = wasm_f32x4_splat(0.0f), b = a;
  for (int32_t j = 0; j + 4 <= n; j += 4) {
    const v128_t d = wasm_f32x4_sub(wasm_v128_load(x + j), k);
    a = wasm_f32x4_add(a, d);
    b = wasm_f32x4_add(b, wasm_f32x4_mul(d, d));
  }
  *s = 3.0 * n + (double)wasm_f32x4_extract_lane(a, 0) +
       wasm_f32x4_extract_lane(a, 1) + wasm_f32x4_extract_lane(a, 2) +
       wasm_f32x4_extract_lane(a, 3);
  *q = (double)wasm_f32x4_extract_lane(b, 0) + wasm_f32x4_extract_lane(b, 1) +
       wasm_f32x4_extract_lane(b, 2) + wasm_f32x4_extract_lane(b, 3);
}

static v128_t fold(v128_t acc, v128_t a) {
  return wasm_f64x2_add(
      acc, wasm_f64x2_add(wasm_f64x2_promote_low_f32x4(a),
                          wasm_f64x2_promote_low_f32x4(
                              wasm_i32x4_shuffle(a, a, 2, 3, 2, 3))));
}

/* Copies a row to dst while it sums it about 3 in the kernel's blocks
 * (folded into double every 128 values): *s = Σx, *q = Σ(x - 3)². */
static void copy_sum_row(float *dst, const float *src, int32_t cols,
                         double *s, double *q) {
  const v128_t k = wasm_f32x4_splat(3.0f);
  v128_t S = wasm_f64x2_splat(0.0), Q = S, sb = wasm_f32x4_splat(0.0f), qb = sb;
  for (int32_t j = 0; j + 16 <= cols; j += 16) {
    v128_t d[4];
    for (int i = 0; i < 4; i++) {
      const v128_t v = wasm_v128_load(src + j + 4 * i);
      wasm_v128_store(dst + j + 4 * i, v);
      d[i] = wasm_f32x4_sub(v, k);
    }
    sum_step(&sb, &qb, d);
    if ((j & 127) == 112) {
      S = fold(S, sb); Q = fold(Q, qb);
      sb = wasm_f32x4_splat(0.0f); qb = sb;
    }
  }
  S = fold(S, sb); Q = fold(Q, qb);
  *s = wasm_f64x2_extract_lane(S, 0) + wasm_f64x2_extract_lane(S, 1) + 3.0 * cols;
  *q = wasm_f64x2_extract_lane(Q, 0) + wasm_f64x2_extract_lane(Q, 1);
}

/* y = (src - mean)·inv of a row whose Σx is s and Σ(x - 3)² is q */
static void normalise_row(float *y, const float *src, int32_t cols, double s,
                          double q) {
  const double mean = s / cols, var = q / cols - (mean - 3.0) * (mean - 3.0);
  const v128_t a = wasm_f32x4_splat((float)mean);
  const v128_t c = wasm_f32x4_splat((float)(1.0 / __builtin_sqrt(var + 1e-5)));
  for (int32_t j = 0; j + 16 <= cols; j += 16)
    for (int i = 0; i < 4; i++) {
      const v128_t t = wasm_f32x4_sub(wasm_v128_load(src + j + 4 * i), a);
      wasm_v128_store(y + j + 4 * i, wasm_f32x4_mul(t, c));
    }
}

float rows_layernorm(float *y, const float *x, int32_t rows, int32_t cols,
                     int32_t fold_blocks) {
  const v128_t k = wasm_f32x4_splat(3.0f);
  double s, q;
  sums_row(x, cols, &s, &q);
  float last = 0.0f;
  for (int32_t r = 0; r < rows; r++) {
    const float *xr = x + (size_t)r * (size_t)cols;
    const float *next = r + 1 < rows ? xr + cols : xr;
    float *yr = y + (size_t)r * (size_t)cols;
    /* s is Σx, q is Σ(x - 3)² (every row's sums are about the shift 3) */
    const double mean = s / cols, var = q / cols - (mean - 3.0) * (mean - 3.0);
    const v128_t a = wasm_f32x4_splat((float)mean);
    const v128_t c = wasm_f32x4_splat((float)(1.0 / __builtin_sqrt(var + 1e-5)));
    v128_t S = wasm_f64x2_splat(0.0), Q = S, sb = wasm_f32x4_splat(0.0f), qb = sb;
    for (int32_t j = 0; j + 16 <= cols; j += 16) {
      v128_t d[4];
      for (int i = 0; i < 4; i++) {
        d[i] = wasm_f32x4_sub(wasm_v128_load(next + j + 4 * i), k);
        const v128_t t = wasm_f32x4_sub(wasm_v128_load(xr + j + 4 * i), a);
        wasm_v128_store(yr + j + 4 * i, wasm_f32x4_mul(t, c));
      }
      sum_step(&sb, &qb, d);
      if (fold_blocks && (j & 127) == 112) {
        S = fold(S, sb);
        Q = fold(Q, qb);
        sb = wasm_f32x4_splat(0.0f);
        qb = sb;
      }
    }
    S = fold(S, sb);
    Q = fold(Q, qb);
    s = wasm_f64x2_extract_lane(S, 0) + wasm_f64x2_extract_lane(S, 1) + 3.0 * cols;
    q = wasm_f64x2_extract_lane(Q, 0) + wasm_f64x2_extract_lane(Q, 1);
    last += yr[0];
  }
  return last;
}

/* Rows of LayerNorm written through the output: each row is copied to y
 * while it is summed (one stream, as the copy loop), then normalised in
 * place in y while it is in L1. */
float rows_copy_layernorm(float *y, const float *x, int32_t rows,
                          int32_t cols) {
  float last = 0.0f;
  for (int32_t r = 0; r < rows; r++) {
    float *yr = y + (size_t)r * (size_t)cols;
    double sum, sq;
    copy_sum_row(yr, x + (size_t)r * (size_t)cols, cols, &sum, &sq);
    normalise_row(yr, yr, cols, sum, sq);
    last += yr[0];
  }
  return last;
}

/* Whole-matrix two passes: every row's sums first (a read-only stream over
 * the matrix), then every row written in one stream (x read and y written
 * at the same place, as the copy loop). stats holds 2·rows doubles. */
float rows_wholepass_layernorm(float *y, const float *x, int32_t rows,
                               int32_t cols, double *stats) {
  for (int32_t r = 0; r < rows; r++)
    sums_row(x + (size_t)r * (size_t)cols, cols, &stats[2 * r], &stats[2 * r + 1]);
  float last = 0.0f;
  for (int32_t r = 0; r < rows; r++) {
    const float *xr = x + (size_t)r * (size_t)cols;
    float *yr = y + (size_t)r * (size_t)cols;
    const double mean = stats[2 * r] / cols,
                 var = stats[2 * r + 1] / cols - (mean - 3.0) * (mean - 3.0);
    const v128_t a = wasm_f32x4_splat((float)mean);
    const v128_t c = wasm_f32x4_splat((float)(1.0 / __builtin_sqrt(var + 1e-5)));
    for (int32_t j = 0; j + 16 <= cols; j += 16)
      for (int i = 0; i < 4; i++) {
        const v128_t t = wasm_f32x4_sub(wasm_v128_load(xr + j + 4 * i), a);
        wasm_v128_store(yr + j + 4 * i, wasm_f32x4_mul(t, c));
      }
    last += yr[0];
  }
  return last;
}

/* a read-only stream with four independent accumulators (memory-bound) */
float read_only(const float *x, int32_t n) {
  v128_t a0 = wasm_f32x4_splat(0.0f), a1 = a0, a2 = a0, a3 = a0;
  for (int32_t j = 0; j + 16 <= n; j += 16) {
    a0 = wasm_f32x4_add(a0, wasm_v128_load(x + j));
    a1 = wasm_f32x4_add(a1, wasm_v128_load(x + j + 4));
    a2 = wasm_f32x4_add(a2, wasm_v128_load(x + j + 8));
    a3 = wasm_f32x4_add(a3, wasm_v128_load(x + j + 12));
  }
  return hsum(wasm_f32x4_add(wasm_f32x4_add(a0, a1), wasm_f32x4_add(a2, a3)));
}

/* rows_layernorm (fold 1) with the row behind read from lines this loop
 * stored, not from x: row r+1 is copied as it is summed, row r written from
 * its copy. The copy is a scratch of two rows (scratch[(r+1) & 1]), or,
 * with scratch NULL, y itself (row r+1 of y, then normalised in place a row
 * later: the DRAM streams, x's row r+1 read and y's written, move together
 * as in the copy loop). */
float rows_scratch_layernorm(float *y, const float *x, int32_t rows,
                             int32_t cols, float *scratch) {
  const v128_t k = wasm_f32x4_splat(3.0f);
  double s = 0, q = 0;
  float last = 0.0f;
  for (int32_t r = -1; r < rows; r++) {
    const float *xn = x + (size_t)(r + 1) * (size_t)cols;
    float *yr = y + (size_t)(r < 0 ? 0 : r) * (size_t)cols;
    float *sn = scratch ? scratch + (size_t)((r + 1) & 1) * (size_t)cols
                        : y + (size_t)(r + 1) * (size_t)cols;
    const float *sr = scratch ? scratch + (size_t)(r & 1) * (size_t)cols : yr;
    const double mean = s / cols, var = q / cols - (mean - 3.0) * (mean - 3.0);
    const v128_t a = wasm_f32x4_splat((float)mean);
    const v128_t c = wasm_f32x4_splat((float)(1.0 / __builtin_sqrt(var + 1e-5)));
    v128_t S = wasm_f64x2_splat(0.0), Q = S, sb = wasm_f32x4_splat(0.0f), qb = sb;
    if (r >= 0 && r + 1 < rows) {
      for (int32_t j = 0; j + 16 <= cols; j += 16) {
        v128_t d[4];
        for (int i = 0; i < 4; i++) {
          const v128_t v = wasm_v128_load(xn + j + 4 * i);
          wasm_v128_store(sn + j + 4 * i, v);
          d[i] = wasm_f32x4_sub(v, k);
          const v128_t t = wasm_f32x4_sub(wasm_v128_load(sr + j + 4 * i), a);
          wasm_v128_store(yr + j + 4 * i, wasm_f32x4_mul(t, c));
        }
        sum_step(&sb, &qb, d);
        if ((j & 127) == 112) {
          S = fold(S, sb); Q = fold(Q, qb);
          sb = wasm_f32x4_splat(0.0f); qb = sb;
        }
      }
    } else if (r < 0) {
      copy_sum_row(sn, xn, cols, &s, &q);
      continue;
    } else {
      normalise_row(yr, sr, cols, s, q);
      last += yr[0];
      continue;
    }
    S = fold(S, sb); Q = fold(Q, qb);
    s = wasm_f64x2_extract_lane(S, 0) + wasm_f64x2_extract_lane(S, 1) + 3.0 * cols;
    q = wasm_f64x2_extract_lane(Q, 0) + wasm_f64x2_extract_lane(Q, 1);
    last += yr[0];
  }
  return last;
}

/* Reads only: x[j + ahead] and x[j] summed, nothing written. Against
 * read_only, what a second read of every value `ahead` later costs. */
float ahead_readtwice(const float *x, int32_t n, int32_t ahead) {
  v128_t s = wasm_f32x4_splat(0.0f), u = s;
  for (int32_t j = 0; j + 16 + ahead <= n; j += 16) {
    s = wasm_f32x4_add(s, wasm_f32x4_add(
      wasm_f32x4_add(wasm_v128_load(x + ahead + j), wasm_v128_load(x + ahead + j + 4)),
      wasm_f32x4_add(wasm_v128_load(x + ahead + j + 8), wasm_v128_load(x + ahead + j + 12))));
    u = wasm_f32x4_add(u, wasm_f32x4_add(
      wasm_f32x4_add(wasm_v128_load(x + j), wasm_v128_load(x + j + 4)),
      wasm_f32x4_add(wasm_v128_load(x + j + 8), wasm_v128_load(x + j + 12))));
  }
  return hsum(wasm_f32x4_add(s, u));
}

/* rows r = 0 .. rows-2: row r+1 summed forwards while row r is written
 * (y = x·c) in blocks of 16 taken forwards (reverse 0) or backwards
 * (reverse 1): backwards, the end of row r, summed last, is re-read first */
float rows_bare(float *y, const float *x, int32_t rows, int32_t cols,
                int32_t reverse);
float rows_bare(float *y, const float *x, int32_t rows, int32_t cols,
                int32_t reverse) {
  const v128_t c = wasm_f32x4_splat(0.5f);
  v128_t s = wasm_f32x4_splat(0.0f);
  for (int32_t r = 0; r + 1 < rows; r++) {
    const float *xr = x + (size_t)r * cols, *xn = xr + cols;
    float *yr = y + (size_t)r * cols;
    for (int32_t j = 0; j + 16 <= cols; j += 16) {
      const int32_t w = reverse ? cols - 16 - j : j;
      v128_t d[4];
      for (int k = 0; k < 4; k++) {
        d[k] = wasm_v128_load(xn + j + 4 * k);
        wasm_v128_store(yr + w + 4 * k,
                        wasm_f32x4_mul(wasm_v128_load(xr + w + 4 * k), c));
      }
      s = wasm_f32x4_add(s, wasm_f32x4_add(wasm_f32x4_add(d[0], d[1]),
                                           wasm_f32x4_add(d[2], d[3])));
    }
  }
  return hsum(s);
}

/* reads only, rows r = 0 .. rows-2: row r+1 read forwards beside row r
 * read forwards or backwards */
float rows_readtwice(const float *x, int32_t rows, int32_t cols,
                     int32_t reverse);
float rows_readtwice(const float *x, int32_t rows, int32_t cols,
                     int32_t reverse) {
  v128_t s = wasm_f32x4_splat(0.0f), u = s;
  for (int32_t r = 0; r + 1 < rows; r++) {
    const float *xr = x + (size_t)r * cols, *xn = xr + cols;
    for (int32_t j = 0; j + 16 <= cols; j += 16) {
      const int32_t w = reverse ? cols - 16 - j : j;
      s = wasm_f32x4_add(s, wasm_f32x4_add(
        wasm_f32x4_add(wasm_v128_load(xn + j), wasm_v128_load(xn + j + 4)),
        wasm_f32x4_add(wasm_v128_load(xn + j + 8), wasm_v128_load(xn + j + 12))));
      u = wasm_f32x4_add(u, wasm_f32x4_add(
        wasm_f32x4_add(wasm_v128_load(xr + w), wasm_v128_load(xr + w + 4)),
        wasm_f32x4_add(wasm_v128_load(xr + w + 8), wasm_v128_load(xr + w + 12))));
    }
  }
  return hsum(wasm_f32x4_add(s, u));
}
