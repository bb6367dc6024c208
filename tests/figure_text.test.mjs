// figure_text.test.mjs — every text a figure draws on its canvas lies on the
// canvas and clear of every other text, in both languages, from a phone's
// 320 px to a laptop's window and across the widths where layouts switch
// (bn-vs-ln 520, properties and compare 560, long-context and depth 620),
// at the defaults and, at 320 and 1280 px, with each control at its ends
// and its middle;
// and a title that holds a control's value keeps the canvas's height while
// that control is dragged on a phone; the room below the last plot is the
// same at every width of a layout (narrow below 520 px, wide from 800); no veil (a translucent rectangle of
// the background under a label) is laid over a text drawn before it. Each
// text's box is measured in
// Chromium as it is drawn (measureText's actual bounding box through the
// context's transform, scaled when fillText is given a maximum width).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { open, startFigure, useBrowser } from './browser/harness.mjs';
import { FIGURES } from '../web/figures/registry.js';

const env = useBrowser(before, after);
const WIDTHS = [320, 375, 519, 520, 560, 620, 800, 1280];

/** Records each fillText's box in device pixels into window.__texts (an init script). */
function recordTexts() {
  window.__texts = [];
  const fillText = CanvasRenderingContext2D.prototype.fillText;
  CanvasRenderingContext2D.prototype.fillText = function (text, x, y, maxWidth) {
    const m = this.measureText(text);
    const squeeze = maxWidth !== undefined && m.width > maxWidth ? maxWidth / m.width : 1;
    const t = this.getTransform();
    const corners = [[-m.actualBoundingBoxLeft, -m.actualBoundingBoxAscent], [m.actualBoundingBoxRight, -m.actualBoundingBoxAscent],
      [-m.actualBoundingBoxLeft, m.actualBoundingBoxDescent], [m.actualBoundingBoxRight, m.actualBoundingBoxDescent]]
      .map(([dx, dy]) => [x + dx * squeeze, y + dy]).map(([px, py]) => [t.a * px + t.c * py + t.e, t.b * px + t.d * py + t.f]);
    const xs = corners.map((c) => c[0]), ys = corners.map((c) => c[1]);
    window.__texts.push({ text: String(text), canvas: [...this.canvas.getRootNode().querySelectorAll('canvas')].indexOf(this.canvas),
      x0: Math.min(...xs), x1: Math.max(...xs), y0: Math.min(...ys), y1: Math.max(...ys), w: this.canvas.width, h: this.canvas.height });
    return fillText.call(this, text, x, y, maxWidth);
  };
  // veils: rectangles of the background laid translucent under a label
  // (axes.js's rule labels, depth's notes), recorded in drawing order among
  // the texts: one laid over a text drawn before it hides that text
  const fillRect = CanvasRenderingContext2D.prototype.fillRect;
  CanvasRenderingContext2D.prototype.fillRect = function (x, y, w, h) {
    if (this.globalAlpha >= 0.75 && this.globalAlpha < 1) {
      const t = this.getTransform();
      const xs = [x, x + w].map((px) => t.a * px + t.e), ys = [y, y + h].map((py) => t.d * py + t.f);
      window.__texts.push({ veil: true, text: '(veil)', canvas: [...this.canvas.getRootNode().querySelectorAll('canvas')].indexOf(this.canvas),
        x0: Math.min(...xs), x1: Math.max(...xs), y0: Math.min(...ys), y1: Math.max(...ys), w: this.canvas.width, h: this.canvas.height });
    }
    return fillRect.call(this, x, y, w, h);
  };
}

/** The texts of one synchronous repaint of `tag`. */
const textsOfOneRender = (page, tag) => page.evaluate((t) => {
  window.__texts = [];
  document.querySelector(t).render();
  return window.__texts.splice(0);
}, tag);

/**
 * What is wrong with a repaint's texts: any off its canvas, any two that
 * overlap by more than 1 px each way, any veil over a text drawn before it.
 */
function misplaced(drawn) {
  const wrong = [];
  drawn.forEach((v, k) => {
    if (!v.veil) return;
    if (v.x0 < -0.5 || v.x1 > v.w + 0.5 || v.y0 < -0.5 || v.y1 > v.h + 0.5) wrong.push(`a veil runs off canvas ${v.canvas}: x ${v.x0.toFixed(1)}…${v.x1.toFixed(1)}, y ${v.y0.toFixed(1)}…${v.y1.toFixed(1)}`);
    for (const s of drawn.slice(0, k)) {
      if (s.veil || s.canvas !== v.canvas || s.text.trim() === '') continue;
      const ox = Math.min(s.x1, v.x1) - Math.max(s.x0, v.x0), oy = Math.min(s.y1, v.y1) - Math.max(s.y0, v.y0);
      if (ox > 1 && oy > 1) wrong.push(`a veil covers "${s.text}" by ${ox.toFixed(1)}×${oy.toFixed(1)} px`);
    }
  });
  const shown = drawn.filter((s) => !s.veil && s.text.trim() !== '');
  for (const s of shown) {
    if (s.x0 < -0.5 || s.x1 > s.w + 0.5 || s.y0 < -0.5 || s.y1 > s.h + 0.5) {
      wrong.push(`"${s.text}" runs off canvas ${s.canvas} (${s.w}×${s.h}): x ${s.x0.toFixed(1)}…${s.x1.toFixed(1)}, y ${s.y0.toFixed(1)}…${s.y1.toFixed(1)}`);
    }
  }
  for (let i = 0; i < shown.length; i++) {
    for (let j = i + 1; j < shown.length; j++) {
      const a = shown[i], b = shown[j];
      if (a.canvas !== b.canvas) continue;
      const ox = Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0), oy = Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0);
      if (ox > 1 && oy > 1) wrong.push(`"${a.text}" and "${b.text}" overlap by ${ox.toFixed(1)}×${oy.toFixed(1)} px`);
    }
  }
  return wrong;
}

/**
 * The empty rows below what each canvas of `tag` draws (a pixel scan of
 * one synchronous repaint; the canvases are cleared to transparent).
 */
const bottomMargins = (page, tag) => page.evaluate((t) => {
  const el = document.querySelector(t);
  el.render();
  return [...el.shadowRoot.querySelectorAll('canvas')].map((c) => {
    // (read through a copy made for reading: repeated reads of the figure's
    // own canvas print Chromium's willReadFrequently warning)
    const copy = document.createElement('canvas');
    Object.assign(copy, { width: c.width, height: c.height });
    const cc = copy.getContext('2d', { willReadFrequently: true });
    cc.drawImage(c, 0, 0);
    const d = cc.getImageData(0, 0, c.width, c.height).data;
    for (let y = c.height - 1; y >= 0; y--) {
      for (let x = 0; x < c.width; x++) if (d[4 * (y * c.width + x) + 3] > 0) return c.height - 1 - y;
    }
    return c.height;
  });
}, tag);

const frames = (page) => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));

for (const lang of ['en', 'ko']) {
  test(`every figure's texts stay on its canvas and apart, ${WIDTHS[0]}–${WIDTHS.at(-1)} px (${lang})`, async () => {
    const wrong = [];
    for (const { name, tag } of FIGURES) {
      const { page, context, problems } = await open(env.browser, `${env.server.url}/web/figure.html?fig=${name}&lang=${lang}`,
        { width: WIDTHS[0], height: 900, setup: (c) => c.addInitScript(recordTexts) });
      try {
        await startFigure(page, tag);
        // what a figure computes after its first frame: depth's gradients in a Worker
        if (name === 'depth') await page.waitForFunction((t) => document.querySelector(t).result?.gradNorms, tag);
        await page.waitForTimeout(300);
        const firstMargins = {};
        for (const width of WIDTHS) {
          if (width !== WIDTHS[0]) {
            const renders = await page.evaluate((t) => document.querySelector(t).renderTimes.length, tag);
            await page.setViewportSize({ width, height: 900 });
            await page.waitForFunction(({ t, n }) => document.querySelector(t).renderTimes.length > n, { t: tag, n: renders });
            await frames(page);
          }
          const texts = await textsOfOneRender(page, tag);
          assert.ok(texts.some((s) => !s.veil), `${name} at ${width} px drew no text`);
          wrong.push(...misplaced(texts).map((w) => `${name} at ${width} px: ${w}`));
          // the room below the last plot: at least 2 px, and the same at
          // every width of one layout (a title or legend that wraps on a
          // phone grows the canvas by its lines, not into that room); every
          // figure has its narrow layout in windows below 520 px and its
          // wide one from 800 (long-context's and depth's canvases reach
          // 620 px in a window of about 640)
          const layout = width < 520 ? 'narrow' : width >= 800 ? 'wide' : undefined;
          const margins = await bottomMargins(page, tag);
          margins.forEach((m, c) => {
            if (m < 2) wrong.push(`${name} at ${width} px: canvas ${c} is drawn to ${m} px from its bottom`);
            const first = layout && (firstMargins[layout] ??= { width, margins });
            if (first && Math.abs(first.margins[c] - m) > 1) wrong.push(`${name} at ${width} px: canvas ${c} ends ${m} px above its bottom, ${first.margins[c]} px at ${first.width} px`);
          });
          if (width !== 320 && width !== 1280) continue;
          // and every control at its ends and its middle (a choice at each choice), one at a time
          const states = await page.evaluate((t) => {
            const el = document.querySelector(t);
            const out = [];
            for (const c of el.constructor.controls.filter((x) => !x.hidden)) {
              const start = el[c.prop];
              const max = typeof c.max === 'function' ? c.max(el) : c.max;
              const middle = c.kind === 'log' ? Math.sqrt(c.min * max) : (c.min + max) / 2;
              for (const v of c.kind === 'choice' ? c.choices : [c.min, middle, max]) {
                el[c.prop] = v;
                window.__texts = [];
                el.render();
                out.push([`${c.prop} = ${v}`, window.__texts.splice(0)]);
              }
              el[c.prop] = start;
            }
            return out;
          }, tag);
          assert.ok(states.length > 0, `${name}: no controls`);
          for (const [state, texts] of states) wrong.push(...misplaced(texts).map((w) => `${name} at ${width} px, ${state}: ${w}`));
        }
        assert.deepEqual(problems, []);
      } finally {
        await context.close();
      }
    }
    assert.deepEqual(wrong, []);
  });
}

// configs whose context lengths lie close on the log axis (Qwen3 with YaRN
// as its model card enables it, Llama 3 scaling by 1.25, two with seven-digit
// labels, one with max_position_embeddings near the plot's top)
const CLOSE_LENGTHS = [
  ['qwen3 yarn 4', { hidden_size: 4096, num_attention_heads: 32, num_key_value_heads: 8, head_dim: 128, max_position_embeddings: 40960, rope_theta: 1000000, rope_scaling: { rope_type: 'yarn', factor: 4.0, original_max_position_embeddings: 32768 } }],
  ['llama3 1.25', { hidden_size: 4096, num_attention_heads: 32, max_position_embeddings: 10240, rope_theta: 500000, rope_scaling: { rope_type: 'llama3', factor: 1.25, low_freq_factor: 1, high_freq_factor: 4, original_max_position_embeddings: 8192 } }],
  ['yarn 2', { hidden_size: 4096, num_attention_heads: 32, max_position_embeddings: 8192, rope_theta: 10000, rope_scaling: { rope_type: 'yarn', factor: 2, original_max_position_embeddings: 4096 } }],
  ['yarn 4, seven digits', { hidden_size: 4096, num_attention_heads: 32, rope_theta: 10, max_position_embeddings: 4000000, rope_scaling: { rope_type: 'yarn', factor: 4, original_max_position_embeddings: 1000000 } }],
  ['near the top', { hidden_size: 4096, num_attention_heads: 32, rope_theta: 10, max_position_embeddings: 1500000 }],
];

test('rope-config: the context and sequence lines\' labels stay clear of each other, presets and configs with close lengths (320 and 1280 px)', async () => {
  for (const lang of ['en', 'ko']) {
    const tag = 'posnorm-rope-config';
    const { page, context, problems } = await open(env.browser, `${env.server.url}/web/figure.html?fig=rope-config&lang=${lang}`,
      { width: 320, height: 900, setup: (c) => c.addInitScript(recordTexts) });
    try {
      await startFigure(page, tag);
      const wrong = [];
      for (const width of [320, 1280]) {
        if (width !== 320) {
          const renders = await page.evaluate((t) => document.querySelector(t).renderTimes.length, tag);
          await page.setViewportSize({ width, height: 900 });
          await page.waitForFunction(({ t, n }) => document.querySelector(t).renderTimes.length > n, { t: tag, n: renders });
        }
        const states = await page.evaluate(async ([t, configs]) => {
          const el = document.querySelector(t);
          const { packConfig } = await import('/web/figures/rope-config.js');
          const out = [];
          const sweep = (name) => {
            const { contextLength, originalContextLength } = el.result;
            for (const mark of [contextLength, originalContextLength].filter(Boolean)) {
              for (const f of [0.8, 0.9, 0.95, 0.98, 1.02, 1.05, 1.1, 1.25, 1.5, 2]) {
                el.seqLen = Math.round(mark * f);
                window.__texts = [];
                el.render();
                out.push([`${name}, seqLen ${el.seqLen}`, window.__texts.splice(0)]);
              }
            }
          };
          for (const preset of el.constructor.controls.find((c) => c.prop === 'preset').choices.filter((p) => p !== 'custom')) {
            el.preset = preset;
            el.render();
            sweep(preset);
          }
          for (const [name, config] of configs) {
            el.preset = 'custom';
            el.config = await packConfig(JSON.stringify(config));
            await new Promise((resolve) => { const wait = () => (el.result?.contextLength === config.max_position_embeddings ? resolve() : setTimeout(wait, 20)); wait(); });
            sweep(name);
          }
          return out;
        }, [tag, CLOSE_LENGTHS]);
        assert.ok(states.length >= 7 * 10 + CLOSE_LENGTHS.length * 20, `${states.length} states`);
        for (const [state, texts] of states) wrong.push(...misplaced(texts).map((w) => `${width} px, ${state}: ${w}`));
      }
      assert.deepEqual(wrong, [], lang);
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  }
});

test('a title holding a control\'s value keeps the canvas\'s height while the control moves (phone widths)', async () => {
  // [figure, settings in the order applied]: each setting is [property, value]
  const drags = [
    ['compare', [['offset', 0], ['offset', 9], ['offset', 10], ['offset', 100], ['maxLen', 1], ['maxLen', 128], ['heads', 16],
      ...Array.from({ length: 16 }, (_, h) => ['head', h]), ['heads', 3], ['head', 2], ['heads', 1], ['offset', 0]]],
    ['waveform', [['dModel', 1024], ['i', 0], ['i', 9], ['i', 10], ['i', 99], ['i', 100], ['i', 511], ['base', 100], ['base', 100000], ['i', 0]]],
    ['precision', [['dModel', 16], ['dModel', 96], ['dModel', 1024], ['dModel', 512]]],
  ];
  // every 4 px across the widths of a phone, where the titles' wraps change
  const widths = Array.from({ length: 51 }, (_, k) => 320 + 4 * k);
  for (const lang of ['en', 'ko']) {
    for (const [name, settings] of drags) {
      const tag = `posnorm-${name}`;
      const { page, context, problems } = await open(env.browser, `${env.server.url}/web/figure.html?fig=${name}&lang=${lang}`, { width: 320, height: 900 });
      try {
        await startFigure(page, tag);
        const moved = [];
        for (const width of widths) {
          await page.setViewportSize({ width, height: 900 });
          await page.waitForFunction((t) => {
            const el = document.querySelector(t);
            return Math.round(el.shadowRoot.querySelector('canvas').getBoundingClientRect().width) === Math.round(el.shadowRoot.querySelector('canvas').width / devicePixelRatio);
          }, tag);
          await frames(page);
          const heights = await page.evaluate(([t, steps]) => {
            const el = document.querySelector(t);
            const canvas = el.shadowRoot.querySelector('canvas');
            el.render();
            const seen = [['before', canvas.style.height]];
            for (const [prop, value] of steps) {
              el[prop] = value;
              el.render();
              seen.push([`${prop} ${value}`, canvas.style.height]);
            }
            return seen;
          }, [tag, settings]);
          for (const [step, h] of heights) if (h !== heights[0][1]) moved.push(`${width} px, ${step}: ${heights[0][1]} -> ${h}`);
        }
        assert.deepEqual(moved, [], `${name} (${lang})`);
        assert.deepEqual(problems, []);
      } finally {
        await context.close();
      }
    }
  }
});
