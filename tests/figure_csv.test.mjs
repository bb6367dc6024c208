// Every figure's toCsv() in Chromium gives the numbers of its current
// values, also when called right after a change, before the frame that draws
// it (the Download data button, or a script, may ask at any moment): the CSV
// then equals the one read after the repaint. The properties figure's rows
// are also held to the published formula in float64, and the columns of
// rope-config's, bn-vs-ln's and waveform's to float64 formulas at the defaults.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { open, startFigure, useBrowser } from './browser/harness.mjs';
import { FIGURES as REGISTRY } from '../web/figures/registry.js';
import { batchNorm, columnStats, layerNorm } from './reference/norms.mjs';

const env = useBrowser(before, after);

test('toCsv() right after a change of any control gives the new values\' numbers, as after the repaint; every figure has a control that changes its CSV', async () => {
  const { page, context, problems } = await open(env.browser, `${env.server.url}/web/`);
  const differ = [], unchanged = [];
  let checked = 0;
  for (const { tag } of REGISTRY) {
    await startFigure(page, tag);
    const r = await page.evaluate(async (t) => {
      const el = document.querySelector(t);
      const frame = () => new Promise((res) => requestAnimationFrame(() => requestAnimationFrame(res)));
      const out = { own: Object.hasOwn(el.constructor.prototype, 'toCsv'), steps: [] };
      for (const c of el.constructor.controls.filter((x) => !x.hidden && x.kind !== 'text')) {
        const old = el[c.prop], before = el.toCsv();
        let v;
        if (c.kind === 'choice') v = c.choices[(c.choices.indexOf(old) + 1) % c.choices.length];
        else {
          const lo = typeof c.min === 'function' ? c.min(el) : c.min, hi = typeof c.max === 'function' ? c.max(el) : c.max;
          v = c.kind === 'log' ? Math.round(Math.sqrt(lo * hi)) : Math.round((lo + 2 * hi) / 3);
          if (c.round) v = c.round(v);
          if (v === old) v = c.round ? c.round(lo) : lo;
        }
        el[c.prop] = v;
        const now = el.toCsv();
        await frame();
        const later = el.toCsv();
        let at = 0;
        while (at < now.length && now[at] === later[at]) at++;
        out.steps.push({ prop: c.prop, value: el[c.prop], moved: !Object.is(el[c.prop], old), same: now === later, changed: later !== before, at, now: now.slice(at, at + 40), later: later.slice(at, at + 40) });
        el[c.prop] = old;
        await frame();
      }
      return out;
    }, tag);
    assert.equal(r.own, false, `${tag} implements csv(), not toCsv() (which draws a pending change first)`);
    for (const s of r.steps) {
      assert.ok(s.moved, `${tag}: ${s.prop} moved`);
      checked++;
      // (the CSVs are long: only which figure, and where they part)
      if (!s.same) differ.push(`${tag} ${s.prop} = ${s.value}: the CSVs part at character ${s.at}: ${JSON.stringify(s.now)} vs ${JSON.stringify(s.later)}`);
    }
    if (!r.steps.some((s) => s.changed)) unchanged.push(tag);
  }
  assert.deepEqual(differ, [], 'toCsv() before the repaint differs from toCsv() after it');
  assert.deepEqual(unchanged, [], 'figures no control of which changes the CSV (the comparison above would say nothing)');
  assert.ok(checked >= 30, `${checked} controls`);
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

test('rope-config\'s CSV follows the config shown: a custom one still to paste, or a link that cannot be read, has no rows (it gave the preset before\'s)', async () => {
  const { page, context, problems } = await open(env.browser, `${env.server.url}/web/figure.html?fig=rope-config&lang=en&preset=mistral-7b-v0.1`);
  await startFigure(page, 'posnorm-rope-config');
  const r = await page.evaluate(async () => {
    const el = document.querySelector('posnorm-rope-config');
    const header = 'pair,inv_freq_plain,inv_freq,wavelength,class\n';
    const preset = el.toCsv().split('\n').length;
    el.preset = 'custom';
    const custom = el.toCsv();
    el.config = 'AAAA'; // no packed config: shown as an error once unpacking fails
    // (up to 20 s: the unpacking runs a DecompressionStream, then a frame)
    for (let k = 0; k < 400 && !el.result?.error; k++) await new Promise((res) => setTimeout(res, 50));
    return { preset, custom: custom === header, bad: Boolean(el.result?.error) && el.toCsv() === header };
  });
  // Mistral 7B v0.1: head_dim 128, 64 pairs, a row each after the header
  assert.deepEqual(r, { preset: 1 + 64 + 1, custom: true, bad: true });
  assert.deepEqual(problems, []);
  await context.close();
});

test('rope-config\'s CSV asked for before the figure has started is the header, and the figure then starts with its config (a first version cached an error there)', async () => {
  const { page, context, problems } = await open(env.browser, `${env.server.url}/web/figure.html?fig=rope-config&lang=en`);
  await startFigure(page, 'posnorm-rope-config');
  const r = await page.evaluate(async () => {
    // a second one, made but not yet on the page: not started
    const el = document.createElement('posnorm-rope-config');
    const early = el.toCsv();
    document.body.append(el);
    el.scrollIntoView();
    for (let k = 0; k < 200 && !(el.result && 'ropeType' in el.result); k++) await new Promise((res) => setTimeout(res, 50));
    return { early, error: el.result?.error ?? null, type: el.result?.ropeType, rows: el.toCsv().trim().split('\n').length };
  });
  assert.equal(r.early, 'pair,inv_freq_plain,inv_freq,wavelength,class\n');
  // Llama 3.1 8B, the default preset: rope type llama3, head_dim 128, 64 pairs
  assert.deepEqual([r.error, r.type, r.rows], [null, 'llama3', 1 + 64]);
  assert.deepEqual(problems, []);
  await context.close();
});

/** The CSV of figure `name` at its defaults, on figure.html: its header and its rows, split at commas. */
async function defaultCsv(name, tag) {
  const { page, context, problems } = await open(env.browser, `${env.server.url}/web/figure.html?fig=${name}&lang=en`);
  try {
    await startFigure(page, tag);
    const { csv, values } = await page.evaluate((t) => ({ csv: document.querySelector(t).toCsv(), values: document.querySelector(t).values }), tag);
    const [head, ...rows] = csv.trim().split('\n').map((l) => l.split(','));
    assert.deepEqual(problems, []);
    return { head, rows, values };
  } finally {
    await context.close();
  }
}

test('the CSVs of rope-config, bn-vs-ln and waveform hold the numbers of their columns (float64 formulas, at the defaults)', async () => {
  // rope-config, Llama 3.1 8B: θ 500000, head dim 128, llama3 ×8 with low/high frequency factors
  // 1 and 4 over an original 8192: the fastest pair is kept, the slowest divided by 8
  const rc = await defaultCsv('rope-config', 'posnorm-rope-config');
  assert.equal(rc.rows.length, 64);
  const near = (a, b, rel) => Math.abs(a - b) <= rel * Math.abs(b);
  for (const [i, cls, divisor] of [[0, 'kept', 1], [63, 'interpolated', 8]]) {
    const [pair, plain, invFreq, wavelength, kind] = rc.rows[i];
    const want = 500000 ** (-2 * i / 128);
    assert.equal(Number(pair), i);
    assert.ok(near(Number(plain), want, 2 ** -23), `pair ${i}: plain ${plain} vs ${want}`);
    assert.ok(near(Number(invFreq), want / divisor, 2 ** -23), `pair ${i}: inv_freq ${invFreq} vs ${want / divisor}`);
    assert.ok(near(Number(wavelength), (2 * Math.PI * divisor) / want, 1e-6), `pair ${i}: wavelength ${wavelength}`);
    assert.equal(kind, cls);
  }
  // bn-vs-ln, 8 × 6 in training: LayerNorm normalises each row, BatchNorm each column
  // (biased variance, eps 1e-5), in float64 from the CSV's own x
  const bl = await defaultCsv('bn-vs-ln', 'posnorm-bn-vs-ln');
  const rows = bl.rows.map((r) => r.map(Number));
  assert.equal(rows.length, 8 * 6);
  const [X, BN, LN, B, H] = ['x', 'batchnorm', 'layernorm', 'row', 'col'].map((name) => bl.head.indexOf(name));
  assert.ok([X, BN, LN, B, H].every((k) => k >= 0), `columns ${bl.head}`);
  // the rows in row-major order, as the reference takes them
  rows.forEach((t, k) => assert.deepEqual([t[B], t[H]], [Math.floor(k / 6), k % 6], `CSV row ${k}`));
  const x = rows.map((t) => t[X]);
  const ln = layerNorm(x, 6, { eps: 1e-5 }).y, bn = batchNorm(x, 6, { ...columnStats(x, 6), eps: 1e-5 });
  rows.forEach((t, k) => {
    assert.ok(Math.abs(t[LN] - ln[k]) <= 1e-5, `layernorm at ${t[B]}, ${t[H]}: ${t[LN]} vs ${ln[k]}`);
    assert.ok(Math.abs(t[BN] - bn[k]) <= 1e-5, `batchnorm at ${t[B]}, ${t[H]}: ${t[BN]} vs ${bn[k]}`);
  });
  // waveform: positions 0 to 100, each row sin and cos of pos·ω_0 (ω_0 = 1) and of pos·ω_i,
  // ω_i = base^(−2i/d_model) (the float32 angle's rounding: 1e-7·pos·ω more)
  const wf = await defaultCsv('waveform', 'posnorm-waveform');
  const { i, dModel, base } = wf.values;
  assert.deepEqual(wf.head, ['pos', 'sin_pair0', 'cos_pair0', `sin_pair${i}`, `cos_pair${i}`]);
  assert.ok(i > 0, `pair ${i}`);
  assert.deepEqual([Number(wf.rows[0][0]), Number(wf.rows.at(-1)[0])], [0, 100]);
  const w = base ** ((-2 * i) / dModel);
  for (const r of [wf.rows[1], wf.rows[wf.rows.length >> 1], wf.rows.at(-1)]) {
    const [pos, s0, c0, si, ci] = r.map(Number);
    const want = [Math.sin(pos), Math.cos(pos), Math.sin(pos * w), Math.cos(pos * w)];
    [s0, c0, si, ci].forEach((v, k) => assert.ok(Math.abs(v - want[k]) <= 2e-7 + 1e-7 * pos * (k < 2 ? 1 : w), `${wf.head[k + 1]} at ${pos}: ${v} vs ${want[k]}`));
  }
});
