// bench/run.mjs — everything `make bench` prints.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { COLD_START_BUDGET_MS } from './coldstart.mjs';
import { benchFrames } from './frames.mjs';
import { benchKernels } from './kernels.mjs';
import { benchPeers } from './peers.mjs';
import { benchSizes } from './sizes.mjs';

const kernels = await benchKernels();
console.log('## Kernels (ms per call, fastest of 7 rounds, one run, this machine)\n');
console.log(kernels.table);
console.log('\nTargets:');
console.log(kernels.checks.join('\n'));
console.log('\n## Peers: the same work in onnxruntime-web and TensorFlow.js (one thread each, wasm + SIMD; fastest of 5 rounds)\n');
console.log((await benchPeers()).table);
console.log('\n## Figures: repaint work per slider input (headless Chromium, 50 inputs)\n');
console.log((await benchFrames()).table);
console.log('\n## Sizes\n');
console.log(await benchSizes());
console.log('\n## Cold start on a phone (index.html of make demo; 4× CPU throttling, slow 4G: 150 ms, 1.6 Mbit/s; no cache; 7 loads)\n');
// in a process of its own, so nothing left over from the runs above (a heap of
// benchmark arrays, a busy event loop) slows the server it measures
const child = spawnSync(process.execPath, [fileURLToPath(new URL('./coldstart.mjs', import.meta.url)), '--json'], { encoding: 'utf8' });
if (child.status !== 0) throw new Error(child.stderr);
const cold = JSON.parse(child.stdout);
console.log(`first figure painted ${cold.median.toFixed(0)} ms after navigation (median; fastest ${cold.best.toFixed(0)} ms; loads ${cold.times.map((t) => t.toFixed(0)).join(', ')}); budget ${COLD_START_BUDGET_MS} ms: ${cold.median <= COLD_START_BUDGET_MS ? 'met' : 'MISSED'}`);
