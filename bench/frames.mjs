// bench/frames.mjs — frame times of the figures in headless Chromium: for
// each figure, 50 inputs of its most expensive slider (the one that makes it
// recompute the most) at the default sizes and at the largest,
// each followed by its repaint; reports the median and p95 of the work a
// repaint does (kernel calls + canvas drawing, timed inside the page). The
// figures come from the registry, in the page's order; a figure without a
// case here is named under the table as not timed.
import { launch, open, serve, startFigure } from '../tests/browser/harness.mjs';
import { FIGURES } from '../web/figures/registry.js';

const CASES = {
  heatmap: { slider: 'base', values: [3.9, 4.1], sizes: { default: {}, largest: { dModel: 1024, seqLen: 2048 } } },
  waveform: { slider: 'i', values: [3, 9], sizes: { default: {}, largest: { dModel: 1024, base: 100000 } } },
  'ln-simulator': { slider: 'mu', values: [2.5, -1.5], sizes: { default: {}, largest: { features: 4096 } } },
  properties: { slider: 'seqLen', values: [190, 200], sizes: { default: {}, largest: { dModel: 256, seqLen: 200 } } },
  compare: { slider: 'offset', values: [5, 40], sizes: { default: {}, largest: { seqLen: 128, dModel: 128, heads: 16 } } },
  'long-context': { slider: 'factor', values: [0.90309, 1.20412], sizes: { default: {}, largest: { dim: 256, trainLen: 16384 } } },
  precision: { slider: 'dModel', values: [496, 512], sizes: { default: {}, largest: { dModel: 1024, maxExp: 24 } } },
  depth: { slider: 'layers', values: [90, 96], sizes: { default: {}, largest: { layers: 96, width: 64 } } },
  'ln-steps': { slider: 'gamma', values: [0.5, 2], sizes: { default: {} } },
  'bn-vs-ln': { slider: 'batch', values: [7, 64], sizes: { default: {}, largest: { features: 16 } } },
  block: { slider: 'heads', values: [1, 4], sizes: { default: {}, largest: { dModel: 32 } } },
};

export async function benchFrames() {
  const server = await serve();
  const browser = await launch();
  const rows = [];
  try {
    const { page, context } = await open(browser, `${server.url}/web/`, { width: 1280, height: 900 });
    for (const f of FIGURES.filter((x) => CASES[x.name])) {
      const c = { tag: f.tag, ...CASES[f.name] };
      // scrolled to, its module loads and it draws its first frame; the
      // neighbours that scrolling brought near load and start too, so let
      // the page go idle before timing this one
      await startFigure(page, c.tag);
      await page.evaluate(() => new Promise((r) => setTimeout(() => requestIdleCallback(() => r(), { timeout: 2000 }), 300)));
      for (const [sizeName, props] of Object.entries(c.sizes)) {
        const times = await page.evaluate(async ({ tag, slider, values, props }) => {
          const el = document.querySelector(tag);
          Object.assign(el, props);
          const frame = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
          await frame();
          const input = el.shadowRoot.querySelector(`input[name=${slider}]`);
          const out = [];
          for (let k = 0; k < 50; k++) {
            input.value = String(values[k % 2]);
            input.dispatchEvent(new Event('input', { bubbles: true }));
            await frame();
            out.push(el.renderTimes[el.renderTimes.length - 1]);
          }
          return out;
        }, { tag: c.tag, slider: c.slider, values: c.values, props });
        times.sort((a, b) => a - b);
        const budget = sizeName === 'default' ? 16 : 33;
        const p95 = times[Math.ceil(0.95 * times.length) - 1];
        rows.push({ figure: c.tag, size: sizeName === 'default' ? 'default' : `largest (${Object.entries(props).map(([k, v]) => `${k} ${v}`).join(', ')})`, median: times[times.length >> 1], p95, budget });
      }
    }
    await context.close();
  } finally {
    await browser.close();
    await server.close();
  }
  const lines = ['| figure | sizes | median (ms) | p95 (ms) | budget (ms) | |', '|---|---|---:|---:|---:|---|'];
  for (const r of rows) lines.push(`| \`<${r.figure}>\` | ${r.size} | ${r.median.toFixed(2)} | ${r.p95.toFixed(2)} | ${r.budget} | ${r.p95 <= r.budget ? 'met' : 'MISSED'} |`);
  const untimed = FIGURES.filter((f) => !CASES[f.name]).map((f) => `\`<${f.tag}>\``);
  if (untimed.length) lines.push('', `Not timed (no slider case in bench/frames.mjs): ${untimed.join(', ')}.`);
  return { table: lines.join('\n'), allMet: rows.every((r) => r.p95 <= r.budget) };
}

if (import.meta.url === `file://${process.argv[1]}`) console.log((await benchFrames()).table);
