// figure_width.test.mjs — figures size their canvases from a width the
// shared ResizeObserver keeps (core/observers.js cssWidth), not from layout
// read during render(); in Chromium, a figure whose box changes width must
// still redraw at its new width, on a laptop window and a phone's, at
// devicePixelRatio 1 and 2.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { open, startFigure, useBrowser } from './browser/harness.mjs';

const env = useBrowser(before, after);

/** Each canvas of `tag`: its backing width, and its CSS box width × dpr as layout gives it now. */
const canvases = (page, tag) => page.evaluate((t) => [...document.querySelector(t).shadowRoot.querySelectorAll('canvas')]
  .map((c) => ({ width: c.width, want: Math.round(c.getBoundingClientRect().width * devicePixelRatio) })), tag);

for (const dpr of [1, 2]) {
  test(`figures follow their box's width through window resizes (dpr ${dpr})`, async () => {
    for (const fig of ['waveform', 'ln-simulator', 'long-context']) {
      const tag = `posnorm-${fig}`;
      const { page, context, problems } = await open(env.browser, `${env.server.url}/web/figure.html?fig=${fig}&lang=en`, { width: 1280, height: 900, deviceScaleFactor: dpr });
      try {
        await startFigure(page, tag);
        for (const [width, height] of [[360, 800], [900, 900], [1280, 900]]) {
          const before = await page.evaluate((t) => document.querySelector(t).renderTimes.length, tag);
          await page.setViewportSize({ width, height });
          // the repaint the resize asked for, then one frame more
          await page.waitForFunction(({ t, n }) => document.querySelector(t).renderTimes.length > n, { t: tag, n: before });
          await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
          const got = await canvases(page, tag);
          for (const c of got) {
            // fitCanvas rounds the CSS width (as clientWidth does) before scaling
            assert.ok(Math.abs(c.width - c.want) <= dpr, `${fig} at ${width} px, dpr ${dpr}: canvas ${c.width} device px wide, its box ${c.want}`);
          }
          assert.ok(got[0].want < 1280 * dpr, `${fig} at ${width} px: a real box width (${got[0].want})`);
        }
        assert.deepEqual(problems, []);
      } finally {
        await context.close();
      }
    }
  });
}
