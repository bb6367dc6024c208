// The colormap's table index as posnorm.h defines it (pn_colormap_rgba8): round-half-up of the value's
// place in [vmin, vmax] on 256 entries, computed in float64.

/** Table index of x: ⌊255·(x − vmin)/(vmax − vmin) + 0.5⌋ clamped to [0, 255] (±Inf clamp too); −1 (transparent) for NaN. */
export function colormapIndex(x, vmin, vmax) {
  if (Number.isNaN(x)) return -1;
  return Math.min(255, Math.max(0, Math.floor(255 * ((x - vmin) / (vmax - vmin)) + 0.5)));
}
