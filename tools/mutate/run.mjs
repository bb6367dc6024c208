#!/usr/bin/env node
// run.mjs — `make mutate`: are the tests able to see deliberate mistakes?
//
// Copies the repository's sources and tests (the working tree: every file git
// tracks or would track) to a temporary directory, builds it there and checks
// that the chosen tests pass; then applies each mutation of mutations.mjs
// alone — one exact find/replace in one file, which must match exactly once —
// rebuilds only what that file needs (src/*.c, src/*.h: ./build.sh wasm and
// ./build.sh native; src/js/, web/: nothing) and the demo site of build/site
// (tools/build-site.mjs, a second: it copies web/, src/js/ and the wasm, and
// tests such as oembed's serve that copy), runs the mutation's fast subset
// of tests (Node test files, the native C tests for C mutations, browser tests
// only for mutations in web/), notes which tests failed, and restores the file
// and the baseline builds. Prints a table mutation → caught by and exits 1 if
// any mutation survived (2 if the tool itself cannot run: a pattern that does
// not match exactly once, a failing baseline, a mutation that does not build).
//
//   node tools/mutate/run.mjs [--only id,id] [--list] [--keep]
//
// MUTATE_TMP sets the parent of the temporary directory (default: the OS's).
import { spawn, execFileSync } from 'node:child_process';
import { copyFile, cp, mkdir, mkdtemp, readFile, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MUTATIONS } from './mutations.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TIMEOUT_MS = 5 * 60 * 1000; // per build or test file (the longest takes about a minute)
const args = process.argv.slice(2);
const flag = (name) => args.includes(name);
const option = (name) => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : undefined; };

/** Runs a command; resolves { code, out, ms, timedOut } (never rejects). */
function run(cmd, argv, cwd, timeout = TIMEOUT_MS) {
  const t0 = Date.now();
  return new Promise((resolve) => {
    const child = spawn(cmd, argv, { cwd, env: { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1' }, detached: true });
    let out = '';
    child.stdout.on('data', (d) => { out += d; });
    child.stderr.on('data', (d) => { out += d; });
    let timedOut = false;
    const timer = setTimeout(() => { timedOut = true; try { process.kill(-child.pid, 'SIGKILL'); } catch { /* gone */ } }, timeout);
    child.on('close', (code) => { clearTimeout(timer); resolve({ code, out, ms: Date.now() - t0, timedOut }); });
  });
}

/** 'file::pattern' → { file: tests/file.test.mjs, pattern }. */
function parseTest(spec) {
  const [name, pattern] = spec.split('::');
  return { name, file: `tests/${name}.test.mjs`, pattern };
}

/** What a mutation of `file` needs rebuilt and run. */
function needs(m) {
  const c = /^src\/[^/]+\.[ch]$/.test(m.file);
  return { wasm: c && m.wasm !== false, native: c && m.native !== false, site: c ? m.wasm !== false : /^(web|src\/js)\//.test(m.file) };
}

/** build/site from the tree as it is now (tests of the deployed pages serve it); throws with the log on failure. */
async function buildSite(dir) {
  const r = await run(process.execPath, ['tools/build-site.mjs'], dir);
  if (r.code !== 0) throw Object.assign(new Error('build failed'), { log: r.out });
}

/** Runs one Node test file (with its name pattern); returns the names of the top-level tests that failed. */
async function nodeTest(dir, spec) {
  const { name, file, pattern } = parseTest(spec);
  const argv = ['--test', '--test-reporter=tap', ...(pattern ? [`--test-name-pattern=${pattern}`] : []), file];
  const r = await run(process.execPath, argv, dir);
  if (r.timedOut) return { failed: [`${name}: timed out`], ms: r.ms };
  const failed = [...r.out.matchAll(/^not ok \d+ - (.*)$/gm)].map((m) => `${name} › ${m[1].replace(/ # .*$/, '')}`);
  if (r.code !== 0 && failed.length === 0) failed.push(`${name}: exit ${r.code} (${r.out.trim().split('\n').slice(-1)[0]})`);
  const count = (key) => Number((new RegExp(`^# ${key} (\\d+)`, 'm').exec(r.out) ?? [0, 0])[1]);
  if (r.code === 0 && count('tests') - count('skipped') === 0) throw new Error(`${spec}: the name pattern selects no test`);
  return { failed, ms: r.ms };
}

/** Runs the native C tests; returns their failures (FAIL lines, or the crash). */
async function nativeTest(dir) {
  const r = await run(join(dir, 'build/native/test_kernels'), [], dir);
  if (r.timedOut) return { failed: ['test_kernels.c: timed out'], ms: r.ms };
  const failed = [...r.out.matchAll(/^FAIL [^:]*?(test_\w+\.c:\d+): (.*)$/gm)].map((m) => `${m[1]} ${m[2]}`);
  if (r.code !== 0 && failed.length === 0) failed.push(`test_kernels: exit ${r.code} (${(r.out.match(/ERROR: \w+Sanitizer: [^\n]*|runtime error: [^\n]*/) ?? ['crashed'])[0]})`);
  return { failed, ms: r.ms };
}

/** Builds what `need` says, wasm and native side by side; throws with the log on failure. */
async function build(dir, need) {
  const jobs = [];
  if (need.wasm) jobs.push(run('./build.sh', ['wasm'], dir));
  if (need.native) jobs.push(run('./build.sh', ['native'], dir));
  const results = await Promise.all(jobs);
  const bad = results.find((r) => r.code !== 0);
  if (bad) throw Object.assign(new Error('build failed'), { log: bad.out });
  return results.reduce((t, r) => Math.max(t, r.ms), 0);
}

const BUILT = ['build/wasm/posnorm-simd.wasm', 'build/wasm/posnorm-scalar.wasm', 'build/native/test_kernels'];

async function main() {
  const only = option('--only')?.split(',');
  const list = only ? MUTATIONS.filter((m) => only.includes(m.id)) : MUTATIONS;
  if (only && list.length !== only.length) throw usage(`unknown mutation in --only: ${only.filter((id) => !MUTATIONS.some((m) => m.id === id)).join(', ')}`);
  if (flag('--list')) {
    for (const m of MUTATIONS) console.log(`${m.id.padEnd(28)} ${m.file.padEnd(22)} ${m.what}`);
    return 0;
  }
  const ids = new Set();
  for (const m of MUTATIONS) {
    if (ids.has(m.id)) throw usage(`duplicate mutation id ${m.id}`);
    ids.add(m.id);
  }

  const t0 = Date.now();
  const dir = await mkdtemp(join(process.env.MUTATE_TMP ?? tmpdir(), 'posnorm-mutate-'));
  console.log(`make mutate: ${list.length} mutations in ${dir}`);
  try {
    // the working tree: tracked files and new ones not ignored
    const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8' }).split('\0').filter(Boolean);
    for (const f of files) {
      await mkdir(dirname(join(dir, f)), { recursive: true });
      await cp(join(ROOT, f), join(dir, f), { preserveTimestamps: true }).catch((e) => { if (e.code !== 'ENOENT') throw e; }); // deleted, not yet staged
    }
    await symlink(await realpath(join(ROOT, 'node_modules')), join(dir, 'node_modules')).catch(() => {});

    // every pattern must match exactly once, before anything runs
    const problems = [];
    for (const m of list) {
      const text = await readFile(join(dir, m.file), 'utf8').catch(() => null);
      if (text === null) { problems.push(`${m.id}: ${m.file} does not exist`); continue; }
      const n = text.split(m.find).length - 1;
      if (n !== 1) problems.push(`${m.id}: the pattern occurs ${n} times in ${m.file} (must be exactly once):\n    ${JSON.stringify(m.find)}`);
      if (m.find === m.replace) problems.push(`${m.id}: find and replace are the same`);
    }
    if (problems.length) {
      console.error(`make mutate: ${problems.length} mutation(s) do not apply:\n  ${problems.join('\n  ')}`);
      return 2;
    }

    // the baseline: built here, and every chosen test passing
    const all = { wasm: true, native: true };
    console.log('baseline: building (./build.sh wasm, ./build.sh native) …');
    await build(dir, all);
    await buildSite(dir);
    const specs = [...new Set(list.flatMap((m) => m.tests))];
    const baseline = [];
    for (const spec of specs) baseline.push(...(await nodeTest(dir, spec)).failed);
    if (list.some((m) => needs(m).native)) baseline.push(...(await nativeTest(dir)).failed);
    if (baseline.length) {
      console.error(`make mutate: the unmutated tree fails its tests, so no mutation can be judged:\n  ${baseline.join('\n  ')}`);
      return 2;
    }
    const saved = join(dir, '.mutate-baseline');
    await mkdir(saved, { recursive: true });
    for (const f of BUILT) await copyFile(join(dir, f), join(saved, f.replace(/\//g, '_')));
    console.log(`baseline: ${specs.length} test selections and the C tests pass (${((Date.now() - t0) / 1000).toFixed(0)} s)\n`);

    const results = [];
    for (const [k, m] of list.entries()) {
      const tm = Date.now();
      const path = join(dir, m.file), original = await readFile(path, 'utf8');
      await writeFile(path, original.replace(m.find, () => m.replace));
      const need = needs(m);
      let caughtBy = [], error = null;
      try {
        // the native build and its tests run beside the wasm build and the Node tests
        const native = need.native ? build(dir, { native: true }).then(() => nativeTest(dir)) : Promise.resolve({ failed: [] });
        const node = (need.wasm ? build(dir, { wasm: true }) : Promise.resolve()).then(async () => {
          if (need.site) await buildSite(dir);
          const failed = [];
          for (const spec of m.tests) failed.push(...(await nodeTest(dir, spec)).failed);
          return failed;
        });
        const settled = await Promise.allSettled([node, native]); // both finish before the file is restored
        const failedJob = settled.find((x) => x.status === 'rejected');
        if (failedJob) throw failedJob.reason;
        caughtBy = [...settled[0].value, ...settled[1].value.failed];
      } catch (e) {
        error = e.log ? `does not build: ${e.log.split('\n').find((l) => /error/.test(l)) ?? e.log.slice(-300)}` : e.message;
      } finally {
        await writeFile(path, original);
        if (need.wasm || need.native) for (const f of BUILT) await copyFile(join(saved, f.replace(/\//g, '_')), join(dir, f));
        if (need.site) await buildSite(dir);
      }
      const r = { ...m, caughtBy, error, s: (Date.now() - tm) / 1000 };
      results.push(r);
      const verdict = error ? `ERROR ${error}` : caughtBy.length ? `caught by ${caughtBy.length}: ${caughtBy[0]}` : 'SURVIVED';
      console.log(`[${k + 1}/${list.length}] ${m.id} (${m.file}, ${r.s.toFixed(0)} s): ${verdict}`);
    }

    // the table
    const short = (r) => {
      if (r.error) return `ERROR: ${r.error}`;
      if (!r.caughtBy.length) return 'SURVIVED — no test failed';
      const byFile = new Map();
      for (const c of r.caughtBy) { const f = c.startsWith('test_kernels') ? 'test_kernels.c' : c.split(/ › |: /)[0]; byFile.set(f, (byFile.get(f) ?? 0) + 1); }
      return [...byFile].map(([f, n]) => `${f} (${n})`).join(', ') + ` — first: ${r.caughtBy[0].slice(0, 90)}`;
    };
    console.log('\n| # | mutation | file | caught by (failing tests per file) | s |\n|---|---|---|---|---|');
    results.forEach((r, k) => console.log(`| ${k + 1} | ${r.id}: ${r.what} | ${r.file} | ${short(r).replace(/\|/g, '\\|')} | ${r.s.toFixed(0)} |`));
    const survived = results.filter((r) => !r.error && !r.caughtBy.length), broken = results.filter((r) => r.error);
    console.log(`\nmake mutate: ${results.length - survived.length - broken.length} of ${results.length} mutations caught, ${survived.length} survived${broken.length ? `, ${broken.length} could not be run` : ''}; ${((Date.now() - t0) / 1000).toFixed(0)} s in all`);
    for (const r of survived) console.log(`  SURVIVED ${r.id}: ${r.what} — a test is missing`);
    if (broken.length) return 2;
    return survived.length ? 1 : 0;
  } finally {
    if (flag('--keep')) console.log(`kept ${dir}`);
    else await rm(dir, { recursive: true, force: true });
  }
}

function usage(message) {
  return Object.assign(new Error(message), { usage: true });
}

main().then((code) => { process.exitCode = code; }, (e) => {
  console.error(`make mutate: ${e.message}`);
  process.exitCode = 2;
});
