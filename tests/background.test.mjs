// Background work in slices (web/figures/core/background.js) in Node: slices
// keep to their budget, each way of waiting for a quiet moment is used where
// it exists, an abort stops the work between units, and the PE error
// readout computed in slices equals the one computed in one piece — and both
// equal float64 and the float32 emulation of tests/reference/pe.mjs.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BackgroundTask, SLICE_MEASURE, SLICE_MS, SLICE_PLAN, runNow, runSliced } from '../web/figures/core/background.js';
import { PeScratch, TOUCH_VALUES, nextUnitValues, peErrorSteps, peErrors } from '../web/figures/draw/pe-error.js';
import { builds } from './helpers.mjs';
import { float32CodeRow, peValue } from './reference/pe.mjs';

const spin = (ms) => {
  const end = performance.now() + ms;
  while (performance.now() < end) { /* busy */ }
};

/** A generator of `n` units of `ms` each, logging the units it ran; returns n. */
function* units(n, ms, log) {
  for (let k = 0; k < n; k++) {
    spin(ms);
    log.push(k);
    yield;
  }
  return n;
}

/** The slice measures logged while `fn` runs. */
async function slicesOf(fn) {
  const seen = [];
  const obs = new PerformanceObserver((l) => seen.push(...l.getEntries().filter((e) => e.name === SLICE_MEASURE)));
  obs.observe({ entryTypes: ['measure'] });
  const value = await fn();
  await new Promise((r) => setTimeout(r, 20));
  obs.disconnect();
  return { value, slices: seen };
}

/**
 * runSliced over units of the given lengths (ms) on a clock of the test's
 * own, which only the units move (so that nothing else this machine runs
 * can lengthen a unit); the generator returns the number of units.
 */
async function slicesOnOwnClock(lengths, label) {
  let clock = 1000;
  function* work() {
    for (const ms of lengths) {
      clock += ms;
      yield;
    }
    return lengths.length;
  }
  const realNow = performance.now;
  performance.now = () => clock;
  try {
    return await slicesOf(() => runSliced(work(), { budget: 4, label }));
  } finally {
    performance.now = realNow;
  }
}

test('slices of 1 ms units keep to the budget and the result is the generator\'s', async () => {
  const log = [];
  const { value, slices } = await slicesOf(() => runSliced(units(40, 1, log), { budget: 4, label: 't' }));
  assert.equal(value, 40);
  assert.equal(log.length, 40);
  // 40 units and the call that returns the result
  assert.equal(slices.reduce((a, s) => a + s.detail.units, 0), 41);
  // planned to half the budget: at most 2 units of 1 ms in a 4 ms slice
  for (const s of slices) {
    assert.ok(s.detail.units <= 2 && s.detail.units >= 1, `units per slice ${s.detail.units}`);
    assert.equal(s.detail.label, 't');
  }
  assert.ok(slices.length >= 21, `41 units of 1 ms, at most 2 to a slice, need at least 21 slices, got ${slices.length}`);
  assert.equal(SLICE_MS, 4);
  assert.equal(SLICE_PLAN, 0.5);
});

test('slices leave no entry in the performance timeline: observers see each one, the buffer keeps none', async () => {
  // User Timing entries stay in the timeline until cleared (it has no
  // size limit for them): one per slice, about 0.9 KB each in Chromium,
  // kept for the page's life — one per input of a waveform, properties or
  // compare drag at the default sizes, hundreds per input at the largest
  // sizes where no Worker runs
  performance.clearMeasures(SLICE_MEASURE);
  for (let run = 0; run < 3; run++) {
    const { value, slices } = await slicesOf(() => runSliced(units(6, 1, []), { budget: 4, label: 'timeline' }));
    assert.equal(value, 6);
    // 6 units of 1 ms and the call that returns, at most 2 to a slice
    assert.ok(slices.length >= 4, `an observer saw ${slices.length} slices`);
    assert.ok(slices.every((e) => e.detail.label === 'timeline'));
    assert.deepEqual(performance.getEntriesByName(SLICE_MEASURE), [], `after run ${run + 1}`);
  }
});

test('slices clear their own measures only: the page\'s measures and marks stay in the timeline', async () => {
  // a host page's own User Timing (its analytics, a framework's): a
  // clearMeasures() without the slices' name would wipe it at every slice
  performance.mark('host-page-mark');
  performance.measure('host-page-measure', { start: 0, end: 1 });
  try {
    const { value, slices } = await slicesOf(() => runSliced(units(4, 1, []), { budget: 4, label: 'host' }));
    assert.equal(value, 4);
    assert.ok(slices.length >= 2, `an observer saw ${slices.length} slices`);
    assert.equal(performance.getEntriesByName('host-page-measure', 'measure').length, 1, 'the page\'s measure is kept');
    assert.equal(performance.getEntriesByName('host-page-mark', 'mark').length, 1, 'the page\'s mark is kept');
    assert.deepEqual(performance.getEntriesByName(SLICE_MEASURE), []);
  } finally {
    performance.clearMeasures('host-page-measure');
    performance.clearMarks('host-page-mark');
  }
});

test('on a clock of the test\'s own, units of exactly 1 ms run two to a slice: a third would pass the 2 ms plan', async () => {
  // (the test above spins on the real clock, whose overshoot keeps a third
  // unit out even when the plan is 3 ms; here only the units move the
  // clock, so planned to 3/4 of the budget a slice would hold three)
  const { value, slices } = await slicesOnOwnClock(Array(12).fill(1), 'exact');
  assert.equal(value, 12);
  // 12 units and the call that returns: six slices of two, the return alone
  assert.deepEqual(slices.map((x) => x.detail.units), [2, 2, 2, 2, 2, 2, 1]);
});

test('a unit that runs longer than the units before it still ends within the budget: slices are planned to half of it', async () => {
  // (on the test's own clock) three units of 0.6 ms fill the plan (1.8
  // ms; a fourth would pass 2 ms), and the fourth, of 2.5 ms, is expected
  // to take 0.6 ms. Planned to 3/4 of the budget (as it was) or to all of
  // it, it would start at 1.8 ms and end the slice at 4.3 ms; planned to 2
  // ms, it starts the next slice, alone (the longest unit so far, 2.5 ms,
  // is what the slice expects next).
  const lengths = [0.6, 0.6, 0.6, 2.5, 0.6, 0.6];
  const { value, slices } = await slicesOnOwnClock(lengths, 'spike');
  assert.equal(value, lengths.length);
  assert.deepEqual(slices.slice(0, 2).map((s) => s.detail.units), [3, 1], 'three units, then the long one alone');
  assert.equal(slices.reduce((a, s) => a + s.detail.units, 0), lengths.length + 1);
  for (const s of slices) assert.ok(s.duration <= 4, `a slice of ${s.detail.units} units took ${s.duration.toFixed(2)} ms (budget 4)`);
});

test('an infinite budget would run everything in one slice (what the budget prevents)', async () => {
  const { slices } = await slicesOf(() => runSliced(units(20, 1, []), { budget: Infinity }));
  assert.equal(slices.length, 1);
  assert.ok(slices[0].duration >= 20);
});

test('abort: no unit runs after it, the promise rejects with an AbortError, the generator is closed', async () => {
  const log = [];
  let closed = false;
  function* work() {
    try {
      yield* units(100, 1, log);
    } finally {
      closed = true;
    }
  }
  const ac = new AbortController();
  const run = runSliced(work, { signal: ac.signal, budget: 2 });
  await new Promise((r) => setTimeout(r, 5));
  ac.abort();
  const ran = log.length;
  await assert.rejects(run, { name: 'AbortError' });
  await new Promise((r) => setTimeout(r, 20));
  assert.equal(log.length, ran);
  assert.ok(ran < 100);
  assert.ok(closed);
  // aborted before it starts: nothing runs
  const none = [];
  const ac2 = new AbortController();
  ac2.abort();
  await assert.rejects(runSliced(units(3, 0, none), { signal: ac2.signal }), { name: 'AbortError' });
  assert.equal(none.length, 0);
});

test('BackgroundTask: a new key abandons the old run; only the current key\'s result arrives; the same key is not run twice', async () => {
  const results = [];
  const task = new BackgroundTask('t', (v, key) => results.push([key, v]));
  const logA = [], logB = [];
  assert.equal(task.run('a', () => units(50, 1, logA)), true);
  await new Promise((r) => setTimeout(r, 3));
  assert.equal(task.run('b', () => units(5, 0.1, logB)), true);
  assert.equal(task.run('b', () => units(5, 0.1, [])), false);
  // (b waits for its key to settle: a's run had begun when b abandoned it)
  await until(() => results.length === 1);
  await new Promise((r) => setTimeout(r, 50));
  assert.deepEqual(results, [['b', 5]]);
  assert.ok(logA.length < 50, 'the abandoned run stopped');
  task.cancel();
  assert.equal(task.key, undefined);
});

test('where scheduler.postTask exists, slices are posted at background priority; else an idle deadline shortens them', async () => {
  const priorities = [];
  globalThis.scheduler = {
    postTask(fn, { priority, signal }) {
      priorities.push(priority);
      return new Promise((resolve, reject) => setTimeout(() => (signal?.aborted ? reject(signal.reason) : resolve(fn())), 0));
    },
  };
  try {
    assert.equal(await runSliced(units(6, 1, []), { budget: 2 }), 6);
    assert.ok(priorities.length >= 3 && priorities.every((p) => p === 'background'), priorities.join());
  } finally {
    delete globalThis.scheduler;
  }
  let idle = 0;
  globalThis.requestIdleCallback = (fn) => setTimeout(() => { idle++; fn({ timeRemaining: () => 1.5, didTimeout: false }); }, 0);
  globalThis.cancelIdleCallback = (id) => clearTimeout(id);
  try {
    // units of 0.5 ms on the test's own clock: a slice with its whole 4 ms
    // budget would run four (planned to half of it); with the 1.5 ms an idle
    // period has left, planned to 0.75 ms, one
    const { value, slices } = await slicesOnOwnClock(Array(12).fill(0.5), 'idle');
    assert.equal(value, 12);
    assert.ok(idle >= 13, `idle callbacks ${idle}`);
    // 12 units and the call that returns the result, one to a slice
    assert.equal(slices.length, 13, slices.map((s) => s.detail.units).join());
    assert.ok(slices.every((s) => s.detail.units === 1 && s.detail.budget === 1.5), slices.map((s) => `${s.detail.units}/${s.detail.budget}`).join());
  } finally {
    delete globalThis.requestIdleCallback;
    delete globalThis.cancelIdleCallback;
  }
});

const SIZES = [
  { seqLen: 30, dModel: 64 },
  { seqLen: 24, dModel: 48, base: 500, layout: 'concat' },
  // more rows than the kernel's anchor block, starting off an anchor, an odd width
  { seqLen: 2500, dModel: 37, base: 100000, offset: 333 },
  { seqLen: 1100, dModel: 130, layout: 'concat', offset: 1023 },
  { seqLen: 101, dModel: 1024, base: 100000, dims: [0, 1, 600, 601] },
  { seqLen: 1, dModel: 2 },
];

test('the PE errors in slices equal the errors in one piece, bit for bit, in both builds', async () => {
  for (const { name, pn } of await builds()) {
    for (const sizes of SIZES) {
      const whole = peErrors(pn, sizes);
      const sliced = await runSliced(peErrorSteps(pn, sizes), { budget: 1 });
      assert.deepEqual(sliced, whole, `${name} ${JSON.stringify(sizes)}`);
      assert.deepEqual(runNow(peErrorSteps(pn, sizes)), whole);
    }
  }
});

test('the PE error units start small and follow their times: double under 0.25 ms, halve over 1 ms, within 64 … 8192 values', async () => {
  assert.deepEqual([0, 0.2, 0.25, 0.5, 1, 1.01, 40].map((ms) => nextUnitValues(1024, ms)), [2048, 2048, 1024, 1024, 1024, 512, 512]);
  assert.deepEqual([nextUnitValues(8192, 0), nextUnitValues(64, 9), nextUnitValues(4096, 0.1)], [8192, 64, 8192]);
  // the float32 code's calls: the first of floor(256 / 37) = 6 rows, none over
  // floor(8192 / 37) = 221, and together every row once
  const { pn } = (await builds())[0];
  const calls = [];
  const watched = { alloc: (...a) => pn.alloc(...a), positionalEncoding: (o) => { if (o.precision) calls.push(o.seqLen); return pn.positionalEncoding(o); } };
  runNow(peErrorSteps(watched, { seqLen: 3000, dModel: 37 }));
  assert.equal(calls[0], 6);
  assert.ok(calls.every((n) => n >= 1 && n <= 221), `unit rows ${Math.min(...calls)} … ${Math.max(...calls)}`);
  assert.equal(calls.reduce((a, b) => a + b, 0), 3000);
  // a float32 kernel that takes 2 ms a call: units halve to one row (64 values < 37·2) and stay there
  const slow = [];
  const spun = { alloc: (...a) => pn.alloc(...a), positionalEncoding: (o) => { if (o.precision) { slow.push(o.seqLen); spin(2); } return pn.positionalEncoding(o); } };
  runNow(peErrorSteps(spun, { seqLen: 40, dModel: 37 }));
  assert.deepEqual(slow.slice(0, 4), [6, 3, 1, 1]);
  assert.ok(slow.slice(2).every((n) => n === 1));
});

test('one wrong value anywhere reaches the PE error line, a NaN as NaN', async () => {
  const { pn } = (await builds())[0];
  // 1100 rows of 37: posnorm's values in blocks of 1024 rows, the float32
  // code's in units of 6 rows first (then as their times say); poisoned
  // cells at the first and last row and column, at the first unit's last
  // row and the next one's first, and around the second anchor block's start
  const sizes = { seqLen: 1100, dModel: 37, offset: 5 };
  const cells = [[0, 0], [1099, 36], [5, 17], [6, 3], [54, 17], [1023, 36], [1024, 0], [1099, 0]];
  for (const precision of [undefined, 'float32']) {
    for (const [row, col] of cells) {
      for (const bad of [3, NaN]) {
        // a posnorm whose PE call for `precision` returns one wrong value at (row, col)
        const poisoned = {
          alloc: (...a) => pn.alloc(...a),
          positionalEncoding: (o) => {
            const r = pn.positionalEncoding(o);
            const at = sizes.offset + row - o.offset;
            // the values written: a Float32Array, or the PnBuffer given as `out`
            const values = r.array ?? r;
            if (o.precision === precision && at >= 0 && at < o.seqLen) values[at * o.dModel + col] = bad;
            return r;
          },
        };
        const got = runNow(peErrorSteps(poisoned, sizes));
        const key = precision ? 'float32' : 'posnorm';
        const p = sizes.offset + row, w = Math.exp((-2 * (col >> 1) / 37) * Math.log(10000));
        const want = Math.abs(bad - (col % 2 ? Math.cos(p * w) : Math.sin(p * w)));
        assert.deepEqual(got[key], want, `${key}, ${bad} at row ${row}, column ${col}`);
        assert.deepEqual(got, peErrors(poisoned, sizes), `as in one piece: ${key}, ${bad} at row ${row}, column ${col}`);
      }
    }
  }
});

test('the PE error steps write into two wasm buffers of their own, freed when the run ends or is abandoned', async () => {
  for (const { name, pn } of await builds()) {
    const before = pn.heapStats();
    const sizes = { seqLen: 2500, dModel: 37, base: 100000 };
    // during a run: exactly its two buffers, 1024·37 values for posnorm and
    // at most floor(8192/37) = 221 rows, 221·37 values, for the code, each
    // rounded up to a power of two (2^16, 2^13); nothing per unit
    const it = peErrorSteps(pn, sizes);
    for (let k = 0; k < 10; k++) it.next();
    const during = pn.heapStats();
    assert.deepEqual([during.allocations - before.allocations, during.bytes - before.bytes], [2, 4 * (2 ** 16 + 2 ** 13)], name);
    it.return(); // abandoned, as a change of sizes does
    assert.deepEqual([pn.heapStats().allocations, pn.heapStats().bytes], [before.allocations, before.bytes], `${name}: abandoned`);
    runNow(peErrorSteps(pn, sizes));
    assert.deepEqual([pn.heapStats().allocations, pn.heapStats().bytes], [before.allocations, before.bytes], `${name}: finished`);
  }
});

test('a PeScratch keeps the two buffers from run to run, writes their fresh memory a unit of TOUCH_VALUES at a time, and frees them when asked', async () => {
  for (const { name, pn } of await builds()) {
    const before = pn.heapStats();
    const scratch = new PeScratch();
    const big = { seqLen: 2048, dModel: 300, base: 100000 };
    // ours: 1024 rows × 300 = 307200 values → 2^19; code: floor(8192/300) = 27 rows × 300 = 8100 → 2^13
    const oursValues = 2 ** 19, codeValues = 2 ** 13;
    // units before the first kernel call (the later units' sizes follow their timing)
    let units = 0, firstCall = -1;
    const watched = { alloc: (...a) => pn.alloc(...a), positionalEncoding: (o) => { if (firstCall < 0) firstCall = units; return pn.positionalEncoding(o); } };
    const count = (sizes) => {
      units = 0;
      firstCall = -1;
      const it = peErrorSteps(watched, sizes, scratch);
      let step;
      while (!(step = it.next()).done) units++;
      return { units: firstCall, value: step.value };
    };
    const first = count(big);
    const held = pn.heapStats();
    assert.deepEqual([held.allocations - before.allocations, held.bytes - before.bytes], [2, 4 * (oursValues + codeValues)], `${name}: two buffers, kept after the run`);
    const second = count(big);
    assert.deepEqual(pn.heapStats(), held, `${name}: the second run allocates nothing`);
    // the first run has one unit per alloc and one per TOUCH_VALUES written ahead, the second none of them
    assert.deepEqual([first.units, second.units], [2 + oursValues / TOUCH_VALUES + Math.ceil(codeValues / TOUCH_VALUES), 0], name);
    assert.deepEqual(first.value, peErrors(pn, big), `${name}: the errors of one piece`);
    assert.deepEqual(second.value, first.value, name);
    // smaller sizes keep the buffers; larger ones replace them (the old one freed)
    count({ seqLen: 10, dModel: 30 });
    assert.deepEqual([pn.heapStats().allocations, pn.heapStats().bytes], [held.allocations, held.bytes], `${name}: smaller sizes reuse the buffers`);
    const wider = { seqLen: 1500, dModel: 600 };
    assert.deepEqual(count(wider).value, peErrors(pn, wider), name);
    const grown = pn.heapStats();
    assert.deepEqual([grown.allocations - before.allocations, grown.bytes - before.bytes], [2, 4 * (2 ** 20 + 2 ** 13)], `${name}: both replaced by their next powers of two`);
    // a run abandoned during the writing ahead leaves the buffers held, and the next run ends the writing
    const other = new PeScratch();
    const it = peErrorSteps(watched, { seqLen: 1024, dModel: 64 }, other);
    for (let k = 0; k < 3; k++) it.next();
    it.return();
    assert.equal(pn.heapStats().allocations - before.allocations, 3, `${name}: the abandoned run's buffer is kept by its scratch`);
    assert.deepEqual(runNow(peErrorSteps(watched, { seqLen: 1024, dModel: 64 }, other)), peErrors(pn, { seqLen: 1024, dModel: 64 }), name);
    assert.equal(pn.heapStats().allocations - before.allocations, 4, `${name}: and its second buffer`);
    scratch.free();
    other.free();
    assert.deepEqual([pn.heapStats().allocations, pn.heapStats().bytes], [before.allocations, before.bytes], `${name}: freed`);
  }
});

test('a PeScratch writes a new buffer ahead in units of TOUCH_VALUES, and replaces a buffer that was freed or belongs to another instance', async () => {
  const [a, b] = await builds();
  const scratch = new PeScratch();
  // every new buffer starts as NaN here, so the units' writing shows
  const made = [];
  const marked = (pn) => ({ alloc: (n) => { const buf = pn.alloc(n); buf.array.fill(NaN); made.push(buf); return buf; } });
  const length = 3 * TOUCH_VALUES + 5; // rounded up to 4·TOUCH_VALUES
  const ma = marked(a.pn);
  const it = scratch.take(ma, 'x', length);
  assert.equal(it.next().done, false, 'the alloc is a unit of its own');
  const buf = made[0];
  assert.equal(buf.length, 4 * TOUCH_VALUES);
  for (let unit = 1; unit <= 4; unit++) {
    const step = it.next();
    const arr = buf.array;
    const zeros = arr.findIndex((v) => v !== 0);
    assert.equal(zeros === -1 ? arr.length : zeros, unit * TOUCH_VALUES, `after ${unit} units, the first ${unit} · TOUCH_VALUES values are written`);
    assert.ok(arr.subarray(unit * TOUCH_VALUES).every(Number.isNaN), `and nothing after them (unit ${unit})`);
    assert.equal(step.done, false);
  }
  const end = it.next();
  assert.equal(end.done, true);
  assert.equal(end.value, buf, 'then it returns the buffer');
  // the same instance again: the same buffer, no unit
  const same = scratch.take(ma, 'x', length).next();
  assert.equal(same.done, true, 'no unit');
  assert.equal(same.value, buf, 'the same buffer');
  // freed elsewhere: a new one
  buf.free();
  const again = runNow(scratch.take(ma, 'x', 10));
  assert.notEqual(again, buf);
  assert.equal(again.freed, false);
  // another instance's buffer cannot be used with this one: a new one from it, the old one freed
  const before = a.pn.heapStats().allocations;
  const other = runNow(scratch.take(marked(b.pn), 'x', 10));
  assert.ok(b.pn.heapStats().allocations > 0 && other.freed === false);
  assert.equal(again.freed, true, 'the first instance\'s buffer is freed');
  assert.equal(a.pn.heapStats().allocations, before - 1);
  scratch.free();
  assert.equal(other.freed, true);
});

test('the PE error steps give the one-piece errors when other work grows the memory between their units', async () => {
  for (const { name, pn } of await builds()) {
    const sizes = { seqLen: 2048, dModel: 700, base: 100000 };
    const whole = peErrors(pn, sizes);
    const it = peErrorSteps(pn, sizes);
    const held = [];
    const start = pn.heapStats().memoryBytes;
    let step, k = 0;
    // 4 MB more every third unit, 40 times: the memory grows, and every view
    // taken before is detached (at most 160 MB, however small the units are)
    while (!(step = it.next()).done) if (k++ % 3 === 0 && held.length < 40) held.push(pn.alloc(1 << 20));
    assert.ok(pn.heapStats().memoryBytes > start + (64 << 20), `${name}: the memory grew (${start} → ${pn.heapStats().memoryBytes})`);
    assert.deepEqual(step.value, whole, name);
    for (const b of held) b.free();
  }
});

test('the PE errors equal float64 and the float32 emulation of the article\'s code (independent references)', async () => {
  const [{ pn }] = await builds();
  // concat, an odd width off an anchor, and some columns only (dims: what the waveform draws)
  for (const sizes of [SIZES[1], SIZES[2], SIZES[4]]) {
    const { seqLen, dModel: d, base = 10000, offset = 0, layout = 'interleaved', dims } = sizes;
    const cols = dims ?? Array.from({ length: d }, (_, c) => c);
    const ours = pn.positionalEncoding({ seqLen, dModel: d, base, offset, layout });
    const half = Math.ceil(d / 2);
    let e32 = 0, e64 = 0;
    for (let r = 0; r < seqLen; r++) {
      const p = offset + r;
      const code = float32CodeRow(p, d, base);
      for (const c of cols) {
        const ref = peValue(p, c, d, { base, layout });
        const [i, isCos] = layout === 'concat' ? (c < half ? [c, false] : [c - half, true]) : [c >> 1, c % 2 === 1];
        e32 = Math.max(e32, Math.abs(code[2 * i + (isCos ? 1 : 0)] - ref));
        e64 = Math.max(e64, Math.abs(ours[r * d + c] - ref));
      }
    }
    const r = await runSliced(peErrorSteps(pn, sizes));
    assert.ok(Math.abs(r.posnorm - e64) <= 1e-15, `${JSON.stringify(sizes)} posnorm ${r.posnorm} vs ${e64}`);
    assert.ok(Math.abs(r.float32 - e32) <= 1e-6 * e32 + 1.2e-7, `${JSON.stringify(sizes)} float32 ${r.float32} vs ${e32}`);
    assert.ok(r.posnorm < 2e-7);
  }
});

/** Resolves once `cond()` holds (polled; fails after `limit` ms). */
async function until(cond, limit = 5000) {
  const end = Date.now() + limit;
  while (!cond()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 5));
  }
}

test('BackgroundTask: after a unit longer than a slice, a run waits for its key to settle, and a drag runs no unit at all', async () => {
  const results = [];
  const task = new BackgroundTask('t', (v, key) => results.push([key, v]), { settleMs: 400 });
  task.run('a', () => units(2, SLICE_MS + 2, []));
  await until(() => results.length === 1);
  assert.deepEqual(results, [['a', 2]]);
  assert.ok(task.longestUnit > SLICE_MS);
  // a drag: a new key every 16 ms for 10 inputs; no unit of any of them runs
  const during = [];
  for (let k = 0; k < 10; k++) {
    task.run(`d${k}`, () => units(2, 0, during));
    await new Promise((r) => setTimeout(r, 16));
  }
  assert.deepEqual(during, []);
  // it pauses: the last key's work runs after settleMs
  await until(() => results.length === 2);
  assert.deepEqual(during, [0, 1]);
  assert.deepEqual(results.at(-1), ['d9', 2]);
  // its units were short: the next run starts at once
  assert.ok(task.longestUnit < SLICE_MS);
  const next = [];
  const t0 = performance.now();
  task.run('e', () => units(1, 0, next));
  await until(() => next.length === 1);
  assert.ok(performance.now() - t0 < 300, 'no settling wait');
});

test('BackgroundTask: once a new key abandons a run that had begun its work, runs wait for their key to settle; a run that finishes lifts the wait', async () => {
  const results = [], ran = [];
  const task = new BackgroundTask('t', (v, key) => results.push([key, v]), { settleMs: 300 });
  // short runs that end between inputs: each starts at once, none is interrupted
  for (let k = 0; k < 3; k++) {
    const t0 = performance.now();
    task.run(`s${k}`, () => units(1, 0, ran));
    await until(() => results.length === k + 1);
    assert.ok(performance.now() - t0 < 200, 'no settling wait while runs finish');
  }
  assert.equal(task.interrupted, false);
  // a long run (40 units of 1 ms), abandoned by a new key once it has begun
  const long = [];
  task.run('a', () => units(40, 1, long));
  await until(() => long.length > 0);
  const t0 = performance.now();
  // then a drag: a new key every 16 ms; no unit of any of them runs
  const during = [];
  for (let k = 0; k < 8; k++) {
    task.run(`d${k}`, () => units(2, 0, during));
    await new Promise((r) => setTimeout(r, 16));
  }
  assert.equal(task.interrupted, true);
  assert.ok(long.length < 40, 'the long run was abandoned');
  assert.deepEqual(during, [], 'nothing ran while the keys kept changing');
  // the drag pauses: the last key's work runs once its key has stayed for settleMs
  await until(() => results.length === 4);
  assert.deepEqual(results.at(-1), ['d7', 2]);
  assert.ok(performance.now() - t0 >= 300);
  assert.equal(task.interrupted, false, 'a finished run lifts the wait');
  const next = [], t1 = performance.now();
  task.run('e', () => units(1, 0, next));
  await until(() => next.length === 1);
  assert.ok(performance.now() - t1 < 200, 'no settling wait after a run finished');
});

test('BackgroundTask: a run dropped before its first unit ran does not make the next one wait', async () => {
  const results = [];
  const task = new BackgroundTask('t', (v, key) => results.push([key, v]), { settleMs: 2000 });
  const t0 = performance.now();
  // 'a' is dropped in the same task that started it: it never reached a quiet moment
  task.run('a', () => units(40, 1, []));
  task.run('b', () => units(1, 0, []));
  await until(() => results.length === 1);
  assert.deepEqual(results, [['b', 1]]);
  assert.equal(task.interrupted, false);
  assert.ok(performance.now() - t0 < 1000, 'no settling wait');
});

test('KernelTask without a Worker (Node): its runs on the main thread wait for their key to settle after one was abandoned once begun, as BackgroundTask\'s do', async () => {
  const { KernelTask } = await import('../web/figures/core/off-thread.js');
  const results = [];
  const task = new KernelTask('k', (v, key) => results.push([key, v]), { settleMs: 300 });
  // a job: what the Worker would run (no Worker here, so never sent) and the same work in slices
  const job = (n, ms, log) => ({ offThread: () => ({ pn: {}, calls: [], keep: {} }), sliced: () => units(n, ms, log) });
  const long = [];
  task.run('a', job(40, 1, long));
  await until(() => long.length > 0);
  assert.equal(task.offThread, false, 'fell back to slices');
  const during = [];
  for (let k = 0; k < 8; k++) {
    task.run(`d${k}`, job(2, 0, during));
    await new Promise((r) => setTimeout(r, 16));
  }
  assert.ok(long.length < 40, 'the long run was abandoned');
  assert.deepEqual(during, [], 'nothing ran while the keys kept changing');
  await until(() => results.length === 1);
  assert.deepEqual(results, [['d7', 2]]);
});

test('BackgroundTask with expectLongUnits: its first run already waits for its key to settle; short units lift the wait', async () => {
  const results = [], ran = [];
  const task = new BackgroundTask('t', (v, key) => results.push([key, v]), { settleMs: 300, expectLongUnits: true });
  const t0 = performance.now();
  // a drag from the start: no unit runs while the keys change
  for (let k = 0; k < 5; k++) {
    task.run(`d${k}`, () => units(1, 0, ran));
    await new Promise((r) => setTimeout(r, 16));
  }
  assert.deepEqual(ran, []);
  await until(() => results.length === 1);
  assert.deepEqual(results, [['d4', 1]]);
  assert.ok(performance.now() - t0 >= 300, 'the first result waited for the key to settle');
  // its unit was short: the next run starts at once
  const next = [];
  const t1 = performance.now();
  task.run('e', () => units(1, 0, next));
  await until(() => next.length === 1);
  assert.ok(performance.now() - t1 < 200, 'no settling wait after short units');
});

/** A generator that runs `before` units of 0.1 ms, then throws `error`. */
function* failing(before, error, log) {
  for (let k = 0; k < before; k++) {
    spin(0.1);
    log.push(k);
    yield;
  }
  throw error;
}

test('BackgroundTask: work that throws reaches onError(error, key) once, no result arrives, and the same key runs again (not "computing…" for good)', async () => {
  const results = [], errors = [];
  const task = new BackgroundTask('t', (v, key) => results.push([key, v]), { onError: (e, key) => errors.push([key, e]) });
  const boom = new RangeError('not enough WebAssembly memory');
  const log = [];
  assert.equal(task.run('a', () => failing(3, boom, log)), true);
  await until(() => errors.length === 1);
  await new Promise((r) => setTimeout(r, 20));
  assert.deepEqual(errors, [['a', boom]]);
  assert.deepEqual(log, [0, 1, 2]);
  assert.deepEqual(results, []);
  assert.equal(task.key, undefined, 'the failed key is forgotten');
  // the same key again: it runs (a repaint tries again), and this time it works
  const again = [];
  assert.equal(task.run('a', () => units(2, 0.1, again)), true);
  await until(() => results.length === 1);
  assert.deepEqual(results, [['a', 2]]);
  assert.deepEqual(errors.length, 1);
});

test('BackgroundTask: an error of a run a new key abandoned never reaches onError; an AbortError thrown by the work itself does', async () => {
  const errors = [], results = [];
  const task = new BackgroundTask('t', (v, key) => results.push([key, v]), { onError: (e, key) => errors.push([key, e.message]) });
  // a's generator throws as it is closed (its finally): the error an
  // abandoned run rejects with is then that one, not the AbortError
  let closed = false;
  function* throwsWhenClosed() {
    try {
      for (let k = 0; k < 20; k++) { spin(1); yield; }
    } finally {
      closed = true;
      // eslint-disable-next-line no-unsafe-finally
      throw new Error('a failed while closing');
    }
  }
  task.run('a', throwsWhenClosed);
  await new Promise((r) => setTimeout(r, 3));
  task.run('b', () => units(1, 0, []));
  await until(() => results.length === 1);
  await new Promise((r) => setTimeout(r, 50));
  assert.equal(closed, true, 'a was abandoned and closed');
  assert.deepEqual(errors, []);
  assert.deepEqual(results, [['b', 1]]);
  // cancelled the same way: nothing either
  closed = false;
  task.run('c', throwsWhenClosed);
  await new Promise((r) => setTimeout(r, 3));
  task.cancel();
  await until(() => closed);
  await new Promise((r) => setTimeout(r, 50));
  assert.deepEqual(errors, []);
  // the work's own AbortError (not an abandon) is a failure like any other
  const own = Object.assign(new Error('aborted inside'), { name: 'AbortError' });
  task.run('d', () => failing(0, own, []));
  await until(() => errors.length === 1);
  assert.deepEqual(errors, [['d', 'aborted inside']]);
});

test('KernelTask without a Worker (Node): an error of its sliced work goes to onError with its key', async () => {
  const { KernelTask } = await import('../web/figures/core/off-thread.js');
  const errors = [];
  const task = new KernelTask('k', () => assert.fail('no result'), { onError: (e, key) => errors.push([key, e.message]) });
  task.run('a', { offThread: () => ({ pn: {}, calls: [], keep: {} }), sliced: () => failing(1, new Error('kernel failed'), []) });
  await until(() => errors.length === 1);
  assert.deepEqual(errors, [['a', 'kernel failed']]);
  assert.equal(task.key, undefined);
});
