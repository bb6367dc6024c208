import { serve, launch } from '../browser/harness.mjs';
const fig = process.argv[2] || 'long-context', tag = `posnorm-${fig}`, prop = process.argv[3] || 'distance';
const server = await serve(); const browser = await launch();
const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
await page.goto(`${server.url}/web/figure.html?fig=${fig}&lang=en`);
await page.waitForFunction((t) => document.querySelector(t)?.renderTimes?.length > 0, tag, { timeout: 30000 });
await page.waitForTimeout(500);
const cdp = await page.context().newCDPSession(page);
await cdp.send('Profiler.enable'); await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
await cdp.send('Profiler.start');
await page.evaluate(async ({ tag, prop }) => {
  const el = document.querySelector(tag); const input = el.shadowRoot.querySelector(`form [name="${prop}"]`);
  const min = Number(input.min), max = Number(input.max);
  for (let k = 0; k < 40; k++) { input.value = String(min + (max - min) * k / 39); input.dispatchEvent(new Event('input', { bubbles: true })); await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0))); }
}, { tag, prop });
const { profile } = await cdp.send('Profiler.stop');
const self = new Map(); const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const dt = profile.timeDeltas;
profile.samples.forEach((id, i) => { const n = byId.get(id); const k = `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.split('/').pop()}:${n.callFrame.lineNumber}`; self.set(k, (self.get(k) || 0) + (dt[i] || 0)); });
for (const [k, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 22)) console.log((v / 1000 / 40).toFixed(2).padStart(7), 'ms/input', k);
await browser.close(); await server.close();
