// The API reference (docs/api.md) and the types in src/js/posnorm.d.ts name
// the same calls and the same options — in the summary table's signatures
// and in each call's option table: a call or an option added to one and not
// the other fails here, so the reference cannot drift from the code. The
// defaults the reference states (in the summary and in every option table,
// in words too) are checked against the calls themselves, with the option
// and without it, and another value must change the result (an option read
// and then ignored passes the first check alone); and each call's own list
// of the options it takes (its error for an unknown one) must be the
// documented list.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { init, simdSupported } from '../src/js/posnorm.js';
import { declaredValueExports, maxAbsDiff, named, normals } from './helpers.mjs';
import { transformerBlock as blockRef } from './reference/block.mjs';
import { batchNorm as batchNormRef, columnStats, layerNorm, rmsNorm } from './reference/norms.mjs';
import { randomNormals } from './reference/random.mjs';
import { forward as stackForward } from './reference/residual_stack.mjs';

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

/** Calls `fn(call, option, text)` for every `option = text` in the signatures of the summary table's first cells (`doc` with its escaped pipes replaced). */
function summaryDefaults(doc, fn) {
  for (const line of doc.split('\n')) {
    const cell = line.match(/^\| (`[^|]*`(?:, `[^|]*`)*) \|/)?.[1];
    for (const code of cell?.matchAll(/`([^`]+)`/g) ?? []) {
      const m = code[1].match(/^(\w+)\(/);
      if (!m) continue;
      for (const arg of splitTop(bracketed(code[1], m[0].length - 1)).filter((a) => a.startsWith('{'))) {
        for (const part of splitTop(bracketed(arg, 0))) {
          const d = part.match(/^(\w+) = (.+)$/);
          if (d) fn(m[1], d[1], d[2]);
        }
      }
    }
  }
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
  summaryDefaults(doc.replace(/\\\|/g, '¦'), (call, name, text) => put(summary, call, name, literal(text)));
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
  // (the calls whose defaults are not literals in the summary: their option tables)
  roundToPrecision: () => [f32(6), { precision: 'bfloat16' }],
  alibi: () => [{ heads: 2, seqLen: 3 }],
  histogram: () => [f32(12), { bins: 4 }],
  attention: () => [f32(12), { dModel: 4, wq: f32(16, 2).map((v) => v / 4), wk: f32(16, 3).map((v) => v / 4), wv: f32(16, 4) }],
  gram: () => [f32(12), { cols: 4 }],
  minRowDistance: () => [f32(12), { cols: 4 }],
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

// ---- every default of the option tables, what each option does, and the names the calls take ----

/**
 * The defaults as the reference writes them, before any reading of them:
 * `tables`, call → option → { text, allowed } (the default and allowed
 * cells of each call's option table), and `summary`, call → option → text
 * (the summary's `name = text`).
 */
function defaultTexts() {
  const doc = read(API_DOC).replace(/\\\|/g, '¦');
  const tables = new Map(), summary = new Map();
  const put = (map, call, name, value) => {
    if (!map.has(call)) map.set(call, new Map());
    map.get(call).set(name, value);
  };
  let calls = [];
  for (const line of doc.split('\n')) {
    if (/^#{1,3} /.test(line)) {
      calls = [...line.matchAll(/`(\w+)\([^)]*\boptions\b[^)]*\)`/g)].map((m) => m[1]);
      continue;
    }
    const row = line.match(/^\| `(\w+)` \| ([^|]+) \| ([^|]+) \|\s*$/);
    if (row) for (const c of calls) put(tables, c, row[1], { text: row[2].trim(), allowed: row[3].trim() });
  }
  summaryDefaults(doc, (call, name, text) => put(summary, call, name, text.trim()));
  return { tables, summary };
}

/**
 * Calls `call` with the test's arguments (`make`, CALLS[call] unless told)
 * and the options `given` added; returns [the result, the arguments after
 * the call without the options added] — what the call wrote into its
 * arguments (batchNorm's running statistics) is compared too.
 */
function callWith(pn, call, given = {}, make = CALLS[call]) {
  const args = make();
  const o = args.at(-1);
  for (const k of Object.keys(given)) assert.ok(!(k in o), `${call}: the test's arguments leave ${k} out`);
  Object.assign(o, given);
  const result = pn[call](...args);
  for (const k of Object.keys(given)) delete o[k];
  return [result, args];
}

/** The array of a result that an `out`-like option would receive. */
const OUT_OF = { out: (r) => r.y ?? r, meanOut: (r) => r.mean, invStdDevOut: (r) => r.invStdDev, invRmsOut: (r) => r.invRms };

/**
 * Another value for each literal default (numbers, choices, booleans; for
 * gamma and beta the value every entry of the array takes): valid for the
 * test's arguments, and one that changes the result there. An option the
 * call reads but ignores (the value passed on is a constant) passes a
 * with-and-without comparison at its default; it fails this one.
 */
const ALTERNATIVE = {
  'positionalEncoding.base': 100, 'positionalEncoding.offset': 3, 'positionalEncoding.layout': 'concat', 'positionalEncoding.precision': 'float32',
  'peSample.base': 100, 'peSample.start': 0.5, 'peSample.step': 0.5,
  // eps × 100: the rows' variance (about 2) makes a change of 1e-3 far larger than float32's rounding
  'layerNorm.gamma': 2, 'layerNorm.beta': 0.5, 'layerNorm.eps': 1e-3,
  'rmsNorm.gamma': 2, 'rmsNorm.eps': 1e-4,
  'batchNorm.gamma': 2, 'batchNorm.beta': 0.5, 'batchNorm.eps': 1e-3, 'batchNorm.training': false, 'batchNorm.momentum': 0.5,
  'rope.layout': 'bhsd', 'rope.base': 100, 'rope.offset': 2, 'rope.interleaved': true,
  // (at positions 0…2 the float32 code's angles are the float64 ones: far positions tell them apart)
  'rope.precision': { value: 'float32', make: () => { const a = CALLS.rope(); a[1].offset = 123457; return a; } },
  // the test's dynamic scaling (original length 4) grows its base past 4 positions
  'ropeFrequencies.base': 100, 'ropeFrequencies.seqLen': 100,
  // Phi-3.5's long factors past its original 4096 positions
  'ropeFromConfig.seqLen': 10000,
  'randomNormal.mean': 1, 'randomNormal.std': 2, 'randomNormal.seed': 1,
  'colormap.map': 'sequential', 'colormap.vmax': 2,
  'peShift.base': 100,
  'residualStack.block': 'post-ln', 'residualStack.scale': 0.5, 'residualStack.gelu': 'erf', 'residualStack.gradients': true,
  'transformerBlock.heads': 2, 'transformerBlock.placement': 'post', 'transformerBlock.norm': 'rms', 'transformerBlock.gelu': 'tanh', 'transformerBlock.eps': 1e-3,
  'layerNormSteps.gamma': 2, 'layerNormSteps.beta': 0.5, 'layerNormSteps.eps': 1e-3,
};
/** Literal defaults with no other value to try, and why. */
const NO_ALTERNATIVE = { 'rope.batch': 'another batch needs another x (x.length = batch·seqLen·heads·headDim)' };

/** `call` with `make`'s arguments, with `given` and without: the same (result and arguments). */
function same(pn, call, given, make, where) {
  assert.deepStrictEqual(callWith(pn, call, given, make), callWith(pn, call, {}, make), `${where}: a call without ${Object.keys(given)} is the call with ${JSON.stringify(given, (k, v) => (ArrayBuffer.isView(v) ? `${v.constructor.name}[${v.length}]` : v))}`);
}
/** `call` with `given` (and `make`'s arguments, or `makeGiven`'s) differs from the call without. */
function differs(pn, call, given, make, where, makeGiven = make) {
  assert.notDeepStrictEqual(callWith(pn, call, given, makeGiven), callWith(pn, call, {}, make), `${where}: ${JSON.stringify(given, (k, v) => (ArrayBuffer.isView(v) ? `${v.constructor.name}[${v.length}]` : v))} changes nothing (the option is not used)`);
}

const COMPUTE_TEXT = "`'float32'` for `'bfloat16'`/`'float16'`; none otherwise";
/** compute: 'float32' for the 16-bit types ('low' differs there), a TypeError naming compute for the others. */
function computeDefault(call, make) {
  return (pn, where) => {
    for (const precision of ['bfloat16', 'float16']) {
      const mk = () => { const a = make(); a.at(-1).precision = precision; return a; };
      same(pn, call, { compute: 'float32' }, mk, `${where}, precision '${precision}'`);
      differs(pn, call, { compute: 'low' }, mk, `${where}, precision '${precision}'`);
    }
    for (const precision of [undefined, 'float64', 'float32']) {
      const args = make();
      if (precision) args.at(-1).precision = precision;
      args.at(-1).compute = 'float32';
      assert.throws(() => pn[call](...args), named(call, TypeError, 'compute'), `${where}: none with precision ${precision}`);
    }
  };
}

/** A histogram's data: its smallest finite value −2, its largest 5, beside ±Inf and NaN. */
const HIST_X = () => new Float32Array([3, -2, Infinity, -Infinity, NaN, 5, 0.5, 1]);
/** Values either side of both documented vmin defaults (−1 and 0) and of vmax 1. */
const COLOR_X = () => new Float32Array([-1.5, -0.9, -0.4, 0, 0.3, 0.8, 1.2]);

/**
 * The defaults written in words, each with its text as the reference has
 * it (a reworded default fails until its check here is looked at again)
 * and a check of what those words say, written from them.
 */
const WORDED = {
  'positionalEncoding.compute': { text: COMPUTE_TEXT, check: computeDefault('positionalEncoding', () => [{ seqLen: 300, dModel: 8 }]) },
  'rope.compute': { text: COMPUTE_TEXT, check: computeDefault('rope', () => [f32(16), { seqLen: 2, heads: 1, headDim: 8, offset: 300 }]) },
  'rope.rotaryDim': {
    text: 'headDim rounded down to even',
    check: (pn, where) => {
      for (const [headDim, rotaryDim] of [[5, 4], [4, 4], [7, 6]]) {
        const mk = () => [f32(3 * 2 * headDim), { seqLen: 3, heads: 2, headDim }];
        same(pn, 'rope', { rotaryDim }, mk, `${where}, headDim ${headDim}`);
        differs(pn, 'rope', { rotaryDim: 2 }, mk, `${where}, headDim ${headDim}`);
      }
    },
  },
  'rope.scaling': {
    text: 'none',
    check: (pn, where) => {
      same(pn, 'rope', { scaling: null }, CALLS.rope, where);
      differs(pn, 'rope', { scaling: { type: 'linear', factor: 2 } }, CALLS.rope, where);
    },
  },
  'ropeFrequencies.scaling': {
    text: 'none (plain RoPE)',
    check: (pn, where) => {
      const mk = () => [{ dim: 8 }];
      // plain RoPE: w_i = 10000^(−2i/8) = 10^−i, rounded once; no attention factor
      assert.deepStrictEqual(pn.ropeFrequencies(...mk()), { invFreq: new Float32Array([1, 0.1, 0.01, 0.001]), attentionFactor: 1 }, where);
      same(pn, 'ropeFrequencies', { scaling: null }, mk, where);
      differs(pn, 'ropeFrequencies', { scaling: { type: 'linear', factor: 2 } }, mk, where);
    },
  },
  'residualStack.memory': {
    text: 'none',
    check: (pn, where) => {
      // weights for W_l and C_l: without memory the first layers·width² are W
      const mk = () => [f32(8), f32(64, 0.7).map((v) => v / 4), { width: 4, layers: 2 }];
      differs(pn, 'residualStack', { memory: f32(4, 0.2) }, mk, where);
      // without memory, the plain stack of the first 2·16 weights alone (no branch m·scale·C_l), as the float64 reference
      const [x0, weights, o] = mk();
      const want = stackForward(x0, weights.subarray(0, 32), { ...o, block: 'plain' }).std;
      assert.ok(maxAbsDiff(pn.residualStack(x0, weights, o), want) <= 1e-5 * Math.max(...want), `${where}: against the stack without memory`);
    },
  },
  'histogram.min': {
    text: 'the smallest finite value',
    check: (pn, where) => {
      same(pn, 'histogram', { min: -2 }, () => [HIST_X(), { bins: 4, max: 5 }], where);
      same(pn, 'histogram', { min: -2, max: 5 }, () => [HIST_X(), { bins: 4 }], where);
      assert.equal(pn.histogram(HIST_X(), { bins: 4, max: 5 }).min, -2, where);
      differs(pn, 'histogram', { min: -3 }, () => [HIST_X(), { bins: 4, max: 5 }], where);
    },
  },
  'histogram.max': {
    text: 'the largest finite value',
    check: (pn, where) => {
      same(pn, 'histogram', { max: 5 }, () => [HIST_X(), { bins: 4, min: -2 }], where);
      assert.equal(pn.histogram(HIST_X(), { bins: 4, min: -2 }).max, 5, where);
      differs(pn, 'histogram', { max: 6 }, () => [HIST_X(), { bins: 4, min: -2 }], where);
    },
  },
  'colormap.vmin': {
    text: '−1 (diverging), 0 (sequential)',
    check: (pn, where) => {
      const mk = (map) => () => [COLOR_X(), map ? { map } : {}];
      for (const map of [undefined, 'diverging']) {
        same(pn, 'colormap', { vmin: -1 }, mk(map), `${where}, map ${map}`);
        differs(pn, 'colormap', { vmin: 0 }, mk(map), `${where}, map ${map}`);
      }
      same(pn, 'colormap', { vmin: 0 }, mk('sequential'), `${where}, map 'sequential'`);
      differs(pn, 'colormap', { vmin: -1 }, mk('sequential'), `${where}, map 'sequential'`);
      // vmax 1 with either map
      same(pn, 'colormap', { vmax: 1 }, mk('sequential'), `${where}, vmax with map 'sequential'`);
    },
  },
  'attention.dHead': {
    text: 'dModel',
    check: (pn, where) => {
      same(pn, 'attention', { dHead: 4 }, CALLS.attention, where);
      const half = () => { const a = CALLS.attention(); for (const w of ['wq', 'wk', 'wv']) a[1][w] = a[1][w].subarray(0, 8); return a; };
      differs(pn, 'attention', { dHead: 2 }, CALLS.attention, where, half);
    },
  },
  'transformerBlock.dFF': {
    text: '4·dModel',
    check: (pn, where) => {
      // dModel 8: dFF 32, 4·64 + 2·8·32 = 768 weights
      same(pn, 'transformerBlock', { dFF: 32 }, CALLS.transformerBlock, where);
      const narrow = () => { const a = CALLS.transformerBlock(); a[1] = a[1].subarray(0, 4 * 64 + 2 * 8 * 16); return a; };
      differs(pn, 'transformerBlock', { dFF: 16 }, CALLS.transformerBlock, where, narrow);
    },
  },
  'residualStack.readout': {
    text: 'N(0, 1/(rows·width)), seed 20200',
    check: (pn, where) => {
      const mk = () => [f32(8), f32(32, 0.7).map((v) => v / 4), { width: 4, layers: 2, gradients: true }];
      // rows·width = 8: std 1/√8, from the generator posnorm.h specifies (tests/reference/random.mjs)
      const readout = (seed) => Float32Array.from(randomNormals(8, { seed, std: 1 / Math.sqrt(8) }));
      same(pn, 'residualStack', { readout: readout(20200) }, mk, where);
      differs(pn, 'residualStack', { readout: readout(20201) }, mk, where);
    },
  },
};

test('every default of each option table (and of the summary) is what the call does without the option, and another value changes the result', async () => {
  const { tables, summary } = defaultTexts();
  const pn = await init();
  // the summary's defaults are its option tables', as values or as the same words
  for (const [call, defaults] of summary) {
    for (const [name, text] of defaults) {
      const row = tables.get(call)?.get(name);
      assert.ok(row, `${call}: ${name} = ${text} in the summary, and no row for ${name} in its option table`);
      const a = literal(text), b = literal(row.text);
      if (a !== undefined || b !== undefined) assert.equal(b, a, `${call}: ${name} = ${text} in the summary, ${row.text} in its option table`);
      else assert.equal(row.text, text, `${call}: ${name} = ${text} in the summary, "${row.text}" in its option table`);
    }
  }
  const checked = [], changed = [], failures = [];
  /** One default of an option table: as written, without the option, and another value. */
  function checkDefault(key, where, call, name, text, allowed) {
    if (WORDED[key]) {
      assert.equal(text, WORDED[key].text, `${key}: the reference's words for the default changed: look at its check again`);
      WORDED[key].check(pn, where);
      checked.push(key);
      changed.push(key);
      return;
    }
    assert.ok(CALLS[call], `${where}: the test has no arguments for ${call}`);
    if (text === 'a new array') {
      // an array of the result's type and length, given: the same values, filled in; omitted: a new array, not a view of the module's memory
      const [r] = callWith(pn, call);
      const a = OUT_OF[name]?.(r);
      assert.ok(ArrayBuffer.isView(a), `${where}: the test knows no result for ${name}`);
      assert.notEqual(a.buffer, pn.memory.buffer, `${where}: a new array, not a view of the module's memory`);
      assert.notEqual(OUT_OF[name](callWith(pn, call)[0]), a, `${where}: a new array per call`);
      same(pn, call, { [name]: new a.constructor(a.length) }, CALLS[call], where);
      checked.push(key);
      return;
    }
    const value = literal(text);
    assert.notEqual(value, undefined, `${where}: neither a literal nor a default in words this test knows (add it to WORDED)`);
    // gamma 1, beta 0: an f32 input of cols (or x.length) values, each the default
    const per = allowed.match(/^f32 input of `?(cols|x\.length)`? values/)?.[1];
    const expand = (t) => {
      if (!per) return t;
      const args = CALLS[call]();
      return new Float32Array(per === 'cols' ? args.at(-1).cols : args[0].length).fill(t);
    };
    same(pn, call, { [name]: expand(value) }, CALLS[call], where);
    checked.push(key);
    if (NO_ALTERNATIVE[key]) return;
    assert.ok(key in ALTERNATIVE, `${where}: the test has no other value to try (ALTERNATIVE), nor a reason for none (NO_ALTERNATIVE)`);
    // a value, or { value, make } with arguments of the test's where the value shows
    const alt = ALTERNATIVE[key]?.make ? ALTERNATIVE[key] : { value: ALTERNATIVE[key], make: CALLS[call] };
    assert.notDeepStrictEqual(alt.value, value, `${where}: the alternative is the default`);
    if (alt.make !== CALLS[call]) same(pn, call, { [name]: expand(value) }, alt.make, `${where}, with the alternative's arguments`);
    differs(pn, call, { [name]: expand(alt.value) }, alt.make, where);
    changed.push(key);
  }
  for (const [call, rows] of tables) {
    for (const [name, { text, allowed }] of rows) {
      const key = `${call}.${name}`, where = `${call}: ${name} (default "${text}")`;
      if (text === '—') continue; // required, or no default
      // each default on its own: every one that fails is listed, not the first alone
      try { checkDefault(key, where, call, name, text, allowed); } catch (e) { failures.push(e.message.split('\n')[0]); }
    }
  }
  assert.deepEqual(failures, [], 'documented defaults against the calls');
  // every entry of the test's lists was met in the reference (a default dropped from a table is noticed)
  for (const key of [...Object.keys(WORDED), ...Object.keys(ALTERNATIVE)]) assert.ok(checked.includes(key), `${key}: no longer a default in docs/api.md`);
  assert.ok(checked.length >= 65 && changed.length >= 50, `${checked.length} defaults checked, ${changed.length} changed`);
  // init's simd: 'auto', the SIMD build where SIMD128 validates
  assert.equal((await init()).simd, simdSupported(), "init's simd defaults to 'auto'");
  assert.equal((await init({ simd: 'auto' })).simd, simdSupported());
});

test('eps is the eps used: on data whose variance (1e-4) is far below eps 1e-2, each call equals its float64 reference with the eps given, and with the default without it', async () => {
  const pn = await init();
  const cols = 8, x = normals(4 * cols, { std: 0.01, mean: 0.5, seed: 31 });
  for (const [eps, lnDefault, rmsDefault] of [[1e-2, 1e-2, 1e-2], [undefined, 1e-5, 1e-6]]) {
    const opt = eps === undefined ? {} : { eps };
    const e32 = (t) => Math.fround(t);
    const ln = layerNorm(x, cols, { eps: e32(lnDefault) });
    // |y| about 0.1 with eps 1e-2, about 1.5 with eps 1e-5: 1e-5 is many float32 steps either way, and far from the other eps
    const close = (got, want, what) => assert.ok(maxAbsDiff(got, want) <= 1e-5, `${what} with eps ${eps ?? 'omitted'}: max |y − float64 reference| = ${maxAbsDiff(got, want)}`);
    close(pn.layerNorm(x, { cols, ...opt }).y, ln.y, 'layerNorm');
    close(pn.layerNormSteps(x.subarray(0, cols), opt).y, layerNorm(x.subarray(0, cols), cols, { eps: e32(lnDefault) }).y, 'layerNormSteps');
    close(pn.rmsNorm(x, { cols, ...opt }).y, rmsNorm(x, cols, { eps: e32(rmsDefault) }).y, 'rmsNorm');
    const st = columnStats(x, cols);
    close(pn.batchNorm(x, { cols, ...opt }).y, batchNormRef(x, cols, { mean: st.mean, variance: st.variance, eps: e32(lnDefault) }), 'batchNorm');
    const w = normals(4 * cols * cols + 2 * cols * 4 * cols, { std: 0.5, seed: 32 });
    const got = pn.transformerBlock(x, w, { dModel: cols, ...opt }), ref = blockRef(x, w, { dModel: cols, eps: e32(lnDefault) });
    close(got.attnInput, ref.attnInput, 'transformerBlock');
  }
});

/** The options a call's TypeError for an unknown option lists: "posnorm.fn: unknown option "k"; the options are a, b" (or "… in scaling; its options are …"). */
function listedOptions(e, call, probe, inside) {
  assert.ok(e instanceof TypeError, `${call}: an unknown option is a TypeError, got ${e?.name}: ${e?.message}`);
  const m = e.message.match(/^posnorm\.(\w+): unknown option "(\w+)"(?: in (\w+); its|; the) options are (.+)$/);
  assert.ok(m && m[1] === call && m[2] === probe && m[3] === inside, `${call}: "${e.message}" names the call, the option${inside ? ` in ${inside}` : ''} and lists the options`);
  return [...new Set(m[4].split(', '))].sort();
}

test('every call refuses an unknown option, and the options its error lists are exactly the ones the reference and the types name', async () => {
  const typed = typedApi(), documented = documentedApi(), tables = optionTables();
  const PROBE = 'notAnOption';
  const pn = await init();
  const sorted = (s) => [...s].sort();
  let probed = 0;
  for (const [call, types] of typed) {
    if (types.size === 0) continue; // no options argument (alloc, alibiSlopes, colormapTable, heapStats)
    let err;
    if (call === 'init') {
      await init({ [PROBE]: 1 }).then(() => {}, (e) => { err = e; });
    } else {
      assert.ok(CALLS[call], `the test has no arguments for ${call}`);
      const args = CALLS[call]();
      args.at(-1)[PROBE] = 1;
      try { pn[call](...args); } catch (e) { err = e; }
    }
    assert.ok(err, `${call}: an unknown option is refused`);
    const accepted = listedOptions(err, call, PROBE);
    assert.deepEqual(accepted, sorted(types), `${call}: the options it takes, against posnorm.d.ts`);
    assert.deepEqual(accepted, sorted(documented.get(call)), `${call}: the options it takes, against the summary of docs/api.md`);
    if (call !== 'init') assert.deepEqual(accepted, sorted(tables.get(call)), `${call}: the options it takes, against its option table`);
    probed++;
  }
  assert.ok(probed >= 20, `${probed} calls probed`);
  // scaling's keys: the union of the types of RopeScaling and of the scaling table, with `type`
  const dts = read('src/js/posnorm.d.ts');
  const union = dts.slice(dts.indexOf('export type RopeScaling ='), dts.indexOf(';\n', dts.indexOf('export type RopeScaling =')));
  const typedKeys = new Set([...union.matchAll(/(\w+)\??:/g)].map((m) => m[1]));
  const documentedKeys = new Set(['type']);
  for (const m of read(API_DOC).matchAll(/^\| `'(\w+)'` \| ([^|]+) \|/gm)) for (const k of m[2].matchAll(/`(\w+)`/g)) documentedKeys.add(k[1]);
  assert.ok(typedKeys.size >= 12 && typedKeys.has('type'), 'the parser reads the union');
  for (const call of ['rope', 'ropeFrequencies']) {
    const args = CALLS[call]();
    if (call === 'rope') args.at(-1).scaling = { type: 'linear', factor: 2, [PROBE]: 1 };
    else args.at(-1).scaling[PROBE] = 1;
    let err;
    try { pn[call](...args); } catch (e) { err = e; }
    const accepted = listedOptions(err, call, PROBE, 'scaling');
    assert.deepEqual(accepted, sorted(typedKeys), `${call}: scaling's keys, against RopeScaling in posnorm.d.ts`);
    assert.deepEqual(accepted, sorted(documentedKeys), `${call}: scaling's keys, against the scaling table of docs/api.md`);
  }
});
