// The kernel Worker of web/figures/core/off-thread.js, in Chromium, through
// <posnorm-depth>'s gradients: every state's gradients are residualStack's
// own (called on the page's instance, on the main thread) after changes of
// width, stack and seed that change the weights the Worker keeps; a figure
// taken off the page while its run waits gets its gradients when it comes
// back; a Worker script that fails to load, or loads and never answers,
// leaves the work to the main thread with the same results.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { useBrowser } from './browser/harness.mjs';
import { REQUEST_LIMIT_MS } from '../web/figures/core/off-thread.js';

const env = useBrowser(before, after);

/** figure.html with depth at `query`; `worker`: a route for kernel-worker.js ({ status, body }) or undefined. */
async function depthPage(query, worker) {
  const context = await env.browser.newContext({ viewport: { width: 900, height: 900 } });
  if (worker) await context.route('**/kernel-worker.js', (route) => route.fulfill({ status: worker.status, contentType: 'text/javascript', body: worker.body }));
  const page = await context.newPage();
  const problems = [];
  page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') problems.push(`console ${m.type()}: ${m.text()}`); });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('response', (r) => { if (r.status() >= 400) problems.push(`HTTP ${r.status()}: ${r.url()}`); });
  await page.goto(`${env.server.url}/web/figure.html?fig=depth&lang=en&${query}`);
  await page.waitForFunction(() => document.querySelector('posnorm-depth')?.renderTimes?.length > 0, null, { timeout: 20000 });
  return { page, context, problems };
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
  const states = [{}, { width: 64 }, { width: 32 }, { width: 64 }, { stack: 'decoder' }, { stack: 'encoder' }, { seed: 5 }, { seed: 1 }, { stack: 'decoder', width: 16 }];
  for (const change of states) {
    await page.evaluate((c) => Object.assign(document.querySelector('posnorm-depth'), c), change);
    const r = await gradientsNow(page);
    assert.equal(r.offThread, true, `${JSON.stringify(r.state)}: computed in the Worker`);
    assert.deepEqual(r.shown, r.direct, JSON.stringify(r.state));
  }
  assert.deepEqual(problems, []);
  await context.close();
});

test('depth taken off the page while its gradients wait gets them when it comes back', async () => {
  const { page, context, problems } = await depthPage('layers=48&width=64');
  // the first run waits 150 ms for its values to settle: the figure leaves before it is sent
  await page.evaluate(() => {
    const el = document.querySelector('posnorm-depth');
    window.__away = { el, parent: el.parentNode, next: el.nextSibling };
    el.remove();
  });
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
  const { page, context, problems } = await depthPage('layers=24&width=32', { status: 404, body: '' });
  const r = await gradientsNow(page);
  assert.equal(r.offThread, false);
  assert.deepEqual(r.shown, r.direct);
  assert.deepEqual(problems.filter((p) => !/404|Failed to load resource/.test(p)), []);
  await context.close();
});

test(`a Worker that loads and never answers is given up after ${REQUEST_LIMIT_MS} ms, and the main thread computes the gradients`, async () => {
  const { page, context, problems } = await depthPage('layers=24&width=32', { status: 200, body: '// answers nothing\n' });
  const start = Date.now();
  const r = await gradientsNow(page, REQUEST_LIMIT_MS + 20000);
  assert.ok(Date.now() - start >= REQUEST_LIMIT_MS - 1000, 'not before the limit');
  assert.equal(r.offThread, false);
  assert.deepEqual(r.shown, r.direct);
  assert.deepEqual(problems, []);
  await context.close();
});
