// bench/run.mjs — everything `make bench` prints.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { COLD_START_BUDGET_MS } from './coldstart.mjs';
import { benchFrames } from './frames.mjs';
import { benchSizes } from './sizes.mjs';

/** Runs bench/`file` in a Node process of its own; returns what it printed. */
function child(file, ...args) {
  const r = spawnSync(process.execPath, [fileURLToPath(new URL(`./${file}`, import.meta.url)), ...args], { encoding: 'utf8', maxBuffer: 1 << 24 });
  if (r.status !== 0) throw new Error(`${file}: ${r.stderr}`);
  return r.stdout;
}

// Each part that allocates a lot or loads other libraries runs in a Node
// process of its own, so that what it leaves behind (hundreds of MB of
// benchmark arrays, the peers' handlers) cannot slow what is measured next —
// on 2 cores a collector sweeping a large heap competes with Chromium.
console.log('## Kernels (ms per call, fastest of 7 rounds, one run, this machine)\n');
console.log(child('kernels.mjs').trim().replace('\n\n- ', '\n\nTargets:\n- '));
console.log('\n## Peers: the same work in onnxruntime-web and TensorFlow.js (one thread each, wasm + SIMD; fastest of 5 rounds)\n');
console.log(child('peers.mjs').trim());
console.log('\n## Figures: repaint work per slider input (headless Chromium, 50 inputs)\n');
console.log((await benchFrames()).table);
console.log('\n## Sizes\n');
console.log(await benchSizes());
console.log('\n## Cold start on a phone (index.html of make demo; 4× CPU throttling, slow 4G: 150 ms, 1.6 Mbit/s; no cache; 7 loads)\n');
const cold = JSON.parse(child('coldstart.mjs', '--json'));
console.log(`first figure painted ${cold.median.toFixed(0)} ms after navigation (median; fastest ${cold.best.toFixed(0)} ms; loads ${cold.times.map((t) => t.toFixed(0)).join(', ')}); budget ${COLD_START_BUDGET_MS} ms: ${cold.median <= COLD_START_BUDGET_MS ? 'met' : 'MISSED'}`);
