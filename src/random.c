/* random.c — reproducible normal random numbers (see posnorm.h).
 * Only integer operations and IEEE + - * / sqrt are used, so the sequence is
 * the same on every platform and in every build. */
#include <string.h>

#include "pn_internal.h"

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

/* Natural log from + - * / only: x = m·2^e, m in [sqrt(1/2), sqrt(2)),
 * ln m = 2·atanh(z), z = (m-1)/(m+1), |z| < 0.172, series to z^23
 * (truncation < 1e-19), ln 2 split in two parts so e·ln 2 stays exact.
 * m and e are read from the bits of x in O(1) (a subnormal is first scaled
 * by 2^54, exactly): the same m and e the former loop of halvings and
 * doublings reached, so the same bits for every x > 0. */
double pn_log(double x) {
  if (!(x > 0.0)) return x == 0.0 ? -INFINITY : NAN; /* ±0; x < 0 and NaN */
  if (x == INFINITY) return x;
  int e = 0;
  if (x < 0x1p-1022) { /* subnormal */
    x *= 0x1p54;
    e = -54;
  }
  uint64_t bits;
  memcpy(&bits, &x, sizeof bits);
  e += (int)(bits >> 52) - 1023;                       /* x = m0·2^e, m0 in [1, 2) */
  bits = (bits & 0x000FFFFFFFFFFFFFull) | 0x3FF0000000000000ull;
  memcpy(&x, &bits, sizeof x);
  if (x >= 1.4142135623730951) { /* into [sqrt(1/2), sqrt(2)) */
    x *= 0.5;
    e++;
  }
  const double z = (x - 1.0) / (x + 1.0), z2 = z * z;
  double term = z, acc = 0.0;
  for (int k = 1; k <= 23; k += 2) {
    acc += term / (double)k;
    term *= z2;
  }
  return (double)e * 0.693147180369123816490 + (2.0 * acc + (double)e * 1.90821492927058770002e-10);
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
