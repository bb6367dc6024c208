// bench/raster.mjs — where a repaint's time goes: the figure's own render()
// at an unchanged state (cached kernel results, so mostly plot layout and
// canvas calls recorded) against the canvas raster those calls leave for
// the frame. Canvas 2D records its calls and rasterises them when the frame
// is produced; with the GPU off (the frame bench launches Chromium with
// --disable-gpu; a browser without a usable GPU does the same) that raster
// runs on the main thread, inside the frame's commit, where the frame bench
// sees it but render() does not. getImageData(0, 0, 1, 1) makes the raster
// happen at once, so it can be timed on its own. Per figure, alone on
// figure.html at 1280×900, its defaults, median of 15 repaints.
import { launchUnthrottled } from './frames.mjs';
import { serve } from '../tests/browser/harness.mjs';
import { FIGURES } from '../web/figures/registry.js';

/** Rows { figure, canvas, render, raster } (ms, medians). */
export async function measureRaster({ repeats = 15 } = {}) {
  const server = await serve();
  const browser = await launchUnthrottled();
  const rows = [];
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    for (const f of FIGURES) {
      await page.goto(`${server.url}/web/figure.html?fig=${f.name}&lang=en`);
      await page.waitForFunction((t) => document.querySelector(t)?.renderTimes?.length > 0, f.tag, { timeout: 30000 });
      await page.waitForTimeout(300);
      rows.push({ figure: f.name, ...await page.evaluate(({ tag, repeats }) => {
        const el = document.querySelector(tag);
        const canvases = [...el.shadowRoot.querySelectorAll('canvas')];
        const render = [], raster = [];
        for (let k = 0; k < repeats; k++) {
          const t0 = performance.now();
          el.render();
          const t1 = performance.now();
          for (const c of canvases) c.getContext('2d').getImageData(0, 0, 1, 1);
          raster.push(performance.now() - t1);
          render.push(t1 - t0);
        }
        const median = (a) => a.sort((x, y) => x - y)[a.length >> 1];
        return { canvas: canvases.map((c) => `${c.width}×${c.height}`).join(', '), render: median(render), raster: median(raster) };
      }, { tag: f.tag, repeats }) });
    }
  } finally {
    await browser.close();
    await server.close();
  }
  return rows;
}

/** The Markdown table of measureRaster's rows. */
export function rasterTable(rows) {
  const lines = ['| figure | canvas (px) | render() (ms) | canvas raster (ms) |', '|---|---|---:|---:|'];
  for (const r of rows) lines.push(`| ${r.figure} | ${r.canvas} | ${r.render.toFixed(1)} | ${r.raster.toFixed(1)} |`);
  return lines.join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(rasterTable(await measureRaster()));
