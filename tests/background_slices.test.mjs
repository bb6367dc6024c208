// Background work while a reader drags, in Chromium: at the largest sizes,
// a drag of the heatmap's d_model and of depth's layers (one input per
// frame) runs the error readout and the gradients in the page's kernel
// Worker, or on a page without one in slices that keep to their budget
// (core/background.js logs each as a performance measure); the readout says
// it is computing meanwhile, and what it shows at the end is what the
// computation in one piece gives.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { open, useBrowser } from './browser/harness.mjs';
import { drag, settle } from '../bench/frames.mjs';
import { SLICE_MEASURE } from '../web/figures/core/background.js';
import { OFF_THREAD_VALUES } from '../web/figures/draw/pe-error.js';

const env = useBrowser(before, after);
/** A slice's budget, as issue 20 asks ("slices of a few milliseconds"): the test's own, not the module's. */
const SLICE_MS = 4;
/** Timer resolution. */
const SLACK_MS = 1;

/**
 * Starts figure `name` alone at `query`; returns the page. `noWorker`: the
 * page has no Worker constructor (an engine or page that cannot start one),
 * so off-thread work runs in slices on the main thread.
 */
async function figure(name, query, { noWorker = false } = {}) {
  const url = `${env.server.url}/web/figure.html?fig=${name}&lang=en&${query}`;
  const setup = noWorker ? (context) => context.addInitScript(() => { delete globalThis.Worker; }) : undefined;
  const { page, context, problems } = await open(env.browser, url, { width: 900, setup });
  await page.waitForFunction((t) => document.querySelector(t)?.renderTimes?.length > 0, `posnorm-${name}`, { timeout: 20000 });
  await settle(page);
  return { page, context, problems };
}

/** The slices logged since the drag began (drag() leaves its observer on the page). */
const slicesOf = (page) => page.evaluate(() => {
  const { sl, slices } = window.__sliceObserver;
  sl.disconnect();
  return slices;
});

/**
 * From here on, the page keeps the slices' measures themselves, with their
 * units (drag() keeps durations only; the timeline keeps none of them).
 */
const watchSlices = (page) => page.evaluate((name) => {
  window.__slices = [];
  new PerformanceObserver((l) => window.__slices.push(...l.getEntries().filter((e) => e.name === name)
    .map((e) => ({ duration: e.duration, units: e.detail.units, label: e.detail.label, budget: e.detail.budget, lastUnit: e.detail.lastUnit })))).observe({ type: 'measure' });
}, SLICE_MEASURE);

/** The measures watchSlices() kept. */
const sliceEntries = (page) => page.evaluate(() => window.__slices);

/**
 * No slice longer than its budget. The runner starts a unit only while the
 * slice so far plus its longest unit yet fits the slice's budget, so the
 * time before a slice's last unit must fit it: a slice can overrun only by a
 * unit that took longer than every unit before it (a unit cannot be cut). On
 * a machine shared with other work such a unit is a pre-empted one, so the
 * wall-clock durations are printed, and `make bench` reports the longest.
 */
function assertWithinBudget(entries, label) {
  const mine = entries.filter((e) => e.label === label);
  assert.ok(mine.length > 0, `${label}: no slices logged`);
  for (const e of mine) {
    assert.ok(e.budget <= SLICE_MS, `${label}: a slice's budget ${e.budget} ms (at most ${SLICE_MS})`);
    assert.ok(e.duration - e.lastUnit <= e.budget + SLACK_MS, `${label}: a slice of ${e.units} units ran ${e.duration.toFixed(1)} ms before its last unit (budget ${e.budget} ms)`);
  }
  const sorted = mine.map((e) => e.duration).sort((a, b) => a - b);
  const p95 = sorted[Math.ceil(0.95 * sorted.length) - 1];
  const median = sorted[sorted.length >> 1];
  console.log(`${label}: ${mine.length} slices of ${mine.reduce((a, e) => a + e.units, 0)} units; wall clock median ${median.toFixed(2)} ms, p95 ${p95.toFixed(2)} ms, longest ${sorted.at(-1).toFixed(2)} ms`);
  // The check above holds by construction for any plan up to 1.25 of the
  // budget (the runner starts a unit only while it fits its plan). What
  // tells the half-budget plan apart is the slices' length: the error
  // readout's slices had a median of 1.9 ms planned to half the budget
  // (idle, and with two or three busy loops on this 2-core machine), 2.9
  // ms planned to 3/4 (SLICE_PLAN = 0.75, which background.js says let
  // slices reach 10–11 ms) and 3.8–3.9 ms planned to all of it. The median,
  // not the longest: a slice pre-empted on a shared machine is one of many.
  assert.ok(median <= 0.625 * SLICE_MS, `${label}: the median slice ran ${median.toFixed(2)} ms (at most ${0.625 * SLICE_MS}: slices are planned to half their budget)`);
}

/**
 * A d_model drag of the heatmap at 2048 × 1024 (the readout pending right
 * after an input), then the errors shown against peErrors() in one piece on
 * the main thread; returns the slices the main thread ran and where the
 * errors were computed.
 */
async function heatmapDrag(options, { from } = {}) {
  const { page, context, problems } = await figure('heatmap', 'd-model=1024&seq-len=2048&base=100000', options);
  await watchSlices(page);
  // the readout is pending right after an input
  const pending = await page.evaluate(async () => {
    const el = document.querySelector('posnorm-heatmap');
    const input = el.shadowRoot.querySelector('input[name=dModel]');
    input.value = '1000';
    input.dispatchEvent(new Event('input', { bubbles: true }));
    // the figure repaints in the next frame; read after it (the computation takes tens of ms)
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    return { text: el.shadowRoot.querySelector('.pe-error').textContent, errors: el.peErrors, pendingText: el.t.peErrorPending };
  });
  assert.equal(pending.errors, null);
  assert.equal(pending.text, pending.pendingText);
  if (from === undefined) await drag(page, 'posnorm-heatmap', 'dModel', 32);
  else {
    // 32 inputs from `from` to the max, one per frame
    await page.evaluate(async (from) => {
      const input = document.querySelector('posnorm-heatmap').shadowRoot.querySelector('input[name=dModel]');
      for (let k = 0; k < 32; k++) {
        input.value = String(Math.round(from + ((Number(input.max) - from) * k) / 31));
        input.dispatchEvent(new Event('input', { bubbles: true }));
        await new Promise((r) => requestAnimationFrame(r));
      }
    }, from);
  }
  await page.waitForFunction(() => document.querySelector('posnorm-heatmap').peErrors, null, { timeout: 60000 });
  await settle(page);
  if (from === undefined) await slicesOf(page);
  const entries = await sliceEntries(page);
  const r = await page.evaluate(async () => {
    const el = document.querySelector('posnorm-heatmap');
    const { peErrors } = await import('/web/figures/draw/pe-error.js');
    const whole = peErrors(el.pn, el.peErrors.sizes);
    return { shown: el.peErrors, whole, values: el.values, line: el.shadowRoot.querySelector('.pe-error').textContent, offThread: el._errors.offThread };
  });
  // the drag ends at the slider's max
  assert.deepEqual(r.shown.sizes, { seqLen: 2048, dModel: 1024, base: 100000, layout: 'interleaved' });
  assert.deepEqual({ posnorm: r.shown.posnorm, float32: r.shown.float32 }, r.whole);
  assert.match(r.line, /max error of what is drawn against float64: posnorm /);
  assert.deepEqual(problems, []);
  await context.close();
  return { entries, offThread: r.offThread };
}

test('heatmap at 2048 × 1024: a d_model drag over sizes past OFF_THREAD_VALUES computes the error readout in the kernel Worker (no slice on the main thread), and it ends equal to the errors in one piece', async () => {
  // 2048 positions × 64 columns and up: every size is past the threshold
  assert.ok(2048 * 64 > OFF_THREAD_VALUES);
  const { entries, offThread } = await heatmapDrag({}, { from: 64 });
  assert.equal(offThread, true, 'the errors ran in the Worker');
  assert.deepEqual(entries.filter((e) => e.label === 'pe-error'), [], 'the main thread ran no error slice');
});

test('heatmap at 2048 × 1024 on a page without Worker: a d_model drag slices the error readout within budget, and it ends equal to the errors in one piece', async () => {
  const { entries, offThread } = await heatmapDrag({ noWorker: true });
  assert.equal(offThread, false, 'the errors ran on the main thread');
  assertWithinBudget(entries, 'pe-error');
});

/**
 * A drag of depth's layers at 96 × 64, then the gradients shown against
 * residualStack called at once on the main thread; returns the slices the
 * main thread ran and the page's state.
 */
async function depthDrag(options) {
  // it starts at 48 layers: the drag ends at 96, whose gradients are not yet known
  // (gradients already shown are kept, and a drag back to them computes nothing)
  const { page, context, problems } = await figure('depth', 'layers=48&width=64', options);
  await watchSlices(page);
  await drag(page, 'posnorm-depth', 'layers', 32);
  // the gradients wait for the values to settle (their unit is longer than a slice at this size)
  await page.waitForFunction(() => document.querySelector('posnorm-depth').result?.gradNorms, null, { timeout: 60000 });
  await settle(page);
  await slicesOf(page);
  const entries = await sliceEntries(page);
  const r = await page.evaluate(() => {
    const el = document.querySelector('posnorm-depth');
    const { x0, weights } = el.inputs;
    const width = el.width, layers = el.layers;
    const direct = ['plain', 'post-ln', 'pre-ln', 'pre-rms'].map((block) => Array.from(el.pn.residualStack(x0.subarray(0, 4 * width), weights, { width, layers, block, gradients: true }).gradNorm));
    return { layers, shown: el.result.gradNorms?.map((g) => Array.from(g)), direct, offThread: el._gradTask.offThread };
  });
  assert.equal(r.layers, 96);
  assert.ok(r.shown, 'the gradients are shown once the drag is over');
  assert.deepEqual(r.shown, r.direct);
  assert.deepEqual(problems, []);
  await context.close();
  return { entries, offThread: r.offThread };
}

test('depth at 96 layers × 64: a layers drag computes the gradients in the kernel Worker (no slice on the main thread), equal to residualStack called at once', async () => {
  const { entries, offThread } = await depthDrag();
  assert.equal(offThread, true, 'the gradients ran in the Worker');
  assert.deepEqual(entries.filter((e) => e.label === 'depth-gradients'), [], 'the main thread ran no gradient slice');
});

// A block's gradients are one residualStack call, which cannot be divided:
// 8–16 ms each here at 96 layers × 64, over any slice's budget (why they
// run in a Worker where one can start: docs/decisions.md). Without one,
// what the slices can promise is that each holds one block and gives way
// to the page between blocks.
test('depth at 96 layers × 64 on a page without Worker: a layers drag runs the gradients one block to a slice, and they end equal to residualStack called at once', async () => {
  const { entries, offThread } = await depthDrag({ noWorker: true });
  assert.equal(offThread, false, 'the gradients ran on the main thread');
  const mine = entries.filter((e) => e.label === 'depth-gradients');
  assert.ok(mine.length >= 4, `the four blocks' gradients in ${mine.length} slices`);
  for (const e of mine) {
    assert.ok(e.budget <= SLICE_MS, `a slice's budget ${e.budget} ms (at most ${SLICE_MS})`);
    assert.equal(e.units, 1, `a slice of ${e.units} units (${e.duration.toFixed(1)} ms): one block to a slice`);
  }
});

test('depth: after a drag that comes back to the layers shown, the gradients are shown again (not left pending)', async () => {
  const { page, context, problems } = await figure('depth', 'layers=96&width=64');
  await page.waitForFunction(() => document.querySelector('posnorm-depth').result?.gradNorms, null, { timeout: 20000 });
  // away for one frame and back: the run for 10 layers is dropped, 96's gradients are the ones kept
  await page.evaluate(async () => {
    const input = document.querySelector('posnorm-depth').shadowRoot.querySelector('form [name="layers"]');
    for (const v of ['10', '96']) {
      input.value = v;
      input.dispatchEvent(new Event('input', { bubbles: true }));
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    }
  });
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0))));
  await page.waitForFunction(() => document.querySelector('posnorm-depth').result?.gradNorms, null, { timeout: 20000 });
  assert.equal(await page.evaluate(() => document.querySelector('posnorm-depth').result.gradNorms[0].length), 96);
  assert.deepEqual(problems, []);
  await context.close();
});

test('depth: gradients that fail to compute say so in their panel and fire posnorm-error once, without a render loop or a page error; other layers, and then these again, compute', async () => {
  const { page, context, problems } = await figure('depth', 'layers=12&width=16', { noWorker: true });
  await page.waitForFunction(() => document.querySelector('posnorm-depth').result?.gradNorms, null, { timeout: 20000 });
  const setLayers = (v) => page.evaluate(async (value) => {
    const input = document.querySelector('posnorm-depth').shadowRoot.querySelector('form [name="layers"]');
    input.value = value;
    input.dispatchEvent(new Event('input', { bubbles: true }));
  }, String(v));
  await page.evaluate(() => {
    const el = document.querySelector('posnorm-depth');
    window.__errors = [];
    el.addEventListener('posnorm-error', (e) => window.__errors.push({ message: e.detail.message, error: String(e.detail.error) }));
    window.__drawn = [];
    const original = CanvasRenderingContext2D.prototype.fillText;
    CanvasRenderingContext2D.prototype.fillText = function (text, ...rest) {
      window.__drawn.push(String(text));
      return original.call(this, text, ...rest);
    };
    // the gradient calls (and only they) run out of memory
    const pn = el.pn;
    window.__restore = () => { delete pn.residualStack; };
    pn.residualStack = function (x, w, opts) {
      if (opts?.gradients) throw new RangeError('posnorm: not enough WebAssembly memory for the gradients');
      return Object.getPrototypeOf(pn).residualStack.call(this, x, w, opts);
    };
  });
  await setLayers(13);
  await page.waitForFunction(() => window.__errors.length > 0, null, { timeout: 20000 });
  // what follows the failure: one repaint, not one per frame
  const renders = await page.evaluate(() => document.querySelector('posnorm-depth').renderTimes.length);
  // the failure's repaint (waited for, however slow the frame), then 400 ms
  // in which no other render may come
  await page.waitForFunction(() => window.__drawn.includes('could not compute the gradients'), null, { timeout: 20000 });
  await page.waitForTimeout(400);
  const state = await page.evaluate(() => ({
    errors: window.__errors,
    failedShown: window.__drawn.includes('could not compute the gradients'),
    pendingAfter: window.__drawn.lastIndexOf('computing the gradients…') > window.__drawn.lastIndexOf('could not compute the gradients'),
    gradNorms: document.querySelector('posnorm-depth').result.gradNorms,
    renders: document.querySelector('posnorm-depth').renderTimes.length,
  }));
  assert.deepEqual(state.errors, [{ message: 'could not compute the gradients', error: 'RangeError: posnorm: not enough WebAssembly memory for the gradients' }]);
  assert.equal(state.failedShown, true, 'the panel says the gradients could not be computed');
  assert.equal(state.pendingAfter, false, 'and does not go back to "computing…"');
  assert.equal(state.gradNorms, null);
  assert.ok(state.renders - renders <= 1, `${state.renders - renders} renders after the failure`);
  // the memory is back: other layers compute, and then the failed ones do too
  await page.evaluate(() => window.__restore());
  for (const layers of [14, 13]) {
    await setLayers(layers);
    await page.waitForFunction((n) => document.querySelector('posnorm-depth').result?.gradNorms?.[0]?.length === n, layers, { timeout: 20000 });
  }
  assert.equal(await page.evaluate(() => window.__errors.length), 1);
  assert.deepEqual(problems, []);
  await context.close();
});
