// The snippets the README and docs/ write by hand (make posters refreshes
// only web/*.html): every poster <img> they show names a picture that
// exists, at that picture's real width and height — a reader copies them
// into a page, where a wrong size squashes the poster and shifts the layout.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

test('every poster <img> in the README and docs/ has its PNG\'s size', () => {
  const files = ['README.md', ...readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
  let seen = 0;
  for (const file of files) {
    const text = readFileSync(join(root, file), 'utf8');
    for (const m of text.matchAll(/src="[^"]*\/web\/posters\/([\w.-]+\.png)"\s+width="(\d+)"\s+height="(\d+)"/g)) {
      const png = join(root, 'web/posters', m[1]);
      assert.ok(existsSync(png), `${file}: web/posters/${m[1]} exists`);
      const data = readFileSync(png);
      assert.deepEqual([Number(m[2]), Number(m[3])], [data.readUInt32BE(16), data.readUInt32BE(20)], `${file}: ${m[1]} width and height`);
      seen++;
    }
  }
  assert.ok(seen >= 2, `${seen} poster snippets found`);
});
