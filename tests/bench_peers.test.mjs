// The peer benchmark's own parts: the ONNX model bench/onnx-model.mjs writes
// must load in onnxruntime-web and compute LayerNormalization (checked
// against the float64 LayerNorm of tests/reference/), or `make bench` would time
// something else.
import assert from 'node:assert/strict';
import test from 'node:test';
import * as ort from 'onnxruntime-web';
import { layerNormModel } from '../bench/onnx-model.mjs';
import { layerNorm } from './reference/norms.mjs';

ort.env.wasm.numThreads = 1;

test('the bench ONNX LayerNormalization model runs in onnxruntime-web and matches float64', async () => {
  const R = 3, C = 10, eps = 1e-3;
  const x = Float32Array.from({ length: R * C }, (_, i) => Math.sin(1.7 * i) * (1 + i % 4) + 0.3 * (i % 7));
  const gamma = Float32Array.from({ length: C }, (_, j) => 0.5 + j / 8);
  const beta = Float32Array.from({ length: C }, (_, j) => (j % 3) - 1);
  const session = await ort.InferenceSession.create(layerNormModel(R, C, gamma, beta, eps), { executionProviders: ['wasm'] });
  const y = (await session.run({ X: new ort.Tensor('float32', x, [R, C]) })).Y;
  assert.deepEqual(y.dims, [R, C]);
  const want = layerNorm(x, C, { gamma, beta, eps: Math.fround(eps) }).y;
  for (let k = 0; k < R * C; k++) assert.ok(Math.abs(y.data[k] - want[k]) < 1e-5, `row ${Math.floor(k / C)} col ${k % C}: ${y.data[k]} vs ${want[k]}`);
  await session.release();
});

test('checkOutput: an output off the float64 reference by more than its bound, NaN, or of another length is not timed (throws naming it); one within returns its error', async () => {
  const { checkOutput, OUTPUT_BOUND } = await import('../bench/peers.mjs');
  const ref = Float64Array.from([0.5, -1.25, 2]);
  assert.equal(checkOutput('p', Float32Array.from([0.5, -1.25, 2.00005]), ref, 1e-4), Math.fround(2.00005) - 2);
  assert.throws(() => checkOutput('ORT LayerNorm 2×2', Float32Array.from([0.5, -1.25, 2.001]), ref, 1e-4), /ORT LayerNorm 2×2's output is off the float64 reference by 0\.0009\d+ \(bound 0\.0001\)/);
  assert.throws(() => checkOutput('TF.js', Float32Array.from([0.5, NaN, 2]), ref, 1e-4), /TF\.js's output .* by Infinity/);
  assert.throws(() => checkOutput('TF.js', Float32Array.from([NaN, 0, 0]), ref, 1e-4), /by Infinity/, 'a NaN first');
  assert.throws(() => checkOutput('TF.js', Float32Array.from([0.5, -1.25]), ref, 1e-4), /gave 2 values, not 3/);
  // tight enough to catch a LayerNorm that leaves eps out (8e-6 at 2048×1024, a probe) or PE from float32 angles (1.2e-4)
  assert.ok(OUTPUT_BOUND.posnorm.layerNorm < 8e-6 && OUTPUT_BOUND.peer.layerNorm <= 1e-5 && OUTPUT_BOUND.posnorm.pe < 1.2e-4);
  assert.ok(OUTPUT_BOUND.epsCheck <= 1e-2);
});
