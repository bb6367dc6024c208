// <posnorm-rope-config>'s JSON box in Chromium: it holds the first preset's
// config from the first frame; while the reader steps through the presets
// it is left alone (laying out new text cost 3–4 ms of every such frame,
// issue #20) and then shows the preset the reader stopped on; what the
// reader typed, or a file read, is never replaced by a preset written late;
// and a config pasted and read is the one the figure draws. The delay is
// the class's presetTextDelay, set long where a test must not depend on how
// fast this machine runs.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { open, startFigure, useBrowser } from './browser/harness.mjs';
import { PRESETS } from '../web/figures/data/rope-config-presets.js';

const env = useBrowser(before, after);
const TAG = 'posnorm-rope-config';
const NAMES = Object.keys(PRESETS);
const json = (name) => JSON.stringify(PRESETS[name].config, null, 1);

async function ropeConfigPage() {
  const opened = await open(env.browser, `${env.server.url}/web/figure.html?fig=rope-config&lang=en`);
  await startFigure(opened.page, TAG);
  return opened;
}

const boxText = (page, sel = TAG) => page.evaluate((s) => document.querySelector(s).shadowRoot.querySelector('textarea[name=config-json]').value, sel);
const setDelay = (page, ms) => page.evaluate(([t, v]) => { customElements.get(t).presetTextDelay = v; }, [TAG, ms]);
/** The head dim, rotary dim and base the figure draws. */
const drawn = (page) => page.evaluate((t) => { const { headDim, rotaryDim, base } = document.querySelector(t).result; return { headDim, rotaryDim, base }; }, TAG);
/**
 * Clicks Read and waits for the result drawn from what was read: preset
 * 'custom' is set at once, but the result is set by the next render, so
 * the result drawn before the click is marked and a new one waited for.
 */
async function readBox(page) {
  await page.evaluate((t) => { window.__before = document.querySelector(t).result; }, TAG);
  await page.locator(`${TAG} button[data-key=rcRead]`).click();
  await page.waitForFunction((t) => { const el = document.querySelector(t); return el.preset === 'custom' && el.result !== window.__before && el.result?.headDim; }, TAG);
}
const frame = (page) => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));

test('the box holds the first preset\'s config at the first frame, keeps it while the reader steps through presets, then shows the one stopped on', async () => {
  const { page, context, problems } = await ropeConfigPage();
  // a delay no step of this test comes near: only a write at once fills the box of a new figure
  await setDelay(page, 60000);
  await page.evaluate((t) => {
    const el = document.createElement(t);
    el.id = 'fresh';
    el.setAttribute('preset', 'mistral-7b-v0.1');
    document.body.prepend(el);
  }, TAG);
  await startFigure(page, '#fresh');
  assert.equal(await boxText(page, '#fresh'), json('mistral-7b-v0.1'), 'the first preset, with no wait');
  const select = page.locator('#fresh select[name=preset]');
  await select.focus();
  const seen = [];
  for (let k = 0; k < 3; k++) {
    await page.keyboard.press('ArrowDown');
    await frame(page);
    seen.push([await page.evaluate(() => document.querySelector('#fresh').preset), await boxText(page, '#fresh')]);
  }
  const from = NAMES.indexOf('mistral-7b-v0.1');
  assert.deepEqual(seen.map(([p]) => p), NAMES.slice(from + 1, from + 4), 'each key press chose the next preset');
  for (const [preset, shown] of seen) assert.equal(shown, json('mistral-7b-v0.1'), `${preset}: the box is not rewritten between steps`);
  // a short delay, one more step: the box shows where the reader stopped
  await setDelay(page, 30);
  await page.keyboard.press('ArrowDown');
  const last = await page.evaluate(() => document.querySelector('#fresh').preset);
  assert.equal(last, NAMES[from + 4]);
  await page.waitForFunction(([want]) => document.querySelector('#fresh').shadowRoot.querySelector('textarea[name=config-json]').value === want, [json(last)], { timeout: 5000 });
  assert.deepEqual(problems, []);
  await context.close();
});

test('what the reader types into the box is never replaced by a preset written after it, and a config read from it is the one drawn', async () => {
  const { page, context, problems } = await ropeConfigPage();
  await setDelay(page, 2000);
  await page.evaluate(([t, p]) => { document.querySelector(t).preset = p; }, [TAG, NAMES[2]]);
  await frame(page);
  // typed well within the delay, before the preset's text is written
  const typed = JSON.stringify({ hidden_size: 256, num_attention_heads: 4, max_position_embeddings: 2048, rope_theta: 1000 });
  await page.locator(`${TAG} textarea[name=config-json]`).fill(typed);
  await page.waitForTimeout(2600);
  assert.equal(await boxText(page), typed, 'the typed text stays');
  await readBox(page);
  const r = await drawn(page);
  // 256 / 4 heads = 64 per head, all of it rotated, θ = 1000 (the HF rules for a config without head_dim or partial_rotary_factor)
  assert.deepEqual(r, { headDim: 64, rotaryDim: 64, base: 1000 });
  assert.equal(await boxText(page), typed);
  assert.deepEqual(problems, []);
  await context.close();
});

test('a config file read while a preset\'s text waits to be written stays in the box, and is the one drawn', async () => {
  const { page, context, problems } = await ropeConfigPage();
  await setDelay(page, 2000);
  await page.evaluate(([t, p]) => { document.querySelector(t).preset = p; }, [TAG, NAMES[3]]);
  await frame(page);
  const text = JSON.stringify({ hidden_size: 512, num_attention_heads: 8, max_position_embeddings: 4096, rope_theta: 50000 }, null, 2);
  await page.locator(`${TAG} input[type=file]`).setInputFiles({ name: 'config.json', mimeType: 'application/json', buffer: Buffer.from(text) });
  await page.waitForFunction((t) => document.querySelector(t).preset === 'custom' && document.querySelector(t).result?.base === 50000, TAG);
  // past the delay: the preset's write finds the preset no longer chosen
  await page.waitForTimeout(2600);
  assert.equal(await boxText(page), text, 'the file\'s text stays');
  const r = await drawn(page);
  assert.deepEqual(r, { headDim: 64, rotaryDim: 64, base: 50000 });
  assert.deepEqual(problems, []);
  await context.close();
});

test('the canvas\'s text alternative names the config shown now, from the first frame after a change', async () => {
  const { page, context, problems } = await ropeConfigPage();
  const label = () => page.evaluate((t) => document.querySelector(t).shadowRoot.querySelector('canvas[role=img]').getAttribute('aria-label'), TAG);
  await page.evaluate(([t, p]) => { document.querySelector(t).preset = p; }, [TAG, 'llama-3.1-8b']);
  await frame(page);
  assert.match(await label(), /\(llama3\)/);
  // the same number of pairs, no rope_scaling: its type is "default" (the label said llama3 until the pairs changed)
  await page.evaluate(([t, p]) => { document.querySelector(t).preset = p; }, [TAG, 'mistral-7b-v0.1']);
  await frame(page);
  const text = await label();
  assert.match(text, /Mistral/);
  assert.match(text, /\(default\)/);
  assert.deepEqual(problems, []);
  await context.close();
});

test('a rope_theta whose float32 frequencies underflow to 0 shows ∞ wavelengths, and pairs no scaling touches as kept', async () => {
  const { page, context, problems } = await ropeConfigPage();
  // ω_i = 1e100^(−2i/128) is below float32's smallest step (1.4e-45) from pair 29 on
  await page.locator(`${TAG} textarea[name=config-json]`).fill(JSON.stringify({ max_position_embeddings: 4096, hidden_size: 4096, num_attention_heads: 32, rope_theta: 1e100 }));
  await readBox(page);
  await page.evaluate((t) => { document.querySelector(t).pair = 63; }, TAG);
  await frame(page);
  const { counts, readout, zeros } = await page.evaluate((t) => {
    const el = document.querySelector(t);
    return { counts: el.result.counts, readout: el.shadowRoot.querySelector('.readout').textContent, zeros: el.result.invFreq.filter((w) => w === 0).length };
  }, TAG);
  assert.ok(zeros > 0, 'some frequencies are float32 0');
  assert.deepEqual(counts, { kept: 64, interpolated: 0, blended: 0 });
  assert.doesNotMatch(readout, /NaN|Infinity/);
  assert.match(readout, /∞/);
  // pair 63's ω is 0 with and without scaling: its ratio is 1 (kept), not 0/0 or ∞
  assert.ok(readout.includes('pair 63: wavelength ∞ without scaling, ∞ with it (ω divided by 1): kept'), readout);
  assert.deepEqual(problems, []);
  await context.close();
});

test('a preset or a pasted config with fewer pairs clamps the pair in the batch that asked for it: reflected, announced with that change\'s source, and never again later', async () => {
  const { page, context, problems } = await ropeConfigPage();
  const r = await page.evaluate(async (t) => {
    const el = document.querySelector(t);
    const { packConfig } = await import('/web/figures/rope-config.js');
    const settle = () => new Promise((res) => requestAnimationFrame(() => requestAnimationFrame(res)));
    const events = [];
    el.addEventListener('posnorm-change', (e) => events.push(`${e.detail.name}=${e.detail.value}/${e.detail.source}`));
    el.pair = 40;
    await settle();
    events.length = 0;
    // gpt-oss-20b's head of 64: 32 pairs
    el.preset = 'gpt-oss-20b';
    const atOnce = el.pair;
    await Promise.resolve();
    const afterBatch = [el.pair, el.getAttribute('pair'), [...events]];
    await settle();
    const rendered = [el.result.pair, el.shadowRoot.querySelector('input[name=pair]').max];
    events.length = 0;
    el.seqLen = 4096;
    await settle();
    const later = [...events];
    // a link's config, read after the batch that set it (unpacked in a promise): 8 pairs (head_dim 16)
    el.preset = 'custom';
    await settle();
    events.length = 0;
    el.setAttribute('config', await packConfig(JSON.stringify({ hidden_size: 64, num_attention_heads: 4, head_dim: 16, rope_theta: 10000 })));
    for (let k = 0; k < 100 && el.result?.rotaryDim !== 16; k++) await settle();
    await settle();
    return { atOnce, afterBatch, rendered, later, linked: [el.pair, el.result.pair, events.filter((e) => e.startsWith('pair'))] };
  }, TAG);
  assert.equal(r.atOnce, 31, 'the pair reads the new range as soon as the preset is set');
  assert.deepEqual(r.afterBatch, [31, '31', ['preset=gpt-oss-20b/property', 'pair=31/property']]);
  assert.deepEqual(r.rendered, [31, '31']);
  assert.deepEqual(r.later, ['seqLen=4096/property'], 'no late event for the pair');
  // the clamp carries the source of the change the config came from (the page's attribute)
  assert.deepEqual(r.linked, [7, 7, ['pair=7/attribute']]);
  assert.deepEqual(problems, []);
  await context.close();
});

test('before the figure starts (off screen), a preset with fewer pairs clamps the pair at once, and says so', async () => {
  const { page, context, problems } = await ropeConfigPage();
  const r = await page.evaluate(async (t) => {
    const spacer = document.createElement('div');
    spacer.style.height = '5000px';
    const el = document.createElement(t);
    document.body.append(spacer, el);
    const settle = () => new Promise((res) => requestAnimationFrame(() => requestAnimationFrame(res)));
    await settle();
    const events = [];
    el.addEventListener('posnorm-change', (e) => events.push(`${e.detail.name}=${e.detail.value}/${e.detail.source}`));
    el.pair = 40;
    el.preset = 'gpt-oss-20b';
    await settle();
    return { started: (el.renderTimes?.length ?? 0) > 0, pair: el.pair, attr: el.getAttribute('pair'), events };
  }, TAG);
  // the pair count comes from the config itself (readRopeConfig), not the kernels
  assert.deepEqual(r, { started: false, pair: 31, attr: '31', events: ['preset=gpt-oss-20b/property', 'pair=31/property'] });
  assert.deepEqual(problems, []);
  await context.close();
});

test('a figure that starts from a link\'s config with fewer pairs clamps its pair silently: values it starts with are not changes', async () => {
  const { page, context, problems } = await ropeConfigPage();
  const r = await page.evaluate(async (t) => {
    const { packConfig } = await import('/web/figures/rope-config.js');
    const settle = () => new Promise((res) => requestAnimationFrame(() => requestAnimationFrame(res)));
    const el = document.createElement(t);
    const events = [];
    el.addEventListener('posnorm-change', (e) => events.push(`${e.detail.name}=${e.detail.value}/${e.detail.source}`));
    el.setAttribute('preset', 'custom');
    el.setAttribute('pair', '40');
    // head_dim 16: 8 pairs, known only once the link is unpacked (a promise)
    el.setAttribute('config', await packConfig(JSON.stringify({ hidden_size: 64, num_attention_heads: 4, head_dim: 16, rope_theta: 10000 })));
    document.body.prepend(el);
    for (let k = 0; k < 100 && el.result?.rotaryDim !== 16; k++) await settle();
    await settle();
    const first = { pair: el.pair, drawn: el.result.pair, events: [...events] };
    // a config the reader accepts but the kernels refuse (a rotary dim past
    // 65536): its error is shown, and the pair keeps its range
    el.setAttribute('config', await packConfig(JSON.stringify({ hidden_size: 64, num_attention_heads: 4, head_dim: 262144, rope_theta: 10000 })));
    for (let k = 0; k < 100 && !el.result?.error; k++) await settle();
    return { ...first, error: Boolean(el.result.error), max: el.shadowRoot.querySelector('input[name=pair]').max };
  }, TAG);
  assert.deepEqual(r, { pair: 7, drawn: 7, events: [], error: true, max: '7' });
  assert.deepEqual(problems, []);
  await context.close();
});

test('a link whose config cannot be unpacked and one that unpacks to text that is not JSON are told apart, and their messages follow the figure\'s language', async () => {
  const { page, context, problems } = await ropeConfigPage();
  const r = await page.evaluate(async (t) => {
    const { packConfig } = await import('/web/figures/rope-config.js');
    const settle = () => new Promise((res) => requestAnimationFrame(() => requestAnimationFrame(res)));
    const readout = (el) => el.shadowRoot.querySelector('.readout')?.textContent ?? '';
    const shown = async (packed, lang = 'en') => {
      const el = document.createElement(t);
      el.lang = lang;
      el.setAttribute('preset', 'custom');
      el.setAttribute('config', packed);
      document.body.prepend(el);
      for (let k = 0; k < 100 && !el.result?.error; k++) await settle();
      return el;
    };
    const cut = await shown('not-deflate');
    const notJson = await shown(await packConfig('{"hidden_size": 64,'));
    const box = (el) => el.shadowRoot.querySelector('textarea[name=config-json]').value;
    const out = { cut: cut.result.error, notJson: notJson.result.error, cutReadout: readout(cut), notJsonBox: box(notJson) };
    // a pasted config that is not JSON: its message follows the language too
    const pasted = await shown('');
    const area = pasted.shadowRoot.querySelector('textarea[name=config-json]');
    area.value = '{"rope_theta": }';
    pasted.shadowRoot.querySelector('button[data-key=rcRead]').click();
    for (let k = 0; k < 100 && !pasted.result?.error; k++) await settle();
    out.pasted = pasted.result.error;
    // the page's reader switches the figure to Korean: the message follows
    cut.lang = 'ko';
    notJson.lang = 'ko';
    pasted.lang = 'ko';
    for (let k = 0; k < 100 && (cut.result.error === out.cut || notJson.result.error === out.notJson || pasted.result.error === out.pasted); k++) await settle();
    out.cutKo = cut.result.error;
    out.notJsonKo = notJson.result.error;
    out.pastedKo = pasted.result.error;
    return out;
  }, TAG);
  assert.equal(r.cut, 'the config in the link cannot be unpacked');
  assert.match(r.cutReadout, /This config cannot be read: the config in the link cannot be unpacked/);
  assert.match(r.notJson, /^not valid JSON \(.+\)$/);
  assert.equal(r.notJsonBox, '{"hidden_size": 64,', 'the text the message is about is in the box');
  assert.match(r.pasted, /^not valid JSON \(.+\)$/);
  assert.match(r.pastedKo, /^올바른 JSON이 아닙니다\(.+\)$/);
  assert.equal(r.cutKo, '링크의 설정을 풀 수 없습니다');
  assert.match(r.notJsonKo, /^올바른 JSON이 아닙니다\(.+\)$/);
  assert.deepEqual(problems, []);
  await context.close();
});

test('a config file over 1 MiB chosen while a preset is shown is refused where the reader sees it, in the figure\'s language', async () => {
  const { page, context, problems } = await ropeConfigPage();
  const input = page.locator(`${TAG} input[type=file]`);
  await input.setInputFiles({ name: 'config.json', mimeType: 'application/json', buffer: Buffer.alloc(2 ** 20 + 1, 0x20) });
  await page.waitForFunction((t) => document.querySelector(t).result?.error, TAG, { timeout: 5000 });
  const en = await page.evaluate((t) => { const el = document.querySelector(t); return { preset: el.preset, error: el.result.error }; }, TAG);
  assert.deepEqual(en, { preset: 'custom', error: 'the file is larger than 1 MiB' });
  await page.evaluate((t) => { document.querySelector(t).lang = 'ko'; }, TAG);
  await page.waitForFunction((t) => document.querySelector(t).result?.error !== 'the file is larger than 1 MiB', TAG, { timeout: 5000 });
  const ko = await page.evaluate((t) => document.querySelector(t).result.error, TAG);
  assert.ok(ko && /1 MiB/.test(ko) && ko !== en.error, ko);
  assert.deepEqual(problems, []);
  await context.close();
});

test('a config with thousands of keys its scaling does not read, from a link (within the 60 000 characters) or a file (within 1 MiB), leaves the page responsive: no main-thread task of a second', async () => {
  const { page, context, problems } = await ropeConfigPage();
  /** A linear config whose rope_scaling has `n` keys linear does not read: one warning each. */
  const config = (n) => {
    const scaling = { rope_type: 'linear', factor: 2 };
    for (let k = 0; k < n; k++) scaling[`k${k}`] = 0;
    return JSON.stringify({ head_dim: 128, rope_theta: 10000, rope_scaling: scaling });
  };
  const watch = () => page.evaluate(() => {
    window.longTasks = [];
    window.longObserver?.disconnect();
    window.longObserver = new PerformanceObserver((l) => { for (const e of l.getEntries()) window.longTasks.push(Math.round(e.duration)); });
    window.longObserver.observe({ type: 'longtask' });
  });
  const settled = async (n) => {
    await page.waitForFunction(([t, k]) => document.querySelector(t).result?.warnings?.length === k, [TAG, n], { timeout: 30000 });
    for (let k = 0; k < 5; k++) await frame(page);
    return page.evaluate(() => Math.max(0, ...window.longTasks));
  };
  // from a link: 19 000 keys pack to about 58 500 characters, which the config control takes
  const text = config(19000);
  const packed = await page.evaluate(async (s) => (await import('/web/figures/rope-config.js')).packConfig(s), text);
  assert.ok(packed.length <= 60000, `the link's config is within the control's 60 000 characters (${packed.length})`);
  await watch();
  await page.evaluate(([t, c]) => { const el = document.querySelector(t); el.preset = 'custom'; el.config = c; }, [TAG, packed]);
  const fromLink = await settled(19000);
  // the readout lists the first 50 and counts the rest; result.warnings keeps all of them
  const lines = await page.evaluate((t) => [...(document.querySelector(t).shadowRoot ?? document.querySelector(t)).querySelectorAll('li.rc-warn')].map((li) => li.textContent), TAG);
  assert.equal(lines.length, 51);
  assert.ok(lines[0].startsWith('rope_scaling.k0') && lines[49].startsWith('rope_scaling.k49'), `${lines[0]} … ${lines[49]}`);
  assert.ok(/18950/.test(lines[50]), lines[50]);
  // from a file: 90 000 keys in 979 000 bytes, under the 1 MiB the file input takes
  const big = config(90000);
  assert.ok(big.length < 2 ** 20);
  await watch();
  await page.locator(`${TAG} input[type=file]`).setInputFiles({ name: 'config.json', mimeType: 'application/json', buffer: Buffer.from(big) });
  const fromFile = await settled(90000);
  // each warning is a line of the readout (a <li> with a <code>): laying out 19 007 of them took
  // one task of 1.1–1.2 s on the machine of docs/benchmarks.md (Layout 0.77 s, the render 0.19 s),
  // and 90 007 a task of 3.3–3.8 s
  assert.ok(fromLink < 1000 && fromFile < 1000, `longest main-thread task: ${fromLink} ms for the link's config, ${fromFile} ms for the file`);
  assert.deepEqual(problems, []);
  await context.close();
});
