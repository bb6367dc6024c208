// pe-error.js — the line every PE figure adds to its readout: the max error
// of what it draws against float64, for posnorm's values and for the
// article's float32 PyTorch code at the same sizes. Computed after the frame
// (a 2048 × 1024 matrix takes a few tens of ms in all), kept for the sizes,
// so a repaint never waits for it: for large sizes in the page's kernel
// Worker (core/off-thread.js; worker/kernel-worker.js imports peErrors and
// calls it in one piece), for small ones or where no Worker runs in
// background slices of the main thread (core/background.js, peErrorSteps),
// with the same numbers either way.
import { createReadout, setText } from './canvas.js';
import { fmt } from './format.js';
import { BackgroundTask } from '../core/background.js';
import { pow2AtLeast } from '../core/buffers.js';
import { KernelTask } from '../core/off-thread.js';
import { emit } from '../core/element.js';
import { peErrors } from './pe-errors.js';

export { peErrors };

/**
 * Sizes of more than this many values (seqLen × the columns compared) have
 * their errors computed in the page's kernel Worker; smaller ones take
 * about a millisecond on the main thread, in a slice or two, and a figure
 * at its default sizes starts no Worker (whose scripts, 50 KB, would count
 * in the demo page's first load).
 */
export const OFF_THREAD_VALUES = 32768;

/**
 * Matrix values per unit of peErrorSteps() (the float32 code's rows and
 * their comparison): it starts at UNIT_START and follows what the units
 * take, doubling while one takes under UNIT_FAST_MS and halving when one
 * takes over UNIT_SLOW_MS, between UNIT_MIN and UNIT_MAX (whole rows, at
 * least one). A fixed 8192 took 1–3 ms of Math.sin/cos on the machine of
 * docs/benchmarks.md; 2048 took 0.03 ms once the comparison was optimised
 * and 3–5 ms in the first runs of a page, before it was.
 */
const UNIT_START = 256, UNIT_MIN = 64, UNIT_MAX = 8192;
const UNIT_FAST_MS = 0.25, UNIT_SLOW_MS = 1;

/** The values of the next unit after one of `values` that took `ms`. */
export function nextUnitValues(values, ms) {
  if (ms < UNIT_FAST_MS) return Math.min(UNIT_MAX, values * 2);
  if (ms > UNIT_SLOW_MS) return Math.max(UNIT_MIN, values / 2);
  return values;
}

/**
 * worst[0] = max(worst[0], |ours − float64|), worst[1] likewise for `code`,
 * over n rows at positions p0, p0 + 1, …: code's rows from its start, ours'
 * from row oursRow0; the columns, frequencies and cos flags in `at`. A plain
 * function of typed arrays, so that it is optimised early and boxes no
 * numbers (the same loop inside the generator allocated a heap number per
 * value until it was optimised, and the collections landed in slices).
 */
function maxErrorsInto(worst, ours, oursRow0, code, n, p0, dModel, { cols, w, cos }) {
  let posnorm = worst[0], float32 = worst[1];
  for (let r = 0; r < n; r++) {
    const p = p0 + r;
    const o = (oursRow0 + r) * dModel, c0 = r * dModel;
    for (let k = 0; k < cols.length; k++) {
      const ref = cos[k] ? Math.cos(p * w[k]) : Math.sin(p * w[k]);
      // Math.max, not >: a NaN value must show as NaN, as in peErrors()
      posnorm = Math.max(posnorm, Math.abs(ours[o + cols[k]] - ref));
      float32 = Math.max(float32, Math.abs(code[c0 + cols[k]] - ref));
    }
  }
  worst[0] = posnorm;
  worst[1] = float32;
}
/**
 * The rows posnorm's PE kernel computes from one exact sin/cos before it
 * takes them again (PN_PE_ANCHOR, src/pn_internal.h): between anchors a row
 * follows from the one before, so a call that starts elsewhere than at an
 * anchor of the whole call would round differently.
 */
const PE_ANCHOR = 1024;

/**
 * peErrors() in units of a fraction of a millisecond (a generator for
 * core/background.js): posnorm's values come a block of PE_ANCHOR rows per
 * call (starting where the whole call re-anchors, so every value is the one
 * the whole call gives), the float32 code's and the comparison a few rows at
 * a time (its rows are independent). Every value compared is the one
 * peErrors() compares, and a max does not depend on the order it is taken
 * in, so the result is identical.
 *
 * Both are written into two wasm buffers, not into new arrays per unit: a
 * fresh 4 MB array costs its page faults, about 17 ms on the machine of
 * docs/benchmarks.md, which made one unit four slices long. The buffers
 * come from `scratch` (a PeScratch: kept from run to run, and their fresh
 * pages written a unit at a time) or, without one, are taken for this run
 * alone (freed when it ends or is abandoned).
 */
export function* peErrorSteps(pn, { seqLen, dModel, base = 10000, offset = 0, layout = 'interleaved', dims }, scratch = null) {
  const half = Math.ceil(dModel / 2);
  const cols = dims ?? Array.from({ length: dModel }, (_, c) => c);
  const pair = cols.map((c) => (layout === 'concat' ? (c < half ? [c, false] : [c - half, true]) : [c >> 1, c % 2 === 1]));
  const w = pair.map(([i]) => Math.exp((-2 * i / dModel) * Math.log(base)));
  const rowsOf = (values) => Math.max(1, Math.floor(values / dModel));
  let values = UNIT_START;
  // columns, their frequencies and cos flags as typed arrays, the two maxima
  // in a Float64Array: the comparison (maxErrorsInto) allocates nothing
  const at = {
    cols: Int32Array.from(cols),
    w: Float64Array.from(w),
    cos: Uint8Array.from(pair, ([, c]) => (c ? 1 : 0)),
  };
  const worst = new Float64Array(2);
  const own = scratch ? null : new PeScratch();
  const buffers = scratch ?? own;
  try {
    const oursBuf = yield* buffers.take(pn, 'ours', Math.min(PE_ANCHOR, seqLen) * dModel);
    const codeBuf = yield* buffers.take(pn, 'code', Math.min(rowsOf(UNIT_MAX), seqLen) * dModel);
    for (let a = 0; a < seqLen; a += PE_ANCHOR) {
      const block = Math.min(PE_ANCHOR, seqLen - a);
      pn.positionalEncoding({ seqLen: block, dModel, base, offset: offset + a, layout, out: oursBuf.subarray(0, block * dModel) });
      yield;
      for (let r0 = 0, n; r0 < block; r0 += n) {
        n = Math.min(rowsOf(values), block - r0);
        const t0 = performance.now();
        pn.positionalEncoding({ seqLen: n, dModel, base, offset: offset + a + r0, layout, precision: 'float32', out: codeBuf.subarray(0, n * dModel) });
        // views taken after the call: other work between units may have grown the memory
        maxErrorsInto(worst, oursBuf.array, r0, codeBuf.array, n, offset + a + r0, dModel, at);
        values = nextUnitValues(values, performance.now() - t0);
        yield;
      }
    }
  } finally {
    // also when an alloc threw
    own?.free();
  }
  return { posnorm: worst[0], float32: worst[1] };
}

/**
 * Values written per unit when a buffer's memory is new (64 KB): the first
 * write to a page of wasm memory the page has not had costs a page fault,
 * 6–9 ms per MB in Chromium on the machine of docs/benchmarks.md (a second
 * write: 0.05 ms per MB), so a PE pass over a fresh 4 MB buffer was one
 * unit of 35 ms. Written ahead in units of this size, the faults stay
 * below half a millisecond per unit.
 */
export const TOUCH_VALUES = 16384;

/**
 * The wasm buffers of the error runs of one figure, kept from run to run,
 * so that the runs of a drag neither allocate nor meet fresh pages: each is
 * a power of two of values, replaced only by a larger one, and its pages
 * are written (zeros) ahead of use a TOUCH_VALUES unit at a time. A figure
 * holds its two, at most 4 MB + 32 KB at 2048 × 1024, while it is on the
 * page (PeErrorLine frees them when it leaves).
 */
export class PeScratch {
  /** name → { pn, buffer, touched (values written ahead so far) } */
  #named = new Map();

  /**
   * A generator (use with yield*): yields after the alloc and after each
   * unit of writing ahead; returns the buffer `name` of at least `length`
   * values from `pn`, all of it written once.
   */
  *take(pn, name, length) {
    let e = this.#named.get(name);
    if (e && (e.pn !== pn || e.buffer.freed || e.buffer.length < length)) {
      if (!e.buffer.freed) e.buffer.free();
      this.#named.delete(name);
      e = null;
    }
    if (!e) {
      e = { pn, buffer: pn.alloc(pow2AtLeast(length)), touched: 0 };
      this.#named.set(name, e);
      yield;
    }
    while (e.touched < e.buffer.length) {
      const end = Math.min(e.buffer.length, e.touched + TOUCH_VALUES);
      e.buffer.array.fill(0, e.touched, end);
      e.touched = end;
      yield;
    }
    return e.buffer;
  }

  /** The bytes of the buffers held now. */
  get byteLength() {
    let n = 0;
    for (const e of this.#named.values()) if (!e.buffer.freed) n += e.buffer.byteLength;
    return n;
  }

  /** Frees and forgets every buffer. */
  free() {
    for (const e of this.#named.values()) if (!e.buffer.freed) e.buffer.free();
    this.#named.clear();
  }
}

/**
 * The error line of a figure (`element`, a `p.readout.pe-error` the figure
 * places); the figure's `peErrors` holds the numbers shown, with their sizes,
 * and is null while they are computed (in background slices: a repaint
 * never waits for them, and a change of sizes abandons the computation).
 */
export class PeErrorLine {
  constructor(host) {
    this.host = host;
    this.element = createReadout('p', false);
    this.element.classList.add('pe-error');
    // the Worker answers with the list of its calls' results, the slices
    // with the errors; null: the run was dropped (the figure left the page)
    const done = (answer, key) => {
      const e = Array.isArray(answer) ? answer[0] : answer;
      if (!e) return;
      this._failed = null;
      host.peErrors = { ...e, sizes: JSON.parse(key) };
      this._write();
    };
    // the computation threw (wasm memory ran out, …): said in the line and
    // as the figure's posnorm-error event, not left at "computing…". These
    // sizes are not tried again by repaints (a cursor move would run the
    // whole computation and fail again), only once other sizes have been
    // computed, or the figure has left the page and come back
    const failed = (error, key) => {
      host.peErrors = null;
      this._failed = { key, why: String(error?.message ?? error) };
      this._writeFailed();
      emit(host, 'posnorm-error', { error, message: this.element.textContent });
    };
    /** { key, why } of the sizes whose computation threw, or null */
    this._failed = null;
    this._sliced = new BackgroundTask('pe-error', done, { onError: failed });
    this._worker = new KernelTask('pe-error', done, { onError: failed });
    /** the task of the last show(): one of the two above */
    this._task = this._sliced;
    this._scratch = new PeScratch();
    host.addController(this);
  }

  /** Whether the errors of the last show() are computed in the page's kernel Worker (not on the main thread). */
  get offThread() { return this._task === this._worker && this._worker.offThread; }

  /** Off the page: the computation is dropped and its buffers freed (show() starts it again). */
  hostDisconnected() {
    this._sliced.cancel();
    this._worker.cancel();
    this._scratch.free();
    this._failed = null;
  }

  _writeFailed() {
    setText(this.element, this.host.t.peErrorFailed(this._failed.why));
  }

  _write() {
    const e = this.host.peErrors;
    setText(this.element, this.host.t.peErrorLine(fmt(e.posnorm, 3), fmt(e.float32, 3)));
  }

  /**
   * Shows the errors for `sizes` (peErrors' options): at once when known,
   * else once computed — in the kernel Worker for sizes of more than
   * OFF_THREAD_VALUES values, in slices of the main thread below (and
   * where no Worker runs).
   */
  show(sizes) {
    const { host } = this;
    const key = JSON.stringify(sizes);
    if (this._failed?.key === key) {
      // the sizes that failed, shown again (a repaint, a relabel): said in
      // the current language, not run again; a run for other sizes is no
      // longer wanted
      this._sliced.cancel();
      this._worker.cancel();
      host.peErrors = null;
      this._writeFailed();
      return;
    }
    const task = sizes.seqLen * (sizes.dims?.length ?? sizes.dModel) > OFF_THREAD_VALUES ? this._worker : this._sliced;
    if (task === this._task && task.key === key) {
      // known, or still being computed: either way in the current language
      // (a relabel repaints with the same sizes)
      if (host.peErrors) this._write();
      else setText(this.element, host.t.peErrorPending);
      return;
    }
    (task === this._sliced ? this._worker : this._sliced).cancel();
    this._task = task;
    host.peErrors = null;
    this.element.textContent = host.t.peErrorPending;
    const { pn } = host;
    const sliced = () => peErrorSteps(pn, sizes, this._scratch);
    if (task === this._sliced) task.run(key, sliced);
    else {
      task.run(key, {
        offThread: () => (host.pn === pn ? { pn, calls: [{ fn: 'peErrors', args: [sizes] }] } : null),
        sliced,
      });
    }
  }
}
