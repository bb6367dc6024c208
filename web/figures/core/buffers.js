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
  #named = new Map();

  /** How many buffers are held now. */
  get size() { return this.#named.size; }

  /** Iterates over the buffers held now. */
  [Symbol.iterator]() { return this.#named.values(); }

  /**
   * The buffer kept under `name`, made anew from `pn` when missing or of
   * another length or type (the old one is freed and forgotten).
   *
   * Exactly `length`, not a larger capacity kept across sizes: kept at
   * powers of two, a heatmap d_model drag at 2048 × 1024 allocated 9 times
   * instead of 64 and its input → frame p95 fell from 25–28 to 18–19 ms,
   * but the input that doubled the capacity took 41–44 ms (fresh pages for
   * 16 MB at once), and under load `make bench` saw it as a 55 ms long
   * task; capacities in eighths gave back the p95 (issue #20, a probe of
   * three drags each).
   */
  get(pn, name, length, type = 'f32') {
    if (!Number.isInteger(length) || length < 1) {
      throw new RangeError(`figure buffer "${name}": length must be a whole number of at least 1, got ${length}`);
    }
    let b = this.#named.get(name);
    if (b && !b.freed && b.length === length && b.type === type) return b;
    b?.free();
    b = pn.alloc(length, type);
    this.#named.set(name, b);
    return b;
  }

  /** Frees and forgets every buffer. */
  clear() {
    for (const b of this.#named.values()) b.free();
    this.#named.clear();
  }
}
