// subscript.js — digits as Unicode subscripts (ω₁₂), for the labels.

/** `12` → `₁₂`. */
export function sub(i) {
  return String(i).replace(/\d/g, (d) => '₀₁₂₃₄₅₆₇₈₉'[d]);
}
