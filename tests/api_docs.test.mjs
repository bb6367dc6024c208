// The API reference (docs/api.md) and the types in src/js/posnorm.d.ts name
// the same calls and the same options — in the summary table's signatures
// and in each call's option table: a call or an option added to one and not
// the other fails here, so the reference cannot drift from the code. The
// defaults the reference states are checked against the calls themselves.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { init } from '../src/js/posnorm.js';
import { declaredValueExports } from './helpers.mjs';

const root = new URL('..', import.meta.url);
const API_DOC = 'docs/api.md';
const read = (path) => readFileSync(new URL(path, root), 'utf8');

/** Top-level comma-separated parts of `s` (brackets and quotes respected). */
function splitTop(s) {
  const parts = [];
  let depth = 0, quote = null, start = 0;
  for (let k = 0; k < s.length; k++) {
    const c = s[k];
    if (quote) { if (c === quote) quote = null; continue; }
    if (c === "'" || c === '"' || c === '`') quote = c;
    else if ('({[<'.includes(c)) depth++;
    else if (')}]>'.includes(c)) depth--;
    else if (c === ',' && depth === 0) { parts.push(s.slice(start, k)); start = k + 1; }
  }
  parts.push(s.slice(start));
  return parts.map((p) => p.trim()).filter(Boolean);
}

/** The text between the bracket at `open` and its partner. */
function bracketed(s, open) {
  const pairs = { '(': ')', '{': '}', '<': '>' };
  let depth = 0;
  for (let k = open; k < s.length; k++) {
    if (s[k] === s[open]) depth++;
    else if (s[k] === pairs[s[open]] && --depth === 0) return s.slice(open + 1, k);
  }
  throw new Error(`unbalanced ${s[open]} at ${open}`);
}

/** Option names of an object type's body `a: T; b?: U; /** doc *\/ c: V`. */
function members(body) {
  const names = new Set();
  const clean = body.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');
  let depth = 0, at = 0;
  for (let k = 0; k <= clean.length; k++) {
    const c = clean[k];
    if ('({[<'.includes(c)) depth++;
    else if (')}]>'.includes(c)) depth--;
    else if ((c === ';' || c === ',' || c === '\n' || c === undefined) && depth === 0) {
      const m = clean.slice(at, k).trim().match(/^(\w+)\??\s*:/);
      if (m) names.add(m[1]);
      at = k + 1;
    }
  }
  return names;
}

/** calls → option names, from the Posnorm class of the .d.ts (and init). */
function typedApi() {
  const dts = read('src/js/posnorm.d.ts');
  const interfaces = new Map();
  for (const m of dts.matchAll(/export interface (\w+)(?:<[^{]*>)?\s*\{/g)) {
    interfaces.set(m[1], members(bracketed(dts, m.index + m[0].length - 1)));
  }
  const optionsOf = (param) => {
    const type = param.replace(/^\w+\??\s*:\s*/, '');
    if (type.startsWith('{')) return members(bracketed(type, 0));
    const name = type.match(/^(\w+)/)?.[1];
    return interfaces.get(name) ?? new Set();
  };
  const api = new Map([['init', interfaces.get('InitOptions')]]);
  const cls = dts.indexOf('export declare class Posnorm');
  const body = bracketed(dts, dts.indexOf('{', cls)).replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');
  for (const m of body.matchAll(/^\s*(\w+)(<[^(]*>)?\(/gm)) {
    // (the constructor no caller can satisfy is not a call)
    if (m[1] === 'constructor') continue;
    const params = splitTop(bracketed(body, m.index + m[0].length - 1));
    const options = api.get(m[1]) ?? new Set();
    for (const p of params) if (/^(options|opts)\??:/.test(p)) for (const o of optionsOf(p)) options.add(o);
    api.set(m[1], options);
  }
  return api;
}

/** calls → option names, from the summary table of the docs (its first column). */
function documentedApi() {
  const doc = read(API_DOC);
  const api = new Map();
  for (const line of doc.replace(/\\\|/g, '¦').split('\n')) {
    const cell = line.match(/^\| (`[^|]*`(?:, `[^|]*`)*) \|/)?.[1];
    if (!cell) continue;
    for (const code of cell.matchAll(/`([^`]+)`/g)) {
      const m = code[1].match(/^(\w+)\(/);
      if (!m) continue;
      const options = api.get(m[1]) ?? new Set();
      for (const arg of splitTop(bracketed(code[1], m[0].length - 1))) {
        if (!arg.startsWith('{')) continue;
        for (const part of splitTop(bracketed(arg, 0))) {
          const name = part.match(/^(\w+)\??/)?.[1];
          if (name) options.add(name);
        }
      }
      api.set(m[1], options);
    }
  }
  return api;
}

/**
 * calls → option names, from each call's section: a `### \`call(x, options)\``
 * heading and the first column of the option table under it (rows marked
 * "(argument)" are positional arguments, not options).
 */
function optionTables() {
  const tables = new Map();
  let calls = [];
  for (const line of read(API_DOC).split('\n')) {
    if (/^#{1,3} /.test(line)) {
      calls = [...line.matchAll(/`(\w+)\([^)]*\boptions\b[^)]*\)`/g)].map((m) => m[1]);
      for (const c of calls) tables.set(c, new Set());
      continue;
    }
    const cell = line.match(/^\| ([^|]+) \|/)?.[1];
    if (!cell || !calls.length || cell.includes('(argument)') || cell === 'option') continue;
    for (const m of cell.matchAll(/`(\w+)`/g)) for (const c of calls) tables.get(c).add(m[1]);
  }
  return tables;
}

test('the API reference documents every call of the types and nothing else', async () => {
  const typed = typedApi(), documented = documentedApi();
  // the calls that are plumbing, not kernels, are documented in prose
  const plumbing = new Set(['heapStats']);
  const typedCalls = [...typed.keys()].filter((k) => !plumbing.has(k)).sort();
  assert.deepEqual([...documented.keys()].sort(), typedCalls);
  // and the types name every method the instance really has
  const pn = await init();
  const methods = Object.getOwnPropertyNames(Object.getPrototypeOf(pn)).filter((k) => typeof pn[k] === 'function' && k !== 'constructor' && !k.startsWith('_'));
  assert.deepEqual(methods.sort(), [...typed.keys()].filter((k) => k !== 'init').sort());
});

test('each call names the same options in the API reference and in the types', () => {
  const typed = typedApi(), documented = documentedApi();
  const drift = [];
  for (const [call, options] of documented) {
    const types = typed.get(call);
    for (const o of options) if (!types.has(o)) drift.push(`${call}: "${o}" is documented but not in the types`);
    for (const o of types) if (!options.has(o)) drift.push(`${call}: "${o}" is in the types but not documented`);
  }
  assert.deepEqual(drift, []);
  assert.ok(documented.get('rope').size >= 15 && documented.get('init').size === 2, 'the parser reads the option lists');
});

test("each call's option table names exactly the options of its types", () => {
  const typed = typedApi(), tables = optionTables();
  const drift = [];
  for (const [call, types] of typed) {
    if (call === 'init' || types.size === 0) continue;
    const table = tables.get(call);
    if (!table) { drift.push(`${call}: no section with an option table`); continue; }
    for (const o of table) if (!types.has(o)) drift.push(`${call}: "${o}" is in its option table but not in the types`);
    for (const o of types) if (!table.has(o)) drift.push(`${call}: "${o}" is in the types but not in its option table`);
  }
  assert.deepEqual(drift, []);
  assert.ok(tables.get('rope').size >= 15 && tables.get('gram').has('cols'), 'the parser reads the tables');
});

test('the API reference names every export of the module, and the types declare exactly what it exports', async () => {
  const dts = read('src/js/posnorm.d.ts');
  const declared = declaredValueExports(dts, 'posnorm.d.ts');
  const exported = Object.keys(await import('../src/js/posnorm.js')).sort();
  assert.deepEqual(declared, exported, 'posnorm.d.ts against the module');
  const doc = read(API_DOC);
  assert.deepEqual(exported.filter((name) => !doc.includes(`\`${name}\``) && !doc.includes(`\`${name}(`)), [], 'named in docs/api.md');
});

/** A default as the reference writes it — 10000, 1e-5, 'bshd', true — as a value; undefined when it is words or an expression. */
function literal(text) {
  const s = text.trim().replace(/^`(.*)`$/, '$1');
  if (/^'[^']*'$/.test(s)) return s.slice(1, -1);
  if (s === 'true' || s === 'false') return s === 'true';
  return /^-?\d[\d.]*(e-?\d+)?$/.test(s) ? Number(s) : undefined;
}

/** call → option → default, from the summary's signatures (`base = 10000`) and from the option tables' default column. */
function documentedDefaults() {
  const summary = new Map(), tables = new Map();
  const put = (map, call, name, value) => {
    if (value === undefined) return;
    if (!map.has(call)) map.set(call, new Map());
    map.get(call).set(name, value);
  };
  const doc = read(API_DOC);
  for (const line of doc.replace(/\\\|/g, '¦').split('\n')) {
    const cell = line.match(/^\| (`[^|]*`(?:, `[^|]*`)*) \|/)?.[1];
    for (const code of cell?.matchAll(/`([^`]+)`/g) ?? []) {
      const m = code[1].match(/^(\w+)\(/);
      if (!m) continue;
      for (const arg of splitTop(bracketed(code[1], m[0].length - 1)).filter((a) => a.startsWith('{'))) {
        for (const part of splitTop(bracketed(arg, 0))) {
          const d = part.match(/^(\w+) = (.+)$/);
          if (d) put(summary, m[1], d[1], literal(d[2]));
        }
      }
    }
  }
  let calls = [];
  for (const line of doc.split('\n')) {
    if (/^#{1,3} /.test(line)) {
      calls = [...line.matchAll(/`(\w+)\([^)]*\boptions\b[^)]*\)`/g)].map((m) => m[1]);
      continue;
    }
    const row = line.match(/^\| `(\w+)` \| ([^|]+) \|/);
    if (row) for (const c of calls) put(tables, c, row[1], literal(row[2]));
  }
  return { summary, tables };
}

// Small valid arguments for each call, made anew for each run (batchNorm
// updates its running statistics in place); the last argument is the options.
const f32 = (n, k = 1) => Float32Array.from({ length: n }, (_, i) => Math.sin(k * (i + 1)) * 2 + 0.25);
const CALLS = {
  positionalEncoding: () => [{ seqLen: 5, dModel: 6 }],
  peSample: () => [{ n: 5, dim: 3, dModel: 8 }],
  layerNorm: () => [f32(12), { cols: 4 }],
  rmsNorm: () => [f32(12), { cols: 4 }],
  batchNorm: () => [f32(12), { cols: 4, runningMean: f32(4, 2), runningVar: f32(4, 3).map(Math.abs) }],
  rope: () => [f32(24), { seqLen: 3, heads: 2, headDim: 4 }],
  ropeFrequencies: () => [{ dim: 8, scaling: { type: 'dynamic', factor: 2, originalMaxPositions: 4 } }],
  // longrope, where seqLen chooses between the short and the long factors
  ropeFromConfig: () => [JSON.parse(read('tests/fixtures/hf-configs/phi-3.5-mini-instruct.json')), {}],
  randomNormal: () => [5, {}],
  colormap: () => [f32(6, 0.3).map((v) => v / 3), {}],
  peShift: () => [f32(8).map(Math.sin), { k: 3 }],
  residualStack: () => [f32(8), f32(32, 0.7).map((v) => v / 4), { width: 4, layers: 2 }],
  transformerBlock: () => [f32(24), f32(768, 0.9).map((v) => v / 8), { dModel: 8 }],
  layerNormSteps: () => [f32(6), {}],
};

test('every default the reference states is the same in its summary and its option table, and is the one the call takes', async () => {
  const { summary, tables } = documentedDefaults();
  const pn = await init();
  const checked = [];
  for (const [call, defaults] of summary) {
    for (const [name, value] of defaults) {
      const where = `${call}: ${name} = ${JSON.stringify(value)}`;
      if (tables.get(call)?.has(name)) assert.equal(tables.get(call).get(name), value, `${where} in the summary, ${JSON.stringify(tables.get(call).get(name))} in its option table`);
      assert.ok(CALLS[call], `${where}: the test has no arguments for ${call}`);
      const omitted = CALLS[call]();
      const given = CALLS[call]();
      assert.ok(!(name in omitted.at(-1)), `${where}: the test's arguments leave ${name} out`);
      given.at(-1)[name] = value;
      const withIt = pn[call](...given);
      delete given.at(-1)[name];
      // the results, and what the call wrote into its arguments
      assert.deepStrictEqual([withIt, given], [pn[call](...omitted), omitted], `${where}: a call without ${name} is the call with it`);
      checked.push(where);
    }
  }
  assert.ok(checked.length >= 30, `${checked.length} defaults checked`);
});

test('the scaling table names, for each rope_scaling type, the keys of its type in posnorm.d.ts, required ones first', () => {
  const dts = read('src/js/posnorm.d.ts');
  const union = dts.slice(dts.indexOf('export type RopeScaling ='), dts.indexOf(';\n', dts.indexOf('export type RopeScaling =')));
  const typed = new Map();
  for (const m of union.matchAll(/\{ type: '(\w+)'; ([^}]*)\}/g)) {
    const keys = [...m[2].matchAll(/(\w+)(\??):/g)];
    typed.set(m[1], { required: keys.filter((k) => !k[2]).map((k) => k[1]).sort(), optional: keys.filter((k) => k[2]).map((k) => k[1]).sort() });
  }
  const documented = new Map();
  for (const m of read(API_DOC).matchAll(/^\| `'(\w+)'` \| ([^|]+) \|/gm)) {
    const [required, optional = ''] = m[2].split(';');
    const names = (s) => [...s.matchAll(/`(\w+)`/g)].map((k) => k[1]).sort();
    documented.set(m[1], { required: names(required), optional: names(optional) });
  }
  assert.ok(typed.size >= 5, 'the parser reads the union');
  assert.deepEqual(Object.fromEntries(documented), Object.fromEntries(typed));
});

test("the scaling table's defaults (`name` = value) are the ones ropeFrequencies takes", async () => {
  const pn = await init();
  // the required options of each type, small and valid: the defaults are checked against them
  const REQUIRED = {
    linear: { factor: 4 },
    dynamic: { factor: 4, originalMaxPositions: 2048 },
    yarn: { factor: 4, originalMaxPositions: 2048 },
    llama3: { factor: 8, originalMaxPositions: 2048, lowFreqFactor: 1, highFreqFactor: 4 },
    longrope: { originalMaxPositions: 2048, shortFactor: Array(32).fill(1.5), longFactor: Array(32).fill(3) },
  };
  const checked = [];
  for (const m of read(API_DOC).matchAll(/^\| `'(\w+)'` \| ([^|]+) \|/gm)) {
    for (const d of m[2].matchAll(/`(\w+)` = ([^,\s]+)/g)) {
      const [, name, text] = d;
      const value = literal(text);
      const type = m[1], where = `${type}: ${name} = ${text}`;
      assert.ok(REQUIRED[type], `${where}: the test has no options for ${type}`);
      const call = (extra) => pn.ropeFrequencies({ dim: 64, seqLen: 10000, scaling: { type, ...REQUIRED[type], ...extra } });
      assert.deepStrictEqual(call({ [name]: value }), call({}), `${where}: a call without ${name} is the call with it`);
      // and the default is not one every value gives (the option does something here)
      assert.notDeepStrictEqual(call({ [name]: typeof value === 'boolean' ? !value : value * 2 }), call({}), `${where}: another value changes nothing here`);
      checked.push(where);
    }
  }
  assert.ok(checked.length >= 3, `${checked.length} defaults checked: ${checked}`);
});
