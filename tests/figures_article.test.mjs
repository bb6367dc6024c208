// The article's other six figures in headless Chromium: their readouts
// against float64 values computed here, keyboard and touch operation.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { open, useBrowser, startFigure } from './browser/harness.mjs';
import { blockRef, peRef } from './helpers.mjs';

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

/** float64 single-head attention of rows x [s × d]. */
function attention(x, wq, wk, wv, s, d) {
  const proj = (w) => Array.from({ length: s }, (_, i) => Array.from({ length: d }, (_, c) => {
    let t = 0;
    for (let k = 0; k < d; k++) t += x[i * d + k] * w[k * d + c];
    return t;
  }));
  const q = proj(wq), k = proj(wk), v = proj(wv);
  return q.map((qi) => {
    const sc = k.map((kj) => qi.reduce((a, t, c) => a + t * kj[c], 0) / Math.sqrt(d));
    const top = Math.max(...sc), e = sc.map((t) => Math.exp(t - top)), z = e.reduce((a, b) => a + b, 0);
    return Array.from({ length: d }, (_, c) => e.reduce((a, w, j) => a + (w / z) * v[j][c], 0));
  });
}

test('order: outputs equal float64 attention; without PE reordering changes nothing, with PE it does', async () => {
  const { page, problems, context } = await open(env.browser, `${env.server.url}/web/?lang=en`, { hasTouch: true });
  const tag = 'posnorm-order';
  await figure(page, tag);
  const inputs = await get(page, tag, '({ emb: [...el.inputs.emb], wq: [...el.inputs.wq], wk: [...el.inputs.wk], wv: [...el.inputs.wv], pe: [...el.inputs.pe] })');
  const check = async (withPe) => {
    const r = await get(page, tag, '({ order: el.result.order, delta: el.result.delta, outputs: el.result.outputs.map((v) => [...v]) })');
    const order = [...r.order].map(Number);
    const x = order.flatMap((tok, at) => inputs.emb.slice(tok * 8, tok * 8 + 8).map((v, c) => Math.fround(v + (withPe ? inputs.pe[at * 8 + c] : 0))));
    const out = attention(x, inputs.wq, inputs.wk, inputs.wv, 3, 8);
    order.forEach((tok, at) => out[at].forEach((v, c) => assert.ok(Math.abs(r.outputs[tok][c] - v) < 1e-6, `token ${tok} dim ${c}`)));
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
  const rowsShown = await page.evaluate((t) => document.querySelector(t).shadowRoot.querySelectorAll('table tr').length, tag);
  assert.equal(rowsShown, 6);
  const pe = (p) => Array.from({ length: 16 }, (_, c) => (c % 2 ? Math.cos : Math.sin)(p * Math.pow(100, -2 * (c >> 1) / 16)));
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
    const p = 2 ** Math.floor(Math.log2(heads));
    const expect = Array.from({ length: heads }, (_, h) => (h < p ? 2 ** (-8 * (h + 1) / p) : 2 ** (-8 * (2 * (h - p) + 1) / (2 * p))));
    slopes.forEach((m, h) => assert.ok(Math.abs(m - expect[h]) <= 1e-7 * expect[h], `head ${h}`));
  }
  const r = await get(page, tag, '({ q: [...el.result.q], k: [...el.result.k], s: el.result.ropeScores, d: el.dModel, n: el.seqLen, o: el.offset, diff: el.result.ropeDiff })');
  const rope = (v, p) => {
    const half = r.d / 2, out = [...v];
    for (let i = 0; i < half; i++) {
      const th = p * Math.pow(10000, -2 * i / r.d);
      out[i] = v[i] * Math.cos(th) - v[i + half] * Math.sin(th);
      out[i + half] = v[i] * Math.sin(th) + v[i + half] * Math.cos(th);
    }
    return out;
  };
  for (const [k, start] of [[0, 0], [1, r.o]]) {
    for (let d = 0; d < r.n; d += 5) {
      const ref = rope(r.q, start + d).reduce((a, v, c) => a + v * rope(r.k, start)[c], 0);
      assert.ok(Math.abs(r.s[k][d] - ref) < 1e-5, `score start ${start} distance ${d}: ${r.s[k][d]} vs ${ref}`);
    }
  }
  assert.ok(r.diff < 1e-5);
  assert.deepEqual(problems, []);
  await context.close();
});

test('depth: per-layer std equals a float64 run of the same stack; Post-Norm stays at 1', async () => {
  const { page, problems, context } = await open(env.browser, `${env.server.url}/web/`);
  const tag = 'posnorm-depth';
  await figure(page, tag);
  await update(page, tag, 'Object.assign(el, a)', { layers: 10, width: 16, scale: 1.5 });
  const r = await get(page, tag, '({ x0: [...el.inputs.x0], w: [...el.inputs.weights], rows: el.inputs.rows, stds: el.result.stds.map((s) => [...s]) })');
  const W = 16, R = r.rows;
  const gelu = (z) => 0.5 * z * (1 + Math.tanh(Math.sqrt(2 / Math.PI) * (z + 0.044715 * z ** 3)));
  const norm = (x, rms) => x.map((_, k) => {
    const row = x.slice(Math.floor(k / W) * W, Math.floor(k / W) * W + W);
    const m = rms ? 0 : row.reduce((a, b) => a + b, 0) / W;
    return (x[k] - m) / Math.sqrt(row.reduce((a, b) => a + (b - m) ** 2, 0) / W + 1e-5);
  });
  const std = (x) => { const m = x.reduce((a, b) => a + b, 0) / x.length; return Math.sqrt(x.reduce((a, b) => a + (b - m) ** 2, 0) / x.length); };
  ['plain', 'post-ln', 'pre-ln', 'pre-rms'].forEach((block, b) => {
    let x = [...r.x0];
    for (let l = 0; l < 10; l++) {
      const h = block === 'pre-ln' ? norm(x, false) : block === 'pre-rms' ? norm(x, true) : x;
      const z = x.map((_, k) => { let t = 0; const i = Math.floor(k / W), c = k % W; for (let j = 0; j < W; j++) t += h[i * W + j] * r.w[l * W * W + j * W + c]; return t; });
      x = x.map((v, k) => v + gelu(z[k]));
      if (block === 'post-ln') x = norm(x, false);
      assert.ok(Math.abs(r.stds[b][l] - std(x)) <= 1e-3 * std(x), `${block} layer ${l + 1}: ${r.stds[b][l]} vs ${std(x)}`);
    }
  });
  assert.ok(r.stds[1].every((s) => Math.abs(s - 1) < 1e-3), 'Post-Norm std is 1');
  assert.equal(R, 16);
  // the gradient panel: per-layer gradient norms of the stack on its first 4
  // rows, from the finite-difference-checked kernel (tests/depth_grad) run here
  // on the figure's inputs; the weights are pre-scaled, which scales every
  // layer's norm alike, so the last ÷ first ratios the readout shows are equal
  await page.waitForFunction((t) => document.querySelector(t).result.gradRatio, tag, { timeout: 10000 });
  const shown = await get(page, tag, '({ ratio: el.result.gradRatio, text: el.shadowRoot.querySelector(".readout").textContent })');
  const { init } = await import('../src/js/posnorm.js');
  const pn = await init();
  const x4 = Float32Array.from(r.x0.slice(0, 4 * W)), w = Float32Array.from(r.w);
  const ratio = (block) => { const g = pn.residualStack(x4, w, { width: W, layers: 10, block, gradients: true }).gradNorm; return g[9] / g[0]; };
  assert.ok(Math.abs(shown.ratio.post - ratio('post-ln')) <= 1e-5 * ratio('post-ln'), `Post-LN ratio ${shown.ratio.post} vs ${ratio('post-ln')}`);
  assert.ok(Math.abs(shown.ratio.pre - ratio('pre-ln')) <= 1e-5 * ratio('pre-ln'), `Pre-LN ratio ${shown.ratio.pre} vs ${ratio('pre-ln')}`);
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
  const m = s.x.reduce((a, b) => a + b, 0) / s.x.length, v = s.x.reduce((a, b) => a + (b - m) ** 2, 0) / s.x.length;
  s.x.forEach((t, j) => {
    assert.ok(Math.abs(s.c[j] - (t - m)) < 1e-6);
    assert.ok(Math.abs(s.y[j] - (s.g * (t - m) / Math.sqrt(v + 1e-5) + s.b)) < 2e-6);
  });

  tag = 'posnorm-bn-vs-ln';
  await figure(page, tag);
  const checkBoth = async (mode) => {
    const r = await get(page, tag, '({ x: [...el.result.x], bn: [...el.result.bn], ln: [...el.result.ln], rm: [...el.result.bnMean], rv: [...el.result.bnVar], B: el.batch, H: el.features })');
    for (let c = 0; c < r.H; c++) {
      const col = Array.from({ length: r.B }, (_, b) => r.x[b * r.H + c]);
      const cm = mode === 'train' ? col.reduce((a, b) => a + b, 0) / r.B : r.rm[c];
      const cv = mode === 'train' ? col.reduce((a, b) => a + (b - cm) ** 2, 0) / r.B : r.rv[c];
      col.forEach((t, b) => assert.ok(Math.abs(r.bn[b * r.H + c] - (t - cm) / Math.sqrt(cv + 1e-5)) < 2e-5, `BN (${b}, ${c}) ${mode}`));
    }
    for (let b = 0; b < r.B; b++) {
      const row = r.x.slice(b * r.H, b * r.H + r.H);
      const rm = row.reduce((a, t) => a + t, 0) / r.H, rv = row.reduce((a, t) => a + (t - rm) ** 2, 0) / r.H;
      row.forEach((t, c) => assert.ok(Math.abs(r.ln[b * r.H + c] - (t - rm) / Math.sqrt(rv + 1e-5)) < 2e-6, `LN (${b}, ${c})`));
    }
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
    const ref = blockRef(Float32Array.from(s.x), Float32Array.from(s.w), s.o);
    for (const k of TENSORS) {
      s.r[k].forEach((v, i) => assert.ok(Math.abs(v - ref[k][i]) <= 1e-6 * Math.abs(ref[k][i]) + 1e-7, `${k}[${i}] ${v} vs float64 ${ref[k][i]}`));
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
  const pe = peRef(3, 16);
  on.x.forEach((v, i) => assert.ok(Math.abs(v - off.x[i] - pe[i]) < 1e-6, 'x(PE on) − x(PE off) = PE'));
  await page.locator(`${tag} select`).first().selectOption('post');
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  await check({ placement: 'post', norm: 'layer' });
  await update(page, tag, 'el.setAttribute("norm", "rms"); el.setAttribute("d-model", "32"); el.setAttribute("heads", "3")');
  await check({ placement: 'post', norm: 'rms', dModel: 32, heads: 4 });
  assert.equal(await get(page, tag, 'el.heads'), 4, 'heads 3 reads as 4');
  assert.deepEqual(problems, []);
  await context.close();
});
