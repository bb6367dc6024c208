// The figures in the frameworks blogs are built with, installed from npm
// with the packed posnorm tarball: an Astro site with MDX and a Next.js App
// Router page (static export). Each fixture commits its package.json and
// package-lock.json, installed with `npm ci`, so every run builds with the
// same framework versions. Each imports posnorm/figures/... in server code;
// each is built, served, and opened in Chromium, where the figures start
// from the server-rendered markup and respond to input.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { launch, open, serve, startFigure } from './browser/harness.mjs';
import { installPacked, packTarball } from './packaging.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
let work, tarball, browser;

function run(cmd, args, cwd, extraEnv = {}) {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', NEXT_TELEMETRY_DISABLED: '1', ASTRO_TELEMETRY_DISABLED: '1', ...extraEnv }, timeout: 600000 });
  return { code: r.status, out: `${r.stdout}\n${r.stderr}`.slice(-6000) };
}

before(async () => {
  work = await mkdtemp(join(tmpdir(), 'posnorm-fw-'));
  tarball = packTarball(root, work);
  browser = await launch();
});
after(async () => {
  await browser?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

/** Copies the fixture, installs its framework from its lockfile and posnorm from the tarball, and builds it. */
async function buildApp(name, buildArgs, outDir) {
  const dir = join(work, name);
  await cp(join(root, 'tests', 'frameworks', name), dir, { recursive: true });
  let r = run('npm', ['ci', '--no-audit', '--no-fund'], dir);
  assert.equal(r.code, 0, r.out);
  await installPacked(dir, tarball);
  r = run(process.execPath, buildArgs, dir);
  assert.equal(r.code, 0, r.out);
  return join(dir, outDir);
}

/** Opens the built site and checks that the figures start and respond. */
async function exercise(dir, extra) {
  const server = await serve({ dir, allow: null, home: '/index.html' });
  try {
    const { page, problems, context } = await open(browser, `${server.url}/index.html`);
    assert.equal(await page.textContent('#server-check'), 'function', 'the figure class was imported in server code');
    for (const tag of ['posnorm-heatmap', 'posnorm-waveform']) {
      await startFigure(page, tag);
    }
    const heat = await page.evaluate(() => { const h = document.querySelector('posnorm-heatmap'); return [h.dModel, h.seqLen]; });
    const wave = await page.evaluate(() => { const w = document.querySelector('posnorm-waveform'); return [w.i, w.dModel]; });
    // sizes past the Worker threshold of the error line (draw/pe-error.js):
    // the framework's bundle of the kernel Worker computes them
    await page.evaluate(() => Object.assign(document.querySelector('posnorm-heatmap'), { dModel: 512, seqLen: 1024 }));
    await page.waitForFunction(() => document.querySelector('posnorm-heatmap').peErrors?.sizes.seqLen === 1024, null, { timeout: 30000 });
    const errors = await page.evaluate(() => ({ ...document.querySelector('posnorm-heatmap').peErrors, offThread: document.querySelector('posnorm-heatmap')._errors.offThread }));
    assert.ok(errors.posnorm > 0 && errors.posnorm < 1e-6 && errors.float32 > errors.posnorm, JSON.stringify(errors));
    assert.equal(errors.offThread, true, 'in the kernel Worker');
    // the reader moves a slider with the keyboard
    const slider = page.locator('posnorm-waveform input[name=pos]');
    await slider.focus();
    await page.keyboard.press('ArrowRight');
    await page.waitForFunction(() => document.querySelector('posnorm-waveform').pos === 11);
    await page.waitForFunction(() => /pos = 11:/.test(document.querySelector('posnorm-waveform').shadowRoot.querySelector('.readout').textContent));
    await extra?.(page);
    assert.deepEqual(problems.filter((p) => !/favicon|Download the React DevTools/.test(p)), []);
    await context.close();
    return { heat, wave };
  } finally {
    await server.close();
  }
}

test('Astro 5 with MDX: server-side import, static build, figures run in Chromium', async () => {
  const out = await buildApp('astro', [join('node_modules', 'astro', 'astro.js'), 'build'], 'dist');
  const r = await exercise(out);
  assert.deepEqual(r.heat, [24, 10]);
  assert.deepEqual(r.wave, [40, 128], 'i="40" before d-model="128" is kept');
});

test('Next.js 16 App Router, static export: server component import, React 19 attributes and events', async () => {
  const out = await buildApp('next', [join('node_modules', 'next', 'dist', 'bin', 'next'), 'build'], 'out');
  const r = await exercise(out, async (page) => {
    await page.waitForFunction(() => document.getElementById('last').textContent === 'pos=11', null, { timeout: 5000 });
    await page.click('#wider');
    await page.waitForFunction(() => document.querySelector('posnorm-waveform').dModel === 256);
    await page.waitForFunction(() => /\^\(80\/256\)/.test(document.querySelector('posnorm-waveform').shadowRoot.querySelector('.readout').textContent));
  });
  assert.deepEqual(r.heat, [32, 12]);
  assert.deepEqual(r.wave, [40, 128], 'server-rendered attributes, in any order');
});
