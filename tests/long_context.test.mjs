// <posnorm-long-context> in Chromium: its readouts (q·k at the cursor for
// every method, attention factors, pairs completing a turn within L) against
// float64 values from the published rope_scaling formulas (tests/reference/).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { open, useBrowser } from './browser/harness.mjs';
import { ropeScore } from './reference/rope.mjs';
import { LONG_CONTEXT_METHODS as SCALINGS, hfRopeFrequencies as hfRope } from './reference/rope_scaling.mjs';

const env = useBrowser(before, after);
const tag = 'posnorm-long-context';
// the readout's names of the methods (web/i18n/en.js, lcMethod_*)
const LABELS = { none: 'none', linear: 'PI', dynamic: 'NTK (dynamic)', yarn: 'YaRN', llama3: 'Llama 3' };
// a number as the readout writes it (web/figures/draw/format.js, fmt):
// `digits` significant digits, trailing zeros dropped, exponential outside [1e-4, 1e6)
const show = (x, digits) => {
  if (x === 0) return '0';
  const a = Math.abs(x);
  return a >= 1e6 || a < 1e-4 ? x.toExponential(digits - 1) : String(Number(x.toPrecision(digits)));
};

test('long-context: scores at the cursor, attention factors and full turns equal float64, for several settings', async () => {
  const { page, problems, context } = await open(env.browser, `${env.server.url}/web/figure.html?fig=long-context&lang=en&train-len=1024&factor=8&dim=64&distance=5000`, { width: 900 });
  await page.waitForFunction((t) => document.querySelector(t)?.renderTimes?.length > 0, tag, { timeout: 15000 });
  // the third changes base alone (and the cursor, for the wait below): the
  // figure's cached frequencies and curves must follow it
  // the fifth asks for a distance past the sequence: the farthest two of its
  // 512 tokens are 511 apart, and every readout names and reads that one
  // (the slider went to 512 and the scores were taken at 511)
  // the sixth is at distance 0, where every rotation is the identity, so each
  // method's score is plain RoPE's at 0 (the first training sample) times its
  // attention factor squared: YaRN's (0.1·ln 8 + 1)² lifts it outside the
  // training range (a ✗); in the seventh, at factor 1, nothing is outside
  const states = [null, { trainLen: 4096, factor: 16, dim: 128, base: 500000, distance: 60000 }, { base: 10000, distance: 60001 }, { trainLen: 256, factor: 1, dim: 32, distance: 100 }, { trainLen: 256, factor: 2, distance: 1e9 }, { trainLen: 1024, factor: 8, dim: 64, base: 10000, distance: 0 }, { trainLen: 1024, factor: 1, dim: 64, base: 10000, distance: 512 }];
  const crosses = [];
  for (const setting of states) {
    if (setting) {
      const n = await page.evaluate((t) => document.querySelector(t).renderTimes.length, tag);
      await page.evaluate(([t, s]) => Object.assign(document.querySelector(t), s), [tag, setting]);
      // the render that drew this setting (one already due can land first)
      await page.waitForFunction(([t, k]) => document.querySelector(t).renderTimes.length > k && document.querySelector(t).result?.distance === document.querySelector(t).distance, [tag, n]);
    }
    const r = await page.evaluate((t) => {
      const el = document.querySelector(t);
      return { ...el.values, q: [...el.result.q], k: [...el.result.k], scores: el.result.scores, af: el.result.attentionFactors, turns: el.result.pairsTurningInside, trainRange: el.result.trainRange, csv: el.toCsv(), text: el.shadowRoot.querySelector('.readout').textContent, readout: [...el.shadowRoot.querySelector('.readout').children].map((li) => li.textContent) };
    }, tag);
    const { trainLen: L, factor, dim, base, distance: d } = r;
    const half = dim / 2, top = L * factor;
    const ref = {};
    for (const [key, make] of Object.entries(SCALINGS)) {
      const { inv, af } = hfRope(dim, base, factor > 1 ? make(factor, L) : undefined, top);
      const s = ropeScore(r.q, r.k, inv, af, d);
      ref[key] = { s, af, turns: inv.filter((w) => (2 * Math.PI) / w <= L).length };
      assert.ok(Math.abs(r.scores[key] - s) <= 2e-5 * Math.max(1, Math.abs(s)), `${key} at ${d} (L ${L}, ×${factor}): ${r.scores[key]} vs ${s}`);
      assert.ok(Math.abs(r.af[key] - af) <= 1e-12, `${key} attention factor ${r.af[key]} vs ${af}`);
      assert.equal(r.turns[key], inv.filter((w) => (2 * Math.PI) / w <= L).length, `${key} pairs turning within L`);
    }
    // the drawn curves (the CSV: 256 distances × every method, one rope call
    // per method into arrays the figure reuses) and the training range (the
    // plain model over 160 distances in [0, L)) against the same float64 sums
    const score = (inv, af, dist) => ropeScore(r.q, r.k, inv, af, dist);
    const lines = r.csv.trim().split('\n');
    assert.equal(lines[0], `distance,${Object.keys(SCALINGS).map((m) => `score_${m}`).join(',')}`);
    assert.equal(lines.length, 257);
    const refs = Object.values(SCALINGS).map((make) => hfRope(dim, base, factor > 1 ? make(factor, L) : undefined, top));
    for (const line of lines.slice(1)) {
      const [dist, ...got] = line.split(',').map(Number);
      refs.forEach(({ inv, af }, m) => {
        const s = score(inv, af, dist);
        assert.ok(Math.abs(got[m] - s) <= 2e-5 * Math.max(1, Math.abs(s)), `CSV ${Object.keys(SCALINGS)[m]} at ${dist}: ${got[m]} vs ${s}`);
      });
    }
    const inTraining = Array.from({ length: 160 }, (_, j) => score(refs[0].inv, refs[0].af, Math.round((j / 159) * (L - 1))));
    assert.ok(Math.abs(r.trainRange[0] - Math.min(...inTraining)) <= 2e-5 && Math.abs(r.trainRange[1] - Math.max(...inTraining)) <= 2e-5, `training range ${r.trainRange} vs ${Math.min(...inTraining)}, ${Math.max(...inTraining)}`);
    assert.match(r.text, new RegExp(`distance ${d}: none `));
    // the readout's lines: each method's score at d as result.scores holds
    // it (held to float64 above), written to 4 digits, with ✗ exactly when it
    // is outside result.trainRange (held to float64 too); the pairs turning
    // within L and the attention factors against float64 and the formula
    const keys = Object.keys(SCALINGS), lo = Math.min(...inTraining), hi = Math.max(...inTraining);
    const tol = (x) => 2e-5 * Math.max(1, Math.abs(x));
    assert.equal(r.readout.length, 4, `readout lines: ${JSON.stringify(r.readout)}`);
    const m = /^distance (\d+): (.*) \(range seen in training \[(.*), (.*)\], ✗ = outside\)$/.exec(r.readout[0]);
    assert.ok(m, `score line: ${r.readout[0]}`);
    assert.equal(Number(m[1]), d);
    assert.deepEqual([m[3], m[4]], r.trainRange.map((v) => show(v, 3)), `training range shown`);
    const shownScores = m[2].split(' · ');
    assert.equal(shownScores.length, keys.length, `score line: ${r.readout[0]}`);
    const outside = {};
    keys.forEach((key, j) => {
      const { s } = ref[key];
      // (for the ✗ checks below: within float32's distance of an end, either mark is right)
      const out = s < lo - tol(lo) || s > hi + tol(hi), sure = out || (s > lo + tol(lo) && s < hi - tol(hi));
      outside[key] = sure ? out : undefined;
      const v = r.scores[key], mark = v < r.trainRange[0] || v > r.trainRange[1] ? ' ✗' : '';
      assert.equal(shownScores[j], `${LABELS[key]} ${show(v, 4)}${mark}`, `readout score (L ${L}, ×${factor}, dim ${dim}, base ${base}, d ${d}; float64 ${s} in training [${lo}, ${hi}])`);
    });
    crosses.push(outside);
    assert.equal(r.readout[1], `pairs that complete a turn within L = ${L}: ${keys.map((key) => `${LABELS[key]} ${ref[key].turns}/${half}`).join(' · ')}`);
    // YaRN's attention factor is 0.1·ln(factor) + 1 (Peng et al. 2023); every other method's is 1
    const factorOf = (key) => (key === 'yarn' && factor > 1 ? 0.1 * Math.log(factor) + 1 : 1);
    keys.forEach((key) => assert.ok(Math.abs(ref[key].af - factorOf(key)) <= 1e-12, `${key} reference attention factor`));
    assert.equal(r.readout[2], `attention factor (on cos and sin): ${keys.map((key) => `${LABELS[key]} ${show(factorOf(key), 5)}`).join(' · ')}`);
    if (factor === 8) assert.ok(r.readout[2].includes('YaRN 1.2079'), r.readout[2]);
    if (factor === 16) assert.ok(r.readout[2].includes('YaRN 1.2773'), r.readout[2]);
    if (setting?.distance === 1e9) {
      assert.equal(d, top - 1);
      // the CSV's last row is that distance, with the readout's scores
      assert.deepEqual(lines.at(-1).split(',').map(Number), [d, ...Object.keys(SCALINGS).map((m) => r.scores[m])]);
    }
    if (factor === 1) assert.equal(new Set(Object.values(r.scores)).size, 1, 'no extension: every method is plain RoPE');
  }
  // the ✗ is both shown and not: YaRN's at distance 0 and ×8 is, and at
  // factor 1 no method's is (so the marks checked above do not pass by chance)
  assert.equal(crosses.at(-2).yarn, true, `×8 at distance 0: ${JSON.stringify(crosses.at(-2))}`);
  assert.ok(Object.values(crosses.at(-1)).every((out) => out === false), `×1 at distance 512: ${JSON.stringify(crosses.at(-1))}`);
  // off the page and back: the figure drops its arrays and makes them again
  const back = await page.evaluate(async (t) => {
    const el = document.querySelector(t), parent = el.parentNode;
    el.remove();
    parent.append(el);
    const n = el.renderTimes.length;
    el.factor = 4;
    await new Promise((resolve) => { const check = () => (el.renderTimes.length > n && el.result.invFreq.linear ? resolve() : requestAnimationFrame(check)); check(); });
    return { csv: el.toCsv(), ...el.values, q: [...el.result.q], k: [...el.result.k] };
  }, tag);
  const backRef = hfRope(back.dim, back.base, SCALINGS.linear(back.factor, back.trainLen), back.trainLen * back.factor);
  const row = back.csv.trim().split('\n')[200].split(',').map(Number);
  let s = 0;
  for (let i = 0; i < back.dim / 2; i++) {
    const c = Math.cos(row[0] * backRef.inv[i]), sn = Math.sin(row[0] * backRef.inv[i]), h = back.dim / 2;
    s += back.k[i] * (back.q[i] * c - back.q[i + h] * sn) + back.k[i + h] * (back.q[i] * sn + back.q[i + h] * c);
  }
  assert.equal(back.factor, 4);
  assert.ok(Math.abs(row[2] - s) <= 2e-5 * Math.max(1, Math.abs(s)), `after reconnecting, linear at ${row[0]}: ${row[2]} vs ${s}`);
  assert.deepEqual(problems, []);
  await context.close();
});
