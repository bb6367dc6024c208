// figure_width.test.mjs — figures size their canvases from a width the
// shared ResizeObserver keeps (core/observers.js cssWidth), not from layout
// read during render(); in Chromium, a figure whose box changes width must
// still redraw at its new width, on a laptop window and a phone's, at
// devicePixelRatio 1 and 2.
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

test('render() reads no layout during a drag; a synchronous render right after a width change draws at the new width', async () => {
  for (const fig of ['waveform', 'precision', 'ln-simulator']) {
    const tag = `posnorm-${fig}`;
    const { page, context, problems } = await open(env.browser, `${env.server.url}/web/figure.html?fig=${fig}&lang=en`, { width: 1280, height: 900 });
    try {
      await startFigure(page, tag);
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
        const input = el.shadowRoot.querySelector('form input[type=range]');
        const frame = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
        const renders = el.renderTimes.length;
        for (let k = 0; k < 6; k++) {
          input.value = String(Number(input.min) + ((Number(input.max) - Number(input.min)) * (k + 1)) / 7);
          input.dispatchEvent(new Event('input', { bubbles: true }));
          await frame();
        }
        for (const [proto, name, d] of spies) Object.defineProperty(proto, name, d);
        el.render = render;
        return { count, renders: el.renderTimes.length - renders };
      }, tag);
      assert.ok(reads.renders >= 3, `${fig}: the drag repainted (${reads.renders} renders)`);
      assert.equal(reads.count, 0, `${fig}: layout reads inside render() during the drag`);
      // the figure's box narrows and a download's synchronous render follows in the same task
      const got = await page.evaluate((t) => {
        const el = document.querySelector(t);
        el.style.display = 'block';
        el.style.width = '610px';
        el.renderNow();
        const c = el.shadowRoot.querySelector('canvas');
        return { width: c.width, box: Math.round(c.getBoundingClientRect().width) };
      }, tag);
      assert.ok(got.box <= 610 && got.box > 250 && Math.abs(got.width - got.box) <= 1, `${fig}: canvas ${got.width} px for a ${got.box} px box`);
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  }
});

test('every figure keeps its canvases\' size while any control moves across its range (laptop and phone widths), and has every label in Korean at every value', async () => {
  const { FIGURES } = await import('../web/figures/registry.js');
  for (const [width, height] of [[1280, 900], [360, 800]]) {
    for (const f of FIGURES) {
      // Korean: the figure alone on the page has only ko.js and its own labels
      const { page, context, problems } = await open(env.browser, `${env.server.url}/web/figure.html?fig=${f.name}&lang=ko`, { width, height });
      try {
        await startFigure(page, f.tag);
        const found = await page.evaluate(async (t) => {
          const el = document.querySelector(t);
          const frame = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
          const sizes = () => [...el.shadowRoot.querySelectorAll('canvas')].map((c) => `${c.width}×${c.height}`).join(' ');
          // what the canvases are given to write, from here on
          const drawn = [];
          for (const name of ['fillText', 'strokeText']) {
            const original = CanvasRenderingContext2D.prototype[name];
            CanvasRenderingContext2D.prototype[name] = function (text, ...rest) {
              drawn.push(String(text));
              return original.call(this, text, ...rest);
            };
          }
          /** Labels missing at this state: "undefined" anywhere a label goes, or an empty marked element. */
          const missing = (at) => {
            const out = [];
            const root = el.shadowRoot;
            if (/\bundefined\b/.test(root.textContent)) out.push(`${at}: text`);
            for (const e of root.querySelectorAll('[data-key]')) if (!e.textContent.trim()) out.push(`${at}: empty [data-key=${e.dataset.key}]`);
            for (const e of root.querySelectorAll('[aria-label]')) if (/\bundefined\b|^$/.test(e.getAttribute('aria-label'))) out.push(`${at}: aria-label of ${e.localName}`);
            if (/\bundefined\b/.test(el.describe?.() ?? '')) out.push(`${at}: describe()`);
            for (const text of drawn.splice(0)) if (/\bundefined\b/.test(text)) out.push(`${at}: canvas text "${text}"`);
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
        }, f.tag);
        assert.deepEqual(found.resized, [], `${f.name} at ${width} px`);
        assert.deepEqual(found.labels, [], `${f.name}: labels missing in Korean`);
        assert.deepEqual(problems, []);
      } finally {
        await context.close();
      }
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
      const renders = () => page.evaluate((t) => document.querySelector(t).renderTimes.length, tag);
      await page.addStyleTag({ content: `${tag}::part(canvas) { width: auto; max-width: 100%; }` });
      await page.waitForTimeout(400);
      const before = await renders();
      await page.waitForTimeout(1000);
      const n = (await renders()) - before;
      assert.ok(n <= 1, `${fig} at ${width} px, dpr 1.25: ${n} renders in a second with nothing changing`);
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
      // and one pixel at a time (a window edge dragged slowly): a canvas's
      // own width watch ignores changes of a pixel, so the figure's width is
      // what redraws it; four steps must not leave it 4 px off its box
      for (const w of [599, 598, 597, 596]) {
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
