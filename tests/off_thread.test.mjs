// The kernel Worker of web/figures/core/off-thread.js, in Chromium, through
// <posnorm-depth>'s gradients: every state's gradients are residualStack's
// own (called on the page's instance, on the main thread) after changes of
// width, stack and seed that change the weights the Worker keeps; a figure
// taken off the page while its run waits gets its gradients when it comes
// back; a Worker script that fails to load, or loads and never answers,
// leaves the work to the main thread with the same results.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { open, useBrowser } from './browser/harness.mjs';
import { REQUEST_LIMIT_MS } from '../web/figures/core/off-thread.js';

const env = useBrowser(before, after);

/** figure.html with depth at `query`; `worker`: a route for kernel-worker.js ({ status, body }) or undefined. */
async function depthPage(query, { worker, height = 900 } = {}) {
  const setup = worker ? (context) => context.route('**/kernel-worker.js', (route) => route.fulfill({ status: worker.status, contentType: 'text/javascript', body: worker.body })) : undefined;
  const opened = await open(env.browser, `${env.server.url}/web/figure.html?fig=depth&lang=en&${query}`, { width: 900, height, setup });
  await opened.page.waitForFunction(() => document.querySelector('posnorm-depth')?.renderTimes?.length > 0, null, { timeout: 20000 });
  return opened;
}

/** Waits for the gradients of the figure's current values; returns them beside residualStack's, and where they ran. */
async function gradientsNow(page, timeout = 30000) {
  // the change shows in the next frame, with the gradients pending
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  await page.waitForFunction(() => document.querySelector('posnorm-depth').result?.gradNorms, null, { timeout });
  return page.evaluate(() => {
    const el = document.querySelector('posnorm-depth');
    const { x0, weights, memory } = el.inputs;
    const { width, layers, stack, seed } = el;
    const direct = ['plain', 'post-ln', 'pre-ln', 'pre-rms'].map((block) => Array.from(el.pn.residualStack(x0.subarray(0, 4 * width), weights, { width, layers, block, gradients: true, ...(memory ? { memory } : {}) }).gradNorm));
    return { state: { width, layers, stack, seed }, shown: el.result.gradNorms.map((g) => Array.from(g)), direct, offThread: el._gradTask.offThread };
  });
}

test('depth\'s gradients from the Worker are residualStack\'s in every state, as width, stack and seed change the weights it keeps', async () => {
  const { page, context, problems } = await depthPage('layers=12&width=32');
  // each a state neither shown nor the one shown before (those the figure
  // keeps, and sends nothing for): the number of layers moves with the
  // returns to a width, a stack or a seed (gradientsNow's own call takes
  // the figure's scaled weights at scale 1, so the scale stays 1); seed 6
  // changes the seed alone, so the name of the Worker's copy of the weights
  // must hold the seed, not only the width and the layers drawn
  const states = [{}, { width: 64 }, { width: 32, layers: 13 }, { width: 64, layers: 14 }, { stack: 'decoder' }, { stack: 'encoder', layers: 13 },
    { seed: 5 }, { seed: 6 }, { seed: 1, layers: 12 }, { stack: 'decoder', width: 16 }];
  await gradientsNow(page);
  await page.evaluate(() => {
    window.__requests = 0;
    const post = Worker.prototype.postMessage;
    Worker.prototype.postMessage = function (m, t) { if (m.calls) window.__requests++; return post.call(this, m, t); };
  });
  for (const change of states.slice(1)) {
    const before = await page.evaluate(() => window.__requests);
    await page.evaluate((c) => Object.assign(document.querySelector('posnorm-depth'), c), change);
    const r = await gradientsNow(page);
    assert.equal(r.offThread, true, `${JSON.stringify(r.state)}: computed in the Worker`);
    assert.ok(await page.evaluate(() => window.__requests) > before, `${JSON.stringify(r.state)}: a request went to the Worker`);
    assert.deepEqual(r.shown, r.direct, JSON.stringify(r.state));
  }
  assert.deepEqual(problems, []);
  await context.close();
});

test('switching depth between encoder and decoder sends each stack\'s weights to the Worker once, and the gradients stay residualStack\'s', async () => {
  const { page, context, problems } = await depthPage('layers=12&width=32');
  await gradientsNow(page);
  const sent = await page.evaluate(async () => {
    const frame = () => new Promise((res) => requestAnimationFrame(() => requestAnimationFrame(res)));
    const until = async (f) => { for (let t = 0; t < 1000 && !f(); t++) await new Promise((res) => setTimeout(res, 20)); return f(); };
    const el = document.querySelector('posnorm-depth');
    const messages = [];
    const post = Worker.prototype.postMessage;
    // (the lengths before the weights are transferred away)
    Worker.prototype.postMessage = function (m, t) { messages.push({ calls: m.calls, keep: Object.values(m.keep ?? {}).map((k) => k.array.length) }); return post.call(this, m, t); };
    // (a new scale each time, which changes no weights: a switch back to the
    // state shown just before would take the gradients the figure kept)
    for (const [stack, scale] of [['decoder', 1.5], ['encoder', 2], ['decoder', 2.5], ['encoder', 3], ['decoder', 1]]) {
      Object.assign(el, { stack, scale });
      await frame();
      await until(() => el.result?.gradNorms);
    }
    Worker.prototype.postMessage = post;
    return messages.filter((m) => m.calls).map((m) => ({ layers: m.calls[0].args[2].layers, memory: Boolean(m.calls[0].args[2].memory), keep: m.keep }));
  });
  // the encoder's weights went with the first request; the decoder's (W_l and C_l of 96 layers × 32²) go once
  assert.deepEqual(sent.map((m) => m.memory), [true, false, true, false, true], 'one request per switch');
  assert.deepEqual(sent.map((m) => m.keep), [[2 * 96 * 32 * 32], [], [], [], []], 'weights sent once');
  const r = await gradientsNow(page);
  assert.equal(r.state.stack, 'decoder');
  assert.equal(r.offThread, true);
  assert.deepEqual(r.shown, r.direct);
  // off the page, the figure has the Worker forget both stacks' weights
  const forgotten = await page.evaluate(async () => {
    const names = [];
    const post = Worker.prototype.postMessage;
    Worker.prototype.postMessage = function (m, t) { if (m.forget) names.push(...m.forget); return post.call(this, m, t); };
    window.__removed = document.querySelector('posnorm-depth');
    window.__removed.remove();
    await new Promise((res) => setTimeout(res, 100));
    Worker.prototype.postMessage = post;
    return names.sort();
  });
  assert.equal(forgotten.length, 2, `forgotten: ${forgotten}`);
  assert.match(forgotten[0], /^depth-weights-\d+-decoder$/);
  assert.equal(forgotten[1], forgotten[0].replace(/decoder$/, 'encoder'));
  // back on the page, the same figure sends its weights again, and the Worker computes with them
  const resent = await page.evaluate(() => {
    const sizes = [];
    const post = Worker.prototype.postMessage;
    Worker.prototype.postMessage = function (m, t) { if (m.calls) sizes.push(...Object.values(m.keep ?? {}).map((k) => k.array.length)); return post.call(this, m, t); };
    window.__restorePost = () => { Worker.prototype.postMessage = post; return sizes; };
    document.body.append(window.__removed);
    // (a new state: the gradients of the old one are kept by the figure)
    window.__removed.layers = 13;
  }).then(() => gradientsNow(page));
  assert.equal(resent.offThread, true, 'computed in the Worker again');
  assert.deepEqual(resent.shown, resent.direct);
  assert.deepEqual(await page.evaluate(() => window.__restorePost()), [2 * 96 * 32 * 32], 'the decoder\'s weights sent again');
  assert.deepEqual(problems, []);
  await context.close();
});

test('a request sent between a seed change and the next frame does not give the Worker the old seed\'s weights under the new seed', async () => {
  const { page, context, problems } = await depthPage('layers=12&width=32');
  await gradientsNow(page);
  // a new key (layers) starts a run that waits out its settle time; the seed
  // changes, and the run is sent at once, before the frame that redraws the
  // weights for the new seed
  await page.evaluate(() => new Promise((resolve) => {
    const el = document.querySelector('posnorm-depth');
    el.layers = 13;
    requestAnimationFrame(() => setTimeout(() => {
      el.seed = 5;
      const task = el._gradTask;
      clearTimeout(task._timer);
      task._timer = 0;
      task._send();
      resolve();
    }, 0));
  }));
  await page.waitForFunction(() => {
    const el = document.querySelector('posnorm-depth');
    return el.result?.gradNorms && el._gradKey === `${el.layers}|${el.width}|${el.scale}|5|${el.stack}`;
  }, null, { timeout: 20000 });
  const r = await gradientsNow(page);
  assert.equal(r.state.seed, 5);
  assert.equal(r.offThread, true);
  assert.deepEqual(r.shown, r.direct);
  assert.deepEqual(problems, []);
  await context.close();
});

test('two depth figures on one page keep their own weights in the one Worker; going A → B → A while A runs asks for A once', async () => {
  const { page, context, problems } = await depthPage('layers=12&width=32', { height: 2400 });
  await page.waitForFunction(() => document.querySelector('posnorm-depth')?.result?.gradNorms, null, { timeout: 20000 });
  const r = await page.evaluate(async () => {
    const frame = () => new Promise((res) => requestAnimationFrame(() => requestAnimationFrame(res)));
    const until = async (f) => { for (let t = 0; t < 1000 && !f(); t++) await new Promise((res) => setTimeout(res, 20)); return f(); };
    const a = document.querySelector('posnorm-depth');
    const b = document.createElement('posnorm-depth');
    Object.assign(b, { layers: 12, width: 16, seed: 9, stack: 'decoder' });
    a.after(b);
    await until(() => b.result?.gradNorms && a.result?.gradNorms);
    // the Worker's messages, counted from here
    const sent = [];
    const post = Worker.prototype.postMessage;
    Worker.prototype.postMessage = function (m, t) { sent.push(m); return post.call(this, m, t); };
    // alternate: each figure's next run must not need the other's weights
    // again (fewer layers than drawn: more would send the deeper draw once,
    // the next test)
    for (const [el, layers] of [[a, 11], [b, 11], [a, 10], [b, 10]]) {
      el.layers = layers;
      await frame();
      await until(() => el.result?.gradNorms);
    }
    const check = (el) => {
      const { x0, weights, memory } = el.inputs;
      const direct = ['plain', 'post-ln', 'pre-ln', 'pre-rms'].map((block) => Array.from(el.pn.residualStack(x0.subarray(0, 4 * el.width), weights, { width: el.width, layers: el.layers, block, gradients: true, ...(memory ? { memory } : {}) }).gradNorm));
      return JSON.stringify(direct) === JSON.stringify(el.result.gradNorms.map((g) => Array.from(g)));
    };
    const alternating = { requests: sent.length, weightsSent: sent.filter((m) => Object.keys(m.keep ?? {}).length > 0).length, a: check(a), b: check(b) };
    // A → B → A while A's request runs: the request for A is held back on
    // its way to the Worker until the figure has gone to B and back to A
    sent.length = 0;
    let release = null;
    Worker.prototype.postMessage = function (m, t) {
      sent.push(m);
      if (!release && m.calls?.[0]?.args?.[2]?.layers === 95) {
        release = () => post.call(this, m, t);
        return undefined;
      }
      return post.call(this, m, t);
    };
    // A's request goes out once its key has settled: after settleMs when
    // its last call took longer than a slice (a slower machine), at once
    // otherwise; the figure goes to B only when it is on its way (a fixed
    // number of frames was shorter than the settle time on a slower machine)
    a.layers = 95;
    const held = await until(() => release !== null);
    a.layers = 94;
    await frame();
    a.layers = 95;
    await frame();
    release?.();
    await until(() => a.result?.gradNorms && a.layers === 95);
    await new Promise((res) => setTimeout(res, 500));
    const back = sent.map((m) => m.calls?.[0]?.args?.[2]?.layers);
    Worker.prototype.postMessage = post;
    return { alternating, back, held, aBack: check(a) };
  });
  assert.deepEqual(r.alternating, { requests: 4, weightsSent: 0, a: true, b: true }, 'four requests, no weights sent again');
  assert.equal(r.held, true, 'the request for A was on its way while the figure went to B and back');
  assert.equal(r.back.filter((l) => l === 95).length, 1, `layers 95 asked for once (requests: ${r.back})`);
  assert.ok(r.aBack);
  assert.deepEqual(problems, []);
  await context.close();
});

test('depth draws the layers it shows: a deeper stack sends all 96 layers once, a new width only its own; the gradients stay residualStack\'s', async () => {
  const { page, context, problems } = await depthPage('layers=12&width=32');
  await gradientsNow(page);
  const sent = await page.evaluate(async () => {
    const frame = () => new Promise((res) => requestAnimationFrame(() => requestAnimationFrame(res)));
    const until = async (f) => { for (let t = 0; t < 1000 && !f(); t++) await new Promise((res) => setTimeout(res, 20)); return f(); };
    const el = document.querySelector('posnorm-depth');
    const messages = [];
    const post = Worker.prototype.postMessage;
    Worker.prototype.postMessage = function (m, t) { if (m.calls) messages.push({ layers: m.calls[0].args[2].layers, keep: Object.values(m.keep ?? {}).map((k) => k.array.length) }); return post.call(this, m, t); };
    for (const change of [{ layers: 13 }, { layers: 40 }, { layers: 12 }, { width: 16 }, { layers: 11 }, { layers: 20 }, { stack: 'decoder' }, { stack: 'encoder', layers: 30 }]) {
      Object.assign(el, change);
      await frame();
      await until(() => el.result?.gradNorms);
    }
    Worker.prototype.postMessage = post;
    return messages;
  });
  const ww32 = 32 * 32, ww16 = 16 * 16;
  assert.deepEqual(sent, [
    { layers: 13, keep: [96 * ww32] }, // past the 12 drawn: all 96, once
    { layers: 40, keep: [] },
    { layers: 12, keep: [] },
    { layers: 12, keep: [12 * ww16] }, // a new width: the layers shown
    { layers: 11, keep: [] },
    { layers: 20, keep: [96 * ww16] },
    { layers: 20, keep: [2 * 96 * ww16] }, // the decoder: W and C, 96 each
    { layers: 30, keep: [] }, // the encoder's 96 are kept
  ]);
  const r = await gradientsNow(page);
  assert.deepEqual(r.state, { width: 16, layers: 30, stack: 'encoder', seed: 1 });
  assert.deepEqual(r.shown, r.direct);
  assert.deepEqual(problems, []);
  await context.close();
});

/**
 * The figure's state against residualStack on freshly drawn weights (W_l,
 * with the decoder C_l between them and the memory; randomNormal itself is
 * held to the reference generator in figures_kernels.test): whether the
 * gradients and spreads shown are those, and where the gradients ran.
 */
const CHECK = `(el) => {
  const { width, layers, stack, seed, scale } = el;
  const pn = el.pn, ww = width * width;
  const refW = pn.randomNormal(96 * ww, { seed: seed + 1, std: 1 / Math.sqrt(width) });
  const x0 = pn.randomNormal(16 * width, { seed });
  let w;
  const opts = {};
  if (stack === 'decoder') {
    const refC = pn.randomNormal(96 * ww, { seed: seed + 2, std: 1 / Math.sqrt(width) });
    w = new Float32Array(2 * layers * ww);
    for (let l = 0; l < layers; l++) { w.set(refW.subarray(l * ww, (l + 1) * ww), 2 * l * ww); w.set(refC.subarray(l * ww, (l + 1) * ww), (2 * l + 1) * ww); }
    opts.memory = pn.randomNormal(width, { seed: seed + 3 });
  } else w = refW.slice(0, layers * ww);
  const blocks = ['plain', 'post-ln', 'pre-ln', 'pre-rms'];
  const grads = blocks.map((block) => Array.from(pn.residualStack(x0.subarray(0, 4 * width), w, { width, layers, block, scale, gradients: true, ...opts }).gradNorm));
  const stds = blocks.map((block) => Array.from(pn.residualStack(x0, w, { width, layers, block, scale, ...opts })));
  return {
    state: { width, layers, stack, seed },
    grads: JSON.stringify(el.result.gradNorms.map((g) => Array.from(g))) === JSON.stringify(grads),
    stds: JSON.stringify(el.result.stds.map((g) => Array.from(g))) === JSON.stringify(stds),
    offThread: el._gradTask.offThread,
  };
}`;

/** A run for 50 layers is pending; csv() at another width and back redraws 10 layers before it goes (as `inputs` or csv() may, between frames). */
const REDRAW_UNDER_RUN = 'el.width = 16; el.csv(); el.width = 32; el.layers = 10; el.csv(); el.layers = 50;';

test('depth: weights redrawn for fewer layers while a run waits are not sent or used for more (Worker): the gradients stay residualStack\'s, in the Worker', async () => {
  const { page, context, problems } = await depthPage('layers=12&width=32');
  await gradientsNow(page);
  const sent = await page.evaluate(async (redraw) => {
    const el = document.querySelector('posnorm-depth');
    const sent = [];
    const post = Worker.prototype.postMessage;
    Worker.prototype.postMessage = function (m, t) { if (m.calls) sent.push({ layers: m.calls[0].args[2].layers, width: m.calls[0].args[2].width, keep: Object.values(m.keep ?? {}).map((k) => k.array.length) }); return post.call(this, m, t); };
    await new Promise((resolve) => {
      el.layers = 50;
      const task = el._gradTask;
      // the run waits as it does for its values to settle at large sizes
      task.longestCall = Infinity;
      task.settleMs = 100000;
      requestAnimationFrame(() => setTimeout(() => {
        new Function('el', redraw)(el);
        // its timer fires here, before the next frame draws 50 layers
        clearTimeout(task._timer);
        task._timer = 0;
        task._send();
        task.settleMs = 150;
        resolve();
      }, 0));
    });
    await new Promise((res) => setTimeout(res, 1000));
    Worker.prototype.postMessage = post;
    return sent;
  }, REDRAW_UNDER_RUN);
  for (const m of sent) assert.ok(m.keep.length === 0 || m.keep[0] >= m.layers * m.width ** 2, `a copy of ${m.keep[0] / m.width ** 2} layers sent for ${m.layers}: ${JSON.stringify(sent)}`);
  const r = await gradientsNow(page);
  assert.deepEqual(r.state, { width: 32, layers: 50, stack: 'encoder', seed: 1 });
  assert.deepEqual(r.shown, r.direct);
  assert.deepEqual(await page.evaluate(`(${CHECK})(document.querySelector('posnorm-depth'))`), { state: r.state, grads: true, stds: true, offThread: true });
  assert.deepEqual(problems, []);
  await context.close();
});

test('depth: weights redrawn for fewer layers between two slices of a run (no Worker) abandon it: the gradients shown are residualStack\'s on the weights of the layers shown', async () => {
  const { page, context, problems } = await depthPage('layers=12&width=32', { worker: { status: 404, body: '' } });
  await page.waitForFunction(() => document.querySelector('posnorm-depth').result?.gradNorms, null, { timeout: 20000 });
  const fired = await page.evaluate(async (redraw) => {
    const el = document.querySelector('posnorm-depth');
    const steps = el._gradientSteps.bind(el);
    let fired = false;
    el._gradientSteps = function* (...a) {
      const g = steps(...a);
      let s = g.next();
      if (a[0] === 50 && !fired) {
        fired = true;
        new Function('el', redraw)(el);
        // the next units before any frame draws the 50 layers again (the
        // worst order the slices and the frames can take)
        while (!s.done) s = g.next();
        return s.value;
      }
      while (!s.done) {
        yield;
        s = g.next();
      }
      return s.value;
    };
    el.layers = 50;
    for (let t = 0; t < 500 && !(fired && el.result?.gradNorms && el._gradKey?.startsWith('50|')); t++) await new Promise((res) => setTimeout(res, 20));
    await new Promise((res) => requestAnimationFrame(() => requestAnimationFrame(res)));
    return fired;
  }, REDRAW_UNDER_RUN);
  assert.equal(fired, true, 'the redraw came between the slices');
  assert.deepEqual(await page.evaluate(`(${CHECK})(document.querySelector('posnorm-depth'))`), { state: { width: 32, layers: 50, stack: 'encoder', seed: 1 }, grads: true, stds: true, offThread: false });
  assert.deepEqual(problems.filter((p) => !/kernel-worker\.js|Failed to load resource/.test(p)), []);
  await context.close();
});

test('depth taken off the page and back redraws its weights for the layers shown and names the Worker\'s copy anew: 12 layers, then all 96 for 41', async () => {
  const { page, context, problems } = await depthPage('layers=40&width=32');
  await gradientsNow(page);
  const sent = await page.evaluate(async () => {
    const frame = () => new Promise((res) => requestAnimationFrame(() => requestAnimationFrame(res)));
    const until = async (f) => { for (let t = 0; t < 1000 && !f(); t++) await new Promise((res) => setTimeout(res, 20)); return f(); };
    const el = document.querySelector('posnorm-depth');
    const sent = [];
    const post = Worker.prototype.postMessage;
    Worker.prototype.postMessage = function (m, t) { if (m.calls) sent.push({ layers: m.calls[0].args[2].layers, keep: Object.values(m.keep ?? {}).map((k) => k.array.length) }); return post.call(this, m, t); };
    const parent = el.parentNode;
    el.remove();
    await new Promise((res) => setTimeout(res, 50));
    parent.append(el);
    el.layers = 12;
    await frame();
    await until(() => el.result?.gradNorms);
    // (41, not 40: the gradients of 40 layers, shown before 12, are kept by the figure)
    el.layers = 41;
    await frame();
    await until(() => el.result?.gradNorms);
    Worker.prototype.postMessage = post;
    return sent;
  });
  assert.deepEqual(sent, [{ layers: 12, keep: [12 * 32 * 32] }, { layers: 41, keep: [96 * 32 * 32] }]);
  assert.deepEqual(await page.evaluate(`(${CHECK})(document.querySelector('posnorm-depth'))`), { state: { width: 32, layers: 41, stack: 'encoder', seed: 1 }, grads: true, stds: true, offThread: true });
  assert.deepEqual(problems, []);
  await context.close();
});

test('depth taken off the page while its gradients wait gets them when it comes back', async () => {
  const { page, context, problems } = await depthPage('layers=48&width=64');
  await gradientsNow(page);
  // a new key starts a run that waits 150 ms for its values to settle; the
  // figure leaves in the same task, before the run is sent
  await page.evaluate(() => new Promise((resolve) => {
    const el = document.querySelector('posnorm-depth');
    el.layers = 47;
    requestAnimationFrame(() => setTimeout(() => {
      window.__away = { el, parent: el.parentNode, next: el.nextSibling, pending: el._gradTask.key !== undefined && el.result?.gradNorms === null };
      el.remove();
      resolve();
    }, 0));
  }));
  assert.equal(await page.evaluate(() => window.__away.pending), true, 'the run was waiting when the figure left');
  await page.waitForTimeout(400);
  await page.evaluate(() => {
    const { el, parent, next } = window.__away;
    parent.insertBefore(el, next);
  });
  const g = await gradientsNow(page);
  assert.deepEqual(g.shown, g.direct);
  assert.deepEqual(problems, []);
  await context.close();
});

test('a Worker script that is not found leaves the gradients to the main thread, with the same numbers', async () => {
  const { page, context, problems } = await depthPage('layers=24&width=32', { worker: { status: 404, body: '' } });
  const r = await gradientsNow(page);
  assert.equal(r.offThread, false);
  assert.deepEqual(r.shown, r.direct);
  assert.deepEqual(problems.filter((p) => !/kernel-worker\.js|Failed to load resource/.test(p)), []);
  await context.close();
});

test(`a Worker that loads and never answers is given up after ${REQUEST_LIMIT_MS} ms, and the main thread computes the gradients`, async () => {
  // (taken before the page opens, so before the request is sent: taken
  // after the first frame, it followed the request by however long the
  // test took to see that frame)
  const start = Date.now();
  const { page, context, problems } = await depthPage('layers=24&width=32', { worker: { status: 200, body: '// answers nothing\n' } });
  const r = await gradientsNow(page, REQUEST_LIMIT_MS + 20000);
  assert.ok(Date.now() - start >= REQUEST_LIMIT_MS, 'not before the limit');
  assert.equal(r.offThread, false);
  assert.deepEqual(r.shown, r.direct);
  assert.deepEqual(problems, []);
  await context.close();
});
