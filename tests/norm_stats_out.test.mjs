// LayerNorm's and RMSNorm's statistics into the caller's buffers (meanOut,
// invStdDevOut, invRmsOut): written where they lie and returned as given,
// checked like `out` (type, length, live, this instance's, disjoint from
// every other argument), a refused call writes and allocates nothing.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';
import { Posnorm, init } from '../src/js/posnorm.js';
import { named, normals, ulp32 } from './helpers.mjs';
import { layerNorm, rmsNorm } from './reference/norms.mjs';

const EPS_LN = Math.fround(1e-5), EPS_RMS = Math.fround(1e-6);

/** |got[r] - want[r]| <= rel·|want[r]| + abs for every row, and as many rows */
function near(got, want, rel, abs, what) {
  assert.equal(got.length, want.length, `${what}: length`);
  for (let r = 0; r < want.length; r++) {
    assert.ok(Math.abs(got[r] - want[r]) <= rel * Math.abs(want[r]) + abs, `${what}[${r}] = ${got[r]}, float64 gives ${want[r]}`);
  }
}


for (const simd of [true, false]) {
  const name = simd ? 'simd' : 'scalar';

  test(`${name}: statistics into PnBuffers are written there, returned as given, and within the float64 bounds`, async () => {
    const pn = await init({ simd });
    const rows = 37, cols = 300; // 2 blocks of 128 and a tail of 44
    const xs = normals(rows * cols, { mean: 3, std: 2, seed: 11 });
    const x = pn.alloc(rows * cols).set(xs), y = pn.alloc(rows * cols);
    const m = pn.alloc(rows).set(new Float32Array(rows).fill(NaN)), s = pn.alloc(rows).set(new Float32Array(rows).fill(NaN));
    const ref = layerNorm(xs, cols, { eps: EPS_LN });
    const r = pn.layerNorm(x, { cols, out: y, meanOut: m, invStdDevOut: s });
    assert.equal(r.y, y);
    assert.equal(r.mean, m);
    assert.equal(r.invStdDev, s);
    // posnorm.h: the mean within 1e-7 relative + 1e-6·std, invStdDev 2e-7 relative (tests/norm.test.mjs)
    near(m.array, ref.mean, 1e-7, 1e-6 * 2, 'mean');
    near(s.array, ref.invStd, 2e-7, 0, 'invStdDev');
    near(y.array, ref.y, 0, 5e-6, 'y');

    const inv = pn.alloc(rows).set(new Float32Array(rows).fill(NaN));
    const rr = rmsNorm(xs, cols, { eps: EPS_RMS });
    const q = pn.rmsNorm(x, { cols, out: y, invRmsOut: inv });
    assert.equal(q.invRms, inv);
    near(inv.array, rr.invRms, 1.2e-7, 0, 'invRms');
    // posnorm.h promises 2e-6·max|y|; tests/norm.test.mjs holds it to 2e-7·max|y|
    near(y.array, rr.y, 0, 2e-7 * rr.y.reduce((a, v) => Math.max(a, Math.abs(v)), 0), 'RMSNorm y');
  });

  test(`${name}: statistics into Float32Arrays, plain or viewing the module's memory, also in place and when the call grows the memory`, async () => {
    const pn = await init({ simd });
    // a hand-worked case: rows [1, 2, 3, 4] and [5, 5, 5, 9]
    const x = new Float32Array([1, 2, 3, 4, 5, 5, 5, 9]);
    const mean = new Float32Array(2), inv = new Float32Array(2);
    const r = pn.layerNorm(x, { cols: 4, eps: 0, meanOut: mean, invStdDevOut: inv });
    assert.equal(r.mean, mean);
    assert.equal(r.invStdDev, inv);
    // means 2.5 and 6; biased variances 1.25 and 3
    assert.deepEqual([...mean], [2.5, 6]);
    assert.deepEqual([...inv], [Math.fround(1 / Math.sqrt(1.25)), Math.fround(1 / Math.sqrt(3))]);
    const rms = new Float32Array(2);
    assert.equal(pn.rmsNorm(x, { cols: 4, eps: 0, invRmsOut: rms }).invRms, rms);
    // mean squares 30/4 and 156/4
    assert.deepEqual([...rms], [Math.fround(1 / Math.sqrt(7.5)), Math.fround(1 / Math.sqrt(39))]);

    // in place (out is x) with the statistics in the same module's memory, as views
    const rows = 3, cols = 5;
    const xs = normals(rows * cols, { mean: -4, std: 0.5, seed: 2 });
    const buf = pn.alloc(rows * cols).set(xs), st = pn.alloc(2 * rows);
    const views = [st.array.subarray(0, rows), st.array.subarray(rows)];
    const got = pn.layerNorm(buf, { cols, out: buf, meanOut: views[0], invStdDevOut: views[1] });
    assert.equal(got.mean, views[0], 'a live view comes back as given');
    const ref = layerNorm(xs, cols, { eps: EPS_LN });
    near(st.array.subarray(0, rows), ref.mean, 1e-7, 1e-6 * 0.5, 'mean, written in place');
    near(st.array.subarray(rows), ref.invStd, 2e-7, 0, 'invStdDev, written in place');
    near(buf.array, ref.y, 0, 5e-6, 'y in place');

    // a call that grows the memory detaches the caller's view: a fresh view of the same bytes comes back
    const big = 1 << 22, bigCols = 1 << 11, bigRows = big / bigCols;
    const target = pn.alloc(bigRows), view = target.array;
    const before = pn.memory.buffer.byteLength;
    // row r holds r + 0.75 (exact in float32): each row its own mean, so a row given its
    // neighbour's statistics is seen
    const rowValue = (r) => r + 0.75;
    const bigX = new Float32Array(big);
    for (let r = 0; r < bigRows; r++) bigX.fill(rowValue(r), r * bigCols, (r + 1) * bigCols);
    const g = pn.layerNorm(bigX, { cols: bigCols, meanOut: view });
    assert.ok(pn.memory.buffer.byteLength > before, 'the call grew the memory');
    assert.equal(view.length, 0, 'so the caller\'s view is detached');
    assert.equal(g.mean.byteOffset, target.ptr);
    // constant rows: their value is their mean
    for (const got of [g.mean, target.array]) {
      assert.equal(got.length, bigRows);
      for (let r = 0; r < bigRows; r++) assert.equal(got[r], rowValue(r), `mean of row ${r} (every value ${rowValue(r)}): ${got[r]}`);
    }

    // RMSNorm at 2^22 values in rows of 2048 (the SIMD build's two-pass path: each row summed,
    // then written): invRms of every row against float64, rows of different scales
    // (values from a multiplicative hash in [-0.5, 0.5), row r times 1 + (r mod 7)/4: cheaper than 2^22 normals)
    const xr = new Float32Array(big);
    for (let r = 0; r < bigRows; r++) {
      const k = 1 + (r % 7) / 4;
      for (let c = r * bigCols; c < (r + 1) * bigCols; c++) xr[c] = k * ((Math.imul(c + 1, 0x9E3779B1) >>> 0) / 2 ** 32 - 0.5);
    }
    const invRms = new Float32Array(bigRows);
    const q = pn.rmsNorm(xr, { cols: bigCols, invRmsOut: invRms });
    assert.equal(q.invRms, invRms);
    const rr = rmsNorm(xr, bigCols, { eps: EPS_RMS });
    near(invRms, rr.invRms, 1.2e-7, 0, 'invRms at 2^22 values');
    // and y, within posnorm.h's 2e-6·max|y| (a row normalised with another row's statistics is off by a few %)
    let yTop = 0, yErr = 0, yAt = 0;
    for (let k = 0; k < big; k++) yTop = Math.max(yTop, Math.abs(rr.y[k]));
    for (let k = 0; k < big; k++) if (!(Math.abs(q.y[k] - rr.y[k]) <= yErr)) { yErr = Math.abs(q.y[k] - rr.y[k]); yAt = k; }
    assert.ok(yErr <= 2e-6 * yTop, `RMSNorm y at 2^22 values: row ${Math.floor(yAt / bigCols)} col ${yAt % bigCols} is ${q.y[yAt]}, float64 gives ${rr.y[yAt]} (limit ${2e-6 * yTop})`);
  });

  test(`${name}: a wrong meanOut, invStdDevOut or invRmsOut is refused by name, writes nothing, allocates nothing, and the module stays usable`, async () => {
    const pn = await init({ simd }), other = await init({ simd });
    const rows = 4, cols = 3;
    const x = pn.alloc(rows * cols).set(normals(rows * cols, { seed: 5 })), y = pn.alloc(rows * cols);
    // the other instance's first buffers lie at the same offsets as x and y in
    // its own memory: refused as another instance's, not as an overlap
    const foreignX = other.alloc(rows * cols), foreignY = other.alloc(rows * cols);
    assert.equal(foreignX.ptr, x.ptr, 'the same offsets (else the case below proves nothing)');
    assert.equal(foreignY.ptr, y.ptr);
    const m = pn.alloc(rows), s = pn.alloc(rows);
    const wide = pn.alloc(3 * rows), one = pn.alloc(rows).set([1, 2, 3, 4]);
    const freed = pn.alloc(rows);
    freed.free();
    const LN = (o) => () => pn.layerNorm(x, { cols, out: y, ...o });
    const RMS = (o) => () => pn.rmsNorm(x, { cols, out: y, ...o });
    const cases = [
      ['layerNorm', TypeError, LN({ meanOut: new Float64Array(rows) }), ['meanOut must be a Float32Array']],
      ['layerNorm', TypeError, LN({ invStdDevOut: [0, 0, 0, 0] }), ['invStdDevOut must be a Float32Array']],
      ['layerNorm', TypeError, LN({ meanOut: pn.alloc(rows, 'i32') }), ['meanOut must be']],
      ['layerNorm', RangeError, LN({ meanOut: pn.alloc(rows + 1) }), ['meanOut.length must be 4, got 5']],
      ['layerNorm', RangeError, LN({ invStdDevOut: new Float32Array(rows - 1) }), ['invStdDevOut.length must be 4, got 3']],
      ['rmsNorm', RangeError, RMS({ invRmsOut: new Float32Array(0) }), ['invRmsOut.length must be 4, got 0']],
      ['rmsNorm', TypeError, RMS({ invRmsOut: pn.alloc(rows, 'u32') }), ['invRmsOut must be']],
      ['layerNorm', TypeError, LN({ meanOut: freed }), ['meanOut', 'freed']],
      ['rmsNorm', TypeError, RMS({ invRmsOut: freed }), ['invRmsOut', 'freed']],
      ['layerNorm', TypeError, LN({ meanOut: foreignY.subarray(0, rows) }), ['meanOut is a buffer of another posnorm instance']],
      ['layerNorm', TypeError, LN({ out: foreignX }), ['out is a buffer of another posnorm instance']],
      ['layerNorm', TypeError, LN({ meanOut: other.alloc(rows) }), ['meanOut is a buffer of another posnorm instance']],
      ['rmsNorm', TypeError, RMS({ invRmsOut: other.alloc(rows) }), ['invRmsOut is a buffer of another posnorm instance']],
      // overlaps: with each other, with y, x, gamma, beta
      ['layerNorm', RangeError, LN({ meanOut: m, invStdDevOut: m }), ['meanOut overlaps invStdDevOut']],
      ['layerNorm', RangeError, LN({ meanOut: wide.subarray(0, rows), invStdDevOut: wide.subarray(rows - 1, 2 * rows - 1) }), ['meanOut overlaps invStdDevOut']],
      ['layerNorm', RangeError, LN({ meanOut: y.subarray(2, 2 + rows) }), ['out overlaps meanOut']],
      ['layerNorm', RangeError, LN({ invStdDevOut: x.subarray(0, rows) }), ['invStdDevOut overlaps x']],
      ['layerNorm', RangeError, () => pn.layerNorm(x, { cols, gamma: wide.subarray(0, cols), meanOut: wide.subarray(1, 1 + rows) }), ['meanOut overlaps gamma']],
      ['layerNorm', RangeError, () => pn.layerNorm(x, { cols, beta: wide.subarray(0, cols), invStdDevOut: wide.subarray(2, 2 + rows) }), ['invStdDevOut overlaps beta']],
      ['rmsNorm', RangeError, RMS({ invRmsOut: y.subarray(0, rows) }), ['out overlaps invRmsOut']],
      ['rmsNorm', RangeError, () => pn.rmsNorm(x, { cols, gamma: wide.subarray(0, cols), invRmsOut: wide.subarray(0, rows) }), ['invRmsOut overlaps gamma']],
      // rows of one value: the statistics could be x itself, which is never in place
      ['layerNorm', RangeError, () => pn.layerNorm(one, { cols: 1, meanOut: one }), ['meanOut overlaps x']],
      ['rmsNorm', RangeError, () => pn.rmsNorm(one, { cols: 1, invRmsOut: one }), ['invRmsOut overlaps x']],
      // the statistics of one call are not options of the other
      ['rmsNorm', TypeError, RMS({ meanOut: m }), ['meanOut']],
      ['layerNorm', TypeError, LN({ invRmsOut: m }), ['invRmsOut']],
    ];
    // views kept from freed buffers, of this instance and of the other: the
    // other's would take the copy back into its free memory (last, so that
    // no later allocation reuses the freed bytes)
    const keptView = (p) => { const b = p.alloc(rows), view = b.array; b.free(); return view; };
    const staleHere = keptView(pn), staleThere = keptView(other);
    cases.push(
      ['layerNorm', TypeError, LN({ meanOut: staleHere }), ['meanOut views a posnorm buffer that was freed']],
      ['layerNorm', TypeError, LN({ invStdDevOut: staleHere }), ['invStdDevOut views a posnorm buffer that was freed']],
      ['rmsNorm', TypeError, RMS({ invRmsOut: staleHere }), ['invRmsOut views a posnorm buffer that was freed']],
      ['layerNorm', TypeError, LN({ meanOut: staleThere }), ["meanOut views another posnorm instance's buffer that was freed"]],
      // a view built by hand over the freed bytes: held to lie within some live buffer
      ['layerNorm', TypeError, LN({ out: new Float32Array(staleThere.buffer, staleThere.byteOffset, rows * cols) }), ["out views another posnorm instance's memory outside every live buffer"]],
      ['layerNorm', TypeError, LN({ meanOut: new Float32Array(staleHere.buffer, staleHere.byteOffset, rows) }), ["meanOut views the module's memory outside every live posnorm buffer"]],
    );
    const snapshot = () => [x, y, m, s, wide, one].map((b) => b.toArray());
    const before = snapshot(), stats = pn.heapStats();
    for (const [fn, type, call, words] of cases) {
      assert.throws(call, named(fn, type, words), `${fn}: ${words.join(', ')}`);
      assert.deepEqual(snapshot(), before, `${fn} ${words[0]}: nothing written`);
      assert.deepEqual(pn.heapStats(), stats, `${fn} ${words[0]}: nothing allocated`);
    }
    // outside the module's memory, one array as both statistics: the second copy back would overwrite the first
    const shared = new Float32Array(rows);
    assert.throws(() => pn.layerNorm(x.toArray(), { cols, meanOut: shared, invStdDevOut: shared }), named('layerNorm', RangeError, ['meanOut overlaps invStdDevOut', 'one ArrayBuffer']));
    // a live view of the other instance's memory is copied like any array
    const live = other.alloc(rows);
    assert.equal(pn.layerNorm(x, { cols, meanOut: live.array }).mean, live.array);
    near(live.array, layerNorm(x.toArray(), cols, { eps: EPS_LN }).mean, 1e-7, 1e-6, 'mean into the other instance\'s buffer');
    assert.equal(other.positionalEncoding({ seqLen: 2, dModel: 4 }).length, 8, 'the other instance stays usable');
    // still usable, and the same call with disjoint buffers works
    const ok = pn.layerNorm(x, { cols, out: y, meanOut: m, invStdDevOut: s });
    assert.equal(ok.mean, m);
    near(m.array, layerNorm(x.toArray(), cols, { eps: EPS_LN }).mean, 1e-7, 1e-6, 'mean after the refusals');
  });
}

for (const simd of [true, false]) {
  const name = simd ? 'simd' : 'scalar';
  test(`${name}: with every argument a PnBuffer the call allocates nothing in wasm memory; without statistics buffers, one array each`, async () => {
    const url = new URL(`../build/wasm/posnorm-${simd ? 'simd' : 'scalar'}.wasm`, import.meta.url);
    const { instance } = await WebAssembly.instantiate(await readFile(url), { env: { emscripten_notify_memory_growth() {} } });
    const real = instance.exports;
    let mallocs = 0;
    real._initialize?.();
    const pn = new Posnorm({ ...real, malloc: (n) => { mallocs++; return real.malloc(n); } });
    const rows = 8, cols = 64;
    const x = pn.alloc(rows * cols).set(normals(rows * cols, { mean: 1, std: 3, seed: 4 })), y = pn.alloc(rows * cols);
    const m = pn.alloc(rows), s = pn.alloc(rows), g = pn.alloc(cols).set(new Float32Array(cols).fill(1.5));
    const count = (call) => { const before = mallocs; call(); return mallocs - before; };
    assert.equal(count(() => pn.layerNorm(x, { cols, gamma: g, out: y, meanOut: m, invStdDevOut: s })), 0, 'LayerNorm, statistics into buffers');
    assert.equal(count(() => pn.layerNorm(x, { cols, gamma: g, out: y, meanOut: m })), 1, 'LayerNorm, invStdDev in a new array');
    assert.equal(count(() => pn.layerNorm(x, { cols, gamma: g, out: y })), 2, 'LayerNorm, both in new arrays');
    assert.equal(count(() => pn.rmsNorm(x, { cols, gamma: g, out: y, invRmsOut: s })), 0, 'RMSNorm, statistics into a buffer');
    assert.equal(count(() => pn.rmsNorm(x, { cols, gamma: g, out: y })), 1, 'RMSNorm, invRms in a new array');
    // and what was written is LayerNorm's
    pn.layerNorm(x, { cols, out: y, meanOut: m, invStdDevOut: s });
    const ref = layerNorm(x.toArray(), cols, { eps: EPS_LN });
    near(m.array, ref.mean, 1e-7, 3e-6, 'mean');
    near(s.array, ref.invStd, 2e-7, 0, 'invStdDev');
  });
}

// rows at the edges of float32: ±0, subnormals, ±Inf, NaN, ±3.4e38 (the
// same rows as one call, so every transition between kinds is met)
const F32_MAX = 3.4028234663852886e38;
const EDGE_ROWS = [
  [0, -0, 0, -0], [-0, -0, -0, -0], [1e-45, 2e-45, 3e-45, 1e-45], [1e-40, -1e-40, 2e-40, 0],
  [Infinity, 1, 2, 3], [-Infinity, 1, 2, 3], [NaN, 1, 2, 3], [F32_MAX, -F32_MAX, F32_MAX, F32_MAX],
  [1e30, 1e30, 1e30, 1e30], [-2, -1, 1, 2],
];

/**
 * got within 2 ulp of float64 where that is finite, else the same infinity
 * or NaN — except, with `nanRows`, where the row holds ±Inf or NaN: there
 * the statistic is NaN, as posnorm.h says of LayerNorm (float64's mean of
 * [Inf, 1, 2, 3] is Inf, but the row's variance is Inf − Inf)
 */
function edgeOk(got, want, what, { nanRows = false } = {}) {
  for (let r = 0; r < want.length; r++) {
    const nonFinite = EDGE_ROWS[r].some((v) => !Number.isFinite(v));
    const ok = nanRows && nonFinite ? Number.isNaN(got[r])
      : Number.isFinite(want[r]) ? Math.abs(got[r] - want[r]) <= 2 * ulp32(want[r])
        : Number.isNaN(want[r]) ? Number.isNaN(got[r]) : got[r] === want[r];
    assert.ok(ok, `${what} row ${r} (${EDGE_ROWS[r]}): ${got[r]}, float64 gives ${want[r]}${nanRows && nonFinite ? ' (NaN documented)' : ''}`);
  }
}

const bits = (a) => [...new Uint32Array(Float32Array.from(a).buffer)];

for (const simd of [true, false]) {
  const name = simd ? 'simd' : 'scalar';
  test(`${name}: statistics of rows of ±0, subnormals, ±Inf, NaN and ±3.4e38 into buffers: the bits of the returned arrays, and float64 where it is finite`, async () => {
    const pn = await init({ simd });
    const cols = 4, rows = EDGE_ROWS.length, xs = Float32Array.from(EDGE_ROWS.flat());
    const x = pn.alloc(rows * cols).set(xs), y = pn.alloc(rows * cols);
    const plain = pn.layerNorm(xs, { cols }), plainRms = pn.rmsNorm(xs, { cols });
    const ref = layerNorm(xs, cols, { eps: EPS_LN }), rr = rmsNorm(xs, cols, { eps: EPS_RMS });
    for (const [kind, make] of [['PnBuffer', () => pn.alloc(rows)], ['Float32Array', () => new Float32Array(rows)]]) {
      const m = make(), s = make(), q = make();
      const r = pn.layerNorm(x, { cols, out: y, meanOut: m, invStdDevOut: s });
      const view = (a) => (a.isPnBuffer ? a.array : a);
      assert.deepEqual(bits(view(r.mean)), bits(plain.mean), `${kind}: mean, the bits of the returned array`);
      assert.deepEqual(bits(view(r.invStdDev)), bits(plain.invStdDev), `${kind}: invStdDev`);
      assert.deepEqual(bits(y.array), bits(plain.y), `${kind}: y`);
      edgeOk(view(m), ref.mean, `${kind} mean`, { nanRows: true });
      edgeOk(view(s), ref.invStd, `${kind} invStdDev`, { nanRows: true });
      // the rows holding ±Inf or NaN: every LayerNorm output NaN (posnorm.h, "Non-finite")
      EDGE_ROWS.forEach((row, r) => {
        if (row.every(Number.isFinite)) return;
        assert.ok([...y.array.subarray(r * cols, r * cols + cols)].every(Number.isNaN), `${kind}: LayerNorm of row ${r} (${row}): ${y.array.subarray(r * cols, r * cols + cols)}, every value NaN`);
      });
      pn.rmsNorm(x, { cols, out: y, invRmsOut: q });
      assert.deepEqual(bits(view(q)), bits(plainRms.invRms), `${kind}: invRms`);
      edgeOk(view(q), rr.invRms, `${kind} invRms`);
      // RMSNorm of a row with ±Inf: inv_rms 0, so x·0: 0 for finite x, NaN at the Inf
      EDGE_ROWS.forEach((row, r) => {
        if (!row.some((v) => Math.abs(v) === Infinity)) return;
        const got = [...y.array.subarray(r * cols, r * cols + cols)];
        assert.deepEqual(got.map((v) => (Number.isNaN(v) ? 'NaN' : v === 0 ? 0 : v)), row.map((v) => (Number.isFinite(v) ? 0 : 'NaN')), `${kind}: RMSNorm of row ${r} (${row})`);
      });
    }
  });
}
