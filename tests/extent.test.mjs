// extent.test.mjs — draw/extent.js's ranges against the spreads they replace
// (Math.max/Math.min over every value), on typed and plain arrays, with the
// edges a figure can hand them: NaN, ±Infinity, −0, empty arrays.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { extent, maxAbs, positiveRange } from '../web/figures/draw/extent.js';

const samples = () => {
  let s = 7;
  const rnd = () => ((s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31 - 0.5) * 2e3;
  return [
    Float32Array.from({ length: 97 }, rnd), Float64Array.from({ length: 3 }, rnd), Array.from({ length: 40 }, rnd),
    new Float64Array([-0, 0]), new Float32Array([5]), [1e-30, -1e30], new Float64Array([-Infinity, 2]),
  ];
};

test('maxAbs is Math.max over |v| of every value and the floor, NaN included', () => {
  const arrays = samples();
  for (let k = 1; k <= arrays.length; k++) {
    const some = arrays.slice(0, k);
    const values = some.flatMap((a) => [...a]);
    assert.equal(maxAbs(some, 1e-6), Math.max(...values.map(Math.abs), 1e-6));
    assert.equal(maxAbs(some), Math.max(...values.map(Math.abs)));
  }
  assert.equal(maxAbs([]), -Infinity);
  assert.equal(maxAbs([new Float32Array(0)], 1e-6), 1e-6);
  assert.equal(maxAbs([new Float64Array([-0])]), 0);
  assert.ok(Number.isNaN(maxAbs([[1, NaN, 3]], 1e-6)));
});

test('extent is Math.min, Math.max and the largest |v| of one array', () => {
  for (const a of samples()) {
    const v = [...a];
    assert.deepEqual(extent(a), { min: Math.min(...v), max: Math.max(...v), maxAbs: Math.max(...v.map(Math.abs)) });
  }
  const e = extent(new Float64Array([2, NaN, -3]));
  assert.ok(Number.isNaN(e.min) && Number.isNaN(e.max) && Number.isNaN(e.maxAbs));
  assert.ok(Number.isNaN(extent([NaN, 1]).min), 'a NaN first value as well');
});

test('positiveRange keeps the finite values above 0 and the seed', () => {
  const arrays = samples();
  const kept = arrays.flatMap((a) => [...a]).filter((v) => Number.isFinite(v) && v > 0);
  assert.deepEqual(positiveRange(arrays, 1), { lo: Math.min(...kept, 1), hi: Math.max(...kept, 1) });
  assert.deepEqual(positiveRange([[NaN, Infinity, -2, 0, -0]], 1), { lo: 1, hi: 1 });
  assert.deepEqual(positiveRange([[0.5, 8]], 1), { lo: 0.5, hi: 8 });
});
