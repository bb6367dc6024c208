// The wasm buffers a figure owns (web/figures/core/buffers.js), on a real
// posnorm instance: a power-of-two capacity handed out as views of the
// length asked for, the same view while the length stays, a new buffer only
// when the kept one is too small, of another type or over four times too
// large, so a drag across sizes allocates a dozen times rather than at every
// input; and nothing left once cleared. Expected capacities are worked out
// by hand from the rule.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { init } from '../src/js/posnorm.js';
import { FigureBuffers } from '../web/figures/core/buffers.js';

test('a figure buffer: capacity a power of two, the same view while the length stays, the kept memory while it fits', async () => {
  const pn = await init({ simd: true });
  const base = pn.heapStats();
  const buffers = new FigureBuffers();
  const held = () => [...buffers].map((b) => [b.type, b.length]);
  const a = buffers.get(pn, 'a', 1000);
  assert.equal(a.length, 1000);
  assert.deepEqual(held(), [['f32', 1024]]);
  assert.equal(buffers.get(pn, 'a', 1000), a, 'the same view for the same length');
  a.array[999] = 7.5;
  const b = buffers.get(pn, 'a', 1020);
  assert.notEqual(b, a);
  assert.equal(b.length, 1020);
  assert.equal(b.array[999], 7.5, 'the same memory: still fits');
  assert.deepEqual(held(), [['f32', 1024]]);
  assert.equal(pn.heapStats().allocations, base.allocations + 1);
  // too small: 2048; a quarter of it would do for 512 (512 · 4 ≤ 2048), not for 600 (1024 · 4 > 2048)
  buffers.get(pn, 'a', 1025);
  assert.deepEqual(held(), [['f32', 2048]]);
  buffers.get(pn, 'a', 600);
  assert.deepEqual(held(), [['f32', 2048]]);
  buffers.get(pn, 'a', 512);
  assert.deepEqual(held(), [['f32', 512]]);
  // another type, at the same length or another: replaced
  assert.equal(buffers.get(pn, 'a', 512, 'u8c').array.constructor, Uint8ClampedArray);
  assert.deepEqual(held(), [['u8c', 512]]);
  const px = buffers.get(pn, 'a', 300, 'u8c');
  assert.equal(px.array.constructor, Uint8ClampedArray);
  assert.deepEqual(held(), [['u8c', 512]]);
  // a second name has its own buffer; one freed from outside is replaced
  buffers.get(pn, 'b', 3);
  assert.deepEqual(held(), [['u8c', 512], ['f32', 4]]);
  [...buffers][1].free();
  assert.equal(buffers.get(pn, 'b', 3).freed, false);
  assert.equal(pn.heapStats().allocations, base.allocations + 2);
  // a length that is not a whole number of at least 1: refused before anything is allocated
  const count = pn.heapStats().allocations;
  for (const bad of [0, -1, 10.5, NaN, Infinity]) {
    assert.throws(() => buffers.get(pn, 'c', bad), { name: 'RangeError', message: new RegExp(`figure buffer "c": length must be a whole number of at least 1, got ${bad}`) });
  }
  assert.equal(pn.heapStats().allocations, count);
  assert.equal(buffers.size, 2);
  buffers.clear();
  assert.equal(buffers.size, 0);
  const after = pn.heapStats();
  assert.deepEqual([after.bytes, after.allocations], [base.bytes, base.allocations], 'nothing left once cleared');
});

test('a drag across sizes allocates about once per doubling, not at every input', async () => {
  const pn = await init({ simd: true });
  const base = pn.heapStats();
  const buffers = new FigureBuffers();
  let allocs = 0;
  const counted = { alloc: (...a) => { allocs++; return pn.alloc(...a); } };
  // heatmap's pixels in a d_model drag at seq_len 2048: 2 … 1024 columns, 4 bytes each, up and back down
  const dModels = [];
  for (let d = 2; d <= 1024; d += 32) dModels.push(d);
  for (const d of [...dModels, ...dModels.slice().reverse()]) {
    const v = buffers.get(counted, 'rgba', 2048 * d * 4, 'u8c');
    assert.equal(v.length, 2048 * d * 4);
  }
  // d = 2, 34, …, 994 (32 inputs each way), 8192·d bytes. Up, a new buffer
  // where the capacity first grows: d 2 (2^14), 34 (2^19), 66 (2^20),
  // 130 (2^21), 258 (2^22), 514 (2^23) — six. Down from 2^23, one where a
  // quarter of the capacity kept is enough: d 226 (1,851,392 bytes → 2^21),
  // then d 34 (2^19 ≤ 2^21 / 4), then d 2 (2^14 ≤ 2^19 / 4) — three.
  assert.equal(allocs, 9, `${allocs} allocations for ${2 * dModels.length} inputs`);
  buffers.clear();
  const after = pn.heapStats();
  assert.deepEqual([after.bytes, after.allocations], [base.bytes, base.allocations]);
});
