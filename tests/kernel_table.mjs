// kernel_table.mjs — every exported kernel in one list, as XNNPACK lists its
// kernels to generate tests: its SIMD block (the width its inner loop takes
// at a time, so sizes 1 … 3·block + 3 reach every tail), whether it may run
// in place, its variants, how to call it at size n, and a float64 reference
// written from the formula (never from posnorm's code), with the bound.
// tests/kernel_sweep.test.mjs runs every entry in both wasm builds.
import { blockRef, columnStats, layerNormRef, normals, peRef } from './helpers.mjs';

const f32 = Math.fround;
/** Data of mixed magnitudes: ordinary, large (1e30) and tiny (1e-30) rows. */
export function sweepData(n, variant, seed) {
  const scale = { ordinary: 1, large: 1e30, tiny: 1e-30 }[variant.magnitude ?? 'ordinary'];
  return normals(n, { mean: 2 * scale, std: 3 * scale, seed });
}
const maxErr = (got, want) => {
  let m = 0;
  for (let k = 0; k < want.length; k++) {
    const d = Math.abs(got[k] - want[k]);
    if (!(d <= m)) m = d;
  }
  return m;
};
const norms = ['ordinary', 'large', 'tiny'];
const affine = [[false, false], [true, false], [false, true], [true, true]];

export const KERNELS = [
  {
    name: 'layerNorm', block: 64, inPlace: true,
    variants: affine.flatMap(([gamma, beta]) => norms.flatMap((magnitude) => [0, 1e-5].map((eps) => ({ gamma, beta, magnitude, eps })))),
    run(pn, n, v, inPlace) {
      const x = sweepData(2 * n, v, n);
      const gamma = v.gamma ? normals(n, { mean: 1, std: 0.4, seed: 7 }) : undefined;
      const beta = v.beta ? normals(n, { seed: 8 }) : undefined;
      const ref = layerNormRef(x, n, gamma, beta, v.eps).y;
      const buf = pn.alloc(2 * n).set(x);
      const y = inPlace ? pn.layerNorm(buf, { cols: n, gamma, beta, eps: v.eps, out: buf }).y.toArray() : pn.layerNorm(x, { cols: n, gamma, beta, eps: v.eps }).y;
      buf.free();
      // rows of one value (n = 1) with eps 0 are 0/0 in float64 too
      const keep = Array.from(ref, (r, k) => (Number.isFinite(r) ? k : -1)).filter((k) => k >= 0);
      return { err: maxErr(keep.map((k) => y[k]), keep.map((k) => ref[k])), bound: 5e-6 };
    },
  },
  {
    name: 'rmsNorm', block: 64, inPlace: true,
    variants: [false, true].flatMap((gamma) => norms.flatMap((magnitude) => [0, 1e-6].map((eps) => ({ gamma, magnitude, eps })))),
    run(pn, n, v, inPlace) {
      const x = sweepData(2 * n, v, n + 1);
      const gamma = v.gamma ? normals(n, { mean: 1, std: 0.4, seed: 9 }) : undefined;
      const ref = new Float64Array(2 * n);
      let top = 0;
      for (let r = 0; r < 2; r++) {
        let sq = 0;
        for (let j = 0; j < n; j++) sq += x[r * n + j] ** 2;
        const inv = 1 / Math.sqrt(sq / n + f32(v.eps));
        for (let j = 0; j < n; j++) { ref[r * n + j] = x[r * n + j] * inv * (gamma ? gamma[j] : 1); top = Math.max(top, Math.abs(ref[r * n + j])); }
      }
      const buf = pn.alloc(2 * n).set(x);
      const y = inPlace ? pn.rmsNorm(buf, { cols: n, gamma, eps: v.eps, out: buf }).y.toArray() : pn.rmsNorm(x, { cols: n, gamma, eps: v.eps }).y;
      buf.free();
      return { err: maxErr(y, ref), bound: 2e-6 * top };
    },
  },
  {
    name: 'batchNorm', block: 64, inPlace: true,
    variants: norms.flatMap((magnitude) => [{ magnitude, training: true }, { magnitude, training: false }]),
    run(pn, n, v, inPlace) {
      const rows = 3;
      const x = sweepData(rows * n, v, n + 2);
      const { mean, variance: vr } = columnStats(x, n);
      const rm = v.training ? undefined : Float32Array.from(mean), rv = v.training ? undefined : Float32Array.from(vr);
      const ref = Float64Array.from(x, (t, k) => (t - (rm ? rm[k % n] : mean[k % n])) / Math.sqrt((rv ? rv[k % n] : vr[k % n]) + f32(1e-5)));
      const opts = v.training ? { cols: n } : { cols: n, training: false, runningMean: rm, runningVar: rv };
      const buf = pn.alloc(rows * n).set(x);
      const y = inPlace ? pn.batchNorm(buf, { ...opts, out: buf }).y.toArray() : pn.batchNorm(x, opts).y;
      buf.free();
      return { err: maxErr(y, ref), bound: 5e-6 };
    },
  },
  {
    name: 'positionalEncoding', block: 8, inPlace: false,
    variants: ['interleaved', 'concat'].flatMap((layout) => [0, 100000].map((offset) => ({ layout, offset }))),
    run(pn, n, v) {
      const got = pn.positionalEncoding({ seqLen: 5, dModel: n, layout: v.layout, offset: v.offset });
      return { err: maxErr(got, peRef(5, n, { layout: v.layout, offset: v.offset })), bound: 2e-7 };
    },
  },
  {
    name: 'peSample', block: 1, inPlace: false, variants: [{ step: 0.37 }, { step: -11.5 }],
    run(pn, n, v) {
      const d = 32, dim = n % d;
      const got = pn.peSample({ n, dim, dModel: d, start: 3.25, step: v.step });
      const w = Math.pow(10000, -2 * (dim >> 1) / d);
      return { err: maxErr(got, Array.from({ length: n }, (_, k) => (dim % 2 ? Math.cos : Math.sin)((3.25 + k * v.step) * w))), bound: 2e-7 };
    },
  },
  {
    name: 'rope', block: 4, inPlace: true,
    variants: [false, true].flatMap((interleaved) => ['bshd', 'bhsd'].flatMap((layout) => [false, true].map((ids) => ({ interleaved, layout, ids })))),
    run(pn, n, v, inPlace) {
      const headDim = 2 * n, B = 2, S = 3, H = 2;
      const x = normals(B * S * H * headDim, { seed: n + 3 });
      const positionIds = v.ids ? Int32Array.from({ length: B * S }, (_, k) => 5 + 17 * k) : undefined;
      const ref = new Float64Array(x.length);
      for (let b = 0; b < B; b++) for (let s = 0; s < S; s++) for (let h = 0; h < H; h++) {
        const p = positionIds ? positionIds[b * S + s] : s;
        const at = (v.layout === 'bshd' ? (b * S + s) * H + h : (b * H + h) * S + s) * headDim;
        for (let i = 0; i < n; i++) {
          const [j1, j2] = v.interleaved ? [2 * i, 2 * i + 1] : [i, i + n];
          const a = p * Math.pow(10000, (-2 * i) / headDim);
          ref[at + j1] = x[at + j1] * Math.cos(a) - x[at + j2] * Math.sin(a);
          ref[at + j2] = x[at + j1] * Math.sin(a) + x[at + j2] * Math.cos(a);
        }
      }
      const opts = { batch: B, seqLen: S, heads: H, headDim, layout: v.layout, interleaved: v.interleaved, positionIds };
      const buf = pn.alloc(x.length).set(x);
      const y = inPlace ? pn.rope(buf, { ...opts, out: buf }).toArray() : pn.rope(x, opts);
      buf.free();
      return { err: maxErr(y, ref), bound: 2e-6 };
    },
  },
  {
    name: 'ropeFrequencies', block: 1, inPlace: false,
    variants: [undefined, { type: 'linear', factor: 4 }, { type: 'dynamic', factor: 4, originalMaxPositions: 64 }, { type: 'yarn', factor: 8, originalMaxPositions: 256 }, { type: 'llama3', factor: 8, originalMaxPositions: 256, lowFreqFactor: 1, highFreqFactor: 4 }].map((scaling) => ({ scaling })),
    run(pn, n, v) {
      // dim = 2n; float64 references: tests/rope_scaling.test.mjs covers every type in depth,
      // here the plain and linear frequencies at every size
      const dim = 2 * n;
      if (v.scaling?.type === 'dynamic' && dim < 4) {
        // dim/(dim − 2) has no value: a RangeError that says so, as the kernel refuses it
        try { pn.ropeFrequencies({ dim, scaling: v.scaling }); } catch (e) { return { err: /at least 4/.test(e.message) ? 0 : Infinity, bound: 0 }; }
        return { err: Infinity, bound: 0 };
      }
      const got = pn.ropeFrequencies({ dim, scaling: v.scaling, seqLen: 1000 });
      if (got.invFreq.length !== n || !got.invFreq.every((w) => w > 0 && w <= 1)) return { err: Infinity, bound: 0 };
      if (v.scaling && v.scaling.type !== 'linear') return { err: 0, bound: 0 };
      const div = v.scaling ? v.scaling.factor : 1;
      const want = Array.from({ length: n }, (_, i) => 1 / 10000 ** ((2 * i) / dim) / div);
      return { err: maxErr(got.invFreq, want), bound: 1.2e-7 };
    },
  },
  {
    name: 'alibi', block: 1, inPlace: false, variants: [{}],
    run(pn, n) {
      const heads = n, seqLen = 3, got = pn.alibi({ heads, seqLen });
      const p = 2 ** Math.floor(Math.log2(heads));
      const slope = (h) => (h < p ? 2 ** (-8 * (h + 1) / p) : 2 ** (-8 * (2 * (h - p) + 1) / (2 * p)));
      const ref = [];
      for (let h = 0; h < heads; h++) for (let i = 0; i < seqLen; i++) for (let j = 0; j < seqLen; j++) ref.push(-slope(h) * Math.abs(i - j));
      return { err: maxErr(got, ref), bound: 1e-7 };
    },
  },
  {
    name: 'randomNormal', block: 2, inPlace: false, variants: [{ std: 1 }, { std: 1e30 }],
    run(pn, n, v) {
      const got = pn.randomNormal(n, { std: v.std, seed: n });
      // no float64 formula for a generator's draws: finite, and the same numbers again
      const again = pn.randomNormal(n, { std: v.std, seed: n });
      return { err: got.every(Number.isFinite) ? maxErr(got, again) : Infinity, bound: 0 };
    },
  },
  {
    name: 'histogram', block: 1, inPlace: false, variants: [{}],
    run(pn, n) {
      const x = normals(n, { seed: n });
      const h = pn.histogram(x, { bins: 5, min: -1, max: 1 });
      const counts = [0, 0, 0, 0, 0];
      let below = 0, above = 0;
      for (const t of x) {
        if (t < -1) below++; else if (t > 1) above++; else counts[Math.min(4, Math.floor(((t + 1) / 2) * 5))]++;
      }
      return { err: maxErr([...h.counts, h.below, h.above], [...counts, below, above]), bound: 0 };
    },
  },
  {
    name: 'colormap', block: 1, inPlace: false, variants: ['diverging', 'sequential'].map((map) => ({ map })),
    run(pn, n, v) {
      const x = normals(n, { seed: n });
      const px = pn.colormap(x, { map: v.map, vmin: -2, vmax: 2 });
      const lut = pn.colormapTable(v.map);
      const want = [];
      for (const t of x) {
        const k = Math.min(255, Math.max(0, Math.floor(255 * ((t + 2) / 4) + 0.5)));
        want.push(...lut.subarray(4 * k, 4 * k + 4));
      }
      return { err: maxErr(px, want), bound: 0 };
    },
  },
  {
    name: 'attention', block: 1, inPlace: false, variants: [{}],
    run(pn, n) {
      const d = 4, seqLen = n;
      const x = normals(seqLen * d, { seed: n }), w = normals(3 * d * d, { std: 0.5, seed: 5 });
      const [wq, wk, wv] = [0, 1, 2].map((k) => w.subarray(k * d * d, (k + 1) * d * d));
      const proj = (m) => Array.from({ length: seqLen }, (_, i) => Array.from({ length: d }, (_, c) => { let s = 0; for (let k = 0; k < d; k++) s += x[i * d + k] * m[k * d + c]; return s; }));
      const q = proj(wq), k = proj(wk), val = proj(wv);
      const ref = [];
      for (let i = 0; i < seqLen; i++) {
        const sc = k.map((kj) => kj.reduce((s, t, c) => s + t * q[i][c], 0) / Math.sqrt(d));
        const m = Math.max(...sc), e = sc.map((t) => Math.exp(t - m)), z = e.reduce((a, b) => a + b, 0);
        for (let c = 0; c < d; c++) ref.push(e.reduce((s, t, j) => s + (t / z) * val[j][c], 0));
      }
      return { err: maxErr(pn.attention(x, { dModel: d, wq, wk, wv }).out, ref), bound: 1e-6 };
    },
  },
  {
    name: 'gram', block: 1, inPlace: false, variants: [{}],
    run(pn, n) {
      const x = normals(3 * n, { seed: n });
      const ref = [];
      for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) { let s = 0; for (let k = 0; k < n; k++) s += x[i * n + k] * x[j * n + k]; ref.push(s); }
      return { err: maxErr(pn.gram(x, { cols: n }), ref), bound: 1e-6 * n };
    },
  },
  {
    name: 'minRowDistance', block: 1, inPlace: false, variants: [{}],
    run(pn, n) {
      const x = normals(4 * n, { seed: n });
      let best = Infinity;
      for (let i = 0; i < 4; i++) for (let j = i + 1; j < 4; j++) { let s = 0; for (let k = 0; k < n; k++) s += (x[i * n + k] - x[j * n + k]) ** 2; best = Math.min(best, Math.sqrt(s)); }
      return { err: Math.abs(pn.minRowDistance(x, { cols: n }).distance - best), bound: 1e-6 * best };
    },
  },
  {
    name: 'peShift', block: 1, inPlace: false, variants: [{ k: 7 }, { k: -300 }],
    run(pn, n, v) {
      const d = 2 * n, p = 1000;
      const got = pn.peShift(pn.positionalEncoding({ seqLen: 1, dModel: d, offset: p }), { k: v.k });
      return { err: maxErr(got, peRef(1, d, { offset: p + v.k })), bound: 3e-7 };
    },
  },
  {
    name: 'residualStack', block: 1, inPlace: false, variants: ['plain', 'post-ln', 'pre-ln', 'pre-rms'].map((block) => ({ block })),
    run(pn, n, v) {
      // finite and positive spreads; their float64 values are checked by tests/article_kernels.test.mjs
      const width = n, x0 = normals(2 * width, { seed: n }), w = normals(2 * width * width, { std: 1 / Math.sqrt(width), seed: n + 1 });
      const s = pn.residualStack(x0, w, { width, layers: 2, block: v.block });
      return { err: s.every((t) => Number.isFinite(t) && t >= 0) ? 0 : Infinity, bound: 0 };
    },
  },
  {
    name: 'transformerBlock', block: 1, inPlace: false,
    variants: ['pre', 'post'].flatMap((placement) => ['layer', 'rms'].map((norm) => ({ placement, norm }))),
    run(pn, n, v) {
      // n tokens of d = 4 through two heads
      const d = 4, dFF = 8, x = normals(n * d, { seed: n }), w = normals(4 * d * d + 2 * d * dFF, { std: 0.5, seed: n + 1 });
      const opts = { dModel: d, heads: 2, dFF, ...v };
      const got = pn.transformerBlock(x, w, opts), ref = blockRef(x, w, opts);
      const err = Math.max(...['attnOutput', 'ffnInput', 'output', 'attention'].map((k) => maxErr(got[k], ref[k]) / (1 + Math.max(...ref[k].map(Math.abs)))));
      return { err, bound: 1e-6 };
    },
  },
  {
    name: 'layerNormSteps', block: 1, inPlace: false, variants: norms.map((magnitude) => ({ magnitude, eps: 1e-5 })),
    run(pn, n, v) {
      const x = sweepData(n, v, n);
      const ref = layerNormRef(x, n, null, null, v.eps).y;
      const keep = Array.from(ref, (r, k) => (Number.isFinite(r) ? k : -1)).filter((k) => k >= 0);
      const y = pn.layerNormSteps(x, { eps: v.eps }).y;
      return { err: maxErr(keep.map((k) => y[k]), keep.map((k) => ref[k])), bound: 5e-6 };
    },
  },
];

/** Sizes 1 … 3·block + 3, and a few large ones. */
export function sizesFor(k) {
  const small = Array.from({ length: 3 * k.block + 3 }, (_, i) => i + 1);
  const large = { 64: [1000, 4099], 8: [257, 1024], 4: [65, 129], 2: [1001], 1: [97] }[k.block] ?? [];
  return [...small, ...large];
}

