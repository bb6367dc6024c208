// bench/run.mjs — everything `make bench` prints, also written to
// docs/benchmarks.md with the machine, the date and the command, so the
// published tables are always a run's own output, never edited by hand.
import { execFileSync, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { thisCpu } from './cpu.mjs';
import { fileURLToPath } from 'node:url';
import { COLD_START_BUDGET_MS } from './coldstart.mjs';
import { benchFrames } from './frames.mjs';
import { measureRaster, rasterTable } from './raster.mjs';
import { benchSizes } from './sizes.mjs';

/** Runs bench/`file` in a Node process of its own; returns what it printed. */
function child(file, ...args) {
  const r = spawnSync(process.execPath, [fileURLToPath(new URL(`./${file}`, import.meta.url)), ...args], { encoding: 'utf8', maxBuffer: 1 << 24 });
  if (r.status !== 0) throw new Error(`${file}: ${r.stderr}`);
  return r.stdout;
}

const report = [];
/** Prints a block and keeps it for docs/benchmarks.md. */
function out(text) {
  console.log(text);
  report.push(text);
}

/** What this run ran on: CPU model, count and caches, Node and Chromium versions. */
function machine() {
  let chromium = 'Chromium (version unknown)';
  try {
    chromium = execFileSync(process.env.CHROMIUM_PATH || '/usr/bin/chromium', ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch { /* reported as unknown */ }
  return `${thisCpu()}; Node ${process.version}; ${chromium}`;
}

// Each part that allocates a lot or loads other libraries runs in a Node
// process of its own, so that what it leaves behind (hundreds of MB of
// benchmark arrays, the peers' handlers) cannot slow what is measured next —
// on 2 cores a collector sweeping a large heap competes with Chromium.
out(`# Benchmarks

Written by \`make bench\` (bench/run.mjs) on ${new Date().toISOString().slice(0, 10)}; do not edit by hand.
Machine: ${machine()}.

Every ratio below is measured side by side in this one run: in each row the
columns take turns round by round and each keeps its fastest round (the
row-ahead table: its median round), so a burst of other work on a shared
machine lands on every column, not one.
`);
out(`## Kernels (ms per call, fastest of 7 rounds)

Kernels run through the public API on zero-copy buffers (\`PnBuffer\` in and
out, the row statistics too). The two copy columns copy the same bytes inside wasm memory:
\`TypedArray.prototype.set\` (the engine's memmove) and \`pn_copy_f32\`, a v128
load/store loop — the floors for a kernel that reads and writes every value.
`);
out(child('kernels.mjs').trim().replace('\n\n- ', '\n\nTargets:\n- '));
out(`
### What reading a row before writing it costs here (bench/row-ahead.mjs)

A row normalisation reads every value twice: its row's mean and spread must
be known before its first output. The loops below (a probe build, never
shipped, linked beside the kernels into one instance) run that pattern with
little or no arithmetic, next to the copy loop and the shipped kernels in
the same instance and memory (median of 15 rounds): "bare loop, sums 16384 B
ahead" and "x read twice, 16384 B apart" are what any LayerNorm or RMSNorm
of 4096-value rows pays on this machine before its own arithmetic; "two
streams, no re-read" shows that the distance alone costs nothing. Findings:
docs/decisions.md, "LayerNorm past the caches".
`);
out(child('row-ahead.mjs').trim());
out(`
## Peers: the same work in onnxruntime-web and TensorFlow.js (one thread each, wasm + SIMD; fastest of 5 rounds)

Float32Array in, Float32Array out — the path all three offer (posnorm also
zero-copy, and "its copies alone" is what that path cannot avoid). Every
output timed (posnorm's both ways, each peer's) is first checked against a
float64 reference, and the bench stops instead of timing a wrong one:
posnorm within 2e-6 (LayerNorm) and 1e-6 (PE), the peers within 1e-5 and
5e-4 (TF.js's float32 angles reach 2047 rad), and every LayerNorm also on
rows of variance about eps, where eps taken wrongly moves each output by
10 % or more (bound 1e-3).
`);
out(child('peers.mjs').trim());
out(`\n## Figures: every slider and select dragged, at the defaults and at the largest sizes (headless Chromium, load average ${loadavg().map((l) => l.toFixed(1)).join(' / ')} when it began)

For every figure (alone on figure.html) and every slider and select it
renders, 32 inputs across the control's range, one per frame, each changing
the control's value (a control with fewer values goes back and forth across
them), the drag run by the page itself. "p95" is from the moment an input was
due (a few ms after the previous paint; a background task that holds it back
counts) to the painted frame; "repaint" the figure's own render() alone; long tasks are
PerformanceObserver 'longtask' entries (≥ 50 ms) during the drag; slices the
background work's (core/background.js) during the drag and until the page is
quiet again, in wall-clock time and in the main thread's CPU time (each drag
is traced in Chromium; a slice's CPU time is that of the task that ran it,
at most its wall time). Not dragged: what is not a slider or a select
(order's tokens, the resample buttons, rope-config's pasted config).
`);
out((await benchFrames()).table);
out(`
### Where a repaint's time goes (each figure at its defaults, alone on figure.html, 1280×900; median of 15 repaints)

"render()" is the figure's JavaScript at an unchanged state (the figures
keep their kernels' results while their inputs stay the same, so this is
mostly plot layout and canvas calls recorded; during a drag render() also
runs the kernels); "canvas raster" is the drawing those calls leave for the
frame, forced at once with getImageData. The bench launches Chromium with
--disable-gpu, so the raster runs on the main thread inside the frame's
commit (as in a browser without a usable GPU): the frame table's p95 and CPU
columns include it, its "repaint" column does not.
`);
out(rasterTable(await measureRaster()));
out('\n## Sizes\n');
out(await benchSizes());
out('\n## Cold start on a phone (index.html of make demo; 4× CPU throttling, slow 4G: 150 ms, 1.6 Mbit/s; no cache; 7 loads)\n');
const cold = JSON.parse(child('coldstart.mjs', '--json'));
out(`first figure painted ${cold.median.toFixed(0)} ms after navigation (median; fastest ${cold.best.toFixed(0)} ms; loads ${cold.times.map((t) => t.toFixed(0)).join(', ')}); budget ${COLD_START_BUDGET_MS} ms: ${cold.median <= COLD_START_BUDGET_MS ? 'met' : 'MISSED'}`);

writeFileSync(new URL('../docs/benchmarks.md', import.meta.url), `${report.join('\n')}\n`);
console.log('\nwritten to docs/benchmarks.md');
