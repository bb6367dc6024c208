// bfloat16 and float16: positionalEncoding/rope with precision 'bfloat16' |
// 'float16' (compute 'float32' | 'low') and roundToPrecision, bit for bit
// against the integer emulation of tests/reference/lowprec.mjs, both builds;
// hand-worked rounding cases; the failures people meet in these types
// (gpt-neox#1003, bfloat16 positions above 256, constant slow dimensions).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { builds, normals, rng } from './helpers.mjs';
import { float32CodeRow } from './reference/pe.mjs';
import { bf16Bits, bitsOf, f16Bits, fromBf16Bits, fromF16Bits, peLowPrecision, rounder, ropeLowPrecision } from './reference/lowprec.mjs';

const all = await builds();
const TYPES = ['bfloat16', 'float16'];
const COMPUTES = ['float32', 'low'];

/** The first index where two float32 arrays differ in their bits, or -1. */
function firstBitDifference(got, want, anyNaN) {
  assert.equal(got.length, want.length, 'lengths');
  const a = new Uint32Array(Float32Array.from(got).buffer), b = new Uint32Array(Float32Array.from(want).buffer);
  for (let k = 0; k < a.length; k++) if (a[k] !== b[k] && !(anyNaN && Number.isNaN(got[k]) && Number.isNaN(want[k]))) return k;
  return -1;
}
/** Bit equality; with anyNaN (plain float32, whose NaN bits the engine picks) any NaN matches any NaN. */
function assertBits(got, want, what, anyNaN = false) {
  const k = firstBitDifference(got, want, anyNaN);
  assert.equal(k, -1, k < 0 ? '' : `${what}: index ${k}: got ${got[k]} (0x${bitsOf(got[k]).toString(16)}), want ${want[k]} (0x${bitsOf(want[k]).toString(16)})`);
}

/** Every value of the type, the midpoints to the next one and one float32 ulp either side. */
function edgeInputs(precision) {
  const from = precision === 'bfloat16' ? fromBf16Bits : fromF16Bits;
  const xs = [];
  for (let h = 0; h < 0x10000; h++) {
    const a = from(h), b = from(h + 1 & 0xffff);
    xs.push(a);
    if (Number.isFinite(a) && Number.isFinite(b) && Math.sign(a) === Math.sign(b) && Math.abs(b) > Math.abs(a)) {
      const mid = (a + b) / 2; // exact in float32: one more bit than the type
      const m = bitsOf(mid);
      xs.push(mid, new Float32Array(new Uint32Array([m - 1]).buffer)[0], new Float32Array(new Uint32Array([m + 1]).buffer)[0]);
    }
  }
  // past the largest finite value, the float16 overflow threshold, float32's extremes
  xs.push(65504, 65519.996, 65520, 65535, 65536, 1e5, 3.3895314e38, 3.3961776e38, 3.4028235e38, -3.4028235e38, 1e-45, -1e-45, 1.1754942e-38);
  return Float32Array.from(xs);
}

// Hand-worked: [input, bfloat16, float16]
const HAND = [
  [1 + 2 ** -8, 1, 1 + 2 ** -8], // bfloat16 tie (1 + half an ulp) → even 1; exact in float16
  [1 + 3 * 2 ** -8, 1 + 2 ** -6, 1 + 3 * 2 ** -8], // bfloat16 tie → even 1 + 2^-6
  [1 + 2 ** -11, 1, 1], // float16 tie → even 1
  [1 + 3 * 2 ** -11, 1, 1 + 2 ** -9], // float16 tie → even 1 + 2·2^-10
  [257, 256, 257], [259, 260, 259], [65504, 65536, 65504],
  [65519, 65536, 65504], [65520, 65536, Infinity], // 65520 is float16's tie between 65504 and 65536: even is Inf
  [2 ** -24, 2 ** -24, 2 ** -24], [2 ** -25, 2 ** -25, 0], [3 * 2 ** -25, 3 * 2 ** -25, 2 ** -23], // float16 subnormal ties
  [2 ** -14 - 2 ** -25, 2 ** -14, 2 ** -14], // float16: half a spacing above the largest subnormal, rounds up to the smallest normal
  [-0, -0, -0], [-(2 ** -30), -(2 ** -30), -0], [Infinity, Infinity, Infinity], [-Infinity, -Infinity, -Infinity],
  [3.4028234663852886e38, Infinity, Infinity], // float32's largest rounds up past bfloat16's 0x1.FEp127
  [2 ** -149, 0, 0], [3 * 2 ** -134, 2 ** -132, 0], // bfloat16's subnormal tie → even 2·2^-133
];

test('the emulation itself: hand-worked rounding cases', () => {
  for (const [x, bf, h] of HAND) {
    assert.ok(Object.is(rounder('bfloat16')(x), bf), `bfloat16(${x}) = ${rounder('bfloat16')(x)}, want ${bf}`);
    assert.ok(Object.is(rounder('float16')(x), h), `float16(${x}) = ${rounder('float16')(x)}, want ${h}`);
  }
  assert.equal(bf16Bits(NaN), 0x7fc0);
  assert.equal(f16Bits(-NaN), 0x7e00);
  assert.equal(f16Bits(65504), 0x7bff);
  assert.equal(f16Bits(2 ** -24), 0x0001);
  assert.equal(bf16Bits(-2), 0xc000);
});

for (const { name, pn } of all) {
  test(`${name}: roundToPrecision matches the hand-worked cases, NaN is 0x7FC00000`, () => {
    const xs = Float32Array.from(HAND.map((r) => r[0]));
    for (const [k, precision] of TYPES.entries()) {
      const got = pn.roundToPrecision(xs, { precision });
      HAND.forEach((row, i) => assert.ok(Object.is(got[i], row[1 + k]), `${precision}(${row[0]}) = ${got[i]}, want ${row[1 + k]}`));
      const nan = pn.roundToPrecision(new Float32Array(new Uint32Array([0x7fc00000, 0xffc00001, 0x7f800001, 0xff812345]).buffer), { precision });
      assert.deepEqual([...new Uint32Array(nan.buffer)], [0x7fc00000, 0x7fc00000, 0x7fc00000, 0x7fc00000]);
    }
  });

  test(`${name}: roundToPrecision equals the bit emulation on every value, midpoint and neighbour, and random bits`, () => {
    const { uniform } = rng(19);
    const random = new Float32Array(new Uint32Array(Array.from({ length: 200000 }, () => Math.floor(uniform() * 2 ** 32))).buffer);
    for (const precision of TYPES) {
      for (const xs of [edgeInputs(precision), random]) {
        assertBits(pn.roundToPrecision(xs, { precision }), xs.map(rounder(precision)), precision);
      }
    }
  });

  test(`${name}: positionalEncoding in bfloat16/float16 equals the emulation bit for bit`, () => {
    const cases = [
      { seqLen: 40, dModel: 64 }, { seqLen: 3, dModel: 7, layout: 'concat' }, { seqLen: 5, dModel: 1 },
      { seqLen: 33, dModel: 130, offset: 250, base: 500 }, { seqLen: 8, dModel: 512, offset: 65530 },
      { seqLen: 4, dModel: 96, offset: 2 ** 24 - 2, layout: 'concat' }, { seqLen: 3, dModel: 16, offset: 2 ** 31 - 3, base: 1e6 },
      { seqLen: 2, dModel: 10, base: 1.0000001 }, { seqLen: 2, dModel: 10, base: 1e300 },
      { seqLen: 4, dModel: 6, offset: 65518 }, // float16 'low': 65520 and up are Inf, their rows NaN
      // several blocks of 128 pairs (the kernel takes div_term once per block), odd and even
      { seqLen: 3, dModel: 259, offset: 2 ** 24 - 3, layout: 'concat' }, { seqLen: 2, dModel: 514, offset: 16000000 },
    ];
    for (const c of cases) {
      for (const precision of TYPES) {
        for (const compute of COMPUTES) {
          assertBits(pn.positionalEncoding({ ...c, precision, compute }), peLowPrecision({ ...c, precision, compute }), `${JSON.stringify(c)} ${precision} ${compute}`);
        }
      }
    }
  });

  test(`${name}: float16 positions overflow at 65520 with compute 'low': NaN rows, as PyTorch's float16 arange`, () => {
    const pe = pn.positionalEncoding({ seqLen: 3, dModel: 4, offset: 65518, precision: 'float16', compute: 'low' });
    assert.ok(pe.slice(0, 8).every(Number.isFinite), 'positions 65518 and 65519 round to 65504 or stay finite');
    assert.ok(pe.slice(8).every(Number.isNaN), 'position 65520 is Inf in float16');
    assert.ok(pn.positionalEncoding({ seqLen: 3, dModel: 4, offset: 65518, precision: 'float16' }).every(Number.isFinite));
  });

  test(`${name}: precision 'float32' is the article's float32 code bit for bit across blocks of 128 pairs, near 2^24`, () => {
    for (const [dModel, offset] of [[514, 2 ** 24 - 2], [259, 12345678], [256, 3], [258, 7]]) {
      const got = pn.positionalEncoding({ seqLen: 2, dModel, offset, precision: 'float32' });
      const want = [0, 1].flatMap((r) => [...float32CodeRow(offset + r, dModel)]);
      assertBits(got, want, `d_model ${dModel} at ${offset}`);
    }
  });

  test(`${name}: compute 'float32' is the float32 code's table rounded to the type (model.to(dtype))`, () => {
    for (const precision of TYPES) {
      const got = pn.positionalEncoding({ seqLen: 6, dModel: 48, offset: 3000, precision });
      const want = Array.from({ length: 6 }, (_, r) => [...float32CodeRow(3000 + r, 48)].map(rounder(precision))).flat();
      assertBits(got, want, precision);
    }
  });

  test(`${name}: rope in float32/bfloat16/float16 equals the emulation bit for bit (layouts, ids, partial rotary, extremes)`, () => {
    const x = normals(2 * 3 * 4 * 12, { std: 3, seed: 5 });
    // extremes among ordinary values: overflow in float16, subnormals, ±0, ±Inf, NaN
    [70000, -65520, 1e-6, -3e-8, 2 ** -140, -0, Infinity, -Infinity, NaN, 3e38, 65504].forEach((v, k) => { x[7 * k + 1] = v; });
    const shapes = [
      { batch: 2, seqLen: 3, heads: 4, headDim: 12 },
      { batch: 2, seqLen: 3, heads: 4, headDim: 12, rotaryDim: 8, interleaved: true },
      { batch: 2, seqLen: 3, heads: 4, headDim: 12, layout: 'bhsd', offset: 2 ** 31 - 3 },
      { batch: 2, seqLen: 3, heads: 4, headDim: 12, positionIds: Int32Array.from([0, 255, 257, 1857, 65519, 2 ** 31 - 1]), base: 500000 },
      { batch: 1, seqLen: 6, heads: 2, headDim: 24, rotaryDim: 2, offset: 4097 },
      // the largest base a float32 holds (the kernel takes base as a float32)
      { batch: 2, seqLen: 3, heads: 4, headDim: 12, offset: 3, base: 3.4028234663852886e38 },
    ];
    for (const s of shapes) {
      for (const precision of ['float32', ...TYPES]) {
        for (const compute of precision === 'float32' ? [undefined] : COMPUTES) {
          const got = pn.rope(x, { ...s, precision, compute });
          assertBits(got, ropeLowPrecision(x, { ...s, precision, compute }), `${JSON.stringify({ ...s, positionIds: undefined })} ${precision} ${compute}`, precision === 'float32');
        }
      }
    }
  });

  test(`${name}: rope in bfloat16 in place on a posnorm buffer (the kernel reads each pair before it writes it)`, () => {
    const shape = { batch: 2, seqLen: 3, heads: 4, headDim: 8, interleaved: true, precision: 'bfloat16', compute: 'low' };
    const x = normals(2 * 3 * 4 * 8, { std: 2, seed: 9 });
    const want = ropeLowPrecision(x, shape);
    const buf = pn.alloc(x.length);
    buf.array.set(x);
    pn.rope(buf, { ...shape, out: buf });
    assertBits(buf.array, want, 'in place');
    buf.free();
  });

  test(`${name}: gpt-neox#1003 reproduced: float16 RoPE angles, dim 32, 2048 positions`, () => {
    // 16 heads, head h holding the unit vector e_h: the output's entry h of
    // head h is cos(angle of pair h), entry h + 16 its sin
    const heads = 16, headDim = 32, seqLen = 2048;
    const x = new Float32Array(seqLen * heads * headDim);
    for (let s = 0; s < seqLen; s++) for (let h = 0; h < heads; h++) x[(s * heads + h) * headDim + h] = 1;
    const opts = { seqLen, heads, headDim };
    const f32 = pn.rope(x, { ...opts, precision: 'float32' });
    const low = pn.rope(x, { ...opts, precision: 'float16', compute: 'low' });
    let worst = { d: 0 };
    for (let s = 0; s < seqLen; s++) {
      for (let h = 0; h < heads; h++) {
        const k = (s * heads + h) * headDim + h, d = Math.abs(low[k] - f32[k]);
        if (d > worst.d) worst = { d, s, h };
      }
    }
    // the issue: emb[1857, 1] is 1044.2678 in float32 and 1045 in float16;
    // (cos_half − cos_float).abs().max() is 0.7819
    const w1 = Math.fround(1 / Math.fround(10000 ** (2 / 32)));
    assert.equal(Math.fround(1857 * w1).toFixed(4), '1044.2678');
    const k1857 = (1857 * heads + 1) * headDim + 1;
    assert.equal(low[k1857], rounder('float16')(Math.cos(1045)), 'cos of the float16 angle 1045');
    assert.ok(Math.abs(f32[k1857] - Math.cos(1044.2678)) < 1e-4, `float32 cos ${f32[k1857]}`);
    assert.equal(Math.abs(low[k1857] - f32[k1857]).toFixed(3), '0.715');
    assert.equal(worst.d.toFixed(4), '0.7819', `largest difference ${worst.d} at position ${worst.s}, pair ${worst.h}`);
    assert.deepEqual([worst.s, worst.h], [2008, 1]);
  });

  test(`${name}: bfloat16 positions collapse above 256`, () => {
    const ints = Float32Array.from({ length: 1025 }, (_, k) => k);
    const bf = pn.roundToPrecision(ints, { precision: 'bfloat16' });
    const firstLost = [...bf].findIndex((v, k) => v !== k);
    assert.equal(firstLost, 257); // 257 is a tie between 256 and 258: even is 256
    assert.equal(new Set(bf.slice(0, 257)).size, 257);
    assert.ok(bf.slice(256, 512).every((v) => v % 2 === 0)); // only even integers in [256, 512)
    assert.ok(bf.slice(512, 1024).every((v) => v % 4 === 0)); // multiples of 4 in [512, 1024)
    assert.equal(new Set(bf.slice(512, 1024)).size, 129); // 512, 516, …, 1024
    // whole rows of the encoding: positions 256 and 257 are the same row in compute 'low'
    const pe = pn.positionalEncoding({ seqLen: 2, dModel: 64, offset: 256, precision: 'bfloat16', compute: 'low' });
    assert.deepEqual(pe.slice(0, 64), pe.slice(64));
    const ok = pn.positionalEncoding({ seqLen: 2, dModel: 64, offset: 256, precision: 'bfloat16' });
    assert.notDeepEqual(ok.slice(0, 64), ok.slice(64));
  });

  test(`${name}: a bfloat16 table's slow cos columns are constant 1 from a computable dimension`, () => {
    // cos(p·w_i) rounds to bfloat16 1 when it is at least 1 − 2^-9, i.e.
    // about when p·w_i ≤ 2^-4; over positions 0 … N − 1 the columns whose
    // pair has (N − 1)·w_i below that are constant
    const seqLen = 256, dModel = 512;
    const pe = pn.positionalEncoding({ seqLen, dModel, precision: 'bfloat16' });
    const constant = (c) => { for (let r = 1; r < seqLen; r++) if (pe[r * dModel + c] !== pe[c]) return false; return true; };
    const firstConstantPair = Array.from({ length: dModel / 2 }, (_, i) => i).find((i) => constant(2 * i + 1));
    const w = (i) => Math.exp((-2 * i / dModel) * Math.log(10000));
    const predicted = Array.from({ length: dModel / 2 }, (_, i) => i).find((i) => (seqLen - 1) * w(i) <= 2 ** -4);
    assert.ok(Math.abs(firstConstantPair - predicted) <= 1, `first constant pair ${firstConstantPair}, predicted ${predicted}`);
    for (let i = firstConstantPair; i < dModel / 2; i++) assert.ok(constant(2 * i + 1), `cos column of pair ${i}`);
    assert.equal(pe[2 * firstConstantPair + 1], 1);
    // the float64 table keeps them moving
    const ref = pn.positionalEncoding({ seqLen, dModel });
    assert.notEqual(ref[(seqLen - 1) * dModel + 2 * firstConstantPair + 1], ref[2 * firstConstantPair + 1]);
  });

  test(`${name}: precision/compute arguments are validated before anything is allocated`, () => {
    const before = pn.heapStats();
    const x = new Float32Array(8);
    const bad = [
      [() => pn.positionalEncoding({ seqLen: 2, dModel: 4, precision: 'half' }), RangeError, 'precision'],
      [() => pn.positionalEncoding({ seqLen: 2, dModel: 4, precision: 'float32', compute: 'low' }), TypeError, 'compute'],
      [() => pn.positionalEncoding({ seqLen: 2, dModel: 4, precision: 'float16', compute: 'float16' }), RangeError, 'compute'],
      [() => pn.rope(x, { seqLen: 1, heads: 1, headDim: 8, precision: 'float16', scaling: { type: 'linear', factor: 2 } }), TypeError, 'scaling'],
      [() => pn.rope(x, { seqLen: 1, heads: 1, headDim: 8, precision: 'bfloat16', cosCache: new Float32Array(4), sinCache: new Float32Array(4) }), TypeError, 'cosCache'],
      [() => pn.rope(x, { seqLen: 1, heads: 1, headDim: 8, compute: 'low' }), TypeError, 'compute'],
      // past the largest float32 the float32 and 16-bit forms cannot take base (float64 can)
      [() => pn.rope(x, { seqLen: 1, heads: 1, headDim: 8, base: 3.4028236e38, precision: 'float32' }), RangeError, 'base must be a finite number in (1, 3.4028234663852886e+38]'],
      [() => pn.rope(x, { seqLen: 1, heads: 1, headDim: 8, base: 1e300, precision: 'bfloat16', compute: 'low' }), RangeError, 'base'],
      [() => pn.roundToPrecision(x, { precision: 'float32' }), RangeError, 'precision'],
      [() => pn.roundToPrecision(x, {}), TypeError, 'precision'],
      [() => pn.roundToPrecision([1, 2], { precision: 'float16' }), TypeError, 'x'],
      [() => pn.roundToPrecision(x, { precision: 'float16', out: new Float32Array(7) }), RangeError, 'out'],
    ];
    for (const [call, Err, words] of bad) {
      assert.throws(call, (e) => e instanceof Err && e.message.includes(words) && e.message.startsWith('posnorm.'), words);
    }
    const after = pn.heapStats();
    assert.deepEqual([after.allocations, after.bytes], [before.allocations, before.bytes]);
    // and still usable
    assert.deepEqual([...pn.roundToPrecision(Float32Array.of(1 + 2 ** -8), { precision: 'bfloat16' })], [1]);
  });
}
