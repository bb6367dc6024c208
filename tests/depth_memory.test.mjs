// residualStack({ memory }): the decoder's stack, whose blocks also add a
// cross-attention branch to one memory vector, c_l = m·scale·C_l — its
// gradients against central finite differences and the float64 reference
// (tests/reference/residual_stack.mjs, which the kernel does not share), its
// forward spreads, a case worked by hand, its argument checks, and the claim
// of issue #19 measured: with a memory Post-LN's weight-gradient norms grow
// toward the output while Pre-LN's stay level.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { builds, compareValues, normals, ulp32 } from './helpers.mjs';
import { forward, loss, lossAndGradient } from './reference/residual_stack.mjs';

const all = await builds();
const BLOCKS = ['plain', 'post-ln', 'pre-ln', 'pre-rms'];
const width = 5, rows = 3, layers = 3, scale = 1.25;
const x0 = normals(rows * width, { seed: 15 });
const weights = normals(2 * layers * width * width, { std: 1 / Math.sqrt(width), seed: 16 });
const readout = normals(rows * width, { seed: 17 });
const memory = normals(width, { seed: 18 });

test('with a memory, the reference backward pass equals central finite differences of the reference forward pass (every block, both GELU forms)', () => {
  const w64 = Float64Array.from(weights);
  for (const block of BLOCKS) {
    for (const gelu of ['tanh', 'erf']) {
      const opts = { width, layers, block, scale, gelu, memory };
      const ref = lossAndGradient(x0, w64, readout, opts);
      assert.equal(ref.grad.length, 2 * layers * width * width);
      let top = 0;
      for (const g of ref.grad) top = Math.max(top, Math.abs(g));
      // h = 1e-5: truncation h²·f''' and rounding 1e-16/h (measured 3.9e-9 of the largest at worst)
      let worst = 0;
      for (let k = 0; k < w64.length; k++) {
        const h = 1e-5, plus = Float64Array.from(w64), minus = Float64Array.from(w64);
        plus[k] += h;
        minus[k] -= h;
        const fd = (loss(x0, plus, readout, opts) - loss(x0, minus, readout, opts)) / (2 * h);
        worst = Math.max(worst, Math.abs(ref.grad[k] - fd) / top);
      }
      assert.ok(worst <= 1e-8, `${block}/${gelu}: ${worst} of the largest gradient`);
      // every C_l gets a gradient (the branch is used) and it is s·m ⊗ (column sums)
      for (let l = 0; l < layers; l++) assert.ok(ref.memoryGradNorm[l] > 1e-6, `${block}/${gelu}: C_${l} has a gradient`);
    }
  }
});

test('a memory stack worked by hand: W = 0 leaves only the memory branch, x + m·C', () => {
  // x0 = [1, -1], m = [0.5, 2], C = I, W = 0 (GELU(0) = 0): x1 = [1.5, 1] for plain and Pre-Norm,
  // LN([1.5, 1]) for Post-LN, whose spread is 0.25/sqrt(0.25² + 1e-5)
  const x = Float32Array.of(1, -1), m = Float32Array.of(0.5, 2), w = Float32Array.of(0, 0, 0, 0, 1, 0, 0, 1);
  const want = { plain: 0.25, 'pre-ln': 0.25, 'pre-rms': 0.25, 'post-ln': 0.25 / Math.sqrt(0.0625 + 1e-5) };
  for (const block of BLOCKS) {
    assert.ok(Math.abs(forward(x, w, { width: 2, layers: 1, block, memory: m }).std[0] - want[block]) < 1e-15, `reference ${block}`);
    for (const { name, pn } of all) {
      const got = pn.residualStack(x, w, { width: 2, layers: 1, block, memory: m })[0];
      assert.ok(Math.abs(got - want[block]) <= 2 * ulp32(want[block]), `${name} ${block}: ${got} vs ${want[block]}`);
      // without the memory the same weights (W_0 = 0) leave x0: spread 1
      assert.equal(pn.residualStack(x, w, { width: 2, layers: 1, block: block === 'post-ln' ? 'plain' : block })[0], 1);
    }
  }
});

for (const { name, pn } of all) {
  test(`${name}: with a memory, gradients, loss, norms and spreads equal the float64 backward pass and finite differences, every block and GELU form`, () => {
    for (const block of BLOCKS) {
      for (const gelu of ['tanh', 'erf']) {
        const opts = { width, layers, block, scale, gelu, memory };
        const got = pn.residualStack(x0, weights, { ...opts, gradients: true, readout });
        const ref = lossAndGradient(x0, weights, readout, opts);
        const other = lossAndGradient(x0, weights, readout, { ...opts, gelu: gelu === 'erf' ? 'tanh' : 'erf' });
        const size = readout.reduce((s, t, k) => s + Math.abs(t * ref.y[k]), 0);
        assert.ok(Math.abs(got.loss - ref.loss) <= 5e-16 * size, `${block}/${gelu} loss ${got.loss} vs ${ref.loss}`);
        let top = 0;
        for (const g of ref.grad) top = Math.max(top, Math.abs(g));
        // float64 inside, each output rounded once: within half an ulp of the largest (measured 0.5)
        const grad = compareValues(got.grad, ref.grad, () => ulp32(top));
        assert.ok(grad.err <= 0.6 && grad.compared === 2 * layers * width * width, `${block}/${gelu} grad: ${grad.err} ulp of the largest`);
        const swapped = compareValues(got.grad, other.grad, () => ulp32(top));
        assert.ok(swapped.err > 0.6, `${block}/${gelu}: the other GELU form is told apart (${swapped.err} ulp)`);
        const norms = compareValues(got.gradNorm, ref.gradNorm, ulp32);
        assert.ok(norms.err <= 0.6 && norms.compared === layers, `${block}/${gelu} gradNorm: ${norms.err} ulp`);
        const std = compareValues(got.std, ref.std, ulp32);
        assert.ok(std.err <= 0.6 && std.compared === layers, `${block}/${gelu} std: ${std.err} ulp`);
        // straight against central differences of the float64 forward pass, for a few weights
        // of each W_l and C_l (rounding of the kernel's outputs: 1 float32 ulp of the largest)
        for (let l = 0; l < layers; l++) {
          for (const k of [2 * l * width * width + 3, (2 * l + 1) * width * width + 7]) {
            const h = 1e-4, plus = Float64Array.from(weights), minus = Float64Array.from(weights);
            plus[k] += h;
            minus[k] -= h;
            const fd = (loss(x0, plus, readout, opts) - loss(x0, minus, readout, opts)) / (2 * h);
            assert.ok(Math.abs(got.grad[k] - fd) <= 1e-7 * top + ulp32(top), `${block}/${gelu} ∂loss/∂w[${k}] ${got.grad[k]} vs ${fd}`);
          }
        }
      }
    }
  });

  test(`${name}: with a memory, the float32 stack's spreads equal the float64 stack, close enough to tell the memory and the GELU forms apart`, () => {
    const R = 4, W = 8, L = 6, s = 1.5;
    const x = normals(R * W, { seed: 25 }), w = normals(2 * L * W * W, { seed: 26, std: 1 / Math.sqrt(W) });
    const m = normals(W, { seed: 27 });
    // float32 products (measured 1.3e-7 relative at most)
    const TOL = 4e-7;
    for (const block of BLOCKS) {
      for (const gelu of ['tanh', 'erf']) {
        const got = pn.residualStack(x, w, { width: W, layers: L, block, scale: s, gelu, memory: m });
        const ref = forward(x, w, { width: W, layers: L, block, scale: s, gelu, memory: m }).std;
        for (let l = 0; l < L; l++) assert.ok(Math.abs(got[l] - ref[l]) <= TOL * ref[l], `${block}/${gelu} layer ${l}: ${got[l]} vs ${ref[l]}`);
        if (block === 'post-ln') continue; // LayerNorm pins the spread near 1 whatever the branches
        const noMemory = forward(x, w, { width: W, layers: L, block, scale: s, gelu }).std;
        assert.ok(noMemory.some((t, l) => Math.abs(got[l] - t) > 100 * TOL * t), `${block}: the memory branch is seen`);
        const otherGelu = forward(x, w, { width: W, layers: L, block, scale: s, gelu: gelu === 'erf' ? 'tanh' : 'erf', memory: m }).std;
        assert.ok(otherGelu.some((t, l) => Math.abs(got[l] - t) > 2 * TOL * t), `${block}/${gelu}: the other GELU form is told apart`);
      }
    }
  });

  test(`${name}: residualStack's memory and gelu are checked by name before anything is allocated, and the module stays usable`, () => {
    const before = pn.heapStats();
    const base = { width, layers, memory };
    const cases = [
      [{ ...base, memory: new Float32Array(width - 1) }, RangeError, `memory.length must be ${width}, got ${width - 1}`],
      [{ ...base, memory: new Float32Array(width + 1) }, RangeError, `memory.length must be ${width}`],
      [{ ...base, memory: [1, 2, 3, 4, 5] }, TypeError, 'memory must be a Float32Array'],
      [{ ...base, memory: new Float64Array(width) }, TypeError, 'memory must be a Float32Array'],
      [{ ...base, memory: Float32Array.of(0, 0, NaN, 0, 0) }, RangeError, 'memory must hold finite values, got NaN at index 2'],
      [{ ...base, memory: Float32Array.of(0, Infinity, 0, 0, 0) }, RangeError, 'memory must hold finite values, got Infinity at index 1'],
      [{ ...base, memory: Float32Array.of(0, 0, 0, 0, -Infinity) }, RangeError, 'got -Infinity at index 4'],
      [{ ...base, memory: null }, TypeError, 'memory must be a Float32Array'],
      [{ ...base, gelu: 'exact' }, RangeError, 'gelu must be "tanh" or "erf", got "exact"'],
      [{ ...base, gelu: 1 }, TypeError, 'gelu must be "tanh" or "erf"'],
      [{ ...base, gradients: true, gelu: 'none' }, RangeError, 'gelu must be "tanh" or "erf"'],
    ];
    for (const [opts, Err, message] of cases) {
      assert.throws(() => pn.residualStack(x0, weights, opts), (e) => e instanceof Err && e.message.startsWith('posnorm.residualStack: ') && e.message.includes(message), message);
    }
    // the weights must hold W_l and C_l for every layer with a memory
    const short = weights.subarray(0, 2 * layers * width * width - 1);
    assert.throws(() => pn.residualStack(x0, short, base), /weights\.length must be at least layers × 2 × width × width \(W_l then C_l per layer, with memory\) = 150, got 149/);
    assert.doesNotThrow(() => pn.residualStack(x0, short, { width, layers }), 'without a memory layers·width² = 75 are enough');
    // 2·layers·width² past 2^28 with a memory (8 layers of 4096² fit; 9 do not)
    assert.throws(() => pn.residualStack(new Float32Array(4096), new Float32Array(1), { width: 4096, layers: 9, memory: new Float32Array(4096) }),
      /layers × 2 × width × width \(W_l and C_l\) must be at most 268435456 elements \(1 GiB of float32\), got 301989888/);
    // extremes of the memory's values: ±0 and subnormals give finite spreads; the float32 range's
    // ends are accepted too, and m·C overflowing float32 is reported in the spreads (as any
    // overflowing activation is), not an error
    for (const t of [0, -0, 1e-45, -1e-45, 1e30]) {
      const r = pn.residualStack(x0, weights, { ...base, block: 'post-ln', memory: new Float32Array(width).fill(t) });
      assert.ok(r.length === layers && r.every(Number.isFinite), `memory ${t}: Post-LN keeps finite spreads (${[...r]})`);
    }
    for (const t of [3.4e38, -3.4e38]) {
      const r = pn.residualStack(x0, weights, { ...base, block: 'plain', memory: new Float32Array(width).fill(t) });
      assert.ok(r.length === layers && r.some((s) => !Number.isFinite(s)), `memory ${t}: the overflow shows (${[...r]})`);
    }
    const after = pn.heapStats();
    assert.equal(after.allocations, before.allocations, 'no allocation outlives the calls');
    assert.ok(pn.residualStack(x0, weights, base).every(Number.isFinite), 'and the module still runs');
  });
}

// ---- issue #19's claim, measured ---------------------------------------------------------------
// Rows 4, weights N(0, 1/width) (W_l and C_l), x0 and m N(0, 1), a read-out N(0, 1/(rows·width));
// widths 32 and 64, seeds 1–3. Measured with the reference (last/first of W_l's gradient norm):
//   with a memory  Post-LN   6 layers 1.7–5.2, 12 layers 3.1–32 (median 16), 24 layers 19–1190 (median 267)
//                  Pre-LN    0.51–1.07;  Pre-RMS 0.56–1.11 (every depth)
//   without        Post-LN   0.19–1.54 at 24 layers (the encoder-style stack does not grow);
//                  Pre-LN 0.21–0.38, Pre-RMS 0.28–0.69 (both fall)
// The bounds below sit well inside these; posnorm's kernel gives the same ratios (its gradient norms
// equal the reference's to half an ulp, tested above), and is held to the same bounds.
const CLAIM = { rows: 4, layerSet: [6, 12, 24], widths: [32, 64], seeds: [1, 2, 3] };

function claimCases() {
  const out = [];
  for (const width of CLAIM.widths) {
    for (const seed of CLAIM.seeds) {
      const L = 24, n = CLAIM.rows * width;
      out.push({
        width, seed,
        x0: normals(n, { seed }),
        w: normals(2 * L * width * width, { seed: seed + 100, std: 1 / Math.sqrt(width) }),
        memory: normals(width, { seed: seed + 200 }),
        readout: normals(n, { seed: seed + 300, std: 1 / Math.sqrt(n) }),
      });
    }
  }
  return out;
}

/** Encoder weights: the W_l of a memory stack's W_l, C_l layout. */
function encoderWeights(w, width, layers) {
  const e = new Float32Array(layers * width * width);
  for (let l = 0; l < layers; l++) e.set(w.subarray(2 * l * width * width, (2 * l + 1) * width * width), l * width * width);
  return e;
}

function checkClaim(ratioOf, who) {
  const median = (a) => [...a].sort((p, q) => p - q)[a.length >> 1];
  const post = { 6: [], 12: [], 24: [] };
  for (const c of claimCases()) {
    const r = {};
    for (const layers of CLAIM.layerSet) {
      r[layers] = ratioOf(c, layers, 'post-ln', true);
      post[layers].push(r[layers]);
      for (const block of ['pre-ln', 'pre-rms']) {
        const q = ratioOf(c, layers, block, true);
        assert.ok(q > 0.3 && q < 1.5, `${who} width ${c.width} seed ${c.seed}, ${layers} layers: ${block} stays level with a memory (${q})`);
      }
    }
    assert.ok(r[6] < r[12] && r[12] < r[24], `${who} width ${c.width} seed ${c.seed}: Post-LN's ratio grows with depth (${r[6]}, ${r[12]}, ${r[24]})`);
    assert.ok(r[24] > 15, `${who} width ${c.width} seed ${c.seed}: Post-LN at 24 layers ${r[24]}`);
    const enc = ratioOf(c, 24, 'post-ln', false);
    assert.ok(enc < 2 && r[24] > 10 * enc, `${who} width ${c.width} seed ${c.seed}: without the memory Post-LN does not grow (${enc} vs ${r[24]})`);
    // docs/decisions.md: without the memory both Pre-Norm stacks' ratios fall (measured 0.21–0.69)
    for (const block of ['pre-ln', 'pre-rms']) {
      const q = ratioOf(c, 24, block, false);
      assert.ok(q > 0.1 && q < 1, `${who} width ${c.width} seed ${c.seed}: without the memory ${block} falls towards the output (${q})`);
    }
  }
  assert.ok(median(post[6]) > 2, `${who}: Post-LN at 6 layers, median ${median(post[6])}`);
  assert.ok(median(post[12]) > 10, `${who}: Post-LN at 12 layers, median ${median(post[12])}`);
  assert.ok(median(post[24]) > 100, `${who}: Post-LN at 24 layers, median ${median(post[24])}`);
}

test("issue #19's claim, by the float64 reference: with a memory Post-LN's gradient norms grow toward the output, Pre-LN's stay level", () => {
  checkClaim((c, layers, block, withMemory) => {
    const w = withMemory ? c.w.subarray(0, 2 * layers * c.width * c.width) : encoderWeights(c.w, c.width, layers);
    const g = lossAndGradient(c.x0, w, c.readout, { width: c.width, layers, block, memory: withMemory ? c.memory : null }).gradNorm;
    return g[layers - 1] / g[0];
  }, 'reference');
});

for (const { name, pn } of all) {
  test(`${name}: issue #19's claim, by posnorm's kernel`, () => {
    checkClaim((c, layers, block, withMemory) => {
      const w = withMemory ? c.w.subarray(0, 2 * layers * c.width * c.width) : encoderWeights(c.w, c.width, layers);
      const opts = { width: c.width, layers, block, gradients: true, readout: c.readout };
      const g = pn.residualStack(c.x0, w, withMemory ? { ...opts, memory: c.memory } : opts).gradNorm;
      return g[layers - 1] / g[0];
    }, name);
  });
}
