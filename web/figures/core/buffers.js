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
 * Plain Float32Arrays a figure reuses from one repaint to the next (kernel
 * `out` arrays, inputs it builds), so that a drag does not allocate: fresh
 * memory costs page faults, about 4 µs per KB on the project's 2-core VM,
 * and a repaint that made 144 small result arrays spent 4.7 ms on them.
 * `f32(name, length)` returns `length` values of the array kept under
 * `name` (capacity a power of two, so a drag across sizes reallocates a few
 * times, not at every input). The contents are the last writer's: a caller
 * that keeps values across calls copies them or uses another name. These
 * are ordinary JS arrays, collected with the figure: unlike the wasm
 * buffers below, asking for one while the figure is away is allowed.
 */
export class FigureScratch {
  #arrays = new Map();

  f32(name, length) {
    let a = this.#arrays.get(name);
    if (!a || a.length < length) {
      a = new Float32Array(pow2AtLeast(Math.max(1, length)));
      this.#arrays.set(name, a);
    }
    return a.subarray(0, length);
  }

  /** Forgets every array (a figure that leaves the page keeps none). */
  clear() { this.#arrays.clear(); }
}

/**
 * The wasm buffers of one figure, by name. Each is held with a capacity of a
 * power of two and handed out as a view of the length asked for (the same
 * view object while that length stays): a d_model or seq_len drag asks for
 * another length at every input, and allocated at each one (64 times in a
 * 64-input heatmap drag, 9 times now: tests/figure_buffers.test.mjs); an
 * allocation that grows the memory meets fresh pages, whose first write
 * costs page faults (6.6 ms per MB in Chromium on the project's VM).
 * A buffer is replaced by a larger one when it is too small, and by a
 * smaller one when a quarter of its capacity would do, so it holds less
 * than 4× the values in use (less than 2× right after it is made); a figure
 * frees everything when it leaves the page.
 */
export class FigureBuffers {
  /** name → { buffer (the allocation), view (what get() last returned) } */
  #named = new Map();

  /** How many buffers are held now. */
  get size() { return this.#named.size; }

  /** Iterates over the buffers held now (the allocations, at their capacity). */
  *[Symbol.iterator]() {
    for (const e of this.#named.values()) yield e.buffer;
  }

  /**
   * `length` values of type `type` kept under `name`, from `pn`: the view
   * handed out last when the length and type are the same; else a view of
   * the buffer kept, or of a new one when that is of another type, too
   * small or more than four times too large (the old one is freed).
   */
  get(pn, name, length, type = 'f32') {
    if (!Number.isInteger(length) || length < 1) {
      throw new RangeError(`figure buffer "${name}": length must be a whole number of at least 1, got ${length}`);
    }
    let e = this.#named.get(name);
    if (e && !e.buffer.freed && e.buffer.type === type && e.view.length === length) return e.view;
    const capacity = pow2AtLeast(Math.max(1, length));
    if (e && (e.buffer.freed || e.buffer.type !== type || e.buffer.length < length || capacity * 4 <= e.buffer.length)) {
      if (!e.buffer.freed) e.buffer.free();
      e = null;
    }
    if (!e) e = { buffer: pn.alloc(capacity, type), view: null };
    e.view = e.buffer.length === length ? e.buffer : e.buffer.subarray(0, length);
    this.#named.set(name, e);
    return e.view;
  }

  /** Frees and forgets every buffer. */
  clear() {
    for (const e of this.#named.values()) if (!e.buffer.freed) e.buffer.free();
    this.#named.clear();
  }
}
