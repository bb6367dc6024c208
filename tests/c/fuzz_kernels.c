/* fuzz_kernels.c — libFuzzer driver: every exported kernel with sizes,
 * parameters and data taken from the fuzzer's bytes (any float32 bit
 * pattern: no magnitude cap), under AddressSanitizer and UBSan.
 * Checks that no call reads or writes outside its buffers, that invalid
 * arguments are refused with an error code and nothing else, and:
 *   - LayerNorm, RMSNorm, BatchNorm (train and inference): on finite data,
 *     every output whose float64 value (computed here) is a finite float32
 *     is finite and within the header's bound (5e-6·(1 + |gamma|) abs,
 *     2e-6·max|y|, 5e-6 abs);
 *   - PE, PE samples, PE shift of a PE row: finite and in [-1, 1];
 *   - colormap: finite values opaque, NaN transparent; copy: bit-exact;
 *   - histogram counts add up to n; random normals finite;
 *   - layernorm_steps, gram, closest pair, ALiBi, attention, residual
 *     stack, RoPE (computed and cached): finite in, finite out where the
 *     float64 value can be a finite float32 (bounded data).
 *   build: ./build.sh fuzz     run: build/native/fuzz_kernels -runs=100000 */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "posnorm.h"

typedef struct { const uint8_t *p; size_t n; } bytes;

static uint32_t take_u32(bytes *b) {
  uint32_t v = 0;
  for (int k = 0; k < 4; k++) {
    v = (v << 8) | (b->n ? *b->p : 0);
    if (b->n) { b->p++; b->n--; }
  }
  return v;
}
/* an int in [lo, hi], sometimes just outside, to reach the error paths */
static int32_t take_int(bytes *b, int32_t lo, int32_t hi) {
  const uint32_t v = take_u32(b);
  if (hi < lo) return lo; /* an empty range (e.g. a dim below a d_model of 0) */
  if ((v & 31) == 0) return (v & 32) ? lo - 1 : hi + 1;
  return lo + (int32_t)((v >> 6) % (uint32_t)(hi - lo + 1));
}
static float take_float(bytes *b) {
  const uint32_t v = take_u32(b);
  float f;
  memcpy(&f, &v, 4);
  return f;
}
/* a float of any exponent, finite: the bit pattern with the top exponent cleared */
static float take_finite(bytes *b) {
  float f = take_float(b);
  return isfinite(f) ? f : 1.5f;
}

#define TRAP(cond) do { if (!(cond)) abort(); } while (0)

static int all_finite(const float *x, size_t n) {
  for (size_t k = 0; k < n; k++) if (!isfinite(x[k])) return 0;
  return 1;
}
static int representable(double v) { return fabs(v) <= (double)FLT_MAX; }

/* float64 LayerNorm of one row, checked against the kernel's row */
static void check_layernorm_row(const float *y, const float *x, const float *g,
                                const float *be, int32_t n, float eps) {
  double m = 0, sd = 0, sq = 0;
  for (int32_t j = 0; j < n; j++) m += x[j];
  m /= n;
  for (int32_t j = 0; j < n; j++) { const double d = x[j] - m; sd += d; sq += d * d; }
  const double c = sd / n, var = fmax(sq / n - c * c, 0.0), inv = 1.0 / sqrt(var + (double)eps);
  for (int32_t j = 0; j < n; j++) {
    const double ref = (g ? g[j] : 1.0) * ((x[j] - (m + c)) * inv) + (be ? be[j] : 0.0);
    if (!isfinite(ref) || !representable(ref)) continue;
    TRAP(isfinite(y[j]));
    TRAP(fabs(y[j] - ref) <= 5e-6 * (1.0 + (g ? fabs(g[j]) : 0.0)) + 6e-8 * fabs(ref));
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  bytes b = {data, size};
  const int which = (int)(take_u32(&b) % 22);
  const int32_t rows = take_int(&b, 1, 16), cols = take_int(&b, 1, 70);
  const size_t n = (size_t)(rows > 0 ? rows : 1) * (size_t)(cols > 0 ? cols : 1);
  float *x = malloc(n * sizeof(float)), *y = malloc(n * sizeof(float));
  float *g = malloc(80 * sizeof(float)), *be = malloc(80 * sizeof(float)), *st = malloc(160 * sizeof(float));
  const int wild = (int)(take_u32(&b) & 1); /* any bit pattern, or finite values */
  for (size_t k = 0; k < n; k++) x[k] = wild ? take_float(&b) : take_finite(&b);
  for (int k = 0; k < 80; k++) g[k] = (float)((int)(take_u32(&b) % 2001) - 1000) / 250.0f;
  for (int k = 0; k < 80; k++) be[k] = (float)((int)(take_u32(&b) % 2001) - 1000) / 500.0f;
  const float eps_raw = take_float(&b), eps = (take_u32(&b) & 3) == 0 ? 0.0f : fabsf(eps_raw);
  const int finite = all_finite(x, n);
  const int r_ok = rows >= 1 && rows <= 16, c_ok = cols >= 1 && cols <= 70;
  int rc;
  switch (which) {
  case 0: {
    const int affine = (int)(take_u32(&b) & 3);
    const float *gg = affine & 1 ? g : NULL, *bb = affine & 2 ? be : NULL;
    rc = pn_layernorm_f32(y, st, st + 16, x, gg, bb, rows, cols, eps);
    if (rc == PN_OK && finite && isfinite(eps))
      for (int32_t r = 0; r < rows; r++) check_layernorm_row(y + (size_t)r * cols, x + (size_t)r * cols, gg, bb, cols, eps);
    break;
  }
  case 1: {
    const float *gg = take_u32(&b) & 1 ? g : NULL;
    rc = pn_rmsnorm_f32(y, st, x, gg, rows, cols, eps);
    if (rc == PN_OK && finite && isfinite(eps)) {
      for (int32_t r = 0; r < rows; r++) {
        double sq = 0, top = 0;
        const float *xr = x + (size_t)r * cols, *yr = y + (size_t)r * cols;
        for (int32_t j = 0; j < cols; j++) sq += (double)xr[j] * xr[j];
        const double inv = 1.0 / sqrt(sq / cols + (double)eps);
        for (int32_t j = 0; j < cols; j++) top = fmax(top, fabs(xr[j] * inv * (gg ? gg[j] : 1.0)));
        for (int32_t j = 0; j < cols; j++) {
          const double ref = xr[j] * inv * (gg ? gg[j] : 1.0);
          if (!isfinite(ref) || !representable(ref)) continue;
          TRAP(isfinite(yr[j]) && fabs(yr[j] - ref) <= 2e-6 * top + 1e-44);
        }
      }
    }
    break;
  }
  case 2:
  case 3: {
    const int32_t bc = cols > 8 ? 8 : cols;
    float rm[8], rv[8];
    for (int k = 0; k < 8; k++) { rm[k] = be[k]; rv[k] = fabsf(g[k]); }
    const size_t m = (size_t)(rows > 0 ? rows : 1) * (size_t)(bc > 0 ? bc : 1);
    if (which == 2) rc = pn_batchnorm_train_f32(y, st, st + 8, rm, rv, x, g, be, rows, bc, eps, 0.5f);
    else rc = pn_batchnorm_infer_f32(y, x, g, be, rm, rv, rows, bc, eps);
    if (rc == PN_OK && all_finite(x, m) && isfinite(eps)) {
      for (int32_t c = 0; c < bc; c++) {
        double mu = 0, v = 0;
        if (which == 2) {
          for (int32_t r = 0; r < rows; r++) mu += x[(size_t)r * bc + c];
          mu /= rows;
          for (int32_t r = 0; r < rows; r++) v += (x[(size_t)r * bc + c] - mu) * (x[(size_t)r * bc + c] - mu);
          v /= rows;
        } else {
          mu = be[c];
          v = fabsf(g[c]);
        }
        const double inv = 1.0 / sqrt(v + (double)eps);
        for (int32_t r = 0; r < rows; r++) {
          const double ref = g[c] * ((x[(size_t)r * bc + c] - mu) * inv) + be[c];
          if (!isfinite(ref) || !representable(ref)) continue;
          const float got = y[(size_t)r * bc + c];
          TRAP(isfinite(got) && fabs(got - ref) <= 5e-6 * (1.0 + fabs(g[c])) + 6e-8 * fabs(ref));
        }
      }
    }
    break;
  }
  case 4: {
    const int code = (int)(take_u32(&b) & 1); /* posnorm's PE or the float32 code */
    const double base = 1.0 + fabs((double)take_finite(&b));
    const int32_t off = take_int(&b, 0, 1 << 30), lay = take_int(&b, 0, 1);
    rc = code ? pn_pe_float32_code_f32(y, rows, cols, base, off, lay) : pn_pe_sinusoidal_f32(y, rows, cols, base, off, lay);
    if (rc == PN_OK) for (size_t k = 0; k < n; k++) TRAP(isfinite(y[k]) && fabsf(y[k]) <= 1.0f);
    break;
  }
  case 5: {
    const double start = (double)take_int(&b, -1000000, 1000000) / 7.0, step = (double)take_int(&b, -1000, 1000) / 13.0;
    const int32_t d = take_int(&b, 1, 64);
    rc = pn_pe_sample_f32(y, (int32_t)n, start, step, take_int(&b, 0, d - 1), d, 1.0 + fabs((double)take_finite(&b)));
    if (rc == PN_OK) for (size_t k = 0; k < n; k++) TRAP(isfinite(y[k]) && fabsf(y[k]) <= 1.0f);
    break;
  }
  case 6: {
    const int32_t hd = cols, rd = take_int(&b, 2, hd > 2 ? hd : 2);
    int32_t ids[17]; /* rows may step one past 16 */
    for (int k = 0; k < 17; k++) ids[k] = take_int(&b, 0, 1 << 30);
    rc = pn_rope_f32(y, x, take_u32(&b) & 1 ? ids : NULL, 1, rows, 1, hd, rd, 10000.0, take_int(&b, 0, 1000), take_int(&b, 0, 1), take_int(&b, 0, 1));
    if (rc == PN_OK && finite) {
      double top = 0;
      for (size_t k = 0; k < n; k++) top = fmax(top, fabs(x[k]));
      if (top < 1e38) for (size_t k = 0; k < n; k++) TRAP(isfinite(y[k]));
    }
    break;
  }
  case 7: {
    const int32_t hd = cols, rd = take_int(&b, 2, hd > 2 ? hd : 2), half = rd > 1 ? rd / 2 : 1;
    const int32_t cache_rows = take_int(&b, 1, 12);
    /* room for every row either form may read: cache_rows with ids, rows without */
    const size_t room = (size_t)(cache_rows > rows ? cache_rows : rows > 0 ? rows : 1) * (size_t)(half > 0 ? half : 1) + 1;
    float *cs = malloc(sizeof(float) * room), *sn = malloc(sizeof(float) * room);
    for (size_t k = 0; k < room; k++) { cs[k] = g[k % 80] / 4; sn[k] = be[k % 80] / 2; }
    int32_t ids[17]; /* rows may step one past 16 */
    for (int k = 0; k < 17; k++) ids[k] = take_int(&b, 0, 11);
    const int use_ids = (int)(take_u32(&b) & 1);
    rc = pn_rope_cache_f32(y, x, cs, sn, use_ids ? ids : NULL, use_ids ? cache_rows : rows, 1, rows, 1, hd, rd, take_int(&b, 0, 1), take_int(&b, 0, 1));
    if (rc == PN_OK && finite) {
      double top = 0;
      for (size_t k = 0; k < n; k++) top = fmax(top, fabs(x[k]));
      if (top < 1e38) for (size_t k = 0; k < n; k++) TRAP(isfinite(y[k]));
    }
    free(cs); free(sn);
    break;
  }
  case 8: {
    const int32_t heads = take_int(&b, 1, 40);
    float slopes[41];
    rc = pn_alibi_slopes_f32(slopes, heads);
    if (rc == PN_OK) for (int32_t h = 0; h < heads; h++) TRAP(slopes[h] > 0.0f && slopes[h] < 1.0f);
    const int32_t s = take_int(&b, 1, 8), hh = take_int(&b, 1, 4);
    float bias[5 * 9 * 9]; /* take_int may step one past its range */
    const int rc2 = pn_alibi_bias_f32(bias, hh, s);
    TRAP(rc2 <= 0 && rc2 >= PN_ERR_NOMEM);
    if (rc2 == PN_OK) for (int32_t k = 0; k < hh * s * s; k++) TRAP(bias[k] <= 0.0f && isfinite(bias[k]));
    break;
  }
  case 9: {
    const double mean = (double)take_finite(&b), sd = fabs((double)take_finite(&b));
    rc = pn_random_normal_f32(y, (int32_t)n, take_u32(&b), mean, sd);
    if (rc == PN_OK && fabs(mean) < 1e37 && sd < 1e36) for (size_t k = 0; k < n; k++) TRAP(isfinite(y[k]));
    break;
  }
  case 10: {
    uint32_t counts[65], extra[3]; /* take_int may give 65 (valid for the kernel) */
    const int32_t bins = take_int(&b, 1, 64);
    const float lo = take_finite(&b), hi = take_finite(&b);
    rc = pn_histogram_f32(counts, extra, x, (int32_t)n, bins, lo, hi);
    if (rc == PN_OK) {
      uint64_t sum = (uint64_t)extra[0] + extra[1] + extra[2];
      for (int32_t k = 0; k < bins; k++) sum += counts[k];
      TRAP(sum == n);
    }
    break;
  }
  case 11: {
    uint8_t *px = malloc(n * 4);
    const float lo = take_finite(&b), hi = take_finite(&b);
    rc = pn_colormap_rgba8(px, x, (int32_t)n, lo, hi, take_int(&b, 0, 1));
    if (rc == PN_OK) for (size_t k = 0; k < n; k++) TRAP(px[4 * k + 3] == (isnan(x[k]) ? 0 : 255));
    uint8_t lut[1024];
    const int rc2 = pn_colormap_lut_rgba8(lut, take_int(&b, 0, 1));
    if (rc2 == PN_OK) for (int k = 0; k < 256; k++) TRAP(lut[4 * k + 3] == 255);
    free(px);
    break;
  }
  case 12:
    rc = pn_copy_f32(y, x, (int32_t)n);
    if (rc == PN_OK) TRAP(memcmp(x, y, n * sizeof(float)) == 0);
    break;
  case 13: {
    const int32_t d = cols > 8 ? 8 : cols, s = (int32_t)(n / (size_t)(d > 0 ? d : 1)) > 8 ? 8 : (int32_t)(n / (size_t)(d > 0 ? d : 1));
    float w[64], out[64], att[64];
    for (int k = 0; k < 64; k++) w[k] = g[k] / 8;
    rc = pn_attention_f32(out, att, x, w, w, w, s, d, d);
    if (rc == PN_OK && finite) {
      double top = 0;
      for (int32_t k = 0; k < s * d; k++) top = fmax(top, fabs(x[k]));
      if (top < 1e15) {
        for (int32_t k = 0; k < s * d; k++) TRAP(isfinite(out[k]));
        for (int32_t i = 0; i < s; i++) {
          double sum = 0;
          for (int32_t j = 0; j < s; j++) sum += att[i * s + j];
          TRAP(fabs(sum - 1.0) < 1e-5);
        }
      }
    }
    break;
  }
  case 14: {
    const int32_t gr = rows > 8 ? 8 : rows;
    float out[64];
    rc = pn_gram_f32(out, x, gr, cols);
    if (rc == PN_OK && finite && r_ok && c_ok) {
      double top = 0;
      for (size_t k = 0; k < (size_t)gr * cols; k++) top = fmax(top, fabs(x[k]));
      if (top < 1e17) for (int32_t k = 0; k < gr * gr; k++) TRAP(isfinite(out[k]));
    }
    break;
  }
  case 15: {
    float dist;
    int32_t pair[2];
    rc = pn_min_row_distance_f32(&dist, pair, x, rows, cols);
    if (rc == PN_OK) {
      TRAP(pair[0] >= 0 && pair[0] < pair[1] && pair[1] < rows);
      TRAP(dist >= 0.0f || isnan(dist));
    }
    break;
  }
  case 16: {
    const int32_t d = 2 * (cols > 1 ? cols / 2 : 1);
    const double base = 1.0 + fabs((double)take_finite(&b));
    const int32_t p = take_int(&b, 0, 1 << 20), k = take_int(&b, -(1 << 20), 1 << 20);
    float row[72] = {0};
    const int rc0 = pn_pe_sinusoidal_f32(row, 1, d, base > 1.0 && isfinite(base) ? base : 2.0, p > 0 ? p : 0, 0);
    float shifted[72];
    rc = pn_pe_shift_f32(shifted, row, d, base, k);
    if (rc == PN_OK && rc0 == PN_OK) for (int32_t j = 0; j < d; j++) TRAP(isfinite(shifted[j]) && fabsf(shifted[j]) <= 1.0f + 1e-6f);
    break;
  }
  case 17: {
    const int32_t width = take_int(&b, 1, 8), layers = take_int(&b, 1, 6), sr = rows > 4 ? 4 : rows;
    float w[7 * 81], stds[8], x0[4 * 9]; /* layers, width may step one past */
    for (int k = 0; k < 7 * 81; k++) w[k] = g[k % 80] / 8;
    for (int k = 0; k < 4 * 9; k++) x0[k] = x[(size_t)k % n];
    rc = pn_residual_stack_f32(stds, x0, w, layers, sr, width, take_int(&b, 0, 3), take_finite(&b));
    TRAP(rc <= 0);
    /* and with gradients: finite in, finite (or Inf from overflow) out, never a bad status */
    float gstd[8], gradw[7 * 81], gnorm[8], ro[4 * 9];
    double loss = 0;
    for (int k = 0; k < 4 * 9; k++) ro[k] = be[k % 80];
    const int rc2 = pn_residual_stack_grad_f32(gstd, &loss, gradw, gnorm, x0, w, ro, layers, sr, width, take_int(&b, 0, 3), (float)(take_u32(&b) % 300) / 100.0f);
    TRAP(rc2 <= 0 && rc2 >= PN_ERR_NOMEM);
    if (rc2 == PN_OK && all_finite(x0, (size_t)(sr > 0 ? sr : 1) * (size_t)(width > 0 ? width : 1))) {
      double top = 0;
      for (int k = 0; k < sr * width; k++) top = fmax(top, fabs(x0[k]));
      if (top < 1e6 && layers <= 6) for (int32_t l = 0; l < layers; l++) TRAP(!isnan(gnorm[l]) && gnorm[l] >= 0.0f);
    }
    break;
  }
  case 18: {
    const int32_t m = (int32_t)(n > 80 ? 80 : n);
    float c[80], h[80], out[80], stats[2];
    const float *gg = take_u32(&b) & 1 ? g : NULL;
    rc = pn_layernorm_steps_f32(c, h, out, stats, x, gg, be, m, eps);
    if (rc == PN_OK && all_finite(x, (size_t)m) && isfinite(eps)) check_layernorm_row(out, x, gg, be, m, eps);
    break;
  }
  case 19: {
    /* RoPE scaling: frequencies of any type from fuzzed parameters, then RoPE with them */
    const int32_t dim = 2 * take_int(&b, 1, 32), type = take_int(&b, 0, 5);
    double params[PN_SCALING_PARAMS], shortf[33], longf[33], inv[33], af = 0;
    for (int k = 0; k < PN_SCALING_PARAMS; k++) params[k] = (double)take_finite(&b);
    params[PN_SCALING_FACTOR] = 0.5 + (double)(take_u32(&b) % 64);
    params[PN_SCALING_ORIGINAL_MAX] = 1.0 + (double)(take_u32(&b) % 100000);
    params[PN_SCALING_TRUNCATE] = (double)(take_u32(&b) & 1);
    for (int k = 0; k < 33; k++) { shortf[k] = 0.5 + fabs((double)g[k % 80]); longf[k] = 1.0 + fabs((double)g[(k + 7) % 80]) * 8; }
    const double seq = (double)(take_u32(&b) % 200000);
    rc = pn_rope_frequencies_f64(inv, &af, dim, 1.0 + fabs((double)take_finite(&b)), type, params, shortf, longf, seq);
    if (rc == PN_OK) {
      TRAP(isfinite(af) && af > 0.0);
      for (int32_t i = 0; i < dim / 2; i++) TRAP(!isnan(inv[i]) && inv[i] >= 0.0);
      const int32_t hd = dim + take_int(&b, 0, 3), s = rows > 4 ? 4 : rows;
      float *q = malloc(sizeof(float) * (size_t)(s > 0 ? s : 1) * (size_t)(hd > 0 ? hd : 1) + 4);
      for (int32_t k = 0; k < (s > 0 ? s : 1) * (hd > 0 ? hd : 1); k++) q[k] = g[k % 80];
      const int rc2 = pn_rope_scaled_f32(q, q, NULL, inv, af, 1, s, 1, hd, dim, take_int(&b, 0, 1 << 20), take_int(&b, 0, 1), take_int(&b, 0, 1));
      TRAP(rc2 <= 0 && rc2 >= PN_ERR_NOMEM);
      free(q);
    }
    break;
  }
  case 20: {
    /* the Transformer block: any x, sizes at and past their limits; with
     * |x| <= 1e6 attention weights are probabilities and no traced value is
     * NaN (but for eps = 0, where a constant token divides 0 by 0) */
    const int32_t T = rows > 6 ? 6 : rows, d = take_int(&b, 1, 9), heads = take_int(&b, 1, 4), ff = take_int(&b, 1, 9);
    const int32_t place = take_int(&b, 0, 2), kind = take_int(&b, 0, 2);
    float w[4 * 64 + 2 * 8 * 8 + 4], trace[8 * 6 * 8], attn[4 * 6 * 6], xb[6 * 8];
    for (int k = 0; k < 4 * 64 + 2 * 8 * 8 + 4; k++) w[k] = g[k % 80] / 4;
    for (int k = 0; k < 6 * 8; k++) xb[k] = x[(size_t)k % n];
    const int fits = T >= 1 && d >= 1 && d <= 8 && heads >= 1 && heads <= 4 && ff >= 1 && ff <= 8;
    if (!fits) { rc = PN_OK; break; }
    rc = pn_transformer_block_f32(trace, attn, xb, w, T, d, heads, ff, place, kind, eps);
    const int args_ok = d % heads == 0 && heads <= d && place >= 0 && place <= 1 && kind >= 0 && kind <= 1 && eps >= 0.0f && isfinite(eps);
    TRAP(args_ok ? rc == PN_OK || rc == PN_ERR_NOMEM : rc != PN_OK);
    double top = 0;
    for (int32_t k = 0; k < T * d; k++) top = fmax(top, fabs(xb[k]));
    if (rc == PN_OK && all_finite(xb, (size_t)T * (size_t)d) && top <= 1e6) { /* larger x may overflow q·k: reported as Inf/NaN, not an error */
      for (int32_t k = 0; k < heads * T * T; k++) TRAP((attn[k] >= 0.0f && attn[k] <= 1.0f) || eps == 0.0f);
      for (int32_t k = 0; k < 8 * T * d; k++) TRAP(!isnan(trace[k]) || eps == 0.0f);
    }
    break;
  }
  default:
    rc = PN_OK;
    TRAP(pn_version() == POSNORM_VERSION_MAJOR * 10000 + POSNORM_VERSION_MINOR * 100 + POSNORM_VERSION_PATCH);
    TRAP(pn_simd_enabled() == 0 || pn_simd_enabled() == 1);
    break;
  }
  TRAP(rc <= 0 && rc >= PN_ERR_NOMEM);
  free(x); free(y); free(g); free(be); free(st);
  return 0;
}
