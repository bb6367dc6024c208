// bench/coldstart.mjs's first-paint watcher, in Chromium: added at the
// document's start over the DevTools protocol, as the bench adds it, it
// records the first figure's first painted frame — after the figure's
// first render ended (firstFrameAt, what the bench read before) and after a
// requestAnimationFrame callback that came after that render.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { useBrowser } from './browser/harness.mjs';
import { firstPaintWatcher } from '../bench/coldstart.mjs';

const env = useBrowser(before, after);

/** Opens the heatmap alone, with `sources` added at the document's start over DevTools (as the bench adds its watcher); runs `check(page)`. */
async function heatmapWith(sources, check) {
  const context = await env.browser.newContext();
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Page.enable');
    for (const source of sources) await cdp.send('Page.addScriptToEvaluateOnNewDocument', { source });
    await page.goto(`${env.server.url}/web/figure.html?fig=heatmap&lang=en`);
    await check(page);
  } finally {
    await context.close();
  }
}

test('the cold-start watcher records the frame painted after the first render, not the render', async () => {
  // the test's own marker, added after the watcher: the end of a 3 ms callback of the first animation frame after
  // the first render (the page's clock is coarse: a watcher that took its time inside that frame, not after it,
  // would be 3 ms early, not within the clock's 0.1 ms)
  const marker = `addEventListener('posnorm-ready', (e) => { if (e.target.localName === 'posnorm-heatmap' && window.__testFrame === undefined) { window.__testFrame = 0; requestAnimationFrame(() => { const end = performance.now() + 3; while (performance.now() < end); window.__testFrame = performance.now(); }); } }, true);`;
  await heatmapWith([firstPaintWatcher('posnorm-heatmap'), marker], async (page) => {
    await page.waitForFunction(() => window.__pnFirstPaint > 0, null, { timeout: 20000 });
    const { painted, rendered, frame } = await page.evaluate(() => ({
      painted: window.__pnFirstPaint, rendered: document.querySelector('posnorm-heatmap').firstFrameAt, frame: window.__testFrame,
    }));
    assert.ok(rendered > 0, `the figure rendered (${rendered})`);
    assert.ok(frame > rendered, `an animation frame came after the render (${frame} vs ${rendered})`);
    assert.ok(painted >= frame, `the paint is taken after that frame's callbacks, not in them (${painted} vs ${frame})`);
    assert.ok(painted - rendered < 2000, `and not long after (${painted - rendered} ms)`);
  });
});

test('the watcher ignores other figures\' ready events', async () => {
  await heatmapWith([`window.__watching = true; ${firstPaintWatcher('posnorm-order')}`], async (page) => {
    await page.waitForFunction(() => document.querySelector('posnorm-heatmap')?.firstFrameAt > 0, null, { timeout: 20000 });
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 50))));
    assert.equal(await page.evaluate(() => window.__watching), true, 'the watcher ran');
    assert.equal(await page.evaluate(() => window.__pnFirstPaint), undefined);
  });
});
