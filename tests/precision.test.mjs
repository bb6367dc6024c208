// <posnorm-precision> in Chromium: its readouts against float64 and against
// a float32 emulation of the article's PyTorch code with Math.fround
// (tests/reference/pe.mjs, not posnorm's kernel).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { open, startFigure, useBrowser } from './browser/harness.mjs';
import { float32CodeRow as float32Row, frequency, peValue } from './reference/pe.mjs';
import { peLowPrecision, rounder } from './reference/lowprec.mjs';

const env = useBrowser(before, after);
const tag = 'posnorm-precision';

/**
 * Sets the figure's type, compute, pos (and any other control) and waits
 * for the render that drew them: a render that was already due (resize,
 * language) can land first.
 */
async function applySetting(page, setting) {
  const n = await page.evaluate((t) => document.querySelector(t).renderTimes.length, tag);
  await page.evaluate(([t, s]) => Object.assign(document.querySelector(t), s), [tag, setting]);
  await page.waitForFunction(([t, k, s]) => {
    const el = document.querySelector(t), r = el.result;
    return el.renderTimes.length > k && r && r.p === s.pos && r.type === s.type && r.compute === s.compute;
  }, [tag, n, setting]);
}
test('precision: errors, neighbour distances and the blur position equal float64 and the float32 emulation', async () => {
  const { page, problems, context } = await open(env.browser, `${env.server.url}/web/figure.html?fig=precision&lang=en`, { width: 800 });
  await page.waitForFunction((t) => document.querySelector(t)?.renderTimes?.length > 0, tag, { timeout: 15000 });
  for (const setting of [null, { dModel: 64, pos: 3000000, base: 500 }, { dModel: 1024, maxExp: 16, pos: 40000 }]) {
    if (setting) {
      const n = await page.evaluate((t) => document.querySelector(t).renderTimes.length, tag);
      await page.evaluate(([t, s]) => Object.assign(document.querySelector(t), s), [tag, setting]);
      // wait for the render that drew this setting (one already due can land first)
      await page.waitForFunction(([t, k, s]) => document.querySelector(t).renderTimes.length > k && document.querySelector(t).result?.p === s.pos, [tag, n, setting]);
    }
    const r = await page.evaluate((t) => { const el = document.querySelector(t); return { ...el.values, result: el.result, text: el.shadowRoot.querySelector('.readout').textContent }; }, tag);
    const { dModel: d, base, pos: p } = r;
    const w = (i) => frequency(i, d, base);
    const row = float32Row(p, d, base);
    let err = 0, sq = 0;
    for (let c = 0; c < d; c++) {
      const ec = Math.abs(row[c] - (c % 2 ? Math.cos : Math.sin)(p * w(c >> 1)));
      err = Math.max(err, ec);
      sq += ec * ec;
    }
    assert.ok(Math.abs(r.result.err32 - err) <= 1e-6 * err + 2e-7, `max error of the float32 code at ${p}: ${r.result.err32} vs ${err}`);
    // the error's length over the row, sqrt(Σ_c (code_c − exact_c)²)
    const norm = Math.sqrt(sq);
    assert.ok(Math.abs(r.result.errNorm32 - norm) <= 1e-6 * norm + 2e-7 * Math.sqrt(d), `length of the float32 code's error at ${p}: ${r.result.errNorm32} vs ${norm}`);
    // posnorm's own error at the cursor: how far the float64 values lie from
    // the nearest float32, give or take what the float64 values of this
    // test, the figure and posnorm may differ by (a few ulp of p·w_i)
    let rounded = 0;
    for (let c = 0; c < d; c++) {
      const v = (c % 2 ? Math.cos : Math.sin)(p * w(c >> 1));
      rounded = Math.max(rounded, Math.abs(Math.fround(v) - v));
    }
    assert.ok(r.result.err64 < 2e-7 && Math.abs(r.result.err64 - rounded) <= 2e-15 * (p + 1), `posnorm's own error ${r.result.err64}, ${rounded} give or take ${2e-15 * (p + 1)}`);
    // the true neighbour distance is the same at every position: sqrt(Σ_i 2 − 2·cos w_i)
    let s = 0;
    for (let i = 0; i < d / 2; i++) s += 2 - 2 * Math.cos(w(i));
    assert.ok(Math.abs(r.result.dist64 - Math.sqrt(s)) <= 1e-9 * Math.sqrt(s), `float64 neighbour distance ${r.result.dist64} vs ${Math.sqrt(s)}`);
    // the blur position: the first sample where some pair's error reaches its step
    const blurAt = (q) => {
      const e = float32Row(q, d, base);
      let worst = 0;
      for (let i = 0; i < d / 2; i++) worst = Math.max(worst, Math.hypot(e[2 * i] - Math.sin(q * w(i)), e[2 * i + 1] - Math.cos(q * w(i))) / (2 * Math.sin(w(i) / 2)));
      return worst;
    };
    const samples = r.result.samples.map((x) => x.p);
    const first = samples.find((q) => blurAt(q) >= 1) ?? null;
    assert.equal(r.result.crossover, first, `blur position (d ${d}, base ${base})`);
    // every sample's errors, not only the cursor's: the float32 code's against
    // the emulation, posnorm's own below 2e-7 (the samples share two arrays
    // the figure reuses from one to the next)
    for (const sample of r.result.samples) {
      const code = float32Row(sample.p, d, base);
      let e = 0;
      for (let c = 0; c < d; c++) e = Math.max(e, Math.abs(code[c] - (c % 2 ? Math.cos : Math.sin)(sample.p * w(c >> 1))));
      assert.ok(Math.abs(sample.err32 - e) <= 1e-6 * e + 2e-7, `sample at ${sample.p}: float32 code error ${sample.err32} vs ${e}`);
      assert.ok(sample.err64 < 2e-7, `sample at ${sample.p}: posnorm's error ${sample.err64}`);
    }
    assert.match(r.text, new RegExp(`pos ${p}: max error of the float32 code`));
  }
  assert.deepEqual(problems, []);
  await context.close();
});

test('every PE figure reads out the max error of what it draws against float64, for posnorm and the float32 code', async () => {
  // every figure away from its defaults, and the sizes each must report (what it draws), from these settings alone
  const settings = 'heatmap.d-model=48&heatmap.seq-len=24&heatmap.base=500&heatmap.layout=concat'
    + '&waveform.d-model=40&waveform.i=7&properties.seq-len=30&properties.base=700&compare.seq-len=12&compare.d-model=20';
  const drawn = {
    'posnorm-heatmap': { seqLen: 24, dModel: 48, base: 500, layout: 'concat' },
    // the waveform draws positions 0-100 of dims 0, 1 (the reference pair) and 2i, 2i+1 (the selected pair)
    'posnorm-waveform': { seqLen: 101, dModel: 40, base: 10000, dims: [0, 1, 14, 15] },
    'posnorm-properties': { seqLen: 30, dModel: 64, base: 700 },
    'posnorm-compare': { seqLen: 12, dModel: 20, base: 10000 },
  };
  const { page, problems, context } = await open(env.browser, `${env.server.url}/web/?lang=en&${settings}`, { width: 1000 });
  for (const tag of ['posnorm-heatmap', 'posnorm-waveform', 'posnorm-properties', 'posnorm-compare']) {
    await startFigure(page, tag);
    await page.waitForFunction((t) => document.querySelector(t)?.peErrors, tag, { timeout: 15000 });
    const r = await page.evaluate((t) => {
      const el = document.querySelector(t);
      return { sizes: el.peErrors.sizes, posnorm: el.peErrors.posnorm, float32: el.peErrors.float32, csv: t === 'posnorm-heatmap' ? el.toCsv() : null, line: el.shadowRoot.querySelector('.pe-error').textContent };
    }, tag);
    const want = drawn[tag];
    assert.deepEqual(Object.fromEntries(Object.keys(want).map((k) => [k, r.sizes[k]])), want, `${tag}: the error line is of what the figure draws`);
    const { seqLen, dModel: d, base = 10000, layout = 'interleaved', dims } = r.sizes;
    const half = Math.ceil(d / 2);
    const cols = dims ?? Array.from({ length: d }, (_, c) => c);
    let e32 = 0, e64 = 0;
    const rows = r.csv ? r.csv.trim().split('\n').slice(1).map((l) => l.split(',').slice(1).map(Number)) : null;
    for (let p = 0; p < seqLen; p++) {
      const code = float32Row(p, d, base); // interleaved columns
      for (const c of cols) {
        const [i, isCos] = layout === 'concat' ? (c < half ? [c, false] : [c - half, true]) : [c >> 1, c % 2 === 1];
        const ref = peValue(p, c, d, { base, layout });
        e32 = Math.max(e32, Math.abs(code[2 * i + (isCos ? 1 : 0)] - ref));
        if (rows) e64 = Math.max(e64, Math.abs(rows[p][c] - ref));
      }
    }
    assert.ok(Math.abs(r.float32 - e32) <= 1e-6 * e32 + 1.2e-7, `${tag}: float32 code error ${r.float32} vs ${e32}`);
    assert.ok(r.posnorm < 2e-7, `${tag}: posnorm's error ${r.posnorm}`);
    if (rows) assert.ok(Math.abs(r.posnorm - e64) <= 1e-12, `${tag}: posnorm's error from the drawn matrix ${r.posnorm} vs ${e64}`);
    assert.match(r.line, /max error of what is drawn against float64: posnorm .+; the article's float32 code at the same sizes /);
  }
  assert.deepEqual(problems, []);
  await context.close();
});

test('precision: the type selector — bfloat16/float16 errors, exact positions and constant columns equal the bit emulation; the link keeps the type', async () => {
  const { page, problems, context } = await open(env.browser, `${env.server.url}/web/figure.html?fig=precision&lang=en`, { width: 360 });
  await page.waitForFunction((t) => document.querySelector(t)?.renderTimes?.length > 0, tag, { timeout: 15000 });
  const settings = [
    { type: 'bfloat16', compute: 'low', dModel: 128, pos: 300 },
    { type: 'bfloat16', compute: 'float32', dModel: 512, pos: 1000 },
    { type: 'float16', compute: 'low', dModel: 64, pos: 1857 },
    { type: 'float16', compute: 'float32', dModel: 256, pos: 100000 },
  ];
  for (const setting of settings) {
    await applySetting(page, setting);
    const r = await page.evaluate((t) => { const el = document.querySelector(t); return { attrs: { type: el.getAttribute('type'), compute: el.getAttribute('compute') }, result: el.result, text: el.shadowRoot.querySelector('.readout').textContent }; }, tag);
    const { type: precision, compute, dModel: d, pos: p } = setting;
    assert.deepEqual(r.attrs, { type: precision, compute }, 'reflected attributes');
    const row = peLowPrecision({ seqLen: 1, dModel: d, offset: p, precision, compute });
    let err = 0;
    for (let c = 0; c < d; c++) err = Math.max(err, Math.abs(row[c] - (c % 2 ? Math.cos : Math.sin)(p * frequency(c >> 1, d, 10000))));
    assert.ok(Math.abs(r.result.err32 - err) <= 1e-6 * err + 2e-7, `${precision}/${compute} max error at ${p}: ${r.result.err32} vs ${err}`);
    // positions: exact integers up to 2^(significant bits) when they are cast (compute 'low')
    const exact = compute === 'low' ? { bfloat16: 256, float16: 2048 }[precision] : 2 ** 24;
    assert.equal(r.result.exact, exact);
    assert.equal(r.result.stored, compute === 'low' ? rounder(precision)(p) : p);
    // the first column from which every cos column is 1 in the emulated row
    let first = null;
    for (let c = d - 1; c >= 1 && row[c] === 1; c -= 2) first = c;
    assert.equal(r.result.constantFrom, first, `${precision}/${compute}: constant from`);
    assert.match(r.text, new RegExp(`max error of the ${precision} code`));
    assert.match(r.text, new RegExp(`Positions in ${compute === 'low' ? precision : 'float32'} are exact integers up to ${exact}`));
  }
  // bfloat16 at pos 301 with compute 'low': stored as 300, the spacing there
  // is 2 and 300's significand (150) is even, so both ties round to it:
  // 299, 300 and 301 share it
  await page.evaluate((t) => Object.assign(document.querySelector(t), { type: 'bfloat16', compute: 'low', pos: 301 }), tag);
  await page.waitForFunction((t) => document.querySelector(t).result.p === 301, tag);
  const r = await page.evaluate((t) => document.querySelector(t).result, tag);
  assert.deepEqual([r.stored, r.share], [300, 3]);
  // the share link carries the type and compute
  const link = await page.evaluate((t) => document.querySelector(t).shareUrl(), tag);
  assert.match(link, /type=bfloat16/);
  assert.match(link, /compute=low/);
  // and opening it restores them
  const again = await context.newPage();
  await again.goto(link);
  await again.waitForFunction((t) => document.querySelector(t)?.renderTimes?.length > 0, tag, { timeout: 15000 });
  assert.deepEqual(await again.evaluate((t) => { const el = document.querySelector(t); return [el.type, el.compute, el.pos]; }, tag), ['bfloat16', 'low', 301]);
  assert.deepEqual(problems, []);
  await context.close();
});

test('precision: the float64 reference is kept across type and compute changes, made anew when d_model, base or the range changes, and dropped off the page — every sample agrees with the bit emulation and float64 after each', async () => {
  const { page, problems, context } = await open(env.browser, `${env.server.url}/web/figure.html?fig=precision&lang=en`, { width: 600 });
  await page.waitForFunction((t) => document.querySelector(t)?.renderTimes?.length > 0, tag, { timeout: 15000 });
  // one change at a time, and what the figure's float64 rows of the samples
  // (its _ref) must be after it: none after a change of sizes, new by the
  // next change at those sizes (a type or compute change), and the same
  // filled object after the ones that follow. (That they are read, not
  // computed again, and exactly as written: tests/figure_caches.test.mjs.)
  const steps = [
    [{ dModel: 64 }, 'none'],
    [{ type: 'bfloat16' }, 'new'],
    [{ compute: 'low' }, 'same'],
    [{ type: 'float16' }, 'same'],
    [{ base: 500 }, 'none'],
    [{ compute: 'float32' }, 'new'],
    [{ type: 'float32' }, 'same'],
    [{ maxExp: 16 }, 'none'],
    [{ type: 'bfloat16' }, 'new'],
    [{ dModel: 128 }, 'none'],
    [{ compute: 'low' }, 'new'],
    [{ type: 'float16' }, 'same'],
  ];
  const step = async (change, expected) => {
    // the result drawn before the change, read in the same task as the
    // change is made: the next one drawn is this change's
    await page.evaluate(([t, s]) => {
      const el = document.querySelector(t);
      window.resultBefore = el.result;
      Object.assign(el, s);
    }, [tag, change]);
    await page.waitForFunction((t) => document.querySelector(t).result !== window.resultBefore, tag);
    const r = await page.evaluate((t) => {
      const el = document.querySelector(t);
      const ref = el._ref;
      const state = !ref ? 'none' : ref === window.lastReference && ref.filled ? 'same' : ref.filled ? 'new' : 'unfilled';
      window.lastReference = ref;
      return { ...el.values, samples: el.result.samples, state };
    }, tag);
    assert.equal(r.state, expected, `${JSON.stringify(change)}: the float64 rows of the samples`);
    const { dModel: d, base, type: precision, compute } = r;
    const w = (i) => frequency(i, d, base);
    const minChord = 2 * Math.sin(w(d / 2 - 1) / 2);
    for (const sample of r.samples) {
      const code = precision === 'float32' ? float32Row(sample.p, d, base) : peLowPrecision({ seqLen: 1, dModel: d, base, offset: sample.p, precision, compute });
      // rounded: how far the float64 values lie from the nearest float32, a
      // floor for the error of any float32 row (posnorm's), less what the
      // angles p·w_i of this test and of the figure may differ by in float64
      let e = 0, blur = 0, rounded = 0, sq = 0;
      for (let i = 0; i < d / 2; i++) {
        const s = Math.sin(sample.p * w(i)), c = Math.cos(sample.p * w(i));
        const es = Math.abs(code[2 * i] - s), ec = Math.abs(code[2 * i + 1] - c);
        e = Math.max(e, es, ec);
        sq += es * es + ec * ec;
        blur = Math.max(blur, Math.hypot(es, ec) / (2 * Math.sin(w(i) / 2)));
        rounded = Math.max(rounded, Math.abs(Math.fround(s) - s), Math.abs(Math.fround(c) - c));
      }
      const at = `${JSON.stringify(change)}: sample at ${sample.p} (d ${d}, base ${base}, ${precision}/${compute})`;
      // and at most that, give or take the same: posnorm's values are the
      // float64 ones rounded once, so its error can exceed `rounded` only
      // where the two float64 values straddle a midpoint between float32s.
      // The slack is what the float64 values of this test, the figure and
      // posnorm may differ by, a few ulp of p·w_i (a review measured at most
      // 0.11 of it over 120,800 positions). A reference whose cos values were
      // off by 1e-7 of themselves passed the old bound, 2e-7 alone.
      const slack = 2e-15 * (sample.p + 1);
      assert.ok(sample.err64 < 2e-7 && sample.err64 >= rounded - slack && sample.err64 <= rounded + slack, `${at}: posnorm's error ${sample.err64}, ${rounded} give or take ${slack}`);
      // (float16 positions from 65520 are Inf when cast, compute 'low': sin
      // and cos are NaN there, and the figure gives no error: null, marked)
      if (Number.isNaN(e)) {
        assert.ok(sample.overflow === true && sample.err32 === null && sample.blur === null && sample.dist32 === null, `${at}: none where the emulation is NaN, got ${sample.err32}, blur ${sample.blur}, overflow ${sample.overflow}`);
        continue;
      }
      assert.equal(sample.overflow, false, `${at}: overflow`);
      assert.ok(Math.abs(sample.err32 - e) <= 1e-6 * e + 2e-7, `${at}: code error ${sample.err32} vs ${e}`);
      // the error's length over the whole row, sqrt(Σ_c (code_c − exact_c)²):
      // each value may differ from the emulation's by the 2e-7 above
      const norm = Math.sqrt(sq);
      assert.ok(Math.abs(sample.errNorm32 - norm) <= 1e-6 * norm + 2e-7 * Math.sqrt(d), `${at}: length of the code's error ${sample.errNorm32} vs ${norm}`);
      // (the code's values may differ from the emulation's by the 2e-7 above,
      // which the slowest pair's step turns into 2e-7 / minChord)
      assert.ok(Math.abs(sample.blur - blur) <= 1e-5 * blur + 3e-7 / minChord, `${at}: worst pair error over step ${sample.blur} vs ${blur}`);
    }
    assert.equal(r.samples.at(-1).p, 2 ** r.maxExp - 1, 'the samples run to the top of the range');
  };
  for (const [change, expected] of steps) await step(change, expected);
  // off the page the figure keeps no rows, and a CSV asked for there after a
  // change (which fails: the figure has no wasm buffers while away) makes none
  const away = await page.evaluate((t) => {
    const el = document.querySelector(t);
    window.home = el.parentNode;
    window.awayEl = el;
    el.remove();
    const dropped = el._ref === null;
    const attempts = [{ dModel: 256 }, { type: 'bfloat16' }].map((change) => {
      Object.assign(el, change);
      try {
        el.csv();
        return 'no error';
      } catch (e) {
        return el._ref === null ? 'error, nothing kept' : 'error, rows kept';
      }
    });
    return { dropped, attempts };
  }, tag);
  assert.deepEqual(away, { dropped: true, attempts: ['error, nothing kept', 'error, nothing kept'] });
  // back on the page: it draws the values set while it was away, computing
  // every row afresh (no rows kept); the next change at these sizes writes
  // them, and the one after reads them
  const back = await page.evaluate(async () => {
    const el = window.awayEl;
    window.resultBefore = el.result;
    window.home.append(el);
    while (el.result === window.resultBefore) await new Promise((r) => requestAnimationFrame(r));
    window.lastReference = el._ref;
    return { ref: el._ref, d: el.dModel, type: el.type };
  });
  assert.deepEqual(back, { ref: null, d: 256, type: 'bfloat16' });
  await step({ compute: 'float32' }, 'new');
  await step({ type: 'float16' }, 'same');
  assert.deepEqual(problems, []);
  await context.close();
});

test('precision: a position float16 cannot hold (every step in float16, from 65520) is said to be stored as Infinity — no NaN numbers in the readout, the picture\'s text or the CSV — and the share count is how many integers round to the stored value', async () => {
  // rounding of a positive integer to `bits` significant bits, ties to even,
  // Infinity once it rounds to 2^(emax+1) or more: written here, apart from
  // the figure's and from reference/lowprec.mjs
  const roundInt = (n, bits, emax) => {
    let e = 0;
    while (2 ** (e + 1) <= n) e++;
    const s = Math.max(1, 2 ** (e + 1 - bits));
    const lo = Math.floor(n / s), frac = n / s - lo;
    const v = (frac > 0.5 || (frac === 0.5 && lo % 2 === 1) ? lo + 1 : lo) * s;
    return v >= 2 ** (emax + 1) ? Infinity : v;
  };
  const f16 = (n) => roundInt(n, 11, 15), bf16 = (n) => roundInt(n, 8, 127);
  // how many integers round to the value p rounds to (they are consecutive)
  const sharing = (p, round) => {
    const v = round(p);
    let lo = p, hi = p;
    while (round(lo - 1) === v) lo--;
    while (round(hi + 1) === v) hi++;
    return hi - lo + 1;
  };
  let from = 1;
  while (f16(from) !== Infinity) from++;
  const max = f16(from - 1);
  assert.deepEqual([from, max, f16(65500), sharing(65500, f16), f16(65488), sharing(65488, f16), sharing(2049, f16)], [65520, 65504, 65504, 31, 65472, 33, 2]);
  const f16low = (pos) => ({ type: 'float16', compute: 'low', pos, round: f16 });
  const settings = [f16low(65536), f16low(65519), f16low(65520), f16low(65500), f16low(65488), f16low(2049),
    // float16 computed in float32 keeps positions in float32; bfloat16 has float32's range
    { type: 'float16', compute: 'float32', pos: 65536, round: Math.fround }, { type: 'float16', compute: 'float32', pos: 65520, round: Math.fround },
    { type: 'bfloat16', compute: 'low', pos: 16777215, round: bf16 }, { type: 'bfloat16', compute: 'low', pos: 65520, round: bf16 }];
  // the deliberate statements: the only places NaN or Infinity may be written
  const statements = {
    en: ['stores pos as Infinity (it overflows)', 'is NaN there', 'is stored as Infinity'],
    ko: ['pos는 Infinity로 저장됩니다(범위 초과)', '모두 NaN이며', 'Infinity로 저장됩니다', 'Infinity로 저장됨'],
  };
  for (const lang of ['en', 'ko']) {
    const { page, problems, context } = await open(env.browser, `${env.server.url}/web/figure.html?fig=precision&lang=${lang}`, { width: 800 });
    await page.waitForFunction((t) => document.querySelector(t)?.renderTimes?.length > 0, tag, { timeout: 15000 });
    for (const { round, ...setting } of settings) {
      await applySetting(page, setting);
      // (Infinity and NaN do not survive page.evaluate's serialisation: spelled out)
      const r = await page.evaluate((t) => {
        const el = document.querySelector(t);
        const spell = (o) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, typeof v === 'number' && !Number.isFinite(v) ? String(v) : v]));
        const { samples, ...result } = el.result;
        return { result: spell(result), samples: samples.map(spell), lines: [...el.shadowRoot.querySelector('.readout').children].map((li) => li.textContent), alt: [...el.shadowRoot.querySelectorAll('canvas')].map((c) => c.getAttribute('aria-label')), csv: el.toCsv() };
      }, tag);
      const { type, compute, pos: p } = setting, res = r.result;
      const at = `${lang} ${type}/${compute} pos ${p}`;
      const over = round(p) === Infinity, nextOver = round(p + 1) === Infinity;
      assert.equal(over, type === 'float16' && compute === 'low' && p >= 65520, `${at}: own rounding`);
      // the result: finite numbers, or null where the code has no value, with overflow saying why
      assert.equal(res.overflow, over, `${at}: overflow`);
      assert.equal(res.stored, over ? 'Infinity' : round(p), `${at}: stored`);
      assert.equal(res.share, over ? null : sharing(p, round), `${at}: how many integers share the stored value`);
      if (type === 'float16' && compute === 'low') assert.deepEqual([res.overflowFrom, res.overflowMax], [from, max], `${at}: overflow from, largest finite`);
      else assert.ok(res.overflowFrom > 2 ** 24, `${at}: no position of the figure overflows, from ${res.overflowFrom}`);
      for (const key of ['err32', 'errNorm32', 'blur', 'dist32']) {
        const none = over || (key === 'dist32' && nextOver);
        if (none) assert.equal(res[key], null, `${at}: ${key}`);
        else assert.ok(Number.isFinite(res[key]), `${at}: ${key} ${res[key]}`);
      }
      for (const key of ['p', 'err64', 'dist64', 'exact']) assert.ok(Number.isFinite(res[key]), `${at}: ${key} ${res[key]}`);
      // the code's error where it has one equals the bit emulation's
      if (!over) {
        const row = peLowPrecision({ seqLen: 1, dModel: 512, offset: p, precision: type, compute });
        let err = 0;
        for (let c = 0; c < 512; c++) err = Math.max(err, Math.abs(row[c] - (c % 2 ? Math.cos : Math.sin)(p * frequency(c >> 1, 512, 10000))));
        assert.ok(Math.abs(res.err32 - err) <= 1e-6 * err + 2e-7, `${at}: max error ${res.err32} vs ${err}`);
      }
      // the samples: the same, and marked
      for (const s of r.samples) {
        const sOver = round(s.p) === Infinity;
        assert.equal(s.overflow, sOver, `${at}: sample ${s.p} overflow`);
        for (const key of ['err32', 'errNorm32', 'blur', 'dist32']) {
          if (sOver || (key === 'dist32' && round(s.p + 1) === Infinity)) assert.equal(s[key], null, `${at}: sample ${s.p} ${key}`);
          else assert.ok(Number.isFinite(s[key]), `${at}: sample ${s.p} ${key} ${s[key]}`);
        }
      }
      // the text: NaN and Infinity only inside the statements that explain them
      const text = r.lines.join('\n');
      let rest = text;
      for (const phrase of statements[lang]) rest = rest.split(phrase).join('');
      assert.doesNotMatch(rest, /NaN|Infinity|undefined|null/, `${at}: ${text}`);
      for (const alt of r.alt) assert.doesNotMatch(alt, /NaN|Infinity|undefined|null/, `${at}: canvas text ${alt}`);
      if (lang === 'en') {
        if (over) {
          assert.match(r.lines[0], new RegExp(`^pos ${p}: float16 stores pos as Infinity \\(it overflows\\), so every sin and cos of the float16 code .* is NaN there and that code has no error, distance or worst pair at pos; max error of posnorm [0-9.e-]+; distance to PE\\(pos\\+1\\) in float64 [0-9.]+$`), at);
          assert.equal(r.lines[2], `Positions in float16 are exact integers up to 2048; its largest finite value is ${max}, so every integer from ${from} up (pos ${p} among them) is stored as Infinity.`, at);
        } else {
          assert.match(r.lines[0], new RegExp(`^pos ${p}: max error of the ${type} code`), at);
          assert.equal(r.lines[0].includes(`none (pos+1 = ${p + 1} is stored as Infinity in float16)`), nextOver, `${at}: ${r.lines[0]}`);
          const count = sharing(p, round);
          assert.ok(r.lines[2].endsWith(`pos ${p} is stored as ${round(p)}${count > 1 ? `, a value ${count} neighbouring positions share` : ''}.`), `${at}: ${r.lines[2]}`);
        }
      } else {
        assert.equal(r.lines[0].includes('Infinity로 저장됩니다(범위 초과)'), over, `${at}: ${r.lines[0]}`);
        if (!over) assert.ok(r.lines[2].includes(`pos ${p}는 ${round(p)}(으)로 저장됩니다`) && (sharing(p, round) > 1 ? r.lines[2].includes(`(이웃한 위치 ${sharing(p, round)}개가 같은 값)`) : !r.lines[2].includes('같은 값')), `${at}: ${r.lines[2]}`);
      }
      // the CSV: numbers, or an empty cell in the code's columns where it has no value
      const [head, ...rows] = r.csv.trim().split('\n');
      assert.equal(head.split(',').length, 6, head);
      for (const line of rows) {
        const cells = line.split(',');
        const q = Number(cells[0]);
        const empty = [false, round(q) === Infinity, false, false, round(q + 1) === Infinity, round(q) === Infinity];
        cells.forEach((cell, k) => {
          if (empty[k]) assert.equal(cell, '', `${at}: CSV row ${q} column ${k}`);
          else assert.ok(cell !== '' && Number.isFinite(Number(cell)), `${at}: CSV row ${q} column ${k}: ${cell}`);
        });
      }
    }
    assert.deepEqual(problems, []);
    await context.close();
  }
});

test('precision: each sample\'s neighbour distance, the readout\'s two errors and its count of constant columns equal the emulations and float64', async () => {
  const { page, context, problems } = await open(env.browser, `${env.server.url}/web/figure.html?fig=precision&lang=en`, { width: 800 });
  await page.waitForFunction((t) => document.querySelector(t)?.renderTimes?.length > 0, tag);
  const wrong = [];
  let constants = 0;
  for (const setting of [null, { type: 'bfloat16', compute: 'low', dModel: 128, pos: 300 }]) {
    if (setting) await applySetting(page, { ...setting });
    const r = await page.evaluate((t) => {
      const el = document.querySelector(t);
      return { ...el.values, samples: el.result.samples, lines: [...el.shadowRoot.querySelector('.readout').children].map((li) => li.textContent) };
    }, tag);
    const { dModel: d, base, type, compute } = r;
    const row = (p) => (type === 'float32' ? float32Row(p, d, base) : peLowPrecision({ seqLen: 1, dModel: d, base, offset: p, precision: type, compute }));
    // ‖row(p + 1) − row(p)‖ of what the code computes, in float64
    for (const smp of r.samples) {
      const a = row(smp.p), b = row(smp.p + 1);
      let s2 = 0;
      for (let c = 0; c < d; c++) s2 += (b[c] - a[c]) ** 2;
      const ref = Math.sqrt(s2);
      if (!(Math.abs(smp.dist32 - ref) <= 1e-6 * ref + 4e-7 * Math.sqrt(d))) wrong.push(`${type} p ${smp.p}: dist32 ${smp.dist32} vs ${ref}`);
    }
    // the readout's first line: the code's max error and posnorm's (float32 rounding of float64) at pos
    const p = r.pos, code = row(p);
    let errCode = 0, errRounded = 0;
    for (let c = 0; c < d; c++) {
      const v = (c % 2 ? Math.cos : Math.sin)(p * frequency(c >> 1, d, base));
      errCode = Math.max(errCode, Math.abs(code[c] - v));
      errRounded = Math.max(errRounded, Math.abs(Math.fround(v) - v));
    }
    const m = r.lines[0].match(/max error of .+? ([0-9.e+-]+), of posnorm ([0-9.e+-]+);/);
    if (!m || Math.abs(Number(m[1]) - errCode) > 5e-3 * errCode + 2e-7 || Math.abs(Number(m[2]) - errRounded) > 5e-3 * errRounded + 2e-15 * (p + 1)) {
      wrong.push(`${type}: readout "${r.lines[0]}" vs ${errCode}, ${errRounded}`);
    }
    // the trailing cos columns that are exactly 1 (their angle rounds away), counted as the readout says
    let first = null;
    for (let c = d - 1; c >= 1 && code[c] === 1; c -= 2) first = c;
    if (first !== null) {
      constants++;
      if (!r.lines[3]?.includes(`from dimension ${first} on are constant 1 (${(d - first + 1) / 2} of ${d} columns)`)) wrong.push(`${type}: "${r.lines[3]}", constant from column ${first}`);
    } else if (!r.lines[3]?.includes('no cos column of the table is constant')) wrong.push(`${type}: "${r.lines[3]}", no constant column`);
  }
  assert.deepEqual(wrong, []);
  assert.equal(constants, 1, 'one setting with constant columns (bfloat16) and one without (the default) were read');
  assert.deepEqual(problems, []);
  await context.close();
});
