// harness.mjs — headless Chromium (Debian's /usr/bin/chromium) driven by
// playwright-core, and the demo server on a free port.
import { chromium } from 'playwright-core';
import { startServer } from '../../tools/serve.mjs';

export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

export async function launch({ args = [] } = {}) {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
      '--disable-sync', '--no-first-run', '--disable-quic', ...args],
  });
}

/**
 * Starts the demo server (or, with options, a static server over another
 * folder) on an ephemeral port; returns { url, close }.
 */
export async function serve(options) {
  const server = await startServer(0, options);
  const { port } = server.address();
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((r) => server.close(r)) };
}

/**
 * Opens `path` in a new page; collects console errors, page errors and
 * failed requests into `problems`. `setup(context)`, when given, runs before
 * the page opens (init scripts, routes).
 */
export async function open(browser, url, { width = 1280, height = 900, colorScheme = 'light', reducedMotion = 'no-preference', hasTouch = false, deviceScaleFactor = 1, setup } = {}) {
  const context = await browser.newContext({ viewport: { width, height }, colorScheme, reducedMotion, hasTouch, deviceScaleFactor });
  await setup?.(context);
  const page = await context.newPage();
  const problems = [];
  page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') problems.push(`console ${m.type()}: ${m.text()}`); });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('requestfailed', (r) => problems.push(`request failed: ${r.url()} ${r.failure()?.errorText}`));
  page.on('response', (r) => { if (r.status() >= 400) problems.push(`HTTP ${r.status()}: ${r.url()}`); });
  await page.goto(url);
  return { page, context, problems };
}

/**
 * Registers before/after hooks that start the demo server and Chromium once
 * per test file; the returned object holds them once started.
 */
export function useBrowser(before, after) {
  const env = { browser: null, server: null };
  before(async () => {
    env.server = await serve();
    env.browser = await launch();
  });
  after(async () => {
    await env.browser?.close();
    await env.server?.close();
  });
  return env;
}

/**
 * A digest of a figure's canvas `index`: a hash of its pixels and how many
 * are painted. It reads a copy, so the figure's own canvas is never read back.
 */
export function pixels(page, tag, index = 0) {
  return page.evaluate(([t, i]) => {
    const c = document.querySelector(t).shadowRoot.querySelectorAll('canvas')[i];
    const copy = document.createElement('canvas');
    copy.width = c.width;
    copy.height = c.height;
    const cc = copy.getContext('2d', { willReadFrequently: true });
    cc.drawImage(c, 0, 0);
    const d = cc.getImageData(0, 0, c.width, c.height).data;
    let hash = 0, painted = 0;
    for (let k = 0; k < d.length; k += 4) {
      if (d[k + 3] !== 0) painted++;
      hash = (Math.imul(hash, 31) + d[k] + 7 * d[k + 1] + 13 * d[k + 2] + 17 * d[k + 3]) | 0;
    }
    return { hash, painted, total: d.length / 4 };
  }, [tag, index]);
}

/**
 * Opens a page of `html` served from `base` (so that relative module URLs
 * such as /web/figures/heatmap.js resolve against the demo server), in a
 * fresh window with no figure defined yet.
 */
export async function openHtml(browser, base, html, options = {}) {
  const url = `${base}/web/__test-${Math.random().toString(36).slice(2)}.html`;
  const context = await browser.newContext({ viewport: { width: options.width ?? 1280, height: options.height ?? 900 }, colorScheme: options.colorScheme ?? 'light', javaScriptEnabled: options.javaScriptEnabled ?? true });
  const page = await context.newPage();
  const problems = [];
  page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') problems.push(`console ${m.type()}: ${m.text()}`); });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  await page.route(url, (route) => route.fulfill({ body: html, contentType: 'text/html; charset=utf-8', headers: options.headers ?? {} }));
  if (options.init) await page.addInitScript(options.init);
  if (options.setup) await options.setup(page);
  await page.goto(url);
  return { page, context, problems };
}

/**
 * Scrolls `selector` into view until it has drawn its first frame. Figures
 * start when they come near the viewport, and figures above that draw while
 * the page scrolls change their height (content-visibility reserves an
 * estimate), so one scroll may leave the target out of reach: scroll again.
 */
export async function startFigure(page, selector, timeout = 15000) {
  const until = Date.now() + timeout;
  for (;;) {
    await page.locator(selector).first().scrollIntoViewIfNeeded();
    try {
      await page.waitForFunction((s) => document.querySelector(s)?.renderTimes?.length > 0, selector, { timeout: 1000 });
      return;
    } catch (e) {
      if (Date.now() > until) throw e;
    }
  }
}
