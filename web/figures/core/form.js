// form.js — a figure's controls on the page: one labelled native input per
// visible control (a range slider, or a <select> for a choice), kept showing
// the control's value and current range, and the figure's own buttons.
import { bound } from './controls.js';

let uid = 0;

/** A slider's step: over log10 of the value for a log control. */
const stepOf = (c) => (c.kind === 'log' ? (c.logStep ?? 0.01) : (c.step ?? 1));

/**
 * The next value of a log slider whose values are rounded (to integers,
 * say) in direction `dir` (+1 up, -1 down) from the current one: the first
 * step of the slider from it whose rounded value differs; null where
 * nothing lies that way. For a key that moved the slider by one step to a
 * value that rounds back to the one it left: at small integers that step
 * (×1.023 for 0.01 of log10) did nothing, and the figure put the thumb
 * back (ArrowRight at 1, or anywhere up to about 35).
 */
function nextValue(fig, c, dir) {
  const now = fig[c.prop], step = stepOf(c);
  const lo = bound(fig, c, 'min'), hi = bound(fig, c, 'max');
  const from = Math.log10(now);
  for (let k = 1; ; k++) {
    const raw = 10 ** (from + dir * k * step);
    if (raw < lo || raw > hi) return null;
    const v = c.round(raw);
    if (v !== now) return v;
  }
}

/** Builds the labelled native input for `c`; `onInput(value)` gets reader changes. */
function buildControl(fig, c, id, onInput) {
  const wrap = document.createElement('div');
  wrap.className = 'control';
  const label = document.createElement('label');
  label.htmlFor = id;
  label.dataset.key = c.label;
  wrap.append(label);
  let input;
  let output = null;
  if (c.kind === 'choice') {
    input = document.createElement('select');
    for (const choice of c.choices) {
      const opt = document.createElement('option');
      opt.value = choice;
      opt.dataset.key = c.choiceLabels?.[choice] ?? choice;
      input.append(opt);
    }
    input.addEventListener('change', () => onInput(input.value));
  } else {
    input = document.createElement('input');
    input.type = 'range';
    input.step = String(stepOf(c));
    output = document.createElement('output');
    output.htmlFor = id;
    wrap.append(output);
    // a log slider with rounded values: the slider's position before a
    // key (the browser decides which way each key moves it: RTL and
    // vertical sliders turn the arrows round), so that a key whose step
    // rounds back to the same value goes on to the next value that way
    let keyFrom = null;
    if (c.kind === 'log' && c.round) {
      input.addEventListener('keydown', () => { keyFrom = Number(input.value); });
      input.addEventListener('keyup', () => { keyFrom = null; });
      input.addEventListener('blur', () => { keyFrom = null; });
    }
    input.addEventListener('input', () => {
      const pos = Number(input.value);
      if (keyFrom !== null) {
        const dir = Math.sign(pos - keyFrom);
        keyFrom = pos; // a held key repeats keydown, and so this
        if (dir !== 0 && c.round(10 ** pos) === fig[c.prop]) {
          const v = nextValue(fig, c, dir);
          if (v !== null) {
            onInput(v);
            return;
          }
        }
      }
      onInput(c.kind === 'log' ? 10 ** pos : pos);
    });
  }
  input.id = id;
  input.name = c.prop;
  wrap.append(input);
  return { wrap, input, output, label };
}

/**
 * Shows `value` on the control's input: range, position, text. Each is
 * written only when it changed: a form is synced at every repaint, and
 * rewriting every control's min, max, text and aria-valuetext with the same
 * values dirtied their style, layout and accessibility nodes each frame (in
 * a profile of long-context's dim drag, 6 ms of 32 inputs in this function
 * alone, issue #20).
 */
function syncControl(fig, c, entry, value) {
  const { input, output } = entry;
  if (c.kind === 'choice') {
    if (input.value !== String(value)) input.value = value;
    return;
  }
  const scale = (v) => (c.kind === 'log' ? Math.log10(v) : v);
  // a range input's steps start at its min, and End or a drag stops at the
  // last step at or below its max: a max between two steps (log10 of
  // 2^24 − 1 by 0.01) was out of reach. The slider's top is the first step
  // at or past the max; the figure clamps what lies past it to the max.
  const lo = scale(bound(fig, c, 'min')), hi = scale(bound(fig, c, 'max'));
  const step = stepOf(c);
  const min = String(lo), max = String(lo + Math.ceil((hi - lo) / step - 1e-9) * step);
  if (input.min !== min) input.min = min;
  if (input.max !== max) input.max = max;
  // the position: written when the value moved, or when the slider shows
  // something else than it did after the last write (the reader moved it,
  // and the figure kept, clamped or rounded the value). Not compared with
  // the value itself: a range input rounds what it is given to its step
  // grid, so log10(500) reads back as 2.7 and would be rewritten each time.
  const pos = scale(value);
  if (entry.pos !== pos || input.value !== entry.written) {
    input.value = String(pos);
    entry.pos = pos;
    entry.written = input.value;
  }
  const text = c.format ? c.format(value) : String(value);
  if (output.value !== text) output.value = text;
  if (input.getAttribute('aria-valuetext') !== text) input.setAttribute('aria-valuetext', text);
}

/** The <form> of a figure's controls; reader changes go to host.request(prop, value, 'user'). */
export class ControlsForm {
  constructor(host) {
    this.host = host;
    this.element = null;
    this._inputs = new Map();
  }

  /** Builds the form (once), with a labelled input per visible control. */
  build() {
    const form = document.createElement('form');
    form.className = 'controls';
    form.setAttribute('part', 'controls');
    form.addEventListener('submit', (e) => e.preventDefault());
    for (const c of this.host.constructor.controls) {
      if (c.hidden) continue;
      const entry = buildControl(this.host, c, `pn-${++uid}-${c.prop}`, (value) => this.host.request(c.prop, value, 'user'));
      form.append(entry.wrap);
      this._inputs.set(c.prop, entry);
    }
    this.element = form;
    return form;
  }

  /** Shows the current values (and ranges) on the inputs. */
  sync(values) {
    for (const c of this.host.constructor.controls) {
      const entry = this._inputs.get(c.prop);
      if (entry) syncControl(this.host, c, entry, values[c.prop]);
    }
  }

  /** Adds a button (labelled by string `key`) to the form; returns it. */
  addButton(key, onClick) {
    const button = document.createElement('button');
    button.type = 'button';
    button.dataset.key = key;
    button.addEventListener('click', onClick);
    const wrap = document.createElement('div');
    wrap.className = 'control';
    wrap.append(button);
    this.element.append(wrap);
    return button;
  }
}
