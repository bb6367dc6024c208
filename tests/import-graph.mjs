// import-graph.mjs — the static import graph of a module, for tests that
// hold which files a module brings in (kept apart from helpers.mjs, which
// imports the package's entry: a test of what the entry adds must not).
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

/**
 * The files reachable from `start` (a file URL) by static relative imports
 * and re-exports (`import './x.js'` for its side effect too), as URLs
 * (hrefs), `start` included.
 */
export async function importGraph(start) {
  const seen = new Set();
  const walk = async (url) => {
    if (seen.has(url.href)) return;
    seen.add(url.href);
    const text = await readFile(fileURLToPath(url), 'utf8');
    for (const [, spec, bare] of text.matchAll(/^\s*(?:(?:import|export)\b[^'"]*?from\s+'(\.[^']+)'|import\s+'(\.[^']+)')/gm)) await walk(new URL(spec ?? bare, url));
  };
  await walk(start);
  return [...seen];
}
