// format.js — how the figures write numbers: readout digits and axis ticks.

/** Formats a number with `digits` significant digits, no exponent for common ranges. */
export function fmt(x, digits = 4) {
  if (!Number.isFinite(x)) return String(x);
  if (x === 0) return '0';
  const a = Math.abs(x);
  if (a >= 1e6 || a < 1e-4) return x.toExponential(digits - 1);
  return Number(x.toPrecision(digits)).toString();
}

/** "Nice" tick values covering [lo, hi] with about `count` ticks. */
export function ticks(lo, hi, count = 5) {
  const span = hi - lo;
  if (!(span > 0)) return [lo];
  const raw = span / count;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * mag).find((s) => span / s <= count) ?? 10 * mag;
  const out = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + step * 1e-9; v += step) out.push(Number(v.toPrecision(12)));
  return out;
}

/** A value on a symmetric scale with its sign: '+1', '+0.5', '0', '−0.5' (a real minus). */
export function signed(v) {
  return v > 0 ? `+${v}` : v < 0 ? `−${-v}` : '0';
}
