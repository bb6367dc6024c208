// The wasm buffers a figure owns (web/figures/core/buffers.js), on a real
// posnorm instance: the same buffer while its length and type stay, a new
// one (the old freed) when either changes, a length that is not a whole
// number ≥ 1 refused before anything is allocated, and nothing left once
// cleared.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { init } from '../src/js/posnorm.js';
import { FigureBuffers } from '../web/figures/core/buffers.js';

test('a figure buffer: the same while its length and type stay, replaced and freed when either changes, nothing left once cleared', async () => {
  const pn = await init({ simd: true });
  const base = pn.heapStats();
  const buffers = new FigureBuffers();
  const held = () => [...buffers].map((b) => [b.type, b.length]);
  const a = buffers.get(pn, 'a', 1000);
  assert.deepEqual(held(), [['f32', 1000]]);
  assert.equal(buffers.get(pn, 'a', 1000), a, 'the same buffer for the same length');
  const b = buffers.get(pn, 'a', 1020);
  assert.notEqual(b, a);
  assert.equal(a.freed, true, 'the old one is freed');
  assert.deepEqual(held(), [['f32', 1020]]);
  const px = buffers.get(pn, 'a', 1020, 'u8c');
  assert.equal(px.array.constructor, Uint8ClampedArray, 'another type at the same length: replaced');
  assert.deepEqual(held(), [['u8c', 1020]]);
  buffers.get(pn, 'b', 3);
  [...buffers][1].free();
  assert.equal(buffers.get(pn, 'b', 3).freed, false, 'one freed from outside is replaced');
  assert.equal(pn.heapStats().allocations, base.allocations + 2);
  const count = pn.heapStats().allocations;
  for (const bad of [0, -1, 10.5, NaN, Infinity]) {
    assert.throws(() => buffers.get(pn, 'c', bad), { name: 'RangeError', message: new RegExp(`figure buffer "c": length must be a whole number of at least 1, got ${bad}`) });
  }
  assert.equal(pn.heapStats().allocations, count, 'nothing allocated for a refused length');
  // refused for a name that holds a buffer: that buffer is kept, not freed
  const kept = buffers.get(pn, 'a', 1020, 'u8c');
  assert.throws(() => buffers.get(pn, 'a', 0), { name: 'RangeError', message: /figure buffer "a"/ });
  assert.equal(kept.freed, false);
  assert.equal(buffers.get(pn, 'a', 1020, 'u8c'), kept);
  buffers.clear();
  assert.equal(buffers.size, 0);
  const after = pn.heapStats();
  assert.deepEqual([after.bytes, after.allocations], [base.bytes, base.allocations], 'nothing left once cleared');
});
