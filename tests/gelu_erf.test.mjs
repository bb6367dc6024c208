// GELU's exact form: the tests' float64 reference (tests/reference/gelu.mjs) against values computed
// with 40 digits, the same points the C test holds posnorm's own erf GELU to (tests/c/test_kernels.c,
// test_gelu_erf), so that the reference the block and stack tests use is shown adequate on its own;
// the tanh form and its derivative against 40-digit values too; and how far the tanh form is from
// the exact one (the figure the docs quote).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { geluErf, geluErfGrad, geluTanh, geluTanhGrad } from './reference/gelu.mjs';

// z, GELU(z) = z·Φ(z), GELU'(z) = Φ(z) + z·φ(z): mpmath 1.3 at 40 digits, rounded to 25
const VALUES = [
  [-37.5, -1.727007378593233066435488e-306, -6.476271143055812622971645e-305],
  [-20.0, -5.507248237212467390151246e-88, -1.101436048313346404221472e-86],
  [-10.0, -7.619853024160526065973343e-23, -7.6184000964648140856793e-22],
  [-6.0, -5.919525870226188844205185e-9, -3.546870945390201478127698e-8],
  [-4.0, -0.000126684967332479685015083, -0.0005036496612264214858425272],
  [-3.0, -0.004049694094890283579955444, -0.01194564720418392700015524],
  [-2.828125, -0.0066208556306245566431642, -0.01834136717747903118541109],
  [-2.6875, -0.009673535619976786807824594, -0.02536588695506808497107081],
  [-2.0, -0.04550026389635841440056527, -0.08523180107819689670084576],
  [-1.5, -0.1002108019032870990067411, -0.1274691922299795254166553],
  [-1.40625, -0.1122538370926011111251265, -0.1288909083546261714815106],
  [-1.0, -0.1586552539314570514147675, -0.08331547058768629838306274],
  [-0.75, -0.1699705142826511494952966, 0.0007742782607648956283087645],
  [-0.3, -0.1146265733433142058362825, 0.2676722331728901450984896],
  [-1e-08, -4.999999960105772064469535e-9, 0.4999999920211543919713465],
  [1e-08, 5.000000039894228144756073e-9, 0.5000000079788456080286535],
  [0.3, 0.1853734266566857830614872, 0.7323277668271098549015104],
  [0.75, 0.5800294857173488505047034, 0.9992257217392351043716912],
  [1.0, 0.8413447460685429485852325, 1.083315470587686298383063],
  [1.40625, 1.293996162907398888874874, 1.128890908354626171481511],
  [1.5, 1.399789198096712900993259, 1.127469192229979525416655],
  [2.0, 1.954499736103641585599435, 1.085231801078196896700846],
  [2.6875, 2.677826464380023213192175, 1.025365886955068084971071],
  [2.828125, 2.821504144369375443356836, 1.018341367177479031185411],
  [3.0, 2.995950305905109716420045, 1.011945647204183927000155],
  [4.0, 3.999873315032667520314985, 1.000503649661226421485843],
  [6.0, 5.999999994080474129773811, 1.000000035468709453902015],
  [10.0, 9.999999999999999999999924, 1.000000000000000000000762],
  [20.0, 20.0, 1.0],
  [37.5, 37.5, 1.0],
];

test("the reference's erf GELU and its derivative against 40-digit values", () => {
  // measured: 3e-15 relative for |z| <= 6; the tail grows as z² (−z/√2 is rounded before erfc:
  // 9e-15 at z = −10, 3.6e-14 at −20, 1.4e-13 at −37.5) — far inside float32's 6e-8, which is
  // what the kernels' outputs are rounded to; the derivative within 2.3e-16 absolute
  for (const [z, g, d] of VALUES) {
    const rel = Math.abs(geluErf(z) - g) / Math.abs(g);
    assert.ok(rel <= (Math.abs(z) <= 6 ? 4e-15 : 2e-13), `geluErf(${z}) = ${geluErf(z)}, want ${g} (${rel})`);
    assert.ok(Math.abs(geluErfGrad(z) - d) <= 5e-16, `geluErfGrad(${z}) = ${geluErfGrad(z)}, want ${d}`);
    // in the left tail the derivative is tiny (1e-86 at −20), where an absolute bound says nothing:
    // relative there too (measured 1.2e-16; Φ taken as (1 + erf)/2, which cancels, is 1 % off at −10)
    if (z <= -4) assert.ok(Math.abs(geluErfGrad(z) - d) <= 1e-13 * Math.abs(d), `geluErfGrad(${z}) = ${geluErfGrad(z)}, want ${d} (relative)`);
  }
});

// the tanh form z/2·(1 + tanh(√(2/π)(z + 0.044715 z³))) and its derivative: mpmath 1.3 at 40 digits, rounded to 25
const TANH_VALUES = [
  [-6, -8.439646700762297083699443e-11, -7.709973930953695511677775e-10],
  [-4, -0.0000702459481923726898181258, -0.0003351231971226707583992758],
  [-2.6875, -0.009200404804242622590602252, -0.025384230449237630674749],
  [-1, -0.1588080093917232952180042, -0.08296408384578255513964242],
  [-0.3, -0.1146290764572407518708518, 0.2677045483611981778280665],
  [0.3, 0.1853709235427592481291482, 0.7322954516388018221719335],
  [1, 0.8411919906082767047819958, 1.082964083845782555139642],
  [2.6875, 2.678299595195757377409398, 1.025384230449237630674749],
  [4, 3.999929754051807627310182, 1.000335123197122670758399],
  [6, 5.999999999915603532992377, 1.00000000077099739309537],
];

test("the reference's tanh GELU and its derivative against 40-digit values", () => {
  // relative, the left tail included (measured 1.5e-15 at z = −6; 1 + tanh(u) there is 2.7e-7 off,
  // √(2/π) as 0.79788 1.3e-6)
  for (const [z, g, d] of TANH_VALUES) {
    assert.ok(Math.abs(geluTanh(z) - g) <= 4e-15 * Math.abs(g), `geluTanh(${z}) = ${geluTanh(z)}, want ${g}`);
    assert.ok(Math.abs(geluTanhGrad(z) - d) <= 4e-15 * Math.abs(d), `geluTanhGrad(${z}) = ${geluTanhGrad(z)}, want ${d}`);
  }
});

test('the tanh form is at most 4.7e-4 from the exact form, at z = ±2.70', () => {
  let top = 0, at = 0;
  for (let k = -80000; k <= 80000; k++) {
    const z = k / 10000, d = Math.abs(geluTanh(z) - geluErf(z));
    if (d > top) { top = d; at = z; }
  }
  assert.ok(top > 4.7e-4 && top < 4.75e-4, `largest difference ${top}`);
  assert.ok(Math.abs(Math.abs(at) - 2.7) < 0.01, `at z = ${at}`);
});
