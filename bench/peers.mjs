// bench/peers.mjs — posnorm against the libraries a JS developer would
// otherwise pick, in one run on the same inputs: onnxruntime-web 1.30 (wasm
// backend, one thread, SIMD; a one-node LayerNormalization model written by
// bench/onnx-model.mjs) and TensorFlow.js 4.22's wasm backend (one thread,
// SIMD; LayerNorm composed of its ops, PE from its ops). Every library is
// timed Float32Array in → Float32Array out, the path they all offer; posnorm
// also zero-copy, and the copies that path cannot avoid are timed alone.
// Each peer's output is checked against a float64 reference before timing.
import * as ort from 'onnxruntime-web';
import * as tf from '@tensorflow/tfjs-core';
import { setThreadsCount } from '@tensorflow/tfjs-backend-wasm';
import { init } from '../src/js/posnorm.js';
import { layerNormJs } from './kernels.mjs';
import { layerNormModel } from './onnx-model.mjs';

ort.env.wasm.numThreads = 1;
ort.env.logLevel = 'error';
setThreadsCount(1);

/** Fastest ms per call over `rounds` rounds of >= minMs/4 each (awaits fn). */
async function time(fn, minMs = 40, rounds = 5) {
  await fn();
  let reps = 1;
  for (;;) {
    const t0 = performance.now();
    for (let i = 0; i < reps; i++) await fn();
    if (performance.now() - t0 >= minMs / 4) break;
    reps *= 2;
  }
  let best = Infinity;
  for (let r = 0; r < rounds; r++) {
    const t0 = performance.now();
    for (let i = 0; i < reps; i++) await fn();
    best = Math.min(best, (performance.now() - t0) / reps);
  }
  return best;
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

const maxErr = (got, ref) => {
  let e = 0;
  for (let i = 0; i < ref.length; i++) e = Math.max(e, Math.abs(got[i] - ref[i]));
  return e;
};

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
  for (const [R, C] of [[64, 768], [512, 768], [2048, 1024]]) {
    const n = R * C;
    const x = pn.randomNormal(n, { seed: 11, mean: 0.5, std: 2 });
    const gamma = pn.randomNormal(C, { seed: 12, mean: 1, std: 0.2 });
    const beta = pn.randomNormal(C, { seed: 13, mean: 0, std: 0.2 });
    const ref = new Float64Array(n);
    layerNormJs(x, ref, R, C, gamma, beta, eps); // float64 throughout
    const row = { what: 'LayerNorm (γ, β)', size: `${R}×${C}`, err: {} };

    row.err.posnorm = maxErr(pn.layerNorm(x, { cols: C, gamma, beta }).y, ref);
    row.posnorm = await time(() => pn.layerNorm(x, { cols: C, gamma, beta }));
    const xb = pn.alloc(n), yb = pn.alloc(n), gb = pn.alloc(C), bb = pn.alloc(C), mb = pn.alloc(R), sb = pn.alloc(R);
    xb.array.set(x); gb.array.set(gamma); bb.array.set(beta);
    row.zeroCopy = await time(() => pn.layerNorm(xb, { cols: C, gamma: gb, beta: bb, out: yb, meanOut: mb, invStdDevOut: sb }));
    row.copies = await time(() => { xb.array.set(x); return yb.array.slice(); });
    for (const b of [xb, yb, gb, bb, mb, sb]) b.free();

    const session = await ort.InferenceSession.create(layerNormModel(R, C, gamma, beta, eps), { executionProviders: ['wasm'] });
    const ortRun = async () => (await session.run({ X: new ort.Tensor('float32', x, [R, C]) })).Y.data;
    row.err.ort = maxErr(await ortRun(), ref);
    row.ort = await time(ortRun);
    await session.release();

    const tg = tf.tensor1d(gamma), tb = tf.tensor1d(beta);
    const tfRun = () => {
      const tx = tf.tensor2d(x, [R, C]);
      const ty = tfLayerNorm(tx, tg, tb, eps);
      const out = ty.dataSync();
      tx.dispose(); ty.dispose();
      return out;
    };
    row.err.tf = maxErr(tfRun(), ref);
    row.tf = await time(tfRun, 40, 3);
    tg.dispose(); tb.dispose();
    rows.push(row);
  }
  {
    const [S, D] = [2048, 512];
    const ref = peF64(S, D);
    const row = { what: 'sinusoidal PE', size: `${S}×${D}`, err: {} };
    row.err.posnorm = maxErr(pn.positionalEncoding({ seqLen: S, dModel: D }), ref);
    row.posnorm = await time(() => pn.positionalEncoding({ seqLen: S, dModel: D }));
    const yb = pn.alloc(S * D);
    row.zeroCopy = await time(() => pn.positionalEncoding({ seqLen: S, dModel: D, out: yb }));
    row.copies = await time(() => yb.array.slice());
    yb.free();
    const tfRun = () => { const t = tfPositionalEncoding(S, D); const out = t.dataSync(); t.dispose(); return out; };
    row.err.tf = maxErr(tfRun(), ref);
    row.tf = await time(tfRun, 40, 3);
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
