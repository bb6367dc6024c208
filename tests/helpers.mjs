// helpers.mjs — shared by the Node tests: both builds, a random generator of
// the tests' own, comparisons, the shape of posnorm's errors, and the values a .d.ts exports. The float64 references the tests compare
// with are in tests/reference/, one module per concern, written from the
// published formulas (never from posnorm's code).
import assert from 'node:assert/strict';
import { init } from '../src/js/posnorm.js';

/** Both builds, loaded once per test file. */
export async function builds() {
  return [
    { name: 'simd', pn: await init({ simd: true }) },
    { name: 'scalar', pn: await init({ simd: false }) },
  ];
}

/** mulberry32 uniforms and Box–Muller normals: the tests' own generator. */
export function rng(seed) {
  let a = seed >>> 0;
  const uniform = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (((t ^ (t >>> 14)) >>> 0) + 0.5) / 4294967296;
  };
  const normal = () => Math.sqrt(-2 * Math.log(uniform())) * Math.cos(2 * Math.PI * uniform());
  return { uniform, normal };
}

/** Float32Array of n values mean + std·N(0,1) from the tests' generator. */
export function normals(n, { mean = 0, std = 1, seed = 1 } = {}) {
  const r = rng(seed);
  const out = new Float32Array(n);
  for (let k = 0; k < n; k++) out[k] = mean + std * r.normal();
  return out;
}

/** Largest |a[k] − b[k]| (NaN anywhere makes it NaN, which fails every `<=`). */
export function maxAbsDiff(a, b) {
  if (a.length !== b.length) return NaN;
  let m = 0;
  for (let k = 0; k < a.length; k++) {
    const d = Math.abs(a[k] - b[k]);
    if (Number.isNaN(d)) return NaN;
    if (d > m) m = d;
  }
  return m;
}

/** The spacing of float32 numbers at x (the ulp of fround(x); 2^-149 below the normal range). */
export function ulp32(x) {
  const a = Math.abs(Math.fround(x));
  if (a < 1.1754943508222875e-38) return 2 ** -149;
  if (!Number.isFinite(a)) return NaN;
  return 2 ** (Math.floor(Math.log2(a)) - 23);
}

/**
 * Compares float32 results `got` with float64 references `want` value by value:
 * where want is NaN got must be NaN, and where want is ±Inf or beyond the float32
 * range (so that it rounds to ±Inf) got must be that infinity (else the error is
 * Infinity); elsewhere the error is |got − want| / unit(want, k) (unit 1: absolute;
 * ulp32: in float32 ulps).
 * Returns { err, compared } with compared = the number of values looked at.
 */
export function compareValues(got, want, unit = () => 1) {
  if (got.length !== want.length) return { err: Infinity, compared: 0 };
  let err = 0;
  for (let k = 0; k < want.length; k++) {
    const w = want[k], g = got[k];
    let e;
    if (Number.isNaN(w)) e = Number.isNaN(g) ? 0 : Infinity;
    else if (!Number.isFinite(Math.fround(w))) e = g === Math.fround(w) ? 0 : Infinity;
    else e = Math.abs(g - w) / unit(w, k);
    if (Number.isNaN(e)) e = Infinity; // a NaN result where the reference has a number
    if (e > err) err = e;
  }
  return { err, compared: want.length };
}

/** The message of a posnorm error: starts with `posnorm.<fn>:` and never the kernel's generic rejection. */
export function named(fn, Err, words) {
  return (e) => {
    assert.ok(e instanceof Err, `${fn}: expected ${Err.name}, got ${e?.name}: ${e?.message}`);
    assert.ok(e.message.startsWith(`posnorm.${fn}: `), e.message);
    assert.ok(!/kernel rejected its arguments \((a required pointer|a size|an argument)/.test(e.message), e.message);
    for (const w of [].concat(words)) assert.ok(e.message.includes(w), `"${e.message}" should name ${w}`);
    return true;
  };
}

/** `A: number, B: Map<string, number>` → its declarators (commas inside <>, (), [] or {} do not split; an arrow's => is not a bracket). */
function declarators(text) {
  const parts = [];
  let depth = 0, start = 0;
  for (let k = 0; k < text.length; k++) {
    const c = text[k];
    if ('<([{'.includes(c)) depth++;
    else if ('>)]}'.includes(c) && !(c === '>' && text[k - 1] === '=')) depth--;
    else if (c === ',' && depth === 0) {
      parts.push(text.slice(start, k).trim());
      start = k + 1;
    }
  }
  parts.push(text.slice(start).trim());
  return parts;
}

/**
 * The value names a .d.ts exports, sorted (type-only exports left out), read
 * from every line that begins with `export`; a form this reader does not
 * know throws, so that an export it cannot read is not passed over.
 */
export function declaredValueExports(text, file = 'the declarations') {
  const names = [];
  for (const line of text.split('\n').filter((l) => /^export\b/.test(l))) {
    if (/^export (type|interface|declare type|declare interface) /.test(line)) continue;
    const list = line.match(/^export \{([^}]*)\}(?: from '[^']+')?;$/);
    const one = line.match(/^export declare (?:abstract )?(?:function|class|enum) (\w+)/);
    const vars = line.match(/^export declare (?:const|let|var) (.*);$/);
    if (list) names.push(...list[1].split(',').map((s) => s.trim()).filter((s) => s && !s.startsWith('type ')).map((s) => s.split(/\s+as\s+/).pop()));
    else if (one) names.push(one[1]);
    else if (vars) names.push(...declarators(vars[1]).map((d) => d.match(/^(\w+)/)?.[1] ?? d));
    else throw new Error(`${file}: an export this reader cannot read: ${line}`);
  }
  return [...new Set(names)].sort();
}

/**
 * The attributes of a start tag's text (`<img …>`, or the attributes alone),
 * by lower-cased name, values as written (double-quoted, not unescaped); the
 * tag may span lines and its attributes come in any order.
 */
export function tagAttributes(tag) {
  const attrs = {};
  for (const m of tag.matchAll(/([\w:-]+)\s*=\s*"([^"]*)"/g)) attrs[m[1].toLowerCase()] = m[2];
  return attrs;
}
