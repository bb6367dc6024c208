// The Hugo shortcode and the Jekyll include that the package ships
// (integrations/), built for real: a small Hugo site with Debian's hugo and a
// small Jekyll site with Debian's jekyll (tools/ensure-test-deps.sh installs
// both), each taking its template from the installed package and pointing
// at the package hosted on another origin. Each site is served and opened in
// Chromium: the figures start with the attributes written in the posts and
// respond to the keyboard; each page links the stylesheet once and each
// figure's module once; with JavaScript off, the posters show with their
// text; a hostile parameter comes out escaped.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { FIGURES } from '../web/figures/registry.js';
import { launch, open, openHtml, serve } from './browser/harness.mjs';
import { tagAttributes } from './helpers.mjs';
import { installPacked, packTarball } from './packaging.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
let work, host, browser;

before(async () => {
  work = await mkdtemp(join(tmpdir(), 'posnorm-gen-'));
  await installPacked(work, packTarball(root, work));
  host = await serve({ dir: join(work, 'node_modules', 'posnorm'), allow: null, home: null, headers: { 'access-control-allow-origin': '*' } });
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await host?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

function run(cmd, args, cwd) {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', timeout: 300000, env: { ...process.env, NO_COLOR: '1' } });
  return { code: r.status, out: `${r.stdout}\n${r.stderr}${r.error ? `\n${r.error.message}` : ''}`.slice(-4000) };
}

const HOSTILE = '"><script>window.__pwned=1</script>';
const LAYOUT = '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>post</title><link rel="icon" href="data:,"></head><body><main style="max-width:40rem;margin:auto">CONTENT</main></body></html>\n';

/** The two posts, written with `call(fig, params)` — a shortcode or an include. */
const posts = (call) => ({
  a: `Text before.\n\n${call('heatmap', { 'd-model': '48', 'seq-len': '24', lang: 'en', alt: 'A heatmap "of" <PE>', 'poster-width': '640', 'poster-height': '501' })}\n\nBetween.\n\n${call('heatmap', { 'd-model': '20', layout: 'concat', lang: 'en' })}\n\n${call('waveform', { i: '8', lang: 'en' })}\n\nAfter.\n`,
  // host without its trailing '/': the recipes add it
  // and two heatmaps whose packaged poster is the Korean one: lang="ko", and no lang (the recipes
  // cannot see the page's <html lang>: without lang="en" they take the article's language, Korean)
  b: `${call('waveform', { i: '3', 'd-model': '96', lang: 'en', 'data-x': HOSTILE, host: host.url })}\n\n${call('heatmap', { 'seq-len': '12', lang: 'ko' })}\n\n${call('heatmap', { 'seq-len': '14' })}\n`,
});

/** The text of an HTML attribute value as a browser reads it (the entities the recipes and embed.js write). */
function unescapeHtml(text) {
  const named = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
  return text.replace(/&(?:#(\d+)|#x([0-9a-f]+)|(amp|lt|gt|quot|apos));/gi, (_, dec, hex, name) => (dec ? String.fromCodePoint(Number(dec)) : hex ? String.fromCodePoint(parseInt(hex, 16)) : named[name.toLowerCase()]));
}

/** The attributes of each `<img slot="poster" …>` in `html`, by name, unescaped. */
function posterImgs(html) {
  return [...html.matchAll(/<img slot="poster"[^>]*>/g)]
    .map((m) => Object.fromEntries(Object.entries(tagAttributes(m[0])).map(([k, v]) => [k, unescapeHtml(v)])));
}

/** Opens each page of the built site in Chromium, with and without JavaScript. */
async function exercise(site, paths) {
  const server = await serve({ dir: site, allow: null, home: null });
  try {
    const html = {};
    for (const [name, path] of Object.entries(paths)) html[name] = await readFile(join(site, path), 'utf8');
    // the stylesheet once per page, each figure's module once per page
    const count = (text, re) => (text.match(re) ?? []).length;
    for (const [name, text] of Object.entries(html)) {
      assert.equal(count(text, /<link rel="stylesheet" href="[^"]*\/web\/posnorm\.css"/g), 1, `${name}: one stylesheet`);
      for (const fig of ['heatmap', 'waveform']) {
        const uses = count(text, new RegExp(`<posnorm-${fig}[\\s>]`, 'g'));
        assert.equal(count(text, new RegExp(`<script type="module" src="${host.url}/web/figures/${fig}\\.js"></script>`, 'g')), uses ? 1 : 0, `${name}: ${fig}.js once`);
      }
    }
    assert.ok(!html.b.includes('<script>window.__pwned'), 'the hostile parameter is escaped');
    // the posters: the one given with its size and text; the others the
    // packaged poster of the figure in the post's language, with the recipes' text
    const poster = (fig, lang = 'en') => `${host.url}/web/posters/${fig}.${lang}.png`;
    assert.deepEqual(posterImgs(html.a), [
      { slot: 'poster', src: poster('heatmap'), width: '640', height: '501', loading: 'lazy', alt: 'A heatmap "of" <PE>' },
      { slot: 'poster', src: poster('heatmap'), loading: 'lazy', alt: 'posnorm figure: heatmap' },
      { slot: 'poster', src: poster('waveform'), loading: 'lazy', alt: 'posnorm figure: waveform' },
    ]);
    assert.deepEqual(posterImgs(html.b), [
      { slot: 'poster', src: poster('waveform'), loading: 'lazy', alt: 'posnorm figure: waveform' },
      { slot: 'poster', src: poster('heatmap', 'ko'), loading: 'lazy', alt: 'posnorm figure: heatmap' },
      { slot: 'poster', src: poster('heatmap', 'ko'), loading: 'lazy', alt: 'posnorm figure: heatmap' },
    ]);

    // JavaScript on: the figures start with the posts' attributes and respond
    const { page, problems, context } = await open(browser, `${server.url}/${paths.a}`);
    const figures = page.locator('posnorm-heatmap, posnorm-waveform');
    assert.equal(await figures.count(), 3);
    for (let k = 0; k < 3; k++) {
      // a figure starts when it comes near the viewport
      await figures.nth(k).scrollIntoViewIfNeeded();
      await page.waitForFunction((el) => el.renderTimes?.length > 0, await figures.nth(k).elementHandle(), { timeout: 20000 });
    }
    const state = await page.evaluate(() => [...document.querySelectorAll('posnorm-heatmap, posnorm-waveform')].map((e) => [e.localName, e.values]));
    assert.deepEqual(state.map(([t, v]) => [t, v.dModel, v.seqLen ?? v.i, v.layout ?? null]), [
      ['posnorm-heatmap', 48, 24, 'interleaved'], ['posnorm-heatmap', 20, 30, 'concat'], ['posnorm-waveform', 64, 8, null]]);
    const slider = page.locator('posnorm-waveform input[name=pos]');
    await slider.focus();
    await page.keyboard.press('ArrowRight');
    await page.waitForFunction(() => document.querySelector('posnorm-waveform').pos === 11 && /pos = 11:/.test(document.querySelector('posnorm-waveform').shadowRoot.querySelector('.readout').textContent));
    assert.deepEqual(await page.evaluate(() => performance.getEntriesByType('resource').map((e) => e.name).filter((n) => /\/posters\//.test(n))), [], 'no poster downloaded where scripts run');
    assert.deepEqual(problems, []);
    await context.close();
    const b = await open(browser, `${server.url}/${paths.b}`);
    await b.page.waitForFunction(() => document.querySelector('posnorm-waveform')?.renderTimes?.length > 0, null, { timeout: 20000 });
    assert.deepEqual(await b.page.evaluate(() => [document.querySelector('posnorm-waveform').i, document.querySelector('posnorm-waveform').dModel, document.querySelector('posnorm-waveform').getAttribute('data-x'), window.__pwned]), [3, 96, HOSTILE, undefined]);
    assert.deepEqual(b.problems, []);
    await b.context.close();

    // JavaScript off: each figure's poster and its text
    const noJs = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 1000, height: 900 } });
    const p = await noJs.newPage();
    await p.goto(`${server.url}/${paths.a}`);
    const imgs = p.locator('img[slot=poster]');
    assert.equal(await imgs.count(), 3);
    for (let k = 0; k < 3; k++) {
      const img = imgs.nth(k);
      await img.scrollIntoViewIfNeeded();
      await p.waitForFunction((el) => el.complete && el.naturalWidth > 0, await img.elementHandle(), { timeout: 10000 });
      assert.ok((await img.boundingBox()).height > 100, `poster ${k} shows`);
    }
    await noJs.close();
  } finally {
    await server.close();
  }
}

/** A Hugo site at `dir` with the packed shortcode and one post `body`; returns hugo's run. */
async function buildHugoSite(work, dir, post, body, extraArgs = []) {
  await mkdir(join(dir, 'layouts', '_default'), { recursive: true });
  await mkdir(join(dir, 'layouts', 'shortcodes'), { recursive: true });
  await mkdir(join(dir, 'content', 'posts'), { recursive: true });
  await copyFile(join(work, 'node_modules/posnorm/integrations/hugo/layouts/shortcodes/posnorm.html'), join(dir, 'layouts/shortcodes/posnorm.html'));
  await writeFile(join(dir, 'config.toml'), 'baseURL = "/"\ntitle = "t"\ndisableKinds = ["taxonomy", "term", "RSS", "sitemap"]\n');
  for (const name of ['single', 'list']) await writeFile(join(dir, 'layouts/_default', `${name}.html`), LAYOUT.replace('CONTENT', '{{ .Content }}'));
  await writeFile(join(dir, `content/posts/${post}.md`), `---\ntitle: ${post}\n---\n${body}\n`);
  return run('hugo', ['--source', dir, '--destination', join(dir, 'public'), ...extraArgs], dir);
}

/** A Jekyll site at `dir` with the packed include and one page `name` (its front matter added); returns jekyll's run. */
async function buildJekyllSite(work, dir, name, body, extraArgs = []) {
  await mkdir(join(dir, '_layouts'), { recursive: true });
  await mkdir(join(dir, '_includes'), { recursive: true });
  await copyFile(join(work, 'node_modules/posnorm/integrations/jekyll/_includes/posnorm.html'), join(dir, '_includes/posnorm.html'));
  await writeFile(join(dir, '_config.yml'), 'title: t\nexclude: [node_modules]\n');
  await writeFile(join(dir, '_layouts/default.html'), LAYOUT.replace('CONTENT', '{{ content }}'));
  await writeFile(join(dir, name), `---\nlayout: default\ntitle: ${name.replace(/\.\w+$/, '')}\n---\n${body}\n`);
  return run('jekyll', ['build', '--source', dir, '--destination', join(dir, '_site'), ...extraArgs], dir);
}

const quoted = (v) => `"${v.replace(/["\\]/g, (ch) => `\\${ch}`)}"`;
const params = (fig, p) => [`fig="${fig}"`, ...Object.entries(p).map(([k, v]) => `${k}=${quoted(v)}`)].join(' ');

test('a Hugo site built with the shipped shortcode: figures run and respond; posters without JavaScript', async () => {
  const dir = join(work, 'hugo');
  await mkdir(join(dir, 'layouts', '_default'), { recursive: true });
  await mkdir(join(dir, 'layouts', 'shortcodes'), { recursive: true });
  await mkdir(join(dir, 'content', 'posts'), { recursive: true });
  await copyFile(join(work, 'node_modules/posnorm/integrations/hugo/layouts/shortcodes/posnorm.html'), join(dir, 'layouts/shortcodes/posnorm.html'));
  await writeFile(join(dir, 'config.toml'), `baseURL = "/"\ntitle = "t"\ndisableKinds = ["taxonomy", "term", "RSS", "sitemap"]\n[params.posnorm]\nbase = "${host.url}/"\n`);
  for (const name of ['single', 'list']) await writeFile(join(dir, 'layouts/_default', `${name}.html`), LAYOUT.replace('CONTENT', '{{ .Content }}'));
  for (const [name, body] of Object.entries(posts((fig, p) => `{{< posnorm ${params(fig, p)} >}}`))) {
    await writeFile(join(dir, 'content/posts', `${name}.md`), `---\ntitle: ${name}\n---\n${body}`);
  }
  const r = run('hugo', ['--source', dir, '--destination', join(dir, 'public'), '--quiet'], dir);
  assert.equal(r.code, 0, r.out);
  await exercise(join(dir, 'public'), { a: 'posts/a/index.html', b: 'posts/b/index.html' });
});

test('a Jekyll site built with the shipped include: figures run and respond; posters without JavaScript', async () => {
  const dir = join(work, 'jekyll');
  await mkdir(join(dir, '_layouts'), { recursive: true });
  await mkdir(join(dir, '_includes'), { recursive: true });
  await copyFile(join(work, 'node_modules/posnorm/integrations/jekyll/_includes/posnorm.html'), join(dir, '_includes/posnorm.html'));
  await writeFile(join(dir, '_config.yml'), `title: t\nposnorm:\n  base: "${host.url}/"\nexclude: [node_modules]\n`);
  await writeFile(join(dir, '_layouts/default.html'), LAYOUT.replace('CONTENT', '{{ content }}'));
  for (const [name, body] of Object.entries(posts((fig, p) => `{% include posnorm.html ${params(fig, p)} %}`))) {
    await writeFile(join(dir, `${name}.md`), `---\nlayout: default\ntitle: ${name}\n---\n${body}`);
  }
  const r = run('jekyll', ['build', '--source', dir, '--destination', join(dir, '_site'), '--quiet'], dir);
  assert.equal(r.code, 0, r.out);
  await exercise(join(dir, '_site'), { a: 'a.html', b: 'b.html' });
});

/** The parameter names a recipe keeps for itself (not attributes of the figure), read from the template. */
async function reservedNames() {
  const hugo = await readFile(join(root, 'integrations/hugo/layouts/shortcodes/posnorm.html'), 'utf8');
  const jekyll = await readFile(join(root, 'integrations/jekyll/_includes/posnorm.html'), 'utf8');
  return {
    hugo: [...hugo.match(/\$reserved := slice ((?:"[^"]+" ?)+)/)[1].matchAll(/"([^"]+)"/g)].map((m) => m[1]),
    jekyll: jekyll.match(/assign posnorm_reserved = "\|([^"]+)\|"/)[1].split('|'),
  };
}

test('no figure has an attribute that the shortcode or the include keeps for itself', async () => {
  const reserved = await reservedNames();
  assert.ok(reserved.hugo.includes('fig') && reserved.jekyll.includes('fig'), JSON.stringify(reserved));
  for (const f of FIGURES) {
    const { [f.className]: cls } = await f.load();
    for (const c of cls.controls) {
      assert.ok(!reserved.hugo.includes(c.attr), `${f.name}: its attribute ${c.attr} is a parameter of the Hugo shortcode`);
      assert.ok(!reserved.jekyll.includes(c.attr), `${f.name}: its attribute ${c.attr} is a parameter of the Jekyll include`);
    }
  }
});

test("the Embed dialog's Hugo and Jekyll lines, built: every attribute of figures that have a base or a width, the script from the host", async () => {
  // heatmap and precision have a `base` (the RoPE/PE base), depth a `width`: values away from the defaults
  const states = { 'posnorm-heatmap': { base: 500, dModel: 48 }, 'posnorm-precision': { base: 2000 }, 'posnorm-depth': { width: 16, layers: 12 } };
  const tags = Object.keys(states);
  const src = await openHtml(browser, host.url, `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>t</title></head><body>${tags.map((t) => `<div style="width:640px"><${t}></${t}></div>`).join('')}<script type="module" src="/web/figures/index.js"></script></body></html>`);
  const lines = {};
  const expected = {};
  const posters = {};
  for (const tag of tags) {
    await src.page.locator(tag).scrollIntoViewIfNeeded();
    await src.page.waitForFunction((t) => document.querySelector(t)?.renderTimes?.length > 0, tag, { timeout: 20000 });
    const got = await src.page.evaluate(([t, s]) => {
      const el = Object.assign(document.querySelector(t), s);
      const attrs = Object.fromEntries(el.constructor.controls.map((c) => [c.attr, String(el.values[c.prop])]));
      return { code: el.embedCode(), attrs: { ...attrs, lang: el.language } };
    }, [tag, states[tag]]);
    lines[tag] = got.code;
    expected[tag] = got.attrs;
    // the poster as the element snippet writes it: src, size and text (stillSize, describe())
    [posters[tag]] = posterImgs(got.code.element);
  }
  assert.deepEqual(src.problems, []);
  await src.context.close();
  assert.equal(expected['posnorm-heatmap'].base, '500');
  assert.equal(expected['posnorm-depth'].width, '16');

  const check = async (site, page, name) => {
    const html = await readFile(join(site, page), 'utf8');
    for (const tag of tags) {
      const fig = tag.replace('posnorm-', '');
      const open = html.match(new RegExp(`<${tag}((?:\\s+[a-z-]+="[^"]*")*)\\s*>`));
      assert.ok(open, `${name}: <${tag}> in ${html}`);
      const attrs = tagAttributes(open[1]);
      assert.deepEqual(attrs, expected[tag], `${name}: ${tag} has every attribute of the state`);
      assert.ok(html.includes(`<script type="module" src="${host.url}/web/figures/${fig}.js"></script>`), `${name}: ${fig}.js from the host`);
    }
    // each poster as the element snippet has it: its picture, width, height and text
    assert.deepEqual(posterImgs(html), tags.map((t) => posters[t]), `${name}: the posters`);
  };
  for (const t of tags) assert.ok(Number(posters[t].width) > 0 && Number(posters[t].height) > 0 && posters[t].alt.length > 40, JSON.stringify(posters[t]));

  const hugo = join(work, 'hugo-embed');
  let r = await buildHugoSite(work, hugo, 'e', tags.map((t) => lines[t].hugo).join('\n\n'), ['--quiet']);
  assert.equal(r.code, 0, r.out);
  await check(join(hugo, 'public'), 'posts/e/index.html', 'Hugo');

  const jekyll = join(work, 'jekyll-embed');
  r = await buildJekyllSite(work, jekyll, 'e.md', tags.map((t) => lines[t].jekyll).join('\n\n'), ['--quiet']);
  assert.equal(r.code, 0, r.out);
  await check(join(jekyll, '_site'), 'e.html', 'Jekyll');
});

test('a figure name that is not one (markup, spaces, capitals) is refused by both recipes, in an HTML page too', async () => {
  const bad = ['heatmap onfocus=window.__pwned=1 autofocus tabindex=0 x', 'heatmap"><script>window.__pwned=1</script>', 'Heatmap'];
  // Jekyll: a page in HTML (not Markdown, which would turn a broken tag into text): the include says so instead
  const jekyll = join(work, 'jekyll-fig');
  const r = await buildJekyllSite(work, jekyll, 'p.html', `${bad.map((f) => `{% include posnorm.html fig=${quoted(f)} %}`).join('\n')}\n{% include posnorm.html fig="ln-simulator" %}`, ['--quiet']);
  assert.equal(r.code, 0, r.out);
  const html = await readFile(join(jekyll, '_site/p.html'), 'utf8');
  const tags = [...html.matchAll(/<(posnorm-[^\s>]*)/g)].map((m) => m[1]);
  assert.deepEqual(tags, ['posnorm-ln-simulator'], html);
  assert.ok(!/onfocus|<script>window|Heatmap/.test(html.replace(/<p><strong>posnorm: [^\n]*<\/p>/g, '')), html);
  assert.equal((html.match(/<p><strong>posnorm: /g) ?? []).length, bad.length, html);
  // Hugo: the build stops with the shortcode's error
  for (const f of bad) {
    const hugo = join(work, `hugo-fig-${bad.indexOf(f)}`);
    const h = await buildHugoSite(work, hugo, 'p', `{{< posnorm fig=${quoted(f)} >}}`);
    assert.notEqual(h.code, 0, f);
    assert.match(h.out, /posnorm shortcode: fig must be a figure's name/, f);
  }
});
