// Sinusoidal PE against float64 Math.sin/Math.cos, both builds.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { builds, maxAbsDiff, peRef } from './helpers.mjs';

const all = await builds();
const SIZES = [[1, 1], [1, 2], [2, 3], [3, 7], [7, 17], [17, 2], [5, 4097], [30, 64]];

for (const { name, pn } of all) {
  test(`${name}: PE matches float64 at odd and edge sizes, both layouts`, () => {
    for (const [seqLen, dModel] of SIZES) {
      for (const layout of ['interleaved', 'concat']) {
        for (const offset of [0, 12345]) {
          const got = pn.positionalEncoding({ seqLen, dModel, layout, offset });
          const err = maxAbsDiff(got, peRef(seqLen, dModel, { layout, offset }));
          assert.ok(err <= 2e-7, `${seqLen}×${dModel} ${layout} offset ${offset}: ${err}`);
        }
      }
    }
  });

  test(`${name}: PE max error <= 2e-7 at dModel 8192 and positions up to 2^20`, () => {
    for (const offset of [0, 65536 - 16, 2 ** 20 - 32]) {
      const got = pn.positionalEncoding({ seqLen: 32, dModel: 8192, offset });
      const err = maxAbsDiff(got, peRef(32, 8192, { offset }));
      assert.ok(err <= 2e-7, `offset ${offset}: ${err}`);
    }
    // a long run across several re-anchors of the rotation
    const got = pn.positionalEncoding({ seqLen: 5000, dModel: 34, offset: 2 ** 20 - 5000, base: 500 });
    const err = maxAbsDiff(got, peRef(5000, 34, { offset: 2 ** 20 - 5000, base: 500 }));
    assert.ok(err <= 2e-7, `long run: ${err}`);
  });

  test(`${name}: PE hand-worked values`, () => {
    const pe = pn.positionalEncoding({ seqLen: 2, dModel: 4 });
    // pos 0: sin 0 = 0, cos 0 = 1 in every pair
    assert.deepEqual([...pe.subarray(0, 4)], [0, 1, 0, 1]);
    // pos 1, pair 1: w = 10000^(-2/4) = 0.01
    assert.equal(pe[6], Math.fround(Math.sin(0.01)));
    assert.equal(pe[7], Math.fround(Math.cos(0.01)));
    // odd dModel: the last column is the sin of the last pair
    const odd = pn.positionalEncoding({ seqLen: 3, dModel: 5, offset: 2 });
    assert.equal(odd[5 + 4], Math.fround(Math.sin(3 * Math.pow(10000, -4 / 5))));
    // concat is a column permutation of interleaved
    const inter = pn.positionalEncoding({ seqLen: 4, dModel: 7 });
    const cat = pn.positionalEncoding({ seqLen: 4, dModel: 7, layout: 'concat' });
    for (let r = 0; r < 4; r++) {
      for (let c = 0; c < 7; c++) {
        const to = c % 2 === 0 ? c / 2 : 4 + (c - 1) / 2;
        assert.equal(cat[r * 7 + to], inter[r * 7 + c]);
      }
    }
  });

  test(`${name}: PE at fractional positions`, () => {
    const got = pn.peSample({ n: 101, start: -3.25, step: 0.173, dim: 7, dModel: 16, base: 100 });
    const w = Math.pow(100, -6 / 16);
    for (let k = 0; k < 101; k++) {
      assert.ok(Math.abs(got[k] - Math.cos((-3.25 + k * 0.173) * w)) <= 6e-8, `k ${k}`);
    }
    const s = pn.peSample({ n: 3, start: 0.5, step: 0.5, dim: 0, dModel: 2 });
    assert.deepEqual([...s], [0.5, 1, 1.5].map((p) => Math.fround(Math.sin(p))));
  });
}

test('SIMD and scalar PE are bit-identical', () => {
  const [a, b] = all;
  for (const [seqLen, dModel] of [[33, 65], [3000, 7]]) {
    assert.deepEqual(
      a.pn.positionalEncoding({ seqLen, dModel, offset: 999 }),
      b.pn.positionalEncoding({ seqLen, dModel, offset: 999 }));
  }
});
