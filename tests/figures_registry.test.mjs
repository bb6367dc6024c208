// The figures' registry (web/figures/registry.js) against what must name
// the figures statically: the modules themselves (tag and class), index.js
// and index.d.ts, the package's exports and sideEffects, the demo page; and
// each figure's .d.ts and its row in docs/figures.md against its controls
// (attribute, range, default, choices). Node only; the browser tests take their lists from the registry.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { FIGURES } from '../web/figures/registry.js';
import { declaredValueExports } from './helpers.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const read = (path) => readFileSync(join(root, path), 'utf8');
const pkg = JSON.parse(read('package.json'));

test('the registry: unique names, tags posnorm-NAME, part A before part B', () => {
  assert.ok(FIGURES.length >= 12);
  for (const f of FIGURES) {
    assert.match(f.name, /^[a-z]+(-[a-z]+)*$/, f.name);
    assert.equal(f.tag, `posnorm-${f.name}`);
    assert.equal(f.module, `${f.name}.js`);
    assert.match(f.className, /^Posnorm[A-Z]\w+$/, f.className);
    assert.equal(typeof f.load, 'function');
  }
  assert.equal(new Set(FIGURES.map((f) => f.name)).size, FIGURES.length, 'names are unique');
  assert.equal(new Set(FIGURES.map((f) => f.className)).size, FIGURES.length, 'class names are unique');
  assert.deepEqual(FIGURES.map((f) => f.part), [...FIGURES.map((f) => f.part)].sort(), 'part A, then part B');
  assert.ok(FIGURES.every((f) => f.part === 'A' || f.part === 'B'));
});

test('each figure\'s loader imports its module, which defines the registry\'s tag with the registry\'s class', () => {
  // a stand-in custom element registry: in Node the modules define their
  // element only where customElements exists
  const script = `
    const defined = [];
    globalThis.customElements = { get: () => undefined, define: (tag, cls) => defined.push([tag, cls.name]) };
    const { FIGURES } = await import(${JSON.stringify(pathToFileURL(join(root, 'web/figures/registry.js')).href)});
    const loaded = [];
    for (const f of FIGURES) {
      const mod = await f.load();
      loaded.push([f.name, defined.at(-1), typeof mod[f.className], typeof mod.configure, Object.keys(mod).sort()]);
    }
    console.log(JSON.stringify(loaded));`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  // each module exports what its .d.ts declares, and nothing else (long-context's METHODS table was exported undeclared)
  assert.deepEqual(JSON.parse(r.stdout), FIGURES.map((f) => [f.name, [f.tag, f.className], 'function', 'function', declaredValueExports(read(`web/figures/${f.name}.d.ts`), `${f.name}.d.ts`)]));
  for (const f of FIGURES) {
    const types = read(`web/figures/${f.name}.d.ts`);
    assert.match(types, new RegExp(`export declare class ${f.className} extends PnFigure`), `${f.name}.d.ts declares ${f.className}`);
    assert.match(types, new RegExp(`'${f.tag}': ${f.className}`), `${f.name}.d.ts maps <${f.tag}>`);
  }
});

test('index.js and index.d.ts export every figure of the registry, and no other', async () => {
  const index = await import('../web/figures/index.js');
  assert.deepEqual(Object.keys(index).sort(), [...FIGURES.map((f) => f.className), 'configure', 'figureSettings'].sort());
  const exportsOf = (text) => [...text.matchAll(/^export \{ (Posnorm\w+) \} from '\.\/([\w-]+)\.js';$/gm)].map((m) => [m[1], m[2]]).sort();
  const expected = FIGURES.map((f) => [f.className, f.name]).sort();
  assert.deepEqual(exportsOf(read('web/figures/index.js')), expected, 'index.js');
  assert.deepEqual(exportsOf(read('web/figures/index.d.ts')), expected, 'index.d.ts');
  // every value index.d.ts declares, in any form, is one index.js exports, and every one it exports is declared
  assert.deepEqual(declaredValueExports(read('web/figures/index.d.ts'), 'index.d.ts'), Object.keys(index).sort(), 'index.d.ts against index.js');
});

/** A package.json glob as a RegExp: `*` within a path segment, `**` across. */
const glob = (pattern) => new RegExp(`^${pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*\*/g, '\0').replace(/\*/g, '[^/]*').replace(/\0/g, '.*')}$`);

test('package.json exports every figure as posnorm/figures/NAME with its types, holds the rest of web/figures back, and marks the figure modules as side effects', async () => {
  const pattern = pkg.exports['./figures/*'];
  for (const f of FIGURES) {
    assert.equal(import.meta.resolve(`posnorm/figures/${f.name}`), pathToFileURL(join(root, 'web/figures', f.module)).href, f.name);
    assert.ok(existsSync(join(root, pattern.types.replace('*', f.name))), `types of ${f.name}`);
  }
  assert.equal(import.meta.resolve('posnorm/figures'), pathToFileURL(join(root, 'web/figures/index.js')).href);
  // every other module under web/figures/ is refused
  const modules = readdirSync(join(root, 'web/figures'), { recursive: true }).filter((p) => p.endsWith('.js'));
  const figureModules = new Set(FIGURES.map((f) => f.module));
  const internal = modules.filter((p) => !figureModules.has(p));
  assert.ok(internal.includes('core/base.js') && internal.includes('registry.js') && internal.includes('index.js'));
  for (const p of internal) {
    await assert.rejects(import(`posnorm/figures/${p.slice(0, -3)}`), { code: 'ERR_PACKAGE_PATH_NOT_EXPORTED' }, p);
  }
  const sideEffects = pkg.sideEffects.map(glob);
  const marked = (p) => sideEffects.some((g) => g.test(`./web/figures/${p}`));
  for (const p of [...figureModules, 'index.js']) assert.ok(marked(p), `${p} registers elements: a side effect`);
  for (const p of internal.filter((q) => q.includes('/'))) assert.ok(!marked(p), `${p} has no side effect`);
  // the package's entry adds ropeFromConfig to Posnorm's prototype; the core it re-exports has none
  assert.ok(sideEffects.some((g) => g.test('./src/js/posnorm.js')), 'src/js/posnorm.js adds pn.ropeFromConfig: a side effect');
  assert.ok(!sideEffects.some((g) => g.test('./src/js/posnorm-core.js')), 'src/js/posnorm-core.js has no side effect');
});

test('the demo page holds every figure once, in the registry\'s order, under its part; its top figure comes with the page', () => {
  const html = read('web/index.html');
  for (const part of ['A', 'B']) {
    const section = html.split(`<section aria-labelledby="part-${part.toLowerCase()}">`)[1].split('</section>')[0];
    const tags = [...section.matchAll(/<(posnorm-[a-z-]+)[\s>]/g)].map((m) => m[1]);
    assert.deepEqual(tags, FIGURES.filter((f) => f.part === part).map((f) => f.tag), `part ${part}`);
  }
  assert.match(read('web/page.js'), new RegExp(`^import '\\./figures/${FIGURES[0].module.replace('.', '\\.')}';`, 'm'), 'page.js imports the top figure itself');
});

/** A number as the docs write it: '−3' with a real minus, '1e-8'. */
const docNumber = (s) => Number(s.replace('−', '-'));

test('each figure\'s .d.ts declares every control with the attribute, range, default and choices of its controls', async () => {
  for (const f of FIGURES) {
    const { [f.className]: cls } = await f.load();
    const types = read(`web/figures/${f.name}.d.ts`);
    for (const c of cls.controls) {
      const m = types.match(new RegExp(`/\\*\\* attribute ([^*]*?) \\*/\\n\\s*${c.prop}: ([^;]+);`));
      assert.ok(m, `${f.name}.d.ts declares ${c.prop} with its attribute`);
      const [, doc, type] = m;
      const where = `${f.name}.${c.prop}: "${doc}"`;
      assert.equal(doc.match(/^[\w-]+/)[0], c.attr, where);
      if (c.kind === 'choice') {
        assert.deepEqual([...type.matchAll(/'([^']*)'/g)].map((x) => x[1]).sort(), [...c.choices].sort(), where);
      } else if (c.kind === 'text') {
        assert.equal(type, 'string', where);
        assert.ok(c.hidden && c.pattern instanceof RegExp && c.maxLength > 0, `${where}: a text control is hidden, with a pattern and a length`);
      } else {
        assert.equal(type, 'number', where);
      }
      const range = doc.match(/(−?[\d.e-]+)…(−?[\d.e-]+)(?![\w/·^])/);
      // a slider the reader sees says its range (a range that depends on another control may be written in words)
      if (!c.hidden && c.kind !== 'choice' && typeof c.min === 'number' && typeof c.max === 'number') assert.ok(range, `${where}: its range min…max`);
      if (range && typeof c.min === 'number') assert.equal(docNumber(range[1]), c.min, `${where}: min`);
      if (range && typeof c.max === 'number') assert.equal(docNumber(range[2]), c.max, `${where}: max`);
      // a default is a number, a quoted choice, or a quoted string (which may be empty: '')
      const def = doc.match(/default (?:'([^']*)'|"([^"]*)"|([^\s,:)]+))/);
      assert.ok(def, `${where}: its default`);
      const defText = def[1] ?? def[2] ?? def[3];
      assert.equal(c.kind === 'choice' || c.kind === 'text' ? defText : docNumber(defText), c.def, `${where}: default`);
    }
  }
});

test('docs/figures.md lists every control of each figure with its range and default, as its controls have them', async () => {
  const doc = read('docs/figures.md');
  for (const f of FIGURES) {
    const { [f.className]: cls } = await f.load();
    const row = doc.split('\n').find((l) => l.startsWith(`| \`<${f.tag}>\` |`));
    assert.ok(row, `docs/figures.md has a row for <${f.tag}>`);
    const cell = row.split(' | ')[1];
    const at = cls.controls.map((c) => [c, cell.indexOf(`\`${c.attr}\``)]);
    for (const [c, start] of at) {
      const where = `${f.name}.${c.attr} in docs/figures.md`;
      assert.ok(start >= 0, where);
      const end = Math.min(...at.map(([, s]) => s).filter((s) => s > start), cell.length);
      const text = cell.slice(start, end);
      const def = text.match(/\(`?([^()`]+)`?\)[,\s]*$/);
      assert.ok(def, `${where}: its default in brackets: "${text}"`);
      const docDefault = c.kind === 'choice' ? def[1] : c.kind === 'text' ? def[1].replace(/^'(.*)'$/, '$1') : docNumber(def[1]);
      assert.equal(docDefault, c.def, `${where}: default`);
      const range = text.match(/(−?[\d.e-]+)…(−?[\d.e-]+)(?![\w/·^])/);
      if (!c.hidden && c.kind !== 'choice' && typeof c.min === 'number' && typeof c.max === 'number') assert.ok(range, `${where}: its range min…max`);
      if (range && typeof c.min === 'number') assert.equal(docNumber(range[1]), c.min, `${where}: min`);
      if (range && typeof c.max === 'number') assert.equal(docNumber(range[2]), c.max, `${where}: max`);
      if (c.kind === 'choice') {
        const choices = docChoices(text, c);
        assert.ok(choices || c.hidden, `${where}: its choices, slash-separated after the name: "${text}"`);
        if (choices) assert.deepEqual(choices, [...c.choices].sort(), `${where}: its choices "${text}", against the control's`);
      }
    }
  }
});

/**
 * The choices the docs give a choice control, sorted: the list after its
 * name (and after its property name, `attr` / `prop`, where written), its
 * entries slash-separated, each bare or in backticks — `layout`
 * interleaved/concat, `type` `float32` / `bfloat16` / `float16` — or, for a
 * hidden control, "a permutation of `012`": every permutation of those
 * characters. Null where neither is written.
 */
function docChoices(text, c) {
  const rest = text.slice(`\`${c.attr}\``.length).replace(new RegExp(`^ / \`${c.prop}\``), '');
  const list = rest.match(/^\s+(`?[\w.-]+`?(?:\s*\/\s*`?[\w.-]+`?)+)(?![\w/`])/);
  if (list) return list[1].split('/').map((x) => x.trim().replace(/^`(.*)`$/, '$1')).sort();
  const perm = rest.match(/^\s+a permutation of `(\w+)`/);
  if (!perm) return null;
  const permutations = (s) => (s.length <= 1 ? [s] : [...s].flatMap((ch, k) => permutations(s.slice(0, k) + s.slice(k + 1)).map((p) => ch + p)));
  return [...new Set(permutations(perm[1]))].sort();
}
