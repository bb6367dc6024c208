// RoPE with scaling (yarn, llama3, longrope with its short and its long
// factors, dynamic with a grown base) at positions near 2^31, from 2^20 to
// 2^25, and below 2^20 with frequencies above 1, against the exact rotation:
// Hugging Face's inverse frequencies of each type and the angles p·w_i
// computed with mpmath at 50 digits from the same float64 inputs, in
// tests/fixtures/rope_scaling_exact.json, made by
//   python3 tests/gen_rope_scaling_exact.py > tests/fixtures/rope_scaling_exact.json
// (the angles reduced modulo 2π, rounded once to float64). Near 2^31 a
// frequency's float64 rounding alone, times p, is up to ~5e-7 rad: each
// type's double-double rest (src/rope_scaling.c) is what keeps RoPE within
// its documented 3e-7·(|a| + |b|) there, and only linear's was checked
// against exact values before (tests/c/test_angles.c, rope_scaling.test.mjs).
//
// The bound: 3e-7·(|a| + |b|) + 2^-149 (docs/api.md, docs/accuracy.md) of
// the exact rotation of the pair as the models scale it, (af·a, af·b): cos
// and sin are multiplied by the attention factor af before the rotation.
// That bound alone does not see a rest left out: a float64 frequency is
// mostly within an ulp or two, p·w·2^-53 ≈ 1e-7 rad near 2^31. So pairs
// (1, 0), which rotate to af·(cos θ, sin θ) rounded once to float32, are
// held to that rounding: half a float32 ulp plus 3e-9 rad (the float64
// angle below 2^20; the double-double one is within 1e-12) plus the
// fixture's slack, p times the error of the quantities posnorm computes on
// its own (dynamic's grown base in float64; yarn's ramp and llama3's
// smoothing in double-double, ~1e-29·p: tests/gen_rope_scaling_exact.py),
// 0 where none enters. The narrow ramps and bands at the end of the fixture
// (yarn's ends close together, llama3's highFreqFactor near lowFreqFactor)
// missed the bound by up to 4.4 times while the ramp and the smoothing were
// float64.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { builds, normals } from './helpers.mjs';
import { hfRopeFrequencies } from './reference/rope_scaling.mjs';

const { cases } = JSON.parse(readFileSync(new URL('./fixtures/rope_scaling_exact.json', import.meta.url), 'utf8'));
const all = await builds();
const BOUND = 3e-7;
const TWO_PI = 2 * Math.PI;
/** A float32 ulp at |v| (normal or subnormal). */
const ulp32 = (v) => {
  const a = Math.abs(v);
  return a < 2 ** -126 ? 2 ** -149 : 2 ** (Math.floor(Math.log2(a)) - 23);
};

test('the fixture holds every scaling type but linear, near 2^31 and from 2^20 to 2^25, each reaching angles of 2^20', () => {
  const kinds = new Set();
  for (const c of cases) {
    const top = Math.max(...c.positions) + 1;
    const kind = c.scaling.type === 'longrope' ? `longrope ${top > c.scaling.originalMaxPositions ? 'long' : 'short'}` : c.scaling.type;
    kinds.add(`${kind} ${top === 2 ** 31 ? 'near' : top === 2 ** 25 ? 'mid' : 'below'}`);
    // (but a float64Off case: below 2^20 it takes the rests too)
    assert.ok(c.maxAngle >= 2 ** 20 || c.float64Off, `${c.name}: largest angle ${c.maxAngle}`);
    if (c.scaling.type === 'dynamic') assert.ok(top > c.scaling.originalMaxPositions, `${c.name}: the base is grown`);
    assert.equal(c.angles.length, c.positions.length);
    for (const row of c.angles) assert.equal(row.length, c.dim / 2);
  }
  for (const type of ['yarn', 'llama3', 'longrope long', 'longrope short', 'dynamic']) {
    for (const where of ['near', 'mid']) assert.ok(kinds.has(`${type} ${where}`), `${type} ${where}`);
  }
});

test('the fixture is of these inputs: where p·w_i < 2^20 its angles are the float64 formulas\' (tests/reference/rope_scaling.mjs) to 1e-8 rad', () => {
  for (const c of cases) {
    const top = Math.max(...c.positions) + 1;
    const { inv, af } = hfRopeFrequencies(c.dim, c.base, c.scaling, top);
    assert.ok(Math.abs(af - c.attentionFactor) <= 1e-15 * af, `${c.name}: attention factor ${af} vs ${c.attentionFactor}`);
    let n = 0;
    c.positions.forEach((p, t) => inv.forEach((w, i) => {
      const th = p * w;
      // (float64Off: in the ramp or band the float64 formula is many ulps off)
      if (th >= 2 ** 20 || (c.float64Off && c.slack[i] > 0)) return;
      let d = (th - c.angles[t][i]) % TWO_PI;
      d = Math.min(Math.abs(d), TWO_PI - Math.abs(d));
      assert.ok(d <= 1e-8, `${c.name}: position ${p} pair ${i}: float64 angle ${th}, fixture ${c.angles[t][i]} (mod 2π ${d})`);
      n++;
    }));
    // every case has some (the smallest frequencies), to tell a stale fixture
    assert.ok(n > 0, `${c.name}: no angle below 2^20 to compare`);
  }
});

/**
 * Largest |y − exact| / (af·(|a| + |b|) + 2^-149) over every output of x
 * [tokens, heads, dim] rotated at fixture rows `rows`, with where it is;
 * and for the pairs (1, 0) how far past its rounding (above) an output is,
 * in rad (> 0: outside), with where.
 */
function worst(c, x, y, rows, heads) {
  const half = c.dim / 2, af = c.attentionFactor;
  // float64Off: a pair in the ramp or band whose angle is below 2^20 may
  // leave out a rest up to 2^-44·w_i (src/rope_scaling.c), p·w_i·2^-44 rad
  const inv = c.float64Off ? hfRopeFrequencies(c.dim, c.base, c.scaling, Math.max(...c.positions) + 1).inv : null;
  // and a rest as large as the frequency (a float64 w_i far off) has its own
  // rounding, and p times it: p·|rest|·2^-52
  const left = (p, i) => (!inv ? 0 : p * Math.abs(c.freq[i] - inv[i]) * 2 ** -52 +
    (c.slack[i] > 0 && Math.abs(p * inv[i]) < 2 ** 20 ? Math.abs(p * inv[i]) * 2 ** -44 : 0));
  let max = 0, at = '', past = -Infinity, pastAt = '';
  rows.forEach((row, t) => {
    for (let h = 0; h < heads; h++) {
      const o = (t * heads + h) * c.dim;
      for (let i = 0; i < half; i++) {
        const a = x[o + i], b = x[o + i + half];
        const th = c.angles[row][i], cs = Math.cos(th), sn = Math.sin(th);
        const want = [af * (a * cs - b * sn), af * (a * sn + b * cs)];
        const got = [y[o + i], y[o + i + half]];
        for (let k = 0; k < 2; k++) {
          const r = Math.abs(got[k] - want[k]) / (af * (Math.abs(a) + Math.abs(b)) + 2 ** -149);
          if (!(r <= max)) {
            max = r;
            at = `position ${c.positions[row]}, head ${h}, pair ${i} (${k ? 'b' : 'a'}' = ${got[k]}, exact ${want[k]})`;
          }
          if (a === 1 && b === 0) {
            const allowed = ulp32(Math.max(Math.abs(got[k]), Math.abs(want[k]))) / 2 + af * (3e-9 + c.positions[row] * c.slack[i] + left(c.positions[row], i));
            const d = (Math.abs(got[k] - want[k]) - allowed) / af;
            if (!(d <= past)) {
              past = d;
              pastAt = `position ${c.positions[row]}, pair ${i}: ${k ? 'sin' : 'cos'} θ·af = ${got[k]}, exact ${want[k]}, ${(Math.abs(got[k] - want[k]) / ulp32(want[k])).toFixed(2)} float32 ulps off (slack ${(c.positions[row] * c.slack[i]).toExponential(2)} rad)`;
            }
          }
        }
      }
    }
  });
  return { max, at, past, pastAt };
}

for (const { name, pn } of all) {
  for (const c of cases) {
    test(`${name}: rope with scaling, ${c.name}: within 3e-7·(|a| + |b|) of the exact rotation (mpmath), pairs (1, 0) its rounding`, (t) => {
      const heads = 2, n = c.positions.length, dim = c.dim, half = dim / 2;
      // head 0: every pair (1, 0), which rotates to (cos θ, sin θ)·af; head 1: normals
      const x = new Float32Array(n * heads * dim);
      const r = normals(n * dim, { seed: 29 });
      for (let k = 0; k < n; k++) {
        x.fill(1, k * heads * dim, k * heads * dim + half);
        x.set(r.subarray(k * dim, (k + 1) * dim), (k * heads + 1) * dim);
      }
      const shape = { heads, headDim: dim, base: c.base, scaling: c.scaling };
      const ids = pn.rope(x, { ...shape, seqLen: n, positionIds: Int32Array.from(c.positions) });
      const byIds = worst(c, x, ids, c.positions.map((_, k) => k), heads);
      // the first three positions are consecutive and the call's sequence length is the same
      // (dynamic's grown base, longrope's choice): with an offset too
      const p0 = c.positions[0];
      assert.deepEqual(c.positions.slice(0, 3), [p0, p0 + 1, p0 + 2]);
      assert.equal(p0 + 3, Math.max(...c.positions) + 1);
      const x3 = x.subarray(0, 3 * heads * dim);
      const byOffset = worst(c, x3, pn.rope(x3, { ...shape, seqLen: 3, offset: p0 }), [0, 1, 2], heads);
      t.diagnostic(`${name}, ${c.name}: max error / (af·(|a| + |b|)) ${byIds.max.toExponential(3)} (ids), ${byOffset.max.toExponential(3)} (offset); pairs (1, 0) at most ${Math.max(byIds.past, byOffset.past).toExponential(2)} rad past their rounding`);
      assert.ok(byIds.max <= BOUND, `positionIds: ${byIds.max.toExponential(3)}·af·(|a| + |b|) off at ${byIds.at}`);
      assert.ok(byOffset.max <= BOUND, `offset: ${byOffset.max.toExponential(3)}·af·(|a| + |b|) off at ${byOffset.at}`);
      // (a rest left out: angles ~1e-7 rad off, a float32 ulp or more where a pair (1, 0) is rounded once)
      assert.ok(byIds.past <= 0, `positionIds: a pair (1, 0) ${byIds.past.toExponential(2)} rad past its rounding at ${byIds.pastAt}`);
      assert.ok(byOffset.past <= 0, `offset: a pair (1, 0) ${byOffset.past.toExponential(2)} rad past its rounding at ${byOffset.pastAt}`);
    });
  }
}
