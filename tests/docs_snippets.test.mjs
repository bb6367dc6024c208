// Every poster <img>, in the snippets the README and docs/ write by hand and
// in the web pages make posters writes: it names a picture that exists, at
// that picture's real width and height — a reader copies them into a page,
// where a wrong size squashes the poster and shifts the layout (make posters
// wrote the element's box rounded, 1 px short of three pictures).
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

test('every poster <img> in the README, docs/ and the web pages has its PNG\'s size', () => {
  const files = ['README.md', ...readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`),
    ...readdirSync(join(root, 'web')).filter((f) => f.endsWith('.html')).map((f) => `web/${f}`)];
  let seen = 0;
  for (const file of files) {
    const text = readFileSync(join(root, file), 'utf8');
    for (const m of text.matchAll(/src="(?:[^"]*\/)?posters\/([\w.-]+\.png)"\s+width="(\d+)"\s+height="(\d+)"/g)) {
      const png = join(root, 'web/posters', m[1]);
      assert.ok(existsSync(png), `${file}: web/posters/${m[1]} exists`);
      const data = readFileSync(png);
      assert.deepEqual([Number(m[2]), Number(m[3])], [data.readUInt32BE(16), data.readUInt32BE(20)], `${file}: ${m[1]} width and height`);
      seen++;
    }
  }
  // the README and docs' snippets, and the demo page's thirteen figures
  assert.ok(seen >= 2 + 13, `${seen} poster <img> found`);
});
