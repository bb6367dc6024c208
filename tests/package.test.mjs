// The npm package as a user gets it: `npm pack`, installed into a fresh
// project, used from Node, from a page with no bundler, from esbuild and
// Vite builds (loaded in headless Chromium), type-checked by a TypeScript
// consumer, and linted by publint and arethetypeswrong.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { launch, open, pixels, serve, startFigure } from './browser/harness.mjs';
import { installPacked, packTarball } from './packaging.mjs';
import { FIGURES } from '../web/figures/registry.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const pkg = JSON.parse(await readFile(join(root, 'package.json'), 'utf8'));
const bin = (name) => join(root, 'node_modules', '.bin', name);
let work, browser;

function run(cmd, args, cwd) {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  return { code: r.status, out: `${r.stdout}\n${r.stderr}` };
}

before(async () => {
  work = await mkdtemp(join(tmpdir(), 'posnorm-pkg-'));
  // posnorm has no dependencies: the tarball unpacked is the whole install
  await writeFile(join(work, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  await installPacked(work, packTarball(root, work));
  browser = await launch();
});
after(async () => {
  await browser?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

/** Serves `dir`, opens index.html, and checks the figures render cleanly. */
async function renders(dir, tags) {
  const server = await serve({ dir, allow: null, home: '/index.html' });
  try {
    const { page, problems, context } = await open(browser, `${server.url}/index.html`);
    for (const tag of tags) {
      await startFigure(page, tag);
      const { painted, total } = await pixels(page, tag);
      assert.ok(painted > 0.05 * total, `${tag} painted ${painted}/${total}`);
    }
    assert.deepEqual(problems, []);
    await context.close();
  } finally {
    await server.close();
  }
}

test('the packed tarball holds what the exports map names, and nothing of the tests', () => {
  const listing = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--ignore-scripts', '--json'], { cwd: root, encoding: 'utf8' }))[0].files.map((f) => f.path);
  for (const f of ['src/js/posnorm.js', 'src/js/posnorm.d.ts', 'web/figures/index.js', 'web/figures/heatmap.d.ts', 'web/i18n.js', 'build/wasm/posnorm-simd.wasm', 'build/wasm/posnorm-scalar.wasm', 'package.json',
    'web/posnorm.css', 'web/figures/core/embed-dialog.js', 'integrations/hugo/layouts/shortcodes/posnorm.html', 'integrations/jekyll/_includes/posnorm.html']) {
    assert.ok(listing.includes(f), `${f} in the tarball`);
  }
  assert.ok(!listing.some((f) => f.startsWith('tests/') || f.startsWith('bench/')), 'no tests or benchmarks');
  // the README is a front door to docs/: every file it links to travels with it
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
  for (const [, link] of readme.matchAll(/\]\(((?:docs\/|CHANGELOG|LICENSE)[^)#\s]*)/g)) {
    // (docs/benchmarks.md exists once make bench has written it)
    if (existsSync(join(root, link))) assert.ok(listing.includes(link), `${link}, linked from the README, in the tarball`);
  }
});

test('installed package runs its kernels in Node', () => {
  const script = `
    import { init } from 'posnorm';
    const pn = await init();
    const pe = pn.positionalEncoding({ seqLen: 4, dModel: 6, offset: 3 });
    const ln = pn.layerNorm(new Float32Array([1, 2, 3, 4]), { cols: 4 });
    console.log(JSON.stringify({ simd: pn.simd, v: pe[6 * 2 + 2], m: ln.mean[0] }));`;
  const r = run(process.execPath, ['--input-type=module', '-e', script], work);
  assert.equal(r.code, 0, r.out);
  const got = JSON.parse(r.out.trim().split('\n')[0]);
  assert.equal(got.simd, true);
  assert.ok(Math.abs(got.v - Math.sin(5 * Math.pow(10000, -2 / 6))) < 1e-7);
  assert.equal(got.m, 2.5);
});

/**
 * The subpaths the installed package exports: its exact keys, and every
 * file a `*` pattern reaches that no more specific key takes away (null).
 */
async function exportedSubpaths() {
  const { exports } = JSON.parse(await readFile(join(work, 'node_modules/posnorm/package.json'), 'utf8'));
  // the modules: not the wasm, the stylesheet, the Hugo and Jekyll templates or package.json
  const keys = Object.keys(exports).filter((k) => !/\.(wasm|css|html|json)$/.test(k));
  const excluded = (sub) => keys.some((k) => exports[k] === null && (k === sub || (k.endsWith('/*') && sub.startsWith(k.slice(0, -1)))));
  const subpaths = [];
  for (const key of keys) {
    if (exports[key] === null) continue;
    if (!key.includes('*')) {
      subpaths.push(key);
      continue;
    }
    const [head, tail] = exports[key].default.split('*');
    const dir = join(work, 'node_modules/posnorm', head);
    for (const f of (await readdir(dir)).filter((n) => n.endsWith(tail))) {
      const sub = key.replace('*', f.slice(0, -tail.length));
      if (!excluded(sub)) subpaths.push(sub);
    }
  }
  return subpaths;
}

test('every entry point of the installed package imports in Node, where there is no DOM; the internal folders are not exported', async () => {
  const subpaths = await exportedSubpaths();
  const entries = subpaths.map((k) => k.replace(/^\./, 'posnorm'));
  for (const name of FIGURES.map((f) => f.name)) assert.ok(entries.includes(`posnorm/figures/${name}`), `posnorm/figures/${name} is exported`);
  const internal = ['posnorm/figures/core/base', 'posnorm/figures/draw/plots', 'posnorm/figures/registry', 'posnorm/figures/index'];
  const script = `for (const m of ${JSON.stringify(entries)}) await import(m);
    const refused = [];
    for (const m of ${JSON.stringify(internal)}) await import(m).catch((e) => refused.push(e.code));
    console.log(JSON.stringify({ imported: ${entries.length}, refused }));`;
  const r = run(process.execPath, ['--input-type=module', '-e', script], work);
  assert.equal(r.code, 0, r.out);
  assert.deepEqual(JSON.parse(r.out.trim().split('\n')[0]), { imported: entries.length, refused: internal.map(() => 'ERR_PACKAGE_PATH_NOT_EXPORTED') });
  assert.ok(entries.length >= 1 + FIGURES.length);
});

test('a page with no bundler uses the installed package from a static host', async () => {
  const dir = join(work, 'static');
  await mkdir(dir);
  await writeFile(join(dir, 'index.html'), `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>t</title>
    <link rel="icon" href="data:,"></head><body>
    <script type="module" src="./node_modules/posnorm/web/figures/heatmap.js"></script>
    <posnorm-heatmap d-model="32" seq-len="12"></posnorm-heatmap>
    <script type="module" src="./node_modules/posnorm/web/figures/ln-simulator.js"></script>
    <posnorm-ln-simulator></posnorm-ln-simulator></body></html>`);
  await rm(join(dir, 'node_modules'), { force: true, recursive: true });
  execFileSync('cp', ['-r', join(work, 'node_modules'), join(dir, 'node_modules')]);
  await renders(dir, ['posnorm-heatmap', 'posnorm-ln-simulator']);
});

const APP_HTML = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>t</title>
  <link rel="icon" href="data:,"></head><body>
  <posnorm-heatmap seq-len="20"></posnorm-heatmap><posnorm-waveform></posnorm-waveform>
  <script type="module" src="./main.js"></script></body></html>`;

test('an esbuild bundle with two figures renders in Chromium', async () => {
  const src = join(work, 'esbuild-app');
  await mkdir(src);
  // esbuild does not rewrite new URL(..., import.meta.url): the wasm files are
  // imported with the file loader and handed to configure(), as the README says
  await writeFile(join(src, 'main.js'), `
    import { configure } from 'posnorm/figures/heatmap';
    import 'posnorm/figures/waveform';
    import simd from 'posnorm/wasm/posnorm-simd.wasm';
    import scalar from 'posnorm/wasm/posnorm-scalar.wasm';
    configure({ wasm: { simd: new URL(simd, import.meta.url), scalar: new URL(scalar, import.meta.url) } });`);
  const out = join(src, 'dist');
  const r = run(bin('esbuild'), ['main.js', '--bundle', '--format=esm', '--minify', `--outdir=${out}`, '--loader:.wasm=file', '--asset-names=[name]-[hash]', '--log-level=warning'], src);
  assert.equal(r.code, 0, r.out);
  await writeFile(join(out, 'index.html'), APP_HTML);
  await renders(out, ['posnorm-heatmap', 'posnorm-waveform']);
});

test('a Vite build with two figures renders in Chromium', async () => {
  const src = join(work, 'vite-app');
  await mkdir(src);
  await writeFile(join(src, 'index.html'), APP_HTML);
  await writeFile(join(src, 'main.js'), `import 'posnorm/figures/heatmap';\nimport 'posnorm/figures/waveform';\n`);
  const { build } = await import(join(root, 'node_modules', 'vite', 'dist', 'node', 'index.js'));
  await build({ root: src, logLevel: 'warn', configFile: false, build: { outDir: join(src, 'dist'), emptyOutDir: true } });
  await renders(join(src, 'dist'), ['posnorm-heatmap', 'posnorm-waveform']);
});

test('a TypeScript consumer type-checks, and a wrong call does not', async () => {
  const dir = join(work, 'ts');
  await mkdir(dir);
  await writeFile(join(dir, 'tsconfig.json'), JSON.stringify({
    compilerOptions: { target: 'es2022', module: 'nodenext', moduleResolution: 'nodenext', strict: true, noEmit: true, lib: ['es2022', 'dom'], skipLibCheck: false, types: [] },
    include: ['consumer.ts'],
  }));
  await writeFile(join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
  execFileSync('cp', ['-r', join(work, 'node_modules'), join(dir, 'node_modules')]);
  const good = `
    import { init, PnBuffer, Posnorm } from 'posnorm';
    import { PosnormHeatmap, configure, type EmbedCode } from 'posnorm/figures/heatmap';
    configure({ simd: 'auto' });
    const pn = await init({ simd: false });
    // with the dom lib, the memory is the lib's own type (which has more than the fallback's)
    const wasmMemory: WebAssembly.Memory = pn.memory;
    const pe: Float32Array = pn.positionalEncoding({ seqLen: 4, dModel: 8, layout: 'concat' });
    const buf: PnBuffer<'f32'> = pn.alloc(32);
    const same: PnBuffer<'f32'> = pn.positionalEncoding({ seqLen: 4, dModel: 8, out: buf });
    const { y, mean, invStdDev } = pn.layerNorm(pe, { cols: 8, eps: 1e-5 });
    const h = pn.histogram(y, { bins: 4 });
    const given = pn.layerNorm(pe, { cols: 8, meanOut: pn.alloc(4), invStdDevOut: new Float32Array(4) });
    const mb: PnBuffer<'f32'> = given.mean;
    const ib: Float32Array = given.invStdDev;
    const both = pn.layerNorm(pe, { cols: 8, meanOut: new Float32Array(4), invStdDevOut: pn.alloc(4) });
    const sb: PnBuffer<'f32'> = both.invStdDev;
    const rb: PnBuffer<'f32'> = pn.rmsNorm(pe, { cols: 8, invRmsOut: sb }).invRms;
    const n: number = h.counts[0] + h.below + mean[0] + invStdDev[0] + same.length + mb.length + ib[0] + sb.length + both.mean[0] + rb.length;
    const el = document.createElement('posnorm-heatmap');
    const typed: PosnormHeatmap = el;
    typed.dModel = 128;
    configure({ embedBase: 'https://example.org/posnorm/' });
    const code: EmbedCode = typed.embedCode({ base: new URL('https://example.org/posnorm/'), picture: 'a.png' });
    const opened: Promise<void> = typed.showEmbed();
    // the arrays posnorm returns are over an ArrayBuffer: ImageData, Blob and Response take them (docs/api.md's example)
    const px = pn.alloc(4 * 8 * 4, 'u8c');
    pn.colormap(buf, { out: px });
    const pictures = [new ImageData(px.array, 8, 4), new ImageData(pn.colormap(buf), 8, 4)];
    const blob = new Blob([pn.positionalEncoding({ seqLen: 4, dModel: 8 }), y, buf.toArray()]);
    const response = new Response(pn.rmsNorm(pe, { cols: 8 }).y);
    // ropeFromConfig's scaling (null without one) goes to rope() and ropeFrequencies() as it is; so do null gamma and beta
    interface LlamaConfig { hidden_size: number; num_attention_heads: number; rope_theta: number }
    const llama: LlamaConfig = { hidden_size: 64, num_attention_heads: 4, rope_theta: 10000 };
    const cfg = pn.ropeFromConfig(llama);
    const rotated = pn.rope(new Float32Array(16), { seqLen: 1, heads: 1, headDim: 16, scaling: cfg.scaling });
    const freqs = pn.ropeFrequencies({ dim: 16, scaling: cfg.scaling });
    const plain = pn.layerNorm(pe, { cols: 8, gamma: null, beta: null });
    const plainRms = pn.rmsNorm(pe, { cols: 8, gamma: null });
    const ids: readonly number[] = [0];
    const byIds = [pn.rope(new Float32Array(16), { seqLen: 1, heads: 1, headDim: 16, positionIds: ids }), pn.rope(new Float32Array(16), { seqLen: 1, heads: 1, headDim: 16, positionIds: null })];
    // an out that may be absent gives a result that may be either (exactOptionalPropertyTypes keeps the undefined)
    const maybe = Math.random() < 2 ? buf : undefined;
    const either = pn.positionalEncoding({ seqLen: 4, dModel: 8, out: maybe });
    if (!(either instanceof Float32Array)) either.free();
    const maybePx = Math.random() < 2 ? px : undefined;
    const pixelsEither: PnBuffer<'u8c'> | Uint8ClampedArray = pn.colormap(buf, { out: maybePx });
    // longrope's factors: an array or a typed array of numbers, not any array-like (refused at run time)
    const long = pn.ropeFrequencies({ dim: 4, scaling: { type: 'longrope', originalMaxPositions: 4096, shortFactor: [1, 1], longFactor: new Float64Array([1, 2]) } });
    // @ts-expect-error
    pn.ropeFrequencies({ dim: 4, scaling: { type: 'longrope', originalMaxPositions: 4096, shortFactor: { length: 2, 0: 1, 1: 1 }, longFactor: [1, 2] } });
    // a result's type comes from the call's arguments, not from the variable it is assigned to
    // @ts-expect-error
    const notBuffer: PnBuffer = pn.positionalEncoding({ seqLen: 4, dModel: 8 });
    // @ts-expect-error
    const notPixels: PnBuffer<'u8c'> = pn.colormap(pe);
    // instances come from init() and buffers from alloc(): the classes are for instanceof,
    // also through helpers that take a class (as zod's z.instanceof does)
    // @ts-expect-error
    const made = new Posnorm();
    // @ts-expect-error
    const madeBuffer = new PnBuffer();
    const isInstance = <T,>(v: unknown, C: abstract new (...args: any[]) => T): v is T => v instanceof C;
    const isBuffer: boolean = buf instanceof PnBuffer && pn instanceof Posnorm && isInstance(buf, PnBuffer) && isInstance(pn, Posnorm);
    type Instance = InstanceType<typeof Posnorm>;
    const same2: Instance = pn;
    // the figures' events bubble: typed on document too
    document.addEventListener('posnorm-change', (e) => console.log(e.detail.name, e.detail.source));
    configure();
    const shownText: string | undefined = typed.readout?.text;
    // a figure's numbers are undefined until its first frame
    // @ts-expect-error
    const early: number = typed.readout.wavelength;
    console.log(n, typed.readout?.wavelength, code.element, code.iframe, code.markdown, code.html, code.hugo, code.jekyll, opened,
      pictures, blob, response, rotated, freqs, plain, notBuffer, notPixels, early, shownText, made, madeBuffer, isBuffer, same2, long, plainRms, byIds, either, pixelsEither,
      wasmMemory);
  `;
  await writeFile(join(dir, 'consumer.ts'), good);
  let r = run(bin('tsc'), ['-p', dir], dir);
  assert.equal(r.code, 0, r.out);
  // and for projects with exactOptionalPropertyTypes, where an optional out keeps its undefined
  r = run(bin('tsc'), ['-p', dir, '--exactOptionalPropertyTypes'], dir);
  assert.equal(r.code, 0, `with exactOptionalPropertyTypes: ${r.out}`);
  await writeFile(join(dir, 'consumer.ts'), `import { init } from 'posnorm';\nconst pn = await init();\npn.positionalEncoding({ seqLen: '4', dModel: 8 });\n`);
  r = run(bin('tsc'), ['-p', dir], dir);
  assert.notEqual(r.code, 0, 'a string seqLen is a type error');
  assert.match(r.out, /consumer\.ts\(3,25\): error TS2322/, 'the error is at seqLen');
  // a Node project without the dom lib: the main entry's types need none of it (the figures' do), with
  // @types/node (which has URL but no WebAssembly) and without any types at all, and they do not fall to any
  const nodom = `
    import { init, type WasmModule } from 'posnorm';
    const pn = await init({ simd: false });
    const again = await init({ wasm: pn.module, simd: false });
    const mod: WasmModule = again.module;
    const bytes: number = pn.memory.buffer.byteLength;
    const pe: Float32Array = pn.positionalEncoding({ seqLen: 4, dModel: 8 });
    // @ts-expect-error the module is not a number (the types did not fall to any)
    const notNumber: number = pn.module;
    // @ts-expect-error nor is the memory a string
    const notString: string = pn.memory;
    // @ts-expect-error a number is not a wasm source
    await init({ wasm: 5 });
    // @ts-expect-error nor is an object that is none of them (a module is one only as pn.module gives it)
    await init({ wasm: { simd: 5 } });
    export { mod, bytes, pe, notNumber, notString };
  `;
  await writeFile(join(dir, 'consumer.ts'), nodom);
  await mkdir(join(dir, 'node_modules', '@types'), { recursive: true });
  execFileSync('cp', ['-r', join(root, 'node_modules', '@types', 'node'), join(dir, 'node_modules', '@types', 'node')]);
  execFileSync('cp', ['-r', join(root, 'node_modules', 'undici-types'), join(dir, 'node_modules', 'undici-types')]); // @types/node's one dependency
  for (const types of [[], ['node']]) {
    await writeFile(join(dir, 'tsconfig.json'), JSON.stringify({
      compilerOptions: { target: 'es2022', module: 'nodenext', moduleResolution: 'nodenext', strict: true, noEmit: true, lib: ['es2022'], skipLibCheck: false, types },
      include: ['consumer.ts'],
    }));
    r = run(bin('tsc'), ['-p', dir], dir);
    assert.equal(r.code, 0, `lib es2022 without dom, types ${JSON.stringify(types)}: ${r.out}`);
  }
});

test('publint and arethetypeswrong report no problems', () => {
  let r = run(bin('publint'), ['--strict'], root);
  assert.equal(r.code, 0, r.out);
  assert.match(r.out, /All good/);
  // ESM-only by design: CommonJS require() and node10 resolution are out of scope;
  // the .wasm, the stylesheet and the Hugo and Jekyll templates are assets,
  // not modules with types; attw does not expand the ./figures/* pattern, so
  // each figure's subpath is named
  const assets = Object.keys(pkg.exports).filter((k) => /\.(wasm|css|html)$/.test(k));
  assert.ok(assets.length >= 5, assets.join(' '));
  r = run(bin('attw'), ['--pack', '.', '--profile', 'esm-only', '--exclude-entrypoints', ...assets,
    '--include-entrypoints', ...FIGURES.map((f) => `./figures/${f.name}`)], root);
  assert.equal(r.code, 0, r.out);
  assert.doesNotMatch(r.out.replace(/\(ignored[^\n]*/g, ''), /💀|❌|🐛|🥴|❗️/);
  for (const f of FIGURES) assert.match(r.out, new RegExp(`"posnorm/figures/${f.name}"\\s+node16 \\(from ESM\\): 🟢`), `${f.name}: types resolve`);
});
