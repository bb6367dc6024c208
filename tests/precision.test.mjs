// <posnorm-precision> in Chromium: its readouts against float64 and against
// a float32 emulation of the article's PyTorch code written here with
// Math.fround (not posnorm's kernel).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { open, useBrowser } from './browser/harness.mjs';

const env = useBrowser(before, after);
const tag = 'posnorm-precision';
const f = Math.fround;

/** The article's float32 PE row at position p, emulated step by step. */
function float32Row(p, d, base) {
  const scale = f(-Math.log(base) / d);
  return Array.from({ length: d }, (_, c) => {
    const a = f(f(p) * f(Math.exp(f(f(2 * (c >> 1)) * scale))));
    return f(c % 2 ? Math.cos(a) : Math.sin(a));
  });
}

test('precision: errors, neighbour distances and the blur position equal float64 and the float32 emulation', async () => {
  const { page, problems, context } = await open(env.browser, `${env.server.url}/web/figure.html?fig=precision&lang=en`, { width: 800 });
  await page.waitForFunction((t) => document.querySelector(t)?.renderTimes?.length > 0, tag, { timeout: 15000 });
  for (const setting of [null, { dModel: 64, pos: 3000000, base: 500 }, { dModel: 1024, maxExp: 16, pos: 40000 }]) {
    if (setting) {
      const n = await page.evaluate((t) => document.querySelector(t).renderTimes.length, tag);
      await page.evaluate(([t, s]) => Object.assign(document.querySelector(t), s), [tag, setting]);
      await page.waitForFunction(([t, k]) => document.querySelector(t).renderTimes.length > k, [tag, n]);
    }
    const r = await page.evaluate((t) => { const el = document.querySelector(t); return { ...el.values, result: el.result, text: el.shadowRoot.querySelector('.readout').textContent }; }, tag);
    const { dModel: d, base, pos: p } = r;
    const w = (i) => Math.exp((-2 * i / d) * Math.log(base));
    const row = float32Row(p, d, base);
    let err = 0;
    for (let c = 0; c < d; c++) err = Math.max(err, Math.abs(row[c] - (c % 2 ? Math.cos : Math.sin)(p * w(c >> 1))));
    assert.ok(Math.abs(r.result.err32 - err) <= 1e-6 * err + 2e-7, `max error of the float32 code at ${p}: ${r.result.err32} vs ${err}`);
    assert.ok(r.result.err64 < 2e-7, `posnorm's own error ${r.result.err64}`);
    // the true neighbour distance is the same at every position: sqrt(Σ_i 2 − 2·cos w_i)
    let s = 0;
    for (let i = 0; i < d / 2; i++) s += 2 - 2 * Math.cos(w(i));
    assert.ok(Math.abs(r.result.dist64 - Math.sqrt(s)) <= 1e-9 * Math.sqrt(s), `float64 neighbour distance ${r.result.dist64} vs ${Math.sqrt(s)}`);
    // the blur position: the first sample where some pair's error reaches its step
    const blurAt = (q) => {
      const e = float32Row(q, d, base);
      let worst = 0;
      for (let i = 0; i < d / 2; i++) worst = Math.max(worst, Math.hypot(e[2 * i] - Math.sin(q * w(i)), e[2 * i + 1] - Math.cos(q * w(i))) / (2 * Math.sin(w(i) / 2)));
      return worst;
    };
    const samples = r.result.samples.map((x) => x.p);
    const first = samples.find((q) => blurAt(q) >= 1) ?? null;
    assert.equal(r.result.crossover, first, `blur position (d ${d}, base ${base})`);
    assert.match(r.text, new RegExp(`pos ${p}: max error of the float32 code`));
  }
  assert.deepEqual(problems, []);
  await context.close();
});
