// bench/accuracy.mjs — the accuracy table of docs/accuracy.md: max abs error of each
// build against float64, over the ranges the README states. `make accuracy`.
import { init } from '../src/js/posnorm.js';
import { maxAbsDiff, normals } from '../tests/helpers.mjs';
import { layerNorm as layerNormRef } from '../tests/reference/norms.mjs';
import { sinusoidal as peRef } from '../tests/reference/pe.mjs';

const rows = [];
for (const simd of [true, false]) {
  const pn = await init({ simd });
  let pe = 0;
  for (const offset of [0, 4096, 65536 - 64, 2 ** 20 - 64]) {
    for (const dModel of [64, 1023, 8192]) {
      const got = pn.positionalEncoding({ seqLen: 64, dModel, offset });
      pe = Math.max(pe, maxAbsDiff(got, peRef(64, dModel, { offset })));
    }
  }
  let ln = 0;
  let seed = 1;
  for (const mean of [0, 1e2, 1e4, 1e6, -1e6]) {
    for (const std of [1e-2, 1, 1e3]) {
      for (const cols of [1, 7, 768, 8192]) {
        const x = normals(4 * cols, { mean, std, seed: seed++ });
        const got = pn.layerNorm(x, { cols });
        ln = Math.max(ln, maxAbsDiff(got.y, layerNormRef(x, cols, { eps: 1e-5 }).y));
      }
    }
  }
  rows.push(`| ${simd ? 'SIMD' : 'scalar'} | ${pe.toExponential(2)} | ${ln.toExponential(2)} |`);
}
// the article's float32 formula, for scale: div_term = exp(2i·(−ln 10000/d)) in float32
const f = Math.fround;
let article = 0;
const d = 512, pos = 65536;
for (let i = 0; i < d / 2; i++) {
  const div = f(Math.exp(f(f(2 * i) * f(-Math.log(10000) / d))));
  const a = f(f(pos) * div);
  article = Math.max(article, Math.abs(f(Math.sin(a)) - Math.sin(pos * Math.pow(10000, (-2 * i) / d))));
}
console.log('| build | PE max abs error (pos < 2^20, dModel ≤ 8192) | LayerNorm max abs error (|mean| ≤ 1e6, std 1e-2…1e3, cols ≤ 8192) |');
console.log('|---|---:|---:|');
console.log(rows.join('\n'));
console.log(`\nFor scale: the article's float32 PE formula at pos 65536, dModel 512: ${article.toExponential(2)}`);
