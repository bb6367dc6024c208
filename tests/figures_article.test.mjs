// The article's other six figures in headless Chromium: their readouts
// against the float64 references of tests/reference/, keyboard and touch
// operation.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { open, useBrowser, startFigure } from './browser/harness.mjs';
import { compareValues, ulp32 } from './helpers.mjs';
import { alibiSlopes } from './reference/alibi.mjs';
import { attention } from './reference/attention.mjs';
import { transformerBlock } from './reference/block.mjs';
import { batchNorm, columnStats, layerNorm } from './reference/norms.mjs';
import { peValue, sinusoidal } from './reference/pe.mjs';
import { randomNormals } from './reference/random.mjs';
import { forward, lossAndGradient } from './reference/residual_stack.mjs';
import { rope } from './reference/rope.mjs';

const env = useBrowser(before, after);

async function figure(page, tag) {
  await startFigure(page, tag);
}
/** Runs `fn(el, arg)` in the page, then waits for the figure to repaint. */
async function update(page, tag, fn, arg) {
  await page.evaluate(([t, src, a]) => {
    const el = document.querySelector(t);
    new Function('el', 'a', src)(el, a);
    el.invalidate();
  }, [tag, fn, arg]);
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}
const get = (page, tag, expr) => page.evaluate(([t, e]) => new Function('el', `return ${e}`)(document.querySelector(t)), [tag, expr]);

test('order: outputs equal float64 attention; without PE reordering changes nothing, with PE it does', async () => {
  const { page, problems, context } = await open(env.browser, `${env.server.url}/web/?lang=en`, { hasTouch: true });
  const tag = 'posnorm-order';
  await figure(page, tag);
  const inputs = await get(page, tag, '({ emb: [...el.inputs.emb], wq: [...el.inputs.wq], wk: [...el.inputs.wk], wv: [...el.inputs.wv], pe: [...el.inputs.pe] })');
  const check = async (withPe) => {
    const r = await get(page, tag, '({ order: el.result.order, delta: el.result.delta, outputs: el.result.outputs.map((v) => [...v]) })');
    const order = [...r.order].map(Number);
    const x = order.flatMap((tok, at) => inputs.emb.slice(tok * 8, tok * 8 + 8).map((v, c) => Math.fround(v + (withPe ? inputs.pe[at * 8 + c] : 0))));
    const { out } = attention(x, inputs.wq, inputs.wk, inputs.wv, { seqLen: 3, dModel: 8 });
    // float64 inside, rounded once: within half an ulp
    order.forEach((tok, at) => {
      const c = compareValues(r.outputs[tok], out.subarray(at * 8, at * 8 + 8), ulp32);
      assert.ok(c.err <= 0.6, `token ${tok}: ${c.err} ulp`);
    });
    return r;
  };
  // keyboard: focus the first token and move it right
  await page.locator(`${tag} button.tok`).first().focus();
  await page.keyboard.press('ArrowRight');
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  let r = await check(false);
  assert.equal(r.order, '102');
  assert.ok(r.delta < 1e-6, `no PE: delta ${r.delta}`);
  assert.match(await page.locator(`${tag} .readout`).textContent(), /max \|Δ\| = 0 \(no PE/);
  // touch: tap "move right" on the middle token
  await page.locator(`${tag} li:nth-child(2) button`).last().tap();
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  assert.equal((await check(false)).order, '120');
  // mouse drag: pull the first token to the right past its neighbour
  const box = await page.locator(`${tag} button.tok`).first().boundingBox();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * 1.6, box.y + box.height / 2, { steps: 5 });
  await page.mouse.up();
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  assert.equal((await check(false)).order, '210', 'dragging 1 to the right of 2');
  await page.locator(`${tag} select`).selectOption('on');
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  r = await check(true);
  assert.ok(r.delta > 1e-3, `with PE: delta ${r.delta}`);
  assert.deepEqual(problems, []);
  await context.close();
});

test('properties: range, closest pair, R(k) and the shift error against float64', async () => {
  const { page, problems, context } = await open(env.browser, `${env.server.url}/web/`);
  const tag = 'posnorm-properties';
  await figure(page, tag);
  await update(page, tag, 'Object.assign(el, a)', { dModel: 16, seqLen: 30, base: 100, k: 7, pos: 12 });
  const r = await get(page, tag, '({ min: el.result.min, max: el.result.max, closest: el.result.closest, err: el.result.maxShiftError, rot: el.result.rotation, blocks: el.result.blocks })');
  // the 2×2 block of every listed pair: cos/sin of k·ω_i
  assert.deepEqual(r.blocks.map((b) => b.i), [0, 1, 2, 3, 7]);
  for (const b of r.blocks) {
    const th = 7 * Math.pow(100, (-2 * b.i) / 16);
    assert.ok(Math.abs(b.cos - Math.cos(th)) < 1e-7 && Math.abs(b.sin - Math.sin(th)) < 1e-7, `block ${b.i}`);
  }
  // the table of the blocks, written cell by cell over the defaults' table
  // (dModel 64: the same shape, pairs 0–3 and 31): pair, k·ω_i against float64
  const table = () => page.evaluate((t) => [...document.querySelector(t).shadowRoot.querySelectorAll('table tr')].map((tr) => [...tr.cells].map((c) => `${c.localName}:${c.textContent}`)), tag);
  const rowsHead = (rows) => rows[0].join(' ');
  const checkTable = (rows, d, base, k, pairs) => {
    assert.equal(rows.length, pairs.length + 1);
    assert.ok(rows[0].every((c) => c.startsWith('th:')) && rows[0].length === 3, JSON.stringify(rows[0]));
    pairs.forEach((i, n) => {
      const [pair, theta] = rows[n + 1];
      assert.equal(pair, `td:${i}`);
      const want = k * Math.pow(base, (-2 * i) / d);
      assert.ok(Math.abs(Number(theta.slice(3)) - want) <= 1e-4 * Math.max(1, Math.abs(want)), `θ of pair ${i}: ${theta}, float64 ${want}`);
    });
  };
  checkTable(await table(), 16, 100, 7, [0, 1, 2, 3, 7]);
  assert.match(rowsHead(await table()), /7/, 'the header names k');
  // a repaint writes only the cells whose text changed: seqLen (which the
  // table does not show) none, k the header and the θ and R(k) columns
  const mutated = (change) => page.evaluate(async ([t, change]) => {
    const el = document.querySelector(t);
    const rows = [...el.shadowRoot.querySelector('table').rows];
    const seen = new Set();
    const note = (list) => {
      for (const m of list) {
        const cell = (m.target.nodeType === Node.TEXT_NODE ? m.target.parentElement : m.target).closest('td, th');
        seen.add(cell ? `${rows.indexOf(cell.parentElement)}:${cell.cellIndex}` : 'table');
      }
    };
    const mo = new MutationObserver(note);
    mo.observe(el.shadowRoot.querySelector('table'), { childList: true, subtree: true, characterData: true });
    Object.assign(el, change);
    el.invalidate();
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    note(mo.takeRecords());
    mo.disconnect();
    return [...seen].sort();
  }, [tag, change]);
  assert.deepEqual(await mutated({ seqLen: 31 }), [], 'a seqLen change writes nothing in the table');
  const byK = await mutated({ k: 9 });
  assert.ok(byK.length > 0 && byK.every((c) => c === '0:1' || /^[1-5]:[12]$/.test(c)), `a k change writes the header's θ and the θ and R(k) cells alone: ${byK}`);
  await update(page, tag, 'Object.assign(el, a)', { k: 7 });
  // fewer pairs (dModel 4: pairs 0 and 1), then back to five
  await update(page, tag, 'Object.assign(el, a)', { dModel: 4 });
  checkTable(await table(), 4, 100, 7, [0, 1]);
  await update(page, tag, 'Object.assign(el, a)', { dModel: 16 });
  checkTable(await table(), 16, 100, 7, [0, 1, 2, 3, 7]);
  const pe = (p) => Array.from({ length: 16 }, (_, c) => peValue(p, c, 16, { base: 100 }));
  let lo = Infinity, hi = -Infinity, best = Infinity, pair;
  for (let i = 0; i < 30; i++) {
    for (const v of pe(i)) { lo = Math.min(lo, v); hi = Math.max(hi, v); }
    for (let j = i + 1; j < 30; j++) {
      const d = Math.sqrt(pe(i).reduce((a, v, c) => a + (v - pe(j)[c]) ** 2, 0));
      if (d < best) { best = d; pair = [i, j]; }
    }
  }
  assert.ok(Math.abs(r.min - lo) < 2e-7 && Math.abs(r.max - hi) < 2e-7);
  assert.ok(Math.abs(r.closest.distance - best) < 1e-6, `${r.closest.distance} vs ${best}`);
  // every adjacent pair is at the same distance in exact arithmetic (a rotation
  // keeps lengths), so rounding picks among ties: check the reported pair's own distance
  const own = Math.sqrt(pe(r.closest.i).reduce((a, v, c) => a + (v - pe(r.closest.j)[c]) ** 2, 0));
  assert.ok(Math.abs(own - best) < 1e-6 && r.closest.i < r.closest.j, `pair ${r.closest.i}, ${r.closest.j}`);
  assert.ok(r.err < 3e-7);
  assert.ok(Math.abs(r.rot[0][0] - Math.cos(7)) < 1e-7 && Math.abs(r.rot[0][1] - Math.sin(7)) < 1e-7);
  assert.match(await page.locator(`${tag} .readout:not(.pe-error)`).textContent(), new RegExp(`${r.closest.i}.+${r.closest.j}.+${best.toFixed(5)}`));
  // every pair at the closest distance is adjacent (pe(i)·pe(j) depends on j − i
  // only, and the distance grows with |j − i| up to 30 at this base); the
  // figure's pair must be one of them, as the brute force's is
  assert.equal(pair[1] - pair[0], 1, 'the float64 brute force finds an adjacent pair');
  assert.equal(r.closest.j - r.closest.i, 1, `the figure's pair ${r.closest.i}, ${r.closest.j} is adjacent`);
  assert.deepEqual(problems, []);
  await context.close();
});

test('compare: ALiBi slopes are the paper\'s; RoPE scores equal float64 and depend only on distance', async () => {
  const { page, problems, context } = await open(env.browser, `${env.server.url}/web/`);
  const tag = 'posnorm-compare';
  await figure(page, tag);
  for (const heads of [8, 12]) {
    await update(page, tag, 'el.heads = a', heads);
    const slopes = await get(page, tag, '[...el.result.slopes]');
    const expect = alibiSlopes(heads);
    assert.equal(slopes.length, heads);
    slopes.forEach((m, h) => assert.equal(m, Math.fround(expect[h]), `head ${h}`));
  }
  const r = await get(page, tag, '({ q: [...el.result.q], k: [...el.result.k], s: el.result.ropeScores, d: el.dModel, n: el.seqLen, o: el.offset, diff: el.result.ropeDiff })');
  const rotated = (v, p) => rope(v, { seqLen: 1, heads: 1, headDim: r.d, positions: () => p });
  let worst = 0;
  for (const [k, start] of [[0, 0], [1, r.o]]) {
    const rk = rotated(r.k, start);
    for (let d = 0; d < r.n; d++) {
      const ref = rotated(r.q, start + d).reduce((a, v, c) => a + v * rk[c], 0);
      worst = Math.max(worst, Math.abs(r.s[k][d] - ref));
    }
  }
  // float32 rotations of unit-scale q and k, summed over d_model: measured 4.5e-7
  assert.ok(worst <= 1e-6, `RoPE scores: ${worst} from float64`);
  assert.ok(r.diff <= 2e-6, `scores from two starts differ by ${r.diff}`);
  assert.deepEqual(problems, []);
  await context.close();
});

test('depth: per-layer std and gradient norms equal the float64 stack and its backward pass, close enough to see every branch', async () => {
  const { page, problems, context } = await open(env.browser, `${env.server.url}/web/`);
  const tag = 'posnorm-depth';
  await figure(page, tag);
  await update(page, tag, 'Object.assign(el, a)', { layers: 10, width: 16, scale: 1.5 });
  const r = await get(page, tag, '({ x0: [...el.inputs.x0], w: [...el.inputs.weights], rows: el.inputs.rows, stds: el.result.stds.map((s) => [...s]) })');
  const W = 16, L = 10, BLOCKS = ['plain', 'post-ln', 'pre-ln', 'pre-rms'];
  assert.equal(r.rows, 16);
  // the figure's weights come pre-scaled (its float32 products of weight and scale), so scale 1 here
  const x0 = Float32Array.from(r.x0), w = Float32Array.from(r.w);
  // measured 5.8e-8 relative (its matrix products run in float32); the erf form of GELU is 5e-5 to
  // 7e-5 away, Post-LN without its branch 2.6e-6 (the old tolerance, 1e-3, passed both)
  const stdTol = 1.2e-7;
  BLOCKS.forEach((block, b) => {
    const ref = forward(x0, w, { width: W, layers: L, block }).std;
    for (let l = 0; l < L; l++) assert.ok(Math.abs(r.stds[b][l] - ref[l]) <= stdTol * ref[l], `${block} layer ${l + 1}: ${r.stds[b][l]} vs ${ref[l]}`);
    // the tolerance sees the branch: Post-LN's spread without its branch (zero weights), and
    // the other stacks' spreads with the erf form of GELU, fall outside it
    const other = block === 'post-ln' ? forward(x0, new Float32Array(w.length), { width: W, layers: L, block }).std
      : forward(x0, w, { width: W, layers: L, block, gelu: 'erf' }).std;
    assert.ok(other.some((t, l) => Math.abs(r.stds[b][l] - t) > 10 * stdTol * t), `${block}: the tolerance tells the branch apart`);
  });
  // the gradient panel: per-layer weight-gradient norms of the stack on its first 4 rows with
  // the documented read-out (seed 20200, N(0, 1/(rows·width))), against the float64 backward
  // pass. Gradients are taken with respect to the unscaled weights, so they are scale times
  // those with respect to the pre-scaled weights the figure shows.
  await page.waitForFunction((t) => document.querySelector(t).result.gradRatio, tag, { timeout: 10000 });
  const shown = await get(page, tag, '({ ratio: el.result.gradRatio, grads: el.result.gradNorms.map((g) => [...g]), text: el.shadowRoot.querySelector(".readout").textContent })');
  const x4 = x0.subarray(0, 4 * W), readout = Float32Array.from(randomNormals(4 * W, { seed: 20200, std: 1 / 8 }));
  // measured 1.8e-7 relative (pre-scaled weights rounded to float32, norms rounded once); the erf
  // form of GELU is 4e-4 to 2.3e-3 away
  const gradTol = 4e-7;
  const refGrads = {};
  BLOCKS.forEach((block, b) => {
    const ref = lossAndGradient(x4, w, readout, { width: W, layers: L, block }).gradNorm.map((g) => 1.5 * g);
    const erf = lossAndGradient(x4, w, readout, { width: W, layers: L, block, gelu: 'erf' }).gradNorm.map((g) => 1.5 * g);
    refGrads[block] = ref;
    for (let l = 0; l < L; l++) assert.ok(Math.abs(shown.grads[b][l] - ref[l]) <= gradTol * ref[l], `${block} gradient norm, layer ${l + 1}: ${shown.grads[b][l]} vs ${ref[l]}`);
    assert.ok(erf.some((t, l) => Math.abs(shown.grads[b][l] - t) > 10 * gradTol * t), `${block}: the erf form of GELU is told apart`);
  });
  const ratio = (block) => refGrads[block][L - 1] / refGrads[block][0];
  assert.ok(Math.abs(shown.ratio.post - ratio('post-ln')) <= 2 * gradTol * ratio('post-ln'), `Post-LN ratio ${shown.ratio.post} vs ${ratio('post-ln')}`);
  assert.ok(Math.abs(shown.ratio.pre - ratio('pre-ln')) <= 2 * gradTol * ratio('pre-ln'), `Pre-LN ratio ${shown.ratio.pre} vs ${ratio('pre-ln')}`);
  assert.match(shown.text, /Xiong/);
  assert.deepEqual(problems, []);
  await context.close();
});

test('LayerNorm steps and BatchNorm vs LayerNorm against float64; batch size 1', async () => {
  const { page, problems, context } = await open(env.browser, `${env.server.url}/web/?lang=en`);
  let tag = 'posnorm-ln-steps';
  await figure(page, tag);
  await page.locator(`${tag} input[name=gamma]`).focus();
  for (let k = 0; k < 6; k++) await page.keyboard.press('ArrowRight');
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  const s = await get(page, tag, '({ x: [...el.result.x], y: [...el.result.y], c: [...el.result.centered], g: el.gamma, b: el.beta })');
  assert.equal(s.g, 1.3);
  const n = s.x.length;
  const ln = layerNorm(s.x, n, { gamma: new Float32Array(n).fill(s.g), beta: new Float32Array(n).fill(s.b), eps: Math.fround(1e-5) });
  // every step in float64, rounded once: within half an ulp
  const centered = compareValues(s.c, s.x.map((t) => t - ln.mean[0]), ulp32), y = compareValues(s.y, ln.y, ulp32);
  assert.ok(centered.err <= 0.6 && y.err <= 0.6, `LayerNorm steps: centered ${centered.err} ulp, y ${y.err} ulp`);

  tag = 'posnorm-bn-vs-ln';
  await figure(page, tag);
  const checkBoth = async (mode) => {
    const r = await get(page, tag, '({ x: [...el.result.x], bn: [...el.result.bn], ln: [...el.result.ln], rm: [...el.result.bnMean], rv: [...el.result.bnVar], B: el.batch, H: el.features })');
    // training: the batch's own statistics; inference: the running ones the figure shows
    const stats = mode === 'train' ? columnStats(r.x, r.H) : { mean: r.rm, variance: r.rv };
    const bn = compareValues(r.bn, batchNorm(r.x, r.H, { ...stats, eps: Math.fround(1e-5) }));
    // measured: BatchNorm 1.2e-7 (float64 inside, rounded once), LayerNorm 1.6e-7 (float32 blocks)
    assert.ok(bn.err <= 2.5e-7 && bn.compared === r.B * r.H, `BatchNorm (${mode}): ${bn.err}`);
    const ln = compareValues(r.ln, layerNorm(r.x, r.H, { eps: Math.fround(1e-5) }).y);
    assert.ok(ln.err <= 3.5e-7, `LayerNorm: ${ln.err}`);
    return r;
  };
  await checkBoth('train');
  await page.locator(`${tag} select`).selectOption('infer');
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  await checkBoth('infer');
  await page.locator(`${tag} select`).selectOption('train');
  await update(page, tag, 'el.batch = 1');
  const one = await checkBoth('train');
  assert.ok(one.bn.every((t) => t === 0), 'batch of one: BatchNorm gives beta = 0 everywhere');
  assert.match(await page.locator(`${tag} .readout`).textContent(), /Batch size 1 in training mode/);
  assert.deepEqual(problems, []);
  await context.close();
});

test('block: every tensor equals a float64 block computed here; toggles Pre/Post, LayerNorm/RMSNorm, PE on/off', async () => {
  const { page, problems, context } = await open(env.browser, `${env.server.url}/web/?lang=en`);
  const tag = 'posnorm-block';
  await figure(page, tag);
  const TENSORS = ['x', 'attnInput', 'attnOutput', 'residual1', 'ffnInput', 'ffnOutput', 'residual2', 'output', 'attention'];
  const check = async (want) => {
    const s = await get(page, tag, `({ x: [...el.inputs.x], w: [...el.inputs.weights], o: el.inputs.options, pe: el.pe,
      r: Object.fromEntries(${JSON.stringify(TENSORS)}.map((k) => [k, [...el.result[k]]])), pinned: el.result.pinned,
      text: el.shadowRoot.querySelector('.readout').textContent })`);
    for (const [k, v] of Object.entries(want)) assert.equal(s.o[k] ?? s[k], v, k);
    const ref = transformerBlock(Float32Array.from(s.x), Float32Array.from(s.w), s.o);
    for (const k of TENSORS) {
      // float64 inside, every tensor rounded once: within half an ulp
      const c = compareValues(s.r[k], ref[k], ulp32);
      assert.ok(c.err <= 0.6 && c.compared === ref[k].length, `${k}: ${c.err} ulp from float64`);
    }
    // the readout's pinning numbers: tokens right after each norm, from float64
    const d = s.o.dModel, T = s.x.length / d;
    const normed = s.o.placement === 'pre' ? ['attnInput', 'ffnInput'] : ['ffnInput', 'output'];
    const rows = normed.flatMap((k) => Array.from({ length: T }, (_, r) => Array.from(ref[k].subarray(r * d, (r + 1) * d))));
    const mean = (a) => a.reduce((p, q) => p + q, 0) / a.length;
    if (s.o.norm === 'rms') {
      const worst = Math.max(...rows.map((a) => Math.abs(Math.sqrt(mean(a.map((v) => v * v))) - 1)));
      assert.ok(Math.abs(s.pinned.rms - worst) < 1e-6, `rms pin ${s.pinned.rms} vs ${worst}`);
      assert.match(s.text, /RMSNorm pins only the root mean square/);
    } else {
      const worst = Math.max(...rows.map((a) => { const m = mean(a); return Math.abs(Math.sqrt(mean(a.map((v) => (v - m) ** 2))) - 1); }));
      assert.ok(Math.abs(s.pinned.std - worst) < 1e-6, `std pin ${s.pinned.std} vs ${worst}`);
      assert.ok(s.pinned.std < 1e-4 && s.pinned.mean < 1e-6);
      assert.match(s.text, /LayerNorm pins each token to mean 0, std 1/);
    }
    assert.match(s.text, s.o.placement === 'pre' ? /Pre-Norm: the output y = h \+ f is the unnormalised residual stream/ : /Post-Norm: the output y is normalised again/);
    return s;
  };
  const on = await check({ placement: 'pre', norm: 'layer', pe: 'on', dModel: 16, heads: 2 });
  // the figure's x is its seeded embedding plus the sinusoidal PE: switching PE off removes exactly PE
  await page.locator(`${tag} select`).nth(2).selectOption('off');
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  const off = await check({ placement: 'pre', pe: 'off' });
  const pe = sinusoidal(3, 16);
  on.x.forEach((v, i) => assert.ok(Math.abs(v - off.x[i] - pe[i]) < 1e-6, 'x(PE on) − x(PE off) = PE'));
  await page.locator(`${tag} select`).first().selectOption('post');
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  await check({ placement: 'post', norm: 'layer' });
  await update(page, tag, 'el.setAttribute("norm", "rms"); el.setAttribute("d-model", "32"); el.setAttribute("heads", "3")');
  await check({ placement: 'post', norm: 'rms', dModel: 32, heads: 4 });
  assert.equal(await get(page, tag, 'el.heads'), 4, 'heads 3 reads as 4');
  // GELU: the erf form (nn.GELU()) by default, the tanh form from its select; the 0.6-ulp check
  // above against the reference of the form the figure names tells them apart (tests/block.test.mjs)
  assert.equal((await check({ gelu: 'erf' })).o.gelu, 'erf');
  const select = page.locator(`${tag} select[name=gelu]`);
  assert.equal(await page.locator(`${tag} label`).filter({ hasText: 'GELU' }).count() >= 1, true, 'the GELU select has its label');
  await select.selectOption('tanh');
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  await check({ gelu: 'tanh', placement: 'post', norm: 'rms' });
  assert.equal(await get(page, tag, 'el.getAttribute("gelu")'), 'tanh', 'the choice is reflected to the attribute');
  assert.match(await get(page, tag, 'el.shareUrl()'), /gelu=tanh/, 'and goes into the share link');
  assert.deepEqual(problems, []);
  await context.close();
});

test('depth, decoder (cross-attention): spreads and gradient norms equal the float64 stack with its memory; Post-LN grows, Pre-LN stays level; the readout says why (en and ko)', async () => {
  const { page, problems, context } = await open(env.browser, `${env.server.url}/web/?lang=en`);
  const tag = 'posnorm-depth';
  await figure(page, tag);
  const select = page.locator(`${tag} select[name=stack]`);
  await select.selectOption('decoder');
  await update(page, tag, 'Object.assign(el, a)', { layers: 12, width: 32, scale: 1 });
  assert.equal(await get(page, tag, 'el.getAttribute("stack")'), 'decoder', 'the choice is reflected to the attribute');
  assert.match(await get(page, tag, 'el.shareUrl()'), /stack=decoder/, 'and goes into the share link');
  const r = await get(page, tag, '({ x0: [...el.inputs.x0], w: [...el.inputs.weights], m: [...el.inputs.memory], rows: el.inputs.rows, stds: el.result.stds.map((s) => [...s]) })');
  const W = 32, L = 12, BLOCKS = ['plain', 'post-ln', 'pre-ln', 'pre-rms'];
  assert.equal(r.w.length, 2 * L * W * W, 'W_l and C_l for every layer');
  // layer by layer, the encoder's W_l (seed + 1) and then C_l (seed + 2),
  // both N(0, 1/width), as the reference generator draws them: at the
  // layers shown, then at all 96 (raised after the decoder was built) for
  // another seed and width
  const checkDecoder = (w, { width, layers, seed }) => {
    const WW = width * width;
    const refW = randomNormals(layers * WW, { seed: seed + 1, std: 1 / Math.sqrt(width) });
    const refC = randomNormals(layers * WW, { seed: seed + 2, std: 1 / Math.sqrt(width) });
    assert.equal(w.length, 2 * layers * WW);
    for (let l = 0; l < layers; l++) {
      for (const [part, ref, at] of [['W', refW, 2 * l * WW], ['C', refC, (2 * l + 1) * WW]]) {
        const k = w.slice(at, at + WW).findIndex((v, j) => Math.abs(v - ref[l * WW + j]) > 2 * ulp32(ref[l * WW + j]));
        assert.equal(k, -1, `decoder ${part}_${l}[${k}] (width ${width}, seed ${seed}): ${w[at + k]} vs ${ref[l * WW + k]}`);
      }
    }
  };
  checkDecoder(r.w, { width: W, layers: L, seed: await get(page, tag, 'el.seed') });
  for (const state of [{ layers: 96 }, { seed: 5, layers: 96 }, { width: 16, seed: 5, layers: 96 }, { width: W, seed: 1, layers: L }]) {
    await update(page, tag, 'Object.assign(el, a)', state);
    const now = await get(page, tag, '({ w: [...el.inputs.weights], x0: [...el.inputs.x0], m: [...el.inputs.memory], stds: el.result.stds.map((s) => [...s]), width: el.width, layers: el.layers, seed: el.seed })');
    checkDecoder(now.w, now);
    // and what it draws is that state's stack (the float64 one)
    const ref = forward(Float32Array.from(now.x0), Float32Array.from(now.w), { width: now.width, layers: now.layers, block: 'post-ln', memory: Float32Array.from(now.m) }).std;
    for (let l = 0; l < now.layers; l++) assert.ok(Math.abs(now.stds[1][l] - ref[l]) <= 5e-7 * ref[l], `${JSON.stringify(state)}: post-ln layer ${l + 1}: ${now.stds[1][l]} vs ${ref[l]}`);
  }
  const x0 = Float32Array.from(r.x0), w = Float32Array.from(r.w), memory = Float32Array.from(r.m);
  // float32 products (measured 1.3e-7 relative in tests/depth_memory.test.mjs at width 8; here up to 3e-7)
  const stdTol = 5e-7;
  BLOCKS.forEach((block, b) => {
    const ref = forward(x0, w, { width: W, layers: L, block, memory }).std;
    for (let l = 0; l < L; l++) assert.ok(Math.abs(r.stds[b][l] - ref[l]) <= stdTol * ref[l], `${block} layer ${l + 1}: ${r.stds[b][l]} vs ${ref[l]}`);
    if (block === 'post-ln') return;
    const encoder = forward(x0, w, { width: W, layers: L, block }).std; // the same array read as W_l only: not the figure's stack
    assert.ok(encoder.some((t, l) => Math.abs(r.stds[b][l] - t) > 10 * stdTol * t), `${block}: the memory branch is seen`);
  });
  await page.waitForFunction((t) => document.querySelector(t).result.gradRatio, tag, { timeout: 20000 });
  const shown = await get(page, tag, '({ ratio: el.result.gradRatio, grads: el.result.gradNorms.map((g) => [...g]), text: el.shadowRoot.querySelector(".readout").textContent })');
  const x4 = x0.subarray(0, 4 * W), readout = Float32Array.from(randomNormals(4 * W, { seed: 20200, std: 1 / Math.sqrt(4 * W) }));
  const refGrads = {};
  BLOCKS.forEach((block, b) => {
    refGrads[block] = lossAndGradient(x4, w, readout, { width: W, layers: L, block, memory }).gradNorm;
    for (let l = 0; l < L; l++) assert.ok(Math.abs(shown.grads[b][l] - refGrads[block][l]) <= 4e-7 * refGrads[block][l], `${block} gradient norm, layer ${l + 1}: ${shown.grads[b][l]} vs ${refGrads[block][l]}`);
  });
  const ratio = (block) => refGrads[block][L - 1] / refGrads[block][0];
  assert.ok(Math.abs(shown.ratio.post - ratio('post-ln')) <= 1e-6 * ratio('post-ln'));
  assert.ok(shown.ratio.post > 5 && shown.ratio.pre < 1.5, `the figure shows the growth: Post-LN ${shown.ratio.post}, Pre-LN ${shown.ratio.pre}`);
  assert.match(shown.text, /reproduces Xiong/);
  assert.match(shown.text, /Why: each decoder block also adds m·C_l, a cross-attention to the encoder output that does not depend on x/);
  await update(page, tag, 'el.setAttribute("stack", "encoder")');
  assert.match(await get(page, tag, 'el.shadowRoot.querySelector(".readout").textContent'), /Encoder: every branch depends on x/);
  assert.deepEqual(problems, []);
  await context.close();
  // Korean
  const ko = await open(env.browser, `${env.server.url}/web/?lang=ko`);
  await figure(ko.page, tag);
  await update(ko.page, tag, 'el.setAttribute("stack", "decoder")');
  const koText = await get(ko.page, tag, 'el.shadowRoot.querySelector(".readout").textContent');
  assert.match(koText, /이유: 디코더 블록마다 x와 무관한 교차 어텐션 가지/);
  assert.match(await ko.page.locator(`${tag} select[name=stack]`).evaluate((e) => e.selectedOptions[0].textContent), /디코더/);
  assert.deepEqual(ko.problems, []);
  await ko.context.close();
});
