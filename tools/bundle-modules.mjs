// tools/bundle-modules.mjs — what bundling changes in posnorm's own modules,
// for the demo page's bundle (build-site.mjs) and the sandbox bundle
// (build-frame.mjs):
// - every module keeps seeing import.meta.url as the URL of its own source
//   file (src/js/loader.js finds the wasm from src/js/, core/poster.js the
//   posters from web/figures/core/), wherever the bundle puts its code: the
//   bundle's banner says where the site's root is (`__pnRoot`), see BANNER;
// - the figures' stylesheets, CSS in template literals (core/style.js's
//   FIGURE_CSS, each figure's `static css`), which a JS minifier leaves as
//   written, are minified as CSS; a literal with a ${…} substitution is left alone.
import { readFile } from 'node:fs/promises';
import { relative, sep } from 'node:path';
import { transform } from 'esbuild';

/** The banner's second half: the URL of a source file, from its path under the root. */
export const SOURCE_URL = 'const __pnUrl=(p)=>new URL(p,__pnRoot).href;';

/** The esbuild plugin for the modules under `root` (a directory path ending in a separator). */
export function posnormModules(root) {
  return {
    name: 'posnorm-modules',
    setup(b) {
      b.onLoad({ filter: /\.js$/ }, async (args) => {
        if (!args.path.startsWith(root) || args.path.includes(`${sep}node_modules${sep}`)) return undefined;
        const path = relative(root, args.path).split(sep).join('/');
        let code = (await readFile(args.path, 'utf8')).replaceAll('import.meta.url', `__pnUrl(${JSON.stringify(path)})`);
        const literals = [...code.matchAll(/((?:FIGURE_CSS|static css) = )`([^`]*)`/g)];
        for (const [whole, head, css] of literals.reverse()) {
          if (css.includes('${')) continue;
          const min = (await transform(css, { loader: 'css', minify: true })).code.trim();
          code = code.replace(whole, `${head}\`${min}\``);
        }
        return { contents: code, loader: 'js' };
      });
    },
  };
}
