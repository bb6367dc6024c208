// GELU in float64, both forms (Hendrycks & Gimpel, "Gaussian Error Linear Units", 2016, §2),
// and erf/erfc to float64 accuracy (series: A&S 7.1.6; continued fraction: A&S 7.1.14).

const SQRT_PI = Math.sqrt(Math.PI);
/** sqrt(2/π), the tanh form's constant. */
export const GELU_K = Math.sqrt(2 / Math.PI);
/** The tanh form's cubic coefficient. */
export const GELU_C = 0.044715;

/** e^(-x²) without the rounding of x² (x = hi + lo, hi with 24 bits, so hi² is exact). */
function expMinusSquare(x) {
  const hi = Math.fround(x), lo = x - hi;
  return Math.exp(-hi * hi) * Math.exp(-(2 * hi * lo + lo * lo));
}

/** erf(x) = 2/√π · e^(−x²) · Σ 2ⁿ x^(2n+1) / (1·3·…·(2n+1)): positive terms, no cancellation (|x| < 3). */
function erfSeries(x) {
  let term = x, sum = x;
  for (let n = 1; n < 500; n++) {
    term *= (2 * x * x) / (2 * n + 1);
    sum += term;
    if (term < 1e-17 * sum) break;
  }
  return (2 / SQRT_PI) * expMinusSquare(x) * sum;
}

/** erfc(x) for x >= 1: e^(−x²)/√π · 1/(x + (1/2)/(x + 1/(x + (3/2)/(x + …)))), modified Lentz. */
function erfcFraction(x) {
  const tiny = 1e-300;
  let f = x, c = x, d = 0;
  for (let k = 1; k < 500; k++) {
    const a = k / 2;
    d = x + a * d;
    d = d === 0 ? tiny : d;
    c = x + a / c;
    c = c === 0 ? tiny : c;
    d = 1 / d;
    const delta = c * d;
    f *= delta;
    if (Math.abs(delta - 1) < 1e-17) break;
  }
  return expMinusSquare(x) / (SQRT_PI * f);
}

/** The error function in float64 (within a few ulp). */
export function erf(x) {
  if (Number.isNaN(x)) return NaN;
  const a = Math.abs(x);
  const v = a < 3 ? erfSeries(a) : 1 - erfcFraction(a);
  return x < 0 ? -v : v;
}

/** The complementary error function 1 − erf(x), accurate in the tail too. */
export function erfc(x) {
  if (Number.isNaN(x)) return NaN;
  if (x < 1) return 1 - erf(x); // erfc(1) = 0.157…: no cancellation worth a bit
  return erfcFraction(x);
}

/** GELU, exact form: z·Φ(z) = z/2·erfc(−z/√2). */
export function geluErf(z) {
  return 0.5 * z * erfc(-z / Math.SQRT2);
}

/**
 * GELU, tanh form (PyTorch approximate='tanh', GPT-2): z/2·(1 + tanh(u)), u = √(2/π)(z + 0.044715 z³),
 * computed as z·σ(2u) = z/(1 + e^(−2u)) (the same function): 1 + tanh(u) cancels for u ≪ 0 (2.7e-7
 * relative at z = −6), σ does not.
 */
export function geluTanh(z) {
  return z / (1 + Math.exp(-2 * GELU_K * (z + GELU_C * z * z * z)));
}

/** d/dz of the tanh form: σ(2u) + 2z·σ(2u)·σ(−2u)·u′, with each σ taken where it does not cancel. */
export function geluTanhGrad(z) {
  const u = GELU_K * (z + GELU_C * z * z * z);
  const s = 1 / (1 + Math.exp(-2 * u)), q = 1 / (1 + Math.exp(2 * u));
  return s + 2 * z * s * q * GELU_K * (1 + 3 * GELU_C * z * z);
}

/** d/dz of the exact form: Φ(z) + z·φ(z). */
export function geluErfGrad(z) {
  return 0.5 * erfc(-z / Math.SQRT2) + z * Math.exp(-0.5 * z * z) / Math.sqrt(2 * Math.PI);
}

/** The forms by name, each { f, df }, for references that take a GELU. */
export const GELU = {
  tanh: { f: geluTanh, df: geluTanhGrad },
  erf: { f: geluErf, df: geluErfGrad },
};
