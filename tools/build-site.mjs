// tools/build-site.mjs — the deployable demo site in build/site/: the same
// files as web/, src/js/ and build/wasm/, in the same places (so every
// relative URL still holds), with JS and CSS minified by esbuild one file
// at a time (no bundling: each module keeps its imports). web/ itself needs
// no build and works from any static server; this copy is what `make demo`
// serves and what the size budget (150 KB for the whole page) is measured on.
import { copyFile, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { transform } from 'esbuild';
import { buildFrame } from './build-frame.mjs';

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
    if (!loader) {
      await copyFile(src, dest);
      continue;
    }
    const { code } = await transform(await readFile(src, 'utf8'), {
      loader, minify: true, keepNames: true, charset: 'utf8', format: loader === 'js' ? 'esm' : undefined, target: 'es2022',
    });
    await writeFile(dest, code);
  }
  return out;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(`built ${relative(root, await buildSite())}/`);
}
