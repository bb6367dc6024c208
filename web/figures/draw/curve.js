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

/** The shortest segment (device px) strokeCurve draws as hairlines, but at a peak. */
const MIN_STEP = 2;

/**
 * How far a corner's offset may exceed the offset (1.3: beyond it the outer
 * hairlines left the band a round-joined stroke covers at the spikes of
 * long-context's jittery scores, in tests/curve.test.mjs at dpr 2).
 */
const MITER_LIMIT = 1.3;

let scratchArrays = [], scratchDepth = 0;
/** The most points whose arrays are kept between calls (2^16: 2 MB). */
const SCRATCH_KEPT = 1 << 16;
/**
 * Four Float64Arrays of at least n values, kept between calls (a curve per
 * repaint made four new ones): fresh ones while a call is reading its
 * points (an x or y callback that itself draws a curve) or beyond
 * SCRATCH_KEPT points.
 */
function scratch(n) {
  if (scratchDepth > 0 || n > SCRATCH_KEPT) return [0, 1, 2, 3].map(() => new Float64Array(n));
  if (!scratchArrays.length || scratchArrays[0].length < n) {
    let size = 256;
    while (size < n) size *= 2;
    scratchArrays = [0, 1, 2, 3].map(() => new Float64Array(size));
  }
  return scratchArrays;
}

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
  const band = width * scale;
  ctx.lineWidth = 1 / scale;
  ctx.setLineDash(dash);
  if (lines === 1 || n < 2) {
    ctx.beginPath();
    for (let k = 0; k < n; k++) (k ? ctx.lineTo(x(k), y(k)) : ctx.moveTo(x(k), y(k)));
    ctx.lineWidth = width;
    ctx.stroke();
  } else {
    // the points kept: the ends, every local extreme of y (a peak or a
    // spike's tip stays where it is), and otherwise a point only when it is
    // at least MIN_STEP device px from the one kept before it. Skia's
    // anti-aliased hairlines lose coverage over segments shorter than a
    // pixel (a sine sampled once per device px came out with 0.82 of the
    // wide stroke's ink, 0.95–1.05 at 2 px); between extremes y is monotone
    // and a 2 px chord stays within 0.3 px of the figures' tightest curve
    // (waveform's i = 0 at its peaks, radius about 1.8 px).
    // Points that are not finite are left out (a canvas skips them too);
    // the last finite one is always kept.
    const [xs, ys, nx, ny] = scratch(n);
    scratchDepth++;
    const minStep = MIN_STEP / scale;
    let kept = 0, prevY = NaN, py = y(0), px = x(0), lastX = NaN, lastY = NaN, lastKept = true;
    try {
      for (let k = 0; k < n; k++) {
        const nextY = k + 1 < n ? y(k + 1) : NaN;
        if (Number.isFinite(px) && Number.isFinite(py)) {
          const extreme = (py - prevY) * (nextY - py) < 0;
          lastKept = kept === 0 || extreme || Math.hypot(px - xs[kept - 1], py - ys[kept - 1]) >= minStep;
          if (lastKept) {
            xs[kept] = px;
            ys[kept] = py;
            kept++;
          }
          [lastX, lastY, prevY] = [px, py, py];
        }
        py = nextY;
        px = k + 1 < n ? x(k + 1) : NaN;
      }
    } finally {
      scratchDepth--;
    }
    if (!lastKept) {
      xs[kept] = lastX;
      ys[kept] = lastY;
      kept++;
    }
    n = kept;
    if (n === 0) {
      ctx.lineWidth = 1;
      ctx.setLineDash([]);
      return;
    }
    // each point's offset direction: the bisector of its two segments'
    // normals, lengthened to the miter (1 / cos of half the turn, at most
    // MITER_LIMIT) so that a line offset by d stays about d from both
    // segments at a corner; the ends take their one segment's normal
    let ax = 0, ay = 0;
    for (let k = 0; k < n; k++) {
      let bx = 0, by = 0;
      if (k + 1 < n) {
        const dx = xs[k + 1] - xs[k], dy = ys[k + 1] - ys[k], l = Math.hypot(dx, dy);
        if (l > 0) {
          bx = -dy / l;
          by = dx / l;
        }
      }
      if (k === 0) [ax, ay] = [bx, by];
      if (k === n - 1) [bx, by] = [ax, ay];
      let mx = ax + bx, my = ay + by;
      const ml = Math.hypot(mx, my);
      if (ml > 0) {
        mx /= ml;
        my /= ml;
        const c = mx * bx + my * by;
        const miter = Math.min(MITER_LIMIT, 1 / Math.max(c, 0.5));
        // the span the outer hairlines' centres cover: a hairline is one
        // device px thick along its minor axis, so across a diagonal only
        // max(|cos|, |sin|) of that, and the span widens to fill the band
        const span = band - Math.max(Math.abs(mx), Math.abs(my));
        nx[k] = mx * miter * span;
        ny[k] = my * miter * span;
      } else {
        // a reversal (or no length): the incoming segment's normal
        nx[k] = (ax || 0) * (band - 1);
        ny[k] = (ay || 1) * (band - 1);
      }
      if (bx || by) [ax, ay] = [bx, by];
    }
    for (let j = 0; j < lines; j++) {
      const d = (j / (lines - 1) - 0.5) / scale;
      ctx.beginPath();
      ctx.moveTo(xs[0] + d * nx[0], ys[0] + d * ny[0]);
      for (let k = 1; k < n; k++) ctx.lineTo(xs[k] + d * nx[k], ys[k] + d * ny[k]);
      ctx.stroke();
    }
  }
  ctx.lineWidth = 1;
  ctx.setLineDash([]);
}
