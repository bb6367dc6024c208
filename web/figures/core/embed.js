// embed.js — the snippets that put a figure, in its current state and
// language, into someone else's page (el.embedCode(), the Embed dialog):
//   element  — the module <script> and the element with every control as an
//              attribute, its still picture as slot="poster" for readers
//              without JavaScript (and a stylesheet that hides it where
//              scripts run), for pages that allow scripts;
//   iframe   — web/figure.html with the state in its query, sandboxed, and a
//              script that fits its height, for pages that allow only iframes;
//   markdown, html — the still picture linking to the live figure in that
//              state, for places that run nothing;
//   hugo, jekyll — the same element through the shortcode and the include
//              in integrations/ (which write the stylesheet and script once).
// Every value that goes into markup is escaped for where it goes, and the
// host URL must be an absolute http(s) URL.
import { figureSettings } from './runtime.js';
import { fileStem } from './download.js';
import { stillSize } from './still.js';

/**
 * The folder that holds web/ and build/, as these modules were loaded (in
 * someone else's bundle, the bundle's own folder). Found from the module's
 * URL as a string: a `new URL('…', import.meta.url)` with a literal would be
 * taken by bundlers (Vite, Turbopack) for an asset to copy.
 */
function packageRoot() {
  const here = String(import.meta.url);
  const at = here.lastIndexOf('/web/figures/core/');
  return here.slice(0, at >= 0 ? at + 1 : here.lastIndexOf('/') + 1);
}

const HTML_ESCAPES = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** `text` safe inside an HTML attribute value in double quotes, or as text. */
export function escapeHtml(text) {
  return String(text).replace(/[&<>"']/g, (ch) => HTML_ESCAPES[ch]);
}

/**
 * `text` as the text of a Markdown image or link: one line, its brackets and
 * markup escaped — and nothing else: some renderers (marked) keep the
 * backslashes in an image's alt, so "(blue)" stays as written (parentheses,
 * '!' and '#' are not markup inside the brackets).
 */
export function escapeMarkdown(text) {
  return String(text).replace(/\s+/g, ' ').replace(/[\\`*_{}[\]<>|~]/g, (ch) => `\\${ch}`);
}

/** `text` inside a double-quoted Hugo shortcode or Jekyll include parameter. */
function quoteParam(text) {
  return `"${String(text).replace(/[\\"]/g, (ch) => `\\${ch}`)}"`;
}

/**
 * A URL for a Markdown link destination: nothing in it can end the link, nor
 * the text of a link around it (a ']' in the picture's address ends the outer
 * link's text for Markdown renderers that match brackets first, such as marked).
 */
function markdownUrl(url) {
  return String(url).replace(/[\s()<>\\[\]]/g, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
}

/**
 * The host root the snippets point at: `base`, else configure({ embedBase }),
 * else where the modules came from; an absolute http(s) URL ending in '/'.
 */
export function embedRoot(base, call = 'embedCode') {
  const raw = base ?? figureSettings().embedBase ?? packageRoot();
  let url = null;
  try {
    url = new URL(String(raw));
  } catch {
    url = null;
  }
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
    throw new TypeError(`${call}: base must be an absolute http: or https: URL (the folder that holds web/ and build/), got ${JSON.stringify(String(raw).slice(0, 100))}`);
  }
  url.search = '';
  url.hash = '';
  if (!url.pathname.endsWith('/')) url.pathname += '/';
  return url.href;
}

/** The figure's name in the registry: <posnorm-NAME>. */
export const figureName = (fig) => fig.localName.replace(/^posnorm-/, '');

/** The file name of the still picture of the figure's current state (what "Download picture" saves). */
export function stillFileName(fig) {
  return `${fileStem(fig)}.${fig.language}.png`;
}

/** figure.html on the host with the figure's name, every control and the language in its query. */
export function liveUrl(fig, root) {
  const url = new URL('web/figure.html', root);
  url.searchParams.set('fig', figureName(fig));
  const values = fig.values;
  for (const c of fig.constructor.controls) url.searchParams.set(c.attr, String(values[c.prop]));
  url.searchParams.set('lang', fig.language);
  return url.href;
}

/**
 * The snippets for `fig` as it is now: { element, iframe, markdown, html }.
 * `base`: the host root (see embedRoot); `picture`: where the still picture
 * is (by default its file name, for a picture uploaded next to the post).
 * The figure must be on the page and started.
 */
export function embedCode(fig, { base, picture } = {}) {
  if (!fig.pn || !fig.onPage) {
    throw new Error(`${fig.localName}.embedCode: the figure must be on the page and started (await el.ready first)`);
  }
  const root = embedRoot(base);
  const name = figureName(fig);
  const values = fig.values;
  const lang = fig.language;
  const alt = fig.describe();
  const title = fig.t.figureTitle?.[name] ?? name;
  const { width, height } = stillSize(fig);
  const src = picture === undefined || picture === null || picture === '' ? stillFileName(fig) : String(picture);
  const live = liveUrl(fig, root);
  const attrs = fig.constructor.controls.map((c) => ` ${c.attr}="${escapeHtml(values[c.prop])}"`).join('');
  const img = `<img slot="poster" src="${escapeHtml(src)}" width="${width}" height="${height}" loading="lazy" alt="${escapeHtml(alt)}">`;
  const element = [
    `<link rel="stylesheet" href="${escapeHtml(new URL('web/posnorm.css', root).href)}">`,
    `<script type="module" src="${escapeHtml(new URL(`web/figures/${name}.js`, root).href)}"></script>`,
    `<${fig.localName}${attrs} lang="${lang}">`,
    `  ${img}`,
    `</${fig.localName}>`,
  ].join('\n');
  // the height of the figure as it is on this page, plus figure.html's margins: the frame's size until the script fits it
  const frameHeight = Math.max(150, Math.ceil(fig.getBoundingClientRect().height) + 16);
  const iframe = [
    `<iframe data-posnorm src="${escapeHtml(live)}" title="${escapeHtml(title)}" width="${width}" height="${frameHeight}"`,
    `        style="width:100%;height:${frameHeight}px;border:0" loading="lazy" sandbox="allow-scripts"></iframe>`,
    '<script type="module">',
    "  addEventListener('message', (e) => {",
    "    const h = e.data?.type === 'posnorm-figure-height' ? Number(e.data.height) : NaN;",
    '    if (!(h > 0 && h < 20000)) return;',
    "    for (const f of document.querySelectorAll('iframe[data-posnorm]')) if (f.contentWindow === e.source) f.style.height = `${Math.ceil(h)}px`;",
    '  });',
    '</script>',
  ].join('\n');
  const markdown = `[![${escapeMarkdown(alt)}](${markdownUrl(src)})](${markdownUrl(live)})`;
  const html = `<a href="${escapeHtml(live)}"><img src="${escapeHtml(src)}" width="${width}" height="${height}" alt="${escapeHtml(alt)}"></a>`;
  // the recipes' own parameters (fig, host, poster, poster-width, poster-height, alt) are no figure's
  // attribute: six figures have a `base`, one a `width`, which the recipes would take for their own
  const params = [['fig', name], ['host', root], ...fig.constructor.controls.map((c) => [c.attr, values[c.prop]]), ['lang', lang],
    ['poster', src], ['poster-width', width], ['poster-height', height], ['alt', alt]].map(([k, v]) => `${k}=${quoteParam(v)}`).join(' ');
  return { element, iframe, markdown, html, hugo: `{{< posnorm ${params} >}}`, jekyll: `{% include posnorm.html ${params} %}` };
}
