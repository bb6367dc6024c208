// The Embed snippets pasted into a blank page on another origin. The
// package (npm pack, unpacked) is hosted by a plain static server that
// sends Access-Control-Allow-Origin (module scripts and the wasm fetch from
// another origin are CORS requests); the blank page comes from a second
// server. For every figure, set to a state that is not its default:
//   - the element snippet shows the same state: the same values and
//     attributes, the same pixels on every canvas at the same width, and
//     its poster is not downloaded;
//   - the iframe snippet renders in a sandboxed iframe (an opaque origin)
//     in that state and language, and its script fits the iframe to the
//     figure's height (two snippets in one post: each to its own);
//   - the picture snippets (Markdown and HTML) link to the same URL, which
//     opens the live figure in that state.
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { FIGURES } from '../web/figures/registry.js';
import { launch, open, openHtml, serve } from './browser/harness.mjs';
import { installPacked, packTarball } from './packaging.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
let work, host, blank, browser;

before(async () => {
  work = await mkdtemp(join(tmpdir(), 'posnorm-origin-'));
  await installPacked(work, packTarball(root, work));
  host = await serve({ dir: join(work, 'node_modules', 'posnorm'), allow: null, home: null, headers: { 'access-control-allow-origin': '*' } });
  // the second origin: another host name and port, serving the posts written below (from
  // files, not intercepted, so that Chromium sees them come from this machine as well)
  await mkdir(join(work, 'posts'));
  blank = await serve({ dir: join(work, 'posts'), allow: null, home: null });
  blank.url = blank.url.replace('127.0.0.1', 'localhost');
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await host?.close();
  await blank?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

const started = (p, sel) => p.waitForFunction((s) => document.querySelector(s)?.renderTimes?.length > 0, sel, { timeout: 20000 });

/** A value for control `c` that is not its default (the figure clamps and rounds it). */
function otherValue(c) {
  if (c.kind === 'choice') return c.choices.find((v) => v !== c.def);
  if (c.hidden) return c.def + 1;
  if (typeof c.max === 'number' && c.max !== c.def) return c.def + (c.max - c.def) * 0.25;
  if (typeof c.min === 'number' && c.min !== c.def) return c.def - (c.def - c.min) * 0.25;
  return c.def + 1;
}

/**
 * Hashes of every canvas of the figure `sel`, once the work it does after
 * its frames has finished — the PE error line (`peErrors` null while
 * pending) and depth's gradients (`result.gradNorms`; in slices on the main
 * thread where the page cannot start the Worker, as on this second origin,
 * so they can take longer than two readings) — and two readings 150 ms
 * apart agree.
 */
async function settledPixels(page, sel) {
  await page.waitForFunction((s) => {
    const e = document.querySelector(s);
    return e.peErrors !== null && (e.localName !== 'posnorm-depth' || Boolean(e.result?.gradNorms));
  }, sel, { timeout: 60000 });
  let last = null;
  for (let k = 0; k < 60; k++) {
    const now = await page.evaluate((s) => [...document.querySelector(s).shadowRoot.querySelectorAll('canvas')].map((c) => {
      const copy = new OffscreenCanvas(c.width, c.height);
      const ctx = copy.getContext('2d');
      ctx.drawImage(c, 0, 0);
      const d = ctx.getImageData(0, 0, c.width, c.height).data;
      let hash = 0, painted = 0;
      for (let i = 0; i < d.length; i += 4) {
        if (d[i + 3]) painted++;
        hash = (Math.imul(hash, 31) + d[i] + 7 * d[i + 1] + 13 * d[i + 2] + 17 * d[i + 3]) | 0;
      }
      return `${c.width}x${c.height}:${hash}:${painted}`;
    }), sel);
    if (last && JSON.stringify(now) === JSON.stringify(last)) return now;
    last = now;
    await page.waitForTimeout(150);
  }
  return last;
}

let posts = 0;
/** Opens a blank page with `body` on the second origin. */
async function post(body) {
  const name = `post-${++posts}.html`;
  await writeFile(join(work, 'posts', name), page(body));
  return open(browser, `${blank.url}/${name}`);
}

const page = (body) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>post</title><link rel="icon" href="data:,"></head><body style="margin:0">${body}</body></html>`;

test('the snippets of every figure reproduce its state on another origin: same values and pixels, a sandboxed iframe that fits, picture links that open it', async () => {
  const iframes = [];
  assert.notEqual(new URL(host.url).origin, new URL(blank.url).origin);
  for (const f of FIGURES) {
    const { [f.className]: cls } = await f.load();
    const state = Object.fromEntries(cls.controls.map((c) => [c.prop, otherValue(c)]));
    // the figure on the package's host, 640 px wide, in a state of its own
    const src = await openHtml(browser, host.url, page(`<div style="width:640px"><${f.tag} id="src" lang="en"></${f.tag}></div><script type="module" src="/web/figures/${f.module}"></script>`));
    await started(src.page, '#src');
    // (the render of this state, before settledPixels: until it comes, the
    // defaults' gradients and error line, already computed, pass its wait)
    const drawn = await src.page.evaluate((s) => {
      const el = document.querySelector('#src');
      const n = el.renderTimes.length;
      Object.assign(el, s);
      return n;
    }, state);
    await src.page.waitForFunction((n) => document.querySelector('#src').renderTimes.length > n, drawn, { timeout: 20000 });
    await src.page.waitForFunction((s) => Object.keys(s).every((k) => document.querySelector('#src').getAttribute(document.querySelector('#src').constructor.controlByProp.get(k).attr) !== null), state);
    const values = await src.page.evaluate(() => document.querySelector('#src').values);
    const changed = cls.controls.filter((c) => values[c.prop] !== c.def).length;
    assert.ok(changed >= Math.min(2, cls.controls.length), `${f.name}: ${changed} controls away from their defaults`);
    const code = await src.page.evaluate(() => document.querySelector('#src').embedCode());
    assert.ok(code.element.includes(`src="${host.url}/web/figures/${f.name}.js"`), `${f.name}: the host is where the module came from`);
    const want = await settledPixels(src.page, '#src');
    assert.deepEqual(src.problems, [], f.name);
    await src.context.close();

    // the element snippet on the other origin
    const el = await post(`<div style="width:640px">${code.element}</div>`);
    await started(el.page, f.tag);
    const got = await el.page.evaluate((t) => {
      const e = document.querySelector(t);
      return { values: e.values, attrs: Object.fromEntries([...e.attributes].map((a) => [a.name, a.value])), origin: location.origin };
    }, f.tag);
    assert.equal(got.origin, new URL(blank.url).origin);
    assert.deepEqual(got.values, values, `${f.name}: the same values`);
    assert.deepEqual(got.attrs, { ...Object.fromEntries(cls.controls.map((c) => [c.attr, String(values[c.prop])])), lang: 'en' }, `${f.name}: the same attributes`);
    assert.deepEqual(await settledPixels(el.page, f.tag), want, `${f.name}: the same pixels at the same width`);
    const posters = await el.page.evaluate(() => performance.getEntriesByType('resource').map((e) => e.name).filter((n) => /\.png$/.test(n)));
    assert.deepEqual(posters, [], `${f.name}: the poster is not downloaded where the figure runs`);
    assert.deepEqual(el.problems, [], f.name);
    await el.context.close();

    // the iframe snippet: sandboxed, in the state, fitted to the figure's height
    const fr = await post(`<div style="width:640px">${code.iframe}</div>`);
    const frame = async () => {
      for (let k = 0; k < 100; k++) {
        const found = fr.page.frames().find((x) => x.url().includes('figure.html'));
        if (found) return found;
        await fr.page.waitForTimeout(100);
      }
      throw new Error('no frame');
    };
    const inner = await frame();
    await inner.waitForFunction((t) => document.querySelector(t)?.renderTimes?.length > 0, f.tag, { timeout: 20000 });
    const innerState = await inner.evaluate((t) => ({ origin: self.origin, values: document.querySelector(t).values, language: document.querySelector(t).language }), f.tag);
    assert.equal(innerState.origin, 'null', `${f.name}: the iframe is sandboxed (an opaque origin)`);
    assert.deepEqual(innerState.values, values, `${f.name}: the iframe shows the state`);
    // in the source's language (figure.html's own is Korean)
    assert.equal(innerState.language, 'en', `${f.name}: the iframe speaks the figure's language`);
    let fitted = false;
    for (let k = 0; k < 50 && !fitted; k++) {
      const content = await inner.evaluate(() => Math.ceil(document.body.getBoundingClientRect().height));
      const height = await fr.page.evaluate(() => document.querySelector('iframe').getBoundingClientRect().height);
      fitted = Math.abs(height - content) < 1;
      if (!fitted) await fr.page.waitForTimeout(100);
    }
    assert.ok(fitted, `${f.name}: the iframe's height is fitted to the figure's`);
    assert.deepEqual(fr.problems, [], f.name);
    await fr.context.close();

    // the picture snippets link to the live figure in the state
    const href = code.html.match(/^<a href="([^"]+)"><img /)[1].replaceAll('&amp;', '&');
    const mdLink = code.markdown.match(/\]\(([^()\s]+)\)$/)[1];
    assert.equal(mdLink, href, `${f.name}: Markdown and HTML link to the same place`);
    const live = await open(browser, href);
    await started(live.page, f.tag);
    assert.deepEqual(await live.page.evaluate((t) => document.querySelector(t).values, f.tag), values, `${f.name}: the link opens the figure in its state`);
    assert.equal(await live.page.evaluate((t) => document.querySelector(t).language, f.tag), 'en', `${f.name}: the link opens the figure in its language`);
    assert.deepEqual(live.problems, [], f.name);
    await live.context.close();
    iframes.push({ name: f.name, tag: f.tag, code: code.iframe });
  }

  // two iframe snippets in one post, each with its script: each frame takes its own figure's height
  const two = iframes.slice(0, 2);
  const both = await post(two.map((x) => `<div style="width:640px">${x.code}</div>`).join('\n'));
  let heights = null;
  for (let k = 0; k < 100; k++) {
    const frames = both.page.frames().filter((x) => x.url().includes('figure.html'));
    const framed = await both.page.evaluate(() => [...document.querySelectorAll('iframe')].map((e) => e.getBoundingClientRect().height));
    const content = frames.length === 2
      ? await Promise.all(two.map((x) => frames.find((fr) => fr.url().includes(`fig=${x.name}&`)).evaluate(() => Math.ceil(document.body.getBoundingClientRect().height))))
      : null;
    heights = { framed, content };
    if (content && framed.every((h, j) => Math.abs(h - content[j]) < 1)) break;
    await both.page.waitForTimeout(100);
  }
  assert.ok(heights.content && heights.framed.every((h, j) => Math.abs(h - heights.content[j]) < 1), `each iframe fits its own figure: ${JSON.stringify(heights)}`);
  assert.ok(Math.abs(heights.content[0] - heights.content[1]) > 50, `the two figures differ in height: ${JSON.stringify(heights)}`);
  assert.deepEqual(both.problems, []);
  await both.context.close();
});
