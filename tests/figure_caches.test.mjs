// Figures that keep parts of their work between repaints (compare's tables,
// scores and bias, drawMatrix's painted pixels, precision's float64 rows of
// its samples, depth's spreads of the other stack) must show what a fresh
// figure with the same values shows, after any sequence of control changes:
// in headless Chromium, each change is made on one kept figure, then a new
// figure is made with the same values; their canvases must be the same
// pixels and their results the same numbers, and the results must match the
// published formulas (tests/reference/).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { openHtml, pixels, startFigure, useBrowser } from './browser/harness.mjs';
import { alibiBias, alibiSlopes } from './reference/alibi.mjs';
import { peValue } from './reference/pe.mjs';
import { randomNormals } from './reference/random.mjs';
import { ropeScore } from './reference/rope.mjs';
import { LONG_CONTEXT_METHODS, hfRopeFrequencies } from './reference/rope_scaling.mjs';
import { forward } from './reference/residual_stack.mjs';
import en from '../web/i18n/en.js';
import ko from '../web/i18n/ko/compare.js';

const env = useBrowser(before, after);
const frames = (page) => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));

/** Puts a new `tag` with `values` into #fresh, starts it, and scrolls back to #kept. */
async function freshTwin(page, tag, values) {
  await page.evaluate(([t, v]) => {
    const el = Object.assign(document.createElement(t), { lang: 'en' });
    document.querySelector('#fresh').replaceChildren(el);
    Object.assign(el, v);
  }, [tag, values]);
  await startFigure(page, `#fresh ${tag}`);
  await page.locator('#kept').scrollIntoViewIfNeeded();
}

/**
 * Opens `tag` (module `file`) at 640 px, then for each [prop, value] of
 * `steps` (or object of changes made together): sets it on the kept figure, makes a fresh figure with the kept
 * one's values, and asserts the same pixels on every canvas and the same
 * `read(el.result)` (a function's source, run in the page); `check(result,
 * values, at)` then holds the kept result to the formulas. Before each
 * change the last result is overwritten with NaN (a caller may write into
 * it). `ready(result)`, when given, must hold for both figures before they
 * are compared (work they finish after the frame). Returns the page and,
 * per control and value (`calls`) and per step (`perStep`), the kernel
 * calls the kept figure made for that change (`perStepRender`: those it
 * made inside its render()).
 */
async function keptAgainstFresh(tag, file, steps, read, check, { ready = null } = {}) {
  const calls = new Map(), perStep = [], perStepRender = [];
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>t</title></head><body>
<div style="width:640px"><${tag} id="kept" lang="en"></${tag}></div><div style="width:640px" id="fresh"></div>
<script type="module" src="/web/figures/${file}"></script></body></html>`;
  const opened = await openHtml(env.browser, env.server.url, html);
  const { page } = opened;
  await startFigure(page, '#kept');
  const fresh = `#fresh ${tag}`;
  // the kernel calls of the kept figure, counted per step (one pn instance
  // serves both figures; the fresh one is made after the count is read)
  await page.evaluate(() => {
    const el = document.querySelector('#kept');
    const { pn } = el;
    window.__calls = {};
    // and apart, the calls made inside the kept figure's render() (not by
    // work it does in the background after the frame, such as the PE
    // error line's slices, which may or may not have run by then)
    window.__renderCalls = {};
    let inRender = 0;
    const render = el.render;
    el.render = function (...a) {
      inRender++;
      try { return render.apply(this, a); } finally { inRender--; }
    };
    for (const name of ['positionalEncoding', 'alibi', 'colormap', 'rope', 'randomNormal', 'gram', 'residualStack']) {
      const f = pn[name];
      pn[name] = function counted(...args) {
        // (depth's gradients, computed in the background, apart from its spreads)
        const key = name === 'residualStack' && args[2]?.gradients ? 'residualStackGradients' : name;
        window.__calls[key] = (window.__calls[key] ?? 0) + 1;
        if (inRender) window.__renderCalls[key] = (window.__renderCalls[key] ?? 0) + 1;
        return f.apply(this, args);
      };
    }
  });
  for (const step of steps) {
    // a step is [prop, value], or an object of several changes made in one task (one repaint)
    const change = Array.isArray(step) ? { [step[0]]: step[1] } : step;
    const [prop, value] = Array.isArray(step) ? step : [Object.keys(step).join('+'), JSON.stringify(step)];
    const values = await page.evaluate((c) => {
      const el = document.querySelector('#kept');
      // a caller that writes into a result it was given must not change what the figure shows next
      const scribble = (x) => {
        if (Array.isArray(x)) x.forEach((v, i) => { if (typeof v === 'number') x[i] = NaN; else scribble(v); });
        else if (ArrayBuffer.isView(x)) x.fill(NaN);
        else if (x && typeof x === 'object') Object.values(x).forEach(scribble);
      };
      scribble(el.result);
      window.__calls = {};
      window.__renderCalls = {};
      Object.assign(el, c);
      return el.values;
    }, change);
    await frames(page);
    const [made, inRender] = await page.evaluate(() => [window.__calls, window.__renderCalls]);
    calls.set(prop, { ...(calls.get(prop) ?? {}), [value]: made });
    perStep.push(made);
    perStepRender.push(inRender);
    await freshTwin(page, tag, values);
    await frames(page);
    // what both figures compute after the frame (depth's gradients), drawn in both
    if (ready) {
      for (const sel of ['#kept', fresh]) await page.waitForFunction(([s, src]) => new Function('r', `return (${src})(r)`)(document.querySelector(s).result), [sel, ready.toString()], { timeout: 20000 });
      await frames(page);
    }
    const result = (sel) => page.evaluate(([s, src]) => new Function('r', `return (${src})(r)`)(document.querySelector(s).result), [sel, read.toString()]);
    const at = `after ${prop} = ${value}`;
    const kept = await result('#kept');
    assert.deepEqual(kept, await result(fresh), `results ${at}`);
    const canvases = await page.evaluate((s) => document.querySelector(s).shadowRoot.querySelectorAll('canvas').length, '#kept');
    for (let i = 0; i < canvases; i++) assert.deepEqual(await pixels(page, '#kept', i), await pixels(page, fresh, i), `canvas ${i} pixels ${at}`);
    check(kept, values, at);
  }
  return { ...opened, calls, perStep, perStepRender };
}

test('compare: after each of a sequence of control changes, the kept figure paints and reports what a fresh one does', async () => {
  // every control at least once, some twice, each change alone
  const steps = [['offset', 57], ['head', 5], ['seqLen', 17], ['dModel', 10], ['heads', 12], ['head', 11], ['base', 500],
    ['maxLen', 5], ['seqLen', 40], ['offset', 0], ['dModel', 64], ['heads', 3], ['maxLen', 128]];
  const read = (r) => ({ s0: r.ropeScores[0], s1: r.ropeScores[1], slopes: [...r.slopes], bias: [...r.bias], learnedRows: r.learnedRows, diff: r.ropeDiff });
  const opened = await keptAgainstFresh('posnorm-compare', 'compare.js', steps, read, (kept, values, at) => {
    // the numbers are the formulas' for these values, not the last ones'
    const { heads, head, seqLen, maxLen } = values;
    assert.deepEqual(kept.slopes, [...alibiSlopes(heads)].map(Math.fround), `slopes ${at}`);
    const bias = alibiBias(heads, seqLen).subarray(head * seqLen * seqLen, (head + 1) * seqLen * seqLen);
    assert.deepEqual(kept.bias, [...bias].map(Math.fround), `bias of head ${head} ${at}`);
    assert.equal(kept.s0.length, seqLen, `scores ${at}`);
    assert.equal(kept.learnedRows, Math.min(maxLen, seqLen), `learned rows ${at}`);
  });
  const { page, context, problems } = opened;
  // and the parts a control does not change are not computed again: every
  // change's calls in render(), worked from what each part depends on
  // (starting at seqLen 32, dModel 32, base 10000, maxLen 20, heads 8, head 0, offset 10):
  // - the sinusoidal table on seqLen, dModel, base: positionalEncoding, the
  //   RoPE scores from 0 and from the offset (rope twice each), its pixels;
  // - the scores from the offset on offset too: rope twice;
  // - the learned table on min(maxLen, seqLen) and dModel: randomNormal, its pixels;
  // - the ALiBi bias on heads and seqLen: alibi, the shown head's pixels;
  //   head alone: those pixels;
  // - q and k on dModel: one randomNormal more.
  const PE = { positionalEncoding: 1, rope: 4 };
  const expected = [
    { rope: 2 }, // offset 57
    { colormap: 1 }, // head 5
    { ...PE, randomNormal: 1, alibi: 1, colormap: 3 }, // seqLen 17: rows of the learned table 20 → 17
    { ...PE, randomNormal: 2, colormap: 2 }, // dModel 10: the learned table and q, k; the bias stays
    { alibi: 1, colormap: 1 }, // heads 12
    { colormap: 1 }, // head 11
    { ...PE, colormap: 1 }, // base 500
    { randomNormal: 1, colormap: 1 }, // maxLen 5: the learned table alone
    { ...PE, alibi: 1, colormap: 2 }, // seqLen 40: 5 learned rows still
    { rope: 2 }, // offset 0
    { ...PE, randomNormal: 2, colormap: 2 }, // dModel 64
    { alibi: 1, colormap: 1 }, // heads 3 (head 11 shows as 2)
    { randomNormal: 1, colormap: 1 }, // maxLen 128: 40 learned rows
  ];
  opened.perStepRender.forEach((made, k) => assert.deepEqual(made, expected[k], `kernel calls in render() for ${steps[k][0]} = ${steps[k][1]}`));
  // the article's table is kept too, and follows the language
  const table = () => page.evaluate(() => [...document.querySelector('#kept').shadowRoot.querySelectorAll('table tr')].map((tr) => [...tr.cells].map((c) => c.textContent)));
  assert.deepEqual(await table(), en.cmpTable);
  await page.evaluate(() => { document.querySelector('#kept').lang = 'ko'; });
  await frames(page);
  assert.deepEqual(await table(), ko.cmpTable);
  assert.deepEqual(problems, []);
  await context.close();
});

test('properties: after each of a sequence of control changes, the kept figure paints and reports what a fresh one does', async () => {
  const steps = [['k', 17], ['pos', 150], ['seqLen', 13], ['trainLen', 77], ['dModel', 10], ['k', 3], ['base', 700], ['seqLen', 200], ['pos', 0], ['dModel', 256]];
  const read = (r) => ({ min: r.min, max: r.max, closest: r.closest, err: r.maxShiftError, ahead: [...r.ahead], shifted: [...r.shifted] });
  const { context, problems, calls } = await keptAgainstFresh('posnorm-properties', 'properties.js', steps, read, (kept, values, at) => {
    // PE(pos + k) is the float64 formula's, rounded: within 2 float32 ulps of 1
    const { pos, k, dModel, base } = values;
    kept.ahead.forEach((v, c) => assert.ok(Math.abs(v - peValue(pos + k, c, dModel, { base })) <= 2 ** -22, `PE(${pos + k})[${c}] ${at}`));
  });
  // k and pos leave the Gram matrix and its pixels as they were
  for (const [prop, value] of [['k', 17], ['pos', 150]]) {
    const c = calls.get(prop)[value];
    assert.ok(!c.gram && !c.colormap, `${prop} = ${value} made ${JSON.stringify(c)}`);
  }
  assert.deepEqual(problems, []);
  await context.close();
});

test('precision: after each of a sequence of control changes, the kept figure paints and reports what a fresh one does', async () => {
  // type and compute changes read the samples' float64 rows once they were
  // written at these sizes (by the second computation there); a change of
  // sizes computes them afresh, and pos computes no sample at all
  const steps = [['type', 'bfloat16'], ['compute', 'low'], ['dModel', 64], ['type', 'float16'], ['compute', 'float32'], ['base', 500],
    ['type', 'float32'], ['maxExp', 12], ['pos', 100], ['type', 'bfloat16'], ['type', 'float16']];
  const read = (r) => r;
  const { context, problems, calls } = await keptAgainstFresh('posnorm-precision', 'precision.js', steps, read, (kept, values, at) => {
    const top = 2 ** values.maxExp - 1;
    assert.deepEqual(kept.samples.map((s) => s.p), Array.from({ length: 72 }, (_, k) => Math.round(top ** (k / 71))), `sampled positions ${at}`);
    assert.equal(kept.type, values.type, `type ${at}`);
  });
  // PE calls per change: one per sampled position for the selected code
  // (72 samples; a position sampled twice in a row is computed once: 61
  // distinct at max exponent 12, 69 at 24), one more (posnorm's row, checked
  // against float64) unless the rows were written at these sizes, and the
  // cursor's two per repaint
  const distinct = (maxExp) => new Set(Array.from({ length: 72 }, (_, k) => Math.round((2 ** maxExp - 1) ** (k / 71)))).size;
  const pe = (prop, value) => calls.get(prop)[value].positionalEncoding;
  assert.equal(pe('type', 'bfloat16'), 2 * distinct(12) + 2, 'type = bfloat16 after pos: computes and writes the rows, one repaint');
  assert.equal(pe('type', 'float16'), distinct(12) + 2, 'type = float16 right after: reads them');
  assert.equal(pe('dModel', 64), 2 * distinct(24) + 2, 'dModel = 64: computes afresh, each distinct position once');
  assert.deepEqual(problems, []);
  await context.close();
});

test('long-context: a state shown before (among the last 8) comes back without its RoPE sweeps, and equals a fresh figure and float64', async () => {
  // keys are (dim, base, factor, training length, seed); the default state
  // A = (128, 10000, 8, 4096). Each step's rope calls in render(): 22 for a
  // new state (six sweeps, five methods over the sequence and plain RoPE
  // over training, and the five cursor scores, two calls each), 10 for a
  // kept one (the cursor scores alone). States are dropped least recently
  // shown first: B, shown again at step 8, outlives C, A and D. The last
  // four steps change the base and the seed alone (each part of the key).
  const steps = [['trainLen', 8192], ['trainLen', 4096], ['factor', 4], ['factor', 8], ['distance', 100], ['dim', 64], ['trainLen', 8192],
    ['dim', 128], ['trainLen', 256], ['trainLen', 512], ['trainLen', 1024], ['trainLen', 2048], { factor: 4, trainLen: 4096 }, ['factor', 8],
    ['trainLen', 8192], ['base', 500], ['base', 10000], ['seed', 3], ['seed', 7]];
  const expected = [22, 10, 22, 10, 10, 22, 22, 10, 22, 22, 22, 22, 22, 22, 10, 22, 10, 22, 10];
  const read = (r) => ({ scores: r.scores, af: r.attentionFactors, turns: r.pairsTurningInside, trainRange: r.trainRange, q: [...r.q], k: [...r.k],
    invFreq: Object.fromEntries(Object.entries(r.invFreq).map(([m, w]) => [m, [...w]])) });
  const { context, problems, perStepRender } = await keptAgainstFresh('posnorm-long-context', 'long-context.js', steps, read, (kept, v, at) => {
    // what a kept state holds (frequencies, pairs turning within L, the
    // training range) and the cursor's scores, against float64 for these values
    const { dim, base, factor, trainLen: L, distance: d } = v;
    const score = (inv, af, dist) => ropeScore(kept.q, kept.k, inv, af, dist);
    for (const [m, make] of Object.entries(LONG_CONTEXT_METHODS)) {
      const { inv, af } = hfRopeFrequencies(dim, base, factor > 1 ? make(factor, L) : undefined, L * factor);
      kept.invFreq[m].forEach((w, i) => assert.ok(Math.abs(w - inv[i]) <= 2 ** -23 * inv[i], `${m} frequency ${i} ${at}: ${w} vs ${inv[i]}`));
      assert.equal(kept.turns[m], inv.filter((w) => (2 * Math.PI) / w <= L).length, `${m} pairs turning within L ${at}`);
      const s = score(inv, af, d);
      assert.ok(Math.abs(kept.scores[m] - s) <= 2e-5 * Math.max(1, Math.abs(s)), `${m} score at ${d} ${at}: ${kept.scores[m]} vs ${s}`);
    }
    const plain = hfRopeFrequencies(dim, base, undefined, L * factor).inv;
    const inTraining = Array.from({ length: 160 }, (_, j) => score(plain, 1, Math.round((j / 159) * (L - 1))));
    assert.ok(Math.abs(kept.trainRange[0] - Math.min(...inTraining)) <= 2e-5 && Math.abs(kept.trainRange[1] - Math.max(...inTraining)) <= 2e-5,
      `training range ${at}: ${kept.trainRange} vs ${Math.min(...inTraining)}, ${Math.max(...inTraining)}`);
  });
  assert.deepEqual(perStepRender.map((c) => c.rope ?? 0), expected, 'rope calls in render() per step');
  assert.deepEqual(problems, []);
  await context.close();
});

test('depth: switching encoder and decoder back and forth reads the other stack\'s spreads, kept until the sizes or weights change; each equals the float64 stack', async () => {
  // what is kept is the state shown just before: switching back to it, or
  // stepping a slider back, reads it; changes made together (one repaint)
  // must not read a kept state that matches in part (its stack, its scale,
  // or its sizes under other weights)
  const steps = [['layers', 8], ['width', 16], ['stack', 'decoder'], ['stack', 'encoder'], ['stack', 'decoder'], ['scale', 2], ['scale', 3],
    ['stack', 'encoder'], ['stack', 'decoder'], ['width', 32], ['stack', 'encoder'], { width: 16, stack: 'decoder' }, ['stack', 'encoder'],
    ['scale', 1], ['scale', 2], { stack: 'decoder', scale: 1 }, ['layers', 9], ['layers', 8], ['seed', 3], ['stack', 'encoder'], ['stack', 'decoder']];
  // the spreads' calls per change, one per block (4): computed, or read (0)
  const expected = [4, 4, 4, 0, 0, 4, 4, 4, 0, 4, 4, 4, 4, 4, 4, 4, 4, 0, 4, 4, 0];
  // (and the gradients: the kept figure keeps those of the state before too)
  const read = (r) => ({ stds: r.stds.map((s) => [...s]), grads: r.gradNorms.map((g) => [...g]) });
  const { context, problems, perStep } = await keptAgainstFresh('posnorm-depth', 'depth.js', steps, read, (kept, v, at) => {
    // the figure's inputs as the reference generator draws them (ROWS 16):
    // x0 N(0, 1) (seed), W_l N(0, 1/width) (seed + 1), and for the decoder
    // C_l (seed + 2) after each W_l and the memory N(0, 1) (seed + 3)
    const WW = v.width * v.width, f32 = (a) => Float32Array.from(a);
    const x0 = f32(randomNormals(16 * v.width, { seed: v.seed }));
    const W = randomNormals(v.layers * WW, { seed: v.seed + 1, std: 1 / Math.sqrt(v.width) });
    let weights = f32(W), memory = null;
    if (v.stack === 'decoder') {
      const C = randomNormals(v.layers * WW, { seed: v.seed + 2, std: 1 / Math.sqrt(v.width) });
      weights = new Float32Array(2 * v.layers * WW);
      for (let l = 0; l < v.layers; l++) {
        weights.set(W.slice(l * WW, (l + 1) * WW), 2 * l * WW);
        weights.set(C.slice(l * WW, (l + 1) * WW), (2 * l + 1) * WW);
      }
      memory = f32(randomNormals(v.width, { seed: v.seed + 3 }));
    }
    ['plain', 'post-ln', 'pre-ln', 'pre-rms'].forEach((block, b) => {
      const ref = forward(x0, weights, { width: v.width, layers: v.layers, block, scale: v.scale, memory }).std;
      assert.equal(kept.stds[b].length, v.layers, `${block} ${at}`);
      for (let l = 0; l < v.layers; l++) assert.ok(Math.abs(kept.stds[b][l] - ref[l]) <= 5e-7 * ref[l], `${block} layer ${l + 1} ${at}: ${kept.stds[b][l]} vs ${ref[l]}`);
    });
  }, { ready: (r) => r?.gradNorms });
  assert.deepEqual(perStep.map((c) => c.residualStack ?? 0), expected, 'spreads computed (4) or read (0) per change');
  assert.deepEqual(problems, []);
  await context.close();
});

test('depth: the gradients of the state shown before come back in the same frame (encoder ↔ decoder, a slider stepped back), the ones computed for it; a state not kept waits for its run', async () => {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>t</title></head><body>
<div style="width:640px"><posnorm-depth id="d" lang="en" layers="8" width="16"></posnorm-depth></div>
<script type="module" src="/web/figures/depth.js"></script></body></html>`;
  const { page, context, problems } = await openHtml(env.browser, env.server.url, html);
  await startFigure(page, '#d');
  const got = await page.evaluate(async () => {
    const el = document.querySelector('#d');
    const copy = () => el.result.gradNorms?.map((g) => [...g]) ?? null;
    // what the render right after a change shows (null: pending): toCsv()
    // renders through the scheduler's flush, which leaves no frame due (after
    // renderNow() the frame the change asked for rendered again, and its own
    // cancel of a run for another state hid a swap that did not cancel one)
    const now = async (change) => {
      Object.assign(el, change);
      await Promise.resolve();
      el.toCsv();
      return copy();
    };
    // what it shows once the run has come
    const ready = async () => {
      while (!el.result?.gradNorms) await new Promise((r) => setTimeout(r, 20));
      return copy();
    };
    const e0 = await ready();
    const dFirst = await now({ stack: 'decoder' });
    const d0 = await ready();
    const eBack = await now({ stack: 'encoder' });
    const dBack = await now({ stack: 'decoder' });
    const sFirst = await now({ scale: 2 });
    const s2 = await ready();
    const sBack = await now({ scale: 1 });
    const sAgain = await now({ scale: 2 });
    // two states are kept, the one shown and the one before (decoder at
    // scale 2 and at 1): the encoder's, two states back, is computed again
    const eGone = await now({ stack: 'encoder', scale: 1 });
    const eAfter = await ready();
    // a swap abandons the run begun for a third state: shown the decoder
    // at 2 (the encoder at 1 before it), then the decoder at 3 (its run
    // begun), then the encoder at 1 again, at once; had the run for 3 gone
    // on, its answer would have pushed the decoder at 2 out of the memory
    await now({ stack: 'decoder', scale: 2 });
    const e2 = await ready();
    await now({ scale: 3 });
    const backAtOnce = await now({ stack: 'encoder', scale: 1 });
    await new Promise((r) => setTimeout(r, 600));
    const kept = await now({ stack: 'decoder', scale: 2 });
    return { e0, dFirst, d0, eBack, dBack, sFirst, s2, sBack, sAgain, eGone, eAfter, e2, backAtOnce, kept };
  });
  assert.ok(got.e0.length === 4 && got.e0[0].length === 8, 'four blocks of 8 layers');
  assert.notDeepEqual(got.e0, got.d0, 'the encoder\'s and the decoder\'s gradients differ (the test can tell them apart)');
  assert.notDeepEqual(got.d0, got.s2, 'as do scale 1\'s and scale 2\'s');
  assert.equal(got.dFirst, null, 'the decoder, not seen before: pending in the frame of the change');
  assert.deepEqual(got.eBack, got.e0, 'back to the encoder: its gradients in the same frame');
  assert.deepEqual(got.dBack, got.d0, 'and to the decoder again');
  assert.equal(got.sFirst, null, 'scale 2, not seen: pending');
  assert.deepEqual(got.sBack, got.d0, 'scale stepped back to 1: at once');
  assert.deepEqual(got.sAgain, got.s2, 'and forward to 2 again');
  assert.equal(got.eGone, null, 'the encoder, two states back: pending');
  assert.deepEqual(got.eAfter, got.e0, 'and computed again, the same numbers');
  assert.deepEqual(got.e2, got.s2, 'the decoder at scale 2 again: the numbers of before');
  assert.deepEqual(got.backAtOnce, got.e0, 'the decoder at 3, then the encoder at 1 (the state before): at once');
  assert.deepEqual(got.kept, got.s2, 'and the decoder at 2 still kept: the run for 3 was abandoned');
  assert.deepEqual(problems, []);
  await context.close();
});

test('compare: off the page it keeps none of its parts, and back on the page it shows the formulas\' numbers again', async () => {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>t</title></head><body>
<div style="width:640px" id="home"><posnorm-compare id="c" lang="en" heads="8" seq-len="12"></posnorm-compare></div>
<script type="module" src="/web/figures/compare.js"></script></body></html>`;
  const { page, context, problems } = await openHtml(env.browser, env.server.url, html);
  await startFigure(page, '#c');
  const kept = await page.evaluate(async () => {
    const el = document.querySelector('#c');
    const before = el._parts !== null && el._parts !== undefined;
    el.remove();
    const away = el._parts;
    el.heads = 4;
    el.seqLen = 9;
    const drawn = el.result;
    document.querySelector('#home').append(el);
    while (el.result === drawn) await new Promise((r) => requestAnimationFrame(r));
    return { before, away, after: el._parts?.alibiKey, slopes: [...el.result.slopes], bias: [...el.result.bias], head: el.head, s0: el.result.ropeScores[0].length };
  });
  assert.equal(kept.before, true, 'parts kept while on the page');
  assert.equal(kept.away, null, 'none kept off the page');
  assert.equal(kept.after, '4|9', 'computed again for the values set while away');
  assert.deepEqual(kept.slopes, [...alibiSlopes(4)].map(Math.fround));
  const bias = alibiBias(4, 9).subarray(kept.head * 81, (kept.head + 1) * 81);
  assert.deepEqual(kept.bias, [...bias].map(Math.fround));
  assert.equal(kept.s0, 9);
  assert.deepEqual(problems, []);
  await context.close();
});

/**
 * Opens `tag` (module `file`, attributes `attrs`) at 640 px and takes it off
 * the page (which frees its wasm buffers); while it is away, another user of
 * the figures' shared instance allocates buffers of every length the figure
 * held, in the same order, fills them with NaN and -2.6e38 (0xAB in byte
 * buffers) and frees them, so that the buffers the figure makes again come
 * from memory holding that. Back on the page, its toCsv(), `read(result)`
 * and the pixels of every canvas must be a fresh figure's with the same
 * values; `check(csv, values)` then holds its numbers to the formulas.
 * `whileAway`: changes made to it while it is away (applied on its return).
 */
async function awayAndBack(tag, file, attrs, read, { ready = null, check = null, whileAway = {} } = {}) {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>t</title></head><body>
<div style="width:640px" id="home"><${tag} id="kept" lang="en" ${attrs}></${tag}></div><div style="width:640px" id="fresh"></div>
<script type="module" src="/web/figures/${file}"></script></body></html>`;
  const opened = await openHtml(env.browser, env.server.url, html);
  const { page } = opened;
  const readyIn = (sel) => page.waitForFunction(([s, src]) => new Function('r', `return (${src})(r)`)(document.querySelector(s).result), [sel, ready.toString()], { timeout: 20000 });
  await startFigure(page, '#kept');
  if (ready) await readyIn('#kept');
  const away = await page.evaluate((changes) => {
    const el = document.querySelector('#kept');
    const { pn } = el;
    const held = [...el.buffers].map((b) => [b.length, b.type]);
    const heldBytes = [...el.buffers].map((b) => [b.ptr, b.ptr + b.array.byteLength]);
    const renders = el.renderTimes.length;
    el.remove();
    const other = held.map(([n, type]) => pn.alloc(n, type));
    // the other buffers must lie where the figure's were, or nothing stale could show
    const reused = heldBytes.some(([a, b]) => other.some((o) => o.ptr < b && a < o.ptr + o.array.byteLength));
    for (const b of other) {
      const a = b.array;
      if (a instanceof Float32Array || a instanceof Float64Array) for (let k = 0; k < a.length; k++) a[k] = k % 2 ? -2.6e38 : NaN;
      else a.fill(0xab);
    }
    for (const b of other) b.free();
    Object.assign(el, changes);
    document.querySelector('#home').append(el);
    return { held, renders, reused };
  }, whileAway);
  assert.ok(away.held.length > 0, `${tag} held wasm buffers before it left`);
  assert.ok(away.reused, `${tag}: the other allocation took memory the figure's buffers held`);
  await page.waitForFunction((n) => document.querySelector('#kept').renderTimes.length > n, away.renders, { timeout: 10000 })
    .catch((e) => assert.fail(`${tag} drew nothing back on the page (${e.message}); problems: ${JSON.stringify(opened.problems)}`));
  if (ready) await readyIn('#kept');
  await frames(page);
  const values = await page.evaluate(() => document.querySelector('#kept').values);
  const fresh = `#fresh ${tag}`;
  await freshTwin(page, tag, values);
  if (ready) await readyIn(fresh);
  await frames(page);
  const at = `${tag} back on the page after another allocation wrote over its freed buffers (${JSON.stringify(away.held)})`;
  const csv = (sel) => page.evaluate((s) => document.querySelector(s).toCsv(), sel);
  const kept = await csv('#kept');
  assert.equal(kept.split('\n').slice(0, 3).join('\n'), (await csv(fresh)).split('\n').slice(0, 3).join('\n'), `toCsv() ${at}: its first rows`);
  assert.equal(kept, await csv(fresh), `toCsv() ${at}`);
  const result = (sel) => page.evaluate(([s, src]) => new Function('el', `return (${src})(el)`)(document.querySelector(s)), [sel, read.toString()]);
  assert.deepEqual(await result('#kept'), await result(fresh), `result ${at}`);
  const canvases = await page.evaluate((s) => document.querySelector(s).shadowRoot.querySelectorAll('canvas').length, '#kept');
  for (let i = 0; i < canvases; i++) assert.deepEqual(await pixels(page, '#kept', i), await pixels(page, fresh, i), `canvas ${i} pixels ${at}`);
  check?.(kept, values, at);
  assert.deepEqual(opened.problems, []);
  await opened.context.close();
}

test('off the page and back, after the shared instance reused the memory of its buffers, each figure that keeps work between repaints shows what a fresh one does', async () => {
  // properties: its PE table, range and Gram matrix, kept for its sizes
  await awayAndBack('posnorm-properties', 'properties.js', '', ({ result: r }) => ({ min: r.min, max: r.max, closest: r.closest, err: r.maxShiftError }), {
    check: (csv, { dModel, seqLen, base }, at) => {
      // every value the float64 formula's, within 2 float32 ulps of 1
      const rows = csv.trim().split('\n').slice(1);
      assert.equal(rows.length, seqLen, `CSV rows ${at}`);
      for (const [p, line] of rows.entries()) {
        const cells = line.split(',').map(Number);
        assert.equal(cells[0], p, `CSV row ${p + 1} ${at}`);
        for (let c = 0; c < dModel; c++) {
          const want = peValue(p, c, dModel, { base });
          assert.ok(Math.abs(cells[1 + c] - want) <= 2 ** -22, `CSV row ${p + 1} (pos ${p}) dim ${c} ${at}: ${cells[1 + c]}, float64 ${want} (row: ${line.slice(0, 60)}…)`);
        }
      }
    },
  });
  // heatmap: its PE table and pixels, kept for its sizes
  await awayAndBack('posnorm-heatmap', 'heatmap.js', 'd-model="32" seq-len="20"', (el) => el.readout, {
    check: (csv, { dModel, seqLen, base }, at) => {
      const rows = csv.trim().split('\n').filter((l) => /^\d/.test(l));
      assert.equal(rows.length, seqLen, `CSV rows ${at}`);
      for (const [p, line] of rows.entries()) {
        const cells = line.split(',').map(Number);
        for (let c = 0; c < dModel; c++) assert.ok(Math.abs(cells[1 + c] - peValue(p, c, dModel, { base })) <= 2 ** -22, `CSV pos ${p} dim ${c} ${at}: ${cells[1 + c]}`);
      }
    },
  });
  // compare: its tables, scores and bias
  await awayAndBack('posnorm-compare', 'compare.js', '', ({ result: r }) => ({ s0: r.ropeScores[0], s1: r.ropeScores[1], slopes: [...r.slopes], bias: [...r.bias], diff: r.ropeDiff }));
  // precision: its samples' rows, written by the second computation at the same sizes
  await awayAndBack('posnorm-precision', 'precision.js', 'max-exp="16"', (el) => el.result);
  // depth: its weights, and its spreads (computed again from those weights
  // for a scale set while away) and gradients (computed after the frame)
  await awayAndBack('posnorm-depth', 'depth.js', 'layers="8" width="16"', ({ result: r }) => ({ stds: r.stds.map((s) => [...s]), grads: r.gradNorms.map((g) => [...g]) }), { ready: (r) => r?.gradNorms, whileAway: { scale: 2 } });
});
