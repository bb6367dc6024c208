// Seeded normals, histogram and colormap kernels.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { builds, compareValues, ulp32 } from './helpers.mjs';
import { colormapIndex, colormapTable } from './reference/colormap.mjs';
import { histogram } from './reference/histogram.mjs';
import { randomNormals } from './reference/random.mjs';

const all = await builds();

for (const { name, pn } of all) {
  test(`${name}: randomNormal follows the documented generator and is N(mean, std²)`, () => {
    const got = pn.randomNormal(10001, { seed: 2024, mean: 3, std: 2 });
    // posnorm's IEEE-only log against Math.log: the same draws, each within one float32 ulp (measured 0.5)
    const c = compareValues(got, randomNormals(10001, { seed: 2024, mean: 3, std: 2 }), ulp32);
    assert.ok(c.err <= 1 && c.compared === 10001, `${c.err} ulp`);
    let m = 0;
    for (const t of got) m += t;
    m /= got.length;
    let v = 0;
    for (const t of got) v += (t - m) ** 2;
    v /= got.length;
    assert.ok(Math.abs(m - 3) < 0.06 && Math.abs(Math.sqrt(v) - 2) < 0.06, `${m} ${Math.sqrt(v)}`);
    assert.notDeepEqual(pn.randomNormal(8, { seed: 1 }), pn.randomNormal(8, { seed: 2 }));
    assert.deepEqual(pn.randomNormal(7, { seed: 5 }), pn.randomNormal(7, { seed: 5 }));
  });

  test(`${name}: randomNormal's first n values do not depend on how many are drawn (odd and even n), which <posnorm-depth> relies on`, () => {
    const all = pn.randomNormal(4099, { seed: 77, std: 0.125 });
    for (const n of [1, 2, 3, 1000, 1001, 4098]) {
      const some = pn.randomNormal(n, { seed: 77, std: 0.125 });
      // bit for bit against the longer draw, and each value the reference generator's
      assert.deepEqual(Array.from(some), Array.from(all.subarray(0, n)), `n = ${n}`);
      const c = compareValues(some, randomNormals(n, { seed: 77, std: 0.125 }), ulp32);
      assert.ok(c.err <= 1 && c.compared === n, `n = ${n}: ${c.err} ulp`);
    }
  });

  test(`${name}: histogram bins, x == max in the last bin, below/above/NaN apart`, () => {
    const x = new Float32Array([0, 0.5, 1, -0.1, 2, NaN, 0.25, 0.999, -Infinity, Infinity, 0.75]);
    const h = pn.histogram(x, { bins: 4, min: 0, max: 1 });
    assert.deepEqual([...h.counts], [1, 1, 1, 3]); // 0 | 0.25 | 0.5 | 0.75, 0.999, 1
    assert.deepEqual([h.below, h.above, h.nan], [2, 2, 1]);
    const r = pn.randomNormal(5000, { seed: 9 });
    const auto = pn.histogram(r, { bins: 17 });
    assert.equal(auto.counts.reduce((a, b) => a + b, 0), 5000, 'default range holds every value');
    // the default range is the data's own: every bin counted as the definition says
    assert.deepEqual([auto.min, auto.max], [Math.min(...r), Math.max(...r)]);
    const want = histogram(r, { bins: 17, min: auto.min, max: auto.max });
    assert.deepEqual([...auto.counts], want.counts);
    assert.deepEqual([auto.below, auto.above, auto.nan], [0, 0, 0]);
    // the range's extremes at either end of the data, where a loop starting
    // at 1 or stopping one short loses them (5000 normals rarely put one there)
    for (const data of [[-3, 0, 1], [0, 1, -3], [5, 0, 1, 2], [0, 1, 2, 5]]) {
      const h = pn.histogram(Float32Array.from(data), { bins: 2 });
      assert.deepEqual([h.min, h.max], [Math.min(...data), Math.max(...data)], `default range of [${data}]`);
      assert.deepEqual([...h.counts], histogram(Float32Array.from(data), { bins: 2, min: Math.min(...data), max: Math.max(...data) }).counts, `counts of [${data}]`);
    }
  });

  test(`${name}: histogram puts a value on an edge in the bin above it, and one an ulp below in the bin below`, () => {
    // 49 in [0, 147) by 3: (49 − 0)·(3/147) is 0.999… in float64, and the
    // value went to bin 0
    assert.deepEqual([...pn.histogram(new Float32Array([49, 98]), { bins: 3, min: 0, max: 147 }).counts], [0, 1, 1]);
    const below = (t) => Math.fround(t - Math.abs(t) * 2 ** -23 - 1e-45);
    for (const [min, step] of [[0, 49], [0, 3], [-10, 7], [100, 0.25], [0, 0.1], [-1, 0.2], [3, 1 / 3]]) {
      for (const bins of [1, 2, 3, 7, 10, 49, 100]) {
        const max = Math.fround(min + bins * step);
        if (!(max > min)) continue;
        const x = [];
        for (let k = 0; k <= bins; k++) {
          const edge = Math.fround(min + k * step);
          x.push(edge, below(edge), Math.fround(edge + Math.abs(edge) * 2 ** -23 + 1e-45));
        }
        const data = Float32Array.from(x);
        const got = pn.histogram(data, { bins, min: Math.fround(min), max });
        const want = histogram(data, { bins, min: Math.fround(min), max });
        assert.deepEqual([...got.counts], want.counts, `[${min}, ${max}) by ${bins}`);
        assert.deepEqual([got.below, got.above, got.nan], [want.below, want.above, want.nan]);
      }
    }
  });

  test(`${name}: colormap writes the table's colours, NaN transparent`, () => {
    const lut = pn.colormapTable('diverging');
    // both tables as the OKLab design defines them (tests/reference/colormap.mjs), byte for byte
    for (const map of ['diverging', 'sequential']) assert.deepEqual([...pn.colormapTable(map)], [...colormapTable(map)], `${map} table`);
    // every index reached, and values a quarter step either side of each
    // index's edge: each pixel is the design's entry at the reference index
    for (const [vmin, vmax] of [[-1, 1], [0, 5], [-3.5, 0.25]]) {
      const xs = [];
      for (let k = 0; k < 256; k++) for (const f of [-0.25, 0.25, 0.5]) xs.push(Math.fround(vmin + ((k + f) / 255) * (vmax - vmin)));
      const x = Float32Array.from(xs);
      for (const map of ['diverging', 'sequential']) {
        const px = pn.colormap(x, { map, vmin, vmax }), table = colormapTable(map);
        for (let j = 0; j < x.length; j++) {
          const i = colormapIndex(x[j], vmin, vmax);
          assert.deepEqual([...px.subarray(4 * j, 4 * j + 4)], [...table.subarray(4 * i, 4 * i + 4)], `${map} [${vmin}, ${vmax}]: ${x[j]} (index ${i})`);
        }
      }
    }
    const px = pn.colormap(new Float32Array([-1, 0, 1, NaN, 5, -5]), { vmin: -1, vmax: 1 });
    assert.deepEqual([...px.subarray(0, 4)], [...lut.subarray(0, 4)]);
    assert.equal(colormapIndex(0, -1, 1), 128, 'the middle rounds half up');
    assert.deepEqual([...px.subarray(4, 8)], [...lut.subarray(128 * 4, 128 * 4 + 4)]);
    assert.deepEqual([...px.subarray(8, 12)], [...lut.subarray(1020, 1024)]);
    assert.deepEqual([...px.subarray(12, 16)], [0, 0, 0, 0]);
    assert.deepEqual([...px.subarray(16, 20)], [...lut.subarray(1020, 1024)], 'clamped above');
    assert.deepEqual([...px.subarray(20, 24)], [...lut.subarray(0, 4)], 'clamped below');
  });
}

/** sRGB 8-bit to OKLab (Ottosson 2020), for checking the tables. */
function oklab([r, g, b]) {
  const lin = (c) => { c /= 255; return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
  const [R, G, B] = [lin(r), lin(g), lin(b)];
  const l = Math.cbrt(0.4122214708 * R + 0.5363325363 * G + 0.0514459929 * B);
  const m = Math.cbrt(0.2119034982 * R + 0.6806995451 * G + 0.1073969566 * B);
  const s = Math.cbrt(0.0883024619 * R + 0.2817188376 * G + 0.6299787005 * B);
  return [0.2104542553 * l + 0.793617785 * m - 0.0040720468 * s,
    1.9779984951 * l - 2.428592205 * m + 0.4505937099 * s,
    0.0259040371 * l + 0.7827717662 * m - 0.808675766 * s];
}

test('colormaps are perceptually ordered: lightness linear in the index', () => {
  const { pn } = all[0];
  const seq = pn.colormapTable('sequential');
  const L = (t, i) => oklab([t[4 * i], t[4 * i + 1], t[4 * i + 2]])[0];
  for (let i = 1; i < 256; i++) {
    const step = L(seq, i) - L(seq, i - 1);
    assert.ok(step > 0 && step < 0.0055, `sequential step ${i}: ${step}`);
  }
  const div = pn.colormapTable('diverging');
  for (let i = 1; i < 128; i++) assert.ok(L(div, i) > L(div, i - 1), `diverging rises to the middle at ${i}`);
  for (let i = 129; i < 256; i++) assert.ok(L(div, i) < L(div, i - 1), `diverging falls after the middle at ${i}`);
  for (let i = 0; i < 128; i++) assert.ok(Math.abs(L(div, i) - L(div, 255 - i)) < 0.01, `symmetric lightness at ${i}`);
});
