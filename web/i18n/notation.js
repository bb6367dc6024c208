// i18n/notation.js — what the figures write that reads the same in every
// language: formulas, and the way numbers are laid out beside a name. Each
// table (ko.js, en.js) takes all of it, so that a figure asks its table for
// every string a reader sees.
import { sub } from './subscript.js';

/** The article's example sentence, 나는 AI를 공부한다, as its three word tokens: the order and block figures
 * show it in both languages (docs/decisions.md). */
export const TOKENS = Object.freeze(['나는', 'AI를', '공부한다']);

export default {
  // heatmap: the y axis
  posAxis: 'pos',
  // order: a token's output row
  orderRow: (at, token, values) => `${at}: ${token} → [${values.join(', ')}, …]`,
  // properties: R(k) and the table of the 2×2 blocks
  matrix2: ([[a, b], [c, d]]) => `[[${a}, ${b}], [${c}, ${d}]]`,
  rotationHead: (k) => ['i', `θ = ${k}·ω_i`, 'R(k) = [[cos θ, sin θ], [−sin θ, cos θ]]'],
  // long-context: the lines at L and factor·L; depth, long-context: lists of methods
  lcTrainMark: (L) => `L = ${L}`,
  lcReachMark: (factor) => `${factor}·L`,
  named: (name, value) => `${name} ${value}`,
  lcOutside: (text) => `${text} ✗`,
  listed: (items) => items.join(' · '),
  // LayerNorm simulator: the four steps with the first feature's numbers
  lnStepMean: (mu) => `μ = (1/H)·Σ xᵢ = ${mu}`,
  lnStepVariance: (variance) => `σ² = (1/H)·Σ (xᵢ − μ)² = ${variance}`,
  lnStepNormalize: (x1, mu, variance, eps, xhat) => `x̂₁ = (x₁ − μ)/√(σ² + ε) = (${x1} − ${mu})/√(${variance} + ${eps}) = ${xhat}`,
  lnStepScale: (gamma, xhat, beta, y1) => `y₁ = γ·x̂₁ + β = ${gamma}·${xhat} + ${beta} = ${y1}`,
  // LayerNorm steps: the first feature through them
  stepsChain: (x, centered, normalized, y) => `x₁ = ${x} → x₁ − μ = ${centered} → x̂₁ = ${normalized} → y₁ = ${y}`,
  // block: the tensors' names (n: the norm, LN or RMS) and a token's statistics
  blockNormName: (norm) => (norm === 'rms' ? 'RMS' : 'LN'),
  blockTensors: (placement, n) => (placement === 'pre'
    ? { attnInput: `${n}${sub(1)}(x)`, attnOutput: `a = Attn(${n}${sub(1)}(x))`, residual1: 'h = x + a', ffnInput: `${n}${sub(2)}(h)`, ffnOutput: `f = FFN(${n}${sub(2)}(h))`, output: 'y = h + f' }
    : { attnOutput: 'a = Attn(x)', residual1: 'x + a', ffnInput: `h = ${n}${sub(1)}(x + a)`, ffnOutput: 'f = FFN(h)', residual2: 'h + f', output: `y = ${n}${sub(2)}(h + f)` }),
  blockTokenStats: (mean, std) => `μ ${mean} σ ${std}`,
};
