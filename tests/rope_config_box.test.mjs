// <posnorm-rope-config>'s JSON box in Chromium: it holds the first preset's
// config from the first frame; while the reader steps through the presets
// it is left alone (laying out new text cost 3–4 ms of every such frame,
// issue #20) and then shows the preset the reader stopped on; what the
// reader typed is never replaced by a preset written late; and a config
// pasted and read is the one the figure draws.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { open, startFigure, useBrowser } from './browser/harness.mjs';
import { PRESETS } from '../web/figures/data/rope-config-presets.js';

const env = useBrowser(before, after);
const TAG = 'posnorm-rope-config';

async function ropeConfigPage() {
  const opened = await open(env.browser, `${env.server.url}/web/figure.html?fig=rope-config&lang=en`);
  await startFigure(opened.page, TAG);
  return opened;
}

const boxText = (page) => page.evaluate((t) => document.querySelector(t).shadowRoot.querySelector('textarea[name=config-json]').value, TAG);
const parsed = (text) => { try { return JSON.parse(text); } catch { return undefined; } };

test('the box holds the first preset\'s config at the first frame, keeps it while the reader steps through presets, then shows the one stopped on', async () => {
  const { page, context, problems } = await ropeConfigPage();
  const first = await page.evaluate((t) => document.querySelector(t).preset, TAG);
  assert.deepEqual(parsed(await boxText(page)), PRESETS[first].config, 'the default preset, with no wait');
  const select = page.locator(`${TAG} select[name=preset]`);
  await select.focus();
  const seen = [];
  for (let k = 0; k < 4; k++) {
    await page.keyboard.press('ArrowDown');
    // the frame that draws the step, then the box as it is then
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    seen.push([await page.evaluate((t) => document.querySelector(t).preset, TAG), parsed(await boxText(page))]);
  }
  const names = Object.keys(PRESETS);
  assert.deepEqual(seen.map(([p]) => p), names.slice(names.indexOf(first) + 1, names.indexOf(first) + 5), 'each key press chose the next preset');
  // (four steps within far less than the settle time of each other: kept as it was)
  for (const [preset, shown] of seen) assert.deepEqual(shown, PRESETS[first].config, `${preset}: the box is not rewritten between steps`);
  const last = seen.at(-1)[0];
  await page.waitForFunction(([t, want]) => document.querySelector(t).shadowRoot.querySelector('textarea[name=config-json]').value === want,
    [TAG, JSON.stringify(PRESETS[last].config, null, 1)], { timeout: 2000 });
  assert.deepEqual(problems, []);
  await context.close();
});

test('what the reader types into the box is never replaced by a preset written after it, and a config read from it is the one drawn', async () => {
  const { page, context, problems } = await ropeConfigPage();
  const names = Object.keys(PRESETS);
  await page.evaluate(([t, p]) => { document.querySelector(t).preset = p; }, [TAG, names[2]]);
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  // typed before the preset's text was written
  const typed = JSON.stringify({ hidden_size: 256, num_attention_heads: 4, max_position_embeddings: 2048, rope_theta: 1000 });
  await page.locator(`${TAG} textarea[name=config-json]`).fill(typed);
  await page.waitForTimeout(600);
  assert.equal(await boxText(page), typed, 'the typed text stays');
  await page.locator(`${TAG} button[data-key=rcRead]`).click();
  await page.waitForFunction((t) => document.querySelector(t).preset === 'custom' && document.querySelector(t).result?.headDim, TAG);
  const r = await page.evaluate((t) => { const { headDim, rotaryDim, base } = document.querySelector(t).result; return { headDim, rotaryDim, base }; }, TAG);
  // 256 / 4 heads = 64 per head, all of it rotated, θ = 1000 (the HF rules for a config without head_dim or partial_rotary_factor)
  assert.deepEqual(r, { headDim: 64, rotaryDim: 64, base: 1000 });
  assert.equal(await boxText(page), typed);
  assert.deepEqual(problems, []);
  await context.close();
});
