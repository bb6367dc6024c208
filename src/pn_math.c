/* pn_math.c — the natural log, the power and the PE frequency that PE,
 * RoPE, RoPE scaling, ALiBi and the random normals share (pn_math.h). */
/* sincos() is a GNU/BSD extension of <math.h> (musl's in the wasm builds,
 * glibc's in the native ones): declared only with _GNU_SOURCE */
#define _GNU_SOURCE
#include "pn_math.h"

#include "pn_internal.h" /* pn_sincos_calls (test builds) */

#include <math.h>

/* Natural log from + - * / only: x = m·2^e, m in [sqrt(1/2), sqrt(2)),
 * ln m = 2·atanh(z), z = (m-1)/(m+1), |z| < 0.172, series to z^23
 * (truncation < 1e-19), ln 2 split in two parts so e·ln 2 stays exact.
 * m and e are read from the bits of x in O(1) (a subnormal is first scaled
 * by 2^54, exactly): the same m and e the former loop of halvings and
 * doublings reached, so the same bits for every x > 0. Both steps are
 * pn_math.h's (pn_log_reduce, pn_log_x2), shared with the random normals,
 * which take their logs two at a time. */
double pn_log(double x) {
  if (!(x > 0.0)) return x == 0.0 ? -INFINITY : NAN; /* ±0; x < 0 and NaN */
  if (x == INFINITY) return x;
  return pn_f64x2_lo(pn_log_x2(pn_f64x2_splat(x)));
}

double pn_pow_pos(double b, double e) { return exp(e * pn_log(b)); }

double pn_pe_frequency(double log_base, int32_t i, int32_t dims) {
  return exp(-2.0 * (double)i / (double)dims * log_base);
}

/* ---- dd arithmetic (pn_math.h) ----------------------------------------
 * Textbook error-free transformations (Dekker 1971; Knuth, TAOCP 2,
 * 4.2.2; Shewchuk 1997), with + - * / only: the compiler must not contract
 * them into fma (build.sh: -ffp-contract=off) nor reassociate them (no
 * -ffast-math). Results through a pointer (which may be an operand) and a
 * second operand as two doubles: a pn_dd passed or returned by value costs
 * the wasm a copy through the stack at every call, and this code's bytes
 * count against the wasm budget. */

/* *r = s + e = a + b exactly, |a| >= |b| (or a = 0) */
static void fast_two_sum(pn_dd *r, double a, double b) {
  const double s = a + b;
  r->lo = b - (s - a);
  r->hi = s;
}

/* *r = p + e = a·b exactly (Veltkamp's split into 26 + 27 bits, Dekker's
 * product), for |a|, |b| < 2^996 and no underflow of e */
static void two_prod(pn_dd *r, double a, double b) {
  const double ca = 134217729.0 * a, cb = 134217729.0 * b; /* 2^27 + 1 */
  const double ah = ca - (ca - a), al = a - ah;
  const double bh = cb - (cb - b), bl = b - bh;
  const double p = a * b;
  r->lo = ((ah * bh - p) + ah * bl + al * bh) + al * bl;
  r->hi = p;
}

/* *r = a·(bh + bl), within about 2^-104 relative */
void pn_dd_mul(pn_dd *r, const pn_dd *a, double bh, double bl) {
  pn_dd p;
  two_prod(&p, a->hi, bh);
  fast_two_sum(r, p.hi, p.lo + (a->hi * bl + a->lo * bh));
}

/* *r = a/(bh + bl), within about 2^-104 relative: q = a.hi/bh, then
 * (a - q·(bh + bl))/bh, with q·bh exact (bl = 0: the bits it gave before
 * it took bl, q·0 being ±0) */
void pn_dd_div(pn_dd *r, const pn_dd *a, double bh, double bl) {
  const double q = a->hi / bh;
  pn_dd p;
  two_prod(&p, q, bh);
  fast_two_sum(r, q, ((((a->hi - p.hi) - p.lo) + a->lo) - q * bl) / bh);
}

/* *r = a + (bh + bl), within about 2^-105·(|a| + |b|): for operands of one
 * sign, or one much smaller than the other, or bl = 0 (every use here),
 * that is about the sum's own 2^-104; under heavy cancellation of two full
 * dds it is not (a.lo + bl is rounded once). The two-sum of the his is
 * Knuth's, for either order. */
void pn_dd_add(pn_dd *r, const pn_dd *a, double bh, double bl) {
  const double s = a->hi + bh, bb = s - a->hi;
  const double e = (a->hi - (s - bb)) + (bh - bb);
  fast_two_sum(r, s, e + (a->lo + bl));
}

/* *r·2^k = e^x, for a dd x with |x.hi| < 1400 (k apart, so nothing over-
 * or underflows here). x - k·ln2 with k = round(x/ln2) and ln 2 in three
 * parts, the first two of 42 bits (k·part exact for |k| < 2^11), from
 * mpmath at 300 bits:
 *   python3 -c "import mpmath as mp; mp.mp.prec = 300; L = mp.log(2)
 *     r = lambda x, b: mp.ldexp(mp.nint(mp.ldexp(mp.frexp(x)[0], b)), mp.frexp(x)[1] - b)
 *     c1 = r(L, 42); c2 = r(L - c1, 42); c3 = r(L - c1 - c2, 53)
 *     print(*(float(c).hex() for c in (c1, c2, c3)))"
 * (their sum is within 3.4e-44 of ln 2); then r/256 (|r/256| < 0.00136),
 * expm1 of it by Taylor to r^10/10! (the next term is below 1e-39), and
 * 8 squarings of 1 + m as m <- m·(2 + m), which keep m's relative
 * accuracy (1 + m itself would lose 2^8 times its rounding). About
 * 2^-100 relative. */
static int exp_dd(pn_dd *r, const pn_dd *x) {
  static const double ln2[3] = {0x1.62e42fefa3800p-1, 0x1.ef35793c76800p-45, -0x1.9ff0342542fc3p-90};
  const double k = floor(x->hi * 1.4426950408889634 + 0.5); /* 1/ln 2 */
  pn_dd m = *x, t, u;
  for (int n = 0; n < 3; n++) pn_dd_add(&m, &m, -k * ln2[n], 0.0);
  m.hi *= 0x1p-8;
  m.lo *= 0x1p-8;
  t = m;
  const pn_dd y = m;
  for (int n = 2; n <= 10; n++) {
    pn_dd_mul(&t, &t, y.hi, y.lo);
    pn_dd_div(&t, &t, (double)n, 0.0);
    pn_dd_add(&m, &m, t.hi, t.lo);
  }
  for (int n = 0; n < 8; n++) {
    pn_dd_add(&u, &m, 2.0, 0.0);
    pn_dd_mul(&m, &m, u.hi, u.lo);
  }
  pn_dd_add(r, &m, 1.0, 0.0);
  return (int)k;
}

/* ln x as a dd, x > 0 finite: two Newton steps L <- L + (x·e^-L - 1) from
 * pn_log(x), e^-L in dd; within about 1e-31 absolute for x of about 1e-30
 * to 1e30 (about |ln x|·1e-33 beyond: measured 8e-31 at 2^1024). */
void pn_log_dd(pn_dd *L, double x) {
  pn_dd e;
  L->hi = pn_log(x);
  L->lo = 0.0;
  for (int n = 0; n < 2; n++) {
    /* Newton's step for e^L = x: L + (x·e^-L - 1), with e^-L = 2^k·e and
     * x·2^k exact (x normal, x·2^k about 1), the -1 exact in dd */
    e.hi = -L->hi;
    e.lo = -L->lo;
    const int k = exp_dd(&e, &e);
    pn_dd_mul(&e, &e, ldexp(x, k), 0.0);
    pn_dd_add(&e, &e, -1.0, 0.0);
    pn_dd_add(L, L, e.hi, e.lo);
  }
}

/* *r = e^x, scaled back (its lo may lose bits below 2^-1022) */
static void exp_dd_scaled(pn_dd *r, const pn_dd *x) {
  const int k = exp_dd(r, x);
  r->hi = ldexp(r->hi, k);
  r->lo = ldexp(r->lo, k);
}

const pn_dd *pn_freq_dd_w(pn_freq_dd *f, int32_t i) {
  if (f->i == -2) { /* the first rest: ln base and the step */
    pn_log_dd(&f->x2, f->base);
    pn_dd_mul(&f->x2, &f->x2, -2.0, 0.0);
    pn_dd_div(&f->x2, &f->x2, (double)f->dims, 0.0);
    exp_dd_scaled(&f->step, &f->x2);
    f->i = -1;
  }
  if (f->i < 0 || i < f->i || i / PN_FREQ_BLOCK != f->i / PN_FREQ_BLOCK) {
    /* from the block's first pair b, then step by step up to i (a pair
     * further on in the same block steps on from the last one: the same
     * products in the same order) */
    const int32_t b = i - i % PN_FREQ_BLOCK;
    pn_dd x;
    pn_dd_mul(&x, &f->x2, (double)b, 0.0);
    exp_dd_scaled(&f->w, &x);
    f->i = b;
  }
  /* the steps, dd_mul's operations in scalars (f->w in memory through
   * dd_mul cost a RoPE call with 4096 pairs near 2^31 about 10 %) */
  double wh = f->w.hi, wl = f->w.lo;
  const double sh = f->step.hi, sl = f->step.lo;
  const double cs = 134217729.0 * sh, shh = cs - (cs - sh), shl = sh - shh;
  for (; f->i < i; f->i++) {
    const double cw = 134217729.0 * wh, whh = cw - (cw - wh), whl = wh - whh;
    const double p = wh * sh;
    const double e = (((whh * shh - p) + whh * shl + whl * shh) + whl * shl) + (wh * sl + wl * sh);
    wh = p + e;
    wl = e - (wh - p);
  }
  f->w.hi = wh;
  f->w.lo = wl;
  return &f->w;
}

double pn_freq_dd_rest(pn_freq_dd *f, int32_t i, double w, const double *k) {
  pn_dd v = *pn_freq_dd_w(f, i);
  if (k) { /* w_i·(a/k[1] + 1 - a), a = k[0] + k[2] */
    pn_dd q = {k[0], k[2]};
    pn_dd_div(&q, &q, k[1], 0.0);
    pn_dd_add(&q, &q, -k[0], -k[2]);
    pn_dd_add(&q, &q, 1.0, 0.0);
    pn_dd_mul(&v, &v, q.hi, q.lo);
  }
  /* a quotient k[0]/k[1] past 2^996 overflows the splits (NaN): no rest */
  const double r = (v.hi - w) + v.lo;
  return isfinite(r) ? r : 0.0;
}

#ifdef PN_COUNT_ALLOC
size_t pn_sincos_calls = 0;
#define COUNT_SINCOS() (pn_sincos_calls++)
#else
#define COUNT_SINCOS() ((void)0)
#endif

void pn_sincos(double a, double *s, double *c) {
  COUNT_SINCOS();
  sincos(a, s, c);
}

void pn_sincos_dd(double p, double w, double w_lo, double t, double *s, double *c) {
  if (!isfinite(t)) { /* NaN or ±Inf: as before */
    pn_sincos(t, s, c);
    return;
  }
  /* t + e = p·w exactly (Veltkamp, Dekker), then θ = h + l = t + (e + p·w_lo);
   * in scalars, not pn_dds (a pn_dd whose address is taken lives in memory) */
  const double cp = 134217729.0 * p, cw = 134217729.0 * w;
  const double ph = cp - (cp - p), pl = p - ph, wh = cw - (cw - w), wl = w - wh;
  const double e = (((ph * wh - t) + ph * wl + pl * wh) + pl * wl) + p * w_lo;
  const double h = t + e, l = e - (h - t);
  double sh, ch;
  pn_sincos(h, &sh, &ch);
  if (!(fabs(t) < 0x1p41)) {
    /* past 2^41 (a scaled frequency above 1024: a linear factor under
     * 1/1024), |l| <= ulp(h)/2 may pass 2^-12, where the polynomials below
     * would not do: sin and cos of l itself, and the angle sum */
    double sl, cl;
    pn_sincos(l, &sl, &cl);
    *s = sh * cl + ch * sl;
    *c = ch * cl - sh * sl;
    return;
  }
  const double l2 = l * l;
  const double sl = l - l * l2 * (1.0 / 6.0), hl = 0.5 * l2;
  *s = sh + (ch * sl - sh * hl);
  *c = ch - (sh * sl + ch * hl);
}
