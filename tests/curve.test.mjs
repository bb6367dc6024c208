// curve.test.mjs — draw/curve.js's hairline curves against the wide stroke
// they stand in for, in Chromium's own canvas: the same band of pixels, about
// the same ink, dashes where the dashes are, at devicePixelRatio 1 and 2.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { useBrowser } from './browser/harness.mjs';

const env = useBrowser(before, after);

/**
 * In a page of the demo server: draws `shape` on two W×H canvases at scale
 * `dpr`, once as a real lineWidth-`width` stroke and once with strokeCurve,
 * and returns both alpha channels and the context state strokeCurve left.
 */
async function draw(shape, { dpr = 1, width = 2, dash = [] } = {}) {
  const context = await env.browser.newContext();
  const page = await context.newPage();
  await page.goto(`${env.server.url}/web/figure.html`);
  try {
    return await page.evaluate(async ({ shape, dpr, width, dash }) => {
      const { strokeCurve } = await import('/web/figures/draw/curve.js');
      const W = 200, H = 100, n = 400;
      const curves = {
        // a level line through the middle of a pixel row and one on a pixel edge
        level: (k) => [10 + (k / (n - 1)) * 180, 50],
        edge: (k) => [10 + (k / (n - 1)) * 180, 50.5],
        // a gentle sine: one period over the width, 30 px of amplitude
        sine: (k) => [10 + (k / (n - 1)) * 180, 50 + 30 * Math.sin((2 * Math.PI * k) / (n - 1))],
      };
      const at = curves[shape];
      const alpha = (paint) => {
        const c = document.createElement('canvas');
        c.width = W * dpr;
        c.height = H * dpr;
        const ctx = c.getContext('2d');
        ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
        ctx.strokeStyle = '#000';
        const state = paint(ctx);
        const d = ctx.getImageData(0, 0, c.width, c.height).data;
        return { a: Array.from({ length: d.length / 4 }, (_, p) => d[4 * p + 3] / 255), state };
      };
      const wide = alpha((ctx) => {
        ctx.lineWidth = width;
        ctx.setLineDash(dash);
        ctx.beginPath();
        for (let k = 0; k < n; k++) (k ? ctx.lineTo(...at(k)) : ctx.moveTo(...at(k)));
        ctx.stroke();
      });
      const hair = alpha((ctx) => {
        ctx.lineWidth = 7;
        ctx.setLineDash([9, 9]);
        strokeCurve(ctx, n, (k) => at(k)[0], (k) => at(k)[1], { width, dash });
        return { lineWidth: ctx.lineWidth, dash: ctx.getLineDash() };
      });
      return { w: W * dpr, h: H * dpr, wide: wide.a, hair: hair.a, state: hair.state };
    }, { shape, dpr, width, dash });
  } finally {
    await context.close();
  }
}

const ink = (a) => a.reduce((s, v) => s + v, 0);

/** The rows of column x whose alpha is at least `min`. */
const rowsOf = (r, a, x, min) => Array.from({ length: r.h }, (_, y) => y).filter((y) => a[y * r.w + x] >= min);

for (const dpr of [1, 2]) {
  test(`strokeCurve covers the band a ${2 * dpr}-device-px stroke covers, with about its ink (dpr ${dpr})`, async () => {
    for (const shape of ['level', 'edge', 'sine']) {
      const r = await draw(shape, { dpr });
      const ratio = ink(r.hair) / ink(r.wide);
      assert.ok(ratio > 0.85 && ratio < 1.25, `${shape}: ink ${ratio.toFixed(3)} of the wide stroke's`);
      // every pixel the stroke covers fully is covered at least half by the hairlines
      const missed = r.wide.filter((v, p) => v >= 0.99 && r.hair[p] < 0.5).length;
      const full = r.wide.filter((v) => v >= 0.99).length;
      assert.ok(full > 0 && missed <= 0.02 * full, `${shape}: ${missed} of ${full} fully covered pixels left pale`);
      // and nothing lands away from the band: no pixel the stroke leaves empty gets more than a trace
      const stray = r.hair.filter((v, p) => v >= 0.5 && r.wide[p] === 0).length;
      assert.equal(stray, 0, `${shape}: ${stray} pixels painted outside the stroke's band`);
      assert.deepEqual(r.state, { lineWidth: 1, dash: [] }, `${shape}: context left as documented`);
    }
    // a level line: the same rows, dark, in a column in the middle
    const r = await draw('level', { dpr });
    const x = r.w >> 1;
    assert.deepEqual(rowsOf(r, r.hair, x, 0.5), rowsOf(r, r.wide, x, 0.5), 'rows of the level line');
    assert.equal(rowsOf(r, r.wide, x, 0.5).length, 2 * dpr);
  });
}

test('strokeCurve of width 1 at dpr 1 is the 1 px stroke itself', async () => {
  const r = await draw('sine', { width: 1 });
  assert.deepEqual(r.hair, r.wide);
});

test('strokeCurve dashes where the wide stroke dashes', async () => {
  const r = await draw('level', { dash: [6, 3] });
  // along the line's row: painted columns of each, within a pixel of each other at every dash edge
  const y = rowsOf(r, r.wide, 100, 0.5)[0];
  const on = (a) => Array.from({ length: r.w }, (_, x) => (a[y * r.w + x] >= 0.5 ? 1 : 0));
  const wide = on(r.wide), hair = on(r.hair);
  const differ = wide.filter((v, x) => v !== hair[x]).length;
  const edges = wide.filter((v, x) => x > 0 && v !== wide[x - 1]).length;
  assert.ok(edges >= 30, `the wide stroke shows its dashes (${edges} edges)`);
  assert.ok(differ <= edges, `${differ} columns differ, at most one per dash edge (${edges})`);
});
