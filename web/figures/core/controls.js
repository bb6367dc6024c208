// controls.js — what a figure's control is, and the one rule that turns an
// attribute, property or URL value into its value (form.js shows them).
//
// A control is { prop, attr, kind, min, max, step, def, label, round,
// format, choices, choiceLabels, hidden, logStep }:
//   int / float: a range slider over [min, max] by step
//   log:    a slider over log10 of the value; `round` rounds the value
//   choice: a <select> over `choices`
//   text:   a string no longer than `maxLength` that matches `pattern`, for
//           state that is not a number (always `hidden`: the figure gives it
//           an input of its own)
// `min`/`max` may be functions of the figure (a dependent range, e.g. the
// pair index i < d_model / 2).
//
// The parse rule, the same for attributes, properties and URL parameters:
//   - numeric controls take a finite number, or a string in plain decimal
//     notation ("64", "-1.5", "1e-5", "1e309", surrounding spaces allowed);
//     anything else — "", "abc", "0x40", "Infinity", NaN, Infinity, null,
//     true — means the default;
//   - a choice control takes one of its choices exactly; anything else
//     means the default;
//   - a text control takes a string that matches its pattern and length;
//     anything else means the default;
//   - a number outside the range is clamped into it, then rounded to the
//     control's step (`round`, or to an integer for `int`).
// Removing the attribute (or setting the property to undefined or null)
// returns the control to its default.

const DECIMAL = /^\s*[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?\s*$/;

/** The current value of a bound (a number, or a function of the figure). */
export function bound(fig, c, key) {
  const b = c[key];
  return typeof b === 'function' ? b(fig) : b;
}

function clampRound(c, value, min, max) {
  let v = value;
  if (min !== undefined && v < min) v = min;
  if (max !== undefined && v > max) v = max;
  if (c.kind === 'int') v = Math.round(v);
  if (c.round) v = c.round(v);
  // −0 is 0: else "-0" (or −0.4 rounded) was a change from 0 and fired posnorm-change
  return v === 0 ? 0 : v;
}

/**
 * The value `raw` asks for, by the parse rule above: the default when it is
 * not a valid value, else clamped to the control's fixed bounds. Bounds that
 * depend on other controls are applied by resolveControl().
 */
export function parseControl(c, raw) {
  if (c.kind === 'choice') return c.choices.includes(raw) ? raw : c.def;
  if (c.kind === 'text') return typeof raw === 'string' && raw.length <= c.maxLength && c.pattern.test(raw) ? raw : c.def;
  let value = NaN;
  if (typeof raw === 'number') {
    if (!Number.isFinite(raw)) return c.def;
    value = raw;
  } else if (typeof raw === 'string' && DECIMAL.test(raw)) {
    // a decimal past a double's range ("1e309", 400 digits) is ±Infinity
    // here: still a number outside the range, clamped as "1e308" is (it
    // meant the default); a bound that depends on other controls clamps
    // it in resolveControl()
    value = Number(raw);
  }
  if (Number.isNaN(value)) return c.def;
  const fixed = (key) => (typeof c[key] === 'function' ? undefined : c[key]);
  return clampRound(c, value, fixed('min'), fixed('max'));
}

/** The value shown for a requested value, within the current (dependent) range. */
export function resolveControl(fig, c, requested) {
  if (c.kind === 'choice' || c.kind === 'text') return requested;
  return clampRound(c, requested, bound(fig, c, 'min'), bound(fig, c, 'max'));
}
