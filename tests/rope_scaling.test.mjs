// RoPE frequencies for long context, as Hugging Face transformers' rope_scaling
// types define them (linear = Position Interpolation, dynamic NTK, YaRN,
// Llama 3.1, LongRoPE), against the float64 rules of
// tests/reference/rope_scaling.mjs; and RoPE with scaling against the float64
// rotation of tests/reference/rope.mjs with the attention factor on cos and sin.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { builds, compareValues, maxAbsDiff, normals, rng, ulp32 } from './helpers.mjs';
import { rope } from './reference/rope.mjs';
import { hfRopeFrequencies as hfRope } from './reference/rope_scaling.mjs';

const all = await builds();
/** s as JSON, longrope's factor arrays left out */
const show = (s) => JSON.stringify(s, (k, v) => (k.endsWith('Factor') && Array.isArray(v) ? '[…]' : v));
/** call(), its exception (e.g. the kernel refusing NaN frequencies) named with the case */
function inCase(what, call) {
  try {
    return call();
  } catch (e) {
    throw new Error(`${what}: ${e.message}`, { cause: e });
  }
}
function cases(dim) {
  const r = rng(dim);
  const longrope = (factor) => ({
    type: 'longrope', factor, originalMaxPositions: 4096,
    shortFactor: Array.from({ length: dim / 2 }, () => 1 + r.uniform()), longFactor: Array.from({ length: dim / 2 }, () => 1 + 20 * r.uniform()),
  });
  const out = [];
  for (const factor of [2, 4, 8, 32]) {
    out.push({ type: 'linear', factor });
    out.push({ type: 'dynamic', factor, originalMaxPositions: 2048 });
    out.push({ type: 'yarn', factor, originalMaxPositions: 4096 });
    out.push({ type: 'yarn', factor, originalMaxPositions: 4096, mscale: 0.707, mscaleAllDim: 0.707, betaFast: 16, betaSlow: 2, truncate: false });
    // mscale ≠ mscaleAllDim: the attention factor m(factor, mscale)/m(factor, mscaleAllDim) is not 1
    out.push({ type: 'yarn', factor, originalMaxPositions: 4096, mscale: 1, mscaleAllDim: 0.5 });
    out.push({ type: 'yarn', factor, originalMaxPositions: 8192, attentionFactor: 1.25 });
    // the ramp's clamps: low < 0 (originalMaxPositions < 2π·betaFast) and high > dim − 1
    // (originalMaxPositions > 2π·base², reached with base 10000)
    out.push({ type: 'yarn', factor, originalMaxPositions: 64 });
    out.push({ type: 'yarn', factor, originalMaxPositions: 2 ** 30, betaFast: 1e8, betaSlow: 0.5 });
    out.push({ type: 'llama3', factor, originalMaxPositions: 8192, lowFreqFactor: 1, highFreqFactor: 4 });
    out.push(longrope(factor));
    // mscale or mscaleAllDim alone: HF takes m(factor, mscale)/m(factor, mscaleAllDim) only when
    // both are given, else the default m(factor) = 0.1·ln(factor) + 1 (not m(factor, mscale))
    out.push({ type: 'yarn', factor, originalMaxPositions: 4096, mscale: 0.707 });
    out.push({ type: 'yarn', factor, originalMaxPositions: 4096, mscaleAllDim: 0.707 });
  }
  // the ramp's low == high (HF then adds 0.001 to high, else (i − low)/(high − low) divides by 0):
  // betaFast = betaSlow untruncated gives low = high for every dim and base here; originalMaxPositions
  // 4 clamps low to 0 and ceils high to −0 (dims 8 and 32, the dims of the two tests below)
  out.push({ type: 'yarn', factor: 8, originalMaxPositions: 4096, betaFast: 4, betaSlow: 4, truncate: false });
  out.push({ type: 'yarn', factor: 4, originalMaxPositions: 4 });
  return out;
}

for (const { name, pn } of all) {
  test(`${name}: ropeFrequencies is within half a float32 ulp of the float64 formulas for every type, over factors, dims and bases`, () => {
    let n = 0;
    const dims = [8, 64, 96, 128], bases = [10000, 500000, 1e6];
    // longrope's choice flips between seqLen = originalMaxPositions (short) and one more (long)
    const seqLens = [0, 1000, 3000, 4096, 4097, 100000];
    for (const dim of dims) {
      for (const base of bases) {
        for (const s of [undefined, ...cases(dim)]) {
          for (const seqLen of seqLens) {
            const got = inCase(`${show(s)} dim ${dim} base ${base} seqLen ${seqLen}`, () => pn.ropeFrequencies({ dim, base, scaling: s, seqLen }));
            const want = hfRope(dim, base, s, seqLen);
            // the float64 frequencies rounded once (measured 0.4999 ulp); the factor is a float64 (measured 0)
            const c = compareValues(got.invFreq, want.inv, ulp32);
            assert.ok(c.err <= 0.6 && c.compared === dim / 2, `${show(s)} dim ${dim} base ${base} seqLen ${seqLen}: invFreq ${c.err} ulp`);
            assert.ok(Math.abs(got.attentionFactor - want.af) <= 1e-15 * want.af, `${show(s)} dim ${dim} base ${base}: attention factor ${got.attentionFactor} vs ${want.af}`);
            n++;
          }
        }
      }
    }
    assert.equal(n, dims.reduce((t, d) => t + bases.length * (1 + cases(d).length) * seqLens.length, 0));
  });

  test(`${name}: rope with scaling equals the float64 rotation with the attention factor on cos and sin (within 7e-7·factor)`, () => {
    const [B, H, S, D] = [2, 2, 5, 32];
    const x = normals(B * S * H * D, { seed: 17 });
    // ids not in order, the largest (6000) not the last (1500): dynamic (originalMaxPositions 2048)
    // and longrope (4096) must take the sequence length from the largest id, past both, not the last
    const unsorted = Int32Array.from([3000, 6000, 12, 900, 4500, 77, 2047, 5, 1999, 1500]);
    assert.equal(unsorted.length, B * S);
    // the default shape, then a partial rotary (frequencies for rotaryDim 16, not headDim 32; dims
    // 16.. copied), the interleaved pairing and the [B, H, S, D] layout, alone and together
    for (const variant of [{}, { rotaryDim: 16 }, { interleaved: true }, { layout: 'bhsd' }, { rotaryDim: 16, interleaved: true, layout: 'bhsd' }]) {
      const rotaryDim = variant.rotaryDim ?? D;
      for (const s of cases(rotaryDim)) {
        for (const [label, opts, positions] of [
          ['offset', { offset: 5000 }, (b, t) => 5000 + t],
          ['ids', { positionIds: Int32Array.from({ length: B * S }, (_, k) => 100 + 977 * k) }, (b, t) => 100 + 977 * (b * S + t)],
          ['unsorted ids', { positionIds: unsorted }, (b, t) => unsorted[b * S + t]],
        ]) {
          // dynamic and longrope choose their frequencies by the highest position + 1
          const top = Math.max(...Array.from({ length: B * S }, (_, k) => positions(Math.floor(k / S), k % S))) + 1;
          const { inv, af } = hfRope(rotaryDim, 10000, s, top);
          const want = rope(x, { batch: B, seqLen: S, heads: H, headDim: D, ...variant, positions, invFreq: inv, attentionFactor: af });
          const got = inCase(`${JSON.stringify(variant)} ${show(s)} ${label}`, () => pn.rope(x, { batch: B, seqLen: S, heads: H, headDim: D, ...variant, scaling: s, ...opts }));
          const err = maxAbsDiff(got, want);
          // cos·af and sin·af rounded once, float32 products (measured 3.6e-7·af)
          assert.ok(err <= 7e-7 * af, `${JSON.stringify(variant)} ${show(s)} ${label}: ${err}`);
        }
      }
    }
  });

  test(`${name}: scaling options are checked and named`, () => {
    const f = (scaling) => () => pn.ropeFrequencies({ dim: 8, scaling });
    assert.throws(f({ type: 'ntk' }), /scaling\.type must be "linear" or "dynamic" or "yarn" or "llama3" or "longrope"/);
    assert.throws(f({ type: 'yarn', factor: 4 }), /scaling type "yarn" needs scaling\.originalMaxPositions/);
    assert.throws(f({ type: 'linear', factor: 2, betaFast: 3 }), /scaling type "linear" has no option "betaFast"/);
    assert.throws(f({ type: 'linear', factr: 2 }), /unknown option "factr"/);
    assert.throws(f({ type: 'llama3', factor: 8, originalMaxPositions: 8192, lowFreqFactor: 4, highFreqFactor: 1 }), /highFreqFactor must be greater than lowFreqFactor/);
    // equal factors too (Llama 3.1 divides by their difference): with >= in the check, the kernel's unnamed rejection
    assert.throws(f({ type: 'llama3', factor: 8, originalMaxPositions: 8192, lowFreqFactor: 2, highFreqFactor: 2 }), /highFreqFactor must be greater than lowFreqFactor/);
    assert.throws(f({ type: 'longrope', originalMaxPositions: 10, shortFactor: [1, 1], longFactor: [1, 1, 1, 1] }), /shortFactor must hold dim\/2 = 4 factors, got 2/);
    // any typed array of numbers holds factors (an Int16Array was refused as "not a typed array as the engine makes it")
    const lr = (shortFactor) => ({ type: 'longrope', originalMaxPositions: 10, shortFactor, longFactor: [1, 1, 1, 1] });
    for (const Type of [Int8Array, Uint16Array, Int16Array, Float64Array]) {
      const w = pn.ropeFrequencies({ dim: 8, seqLen: 5, scaling: lr(Type.of(1, 2, 4, 8)) }).invFreq;
      // longrope below originalMaxPositions: w_i = base^(−2i/dim) / shortFactor[i] (float64, rounded once)
      w.forEach((got, i) => assert.equal(got, Math.fround(10000 ** (-2 * i / 8) / 2 ** i), `${Type.name} pair ${i}`));
    }
    // what holds no numbers is a TypeError naming it and what it is (a RangeError "got object" or "got undefined" before)
    const buf = pn.alloc(4).set([1, 1, 1, 1]);
    for (const [a, got] of [[buf, 'got a posnorm f32 buffer'], [new DataView(new ArrayBuffer(16)), 'got a DataView'], [new BigInt64Array(4), 'got a BigInt64Array of length 4'],
      [new Proxy(new Float32Array(4).fill(1), {}), 'got an object posing as a Float32Array (a Proxy of one?)'], ['1111', 'got "1111"'],
      // a strict Proxy (reading a property throws) is named all the same: the message reads no property of it
      [new Proxy(new Float32Array(4), { get() { throw new Error('strict'); } }), 'got an object posing as a Float32Array (a Proxy of one?)'],
      [new Proxy({}, { get() { throw new Error('strict'); } }), 'got an object']]) {
      assert.throws(f(lr(a)), (e) => e instanceof TypeError && e.message.startsWith(`posnorm.ropeFrequencies: scaling.shortFactor must be an array or a typed array of dim/2 = 4 numbers, ${got}`), got);
    }
    buf.free();
    assert.throws(() => pn.rope(new Float32Array(8), { seqLen: 1, heads: 1, headDim: 8, scaling: { type: 'linear', factor: 2 }, cosCache: new Float32Array(4), sinCache: new Float32Array(4) }), /cannot be combined/);
    assert.equal(pn.ropeFrequencies({ dim: 8 }).invFreq.length, 4, 'still usable');
  });
}

test('rope with scaling keeps its documented 3e-7·(|a| + |b|) near position 2^31 for every allowed factor: linear factor 1e-4 takes angles past 2^41, which are float64 again', () => {
  // docs/api.md (rope): each output within 3e-7·(|a| + |b|) + 2^-149 of the
  // exact rotation, angles of 2^20 and more in double-double "with or without
  // scaling"; factor is allowed in [1e-9, 1e9]. With linear factor 1e-4,
  // base 10000, rotaryDim 128, pair 1 has w = 10000^(-2/128)/1e-4 ≈ 8660 and at
  // position 2^31 − 1 the angle ≈ 1.86e13 > 2^41 (2.2e12): pn_sincos_pw takes
  // the float64 p·w, whose rounding alone is up to ulp/2 = 2^-10 rad.
  // mpmath (dps 40), θ = (2^31 − 1)·10000^(-1/64)/1e-4 exact:
  // cos θ = −0.4213786745208615, sin θ = −0.90688478466619. posnorm was
  // about 1e-3 off (offset and ids alike).
  const exact = { cos: -0.4213786745208615, sin: -0.90688478466619 };
  const headDim = 128, half = 64, i = 1, pos = 2 ** 31 - 1;
  for (const { name, pn } of all) {
    const x = new Float32Array(headDim);
    x[i] = 1;
    const shape = { seqLen: 1, heads: 1, headDim, base: 10000, scaling: { type: 'linear', factor: 1e-4 } };
    for (const [how, y] of [['offset', pn.rope(x, { ...shape, offset: pos })], ['positionIds', pn.rope(x, { ...shape, positionIds: [pos] })]]) {
      assert.ok(Math.abs(y[i] - exact.cos) <= 3e-7 && Math.abs(y[i + half] - exact.sin) <= 3e-7,
        `${name}, ${how}: (cos, sin) = (${y[i]}, ${y[i + half]}), exact (${exact.cos}, ${exact.sin}): off by ${Math.abs(y[i] - exact.cos).toExponential(2)}, ${Math.abs(y[i + half] - exact.sin).toExponential(2)}`);
    }
  }
});
