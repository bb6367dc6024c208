// bench/timing.mjs's timeAll, which times every row of make bench's kernel
// and peer tables: after calibrating each function it runs all of them in
// turn round by round (side by side), keeps each one's fastest round, and
// calls a synchronous function in a plain loop (no await between calls).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { timeAll } from '../bench/timing.mjs';

const busy = (ms) => { const end = performance.now() + ms; while (performance.now() < end); };

test('timeAll: after each function is calibrated, every round runs all of them in turn (side by side)', async () => {
  const calls = [];
  const t = await timeAll({ a: () => { calls.push('a'); }, b: async () => { calls.push('b'); } }, { minMs: 0, rounds: 3 });
  // calibration: a warm-up call and one call of each (a round of 0 ms is long enough), then 3 rounds of a, b
  assert.deepEqual(calls, ['a', 'a', 'b', 'b', 'a', 'b', 'a', 'b', 'a', 'b']);
  assert.deepEqual(Object.keys(t), ['a', 'b']);
  assert.ok(Object.values(t).every((v) => v >= 0 && Number.isFinite(v)));
});

test('timeAll keeps each function\'s fastest round, not its last or its mean', async () => {
  // calls 1-2 calibrate; the rounds then take 1, 12 and 12 ms
  let calls = 0;
  const t = await timeAll({ a: async () => { calls++; busy(calls === 3 ? 1 : calls > 3 ? 12 : 0); } }, { minMs: 0, rounds: 3 });
  assert.equal(calls, 5);
  assert.ok(t.a >= 1 && t.a < 6, `fastest round 1 ms: ${t.a}`);
});

test('timeAll calls a synchronous function back to back, an async one awaited call by call', async () => {
  // a round of a synchronous function runs in one go: no microtask (a promise's callback) between its calls
  // (each call queues one; a call that finds fewer run than calls made had none run since the last call)
  let sync = 0, between = 0, backToBack = 0;
  const t = await timeAll({
    s: () => { if (between < sync) backToBack++; sync++; Promise.resolve().then(() => { between++; }); busy(0.2); },
  }, { minMs: 8, rounds: 2 });
  assert.ok(sync > 4, `calibrated to several calls a round (${sync} calls)`);
  assert.ok(backToBack > sync / 2, `most calls ran straight after the one before (${backToBack} of ${sync})`);
  // an async function: each call is awaited before the next starts
  // (microtask waits: short enough that a round takes many calls)
  let running = 0, overlap = false, calls = 0;
  await timeAll({ a: async () => { calls++; running++; if (running > 1) overlap = true; await Promise.resolve(); await Promise.resolve(); running--; } }, { minMs: 4, rounds: 2 });
  assert.ok(calls > 2 + 2 * 4, `several calls a round (${calls})`);
  assert.equal(overlap, false, 'async calls never overlap');
  assert.ok(t.s > 0.1, `${t.s}`);
});
