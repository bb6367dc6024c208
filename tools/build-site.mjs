// tools/build-site.mjs — the deployable demo site in build/site/: the same
// files as web/, src/js/ and build/wasm/, in the same places (so every
// relative URL still holds), with JS and CSS minified by esbuild one file
// at a time (each module keeps its imports, so embed.html and figure.html
// and anyone's page load the figures as modules). The demo page's own
// entry, web/page.js, is bundled into one file: a phone on a slow network
// then waits for three round trips (HTML, script and stylesheet, wasm)
// instead of one per level of the module graph. web/ itself needs no build
// and works from any static server; this copy is what `make demo` serves
// and what the size budgets of the page's first load are measured on (bench/sizes.mjs:
// 156 KiB counted from the files; tests/browser.test.mjs: 182 KiB as Chromium fetches it). It also
// holds web/fig/ and web/oembed/ (tools/build-oembed.mjs), whose URLs are
// absolute: `SITE_URL=https://… make site` for the address it will have.
import { copyFile, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, transform } from 'esbuild';
import { buildFrame } from './build-frame.mjs';
import { buildOembed } from './build-oembed.mjs';
import { SOURCE_URL, posnormModules } from './bundle-modules.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = join(root, 'build', 'site');

async function* files(dir) {
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) yield* files(p);
    else yield p;
  }
}

export async function buildSite() {
  await rm(out, { recursive: true, force: true });
  const sources = [];
  for (const dir of ['web', 'src/js']) for await (const f of files(join(root, dir))) sources.push(f);
  sources.push(join(root, 'build/wasm/posnorm-simd.wasm'), join(root, 'build/wasm/posnorm-scalar.wasm'), await buildFrame());
  for (const src of sources) {
    if (src.endsWith('.d.ts')) continue;
    const dest = join(out, relative(root, src));
    await mkdir(dirname(dest), { recursive: true });
    const loader = src.endsWith('.js') && !src.includes('/build/') ? 'js' : src.endsWith('.css') ? 'css' : null;
    if (src.endsWith('.html')) {
      // indentation and comments only: the pages hold no <pre> or inline script
      await writeFile(dest, (await readFile(src, 'utf8')).replace(/<!--[\s\S]*?-->/g, '').replace(/\n\s+/g, '\n'));
      continue;
    }
    if (!loader) {
      await copyFile(src, dest);
      continue;
    }
    const { code } = await transform(await readFile(src, 'utf8'), {
      loader, minify: true, charset: 'utf8', format: loader === 'js' ? 'esm' : undefined, target: 'es2022',
    });
    await writeFile(dest, code);
  }
  await bundlePage();
  // one page per figure and language with oEmbed discovery, and the oEmbed JSON (SITE_URL: the site's address)
  await buildOembed(out);
  return out;
}

/**
 * web/page.js and everything it imports, as one module and the chunks it
 * loads later. Inside them every module sees import.meta.url as the URL of
 * its own source file (bundle-modules.mjs), so the wasm and posters are
 * found as from the separate files.
 */
async function bundlePage() {
  const result = await build({
    metafile: true,
    entryPoints: [join(root, 'web/page.js')],
    bundle: true,
    format: 'esm',
    minify: true,
    charset: 'utf8',
    target: 'es2022',
    outdir: join(out, 'web'),
    // the figures' internal fields (named _like_this) get short names in the
    // page's bundle; _initialize is the wasm module's export, kept
    mangleProps: /^_[a-z]/i,
    reserveProps: /^_initialize$/,
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    allowOverwrite: true,
    // chunks live in web/chunks/, the entry in web/: each finds the site's root from itself
    banner: { js: `const __pnRoot=new URL(import.meta.url.includes("/chunks/")?"../../":"../",import.meta.url).href;${SOURCE_URL}` },
    plugins: [posnormModules(root)],
    logLevel: 'warning',
  });
  // the chunks page.js imports statically are asked for with the page, not
  // one round trip after it
  const entry = Object.entries(result.metafile.outputs).find(([, o]) => o.entryPoint === 'web/page.js');
  const chunks = entry[1].imports.filter((i) => i.kind === 'import-statement').map((i) => relative(join(out, 'web'), join(root, i.path)));
  const html = join(out, 'web/index.html');
  const links = chunks.map((c) => `<link rel="modulepreload" href="${c}">`).join('\n');
  await writeFile(html, (await readFile(html, 'utf8')).replace('<script type="module" src="page.js"></script>', `<script type="module" src="page.js"></script>\n${links}`));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(`built ${relative(root, await buildSite())}/`);
}
