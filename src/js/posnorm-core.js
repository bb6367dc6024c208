// posnorm-core.js — init() and every kernel call but four: the whole API of
// posnorm.js (the package's entry point, which re-exports this module)
// except pn.ropeFromConfig, which posnorm.js adds from rope-config.js, and
// the figures' own kernels (residualStack, transformerBlock,
// layerNormSteps), which figure-kernels.js adds. The figures import this
// module, so that the Hugging Face config reader (about 10 KB minified)
// loads with the rope-config figure alone and the figures' kernels with
// their figures, not in every page's first load (docs/decisions.md, "Page
// budget").
//
//   import { init } from 'posnorm';
//   const pn = await init();
//   const pe = pn.positionalEncoding({ seqLen: 50, dModel: 128 });
//
// Every call validates its arguments before any memory is touched, throws a
// TypeError or RangeError that names the argument and the allowed range, and
// frees whatever it allocated, so the module stays usable after any error.
// Validation reads every value and length the call needs (views of the
// module's memory are detached when the call's own allocations grow it) and
// ends by checking that the call's copies, outputs and kernel scratch fit in
// the module's 2 GiB.

import { compileWasm, defaultWasmUrl, instantiate, simdSupported } from './loader.js';
import { check, framed, MEMORY_LIMIT, optionalF32, rowsOf } from './call.js';
import { inside, internals } from './internals.js';
import { BUFFER_TYPES, Heap, PnBuffer, heapOfMemory, isDetached, isPnBuffer, newBuffer, ownerOf, plainBuffer, refuseFreedView, typedArrayTag } from './memory.js';
import * as v from './validate.js';

export { simdSupported, PnBuffer };
export const MAX_ELEMENTS = v.MAX_ELEMENTS;

const LAYOUTS = ['interleaved', 'concat'];
const COLORMAPS = ['diverging', 'sequential'];
const { POS_LIMIT } = v;
/** The largest finite float32, (2 − 2^−23)·2^127. */
const FLOAT32_MAX = 3.4028234663852886e38;
const ROPE_OPTIONS = ['batch', 'seqLen', 'heads', 'numHeads', 'headDim', 'base', 'offset', 'positionIds', 'interleaved', 'rotaryDim', 'layout', 'cosCache', 'sinCache', 'scaling', 'precision', 'compute', 'out'];
/** precision values, and the pn_dtype of the ones lowprec.c computes. */
const PRECISIONS = ['float64', 'float32', 'bfloat16', 'float16'];
const DTYPES = { float32: 0, bfloat16: 1, float16: 2 };
const COMPUTES = ['float32', 'low'];

/**
 * The precision and compute options: precision one of PRECISIONS (default
 * float64), compute only with bfloat16/float16 (default 'float32').
 */
function precisionArgs(fn, o) {
  const precision = v.oneOf(fn, 'precision', o.precision ?? 'float64', PRECISIONS);
  const low = precision === 'bfloat16' || precision === 'float16';
  if (o.compute !== undefined && o.compute !== null && !low) {
    throw new TypeError(`posnorm.${fn}: compute applies to precision 'bfloat16' or 'float16' only, got precision '${precision}'`);
  }
  const compute = low ? v.oneOf(fn, 'compute', o.compute ?? 'float32', COMPUTES) : 'float32';
  return { precision, compute: COMPUTES.indexOf(compute), dtype: DTYPES[precision] };
}
const ROPE_LAYOUTS = ['bshd', 'bhsd'];



/** Validates an `out` argument of `length` values of `type`. */
function outArg(fn, out, length, type = 'f32', name = 'out') {
  if (out === undefined || out === null) return undefined;
  const Type = BUFFER_TYPES[type];
  const ok = v.isInstance(out, Type) || (isPnBuffer(out) && out.type === type);
  if (!ok) throw new TypeError(`posnorm.${fn}: ${name} must be a ${Type.name} or a posnorm ${type} buffer, got ${v.describe(out)}`);
  v.live(fn, name, out);
  if (out.length !== length) throw new RangeError(`posnorm.${fn}: ${name}.length must be ${length}, got ${out.length}`);
  return out;
}


/** Checks the arguments LayerNorm and RMSNorm share. */
function rowNormArgs(fn, x, opts, epsDefault, allowed) {
  const o = v.options(fn, opts, allowed);
  v.f32(fn, 'x', x);
  const cols = v.int(fn, 'cols', o.cols, 1);
  return {
    o,
    cols,
    rows: rowsOf(fn, x, cols),
    size: x.length,
    gamma: optionalF32(fn, 'gamma', o.gamma, cols),
    eps: v.eps(fn, o.eps ?? epsDefault),
    out: outArg(fn, o.out, x.length),
  };
}

const SCALING_TYPES = ['linear', 'dynamic', 'yarn', 'llama3', 'longrope'];
/** The keys each rope_scaling type takes (HF's, in camelCase), required first. */
const SCALING_KEYS = {
  linear: { required: ['factor'], optional: [] },
  dynamic: { required: ['factor', 'originalMaxPositions'], optional: [] },
  yarn: { required: ['factor', 'originalMaxPositions'], optional: ['betaFast', 'betaSlow', 'mscale', 'mscaleAllDim', 'attentionFactor', 'truncate'] },
  llama3: { required: ['factor', 'originalMaxPositions', 'lowFreqFactor', 'highFreqFactor'], optional: [] },
  longrope: { required: ['originalMaxPositions', 'shortFactor', 'longFactor'], optional: ['factor', 'attentionFactor'] },
};

/** Range of yarn's betaFast and betaSlow (CONTEXT of #16: finite correction dims). */
const BETA_MIN = 1e-9, BETA_MAX = 1e9;
/**
 * Range of `factor` and of every short/long factor: the frequencies are
 * divided by them, and at least 1e-9 keeps every quotient (w_i <= 1) finite,
 * which the kernel requires.
 */
const FACTOR_MIN = 1e-9, FACTOR_MAX = 1e9;
/** The largest grown base `dynamic` may reach (a factor of 2 below the largest double). */
const GROWN_BASE_MAX = 2 ** 1023;
/** How close to 0 yarn's m(factor, k) may come before its sign is a matter of rounding. */
const MSCALE_EPS = 1e-12;

/** Every key a `scaling` option may hold (of some type), made once. */
const SCALING_OPTIONS = ['type', ...new Set(Object.values(SCALING_KEYS).flatMap((k) => [...k.required, ...k.optional]))];

/**
 * Reads and validates a `scaling` option ({ type, ...HF's keys in
 * camelCase }), every value once (its getters and its factor arrays' run
 * here and nowhere later), and packs it for pn_rope_frequencies_f64:
 * { type, name, params, shortFactor, longFactor }. What the kernel will
 * derive from it at a sequence length is checked by checkScaling.
 */
function scalingArgs(fn, scaling, dim) {
  const params = new Float64Array(10).fill(NaN);
  if (scaling === undefined || scaling === null) return { type: 0, name: null, params, shortFactor: undefined, longFactor: undefined };
  const s = v.options(fn, scaling, SCALING_OPTIONS, 'scaling');
  const type = v.oneOf(fn, 'scaling.type', s.type, SCALING_TYPES);
  const keys = SCALING_KEYS[type];
  if (type === 'dynamic' && dim < 4) throw new RangeError(`posnorm.${fn}: scaling type "dynamic" needs a rotary dim of at least 4 (its exponent is dim/(dim − 2)), got ${dim}`);
  for (const key of Object.keys(s)) {
    if (key !== 'type' && !keys.required.includes(key) && !keys.optional.includes(key)) {
      throw new TypeError(`posnorm.${fn}: scaling type ${JSON.stringify(type)} has no option ${JSON.stringify(key)}; it takes ${[...keys.required, ...keys.optional].join(', ')}`);
    }
  }
  for (const key of keys.required) {
    if (s[key] === undefined) throw new TypeError(`posnorm.${fn}: scaling type ${JSON.stringify(type)} needs scaling.${key}`);
  }
  const num = (key, min, max, open) => v.num(fn, `scaling.${key}`, s[key], min, max, { minOpen: open });
  params[0] = s.factor === undefined ? 1 : num('factor', FACTOR_MIN, FACTOR_MAX);
  if (s.originalMaxPositions !== undefined) params[1] = v.int(fn, 'scaling.originalMaxPositions', s.originalMaxPositions, 1, POS_LIMIT);
  params[2] = s.betaFast === undefined ? 32 : num('betaFast', BETA_MIN, BETA_MAX);
  params[3] = s.betaSlow === undefined ? 1 : num('betaSlow', BETA_MIN, BETA_MAX);
  if (s.mscale !== undefined) params[4] = num('mscale', -1e9, 1e9);
  if (s.mscaleAllDim !== undefined) params[5] = num('mscaleAllDim', -1e9, 1e9);
  if (s.attentionFactor !== undefined) params[6] = num('attentionFactor', 0, 1e9, true);
  if (s.lowFreqFactor !== undefined) params[7] = num('lowFreqFactor', 0, 1e9, true);
  if (s.highFreqFactor !== undefined) {
    params[8] = num('highFreqFactor', 0, 1e9, true);
    if (!(params[8] > params[7])) throw new RangeError(`posnorm.${fn}: scaling.highFreqFactor must be greater than lowFreqFactor (${params[7]}), got ${params[8]}`);
  }
  params[9] = v.bool(fn, 'scaling.truncate', s.truncate ?? true) ? 1 : 0;
  const factors = (key) => {
    if (s[key] === undefined) return undefined;
    const a = s[key];
    // any array or typed array of numbers: each value is read once below and
    // checked (v.live's rule for the arrays a kernel reads refused an
    // Int16Array as "not a typed array as the engine makes it"; a PnBuffer
    // or a DataView was a RangeError "got object")
    const tag = typedArrayTag(a);
    if (!Array.isArray(a) && (tag === undefined || tag.startsWith('Big'))) {
      // a Proxy of a typed array has its constructor, and is neither
      const posing = tag === undefined ? v.posingTypedArray(a) : undefined;
      throw new TypeError(`posnorm.${fn}: scaling.${key} must be an array or a typed array of dim/2 = ${dim / 2} numbers, got ${posing ? `an object posing as a ${posing} (a Proxy of one?): copy it into a new array first` : v.describe(a)}`);
    }
    if (tag !== undefined && isDetached(a)) throw new TypeError(`posnorm.${fn}: scaling.${key} is a detached typed array; take a fresh view`);
    refuseFreedView(fn, `scaling.${key}`, a);
    if (a.length !== dim / 2) throw new RangeError(`posnorm.${fn}: scaling.${key} must hold dim/2 = ${dim / 2} factors, got ${a.length}`);
    // each value read once and checked as given (a string or a BigInt is
    // not converted); the kernel gets the values checked
    const checked = new Float64Array(dim / 2);
    for (let k = 0; k < checked.length; k++) {
      const x = a[k];
      if (!(typeof x === 'number' && x >= FACTOR_MIN && x <= FACTOR_MAX)) v.num(fn, `scaling.${key}[${k}]`, x, FACTOR_MIN, FACTOR_MAX);
      checked[k] = x;
    }
    return checked;
  };
  return { type: SCALING_TYPES.indexOf(type) + 1, name: type, params, shortFactor: factors('shortFactor'), longFactor: factors('longFactor') };
}

/**
 * The values pn_rope_frequencies_f64 derives from a packed `scaling`
 * (scalingArgs) for frequencies at `seqLen` (dynamic grows its base with
 * it) and requires: the attention factor finite and > 0 (yarn's
 * m(factor, mscale)/m(factor, mscaleAllDim), longrope's sqrt(1 + ln factor
 * / ln originalMaxPositions)) and the base that dynamic grows finite.
 * Computed here in float64 as the kernel does, so the kernel never rejects
 * what passed.
 */
function checkScaling(fn, { name: type, params }, dim, base, seqLen) {
  const factor = params[0], orig = params[1];
  const givenAttentionFactor = !Number.isNaN(params[6]);
  if (type === 'yarn' && !givenAttentionFactor) {
    const mscale = params[4], all = params[5];
    // HF: both given and non-zero, else m(factor, 1) = 0.1·ln factor + 1 >= 1
    if (mscale && all && factor > 1) {
      const m = (k) => 0.1 * k * Math.log(factor) + 1;
      const top = m(mscale), bottom = m(all), af = top / bottom;
      if (!(Math.abs(top) >= MSCALE_EPS && Math.abs(bottom) >= MSCALE_EPS && af > 0 && Number.isFinite(af))) {
        throw new RangeError(`posnorm.${fn}: scaling.mscale (${mscale}) and scaling.mscaleAllDim (${all}) with scaling.factor ${factor} give the attention factor m(factor, mscale)/m(factor, mscaleAllDim) = ${top}/${bottom}, with m(s, k) = 0.1·k·ln s + 1; it must be a finite number > 0, neither m within ${MSCALE_EPS} of 0 (or give scaling.attentionFactor)`);
      }
    }
  }
  if (type === 'longrope' && !givenAttentionFactor && factor > 1 && !(orig >= 2)) {
    throw new RangeError(`posnorm.${fn}: scaling type "longrope" with scaling.factor > 1 (${factor}) needs scaling.originalMaxPositions >= 2 for its attention factor sqrt(1 + ln factor / ln originalMaxPositions) (ln 1 = 0), got ${orig}; or give scaling.attentionFactor`);
  }
  if (type === 'dynamic') {
    const len = Math.max(seqLen, orig);
    const grow = factor * len / orig - (factor - 1); // the kernel's operations, in its order
    const grown = base * Math.exp((dim / (dim - 2)) * Math.log(grow));
    // grow >= 1 keeps the kernel's grown base >= base > 1; below 1 (rounding
    // with a large factor) a margin covers the last bits of exp and log
    const aboveOne = grow >= 1 || grown > 1 + 2 ** -40;
    if (!(grown <= GROWN_BASE_MAX && aboveOne)) {
      throw new RangeError(`posnorm.${fn}: scaling type "dynamic" grows base ${base} by (factor·s/orig − factor + 1)^(dim/(dim − 2)) with scaling.factor ${factor}, s = max(seqLen, scaling.originalMaxPositions) = ${len}, orig = ${orig}, dim ${dim} to ${grown}; the grown base must be a finite number in (1, 2^1023]: lower base or scaling.factor`);
    }
  }
}

/** No arguments written in place (#reserve's default, shared rather than a new [] per call). */
const NONE = Object.freeze([]);

/**
 * Loads posnorm and returns the kernel API.
 * @param {import('./posnorm.d.ts').InitOptions} [options]
 * @returns {Promise<import('./posnorm.d.ts').Posnorm>}
 */
export async function init(options = {}) {
  options = v.options('init', options, ['simd', 'wasm']);
  const want = options.simd ?? 'auto';
  if (!['auto', true, false].includes(want)) {
    throw new TypeError(`posnorm.init: simd must be "auto", true or false, got ${v.describe(want)}`);
  }
  const haveSimd = simdSupported();
  if (want === true && !haveSimd) {
    throw new Error('posnorm.init: simd: true was requested but this engine has no WebAssembly SIMD128');
  }
  const useSimd = want === 'auto' ? haveSimd : want;
  let source = options.wasm ?? defaultWasmUrl(useSimd);
  if (source && typeof source === 'object' && ('simd' in source || 'scalar' in source) && !v.isInstance(source, URL)) {
    source = useSimd ? source.simd : source.scalar;
    if (source === undefined) {
      // (what chose the build: the caller's simd option, or the engine)
      const why = want === 'auto' ? `on this engine (WebAssembly SIMD128 ${haveSimd ? 'validates' : 'does not validate'} here)` : `with simd: ${want}`;
      throw new TypeError(`posnorm.init: wasm.${useSimd ? 'simd' : 'scalar'} is needed ${why}`);
    }
  }
  const module = await compileWasm(source);
  let api = null;
  const exports = await instantiate(module, () => api?._grew());
  // a wasm given for the other build than the one asked for by name (the
  // results are the same bits; the speed and the reported build are not)
  const built = exports.pn_simd_enabled() === 1;
  if (want !== 'auto' && built !== want) {
    throw new TypeError(`posnorm.init: wasm is the ${built ? 'SIMD128' : 'scalar'} build, but simd: ${want} was requested`);
  }
  api = new Posnorm(exports, module);
  return api;
}

/** The kernel API bound to one wasm instance (see posnorm.d.ts). */
export class Posnorm {
  #heap;
  #x;

  constructor(exports, module = null) {
    this.#x = exports;
    this.#heap = new Heap(exports);
    // what figure-kernels.js's methods need of this instance
    internals.set(this, { exports, heap: this.#heap, reserve: (...args) => this.#reserve(...args) });
    /** The WebAssembly.Module this instance runs (null when made from exports alone): init({ wasm: module }) makes another, in a Worker too, without loading it again. */
    this.module = module;
    /** true when this instance runs the SIMD128 build. */
    this.simd = exports.pn_simd_enabled() === 1;
    const ver = exports.pn_version();
    this.version = `${Math.floor(ver / 10000)}.${Math.floor(ver / 100) % 100}.${ver % 100}`;
  }

  /** @internal called by the memory-growth import. */
  _grew() {}

  /** The module's WebAssembly.Memory (its buffer changes when it grows). */
  get memory() {
    inside(this, 'memory');
    return this.#heap.memory;
  }

  /**
   * What this instance holds now: live allocations (buffers not yet freed),
   * their bytes, and the size of the WebAssembly memory (which never shrinks).
   */
  heapStats() {
    inside(this, 'heapStats');
    return this.#heap.stats();
  }

  /** The raw C exports, for callers who manage pointers themselves. */
  get raw() {
    inside(this, 'raw');
    return this.#x;
  }

  /**
   * The last step of every call's validation, before it allocates anything:
   * checks that each PnBuffer argument is this instance's, and that the
   * call's copies (`inputs` not already in this memory), its outputs (`outs`:
   * [out, bytes, name], name 'out' when left out; nothing when the output is
   * used in place) and `extra` bytes
   * (statistics, the kernel's scratch from the "Scratch:" lines of posnorm.h and posnorm_figures.h),
   * added up in float64, fit in the module's 2 GiB; else a RangeError that
   * names `what` (the arguments that set the size).
   */
  #reserve(fn, what, inputs, outs, extra = 0, written = NONE) {
    // indexed loops: this runs before every kernel call, and for-of with
    // destructuring allocated an iterator per loop until V8 optimised it
    // whose a buffer is comes before where it lies: another instance's
    // pointer compared with this memory's would report a false overlap
    for (let k = 0; k < inputs.length; k++) {
      this.#held(fn, inputs[k][0], inputs[k][1]);
      this.#mine(fn, inputs[k][0], inputs[k][1]);
    }
    for (let k = 0; k < outs.length; k++) {
      const name = outs[k][2] ?? 'out';
      this.#held(fn, name, outs[k][0]);
      this.#mine(fn, name, outs[k][0]);
    }
    this.#disjoint(fn, inputs, outs, written);
    let bytes = extra;
    for (let k = 0; k < inputs.length; k++) bytes += this.#heap.copyBytes(inputs[k][1]);
    for (let k = 0; k < outs.length; k++) {
      const out = outs[k][0];
      if (!out || this.#heap.copyBytes(out) > 0) bytes += outs[k][1];
    }
    if (bytes > MEMORY_LIMIT) {
      throw new RangeError(`posnorm.${fn}: not enough WebAssembly memory for ${what}: the call needs ${bytes} bytes (copies, outputs and the kernel's scratch), more than the module's 2 GiB (${MEMORY_LIMIT} bytes)`);
    }
    // and beside what the instance holds now: framed() reserves it (Heap.reserve)
    this.#heap.needed = { bytes, what };
  }

  /**
   * Checks that what the kernel writes (`out`, and the `written` inputs it
   * updates in place) overlaps nothing else in the module's memory, except
   * that `out` may be exactly `x` (in place): a kernel that writes row r
   * where it has yet to read row r + 1 gives wrong rows without a word, and
   * γ or β that are `out` are read after the row is written (a one-row
   * LayerNorm with gamma = x = out was off by 3). Arrays outside the module's
   * memory are copied in before the kernel runs, so only what is copied back
   * out must be disjoint among them (BatchNorm's runningMean and runningVar
   * as one Float32Array: the second copy-back overwrote the first).
   */
  #disjoint(fn, inputs, outs, written) {
    // one array alone overlaps nothing: most calls (a PE table into `out`)
    // end here, before the lists below are built (they were a third of
    // what a precision repaint's 144 calls allocated)
    let present = 0;
    for (let k = 0; k < inputs.length; k++) if (inputs[k][1]) present++;
    for (let k = 0; k < outs.length; k++) if (outs[k][0]) present++;
    if (present < 2) return;
    const memory = this.#heap.memory.buffer;
    /** [buffer, start, end) of the bytes d is, or null. */
    const range = (d) => {
      if (!d || (isPnBuffer(d) && d.freed)) return null;
      if (isPnBuffer(d)) return [memory, d.ptr, d.ptr + d.byteLength];
      if (ArrayBuffer.isView(d)) return [d.buffer, d.byteOffset, d.byteOffset + d.byteLength];
      return null;
    };
    const given = outs.filter(([o]) => o).map(([o, , name = 'out']) => [name, o]);
    const writes = [...given, ...inputs.filter(([n]) => written.includes(n))];
    const all = [...inputs, ...given];
    for (const [wn, w] of writes) {
      const a = range(w);
      if (!a) continue;
      // in the module's memory a write must miss every argument; outside it, every other write
      const against = a[0] === memory ? all : writes;
      for (const [rn, r] of against) {
        const b = rn === wn ? null : range(r);
        if (!b || b[0] !== a[0] || !(a[1] < b[2] && b[1] < a[2])) continue;
        const same = a[1] === b[1] && a[2] === b[2];
        if (same && wn === 'out' && rn === 'x') continue; // in place
        const where = a[0] === memory ? 'in the module\'s memory' : 'in one ArrayBuffer';
        throw new RangeError(`posnorm.${fn}: ${wn} overlaps ${rn} ${where} (bytes [${a[1]}, ${a[2]}) and [${b[1]}, ${b[2]})); what a call writes must be disjoint from its other arguments, or exactly x for in place`);
      }
    }
  }

  /**
   * A typed array that views this module's memory must lie within a live
   * buffer of this instance: a view kept from a buffer that was since freed
   * (taken before free(), so not detached) points into free memory, and
   * writing there overwrites the allocator's own records — a later call then
   * dies with "memory access out of bounds" — or, once alloc() has reused
   * those bytes, another buffer's values. A view that `buf.array` handed
   * out is held to its own buffer (memory.js, refuseFreedView); a view made some
   * other way (a TypedArray subarray of buf.array, or one built over
   * memory.buffer) can only be held to lie within some live buffer.
   */
  #held(fn, name, data) {
    if (!ArrayBuffer.isView(data)) return;
    // a view that buf.array handed out is checked against its own buffer:
    // the bytes of a freed one may since lie within another live buffer
    refuseFreedView(fn, name, data, this.#heap);
    if (data.buffer === this.#heap.memory.buffer) {
      if (!this.#heap.holds(data.byteOffset, data.byteLength)) {
        throw new TypeError(`posnorm.${fn}: ${name} views the module's memory outside every live posnorm buffer (was its buffer freed?); pass a live buffer or a fresh buf.array`);
      }
      return;
    }
    // a view of another instance's memory is copied like any array, unless
    // it was kept from a freed buffer: out's copy back would land in that
    // instance's free memory and break its allocator
    const other = heapOfMemory(data.buffer);
    if (other && !other.holds(data.byteOffset, data.byteLength)) {
      throw new TypeError(`posnorm.${fn}: ${name} views another posnorm instance's memory outside every live buffer of it (was its buffer freed?); pass a live buffer or a fresh buf.array`);
    }
  }

  /** A PnBuffer must be this instance's, and as alloc() made it (v.live checked that first; here for every buffer the call reserves for). */
  #mine(fn, name, data) {
    if (!isPnBuffer(data)) return;
    if (ownerOf(data) !== this.#heap) {
      throw new TypeError(`posnorm.${fn}: ${name} is a buffer of another posnorm instance; a buffer can only be passed to the instance whose alloc() made it`);
    }
    if (!plainBuffer(data)) throw new TypeError(v.bufferShadowed(fn, name));
  }

  /** Allocates a zero-copy buffer of `length` values in the module's memory. */
  alloc(length, type = 'f32') {
    inside(this, 'alloc');
    v.oneOf('alloc', 'type', type, ['f32', 'u32', 'i32', 'u8c']); // f64 is only for the wrapper's own temporaries
    v.int('alloc', 'length', length, 1, v.MAX_ELEMENTS);
    const bytes = length * BUFFER_TYPES[type].BYTES_PER_ELEMENT;
    return newBuffer(this.#heap, this.#heap.alloc(bytes, 'alloc', `a ${type} buffer of ${length} values`), length, type);
  }

  positionalEncoding(opts) {
    const fn = 'positionalEncoding';
    inside(this, fn);
    const o = v.options(fn, opts, ['seqLen', 'dModel', 'base', 'offset', 'layout', 'precision', 'compute', 'out']);
    const seqLen = v.int(fn, 'seqLen', o.seqLen, 1);
    const dModel = v.int(fn, 'dModel', o.dModel, 1);
    const base = v.num(fn, 'base', o.base ?? 10000, 1, Infinity, { minOpen: true });
    const offset = v.int(fn, 'offset', o.offset ?? 0, 0, POS_LIMIT - seqLen);
    const layout = v.oneOf(fn, 'layout', o.layout ?? 'interleaved', LAYOUTS);
    const { precision, compute, dtype } = precisionArgs(fn, o);
    const n = v.total(fn, 'seqLen × dModel', seqLen * dModel);
    const out = outArg(fn, o.out, n);
    this.#reserve(fn, `seqLen ${seqLen} × dModel ${dModel}`, [], [[out, 4 * n]]);
    return framed(this.#heap, fn, (f) => {
      const y = f.output(n, 'f32', out, 'the encoding');
      const lay = LAYOUTS.indexOf(layout);
      if (precision === 'bfloat16' || precision === 'float16') {
        check(fn, this.#x.pn_pe_lowprec_f32(y.ptr, seqLen, dModel, base, offset, lay, dtype, compute));
      } else {
        const kernel = precision === 'float32' ? this.#x.pn_pe_float32_code_f32 : this.#x.pn_pe_sinusoidal_f32;
        check(fn, kernel(y.ptr, seqLen, dModel, base, offset, lay));
      }
      return y.result();
    });
  }

  roundToPrecision(x, opts) {
    const fn = 'roundToPrecision';
    inside(this, fn);
    const o = v.options(fn, opts, ['precision', 'out']);
    v.f32(fn, 'x', x);
    const n = x.length;
    const precision = v.oneOf(fn, 'precision', o.precision, ['bfloat16', 'float16']);
    const out = outArg(fn, o.out, n);
    this.#reserve(fn, `x.length ${n}`, [['x', x]], [[out, 4 * n]]);
    return framed(this.#heap, fn, (f) => {
      const px = f.input(x, 'x');
      const y = f.output(n, 'f32', out, 'y');
      check(fn, this.#x.pn_round_f32(y.ptr, px, n, DTYPES[precision]));
      return y.result();
    });
  }

  peSample(opts) {
    const fn = 'peSample';
    inside(this, fn);
    const o = v.options(fn, opts, ['n', 'dim', 'dModel', 'base', 'start', 'step', 'out']);
    const n = v.int(fn, 'n', o.n, 1);
    const dModel = v.int(fn, 'dModel', o.dModel, 1);
    const dim = v.int(fn, 'dim', o.dim, 0, dModel - 1);
    const base = v.num(fn, 'base', o.base ?? 10000, 1, Infinity, { minOpen: true });
    const start = v.num(fn, 'start', o.start ?? 0, -POS_LIMIT, POS_LIMIT);
    const step = v.num(fn, 'step', o.step ?? 1);
    v.num(fn, 'start + (n - 1) × step', start + (n - 1) * step, -POS_LIMIT, POS_LIMIT);
    const out = outArg(fn, o.out, n);
    this.#reserve(fn, `n ${n}`, [], [[out, 4 * n]]);
    return framed(this.#heap, fn, (f) => {
      const y = f.output(n, 'f32', out, 'the samples');
      check(fn, this.#x.pn_pe_sample_f32(y.ptr, n, start, step, dim, dModel, base));
      return y.result();
    });
  }

  layerNorm(x, opts) {
    const fn = 'layerNorm';
    inside(this, fn);
    const { o, cols, rows, size, gamma, eps, out } = rowNormArgs(fn, x, opts, 1e-5, ['cols', 'gamma', 'beta', 'eps', 'out', 'meanOut', 'invStdDevOut']);
    const beta = optionalF32(fn, 'beta', o.beta, cols);
    const meanOut = outArg(fn, o.meanOut, rows, 'f32', 'meanOut');
    const invOut = outArg(fn, o.invStdDevOut, rows, 'f32', 'invStdDevOut');
    this.#reserve(fn, `x.length ${size}`, [['x', x], ['gamma', gamma], ['beta', beta]],
      [[out, 4 * size], [meanOut, 4 * rows, 'meanOut'], [invOut, 4 * rows, 'invStdDevOut']]);
    return framed(this.#heap, fn, (f) => {
      const px = f.input(x, 'x');
      const pg = f.input(gamma, 'gamma');
      const pb = f.input(beta, 'beta');
      const y = f.output(size, 'f32', out, 'y');
      const mean = f.output(rows, 'f32', meanOut, 'mean');
      const inv = f.output(rows, 'f32', invOut, 'invStdDev');
      check(fn, this.#x.pn_layernorm_f32(y.ptr, mean.ptr, inv.ptr, px, pg, pb, rows, cols, eps));
      return { y: y.result(), mean: mean.result(), invStdDev: inv.result() };
    });
  }

  rmsNorm(x, opts) {
    const fn = 'rmsNorm';
    inside(this, fn);
    const { o, cols, rows, size, gamma, eps, out } = rowNormArgs(fn, x, opts, 1e-6, ['cols', 'gamma', 'eps', 'out', 'invRmsOut']);
    const invOut = outArg(fn, o.invRmsOut, rows, 'f32', 'invRmsOut');
    this.#reserve(fn, `x.length ${size}`, [['x', x], ['gamma', gamma]], [[out, 4 * size], [invOut, 4 * rows, 'invRmsOut']]);
    return framed(this.#heap, fn, (f) => {
      const px = f.input(x, 'x');
      const pg = f.input(gamma, 'gamma');
      const y = f.output(size, 'f32', out, 'y');
      const inv = f.output(rows, 'f32', invOut, 'invRms');
      check(fn, this.#x.pn_rmsnorm_f32(y.ptr, inv.ptr, px, pg, rows, cols, eps));
      return { y: y.result(), invRms: inv.result() };
    });
  }

  batchNorm(x, opts) {
    const fn = 'batchNorm';
    inside(this, fn);
    const o = v.options(fn, opts, ['cols', 'gamma', 'beta', 'eps', 'training', 'runningMean', 'runningVar', 'momentum', 'out']);
    v.f32(fn, 'x', x);
    const size = x.length;
    const cols = v.int(fn, 'cols', o.cols, 1);
    const rows = rowsOf(fn, x, cols);
    const gamma = optionalF32(fn, 'gamma', o.gamma, cols);
    const beta = optionalF32(fn, 'beta', o.beta, cols);
    const eps = v.eps(fn, o.eps ?? 1e-5);
    const training = v.bool(fn, 'training', o.training ?? true);
    const momentum = v.num(fn, 'momentum', o.momentum ?? 0.9, 0, 1);
    const runningMean = optionalF32(fn, 'runningMean', o.runningMean, cols);
    const runningVar = optionalF32(fn, 'runningVar', o.runningVar, cols);
    if ((runningMean === undefined) !== (runningVar === undefined)) {
      throw new TypeError(`posnorm.${fn}: runningMean and runningVar must be given together`);
    }
    if (!training && !runningMean) {
      throw new TypeError(`posnorm.${fn}: training: false needs runningMean and runningVar`);
    }
    const out = outArg(fn, o.out, size);
    const inputs = [['x', x], ['gamma', gamma], ['beta', beta], ['runningMean', runningMean], ['runningVar', runningVar]];
    this.#reserve(fn, `x.length ${size}`, inputs, [[out, 4 * size]], training ? 8 * cols : 0, training ? ['runningMean', 'runningVar'] : []);
    if (!training) {
      // inference returns the running statistics it used: copied now, while
      // every view is attached (the call's allocations may grow the memory)
      // (new Float32Array of a typed array copies its elements: from()
      // called an own Symbol.iterator, the caller's code, after the checks;
      // one that freed a buffer had the kernel write where it no longer was)
      const copy = (a) => new Float32Array(isPnBuffer(a) ? a.array : a);
      const mean = copy(runningMean), variance = copy(runningVar);
      return framed(this.#heap, fn, (f) => {
        const px = f.input(x, 'x');
        const pg = f.input(gamma, 'gamma');
        const pb = f.input(beta, 'beta');
        const y = f.output(size, 'f32', out, 'y');
        const prm = f.input(runningMean, 'runningMean');
        const prv = f.input(runningVar, 'runningVar');
        check(fn, this.#x.pn_batchnorm_infer_f32(y.ptr, px, pg, pb, prm, prv, rows, cols, eps));
        return { y: y.result(), mean, var: variance };
      });
    }
    return framed(this.#heap, fn, (f) => {
      const px = f.input(x, 'x');
      const pg = f.input(gamma, 'gamma');
      const pb = f.input(beta, 'beta');
      const y = f.output(size, 'f32', out, 'y');
      const mean = f.output(cols, 'f32', undefined, 'mean');
      const vr = f.output(cols, 'f32', undefined, 'var');
      // running statistics are read and updated in place
      const none = { ptr: 0, sync() {} };
      const rm = runningMean ? f.inout(runningMean, 'runningMean') : none;
      const rv = runningVar ? f.inout(runningVar, 'runningVar') : none;
      check(fn, this.#x.pn_batchnorm_train_f32(y.ptr, mean.ptr, vr.ptr, rm.ptr, rv.ptr, px, pg, pb, rows, cols, eps, momentum));
      rm.sync();
      rv.sync();
      return { y: y.result(), mean: mean.result(), var: vr.result() };
    });
  }

  rope(x, opts) {
    const fn = 'rope';
    inside(this, fn);
    const o = v.options(fn, opts, ROPE_OPTIONS);
    v.f32(fn, 'x', x);
    const size = x.length;
    const batch = v.int(fn, 'batch', o.batch ?? 1, 1);
    const seqLen = v.int(fn, 'seqLen', o.seqLen, 1);
    const layout = v.oneOf(fn, 'layout', o.layout ?? 'bshd', ROPE_LAYOUTS);
    let heads, headDim;
    if (o.numHeads !== undefined) {
      // ONNX's 3-D input [batch, seq, numHeads·headDim]
      if (o.heads !== undefined) throw new TypeError(`posnorm.${fn}: give heads or numHeads (3-D input), not both`);
      if (layout !== 'bshd') throw new TypeError(`posnorm.${fn}: numHeads describes 3-D input [batch, seqLen, numHeads·headDim], which has layout 'bshd'`);
      heads = v.int(fn, 'numHeads', o.numHeads, 1);
      const hidden = size / (batch * seqLen);
      if (!Number.isInteger(hidden) || hidden % heads) {
        throw new RangeError(`posnorm.${fn}: x.length (${size}) must be batch × seqLen × numHeads × headDim with batch ${batch}, seqLen ${seqLen}, numHeads ${heads}`);
      }
      headDim = v.int(fn, 'headDim', o.headDim ?? hidden / heads, 2);
      if (headDim * heads !== hidden) throw new RangeError(`posnorm.${fn}: headDim must be x.length / (batch × seqLen × numHeads) = ${hidden / heads}, got ${headDim}`);
    } else {
      heads = v.int(fn, 'heads', o.heads, 1);
      headDim = v.int(fn, 'headDim', o.headDim, 2);
    }
    const rotaryDim = v.int(fn, 'rotaryDim', o.rotaryDim ?? headDim - (headDim % 2), 2, headDim);
    if (rotaryDim % 2) throw new RangeError(`posnorm.${fn}: rotaryDim must be even, got ${rotaryDim}`);
    const n = v.total(fn, 'batch × seqLen × heads × headDim', batch * seqLen * heads * headDim);
    const shape = layout === 'bshd' ? 'batch × seqLen × heads × headDim' : 'batch × heads × seqLen × headDim';
    if (size !== n) throw new RangeError(`posnorm.${fn}: x.length must be ${shape} = ${n}, got ${size}`);
    const interleaved = v.bool(fn, 'interleaved', o.interleaved ?? false);
    const half = rotaryDim / 2;
    const tokens = batch * seqLen;
    const cached = o.cosCache !== undefined || o.sinCache !== undefined;
    let cacheRows = 0;
    if (cached) {
      if (o.scaling !== undefined && o.scaling !== null) throw new TypeError(`posnorm.${fn}: scaling computes the angles; it cannot be combined with cosCache/sinCache`);
      if (o.base !== undefined || o.offset !== undefined) throw new TypeError(`posnorm.${fn}: with cosCache/sinCache the angles come from the caches; base and offset are not used`);
      v.f32(fn, 'cosCache', o.cosCache);
      v.f32(fn, 'sinCache', o.sinCache, o.cosCache.length);
    }
    const base = cached ? 10000 : v.num(fn, 'base', o.base ?? 10000, 1, Infinity, { minOpen: true });
    // scaling is read before the position ids: its getters (of the object,
    // of its factor arrays) are the last user code a call runs, and ran
    // after the ids were checked could change them (an Int32Array of ids is
    // used as given, not copied)
    // (the scaled frequencies take a rotary dim of at most 65536, as
    // ropeFrequencies' dim: past it the kernel's refusal named no argument)
    if (o.scaling !== undefined && o.scaling !== null && rotaryDim > 65536) {
      throw new RangeError(`posnorm.${fn}: rotaryDim (headDim ${headDim} unless given) must be at most 65536 with scaling, got ${rotaryDim}`);
    }
    const scaling = o.scaling === undefined || o.scaling === null ? null : scalingArgs(fn, o.scaling, rotaryDim);
    let ids;
    // the highest position in the call + 1: the sequence length that selects
    // dynamic/longrope frequencies, as those models' forward pass
    let top;
    if (o.positionIds !== undefined && o.positionIds !== null) {
      const p = o.positionIds;
      if (v.isRevokedProxy(p) || !(v.isInstance(p, Int32Array) || Array.isArray(p) || (isPnBuffer(p) && p.type === 'i32'))) {
        throw new TypeError(`posnorm.${fn}: positionIds must be an Int32Array, an array of integers or a posnorm i32 buffer, got ${v.describe(p)}`);
      }
      v.live(fn, 'positionIds', p);
      if (p.length !== tokens) throw new RangeError(`posnorm.${fn}: positionIds.length must be batch × seqLen = ${tokens}, got ${p.length}`);
      if (o.offset !== undefined) throw new TypeError(`posnorm.${fn}: give offset or positionIds, not both`);
      if (cached) {
        if (o.cosCache.length % half) throw new RangeError(`posnorm.${fn}: cosCache.length (${o.cosCache.length}) must be maxPosition × rotaryDim/2 (${half}) with positionIds`);
        cacheRows = o.cosCache.length / half;
      }
      // every id is read now, as given (an array's values are not converted
      // first), while every view is attached
      const values = isPnBuffer(p) ? p.array : p;
      const last = cached ? cacheRows - 1 : POS_LIMIT - 1;
      // an array's ids are copied as they are read, once (a getter could
      // give the copy other values than the check)
      const copy = Array.isArray(p) ? new Int32Array(tokens) : null;
      top = 0;
      for (let k = 0; k < tokens; k++) {
        const id = values[k];
        // the error's name is written only for an id that fails (a string
        // per id was most of what a rope call with position ids allocated)
        if (!(typeof id === 'number' && Number.isInteger(id) && id >= 0 && id <= last)) v.int(fn, `positionIds[${k}]`, id, 0, last);
        if (id >= top) top = id + 1;
        if (copy) copy[k] = id;
      }
      ids = copy ?? p;
    } else if (cached) {
      cacheRows = tokens;
      v.f32(fn, 'cosCache', o.cosCache, cacheRows * half);
    }
    const offset = ids || cached ? 0 : v.int(fn, 'offset', o.offset ?? 0, 0, POS_LIMIT - seqLen);
    top ??= offset + seqLen;
    if (scaling) checkScaling(fn, scaling, rotaryDim, base, top);
    const { precision, compute, dtype } = precisionArgs(fn, o);
    const lowPath = precision !== 'float64';
    if (lowPath && (scaling || cached)) {
      throw new TypeError(`posnorm.${fn}: precision '${precision}' computes the default RoPE angles itself; it cannot be combined with ${scaling ? 'scaling' : 'cosCache/sinCache'} (use precision 'float64')`);
    }
    if (lowPath && !(base <= FLOAT32_MAX)) {
      // the float32 and 16-bit forms take base as a float32 scalar (as HF's float32 angles)
      throw new RangeError(`posnorm.${fn}: base must be a finite number in (1, ${FLOAT32_MAX}] (the largest float32) with precision '${precision}', got ${base}`);
    }
    const out = outArg(fn, o.out, n);
    const inputs = [['x', x], ['positionIds', ids], ['cosCache', cached ? o.cosCache : undefined], ['sinCache', cached ? o.sinCache : undefined]];
    // scratch (posnorm.h): the scaled kernel's cos/sin of every token, or
    // pn_rope_f32's table (one row, the float64 frequencies and their
    // double-double rests with position ids); the frequencies' temps (and
    // their rests, 8·half bytes, with scaling)
    const scratch = scaling ? 8 * tokens * half + freqBytes(rotaryDim, scaling) + 8 * half : cached || lowPath ? 0 : 8 * (ids ? 3 : seqLen) * half;
    this.#reserve(fn, `${shape} = ${n} with rotaryDim ${rotaryDim}`, inputs, [[out, 4 * n]], scratch);
    return framed(this.#heap, fn, (f) => {
      const px = f.input(x, 'x');
      const pids = f.input(ids, 'positionIds');
      const y = f.output(n, 'f32', out, 'y');
      const lay = ROPE_LAYOUTS.indexOf(layout);
      if (lowPath) {
        check(fn, this.#x.pn_rope_lowprec_f32(y.ptr, px, pids, batch, seqLen, heads, headDim, rotaryDim, base, offset, interleaved ? 1 : 0, lay, dtype, compute));
      } else if (scaling) {
        // where an angle reaches 2^20, the frequencies with their
        // double-double rests and the kernel that takes them; below, the
        // two kernels give the same bits and the rests are not computed
        // (but for narrow ramps and bands, below).
        // Positions from 2^20 on take them at once (every w_i of none and
        // of factors >= 1 is at most 1), others once the largest w_i is known.
        // yarn without truncate and llama3 always: a ramp or band narrow
        // against its float64 ends' rounding leaves the float64 w_i many
        // ulps off (or tiny or negative), and the kernel then takes the rest
        // at every angle (one past 2^-44·max(|w_i|, 2^-11); others keep their bits)
        const narrow = scaling.name === 'llama3' || (scaling.name === 'yarn' && scaling.params[9] === 0);
        const lo = narrow || top - 1 >= 2 ** 20 ? f.output(half, 'f64', undefined, 'the frequencies\' rests') : null;
        const { inv, af, args } = this.#frequencies(f, fn, rotaryDim, base, scaling, top, lo);
        const rest = [batch, seqLen, heads, headDim, rotaryDim, offset, interleaved ? 1 : 0, lay];
        if (lo) {
          check(fn, this.#x.pn_rope_scaled_dd_f32(y.ptr, px, pids, inv.ptr, lo.ptr, af.result()[0], ...rest), 8 * tokens * half);
        } else {
          const w = this.#heap.view(Float64Array, inv.ptr, half);
          let wMax = 0;
          for (let k = 0; k < half; k++) wMax = Math.max(wMax, Math.abs(w[k]));
          if ((top - 1) * wMax < 2 ** 20) {
            check(fn, this.#x.pn_rope_scaled_f32(y.ptr, px, pids, inv.ptr, af.result()[0], ...rest), 8 * tokens * half);
          } else {
            const lo2 = f.output(half, 'f64', undefined, 'the frequencies\' rests');
            check(fn, this.#x.pn_rope_frequencies_dd_f64(inv.ptr, lo2.ptr, af.ptr, ...args));
            check(fn, this.#x.pn_rope_scaled_dd_f32(y.ptr, px, pids, inv.ptr, lo2.ptr, af.result()[0], ...rest), 8 * tokens * half);
          }
        }
      } else if (cached) {
        const pc = f.input(o.cosCache, 'cosCache'), ps = f.input(o.sinCache, 'sinCache');
        check(fn, this.#x.pn_rope_cache_f32(y.ptr, px, pc, ps, pids, cacheRows, batch, seqLen, heads, headDim, rotaryDim, interleaved ? 1 : 0, lay));
      } else {
        check(fn, this.#x.pn_rope_f32(y.ptr, px, pids, batch, seqLen, heads, headDim, rotaryDim, base, offset, interleaved ? 1 : 0, lay), scratch);
      }
      return y.result();
    });
  }

  /**
   * Replaced by posnorm.js (the package's entry), which adds the config
   * reader; an instance used through posnorm-core.js alone (a figure's
   * `pn`, when the page never imports 'posnorm') says where it is.
   */
  ropeFromConfig() {
    inside(this, 'ropeFromConfig');
    throw new Error('posnorm.ropeFromConfig: this comes with the package entry (import \'posnorm\', src/js/posnorm.js); the figures load posnorm-core.js without it');
  }

  ropeFrequencies(opts) {
    const fn = 'ropeFrequencies';
    inside(this, fn);
    const o = v.options(fn, opts, ['dim', 'base', 'scaling', 'seqLen']);
    const dim = v.int(fn, 'dim', o.dim, 2, 65536);
    if (dim % 2) throw new RangeError(`posnorm.${fn}: dim must be even, got ${dim}`);
    const base = v.num(fn, 'base', o.base ?? 10000, 1, Infinity, { minOpen: true });
    const seqLen = v.int(fn, 'seqLen', o.seqLen ?? 0, 0, POS_LIMIT);
    const scaling = scalingArgs(fn, o.scaling, dim);
    checkScaling(fn, scaling, dim, base, seqLen);
    // (its frequencies, the factor arrays' float64 copies: up to 1.5 MiB, reserved as every call's are)
    this.#heap.needed = { bytes: freqBytes(dim, scaling), what: `dim ${dim}` };
    return framed(this.#heap, fn, (f) => {
      const { inv, af } = this.#frequencies(f, fn, dim, base, scaling, seqLen);
      return { invFreq: Float32Array.from(inv.result()), attentionFactor: af.result()[0] };
    });
  }

  /**
   * Runs pn_rope_frequencies_f64 into frame temporaries, or with `lo` (a
   * frame temporary) pn_rope_frequencies_dd_f64, the rests into it; `args`
   * are the arguments after the outputs.
   */
  #frequencies(f, fn, dim, base, scaling, seqLen, lo = null) {
    const inv = f.output(dim / 2, 'f64', undefined, 'the frequencies');
    const af = f.output(1, 'f64', undefined, 'the attention factor');
    const params = f.input(scaling.params, 'scaling');
    const short = f.input(scaling.shortFactor, 'scaling.shortFactor');
    const long = f.input(scaling.longFactor, 'scaling.longFactor');
    const args = [dim, base, scaling.type, params, short, long, seqLen];
    check(fn, lo
      ? this.#x.pn_rope_frequencies_dd_f64(inv.ptr, lo.ptr, af.ptr, ...args)
      : this.#x.pn_rope_frequencies_f64(inv.ptr, af.ptr, ...args));
    return { inv, af, args };
  }

  alibiSlopes(heads) {
    const fn = 'alibiSlopes';
    inside(this, fn);
    v.int(fn, 'heads', heads, 1, 65536);
    return framed(this.#heap, fn, (f) => {
      const y = f.output(heads, 'f32', undefined, 'slopes');
      check(fn, this.#x.pn_alibi_slopes_f32(y.ptr, heads));
      return y.result();
    });
  }

  alibi(opts) {
    const fn = 'alibi';
    inside(this, fn);
    const o = v.options(fn, opts, ['heads', 'seqLen', 'out']);
    const heads = v.int(fn, 'heads', o.heads, 1, 65536);
    const seqLen = v.int(fn, 'seqLen', o.seqLen, 1, 16384);
    const n = v.total(fn, 'heads × seqLen × seqLen', heads * seqLen * seqLen);
    const out = outArg(fn, o.out, n);
    this.#reserve(fn, `heads ${heads} × seqLen ${seqLen} × seqLen ${seqLen}`, [], [[out, 4 * n]]);
    return framed(this.#heap, fn, (f) => {
      const y = f.output(n, 'f32', out, 'the bias');
      check(fn, this.#x.pn_alibi_bias_f32(y.ptr, heads, seqLen));
      return y.result();
    });
  }

  randomNormal(n, opts) {
    const fn = 'randomNormal';
    inside(this, fn);
    v.int(fn, 'n', n, 1);
    const o = v.options(fn, opts, ['mean', 'std', 'seed', 'out']);
    // the samples are float32: a mean or std past its range made every one ±Infinity
    const mean = v.num(fn, 'mean', o.mean ?? 0, -v.F32_MAX, v.F32_MAX);
    const std = v.num(fn, 'std', o.std ?? 1, 0, v.F32_MAX);
    const seed = v.int(fn, 'seed', o.seed ?? 0, 0, 2 ** 32 - 1);
    const out = outArg(fn, o.out, n);
    this.#reserve(fn, `n ${n}`, [], [[out, 4 * n]]);
    return framed(this.#heap, fn, (f) => {
      const y = f.output(n, 'f32', out, 'the samples');
      check(fn, this.#x.pn_random_normal_f32(y.ptr, n, seed, mean, std));
      return y.result();
    });
  }

  histogram(x, opts) {
    const fn = 'histogram';
    inside(this, fn);
    const o = v.options(fn, opts, ['bins', 'min', 'max']);
    v.f32(fn, 'x', x);
    const size = x.length;
    const bins = v.int(fn, 'bins', o.bins, 1, 65536);
    let { min, max } = o;
    // a bound the caller gives is checked and kept, never moved: with one
    // given, the other is the data's, and must lie beyond it
    if (min !== undefined) v.num(fn, 'min', min, -v.F32_MAX, v.F32_MAX);
    if (max !== undefined) v.num(fn, 'max', max, -v.F32_MAX, v.F32_MAX);
    const r = min === undefined || max === undefined ? finiteRange(isPnBuffer(x) ? x.array : x) : null;
    if (min === undefined && max === undefined) {
      ({ min, max } = r);
      if (min === max) {
        // one value: a range around it that float32 can tell apart from it
        // (min ± 0.5 rounds back to min above 2^24), within the float32 range
        const d = Math.max(0.5, Math.abs(min) * 2 ** -20);
        min = Math.max(min - d, -v.F32_MAX);
        max = Math.min(max + d, v.F32_MAX);
      }
    } else if (r) {
      const given = min === undefined ? 'max' : 'min', other = min === undefined ? 'min' : 'max';
      min ??= r.min;
      max ??= r.max;
      if (!(Math.fround(min) < Math.fround(max))) {
        const from = r.none ? `its default where x has no finite value, ${other === 'min' ? 0 : 1},` : `x's ${other === 'min' ? 'smallest' : 'largest'} finite value, ${other === 'min' ? min : max},`;
        throw new RangeError(`posnorm.${fn}: ${other} was not given, and ${from} is not ${other === 'min' ? 'less' : 'greater'} than ${given} ${given === 'min' ? min : max} as float32 values; give ${other} as well`);
      }
    }
    lessAsFloat32(fn, 'min', min, 'max', max);
    this.#reserve(fn, `x.length ${size}, bins ${bins}`, [['x', x]], [], 4 * bins + 12);
    return framed(this.#heap, fn, (f) => {
      const px = f.input(x, 'x');
      const counts = f.output(bins, 'u32', undefined, 'counts');
      const extra = f.output(3, 'u32', undefined, 'below/above/nan');
      check(fn, this.#x.pn_histogram_f32(counts.ptr, extra.ptr, px, size, bins, min, max));
      const [below, above, nan] = extra.result();
      return { counts: counts.result(), below, above, nan, min: Math.fround(min), max: Math.fround(max) };
    });
  }

  colormap(x, opts) {
    const fn = 'colormap';
    inside(this, fn);
    const o = v.options(fn, opts, ['map', 'vmin', 'vmax', 'out']);
    v.f32(fn, 'x', x);
    const size = x.length;
    const map = v.oneOf(fn, 'map', o.map ?? 'diverging', COLORMAPS);
    const vmin = v.num(fn, 'vmin', o.vmin ?? (map === 'diverging' ? -1 : 0), -v.F32_MAX, v.F32_MAX);
    const vmax = v.num(fn, 'vmax', o.vmax ?? 1, -v.F32_MAX, v.F32_MAX);
    lessAsFloat32(fn, 'vmin', vmin, 'vmax', vmax);
    const out = outArg(fn, o.out, size * 4, 'u8c');
    this.#reserve(fn, `x.length ${size}`, [['x', x]], [[out, 4 * size]]);
    return framed(this.#heap, fn, (f) => {
      const px = f.input(x, 'x');
      const y = f.output(size * 4, 'u8c', out, 'the pixels');
      check(fn, this.#x.pn_colormap_rgba8(y.ptr, px, size, vmin, vmax, COLORMAPS.indexOf(map)));
      return y.result();
    });
  }

  colormapTable(map = 'diverging') {
    const fn = 'colormapTable';
    inside(this, fn);
    v.oneOf(fn, 'map', map, COLORMAPS);
    return framed(this.#heap, fn, (f) => {
      const y = f.output(1024, 'u8c', undefined, 'the table');
      check(fn, this.#x.pn_colormap_lut_rgba8(y.ptr, COLORMAPS.indexOf(map)));
      return y.result();
    });
  }

  attention(x, opts) {
    const fn = 'attention';
    inside(this, fn);
    const o = v.options(fn, opts, ['dModel', 'dHead', 'wq', 'wk', 'wv']);
    v.f32(fn, 'x', x);
    const dModel = v.int(fn, 'dModel', o.dModel, 1, 4096);
    const dHead = v.int(fn, 'dHead', o.dHead ?? dModel, 1, 4096);
    const seqLen = rowsOf(fn, x, dModel);
    v.int(fn, 'x.length / dModel', seqLen, 1, 4096);
    v.work(fn, `seqLen × dHead × (3·dModel + 2·seqLen) = ${seqLen} × ${dHead} × ${3 * dModel + 2 * seqLen}`, seqLen * dHead * (3 * dModel + 2 * seqLen));
    const names = ['wq', 'wk', 'wv'];
    const ws = names.map((name) => v.f32(fn, name, o[name], dModel * dHead));
    // scratch (posnorm_figures.h): 24·seq_len·d_head + 8·seq_len + 8·seq_len·d_model
    const scratch = 24 * seqLen * dHead + 8 * seqLen + 8 * seqLen * dModel;
    this.#reserve(fn, `seqLen ${seqLen}, dModel ${dModel}, dHead ${dHead}`, [['x', x], ...ws.map((w, k) => [names[k], w])], [],
      4 * seqLen * dHead + 4 * seqLen * seqLen + scratch);
    return framed(this.#heap, fn, (f) => {
      const px = f.input(x, 'x');
      const [pq, pk, pv] = ws.map((w, k) => f.input(w, names[k]));
      const y = f.output(seqLen * dHead, 'f32', undefined, 'out');
      const a = f.output(seqLen * seqLen, 'f32', undefined, 'weights');
      check(fn, this.#x.pn_attention_f32(y.ptr, a.ptr, px, pq, pk, pv, seqLen, dModel, dHead), scratch);
      return { out: y.result(), weights: a.result() };
    });
  }

  gram(x, opts) {
    const fn = 'gram';
    inside(this, fn);
    const { cols: colsOption } = v.options(fn, opts, ['cols']);
    v.f32(fn, 'x', x);
    const cols = v.int(fn, 'cols', colsOption, 1);
    const rows = v.int(fn, 'x.length / cols', rowsOf(fn, x, cols), 1, 8192);
    v.total(fn, 'rows × rows', rows * rows);
    v.work(fn, `rows·(rows + 1)/2 × cols = ${(rows * (rows + 1)) / 2} × ${cols}`, ((rows * (rows + 1)) / 2) * cols);
    this.#reserve(fn, `rows ${rows} × cols ${cols}`, [['x', x]], [], 4 * rows * rows);
    return framed(this.#heap, fn, (f) => {
      const px = f.input(x, 'x');
      const y = f.output(rows * rows, 'f32', undefined, 'the products');
      check(fn, this.#x.pn_gram_f32(y.ptr, px, rows, cols));
      return y.result();
    });
  }

  minRowDistance(x, opts) {
    const fn = 'minRowDistance';
    inside(this, fn);
    const { cols: colsOption } = v.options(fn, opts, ['cols']);
    v.f32(fn, 'x', x);
    const cols = v.int(fn, 'cols', colsOption, 1);
    const rows = v.int(fn, 'x.length / cols', rowsOf(fn, x, cols), 2, 8192);
    v.work(fn, `rows·(rows − 1)/2 × cols = ${(rows * (rows - 1)) / 2} × ${cols}`, ((rows * (rows - 1)) / 2) * cols);
    this.#reserve(fn, `rows ${rows} × cols ${cols}`, [['x', x]], [], 12);
    return framed(this.#heap, fn, (f) => {
      const px = f.input(x, 'x');
      const d = f.output(1, 'f32', undefined, 'distance');
      const p = f.output(2, 'i32', undefined, 'pair');
      check(fn, this.#x.pn_min_row_distance_f32(d.ptr, p.ptr, px, rows, cols));
      const [i, j] = p.result();
      return { distance: d.result()[0], i, j };
    });
  }

  peShift(peRow, opts) {
    const fn = 'peShift';
    inside(this, fn);
    const o = v.options(fn, opts, ['k', 'base']);
    v.f32(fn, 'peRow', peRow);
    const dModel = peRow.length;
    if (dModel % 2) throw new RangeError(`posnorm.${fn}: peRow.length (dModel) must be even, got ${dModel}`);
    const k = v.int(fn, 'k', o.k, -(POS_LIMIT - 1), POS_LIMIT - 1);
    const base = v.num(fn, 'base', o.base ?? 10000, 1, Infinity, { minOpen: true });
    this.#reserve(fn, `peRow.length ${dModel}`, [['peRow', peRow]], [], 4 * dModel);
    return framed(this.#heap, fn, (f) => {
      const px = f.input(peRow, 'peRow');
      const y = f.output(dModel, 'f32', undefined, 'the shifted row');
      check(fn, this.#x.pn_pe_shift_f32(y.ptr, px, dModel, base, k));
      return y.result();
    });
  }
}

/** Bytes of pn_rope_frequencies_f64's temporaries: the frequencies, the factor, params and the longrope factors. */
function freqBytes(dim, scaling) {
  return 8 * (dim / 2) + 8 + 80 + (scaling.shortFactor ? 8 * (dim / 2) : 0) + (scaling.longFactor ? 8 * (dim / 2) : 0);
}

/**
 * Checks lo < hi as the float32 values the kernel takes: two numbers in
 * order that round to the same float32 (16777216 and 16777217, 1e-45 and
 * 2e-45) are refused with both roundings shown (the message said "min must
 * be less than max, got min 16777216, max 16777217").
 */
function lessAsFloat32(fn, loName, lo, hiName, hi) {
  if (Math.fround(lo) < Math.fround(hi)) return;
  const rounded = lo < hi ? `, both ${Math.fround(lo)} as float32, which the kernel takes them as` : '';
  throw new RangeError(`posnorm.${fn}: ${loName} must be less than ${hiName} as float32 values, got ${loName} ${lo}, ${hiName} ${hi}${rounded}`);
}

function finiteRange(a) {
  let min = Infinity;
  let max = -Infinity;
  for (let k = 0; k < a.length; k++) {
    const t = a[k];
    if (!Number.isFinite(t)) continue; // ±Inf are counted below/above, not ranged over
    if (t < min) min = t;
    if (t > max) max = t;
  }
  if (min === Infinity) return { min: 0, max: 1, none: true };
  return { min, max };
}
