// The article's other six figures in headless Chromium: their readouts
// against the float64 references of tests/reference/, keyboard and touch
// operation.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { open, useBrowser, startFigure } from './browser/harness.mjs';
import { compareValues, ulp32 } from './helpers.mjs';
import { alibiBias, alibiSlopes } from './reference/alibi.mjs';
import { attention } from './reference/attention.mjs';
import { transformerBlock } from './reference/block.mjs';
import { colormapIndex, colormapTable } from './reference/colormap.mjs';
import { batchNorm, columnStats, layerNorm, runningUpdate } from './reference/norms.mjs';
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
/**
 * Waits (up to 5 s) until `cond`, an expression of el, holds: the repaint of
 * a change has happened. It does not fail: the checks that follow say what
 * is wrong if it never does.
 */
const settled = (page, tag, cond) => page.waitForFunction(([t, c]) => new Function('el', `return ${c}`)(document.querySelector(t)), [tag, cond], { timeout: 5000 }).catch(() => {});

/** A number as a figure writes it (toFixed, toPrecision, fmt; an ASCII or a real minus). */
const num = (text) => Number(String(text).trim().replace('−', '-'));
/**
 * Whether `shown` is the float64 `want` written with `fixed` decimals or
 * `sig` significant digits. The figure writes a float32 value within `tol`
 * of `want`, which at a rounding boundary may round either way: any rounding
 * of want − tol, want, want + tol is accepted (compared as numbers, so fmt's
 * dropped zeros and '-0.0000' read as written).
 */
function printedAs(shown, want, { fixed, sig, tol }) {
  const write = (v) => (fixed !== undefined ? v.toFixed(fixed) : v.toPrecision(sig));
  return [want - tol, want, want + tol].some((v) => num(write(v)) === num(shown));
}
/** The four numbers of a 2×2 matrix written [[a, b], [c, d]]. */
function matrix2In(text) {
  const m = /\[\[(\S+), (\S+)\], \[(\S+), (\S+)\]\]/.exec(text);
  assert.ok(m, `a 2×2 matrix in ${JSON.stringify(text)}`);
  return [[num(m[1]), num(m[2])], [num(m[3]), num(m[4])]];
}
/**
 * The colours at the centres of the `rows × cols` cells of `rect` (CSS
 * pixels) on a figure's first canvas, read from a copy (the figure's own
 * canvas is never read back), as [r, g, b, a] per cell, row by row.
 */
const cellColours = (page, tag, rect, rows, cols) => page.evaluate(([t, rect, rows, cols]) => {
  const c = document.querySelector(t).shadowRoot.querySelector('canvas');
  const s = c.width / c.getBoundingClientRect().width;
  const copy = document.createElement('canvas');
  copy.width = c.width;
  copy.height = c.height;
  const cc = copy.getContext('2d', { willReadFrequently: true });
  cc.drawImage(c, 0, 0);
  const out = [];
  for (let r = 0; r < rows; r++) {
    for (let k = 0; k < cols; k++) {
      const x = Math.floor((rect.x + (k + 0.5) * (rect.w / cols)) * s), y = Math.floor((rect.y + (r + 0.5) * (rect.h / rows)) * s);
      out.push([...cc.getImageData(x, y, 1, 1).data]);
    }
  }
  return out;
}, [tag, rect, rows, cols]);

test('order: outputs equal float64 attention; without PE reordering changes nothing, with PE it does', async () => {
  const { page, problems, context } = await open(env.browser, `${env.server.url}/web/?lang=en`, { hasTouch: true });
  const tag = 'posnorm-order';
  await figure(page, tag);
  const inputs = await get(page, tag, '({ emb: [...el.inputs.emb], wq: [...el.inputs.wq], wk: [...el.inputs.wk], wv: [...el.inputs.wv], pe: [...el.inputs.pe] })');
  // the PE added is the sinusoidal table of positions 0, 1, 2 at d_model 8 (not
  // the figure's own call's): float32 values of |v| ≤ 1, within half an ulp (2^-25)
  const pe64 = sinusoidal(3, 8);
  assert.equal(inputs.pe.length, 24);
  inputs.pe.forEach((v, i) => assert.ok(Math.abs(v - pe64[i]) <= 3e-8, `PE[pos ${Math.floor(i / 8)}][${i % 8}] = ${v}, float64 ${pe64[i]}`));
  // the article's three tokens (web/i18n/notation.js), as the readout names them
  const TOKENS = ['나는', 'AI를', '공부한다'];
  const diverging = colormapTable('diverging');
  const check = async (withPe, want) => {
    // the repaint of this order (and PE choice) has happened
    await settled(page, tag, `el.result?.order === '${want}' && el.result?.pe === '${withPe ? 'on' : 'off'}'`);
    const r = await get(page, tag, `({ order: el.result.order, delta: el.result.delta, outputs: el.result.outputs.map((v) => [...v]),
      rows: [...el.shadowRoot.querySelector('.readout').children].map((e) => e.textContent), width: el.canvas.getBoundingClientRect().width })`);
    assert.equal(r.order, want);
    const order = [...r.order].map(Number);
    const x = order.flatMap((tok, at) => inputs.emb.slice(tok * 8, tok * 8 + 8).map((v, c) => Math.fround(v + (withPe ? inputs.pe[at * 8 + c] : 0))));
    const { out } = attention(x, inputs.wq, inputs.wk, inputs.wv, { seqLen: 3, dModel: 8 });
    // float64 inside, rounded once: within half an ulp
    order.forEach((tok, at) => {
      const c = compareValues(r.outputs[tok], out.subarray(at * 8, at * 8 + 8), ulp32);
      assert.ok(c.err <= 0.6, `token ${tok}: ${c.err} ulp`);
    });
    // each readout row "at: token → [4 numbers, …]": the row at `at` names the token
    // standing there, and its numbers are that token's float64 output to 4 decimals
    // (float32 outputs are within 1e-7 of it: a boundary may round either way)
    assert.equal(r.rows.length, 4, `three rows and the Δ line: ${JSON.stringify(r.rows)}`);
    r.rows.slice(0, 3).forEach((row, at) => {
      const m = /^(\d): (\S+) → \[(.+), …\]$/.exec(row);
      assert.ok(m, `readout row ${at}: ${row}`);
      const tok = TOKENS.indexOf(m[2]), pos = order.indexOf(tok);
      assert.equal(Number(m[1]), at, `row ${at} is numbered ${m[1]}`);
      assert.equal(tok, order[at], `row ${at} names ${m[2]}, the token there is ${TOKENS[order[at]]} (order ${r.order})`);
      const shown = m[3].split(', ');
      assert.equal(shown.length, 4, row);
      shown.forEach((v, c) => assert.ok(printedAs(v, out[pos * 8 + c], { fixed: 4, tol: 1e-6 }),
        `row ${at} (${m[2]}), output ${c}: shown ${v}, float64 ${out[pos * 8 + c].toFixed(4)} (order ${r.order}, PE ${withPe ? 'on' : 'off'})`));
    });
    // the heatmap: row `at` is the output at position `at` of this order, coloured on
    // [−max|out|, max|out|] by the colormap as designed (rect as the figure lays it out:
    // x 80, y 8, width − 90 by 132). Float32 outputs and range move a value's place on
    // the 256 entries by under 1e-4 of an entry, so the colour is the float64 value's
    // entry or, within 1e-3 of an entry's edge, its neighbour's
    const lim = Math.max(...Array.from(out, Math.abs)), slack = (1e-3 * 2 * lim) / 255;
    const drawn = await cellColours(page, tag, { x: 80, y: 8, w: r.width - 90, h: 132 }, 3, 8);
    drawn.forEach((px, n) => {
      const v = out[n], entries = [...new Set([v - slack, v + slack].map((u) => colormapIndex(u, -lim, lim)))];
      assert.ok(entries.some((i) => px.every((ch, q) => ch === diverging[4 * i + q])),
        `heatmap cell (position ${Math.floor(n / 8)}, column ${n % 8}) is rgba(${px}); float64 output ${v.toFixed(5)} is colour entry ${entries}, ` +
        `rgba(${diverging.subarray(4 * entries[0], 4 * entries[0] + 4)}) (order ${r.order}, PE ${withPe ? 'on' : 'off'})`);
    });
    return r;
  };
  // the first paint, in the original order
  await check(false, '012');
  // keyboard: focus the first token and move it right
  await page.locator(`${tag} button.tok`).first().focus();
  await page.keyboard.press('ArrowRight');
  let r = await check(false, '102');
  assert.ok(r.delta < 1e-6, `no PE: delta ${r.delta}`);
  assert.match(await page.locator(`${tag} .readout`).textContent(), /max \|Δ\| = 0 \(no PE/);
  // touch: tap "move right" on the middle token
  await page.locator(`${tag} li:nth-child(2) button`).last().tap();
  await check(false, '120');
  // mouse drag: pull the first token to the right past its neighbour
  const box = await page.locator(`${tag} button.tok`).first().boundingBox();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * 1.6, box.y + box.height / 2, { steps: 5 });
  await page.mouse.up();
  await check(false, '210'); // dragging 1 to the right of 2
  await page.locator(`${tag} select`).selectOption('on');
  r = await check(true, '210');
  assert.ok(r.delta > 1e-3, `with PE: delta ${r.delta}`);
  // with PE on, a move changes every output: what is drawn and read out follows it
  await page.locator(`${tag} button.tok`).nth(1).focus();
  await page.keyboard.press('ArrowLeft');
  await check(true, '120');
  assert.deepEqual(problems, []);
  await context.close();
});

test('properties: range, closest pair, R(k) and the shift error against float64', async () => {
  const { page, problems, context } = await open(env.browser, `${env.server.url}/web/?lang=en`);
  const tag = 'posnorm-properties';
  await figure(page, tag);
  // k and pos off their defaults (5, 10), and pos, k and pos + k (12, 7, 19) not
  // digits of one another: a readout that swaps or repeats them is seen
  await update(page, tag, 'Object.assign(el, a)', { dModel: 16, seqLen: 30, base: 100, k: 7, pos: 12 });
  await settled(page, tag, 'el.result.shifted.length === 16 && /PE\\(19\\)/.test(el.shadowRoot.querySelector(".readout").textContent)');
  const r = await get(page, tag, `({ min: el.result.min, max: el.result.max, closest: el.result.closest, err: el.result.maxShiftError, rot: el.result.rotation, blocks: el.result.blocks,
    shifted: [...el.result.shifted], ahead: [...el.result.ahead], items: [...el.shadowRoot.querySelectorAll('.readout:not(.pe-error) li')].map((li) => li.textContent) })`);
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
      // R(k) = [[cos θ, sin θ], [−sin θ, cos θ]] of float64 θ, to the 4 significant
      // digits written (the figure's float32 cos/sin are within 1e-7 of them)
      const shown = matrix2In(rows[n + 1][2]);
      const R = [[Math.cos(want), Math.sin(want)], [-Math.sin(want), Math.cos(want)]];
      R.forEach((row, a) => row.forEach((v, b) => assert.ok(printedAs(shown[a][b], v, { sig: 4, tol: 1e-7 }),
        `R(${k}) of pair ${i} (d_model ${d}), entry [${a}][${b}]: shown ${shown[a][b]} in ${rows[n + 1][2]}, float64 ${v.toPrecision(4)}`)));
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
  // R(k) of pair 0 (ω_0 = 1), all four entries: float32 cos/sin within 1e-7 (half an ulp is 3e-8)
  const R7 = [[Math.cos(7), Math.sin(7)], [-Math.sin(7), Math.cos(7)]];
  R7.forEach((row, a) => row.forEach((v, b) => assert.ok(Math.abs(r.rot[a][b] - v) < 1e-7, `rotation[${a}][${b}] = ${r.rot[a][b]}, float64 ${v}`)));
  // the shift: PE(pos + k) = PE(19) as the float64 table has it, rounded to float32 (half an
  // ulp, 3e-8); R(7)·PE(12) by the shift kernel within 1.2e-7 of it (its float32 input and output)
  const ahead64 = pe(19);
  ahead64.forEach((v, c) => assert.ok(Math.abs(r.ahead[c] - v) <= 3e-8, `PE(pos + k)[${c}] = ${r.ahead[c]}, float64 PE(19) ${v}`));
  ahead64.forEach((v, c) => assert.ok(Math.abs(r.shifted[c] - v) <= 1.2e-7, `R(k)·PE(pos)[${c}] = ${r.shifted[c]}, float64 PE(19) ${v}`));
  // the error shown is the one between those two rows, and it is the size float64 says:
  // the kernels compute in float64 and round once, so R(7)·fround(PE(12)) rounded to
  // float32 against fround(PE(19)) gives it exactly (2^-24 here, not 0)
  assert.equal(r.err, Math.max(...r.shifted.map((v, c) => Math.abs(v - r.ahead[c]))), 'maxShiftError is max |shifted − ahead|');
  const f = Math.fround, pe12 = pe(12).map(f);
  const emulated = Math.max(...Array.from({ length: 16 }, (_, c) => {
    const a = 7 * Math.pow(100, -2 * (c >> 1) / 16), ps = pe12[c & ~1], pc = pe12[c | 1];
    return Math.abs(f(c % 2 ? pc * Math.cos(a) - ps * Math.sin(a) : ps * Math.cos(a) + pc * Math.sin(a)) - f(ahead64[c]));
  }));
  assert.ok(emulated > 0, 'the float64 emulation sees an error to compare with');
  assert.equal(r.err, emulated, `shift error ${r.err}, float64 emulation of float32 rows ${emulated}`);
  // the readout, line by line (numbers from float64, to the digits written)
  assert.equal(r.items.length, 4, JSON.stringify(r.items));
  // ① the range of the PE table: [min, max] to 4 decimals (float32 values, half an ulp away)
  const bounded = /\[(\S+), (\S+)\]/.exec(r.items[0]);
  assert.ok(bounded && printedAs(bounded[1], lo, { fixed: 4, tol: 3e-8 }) && printedAs(bounded[2], hi, { fixed: 4, tol: 3e-8 }),
    `① ${r.items[0]}: float64 range [${lo.toFixed(4)}, ${hi.toFixed(4)}]`);
  // ② of 30 positions the closest two, an adjacent pair (ties, below), at the float64
  // distance to 6 decimals (the float32 distance is within 1e-6 of it)
  const unique = /of (\d+) positions the closest two are (\d+) and (\d+), at distance (\S+) /.exec(r.items[1]);
  assert.ok(unique, `② ${r.items[1]}`);
  const [n2, i2, j2] = unique.slice(1, 4).map(Number);
  const dist = (i, j) => Math.sqrt(pe(i).reduce((a, v, c) => a + (v - pe(j)[c]) ** 2, 0));
  assert.ok(n2 === 30 && j2 === i2 + 1 && j2 < 30 && Math.abs(dist(i2, j2) - best) < 1e-12 && i2 === r.closest.i,
    `② ${r.items[1]}: of 30 positions, an adjacent pair at float64 distance ${best} (the result's ${r.closest.i}, ${r.closest.j})`);
  assert.ok(printedAs(unique[4], best, { fixed: 6, tol: 1e-6 }), `② ${r.items[1]}: float64 distance ${best.toFixed(6)}`);
  // ③ R(7) for pair 0 (its four entries), and max |R(7)·PE(12) − PE(19)| = the error
  const relative = /R\((\d+)\) for pair 0 = (\[\[.+\]\]); max \|R\((\d+)\)·PE\((\d+)\) − PE\((\d+)\)\| = (\S+)$/.exec(r.items[2]);
  assert.ok(relative, `③ ${r.items[2]}`);
  assert.deepEqual(relative.slice(1).filter((_, q) => q !== 1 && q !== 5).map(Number), [7, 7, 12, 19], `③ names R(k), PE(pos), PE(pos + k) with k 7, pos 12: ${r.items[2]}`);
  const m3 = matrix2In(relative[2]);
  R7.forEach((row, a) => row.forEach((v, b) => assert.ok(printedAs(m3[a][b], v, { sig: 4, tol: 1e-7 }), `③ R(7)[${a}][${b}]: shown ${m3[a][b]}, float64 ${v.toPrecision(4)}`)));
  assert.equal(relative[6], r.err.toExponential(2), `③ ${r.items[2]}: the error ${r.err}`);
  // every pair at the closest distance is adjacent (pe(i)·pe(j) depends on j − i
  // only, and the distance grows with |j − i| up to 30 at this base); the
  // figure's pair must be one of them, as the brute force's is
  assert.equal(pair[1] - pair[0], 1, 'the float64 brute force finds an adjacent pair');
  assert.equal(r.closest.j - r.closest.i, 1, `the figure's pair ${r.closest.i}, ${r.closest.j} is adjacent`);
  assert.deepEqual(problems, []);
  await context.close();
});

test('compare: ALiBi slopes and bias are the paper\'s; RoPE scores equal float64 and depend only on distance', async () => {
  const { page, problems, context } = await open(env.browser, `${env.server.url}/web/?lang=en`);
  const tag = 'posnorm-compare';
  await figure(page, tag);
  for (const heads of [8, 12]) {
    await update(page, tag, 'el.heads = a', heads);
    const slopes = await get(page, tag, '[...el.result.slopes]');
    const expect = alibiSlopes(heads);
    assert.equal(slopes.length, heads);
    slopes.forEach((m, h) => assert.equal(m, Math.fround(expect[h]), `head ${h}`));
  }
  // the bias shown is the chosen head's, −m_h·|i − j| from the paper's slopes: head 5 of
  // 12 (slope 2^-6, exact in float32, as every product with |i − j| < 2^24) and head 11,
  // the last of the non-power-of-two rule's (2^-3.5: float64 product rounded once)
  for (const head of [5, 11]) {
    await update(page, tag, 'Object.assign(el, a)', { heads: 12, head });
    await settled(page, tag, `el.shadowRoot.querySelector('.readout').textContent.includes('(12 heads, head ${head} shown)')`);
    const b = await get(page, tag, '({ bias: [...el.result.bias], n: el.seqLen, head: el.head, heads: el.heads })');
    assert.deepEqual([b.heads, b.head], [12, head]);
    const n = b.n, want = alibiBias(12, n).subarray(head * n * n, (head + 1) * n * n);
    assert.equal(b.bias.length, n * n);
    const q = b.bias.findIndex((v, at) => v !== Math.fround(want[at]));
    assert.equal(q, -1, `ALiBi bias of head ${head} of 12 at [${Math.floor(q / n)}][${q % n}]: ${b.bias[q]}, float64 ${want[q]} (head 0's is ${alibiBias(12, n)[q]})`);
  }
  // RoPE: the scores q·k with q at start + Δ and k at start, from 0 and from the offset,
  // against float64 RoPE of the figure's q and k (its seeded normals, seed 11, checked
  // against the reference generator) at the figure's base; at the defaults, after a
  // d_model change (every kept score is stale) and at another base
  const checkRope = async (state) => {
    await settled(page, tag, `el.shadowRoot.querySelector('.readout').textContent.includes('d_model ${state.dModel}, base ${state.base},')`);
    const r = await get(page, tag, `({ q: [...el.result.q], k: [...el.result.k], s: el.result.ropeScores, d: el.dModel, n: el.seqLen, o: el.offset, base: el.base,
      diff: el.result.ropeDiff, text: el.shadowRoot.querySelector('.readout').textContent })`);
    assert.deepEqual({ d: r.d, base: r.base }, { d: state.dModel, base: state.base });
    // (the generator's float64 normals rounded to float32, as posnorm stores them)
    const qk = Float32Array.from(randomNormals(2 * r.d, { seed: 11 }));
    [...r.q, ...r.k].forEach((v, c) => assert.ok(Math.abs(v - qk[c]) <= ulp32(qk[c]), `${state.label}: q, k [${c}] = ${v}, reference ${qk[c]}`));
    const rotated = (v, p) => rope(v, { seqLen: 1, heads: 1, headDim: r.d, base: r.base, positions: () => p });
    const refs = [0, r.o].map((start) => {
      const rk = rotated(qk.subarray(r.d), start);
      return Array.from({ length: r.n }, (_, d) => rotated(qk.subarray(0, r.d), start + d).reduce((a, v, c) => a + v * rk[c], 0));
    });
    // float32 rotations of unit-scale q and k, summed over d_model: measured 4.5e-7
    refs.forEach((ref, k) => {
      assert.equal(r.s[k].length, r.n);
      ref.forEach((v, d) => assert.ok(Math.abs(r.s[k][d] - v) <= 1e-6, `${state.label}: RoPE score from start ${k ? r.o : 0}, Δ ${d}: ${r.s[k][d]}, float64 ${v}`));
    });
    // the two starts' difference: the largest |s_0(Δ) − s_offset(Δ)| of the scores shown, which
    // float64 says is only rounding (0 in exact arithmetic: within 2·1e-6), and the readout's
    const fromScores = Math.max(...r.s[0].map((v, d) => Math.abs(v - r.s[1][d])));
    const fromRefs = Math.max(...refs[0].map((v, d) => Math.abs(v - refs[1][d])));
    assert.equal(r.diff, fromScores, `${state.label}: ropeDiff ${r.diff}, max |s0 − s1| of the scores ${fromScores}`);
    assert.ok(fromRefs < 1e-12 && Math.abs(r.diff - fromRefs) <= 2e-6, `${state.label}: scores from two starts differ by ${r.diff} (float64 ${fromRefs})`);
    assert.ok(r.text.includes(`changes the score by at most ${r.diff.toExponential(1)} `), `${state.label}: the readout shows ${r.diff.toExponential(1)}: ${r.text}`);
  };
  await checkRope({ label: 'defaults', dModel: 32, base: 10000 });
  await update(page, tag, 'Object.assign(el, a)', { dModel: 16 });
  await checkRope({ label: 'd_model 16', dModel: 16, base: 10000 });
  await update(page, tag, 'Object.assign(el, a)', { base: 500 });
  await checkRope({ label: 'd_model 16, base 500', dModel: 16, base: 500 });
  assert.deepEqual(problems, []);
  await context.close();
});

test('depth: per-layer std and gradient norms equal the float64 stack and its backward pass, close enough to see every branch', async () => {
  const { page, problems, context } = await open(env.browser, `${env.server.url}/web/`);
  const tag = 'posnorm-depth';
  await figure(page, tag);
  await update(page, tag, 'Object.assign(el, a)', { layers: 10, width: 16, scale: 1.5 });
  const r = await get(page, tag, '({ x0: [...el.inputs.x0], w: [...el.inputs.weights], rows: el.inputs.rows, stds: el.result.stds.map((s) => [...s]), seed: el.seed })');
  const W = 16, L = 10, BLOCKS = ['plain', 'post-ln', 'pre-ln', 'pre-rms'];
  assert.equal(r.rows, 16);
  // the inputs are the documented seeded streams (depth.js: x0 N(0, 1) from the seed, W_l
  // N(0, 1/width) from seed + 1), not taken as given: 1 ulp for posnorm's own log against
  // Math.log in the reference generator; the weights come times the scale, a second rounding
  assertStream(r.x0, randomNormals(16 * W, { seed: r.seed }), 'x0');
  const refW = randomNormals(L * W * W, { seed: r.seed + 1, std: 1 / Math.sqrt(W) }).map((t) => 1.5 * t);
  assertStream(r.w, refW, 'scale · W', (k) => 2 * ulp32(refW[k]));
  // the figure's weights come pre-scaled (its float32 products of weight and scale), so scale 1 here
  const x0 = Float32Array.from(r.x0), w = Float32Array.from(r.w);
  // measured 5.8e-8 relative (its matrix products run in float32); the erf form of GELU is 5e-5 to
  // 7e-5 away, Post-LN without its branch 2.6e-6 (the old tolerance, 1e-3, passed both)
  const stdTol = 1.2e-7;
  const refStds = {};
  BLOCKS.forEach((block, b) => {
    const ref = forward(x0, w, { width: W, layers: L, block }).std;
    refStds[block] = ref;
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
  checkDepthReadout(await readoutLines(page, tag), refStds, ratio, { layers: L, stdTol, ratioTol: 2 * gradTol });
  assert.deepEqual(problems, []);
  await context.close();
});

// A number as the readouts write it (web/figures/draw/format.js, fmt): `digits` significant
// digits, trailing zeros dropped, exponential outside [1e-4, 1e6).
function show(x, digits) {
  if (!Number.isFinite(x)) return String(x);
  if (x === 0) return '0';
  const a = Math.abs(x);
  return a >= 1e6 || a < 1e-4 ? x.toExponential(digits - 1) : String(Number(x.toPrecision(digits)));
}
/**
 * The ways a readout may write a float64 reference `x` the figure holds within `rel` of it: its
 * own digits, or, where a rounding boundary of the last digit lies within rel, the neighbour's.
 */
function shows(x, digits, rel) {
  return [...new Set([x * (1 - rel), x, x * (1 + rel)].map((v) => show(v, digits)))];
}
/** Asserts that the readout text `got` (one number) is one of the writings of `x` (shows). */
function assertShows(got, x, digits, rel, what) {
  const ok = shows(x, digits, rel);
  assert.ok(ok.includes(got), `${what}: the readout says ${got}, float64 ${x} is written ${ok.join(' or ')}`);
}
/**
 * Asserts that the float32 values `got` are posnorm's seeded normals `want` (the float64
 * stream of tests/reference/random.mjs, from posnorm_figures.h's description, or values made
 * from it) within 1 float32 ulp each, or within `tol(k)` where given.
 */
function assertStream(got, want, what, tol = (k) => ulp32(want[k])) {
  assert.equal(got.length, want.length, `${what}: length`);
  const k = want.findIndex((w, j) => !(Math.abs(got[j] - w) <= tol(j)));
  assert.equal(k, -1, `${what}[${k}]: ${got[k]}, the documented stream ${want[k]}`);
}
/**
 * Checks the depth figure's readout (depth.js; web/i18n/en.js and ko/depth.js, depthReadout and
 * depthGradReadout, fmt with 4 and 3 digits) against the float64 references: the first line
 * names each block's std after the last layer, `refStds[block][layers − 1]`, in the legend's
 * order; the second the gradient ratios `ratio(block)` as `Post-LN …, Pre-LN …` (in either language).
 */
function checkDepthReadout(lines, refStds, ratio, { layers, stdTol, ratioTol }) {
  const items = lines[0].slice(lines[0].indexOf(': ') + 2).split(' · ');
  assert.equal(items.length, 4, `four blocks in "${lines[0]}"`);
  ['plain', 'post-ln', 'pre-ln', 'pre-rms'].forEach((block, k) => {
    if (k > 0) assert.match(items[k], [/^Post-Norm /, /^Pre-Norm /, /^Pre-RMSNorm /][k - 1], `block ${k} of "${lines[0]}"`);
    assertShows(items[k].split(' ').at(-1), refStds[block][layers - 1], 4, stdTol, `${block}: std after the last layer (${layers})`);
  });
  const m = lines[1].match(/Post-LN (\S+), Pre-LN (\S+) /);
  assert.ok(m, `the gradient line names Post-LN and Pre-LN: "${lines[1]}"`);
  assertShows(m[1], ratio('post-ln'), 3, ratioTol, 'Post-LN last ÷ first gradient norm');
  assertShows(m[2], ratio('pre-ln'), 3, ratioTol, 'Pre-LN last ÷ first gradient norm');
}
/** The lines of a figure's readout, each as its text. */
function readoutLines(page, tag) {
  return get(page, tag, '[...el.shadowRoot.querySelector(".readout").children].map((c) => c.textContent)');
}

test('LayerNorm steps and BatchNorm vs LayerNorm against float64; batch size 1', async () => {
  const { page, problems, context } = await open(env.browser, `${env.server.url}/web/?lang=en`);
  let tag = 'posnorm-ln-steps';
  await figure(page, tag);
  await page.locator(`${tag} input[name=gamma]`).focus();
  for (let k = 0; k < 6; k++) await page.keyboard.press('ArrowRight');
  // and β (a figure that left β out of its call passed with β = 0): six steps of 0.05
  await page.locator(`${tag} input[name=beta]`).focus();
  for (let k = 0; k < 6; k++) await page.keyboard.press('ArrowRight');
  await page.waitForFunction((t) => document.querySelector(t).beta === 0.3, tag, { timeout: 5000 });
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  const s = await get(page, tag, '({ x: [...el.result.x], y: [...el.result.y], c: [...el.result.centered], mean: el.result.mean, variance: el.result.variance, g: el.gamma, b: el.beta, seed: el.seed })');
  assert.equal(s.g, 1.3);
  assert.equal(s.b, 0.3, 'β moved off 0 by the keyboard');
  // x is the documented stream (ln-steps.js: 16 values N(2, 1.5²) from the seed), not taken as
  // given: 1 ulp for posnorm's log against Math.log (measured 0.5)
  assertStream(s.x, randomNormals(16, { seed: s.seed, mean: 2, std: 1.5 }), 'x');
  const n = s.x.length;
  const ln = layerNorm(s.x, n, { gamma: new Float32Array(n).fill(s.g), beta: new Float32Array(n).fill(s.b), eps: Math.fround(1e-5) });
  // every step in float64, rounded once: within half an ulp
  const centered = compareValues(s.c, s.x.map((t) => t - ln.mean[0]), ulp32), y = compareValues(s.y, ln.y, ulp32);
  assert.ok(centered.err <= 0.6 && y.err <= 0.6, `LayerNorm steps: centered ${centered.err} ulp, y ${y.err} ulp`);
  // μ and the biased σ² likewise (float64, rounded once), and the readout writes μ and σ = √σ²
  // with 5 digits (fmt): the figure's μ and σ² are within 0.6 ulp (7.2e-8 relative, σ half that)
  const stats = compareValues([s.mean, s.variance], [ln.mean[0], ln.variance[0]], ulp32);
  assert.ok(stats.err <= 0.6, `LayerNorm steps: μ ${s.mean} and σ² ${s.variance}, float64 ${ln.mean[0]} and ${ln.variance[0]}: ${stats.err} ulp`);
  const shownStats = (await readoutLines(page, tag))[0].match(/^μ = (\S+), σ = (\S+)$/);
  assert.ok(shownStats, 'the readout\'s first line: μ = …, σ = …');
  assertShows(shownStats[1], ln.mean[0], 5, 1e-7, 'μ');
  assertShows(shownStats[2], Math.sqrt(ln.variance[0]), 5, 1e-7, 'σ');

  tag = 'posnorm-bn-vs-ln';
  await figure(page, tag);
  // the figure's batches as bn-vs-ln.js documents them (_batch): B × H normals from a seed
  // (posnorm's float32 stream), column h times 0.5 + h/4 plus h − H/2, kept in float32
  const batchOf = (B, H, seed) => Float32Array.from(randomNormals(B * H, { seed }), (z, k) => (k % H - H / 2) + (0.5 + (k % H) / 4) * Math.fround(z));
  // its running statistics (_running): WARMUP = 30 earlier batches, seeds seed + 1000·k for
  // k = 1 … 30, each batch's column statistics folded in from mean 0, variance 1 in ONNX's
  // way with momentum 0.9 (posnorm.h, pn_batchnorm_train_f32: running = 0.9·running + 0.1·batch,
  // the biased batch variance), here in float64
  const warmedUp = (B, H, seed) => {
    let mean = new Float64Array(H), variance = new Float64Array(H).fill(1);
    for (let k = 1; k <= 30; k++) {
      const batch = columnStats(batchOf(B, H, seed + 1000 * k), H);
      mean = runningUpdate(mean, batch.mean, 0.9);
      variance = runningUpdate(variance, batch.variance, 0.9);
    }
    return { mean, variance };
  };
  const checkBoth = async (mode) => {
    const r = await get(page, tag, '({ x: [...el.result.x], bn: [...el.result.bn], ln: [...el.result.ln], rm: [...el.result.bnMean], rv: [...el.result.bnVar], B: el.batch, H: el.features, seed: el.seed })');
    // x is the documented batch: 1 ulp of the normal (posnorm's log against Math.log, measured
    // 0.5) times its column's scale, and the float32 rounding of the sum
    const want = batchOf(r.B, r.H, r.seed), z = randomNormals(r.B * r.H, { seed: r.seed });
    assertStream(r.x, want, `batch (${r.B} × ${r.H}, seed ${r.seed})`, (k) => (0.5 + (k % r.H) / 4) * ulp32(z[k]) + ulp32(want[k]));
    // training: the batch's own statistics; inference: the running ones, computed here
    const batch = columnStats(r.x, r.H);
    const stats = mode === 'train' ? batch : warmedUp(r.B, r.H, r.seed);
    if (mode === 'infer') {
      // the figure's are float32, rounded at each of the 30 updates: within 1e-6 relative
      // (measured 1.2e-7 at the defaults, 8.7e-7 at worst over other shapes and seeds)
      for (const [name, got] of [['mean', r.rm], ['variance', r.rv]]) {
        got.forEach((g, c) => assert.ok(Math.abs(g - stats[name][c]) <= 1e-6 * Math.abs(stats[name][c]), `running ${name}[${c}]: the figure's ${g}, the 30 warm-up batches' ${stats[name][c]}`));
        // and they are not the batch's own (which a figure that trains in inference mode shows)
        assert.ok(stats[name].some((t, c) => Math.abs(t - batch[name][c]) > 1e-3 * Math.abs(t)), `running ${name} differs from the batch's`);
      }
    }
    const bn = compareValues(r.bn, batchNorm(r.x, r.H, { ...stats, eps: Math.fround(1e-5) }));
    // measured: BatchNorm 1.2e-7 (float64 inside, rounded once), LayerNorm 1.6e-7 (float32 blocks);
    // inference normalises with the float32 running statistics (1.2e-7 relative from those used
    // here at the figure's defaults): measured 3.8e-7
    const bnTol = mode === 'train' ? 2.5e-7 : 1e-6;
    assert.ok(bn.err <= bnTol && bn.compared === r.B * r.H, `BatchNorm (${mode}): ${bn.err}`);
    const ln64 = layerNorm(r.x, r.H, { eps: Math.fround(1e-5) });
    const ln = compareValues(r.ln, ln64.y);
    assert.ok(ln.err <= 3.5e-7, `LayerNorm: ${ln.err}`);
    // the readout (fmt, 5 digits): BatchNorm's column-0 mean and variance (the running ones in
    // inference, within 1e-6; the batch's rounded once in training), LayerNorm's row-0 mean and
    // its variance, which the figure takes from its float32 1/√(σ² + ε) (within 2e-7 with ε
    // removed: 2 × 0.6 ulp of √)
    const lines = await readoutLines(page, tag);
    const bnLine = lines[0].match(/^BatchNorm column 0: mean (\S+), variance (\S+)$/), lnLine = lines[1].match(/^LayerNorm row 0: mean (\S+), variance (\S+)$/);
    assert.ok(bnLine && lnLine, `the readout's lines: ${JSON.stringify(lines)}`);
    const rel = mode === 'train' ? 1e-7 : 1e-6;
    assertShows(bnLine[1], stats.mean[0], 5, rel, `BatchNorm (${mode}) mean of column 0`);
    assertShows(bnLine[2], stats.variance[0], 5, rel, `BatchNorm (${mode}) variance of column 0`);
    assertShows(lnLine[1], ln64.mean[0], 5, 1e-7, 'LayerNorm mean of row 0');
    assertShows(lnLine[2], ln64.variance[0], 5, 2e-7, 'LayerNorm variance of row 0');
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
    const s = await get(page, tag, `({ x: [...el.inputs.x], w: [...el.inputs.weights], o: el.inputs.options, pe: el.pe, seed: el.seed,
      r: Object.fromEntries(${JSON.stringify(TENSORS)}.map((k) => [k, [...el.result[k]]])), pinned: el.result.pinned,
      text: el.shadowRoot.querySelector('.readout').textContent })`);
    for (const [k, v] of Object.entries(want)) assert.equal(s.o[k] ?? s[k], v, k);
    // the inputs are the documented seeded streams (block.js _draw), not taken as given: x the
    // three tokens' N(0, 1) embeddings from the seed, plus the sinusoidal PE when on (float32
    // sums); Wq, Wk, Wv, Wo and W1 N(0, 1/d) from seed + 1, W2 N(0, 1/d_ff) from seed + 2, with
    // d_ff = 4·d. 1 ulp of each normal for posnorm's log against Math.log (measured 0.5), and
    // for x the sum's own rounding
    const d = s.o.dModel, dFF = 4 * d, T = 3;
    assert.equal(s.o.dFF, dFF, 'd_ff = 4·d_model');
    const emb = randomNormals(T * d, { seed: s.seed }), pe = s.pe === 'on' ? sinusoidal(T, d) : new Float64Array(T * d);
    const wantX = emb.map((z, k) => Math.fround(Math.fround(z) + Math.fround(pe[k])));
    assertStream(s.x, wantX, `x (PE ${s.pe})`, (k) => ulp32(emb[k]) + ulp32(wantX[k]));
    const wantW = new Float64Array(4 * d * d + 2 * d * dFF);
    wantW.set(randomNormals(4 * d * d + d * dFF, { seed: s.seed + 1, std: 1 / Math.sqrt(d) }));
    wantW.set(randomNormals(dFF * d, { seed: s.seed + 2, std: 1 / Math.sqrt(dFF) }), 4 * d * d + d * dFF);
    assertStream(s.w, wantW, `weights (d_model ${d}; W2 from ${4 * d * d + d * dFF})`);
    // eps is nn.LayerNorm's 1e-5 (as float32, the kernel's type), written here, not the figure's
    const ref = transformerBlock(Float32Array.from(s.x), Float32Array.from(s.w), { ...s.o, dFF, eps: Math.fround(1e-5) });
    for (const k of TENSORS) {
      // float64 inside, every tensor rounded once: within half an ulp
      const c = compareValues(s.r[k], ref[k], ulp32);
      assert.ok(c.err <= 0.6 && c.compared === ref[k].length, `${k}: ${c.err} ulp from float64`);
    }
    // the readout's pinning numbers: tokens right after each norm, from float64
    const normed = s.o.placement === 'pre' ? ['attnInput', 'ffnInput'] : ['ffnInput', 'output'];
    const rows = normed.flatMap((k) => Array.from({ length: T }, (_, r) => Array.from(ref[k].subarray(r * d, (r + 1) * d))));
    const mean = (a) => a.reduce((p, q) => p + q, 0) / a.length;
    const sd = (a) => { const m = mean(a); return Math.sqrt(mean(a.map((v) => (v - m) ** 2))); };
    // the same numbers of the figure's float32 tensors (checked above against float64, 0.6 ulp):
    // a token's |mean| after a norm is that rounding, 1e-8, which float64 does not have; the
    // readout writes them with 2 digits (fmt), mean first
    const shownRows = normed.flatMap((k) => Array.from({ length: T }, (_, r) => s.r[k].slice(r * d, (r + 1) * d)));
    if (s.o.norm === 'rms') {
      const worst = Math.max(...rows.map((a) => Math.abs(Math.sqrt(mean(a.map((v) => v * v))) - 1)));
      assert.ok(Math.abs(s.pinned.rms - worst) < 1e-6, `rms pin ${s.pinned.rms} vs ${worst}`);
      assert.match(s.text, /RMSNorm pins only the root mean square/);
      const rms = Math.max(...shownRows.map((a) => Math.abs(Math.sqrt(mean(a.map((v) => v * v))) - 1)));
      assert.ok(Math.abs(s.pinned.rms - rms) <= 1e-12, `rms pin ${s.pinned.rms}, of the tensors ${rms}`);
      const m = s.text.match(/\|RMS − 1\| ≤ (\S+) —/);
      assert.ok(m, s.text);
      assertShows(m[1], rms, 2, 1e-9, '|RMS − 1|');
    } else {
      const worst = Math.max(...rows.map((a) => Math.abs(sd(a) - 1)));
      assert.ok(Math.abs(s.pinned.std - worst) < 1e-6, `std pin ${s.pinned.std} vs ${worst}`);
      assert.ok(s.pinned.std < 1e-4 && s.pinned.mean < 1e-6);
      assert.match(s.text, /LayerNorm pins each token to mean 0, std 1/);
      const pin = { mean: Math.max(...shownRows.map((a) => Math.abs(mean(a)))), std: Math.max(...shownRows.map((a) => Math.abs(sd(a) - 1))) };
      for (const k of ['mean', 'std']) assert.ok(Math.abs(s.pinned[k] - pin[k]) <= 1e-12, `${k} pin ${s.pinned[k]}, of the tensors ${pin[k]}`);
      const m = s.text.match(/\|mean\| ≤ (\S+), \|std − 1\| ≤ (\S+) —/);
      assert.ok(m, s.text);
      assertShows(m[1], pin.mean, 2, 1e-9, '|mean| pin');
      assertShows(m[2], pin.std, 2, 1e-9, '|std − 1| pin');
    }
    // the output's std per token (fmt, 3 digits) from float64: the figure's float32 output is
    // within 0.6 ulp, its std within 1e-7 (measured 1.4e-8)
    const outStd = s.text.match(/std per token ([^;]+);/);
    assert.ok(outStd, s.text);
    const shownStd = outStd[1].split(', ');
    assert.equal(shownStd.length, T, outStd[1]);
    shownStd.forEach((got, r) => assertShows(got, sd(Array.from(ref.output.subarray(r * d, (r + 1) * d))), 3, 1e-7, `output std of token ${r}`));
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
  // and x0 (16 × width, N(0, 1) from the seed) and the memory (width, N(0, 1) from seed + 3)
  // are the documented streams too (1 ulp: posnorm's log against Math.log; measured 0.5)
  const checkStreams = ({ x0, m, width, seed }, what) => {
    assertStream(x0, randomNormals(16 * width, { seed }), `${what}: x0`);
    assertStream(m, randomNormals(width, { seed: seed + 3 }), `${what}: memory`);
  };
  const seed = await get(page, tag, 'el.seed');
  checkDecoder(r.w, { width: W, layers: L, seed });
  checkStreams({ ...r, width: W, seed }, `width ${W}, seed ${seed}`);
  for (const state of [{ layers: 96 }, { seed: 5, layers: 96 }, { width: 16, seed: 5, layers: 96 }, { width: W, seed: 1, layers: L }]) {
    await update(page, tag, 'Object.assign(el, a)', state);
    const now = await get(page, tag, '({ w: [...el.inputs.weights], x0: [...el.inputs.x0], m: [...el.inputs.memory], stds: el.result.stds.map((s) => [...s]), width: el.width, layers: el.layers, seed: el.seed })');
    checkDecoder(now.w, now);
    checkStreams(now, JSON.stringify(state));
    // and what it draws is that state's stack (the float64 one)
    const ref = forward(Float32Array.from(now.x0), Float32Array.from(now.w), { width: now.width, layers: now.layers, block: 'post-ln', memory: Float32Array.from(now.m) }).std;
    for (let l = 0; l < now.layers; l++) assert.ok(Math.abs(now.stds[1][l] - ref[l]) <= 5e-7 * ref[l], `${JSON.stringify(state)}: post-ln layer ${l + 1}: ${now.stds[1][l]} vs ${ref[l]}`);
  }
  const x0 = Float32Array.from(r.x0), w = Float32Array.from(r.w), memory = Float32Array.from(r.m);
  // float32 products (measured 1.3e-7 relative in tests/depth_memory.test.mjs at width 8; here up to 3e-7)
  const stdTol = 5e-7;
  const refStds = {};
  BLOCKS.forEach((block, b) => {
    const ref = forward(x0, w, { width: W, layers: L, block, memory }).std;
    refStds[block] = ref;
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
  assert.ok(Math.abs(shown.ratio.pre - ratio('pre-ln')) <= 1e-6 * ratio('pre-ln'), `Pre-LN ratio ${shown.ratio.pre} vs ${ratio('pre-ln')}`);
  checkDepthReadout(await readoutLines(page, tag), refStds, ratio, { layers: L, stdTol, ratioTol: 1e-6 });
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
