/* pe.c — sinusoidal positional encoding.
 *
 * Method. For each pair i the angle (p·w_i) is carried as a float64 (sin,
 * cos) state. Each row is emitted by rounding the state to float32 once, then
 * the state is rotated forward by one position with the exact float64
 * rotation (cos w_i, sin w_i) — "PE(p+1) is a linear map of PE(p)". Every
 * PN_PE_ANCHOR rows the state is re-anchored from libm sin/cos, so the
 * float64 drift (about 1e-16 per step) never reaches float32 precision.
 * An anchor whose angle |p·w_i| reaches 2^20 takes it as a double-double
 * (pn_sincos_pw, pn_math.h) from w_i's rest WL[i], computed for the pairs
 * whose last position needs it: near p = 2^31 a float64 angle is off by up
 * to 6e-7 rad. The rotation keeps the float64 w_i: over an anchor's 1024
 * rows its few ulps drift by about 1e-12 rad.
 * Pairs are processed in chunks of PE_CHUNK (one chunk covers d_model <=
 * 2048, so rows are written whole), and four pairs at a time advance
 * PE_ROWS rows in registers before their state is stored.
 */
#include <math.h>

#include "pn_internal.h"
#include "pn_math.h"
#include "pn_simd.h"

#define PE_CHUNK 1024 /* pairs per pass over the rows; a multiple of 4 */
#define PE_ROWS 8      /* rows a group of pairs advances while in registers;
                          divides PN_PE_ANCHOR */

/* Emits rows [0, rows) for pairs [0, n_pairs).
 * zip:   pair i of row r goes to dst[r*stride + 2i] (sin), +1 (cos).
 * split: sin to sin_dst[r*stride + i], cos to cos_dst[r*stride + i].
 * Cos is written only for pairs i < n_cos (odd d_model drops the last one). */
static void pe_rows(float *sin_dst, float *cos_dst, int32_t stride, int zip,
                    int32_t rows, int32_t n_pairs, int32_t n_cos, int32_t dims,
                    double base, double offset) {
  /* the state S, C and the rotation CW, SW, one after the other (8 KiB
   * apart), placed half-way between the 4 KiB offsets of the rows' stores:
   * the rows start g bytes apart mod 4 KiB (g the largest power of two
   * dividing a row's bytes, at most 4 KiB), and the state's loads go
   * g/2 from them, so they never share their low 12 address bits with a
   * store just made (4K aliasing). With 4 KiB rows (dModel 1024) every row
   * stores at the same offsets, and state 32 bytes from them took 8192×1024
   * from 3.0 to 4.1 ms; which it got depended on the stack's size and the
   * data before it (any change of the wasm's data moved it): 2.6 ms now */
  double state[4 * PE_CHUNK + 512] __attribute__((aligned(16)));
  uintptr_t g = (uintptr_t)stride * 4u;
  g &= -g;
  if (g == 0 || g > 4096u) g = 4096u;
  const uintptr_t gap = ((uintptr_t)sin_dst + g / 2u - (uintptr_t)state) % g;
  double *const S = state + (gap / 8u & ~(uintptr_t)1), *const C = S + PE_CHUNK;
  double *const CW = C + PE_CHUNK, *const SW = CW + PE_CHUNK;
  double W[PE_CHUNK];
  double WL[PE_CHUNK]; /* w_i's rest, where an anchor's angle reaches 2^20 */

  const double log_base = pn_log(base);
  /* the last position (offset >= 0): p·W[i] < 2^20 at it means at every
   * anchor (rounding is monotonic), so WL[i] is never read; below 2^20
   * (every W[i] <= 1) no pair has a rest, and the anchors are as before */
  const double p_last = offset + (double)(rows - 1);
  int dd = 0; /* whether a pair of this chunk has a rest */
  pn_freq_dd fdd;
  pn_freq_dd_prepare(&fdd, base, dims);
  for (int32_t c0 = 0; c0 < n_pairs; c0 += PE_CHUNK) {
    const int32_t cn = n_pairs - c0 < PE_CHUNK ? n_pairs - c0 : PE_CHUNK;
    int32_t full = n_cos - c0; /* pairs with both sin and cos in this chunk */
    if (full > cn) full = cn;
    if (full < 0) full = 0;
    const int32_t nvec = full & ~3;
    /* the rotation by one position, used only from the second row on: a
     * single row (the precision figure's and the cursors' rows at one
     * position p) takes the identity instead, half its sin/cos calls (its
     * bits are those of row 0 in any call, the libm ones) */
    for (int32_t i = 0; i < cn; i++) {
      W[i] = pn_pe_frequency(log_base, c0 + i, dims);
      if (p_last >= 0x1p20) {
        WL[i] = 0.0;
        if (!(p_last * W[i] < 0x1p20)) {
          WL[i] = pn_freq_dd_rest(&fdd, c0 + i, W[i], NULL);
          dd = 1;
        }
      }
      if (rows > 1) {
        pn_sincos(W[i], &SW[i], &CW[i]);
      } else {
        SW[i] = 0.0;
        CW[i] = 1.0;
      }
    }
    for (int32_t r0 = 0; r0 < rows; r0 += PE_ROWS) {
      const int32_t rn = rows - r0 < PE_ROWS ? rows - r0 : PE_ROWS;
      if (r0 % PN_PE_ANCHOR == 0) {
        const double p = offset + (double)r0;
        for (int32_t i = 0; i < cn; i++) {
          if (dd)
            pn_sincos_pw(p, W[i], WL + i, &S[i], &C[i]);
          else
            pn_sincos(p * W[i], &S[i], &C[i]);
        }
      }
      int32_t i = 0;
      /* four pairs at a time; their state stays in registers for rn rows */
      for (; i < nvec; i += 4) {
        pn_f64x2 s0 = pn_f64x2_load(S + i), s1 = pn_f64x2_load(S + i + 2);
        pn_f64x2 k0 = pn_f64x2_load(C + i), k1 = pn_f64x2_load(C + i + 2);
        const pn_f64x2 cw0 = pn_f64x2_load(CW + i), cw1 = pn_f64x2_load(CW + i + 2);
        const pn_f64x2 sw0 = pn_f64x2_load(SW + i), sw1 = pn_f64x2_load(SW + i + 2);
        for (int32_t k = 0; k < rn; k++) {
          const size_t row = (size_t)(r0 + k) * (size_t)stride;
          if (zip) {
            float *d = sin_dst + row + 2 * (size_t)(c0 + i);
            pn_f32x4_store(d, pn_f32x4_zip_from_f64(s0, k0));
            pn_f32x4_store(d + 4, pn_f32x4_zip_from_f64(s1, k1));
          } else {
            pn_f32x4_store(sin_dst + row + c0 + i, pn_f32x4_from_f64(s0, s1));
            pn_f32x4_store(cos_dst + row + c0 + i, pn_f32x4_from_f64(k0, k1));
          }
          const pn_f64x2 n0 = pn_f64x2_add(pn_f64x2_mul(s0, cw0), pn_f64x2_mul(k0, sw0));
          const pn_f64x2 n1 = pn_f64x2_add(pn_f64x2_mul(s1, cw1), pn_f64x2_mul(k1, sw1));
          k0 = pn_f64x2_sub(pn_f64x2_mul(k0, cw0), pn_f64x2_mul(s0, sw0));
          k1 = pn_f64x2_sub(pn_f64x2_mul(k1, cw1), pn_f64x2_mul(s1, sw1));
          s0 = n0;
          s1 = n1;
        }
        pn_f64x2_store(S + i, s0);
        pn_f64x2_store(S + i + 2, s1);
        pn_f64x2_store(C + i, k0);
        pn_f64x2_store(C + i + 2, k1);
      }
      for (; i < cn; i++) {
        const int32_t pair = c0 + i;
        double s = S[i], c = C[i];
        for (int32_t k = 0; k < rn; k++) {
          const size_t row = (size_t)(r0 + k) * (size_t)stride;
          if (zip) {
            sin_dst[row + 2 * (size_t)pair] = (float)s;
            if (pair < n_cos) sin_dst[row + 2 * (size_t)pair + 1] = (float)c;
          } else {
            sin_dst[row + pair] = (float)s;
            if (pair < n_cos) cos_dst[row + pair] = (float)c;
          }
          const double ns = s * CW[i] + c * SW[i];
          c = c * CW[i] - s * SW[i];
          s = ns;
        }
        S[i] = s;
        C[i] = c;
      }
    }
  }
}

static int pe_base_ok(double base) { return isfinite(base) && base > 1.0; }

int pn_pe_sinusoidal_f32(float *out, int32_t seq_len, int32_t d_model,
                         double base, int32_t offset, int32_t layout) {
  if (!out) return PN_ERR_NULL;
  if (!pn_count2(seq_len, d_model)) return PN_ERR_SIZE;
  if (!pe_base_ok(base) || offset < 0 ||
      (double)offset + (double)seq_len > PN_POS_LIMIT ||
      (layout != PN_PE_INTERLEAVED && layout != PN_PE_CONCAT))
    return PN_ERR_ARG;
  const int32_t n_pairs = (d_model + 1) / 2, n_cos = d_model / 2;
  if (layout == PN_PE_INTERLEAVED)
    pe_rows(out, NULL, d_model, 1, seq_len, n_pairs, n_cos, d_model, base, offset);
  else
    pe_rows(out, out + n_pairs, d_model, 0, seq_len, n_pairs, n_cos, d_model,
            base, offset);
  return PN_OK;
}

void pn_pe_sincos_table(float *sin_out, float *cos_out, int32_t rows,
                        int32_t n_pairs, int32_t dims, double base,
                        double offset) {
  pe_rows(sin_out, cos_out, n_pairs, 0, rows, n_pairs, n_pairs, dims, base, offset);
}

int pn_pe_frequencies(double *freq, double *freq_lo, int32_t n_pairs,
                      int32_t dims, double base, double p_max) {
  const double log_base = pn_log(base);
  pn_freq_dd fdd;
  pn_freq_dd_prepare(&fdd, base, dims);
  int any = 0;
  for (int32_t i = 0; i < n_pairs; i++) {
    freq[i] = pn_pe_frequency(log_base, i, dims);
    /* every freq[i] <= 1: below 2^20, no pair has a rest */
    if (p_max >= 0x1p20) {
      freq_lo[i] = 0.0;
      if (!(p_max * freq[i] < 0x1p20)) {
        freq_lo[i] = pn_freq_dd_rest(&fdd, i, freq[i], NULL);
        any = 1;
      }
    }
  }
  return any;
}

void pn_pe_sincos_row(float *sin_out, float *cos_out, double pos,
                      const double *freq, const double *freq_lo,
                      int32_t n_pairs) {
  for (int32_t i = 0; i < n_pairs; i++) {
    double s, c;
    if (freq_lo)
      pn_sincos_pw(pos, freq[i], freq_lo + i, &s, &c);
    else /* no angle of the call reaches 2^20: the loop as before */
      pn_sincos(pos * freq[i], &s, &c);
    sin_out[i] = (float)s;
    cos_out[i] = (float)c;
  }
}

int pn_pe_sample_f32(float *out, int32_t n, double pos_start, double pos_step,
                     int32_t dim, int32_t d_model, double base) {
  if (!out) return PN_ERR_NULL;
  if (!pn_count2(n, 1) || d_model < 1) return PN_ERR_SIZE;
  const double pos_end = pos_start + (double)(n - 1) * pos_step;
  if (dim < 0 || dim >= d_model || !pe_base_ok(base) || !isfinite(pos_start) ||
      !isfinite(pos_step) || fabs(pos_start) > PN_POS_LIMIT ||
      !(fabs(pos_end) <= PN_POS_LIMIT))
    return PN_ERR_ARG;
  const double w = pn_pe_frequency(pn_log(base), dim / 2, d_model);
  const int use_cos = dim & 1;
  /* the positions run from pos_start to pos_end, and so do their |p|·w
   * (rounding is monotonic): below 2^20 at both ends, the loop as before */
  if (fmax(fabs(pos_start), fabs(pos_end)) * w < 0x1p20) {
    for (int32_t k = 0; k < n; k++) {
      const double a = (pos_start + (double)k * pos_step) * w;
      out[k] = (float)(use_cos ? cos(a) : sin(a));
    }
    return PN_OK;
  }
  /* else angles past 2^20 in double-double (pn_math.h), from w's rest; the
   * others are pn_sincos(a), the same bits as sin(a) and cos(a) */
  pn_freq_dd f;
  pn_freq_dd_prepare(&f, base, d_model);
  const double w_lo = pn_freq_dd_rest(&f, dim / 2, w, NULL);
  for (int32_t k = 0; k < n; k++) {
    double s, c;
    pn_sincos_pw(pos_start + (double)k * pos_step, w, &w_lo, &s, &c);
    out[k] = (float)(use_cos ? c : s);
  }
  return PN_OK;
}
