// bench/sizes.mjs — bytes of what the demo page downloads, and of each wasm.
import { readdir, stat } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

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

/**
 * Bytes of each wasm, of the demo site `make demo` serves (build/site/,
 * minified; run tools/build-site.mjs first) and of the unminified sources.
 */
export async function measureSizes() {
  const simd = (await stat(`${root}build/wasm/posnorm-simd.wasm`)).size;
  const scalar = (await stat(`${root}build/wasm/posnorm-scalar.wasm`)).size;
  const wasm = Math.max(simd, scalar);
  return { simd, scalar, page: await pageBytes('build/site/', wasm), sources: await pageBytes('', wasm) };
}

export async function benchSizes() {
  const { simd, scalar, page, sources } = await measureSizes();
  return [
    '| what | bytes (uncompressed) |',
    '|---|---:|',
    `| posnorm-simd.wasm | ${simd} |`,
    `| posnorm-scalar.wasm | ${scalar} |`,
    `| demo site (build/site: all HTML + JS + CSS, minified, + the larger wasm; limit 153600) | ${page} |`,
    `| the same from the unminified sources in web/ and src/js/ | ${sources} |`,
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await benchSizes());
