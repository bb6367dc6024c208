// <posnorm-long-context> in Chromium: its readouts (q·k at the cursor for
// every method, attention factors, pairs completing a turn within L) against
// float64 values from the published rope_scaling formulas (tests/reference/).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { open, useBrowser } from './browser/harness.mjs';
import { hfRopeFrequencies as hfRope } from './reference/rope_scaling.mjs';

const env = useBrowser(before, after);
const tag = 'posnorm-long-context';
const SCALINGS = {
  none: () => undefined,
  linear: (f) => ({ type: 'linear', factor: f }),
  dynamic: (f, L) => ({ type: 'dynamic', factor: f, originalMaxPositions: L }),
  yarn: (f, L) => ({ type: 'yarn', factor: f, originalMaxPositions: L }),
  llama3: (f, L) => ({ type: 'llama3', factor: f, originalMaxPositions: L, lowFreqFactor: 1, highFreqFactor: 4 }),
};

test('long-context: scores at the cursor, attention factors and full turns equal float64, for several settings', async () => {
  const { page, problems, context } = await open(env.browser, `${env.server.url}/web/figure.html?fig=long-context&lang=en&train-len=1024&factor=8&dim=64&distance=5000`, { width: 900 });
  await page.waitForFunction((t) => document.querySelector(t)?.renderTimes?.length > 0, tag, { timeout: 15000 });
  for (const setting of [null, { trainLen: 4096, factor: 16, dim: 128, base: 500000, distance: 60000 }, { trainLen: 256, factor: 1, dim: 32, distance: 100 }]) {
    if (setting) {
      const n = await page.evaluate((t) => document.querySelector(t).renderTimes.length, tag);
      await page.evaluate(([t, s]) => Object.assign(document.querySelector(t), s), [tag, setting]);
      await page.waitForFunction(([t, k]) => document.querySelector(t).renderTimes.length > k, [tag, n]);
    }
    const r = await page.evaluate((t) => {
      const el = document.querySelector(t);
      return { ...el.values, q: [...el.result.q], k: [...el.result.k], scores: el.result.scores, af: el.result.attentionFactors, turns: el.result.pairsTurningInside, text: el.shadowRoot.querySelector('.readout').textContent };
    }, tag);
    const { trainLen: L, factor, dim, base, distance: d } = r;
    const half = dim / 2, top = L * factor;
    for (const [key, make] of Object.entries(SCALINGS)) {
      const { inv, af } = hfRope(dim, base, factor > 1 ? make(factor, L) : undefined, top);
      let s = 0;
      for (let i = 0; i < half; i++) {
        const c = Math.cos(d * inv[i]), sn = Math.sin(d * inv[i]);
        s += r.k[i] * (r.q[i] * c - r.q[i + half] * sn) + r.k[i + half] * (r.q[i] * sn + r.q[i + half] * c);
      }
      s *= af * af;
      assert.ok(Math.abs(r.scores[key] - s) <= 2e-5 * Math.max(1, Math.abs(s)), `${key} at ${d} (L ${L}, ×${factor}): ${r.scores[key]} vs ${s}`);
      assert.ok(Math.abs(r.af[key] - af) <= 1e-12, `${key} attention factor ${r.af[key]} vs ${af}`);
      assert.equal(r.turns[key], inv.filter((w) => (2 * Math.PI) / w <= L).length, `${key} pairs turning within L`);
    }
    assert.match(r.text, new RegExp(`distance ${d}: none `));
    if (factor === 1) assert.equal(new Set(Object.values(r.scores)).size, 1, 'no extension: every method is plain RoPE');
  }
  assert.deepEqual(problems, []);
  await context.close();
});
