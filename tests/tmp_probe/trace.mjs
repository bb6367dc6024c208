import { serve, launch } from '../browser/harness.mjs';
const fig = process.argv[2], tag = `posnorm-${fig}`, prop = process.argv[3];
const server = await serve(); const browser = await launch();
const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
await page.goto(`${server.url}/web/figure.html?fig=${fig}&lang=en`);
await page.waitForFunction((t) => document.querySelector(t)?.renderTimes?.length > 0, tag, { timeout: 30000 });
await page.waitForTimeout(500);
await browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'blink', 'cc'] });
await page.evaluate(async ({ tag, prop }) => {
  const el = document.querySelector(tag); const input = el.shadowRoot.querySelector(`form [name="${prop}"]`);
  const min = Number(input.min), max = Number(input.max);
  for (let k = 0; k < 40; k++) { input.value = String(min + (max - min) * k / 39); input.dispatchEvent(new Event('input', { bubbles: true })); await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0))); }
}, { tag, prop });
const ev = JSON.parse((await browser.stopTracing()).toString()).traceEvents;
const threads = new Map(ev.filter((e) => e.name === 'thread_name').map((e) => [`${e.pid}:${e.tid}`, e.args.name]));
const agg = new Map();
for (const e of ev) if (e.ph === 'X' && e.dur && threads.get(`${e.pid}:${e.tid}`) === 'CrRendererMain') agg.set(e.name, (agg.get(e.name) || 0) + e.dur);
for (const k of ['RunTask', 'FunctionCall', 'FireAnimationFrame', 'Commit', 'LayerTreeHost::DoUpdateLayers', 'Layout', 'UpdateLayoutTree', 'Paint', 'PrePaint', 'HitTest', 'ParseHTML', 'MinorGC', 'MajorGC', 'V8.GC_SCAVENGER']) console.log(k.padEnd(34), ((agg.get(k) || 0) / 1000 / 40).toFixed(2), 'ms/input');
await browser.close(); await server.close();
