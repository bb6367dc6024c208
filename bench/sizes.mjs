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

export async function benchSizes() {
  const simd = (await stat(`${root}build/wasm/posnorm-simd.wasm`)).size;
  const scalar = (await stat(`${root}build/wasm/posnorm-scalar.wasm`)).size;
  let page = simd; // a SIMD browser downloads one of the two builds
  const web = await filesUnder('web', ['.html', '.js', '.css']);
  const js = (await filesUnder('src/js', ['.js']));
  for (const f of [...web, ...js]) page += (await stat(f)).size;
  return [
    '| what | bytes (uncompressed) |',
    '|---|---:|',
    `| posnorm-simd.wasm | ${simd} |`,
    `| posnorm-scalar.wasm | ${scalar} |`,
    `| demo page: HTML + JS + CSS + one wasm | ${page} |`,
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await benchSizes());
