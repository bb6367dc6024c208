// bench/kernels.mjs — kernel speed, measured side by side in one run:
// SIMD wasm vs scalar wasm (through the API, zero-copy buffers) vs a plain-JS
// loop vs two copies of the same bytes inside wasm memory (the floors). Prints a Markdown table and checks the
// targets of the README. Run with `make bench`.
import { thisCpu } from './cpu.mjs';
import { init } from '../src/js/posnorm.js';
import { timeAll } from './timing.mjs';

/** Two-pass float64 LayerNorm, the loop a JS developer would write; gamma and beta optional. */
export function layerNormJs(x, y, rows, cols, gamma, beta, eps) {
  for (let r = 0; r < rows; r++) {
    const o = r * cols;
    let m = 0;
    for (let j = 0; j < cols; j++) m += x[o + j];
    m /= cols;
    let v = 0;
    for (let j = 0; j < cols; j++) { const d = x[o + j] - m; v += d * d; }
    const inv = 1 / Math.sqrt(v / cols + eps);
    if (gamma) for (let j = 0; j < cols; j++) y[o + j] = (x[o + j] - m) * inv * gamma[j] + beta[j];
    else for (let j = 0; j < cols; j++) y[o + j] = (x[o + j] - m) * inv;
  }
}

function rmsNormJs(x, y, rows, cols, eps) {
  for (let r = 0; r < rows; r++) {
    const o = r * cols;
    let q = 0;
    for (let j = 0; j < cols; j++) q += x[o + j] * x[o + j];
    const inv = 1 / Math.sqrt(q / cols + eps);
    for (let j = 0; j < cols; j++) y[o + j] = x[o + j] * inv;
  }
}

function peJs(out, seqLen, dModel, base) {
  const half = dModel >> 1;
  const w = new Float64Array(half);
  for (let i = 0; i < half; i++) w[i] = Math.pow(base, (-2 * i) / dModel);
  for (let p = 0; p < seqLen; p++) {
    const o = p * dModel;
    for (let i = 0; i < half; i++) {
      const a = p * w[i];
      out[o + 2 * i] = Math.sin(a);
      out[o + 2 * i + 1] = Math.cos(a);
    }
  }
}

/**
 * One row of the table: `kernel` through the public API on zero-copy buffers
 * (PnBuffer in, PnBuffer out, the row statistics too: no copy and no new
 * array, only the kernel's own reads and writes)
 * in both builds, the plain-JS loop, and two copies of the same bytes inside
 * wasm memory: TypedArray.prototype.set (the engine's memmove) and
 * pn_copy_f32 (a v128 load/store loop, the fastest copy wasm code can write).
 */
async function normRow(builds, label, R, C, { kernel, affine = false, inPlace = false }) {
  const n = R * C;
  const eps = kernel === 'layerNorm' ? 1e-5 : 1e-6;
  const src = builds.simd.randomNormal(n, { seed: 7, mean: 3, std: 2 });
  const g = new Float32Array(C).fill(1.1), b = new Float32Array(C).fill(0.1);
  const fns = {}, buffers = [];
  for (const [name, pn] of Object.entries(builds)) {
    const x = pn.alloc(n), y = inPlace ? x : pn.alloc(n);
    const stats = kernel === 'layerNorm' ? { meanOut: pn.alloc(R), invStdDevOut: pn.alloc(R) } : { invRmsOut: pn.alloc(R) };
    const opts = { cols: C, eps, out: y, ...stats };
    if (affine) { opts.gamma = pn.alloc(C); opts.gamma.array.set(g); if (kernel === 'layerNorm') { opts.beta = pn.alloc(C); opts.beta.array.set(b); } }
    x.array.set(src);
    // in place, every call normalises the previous output: LayerNorm of a
    // normalised row is the same work, so the time is that of one call
    fns[name] = () => pn[kernel](x, opts);
    buffers.push(x, y, opts.gamma, opts.beta, ...Object.values(stats));
    if (name === 'simd') {
      const d = inPlace ? pn.alloc(n) : y;
      fns.set = () => d.array.set(x.array);
      fns.loop = () => pn.raw.pn_copy_f32(d.ptr, x.ptr, n);
      buffers.push(d);
    }
  }
  const yj = new Float32Array(n);
  fns.js = kernel === 'layerNorm'
    ? () => layerNormJs(src, yj, R, C, affine ? g : null, affine ? b : null, eps)
    : () => rmsNormJs(src, yj, R, C, eps);
  const row = { kernel: `${label}${affine ? ' (γ, β)' : ''}${inPlace ? ' in place' : ''}`, size: `${R}×${C}`, ...(await timeAll(fns)) };
  for (const buf of new Set(buffers)) buf?.free();
  return row;
}

export async function benchKernels() {
  const builds = { simd: await init({ simd: true }), scalar: await init({ simd: false }) };
  const rows = [];
  const fmt = (ms) => (ms < 1 ? ms.toFixed(3) : ms.toFixed(2));
  for (const [R, C] of [[64, 768], [512, 768], [4096, 4096]]) rows.push(await normRow(builds, 'LayerNorm', R, C, { kernel: 'layerNorm' }));
  rows.push(await normRow(builds, 'LayerNorm', 512, 768, { kernel: 'layerNorm', affine: true }));
  rows.push(await normRow(builds, 'LayerNorm', 4096, 4096, { kernel: 'layerNorm', inPlace: true }));
  for (const [R, C] of [[512, 768], [4096, 4096]]) rows.push(await normRow(builds, 'RMSNorm', R, C, { kernel: 'rmsNorm' }));
  for (const [S, D] of [[64, 64], [2048, 512], [8192, 1024]]) {
    const n = S * D, fns = {}, buffers = [];
    for (const [name, pn] of Object.entries(builds)) {
      const y = pn.alloc(n), x = pn.alloc(n);
      fns[name] = () => pn.positionalEncoding({ seqLen: S, dModel: D, out: y });
      if (name === 'simd') {
        fns.set = () => y.array.set(x.array);
        fns.loop = () => pn.raw.pn_copy_f32(y.ptr, x.ptr, n);
      }
      buffers.push(x, y);
    }
    const yj = new Float32Array(n);
    fns.js = () => peJs(yj, S, D, 10000);
    rows.push({ kernel: 'PE', size: `${S}×${D}`, ...(await timeAll(fns)) });
    for (const buf of buffers) buf.free();
  }

  const lines = [
    '| kernel | size | SIMD wasm (ms) | scalar wasm (ms) | plain JS (ms) | copy: `set` (ms) | copy: wasm loop (ms) | JS ÷ SIMD | scalar ÷ SIMD | SIMD ÷ `set` | SIMD ÷ wasm loop |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const r of rows) {
    lines.push(`| ${r.kernel} | ${r.size} | ${fmt(r.simd)} | ${fmt(r.scalar)} | ${fmt(r.js)} | ${fmt(r.set)} | ${fmt(r.loop)} | ${(r.js / r.simd).toFixed(1)}× | ${(r.scalar / r.simd).toFixed(1)}× | ${(r.simd / r.set).toFixed(2)}× | ${(r.simd / r.loop).toFixed(2)}× |`);
  }
  const get = (k, s) => rows.find((r) => r.kernel === k && r.size === s);
  const ln512 = get('LayerNorm', '512×768'), ln512a = get('LayerNorm (γ, β)', '512×768');
  const ln4k = get('LayerNorm', '4096×4096'), pe = get('PE', '2048×512'), rms4k = get('RMSNorm', '4096×4096');
  const targets = [
    ['LayerNorm 512×768, no γ/β: SIMD ≥ 10× the plain-JS loop', ln512.js / ln512.simd, (r) => r >= 10],
    ['LayerNorm 4096×4096: SIMD within 1.3× of a wasm copy loop of the same bytes', ln4k.simd / ln4k.loop, (r) => r <= 1.3],
    ['RMSNorm 4096×4096: SIMD within 1.3× of a wasm copy loop of the same bytes', rms4k.simd / rms4k.loop, (r) => r <= 1.3],
    ['LayerNorm 4096×4096: SIMD within 1.3× of `set` (memmove) of the same bytes', ln4k.simd / ln4k.set, (r) => r <= 1.3],
    ['LayerNorm 512×768 (γ, β): SIMD ≥ 3× scalar wasm', ln512a.scalar / ln512a.simd, (r) => r >= 3],
    ['PE 2048×512: SIMD ≥ 20× plain-JS Math.sin loop', pe.js / pe.simd, (r) => r >= 20],
  ];
  const checks = targets.map(([what, ratio, ok]) => `- ${ok(ratio) ? 'met' : 'MISSED'}: ${what} (measured ${ratio.toFixed(2)}×)`);
  checks.push(`- for scale: the wasm copy loop itself takes ${(ln4k.loop / ln4k.set).toFixed(2)}× \`set\` at 4096×4096`);
  // which floor binds depends on the CPU: say which one this table ran on
  const machine = `CPU: ${thisCpu()}; copy floors at 4096×4096: \`set\` ${fmt(ln4k.set)} ms, wasm loop ${fmt(ln4k.loop)} ms`;
  return { machine, table: lines.join('\n'), checks, allMet: targets.every(([, r, ok]) => ok(r)) };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = await benchKernels();
  console.log(r.machine + '\n\n' + r.table + '\n\n' + r.checks.join('\n'));
}
