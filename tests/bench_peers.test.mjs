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
