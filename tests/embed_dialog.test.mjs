// The Embed action in Chromium: every figure has it; its dialog is a
// labelled modal that keeps the focus inside, closes on Esc and gives the
// focus back, fits a 360 px phone in dark mode; its Copy buttons copy the
// snippets of embedCode(); "Download picture" saves, under the name the
// snippets use, the figure's plots at 2× in the light theme — the same
// pixels as the figure itself draws at devicePixelRatio 2 in a light page;
// and hostile values in the page URL, the picture address or the host never
// reach a snippet unescaped.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, test } from 'node:test';
import { FIGURES } from '../web/figures/registry.js';
import { open, openHtml, startFigure, useBrowser } from './browser/harness.mjs';

const env = useBrowser(before, after);
const started = (p, sel) => p.waitForFunction((s) => document.querySelector(s)?.renderTimes?.length > 0, sel, { timeout: 15000 });
const inShadow = (p, tag, fn, arg) => p.evaluate(([t, f, a]) => new Function('root', 'el', 'arg', `return (${f})(root, el, arg)`)(document.querySelector(t).shadowRoot, document.querySelector(t), a), [tag, fn.toString(), arg]);

async function openDialog(page, tag) {
  await page.locator(`${tag} button[data-action=showEmbed]`).click();
  await page.waitForFunction((t) => document.querySelector(t).shadowRoot.querySelector('dialog')?.open, tag);
  await page.waitForFunction((t) => document.querySelector(t).shadowRoot.querySelector('dialog textarea').value.length > 0, tag);
}

test('every figure has the Embed button beside Copy link, PNG and CSV, labelled in its language', async () => {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>t</title></head><body>
    ${FIGURES.map((f) => `<${f.tag}></${f.tag}>`).join('\n')}
    <${FIGURES[0].tag} lang="ko" id="ko"></${FIGURES[0].tag}>
    <script type="module" src="/web/figures/index.js"></script></body></html>`;
  const { page, context, problems } = await openHtml(env.browser, env.server.url, html);
  await page.waitForFunction((n) => [...document.querySelectorAll('body > *')].filter((e) => e.shadowRoot).length === n, FIGURES.length + 1);
  for (const { tag } of FIGURES) {
    await page.waitForFunction((t) => /Embed/.test(document.querySelector(t).shadowRoot.querySelector('[data-action=showEmbed]')?.textContent ?? ''), tag);
    const actions = await inShadow(page, tag, (root) => [...root.querySelectorAll('.toolbar button')].map((b) => b.dataset.action));
    assert.deepEqual(actions, ['copyLink', 'downloadPng', 'downloadCsv', 'showEmbed'], tag);
  }
  assert.equal(await page.evaluate(() => document.querySelector('#ko').shadowRoot.querySelector('[data-action=showEmbed]').textContent), '퍼가기');
  assert.deepEqual(problems, []);
  await context.close();
});

test('the dialog: labelled, modal, focus kept inside both ways, Esc closes and gives the focus back; Korean strings', async () => {
  const { page, context, problems } = await open(env.browser, `${env.server.url}/web/?lang=en`);
  const tag = 'posnorm-heatmap';
  await startFigure(page, tag);
  // the dialog's code is not loaded before Embed is pressed
  assert.equal(await page.evaluate(() => performance.getEntriesByType('resource').some((e) => /embed-dialog/.test(e.name))), false);
  await page.locator(`${tag} button[data-action=showEmbed]`).focus();
  await page.keyboard.press('Enter');
  await page.waitForFunction((t) => document.querySelector(t).shadowRoot.querySelector('dialog')?.open, tag);
  const a11y = await inShadow(page, tag, (root) => {
    const d = root.querySelector('dialog');
    const label = root.getElementById(d.getAttribute('aria-labelledby'));
    return { modal: d.matches(':modal'), label: label?.textContent, heading: label?.localName, focusIn: d.contains(root.activeElement) };
  });
  assert.deepEqual(a11y, { modal: true, label: 'Embed this figure', heading: 'h2', focusIn: true });
  // the rest of the page is out of reach while it is open
  const covered = await page.evaluate(() => {
    const b = document.querySelector('button[data-lang=ko]').getBoundingClientRect();
    return document.elementFromPoint(b.left + b.width / 2, b.top + b.height / 2) !== document.querySelector('button[data-lang=ko]');
  });
  assert.ok(covered, 'the page under the dialog cannot be clicked');
  const stops = await inShadow(page, tag, (root) => root.querySelectorAll('dialog button, dialog textarea, dialog input').length);
  assert.ok(stops >= 14, `${stops} focusable controls`);
  for (const key of ['Tab', 'Shift+Tab']) {
    for (let k = 0; k < stops * 2 + 3; k++) {
      await page.keyboard.press(key);
      const inside = await inShadow(page, tag, (root) => root.querySelector('dialog').contains(root.activeElement));
      assert.ok(inside, `${key} ×${k + 1} keeps the focus in the dialog`);
    }
  }
  await page.keyboard.press('Escape');
  const closed = await inShadow(page, tag, (root) => [root.querySelector('dialog').open, root.activeElement?.dataset.action]);
  assert.deepEqual(closed, [false, 'showEmbed'], 'Esc closes it and the focus is back on Embed');
  // "Close" by keyboard too
  await page.keyboard.press('Enter');
  await page.waitForFunction((t) => document.querySelector(t).shadowRoot.querySelector('dialog').open, tag);
  await page.locator(`${tag} dialog button[data-key=embedClose]`).click();
  assert.equal(await inShadow(page, tag, (root) => root.querySelector('dialog').open), false);
  // Korean: every marked string of the dialog in Korean
  await page.locator('button[data-lang=ko]').click();
  await page.waitForFunction((t) => document.querySelector(t).getAttribute('lang') === 'ko', tag);
  await openDialog(page, tag);
  const ko = await inShadow(page, tag, (root) => [...root.querySelectorAll('dialog [data-key]')].map((e) => e.textContent));
  const table = (await import('../web/i18n/ko/embed-dialog.js')).default; // the dialog's own Korean labels
  assert.ok(ko.length >= 15 && ko.every((s) => Object.values(table).includes(s)), ko.join(' | '));
  assert.ok(ko.includes('이 그림 퍼가기'));
  assert.deepEqual(problems, []);
  await context.close();
});

test('at 360 px in dark mode the dialog fits the screen, scrolls inside, and is dark', async () => {
  const { page, context, problems } = await open(env.browser, `${env.server.url}/web/?lang=en`, { width: 360, height: 640, colorScheme: 'dark' });
  const tag = 'posnorm-order';
  await startFigure(page, tag);
  await openDialog(page, tag);
  const box = await inShadow(page, tag, (root) => {
    const d = root.querySelector('dialog');
    const r = d.getBoundingClientRect();
    const wide = [...d.querySelectorAll('*')].filter((e) => e.getBoundingClientRect().right > r.right + 0.5 && e.localName !== 'option');
    return { left: r.left, right: r.right, top: r.top, bottom: r.bottom, scrolls: d.scrollHeight > d.clientHeight, wide: wide.map((e) => e.localName), bg: getComputedStyle(d).backgroundColor, fg: getComputedStyle(d).color };
  });
  assert.ok(box.left >= 0 && box.right <= 360 && box.top >= 0 && box.bottom <= 640, JSON.stringify(box));
  assert.deepEqual(box.wide, [], 'nothing sticks out of the dialog');
  assert.ok(box.scrolls, 'the dialog scrolls inside itself');
  assert.equal(box.bg, 'rgb(22, 24, 29)', 'the dark --pn-bg');
  assert.equal(box.fg, 'rgb(230, 232, 236)', 'the dark --pn-fg');
  // the last control can be reached by keyboard and is scrolled into view
  await inShadow(page, tag, (root) => [...root.querySelectorAll('dialog button')].at(-1).focus());
  const last = await inShadow(page, tag, (root) => {
    const b = [...root.querySelectorAll('dialog button')].at(-1).getBoundingClientRect();
    return b.bottom <= 640 && b.top >= 0;
  });
  assert.ok(last);
  assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), 360, 'no horizontal scrolling');
  assert.deepEqual(problems, []);
  await context.close();
});

test('Copy copies each snippet; the dialog shows what embedCode() returns, and the picture address goes into every picture snippet', async () => {
  const { page, context, problems } = await open(env.browser, `${env.server.url}/web/?lang=en`);
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: env.server.url });
  const tag = 'posnorm-waveform';
  await startFigure(page, tag);
  await page.evaluate((t) => Object.assign(document.querySelector(t), { dModel: 96, i: 7, pos: 21 }), tag);
  await page.waitForFunction((t) => document.querySelector(t).getAttribute('i') === '7', tag);
  // the iframe snippet's height is the figure's when the dialog opens: wait
  // until the error readout, computed in the background, has landed (it
  // adds a line a few frames after the render, and the test compared the
  // height before it with the height after it in 2 runs of 5)
  await page.waitForFunction((t) => document.querySelector(t).peErrors?.sizes?.dModel === 96, tag);
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  await openDialog(page, tag);
  const code = await page.evaluate((t) => document.querySelector(t).embedCode(), tag);
  assert.deepEqual(Object.keys(code).sort(), ['element', 'html', 'hugo', 'iframe', 'jekyll', 'markdown']);
  for (const field of Object.keys(code)) {
    await page.locator(`${tag} dialog button[data-copy=${field}]`).click();
    await page.waitForFunction((t) => document.querySelector(t).shadowRoot.querySelector('dialog .status').textContent === 'Copied.', tag);
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), code[field], field);
    await inShadow(page, tag, (root) => { root.querySelector('dialog .status').textContent = ''; });
  }
  // the message shown follows the figure's language, as its other labels do
  await page.locator(`${tag} dialog button[data-copy=element]`).click();
  await page.waitForFunction((t) => document.querySelector(t).shadowRoot.querySelector('dialog .status').textContent === 'Copied.', tag);
  const relabelled = await page.evaluate((t) => {
    const el = document.querySelector(t);
    el.setAttribute('lang', 'ko');
    const ko = el.shadowRoot.querySelector('dialog .status').textContent;
    el.setAttribute('lang', 'en');
    return [ko, el.shadowRoot.querySelector('dialog .status').textContent];
  }, tag);
  assert.deepEqual(relabelled, ['복사했습니다.', 'Copied.']);
  const name = 'posnorm-waveform_i-7_pos-21_d-model-96_base-10000.en.png';
  for (const field of ['element', 'markdown', 'html', 'hugo', 'jekyll']) assert.ok(code[field].includes(name), `${field} names ${name}`);
  // the address of the uploaded picture
  await page.locator(`${tag} dialog input`).fill('https://cdn.example/u/abc (1).png');
  const shown = await inShadow(page, tag, (root) => Object.fromEntries([...root.querySelectorAll('dialog textarea')].map((a) => [a.id.split('-').at(-1), a.value])));
  assert.match(shown.markdown, /\]\(https:\/\/cdn\.example\/u\/abc%20%281%29\.png\)\]\(/);
  assert.match(shown.html, /<img src="https:\/\/cdn\.example\/u\/abc \(1\)\.png"/);
  assert.match(shown.element, /<img slot="poster" src="https:\/\/cdn\.example\/u\/abc \(1\)\.png"/);
  assert.ok(!shown.iframe.includes('cdn.example'), 'the iframe has no picture');
  assert.deepEqual(problems, []);
  await context.close();
});

/**
 * Compares the still picture (PNG bytes) with the canvases of figure `tag`
 * on `page`, drawn at devicePixelRatio 2: for each canvas, at its place in
 * the picture (from the top of the first canvas), how many pixels differ.
 * The picture is opaque on the light background; a canvas is transparent
 * where it draws nothing, so its pixels are laid over that background
 * first. Opaque pixels (the plots, the lines' cores, the empty margins)
 * must match; the anti-aliased edges of text come out of Skia a little
 * differently in a page at DPR 1 drawing at 2× than in a page at DPR 2
 * (about half of them differ; they are some 0.5 % of the picture), so they
 * are counted apart.
 */
const compareStill = (page, tag, png) => page.evaluate(async ([t, b64]) => {
  const blob = await (await fetch(`data:image/png;base64,${b64}`)).blob();
  const bitmap = await createImageBitmap(blob);
  const sc = new OffscreenCanvas(bitmap.width, bitmap.height);
  const sx = sc.getContext('2d');
  sx.drawImage(bitmap, 0, 0);
  const still = sx.getImageData(0, 0, bitmap.width, bitmap.height).data;
  const el = document.querySelector(t);
  const canvases = [...el.shadowRoot.querySelectorAll('canvas')];
  const top = Math.min(...canvases.map((c) => c.getBoundingClientRect().top));
  const left = el.getBoundingClientRect().left;
  const out = { opaque: 0, opaqueDiffer: 0, edge: 0, edgeDiffer: 0, corner: [...still.slice(0, 4)] };
  for (const c of canvases) {
    const r = c.getBoundingClientRect();
    const x0 = Math.round(2 * (r.left - left)), y0 = Math.round(2 * (r.top - top));
    const copy = new OffscreenCanvas(c.width, c.height);
    const cx = copy.getContext('2d');
    cx.drawImage(c, 0, 0);
    const d = cx.getImageData(0, 0, c.width, c.height).data;
    for (let y = 0; y < c.height; y++) {
      for (let x = 0; x < c.width; x++) {
        const a = 4 * (y * c.width + x), b = 4 * ((y0 + y) * bitmap.width + x0 + x);
        const alpha = d[a + 3] / 255;
        let differs = false;
        for (let k = 0; k < 3; k++) if (Math.abs(still[b + k] - (d[a + k] * alpha + 255 * (1 - alpha))) > 2) differs = true;
        if (d[a + 3] === 255 || d[a + 3] === 0) { out.opaque++; if (differs) out.opaqueDiffer++; } else { out.edge++; if (differs) out.edgeDiffer++; }
      }
    }
  }
  return out;
}, [tag, png.toString('base64')]);

test('"Download picture": the snippets\' file name, 2× the snippets\' size, light theme in a dark page at DPR 1 — the pixels the figure draws at DPR 2 in a light page', async () => {
  for (const [tag, state] of [['posnorm-heatmap', { dModel: 40, seqLen: 20, layout: 'concat' }], ['posnorm-ln-simulator', { features: 300, mu: -1.5, seed: 3 }]]) {
    const figure = FIGURES.find((f) => f.tag === tag);
    const { page, context, problems } = await open(env.browser, `${env.server.url}/web/?lang=en`, { colorScheme: 'dark', deviceScaleFactor: 1 });
    await startFigure(page, tag);
    await page.evaluate(([t, s]) => Object.assign(document.querySelector(t), s), [tag, state]);
    await page.waitForFunction(([t, s]) => Object.entries(s).every(([k, v]) => document.querySelector(t)[k] === v), [tag, state]);
    await openDialog(page, tag);
    const code = await page.evaluate((t) => document.querySelector(t).embedCode(), tag);
    const img = code.html.match(/<img src="([^"]+)" width="(\d+)" height="(\d+)"/);
    const [download] = await Promise.all([page.waitForEvent('download'), page.locator(`${tag} dialog button[data-action=downloadPicture]`).click()]);
    assert.equal(download.suggestedFilename(), img[1], 'the file name the snippets use');
    const png = await readFile(await download.path());
    assert.deepEqual([...png.subarray(0, 8)], [137, 80, 78, 71, 13, 10, 26, 10]);
    assert.deepEqual([png.readUInt32BE(16), png.readUInt32BE(20)], [2 * Number(img[2]), 2 * Number(img[3])], 'twice the snippets\' width and height');
    await page.waitForFunction((t) => /saved/.test(document.querySelector(t).shadowRoot.querySelector('dialog .status').textContent), tag);
    // the reference: the figure itself, alone in a light page 640 px wide at devicePixelRatio 2
    const query = new URLSearchParams({ fig: figure.name, lang: 'en' });
    const values = await page.evaluate((t) => document.querySelector(t).values, tag);
    const { [figure.className]: cls } = await figure.load();
    for (const c of cls.controls) query.set(c.attr, String(values[c.prop]));
    const ref = await open(env.browser, `${env.server.url}/web/figure.html?${query}`, { width: 656, colorScheme: 'light', deviceScaleFactor: 2 });
    await started(ref.page, tag);
    await ref.page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const cmp = await compareStill(ref.page, tag, png);
    assert.ok(cmp.opaque > 0.8 * png.readUInt32BE(16) * png.readUInt32BE(20) * 0.5, JSON.stringify(cmp));
    assert.ok(cmp.opaqueDiffer <= cmp.opaque * 1e-3, `${tag}: ${cmp.opaqueDiffer} of ${cmp.opaque} opaque pixels differ from the figure's own 2× light drawing`);
    const all = cmp.opaque + cmp.edge;
    assert.ok(cmp.opaqueDiffer + cmp.edgeDiffer <= all * 5e-3, `${tag}: ${cmp.opaqueDiffer + cmp.edgeDiffer} of ${all} pixels differ (${cmp.edgeDiffer} of them on text edges)`);
    assert.deepEqual(cmp.corner, [255, 255, 255, 255], 'a light background in a dark page');
    assert.deepEqual(ref.problems, []);
    await ref.context.close();
    assert.deepEqual(problems, []);
    await context.close();
  }
});

const HOSTILE = [
  '"><script>window.__pwned=1</script>',
  "'><img src=x onerror=window.__pwned=1>",
  '1e3"onmouseover="window.__pwned=1',
  'javascript:window.__pwned=1',
  '</textarea><svg onload=window.__pwned=1>',
  '](javascript:alert(1))',
  '{{< x >}}%}"\\',
];

/** Parses each snippet in the page and returns what it is made of. */
const anatomy = (page, code) => page.evaluate((c) => {
  const parse = (html) => new DOMParser().parseFromString(`<!doctype html><body>${html}`, 'text/html');
  const describe = (doc) => [...doc.querySelectorAll('body *, head *')].map((e) => ({ tag: e.localName, attrs: [...e.attributes].map((a) => [a.name, a.value]), text: e.localName === 'script' ? e.textContent : undefined }));
  return { element: describe(parse(c.element)), iframe: describe(parse(c.iframe)), html: describe(parse(c.html)) };
}, code);

test('hostile values in the page URL, the picture address and the host never reach a snippet unescaped', async () => {
  const tag = 'posnorm-heatmap';
  const params = new URLSearchParams({ lang: 'en' });
  for (const [k, attr] of [[0, 'd-model'], [1, 'seq-len'], [2, 'base'], [3, 'layout']]) params.set(`heatmap.${attr}`, HOSTILE[k]);
  params.set('fig', HOSTILE[4]);
  const { page, context, problems } = await open(env.browser, `${env.server.url}/web/?${params}#${encodeURIComponent(HOSTILE[0])}`);
  await startFigure(page, tag);
  await openDialog(page, tag);
  const attrsOf = (list, tagName) => list.find((e) => e.tag === tagName).attrs;
  const check = async (code, { picture = null } = {}) => {
    const a = await anatomy(page, code);
    assert.deepEqual(a.element.map((e) => e.tag), ['link', 'script', tag, 'img'], 'element: a link, a script, the figure and its picture, nothing else');
    assert.deepEqual(attrsOf(a.element, tag).map(([n]) => n), ['d-model', 'seq-len', 'base', 'layout', 'lang']);
    assert.deepEqual(attrsOf(a.element, tag).map(([, v]) => v), ['64', '30', '10000', 'interleaved', 'en'], 'the hostile URL values parse to the defaults');
    assert.deepEqual(attrsOf(a.element, 'img').map(([n]) => n), ['slot', 'src', 'width', 'height', 'loading', 'alt']);
    if (picture) assert.equal(attrsOf(a.element, 'img')[1][1], picture, 'the picture address comes back as written, as a value');
    assert.deepEqual(a.iframe.map((e) => e.tag), ['iframe', 'script']);
    assert.deepEqual(attrsOf(a.iframe, 'iframe').map(([n]) => n), ['data-posnorm', 'src', 'title', 'width', 'height', 'style', 'loading', 'sandbox']);
    assert.equal(attrsOf(a.iframe, 'iframe').find(([n]) => n === 'sandbox')[1], 'allow-scripts');
    assert.equal(new URL(attrsOf(a.iframe, 'iframe')[1][1]).searchParams.get('fig'), 'heatmap');
    assert.deepEqual(a.html.map((e) => e.tag), ['a', 'img']);
    assert.deepEqual(attrsOf(a.html, 'img').map(([n]) => n), ['src', 'width', 'height', 'alt']);
    for (const e of [...a.element, ...a.iframe, ...a.html]) for (const [n] of e.attrs) assert.ok(!n.startsWith('on'), `no ${n} attribute`);
    // Markdown: [![alt](picture)](link), with nothing unescaped that could end a part early; no bracket in
    // the addresses either (marked, which Hexo uses, ends the outer link's text at a ']' in the picture's address)
    const md = code.markdown.match(/^\[!\[((?:\\.|[^\\\]\n])*)\]\(([^\s()<>\\[\]]+)\)\]\(([^\s()<>\\[\]]+)\)$/);
    assert.ok(md, code.markdown);
    assert.equal(new URL(md[3]).searchParams.get('fig'), 'heatmap');
    // the alt comes back by CommonMark's backslash rule, and nothing is escaped that needs no escape
    // (marked keeps the backslashes of an image's alt: "\\(blue\\)")
    assert.equal(md[1].replace(/\\([!-/:-@[-`{-~])/g, '$1'), attrsOf(a.element, 'img').find(([n]) => n === 'alt')[1]);
    assert.ok(!/\\[()!#.]/.test(md[1]), md[1]);
    // Hugo and Jekyll: every parameter a quoted string whose quotes and backslashes are escaped
    for (const line of [code.hugo, code.jekyll]) {
      const body = line.replace(/^\{\{< posnorm |^\{% include posnorm\.html /, '').replace(/ >\}\}$| %\}$/, '');
      assert.match(body, /^(?:[a-z-]+="(?:\\.|[^"\\])*"(?: |$))+$/, line);
    }
  };
  const shown = await inShadow(page, tag, (root) => Object.fromEntries([...root.querySelectorAll('dialog textarea')].map((a) => [a.id.split('-').at(-1), a.value])));
  await check(shown);
  for (const hostile of HOSTILE) {
    await page.locator(`${tag} dialog input`).fill(hostile);
    await check(await inShadow(page, tag, (root) => Object.fromEntries([...root.querySelectorAll('dialog textarea')].map((a) => [a.id.split('-').at(-1), a.value]))), { picture: hostile });
  }
  // a host that is not an absolute http(s) URL is refused, naming the argument; one with markup in it is escaped
  for (const base of ['javascript:alert(1)//', 'data:text/html,<script>1</script>', '/relative/', '']) {
    const error = await page.evaluate(([t, b]) => { try { document.querySelector(t).embedCode({ base: b }); return null; } catch (e) { return `${e.name}: ${e.message}`; } }, [tag, base]);
    assert.match(error ?? '', /^TypeError: embedCode: base must be an absolute http: or https: URL/, base);
  }
  // the page URL's values never get that far (they parse to numbers and choices), so the escaping of the
  // attributes and the text alternative is tried directly: values and a text as if they held markup
  for (const hostile of HOSTILE) {
    const spoofed = await page.evaluate(([t, h]) => {
      const el = document.querySelector(t);
      const values = { ...el.values, layout: h };
      const describe = () => `${h} & more`;
      // the figure's own embedCode, on the figure seen through a proxy whose values and text say `h`
      const seen = new Proxy(el, {
        get: (o, k) => (k === 'values' ? values : k === 'describe' ? describe : (typeof o[k] === 'function' && k !== 'constructor' ? o[k].bind(o) : o[k])),
      });
      return el.constructor.prototype.embedCode.call(seen);
    }, [tag, hostile]);
    const a = await anatomy(page, spoofed);
    assert.deepEqual(a.element.map((e) => e.tag), ['link', 'script', tag, 'img'], hostile);
    assert.equal(attrsOf(a.element, tag).find(([n]) => n === 'layout')[1], hostile, 'the value comes back as written');
    assert.equal(attrsOf(a.element, 'img').find(([n]) => n === 'alt')[1], `${hostile} & more`);
    assert.deepEqual(a.html.map((e) => e.tag), ['a', 'img'], hostile);
    assert.equal(attrsOf(a.html, 'img').find(([n]) => n === 'alt')[1], `${hostile} & more`);
    assert.match(spoofed.markdown, /^\[!\[(?:\\.|[^\\\]\n])*\]\([^\s()<>\\[\]]+\)\]\([^\s()<>\\[\]]+\)$/, hostile);
    for (const line of [spoofed.hugo, spoofed.jekyll]) {
      const body = line.replace(/^\{\{< posnorm |^\{% include posnorm\.html /, '').replace(/ >\}\}$| %\}$/, '');
      assert.match(body, /^(?:[a-z-]+="(?:\\.|[^"\\])*"(?: |$))+$/, line);
    }
  }
  const odd = await page.evaluate((t) => document.querySelector(t).embedCode({ base: 'https://x.test/a"><script>window.__pwned=1</script>/' }), tag);
  await check(odd);
  assert.ok(!odd.element.includes('<script>window'), 'the markup in the host URL is escaped');
  assert.equal(await page.evaluate(() => window.__pwned), undefined);
  assert.deepEqual(problems, []);
  await context.close();
});

test('embedCode() and "Download picture" leave no copy on the page and no wasm memory behind', async () => {
  // one figure alone: the kernel instance is the page's, and another figure starting would allocate too
  const { page, context, problems } = await open(env.browser, `${env.server.url}/web/figure.html?fig=heatmap&lang=en`);
  const tag = 'posnorm-heatmap';
  await startFigure(page, tag);
  // the heap at rest: the figure also computes after its frames (its error line), so read until two readings agree.
  // The error line keeps its two buffers while the figure is on the page, replaced only by larger ones
  // (draw/pe-error.js), and so does the figure its own (core/buffers.js): they grow with the sizes
  // below, and are counted apart from the rest.
  const settled = () => page.evaluate(async (t) => {
    const wait = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r, 200))));
    const el = document.querySelector(t);
    const read = () => {
      const heap = el.pn.heapStats(), kept = el._errors._scratch.byteLength + [...el.buffers].reduce((n, b) => n + b.byteLength, 0);
      return { bytes: heap.bytes - kept, allocations: heap.allocations, kept };
    };
    let last = null;
    for (let k = 0; k < 30; k++) {
      await wait();
      const now = read();
      if (last && now.bytes === last.bytes && now.allocations === last.allocations && now.kept === last.kept) return now;
      last = now;
    }
    return last;
  }, tag);
  const before = await settled();
  // every buffer allocated from here on is held by the page, so that a copy's
  // leaked buffer is not freed behind the count's back when the copy is
  // collected (src/js/memory.js frees collected buffers)
  await page.evaluate((t) => {
    const pn = document.querySelector(t).pn, alloc = pn.alloc.bind(pn);
    window.__made = [];
    pn.alloc = (...a) => { const b = alloc(...a); window.__made.push(b); return b; };
  }, tag);
  const sizes = await page.evaluate(async (t) => {
    const el = document.querySelector(t);
    const out = [];
    for (let k = 0; k < 20; k++) {
      el.dModel = 16 + 24 * k;
      el.seqLen = 10 + 7 * k;
      // the error line runs at each size, so that its kept buffers grow (as in a reader's drag)
      await new Promise((r) => requestAnimationFrame(() => setTimeout(r)));
      for (let w = 0; w < 250 && el.peErrors == null; w++) await new Promise((r) => setTimeout(r, 20));
      out.push(el.embedCode().html.match(/height="(\d+)"/)[1]);
    }
    el.dModel = 64;
    el.seqLen = 30;
    return out;
  }, tag);
  assert.ok(sizes.every((h) => Number(h) > 100), sizes.join(', '));
  await openDialog(page, tag);
  for (let k = 0; k < 3; k++) {
    await Promise.all([page.waitForEvent('download'), page.locator(`${tag} dialog button[data-action=downloadPicture]`).click()]);
    await page.waitForFunction((t) => /saved/.test(document.querySelector(t).shadowRoot.querySelector('dialog .status').textContent), tag);
    await inShadow(page, tag, (root) => { root.querySelector('dialog .status').textContent = ''; });
  }
  const after = { ...(await settled()), copies: await page.evaluate((t) => document.querySelectorAll(t).length, tag) };
  assert.equal(after.copies, 1, 'no copy of the figure is left on the page');
  assert.deepEqual([after.bytes, after.allocations], [before.bytes, before.allocations], 'the copies freed everything they allocated');
  assert.ok(after.kept > before.kept, `the kept buffers grew with the sizes (${before.kept} → ${after.kept} bytes), so the count above had them to leave out`);
  // the figure's own: what the largest of the sizes above needed, no more
  const own = await page.evaluate((t) => [...document.querySelector(t).buffers].map((b) => [b.length, b.type]), tag);
  assert.deepEqual(own, [[472 * 143, 'f32'], [4 * 472 * 143, 'u8c']]);
  assert.deepEqual(problems, []);
  await context.close();
});

test('where the modules\' own URL is not http(s) (webpack writes a file: URL for import.meta.url), Embed says so instead of failing silently', async () => {
  const context = await env.browser.newContext({ viewport: { width: 800, height: 900 } });
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  // what webpack does to this module: import.meta.url becomes the file's path on the build machine
  await page.route('**/web/figures/core/embed.js', async (route) => {
    const body = (await (await route.fetch()).text()).replaceAll('import.meta.url', JSON.stringify('file:///home/dev/site/node_modules/posnorm/web/figures/core/embed.js'));
    await route.fulfill({ body, contentType: 'text/javascript' });
  });
  await page.goto(`${env.server.url}/web/figure.html?fig=heatmap&lang=en`);
  const tag = 'posnorm-heatmap';
  await startFigure(page, tag);
  await page.locator(`${tag} button[data-action=showEmbed]`).click();
  const en = (await import('../web/i18n/en.js')).default;
  await page.waitForFunction(([t, s]) => document.querySelector(t).shadowRoot.querySelector('.toolbar .status').textContent === s, [tag, en.embedNoHost], { timeout: 20000 })
    .catch(() => {});
  const status = await page.evaluate((t) => document.querySelector(t).shadowRoot.querySelector('.toolbar .status').textContent, tag);
  assert.deepEqual([status, problems], [en.embedNoHost, []], 'the reader is told, no unhandled error');
  // and told again in the figure's language when it changes while the message is shown
  const ko = (await import('../web/i18n/ko.js')).default;
  await page.evaluate((t) => document.querySelector(t).setAttribute('lang', 'ko'), tag);
  const relabelled = await page.evaluate((t) => document.querySelector(t).shadowRoot.querySelector('.toolbar .status').textContent, tag);
  assert.equal(relabelled, ko.embedNoHost);
  // a page that says where posnorm is hosted gets its snippets
  const code = await page.evaluate((t) => document.querySelector(t).embedCode({ base: 'https://example.org/posnorm/' }).element, tag);
  assert.match(code, /src="https:\/\/example\.org\/posnorm\/web\/figures\/heatmap\.js"/);
  await context.close();
});

test('a dialog message written after what it waits for (the picture drawn, the clipboard) is in the figure\'s language at that moment, not the one it had when the button was pressed', async () => {
  const { page, context, problems } = await open(env.browser, `${env.server.url}/web/?lang=en`);
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: env.server.url });
  const tag = 'posnorm-heatmap';
  await startFigure(page, tag);
  await openDialog(page, tag);
  const ko = { ...(await import('../web/i18n/ko.js')).default, ...(await import('../web/i18n/ko/embed-dialog.js')).default };
  const status = () => page.evaluate((t) => document.querySelector(t).shadowRoot.querySelector('dialog .status').textContent, tag);
  // "Download picture", and the figure turns Korean while the picture is drawn
  await Promise.all([
    page.waitForEvent('download'),
    page.evaluate((t) => {
      const el = document.querySelector(t);
      el.shadowRoot.querySelector('dialog button[data-action=downloadPicture]').click();
      el.setAttribute('lang', 'ko');
    }, tag),
  ]);
  await page.waitForFunction(([t, busy]) => document.querySelector(t).shadowRoot.querySelector('dialog .status').textContent !== busy, [tag, ko.embedBusy]);
  assert.equal(await status(), ko.embedSaved, 'saved, said in Korean');
  // Copy, with a clipboard that answers late, and the figure turns English meanwhile
  await page.evaluate((t) => {
    const write = navigator.clipboard.writeText.bind(navigator.clipboard);
    Object.defineProperty(navigator.clipboard, 'writeText', { configurable: true, value: (s) => new Promise((r) => setTimeout(r, 300)).then(() => write(s)) });
    const el = document.querySelector(t);
    el.shadowRoot.querySelector('dialog .status').textContent = '';
    el.shadowRoot.querySelector('dialog button[data-copy=element]').click();
    el.setAttribute('lang', 'en');
  }, tag);
  await page.waitForFunction((t) => document.querySelector(t).shadowRoot.querySelector('dialog .status').textContent !== '', tag);
  assert.equal(await status(), 'Copied.', 'copied, said in English');
  assert.deepEqual(problems, []);
  await context.close();
});

test('the Copy buttons\' names follow a language change while the dialog is open, as their text does', async () => {
  const { page, context, problems } = await open(env.browser, `${env.server.url}/web/?lang=en`);
  const tag = 'posnorm-heatmap';
  await startFigure(page, tag);
  await openDialog(page, tag);
  await page.evaluate((t) => document.querySelector(t).setAttribute('lang', 'ko'), tag);
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  const names = await inShadow(page, tag, (root) => [...root.querySelectorAll('dialog [data-copy]')].map((b) => [b.textContent, b.getAttribute('aria-label')]));
  for (const [text, name] of names) assert.ok(name.startsWith(`${text}: `), `the name "${name}" begins with the text "${text}"`);
  assert.deepEqual(problems, []);
  await context.close();
});
