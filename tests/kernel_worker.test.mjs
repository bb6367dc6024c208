// kernel_worker.test.mjs — worker/kernel-worker.js's message handler in Node
// (its answer() without a Worker around it): a call that names one of its
// FUNCTIONS runs it on the Worker's own instance and answers its result
// (draw/pe-error.js's peErrors: held to a max error taken here from float64
// sin/cos, and to the same function on the test's own instance), and a call
// that names no such function is answered with an error naming it, not left
// without an answer.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';
import { init } from '../src/js/posnorm.js';
import { answer } from '../web/figures/worker/kernel-worker.js';
import { peErrors } from '../web/figures/draw/pe-error.js';
import { maxErrorVsFloat64 } from './reference/pe.mjs';

/** The message answer() (or another copy's `answerWith`) posts for `data`. */
async function ask(data, answerWith = answer) {
  const posted = [];
  const before = globalThis.postMessage;
  globalThis.postMessage = (m) => posted.push(m);
  try {
    await answerWith({ data });
  } finally {
    globalThis.postMessage = before;
  }
  assert.equal(posted.length, 1);
  return posted[0];
}

test('kernel worker: one of its functions runs on its instance; an unknown one is an error that names it', async () => {
  const module = await WebAssembly.compile(await readFile(new URL('../build/wasm/posnorm-simd.wasm', import.meta.url)));
  const pn = await init({ simd: true });
  const sizes = [{ seqLen: 300, dModel: 48, base: 10000, layout: 'interleaved' }, { seqLen: 101, dModel: 64, base: 500, dims: [0, 1, 8, 9] }, { seqLen: 20, dModel: 7, layout: 'concat' }];
  const got = await ask({ id: 1, module, calls: sizes.map((s) => ({ fn: 'peErrors', args: [s] })) });
  assert.equal(got.id, 1);
  assert.deepEqual(got.results, sizes.map((s) => peErrors(pn, s)));
  // the first, from float64 sin/cos here: column c of row p is sin (even c)
  // or cos (odd c) of p·base^(-2⌊c/2⌋/dModel)
  const { seqLen, dModel, base } = sizes[0];
  const e64 = maxErrorVsFloat64(pn.positionalEncoding({ seqLen, dModel, base }), { seqLen, dModel, base });
  const e32 = maxErrorVsFloat64(pn.positionalEncoding({ seqLen, dModel, base, precision: 'float32' }), { seqLen, dModel, base });
  assert.ok(Math.abs(got.results[0].posnorm - e64) <= 1e-12 && Math.abs(got.results[0].float32 - e32) <= 1e-12, `${JSON.stringify(got.results[0])} vs ${e64}, ${e32}`);
  for (const r of got.results) assert.ok(r.posnorm > 0 && r.posnorm < 1e-7 && r.float32 > r.posnorm, JSON.stringify(r));
  const bad = await ask({ id: 2, calls: [{ fn: 'noSuchFunction', args: [] }, { fn: 'toString', args: [] }] });
  assert.equal(bad.id, 2);
  assert.match(bad.error, /no function noSuchFunction/);
  assert.match((await ask({ id: 3, calls: [{ fn: 'toString', args: [] }] })).error, /no function toString/, 'only its own functions, not inherited ones');
  // the instance still answers after the errors
  const again = await ask({ id: 4, calls: [{ method: 'peSample', args: [{ n: 2, dim: 0, dModel: 4, start: 0, step: 1 }] }] });
  assert.deepEqual(Array.from(again.results[0]), [0, Math.fround(Math.sin(1))]);
});

test('the kernel Worker\'s imports never lead back to the module that starts it (a bundler following new Worker(new URL(…)) would go round: Turbopack never finished)', async () => {
  const { readFile: read } = await import('node:fs/promises');
  const { fileURLToPath } = await import('node:url');
  const { importGraph } = await import('./import-graph.mjs');
  const seen = await importGraph(new URL('../web/figures/worker/kernel-worker.js', import.meta.url));
  const files = [...seen].map((h) => h.slice(h.indexOf('/web/') >= 0 ? h.indexOf('/web/') : h.indexOf('/src/')));
  assert.ok(files.includes('/web/figures/draw/pe-errors.js') && files.some((f) => f.endsWith('/src/js/posnorm-core.js')), files.join(', '));
  const starters = [];
  // the code, without its comments (which may say `new Worker(` in prose)
  const code = (text) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  for (const h of seen) if (/new Worker\s*\(/.test(code(await read(fileURLToPath(h), 'utf8')))) starters.push(h);
  assert.deepEqual(starters, [], 'a module the Worker imports starts the Worker');
});

test('kernel worker: a module it cannot start posnorm from is a fatal answer, to that request and every later one', async () => {
  // a fresh copy of the Worker's module: its instance is module state
  const { answer: answerFresh } = await import('../web/figures/worker/kernel-worker.js?fatal');
  const asked = (data) => ask(data, answerFresh);
  const noModule = await asked({ id: 1, calls: [{ fn: 'peErrors', args: [{ seqLen: 2, dModel: 4 }] }] });
  assert.equal(noModule.fatal, true, 'no module sent: no instance');
  const empty = new WebAssembly.Module(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]));
  const first = await asked({ id: 2, module: empty, calls: [{ fn: 'peErrors', args: [{ seqLen: 2, dModel: 4 }] }] });
  assert.equal(first.id, 2);
  assert.equal(first.fatal, true);
  assert.match(first.error, /posnorm/);
  const later = await asked({ id: 3, calls: [{ fn: 'peErrors', args: [{ seqLen: 2, dModel: 4 }] }] });
  assert.equal(later.fatal, true);
  // a call that throws on a working instance is not fatal
  const module = await WebAssembly.compile(await readFile(new URL('../build/wasm/posnorm-simd.wasm', import.meta.url)));
  const bad = await asked({ id: 4, module, calls: [{ fn: 'peErrors', args: [{ seqLen: -1, dModel: 4 }] }] });
  assert.ok(bad.error && !bad.fatal, JSON.stringify(bad));
});
