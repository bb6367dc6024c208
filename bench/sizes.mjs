// bench/sizes.mjs — bytes of what the demo page downloads, and of each wasm.
import { readFile, readdir, stat } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * The demo page's first load as counted here (page.js, its static imports,
 * CSS, HTML, wasm) must stay under 156 KiB (issue #3's 150 KiB until the
 * double-double angles, 154 KiB until yarn's ramp and llama3's smoothing
 * in double-double: docs/decisions.md, "Angles near 2^31 in
 * double-double" and "yarn's ramp and llama3's smoothing"); what Chromium
 * fetches before scrolling (tests/browser.test.mjs) has 182 KiB (170 KiB from
 * 0.3.0, 175 KiB from 2026-12-05, 180 KiB since the double-double angles,
 * 182 KiB since the ramp and smoothing: docs/decisions.md, "Page budget"
 * and the entries after it).
 */
export const PAGE_LIMIT = 156 * 1024;

async function filesUnder(dir, exts) {
  const out = [];
  for (const e of await readdir(root + dir, { withFileTypes: true, recursive: true })) {
    if (e.name.endsWith('.d.ts')) continue;
    if (e.isFile() && exts.some((x) => e.name.endsWith(x))) out.push(`${e.parentPath ?? e.path}/${e.name}`);
  }
  return out;
}

/** HTML + JS + CSS under `prefix` (web/ and src/js/) plus the larger wasm. */
async function pageBytes(prefix, wasm) {
  let total = wasm; // a browser downloads one of the two builds
  const web = await filesUnder(`${prefix}web`, ['.html', '.js', '.css']);
  const js = await filesUnder(`${prefix}src/js`, ['.js']);
  for (const f of [...web, ...js]) total += (await stat(f)).size;
  return total;
}

/** The chunks `file` (in build/site/web/) imports statically, and theirs. */
async function staticClosure(site, file, seen = new Set()) {
  if (seen.has(file)) return seen;
  seen.add(file);
  const code = await readFile(site + file, 'utf8');
  const dir = file.includes('/') ? file.slice(0, file.lastIndexOf('/') + 1) : '';
  for (const m of code.matchAll(/(?:from|import)\s*"\.\/([^"]+\.js)"/g)) await staticClosure(site, dir + m[1], seen);
  return seen;
}

/**
 * What index.html of the demo site downloads (build/site: the page, its
 * stylesheet, its bundled script and chunks) plus the larger wasm:
 * `firstLoad`, before the reader scrolls (the entry and the chunks it
 * imports statically: the top figure and the shared core; the other figures
 * load as the reader nears them, a browser test checks what really arrives),
 * and `wholePage`, once every figure has loaded.
 */
async function sitePageBytes(wasm) {
  const site = `${root}build/site/web/`;
  const size = async (files) => {
    let total = wasm;
    for (const f of files) total += (await stat(site + f)).size;
    return total;
  };
  const base = ['index.html', 'styles.css'];
  // en-*.js (the figures' English labels) and page-i18n-*.js are fetched
  // only when a reader switches to English
  const korean = (await readdir(`${site}chunks`)).filter((f) => !/^(page-i18n|en)-/.test(f)).map((f) => `chunks/${f}`);
  return {
    firstLoad: await size([...base, ...(await staticClosure(site, 'page.js'))]),
    wholePage: await size([...base, 'page.js', ...korean]),
  };
}

/**
 * Bytes of each wasm, of the demo page as `make demo` serves it (build/site/,
 * minified and bundled; run tools/build-site.mjs first) and of all the
 * unminified sources in web/ and src/js/.
 */
export async function measureSizes() {
  const simd = (await stat(`${root}build/wasm/posnorm-simd.wasm`)).size;
  const scalar = (await stat(`${root}build/wasm/posnorm-scalar.wasm`)).size;
  const wasm = Math.max(simd, scalar);
  return { simd, scalar, page: await sitePageBytes(wasm), sources: await pageBytes('', wasm) };
}

export async function benchSizes() {
  const { simd, scalar, page, sources } = await measureSizes();
  return [
    '| what | bytes (uncompressed) |',
    '|---|---:|',
    `| posnorm-simd.wasm | ${simd} |`,
    `| posnorm-scalar.wasm | ${scalar} |`,
    `| the demo page as make demo serves it, first load (index.html, styles.css, page.js and the chunks it imports, minified, + the larger wasm; limit ${PAGE_LIMIT}) | ${page.firstLoad} |`,
    `| the same page once every figure has loaded (a reader who scrolls to the end) | ${page.wholePage} |`,
    `| all HTML, JS and CSS in web/ and src/js/, unminified, + the larger wasm | ${sources} |`,
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await benchSizes());
