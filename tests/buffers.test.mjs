// Buffers at the edges: another instance's buffer, Float32Arrays that view
// posnorm's own memory (also when the call grows it), detached views,
// zero-copy subarrays, Symbol.dispose and the FinalizationRegistry net.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { init } from '../src/js/posnorm.js';
import { maxAbsDiff, named, normals } from './helpers.mjs';
import { layerNorm } from './reference/norms.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * Every float32 argument of every call that takes one: [call, argument, n,
 * (an argument of n values) => the call], n the length that argument takes.
 */
function floatArgCases(pn, x8) {
  return [

    ['layerNorm', 'x', 8, (S) => pn.layerNorm(S, { cols: 8 })],
    ['layerNorm', 'gamma', 8, (S) => pn.layerNorm(x8, { cols: 8, gamma: S })],
    ['layerNorm', 'beta', 8, (S) => pn.layerNorm(x8, { cols: 8, beta: S })],
    ['rmsNorm', 'gamma', 8, (S) => pn.rmsNorm(x8, { cols: 8, gamma: S })],
    ['batchNorm', 'x', 8, (S) => pn.batchNorm(S, { cols: 4 })],
    ['batchNorm', 'gamma', 4, (S) => pn.batchNorm(x8, { cols: 4, gamma: S })],
    ['batchNorm', 'beta', 4, (S) => pn.batchNorm(x8, { cols: 4, beta: S })],
    ['batchNorm', 'runningMean', 4, (S) => pn.batchNorm(x8, { cols: 4, training: false, runningMean: S, runningVar: new Float32Array(4).fill(1) })],
    ['batchNorm', 'runningVar', 4, (S) => pn.batchNorm(x8, { cols: 4, training: false, runningMean: new Float32Array(4), runningVar: S })],
    ['roundToPrecision', 'x', 8, (S) => pn.roundToPrecision(S, { precision: 'bfloat16' })],
    ['rope', 'x', 8, (S) => pn.rope(S, { seqLen: 2, heads: 1, headDim: 4 })],
    ['histogram', 'x', 8, (S) => pn.histogram(S, { bins: 4 })],
    ['colormap', 'x', 8, (S) => pn.colormap(S, { vmin: 0, vmax: 8 })],
    ['gram', 'x', 8, (S) => pn.gram(S, { cols: 4 })],
    ['minRowDistance', 'x', 8, (S) => pn.minRowDistance(S, { cols: 4 })],
    ['peShift', 'peRow', 8, (S) => pn.peShift(S, { k: 1 })],
    ['attention', 'x', 8, (S) => pn.attention(S, { dModel: 4, dHead: 2, wq: new Float32Array(8), wk: new Float32Array(8), wv: new Float32Array(8) })],
    ['attention', 'wq', 8, (S) => pn.attention(x8, { dModel: 4, dHead: 2, wq: S, wk: new Float32Array(8), wv: new Float32Array(8) })],
    ['layerNormSteps', 'x', 8, (S) => pn.layerNormSteps(S)],
    ['layerNormSteps', 'gamma', 8, (S) => pn.layerNormSteps(x8, { gamma: S })],
    ['layerNormSteps', 'beta', 8, (S) => pn.layerNormSteps(x8, { beta: S })],
    ['residualStack', 'x0', 2, (S) => pn.residualStack(S, new Float32Array(4), { width: 2, layers: 1 })],
    ['residualStack', 'weights', 4, (S) => pn.residualStack(new Float32Array(2), S, { width: 2, layers: 1 })],
    ['residualStack', 'memory', 2, (S) => pn.residualStack(new Float32Array(2), new Float32Array(8), { width: 2, layers: 1, memory: S })],
    ['residualStack', 'readout', 2, (S) => pn.residualStack(new Float32Array(2), new Float32Array(4), { width: 2, layers: 1, gradients: true, readout: S })],
    ['transformerBlock', 'x', 2, (S) => pn.transformerBlock(S, new Float32Array(48), { dModel: 2 })],
    ['transformerBlock', 'weights', 48, (S) => pn.transformerBlock(new Float32Array(2), S, { dModel: 2 })],
  ];
}

for (const simd of [true, false]) {
  const name = simd ? 'simd' : 'scalar';

  test(`${name}: a buffer of another instance is refused, as input and as out, and both stay usable`, async () => {
    const a = await init({ simd }), b = await init({ simd });
    const x = a.alloc(768).set(normals(768, { seed: 3 }));
    assert.throws(() => b.layerNorm(x, { cols: 768 }), { name: 'TypeError', message: /posnorm\.layerNorm: x is a buffer of another posnorm instance/ });
    const out = a.alloc(768);
    assert.throws(() => b.layerNorm(new Float32Array(768).fill(1), { cols: 768, out }), { name: 'TypeError', message: /out is a buffer of another posnorm instance/ });
    assert.throws(() => b.layerNorm(new Float32Array(768).fill(1), { cols: 768, gamma: a.alloc(768) }), /gamma is a buffer of another posnorm instance/);
    assert.throws(() => b.colormap(new Float32Array(4), { out: a.alloc(16, 'u8c') }), /another posnorm instance/);
    const before = b.heapStats();
    const y = b.layerNorm(x.toArray(), { cols: 768 }).y;
    assert.ok(maxAbsDiff(y, layerNorm(x.toArray(), 768).y) <= 5e-6);
    assert.deepEqual(b.heapStats(), before, 'nothing left behind by the refused calls');
  });

  test(`${name}: a Float32Array viewing this instance's memory is used in place, also when the call grows memory`, async () => {
    const pn = await init({ simd });
    const n = 1 << 22, cols = 1024;
    const buf = pn.alloc(n).set(normals(n, { mean: 3, std: 2, seed: 5 }));
    const view = buf.array.subarray(cols, 3 * cols); // rows 1 and 2, a plain Float32Array
    const expect = layerNorm(Float32Array.from(view), cols).y;
    const memBefore = pn.memory.buffer.byteLength;
    const big = pn.layerNorm(buf.array, { cols }); // a 16 MiB result: the memory must grow
    assert.ok(pn.memory.buffer.byteLength > memBefore, 'the call grew the memory');
    assert.equal(big.y.length, n);
    // the old view is detached now; a fresh one, and in place through out
    const fresh = buf.array.subarray(cols, 3 * cols);
    const got = pn.layerNorm(fresh, { cols, out: fresh });
    assert.ok(maxAbsDiff(got.y, expect) <= 5e-6);
    assert.equal(got.y.byteOffset, buf.ptr + cols * 4, 'the result is the same bytes');
    assert.ok(maxAbsDiff(buf.array.subarray(cols, 3 * cols), expect) <= 5e-6, 'written in place, no copy');
    // out as a view of this memory while the call grows it: a fresh view of the same bytes comes back
    const target = pn.alloc(n);
    const outView = target.array;
    const before2 = pn.memory.buffer.byteLength;
    const r = pn.layerNorm(new Float32Array(n).fill(1.5), { cols, out: outView, gamma: new Float32Array(cols).fill(2), beta: new Float32Array(cols).fill(0.25) });
    assert.ok(pn.memory.buffer.byteLength > before2, 'the call grew the memory');
    assert.equal(outView.length, 0, 'so the caller\'s view is detached');
    assert.equal(r.y.byteOffset, target.ptr);
    assert.equal(r.y.length, n);
    assert.deepEqual([...new Set(r.y)], [0.25], 'constant rows give β');
    assert.deepEqual([...new Set(target.array)], [0.25]);
  });

  test(`${name}: a detached view is refused with a TypeError that says so`, async () => {
    const pn = await init({ simd });
    const buf = pn.alloc(64);
    const stale = buf.array;
    pn.alloc(1 << 24); // grows the memory: stale is detached
    assert.equal(stale.length, 0);
    assert.throws(() => pn.layerNorm(stale, { cols: 64 }), { name: 'TypeError', message: /posnorm\.layerNorm: x is a detached typed array/ });
    assert.throws(() => pn.layerNorm(new Float32Array(64), { cols: 64, out: stale }), { name: 'TypeError', message: /out is a detached typed array/ });
    assert.throws(() => pn.colormap(stale), /detached/);
    // a plain array whose buffer was transferred (to a Worker, say) is detached too, and the
    // message says so rather than only blaming memory growth and suggesting buf.array
    const sent = new Float32Array(64);
    structuredClone(sent.buffer, { transfer: [sent.buffer] });
    assert.throws(() => pn.layerNorm(sent, { cols: 64 }), named('layerNorm', TypeError, ['x is a detached typed array', 'an ArrayBuffer that was transferred']));
    assert.throws(() => buf.set(sent), named('PnBuffer.set', TypeError, ['source is a detached typed array', 'an ArrayBuffer that was transferred']));
    assert.equal(pn.layerNorm(buf, { cols: 64 }).y.length, 64, 'still usable');
  });

  test(`${name}: subarray gives zero-copy access to part of a buffer`, async () => {
    const pn = await init({ simd });
    const cols = 96;
    const data = normals(4 * cols, { mean: -2, std: 4, seed: 9 });
    const buf = pn.alloc(4 * cols).set(data);
    const row2 = buf.subarray(2 * cols, 3 * cols);
    assert.equal(row2.length, cols);
    assert.equal(row2.ptr, buf.ptr + 2 * cols * 4);
    const before = pn.heapStats();
    pn.layerNorm(row2, { cols, out: row2 });
    assert.deepEqual(pn.heapStats().allocations, before.allocations, 'no allocation left');
    const all = buf.toArray();
    assert.deepEqual([...all.subarray(0, 2 * cols)], [...data.subarray(0, 2 * cols)], 'rows 0 and 1 untouched');
    assert.deepEqual([...all.subarray(3 * cols)], [...data.subarray(3 * cols)], 'row 3 untouched');
    assert.ok(maxAbsDiff(all.subarray(2 * cols, 3 * cols), layerNorm(data.subarray(2 * cols, 3 * cols), cols).y) <= 5e-6);
    assert.equal(buf.subarray(-cols).ptr, buf.ptr + 3 * cols * 4, 'negative begin counts from the end');
    assert.throws(() => buf.subarray(5, 5), RangeError);
    assert.throws(() => row2.free(), /does not own its memory/);
    buf.free();
    assert.ok(row2.freed);
    assert.throws(() => pn.layerNorm(row2, { cols }), /already freed/);
  });

  test(`${name}: set refuses a source longer than the buffer before it reads a value, and reads its length once`, async () => {
    const pn = await init({ simd });
    const buf = pn.alloc(8).set([1, 2, 3, 4, 5, 6, 7, 8]);
    let reads = 0;
    // an index read past the 8 the buffer holds is a read too many (before
    // the fix, 2^32 values were read into a 16 GiB array: the process died)
    const counted = (target) => new Proxy(target, {
      get(t, k) {
        if (typeof k === 'string' && /^\d+$/.test(k) && ++reads > 8) throw new Error('a value past the buffer was read');
        return t[k];
      },
    });
    const before = pn.heapStats();
    for (const [length, source] of [[2 ** 32, counted({ length: 2 ** 32 })], [2 ** 53, counted({ length: 2 ** 53 })], [9, counted([1, 2, 3, 4, 5, 6, 7, 8, 9])], [-1, { length: -1 }]]) {
      assert.throws(() => buf.set(source), named('PnBuffer.set', RangeError, [`source.length must be an integer in [0, 8] (the buffer's length), got ${length}`]), String(length));
      assert.equal(reads, 0, `${length}: no value read`);
    }
    // a length that grows on its second read: the values read are the first length's
    let lengthReads = 0;
    const growing = counted({ get length() { return lengthReads++ ? 2 ** 32 : 2; }, 0: 10, 1: 20 });
    buf.set(growing, 6);
    assert.equal(lengthReads, 1);
    assert.deepEqual(Array.from(buf.array), [1, 2, 3, 4, 5, 6, 10, 20]);
    assert.deepEqual(pn.heapStats(), before, 'nothing allocated');
    buf.free();
  });

  test(`${name}: set and subarray name what they cannot take (engine errors before), write nothing, and a typed array's length is its own`, async () => {
    const pn = await init({ simd });
    const buf = pn.alloc(4).set([1, 2, 3, 4]);
    const ownLength = Object.defineProperty(new Float32Array(100), 'length', { value: 2 });
    class Short extends Float32Array { get length() { return 2; } }
    const cases = [
      // these said "offset is out of bounds" (the length said 2, the copy took 100)
      [ownLength, RangeError, ['source.length must be an integer in [0, 4]', 'got 100']],
      [new Short(100), RangeError, ['source.length must be an integer in [0, 4]', 'got 100']],
      [new Proxy(new Float32Array(2), {}), TypeError, ['source must be an array or a typed array', 'Proxy of a typed array']],
      [new BigInt64Array(2), TypeError, ['source must hold numbers, got a BigInt64Array']],
      [[1, 2n], TypeError, ['source[1] must be a number, got the BigInt 2n']],
      [[Symbol('s')], TypeError, ['source[0] must be a number, got Symbol(s)']],
    ];
    for (const [source, Err, words] of cases) {
      assert.throws(() => buf.set(source), named('PnBuffer.set', Err, words), words[0]);
      assert.deepEqual(Array.from(buf.array), [1, 2, 3, 4], `${words[0]}: nothing written`);
    }
    // a typed array is copied by its own length, whatever its length property says
    const longer = Object.defineProperty(Float32Array.of(7, 8), 'length', { value: 4 });
    assert.deepEqual(Array.from(buf.set(longer, 2).array), [1, 2, 7, 8]);
    assert.throws(() => buf.set([1], 1n), named('PnBuffer.set', TypeError, ['offset must be an integer in [0, 3] for a source of 1 values in a buffer of 4, got the BigInt 1n']));
    assert.throws(() => buf.subarray(Symbol('b')), named('PnBuffer.subarray', TypeError, ['begin must be a number, got Symbol(b)']));
    assert.throws(() => buf.subarray(0, Symbol('e')), named('PnBuffer.subarray', TypeError, ['end must be a number, got Symbol(e)']));
    buf.free();
  });

  test(`${name}: set copies another PnBuffer's values (this instance's, another's, overlapping); a freed one is refused by name`, async () => {
    const pn = await init({ simd }), other = await init({ simd });
    const a = pn.alloc(4).set([1, 2, 3, 4]), b = pn.alloc(6).set([9, 9, 9, 9, 9, 9]);
    b.set(a, 1);
    assert.deepEqual(Array.from(b.array), [9, 1, 2, 3, 4, 9]);
    const c = other.alloc(2).set([-1.5, 0.25]);
    b.set(c);
    assert.deepEqual(Array.from(b.array), [-1.5, 0.25, 2, 3, 4, 9]);
    // overlapping: the values as they were before the copy (memmove)
    b.set(b.subarray(0, 4), 2);
    assert.deepEqual(Array.from(b.array), [-1.5, 0.25, -1.5, 0.25, 2, 3]);
    c.free();
    assert.throws(() => b.set(c), { name: 'TypeError', message: 'posnorm.PnBuffer.set: source is a PnBuffer that was freed' });
    assert.deepEqual(Array.from(b.array), [-1.5, 0.25, -1.5, 0.25, 2, 3], 'nothing written');
    assert.throws(() => b.set(a, 3), { name: 'RangeError', message: /offset must be an integer in \[0, 2\] for a source of 4 values/ });
    // a string offset is shown as one (got 1 read as an allowed value), and
    // is a wrong type: a TypeError, as api.md says of every wrong type
    assert.throws(() => b.set(a, '1'), { name: 'TypeError', message: 'posnorm.PnBuffer.set: offset must be an integer in [0, 2] for a source of 4 values in a buffer of 6, got "1"' });
    assert.throws(() => b.set(a, 1n), { name: 'TypeError', message: /got the BigInt 1n$/ });
    assert.throws(() => b.set(a, 1.5), { name: 'RangeError' });
    a.free(); b.free();
  });

  test(`${name}: a view kept from a freed buffer is refused once its bytes belong to another buffer, as out and as input, and that buffer is untouched`, async () => {
    const pn = await init({ simd });
    const before = pn.heapStats();
    const a = pn.alloc(8);
    const stale = a.array;
    a.free();
    // the allocator hands the same bytes to the next buffer of that size
    const b = pn.alloc(8).set([7, 7, 7, 7, 7, 7, 7, 7]);
    assert.equal(stale.byteOffset, b.ptr, 'the freed bytes were reused (else this test shows nothing)');
    const x = Float32Array.from([1, 2, 3, 4, 5, 6, 7, 8]);
    const refused = (what) => (e) => e instanceof TypeError && e.message.startsWith(`posnorm.layerNorm: ${what} views a posnorm buffer that was freed`);
    assert.throws(() => pn.layerNorm(x, { cols: 8, out: stale }), refused('out'));
    assert.throws(() => pn.layerNorm(stale, { cols: 8 }), refused('x'));
    assert.throws(() => pn.rmsNorm(x, { cols: 8, gamma: stale }), (e) => e instanceof TypeError && /^posnorm\.rmsNorm: gamma views a posnorm buffer that was freed/.test(e.message));
    // where a call reads a user array itself, outside the kernels' argument checks
    assert.throws(() => pn.ropeFrequencies({ dim: 16, scaling: { type: 'longrope', originalMaxPositions: 4, shortFactor: stale, longFactor: new Float32Array(8).fill(1) } }),
      (e) => e instanceof TypeError && e.message.startsWith('posnorm.ropeFrequencies: scaling.shortFactor views a posnorm buffer that was freed'));
    const c = pn.alloc(8).set([3, 3, 3, 3, 3, 3, 3, 3]);
    assert.throws(() => c.set(stale), (e) => e instanceof TypeError && e.message.startsWith('posnorm.PnBuffer.set: source views a posnorm buffer that was freed'));
    assert.deepEqual([...c.array], [3, 3, 3, 3, 3, 3, 3, 3], 'set wrote nothing');
    c.free();
    assert.deepEqual([...b.array], [7, 7, 7, 7, 7, 7, 7, 7], 'the buffer that owns the bytes now is untouched');
    // b's own view works, in place; LayerNorm of 7s is 0 (a constant row gives beta)
    assert.deepEqual([...pn.layerNorm(b.array, { cols: 8, out: b.array }).y], [0, 0, 0, 0, 0, 0, 0, 0]);
    // a view built by hand that starts inside b and runs past its end is held to lie within one live buffer
    const past = new Float32Array(b.array.buffer, b.ptr, 12);
    assert.throws(() => pn.layerNorm(new Float32Array(12), { cols: 12, out: past }), (e) => e instanceof TypeError && e.message.startsWith("posnorm.layerNorm: out views the module's memory outside every live posnorm buffer"));
    assert.deepEqual([...b.array], [0, 0, 0, 0, 0, 0, 0, 0], 'nothing written');
    b.free();
    assert.deepEqual(pn.heapStats(), before, 'nothing leaked');
  });

  test(`${name}: a view kept from a freed buffer is refused as every float32 argument of every call that takes one, and the buffer that owns its bytes now is untouched`, async () => {
    const pn = await init({ simd });
    const before = pn.heapStats();
    const x8 = Float32Array.from([1, 2, 3, 4, 5, 6, 7, 8]);
    const cases = floatArgCases(pn, x8);
    for (const [fn, arg, n, call] of cases) {
      const freed = pn.alloc(n);
      const stale = freed.array;
      freed.free();
      // the allocator hands the same bytes to the next buffer of that size
      const owner = pn.alloc(n).set(Array.from({ length: n }, (_, k) => k + 0.5));
      assert.equal(stale.byteOffset, owner.ptr, `${fn} ${arg}: the freed bytes were reused (else this case shows nothing)`);
      // (the same bytes read through a live view are a valid argument: the call runs)
      call(owner.array);
      assert.throws(() => call(stale), (e) => e instanceof TypeError && e.message.startsWith(`posnorm.${fn}: ${arg} views a posnorm buffer that was freed`), `${fn} ${arg}`);
      assert.deepEqual([...owner.array], Array.from({ length: n }, (_, k) => k + 0.5), `${fn} ${arg}: the owner is untouched`);
      owner.free();
    }
    assert.deepEqual(pn.heapStats(), before, 'nothing leaked');
  });

  test(`${name}: a buffer with its own length, ptr or freed is refused as every float32 argument of every call that takes one, and as every output, naming it; nothing is written`, async () => {
    const pn = await init({ simd });
    const before = pn.heapStats();
    const x8 = Float32Array.from([1, 2, 3, 4, 5, 6, 7, 8]);
    // (transformerBlock names its weights "weights (Wq, Wk, Wv, Wo, W1, W2)")
    const refused = (fn, arg) => (e) => e instanceof TypeError && e.message.startsWith(`posnorm.${fn}: ${arg}`)
      && e.message.includes(' must be a posnorm buffer as alloc() or subarray() made it: not one given its own ');
    const shadow = (n, key) => {
      const b = pn.alloc(n).set(Array.from({ length: n }, (_, k) => k + 0.5));
      Object.defineProperty(b, key, { value: key === 'freed' ? false : key === 'ptr' ? 8 : 36 * n });
      return b;
    };
    const neighbour = pn.alloc(1024).set(new Float32Array(1024).fill(7));
    for (const key of ['length', 'ptr', 'freed']) {
      for (const [fn, arg, n, call] of floatArgCases(pn, x8)) {
        const b = shadow(n, key);
        assert.throws(() => call(b), refused(fn, arg), `${fn} ${arg} with its own ${key}`);
        assert.deepEqual([...b.array], Array.from({ length: n }, (_, k) => k + 0.5), `${fn} ${arg}: the buffer is untouched`);
        b.free();
      }
      // outputs: out, the row statistics, positionIds (i32)
      const outs = [
        ['layerNorm', 'out', 8, (B) => pn.layerNorm(x8, { cols: 8, out: B })],
        ['layerNorm', 'meanOut', 1, (B) => pn.layerNorm(x8, { cols: 8, meanOut: B })],
        ['layerNorm', 'invStdDevOut', 1, (B) => pn.layerNorm(x8, { cols: 8, invStdDevOut: B })],
        ['rmsNorm', 'invRmsOut', 1, (B) => pn.rmsNorm(x8, { cols: 8, invRmsOut: B })],
        ['positionalEncoding', 'out', 8, (B) => pn.positionalEncoding({ seqLen: 2, dModel: 4, out: B })],
        ['rope', 'out', 8, (B) => pn.rope(x8, { seqLen: 2, heads: 1, headDim: 4, out: B })],
        ['alibi', 'out', 8, (B) => pn.alibi({ heads: 2, seqLen: 2, out: B })],
        ['randomNormal', 'out', 8, (B) => pn.randomNormal(8, { out: B })],
      ];
      for (const [fn, arg, n, call] of outs) {
        const b = shadow(n, key);
        assert.throws(() => call(b), refused(fn, arg), `${fn} ${arg} with its own ${key}`);
        assert.deepEqual([...b.array], Array.from({ length: n }, (_, k) => k + 0.5), `${fn} ${arg}: nothing written`);
        b.free();
      }
      const ids = pn.alloc(2, 'i32').set([0, 1]);
      Object.defineProperty(ids, key, { value: key === 'freed' ? false : key === 'ptr' ? 8 : 72 });
      assert.throws(() => pn.rope(x8, { seqLen: 2, heads: 1, headDim: 4, positionIds: ids }), refused('rope', 'positionIds'), `positionIds with its own ${key}`);
      ids.free();
    }
    assert.deepEqual([...neighbour.array], new Array(1024).fill(7), 'no call wrote past its arguments');
    neighbour.free();
    assert.deepEqual(pn.heapStats(), before, 'nothing leaked');
  });

  test(`${name}: an object that poses as a buffer (says isPnBuffer, or inherits from one) is a TypeError naming the argument, not an engine error`, async () => {
    const pn = await init({ simd });
    const real = pn.alloc(4).set([1, 2, 3, 4]);
    const posers = [['a plain object', { isPnBuffer: true, type: 'f32', length: 4 }], ['Object.create(buf)', Object.create(real)]];
    for (const [what, p] of posers) {
      const posing = (fn, arg) => (e) => e instanceof TypeError && e.message.startsWith(`posnorm.${fn}: ${arg} must be a Float32Array or a posnorm f32 buffer, got an object posing as a posnorm buffer`);
      assert.throws(() => pn.histogram(p, { bins: 2 }), posing('histogram', 'x'), `histogram, ${what}`);
      assert.throws(() => pn.layerNorm(p, { cols: 4 }), posing('layerNorm', 'x'), `layerNorm, ${what}`);
      assert.throws(() => pn.layerNorm(new Float32Array(4), { cols: 4, gamma: p }), posing('layerNorm', 'gamma'), `layerNorm gamma, ${what}`);
      assert.throws(() => pn.positionalEncoding({ seqLen: 2, dModel: 2, out: p }), (e) => e instanceof TypeError && e.message.startsWith('posnorm.positionalEncoding: out must be'), `PE out, ${what}`);
    }
    // PnBuffer.set's source: it filled the buffer with NaN, or died on a private field
    const target = pn.alloc(4).set([5, 5, 5, 5]);
    for (const [what, p] of posers) {
      assert.throws(() => target.set(p), (e) => e instanceof TypeError && e.message.startsWith('posnorm.PnBuffer.set: source is an object posing as a posnorm buffer'), `set, ${what}`);
    }
    assert.deepEqual([...target.array], [5, 5, 5, 5], 'set wrote nothing');
    target.free();
    // a real buffer of the wrong type is named as one
    const ids = pn.alloc(4, 'i32');
    assert.throws(() => pn.layerNorm(ids, { cols: 4 }), (e) => e instanceof TypeError && e.message.endsWith('got a posnorm i32 buffer'));
    // LayerNorm of [1, 2, 3, 4]: mean 2.5, variance 1.25, (x - 2.5)/sqrt(1.25 + 1e-5)
    const want = [1, 2, 3, 4].map((v) => (v - 2.5) / Math.sqrt(1.25 + 1e-5));
    const got = pn.layerNorm(real, { cols: 4 }).y;
    assert.ok(want.every((w, k) => Math.abs(got[k] - w) < 1e-6), 'the module is usable after');
    ids.free();
    real.free();
  });

  test(`${name}: Symbol.dispose frees a buffer`, async () => {
    const pn = await init({ simd });
    const before = pn.heapStats().allocations;
    const b = pn.alloc(100);
    assert.equal(pn.heapStats().allocations, before + 1);
    b[Symbol.dispose]();
    assert.ok(b.freed);
    assert.equal(pn.heapStats().allocations, before);
  });
}

test('a buffer whose view is kept is not freed by the FinalizationRegistry when the buffer itself is dropped', () => {
  // the view is all the caller keeps (pn.alloc(n).array): were its buffer
  // collected and freed, the next alloc would reuse the bytes under it
  const TURNS = 20;
  const script = `
    import { init } from './src/js/posnorm.js';
    const pn = await init();
    const base = pn.heapStats().allocations;
    const views = (() => Array.from({ length: 50 }, () => pn.alloc(1000).array))();
    for (const [k, v] of views.entries()) v.fill(k);
    for (let turn = 0; turn < ${TURNS}; turn++) {
      globalThis.gc();
      await new Promise((r) => setImmediate(r));
    }
    const held = pn.heapStats().allocations - base;
    // new buffers must not land on the kept views' bytes
    const fresh = Array.from({ length: 50 }, () => pn.alloc(1000).set(new Float32Array(1000).fill(-1)));
    const intact = views.every((v, k) => v.every((x) => x === k));
    console.log(JSON.stringify({ held, intact, usable: (() => { try { pn.layerNorm(views[3], { cols: 1000 }); return true; } catch (e) { return e.message; } })() }));
    fresh.length = 0;`;
  const r = spawnSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', script], { cwd: root, encoding: 'utf8', timeout: 60000 });
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout), { held: 50, intact: true, usable: true }, 'the 50 buffers stay allocated while their views live, and their values stay theirs');
});

test('a buffer garbage-collected without free() is freed by the FinalizationRegistry', () => {
  // Deterministic: a forced full collection (--expose-gc) clears every dropped buffer at
  // once; the registry's callbacks then run as tasks, so each turn yields to the event loop
  // once. A bounded number of turns (measured: 1) rather than waiting on a clock.
  const TURNS = 20;
  const script = `
    import { init } from './src/js/posnorm.js';
    const pn = await init();
    const base = pn.heapStats();
    (() => { for (let k = 0; k < 200; k++) pn.alloc(1000); })();
    const held = pn.heapStats();
    let turns = 0;
    while (pn.heapStats().allocations > base.allocations && turns < ${TURNS}) {
      globalThis.gc();
      await new Promise((r) => setImmediate(r));
      turns++;
    }
    console.log(JSON.stringify({ base, held, after: pn.heapStats(), turns }));`;
  const r = spawnSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', script], { cwd: root, encoding: 'utf8', timeout: 60000 });
  assert.equal(r.status, 0, r.stderr);
  const { base, held, after, turns } = JSON.parse(r.stdout);
  assert.deepEqual([held.allocations - base.allocations, held.bytes - base.bytes], [200, 200 * 4000], '200 buffers of 1000 floats held');
  assert.ok(after.allocations === base.allocations,
    `after ${turns} forced collections and event-loop turns, ${after.allocations - base.allocations} of the 200 dropped buffers are still allocated: the FinalizationRegistry did not free them`);
  assert.equal(after.bytes, base.bytes, 'every dropped buffer was freed, bytes included');
});

test('every method and getter of a buffer, used on anything but a buffer (unbound, another object, an object made from a buffer, a buffer in a Proxy), is a TypeError naming it and saying what it got, without running the receiver\'s code; the buffer itself still works', async () => {
  const pn = await init();
  const buf = pn.alloc(4).set([1, 2, 3, 4]);
  const proto = Object.getPrototypeOf(buf);
  // every own member of the class but the constructor and isPnBuffer (a marker, true on anything made from a buffer)
  const keys = Reflect.ownKeys(proto).filter((k) => k !== 'constructor' && k !== 'isPnBuffer');
  // (the disposer's key: Symbol.dispose, which Node 20 defines as Symbol('nodejs.dispose'))
  const label = (k) => (k === Symbol.dispose ? '[Symbol.dispose]' : String(k));
  for (const k of ['ptr', 'length', 'type', 'byteLength', 'freed', 'array', 'subarray', 'set', 'toArray', 'free', '[Symbol.dispose]']) {
    assert.ok(keys.map(label).includes(k), `${k} is a member (${keys.map(label).join(', ')})`);
  }
  // each method with no arguments (subarray's default end is read from the receiver) and with some
  const uses = (k) => {
    const d = Object.getOwnPropertyDescriptor(proto, k);
    return d.get ? [(self) => d.get.call(self)] : [(self) => d.value.call(self), (self) => d.value.call(self, [0], 0)];
  };
  const hostile = new Proxy({}, { get() { throw new Error('trap ran'); }, getPrototypeOf() { throw new Error('trap ran'); }, has() { throw new Error('trap ran'); } });
  // a receiver whose traps, conversions and toString count their calls: none may run
  let ran = 0;
  const counted = new Proxy(buf, Object.fromEntries(['get', 'has', 'getPrototypeOf', 'getOwnPropertyDescriptor', 'ownKeys', 'set', 'defineProperty', 'apply'].map((t) => [t, (...a) => { ran++; return Reflect[t](...a); }])));
  const converts = { valueOf() { ran++; return 0; }, toString() { ran++; return 'x'; }, [Symbol.toPrimitive]() { ran++; return 0; } };
  const receivers = [
    [undefined, 'undefined'], [null, 'null'], [42, 'a number'], ['buf', 'a string'], [Symbol('buf'), 'a symbol'], [4n, 'a bigint'], [proto.constructor, 'a function'],
    [{}, 'an object that is not one'], [Object.create(null), 'an object that is not one'], [Object.create(buf), 'an object that is not one'],
    [new Proxy(buf, {}), 'an object that is not one'], [hostile, 'an object that is not one'], [counted, 'an object that is not one'], [converts, 'an object that is not one'],
  ];
  for (const k of keys) {
    const name = label(k), call = name.startsWith('[') ? `buf${name}` : `buf.${name}`;
    for (const use of uses(k)) {
      for (const [self, got] of receivers) {
        assert.throws(() => use(self), (e) => e instanceof TypeError
          && e.message.startsWith(`posnorm.PnBuffer.${name}: this must be a buffer from pn.alloc() or buf.subarray() (${call}), got ${got}`), `${name} on ${got}`);
      }
    }
  }
  assert.equal(ran, 0, 'no trap, conversion or toString of a receiver ran');
  // nothing was written or freed by the refused calls
  assert.deepEqual(Array.from(buf.toArray()), [1, 2, 3, 4]);
  assert.equal(buf.freed, false);
  assert.equal(buf.length, 4);
  assert.equal(buf.subarray(1, 3).byteLength, 8);
  buf.free();
  assert.equal(buf.freed, true);
  assert.equal(pn.heapStats().allocations, 0);
});

test('a buffer cannot be made with new; a buffer given its own length, ptr, freed… or another prototype is refused by every call, naming the argument, and nothing is written; odd arguments are named', async () => {
  const pn = await init();
  const { PnBuffer } = await import('../src/js/posnorm.js');
  const made = /^posnorm\.PnBuffer: a buffer comes from pn\.alloc\(\) or buf\.subarray\(\), not from new$/;
  const a = pn.alloc(4).set([1, 2, 3, 4]);
  // (only the module's own token will do: not another symbol of the same name, nor an object)
  for (const token of [undefined, Symbol('posnorm buffer'), {}]) {
    assert.throws(() => new PnBuffer(token, undefined, 0, 4, 'f32'), { name: 'TypeError', message: made });
    assert.throws(() => new a.constructor(token, undefined, 0, 4, 'f32'), { name: 'TypeError', message: made });
  }
  assert.throws(() => new PnBuffer(), { name: 'TypeError', message: made });
  // a buffer of 4 with an own length of 36 had layerNorm write 32 values past it, into `next`
  const shadowed = (fn, arg) => (e) => e instanceof TypeError && e.message.startsWith(`posnorm.${fn}: ${arg} must be a posnorm buffer as alloc() or subarray() made it: not one given its own`);
  const next = pn.alloc(36).set(Array.from({ length: 36 }, (_, k) => k + 0.5));
  const untouched = () => assert.deepEqual(Array.from(next.toArray()), Array.from({ length: 36 }, (_, k) => k + 0.5), 'the next buffer is untouched');
  for (const [key, value] of [['length', 36], ['ptr', 0], ['byteLength', 144], ['type', 'f32'], ['freed', false], ['array', new Float32Array(36)]]) {
    const b = pn.alloc(4).set([1, 2, 3, 4]);
    Object.defineProperty(b, key, { value, configurable: true });
    assert.throws(() => pn.layerNorm(b, { cols: 4 }), shadowed('layerNorm', 'x'), `x with its own ${key}`);
    assert.throws(() => pn.layerNorm(new Float32Array(36), { cols: 4, out: b }), shadowed('layerNorm', 'out'), `out with its own ${key}`);
    assert.throws(() => pn.rmsNorm(new Float32Array(36), { cols: 4, gamma: b }), shadowed('rmsNorm', 'gamma'), `gamma with its own ${key}`);
    assert.throws(() => pn.positionalEncoding({ seqLen: 2, dModel: 2, out: b }), shadowed('positionalEncoding', 'out'), `PE out with its own ${key}`);
    untouched();
    // without it, the same buffer is an argument like any other
    delete b[key];
    assert.ok(Math.abs(pn.layerNorm(b, { cols: 4 }).y[0] + 1.3416355) < 1e-6);
    b.free();
  }
  // another prototype: refused the same way
  const p = pn.alloc(4).set([1, 2, 3, 4]);
  Object.setPrototypeOf(p, Object.create(Object.getPrototypeOf(p), { length: { get: () => 36 } }));
  assert.throws(() => pn.layerNorm(p, { cols: 4 }), shadowed('layerNorm', 'x'));
  assert.throws(() => pn.layerNorm(new Float32Array(36), { cols: 4, out: p }), shadowed('layerNorm', 'out'));
  untouched();
  // other own properties (a test's spy on free, a name) are no concern: the calls do not read them
  const spied = pn.alloc(4).set([1, 2, 3, 4]);
  let calls = 0;
  const free = spied.free;
  spied.free = function () { calls++; return free.call(this); };
  spied.label = 'row';
  assert.ok(Math.abs(pn.layerNorm(spied, { cols: 4 }).y[3] - 1.3416355) < 1e-6);
  spied.free();
  assert.equal(calls, 1);
  assert.equal(spied.freed, true);
  // a subarray of a freed buffer whose own freed says false: the subarray reads its parent's state, not the property
  const parent = pn.alloc(4), s = parent.subarray(0);
  Object.defineProperty(parent, 'freed', { value: false });
  parent.free();
  const reuse = pn.alloc(4).set([5, 6, 7, 8]);
  assert.equal(s.freed, true);
  assert.throws(() => s.set([99]), { name: 'TypeError', message: /this buffer was freed/ });
  assert.throws(() => pn.layerNorm(new Float32Array([1, 2, 3, 4]), { cols: 4, out: s }), TypeError);
  assert.deepEqual(Array.from(reuse.toArray()), [5, 6, 7, 8], 'the bytes\' next owner is untouched');
  reuse.free();
  // arguments that do not convert to numbers (an object without valueOf or toString) are named
  const bare = Object.create(null);
  const four = pn.alloc(4).set([5, 6, 7, 8]);
  assert.throws(() => four.subarray(bare), { name: 'TypeError', message: /^posnorm\.PnBuffer\.subarray: begin must be a number/ });
  assert.throws(() => four.subarray(0, bare), { name: 'TypeError', message: /^posnorm\.PnBuffer\.subarray: end must be a number/ });
  // a BigInt, as TypedArray.prototype.subarray refuses it (Number(1n) took it as 1)
  assert.throws(() => new Float32Array(4).subarray(1n), TypeError);
  assert.throws(() => four.subarray(1n), { name: 'TypeError', message: /^posnorm\.PnBuffer\.subarray: begin must be a number, got the BigInt 1n$/ });
  assert.throws(() => four.subarray(0, 3n), { name: 'TypeError', message: /^posnorm\.PnBuffer\.subarray: end must be a number, got the BigInt 3n$/ });
  assert.throws(() => four.set([1], bare), { name: 'TypeError', message: /^posnorm\.PnBuffer\.set: offset must be an integer in \[0, 3\].*, got an object$/ });
  assert.throws(() => four.set([1], () => 1), { name: 'TypeError', message: /, got a function$/ });
  assert.throws(() => four.set([1, bare]), { name: 'TypeError', message: /^posnorm\.PnBuffer\.set: source\[1\] must be a number/ });
  // a begin whose conversion frees the buffer: refused, not a view of freed memory
  const c = pn.alloc(4);
  assert.throws(() => c.subarray({ valueOf() { c.free(); return 1; } }), { name: 'TypeError', message: /subarray: this buffer was freed/ });
  assert.deepEqual(Array.from(four.toArray()), [5, 6, 7, 8]);
  four.free();
  untouched();
  next.free();
  p.free();
  a.free();
  assert.equal(pn.heapStats().allocations, 0);
});

test('a subarray of a subarray of … (a cursor walking a matrix 20 000 rows deep) is checked in constant time: no stack overflow, and freeing the buffer that owns the memory frees them all', async () => {
  const pn = await init();
  const rows = 20000, m = pn.alloc(rows * 4);
  let rest = m, last = null;
  for (let r = 0; r < rows; r++) {
    const row = rest.subarray(0, 4);
    row.set([r, r + 1, r + 2, r + 3]);
    if (r === rows - 1) last = row;
    if (r < rows - 1) rest = rest.subarray(4);
  }
  assert.equal(last.freed, false);
  assert.deepEqual(Array.from(last.toArray()), [rows - 1, rows, rows + 1, rows + 2]);
  // LayerNorm of four equally spaced values: ±1.3416 and ±0.4472, whatever the start
  const y = pn.layerNorm(last, { cols: 4, out: last }).y.toArray();
  assert.ok(Math.abs(y[0] + 1.3416355) < 1e-5 && Math.abs(y[3] - 1.3416355) < 1e-5, `${Array.from(y)}`);
  assert.throws(() => last.free(), { name: 'TypeError', message: /a subarray does not own its memory/ });
  m.free();
  assert.equal(last.freed, true);
  assert.equal(rest.freed, true);
  assert.throws(() => last.toArray(), { name: 'TypeError', message: /this buffer was freed/ });
  assert.equal(pn.heapStats().allocations, 0);
});
