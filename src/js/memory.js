// memory.js — wasm memory ownership: zero-copy buffers and per-call frames.

/** Typed-array constructor for each buffer type. */
export const BUFFER_TYPES = Object.freeze({
  f32: Float32Array,
  u32: Uint32Array,
  i32: Int32Array,
  u8c: Uint8ClampedArray,
});

/** The wasm heap: memory plus the module's malloc/free. */
export class Heap {
  constructor(exports) {
    this.memory = exports.memory;
    this.exports = exports;
    /** pointer → bytes of every allocation not yet freed. */
    this.live = new Map();
  }

  /** Allocates `bytes` or throws a RangeError naming the call. */
  alloc(bytes, fn, what) {
    const ptr = bytes > 0x7fff0000 ? 0 : this.exports.malloc(Math.max(bytes, 1));
    if (!ptr) {
      throw new RangeError(
        `posnorm.${fn}: not enough WebAssembly memory for ${what} (${bytes} bytes; the module's memory is limited to 2 GiB)`);
    }
    this.live.set(ptr, bytes);
    return ptr;
  }

  free(ptr) {
    this.live.delete(ptr);
    this.exports.free(ptr);
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

  constructor(heap, ptr, length, type) {
    this.#heap = heap;
    this.#ptr = ptr;
    this.#length = length;
    this.#type = type;
  }

  get isPnBuffer() { return true; }
  /** Byte offset of the data in the module's memory. */
  get ptr() { this.#live(); return this.#ptr; }
  get length() { return this.#length; }
  get type() { return this.#type; }
  get byteLength() { return this.#length * BUFFER_TYPES[this.#type].BYTES_PER_ELEMENT; }
  get freed() { return this.#ptr === 0; }

  /** The current view (Float32Array, Uint32Array, Int32Array or Uint8ClampedArray). */
  get array() {
    this.#live();
    if (!this.#view || this.#view.buffer !== this.#heap.memory.buffer) {
      this.#view = this.#heap.view(BUFFER_TYPES[this.#type], this.#ptr, this.#length);
    }
    return this.#view;
  }

  /**
   * Copies `source` (an array-like) in at `offset`. Safer than
   * `buf.array.set(f())`, which takes the view before f() runs: if f() makes
   * the memory grow, that view is already detached.
   */
  set(source, offset = 0) {
    this.array.set(source, offset);
    return this;
  }

  /** A copy of the contents as an ordinary typed array. */
  toArray() {
    return this.array.slice();
  }

  /** Returns the memory to the module. Safe to call twice. */
  free() {
    if (this.#ptr !== 0) {
      this.#heap.free(this.#ptr);
      this.#ptr = 0;
      this.#view = null;
    }
  }

  #live() {
    if (this.#ptr === 0) throw new TypeError('posnorm: this buffer was freed');
  }
}

/**
 * The temporary allocations of one convenience call, all freed by release()
 * whatever happens, so nothing leaks across calls.
 */
export class Frame {
  constructor(heap, fn) {
    this.heap = heap;
    this.fn = fn;
    this.temps = [];
    this.copies = [];
  }

  #temp(bytes, what) {
    const ptr = this.heap.alloc(bytes, this.fn, what);
    this.temps.push(ptr);
    return ptr;
  }

  /** Pointer to `data` in wasm memory: a PnBuffer's own, or a copy. */
  input(data, what) {
    if (data === undefined || data === null) return 0;
    if (data.isPnBuffer) return data.ptr;
    const ptr = this.#temp(data.byteLength, what);
    this.heap.view(data.constructor, ptr, data.length).set(data);
    return ptr;
  }

  /**
   * Pointer where a kernel writes `length` values of `type`. `out` may be a
   * PnBuffer (written in place), a typed array (filled after the call) or
   * undefined (a new typed array is returned).
   */
  output(length, type, out, what) {
    if (out && out.isPnBuffer) return { ptr: out.ptr, result: () => out };
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
    if (data.isPnBuffer) return { ptr: data.ptr, sync: () => {} };
    const ptr = this.input(data, what);
    return { ptr, sync: () => data.set(this.heap.view(data.constructor, ptr, data.length)) };
  }

  release() {
    for (const ptr of this.temps) this.heap.free(ptr);
    this.temps.length = 0;
  }
}
