// figure_alloc.test.mjs — what a drag allocates on the JS heap, in Chromium
// (its sampling heap profiler over the drag bench/frames.mjs makes: 32
// inputs, one per frame). Garbage is what the minor GCs that land in a
// drag's frames collect (issue #20): these drags made 19 MB (long-context
// d_model: boxed canvas arguments, iterators of typed-array spreads) and
// 9.9 MB (depth's stack at its largest sizes) before draw/curve.js and
// draw/extent.js. Measured on the second drag of the control (the first
// also holds what V8's interpreter boxes before it optimises).
//
// Each drag has two limits. Measured on 2026-12-05 (this machine, idle;
// "broken" is curve.js passing its points unrounded, each boxed):
//
//   drag                       whole heap          strokeCurve and callees
//                              now     broken      now        broken
//   long-context dim, default  5.3 MB  6.6–7.0 MB  0.02 MB    1.6–1.7 MB
//   depth stack, largest       1.6–1.8 2.7–3.0     0.34–0.59  1.45–1.7
//
// (a review's runs, some with two busy loops on this 2-core machine, are
// in the ranges). The whole heap's limit (8 and 3 MB) catches a drag that
// allocates far more than now; it could not tell curve.js's regression
// apart (the limits were 6 and 3 MB, which passed depth's at 2.7–3.0 and
// left long-context 13 % of room at 5.3). The curve's own limit, 1 MB,
// does. What the sampling heap profiler counts is the JS heap: a typed
// array's elements live outside it, so fresh Float64Arrays in place of
// curve.js's kept scratch arrays (0.24 and 0.46 MB in strokeCurve, by a
// review) are not seen here.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { drag, setSizes, settle } from '../bench/frames.mjs';
import { open, useBrowser } from './browser/harness.mjs';

const env = useBrowser(before, after);

/**
 * What the JS heap allocated during the second drag of `prop` (the first
 * warms it), or with `first`, during its first drag after a drag of each
 * control of `first` (the order make bench drags them in): { mb } in all,
 * and MB per function, { self, within }.
 */
async function dragAllocates(fig, prop, size, first) {
  const tag = `posnorm-${fig}`;
  const { page, context } = await open(env.browser, `${env.server.url}/web/figure.html?fig=${fig}&lang=en`);
  try {
    await page.waitForFunction((t) => document.querySelector(t)?.renderTimes?.length > 0, tag, { timeout: 30000 });
    const values = await setSizes(page, tag, size);
    await settle(page);
    for (const p of first ?? [prop]) {
      await drag(page, tag, p, 32);
      await page.evaluate(({ t, v }) => Object.assign(document.querySelector(t), v), { t: tag, v: values });
      await settle(page);
    }
    const cdp = await context.newCDPSession(page);
    await cdp.send('HeapProfiler.enable');
    await cdp.send('HeapProfiler.startSampling', { samplingInterval: 1024, includeObjectsCollectedByMinorGC: true, includeObjectsCollectedByMajorGC: true });
    await drag(page, tag, prop, 32);
    const { profile } = await cdp.send('HeapProfiler.stopSampling');
    let bytes = 0;
    // MB per function: allocated in its own code (self), and in it and all
    // it calls (within: a builtin it calls, reduce or subarray, allocates
    // under the builtin's name)
    const self = {}, within = {};
    const walk = (n, callers) => {
      bytes += n.selfSize;
      const f = n.callFrame.functionName;
      const mb = n.selfSize / 2 ** 20;
      if (f) self[f] = (self[f] ?? 0) + mb;
      const chain = f && !callers.includes(f) ? [...callers, f] : callers;
      for (const g of chain) within[g] = (within[g] ?? 0) + mb;
      n.children.forEach((c) => walk(c, chain));
    };
    walk(profile.head, []);
    return { mb: bytes / 2 ** 20, self, within };
  } finally {
    await context.close();
  }
}

for (const [fig, prop, size, limit] of [['long-context', 'dim', 'default', 8], ['depth', 'stack', 'largest', 3]]) {
  test(`a ${fig} ${prop} drag (${size} sizes) allocates under ${limit} MB in 32 inputs, under 1 MB of it in drawing curves`, async () => {
    const { mb, within } = await dragAllocates(fig, prop, size);
    assert.ok(mb > 0.1 && mb < limit, `${mb.toFixed(2)} MB`);
    const curves = within.strokeCurve ?? 0;
    assert.ok(curves < 1, `strokeCurve and what it calls allocated ${curves.toFixed(2)} MB`);
  });
}

// The first dim drag of long-context, after its trainLen and factor drags.
// It was the worst case: a new dim took the code around the score loop down
// branches with no type feedback. V8 deoptimised it, and the loop ran
// unoptimised for a few inputs (a heap number per product), and a 10 ms
// collection landed mid-drag. The loop then moved into a function of its
// own, rowDots. Measured again on 2026-12-05, with the loop put back inside
// _scores: 0.29 MB in _scores and 5.4 MB in all (against 3.6–6.1 and
// 8.8–10.9 MB then). So that deoptimisation no longer happens here (why was not
// looked into), and this test does not tell the two apart. What it holds:
// - the drag's whole heap, 10 MB (the margin is thin under load: a review
//   saw 7.7 MB with two copies running at once);
// - the score loop, 2 MB: _scores' own allocations, and those of rowDots
//   and everything it calls (0.1 MB now). A subarray per row there
//   allocates 2.7 MB, under the builtin's name (so rowDots is counted with
//   what it calls), and the drag 7.8 MB in all, inside the whole heap's
//   limit.
test('the first long-context dim drag (after trainLen and factor) allocates under 10 MB in 32 inputs, under 2 MB of it in the score loop', async () => {
  const { mb, self, within } = await dragAllocates('long-context', 'dim', 'default', ['trainLen', 'factor']);
  const scores = (self._scores ?? 0) + (within.rowDots ?? 0);
  assert.ok(mb > 0.1 && mb < 10, `${mb.toFixed(2)} MB`);
  assert.ok(scores < 2, `the score loop (_scores, rowDots and what it calls) allocated ${scores.toFixed(2)} MB`);
});
