// bench/frames.mjs's reading of a Chromium trace: each background slice (a
// User Timing measure, 'b' and 'e' events) gets the thread time of the
// innermost task of its own thread that contains it, allowing for the
// page's coarsened clock; a slice no task contains counts its wall time.
// Hand-made traces, so every number below is worked out by hand.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { framesTable, sliceThreadTimes } from '../bench/frames.mjs';
import { SLICE_MEASURE } from '../web/figures/core/background.js';

const task = (ts, dur, tdur, { pid = 1, tid = 1 } = {}) => ({ name: 'RunTask', ph: 'X', cat: 'disabled-by-default-devtools.timeline', pid, tid, ts, dur, tdur });
const measure = (id, start, end, { pid = 1, tid = 1 } = {}) => [
  { name: SLICE_MEASURE, ph: 'b', cat: 'blink.user_timing', pid, tid, ts: start, id2: { local: id } },
  { name: SLICE_MEASURE, ph: 'e', cat: 'blink.user_timing', pid, tid, ts: end, id2: { local: id } },
];

test('a slice gets the thread time of the innermost task of its thread around it, or its wall time where that is less', () => {
  const events = [
    // an outer task (10 ms long, 9 ms on the CPU) holding an inner one (6.2 ms, 2.3 ms on the CPU) that ran the slice
    task(1000, 10000, 9000), task(2000, 6200, 2300),
    // tasks of another thread and of another process around the slice, shorter than its own: not the slice's
    task(2050, 6100, 100, { tid: 2 }), task(2080, 6050, 50, { pid: 2 }),
    ...measure('0x1', 2100, 8100),
    // a second slice inside a task of its own
    task(20000, 1500, 1400), ...measure('0x1', 20050, 21450),
    // a slice of 3 ms in a task of 5 ms on the CPU: at most its 3 ms were the slice's
    task(30000, 6000, 5000), ...measure('0x1', 31000, 34000),
  ];
  assert.deepEqual(sliceThreadTimes(events), [{ wall: 6, cpu: 2.3, task: true }, { wall: 1.4, cpu: 1.4, task: true }, { wall: 3, cpu: 3, task: true }]);
});

test('a measure of zero length (one \'n\' event) is a slice; measures of one id on two threads overlap and each keeps its own ends', () => {
  const events = [
    task(900, 700, 600), { name: SLICE_MEASURE, ph: 'n', cat: 'blink.user_timing', pid: 1, tid: 1, ts: 1000, id2: { local: '0x3' } },
    // the same id on threads 1 and 2, the second inside the first
    task(4900, 5200, 4000), ...measure('0x3', 5000, 10000),
    task(5900, 1200, 1000, { tid: 2 }), ...measure('0x3', 6000, 7000, { tid: 2 }),
  ];
  assert.deepEqual(sliceThreadTimes(events), [{ wall: 0, cpu: 0, task: true }, { wall: 5, cpu: 4, task: true }, { wall: 1, cpu: 1, task: true }]);
});

test('measure ends up to 200 µs outside the task (the page\'s clock is coarsened) still match it; further out, or no task, counts the wall time', () => {
  const events = [
    task(5000, 3000, 1000), ...measure('0x2', 4850, 8150),
    task(20000, 3000, 1000), ...measure('0x2', 19700, 22500),
    ...measure('0x2', 40000, 47000),
  ];
  assert.deepEqual(sliceThreadTimes(events).map((s) => [s.wall, s.cpu, s.task]), [[3.3, 1, true], [2.8, 2.8, false], [7, 7, false]]);
});

test('b and e events pair by id and thread in time order, whatever order the trace lists them in; other measures are not slices', () => {
  const events = [
    ...measure('0x7', 30000, 31000).reverse(), task(29900, 1200, 500),
    ...measure('0x8', 10000, 14000, { tid: 3 }), task(9950, 4100, 3000, { tid: 3 }),
    { name: 'other-measure', ph: 'b', cat: 'blink.user_timing', pid: 1, tid: 1, ts: 30000, id2: { local: '0x9' } },
    { name: 'other-measure', ph: 'e', cat: 'blink.user_timing', pid: 1, tid: 1, ts: 39000, id2: { local: '0x9' } },
  ];
  assert.deepEqual(sliceThreadTimes(events), [{ wall: 4, cpu: 3, task: true }, { wall: 1, cpu: 0.5, task: true }]);
});

test('the frame table states the drag length and holds each row to its verdicts', () => {
  const row = (over) => ({ figure: 'heatmap', size: 'default', prop: 'dModel', values: null, p50: 4, p95: 7.5, max: 10, render95: 2.8, cpu95: 7.6, longTasks: 0, longest: 0, slices: 12, maxSlice: 6.3, maxSliceCpu: 1.9, budget: 16.7, inputs: 32, ok: false, cpuOk: true, ...over });
  const table = framesTable([row({}), row({ size: 'largest', prop: 'base', values: { dModel: 1024, seqLen: 2048, layout: 'concat' }, budget: 33, ok: true, longTasks: 1, longest: 61.4, cpuOk: false })]);
  assert.match(table, /Each drag: 32 inputs across the control's range/);
  assert.match(table, /^Largest: dModel 1024, seqLen 2048\.$/m, 'the largest sizes: numeric values only');
  assert.match(table, /^\| dModel \| default \| 4\.0 \| 7\.5 \| 10\.0 \| 2\.8 \| 7\.6 \| 0 \| 12 \| 6\.3 \| 1\.9 \| 16\.7 \| MISSED \| met \|$/m);
  assert.match(table, /^\| base \| largest \| .* \| 1 \(61 ms\) \| .* \| 33 \| met \| MISSED \|$/m);
  // no rows (a --only that names no figure): no drag length to state
  const empty = framesTable([]);
  assert.match(empty, /No drag was measured\.$/);
  assert.doesNotMatch(empty, /Each drag/);
});
