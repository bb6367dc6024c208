// bench/run.mjs — everything `make bench` prints.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { COLD_START_BUDGET_MS } from './coldstart.mjs';
import { benchFrames } from './frames.mjs';
import { benchKernels } from './kernels.mjs';
import { benchSizes } from './sizes.mjs';

/** Runs bench/`file` in a Node process of its own; returns what it printed. */
function child(file, ...args) {
  const r = spawnSync(process.execPath, [fileURLToPath(new URL(`./${file}`, import.meta.url)), ...args], { encoding: 'utf8', maxBuffer: 1 << 24 });
  if (r.status !== 0) throw new Error(`${file}: ${r.stderr}`);
  return r.stdout;
}

const kernels = await benchKernels();
console.log('## Kernels (ms per call, fastest of 7 rounds, one run, this machine)\n');
console.log(kernels.table);
console.log('\nTargets:');
console.log(kernels.checks.join('\n'));
console.log('\n## Peers: the same work in onnxruntime-web and TensorFlow.js (one thread each, wasm + SIMD; fastest of 5 rounds)\n');
// in a process of its own: the peers' modules install process handlers and
// wasm instances of their own, which should not share a process with the
// kernel timings above
console.log(child('peers.mjs').trim());
console.log('\n## Figures: repaint work per slider input (headless Chromium, 50 inputs)\n');
console.log((await benchFrames()).table);
console.log('\n## Sizes\n');
console.log(await benchSizes());
console.log('\n## Cold start on a phone (index.html of make demo; 4× CPU throttling, slow 4G: 150 ms, 1.6 Mbit/s; no cache; 7 loads)\n');
// in a process of its own, so nothing left over from the runs above (a heap of
// benchmark arrays, a busy event loop) slows the server it measures
const cold = JSON.parse(child('coldstart.mjs', '--json'));
console.log(`first figure painted ${cold.median.toFixed(0)} ms after navigation (median; fastest ${cold.best.toFixed(0)} ms; loads ${cold.times.map((t) => t.toFixed(0)).join(', ')}); budget ${COLD_START_BUDGET_MS} ms: ${cold.median <= COLD_START_BUDGET_MS ? 'met' : 'MISSED'}`);
