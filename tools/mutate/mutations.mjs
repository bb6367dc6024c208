// mutations.mjs — the deliberate mistakes `make mutate` makes, one at a time.
//
// Each is one exact find/replace in one file (the pattern must occur exactly
// once), anchored on the mathematics, which other changes to the sources
// leave alone. `tests` lists the test files run for it (file or
// 'file::name pattern'); mutations in src/*.c and src/*.h also rebuild the
// native C tests and run them (set native: false to skip, wasm: false when
// no Node test needs the wasm rebuilt). The golden hashes
// (tests/golden.test.mjs) are never used here: they compare posnorm with its
// own earlier output and would catch every change without saying whether an
// honest test does.

const NORMS = ['norm', 'edges', 'kernel_sweep::layerNorm|rmsNorm|layerNormSteps'];
const ROPE = ['rope_alibi', 'rope_onnx', 'kernel_sweep::rope —'];
const SCALING = ['rope_scaling', 'kernel_sweep::ropeFrequencies'];
const STACK = ['article_kernels::residual', 'depth_grad', 'kernel_sweep::residualStack'];
const MEMORY = ['depth_memory'];

export const MUTATIONS = [
  // ---- GELU form -------------------------------------------------------
  {
    id: 'gelu-erf', what: 'GELU: the exact erf form in place of the tanh form',
    file: 'src/pn_f64.c', find: 'return 0.5 * z * (1.0 + t);',
    replace: 'return (void)t, 0.5 * z * (1.0 + erf(z * 0.70710678118654752));',
    tests: [...STACK, 'block', 'kernel_sweep::transformerBlock'],
  },
  {
    id: 'gelu-sigmoid', what: 'GELU: the sigmoid form z·σ(1.702 z) in place of the tanh form',
    file: 'src/pn_f64.c', find: 'exp(2.0 * PN_GELU_K * (z + PN_GELU_C * z * z * z))', replace: 'exp(1.702 * z)',
    tests: [...STACK, 'block'],
  },
  // ---- BatchNorm's mean ------------------------------------------------------
  {
    id: 'batchnorm-sum-uncompensated', what: "BatchNorm: Σx without its compensation (a column whose large values cancel loses the small ones)",
    file: 'src/batchnorm.c', find: '        lo[k] += fabs(m[k]) >= fabs(t) ? (m[k] - sum) + t : (t - sum) + m[k];', replace: '        lo[k] += 0.0 * t;',
    tests: ['norm::large values cancel'],
  },
  // ---- attention scale ------------------------------------------------------
  {
    id: 'attention-scale-dmodel', what: 'attention: scores over √d_model instead of √d_head',
    file: 'src/pn_f64.c', find: 'const double scale = 1.0 / sqrt((double)d_head);', replace: 'const double scale = 1.0 / sqrt((double)d_in);',
    tests: ['article_kernels::attention', 'kernel_sweep::attention'],
  },
  {
    id: 'block-attention-scale-dhead', what: 'block: scores over d_head instead of √d_head',
    file: 'src/pn_f64.c', find: 'const double scale = 1.0 / sqrt((double)d_head);', replace: 'const double scale = 1.0 / (double)d_head;',
    tests: ['block', 'kernel_sweep::transformerBlock'],
  },
  // ---- ε inside or outside the square root ------------------------------------
  {
    id: 'layernorm-eps-outside-sqrt', what: 'LayerNorm: 1/(√var + ε) instead of 1/√(var + ε)',
    file: 'src/norm_rows.c', find: 'const double inv = 1.0 / sqrt(var + (double)eps);\n      if (mean) mean[r] = hi;',
    replace: 'const double inv = center ? 1.0 / (sqrt(var) + (double)eps) : 1.0 / sqrt(var + (double)eps);\n      if (mean) mean[r] = hi;',
    tests: NORMS,
  },
  {
    id: 'rmsnorm-eps-outside-sqrt', what: 'RMSNorm: 1/(rms + ε) instead of 1/√(mean square + ε)',
    file: 'src/norm_rows.c', find: 'const double inv = 1.0 / sqrt(var + (double)eps);\n      if (mean) mean[r] = hi;',
    replace: 'const double inv = center ? 1.0 / sqrt(var + (double)eps) : 1.0 / (sqrt(var) + (double)eps);\n      if (mean) mean[r] = hi;',
    tests: NORMS,
  },
  // ---- RoPE and ALiBi -----------------------------------------------------
  {
    id: 'rope-pair-order', what: 'RoPE: interleaved pair taken as (x[2i+1], x[2i])',
    file: 'src/rope.c', find: 'const float a = v[2 * i], b = v[2 * i + 1];', replace: 'const float a = v[2 * i + 1], b = v[2 * i];',
    tests: ROPE,
  },
  {
    id: 'rope-rotation-sign', what: 'RoPE: a·cos + b·sin in the SIMD body (rotation the other way)',
    file: 'src/rope.c', find: 'pn_f32x4_store(out + i, pn_f32x4_sub(pn_f32x4_mul(a, c), pn_f32x4_mul(b, s)));',
    replace: 'pn_f32x4_store(out + i, pn_f32x4_add(pn_f32x4_mul(a, c), pn_f32x4_mul(b, s)));',
    tests: ROPE,
  },
  {
    id: 'rope-offset', what: 'RoPE: the position offset ignored',
    file: 'src/rope.c', find: 'pn_pe_sincos_table(sn, cs, seq_len, half, rotary_dim, base, (double)offset);',
    replace: 'pn_pe_sincos_table(sn, cs, seq_len, half, rotary_dim, base, (double)0);',
    tests: ROPE,
  },
  {
    id: 'rope-ids-batch', what: 'RoPE: position ids read without the batch index',
    file: 'src/rope.c', find: '(double)position_ids[(size_t)b * (size_t)seq_len + (size_t)s]', replace: '(double)position_ids[(size_t)s]',
    tests: ROPE,
  },
  {
    id: 'rope-ids-float32', what: 'RoPE: position ids rounded to float32 (positions past 2^24 move)',
    file: 'src/rope.c', find: '(double)position_ids[(size_t)b * (size_t)seq_len + (size_t)s]', replace: '(double)(float)position_ids[(size_t)b * (size_t)seq_len + (size_t)s]',
    tests: ['rope_alibi::any magnitude'],
  },
  {
    id: 'rope-interleaved-flag', what: 'RoPE: interleaved and half-split pairings swapped',
    file: 'src/rope.c', find: '  if (interleaved) {', replace: '  if (!interleaved) {',
    tests: ROPE,
  },
  {
    id: 'rope-bhsd-layout', what: "RoPE: 'bhsd' addressed as 'bshd'",
    file: 'src/pn_internal.h', find: '? ((size_t)b * (size_t)heads + (size_t)h) * (size_t)seq_len + (size_t)s',
    replace: '? ((size_t)b * (size_t)seq_len + (size_t)s) * (size_t)heads + (size_t)h',
    tests: ROPE,
  },
  {
    id: 'alibi-slope-order', what: 'ALiBi: slopes of the power-of-two heads in reverse order',
    file: 'src/alibi.c', find: 'if (h < p) return slope_pow2(h, p);', replace: 'if (h < p) return slope_pow2(p - 1 - h, p);',
    tests: ['rope_alibi::ALiBi', 'kernel_sweep::alibi'],
  },
  {
    id: 'alibi-odd-slopes', what: 'ALiBi: the extra heads take the odd slopes of 2P heads ([1::2] for [0::2])',
    file: 'src/alibi.c', find: 'return slope_pow2(2 * (h - p), 2 * p);', replace: 'return slope_pow2(2 * (h - p) + 1, 2 * p);',
    tests: ['rope_alibi::ALiBi', 'kernel_sweep::alibi'],
  },
  // ---- the last element of the SIMD loops' tails ---------------------------
  {
    id: 'tail-layernorm-span', what: "LayerNorm's output span drops its last tail element",
    file: 'src/norm_rows.c', find: 'for (; j < n; j++) {', replace: 'for (; j + (CENTER) < n; j++) {',
    tests: NORMS,
  },
  {
    id: 'tail-rmsnorm-span', what: "RMSNorm's output span drops its last tail element",
    file: 'src/norm_rows.c', find: 'for (; j < n; j++) {', replace: 'for (; j + !(CENTER) < n; j++) {',
    tests: NORMS,
  },
  {
    id: 'tail-row-sums', what: 'row sums (LayerNorm, RMSNorm) leave out the last value of the tail',
    file: 'src/reduce.c', find: 'for (; j < n; j++) {', replace: 'for (; j + 1 < n; j++) {',
    tests: NORMS,
  },
  {
    id: 'tail-norm-affine', what: "LayerNorm/RMSNorm's γ/β pass drops its last tail element",
    file: 'src/norm_rows.c', find: 'for (; j < n; ++j) {', replace: 'for (; j + 1 < n; ++j) {',
    tests: NORMS,
  },
  {
    id: 'row-sums-step', what: 'the blocked row sums count one group of 4 twice and another not at all',
    file: 'src/pn_sums.h', find: 'pn_f32x4_add(pn_f32x4_add(d[0], d[1]), pn_f32x4_add(d[2], d[3]))',
    replace: 'pn_f32x4_add(pn_f32x4_add(d[0], d[1]), pn_f32x4_add(d[2], d[2]))',
    tests: NORMS,
  },
  {
    id: 'tail-row-sums-group', what: 'row sums leave out the last group of 4 after the blocks of 128',
    file: 'src/reduce.c', find: 'for (; j + 4 <= n; j += 4) {', replace: 'for (; j + 8 <= n; j += 4) {',
    tests: NORMS,
  },
  {
    id: 'tail-pe-pairs', what: 'PE: the scalar pairs after the groups of 4 lose the last one',
    file: 'src/pe.c', find: 'for (; i < cn; i++) {', replace: 'for (; i + 1 < cn; i++) {',
    tests: ['pe', 'kernel_sweep::positionalEncoding'],
  },
  {
    id: 'tail-rope-half', what: 'RoPE (half-split): the tail after the groups of 4 loses its last pair',
    file: 'src/rope.c', find: 'for (; i < half; i++) {', replace: 'for (; i + 1 < half; i++) {',
    tests: ROPE,
  },
  {
    id: 'tail-copy', what: 'pn_copy_f32 drops the last element of its tail',
    file: 'src/copy.c', find: 'for (; j < n; j++) dst[j] = src[j];', replace: 'for (; j + 1 < n; j++) dst[j] = src[j];',
    tests: [], wasm: false,
  },
  // ---- BatchNorm -----------------------------------------------------------
  {
    id: 'batchnorm-unbiased', what: 'BatchNorm: the unbiased batch variance (PyTorch) in place of the biased one (ONNX)',
    file: 'src/batchnorm.c', find: 'v[k] = v[k] / (double)rows - lo[k] * lo[k];', replace: 'v[k] = v[k] / (double)(rows > 1 ? rows - 1 : 1) - lo[k] * lo[k];',
    tests: ['norm::BatchNorm', 'edges::BatchNorm', 'kernel_sweep::batchNorm'],
  },
  {
    id: 'batchnorm-mean-rest', what: 'BatchNorm: y leaves out the part of the mean that the float64 Σx/n lost to its rounding',
    file: 'src/batchnorm.c', find: '- m[k]) - lo[k]) * inv[k])', replace: '- m[k]) - 0.0 * lo[k]) * inv[k])',
    tests: ['edges::63161283'],
  },
  {
    id: 'attention-softmax-no-max', what: "attention: the softmax does not subtract the row's largest score (Inf/Inf = NaN past exp's range)",
    file: 'src/pn_f64.c', find: 'sum += (a[j] = exp(a[j] - top));', replace: 'sum += (a[j] = exp(a[j]));',
    tests: ["article_kernels::scores far beyond exp's range"],
  },
  {
    id: 'batchnorm-momentum', what: 'BatchNorm: running mean weighted with 1 − momentum (PyTorch\'s sense) on the old value',
    file: 'src/batchnorm.c', find: '(double)momentum * (double)running_mean[c]', replace: '(1.0 - (double)momentum) * (double)running_mean[c]',
    tests: ['norm::BatchNorm', 'kernel_sweep::batchNorm'],
  },
  // ---- RoPE scaling ----------------------------------------------------------
  {
    id: 'yarn-ramp-high', what: "yarn: the ramp's upper bound rounded down instead of up",
    file: 'src/rope_scaling.c', find: 'high = ceil(high);', replace: 'high = floor(high);',
    tests: SCALING,
  },
  {
    id: 'yarn-clamp-low', what: "yarn: the ramp's lower bound not clamped at 0",
    file: 'src/rope_scaling.c', find: 'if (low < 0.0) low = 0.0;', replace: 'if (low < -1e300) low = 0.0;',
    tests: SCALING,
  },
  {
    id: 'yarn-clamp-high', what: "yarn: the ramp's upper bound clamped at dim/2 − 1 instead of dim − 1",
    file: 'src/rope_scaling.c', find: 'high = (double)(dim - 1);', replace: 'high = (double)(dim / 2 - 1);',
    tests: SCALING,
  },
  {
    id: 'yarn-mscale-ratio', what: 'yarn: attention factor m(mscale_all_dim)/m(mscale), upside down',
    file: 'src/rope_scaling.c', find: '? yarn_mscale(factor, mscale) / yarn_mscale(factor, mscale_all)',
    replace: '? yarn_mscale(factor, mscale_all) / yarn_mscale(factor, mscale)',
    tests: SCALING,
  },
  {
    id: 'llama3-blend', what: 'llama3: the smooth blend weights swapped',
    file: 'src/rope_scaling.c', find: 'out = (1.0 - smooth) * out / sc->factor + smooth * out;', replace: 'out = smooth * out / sc->factor + (1.0 - smooth) * out;',
    tests: SCALING,
  },
  {
    id: 'longrope-choice', what: 'longrope: the long factors already at seq_len = original_max_position_embeddings',
    file: 'src/rope_scaling.c', find: 'seq_len > original ? long_factor : short_factor', replace: 'seq_len >= original ? long_factor : short_factor',
    tests: SCALING,
  },
  {
    id: 'dynamic-exponent', what: 'dynamic NTK: base grown by the power (dim − 2)/dim instead of dim/(dim − 2)',
    file: 'src/rope_scaling.c', find: 'pow_pos(grow, (double)dim / (double)(dim - 2))', replace: 'pow_pos(grow, (double)(dim - 2) / (double)dim)',
    tests: SCALING,
  },
  // ---- PE ------------------------------------------------------------------
  {
    id: 'pe-frequency', what: 'PE/RoPE frequency base^(−i/d) instead of base^(−2i/d)',
    file: 'src/pn_math.c', find: 'return exp(-2.0 * (double)i / (double)dims * log_base);', replace: 'return exp(-1.0 * (double)i / (double)dims * log_base);',
    tests: ['pe', 'kernel_sweep::positionalEncoding|peSample'],
  },
  {
    id: 'pe-concat-layout', what: "PE concat: the cos block starts at floor(d/2) instead of ceil(d/2)",
    file: 'src/pe.c', find: 'pe_rows(out, out + n_pairs,', replace: 'pe_rows(out, out + n_cos,',
    tests: ['pe', 'kernel_sweep::positionalEncoding'],
  },
  {
    id: 'pe-anchor', what: 'PE: re-anchored one position behind at every PN_PE_ANCHOR rows',
    file: 'src/pe.c', find: 'const double p = offset + (double)r0;', replace: 'const double p = offset + (double)(r0 > 0 ? r0 - 1 : 0);',
    tests: ['pe', 'kernel_sweep::positionalEncoding'],
  },
  {
    // same bits either way: only the counting C test (sin/cos calls of one PE row) sees it
    id: 'pe-one-row-rotation', what: 'PE: one row reduces the rotation angle w_i of every pair as well (twice the sin/cos calls)',
    file: 'src/pe.c', find: 'if (rows > 1) {', replace: 'if (rows > 0) {',
    tests: [], wasm: false,
  },
  {
    id: 'pe-sample-pair', what: 'peSample: frequency of pair dim instead of dim/2',
    file: 'src/pe.c', find: 'pn_pe_frequency(pn_log(base), dim / 2, d_model)', replace: 'pn_pe_frequency(pn_log(base), dim, d_model)',
    tests: ['pe', 'kernel_sweep::peSample'],
  },
  // ---- angles near 2^31 in double-double (src/pn_math.c) -------------
  {
    id: 'dd-angle-no-rest', what: "angles past 2^20: w_i's double-double rest left out (θ = p·w_i exactly, of the float64 w_i)",
    file: 'src/pn_math.c', find: '+ pl * wl) + p * w_lo;', replace: '+ pl * wl) + p * w_lo * 0.0;',
    tests: ['pe::exact values near position', 'rope_alibi::near position 2'],
  },
  {
    id: 'dd-angle-no-lo-correction', what: "angles past 2^20: sin θ_hi without θ_lo's correction",
    file: 'src/pn_math.c', find: '*s = sh + (ch * sl - sh * hl);', replace: '*s = sh + 0.0 * (ch * sl - sh * hl);',
    tests: ['pe::exact values near position'],
  },
  {
    id: 'pe-rows-no-rests', what: 'PE: no anchor takes its angle in double-double (float64 angles near 2^31)',
    file: 'src/pe.c', find: 'if (!(p_last * W[i] < 0x1p20)) {', replace: 'if (0 && !(p_last * W[i] < 0x1p20)) {',
    tests: ['pe::exact values near position', 'rope_alibi::near position 2'],
  },
  {
    // linear factor 1 (the JS test's scaled case) has coefficients (1, 1, 0): only the C test's factors 2 and 0.75 see it
    id: 'scaled-rest-without-coefficients', what: "RoPE scaling: a scaled frequency's rest taken as w_i's, not w_i·(a/d + b)'s",
    file: 'src/rope_scaling.c', find: 'pn_freq_dd_rest(&fdd, i, inv_freq[i], k);', replace: 'pn_freq_dd_rest(&fdd, i, inv_freq[i], NULL);',
    tests: [], wasm: false,
  },
  {
    // (the angle pos·div as a float64 product rounded once is the same float32 product: IEEE
    // multiplication is correctly rounded, so that mutation could not be seen by any test)
    id: 'pe-float32-code-exponent', what: "the article's float32 PE code: exp's argument 2i·scale formed in float64",
    // (the float32 code is lowprec.c's with every tensor in float32: pe_float32.c)
    file: 'src/lowprec.c', find: 'const float e = pn_round_to(k * scale, st);', replace: 'const double e = st == PN_DTYPE_FLOAT32 ? (double)k * (double)scale : pn_round_to(k * scale, st);',
    tests: ['pe::precision'],
  },
  // ---- bfloat16 / float16 -------------------------------------------------------
  {
    // a nudge of one float32 ulp before the rounding add: every exact tie goes away from zero
    id: 'lowprec-ties-away', what: 'bfloat16/float16 rounding: ties away from zero instead of to even',
    file: 'src/pn_lowprec.h', find: 'const float sum = a + m;', replace: 'const float sum = nextafterf(a, INFINITY) + m;',
    tests: ['lowprec'], native: false,
  },
  {
    id: 'lowprec-f16-no-subnormals', what: 'float16 rounding: subnormal spacing 2^-25 instead of 2^-24',
    file: 'src/pn_lowprec.h', find: 'pn_round_mag(fabsf(x), 10, -24)', replace: 'pn_round_mag(fabsf(x), 10, -25)',
    tests: ['lowprec'], native: false,
  },
  {
    id: 'lowprec-rope-angle-float32', what: "RoPE compute 'low': the angle product left in float32",
    file: 'src/lowprec.c', find: 'const float angle = pn_round_to(pos * inv, st);', replace: 'const float angle = pos * inv;',
    tests: ['lowprec'], native: false,
  },
  // ---- LayerNorm and RMSNorm internals ---------------------------------------
  {
    id: 'layernorm-mean-correction', what: 'LayerNorm: the provisional shift taken as the mean (no correction)',
    file: 'src/reduce.c', find: '*mean = (double)shift + c;', replace: '*mean = (double)shift;',
    tests: NORMS,
  },
  {
    id: 'layernorm-second-pass', what: 'LayerNorm: no second pass when the shift is far from the mean',
    file: 'src/reduce.c', find: 'if (pass == 1 || c * c <= 0.25 * v) {', replace: 'if (pass == 1 || c * c <= 1e300 * v) {',
    tests: NORMS,
  },
  {
    id: 'layernorm-mean-low-part', what: "LayerNorm: the mean's low part (mean − (float)mean) dropped",
    file: 'src/norm_rows.c', find: 'const double c = mu - (double)hi;', replace: 'const double c = 0.0 * mu;',
    tests: NORMS,
  },
  {
    // the native C test test_layernorm_drop_lo catches it (the mean error of rows whose |lo·inv| lies in (2^-24, 2^-23])
    id: 'layernorm-drop-lo-looser', what: "LayerNorm: the mean's low part dropped from rows with |lo·inv| up to 2^-23 (not 2^-24)",
    file: 'src/norm_rows.c', find: '#define DROP_LO 0x1p-24', replace: '#define DROP_LO 0x1p-23',
    tests: [], wasm: false,
  },
  {
    // (dropping this row's mean correction, m += c, changes it by rounding error of float64
    // far below float32's: no test can see it)
    id: 'layernorm-f64-row-eps', what: "LayerNorm's float64 row (overflowing rows): 1/(√var + ε)",
    file: 'src/norm_rows.c', find: 'const double inv = 1.0 / sqrt(var + (double)eps);\n  if (center) m += c;',
    replace: 'const double inv = center ? 1.0 / (sqrt(var) + (double)eps) : 1.0 / sqrt(var + (double)eps);\n  if (center) m += c;',
    tests: NORMS,
  },
  {
    id: 'rmsnorm-f64-row', what: "RMSNorm's float64 row (overflowing rows): mean square over n + 1",
    file: 'src/norm_rows.c', find: 'pn_mean_var_f64(pn_values_f32(x, (size_t)n), center, &m, &var, &c);', replace: 'pn_mean_var_f64(pn_values_f32(x, (size_t)n), center, &m, &var, &c);\n  if (!center) var *= (double)n / (double)(n + 1);',
    tests: NORMS,
  },
  {
    id: 'layernorm-steps-variance', what: 'layerNormSteps: the unbiased variance',
    file: 'src/pn_f64.c', find: '*var = sumsq / n;', replace: '*var = sumsq / (n > 1 ? n - 1 : 1);',
    tests: ['article_kernels::LayerNorm steps', 'kernel_sweep::layerNormSteps'],
  },
  // ---- histogram, colormap, random ---------------------------------------------
  {
    id: 'histogram-max', what: 'histogram: x = max counted above the range instead of in the last bin',
    file: 'src/histogram.c', find: '} else if (v > hi) {', replace: '} else if (v >= hi) {',
    tests: ['figures_kernels::histogram', 'kernel_sweep::histogram'],
  },
  {
    id: 'colormap-round', what: 'colormap: index truncated instead of rounded',
    file: 'src/colormap.c', find: '((double)x[j] - lo) * scale + 0.5;', replace: '((double)x[j] - lo) * scale;',
    tests: ['figures_kernels::colormap', 'edges::colormap', 'kernel_sweep::colormap'],
  },
  {
    id: 'random-uniform', what: 'random: uniforms from next >> 9 (only half of (−1, 1))',
    file: 'src/random.c', find: '(xoshiro128ss(s) >> 8)', replace: '(xoshiro128ss(s) >> 9)',
    tests: ['figures_kernels::randomNormal', 'kernel_sweep::randomNormal'],
  },
  {
    id: 'random-pair', what: "random: the pair's second sample from a instead of b",
    file: 'src/random.c', find: 'out[k++] = (float)(mean + std * (b[j] * f[j]));', replace: 'out[k++] = (float)(mean + std * (a[j] * f[j]));',
    tests: ['figures_kernels::randomNormal', 'kernel_sweep::randomNormal'],
  },
  {
    id: 'random-draw-past-n', what: 'random: one more pair drawn and written when outputs end on a pair (a float past n for n even)',
    file: 'src/random.c', find: '} while (pairs < PAIRS && k + 2 * pairs < n);', replace: '} while (pairs < PAIRS && k + 2 * pairs <= n);',
    tests: [], wasm: false,
  },
  {
    id: 'random-log-lanes', what: "random: each log of a pair of logs takes the other lane's exponent (pn_log, which passes one value twice, is unchanged)",
    file: 'src/pn_math.h', find: 'e = pn_f64x2_make(e0, e1);', replace: 'e = pn_f64x2_make(e1, e0);',
    tests: ['figures_kernels::randomNormal'],
  },
  // ---- the block and the residual stack ---------------------------------------
  {
    id: 'block-post-norm-stream', what: 'block, Post-Norm: the FFN added to x + a instead of Norm(x + a)',
    file: 'src/block.c', find: '? slot[3] : slot[4];', replace: '? slot[3] : slot[3];',
    tests: ['block', 'kernel_sweep::transformerBlock'],
  },
  {
    id: 'stack-post-ln-branch', what: 'residual stack, Post-LN: the branch left out (x ← LN(x))',
    file: 'src/depth.c', find: 'x[k] = x[k] + (float)pn_gelu_f64((double)z[k], gelu);',
    replace: 'x[k] = x[k] + (block == PN_BLOCK_POST_LN ? 0.0f : (float)pn_gelu_f64((double)z[k], gelu));',
    tests: STACK,
  },
  {
    id: 'stack-pre-rms-eps', what: "residual stack, Pre-RMSNorm: eps 1e-6 (RMSNorm's default) instead of 1e-5",
    file: 'src/depth.c', find: 'pn_rmsnorm_f32(h, NULL, x, NULL, rows, width, 1e-5f);', replace: 'pn_rmsnorm_f32(h, NULL, x, NULL, rows, width, 1e-6f);',
    tests: STACK,
  },
  {
    id: 'grad-gelu-derivative', what: "backward pass: GELU's derivative without the cubic term's",
    file: 'src/pn_f64.c', find: '* PN_GELU_K * (1.0 + 3.0 * PN_GELU_C * z * z);', replace: '* PN_GELU_K;',
    tests: STACK,
  },
  {
    id: 'grad-rmsnorm-mean', what: "backward pass: RMSNorm's backward subtracts the mean of dy (LayerNorm's)",
    file: 'src/pn_f64.c', find: '(dyr[j] - (rms ? 0.0 : mdy) - yr[j] * mdyy)', replace: '(dyr[j] - (rms ? mdy : mdy) - yr[j] * mdyy)',
    tests: STACK,
  },
  {
    id: 'grad-weight-scale', what: 'backward pass: ∂loss/∂W without the weight scale',
    file: 'src/depth_grad.c', find: '      acc *= s;', replace: '      acc *= (s > 0.0 ? 1.0 : s); /* s stays used: -Werror */',
    tests: STACK,
  },
  {
    id: 'min-distance-last-tie', what: 'minRowDistance: the last closest pair on a tie (<= for <)',
    file: 'src/pe_props.c', find: '      if (s < best) {\n        best = s;', replace: '      if (s <= best) {\n        best = s;',
    tests: ['regressions::first closest pair'], native: false,
  },
  // ---- the residual stack's memory branch (issue #19) ---------------------------------
  {
    id: 'memory-forward-scale', what: 'residual stack, memory: c = m·C_l without the weight scale',
    file: 'src/depth.c', find: 'matmul(c, memory, w + wsize, 1, width, weight_scale);', replace: 'matmul(c, memory, w + wsize, 1, width, 1.0f);',
    tests: MEMORY,
  },
  {
    id: 'memory-pre-after-norm', what: 'residual stack, memory: Pre-Norm adds m·C_l beside the branch (after the norm) instead of before it',
    file: 'src/depth.c', find: 'if (memory && (block == PN_BLOCK_PLAIN || block == PN_BLOCK_POST_LN))', replace: 'if (memory && block != PN_BLOCK_PRE_LN && block != PN_BLOCK_PRE_RMS && 0)',
    tests: MEMORY,
  },
  {
    id: 'memory-grad-post-ln-dropped', what: 'backward pass, memory: Post-LN forgets the memory branch in the float64 forward pass',
    file: 'src/depth_grad.c', find: 'if (g->memory && !g->pre)\n', replace: 'if (g->memory && g->block == PN_BLOCK_PLAIN)\n',
    tests: MEMORY,
  },
  {
    id: 'memory-grad-pre-residual', what: "backward pass, memory: Pre-Norm's ∂loss/∂C_l from the branch's input gradient only, without the residual's",
    file: 'src/depth_grad.c', find: 'if (g->memory && g->pre) memory_grad(g, l, g->dx, grad);', replace: 'if (g->memory && g->pre) memory_grad(g, l, g->dbranch, grad);',
    tests: MEMORY,
  },
  {
    id: 'memory-grad-one-row', what: "backward pass, memory: ∂loss/∂C_l sums the first row's gradient only",
    file: 'src/depth_grad.c', find: 'for (int32_t r = 0; r < g->rows; r++) col += d[', replace: 'for (int32_t r = 0; r < 1; r++) col += d[',
    tests: MEMORY,
  },
  // ---- GELU's erf form -------------------------------------------------------------
  {
    id: 'erf-cf-levels', what: "GELU erf: the continued fraction stopped at a quarter of its levels",
    file: 'src/pn_f64.c', find: 'const int levels = (int)(200.0 / (x * x)) + 9;', replace: 'const int levels = (int)(50.0 / (x * x)) + 2;',
    tests: ['block::every tensor'],
  },
  {
    id: 'erf-series-cut', what: 'GELU erf: for z < 0 the series (and 1 − erf) up to x = 2 instead of 1 (cancellation)',
    file: 'src/pn_f64.c', find: 'normal_upper_tail(a, e, z < 0.0 ? 1.0 : 2.0)', replace: 'normal_upper_tail(a, e, z < 0.0 ? 2.0 : 2.0)',
    tests: ['block::every tensor'],
  },
  {
    id: 'erf-grad-density', what: "GELU erf's derivative: z·φ(z) with 1/√π instead of 1/√(2π)",
    file: 'src/pn_f64.c', find: 'p + z * e * PN_1_SQRT2PI;', replace: 'p + z * e * (0.5 * PN_2_SQRTPI);',
    tests: MEMORY,
  },
  {
    id: 'block-gelu-form-ignored', what: "block: the FFN's GELU always erf, whatever the form asked for",
    file: 'src/block.c', find: 'hidden[i] = pn_gelu_f64(hidden[i], gelu);', replace: 'hidden[i] = pn_gelu_f64(hidden[i], gelu | PN_GELU_ERF);',
    tests: ['block'],
  },
  {
    id: 'js-block-gelu-default', what: "JS: transformerBlock's GELU defaults to the tanh form instead of nn.GELU()'s erf",
    file: 'src/js/figure-kernels.js', find: "const gelu = v.oneOf(fn, 'gelu', o.gelu ?? 'erf', GELU_FORMS);", replace: "const gelu = v.oneOf(fn, 'gelu', o.gelu ?? 'tanh', GELU_FORMS);",
    tests: ['block'],
  },
  {
    id: 'js-memory-finite', what: "JS: residualStack's memory values not checked for being finite",
    file: 'src/js/call.js', find: '    if (!Number.isFinite(a[k])) throw', replace: '    if (Number.isNaN(a[k] - a[k]) && false) throw',
    tests: MEMORY,
  },
  // ---- the JS wrapper (no rebuild) ------------------------------------------------
  {
    id: 'js-readout-seed', what: "JS: residualStack's default read-out from another seed than the documented one",
    file: 'src/js/figure-kernels.js', find: 'const READOUT_SEED = 20200;', replace: 'const READOUT_SEED = 20201;',
    tests: ['depth_grad'],
  },
  {
    id: 'js-freed-view', what: 'JS: a view kept from a freed buffer is held only to lie within some live buffer (another buffer took its bytes)',
    file: 'src/js/memory.js', find: 'if (owner !== undefined && owner.freed) {', replace: 'if (owner !== undefined && owner.freed && false) {',
    tests: ['buffers::a view kept from a freed buffer', 'norm_stats_out::a wrong meanOut'],
  },
  {
    id: 'js-relabelled-array', what: 'JS: a typed array is taken by its prototype alone (a Uint8Array relabelled as a Float32Array passes)',
    file: 'src/js/validate.js', find: 'if (Type === undefined || typedArrayTag(v) !== Type.name) return false;', replace: 'if (Type === undefined) return false;',
    tests: ['arguments_during_call::another type\'s prototype'],
  },
  {
    id: 'js-batchnorm-iterator', what: 'JS: batchNorm copies its running statistics with Float32Array.from (an own iterator runs after the checks)',
    file: 'src/js/posnorm-core.js', find: 'const copy = (a) => new Float32Array(isPnBuffer(a) ? a.array : a);', replace: 'const copy = (a) => Float32Array.from(isPnBuffer(a) ? a.array : a);',
    tests: ['arguments_during_call::without calling an iterator'],
  },
  {
    id: 'js-options-own-only', what: 'JS: names on the options\' prototype chain are not checked (a class getter gama is ignored)',
    file: 'src/js/validate.js', find: 'for (let o = v; o !== null && o !== Object.prototype && !isObjectPrototype(o); o = protoOf(o)) {', replace: 'for (let o = v; o === v; o = null) {',
    tests: ['api::prototype chain'],
  },
  {
    id: 'js-yarn-beta-fast', what: 'JS: yarn betaFast defaults to 16 instead of 32',
    file: 'src/js/posnorm-core.js', find: 'params[2] = s.betaFast === undefined ? 32 :', replace: 'params[2] = s.betaFast === undefined ? 16 :',
    tests: SCALING,
  },
  {
    id: 'js-rope-scaling-length', what: 'JS: rope({ scaling }) picks dynamic/longrope frequencies by the highest position, not + 1',
    file: 'src/js/posnorm-core.js', find: 'top ??= offset + seqLen;', replace: 'top ??= offset + seqLen - 1;',
    tests: SCALING,
  },
  {
    id: 'js-batchnorm-momentum', what: 'JS: batchNorm momentum defaults to 0.1 (PyTorch) instead of 0.9 (ONNX)',
    file: 'src/js/posnorm-core.js', find: 'o.momentum ?? 0.9', replace: 'o.momentum ?? 0.1',
    tests: ['regressions::documented defaults'],
  },
  {
    id: 'js-sequential-vmin', what: "JS: the sequential colormap's vmin defaults to -1 instead of 0",
    file: 'src/js/posnorm-core.js', find: "(map === 'diverging' ? -1 : 0)", replace: "(map === 'diverging' ? -1 : -1)",
    tests: ['regressions::documented defaults'],
  },
  {
    id: 'js-random-seed', what: 'JS: randomNormal seed defaults to 1 instead of 0',
    file: 'src/js/posnorm-core.js', find: 'o.seed ?? 0,', replace: 'o.seed ?? 1,',
    tests: ['regressions::documented defaults'],
  },
  {
    id: 'js-block-heads', what: 'JS: transformerBlock heads defaults to 2 for an even dModel instead of 1',
    file: 'src/js/figure-kernels.js', find: 'o.heads ?? 1, 1, dModel', replace: 'o.heads ?? (dModel % 2 ? 1 : 2), 1, dModel',
    tests: ['regressions::documented defaults'],
  },
  {
    id: 'js-histogram-constant', what: "JS: histogram's range around one value ± 1 instead of ± 0.5",
    file: 'src/js/posnorm-core.js', find: 'Math.max(0.5, Math.abs(min)', replace: 'Math.max(1, Math.abs(min)',
    tests: ['regressions::documented defaults'],
  },
  // ---- a figure (browser test) ------------------------------------------------------
  {
    id: 'web-depth-decoder-memory', what: "depth figure: the decoder's spreads computed without its memory branch",
    file: 'web/figures/depth.js', find: '{ width, layers, block, scale, memory: dec.memory })', replace: '{ width, layers, block, scale })',
    tests: ['figures_article::decoder'],
  },
  {
    id: 'web-depth-ratio', what: "depth figure: Post-LN's and Pre-LN's gradient ratios swapped",
    file: 'web/figures/depth.js', find: 'const post = ratio(1), pre = ratio(2);', replace: 'const post = ratio(2), pre = ratio(1);',
    tests: ['figures_article::depth'],
  },
  {
    id: 'web-depth-swap-keeps-run', what: "depth figure: swapping to the state before leaves a run begun for a third state going (its answer pushes the swapped-out state from the memory)",
    file: 'web/figures/depth.js', find: '      this._gradBefore = shown;\n      if (this._gradTask.key !== undefined) this._gradTask.cancel();\n', replace: '      this._gradBefore = shown;\n',
    tests: ['figure_caches::gradients of the state shown before'],
  },
  {
    id: 'web-depth-weights-name-no-seed', what: "depth figure: the Worker's copy of the weights named by width and layers, not the seed (a new seed alone reuses the old weights)",
    file: 'web/figures/depth.js', find: ': `${wKey}|${drawn}`;', replace: ': `${width}|${drawn}`;',
    tests: ['off_thread::in every state, as width'],
  },
  {
    id: 'web-long-context-states-fifo', what: 'long-context: kept states dropped oldest-computed first, not least recently shown',
    file: 'web/figures/long-context.js', find: '    if (state) states.delete(key);', replace: '    if (state) return state;',
    tests: ['figure_caches::long-context'],
  },
  // ---- the figure core: language, styles, the page, links, controls, slices ----
  {
    id: 'web-lang-subtree', what: "figures' lang watch: <html lang> only (no subtree), so a section's switched lang is missed",
    file: 'web/figures/core/observers.js', find: "attributeFilter: ['lang'], subtree: true }", replace: "attributeFilter: ['lang'] }",
    tests: ['figures_core::follows a lang switched'],
  },
  {
    id: 'web-lang-refresh-same', what: 'figures: any lang change relabels and redraws, also one that leaves their language',
    file: 'web/figures/core/language.js', find: 'if (this._shown === null || this._shown === this.lang) return;', replace: 'if (this._shown === null) return;',
    tests: ['figures_core::follows a lang switched'],
  },
  {
    id: 'web-lang-watch-kept', what: "figures: the lang watch kept after leaving the page (an off-page figure relabels, and the shared watch holds it for good)",
    file: 'web/figures/core/language.js', find: 'hostDisconnected() {\n    this._stopWatch?.();\n    this._stopWatch = null;\n  }', replace: 'hostDisconnected() {}',
    tests: ['figures_core::follows a lang switched'],
  },
  {
    id: 'web-lang-no-shadow-hosts', what: "figures: a figure's language looked for in its own tree only (inside another component's shadow root it takes <html lang>'s)",
    file: 'web/figures/core/language.js', find: 'for (let node = el; node; node = node.getRootNode?.().host) {', replace: 'for (let node = el; node; node = null) {',
    tests: ['figure_lifecycle::shadow root'],
  },
  {
    id: 'web-scheme-body-swap', what: 'figures: a <body> put in place of the first is not watched for a theme (Turbo)',
    file: 'web/figures/core/observers.js', find: 'attrs.observe(html, { attributes: true, childList: true });', replace: 'attrs.observe(html, { attributes: true });',
    tests: ['figure_lifecycle::iframe'],
  },
  {
    id: 'web-curve-fractional', what: "curves: the hairlines' points passed unrounded (each a fresh heap number)",
    file: 'web/figures/draw/curve.js', find: 'ctx.lineTo(Math.round((xs[k] + d * nx[k]) * SUBPIXEL), Math.round((ys[k] + d * ny[k]) * SUBPIXEL));',
    replace: 'ctx.lineTo((xs[k] + d * nx[k]) * SUBPIXEL, (ys[k] + d * ny[k]) * SUBPIXEL);',
    tests: ['figure_alloc::drawing curves'],
  },
  {
    id: 'web-rowdots-subarray', what: "RoPE scores: a subarray per row (2.7 MB in the score loop, inside the drag's whole-heap limit)",
    file: 'web/figures/draw/row-dots.js', find: 'for (let c = 0; c < dim; c++) s += rows[j * dim + c] * v[c];',
    replace: 'const r = rows.subarray(j * dim, (j + 1) * dim);\n    for (let c = 0; c < dim; c++) s += r[c] * v[c];',
    tests: ['figure_alloc::score loop'],
  },
  {
    id: 'web-buffers-outgrown-kept', what: "figures: an outgrown buffer kept (unreachable) instead of freed",
    file: 'web/figures/core/buffers.js', find: 'e.buffer.free();', replace: '(globalThis.__kept ??= []).push(e.buffer);',
    tests: ['figures_core::holds no wasm memory'],
  },
  {
    id: 'web-leave-keeps-buffers', what: 'figures: buffers kept (not freed) while the figure is off the page',
    file: 'web/figures/core/base.js', find: '    this.buffers.clear();', replace: '',
    tests: ['browser::put back free and remake'],
  },
  {
    id: 'web-error-line-worker-kept', what: "error readout: the Worker's run not cancelled when the figure leaves the page",
    file: 'web/figures/draw/pe-error.js', find: '    this._worker.cancel();\n    this._scratch.free();', replace: '    this._scratch.free();',
    tests: ['pe_error_line::nothing once off the page'],
  },
  {
    id: 'web-embed-snippet-unlabelled', what: "Embed dialog: the snippets' labels not tied to their text areas",
    file: 'web/figures/core/embed-dialog.js', find: "htmlFor: area.id, key: labelKey", replace: "key: labelKey",
    tests: ['a11y::1280 px light'],
  },
  {
    id: 'js-colormap-no-reserve', what: "API: colormap allocates without reserving the call's memory first (a fresh instance grows by 1 GiB before it fails)",
    file: 'src/js/posnorm-core.js', find: "this.#reserve(fn, `x.length ${size}`, [['x', x]], [[out, 4 * size]]);", replace: 'void 0;',
    tests: ['boundaries::a call whose copies, outputs and scratch pass 2 GiB'],
  },
  {
    id: 'js-llama3-equal-factors', what: 'API: llama3 scaling takes highFreqFactor equal to lowFreqFactor (the kernel then rejects it, unnamed)',
    file: 'src/js/posnorm-core.js', find: 'if (!(params[8] > params[7])) throw', replace: 'if (!(params[8] >= params[7])) throw',
    tests: ['rope_scaling::checked and named'],
  },
  {
    id: 'rng-std-squared', what: 'random normal: mean + std²·z (the same as mean + std·z at std 1)',
    file: 'src/random.c', find: 'out[k++] = (float)(mean + std * (a[j] * f[j]));', replace: 'out[k++] = (float)(mean + std * std * (a[j] * f[j]));',
    tests: [], wasm: false,
  },
  {
    id: 'web-accent-text-pale', what: "colours: a light-mode accent of 3.58:1 (text in .steps b and rope-config's warning)",
    file: 'web/figures/core/style.js', find: '--pn-accent: #c2410c;', replace: '--pn-accent: #e8590c;',
    tests: ['colours'],
  },
  {
    id: 'oembed-frame-poster-width', what: "oEmbed: the iframe as wide as the poster, 16 px narrower than the page its height was measured in",
    file: 'tools/build-oembed.mjs', find: 'oembedFor(name, lang, site, poster, { width: frameWidth, height: frameHeight })', replace: 'oembedFor(name, lang, site, poster, { width: poster.width, height: frameHeight })',
    tests: ['oembed'],
  },
  {
    id: 'rope-rotation-scalar', what: "RoPE: the v128 rotation loop never taken (the SIMD build rotates lane by lane, the same bits)",
    file: 'src/rope.c', find: 'for (; i + 4 <= half; i += 4) {', replace: 'for (; 0 && i + 4 <= half; i += 4) {',
    tests: ['build_outputs::v128 instructions'], native: false,
  },
  {
    id: 'js-yarn-beta-fast-default', what: "API: YaRN's betaFast defaults to 16, not 32 (Hugging Face's default)",
    file: 'src/js/posnorm-core.js', find: "params[2] = s.betaFast === undefined ? 32 :", replace: "params[2] = s.betaFast === undefined ? 16 :",
    tests: ["api_docs::scaling table's defaults"],
  },
  {
    id: 'web-slices-whole-budget', what: 'background slices planned to their whole budget instead of half',
    file: 'web/figures/core/background.js', find: 'export const SLICE_PLAN = 0.5;', replace: 'export const SLICE_PLAN = 1;',
    tests: ['background_slices::without Worker', 'background'],
  },
  {
    id: 'web-slices-three-quarters', what: 'background slices planned to 3/4 of their budget instead of half',
    file: 'web/figures/core/background.js', find: 'export const SLICE_PLAN = 0.5;', replace: 'export const SLICE_PLAN = 0.75;',
    tests: ['background_slices::without Worker', 'background'],
  },
  {
    id: 'web-slices-idle-deadline-ignored', what: "background slices (no scheduler.postTask) take their whole budget, not the idle period's time left",
    file: 'web/figures/core/background.js', find: 'done(Math.min(budget, d.timeRemaining()))', replace: 'done(budget)',
    tests: ['background::postTask exists'],
  },
  {
    id: 'js-method-this-unchecked', what: "API: rope called on anything but an instance runs its argument checks and fails on a private field, not naming itself",
    file: 'src/js/posnorm-core.js', find: "    const fn = 'rope';\n    inside(this, fn);\n", replace: "    const fn = 'rope';\n",
    tests: ['api'],
  },
  {
    id: 'js-door-holds-instances', what: "API: figure-kernels.js's door to an instance's private state holds every instance (and its wasm memory) for ever",
    file: 'src/js/internals.js', find: 'export const internals = new WeakMap();', replace: 'export const internals = new Map();',
    tests: ['posnorm_core'],
  },
  {
    id: 'js-steps-freed-gamma', what: "API: layerNormSteps reads gamma and beta without checking that they do not view a freed buffer",
    file: 'src/js/figure-kernels.js', find: "[['x', x], ['gamma', gamma], ['beta', beta]], [], 12 * n + 8", replace: "[['x', x]], [], 12 * n + 8",
    tests: ['buffers'],
  },
  {
    id: 'js-frame-not-released-on-throw', what: "API: a call's temporaries released only when it returns, not when it throws",
    file: 'src/js/call.js', find: '  try {\n    return body(frame);\n  } finally {\n    frame.release();\n  }',
    replace: '  const result = body(frame);\n  frame.release();\n  return result;',
    tests: ['api', 'arguments_during_call'],
  },
  {
    id: 'web-events-detached', what: 'figures: events fired from a figure off the page',
    file: 'web/figures/core/element.js', find: 'if (!el.isConnected) return;', replace: 'if (false) return;',
    tests: ['figure_lifecycle::off the page fires no event'],
  },
  {
    id: 'web-lang-own-attribute', what: "figures: their own lang attribute left to the page's lang watch, which does not see into other shadow roots",
    file: 'web/figures/core/element.js', find: 'if (old !== value) this.languageChanged?.();', replace: '',
    tests: ["figures_core::in another element's shadow root"],
  },
  {
    id: 'web-lang-connect', what: 'figures: no language check on (re)connect, so one moved into a section of another lang keeps its labels',
    file: 'web/figures/core/language.js', find: 'this._stopWatch ??= onLanguageChange(() => this.refresh(), this.host.ownerDocument);\n    this.refresh();', replace: 'this._stopWatch ??= onLanguageChange(() => this.refresh(), this.host.ownerDocument);',
    tests: ['figures_core::follows the language it inherits'],
  },
  {
    id: 'web-lang-code-case', what: "languageCode: 'EN' and 'En-gb' not English (case kept)",
    file: 'web/figures/core/language.js', find: ".split(/[-_]/)[0].toLowerCase() === 'en'", replace: ".split(/[-_]/)[0] === 'en'",
    tests: ['embedding::read lang='],
  },
  {
    id: 'web-frame-lang-empty', what: "figure-frame.js: an empty ?lang= taken as a language (Korean), not the page's own",
    file: 'web/figure-frame.js', find: "(asked || page || 'ko')", replace: "(asked ?? page ?? 'ko')",
    tests: ["oembed::a figure's page shows"],
  },
  {
    id: 'web-style-document', what: "figure styles: every document's sheet made by the top window's CSSStyleSheet",
    file: 'web/figures/core/style.js', find: 'const Sheet = doc.defaultView?.CSSStyleSheet ?? CSSStyleSheet;', replace: 'const Sheet = CSSStyleSheet;',
    tests: ['figure_memory::without a window'],
  },
  {
    id: 'web-style-shared', what: 'figure styles: a new CSSStyleSheet for every figure (none shared within a document)',
    file: 'web/figures/core/style.js', find: 'let sheet = sheets.get(text);', replace: 'let sheet = null;',
    tests: ['figures_core::share one stylesheet'],
  },
  {
    id: 'web-restyle', what: 'figures: no restyle on reconnect (back from another document, unstyled)',
    file: 'web/figures/core/base.js', find: 'restyle(this.shadowRoot); // its sheets', replace: '// its sheets',
    tests: ['figure_memory::without a window'],
  },
  {
    id: 'web-onpage-window', what: 'onPage: connected is enough (a windowless document counts as the page)',
    file: 'web/figures/core/base.js', find: 'return this.isConnected && Boolean(this.ownerDocument.defaultView);', replace: 'return this.isConnected;',
    tests: ['figure_memory::without a window'],
  },
  {
    id: 'web-onpage-pagehide', what: "figures: an iframe's pagehide not taken as leaving the page (persisted test inverted)",
    file: 'web/figures/core/base.js', find: 'if (!event.persisted) this._leave();', replace: 'if (event.persisted) this._leave();',
    tests: ['figure_memory::without a window'],
  },
  {
    id: 'web-leave-keeps-pagehide', what: "figures: leaving an iframe's document keeps its pagehide listener (the figure, back on the page, leaves it when the iframe goes)",
    file: 'web/figures/core/base.js', find: '    this._here = false;\n    this._stopWatch?.();\n', replace: '    this._here = false;\n',
    tests: ['figures_core::back from an iframe'],
  },
  {
    id: 'web-embed-onpage', what: 'embedCode: started is enough (a figure in a windowless document gives snippets)',
    file: 'web/figures/core/embed.js', find: 'if (!fig.pn || !fig.onPage) {', replace: 'if (!fig.pn) {',
    tests: ['figures_core::ask for a figure on the page'],
  },
  {
    id: 'web-buffer-onpage', what: 'buffer(): connected is enough (toCsv() in a windowless document takes wasm memory)',
    file: 'web/figures/core/base.js', find: 'if (!this.onPage || !this.pn) {', replace: 'if (!this.isConnected || !this.pn) {',
    tests: ['figures_core::ask for a figure on the page'],
  },
  {
    id: 'web-heatmap-image-kept', what: "heatmap: its pixels' canvas kept (blanked) when it leaves the page",
    file: 'web/figures/heatmap.js', find: "if (this._image) Object.assign(this._image, { width: 0, height: 0 });\n        this._image = null;", replace: "if (this._image) Object.assign(this._image, { width: 0, height: 0 });",
    tests: ['figure_memory::without a window'],
  },
  {
    id: 'web-cursor-edge', what: 'heatmap: the cursor clamped only past the matrix (pos > seqLen), not at seqLen',
    file: 'web/figures/heatmap.js', find: 'if (pos >= this.seqLen || dim >= this.dModel)', replace: 'if (pos > this.seqLen || dim > this.dModel)',
    tests: ['figures_core::moveCursor'],
  },
  {
    id: 'web-cursor-at-once', what: 'heatmap: the cursor clamped at the next render, not when the sizes change',
    file: 'web/figures/heatmap.js', find: 'controlsChanged() {\n    this._clampCursor();', replace: 'controlsChanged() {',
    tests: ['figures_core::moveCursor'],
  },
  {
    id: 'web-sharekey-set', what: 'link keys: figures whose shareKey was set count in the numbering',
    file: 'web/figures/core/share.js', find: 'if (!other.id && other._shareKey === undefined) n++;', replace: 'if (!other.id) n++;',
    tests: ['figures_core::link key was set'],
  },
  {
    id: 'web-sharekey-id', what: 'link keys: figures with an id count in the numbering',
    file: 'web/figures/core/share.js', find: 'if (!other.id && other._shareKey === undefined) n++;', replace: 'if (other._shareKey === undefined) n++;',
    tests: ['figures_core::a link from one of two'],
  },
  {
    id: 'web-fragment-decode', what: "Copy link: the fragment compared with the page's ids still percent-encoded",
    file: 'web/figures/core/share.js', find: 'id = decodeURIComponent(id);', replace: 'void 0;',
    tests: ['figures_core::a link points at the figure'],
  },
  {
    id: 'web-control-minus-zero', what: 'controls: −0 kept (a change from 0, with a posnorm-change)',
    file: 'web/figures/core/controls.js', find: 'return v === 0 ? 0 : v;', replace: 'return v;',
    tests: ['figures_core::−0 is read'],
  },
  {
    id: 'web-control-past-double', what: 'controls: a decimal past a double\'s range ("1e309") means the default',
    file: 'web/figures/core/controls.js', find: 'value = Number(raw);', replace: 'value = Number.isFinite(Number(raw)) ? Number(raw) : NaN;',
    tests: ['figures_core::one parse rule|a decimal past'],
  },
  {
    id: 'web-slice-clear-all', what: "background slices: clearMeasures() without their name (the page's own measures wiped)",
    file: 'web/figures/core/background.js', find: 'performance.clearMeasures?.(SLICE_MEASURE);', replace: 'performance.clearMeasures?.();',
    tests: ['background::clear their own measures'],
  },
  // ---- the JS wrapper's arguments ----------------------------------------------------
  {
    id: 'js-init-simd-build', what: 'init: simd: false accepts the SIMD build (only simd: true checked)',
    file: 'src/js/posnorm-core.js', find: "if (want !== 'auto' && built !== want)", replace: "if (want === true && built !== want)",
    tests: ['api::init picks'],
  },
  {
    id: 'js-options-snapshot', what: 'JS: options read live, not as a snapshot (a getter gives the checks and the copy different arrays)',
    file: 'src/js/validate.js', find: '  return snapshot;\n}', replace: '  return v;\n}',
    tests: ['arguments_during_call::read once'],
  },
  {
    id: 'js-batchnorm-options-first', what: "JS: batchNorm counts x's rows before it reads its options",
    file: 'src/js/posnorm-core.js', find: "const o = v.options(fn, opts, ['cols', 'gamma', 'beta', 'eps', 'training', 'runningMean', 'runningVar', 'momentum', 'out']);\n    v.f32(fn, 'x', x);\n    const size = x.length;",
    replace: "v.f32(fn, 'x', x);\n    const size = x.length;\n    const o = v.options(fn, opts, ['cols', 'gamma', 'beta', 'eps', 'training', 'runningMean', 'runningVar', 'momentum', 'out']);",
    tests: ['arguments_during_call::grown by a getter'],
  },
  {
    id: 'js-stats-length', what: 'JS: layerNorm invStdDevOut checked for cols values instead of rows',
    file: 'src/js/posnorm-core.js', find: "const invOut = outArg(fn, o.invStdDevOut, rows, 'f32', 'invStdDevOut');", replace: "const invOut = outArg(fn, o.invStdDevOut, cols, 'f32', 'invStdDevOut');",
    tests: ['norm_stats_out'],
  },
  {
    id: 'js-rope-config-missing', what: "ropeFromConfig: an absent key reported as '… got undefined'",
    file: 'src/js/rope-config.js', find: "if (v === undefined) return new TypeError(`posnorm.${FN}: config.${key} is missing: it must be ${what}`);", replace: '',
    tests: ['rope_config::rejects or cannot build is a TypeError'],
  },
  // ---- messages and types a reader or a TypeScript user meets -------------------------------
  {
    id: 'rope-config-link-not-json', what: 'rope-config: a link that unpacks to text that is not JSON said to be unpackable',
    file: 'web/figures/rope-config.js', find: 'this._custom = { error: (t) => t.rcBadJson(e.message), packed };', replace: 'this._custom = { error: (t) => t.rcBadLink, packed };',
    tests: ['rope_config_box::told apart'],
  },
  {
    id: 'types-result-from-annotation', what: "types: a call's result type inferred from the variable it is assigned to",
    file: 'src/js/posnorm.d.ts', find: 'type Result<O> = O extends F32Out ? FromArguments<O> : F32Array;', replace: 'type Result<O> = O extends F32Out ? O : F32Array;',
    tests: ['package::TypeScript consumer'],
  },
  {
    id: 'types-result-not-distributive', what: "types: an out that may be undefined gives the array type only (the result type no longer split over the union)",
    file: 'src/js/posnorm.d.ts', find: 'type Result<O> = O extends F32Out ? FromArguments<O> : F32Array;', replace: 'type Result<O> = FromArguments<O> extends F32Out ? FromArguments<O> : F32Array;',
    tests: ['package::TypeScript consumer'],
  },
  {
    id: 'types-shared-buffer', what: 'types: returned arrays declared as possibly over a SharedArrayBuffer',
    file: 'src/js/posnorm.d.ts', find: "export type F32Array = ReturnType<Float32Array['slice']>;", replace: 'export type F32Array = Float32Array;',
    tests: ['package::TypeScript consumer'],
  },
  // ---- the PE error line reads out what is drawn ---------------------------------------------
  {
    id: 'waveform-error-dims', what: "waveform: the error line of the reference pair only, not of the selected pair it draws",
    file: 'web/figures/waveform.js', find: 'dims: [...new Set([0, 1, 2 * this.i, 2 * this.i + 1])] });', replace: 'dims: [0, 1] });',
    tests: ['precision::every PE figure reads out'],
  },
  {
    id: 'pe-error-dims-ignored', what: 'PE error steps: every column measured when only some (dims) are drawn',
    file: 'web/figures/draw/pe-error.js', find: 'const cols = dims ?? Array.from({ length: dModel }, (_, c) => c);', replace: 'const cols = Array.from({ length: dModel }, (_, c) => c);',
    tests: ['background::independent references'],
  },
  // ---- where init looks for the wasm ------------------------------------------------------------
  {
    id: 'js-wasm-path-package-relative', what: "init in Node: a wasm path string resolved against posnorm's own folder, not the working directory",
    file: 'src/js/loader.js', find: '  return pathToFileURL(s);', replace: '  return pathToFileURL, new URL(s, import.meta.url);',
    tests: ['api::init in Node'],
  },
  // ---- the order of error codes -------------------------------------------------------------
  {
    // only the native sentinel cases see it (the JS wrapper checks rotaryDim first)
    id: 'rope-cache-size-after-args', what: "pn_rope_cache_f32: the caches' size counted only for a valid rotary_dim, interleaved and layout",
    file: 'src/rope.c', find: 'if (rotary_dim >= 2 && !pn_count2(cache_rows, half)) return PN_ERR_SIZE;', replace: 'if (args_ok && !pn_count2(cache_rows, half)) return PN_ERR_SIZE;',
    tests: [], wasm: false,
  },
  // ---- make bench measures what it prints -----------------------------------------------------
  {
    id: 'bench-drag-latency-from-fire', what: "bench: a drag input's latency from when its timer ran, not from when it was due",
    file: 'bench/frames.mjs', find: '} else setTimeout(() => fire(painted + gap), gap);', replace: '} else setTimeout(() => fire(performance.now()), gap);',
    tests: ['bench_drag::counts in that input'],
  },
  {
    id: 'bench-drag-last-longtask', what: "bench: a long task in a drag's last frame dropped (the observer stopped before it reported)",
    file: 'bench/frames.mjs', find: '    longTasks.push(...lt.takeRecords().map((e) => e.duration));\n', replace: '',
    tests: ['bench_drag::last input'],
  },
  {
    id: 'bench-columns-sequential', what: "bench: a row's columns (kernels, peers) timed one after another instead of round by round",
    file: 'bench/timing.mjs', find: '  for (let round = 0; round < rounds; round++) {\n    for (const [k, fn] of entries) {', replace: '  for (const [k, fn] of entries) {\n    for (let round = 0; round < rounds; round++) {',
    tests: ['bench_timing::in turn'],
  },
  {
    id: 'bench-coldstart-in-frame', what: "bench: cold start read in the first figure's animation frame, before its paint",
    file: 'bench/coldstart.mjs', find: "    ch.port1.onmessage = () => { window.__pnFirstPaint = performance.now(); };\n    ch.port2.postMessage(0);", replace: '    window.__pnFirstPaint = performance.now();',
    tests: ['bench_coldstart::not the render'],
  },
  {
    id: 'hugo-poster-height-from-width', what: "Hugo shortcode: the poster's height written from poster-width",
    file: 'integrations/hugo/layouts/shortcodes/posnorm.html', find: '{{ with .Get "poster-height" }} height=', replace: '{{ with .Get "poster-width" }} height=',
    tests: ['blog_generators::Hugo site built'],
  },
  {
    id: 'jekyll-poster-language', what: "Jekyll include: the default poster in Korean whatever the post's lang",
    file: 'integrations/jekyll/_includes/posnorm.html', find: 'include.lang == "en"', replace: 'include.lang == "EN"',
    tests: ['blog_generators::Jekyll site built'],
  },
  {
    id: 'web-embed-lines-no-alt', what: "Embed dialog: the Hugo and Jekyll lines without the poster's text (alt)",
    file: 'web/figures/core/embed.js', find: ", ['alt', alt]]", replace: ']',
    tests: ["blog_generators::Embed dialog's Hugo and Jekyll lines"],
  },
  {
    id: 'web-embed-fit-every-frame', what: "iframe snippet: its script sizes every posnorm iframe to the height any of them posts",
    file: 'web/figures/core/embed.js', find: 'if (f.contentWindow === e.source) f.style.height', replace: 'if (f) f.style.height',
    tests: ['embed_origin'],
  },
  {
    id: 'web-embed-live-url-no-lang', what: "snippets: the live figure's URL without the figure's language",
    file: 'web/figures/core/embed.js', find: "  url.searchParams.set('lang', fig.language);\n", replace: '',
    tests: ['embed_origin'],
  },
  {
    id: 'web-download-join-same-x', what: 'Download PNG: a figure\'s canvases all drawn at x = 0 of the joined picture',
    file: 'web/figures/core/download.js', find: '    x += c.width;\n', replace: '',
    tests: ['embed::Download PNG'],
  },
  {
    id: 'web-frame-posts-viewport', what: "figure.html posts its viewport's height instead of its content's",
    file: 'web/figure-frame.js', find: 'const height = Math.ceil(document.body.getBoundingClientRect().height);', replace: 'const height = document.documentElement.clientHeight;',
    tests: ['embed::in an iframe'],
  },
  {
    id: 'pe-group-row-short', what: 'PE: each group of PE_ROWS rows advances one row short (a row of every 8 left unwritten)',
    file: 'src/pe.c', find: 'const int32_t rn = rows - r0 < PE_ROWS ? rows - r0 : PE_ROWS;', replace: 'const int32_t rn = rows - r0 < PE_ROWS ? rows - r0 : PE_ROWS - 1;',
    tests: ['kernel_sweep::positionalEncoding'],
  },
  {
    id: 'yarn-equal-bounds-kept', what: "YaRN: a correction range clamped to one point (low = high) left as it is, a ramp of 0/0",
    file: 'src/rope_scaling.c', find: '    if (low == high) high += 0.001;\n', replace: '',
    tests: ['kernel_sweep::ropeFrequencies'],
  },
  {
    id: 'colormap-diverging-is-sequential', what: 'colormap: the diverging map draws with the sequential table',
    file: 'src/colormap.c', find: 'case PN_COLORMAP_DIVERGING: return pn_lut_diverging;', replace: 'case PN_COLORMAP_DIVERGING: return pn_lut_sequential;',
    tests: ['kernel_sweep::colormap'],
  },
  {
    id: 'js-rope-sincache-length', what: "API: sinCache's length not held to cosCache's (a short one read past its end)",
    file: 'src/js/posnorm-core.js', find: "v.f32(fn, 'sinCache', o.sinCache, o.cosCache.length);", replace: "v.f32(fn, 'sinCache', o.sinCache);",
    tests: ['rope_onnx::cosCache/sinCache'],
  },
  {
    id: 'js-rope-numheads-bhsd', what: "API: numHeads (3-D input) taken with layout 'bhsd'",
    file: 'src/js/posnorm-core.js', find: "if (layout !== 'bshd') throw new TypeError(`posnorm.${fn}: numHeads describes", replace: "if (false) throw new TypeError(`posnorm.${fn}: numHeads describes",
    tests: ['rope_onnx::cosCache/sinCache'],
  },
  {
    id: 'web-lc-readout-turns-first', what: "long-context: the readout's turns within L all plain RoPE's",
    file: 'web/figures/long-context.js', find: "t.lcReadoutTurns(L, each((k) => `${turns[k]}/${this.dim / 2}`)),", replace: "t.lcReadoutTurns(L, each(() => `${turns[0]}/${this.dim / 2}`)),",
    tests: ['long_context::scores at the cursor'],
  },
  {
    id: 'web-lc-readout-never-outside', what: "long-context: the readout never marks a score outside the training range (✗)",
    file: 'web/figures/long-context.js', find: 'const inside = (v) => v >= r.trainMin && v <= r.trainMax;', replace: 'const inside = () => true;',
    tests: ['long_context::scores at the cursor'],
  },
  {
    id: 'i18n-depth-layers-plural', what: "depth's gradient note says \"layers\" for one layer",
    file: 'web/i18n/en.js', find: "at ${count === 1 ? 'layer' : 'layers'} ${layers}", replace: 'at layers ${layers}',
    tests: ['figures_i18n::labels that count'],
  },
  {
    id: 'ref-gelu-grad-cancels', what: "the tests' GELU reference: Φ in the derivative as (1 + erf(z/√2))/2, which cancels in the left tail",
    file: 'tests/reference/gelu.mjs', find: 'return 0.5 * erfc(-z / Math.SQRT2) + z * Math.exp', replace: 'return 0.5 * (1 + erf(z / Math.SQRT2)) + z * Math.exp',
    tests: ['gelu_erf'], native: false,
  },
  {
    id: 'hugo-poster-always-en', what: "Hugo shortcode: the default poster in English whatever the post's lang",
    file: 'integrations/hugo/layouts/shortcodes/posnorm.html', find: '(cond (eq $lang "en") "en" "ko")', replace: '"en"',
    tests: ['blog_generators::Hugo site built'],
  },
  {
    id: 'ref-gelu-tanh-cancels', what: "the tests' GELU reference: the tanh form as z/2·(1 + tanh u), which cancels in the left tail",
    file: 'tests/reference/gelu.mjs', find: 'return z / (1 + Math.exp(-2 * GELU_K * (z + GELU_C * z * z * z)));', replace: 'return 0.5 * z * (1 + Math.tanh(GELU_K * (z + GELU_C * z * z * z)));',
    tests: ['gelu_erf'], native: false,
  },
  {
    id: 'js-rope-config-head-rounded', what: "ropeFromConfig: hidden_size / num_attention_heads rounded, not floored as HF's //",
    file: 'src/js/rope-config.js', find: 'headDim = Math.floor(hidden / heads);', replace: 'headDim = Math.round(hidden / heads);',
    tests: ['rope_config::without complaint'],
  },
  {
    id: 'js-rope-config-first-layer-type', what: 'ropeFromConfig: per-layer parameters read from the first layer type listed, not full_attention',
    file: 'src/js/rope-config.js', find: "const pick = has(params, 'full_attention') ? 'full_attention' : Object.keys(params)[0];", replace: 'const pick = Object.keys(params)[0];',
    tests: ['rope_config::without complaint'],
  },
  {
    id: 'web-bn-ln-csv-columns-swapped', what: "bn-vs-ln's CSV: the batchnorm and layernorm columns swapped",
    file: 'web/figures/bn-vs-ln.js', find: 'v, bn[k], ln[k]]', replace: 'v, ln[k], bn[k]]',
    tests: ['figure_csv::hold the numbers'],
  },
  {
    id: 'web-precision-dist-squared', what: "precision: the float32 code's neighbour distance without its square root",
    file: 'web/figures/precision.js', find: 'dist32: next ? null : Math.sqrt(e[2])', replace: 'dist32: next ? null : e[2]',
    tests: ['precision::neighbour distance, the readout'],
  },
  {
    id: 'web-precision-error-length-squared', what: "precision: the length of the float32 code's error over the row without its square root",
    file: 'web/figures/precision.js', find: 'errNorm32: over ? null : Math.sqrt(e[1])', replace: 'errNorm32: over ? null : e[1]',
    tests: ['precision::errors, neighbour distances and the blur position'],
  },
  {
    id: 'web-precision-readout-errors-swapped', what: "precision: the readout's two errors (the code's, posnorm's) swapped",
    file: 'web/figures/precision.js', find: 't.precReadout(c.p, code, fmt(c.err32, 3), fmt(c.err64, 3),', replace: 't.precReadout(c.p, code, fmt(c.err64, 3), fmt(c.err32, 3),',
    tests: ['precision::neighbour distance, the readout'],
  },
  {
    id: 'web-order-readout-other-token', what: "order's readout: each row shows the output of the token at that row's position, not of the token it names",
    file: 'web/figures/order.js', find: 't.orderRow(at, TOKENS[tok], [...now.byToken[tok].slice(0, 4)]', replace: 't.orderRow(at, TOKENS[tok], [...now.byToken[at].slice(0, 4)]',
    tests: ['figures_article::order: outputs equal float64 attention'],
  },
  {
    id: 'web-properties-rotation-sign', what: "properties: R(k)'s lower-left entry without its minus sign",
    file: 'web/figures/properties.js', find: 'rotation: [[b0.cos, b0.sin], [-b0.sin, b0.cos]]', replace: 'rotation: [[b0.cos, b0.sin], [b0.sin, b0.cos]]',
    tests: ['figures_article::properties: range, closest pair'],
  },
  {
    id: 'web-bn-vs-ln-inference-trains', what: "bn-vs-ln: inference mode runs BatchNorm in training mode (its running statistics updated, the batch's used)",
    file: 'web/figures/bn-vs-ln.js', find: 'this.pn.batchNorm(x, { cols: H, training: false, ...this._running() })', replace: 'this.pn.batchNorm(x, { cols: H, ...this._running() })',
    tests: ['figures_article::LayerNorm steps and BatchNorm vs LayerNorm'],
  },
  {
    id: 'min-row-distance-last-tie', what: 'minRowDistance: of pairs at the same distance, the last in row-major order',
    file: 'src/pe_props.c', find: 'if (s < best) {', replace: 'if (s <= best) {',
    tests: ['article_kernels::minRowDistance takes the first closest pair'],
  },
  {
    id: 'web-rope-config-zero-ratio', what: "rope-config: a pair whose ω is 0 with and without scaling divided by ∞ (0/0), not by 1",
    file: 'web/figures/rope-config.js', find: 'wave(plain[i] === ext.invFreq[i] ? 1 : plain[i] / ext.invFreq[i])', replace: 'wave(plain[i] / ext.invFreq[i])',
    tests: ['rope_config_box::underflow'],
  },
  {
    id: 'web-order-focus-before-bounds', what: 'order: a move that cannot happen still sets the token a later redraw focuses',
    file: 'web/figures/order.js', find: '    if (!Number.isInteger(at) || !Number.isInteger(to)', replace: '    if (byReader) this._focusToken = Number(o[at]);\n    if (!Number.isInteger(at) || !Number.isInteger(to)',
    tests: ['order_keyboard::moves nothing'],
  },
  {
    id: 'web-kernel-task-drag-sent', what: "KernelTask: every key of a drag is sent to the Worker at once (its runs and their repaints land between the drag's inputs)",
    file: 'web/figures/core/off-thread.js', find: 'this.longestCall > SLICE_MS || dragging ? this.settleMs : 0', replace: 'this.longestCall > SLICE_MS ? this.settleMs : 0',
    tests: ['kernel_task::the keys of a drag'],
  },
  {
    id: 'web-kernel-task-repaint-drags', what: "KernelTask: a repaint with the key shown counts as a drag's key, so the next key waits",
    file: 'web/figures/core/off-thread.js', find: "    if (key === this.key) return false;\n    const now = performance.now(), dragging = now - this._lastKeyAt < this.settleMs;\n    this._lastKeyAt = now;\n", replace: "    const now = performance.now(), dragging = now - this._lastKeyAt < this.settleMs;\n    this._lastKeyAt = now;\n    if (key === this.key) return false;\n",
    tests: ['kernel_task::the keys of a drag'],
  },
  {
    id: 'web-kernel-task-drag-from-first', what: "KernelTask: a drag's wait counts from its first key, so a drag longer than settleMs sends keys as it goes",
    file: 'web/figures/core/off-thread.js', find: '    this._lastKeyAt = now;\n', replace: '    if (!dragging) this._lastKeyAt = now;\n',
    tests: ['kernel_task::the keys of a drag'],
  },
  {
    id: 'web-kernel-task-free-worker-sends', what: "KernelTask: the Worker's answer sends the key that waits for a drag to pause at once",
    file: 'web/figures/core/off-thread.js', find: 'if (this._busy || this._timer || !this._next) return;', replace: 'if (this._busy || !this._next) return;',
    tests: ['kernel_task::the keys of a drag'],
  },
  {
    id: 'js-buffer-this-unbranded', what: "PnBuffer: any object passes the receiver check, and a method used on one dies on a private field in the engine's words",
    file: 'src/js/memory.js', find: "if (buf !== null && typeof buf === 'object' && #ptr in buf) return buf;", replace: "if (buf !== null && typeof buf === 'object') return buf;",
    tests: ['buffers::every method and getter of a buffer'],
  },
  {
    id: 'js-buffer-length-unchecked', what: "PnBuffer: the length getter used unbound is the engine's error about a private field, naming neither PnBuffer nor length",
    file: 'src/js/memory.js', find: "get length() { return PnBuffer.#own(this, 'length').#length; }", replace: 'get length() { return this.#length; }',
    tests: ['buffers::every method and getter of a buffer'],
  },
  {
    id: 'js-buffer-new-allowed', what: 'PnBuffer: new PnBuffer() from outside makes a buffer of no memory that passes the checks (and whose clean-up throws)',
    file: 'src/js/memory.js', find: "    if (token !== MADE_HERE) throw new TypeError('posnorm.PnBuffer: a buffer comes from pn.alloc() or buf.subarray(), not from new');\n", replace: '',
    tests: ['buffers::a buffer cannot be made with new'],
  },
  {
    id: 'js-buffer-subarray-default-unchecked', what: "PnBuffer: subarray() unbound, with no end, dies on the private field of its default argument",
    file: 'src/js/memory.js', find: "subarray(begin = 0, end = PnBuffer.#own(this, 'subarray').#length) {", replace: 'subarray(begin = 0, end = this.#length) {',
    tests: ['buffers::every method and getter of a buffer'],
  },
  {
    id: 'js-buffer-check-runs-traps', what: "PnBuffer: the receiver check asks the receiver (instanceof, its toString) before the brand, running a Proxy's traps",
    file: 'src/js/memory.js', find: "if (buf !== null && typeof buf === 'object' && #ptr in buf) return buf;", replace: "if (buf !== null && typeof buf === 'object' && buf instanceof PnBuffer && String(buf) && #ptr in buf) return buf;",
    tests: ['buffers::every method and getter of a buffer'],
  },
  {
    id: 'js-buffer-shadow-unchecked', what: "API: a buffer argument with its own length (or ptr, freed…) is taken at its word: layerNorm writes past the buffer",
    file: 'src/js/memory.js', find: "  for (let k = 0; k < READ_BY_CALLS.length; k++) if (Object.hasOwn(buf, READ_BY_CALLS[k])) return false;\n", replace: '',
    tests: ['buffers::a buffer cannot be made with new'],
  },
  {
    id: 'js-buffer-proto-unchecked', what: 'API: a buffer argument given another prototype (a length getter of its own) is taken at its word',
    file: 'src/js/memory.js', find: '  if (Object.getPrototypeOf(buf) !== PnBuffer.prototype) return false;\n', replace: '',
    tests: ['buffers::a buffer cannot be made with new'],
  },
  {
    id: 'js-buffer-freed-public', what: "PnBuffer: a subarray asks its parent's public freed, which an own property of the parent answers",
    file: 'src/js/memory.js', find: 'buf.#parent !== null && buf.#parent.#ptr === 0', replace: 'buf.#parent !== null && buf.#parent.freed',
    tests: ['buffers::a buffer cannot be made with new'],
  },
  {
    id: 'js-buffer-subarray-chains', what: 'PnBuffer: a subarray of a subarray keeps the subarray as its parent, so freeing the owner leaves the chain looking alive',
    file: 'src/js/memory.js', find: 'e - b, this.#type, this.#parent ?? this);', replace: 'e - b, this.#type, this);',
    tests: ['buffers::a subarray of a subarray'],
  },
  {
    id: 'js-describe-runs-getters', what: "API: an argument's error message reads its constructor and its buffer mark with ordinary property reads, running a strict Proxy's get trap or a getter",
    file: 'src/js/validate.js', find: "export const describe = (v, d = descriptorOf(v, 'isPnBuffer'), name = nameOf(dataProperty(v, 'constructor'))) =>", replace: "export const describe = (v, d = v?.isPnBuffer && { value: true }, name = v?.constructor?.name) =>",
    tests: ['api::an argument of the wrong type is a TypeError naming it'],
  },
  {
    id: 'js-describe-prints-functions', what: 'API: a function given for a number is printed whole in the error message (a class: its whole source)',
    file: 'src/js/validate.js', find: "  : typeof v === 'function' ? 'a function'\n", replace: "  : typeof v === 'function' ? String(v)\n",
    tests: ['api::an argument of the wrong type is a TypeError naming it'],
  },
  {
    id: 'js-rope-config-head-quotient', what: "ropeFromConfig: an odd head size from hidden_size / num_attention_heads is reported as hidden_size's value",
    file: 'src/js/rope-config.js', find: 'const value = prfKey ? prf : headFrom ? headFrom.value : headDim;', replace: 'const value = prfKey ? prf : headDim;',
    tests: ['rope_config::an odd head size from hidden_size'],
  },
  {
    id: 'fig-still-keeps-every-state', what: "embedCode: the still pictures' sizes are kept for every state, a pasted config of each with it",
    file: 'web/figures/core/still.js', find: 'if (key.length <= KEY_KEPT) {', replace: 'if (key.length >= 0) {',
    tests: ['figure_lifecycle::embedCode'],
  },
  {
    id: 'fig-attr-same-text-dropped', what: 'Figures: a page\'s attribute write equal to the text the attribute holds is passed over',
    file: 'web/figures/core/element.js', find: 'if (!c || this._reflecting.has(c.prop)) return;', replace: 'if (!c || this._reflecting.has(c.prop) || old === value) return;',
    tests: ['figures_core::an attribute the page writes is taken'],
  },
  {
    id: 'fig-upgrade-attrs-late', what: "Figures: an upgrade's attributes are taken only when reported, after the constructor (a heatmap cursor set early is clamped to the default sizes)",
    file: 'web/figures/core/element.js', find: "      } else if (attr !== null) {\n        this.request(c.prop, attr, 'attribute');\n      }", replace: '      }',
    tests: ['figures_core::heatmap: a cursor written before the element is defined is clamped'],
  },
  {
    id: 'fig-order-move-fraction', what: 'order: move() with a fraction or NaN swaps undefined into the permutation',
    file: 'web/figures/order.js', find: '!Number.isInteger(at) || !Number.isInteger(to) || at < 0', replace: 'to < 0 || to >= o.length || at < 0',
    tests: ['order_keyboard::order: move'],
  },
  {
    id: 'fig-rope-config-every-warning', what: "rope-config: every warning of a config is a line of the readout (tens of thousands for a crafted link)",
    file: 'web/figures/rope-config.js', find: 'const SHOWN_WARNINGS = 50;', replace: 'const SHOWN_WARNINGS = Infinity;',
    tests: ['rope_config_box::a config with thousands of keys'],
  },
  {
    id: 'c-dd-angle-past-2p41-one-term', what: 'RoPE: past 2^41 (a scaled frequency above 1024) the angle sum leaves out cos θ_hi·sin θ_lo',
    file: 'src/pn_math.c', find: '    *s = sh * cl + ch * sl;', replace: '    *s = sh * cl + ch * sl * 0.0;',
    tests: ['rope_scaling::rope with scaling keeps'],
  },
  // ---- RoPE scaling: each type's double-double rest (tests/rope_scaling_exact.test.mjs, against mpmath) ----
  {
    // a float64 yarn frequency is within an ulp or two: ~1e-7 rad near 2^31, which 3e-7·(|a| + |b|) alone let pass
    id: 'scaled-rest-yarn-zero', what: "RoPE scaling: yarn's frequencies without their double-double rests (float64 angles' frequencies near 2^31)",
    file: 'src/rope_scaling.c', find: 'pn_freq_dd_rest(&fdd, i, inv_freq[i], k);', replace: 'sc.type == PN_SCALING_YARN ? 0.0 : pn_freq_dd_rest(&fdd, i, inv_freq[i], k);',
    tests: ['rope_scaling_exact::yarn'],
  },
  {
    id: 'scaled-rest-llama3-zero', what: "RoPE scaling: llama3's frequencies without their double-double rests",
    file: 'src/rope_scaling.c', find: 'pn_freq_dd_rest(&fdd, i, inv_freq[i], k);', replace: 'sc.type == PN_SCALING_LLAMA3 ? 0.0 : pn_freq_dd_rest(&fdd, i, inv_freq[i], k);',
    tests: ['rope_scaling_exact::llama3'],
  },
  {
    id: 'scaled-rest-longrope-zero', what: "RoPE scaling: longrope's frequencies (short and long factors) without their double-double rests",
    file: 'src/rope_scaling.c', find: 'pn_freq_dd_rest(&fdd, i, inv_freq[i], k);', replace: 'sc.type == PN_SCALING_LONGROPE ? 0.0 : pn_freq_dd_rest(&fdd, i, inv_freq[i], k);',
    tests: ['rope_scaling_exact::longrope'],
  },
  {
    // seen by the cases with rotary dims 256 and 512 (bases grown 3-fold) only: pair 1 near 2^31, 4 and 6.6 float32 ulps off where about 3 are allowed
    id: 'scaled-rest-dynamic-zero', what: "RoPE scaling: dynamic's frequencies (of the grown base) without their double-double rests",
    file: 'src/rope_scaling.c', find: 'pn_freq_dd_rest(&fdd, i, inv_freq[i], k);', replace: 'sc.type == PN_SCALING_DYNAMIC ? 0.0 : pn_freq_dd_rest(&fdd, i, inv_freq[i], k);',
    tests: ['rope_scaling_exact::dynamic'],
  },
  {
    id: 'scaled-rest-dynamic-base-not-grown', what: "RoPE scaling: dynamic's rests taken from the base as given, not the grown one",
    file: 'src/rope_scaling.c', find: 'pn_freq_dd_prepare(&fdd, b, dim);', replace: 'pn_freq_dd_prepare(&fdd, base, dim);',
    tests: ['rope_scaling_exact::dynamic'],
  },
  {
    // positions below 2^20 reach angles of 2^20 only with frequencies above 1 (longrope factors below 1)
    id: 'js-rope-scaled-no-late-rests', what: 'API: rope with scaling below position 2^20 never takes the rests, even where a frequency above 1 takes an angle past 2^20',
    file: 'src/js/posnorm-core.js', find: 'if ((top - 1) * wMax < 2 ** 20) {', replace: 'if ((top - 1) * wMax < Infinity) {',
    tests: ['rope_scaling_exact::below'],
  },
  // ---- yarn's ramp and llama3's smoothing in double-double (rope_scaling_exact's narrow ramps and bands) ----
  {
    // ulp(ramp)/2 times p·w_i near 2^31: 2.5 to 8 float32 ulps off where the rounding is allowed (the 3e-7 bound holds)
    id: 'scaled-ramp-dd-no-low-part', what: "RoPE scaling: yarn's ramp and llama3's 1 - smooth without their double-double low parts (rounded to float64)",
    file: 'src/rope_scaling.c', find: 'k[2] = t.lo;', replace: 'k[2] = 0.0 * t.lo;',
    tests: ['rope_scaling_exact::narrow'],
  },
  {
    // the float64 ends over a ramp 0.28 or 0.41 pairs wide: 1.4e-6 and 1.1e-5 rad near 2^31
    id: 'scaled-yarn-ends-float64', what: "RoPE scaling: yarn's untruncated ramp ends (correction dims) in float64 for the rests",
    file: 'src/rope_scaling.c', find: '    if (inv_freq_lo && truncate == 0.0) {', replace: '    if (inv_freq_lo && truncate == 0.0 && 0) {',
    tests: ['rope_scaling_exact::narrow'],
  },
  {
    // llama3's wavelength from w_i's float64 part alone: 2.2e-7·(|a| + |b|) and ~2e-7 rad past the rounding
    id: 'scaled-llama3-wavelength-float64-w', what: "RoPE scaling: llama3's smoothing from the float64 w_i (its double-double rest left out)",
    file: 'src/rope_scaling.c', find: 'pn_dd_mul(&t, pn_freq_dd_w(&fdd, i), original, 0.0);', replace: 'pn_dd_mul(&t, &(pn_dd){pn_freq_dd_w(&fdd, i)->hi, 0.0}, original, 0.0);',
    tests: ['rope_scaling_exact::narrow'],
  },
  // ---- narrow ramps and bands: their rests at every angle (rope_scaling_exact's float64Off cases) ----
  {
    // the float64 frequency alone below 2^20: 2.0e-7 rad past the rounding (dim 4096 yarn) to order 1 (one-ulp bands)
    id: 'scaled-large-rest-only-past-2^20', what: 'RoPE scaling: a rest past 2^-44·max(|w_i|, 2^-11) taken only where the angle reaches 2^20',
    file: 'src/rope_scaling.c', find: '      if (large && rest_is_large(inv_freq[i], *lo))', replace: '      if (large && rest_is_large(inv_freq[i], *lo) && 0)',
    tests: ['rope_scaling_exact::ulp wide|just under 2\\^20'],
  },
  {
    // one-ulp llama3 bands: a float64 frequency of -0.656 or w/factor, no rest: 1.9 and 1.8·(|a| + |b|)
    id: 'scaled-no-rest-below-2^-12', what: 'RoPE scaling: no rest where the float64 frequency is below 2^-12 or negative (as before the fix)',
    file: 'src/rope_scaling.c', find: '    if (!(fabs(inv_freq[i]) < 0x1p41)) continue;', replace: '    if (!(inv_freq[i] >= 0x1p-12 && inv_freq[i] < 0x1p41)) continue;',
    tests: ['rope_scaling_exact::ulp wide'],
  },
  {
    // a one-ulp yarn ramp at base 1.0001, every angle below 2^20: no rests asked for, 1.8·(|a| + |b|)
    id: 'js-rope-scaled-no-narrow-rests', what: 'API: rope with untruncated yarn or llama3 asks for the rests only where an angle reaches 2^20',
    file: 'src/js/posnorm-core.js', find: "const narrow = scaling.name === 'llama3' || (scaling.name === 'yarn' && scaling.params[9] === 0);", replace: 'const narrow = false;',
    tests: ['rope_scaling_exact::positions below 2\\^20'],
  },
];
