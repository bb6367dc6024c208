// What the builds contain: SIMD128 instructions in the SIMD build's hot
// kernels, none anywhere in the scalar build; and the native C tests, built
// with AddressSanitizer and UBSan, pass.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { PAGE_LIMIT, measureSizes } from '../bench/sizes.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const SIMD_OP = /\b(v128|[if](8x16|16x8|32x4|64x2))\./;

/** Function bodies of a wasm file by index, and its exports by name. */
function disassemble(file) {
  const wat = execFileSync('wasm2wat', ['--enable-all', file], { encoding: 'utf8', maxBuffer: 64 << 20 });
  const bodies = new Map();
  const parts = wat.split(/\n  \(func \(;(\d+);\)/);
  for (let k = 1; k < parts.length; k += 2) bodies.set(Number(parts[k]), parts[k + 1].split(/\n  \((?:table|memory|global|export|elem|data) /)[0]);
  const exports = new Map();
  for (const m of wat.matchAll(/\(export "([^"]+)" \(func (\d+)\)\)/g)) exports.set(m[1], Number(m[2]));
  return { wat, bodies, exports };
}

/** The function and everything it calls directly, transitively. */
function reachable({ bodies }, start) {
  const seen = new Set([start]);
  const todo = [start];
  while (todo.length) {
    for (const m of (bodies.get(todo.pop()) ?? '').matchAll(/\bcall (\d+)/g)) {
      const f = Number(m[1]);
      if (!seen.has(f)) { seen.add(f); todo.push(f); }
    }
  }
  return [...seen];
}

test('the SIMD build runs v128 instructions in LayerNorm, RMSNorm, PE and RoPE (its own code); the scalar build has none', () => {
  const simd = disassemble(`${root}build/wasm/posnorm-simd.wasm`);
  // RoPE reaches PE's cos/sin helper, whose own v128 code (39 instructions)
  // passed the count with RoPE's rotation scalar: RoPE is counted without
  // what PE reaches (LayerNorm and RMSNorm share their row loop, and each
  // counts it)
  const without = { pn_rope_f32: new Set(reachable(simd, simd.exports.get('pn_pe_sinusoidal_f32'))) };
  for (const kernel of ['pn_layernorm_f32', 'pn_rmsnorm_f32', 'pn_pe_sinusoidal_f32', 'pn_rope_f32']) {
    const fns = reachable(simd, simd.exports.get(kernel)).filter((f) => !without[kernel]?.has(f));
    const ops = fns.flatMap((f) => (simd.bodies.get(f) ?? '').split('\n').filter((l) => SIMD_OP.test(l)));
    assert.ok(ops.length >= 8, `${kernel}: ${ops.length} SIMD instructions`);
    assert.ok(ops.some((l) => /f32x4\.(add|mul|sub)|f64x2\.(add|mul)/.test(l)), `${kernel}: SIMD arithmetic`);
  }
  const scalar = disassemble(`${root}build/wasm/posnorm-scalar.wasm`);
  const found = scalar.wat.split('\n').filter((l) => SIMD_OP.test(l));
  assert.deepEqual(found, [], 'no SIMD instruction in the scalar build');
});

test('native C tests pass under AddressSanitizer and UBSan', () => {
  const run = spawnSync(`${root}build/native/test_kernels`, { encoding: 'utf8' });
  assert.equal(run.status, 0, run.stdout + run.stderr);
  const m = run.stdout.match(/^(\d+) passed, (\d+) failed$/m);
  assert.ok(m && Number(m[1]) > 500 && m[2] === '0', run.stdout);
  // docs/accuracy.md quotes the sentinel test's count as the run prints it
  const sentinels = run.stdout.match(/sentinels: (\d+) kernels, (\d+) invalid-argument cases/);
  assert.ok(sentinels, run.stdout);
  const quoted = readFileSync(`${root}docs/accuracy.md`, 'utf8').match(/(\d+) cases over (\d+) kernels, as `test_kernels` prints them/);
  assert.deepEqual(quoted && [quoted[2], quoted[1]], [sentinels[1], sentinels[2]], 'docs/accuracy.md: the sentinel count');
});

test('the same C tests pass on the SIMD128 code path itself (emcc -msimd128, ASan + UBSan, under Node)', () => {
  const run = spawnSync(process.execPath, ['--no-experimental-fetch', `${root}build/native/test_kernels_simd.cjs`], { encoding: 'utf8' });
  assert.equal(run.status, 0, run.stdout + run.stderr);
  assert.match(run.stdout, /^code path: wasm SIMD128/m);
  const m = run.stdout.match(/^(\d+) passed, (\d+) failed$/m);
  assert.ok(m && Number(m[1]) > 500 && m[2] === '0', run.stdout);
  const native = spawnSync(`${root}build/native/test_kernels`, { encoding: 'utf8' });
  assert.match(native.stdout, /^code path: lane-by-lane/m, 'and the native run is the other path');
});

test('the libFuzzer driver runs 30,000 inputs through every kernel without a sanitizer report', () => {
  const run = spawnSync(`${root}build/native/fuzz_kernels`, ['-runs=30000', '-max_len=2048', '-seed=1'], { encoding: 'utf8', cwd: '/tmp' });
  assert.equal(run.status, 0, run.stderr.slice(-3000));
  assert.match(run.stderr, /Done 30000 runs/);
});

// budgets: docs/decisions.md, "Build levels" and "Angles near 2^31 in double-double"
test('each wasm is under 49 KB and the demo page\'s first load as make demo serves it (HTML, CSS, script and chunks, wasm) under 154 KB', async () => {
  const { simd, scalar, page } = await measureSizes();
  assert.ok(simd < 49 * 1024 && scalar < 49 * 1024, `wasm ${simd} / ${scalar} bytes`);
  assert.ok(page.firstLoad < PAGE_LIMIT, `page ${page.firstLoad} bytes`);
  // the figures further down come in their own chunks, not with the first load
  assert.ok(page.wholePage > page.firstLoad + 30 * 1024, `whole page ${page.wholePage}, first load ${page.firstLoad}`);
});
