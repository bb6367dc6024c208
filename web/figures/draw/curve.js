// curve.js — a polyline `width` CSS px wide, drawn as hairlines.
//
// Where the browser rasterises canvas 2D on the CPU (no usable GPU: the
// frame bench's headless Chromium, many VMs and blocklisted drivers), a
// stroke wider than one device pixel goes through the path stroker and an
// anti-aliased fill, while a stroke of one device pixel takes Skia's hairline
// path. Measured in the bench's Chromium (4 curves of 1200 points, 1264×420):
// lineWidth 2 took 9–13 ms to rasterise, lineWidth 1 took 1.5–3 ms. So a
// curve w device px wide is drawn as 2(w − 1) + 1 hairlines half a device
// pixel apart, offset along each point's miter direction, across the band
// the wide stroke covers (keepPoints, miterOffsets, strokeCurve below).
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

/**
 * Hairline points are rounded to 1/SUBPIXEL CSS px (strokeCurve): 1/256 is
 * no coarser than the 1/64 device px of Skia's fixed-point hairline
 * coordinates (SkFDot6) at any devicePixelRatio up to 4 (equal at 4).
 */
const SUBPIXEL = 256;

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
 * The points of (x(k), y(k)), k = 0 … n−1, a hairline curve goes through,
 * into xs, ys; returns how many. Kept: the first finite point, every local
 * extreme of y (a peak or
 * a spike's tip stays where it is), the last finite point, and otherwise a
 * point only when it is at least `minStep` from the one kept before it.
 * Skia's anti-aliased hairlines lose coverage over segments shorter than a
 * pixel (a sine sampled once per device px came out with 0.82 of the wide
 * stroke's ink, 0.95–1.05 at 2 px); between extremes y is monotone and a
 * 2 px chord stays within 0.3 px of the figures' tightest curve (waveform's
 * i = 0 at its peaks, radius about 1.8 px). Points that are not finite are
 * left out (a canvas skips them too).
 */
function keepPoints(n, x, y, minStep, xs, ys) {
  let kept = 0, prevY = NaN, py = y(0), px = x(0), lastX = NaN, lastY = NaN, lastKept = true;
  for (let k = 0; k < n; k++) {
    const nextY = k + 1 < n ? y(k + 1) : NaN;
    if (Number.isFinite(px) && Number.isFinite(py)) {
      const extreme = (py - prevY) * (nextY - py) < 0;
      const dx = kept ? px - xs[kept - 1] : 0, dy = kept ? py - ys[kept - 1] : 0;
      lastKept = kept === 0 || extreme || Math.sqrt(dx * dx + dy * dy) >= minStep;
      if (lastKept) {
        xs[kept] = px;
        ys[kept] = py;
        kept++;
      }
      lastX = px;
      lastY = py;
      prevY = py;
    }
    py = nextY;
    px = k + 1 < n ? x(k + 1) : NaN;
  }
  if (!lastKept) {
    xs[kept] = lastX;
    ys[kept] = lastY;
    kept++;
  }
  return kept;
}

/**
 * Each point's offset (nx, ny) for the outer hairlines of a band `band`
 * device px wide, in device px: the bisector of its two segments' normals,
 * lengthened to the miter (1 / cos of half the turn, at most MITER_LIMIT)
 * so that a line offset by d stays about d from both segments at a corner;
 * the ends take their one segment's normal. Its length is the span the
 * outer hairlines' centres cover: a hairline is one device px thick along
 * its minor axis, so across a diagonal only max(|cos|, |sin|) of that, and
 * the span widens to fill the band.
 */
function miterOffsets(xs, ys, n, band, nx, ny) {
  let ax = 0, ay = 0;
  for (let k = 0; k < n; k++) {
    // the normal of the segment from point k (the last point: the one before)
    let bx = 0, by = 0;
    if (k + 1 < n) {
      const dx = xs[k + 1] - xs[k], dy = ys[k + 1] - ys[k], l = Math.sqrt(dx * dx + dy * dy);
      if (l > 0) {
        bx = -dy / l;
        by = dx / l;
      }
    }
    if (k === 0) {
      ax = bx;
      ay = by;
    }
    if (k === n - 1) {
      bx = ax;
      by = ay;
    }
    let mx = ax + bx, my = ay + by;
    const ml = Math.sqrt(mx * mx + my * my);
    if (ml > 0) {
      mx /= ml;
      my /= ml;
      const miter = Math.min(MITER_LIMIT, 1 / Math.max(mx * bx + my * by, 0.5));
      const span = band - Math.max(Math.abs(mx), Math.abs(my));
      nx[k] = mx * miter * span;
      ny[k] = my * miter * span;
    } else {
      // a reversal (or no length): the incoming segment's normal
      nx[k] = (ax || 0) * (band - 1);
      ny[k] = (ay || 1) * (band - 1);
    }
    if (bx || by) {
      ax = bx;
      ay = by;
    }
  }
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
  const band = width * scale;
  // hairlines half a device pixel apart, the outer ones centred half a pixel
  // inside the wide stroke's edges: 3 for 2 px (two, a whole pixel apart,
  // left a paler, doubled-looking band where their anti-aliasing met)
  const lines = band <= 1 ? 1 : Math.max(2, Math.round(2 * (band - 1)) + 1);
  ctx.setLineDash(dash);
  if (lines === 1 || n < 2) {
    ctx.beginPath();
    for (let k = 0; k < n; k++) (k ? ctx.lineTo(x(k), y(k)) : ctx.moveTo(x(k), y(k)));
    ctx.lineWidth = width;
    ctx.stroke();
  } else {
    const [xs, ys, nx, ny] = scratch(n);
    scratchDepth++;
    let kept;
    try {
      kept = keepPoints(n, x, y, MIN_STEP / scale, xs, ys);
    } finally {
      scratchDepth--;
    }
    miterOffsets(xs, ys, kept, band, nx, ny);
    // the hairlines' points go to the canvas as whole numbers of 1/SUBPIXEL
    // CSS px, under a transform scaled down by SUBPIXEL (width and dashes
    // scaled up to match): a fractional argument to moveTo/lineTo is boxed
    // in a fresh heap number, which made half of what a long-context drag
    // allocated (4 of 8 MB in 32 inputs, by a heap profile), and whole
    // numbers below 2^30 are not boxed
    ctx.scale(1 / SUBPIXEL, 1 / SUBPIXEL);
    ctx.lineWidth = SUBPIXEL / scale;
    if (dash.length) ctx.setLineDash(dash.map((v) => v * SUBPIXEL));
    for (let j = 0; kept > 0 && j < lines; j++) {
      const d = (j / (lines - 1) - 0.5) / scale;
      ctx.beginPath();
      ctx.moveTo(Math.round((xs[0] + d * nx[0]) * SUBPIXEL), Math.round((ys[0] + d * ny[0]) * SUBPIXEL));
      for (let k = 1; k < kept; k++) ctx.lineTo(Math.round((xs[k] + d * nx[k]) * SUBPIXEL), Math.round((ys[k] + d * ny[k]) * SUBPIXEL));
      ctx.stroke();
    }
    ctx.setTransform(m);
  }
  ctx.lineWidth = 1;
  ctx.setLineDash([]);
}
