// figure_width.test.mjs — figures size their canvases from a width the
// shared ResizeObserver keeps (core/observers.js cssWidth), not from layout
// read during render(); in Chromium, a figure whose box changes width must
// still redraw at its new width, on a laptop window and a phone's, at
// devicePixelRatio 1 and 2, every canvas of it, to the pixel; and no control
// may change a canvas's size (Korean and English, from 320 px up).
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
          assert.ok(got[0].want <= (width - 16) * dpr, `${fig} at ${width} px: the box is within the window (${got[0].want})`);
        }
        assert.deepEqual(problems, []);
      } finally {
        await context.close();
      }
    }
  });
}

/**
 * The layouts of a Chromium trace (`events`) that a script forced: Blink
 * records the script's stack on those, on none of the frame's own.
 */
const forcedLayouts = (events) => events.filter((e) => e.name === 'Layout' && e.args?.beginData?.stackTrace?.length)
  .map((e) => e.args.beginData.stackTrace.slice(0, 3).map((f) => `${f.functionName}@${f.url.split('/').pop()}:${f.lineNumber}`).join(' < '));
/** The trace's Layout events: the frames' own and forced ones (none means the trace saw no layout at all). */
const layouts = (events) => events.filter((e) => e.name === 'Layout').length;

test('render() reads no layout during a drag, and makes Blink lay out nothing for it; a synchronous render right after a width change draws every canvas at the new width (every figure)', async () => {
  const { FIGURES } = await import('../web/figures/registry.js');
  for (const { name: fig, tag } of FIGURES) {
    const { page, context, problems } = await open(env.browser, `${env.server.url}/web/figure.html?fig=${fig}&lang=en`, { width: 1280, height: 900 });
    try {
      await startFigure(page, tag);
      // a canvas text call or a computed style read lays the page out
      // first when an input has changed it and the figure's box is a query
      // container (its contain rule, core/style.js): a second layout per input
      await env.browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'disabled-by-default-devtools.timeline.stack'] });
      const reads = await page.evaluate(async (t) => {
        const el = document.querySelector(t);
        // count layout reads made while render() runs
        let inRender = false, count = 0;
        const render = el.render;
        el.render = function (...a) {
          inRender = true;
          try { return render.apply(this, a); } finally { inRender = false; }
        };
        const spies = [];
        for (const [proto, names] of [[Element.prototype, ['clientWidth', 'clientHeight', 'getBoundingClientRect']], [HTMLElement.prototype, ['offsetWidth', 'offsetHeight']]]) {
          for (const name of names) {
            const d = Object.getOwnPropertyDescriptor(proto, name);
            spies.push([proto, name, d]);
            Object.defineProperty(proto, name, d.get
              ? { ...d, get() { if (inRender) count++; return d.get.call(this); } }
              : { ...d, value(...a) { if (inRender) count++; return d.value.apply(this, a); } });
          }
        }
        // the first slider, a quarter and three quarters of the way along
        // by turns (each a new value, on a slider of three steps too), or
        // for a figure without one (order) its first menu's choices by turns
        const input = el.shadowRoot.querySelector('form input[type=range]');
        const select = el.shadowRoot.querySelector('form select');
        const frame = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
        const renders = el.renderTimes.length;
        for (let k = 0; k < 4; k++) {
          if (input) {
            input.value = String(Number(input.min) + ((Number(input.max) - Number(input.min)) * (k % 2 ? 3 : 1)) / 4);
            input.dispatchEvent(new Event('input', { bubbles: true }));
          } else {
            select.selectedIndex = (select.selectedIndex + 1) % select.options.length;
            select.dispatchEvent(new Event('change', { bubbles: true }));
          }
          await frame();
        }
        for (const [proto, name, d] of spies) Object.defineProperty(proto, name, d);
        el.render = render;
        return { count, renders: el.renderTimes.length - renders };
      }, tag);
      const traced = JSON.parse((await env.browser.stopTracing()).toString()).traceEvents;
      assert.ok(reads.renders >= 3, `${fig}: the drag repainted (${reads.renders} renders)`);
      assert.equal(reads.count, 0, `${fig}: layout reads inside render() during the drag`);
      // (the trace saw the frames' layouts, so it would have seen a forced one;
      // this harness forces none itself: its drag only sets values and waits)
      assert.ok(layouts(traced) >= 3, `${fig}: the trace holds the drag's layouts (${layouts(traced)})`);
      assert.deepEqual(forcedLayouts(traced), [], `${fig}: layouts forced by script during the drag`);
      // the figure's box narrows and a download's synchronous render follows in the same task
      const got = await page.evaluate((t) => {
        const el = document.querySelector(t);
        el.style.display = 'block';
        el.style.width = '610px';
        el.renderNow();
        return [...el.shadowRoot.querySelectorAll('canvas')].map((c) => ({ width: c.width, box: Math.round(c.getBoundingClientRect().width) }));
      }, tag);
      assert.ok(got.length >= 1 && got[0].box > 250, `${fig}: canvases ${JSON.stringify(got)}`);
      // every canvas (ln-simulator has two), each within the 610 px box
      for (const [k, c] of got.entries()) {
        assert.ok(c.box <= 610 && Math.abs(c.width - c.box) <= 1, `${fig}: canvas ${k} ${c.width} px wide for a ${c.box} px box, right after the box narrowed to 610 px`);
      }
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  }
});

/**
 * Moves every visible control of `tag` to its min, its max and back, a
 * repaint each; returns the canvas sizes that differed from those at the
 * start (`resized`) and the labels missing at any value (`labels`). Runs
 * again on the same page (at another width): canvas text is watched once.
 */
const moveEveryControl = (page, tag) => page.evaluate(async (t) => {
  const el = document.querySelector(t);
  const frame = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  const sizes = () => [...el.shadowRoot.querySelectorAll('canvas')].map((c) => `${c.width}×${c.height}`).join(' ');
  // what the canvases are given to write, from here on
  if (!window.__drawn) {
    window.__drawn = [];
    for (const name of ['fillText', 'strokeText']) {
      const original = CanvasRenderingContext2D.prototype[name];
      CanvasRenderingContext2D.prototype[name] = function (text, ...rest) {
        window.__drawn.push(String(text));
        return original.call(this, text, ...rest);
      };
    }
  }
  window.__drawn.length = 0;
  /** Labels missing at this state: "undefined" anywhere a label goes, or an empty marked element. */
  const missing = (at) => {
    const out = [];
    const root = el.shadowRoot;
    if (/\bundefined\b/.test(root.textContent)) out.push(`${at}: text`);
    for (const e of root.querySelectorAll('[data-key]')) if (!e.textContent.trim()) out.push(`${at}: empty [data-key=${e.dataset.key}]`);
    for (const e of root.querySelectorAll('[aria-label]')) if (/\bundefined\b|^$/.test(e.getAttribute('aria-label'))) out.push(`${at}: aria-label of ${e.localName}`);
    if (/\bundefined\b/.test(el.describe?.() ?? '')) out.push(`${at}: describe()`);
    for (const text of window.__drawn.splice(0)) if (/\bundefined\b/.test(text)) out.push(`${at}: canvas text "${text}"`);
    return out;
  };
  const first = sizes();
  const resized = [], labels = [];
  for (const c of el.constructor.controls.filter((x) => !x.hidden)) {
    const start = el[c.prop];
    const values = c.kind === 'choice' ? c.choices : [c.min, typeof c.max === 'function' ? c.max(el) : c.max, start];
    for (const v of values) {
      el[c.prop] = v;
      await frame();
      if (sizes() !== first) resized.push(`${c.prop} = ${v}: ${sizes()} (was ${first})`);
      labels.push(...missing(`${c.prop} = ${v}`));
    }
    el[c.prop] = start;
  }
  return { resized, labels };
}, tag);

test('every figure keeps its canvases\' size while any control moves across its range (laptop and phone widths), and has every label in Korean at every value', async () => {
  const { FIGURES } = await import('../web/figures/registry.js');
  for (const [width, height] of [[1280, 900], [360, 800]]) {
    for (const f of FIGURES) {
      // Korean: the figure alone on the page has only ko.js and its own labels
      const { page, context, problems } = await open(env.browser, `${env.server.url}/web/figure.html?fig=${f.name}&lang=ko`, { width, height });
      try {
        await startFigure(page, f.tag);
        const found = await moveEveryControl(page, f.tag);
        assert.deepEqual(found.resized, [], `${f.name} at ${width} px`);
        assert.deepEqual(found.labels, [], `${f.name}: labels missing in Korean`);
        assert.deepEqual(problems, []);
      } finally {
        await context.close();
      }
    }
  }
});

test('in English too, at widths from a phone\'s to a laptop\'s, every figure keeps its canvases\' size while any control moves across its range', async () => {
  // English titles are wider than Korean ones: compare's grew taller at
  // 320, 640 and 650 px when offset went 0 → 100 without a reservation for
  // the widest title; one page per figure, narrowed and widened in turn.
  // The window's widths: the figure's 320, 560 (compare's two columns from
  // there), 624, 640, 650 and 1000 px, and figure.html's 8 px margins
  const { FIGURES } = await import('../web/figures/registry.js');
  const widths = [320, 560, 624, 640, 650, 1000].map((w) => w + 16);
  for (const f of FIGURES) {
    const { page, context, problems } = await open(env.browser, `${env.server.url}/web/figure.html?fig=${f.name}&lang=en`, { width: widths[0], height: 900 });
    try {
      await startFigure(page, f.tag);
      const resized = {}, labels = {};
      for (const width of widths) {
        await page.setViewportSize({ width, height: 900 });
        // drawn at the new width, then one frame more
        await page.waitForFunction((t) => [...document.querySelector(t).shadowRoot.querySelectorAll('canvas')]
          .every((c) => Math.abs(c.width - Math.round(c.getBoundingClientRect().width * devicePixelRatio)) <= 1), f.tag, { polling: 'raf' });
        await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
        const found = await moveEveryControl(page, f.tag);
        if (found.resized.length) resized[width - 16] = found.resized;
        if (found.labels.length) labels[width - 16] = found.labels;
      }
      assert.deepEqual(resized, {}, `${f.name} in English: canvases resized by a control with the figure ${Object.keys(resized).join(', ') || 'no'} px wide`);
      assert.deepEqual(labels, {}, `${f.name}: labels missing in English`);
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  }
});

test('a canvas the page resizes through ::part(canvas), the figure\'s box unchanged, is redrawn at its new width', async () => {
  for (const fig of ['waveform', 'ln-simulator']) {
    const tag = `posnorm-${fig}`;
    const { page, context, problems } = await open(env.browser, `${env.server.url}/web/figure.html?fig=${fig}&lang=en`, { width: 1280, height: 900, deviceScaleFactor: 2 });
    try {
      await startFigure(page, tag);
      const box = () => page.evaluate((t) => Math.round(document.querySelector(t).getBoundingClientRect().width), tag);
      const boxBefore = await box();
      const before = await canvases(page, tag);
      await page.addStyleTag({ content: `${tag}::part(canvas) { width: 55%; }` });
      // the observer's report, the repaint it asks for, one frame more
      await page.waitForFunction((t) => {
        const c = document.querySelector(t).shadowRoot.querySelector('canvas');
        return Math.abs(c.width - Math.round(c.getBoundingClientRect().width * devicePixelRatio)) <= 2;
      }, tag, { timeout: 5000 }).catch(() => {});
      const after = await canvases(page, tag);
      assert.equal(await box(), boxBefore, `${fig}: the figure's own box kept its width`);
      for (const [k, c] of after.entries()) {
        assert.ok(c.want < before[k].want * 0.8, `${fig}: the rule narrowed canvas ${k} (${before[k].want} → ${c.want} device px)`);
        assert.ok(Math.abs(c.width - c.want) <= 2, `${fig}: canvas ${k} drawn ${c.width} device px wide in a ${c.want} px box`);
      }
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  }
});

test('a canvas whose CSS width follows its backing size (width: auto; max-width: 100%) at a fractional devicePixelRatio settles: no repaint at every frame', async () => {
  // at dpr 1.25 the rounded backing width moves the laid-out width by a
  // pixel at each render; repainting for that looped at 35–61 renders a second
  for (const [fig, width] of [['waveform', 541], ['waveform', 663], ['ln-simulator', 600]]) {
    const tag = `posnorm-${fig}`;
    const { page, context, problems } = await open(env.browser, `${env.server.url}/web/figure.html?fig=${fig}&lang=en`, { width, height: 900, deviceScaleFactor: 1.25 });
    try {
      await startFigure(page, tag);
      await page.addStyleTag({ content: `${tag}::part(canvas) { width: auto; max-width: 100%; }` });
      // settled: ten frames in a row without a render (at most 120 frames
      // waited); then the renders of the next 60 frames (a second at 60 Hz)
      const { waited, n } = await page.evaluate(async (t) => {
        const el = document.querySelector(t);
        const frame = () => new Promise((r) => requestAnimationFrame(r));
        let waited = 0;
        for (let quiet = 0, last = el.renderTimes.length; quiet < 10 && waited < 120; waited++) {
          await frame();
          const now = el.renderTimes.length;
          quiet = now === last ? quiet + 1 : 0;
          last = now;
        }
        const before = el.renderTimes.length;
        for (let k = 0; k < 60; k++) await frame();
        return { waited, n: el.renderTimes.length - before };
      }, tag);
      assert.ok(n <= 1, `${fig} at ${width} px, dpr 1.25: ${n} renders in 60 frames with nothing changing (after ${waited} frames waiting for ten quiet ones)`);
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  }
});

test('a figure whose box grows taller alone (a readout wrapping to more lines) is not drawn again; a wider box is', async () => {
  // during a precision d_model drag the readout's new line made a second
  // render after 4 of 32 inputs, and depth's stack drag after 10 (issue #20)
  for (const fig of ['precision', 'depth']) {
    const tag = `posnorm-${fig}`;
    const { page, context, problems } = await open(env.browser, `${env.server.url}/web/figure.html?fig=${fig}&lang=en`, { width: 1000, height: 900 });
    try {
      await startFigure(page, tag);
      const state = () => page.evaluate((t) => {
        const el = document.querySelector(t), r = el.shadowRoot.querySelector('figure').getBoundingClientRect();
        return { renders: el.renderTimes.length, width: Math.round(r.width), height: Math.round(r.height) };
      }, tag);
      const frames = (n) => page.evaluate((k) => new Promise((r) => { const step = () => (k-- > 0 ? requestAnimationFrame(step) : r()); step(); }), n);
      // quiet first: depth's gradients come from a background task and
      // repaint it once they arrive (waited for: a Worker that starts late
      // lands them after two equal counts 300 ms apart)
      if (fig === 'depth') await page.waitForFunction((t) => document.querySelector(t).result?.gradNorms, tag, { timeout: 30000 });
      for (let i = 0, last = -1; i < 50; i++) {
        const { renders } = await state();
        if (renders === last) break;
        last = renders;
        await page.waitForTimeout(300);
      }
      const before = await state();
      // taller: a block appended to the figure (as a readout's extra line)
      await page.evaluate((t) => {
        const p = document.createElement('p');
        p.id = 'taller';
        p.style.height = '120px';
        document.querySelector(t).shadowRoot.querySelector('figure').append(p);
      }, tag);
      await frames(6);
      const taller = await state();
      assert.ok(taller.height >= before.height + 100 && taller.width === before.width, `${fig}: the box grew ${before.height} → ${taller.height} px tall, width ${before.width} → ${taller.width}`);
      assert.equal(taller.renders, before.renders, `${fig}: renders after the box grew taller alone`);
      // wider: the host's container narrows
      await page.evaluate((t) => { document.querySelector(t).style.maxWidth = '600px'; }, tag);
      await frames(6);
      const narrower = await state();
      assert.ok(narrower.width < before.width - 100, `${fig}: the box narrowed ${before.width} → ${narrower.width} px`);
      assert.ok(narrower.renders > taller.renders, `${fig}: no render after the box narrowed`);
      const drawn = await canvases(page, tag);
      for (const [k, c] of drawn.entries()) assert.ok(Math.abs(c.width - c.want) <= 1, `${fig}: canvas ${k} drawn ${c.width} px wide in a ${c.want} px box`);
      // a single step of one pixel (600 → 599 px) narrows the canvas by
      // exactly one pixel at dpr 1: waited for until it does, then held to it
      await page.evaluate((t) => { document.querySelector(t).style.maxWidth = '599px'; }, tag);
      await page.waitForFunction(({ t, w }) => document.querySelector(t).shadowRoot.querySelector('canvas').width === w, { t: tag, w: drawn[0].width - 1 }, { polling: 'raf', timeout: 3000 }).catch(() => {});
      const one = await canvases(page, tag);
      assert.equal(one[0].want, drawn[0].want - 1, `${fig}: the canvas's box narrowed by 1 px (${drawn[0].want} → ${one[0].want})`);
      for (const [k, c] of one.entries()) assert.equal(c.width, drawn[k].width - 1, `${fig}: after one 1 px step (600 → 599 px), canvas ${k} is ${c.width} px wide, its box ${c.want}; it was ${drawn[k].width}`);
      // and one pixel at a time (a window edge dragged slowly): a canvas's
      // own width watch ignores changes of a pixel, so the figure's width is
      // what redraws it; four steps must not leave it 4 px off its box
      for (const w of [598, 597, 596, 595]) {
        await page.evaluate(({ t, w }) => { document.querySelector(t).style.maxWidth = `${w}px`; }, { t: tag, w });
        await frames(4);
      }
      const stepped = await canvases(page, tag);
      for (const [k, c] of stepped.entries()) assert.ok(Math.abs(c.width - c.want) <= 1, `${fig}: after four 1 px steps, canvas ${k} drawn ${c.width} px wide in a ${c.want} px box`);
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  }
});
