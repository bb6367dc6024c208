// Sinusoidal PE against the float64 reference of tests/reference/pe.mjs and hand-worked values, both builds.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { builds, maxAbsDiff, ulp32 } from './helpers.mjs';
import { float32CodeRow, peSample, sinusoidal as peRef } from './reference/pe.mjs';

const all = await builds();
const SIZES = [[1, 1], [1, 2], [2, 3], [3, 7], [7, 17], [17, 2], [5, 4097], [30, 64]];
// measured 2.98e-8 everywhere below (half a float32 ulp of values near 1 is 2.98e-8; posnorm.h promises 2e-7)
const BOUND = 6e-8;

for (const { name, pn } of all) {
  test(`${name}: PE matches float64 at odd and edge sizes, both layouts`, () => {
    for (const [seqLen, dModel] of SIZES) {
      for (const layout of ['interleaved', 'concat']) {
        for (const offset of [0, 12345]) {
          const got = pn.positionalEncoding({ seqLen, dModel, layout, offset });
          const err = maxAbsDiff(got, peRef(seqLen, dModel, { layout, offset }));
          assert.ok(err <= BOUND, `${seqLen}×${dModel} ${layout} offset ${offset}: ${err}`);
        }
      }
    }
  });

  test(`${name}: PE within 6e-8 of float64 at dModel 8192 and positions up to 2^20`, () => {
    for (const offset of [0, 65536 - 16, 2 ** 20 - 32]) {
      const got = pn.positionalEncoding({ seqLen: 32, dModel: 8192, offset });
      const err = maxAbsDiff(got, peRef(32, 8192, { offset }));
      assert.ok(err <= BOUND, `offset ${offset}: ${err}`);
    }
    // a long run across several re-anchors of the rotation
    const got = pn.positionalEncoding({ seqLen: 5000, dModel: 34, offset: 2 ** 20 - 5000, base: 500 });
    const err = maxAbsDiff(got, peRef(5000, 34, { offset: 2 ** 20 - 5000, base: 500 }));
    assert.ok(err <= BOUND, `long run: ${err}`);
  });

  test(`${name}: PE within 1e-6 of float64 at positions from 2^20 up to 2^31 (posnorm.h), table and samples`, () => {
    // w_i is within an ulp or two of base^(-2i/d) in the kernel and in the
    // float64 formula alike, and p multiplies that: measured 6.6e-8 at 2^28,
    // 1.8e-7 at 2^30, 4.4e-7 near 2^31 (table), 2.4e-7 (samples)
    for (const offset of [2 ** 24, 2 ** 28, 2 ** 30, 2 ** 31 - 64]) {
      for (const [dModel, base] of [[8192, 1e4], [1024, 1e4], [512, 5e5], [64, 100]]) {
        const err = maxAbsDiff(pn.positionalEncoding({ seqLen: 64, dModel, offset, base }), peRef(64, dModel, { offset, base }));
        assert.ok(err <= 1e-6, `offset ${offset}, dModel ${dModel}, base ${base}: ${err}`);
      }
    }
    for (let dim = 0; dim < 8192; dim += 37) {
      const o = { n: 64, start: 2 ** 31 - 64, step: 1, dim, dModel: 8192 };
      const err = maxAbsDiff(pn.peSample(o), peSample(o));
      assert.ok(err <= 1e-6, `sample dim ${dim}: ${err}`);
    }
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
    assert.ok(maxAbsDiff(got, peSample({ n: 101, start: -3.25, step: 0.173, dim: 7, dModel: 16, base: 100 })) <= BOUND);
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

test("precision: 'float32' is the article's PyTorch float32 code step by step, and its error grows with position", async () => {
  for (const { name, pn } of await builds()) {
    for (const [seqLen, dModel, offset, base] of [[50, 128, 0, 10000], [4, 512, 65534, 10000], [3, 64, 16777214, 10000], [4, 16, 2 ** 24 + 1, 10000], [20, 33, 1000, 500]]) {
      const got = pn.positionalEncoding({ seqLen, dModel, offset, base, precision: 'float32' });
      // the same steps, emulated in float32 with Math.fround (tests/reference/pe.mjs)
      let same = 0, total = 0;
      for (let r = 0; r < seqLen; r++) {
        const row = float32CodeRow(offset + r, dModel, base);
        for (let c = 0; c < dModel; c++) {
          const want = row[c], g = got[r * dModel + c];
          // float32 exp, sin, cos may differ by an ulp from the correctly rounded ones here
          assert.ok(Math.abs(g - want) <= ulp32(want), `${name} ${seqLen}×${dModel}+${offset} (${r}, ${c}): ${g} vs ${want}`);
          same += g === want; total++;
        }
      }
      assert.ok(same >= 0.99 * total, `${name}: ${same}/${total} bit-identical to the emulation`);
      // concat: sin of pair i at column i, cos at n_pairs + i (an odd d_model has one sin more)
      const cat = pn.positionalEncoding({ seqLen, dModel, offset, base, precision: 'float32', layout: 'concat' });
      const pairs = Math.ceil(dModel / 2);
      for (let r = 0; r < seqLen; r++) {
        for (let c = 0; c < dModel; c++) {
          const from = c < pairs ? 2 * c : 2 * (c - pairs) + 1;
          assert.equal(cat[r * dModel + c], got[r * dModel + from], `${name} concat ${dModel} (${r}, ${c}) is interleaved column ${from}`);
        }
      }
    }
    // the article's claim: about 2e-3 at pos 65536 for d_model 512; the default stays within 2e-7
    const p = 65536, d = 512;
    const ref = peRef(1, d, { offset: p });
    let err32 = 0, err64 = 0;
    const a32 = pn.positionalEncoding({ seqLen: 1, dModel: d, offset: p, precision: 'float32' });
    const a64 = pn.positionalEncoding({ seqLen: 1, dModel: d, offset: p });
    for (let c = 0; c < d; c++) { err32 = Math.max(err32, Math.abs(a32[c] - ref[c])); err64 = Math.max(err64, Math.abs(a64[c] - ref[c])); }
    assert.ok(err32 > 1e-3 && err32 < 4e-3, `${name}: float32 code error at ${p}: ${err32}`);
    assert.ok(err64 <= BOUND, `${name}: default error ${err64}`);
    assert.throws(() => pn.positionalEncoding({ seqLen: 1, dModel: 4, precision: 'half' }), /precision must be "float64" or "float32"/);
  }
});
