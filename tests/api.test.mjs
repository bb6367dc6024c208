// The JS API: init options, argument validation, zero-copy buffers, memory.
import { runInNewContext } from 'node:vm';
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { test } from 'node:test';
import { Posnorm, init, simdSupported } from '../src/js/posnorm.js';
import { KERNELS } from '../src/js/loader.js';
import { builds, normals } from './helpers.mjs';

const all = await builds();
const simdUrl = new URL('../build/wasm/posnorm-simd.wasm', import.meta.url);
const scalarUrl = new URL('../build/wasm/posnorm-scalar.wasm', import.meta.url);

test('init picks SIMD where available and accepts a URL, bytes or a Module', async () => {
  assert.equal(simdSupported(), true, 'Node 18+ has WebAssembly SIMD');
  assert.equal((await init()).simd, true);
  assert.equal((await init({ simd: false })).simd, false);
  const bytes = await readFile(scalarUrl);
  assert.equal((await init({ wasm: bytes })).simd, false);
  assert.equal((await init({ wasm: new WebAssembly.Module(await readFile(simdUrl)) })).simd, true);
  assert.equal((await init({ wasm: simdUrl.href })).simd, true);
  // a build named by simd must be the build given: the other one is a TypeError naming wasm
  await assert.rejects(init({ simd: false, wasm: simdUrl }), { name: 'TypeError', message: 'posnorm.init: wasm is the SIMD128 build, but simd: false was requested' });
  await assert.rejects(init({ simd: true, wasm: bytes }), { name: 'TypeError', message: 'posnorm.init: wasm is the scalar build, but simd: true was requested' });
  assert.equal((await init({ simd: true, wasm: simdUrl })).simd, true);
  assert.equal((await init({ simd: false, wasm: { simd: simdUrl, scalar: scalarUrl } })).simd, false);
  // a missing build names what chose it: the caller's option (it blamed "this engine")
  await assert.rejects(init({ simd: false, wasm: { simd: simdUrl } }), { name: 'TypeError', message: 'posnorm.init: wasm.scalar is needed with simd: false' });
  await assert.rejects(init({ wasm: { scalar: scalarUrl } }), { name: 'TypeError', message: 'posnorm.init: wasm.simd is needed on this engine (WebAssembly SIMD128 validates here)' });
  await assert.rejects(init({ wasm: 42 }), TypeError);
  await assert.rejects(init({ simd: 'yes' }), TypeError);
  await assert.rejects(init({ simd: 1n }), { name: 'TypeError', message: 'posnorm.init: simd must be "auto", true or false, got the BigInt 1n' });
  await assert.rejects(init('fast'), TypeError);
});

test('init: a wasm that is not a posnorm build is a TypeError naming wasm, not the engine\'s error', async () => {
  const header = [0, 97, 115, 109, 1, 0, 0, 0]; // "\0asm", version 1
  const detached = new ArrayBuffer(8);
  structuredClone(detached, { transfer: [detached] });
  const cases = [
    // were CompileErrors
    ['three bytes', new Uint8Array([1, 2, 3]), 'wasm is not a WebAssembly module'],
    ['no bytes', new Uint8Array(0), 'wasm is not a WebAssembly module'],
    ['a detached ArrayBuffer', detached, 'wasm is not a WebAssembly module'],
    // was "exports.pn_simd_enabled is not a function"
    ['an empty module', new Uint8Array(header), 'wasm is not a posnorm build: it has no memory, malloc, free, pn_simd_enabled, pn_version'],
    // a module importing m.f (type section: () -> (); import section: "m" "f" func 0): the engine's "Import #0 module=\"m\""
    ['a module importing m.f', new Uint8Array([...header, 1, 4, 1, 96, 0, 0, 2, 7, 1, 1, 109, 1, 102, 0, 0]), 'wasm is not a posnorm build: it imports m.f, which posnorm does not give'],
    // importing env.memory: the engine's LinkError
    ['a module importing env.memory', new Uint8Array([...header, 2, 15, 1, 3, 101, 110, 118, 6, 109, 101, 109, 111, 114, 121, 2, 0, 1]), 'wasm is not a posnorm build: it imports env.memory'],
  ];
  for (const [what, wasm, words] of cases) {
    await assert.rejects(init({ wasm }), (e) => e instanceof TypeError && e.message.startsWith(`posnorm.init: ${words}`), what);
    await assert.rejects(init({ wasm: { simd: wasm, scalar: wasm } }), (e) => e instanceof TypeError && e.message.startsWith(`posnorm.init: ${words}`), `${what} in { simd, scalar }`);
  }
  assert.equal((await init({ wasm: await readFile(simdUrl) })).positionalEncoding({ seqLen: 1, dModel: 2 })[1], 1, 'the real build still loads');
});

test('init: a build without a kernel the wrapper calls is a TypeError naming wasm and the kernel, at init', async () => {
  // the list init checks is every `.pn_…` name the wrapper's sources use
  // (beside the five of every build: memory, malloc, free, pn_simd_enabled, pn_version)
  const used = new Set();
  for (const f of (await readdir(new URL('../src/js/', import.meta.url))).filter((n) => n.endsWith('.js'))) {
    for (const m of (await readFile(new URL(`../src/js/${f}`, import.meta.url), 'utf8')).matchAll(/\.(pn_[a-z0-9_]+)\b/g)) used.add(m[1]);
  }
  used.delete('pn_simd_enabled');
  used.delete('pn_version');
  assert.deepEqual([...KERNELS].sort(), [...used].sort());
  // the real build with one export taken out of its export section
  // (section 7: a count, then per export a name, a kind byte and an index, LEB128 numbers)
  const leb = (b, p) => { let v = 0, shift = 0, byte; do { byte = b[p++]; v += (byte & 0x7f) * 2 ** shift; shift += 7; } while (byte & 0x80); return [v, p]; };
  const toLeb = (v) => { const out = []; do { let byte = v & 0x7f; v = Math.floor(v / 128); if (v) byte |= 0x80; out.push(byte); } while (v); return out; };
  const without = (bytes, name) => {
    const out = [...bytes.subarray(0, 8)];
    for (let p = 8; p < bytes.length;) {
      const id = bytes[p];
      const [size, body] = leb(bytes, p + 1);
      if (id !== 7) out.push(...bytes.subarray(p, body + size));
      else {
        let [count, q] = leb(bytes, body);
        const kept = [];
        let n = 0;
        for (let k = 0; k < count; k++) {
          const start = q;
          const [len, at] = leb(bytes, q);
          const exported = new TextDecoder().decode(bytes.subarray(at, at + len));
          q = leb(bytes, at + len + 1)[1];
          if (exported !== name) { kept.push(...bytes.subarray(start, q)); n++; }
        }
        const section = [...toLeb(n), ...kept];
        out.push(7, ...toLeb(section.length), ...section);
      }
      p = body + size;
    }
    return new Uint8Array(out);
  };
  for (const url of [simdUrl, scalarUrl]) {
    const bytes = new Uint8Array(await readFile(url));
    for (const name of ['pn_layernorm_f32', 'pn_pe_sinusoidal_f32']) {
      const wasm = without(bytes, name);
      assert.equal(WebAssembly.Module.exports(new WebAssembly.Module(wasm)).length, WebAssembly.Module.exports(new WebAssembly.Module(bytes)).length - 1);
      await assert.rejects(init({ wasm }), (e) => e instanceof TypeError && e.message === `posnorm.init: wasm is not a posnorm build: it has no ${name}, which this wrapper calls (a build of another posnorm version?)`, name);
    }
  }
});

test('init: the bytes of a build in any ArrayBufferView load, a DataView (which WebAssembly.compile refuses) and a view into a larger buffer included', async () => {
  const bytes = await readFile(simdUrl);
  // the build's bytes at offset 3 of a larger ArrayBuffer, garbage around them
  const big = new Uint8Array(bytes.length + 8).fill(0xee);
  big.set(bytes, 3);
  for (const [what, wasm] of [['a DataView', new DataView(big.buffer, 3, bytes.length)], ['a Uint8Array', big.subarray(3, 3 + bytes.length)], ['an ArrayBuffer', big.slice(3, 3 + bytes.length).buffer]]) {
    const pn = await init({ wasm });
    // PE[1][0] = sin(1), PE[1][1] = cos(1) (float64 Math, rounded to float32)
    const pe = pn.positionalEncoding({ seqLen: 2, dModel: 2 });
    assert.deepEqual([...pe], [0, 1, Math.fround(Math.sin(1)), Math.fround(Math.cos(1))], what);
  }
  // a DataView of bytes that are no module, or of a transferred buffer, is the same TypeError as a typed array's
  await assert.rejects(init({ wasm: new DataView(new ArrayBuffer(3)) }), (e) => e instanceof TypeError && e.message.startsWith('posnorm.init: wasm is not a WebAssembly module'));
  const gone = big.slice().buffer, dv = new DataView(gone, 3, bytes.length);
  structuredClone(gone, { transfer: [gone] });
  await assert.rejects(init({ wasm: dv }), (e) => e instanceof TypeError && e.message.startsWith('posnorm.init: wasm is not a WebAssembly module'));
});

test('init: a wasm file or address that cannot be read is an Error naming wasm and the URL, with the I/O error as its cause', async () => {
  const { createServer } = await import('node:http');
  const missing = new URL('./no-such-build.wasm', import.meta.url);
  await assert.rejects(init({ wasm: missing }), (e) => e.constructor === Error && e.message === `posnorm.init: could not load wasm from ${missing} (ENOENT)` && e.cause?.code === 'ENOENT');
  // over HTTP: a 404, and an address nothing answers at
  const server = createServer((req, res) => { res.statusCode = 404; res.end(); });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address();
  try {
    const url = `http://127.0.0.1:${port}/posnorm-simd.wasm`;
    await assert.rejects(init({ wasm: url }), (e) => e.constructor === Error && e.message === `posnorm.init: could not load wasm from ${url} (HTTP 404)`);
  } finally {
    await new Promise((r) => server.close(r));
  }
  const closed = `http://127.0.0.1:${port}/posnorm-simd.wasm`;
  await assert.rejects(init({ wasm: closed }), (e) => e.constructor === Error && e.message.startsWith(`posnorm.init: could not load wasm from ${closed} (`) && e.cause instanceof Error);
});

test('init in Node: a wasm path string is a file path, relative to the working directory (as fs takes it); a string with a scheme is that URL', async () => {
  const { mkdtemp, copyFile, rm, mkdir } = await import('node:fs/promises');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const here = process.cwd();
  const dir = await mkdtemp(join(tmpdir(), 'pn wasm #'));
  const scalar = new URL('../build/wasm/posnorm-scalar.wasm', import.meta.url);
  try {
    await mkdir(join(dir, 'sub'));
    await copyFile(scalar, join(dir, 'sub', 'x.wasm'));
    process.chdir(dir);
    const pn = await init({ simd: false, wasm: 'sub/x.wasm' });
    assert.deepEqual([...pn.positionalEncoding({ seqLen: 1, dModel: 2 })], [0, 1], 'loaded from the working directory');
    assert.equal((await init({ simd: false, wasm: join(dir, 'sub', 'x.wasm') })).simd, false, 'an absolute path');
    assert.equal((await init({ simd: false, wasm: String(scalar) })).simd, false, 'a file: URL string');
    // a missing one names the file it looked for: in the working directory, its name escaped as a URL
    const want = `file://${encodeURI(dir).replace(/#/g, '%23')}/nope.wasm`;
    await assert.rejects(init({ wasm: './nope.wasm' }), (e) => e.constructor === Error && e.message === `posnorm.init: could not load wasm from ${want} (ENOENT)`);
    // one letter and a colon is a (Windows) drive, a path here, not a URL scheme; two letters or more are a scheme
    const drive = `file://${encodeURI(dir).replace(/#/g, '%23')}/C:%5Cx.wasm`;
    await assert.rejects(init({ wasm: 'C:\\x.wasm' }), (e) => e.constructor === Error && e.message === `posnorm.init: could not load wasm from ${drive} (ENOENT)`);
    await assert.rejects(init({ wasm: 'data:application/wasm;base64,' }), (e) => e instanceof TypeError && /wasm is not a WebAssembly module/.test(e.message), 'a data: URL is fetched as one');
  } finally {
    process.chdir(here);
    await rm(dir, { recursive: true, force: true });
  }
});

test('init where there is a page (location): a wasm string is an address relative to the page', async () => {
  const { createServer } = await import('node:http');
  const { readFile } = await import('node:fs/promises');
  const bytes = await readFile(new URL('../build/wasm/posnorm-scalar.wasm', import.meta.url));
  const seen = [];
  const server = createServer((req, res) => {
    seen.push(req.url);
    if (req.url === '/sub/x.wasm') res.end(bytes);
    else { res.statusCode = 404; res.end(); }
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const page = `http://127.0.0.1:${server.address().port}/sub/page.html`;
  globalThis.location = new URL(page);
  try {
    const pn = await init({ simd: false, wasm: 'x.wasm' });
    assert.deepEqual([...pn.positionalEncoding({ seqLen: 1, dModel: 2 })], [0, 1]);
    assert.deepEqual(seen, ['/sub/x.wasm'], 'fetched next to the page');
  } finally {
    delete globalThis.location;
    await new Promise((r) => server.close(r));
  }
});

/** [call, error class, words the message must contain] */
function badCalls(pn) {
  const x = new Float32Array(12);
  return [
    [() => pn.positionalEncoding(), TypeError, 'seqLen'],
    [() => pn.positionalEncoding({ seqLen: '4', dModel: 8 }), TypeError, 'seqLen must be an integer in [1,'],
    [() => pn.positionalEncoding({ seqLen: 4.5, dModel: 8 }), RangeError, 'seqLen'],
    [() => pn.positionalEncoding({ seqLen: 0, dModel: 8 }), RangeError, 'seqLen must be an integer in [1, 268435456], got 0'],
    [() => pn.positionalEncoding({ seqLen: 4, dModel: -8 }), RangeError, 'dModel'],
    [() => pn.positionalEncoding({ seqLen: 4, dModel: 8, base: 1 }), RangeError, 'base must be a finite number in (1, ∞), got 1'],
    [() => pn.positionalEncoding({ seqLen: 4, dModel: 8, base: NaN }), RangeError, 'base'],
    [() => pn.positionalEncoding({ seqLen: 4, dModel: 8, offset: -1 }), RangeError, 'offset'],
    [() => pn.positionalEncoding({ seqLen: 4, dModel: 8, layout: 'stacked' }), RangeError, 'layout must be "interleaved" or "concat"'],
    [() => pn.positionalEncoding({ seqLen: 65536, dModel: 8192 }), RangeError, 'seqLen × dModel must be at most 268435456'],
    [() => pn.positionalEncoding({ seqLen: 4, dModel: 8, out: new Float32Array(31) }), RangeError, 'out.length must be 32, got 31'],
    [() => pn.positionalEncoding({ seqLen: 4, dModel: 8, out: new Float64Array(32) }), TypeError, 'out must be a Float32Array'],
    [() => pn.peSample({ n: 10, dim: 8, dModel: 8 }), RangeError, 'dim must be an integer in [0, 7], got 8'],
    [() => pn.layerNorm([1, 2, 3], { cols: 3 }), TypeError, 'x must be a Float32Array'],
    [() => pn.layerNorm(new Float32Array(0), { cols: 1 }), RangeError, 'x.length must be in [1,'],
    [() => pn.layerNorm(x, { cols: 5 }), RangeError, 'x.length (12) must be a multiple of cols (5)'],
    [() => pn.layerNorm(x, {}), TypeError, 'cols'],
    [() => pn.layerNorm(x, { cols: 4, gamma: new Float32Array(3) }), RangeError, 'gamma.length must be 4, got 3'],
    [() => pn.layerNorm(x, { cols: 4, beta: [0, 0, 0, 0] }), TypeError, 'beta must be a Float32Array'],
    [() => pn.layerNorm(x, { cols: 4, eps: -1e-5 }), RangeError, 'eps must be a finite number in [0,'],
    [() => pn.layerNorm(x, 4), TypeError, 'options must be an object'],
    [() => pn.rmsNorm(x, { cols: 4, eps: Infinity }), RangeError, 'eps'],
    [() => pn.batchNorm(x, { cols: 4, momentum: 1.5 }), RangeError, 'momentum must be a finite number in [0, 1]'],
    [() => pn.batchNorm(x, { cols: 4, training: 0 }), TypeError, 'training must be true or false'],
    [() => pn.batchNorm(x, { cols: 4, training: false }), TypeError, 'training: false needs runningMean and runningVar'],
    [() => pn.batchNorm(x, { cols: 4, runningMean: new Float32Array(4) }), TypeError, 'runningMean and runningVar must be given together'],
    [() => pn.rope(x, { seqLen: 1, heads: 2, headDim: 5 }), RangeError, 'x.length must be batch × seqLen × heads × headDim = 10, got 12'],
    [() => pn.rope(x, { seqLen: 1, heads: 2, headDim: 6, rotaryDim: 3 }), RangeError, 'rotaryDim must be even'],
    [() => pn.rope(x, { seqLen: 1, heads: 2, headDim: 6, rotaryDim: 8 }), RangeError, 'rotaryDim must be an integer in [2, 6]'],
    [() => pn.rope(x, { seqLen: 2, heads: 1, headDim: 6, positionIds: [0] }), RangeError, 'positionIds.length must be batch × seqLen = 2, got 1'],
    [() => pn.rope(x, { seqLen: 2, heads: 1, headDim: 6, positionIds: [0, -3] }), RangeError, 'positionIds[1] must be an integer in [0,'],
    [() => pn.rope(x, { seqLen: 2, heads: 1, headDim: 6, positionIds: 'ab' }), TypeError, 'positionIds must be an Int32Array'],
    [() => pn.alibi({ heads: 0, seqLen: 4 }), RangeError, 'heads must be an integer in [1, 65536], got 0'],
    [() => pn.alibi({ heads: 64, seqLen: 4096 }), RangeError, 'heads × seqLen × seqLen must be at most'],
    [() => pn.alibiSlopes(2.5), RangeError, 'heads'],
    [() => pn.randomNormal(0), RangeError, 'n must be an integer in [1,'],
    [() => pn.randomNormal(4, { std: -1 }), RangeError, 'std must be a finite number in [0, 3.4028234663852886e+38], got -1'],
    // the samples are float32: a mean or std beyond its range made every one ±Infinity
    [() => pn.randomNormal(4, { mean: 1e39 }), RangeError, 'mean must be a finite number in [-3.4028234663852886e+38, 3.4028234663852886e+38], got 1e+39'],
    [() => pn.randomNormal(4, { std: 1e300 }), RangeError, 'std must be a finite number in [0, 3.4028234663852886e+38], got 1e+300'],
    // a positive eps at or below 2^-150 rounds to float32 0: a constant row gave NaN, not β
    ...[(o) => pn.layerNorm(x, { cols: 4, ...o }), (o) => pn.rmsNorm(x, { cols: 4, ...o }), (o) => pn.batchNorm(x, { cols: 4, ...o }), (o) => pn.layerNormSteps(x, o)]
      .flatMap((f) => [[() => f({ eps: 7e-46 }), RangeError, 'eps must be 0 or in (7.006492321624085e-46, 3.4028234663852886e+38] (a smaller positive eps rounds to float32 0), got 7e-46'],
        [() => f({ eps: 2 ** -150 }), RangeError, 'eps must be 0 or in (7.006492321624085e-46,']]),
    [() => pn.transformerBlock(new Float32Array(4), new Float32Array(4 * 16 + 2 * 4 * 16), { dModel: 4, eps: 1e-46 }), RangeError, 'eps must be 0 or in ('],
    [() => pn.randomNormal(4, { seed: 2 ** 32 }), RangeError, 'seed must be an integer in [0, 4294967295]'],
    [() => pn.histogram(x, { bins: 0, min: 0, max: 1 }), RangeError, 'bins must be an integer in [1, 65536], got 0'],
    [() => pn.histogram(x, { bins: 4, min: 1, max: 1 }), RangeError, 'min must be less than max'],
    [() => pn.colormap(x, { map: 'rainbow' }), RangeError, 'map must be "diverging" or "sequential"'],
    [() => pn.colormap(x, { vmin: 2, vmax: 1 }), RangeError, 'vmin must be less than vmax'],
    // in order, but one float32: 2^24 + 1 rounds (to even) to 2^24, 2e-45 to the smallest subnormal 2^-149 like 1e-45
    [() => pn.histogram(x, { bins: 4, min: 2 ** 24, max: 2 ** 24 + 1 }), RangeError, 'min must be less than max as float32 values, got min 16777216, max 16777217, both 16777216 as float32'],
    [() => pn.colormap(x, { vmin: 1e-45, vmax: 2e-45 }), RangeError, `vmin must be less than vmax as float32 values, got vmin 1e-45, vmax 2e-45, both ${2 ** -149} as float32`],
    [() => pn.attention(x, { dModel: 4, wq: new Float32Array(16), wk: new Float32Array(16) }), TypeError, 'wv must be a Float32Array'],
    [() => pn.attention(x, { dModel: 4, dHead: 2, wq: new Float32Array(16), wk: new Float32Array(8), wv: new Float32Array(8) }), RangeError, 'wq.length must be 8, got 16'],
    [() => pn.gram(x, { cols: 0 }), RangeError, 'cols must be an integer in [1,'],
    [() => pn.minRowDistance(x, { cols: 12 }), RangeError, 'x.length / cols must be an integer in [2, 8192], got 1'],
    [() => pn.peShift(x, { k: 0.5 }), RangeError, 'k must be an integer'],
    [() => pn.residualStack(x, new Float32Array(7), { width: 2, layers: 2 }), RangeError, 'weights.length must be at least layers × width × width = 8, got 7'],
    [() => pn.residualStack(x, new Float32Array(8), { width: 2, layers: 2, block: 'mid-ln' }), RangeError, 'block must be "plain" or "post-ln" or "pre-ln" or "pre-rms"'],
    [() => pn.layerNormSteps(x, { gamma: new Float32Array(2) }), RangeError, 'gamma.length must be 12, got 2'],
    // a BigInt is shown with its n: "got 4" read as an allowed value
    [() => pn.positionalEncoding({ seqLen: 4n, dModel: 8 }), TypeError, 'seqLen must be an integer in [1, 268435456], got the BigInt 4n'],
    [() => pn.rope(new Float32Array(4), { seqLen: 1, heads: 1, headDim: 4, positionIds: [0n] }), TypeError, 'positionIds[0] must be an integer in [0, 2147483647], got the BigInt 0n'],
    [() => pn.ropeFromConfig({ head_dim: 128n }), TypeError, 'config.head_dim must be an integer >= 1, got the BigInt 128n'],
    // an object without a constructor name: "got a object" before
    [() => pn.layerNorm(x, { cols: 4, gamma: Object.create(null) }), TypeError, 'gamma must be a Float32Array or a posnorm f32 buffer, got an object'],
    [() => pn.alloc(0), RangeError, 'length must be an integer in [1, 268435456], got 0'],
    [() => pn.alloc(2 ** 28 + 1), RangeError, 'length'],
    [() => pn.alloc(16, 'f64'), RangeError, 'type must be "f32" or "u32" or "i32" or "u8c"'],
    // a bound the caller gives is kept: with one given, the data's other
    // bound must lie beyond it (it was moved by 0.5, and the counts were for
    // a range nobody asked for: [1, 2] with min 2 gave min 1.5)
    [() => pn.histogram(new Float32Array([1, 2]), { bins: 2, min: 2 }), RangeError, 'max was not given, and x\'s largest finite value, 2, is not greater than min 2 as float32 values; give max as well'],
    [() => pn.histogram(new Float32Array([5, 6]), { bins: 2, max: 1 }), RangeError, 'min was not given, and x\'s smallest finite value, 5, is not less than max 1'],
    [() => pn.histogram(new Float32Array([NaN, Infinity]), { bins: 2, min: 5 }), RangeError, 'its default where x has no finite value, 1, is not greater than min 5'],
    // scaling's own options are named as scaling's, not as the call's
    [() => pn.rope(new Float32Array(8), { seqLen: 1, heads: 1, headDim: 8, scaling: [1] }), TypeError, 'posnorm.rope: scaling must be an object, got an array of length 1'],
    [() => pn.ropeFrequencies({ dim: 8, scaling: { type: 'linear', factor: 2, foo: 1 } }), TypeError, 'unknown option "foo" in scaling; its options are type, factor,'],
    // past 65536 the scaled frequencies' kernel refused with no argument named
    [() => pn.rope(new Float32Array(65538), { seqLen: 1, heads: 1, headDim: 65538, scaling: { type: 'linear', factor: 2 } }), RangeError, 'rotaryDim (headDim 65538 unless given) must be at most 65536 with scaling, got 65538'],
    // the figure kernels' work: their size limits alone allowed calls of
    // hours (gram at 8192 × 32768 about 1.5 h); refused at once, nothing allocated
    [() => pn.gram(new Float32Array(8192 * 128), { cols: 128 }), RangeError, 'gram: rows·(rows + 1)/2 × cols = 33558528 × 128, its multiply-adds, must be at most 4294967296 (2^32; a call that size takes seconds), got 4295491584'],
    [() => pn.minRowDistance(new Float32Array(8192 * 129), { cols: 129 }), RangeError, 'rows·(rows − 1)/2 × cols = 33550336 × 129, its multiply-adds, must be at most 4294967296'],
    [() => pn.attention(new Float32Array(4096), { dModel: 1, dHead: 4096, wq: new Float32Array(4096), wk: new Float32Array(4096), wv: new Float32Array(4096) }), RangeError, 'seqLen × dHead × (3·dModel + 2·seqLen) = 4096 × 4096 × 8195, its multiply-adds, must be at most 4294967296'],
    [() => pn.residualStack(new Float32Array(4096 * 64), new Float32Array(1024 * 64 * 64), { width: 64, layers: 1024 }), RangeError, 'layers × width² × rows = 1024 × 4096 × 4096, its multiply-adds, must be at most 4294967296'],
    [() => pn.residualStack(new Float32Array(128 * 4096), new Float32Array(4096 * 4096), { width: 4096, layers: 1, gradients: true }), RangeError, '3 × layers × width² × rows = 3 × 1 × 16777216 × 128 with gradients'],
    [() => pn.residualStack(new Float32Array(256 * 4096), new Float32Array(2 * 4096 * 4096), { width: 4096, layers: 1, memory: new Float32Array(4096) }), RangeError, 'layers × width² × (rows + 1) = 1 × 16777216 × 257 with a memory'],
    // another realm's typed array ("must be a Float32Array, got a Float32Array")
    [() => pn.layerNorm(runInNewContext('new Float32Array(4)'), { cols: 4 }), TypeError, 'x must be a Float32Array or a posnorm f32 buffer, got a Float32Array of another realm'],
    [() => pn.layerNorm(x, { cols: 4, gamma: runInNewContext('new DataView(new ArrayBuffer(16))') }), TypeError, 'gamma must be a Float32Array or a posnorm f32 buffer, got a DataView of another realm'],
  ];
}

for (const { name, pn } of all) {
  test(`${name}: the figure kernels' work limit admits exactly 2^32 multiply-adds`, async () => {
    // x a buffer of another instance: a call the work limit lets through stops
    // at the next check (that x belongs elsewhere), before any kernel runs
    const other = await init({ simd: name === 'simd' });
    const foreign = (n) => other.alloc(n);
    const w = (n) => new Float32Array(n);
    const atLimit = [
      ['gram', () => pn.gram(foreign(8192 * 127), { cols: 127 })], // 8192·8193/2·127 = 4 261 933 056
      ['minRowDistance', () => pn.minRowDistance(foreign(8192 * 128), { cols: 128 })], // 2^32 − 524 288
      ['attention', () => pn.attention(foreign(1024 * 2048), { dModel: 2048, dHead: 512, wq: w(2048 * 512), wk: w(2048 * 512), wv: w(2048 * 512) })], // 1024·512·8192 = 2^32
      ['residualStack', () => pn.residualStack(foreign(4096 * 1024), w(1024 * 1024), { width: 1024, layers: 1 })], // 1024²·4096 = 2^32
      ['residualStack', () => pn.residualStack(foreign(4095 * 1024), w(2 * 1024 * 1024), { width: 1024, layers: 1, memory: w(1024) })], // 1024²·(4095 + 1)
    ];
    for (const [fn, call] of atLimit) {
      assert.throws(call, (e) => e instanceof TypeError && e.message.startsWith(`posnorm.${fn}: x`) && e.message.includes('another posnorm instance'), fn);
    }
    // and one more is refused by the limit itself
    const over = [
      ['gram', () => pn.gram(foreign(8192 * 128), { cols: 128 })],
      ['minRowDistance', () => pn.minRowDistance(foreign(8192 * 129), { cols: 129 })],
      ['attention', () => pn.attention(foreign(1024 * 2048), { dModel: 2048, dHead: 513, wq: w(2048 * 513), wk: w(2048 * 513), wv: w(2048 * 513) })],
      ['residualStack', () => pn.residualStack(foreign(4096 * 1024), w(2 * 1024 * 1024), { width: 1024, layers: 1, memory: w(1024) })],
    ];
    for (const [fn, call] of over) assert.throws(call, (e) => e instanceof RangeError && e.message.includes('its multiply-adds, must be at most 4294967296'), fn);
  });

  test(`${name}: every bad argument throws an error naming it, and the module stays usable`, () => {
    const before = pn.heapStats();
    const good = pn.positionalEncoding({ seqLen: 3, dModel: 5 });
    for (const [call, Err, words] of badCalls(pn)) {
      assert.throws(call, (e) => {
        assert.ok(e instanceof Err, `${words}: got ${e.name}: ${e.message}`);
        assert.ok(e.message.includes(words), `message "${e.message}" should contain "${words}"`);
        assert.ok(e.message.startsWith('posnorm.'), 'message names the function');
        return true;
      });
      assert.deepEqual(pn.positionalEncoding({ seqLen: 3, dModel: 5 }), good);
    }
    const after = pn.heapStats();
    assert.deepEqual([after.allocations, after.bytes], [before.allocations, before.bytes], 'no allocation was left behind');
  });

  test(`${name}: 10,000 repeated calls leave no allocation behind`, () => {
    const x = normals(64 * 33, { seed: 1 });
    const gamma = new Float32Array(33).fill(1.5);
    const warm = () => {
      pn.layerNorm(x, { cols: 33, gamma });
      pn.positionalEncoding({ seqLen: 20, dModel: 30 });
      pn.histogram(x, { bins: 10 });
    };
    warm();
    const before = pn.heapStats();
    for (let i = 0; i < 10000; i++) {
      warm();
      if (i % 1000 === 0) {
        try { pn.layerNorm(x, { cols: 5 }); } catch { /* the error path must not leak either */ }
      }
    }
    // live allocations, not the memory's size (which never shrinks, so a leak smaller than
    // what is free in it would not show): a leak of any size fails
    const after = pn.heapStats();
    assert.deepEqual([after.allocations, after.bytes], [before.allocations, before.bytes]);
    assert.equal(after.memoryBytes, before.memoryBytes, 'and the memory did not grow');
  });

  test(`${name}: a kernel that rejects after the call allocated its temporaries leaves nothing behind`, async () => {
    // an instance whose LayerNorm and RoPE kernels reject every call, as a C
    // precondition would, after the wrapper has copied x in and made y
    const { instance } = await WebAssembly.instantiate(await readFile(name === 'simd' ? simdUrl : scalarUrl), { env: { emscripten_notify_memory_growth() {} } });
    const real = instance.exports;
    let mallocs = 0, frees = 0;
    const exports = {
      ...real,
      malloc: (n) => { mallocs++; return real.malloc(n); },
      free: (p) => { frees++; return real.free(p); },
      pn_layernorm_f32: () => -3,
      pn_rope_f32: () => -5,
    };
    real._initialize?.();
    const bad = new Posnorm(exports);
    const x = normals(6 * 32, { seed: 2 });
    assert.throws(() => bad.layerNorm(x, { cols: 32, gamma: new Float32Array(32).fill(1) }), { name: 'RangeError', message: /posnorm\.layerNorm: the kernel rejected its arguments \(an argument was out of range\)/ });
    assert.throws(() => bad.rope(x, { seqLen: 6, heads: 1, headDim: 32 }), /posnorm\.rope: the kernel rejected its arguments \(out of memory\)/);
    assert.ok(mallocs >= 6, `temporaries were allocated (${mallocs})`);
    assert.equal(frees, mallocs, 'and every one freed');
    assert.equal(bad.heapStats().allocations, 0);
    assert.equal(bad.positionalEncoding({ seqLen: 2, dModel: 4 }).length, 8, 'the instance stays usable');
  });

  test(`${name}: every buffer starts on a 64-byte cache line, whatever was allocated before it`, () => {
    // malloc alone gives 8-byte alignment: a v128 access at 8 mod 16 straddles
    // a cache line one time in four (the kernels were 10–20 % slower)
    const held = [];
    try {
      for (const n of [1, 3, 17, 768, 4099, 1 << 20]) {
        const b = pn.alloc(n);
        held.push(b);
        assert.equal(b.ptr % 64, 0, `alloc(${n}) at ${b.ptr}`);
      }
    } finally {
      for (const b of held) b.free();
    }
  });

  test(`${name}: the copies a call makes of plain arrays start on 64-byte lines too`, async () => {
    const { instance } = await WebAssembly.instantiate(await readFile(name === 'simd' ? simdUrl : scalarUrl), { env: { emscripten_notify_memory_growth() {} } });
    const real = instance.exports;
    const seen = [];
    const exports = { ...real, pn_layernorm_f32: (...a) => { seen.push(...a.slice(0, 6).filter((p) => p !== 0)); return real.pn_layernorm_f32(...a); } };
    real._initialize?.();
    const spy = new Posnorm(exports);
    spy.layerNorm(normals(3 * 37, { seed: 9 }), { cols: 37, gamma: new Float32Array(37).fill(1), beta: new Float32Array(37) });
    assert.equal(seen.length, 6, 'y, mean, invStdDev, x, gamma, beta');
    for (const ptr of seen) assert.equal(ptr % 64, 0, `pointer ${ptr}`);
  });

  test(`${name}: zero-copy buffers stay valid after memory grows, and can be freed`, () => {
    const buf = pn.alloc(64 * 16);
    pn.positionalEncoding({ seqLen: 64, dModel: 16, out: buf });
    const oldView = buf.array;
    const copy = Float32Array.from(oldView);
    const big = pn.alloc(16 * 1024 * 1024); // 64 MiB: forces memory.grow
    assert.equal(oldView.length, 0, 'the old view was detached by growth');
    assert.deepEqual(buf.array, copy, 'a fresh view shows the same data');
    assert.equal(buf.array, buf.array, 'the view is cached until the next growth');
    big.free();
    // buf.set() takes its view after its argument ran, so growth inside it is harmless
    const grow = () => { const g = pn.alloc(32 * 1024 * 1024); g.free(); return [1, 2, 3]; };
    buf.set(grow(), 5);
    assert.deepEqual([...buf.toArray().subarray(5, 8)], [1, 2, 3]);
    buf.free();
    buf.free(); // twice is harmless
    assert.equal(buf.freed, true);
    assert.throws(() => buf.array, TypeError);
    assert.throws(() => pn.layerNorm(buf, { cols: 16 }), /already freed/);
  });

  test(`${name}: out arrays are filled and returned; sizes beyond memory are a RangeError`, () => {
    const out = new Float32Array(12);
    assert.equal(pn.positionalEncoding({ seqLen: 3, dModel: 4, out }), out);
    assert.equal(out[1], 1);
    const a = pn.alloc(2 ** 28 - 16); // 1 GiB
    try {
      assert.throws(() => pn.alloc(2 ** 28 - 16), (e) => e instanceof RangeError && /not enough WebAssembly memory/.test(e.message));
      assert.throws(() => pn.positionalEncoding({ seqLen: 2 ** 14, dModel: 2 ** 14 - 1 }), /not enough WebAssembly memory/);
    } finally {
      a.free();
    }
    assert.equal(pn.positionalEncoding({ seqLen: 1, dModel: 2 })[1], 1, 'usable after running out of memory');
  });
}

test('an option name a call does not know is a TypeError that names it', async () => {
  const pn = await init();
  const x = new Float32Array(8).fill(1);
  const cases = [
    ['positionalEncoding', () => pn.positionalEncoding({ seqLen: 2, dModel: 4, precison: 'float32' }), 'precison'],
    ['layerNorm', () => pn.layerNorm(x, { cols: 8, gama: x }), 'gama'],
    ['rmsNorm', () => pn.rmsNorm(x, { cols: 8, beta: x }), 'beta'],
    ['batchNorm', () => pn.batchNorm(x, { cols: 8, momentun: 0.5 }), 'momentun'],
    ['rope', () => pn.rope(x, { seqLen: 1, heads: 1, headDim: 8, interleave: true }), 'interleave'],
    ['peSample', () => pn.peSample({ n: 2, dim: 0, dModel: 4, stop: 3 }), 'stop'],
    ['alibi', () => pn.alibi({ heads: 2, seqLen: 2, causal: true }), 'causal'],
    ['randomNormal', () => pn.randomNormal(4, { sd: 2 }), 'sd'],
    ['histogram', () => pn.histogram(x, { bins: 4, range: [0, 1] }), 'range'],
    ['colormap', () => pn.colormap(x, { cmap: 'diverging' }), 'cmap'],
    ['gram', () => pn.gram(x, { cols: 4, rows: 2 }), 'rows'],
    ['minRowDistance', () => pn.minRowDistance(x, { cols: 4, metric: 'l1' }), 'metric'],
    ['peShift', () => pn.peShift(new Float32Array(4), { k: 1, bas: 100 }), 'bas'],
    ['residualStack', () => pn.residualStack(new Float32Array(4), new Float32Array(16), { width: 4, layers: 1, blocks: 'plain' }), 'blocks'],
    ['layerNormSteps', () => pn.layerNormSteps(x, { epsilon: 1e-5 }), 'epsilon'],
    ['attention', () => pn.attention(new Float32Array(4), { dModel: 2, wq: new Float32Array(4), wk: new Float32Array(4), wv: new Float32Array(4), heads: 1 }), 'heads'],
  ];
  for (const [fn, call, key] of cases) {
    assert.throws(call, { name: 'TypeError', message: new RegExp(`^posnorm\\.${fn}: unknown option "${key}"; the options are `) }, fn);
  }
  await assert.rejects(init({ simd: true, wasmUrl: 'x' }), { name: 'TypeError', message: /posnorm\.init: unknown option "wasmUrl"/ });
  assert.equal(pn.layerNorm(x, { cols: 8 }).y.length, 8, 'still usable');
});

test('an unknown option on the options\' prototype chain (a class\'s getter, Object.create\'s defaults) is a TypeError too; options a class instance holds are read', async () => {
  const pn = await init();
  const x = new Float32Array([1, 2, 3, 4]);
  const gamma = new Float32Array(4).fill(2);
  class Typo { cols = 4; get gama() { return gamma; } }
  assert.throws(() => pn.layerNorm(x, new Typo()), { name: 'TypeError', message: /^posnorm\.layerNorm: unknown option "gama"; the options are / });
  assert.throws(() => pn.layerNorm(x, Object.create({ gama: gamma }, { cols: { value: 4, enumerable: true } })), { name: 'TypeError', message: /unknown option "gama"/ });
  assert.throws(() => pn.layerNorm(x, Object.defineProperty(Object.create({ cols: 4 }), 'gama', { value: gamma })), { name: 'TypeError', message: /unknown option "gama"/ });
  // spelt right, through a class and through Object.create: γ = 2 is used
  class Options { cols = 4; get gamma() { return gamma; } }
  const want = (k) => (2 * (k + 1 - 2.5)) / Math.sqrt(1.25 + 1e-5);
  // a class with methods (its constructor, describe()): they are not options
  class WithMethods { cols = 4; gamma = gamma; describe() { return 'ln'; } }
  // a literal of another realm (a vm context's): its Object.prototype's names are the language's
  const foreign = runInNewContext('({ cols: 4 })');
  foreign.gamma = gamma;
  assert.throws(() => pn.layerNorm(x, runInNewContext('({ cols: 4, gama: 1 })')), { name: 'TypeError', message: /unknown option "gama"/ });
  for (const o of [new Options(), Object.create({ cols: 4, gamma }), Object.assign(Object.create(null), { cols: 4, gamma }), new WithMethods(), foreign]) {
    Array.from(pn.layerNorm(x, o).y).forEach((v, k) => assert.ok(Math.abs(v - want(k)) <= 2e-6, `y[${k}] ${v}`));
  }
});

test('every method and getter, used on anything but an instance (unbound, another object, an object made from an instance, an instance in a Proxy), is a TypeError naming it and saying what it got, before it reads its arguments and without running the receiver\'s code; a subclass\'s instance is an instance', async () => {
  const pn = all[0].pn;
  const names = Object.getOwnPropertyNames(Posnorm.prototype).filter((name) => name !== 'constructor' && !name.startsWith('_'));
  const use = (name) => {
    const d = Object.getOwnPropertyDescriptor(Posnorm.prototype, name);
    return d.get ? (self) => d.get.call(self) : (self) => d.value.call(self, 'not an argument', 'nor this');
  };
  // the package's whole API: the core's calls and getters, ropeFromConfig and the figures' kernels
  for (const name of ['alloc', 'heapStats', 'memory', 'raw', 'layerNorm', 'rope', 'ropeFromConfig', 'residualStack', 'transformerBlock', 'layerNormSteps']) assert.ok(names.includes(name), name);
  assert.ok(names.length >= 26, names.join(', '));
  const before = pn.heapStats();
  // a receiver whose every trap, getter and conversion throws: none of its code may run
  const hostile = new Proxy({}, { get() { throw new Error('trap ran'); }, getPrototypeOf() { throw new Error('trap ran'); }, has() { throw new Error('trap ran'); } });
  const receivers = [
    [undefined, 'undefined'], [null, 'null'], [42, 'a number'], ['pn', 'a string'], [Posnorm, 'a function'],
    [{}, 'an object that is not one'], [Object.create(pn), 'an object that is not one'], [new Proxy(pn, {}), 'an object that is not one'], [hostile, 'an object that is not one'],
  ];
  for (const name of names) {
    for (const [self, got] of receivers) {
      assert.throws(() => use(name)(self), (e) => e instanceof TypeError
        && e.message.startsWith(`posnorm.${name}: this must be an instance from init() (pn.${name}), got ${got}`), `${name} on ${got}`);
    }
  }
  // an instance of a subclass is an instance; and on the instance the same methods still run
  class Mine extends Posnorm {}
  const mine = new Mine(pn.raw);
  assert.deepEqual(Array.from(mine.alibiSlopes(2)), [0.0625, 0.00390625]);
  assert.equal(mine.memory, pn.memory);
  assert.deepEqual(Array.from(pn.alibiSlopes(2)), [0.0625, 0.00390625]);
  assert.deepEqual(pn.heapStats(), before, 'nothing kept');
});

test('an argument of the wrong type is a TypeError naming it whatever its own code does: the message is written without running a Proxy\'s traps, a getter or a conversion of the argument, and does not print a class\'s whole source', () => {
  const pn = all[0].pn;
  const before = pn.heapStats();
  // a "strict" object, as some config libraries make them: reading a property it does not have throws
  const strict = new Proxy({}, { get(target, key) { throw new Error(`strict object: no property ${String(key)}`); } });
  const getterThrows = { get constructor() { throw new Error('getter ran'); } };
  const toStringThrows = Object.assign(() => 4, { toString() { throw new Error('toString ran'); } });
  const x = new Float32Array(8).fill(1);
  const cases = [
    ['layerNorm', 'x must be a Float32Array or a posnorm f32 buffer, got ', () => pn.layerNorm(strict, { cols: 4 })],
    ['layerNorm', 'cols must be an integer in [1, 268435456], got ', () => pn.layerNorm(x, { cols: strict })],
    ['layerNorm', 'gamma must be a Float32Array or a posnorm f32 buffer, got ', () => pn.layerNorm(x, { cols: 4, gamma: getterThrows })],
    ['layerNorm', 'out must be a Float32Array or a posnorm f32 buffer, got ', () => pn.layerNorm(x, { cols: 4, out: strict })],
    ['rope', 'positionIds must be an Int32Array, an array of integers or a posnorm i32 buffer, got ', () => pn.rope(x, { seqLen: 2, heads: 1, headDim: 4, positionIds: strict })],
    ['randomNormal', 'n must be an integer in [1, 268435456], got ', () => pn.randomNormal(toStringThrows)],
    ['alloc', 'type must be "f32" or "u32" or "i32" or "u8c", got ', () => pn.alloc(4, strict)],
  ];
  for (const [fn, words, call] of cases) {
    assert.throws(call, (e) => {
      assert.ok(e instanceof TypeError, `${fn} ${words}: got ${e.name}: ${e.message}`);
      assert.ok(e.message.startsWith(`posnorm.${fn}: ${words}`), e.message);
      return true;
    });
  }
  // a class given by mistake: named, not printed whole (the receiver's check says only "a function")
  const Big = new Function(`return class Big { m() { return '${'x'.repeat(100000)}'; } }`)();
  assert.throws(() => pn.alibiSlopes(Big), (e) => e instanceof TypeError && e.message.startsWith('posnorm.alibiSlopes: heads must be an integer in [1, 65536], got ')
    && (e.message.length < 1000 || assert.fail(`a message of ${e.message.length} characters`)));
  const after = pn.heapStats();
  assert.deepEqual([after.allocations, after.bytes], [before.allocations, before.bytes]);
});
