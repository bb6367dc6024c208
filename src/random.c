/* random.c — reproducible normal random numbers (see posnorm_figures.h).
 * Only integer operations and IEEE + - * / sqrt are used, so the sequence is
 * the same on every platform and in every build. */
#include "pn_internal.h"
#include "pn_math.h"
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

int pn_random_normal_f32(float *out, int32_t n, uint32_t seed, double mean,
                         double std) {
  if (!out) return PN_ERR_NULL;
  if (!pn_count2(n, 1)) return PN_ERR_SIZE;
  if (!isfinite(mean) || !isfinite(std) || !(std >= 0.0)) return PN_ERR_ARG;
  uint32_t st = seed, s[4];
  for (int k = 0; k < 4; k++) s[k] = splitmix32(&st);
  int32_t k = 0;
  while (k < n) {
    double a, b, q;
    do {
      a = uniform_pm1(s);
      b = uniform_pm1(s);
      q = a * a + b * b;
    } while (q >= 1.0 || q == 0.0);
    const double f = sqrt(-2.0 * pn_log(q) / q);
    out[k++] = (float)(mean + std * (a * f));
    if (k < n) out[k++] = (float)(mean + std * (b * f));
  }
  return PN_OK;
}
