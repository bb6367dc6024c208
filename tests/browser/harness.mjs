// harness.mjs — headless Chromium (Debian's /usr/bin/chromium) driven by
// playwright-core, and the demo server on a free port.
import { chromium } from 'playwright-core';
import { startServer } from '../../tools/serve.mjs';

export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

export async function launch() {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
      '--disable-sync', '--no-first-run', '--disable-quic'],
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
 * failed requests into `problems`.
 */
export async function open(browser, url, { width = 1280, height = 900, colorScheme = 'light', reducedMotion = 'no-preference', hasTouch = false, deviceScaleFactor = 1 } = {}) {
  const context = await browser.newContext({ viewport: { width, height }, colorScheme, reducedMotion, hasTouch, deviceScaleFactor });
  const page = await context.newPage();
  const problems = [];
  page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') problems.push(`console ${m.type()}: ${m.text()}`); });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('requestfailed', (r) => problems.push(`request failed: ${r.url()} ${r.failure()?.errorText}`));
  page.on('response', (r) => { if (r.status() >= 400) problems.push(`HTTP ${r.status()}: ${r.url()}`); });
  await page.goto(url);
  return { page, context, problems };
}
