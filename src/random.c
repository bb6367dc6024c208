/* random.c — reproducible normal random numbers (see posnorm_figures.h).
 * Only integer operations and IEEE + - * / sqrt are used, so the sequence is
 * the same on every platform and in every build. */
#include "pn_internal.h"
#include "pn_math.h"
#include "pn_simd.h"
#include "posnorm_figures.h"

/* splitmix32 step (golden-ratio increment, murmur3 finaliser). */
static uint32_t splitmix32(uint32_t *state) {
  uint32_t z = (*state += 0x9E3779B9u);
  z = (z ^ (z >> 16)) * 0x85EBCA6Bu;
  z = (z ^ (z >> 13)) * 0xC2B2AE35u;
  return z ^ (z >> 16);
}

static uint32_t rotl32(uint32_t x, int k) { return (x << k) | (x >> (32 - k)); }

/* xoshiro128** next(). */
static uint32_t xoshiro128ss(uint32_t s[4]) {
  const uint32_t result = rotl32(s[1] * 5u, 7) * 9u;
  const uint32_t t = s[1] << 9;
  s[2] ^= s[0];
  s[3] ^= s[1];
  s[1] ^= s[2];
  s[0] ^= s[3];
  s[2] ^= t;
  s[3] = rotl32(s[3], 11);
  return result;
}

/* Uniform on (-1, 1): 2·((next >> 8) + 0.5)·2^-24 - 1. */
static double uniform_pm1(uint32_t s[4]) {
  return 2.0 * (((double)(xoshiro128ss(s) >> 8) + 0.5) * (1.0 / 16777216.0)) - 1.0;
}

/* Accepted pairs whose logs are taken together (an even number). */
#define PAIRS 4

int pn_random_normal_f32(float *out, int32_t n, uint32_t seed, double mean,
                         double std) {
  if (!out) return PN_ERR_NULL;
  if (!pn_count2(n, 1)) return PN_ERR_SIZE;
  if (!isfinite(mean) || !isfinite(std) || !(std >= 0.0)) return PN_ERR_ARG;
  uint32_t st = seed, s[4];
  for (int k = 0; k < 4; k++) s[k] = splitmix32(&st);
  int32_t k = 0;
  while (k < n) {
    /* up to PAIRS accepted pairs (a, b), drawn first and in the order one
     * pair at a time would draw them: a pair is drawn only while outputs
     * remain for it; then their logs, two at a time and with no branch
     * between them (pn_log_x2: a pair's rejection loop, mispredicted about
     * one time in five, had kept each log waiting on the one before) */
    double a[PAIRS], b[PAIRS], q[PAIRS];
    int pairs = 0;
    do {
      do {
        a[pairs] = uniform_pm1(s);
        b[pairs] = uniform_pm1(s);
        q[pairs] = a[pairs] * a[pairs] + b[pairs] * b[pairs];
      } while (q[pairs] >= 1.0 || q[pairs] == 0.0);
      pairs++;
    } while (pairs < PAIRS && k + 2 * pairs < n);
    for (int j = pairs; j < PAIRS; j++) q[j] = 0.5; /* lanes left unused */
    double f[PAIRS];
    for (int j = 0; j < PAIRS; j += 2) {
      /* f = sqrt(-2·ln q / q), lane by lane */
      const pn_f64x2 vq = pn_f64x2_load(q + j);
      pn_f64x2_store(f + j, pn_f64x2_sqrt(pn_f64x2_div(
                                pn_f64x2_mul(pn_f64x2_splat(-2.0), pn_log_x2(vq)), vq)));
    }
    for (int j = 0; j < pairs; j++) {
      out[k++] = (float)(mean + std * (a[j] * f[j]));
      if (k < n) out[k++] = (float)(mean + std * (b[j] * f[j]));
    }
  }
  return PN_OK;
}
