// Embedding: the blog-style page, the iframe page, links that restore a
// figure's controls, PNG and CSV downloads, and the lang attribute.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, test } from 'node:test';
import { FIGURES } from '../web/figures/registry.js';
import { open, useBrowser, startFigure } from './browser/harness.mjs';
import { layerNorm } from './reference/norms.mjs';
import { frequency, peValue } from './reference/pe.mjs';

const env = useBrowser(before, after);

const rendered = (page, tag) => page.waitForFunction((t) => document.querySelector(t)?.renderTimes?.length > 0, tag, { timeout: 10000 });

test('embed.html: two figures, one script tag and one element each, sized by the text column', async () => {
  for (const width of [1280, 360]) {
    const { page, problems, context } = await open(env.browser, `${env.server.url}/web/embed.html`, { width });
    for (const tag of ['posnorm-heatmap', 'posnorm-waveform']) {
      await startFigure(page, tag);
      const [fig, column] = await page.evaluate((t) => {
        const el = document.querySelector(t);
        const a = document.querySelector('article');
        const cs = getComputedStyle(a);
        return [el.getBoundingClientRect().width, a.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight)];
      }, tag);
      assert.ok(Math.abs(fig - column) < 1, `${tag} ${fig}px fills the ${column}px column`);
      assert.equal(await page.evaluate((t) => document.querySelector(t).shadowRoot.querySelector('button[data-action=copyLink]').textContent, tag), 'Copy link', 'lang="en" labels');
    }
    assert.equal(await page.evaluate(() => document.querySelector('posnorm-heatmap').dModel), 48);
    assert.deepEqual(problems, []);
    await context.close();
  }
});

test('figure.html in an iframe: parameters from the URL, width of the iframe, height posted to the host', async () => {
  const { page, problems, context } = await open(env.browser, `${env.server.url}/web/embed.html`);
  await page.setContent(`<!doctype html><html><body style="margin:0">
    <iframe id="f" title="figure" style="width:420px;height:900px;border:0"
      src="${env.server.url}/web/figure.html?fig=heatmap&d-model=128&seq-len=50&base=500&layout=concat&lang=en"></iframe>
    <script>window.heights = []; addEventListener('message', (e) => { if (e.data?.type === 'posnorm-figure-height') heights.push(e.data.height); });</script>
    </body></html>`);
  const frame = page.frameLocator('#f');
  await frame.locator('posnorm-heatmap').waitFor();
  const f = page.frames().find((x) => x.url().includes('figure.html'));
  await f.waitForFunction(() => document.querySelector('posnorm-heatmap')?.renderTimes?.length > 0);
  const state = await f.evaluate(() => {
    const el = document.querySelector('posnorm-heatmap');
    return { d: el.dModel, s: el.seqLen, b: el.base, l: el.layout, w: el.getBoundingClientRect().width, link: el.shareUrl() };
  });
  assert.deepEqual([state.d, state.s, state.b, state.l], [128, 50, 500, 'concat']);
  assert.ok(Math.abs(state.w - (420 - 16)) < 1, `figure is ${state.w}px wide in a 420px iframe`);
  assert.match(state.link, /figure\.html\?fig=heatmap&d-model=128&seq-len=50&base=500&layout=concat/);
  // the height posted is the content's: the figure's bottom and figure.css's 8 px of padding below it
  // (not the frame's viewport, 900 px here); polled, since a readout can still grow the figure
  let posted = null, content = null;
  for (let k = 0; k < 50; k++) {
    posted = await page.evaluate(() => window.heights.at(-1) ?? null);
    content = await f.evaluate(() => document.querySelector('posnorm-heatmap').getBoundingClientRect().bottom + 8);
    if (posted !== null && Math.abs(posted - content) < 1) break;
    await page.waitForTimeout(100);
  }
  assert.ok(posted !== null && Math.abs(posted - content) < 1 && content > 300 && content < 850, `posted ${posted}, content ${content}`);
  const bad = await open(env.browser, `${env.server.url}/web/figure.html?fig=nope`);
  // the names come from the registry, which figure.html loads after its own load event
  await bad.page.waitForSelector('.error');
  assert.match(await bad.page.textContent('body'), /Unknown figure "nope"/);
  await bad.context.close();
  assert.deepEqual(problems, []);
  await context.close();
});

test('figure.html shows each figure alone', async () => {
  for (const { name, tag } of FIGURES) {
    const { page, problems, context } = await open(env.browser, `${env.server.url}/web/figure.html?fig=${name}&lang=en`, { width: 400, height: 800 });
    await rendered(page, tag);
    assert.ok((await page.evaluate(() => document.documentElement.scrollWidth)) <= 400, `${name} fits a 400 px iframe`);
    assert.deepEqual(problems, [], name);
    await context.close();
  }
});

test('"Copy link" copies a URL that restores every control of the figure', async () => {
  const { page, problems, context } = await open(env.browser, `${env.server.url}/web/?lang=en`);
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: env.server.url });
  const cases = {
    'posnorm-heatmap': { dModel: 100, seqLen: 77, base: 2000, layout: 'concat' },
    'posnorm-waveform': { dModel: 256, i: 40, pos: 63, base: 500 },
    'posnorm-ln-simulator': { features: 1000, mu: -4.5, sigma: 0.7, gamma: 2.25, beta: -1.5, eps: 0.001, seed: 9 },
  };
  for (const [tag, values] of Object.entries(cases)) {
    await startFigure(page, tag);
    await page.evaluate(([t, v]) => Object.assign(document.querySelector(t), v), [tag, values]);
    await page.locator(`${tag} button[data-action=copyLink]`).click();
    await page.waitForFunction((t) => document.querySelector(t).shadowRoot.querySelector('.status').textContent.length > 0, tag);
    const url = await page.evaluate(() => navigator.clipboard.readText());
    assert.equal(url, page.url(), 'the page URL records the controls too');
    const other = await open(env.browser, url);
    await startFigure(other.page, tag);
    const restored = await other.page.evaluate(([t, keys]) => Object.fromEntries(keys.map((k) => [k, document.querySelector(t)[k]])), [tag, Object.keys(values)]);
    assert.deepEqual(restored, values, `${tag} restored from ${url}`);
    assert.deepEqual(other.problems, []);
    await other.context.close();
  }
  assert.deepEqual(problems, []);
  await context.close();
});

/**
 * In the page: the PNG `bytes` decoded, against the canvases of figure `tag`
 * laid side by side from x = 0. For each canvas, over its pixels that are
 * opaque (the ones a background cannot change): how many were compared and
 * how many differ by more than 1 in a channel.
 */
function pngAgainstCanvases(page, tag, bytes) {
  return page.evaluate(async ({ tag, b64 }) => {
    const data = Uint8Array.from(atob(b64), (ch) => ch.charCodeAt(0));
    const bitmap = await createImageBitmap(new Blob([data], { type: 'image/png' }));
    const pixels = (source, w, h) => {
      const c = new OffscreenCanvas(w, h);
      const ctx = c.getContext('2d');
      ctx.drawImage(source, 0, 0);
      return ctx.getImageData(0, 0, w, h).data;
    };
    const whole = pixels(bitmap, bitmap.width, bitmap.height);
    let x0 = 0;
    return [...document.querySelector(tag).shadowRoot.querySelectorAll('canvas')].map((c) => {
      const own = pixels(c, c.width, c.height);
      let compared = 0, differ = 0;
      for (let y = 0; y < c.height; y++) {
        for (let x = 0; x < c.width; x++) {
          const i = 4 * (y * c.width + x), j = 4 * (y * bitmap.width + x0 + x);
          if (own[i + 3] !== 255) continue;
          compared++;
          if ([0, 1, 2, 3].some((k) => Math.abs(own[i + k] - whole[j + k]) > 1)) differ++;
        }
      }
      x0 += c.width;
      return { compared, differ };
    });
  }, { tag, b64: Buffer.from(bytes).toString('base64') });
}

test('"Download PNG" saves the canvas at devicePixelRatio; "Download CSV" the numbers behind it', async () => {
  const { page, problems, context } = await open(env.browser, `${env.server.url}/web/?lang=en`, { deviceScaleFactor: 2 });
  const download = async (tag, action) => {
    const [d] = await Promise.all([page.waitForEvent('download'), page.locator(`${tag} button[data-action=${action}]`).click()]);
    return { name: d.suggestedFilename(), data: await readFile(await d.path()) };
  };
  // heatmap
  await startFigure(page, 'posnorm-heatmap');
  const png = await download('posnorm-heatmap', 'downloadPng');
  assert.match(png.name, /^posnorm-heatmap_d-model-64_seq-len-30_base-10000_layout-interleaved\.png$/);
  assert.deepEqual([...png.data.subarray(0, 8)], [137, 80, 78, 71, 13, 10, 26, 10], 'PNG signature');
  const [cw, ch] = await page.evaluate(() => { const c = document.querySelector('posnorm-heatmap').shadowRoot.querySelector('canvas'); return [c.width, c.height, c.clientWidth]; });
  assert.deepEqual([png.data.readUInt32BE(16), png.data.readUInt32BE(20)], [cw, ch]);
  const heatPixels = await pngAgainstCanvases(page, 'posnorm-heatmap', png.data);
  assert.deepEqual(heatPixels.map((p) => p.differ), [0], `the PNG holds the canvas's pixels: ${JSON.stringify(heatPixels)}`);
  assert.ok(heatPixels[0].compared > 0.5 * cw * ch, `the heatmap's opaque pixels were compared: ${JSON.stringify(heatPixels)}`);
  assert.equal(cw, 2 * (await page.evaluate(() => document.querySelector('posnorm-heatmap').shadowRoot.querySelector('canvas').clientWidth)));
  const csv = (await download('posnorm-heatmap', 'downloadCsv')).data.toString('utf8').trim().split('\n').map((l) => l.split(','));
  assert.equal(csv.length, 31);
  assert.equal(csv[0].length, 65);
  for (const [pos, dim] of [[0, 0], [7, 11], [29, 63], [13, 2]]) {
    const v = Number(csv[pos + 1][dim + 1]);
    assert.ok(Math.abs(v - peValue(pos, dim, 64)) <= 2e-7, `csv PE(${pos}, ${dim})`);
  }
  // waveform
  await startFigure(page, 'posnorm-waveform');
  const wave = (await download('posnorm-waveform', 'downloadCsv')).data.toString('utf8').trim().split('\n');
  assert.equal(wave[0], 'pos,sin_pair0,cos_pair0,sin_pair4,cos_pair4');
  for (const line of wave.slice(1).filter((_, k) => k % 97 === 0)) {
    const [p, s0, c0, s4, c4] = line.split(',').map(Number);
    const w = frequency(4, 64);
    assert.ok(Math.abs(s0 - Math.sin(p)) < 2e-7 && Math.abs(c0 - Math.cos(p)) < 2e-7);
    assert.ok(Math.abs(s4 - Math.sin(p * w)) < 2e-7 && Math.abs(c4 - Math.cos(p * w)) < 2e-7);
  }
  // LayerNorm simulator: two panels in one PNG; CSV of x and y
  await startFigure(page, 'posnorm-ln-simulator');
  const lnPng = await download('posnorm-ln-simulator', 'downloadPng');
  const widths = await page.evaluate(() => [...document.querySelector('posnorm-ln-simulator').shadowRoot.querySelectorAll('canvas')].map((c) => c.width));
  assert.equal(lnPng.data.readUInt32BE(16), widths[0] + widths[1]);
  // side by side: each panel's pixels where it stands in the PNG (a join that drew both at x = 0 kept the size)
  const lnPixels = await pngAgainstCanvases(page, 'posnorm-ln-simulator', lnPng.data);
  assert.deepEqual(lnPixels.map((p) => p.differ), [0, 0], `the PNG holds both panels: ${JSON.stringify(lnPixels)}`);
  assert.ok(lnPixels.every((p) => p.compared > 1000), `each panel's opaque pixels were compared: ${JSON.stringify(lnPixels)}`);
  const ln = (await download('posnorm-ln-simulator', 'downloadCsv')).data.toString('utf8').trim().split('\n').slice(1).map((l) => l.split(',').map(Number));
  assert.equal(ln.length, 256);
  const mean = (a) => a.reduce((s, t) => s + t, 0) / a.length;
  const xs = ln.map((r) => r[1]), ys = ln.map((r) => r[2]);
  const want = layerNorm(xs, xs.length, { eps: Math.fround(1e-5) }).y;
  ys.forEach((y, j) => assert.ok(Math.abs(y - want[j]) < 2e-6, 'y = LayerNorm(x) with γ 1, β 0'));
  assert.ok(Math.abs(mean(ys)) < 1e-6);
  assert.deepEqual(problems, []);
  await context.close();
});
