// axes.js — the parts of a chart around its data: ticks and labels along
// an axis, grid lines, reference lines and markers, an axis title, and a
// colour scale. Every helper sets the canvas state it draws with; labels
// are in the muted colour and the figures' 11 px font.

import { canvasWidth } from './canvas.js';

const FONT = '11px system-ui, sans-serif';

function labelStyle(fig, ctx, align, baseline) {
  ctx.fillStyle = fig.color('--pn-muted');
  ctx.font = FONT;
  ctx.textAlign = align;
  ctx.textBaseline = baseline;
}

/**
 * A label centred at x, moved in as far as it must to stay on the canvas
 * (the last tick of an axis that runs to the right edge: "2^24" was cut).
 */
function centredLabel(ctx, text, x, y) {
  const half = ctx.measureText(text).width / 2, right = canvasWidth(ctx.canvas) || Infinity;
  ctx.fillText(text, Math.max(half + 1, Math.min(right - half - 1, x)), y);
}

/** Under a horizontal axis at y: a 4 px tick at X(v) for each value, its label (label(v)) below, kept on the canvas. */
export function xTicks(fig, ctx, values, X, y, label = String) {
  labelStyle(fig, ctx, 'center', 'top');
  for (const v of values) {
    ctx.fillRect(X(v), y, 1, 4);
    centredLabel(ctx, label(v), X(v), y + 5);
  }
}

/** Left of a vertical axis at x: a 4 px tick at Y(v) for each value, its label (label(v)) beside. */
export function yTicks(fig, ctx, values, Y, x, label = String) {
  labelStyle(fig, ctx, 'right', 'middle');
  for (const v of values) {
    ctx.fillRect(x - 4, Y(v), 4, 1);
    ctx.fillText(label(v), x - 6, Y(v));
  }
}

/** Labels only, centred under X(v) at y, kept on the canvas. */
export function xLabels(fig, ctx, values, X, y, label = String) {
  labelStyle(fig, ctx, 'center', 'top');
  for (const v of values) centredLabel(ctx, label(v), X(v), y);
}

/**
 * A grid line across `rect` at Y(v) for each value, labelled `gap` px left
 * of it; `snap` puts each line on whole pixels.
 */
export function yGrid(fig, ctx, rect, values, Y, { label = String, gap = 4, snap = false } = {}) {
  ctx.strokeStyle = fig.color('--pn-grid');
  labelStyle(fig, ctx, 'right', 'middle');
  for (const v of values) {
    const y = (snap ? Math.round(Y(v)) : Y(v)) + 0.5;
    ctx.beginPath();
    ctx.moveTo(rect.x, y);
    ctx.lineTo(rect.x + rect.w, y);
    ctx.stroke();
    ctx.fillText(label(v), rect.x - gap, Y(v));
  }
}

/** A reference line across `rect` at y (colour a CSS property; dashed if asked); labelled lines: labelledRules(). */
export function hRule(fig, ctx, rect, y, { colour = '--pn-muted', dash = [] } = {}) {
  ctx.strokeStyle = fig.color(colour);
  ctx.setLineDash(dash);
  ctx.beginPath();
  ctx.moveTo(rect.x, y);
  ctx.lineTo(rect.x + rect.w, y);
  ctx.stroke();
  ctx.setLineDash([]);
}

/** Where a rule's label goes across: { x0, x1 } of its veil, at the left or (`right`) the right end of `rect`. */
function ruleLabelBox(ctx, rect, label, right) {
  ctx.font = FONT;
  const w = ctx.measureText(label).width;
  const x0 = right ? rect.x + rect.w - 6 - w : rect.x + 2;
  return { x0, x1: x0 + w + 4 };
}

/** A rule's label, its top at `top`, on a veil of the background (readable where data runs under it). */
function ruleLabel(fig, ctx, { x0, x1 }, top, label, colour) {
  ctx.font = FONT;
  ctx.textAlign = 'left';
  ctx.textBaseline = 'top';
  ctx.fillStyle = fig.color('--pn-bg');
  ctx.globalAlpha = 0.8;
  ctx.fillRect(x0, top - 1, x1 - x0, 12);
  ctx.globalAlpha = 1;
  ctx.fillStyle = fig.color(colour);
  ctx.fillText(label, x0 + 2, top);
}

/**
 * Reference lines across `rect`, each { y, label, right, colour, dash }
 * (the label at the line's left end, or with `right` its right end): the
 * lines first, then the labels in order, each 7 px
 * above its line unless it would meet a label placed before it; then at
 * the nearest place to that, within `rect`, that meets none: below its
 * line, or just above or below a label it would meet (a context length
 * near another, a sequence near either; lengths a few pixels apart on a
 * log axis).
 */
export function labelledRules(fig, ctx, rect, rules) {
  for (const { y, colour, dash } of rules) hRule(fig, ctx, rect, y, { colour, dash });
  const placed = [];
  for (const { y, label, right = false, colour = '--pn-muted' } of rules) {
    if (label === undefined) continue;
    const box = ruleLabelBox(ctx, rect, label, right);
    const meets = (top) => placed.some((p) => p.x0 < box.x1 && box.x0 < p.x1 && Math.abs(p.top - top) < 13);
    const inside = (top) => top >= rect.y && top + 11 <= rect.y + rect.h;
    const wanted = y - 7;
    const top = meets(wanted)
      ? [y + 2, ...placed.flatMap((p) => [p.top - 13, p.top + 13])].filter((c) => inside(c) && !meets(c)).sort((a, b) => Math.abs(a - wanted) - Math.abs(b - wanted))[0] ?? wanted
      : wanted;
    placed.push({ ...box, top });
    ruleLabel(fig, ctx, box, top, label, colour);
  }
}

/** A marker line down `rect` at x, on the pixel (colour a CSS property; dashed and `width` wide if asked). */
export function vRule(fig, ctx, rect, x, { colour = '--pn-accent', dash = [], width = 1 } = {}) {
  ctx.strokeStyle = fig.color(colour);
  ctx.setLineDash(dash);
  ctx.lineWidth = width;
  ctx.beginPath();
  ctx.moveTo(x + 0.5, rect.y);
  ctx.lineTo(x + 0.5, rect.y + rect.h);
  ctx.stroke();
  ctx.setLineDash([]);
  ctx.lineWidth = 1;
}

/** An axis title turned to run upwards, centred at (x, y). */
export function yTitle(fig, ctx, text, x, y) {
  ctx.save();
  ctx.translate(x, y);
  ctx.rotate(-Math.PI / 2);
  labelStyle(fig, ctx, 'center', 'middle');
  ctx.fillText(text, 0, 0);
  ctx.restore();
}

/** A caption in two halves under an axis: `left` from x0, `right` up to x1, on baseline y. */
export function xCaption(fig, ctx, left, right, x0, x1, y) {
  ctx.fillStyle = fig.color('--pn-fg');
  ctx.font = FONT;
  ctx.textBaseline = 'bottom';
  ctx.textAlign = 'left';
  ctx.fillText(left, x0, y);
  ctx.textAlign = 'right';
  ctx.fillText(right, x1, y);
}

const strips = new Map();

/**
 * A colour scale in `rect`: colormap `map` (the kernel's table) from vmax
 * at the top to vmin at the bottom, framed, with a 3 px tick and a label
 * right of it at each [value, label] of `marks`.
 */
export function colourScale(fig, ctx, rect, map, vmin, vmax, marks) {
  let strip = strips.get(map);
  if (!strip) {
    const lut = fig.pn.colormapTable(map);
    strip = document.createElement('canvas');
    strip.width = 1;
    strip.height = 256;
    const img = new ImageData(1, 256);
    for (let k = 0; k < 256; k++) img.data.set(lut.subarray(4 * (255 - k), 4 * (255 - k) + 4), 4 * k);
    strip.getContext('2d').putImageData(img, 0, 0);
    strips.set(map, strip);
  }
  ctx.drawImage(strip, rect.x, rect.y, rect.w, rect.h);
  ctx.strokeStyle = fig.color('--pn-muted');
  ctx.strokeRect(rect.x + 0.5, rect.y + 0.5, rect.w - 1, rect.h - 1);
  labelStyle(fig, ctx, 'left', 'middle');
  for (const [v, label] of marks) {
    const y = rect.y + ((vmax - v) / (vmax - vmin)) * rect.h;
    ctx.fillRect(rect.x + rect.w, y, 3, 1);
    ctx.fillText(label, rect.x + rect.w + 5, y);
  }
}
