// extent.js — the ranges a figure scales its plots by, taken in plain loops
// over typed or ordinary arrays. A spread or flatMap of a typed array
// (Math.max(...a.map(Math.abs)), [...a]) goes through its iterator, one
// result object per value: heap profiles of drags (issue #20) found it
// behind a third of what some repaints allocated.

/**
 * The largest |v| over the values of every array in `arrays`, and `floor`
 * (−∞ by default); NaN if any value is NaN, as Math.max.
 */
export function maxAbs(arrays, floor = -Infinity) {
  let m = floor;
  for (const a of arrays) {
    for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i]));
  }
  return m;
}

/**
 * { min, max, maxAbs } of the values of one array (not empty); NaN wherever
 * a value is NaN, as Math.min and Math.max.
 */
export function extent(a) {
  let min = a[0], max = a[0], most = Math.abs(a[0]);
  for (let i = 1; i < a.length; i++) {
    min = Math.min(min, a[i]);
    max = Math.max(max, a[i]);
    most = Math.max(most, Math.abs(a[i]));
  }
  return { min, max, maxAbs: most };
}

/**
 * { lo, hi }: the least and greatest of `seed` and of the finite values
 * above 0 in every array (the range of a log axis).
 */
export function positiveRange(arrays, seed) {
  let lo = seed, hi = seed;
  for (const a of arrays) {
    for (let i = 0; i < a.length; i++) {
      const v = a[i];
      if (Number.isFinite(v) && v > 0) {
        lo = Math.min(lo, v);
        hi = Math.max(hi, v);
      }
    }
  }
  return { lo, hi };
}
