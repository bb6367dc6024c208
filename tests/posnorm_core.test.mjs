// posnorm_core.test.mjs — the split between src/js/posnorm-core.js (what the
// figures load) and src/js/posnorm.js (the package's entry, which adds
// pn.ropeFromConfig): the core's import graph leaves the config reader out,
// so a page's first load does not carry it (docs/decisions.md, "Page
// budget"), and an instance used through the core alone says where the
// method is, until the entry is imported. This file imports the core first
// on purpose: the entry, once imported, adds the method for every instance.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { init, Posnorm } from '../src/js/posnorm-core.js';
import { importGraph as reachable } from './import-graph.mjs';

/** The relative imports reachable from `start`, as paths from /src/js/ (or /web/). */
const importGraph = async (start) => (await reachable(start)).map((h) => h.slice(h.indexOf('/src/js/') >= 0 ? h.indexOf('/src/js/') : h.indexOf('/web/')));

test('posnorm-core.js and the figures\' runtime do not import the config reader; posnorm.js does', async () => {
  const core = await importGraph(new URL('../src/js/posnorm-core.js', import.meta.url));
  assert.ok(core.includes('/src/js/validate.js'), core.join(', '));
  assert.ok(!core.includes('/src/js/rope-config.js'), core.join(', '));
  assert.ok(!core.includes('/src/js/figure-kernels.js'), core.join(', '));
  const runtime = await importGraph(new URL('../web/figures/core/runtime.js', import.meta.url));
  assert.ok(!runtime.some((f) => f.endsWith('/rope-config.js') || f.endsWith('/figure-kernels.js')), runtime.join(', '));
  const entry = await importGraph(new URL('../src/js/posnorm.js', import.meta.url));
  assert.ok(entry.includes('/src/js/rope-config.js') && entry.includes('/src/js/posnorm-core.js') && entry.includes('/src/js/figure-kernels.js'), entry.join(', '));
  // the three figures that call them, and the kernel Worker (depth's gradients), import them themselves
  for (const f of ['depth', 'block', 'ln-steps', 'worker/kernel-worker']) {
    const graph = await importGraph(new URL(`../web/figures/${f}.js`, import.meta.url));
    assert.ok(graph.includes('/src/js/figure-kernels.js'), `${f}: ${graph.join(', ')}`);
  }
});

test('through the core alone an instance has none of the figures\' kernels; figure-kernels.js adds them to every instance, as methods that check their this and their arguments and leak nothing', async () => {
  const pn = await init();
  const before = pn.heapStats();
  for (const name of ['residualStack', 'transformerBlock', 'layerNormSteps']) assert.equal(pn[name], undefined, name);
  await import('../src/js/figure-kernels.js');
  for (const name of ['residualStack', 'transformerBlock', 'layerNormSteps']) {
    const d = Object.getOwnPropertyDescriptor(Posnorm.prototype, name);
    assert.equal(typeof d?.value, 'function', name);
    assert.equal(d.value.name, name);
    assert.equal(d.enumerable, false, `${name}: a method like the others`);
    // an unbound method, or one called on another object, names itself
    assert.throws(() => d.value.call({}, new Float32Array(4), {}), { name: 'TypeError', message: new RegExp(`^posnorm\\.${name}: this must be an instance from init\\(\\) \\(pn\\.${name}\\), got an object that is not one`) });
    assert.throws(() => d.value.call(undefined, new Float32Array(4), {}), { name: 'TypeError', message: new RegExp(`^posnorm\\.${name}: `) });
  }
  // hand-worked: x = [1, 2, 3, 4], mean 2.5, variance 1.25, eps 0: normalized = centered / √1.25
  const s = pn.layerNormSteps(new Float32Array([1, 2, 3, 4]), { eps: 0 });
  assert.deepEqual(Array.from(s.centered), [-1.5, -0.5, 0.5, 1.5]);
  assert.equal(s.mean, 2.5);
  assert.equal(s.variance, 1.25);
  [-1.5, -0.5, 0.5, 1.5].forEach((c, j) => assert.ok(Math.abs(s.normalized[j] - c / Math.sqrt(1.25)) <= 2 ** -23 * Math.abs(c / Math.sqrt(1.25)), `normalized[${j}]`));
  assert.throws(() => pn.residualStack(new Float32Array(2), new Float32Array(4), { width: 2, layers: 2 }), { name: 'RangeError', message: /^posnorm\.residualStack: weights\.length must be at least layers × width × width = 8, got 4/ });
  assert.throws(() => pn.transformerBlock(new Float32Array(6), new Float32Array(1), { dModel: 3, heads: 2 }), { name: 'RangeError', message: /^posnorm\.transformerBlock: heads must divide dModel \(3\), got 2/ });
  const std = pn.residualStack(new Float32Array([1, -1]), new Float32Array([1, 0, 0, 1]), { width: 2, layers: 1 });
  // a plain block, W = I: x1 = x0 + GELU(x0) = [1 + GELU(1), -1 + GELU(-1)], and
  // GELU(z) - GELU(-z) = z in both forms, so x1[0] - x1[1] = 3: its standard deviation over the width is 1.5
  assert.ok(Math.abs(std[0] - 1.5) <= 1e-6, String(std[0]));
  // each call's copies, outputs and scratch were released, after a result as after an error
  assert.deepEqual(pn.heapStats(), before, 'nothing kept');
});

test('the door figure-kernels.js goes through keeps no instance alive: instances it has seen are garbage-collected, their wasm memory with them', async () => {
  const { setFlagsFromString } = await import('node:v8');
  const { runInNewContext } = await import('node:vm');
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc');
  await import('../src/js/figure-kernels.js');
  const refs = [];
  for (let k = 0; k < 5; k++) {
    const pn = await init();
    pn.layerNormSteps(new Float32Array([1, 2, 3]));
    refs.push(new WeakRef(pn));
  }
  for (let k = 0; k < 10; k++) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    gc();
  }
  // (one may still be held by the engine's last frames; a Map for a door holds all five)
  const alive = refs.filter((r) => r.deref()).length;
  assert.ok(alive <= 2, `${alive} of 5 instances still alive`);
});

test('through the core alone pn.ropeFromConfig says where it is; once posnorm.js is imported the same instance reads configs, as the standalone function does', async () => {
  const pn = await init();
  const config = { hidden_size: 64, num_attention_heads: 2, rope_theta: 10000 };
  assert.throws(() => pn.ropeFromConfig(config), { name: 'Error', message: /^posnorm\.ropeFromConfig: this comes with the package entry \(import 'posnorm'/ });
  // unbound, it says what the receiver check of every method says, before where it is
  const { ropeFromConfig: unbound } = pn;
  assert.throws(() => unbound(config), { name: 'TypeError', message: /^posnorm\.ropeFromConfig: this must be an instance from init\(\) \(pn\.ropeFromConfig\), got undefined$/ });
  const entry = await import('../src/js/posnorm.js');
  assert.equal(entry.Posnorm, Posnorm, 'one class');
  assert.equal(entry.init, init);
  const { ropeFromConfig } = await import('../src/js/rope-config.js');
  const r = pn.ropeFromConfig(config, { seqLen: 8 });
  // head dim 32: 16 pairs, inv_freq_i = 10000^(−2i/32), float64 reference
  assert.equal(r.invFreq.length, 16);
  for (let i = 0; i < 16; i++) assert.ok(Math.abs(r.invFreq[i] - 10000 ** (-2 * i / 32)) <= 1e-7 * 10000 ** (-2 * i / 32), `invFreq[${i}]`);
  assert.deepEqual(ropeFromConfig(pn, config, { seqLen: 8 }), r);
  assert.equal(pn.ropeFromConfig.name, 'ropeFromConfig');
  assert.equal(Object.getOwnPropertyDescriptor(Posnorm.prototype, 'ropeFromConfig').enumerable, false, 'a method like the others');
  assert.throws(() => pn.ropeFromConfig(config, { seqLen: -1 }), { name: 'RangeError', message: /^posnorm\.ropeFromConfig: seqLen must be an integer in \[0, 2147483648\]/ });
});

test('bundled by esbuild, an app that imports \'posnorm\' keeps pn.ropeFromConfig and the figures\' kernels (the entry and figure-kernels.js are marked as side effects in package.json)', async () => {
  const { build } = await import('esbuild');
  const { mkdtemp, mkdir, symlink, writeFile, rm } = await import('node:fs/promises');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const { spawnSync } = await import('node:child_process');
  const root = fileURLToPath(new URL('..', import.meta.url));
  const dir = await mkdtemp(join(tmpdir(), 'posnorm-bundle-'));
  try {
    await mkdir(join(dir, 'node_modules'));
    await symlink(root, join(dir, 'node_modules', 'posnorm'), 'dir');
    const wasm = join(root, 'build/wasm/posnorm-simd.wasm');
    await writeFile(join(dir, 'app.mjs'), `import { readFileSync } from 'node:fs';
import { init } from 'posnorm';
const pn = await init({ wasm: readFileSync(${JSON.stringify(wasm)}) });
if (typeof pn.layerNormSteps !== 'function' || typeof pn.residualStack !== 'function' || typeof pn.transformerBlock !== 'function') throw new Error('figure kernels dropped');
console.log(JSON.stringify(Array.from(pn.ropeFromConfig({ hidden_size: 64, num_attention_heads: 1, rope_theta: 10000 }).invFreq.slice(0, 2))));
`);
    await build({ entryPoints: [join(dir, 'app.mjs')], bundle: true, format: 'esm', platform: 'node', outfile: join(dir, 'out.mjs'), logLevel: 'silent', preserveSymlinks: true });
    const r = spawnSync(process.execPath, [join(dir, 'out.mjs')], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    // head dim 64: inv_freq_0 = 1, inv_freq_1 = 10000^(−2/64)
    const [f0, f1] = JSON.parse(r.stdout);
    assert.equal(f0, 1);
    assert.ok(Math.abs(f1 - 10000 ** (-2 / 64)) <= 1e-7, String(f1));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
