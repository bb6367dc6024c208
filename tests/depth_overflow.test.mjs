// <posnorm-depth> where its un-normalised stack leaves float32's range
// (layers 96, scale 3: the plain stack's activations grow about 2.7× a
// layer and pass 3.4e38 near layer 90). The kernel's float32 products give
// ±Infinity there, then NaN (Inf − Inf), and its spreads are NaN from that
// layer on; the figure promises never to show NaN inside its documented
// ranges (docs/figures.md). In headless Chromium: the readout, the canvas's
// text alternative and the CSV hold no NaN (nor Infinity); the readout names
// the layer where the stack overflows, in English and Korean; that layer is
// where pn.residualStack's own spreads stop being finite, and where a
// float64 run of the kernel's documented recurrence, on the figure's
// documented weights (drawn here with the reference generator), first
// holds a value that float32 cannot: scale·h, a running sum of (scale·h)·W,
// z or x past 3.4028235e38. (Its float64 spread passes that later, by 2
// layers at these sizes: the spread of a layer's activations is below their
// largest, and the first to overflow is scale·h.) The CSV leaves such cells
// empty and says so in a comment line; gradient norms past float32's range
// (float64 in the kernel, rounded once: Infinity, not NaN) are named too.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { openHtml, startFigure, useBrowser } from './browser/harness.mjs';
import { randomNormals } from './reference/random.mjs';
import { forward, lossAndGradient } from './reference/residual_stack.mjs';

const env = useBrowser(before, after);
const frames = (page) => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
/** The figure's rows of x0 (depth.js ROWS). */
const ROWS = 16;

/**
 * The figure's stack inputs as docs/figures.md and depth.js document them —
 * x0 [16 × width] N(0, 1) from `seed`, W_0 … W_{layers−1} N(0, 1/width) from
 * seed + 1, each rounded to float32 (randomNormal) — and, from a float64 run
 * of the plain stack x ← x + GELU((scale·x)·W_l) (tests/reference/), the
 * first layer (1-based) where a value the kernel keeps in float32 rounds
 * to ±Infinity there (`values`: scale·h, every running sum of the product
 * in the kernel's order, z, x), and the first where the float64 spread
 * does (`spread`); 0 for none.
 */
function float64Stack(width, seed, scale, layers) {
  const x0 = Float32Array.from(randomNormals(ROWS * width, { seed }));
  const w = Float32Array.from(randomNormals(layers * width * width, { seed: seed + 1, std: 1 / Math.sqrt(width) }));
  const f = forward(x0, w, { width, layers, block: 'plain', scale });
  const past = (v) => !Number.isFinite(Math.fround(v));
  let values = 0, spread = 0;
  for (let l = 0; l < layers && !(values && spread); l++) {
    if (!spread && past(f.std[l])) spread = l + 1;
    if (values) continue;
    const h = f.xs[l], ww = l * width * width;
    let over = f.zs[l].some(past) || f.xs[l + 1].some(past);
    for (let r = 0; r < ROWS && !over; r++) {
      for (let j = 0; j < width && !over; j++) {
        let acc = 0;
        for (let k = 0; k < width && !over; k++) {
          const a = scale * h[r * width + k];
          acc += a * w[ww + k * width + j];
          over = past(a) || past(acc);
        }
      }
    }
    if (over) values = l + 1;
  }
  return { x0, w, values, spread, std: f.std };
}

const fromBase64 = (s) => {
  const b = Buffer.from(s, 'base64');
  return new Float32Array(b.buffer, b.byteOffset, b.length / 4);
};

/**
 * Applies `change` to the figure (properties, or keys pressed on its
 * sliders: { keys: [[name, key]] }), waits for its gradients, and reads
 * what it shows: readout lines, canvas aria-label, CSV, result and inputs.
 */
async function show(page, change) {
  if (change.keys) {
    for (const [name, key] of change.keys) {
      await page.locator(`#f input[name=${name}]`).focus();
      await page.keyboard.press(key);
    }
  } else await page.evaluate((c) => Object.assign(document.querySelector('#f'), c), change);
  await frames(page);
  await page.waitForFunction(() => {
    const el = document.querySelector('#f');
    return el.result?.gradNorms && el.result.gradNorms[0].length === el.layers;
  }, null, { timeout: 60000 });
  await frames(page);
  return page.evaluate(() => {
    const el = document.querySelector('#f');
    const b64 = (a) => {
      const bytes = new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
      let s = '';
      for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
      return btoa(s);
    };
    const inputs = el.inputs;
    return {
      values: el.values,
      lines: [...el.shadowRoot.querySelector('.readout').children].map((c) => c.textContent),
      aria: el.shadowRoot.querySelector('canvas').getAttribute('aria-label'),
      csv: el.toCsv(),
      stds: el.result.stds.map((s) => [...s].map(String)),
      grads: el.result.gradNorms.map((g) => [...g].map(String)),
      x0: b64(inputs.x0),
      weights: b64(inputs.weights),
    };
  });
}

/** The 1-based layers where `values` (strings of numbers) are not finite, as the figure writes them. */
function nonFiniteRanges(values) {
  const bad = values.map((v, i) => (Number.isFinite(Number(v)) ? -1 : i + 1)).filter((i) => i > 0);
  const parts = [];
  for (let i = 0; i < bad.length;) {
    let j = i;
    while (j + 1 < bad.length && bad[j + 1] === bad[j] + 1) j++;
    parts.push(j > i ? `${bad[i]}–${bad[j]}` : `${bad[i]}`);
    i = j + 1;
  }
  return parts.join(', ');
}

/** Checks one state shown in English; returns the layer the readout names for the overflow (0: none). */
function checkShown(s, at) {
  const text = s.lines.join('\n');
  for (const [what, t] of [['readout', text], ['aria-label', s.aria], ['CSV', s.csv]]) {
    assert.doesNotMatch(t, /NaN|Infinity/, `${at}: ${what} shows NaN or Infinity:\n${t.slice(0, 600)}`);
  }
  // pn.residualStack's own spreads (result.stds): where the plain one stops being finite
  const firstBad = s.stds.map((col) => col.findIndex((v) => !Number.isFinite(Number(v))) + 1);
  assert.deepEqual(firstBad.slice(1), [0, 0, 0], `${at}: only the plain stack overflows`);
  const named = text.match(/std after the last layer: no normalisation overflows float32 at layer (\d+) \(values past about 3\.4e38\) · Post-Norm /);
  const layer = named ? Number(named[1]) : 0;
  assert.equal(layer, firstBad[0], `${at}: the readout names layer ${layer}; pn.residualStack's spreads stop being finite at ${firstBad[0] || 'none'}`);
  // once not finite, never finite again: the curve, the CSV and the readout stop there
  if (layer) assert.ok(s.stds[0].slice(layer - 1).every((v) => !Number.isFinite(Number(v))), `${at}: spreads after the overflow`);
  // the text alternative says the same
  if (layer) assert.match(s.aria, new RegExp(`The “no normalisation” curve stops at layer ${layer}, where its float32 activations overflow \\(values past about 3\\.4e38\\)\\.`), `${at}: aria-label ${s.aria}`);
  else assert.doesNotMatch(s.aria, /overflow|float32/, `${at}: aria-label ${s.aria}`);
  // the CSV: a comment line when a column has empty cells, then the header and one row per layer
  const lines = s.csv.trimEnd().split('\n');
  const comments = lines.filter((l) => l.startsWith('#'));
  assert.deepEqual(comments, layer ? [`# std_plain is empty from layer ${layer} on: the stack's float32 activations overflowed there (values past about 3.4e38)`] : [], `${at}: CSV comments`);
  const rows = lines.slice(comments.length);
  assert.equal(rows[0], 'layer,std_plain,std_post-ln,std_pre-ln,std_pre-rms');
  assert.equal(rows.length - 1, s.values.layers);
  rows.slice(1).forEach((row, l) => {
    const cells = row.split(',');
    assert.equal(cells.length, 5, `${at}: CSV row ${row}`);
    assert.equal(Number(cells[0]), l + 1);
    cells.slice(1).forEach((c, k) => {
      if (k === 0 && layer && l + 1 >= layer) assert.equal(c, '', `${at}: std_plain at layer ${l + 1} is empty`);
      else assert.equal(Number(c), Number(s.stds[k][l]), `${at}: CSV layer ${l + 1} column ${k + 1} = ${c}`);
    });
  });
  // gradient norms past float32's range (float64 in the kernel, rounded once to float32)
  assert.ok(s.grads.flat().every((g) => !Number.isNaN(Number(g))), `${at}: a gradient norm is NaN`);
  const gradBad = nonFiniteRanges(s.grads[0]);
  const gradLine = s.lines.filter((l) => /weight-gradient norm past float32's range/.test(l));
  if (gradBad) {
    const count = s.grads[0].filter((g) => !Number.isFinite(Number(g))).length;
    assert.deepEqual(gradLine, [`no normalisation: weight-gradient norm past float32's range (about 3.4e38) at ${count === 1 ? 'layer' : 'layers'} ${gradBad}, not drawn there.`], `${at}: gradients`);
  } else assert.deepEqual(gradLine, [], `${at}: gradients`);
  assert.ok(s.grads.slice(1).every((g) => g.every((v) => Number.isFinite(Number(v)))), `${at}: normalised stacks' gradients are finite`);
  return layer;
}

test('depth past float32\'s range: no NaN in readout, aria-label or CSV; the readout names the layer where the plain stack overflows, which float64 confirms', async () => {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>t</title></head><body>
<div style="width:900px"><posnorm-depth id="f" lang="en"></posnorm-depth></div>
<script type="module" src="/web/figures/depth.js"></script></body></html>`;
  const { page, context, problems } = await openHtml(env.browser, env.server.url, html);
  await startFigure(page, '#f');
  const states = [
    // the defaults: nothing overflows, nothing is said about it
    [{}, 0],
    // the audit's state, as a reader reaches it: End on the layers and scale sliders
    [{ keys: [['layers', 'End'], ['scale', 'End']] }, 88],
    // another width and seed
    [{ width: 64, seed: 2 }, 90],
    // the last layer only; and a few gradient norms past float32's range, apart
    [{ width: 32, seed: 2, scale: 2.75 }, 96],
    // exactly one gradient norm past float32's range (layer 35), the activations in range:
    // the readout says "at layer 35", singular (count 1)
    [{ width: 32, seed: 2, scale: 2.9, layers: 92 }, 0],
    // fewer layers than the overflow needs
    [{ layers: 80, scale: 3, seed: 1 }, 0],
  ];
  const seen = [];
  for (const [change, expected] of states) {
    const s = await show(page, change);
    if (change.scale === 2.9) {
      // (checkShown derives the expected words from the gradients shown; here they are fixed by hand)
      assert.deepEqual(s.grads[0].map((g, l) => (Number.isFinite(Number(g)) ? 0 : l + 1)).filter(Boolean), [35], 'width 32 seed 2 scale 2.9 × 92: only layer 35\'s gradient norm overflows');
      // and so does float64: the plain stack's backward pass on the figure's first 4 rows, its
      // loss weights N(0, 1/(4·width)) from seed 20200, norms times the scale (taken with respect
      // to the unscaled weights), rounded to float32 (layer 35: 1.0035 × FLT_MAX, the rest ≤ 0.96)
      const { x0, w } = float64Stack(32, 2, 2.9, 92);
      const readout = Float32Array.from(randomNormals(4 * 32, { seed: 20200, std: 1 / Math.sqrt(4 * 32) }));
      // (as figures_article: the stack of the weights pre-scaled in float32, as the figure shows them)
      const ref = lossAndGradient(x0.subarray(0, 4 * 32), w.map((v) => 2.9 * v), readout, { width: 32, layers: 92, block: 'plain' }).gradNorm;
      assert.deepEqual([...ref].map((g, l) => (Number.isFinite(Math.fround(2.9 * g)) ? 0 : l + 1)).filter(Boolean), [35], 'float64: only layer 35\'s gradient norm is past float32\'s range');
      assert.ok(s.lines.includes("no normalisation: weight-gradient norm past float32's range (about 3.4e38) at layer 35, not drawn there."), `one overflowing layer is named in the singular:\n${s.lines.join('\n')}`);
    }
    const { width, seed, scale, layers, stack } = s.values;
    const at = `width ${width} seed ${seed} scale ${scale} layers ${layers} ${stack}`;
    const layer = checkShown(s, at);
    assert.equal(layer, expected, `${at}: overflow at ${layer}`);
    // the figure's inputs are the documented draws, and a float64 run of the
    // documented recurrence on them leaves float32's range at that layer
    const ref = float64Stack(width, seed, scale, layers);
    assert.deepEqual(fromBase64(s.x0), ref.x0, `${at}: x0 is randomNormal(16·width, seed)`);
    assert.deepEqual(fromBase64(s.weights), ref.w.map((t) => t * scale), `${at}: W_l are randomNormal(seed + 1, 1/√width), times scale`);
    assert.equal(layer, ref.values, `${at}: float64 holds a value past float32's range first at layer ${ref.values || 'none'}; the figure names ${layer || 'none'}`);
    // (the float64 spread itself, which is below the largest activation, passes it later or not at all)
    assert.ok(!ref.spread || ref.spread >= ref.values, `${at}: float64 spread past float32 at ${ref.spread}`);
    seen.push(`${at}: overflow ${layer || 'none'}, float64 spread past float32 at ${ref.spread || 'none'}, gradients past float32 at ${nonFiniteRanges(s.grads[0]) || 'none'}`);
  }
  // the decoder at the same sizes: the same words, from its own spreads
  const dec = await show(page, { stack: 'decoder', width: 32, seed: 1, scale: 3, layers: 96 });
  assert.ok(checkShown(dec, 'decoder') > 0, 'the decoder\'s plain stack overflows at 96 layers × 3');
  // in Korean
  await page.evaluate(() => { document.querySelector('#f').lang = 'ko'; });
  await frames(page);
  const ko = await page.evaluate(() => {
    const el = document.querySelector('#f');
    return { text: el.shadowRoot.querySelector('.readout').textContent, aria: el.shadowRoot.querySelector('canvas').getAttribute('aria-label'), stds: [...el.result.stds[0]].map(String) };
  });
  const koLayer = ko.stds.findIndex((v) => !Number.isFinite(Number(v))) + 1;
  assert.doesNotMatch(ko.text + ko.aria, /NaN|Infinity/);
  assert.match(ko.text, new RegExp(`마지막 층의 표준편차: 정규화 없음 ${koLayer}층에서 float32 오버플로 \\(약 3\\.4e38을 넘는 값\\)`), ko.text);
  assert.match(ko.text, /정규화 없음: 1–96층의 가중치 기울기 노름이 float32 범위/, ko.text);
  assert.match(ko.aria, new RegExp(`‘정규화 없음’ 곡선은 ${koLayer}층에서 끝납니다`), ko.aria);
  // back to the defaults: the text alternative forgets the overflow
  await page.evaluate(() => Object.assign(document.querySelector('#f'), { lang: 'en', stack: 'encoder', layers: 24, scale: 1 }));
  await frames(page);
  assert.doesNotMatch(await page.evaluate(() => document.querySelector('#f').shadowRoot.querySelector('canvas').getAttribute('aria-label')), /overflow|float32/);
  console.log(seen.join('\n'));
  assert.deepEqual(problems, []);
  await context.close();
});
