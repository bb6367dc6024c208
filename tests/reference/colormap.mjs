// The colormap's table index as posnorm.h defines it (pn_colormap_rgba8): round-half-up of the value's
// place in [vmin, vmax] on 256 entries, computed in float64.

/** Table index of x: ⌊255·(x − vmin)/(vmax − vmin) + 0.5⌋ clamped to [0, 255] (±Inf clamp too); −1 (transparent) for NaN. */
export function colormapIndex(x, vmin, vmax) {
  if (Number.isNaN(x)) return -1;
  return Math.min(255, Math.max(0, Math.floor(255 * ((x - vmin) / (vmax - vmin)) + 0.5)));
}

// The two tables as tools/gen_colormap.py designs them, re-derived here from
// the design (not read from posnorm): OKLab (Ottosson 2020, "A perceptual
// color space for image processing", its published OKLab → linear sRGB
// matrices), lightness a straight line in the index, chroma reduced by
// bisection until the colour is inside sRGB, then sRGB's transfer function
// (IEC 61966-2-1) and 8 bits.
//   diverging:  L 0.42 → 0.96 → 0.42, hue 250° (blue) below the middle, 60° (orange) above, chroma 0.15·|2t − 1|
//   sequential: L 0.25 → 0.96, hue 300° → 100°, chroma 0.10 → 0.16

function oklabToLinearSrgb(L, a, b) {
  const l = (L + 0.3963377774 * a + 0.2158037573 * b) ** 3;
  const m = (L - 0.1055613458 * a - 0.0638541728 * b) ** 3;
  const s = (L - 0.0894841775 * a - 1.2914855480 * b) ** 3;
  return [
    4.0767416621 * l - 3.3077115913 * m + 0.2309699292 * s,
    -1.2684380046 * l + 2.6097574011 * m - 0.3413193965 * s,
    -0.0041960863 * l - 0.7034186147 * m + 1.7076147010 * s,
  ];
}

const srgbEncode = (c) => {
  const v = Math.min(Math.max(c, 0), 1);
  return v <= 0.0031308 ? 12.92 * v : 1.055 * v ** (1 / 2.4) - 0.055;
};

/** 8-bit sRGB of OKLCh (L, C, h°), C reduced to the largest in gamut (40 bisections). */
function lchToSrgb8(L, C, hDeg) {
  const h = (hDeg * Math.PI) / 180;
  let lo = 0, hi = C;
  for (let k = 0; k < 40; k++) {
    const mid = hi - lo > 1e-9 ? (lo + hi) / 2 : hi;
    const rgb = oklabToLinearSrgb(L, mid * Math.cos(h), mid * Math.sin(h));
    if (rgb.every((v) => v >= -1e-6 && v <= 1 + 1e-6)) lo = mid;
    else hi = mid;
  }
  // Python's round(): half to even
  const round = (x) => { const f = Math.floor(x), d = x - f; return d > 0.5 || (d === 0.5 && f % 2 === 1) ? f + 1 : f; };
  return oklabToLinearSrgb(L, lo * Math.cos(h), lo * Math.sin(h)).map((v) => round(255 * srgbEncode(v)));
}

const DESIGNS = {
  diverging: (t) => {
    const u = 2 * t - 1;
    return lchToSrgb8(0.96 - (0.96 - 0.42) * Math.abs(u), 0.15 * Math.abs(u), u < 0 ? 250 : 60);
  },
  sequential: (t) => lchToSrgb8(0.25 + 0.71 * t, 0.10 + 0.06 * t, 300 - 200 * t),
};

/** The 256 RGBA entries of colormap `map` ('diverging' or 'sequential'), alpha 255. */
export function colormapTable(map) {
  const out = new Uint8Array(256 * 4);
  for (let i = 0; i < 256; i++) {
    out.set([...DESIGNS[map](i / 255), 255], 4 * i);
  }
  return out;
}
