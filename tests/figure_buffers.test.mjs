// The wasm buffers a figure owns (web/figures/core/buffers.js), on a real
// posnorm instance: the same buffer while its length and type stay; a
// shorter length is a view of the same memory (nothing allocated or freed,
// so a drag back down and up again meets no fresh pages); a longer one or
// another type a new buffer of exactly that length (the old freed); a
// length that is not a whole number ≥ 1 refused before anything is
// allocated; nothing left once cleared.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { init } from '../src/js/posnorm.js';
import { FigureBuffers } from '../web/figures/core/buffers.js';

test('a figure buffer: kept while it is long enough (shorter lengths are views of it), replaced and freed when outgrown or of another type, nothing left once cleared', async () => {
  const pn = await init({ simd: true });
  const base = pn.heapStats();
  // FigureBuffers allocates through pn.alloc alone: every call is counted
  let allocs = 0;
  const counting = { alloc: (...a) => { allocs++; return pn.alloc(...a); } };
  const buffers = new FigureBuffers();
  // the buffers held, in no particular order
  const held = () => [...buffers].map((b) => [b.type, b.length]).sort();
  const a = buffers.get(counting, 'a', 1000);
  assert.deepEqual(held(), [['f32', 1000]]);
  assert.equal(a.length, 1000);
  assert.equal(buffers.get(counting, 'a', 1000), a, 'the same buffer for the same length');
  // shorter: a view of a's memory, the same object while that length stays
  const short = buffers.get(counting, 'a', 600);
  assert.deepEqual([short.length, short.ptr, a.freed, allocs], [600, a.ptr, false, 1]);
  assert.equal(buffers.get(counting, 'a', 600), short);
  a.array.fill(0);
  short.array.fill(7);
  assert.deepEqual([a.array[0], a.array[599], a.array[600]], [7, 7, 0], 'the view writes a\'s first 600 values');
  const shorter = buffers.get(counting, 'a', 1);
  assert.deepEqual([shorter.length, shorter.ptr], [1, a.ptr]);
  assert.equal(buffers.get(counting, 'a', 1000), a, 'back at the full length: the buffer itself');
  assert.deepEqual([held(), allocs], [[['f32', 1000]], 1], 'nothing allocated for shorter lengths');
  // longer: a new buffer of exactly that length, the old freed (and its views with it)
  const b = buffers.get(counting, 'a', 1020);
  assert.notEqual(b, a);
  assert.deepEqual([b.length, a.freed, short.freed], [1020, true, true], 'the old one is freed');
  assert.deepEqual(held(), [['f32', 1020]]);
  for (const n of [1, 600]) {
    const view = buffers.get(counting, 'a', n);
    assert.deepEqual([view.freed, view.ptr, view.length], [false, b.ptr, n], `a length asked before the replacement (${n}): a view of the new buffer`);
  }
  const px = buffers.get(counting, 'a', 1020, 'u8c');
  assert.equal(px.array.constructor, Uint8ClampedArray, 'another type at the same length: replaced');
  assert.deepEqual(held(), [['u8c', 1020]]);
  const px4 = buffers.get(counting, 'a', 4, 'u8c');
  assert.deepEqual([px4.ptr, px4.array.constructor], [px.ptr, Uint8ClampedArray]);
  assert.equal(buffers.get(counting, 'a', 4).array.constructor, Float32Array, 'another type at a shorter length: replaced too');
  assert.deepEqual(held(), [['f32', 4]]);
  buffers.get(counting, 'b', 3);
  [...buffers][1].free();
  assert.equal(buffers.get(counting, 'b', 3).freed, false, 'one freed from outside is replaced');
  assert.equal(buffers.get(counting, 'b', 2).freed, false, 'and its views are of the new one');
  assert.deepEqual([allocs, pn.heapStats().allocations - base.allocations], [6, 2], 'six made, two live');
  const count = allocs;
  for (const bad of [0, -0, -1, 10.5, NaN, Infinity, -Infinity, 5e-324]) {
    assert.throws(() => buffers.get(counting, 'c', bad), { name: 'RangeError', message: new RegExp(`figure buffer "c": length must be a whole number of at least 1, got ${bad}`) });
  }
  assert.equal(allocs, count, 'nothing allocated for a refused length');
  // refused for a name that holds a buffer: that buffer is kept, not freed
  const kept = buffers.get(counting, 'a', 1020, 'u8c');
  assert.throws(() => buffers.get(counting, 'a', 0), { name: 'RangeError', message: /figure buffer "a"/ });
  assert.equal(kept.freed, false);
  assert.equal(buffers.get(counting, 'a', 1020, 'u8c'), kept);
  // more than pn.alloc gives (2^31 values, 8 GiB; 2^30 u8c values fit the
  // bytes but not the count): its RangeError, nothing allocated or left
  // under the name; the name's old buffer, outgrown, was freed first, and
  // the instance stays usable
  const live = pn.heapStats();
  for (const [length, type] of [[2 ** 31, 'f32'], [2 ** 30, 'u8c'], [2 ** 28 + 1, 'f32']]) {
    assert.throws(() => buffers.get(counting, 'd', length, type), { name: 'RangeError', message: /posnorm\.alloc: length must be an integer in \[1, 268435456\]/ });
  }
  const outgrown = buffers.get(counting, 'e', 8);
  assert.throws(() => buffers.get(counting, 'e', 2 ** 31), RangeError);
  assert.equal(outgrown.freed, true);
  assert.deepEqual(held(), [['f32', 3], ['u8c', 1020]].sort(), 'nothing kept under a refused name');
  assert.deepEqual([pn.heapStats().bytes, pn.heapStats().allocations], [live.bytes, live.allocations], 'nothing leaked');
  const after8 = buffers.get(counting, 'e', 8);
  after8.array.set([1, 2, 3, 4, 5, 6, 7, 8]);
  // LayerNorm of 1…8 in float64: mean 4.5, variance 5.25
  pn.layerNorm(after8, { cols: 8, eps: 0 }).y.forEach((v, j) => {
    assert.ok(Math.abs(v - (j + 1 - 4.5) / Math.sqrt(5.25)) <= 2.4e-7, `still exact: y[${j}] = ${v}`);
  });
  buffers.clear();
  assert.deepEqual([buffers.size, kept.freed], [0, true]);
  const after = pn.heapStats();
  assert.deepEqual([after.bytes, after.allocations], [base.bytes, base.allocations], 'nothing left once cleared');
});
