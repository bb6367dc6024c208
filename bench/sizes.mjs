// bench/sizes.mjs — bytes of what the demo page downloads, and of each wasm.
import { readdir, stat } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

async function filesUnder(dir, exts) {
  const out = [];
  for (const e of await readdir(root + dir, { withFileTypes: true, recursive: true })) {
    if (e.isFile() && exts.some((x) => e.name.endsWith(x))) out.push(`${e.parentPath ?? e.path}/${e.name}`);
  }
  return out;
}

/** Bytes of each wasm and of the whole demo page (HTML, JS, CSS, one wasm). */
export async function measureSizes() {
  const simd = (await stat(`${root}build/wasm/posnorm-simd.wasm`)).size;
  const scalar = (await stat(`${root}build/wasm/posnorm-scalar.wasm`)).size;
  let page = Math.max(simd, scalar); // a browser downloads one of the two builds
  const web = await filesUnder('web', ['.html', '.js', '.css']);
  const js = await filesUnder('src/js', ['.js']);
  for (const f of [...web, ...js]) page += (await stat(f)).size;
  return { simd, scalar, page };
}

export async function benchSizes() {
  const { simd, scalar, page } = await measureSizes();
  return [
    '| what | bytes (uncompressed) |',
    '|---|---:|',
    `| posnorm-simd.wasm | ${simd} |`,
    `| posnorm-scalar.wasm | ${scalar} |`,
    `| all web pages' HTML + JS + CSS + the larger wasm (limit 153600) | ${page} |`,
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await benchSizes());
