// Regressions of issue #16 (JS side), each written to fail on the code
// before its fix, in both wasm builds. References are float64 computations
// written here or in helpers.mjs from the published formulas.
//
// 1. Values read after the call allocated: a view of the module's memory is
//    detached when a call's own temporaries grow the memory (fillHeap makes
//    sure they do), so every length and value must be read during validation.
// 2. Preconditions the JS side did not check: they reached the kernel (a
//    generic "the kernel rejected its arguments", a hang, a crash) or gave
//    non-finite results silently.
// 3. Counterexamples the property suite (tests/properties.test.mjs) shrank.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { init } from '../src/js/posnorm.js';
import { compareValues, named, normals, maxAbsDiff, ulp32 } from './helpers.mjs';
import { attention as attentionRef } from './reference/attention.mjs';
import { colormapIndex } from './reference/colormap.mjs';
import { rounder } from './reference/lowprec.mjs';
import { forward as stackForward, lossAndGradient } from './reference/residual_stack.mjs';
import { randomNormals } from './reference/random.mjs';
import { transformerBlock as blockRef } from './reference/block.mjs';
import { layerNorm, rmsNorm, columnStats, runningUpdate } from './reference/norms.mjs';
import { hfRopeFrequencies as hfRope } from './reference/rope_scaling.mjs';
import { fillHeap, freeAll, inWorker } from './properties/heap.mjs';

const BUILDS = [['simd', true], ['scalar', false]];

/**
 * A fresh instance on which `setup(pn)` ran, with its heap filled so that
 * whatever a call allocates first grows the memory (and detaches every view
 * of it), also an output of 12 bytes (minRowDistance's; alloc asks malloc
 * for 63 bytes more than that): after fillHeap, as many 16-byte blocks from
 * malloc itself (pn.raw) as fit without growing the memory, counted on a
 * first instance set up the same way (malloc serves a block from any free
 * chunk before it grows the memory, so when one more would grow it no free
 * chunk of 24 bytes is left anywhere). The callers check that the call grew
 * the memory. Returns { pn, state } with state what setup returned.
 */
async function tightInstance(simd, setup) {
  const filled = async () => {
    const pn = await init({ simd });
    const state = setup(pn);
    fillHeap(pn);
    return { pn, state };
  };
  const trial = (await filled()).pn, size = trial.memory.buffer.byteLength;
  let fit = 0;
  for (; fit < 1 << 16; fit++) {
    trial.raw.malloc(16);
    if (trial.memory.buffer.byteLength !== size) break;
  }
  const r = await filled();
  assert.equal(r.pn.memory.buffer.byteLength, size, 'tightInstance: the same heap as the trial');
  for (let k = 0; k < fit; k++) r.pn.raw.malloc(16);
  assert.equal(r.pn.memory.buffer.byteLength, size, 'tightInstance: the memory did not grow while it filled');
  return r;
}

/** Whether got is within rel·max|want| of want everywhere. */
const closeTo = (got, want, rel) => maxAbsDiff(got, want) <= rel * Math.max(...want.map(Math.abs));

// the other arrays of the calls of the read-before-allocate test (x: 8192 values)
const IDS = Int32Array.from({ length: 64 }, (_, s) => 5 + 7 * s);
const W_ATTN = [21, 22, 23].map((seed) => normals(64 * 64, { std: 0.05, seed }));
const W_STACK = normals(4 * 64 * 64, { std: 0.05, seed: 24 });
const READOUT = normals(8192, { std: 0.01, seed: 25 });
const W_BLOCK = normals(4 * 64 * 64 + 2 * 64 * 256, { std: 0.05, seed: 26 });
const GAMMA_N = normals(8192, { mean: 1, std: 0.5, seed: 27 }), BETA_N = normals(8192, { std: 0.5, seed: 28 });

/** Half-split RoPE ([1, seq, heads, dim], bshd) in float64 with frequencies inv and positions pos. */
function ropeRef(x, { seqLen, heads, headDim, inv, af = 1, pos }) {
  const half = inv.length, y = Float64Array.from(x);
  for (let s = 0; s < seqLen; s++) {
    for (let h = 0; h < heads; h++) {
      const at = (s * heads + h) * headDim;
      for (let i = 0; i < half; i++) {
        const c = Math.cos(pos[s] * inv[i]) * af, sn = Math.sin(pos[s] * inv[i]) * af;
        const a = x[at + i], b = x[at + half + i];
        y[at + i] = a * c - b * sn;
        y[at + half + i] = a * sn + b * c;
      }
    }
  }
  return y;
}


for (const [name, simd] of BUILDS) {
  // ---- 1. values read after the call's allocations ------------------------

  test(`${name}: rope with dynamic scaling takes the sequence length from position ids that are a buffer, also when the call grows the memory`, async () => {
    const pn = await init({ simd });
    const seqLen = 64, heads = 8, headDim = 16;
    const scaling = { type: 'dynamic', factor: 4, originalMaxPositions: 16 };
    const pos = Array.from({ length: seqLen }, (_, s) => 3 + 15 * s); // up to 948: the base grows
    const ids = pn.alloc(seqLen, 'i32').set(pos);
    const x = normals(seqLen * heads * headDim, { seed: 41 });
    const fillers = fillHeap(pn);
    const before = pn.memory.buffer.byteLength;
    const y = pn.rope(x, { seqLen, heads, headDim, positionIds: ids, scaling });
    assert.ok(pn.memory.buffer.byteLength > before, 'the call grew the memory');
    const { inv } = hfRope(headDim, 10000, scaling, Math.max(...pos) + 1);
    const d = maxAbsDiff(y, ropeRef(x, { seqLen, heads, headDim, inv, pos }));
    assert.ok(d <= 2e-6, `rope vs float64 with seqLen = max id + 1: ${d}`);
    freeAll([...fillers, ids]);
  });

  test(`${name}: rope with longrope picks longFactor from position ids that view the module's memory, also when the call grows it`, async () => {
    const pn = await init({ simd });
    const seqLen = 32, heads = 8, headDim = 8;
    const scaling = { type: 'longrope', originalMaxPositions: 64, factor: 4, shortFactor: [1, 1, 1, 1], longFactor: [1, 2, 4, 8] };
    const pos = Array.from({ length: seqLen }, (_, s) => 40 * s); // past 64: longFactor
    const buf = pn.alloc(seqLen, 'i32').set(pos);
    const x = normals(seqLen * heads * headDim, { seed: 42 });
    const fillers = fillHeap(pn);
    const before = pn.memory.buffer.byteLength;
    const y = pn.rope(x, { seqLen, heads, headDim, positionIds: buf.array, scaling });
    assert.ok(pn.memory.buffer.byteLength > before, 'the call grew the memory');
    const { inv, af } = hfRope(headDim, 10000, scaling, Math.max(...pos) + 1);
    const d = maxAbsDiff(y, ropeRef(x, { seqLen, heads, headDim, inv, af, pos }));
    assert.ok(d <= 2e-6, `rope vs float64 with longFactor: ${d}`);
    freeAll([...fillers, buf]);
  });

  test(`${name}: batchNorm at inference returns the running statistics it was given when they view the module's memory and the call grows it`, async () => {
    const pn = await init({ simd });
    const cols = 16, rows = 512;
    const stats = pn.alloc(2 * cols).set([...normals(cols, { seed: 7 }), ...normals(cols, { mean: 2, std: 0.5, seed: 8 }).map(Math.abs)]);
    const want = stats.toArray();
    const x = normals(rows * cols, { seed: 9 });
    const fillers = fillHeap(pn);
    const all = stats.array;
    const before = pn.memory.buffer.byteLength;
    const r = pn.batchNorm(x, { cols, training: false, runningMean: all.subarray(0, cols), runningVar: all.subarray(cols) });
    assert.ok(pn.memory.buffer.byteLength > before, 'the call grew the memory');
    assert.deepEqual([...r.mean], [...want.subarray(0, cols)]);
    assert.deepEqual([...r.var], [...want.subarray(cols)]);
    for (let k = 0; k < x.length; k++) {
      const c = k % cols, ref = (x[k] - want[c]) / Math.sqrt(want[cols + c] + Math.fround(1e-5));
      assert.ok(Math.abs(r.y[k] - ref) <= 5e-6, `y[${k}] ${r.y[k]} vs ${ref}`);
    }
    freeAll([...fillers, stats]);
  });

  test(`${name}: every call that takes arrays, given views of the module's memory, reads their lengths and values before it allocates (its first allocation grows the memory)`, async () => {
    const cols = 2048, rows = 4, n = rows * cols;
    const data = normals(n, { mean: 1, std: 3, seed: 11 });
    let pn = await init({ simd });
    const gamma = new Float32Array(cols).fill(1.5);
    const cases = [
      ['layerNorm', (x) => pn.layerNorm(x, { cols, gamma }), (r) => {
        assert.equal(r.y.length, n);
        const ref = layerNorm(data, cols, { gamma, eps: Math.fround(1e-5) });
        assert.ok(maxAbsDiff(r.y, ref.y) <= 5e-6);
      }],
      ['rmsNorm', (x) => pn.rmsNorm(x, { cols, gamma }), (r) => {
        assert.equal(r.y.length, n);
        for (let row = 0; row < rows; row++) {
          let sq = 0;
          for (let c = 0; c < cols; c++) sq += data[row * cols + c] ** 2;
          const inv = 1 / Math.sqrt(sq / cols + Math.fround(1e-6));
          for (let c = 0; c < cols; c++) assert.ok(Math.abs(r.y[row * cols + c] - 1.5 * data[row * cols + c] * inv) <= 2e-6 * 8);
        }
      }],
      ['batchNorm', (x) => pn.batchNorm(x, { cols, gamma }), (r) => {
        assert.equal(r.y.length, n);
        const { mean, variance } = columnStats(data, cols);
        for (let k = 0; k < n; k++) {
          const c = k % cols;
          assert.ok(Math.abs(r.y[k] - 1.5 * (data[k] - mean[c]) / Math.sqrt(variance[c] + Math.fround(1e-5))) <= 5e-6 * 2);
        }
      }],
      ['histogram', (x) => pn.histogram(x, { bins: 4096, min: -20, max: 20 }), (r) => {
        let inRange = 0;
        for (const t of data) if (t >= -20 && t <= 20) inRange++;
        assert.equal(r.counts.reduce((a, b) => a + b, 0), inRange, 'every value counted');
        assert.equal(r.below + r.above + r.nan + inRange, n);
      }],
      ['colormap', (x) => pn.colormap(x, { vmin: -10, vmax: 10 }), (r) => {
        assert.equal(r.length, 4 * n);
        const lut = pn.colormapTable();
        for (let k = 0; k < n; k += 97) {
          const t = Math.min(255, Math.max(0, Math.floor(255 * ((data[k] + 10) / 20) + 0.5)));
          assert.deepEqual([...r.subarray(4 * k, 4 * k + 4)], [...lut.subarray(4 * t, 4 * t + 4)]);
        }
      }],
      ['peShift', (x) => pn.peShift(x, { k: 3 }), (r) => {
        assert.equal(r.length, n);
        for (let i = 0; i < n / 2; i += 31) {
          const a = 3 * Math.exp((-2 * i / n) * Math.log(10000)), s = data[2 * i], c = data[2 * i + 1];
          assert.ok(Math.abs(r[2 * i] - (s * Math.cos(a) + c * Math.sin(a))) <= 1e-5 * 10);
        }
      }],
      // (a length read inside the call, after its first allocation, is 0: a detached view's)
      ...['bfloat16', 'float16'].map((precision) => [`roundToPrecision ${precision}`, (x) => pn.roundToPrecision(x, { precision }), (r) => {
        const round = rounder(precision);
        assert.equal(r.length, n);
        const wrong = [...data].findIndex((t, k) => !Object.is(r[k], round(t)));
        assert.equal(wrong, -1, `${precision}: x[${wrong}] = ${data[wrong]} rounds to ${round(data[wrong])}, got ${r[wrong]}`);
      }]),
      ['rope', (x) => pn.rope(x, { seqLen: 64, heads: 8, headDim: 16 }), (r) => {
        const want = ropeRef(data, { seqLen: 64, heads: 8, headDim: 16, inv: hfRope(16, 10000).inv, pos: Array.from({ length: 64 }, (_, s) => s) });
        assert.ok(r.length === n && maxAbsDiff(r, want) <= 1e-5, `rope vs float64: ${maxAbsDiff(r, want)}`);
      }],
      ['rope with positionIds', (x, ids) => pn.rope(x, { seqLen: 64, heads: 8, headDim: 16, positionIds: ids }), (r) => {
        const want = ropeRef(data, { seqLen: 64, heads: 8, headDim: 16, inv: hfRope(16, 10000).inv, pos: IDS });
        assert.ok(r.length === n && maxAbsDiff(r, want) <= 1e-5, `rope vs float64: ${maxAbsDiff(r, want)}`);
      }, [IDS]],
      ['gram', (x) => pn.gram(x, { cols: 8 }), (r) => {
        // rows 1024 of 8: float64 sums of exact float64 products, rounded once
        const rows = n / 8, want = new Float64Array(rows * rows);
        for (let i = 0; i < rows; i++) for (let j = 0; j < rows; j++) {
          let t = 0;
          for (let c = 0; c < 8; c++) t += data[i * 8 + c] * data[j * 8 + c];
          want[i * rows + j] = t;
        }
        const e = compareValues(r, want, ulp32);
        assert.ok(e.err <= 1 && e.compared === rows * rows, `gram: ${e.err} ulp`);
      }],
      ['minRowDistance', (x) => pn.minRowDistance(x, { cols: 8 }), (r) => {
        let best = Infinity, bi = -1, bj = -1;
        for (let i = 0; i < n / 8; i++) for (let j = i + 1; j < n / 8; j++) {
          let d2 = 0;
          for (let c = 0; c < 8; c++) d2 += (data[i * 8 + c] - data[j * 8 + c]) ** 2;
          if (d2 < best) [best, bi, bj] = [d2, i, j];
        }
        assert.deepEqual([r.i, r.j], [bi, bj], 'the closest pair');
        assert.ok(Math.abs(r.distance - Math.sqrt(best)) <= ulp32(Math.sqrt(best)), `${r.distance} vs ${Math.sqrt(best)}`);
      }],
      ['attention', (x, wq, wk, wv) => pn.attention(x, { dModel: 64, wq, wk, wv }), (r) => {
        const want = attentionRef(data, ...W_ATTN, { seqLen: n / 64, dModel: 64 });
        assert.ok(closeTo(r.out, want.out, 1e-6) && closeTo(r.weights, want.weights, 1e-6), `attention vs float64: ${maxAbsDiff(r.out, want.out)}, weights ${maxAbsDiff(r.weights, want.weights)}`);
      }, W_ATTN],
      ['residualStack', (x0, weights) => pn.residualStack(x0, weights, { width: 64, layers: 4, block: 'pre-ln' }), (r) => {
        const want = stackForward(data, W_STACK, { width: 64, layers: 4, block: 'pre-ln' }).std;
        assert.ok(r.length === 4 && closeTo(r, want, 1e-4), `std per layer ${[...r]} vs ${[...want]}`);
      }, [W_STACK]],
      ['residualStack with gradients', (x0, weights, readout) => pn.residualStack(x0, weights, { width: 64, layers: 4, block: 'pre-ln', gradients: true, readout }), (r) => {
        const want = lossAndGradient(data, W_STACK, READOUT, { width: 64, layers: 4, block: 'pre-ln' });
        assert.ok(Math.abs(r.loss - want.loss) <= 1e-9 * Math.abs(want.loss), `loss ${r.loss} vs ${want.loss}`);
        assert.ok(r.grad.length === W_STACK.length && closeTo(r.grad, want.grad, 1e-6), `gradient vs float64: ${maxAbsDiff(r.grad, want.grad)}`);
      }, [W_STACK, READOUT]],
      ['transformerBlock', (x, weights) => pn.transformerBlock(x, weights, { dModel: 64, heads: 4 }), (r) => {
        const want = blockRef(data, W_BLOCK, { dModel: 64, heads: 4 });
        assert.ok(closeTo(r.output, want.output, 1e-6) && closeTo(r.attention, want.attention, 1e-6), `transformerBlock vs float64: ${maxAbsDiff(r.output, want.output)}`);
      }, [W_BLOCK]],
      ['layerNormSteps', (x, g, b) => pn.layerNormSteps(x, { gamma: g, beta: b }), (r) => {
        const want = layerNorm(data, n, { gamma: GAMMA_N, beta: BETA_N, eps: Math.fround(1e-5) });
        assert.ok(r.y.length === n && closeTo(r.y, want.y, 2e-6), `layerNormSteps vs float64: ${maxAbsDiff(r.y, want.y)}`);
        assert.ok(Math.abs(r.mean - want.mean[0]) <= ulp32(want.mean[0]) && Math.abs(r.variance - want.variance[0]) <= ulp32(want.variance[0]), `mean ${r.mean}, variance ${r.variance}`);
      }, [GAMMA_N, BETA_N]],
    ];
    // every call whose first argument is an array in posnorm.d.ts (the others take sizes and options)
    const dts = readFileSync(new URL('../src/js/posnorm.d.ts', import.meta.url), 'utf8');
    const cls = dts.slice(dts.indexOf('export declare class Posnorm'));
    const takesArrays = [...new Set([...cls.matchAll(/^\s*(\w+)(?:<[^(]*>)?\(\s*\w+: F32Input\b/gm)].map((m) => m[1]))].sort();
    assert.ok(takesArrays.length >= 14, `the parser reads the types: ${takesArrays}`);
    assert.deepEqual([...new Set(cases.map(([fn]) => fn.split(' ')[0]))].sort(), takesArrays, 'a case for every call that takes an array');
    for (const [fn, call, verify, more = []] of cases) {
      // x and the call's other arrays in buffers of a fresh heap, without holes, for fillHeap
      const inputs = [data, ...more];
      let bufs;
      ({ pn, state: bufs } = await tightInstance(simd, (p) => inputs.map((a) => p.alloc(a.length, a instanceof Int32Array ? 'i32' : 'f32').set(a))));
      const before = pn.memory.buffer.byteLength;
      // the call's first allocation (a copy of gamma, an output) grows the memory
      let r;
      try { r = call(...bufs.map((b) => b.array)); } catch (e) { assert.fail(`${fn} on views of the module's memory threw: ${e.message}`); }
      assert.ok(pn.memory.buffer.byteLength > before, `${fn}: the call grew the memory`);
      verify(r);
      bufs.forEach((b, k) => assert.deepEqual(b.toArray(), inputs[k], `${fn}: argument ${k} untouched`));
    }
  });

  test(`${name}: a buffer of another instance as out is refused before the call allocates anything`, async () => {
    const a = await init({ simd }), b = await init({ simd });
    const out = a.alloc(1 << 20);
    const x = normals(1 << 20, { seed: 12 }); // its copy would grow b's memory
    const before = b.heapStats();
    assert.throws(() => b.layerNorm(x, { cols: 1024, out }), named('layerNorm', TypeError, 'out is a buffer of another posnorm instance'));
    assert.deepEqual(b.heapStats(), before, 'nothing allocated, the memory did not grow');
  });

  // ---- 2. preconditions the JS side did not check -------------------------

  test(`${name}: yarn's betaFast and betaSlow must be in [1e-9, 1e9] (a subnormal one made the kernel loop forever)`, async () => {
    const yarn = { type: 'yarn', factor: 8, originalMaxPositions: 4096 };
    // in a worker under a time limit: before the fix this call never returned
    const r = await inWorker(`return pn.ropeFrequencies({ dim: 64, scaling: ${JSON.stringify(yarn).slice(0, -1)}, betaFast: 5e-324 } });`, { simd, ms: 20000 });
    assert.equal(r.ok, false, 'refused');
    assert.equal(r.name, 'RangeError');
    assert.match(r.message, /^posnorm\.ropeFrequencies: scaling\.betaFast must be a finite number in \[1e-9, 1000000000\], got 5e-324$/);
    const pn = await init({ simd });
    assert.throws(() => pn.rope(new Float32Array(8), { seqLen: 1, heads: 1, headDim: 8, scaling: { ...yarn, betaSlow: 1e-10 } }), named('rope', RangeError, 'scaling.betaSlow'));
    assert.throws(() => pn.ropeFrequencies({ dim: 8, scaling: { ...yarn, betaFast: 2e9 } }), named('ropeFrequencies', RangeError, 'scaling.betaFast'));
    // the ends of the range work and give finite frequencies
    for (const beta of [1e-9, 1e9]) {
      const f = pn.ropeFrequencies({ dim: 64, scaling: { ...yarn, betaFast: beta, betaSlow: beta } });
      const ref = hfRope(64, 10000, { ...yarn, betaFast: beta, betaSlow: beta });
      assert.ok(maxAbsDiff(f.invFreq, ref.inv) <= 1e-7 * ref.inv[0], `beta ${beta}`);
    }
  });

  test(`${name}: longrope with factor > 1 needs originalMaxPositions >= 2 (ln 1 = 0 made the attention factor Infinity)`, async () => {
    const pn = await init({ simd });
    const scaling = { type: 'longrope', originalMaxPositions: 1, factor: 2, shortFactor: [1, 1], longFactor: [2, 2] };
    assert.throws(() => pn.ropeFrequencies({ dim: 4, scaling }), named('ropeFrequencies', RangeError, ['scaling.originalMaxPositions', 'scaling.factor']));
    assert.throws(() => pn.rope(new Float32Array(4), { seqLen: 1, heads: 1, headDim: 4, scaling }), named('rope', RangeError, 'scaling.originalMaxPositions'));
    // a given attention factor replaces the default: then it is fine
    const f = pn.ropeFrequencies({ dim: 4, scaling: { ...scaling, attentionFactor: 1.25 }, seqLen: 5 });
    assert.equal(f.attentionFactor, 1.25);
    const two = pn.ropeFrequencies({ dim: 4, scaling: { ...scaling, originalMaxPositions: 2 } });
    assert.ok(Math.abs(two.attentionFactor - Math.sqrt(1 + Math.log(2) / Math.log(2))) <= 1e-15, `${two.attentionFactor}`);
  });

  test(`${name}: yarn's attention factor m(factor, mscale)/m(factor, mscaleAllDim) must be finite and > 0`, async () => {
    const pn = await init({ simd });
    const yarn = { type: 'yarn', factor: Math.E, originalMaxPositions: 4096 };
    // m(e, k) = 0.1·k + 1: mscale −20 gives −1 (a negative factor), −10 gives 0
    for (const [mscale, mscaleAllDim] of [[-20, 1], [1, -10], [-10, 1], [1, -20 + 1e-13]]) {
      assert.throws(() => pn.ropeFrequencies({ dim: 16, scaling: { ...yarn, mscale, mscaleAllDim } }), named('ropeFrequencies', RangeError, ['scaling.mscale', 'scaling.mscaleAllDim']), `${mscale}/${mscaleAllDim}`);
      assert.throws(() => pn.rope(new Float32Array(16), { seqLen: 1, heads: 1, headDim: 16, scaling: { ...yarn, mscale, mscaleAllDim } }), named('rope', RangeError, 'scaling.mscale'));
    }
    const ok = pn.ropeFrequencies({ dim: 16, scaling: { ...yarn, mscale: -20, mscaleAllDim: -30 } });
    assert.ok(Math.abs(ok.attentionFactor - (0.1 * -20 + 1) / (0.1 * -30 + 1)) <= 1e-12, 'two negative m give a positive factor');
    // docs/api.md: "neither m within 1e-12 of 0". mscale or mscaleAllDim −10 + 1e-14 gives m = 0.1·(−10 + 1e-14) + 1,
    // about 1e-15: a finite factor > 0 (1.1/1e-15 = 1.1e15, or 1e-15/1.1) whose size is rounding alone, refused
    for (const [mscale, mscaleAllDim] of [[1, -10 + 1e-14], [-10 + 1e-14, 1]]) {
      assert.throws(() => pn.ropeFrequencies({ dim: 16, scaling: { ...yarn, mscale, mscaleAllDim } }), named('ropeFrequencies', RangeError, ['scaling.mscale', 'scaling.mscaleAllDim', 'within 1e-12 of 0']), `${mscale}/${mscaleAllDim}`);
      assert.throws(() => pn.rope(new Float32Array(16), { seqLen: 1, heads: 1, headDim: 16, scaling: { ...yarn, mscale, mscaleAllDim } }), named('rope', RangeError, ['scaling.mscale', 'within 1e-12 of 0']), `rope: ${mscale}/${mscaleAllDim}`);
    }
    // m = 1e-11 (mscale −10 + 1e-10), ten times past 1e-12: accepted, the factor m(e, 1)/m(e, −10 + 1e-10) = 1.1/1e-11 = 1.1e11
    // (to the 1e-5 that 0.1·(−10 + 1e-10) + 1 keeps of 1e-11 in float64), and its inverse
    const m = (k) => 0.1 * k + 1;
    for (const [mscale, mscaleAllDim] of [[1, -10 + 1e-10], [-10 + 1e-10, 1]]) {
      const af = pn.ropeFrequencies({ dim: 16, scaling: { ...yarn, mscale, mscaleAllDim } }).attentionFactor;
      const want = m(mscale) / m(mscaleAllDim);
      assert.ok(Math.abs(af - want) <= 1e-4 * want && Math.abs(Math.log10(want) - (mscale === 1 ? 11.04 : -11.04)) < 0.01, `${mscale}/${mscaleAllDim}: ${af} vs ${want}`);
    }
  });

  test(`${name}: dynamic's grown base must stay finite: base and scaling.factor are named`, async () => {
    const pn = await init({ simd });
    const scaling = { type: 'dynamic', factor: 1e9, originalMaxPositions: 1 };
    assert.throws(() => pn.ropeFrequencies({ dim: 4, base: 1e300, scaling, seqLen: 2 ** 31 }), named('ropeFrequencies', RangeError, ['base', 'scaling.factor', 'grown base']));
    assert.throws(() => pn.rope(new Float32Array(4), { seqLen: 1, heads: 1, headDim: 4, base: 1e300, offset: 2 ** 31 - 1, scaling }), named('rope', RangeError, 'grown base'));
    // the same with a base that stays finite
    const f = pn.ropeFrequencies({ dim: 4, base: 1e10, scaling, seqLen: 2 ** 31 });
    const ref = hfRope(4, 1e10, scaling, 2 ** 31);
    assert.ok(Math.abs(f.invFreq[1] - ref.inv[1]) <= 1e-6 * ref.inv[1], `${f.invFreq[1]} vs ${ref.inv[1]}`);
  });

  test(`${name}: dynamic's grown base may reach 2^1023 and no further (docs/api.md: in (1, 2^1023]), both sides of the bound`, async () => {
    const pn = await init({ simd });
    // seqLen within the original length: s = orig, the growth factor·s/orig − (factor − 1) = 1, the grown base is base itself
    const flat = { type: 'dynamic', factor: 2, originalMaxPositions: 4 };
    const above = 2 ** 1023 * (1 + 2 ** -52), below = 2 ** 1023 * (1 - 2 ** -53); // the doubles next to 2^1023
    assert.ok(above > 2 ** 1023 && above < Number.MAX_VALUE && below < 2 ** 1023);
    assert.throws(() => pn.ropeFrequencies({ dim: 4, base: above, scaling: flat }), named('ropeFrequencies', RangeError, ['base', 'scaling.factor', 'grown base', '2^1023']), 'just above 2^1023');
    for (const base of [2 ** 1023, below]) {
      const f = pn.ropeFrequencies({ dim: 4, base, scaling: flat });
      // w = base^(−2i/4): 1, and 2^−511.5 (0 in float32)
      assert.deepStrictEqual(f, { invFreq: new Float32Array([1, 0]), attentionFactor: 1 }, `base ${base}`);
    }
    // grown: factor 2, orig 1, s = 2: (2·2/1 − 1)^(4/2) = 9, the grown base 9·base; a factor 1e-9 either side of 2^1023
    // (far beyond exp and log's rounding) is refused above, accepted below; rope at positions 0…1 alike (s = offset + seqLen = 2)
    const grows = { type: 'dynamic', factor: 2, originalMaxPositions: 1 };
    const over = (2 ** 1023 / 9) * (1 + 1e-9), under = (2 ** 1023 / 9) * (1 - 1e-9);
    assert.ok(9 * over < Number.MAX_VALUE);
    assert.throws(() => pn.ropeFrequencies({ dim: 4, base: over, scaling: grows, seqLen: 2 }), named('ropeFrequencies', RangeError, ['grown base', '2^1023']), '9·base just above 2^1023');
    assert.throws(() => pn.rope(new Float32Array(8), { seqLen: 2, heads: 1, headDim: 4, base: over, scaling: grows }), named('rope', RangeError, ['grown base', '2^1023']), 'rope: 9·base just above 2^1023');
    assert.deepStrictEqual(pn.ropeFrequencies({ dim: 4, base: under, scaling: grows, seqLen: 2 }), { invFreq: new Float32Array([1, 0]), attentionFactor: 1 }, '9·base just below 2^1023');
    // a pair of that rope: w_1 = (9·base)^(−1/2) ≈ 2^−511.5, so position 1 turns it by nothing; pair 0 (w 1) by 1 radian
    const y = pn.rope(new Float32Array([1, 1, 0, 0, 1, 1, 0, 0]), { seqLen: 2, heads: 1, headDim: 4, base: under, scaling: grows });
    assert.deepEqual([...y], [1, 1, 0, 0, Math.fround(Math.cos(1)), 1, Math.fround(Math.sin(1)), 0], 'rope just below the bound');
  });

  test(`${name}: scaling factors below 1e-9 are refused by name (a subnormal factor made every frequency Infinity)`, async () => {
    const pn = await init({ simd });
    for (const factor of [1e-320, 5e-324, 1e-10]) {
      assert.throws(() => pn.ropeFrequencies({ dim: 8, scaling: { type: 'linear', factor } }), named('ropeFrequencies', RangeError, ['scaling.factor', '1e-9']), String(factor));
    }
    const longrope = { type: 'longrope', originalMaxPositions: 8, shortFactor: [1, 5e-324], longFactor: [1, 1] };
    assert.throws(() => pn.ropeFrequencies({ dim: 4, scaling: longrope }), named('ropeFrequencies', RangeError, 'scaling.shortFactor[1]'));
    // the smallest allowed factor gives finite frequencies: w_i / 1e-9
    const f = pn.ropeFrequencies({ dim: 8, scaling: { type: 'linear', factor: 1e-9 } });
    f.invFreq.forEach((w, i) => assert.ok(Math.abs(w - Math.fround(1e4 ** (-2 * i / 8) / 1e-9)) <= 1e-7 * w, `${i}: ${w}`));
  });

  test(`${name}: position ids given as an array are checked as given, not after conversion to int32`, async () => {
    const pn = await init({ simd });
    const x = new Float32Array(2 * 4).fill(1);
    for (const [bad, Err] of [[[0, 1.5], RangeError], [[0, 2 ** 32 + 1], RangeError], [[0, NaN], RangeError], [[0, '1'], TypeError], [[0, null], TypeError]]) {
      assert.throws(() => pn.rope(x, { seqLen: 2, heads: 1, headDim: 4, positionIds: bad }), named('rope', Err, 'positionIds[1]'), String(bad));
    }
    for (const bad of [[0, 1.5], ['0', 1]]) {
      assert.throws(() => pn.ropeFrequencies({ dim: 4, scaling: { type: 'longrope', originalMaxPositions: 4, shortFactor: bad, longFactor: [1, 1] } }), named('ropeFrequencies', bad[0] === '0' ? TypeError : RangeError, 'scaling.shortFactor'), String(bad));
    }
  });

  test(`${name}: residualStack with gradients whose scratch passes 4 GiB is a RangeError before anything is allocated (it wrapped in 32 bits and crashed)`, async () => {
    const pn = await init({ simd });
    // rows = width = 4096, layers = 9: the kernel's scratch 8·rows·width·(3·9 + 5) + 8·rows·10 is 2^32 + 327680
    // bytes, which a 32-bit size_t wraps to 327680: the kernel then wrote far past it
    const x0 = new Float32Array(4096 * 4096), weights = new Float32Array(9 * 4096 * 4096); // zero pages: never touched
    const before = pn.heapStats();
    // (refused by the memory check until the work limit, 2^32 multiply-adds, which comes first now)
    assert.throws(() => pn.residualStack(x0, weights, { width: 4096, layers: 9, gradients: true }),
      named('residualStack', RangeError, ['its multiply-adds, must be at most 4294967296', '3 × 9 × 16777216 × 4096 with gradients']));
    assert.deepEqual(pn.heapStats(), before, 'nothing allocated, the memory did not grow');
    // a small stack still works, against the same stack in float64
    const small = pn.residualStack(new Float32Array([1, -1, 2, 0.5]), new Float32Array(4).fill(0.25), { width: 2, layers: 1, gradients: true, readout: new Float32Array([1, 0, 0, 1]) });
    const gelu = (z) => 0.5 * z * (1 + Math.tanh(Math.sqrt(2 / Math.PI) * (z + 0.044715 * z ** 3)));
    const y = [1 + gelu(0), -1 + gelu(0), 2 + gelu(0.625), 0.5 + gelu(0.625)];
    assert.ok(Math.abs(small.loss - (y[0] + y[3])) <= 1e-12, `${small.loss}`);
  });

  // ---- review of #16 ---------------------------------------------------------

  test(`${name}: histogram's default range is the finite data range, ±Inf left out of it (they made it [0, 3.4e38])`, async () => {
    const pn = await init({ simd });
    const h = pn.histogram(new Float32Array([0, 0.5, 1, Infinity, -Infinity, NaN]), { bins: 2 });
    assert.deepEqual([h.min, h.max], [0, 1]);
    assert.deepEqual([...h.counts, h.below, h.above, h.nan], [1, 2, 1, 1, 1]); // [0, 0.5) | [0.5, 1]
  });

  test(`${name}: histogram of constant data without min/max works at every magnitude (min ± 0.5 rounded back to min above 2^24)`, async () => {
    const pn = await init({ simd });
    for (const c of [0, 1, -3, 1e8, -1e8, 1e30, 3.4028234663852886e38, -3.4028234663852886e38, 1e-40]) {
      const x = new Float32Array([c, c, c]);
      const h = pn.histogram(x, { bins: 4 });
      assert.ok(h.min <= x[0] && x[0] <= h.max && h.min < h.max, `${c}: [${h.min}, ${h.max}]`);
      assert.equal(h.counts.reduce((a, b) => a + b, 0), 3, `${c}: every value in a bin`);
    }
  });

  test(`${name}: out that overlaps an input without being it is refused (a row written over the next row's input gave wrong rows silently)`, async () => {
    const pn = await init({ simd });
    const cols = 4, rows = 3;
    const m = pn.alloc(cols * (rows + 1)).set(Array.from({ length: cols * (rows + 1) }, (_, k) => (k * 7919) % 13 - 6));
    const before = m.toArray(), stats = pn.heapStats();
    const calls = [
      ['layerNorm', () => pn.layerNorm(m.subarray(0, rows * cols), { cols, out: m.subarray(cols) })],
      ['layerNorm', () => pn.layerNorm(m.subarray(cols), { cols, out: m.subarray(0, rows * cols) })],
      ['layerNorm', () => pn.layerNorm(m.subarray(0, rows * cols), { cols, out: m.array.subarray(cols) })],
      ['rmsNorm', () => pn.rmsNorm(m.subarray(0, rows * cols), { cols, out: m.subarray(cols) })],
      ['batchNorm', () => pn.batchNorm(m.subarray(0, rows * cols), { cols, out: m.subarray(cols) })],
      ['batchNorm', () => pn.batchNorm(m.subarray(0, rows * cols), { cols, runningMean: m.subarray(2, 2 + cols), runningVar: m.subarray(rows * cols) })],
      ['batchNorm', () => pn.batchNorm(m.subarray(0, 2 * cols), { cols, runningMean: m.subarray(2 * cols, 3 * cols), runningVar: m.subarray(2 * cols, 3 * cols) })],
      ['rope', () => pn.rope(m.subarray(0, rows * cols), { seqLen: rows, heads: 1, headDim: cols, out: m.subarray(cols) })],
      // γ or β exactly out: read after the row is written (a one-row LayerNorm was off by 3)
      ['layerNorm', () => pn.layerNorm(m.subarray(0, cols), { cols, gamma: m.subarray(0, cols), out: m.subarray(0, cols) })],
      ['layerNorm', () => pn.layerNorm(m.subarray(cols, 2 * cols), { cols, beta: m.subarray(0, cols), out: m.subarray(0, cols) })],
      ['rmsNorm', () => pn.rmsNorm(m.subarray(0, cols), { cols, gamma: m.subarray(0, cols), out: m.subarray(0, cols) })],
      ['batchNorm', () => pn.batchNorm(m.subarray(0, cols), { cols, gamma: m.subarray(0, cols), out: m.subarray(0, cols) })],
    ];
    for (const [fn, call] of calls) {
      assert.throws(call, named(fn, RangeError, ['overlap']));
      assert.deepEqual(m.toArray(), before, `${fn}: nothing written`);
      assert.deepEqual(pn.heapStats(), stats, `${fn}: nothing allocated`);
    }
    // outside the module's memory: what is copied back must not overlap (one
    // Float32Array as both running statistics gave the second's values in both)
    const xs = Float32Array.from({ length: rows * cols }, (_, k) => (k * 5) % 7 - 3);
    const plain = [
      () => { const s = new Float32Array(cols); return pn.batchNorm(xs, { cols, runningMean: s, runningVar: s }); },
      () => { const s = new Float32Array(2 * cols); return pn.batchNorm(xs, { cols, runningMean: s.subarray(0, cols), runningVar: s.subarray(cols - 1, 2 * cols - 1) }); },
      () => { const s = new Float32Array(cols); return pn.batchNorm(xs.subarray(0, cols), { cols, runningMean: s, runningVar: new Float32Array(cols).fill(1), out: s }); },
    ];
    for (const call of plain) assert.throws(call, named('batchNorm', RangeError, ['overlaps', 'one ArrayBuffer']));
    // copies in are fine: out is x, gamma is x, both plain
    const g = Float32Array.from({ length: cols }, (_, k) => k + 1);
    const r1 = pn.layerNorm(g, { cols, gamma: g });
    assert.ok(maxAbsDiff(r1.y, layerNorm(g, cols, { gamma: g, eps: Math.fround(1e-5) }).y) <= 5e-6);
    const xc = Float32Array.from(xs);
    pn.layerNorm(xc, { cols, out: xc });
    assert.ok(maxAbsDiff(xc, layerNorm(xs, cols, { eps: Math.fround(1e-5) }).y) <= 5e-6);
    assert.deepEqual(pn.heapStats(), stats, 'nothing left allocated');
    // in place (out is x) is still allowed, and equals the float64 LayerNorm
    const x = m.toArray().subarray(0, rows * cols);
    const y = pn.layerNorm(m.subarray(0, rows * cols), { cols, out: m.subarray(0, rows * cols) }).y.toArray();
    assert.ok(maxAbsDiff(y, layerNorm(x, cols, { eps: Math.fround(1e-5) }).y) <= 5e-6);
    m.free();
  });

  test(`${name}: outputs that overlap each other are refused (out with meanOut, invStdDevOut or invRmsOut; meanOut with invStdDevOut), and disjoint ones in one buffer are fine`, async () => {
    // docs/api.md, Zero copy: what a call writes (out, meanOut, invStdDevOut, invRmsOut) must not overlap
    // its other arguments in the module's memory, a RangeError that says "overlaps"; outside it, what is
    // copied back must not overlap among them
    const pn = await init({ simd });
    const cols = 4, rows = 3, n = rows * cols;
    const data = Float32Array.from({ length: n }, (_, k) => ((k * 7919) % 13) - 6);
    const x = pn.alloc(n).set(data);
    const m = pn.alloc(n + 3 * rows).set(Array.from({ length: n + 3 * rows }, (_, k) => k + 0.5));
    const before = m.toArray(), stats = pn.heapStats();
    const cases = [
      ['layerNorm', 'out', 'meanOut', () => pn.layerNorm(x, { cols, out: m.subarray(0, n), meanOut: m.subarray(n - 1, n + rows - 1) })],
      ['layerNorm', 'out', 'invStdDevOut', () => pn.layerNorm(x, { cols, out: m.subarray(0, n), invStdDevOut: m.subarray(2, 2 + rows) })],
      ['layerNorm', 'out', 'meanOut', () => pn.layerNorm(x, { cols, out: m.subarray(rows, rows + n), meanOut: m.subarray(0, rows + 1).subarray(1) })],
      ['layerNorm', 'meanOut', 'invStdDevOut', () => pn.layerNorm(x, { cols, meanOut: m.subarray(n, n + rows), invStdDevOut: m.subarray(n + 1, n + 1 + rows) })],
      ['layerNorm', 'meanOut', 'invStdDevOut', () => pn.layerNorm(x, { cols, meanOut: m.subarray(n, n + rows), invStdDevOut: m.subarray(n, n + rows) })],
      ['rmsNorm', 'out', 'invRmsOut', () => pn.rmsNorm(x, { cols, out: m.subarray(0, n), invRmsOut: m.subarray(n - 2, n - 2 + rows) })],
      // views of the module's memory rather than buffers
      ['layerNorm', 'out', 'meanOut', () => pn.layerNorm(x, { cols, out: m.array.subarray(0, n), meanOut: m.array.subarray(n - 1, n - 1 + rows) })],
      ['rmsNorm', 'out', 'invRmsOut', () => pn.rmsNorm(x, { cols, out: m.array.subarray(0, n), invRmsOut: m.array.subarray(0, rows) })],
    ];
    for (const [fn, a, b, call] of cases) {
      assert.throws(call, (e) => named(fn, RangeError, 'overlaps')(e) && (new RegExp(`: (${a} overlaps ${b}|${b} overlaps ${a}) `).test(e.message) || assert.fail(`${fn}: "${e.message}" should name ${a} and ${b}`)), `${fn}: ${a} overlapping ${b}`);
      assert.deepEqual(m.toArray(), before, `${fn} (${a}, ${b}): nothing written`);
      assert.deepEqual(pn.heapStats(), stats, `${fn} (${a}, ${b}): nothing allocated`);
    }
    // plain arrays: the outputs are copied back, so they must not overlap in one ArrayBuffer
    const shared = new Float32Array(n + 2 * rows).fill(7);
    for (const [fn, a, b, call] of [
      ['layerNorm', 'out', 'meanOut', () => pn.layerNorm(data, { cols, out: shared.subarray(0, n), meanOut: shared.subarray(n - 1, n - 1 + rows) })],
      ['layerNorm', 'meanOut', 'invStdDevOut', () => pn.layerNorm(data, { cols, meanOut: shared.subarray(n, n + rows), invStdDevOut: shared.subarray(n + 2, n + 2 + rows) })],
      ['rmsNorm', 'out', 'invRmsOut', () => pn.rmsNorm(data, { cols, out: shared.subarray(0, n), invRmsOut: shared.subarray(1, 1 + rows) })],
    ]) {
      assert.throws(call, (e) => named(fn, RangeError, ['overlaps', 'one ArrayBuffer'])(e) && (new RegExp(`: (${a} overlaps ${b}|${b} overlaps ${a}) `).test(e.message) || assert.fail(`${fn}: "${e.message}" should name ${a} and ${b}`)), `${fn}: ${a} overlapping ${b} in one ArrayBuffer`);
      assert.ok(shared.every((t) => t === 7), `${fn} (${a}, ${b}): nothing written`);
    }
    assert.deepEqual(pn.heapStats(), stats, 'nothing allocated');
    // side by side in one buffer, each output is written where it lies: the float64 LayerNorm
    pn.layerNorm(x, { cols, out: m.subarray(0, n), meanOut: m.subarray(n, n + rows), invStdDevOut: m.subarray(n + rows, n + 2 * rows) });
    const want = layerNorm(data, cols, { eps: Math.fround(1e-5) });
    const got = m.toArray();
    assert.ok(maxAbsDiff(got.subarray(0, n), want.y) <= 5e-6 && maxAbsDiff(got.subarray(n, n + rows), want.mean) <= 1e-6, `y ${maxAbsDiff(got.subarray(0, n), want.y)}, mean ${maxAbsDiff(got.subarray(n, n + rows), want.mean)}`);
    assert.ok(maxAbsDiff(got.subarray(n + rows, n + 2 * rows), want.invStd) <= 1e-6 * Math.max(...want.invStd), 'invStdDev');
    assert.deepEqual(got.subarray(n + 2 * rows), before.subarray(n + 2 * rows), 'nothing written past the outputs');
    const rr = pn.rmsNorm(x, { cols, out: m.subarray(0, n), invRmsOut: m.subarray(n, n + rows) });
    const wantRms = rmsNorm(data, cols, { eps: Math.fround(1e-6) });
    assert.ok(maxAbsDiff(rr.y.toArray(), wantRms.y) <= 5e-6 && maxAbsDiff(rr.invRms.toArray(), wantRms.invRms) <= 1e-6 * Math.max(...wantRms.invRms), 'rmsNorm with out and invRmsOut side by side');
    m.free();
    x.free();
  });

  test(`${name}: a view kept from a freed buffer is refused as out and as input (writing into free memory broke the allocator: the next calls died with "memory access out of bounds")`, async () => {
    const pn = await init({ simd });
    const keep = pn.alloc(64);
    const b = pn.alloc(1024);
    const view = b.array; // taken before free(): not detached
    b.free();
    const stats = pn.heapStats();
    assert.throws(() => pn.randomNormal(1024, { out: view, mean: 1e30, std: 1e30 }), named('randomNormal', TypeError, ['out', 'freed']));
    assert.throws(() => pn.layerNorm(view, { cols: 64 }), named('layerNorm', TypeError, ['x', 'freed']));
    assert.throws(() => pn.layerNorm(keep, { cols: 64, out: view.subarray(0, 64) }), named('layerNorm', TypeError, ['out', 'freed']));
    assert.deepEqual(pn.heapStats(), stats, 'nothing allocated');
    // the allocator is intact: more buffers and a LayerNorm against float64
    const more = [pn.alloc(100), pn.alloc(2000), pn.alloc(512)];
    const x = normals(4096, { seed: 7 });
    const y = pn.layerNorm(x, { cols: 64 }).y;
    assert.ok(maxAbsDiff(y, layerNorm(x, 64, { eps: Math.fround(1e-5) }).y) <= 5e-6);
    // a live buffer's view (and a subarray of it) is still used in place
    const live = pn.alloc(128).set(x.subarray(0, 128));
    const r = pn.layerNorm(live.array.subarray(0, 64), { cols: 64, out: live.array.subarray(64) });
    assert.ok(maxAbsDiff(r.y, layerNorm(x.subarray(0, 64), 64, { eps: Math.fround(1e-5) }).y) <= 5e-6);
    freeAll([keep, live, ...more]);
  });

  test(`${name}: documented defaults no other test pins (momentum 0.9, the sequential map's vmin 0, seed 0, heads 1, a constant's histogram range ± 0.5), each against a reference given the documented value`, async () => {
    const pn = await init({ simd });
    // batchNorm: momentum = 0.9 weights the old running value (ONNX)
    const x = normals(6 * 3, { mean: 1, seed: 5 });
    const rm = new Float32Array([1, 2, 3]), rv = new Float32Array([4, 5, 6]);
    pn.batchNorm(x, { cols: 3, runningMean: rm, runningVar: rv });
    const st = columnStats(x, 3);
    const d = Math.max(maxAbsDiff(rm, runningUpdate([1, 2, 3], st.mean, 0.9)), maxAbsDiff(rv, runningUpdate([4, 5, 6], st.variance, 0.9)));
    assert.ok(d <= 1e-6, `running statistics with momentum 0.9: ${d}`);
    // colormap 'sequential': vmin = 0, vmax = 1
    const lut = pn.colormapTable('sequential'), px = pn.colormap(new Float32Array([0, 0.3, 1]), { map: 'sequential' });
    [0, 0.3, 1].forEach((t, k) => {
      const i = colormapIndex(Math.fround(t), 0, 1);
      assert.deepEqual([...px.subarray(4 * k, 4 * k + 4)], [...lut.subarray(4 * i, 4 * i + 4)], `sequential ${t}`);
    });
    // randomNormal: seed = 0
    const c = compareValues(pn.randomNormal(64), randomNormals(64, { seed: 0 }), ulp32);
    assert.ok(c.err <= 1 && c.compared === 64, `seed 0: ${c.err} ulp`);
    // transformerBlock: heads = 1
    const dm = 4, tokens = 3, dFF = 16;
    const bx = normals(tokens * dm, { seed: 8 }), w = normals(4 * dm * dm + 2 * dm * dFF, { seed: 9, std: 0.5 });
    const got = pn.transformerBlock(bx, w, { dModel: dm, dFF }), ref = blockRef(bx, w, { dModel: dm, dFF, heads: 1 });
    const e = compareValues(got.output, ref.output, ulp32);
    assert.ok(e.err <= 1 && got.attention.length === tokens * tokens, `heads 1: ${e.err} ulp`);
    // histogram of one value v: [v − 0.5, v + 0.5] below 2^20
    const h = pn.histogram(new Float32Array([2, 2]), { bins: 2 });
    assert.deepEqual([h.min, h.max, ...h.counts], [1.5, 2.5, 0, 2]);
  });

  test(`${name}: minRowDistance gives the first closest pair in row-major order when distances tie (hand-worked)`, async () => {
    const pn = await init({ simd });
    // rows 0, 1, 2 (cols 1): pairs (0,1) and (1,2) are both 1 apart, (0,2) is 2
    assert.deepEqual(pn.minRowDistance(new Float32Array([0, 1, 2]), { cols: 1 }), { distance: 1, i: 0, j: 1 });
    // rows (0,0), (3,4), (0,5), (3,-1): pairs (0,3) and (1,2) are both √10 apart; (0,1), (0,2), (1,3) are 5, (2,3) √45
    assert.deepEqual(pn.minRowDistance(new Float32Array([0, 0, 3, 4, 0, 5, 3, -1]), { cols: 2 }), { distance: Math.fround(Math.sqrt(10)), i: 0, j: 3 });
  });
}

// ---- the waveform figure keeps no view across a posnorm call ------------

test('<posnorm-waveform> draws its four curves from views read after its last posnorm call, also when every call grows the memory', async () => {
  const { PosnormWaveform } = await import('../web/figures/waveform.js');
  const { FigureBuffers } = await import('../web/figures/core/buffers.js');
  for (const [name, simd] of BUILDS) {
    const real = await init({ simd });
    // an instance whose peSample grows the memory first, as any call may (README, "Zero copy")
    const pn = { alloc: (...a) => real.alloc(...a), peSample: (o) => { real.memory.grow(1); return real.peSample(o); } };
    const buffers = new FigureBuffers();
    const paths = [];
    let path = null, scale = 1;
    // points in CSS px: strokeCurve passes whole numbers of 1/256 px under a
    // transform scaled down to match (draw/curve.js)
    const ctx = new Proxy({}, {
      get: (_, key) => ({
        beginPath: () => { path = []; paths.push(path); },
        moveTo: (x, y) => path.push([x * scale, y * scale]),
        lineTo: (x, y) => path.push([x * scale, y * scale]),
        scale: (sx) => { scale *= sx; },
        setTransform: () => { scale = 1; },
        getTransform: () => ({ a: 1, b: 0, c: 0, d: 1, e: 0, f: 0 }),
        // (the panel titles are measured for wrapping; this test's titles are empty)
        measureText: (text) => ({ width: 6 * String(text).length }),
      })[key] ?? (() => {}),
      set: () => true,
    });
    const fig = Object.create(PosnormWaveform.prototype);
    const own = { i: 5, pos: 37, dModel: 64, base: 10000, pn, isConnected: false, values: {},
      // a canvas whose 2D context records the paths drawn (at devicePixelRatio 1 in Node)
      canvas: { clientWidth: 300, style: {}, width: 0, height: 0, getContext: () => ctx, setAttribute() {} },
      _readoutEl: {}, _errors: { show() {} },
      t: new Proxy({}, { get: () => () => '' }),
      buffer: (key, length) => buffers.get(pn, key, length),
      color: () => '#000', describe: () => '' };
    for (const [k, value] of Object.entries(own)) Object.defineProperty(fig, k, { value, writable: true });
    fig.render();
    // the layout of render(): a 300 px canvas, plot x0 40 and width 248 (one
    // sample per pixel), panels 86 px high; each curve is three hairlines
    // (draw/curve.js, 2 px at dpr 1), the middle one through the samples
    // themselves, each at least 2 px from the one drawn before it
    const x0 = 40, gw = 248, panelH = 86, tops = [30, 30 * 2 + panelH];
    const curves = paths.filter((p) => p.length > 20);
    assert.equal(curves.length, 12, `${name}: four curves of three hairlines`);
    [[0, 0], [0, 1], [1, 10], [1, 11]].forEach(([panel, dim], k) => {
      const w = Math.exp((-2 * Math.floor(dim / 2) / 64) * Math.log(10000));
      const middle = curves[3 * k + 1];
      assert.deepEqual([middle[0][0], middle.at(-1)[0]], [x0, x0 + gw], `${name}: curve ${k} spans the plot`);
      assert.ok(middle.length >= 40, `${name}: curve ${k} has ${middle.length} points`);
      middle.forEach(([x, y], s) => {
        const p = ((x - x0) / gw) * 100, want = dim % 2 ? Math.cos(p * w) : Math.sin(p * w);
        const got = 1 - (2 * (y - tops[panel])) / panelH;
        // within the rounding of each point to 1/256 px (draw/curve.js): y
        // by 1/512 px is (2 / 86)/512 = 4.5e-5 here; x by 1/512 px moves the
        // curve by at most its slope, 100/248 per px for dim 0, 7.9e-4
        assert.ok(Math.abs(got - want) <= 1e-3, `${name}: curve ${k} point ${s}: ${got} vs ${want}`);
      });
    });
    assert.ok(Math.abs(fig.readout.sel.sin - Math.sin(37 * Math.exp((-10 / 64) * Math.log(10000)))) <= 2e-7);
    buffers.clear();
  }
});

// ---- figures reuse their result arrays during a drag ------------------------

test('FigureScratch hands out the same memory while it fits, grows by powers of two, and forgets on clear', async () => {
  const { FigureScratch } = await import('../web/figures/core/buffers.js');
  const s = new FigureScratch();
  const a = s.f32('x', 100);
  assert.equal(a.length, 100);
  assert.equal(a.buffer.byteLength, 128 * 4, 'capacity: the next power of two');
  a[99] = 7;
  const b = s.f32('x', 60);
  assert.equal(b.buffer, a.buffer, 'a smaller request reuses the array');
  assert.equal(b.length, 60);
  assert.notEqual(s.f32('y', 60).buffer, a.buffer, 'another name, another array');
  const c = s.f32('x', 129);
  assert.notEqual(c.buffer, a.buffer, 'past the capacity: a new array');
  assert.equal(c.buffer.byteLength, 256 * 4);
  s.clear();
  assert.notEqual(s.f32('x', 10).buffer, c.buffer, 'clear forgets');
  // f64: the same rules for Float64Array, and a name asked for in the other type gets an array of that type
  const d = s.f64('z', 100);
  assert.ok(d instanceof Float64Array);
  assert.equal(d.buffer.byteLength, 128 * 8);
  assert.equal(s.f64('z', 90).buffer, d.buffer, 'a smaller request reuses the Float64Array');
  const e = s.f32('z', 10);
  assert.ok(e instanceof Float32Array, 'z asked for as f32 after f64: a Float32Array');
  assert.ok(s.f64('z', 10) instanceof Float64Array, 'and back');
});
