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
        // waveform's tightest curve, one sample per CSS px: i = 0, 40 px
        // high, a period of 40 px (radius of curvature 1 px at its peaks)
        tight: (k) => [10 + k * (180 / (n - 1)), 50 + 20 * Math.sin((2 * Math.PI * k * (180 / (n - 1))) / 40)],
        // long-context's score curves: samples 1.2 px apart, a seeded jitter
        // of ±1.5 px (every point a peak or a trough), and one spike 30 px
        // up over three samples and one narrow bump of 1.8 px
        spiky: (k) => {
          const j = Math.min(k, 149);
          const jitter = 1.5 * Math.sin(j * 12.9898 + 78.233 * Math.sin(j));
          const spike = j === 60 ? -30 : j === 59 || j === 61 ? -12 : 0;
          const bump = j === 110 ? -1.8 : 0;
          return [10 + j * 1.2, 50 + (j < 40 ? 0 : jitter) + spike + bump];
        },
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
        // round joins: the band a 2 px pen covers (miter joins overshoot at spikes)
        ctx.lineJoin = 'round';
        ctx.setLineDash(dash);
        ctx.beginPath();
        for (let k = 0; k < n; k++) (k ? ctx.lineTo(...at(k)) : ctx.moveTo(...at(k)));
        ctx.stroke();
      });
      const hair = alpha((ctx) => {
        ctx.lineWidth = 7;
        ctx.setLineDash([9, 9]);
        // every stroke strokeCurve makes, and its width in device px (the
        // line width in user units times the transform's scale when it strokes)
        const strokes = [];
        const stroke = ctx.stroke;
        ctx.stroke = function () {
          const t = this.getTransform();
          strokes.push(Math.round(this.lineWidth * Math.hypot(t.a, t.b) * 1e9) / 1e9);
          return stroke.call(this);
        };
        // the points it passes: whole numbers (fractions are boxed, one
        // heap number per argument: curve.js)
        let fractional = 0;
        for (const name of ['moveTo', 'lineTo']) {
          const call = ctx[name];
          ctx[name] = function (x, y) {
            if (!Number.isInteger(x) || !Number.isInteger(y)) fractional++;
            return call.call(this, x, y);
          };
        }
        strokeCurve(ctx, n, (k) => at(k)[0], (k) => at(k)[1], { width, dash });
        const t = ctx.getTransform();
        return { lineWidth: ctx.lineWidth, dash: ctx.getLineDash(), transform: [t.a, t.b, t.c, t.d, t.e, t.f], fractional, strokes };
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
    for (const shape of ['level', 'edge', 'sine', 'tight', 'spiky']) {
      const r = await draw(shape, { dpr });
      const ratio = ink(r.hair) / ink(r.wide);
      assert.ok(ratio > 0.87 && ratio < 1.15, `${shape}: ink ${ratio.toFixed(3)} of the wide stroke's`);
      // every pixel the stroke covers fully is covered at least half by the hairlines
      const missed = r.wide.filter((v, p) => v >= 0.99 && r.hair[p] < 0.5).length;
      const full = r.wide.filter((v) => v >= 0.99).length;
      assert.ok(full > 0 && missed <= 0.02 * full, `${shape}: ${missed} of ${full} fully covered pixels left pale`);
      // and nothing lands away from the band: no pixel the stroke leaves empty gets more than a trace
      const stray = r.hair.filter((v, p) => v >= 0.5 && r.wide[p] === 0).length;
      assert.equal(stray, 0, `${shape}: ${stray} pixels painted outside the stroke's band`);
      // hairlines only: 2·(2·dpr − 1) + 1 of them, each one device px wide
      const { strokes, ...state } = r.state;
      assert.deepEqual(strokes, Array(4 * dpr - 1).fill(1), `${shape}: the strokes' device widths`);
      assert.deepEqual(state, { lineWidth: 1, dash: [], transform: [dpr, 0, 0, dpr, 0, 0], fractional: 0 }, `${shape}: context left as documented, points passed as whole numbers`);
      if (shape === 'spiky') {
        // the spike's tip and the bump are drawn where the stroke draws them:
        // the highest painted row over each, within a device pixel
        for (const [x0, x1] of [[80, 90], [138, 146]]) {
          const top = (a) => Math.min(...Array.from({ length: (x1 - x0) * dpr }, (_, i) => rowsOf(r, a, x0 * dpr + i, 0.5)[0] ?? Infinity));
          assert.ok(Math.abs(top(r.hair) - top(r.wide)) <= 1, `${shape}: top row over x ${x0}–${x1}: ${top(r.hair)} vs the stroke's ${top(r.wide)}`);
        }
      }
    }
    // a level line: the same rows, dark, in a column in the middle, and the
    // same first and last columns (the last point is always drawn)
    const r = await draw('level', { dpr });
    const x = r.w >> 1;
    assert.deepEqual(rowsOf(r, r.hair, x, 0.5), rowsOf(r, r.wide, x, 0.5), 'rows of the level line');
    assert.equal(rowsOf(r, r.wide, x, 0.5).length, 2 * dpr);
    const y = rowsOf(r, r.wide, x, 0.5)[0];
    const ends = (a) => {
      const cols = Array.from({ length: r.w }, (_, c) => c).filter((c) => a[y * r.w + c] >= 0.5);
      return [cols[0], cols.at(-1)];
    };
    assert.deepEqual(ends(r.hair), ends(r.wide), 'the line\'s first and last columns');
  });
}

test('strokeCurve dashes where the wide stroke dashes, and leaves the dash empty', async () => {
  const r = await draw('level', { dash: [6, 3] });
  // along the line's row: the hairlines' dash edges are the stroke's, pixel
  // for pixel (a dash of [5, 4] for [6, 3] is a pixel off at every edge)
  const y = rowsOf(r, r.wide, 100, 0.5)[0];
  const edges = (a) => {
    const on = Array.from({ length: r.w }, (_, x) => a[y * r.w + x] >= 0.5);
    return on.flatMap((v, x) => (x > 0 && v !== on[x - 1] ? [x] : []));
  };
  const wide = edges(r.wide), hair = edges(r.hair);
  assert.ok(wide.length >= 30, `the wide stroke shows its dashes (${wide.length} edges)`);
  assert.equal(hair.length, wide.length, 'as many dash edges');
  hair.forEach((x, i) => assert.ok(x === wide[i], `edge ${i}: ${x} vs the stroke's ${wide[i]}`));
  assert.deepEqual(r.state.dash, [], 'the dash reset');
});

test('strokeCurve: thin widths stroke once; non-finite points are left out; a curve drawn from inside another\'s callbacks leaves it whole', async () => {
  // width 0.5 CSS px at dpr 1: one stroke, 0.5 px wide
  const thin = await draw('sine', { width: 0.5 });
  assert.deepEqual(thin.state.strokes, [0.5]);
  const context = await env.browser.newContext();
  const page = await context.newPage();
  await page.goto(`${env.server.url}/web/figure.html`);
  try {
    const r = await page.evaluate(async () => {
      const { strokeCurve } = await import('/web/figures/draw/curve.js');
      const pixels = (paint) => {
        const c = document.createElement('canvas');
        c.width = 200;
        c.height = 100;
        const ctx = c.getContext('2d');
        paint(ctx);
        return Array.from(ctx.getImageData(0, 0, 200, 100).data);
      };
      const ramp = (k) => 20 + 60 * Math.sin(k / 30);
      // the same ramp with NaN (or Infinity) at both ends, and without those points
      const withNaN = pixels((ctx) => strokeCurve(ctx, 100, (k) => 10 + k * 1.8, (k) => (k === 0 ? NaN : k === 99 ? Infinity : ramp(k))));
      const without = pixels((ctx) => strokeCurve(ctx, 98, (k) => 10 + (k + 1) * 1.8, (k) => ramp(k + 1)));
      // a y callback that draws another curve on another canvas half way
      const other = document.createElement('canvas').getContext('2d');
      const nested = pixels((ctx) => strokeCurve(ctx, 100, (k) => 10 + k * 1.8, (k) => {
        if (k === 50) strokeCurve(other, 10, (j) => j * 7, (j) => 90 - j * 3);
        return ramp(k);
      }));
      const plain = pixels((ctx) => strokeCurve(ctx, 100, (k) => 10 + k * 1.8, ramp));
      const ink = (p) => p.filter((v, i) => i % 4 === 3).reduce((a, b) => a + b, 0);
      return { nanSame: withNaN.every((v, i) => v === without[i]), nanInk: ink(withNaN), nestedSame: nested.every((v, i) => v === plain[i]), plainInk: ink(plain) };
    });
    assert.ok(r.nanInk > 0 && r.nanSame, 'a curve with non-finite ends is its finite part');
    assert.ok(r.plainInk > 0 && r.nestedSame, 'the outer curve is unchanged by the nested one');
  } finally {
    await context.close();
  }
});
