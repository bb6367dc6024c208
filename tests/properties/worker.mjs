// worker.mjs — runs the property of each call of the JS API on one build,
// inside a worker_threads Worker, telling the main thread every input before
// it runs (so a watchdog there can name an input that hangs) and how many
// runs succeeded (the valid fraction).
import assert from 'node:assert/strict';
import { parentPort, workerData } from 'node:worker_threads';
import fc from 'fast-check';
import { init } from '../../src/js/posnorm.js';
import { ARBITRARIES } from './arbitraries.mjs';
import { Setup, build, outBytes } from './calls.mjs';
import { probes } from './probes.mjs';

const { simd, calls, runs, seconds, seed } = workerData;
const post = (m) => parentPort.postMessage(m);
const GENERIC = /kernel rejected its arguments \((a required pointer|a size|an argument)/;

const pn = await init({ simd });
const other = await init({ simd });
const reference = probes(await init({ simd }));
const baseline = pn.heapStats();

/** Plain text of a spec for the reports (BigInt and typed arrays included). */
function show(spec) {
  return JSON.stringify(spec, (k, v) => (typeof v === 'bigint' ? `${v}n` : ArrayBuffer.isView(v) ? `${v.constructor.name}(${v.length})` : Number.isNaN(v) ? 'NaN' : v === Infinity ? 'Infinity' : v === -Infinity ? '-Infinity' : Object.is(v, -0) ? '-0' : v));
}

/** One run: the call succeeds with the documented shapes, or throws a named TypeError/RangeError and changes nothing. */
function runOne(name, spec, tally) {
  post({ type: 'input', call: name, spec: show(spec) });
  const setup = new Setup(pn, other);
  try {
    const call = build(name, spec, setup);
    const before = pn.heapStats();
    const outBefore = outBytes(call.out);
    let result, error;
    try {
      result = call.invoke();
    } catch (e) {
      error = e;
    }
    tally.runs++;
    if (error) {
      assert.ok(error instanceof TypeError || error instanceof RangeError, `${name}: threw ${error?.name}: ${error?.message}`);
      const prefix = name === 'alloc' ? /^posnorm\.(alloc|PnBuffer\.\w+): / : new RegExp(`^posnorm\\.${name}: `);
      assert.match(error.message, prefix);
      assert.doesNotMatch(error.message, GENERIC, 'a JS check comes before every kernel precondition');
      assert.deepEqual(pn.heapStats(), before, 'after a throw the instance holds what it held, and its memory did not grow');
      if (outBefore) assert.deepEqual(outBytes(call.out), outBefore, 'after a throw out is unchanged');
    } else {
      tally.valid++;
      call.expect(result);
    }
  } finally {
    setup.release();
  }
  const after = pn.heapStats();
  assert.deepEqual([after.allocations, after.bytes], [baseline.allocations, baseline.bytes], 'nothing leaked');
  const now = probes(pn);
  for (const [k, bytes] of now.entries()) {
    assert.ok(Buffer.compare(bytes, reference[k]) === 0, `probe ${k} differs from a fresh instance after ${name} ${show(spec)}`);
  }
}

for (const name of calls) {
  const tally = { runs: 0, valid: 0 };
  const started = Date.now();
  if (name === '__hang') {
    // the watchdog's own test: an input that never returns
    post({ type: 'input', call: name, spec: '{"loop":"forever"}' });
    for (;;);
  }
  const property = fc.property(ARBITRARIES[name], (spec) => runOne(name, spec, tally));
  const params = { seed: seed + calls.indexOf(name), numRuns: seconds ? 1e9 : runs, endOnFailure: false };
  if (seconds) params.interruptAfterTimeLimit = (seconds * 1000) / calls.length;
  const details = fc.check(property, params);
  post({
    type: 'done', call: name, runs: tally.runs, valid: tally.valid, ms: Date.now() - started, seed: params.seed,
    failed: details.failed, counterexample: details.counterexample ? show(details.counterexample[0]) : null,
    error: details.failed ? String(details.errorInstance?.stack ?? details.error).split('\n').slice(0, 6).join('\n') : null,
    shrinks: details.numShrinks,
  });
}
post({ type: 'end' });
