// bench/compare-builds.mjs — LayerNorm and RMSNorm of this build against an
// earlier build's wasm, side by side in one run (fastest of 3×9 rounds each,
// interleaved), to show a kernel change costs ordinary data nothing:
//   node bench/compare-builds.mjs DIR   (DIR holds an earlier posnorm-{simd,scalar}.wasm)
import { init } from '../src/js/posnorm.js';

const dir = process.argv[2];
if (!dir) throw new Error('usage: node bench/compare-builds.mjs DIR-WITH-EARLIER-WASM');
const oldSimd = await init({ simd: true, wasm: `${dir}/posnorm-simd.wasm` }), newSimd = await init({ simd: true });
const oldSc = await init({ simd: false, wasm: `${dir}/posnorm-scalar.wasm` }), newSc = await init({ simd: false });
function time(pn, fn, rows, cols) {
  const x = pn.alloc(rows * cols), y = pn.alloc(rows * cols);
  pn.randomNormal(rows * cols, { out: x, mean: 3, std: 2 });
  let best = Infinity;
  const reps = Math.max(1, Math.round(2e6 / (rows * cols)));
  for (let r = 0; r < 9; r++) {
    const t0 = performance.now();
    for (let k = 0; k < reps; k++) pn[fn](x, { cols, out: y });
    best = Math.min(best, (performance.now() - t0) / reps);
  }
  x.free(); y.free();
  return best;
}
for (const [fn, rows, cols] of [['layerNorm', 64, 768], ['layerNorm', 512, 768], ['layerNorm', 4096, 4096], ['rmsNorm', 512, 768]]) {
  for (const [label, o, n] of [['simd', oldSimd, newSimd], ['scalar', oldSc, newSc]]) {
    const a = [], b = [];
    for (let round = 0; round < 3; round++) { a.push(time(o, fn, rows, cols)); b.push(time(n, fn, rows, cols)); }
    const ta = Math.min(...a), tb = Math.min(...b);
    console.log(`${fn} ${rows}x${cols} ${label}: before ${ta.toFixed(4)} ms, after ${tb.toFixed(4)} ms, after/before ${(tb / ta).toFixed(3)}`);
  }
}
