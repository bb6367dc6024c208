// tools/build-frame.mjs — build/frame/posnorm-frame.js: the figures and
// both wasm builds bundled into one classic script (IIFE), so that
// web/figure.html runs inside <iframe sandbox="allow-scripts">, whose opaque
// origin cannot import modules or fetch the wasm from a plain static host.
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { SOURCE_URL, posnormModules } from './bundle-modules.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const outfile = fileURLToPath(new URL('../build/frame/posnorm-frame.js', import.meta.url));

export async function buildFrame() {
  await build({
    entryPoints: [fileURLToPath(new URL('frame-entry.js', import.meta.url))],
    bundle: true,
    format: 'iife',
    globalName: 'posnormFrame',
    minify: true,
    target: 'es2022',
    loader: { '.wasm': 'binary' },
    outfile,
    // modules find their neighbours (posters) from import.meta.url: in the
    // bundle, the URL of their source file under the root the script was
    // loaded from (build/frame/ is two levels down)
    banner: { js: `var __pnRoot=new URL("../../",document.currentScript&&document.currentScript.src||location.href).href;${SOURCE_URL.replace('const', 'var')}` },
    plugins: [posnormModules(root)],
    logLevel: 'warning',
  });
  return outfile;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(`built ${relative(root, await buildFrame())}`);
}
