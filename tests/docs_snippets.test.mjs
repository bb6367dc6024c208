// Every poster <img>, in the snippets the README and docs/ write by hand and
// in the web pages make posters writes: it names a picture that exists, at
// that picture's real width and height — a reader copies them into a page,
// where a wrong size squashes the poster and shifts the layout (make posters
// wrote the element's box rounded, 1 px short of three pictures).
//
// Each <img> tag is read whole (it may span lines) and its attributes in any
// order: a pattern that wanted src, width and height in that order let a
// snippet with another order, or another attribute between them, drop out
// unchecked (a review put `loading` before `width` and a wrong height in).
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { FIGURES } from '../web/figures/registry.js';
import { tagAttributes } from './helpers.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));

test('every poster <img> in the README, docs/ and the web pages has its PNG\'s size', () => {
  const files = ['README.md', ...readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`),
    ...readdirSync(join(root, 'web')).filter((f) => f.endsWith('.html')).map((f) => `web/${f}`)];
  const seen = {};
  for (const file of files) {
    const text = readFileSync(join(root, file), 'utf8');
    for (const [tag] of text.matchAll(/<img\b[^>]*>/g)) {
      const attrs = tagAttributes(tag);
      const m = /(?:^|\/)posters\/([\w.-]+\.png)$/.exec(attrs.src ?? '');
      if (!m) continue;
      const png = join(root, 'web/posters', m[1]);
      assert.ok(existsSync(png), `${file}: web/posters/${m[1]} exists`);
      assert.ok(/^\d+$/.test(attrs.width ?? '') && /^\d+$/.test(attrs.height ?? ''), `${file}: ${m[1]} has a width and a height (${tag.slice(0, 120)})`);
      const data = readFileSync(png);
      assert.deepEqual([Number(attrs.width), Number(attrs.height)], [data.readUInt32BE(16), data.readUInt32BE(20)], `${file}: ${m[1]} width and height`);
      seen[file] = (seen[file] ?? 0) + 1;
    }
  }
  // the README's and docs/figures.md's snippets, embed.html's two figures
  // and the demo page's poster of every figure
  assert.equal(seen['README.md'], 1, 'the README\'s snippet');
  assert.equal(seen['docs/figures.md'], 1, 'docs/figures.md\'s snippet');
  assert.equal(seen['web/embed.html'], 2, 'embed.html\'s two figures');
  assert.equal(seen['web/index.html'], FIGURES.length, 'index.html: a poster for every figure');
});

test('tagAttributes reads a tag across lines and in any order', () => {
  assert.deepEqual(tagAttributes('<img loading="lazy"\n   height="7" SRC="a/posters/x.png" width="3">'), { loading: 'lazy', height: '7', src: 'a/posters/x.png', width: '3' });
});
