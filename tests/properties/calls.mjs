// calls.mjs — turns a spec from arbitraries.mjs into a call on an instance
// (its tensors as plain arrays, buffers, views of the module's memory,
// subarrays, freed or foreign buffers, detached views), and checks a
// successful result against the documented shapes and promises.
import assert from 'node:assert/strict';

const F32_MAX = 3.4028234663852886e38;
const SPECIAL = [NaN, Infinity, -Infinity, -0, 1e-45, F32_MAX, -F32_MAX, 1e-40, 0];

/** mulberry32: the tests' own generator. */
function rng(seed) {
  let a = (seed * 2654435761) >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (((t ^ (t >>> 14)) >>> 0) + 0.5) / 4294967296;
  };
}

/** n float32 values of a kind. */
export function values(n, kind, seed) {
  const u = rng(seed + 1), out = new Float32Array(n);
  const normal = () => Math.sqrt(-2 * Math.log(u())) * Math.cos(2 * Math.PI * u());
  const c = ((seed % 7) - 3) + 0.5;
  for (let k = 0; k < n; k++) {
    if (kind === 'const') out[k] = c;
    else if (kind === 'wide') out[k] = Math.max(-F32_MAX, Math.min(F32_MAX, (u() < 0.5 ? -1 : 1) * 10 ** (-45 + u() * 83.6)));
    else if (kind === 'special' && u() < 0.3) out[k] = SPECIAL[Math.floor(u() * SPECIAL.length)];
    else out[k] = normal();
  }
  return out;
}

/** A view of a buffer's memory, taken after every allocation of the setup (allocations detach earlier views). */
class LazyView {
  constructor(buf) { this.buf = buf; }
}

/** Everything one run made, freed by release(). */
export class Setup {
  constructor(pn, other) {
    this.pn = pn;
    this.other = other;
    this.owned = [];
    this.foreign = [];
  }

  alloc(n, type = 'f32') {
    const b = this.pn.alloc(n, type);
    this.owned.push(b);
    return b;
  }

  /** A tensor spec (or a raw bad value) as the argument it describes. */
  tensor(spec) {
    if (spec === null || typeof spec !== 'object' || !spec.t) return spec;
    const { n, vals, where, seed, t } = spec;
    const data = values(n, vals, seed);
    if (t === 'f64') return Float64Array.from(data);
    if (t === 'i32') return Int32Array.from(data, (v) => (Number.isFinite(v) ? v : 0));
    if (t === 'array') return Array.from(data);
    if (t === 'u8c-buf') return this.alloc(Math.max(n, 1), 'u8c');
    if (n < 1 && where !== 'js') return data;
    switch (where) {
      case 'js': return data;
      case 'buf': return this.alloc(n).set(data);
      case 'view': return new LazyView(this.alloc(n).set(data));
      case 'sub': return this.alloc(n + 3).set(data, 1).subarray(1, n + 1);
      case 'freed': { const b = this.pn.alloc(n); b.free(); return b; }
      case 'freedParent': { const b = this.pn.alloc(n + 2); const s = b.subarray(1, n + 1); b.free(); return s; }
      case 'foreign': { const b = this.other.alloc(n).set(data); this.foreign.push(b); return b; }
      case 'detached': { const view = this.alloc(n).set(data).array; this.pn.memory.grow(1); return view; }
      default: throw new Error(`unknown where ${where}`);
    }
  }

  /** An `out` for `length` values of type f32 or u8c (`x` for aliasing). */
  out(spec, length, type = 'f32', x = undefined) {
    if (!spec) return undefined;
    if (!(Number.isInteger(length) && length > 0 && length < 1e6)) length = 8; // the shape itself is bad
    const Type = type === 'u8c' ? Uint8ClampedArray : Float32Array;
    const fill = (a) => { for (let k = 0; k < a.length; k++) a[k] = (k % 5) + 0.25; return a; };
    switch (spec.out) {
      case 'js': return fill(new Type(length));
      case 'buf': return fill(this.alloc(length, type).array) && this.owned.at(-1);
      case 'view': { const b = this.alloc(length, type); fill(b.array); return new LazyView(b); }
      case 'alias': return x && (x.isPnBuffer || x instanceof LazyView) && (x.isPnBuffer ? x : x.buf).length === length && type === 'f32' ? x : this.out({ out: 'buf' }, length, type);
      case 'small': return new Type(Math.max(0, length - 1));
      case 'big': return new Type(length + 1);
      case 'freed': { const b = this.pn.alloc(length, type); b.free(); return b; }
      case 'foreign': { const b = this.other.alloc(length, type); this.foreign.push(b); return b; }
      case 'f64': return new Float64Array(length);
      case 'f32': return new Float32Array(length);
      case 'detached': { const view = this.alloc(length, type).array; this.pn.memory.grow(1); return view; }
      case 'string': return 'out';
      default: throw new Error(`unknown out ${spec.out}`);
    }
  }

  /** Replaces every LazyView in args (plain objects and arrays) by its view, now that nothing more is allocated. */
  resolve(value) {
    if (value instanceof LazyView) return value.buf.array;
    if (Array.isArray(value)) return value.map((v) => this.resolve(v));
    if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, this.resolve(v)]));
    }
    return value;
  }

  release() {
    for (const b of this.owned) if (!b.freed) b.free();
    for (const b of this.foreign) if (!b.freed) b.free();
    this.owned.length = 0;
    this.foreign.length = 0;
  }
}

/** The bytes of an `out` (through its PnBuffer when it has one), or null when it has none to compare. */
export function outBytes(out) {
  if (!out || typeof out !== 'object') return null;
  if (out.isPnBuffer) return out.freed ? null : new Uint8Array(out.toArray().buffer);
  if (ArrayBuffer.isView(out)) {
    if (out.buffer.byteLength === 0) return null; // detached
    return new Uint8Array(out.buffer, out.byteOffset, out.byteLength).slice();
  }
  return null;
}

const isFiniteSpec = (s) => s === undefined || (s && s.vals !== 'special');
const finiteAll = (a) => { for (const v of a) if (!Number.isFinite(v)) return false; return true; };
/** Options object, with bad opts/extra keys of a mutated spec applied. */
function options(spec, o) {
  if (spec.mutated === 'opts') return spec.opts;
  const clean = Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
  if (spec.mutated === 'extra') clean[spec.extra] = 1;
  return clean;
}
const arr = (r) => (r && r.isPnBuffer ? r.array : r);
function lengthOf(r, n, Type = Float32Array) {
  const a = arr(r);
  assert.ok(a instanceof Type, `a ${Type.name}, got ${a?.constructor?.name}`);
  assert.equal(a.length, n);
  return a;
}

/**
 * Builds the call of `name` for `spec` on setup s: { invoke, out, expect }.
 * `expect(result)` checks the documented shapes and, where posnorm.h
 * promises it for finite inputs, finite values.
 */
export function build(name, spec, s) {
  const pn = s.pn;
  const T = (t) => s.tensor(t);
  switch (name) {
    case 'alloc': {
      return {
        invoke: () => {
          const b = spec.type === undefined ? pn.alloc(spec.length) : pn.alloc(spec.length, spec.type);
          try {
            const sub = b.subarray(...spec.sub.filter((v, k) => k === 0 || v !== undefined));
            b.set([1, 2, 3].slice(0, Math.max(0, Math.min(3, b.length - (Number(spec.fillOffset) || 0)))), spec.fillOffset);
            return { b, sub, copy: b.toArray() };
          } catch (e) {
            b.free(); // the buffer's own methods threw: the run holds nothing more than before
            throw e;
          }
        },
        expect: ({ b, sub, copy }) => {
          assert.equal(b.length, spec.length);
          assert.equal(b.type, spec.type ?? 'f32');
          assert.equal(copy.length, spec.length);
          assert.ok(sub.length >= 1 && sub.length <= b.length);
          b.free();
          assert.ok(sub.freed);
        },
      };
    }
    case 'positionalEncoding': {
      const [seqLen, dModel] = spec.mutated === 'shape' ? spec.shape : [spec.seqLen, spec.dModel];
      const n = typeof seqLen === 'number' && typeof dModel === 'number' ? seqLen * dModel : 1;
      const out = s.out(spec.out, Number.isInteger(n) && n > 0 && n < 1e6 ? n : 8);
      const o = s.resolve(options(spec, { seqLen, dModel, base: spec.base, offset: spec.offset, layout: spec.layout, precision: spec.low?.[0], compute: spec.low?.[1], out }));
      // float16 positions from 65520 on are Inf when every step is float16 (as in PyTorch), and their rows NaN
      const overflows = spec.low?.[0] === 'float16' && spec.low?.[1] === 'low' && (spec.offset ?? 0) + seqLen > 65520;
      return { out: o?.out, invoke: () => pn.positionalEncoding(o), expect: (r) => { const a = lengthOf(r, n); assert.ok(overflows || finiteAll(a), 'PE is finite'); } };
    }
    case 'peSample': {
      const out = s.out(spec.out, Number.isInteger(spec.n) && spec.n > 0 && spec.n < 1e6 ? spec.n : 8);
      const o = s.resolve(options(spec, { n: spec.n, dim: spec.dim, dModel: spec.dModel, base: spec.base, start: spec.start, step: spec.step, out }));
      return { out: o?.out, invoke: () => pn.peSample(o), expect: (r) => { const a = lengthOf(r, spec.n); for (const v of a) assert.ok(Math.abs(v) <= 1, `sample ${v}`); } };
    }
    case 'layerNorm':
    case 'rmsNorm': {
      const x = T(spec.x), gamma = T(spec.gamma), beta = name === 'layerNorm' ? T(spec.beta) : undefined;
      const N = spec.rows * (spec.mutated === 'cols' ? 1 : spec.cols);
      const out = s.out(spec.out, spec.mutated === 'cols' ? spec.x.n : N, 'f32', x);
      const o = s.resolve(options(spec, { cols: spec.cols, gamma, beta, eps: spec.eps, out }));
      const xs = s.resolve(x);
      const finite = !spec.mutated && isFiniteSpec(spec.x) && Math.fround(spec.eps ?? 1e-5) > 0;
      return {
        out: o?.out,
        invoke: () => pn[name](xs, o),
        expect: (r) => {
          const y = lengthOf(r.y, spec.x.n);
          const rowsOut = spec.x.n / spec.cols;
          lengthOf(name === 'layerNorm' ? r.mean : r.invRms, rowsOut);
          if (name === 'layerNorm') lengthOf(r.invStdDev, rowsOut);
          if (finite) assert.ok(finiteAll(y), `${name}: finite x and eps > 0 give a finite y`);
        },
      };
    }
    case 'batchNorm': {
      const x = T(spec.x), gamma = T(spec.gamma), beta = T(spec.beta);
      let runningMean, runningVar;
      if (spec.running) {
        const r = spec.running;
        runningMean = r.mean === 'bad' ? new Float32Array(spec.cols + 1) : r.mean === 'missing' ? undefined : T(r.mean);
        runningVar = r.var === 'half' ? undefined : r.var === 'bad' ? 'var' : T(r.var);
      }
      const N = spec.x?.n;
      const out = s.out(spec.out, N, 'f32', x);
      const o = s.resolve(options(spec, { cols: spec.cols, gamma, beta, eps: spec.eps, training: spec.training, runningMean, runningVar, momentum: spec.momentum, out }));
      const xs = s.resolve(x);
      const finite = !spec.mutated && spec.training !== false && isFiniteSpec(spec.x) && Math.fround(spec.eps ?? 1e-5) > 0;
      return {
        out: o?.out,
        invoke: () => pn.batchNorm(xs, o),
        expect: (r) => {
          const y = lengthOf(r.y, N);
          lengthOf(r.mean, spec.cols);
          lengthOf(r.var, spec.cols);
          assert.equal(N % spec.cols, 0);
          if (finite) assert.ok(finiteAll(y), 'batchNorm: finite x and eps > 0 give a finite y in training');
        },
      };
    }
    case 'rope': return buildRope(spec, s);
    case 'ropeFrequencies': {
      const scaling = resolveScaling(spec.scaling, spec.dim);
      const o = options(spec, { dim: spec.dim, base: spec.base, scaling, seqLen: spec.seqLen });
      return {
        invoke: () => pn.ropeFrequencies(o),
        expect: (r) => {
          lengthOf(r.invFreq, spec.dim / 2);
          assert.ok(Number.isFinite(r.attentionFactor) && r.attentionFactor > 0, `attention factor ${r.attentionFactor}`);
        },
      };
    }
    case 'alibiSlopes':
      return { invoke: () => pn.alibiSlopes(spec.heads), expect: (r) => { const a = lengthOf(r, spec.heads); for (const m of a) assert.ok(m > 0 && m <= 1, `slope ${m}`); } };
    case 'alibi': {
      const [heads, seqLen] = spec.mutated === 'shape' ? spec.shape : [spec.heads, spec.seqLen];
      const n = typeof heads === 'number' && typeof seqLen === 'number' ? heads * seqLen * seqLen : 1;
      const out = s.out(spec.out, Number.isInteger(n) && n > 0 && n < 1e6 ? n : 8);
      const o = s.resolve(options(spec, { heads, seqLen, out }));
      return { out: o?.out, invoke: () => pn.alibi(o), expect: (r) => { const a = lengthOf(r, n); assert.ok(finiteAll(a)); } };
    }
    case 'randomNormal': {
      const out = s.out(spec.out, Number.isInteger(spec.n) && spec.n > 0 && spec.n < 1e6 ? spec.n : 8);
      const o = s.resolve(options(spec, { mean: spec.mean, std: spec.std, seed: spec.seed, out }));
      return { out: o?.out, invoke: () => pn.randomNormal(spec.n, o), expect: (r) => { lengthOf(r, spec.n); } };
    }
    case 'histogram': {
      const x = T(spec.x);
      const range = spec.range ?? [];
      const o = options(spec, { bins: spec.bins, min: spec.only === 'max' ? undefined : range[0], max: spec.only === 'min' ? undefined : range[1] });
      const xs = s.resolve(x);
      return {
        invoke: () => pn.histogram(xs, o),
        expect: (r) => {
          const counts = lengthOf(r.counts, spec.bins, Uint32Array);
          assert.equal(counts.reduce((a, b) => a + b, 0) + r.below + r.above + r.nan, spec.x.n, 'every value counted once');
          assert.ok(r.min < r.max);
        },
      };
    }
    case 'roundToPrecision': {
      const x = T(spec.x);
      const out = s.out(spec.out, spec.x?.n ?? 1, 'f32', x);
      const o = s.resolve(options(spec, { precision: spec.precision, out }));
      const xs = s.resolve(x);
      return {
        out: o?.out,
        invoke: () => pn.roundToPrecision(xs, o),
        expect: (r) => {
          const a = lengthOf(r, spec.x.n), data = arr(xs);
          const bits = new Uint32Array(Float32Array.from(a).buffer);
          for (let k = 0; k < a.length; k++) {
            if (Number.isNaN(data[k])) { assert.equal(bits[k], 0x7fc00000, 'NaN → 0x7FC00000'); continue; }
            if (spec.precision === 'bfloat16') assert.equal(bits[k] & 0xffff, 0, `bfloat16 ${a[k]}`);
            else assert.ok(!Number.isFinite(a[k]) || (Math.abs(a[k]) <= 65504 && Number.isInteger(a[k] * 2 ** 24)), `float16 ${a[k]}`);
            // never farther than the next value of the type: half a spacing of 2^-8 (2^-11) relative, or the subnormal step
            if (Number.isFinite(a[k])) assert.ok(Math.abs(a[k] - data[k]) <= Math.max(Math.abs(data[k]) * (spec.precision === 'bfloat16' ? 2 ** -8 : 2 ** -11), spec.precision === 'bfloat16' ? 2 ** -134 : 2 ** -25), `${data[k]} → ${a[k]}`);
          }
        },
      };
    }
    case 'colormap': {
      const x = T(spec.x);
      const out = s.out(spec.out, 4 * (spec.x?.n ?? 1), 'u8c');
      const range = spec.range ?? [];
      const o = s.resolve(options(spec, { map: spec.map, vmin: range[0], vmax: range[1], out }));
      const xs = s.resolve(x);
      return {
        out: o?.out,
        invoke: () => pn.colormap(xs, o),
        expect: (r) => {
          const px = lengthOf(r, 4 * spec.x.n, Uint8ClampedArray);
          const data = arr(xs);
          for (let k = 0; k < spec.x.n; k++) assert.equal(px[4 * k + 3], Number.isNaN(data[k]) ? 0 : 255, `alpha of ${data[k]}`);
        },
      };
    }
    case 'colormapTable':
      return { invoke: () => (spec.map === undefined ? pn.colormapTable() : pn.colormapTable(spec.map)), expect: (r) => lengthOf(r, 1024, Uint8ClampedArray) };
    case 'attention': {
      const [seq, dModel] = spec.mutated === 'shape' ? [1, spec.shape[0]] : [spec.seq, spec.dModel];
      const dHead = spec.mutated === 'shape' ? spec.shape[1] : spec.dHead;
      const x = spec.mutated === 'shape' ? new Float32Array(dModel) : T(spec.x);
      let w = spec.w;
      if (w === 'wrongLength') w = spec.x ? [{ ...spec.x, n: 5 }, spec.x, spec.x] : [];
      const [wq, wk, wv] = w === 'missing' ? [T({ t: 'f32', n: 4, vals: 'normal', where: 'js', seed: 1 })] : w === 'freed' || w === 'foreign'
        ? [0, 1, 2].map(() => T({ t: 'f32', n: dModel * (dHead ?? dModel), vals: 'normal', where: w, seed: 1 })) : (Array.isArray(w) ? w : []).map(T);
      const o = s.resolve(options(spec, { dModel, dHead, wq, wk, wv }));
      const xs = s.resolve(x);
      const h = dHead ?? dModel;
      return { invoke: () => pn.attention(xs, o), expect: (r) => { const rows = arr(xs).length / dModel; lengthOf(r.out, rows * h); lengthOf(r.weights, rows * rows); } };
    }
    case 'gram':
    case 'minRowDistance': {
      const shaped = spec.mutated === 'shape';
      const x = shaped ? new Float32Array(spec.shape[0] * spec.shape[1]) : T(spec.x);
      const cols = shaped ? spec.shape[1] : spec.cols;
      const o = options(spec, { cols });
      const xs = s.resolve(x);
      return {
        invoke: () => pn[name](xs, o),
        expect: (r) => {
          const rows = spec.x.n / cols;
          if (name === 'gram') {
            const g = lengthOf(r, rows * rows);
            for (let i = 0; i < rows; i++) for (let j = 0; j < i; j++) assert.ok(Object.is(g[i * rows + j], g[j * rows + i]), 'symmetric');
          } else {
            assert.ok(r.i >= 0 && r.i < r.j && r.j < rows, `pair ${r.i}, ${r.j}`);
            assert.ok(r.distance >= 0, `distance ${r.distance}`);
          }
        },
      };
    }
    case 'peShift': {
      const x = T(spec.x);
      const o = options(spec, { k: spec.k, base: spec.base });
      const xs = s.resolve(x);
      return { invoke: () => pn.peShift(xs, o), expect: (r) => { lengthOf(r, spec.x.n); } };
    }
    case 'residualStack': return buildResidual(spec, s);
    case 'transformerBlock': {
      const d = spec.dModel, ff = spec.dFF ?? (typeof d === 'number' ? 4 * d : 4);
      const x = spec.mutated === 'shape' ? new Float32Array(spec.shape[0] * d) : T(spec.x);
      const wn = typeof d === 'number' && typeof ff === 'number' && Number.isInteger(4 * d * d + 2 * d * ff) && 4 * d * d + 2 * d * ff > 0 && 4 * d * d + 2 * d * ff < 1e7 ? 4 * d * d + 2 * d * ff : 16;
      let weights;
      if (spec.mutated === 'weights') {
        weights = spec.weights === 'wrongLength' ? new Float32Array(wn - 1) : spec.weights === 'f64' ? new Float64Array(wn) : T({ t: 'f32', n: wn, vals: 'normal', where: spec.weights, seed: 3 });
      } else {
        weights = values(wn, 'normal', spec.seed ?? 1).map((v) => v / Math.sqrt(typeof d === 'number' && d > 0 ? d : 1));
      }
      const o = options(spec, { dModel: d, heads: spec.heads, dFF: spec.dFF, placement: spec.placement, norm: spec.norm, gelu: spec.gelu, eps: spec.eps });
      const xs = s.resolve(x);
      return {
        invoke: () => pn.transformerBlock(xs, weights, o),
        expect: (r) => {
          const tokens = arr(xs).length / d;
          for (const k of ['x', 'attnInput', 'attnOutput', 'residual1', 'ffnInput', 'ffnOutput', 'residual2', 'output']) lengthOf(r[k], tokens * d);
          lengthOf(r.attention, (spec.heads ?? 1) * tokens * tokens);
        },
      };
    }
    case 'layerNormSteps': {
      const x = T(spec.x), gamma = T(spec.gamma), beta = T(spec.beta);
      const o = s.resolve(options(spec, { gamma, beta, eps: spec.eps }));
      const xs = s.resolve(x);
      const n = spec.x?.n;
      return {
        invoke: () => pn.layerNormSteps(xs, o),
        expect: (r) => {
          for (const k of ['centered', 'normalized', 'y']) lengthOf(r[k], n);
          assert.equal(typeof r.mean, 'number');
          assert.equal(typeof r.variance, 'number');
        },
      };
    }
    default: throw new Error(`no call ${name}`);
  }
}

/** A scaling spec's string placeholders (factors of the right length, bad arrays) made concrete for dim. */
function resolveScaling(scaling, dim) {
  if (!scaling || typeof scaling !== 'object' || Array.isArray(scaling)) return scaling;
  const half = typeof dim === 'number' && dim > 0 ? Math.floor(dim / 2) : 1;
  const r = { ...scaling };
  for (const key of ['shortFactor', 'longFactor']) {
    if (r[key] === 'half') r[key] = Array(half).fill(1.5);
    else if (r[key] === 'zeros') r[key] = Array(half).fill(0);
    else if (r[key] === 'strings') r[key] = Array(half).fill('2');
  }
  return r;
}

function buildRope(spec, s) {
  const pn = s.pn;
  const { batch, seqLen, heads, headDim } = spec;
  const rotary = typeof spec.rotaryDim === 'number' ? spec.rotaryDim : typeof headDim === 'number' ? headDim - (headDim % 2) : 2;
  const half = Number.isInteger(rotary) && rotary >= 2 && rotary <= 64 ? Math.floor(rotary / 2) : 1;
  const small = (v) => (Number.isInteger(v) && v > 0 && v < 100 ? v : 1);
  const tokens = small(batch) * small(seqLen);
  const N = [batch, seqLen, heads, headDim].every((v) => typeof v === 'number') ? batch * seqLen * heads * headDim : 16;
  let x = spec.mutated === 'x' ? s.tensor(spec.x) : s.tensor({ ...spec.x, where: spec.xWhere ?? 'js' });
  const o = { batch, seqLen, layout: spec.layout, interleaved: spec.interleaved, rotaryDim: spec.rotaryDim, base: spec.base };
  if (spec.numHeads && spec.mutated !== 'numHeads') { o.numHeads = heads; } else o.heads = heads;
  if (spec.mutated === 'numHeads') {
    if (spec.numHeads === 'withHeads') o.numHeads = heads;
    else if (spec.numHeads === 'bhsd') { o.numHeads = heads; o.layout = 'bhsd'; }
    else { delete o.heads; o.numHeads = spec.numHeads; }
  }
  const pos = spec.pos;
  if (pos.kind === 'offset') o.offset = pos.offset;
  else if (pos.kind === 'ids') {
    const ids = pos.ids;
    o.positionIds = pos.where === 'array' ? ids : pos.where === 'i32' ? Int32Array.from(ids)
      : pos.where === 'buf' ? s.alloc(ids.length, 'i32').set(ids) : (() => { const b = s.alloc(ids.length, 'i32').set(ids); return new LazyView(b); })();
  } else {
    const rows = pos.ids ? pos.rows : tokens;
    o.cosCache = values(rows * half, 'normal', pos.seed);
    o.sinCache = values(rows * half, 'normal', pos.seed + 1);
    if (pos.ids) o.positionIds = Array.from({ length: tokens }, (_, k) => (k * 7 + pos.seed) % rows);
    delete o.base;
  }
  o.scaling = resolveScaling(spec.scaling, rotary);
  switch (spec.mutated === 'ids' ? spec.ids : null) {
    case 'wrongLength': o.positionIds = Array(tokens + 1).fill(0); delete o.offset; break;
    case 'negative': o.positionIds = Array(tokens).fill(-1); delete o.offset; break;
    case 'fraction': o.positionIds = Array(tokens).fill(0.5); delete o.offset; break;
    case 'huge': o.positionIds = Array(tokens).fill(2 ** 31); delete o.offset; break;
    case 'strings': o.positionIds = Array(tokens).fill('1'); delete o.offset; break;
    case 'float32': o.positionIds = new Float32Array(tokens); delete o.offset; break;
    case 'freed': { const b = pn.alloc(tokens, 'i32'); b.free(); o.positionIds = b; delete o.offset; break; }
    case 'foreign': { const b = s.other.alloc(tokens, 'i32'); s.foreign.push(b); o.positionIds = b; delete o.offset; break; }
    case 'withOffset': o.positionIds = Array(tokens).fill(0); o.offset = 0; break;
    case 'beyondCache': o.cosCache = new Float32Array(half); o.sinCache = new Float32Array(half); o.positionIds = Array(tokens).fill(1); delete o.base; delete o.offset; delete o.scaling; break;
    default: break;
  }
  switch (spec.mutated === 'cache' ? spec.cache : null) {
    case 'wrongRows': o.cosCache = new Float32Array(tokens * half + 1); o.sinCache = new Float32Array(tokens * half + 1); delete o.positionIds; delete o.offset; delete o.base; delete o.scaling; break;
    case 'withBase': o.cosCache = new Float32Array(tokens * half); o.sinCache = new Float32Array(tokens * half); o.base = 100; delete o.offset; delete o.scaling; break;
    case 'withScaling': o.cosCache = new Float32Array(tokens * half); o.sinCache = new Float32Array(tokens * half); o.scaling = { type: 'linear', factor: 2 }; delete o.base; delete o.offset; break;
    case 'onlyCos': o.cosCache = new Float32Array(tokens * half); delete o.sinCache; delete o.base; delete o.offset; delete o.scaling; break;
    case 'sinShort': o.cosCache = new Float32Array(tokens * half); o.sinCache = new Float32Array(tokens * half - 1 || 2); delete o.base; delete o.offset; delete o.scaling; break;
    default: break;
  }
  if (spec.mutated === 'offset') { o.offset = spec.offset; delete o.positionIds; delete o.cosCache; delete o.sinCache; }
  for (const key of ['base', 'layout', 'interleaved', 'batch', 'seqLen', 'headDim', 'rotaryDim']) if (spec.mutated === key) o[key] = spec[key];
  if (spec.mutated === 'heads') { delete o.numHeads; o.heads = spec.heads; }
  if (spec.mutated === 'scaling') { o.scaling = resolveScaling(spec.scaling, rotary); delete o.cosCache; delete o.sinCache; }
  const out = s.out(spec.out, N, 'f32', x);
  o.out = out;
  const opts = s.resolve(options(spec, o));
  x = s.resolve(x);
  return { out: opts?.out, invoke: () => pn.rope(x, opts), expect: (r) => { lengthOf(r, N); } };
}

function buildResidual(spec, s) {
  const pn = s.pn;
  let { width, layers, rows } = spec;
  let x0, weights, readout;
  const o = { width, layers, block: spec.block, gelu: spec.gelu, scale: spec.scale, gradients: spec.gradients };
  if (spec.mutated === 'shape') {
    // zero pages of JS memory: never touched when the call refuses first
    const [r, w, l] = spec.shape === 'scratch4GiB' ? [4096, 4096, 9] : spec.shape === 'layersWidth' ? [1, 4096, 17] : [4096, 4096, 16];
    x0 = new Float32Array(r * w);
    weights = new Float32Array(Math.min(l * w * w, 2 ** 28));
    Object.assign(o, { width: w, layers: l, gradients: spec.shape !== 'layersWidth', block: 'pre-ln' });
    rows = r;
  } else {
    x0 = s.tensor(spec.x);
    weights = spec.weights === 'short' ? new Float32Array(Math.max(1, layers * width * width - 1)) : s.tensor(spec.weights);
    readout = spec.readout === 'withoutGradients' ? new Float32Array(rows * width) : s.tensor(spec.readout);
    if (spec.readout === 'withoutGradients') o.gradients = false;
  }
  o.readout = readout;
  const opts = s.resolve(options(spec, o));
  const [xs, ws] = [s.resolve(x0), s.resolve(weights)];
  return {
    invoke: () => pn.residualStack(xs, ws, opts),
    expect: (r) => {
      if (spec.gradients === true) {
        lengthOf(r.std, layers);
        lengthOf(r.grad, layers * width * width);
        lengthOf(r.gradNorm, layers);
        assert.equal(typeof r.loss, 'number');
      } else {
        lengthOf(r, layers);
      }
    },
  };
}
