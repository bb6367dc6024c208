/* test_safety.c — the C side of the contract of #16, natively and on the
 * wasm32 SIMD128 build (32-bit size_t):
 *   - regressions, one per defect the review found: pn_log's hang on 0 and
 *     +Inf, the residual stack's gradient scratch size that wrapped in a
 *     32-bit size_t, RoPE scaling that wrote before failing or returned an
 *     infinite or negative attention factor as success, and RoPE with given
 *     frequencies that allocated before it validated;
 *   - sentinels: every exported kernel called with each invalid argument in
 *     turn (the others valid), every output pre-filled with a sentinel byte:
 *     the exact status, every output byte unchanged, no allocation asked for;
 *   - boundaries: shapes whose element or byte counts sit just below and just
 *     above 2^28 values, 2^31 bytes and 2^32 bytes; a kernel with scratch is
 *     called with the test allocator refusing everything, so it must either
 *     refuse the shape (PN_ERR_SIZE, when its scratch does not fit in size_t)
 *     or ask for exactly the bytes of its header's "Scratch:" formula
 *     (computed here in uint64) and return PN_ERR_NOMEM, touching nothing.
 * The expected values come from posnorm.h's preconditions and formulas,
 * evaluated here independently (uint64 counts, libm log). */
#include <assert.h> /* the tests' own preconditions (not counted as checks) */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "pn_internal.h" /* the size helpers, pn_alloc_stats */
#include "pn_math.h"     /* pn_log */
#include "posnorm_figures.h"

#define POS_LIMIT 2147483648.0 /* 2^31 */
#define MAX_EL ((uint64_t)PN_MAX_ELEMENTS)

/* The kernels' PN_ERR_NOMEM paths are reached with the test allocator's
 * limit; where a test lets the real allocator say no (wasm32, a request
 * between 2 and 4 GiB), ASan must return NULL as malloc does, not abort. */
const char *__asan_default_options(void);
const char *__asan_default_options(void) { return "allocator_may_return_null=1"; }

/* ---- sentinel outputs ------------------------------------------------- */

enum { SLOTS = 6, SLOT_BYTES = 1 << 15 };
#define SENTINEL 0xA5
static unsigned char *slot[SLOTS];
#define F(k) ((float *)(void *)slot[k])
#define D(k) ((double *)(void *)slot[k])
#define U(k) ((uint32_t *)(void *)slot[k])
#define I(k) ((int32_t *)(void *)slot[k])
#define B(k) ((uint8_t *)slot[k])

static void fill_slots(void) {
  for (int k = 0; k < SLOTS; k++) memset(slot[k], SENTINEL, SLOT_BYTES);
}
static int slots_intact(void) {
  for (int k = 0; k < SLOTS; k++)
    for (size_t j = 0; j < SLOT_BYTES; j++)
      if (slot[k][j] != SENTINEL) return 0;
  return 1;
}

static const char *kernel;    /* the kernel whose cases run */
static int kernels, refusals; /* sentinel coverage */
static int boundaries;        /* boundary cases */

static int same_counts(const pn_alloc_counter *a, const pn_alloc_counter *b) {
  return a->requests == b->requests && a->allocs == b->allocs && a->frees == b->frees;
}

static void refused_at(int line, const char *call, int want, int got,
                       const pn_alloc_counter *before) {
  refusals++;
  CHECK(got == want, "%s, line %d: %s returned %d, want %d", kernel, line, call, got, want);
  CHECK(slots_intact(), "%s, line %d: %s wrote an output before failing", kernel, line, call);
  CHECK(same_counts(&pn_alloc_stats, before), "%s, line %d: %s asked for memory (%zu requests, %zu allocs, %zu frees before; %zu, %zu, %zu after)",
        kernel, line, call, before->requests, before->allocs, before->frees,
        pn_alloc_stats.requests, pn_alloc_stats.allocs, pn_alloc_stats.frees);
}
/* `call` must fail with `want`, write nothing and allocate nothing */
#define REFUSED(want, call)                                                    \
  do {                                                                         \
    fill_slots();                                                              \
    const pn_alloc_counter before_ = pn_alloc_stats;                           \
    const int got_ = (call);                                                   \
    refused_at(__LINE__, #call, (want), got_, &before_);                       \
  } while (0)

static void accepted_at(int line, const char *call, int got,
                        const pn_alloc_counter *before) {
  CHECK(got == PN_OK, "%s, line %d: %s returned %d, want PN_OK", kernel, line, call, got);
  CHECK(!slots_intact(), "%s, line %d: %s wrote no output (the sentinel check would see nothing)", kernel, line, call);
  CHECK(pn_alloc_stats.allocs - before->allocs == pn_alloc_stats.frees - before->frees,
        "%s, line %d: %s left memory allocated", kernel, line, call);
}
/* `call` must succeed, write its outputs and free what it allocated */
#define ACCEPTED(call)                                                         \
  do {                                                                         \
    fill_slots();                                                              \
    const pn_alloc_counter before_ = pn_alloc_stats;                           \
    const int got_ = (call);                                                   \
    accepted_at(__LINE__, #call, got_, &before_);                              \
  } while (0)

/* A kernel with scratch, at a shape its preconditions allow, with the test
 * allocator refusing every request: PN_ERR_SIZE when the header's scratch
 * bytes exceed this target's size_t, else PN_ERR_NOMEM after asking for
 * exactly those bytes; nothing written either way. */
static void scratch_at(int line, const char *what, uint64_t scratch, int got,
                       const pn_alloc_counter *before) {
  boundaries++;
  const int want = scratch > (uint64_t)SIZE_MAX ? PN_ERR_SIZE : PN_ERR_NOMEM;
  CHECK(got == want, "%s, line %d: %s returned %d, want %d (scratch %llu bytes, size_t holds %llu)",
        kernel, line, what, got, want, (unsigned long long)scratch, (unsigned long long)SIZE_MAX);
  if (want == PN_ERR_NOMEM)
    CHECK(pn_alloc_stats.requests == before->requests + 1 &&
              (uint64_t)pn_alloc_stats.last_request == scratch &&
              pn_alloc_stats.allocs == before->allocs,
          "%s, line %d: %s asked for %llu bytes in %zu requests; the header's Scratch: says %llu",
          kernel, line, what, (unsigned long long)pn_alloc_stats.last_request,
          pn_alloc_stats.requests - before->requests, (unsigned long long)scratch);
  else
    CHECK(same_counts(&pn_alloc_stats, before), "%s, line %d: %s asked for memory it cannot address", kernel, line, what);
  CHECK(slots_intact(), "%s, line %d: %s wrote an output", kernel, line, what);
}
#define SCRATCH(what, scratch, call)                                           \
  do {                                                                         \
    fill_slots();                                                              \
    const pn_alloc_counter before_ = pn_alloc_stats;                           \
    pn_alloc_stats.limit = 0;                                                  \
    const int got_ = (call);                                                   \
    pn_alloc_stats.limit = SIZE_MAX;                                           \
    scratch_at(__LINE__, (what), (scratch), got_, &before_);                   \
  } while (0)
/* a boundary shape refused or accepted without computing (see below) */
#define BOUNDARY(want, call)                                                   \
  do {                                                                         \
    boundaries++;                                                              \
    REFUSED((want), (call));                                                   \
  } while (0)

/* ---- valid inputs ----------------------------------------------------- */

static float data[8192];      /* values in [-1, 1] */
static int32_t zeros[16384];  /* position ids 0 */
static double inv_ok[8192];   /* frequencies 1/(i+1) */
static double lo_zero[8192];  /* their double-double rests: 0 */

static const int32_t bad_sizes[] = {0, -1, INT32_MIN};
#define NBAD 3
/* [a × b] shapes whose count passes 2^28 values: by one row or column, at
 * 2^31 and 2^32 bytes of float32, and where a 32-bit product wraps (2^32 to
 * 0, 2^32 + 2^16 to 2^16) */
static const int32_t over2[][2] = {
    {16385, 16384}, {16384, 16385}, {1, 268435457}, {268435457, 1},
    {32768, 16384}, {32768, 32768}, {65536, 65536}, {65537, 65536},
    {INT32_MAX, INT32_MAX}, {INT32_MAX, 2}};
#define NOVER2 ((int)(sizeof over2 / sizeof over2[0]))
/* bases (PE, RoPE): must be finite and > 1 */
static const double bad_base[] = {NAN, INFINITY, -INFINITY, 1.0, 0.5, 0.0, -0.0, -2.0,
                                  DBL_TRUE_MIN, 1.0 - DBL_EPSILON / 2};
#define NBASE ((int)(sizeof bad_base / sizeof bad_base[0]))
/* eps: must be finite and >= 0 (-0 is 0, accepted) */
static const float bad_eps[] = {NAN, INFINITY, -INFINITY, -1.0f, -FLT_TRUE_MIN};
#define NEPS ((int)(sizeof bad_eps / sizeof bad_eps[0]))
/* scalars that must be finite */
static const double nonfinite[] = {NAN, INFINITY, -INFINITY};

/* ---- the size helpers ------------------------------------------------- */

static void test_size_helpers(void) {
#ifdef PN_SIZE_OVERFLOW
  const size_t top = SIZE_MAX;
  CHECK(pn_size_mul_add(3, 5, 7) == 22, "3·5 + 7");
  CHECK(pn_size_mul_add(top / 2, 2, 1) == top, "(SIZE_MAX/2)·2 + 1 = SIZE_MAX exactly");
  CHECK(pn_size_mul_add(top / 2 + 1, 2, 0) == PN_SIZE_OVERFLOW, "a product past SIZE_MAX saturates");
  CHECK(pn_size_mul_add(top, 1, 1) == PN_SIZE_OVERFLOW, "a sum past SIZE_MAX saturates");
  CHECK(pn_size_mul_add(PN_SIZE_OVERFLOW, 0, 0) == PN_SIZE_OVERFLOW, "saturation sticks, even times 0");
  CHECK(pn_size_mul_add(0, PN_SIZE_OVERFLOW, 5) == PN_SIZE_OVERFLOW, "saturation sticks on either side");
  CHECK(pn_size_mul_add(1, 1, PN_SIZE_OVERFLOW) == PN_SIZE_OVERFLOW, "and through a sum");
  /* 2^32 wraps to 0 in a 32-bit size_t, 2^32 + 2^16 to 2^16 */
  CHECK(pn_count2(16384, 16384) == (size_t)PN_MAX_ELEMENTS, "16384² = 2^28 is a tensor");
  CHECK(pn_count2(1, PN_MAX_ELEMENTS) == (size_t)PN_MAX_ELEMENTS, "1 × 2^28");
  CHECK(pn_count2(65536, 65536) == 0 && pn_count2(65537, 65536) == 0, "2^32, 2^32 + 2^16 are not");
  CHECK(pn_count2(16385, 16384) == 0 && pn_count2(INT32_MAX, INT32_MAX) == 0, "nor 2^28 + 2^14, (2^31-1)²");
  CHECK(pn_count2(0, 5) == 0 && pn_count2(5, -1) == 0 && pn_count2(INT32_MIN, INT32_MIN) == 0, "nor sizes < 1");
#else
  CHECK(0, "no checked size helper (pn_size_mul_add) in pn_internal.h");
#endif
}

/* ---- regressions (#16) ------------------------------------------------ */

/* pn_log as it was before #16: a loop that doubles or halves x into
 * [sqrt(1/2), sqrt(2)), exact for every positive finite x, which never
 * ended for 0 or +Inf. The contract asks the O(1) pn_log for the same bits
 * on every positive finite input, so this loop is the reference. */
static double pn_log_before(double x) {
  int e = 0;
  while (x < 0.70710678118654752) { x *= 2.0; e--; }
  while (x >= 1.4142135623730951) { x *= 0.5; e++; }
  const double z = (x - 1.0) / (x + 1.0), z2 = z * z;
  double term = z, acc = 0.0;
  for (int k = 1; k <= 23; k += 2) { acc += term / (double)k; term *= z2; }
  return (double)e * 0.693147180369123816490 + (2.0 * acc + (double)e * 1.90821492927058770002e-10);
}

static uint64_t mix_state = 0x9E3779B97F4A7C15ull;
static uint64_t mix64(void) { /* splitmix64 */
  uint64_t z = (mix_state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
static double from_bits(uint64_t b) { double d; memcpy(&d, &b, 8); return d; }
static uint64_t to_bits(double d) { uint64_t b; memcpy(&b, &d, 8); return b; }
static double ulps(double a, double b) { /* distance in units of b's last place */
  return fabs(a - b) / (nextafter(fabs(b), INFINITY) - fabs(b));
}

/* Defect 1: pn_log looped forever on 0 and +Inf, which RoPE scaling handed
 * it (yarn's orig/(beta·2π) is +Inf for betaFast = 1e-320; a dynamic base
 * grown past DBL_MAX). Natively a hang ends the run at main's alarm. */
static void regression_pn_log_total(void) {
  CHECK(pn_log(0.0) == -INFINITY && pn_log(-0.0) == -INFINITY, "ln ±0 = -Inf");
  CHECK(pn_log(INFINITY) == INFINITY, "ln +Inf = +Inf");
  CHECK(isnan(pn_log(NAN)) && isnan(pn_log(-1.0)) && isnan(pn_log(-INFINITY)) &&
            isnan(pn_log(-DBL_TRUE_MIN)) && isnan(pn_log(-DBL_MAX)),
        "ln NaN, ln x<0 = NaN");
  /* every subnormal binade, against libm (≤ 2 ulp) and the old loop (bits) */
  int sub_ok = 1;
  for (int k = 0; k < 52; k++) {
    const double x = ldexp(1.0 + (double)k / 64.0, -1074 + k);
    const double got = pn_log(x);
    if (!(ulps(got, log(x)) <= 2.0) || to_bits(got) != to_bits(pn_log_before(x))) {
      sub_ok = 0;
      printf("  subnormal %a: pn_log %.17g, libm %.17g, old loop %.17g\n", x, got, log(x), pn_log_before(x));
    }
  }
  CHECK(sub_ok, "pn_log on subnormals");
  CHECK(ulps(pn_log(DBL_TRUE_MIN), log(DBL_TRUE_MIN)) <= 2.0, "ln 2^-1074");
  /* the same bits as before for normal x: edges and 100000 random normals */
  const double edges[] = {DBL_MIN, DBL_MAX, 1.0, 2.0, 0.5, nextafter(1.0, 0.0), nextafter(1.0, 2.0),
                          1.4142135623730951, nextafter(1.4142135623730951, 0.0),
                          0.70710678118654757, nextafter(0.70710678118654757, 0.0), 1e-300, 1e300};
  int same = 1, close = 1;
  for (size_t k = 0; k < sizeof edges / sizeof edges[0]; k++)
    if (to_bits(pn_log(edges[k])) != to_bits(pn_log_before(edges[k]))) { same = 0; printf("  edge %a differs\n", edges[k]); }
  for (int k = 0; k < 100000; k++) {
    /* exponent field 1..2046, any mantissa: every normal binade */
    const uint64_t bits = ((uint64_t)(1 + mix64() % 2046) << 52) | (mix64() >> 12);
    const double x = from_bits(bits), got = pn_log(x);
    if (to_bits(got) != to_bits(pn_log_before(x))) same = 0;
    if (!(ulps(got, log(x)) <= 2.0) && fabs(got - log(x)) > 1e-300) close = 0;
  }
  CHECK(same, "pn_log gives the bits of the old loop on every normal input tried");
  CHECK(close, "pn_log within 2 ulp of libm log on 100000 random normals");
  /* pn_log_x2 (two logs at once, the random normals'): each lane the old
   * loop's bits, with a different value in each lane (pn_log passes the
   * same one twice), normal and subnormal, and q of the polar method */
  int lanes = 1;
  for (int k = 0; k < 100000; k++) {
    double x[2];
    for (int j = 0; j < 2; j++) {
      const uint64_t r = mix64();
      x[j] = r % 8 == 0 ? from_bits(1 + (mix64() >> 12))                           /* subnormal */
           : r % 8 == 1 ? (double)(mix64() >> 11) * 0x1p-53 + 0x1p-60               /* in (0, 1) */
                        : from_bits(((uint64_t)(1 + mix64() % 2046) << 52) | (mix64() >> 12));
    }
    const pn_f64x2 got = pn_log_x2(pn_f64x2_make(x[0], x[1]));
    if (to_bits(pn_f64x2_lo(got)) != to_bits(pn_log_before(x[0])) ||
        to_bits(pn_f64x2_hi(got)) != to_bits(pn_log_before(x[1]))) {
      if (lanes) printf("  pn_log_x2(%a, %a) differs\n", x[0], x[1]);
      lanes = 0;
    }
  }
  CHECK(lanes, "pn_log_x2 gives each lane the old loop's bits (100000 pairs)");

  /* through the API: yarn with betaFast = 1e-320 (orig/(beta·2π) = +Inf), a
   * dynamic base grown past DBL_MAX: refused, nothing written */
  kernel = "regression: pn_log through pn_rope_frequencies_f64";
  double p[PN_SCALING_PARAMS];
  for (int k = 0; k < PN_SCALING_PARAMS; k++) p[k] = NAN;
  p[PN_SCALING_FACTOR] = 2;
  p[PN_SCALING_ORIGINAL_MAX] = 4096;
  p[PN_SCALING_BETA_FAST] = 1e-320;
  p[PN_SCALING_BETA_SLOW] = 1;
  REFUSED(PN_ERR_ARG, pn_rope_frequencies_f64(D(0), D(1), 8, 10000.0, PN_SCALING_YARN, p, NULL, NULL, 0.0));
  p[PN_SCALING_BETA_FAST] = 32;
  p[PN_SCALING_BETA_SLOW] = 1e-320;
  REFUSED(PN_ERR_ARG, pn_rope_frequencies_f64(D(0), D(1), 8, 10000.0, PN_SCALING_YARN, p, NULL, NULL, 0.0));
  p[PN_SCALING_FACTOR] = 1e308; /* factor·s/orig overflows: the grown base is +Inf */
  REFUSED(PN_ERR_ARG, pn_rope_frequencies_f64(D(0), D(1), 8, 10000.0, PN_SCALING_DYNAMIC, p, NULL, NULL, 1e6));
}

/* Defect 2: the gradient stack's scratch, 8·rows·width·(3·layers + 5) +
 * 8·rows·(layers + 1) bytes, was computed in size_t: 4096 × 4096 with 9
 * layers is 2^32 + 327680 bytes, 327680 in a 32-bit size_t, and the kernel
 * then wrote 600 MB into it (wasm: RuntimeError: memory access out of
 * bounds). With the allocator capped at 64 MiB, as a small machine would be,
 * the shapes had to be refused (32-bit) or fail to allocate (64-bit); since
 * PN_MAX_WORK (2^32 multiply-adds, these are 2^35 and more) every target
 * refuses them before any allocation. The inputs are a few floats, which a
 * correct kernel never reaches. */
static void regression_stack_grad_scratch(void) {
  kernel = "regression: pn_residual_stack_grad_f32 scratch size";
  static const int32_t shapes[][3] = {/* rows, width, layers */
                                      {4096, 4096, 9}, {2713, 64, 1024}, {4096, 4096, 15}};
  for (int s = 0; s < 3; s++) {
    const uint64_t rows = (uint64_t)shapes[s][0], width = (uint64_t)shapes[s][1], layers = (uint64_t)shapes[s][2];
    const uint64_t scratch = 8 * rows * width * (3 * layers + 5) + 8 * rows * (layers + 1);
    assert(scratch > 4294967296ull); /* the test's own shapes: each scratch passes 2^32 bytes */
    fill_slots();
    const pn_alloc_counter before = pn_alloc_stats;
    pn_alloc_stats.limit = (size_t)64 << 20;
    const int rc = pn_residual_stack_grad_f32(F(0), D(1), F(2), F(3), data, data, NULL, data, shapes[s][2],
                                              shapes[s][0], shapes[s][1], PN_BLOCK_POST_LN, PN_GELU_TANH, 1.0f);
    pn_alloc_stats.limit = SIZE_MAX;
    assert(3 * layers * width * width * rows > (1ull << 32)); /* and is past PN_MAX_WORK */
    CHECK(rc == PN_ERR_SIZE, "%d × %d, %d layers: status %d, want %d", shapes[s][0], shapes[s][1], shapes[s][2], rc, PN_ERR_SIZE);
    CHECK(slots_intact(), "%d × %d, %d layers: nothing written", shapes[s][0], shapes[s][1], shapes[s][2]);
    CHECK(pn_alloc_stats.allocs == before.allocs && pn_alloc_stats.frees == before.frees, "nothing allocated");
  }
}

static void scaling_params(double p[PN_SCALING_PARAMS], int32_t type) {
  for (int k = 0; k < PN_SCALING_PARAMS; k++) p[k] = NAN;
  p[PN_SCALING_FACTOR] = type == PN_SCALING_LONGROPE ? 8.0 : 4.0;
  p[PN_SCALING_ORIGINAL_MAX] = 4096;
  if (type == PN_SCALING_YARN) {
    p[PN_SCALING_BETA_FAST] = 32;
    p[PN_SCALING_BETA_SLOW] = 1;
    p[PN_SCALING_MSCALE] = 0.707;
    p[PN_SCALING_MSCALE_ALL_DIM] = 1;
    p[PN_SCALING_TRUNCATE] = 1;
  }
  if (type == PN_SCALING_LLAMA3) {
    p[PN_SCALING_LOW_FREQ_FACTOR] = 1;
    p[PN_SCALING_HIGH_FREQ_FACTOR] = 4;
  }
}
static double pv[PN_SCALING_PARAMS];
/* the valid params of `type` with params[idx] = value */
static const double *params_with(int32_t type, int idx, double value) {
  scaling_params(pv, type);
  pv[idx] = value;
  return pv;
}
static const double short_ok[4] = {1.0, 1.5, 2.0, 2.5}, long_ok[4] = {2.0, 4.0, 8.0, 16.0};
static double list_bad[4];
/* a copy of `list` with list[idx] = value */
static const double *list_with(const double *list, int idx, double value) {
  memcpy(list_bad, list, sizeof list_bad);
  list_bad[idx] = value;
  return list_bad;
}

/* The mscale_all_dim k for which YaRN's m(factor, k) = 0.1·k·ln(factor) + 1
 * is exactly 0 in float64 (the attention factor then divides by zero), or
 * NaN if no float64 near -10/ln(factor) gives exactly 0. */
static double mscale_for_zero(double factor) {
  const double l = log(factor);
  double k = -10.0 / l;
  for (int t = 0; t < 64; t++, k = nextafter(k, -INFINITY)) if (0.1 * k * l + 1.0 == 0.0) return k;
  k = -10.0 / l;
  for (int t = 0; t < 64; t++, k = nextafter(k, INFINITY)) if (0.1 * k * l + 1.0 == 0.0) return k;
  return NAN;
}

/* Defect 3: pn_rope_frequencies_f64 wrote inv_freq, then failed; gave an
 * infinite (longrope, originalMaxPositions 1: ln 1 = 0 divides) or negative
 * (yarn mscale) attention factor with PN_OK. */
static void regression_rope_frequencies(void) {
  kernel = "regression: pn_rope_frequencies_f64 writes last";
  const int32_t dim = 8;
  /* failures found after the frequencies were written */
  REFUSED(PN_ERR_ARG, pn_rope_frequencies_f64(D(0), D(1), dim, 1e4, PN_SCALING_LONGROPE, params_with(PN_SCALING_LONGROPE, 0, 8.0), list_with(short_ok, 3, 0.0), long_ok, 100.0));
  REFUSED(PN_ERR_ARG, pn_rope_frequencies_f64(D(0), D(1), dim, 1e4, PN_SCALING_YARN, params_with(PN_SCALING_YARN, PN_SCALING_BETA_FAST, -1.0), NULL, NULL, 100.0));
  REFUSED(PN_ERR_ARG, pn_rope_frequencies_f64(D(0), D(1), dim, 1e4, PN_SCALING_LLAMA3, params_with(PN_SCALING_LLAMA3, PN_SCALING_HIGH_FREQ_FACTOR, 0.5), NULL, NULL, 100.0));
  REFUSED(PN_ERR_ARG, pn_rope_frequencies_f64(D(0), D(1), dim, 1e4, PN_SCALING_LINEAR, params_with(PN_SCALING_LINEAR, PN_SCALING_ATTENTION_FACTOR, -1.0), NULL, NULL, 100.0));
  /* Infinity as success: longrope, factor 2, originalMaxPositions 1 */
  double p[PN_SCALING_PARAMS];
  scaling_params(p, PN_SCALING_LONGROPE);
  p[PN_SCALING_FACTOR] = 2;
  p[PN_SCALING_ORIGINAL_MAX] = 1;
  REFUSED(PN_ERR_ARG, pn_rope_frequencies_f64(D(0), D(1), dim, 1e4, PN_SCALING_LONGROPE, p, short_ok, long_ok, 100.0));
  /* yarn: m(factor, mscale)/m(factor, mscale_all_dim) negative, or over 0 */
  scaling_params(p, PN_SCALING_YARN);
  p[PN_SCALING_MSCALE] = -100; /* m(4, -100) = -10·ln 4 + 1 < 0 */
  REFUSED(PN_ERR_ARG, pn_rope_frequencies_f64(D(0), D(1), dim, 1e4, PN_SCALING_YARN, p, NULL, NULL, 100.0));
  p[PN_SCALING_MSCALE] = 1;
  p[PN_SCALING_MSCALE_ALL_DIM] = mscale_for_zero(4.0);
  CHECK(!isnan(p[PN_SCALING_MSCALE_ALL_DIM]), "an mscale_all_dim with m(4, k) = 0 exists");
  REFUSED(PN_ERR_ARG, pn_rope_frequencies_f64(D(0), D(1), dim, 1e4, PN_SCALING_YARN, p, NULL, NULL, 100.0));
}

/* Defect 4: pn_rope_scaled_f32 allocated its cos/sin scratch before it
 * checked heads, head_dim and layout, and checked position ids in the loop
 * after the allocation. */
static void regression_validate_before_alloc(void) {
  kernel = "regression: pn_rope_scaled_f32 validates before it allocates";
  int32_t ids[6] = {0, 1, 2, 3, 4, -1};
  REFUSED(PN_ERR_SIZE, pn_rope_scaled_f32(F(0), data, NULL, inv_ok, 1.0, 2, 3, 0, 8, 6, 0, 0, PN_ROPE_BSHD));
  REFUSED(PN_ERR_ARG, pn_rope_scaled_f32(F(0), data, NULL, inv_ok, 1.0, 2, 3, 2, 8, 6, 0, 0, 7));
  REFUSED(PN_ERR_ARG, pn_rope_scaled_f32(F(0), data, ids, inv_ok, 1.0, 2, 3, 2, 8, 6, 0, 0, PN_ROPE_BSHD));
  REFUSED(PN_ERR_NULL, pn_rope_scaled_f32(F(0), NULL, NULL, inv_ok, 1.0, 2, 3, 2, 8, 6, 0, 0, PN_ROPE_BSHD));
}

/* ---- sentinels: every kernel, each invalid argument in turn ------------ */

typedef int (*pe_fn)(float *, int32_t, int32_t, double, int32_t, int32_t);

static void sentinel_pe(void) {
  const pe_fn fns[2] = {pn_pe_sinusoidal_f32, pn_pe_float32_code_f32};
  const char *names[2] = {"pn_pe_sinusoidal_f32", "pn_pe_float32_code_f32"};
  for (int f = 0; f < 2; f++) {
    const pe_fn pe = fns[f];
    kernel = names[f];
    kernels++;
    ACCEPTED(pe(F(0), 4, 6, 1e4, 0, PN_PE_INTERLEAVED));
    ACCEPTED(pe(F(0), 4, 6, 1e4, INT32_MAX - 3, PN_PE_CONCAT)); /* offset + seq_len = 2^31 */
    REFUSED(PN_ERR_NULL, pe(NULL, 4, 6, 1e4, 0, 0));
    for (int k = 0; k < NBAD; k++) {
      REFUSED(PN_ERR_SIZE, pe(F(0), bad_sizes[k], 6, 1e4, 0, 0));
      REFUSED(PN_ERR_SIZE, pe(F(0), 4, bad_sizes[k], 1e4, 0, 0));
    }
    for (int k = 0; k < NOVER2; k++) REFUSED(PN_ERR_SIZE, pe(F(0), over2[k][0], over2[k][1], 1e4, 0, 0));
    for (int k = 0; k < NBASE; k++) REFUSED(PN_ERR_ARG, pe(F(0), 4, 6, bad_base[k], 0, 0));
    REFUSED(PN_ERR_ARG, pe(F(0), 4, 6, 1e4, -1, 0));
    REFUSED(PN_ERR_ARG, pe(F(0), 4, 6, 1e4, INT32_MIN, 0));
    REFUSED(PN_ERR_ARG, pe(F(0), 4, 6, 1e4, INT32_MAX - 2, 0)); /* offset + seq_len = 2^31 + 1 */
    REFUSED(PN_ERR_ARG, pe(F(0), 4, 6, 1e4, INT32_MAX, 0));
    REFUSED(PN_ERR_ARG, pe(F(0), 4, 6, 1e4, 0, -1));
    REFUSED(PN_ERR_ARG, pe(F(0), 4, 6, 1e4, 0, 2));
    REFUSED(PN_ERR_ARG, pe(F(0), 4, 6, 1e4, 0, INT32_MIN));
  }
  kernel = "pn_pe_sample_f32";
  kernels++;
  ACCEPTED(pn_pe_sample_f32(F(0), 8, 0.5, 0.25, 3, 8, 100.0));
  ACCEPTED(pn_pe_sample_f32(F(0), 3, -POS_LIMIT, POS_LIMIT, 0, 1, 100.0)); /* ends at ±2^31 */
  REFUSED(PN_ERR_NULL, pn_pe_sample_f32(NULL, 8, 0.5, 0.25, 3, 8, 100.0));
  for (int k = 0; k < NBAD; k++) {
    REFUSED(PN_ERR_SIZE, pn_pe_sample_f32(F(0), bad_sizes[k], 0.5, 0.25, 3, 8, 100.0));
    REFUSED(PN_ERR_SIZE, pn_pe_sample_f32(F(0), 8, 0.5, 0.25, 0, bad_sizes[k], 100.0));
  }
  REFUSED(PN_ERR_SIZE, pn_pe_sample_f32(F(0), PN_MAX_ELEMENTS + 1, 0.5, 0.25, 3, 8, 100.0));
  REFUSED(PN_ERR_SIZE, pn_pe_sample_f32(F(0), INT32_MAX, 0.5, 0.25, 3, 8, 100.0));
  REFUSED(PN_ERR_ARG, pn_pe_sample_f32(F(0), 8, 0.5, 0.25, -1, 8, 100.0));
  REFUSED(PN_ERR_ARG, pn_pe_sample_f32(F(0), 8, 0.5, 0.25, 8, 8, 100.0));
  REFUSED(PN_ERR_ARG, pn_pe_sample_f32(F(0), 8, 0.5, 0.25, INT32_MIN, 8, 100.0));
  REFUSED(PN_ERR_ARG, pn_pe_sample_f32(F(0), 8, 0.5, 0.25, INT32_MAX, 8, 100.0));
  for (int k = 0; k < NBASE; k++) REFUSED(PN_ERR_ARG, pn_pe_sample_f32(F(0), 8, 0.5, 0.25, 3, 8, bad_base[k]));
  for (int k = 0; k < 3; k++) {
    REFUSED(PN_ERR_ARG, pn_pe_sample_f32(F(0), 8, nonfinite[k], 0.25, 3, 8, 100.0));
    REFUSED(PN_ERR_ARG, pn_pe_sample_f32(F(0), 8, 0.5, nonfinite[k], 3, 8, 100.0));
  }
  REFUSED(PN_ERR_ARG, pn_pe_sample_f32(F(0), 1, nextafter(POS_LIMIT, INFINITY), 0.0, 3, 8, 100.0));
  REFUSED(PN_ERR_ARG, pn_pe_sample_f32(F(0), 1, -nextafter(POS_LIMIT, INFINITY), 0.0, 3, 8, 100.0));
  REFUSED(PN_ERR_ARG, pn_pe_sample_f32(F(0), 8, 0.0, POS_LIMIT / 6.0, 3, 8, 100.0)); /* ends at 7/6·2^31 */
  REFUSED(PN_ERR_ARG, pn_pe_sample_f32(F(0), 2, 0.0, DBL_MAX, 3, 8, 100.0));

  kernel = "pn_pe_shift_f32";
  kernels++;
  ACCEPTED(pn_pe_shift_f32(F(0), data, 8, 1e4, 3));
  ACCEPTED(pn_pe_shift_f32(F(0), data, 8, 1e4, -INT32_MAX));
  REFUSED(PN_ERR_NULL, pn_pe_shift_f32(NULL, data, 8, 1e4, 3));
  REFUSED(PN_ERR_NULL, pn_pe_shift_f32(F(0), NULL, 8, 1e4, 3));
  for (int k = 0; k < NBAD; k++) REFUSED(PN_ERR_SIZE, pn_pe_shift_f32(F(0), data, bad_sizes[k], 1e4, 3));
  REFUSED(PN_ERR_SIZE, pn_pe_shift_f32(F(0), data, 1, 1e4, 3));
  REFUSED(PN_ERR_SIZE, pn_pe_shift_f32(F(0), data, PN_MAX_ELEMENTS + 2, 1e4, 3));
  REFUSED(PN_ERR_ARG, pn_pe_shift_f32(F(0), data, 7, 1e4, 3));
  for (int k = 0; k < NBASE; k++) REFUSED(PN_ERR_ARG, pn_pe_shift_f32(F(0), data, 8, bad_base[k], 3));
  REFUSED(PN_ERR_ARG, pn_pe_shift_f32(F(0), data, 8, 1e4, INT32_MIN)); /* |k| = 2^31 */
}

static void sentinel_norms(void) {
  kernel = "pn_layernorm_f32";
  kernels++;
  ACCEPTED(pn_layernorm_f32(F(0), F(1), F(2), data, data + 16, data + 32, 3, 5, 1e-5f));
  ACCEPTED(pn_layernorm_f32(F(0), NULL, NULL, data, NULL, NULL, 3, 5, -0.0f));
  REFUSED(PN_ERR_NULL, pn_layernorm_f32(NULL, F(1), F(2), data, NULL, NULL, 3, 5, 1e-5f));
  REFUSED(PN_ERR_NULL, pn_layernorm_f32(F(0), F(1), F(2), NULL, NULL, NULL, 3, 5, 1e-5f));
  for (int k = 0; k < NBAD; k++) {
    REFUSED(PN_ERR_SIZE, pn_layernorm_f32(F(0), F(1), F(2), data, NULL, NULL, bad_sizes[k], 5, 1e-5f));
    REFUSED(PN_ERR_SIZE, pn_layernorm_f32(F(0), F(1), F(2), data, NULL, NULL, 3, bad_sizes[k], 1e-5f));
  }
  for (int k = 0; k < NOVER2; k++)
    REFUSED(PN_ERR_SIZE, pn_layernorm_f32(F(0), F(1), F(2), data, NULL, NULL, over2[k][0], over2[k][1], 1e-5f));
  for (int k = 0; k < NEPS; k++) REFUSED(PN_ERR_ARG, pn_layernorm_f32(F(0), F(1), F(2), data, NULL, NULL, 3, 5, bad_eps[k]));

  kernel = "pn_rmsnorm_f32";
  kernels++;
  ACCEPTED(pn_rmsnorm_f32(F(0), F(1), data, data + 16, 3, 5, 1e-5f));
  REFUSED(PN_ERR_NULL, pn_rmsnorm_f32(NULL, F(1), data, NULL, 3, 5, 1e-5f));
  REFUSED(PN_ERR_NULL, pn_rmsnorm_f32(F(0), F(1), NULL, NULL, 3, 5, 1e-5f));
  for (int k = 0; k < NBAD; k++) {
    REFUSED(PN_ERR_SIZE, pn_rmsnorm_f32(F(0), F(1), data, NULL, bad_sizes[k], 5, 1e-5f));
    REFUSED(PN_ERR_SIZE, pn_rmsnorm_f32(F(0), F(1), data, NULL, 3, bad_sizes[k], 1e-5f));
  }
  for (int k = 0; k < NOVER2; k++) REFUSED(PN_ERR_SIZE, pn_rmsnorm_f32(F(0), F(1), data, NULL, over2[k][0], over2[k][1], 1e-5f));
  for (int k = 0; k < NEPS; k++) REFUSED(PN_ERR_ARG, pn_rmsnorm_f32(F(0), F(1), data, NULL, 3, 5, bad_eps[k]));

  kernel = "pn_batchnorm_train_f32";
  kernels++;
  /* outputs y, batch mean, batch var; running mean and var (slots 3, 4) are
   * read and updated, so a failed call must leave them as they were too */
  ACCEPTED(pn_batchnorm_train_f32(F(0), F(1), F(2), F(3), F(4), data, data + 16, data + 32, 4, 3, 1e-5f, 0.9f));
  REFUSED(PN_ERR_NULL, pn_batchnorm_train_f32(NULL, F(1), F(2), F(3), F(4), data, NULL, NULL, 4, 3, 1e-5f, 0.9f));
  REFUSED(PN_ERR_NULL, pn_batchnorm_train_f32(F(0), F(1), F(2), F(3), F(4), NULL, NULL, NULL, 4, 3, 1e-5f, 0.9f));
  REFUSED(PN_ERR_NULL, pn_batchnorm_train_f32(F(0), F(1), F(2), F(3), NULL, data, NULL, NULL, 4, 3, 1e-5f, 0.9f));
  REFUSED(PN_ERR_NULL, pn_batchnorm_train_f32(F(0), F(1), F(2), NULL, F(4), data, NULL, NULL, 4, 3, 1e-5f, 0.9f));
  for (int k = 0; k < NBAD; k++) {
    REFUSED(PN_ERR_SIZE, pn_batchnorm_train_f32(F(0), F(1), F(2), F(3), F(4), data, NULL, NULL, bad_sizes[k], 3, 1e-5f, 0.9f));
    REFUSED(PN_ERR_SIZE, pn_batchnorm_train_f32(F(0), F(1), F(2), F(3), F(4), data, NULL, NULL, 4, bad_sizes[k], 1e-5f, 0.9f));
  }
  for (int k = 0; k < NOVER2; k++)
    REFUSED(PN_ERR_SIZE, pn_batchnorm_train_f32(F(0), F(1), F(2), F(3), F(4), data, NULL, NULL, over2[k][0], over2[k][1], 1e-5f, 0.9f));
  for (int k = 0; k < NEPS; k++)
    REFUSED(PN_ERR_ARG, pn_batchnorm_train_f32(F(0), F(1), F(2), F(3), F(4), data, NULL, NULL, 4, 3, bad_eps[k], 0.9f));
  const float bad_momentum[] = {NAN, INFINITY, -INFINITY, -0.1f, 1.1f, -FLT_TRUE_MIN, nextafterf(1.0f, 2.0f)};
  for (size_t k = 0; k < sizeof bad_momentum / sizeof bad_momentum[0]; k++)
    REFUSED(PN_ERR_ARG, pn_batchnorm_train_f32(F(0), F(1), F(2), F(3), F(4), data, NULL, NULL, 4, 3, 1e-5f, bad_momentum[k]));

  kernel = "pn_batchnorm_infer_f32";
  kernels++;
  const float var_ok[3] = {1.0f, 2.0f, 0.5f};
  ACCEPTED(pn_batchnorm_infer_f32(F(0), data, data + 16, data + 32, data + 48, var_ok, 4, 3, 1e-5f));
  REFUSED(PN_ERR_NULL, pn_batchnorm_infer_f32(NULL, data, NULL, NULL, data + 48, var_ok, 4, 3, 1e-5f));
  REFUSED(PN_ERR_NULL, pn_batchnorm_infer_f32(F(0), NULL, NULL, NULL, data + 48, var_ok, 4, 3, 1e-5f));
  REFUSED(PN_ERR_NULL, pn_batchnorm_infer_f32(F(0), data, NULL, NULL, NULL, var_ok, 4, 3, 1e-5f));
  REFUSED(PN_ERR_NULL, pn_batchnorm_infer_f32(F(0), data, NULL, NULL, data + 48, NULL, 4, 3, 1e-5f));
  for (int k = 0; k < NBAD; k++) {
    REFUSED(PN_ERR_SIZE, pn_batchnorm_infer_f32(F(0), data, NULL, NULL, data + 48, var_ok, bad_sizes[k], 3, 1e-5f));
    REFUSED(PN_ERR_SIZE, pn_batchnorm_infer_f32(F(0), data, NULL, NULL, data + 48, var_ok, 4, bad_sizes[k], 1e-5f));
  }
  for (int k = 0; k < NOVER2; k++)
    REFUSED(PN_ERR_SIZE, pn_batchnorm_infer_f32(F(0), data, NULL, NULL, data + 48, var_ok, over2[k][0], over2[k][1], 1e-5f));
  for (int k = 0; k < NEPS; k++) REFUSED(PN_ERR_ARG, pn_batchnorm_infer_f32(F(0), data, NULL, NULL, data + 48, var_ok, 4, 3, bad_eps[k]));

  kernel = "pn_layernorm_steps_f32";
  kernels++;
  ACCEPTED(pn_layernorm_steps_f32(F(0), F(1), F(2), F(3), data, data + 16, data + 32, 5, 1e-5f));
  ACCEPTED(pn_layernorm_steps_f32(NULL, NULL, NULL, F(3), data, NULL, NULL, 5, 0.0f));
  REFUSED(PN_ERR_NULL, pn_layernorm_steps_f32(F(0), F(1), F(2), F(3), NULL, NULL, NULL, 5, 1e-5f));
  for (int k = 0; k < NBAD; k++) REFUSED(PN_ERR_SIZE, pn_layernorm_steps_f32(F(0), F(1), F(2), F(3), data, NULL, NULL, bad_sizes[k], 1e-5f));
  REFUSED(PN_ERR_SIZE, pn_layernorm_steps_f32(F(0), F(1), F(2), F(3), data, NULL, NULL, PN_MAX_ELEMENTS + 1, 1e-5f));
  REFUSED(PN_ERR_SIZE, pn_layernorm_steps_f32(F(0), F(1), F(2), F(3), data, NULL, NULL, INT32_MAX, 1e-5f));
  for (int k = 0; k < NEPS; k++) REFUSED(PN_ERR_ARG, pn_layernorm_steps_f32(F(0), F(1), F(2), F(3), data, NULL, NULL, 5, bad_eps[k]));
}

/* RoPE shapes (batch, seq_len, heads, head_dim) past 2^28 values, with
 * rotary_dim 6: by one, at 2^32 (0 in 32 bits) and 2^64 (0 in 64 bits) */
static const int32_t over4[][4] = {
    {1, 16385, 1, 16384}, {1, 1, 16385, 16384}, {16385, 1, 1, 16384}, {1, 1, 1, PN_MAX_ELEMENTS + 1},
    {65536, 65536, 1, 8}, {65536, 1, 65536, 8}, {65536, 65536, 65536, 65536}, {INT32_MAX, INT32_MAX, INT32_MAX, INT32_MAX}};
#define NOVER4 ((int)(sizeof over4 / sizeof over4[0]))

static void sentinel_rope(void) {
  /* [batch 2 × seq_len 3 × heads 2 × head_dim 8], rotary_dim 6 */
  const int32_t ids[6] = {1, 4, 7, 10, 13, 2147483647};
  const int32_t neg_last[6] = {0, 1, 2, 3, 4, -1}, min_first[6] = {INT32_MIN, 1, 2, 3, 4, 5};
  kernel = "pn_rope_f32";
  kernels++;
  ACCEPTED(pn_rope_f32(F(0), data, NULL, 2, 3, 2, 8, 6, 1e4, 5, 0, PN_ROPE_BSHD));
  ACCEPTED(pn_rope_f32(F(0), data, ids, 2, 3, 2, 8, 6, 1e4, 0, 1, PN_ROPE_BHSD));
  ACCEPTED(pn_rope_f32(F(0), data, NULL, 2, 3, 2, 8, 6, 1e4, INT32_MAX - 2, 0, PN_ROPE_BSHD)); /* ends at 2^31 */
  REFUSED(PN_ERR_NULL, pn_rope_f32(NULL, data, NULL, 2, 3, 2, 8, 6, 1e4, 5, 0, PN_ROPE_BSHD));
  REFUSED(PN_ERR_NULL, pn_rope_f32(F(0), NULL, NULL, 2, 3, 2, 8, 6, 1e4, 5, 0, PN_ROPE_BSHD));
  for (int k = 0; k < NBAD; k++) {
    REFUSED(PN_ERR_SIZE, pn_rope_f32(F(0), data, NULL, bad_sizes[k], 3, 2, 8, 6, 1e4, 5, 0, PN_ROPE_BSHD));
    REFUSED(PN_ERR_SIZE, pn_rope_f32(F(0), data, NULL, 2, bad_sizes[k], 2, 8, 6, 1e4, 5, 0, PN_ROPE_BSHD));
    REFUSED(PN_ERR_SIZE, pn_rope_f32(F(0), data, NULL, 2, 3, bad_sizes[k], 8, 6, 1e4, 5, 0, PN_ROPE_BSHD));
    REFUSED(PN_ERR_SIZE, pn_rope_f32(F(0), data, NULL, 2, 3, 2, bad_sizes[k], 6, 1e4, 5, 0, PN_ROPE_BSHD));
  }
  for (int k = 0; k < NOVER4; k++)
    REFUSED(PN_ERR_SIZE, pn_rope_f32(F(0), data, NULL, over4[k][0], over4[k][1], over4[k][2], over4[k][3], 6, 1e4, 0, 0, PN_ROPE_BSHD));
  const int32_t bad_rotary[] = {0, -2, 5, 10, INT32_MIN, INT32_MAX};
  for (int k = 0; k < 6; k++) REFUSED(PN_ERR_ARG, pn_rope_f32(F(0), data, NULL, 2, 3, 2, 8, bad_rotary[k], 1e4, 5, 0, PN_ROPE_BSHD));
  for (int k = 0; k < NBASE; k++) REFUSED(PN_ERR_ARG, pn_rope_f32(F(0), data, NULL, 2, 3, 2, 8, 6, bad_base[k], 5, 0, PN_ROPE_BSHD));
  REFUSED(PN_ERR_ARG, pn_rope_f32(F(0), data, NULL, 2, 3, 2, 8, 6, 1e4, -1, 0, PN_ROPE_BSHD));
  REFUSED(PN_ERR_ARG, pn_rope_f32(F(0), data, NULL, 2, 3, 2, 8, 6, 1e4, INT32_MIN, 0, PN_ROPE_BSHD));
  REFUSED(PN_ERR_ARG, pn_rope_f32(F(0), data, NULL, 2, 3, 2, 8, 6, 1e4, INT32_MAX - 1, 0, PN_ROPE_BSHD));
  REFUSED(PN_ERR_ARG, pn_rope_f32(F(0), data, neg_last, 2, 3, 2, 8, 6, 1e4, 0, 0, PN_ROPE_BSHD));
  REFUSED(PN_ERR_ARG, pn_rope_f32(F(0), data, min_first, 2, 3, 2, 8, 6, 1e4, 0, 0, PN_ROPE_BSHD));
  REFUSED(PN_ERR_ARG, pn_rope_f32(F(0), data, NULL, 2, 3, 2, 8, 6, 1e4, 5, 2, PN_ROPE_BSHD));
  REFUSED(PN_ERR_ARG, pn_rope_f32(F(0), data, NULL, 2, 3, 2, 8, 6, 1e4, 5, -1, PN_ROPE_BSHD));
  REFUSED(PN_ERR_ARG, pn_rope_f32(F(0), data, NULL, 2, 3, 2, 8, 6, 1e4, 5, 0, 2));
  REFUSED(PN_ERR_ARG, pn_rope_f32(F(0), data, NULL, 2, 3, 2, 8, 6, 1e4, 5, 0, -1));

  /* caches [6 × 3]; ids in [0, 6) */
  const float *cs = data + 200, *sn = data + 300;
  const int32_t cids[6] = {0, 5, 2, 3, 1, 4}, past[6] = {0, 1, 2, 3, 4, 6};
  const int32_t far[6] = {0, 1, 2, 3, 4, INT32_MAX}, below[6] = {-1, 1, 2, 3, 4, 5};
  kernel = "pn_rope_cache_f32";
  kernels++;
  ACCEPTED(pn_rope_cache_f32(F(0), data, cs, sn, NULL, 6, 2, 3, 2, 8, 6, 0, PN_ROPE_BSHD));
  ACCEPTED(pn_rope_cache_f32(F(0), data, cs, sn, cids, 6, 2, 3, 2, 8, 6, 1, PN_ROPE_BHSD));
  REFUSED(PN_ERR_NULL, pn_rope_cache_f32(NULL, data, cs, sn, NULL, 6, 2, 3, 2, 8, 6, 0, PN_ROPE_BSHD));
  REFUSED(PN_ERR_NULL, pn_rope_cache_f32(F(0), NULL, cs, sn, NULL, 6, 2, 3, 2, 8, 6, 0, PN_ROPE_BSHD));
  REFUSED(PN_ERR_NULL, pn_rope_cache_f32(F(0), data, NULL, sn, NULL, 6, 2, 3, 2, 8, 6, 0, PN_ROPE_BSHD));
  REFUSED(PN_ERR_NULL, pn_rope_cache_f32(F(0), data, cs, NULL, NULL, 6, 2, 3, 2, 8, 6, 0, PN_ROPE_BSHD));
  for (int k = 0; k < NBAD; k++) {
    REFUSED(PN_ERR_SIZE, pn_rope_cache_f32(F(0), data, cs, sn, cids, 6, bad_sizes[k], 3, 2, 8, 6, 0, PN_ROPE_BSHD));
    REFUSED(PN_ERR_SIZE, pn_rope_cache_f32(F(0), data, cs, sn, cids, 6, 2, bad_sizes[k], 2, 8, 6, 0, PN_ROPE_BSHD));
    REFUSED(PN_ERR_SIZE, pn_rope_cache_f32(F(0), data, cs, sn, cids, 6, 2, 3, bad_sizes[k], 8, 6, 0, PN_ROPE_BSHD));
    REFUSED(PN_ERR_SIZE, pn_rope_cache_f32(F(0), data, cs, sn, cids, 6, 2, 3, 2, bad_sizes[k], 6, 0, PN_ROPE_BSHD));
    REFUSED(PN_ERR_SIZE, pn_rope_cache_f32(F(0), data, cs, sn, cids, bad_sizes[k], 2, 3, 2, 8, 6, 0, PN_ROPE_BSHD));
  }
  for (int k = 0; k < NOVER4; k++)
    REFUSED(PN_ERR_SIZE, pn_rope_cache_f32(F(0), data, cs, sn, cids, 6, over4[k][0], over4[k][1], over4[k][2], over4[k][3], 6, 0, PN_ROPE_BSHD));
  REFUSED(PN_ERR_SIZE, pn_rope_cache_f32(F(0), data, cs, sn, cids, PN_MAX_ELEMENTS / 3 + 1, 2, 3, 2, 8, 6, 0, PN_ROPE_BSHD));
  REFUSED(PN_ERR_SIZE, pn_rope_cache_f32(F(0), data, cs, sn, cids, INT32_MAX, 2, 3, 2, 8, 6, 0, PN_ROPE_BSHD));
  REFUSED(PN_ERR_SIZE, pn_rope_cache_f32(F(0), data, cs, sn, NULL, 5, 2, 3, 2, 8, 6, 0, PN_ROPE_BSHD)); /* != batch·seq_len */
  REFUSED(PN_ERR_SIZE, pn_rope_cache_f32(F(0), data, cs, sn, NULL, 7, 2, 3, 2, 8, 6, 0, PN_ROPE_BSHD));
  for (int k = 0; k < 5; k++) REFUSED(PN_ERR_ARG, pn_rope_cache_f32(F(0), data, cs, sn, cids, 6, 2, 3, 2, 8, bad_rotary[k], 0, PN_ROPE_BSHD));
  /* INT32_MAX: 6 rows of 2^30 - 1 pairs are caches past PN_MAX_ELEMENTS, a size (checked first) */
  REFUSED(PN_ERR_SIZE, pn_rope_cache_f32(F(0), data, cs, sn, cids, 6, 2, 3, 2, 8, INT32_MAX, 0, PN_ROPE_BSHD));
  REFUSED(PN_ERR_ARG, pn_rope_cache_f32(F(0), data, cs, sn, past, 6, 2, 3, 2, 8, 6, 0, PN_ROPE_BSHD));
  REFUSED(PN_ERR_ARG, pn_rope_cache_f32(F(0), data, cs, sn, far, 6, 2, 3, 2, 8, 6, 0, PN_ROPE_BSHD));
  REFUSED(PN_ERR_ARG, pn_rope_cache_f32(F(0), data, cs, sn, below, 6, 2, 3, 2, 8, 6, 0, PN_ROPE_BSHD));
  REFUSED(PN_ERR_ARG, pn_rope_cache_f32(F(0), data, cs, sn, min_first, 6, 2, 3, 2, 8, 6, 0, PN_ROPE_BSHD));
  REFUSED(PN_ERR_ARG, pn_rope_cache_f32(F(0), data, cs, sn, cids, 6, 2, 3, 2, 8, 6, 2, PN_ROPE_BSHD));
  REFUSED(PN_ERR_ARG, pn_rope_cache_f32(F(0), data, cs, sn, cids, 6, 2, 3, 2, 8, 6, 0, 2));
  REFUSED(PN_ERR_ARG, pn_rope_cache_f32(F(0), data, cs, sn, cids, 6, 2, 3, 2, 8, 6, 0, INT32_MIN));
  /* sizes before the other arguments: caches over PN_MAX_ELEMENTS with a
     valid rotary_dim are PN_ERR_SIZE whatever interleaved and layout are */
  REFUSED(PN_ERR_SIZE, pn_rope_cache_f32(F(0), data, cs, sn, cids, PN_MAX_ELEMENTS / 3 + 1, 2, 3, 2, 8, 6, 2, PN_ROPE_BSHD));
  REFUSED(PN_ERR_SIZE, pn_rope_cache_f32(F(0), data, cs, sn, cids, PN_MAX_ELEMENTS / 3 + 1, 2, 3, 2, 8, 6, 0, INT32_MIN));
  /* and whatever else is wrong with a rotary_dim from 2: odd, past head_dim */
  REFUSED(PN_ERR_SIZE, pn_rope_cache_f32(F(0), data, cs, sn, cids, PN_MAX_ELEMENTS / 2 + 1, 2, 3, 2, 8, 5, 0, PN_ROPE_BSHD));
  REFUSED(PN_ERR_SIZE, pn_rope_cache_f32(F(0), data, cs, sn, cids, PN_MAX_ELEMENTS / 5 + 1, 2, 3, 2, 8, 10, 0, PN_ROPE_BSHD));

  kernel = "pn_rope_scaled_f32";
  kernels++;
  const double inv_nan[3] = {1.0, NAN, 0.01}, inv_inf[3] = {1.0, 0.1, INFINITY};
  ACCEPTED(pn_rope_scaled_f32(F(0), data, NULL, inv_ok, 1.25, 2, 3, 2, 8, 6, 5, 0, PN_ROPE_BSHD));
  ACCEPTED(pn_rope_scaled_f32(F(0), data, ids, inv_ok, 0.5, 2, 3, 2, 8, 6, 0, 1, PN_ROPE_BHSD));
  REFUSED(PN_ERR_NULL, pn_rope_scaled_f32(NULL, data, NULL, inv_ok, 1.0, 2, 3, 2, 8, 6, 5, 0, PN_ROPE_BSHD));
  REFUSED(PN_ERR_NULL, pn_rope_scaled_f32(F(0), NULL, NULL, inv_ok, 1.0, 2, 3, 2, 8, 6, 5, 0, PN_ROPE_BSHD));
  REFUSED(PN_ERR_NULL, pn_rope_scaled_f32(F(0), data, NULL, NULL, 1.0, 2, 3, 2, 8, 6, 5, 0, PN_ROPE_BSHD));
  for (int k = 0; k < NBAD; k++) {
    REFUSED(PN_ERR_SIZE, pn_rope_scaled_f32(F(0), data, NULL, inv_ok, 1.0, bad_sizes[k], 3, 2, 8, 6, 5, 0, PN_ROPE_BSHD));
    REFUSED(PN_ERR_SIZE, pn_rope_scaled_f32(F(0), data, NULL, inv_ok, 1.0, 2, bad_sizes[k], 2, 8, 6, 5, 0, PN_ROPE_BSHD));
    REFUSED(PN_ERR_SIZE, pn_rope_scaled_f32(F(0), data, NULL, inv_ok, 1.0, 2, 3, bad_sizes[k], 8, 6, 5, 0, PN_ROPE_BSHD));
    REFUSED(PN_ERR_SIZE, pn_rope_scaled_f32(F(0), data, NULL, inv_ok, 1.0, 2, 3, 2, bad_sizes[k], 6, 5, 0, PN_ROPE_BSHD));
  }
  for (int k = 0; k < NOVER4; k++)
    REFUSED(PN_ERR_SIZE, pn_rope_scaled_f32(F(0), data, NULL, inv_ok, 1.0, over4[k][0], over4[k][1], over4[k][2], over4[k][3], 6, 0, 0, PN_ROPE_BSHD));
  for (int k = 0; k < 6; k++) REFUSED(PN_ERR_ARG, pn_rope_scaled_f32(F(0), data, NULL, inv_ok, 1.0, 2, 3, 2, 8, bad_rotary[k], 5, 0, PN_ROPE_BSHD));
  const double bad_af[] = {NAN, INFINITY, -INFINITY, 0.0, -0.0, -1.0, -DBL_TRUE_MIN};
  for (int k = 0; k < 7; k++) REFUSED(PN_ERR_ARG, pn_rope_scaled_f32(F(0), data, NULL, inv_ok, bad_af[k], 2, 3, 2, 8, 6, 5, 0, PN_ROPE_BSHD));
  REFUSED(PN_ERR_ARG, pn_rope_scaled_f32(F(0), data, NULL, inv_nan, 1.0, 2, 3, 2, 8, 6, 5, 0, PN_ROPE_BSHD));
  REFUSED(PN_ERR_ARG, pn_rope_scaled_f32(F(0), data, NULL, inv_inf, 1.0, 2, 3, 2, 8, 6, 5, 0, PN_ROPE_BSHD));
  REFUSED(PN_ERR_ARG, pn_rope_scaled_f32(F(0), data, NULL, inv_ok, 1.0, 2, 3, 2, 8, 6, -1, 0, PN_ROPE_BSHD));
  REFUSED(PN_ERR_ARG, pn_rope_scaled_f32(F(0), data, NULL, inv_ok, 1.0, 2, 3, 2, 8, 6, INT32_MIN, 0, PN_ROPE_BSHD));
  REFUSED(PN_ERR_ARG, pn_rope_scaled_f32(F(0), data, NULL, inv_ok, 1.0, 2, 3, 2, 8, 6, INT32_MAX - 1, 0, PN_ROPE_BSHD));
  REFUSED(PN_ERR_ARG, pn_rope_scaled_f32(F(0), data, neg_last, inv_ok, 1.0, 2, 3, 2, 8, 6, 0, 0, PN_ROPE_BSHD));
  REFUSED(PN_ERR_ARG, pn_rope_scaled_f32(F(0), data, min_first, inv_ok, 1.0, 2, 3, 2, 8, 6, 0, 0, PN_ROPE_BSHD));
  REFUSED(PN_ERR_ARG, pn_rope_scaled_f32(F(0), data, NULL, inv_ok, 1.0, 2, 3, 2, 8, 6, 5, 2, PN_ROPE_BSHD));
  REFUSED(PN_ERR_ARG, pn_rope_scaled_f32(F(0), data, NULL, inv_ok, 1.0, 2, 3, 2, 8, 6, 5, 0, 2));
  REFUSED(PN_ERR_ARG, pn_rope_scaled_f32(F(0), data, NULL, inv_ok, 1.0, 2, 3, 2, 8, 6, 5, 0, -1));

  /* the same kernel with the frequencies' double-double rests: every check
   * of pn_rope_scaled_f32, and the rests != NULL and finite */
  kernel = "pn_rope_scaled_dd_f32";
  kernels++;
  static const double lo_ok[3] = {0.0, 1e-20, -1e-19};
  const double lo_nan[3] = {0.0, NAN, 0.0}, lo_inf[3] = {0.0, 0.0, -INFINITY};
  ACCEPTED(pn_rope_scaled_dd_f32(F(0), data, NULL, inv_ok, lo_ok, 1.25, 2, 3, 2, 8, 6, 5, 0, PN_ROPE_BSHD));
  ACCEPTED(pn_rope_scaled_dd_f32(F(0), data, ids, inv_ok, lo_ok, 0.5, 2, 3, 2, 8, 6, 0, 1, PN_ROPE_BHSD));
  REFUSED(PN_ERR_NULL, pn_rope_scaled_dd_f32(NULL, data, NULL, inv_ok, lo_ok, 1.0, 2, 3, 2, 8, 6, 5, 0, PN_ROPE_BSHD));
  REFUSED(PN_ERR_NULL, pn_rope_scaled_dd_f32(F(0), NULL, NULL, inv_ok, lo_ok, 1.0, 2, 3, 2, 8, 6, 5, 0, PN_ROPE_BSHD));
  REFUSED(PN_ERR_NULL, pn_rope_scaled_dd_f32(F(0), data, NULL, NULL, lo_ok, 1.0, 2, 3, 2, 8, 6, 5, 0, PN_ROPE_BSHD));
  REFUSED(PN_ERR_NULL, pn_rope_scaled_dd_f32(F(0), data, NULL, inv_ok, NULL, 1.0, 2, 3, 2, 8, 6, 5, 0, PN_ROPE_BSHD));
  for (int k = 0; k < NBAD; k++)
    REFUSED(PN_ERR_SIZE, pn_rope_scaled_dd_f32(F(0), data, NULL, inv_ok, lo_ok, 1.0, 2, bad_sizes[k], 2, 8, 6, 5, 0, PN_ROPE_BSHD));
  for (int k = 0; k < 7; k++) REFUSED(PN_ERR_ARG, pn_rope_scaled_dd_f32(F(0), data, NULL, inv_ok, lo_ok, bad_af[k], 2, 3, 2, 8, 6, 5, 0, PN_ROPE_BSHD));
  REFUSED(PN_ERR_ARG, pn_rope_scaled_dd_f32(F(0), data, NULL, inv_nan, lo_ok, 1.0, 2, 3, 2, 8, 6, 5, 0, PN_ROPE_BSHD));
  REFUSED(PN_ERR_ARG, pn_rope_scaled_dd_f32(F(0), data, NULL, inv_ok, lo_nan, 1.0, 2, 3, 2, 8, 6, 5, 0, PN_ROPE_BSHD));
  REFUSED(PN_ERR_ARG, pn_rope_scaled_dd_f32(F(0), data, NULL, inv_ok, lo_inf, 1.0, 2, 3, 2, 8, 6, 5, 0, PN_ROPE_BSHD));
  REFUSED(PN_ERR_ARG, pn_rope_scaled_dd_f32(F(0), data, NULL, inv_ok, lo_ok, 1.0, 2, 3, 2, 8, 6, -1, 0, PN_ROPE_BSHD));
  REFUSED(PN_ERR_ARG, pn_rope_scaled_dd_f32(F(0), data, neg_last, inv_ok, lo_ok, 1.0, 2, 3, 2, 8, 6, 0, 0, PN_ROPE_BSHD));
}

static void sentinel_lowprec(void) {
  const int32_t ids[6] = {1, 4, 7, 10, 13, 2147483647}, neg_last[6] = {0, 1, 2, 3, 4, -1};
  const int32_t bad_dtype[] = {-1, 3, INT32_MIN, INT32_MAX}, bad_compute[] = {-1, 2, INT32_MIN, INT32_MAX};
  kernel = "pn_round_f32";
  kernels++;
  ACCEPTED(pn_round_f32(F(0), data, 37, PN_DTYPE_BFLOAT16));
  ACCEPTED(pn_round_f32(F(0), data, 37, PN_DTYPE_FLOAT32));
  REFUSED(PN_ERR_NULL, pn_round_f32(NULL, data, 37, PN_DTYPE_FLOAT16));
  REFUSED(PN_ERR_NULL, pn_round_f32(F(0), NULL, 37, PN_DTYPE_FLOAT16));
  for (int k = 0; k < NBAD; k++) REFUSED(PN_ERR_SIZE, pn_round_f32(F(0), data, bad_sizes[k], PN_DTYPE_FLOAT16));
  REFUSED(PN_ERR_SIZE, pn_round_f32(F(0), data, PN_MAX_ELEMENTS + 1, PN_DTYPE_FLOAT16));
  REFUSED(PN_ERR_SIZE, pn_round_f32(F(0), data, INT32_MAX, PN_DTYPE_FLOAT16));
  for (int k = 0; k < 4; k++) REFUSED(PN_ERR_ARG, pn_round_f32(F(0), data, 37, bad_dtype[k]));

  kernel = "pn_pe_lowprec_f32";
  kernels++;
  ACCEPTED(pn_pe_lowprec_f32(F(0), 4, 6, 1e4, 0, PN_PE_INTERLEAVED, PN_DTYPE_BFLOAT16, PN_COMPUTE_LOW));
  ACCEPTED(pn_pe_lowprec_f32(F(0), 4, 7, 1e4, INT32_MAX - 3, PN_PE_CONCAT, PN_DTYPE_FLOAT16, PN_COMPUTE_FLOAT32));
  REFUSED(PN_ERR_NULL, pn_pe_lowprec_f32(NULL, 4, 6, 1e4, 0, 0, 1, 1));
  for (int k = 0; k < NBAD; k++) {
    REFUSED(PN_ERR_SIZE, pn_pe_lowprec_f32(F(0), bad_sizes[k], 6, 1e4, 0, 0, 1, 1));
    REFUSED(PN_ERR_SIZE, pn_pe_lowprec_f32(F(0), 4, bad_sizes[k], 1e4, 0, 0, 1, 1));
  }
  for (int k = 0; k < NOVER2; k++) REFUSED(PN_ERR_SIZE, pn_pe_lowprec_f32(F(0), over2[k][0], over2[k][1], 1e4, 0, 0, 1, 1));
  for (int k = 0; k < NBASE; k++) REFUSED(PN_ERR_ARG, pn_pe_lowprec_f32(F(0), 4, 6, bad_base[k], 0, 0, 1, 1));
  REFUSED(PN_ERR_ARG, pn_pe_lowprec_f32(F(0), 4, 6, 1e4, -1, 0, 1, 1));
  REFUSED(PN_ERR_ARG, pn_pe_lowprec_f32(F(0), 4, 6, 1e4, INT32_MAX - 2, 0, 1, 1)); /* ends at 2^31 + 1 */
  REFUSED(PN_ERR_ARG, pn_pe_lowprec_f32(F(0), 4, 6, 1e4, 0, 2, 1, 1));
  for (int k = 0; k < 4; k++) {
    REFUSED(PN_ERR_ARG, pn_pe_lowprec_f32(F(0), 4, 6, 1e4, 0, 0, bad_dtype[k], 1));
    REFUSED(PN_ERR_ARG, pn_pe_lowprec_f32(F(0), 4, 6, 1e4, 0, 0, 1, bad_compute[k]));
  }

  kernel = "pn_rope_lowprec_f32";
  kernels++;
  ACCEPTED(pn_rope_lowprec_f32(F(0), data, NULL, 2, 3, 2, 8, 6, 1e4, 5, 0, PN_ROPE_BSHD, PN_DTYPE_FLOAT16, PN_COMPUTE_LOW));
  ACCEPTED(pn_rope_lowprec_f32(F(0), data, ids, 2, 3, 2, 8, 6, 1e4, 0, 1, PN_ROPE_BHSD, PN_DTYPE_BFLOAT16, PN_COMPUTE_FLOAT32));
  ACCEPTED(pn_rope_lowprec_f32(F(0), data, NULL, 2, 3, 2, 8, 6, 1e4, INT32_MAX - 2, 0, PN_ROPE_BSHD, PN_DTYPE_FLOAT32, PN_COMPUTE_LOW));
  REFUSED(PN_ERR_NULL, pn_rope_lowprec_f32(NULL, data, NULL, 2, 3, 2, 8, 6, 1e4, 5, 0, 0, 1, 1));
  REFUSED(PN_ERR_NULL, pn_rope_lowprec_f32(F(0), NULL, NULL, 2, 3, 2, 8, 6, 1e4, 5, 0, 0, 1, 1));
  for (int k = 0; k < NBAD; k++) {
    REFUSED(PN_ERR_SIZE, pn_rope_lowprec_f32(F(0), data, NULL, bad_sizes[k], 3, 2, 8, 6, 1e4, 5, 0, 0, 1, 1));
    REFUSED(PN_ERR_SIZE, pn_rope_lowprec_f32(F(0), data, NULL, 2, 3, 2, bad_sizes[k], 6, 1e4, 5, 0, 0, 1, 1));
  }
  for (int k = 0; k < NOVER4; k++)
    REFUSED(PN_ERR_SIZE, pn_rope_lowprec_f32(F(0), data, NULL, over4[k][0], over4[k][1], over4[k][2], over4[k][3], 6, 1e4, 0, 0, 0, 1, 1));
  const int32_t bad_rotary[] = {0, -2, 5, 10, INT32_MIN, INT32_MAX};
  for (int k = 0; k < 6; k++) REFUSED(PN_ERR_ARG, pn_rope_lowprec_f32(F(0), data, NULL, 2, 3, 2, 8, bad_rotary[k], 1e4, 5, 0, 0, 1, 1));
  for (int k = 0; k < NBASE; k++) REFUSED(PN_ERR_ARG, pn_rope_lowprec_f32(F(0), data, NULL, 2, 3, 2, 8, 6, bad_base[k], 5, 0, 0, 1, 1));
  /* base is taken as a float32: FLT_MAX is the largest it takes */
  ACCEPTED(pn_rope_lowprec_f32(F(0), data, NULL, 2, 3, 2, 8, 6, (double)FLT_MAX, 5, 0, 0, 1, 1));
  REFUSED(PN_ERR_ARG, pn_rope_lowprec_f32(F(0), data, NULL, 2, 3, 2, 8, 6, nextafter((double)FLT_MAX, INFINITY), 5, 0, 0, 1, 1));
  REFUSED(PN_ERR_ARG, pn_rope_lowprec_f32(F(0), data, NULL, 2, 3, 2, 8, 6, 1e300, 5, 0, 0, 1, 1));
  REFUSED(PN_ERR_ARG, pn_rope_lowprec_f32(F(0), data, NULL, 2, 3, 2, 8, 6, 1e4, -1, 0, 0, 1, 1));
  REFUSED(PN_ERR_ARG, pn_rope_lowprec_f32(F(0), data, NULL, 2, 3, 2, 8, 6, 1e4, INT32_MAX - 1, 0, 0, 1, 1));
  REFUSED(PN_ERR_ARG, pn_rope_lowprec_f32(F(0), data, neg_last, 2, 3, 2, 8, 6, 1e4, 0, 0, 0, 1, 1));
  REFUSED(PN_ERR_ARG, pn_rope_lowprec_f32(F(0), data, NULL, 2, 3, 2, 8, 6, 1e4, 5, 2, 0, 1, 1));
  REFUSED(PN_ERR_ARG, pn_rope_lowprec_f32(F(0), data, NULL, 2, 3, 2, 8, 6, 1e4, 5, 0, 2, 1, 1));
  for (int k = 0; k < 4; k++) {
    REFUSED(PN_ERR_ARG, pn_rope_lowprec_f32(F(0), data, NULL, 2, 3, 2, 8, 6, 1e4, 5, 0, 0, bad_dtype[k], 1));
    REFUSED(PN_ERR_ARG, pn_rope_lowprec_f32(F(0), data, NULL, 2, 3, 2, 8, 6, 1e4, 5, 0, 0, 1, bad_compute[k]));
  }
}

static void sentinel_rope_frequencies(void) {
  kernel = "pn_rope_frequencies_f64";
  kernels++;
  const int32_t dim = 8;
  double p[PN_SCALING_PARAMS];
#define FREQ(type, params, sf, lf, seq) pn_rope_frequencies_f64(D(0), D(1), dim, 1e4, (type), (params), (sf), (lf), (seq))
  for (int32_t type = PN_SCALING_NONE; type <= PN_SCALING_LONGROPE; type++) {
    scaling_params(p, type);
    ACCEPTED(FREQ(type, p, short_ok, long_ok, 100.0));
    ACCEPTED(FREQ(type, p, short_ok, long_ok, 1e6)); /* past orig: dynamic grows, longrope takes long_factor */
  }
  ACCEPTED(FREQ(PN_SCALING_NONE, NULL, NULL, NULL, 0.0));
  ACCEPTED(FREQ(PN_SCALING_LONGROPE, params_with(PN_SCALING_LONGROPE, PN_SCALING_FACTOR, DBL_TRUE_MIN), short_ok, long_ok, 100.0));
  ACCEPTED(FREQ(PN_SCALING_YARN, params_with(PN_SCALING_YARN, PN_SCALING_TRUNCATE, 0.0), NULL, NULL, 100.0));
  /* pointers */
  scaling_params(p, PN_SCALING_LINEAR);
  REFUSED(PN_ERR_NULL, pn_rope_frequencies_f64(NULL, D(1), dim, 1e4, PN_SCALING_LINEAR, p, NULL, NULL, 0.0));
  REFUSED(PN_ERR_NULL, pn_rope_frequencies_f64(D(0), NULL, dim, 1e4, PN_SCALING_LINEAR, p, NULL, NULL, 0.0));
  for (int32_t type = PN_SCALING_LINEAR; type <= PN_SCALING_LONGROPE; type++) REFUSED(PN_ERR_NULL, FREQ(type, NULL, short_ok, long_ok, 0.0));
  scaling_params(p, PN_SCALING_LONGROPE);
  REFUSED(PN_ERR_NULL, FREQ(PN_SCALING_LONGROPE, p, NULL, long_ok, 100.0));
  REFUSED(PN_ERR_NULL, FREQ(PN_SCALING_LONGROPE, p, short_ok, NULL, 100.0));
  REFUSED(PN_ERR_NULL, FREQ(PN_SCALING_LONGROPE, p, short_ok, NULL, 1e6));
  /* dim */
  const int32_t bad_dim[] = {0, -2, INT32_MIN, 7, 65538, INT32_MAX, -1};
  for (int k = 0; k < 7; k++) REFUSED(PN_ERR_SIZE, pn_rope_frequencies_f64(D(0), D(1), bad_dim[k], 1e4, PN_SCALING_NONE, NULL, NULL, NULL, 0.0));
  scaling_params(p, PN_SCALING_DYNAMIC);
  REFUSED(PN_ERR_SIZE, pn_rope_frequencies_f64(D(0), D(1), 2, 1e4, PN_SCALING_DYNAMIC, p, NULL, NULL, 1e5)); /* exponent dim/(dim-2) */
  /* base, type, seq_len */
  for (int k = 0; k < NBASE; k++) {
    REFUSED(PN_ERR_ARG, pn_rope_frequencies_f64(D(0), D(1), dim, bad_base[k], PN_SCALING_NONE, NULL, NULL, NULL, 0.0));
    REFUSED(PN_ERR_ARG, pn_rope_frequencies_f64(D(0), D(1), dim, bad_base[k], PN_SCALING_DYNAMIC, p, NULL, NULL, 1e5));
  }
  const int32_t bad_type[] = {-1, 6, INT32_MIN, INT32_MAX};
  for (int k = 0; k < 4; k++) REFUSED(PN_ERR_ARG, FREQ(bad_type[k], p, short_ok, long_ok, 0.0));
  const double bad_seq[] = {NAN, INFINITY, -INFINITY, -1.0, -DBL_TRUE_MIN};
  for (int k = 0; k < 5; k++) REFUSED(PN_ERR_ARG, FREQ(PN_SCALING_NONE, NULL, NULL, NULL, bad_seq[k]));
  /* factor: every type that has one; a subnormal factor overflows w/factor */
  const double bad_factor[] = {NAN, INFINITY, -INFINITY, 0.0, -0.0, -1.0, -DBL_TRUE_MIN};
  for (int32_t type = PN_SCALING_LINEAR; type <= PN_SCALING_LONGROPE; type++)
    for (int k = 0; k < 7; k++) REFUSED(PN_ERR_ARG, FREQ(type, params_with(type, PN_SCALING_FACTOR, bad_factor[k]), short_ok, long_ok, 100.0));
  REFUSED(PN_ERR_ARG, FREQ(PN_SCALING_LINEAR, params_with(PN_SCALING_LINEAR, PN_SCALING_FACTOR, DBL_TRUE_MIN), NULL, NULL, 100.0));
  REFUSED(PN_ERR_ARG, FREQ(PN_SCALING_YARN, params_with(PN_SCALING_YARN, PN_SCALING_FACTOR, DBL_TRUE_MIN), NULL, NULL, 100.0));
  REFUSED(PN_ERR_ARG, FREQ(PN_SCALING_LLAMA3, params_with(PN_SCALING_LLAMA3, PN_SCALING_FACTOR, DBL_TRUE_MIN), NULL, NULL, 100.0));
  /* original_max_position_embeddings: >= 1 and finite */
  const double bad_orig[] = {NAN, INFINITY, -INFINITY, 0.0, -0.0, 0.5, -1.0, DBL_TRUE_MIN};
  for (int32_t type = PN_SCALING_DYNAMIC; type <= PN_SCALING_LONGROPE; type++)
    for (int k = 0; k < 8; k++) REFUSED(PN_ERR_ARG, FREQ(type, params_with(type, PN_SCALING_ORIGINAL_MAX, bad_orig[k]), short_ok, long_ok, 100.0));
  /* dynamic: a grown base past DBL_MAX */
  scaling_params(p, PN_SCALING_DYNAMIC);
  p[PN_SCALING_FACTOR] = 1e300;
  REFUSED(PN_ERR_ARG, FREQ(PN_SCALING_DYNAMIC, p, NULL, NULL, 1e6)); /* factor·s/orig finite, the power is not */
  p[PN_SCALING_FACTOR] = 1e308;
  REFUSED(PN_ERR_ARG, FREQ(PN_SCALING_DYNAMIC, p, NULL, NULL, 1e6)); /* factor·s/orig is +Inf */
  REFUSED(PN_ERR_ARG, pn_rope_frequencies_f64(D(0), D(1), dim, 1e300, PN_SCALING_DYNAMIC, params_with(PN_SCALING_DYNAMIC, PN_SCALING_FACTOR, 1e10), NULL, NULL, 1e12));
  /* yarn */
  const double bad_beta[] = {NAN, INFINITY, -INFINITY, 0.0, -0.0, -1.0, 1e-320, 1e308, DBL_TRUE_MIN};
  for (int k = 0; k < 9; k++) {
    REFUSED(PN_ERR_ARG, FREQ(PN_SCALING_YARN, params_with(PN_SCALING_YARN, PN_SCALING_BETA_FAST, bad_beta[k]), NULL, NULL, 100.0));
    REFUSED(PN_ERR_ARG, FREQ(PN_SCALING_YARN, params_with(PN_SCALING_YARN, PN_SCALING_BETA_SLOW, bad_beta[k]), NULL, NULL, 100.0));
  }
  for (int k = 1; k < 3; k++) {
    REFUSED(PN_ERR_ARG, FREQ(PN_SCALING_YARN, params_with(PN_SCALING_YARN, PN_SCALING_MSCALE, nonfinite[k]), NULL, NULL, 100.0));
    REFUSED(PN_ERR_ARG, FREQ(PN_SCALING_YARN, params_with(PN_SCALING_YARN, PN_SCALING_MSCALE_ALL_DIM, nonfinite[k]), NULL, NULL, 100.0));
  }
  REFUSED(PN_ERR_ARG, FREQ(PN_SCALING_YARN, params_with(PN_SCALING_YARN, PN_SCALING_MSCALE, -100.0), NULL, NULL, 100.0));
  REFUSED(PN_ERR_ARG, FREQ(PN_SCALING_YARN, params_with(PN_SCALING_YARN, PN_SCALING_MSCALE_ALL_DIM, -100.0), NULL, NULL, 100.0));
  REFUSED(PN_ERR_ARG, FREQ(PN_SCALING_YARN, params_with(PN_SCALING_YARN, PN_SCALING_MSCALE_ALL_DIM, mscale_for_zero(4.0)), NULL, NULL, 100.0));
  const double bad_truncate[] = {0.5, 2.0, -1.0, INFINITY, -0.5};
  for (int k = 0; k < 5; k++) REFUSED(PN_ERR_ARG, FREQ(PN_SCALING_YARN, params_with(PN_SCALING_YARN, PN_SCALING_TRUNCATE, bad_truncate[k]), NULL, NULL, 100.0));
  /* a given attention factor: > 0 and finite, for every type */
  const double bad_af[] = {INFINITY, -INFINITY, 0.0, -0.0, -1.0, -DBL_TRUE_MIN};
  for (int32_t type = PN_SCALING_LINEAR; type <= PN_SCALING_LONGROPE; type++)
    for (int k = 0; k < 6; k++) REFUSED(PN_ERR_ARG, FREQ(type, params_with(type, PN_SCALING_ATTENTION_FACTOR, bad_af[k]), short_ok, long_ok, 100.0));
  /* llama3: 0 < low_freq_factor < high_freq_factor, finite */
  const double bad_low[] = {NAN, INFINITY, -INFINITY, 0.0, -0.0, -1.0, 4.0, 5.0};
  for (int k = 0; k < 8; k++) REFUSED(PN_ERR_ARG, FREQ(PN_SCALING_LLAMA3, params_with(PN_SCALING_LLAMA3, PN_SCALING_LOW_FREQ_FACTOR, bad_low[k]), NULL, NULL, 100.0));
  const double bad_high[] = {NAN, INFINITY, -INFINITY, 0.0, 1.0, 0.5};
  for (int k = 0; k < 6; k++) REFUSED(PN_ERR_ARG, FREQ(PN_SCALING_LLAMA3, params_with(PN_SCALING_LLAMA3, PN_SCALING_HIGH_FREQ_FACTOR, bad_high[k]), NULL, NULL, 100.0));
  /* longrope: both lists, every value finite and > 0; ln orig > 0 when
   * factor > 1 (the attention factor divides by it) */
  const double bad_ext[] = {NAN, INFINITY, -INFINITY, 0.0, -0.0, -1.0, DBL_TRUE_MIN};
  scaling_params(p, PN_SCALING_LONGROPE);
  for (int k = 0; k < 7; k++) {
    REFUSED(PN_ERR_ARG, FREQ(PN_SCALING_LONGROPE, p, list_with(short_ok, 0, bad_ext[k]), long_ok, 100.0));
    REFUSED(PN_ERR_ARG, FREQ(PN_SCALING_LONGROPE, p, short_ok, list_with(long_ok, 3, bad_ext[k]), 1e6));
    /* the list seq_len does not select is checked too (a subnormal factor
     * is valid there: it overflows only when divided by) */
    if (k < 6) REFUSED(PN_ERR_ARG, FREQ(PN_SCALING_LONGROPE, p, short_ok, list_with(long_ok, 3, bad_ext[k]), 100.0));
  }
  p[PN_SCALING_ORIGINAL_MAX] = 1;
  REFUSED(PN_ERR_ARG, FREQ(PN_SCALING_LONGROPE, p, short_ok, long_ok, 100.0));
#undef FREQ

  /* the same with the double-double rests into D(2): every type, and the
   * refusals of each kind (the checks are pn_rope_frequencies_f64's) */
  kernel = "pn_rope_frequencies_dd_f64";
  kernels++;
#define FREQ(type, params, sf, lf, seq) pn_rope_frequencies_dd_f64(D(0), D(2), D(1), dim, 1e4, (type), (params), (sf), (lf), (seq))
  for (int32_t type = PN_SCALING_NONE; type <= PN_SCALING_LONGROPE; type++) {
    scaling_params(p, type);
    ACCEPTED(FREQ(type, p, short_ok, long_ok, 100.0));
    ACCEPTED(FREQ(type, p, short_ok, long_ok, 1e6));
  }
  scaling_params(p, PN_SCALING_LINEAR);
  REFUSED(PN_ERR_NULL, pn_rope_frequencies_dd_f64(NULL, D(2), D(1), dim, 1e4, PN_SCALING_LINEAR, p, NULL, NULL, 0.0));
  REFUSED(PN_ERR_NULL, pn_rope_frequencies_dd_f64(D(0), NULL, D(1), dim, 1e4, PN_SCALING_LINEAR, p, NULL, NULL, 0.0));
  REFUSED(PN_ERR_NULL, pn_rope_frequencies_dd_f64(D(0), D(2), NULL, dim, 1e4, PN_SCALING_LINEAR, p, NULL, NULL, 0.0));
  REFUSED(PN_ERR_NULL, FREQ(PN_SCALING_LINEAR, NULL, NULL, NULL, 0.0));
  for (int k = 0; k < 7; k++) REFUSED(PN_ERR_SIZE, pn_rope_frequencies_dd_f64(D(0), D(2), D(1), bad_dim[k], 1e4, PN_SCALING_NONE, NULL, NULL, NULL, 0.0));
  for (int k = 0; k < NBASE; k++) REFUSED(PN_ERR_ARG, pn_rope_frequencies_dd_f64(D(0), D(2), D(1), dim, bad_base[k], PN_SCALING_NONE, NULL, NULL, NULL, 0.0));
  for (int32_t type = PN_SCALING_LINEAR; type <= PN_SCALING_LONGROPE; type++)
    for (int k = 0; k < 7; k++) REFUSED(PN_ERR_ARG, FREQ(type, params_with(type, PN_SCALING_FACTOR, bad_factor[k]), short_ok, long_ok, 100.0));
  for (int k = 0; k < 4; k++) REFUSED(PN_ERR_ARG, FREQ(bad_type[k], p, short_ok, long_ok, 0.0));
  scaling_params(p, PN_SCALING_LONGROPE);
  for (int k = 0; k < 7; k++) REFUSED(PN_ERR_ARG, FREQ(PN_SCALING_LONGROPE, p, list_with(short_ok, 0, bad_ext[k]), long_ok, 100.0));
#undef FREQ
}

static void sentinel_alibi_figures(void) {
  kernel = "pn_alibi_slopes_f32";
  kernels++;
  ACCEPTED(pn_alibi_slopes_f32(F(0), 12));
  REFUSED(PN_ERR_NULL, pn_alibi_slopes_f32(NULL, 12));
  for (int k = 0; k < NBAD; k++) REFUSED(PN_ERR_SIZE, pn_alibi_slopes_f32(F(0), bad_sizes[k]));
  REFUSED(PN_ERR_SIZE, pn_alibi_slopes_f32(F(0), 65537));
  REFUSED(PN_ERR_SIZE, pn_alibi_slopes_f32(F(0), INT32_MAX));

  kernel = "pn_alibi_bias_f32";
  kernels++;
  ACCEPTED(pn_alibi_bias_f32(F(0), 3, 4));
  REFUSED(PN_ERR_NULL, pn_alibi_bias_f32(NULL, 3, 4));
  for (int k = 0; k < NBAD; k++) {
    REFUSED(PN_ERR_SIZE, pn_alibi_bias_f32(F(0), bad_sizes[k], 4));
    REFUSED(PN_ERR_SIZE, pn_alibi_bias_f32(F(0), 3, bad_sizes[k]));
  }
  /* heads·seq_len² past 2^28; seq_len² past 2^31 (int32) and 2^32 (0 in 32 bits) */
  const int32_t over[][2] = {{65537, 1}, {1, 16385}, {1025, 512}, {65536, 65}, {2, 11586}, {1, 46341}, {1, 65536}, {1, 65537}, {1, INT32_MAX}, {65536, 65536}};
  for (int k = 0; k < 10; k++) REFUSED(PN_ERR_SIZE, pn_alibi_bias_f32(F(0), over[k][0], over[k][1]));

  kernel = "pn_random_normal_f32";
  kernels++;
  ACCEPTED(pn_random_normal_f32(F(0), 17, 42, -1.0, 2.0));
  ACCEPTED(pn_random_normal_f32(F(0), 17, 42, 0.0, -0.0));
  REFUSED(PN_ERR_NULL, pn_random_normal_f32(NULL, 17, 42, 0.0, 1.0));
  for (int k = 0; k < NBAD; k++) REFUSED(PN_ERR_SIZE, pn_random_normal_f32(F(0), bad_sizes[k], 42, 0.0, 1.0));
  REFUSED(PN_ERR_SIZE, pn_random_normal_f32(F(0), PN_MAX_ELEMENTS + 1, 42, 0.0, 1.0));
  REFUSED(PN_ERR_SIZE, pn_random_normal_f32(F(0), INT32_MAX, 42, 0.0, 1.0));
  for (int k = 0; k < 3; k++) {
    REFUSED(PN_ERR_ARG, pn_random_normal_f32(F(0), 17, 42, nonfinite[k], 1.0));
    REFUSED(PN_ERR_ARG, pn_random_normal_f32(F(0), 17, 42, 0.0, nonfinite[k]));
  }
  REFUSED(PN_ERR_ARG, pn_random_normal_f32(F(0), 17, 42, 0.0, -1.0));
  REFUSED(PN_ERR_ARG, pn_random_normal_f32(F(0), 17, 42, 0.0, -DBL_TRUE_MIN));

  kernel = "pn_histogram_f32";
  kernels++;
  ACCEPTED(pn_histogram_f32(U(0), U(1), data, 10, 4, -0.5f, 0.5f));
  ACCEPTED(pn_histogram_f32(U(0), U(1), data, 0, 4, -0.5f, 0.5f)); /* n = 0 gives zeros */
  REFUSED(PN_ERR_NULL, pn_histogram_f32(NULL, U(1), data, 10, 4, -0.5f, 0.5f));
  REFUSED(PN_ERR_NULL, pn_histogram_f32(U(0), NULL, data, 10, 4, -0.5f, 0.5f));
  REFUSED(PN_ERR_NULL, pn_histogram_f32(U(0), U(1), NULL, 10, 4, -0.5f, 0.5f));
  REFUSED(PN_ERR_SIZE, pn_histogram_f32(U(0), U(1), data, -1, 4, -0.5f, 0.5f));
  REFUSED(PN_ERR_SIZE, pn_histogram_f32(U(0), U(1), data, INT32_MIN, 4, -0.5f, 0.5f));
  REFUSED(PN_ERR_SIZE, pn_histogram_f32(U(0), U(1), data, PN_MAX_ELEMENTS + 1, 4, -0.5f, 0.5f));
  for (int k = 0; k < NBAD; k++) REFUSED(PN_ERR_SIZE, pn_histogram_f32(U(0), U(1), data, 10, bad_sizes[k], -0.5f, 0.5f));
  REFUSED(PN_ERR_SIZE, pn_histogram_f32(U(0), U(1), data, 10, 65537, -0.5f, 0.5f));
  const float bad_range[][2] = {{NAN, 1}, {0, NAN}, {-INFINITY, 1}, {0, INFINITY}, {INFINITY, INFINITY}, {0.5f, 0.5f},
                                {1, 0}, {-0.0f, 0.0f}, {0.0f, -0.0f}, {FLT_TRUE_MIN, FLT_TRUE_MIN}, {FLT_MAX, -FLT_MAX}};
  for (int k = 0; k < 11; k++) REFUSED(PN_ERR_ARG, pn_histogram_f32(U(0), U(1), data, 10, 4, bad_range[k][0], bad_range[k][1]));

  kernel = "pn_colormap_rgba8";
  kernels++;
  ACCEPTED(pn_colormap_rgba8(B(0), data, 10, -1.0f, 1.0f, PN_COLORMAP_DIVERGING));
  REFUSED(PN_ERR_NULL, pn_colormap_rgba8(NULL, data, 10, -1.0f, 1.0f, 0));
  REFUSED(PN_ERR_NULL, pn_colormap_rgba8(B(0), NULL, 10, -1.0f, 1.0f, 0));
  for (int k = 0; k < NBAD; k++) REFUSED(PN_ERR_SIZE, pn_colormap_rgba8(B(0), data, bad_sizes[k], -1.0f, 1.0f, 0));
  REFUSED(PN_ERR_SIZE, pn_colormap_rgba8(B(0), data, PN_MAX_ELEMENTS + 1, -1.0f, 1.0f, 0));
  REFUSED(PN_ERR_SIZE, pn_colormap_rgba8(B(0), data, 1 << 29, -1.0f, 1.0f, 0)); /* 2^31 bytes of RGBA */
  REFUSED(PN_ERR_SIZE, pn_colormap_rgba8(B(0), data, 1 << 30, -1.0f, 1.0f, 0)); /* 2^32 bytes of RGBA */
  for (int k = 0; k < 11; k++) REFUSED(PN_ERR_ARG, pn_colormap_rgba8(B(0), data, 10, bad_range[k][0], bad_range[k][1], 0));
  const int32_t bad_map[] = {-1, 2, INT32_MIN, INT32_MAX};
  for (int k = 0; k < 4; k++) REFUSED(PN_ERR_ARG, pn_colormap_rgba8(B(0), data, 10, -1.0f, 1.0f, bad_map[k]));

  kernel = "pn_colormap_lut_rgba8";
  kernels++;
  ACCEPTED(pn_colormap_lut_rgba8(B(0), PN_COLORMAP_SEQUENTIAL));
  REFUSED(PN_ERR_NULL, pn_colormap_lut_rgba8(NULL, 0));
  for (int k = 0; k < 4; k++) REFUSED(PN_ERR_ARG, pn_colormap_lut_rgba8(B(0), bad_map[k]));

  kernel = "pn_copy_f32";
  kernels++;
  ACCEPTED(pn_copy_f32(F(0), data, 37));
  REFUSED(PN_ERR_NULL, pn_copy_f32(NULL, data, 37));
  REFUSED(PN_ERR_NULL, pn_copy_f32(F(0), NULL, 37));
  for (int k = 0; k < NBAD; k++) REFUSED(PN_ERR_SIZE, pn_copy_f32(F(0), data, bad_sizes[k]));
  REFUSED(PN_ERR_SIZE, pn_copy_f32(F(0), data, PN_MAX_ELEMENTS + 1));
  REFUSED(PN_ERR_SIZE, pn_copy_f32(F(0), data, INT32_MAX));
}

static void sentinel_article(void) {
  /* attention: [3 × 4] input, d_head 2 */
  kernel = "pn_attention_f32";
  kernels++;
  const float *wq = data + 100, *wk = data + 200, *wv = data + 300;
  ACCEPTED(pn_attention_f32(F(0), F(1), data, wq, wk, wv, 3, 4, 2));
  ACCEPTED(pn_attention_f32(F(0), NULL, data, wq, wk, wv, 3, 4, 2));
  REFUSED(PN_ERR_NULL, pn_attention_f32(NULL, F(1), data, wq, wk, wv, 3, 4, 2));
  REFUSED(PN_ERR_NULL, pn_attention_f32(F(0), F(1), NULL, wq, wk, wv, 3, 4, 2));
  REFUSED(PN_ERR_NULL, pn_attention_f32(F(0), F(1), data, NULL, wk, wv, 3, 4, 2));
  REFUSED(PN_ERR_NULL, pn_attention_f32(F(0), F(1), data, wq, NULL, wv, 3, 4, 2));
  REFUSED(PN_ERR_NULL, pn_attention_f32(F(0), F(1), data, wq, wk, NULL, 3, 4, 2));
  const int32_t over_attn[] = {0, -1, INT32_MIN, 4097, INT32_MAX};
  for (int k = 0; k < 5; k++) {
    REFUSED(PN_ERR_SIZE, pn_attention_f32(F(0), F(1), data, wq, wk, wv, over_attn[k], 4, 2));
    REFUSED(PN_ERR_SIZE, pn_attention_f32(F(0), F(1), data, wq, wk, wv, 3, over_attn[k], 2));
    REFUSED(PN_ERR_SIZE, pn_attention_f32(F(0), F(1), data, wq, wk, wv, 3, 4, over_attn[k]));
  }
  /* within the size limits, past PN_MAX_WORK: 4096·4096·(3 + 2·4096) multiply-adds */
  REFUSED(PN_ERR_SIZE, pn_attention_f32(F(0), F(1), data, wq, wk, wv, 4096, 1, 4096));

  kernel = "pn_gram_f32";
  kernels++;
  ACCEPTED(pn_gram_f32(F(0), data, 3, 4));
  REFUSED(PN_ERR_NULL, pn_gram_f32(NULL, data, 3, 4));
  REFUSED(PN_ERR_NULL, pn_gram_f32(F(0), NULL, 3, 4));
  for (int k = 0; k < NBAD; k++) {
    REFUSED(PN_ERR_SIZE, pn_gram_f32(F(0), data, bad_sizes[k], 4));
    REFUSED(PN_ERR_SIZE, pn_gram_f32(F(0), data, 3, bad_sizes[k]));
  }
  const int32_t over_gram[][2] = {{8193, 1}, {INT32_MAX, 1}, {8192, 32769}, {1, PN_MAX_ELEMENTS + 1}, {8192, INT32_MAX}, {2, 1 << 30}};
  for (int k = 0; k < 6; k++) REFUSED(PN_ERR_SIZE, pn_gram_f32(F(0), data, over_gram[k][0], over_gram[k][1]));
  /* within every size limit but past PN_MAX_WORK: 8192·8193/2·128 = 2^32 + 524288 multiply-adds */
  REFUSED(PN_ERR_SIZE, pn_gram_f32(F(0), data, 8192, 128));

  kernel = "pn_min_row_distance_f32";
  kernels++;
  ACCEPTED(pn_min_row_distance_f32(F(0), I(1), data, 3, 4));
  REFUSED(PN_ERR_NULL, pn_min_row_distance_f32(NULL, I(1), data, 3, 4));
  REFUSED(PN_ERR_NULL, pn_min_row_distance_f32(F(0), NULL, data, 3, 4));
  REFUSED(PN_ERR_NULL, pn_min_row_distance_f32(F(0), I(1), NULL, 3, 4));
  for (int k = 0; k < NBAD; k++) {
    REFUSED(PN_ERR_SIZE, pn_min_row_distance_f32(F(0), I(1), data, bad_sizes[k], 4));
    REFUSED(PN_ERR_SIZE, pn_min_row_distance_f32(F(0), I(1), data, 3, bad_sizes[k]));
  }
  REFUSED(PN_ERR_SIZE, pn_min_row_distance_f32(F(0), I(1), data, 1, 4));
  for (int k = 0; k < 6; k++) REFUSED(PN_ERR_SIZE, pn_min_row_distance_f32(F(0), I(1), data, over_gram[k][0] < 2 ? 2 : over_gram[k][0], over_gram[k][1]));
  REFUSED(PN_ERR_SIZE, pn_min_row_distance_f32(F(0), I(1), data, 8192, 129)); /* 8192·8191/2·129 > 2^32 */

  /* residual stack: 2 layers of [3 × 4] */
  kernel = "pn_residual_stack_f32";
  kernels++;
  ACCEPTED(pn_residual_stack_f32(F(0), data, data + 100, NULL, 2, 3, 4, PN_BLOCK_POST_LN, PN_GELU_TANH, 1.0f));
  REFUSED(PN_ERR_NULL, pn_residual_stack_f32(NULL, data, data + 100, NULL, 2, 3, 4, 0, PN_GELU_TANH, 1.0f));
  REFUSED(PN_ERR_NULL, pn_residual_stack_f32(F(0), NULL, data + 100, NULL, 2, 3, 4, 0, PN_GELU_TANH, 1.0f));
  REFUSED(PN_ERR_NULL, pn_residual_stack_f32(F(0), data, NULL, NULL, 2, 3, 4, 0, PN_GELU_TANH, 1.0f));
  const int32_t over_layers[] = {0, -1, INT32_MIN, 1025, INT32_MAX}, over_rows[] = {0, -1, INT32_MIN, 4097, INT32_MAX};
  for (int k = 0; k < 5; k++) {
    REFUSED(PN_ERR_SIZE, pn_residual_stack_f32(F(0), data, data + 100, NULL, over_layers[k], 3, 4, 0, PN_GELU_TANH, 1.0f));
    REFUSED(PN_ERR_SIZE, pn_residual_stack_f32(F(0), data, data + 100, NULL, 2, over_rows[k], 4, 0, PN_GELU_TANH, 1.0f));
    REFUSED(PN_ERR_SIZE, pn_residual_stack_f32(F(0), data, data + 100, NULL, 2, 3, over_rows[k], 0, PN_GELU_TANH, 1.0f));
  }
  REFUSED(PN_ERR_SIZE, pn_residual_stack_f32(F(0), data, data + 100, NULL, 1024, 1, 513, 0, PN_GELU_TANH, 1.0f)); /* weights 2^28 + … */
  /* past PN_MAX_WORK: 1024·64²·4096 = 2^34 multiply-adds; 1·4096²·(256 + 1) with a memory */
  REFUSED(PN_ERR_SIZE, pn_residual_stack_f32(F(0), data, data + 100, NULL, 1024, 4096, 64, 0, PN_GELU_TANH, 1.0f));
  REFUSED(PN_ERR_SIZE, pn_residual_stack_f32(F(0), data, data + 100, data + 500, 1, 256, 4096, 0, PN_GELU_TANH, 1.0f));
  const int32_t bad_block[] = {-1, 4, INT32_MIN, INT32_MAX};
  const float bad_scale[] = {NAN, INFINITY, -INFINITY};
  for (int k = 0; k < 4; k++) REFUSED(PN_ERR_ARG, pn_residual_stack_f32(F(0), data, data + 100, NULL, 2, 3, 4, bad_block[k], PN_GELU_TANH, 1.0f));
  for (int k = 0; k < 3; k++) REFUSED(PN_ERR_ARG, pn_residual_stack_f32(F(0), data, data + 100, NULL, 2, 3, 4, 0, PN_GELU_TANH, bad_scale[k]));
  /* the memory branch (weights W_l, C_l: 2·2·16 values) and both GELU forms */
  for (int b = 0; b < 4; b++) ACCEPTED(pn_residual_stack_f32(F(0), data, data + 100, data + 500, 2, 3, 4, b, PN_GELU_ERF, 1.0f));
  const int32_t bad_gelu[] = {-1, 2, INT32_MIN, INT32_MAX};
  for (int k = 0; k < 4; k++) {
    REFUSED(PN_ERR_ARG, pn_residual_stack_f32(F(0), data, data + 100, NULL, 2, 3, 4, 0, bad_gelu[k], 1.0f));
    REFUSED(PN_ERR_ARG, pn_residual_stack_f32(F(0), data, data + 100, data + 500, 2, 3, 4, 0, bad_gelu[k], 1.0f));
  }

  kernel = "pn_residual_stack_grad_f32";
  kernels++;
  const float *x0 = data, *w = data + 100, *ro = data + 300;
  ACCEPTED(pn_residual_stack_grad_f32(F(0), D(1), F(2), F(3), x0, w, NULL, ro, 2, 3, 4, PN_BLOCK_PRE_LN, PN_GELU_TANH, 1.0f));
  REFUSED(PN_ERR_NULL, pn_residual_stack_grad_f32(NULL, D(1), F(2), F(3), x0, w, NULL, ro, 2, 3, 4, 0, PN_GELU_TANH, 1.0f));
  REFUSED(PN_ERR_NULL, pn_residual_stack_grad_f32(F(0), NULL, F(2), F(3), x0, w, NULL, ro, 2, 3, 4, 0, PN_GELU_TANH, 1.0f));
  REFUSED(PN_ERR_NULL, pn_residual_stack_grad_f32(F(0), D(1), NULL, F(3), x0, w, NULL, ro, 2, 3, 4, 0, PN_GELU_TANH, 1.0f));
  REFUSED(PN_ERR_NULL, pn_residual_stack_grad_f32(F(0), D(1), F(2), NULL, x0, w, NULL, ro, 2, 3, 4, 0, PN_GELU_TANH, 1.0f));
  REFUSED(PN_ERR_NULL, pn_residual_stack_grad_f32(F(0), D(1), F(2), F(3), NULL, w, NULL, ro, 2, 3, 4, 0, PN_GELU_TANH, 1.0f));
  REFUSED(PN_ERR_NULL, pn_residual_stack_grad_f32(F(0), D(1), F(2), F(3), x0, NULL, NULL, ro, 2, 3, 4, 0, PN_GELU_TANH, 1.0f));
  REFUSED(PN_ERR_NULL, pn_residual_stack_grad_f32(F(0), D(1), F(2), F(3), x0, w, NULL, NULL, 2, 3, 4, 0, PN_GELU_TANH, 1.0f));
  for (int k = 0; k < 5; k++) {
    REFUSED(PN_ERR_SIZE, pn_residual_stack_grad_f32(F(0), D(1), F(2), F(3), x0, w, NULL, ro, over_layers[k], 3, 4, 0, PN_GELU_TANH, 1.0f));
    REFUSED(PN_ERR_SIZE, pn_residual_stack_grad_f32(F(0), D(1), F(2), F(3), x0, w, NULL, ro, 2, over_rows[k], 4, 0, PN_GELU_TANH, 1.0f));
    REFUSED(PN_ERR_SIZE, pn_residual_stack_grad_f32(F(0), D(1), F(2), F(3), x0, w, NULL, ro, 2, 3, over_rows[k], 0, PN_GELU_TANH, 1.0f));
  }
  REFUSED(PN_ERR_SIZE, pn_residual_stack_grad_f32(F(0), D(1), F(2), F(3), x0, w, NULL, ro, 1024, 1, 513, 0, PN_GELU_TANH, 1.0f));
  REFUSED(PN_ERR_SIZE, pn_residual_stack_grad_f32(F(0), D(1), F(2), F(3), x0, w, NULL, ro, 16, 4096, 4096, 0, PN_GELU_TANH, 1.0f)); /* rows·width·17 */
  /* past PN_MAX_WORK, counted 3·layers·width²·rows: 3·4096²·128 */
  REFUSED(PN_ERR_SIZE, pn_residual_stack_grad_f32(F(0), D(1), F(2), F(3), x0, w, NULL, ro, 1, 128, 4096, 0, PN_GELU_TANH, 1.0f));
  for (int k = 0; k < 4; k++) REFUSED(PN_ERR_ARG, pn_residual_stack_grad_f32(F(0), D(1), F(2), F(3), x0, w, NULL, ro, 2, 3, 4, bad_block[k], PN_GELU_TANH, 1.0f));
  for (int k = 0; k < 3; k++) REFUSED(PN_ERR_ARG, pn_residual_stack_grad_f32(F(0), D(1), F(2), F(3), x0, w, NULL, ro, 2, 3, 4, 0, PN_GELU_TANH, bad_scale[k]));
  for (int b = 0; b < 4; b++) ACCEPTED(pn_residual_stack_grad_f32(F(0), D(1), F(2), F(3), x0, w, data + 500, ro, 2, 3, 4, b, PN_GELU_ERF, 1.0f));
  for (int k = 0; k < 4; k++) {
    REFUSED(PN_ERR_ARG, pn_residual_stack_grad_f32(F(0), D(1), F(2), F(3), x0, w, NULL, ro, 2, 3, 4, 0, bad_gelu[k], 1.0f));
    REFUSED(PN_ERR_ARG, pn_residual_stack_grad_f32(F(0), D(1), F(2), F(3), x0, w, data + 500, ro, 2, 3, 4, 0, bad_gelu[k], 1.0f));
    REFUSED(PN_ERR_SIZE, pn_residual_stack_grad_f32(F(0), D(1), F(2), F(3), x0, w, data + 500, ro, over_layers[k], 3, 4, 0, bad_gelu[k], 1.0f));
  }

  /* the block: 2 tokens, d_model 4, 2 heads, d_ff 3 (weights 4·16 + 2·12) */
  kernel = "pn_transformer_block_f32";
  kernels++;
  const float *bw = data + 100;
  ACCEPTED(pn_transformer_block_f32(F(0), F(1), data, bw, 2, 4, 2, 3, PN_PRE_NORM, PN_NORM_LAYER, PN_GELU_TANH, 1e-5f));
  ACCEPTED(pn_transformer_block_f32(F(0), F(1), data, bw, 2, 4, 4, 3, PN_POST_NORM, PN_NORM_RMS, PN_GELU_TANH, -0.0f));
  REFUSED(PN_ERR_NULL, pn_transformer_block_f32(NULL, F(1), data, bw, 2, 4, 2, 3, 0, 0, PN_GELU_TANH, 1e-5f));
  REFUSED(PN_ERR_NULL, pn_transformer_block_f32(F(0), NULL, data, bw, 2, 4, 2, 3, 0, 0, PN_GELU_TANH, 1e-5f));
  REFUSED(PN_ERR_NULL, pn_transformer_block_f32(F(0), F(1), NULL, bw, 2, 4, 2, 3, 0, 0, PN_GELU_TANH, 1e-5f));
  REFUSED(PN_ERR_NULL, pn_transformer_block_f32(F(0), F(1), data, NULL, 2, 4, 2, 3, 0, 0, PN_GELU_TANH, 1e-5f));
  const int32_t over_tokens[] = {0, -1, INT32_MIN, 513, INT32_MAX}, over_d[] = {0, -1, INT32_MIN, 1025, INT32_MAX};
  const int32_t over_heads[] = {0, -1, INT32_MIN, 5, INT32_MAX}, over_ff[] = {0, -1, INT32_MIN, 4097, INT32_MAX};
  for (int k = 0; k < 5; k++) {
    REFUSED(PN_ERR_SIZE, pn_transformer_block_f32(F(0), F(1), data, bw, over_tokens[k], 4, 2, 3, 0, 0, PN_GELU_TANH, 1e-5f));
    REFUSED(PN_ERR_SIZE, pn_transformer_block_f32(F(0), F(1), data, bw, 2, over_d[k], 1, 3, 0, 0, PN_GELU_TANH, 1e-5f));
    REFUSED(PN_ERR_SIZE, pn_transformer_block_f32(F(0), F(1), data, bw, 2, 4, over_heads[k], 3, 0, 0, PN_GELU_TANH, 1e-5f));
    REFUSED(PN_ERR_SIZE, pn_transformer_block_f32(F(0), F(1), data, bw, 2, 4, 2, over_ff[k], 0, 0, PN_GELU_TANH, 1e-5f));
  }
  REFUSED(PN_ERR_ARG, pn_transformer_block_f32(F(0), F(1), data, bw, 2, 4, 3, 3, 0, 0, PN_GELU_TANH, 1e-5f)); /* 3 does not divide 4 */
  const int32_t bad_enum[] = {-1, 2, INT32_MIN, INT32_MAX};
  for (int k = 0; k < 4; k++) {
    REFUSED(PN_ERR_ARG, pn_transformer_block_f32(F(0), F(1), data, bw, 2, 4, 2, 3, bad_enum[k], 0, PN_GELU_TANH, 1e-5f));
    REFUSED(PN_ERR_ARG, pn_transformer_block_f32(F(0), F(1), data, bw, 2, 4, 2, 3, 0, bad_enum[k], PN_GELU_TANH, 1e-5f));
  }
  for (int k = 0; k < NEPS; k++) REFUSED(PN_ERR_ARG, pn_transformer_block_f32(F(0), F(1), data, bw, 2, 4, 2, 3, 0, 0, PN_GELU_TANH, bad_eps[k]));
  ACCEPTED(pn_transformer_block_f32(F(0), F(1), data, bw, 2, 4, 2, 3, PN_PRE_NORM, PN_NORM_LAYER, PN_GELU_ERF, 1e-5f));
  for (int k = 0; k < 4; k++) REFUSED(PN_ERR_ARG, pn_transformer_block_f32(F(0), F(1), data, bw, 2, 4, 2, 3, 0, 0, bad_gelu[k], 1e-5f));
}

/* ---- boundaries ------------------------------------------------------- */

/* Kernels with scratch: each at the shapes where its scratch (the header's
 * formula, in uint64) or a tensor's count sits just below and just above
 * 2^28 values, 2^31 bytes and 2^32 bytes. */
static uint64_t grad_scratch(uint64_t rows, uint64_t width, uint64_t layers) {
  return 8 * rows * width * (3 * layers + 5) + 8 * rows * (layers + 1);
}

/* The largest gradient-stack scratch the limits allow (the header's
 * claim), searched over every width and depth at the most rows the limits
 * leave: rows <= 4096, rows·width·(layers + 1) <= 2^28, layers·width²
 * (twice with a memory) <= 2^28, 3·layers·width²·(rows + memory) <= 2^32. */
static void largest_grad_scratch(uint64_t *bytes, int32_t shape[4]) {
  *bytes = 0;
  for (uint64_t mem = 0; mem <= 1; mem++)
    for (uint64_t w = 1; w <= 4096; w++)
      for (uint64_t L = 1; L <= 1024; L++) {
        if (L * w * w * (1 + mem) > (1ull << 28)) break;
        uint64_t r = 4096;
        const uint64_t by_work = (1ull << 32) / (3 * L * w * w);
        if (by_work <= mem) break;
        if (by_work - mem < r) r = by_work - mem;
        if ((1ull << 28) / (w * (L + 1)) < r) r = (1ull << 28) / (w * (L + 1));
        if (r < 1) continue;
        const uint64_t b = grad_scratch(r, w, L) + 8 * w * mem;
        if (b > *bytes) {
          *bytes = b;
          shape[0] = (int32_t)r, shape[1] = (int32_t)w, shape[2] = (int32_t)L, shape[3] = (int32_t)mem;
        }
      }
}

static void boundary_scratch_kernels(void) {
  kernel = "pn_residual_stack_grad_f32 (boundaries)";
  /* PN_MAX_WORK (3·layers·width²·rows multiply-adds <= 2^32) keeps the
   * scratch below 2^31 bytes: its largest within the limits is 4096 rows
   * of 18, 1024 layers, with a memory (1 848 475 792 bytes, the header's
   * 1.85e9; a review found the header's 1.65e9 at 4096 × 16 was not the
   * largest). The kernel takes that shape and asks for exactly that much.
   * The shapes that took it past 2^31 and 2^32 bytes before (4096 wide, 4
   * and 9 layers; the 2713 × 64 with 1024 layers; 4096² with 15)
   * are past the work limit now. */
  uint64_t largest;
  int32_t at[4];
  largest_grad_scratch(&largest, at);
  CHECK(largest == 1848475792u && at[0] == 4096 && at[1] == 18 && at[2] == 1024 && at[3] == 1,
        "the largest grad scratch within the limits is the header's");
  CHECK(largest < (1ull << 31), "the largest grad scratch below 2^31 bytes");
  SCRATCH("memory, 4096 × 18, 1024 layers (the largest scratch)", largest,
          pn_residual_stack_grad_f32(F(0), D(1), F(2), F(3), data, data, data, data, 1024, 4096, 18, PN_BLOCK_POST_LN, PN_GELU_TANH, 1.0f));
  SCRATCH("4096 × 16, 1024 layers", grad_scratch(4096, 16, 1024),
          pn_residual_stack_grad_f32(F(0), D(1), F(2), F(3), data, data, NULL, data, 1024, 4096, 16, PN_BLOCK_POST_LN, PN_GELU_TANH, 1.0f));
  const int32_t past[][3] = {{3855, 4096, 4}, {4096, 4096, 9}, {2713, 64, 1024}, {4096, 4096, 15}, {4096, 4096, 1}};
  for (int k = 0; k < 5; k++) BOUNDARY(PN_ERR_SIZE, pn_residual_stack_grad_f32(F(0), D(1), F(2), F(3), data, data, NULL, data, past[k][2], past[k][0], past[k][1], 0, PN_GELU_TANH, 1.0f));
  /* the work limit's edge: 3·1024·64²·341 = 2^32 - 1048576, 342 rows past
   * it; with a memory, rows + 1 */
  SCRATCH("341 × 64, 1024 layers (at the work limit)", grad_scratch(341, 64, 1024),
          pn_residual_stack_grad_f32(F(0), D(1), F(2), F(3), data, data, NULL, data, 1024, 341, 64, PN_BLOCK_PRE_RMS, PN_GELU_TANH, 1.0f));
  BOUNDARY(PN_ERR_SIZE, pn_residual_stack_grad_f32(F(0), D(1), F(2), F(3), data, data, NULL, data, 1024, 342, 64, 0, PN_GELU_TANH, 1.0f));
  SCRATCH("memory, 340 × 64, 1024 layers (at the work limit)", grad_scratch(340, 64, 1024) + 8 * 64,
          pn_residual_stack_grad_f32(F(0), D(1), F(2), F(3), data, data, data, data, 1024, 340, 64, PN_BLOCK_POST_LN, PN_GELU_ERF, 1.0f));
  BOUNDARY(PN_ERR_SIZE, pn_residual_stack_grad_f32(F(0), D(1), F(2), F(3), data, data, data, data, 1024, 341, 64, 0, PN_GELU_TANH, 1.0f));
  SCRATCH("1 × 512, 1024 layers", grad_scratch(1, 512, 1024),
          pn_residual_stack_grad_f32(F(0), D(1), F(2), F(3), data, data, NULL, data, 1024, 1, 512, PN_BLOCK_PRE_RMS, PN_GELU_TANH, 1.0f));
  /* one past: 2^28 + 2^24 activations, 2^28 + 1024·1025 weights */
  BOUNDARY(PN_ERR_SIZE, pn_residual_stack_grad_f32(F(0), D(1), F(2), F(3), data, data, NULL, data, 16, 4096, 4096, 0, PN_GELU_TANH, 1.0f));
  BOUNDARY(PN_ERR_SIZE, pn_residual_stack_grad_f32(F(0), D(1), F(2), F(3), data, data, NULL, data, 1024, 1, 513, 0, PN_GELU_TANH, 1.0f));
  /* with a memory the weights are 2·layers·width²: past 2^28 at 9 layers of 4096², 17 of 2896² */
  BOUNDARY(PN_ERR_SIZE, pn_residual_stack_grad_f32(F(0), D(1), F(2), F(3), data, data, data, data, 9, 1, 4096, 0, PN_GELU_TANH, 1.0f));
  BOUNDARY(PN_ERR_SIZE, pn_residual_stack_grad_f32(F(0), D(1), F(2), F(3), data, data, data, data, 17, 1, 2896, 0, PN_GELU_TANH, 1.0f));

  kernel = "pn_residual_stack_f32 (boundaries)";
  /* scratch 4·(3·rows·width + width); work layers·width²·rows (rows + 1
   * with a memory) <= 2^32: 4096 rows of 1024 in one layer is 2^32 exactly */
  SCRATCH("1 × 512, 1024 layers", 4ull * (3 * 512 + 512), pn_residual_stack_f32(F(0), data, data, NULL, 1024, 1, 512, 0, PN_GELU_TANH, 1.0f));
  SCRATCH("4096 × 1024, 1 layer (2^32 multiply-adds)", 4ull * (3ull * 4096 * 1024 + 1024), pn_residual_stack_f32(F(0), data, data, NULL, 1, 4096, 1024, 0, PN_GELU_TANH, 1.0f));
  BOUNDARY(PN_ERR_SIZE, pn_residual_stack_f32(F(0), data, data, NULL, 2, 4096, 1024, 0, PN_GELU_TANH, 1.0f));
  SCRATCH("memory, 4095 × 1024, 1 layer (2^32)", 4ull * (3ull * 4095 * 1024 + 1024), pn_residual_stack_f32(F(0), data, data, data, 1, 4095, 1024, PN_BLOCK_POST_LN, PN_GELU_ERF, 1.0f));
  BOUNDARY(PN_ERR_SIZE, pn_residual_stack_f32(F(0), data, data, data, 1, 4096, 1024, 0, PN_GELU_TANH, 1.0f));
  SCRATCH("1 × 512, memory, 512 layers", 4ull * (3 * 512 + 512), pn_residual_stack_f32(F(0), data, data, data, 512, 1, 512, PN_BLOCK_PRE_LN, PN_GELU_ERF, 1.0f));
  BOUNDARY(PN_ERR_SIZE, pn_residual_stack_f32(F(0), data, data, NULL, 1024, 1, 513, 0, PN_GELU_TANH, 1.0f));
  BOUNDARY(PN_ERR_SIZE, pn_residual_stack_f32(F(0), data, data, NULL, 17, 4096, 4096, 0, PN_GELU_TANH, 1.0f));
  BOUNDARY(PN_ERR_SIZE, pn_residual_stack_f32(F(0), data, data, NULL, 1, 4096, 4096, 0, PN_GELU_TANH, 1.0f)); /* work 2^36 */
  /* with a memory the weights are twice as many: 9 layers of 4096² (and
   * 513 of 512²) pass 2^28 though they fit without one */
  BOUNDARY(PN_ERR_SIZE, pn_residual_stack_f32(F(0), data, data, data, 9, 1, 4096, 0, PN_GELU_TANH, 1.0f));
  BOUNDARY(PN_ERR_SIZE, pn_residual_stack_f32(F(0), data, data, data, 513, 1, 512, 0, PN_GELU_TANH, 1.0f));

  kernel = "pn_transformer_block_f32 (boundaries)";
  /* attn [heads × tokens × tokens] at 2^28 values (1024 heads, 512 tokens);
   * scratch 8·(12·T·d + T + T·d_ff) */
  SCRATCH("512 tokens, d 1024, 1024 heads, d_ff 4096", 8ull * (12ull * 512 * 1024 + 512 + 512ull * 4096),
          pn_transformer_block_f32(F(0), F(1), data, data, 512, 1024, 1024, 4096, 0, 0, PN_GELU_TANH, 1e-5f));
  SCRATCH("1 token, d 1, 1 head, d_ff 1", 8ull * (12 + 1 + 1), pn_transformer_block_f32(F(0), F(1), data, data, 1, 1, 1, 1, 1, 1, PN_GELU_TANH, 0.0f));
  BOUNDARY(PN_ERR_SIZE, pn_transformer_block_f32(F(0), F(1), data, data, 513, 1024, 1024, 4096, 0, 0, PN_GELU_TANH, 1e-5f));
  BOUNDARY(PN_ERR_SIZE, pn_transformer_block_f32(F(0), F(1), data, data, 512, 1025, 1025, 4096, 0, 0, PN_GELU_TANH, 1e-5f));
  BOUNDARY(PN_ERR_SIZE, pn_transformer_block_f32(F(0), F(1), data, data, 512, 1024, 1024, 4097, 0, 0, PN_GELU_TANH, 1e-5f));

  kernel = "pn_attention_f32 (boundaries)";
  /* scratch 24·S·dh + 8·S + 8·S·dm; work S·dh·(3·dm + 2·S) <= 2^32:
   * S 1024, dm 2048, dh 512 is 2^32 exactly, dh 513 past it, and so are
   * the size limits' corners (4096 each: 2^38) */
  SCRATCH("1024, 2048, 512 (2^32 multiply-adds)", 24ull * 1024 * 512 + 8 * 1024 + 8ull * 1024 * 2048,
          pn_attention_f32(F(0), F(1), data, data, data, data, 1024, 2048, 512));
  SCRATCH("4096, 1, 127", 24ull * 4096 * 127 + 8 * 4096 + 8ull * 4096, pn_attention_f32(F(0), NULL, data, data, data, data, 4096, 1, 127));
  BOUNDARY(PN_ERR_SIZE, pn_attention_f32(F(0), F(1), data, data, data, data, 1024, 2048, 513));
  BOUNDARY(PN_ERR_SIZE, pn_attention_f32(F(0), F(1), data, data, data, data, 4096, 4096, 4096));
  BOUNDARY(PN_ERR_SIZE, pn_attention_f32(F(0), F(1), data, data, data, data, 4096, 1, 128));
  BOUNDARY(PN_ERR_SIZE, pn_attention_f32(F(0), F(1), data, data, data, data, 4097, 4096, 4096));
  BOUNDARY(PN_ERR_SIZE, pn_attention_f32(F(0), F(1), data, data, data, data, 4096, 4097, 4096));
  BOUNDARY(PN_ERR_SIZE, pn_attention_f32(F(0), F(1), data, data, data, data, 4096, 4096, 4097));

  kernel = "pn_rope_f32 (boundaries)";
  /* x [1 × 16384 × 1 × 16384] = 2^28 values; scratch 8·seq_len·rotary_dim/2
   * (2^30 bytes), 24·rotary_dim/2 with position ids (one row, the float64
   * frequencies and their double-double rests; the ids are read before
   * allocating) */
  SCRATCH("2^28 values, no ids", 8ull * 16384 * 8192, pn_rope_f32(F(0), data, NULL, 1, 16384, 1, 16384, 16384, 1e4, 0, 0, 0));
  SCRATCH("2^28 values, ids", 24ull * 8192, pn_rope_f32(F(0), data, zeros, 1, 16384, 1, 16384, 16384, 1e4, 0, 1, 1));
  SCRATCH("[8192 × 16384 × 1 × 2]", 8ull * 16384, pn_rope_f32(F(0), data, NULL, 8192, 16384, 1, 2, 2, 1e4, 0, 0, 0));
  BOUNDARY(PN_ERR_SIZE, pn_rope_f32(F(0), data, NULL, 1, 16384, 1, 16385, 16384, 1e4, 0, 0, 0));
  BOUNDARY(PN_ERR_SIZE, pn_rope_f32(F(0), data, NULL, 8193, 16384, 1, 2, 2, 1e4, 0, 0, 0));
  BOUNDARY(PN_ERR_SIZE, pn_rope_f32(F(0), data, NULL, 1, 32768, 1, 16384, 16384, 1e4, 0, 0, 0)); /* 2^31 bytes */
  BOUNDARY(PN_ERR_SIZE, pn_rope_f32(F(0), data, NULL, 1, 65536, 1, 16384, 16384, 1e4, 0, 0, 0)); /* 2^32 bytes */

  kernel = "pn_rope_scaled_f32 (boundaries)";
  /* scratch 8·batch·seq_len·rotary_dim/2 */
  SCRATCH("2^28 values, rotary 16384", 8ull * 16384 * 8192, pn_rope_scaled_f32(F(0), data, NULL, inv_ok, 1.0, 1, 16384, 1, 16384, 16384, 0, 0, 0));
  SCRATCH("2^27 tokens, rotary 2", 8ull * 8192 * 16384, pn_rope_scaled_f32(F(0), data, NULL, inv_ok, 1.0, 8192, 16384, 1, 2, 2, 0, 0, 0));
  SCRATCH("2^28 values, ids", 8ull * 16384 * 8192, pn_rope_scaled_f32(F(0), data, zeros, inv_ok, 1.0, 1, 16384, 1, 16384, 16384, 0, 0, 0));
  SCRATCH("2^28 values, ids, rests", 8ull * 16384 * 8192, pn_rope_scaled_dd_f32(F(0), data, zeros, inv_ok, lo_zero, 1.0, 1, 16384, 1, 16384, 16384, 0, 0, 0));
  BOUNDARY(PN_ERR_SIZE, pn_rope_scaled_f32(F(0), data, NULL, inv_ok, 1.0, 1, 16384, 1, 16385, 16384, 0, 0, 0));
  BOUNDARY(PN_ERR_SIZE, pn_rope_scaled_f32(F(0), data, NULL, inv_ok, 1.0, 8193, 16384, 1, 2, 2, 0, 0, 0));
  BOUNDARY(PN_ERR_SIZE, pn_rope_scaled_f32(F(0), data, NULL, inv_ok, 1.0, 1, 65536, 1, 16384, 16384, 0, 0, 0));
}

/* Kernels without scratch: 2^28 values exactly must pass the size checks
 * (shown without computing a GiB: an invalid scalar checked after the sizes
 * turns the call into PN_ERR_ARG), one more must not (PN_ERR_SIZE), and so
 * must the shapes at 2^31 and 2^32 bytes and those whose 32-bit products
 * wrap. pn_alibi_bias_f32, pn_gram_f32, pn_min_row_distance_f32 and
 * pn_copy_f32 have no such scalar: their 2^28 acceptance is the shared
 * pn_count2 (test_size_helpers), their refusals are here. */
static void boundary_counts(void) {
  static const int32_t at2[][2] = {{16384, 16384}, {1, PN_MAX_ELEMENTS}, {PN_MAX_ELEMENTS, 1}, {8192, 32768}};
  for (int k = 0; k < 4; k++) {
    const int32_t r = at2[k][0], c = at2[k][1];
    kernel = "2^28 values";
    BOUNDARY(PN_ERR_ARG, pn_layernorm_f32(F(0), F(1), F(2), data, NULL, NULL, r, c, -1.0f));
    BOUNDARY(PN_ERR_ARG, pn_rmsnorm_f32(F(0), F(1), data, NULL, r, c, -1.0f));
    BOUNDARY(PN_ERR_ARG, pn_batchnorm_train_f32(F(0), F(1), F(2), F(3), F(4), data, NULL, NULL, r, c, -1.0f, 0.5f));
    BOUNDARY(PN_ERR_ARG, pn_batchnorm_infer_f32(F(0), data, NULL, NULL, data, data, r, c, -1.0f));
    BOUNDARY(PN_ERR_ARG, pn_pe_sinusoidal_f32(F(0), r, c, 1.0, 0, 0));
    BOUNDARY(PN_ERR_ARG, pn_pe_float32_code_f32(F(0), r, c, 1.0, 0, 0));
  }
  for (int k = 0; k < NOVER2; k++) {
    const int32_t r = over2[k][0], c = over2[k][1];
    kernel = "past 2^28 values";
    BOUNDARY(PN_ERR_SIZE, pn_layernorm_f32(F(0), F(1), F(2), data, NULL, NULL, r, c, -1.0f));
    BOUNDARY(PN_ERR_SIZE, pn_rmsnorm_f32(F(0), F(1), data, NULL, r, c, -1.0f));
    BOUNDARY(PN_ERR_SIZE, pn_batchnorm_train_f32(F(0), F(1), F(2), F(3), F(4), data, NULL, NULL, r, c, -1.0f, 0.5f));
    BOUNDARY(PN_ERR_SIZE, pn_batchnorm_infer_f32(F(0), data, NULL, NULL, data, data, r, c, -1.0f));
    BOUNDARY(PN_ERR_SIZE, pn_pe_sinusoidal_f32(F(0), r, c, 1.0, 0, 0));
    BOUNDARY(PN_ERR_SIZE, pn_pe_float32_code_f32(F(0), r, c, 1.0, 0, 0));
  }
  kernel = "1-D counts at and past 2^28";
  const int32_t n_at = PN_MAX_ELEMENTS, n_past = PN_MAX_ELEMENTS + 1;
  BOUNDARY(PN_ERR_ARG, pn_layernorm_steps_f32(F(0), F(1), F(2), F(3), data, NULL, NULL, n_at, -1.0f));
  BOUNDARY(PN_ERR_SIZE, pn_layernorm_steps_f32(F(0), F(1), F(2), F(3), data, NULL, NULL, n_past, -1.0f));
  BOUNDARY(PN_ERR_ARG, pn_pe_sample_f32(F(0), n_at, 0.0, 1.0, 8, 8, 1e4));
  BOUNDARY(PN_ERR_SIZE, pn_pe_sample_f32(F(0), n_past, 0.0, 1.0, 8, 8, 1e4));
  BOUNDARY(PN_ERR_ARG, pn_random_normal_f32(F(0), n_at, 1, 0.0, -1.0));
  BOUNDARY(PN_ERR_SIZE, pn_random_normal_f32(F(0), n_past, 1, 0.0, -1.0));
  BOUNDARY(PN_ERR_ARG, pn_histogram_f32(U(0), U(1), data, n_at, 4, 1.0f, 1.0f));
  BOUNDARY(PN_ERR_SIZE, pn_histogram_f32(U(0), U(1), data, n_past, 4, 1.0f, 1.0f));
  BOUNDARY(PN_ERR_ARG, pn_colormap_rgba8(B(0), data, n_at, 1.0f, 1.0f, 0)); /* 2^30 bytes of RGBA */
  BOUNDARY(PN_ERR_SIZE, pn_colormap_rgba8(B(0), data, n_past, 1.0f, 1.0f, 0));
  BOUNDARY(PN_ERR_ARG, pn_pe_shift_f32(F(0), data, n_at, 1.0, 1));
  BOUNDARY(PN_ERR_SIZE, pn_pe_shift_f32(F(0), data, n_at + 2, 1.0, 1));
  BOUNDARY(PN_ERR_SIZE, pn_copy_f32(F(0), data, n_past));
  BOUNDARY(PN_ERR_SIZE, pn_alibi_bias_f32(F(0), 1, 16385));
  BOUNDARY(PN_ERR_SIZE, pn_alibi_bias_f32(F(0), 1025, 512));
  BOUNDARY(PN_ERR_SIZE, pn_gram_f32(F(0), data, 8192, 32769));
  BOUNDARY(PN_ERR_SIZE, pn_min_row_distance_f32(F(0), I(1), data, 8192, 32769));
  kernel = "RoPE at and past 2^28";
  BOUNDARY(PN_ERR_ARG, pn_rope_f32(F(0), data, NULL, 1, 16384, 1, 16384, 16384, 1e4, 0, 0, 2));
  BOUNDARY(PN_ERR_ARG, pn_rope_cache_f32(F(0), data, data, data, NULL, 16384, 1, 16384, 1, 16384, 16384, 0, 2));
  /* a 2-D cache of 2^28 rows (rotary_dim 2): only the rows the ids name are
   * read, so this runs for real on a [6 × 1 × 2] tensor */
  kernel = "pn_rope_cache_f32 (2^28 cache rows)";
  boundaries++;
  ACCEPTED(pn_rope_cache_f32(F(0), data, data + 400, data + 500, zeros, PN_MAX_ELEMENTS, 1, 6, 1, 2, 2, 0, 0));
  BOUNDARY(PN_ERR_SIZE, pn_rope_cache_f32(F(0), data, data + 400, data + 500, zeros, PN_MAX_ELEMENTS + 1, 1, 6, 1, 2, 2, 0, 0));
}

void test_safety(void) {
  for (int k = 0; k < SLOTS; k++) {
    slot[k] = malloc(SLOT_BYTES);
    if (!slot[k]) abort();
  }
  for (int k = 0; k < 8192; k++) {
    data[k] = (float)sin(0.7 * k + 0.1);
    inv_ok[k] = 1.0 / (k + 1.0);
  }
  const pn_alloc_counter start = pn_alloc_stats;
  test_size_helpers();
  regression_validate_before_alloc();
  regression_rope_frequencies();
  regression_stack_grad_scratch();
  regression_pn_log_total();
  refusals = 0;
  sentinel_pe();
  sentinel_norms();
  sentinel_rope();
  sentinel_lowprec();
  sentinel_rope_frequencies();
  sentinel_alibi_figures();
  sentinel_article();
  const int sentinel_refusals = refusals;
  boundary_scratch_kernels();
  boundary_counts();
  CHECK(pn_alloc_stats.allocs - start.allocs == pn_alloc_stats.frees - start.frees, "every allocation freed");
  printf("sentinels: %d kernels, %d invalid-argument cases; boundaries: %d cases; allocations: %zu requests, %zu refused, %zu allocs, %zu frees\n",
         kernels, sentinel_refusals, boundaries, pn_alloc_stats.requests - start.requests,
         pn_alloc_stats.refused - start.refused, pn_alloc_stats.allocs - start.allocs, pn_alloc_stats.frees - start.frees);
  for (int k = 0; k < SLOTS; k++) free(slot[k]);
}
