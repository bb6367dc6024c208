// plots.js — the data of a chart: lines and bars, and a panel's title and
// legend (axes.js draws around them, matrix.js draws matrices).
import { xLabels, yGrid } from './axes.js';
import { canvasWidth } from './canvas.js';
import { strokeCurve } from './curve.js';
import { fmt, ticks } from './format.js';

const TITLE_FONT = '12px system-ui, sans-serif';
const TITLE_LINE = 14;

/**
 * The lines a title takes in `room` px: the text broken at spaces where it
 * is wider (a word wider than the room keeps a line of its own), so that a
 * title on a phone's canvas wraps instead of running off its right edge
 * (`font`: the title's, or a legend's).
 */
export function titleLines(ctx, text, room, font = TITLE_FONT) {
  ctx.font = font;
  const key = `${font}|${room}|${text}`;
  let lines = wrapped.get(key);
  if (!lines) {
    lines = !(room > 0) || ctx.measureText(text).width <= room ? [text] : wrapWords(ctx, text, room);
    if (wrapped.size >= 256) wrapped.clear();
    wrapped.set(key, lines);
  }
  return lines;
}

// (titleLines' answers: a repaint asks again for the same titles, legend
// entries and rooms, and measuring them each time doubled compare's render
// at 320 px; the figures draw in system fonts, which do not load late)
const wrapped = new Map();

/** `text` broken at spaces into lines of at most `room` px in the context's font (a longer word keeps a line of its own). */
export function wrapWords(ctx, text, room) {
  const lines = [];
  let line = '';
  for (const word of text.split(' ')) {
    const longer = line ? `${line} ${word}` : word;
    if (line && ctx.measureText(longer).width > room) {
      lines.push(line);
      line = word;
    } else line = longer;
  }
  lines.push(line);
  return lines;
}

/**
 * The height a title in `room` px takes above its last line (0 when it
 * fits on one). Given several texts, the most any of them takes: a figure
 * whose title holds a control's value passes the title at that control's
 * longest value as well, so that the layout (and the page under a reader's
 * pointer) does not move when a drag changes the wrap.
 */
export function titleExtra(ctx, texts, room) {
  return Math.max(...[texts].flat().map((text) => TITLE_LINE * (titleLines(ctx, text, room).length - 1)));
}

/**
 * For panels in rows of `cols` with titles `titles` (each a text, or texts
 * as titleExtra takes them), in `room(column)` px each: how far each row
 * moves down for the titles wrapped in it and in the rows above.
 */
export function titleRowShifts(ctx, titles, cols, room) {
  let shift = 0;
  return Array.from({ length: Math.ceil(titles.length / cols) }, (_, row) => {
    shift += Math.max(...titles.slice(row * cols, (row + 1) * cols).map((texts, c) => titleExtra(ctx, texts, room(c))));
    return shift;
  });
}

/** The room a title from x has on its canvas: up to 4 px from the right edge. */
export const titleRoom = (ctx, x) => (canvasWidth(ctx.canvas) || Infinity) - x - 4;

/**
 * A small title above a panel, its last line's bottom at y. Wider than the
 * canvas from x (or than `room`), it wraps, and the lines before the last
 * go up from y 14 px each: a figure makes room with titleExtra().
 */
export function title(fig, ctx, text, x, y, room = titleRoom(ctx, x)) {
  const lines = titleLines(ctx, text, room);
  ctx.fillStyle = fig.color('--pn-fg');
  ctx.textAlign = 'left';
  ctx.textBaseline = 'bottom';
  lines.forEach((line, k) => ctx.fillText(line, x, y - TITLE_LINE * (lines.length - 1 - k)));
}

/**
 * Line chart: series = [{ ys, colour, dash, label }] over x = x0 + k·dx.
 * `log` uses a log10 y axis; `xAxis: false` leaves out the x labels (for a
 * figure that labels x its own way). Returns the y mapping.
 */
export function drawLines(fig, ctx, rect, series, { x0 = 0, dx = 1, yMin, yMax, log = false, marker, xAxis = true } = {}) {
  const T = (v) => (log ? Math.log10(Math.max(v, 1e-30)) : v);
  const lo = T(yMin), hi = T(yMax) > lo ? T(yMax) : lo + 1;
  const n = Math.max(...series.map((s) => s.ys.length));
  const X = (k) => rect.x + (n > 1 ? (k / (n - 1)) * rect.w : rect.w / 2);
  const Y = (v) => rect.y + rect.h - ((Math.min(hi, Math.max(lo, T(v))) - lo) / (hi - lo)) * rect.h;
  const yt = log ? ticks(Math.ceil(lo), Math.floor(hi), 5).filter(Number.isInteger).map((e) => 10 ** e) : ticks(yMin, yMax, 4);
  yGrid(fig, ctx, rect, yt, Y, { label: log ? (v) => `1e${Math.round(Math.log10(v))}` : (v) => fmt(v, 3), snap: true });
  if (xAxis) xLabels(fig, ctx, ticks(x0, x0 + (n - 1) * dx, Math.max(2, Math.floor(rect.w / 70))), (v) => X((v - x0) / dx), rect.y + rect.h + 4);
  if (marker !== undefined) {
    ctx.fillStyle = fig.color('--pn-grid');
    ctx.globalAlpha = 0.35;
    ctx.fillRect(X((marker - x0) / dx), rect.y, rect.x + rect.w - X((marker - x0) / dx), rect.h);
    ctx.globalAlpha = 1;
  }
  for (const s of series) {
    ctx.strokeStyle = s.colour;
    strokeCurve(ctx, s.ys.length, X, (k) => Y(s.ys[k]), { width: 2, dash: s.dash ?? [] });
  }
  return Y;
}

/** Bar chart of `values` in rect, symmetric range ±lim, zero line. */
export function drawBars(fig, ctx, rect, values, lim, colour) {
  const Y = (v) => rect.y + rect.h / 2 - (v / lim) * (rect.h / 2);
  const bw = rect.w / values.length;
  ctx.fillStyle = colour;
  values.forEach((v, k) => {
    const y0 = Y(0), y1 = Y(Math.max(-lim, Math.min(lim, v)));
    ctx.fillRect(rect.x + k * bw + 1, Math.min(y0, y1), Math.max(1, bw - 2), Math.abs(y1 - y0));
  });
  ctx.fillStyle = fig.color('--pn-muted');
  ctx.fillRect(rect.x, Math.round(Y(0)), rect.w, 1);
}

const LEGEND_FONT = '11px system-ui, sans-serif';

/**
 * Where legend() puts each entry: { places: [x, y, lines] of each (its
 * swatch's left end and middle, its label's lines), bottom: the y of the
 * last line }. Entries go in rows 14 px apart that wrap at the canvas's
 * right edge; an entry wider than a whole row wraps its label at spaces,
 * and the next entry starts on the row below it.
 */
function legendPlaces(ctx, items, x, y) {
  ctx.font = LEGEND_FONT;
  const x0 = x, right = canvasWidth(ctx.canvas) || Infinity;
  let bottom = y;
  const places = items.map(([label]) => {
    const w = 28 + ctx.measureText(label).width;
    if (x > x0 && x + w > right) {
      x = x0;
      y += 14;
    }
    const lines = x + w > right ? titleLines(ctx, label, right - x - 24, LEGEND_FONT) : [label];
    const at = [x, y, lines];
    bottom = y + 14 * (lines.length - 1);
    if (lines.length > 1) {
      y = bottom;
      x = right;
    } else x += w;
    return at;
  });
  return { places, bottom };
}

/** The y of the last row legend(fig, ctx, items, x, y) would draw, without drawing it (for a layout). */
export function legendBottom(ctx, items, x, y) {
  return legendPlaces(ctx, items, x, y).bottom;
}

/**
 * Legend entries [label, colour, dash] in a row at (x, y), wrapping onto
 * further rows 14 px apart where the canvas is too narrow; returns the y of
 * the last row.
 */
export function legend(fig, ctx, items, x, y) {
  const { places, bottom } = legendPlaces(ctx, items, x, y);
  ctx.textAlign = 'left';
  ctx.textBaseline = 'middle';
  items.forEach(([, colour, dash], k) => {
    const [lx, ly, lines] = places[k];
    ctx.strokeStyle = colour;
    ctx.lineWidth = 2;
    ctx.setLineDash(dash ?? []);
    ctx.beginPath();
    ctx.moveTo(lx, ly);
    ctx.lineTo(lx + 16, ly);
    ctx.stroke();
    ctx.setLineDash([]);
    ctx.fillStyle = fig.color('--pn-fg');
    lines.forEach((line, row) => ctx.fillText(line, lx + 20, ly + 14 * row));
  });
  ctx.lineWidth = 1;
  return bottom;
}
