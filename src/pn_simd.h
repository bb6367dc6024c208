/* pn_simd.h — the tiny SIMD layer every kernel is written against.
 *
 * Two types, f32x4 (four float lanes) and f64x2 (two double lanes), and the
 * few operations the kernels need. With -msimd128 (__wasm_simd128__) each
 * operation is one WebAssembly SIMD128 instruction from <wasm_simd128.h>;
 * otherwise it is the same arithmetic on a plain struct, lane by lane. Both
 * perform the same IEEE operations in the same order, so the SIMD build, the
 * scalar wasm build and the native test build give bit-identical results
 * (compile with -ffp-contract=off so no compiler fuses a*b+c).
 */
#ifndef PN_SIMD_H
#define PN_SIMD_H

#include <stdint.h>
#include <math.h> /* sqrt: the portable pn_f64x2_sqrt */

#define PN_INLINE static inline __attribute__((always_inline))

/* Put before a loop that the compiler must keep as written: a remainder
 * loop of fewer than 4 turns, or a loop already written 4 lanes wide.
 * Without it clang vectorizes and unrolls such loops again, behind runtime
 * checks, which costs the wasm hundreds of bytes per loop for no speed. */
/* PN_LOOP_NOT_UNROLLED: a loop whose body is already large (the fused
 * steps of norm_rows.c); unrolling it again only grows the wasm. */
#if defined(__clang__)
#define PN_LOOP_AS_WRITTEN _Pragma("clang loop vectorize(disable) unroll(disable)")
#define PN_LOOP_NOT_UNROLLED _Pragma("clang loop unroll(disable)")
#else
#define PN_LOOP_AS_WRITTEN
#define PN_LOOP_NOT_UNROLLED
#endif

#if defined(__wasm_simd128__)
#include <wasm_simd128.h>

typedef v128_t pn_f32x4;
typedef v128_t pn_f64x2;

PN_INLINE pn_f32x4 pn_f32x4_load(const float *p) { return wasm_v128_load(p); }
PN_INLINE void pn_f32x4_store(float *p, pn_f32x4 v) { wasm_v128_store(p, v); }
PN_INLINE pn_f32x4 pn_f32x4_splat(float a) { return wasm_f32x4_splat(a); }
PN_INLINE pn_f32x4 pn_f32x4_add(pn_f32x4 a, pn_f32x4 b) { return wasm_f32x4_add(a, b); }
PN_INLINE pn_f32x4 pn_f32x4_sub(pn_f32x4 a, pn_f32x4 b) { return wasm_f32x4_sub(a, b); }
PN_INLINE pn_f32x4 pn_f32x4_mul(pn_f32x4 a, pn_f32x4 b) { return wasm_f32x4_mul(a, b); }

PN_INLINE pn_f64x2 pn_f64x2_load(const double *p) { return wasm_v128_load(p); }
PN_INLINE void pn_f64x2_store(double *p, pn_f64x2 v) { wasm_v128_store(p, v); }
PN_INLINE pn_f64x2 pn_f64x2_splat(double a) { return wasm_f64x2_splat(a); }
PN_INLINE pn_f64x2 pn_f64x2_add(pn_f64x2 a, pn_f64x2 b) { return wasm_f64x2_add(a, b); }
PN_INLINE pn_f64x2 pn_f64x2_sub(pn_f64x2 a, pn_f64x2 b) { return wasm_f64x2_sub(a, b); }
PN_INLINE pn_f64x2 pn_f64x2_mul(pn_f64x2 a, pn_f64x2 b) { return wasm_f64x2_mul(a, b); }
PN_INLINE pn_f64x2 pn_f64x2_div(pn_f64x2 a, pn_f64x2 b) { return wasm_f64x2_div(a, b); }
PN_INLINE pn_f64x2 pn_f64x2_sqrt(pn_f64x2 a) { return wasm_f64x2_sqrt(a); }
PN_INLINE pn_f64x2 pn_f64x2_make(double lo, double hi) { return wasm_f64x2_make(lo, hi); }
PN_INLINE double pn_f64x2_lo(pn_f64x2 v) { return wasm_f64x2_extract_lane(v, 0); }
PN_INLINE double pn_f64x2_hi(pn_f64x2 v) { return wasm_f64x2_extract_lane(v, 1); }

/* [a0, a1, a2, a3] -> [a0, a1] and [a2, a3] as doubles */
PN_INLINE pn_f64x2 pn_f64x2_from_lo(pn_f32x4 a) { return wasm_f64x2_promote_low_f32x4(a); }
PN_INLINE pn_f64x2 pn_f64x2_from_hi(pn_f32x4 a) {
  return wasm_f64x2_promote_low_f32x4(wasm_i32x4_shuffle(a, a, 2, 3, 2, 3));
}
/* [a0, a1], [b0, b1] -> [a0, a1, b0, b1] rounded to float */
PN_INLINE pn_f32x4 pn_f32x4_from_f64(pn_f64x2 a, pn_f64x2 b) {
  return wasm_i32x4_shuffle(wasm_f32x4_demote_f64x2_zero(a),
                            wasm_f32x4_demote_f64x2_zero(b), 0, 1, 4, 5);
}
/* [s0, s1], [c0, c1] -> [s0, c0, s1, c1] rounded to float */
PN_INLINE pn_f32x4 pn_f32x4_zip_from_f64(pn_f64x2 s, pn_f64x2 c) {
  return wasm_i32x4_shuffle(wasm_f32x4_demote_f64x2_zero(s),
                            wasm_f32x4_demote_f64x2_zero(c), 0, 4, 1, 5);
}

#else /* portable lane-by-lane path: scalar wasm and native builds */

typedef struct { float v[4]; } pn_f32x4;
typedef struct { double v[2]; } pn_f64x2;

PN_INLINE pn_f32x4 pn_f32x4_load(const float *p) {
  pn_f32x4 r = {{p[0], p[1], p[2], p[3]}};
  return r;
}
PN_INLINE void pn_f32x4_store(float *p, pn_f32x4 a) {
  p[0] = a.v[0]; p[1] = a.v[1]; p[2] = a.v[2]; p[3] = a.v[3];
}
PN_INLINE pn_f32x4 pn_f32x4_splat(float a) {
  pn_f32x4 r = {{a, a, a, a}};
  return r;
}
#define PN_F32X4_LANEWISE(name, op)                                            \
  PN_INLINE pn_f32x4 name(pn_f32x4 a, pn_f32x4 b) {                            \
    pn_f32x4 r = {{a.v[0] op b.v[0], a.v[1] op b.v[1], a.v[2] op b.v[2],       \
                   a.v[3] op b.v[3]}};                                         \
    return r;                                                                  \
  }
PN_F32X4_LANEWISE(pn_f32x4_add, +)
PN_F32X4_LANEWISE(pn_f32x4_sub, -)
PN_F32X4_LANEWISE(pn_f32x4_mul, *)

PN_INLINE pn_f64x2 pn_f64x2_load(const double *p) {
  pn_f64x2 r = {{p[0], p[1]}};
  return r;
}
PN_INLINE void pn_f64x2_store(double *p, pn_f64x2 a) { p[0] = a.v[0]; p[1] = a.v[1]; }
PN_INLINE pn_f64x2 pn_f64x2_splat(double a) {
  pn_f64x2 r = {{a, a}};
  return r;
}
#define PN_F64X2_LANEWISE(name, op)                                            \
  PN_INLINE pn_f64x2 name(pn_f64x2 a, pn_f64x2 b) {                            \
    pn_f64x2 r = {{a.v[0] op b.v[0], a.v[1] op b.v[1]}};                       \
    return r;                                                                  \
  }
PN_F64X2_LANEWISE(pn_f64x2_add, +)
PN_F64X2_LANEWISE(pn_f64x2_sub, -)
PN_F64X2_LANEWISE(pn_f64x2_mul, *)
PN_F64X2_LANEWISE(pn_f64x2_div, /)
PN_INLINE pn_f64x2 pn_f64x2_sqrt(pn_f64x2 a) {
  pn_f64x2 r = {{sqrt(a.v[0]), sqrt(a.v[1])}};
  return r;
}
PN_INLINE pn_f64x2 pn_f64x2_make(double lo, double hi) {
  pn_f64x2 r = {{lo, hi}};
  return r;
}
PN_INLINE double pn_f64x2_lo(pn_f64x2 a) { return a.v[0]; }
PN_INLINE double pn_f64x2_hi(pn_f64x2 a) { return a.v[1]; }

PN_INLINE pn_f64x2 pn_f64x2_from_lo(pn_f32x4 a) {
  pn_f64x2 r = {{a.v[0], a.v[1]}};
  return r;
}
PN_INLINE pn_f64x2 pn_f64x2_from_hi(pn_f32x4 a) {
  pn_f64x2 r = {{a.v[2], a.v[3]}};
  return r;
}
PN_INLINE pn_f32x4 pn_f32x4_from_f64(pn_f64x2 a, pn_f64x2 b) {
  pn_f32x4 r = {{(float)a.v[0], (float)a.v[1], (float)b.v[0], (float)b.v[1]}};
  return r;
}
PN_INLINE pn_f32x4 pn_f32x4_zip_from_f64(pn_f64x2 s, pn_f64x2 c) {
  pn_f32x4 r = {{(float)s.v[0], (float)c.v[0], (float)s.v[1], (float)c.v[1]}};
  return r;
}
#endif

#endif /* PN_SIMD_H */
