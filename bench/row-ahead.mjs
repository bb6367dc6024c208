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
import { readdirSync, statSync } from 'node:fs';
import { thisCpu } from './cpu.mjs';
import { init } from '../src/js/posnorm.js';

const rows = +(process.env.ROWS || 4096), cols = +(process.env.COLS || 4096), rounds = +(process.env.ROUNDS || 15);
const n = rows * cols;
const root = new URL('..', import.meta.url).pathname;
// build the probe only when a source is newer than it (./build.sh probe
// rebuilds build/wasm's objects as well)
const probe = `${root}build/probe/posnorm-row-ahead.wasm`;
const mtime = (f) => { try { return statSync(f).mtimeMs; } catch { return -Infinity; } };
const sources = [`${root}bench/row-ahead/loops.c`, `${root}build.sh`,
  ...readdirSync(`${root}src`).filter((f) => /\.[ch]$/.test(f)).map((f) => `${root}src/${f}`)];
if (sources.some((f) => mtime(f) > mtime(probe))) {
  execFileSync(`${root}build.sh`, ['probe'], { stdio: ['ignore', 'ignore', 'inherit'] });
}

const pn = await init({ simd: true, wasm: probe });
const { ahead_layernorm: aheadLayerNorm, ahead_bare: aheadBare } = pn.raw;
const x = pn.alloc(n), y = pn.alloc(n);
pn.randomNormal(n, { out: x, mean: 3, std: 2, seed: 7 });

// a loop that computes something else than it says would time nothing
// the probe's loops take whole steps of 16 values, so rows do not end in a tail
if (cols < 16 || cols % 16 !== 0 || rows < 2) throw new Error('ROWS must be 2 or more and COLS a multiple of 16');
const expect = (name, k, want) => {
  if (y.array[k] !== want) throw new Error(`${name} wrote y[${k}] = ${y.array[k]}, not ${want}`);
};
aheadBare(y.ptr, x.ptr, n, 0);
for (const k of [0, 1, 17, n - 17]) expect('ahead_bare', k, Math.fround(x.array[k] * 0.5));
aheadLayerNorm(y.ptr, x.ptr, n, cols);
// the last value written: j runs in steps of 16 while j + 16 + cols <= n
const lastLN = Math.floor((n - cols - 16) / 16) * 16 + 15;
for (const k of [0, 1, 17, lastLN]) expect('ahead_layernorm', k, Math.fround(Math.fround(x.array[k] - 3) * 0.5));
// rows without the accuracy machinery still compute LayerNorm: a few rows
// against the shipped kernel (float32 sums, so within 1e-5, not to the bit)
// (the first two rows and the last two: the loops' first and last rows take branches of their own)
const edgeRows = [0, 1, rows - 2, rows - 1];
const refRows = edgeRows.map((r) => pn.layerNorm(x.array.slice(r * cols, (r + 1) * cols), { cols, eps: 1e-5 }).y);
const scratch = pn.alloc(Math.max(4 * rows, 2 * cols)); // 2·rows doubles for rows_wholepass_layernorm, two rows for rows_scratch_layernorm
const rowLoops = {
  'rows_layernorm (fold 0)': () => pn.raw.rows_layernorm(y.ptr, x.ptr, rows, cols, 0),
  'rows_layernorm (fold 1)': () => pn.raw.rows_layernorm(y.ptr, x.ptr, rows, cols, 1),
  rows_copy_layernorm: () => pn.raw.rows_copy_layernorm(y.ptr, x.ptr, rows, cols),
  'rows_scratch_layernorm through y': () => pn.raw.rows_scratch_layernorm(y.ptr, x.ptr, rows, cols, 0),
  rows_scratch_layernorm: () => pn.raw.rows_scratch_layernorm(y.ptr, x.ptr, rows, cols, scratch.ptr),
  rows_wholepass_layernorm: () => pn.raw.rows_wholepass_layernorm(y.ptr, x.ptr, rows, cols, scratch.ptr),
};
{ // the read-only stream sums every value (float32 lanes, so to 1e-4 of Σ|x|)
  let sum = 0, abs = 0;
  for (const v of x.array) { sum += v; abs += Math.abs(v); }
  const got = pn.raw.read_only(x.ptr, n);
  if (!(Math.abs(got - sum) <= 1e-4 * abs)) throw new Error(`read_only returned ${got}, the values sum to ${sum}`);
  // ahead_readtwice at distance 0 reads every value twice
  const twice = pn.raw.ahead_readtwice(x.ptr, n, 0);
  if (!(Math.abs(twice - 2 * sum) <= 2e-4 * abs)) throw new Error(`ahead_readtwice returned ${twice}, twice the sum is ${2 * sum}`);
}
for (const [name, f] of Object.entries(rowLoops)) {
  y.array.fill(NaN);
  f();
  edgeRows.forEach((r, i) => {
    for (let j = 0; j < cols; j++) {
      const got = y.array[r * cols + j], want = refRows[i][j];
      if (!(Math.abs(got - want) <= 1e-5)) throw new Error(`${name} wrote row ${r}, column ${j}: ${got}; LayerNorm gives ${want}`);
    }
  });
}
{ // rows_bare writes y = x·0.5 over rows 0 .. rows-2, either way round, and
  // rows_readtwice sums rows 1 .. rows-1 and rows 0 .. rows-2
  let sum = 0, abs = 0;
  for (let k = 0; k < n; k++) {
    const v = x.array[k], w = (k >= cols) + (k < n - cols);
    sum += w * v; abs += w * Math.abs(v);
  }
  for (const reverse of [0, 1]) {
    y.array.fill(NaN);
    pn.raw.rows_bare(y.ptr, x.ptr, rows, cols, reverse);
    for (const k of [0, 1, cols - 1, cols, n - cols - 1]) expect(`rows_bare (reverse ${reverse})`, k, Math.fround(x.array[k] * 0.5));
    if (!Number.isNaN(y.array[n - cols])) throw new Error(`rows_bare (reverse ${reverse}) wrote the last row`);
    const got = pn.raw.rows_readtwice(x.ptr, rows, cols, reverse);
    if (!(Math.abs(got - sum) <= 1e-4 * abs)) throw new Error(`rows_readtwice (reverse ${reverse}) returned ${got}, the values it reads sum to ${sum}`);
  }
}
{ // ahead_noreread writes 0.5 where it writes, and sums the values `ahead` on
  const ahead = cols;
  y.array.fill(NaN);
  const got = pn.raw.ahead_noreread(y.ptr, x.ptr, n, ahead);
  const end = Math.floor((n - ahead) / 16) * 16; // j runs in steps of 16 while j + 16 + ahead <= n
  for (const k of [0, 1, end - 1]) expect('ahead_noreread', k, 0.5);
  if (!Number.isNaN(y.array[end])) throw new Error(`ahead_noreread wrote y[${end}], past its end`);
  let sum = 0, abs = 0;
  for (let k = ahead; k < ahead + end; k++) { sum += x.array[k]; abs += Math.abs(x.array[k]); }
  if (!(Math.abs(got - sum) <= 1e-4 * abs)) throw new Error(`ahead_noreread returned ${got}, the values it reads sum to ${sum}`);
}

// without meanOut/invStdDevOut the API returns each row's statistics in new
// Float32Arrays, whose pages the first writes fault in (about 11 µs a 4 KiB
// page on issue #20's VM): both ways are timed
const mean = pn.alloc(rows), inv = pn.alloc(rows);
const runs = {
  'copy loop (pn_copy_f32)': () => pn.raw.pn_copy_f32(y.ptr, x.ptr, n),
  'LayerNorm, statistics into buffers': () => pn.layerNorm(x, { cols, out: y, meanOut: mean, invStdDevOut: inv }),
  'LayerNorm, statistics in new arrays': () => pn.layerNorm(x, { cols, out: y }),
  'RMSNorm, statistics into a buffer': () => pn.rmsNorm(x, { cols, out: y, invRmsOut: inv }),
  'RMSNorm, statistics in a new array': () => pn.rmsNorm(x, { cols, out: y }),
};
for (const d of [0, 64, 256, 1024, cols].filter((d, i, a) => d <= cols && a.indexOf(d) === i)) {
  runs[`LayerNorm's arithmetic, sums ${d * 4} B ahead`] = () => aheadLayerNorm(y.ptr, x.ptr, n, d);
}
runs['rows of LayerNorm, no accuracy machinery, sums folded per row'] = () => pn.raw.rows_layernorm(y.ptr, x.ptr, rows, cols, 0);
runs['rows of LayerNorm, no accuracy machinery, sums folded per 128'] = () => pn.raw.rows_layernorm(y.ptr, x.ptr, rows, cols, 1);
runs['rows copied to y while summed, then normalised in place in y (no machinery)'] = rowLoops.rows_copy_layernorm;
runs['rows copied to y while summed, y a row behind normalised in place, fused (no machinery)'] = rowLoops['rows_scratch_layernorm through y'];
runs['rows summed as they are copied to a scratch of two rows, written from the scratch a row behind (no machinery)'] = rowLoops.rows_scratch_layernorm;
runs['whole matrix: all sums, then all writes in one stream (no machinery)'] = rowLoops.rows_wholepass_layernorm;
runs['read-only stream, 4 accumulators'] = () => pn.raw.read_only(x.ptr, n);
for (const d of [0, 256, 1024, cols].filter((d, i, a) => d <= cols && a.indexOf(d) === i)) runs[`reads only: x read twice, ${d * 4} B apart`] = () => pn.raw.ahead_readtwice(x.ptr, n, d);
runs['reads only: row r+1 read beside row r, both forwards'] = () => pn.raw.rows_readtwice(x.ptr, rows, cols, 0);
runs['reads only: row r+1 read forwards beside row r backwards'] = () => pn.raw.rows_readtwice(x.ptr, rows, cols, 1);
const bare0 = 'bare loop (y = x·c, Σx\', 8 loads and 4 adds per 16 values), sums 0 B ahead';
runs[bare0] = () => aheadBare(y.ptr, x.ptr, n, 0);
runs[`bare loop, sums ${cols * 4} B ahead`] = () => aheadBare(y.ptr, x.ptr, n, cols);
runs['bare loop by rows, row r written forwards while row r+1 is summed'] = () => pn.raw.rows_bare(y.ptr, x.ptr, rows, cols, 0);
runs['bare loop by rows, row r written backwards while row r+1 is summed'] = () => pn.raw.rows_bare(y.ptr, x.ptr, rows, cols, 1);
for (const d of [0, 64, cols].filter((d, i, a) => d <= cols && a.indexOf(d) === i)) {
  runs[`two streams, no re-read (y = c, Σx'), sums ${d * 4} B ahead`] = () => pn.raw.ahead_noreread(y.ptr, x.ptr, n, d);
}

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
const min = (a) => Math.min(...a);
console.log(`${rows}×${cols} float32 (a row is ${cols * 4} B), ${thisCpu()}; Node ${process.version}, ${rounds} rounds`);
console.log('| loop | median ms | fastest ms | median ÷ pn_copy_f32 | median ÷ one stream (bare, 0 B ahead) |\n|---|---:|---:|---:|---:|');
for (const [k, t] of Object.entries(times)) {
  console.log(`| ${k} | ${med(t).toFixed(2)} | ${min(t).toFixed(2)} | ${(med(t) / copy).toFixed(2)}× | ${(med(t) / stream).toFixed(2)}× |`);
}
x.free(); y.free(); mean.free(); inv.free(); scratch.free();

// PLACEMENT=1: the same copy loop, LayerNorm and RMSNorm with the output at
// several distances after the input in one allocation (x at its start, y
// at n values + OFFSET bytes), medians of 9, twice: within one process the
// ratios move with where y lies, though every distance is a multiple of
// 4 KiB (so the same L1 sets) and the copy loop hardly moves.
if (process.env.PLACEMENT) {
  const big = pn.alloc(2 * n + (1 << 18));
  const xs = big.subarray(0, n);
  pn.randomNormal(n, { out: xs, mean: 3, std: 2, seed: 7 });
  const m = pn.alloc(rows), v = pn.alloc(rows);
  const median9 = (f) => { const t = []; for (let i = 0; i < 9; i++) { const t0 = performance.now(); f(); t.push(performance.now() - t0); } return med(t); };
  console.log('\n| y − x (bytes) | copy loop ms | LayerNorm ÷ copy | RMSNorm ÷ copy |\n|---|---:|---:|---:|');
  for (let rep = 0; rep < 2; rep++) {
    for (const off of [0, 4096, 8192, 12288, 16384, 32768, 65536, 131072]) {
      const ys = big.subarray(n + off / 4, 2 * n + off / 4);
      const c = median9(() => pn.raw.pn_copy_f32(ys.ptr, xs.ptr, n));
      const l = median9(() => pn.layerNorm(xs, { cols, out: ys, meanOut: m, invStdDevOut: v }));
      const r = median9(() => pn.rmsNorm(xs, { cols, out: ys, invRmsOut: v }));
      console.log(`| ${4 * n} + ${off} | ${c.toFixed(2)} | ${(l / c).toFixed(2)}× | ${(r / c).toFixed(2)}× |`);
    }
  }
  big.free(); m.free(); v.free();
}
