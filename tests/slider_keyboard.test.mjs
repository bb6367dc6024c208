// Every slider of every figure, by keyboard alone (Chromium): End reaches
// the control's max and Home its min, whatever the slider's step (a log
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

/** Presses `key` on the slider of `prop`, waits a frame; returns the figure's value and the bound asked for. */
async function press(page, tag, prop, key, boundKey) {
  await page.evaluate(([t, p]) => document.querySelector(t).shadowRoot.querySelector(`input[name="${p}"]`).focus(), [tag, prop]);
  await page.keyboard.press(key);
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  return page.evaluate(([t, p, b]) => {
    const el = document.querySelector(t);
    const c = el.constructor.controls.find((k) => k.prop === p);
    const bound = b && (typeof c[b] === 'function' ? c[b](el) : c[b]);
    return { value: el[p], bound };
  }, [tag, prop, boundKey]);
}

test('End and Home reach every slider\'s max and min', async () => {
  let sliders = 0;
  for (const { name, tag } of FIGURES) {
    const { page, context, problems } = await open(env.browser, `${env.server.url}/web/figure.html?fig=${name}&lang=en`, { width: 1000 });
    try {
      await startFigure(page, tag);
      const props = await page.evaluate((t) => [...document.querySelector(t).shadowRoot.querySelectorAll('input[type=range]')].map((i) => i.name), tag);
      for (const prop of props) {
        for (const [key, b] of [['End', 'max'], ['Home', 'min'], ['End', 'max']]) {
          const { value, bound } = await press(page, tag, prop, key, b);
          assert.equal(value, bound, `${name} ${prop}: ${key} gives ${value}, its ${b} is ${bound}`);
        }
        sliders++;
      }
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  }
  assert.ok(sliders >= 30, `${sliders} sliders`);
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
