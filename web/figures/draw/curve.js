// curve.js — a polyline `width` CSS px wide, drawn as hairlines.
//
// Where the browser rasterises canvas 2D on the CPU (no usable GPU: the
// frame bench's headless Chromium, many VMs and blocklisted drivers), a
// stroke wider than one device pixel goes through the path stroker and an
// anti-aliased fill, while a stroke of one device pixel takes Skia's hairline
// path. Measured in the bench's Chromium (4 curves of 1200 points, 1264×420):
// lineWidth 2 took 9–13 ms to rasterise, lineWidth 1 took 1.5–3 ms, two
// hairlines side by side 1.2 ms. So a curve is drawn as round(width · scale)
// hairlines, each offset along the curve's normal by a whole device pixel
// from its neighbour: together they cover the band the wide stroke covers.
// Overlaps on tight turns paint the same opaque colour twice, which shows
// nothing; a colour with alpha would show them, so callers pass opaque
// colours. Dashes are laid along each hairline: on a curve the outer and
// inner lines differ in length by the offset times the angle turned, so
// their dashes drift apart by at most a pixel or two on the figures' curves.

/** The shortest segment (device px) strokeCurve draws as hairlines. */
const MIN_STEP = 2;

/**
 * Strokes the polyline (x(k), y(k)), k = 0 … n−1, in the context's current
 * strokeStyle, `width` CSS px wide, dashed with `dash` (CSS px). Leaves
 * lineWidth at 1 and the dash empty.
 */
export function strokeCurve(ctx, n, x, y, { width = 2, dash = [] } = {}) {
  const m = ctx.getTransform();
  // CSS px → device px (the figures scale uniformly, by devicePixelRatio)
  const scale = Math.hypot(m.a, m.b) || 1;
  // hairlines half a device pixel apart, the outer ones centred half a pixel
  // inside the wide stroke's edges: 3 for 2 px (two, a whole pixel apart,
  // left a paler, doubled-looking band where their anti-aliasing met)
  const lines = width * scale <= 1 ? 1 : Math.max(2, Math.round(2 * (width * scale - 1)) + 1);
  const spacing = lines > 1 ? (width * scale - 1) / (lines - 1) : 0;
  ctx.lineWidth = 1 / scale;
  ctx.setLineDash(dash);
  if (lines === 1 || n < 2) {
    ctx.beginPath();
    for (let k = 0; k < n; k++) (k ? ctx.lineTo(x(k), y(k)) : ctx.moveTo(x(k), y(k)));
    ctx.lineWidth = width;
    ctx.stroke();
  } else {
    // the points, each at least MIN_STEP device px from the one kept before
    // it (and the last one always): Skia's anti-aliased hairlines lose
    // coverage over segments shorter than a pixel (a sine sampled once per
    // device px came out with 0.82 of the wide stroke's ink, 0.95–1.05 at
    // 2 px), and a chord of 2 px lies within 0.3 px of the figures' tightest
    // curve (waveform's i = 0 at its peaks, radius about 1.8 px)
    const xs = new Float64Array(n), ys = new Float64Array(n);
    const minStep = MIN_STEP / scale;
    let kept = 0;
    for (let k = 0; k < n; k++) {
      const px = x(k), py = y(k);
      if (kept > 0 && k < n - 1 && Math.hypot(px - xs[kept - 1], py - ys[kept - 1]) < minStep) continue;
      xs[kept] = px;
      ys[kept] = py;
      kept++;
    }
    n = kept;
    const nx = new Float64Array(n), ny = new Float64Array(n);
    for (let k = 0; k < n; k++) {
      // the normal of the chord through the neighbours (the point's own chord at the ends)
      const dx = xs[Math.min(n - 1, k + 1)] - xs[Math.max(0, k - 1)], dy = ys[Math.min(n - 1, k + 1)] - ys[Math.max(0, k - 1)];
      const l = Math.hypot(dx, dy);
      nx[k] = l > 0 ? -dy / l : 0;
      ny[k] = l > 0 ? dx / l : 1;
    }
    for (let j = 0; j < lines; j++) {
      const d = ((j - (lines - 1) / 2) * spacing) / scale;
      ctx.beginPath();
      ctx.moveTo(xs[0] + d * nx[0], ys[0] + d * ny[0]);
      for (let k = 1; k < n; k++) ctx.lineTo(xs[k] + d * nx[k], ys[k] + d * ny[k]);
      ctx.stroke();
    }
  }
  ctx.lineWidth = 1;
  ctx.setLineDash([]);
}
