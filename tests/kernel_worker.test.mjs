// kernel_worker.test.mjs — core/kernel-worker.js's message handler in Node
// (its answer() without a Worker around it): a call that names a module
// function runs it on the Worker's own instance and answers its result
// (draw/pe-error.js's peErrors, against the same function on an instance of
// the test's own), and one that names a function the module does not export
// is answered with an error naming it, not left without an answer.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';
import { init } from '../src/js/posnorm.js';
import { answer } from '../web/figures/core/kernel-worker.js';
import { peErrors } from '../web/figures/draw/pe-error.js';

const PE_ERROR = new URL('../web/figures/draw/pe-error.js', import.meta.url).href;

/** The message answer() posts for `data`. */
async function ask(data) {
  const posted = [];
  const before = globalThis.postMessage;
  globalThis.postMessage = (m) => posted.push(m);
  try {
    await answer({ data });
  } finally {
    globalThis.postMessage = before;
  }
  assert.equal(posted.length, 1);
  return posted[0];
}

test('kernel worker: a module function runs on its instance; a missing export is an error that names it', async () => {
  const module = await WebAssembly.compile(await readFile(new URL('../build/wasm/posnorm-simd.wasm', import.meta.url)));
  const pn = await init({ simd: true });
  const sizes = [{ seqLen: 300, dModel: 48, base: 10000, layout: 'interleaved' }, { seqLen: 101, dModel: 64, base: 500, dims: [0, 1, 8, 9] }, { seqLen: 20, dModel: 7, layout: 'concat' }];
  const got = await ask({ id: 1, module, calls: sizes.map((s) => ({ module: PE_ERROR, fn: 'peErrors', args: [s] })) });
  assert.equal(got.id, 1);
  assert.deepEqual(got.results, sizes.map((s) => peErrors(pn, s)));
  for (const r of got.results) assert.ok(r.posnorm > 0 && r.posnorm < 1e-7 && r.float32 > r.posnorm, JSON.stringify(r));
  const bad = await ask({ id: 2, calls: [{ module: PE_ERROR, fn: 'noSuchFunction', args: [] }] });
  assert.equal(bad.id, 2);
  assert.match(bad.error, /exports no function noSuchFunction/);
  // the instance still answers after the error
  const again = await ask({ id: 3, calls: [{ method: 'peSample', args: [{ n: 2, dim: 0, dModel: 4, start: 0, step: 1 }] }] });
  assert.deepEqual(Array.from(again.results[0]), [0, Math.fround(Math.sin(1))]);
});
