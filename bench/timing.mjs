// bench/timing.mjs — how make bench times a row of functions side by side
// (bench/kernels.mjs, bench/peers.mjs).

/** Calls fn n times; awaits the calls only when fn returns a promise (a synchronous kernel runs in a plain loop). */
async function repeat(fn, n) {
  const first = fn();
  if (typeof first?.then === 'function') {
    await first;
    for (let i = 1; i < n; i++) await fn();
  } else {
    for (let i = 1; i < n; i++) fn();
  }
}

/**
 * Milliseconds per call of each function of `fns` (name → fn, synchronous
 * or async), side by side: each is first given a repeat count that makes a
 * round last >= minMs/4, then `rounds` rounds run every function in turn,
 * and the fastest round of each counts. Taking turns spreads the bursts of
 * other work on this shared 2-core machine (and a slow phase of the
 * allocator, a fresh array's first touch) over all columns instead of
 * landing on one; the minimum is the least disturbed round (medians moved
 * by ±30 % between runs).
 */
export async function timeAll(fns, { minMs = 60, rounds = 7 } = {}) {
  const entries = Object.entries(fns), reps = {}, best = {};
  for (const [k, fn] of entries) {
    await repeat(fn, 1);
    let r = 1;
    for (;;) {
      const t0 = performance.now();
      await repeat(fn, r);
      if (performance.now() - t0 >= minMs / 4) break;
      r *= 2;
    }
    reps[k] = r;
    best[k] = Infinity;
  }
  for (let round = 0; round < rounds; round++) {
    for (const [k, fn] of entries) {
      const t0 = performance.now();
      await repeat(fn, reps[k]);
      best[k] = Math.min(best[k], (performance.now() - t0) / reps[k]);
    }
  }
  return best;
}
