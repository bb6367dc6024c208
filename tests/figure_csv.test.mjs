// Every figure's toCsv() in Chromium gives the numbers of its current
// values, also when called right after a change, before the frame that draws
// it (the Download data button, or a script, may ask at any moment): the CSV
// then equals the one read after the repaint. The properties figure's rows
// are also held to the published formula in float64.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { open, startFigure, useBrowser } from './browser/harness.mjs';
import { FIGURES as REGISTRY } from '../web/figures/registry.js';

const env = useBrowser(before, after);

test('toCsv() right after a change of a size control gives the new values\' numbers, as after the repaint', async () => {
  const { page, context, problems } = await open(env.browser, `${env.server.url}/web/`);
  const checked = [], differ = [];
  for (const { tag } of REGISTRY) {
    await startFigure(page, tag);
    const r = await page.evaluate(async (t) => {
      const el = document.querySelector(t);
      const frame = () => new Promise((res) => requestAnimationFrame(() => requestAnimationFrame(res)));
      // the first visible numeric control, moved to a value between its ends other than its own
      const c = el.constructor.controls.find((x) => !x.hidden && x.kind !== 'choice' && x.kind !== 'text');
      if (!c) return null;
      const lo = typeof c.min === 'function' ? c.min(el) : c.min, hi = typeof c.max === 'function' ? c.max(el) : c.max;
      const before = el[c.prop];
      let v = c.kind === 'log' ? Math.round(Math.sqrt(lo * hi)) : Math.round((lo + 2 * hi) / 3);
      if (c.round) v = c.round(v);
      if (v === before) v = c.round ? c.round(lo) : lo;
      el[c.prop] = v;
      const now = el.toCsv();
      await frame();
      return { prop: c.prop, before, value: el[c.prop], now, later: el.toCsv() };
    }, tag);
    if (!r) continue;
    assert.notEqual(r.value, r.before, `${tag}: ${r.prop} changed`);
    // (the CSVs are long: only which figure, and where they part)
    let at = 0;
    while (at < r.now.length && r.now[at] === r.later[at]) at++;
    if (r.now !== r.later) differ.push(`${tag} (${r.prop} = ${r.value}): the CSVs part at character ${at}: ${JSON.stringify(r.now.slice(at, at + 40))} vs ${JSON.stringify(r.later.slice(at, at + 40))}`);
    checked.push(tag);
  }
  assert.deepEqual(differ, [], 'toCsv() before the repaint differs from toCsv() after it');
  assert.ok(checked.length >= 8, `figures with a size control: ${checked.join(' ')}`);
  assert.deepEqual(problems, []);
  await context.close();
});

test('the properties figure\'s CSV right after a d_model change is the PE matrix of the new size (float64 formula)', async () => {
  const { page, context, problems } = await open(env.browser, `${env.server.url}/web/figure.html?fig=properties&lang=en`);
  await startFigure(page, 'posnorm-properties');
  const csv = await page.evaluate(() => {
    const el = document.querySelector('posnorm-properties');
    el.dModel = 62;
    return { text: el.toCsv(), seqLen: el.seqLen, base: el.base };
  });
  const rows = csv.text.trim().split('\n');
  assert.equal(rows[0].split(',').length, 1 + 62);
  assert.equal(rows.length, 1 + csv.seqLen);
  for (const p of [1, csv.seqLen - 1]) {
    const cells = rows[1 + p].split(',').map(Number);
    assert.equal(cells[0], p);
    for (let d = 0; d < 62; d++) {
      const w = Math.pow(csv.base, -(2 * Math.floor(d / 2)) / 62);
      const want = d % 2 ? Math.cos(p * w) : Math.sin(p * w);
      assert.ok(Math.abs(cells[1 + d] - want) <= 2e-7, `pos ${p} dim ${d}: ${cells[1 + d]} vs ${want}`);
    }
  }
  assert.deepEqual(problems, []);
  await context.close();
});
