// Figures that keep parts of their work between repaints (compare's tables,
// scores and bias, drawMatrix's painted pixels) must show what a fresh
// figure with the same values shows, after any sequence of control changes:
// in headless Chromium, each change is made on one kept figure, then a new
// figure is made with the same values; their canvases must be the same
// pixels and their results the same numbers, and the results must match the
// published formulas (tests/reference/).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { openHtml, pixels, startFigure, useBrowser } from './browser/harness.mjs';
import { alibiBias, alibiSlopes } from './reference/alibi.mjs';
import en from '../web/i18n/en.js';
import ko from '../web/i18n/ko/compare.js';

const env = useBrowser(before, after);
const frames = (page) => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));

test('compare: after each of a sequence of control changes, the kept figure paints and reports what a fresh one does', async () => {
  const tag = 'posnorm-compare';
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>t</title></head><body>
<div style="width:640px"><${tag} id="kept" lang="en"></${tag}></div><div style="width:640px" id="fresh"></div>
<script type="module" src="/web/figures/compare.js"></script></body></html>`;
  const { page, context, problems } = await openHtml(env.browser, env.server.url, html);
  await startFigure(page, '#kept');
  // every control at least once, some twice, each change alone
  const steps = [['offset', 57], ['head', 5], ['seqLen', 17], ['dModel', 10], ['heads', 12], ['head', 11], ['base', 500],
    ['maxLen', 5], ['seqLen', 40], ['offset', 0], ['dModel', 64], ['heads', 3], ['maxLen', 128]];
  for (const [prop, value] of steps) {
    const values = await page.evaluate(([p, v]) => {
      const el = document.querySelector('#kept');
      el[p] = v;
      return el.values;
    }, [prop, value]);
    await frames(page);
    await page.evaluate((v) => {
      const el = Object.assign(document.createElement('posnorm-compare'), { lang: 'en' });
      document.querySelector('#fresh').replaceChildren(el);
      Object.assign(el, v);
    }, values);
    await startFigure(page, '#fresh posnorm-compare');
    await page.locator('#kept').scrollIntoViewIfNeeded();
    await frames(page);
    const read = (sel) => page.evaluate((s) => {
      const r = document.querySelector(s).result;
      return { s0: r.ropeScores[0], s1: r.ropeScores[1], slopes: [...r.slopes], bias: [...r.bias], learnedRows: r.learnedRows, diff: r.ropeDiff };
    }, sel);
    const kept = await read('#kept'), fresh = await read('#fresh posnorm-compare');
    const at = `after ${prop} = ${value}`;
    assert.deepEqual(kept, fresh, `results ${at}`);
    assert.deepEqual(await pixels(page, '#kept'), await pixels(page, '#fresh posnorm-compare'), `pixels ${at}`);
    // and the numbers are the formulas' for these values, not the last ones'
    const { heads, head, seqLen, maxLen } = values;
    assert.deepEqual(kept.slopes, [...alibiSlopes(heads)].map(Math.fround), `slopes ${at}`);
    const bias = alibiBias(heads, seqLen).subarray(head * seqLen * seqLen, (head + 1) * seqLen * seqLen);
    assert.deepEqual(kept.bias, [...bias].map(Math.fround), `bias of head ${head} ${at}`);
    assert.equal(kept.s0.length, seqLen, `scores ${at}`);
    assert.equal(kept.learnedRows, Math.min(maxLen, seqLen), `learned rows ${at}`);
  }
  // the article's table is kept too, and follows the language
  const table = () => page.evaluate(() => [...document.querySelector('#kept').shadowRoot.querySelectorAll('table tr')].map((tr) => [...tr.cells].map((c) => c.textContent)));
  assert.deepEqual(await table(), en.cmpTable);
  await page.evaluate(() => { document.querySelector('#kept').lang = 'ko'; });
  await frames(page);
  assert.deepEqual(await table(), ko.cmpTable);
  assert.deepEqual(problems, []);
  await context.close();
});
