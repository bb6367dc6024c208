/* rope_scaling.c — RoPE frequencies as long-context models compute them
 * (Hugging Face transformers' rope_scaling types), and RoPE with them.
 * See posnorm.h for the formulas; everything is float64. */
#include <math.h>

#include "pn_internal.h"
#include "pn_math.h"

/* 0.1·mscale·ln(scale) + 1 for scale > 1, else 1 (YaRN's get_mscale). */
static double yarn_mscale(double scale, double mscale) {
  return scale <= 1.0 ? 1.0 : 0.1 * mscale * pn_log(scale) + 1.0;
}

/* The dimension index at which a pair completes `rotations` turns over
 * `positions` positions (YaRN's find_correction_dim). */
static double yarn_correction_dim(double rotations, int32_t dim, double base,
                                  double positions) {
  return ((double)dim * pn_log(positions / (rotations * 2.0 * PN_PI))) /
         (2.0 * pn_log(base));
}

/* yarn_correction_dim in dd, with ln base in dd (lb): the ramp's ends for
 * the rests (ln 2π = LN_2PI[0] + LN_2PI[1], from mpmath at 300 bits) */
static void yarn_correction_dd(pn_dd *r, double rotations, int32_t dim,
                               const pn_dd *lb, double positions) {
  static const double LN_2PI[2] = {0x1.d67f1c864beb5p+0, -0x1.65b5a1b7ff5dfp-54};
  pn_dd t;
  pn_log_dd(r, positions);
  pn_log_dd(&t, rotations);
  pn_dd_add(r, r, -t.hi, -t.lo);
  pn_dd_add(r, r, -LN_2PI[0], -LN_2PI[1]);
  pn_dd_mul(r, r, (double)dim, 0.0);
  pn_dd_div(r, r, 2.0 * lb->hi, 2.0 * lb->lo);
}

/* Whether a frequency's rest is past 2^-44·max(|w|, 2^-11): the float64 w
 * many ulps off (a narrow ramp or band), its rest taken at every angle
 * (scaled()). */
static int rest_is_large(double w, double lo) {
  return !(fabs(lo) <= 0x1p-44 * fmax(fabs(w), 0x1p-11));
}

/* What a scaling type needs to compute its frequencies, once validated. */
typedef struct {
  int32_t type, dim;
  double log_base;      /* ln of the base, grown for dynamic */
  double factor;
  double original;      /* original_max_position_embeddings */
  double low, high;     /* yarn: the ends of the ramp */
  pn_dd ends[2];        /* the rests' ramp from ends[0] to ends[1]: yarn's
                         * low and high in dd, llama3's high_ff and low_ff */
  double low_ff, high_ff; /* llama3 */
  const double *ext;    /* longrope: the list seq_len selects */
} pn_scaling;

/* inv_freq[i] of a validated scaling (posnorm.h gives the formulas), and
 * in k[0], k[1] the coefficients (a, d) that make it w_i·(a/d + 1 - a):
 * the same formula with w_i factored out, for its double-double rest
 * (pn_freq_dd_rest; the float64 value is computed as before, not from
 * them). yarn's and llama3's a (the ramp, 1 - smooth) are left to the
 * rest's loop, which takes them in dd. */
static double scaled_frequency(const pn_scaling *sc, int32_t i, double k[2]) {
  const double w = pn_pe_frequency(sc->log_base, i, sc->dim);
  k[0] = 0.0;
  k[1] = sc->factor;
  switch (sc->type) {
  case PN_SCALING_LINEAR:
    k[0] = 1.0;
    return w / sc->factor;
  case PN_SCALING_YARN: {
    double ramp = ((double)i - sc->low) / (sc->high - sc->low);
    ramp = ramp < 0.0 ? 0.0 : ramp > 1.0 ? 1.0 : ramp;
    const double extrapolation = 1.0 - ramp;
    const double inter = w / sc->factor;
    return inter * (1.0 - extrapolation) + w * extrapolation;
  }
  case PN_SCALING_LLAMA3: {
    const double wavelen = 2.0 * PN_PI / w;
    const double low_wavelen = sc->original / sc->low_ff, high_wavelen = sc->original / sc->high_ff;
    double out = wavelen > low_wavelen ? w / sc->factor : w;
    if (!(wavelen < high_wavelen) && !(wavelen > low_wavelen)) {
      /* out is w here: (1 - smooth)·w/factor + smooth·w */
      const double smooth = (sc->original / wavelen - sc->low_ff) / (sc->high_ff - sc->low_ff);
      out = (1.0 - smooth) * out / sc->factor + smooth * out;
    }
    return out;
  }
  case PN_SCALING_LONGROPE:
    k[0] = 1.0;
    k[1] = sc->ext[i];
    return w / sc->ext[i];
  default: /* none; dynamic (its base is grown) */
    return w;
  }
}

/* Whether all n values of a longrope factor list are finite and > 0. */
static int factors_ok(const double *list, int32_t n) {
  for (int32_t i = 0; i < n; i++)
    if (!isfinite(list[i]) || !(list[i] > 0.0)) return 0;
  return 1;
}

/* Validates everything, computes the attention factor and every frequency
 * (without writing them), then writes: on error nothing has been written.
 * inv_freq_lo NULL: the frequencies alone (pn_rope_frequencies_f64). */
static int frequencies(double *inv_freq, double *inv_freq_lo,
                       double *attention_factor, int32_t dim, double base,
                       int32_t type, const double *params,
                       const double *short_factor, const double *long_factor,
                       double seq_len) {
  if (!inv_freq || !attention_factor) return PN_ERR_NULL;
  if (type != PN_SCALING_NONE && !params) return PN_ERR_NULL;
  if (type == PN_SCALING_LONGROPE && (!short_factor || !long_factor)) return PN_ERR_NULL;
  if (dim < 2 || (dim & 1) || dim > 65536 || (type == PN_SCALING_DYNAMIC && dim < 4))
    return PN_ERR_SIZE;
  if (!isfinite(base) || !(base > 1.0) || type < PN_SCALING_NONE ||
      type > PN_SCALING_LONGROPE || !(seq_len >= 0.0) || !isfinite(seq_len))
    return PN_ERR_ARG;
  const int32_t half = dim / 2;
  pn_scaling sc = {type, dim, 0.0, 1.0, 0.0, 0.0, 0.0, {{0.0, 0.0}, {0.0, 0.0}}, 0.0, 0.0, NULL};
  const double given_af = params ? params[PN_SCALING_ATTENTION_FACTOR] : NAN;
  if (!isnan(given_af) && (!isfinite(given_af) || !(given_af > 0.0))) return PN_ERR_ARG;
  if (type != PN_SCALING_NONE) {
    sc.factor = params[PN_SCALING_FACTOR];
    if (!isfinite(sc.factor) || !(sc.factor > 0.0)) return PN_ERR_ARG;
  }
  if (type >= PN_SCALING_DYNAMIC) {
    sc.original = params[PN_SCALING_ORIGINAL_MAX];
    if (!isfinite(sc.original) || !(sc.original >= 1.0)) return PN_ERR_ARG;
  }
  const double factor = sc.factor, original = sc.original;
  double b = base, af = 1.0;
  switch (type) {
  case PN_SCALING_DYNAMIC: {
    const double s = seq_len > original ? seq_len : original;
    const double grow = factor * s / original - (factor - 1.0);
    if (!(grow > 0.0)) return PN_ERR_ARG;
    b = base * pn_pow_pos(grow, (double)dim / (double)(dim - 2));
    if (!isfinite(b) || !(b > 1.0)) return PN_ERR_ARG; /* the grown base */
    break;
  }
  case PN_SCALING_YARN: {
    const double beta_fast = params[PN_SCALING_BETA_FAST], beta_slow = params[PN_SCALING_BETA_SLOW];
    const double mscale = params[PN_SCALING_MSCALE], mscale_all = params[PN_SCALING_MSCALE_ALL_DIM];
    const double truncate = params[PN_SCALING_TRUNCATE];
    if (!isfinite(beta_fast) || !isfinite(beta_slow) || !(beta_fast > 0.0) || !(beta_slow > 0.0) ||
        isinf(mscale) || isinf(mscale_all) ||
        !(isnan(truncate) || truncate == 0.0 || truncate == 1.0))
      return PN_ERR_ARG;
    if (isnan(given_af)) {
      af = (mscale != 0.0 && !isnan(mscale) && mscale_all != 0.0 && !isnan(mscale_all))
               ? yarn_mscale(factor, mscale) / yarn_mscale(factor, mscale_all)
               : yarn_mscale(factor, 1.0);
    }
    double low = yarn_correction_dim(beta_fast, dim, base, original);
    double high = yarn_correction_dim(beta_slow, dim, base, original);
    /* orig/(beta·2π) of 0 or +Inf (a beta near 0 or DBL_MAX) */
    if (!isfinite(low) || !isfinite(high)) return PN_ERR_ARG;
    const double low0 = low, high0 = high;
    if (truncate != 0.0) {
      low = floor(low);
      high = ceil(high);
    }
    if (low < 0.0) low = 0.0;
    if (high > (double)(dim - 1)) high = (double)(dim - 1);
    /* The ends in dd for the rests, where the float64 ones are the
     * correction dims as computed (untruncated, unclamped): their float64
     * rounding, over a narrow ramp's width and times p·w_i near 2^31, was
     * ~1e-6 rad. Elsewhere the float64 end is exact for the formula as the
     * float64 path takes it: floor/ceil's integers and the clamps' 0 and
     * dim - 1 (a correction dim within float64's rounding of an integer or
     * of a clamp's edge goes the float64 path's way: the clamps are
     * continuous, and floor/ceil or low == high the other way would make
     * a rest as large as the frequency, and the angles below 2^20, which
     * take no rest, another ramp). */
    sc.ends[0].hi = low;
    sc.ends[1].hi = high;
    if (inv_freq_lo && truncate == 0.0) {
      pn_dd lb;
      pn_log_dd(&lb, base);
      if (low == low0) yarn_correction_dd(&sc.ends[0], beta_fast, dim, &lb, original);
      if (high == high0) yarn_correction_dd(&sc.ends[1], beta_slow, dim, &lb, original);
    }
    if (low == high) pn_dd_add(&sc.ends[1], &sc.ends[0], 0.001, 0.0);
    if (low == high) high += 0.001;
    sc.low = low;
    sc.high = high;
    break;
  }
  case PN_SCALING_LLAMA3:
    sc.low_ff = params[PN_SCALING_LOW_FREQ_FACTOR];
    sc.high_ff = params[PN_SCALING_HIGH_FREQ_FACTOR];
    sc.ends[0].hi = sc.high_ff;
    sc.ends[1].hi = sc.low_ff;
    if (!isfinite(sc.low_ff) || !isfinite(sc.high_ff) || !(sc.low_ff > 0.0) || !(sc.high_ff > sc.low_ff))
      return PN_ERR_ARG;
    break;
  case PN_SCALING_LONGROPE:
    if (!factors_ok(short_factor, half) || !factors_ok(long_factor, half)) return PN_ERR_ARG;
    sc.ext = seq_len > original ? long_factor : short_factor;
    /* ln 1 = 0 divides here: originalMaxPositions 1 with factor > 1 is refused below */
    if (isnan(given_af)) af = factor <= 1.0 ? 1.0 : sqrt(1.0 + pn_log(factor) / pn_log(original));
    break;
  default:
    break;
  }
  if (!isnan(given_af)) af = given_af;
  if (!isfinite(af) || !(af > 0.0)) return PN_ERR_ARG;
  sc.log_base = pn_log(b);
  /* a frequency that overflows (a tiny factor or longrope factor) */
  double k[3];
  for (int32_t i = 0; i < half; i++)
    if (!isfinite(scaled_frequency(&sc, i, k))) return PN_ERR_ARG;
  pn_freq_dd fdd;
  pn_freq_dd_prepare(&fdd, b, dim);
  for (int32_t i = 0; i < half; i++) {
    inv_freq[i] = scaled_frequency(&sc, i, k);
    if (!inv_freq_lo) continue;
    inv_freq_lo[i] = 0.0;
    /* No rest from |w_i| = 2^41 on (no factor the JS API allows makes one:
     * w_i <= 1e9), where the rest's splits could overflow for the largest.
     * The rest:
     * the formula with w_i in double-double (of the base the frequencies
     * use, grown for dynamic), yarn's ramp and llama3's smoothing in dd too
     * (below), its other quantities as given in float64 (factor, a
     * longrope factor; dynamic's grown base as computed), w_i·(a/d + 1 - a)
     * in double-double: within about 1e-29 relative */
    if (!(fabs(inv_freq[i]) < 0x1p41)) continue;
    pn_dd t = {(double)i, 0.0};
    /* yarn: ramp = (i - low)/(high - low) from the dd ends, clamped in dd
     * (as the exact formula is: where the float64 ramp is clamped and this
     * one not, or the other way, both are within the float64 one's
     * rounding of the edge, and the rest is that difference).
     * llama3: 1 - smooth = (high_ff - original/wavelen)/(high_ff - low_ff)
     * with wavelen = 2π/w_i, w_i in dd, as original·w_i/2π; clamped to
     * [0, 1] in dd it is the three bands: 1 - smooth >= 1 is wavelen >=
     * original/low_ff (w/factor), <= 0 wavelen <= original/high_ff (w).
     * The float64 path decides the bands on its own roundings; the formula
     * is continuous at both edges, so where the two decide otherwise they
     * differ by that rounding, which the rest takes (as the exact formula
     * does). */
    if (type == PN_SCALING_LLAMA3) {
      static const double TWO_PI[2] = {0x1.921fb54442d18p+2, 0x1.1a62633145c07p-52};
      pn_dd_mul(&t, pn_freq_dd_w(&fdd, i), original, 0.0);
      pn_dd_div(&t, &t, TWO_PI[0], TWO_PI[1]);
    }
    k[2] = 0.0;
    if (type == PN_SCALING_YARN || type == PN_SCALING_LLAMA3) {
      pn_dd d;
      pn_dd_add(&t, &t, -sc.ends[0].hi, -sc.ends[0].lo);
      pn_dd_add(&d, &sc.ends[1], -sc.ends[0].hi, -sc.ends[0].lo);
      pn_dd_div(&t, &t, d.hi, d.lo);
      /* a = t clamped to [0, 1] (t > 1: its hi - 1 exact from 1/2 on) */
      k[0] = t.hi;
      k[2] = t.lo;
      if (t.hi < 0.0) k[0] = k[2] = 0.0;
      if ((t.hi - 1.0) + t.lo > 0.0) {
        k[0] = 1.0;
        k[2] = 0.0;
      }
    }
    inv_freq_lo[i] = pn_freq_dd_rest(&fdd, i, inv_freq[i], k);
    /* Every frequency has its rest, also below 2^-12 (angles below 2^19,
     * where none was taken before) and at 0 or below: a yarn ramp or llama3
     * band narrow against its ends' rounding can leave the float64 one many
     * ulps off there too, tiny, 0 or negative (-0.656 for a llama3 band one
     * ulp wide; clamping the float64 smoothing into [0, 1] would fix the
     * sign alone), and the kernel takes a large rest at every angle
     * (scaled()). */
  }
  *attention_factor = af;
  return PN_OK;
}

int pn_rope_frequencies_f64(double *inv_freq, double *attention_factor,
                            int32_t dim, double base, int32_t type,
                            const double *params, const double *short_factor,
                            const double *long_factor, double seq_len) {
  return frequencies(inv_freq, NULL, attention_factor, dim, base, type, params,
                     short_factor, long_factor, seq_len);
}

int pn_rope_frequencies_dd_f64(double *inv_freq, double *inv_freq_lo,
                               double *attention_factor, int32_t dim,
                               double base, int32_t type, const double *params,
                               const double *short_factor,
                               const double *long_factor, double seq_len) {
  if (!inv_freq_lo) return PN_ERR_NULL;
  return frequencies(inv_freq, inv_freq_lo, attention_factor, dim, base, type,
                     params, short_factor, long_factor, seq_len);
}

/* pn_rope_scaled_f32 (inv_freq_lo NULL: every rest 0) and
 * pn_rope_scaled_dd_f32. */
static int scaled(float *y, const float *x, const int32_t *position_ids,
                  const double *inv_freq, const double *inv_freq_lo,
                  double attention_factor, int32_t batch, int32_t seq_len,
                  int32_t heads, int32_t head_dim, int32_t rotary_dim,
                  int32_t offset, int32_t interleaved, int32_t layout) {
  if (!x || !y || !inv_freq) return PN_ERR_NULL;
  if (!pn_rope_shape_ok(batch, seq_len, heads, head_dim)) return PN_ERR_SIZE;
  if (!pn_rope_args_ok(head_dim, rotary_dim, interleaved, layout) ||
      !isfinite(attention_factor) || !(attention_factor > 0.0))
    return PN_ERR_ARG;
  const int32_t half = rotary_dim / 2;
  double w_max = 0.0;
  int large = 0; /* whether any rest is large (below): else no pair is checked per angle */
  for (int32_t i = 0; i < half; i++) {
    if (!isfinite(inv_freq[i]) || (inv_freq_lo && !isfinite(inv_freq_lo[i]))) return PN_ERR_ARG;
    w_max = fmax(w_max, fabs(inv_freq[i]));
    if (inv_freq_lo && rest_is_large(inv_freq[i], inv_freq_lo[i])) large = 1;
  }
  const size_t tokens = (size_t)batch * (size_t)seq_len; /* <= 2^28: checked */
  if (!pn_rope_positions_ok(position_ids, tokens, offset, seq_len)) return PN_ERR_ARG;
  double p_max = position_ids ? 0.0 : (double)offset + (double)(seq_len - 1);
  for (size_t t = 0; position_ids && t < tokens; t++) p_max = fmax(p_max, (double)position_ids[t]);
  /* whether an angle reaches 2^20 (else the loop below is as before) */
  const int dd = !(p_max * w_max < 0x1p20);
  /* the cos/sin of every token's angles, scaled by the attention factor and
   * rounded once, handed to the cache kernel as a 3-D cache */
  const size_t bytes = pn_size_mul(pn_size_mul(tokens, (size_t)half), 2 * sizeof(float));
  if (bytes == PN_SIZE_OVERFLOW) return PN_ERR_SIZE;
  float *cs = pn_malloc(bytes);
  if (!cs) return PN_ERR_NOMEM;
  float *sn = cs + tokens * (size_t)half;
  static const double zero = 0.0; /* the rests without inv_freq_lo */
  for (size_t t = 0; t < tokens; t++) {
    const double p = position_ids ? (double)position_ids[t] : (double)offset + (double)(t % (size_t)seq_len);
    for (int32_t i = 0; i < half; i++) {
      double s, c;
      /* an angle |p·w_i| >= 2^20 as a double-double (pn_math.h): from
       * w_i + its rest, or without a rest from the float64 w_i as given
       * (then exact for that w_i, which may itself be a few ulps from the
       * formula's value: about 2^31·2 ulps ≈ 5e-7 rad near p = 2^31) */
      /* a rest past 2^-44·max(|w_i|, 2^-11) (a yarn ramp or llama3 band
       * narrow against the float64 rounding of its ends: the float64 w_i
       * many ulps off) is taken at every angle, also below 2^20, where
       * p·w_i in float64 would be off by p·|rest|. Up to it, the paths as
       * before: a rest left out is p·|rest| <= 2^-24 = 6e-8 rad (p·|w_i| <
       * 2^20, or p < 2^31 for |w_i| < 2^-11). Real configs' rests are within
       * 2^-47.8·|w_i| (Llama 3.1/3.2, gpt-oss, DeepSeek, Qwen), 18M pairs of
       * random yarn and llama3 configs (factors to 1024, bands 1.2 wide)
       * within 2^-44.8 from 2^-11 (some smaller ones within 2^-39, far
       * under 2^-55 absolute): they keep their bits */
      const double *lo = inv_freq_lo ? inv_freq_lo + i : &zero;
      if (large && rest_is_large(inv_freq[i], *lo))
        pn_sincos_dd(p, inv_freq[i], *lo, p * inv_freq[i], &s, &c);
      else if (dd)
        pn_sincos_pw(p, inv_freq[i], lo, &s, &c);
      else
        pn_sincos(p * inv_freq[i], &s, &c);
      cs[t * (size_t)half + (size_t)i] = (float)(c * attention_factor);
      sn[t * (size_t)half + (size_t)i] = (float)(s * attention_factor);
    }
  }
  const int rc = pn_rope_cache_f32(y, x, cs, sn, NULL, (int32_t)tokens, batch, seq_len, heads, head_dim, rotary_dim, interleaved, layout);
  pn_free(cs);
  return rc;
}

int pn_rope_scaled_f32(float *y, const float *x, const int32_t *position_ids,
                       const double *inv_freq, double attention_factor,
                       int32_t batch, int32_t seq_len, int32_t heads,
                       int32_t head_dim, int32_t rotary_dim, int32_t offset,
                       int32_t interleaved, int32_t layout) {
  return scaled(y, x, position_ids, inv_freq, NULL, attention_factor, batch,
                seq_len, heads, head_dim, rotary_dim, offset, interleaved, layout);
}

int pn_rope_scaled_dd_f32(float *y, const float *x,
                          const int32_t *position_ids, const double *inv_freq,
                          const double *inv_freq_lo, double attention_factor,
                          int32_t batch, int32_t seq_len, int32_t heads,
                          int32_t head_dim, int32_t rotary_dim, int32_t offset,
                          int32_t interleaved, int32_t layout) {
  if (!inv_freq_lo) return PN_ERR_NULL;
  return scaled(y, x, position_ids, inv_freq, inv_freq_lo, attention_factor,
                batch, seq_len, heads, head_dim, rotary_dim, offset, interleaved, layout);
}
