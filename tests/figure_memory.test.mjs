// figure_memory.test.mjs — the figures' shared posnorm instance starts with
// MEMORY_FLOOR bytes of WebAssembly memory (core/runtime.js), and at the
// default sizes no drag of any control grows it, except the heatmap's
// (whose d_model × seq_len range reaches 30 MB): a growth in the middle of
// a drag cost one input's render 20–31 ms on figure.html (long-context's
// d_model drag grew 1 MB to 1.3 MB; V8 deoptimised the figure's code at
// once). In Chromium, every figure alone on figure.html, its controls
// dragged one after another as make bench drags them (fewer inputs: what
// matters is the values each control reaches); each drag ends at its
// control's maximum, so the later ones run with the earlier ones there,
// which asks more than the defaults alone.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { drag, setSizes, settle } from '../bench/frames.mjs';
import { FIGURES } from '../web/figures/registry.js';
import { MEMORY_FLOOR } from '../web/figures/core/runtime.js';
import { open, startFigure, useBrowser } from './browser/harness.mjs';
import { maxErrorVsFloat64 } from './reference/pe.mjs';

const env = useBrowser(before, after);
const GROWS = new Set(['heatmap']);

test('the figures\' instance holds MEMORY_FLOOR from the start, and no control dragged across its range at the default sizes grows it (the heatmap aside)', async () => {
  assert.equal(MEMORY_FLOOR, 8 * 1024 * 1024);
  const grew = [];
  for (const { name } of FIGURES) {
    const tag = `posnorm-${name}`;
    const { page, context } = await open(env.browser, `${env.server.url}/web/figure.html?fig=${name}&lang=en`);
    await startFigure(page, tag, 30000);
    await settle(page);
    const bytes = () => page.evaluate((t) => document.querySelector(t).pn.memory.buffer.byteLength, tag);
    const start = await bytes();
    assert.ok(start >= MEMORY_FLOOR && start <= MEMORY_FLOOR + 2 * 1024 * 1024, `${name}: ${start} bytes at the start`);
    const controls = await page.evaluate((t) => [...document.querySelector(t).shadowRoot.querySelectorAll('form [name]')].map((e) => e.name), tag);
    assert.ok(controls.length > 0, name);
    for (const c of controls) {
      const kind = await page.evaluate(({ t, c }) => document.querySelector(t).shadowRoot.querySelector(`form [name="${c}"]`).type, { t: tag, c });
      if (kind === 'range' || kind.startsWith('select')) await drag(page, tag, c, 8);
      else {
        // a text control (rope-config's pasted config): texts that do not parse, then one that does
        await page.evaluate(async ({ t, c }) => {
          const input = document.querySelector(t).shadowRoot.querySelector(`form [name="${c}"]`);
          for (const text of ['NaN', '{', '{"rope_theta": "x"}', '{"rope_theta": 500000, "head_dim": 64}', '']) {
            input.value = text;
            input.dispatchEvent(new Event('input', { bubbles: true }));
            await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
          }
        }, { t: tag, c });
      }
      const now = await bytes();
      if (now !== start && !GROWS.has(name)) grew.push(`${name} ${c}: ${start} → ${now} bytes`);
    }
    if (GROWS.has(name)) assert.ok(await bytes() > start, `${name} still grows past the floor (else it leaves GROWS)`);
    await context.close();
  }
  assert.deepEqual(grew, []);
});

// A heatmap drag at the largest sizes (1024 × 2048) went down and back up
// through lengths its buffers and its pixels' canvas had already held: made
// anew at each length, they met fresh pages (6.6 ms per MB in Chromium on
// the bench machine) and the d_model drag's input → frame p95 was 22.6–25.5 ms,
// 10.1–10.6 ms with neither made anew (issue #20, docs/decisions.md).
test('a heatmap d_model and seq_len drag at the largest sizes allocates nothing in wasm, keeps its pixels\' canvas, draws what a heatmap made at the end sizes draws, and lets both go when it leaves the page', async () => {
  const tag = 'posnorm-heatmap';
  const { page, context } = await open(env.browser, `${env.server.url}/web/figure.html?fig=heatmap&lang=en`);
  try {
    await startFigure(page, tag, 30000);
    await setSizes(page, tag, 'largest');
    await settle(page);
    // every allocation of the figure's buffers from here on is counted (its
    // error line keeps buffers of its own, draw/pe-error.js's PeScratch)
    await page.evaluate((t) => {
      const buffers = document.querySelector(t).buffers, get = buffers.get.bind(buffers);
      window.__allocs = 0;
      buffers.get = (pn, ...rest) => get({ alloc: (...a) => { window.__allocs++; return pn.alloc(...a); } }, ...rest);
    }, tag);
    const state = () => page.evaluate((t) => {
      const h = document.querySelector(t);
      return { allocs: window.__allocs, memory: h.pn.memory.buffer.byteLength, buffers: [...h.buffers].map((b) => [b.ptr, b.length, b.type]), image: [h._image.width, h._image.height] };
    }, tag);
    const before = await state();
    assert.deepEqual(before.buffers.map(([, n, type]) => [n, type]), [[1024 * 2048, 'f32'], [4 * 1024 * 2048, 'u8c']]);
    assert.deepEqual([before.allocs, before.image], [0, [1024, 2048]]);
    for (const prop of ['dModel', 'seqLen']) {
      await drag(page, tag, prop, 32);
      await settle(page);
      assert.deepEqual(await state(), before, `after the ${prop} drag`);
    }
    // down to a small size: the canvas stays as it was, and the picture is
    // that of a heatmap made at that size
    const picture = (t) => page.evaluate((t) => {
      const h = document.querySelector(t);
      Object.assign(h, { dModel: 37, seqLen: 23, base: 500 });
      h.renderNow();
      return h.shadowRoot.querySelector('canvas').toDataURL();
    }, t);
    const used = await picture(tag);
    assert.deepEqual(await state(), before, 'at 37 × 23');
    await page.evaluate(() => {
      const fresh = document.createElement('posnorm-heatmap');
      fresh.id = 'fresh';
      document.querySelector('posnorm-heatmap').after(fresh);
    });
    await startFigure(page, '#fresh', 30000);
    const gone = await page.evaluate(() => {
      const h = document.querySelector('posnorm-heatmap');
      h.remove();
      return { image: h._image, buffers: h.buffers.size };
    });
    assert.deepEqual(gone, { image: null, buffers: 0 }, 'off the page it holds neither');
    assert.equal(await picture('#fresh'), used);
  } finally {
    await context.close();
  }
});

test('the heatmap\'s pixels\' canvas, when it must grow, keeps a larger side only while that leaves it at most twice the area the pixels need', async () => {
  // a d_model drag to 1024 at 30 positions and then a seq_len drag to 2048
  // at d_model 64 (what make bench does at the defaults) made it 1024 ×
  // 2048, 8 MB of fresh backing store for 64 × 2048 pixels
  const tag = 'posnorm-heatmap';
  const { page, context } = await open(env.browser, `${env.server.url}/web/figure.html?fig=heatmap&lang=en`);
  try {
    await startFigure(page, tag, 30000);
    // the canvas's sides, and whether its top-left d_model × seq_len pixels
    // are the colour-mapped values (the figure's rgba buffer) after the
    // render: a canvas remade after its pixels were put would be blank
    const at = (sizes) => page.evaluate(({ t, sizes }) => {
      const h = document.querySelector(t);
      Object.assign(h, sizes);
      h.renderNow();
      const { dModel: d, seqLen: s } = h;
      const rgba = [...h.buffers].find((b) => b.type === 'u8c').array.subarray(0, d * s * 4);
      const shown = h._image.getContext('2d').getImageData(0, 0, d, s).data;
      let differ = 0;
      for (let i = 0; i < rgba.length; i++) differ += shown[i] !== rgba[i];
      if (differ || rgba.length !== d * s * 4) return `${differ} of ${rgba.length} bytes differ`;
      return [h._image.width, h._image.height];
    }, { t: tag, sizes });
    // [sizes, the canvas then]: powers of two at or above each side; a side
    // kept while the area stays within twice theirs; not shrunk while the
    // pixels fit
    const steps = [
      [{ dModel: 1024, seqLen: 30 }, [1024, 32]],
      [{ dModel: 64, seqLen: 30 }, [1024, 32]],
      [{ dModel: 64, seqLen: 33 }, [64, 64]],
      [{ dModel: 64, seqLen: 2048 }, [64, 2048]],
      [{ dModel: 100, seqLen: 2048 }, [128, 2048]],
      [{ dModel: 2, seqLen: 1000 }, [128, 2048]],
      [{ dModel: 100, seqLen: 1500 }, [128, 2048]],
      [{ dModel: 129, seqLen: 600 }, [256, 2048]],
      [{ dModel: 300, seqLen: 500 }, [512, 512]],
      [{ dModel: 129, seqLen: 1025 }, [512, 2048]],
    ];
    for (const [sizes, want] of steps) assert.deepEqual(await at(sizes), want, `at ${sizes.dModel} × ${sizes.seqLen}`);
    // the picture after the canvas was made anew is a new heatmap's
    const picture = (t) => page.evaluate((t) => document.querySelector(t).shadowRoot.querySelector('canvas').toDataURL(), t);
    const used = await picture(tag);
    await page.evaluate(() => {
      const fresh = Object.assign(document.createElement('posnorm-heatmap'), { id: 'fresh', dModel: 129, seqLen: 1025 });
      document.querySelector('posnorm-heatmap').after(fresh);
    });
    await startFigure(page, '#fresh', 30000);
    assert.equal(await page.evaluate(() => [document.querySelector('#fresh')._image.width, document.querySelector('#fresh')._image.height].join('×')), '256×2048', 'a new heatmap at 129 × 1025');
    assert.equal(await picture('#fresh'), used);
  } finally {
    await context.close();
  }
});

// A figure moved into a document that has no window — one made by
// document.implementation.createHTMLDocument(), or an iframe's once the
// iframe is removed — is still connected, but shown nowhere. It drew there,
// took its wasm buffers anew and ran its error line in the background, and
// what it held in an iframe's document stayed held for good: removing the
// iframe disconnects nothing inside it.
test('a figure in a document without a window (createHTMLDocument\'s, a removed iframe\'s) holds no wasm memory and draws and computes nothing; back on the page it shows the current state\'s errors', async () => {
  const tag = 'posnorm-heatmap';
  // 200 positions × 100 columns: the error line runs in slices of the main thread
  const { page, context, problems } = await open(env.browser, `${env.server.url}/web/figure.html?fig=heatmap&lang=en&d-model=128&seq-len=200`);
  try {
    await startFigure(page, tag, 30000);
    await page.waitForFunction((t) => document.querySelector(t).peErrors, tag, { timeout: 20000 });
    const r = await page.evaluate(async (t) => {
      const el = document.querySelector(t);
      const home = el.parentNode;
      const frames = () => new Promise((res) => requestAnimationFrame(() => requestAnimationFrame(res)));
      const quiet = async () => { await frames(); await new Promise((res) => setTimeout(res, 300)); await frames(); };
      const slices = [];
      new PerformanceObserver((l) => slices.push(...l.getEntries().filter((e) => e.name === 'posnorm-background-slice'))).observe({ type: 'measure' });
      // what the figure holds, how often it drew and how many slices ran since `from`
      const held = () => el.pn.heapStats().allocations;
      const since = (from) => ({ held: held(), renders: el.renderTimes.length - from.renders, slices: slices.length - from.slices });
      const mark = () => ({ renders: el.renderTimes.length, slices: slices.length });
      // the errors shown, the state, and posnorm's values and the float32
      // code's for that state (their errors are worked out in Node below)
      const shown = async () => {
        await frames();
        for (let k = 0; k < 500 && !el.peErrors; k++) await new Promise((res) => setTimeout(res, 20));
        const { seqLen, dModel, base } = el, e = el.peErrors;
        return {
          sizes: e && `${e.sizes.seqLen}×${e.sizes.dModel}`, state: { seqLen, dModel, base }, got: e && { posnorm: e.posnorm, float32: e.float32 },
          ours: Array.from(el.pn.positionalEncoding({ seqLen, dModel, base })), code: Array.from(el.pn.positionalEncoding({ seqLen, dModel, base, precision: 'float32' })),
        };
      };
      // styled as on the page (its stylesheets belong to the document that made them)
      const styled = () => ({ sheets: el.shadowRoot.adoptedStyleSheets.length, form: getComputedStyle(el.shadowRoot.querySelector('form')).display });
      const out = { onPage: held(), styledOnPage: styled() };
      // into a document made by createHTMLDocument(), where the values change
      let from = mark();
      document.implementation.createHTMLDocument().body.append(el);
      el.dModel = 100;
      await quiet();
      out.inert = since(from);
      home.append(el);
      out.backFromInert = await shown();
      out.styledBackFromInert = styled();
      // and its sliders still move it
      const slider = el.shadowRoot.querySelector('input[name=dModel]');
      slider.value = '96';
      slider.dispatchEvent(new Event('input', { bubbles: true }));
      await frames();
      out.sliderBackFromInert = el.dModel;
      el.dModel = 100;
      // into an iframe's document (a page: it draws there), then the iframe goes
      const iframe = document.createElement('iframe');
      document.body.append(iframe);
      iframe.contentDocument.body.append(el);
      el.seqLen = 150;
      await quiet();
      out.inIframe = { held: held() > 0, errors: await shown(), styled: styled() };
      iframe.remove();
      await Promise.resolve();
      out.iframeRemoved = { held: held(), image: el._image };
      from = mark();
      el.dModel = 90;
      await quiet();
      out.afterRemoval = since(from);
      home.append(el);
      out.backFromIframe = await shown();
      out.styledBackFromIframe = styled();
      return out;
    }, tag);
    // what a readout showed: its sizes, the state's, and whether its errors are
    // those of the state's values against float64 sin/cos
    const check = ({ sizes, state, got, ours, code }) => ({
      sizes, state: `${state.seqLen}×${state.dModel}`,
      close: Boolean(got) && Math.abs(got.posnorm - maxErrorVsFloat64(ours, state)) <= 1e-12 && Math.abs(got.float32 - maxErrorVsFloat64(code, state)) <= 1e-12,
    });
    r.backFromInert = check(r.backFromInert);
    r.inIframe.errors = check(r.inIframe.errors);
    r.backFromIframe = check(r.backFromIframe);
    assert.ok(r.onPage > 0, 'on the page it holds its buffers');
    assert.deepEqual(r.inert, { held: 0, renders: 0, slices: 0 }, 'in a document without a window: no buffer, no render, no slice');
    assert.deepEqual(r.backFromInert, { sizes: '200×100', state: '200×100', close: true });
    assert.ok(r.styledOnPage.sheets >= 1 && r.styledOnPage.form === 'grid', JSON.stringify(r.styledOnPage));
    assert.deepEqual(r.styledBackFromInert, r.styledOnPage, 'back from createHTMLDocument\'s document, styled');
    assert.equal(r.sliderBackFromInert, 96, 'and its slider works');
    assert.deepEqual(r.inIframe, { held: true, errors: { sizes: '150×100', state: '150×100', close: true }, styled: r.styledOnPage }, 'in an iframe\'s document it is on a page, styled');
    assert.deepEqual(r.iframeRemoved, { held: 0, image: null }, 'the iframe removed: its buffers and its pixels\' canvas go at once');
    assert.deepEqual(r.afterRemoval, { held: 0, renders: 0, slices: 0 }, 'left in the removed iframe\'s document');
    assert.deepEqual(r.backFromIframe, { sizes: '150×90', state: '150×90', close: true });
    assert.deepEqual(r.styledBackFromIframe, r.styledOnPage, 'back from the removed iframe, styled');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});
