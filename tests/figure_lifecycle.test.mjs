// A figure's life on a page, at its edges (from a review that tried to
// break the element core): removed figures are collected, a figure's
// language comes through the shadow roots it sits in and from the
// document it is in, themes are followed in that document and after a
// <body> swap, and a figure off the page fires no events. In Chromium
// launched with --js-flags=--expose-gc, so that a test can collect.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { launch, openHtml, serve } from './browser/harness.mjs';

const env = { browser: null, server: null };
before(async () => {
  env.server = await serve();
  env.browser = await launch({ args: ['--js-flags=--expose-gc'] });
});
after(async () => {
  await env.browser?.close();
  await env.server?.close();
});

const MODULES = '/web/figures/index.js';
const page = (body, { lang = 'en', ...options } = {}) => openHtml(env.browser, env.server.url,
  `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><title>t</title></head><body>${body}<script type="module" src="${MODULES}"></script></body></html>`, options);
const defined = (p, tag) => p.waitForFunction((t) => customElements.get(t), tag);

test('figures taken off the page and dropped are collected, the first one made on the page too', async () => {
  const { page: p, context, problems } = await page('<div id="box"></div>');
  await defined(p, 'posnorm-ln-steps');
  const alive = await p.evaluate(async () => {
    const wait = (ms) => new Promise((r) => setTimeout(r, ms));
    // each made in a function of its own: a loop's variable kept the last
    // one in the async function's registers
    const one = async (tag) => {
      const el = document.createElement(tag);
      document.querySelector('#box').append(el);
      await el.ready;
      await wait(50);
      el.remove();
      return new WeakRef(el);
    };
    const refs = [];
    for (const tag of ['posnorm-ln-steps', 'posnorm-heatmap', 'posnorm-ln-steps', 'posnorm-order']) refs.push(await one(tag));
    // (the dark-mode watch and the language watch are made with the first figure)
    document.documentElement.setAttribute('data-theme', 'x');
    document.documentElement.lang = 'en-GB';
    await wait(300);
    // collected, not at once: work a figure started (a Worker's answer, a
    // background slice, a settle timer) may hold it until it ends, which on
    // a loaded machine took longer than 600 ms once (make test on 2 cores);
    // a figure kept for the page's life stays past the 5 s
    const kept = () => refs.map((r, k) => (r.deref() ? k : null)).filter((k) => k !== null);
    for (let i = 0; i < 100 && (i < 6 || kept().length > 0); i++) {
      gc();
      await wait(50);
    }
    return kept();
  });
  // before: the first figure was kept for the page's life by the shared
  // observers' callbacks (made in the scope of its stop functions)
  assert.deepEqual(alive, [], 'figures still alive');
  assert.deepEqual(problems, []);
  await context.close();
});

test('a figure inside another component\'s shadow root speaks the language of that component\'s host and its ancestors; an empty lang is passed over', async () => {
  const { page: p, context, problems } = await page('<section lang="en"><div id="host"></div></section><section lang="en"><posnorm-ln-steps id="empty" lang=""></posnorm-ln-steps></section><posnorm-ln-steps id="locale" lang="en_GB"></posnorm-ln-steps><posnorm-ln-steps id="enm" lang="enm"></posnorm-ln-steps>', { lang: 'ko' });
  await defined(p, 'posnorm-ln-steps');
  const r = await p.evaluate(async () => {
    const root = document.querySelector('#host').attachShadow({ mode: 'open' });
    const inner = document.createElement('posnorm-ln-steps');
    root.append(inner);
    const ids = ['empty', 'locale', 'enm'].map((id) => document.getElementById(id));
    // a figure starts when it comes near the viewport: each is brought there
    // before its ready is awaited (the first ones, once drawn, can push the
    // last below the viewport, and its ready never came)
    for (const el of [inner, ...ids]) {
      el.scrollIntoView();
      await el.ready;
    }
    return { inner: inner.language, css: inner.matches(':lang(en)'), ...Object.fromEntries(ids.map((el) => [el.id, el.language])) };
  });
  // the shadow root's host is in a section of lang="en" on a Korean page
  assert.equal(r.inner, 'en');
  assert.equal(r.css, true, 'as CSS :lang() sees it');
  // lang="" inside an English section of a Korean page: the section's (it took <html lang="ko">'s)
  assert.equal(r.empty, 'en');
  assert.equal(r.locale, 'en', 'a locale\'s en_GB is English');
  assert.equal(r.enm, 'ko', 'enm (Middle English) is not en');
  assert.deepEqual(problems, []);
  await context.close();
});

test('a figure moved into an iframe\'s document follows that document\'s <html lang> and theme; after a <body> swap the new body\'s theme is followed', async () => {
  const { page: p, context, problems } = await page('<posnorm-heatmap id="h" d-model="16" seq-len="8"></posnorm-heatmap><iframe id="f" srcdoc="<!doctype html><html lang=en><body><style>.dark{color-scheme:dark} .dark posnorm-heatmap{--pn-bg:#000}</style><div id=box></div></body></html>" style="width:900px;height:700px"></iframe>');
  await defined(p, 'posnorm-heatmap');
  await p.waitForFunction(() => document.querySelector('#h')?.renderTimes?.length > 0 && document.querySelector('#f').contentDocument?.readyState === 'complete');
  const r = await p.evaluate(async () => {
    const wait = (ms) => new Promise((res) => setTimeout(res, ms));
    const frames = () => new Promise((res) => requestAnimationFrame(() => requestAnimationFrame(res)));
    const el = document.querySelector('#h');
    const doc = document.querySelector('#f').contentDocument;
    doc.getElementById('box').append(el);
    await wait(200);
    await frames();
    const moved = { language: el.language, label: el.shadowRoot.querySelector('[data-key]')?.textContent };
    doc.documentElement.lang = 'ko';
    await wait(100);
    await frames();
    const korean = { language: el.language, label: el.shadowRoot.querySelector('[data-key]')?.textContent, aria: el.shadowRoot.querySelector('canvas').getAttribute('aria-label') };
    // the iframe's theme: a class on its <html>
    const before = el.renderTimes.length;
    doc.documentElement.className = 'dark';
    await wait(100);
    await frames();
    const themed = el.renderTimes.length - before;
    // an iframe without a lang: its own document's (none: Korean), not the English page's
    const bare = document.createElement('iframe');
    document.body.append(bare);
    const steps = document.createElement('posnorm-ln-steps');
    bare.contentDocument.body.append(steps);
    return { moved, korean, themed, bare: steps.language };
  });
  assert.equal(r.moved.language, 'en');
  assert.equal(r.korean.language, 'ko');
  assert.notEqual(r.korean.label, r.moved.label, 'the labels follow the iframe\'s <html lang>');
  assert.match(r.korean.aria, /[가-힣]/, 'and the canvas\'s description is Korean with them');
  assert.ok(r.themed >= 1, 'a theme class on the iframe\'s <html> repaints the figure');
  assert.equal(r.bare, 'ko', 'in an iframe without lang on an English page');
  // a <body> swap (Turbo, pjax) on the main page
  await p.evaluate(() => document.querySelector('#f').contentDocument.getElementById('box').firstElementChild.remove());
  const swapped = await p.evaluate(async () => {
    const wait = (ms) => new Promise((res) => setTimeout(res, ms));
    const frames = () => new Promise((res) => requestAnimationFrame(() => requestAnimationFrame(res)));
    const body = document.createElement('body');
    body.innerHTML = '<style>body.dark posnorm-heatmap{--pn-bg:#000}</style><posnorm-heatmap id="g" d-model="16" seq-len="8"></posnorm-heatmap>';
    document.body = body;
    const el = document.querySelector('#g');
    await el.ready;
    await frames();
    const before = el.renderTimes.length;
    document.body.classList.add('dark');
    await wait(100);
    await frames();
    return el.renderTimes.length - before;
  });
  assert.ok(swapped >= 1, 'a theme class on the new <body> repaints the figure');
  assert.deepEqual(problems, []);
  await context.close();
});

test('a figure off the page fires no event: posnorm-cursor of a removed heatmap, posnorm-error of a figure removed before it could say it cannot run', async () => {
  const { page: p, context, problems } = await page('<posnorm-heatmap id="h" d-model="32" seq-len="30"></posnorm-heatmap>');
  await defined(p, 'posnorm-heatmap');
  await p.waitForFunction(() => document.querySelector('#h')?.renderTimes?.length > 0);
  const r = await p.evaluate(async () => {
    const wait = (ms) => new Promise((res) => setTimeout(res, ms));
    const el = document.querySelector('#h');
    const events = [];
    for (const type of ['posnorm-cursor', 'posnorm-change', 'posnorm-error']) el.addEventListener(type, (e) => events.push([type, el.isConnected]));
    el.moveCursor(20, 10);
    const onPage = events.length;
    el.remove();
    el.seqLen = 5;
    el.moveCursor(1, 1);
    const loose = document.createElement('posnorm-heatmap');
    let looseEvents = 0;
    loose.addEventListener('posnorm-cursor', () => looseEvents++);
    loose.moveCursor(3, 3);
    await wait(100);
    const cursor = el.cursor;
    document.body.append(el);
    await el.ready;
    el.moveCursor(2, 2);
    return { onPage, events, cursor, looseEvents };
  });
  assert.equal(r.onPage, 1, 'on the page: an event');
  assert.deepEqual(r.events, [['posnorm-cursor', true], ['posnorm-cursor', true]], 'off the page: none (the state changed all the same)');
  assert.deepEqual(r.cursor, { pos: 1, dim: 1 });
  assert.equal(r.looseEvents, 0);
  assert.deepEqual(problems, []);
  await context.close();
  // no WebAssembly: the figure is removed before its failure is told
  const failing = await page('<div id="box"></div>', { init: () => { delete globalThis.WebAssembly; } });
  await defined(failing.page, 'posnorm-heatmap');
  const f = await failing.page.evaluate(async () => {
    const el = document.createElement('posnorm-heatmap');
    let errors = 0;
    el.addEventListener('posnorm-error', () => errors++);
    document.querySelector('#box').append(el);
    el.remove();
    const outcome = await el.ready.then(() => 'resolved', (e) => `rejected: ${e.constructor.name}`);
    // on the page, the same failure is told
    const shown = document.createElement('posnorm-heatmap');
    let told = 0;
    shown.addEventListener('posnorm-error', () => told++);
    document.querySelector('#box').append(shown);
    await shown.ready.catch(() => {});
    return { errors, outcome, told };
  });
  assert.equal(f.outcome.startsWith('rejected'), true, f.outcome);
  assert.equal(f.errors, 0, 'no posnorm-error from the removed figure');
  assert.equal(f.told, 1, 'one from the figure on the page');
  await failing.context.close();
});

test('a heatmap taken off the page by a listener of the event its forced render fires: toCsv() says its buffers need the figure on the page (no error from drawImage), and it draws again once back', async () => {
  const { page: p, context, problems } = await page('<posnorm-heatmap id="h" d-model="32" seq-len="30"></posnorm-heatmap>');
  await defined(p, 'posnorm-heatmap');
  await p.waitForFunction(() => document.querySelector('#h')?.renderTimes?.length > 0);
  const r = await p.evaluate(async () => {
    const h = document.querySelector('#h');
    const parent = h.parentNode;
    h.moveCursor(25, 20);
    const remove = () => h.remove();
    h.addEventListener('posnorm-cursor', remove);
    h.seqLen = 5;
    h.dModel = 8;
    let error = null;
    try {
      h.toCsv();
    } catch (e) {
      error = `${e.constructor.name}: ${e.message}`;
    }
    h.removeEventListener('posnorm-cursor', remove);
    parent.append(h);
    await new Promise((res) => requestAnimationFrame(() => requestAnimationFrame(res)));
    const csv = h.toCsv().trim().split('\n');
    return { error, rows: csv.length, cols: csv[0].split(',').length, cursor: h.cursor };
  });
  // (before: "TypeError: Failed to execute 'drawImage' …" from the render)
  assert.match(r.error ?? '', /^Error: posnorm-heatmap: wasm buffers exist only while the figure is on the page and started/, r.error);
  assert.deepEqual([r.rows, r.cols], [6, 9], 'a header and 5 positions × 8 dimensions');
  assert.deepEqual(r.cursor, { pos: 4, dim: 7 });
  assert.deepEqual(problems, []);
  await context.close();
});

test('embedCode() for many states of a figure keeps nothing of them once the figure is dropped: the JS heap comes back (40 rope-config links of 47 KB)', async () => {
  const { page: p, context, problems } = await page('<div id="box"></div>');
  await defined(p, 'posnorm-rope-config');
  const cdp = await context.newCDPSession(p);
  const heap = async () => {
    await p.evaluate(async () => { for (let i = 0; i < 4; i++) { gc(); await new Promise((r) => setTimeout(r, 30)); } });
    await cdp.send('HeapProfiler.collectGarbage');
    return (await cdp.send('Runtime.getHeapUsage')).usedSize;
  };
  // a baseline with the figure on the page, its Embed code asked for once
  await p.evaluate(async () => {
    const el = document.createElement('posnorm-rope-config');
    document.querySelector('#box').append(el);
    await el.ready;
    el.embedCode({ base: 'https://example.org/posnorm/' });
  });
  const before = await heap();
  // 40 configs read from links, the Embed code of each; then the figure goes
  const n = await p.evaluate(async () => {
    const { packConfig } = await import('/web/figures/rope-config.js');
    const el = document.querySelector('posnorm-rope-config');
    let total = 0;
    for (let k = 0; k < 40; k++) {
      const config = { head_dim: 128, rope_theta: 10000 + k, notes: Array.from({ length: 4000 }, (_, i) => Math.sin(i * 7.1 + k)) };
      const link = await packConfig(JSON.stringify(config));
      total += link.length;
      el.preset = 'custom';
      el.config = link;
      await new Promise((r) => setTimeout(r, 30));
      el.embedCode({ base: 'https://example.org/posnorm/' });
    }
    el.preset = null;
    el.config = null;
    await new Promise((r) => setTimeout(r, 30));
    el.remove();
    return total;
  });
  const after = await heap();
  // the still picture's size is cached per state (core/still.js, a module Map that is never
  // emptied), under a key that holds the whole config: the 40 links stayed for the page's life
  assert.ok(after - before < n / 4, `the heap grew by ${Math.round((after - before) / 1024)} KB over 40 states whose links total ${Math.round(n / 1024)} KB, with the figure gone`);
  assert.deepEqual(problems, []);
  await context.close();
});
