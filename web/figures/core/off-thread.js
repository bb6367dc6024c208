// off-thread.js — background work run in a Worker with its own posnorm
// instance (worker/kernel-worker.js), so the page's main thread runs none of
// it: work whose units cannot be cut below a slice (one kernel call each:
// depth's gradients take 8–12 ms per call at 96 layers × 64 on the machine
// of docs/benchmarks.md), and work that would take many slices, each of
// which the machine may deschedule part-way (the PE error line at large
// sizes: draw/pe-error.js's peErrors, one of the Worker's FUNCTIONS).
//
// One Worker per page, started by the first task that needs it, from the
// compiled module of the page's instance (posted, not fetched again). Where
// there is no Worker to be had — no Worker in the engine (Node), a page whose
// origin cannot start one (an iframe sandboxed without allow-same-origin),
// a worker script that did not load (a bundler that left it out), a posnorm
// instance without its module — or the Worker fails, the same work runs on
// the main thread in background slices (core/background.js) instead, with
// the same results: the page never depends on the Worker.
import { BackgroundTask, SLICE_MS } from './background.js';

/** The page's Worker: { worker, module, kept (name → version sent), waiting (id → callbacks), broken }, or null before the first use. */
let page = null;
let nextId = 1;

/**
 * A request the Worker has not answered after this long (ms) counts as a
 * failed Worker (a script that loaded but does not answer): the main thread
 * takes the work over. Depth's largest request takes about 40 ms here.
 */
export const REQUEST_LIMIT_MS = 10000;

function breakWorker() {
  page.broken = true;
  page.worker?.terminate();
  for (const w of page.waiting.values()) {
    clearTimeout(w.limit);
    w.reject(new Error('posnorm: the kernel worker failed'));
  }
  page.waiting.clear();
}

/** The page's Worker for instance `pn`, started on first use; null where none can run (the caller then works on the main thread). */
function pageWorker(pn) {
  if (!page) {
    page = { worker: null, module: pn?.module, moduleSent: false, kept: new Map(), waiting: new Map(), broken: false };
    try {
      if (typeof Worker !== 'function' || typeof WebAssembly !== 'object' || !(page.module instanceof WebAssembly.Module)) throw new Error('no Worker');
      page.worker = new Worker(new URL('../worker/kernel-worker.js', import.meta.url), { type: 'module', name: 'posnorm kernels' });
    } catch {
      page.broken = true;
      return null;
    }
    page.worker.onmessage = ({ data }) => {
      const w = page.waiting.get(data.id);
      if (!w) return;
      page.waiting.delete(data.id);
      clearTimeout(w.limit);
      // a Worker whose posnorm could not start answers every request so
      // (its own instance ran out of memory, say): given up at once
      if (data.fatal) breakWorker();
      if (data.error) w.reject(new Error(data.error));
      else w.resolve(data);
    };
    page.worker.onerror = page.worker.onmessageerror = (event) => {
      event.preventDefault?.();
      breakWorker();
    };
  }
  return page.broken || pn?.module !== page.module ? null : page;
}

/**
 * Sends `calls` (worker/kernel-worker.js: posnorm methods, or its
 * FUNCTIONS) with the `keep` inputs the Worker does not
 * hold yet in their version: { name: { version, array: () => Float32Array } },
 * `array` called only when sent (its copy is transferred). Resolves with the
 * Worker's answer.
 */
function request(p, keep, calls) {
  const id = nextId++;
  const message = { id, calls, keep: {} };
  const transfer = [];
  if (!p.moduleSent) {
    message.module = p.module;
    p.moduleSent = true;
  }
  for (const [name, { version, array }] of Object.entries(keep ?? {})) {
    if (p.kept.get(name) === version) continue;
    const copy = array();
    message.keep[name] = { version, array: copy };
    transfer.push(copy.buffer);
  }
  return new Promise((resolve, reject) => {
    try {
      p.worker.postMessage(message, transfer);
    } catch (error) {
      // nothing was sent (a value that cannot be cloned): nothing is recorded
      if (message.module) p.moduleSent = false;
      reject(error);
      return;
    }
    for (const [name, { version }] of Object.entries(message.keep)) p.kept.set(name, version);
    const limit = setTimeout(breakWorker, REQUEST_LIMIT_MS);
    p.waiting.set(id, { resolve, reject, limit });
  });
}

/**
 * Lets the Worker drop the input kept under `name` (a figure that leaves
 * the page); sent with nothing else, and only if the Worker holds it.
 */
export function dropKept(name) {
  if (!page || page.broken || !page.kept.has(name)) return;
  page.kept.delete(name);
  page.worker.postMessage({ forget: [name] });
}

/**
 * BackgroundTask's contract (one piece of work per key, others abandoned,
 * `onResult(value, key)` for the current key only), run in the page's
 * Worker when there is one. run(key, { offThread, sliced }):
 *   offThread() → { pn, keep, calls } (see request()), asked for when the
 *     request is sent; the value is the list of the calls' results. It
 *     returns null when the work is no longer wanted or its inputs are
 *     not those of `key` (the figure left the page, or changed and has not
 *     drawn since): the run is abandoned, and onResult(null, key) called;
 *   sliced — the same work as a generator for the main thread, used where
 *     no Worker can run (and from then on by this task), and once for a
 *     key whose call threw in the Worker.
 * The Worker runs one request at a time: keys that come while it is busy
 * replace one another, and only the last is sent when it is free. Work
 * whose calls took longer than a slice waits, as on the main thread, until
 * its key has stayed the same for `settleMs` (a drag shows "computing…" and
 * keeps the Worker's core free for the page meanwhile). So does a key that
 * comes less than `settleMs` after the one before it, however short the
 * calls: that is a drag, and on a machine of two cores the Worker's run
 * takes a core the page's frame needs, and its answer costs the page a
 * repaint between two inputs (depth at its defaults, calls of 0.5–1 ms: a
 * width drag's p95 was 12.6–20.2 ms with every key sent, 8.6–10.8 ms with
 * the drag's keys waiting; docs/decisions.md). The first key of a drag,
 * and a key after a pause, are sent at once when the calls are short.
 * A call that fails in the Worker (it threw there: the Worker's memory
 * ran out, say) is run again, that key alone, on the main thread, where an
 * error it throws goes to `onError(error, key)` as in BackgroundTask; the
 * keys after it go to the Worker again. A Worker that fails (an error
 * event, no answer within REQUEST_LIMIT_MS) is given up for the page, and
 * this task's work stays on the main thread from then on.
 */
export class KernelTask {
  constructor(label, onResult, { settleMs = 150, expectLongUnits = false, onError = null } = {}) {
    this.onResult = onResult;
    this.settleMs = settleMs;
    this.longestCall = expectLongUnits ? Infinity : 0;
    this._sliced = new BackgroundTask(label, onResult, { settleMs, expectLongUnits, onError });
    this._onMainThread = false;
    /** Whether the current key runs on the main thread once, its call having failed in the Worker. */
    this._once = false;
    this._key = undefined;
    /** { key, job } waiting to be sent (for the settle time, or while the Worker is busy) */
    this._next = null;
    this._timer = 0;
    this._busy = false;
    /** When run() last took a new key (performance.now()): a key within settleMs of it is a drag's. */
    this._lastKeyAt = -Infinity;
  }

  /** The key of the current run (finished or not); undefined after cancel(). */
  get key() { return this._onMainThread || this._once ? this._sliced.key : this._key; }

  /** Whether this task's current work runs in the Worker (false once it fell back to slices, and while a key whose call threw there runs on the main thread). */
  get offThread() { return !this._onMainThread && !this._once; }

  /** Starts the work for `key` (abandoning another key's); false when `key` is already current. */
  run(key, job) {
    if (key === this.key) return false;
    const now = performance.now(), dragging = now - this._lastKeyAt < this.settleMs;
    this._lastKeyAt = now;
    // on the main thread the sliced task abandons its own run: cancelled
    // here first, it could not tell that the run it dropped had begun (and
    // would not wait for the values to settle, BackgroundTask.run)
    if (this._onMainThread) return this._sliced.run(key, job.sliced);
    this.cancel();
    this._key = key;
    this._next = { key, job };
    const settle = this.longestCall > SLICE_MS || dragging ? this.settleMs : 0;
    if (settle > 0) this._timer = setTimeout(() => { this._timer = 0; this._send(); }, settle);
    else this._send();
    return true;
  }

  /** Abandons the current run (its result never arrives) and forgets the key. */
  cancel() {
    clearTimeout(this._timer);
    this._timer = 0;
    this._next = null;
    this._key = undefined;
    this._once = false;
    this._sliced.cancel();
  }

  _send() {
    if (this._busy || this._timer || !this._next) return;
    const { key, job } = this._next;
    let spec;
    try {
      spec = job.offThread();
    } catch (error) {
      this.cancel();
      throw error;
    }
    if (!spec) {
      this.cancel();
      this.onResult(null, key);
      return;
    }
    const p = pageWorker(spec.pn);
    if (!p) {
      this._fallBack(key, job);
      return;
    }
    this._next = null;
    this._busy = true;
    request(p, spec.keep, spec.calls).then((answer) => {
      this._busy = false;
      this.longestCall = answer.longestCall;
      if (key === this._key) {
        // A → B → A while A ran: A is known now, not to be sent again
        if (this._next?.key === key) this._next = null;
        this.onResult(answer.results, key);
      }
      this._send();
    }, () => {
      this._busy = false;
      // a key that came meanwhile is sent (or falls back, the Worker broken);
      // this key: on the main thread for good if the Worker broke, else (the
      // call threw there, the Worker lives on) once, where it may succeed or
      // throws where it can be seen, and the next key is the Worker's again
      if (key !== this._key) this._send();
      else if (page.broken) this._fallBack(key, job);
      else this._runOnce(key, job);
    });
  }

  _runOnce(key, job) {
    this._next = null;
    this._key = undefined;
    this._once = true;
    this._sliced.run(key, job.sliced);
  }

  _fallBack(key, job) {
    this._onMainThread = true;
    this._next = null;
    this._key = undefined;
    this._sliced.run(key, job.sliced);
  }
}
