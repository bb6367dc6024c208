// tools/make-posters.mjs — `make posters`: a picture of every figure in its
// default state (plot and readouts, no controls), in Korean and English,
// taken in headless Chromium from web/figure.html, into web/posters/NAME.LANG.png;
// then refreshes the width, height and alt of every
// <img slot="poster" src="…posters/NAME.LANG.png"> in web/*.html, and writes
// web/posters/sizes.json: the width of figure.html's page (the pictures'
// width and figure.css's padding: the width of the iframe in the oEmbed
// JSON that tools/build-oembed.mjs writes), and the height its content has
// there, controls included (that iframe's height; the pictures' own sizes
// it reads from the PNG files).
// POSTERS_ONLY=NAME[,NAME…] retakes only those figures (sizes.json keeps the
// others' entries).
import { readFile, readdir, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { launch, serve } from '../tests/browser/harness.mjs';
import { FIGURES } from '../web/figures/registry.js';

const WIDTH = 640;
/**
 * The page's width: figure.css pads its body by 8 px a side, so the
 * figures are WIDTH wide in it. The oEmbed iframe is this wide (it was
 * WIDTH once, where long-context, 16 px narrower, took its narrow layout:
 * 653 px of content in a frame of 617).
 */
const FRAME_WIDTH = WIDTH + 16;
const web = fileURLToPath(new URL('../web/', import.meta.url));

const server = await serve();
const browser = await launch();
const made = {};
try {
  const context = await browser.newContext({ viewport: { width: FRAME_WIDTH, height: 900 }, colorScheme: 'light', deviceScaleFactor: 1 });
  const page = await context.newPage();
  const only = process.env.POSTERS_ONLY ? process.env.POSTERS_ONLY.split(',') : null;
  for (const { name, tag } of FIGURES.filter((f) => !only || only.includes(f.name))) {
    for (const lang of ['ko', 'en']) {
      await page.goto(`${server.url}/web/figure.html?fig=${name}&lang=${lang}`);
      await page.waitForFunction((t) => document.querySelector(t)?.renderTimes?.length > 0, tag);
      // and what the figure computes after its first frame (depth's
      // gradients, the PE error lines): a readout still pending shows a
      // visible text ending in "…" (i18n: loading, depthGradPending,
      // peErrorPending, rcUnpacking).
      const settled = await page.waitForFunction((t) => {
        const root = document.querySelector(t).shadowRoot;
        const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
        for (let n = walker.nextNode(); n; n = walker.nextNode()) {
          if (n.data.trim().endsWith('…') && n.parentElement?.checkVisibility()) return false;
        }
        return true;
      }, tag, { timeout: 30000 }).then(() => true, () => false);
      // a result drawn on the canvas repaints the figure when it comes: no
      // repaint for 1 s, then; depth's gradients (drawn on the canvas,
      // "computing the gradients…" until then, from its kernel Worker,
      // which may come later than that) are waited for by name
      const quiet = await page.evaluate(async (t) => {
        const el = document.querySelector(t);
        const waiting = () => el.result !== undefined && el.result !== null && 'gradNorms' in el.result && el.result.gradNorms === null;
        let n = el.renderTimes.length, since = performance.now();
        const until = since + 30000;
        while (performance.now() < until) {
          await new Promise((r) => setTimeout(r, 100));
          if (el.renderTimes.length !== n || waiting()) [n, since] = [el.renderTimes.length, performance.now()];
          else if (performance.now() - since >= 1000) return true;
        }
        return false;
      }, tag);
      if (!settled || !quiet) console.warn(`${name}.${lang}: still ${settled ? 'repainting' : 'pending'} after 30 s; taken as it is`);
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      // (headless Chromium hides scroll bars: the page is FRAME_WIDTH wide
      // however tall its content)
      const frameHeight = await page.evaluate(() => Math.ceil(document.body.getBoundingClientRect().height));
      await page.addStyleTag({ content: `${tag}::part(controls), ${tag}::part(toolbar), ${tag}::part(hint) { display: none !important; }` });
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      const el = page.locator(tag);
      const file = `${web}posters/${name}.${lang}.png`;
      await el.screenshot({ path: file });
      // the <img> gets the PNG's own size (its IHDR), not the element's box
      // rounded: a box of 480.5 px was shot 481 px tall and written 480
      const png = await readFile(file);
      const width = png.readUInt32BE(16), height = png.readUInt32BE(20);
      const alt = await page.evaluate((t) => document.querySelector(t).describe(), tag);
      made[`${name}.${lang}`] = { width, height, frameHeight, alt };
      console.log(`web/posters/${name}.${lang}.png ${width}×${height}`);
    }
  }
  await context.close();
} finally {
  await browser.close();
  await server.close();
}

const kept = process.env.POSTERS_ONLY ? JSON.parse(await readFile(`${web}posters/sizes.json`, 'utf8')) : {};
const sizes = { ...kept, ...Object.fromEntries(Object.entries(made).map(([key, { frameHeight }]) => [key, { frameWidth: FRAME_WIDTH, frameHeight }])) };
await writeFile(`${web}posters/sizes.json`, `${JSON.stringify(sizes, null, 2)}\n`);
console.log('web/posters/sizes.json');

const escape = (s) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
for (const file of (await readdir(web)).filter((f) => f.endsWith('.html'))) {
  const path = `${web}${file}`;
  const html = await readFile(path, 'utf8');
  const next = html.replace(/<img slot="poster" src="([^"]*posters\/([\w-]+\.(?:ko|en))\.png)"[^>]*>/g, (tag, src, key) => {
    const m = made[key];
    return m ? `<img slot="poster" src="${src}" width="${m.width}" height="${m.height}" loading="lazy" alt="${escape(m.alt)}">` : tag;
  });
  if (next !== html) {
    await writeFile(path, next);
    console.log(`refreshed the posters in web/${file}`);
  }
}
