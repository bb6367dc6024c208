// The C API is what the public headers declare, nothing more or less: each
// wasm build exports exactly the pn_* functions that src/posnorm.h and
// src/posnorm_figures.h declare (build.sh derives its export list from
// them), beside malloc and free for the JS wrapper's buffers and the
// toolchain's own runtime; and every declared function has a comment
// directly above it that names it. The headers are read here with a parser
// of the test's own, not with build.sh's.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';

const root = fileURLToPath(new URL('..', import.meta.url));
const HEADERS = ['src/posnorm.h', 'src/posnorm_figures.h'];
const BUILDS = ['build/wasm/posnorm-simd.wasm', 'build/wasm/posnorm-scalar.wasm'];
// Exports that are neither declared nor the wrapper's allocator: Emscripten's
// runtime (its start function, errno, the stack helpers).
const RUNTIME = /^(_initialize|__errno_location|stack(Save|Restore|Alloc)|emscripten_\w+)$/;

/**
 * The functions a header declares, each with the comment directly above its
 * first line (or null): every `pn_name(` outside comments and preprocessor
 * lines opens a declaration, whatever its return type or line breaks.
 */
function declarations(file) {
  const lines = readFileSync(`${root}${file}`, 'utf8').split('\n');
  const found = [];
  let inComment = false, comment = [], lastCommentEnd = -2;
  lines.forEach((line, i) => {
    let code = '';
    for (let at = 0; at < line.length;) {
      if (inComment) {
        const end = line.indexOf('*/', at);
        comment.push(line.slice(at, end < 0 ? line.length : end));
        if (end < 0) break;
        inComment = false;
        lastCommentEnd = i;
        at = end + 2;
      } else {
        const open = line.indexOf('/*', at);
        code += line.slice(at, open < 0 ? line.length : open);
        if (open < 0) break;
        inComment = true;
        comment = [];
        at = open + 2;
      }
    }
    if (code.trimStart().startsWith('#')) return;
    for (const m of code.matchAll(/\b(pn_\w+)\s*\(/g)) {
      found.push({ name: m[1], line: i + 1, doc: lastCommentEnd === i - 1 ? comment.join('\n').trim() : null });
    }
  });
  return found;
}

/** The function exports of a wasm file, by name. */
function functionExports(file) {
  const module = new WebAssembly.Module(readFileSync(`${root}${file}`));
  return WebAssembly.Module.exports(module).filter((e) => e.kind === 'function').map((e) => e.name);
}

const declared = HEADERS.flatMap((h) => declarations(h).map((d) => ({ ...d, header: h })));
const names = declared.map((d) => d.name).sort();

test('the public headers declare each function once', () => {
  assert.ok(names.length >= 20, `${names.length} declarations found`);
  assert.deepEqual(names.filter((n, i) => names[i - 1] === n), [], 'declared twice');
});

test('every declared function has a comment directly above it that names it', () => {
  const undocumented = declared
    .filter((d) => !(d.doc && new RegExp(`^${d.name}\\b`).test(d.doc)))
    .map((d) => `${d.header}:${d.line} ${d.name}`);
  assert.deepEqual(undocumented, []);
});

for (const build of BUILDS) {
  test(`${build} exports exactly the declared functions, malloc and free`, () => {
    const exported = functionExports(build);
    const pn = exported.filter((n) => n.startsWith('pn_')).sort();
    assert.deepEqual(names.filter((n) => !pn.includes(n)), [], 'declared but not exported');
    assert.deepEqual(pn.filter((n) => !names.includes(n)), [], 'exported but not declared');
    for (const fn of ['malloc', 'free']) assert.ok(exported.includes(fn), `${fn} exported`);
    const other = exported.filter((n) => !n.startsWith('pn_') && n !== 'malloc' && n !== 'free' && !RUNTIME.test(n));
    assert.deepEqual(other, [], 'no other export');
  });
}
