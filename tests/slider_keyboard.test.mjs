// Every slider of every figure, by keyboard alone (Chromium): each figure
// shows exactly the sliders the docs list, one arrow key moves a slider by
// its design step, End reaches the documented max and Home the min,
// whatever the slider's step (a log
// slider's steps of 0.01 started at its min and stopped short of a max
// between two of them: precision's pos reached 16595869 of 16777215,
// rope-config's seqLen 2089296 of 2097152), and the arrow keys step both
// ways through a control that skips a value (block's heads: 1, 2, 4; it
// could not step down from 4, since 3 rounded back up).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { FIGURES } from '../web/figures/registry.js';
import { open, startFigure, useBrowser } from './browser/harness.mjs';

const env = useBrowser(before, after);

/**
 * Every figure's sliders, in the order the form shows them, written here
 * from docs/figures.md's reference table (not read from the controls):
 * min and max (a bound that depends on other controls as the docs' formula
 * of the figure's values at the time), a middle value on the slider's grid
 * (`from`) and where one ArrowRight takes it (`to`), worked by hand: a
 * linear slider moves by its step (1, or the docs' "by 2", "by 16"…; the
 * float controls by 0.1 or 0.05); a log slider multiplies by 10^logStep,
 * 0.01 of log10 (×1.023) unless it moves by powers of two (log10 2) or
 * decades (1), then the control's rounding (integers, powers of two,
 * decades): 1000 × 10^0.01 = 1023.29 → 1023, 100000 × 10^0.01 = 102329.3 →
 * 102329. `text` is what the number beside the slider and aria-valuetext
 * read where that is not String(value): [min, max, to].
 */
const SLIDERS = {
  order: {},
  heatmap: {
    dModel: { min: 2, max: 1024, from: 64, to: 65 },
    seqLen: { min: 1, max: 2048, from: 30, to: 31 },
    base: { min: 100, max: 100000, from: 1000, to: 1023 },
  },
  waveform: {
    i: { min: 0, max: (v) => v.dModel / 2 - 1, from: 4, to: 5 },
    pos: { min: 0, max: 100, from: 50, to: 51 },
    dModel: { min: 2, max: 1024, from: 64, to: 66 },
    base: { min: 100, max: 100000, from: 1000, to: 1023 },
  },
  properties: {
    dModel: { min: 4, max: 256, from: 64, to: 66 },
    seqLen: { min: 2, max: 200, from: 50, to: 51 },
    base: { min: 100, max: 100000, from: 1000, to: 1023 },
    k: { min: 1, max: 50, from: 5, to: 6 },
    pos: { min: 0, max: 200, from: 10, to: 11 },
    trainLen: { min: 10, max: 100, from: 40, to: 41 },
  },
  compare: {
    seqLen: { min: 4, max: 128, from: 32, to: 33 },
    dModel: { min: 4, max: 128, from: 32, to: 34 },
    base: { min: 100, max: 100000, from: 1000, to: 1023 },
    maxLen: { min: 1, max: 128, from: 20, to: 21 },
    heads: { min: 1, max: 16, from: 8, to: 9 },
    head: { min: 0, max: (v) => v.heads - 1, from: 3, to: 4 },
    offset: { min: 0, max: 100, from: 10, to: 11 },
  },
  'long-context': {
    trainLen: { min: 256, max: 16384, from: 1024, to: 2048 },
    factor: { min: 1, max: 32, from: 4, to: 8 },
    dim: { min: 16, max: 256, from: 64, to: 80 },
    base: { min: 1000, max: 1000000, from: 100000, to: 102329 },
    distance: { min: 0, max: (v) => v.trainLen * v.factor - 1, from: 1024, to: 1088 },
  },
  'rope-config': {
    seqLen: { min: 1, max: 2097152, from: 1000, to: 1023 },
    // rotaryDim/2 − 1 for the default preset, Llama-3.1-8B: head_dim 4096 / 32 = 128, 64 pairs
    pair: { min: 0, max: 63, from: 40, to: 41 },
  },
  precision: {
    dModel: { min: 16, max: 1024, from: 512, to: 528 },
    maxExp: { min: 8, max: 24, from: 12, to: 13 },
    base: { min: 100, max: 100000, from: 1000, to: 1023 },
    // 2^24 − 1 = 16777215 at maxExp 24
    pos: { min: 1, max: (v) => 2 ** v.maxExp - 1, from: 1000, to: 1023 },
  },
  depth: {
    layers: { min: 1, max: 96, from: 24, to: 25 },
    scale: { min: 0.1, max: 3, from: 1, to: 1.05 },
    width: { min: 8, max: 64, from: 32, to: 40 },
  },
  'ln-simulator': {
    features: { min: 8, max: 4096, from: 256, to: 257 },
    mu: { min: -10, max: 10, from: 3, to: 3.1 },
    sigma: { min: 0.1, max: 10, from: 2, to: 2.1 },
    gamma: { min: 0, max: 3, from: 1, to: 1.05 },
    beta: { min: -3, max: 3, from: 0, to: 0.05 },
    eps: { min: 1e-8, max: 1, from: 1e-3, to: 1e-2, text: ['1e-8', '1e+0', '1e-2'] },
  },
  'ln-steps': {
    gamma: { min: 0, max: 3, from: 1, to: 1.05 },
    beta: { min: -3, max: 3, from: 0, to: 0.05 },
  },
  'bn-vs-ln': {
    batch: { min: 1, max: 64, from: 8, to: 9 },
    features: { min: 2, max: 16, from: 6, to: 7 },
  },
  block: {
    dModel: { min: 8, max: 32, from: 16, to: 24 },
    heads: { min: 1, max: 4, from: 2, to: 4 },
  },
};

/** The figure's value of `prop`, its values, and what the slider's number and aria-valuetext read. */
const state = (page, tag, prop) => page.evaluate(([t, p]) => {
  const el = document.querySelector(t);
  const input = el.shadowRoot.querySelector(`input[name="${p}"]`);
  const output = el.shadowRoot.querySelector(`output[for="${input.id}"]`);
  return { value: el[p], values: el.values, valuetext: input.getAttribute('aria-valuetext'), output: output?.value };
}, [tag, prop]);

const frames = (page) => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));

/** Presses `key` on the slider of `prop`, waits a frame; returns state(). */
async function press(page, tag, prop, key) {
  await page.evaluate(([t, p]) => document.querySelector(t).shadowRoot.querySelector(`input[name="${p}"]`).focus(), [tag, prop]);
  await page.keyboard.press(key);
  await frames(page);
  return state(page, tag, prop);
}

test('every figure has exactly its sliders; on each, ArrowRight from a middle value moves by the design\'s step, End and Home reach the documented max and min, and its number and aria-valuetext follow every key', async () => {
  assert.deepEqual(FIGURES.map((f) => f.name).sort(), Object.keys(SLIDERS).sort(), 'a table entry per figure');
  for (const { name, tag } of FIGURES) {
    const { page, context, problems } = await open(env.browser, `${env.server.url}/web/figure.html?fig=${name}&lang=en`, { width: 1000 });
    try {
      await startFigure(page, tag);
      const props = await page.evaluate((t) => [...document.querySelector(t).shadowRoot.querySelectorAll('input[type=range]')].map((i) => i.name), tag);
      assert.deepEqual(props, Object.keys(SLIDERS[name]), `${name}: sliders [${props}], the docs list [${Object.keys(SLIDERS[name])}]`);
      for (const [prop, d] of Object.entries(SLIDERS[name])) {
        const text = (k, v) => d.text?.[k] ?? String(v);
        const shows = (s, want, at) => {
          assert.equal(s.valuetext, want, `${name} ${prop} ${at}: aria-valuetext "${s.valuetext}", the value is ${s.value}`);
          assert.equal(s.output, want, `${name} ${prop} ${at}: its <output> reads "${s.output}", the value is ${s.value}`);
        };
        // one step right from a middle value
        await page.evaluate(([t, p, v]) => { document.querySelector(t)[p] = v; }, [tag, prop, d.from]);
        await frames(page);
        assert.equal((await state(page, tag, prop)).value, d.from, `${name} ${prop}: set to ${d.from}`);
        const right = await press(page, tag, prop, 'ArrowRight');
        assert.equal(right.value, d.to, `${name} ${prop}: ArrowRight from ${d.from} gives ${right.value}, the design's step gives ${d.to}`);
        shows(right, text(2, d.to), `after ArrowRight from ${d.from}`);
        for (const [key, k] of [['End', 1], ['Home', 0], ['End', 1]]) {
          const s = await press(page, tag, prop, key);
          const b = k ? d.max : d.min;
          const want = typeof b === 'function' ? b(s.values) : b;
          assert.equal(s.value, want, `${name} ${prop}: ${key} gives ${s.value}, the documented ${k ? 'max' : 'min'} is ${want}`);
          shows(s, text(k, want), `after ${key}`);
        }
      }
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  }
});

test('block\'s heads slider steps 1 → 2 → 4 and back by the arrow keys', async () => {
  const tag = 'posnorm-block';
  const { page, context, problems } = await open(env.browser, `${env.server.url}/web/figure.html?fig=block&lang=en`, { width: 1000 });
  try {
    await startFigure(page, tag);
    const seen = [];
    for (const key of ['Home', 'ArrowRight', 'ArrowRight', 'ArrowRight', 'ArrowLeft', 'ArrowLeft', 'ArrowLeft']) {
      seen.push((await press(page, tag, 'heads', key)).value);
    }
    assert.deepEqual(seen, [1, 2, 4, 4, 2, 1, 1]);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('a log slider rounded to integers moves by an arrow key at its smallest values too (precision pos 1 → 2 → 3; rope-config seqLen from 20), as the native step does higher up', async () => {
  for (const [name, prop, start, keys, want] of [
    ['precision', 'pos', 'Home', ['ArrowRight', 'ArrowRight', 'ArrowUp', 'ArrowLeft', 'ArrowDown', 'ArrowLeft', 'ArrowLeft'], [1, 2, 3, 4, 3, 2, 1, 1]],
    ['rope-config', 'seqLen', null, ['ArrowRight', 'ArrowRight', 'ArrowLeft'], [20, 21, 22, 21]],
  ]) {
    const tag = `posnorm-${name}`;
    const { page, context, problems } = await open(env.browser, `${env.server.url}/web/figure.html?fig=${name}&lang=en${start ? '' : '&seq-len=20'}`, { width: 1000 });
    try {
      await startFigure(page, tag);
      const seen = [start ? (await press(page, tag, prop, start)).value : await page.evaluate(([t, p]) => document.querySelector(t)[p], [tag, prop])];
      for (const key of keys) seen.push((await press(page, tag, prop, key)).value);
      assert.deepEqual(seen, want, `${name} ${prop}`);
      // held or pressed again and again, every press moves it, both ways (the
      // first version stuck at 22 going up and at 25, 28, 30, 32 going down)
      if (name === 'precision') {
        const up = [], down = [];
        for (let k = 0; k < 45; k++) up.push((await press(page, tag, prop, 'ArrowRight')).value);
        for (let k = 0; k < 30; k++) down.push((await press(page, tag, prop, 'ArrowLeft')).value);
        assert.ok(up.every((v, k) => v > (k ? up[k - 1] : 1)), `up: ${up}`);
        assert.ok(down.every((v, k) => v < (k ? down[k - 1] : up.at(-1))), `down: ${down}`);
        // right to left, the browser turns the arrows round, at small values as above them
        await page.evaluate((t) => { const el = document.querySelector(t); el.dir = 'rtl'; el.pos = 5; }, tag);
        const rtl = [(await press(page, tag, prop, 'ArrowLeft')).value];
        await page.evaluate((t) => { document.querySelector(t).pos = 100; }, tag);
        rtl.push((await press(page, tag, prop, 'ArrowLeft')).value);
        assert.ok(rtl[0] > 5 && rtl[1] > 100, `ArrowLeft right to left: 5 → ${rtl[0]}, 100 → ${rtl[1]}`);
        await page.evaluate((t) => { document.querySelector(t).dir = 'ltr'; }, tag);
      }
      // higher up the slider's own step moves it: ×1.023 from 65536 (precision's default) rounds to 67057
      if (name === 'precision') {
        await page.evaluate((t) => { document.querySelector(t).pos = 65536; }, tag);
        assert.equal((await press(page, tag, prop, 'ArrowRight')).value, Math.round(10 ** (Math.round(Math.log10(65536) * 100) / 100 + 0.01)));
      }
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  }
});
