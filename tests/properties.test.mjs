// Property-based tests of the whole public JS API (fast-check), both builds.
//
// Every call gets inputs from tests/properties/arbitraries.mjs — about half
// within every documented range, half with one argument out of it (0, −0,
// subnormals, ±Inf, NaN, 2^31, 2^32 + 1, strings, null, arrays of the wrong
// type or length, freed, foreign or detached buffers, aliasing or too-small
// `out`, shapes whose byte counts pass 32 bits). For each input
// (tests/properties/worker.mjs): the call returns the documented shapes
// (finite values where posnorm.h promises them for finite input), or throws
// a TypeError/RangeError whose message starts with `posnorm.<call>: ` and is
// never the kernel's generic rejection; after a throw `out` and
// `heapStats()` are unchanged; nothing leaks; and the instance then gives
// the same bytes as a fresh one on a fixed set of probe calls. (The inputs
// here throw before a call allocates: the wrapper checks every argument
// first. A throw after it allocated, from the kernel or from a caller's
// getter run during the call, is tests/api.test.mjs's and
// tests/arguments_during_call.test.mjs's; make mutate's
// js-frame-not-released-on-throw is caught there, not here.)
//
// Each build runs in a worker_threads Worker that reports every input
// before running it; a watchdog here terminates a worker that makes no
// progress for WATCHDOG_MS and fails with the input that hung.
//
// PROPERTY_RUNS (runs per call, default 600: 13,200 runs per build over its 22 calls, about 40 s of both builds on 2 busy
// cores; 1000 took 66 s with two other builds running) or PROPERTY_SECONDS (a time
// budget per build, spread over the calls; `make fuzz`), PROPERTY_SEED.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Worker } from 'node:worker_threads';
import { ARBITRARIES } from './properties/arbitraries.mjs';

const CALLS = Object.keys(ARBITRARIES);
const RUNS = Number(process.env.PROPERTY_RUNS) || 600;
const SECONDS = Number(process.env.PROPERTY_SECONDS) || 0;
const SEED = Number(process.env.PROPERTY_SEED ?? 1616);
const WATCHDOG_MS = 20000;

/** Runs the worker; resolves with the per-call results, or with the input that hung. */
function runWorker({ simd, calls, runs = RUNS, seconds = SECONDS, seed = SEED, watchdogMs = WATCHDOG_MS }) {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./properties/worker.mjs', import.meta.url), { workerData: { simd, calls, runs, seconds, seed } });
    const results = {};
    let last = null, timer;
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        worker.terminate();
        resolve({ results, hang: last, after: watchdogMs });
      }, watchdogMs);
    };
    arm();
    worker.on('message', (m) => {
      arm();
      if (m.type === 'input') last = m;
      else if (m.type === 'done') results[m.call] = m;
      else if (m.type === 'end') { clearTimeout(timer); worker.terminate(); resolve({ results, hang: null }); }
    });
    worker.on('error', (e) => { clearTimeout(timer); reject(e); });
  });
}

const started = Date.now();
const [simdRun, scalarRun] = await Promise.all([runWorker({ simd: true, calls: CALLS }), runWorker({ simd: false, calls: CALLS })]);
const wall = Date.now() - started;

for (const [name, run] of [['simd', simdRun], ['scalar', scalarRun]]) {
  test(`${name}: every call of the API keeps its contract on arbitrary inputs (fast-check, ${SECONDS ? `${SECONDS} s` : `${RUNS} runs per call`}, seed ${SEED})`, (t) => {
    assert.equal(run.hang, null, run.hang && `the worker made no progress for ${run.after} ms on ${run.hang.call}(${run.hang.spec})`);
    let runs = 0;
    const lines = [];
    for (const call of CALLS) {
      const r = run.results[call];
      assert.ok(r, `${call} ran`);
      runs += r.runs;
      lines.push(`${call.padEnd(19)} ${String(r.runs).padStart(6)} runs, ${(100 * r.valid / r.runs).toFixed(0).padStart(3)}% valid, ${r.ms} ms`);
    }
    t.diagnostic(`${name}: ${runs} runs in ${wall} ms (both builds in parallel)\n${lines.join('\n')}`);
    if (process.env.PROPERTY_REPORT) console.log(`${name}: ${runs} runs (seed ${SEED})\n${lines.join("\n")}`);
    for (const call of CALLS) {
      const r = run.results[call];
      assert.ok(!r.failed, `${call}: counterexample (seed ${r.seed}, ${r.shrinks} shrinks) ${r.counterexample}\n${r.error}`);
      assert.ok(r.valid >= 0.1 * r.runs && r.valid <= 0.9 * r.runs, `${call}: ${r.valid} of ${r.runs} runs succeeded; both paths must be exercised`);
    }
  });
}

test('the watchdog terminates a worker that hangs and names the input', async () => {
  const r = await runWorker({ simd: true, calls: ['__hang'], watchdogMs: 3000 });
  assert.equal(r.hang?.call, '__hang');
  assert.equal(r.hang.spec, '{"loop":"forever"}');
});
