// heap.mjs — test helpers that drive a posnorm instance's memory: fill the
// heap so that the next allocation of a call must grow the memory (which
// detaches every view of it), and run a function in a worker under a time
// limit (a hang fails instead of stalling the suite).
import { Worker } from 'node:worker_threads';

/**
 * On an instance without freed holes (a fresh one), allocates u8c fillers until the heap reaches within about `slack` bytes
 * of the end of the memory, so that any later allocation larger than that
 * grows the memory. Returns the fillers (free them when done).
 */
export function fillHeap(pn, slack = 4096) {
  const fillers = [];
  for (let tries = 0; tries < 16; tries++) {
    const size = pn.memory.buffer.byteLength;
    const probe = pn.alloc(16, 'u8c');
    const room = size - (probe.ptr + 16) - slack;
    probe.free();
    if (room < 64) return fillers;
    fillers.push(pn.alloc(room, 'u8c'));
    if (pn.memory.buffer.byteLength === size) return fillers; // filled without growing: done
  }
  throw new Error('fillHeap: the heap did not fill');
}

/** Frees buffers (fillers or others). */
export function freeAll(buffers) {
  for (const b of buffers) b.free();
}

/**
 * Runs `source` (the body of an async function of `pn`, as text, whose
 * return value is structured-cloned back) in a worker on a fresh instance of
 * the given build, and rejects when it takes longer than `ms`: the worker is
 * terminated, so a kernel that never returns fails the test instead of
 * stalling it.
 */
export function inWorker(source, { simd, ms = 10000 }) {
  const url = new URL('../../src/js/posnorm.js', import.meta.url).href;
  const code = `
    const { parentPort, workerData } = require('node:worker_threads');
    import(workerData.url).then(async ({ init }) => {
      const pn = await init({ simd: workerData.simd });
      try {
        const value = await (async (pn) => { ${source} })(pn);
        parentPort.postMessage({ ok: true, value });
      } catch (e) {
        parentPort.postMessage({ ok: false, name: e?.name, message: e?.message });
      }
    });`;
  return new Promise((resolve, reject) => {
    const worker = new Worker(code, { eval: true, workerData: { url, simd } });
    const timer = setTimeout(() => {
      worker.terminate();
      reject(new Error(`no answer within ${ms} ms (the call hung): ${source.trim()}`));
    }, ms);
    worker.once('message', (m) => { clearTimeout(timer); worker.terminate(); resolve(m); });
    worker.once('error', (e) => { clearTimeout(timer); reject(e); });
  });
}
