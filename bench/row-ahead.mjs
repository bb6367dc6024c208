// bench/row-ahead.mjs — how much of LayerNorm's time past the caches is its
// access pattern. A row normalisation must read a row before its first
// output, so it reads each row a row ahead of its writes. The bare loops of
// bench/row-ahead/loops.c, linked beside the kernels into one probe wasm
// (./build.sh probe; never shipped), run that pattern with LayerNorm's
// arithmetic and with almost none, at several distances, in the same
// instance and memory as the copy loop, LayerNorm and RMSNorm they are
// compared with, round by round (median and fastest of ROUNDS).
//   node bench/row-ahead.mjs            (ROWS, COLS, ROUNDS: 4096, 4096, 15)
// Ratios are given to pn_copy_f32 and to the fastest one-stream loop (the
// bare loop at distance 0): in one process pn_copy_f32 has run up to 25 %
// slower than that loop. Findings: docs/decisions.md, "LayerNorm past the
// caches".
import { execFileSync } from 'node:child_process';
import { cpus } from 'node:os';
import { init } from '../src/js/posnorm.js';

const rows = +(process.env.ROWS || 4096), cols = +(process.env.COLS || 4096), rounds = +(process.env.ROUNDS || 15);
const n = rows * cols;
const root = new URL('..', import.meta.url).pathname;
execFileSync(`${root}build.sh`, ['probe'], { stdio: ['ignore', 'ignore', 'inherit'] });

const pn = await init({ simd: true, wasm: `${root}build/probe/posnorm-row-ahead.wasm` });
const { ahead_layernorm: aheadLayerNorm, ahead_bare: aheadBare } = pn.raw;
const x = pn.alloc(n), y = pn.alloc(n);
pn.randomNormal(n, { out: x, mean: 3, std: 2, seed: 7 });

// a loop that computes something else than it says would time nothing
aheadBare(y.ptr, x.ptr, n, 0);
for (const k of [0, 1, 17, n - 17]) if (y.array[k] !== Math.fround(x.array[k] * 0.5)) throw new Error(`ahead_bare wrote y[${k}] wrong`);
aheadLayerNorm(y.ptr, x.ptr, n, cols);
for (const k of [0, 1, 17]) if (y.array[k] !== Math.fround(Math.fround(x.array[k] - 3) * 0.5)) throw new Error(`ahead_layernorm wrote y[${k}] wrong`);

const runs = {
  'copy loop (pn_copy_f32)': () => pn.raw.pn_copy_f32(y.ptr, x.ptr, n),
  'LayerNorm': () => pn.layerNorm(x, { cols, out: y }),
  'RMSNorm': () => pn.rmsNorm(x, { cols, out: y }),
};
for (const d of [0, 64, 256, 1024, cols].filter((d, i, a) => d <= cols && a.indexOf(d) === i)) {
  runs[`LayerNorm's arithmetic, sums ${d * 4} B ahead`] = () => aheadLayerNorm(y.ptr, x.ptr, n, d);
}
runs['rows of LayerNorm, no accuracy machinery, sums folded per row'] = () => pn.raw.rows_layernorm(y.ptr, x.ptr, rows, cols, 0);
runs['rows of LayerNorm, no accuracy machinery, sums folded per 128'] = () => pn.raw.rows_layernorm(y.ptr, x.ptr, rows, cols, 1);
const bare0 = 'y = x·c, one add per 16 values, sums 0 B ahead';
runs[bare0] = () => aheadBare(y.ptr, x.ptr, n, 0);
runs[`y = x·c, one add per 16 values, sums ${cols * 4} B ahead`] = () => aheadBare(y.ptr, x.ptr, n, cols);

const times = Object.fromEntries(Object.keys(runs).map((k) => [k, []]));
for (let r = 0; r < rounds; r++) {
  for (const [k, f] of Object.entries(runs)) {
    const t0 = performance.now();
    f();
    times[k].push(performance.now() - t0);
  }
}
const med = (a) => [...a].sort((p, q) => p - q)[a.length >> 1];
const copy = med(times['copy loop (pn_copy_f32)']), stream = med(times[bare0]);
console.log(`${rows}×${cols} float32 (a row is ${cols * 4} B), ${cpus()[0].model}, Node ${process.version}, median of ${rounds} rounds`);
console.log('| loop | ms | ÷ pn_copy_f32 | ÷ one stream (bare, 0 B ahead) |\n|---|---:|---:|---:|');
for (const [k, t] of Object.entries(times)) {
  console.log(`| ${k} | ${med(t).toFixed(2)} | ${(med(t) / copy).toFixed(2)}× | ${(med(t) / stream).toFixed(2)}× |`);
}
x.free(); y.free();
