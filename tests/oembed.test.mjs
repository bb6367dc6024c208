// oEmbed, for platforms that embed a pasted link: the page per figure and
// language that make site writes (web/fig/NAME.LANG.html) carries a
// discovery <link>, and the static JSON it points at (web/oembed/) is a
// valid oEmbed 1.0 "rich" response. Checked against the oEmbed 1.0
// specification's fields (oembed.com, sections 2.3.4 and 2.3.4.4), and end
// to end with an oEmbed consumer from npm (@extractus/oembed-extractor,
// which discovers a provider that is on no list from the page's <link>):
// page → discovery link → JSON → its iframe, rendered on another origin in
// Chromium, runs the figure in a sandbox.
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { extract } from '@extractus/oembed-extractor';
import { FIGURES } from '../web/figures/registry.js';
import { buildOembed } from '../tools/build-oembed.mjs';
import { launch, open, serve } from './browser/harness.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const built = join(root, 'build', 'site');
let work, site, other, browser;

before(async () => {
  // the built site (make site) on a server of its own, with web/fig/ and
  // web/oembed/ written anew for that server's address
  work = await mkdtemp(join(tmpdir(), 'posnorm-oembed-'));
  await mkdir(join(work, 'web'));
  for (const entry of await readdir(join(built, 'web'))) {
    if (entry !== 'fig' && entry !== 'oembed') await symlink(join(built, 'web', entry), join(work, 'web', entry));
  }
  await symlink(join(built, 'src'), join(work, 'src'));
  await symlink(join(built, 'build'), join(work, 'build'));
  site = await serve({ dir: work });
  await buildOembed(work, `${site.url}/`);
  await mkdir(join(work, 'posts'));
  other = await serve({ dir: join(work, 'posts'), allow: null, home: null });
  other.url = other.url.replace('127.0.0.1', 'localhost');
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await site?.close();
  await other?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

const LANGS = ['ko', 'en'];
/** What make posters measured: figure.html's page width and its content's height there. */
const SIZES = JSON.parse(await readFile(join(root, 'web/posters/sizes.json'), 'utf8'));
const pageUrl = (name, lang) => `${site.url}/web/fig/${name}.${lang}.html`;

test('every figure and language has a page with a discovery link and an oEmbed 1.0 "rich" JSON', async () => {
  let count = 0;
  for (const { name, tag } of FIGURES) {
    for (const lang of LANGS) {
      const html = await (await fetch(pageUrl(name, lang))).text();
      const links = [...html.matchAll(/<link rel="alternate" type="application\/json\+oembed" href="([^"]+)"/g)];
      assert.equal(links.length, 1, `${name}.${lang}: one discovery link`);
      const jsonUrl = links[0][1].replaceAll('&amp;', '&');
      assert.equal(jsonUrl, `${site.url}/web/oembed/${name}.${lang}.json`);
      assert.ok(html.indexOf(links[0][0]) < html.indexOf('</head>'), 'in the <head>');
      const response = await fetch(jsonUrl);
      assert.equal(response.status, 200);
      assert.match(response.headers.get('content-type'), /^application\/json/);
      const o = await response.json();
      const where = `${name}.${lang}`;
      // oEmbed 1.0, 2.3.4: type and version are required; 2.3.4.4: "rich" requires html, width and height
      assert.equal(o.type, 'rich', where);
      assert.equal(o.version, '1.0', where);
      for (const k of ['width', 'height']) assert.ok(Number.isInteger(o[k]) && o[k] > 0, `${where}: ${k} ${o[k]}`);
      // the size make posters measured the page at: the figure's layout
      // depends on its width (long-context's panels stack below 620 px),
      // so the iframe is as wide as the page was (it was the poster's
      // width, 16 px less: long-context stacked, 653 px in 617)
      assert.deepEqual([o.width, o.height], [SIZES[where].frameWidth, SIZES[where].frameHeight], `${where}: the measured frame`);
      assert.equal(typeof o.html, 'string');
      // the optional fields this provider gives: strings, and the three thumbnail fields together
      for (const k of ['title', 'provider_name', 'provider_url', 'thumbnail_url']) assert.equal(typeof o[k], 'string', `${where}: ${k}`);
      for (const k of ['thumbnail_width', 'thumbnail_height']) assert.ok(Number.isInteger(o[k]) && o[k] > 0, `${where}: ${k}`);
      const allowed = new Set(['type', 'version', 'title', 'author_name', 'author_url', 'provider_name', 'provider_url', 'cache_age', 'thumbnail_url', 'thumbnail_width', 'thumbnail_height', 'html', 'width', 'height']);
      assert.deepEqual(Object.keys(o).filter((k) => !allowed.has(k)), [], `${where}: only oEmbed 1.0 fields`);
      // html: one sandboxed iframe of figure.html for this figure and language, titled, of the JSON's size
      const iframe = o.html.match(/^<iframe src="([^"]+)" title="([^"]+)" width="(\d+)" height="(\d+)" style="[^"]*" loading="lazy" sandbox="allow-scripts"><\/iframe>$/);
      assert.ok(iframe, `${where}: ${o.html}`);
      const src = new URL(iframe[1].replaceAll('&amp;', '&'));
      assert.equal(`${src.origin}${src.pathname}`, `${site.url}/web/figure.html`);
      assert.deepEqual([src.searchParams.get('fig'), src.searchParams.get('lang')], [name, lang]);
      // the attribute is HTML-escaped (a title may hold ' or &); unescaped it is the JSON's title
      const unescaped = iframe[2].replace(/&(amp|lt|gt|quot|#39);/g, (_, e) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[e]);
      assert.equal(unescaped, o.title, where);
      assert.deepEqual([Number(iframe[3]), Number(iframe[4])], [o.width, o.height]);
      // the thumbnail is the poster, of the size the JSON says
      const thumb = await fetch(o.thumbnail_url);
      assert.equal(thumb.headers.get('content-type'), 'image/png');
      const png = Buffer.from(await thumb.arrayBuffer());
      assert.deepEqual([png.readUInt32BE(16), png.readUInt32BE(20)], [o.thumbnail_width, o.thumbnail_height], `${where}: thumbnail size`);
      assert.equal(o.thumbnail_url, `${site.url}/web/posters/${name}.${lang}.png`);
      assert.ok(tag);
      count++;
    }
  }
  assert.equal(count, 2 * FIGURES.length);
});

test('discovery end to end: an oEmbed consumer from npm finds the JSON from the page, and its iframe runs the figure on another origin', async () => {
  // every figure in both languages: their heights differ (rope-config's
  // English one overflowed a frame of the poster's width too)
  for (const { name, tag } of FIGURES) for (const lang of LANGS) {
    const url = pageUrl(name, lang);
    const found = await extract(url);
    assert.equal(found.method, 'auto-discovery', `${name}: found by discovery, on no provider list`);
    const expected = await (await fetch(`${site.url}/web/oembed/${name}.${lang}.json`)).json();
    assert.equal(found.html, expected.html);
    assert.equal(found.title, expected.title);
    // what a consumer does with it: the html in its own page
    const post = `post-${name}.html`;
    await writeFile(join(work, 'posts', post), `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>consumer</title><link rel="icon" href="data:,"></head><body>${found.html}</body></html>`);
    const { page, context, problems } = await open(browser, `${other.url}/${post}`);
    let frame = null;
    for (let k = 0; k < 100 && !frame; k++) {
      frame = page.frames().find((f) => f.url().includes('figure.html'));
      if (!frame) await page.waitForTimeout(100);
    }
    assert.ok(frame, `${name}: the iframe loads`);
    await frame.waitForFunction((t) => document.querySelector(t)?.renderTimes?.length > 0, tag, { timeout: 20000 });
    const inside = await frame.evaluate((t) => ({ origin: self.origin, lang: document.documentElement.lang, painted: document.querySelector(t).shadowRoot.querySelector('canvas').width > 0 }), tag);
    assert.deepEqual(inside, { origin: 'null', lang, painted: true }, name);
    // the content fits the iframe the JSON sizes (within 8 px, half a
    // line: the machine's fonts may differ from those it was measured with;
    // a figure that takes another layout in it is 20 px or more over),
    // once its height has held for a second (a readout that arrives later
    // adds lines: properties grows from 925 to 945 px)
    const content = await frame.evaluate(async () => {
      const height = () => Math.ceil(document.body.getBoundingClientRect().height);
      let h = height(), since = performance.now();
      for (const until = since + 15000; performance.now() < until && performance.now() - since < 1000;) {
        await new Promise((r) => setTimeout(r, 100));
        if (height() !== h) [h, since] = [height(), performance.now()];
      }
      return h;
    });
    const box = await page.evaluate(() => document.querySelector('iframe').getBoundingClientRect().height);
    assert.ok(content <= box + 8, `${name}.${lang}: ${content} px of content in an iframe of ${box}`);
    assert.deepEqual(problems, [], name);
    await context.close();
  }
});

test('a figure\'s page shows its figure, in its language, and takes a state from its query', async () => {
  const { page, context, problems } = await open(browser, `${pageUrl('heatmap', 'en')}?d-model=100&layout=concat`);
  await page.waitForFunction(() => document.querySelector('posnorm-heatmap')?.renderTimes?.length > 0);
  assert.deepEqual(await page.evaluate(() => [document.documentElement.lang, document.querySelector('posnorm-heatmap').dModel, document.querySelector('posnorm-heatmap').layout, document.title]), ['en', 100, 'concat', 'Sinusoidal positional encoding heatmap — posnorm']);
  assert.deepEqual(problems, []);
  await context.close();
  // an empty or upper-case lang= keeps the page English (it made it Korean)
  for (const query of ['?lang=', '?lang=EN']) {
    const en = await open(browser, `${pageUrl('heatmap', 'en')}${query}`);
    await en.page.waitForFunction(() => document.querySelector('posnorm-heatmap')?.renderTimes?.length > 0);
    assert.deepEqual(await en.page.evaluate(() => [document.documentElement.lang, document.querySelector('posnorm-heatmap').language]), ['en', 'en'], query);
    assert.deepEqual(en.problems, [], query);
    await en.context.close();
  }
  const ko = await open(browser, pageUrl('block', 'ko'));
  await ko.page.waitForFunction(() => document.querySelector('posnorm-block')?.renderTimes?.length > 0);
  assert.equal(await ko.page.evaluate(() => document.querySelector('posnorm-block').shadowRoot.querySelector('[data-action=showEmbed]').textContent), '퍼가기');
  assert.deepEqual(ko.problems, []);
  await ko.context.close();
});
