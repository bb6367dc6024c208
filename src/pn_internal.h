/* pn_internal.h — helpers shared by the kernel files; not part of the API. */
#ifndef PN_INTERNAL_H
#define PN_INTERNAL_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "pn_alloc.h"
#include "posnorm.h"

/* Rows between exact re-anchoring of the PE rotation (see pe.c). */
#define PN_PE_ANCHOR 1024

/* 2^31: the largest position any kernel accepts. */
#define PN_POS_LIMIT 2147483648.0

/* Checked sizes. Every allocation size and every element-count bound is
 * computed with pn_size_mul_add, in the target's size_t (32 bits on
 * wasm32): a result that does not fit saturates to PN_SIZE_OVERFLOW
 * (SIZE_MAX) and stays there through every later product and sum, so a
 * kernel checks once, at the end, and nothing wraps. */
#define PN_SIZE_OVERFLOW SIZE_MAX

/* a·b + c in size_t, or PN_SIZE_OVERFLOW if any operand is
 * PN_SIZE_OVERFLOW or the result does not fit. */
static inline size_t pn_size_mul_add(size_t a, size_t b, size_t c) {
  size_t ab, r;
  if (a == PN_SIZE_OVERFLOW || b == PN_SIZE_OVERFLOW || c == PN_SIZE_OVERFLOW ||
      __builtin_mul_overflow(a, b, &ab) || __builtin_add_overflow(ab, c, &r))
    return PN_SIZE_OVERFLOW;
  return r;
}

/* a·b and a + b through pn_size_mul_add. */
static inline size_t pn_size_mul(size_t a, size_t b) { return pn_size_mul_add(a, b, 0); }
static inline size_t pn_size_add(size_t a, size_t b) { return pn_size_mul_add(a, 1, b); }

/* An int32 size as a size_t factor: itself when >= 1, else
 * PN_SIZE_OVERFLOW (so a product with a size < 1 never fits). */
static inline size_t pn_size(int32_t a) {
  return a >= 1 ? (size_t)a : PN_SIZE_OVERFLOW;
}

/* Whether n is the element count of a tensor: 1 <= n <= PN_MAX_ELEMENTS. */
static inline int pn_fits(size_t n) {
  return n >= 1 && n <= (size_t)PN_MAX_ELEMENTS;
}

/* Whether a figure kernel's count of multiply-adds, a·b·c, is within
 * PN_MAX_WORK (2^32, posnorm_figures.h); the kernels' own limits keep the
 * product below 2^48. */
static inline int pn_work_fits(uint64_t a, uint64_t b, uint64_t c) {
  return a * b * c <= (UINT64_C(1) << 32);
}

/* Element count of a [a × b] tensor, or 0 if a or b < 1 or a·b exceeds
 * PN_MAX_ELEMENTS. */
static inline size_t pn_count2(int32_t a, int32_t b) {
  const size_t n = pn_size_mul(pn_size(a), pn_size(b));
  return pn_fits(n) ? n : 0;
}

/* freq[i] = w_i, the float64 frequency of pair i of a `dims`-dimensional
 * encoding with `base` (pn_pe_frequency), for i in [0, n_pairs), and
 * freq_lo[i] its rest in double-double (pn_math.h) where p_max·w_i >=
 * 2^20 (0 elsewhere, where no position up to p_max >= 0 reads it).
 * Returns whether any pair has a rest. Defined in pe.c; RoPE takes them
 * once per call for explicit position ids. */
int pn_pe_frequencies(double *freq, double *freq_lo, int32_t n_pairs,
                      int32_t dims, double base, double p_max);

/* Writes sin/cos(pos·freq[i]) for i in [0, n_pairs) at one position into
 * sin_out[i], cos_out[i], float64 libm (pn_sincos_pw: a double-double
 * angle from freq_lo[i] where |pos·freq[i]| >= 2^20), rounded once.
 * Defined in pe.c; used by RoPE for explicit position ids, freq and
 * freq_lo from pn_pe_frequencies with p_max >= pos; freq_lo NULL where it
 * gave no rest (a plain float64 angle per pair then, without the test). */
void pn_pe_sincos_row(float *sin_out, float *cos_out, double pos,
                      const double *freq, const double *freq_lo,
                      int32_t n_pairs);

/* Fills rows [0, rows) of a [rows × n_pairs] pair of tables with
 * sin/cos((offset + r)·w_i), same method as pn_pe_sinusoidal_f32. */
void pn_pe_sincos_table(float *sin_out, float *cos_out, int32_t rows,
                        int32_t n_pairs, int32_t dims, double base,
                        double offset);

/* RoPE's shared checks (rope.c, rope_scaling.c). pn_rope_shape_ok: the
 * element count of x, batch·seq_len·heads·head_dim, is a tensor's (else
 * PN_ERR_SIZE). pn_rope_args_ok: rotary_dim even in [2, head_dim],
 * interleaved 0 or 1, layout a pn_rope_layout (else PN_ERR_ARG). */
int pn_rope_shape_ok(int32_t batch, int32_t seq_len, int32_t heads,
                     int32_t head_dim);
int pn_rope_args_ok(int32_t head_dim, int32_t rotary_dim, int32_t interleaved,
                    int32_t layout);
/* pn_rope_positions_ok: with position_ids, none of its `tokens` ids is
 * negative; without, offset >= 0 and offset + seq_len <= 2^31 (else
 * PN_ERR_ARG). */
int pn_rope_positions_ok(const int32_t *position_ids, size_t tokens,
                         int32_t offset, int32_t seq_len);

/* Where head h of token (b, s) starts in a RoPE tensor, in either layout
 * (rope.c, lowprec.c). */
static inline size_t pn_rope_at(int32_t layout, int32_t b, int32_t s,
                                int32_t h, int32_t seq_len, int32_t heads,
                                int32_t head_dim) {
  const size_t row = layout == PN_ROPE_BHSD
                         ? ((size_t)b * (size_t)heads + (size_t)h) * (size_t)seq_len + (size_t)s
                         : ((size_t)b * (size_t)seq_len + (size_t)s) * (size_t)heads + (size_t)h;
  return row * (size_t)head_dim;
}

/* Stores pair i's sin s and cos c in a PE row of n_pairs pairs in `layout`
 * (interleaved: columns 2i, 2i+1; concat: i, n_pairs + i); the cos only
 * when i < n_cos (an odd d_model has one sin column more than cos)
 * (pe_float32.c, lowprec.c). */
static inline void pn_pe_store_pair(float *row, int32_t layout, int32_t i,
                                    int32_t n_pairs, int32_t n_cos, float s,
                                    float c) {
  if (layout == PN_PE_INTERLEAVED) {
    row[2 * i] = s;
    if (i < n_cos) row[2 * i + 1] = c;
  } else {
    row[i] = s;
    if (i < n_cos) row[n_pairs + i] = c;
  }
}

/* LayerNorm (center = 1) and RMSNorm (center = 0) over each row of x
 * [rows × cols], as posnorm.h specifies pn_layernorm_f32 and pn_rmsnorm_f32
 * (norm_rows.c); the arguments already validated. mean (LayerNorm only) and
 * inv_out, [rows] or NULL, receive each row's mean and 1/sqrt(var + eps)
 * (1/rms); gamma and beta (LayerNorm only) NULL for 1 and 0. */
void pn_norm_rows_f32(float *y, float *mean, float *inv_out, const float *x,
                      const float *gamma, const float *beta, int32_t rows,
                      int32_t cols, float eps, int center);

#ifdef PN_COUNT_ALLOC
/* Test builds only (as pn_alloc_stats): the rows pn_norm_rows_f32 has
 * taken in two passes (RMSNorm past the caches), so a test can see which
 * loop a call took; the two give the same bits, so nothing else can. */
extern size_t pn_norm_two_pass_rows;
/* the calls of pn_sincos (pn_math.c), so a test can see how many angles a
 * kernel reduced: one PE row at a position takes d_model/2 of them, not
 * twice that (pe.c), which its bits cannot show */
extern size_t pn_sincos_calls;
#endif

#endif
