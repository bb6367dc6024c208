// kernel_table.mjs — every exported kernel in one list, as XNNPACK lists its
// kernels to generate tests: its SIMD block (the width its inner loop takes
// at a time, so sizes 1 … 3·block + 3 reach every tail), whether it may run
// in place, its variants, how to call it at size n, and the float64
// references of tests/reference/ it is compared with, with their bounds.
// tests/kernel_sweep.test.mjs runs every entry in both wasm builds.
//
// run(pn, n, variant, inPlace) returns a list of checks { what, err, bound,
// compared }: the error (Infinity where a NaN or ±Inf of the reference is
// not met exactly), its bound, and how many values were compared. Each bound
// is a small factor above the largest error measured over the whole sweep in
// both builds (the measurement is written beside it), in absolute terms, in
// float32 ulps of the reference value ("ulp"), or relative to a scale.
import { compareValues, normals, ulp32 } from './helpers.mjs';
import { alibiBias } from './reference/alibi.mjs';
import { attention } from './reference/attention.mjs';
import { transformerBlock } from './reference/block.mjs';
import { colormapIndex, colormapTable as colormapDesign } from './reference/colormap.mjs';
import { histogram } from './reference/histogram.mjs';
import { matmul } from './reference/linear.mjs';
import { batchNorm, columnStats, layerNorm, rmsNorm } from './reference/norms.mjs';
import { peSample, sinusoidal } from './reference/pe.mjs';
import { randomNormals } from './reference/random.mjs';
import { forward, lossAndGradient } from './reference/residual_stack.mjs';
import { rope } from './reference/rope.mjs';
import { hfRopeFrequencies } from './reference/rope_scaling.mjs';
import { rounder } from './reference/lowprec.mjs';

const f32 = Math.fround;
/** Data of mixed magnitudes: ordinary, large (1e30) and tiny (1e-30) rows. */
export function sweepData(n, variant, seed) {
  const scale = { ordinary: 1, large: 1e30, tiny: 1e-30 }[variant.magnitude ?? 'ordinary'];
  return normals(n, { mean: 2 * scale, std: 3 * scale, seed });
}
const norms = ['ordinary', 'large', 'tiny'];
const affine = [[false, false], [true, false], [false, true], [true, true]];
const maxAbs = (a) => { let m = 0; for (const t of a) m = Math.max(m, Math.abs(t)); return m; };
/** A named check of got against want: absolute error, or in units of unit(want). */
const check = (what, got, want, bound, unit) => ({ what, bound, ...compareValues(got, want, unit) });
/** Relative to a fixed scale (the largest value of the reference, say). */
const per = (scale) => () => scale;

export const KERNELS = [
  {
    // block: PN_SUMS_BLOCK (src/pn_sums.h), the values a float64 fold takes; its steps of 16 lie inside
    name: 'layerNorm', block: 128, inPlace: true,
    variants: affine.flatMap(([gamma, beta]) => norms.flatMap((magnitude) => [0, 1e-5].map((eps) => ({ gamma, beta, magnitude, eps })))),
    run(pn, n, v, inPlace) {
      const x = sweepData(2 * n, v, n);
      const gamma = v.gamma ? normals(n, { mean: 1, std: 0.4, seed: 7 }) : undefined;
      const beta = v.beta ? normals(n, { seed: 8 }) : undefined;
      // n = 1 with eps 0 is 0/0 in float64 too: the reference is NaN there and so must the kernel be
      const ref = layerNorm(x, n, { gamma, beta, eps: f32(v.eps) });
      const buf = pn.alloc(2 * n).set(x);
      const r = inPlace ? pn.layerNorm(buf, { cols: n, gamma, beta, eps: v.eps, out: buf }) : pn.layerNorm(x, { cols: n, gamma, beta, eps: v.eps });
      const y = inPlace ? r.y.toArray() : r.y;
      buf.free();
      return [
        check('y', y, ref.y, BOUNDS.layerNorm.y),
        // the mean in float32 ulps of |mean| + std (a row's mean is as exact as its spread allows)
        check('mean (ulp of |mean| + std)', r.mean, ref.mean, BOUNDS.layerNorm.mean, (m, r) => ulp32(Math.abs(m) + Math.sqrt(ref.variance[r]))),
        check('invStdDev (ulp)', r.invStdDev, ref.invStd, BOUNDS.layerNorm.invStdDev, ulp32),
      ];
    },
  },
  {
    name: 'rmsNorm', block: 128, inPlace: true,
    variants: [false, true].flatMap((gamma) => norms.flatMap((magnitude) => [0, 1e-6].map((eps) => ({ gamma, magnitude, eps })))),
    run(pn, n, v, inPlace) {
      const x = sweepData(2 * n, v, n + 1);
      const gamma = v.gamma ? normals(n, { mean: 1, std: 0.4, seed: 9 }) : undefined;
      const ref = rmsNorm(x, n, { gamma, eps: f32(v.eps) });
      const buf = pn.alloc(2 * n).set(x);
      const r = inPlace ? pn.rmsNorm(buf, { cols: n, gamma, eps: v.eps, out: buf }) : pn.rmsNorm(x, { cols: n, gamma, eps: v.eps });
      const y = inPlace ? r.y.toArray() : r.y;
      buf.free();
      return [
        check('y (relative to max |y|)', y, ref.y, BOUNDS.rmsNorm.y, per(maxAbs(ref.y))),
        check('invRms (ulp)', r.invRms, ref.invRms, BOUNDS.rmsNorm.invRms, ulp32),
      ];
    },
  },
  {
    name: 'batchNorm', block: 64, inPlace: true,
    variants: norms.flatMap((magnitude) => [{ magnitude, training: true }, { magnitude, training: false }]),
    run(pn, n, v, inPlace) {
      const rows = 3;
      const x = sweepData(rows * n, v, n + 2);
      const batch = columnStats(x, n);
      // at inference: running statistics of their own (float32 inputs)
      const running = v.training ? undefined : { mean: Float32Array.from(batch.mean, (t) => t + 0.25 * Math.abs(t)), variance: Float32Array.from(batch.variance, (t) => 2 * t) };
      const ref = batchNorm(x, n, { ...(running ?? batch), eps: f32(1e-5) });
      const opts = v.training ? { cols: n } : { cols: n, training: false, runningMean: running.mean, runningVar: running.variance };
      const buf = pn.alloc(rows * n).set(x);
      const r = inPlace ? pn.batchNorm(buf, { ...opts, out: buf }) : pn.batchNorm(x, opts);
      const y = inPlace ? r.y.toArray() : r.y;
      buf.free();
      const checks = [check('y', y, ref, BOUNDS.batchNorm.y)];
      if (v.training) checks.push(check('mean (ulp)', r.mean, batch.mean, BOUNDS.batchNorm.stats, ulp32), check('var (ulp)', r.var, batch.variance, BOUNDS.batchNorm.stats, ulp32));
      return checks;
    },
  },
  {
    name: 'positionalEncoding', block: 8, inPlace: false,
    variants: ['interleaved', 'concat'].flatMap((layout) => [0, 100000].map((offset) => ({ layout, offset }))),
    run(pn, n, v) {
      // rows: fewer than a group of PE_ROWS (8) in registers, two groups and a tail, and (narrow
      // rows only) past PN_PE_ANCHOR (1024), where the recurrence starts again from exact values
      return [5, 17, ...(n <= 4 ? [1030] : [])].map((seqLen) => {
        const got = pn.positionalEncoding({ seqLen, dModel: n, layout: v.layout, offset: v.offset });
        return check(`PE, ${seqLen} rows`, got, sinusoidal(seqLen, n, { layout: v.layout, offset: v.offset }), BOUNDS.positionalEncoding);
      });
    },
  },
  {
    name: 'peSample', block: 1, inPlace: false, variants: [{ step: 0.37 }, { step: -11.5 }],
    run(pn, n, v) {
      const d = 32, dim = n % d;
      const got = pn.peSample({ n, dim, dModel: d, start: 3.25, step: v.step });
      return [check('samples', got, peSample({ n, dim, dModel: d, start: 3.25, step: v.step }), BOUNDS.peSample)];
    },
  },
  {
    // the bit emulation of tests/reference/lowprec.mjs: exact (error 0; ±0 and NaN bits in lowprec.test.mjs)
    name: 'roundToPrecision', block: 1, inPlace: false,
    variants: ['bfloat16', 'float16'].flatMap((precision) => norms.map((magnitude) => ({ precision, magnitude }))),
    run(pn, n, v) {
      const x = sweepData(n, v, n + 11);
      return [check('rounded', pn.roundToPrecision(x, { precision: v.precision }), Array.from(x, rounder(v.precision)), 0)];
    },
  },
  {
    name: 'rope', block: 4, inPlace: true,
    variants: [false, true].flatMap((interleaved) => ['bshd', 'bhsd'].flatMap((layout) => [false, true].map((ids) => ({ interleaved, layout, ids })))),
    run(pn, n, v, inPlace) {
      const headDim = 2 * n, B = 2, S = 3, H = 2;
      const x = normals(B * S * H * headDim, { seed: n + 3 });
      const positionIds = v.ids ? Int32Array.from({ length: B * S }, (_, k) => 5 + 17 * k) : undefined;
      const shape = { batch: B, seqLen: S, heads: H, headDim, layout: v.layout, interleaved: v.interleaved };
      const ref = rope(x, { ...shape, positions: (b, s) => (positionIds ? positionIds[b * S + s] : s) });
      const buf = pn.alloc(x.length).set(x);
      const y = inPlace ? pn.rope(buf, { ...shape, positionIds, out: buf }).toArray() : pn.rope(x, { ...shape, positionIds });
      buf.free();
      return [check('y', y, ref, BOUNDS.rope)];
    },
  },
  {
    name: 'ropeFrequencies', block: 1, inPlace: false,
    variants: [undefined, { type: 'linear', factor: 4 }, { type: 'dynamic', factor: 4, originalMaxPositions: 64 },
      { type: 'yarn', factor: 8, originalMaxPositions: 256 }, { type: 'llama3', factor: 8, originalMaxPositions: 256, lowFreqFactor: 1, highFreqFactor: 4 },
      { type: 'longrope', factor: 8, originalMaxPositions: 512 },
      // YaRN with so few original positions that its correction range clamps to one point (low = high)
      { type: 'yarn', factor: 4, originalMaxPositions: 4 }].map((scaling) => ({ scaling })),
    run(pn, n, v) {
      // dim = 2n, against the Hugging Face rules in float64 (seqLen 1000: longrope takes its long factors)
      const dim = 2 * n;
      let scaling = v.scaling;
      if (scaling?.type === 'longrope') {
        scaling = { ...scaling, shortFactor: Array.from({ length: n }, (_, i) => 1 + i / n), longFactor: Array.from({ length: n }, (_, i) => 1 + (20 * i) / n) };
      }
      if (scaling?.type === 'dynamic' && dim < 4) {
        // dim/(dim − 2) has no value: a RangeError that says so, as the kernel refuses it
        let message = '';
        try { pn.ropeFrequencies({ dim, scaling }); } catch (e) { message = e.message; }
        return [{ what: 'dim < 4 refused', err: /at least 4/.test(message) ? 0 : Infinity, bound: 0, compared: 1 }];
      }
      // seqLen 10: inside every original length (dynamic keeps its base, longrope takes its short factors)
      return [10, 1000].flatMap((seqLen) => {
        const got = pn.ropeFrequencies({ dim, scaling, seqLen });
        const want = hfRopeFrequencies(dim, 10000, scaling, seqLen);
        return [
          check(`invFreq at seqLen ${seqLen} (ulp)`, got.invFreq, want.inv, BOUNDS.ropeFrequencies.invFreq, ulp32),
          check(`attentionFactor at seqLen ${seqLen} (relative)`, [got.attentionFactor], [want.af], BOUNDS.ropeFrequencies.attentionFactor, (t) => t),
        ];
      });
    },
  },
  {
    name: 'alibi', block: 1, inPlace: false, variants: [{}],
    run(pn, n) {
      return [check('bias (ulp)', pn.alibi({ heads: n, seqLen: 3 }), alibiBias(n, 3), BOUNDS.alibi, ulp32)];
    },
  },
  {
    name: 'randomNormal', block: 2, inPlace: false, variants: [{ std: 1, mean: 0 }, { std: 1e30, mean: 0 }, { std: 0.5, mean: -3 }],
    run(pn, n, v) {
      // posnorm's own log against Math.log: the same draws, within what the two logs allow
      const got = pn.randomNormal(n, { mean: v.mean, std: v.std, seed: n });
      return [check('samples (ulp)', got, randomNormals(n, { seed: n, mean: v.mean, std: v.std }), BOUNDS.randomNormal, ulp32)];
    },
  },
  {
    name: 'histogram', block: 1, inPlace: false, variants: [{}],
    run(pn, n) {
      const x = normals(n, { seed: n });
      x[0] = 1; // x = max goes in the last bin
      if (n > 2) x[1] = NaN;
      const h = pn.histogram(x, { bins: 5, min: -1, max: 1 });
      const want = histogram(x, { bins: 5, min: -1, max: 1 });
      return [check('counts, below, above, nan', [...h.counts, h.below, h.above, h.nan], [...want.counts, want.below, want.above, want.nan], 0)];
    },
  },
  {
    name: 'colormap', block: 1, inPlace: false, variants: ['diverging', 'sequential'].map((map) => ({ map })),
    run(pn, n, v) {
      const x = normals(n, { seed: n });
      if (n > 2) x[2] = NaN;
      const px = pn.colormap(x, { map: v.map, vmin: -2, vmax: 2 });
      // the table as tools/gen_colormap.py designs it, derived in tests/reference (not posnorm's own)
      const lut = colormapDesign(v.map);
      const want = [];
      for (const t of x) {
        const k = colormapIndex(t, -2, 2);
        want.push(...(k < 0 ? [0, 0, 0, 0] : lut.subarray(4 * k, 4 * k + 4)));
      }
      // and the whole table, every entry (the sizes above reach some 90 of its 256)
      return [check('pixels', px, want, 0), check('table', pn.colormapTable(v.map), lut, 0)];
    },
  },
  {
    name: 'attention', block: 1, inPlace: false, variants: [{ dModel: 4, dHead: 4 }, { dModel: 5, dHead: 3 }],
    run(pn, n, v) {
      const { dModel: d, dHead } = v, seqLen = n;
      const x = normals(seqLen * d, { seed: n }), w = normals(3 * d * dHead, { std: 0.5, seed: 5 });
      const [wq, wk, wv] = [0, 1, 2].map((k) => w.subarray(k * d * dHead, (k + 1) * d * dHead));
      const got = pn.attention(x, { dModel: d, dHead, wq, wk, wv });
      const ref = attention(x, wq, wk, wv, { seqLen, dModel: d, dHead });
      return [check('out (ulp)', got.out, ref.out, BOUNDS.attention, ulp32), check('weights (ulp)', got.weights, ref.weights, BOUNDS.attention, ulp32)];
    },
  },
  {
    name: 'gram', block: 1, inPlace: false, variants: [{}],
    run(pn, n) {
      const x = normals(3 * n, { seed: n });
      const xt = new Float32Array(3 * n);
      for (let i = 0; i < 3; i++) for (let k = 0; k < n; k++) xt[k * 3 + i] = x[i * n + k];
      return [check('x·xᵀ (ulp)', pn.gram(x, { cols: n }), matmul(x, xt, 3, n, 3), BOUNDS.gram, ulp32)];
    },
  },
  {
    name: 'minRowDistance', block: 1, inPlace: false, variants: [{}],
    run(pn, n) {
      const x = normals(4 * n, { seed: n });
      let best = Infinity, pair;
      for (let i = 0; i < 4; i++) for (let j = i + 1; j < 4; j++) {
        let s = 0;
        for (let k = 0; k < n; k++) s += (x[i * n + k] - x[j * n + k]) ** 2;
        if (Math.sqrt(s) < best) { best = Math.sqrt(s); pair = [i, j]; }
      }
      const got = pn.minRowDistance(x, { cols: n });
      return [check('distance (ulp)', [got.distance], [best], BOUNDS.minRowDistance, ulp32), check('pair', [got.i, got.j], pair, 0)];
    },
  },
  {
    name: 'peShift', block: 1, inPlace: false, variants: [{ k: 7 }, { k: -300 }],
    run(pn, n, v) {
      const d = 2 * n, p = 1000;
      const got = pn.peShift(pn.positionalEncoding({ seqLen: 1, dModel: d, offset: p }), { k: v.k });
      return [check('PE(p) shifted', got, sinusoidal(1, d, { offset: p + v.k }), BOUNDS.peShift)];
    },
  },
  {
    // block: the 4 columns depth.c's products take at a time
    name: 'residualStack', block: 4, inPlace: false,
    // and a decoder's stack (issue #19): a memory branch m·C_l per layer, with the erf GELU
    variants: ['plain', 'post-ln', 'pre-ln', 'pre-rms'].flatMap((block) => [false, true].flatMap((memory) =>
      [{ block, gradients: false, memory }, { block, gradients: true, memory }])),
    run(pn, n, v) {
      const width = n, layers = 2, scale = 1.5, perLayer = v.memory ? 2 : 1;
      const x0 = normals(2 * width, { seed: n }), w = normals(perLayer * layers * width * width, { std: 1 / Math.sqrt(width), seed: n + 1 });
      const opts = { width, layers, block: v.block, scale, ...(v.memory ? { memory: normals(width, { seed: n + 3 }), gelu: 'erf' } : {}) };
      if (!v.gradients) {
        // the float32 path (matrix products in float32): the per-layer std, relative
        // (width 1 with Post-LN: every row is constant after its norm, so the std is exactly 0)
        return [check('std (relative)', pn.residualStack(x0, w, opts), forward(x0, w, opts).std, BOUNDS.residualStack.std, (t) => t || 1)];
      }
      const readout = normals(2 * width, { seed: n + 2 });
      const got = pn.residualStack(x0, w, { ...opts, gradients: true, readout });
      const ref = lossAndGradient(x0, w, readout, opts);
      return [
        check('std (ulp)', got.std, ref.std, BOUNDS.residualStack.rounded, ulp32),
        check('gradNorm (ulp)', got.gradNorm, ref.gradNorm, BOUNDS.residualStack.rounded, ulp32),
        check('grad (ulp of its largest)', got.grad, ref.grad, BOUNDS.residualStack.rounded, per(ulp32(maxAbs(ref.grad)))),
        check('loss (relative to Σ|readout·y|)', [got.loss], [ref.loss], BOUNDS.residualStack.loss, per(readout.reduce((s, t, k) => s + Math.abs(t * ref.y[k]), 0) || 1)),
      ];
    },
  },
  {
    name: 'transformerBlock', block: 1, inPlace: false,
    variants: ['pre', 'post'].flatMap((placement) => ['layer', 'rms'].flatMap((norm) => ['erf', 'tanh'].map((gelu) => ({ placement, norm, gelu })))),
    run(pn, n, v) {
      // n tokens of d = 4 through two heads
      const d = 4, dFF = 8, x = normals(n * d, { seed: n }), w = normals(4 * d * d + 2 * d * dFF, { std: 0.5, seed: n + 1 });
      const opts = { dModel: d, heads: 2, dFF, ...v };
      const got = pn.transformerBlock(x, w, opts), ref = transformerBlock(x, w, opts);
      return ['x', 'attnInput', 'attnOutput', 'residual1', 'ffnInput', 'ffnOutput', 'residual2', 'output', 'attention']
        .map((k) => check(`${k} (ulp)`, got[k], ref[k], BOUNDS.transformerBlock, ulp32));
    },
  },
  {
    name: 'layerNormSteps', block: 1, inPlace: false, variants: norms.flatMap((magnitude) => [0, 1e-5].map((eps) => ({ magnitude, eps }))),
    run(pn, n, v) {
      const x = sweepData(n, v, n);
      const gamma = normals(n, { mean: 1, std: 0.4, seed: 3 }), beta = normals(n, { seed: 4 });
      const ref = layerNorm(x, n, { gamma, beta, eps: f32(v.eps) }), plain = layerNorm(x, n, { eps: f32(v.eps) });
      const got = pn.layerNormSteps(x, { gamma, beta, eps: v.eps });
      // NaN where n = 1 and eps = 0, as in float64
      return [
        check('y', got.y, ref.y, BOUNDS.layerNormSteps.y),
        check('normalized', got.normalized, plain.y, BOUNDS.layerNormSteps.normalized),
        check('centered (ulp)', got.centered, Float64Array.from(x, (t) => t - ref.mean[0]), BOUNDS.layerNormSteps.rounded, ulp32),
        check('mean, variance (ulp)', [got.mean, got.variance], [ref.mean[0], ref.variance[0]], BOUNDS.layerNormSteps.rounded, ulp32),
      ];
    },
  },
];

/**
 * The bounds, each a small factor above the largest error measured over the
 * whole sweep in both builds (node tests/kernel_sweep.test.mjs with
 * MEASURE=1 prints the measurements).
 */
export const BOUNDS = {
  layerNorm: { y: 2e-6, mean: 1, invStdDev: 2 }, // measured 1.1e-6; 0.42 ulp; 0.86 ulp
  rmsNorm: { y: 3e-7, invRms: 2 }, // measured 1.3e-7·max|y|; 0.77 ulp
  batchNorm: { y: 1.5e-6, stats: 0.6 }, // measured 7.5e-7 (|y| up to 16); 0.5 ulp
  positionalEncoding: 6e-8, // measured 2.98e-8: half a float32 ulp of values near 1
  peSample: 6e-8, // measured 2.96e-8
  rope: 7e-7, // measured 3.4e-7
  ropeFrequencies: { invFreq: 0.6, attentionFactor: 1e-15 }, // measured 0.4997 ulp; 0
  alibi: 0.6, // measured 0.45 ulp
  randomNormal: 1, // measured 0.4998 ulp
  attention: 0.6, // measured 0.49995 ulp (out), 0.49999 ulp (weights)
  gram: 0.6, // measured 0.49 ulp
  minRowDistance: 0.6, // measured 0.34 ulp
  peShift: 1.2e-7, // measured 5.9e-8
  residualStack: { std: 5e-7, rounded: 0.6, loss: 1e-15 }, // measured 2.4e-7 relative (float32 path); 0.4998 ulp; 1.4e-16
  transformerBlock: 1, // measured 0.555 ulp
  layerNormSteps: { y: 4e-7, normalized: 2.5e-7, rounded: 0.6 }, // measured 1.8e-7; 1.1e-7; 0.5 ulp
};

/** Sizes 1 … 3·block + 3, and a few large ones. */
export function sizesFor(k) {
  const small = Array.from({ length: 3 * k.block + 3 }, (_, i) => i + 1);
  const large = { 128: [1000, 4099], 64: [1000, 4099], 8: [257, 1024], 4: [65, 129], 2: [1001], 1: [97] }[k.block] ?? [];
  return [...small, ...large];
}
