// bench/frames.mjs's drag() in Chromium, against work planted on the page
// (so every expected number is known): a task that holds an input back
// counts in that input's latency, which runs from the moment the input was
// due, and a long task in the last input's frame is reported.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { open, useBrowser } from './browser/harness.mjs';
import { drag, settle } from '../bench/frames.mjs';

const env = useBrowser(before, after);
const TAG = 'posnorm-heatmap';

async function heatmap() {
  const { page, context } = await open(env.browser, `${env.server.url}/web/figure.html?fig=heatmap&lang=en`);
  await page.waitForFunction((t) => document.querySelector(t)?.renderTimes?.length > 0, TAG, { timeout: 20000 });
  await settle(page);
  return { page, context };
}

/** In the page: on the `at`-th input (from 1) of the d_model slider, `plant(busy)` schedules the busy loop. */
function plantOnInput(page, at, ms, how) {
  return page.evaluate(({ t, at, ms, how }) => {
    const input = document.querySelector(t).shadowRoot.querySelector('form [name="dModel"]');
    const busy = () => { const end = performance.now() + ms; while (performance.now() < end); };
    let n = 0;
    input.addEventListener('input', () => {
      if (++n !== at) return;
      // after the input's frame is painted and before the next input is due (4 ms after that paint)
      if (how === 'after-paint') requestAnimationFrame(() => setTimeout(busy, 2));
      else requestAnimationFrame(busy); // in the input's own frame
    });
  }, { t: TAG, at, ms, how });
}

test('a task between a paint and the next input\'s due time counts in that input\'s latency', async () => {
  const { page, context } = await heatmap();
  try {
    await plantOnInput(page, 10, 30, 'after-paint');
    const r = await drag(page, TAG, 'dModel', 16);
    assert.equal(r.latencies.length, 16);
    // the 30 ms task starts about 2 ms after input 10's frame; input 11 was due 4 ms after that paint and waits for it
    assert.ok(r.latencies[10] >= 25, `input 11 waited for the planted task: ${r.latencies[10].toFixed(1)} ms (all: ${r.latencies.map((l) => l.toFixed(1)).join(', ')})`);
  } finally {
    await context.close();
  }
});

test('a long task in the last input\'s frame is reported', async () => {
  const { page, context } = await heatmap();
  try {
    await plantOnInput(page, 12, 70, 'in-frame');
    const r = await drag(page, TAG, 'dModel', 12);
    assert.ok(r.latencies[11] >= 70, `the last input's frame held the task: ${r.latencies[11].toFixed(1)} ms`);
    assert.ok(r.longTasks.some((d) => d >= 70), `long tasks: ${JSON.stringify(r.longTasks)}`);
  } finally {
    await context.close();
  }
});
