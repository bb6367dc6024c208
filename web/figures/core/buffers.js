// buffers.js — the wasm buffers one figure owns. A figure allocates only
// while it is on the page: everything is freed when it leaves, and asking
// for a buffer while it is away is an error rather than a silent leak.

/**
 * The least power of two >= n (n >= 1): the capacity of memory a drag resizes
 * at every input, so that it is allocated anew about a dozen times across
 * the whole range instead of at every input.
 */
export const pow2AtLeast = (n) => 2 ** Math.ceil(Math.log2(n));

/**
 * Plain typed arrays (Float32Array, Float64Array) a figure reuses from one
 * repaint to the next (kernel `out` arrays, inputs it builds, values it
 * keeps), so that a drag does not allocate: fresh
 * memory costs page faults, about 4 µs per KB on the project's 2-core VM,
 * and a repaint that made 144 small result arrays spent 4.7 ms on them.
 * `f32(name, length)` (`f64` likewise) returns `length` values of the
 * array kept under `name` (capacity a power of two, so a drag across sizes reallocates a few
 * times, not at every input). The contents are the last writer's: a caller
 * that keeps values across calls copies them or uses another name. These
 * are ordinary JS arrays, collected with the figure: unlike the wasm
 * buffers below, asking for one while the figure is away is allowed.
 */
export class FigureScratch {
  #arrays = new Map();

  f32(name, length) { return this.#get(name, length, Float32Array); }

  /** The same for Float64Array (a name holds one type: the other is made anew). */
  f64(name, length) { return this.#get(name, length, Float64Array); }

  #get(name, length, Type) {
    let a = this.#arrays.get(name);
    if (!(a instanceof Type) || a.length < length) {
      a = new Type(pow2AtLeast(Math.max(1, length)));
      this.#arrays.set(name, a);
    }
    return a.subarray(0, length);
  }

  /** Forgets every array (a figure that leaves the page keeps none). */
  clear() { this.#arrays.clear(); }
}

export class FigureBuffers {
  /** name → { buffer (the allocation), view (its last subarray, or null) } */
  #named = new Map();

  /** How many buffers are held now. */
  get size() { return this.#named.size; }

  /** Iterates over the buffers held now (the allocations, not the views handed out). */
  *[Symbol.iterator]() { for (const e of this.#named.values()) yield e.buffer; }

  /**
   * `length` values of the buffer kept under `name`: the buffer itself when
   * it has exactly that length, otherwise a zero-copy subarray of it (the
   * same object while the length stays). A buffer is made anew from `pn`
   * (the old one freed and forgotten) only when it is missing, freed, of
   * another type or shorter than `length`, and then with exactly `length`
   * values: while the figure is on the page and asks a name for one type,
   * the name keeps the largest length asked of it, and a drag back down and
   * up again allocates nothing. The outgrown buffer is freed before the new
   * one is asked for, so when `pn.alloc` refuses the length (a RangeError)
   * the name holds nothing; a length refused here (not a whole number >= 1)
   * leaves the name's buffer as it was.
   *
   * Why not less or more (issue #20, heatmap d_model drags at 1024 × 2048,
   * each input a new length): freed and made anew at every length change,
   * the buffers met fresh pages of a grown memory (6.6 ms per MB in
   * Chromium on the machine of docs/benchmarks.md), and repaints of 20–31
   * ms made the p95; kept at powers of two, a drag at 2048 × 1024 allocated 9 times
   * instead of 64 and its p95 fell from 25–28 to 18–19 ms, but the input
   * that doubled the capacity took 41–44 ms (fresh pages for 16 MB at
   * once), a 55 ms long task under load. The cost of keeping the largest:
   * what it holds (16 MB at the heatmap's largest sizes) stays held until
   * the figure leaves the page, as it did while those sizes were shown, and
   * the other figures of the page (one wasm instance) cannot reuse it.
   */
  get(pn, name, length, type = 'f32') {
    if (!Number.isInteger(length) || length < 1) {
      throw new RangeError(`figure buffer "${name}": length must be a whole number of at least 1, got ${length}`);
    }
    let e = this.#named.get(name);
    if (e && (e.buffer.freed || e.buffer.type !== type || e.buffer.length < length)) {
      e.buffer.free();
      this.#named.delete(name);
      e = undefined;
    }
    if (!e) {
      e = { buffer: pn.alloc(length, type), view: null };
      this.#named.set(name, e);
    }
    if (e.buffer.length === length) return e.buffer;
    if (e.view?.length !== length) e.view = e.buffer.subarray(0, length);
    return e.view;
  }

  /** Frees and forgets every buffer. */
  clear() {
    for (const { buffer } of this.#named.values()) buffer.free();
    this.#named.clear();
  }
}
