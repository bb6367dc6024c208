// figure_alloc.test.mjs — what a drag allocates on the JS heap, in Chromium
// (its sampling heap profiler over the drag bench/frames.mjs makes: 32
// inputs, one per frame). Garbage is what the minor GCs that land in a
// drag's frames collect (issue #20): these drags made 19 MB (long-context
// d_model: boxed canvas arguments, iterators of typed-array spreads) and
// 9.9 MB (depth's stack at its largest sizes) before draw/curve.js and
// draw/extent.js. Each limit is about 1.5 times what the drag makes now
// (4.0 and 1.9–2.0 MB) and below what it makes with curve.js's fractional
// points back (7.9 and 4.3 MB). Measured on the second drag of the control
// (the first also holds what V8's interpreter boxes before it optimises).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { drag, setSizes, settle } from '../bench/frames.mjs';
import { open, useBrowser } from './browser/harness.mjs';

const env = useBrowser(before, after);

/**
 * MB the JS heap allocated during the second drag of `prop` (the first warms
 * it), or with `first`, during its first drag after a drag of each control
 * of `first` (the order make bench drags them in).
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
    const byFunction = {};
    const walk = (n) => {
      bytes += n.selfSize;
      const f = n.callFrame.functionName;
      if (f) byFunction[f] = (byFunction[f] ?? 0) + n.selfSize / 2 ** 20;
      n.children.forEach(walk);
    };
    walk(profile.head);
    return first ? { mb: bytes / 2 ** 20, byFunction } : bytes / 2 ** 20;
  } finally {
    await context.close();
  }
}

for (const [fig, prop, size, limit] of [['long-context', 'dim', 'default', 6], ['depth', 'stack', 'largest', 3]]) {
  test(`a ${fig} ${prop} drag (${size} sizes) allocates under ${limit} MB in 32 inputs`, async () => {
    const mb = await dragAllocates(fig, prop, size);
    assert.ok(mb > 0.1 && mb < limit, `${mb.toFixed(2)} MB`);
  });
}

// The first d_model drag of long-context, after its trainLen and factor
// drags: a new d_model took the code around the score loop down branches
// with no type feedback, V8 deoptimised it, and the loop ran unoptimised (a
// heap number per product) for a few inputs, and a 10 ms collection landed
// mid-drag. The loop is now a function of its own (rowDots): 4.8–6.5 MB
// here, of which 0.6–1.1 MB in the score loop, against 8.8–10.9 MB and
// 3.6–6.1 MB with the loop back inside _scores (the whole heap's margin is
// thin under load: a review saw the old code at 7.7 MB with two copies
// running at once; the score loop's own share is not).
test('the first long-context dim drag (after trainLen and factor) allocates under 8 MB in 32 inputs, under 2 MB of it in the score loop', async () => {
  const { mb, byFunction } = await dragAllocates('long-context', 'dim', 'default', ['trainLen', 'factor']);
  const scores = (byFunction._scores ?? 0) + (byFunction.rowDots ?? 0);
  assert.ok(mb > 0.1 && mb < 8, `${mb.toFixed(2)} MB`);
  assert.ok(scores < 2, `the score loop (_scores, rowDots) allocated ${scores.toFixed(2)} MB`);
});
