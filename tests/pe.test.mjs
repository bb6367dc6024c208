// Sinusoidal PE against the float64 reference of tests/reference/pe.mjs and hand-worked values, both builds.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { builds, maxAbsDiff, ulp32 } from './helpers.mjs';
import { float32CodeRow, peSample, sinusoidal as peRef } from './reference/pe.mjs';

const all = await builds();
const SIZES = [[1, 1], [1, 2], [2, 3], [3, 7], [7, 17], [17, 2], [5, 4097], [30, 64]];
// measured 2.98e-8 everywhere below (half a float32 ulp of values near 1 is 2.98e-8; posnorm.h promises 2e-7)
const BOUND = 6e-8;

// [base, dModel, offset, row, pair i, sin, cos] of the exact angle
// (offset + row)·base^(-2i/dModel), and [start, k, sin, cos] of pair 31 of
// dModel 64, base 1.0001 at start - 0.5·k: mpmath 1.3 at 60 digits,
// rounded once to float64, by
//   import mpmath as mp; mp.mp.dps = 60
//   t = mp.mpf(p) * mp.power(mp.mpf(base), mp.mpf(-2 * i) / dModel)
//   print(float(mp.sin(t)), float(mp.cos(t)))
const PE_NEAR_2P31 = [
  [1.3339610460108462, 8192, 2147483645, 0, 1, -0.9069582818180202, 0.4212204589543398],
  [1.3339610460108462, 8192, 2147483645, 1, 1, -0.13565655393160467, 0.9907559232098497],
  [1.3339610460108462, 8192, 2147483645, 2, 1, 0.76035112394923, 0.6495122541639554],
  [1.3339610460108462, 8192, 2147483645, 0, 2, 0.11936099327497941, 0.9928509219839655],
  [1.3339610460108462, 8192, 2147483645, 1, 2, 0.8998849132604876, 0.43612743881366217],
  [1.3339610460108462, 8192, 2147483645, 2, 2, 0.8532718524708638, -0.5214663419444637],
  [1.3339610460108462, 8192, 2147483645, 0, 3850, -0.7198187942355817, -0.6941620152855047],
  [1.3339610460108462, 8192, 2147483645, 1, 3850, -0.9999897772709918, -0.004521653847012596],
  [1.3339610460108462, 8192, 2147483645, 2, 3850, -0.7260668168564944, 0.687624154214988],
  [1.3339610460108462, 8192, 2147483645, 0, 4095, -0.9376044933261591, -0.3477036296828038],
  [1.3339610460108462, 8192, 2147483645, 1, 4095, -0.9231584799283755, 0.3844195896885733],
  [1.3339610460108462, 8192, 2147483645, 2, 4095, -0.4137028002365279, 0.9104119908461529],
  [1.0001, 64, 2147481548, 0, 1, -0.29827295073975185, -0.9544806162814421],
  [1.0001, 64, 2147481548, 1, 1, -0.9643244800129808, -0.2647230576426887],
  [1.0001, 64, 2147481548, 1023, 1, 0.7575286866778568, -0.6528018756560994],
  [1.0001, 64, 2147481548, 1024, 1, -0.1400162469634193, -0.990149206224132],
  [1.0001, 64, 2147481548, 1025, 1, -0.9088316251983858, -0.41716313000942545],
  [1.0001, 64, 2147481548, 2047, 1, 0.8531133779078658, -0.5217255642908741],
  [1.0001, 64, 2147481548, 2048, 1, 0.02192532495508894, -0.9997596111694119],
  [1.0001, 64, 2147481548, 2099, 1, -0.6536754918132457, -0.756774967478914],
  [1.0001, 64, 2147481548, 0, 31, -0.8481329345017197, -0.5297834703098065],
  [1.0001, 64, 2147481548, 1, 31, -0.9040869982384121, 0.4273484522216706],
  [1.0001, 64, 2147481548, 1023, 31, 0.24337829061799027, -0.9699314448227075],
  [1.0001, 64, 2147481548, 1024, 31, -0.6846007126554957, -0.7289182836447358],
  [1.0001, 64, 2147481548, 1025, 31, -0.983272577334175, 0.1821401621351232],
  [1.0001, 64, 2147481548, 2047, 31, 0.4831445001588187, -0.8755406283927007],
  [1.0001, 64, 2147481548, 2048, 31, -0.47561274137257015, -0.8796547733310317],
  [1.0001, 64, 2147481548, 2099, 31, -0.9408864392577257, -0.338722169957796]
];
const PE_SAMPLES_NEAR_2P31 = [
  [2147483000.75, 0, -0.8049960632818444, 0.5932801514467957],
  [2147483000.75, 1, -0.9908776378197681, 0.13476463508174685],
  [2147483000.75, 2, -0.9342038226510191, -0.35673970587001275],
  [2147483000.75, 3, -0.6488477124946047, -0.7609182912708294],
  [-2147483000.25, 0, 0.9908776378197681, 0.13476463508174685],
  [-2147483000.25, 1, 0.8049960632818444, 0.5932801514467957],
  [-2147483000.25, 2, 0.42206075941434573, 0.9065675459460182],
  [-2147483000.25, 3, -0.06419013870240138, 0.9979376864781521],
];

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

  test(`${name}: PE within 1e-7 of the exact values near position 2^31 where w_i is close to 1 (a small base), table across anchors and samples`, () => {
    // The angles past 2^20 are double-doubles (src/pn_math.h): the float32
    // rounding is all that is left (half an ulp of values near 1: 3e-8;
    // measured 3.0e-8). With float64 angles these were off by up to 4.7e-7
    // (2^31 times the float64 w_i's 2 ulps).
    for (const [base, dModel, offset, row, i, s, c] of PE_NEAR_2P31) {
      const seqLen = offset === 2147481548 ? 2100 : 3; // 2100 rows: anchors at rows 1024 and 2048
      const pe = pn.positionalEncoding({ seqLen, dModel, offset, base });
      const at = row * dModel + 2 * i;
      for (const [got, want, what] of [[pe[at], s, 'sin'], [pe[at + 1], c, 'cos']]) {
        assert.ok(Math.abs(got - want) <= 1e-7, `base ${base}, dModel ${dModel}, position ${offset + row}, pair ${i}: ${what} ${got}, exact ${want}: off by ${Math.abs(got - want).toExponential(2)}`);
      }
    }
    for (const start of [2147483000.75, -2147483000.25]) {
      const o = { n: 4, start, step: -0.5, dModel: 64, base: 1.0001 };
      const sin = pn.peSample({ ...o, dim: 62 }), cos = pn.peSample({ ...o, dim: 63 });
      for (const [s0, k, s, c] of PE_SAMPLES_NEAR_2P31) {
        if (s0 !== start) continue;
        assert.ok(Math.abs(sin[k] - s) <= 1e-7 && Math.abs(cos[k] - c) <= 1e-7, `sample at ${start - 0.5 * k}: ${sin[k]}, ${cos[k]}, exact ${s}, ${c}`);
      }
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

test('peSample near position 2^31 at fractional steps: within 1e-7 of the exact values at its float64 positions start + k·step (as numpy.arange computes them), and the position is that float64 sum', () => {
  // start 2147483000, step 0.8984872113669062, k = 1: the float64 sum is
  // 2147483000.8984873, 1.18e-7 from the real sum (ulp(2^31)/2 = 1.19e-7),
  // and w_1 of base 1.0001 (its float64), dModel 8192 is 0.99999998, so the
  // value moves with the position by about that much: the docs define the
  // position as the float64 sum (a review found the value 1.14e-7 from the
  // one at the real sum, where the docs had promised 1e-7 of "the exact
  // values" without saying at which position). mpmath (dps 50) at the
  // float64 position: sin θ = 0.2794225226697653, cos θ = −0.96016824245798949;
  // at the real sum: sin 0.2794226360811137, cos −0.9601682094536778.
  const atFloat64 = { sin: 0.2794225226697653, cos: -0.96016824245798949 };
  const atRealSum = { sin: 0.2794226360811137, cos: -0.9601682094536778 };
  for (const { name, pn } of all) {
    const o = { n: 2, start: 2147483000, step: 0.8984872113669062, dModel: 8192, base: 1.0001 };
    const s = pn.peSample({ ...o, dim: 2 })[1], c = pn.peSample({ ...o, dim: 3 })[1];
    assert.ok(Math.abs(s - atFloat64.sin) <= 1e-7 && Math.abs(c - atFloat64.cos) <= 1e-7,
      `${name}: sample at 2147483000 + 0.8984872113669062: sin ${s}, cos ${c}, exact at the float64 position ${atFloat64.sin}, ${atFloat64.cos}`);
    // the float64 position, not the real sum: the value is nearer the one at the float64 sum
    assert.ok(Math.abs(s - atFloat64.sin) < Math.abs(s - atRealSum.sin), `${name}: sin ${s}`);
  }
});
