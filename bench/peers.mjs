// bench/peers.mjs — posnorm against the libraries a JS developer would
// otherwise pick, in one run on the same inputs: onnxruntime-web 1.30 (wasm
// backend, one thread, SIMD; a one-node LayerNormalization model written by
// bench/onnx-model.mjs) and TensorFlow.js 4.22's wasm backend (one thread,
// SIMD; LayerNorm composed of its ops, PE from its ops). Every library is
// timed Float32Array in → Float32Array out, the path they all offer; posnorm
// also zero-copy, and the copies that path cannot avoid are timed alone.
// Each output (posnorm's both ways and each peer's) is checked against a
// float64 reference before timing (OUTPUT_BOUND: a wrong one throws), and
// the columns of a row are timed side by side (timing.mjs).
import * as ort from 'onnxruntime-web';
import * as tf from '@tensorflow/tfjs-core';
import { setThreadsCount } from '@tensorflow/tfjs-backend-wasm';
import { init } from '../src/js/posnorm.js';
import { layerNormJs } from './kernels.mjs';
import { layerNormModel } from './onnx-model.mjs';
import { timeAll } from './timing.mjs';

ort.env.wasm.numThreads = 1;
ort.env.logLevel = 'error';
setThreadsCount(1);

/**
 * The largest error a timed output may have against the float64
 * reference, a wrong output is not timed: posnorm's a few times what it
 * measures here (LayerNorm 8.3e-7, PE 3e-8; the PE bound is its
 * documented 1e-6), a peer's a few times the larger of the two measured
 * (LayerNorm 3.6e-6; TF.js's PE 1.2e-4, its float32 angles at 2047 rad).
 * `epsCheck`: rows of spread about sqrt(eps), where taking eps wrongly
 * (left out, or ten times too large) moves every output by 10 % or more.
 */
export const OUTPUT_BOUND = {
  posnorm: { layerNorm: 2e-6, pe: 1e-6 },
  peer: { layerNorm: 1e-5, pe: 5e-4 },
  epsCheck: 1e-3,
};

/**
 * The max absolute error of `got` against `ref`; throws, naming `who`, if
 * it is over `bound`, not finite, or of another length.
 */
export function checkOutput(who, got, ref, bound) {
  if (got.length !== ref.length) throw new Error(`peers: ${who} gave ${got.length} values, not ${ref.length}: not timed`);
  let e = 0;
  for (let i = 0; i < ref.length; i++) {
    const d = Math.abs(got[i] - ref[i]);
    if (!(d <= e)) e = Number.isNaN(d) ? Infinity : d;
  }
  if (!(e <= bound)) throw new Error(`peers: ${who}'s output is off the float64 reference by ${e} (bound ${bound}): not timed`);
  return e;
}

function peF64(seqLen, dModel) {
  const y = new Float64Array(seqLen * dModel);
  for (let p = 0; p < seqLen; p++) {
    for (let i = 0; i < dModel / 2; i++) {
      const a = p * Math.exp((-2 * i / dModel) * Math.log(10000));
      y[p * dModel + 2 * i] = Math.sin(a);
      y[p * dModel + 2 * i + 1] = Math.cos(a);
    }
  }
  return y;
}

/** LayerNorm [rows × cols] composed of TF.js ops, as its users write it. */
function tfLayerNorm(x, gamma, beta, eps) {
  return tf.tidy(() => {
    const { mean, variance } = tf.moments(x, -1, true);
    return tf.add(tf.mul(tf.mul(tf.sub(x, mean), tf.rsqrt(tf.add(variance, eps))), gamma), beta);
  });
}

/** Sinusoidal PE [seqLen × dModel], interleaved sin/cos, from TF.js ops (the article's recipe). */
function tfPositionalEncoding(seqLen, dModel) {
  return tf.tidy(() => {
    const pos = tf.reshape(tf.range(0, seqLen, 1, 'float32'), [seqLen, 1]);
    const divTerm = tf.exp(tf.mul(tf.range(0, dModel, 2, 'float32'), -Math.log(10000) / dModel));
    const angles = tf.mul(pos, tf.reshape(divTerm, [1, dModel / 2]));
    return tf.reshape(tf.stack([tf.sin(angles), tf.cos(angles)], 2), [seqLen, dModel]);
  });
}

export async function benchPeers() {
  await tf.setBackend('wasm');
  await tf.ready();
  const pn = await init({ simd: true });
  const rows = [];
  const eps = 1e-5;
  {
    // eps as each library takes it: rows whose variance is about eps
    const [R, C] = [4, 768];
    const x = pn.randomNormal(R * C, { seed: 14, mean: 0.5, std: 0.003 });
    const gamma = new Float32Array(C).fill(1), beta = new Float32Array(C);
    const ref = new Float64Array(R * C);
    layerNormJs(x, ref, R, C, gamma, beta, eps);
    const who = (name) => `${name} LayerNorm ${R}×${C} of variance ~eps`;
    checkOutput(who('posnorm'), pn.layerNorm(x, { cols: C, gamma, beta }).y, ref, OUTPUT_BOUND.epsCheck);
    const session = await ort.InferenceSession.create(layerNormModel(R, C, gamma, beta, eps), { executionProviders: ['wasm'] });
    checkOutput(who('onnxruntime-web'), (await session.run({ X: new ort.Tensor('float32', x, [R, C]) })).Y.data, ref, OUTPUT_BOUND.epsCheck);
    await session.release();
    const y = tf.tidy(() => tfLayerNorm(tf.tensor2d(x, [R, C]), tf.tensor1d(gamma), tf.tensor1d(beta), eps).dataSync());
    checkOutput(who('TF.js'), y, ref, OUTPUT_BOUND.epsCheck);
  }
  for (const [R, C] of [[64, 768], [512, 768], [2048, 1024]]) {
    const n = R * C;
    const x = pn.randomNormal(n, { seed: 11, mean: 0.5, std: 2 });
    const gamma = pn.randomNormal(C, { seed: 12, mean: 1, std: 0.2 });
    const beta = pn.randomNormal(C, { seed: 13, mean: 0, std: 0.2 });
    const ref = new Float64Array(n);
    layerNormJs(x, ref, R, C, gamma, beta, eps); // float64 throughout
    const row = { what: 'LayerNorm (γ, β)', size: `${R}×${C}`, err: {} };
    const who = (name) => `${name} LayerNorm ${R}×${C}`;
    const mine = OUTPUT_BOUND.posnorm.layerNorm, theirs = OUTPUT_BOUND.peer.layerNorm;

    const xb = pn.alloc(n), yb = pn.alloc(n), gb = pn.alloc(C), bb = pn.alloc(C), mb = pn.alloc(R), sb = pn.alloc(R);
    xb.array.set(x); gb.array.set(gamma); bb.array.set(beta);
    const session = await ort.InferenceSession.create(layerNormModel(R, C, gamma, beta, eps), { executionProviders: ['wasm'] });
    const tg = tf.tensor1d(gamma), tb = tf.tensor1d(beta);
    const fns = {
      posnorm: () => pn.layerNorm(x, { cols: C, gamma, beta }).y,
      zeroCopy: () => pn.layerNorm(xb, { cols: C, gamma: gb, beta: bb, out: yb, meanOut: mb, invStdDevOut: sb }),
      copies: () => { xb.array.set(x); return yb.array.slice(); },
      ort: async () => (await session.run({ X: new ort.Tensor('float32', x, [R, C]) })).Y.data,
      tf: () => {
        const tx = tf.tensor2d(x, [R, C]);
        const ty = tfLayerNorm(tx, tg, tb, eps);
        const out = ty.dataSync();
        tx.dispose(); ty.dispose();
        return out;
      },
    };
    row.err.posnorm = checkOutput(who('posnorm'), fns.posnorm(), ref, mine);
    fns.zeroCopy();
    checkOutput(who('posnorm zero-copy'), yb.array, ref, mine);
    row.err.ort = checkOutput(who('onnxruntime-web'), await fns.ort(), ref, theirs);
    row.err.tf = checkOutput(who('TF.js'), fns.tf(), ref, theirs);
    Object.assign(row, await timeAll(fns, { minMs: 40, rounds: 5 }));
    for (const b of [xb, yb, gb, bb, mb, sb]) b.free();
    await session.release();
    tg.dispose(); tb.dispose();
    rows.push(row);
  }
  {
    const [S, D] = [2048, 512];
    const ref = peF64(S, D);
    const row = { what: 'sinusoidal PE', size: `${S}×${D}`, err: {} };
    const who = (name) => `${name} PE ${S}×${D}`;
    const yb = pn.alloc(S * D);
    const fns = {
      posnorm: () => pn.positionalEncoding({ seqLen: S, dModel: D }),
      zeroCopy: () => pn.positionalEncoding({ seqLen: S, dModel: D, out: yb }),
      copies: () => yb.array.slice(),
      tf: () => { const t = tfPositionalEncoding(S, D); const out = t.dataSync(); t.dispose(); return out; },
    };
    row.err.posnorm = checkOutput(who('posnorm'), fns.posnorm(), ref, OUTPUT_BOUND.posnorm.pe);
    fns.zeroCopy();
    checkOutput(who('posnorm zero-copy'), yb.array, ref, OUTPUT_BOUND.posnorm.pe);
    row.err.tf = checkOutput(who('TF.js'), fns.tf(), ref, OUTPUT_BOUND.peer.pe);
    Object.assign(row, await timeAll(fns, { minMs: 40, rounds: 5 }));
    yb.free();
    rows.push(row);
  }

  const ms = (t) => (t === undefined ? '—' : t < 1 ? t.toFixed(3) : t.toFixed(2));
  const ratio = (t, base) => (t === undefined ? '—' : `${(t / base).toFixed(1)}×`);
  const err = (e) => (e === undefined ? '—' : e.toExponential(1));
  const lines = [
    '| kernel | size | posnorm, Float32Array in/out (ms) | posnorm, zero-copy (ms) | its copies alone (ms) | onnxruntime-web 1.30 (ms) | TF.js 4.22 wasm (ms) | ORT ÷ posnorm | TF.js ÷ posnorm | max error vs float64: posnorm / ORT / TF.js |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---|',
  ];
  for (const r of rows) {
    lines.push(`| ${r.what} | ${r.size} | ${ms(r.posnorm)} | ${ms(r.zeroCopy)} | ${ms(r.copies)} | ${ms(r.ort)} | ${ms(r.tf)} | ${ratio(r.ort, r.posnorm)} | ${ratio(r.tf, r.posnorm)} | ${err(r.err.posnorm)} / ${err(r.err.ort)} / ${err(r.err.tf)} |`);
  }
  return { table: lines.join('\n'), rows };
}

if (import.meta.url === `file://${process.argv[1]}`) console.log((await benchPeers()).table);
