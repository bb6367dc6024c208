// plots.js — the data of a chart: lines and bars, and a panel's title and
// legend (axes.js draws around them, matrix.js draws matrices).
import { xLabels, yGrid } from './axes.js';
import { canvasWidth } from './canvas.js';
import { strokeCurve } from './curve.js';
import { fmt, ticks } from './format.js';

/** A small title above a panel. */
export function title(fig, ctx, text, x, y) {
  ctx.fillStyle = fig.color('--pn-fg');
  ctx.font = '12px system-ui, sans-serif';
  ctx.textAlign = 'left';
  ctx.textBaseline = 'bottom';
  ctx.fillText(text, x, y);
}

/**
 * Line chart: series = [{ ys, colour, dash, label }] over x = x0 + k·dx.
 * `log` uses a log10 y axis. Returns the y mapping.
 */
export function drawLines(fig, ctx, rect, series, { x0 = 0, dx = 1, yMin, yMax, log = false, marker } = {}) {
  const T = (v) => (log ? Math.log10(Math.max(v, 1e-30)) : v);
  const lo = T(yMin), hi = T(yMax) > lo ? T(yMax) : lo + 1;
  const n = Math.max(...series.map((s) => s.ys.length));
  const X = (k) => rect.x + (n > 1 ? (k / (n - 1)) * rect.w : rect.w / 2);
  const Y = (v) => rect.y + rect.h - ((Math.min(hi, Math.max(lo, T(v))) - lo) / (hi - lo)) * rect.h;
  const yt = log ? ticks(Math.ceil(lo), Math.floor(hi), 5).filter(Number.isInteger).map((e) => 10 ** e) : ticks(yMin, yMax, 4);
  yGrid(fig, ctx, rect, yt, Y, { label: log ? (v) => `1e${Math.round(Math.log10(v))}` : (v) => fmt(v, 3), snap: true });
  xLabels(fig, ctx, ticks(x0, x0 + (n - 1) * dx, Math.max(2, Math.floor(rect.w / 70))), (v) => X((v - x0) / dx), rect.y + rect.h + 4);
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

/**
 * Legend entries [label, colour, dash] in a row at (x, y), wrapping onto
 * further rows 14 px apart where the canvas is too narrow; returns the y of
 * the last row.
 */
export function legend(fig, ctx, items, x, y) {
  ctx.font = '11px system-ui, sans-serif';
  ctx.textAlign = 'left';
  ctx.textBaseline = 'middle';
  const x0 = x, right = canvasWidth(ctx.canvas) || Infinity;
  for (const [label, colour, dash] of items) {
    if (x > x0 && x + 28 + ctx.measureText(label).width > right) {
      x = x0;
      y += 14;
    }
    ctx.strokeStyle = colour;
    ctx.lineWidth = 2;
    ctx.setLineDash(dash ?? []);
    ctx.beginPath();
    ctx.moveTo(x, y);
    ctx.lineTo(x + 16, y);
    ctx.stroke();
    ctx.setLineDash([]);
    ctx.fillStyle = fig.color('--pn-fg');
    ctx.fillText(label, x + 20, y);
    x += 28 + ctx.measureText(label).width;
  }
  ctx.lineWidth = 1;
  return y;
}
