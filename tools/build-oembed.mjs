// tools/build-oembed.mjs — oEmbed for platforms that embed a pasted link
// (WordPress, Ghost, and any consumer that does oEmbed discovery): for every
// figure and language, a page web/fig/NAME.LANG.html (figure.html for that
// one figure, its state still in the query) whose <head> carries
//   <link rel="alternate" type="application/json+oembed" href="…/web/oembed/NAME.LANG.json">
// and that JSON, oEmbed 1.0 type "rich": the figure in a sandboxed iframe
// (figure.html), its size, its title, and its poster as the thumbnail.
//
// A consumer puts the JSON's html in another site, so its URLs are absolute:
// they start with the site's address, SITE_URL (the folder that holds web/;
// http://localhost:8000/ — what `make demo` serves — by default). The JSON is
// static, so it describes the default state of the figure (see
// docs/blog-platforms.md for what a host with server functions could add).
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FIGURES } from '../web/figures/registry.js';
import en from '../web/i18n/en.js';
import ko from '../web/i18n/ko.js';

const root = fileURLToPath(new URL('..', import.meta.url));
export const DEFAULT_SITE_URL = 'http://localhost:8000/';
const STRINGS = { ko, en };

const escapeHtml = (s) => String(s).replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]);

/** `url` as the site root: absolute http(s), ending in '/'; else a TypeError naming SITE_URL. */
export function siteRoot(url) {
  let u = null;
  try {
    u = new URL(String(url));
  } catch {
    u = null;
  }
  if (!u || (u.protocol !== 'http:' && u.protocol !== 'https:')) throw new TypeError(`build-oembed: SITE_URL must be an absolute http(s) URL, got ${JSON.stringify(String(url))}`);
  u.search = '';
  u.hash = '';
  if (!u.pathname.endsWith('/')) u.pathname += '/';
  return u.href;
}

/** The width and height of a PNG file, from its IHDR chunk. */
export async function pngSize(path) {
  const head = (await readFile(path)).subarray(0, 24);
  return { width: head.readUInt32BE(16), height: head.readUInt32BE(20) };
}

/**
 * The oEmbed 1.0 response for figure `name` in `lang` on the site at `site`;
 * `poster` is the size of its poster (the thumbnail), `frame` the size of
 * figure.html's page at which its content was measured (the iframe's, and
 * the response's width and height: web/posters/sizes.json).
 */
export function oembedFor(name, lang, site, poster, frame) {
  const title = STRINGS[lang].figureTitle[name];
  const src = new URL('web/figure.html', site);
  src.searchParams.set('fig', name);
  src.searchParams.set('lang', lang);
  const html = `<iframe src="${escapeHtml(src.href)}" title="${escapeHtml(title)}" width="${frame.width}" height="${frame.height}" style="border:0;width:100%;max-width:${frame.width}px" loading="lazy" sandbox="allow-scripts"></iframe>`;
  return {
    version: '1.0',
    type: 'rich',
    title,
    provider_name: 'posnorm',
    provider_url: new URL('web/', site).href,
    html,
    width: frame.width,
    height: frame.height,
    thumbnail_url: new URL(`web/posters/${name}.${lang}.png`, site).href,
    thumbnail_width: poster.width,
    thumbnail_height: poster.height,
  };
}

/** The page web/fig/NAME.LANG.html: the figure alone, with its oEmbed discovery link. */
export function figurePage(name, lang, site, oembed) {
  const json = new URL(`web/oembed/${name}.${lang}.json`, site).href;
  const page = new URL(`web/fig/${name}.${lang}.html`, site).href;
  return `<!doctype html>
<html lang="${lang}" data-fig="${escapeHtml(name)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(oembed.title)} — posnorm</title>
<link rel="alternate" type="application/json+oembed" href="${escapeHtml(json)}" title="${escapeHtml(oembed.title)}">
<link rel="canonical" href="${escapeHtml(page)}">
<meta property="og:title" content="${escapeHtml(oembed.title)}">
<meta property="og:type" content="website">
<meta property="og:url" content="${escapeHtml(page)}">
<meta property="og:image" content="${escapeHtml(oembed.thumbnail_url)}">
<meta property="og:image:width" content="${oembed.thumbnail_width}">
<meta property="og:image:height" content="${oembed.thumbnail_height}">
<link rel="stylesheet" href="../figure.css">
<script src="../figure-frame.js" defer></script>
</head>
<body>
<div id="figure"></div>
</body>
</html>
`;
}

/** Writes web/fig/ and web/oembed/ under `out` for the site at `siteUrl`; returns the files written. */
export async function buildOembed(out, siteUrl = process.env.SITE_URL || DEFAULT_SITE_URL) {
  const site = siteRoot(siteUrl);
  const sizes = JSON.parse(await readFile(join(root, 'web/posters/sizes.json'), 'utf8'));
  await mkdir(join(out, 'web/fig'), { recursive: true });
  await mkdir(join(out, 'web/oembed'), { recursive: true });
  const written = [];
  for (const { name } of FIGURES) {
    for (const lang of ['ko', 'en']) {
      const { frameWidth, frameHeight } = sizes[`${name}.${lang}`] ?? {};
      if (!frameWidth || !frameHeight) throw new Error(`build-oembed: web/posters/sizes.json has no frame size for ${name}.${lang} (run make posters)`);
      const poster = await pngSize(join(root, `web/posters/${name}.${lang}.png`));
      const oembed = oembedFor(name, lang, site, poster, { width: frameWidth, height: frameHeight });
      const json = join(out, `web/oembed/${name}.${lang}.json`);
      const html = join(out, `web/fig/${name}.${lang}.html`);
      await writeFile(json, `${JSON.stringify(oembed, null, 2)}\n`);
      await writeFile(html, figurePage(name, lang, site, oembed));
      written.push(json, html);
    }
  }
  return written;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const out = process.argv[2] ? join(process.cwd(), process.argv[2]) : join(root, 'build/site');
  const files = await buildOembed(out);
  console.log(`wrote ${files.length} files under ${relative(root, out) || '.'}/web/{fig,oembed}/`);
}
