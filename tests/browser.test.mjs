// Browser tests of the demo page in real headless Chromium: loading, paint,
// sliders, readouts against float64, keyboard, touch, attributes and
// properties, language, no-WebAssembly fallback. Screenshots at 1280 and
// 360 px in light and dark go to test-artifacts/ (not committed).
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { FIGURES as REGISTRY } from '../web/figures/registry.js';
import { launch, open, pixels, serve, startFigure } from './browser/harness.mjs';
import { frequency, peValue } from './reference/pe.mjs';

const ARTIFACTS = fileURLToPath(new URL('../test-artifacts/', import.meta.url));
const FIGURES = REGISTRY.map((f) => f.tag);
let browser, server;

before(async () => {
  await mkdir(ARTIFACTS, { recursive: true });
  server = await serve();
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await server?.close();
});

/** Scrolls every figure into view and waits for its first frame. */
async function ready(page, tags = FIGURES) {
  for (const tag of tags) {
    await startFigure(page, tag);
  }
}

/** Waits until the figure has rendered again after `action`. */
async function afterRender(page, tag, action) {
  const n = await page.evaluate((t) => document.querySelector(t).renderTimes.length, tag);
  await action();
  await page.waitForFunction(([t, k]) => document.querySelector(t).renderTimes.length > k, [tag, n], { timeout: 5000 });
  // let any frame still requested by later events render too
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

const readoutText = (page, tag) => page.evaluate((t) => [...document.querySelector(t).shadowRoot.querySelectorAll('.readout')].map((e) => e.textContent).join(' | '), tag);

test('the page loads with no console errors or failed requests, at 1280 and 360 px, light and dark', async () => {
  for (const [width, colorScheme] of [[1280, 'light'], [1280, 'dark'], [360, 'light'], [360, 'dark']]) {
    const { page, problems, context } = await open(browser, `${server.url}/`, { width, colorScheme, deviceScaleFactor: width === 360 ? 2 : 1 });
    await ready(page);
    for (const tag of FIGURES) {
      const { painted, total } = await pixels(page, tag);
      assert.ok(painted > total * 0.02, `${tag} paints (${painted}/${total} pixels)`);
    }
    const [scrollWidth, innerWidth] = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
    assert.ok(scrollWidth <= innerWidth, `no horizontal scrolling at ${width}px (${scrollWidth} > ${innerWidth})`);
    if (width === 360) {
      const dpr = await page.evaluate(() => {
        const c = document.querySelector('posnorm-heatmap').shadowRoot.querySelector('canvas');
        return c.width / c.clientWidth;
      });
      assert.equal(dpr, 2, 'canvas drawn at devicePixelRatio');
    }
    await page.screenshot({ path: `${ARTIFACTS}page-${width}-${colorScheme}.png`, fullPage: true });
    assert.deepEqual(problems, []);
    await context.close();
  }
});

test('the minified demo site (what make demo serves) runs every figure without errors', async () => {
  const site = await serve({ dir: fileURLToPath(new URL('../build/site/', import.meta.url)) });
  try {
    const { page, problems, context } = await open(browser, 'about:blank', { width: 1280 });
    const fetched = [];
    page.on('request', (r) => fetched.push(new URL(r.url()).pathname));
    await page.goto(`${site.url}/`);
    // the first load, before any scrolling: under the 182 KiB budget (docs/decisions.md, "Page budget"), bytes as decoded
    await page.waitForFunction(() => document.querySelector('posnorm-order')?.renderTimes?.length > 0);
    await page.waitForLoadState('networkidle');
    const firstLoad = await page.evaluate(() => [...performance.getEntriesByType('navigation'), ...performance.getEntriesByType('resource')]
      .reduce((n, e) => n + e.decodedBodySize, 0));
    assert.ok(firstLoad > 100 * 1024 && firstLoad < 182 * 1024, `first load ${firstLoad} bytes`);
    assert.equal(await page.evaluate((t) => customElements.get(t), FIGURES.at(-1)), undefined, 'figures further down load later');
    await ready(page);
    for (const tag of FIGURES) assert.ok((await pixels(page, tag)).painted > 0, `${tag} paints`);
    // the Korean page does not fetch the English labels or the page's strings (the size budget counts on it)
    assert.deepEqual(fetched.filter((f) => /chunks\/(en|page-i18n)-/.test(f)), []);
    await page.locator('button[data-lang=en]').click();
    await page.waitForFunction(() => /embedding size/.test(document.querySelector('posnorm-heatmap').shadowRoot.querySelector('label').textContent));
    assert.equal(fetched.filter((f) => /chunks\/(en|page-i18n)-/.test(f)).length, 2, 'English fetches both');
    assert.match(await page.textContent('h1'), /Positional Encoding/);
    assert.deepEqual(problems, []);
    await context.close();
  } finally {
    await site.close();
  }
});

test('heatmap: cursor readout equals float64 sin/cos, by keyboard, mouse and touch', async () => {
  const { page, problems, context } = await open(browser, `${server.url}/web/`, { hasTouch: true });
  await ready(page, ['posnorm-heatmap']);
  const tag = 'posnorm-heatmap';
  const canvas = page.locator(`${tag} canvas`);
  await canvas.focus();
  await afterRender(page, tag, async () => {
    for (let k = 0; k < 7; k++) await page.keyboard.press('ArrowDown');
    for (let k = 0; k < 11; k++) await page.keyboard.press('ArrowRight');
  });
  const check = async (layout) => {
    const r = await page.evaluate((t) => document.querySelector(t).readout, tag);
    const { pos, dim } = r;
    const d = 64;
    const half = d / 2;
    const i = layout === 'interleaved' ? dim >> 1 : dim % half;
    const isCos = layout === 'interleaved' ? dim % 2 === 1 : dim >= half;
    const ref = peValue(pos, dim, d, { layout });
    const text = await readoutText(page, tag);
    const shown = Number(text.match(/= (-?\d\.\d{7})/)[1]);
    assert.ok(Math.abs(shown - ref) <= 6e-8, `${layout} PE(${pos}, ${dim}) shown ${shown}, float64 ${ref}`);
    assert.ok(Math.abs(r.value - ref) <= 2e-7);
    assert.match(text, new RegExp(isCos ? 'cos' : 'sin'));
    const lambda = (2 * Math.PI) / frequency(i, d);
    assert.ok(Math.abs(r.wavelength - lambda) <= 1e-9 * lambda);
    return { pos, dim };
  };
  assert.deepEqual(await check('interleaved'), { pos: 7, dim: 11 });
  // the layout select changes the picture and the function at the cursor
  const before1 = await pixels(page, tag);
  await afterRender(page, tag, () => page.locator(`${tag} select`).selectOption('concat'));
  assert.notEqual((await pixels(page, tag)).hash, before1.hash);
  await check('concat');
  await afterRender(page, tag, () => page.locator(`${tag} select`).selectOption('interleaved'));
  /** Page coordinates of the centre of cell (pos, dim) of the 30 × 64 matrix. */
  const cell = (pos, dim) => page.evaluate(([t, p, d]) => {
    const el = document.querySelector(t);
    const c = el.shadowRoot.querySelector('canvas').getBoundingClientRect();
    const g = el._geom;
    return { x: c.left + g.x0 + ((d + 0.5) / 64) * g.w, y: c.top + g.y0 + ((p + 0.5) / 30) * g.h };
  }, [tag, pos, dim]);
  const at = await cell(20, 40);
  await afterRender(page, tag, () => page.mouse.click(at.x, at.y));
  assert.deepEqual(await check('interleaved'), { pos: 20, dim: 40 });
  const tapAt = await cell(3, 5);
  await afterRender(page, tag, () => page.touchscreen.tap(tapAt.x, tapAt.y));
  assert.deepEqual(await check('interleaved'), { pos: 3, dim: 5 });
  assert.deepEqual(problems, []);
  await context.close();
});

test('every slider changes the picture and the readouts, by keyboard', async () => {
  const { page, problems, context } = await open(browser, `${server.url}/web/`);
  await ready(page);
  // every range input of every figure
  const sliders = {};
  for (const tag of FIGURES) {
    sliders[tag] = await page.evaluate((t) => [...document.querySelector(t).shadowRoot.querySelectorAll('input[type=range]')].map((i) => i.name), tag);
    assert.ok(sliders[tag].length >= 2 || tag === 'posnorm-order', `${tag} has sliders`); // order: tokens and a select
  }
  for (const [tag, names] of Object.entries(sliders)) {
    for (const name of names) {
      const input = page.locator(`${tag} input[name=${name}]`);
      await input.scrollIntoViewIfNeeded();
      await input.focus();
      const steps = () => page.evaluate((t) => document.querySelector(t).shadowRoot.querySelector('.steps')?.textContent ?? '', tag);
      const canvases = await page.evaluate((t) => document.querySelector(t).shadowRoot.querySelectorAll('canvas').length, tag);
      const allPixels = async () => Promise.all(Array.from({ length: canvases }, (_, k) => pixels(page, tag, k)));
      const before = { px: await allPixels(), text: await readoutText(page, tag), steps: await steps(), value: await page.evaluate(([t, n]) => document.querySelector(t)[n], [tag, name]) };
      // a slider at its maximum (e.g. the precision figure's 2^24) moves left
      const atMax = await input.evaluate((el) => Number(el.value) >= Number(el.max));
      await afterRender(page, tag, async () => {
        for (let k = 0; k < 5; k++) await page.keyboard.press(atMax ? 'ArrowLeft' : 'ArrowRight');
      });
      const value = await page.evaluate(([t, n]) => document.querySelector(t)[n], [tag, name]);
      assert.notEqual(value, before.value, `${tag}.${name} changed by keyboard`);
      const attr = await page.evaluate(([t, n]) => {
        const el = document.querySelector(t);
        const c = el.constructor.controls.find((k) => k.prop === n);
        return el.getAttribute(c.attr);
      }, [tag, name]);
      assert.equal(attr, String(value), `${tag}.${name} reflected to its attribute`);
      const valuetext = await input.getAttribute('aria-valuetext');
      assert.ok(valuetext && valuetext.length > 0, 'aria-valuetext set');
      const label = await page.evaluate(([t, n]) => {
        const root = document.querySelector(t).shadowRoot;
        return root.querySelector(`label[for="${root.querySelector(`input[name=${n}]`).id}"]`)?.textContent;
      }, [tag, name]);
      assert.ok(label && label.length > 0, `${tag}.${name} has a visible label`);
      // each canvas against its own earlier pixels; readouts and the steps list against their own earlier text
      const changedPixels = (await allPixels()).some((p, k) => p.hash !== before.px[k].hash);
      const changedText = (await readoutText(page, tag)) !== before.text || (await steps()) !== before.steps;
      if (!changedPixels || !changedText) console.log(tag, name, changedPixels, changedText, await readoutText(page, tag));
      assert.ok(changedPixels, `${tag}.${name} changed the picture`);
      assert.ok(changedText, `${tag}.${name} changed the readouts`);
    }
  }
  assert.deepEqual(problems, []);
  await context.close();
});

test('waveform readouts equal float64 sin/cos and the wavelength', async () => {
  const { page, problems, context } = await open(browser, `${server.url}/web/`);
  await ready(page, ['posnorm-waveform']);
  const tag = 'posnorm-waveform';
  for (const [i, pos, dModel, base] of [[4, 10, 64, 10000], [13, 77, 128, 500], [0, 3, 16, 100000]]) {
    await afterRender(page, tag, () => page.evaluate(([t, a]) => {
      const el = document.querySelector(t);
      el.setAttribute('d-model', String(a[2]));
      el.base = a[3];
      el.i = a[0];
      el.pos = a[1];
      el.invalidate();
    }, [tag, [i, pos, dModel, base]]));
    const text = await readoutText(page, tag);
    const nums = [...text.matchAll(/= (-?\d+\.\d{7})/g)].map((m) => Number(m[1]));
    const w = frequency(i, dModel, base);
    const expected = [Math.sin(pos), Math.cos(pos), Math.sin(pos * w), Math.cos(pos * w)];
    assert.equal(nums.length, 4, text);
    for (let k = 0; k < 4; k++) assert.ok(Math.abs(nums[k] - expected[k]) <= 6e-8, `${text}: ${nums[k]} vs ${expected[k]}`);
    const lambda = Number(text.split(" | ")[0].match(/\) = ([\d.e+]+)$/)[1]);
    assert.ok(Math.abs(lambda - 2 * Math.PI / w) <= 1e-5 * (2 * Math.PI / w), `wavelength ${lambda}`);
  }
  // the i slider's range follows d_model: i < d_model / 2
  await afterRender(page, tag, () => page.evaluate((t) => {
    const el = document.querySelector(t);
    el.dModel = 128;
    el.i = 20;
    el.dModel = 8;
  }, tag));
  assert.equal(await page.evaluate((t) => document.querySelector(t).i, tag), 3);
  assert.equal(await page.locator(`${tag} input[name=i]`).getAttribute('max'), '3');
  assert.deepEqual(problems, []);
  await context.close();
});

test('LayerNorm simulator: output mean equals β and std equals γ·σ/√(σ²+ε)', async () => {
  const { page, problems, context } = await open(browser, `${server.url}/web/`);
  await ready(page, ['posnorm-ln-simulator']);
  const tag = 'posnorm-ln-simulator';
  for (const [features, mu, sigma, gamma, beta, eps] of [[256, 3, 2, 1, 0, 1e-5], [4096, -7.5, 0.3, 2.5, -1.25, 1e-3], [8, 10, 10, 0.5, 3, 1e-8]]) {
    await afterRender(page, tag, () => page.evaluate(([t, v]) => {
      const el = document.querySelector(t);
      [el.features, el.mu, el.sigma, el.gamma, el.beta, el.eps] = v;
      el.invalidate();
    }, [tag, [features, mu, sigma, gamma, beta, eps]]));
    const stats = await page.evaluate((t) => document.querySelector(t).stats, tag);
    const text = await readoutText(page, tag);
    const [, , outMean, outStd] = [...text.matchAll(/(-?\d+\.\d{4})/g)].map((m) => Number(m[1]));
    // independent: the input's population variance in float64 from the input
    // values themselves (the figure's CSV), not from the kernel's statistics
    const xs = (await page.evaluate((t) => document.querySelector(t).toCsv(), tag)).trim().split('\n').slice(1).map((l) => Number(l.split(',')[1]));
    assert.equal(xs.length, features);
    const xm = xs.reduce((a, b) => a + b, 0) / features;
    const v = xs.reduce((a, b) => a + (b - xm) ** 2, 0) / features;
    const expectedStd = gamma * Math.sqrt(v / (v + eps));
    assert.ok(Math.abs(outMean - beta) <= 1e-4, `mean ${outMean} vs β ${beta}`);
    assert.ok(Math.abs(outStd - expectedStd) <= 1e-4 * Math.max(1, expectedStd), `std ${outStd} vs ${expectedStd}`);
    assert.ok(Math.abs(stats.outputMean - beta) <= 2e-6 * Math.max(1, Math.abs(beta)) + 1e-6);
    assert.ok(Math.abs(stats.outputStd - expectedStd) <= 2e-5 * Math.max(1, expectedStd));
  }
  // resample draws new numbers
  const before = await readoutText(page, tag);
  await afterRender(page, tag, () => page.locator(`${tag} button[data-key=resample]`).click());
  assert.notEqual(await readoutText(page, tag), before);
  assert.deepEqual(problems, []);
  await context.close();
});

test('attributes and properties stay in sync and changes fire an event; English labels', async () => {
  const { page, problems, context } = await open(browser, `${server.url}/web/?lang=en`);
  await ready(page, ['posnorm-heatmap']);
  const r = await page.evaluate(async () => {
    const el = document.querySelector('posnorm-heatmap');
    const events = [];
    const tick = () => new Promise((res) => setTimeout(res, 0));
    el.addEventListener('posnorm-change', (e) => events.push(e.detail));
    el.setAttribute('d-model', '128');
    const prop = el.dModel;
    await tick();
    el.seqLen = 50;
    await tick();
    const attr = el.getAttribute('seq-len');
    el.dModel = 5000; // clamped to the range
    await tick();
    const slider = el.shadowRoot.querySelector('input[name=dModel]').value;
    const label = el.shadowRoot.querySelector('label').textContent;
    return { prop, attr, clamped: el.dModel, slider, events, label };
  });
  assert.equal(r.prop, 128);
  assert.equal(r.attr, '50');
  assert.equal(r.clamped, 1024);
  assert.equal(r.slider, '1024');
  assert.deepEqual(r.events.map((e) => [e.name, e.value]), [['dModel', 128], ['seqLen', 50], ['dModel', 1024]]);
  assert.match(r.label, /embedding size/);
  // switching to Korean relabels the figures
  await page.locator('button[data-lang=ko]').click();
  assert.match(await page.evaluate(() => document.querySelector('posnorm-heatmap').shadowRoot.querySelector('label').textContent), /임베딩 차원/);
  assert.deepEqual(problems, []);
  await context.close();
});

test('the page\'s English strings that failed to load once (a network hiccup) load at the next switch to English', async () => {
  let requests = 0;
  const { page, problems, context } = await open(browser, `${server.url}/web/`, {
    setup: (ctx) => ctx.route('**/web/page-i18n.js', (route) => (requests++ === 0 ? route.abort('connectionreset') : route.continue())),
  });
  const heading = () => page.evaluate(() => document.querySelector('h1').textContent);
  const asked = async (n) => {
    for (let i = 0; i < 50 && requests < n; i++) await new Promise((r) => setTimeout(r, 100));
    await new Promise((r) => setTimeout(r, 300)); // the answer (or its failure) arrives
  };
  await page.locator('button[data-lang=en]').click();
  await asked(1);
  assert.deepEqual([requests, await heading()], [1, '위치 인코딩과 층 정규화'], 'the first load failed');
  await page.locator('button[data-lang=ko]').click();
  await page.locator('button[data-lang=en]').click();
  await asked(2);
  // (the heading is written once the answer is in: waited for, up to 10 s, then checked)
  await page.waitForFunction(() => document.querySelector('h1').textContent.startsWith('Positional'), null, { timeout: 10000 }).catch(() => {});
  assert.deepEqual([requests, await heading()], [2, 'Positional Encoding & Layer Normalization'], 'the next switch loads them');
  // Chromium's own line for the failed request, and nothing else (no unhandled rejection)
  assert.deepEqual(problems.filter((m) => !/ERR_CONNECTION_RESET/.test(m)), []);
  await context.close();
});

test('figures taken out of the page and put back free and remake their wasm buffers', async () => {
  const { page, problems, context } = await open(browser, `${server.url}/web/`);
  await ready(page);
  const r = await page.evaluate(async () => {
    const frame = () => new Promise((res) => requestAnimationFrame(() => requestAnimationFrame(res)));
    const figs = [...document.querySelectorAll('figure.article-figure > :first-child')];
    const pn = figs[0].pn;
    const cycle = async () => {
      for (const el of figs) {
        const parent = el.parentNode, next = el.nextSibling;
        el.remove();
        parent.insertBefore(el, next);
        el.invalidate();
      }
      await frame();
    };
    // a PE error readout keeps its two buffers while its figure is on the
    // page, and allocates them at its first run (draw/pe-error.js): sample
    // once every started readout has its numbers
    const readoutsDone = async () => {
      for (let t = 0; t < 500 && figs.some((el) => el.peErrors === null); t++) await new Promise((res) => setTimeout(res, 20));
    };
    await cycle();
    await readoutsDone();
    const before = pn.heapStats();
    for (let k = 0; k < 20; k++) await cycle();
    await readoutsDone();
    const after = pn.heapStats();
    // all of them off the page at once: they hold nothing (a figure that
    // kept its buffers while away reused them when put back, so the counts
    // above stayed equal with that leak)
    const places = figs.map((el) => [el, el.parentNode, el.nextSibling]);
    for (const el of figs) el.remove();
    await frame();
    const away = pn.heapStats().allocations;
    for (const [el, parent, next] of places) parent.insertBefore(el, next);
    await frame();
    return { before, after, away, rendered: figs.every((el) => el.renderTimes.length > 0) };
  });
  assert.equal(r.away, 0, 'off the page, the figures hold no wasm memory');
  // live allocations, not the memory's size (which never shrinks, and does not grow for a leak that fits in it)
  assert.deepEqual([r.after.allocations, r.after.bytes], [r.before.allocations, r.before.bytes], 'no allocation outlives 20 remove/insert cycles');
  assert.ok(r.before.allocations > 0, 'the figures hold their buffers while on the page');
  assert.ok(r.rendered);
  assert.deepEqual(problems, []);
  await context.close();
});

test('a figure declared with attributes starts from them; without WebAssembly it shows a message', async () => {
  const { page, problems, context } = await open(browser, `${server.url}/web/`);
  await page.setContent(`<!doctype html><html lang="en"><body>
    <posnorm-heatmap d-model="16" seq-len="9" base="500" layout="concat"></posnorm-heatmap>
    <script type="module" src="${server.url}/web/figures/index.js"></script></body></html>`);
  await page.waitForFunction(() => document.querySelector('posnorm-heatmap')?.renderTimes?.length > 0, null, { timeout: 10000 });
  const v = await page.evaluate(() => { const el = document.querySelector('posnorm-heatmap'); return [el.dModel, el.seqLen, el.base, el.layout, el.readout.value]; });
  assert.deepEqual(v, [16, 9, 500, 'concat', 0]);
  await context.close();

  const ctx2 = await browser.newContext();
  const page2 = await ctx2.newPage();
  const errors = [];
  page2.on('pageerror', (e) => errors.push(e.message));
  await page2.addInitScript(() => { delete window.WebAssembly; });
  await page2.goto(`${server.url}/web/?lang=en`);
  await page2.locator('posnorm-heatmap').scrollIntoViewIfNeeded();
  // (the figure may not be upgraded and built yet when the wait starts: a
  // missing shadow root means "not yet", not an error)
  await page2.waitForFunction(() => document.querySelector('posnorm-heatmap')?.shadowRoot?.querySelector('.message')?.hidden === false);
  const msg = await page2.evaluate(() => document.querySelector('posnorm-heatmap').shadowRoot.querySelector('.message').textContent);
  assert.match(msg, /WebAssembly is not available/);
  assert.deepEqual(errors, []);
  assert.deepEqual(problems, []);
  await ctx2.close();
});
