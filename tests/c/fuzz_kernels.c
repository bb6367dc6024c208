/* fuzz_kernels.c — libFuzzer driver: every exported kernel with sizes,
 * parameters and data taken from the fuzzer's bytes (any float32 bit
 * pattern: no magnitude cap), under AddressSanitizer and UBSan, built
 * 64-bit and 32-bit (clang -m32: the wasm modules' 32-bit size_t).
 * Checks that no call reads or writes outside its buffers, that invalid
 * arguments are refused with an error code and nothing else (outputs
 * pre-filled with a sentinel stay as they were), that after every call the
 * kernels' allocations and frees balance (the counting pn_malloc of the test
 * builds), and:
 *   - LayerNorm, RMSNorm, BatchNorm (train and inference): on finite data,
 *     every output whose float64 value (computed here) is a finite float32
 *     is finite and within the header's bound (5e-6·(1 + |gamma|) abs,
 *     2e-6·max|y|, 5e-6 abs);
 *   - PE, PE samples, PE shift of a PE row: finite and in [-1, 1];
 *   - colormap: finite values opaque, NaN transparent; copy: bit-exact;
 *   - histogram counts add up to n; random normals finite;
 *   - layernorm_steps, gram, closest pair, ALiBi, attention, residual
 *     stack, RoPE (computed and cached): finite in, finite out where the
 *     float64 value can be a finite float32 (bounded data);
 *   - bfloat16/float16: the rounding equal to one written here from the
 *     types' definitions (round_to_type); PE and RoPE step by step in the
 *     type: every value on the type's grid, PE in [-1, 1], RoPE finite on
 *     bounded data, except where float16 positions are Inf (from 65520);
 *   - RoPE scaling with any double bit pattern in every parameter, any dim
 *     and any seq_len: the status an independent reading of the header's
 *     preconditions demands, and on success a finite attention factor > 0
 *     and finite frequencies, then RoPE with them;
 *   - the SHAPES of the residual stack (with and without gradients) and of
 *     the Transformer block up to and past their limits (any int32): the
 *     exact status; small shapes are computed for real, larger valid ones
 *     with the test allocator refusing every request, where the kernel must
 *     ask for exactly its header's scratch bytes and write nothing (so the
 *     fuzzer never allocates more than a few MB).
 *   build: ./build.sh fuzz     run: tests/c/run_fuzz.sh SECONDS */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pn_internal.h" /* posnorm.h and pn_alloc_stats */
#include "posnorm_figures.h"

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
/* x rounded to a pn_dtype, written here from the types' definitions (not
 * pn_lowprec.h): to nearest, ties to even, on the grid of 8 (bfloat16) or 11
 * (float16) significant bits whose spacing stops shrinking at the type's
 * smallest normal exponent (-126, -14); past the largest finite value
 * (bfloat16 0x7F7F: (2 - 2^-7)·2^127, float16 65504) a rounding gives ±Inf.
 * x / q and its rounding are exact in double; nearbyint rounds ties to even. */
static double round_to_type(float x, int32_t dtype) {
  if (dtype == PN_DTYPE_FLOAT32 || isnan(x) || isinf(x) || x == 0.0f) return x;
  const int bits = dtype == PN_DTYPE_BFLOAT16 ? 8 : 11, emin = dtype == PN_DTYPE_BFLOAT16 ? -126 : -14;
  const double top = dtype == PN_DTYPE_BFLOAT16 ? ldexp(2.0 - ldexp(1.0, -7), 127) : 65504.0;
  const int e = ilogb((double)x) < emin ? emin : ilogb((double)x);
  const double q = ldexp(1.0, e - (bits - 1)), r = nearbyint((double)x / q) * q;
  if (fabs(r) > top) return copysign(INFINITY, (double)x);
  return r == 0.0 ? copysign(0.0, (double)x) : r;
}

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


/* ---- #16: RoPE scaling parameters and the shapes of the big kernels ---- */

#define SENTINEL 0xA5
static void sentinel_fill(void *p, size_t len) { memset(p, SENTINEL, len); }
static int sentinel_intact(const void *p, size_t len) {
  const uint8_t *q = p;
  for (size_t k = 0; k < len; k++) if (q[k] != SENTINEL) return 0;
  return 1;
}
static uint64_t take_u64(bytes *b) {
  const uint64_t hi = take_u32(b);
  return hi << 32 | take_u32(b);
}
/* a double near `usual`: any bit pattern, a special value, `usual` itself
 * or scaled by a power of two */
static double take_param(bytes *b, double usual) {
  static const double special[] = {0.0, -0.0, NAN, INFINITY, -INFINITY, DBL_MIN, DBL_TRUE_MIN, -DBL_TRUE_MIN,
                                   DBL_MAX, -DBL_MAX, 1.0, -1.0, 0.5, 2.0, 1e-320, 1e308, 1.0 + DBL_EPSILON};
  const uint32_t mode = take_u32(b);
  switch (mode % 5) {
  case 0: { const uint64_t v = take_u64(b); double d; memcpy(&d, &v, 8); return d; }
  case 1: return special[(mode >> 3) % (sizeof special / sizeof special[0])];
  case 2: return ldexp(usual, (int)((mode >> 3) % 257) - 128);
  default: return usual;
  }
}
/* a size near `limit`: any int32, small, at the limit, a power of two ± 1,
 * or one of `marks` (the sizes where a count or a scratch passes 2^28
 * values, 2^31 or 2^32 bytes) */
static int32_t take_size(bytes *b, int32_t limit, const int32_t *marks, int n_marks) {
  const uint32_t mode = take_u32(b), v = take_u32(b);
  if (mode % 2 == 0) return marks[v % (uint32_t)n_marks];
  switch ((mode / 2) % 6) {
  case 0: return (int32_t)v;
  case 1: return (int32_t)(v % 13) - 2;               /* -2 .. 10 */
  case 2: return limit + (int32_t)(v % 7) - 3;        /* the limit ± 3 */
  case 3: return (int32_t)(((uint32_t)1 << (v % 31)) + (v >> 5) % 3) - 1; /* 2^k - 1 .. 2^k + 1 */
  default: return 1 + (int32_t)(v % (uint32_t)limit);  /* 1 .. limit */
  }
}
static int same_allocs(const pn_alloc_counter *a) {
  return pn_alloc_stats.requests == a->requests && pn_alloc_stats.allocs == a->allocs && pn_alloc_stats.frees == a->frees;
}
/* fills n values from the fuzzer's bytes, finite and of moderate size */
static void fill_moderate(float *v, size_t n, bytes *b, float scale) {
  const uint32_t seed = take_u32(b);
  for (size_t k = 0; k < n; k++) {
    const uint32_t h = (uint32_t)(k * 2654435761u) ^ seed;
    v[k] = scale * ((float)(h % 2001) / 1000.0f - 1.0f);
  }
}

static int fuzz_rope_scaling(bytes *b) {
  int32_t dim;
  switch (take_u32(b) % 4) {
  case 0: dim = (int32_t)take_u32(b); break;
  case 1: dim = (int32_t)(take_u32(b) % 69) - 2; break;
  case 2: dim = 65536 + (int32_t)(take_u32(b) % 13) - 6; break;
  default: dim = 2 * (1 + (int32_t)(take_u32(b) % 512)); break;
  }
  const double base = take_param(b, take_u32(b) & 1 ? 10000.0 : 500000.0);
  const int32_t type = take_u32(b) % 16 == 0 ? (int32_t)take_u32(b) : take_int(b, 0, 5);
  static const double usual[PN_SCALING_PARAMS] = {4.0, 4096.0, 32.0, 1.0, 0.707, 1.0, NAN, 1.0, 4.0, 1.0};
  double params[PN_SCALING_PARAMS];
  for (int k = 0; k < PN_SCALING_PARAMS; k++) params[k] = take_param(b, usual[k]);
  const double seq_len = take_param(b, 8192.0);
  const uint32_t nulls = take_u32(b) % 32; /* now and then one pointer NULL */
  const int32_t half = dim >= 2 && dim <= 65536 ? dim / 2 : 0;
  const size_t room = (size_t)(half > 4 ? half : 4);
  /* static, not malloc'd: large allocations churned through ASan's mmap
   * allocator under qemu-i386 trip ASan's own checks (see run_fuzz.sh) */
  static double lists[2 * 32768], inv[32768 + 1];
  double af;
  for (int l = 0; l < 2; l++) { /* a smooth list, with a few values any bit pattern */
    const double v0 = take_param(b, l ? 8.0 : 1.5);
    for (size_t k = 0; k < room; k++) lists[l * room + k] = v0 * (1.0 + (double)k / (double)room);
    for (int j = take_u32(b) % 3; j > 0; j--) {
      const size_t at = take_u32(b) % room;
      const uint64_t bits = take_u64(b);
      memcpy(&lists[l * room + at], &bits, 8);
    }
  }
  const double *shortf = nulls == 3 ? NULL : lists, *longf = nulls == 4 ? NULL : lists + room;
  const double *pp = nulls == 2 ? NULL : params;
  double *out = nulls == 0 ? NULL : inv, *afp = nulls == 1 ? NULL : &af;
  sentinel_fill(inv, sizeof(double) * room + 8);
  sentinel_fill(&af, sizeof af);
  const pn_alloc_counter before = pn_alloc_stats;
  const int rc = pn_rope_frequencies_f64(out, afp, dim, base, type, pp, shortf, longf, seq_len);
  TRAP(same_allocs(&before)); /* it has no scratch */
  /* the status the header's preconditions demand, in their order */
  if (!out || !afp || (type != PN_SCALING_NONE && !pp) || (type == PN_SCALING_LONGROPE && (!shortf || !longf))) {
    TRAP(rc == PN_ERR_NULL);
  } else if (dim < 2 || dim > 65536 || (dim & 1) || (type == PN_SCALING_DYNAMIC && dim < 4)) {
    TRAP(rc == PN_ERR_SIZE);
  } else if (!isfinite(base) || !(base > 1.0) || type < 0 || type > PN_SCALING_LONGROPE || !isfinite(seq_len) || !(seq_len >= 0.0)) {
    TRAP(rc == PN_ERR_ARG);
  } else {
    TRAP(rc == PN_OK || rc == PN_ERR_ARG);
    /* params may be NULL here only for type none, which then reads none */
    const double f = params[PN_SCALING_FACTOR], o = params[PN_SCALING_ORIGINAL_MAX];
    const double given = pp ? params[PN_SCALING_ATTENTION_FACTOR] : NAN;
    int bad = !isnan(given) && !(isfinite(given) && given > 0.0);
    if (type != PN_SCALING_NONE) bad |= !(isfinite(f) && f > 0.0);
    if (type >= PN_SCALING_DYNAMIC) bad |= !(isfinite(o) && o >= 1.0);
    if (type == PN_SCALING_YARN) {
      const double t = params[PN_SCALING_TRUNCATE];
      bad |= !(isfinite(params[PN_SCALING_BETA_FAST]) && params[PN_SCALING_BETA_FAST] > 0.0);
      bad |= !(isfinite(params[PN_SCALING_BETA_SLOW]) && params[PN_SCALING_BETA_SLOW] > 0.0);
      bad |= isinf(params[PN_SCALING_MSCALE]) || isinf(params[PN_SCALING_MSCALE_ALL_DIM]);
      bad |= !(isnan(t) || t == 0.0 || t == 1.0);
    }
    if (type == PN_SCALING_LLAMA3) {
      const double lo = params[PN_SCALING_LOW_FREQ_FACTOR], hi = params[PN_SCALING_HIGH_FREQ_FACTOR];
      bad |= !(isfinite(lo) && isfinite(hi) && lo > 0.0 && hi > lo);
    }
    if (type == PN_SCALING_LONGROPE)
      for (int32_t i = 0; i < half; i++)
        bad |= !(isfinite(shortf[i]) && shortf[i] > 0.0 && isfinite(longf[i]) && longf[i] > 0.0);
    if (bad) TRAP(rc == PN_ERR_ARG);
  }
  if (rc != PN_OK) {
    TRAP(sentinel_intact(inv, sizeof(double) * room + 8) && sentinel_intact(&af, sizeof af));
  } else {
    TRAP(isfinite(af) && af > 0.0);
    for (int32_t i = 0; i < half; i++) TRAP(isfinite(inv[i]) && (inv[i] >= 0.0 || type == PN_SCALING_LLAMA3));
    TRAP(sentinel_intact(inv + half, sizeof(double) * (room - (size_t)half) + 8));
    /* with the double-double rests: the same frequencies, bit for bit, and
     * the same attention factor; each rest finite, 0 from |w_i| = 2^41, and
     * small but for yarn and llama3: the float64 w_i = exp(x) is off by
     * about |x| ulps (x = -2i·ln(base)/dim rounded), up to 709·4·2^-53 <
     * 2^-40 (a subnormal one by 2^-1074); a yarn ramp or llama3 band narrow
     * against its float64 ends' rounding leaves the float64 frequency many
     * ulps off (even negative), the rest the difference */
    static double inv2[32768], lo[32768];
    double af2;
    TRAP(pn_rope_frequencies_dd_f64(inv2, lo, &af2, dim, base, type, pp, shortf, longf, seq_len) == PN_OK);
    TRAP(memcmp(inv2, inv, sizeof(double) * (size_t)half) == 0 && af2 == af);
    const int far = type == PN_SCALING_YARN || type == PN_SCALING_LLAMA3;
    int rests_small = 1; /* none the kernel takes below 2^20 (rope_scaling.c) */
    for (int32_t i = 0; i < half; i++) {
      TRAP(isfinite(lo[i]) && (lo[i] == 0.0 || fabs(inv[i]) < 0x1p41));
      TRAP(far || fabs(lo[i]) <= 0x1p-40 * fmax(fabs(inv[i]), 0x1p-11));
      rests_small &= fabs(lo[i]) <= 0x1p-44 * fmax(fabs(inv[i]), 0x1p-11);
    }
    /* and RoPE with them, on a small tensor */
    if (dim <= 256) {
      const int32_t hd = dim + take_int(b, 0, 3), s = take_int(b, 1, 4), h = take_int(b, 1, 2);
      const int32_t off = take_u32(b) % 8 == 0 ? (int32_t)take_u32(b) : take_int(b, 0, 1 << 20);
      const int32_t inter = take_int(b, 0, 1), lay = take_int(b, 0, 1);
      int32_t ids[5];
      for (int k = 0; k < 5; k++) ids[k] = take_u32(b) % 8 == 0 ? (int32_t)take_u32(b) : take_int(b, 0, 1 << 30);
      const int use_ids = (int)(take_u32(b) & 1);
      const size_t nx = (size_t)(s > 0 ? s : 1) * (size_t)(h > 0 ? h : 1) * (size_t)(hd > 0 ? hd : 1);
      float *x = malloc(sizeof(float) * nx), *y = malloc(sizeof(float) * nx);
      fill_moderate(x, nx, b, 1000.0f);
      sentinel_fill(y, sizeof(float) * nx);
      const int rc2 = pn_rope_scaled_f32(y, x, use_ids ? ids : NULL, inv, af, 1, s, h, hd, dim, off, inter, lay);
      /* and with the rests: the same status; where every angle stays
       * below 2^20 and every rest within 2^-44·|w_i| (the rests unread),
       * the same bits */
      float *y2 = malloc(sizeof(float) * nx);
      sentinel_fill(y2, sizeof(float) * nx);
      TRAP(pn_rope_scaled_dd_f32(y2, x, use_ids ? ids : NULL, inv, lo, af, 1, s, h, hd, dim, off, inter, lay) == rc2);
      double p_max = use_ids ? 0.0 : (double)off + (double)s;
      for (int k = 0; use_ids && k < s && k < 5; k++) p_max = fmax(p_max, (double)ids[k]);
      double w_max = 0.0;
      for (int32_t i = 0; i < half; i++) w_max = fmax(w_max, fabs(inv[i]));
      if (rc2 == PN_OK && p_max * w_max < 0x1p19 && rests_small) TRAP(memcmp(y, y2, sizeof(float) * nx) == 0);
      if (rc2 != PN_OK) TRAP(sentinel_intact(y2, sizeof(float) * nx));
      free(y2);
      int ids_ok = 1;
      for (int k = 0; k < s && k < 5; k++) ids_ok &= ids[k] >= 0;
      const int shape_ok = s >= 1 && h >= 1 && hd >= 1 && dim <= hd;
      const int args_ok = inter >= 0 && inter <= 1 && lay >= 0 && lay <= 1 &&
                          (use_ids ? ids_ok : off >= 0 && (double)off + (double)s <= 2147483648.0);
      TRAP(!shape_ok ? rc2 == PN_ERR_SIZE || rc2 == PN_ERR_ARG : args_ok ? rc2 == PN_OK : rc2 == PN_ERR_ARG);
      double top = 0.0; /* the largest angle is below top·2^31 */
      for (int32_t i = 0; i < half; i++) top = fmax(top, inv[i]);
      if (rc2 != PN_OK) TRAP(sentinel_intact(y, sizeof(float) * nx));
      else if (af < 1e30 && top < 1e290) for (size_t k = 0; k < nx; k++) TRAP(isfinite(y[k]));
      free(x);
      free(y);
    }
  }
  return rc;
}

/* Output buffers for calls that must not write: a few hundred bytes, so a
 * kernel that wrongly writes is caught by the sentinel or by ASan. */
enum { SMALL = 256 };

/* the residual stack, with gradients or without, at any shape */
static int fuzz_stack_shapes(bytes *b, int grad) {
  /* 4096 × 4096 from 9 layers on passed 2^32 bytes of gradient scratch, 4
   * layers 2^31; 2713 × 64 × 1024 layers is the shape; 3854/3855
   * rows straddled 2^31 at 4 layers, 4095/4096 2^32 at 9: all past
   * PN_MAX_WORK now, refused as sizes (the work limit's edge: 341 and 342
   * rows of 64 with 1024 layers, test_safety.c) */
  static const int32_t layer_marks[] = {1, 4, 8, 9, 15, 16, 1024, 1025};
  static const int32_t row_marks[] = {64, 513, 2713, 3855, 4095, 4096, 4097};
  const int32_t layers = take_size(b, 1024, layer_marks, 8), rows = take_size(b, 4096, row_marks, 7),
                width = take_size(b, 4096, row_marks, 7);
  const int32_t block = take_u32(b) % 8 == 0 ? (int32_t)take_u32(b) : take_int(b, 0, 3);
  const float scale = take_u32(b) % 8 == 0 ? take_float(b) : (float)(take_u32(b) % 400) / 100.0f;
  const uint32_t nulls = take_u32(b) % 32;
  const uint64_t L = (uint64_t)layers, R = (uint64_t)rows, W = (uint64_t)width, MAXE = (uint64_t)PN_MAX_ELEMENTS;
  int sizes_ok = layers >= 1 && layers <= 1024 && rows >= 1 && rows <= 4096 && width >= 1 && width <= 4096 && L * W * W <= MAXE;
  if (grad) sizes_ok = sizes_ok && R * W * (L + 1) <= MAXE;
  const uint64_t cost = (grad ? 3 : 1) * L * R * W * W; /* multiply-adds, as PN_MAX_WORK counts them (no memory) */
  sizes_ok = sizes_ok && cost <= PN_MAX_WORK;
  const int args_ok = block >= 0 && block <= 3 && isfinite(scale);
  /* the scratch each function's header comment states (without a memory) */
  const uint64_t scratch = grad ? 8 * R * W * (3 * L + 5) + 8 * R * (L + 1) : 4 * (3 * R * W + W);
  /* computed for real when small (every buffer <= 2^14 values) */
  const int real = sizes_ok && args_ok && nulls >= 7 && cost <= (1u << 20) && L * W * W <= (1u << 14) && R * W <= (1u << 14);
  /* buffers: exact sizes for a real call, small sentinel ones otherwise */
  const size_t nx = real ? (size_t)(R * W) : SMALL, nw = real ? (size_t)(L * W * W) : SMALL, nl = real ? (size_t)L : SMALL;
  float *x0 = malloc(sizeof(float) * nx), *w = malloc(sizeof(float) * nw), *ro = malloc(sizeof(float) * nx);
  float *std = malloc(sizeof(float) * nl), *g = malloc(sizeof(float) * nw), *gn = malloc(sizeof(float) * nl);
  double loss;
  fill_moderate(x0, nx, b, 3.0f);
  fill_moderate(w, nw, b, 1.0f / (float)(width > 0 && width <= 4096 ? width : 1));
  fill_moderate(ro, nx, b, 1.0f);
  sentinel_fill(std, sizeof(float) * nl);
  sentinel_fill(g, sizeof(float) * nw);
  sentinel_fill(gn, sizeof(float) * nl);
  sentinel_fill(&loss, sizeof loss);
  const pn_alloc_counter before = pn_alloc_stats;
  if (!real) pn_alloc_stats.limit = 0; /* a valid large shape must fail to allocate, touching nothing */
  int rc;
  if (grad)
    rc = pn_residual_stack_grad_f32(nulls == 0 ? NULL : std, nulls == 1 ? NULL : &loss, nulls == 2 ? NULL : g,
                                    nulls == 3 ? NULL : gn, nulls == 4 ? NULL : x0, nulls == 5 ? NULL : w, NULL,
                                    nulls == 6 ? NULL : ro, layers, rows, width, block, PN_GELU_TANH, scale);
  else
    rc = pn_residual_stack_f32(nulls == 0 ? NULL : std, nulls == 4 ? NULL : x0, nulls == 5 ? NULL : w, NULL, layers, rows,
                               width, block, PN_GELU_TANH, scale);
  pn_alloc_stats.limit = SIZE_MAX;
  const int null_used = grad ? nulls < 7 : (nulls == 0 || nulls == 4 || nulls == 5);
  const int want = null_used ? PN_ERR_NULL : !sizes_ok ? PN_ERR_SIZE : !args_ok ? PN_ERR_ARG : real ? PN_OK
                   : scratch > (uint64_t)SIZE_MAX ? PN_ERR_SIZE : PN_ERR_NOMEM;
  TRAP(rc == want);
  if (rc == PN_ERR_NOMEM) TRAP(pn_alloc_stats.requests == before.requests + 1 && (uint64_t)pn_alloc_stats.last_request == scratch);
  else if (rc != PN_OK) TRAP(same_allocs(&before));
  if (rc != PN_OK) {
    TRAP(sentinel_intact(std, sizeof(float) * nl) && sentinel_intact(g, sizeof(float) * nw) &&
         sentinel_intact(gn, sizeof(float) * nl) && sentinel_intact(&loss, sizeof loss));
  } else {
    /* Post-LN keeps every activation bounded: with a moderate scale, finite
     * deviations (and gradients, from bounded weights and read-out); a huge
     * scale may overflow, which is reported as Inf/NaN, not an error */
    const int bounded = block == PN_BLOCK_POST_LN && fabsf(scale) <= 16.0f;
    for (int32_t l = 0; l < layers; l++) {
      TRAP(!(std[l] < 0.0f));
      if (bounded) TRAP(isfinite(std[l]));
      if (grad) TRAP(!(gn[l] < 0.0f) && (!bounded || isfinite(gn[l])));
    }
    if (grad && bounded) TRAP(isfinite(loss));
  }
  free(x0); free(w); free(ro); free(std); free(g); free(gn);
  return rc;
}

/* the Transformer block at any shape */
static int fuzz_block_shapes(bytes *b) {
  static const int32_t t_marks[] = {1, 2, 511, 512, 513}, d_marks[] = {1, 2, 1023, 1024, 1025};
  static const int32_t f_marks[] = {1, 4095, 4096, 4097};
  const int32_t T = take_size(b, 512, t_marks, 5), d = take_size(b, 1024, d_marks, 5), ff = take_size(b, 4096, f_marks, 4);
  const int32_t heads = take_u32(b) % 4 == 0 ? take_size(b, 1024, d_marks, 5) : (d >= 1 && d <= 1024 ? take_int(b, 1, d) : 1);
  const int32_t place = take_u32(b) % 8 == 0 ? (int32_t)take_u32(b) : take_int(b, 0, 1);
  const int32_t kind = take_u32(b) % 8 == 0 ? (int32_t)take_u32(b) : take_int(b, 0, 1);
  const float eps = take_u32(b) % 8 == 0 ? take_float(b) : (take_u32(b) & 1 ? 1e-5f : 0.0f);
  const uint32_t nulls = take_u32(b) % 32;
  const uint64_t t = (uint64_t)T, dd = (uint64_t)d, f = (uint64_t)ff, hh = (uint64_t)heads;
  const int sizes_ok = T >= 1 && T <= 512 && d >= 1 && d <= 1024 && heads >= 1 && heads <= d && ff >= 1 && ff <= 4096;
  const int args_ok = sizes_ok && d % heads == 0 && (place == 0 || place == 1) && (kind == 0 || kind == 1) && eps >= 0.0f && isfinite(eps);
  const uint64_t scratch = 8 * (12 * t * dd + t + t * f);
  const uint64_t cost = t * dd * (4 * dd + 2 * f) + 2 * t * t * dd;
  const int real = args_ok && nulls >= 4 && cost <= (1u << 20) && hh * t * t <= (1u << 14) &&
                   4 * dd * dd + 2 * dd * f <= (1u << 14) && 8 * t * dd <= (1u << 14);
  const size_t nx = real ? (size_t)(t * dd) : SMALL, nw = real ? (size_t)(4 * dd * dd + 2 * dd * f) : SMALL;
  const size_t ntr = real ? (size_t)(8 * t * dd) : SMALL, na = real ? (size_t)(hh * t * t) : SMALL;
  float *x = malloc(sizeof(float) * nx), *w = malloc(sizeof(float) * nw);
  float *trace = malloc(sizeof(float) * ntr), *attn = malloc(sizeof(float) * na);
  fill_moderate(x, nx, b, 10.0f);
  fill_moderate(w, nw, b, 1.0f / (float)(d >= 1 && d <= 1024 ? d : 1));
  sentinel_fill(trace, sizeof(float) * ntr);
  sentinel_fill(attn, sizeof(float) * na);
  const pn_alloc_counter before = pn_alloc_stats;
  if (!real) pn_alloc_stats.limit = 0;
  const int rc = pn_transformer_block_f32(nulls == 0 ? NULL : trace, nulls == 1 ? NULL : attn, nulls == 2 ? NULL : x,
                                          nulls == 3 ? NULL : w, T, d, heads, ff, place, kind, PN_GELU_TANH, eps);
  pn_alloc_stats.limit = SIZE_MAX;
  const int want = nulls < 4 ? PN_ERR_NULL : !sizes_ok ? PN_ERR_SIZE : !args_ok ? PN_ERR_ARG : real ? PN_OK : PN_ERR_NOMEM;
  TRAP(rc == want);
  if (rc == PN_ERR_NOMEM) TRAP(pn_alloc_stats.requests == before.requests + 1 && (uint64_t)pn_alloc_stats.last_request == scratch);
  else if (rc != PN_OK) TRAP(same_allocs(&before));
  if (rc != PN_OK) {
    TRAP(sentinel_intact(trace, sizeof(float) * ntr) && sentinel_intact(attn, sizeof(float) * na));
  } else if (eps > 0.0f) {
    /* moderate x, weights ~1/d: every traced value finite, attention rows
     * are probabilities summing to 1 */
    for (size_t k = 0; k < ntr; k++) TRAP(isfinite(trace[k]));
    for (size_t r = 0; r < (size_t)(hh * t); r++) {
      double sum = 0;
      for (size_t j = 0; j < t; j++) { TRAP(attn[r * t + j] >= 0.0f && attn[r * t + j] <= 1.0f); sum += attn[r * t + j]; }
      TRAP(fabs(sum - 1.0) < 1e-5);
    }
  }
  free(x); free(w); free(trace); free(attn);
  return rc;
}

/* the kernels on fuzzed data, small shapes (the older cases) */
static int fuzz_data(bytes *bp, int which) {
  bytes b = *bp;
  const int32_t rows = take_int(&b, 1, 16), cols = take_int(&b, 1, 70);
  const size_t n = (size_t)(rows > 0 ? rows : 1) * (size_t)(cols > 0 ? cols : 1);
  float *x = malloc(n * sizeof(float)), *y = malloc(n * sizeof(float));
  float *g = malloc(80 * sizeof(float)), *be = malloc(80 * sizeof(float)), *st = malloc(160 * sizeof(float));
  /* the outputs of a refused call stay as they were */
  sentinel_fill(y, n * sizeof(float));
  sentinel_fill(st, 160 * sizeof(float));
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
    rc = pn_residual_stack_f32(stds, x0, w, NULL, layers, sr, width, take_int(&b, 0, 3), PN_GELU_TANH, take_finite(&b));
    TRAP(rc <= 0);
    /* and with gradients: finite in, finite (or Inf from overflow) out, never a bad status */
    float gstd[8], gradw[7 * 81], gnorm[8], ro[4 * 9];
    double loss = 0;
    for (int k = 0; k < 4 * 9; k++) ro[k] = be[k % 80];
    const int rc2 = pn_residual_stack_grad_f32(gstd, &loss, gradw, gnorm, x0, w, NULL, ro, layers, sr, width, take_int(&b, 0, 3), PN_GELU_TANH, (float)(take_u32(&b) % 300) / 100.0f);
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
    rc = pn_transformer_block_f32(trace, attn, xb, w, T, d, heads, ff, place, kind, PN_GELU_TANH, eps);
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
  case 21: {
    /* bfloat16 / float16: the rounding against round_to_type, then PE and
     * RoPE step by step in the type (dtype and compute sometimes invalid) */
    const int32_t dtype = take_int(&b, 0, 2), compute = take_int(&b, 0, 1);
    const int32_t pick = (int32_t)(take_u32(&b) % 3);
    if (pick == 0) {
      rc = pn_round_f32(y, x, (int32_t)n, dtype);
      if (rc == PN_OK)
        for (size_t k = 0; k < n; k++) {
          const double ref = round_to_type(x[k], dtype);
          TRAP(isnan(ref) ? isnan(y[k]) : (y[k] == ref && signbit(y[k]) == signbit(ref)));
        }
    } else if (pick == 1) {
      const double base = 1.0 + fabs((double)take_finite(&b));
      const int32_t off = take_int(&b, 0, 1 << 30), lay = take_int(&b, 0, 1);
      rc = pn_pe_lowprec_f32(y, rows, cols, base, off, lay, dtype, compute);
      if (rc == PN_OK)
        for (int32_t r = 0; r < rows; r++) {
          /* float16 positions from 65520 are Inf in the type: sin, cos NaN */
          const int inf_pos = dtype == PN_DTYPE_FLOAT16 && compute == PN_COMPUTE_LOW && (double)off + r >= 65520.0;
          for (int32_t c = 0; c < cols; c++) {
            const float v = y[(size_t)r * cols + c];
            TRAP(inf_pos ? isnan(v) : (fabsf(v) <= 1.0f && round_to_type(v, dtype) == v));
          }
        }
    } else {
      const int32_t hd = cols, rd = take_int(&b, 2, hd > 2 ? hd : 2);
      int32_t ids[17];
      for (int k = 0; k < 17; k++) ids[k] = take_int(&b, 0, 1 << 30);
      const int use_ids = (int)(take_u32(&b) & 1);
      const int32_t off = take_int(&b, 0, 1000);
      const double base = take_u32(&b) & 1 ? 10000.0 : 1.0 + fabs((double)take_finite(&b));
      rc = pn_rope_lowprec_f32(y, x, use_ids ? ids : NULL, 1, rows, 1, hd, rd, base, off, take_int(&b, 0, 1), take_int(&b, 0, 1), dtype, compute);
      double top = 0;
      for (size_t k = 0; k < n; k++) top = fmax(top, fabs(x[k]));
      if (rc == PN_OK && finite && top <= 1e4) /* |a·c ∓ b·s| <= 2e4 < float16's 65504 */
        for (int32_t r = 0; r < rows; r++) {
          const double p = use_ids ? (double)ids[r] : (double)off + r;
          const int inf_pos = dtype == PN_DTYPE_FLOAT16 && compute == PN_COMPUTE_LOW && p >= 65520.0;
          for (int32_t c = 0; c < cols; c++) {
            const float v = y[(size_t)r * cols + c];
            /* dims past rotary_dim are T(x): finite even where the angle is not */
            if (!inf_pos || c >= rd) TRAP(isfinite(v) && round_to_type(v, dtype) == v);
          }
        }
    }
    TRAP(pn_version() == POSNORM_VERSION_MAJOR * 10000 + POSNORM_VERSION_MINOR * 100 + POSNORM_VERSION_PATCH);
    TRAP(pn_simd_enabled() == 0 || pn_simd_enabled() == 1);
    break;
  }
  default:
    rc = PN_OK;
    break;
  }
  if (rc != PN_OK) TRAP(sentinel_intact(y, n * sizeof(float)) && sentinel_intact(st, 160 * sizeof(float)));
  free(x); free(y); free(g); free(be); free(st);
  return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  bytes b = {data, size};
  const int which = (int)(take_u32(&b) % 26);
  int rc;
  switch (which) {
  case 22: rc = fuzz_rope_scaling(&b); break;
  case 23: rc = fuzz_stack_shapes(&b, 0); break;
  case 24: rc = fuzz_stack_shapes(&b, 1); break;
  case 25: rc = fuzz_block_shapes(&b); break;
  default: rc = fuzz_data(&b, which); break;
  }
  TRAP(rc <= 0 && rc >= PN_ERR_NOMEM);
  /* every kernel frees what it allocates, whatever it returns */
  TRAP(pn_alloc_stats.allocs == pn_alloc_stats.frees);
  return 0;
}
