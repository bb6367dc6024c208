// The figures' label tables (web/i18n/ko.js with each figure's own Korean
// labels in web/i18n/ko/, and en.js): the same strings in both languages,
// every label a figure names by itself in its source is in them, and in
// Korean in the files that module loads. Node only.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import shared from '../web/i18n/ko.js';
import en from '../web/i18n/en.js';

const figures = fileURLToPath(new URL('../web/figures/', import.meta.url));
const koDir = fileURLToPath(new URL('../web/i18n/ko/', import.meta.url));
/** Each module's own Korean labels: figure or core module name → table. */
const own = Object.fromEntries(await Promise.all(readdirSync(koDir).filter((f) => f.endsWith('.js'))
  .map(async (f) => [f.slice(0, -3), (await import(`../web/i18n/ko/${f}`)).default])));
/** Every Korean label, as a page with every figure has them. */
const ko = Object.assign({}, shared, ...Object.values(own));

test('each Korean label is defined once: in the shared table or in one module\'s own', () => {
  const seen = new Map(Object.keys(shared).map((k) => [k, 'ko.js']));
  for (const [name, table] of Object.entries(own)) {
    // the module the file belongs to exists, and adds the file
    const module = name === 'embed-dialog' ? 'core/embed-dialog.js' : `${name}.js`;
    const source = readFileSync(join(figures, module), 'utf8');
    assert.match(source, new RegExp(`import koStrings from '[./]+/i18n/ko/${name}\\.js';[\\s\\S]*\\naddKoreanStrings\\(koStrings\\);`), module);
    // before the element is defined: elements already on the page upgrade at define()
    const added = source.indexOf('\naddKoreanStrings(koStrings);'), defined = source.search(/\.define\(|customElements\.define\(/);
    assert.ok(defined === -1 || added < defined, `${module}: addKoreanStrings after define()`);
    for (const key of Object.keys(table)) {
      assert.ok(!seen.has(key), `${key} is in ${seen.get(key)} and in ko/${name}.js`);
      seen.set(key, `ko/${name}.js`);
    }
  }
  assert.ok(Object.keys(own).length >= 12, Object.keys(own).join());
});

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
    /\blabelSpan\('(\w+)'/g, // a status message (core/language.js)
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

test('a module finds its Korean labels in what it loads: the shared table and its own', () => {
  // a figure alone on a page (figure.html, an embed) has ko.js and its own
  // file only: a label of another figure's file shows as undefined or empty.
  // Any mention of such a label counts, however the module names it (t.key,
  // a control's label or choice, dataset.key = 'key', a table of keys), so
  // every quoted or dotted occurrence of its name is a use
  const ownKeys = Object.entries(own).flatMap(([name, table]) => Object.keys(table).map((key) => [key, name]));
  const wrong = [];
  for (const file of readdirSync(figures, { recursive: true }).filter((f) => f.endsWith('.js'))) {
    const name = file.replace(/^core\//, '').slice(0, -3);
    const source = readFileSync(join(figures, file), 'utf8');
    for (const [key, home] of ownKeys) {
      if (home !== name && new RegExp(`['"\`.]${key}\\b`).test(source)) wrong.push(`${key} (${file}; in ko/${home}.js)`);
    }
    // t[`lcMethod_${…}`]: every label of that prefix
    const has = { ...shared, ...(own[name] ?? {}) };
    for (const m of source.matchAll(/\bt\[`(\w+)\$\{/g)) {
      const all = Object.keys(ko).filter((k) => k.startsWith(m[1]));
      assert.ok(all.length > 0, `${file}: no label starts with ${m[1]}`);
      for (const key of all) if (!(key in has)) wrong.push(`${key} (${file}, as ${m[1]}…)`);
    }
  }
  assert.deepEqual(wrong, []);
});

test('every string the Embed dialog names (its elements\' key, its sections and snippets) is in both tables', () => {
  const source = readFileSync(join(figures, 'core/embed-dialog.js'), 'utf8');
  const keys = new Set();
  for (const m of source.matchAll(/\bkey: '(\w+)'/g)) keys.add(m[1]);
  for (const m of source.matchAll(/\bsection\('(\w+)', '(\w+)'/g)) keys.add(m[1]).add(m[2]);
  for (const m of source.matchAll(/\bsnippet\('\w+', '(\w+)'/g)) keys.add(m[1]);
  for (const m of source.matchAll(/\bt\.(\w+)/g)) keys.add(m[1]);
  for (const m of source.matchAll(/\blabelSpan\('(\w+)'/g)) keys.add(m[1]);
  assert.ok(keys.size >= 20, `${keys.size} strings found`);
  for (const key of keys) {
    assert.equal(typeof ko[key], 'string', `ko.${key}`);
    assert.equal(typeof en[key], 'string', `en.${key}`);
  }
  // each figure's title (the iframe's title, the oEmbed title) in both
  for (const table of [ko, en]) assert.deepEqual(Object.keys(table.figureTitle).sort(), readdirSync(figures).filter((f) => f.endsWith('.js') && !['index.js', 'registry.js'].includes(f)).map((f) => f.slice(0, -3)).sort());
});

test('labels that count: one layer is "layer", more are "layers" (depth\'s gradient note)', () => {
  // nonFiniteLayers gives the layers as text ("26", "3–5, 9") and their count
  assert.equal(en.depthGradOverflow('Post-LN', '26', 1), "Post-LN: weight-gradient norm past float32's range (about 3.4e38) at layer 26, not drawn there.");
  assert.equal(en.depthGradOverflow('Post-LN', '3–5, 9', 4), "Post-LN: weight-gradient norm past float32's range (about 3.4e38) at layers 3–5, 9, not drawn there.");
});
