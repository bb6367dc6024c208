// Sizes at the boundaries of wasm32 for every public call: element counts
// just below and above 2^28 values (PN_MAX_ELEMENTS), byte counts at and
// past the module's 2 GiB (2^31 bytes), and counts whose bytes pass 2^32.
// Each case either works or throws the documented RangeError (the call and
// "not enough WebAssembly memory" or the range it breaks); never a
// RuntimeError. After every case the instance holds what it held before,
// and at the end it gives the same bytes as a fresh instance on the probe
// calls of the property suite.
//
// Inputs past the limits are JS typed arrays that are never touched (the
// calls refuse them before copying), so they cost address space only.
// Real 1 GiB computations run only where they are cheap (alloc, LayerNorm
// and RMSNorm in place, histogram, minRowDistance, ALiBi into a buffer);
// for the rest the RangeError path is what is shown.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { init } from '../src/js/posnorm.js';
import { probes } from './properties/probes.mjs';

const M = 2 ** 28; // values
const GiB = 2 ** 30;
const lazy = (n) => new Float32Array(n); // zero pages until touched

/** Asserts call() throws a RangeError of posnorm.fn naming `words`, and leaves pn as it was. */
function refuses(pn, fn, call, words = []) {
  const before = pn.heapStats();
  assert.throws(call, (e) => {
    assert.ok(e instanceof RangeError, `${fn}: expected a RangeError, got ${e?.name}: ${e?.message}`);
    assert.ok(e.message.startsWith(`posnorm.${fn}: `), e.message);
    assert.doesNotMatch(e.message, /kernel rejected its arguments \((a required pointer|a size|an argument)/);
    for (const w of words) assert.ok(e.message.includes(w), `"${e.message}" should say ${w}`);
    return true;
  });
  assert.deepEqual(pn.heapStats(), before, `${fn}: nothing allocated, the memory did not grow`);
}

/** Runs call() (it must work or throw the memory RangeError) and checks nothing is left allocated. */
function worksOrOutOfMemory(pn, fn, call, check) {
  const before = pn.heapStats();
  let result;
  try {
    result = call();
  } catch (e) {
    assert.ok(e instanceof RangeError && e.message.startsWith(`posnorm.${fn}: `) && e.message.includes('not enough WebAssembly memory'), `${fn}: ${e?.name}: ${e?.message}`);
  }
  if (result !== undefined && check) check(result);
  const after = pn.heapStats();
  assert.deepEqual([after.allocations, after.bytes], [before.allocations, before.bytes], `${fn}: nothing left allocated`);
  return result;
}

for (const simd of [true, false]) {
  const name = simd ? 'simd' : 'scalar';

  test(`${name}: 2^28 values is the limit of every tensor; 2^28 + 1 and counts whose bytes pass 2^32 are RangeErrors`, async () => {
    const pn = await init({ simd });
    const over = lazy(M + 1);
    const cases = [
      ['alloc', () => pn.alloc(M + 1), ['length must be an integer in [1, 268435456]']],
      ['alloc', () => pn.alloc(GiB, 'u8c'), ['length']],
      ['alloc', () => pn.alloc(2 ** 32 + 1), ['length']],
      ['positionalEncoding', () => pn.positionalEncoding({ seqLen: 2 ** 14, dModel: 2 ** 14 + 1 }), ['seqLen × dModel must be at most 268435456']],
      ['positionalEncoding', () => pn.positionalEncoding({ seqLen: 2 ** 15, dModel: 2 ** 15 }), ['seqLen × dModel']], // 2^32 bytes
      ['peSample', () => pn.peSample({ n: M + 1, dim: 0, dModel: 2 }), ['n must be an integer in [1, 268435456]']],
      ['peSample', () => pn.peSample({ n: GiB, dim: 0, dModel: 2 }), ['n']],
      ['layerNorm', () => pn.layerNorm(over, { cols: 1 }), ['x.length must be in [1, 268435456]']],
      ['rmsNorm', () => pn.rmsNorm(over, { cols: 1 }), ['x.length']],
      ['batchNorm', () => pn.batchNorm(over, { cols: 1 }), ['x.length']],
      ['rope', () => pn.rope(over, { seqLen: M + 1, heads: 1, headDim: 1 }), ['x.length']],
      ['rope', () => pn.rope(lazy(8), { seqLen: 2 ** 15, heads: 2 ** 14, headDim: 2 }), ['batch × seqLen × heads × headDim must be at most 268435456']],
      ['ropeFrequencies', () => pn.ropeFrequencies({ dim: 65538 }), ['dim must be an integer in [2, 65536]']],
      ['alibiSlopes', () => pn.alibiSlopes(65537), ['heads must be an integer in [1, 65536]']],
      ['alibi', () => pn.alibi({ heads: 2 ** 12, seqLen: 2 ** 8 + 1 }), ['heads × seqLen × seqLen must be at most 268435456']],
      ['alibi', () => pn.alibi({ heads: 2 ** 12, seqLen: 2 ** 9 }), ['heads × seqLen × seqLen']], // 2^32 bytes
      ['randomNormal', () => pn.randomNormal(M + 1), ['n must be an integer in [1, 268435456]']],
      ['randomNormal', () => pn.randomNormal(GiB), ['n']],
      ['histogram', () => pn.histogram(over, { bins: 4, min: 0, max: 1 }), ['x.length']],
      ['colormap', () => pn.colormap(over), ['x.length']],
      ['attention', () => pn.attention(lazy(4097), { dModel: 1, wq: lazy(1), wk: lazy(1), wv: lazy(1) }), ['x.length / dModel must be an integer in [1, 4096]']],
      ['gram', () => pn.gram(over, { cols: 1 }), ['x.length']],
      ['gram', () => pn.gram(lazy(8193), { cols: 1 }), ['x.length / cols must be an integer in [1, 8192]']],
      ['minRowDistance', () => pn.minRowDistance(lazy(8193), { cols: 1 }), ['x.length / cols must be an integer in [2, 8192]']],
      ['peShift', () => pn.peShift(lazy(M + 2), { k: 1 }), ['peRow.length']],
      ['residualStack', () => pn.residualStack(lazy(4096), lazy(M), { width: 4096, layers: 17 }), ['layers × width × width must be at most 268435456']],
      ['residualStack', () => pn.residualStack(lazy(4096 * 4096), lazy(M), { width: 4096, layers: 16, gradients: true }), ['rows × width × (layers + 1) must be at most 268435456']],
      ['residualStack', () => pn.residualStack(lazy(4096), lazy(M), { width: 4096, layers: 9, memory: lazy(4096) }), ['layers × 2 × width × width (W_l and C_l) must be at most 268435456']],
      ['residualStack', () => pn.residualStack(lazy(4096), lazy(M), { width: 4096, layers: 8, memory: lazy(4095) }), ['memory.length must be 4096, got 4095']],
      ['transformerBlock', () => pn.transformerBlock(lazy(513), lazy(6), { dModel: 1, dFF: 1 }), ['x.length / dModel must be an integer in [1, 512]']],
      ['layerNormSteps', () => pn.layerNormSteps(over), ['x.length']],
    ];
    for (const [fn, call, words] of cases) refuses(pn, fn, call, words);
  });

  test(`${name}: a call whose copies, outputs and scratch pass 2 GiB is a RangeError before it allocates; at 2 GiB it works or says there is not enough memory`, async () => {
    const pn = await init({ simd });
    const x = lazy(M);
    const mem = 'not enough WebAssembly memory';
    // past 2^31 bytes: refused by the pre-check, nothing allocated
    refuses(pn, 'layerNorm', () => pn.layerNorm(x, { cols: 2 ** 14 }), [mem, 'x.length 268435456', '2147614720 bytes']);
    refuses(pn, 'rmsNorm', () => pn.rmsNorm(x, { cols: 2 ** 14 }), [mem]);
    refuses(pn, 'batchNorm', () => pn.batchNorm(x, { cols: 2 ** 14 }), [mem]);
    refuses(pn, 'rope', () => pn.rope(x, { seqLen: 2 ** 27, heads: 1, headDim: 2 }), [mem]); // x, y and a 1 GiB cos/sin table
    refuses(pn, 'rope', () => pn.rope(x, { seqLen: 2 ** 27, heads: 1, headDim: 2, scaling: { type: 'linear', factor: 2 } }), [mem]);
    refuses(pn, 'layerNormSteps', () => pn.layerNormSteps(x), [mem]);
    refuses(pn, 'layerNormSteps', () => pn.layerNormSteps(lazy(2 ** 27 + 1)), [mem]); // 4·(2^27 + 1)·4 + 8 bytes
    // the gradient stack's float64 scratch passed 2 GiB (4096² with 4 and 9 layers; with a memory,
    // 3498 rows of 2896 in 16 layers, past 2^32 bytes): since the work limit (2^32 multiply-adds)
    // those are refused before anything is allocated, and no stack within it needs 2 GiB
    const work = 'its multiply-adds, must be at most 4294967296';
    refuses(pn, 'residualStack', () => pn.residualStack(lazy(4096 * 4096), lazy(9 * 4096 * 4096), { width: 4096, layers: 9, gradients: true }), [work, '3 × 9 × 16777216 × 4096 with gradients']);
    refuses(pn, 'residualStack', () => pn.residualStack(lazy(4096 * 4096), lazy(4 * 4096 * 4096), { width: 4096, layers: 4, gradients: true }), [work]);
    refuses(pn, 'residualStack', () => pn.residualStack(lazy(3498 * 2896), lazy(2 * 16 * 2896 * 2896), { width: 2896, layers: 16, memory: lazy(2896), gradients: true }), [work, 'with gradients with a memory']);
    // a buffer's value in place: at 2^28 values the call's own bytes are its row statistics; it works
    const buf = pn.alloc(M);
    const cols = 2 ** 14;
    // row 0 = k mod 7 (the rest of the memory is zero); its LayerNorm in float64 here
    const row = Float32Array.from({ length: cols }, (_, k) => k % 7);
    buf.set(row);
    const mean = row.reduce((s, v) => s + v, 0) / cols, variance = row.reduce((s, v) => s + (v - mean) ** 2, 0) / cols;
    const ln = worksOrOutOfMemory(pn, 'layerNorm', () => pn.layerNorm(buf, { cols, out: buf }));
    assert.ok(ln, 'layerNorm in place over 2^28 values works');
    const r0 = buf.array.subarray(0, cols), inv = 1 / Math.sqrt(variance + Math.fround(1e-5));
    for (let k = 0; k < cols; k += 97) assert.ok(Math.abs(r0[k] - (row[k] - mean) * inv) <= 5e-6, `${r0[k]}`);
    assert.equal(ln.mean.length, M / cols);
    const rms = worksOrOutOfMemory(pn, 'rmsNorm', () => pn.rmsNorm(buf, { cols: 2 ** 14, out: buf }));
    assert.ok(rms, 'rmsNorm in place over 2^28 values works');
    const h = worksOrOutOfMemory(pn, 'histogram', () => pn.histogram(buf, { bins: 3, min: -1, max: 1 }));
    assert.equal(h.counts[0] + h.counts[1] + h.counts[2] + h.below + h.above + h.nan, M, 'every value counted');
    const d = worksOrOutOfMemory(pn, 'minRowDistance', () => pn.minRowDistance(buf, { cols: M / 2 }));
    assert.ok(d.distance >= 0 && d.i === 0 && d.j === 1);
    const a = worksOrOutOfMemory(pn, 'alibi', () => pn.alibi({ heads: 1, seqLen: 16384, out: buf }));
    assert.equal(a.array[16383], -Math.fround(2 ** -8) * 16383, 'bias[0][0][16383] = −m·16383, m = 2^-8');
    // 2^31 bytes exactly: 1 GiB copy + 1 GiB output cannot fit beside the module's own data
    worksOrOutOfMemory(pn, 'colormap', () => pn.colormap(lazy(M)));
    worksOrOutOfMemory(pn, 'peShift', () => pn.peShift(lazy(M), { k: 1 }));
    buf.free();
    // and on an instance whose memory could still grow, they are refused
    // before anything is allocated (on pn, full of buf until now, an
    // allocation that grew the memory first could not have been seen:
    // colormap without its reservation passed there, growing a fresh
    // instance by 1 GiB before it failed)
    const fresh = await init({ simd });
    refuses(fresh, 'colormap', () => fresh.colormap(lazy(M)), [mem]);
    refuses(fresh, 'peShift', () => fresh.peShift(lazy(M), { k: 1 }), [mem]);
  });

  test(`${name}: row statistics into buffers at the limits: outputs past 2^32 bytes are refused before anything is written; 2^24 rows work`, async () => {
    const pn = await init({ simd });
    const mem = 'not enough WebAssembly memory';
    // x copied (1 GiB), y, mean and invStdDev (1 GiB each): 2^32 bytes
    const meanOut = lazy(M), invOut = lazy(M);
    refuses(pn, 'layerNorm', () => pn.layerNorm(lazy(M), { cols: 1, meanOut, invStdDevOut: invOut }), [mem, 'the call needs 4294967296 bytes']);
    refuses(pn, 'rmsNorm', () => pn.rmsNorm(lazy(M), { cols: 1, invRmsOut: invOut }), [mem, 'the call needs 3221225472 bytes']);
    assert.ok(meanOut[0] === 0 && meanOut[M - 1] === 0 && invOut[0] === 0 && invOut[M - 1] === 0, 'nothing written');
    // 2^24 rows of 2 in place: the mean into a buffer (64 MiB), invStdDev into a plain array (copied back)
    const rows = 2 ** 24;
    const x = pn.alloc(2 * rows), xa = x.array;
    for (let k = 0; k < 2 * rows; k++) xa[k] = ((k >> 1) % 1000) + 2 * (k & 1);
    const mean = pn.alloc(rows), inv = new Float32Array(rows);
    const r = worksOrOutOfMemory(pn, 'layerNorm', () => pn.layerNorm(x, { cols: 2, out: x, meanOut: mean, invStdDevOut: inv }));
    assert.ok(r, 'works');
    assert.equal(r.mean, mean);
    assert.equal(r.invStdDev, inv);
    // row r is (v, v + 2), v = r mod 1000: mean v + 1, variance 1
    const want = 1 / Math.sqrt(1 + Math.fround(1e-5));
    for (const row of [0, 1, 999, 1000, 2 ** 20 + 7, rows - 1]) {
      assert.equal(mean.array[row], (row % 1000) + 1, `mean[${row}]`);
      assert.ok(Math.abs(inv[row] - want) <= 2e-7 * want, `invStdDev[${row}] ${inv[row]}`);
      assert.ok(Math.abs(x.array[2 * row] + want) <= 5e-6 && Math.abs(x.array[2 * row + 1] - want) <= 5e-6, `y of row ${row}`);
    }
    x.free();
    mean.free();
  });

  test(`${name}: memory that is already held: alloc and a kernel's scratch say "not enough WebAssembly memory", and the instance stays exact`, async () => {
    const pn = await init({ simd });
    const fresh = probes(await init({ simd }));
    const base = pn.heapStats();
    const x = pn.alloc(2 ** 22).set(new Float32Array(2 ** 22).fill(0.5));
    const held = [pn.alloc(M)];
    refuses(pn, 'alloc', () => pn.alloc(M), ['not enough WebAssembly memory']);
    // fill what is left with smaller buffers until nothing of 1 MiB fits
    for (const size of [2 ** 26, 2 ** 22, 2 ** 18]) {
      for (;;) {
        try { held.push(pn.alloc(size)); } catch (e) { assert.ok(e instanceof RangeError, String(e)); break; }
      }
    }
    // pn_rope_f32's table (8·seqLen·rotaryDim/2 = 16 MiB) cannot be had: a RangeError, x untouched
    const before = x.toArray();
    const stats = pn.heapStats();
    assert.throws(() => pn.rope(x, { seqLen: 2 ** 21, heads: 1, headDim: 2, out: x }), (e) => e instanceof RangeError && /^posnorm\.rope: .*not enough WebAssembly memory/.test(e.message));
    assert.deepEqual(pn.heapStats(), stats);
    assert.deepEqual(x.toArray(), before, 'out (x itself) unchanged');
    assert.throws(() => pn.positionalEncoding({ seqLen: 2 ** 10, dModel: 2 ** 12 }), (e) => e instanceof RangeError && /^posnorm\.positionalEncoding: not enough WebAssembly memory/.test(e.message));
    for (const b of held) b.free();
    x.free();
    const after = pn.heapStats();
    assert.deepEqual([after.allocations, after.bytes], [base.allocations, base.bytes]);
    const now = probes(pn);
    now.forEach((bytes, k) => assert.equal(Buffer.compare(bytes, fresh[k]), 0, `probe ${k} equals a fresh instance's`));
  });

  test(`${name}: a call that fits 2 GiB alone but not beside the buffers held is refused before it allocates: the memory does not grow, the caller's views stay attached`, async () => {
    const pn = await init({ simd });
    const held = Array.from({ length: 7 }, () => pn.alloc(2 ** 26)); // 7 × 256 MiB
    const keep = pn.alloc(1024).set(new Float32Array(1024).fill(3));
    const view = keep.array;
    // x copied in (128 MiB) and y (128 MiB): the copy used to be made, the memory grown for it,
    // and only y's allocation failed: the instance kept 128 MiB more and every view was detached
    refuses(pn, 'layerNorm', () => pn.layerNorm(new Float32Array(2 ** 25), { cols: 1024 }), ['not enough WebAssembly memory', 'beside the', 'bytes of buffers this instance holds']);
    assert.equal(view.length, 1024, 'the view taken before the call is still attached');
    assert.equal(view[1023], 3);
    // what fits beside them works, growing the memory as it needs (32 MiB in, 32 MiB out)
    // (rows of 0, 1, 2, 3 repeated: mean 1.5, variance 1.25)
    const x = new Float32Array(2 ** 23).map((_, k) => k % 4);
    const { y } = pn.layerNorm(x, { cols: 1024 });
    const row = [0, 1, 2, 3].map((v) => (v - 1.5) / Math.sqrt(1.25 + Math.fround(1e-5)));
    for (const k of [0, 1, 2, 1023, 2 ** 23 - 1]) assert.ok(Math.abs(y[k] - row[k % 4]) <= 5e-6, `${k}: ${y[k]}`);
    // two buffers freed between others leave two holes of 256 MiB: the call
    // (2 × 128 MiB) fits them though no one piece of 256 MiB is free, and must
    // not be refused (a reservation in one piece refused it), nor grow
    const big = new Float32Array(2 ** 25).map((_, k) => k % 4);
    held[1].free();
    held[3].free();
    const grown = pn.heapStats().memoryBytes;
    const view2 = keep.array; // (the call above grew the memory: a view taken now)
    const holes = pn.layerNorm(big, { cols: 1024 });
    assert.ok(Math.abs(holes.y[1025] - row[1]) <= 5e-6);
    assert.equal(pn.heapStats().memoryBytes, grown, 'fitted in the holes');
    assert.equal(view2.length, 1024);
    // one hole of 768 MiB: reserved in one piece, freed, then used by the call;
    // after it the 768 MiB are whole again (three buffers of 256 MiB fit them)
    held[2].free();
    const whole = pn.layerNorm(big, { cols: 1024 });
    assert.ok(Math.abs(whole.y[2 ** 25 - 1] - row[3]) <= 5e-6);
    for (const k of [1, 2, 3]) held[k] = pn.alloc(2 ** 26);
    assert.equal(pn.heapStats().memoryBytes, grown, 'nothing of the call or its reservation was left behind');
    assert.equal(view2.length, 1024);
    for (const b of held) b.free();
    keep.free();
    assert.deepEqual([pn.heapStats().allocations, pn.heapStats().bytes], [0, 0]);
    // a thousand one-value buffers take 79 KB more than their sizes say (each
    // is malloc'd 63 bytes longer, behind malloc's header): with the free
    // memory in one piece at the top, a call 5000 bytes too big for it went
    // ahead when those were not counted, grew the memory and failed
    {
      const many = await init({ simd });
      const smalls = Array.from({ length: 1000 }, () => many.alloc(1));
      const bigs = [];
      for (const size of [2 ** 26, 2 ** 22, 2 ** 18]) {
        while (many.heapStats().memoryBytes + 4 * size <= 2 ** 31 - 40 * 2 ** 20) bigs.push(many.alloc(size));
      }
      const top = many.raw.malloc(1);
      many.raw.free(top);
      const free = 2 ** 31 - top; // all of it above the last buffer: no holes
      const kept = many.alloc(4);
      const keptView = kept.array;
      const rows = Math.ceil((free + 5000) / 8 / 1024);
      const before = many.heapStats().memoryBytes;
      refuses(many, 'layerNorm', () => many.layerNorm(new Float32Array(rows * 1024), { cols: 1024 }), ['not enough WebAssembly memory']);
      assert.equal(many.heapStats().memoryBytes, before);
      assert.equal(keptView.length, 4);
      for (const b of [...smalls, ...bigs, kept]) b.free();
    }
    // ropeFrequencies (no input but its factor arrays) with 400 KiB left below
    // the limit: its float64 copies of two 32768-value factor arrays (512 KiB)
    // cannot fit; refused before it grows the memory (it grew, then failed)
    const rf = await init({ simd });
    const filling = [];
    while (rf.heapStats().memoryBytes < 2 ** 31 - 2 ** 26) filling.push(rf.alloc(2 ** 24));
    const rest = (2 ** 31 - 400 * 1024 - rf.heapStats().memoryBytes) / 4;
    filling.push(rf.alloc(Math.floor(rest) - 16));
    const small = rf.alloc(4);
    const smallView = small.array;
    const memory = rf.heapStats().memoryBytes;
    const half = 32768;
    refuses(rf, 'ropeFrequencies', () => rf.ropeFrequencies({ dim: 2 * half, scaling: { type: 'longrope', factor: 8, originalMaxPositions: 4096, shortFactor: new Array(half).fill(1), longFactor: new Array(half).fill(2) } }),
      ['not enough WebAssembly memory for dim 65536']);
    assert.equal(rf.heapStats().memoryBytes, memory);
    assert.equal(smallView.length, 4);
    for (const b of [...filling, small]) b.free();
  });
}

test('the instance that went through every boundary still gives a fresh instance\'s bytes', async () => {
  for (const simd of [true, false]) {
    const pn = await init({ simd });
    const x = lazy(M);
    for (const call of [() => pn.layerNorm(x, { cols: 1 }), () => pn.layerNormSteps(x), () => pn.rope(x, { seqLen: 2 ** 27, heads: 1, headDim: 2 })]) {
      assert.throws(call, RangeError);
    }
    const fresh = probes(await init({ simd }));
    probes(pn).forEach((bytes, k) => assert.equal(Buffer.compare(bytes, fresh[k]), 0, `probe ${k}`));
  }
});
