// background.js — work a figure shows but a frame must not wait for (the PE
// error readouts, depth's gradients), run in slices of a few milliseconds
// that give way to input and to the next frame, and dropped as soon as the
// state it was computing for changes.
//
// The work is a generator: each `yield` ends a unit (a few hundred µs of
// work, sized by the caller), and its return value is the result. runSliced()
// runs units back to back while the next one (predicted by the longest so
// far) still fits SLICE_PLAN (half) of the slice's budget, then waits for the page's next quiet
// moment:
//   scheduler.postTask(…, { priority: 'background' })  where it exists
//     (Chromium, Firefox): runs after input, rendering and ordinary tasks;
//   requestIdleCallback, whose deadline shortens the slice, otherwise;
//   setTimeout(0) as the last resort (Node, old Safari).
// (scheduler.yield() is not used: its continuation is queued ahead of other
// tasks of its priority, which is right for finishing a task the reader is
// waiting for, not for work that should come last.)
//
// Every slice is logged as a User Timing measure named SLICE_MEASURE, with
// { label, budget (this slice's), units, lastUnit (ms) } as its detail, so a PerformanceObserver (the frame
// bench, tests/background_slices.test.mjs) sees how long each one ran; it
// is cleared from the performance timeline at once (observers and traces
// still get it), so slices do not pile up there.

/** A slice's budget in milliseconds (work of one turn of the event loop). */
export const SLICE_MS = 4;

/**
 * The part of a slice's budget it plans to fill: a unit starts only while
 * the slice so far plus the unit expected fits half the budget (2 ms of
 * 4), so that a unit that runs long — a collection, a function being
 * optimised, a thread the system runs in its place — still ends within
 * the budget. Planned to the whole budget, a heatmap's error run at
 * 2048 × 1024 ended slices at 4.9–6.3 ms on a unit of 1.4–3 ms after units
 * of 0.5; planned to 3/4, the frame bench of the four figures with slices
 * saw slices of 10.1 and 11.2 ms (on 1.7 and 5.3 ms of CPU: descheduled on
 * the 2-core VM) in two runs, and planned to 1/2, 4.9 and 5.0 ms at most
 * (issue #20).
 */
export const SLICE_PLAN = 0.5;

/** The name of the performance.measure each slice logs. */
export const SLICE_MEASURE = 'posnorm-background-slice';

/** An AbortError, as fetch() and AbortSignal give (DOMException where it exists). */
function abortError(signal) {
  if (signal?.reason !== undefined) return signal.reason;
  return typeof DOMException === 'function' ? new DOMException('background work abandoned', 'AbortError') : Object.assign(new Error('background work abandoned'), { name: 'AbortError' });
}

/**
 * Resolves at the page's next quiet moment with the milliseconds the slice
 * may take there (at most `budget`); rejects when `signal` aborts first.
 */
function quietMoment(budget, signal) {
  const sched = globalThis.scheduler;
  if (typeof sched?.postTask === 'function') {
    return sched.postTask(() => budget, { priority: 'background', signal });
  }
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      cancel();
      reject(abortError(signal));
    };
    let cancel;
    const done = (ms) => {
      signal?.removeEventListener('abort', onAbort);
      resolve(ms);
    };
    if (typeof requestIdleCallback === 'function') {
      // a deadline that ran out (didTimeout) still gets one unit: the loop
      // always runs the first unit of a slice
      const id = requestIdleCallback((d) => done(Math.min(budget, d.timeRemaining())), { timeout: 500 });
      cancel = () => cancelIdleCallback(id);
    } else {
      const id = setTimeout(() => done(budget), 0);
      cancel = () => clearTimeout(id);
    }
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Runs `work` (a generator, or a function that returns one) in slices of at
 * most `budget` ms (planned to SLICE_PLAN of it) between the page's quiet moments; resolves with its
 * return value, or rejects with an AbortError once `signal` aborts (the
 * generator is closed; no unit runs after the abort). A unit is never cut:
 * one that alone takes longer than the budget makes its slice too long, so
 * callers keep units well below SLICE_MS. `stats.longestUnit` (when given)
 * is set to the longest unit run, `stats.units` to the number of units run.
 */
export async function runSliced(work, { signal, budget = SLICE_MS, label = 'background', stats } = {}) {
  const it = typeof work === 'function' ? work() : work;
  // what the next unit is expected to take: the longest so far, decaying,
  // so that one unit pre-empted by other work does not shrink every slice after it
  let unit = 0;
  try {
    for (;;) {
      if (signal?.aborted) throw abortError(signal);
      const room = await quietMoment(budget, signal);
      if (signal?.aborted) throw abortError(signal);
      const start = performance.now();
      let now = start, units = 0, last = 0, step;
      do {
        const t = now;
        step = it.next();
        now = performance.now();
        units++;
        last = now - t;
        unit = Math.max(last, 0.75 * unit);
        if (stats) {
          stats.longestUnit = Math.max(stats.longestUnit ?? 0, last);
          stats.units = (stats.units ?? 0) + 1;
        }
      } while (!step.done && now - start + unit <= SLICE_PLAN * room);
      performance.measure?.(SLICE_MEASURE, { start, end: now, detail: { label, budget: room, units, lastUnit: last } });
      // observers (and traces) have it now; left in the timeline, which
      // keeps User Timing entries until they are cleared, every slice of
      // the page's life stayed there (about 0.9 KB each in Chromium)
      performance.clearMeasures?.(SLICE_MEASURE);
      if (step.done) return step.value;
    }
  } finally {
    it.return?.();
  }
}

/**
 * Runs `work` to the end at once (no slicing): the same result as
 * runSliced(), for toCsv(), tests and callers that need it now.
 */
export function runNow(work) {
  const it = typeof work === 'function' ? work() : work;
  for (;;) {
    const step = it.next();
    if (step.done) return step.value;
  }
}

/**
 * One piece of background work per key for a figure's readout: run(key,
 * work) starts `work` unless it already runs or ran for `key`, abandoning the
 * run for any other key. `onResult(value, key)` gets the result of the
 * current key only.
 *
 * Work whose units cannot be made shorter than a slice (depth's gradients at
 * its largest sizes: one kernel call each) would overrun a slice at every
 * input of a drag. So once a run has had a unit longer than SLICE_MS, the
 * next run starts only after its key has stayed the same for `settleMs`: a
 * drag shows "computing…" and runs nothing until it pauses.
 *
 * The same wait follows a run that a new key abandoned after it had begun
 * its work: the values change faster than the work finishes (a drag at large
 * sizes: the heatmap's error line at 2048 × 1024 takes 50–90 ms of slices),
 * so each run of the drag would be thrown away after costing the frames
 * their share of the CPU (6 ms per input, issue #20). A run that finishes
 * lifts the wait, so at small sizes, where a run ends between two inputs,
 * the readout follows the drag.
 */
export class BackgroundTask {
  /**
   * `expectLongUnits`: treat the first run as if a unit longer than a slice
   * had been seen (it waits for its key to settle), for work whose units
   * are known to be long at its default sizes on a slow machine; a run
   * whose units turn out short lifts the wait, as after any run.
   *
   * `onError(error, key)`: the work of the current key threw (not an
   * abandon). The key is forgotten, so run() with the same key tries again
   * (a figure's next repaint); without onError the error is rethrown, an
   * unhandled rejection.
   */
  constructor(label, onResult, { settleMs = 150, expectLongUnits = false, onError = null } = {}) {
    this.label = label;
    this.onResult = onResult;
    this.onError = onError;
    this.settleMs = settleMs;
    this.key = undefined;
    /** The longest unit of the last run that finished or was abandoned (ms). */
    this.longestUnit = expectLongUnits ? Infinity : 0;
    /** Whether a new key abandoned a run that had begun its work, since a run last finished. */
    this.interrupted = false;
    this._abort = null;
    this._stats = null;
  }

  /** Starts `work()` for `key` (abandoning another key's run); false when `key` is already current. */
  run(key, work) {
    if (key === this.key) return false;
    if (this._abort && this._stats?.units > 0) this.interrupted = true;
    this.cancel();
    this.key = key;
    const abort = (this._abort = new AbortController());
    const stats = (this._stats = { longestUnit: 0, units: 0 });
    const settle = this.longestUnit > SLICE_MS || this.interrupted ? this.settleMs : 0;
    const start = settle > 0
      ? new Promise((resolve, reject) => {
        const id = setTimeout(resolve, settle);
        abort.signal.addEventListener('abort', () => {
          clearTimeout(id);
          reject(abortError(abort.signal));
        }, { once: true });
      })
      : Promise.resolve();
    start.then(() => runSliced(work, { signal: abort.signal, label: this.label, stats })).then((value) => {
      this.longestUnit = stats.longestUnit;
      if (this._abort === abort) {
        this._abort = null;
        this.interrupted = false;
        this.onResult(value, key);
      }
    }, (error) => {
      if (stats.longestUnit > 0) this.longestUnit = stats.longestUnit;
      // a run no longer current (abandoned or cancelled: its AbortError, or
      // what its generator threw while being closed) reports nothing
      if (this._abort !== abort) return;
      // the current run's work threw: a readout would say "computing…" for
      // good, and the same key would never run again, unless both are undone here
      this._abort = null;
      this.key = undefined;
      this.interrupted = false;
      if (!this.onError) throw error;
      this.onError(error, key);
    });
    return true;
  }

  /** Abandons the current run (its result never arrives) and forgets the key. */
  cancel() {
    this._abort?.abort();
    this._abort = null;
    this.key = undefined;
  }
}
