/* pe_float32.c — the article's PyTorch float32 positional encoding, step by
 * step, to show what float32 does to it (see posnorm.h). It is the
 * low-precision code of lowprec.c with every tensor in float32: there R,
 * the step rounding, and T, the rounding of the values, leave a float32
 * as it is, so each step below is the one float32 operation the header
 * lists, in the same order and with the same bits. */
#include "pn_internal.h"

int pn_pe_float32_code_f32(float *out, int32_t seq_len, int32_t d_model,
                           double base, int32_t offset, int32_t layout) {
  return pn_pe_lowprec_f32(out, seq_len, d_model, base, offset, layout,
                           PN_DTYPE_FLOAT32, PN_COMPUTE_FLOAT32);
}
