// Accessibility: axe-core in Chromium on index.html (as loaded, before any
// figure started, and after every figure has started), embed.html and
// figure.html for each figure, at 1280 px light and 360 px dark, and with
// the Embed dialog open. No serious or critical violation may remain.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { after, before, test } from 'node:test';
import { open, useBrowser, startFigure } from './browser/harness.mjs';
import { FIGURES } from '../web/figures/registry.js';

const env = useBrowser(before, after);
const AXE = await readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

async function audit(page) {
  await page.addScriptTag({ content: AXE });
  const violations = await page.evaluate(async () => (await window.axe.run(document, { resultTypes: ['violations'] })).violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}) ×${v.nodes.length}: ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`));
  return violations;
}

const startAll = async (page, tags) => {
  for (const tag of tags) {
    await startFigure(page, tag);
  }
};

for (const [width, colorScheme] of [[1280, 'light'], [360, 'dark']]) {
  test(`axe-core: no serious or critical violation at ${width} px ${colorScheme}`, async () => {
    const opts = { width, colorScheme, height: 800 };
    // index.html as loaded: most figures have not started yet
    let { page, context } = await open(env.browser, `${env.server.url}/web/`, opts);
    await page.waitForFunction(() => customElements.get('posnorm-heatmap'));
    assert.deepEqual(await audit(page), [], 'index.html as loaded');
    await context.close();
    ({ page, context } = await open(env.browser, `${env.server.url}/web/?lang=en`, opts));
    await startAll(page, FIGURES.map((f) => f.tag));
    assert.deepEqual(await audit(page), [], 'index.html, every figure started');
    await context.close();
    // the Embed dialog open (in English and in Korean)
    for (const lang of ['en', 'ko']) {
      let problems;
      ({ page, context, problems } = await open(env.browser, `${env.server.url}/web/?lang=${lang}`, opts));
      await startFigure(page, 'posnorm-heatmap');
      await page.locator('posnorm-heatmap button[data-action=showEmbed]').click();
      // the dialog open with every snippet written (waiting for the first
      // one alone passed when filling the dialog threw after it: axe then
      // audited a closed dialog, and unlabelled snippets went unseen)
      await page.waitForFunction(() => {
        const root = document.querySelector('posnorm-heatmap').shadowRoot;
        const areas = [...root.querySelectorAll('dialog[open] textarea')];
        return areas.length > 0 && areas.every((a) => a.value.length > 0);
      }, null, { timeout: 10000 });
      assert.deepEqual(await audit(page), [], `index.html?lang=${lang}, the Embed dialog open`);
      assert.deepEqual(problems, [], `index.html?lang=${lang}, the Embed dialog open`);
      await context.close();
    }
    ({ page, context } = await open(env.browser, `${env.server.url}/web/embed.html`, opts));
    await startAll(page, ['posnorm-heatmap', 'posnorm-waveform']);
    assert.deepEqual(await audit(page), [], 'embed.html');
    await context.close();
    for (const { name, tag } of FIGURES) {
      ({ page, context } = await open(env.browser, `${env.server.url}/web/figure.html?fig=${name}`, opts));
      await startAll(page, [tag]);
      assert.deepEqual(await audit(page), [], `figure.html?fig=${name}`);
      await context.close();
    }
  });
}
