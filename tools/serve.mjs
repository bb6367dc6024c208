// tools/serve.mjs — a dependency-free static server for the demo page.
// Serves the repository root on localhost; / redirects to /web/.
//   node tools/serve.mjs [--port 8000] [--dir build/site]   (or PORT=8000)
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const root = fileURLToPath(new URL('..', import.meta.url));
const portArg = process.argv.indexOf('--port');
const port = Number(portArg > 0 ? process.argv[portArg + 1] : process.env.PORT || 8000);
const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm', '.json': 'application/json', '.svg': 'image/svg+xml',
  '.png': 'image/png', '.ts': 'text/plain; charset=utf-8', '.ico': 'image/x-icon',
};
// Only what the page needs is served.
const ALLOWED = ['web', 'src', 'build'];
// Text is sent gzip-compressed to clients that accept it, as static hosts do.
const COMPRESSIBLE = new Set(['.html', '.js', '.mjs', '.css', '.json', '.svg', '.wasm']);
const gzipCache = new Map();

/**
 * Starts the server. `dir` and `allow` serve another folder (tests serve
 * bundler output with them): allow = null serves everything under dir.
 * `headers` are added to every response (tests send a Content-Security-Policy
 * this way); `headersFor(path)` adds per-path ones.
 */
export function startServer(listenPort = port, { dir = root, allow = ALLOWED, home = '/web/', headers = {}, headersFor = () => ({}) } = {}) {
  const base = dir.endsWith(sep) ? dir : dir + sep;
  const server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    if (path === '/' && home) {
      res.writeHead(302, { location: home });
      return res.end();
    }
    if (path === '/favicon.ico') {
      res.writeHead(204);
      return res.end();
    }
    let file = normalize(join(base, path));
    if (!file.startsWith(base) || (allow && !allow.includes(file.slice(base.length).split(sep)[0]))) {
      res.writeHead(404);
      return res.end('not found');
    }
    try {
      if ((await stat(file)).isDirectory()) file = join(file, 'index.html');
      let body = await readFile(file);
      const head = { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-cache', ...headers, ...headersFor(path) };
      if (COMPRESSIBLE.has(extname(file)) && /\bgzip\b/.test(req.headers['accept-encoding'] ?? '')) {
        const key = `${file}:${body.length}:${(await stat(file)).mtimeMs}`;
        if (!gzipCache.has(key)) gzipCache.set(key, gzipSync(body, { level: 9 }));
        body = gzipCache.get(key);
        head['content-encoding'] = 'gzip';
        head.vary = 'accept-encoding';
      }
      res.writeHead(200, head);
      res.end(body);
    } catch {
      res.writeHead(404);
      res.end('not found');
    }
  });
  return new Promise((resolve) => server.listen(listenPort, '127.0.0.1', () => resolve(server)));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const dirArg = process.argv.indexOf('--dir');
  await startServer(port, dirArg > 0 ? { dir: join(root, process.argv[dirArg + 1]) } : undefined);
  console.log(`posnorm demo: http://localhost:${port}/  (Ctrl-C to stop)`);
}
