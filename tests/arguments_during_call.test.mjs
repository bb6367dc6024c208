// Arguments that change while a call checks them: an option's getter (or a
// Proxy, or another thread) that resizes, detaches or swaps an array after
// it was checked. Each case gave a wrong result, a corrupted heap or a raw
// engine error before the options were read once, first, and the copies
// held to the lengths checked (src/js/validate.js options(), Frame in
// src/js/memory.js). The expected values are the published formulas worked
// by hand: RoPE at position 0 and with cos = 1, sin = 0 is the identity;
// BatchNorm of a column is (x − mean)/sqrt(var + eps) in float64.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Worker } from 'node:worker_threads';
import { builds } from './helpers.mjs';

const all = await builds();

/** A buffer larger than the module's memory now: allocating it grows the memory. */
const growing = (pn) => pn.alloc(pn.heapStats().memoryBytes / 4 + (1 << 20));

/** Fills freed heap memory with `value`, so a read of stale memory shows. */
function dirty(pn, value) {
  const junk = pn.alloc(1 << 16);
  junk.array.fill(value);
  junk.free();
}

const ramp = (n) => Float32Array.from({ length: n }, (_, k) => 1 + k);

for (const { name, pn } of all) {
  test(`${name}: an array shrunk or detached after its check is an error before anything is written`, () => {
    const before = pn.heapStats();
    dirty(pn, 12345);
    const rab = new ArrayBuffer(32 * 4, { maxByteLength: 32 * 4 });
    const x = new Float32Array(rab);
    x.set(ramp(32));
    const out = new Float32Array(32).fill(-7);
    // the scaling option's own getter runs after x was checked
    assert.throws(() => pn.rope(x, { seqLen: 4, heads: 1, headDim: 8, out, scaling: { type: 'linear', get factor() { rab.resize(0); return 2; } } }),
      (e) => e instanceof TypeError && /^posnorm\.rope: x shrank from 32 to 0 values after it was checked/.test(e.message));
    assert.ok(out.every((y) => y === -7), 'out untouched');
    // a top-level getter runs before any argument is checked: x is then seen as it is
    rab.resize(32 * 4);
    x.set(ramp(32));
    assert.throws(() => pn.layerNorm(x, { cols: 8, get eps() { rab.resize(0); return 1e-5; } }),
      (e) => e instanceof RangeError && e.message.includes('x.length must be in [1,'));
    // a getter that grows the module's memory detaches a view of it taken before
    const b = pn.alloc(8);
    b.set([1, 2, 3, 4, 5, 6, 7, 9]);
    let big;
    assert.throws(() => pn.layerNorm(b.array, { cols: 4, get eps() { big = growing(pn); return 1e-5; } }),
      (e) => e instanceof TypeError && e.message.startsWith('posnorm.layerNorm: x is a detached typed array'));
    big.free();
    b.free();
    assert.deepEqual(pn.heapStats().allocations, before.allocations, 'nothing left allocated');
  });

  test(`${name}: a buffer freed by a getter after its check is an error naming the call and the argument, before anything is written`, () => {
    const before = pn.heapStats();
    // x itself, freed by a position id's getter (rope reads the ids after x's check)
    const x = pn.alloc(8).set(ramp(8));
    const ids = [0];
    Object.defineProperty(ids, 0, { get() { x.free(); return 0; } });
    assert.throws(() => pn.rope(x, { seqLen: 1, heads: 1, headDim: 8, positionIds: ids }),
      { name: 'TypeError', message: 'posnorm.rope: x is a posnorm buffer that was freed during the call (by an option\'s getter); nothing was written' });
    // a cache, with out a plain array: out keeps its values
    const cache = pn.alloc(4).set([1, 1, 1, 1]);
    const out = new Float32Array(8).fill(7);
    const ids2 = [0];
    Object.defineProperty(ids2, 0, { get() { cache.free(); return 0; } });
    assert.throws(() => pn.rope(ramp(8), { seqLen: 1, heads: 1, headDim: 8, positionIds: ids2, cosCache: cache, sinCache: new Float32Array(4), out }),
      { name: 'TypeError', message: /^posnorm\.rope: cosCache is a posnorm buffer that was freed during the call/ });
    assert.deepEqual([...out], new Array(8).fill(7));
    const after = pn.heapStats();
    assert.deepEqual([after.allocations, after.bytes], [before.allocations, before.bytes]);
  });

  test(`${name}: an array grown by a getter is read as it is when checked`, () => {
    const rab = new ArrayBuffer(8 * 4, { maxByteLength: 64 * 4 });
    const x = new Float32Array(rab);
    x.set([1, 2, 3, 5, -1, 0, 4, 4]);
    // the options are read first, so the call sees all 64 values (32 rows ×
    // 2 columns); before, its rows were counted after the getter and its
    // size before, and the kernel wrote past the 8 values copied into the
    // heap's own bookkeeping (a RuntimeError at the next free)
    const { y, mean } = pn.batchNorm(x, { cols: 2, get eps() { rab.resize(64 * 4); x.set(ramp(56).map((v) => (v * 7) % 11), 8); return 1e-5; } });
    assert.equal(y.length, 64);
    assert.equal(mean.length, 2);
    for (let c = 0; c < 2; c++) {
      const col = Array.from({ length: 32 }, (_, r) => x[2 * r + c]);
      const m = col.reduce((a, b) => a + b) / 32;
      const variance = col.reduce((a, b) => a + (b - m) ** 2, 0) / 32;
      col.forEach((value, r) => {
        const want = (value - m) / Math.sqrt(variance + 1e-5);
        assert.ok(Math.abs(y[2 * r + c] - want) <= 5e-6, `y[${r}][${c}] ${y[2 * r + c]} vs ${want}`);
      });
    }
    // grown after its check (by the scaling option's getter): the 32 values checked are rotated
    const rab2 = new ArrayBuffer(32 * 4, { maxByteLength: 64 * 4 });
    const q = new Float32Array(rab2);
    q.set(ramp(32));
    const r = pn.rope(q, { seqLen: 4, heads: 1, headDim: 8, scaling: { type: 'linear', get factor() { rab2.resize(64 * 4); return 1; } } });
    assert.equal(r.length, 32);
    for (let p = 0; p < 4; p++) {
      for (let i = 0; i < 4; i++) {
        const t = p * 10000 ** (-2 * i / 8), a = q[8 * p + i], b = q[8 * p + i + 4];
        assert.ok(Math.abs(r[8 * p + i] - (a * Math.cos(t) - b * Math.sin(t))) <= 1e-5, `rope[${p}][${i}]`);
        assert.ok(Math.abs(r[8 * p + i + 4] - (b * Math.cos(t) + a * Math.sin(t))) <= 1e-5, `rope[${p}][${i + 4}]`);
      }
    }
    assert.equal(pn.heapStats().allocations, 0);
  });

  test(`${name}: every option is read once, so the checks and the kernel see the same arrays and values`, () => {
    dirty(pn, 777);
    const x = new Float32Array(32).fill(1);
    const cos = new Float32Array(16).fill(1), sin = new Float32Array(16);
    let reads = 0;
    // cos = 1, sin = 0 at every position: the identity
    const y = pn.rope(x, { seqLen: 4, heads: 1, headDim: 8, sinCache: sin, get cosCache() { reads++; return reads === 1 ? cos : new Float32Array(1).fill(1); } });
    assert.equal(reads, 1);
    assert.deepEqual(Array.from(y), Array.from(x));
    // a position id that reads 0 once and -5 after: position 0 everywhere, the identity
    const ids = [0, 0, 0, 0];
    let idReads = 0;
    Object.defineProperty(ids, 0, { get() { return idReads++ ? -5 : 0; }, enumerable: true });
    const z = pn.rope(ramp(32), { seqLen: 4, heads: 1, headDim: 8, positionIds: ids });
    assert.equal(idReads, 1);
    assert.deepEqual(Array.from(z), Array.from(ramp(32)));
    // longrope factors read once: a factor that turns to 0 after its check
    // reached the kernel's own check, whose message names no argument
    const factors = [1, 1, 1, 1];
    let factorReads = 0;
    Object.defineProperty(factors, 0, { get() { return factorReads++ ? 0 : 1; }, enumerable: true });
    const freq = pn.ropeFrequencies({ dim: 8, scaling: { type: 'longrope', originalMaxPositions: 16, shortFactor: factors, longFactor: [1, 1, 1, 1] } });
    assert.equal(factorReads, 1);
    // factor 1 at every pair: base^(-2i/dim) / 1, rounded to float32
    assert.equal(freq.invFreq.length, 4);
    freq.invFreq.forEach((f, i) => assert.ok(Math.abs(f - 10000 ** (-2 * i / 8)) <= 1e-7 * f, `invFreq[${i}] ${f}`));
  });

  test(`${name}: rope reads scaling (its getters) before the position ids, so an Int32Array of ids changed there is checked and used as changed`, () => {
    // longrope: short factors up to originalMaxPositions, long ones past it;
    // the ids decide which (their maximum + 1 is the sequence length)
    const call = (ids, shortFactor) => pn.rope(new Float32Array(8).fill(1), { seqLen: 2, heads: 1, headDim: 4, positionIds: ids,
      scaling: { type: 'longrope', originalMaxPositions: 4, shortFactor, longFactor: [2, 2] } });
    const withGetter = (ids, value) => {
      const sf = [1, 1];
      Object.defineProperty(sf, 0, { get() { ids[1] = value; return 1; } });
      return sf;
    };
    // an id made negative there is refused by name (it was the kernel's unnamed rejection)
    const neg = new Int32Array([0, 1]);
    assert.throws(() => call(neg, withGetter(neg, -7)), (e) => e instanceof RangeError && e.message.startsWith('posnorm.rope: positionIds[1] must be an integer in [0, '));
    // an id moved past originalMaxPositions there selects the long factors (2): by hand,
    // with x = 1 and rotate-half pairs (j, j + 2), y_j = cos θ - sin θ and
    // y_(j+2) = cos θ + sin θ, θ = p·base^(-2j/4)/2 at p = 100, attention factor 1
    const far = new Int32Array([0, 1]);
    const y = call(far, withGetter(far, 100));
    const th = [100 / 2, (100 * 10000 ** -0.5) / 2];
    const want = [1, 1, 1, 1, Math.cos(th[0]) - Math.sin(th[0]), Math.cos(th[1]) - Math.sin(th[1]), Math.cos(th[0]) + Math.sin(th[0]), Math.cos(th[1]) + Math.sin(th[1])];
    assert.ok(want.every((w, k) => Math.abs(y[k] - w) < 1e-5), `${[...y]} against ${want}`);
  });

  test(`${name}: PnBuffer.set reads its source before it takes the view it writes`, () => {
    const b = pn.alloc(2);
    b.array.fill(-1);
    let big;
    b.set({ length: 2, get 0() { big = growing(pn); return 5; }, 1: 6 });
    assert.deepEqual(Array.from(b.array), [5, 6]);
    // a view detached by that growth is named, not an engine error
    const stale = pn.alloc(2);
    const view = stale.array;
    const more = growing(pn);
    assert.throws(() => b.set(view), (e) => e instanceof TypeError && e.message.startsWith('posnorm.PnBuffer.set: source is a detached typed array'));
    more.free();
    stale.free();
    big.free();
    b.free();
  });
}

for (const { name, pn } of all) {
  test(`${name}: a typed array that misstates its size, type or species is a TypeError, and the module stays usable`, () => {
    const before = pn.heapStats();
    class LyingByteLength extends Float32Array { get byteLength() { return 4; } }
    class TinySpecies extends Float32Array { static get [Symbol.species]() { return function tiny() { return new Float32Array(1); }; } }
    const ownConstructor = new Float32Array(4);
    Object.defineProperty(ownConstructor, 'constructor', { value: Float64Array });
    const ownLength = new Float32Array(4);
    Object.defineProperty(ownLength, 'length', { value: 4096 });
    const proxied = new Proxy(new Float32Array(1024), {});
    // before: 4 bytes copied for 4096 written (a RuntimeError, and every later
    // call failed too), a raw engine error, or a LayerNorm read as float64
    for (const [what, x] of [['byteLength', new LyingByteLength(1024)], ['species', new TinySpecies(1024)], ['own constructor', ownConstructor], ['own length', ownLength], ['Proxy', proxied]]) {
      assert.throws(() => pn.layerNorm(x, { cols: x === ownConstructor || x === ownLength ? 4 : 1024 }),
        (e) => e instanceof TypeError && e.message.startsWith('posnorm.layerNorm: x must be a typed array as the engine makes it'), what);
    }
    const gamma = new Proxy(new Float32Array(4).fill(2), {});
    assert.throws(() => pn.layerNorm(new Float32Array([1, 2, 3, 4]), { cols: 4, gamma }), (e) => e instanceof TypeError && e.message.includes('gamma must be a typed array as the engine makes it'));
    // still usable: LayerNorm of 1, 2, 3, 4 is (x − 2.5)/sqrt(1.25 + 1e-5)
    const y = pn.layerNorm(new Float32Array([1, 2, 3, 4]), { cols: 4 }).y;
    y.forEach((v, k) => assert.ok(Math.abs(v - (k + 1 - 2.5) / Math.sqrt(1.25 + 1e-5)) <= 1e-6, `y[${k}] ${v}`));
    assert.equal(pn.heapStats().allocations, before.allocations);
  });

  test(`${name}: options a Proxy hands out by its get trap alone are read`, () => {
    const x = new Float32Array([1, 2, 3, 4]);
    const gamma = new Float32Array(4).fill(2);
    const out = new Float32Array(4);
    // `in` asks the bare target, which has only cols
    pn.layerNorm(x, new Proxy({ cols: 4 }, { get: (t, k) => (k === 'gamma' ? gamma : k === 'out' ? out : t[k]) }));
    out.forEach((v, k) => assert.ok(Math.abs(v - 2 * (k + 1 - 2.5) / Math.sqrt(1.25 + 1e-5)) <= 2e-6, `out[${k}] ${v}`));
  });
}

for (const { name, pn } of all) {
  test(`${name}: a typed array given another type's prototype is a TypeError wherever the call takes one, nothing is written, and the module stays usable`, () => {
    const before = pn.heapStats();
    /** a Uint8Array of n bytes that says it is a `Type` of n values */
    const relabelled = (n, Type, buffer, offset = 0) => Object.setPrototypeOf(buffer ? new Uint8Array(buffer, offset, n) : new Uint8Array(n), Type.prototype);
    const a = pn.alloc(16), b = pn.alloc(16);
    b.set(new Float32Array(16).fill(7));
    // out: 64 bytes inside a, labelled as 64 floats (256 bytes: b and past it)
    const out = relabelled(64, Float32Array, pn.memory.buffer, a.ptr);
    assert.throws(() => pn.positionalEncoding({ seqLen: 4, dModel: 16, out }),
      (e) => e instanceof TypeError && e.message.startsWith('posnorm.positionalEncoding: out must be a typed array as the engine makes it') && e.message.includes('prototype was changed'));
    assert.ok(b.array.every((y) => y === 7), 'b untouched');
    const x = relabelled(16, Float32Array);
    for (const [what, call] of [
      ['x', () => pn.layerNorm(x, { cols: 4 })],
      ['gamma', () => pn.layerNorm(new Float32Array(4), { cols: 4, gamma: relabelled(4, Float32Array) })],
      ['runningMean', () => pn.batchNorm(new Float32Array(8), { cols: 4, training: false, runningMean: relabelled(4, Float32Array), runningVar: new Float32Array(4).fill(1) })],
      ['positionIds', () => pn.rope(new Float32Array(32), { seqLen: 4, heads: 1, headDim: 8, positionIds: relabelled(4, Int32Array) })],
    ]) {
      assert.throws(call, (e) => e instanceof TypeError && e.message.includes(`: ${what} must be a typed array as the engine makes it`), what);
    }
    // its description says what it is (it said "a Float32Array of length 16")
    assert.throws(() => pn.layerNorm(relabelled(16, Float64Array), { cols: 4 }), (e) => e instanceof TypeError && e.message.endsWith('got a Uint8Array whose prototype was changed'));
    // BigInt64Array underneath: the engine's "Cannot mix BigInt" named nothing
    const big = Object.setPrototypeOf(new BigInt64Array(4), Float32Array.prototype);
    assert.throws(() => pn.layerNorm(big, { cols: 4 }), (e) => e instanceof TypeError && e.message.startsWith('posnorm.layerNorm: x must be a typed array as the engine makes it'));
    a.free(); b.free();
    // still usable: LayerNorm of 1, 2, 3, 4 is (x − 2.5)/sqrt(1.25 + 1e-5)
    const y = pn.layerNorm(new Float32Array([1, 2, 3, 4]), { cols: 4 }).y;
    y.forEach((v, k) => assert.ok(Math.abs(v - (k + 1 - 2.5) / Math.sqrt(1.25 + 1e-5)) <= 1e-6, `y[${k}] ${v}`));
    assert.equal(pn.heapStats().allocations, before.allocations);
  });

  test(`${name}: BatchNorm in inference copies runningMean without calling an iterator of the caller's, so nothing can free or move a buffer after the checks`, () => {
    const before = pn.heapStats();
    const x = Float32Array.of(1, 2, 3, 4, 5, 6, 7, 8);
    const a = pn.alloc(8);
    const out = a.array.subarray(0, 8);
    const runningMean = Float32Array.of(1, 2, 3, 4), runningVar = Float32Array.of(1, 4, 9, 16);
    let called = 0, victim = null;
    runningMean[Symbol.iterator] = function* () {
      called++;
      a.free();
      victim = pn.alloc(8);
      victim.set(new Float32Array(8).fill(-1));
      yield 42;
    };
    const r = pn.batchNorm(x, { cols: 4, training: false, runningMean, runningVar, eps: 0, out });
    assert.equal(called, 0, 'the iterator was not called');
    assert.equal(victim, null);
    // y = (x − mean)/sqrt(var) per column, worked in float64
    const want = Array.from(x, (v, k) => (v - runningMean[k % 4]) / Math.sqrt(runningVar[k % 4]));
    Array.from(r.y).forEach((v, k) => assert.ok(Math.abs(v - want[k]) <= 1e-6, `y[${k}] ${v}, want ${want[k]}`));
    assert.deepEqual(Array.from(r.mean), [1, 2, 3, 4]);
    assert.deepEqual(Array.from(r.var), [1, 4, 9, 16]);
    a.free();
    assert.equal(pn.heapStats().allocations, before.allocations);
  });

  test(`${name}: a revoked Proxy as an array or as options is a TypeError naming the argument`, () => {
    const revoked = () => { const p = Proxy.revocable(new Float32Array(4), {}); p.revoke(); return p.proxy; };
    const x = new Float32Array([1, 2, 3, 4]);
    for (const [what, call] of [
      ['x', () => pn.layerNorm(revoked(), { cols: 4 })],
      ['gamma', () => pn.layerNorm(x, { cols: 4, gamma: revoked() })],
      ['out', () => pn.layerNorm(x, { cols: 4, out: revoked() })],
      ['positionIds', () => pn.rope(new Float32Array(8), { seqLen: 1, heads: 1, headDim: 8, positionIds: revoked() })],
      ['options', () => pn.layerNorm(x, revoked())],
    ]) {
      assert.throws(call, (e) => e instanceof TypeError && e.message.includes(`: ${what} must be`) && e.message.includes('got a revoked Proxy'), what);
    }
  });

  // In a Worker, ended after 20 s: the options' walk up such a chain never
  // returned, and a call that hangs would hang this file's run with it.
  test(`${name}: a Proxy whose prototype chain loops or never ends, as an array, a number or options, is a TypeError naming the argument`, async () => {
    const source = `
      const { parentPort, workerData } = require('node:worker_threads');
      import(workerData.url).then(async ({ init }) => {
        const pn = await init({ simd: workerData.simd });
        // getPrototypeOf answering the Proxy itself, or a new Proxy each time:
        // instanceof overflowed the stack, and the options' walk did not end
        const loop = () => { const p = new Proxy({}, { getPrototypeOf: () => p }); return p; };
        const endless = () => { const h = { getPrototypeOf: () => new Proxy({}, h) }; return new Proxy({}, h); };
        // an ending chain to the first question, a loop afterwards (a check
        // of the chain must not be taken for the walks that follow it)
        const liar = () => { let asked = 0; const p = new Proxy({}, { getPrototypeOf: () => (asked++ ? p : Object.prototype) }); return p; };
        const x = new Float32Array([1, 2, 3, 4]);
        const config = { hidden_size: 64, num_attention_heads: 4 };
        const got = [];
        for (const make of [loop, endless, liar]) {
          for (const [what, call] of [
            ['x', () => pn.layerNorm(make(), { cols: 4 })],
            ['gamma', () => pn.layerNorm(x, { cols: 4, gamma: make() })],
            ['heads', () => pn.alibiSlopes(make())],
            ['positionIds', () => pn.rope(new Float32Array(8), { seqLen: 1, heads: 1, headDim: 8, positionIds: make() })],
            ['options', () => pn.positionalEncoding(make())],
            ['scaling', () => pn.ropeFrequencies({ dim: 8, scaling: make() })],
            ['options', () => pn.ropeFromConfig(config, make())],
          ]) {
            try { call(); got.push([make.name, what, 'returned']); } catch (e) { got.push([make.name, what, e.constructor.name, e.message]); }
          }
        }
        parentPort.postMessage({ got, y: Array.from(pn.layerNorm(x, { cols: 4, eps: 0 }).y) });
      });`;
    const worker = new Worker(source, { eval: true, workerData: { url: new URL('../src/js/posnorm.js', import.meta.url).href, simd: name === 'simd' } });
    let timer;
    const reply = await Promise.race([
      new Promise((resolve, reject) => { worker.once('message', resolve); worker.once('error', reject); }),
      new Promise((resolve) => { timer = setTimeout(() => resolve(null), 20000); }),
    ]).finally(() => { clearTimeout(timer); return worker.terminate(); });
    assert.ok(reply, 'the calls did not return within 20 s');
    assert.equal(reply.got.length, 21);
    for (const [make, what, type, message] of reply.got) {
      // (the liar may answer the message's own question with an ending chain)
      assert.ok(type === 'TypeError' && message.includes(`: ${what} must be`) && (make === 'liar' || message.includes('prototype chain does not end')), `${make} ${what}: ${type} ${message}`);
    }
    // and the instance goes on
    assert.deepEqual(reply.y.map((v) => Math.round(v * 1e4) / 1e4), [-1.3416, -0.4472, 0.4472, 1.3416]);
  });
}
