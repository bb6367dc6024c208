// memory.js — wasm memory ownership: zero-copy buffers and per-call frames.

import { receiverKind } from './internals.js';

/** Typed-array constructor for each buffer type. */
export const BUFFER_TYPES = Object.freeze({
  f32: Float32Array,
  u32: Uint32Array,
  i32: Int32Array,
  u8c: Uint8ClampedArray,
  f64: Float64Array,
});

/**
 * The built-in getters every typed array inherits: what they say cannot be
 * changed by a subclass, an own property or a Proxy (on which they throw,
 * or give undefined for the tag).
 */
const TYPED_ARRAY = Object.getPrototypeOf(Uint8Array.prototype);
const TA_LENGTH = Object.getOwnPropertyDescriptor(TYPED_ARRAY, 'length').get;
const TA_TAG = Object.getOwnPropertyDescriptor(TYPED_ARRAY, Symbol.toStringTag).get;

/** The kind of typed array `v` is ('Float32Array', 'Int16Array', …) by its built-in tag, or undefined (also for a Proxy of one). */
export function typedArrayTag(v) {
  return v !== null && typeof v === 'object' ? TA_TAG.call(v) : undefined;
}

/**
 * The number of values PnBuffer.set reads from `source`, read once: a typed
 * array's own (TypedArray.prototype.set copies that many, whatever its
 * length property says), else its length property; undefined for what has
 * none. A BigInt typed array, and a length that cannot be read (a Proxy of
 * a typed array), are TypeErrors naming source.
 */
function lengthOf(source) {
  if (source === null || typeof source !== 'object') return undefined;
  const tag = TA_TAG.call(source);
  if (tag === 'BigInt64Array' || tag === 'BigUint64Array') {
    throw new TypeError(`posnorm.PnBuffer.set: source must hold numbers, got a ${tag}; convert its values with Number() first`);
  }
  if (tag !== undefined) return TA_LENGTH.call(source);
  try {
    return source.length;
  } catch (e) {
    throw new TypeError(`posnorm.PnBuffer.set: source must be an array or a typed array, and its length could not be read (${e?.message}); a Proxy of a typed array is neither: copy it into a new typed array first`, { cause: e });
  }
}

/** The heap each PnBuffer belongs to (buffers cannot cross instances). */
const owners = new WeakMap();

/**
 * Whether `v` is a PnBuffer made by alloc() or subarray(): not an object
 * that says `isPnBuffer: true`, nor one that inherits from a buffer
 * (Object.create(buf)), whose calls would reach no private field and fail
 * with an engine error naming no argument.
 */
export function isPnBuffer(v) {
  return owners.has(v);
}

/**
 * The buffer each view handed out by `buf.array` (or returned by a call in
 * its place) was made for. A view kept from a freed buffer still lies in
 * the module's memory, and once alloc() has given those bytes to another
 * buffer it lies within a live buffer too: only this record tells the call
 * that it is stale. It also keeps the buffer alive while its view lives, so
 * the garbage-collection safety net below cannot free memory under a view.
 */
const viewOwners = new WeakMap();

/** The PnBuffer whose `array` `view` is (undefined for a view made some other way). */
function viewOwner(view) {
  return viewOwners.get(view);
}

/**
 * Throws when `v` is a view that `buf.array` handed out for a buffer freed
 * since: a call that reads or writes it would take another buffer's values
 * once alloc() reused the bytes. `heap`, where given, is the calling
 * instance's: a buffer of another instance is named as one.
 */
export function refuseFreedView(fn, name, v, heap) {
  const owner = ArrayBuffer.isView(v) ? viewOwners.get(v) : undefined;
  if (owner !== undefined && owner.freed) {
    const whose = heap === undefined || owners.get(owner) === heap ? 'a posnorm buffer' : 'another posnorm instance\'s buffer';
    throw new TypeError(`posnorm.${fn}: ${name} views ${whose} that was freed (a view kept from buf.array; its bytes may belong to another buffer now); pass a live buffer or a fresh buf.array`);
  }
}

/** Records `view` as a view of `buf` (a fresh view returned in place of buf's). */
export function noteViewOwner(view, buf) {
  if (buf !== undefined) viewOwners.set(view, buf);
  return view;
}

/**
 * Frees the memory of buffers that were garbage-collected without free():
 * a safety net, not the way to manage memory (collection may come late, or
 * never before the page closes).
 */
const leaked = typeof FinalizationRegistry === 'function'
  ? new FinalizationRegistry(({ heap, ptr }) => heap.free(ptr))
  : null;

const DISPOSE = Symbol.dispose ?? Symbol.for('Symbol.dispose');

/**
 * byteOffset and length of every typed array argument, noted when it is
 * validated: a view of the module's memory may be detached by a temp the
 * call allocates before the kernel runs, and a detached view reports offset
 * 0; any other view must still hold what was checked when it is copied
 * (Frame.input), since an option's getter or another thread may have
 * resized or detached it in between.
 */
const noted = new WeakMap();

/** Notes `view`'s byteOffset and length (call while it is known not to be detached). */
export function noteOffset(view) {
  if (ArrayBuffer.isView(view)) noted.set(view, { offset: view.byteOffset, length: view.length });
}

/**
 * The typed arrays the API takes, by prototype (validate.js accepts no
 * other): copies and views of an argument are made with these constructors,
 * never with what the argument says its constructor or species is.
 */
export const BUILT_IN = new Map([Float32Array, Float64Array, Int32Array, Uint32Array, Uint8Array, Uint8ClampedArray].map((T) => [T.prototype, T]));

/** Whether `view` is a typed array whose ArrayBuffer was detached (e.g. by memory growth). */
export function isDetached(view) {
  if (!ArrayBuffer.isView(view) || view.buffer.byteLength !== 0) return false;
  if (typeof view.buffer.detached === 'boolean') return view.buffer.detached;
  try {
    new Uint8Array(view.buffer); // throws on a detached buffer
    return false;
  } catch {
    return true;
  }
}

/**
 * Every allocation starts on a 64-byte boundary (a cache line): malloc
 * alone gives 8, and a v128 load or store at 8 mod 16 straddles a line one
 * time in four, which cost the kernels 10–20 % at 4096×4096 on this
 * project's machines (docs/decisions.md, "Aligned buffers"). The heap asks
 * malloc for 63 bytes more and starts the buffer at the first multiple of
 * 64 inside; emmalloc's own aligned_alloc could not be used: it refuses
 * sizes that are not multiples of the alignment, and a 1 GiB request near
 * the end of the 2 GiB memory failed for the padding it had not claimed.
 */
export const ALIGNMENT = 64;

/**
 * Every heap of this realm, weakly: a view of one instance's memory passed
 * to another is copied like any array, but one kept from a freed buffer
 * would be written into its own instance's free memory (heapOfMemory).
 */
const heaps = new Set();

/** The live heap whose memory's buffer is `buffer`, or undefined. */
export function heapOfMemory(buffer) {
  for (const ref of heaps) {
    const heap = ref.deref();
    if (!heap) heaps.delete(ref);
    else if (heap.memory.buffer === buffer) return heap;
  }
  return undefined;
}

/** The wasm heap: memory plus the module's malloc/free. */
export class Heap {
  constructor(exports) {
    this.memory = exports.memory;
    this.exports = exports;
    heaps.add(new WeakRef(this));
    /** aligned pointer → bytes of every allocation not yet freed. */
    this.live = new Map();
    /** aligned pointer → the pointer malloc returned for it. */
    this.raw = new Map();
    /** Where the heap starts (below it: the module's data and stack), from a first malloc. */
    const first = exports.malloc(1);
    exports.free(first);
    this.heapStart = first;
  }

  /** Allocates `bytes` at a multiple of ALIGNMENT or throws a RangeError naming the call. */
  alloc(bytes, fn, what) {
    const raw = bytes > 0x7fff0000 ? 0 : this.exports.malloc(Math.max(bytes, 1) + ALIGNMENT - 1);
    if (!raw) {
      throw new RangeError(
        `posnorm.${fn}: not enough WebAssembly memory for ${what} (${bytes} bytes; the module's memory is limited to 2 GiB)`);
    }
    const ptr = Math.ceil(raw / ALIGNMENT) * ALIGNMENT;
    this.live.set(ptr, bytes);
    this.raw.set(ptr, raw);
    return ptr;
  }

  /**
   * Makes sure a call can allocate `bytes` (its copies, outputs and the
   * kernel's scratch, in a dozen allocations at most) without the memory
   * running out part-way, where the memory would have grown for the first
   * allocations (detaching every view of it) before a later one failed.
   * Far from the 2 GiB limit growing cannot fail, and nothing is done.
   * Near it:
   *   - more than the limit less what the buffers held take (and the
   *     module's data and stack, below heapStart) can never fit: a
   *     RangeError naming the call, with nothing allocated and the memory as
   *     it was (a call within 4 KiB of fitting counts as not fitting: the
   *     slack for its allocations' padding);
   *   - else one malloc of it all, freed at once: then the call's
   *     allocations fit (where that block was, or in holes);
   *   - if that one block cannot be had, the free memory is in pieces
   *     (buffers freed between others): the call goes ahead, and its
   *     allocations may fit the pieces; only there can a call still grow the
   *     memory and then fail, when the pieces are too small for them too.
   */
  reserve(bytes, limit, fn, what) {
    const slack = 64 * ALIGNMENT; // each allocation's alignment padding and malloc's header
    if (bytes <= 0 || this.memory.buffer.byteLength + bytes + slack <= limit) return;
    const { bytes: held, allocations } = this.stats();
    // what the buffers take of the memory: each is malloc'd ALIGNMENT − 1
    // bytes longer, behind a header of malloc's own (16 bytes, counted
    // high): counted by their sizes alone, 1000 small buffers hid 79 KB and
    // a call the free memory (in one piece) could not hold went ahead, grew
    // the memory and failed
    const taken = held + allocations * (ALIGNMENT - 1 + 16);
    if (bytes + slack > limit - taken - this.heapStart) {
      throw new RangeError(`posnorm.${fn}: not enough WebAssembly memory for ${what}: the call needs ${bytes} bytes (copies, outputs and the kernel's scratch) beside the ${held} bytes of buffers this instance holds, and the module's memory is limited to 2 GiB; free buffers that are no longer needed`);
    }
    const raw = this.exports.malloc(bytes + slack);
    if (raw) this.exports.free(raw);
  }

  free(ptr) {
    const raw = this.raw.get(ptr);
    this.live.delete(ptr);
    this.raw.delete(ptr);
    if (raw !== undefined) this.exports.free(raw);
  }

  /**
   * Bytes a call must allocate to copy `data` into this memory: 0 for a
   * PnBuffer or a view of this memory (used in place), else its byteLength.
   * Read during validation, before the call allocates anything.
   */
  copyBytes(data) {
    if (data === undefined || data === null || isPnBuffer(data)) return 0;
    if (ArrayBuffer.isView(data) && data.buffer === this.memory.buffer) return 0;
    return data.byteLength ?? 0;
  }

  /** Whether bytes [start, start + length) lie within one live allocation. */
  holds(start, length) {
    for (const [ptr, bytes] of this.live) {
      if (start >= ptr && start + length <= ptr + Math.max(bytes, 1)) return true;
    }
    return false;
  }

  /** What is allocated now: count, bytes, and the size of the memory. */
  stats() {
    let bytes = 0;
    for (const b of this.live.values()) bytes += b;
    return { allocations: this.live.size, bytes, memoryBytes: this.memory.buffer.byteLength };
  }

  view(Type, ptr, length) {
    return new Type(this.memory.buffer, ptr, length);
  }
}

/**
 * What the calls read from a buffer argument, through its getters: a
 * property of the buffer's own by one of these names, or another
 * prototype, would stand in for them (an own `length` of 36 on a buffer of
 * 4 had layerNorm write past it). plainBuffer() tells.
 */
const READ_BY_CALLS = ['ptr', 'length', 'byteLength', 'type', 'freed', 'array'];

/**
 * Whether the buffer `buf` (isPnBuffer) is as alloc() or subarray() made
 * it: PnBuffer's prototype, and none of READ_BY_CALLS its own. Other own
 * properties (a test's spy on `free`) do not matter. No code of `buf`
 * runs: a buffer is never a Proxy.
 */
export function plainBuffer(buf) {
  if (Object.getPrototypeOf(buf) !== PnBuffer.prototype) return false;
  for (let k = 0; k < READ_BY_CALLS.length; k++) if (Object.hasOwn(buf, READ_BY_CALLS[k])) return false;
  return true;
}

/** What PnBuffer's constructor asks for, which only this module has (newBuffer). */
const MADE_HERE = Symbol('posnorm buffer');

/** A new buffer of `length` values of `type` at `ptr` of `heap` (Posnorm.alloc). */
export function newBuffer(heap, ptr, length, type) {
  return new PnBuffer(MADE_HERE, heap, ptr, length, type);
}

/**
 * A typed array that lives in the module's memory, so kernels read and write
 * it without copies. `array` is a view that is re-created, once, after the
 * memory grows (growth detaches the old ArrayBuffer): read `buf.array` again
 * after any posnorm call rather than keeping the view. Call `free()` when
 * done; a freed buffer throws on use.
 */
export class PnBuffer {
  #heap;
  #ptr;
  #length;
  #type;
  #view = null;
  #parent = null;

  /**
   * @internal use Posnorm.alloc() or buf.subarray(). The class is exported
   * for `instanceof`; `new PnBuffer()` from outside (or
   * `new buf.constructor()`) is a TypeError before anything is recorded:
   * such an object had no memory, yet passed every check of a buffer, and
   * the FinalizationRegistry's clean-up of it threw (exit code 1).
   */
  constructor(token, heap, ptr, length, type, parent = null) {
    if (token !== MADE_HERE) throw new TypeError('posnorm.PnBuffer: a buffer comes from pn.alloc() or buf.subarray(), not from new');
    this.#heap = heap;
    this.#ptr = ptr;
    this.#length = length;
    this.#type = type;
    this.#parent = parent;
    owners.set(this, heap);
    if (!parent) leaked?.register(this, { heap, ptr }, this);
  }

  get isPnBuffer() { return true; }
  /** Byte offset of the data in the module's memory. */
  get ptr() { PnBuffer.#live(this, 'ptr'); return this.#ptr; }
  get length() { return PnBuffer.#own(this, 'length').#length; }
  get type() { return PnBuffer.#own(this, 'type').#type; }
  get byteLength() { return PnBuffer.#own(this, 'byteLength').#length * BUFFER_TYPES[this.#type].BYTES_PER_ELEMENT; }
  /** True once the buffer (or, for a subarray, its parent) was freed. */
  get freed() { return PnBuffer.#isFreed(PnBuffer.#own(this, 'freed')); }

  /**
   * A zero-copy view of values [begin, end) of this buffer (negative indices
   * count from the end, as TypedArray.subarray). It shares the memory: it is
   * usable while this buffer lives, and is not freed on its own.
   */
  subarray(begin = 0, end = PnBuffer.#own(this, 'subarray').#length) {
    PnBuffer.#live(this, 'subarray');
    for (const [name, v] of [['begin', begin], ['end', end]]) {
      // Number() of a Symbol was the engine's TypeError, naming neither; a
      // BigInt it took as a number (TypedArray.prototype.subarray refuses it)
      if (typeof v === 'symbol' || typeof v === 'bigint') throw new TypeError(`posnorm.PnBuffer.subarray: ${name} must be a number, got ${typeof v === 'bigint' ? `the BigInt ${v}n` : String(v)}`);
    }
    // (an object that does not convert, Object.create(null), was the engine's TypeError)
    const number = (name, v) => {
      try { return Number(v); } catch { throw new TypeError(`posnorm.PnBuffer.subarray: ${name} must be a number, got an object that does not convert to one`); }
    };
    const bn = number('begin', begin), en = end === undefined ? undefined : number('end', end);
    // a conversion (valueOf) may have freed the buffer
    PnBuffer.#live(this, 'subarray');
    const clamp = (i) => Math.min(this.#length, Math.max(0, i < 0 ? this.#length + i : i));
    const b = clamp(Math.trunc(bn || 0)), e = Math.max(b, clamp(Math.trunc(en === undefined ? this.#length : en || 0)));
    if (e - b < 1) throw new RangeError(`posnorm.PnBuffer.subarray: subarray(${bn}, ${en}) of a buffer of ${this.#length} values is empty`);
    return new PnBuffer(MADE_HERE, this.#heap, this.#ptr + b * BUFFER_TYPES[this.#type].BYTES_PER_ELEMENT, e - b, this.#type, this.#parent ?? this);
  }

  /** The current view (Float32Array, Uint32Array, Int32Array or Uint8ClampedArray). */
  get array() {
    PnBuffer.#live(this, 'array');
    if (!this.#view || this.#view.buffer !== this.#heap.memory.buffer) {
      this.#view = noteViewOwner(this.#heap.view(BUFFER_TYPES[this.#type], this.#ptr, this.#length), this);
    }
    return this.#view;
  }

  /**
   * Copies `source` (an array-like, or another PnBuffer: its values) in at
   * `offset`. Safer than `buf.array.set(f())`, which takes the view before
   * f() runs: if f() makes the memory grow, that view is already detached.
   */
  set(source, offset = 0) {
    PnBuffer.#live(this, 'set');
    if (isPnBuffer(source)) {
      // its values (a PnBuffer has no indexed values of its own: read as an
      // array-like it gave NaN for every one, silently)
      if (source.freed) throw new TypeError('posnorm.PnBuffer.set: source is a PnBuffer that was freed');
      source = source.array;
    } else if (source !== null && typeof source === 'object' && source.isPnBuffer === true) {
      // not one alloc() made (isPnBuffer: true, or Object.create(buf)): it
      // filled the buffer with NaN, or died on a private field
      throw new TypeError('posnorm.PnBuffer.set: source is an object posing as a posnorm buffer (not one that alloc() or subarray() made)');
    }
    refuseFreedView('PnBuffer.set', 'source', source);
    // the length is read once and checked before any value is read:
    // converting an array-like of length 2^32 first made a 16 GiB array and
    // read 2^32 values (the process was killed) before the offset check
    const n = lengthOf(source);
    if (!Number.isInteger(n)) {
      throw new TypeError('posnorm.PnBuffer.set: source must be an array or a typed array');
    }
    if (isDetached(source)) {
      throw new TypeError('posnorm.PnBuffer.set: source is a detached typed array: a view of WebAssembly memory taken before the memory grew (take a fresh view, e.g. buf.array), or of an ArrayBuffer that was transferred (its values are gone: pass a live copy)');
    }
    if (n < 0 || n > this.#length) {
      throw new RangeError(`posnorm.PnBuffer.set: source.length must be an integer in [0, ${this.#length}] (the buffer's length), got ${n}`);
    }
    if (!Number.isInteger(offset) || offset < 0 || offset > this.#length - n) {
      // a number out of range is a RangeError, anything else a TypeError
      throw new (typeof offset === 'number' ? RangeError : TypeError)(`posnorm.PnBuffer.set: offset must be an integer in [0, ${this.#length - n}] for a source of ${n} values in a buffer of ${this.#length}, got ${typeof offset === 'bigint' ? `the BigInt ${offset}n` : typeof offset === 'string' ? JSON.stringify(offset) : offset !== null && (typeof offset === 'object' || typeof offset === 'function') ? `a${typeof offset === 'object' ? 'n' : ''} ${typeof offset}` : String(offset)}`);
    }
    // an array's values are read first (n of them: its length is read once),
    // since reading one may run a getter that grows the memory, and a view
    // taken before would drop the writes
    let values = source;
    if (TA_TAG.call(source) === undefined) {
      values = new BUFFER_TYPES[this.#type](n);
      for (let k = 0; k < n; k++) {
        const value = source[k];
        // a Symbol or a BigInt has no number value: the engine's TypeError named neither source nor the index
        if (typeof value === 'symbol' || typeof value === 'bigint') {
          throw new TypeError(`posnorm.PnBuffer.set: source[${k}] must be a number, got ${typeof value === 'bigint' ? `the BigInt ${value}n` : String(value)}`);
        }
        // (an object that does not convert, Object.create(null), was the engine's TypeError)
        try { values[k] = value; } catch { throw new TypeError(`posnorm.PnBuffer.set: source[${k}] must be a number, got an object that does not convert to one`); }
      }
    }
    PnBuffer.#live(this, 'set');
    this.array.set(values, offset);
    return this;
  }

  /** A copy of the contents as an ordinary typed array. */
  toArray() {
    PnBuffer.#live(this, 'toArray');
    return this.array.slice();
  }

  /** Returns the memory to the module. Safe to call twice. */
  free() {
    if (PnBuffer.#own(this, 'free').#parent) throw new TypeError('posnorm.PnBuffer.free: a subarray does not own its memory; free the buffer it was taken from');
    if (this.#ptr !== 0) {
      leaked?.unregister(this);
      this.#heap.free(this.#ptr);
      this.#ptr = 0;
      this.#view = null;
    }
  }

  /** `using buf = pn.alloc(n)` frees it at the end of the block. */
  [DISPOSE]() {
    if (!PnBuffer.#own(this, '[Symbol.dispose]').#parent) this.free();
  }

  /**
   * `buf` when it is a PnBuffer; else (an unbound method, another object,
   * a buffer in a Proxy, an object made from one) a TypeError naming
   * `method`, that says what it got from its type alone, as Posnorm's
   * methods do (internals.js). Every method and getter starts with it.
   */
  static #own(buf, method) {
    if (buf !== null && typeof buf === 'object' && #ptr in buf) return buf;
    throw new TypeError(`posnorm.PnBuffer.${method}: this must be a buffer from pn.alloc() or buf.subarray() (buf${method[0] === '[' ? '' : '.'}${method}), got ${receiverKind(buf, 'a buffer')}`);
  }

  /** #own, and a TypeError when the buffer was freed. */
  static #live(buf, method) {
    if (PnBuffer.#isFreed(PnBuffer.#own(buf, method))) throw new TypeError(`posnorm.PnBuffer.${method}: this buffer was freed`);
  }

  /**
   * Whether a buffer (or, for a subarray, the buffer that owns its memory)
   * was freed, from private state alone (an own `freed` of a parent is not
   * asked). A subarray's parent is always that owner, never another
   * subarray: a chain of subarrays of subarrays (a cursor walking a
   * matrix) once made every check walk the chain, quadratic in its length,
   * and overflow the stack at about 14 000.
   */
  static #isFreed(buf) {
    return buf.#ptr === 0 || (buf.#parent !== null && buf.#parent.#ptr === 0);
  }
}

/** The heap a buffer belongs to. */
export function ownerOf(buf) {
  return owners.get(buf);
}

/**
 * The temporary allocations of one convenience call, all freed by release()
 * whatever happens, so nothing leaks across calls.
 */
export class Frame {
  constructor(heap, fn) {
    this.heap = heap;
    this.fn = fn;
    /** The memory's buffer when the call began: views of it are this memory, even once a temp grew it. */
    this.memoryAtStart = heap.memory.buffer;
    this.temps = [];
    this.copies = [];
  }


  #temp(bytes, what) {
    const ptr = this.heap.alloc(bytes, this.fn, what);
    this.temps.push(ptr);
    return ptr;
  }

  /**
   * Pointer to `data` in wasm memory: a PnBuffer's own, a typed array's own
   * place when it views this module's memory, or a copy.
   */
  input(data, what) {
    if (data === undefined || data === null) return 0;
    const own = this.#ownPointer(data, what);
    return own !== null ? own : this.#copy(this.#asChecked(data, what), what);
  }

  /** A temp holding a copy of `src`, a typed array as checked. */
  #copy(src, what) {
    const ptr = this.#temp(src.byteLength, what);
    this.heap.view(BUILT_IN.get(Object.getPrototypeOf(src)), ptr, src.length).set(src);
    return ptr;
  }

  /**
   * A typed array of other memory, as long as when it was validated: one
   * shrunk or detached since (by an option's getter, or a resizable or
   * growable buffer changed by another thread) is an error before anything
   * is written; one that grew is read up to its checked length.
   */
  #asChecked(data, what) {
    if (!ArrayBuffer.isView(data)) return data;
    const Type = BUILT_IN.get(Object.getPrototypeOf(data));
    if (isDetached(data)) {
      throw new TypeError(`posnorm.${this.fn}: ${what} was detached after it was checked (by an option's getter, or the module's memory grew since the view was taken); take a fresh view and call again`);
    }
    const length = noted.get(data)?.length ?? data.length;
    if (data.length < length) {
      throw new TypeError(`posnorm.${this.fn}: ${what} shrank from ${length} to ${data.length} values after it was checked (its resizable buffer was resized during the call)`);
    }
    return data.length === length ? data : new Type(data.buffer, data.byteOffset, length);
  }

  /** A PnBuffer's pointer (checking it is this heap's), a view's byteOffset in this memory, else null. */
  #ownPointer(data, what) {
    if (isPnBuffer(data)) {
      if (ownerOf(data) !== this.heap) {
        throw new TypeError(`posnorm.${this.fn}: ${what} is a buffer of another posnorm instance; a buffer can only be passed to the instance whose alloc() made it`);
      }
      // (checked live before; freed since by user code the call ran, such as
      // a getter of positionIds: "PnBuffer.ptr: this buffer was freed" named
      // neither the call nor the argument)
      if (data.freed) throw new TypeError(`posnorm.${this.fn}: ${what} is a posnorm buffer that was freed during the call (by an option's getter); nothing was written`);
      return data.ptr;
    }
    if (!ArrayBuffer.isView(data) || (data.buffer !== this.memoryAtStart && data.buffer !== this.heap.memory.buffer)) return null;
    return noted.get(data)?.offset ?? data.byteOffset;
  }

  /**
   * Pointer where a kernel writes `length` values of `type`. `out` may be a
   * PnBuffer (written in place), a typed array (filled after the call) or
   * undefined (a new typed array is returned).
   */
  output(length, type, out, what) {
    if (out) {
      const own = this.#ownPointer(out, 'out');
      if (own === null) this.#asChecked(out, `the array given for ${what}`);
      if (own !== null) {
        // a view of this memory is written in place; if the call grew the
        // memory the caller's view is detached, so a fresh one is returned
        return { ptr: own, result: () => (isPnBuffer(out) || !isDetached(out) ? out : noteViewOwner(this.heap.view(BUILT_IN.get(Object.getPrototypeOf(out)), own, length), viewOwner(out))) };
      }
    }
    const Type = BUFFER_TYPES[type];
    const ptr = this.#temp(length * Type.BYTES_PER_ELEMENT, what);
    return {
      ptr,
      result: () => {
        const view = this.heap.view(Type, ptr, length);
        if (out) {
          out.set(view);
          return out;
        }
        return view.slice();
      },
    };
  }

  /**
   * Pointer to `data` for a kernel that reads and updates it in place: a
   * PnBuffer's own memory, or a copy written back by the returned sync().
   */
  inout(data, what) {
    const own = this.#ownPointer(data, what);
    if (own !== null) return { ptr: own, sync: () => {} };
    const src = this.#asChecked(data, what);
    const ptr = this.#copy(src, what);
    return { ptr, sync: () => data.set(this.heap.view(BUILT_IN.get(Object.getPrototypeOf(src)), ptr, src.length)) };
  }

  release() {
    for (const ptr of this.temps) this.heap.free(ptr);
    this.temps.length = 0;
  }
}
