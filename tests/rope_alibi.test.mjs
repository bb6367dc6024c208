// RoPE and ALiBi against the float64 references of tests/reference/ and the paper's slopes, worked by hand.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { builds, maxAbsDiff, normals } from './helpers.mjs';
import { alibiSlopes } from './reference/alibi.mjs';
import { rope } from './reference/rope.mjs';

const all = await builds();

for (const { name, pn } of all) {
  test(`${name}: RoPE matches float64 (offset, position ids, both pairings, partial rotary, bases 10000, 500000, 1e6)`, () => {
    for (const [batch, seqLen, heads, headDim, rotaryDim] of [[1, 1, 1, 2, 2], [2, 7, 3, 10, 6], [1, 17, 2, 64, 64], [3, 5, 1, 9, 8]]) {
      const x = normals(batch * seqLen * heads * headDim, { seed: headDim });
      // the base goes to both pn.rope and the reference (Llama 3 uses 500000, Qwen 1e6): a
      // kernel that ignored it and used 10000 would pass with base 10000 alone
      for (const base of [10000, 500000, 1e6]) {
        for (const interleaved of [false, true]) {
          const shape = { batch, seqLen, heads, headDim, rotaryDim, base, interleaved };
          // float32 products of |x| <= 4 with cos/sin rounded once (measured 3.0e-7)
          const got = pn.rope(x, { ...shape, offset: 1000 });
          const ref = rope(x, { ...shape, positions: (b, s) => 1000 + s });
          assert.ok(maxAbsDiff(got, ref) <= 6e-7, `base ${base} ${headDim}/${rotaryDim} interleaved ${interleaved}: ${maxAbsDiff(got, ref)}`);
          const ids = Int32Array.from({ length: batch * seqLen }, (_, k) => (k * 7919) % 100000);
          const got2 = pn.rope(x, { ...shape, positionIds: ids });
          const ref2 = rope(x, { ...shape, positions: (b, s) => ids[b * seqLen + s] });
          assert.ok(maxAbsDiff(got2, ref2) <= 6e-7, `base ${base} ids ${headDim}/${rotaryDim} interleaved ${interleaved}: ${maxAbsDiff(got2, ref2)}`);
        }
      }
    }
  });

  test(`${name}: RoPE of any magnitude is within 3e-7·(|a| + |b|) + 2^-149 of the float64 rotation of its pair (a, b), at positions up to 2^31 - 1`, () => {
    // the float32 rotation's error grows with the pair: about 1.3e-5 at |x|
    // near 100, past the 2e-6 the docs gave as absolute until 2026-12-06
    const batch = 1, seqLen = 16, heads = 2, headDim = 64, half = 32;
    let worst = 0;
    // (subnormal pairs too: a rounding there is 2^-149, whatever the pair)
    for (const [k, mag] of [1e-44, 1e-42, 1e-39, 1e-30, 1e-5, 1, 100, 1e4, 1e10, 1e30].entries()) {
      const x = normals(seqLen * heads * headDim, { seed: 50 + k }).map((v) => Math.fround(v * mag));
      const ids = Int32Array.from({ length: seqLen }, (_, s) => (s % 2 ? 2 ** 31 - 1 - s * 104729 : s));
      for (const interleaved of [false, true]) {
        const shape = { batch, seqLen, heads, headDim, interleaved };
        const got = pn.rope(x, { ...shape, positionIds: ids });
        const ref = rope(x, { ...shape, positions: (b, s) => ids[s] });
        for (let r = 0; r < seqLen * heads; r++) {
          for (let i = 0; i < half; i++) {
            const [p, q] = interleaved ? [r * headDim + 2 * i, r * headDim + 2 * i + 1] : [r * headDim + i, r * headDim + i + half];
            const scale = Math.abs(x[p]) + Math.abs(x[q]);
            for (const j of [p, q]) {
              if (mag >= 1e-30) worst = Math.max(worst, Math.abs(got[j] - ref[j]) / scale);
              assert.ok(Math.abs(got[j] - ref[j]) <= 3e-7 * scale + 2 ** -149, `|x| ~ ${mag}, position ${ids[Math.floor(r / heads)]}, pair ${i}: ${got[j]} vs ${ref[j]}`);
            }
          }
        }
      }
    }
    // (measured 2.4e-7: a pair never errs by less than its own float32 rounding)
    assert.ok(worst > 3e-8, `worst ${worst}`);
  });

  test(`${name}: RoPE q·k depends only on the relative distance`, () => {
    const q = normals(8, { seed: 1 }), k = normals(8, { seed: 2 });
    const dot = (m, n) => {
      const rq = pn.rope(q, { seqLen: 1, heads: 1, headDim: 8, offset: m });
      const rk = pn.rope(k, { seqLen: 1, heads: 1, headDim: 8, offset: n });
      return rq.reduce((s, v, i) => s + v * rk[i], 0);
    };
    // equal in exact arithmetic; float32 rounding of the rotated vectors: measured 7.6e-8
    assert.ok(Math.abs(dot(5, 2) - dot(105, 102)) <= 3e-7, `${dot(5, 2)} vs ${dot(105, 102)}`);
    assert.ok(Math.abs(dot(5, 2) - dot(3, 5)) > 1e-3, 'a different distance gives a different score');
  });

  test(`${name}: ALiBi slopes are the paper's geometric sequence, bias is -m·|i-j|`, () => {
    for (const heads of [1, 2, 4, 8, 16, 32]) {
      const got = pn.alibiSlopes(heads);
      const want = alibiSlopes(heads);
      for (let h = 0; h < heads; h++) assert.equal(got[h], Math.fround(want[h]), `${heads} heads: slope ${h}`);
    }
    // 12 heads: the 8 slopes of 8 heads, then every other slope of 16 heads
    const twelve = pn.alibiSlopes(12);
    const expect = [1, 2, 3, 4, 5, 6, 7, 8].map((h) => 2 ** -h).concat([0.5, 1.5, 2.5, 3.5].map((e) => 2 ** -e));
    assert.ok(maxAbsDiff(twelve, expect) < 1e-7);
    // 6 heads: 4 slopes of 4 heads (2^-2 .. 2^-8), then 8-head slopes 2^-1, 2^-3
    assert.ok(maxAbsDiff(pn.alibiSlopes(6), [2 ** -2, 2 ** -4, 2 ** -6, 2 ** -8, 2 ** -1, 2 ** -3]) < 1e-9);
    const heads = 3, seqLen = 5;
    const bias = pn.alibi({ heads, seqLen });
    // 3 heads: the 2 slopes of 2 heads (2^-4, 2^-8), then the first of 4 heads' (2^-2)
    const m = [2 ** -4, 2 ** -8, 2 ** -2];
    for (let h = 0; h < heads; h++) {
      for (let i = 0; i < seqLen; i++) {
        for (let j = 0; j < seqLen; j++) {
          assert.equal(bias[(h * seqLen + i) * seqLen + j], Math.fround(-m[h] * Math.abs(i - j)));
        }
      }
    }
  });

  test(`${name}: ALiBi bias for 5, 12, 16 and 24 heads over 520 positions is the float64 -m·|i-j| rounded once`, () => {
    // slopes that are not powers of two (5, 12, 24 heads: 2^-0.5, 2^-1.5, ...; 16 heads: 2^-0.5 ...)
    // and distances up to 599: a slope rounded to float32 before the product is an ulp off
    // (the kernel is exactly rounded here: the reference float64 product, Math.fround once)
    const seqLen = 520; // distances up to 519: past 512
    for (const heads of [5, 12, 16, 24]) {
      const bias = pn.alibi({ heads, seqLen });
      assert.equal(bias.length, heads * seqLen * seqLen);
      // the reference's bias −m_h·|i − j| (alibiBias, float64 slopes of alibiSlopes) depends on h
      // and |i − j| alone: per head, its values for |i − j| = 0 .. seqLen − 1, rounded once
      const m = alibiSlopes(heads);
      let bad = 0, first = '';
      for (let h = 0; h < heads; h++) {
        const want = Float32Array.from({ length: seqLen }, (_, d) => -m[h] * d);
        for (let i = 0; i < seqLen; i++) {
          const at = (h * seqLen + i) * seqLen;
          for (let j = 0; j < seqLen; j++) {
            if (bias[at + j] !== want[i > j ? i - j : j - i]) {
              if (!bad) first = `head ${h}, i ${i}, j ${j}: ${bias[at + j]}, float64 rounded once gives ${want[Math.abs(i - j)]}`;
              bad++;
            }
          }
        }
      }
      assert.equal(bad, 0, `${heads} heads: ${bad} of ${bias.length} values differ from Math.fround(float64); first ${first}`);
    }
  });
}

test('SIMD and scalar RoPE are bit-identical', () => {
  const [a, b] = all;
  const x = normals(2 * 9 * 3 * 20, { seed: 4 });
  const shape = { batch: 2, seqLen: 9, heads: 3, headDim: 20, rotaryDim: 16, offset: 77 };
  assert.deepEqual(a.pn.rope(x, shape), b.pn.rope(x, shape));
});

test('RoPE keeps its documented 3e-7·(|a| + |b|) + 2^-149 near position 2^31 where w_i is close to 1 (a small base, a wide rotary dim), not only at base 10000 and headDim 64', () => {
  // base 1.3339610460108462, rotaryDim 8192, pair 3850 at position 2147483401:
  // w = base^(-7700/8192) ≈ 0.763, θ = p·w ≈ 1.64e9. The pair (a, b) = (1, 0)
  // rotates to (cos θ, sin θ); with 200-bit arithmetic (mpmath, prec 200)
  // cos θ = 0.9987224087011721, sin θ = 0.05053266624797257 (rounded to
  // float64), and the float64 reference of tests/reference/rope.mjs is
  // within 2e-8 of both. posnorm gave sin θ = 0.05053316056728363 (ids and
  // the scaled path) and 0.05053311586380005 (offset): 4.9e-7 and 4.5e-7 off,
  // where |a| + |b| = 1 allows 3e-7 (docs/api.md, docs/accuracy.md: "positions
  // up to 2^31 − 1"). The frequency's last bits times p: about 2 ulps of w.
  const headDim = 8192, half = 4096, i = 3850, base = 1.3339610460108462, pos = 2147483401;
  const exact = { cos: 0.9987224087011721, sin: 0.05053266624797257 };
  for (const { name, pn } of all) {
    for (const interleaved of [false, true]) {
      const [ia, ib] = interleaved ? [2 * i, 2 * i + 1] : [i, i + half];
      const x = new Float32Array(headDim);
      x[ia] = 1;
      const shape = { batch: 1, seqLen: 1, heads: 1, headDim, base, interleaved };
      const ref = rope(x, { ...shape, positions: () => pos });
      assert.ok(Math.abs(ref[ia] - exact.cos) <= 2e-8 && Math.abs(ref[ib] - exact.sin) <= 2e-8, 'the float64 reference agrees with the 200-bit values');
      const calls = {
        positionIds: pn.rope(x, { ...shape, positionIds: [pos] }),
        offset: pn.rope(x, { ...shape, offset: pos }),
        'scaling (linear, factor 1)': pn.rope(x, { ...shape, positionIds: [pos], scaling: { type: 'linear', factor: 1 } }),
      };
      for (const [how, y] of Object.entries(calls)) {
        for (const [k, want] of [[ia, ref[ia]], [ib, ref[ib]]]) {
          assert.ok(Math.abs(y[k] - want) <= 3e-7 * 1 + 2 ** -149,
            `${name}, ${interleaved ? 'interleaved' : 'halves'}, ${how}: output ${k} is ${y[k]}, the float64 rotation ${want} (exact ${k === ia ? exact.cos : exact.sin}): off by ${Math.abs(y[k] - want).toExponential(2)}`);
        }
      }
    }
  }
});
