// kernel_task.test.mjs — core/off-thread.js's KernelTask in Node against a
// Worker the test answers by hand: what a call that throws in the Worker
// does (that key once on the main thread, the next keys in the Worker
// again), against a Worker that fails (given up for the page), with keys
// arriving while a call is in flight or while the main thread runs one, and
// keys that come as a drag's do (each soon after the last).
// Each test imports off-thread.js afresh: the page's Worker is module state.
import assert from 'node:assert/strict';
import { test } from 'node:test';

/** The requests the page sent its Worker (those with calls), in order. */
const sent = [];
let worker = null;
globalThis.Worker = class {
  constructor() { worker = this; }
  postMessage(m) { if (m.calls) sent.push(m); }
  terminate() { this.terminated = true; }
};
// the smallest module there is: what the page's instance would post
const pn = { module: new WebAssembly.Module(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0])) };
let fresh = 0;
async function kernelTask(onResult, options) {
  sent.length = 0;
  worker = null;
  const { KernelTask } = await import(`../web/figures/core/off-thread.js?test=${fresh++}`);
  return new KernelTask('k', onResult, options);
}
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const answerOk = (m, results) => worker.onmessage({ data: { id: m.id, results, longestCall: 1 } });
const answerThrew = (m) => worker.onmessage({ data: { id: m.id, error: 'RangeError: out of memory' } });
const keyOf = (m) => m.calls[0].args[0];
/** A job for `key`: its call for the Worker, and the same work in slices (logged in `main`, 3 units, result `main:key`). */
const job = (key, main) => ({
  offThread: () => ({ pn, calls: [{ fn: 'f', args: [key] }] }),
  sliced: function* () {
    main.push(key);
    yield;
    yield;
    return `main:${key}`;
  },
});

test('KernelTask: a call that throws in the Worker runs its key once on the main thread; repaints do not run it again; the next key goes to the Worker', async () => {
  const results = [], main = [];
  // (settleMs 0: these keys follow one another within a drag's window, and
  // are to be sent at once; the wait for a drag to pause is tested below)
  const task = await kernelTask((v, k) => results.push([k, v]), { settleMs: 0 });
  task.run('A', job('A', main));
  assert.deepEqual(sent.map(keyOf), ['A']);
  answerThrew(sent[0]);
  await sleep(0);
  assert.equal(task.key, 'A');
  assert.equal(task.offThread, false, 'A runs on the main thread');
  assert.equal(task.run('A', job('A', main)), false, 'a repaint while it runs starts nothing');
  await sleep(30);
  assert.deepEqual(results, [['A', 'main:A']]);
  assert.deepEqual(main, ['A'], 'once on the main thread');
  assert.equal(task.run('A', job('A', main)), false, 'nor a repaint after it');
  task.run('B', job('B', main));
  assert.deepEqual(sent.map(keyOf), ['A', 'B'], 'the next key goes to the Worker');
  assert.equal(task.offThread, true);
  answerOk(sent[1], ['worker:B']);
  await sleep(0);
  assert.deepEqual(results, [['A', 'main:A'], ['B', ['worker:B']]]);
  assert.equal(task.key, 'B');
  assert.equal(task.run('B', job('B', main)), false);
  assert.deepEqual(main, ['A']);
});

test('KernelTask: a call that throws for a key no longer wanted sends the key that waited, and runs nothing on the main thread', async () => {
  const results = [], main = [];
  // (settleMs 0: these keys follow one another within a drag's window, and
  // are to be sent at once; the wait for a drag to pause is tested below)
  const task = await kernelTask((v, k) => results.push([k, v]), { settleMs: 0 });
  task.run('A', job('A', main));
  task.run('B', job('B', main));
  assert.deepEqual(sent.map(keyOf), ['A'], 'B waits while A is in flight');
  answerThrew(sent[0]);
  await sleep(0);
  assert.deepEqual(sent.map(keyOf), ['A', 'B']);
  answerOk(sent[1], ['worker:B']);
  await sleep(20);
  assert.deepEqual(results, [['B', ['worker:B']]]);
  assert.deepEqual(main, []);
});

test('KernelTask: a new key while the main thread runs a failed call drops that run and goes to the Worker', async () => {
  const results = [], main = [];
  // (settleMs 0: these keys follow one another within a drag's window, and
  // are to be sent at once; the wait for a drag to pause is tested below)
  const task = await kernelTask((v, k) => results.push([k, v]), { settleMs: 0 });
  task.run('A', job('A', main));
  answerThrew(sent[0]);
  await sleep(0);
  task.run('B', job('B', main));
  assert.deepEqual(sent.map(keyOf), ['A', 'B']);
  assert.equal(task.key, 'B');
  assert.equal(task.offThread, true);
  await sleep(30);
  assert.deepEqual(results, [], 'A\'s main-thread run was dropped');
  answerOk(sent[1], ['worker:B']);
  await sleep(0);
  assert.deepEqual(results, [['B', ['worker:B']]]);
  assert.equal(task.run('B', job('B', main)), false, 'B is known: a repaint starts nothing');
  assert.equal(sent.length, 2);
});

test('KernelTask: a Worker whose posnorm could not start (a fatal answer) is given up for the page: that key and every later one run on the main thread', async () => {
  const results = [], main = [];
  const task = await kernelTask((v, k) => results.push([k, v]));
  task.run('A', job('A', main));
  worker.onmessage({ data: { id: sent[0].id, error: 'Error: posnorm.init: out of memory', fatal: true } });
  await sleep(30);
  assert.ok(worker.terminated, 'the Worker was stopped');
  assert.deepEqual(results, [['A', 'main:A']]);
  task.run('B', job('B', main));
  await sleep(30);
  assert.deepEqual(results, [['A', 'main:A'], ['B', 'main:B']]);
  assert.deepEqual(sent.map(keyOf), ['A'], 'nothing more was sent');
  assert.equal(task.offThread, false);
  // another task of the page does not try it either
  const { KernelTask } = await import(`../web/figures/core/off-thread.js?test=${fresh - 1}`);
  const other = new KernelTask('other', (v, k) => results.push([k, v]));
  other.run('C', job('C', main));
  await sleep(30);
  assert.deepEqual(sent.map(keyOf), ['A']);
  assert.deepEqual(results.at(-1), ['C', 'main:C']);
});

test('KernelTask: the keys of a drag (each within settleMs of the one before) wait until the drag pauses, and only the last is sent; the first key and a key after a pause go at once', async () => {
  // the drag (12 keys 50 ms apart) lasts longer than settleMs, so a wait
  // counted from its first key, or from the last request sent, would send
  // keys during it; settleMs is long against the 50 ms steps, so a loaded
  // machine (timers late by a couple of hundred ms) cannot end the drag
  // early; every check of time is a lower bound (timers are never early)
  const SETTLE = 400, STEP = 50, KEYS = 12;
  const results = [], main = [];
  const task = await kernelTask((v, k) => results.push([k, v]), { settleMs: SETTLE });
  task.run('A', job('A', main));
  assert.deepEqual(sent.map(keyOf), ['A'], 'the first key is sent at once');
  const sentAt = [];
  const send = worker.postMessage.bind(worker);
  worker.postMessage = (m) => { if (m.calls) sentAt.push(performance.now()); send(m); };
  const drag = Array.from({ length: KEYS }, (_, i) => `K${i}`);
  let lastAt = 0;
  for (const [i, k] of drag.entries()) {
    if (i > 0) await sleep(STEP);
    lastAt = performance.now();
    task.run(k, job(k, main));
    // A's answer comes while the drag's key waits: the Worker is free, yet
    // the waiting key stays until it has settled
    if (i === 2) {
      answerOk(sent[0], ['worker:A']);
      await sleep(0);
      assert.deepEqual(sent.map(keyOf), ['A'], 'a free Worker does not cut a drag\'s wait short');
    }
  }
  assert.deepEqual(sent.map(keyOf), ['A'], `nothing of a drag of ${KEYS * STEP} ms is sent while it goes on`);
  assert.deepEqual(results, [], 'A\'s answer came after A was left behind');
  assert.equal(task.key, drag.at(-1));
  while (sent.length < 2) await sleep(10);
  assert.deepEqual(sent.map(keyOf), ['A', drag.at(-1)], 'once the last key has stayed, it alone is sent');
  assert.ok(sentAt[0] - lastAt >= SETTLE - 2, `the last key was sent ${sentAt[0] - lastAt} ms after it came, not after settleMs`);
  answerOk(sent[1], ['worker:last']);
  await sleep(0);
  assert.deepEqual(results, [[drag.at(-1), ['worker:last']]]);
  // a key after a pause longer than settleMs is sent at once again
  await sleep(SETTLE + 20);
  task.run('E', job('E', main));
  assert.deepEqual(sent.map(keyOf), ['A', drag.at(-1), 'E']);
  answerOk(sent[2], ['worker:E']);
  // a repaint with the key shown is no key change: the next key, right after it, still goes at once
  await sleep(SETTLE + 20);
  assert.equal(task.run('E', job('E', main)), false);
  task.run('F', job('F', main));
  assert.deepEqual(sent.map(keyOf), ['A', drag.at(-1), 'E', 'F'], 'a repaint (same key) does not start a drag');
  // (answered, so that no request is left waiting on REQUEST_LIMIT_MS's timer)
  answerOk(sent[3], ['worker:F']);
  await sleep(0);
  assert.deepEqual(results.map(([k]) => k), [drag.at(-1), 'E', 'F']);
  assert.deepEqual(main, [], 'nothing ran on the main thread');
});
