// bench/frames.mjs's reading of a Chromium trace: each background slice (a
// User Timing measure, 'b' and 'e' events) gets the thread time of the
// innermost task of its own thread that contains it, allowing for the
// page's coarsened clock; a slice no task contains counts its wall time.
// Hand-made traces, so every number below is worked out by hand.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { END_MARK, INPUT_MARK, dragValues, framesTable, inputThreadTimes, sliceThreadTimes, verdicts } from '../bench/frames.mjs';
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
  const table = framesTable([row({}), row({ size: 'largest', prop: 'base', values: { dModel: 1024, seqLen: 2048, layout: 'concat' }, budget: 33, ok: true, longTasks: 0, maxSlice: 3, cpuOk: false, cpu95: 40 })]);
  assert.match(table, /Each drag: 32 inputs across the control's range/);
  assert.match(table, /^Largest: dModel 1024, seqLen 2048\.$/m, 'the largest sizes: numeric values only');
  assert.match(table, /^\| dModel \| default \| 4\.0 \| 7\.5 \| 10\.0 \| 2\.8 \| 7\.6 \| 0 \| 12 \| 6\.3 \| 1\.9 \| 16\.7 \| MISSED \| met \|$/m);
  assert.match(table, /^\| base \| largest \| .* \| 40\.0 \| 0 \| .* \| 33 \| met \| MISSED \|$/m);
  assert.match(framesTable([row({ longTasks: 1, longest: 61.4 })]), /\| 1 \(61 ms\) \|/, 'a long task is printed with its length');
  // no rows (a --only that names no figure): no drag length to state
  const empty = framesTable([]);
  assert.match(empty, /No drag was measured\.$/);
  assert.doesNotMatch(empty, /Each drag/);
});

test('verdicts: the wall-clock one holds p95 and the longest slice, the CPU one their CPU times, both need no long task (budgets as printed: 16.7 / 33 ms, slices 4 + 1 ms)', () => {
  const base = { p95: 10, cpu95: 9, longTasks: 0, maxSlice: 3, maxSliceCpu: 2, budget: 16.7 };
  assert.deepEqual(verdicts(base), { ok: true, cpuOk: true });
  assert.deepEqual(verdicts({ ...base, p95: 16.7 }), { ok: true, cpuOk: true }, 'at the budget is within it');
  assert.deepEqual(verdicts({ ...base, p95: 16.8 }), { ok: false, cpuOk: true });
  assert.deepEqual(verdicts({ ...base, cpu95: 16.8 }), { ok: true, cpuOk: false });
  assert.deepEqual(verdicts({ ...base, longTasks: 1 }), { ok: false, cpuOk: false }, 'a long task fails both');
  assert.deepEqual(verdicts({ ...base, maxSlice: 5 }), { ok: true, cpuOk: true }, 'a slice of 4 ms + 1 ms slack is within');
  assert.deepEqual(verdicts({ ...base, maxSlice: 5.1 }), { ok: false, cpuOk: true }, 'a slice of 5.1 ms is not');
  assert.deepEqual(verdicts({ ...base, maxSliceCpu: 5.1, maxSlice: 5.1 }), { ok: false, cpuOk: false });
  assert.deepEqual(verdicts({ ...base, p95: 30, cpu95: 30, budget: 33 }), { ok: true, cpuOk: true }, 'the largest sizes have 33 ms');
});

/** A slider as the browser keeps it: a value set is clamped and snapped to the step grid from min, read back as a string. */
function fakeSlider({ min, max, step, value, name = 'x' }) {
  let v = String(value);
  return {
    tagName: 'INPUT', type: 'range', name, min: String(min), max: String(max),
    get value() { return v; },
    set value(x) {
      const n = Math.min(max, Math.max(min, Number(x)));
      v = String(min + Math.round((n - min) / step) * step);
    },
  };
}

test('dragValues: 32 values of a fine slider run evenly from min to max, each different from the one before', () => {
  const input = fakeSlider({ min: 16, max: 1024, step: 2, value: 128 });
  const v = dragValues({ input, inputs: 32 });
  assert.equal(v.length, 32);
  assert.equal(v[0], '16');
  assert.equal(v[31], '1024');
  assert.equal(v[1], '48', '16 + 1008/31 = 48.5, snapped to the step of 2 from 16');
  for (let k = 1; k < 32; k++) assert.ok(Number(v[k]) > Number(v[k - 1]), `value ${k} goes on up`);
  assert.equal(input.value, '128', 'the control is left as it was');
});

test('dragValues: a slider of four values goes back and forth across them, never repeating a value, starting off its current value', () => {
  const input = fakeSlider({ min: 1, max: 4, step: 1, value: 1 });
  const v = dragValues({ input, inputs: 10 });
  assert.deepEqual(v, ['2', '3', '4', '3', '2', '1', '2', '3', '4', '3']);
  const from3 = dragValues({ input: fakeSlider({ min: 1, max: 4, step: 1, value: 3 }), inputs: 5 });
  assert.deepEqual(from3, ['1', '2', '3', '4', '3']);
  assert.throws(() => dragValues({ input: fakeSlider({ min: 5, max: 5, step: 1, value: 5 }), inputs: 4 }), /one value/);
  assert.throws(() => dragValues({ input: { tagName: 'TEXTAREA', type: 'textarea', name: 'config-json', value: '' }, inputs: 4 }), /config-json is not a slider or a select/);
});

test('dragValues: a select goes through its options in turn from the one after the current', () => {
  const input = { tagName: 'SELECT', value: 'b', options: ['a', 'b', 'c'].map((value) => ({ value })) };
  assert.deepEqual(dragValues({ input, inputs: 5 }), ['c', 'a', 'b', 'c', 'a']);
  assert.throws(() => dragValues({ input: { tagName: 'SELECT', name: 'only', value: 'a', options: [{ value: 'a' }] }, inputs: 3 }), /only has one value/);
});

test('inputThreadTimes: each input gets the thread time of the outermost tasks of its thread that end from its mark to the next (the last: to the end mark)', () => {
  const mark = (name, ts, { pid = 1, tid = 1 } = {}) => ({ name, ph: 'R', cat: 'blink.user_timing', pid, tid, ts });
  const events = [
    task(500, 300, 250), // ends before the first input: not counted
    // input 0: the task that dispatched it (its mark inside), a frame with a nested task, a background slice
    task(1000, 1000, 900), mark(INPUT_MARK, 1100), task(2500, 3000, 2000), task(2600, 1000, 800), task(6000, 1500, 1200),
    task(6000, 1500, 1400, { tid: 2 }), // another thread: not counted
    // input 1: one task, and a task ending after the end mark (not counted)
    task(9000, 2000, 1700), mark(INPUT_MARK, 9050), mark(END_MARK, 12000), task(12500, 1000, 900),
  ];
  const cpu = inputThreadTimes(events);
  assert.equal(cpu.length, 2);
  assert.ok(Math.abs(cpu[0] - 4.1) < 1e-12, `0.9 + 2.0 + 1.2 ms, the nested task inside its parent (${cpu[0]})`);
  assert.ok(Math.abs(cpu[1] - 1.7) < 1e-12, `${cpu[1]}`);
  assert.throws(() => inputThreadTimes([task(0, 10, 10)]), /no input mark/);
  assert.throws(() => inputThreadTimes([mark(INPUT_MARK, 10)]), /no end mark/);
});
