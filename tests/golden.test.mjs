// Golden results: a SHA-256 of every kernel's output on fixed inputs, per
// wasm build, checked in (tests/golden.json). A toolchain or libm update that
// changes any bit of any result fails here and is noticed; if the change is
// intended, regenerate with `UPDATE_GOLDEN=1 node --test tests/golden.test.mjs`
// and say why in the commit.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { test } from 'node:test';
import { builds, normals } from './helpers.mjs';

const FILE = new URL('./golden.json', import.meta.url);
const all = await builds();

/** Every kernel on fixed inputs (the tests' own generator); name → output bytes. */
function outputs(pn) {
  const x = normals(12 * 40, { mean: 1.5, std: 3, seed: 101 });
  const g = normals(40, { mean: 1, std: 0.3, seed: 102 }), b = normals(40, { seed: 103 });
  const q = normals(2 * 5 * 3 * 16, { seed: 104 });
  const bytes = (a) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
  const cat = (...arrays) => {
    const parts = arrays.map((a) => (typeof a === 'number' ? new Float64Array([a]) : a)).map(bytes);
    const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const p of parts) { out.set(p, at); at += p.length; }
    return out;
  };
  const ln = (opts) => { const r = pn.layerNorm(x, { cols: 40, ...opts }); return cat(r.y, r.mean, r.invStdDev); };
  const ids = Int32Array.from({ length: 10 }, (_, k) => 3 * k + 1);
  // 128 ids below 2^20 and 128 spread up to 2^31 - 1; one head of 128 dims (64 pairs each)
  const bigIds = Int32Array.from({ length: 256 }, (_, k) => (k < 128 ? k * 8191 : Math.floor(((k - 127) / 128) * (2 ** 31 - 1))));
  const wide = normals(256 * 128, { seed: 108 });
  const cosCache = normals(40 * 8, { seed: 105 }), sinCache = normals(40 * 8, { seed: 106 });
  const bn = () => { const rm = new Float32Array(40).fill(0.5), rv = new Float32Array(40).fill(2); const r = pn.batchNorm(x, { cols: 40, gamma: g, beta: b, runningMean: rm, runningVar: rv }); return cat(r.y, r.mean, r.var, rm, rv); };
  const w = normals(3 * 8 * 8, { seed: 107 });
  const steps = pn.layerNormSteps(x.subarray(0, 40), { gamma: g, beta: b });
  const hist = pn.histogram(x, { bins: 17 });
  const attn = pn.attention(x.subarray(0, 6 * 8), { dModel: 8, dHead: 4, wq: w.subarray(0, 32), wk: w.subarray(32, 64), wv: w.subarray(64, 96) });
  const closest = pn.minRowDistance(x, { cols: 40 });
  return {
    'pe interleaved': bytes(pn.positionalEncoding({ seqLen: 37, dModel: 50, base: 500, offset: 1000 })),
    'pe concat': bytes(pn.positionalEncoding({ seqLen: 37, dModel: 51, layout: 'concat' })),
    peSample: bytes(pn.peSample({ n: 101, dim: 9, dModel: 64, start: -3.5, step: 0.37 })),
    'layerNorm plain': ln({}),
    'layerNorm gamma': ln({ gamma: g }),
    'layerNorm beta': ln({ beta: b }),
    'layerNorm gamma beta': ln({ gamma: g, beta: b, eps: 1e-3 }),
    'rmsNorm': (() => { const r = pn.rmsNorm(x, { cols: 40 }); return cat(r.y, r.invRms); })(),
    'rmsNorm gamma': (() => { const r = pn.rmsNorm(x, { cols: 40, gamma: g }); return cat(r.y, r.invRms); })(),
    'batchNorm train': bn(),
    'batchNorm infer': bytes(pn.batchNorm(x, { cols: 40, training: false, runningMean: g, runningVar: new Float32Array(40).fill(1.5) }).y),
    'rope half-split bshd': bytes(pn.rope(q, { batch: 2, seqLen: 5, heads: 3, headDim: 16, offset: 7 })),
    'rope interleaved bhsd ids': bytes(pn.rope(q, { batch: 2, seqLen: 5, heads: 3, headDim: 16, layout: 'bhsd', interleaved: true, positionIds: ids, rotaryDim: 12 })),
    'rope caches': bytes(pn.rope(q, { batch: 2, seqLen: 5, heads: 3, headDim: 16, cosCache, sinCache, positionIds: ids })),
    ...Object.fromEntries([
      { type: 'linear', factor: 4 }, { type: 'dynamic', factor: 4, originalMaxPositions: 2048 },
      { type: 'yarn', factor: 16, originalMaxPositions: 4096, mscale: 0.707, mscaleAllDim: 1 },
      { type: 'llama3', factor: 8, originalMaxPositions: 8192, lowFreqFactor: 1, highFreqFactor: 4 },
      { type: 'longrope', factor: 8, originalMaxPositions: 4096, shortFactor: Array.from({ length: 32 }, (_, i) => 1 + i / 64), longFactor: Array.from({ length: 32 }, (_, i) => 1 + i) },
    ].map((scaling) => {
      const r = pn.ropeFrequencies({ dim: 64, base: 500000, scaling, seqLen: 10000 });
      return [`ropeFrequencies ${scaling.type}`, cat(r.invFreq, r.attentionFactor)];
    })),
    'rope yarn': bytes(pn.rope(q, { batch: 2, seqLen: 5, heads: 3, headDim: 16, offset: 30000, scaling: { type: 'yarn', factor: 8, originalMaxPositions: 4096 } })),
    // published shapes whose rests are always computed (narrow ramps and
    // bands take theirs at every angle; these must keep their bits): Llama
    // 3.1's llama3 and gpt-oss's untruncated yarn, at ids below and past 2^20
    // (hashed first at the commit before that change, 6f261c6)
    'rope llama3 ids': bytes(pn.rope(wide, { seqLen: 256, heads: 1, headDim: 128, positionIds: bigIds, base: 500000, scaling: { type: 'llama3', factor: 8, originalMaxPositions: 8192, lowFreqFactor: 1, highFreqFactor: 4 } })),
    'rope yarn untruncated ids': bytes(pn.rope(wide, { seqLen: 256, heads: 1, headDim: 128, positionIds: bigIds, base: 150000, scaling: { type: 'yarn', factor: 32, originalMaxPositions: 4096, betaFast: 32, betaSlow: 1, truncate: false } })),
    alibiSlopes: bytes(pn.alibiSlopes(12)),
    alibi: bytes(pn.alibi({ heads: 6, seqLen: 9 })),
    randomNormal: bytes(pn.randomNormal(1001, { mean: -2, std: 0.5, seed: 42 })),
    histogram: cat(hist.counts, new Uint32Array([hist.below, hist.above, hist.nan])),
    'colormap diverging': pn.colormap(x, { vmin: -4, vmax: 7 }),
    'colormap sequential': pn.colormap(x, { map: 'sequential', vmin: 0, vmax: 5 }),
    colormapTable: cat(pn.colormapTable('diverging'), pn.colormapTable('sequential')),
    attention: cat(attn.out, attn.weights),
    gram: bytes(pn.gram(x, { cols: 40 })),
    minRowDistance: cat(new Float32Array([closest.distance]), new Int32Array([closest.i, closest.j])),
    peShift: bytes(pn.peShift(pn.positionalEncoding({ seqLen: 1, dModel: 32, offset: 5 }), { k: 17 })),
    ...Object.fromEntries(['plain', 'post-ln', 'pre-ln', 'pre-rms'].map((block) => [`residualStack ${block}`, bytes(pn.residualStack(x.subarray(0, 4 * 8), w, { width: 8, layers: 3, block, scale: 1.3 }))])),
    layerNormSteps: cat(steps.centered, steps.normalized, steps.y, steps.mean, steps.variance),
    'pe float32 code': bytes(pn.positionalEncoding({ seqLen: 9, dModel: 64, offset: 65530, precision: 'float32' })),
    // the bfloat16/float16 codes, both ways of computing (issue #19)
    ...Object.fromEntries(['bfloat16', 'float16'].flatMap((precision) => ['float32', 'low'].flatMap((compute) => [
      [`pe ${precision} ${compute}`, bytes(pn.positionalEncoding({ seqLen: 9, dModel: 64, offset: 65510, precision, compute }))],
      [`rope ${precision} ${compute}`, bytes(pn.rope(q, { batch: 2, seqLen: 5, heads: 3, headDim: 16, positionIds: ids, rotaryDim: 12, precision, compute }))],
    ]))),
    'rope float32 code': bytes(pn.rope(q, { batch: 2, seqLen: 5, heads: 3, headDim: 16, interleaved: true, offset: 2040, precision: 'float32' })),
    ...Object.fromEntries(['bfloat16', 'float16'].map((precision) => [`roundToPrecision ${precision}`, bytes(pn.roundToPrecision(x, { precision }))])),
    ...Object.fromEntries(['plain', 'post-ln', 'pre-ln', 'pre-rms'].map((block) => {
      const r = pn.residualStack(x.subarray(0, 4 * 8), w, { width: 8, layers: 3, block, scale: 1.25, gradients: true });
      return [`residualStack gradients ${block}`, cat(r.std, r.loss, r.grad, r.gradNorm)];
    })),
    ...Object.fromEntries([['pre', 'layer'], ['post', 'rms']].map(([placement, norm]) => {
      const r = pn.transformerBlock(x.subarray(0, 5 * 8), normals(4 * 64 + 2 * 8 * 24, { std: 0.3, seed: 107 }), { dModel: 8, heads: 2, dFF: 24, placement, norm });
      return [`transformerBlock ${placement} ${norm}`, cat(r.x, r.attnInput, r.attnOutput, r.residual1, r.ffnInput, r.ffnOutput, r.residual2, r.output, r.attention)];
    })),
    // issue #19: the block's tanh form (the default before the erf form became it), the stack's
    // memory branch and its erf form
    ...Object.fromEntries([['pre', 'layer'], ['post', 'rms']].map(([placement, norm]) => {
      const r = pn.transformerBlock(x.subarray(0, 5 * 8), normals(4 * 64 + 2 * 8 * 24, { std: 0.3, seed: 107 }), { dModel: 8, heads: 2, dFF: 24, placement, norm, gelu: 'tanh' });
      return [`transformerBlock ${placement} ${norm} tanh`, cat(r.x, r.attnInput, r.attnOutput, r.residual1, r.ffnInput, r.ffnOutput, r.residual2, r.output, r.attention)];
    })),
    ...Object.fromEntries(['plain', 'post-ln', 'pre-ln', 'pre-rms'].map((block) => {
      const memory = x.subarray(100, 108), w2 = normals(2 * 3 * 64, { std: 0.35, seed: 108 });
      const f = pn.residualStack(x.subarray(0, 4 * 8), w2, { width: 8, layers: 3, block, scale: 1.3, memory, gelu: 'erf' });
      const r = pn.residualStack(x.subarray(0, 4 * 8), w2, { width: 8, layers: 3, block, scale: 1.25, memory, gelu: 'erf', gradients: true });
      return [`residualStack memory erf ${block}`, cat(f, r.std, r.loss, r.grad, r.gradNorm)];
    })),
  };
}

const sha = (data) => createHash('sha256').update(data).digest('hex');

test('every kernel gives the checked-in bits in both builds (SHA-256 of its output on fixed inputs)', async () => {
  const got = {};
  for (const { name, pn } of all) got[name] = Object.fromEntries(Object.entries(outputs(pn)).map(([k, v]) => [k, sha(v)]));
  if (process.env.UPDATE_GOLDEN) {
    await writeFile(FILE, `${JSON.stringify(got, null, 2)}\n`);
    return;
  }
  const want = JSON.parse(await readFile(FILE, 'utf8'));
  for (const build of ['simd', 'scalar']) {
    assert.deepEqual(Object.keys(got[build]).sort(), Object.keys(want[build]).sort(), `${build}: the same kernels`);
    for (const [kernel, hash] of Object.entries(want[build])) assert.equal(got[build][kernel], hash, `${build}: ${kernel} changed`);
  }
  assert.deepEqual(got.simd, got.scalar, 'the two builds agree bit for bit');
});
