// canvas.js — a figure's plot boxes and readouts, and canvases drawn at
// devicePixelRatio.
import { cssWidth } from '../core/observers.js';

/** A `.plot` box holding a canvas with role img (focusable if asked). */
export function createPlot({ focusable = false } = {}) {
  const plot = document.createElement('div');
  plot.className = 'plot';
  plot.setAttribute('part', 'plot');
  const canvas = document.createElement('canvas');
  canvas.setAttribute('role', 'img');
  canvas.setAttribute('part', 'canvas');
  if (focusable) canvas.tabIndex = 0;
  plot.append(canvas);
  return { plot, canvas };
}

/** A readout element (`p` by default), announced politely when `live`. */
export function createReadout(tag = 'p', live = true) {
  const el = document.createElement(tag);
  el.className = 'readout';
  el.setAttribute('part', 'readout');
  if (live) el.setAttribute('aria-live', 'polite');
  return el;
}

/**
 * The body most figures have: one canvas, and a readout below it — a
 * `div`, or with `list` an `ol.steps` of lines — appended to `figure`.
 */
export function plotWithReadout(figure, { list = false } = {}) {
  const { plot, canvas } = createPlot();
  const readout = createReadout(list ? 'ol' : 'div');
  if (list) readout.classList.add('steps');
  figure.append(plot, readout);
  return { canvas, readout };
}

/**
 * Shows `lines` in `el`, one `tag` element (an `li` by default) each. A line
 * is its text, or { className, parts } whose parts are texts and [tag, text]
 * elements (['b', 'Step 1 '], ['code', key]). A line already showing what
 * it should is left alone, so a repaint that changes one line re-lays out
 * and (in a live region) announces that line only.
 */
export function showLines(el, lines, tag = 'li') {
  const shown = el.children;
  if (shown.length !== lines.length || Array.prototype.some.call(shown, (line) => line.localName !== tag)) {
    el.replaceChildren(...lines.map((line) => {
      const made = document.createElement(tag);
      writeLine(made, line);
      return made;
    }));
    return;
  }
  for (let k = 0; k < lines.length; k++) writeLine(shown[k], lines[k]);
}

/** Writes one line of showLines() into `el`, unless it shows it already. */
function writeLine(el, line) {
  if (typeof line !== 'object' || line === null) {
    const text = String(line ?? '');
    if (el.className) el.removeAttribute('class');
    if (el.childElementCount || el.textContent !== text) el.textContent = text;
    return;
  }
  const { className = '', parts } = line;
  if (el.className !== className) el.className = className;
  const nodes = el.childNodes;
  const shows = (part, k) => (typeof part === 'string'
    ? nodes[k].nodeType === Node.TEXT_NODE && nodes[k].data === part
    : nodes[k].localName === part[0] && nodes[k].textContent === part[1]);
  if (nodes.length === parts.length && parts.every(shows)) return;
  el.replaceChildren(...parts.map((part) => (typeof part === 'string' ? part : Object.assign(document.createElement(part[0]), { textContent: part[1] }))));
}

/**
 * Shows `rows` (arrays of cell texts, null and undefined shown empty; the
 * first row is the header, of `th` cells) as the rows of the table `el`. Where the table already has
 * rows of these lengths, only the cells whose text changed are written, so
 * a repaint that leaves the table as it was lays none of it out again (a
 * rebuilt table of 24 cells took about 1 ms of layout per input during a
 * drag of properties' seqLen, which the table does not show).
 */
export function showTable(el, rows) {
  const shown = el.rows;
  const tag = (i) => (i ? 'td' : 'th');
  const same = shown.length === rows.length
    && rows.every((row, i) => shown[i].cells.length === row.length
      && Array.prototype.every.call(shown[i].cells, (cell) => cell.localName === tag(i)));
  if (!same) {
    el.replaceChildren(...rows.map((row, i) => {
      const tr = document.createElement('tr');
      tr.append(...row.map((text) => Object.assign(document.createElement(tag(i)), { textContent: String(text ?? '') })));
      return tr;
    }));
    return;
  }
  rows.forEach((row, i) => row.forEach((text, j) => setText(shown[i].cells[j], String(text ?? ''))));
}

/** Sets `el`'s text, unless it shows that text already (then nothing is invalidated). */
export function setText(el, text) {
  if (el.textContent !== text) el.textContent = text;
}

/** Asks the figure that holds `canvas` for a repaint. */
function redrawHost(canvas) {
  canvas.getRootNode?.().host?.invalidate?.();
}

/**
 * The CSS width of a figure's canvas, without reading layout
 * (core/observers.js cssWidth); when it changes while the figure's box does
 * not (the page sized the canvas through ::part(canvas)), the figure repaints.
 */
export function canvasWidth(canvas) {
  return cssWidth(canvas, redrawHost);
}

/**
 * Sizes `canvas` to its CSS width (or, before it has one, its figure's, or
 * 300) and `cssHeight` at devicePixelRatio — or at the scale its figure was
 * given for a still picture (core/still.js) — and returns a 2D context in
 * CSS pixels.
 */
export function fitCanvas(canvas, cssHeight) {
  const dpr = canvas.getRootNode?.().host?._stillScale || globalThis.devicePixelRatio || 1;
  const cssW = Math.max(1, canvasWidth(canvas) || canvas.closest('figure')?.clientWidth || 300);
  if (canvas.style.height !== `${cssHeight}px`) canvas.style.height = `${cssHeight}px`;
  const w = Math.round(cssW * dpr), h = Math.round(cssHeight * dpr);
  if (canvas.width !== w) canvas.width = w;
  if (canvas.height !== h) canvas.height = h;
  const ctx = canvas.getContext('2d');
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  return { ctx, width: cssW, height: cssHeight, dpr };
}
