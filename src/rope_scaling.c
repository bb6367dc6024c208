/* rope_scaling.c — RoPE frequencies as long-context models compute them
 * (Hugging Face transformers' rope_scaling types), and RoPE with them.
 * See posnorm.h for the formulas; everything is float64. */
#include <math.h>
#include <stdlib.h>

#include "pn_internal.h"

/* b^e for b > 0 from exp and the IEEE-only log (keeps libm's pow out). */
static double pow_pos(double b, double e) { return exp(e * pn_log(b)); }

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

int pn_rope_frequencies_f64(double *inv_freq, double *attention_factor,
                            int32_t dim, double base, int32_t type,
                            const double *params, const double *short_factor,
                            const double *long_factor, double seq_len) {
  if (!inv_freq || !attention_factor) return PN_ERR_NULL;
  if (dim < 2 || (dim & 1) || dim > 65536) return PN_ERR_SIZE;
  if (!isfinite(base) || !(base > 1.0) || type < PN_SCALING_NONE ||
      type > PN_SCALING_LONGROPE || !(seq_len >= 0.0) || !isfinite(seq_len))
    return PN_ERR_ARG;
  if (type != PN_SCALING_NONE && !params) return PN_ERR_NULL;
  const int32_t half = dim / 2;
  const double factor = params ? params[PN_SCALING_FACTOR] : 1.0;
  const double original = params ? params[PN_SCALING_ORIGINAL_MAX] : 0.0;
  const double given_af = params ? params[PN_SCALING_ATTENTION_FACTOR] : NAN;
  if (type != PN_SCALING_NONE && (!isfinite(factor) || !(factor > 0.0)))
    return PN_ERR_ARG;
  if (type >= PN_SCALING_DYNAMIC && (!isfinite(original) || !(original >= 1.0)))
    return PN_ERR_ARG;
  /* the base frequencies, possibly with a grown base (dynamic) */
  double b = base;
  if (type == PN_SCALING_DYNAMIC) {
    const double s = seq_len > original ? seq_len : original;
    const double grow = factor * s / original - (factor - 1.0);
    if (!(grow > 0.0)) return PN_ERR_ARG;
    b = base * pow_pos(grow, (double)dim / (double)(dim - 2));
    if (!isfinite(b) || !(b > 1.0)) return PN_ERR_ARG;
  }
  const double log_b = pn_log(b);
  for (int32_t i = 0; i < half; i++) inv_freq[i] = pn_pe_frequency(log_b, i, dim);
  double af = 1.0;
  switch (type) {
  case PN_SCALING_NONE:
  case PN_SCALING_DYNAMIC:
    break;
  case PN_SCALING_LINEAR:
    for (int32_t i = 0; i < half; i++) inv_freq[i] /= factor;
    break;
  case PN_SCALING_YARN: {
    const double beta_fast = params[PN_SCALING_BETA_FAST], beta_slow = params[PN_SCALING_BETA_SLOW];
    const double mscale = params[PN_SCALING_MSCALE], mscale_all = params[PN_SCALING_MSCALE_ALL_DIM];
    if (!isfinite(beta_fast) || !isfinite(beta_slow) || !(beta_fast > 0.0) || !(beta_slow > 0.0)) return PN_ERR_ARG;
    if (isnan(given_af)) {
      af = (mscale != 0.0 && !isnan(mscale) && mscale_all != 0.0 && !isnan(mscale_all))
               ? yarn_mscale(factor, mscale) / yarn_mscale(factor, mscale_all)
               : yarn_mscale(factor, 1.0);
    }
    double low = yarn_correction_dim(beta_fast, dim, base, original);
    double high = yarn_correction_dim(beta_slow, dim, base, original);
    if (params[PN_SCALING_TRUNCATE] != 0.0) {
      low = floor(low);
      high = ceil(high);
    }
    if (low < 0.0) low = 0.0;
    if (high > (double)(dim - 1)) high = (double)(dim - 1);
    if (low == high) high += 0.001;
    for (int32_t i = 0; i < half; i++) {
      double ramp = ((double)i - low) / (high - low);
      ramp = ramp < 0.0 ? 0.0 : ramp > 1.0 ? 1.0 : ramp;
      const double extrapolation = 1.0 - ramp;
      const double extra = inv_freq[i], inter = inv_freq[i] / factor;
      inv_freq[i] = inter * (1.0 - extrapolation) + extra * extrapolation;
    }
    break;
  }
  case PN_SCALING_LLAMA3: {
    const double low_ff = params[PN_SCALING_LOW_FREQ_FACTOR], high_ff = params[PN_SCALING_HIGH_FREQ_FACTOR];
    if (!isfinite(low_ff) || !isfinite(high_ff) || !(low_ff > 0.0) || !(high_ff > low_ff)) return PN_ERR_ARG;
    const double low_wavelen = original / low_ff, high_wavelen = original / high_ff;
    for (int32_t i = 0; i < half; i++) {
      const double w = inv_freq[i], wavelen = 2.0 * PN_PI / w;
      double out = wavelen > low_wavelen ? w / factor : w;
      if (!(wavelen < high_wavelen) && !(wavelen > low_wavelen)) {
        const double smooth = (original / wavelen - low_ff) / (high_ff - low_ff);
        out = (1.0 - smooth) * out / factor + smooth * out;
      }
      inv_freq[i] = out;
    }
    break;
  }
  case PN_SCALING_LONGROPE: {
    const double *ext = seq_len > original ? long_factor : short_factor;
    if (!ext) return PN_ERR_NULL;
    for (int32_t i = 0; i < half; i++) {
      if (!isfinite(ext[i]) || !(ext[i] > 0.0)) return PN_ERR_ARG;
      inv_freq[i] /= ext[i];
    }
    if (isnan(given_af)) af = factor <= 1.0 ? 1.0 : sqrt(1.0 + pn_log(factor) / pn_log(original));
    break;
  }
  default:
    return PN_ERR_ARG;
  }
  if (!isnan(given_af)) {
    if (!isfinite(given_af) || !(given_af > 0.0)) return PN_ERR_ARG;
    af = given_af;
  }
  *attention_factor = af;
  return PN_OK;
}

int pn_rope_scaled_f32(float *y, const float *x, const int32_t *position_ids,
                       const double *inv_freq, double attention_factor,
                       int32_t batch, int32_t seq_len, int32_t heads,
                       int32_t head_dim, int32_t rotary_dim, int32_t offset,
                       int32_t interleaved, int32_t layout) {
  if (!inv_freq) return PN_ERR_NULL;
  if (!isfinite(attention_factor) || !(attention_factor > 0.0)) return PN_ERR_ARG;
  const int32_t half = rotary_dim / 2;
  /* the cos/sin of every token's angles, scaled by the attention factor and
   * rounded once, handed to the cache kernel as a 3-D cache */
  const int64_t tokens = pn_count2(batch, seq_len);
  if (!tokens || half < 1 || tokens * half > PN_MAX_ELEMENTS) return PN_ERR_SIZE;
  if (!position_ids && (offset < 0 || (double)offset + (double)seq_len > PN_POS_LIMIT)) return PN_ERR_ARG;
  float *cs = pn_malloc(sizeof(float) * 2 * (size_t)tokens * (size_t)half);
  if (!cs) return PN_ERR_NOMEM;
  float *sn = cs + (size_t)tokens * (size_t)half;
  for (int64_t t = 0; t < tokens; t++) {
    const double p = position_ids ? (double)position_ids[t] : (double)offset + (double)(t % seq_len);
    if (position_ids && position_ids[t] < 0) { pn_free(cs); return PN_ERR_ARG; }
    for (int32_t i = 0; i < half; i++) {
      const double a = p * inv_freq[i];
      cs[t * half + i] = (float)(cos(a) * attention_factor);
      sn[t * half + i] = (float)(sin(a) * attention_factor);
    }
  }
  const int rc = pn_rope_cache_f32(y, x, cs, sn, NULL, (int32_t)tokens, batch, seq_len, heads, head_dim, rotary_dim, interleaved, layout);
  pn_free(cs);
  return rc;
}
