// residualStack({ gradients: true }): the loss and ∂loss/∂weights of the
// residual stack, for every block type, in both builds, against central
// finite differences of a float64 forward pass written here.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { builds, normals, rng } from './helpers.mjs';

// (Whether this toy stack shows Xiong et al.'s Post-LN/Pre-LN gradient
// profile is a property of the model, not of the kernel: it is not asserted
// here. With GELU(h·W) blocks it does not — see the README.)

const all = await builds();
const K = Math.sqrt(2 / Math.PI), C = 0.044715;
const gelu = (z) => 0.5 * z * (1 + Math.tanh(K * (z + C * z ** 3)));

/** The stack in float64: x ← block(x) for each layer; loss = Σ readout·y. */
function loss64(x0, weights, readout, { width, layers, block, scale }) {
  const rows = x0.length / width;
  const norm = (x, rms) => {
    const y = new Float64Array(x.length);
    for (let r = 0; r < rows; r++) {
      let m = 0, v = 0;
      if (!rms) { for (let j = 0; j < width; j++) m += x[r * width + j]; m /= width; }
      for (let j = 0; j < width; j++) v += (x[r * width + j] - m) ** 2;
      const inv = 1 / Math.sqrt(v / width + 1e-5);
      for (let j = 0; j < width; j++) y[r * width + j] = (x[r * width + j] - m) * inv;
    }
    return y;
  };
  let x = Float64Array.from(x0);
  const pre = block === 'pre-ln' || block === 'pre-rms', rms = block === 'pre-rms';
  for (let l = 0; l < layers; l++) {
    const h = pre ? norm(x, rms) : x;
    const u = new Float64Array(x.length);
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < width; c++) {
        let z = 0;
        for (let k = 0; k < width; k++) z += h[r * width + k] * weights[l * width * width + k * width + c];
        u[r * width + c] = x[r * width + c] + gelu(scale * z);
      }
    }
    x = block === 'post-ln' ? norm(u, false) : u;
  }
  const y = pre ? norm(x, rms) : x;
  let s = 0;
  for (let k = 0; k < y.length; k++) s += readout[k] * y[k];
  return s;
}

for (const { name, pn } of all) {
  test(`${name}: residualStack gradients equal central finite differences of the loss, for every block`, () => {
    const width = 6, rows = 3, layers = 4, scale = 1.25; // a float32 number: the kernel takes the scale as float32
    const x0 = normals(rows * width, { seed: 5 });
    const weights = normals(layers * width * width, { std: 1 / Math.sqrt(width), seed: 6 });
    const readout = normals(rows * width, { seed: 7 });
    const r = rng(9);
    for (const block of ['plain', 'post-ln', 'pre-ln', 'pre-rms']) {
      const opts = { width, layers, block, scale };
      const got = pn.residualStack(x0, weights, { ...opts, gradients: true, readout });
      const w64 = Float64Array.from(weights);
      assert.ok(Math.abs(got.loss - loss64(x0, w64, readout, opts)) <= 1e-9 * Math.max(1, Math.abs(got.loss)), `${block} loss`);
      let top = 0;
      for (const g of got.grad) top = Math.max(top, Math.abs(g));
      for (let t = 0; t < 40; t++) {
        const k = Math.floor(r.uniform() * w64.length);
        const h = 1e-5;
        const plus = Float64Array.from(w64), minus = Float64Array.from(w64);
        plus[k] += h;
        minus[k] -= h;
        const fd = (loss64(x0, plus, readout, opts) - loss64(x0, minus, readout, opts)) / (2 * h);
        assert.ok(Math.abs(got.grad[k] - fd) <= 1e-5 * top + 1e-7, `${block}: ∂loss/∂w[${k}] ${got.grad[k]} vs finite difference ${fd}`);
      }
      for (let l = 0; l < layers; l++) {
        let s = 0;
        for (let k = l * width * width; k < (l + 1) * width * width; k++) s += got.grad[k] ** 2;
        assert.ok(Math.abs(got.gradNorm[l] - Math.sqrt(s)) <= 1e-6 * Math.sqrt(s), `${block} gradNorm[${l}]`);
      }
      assert.equal(got.std.length, layers);
    }
    assert.throws(() => pn.residualStack(x0, weights, { width, layers, readout }), /readout is used only with gradients: true/);
  });

}
