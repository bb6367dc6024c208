// residualStack({ gradients: true }): the loss, ∂loss/∂weights, their norms
// and the per-layer spread of the residual stack, for every block type, in
// both builds, against the float64 backward pass of tests/reference/
// (which is itself checked here against central finite differences of the
// reference forward pass).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { builds, compareValues, normals, ulp32 } from './helpers.mjs';
import { randomNormals } from './reference/random.mjs';
import { loss, lossAndGradient } from './reference/residual_stack.mjs';

// (Whether this toy stack shows Xiong et al.'s Post-LN/Pre-LN gradient
// profile is a property of the model, not of the kernel: it is not asserted
// here. With GELU(h·W) blocks it does not — see the README.)

const all = await builds();
const BLOCKS = ['plain', 'post-ln', 'pre-ln', 'pre-rms'];
const width = 6, rows = 3, layers = 4, scale = 1.25; // a float32 number: the kernel takes the scale as float32
const x0 = normals(rows * width, { seed: 5 });
const weights = normals(layers * width * width, { std: 1 / Math.sqrt(width), seed: 6 });
const readout = normals(rows * width, { seed: 7 });

test('the reference backward pass equals central finite differences of the reference forward pass, for every block and both GELU forms', () => {
  const w64 = Float64Array.from(weights);
  for (const block of BLOCKS) {
    for (const gelu of ['tanh', 'erf']) {
      const opts = { width, layers, block, scale, gelu };
      const ref = lossAndGradient(x0, w64, readout, opts);
      assert.ok(Math.abs(ref.loss - loss(x0, w64, readout, opts)) <= 1e-15 * Math.abs(ref.loss), `${block}/${gelu} loss`);
      let top = 0;
      for (const g of ref.grad) top = Math.max(top, Math.abs(g));
      // h = 1e-5: truncation h²·f''' and rounding 1e-16/h (measured worst 2.2e-9 of the largest, pre-ln)
      for (let k = 0; k < w64.length; k++) {
        const h = 1e-5, plus = Float64Array.from(w64), minus = Float64Array.from(w64);
        plus[k] += h;
        minus[k] -= h;
        const fd = (loss(x0, plus, readout, opts) - loss(x0, minus, readout, opts)) / (2 * h);
        assert.ok(Math.abs(ref.grad[k] - fd) <= 1e-8 * top, `${block}/${gelu}: ∂loss/∂w[${k}] ${ref.grad[k]} vs finite difference ${fd}`);
      }
      for (let l = 0; l < layers; l++) {
        let s = 0;
        for (let k = l * width * width; k < (l + 1) * width * width; k++) s += ref.grad[k] ** 2;
        assert.ok(Math.abs(ref.gradNorm[l] - Math.sqrt(s)) <= 1e-15 * Math.sqrt(s), `${block}/${gelu} gradNorm[${l}]`);
      }
    }
  }
});

for (const { name, pn } of all) {
  test(`${name}: residualStack gradients, loss, gradient norms and spreads equal the float64 backward pass, for every block, both GELU forms, with and without a memory`, () => {
    // a decoder's memory (one vector every row sees) and its per-layer C_l after W_l
    const memory = normals(width, { seed: 8 });
    const withMemory = normals(layers * 2 * width * width, { std: 1 / Math.sqrt(width), seed: 9 });
    for (const block of BLOCKS) {
      // the erf form's derivative Φ(z) + z·φ(z) is its own code path: the tanh form alone leaves it untested
      for (const gelu of ['tanh', 'erf']) {
        for (const mem of [null, memory]) {
          const w = mem ? withMemory : weights, at = `${block}/${gelu}${mem ? ' with memory' : ''}`;
          const opts = { width, layers, block, scale, gelu, ...(mem ? { memory: mem } : {}) };
          const got = pn.residualStack(x0, w, { ...opts, gradients: true, readout });
          const ref = lossAndGradient(x0, w, readout, opts);
          // float64 inside and each output rounded once to float32: within half an ulp (measured 0.49
          // at most); the loss is a float64 output, within 1.2e-16 of Σ|readout·y| (measured)
          const size = readout.reduce((s, t, k) => s + Math.abs(t * ref.y[k]), 0);
          assert.ok(Math.abs(got.loss - ref.loss) <= 5e-16 * size, `${at} loss ${got.loss} vs ${ref.loss}`);
          let top = 0;
          for (const g of ref.grad) top = Math.max(top, Math.abs(g));
          const grad = compareValues(got.grad, ref.grad, () => ulp32(top));
          assert.ok(grad.err <= 0.6 && grad.compared === w.length, `${at} grad: ${grad.err} ulp of the largest`);
          const norms = compareValues(got.gradNorm, ref.gradNorm, ulp32);
          assert.ok(norms.err <= 0.6 && norms.compared === layers, `${at} gradNorm: ${norms.err} ulp`);
          const std = compareValues(got.std, ref.std, ulp32);
          assert.ok(std.err <= 0.6 && std.compared === layers, `${at} std ${[...got.std]} vs ${[...ref.std]}: ${std.err} ulp`);
        }
      }
    }
    assert.throws(() => pn.residualStack(x0, weights, { width, layers, readout }), /readout is used only with gradients: true/);
  });

  test(`${name}: residualStack gradients without a readout use the documented one (seed 20200, N(0, 1/(rows·width)))`, () => {
    const fixed = Float32Array.from(randomNormals(rows * width, { seed: 20200, std: 1 / Math.sqrt(rows * width) }));
    for (const block of BLOCKS) {
      const got = pn.residualStack(x0, weights, { width, layers, block, scale, gradients: true });
      const ref = lossAndGradient(x0, weights, fixed, { width, layers, block, scale });
      const size = fixed.reduce((s, t, k) => s + Math.abs(t * ref.y[k]), 0);
      assert.ok(Math.abs(got.loss - ref.loss) <= 5e-16 * size, `${block} loss ${got.loss} vs ${ref.loss}`);
    }
  });
}
