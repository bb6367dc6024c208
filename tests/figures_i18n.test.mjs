// The figures' label tables (web/i18n/ko.js, en.js): the same strings in
// both languages, and every label a figure names by itself in its source
// is in them. Node only.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import ko from '../web/i18n/ko.js';
import en from '../web/i18n/en.js';

const figures = fileURLToPath(new URL('../web/figures/', import.meta.url));

test('Korean and English have the same labels, each a string in both or a function in both', () => {
  assert.deepEqual(Object.keys(en).sort(), Object.keys(ko).sort());
  for (const key of Object.keys(ko)) assert.equal(typeof en[key], typeof ko[key], key);
});

test('every label the figures and their core name in their source is in the tables', () => {
  const named = new Map();
  const patterns = [
    /\bt\.([A-Za-z]\w*)/g, // t.heatmapReadout(…), this.t.wasmMissing
    /\blabel: '(\w+)'(?![^}]*hidden: true)/g, // the label of a control the reader sees
    /\bchoiceLabels: \{([^}]*)\}/g, // a choice's labels
    /\bdataset\.key = '(\w+)'/g,
    /\bdataset\.keyLabel = '(\w+)'/g,
    /\baddButton\('(\w+)'/g,
  ];
  for (const file of readdirSync(figures, { recursive: true }).filter((f) => f.endsWith('.js'))) {
    const source = readFileSync(join(figures, file), 'utf8');
    for (const re of patterns) {
      for (const m of source.matchAll(re)) {
        const keys = re.source.includes('choiceLabels') ? [...m[1].matchAll(/'(\w+)'/g)].map((k) => k[1]) : [m[1]];
        for (const key of keys) named.set(key, file);
      }
    }
  }
  assert.ok(named.size > 100, `${named.size} labels found`);
  const missing = [...named].filter(([key]) => !(key in ko)).map(([key, file]) => `${key} (${file})`);
  assert.deepEqual(missing, []);
});

test('every string the Embed dialog names (its elements\' key, its sections and snippets) is in both tables', () => {
  const source = readFileSync(join(figures, 'core/embed-dialog.js'), 'utf8');
  const keys = new Set();
  for (const m of source.matchAll(/\bkey: '(\w+)'/g)) keys.add(m[1]);
  for (const m of source.matchAll(/\bsection\('(\w+)', '(\w+)'/g)) keys.add(m[1]).add(m[2]);
  for (const m of source.matchAll(/\bsnippet\('\w+', '(\w+)'/g)) keys.add(m[1]);
  for (const m of source.matchAll(/\bt\.(\w+)/g)) keys.add(m[1]);
  assert.ok(keys.size >= 20, `${keys.size} strings found`);
  for (const key of keys) {
    assert.equal(typeof ko[key], 'string', `ko.${key}`);
    assert.equal(typeof en[key], 'string', `en.${key}`);
  }
  // each figure's title (the iframe's title, the oEmbed title) in both
  for (const table of [ko, en]) assert.deepEqual(Object.keys(table.figureTitle).sort(), readdirSync(figures).filter((f) => f.endsWith('.js') && !['index.js', 'registry.js'].includes(f)).map((f) => f.slice(0, -3)).sort());
});
