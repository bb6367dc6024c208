// still.js — a still picture of a figure in its current state, for the
// Embed snippets: the figure's plots as a copy of it draws them 640 CSS px
// wide (the width of the packaged posters), cropped to its canvases. The
// words around the plots are not in the picture; the snippets give the
// picture the figure's text alternative (describe()).
//
// The copy is another element of the same class with the same values and
// language, laid out off to the side (hidden, inert) and started at once
// with the figure's own kernel instance, so that its size is known
// synchronously (embedCode() needs it); the pixels of the picture file are
// drawn by embed-dialog.js, at twice the resolution.

/** The width of the picture, in CSS pixels. */
export const STILL_WIDTH = 640;

/**
 * A started copy of `fig` (its values, language and tag), `STILL_WIDTH` px
 * wide, drawn at `scale` device pixels per CSS pixel with the CSS custom
 * properties `colors` set on it; it has drawn its first frame when this
 * returns. Remove it when done.
 */
export function makeCopy(fig, { scale = 1, colors = {} } = {}) {
  const copy = document.createElement(fig.localName);
  copy._stillScale = scale;
  copy.shareKey = '\u0000still'; // no page URL parameter reaches the copy
  copy.setAttribute('lang', fig.language);
  copy.setAttribute('aria-hidden', 'true');
  copy.inert = true;
  // the copy's events stay with it: a page that listens for its figures' never hears of it
  for (const type of ['posnorm-ready', 'posnorm-change', 'posnorm-error']) copy.addEventListener(type, (e) => e.stopPropagation());
  const style = {
    position: 'fixed', left: '0', top: '0', width: `${STILL_WIDTH}px`, 'max-width': 'none', 'min-width': '0',
    margin: '0', visibility: 'hidden', 'pointer-events': 'none', 'z-index': '-1', ...colors,
  };
  for (const [k, v] of Object.entries(style)) copy.style.setProperty(k, v);
  const values = fig.values;
  for (const c of fig.constructor.controls) copy[c.prop] = values[c.prop];
  fig.ownerDocument.body.append(copy);
  // started here and now rather than when it nears the viewport
  copy._cancelStart?.();
  copy._started = true;
  copy.pn = fig.pn;
  copy._poster.started();
  copy.renderNow();
  return copy;
}

/**
 * Where the canvases of a drawn copy sit: { width, height, items: [{ canvas,
 * x, y, w, h }] } in CSS pixels, from the top of its first canvas to the
 * bottom of its last.
 */
export function stillLayout(copy) {
  const origin = copy.getBoundingClientRect();
  const canvases = [...copy.shadowRoot.querySelectorAll('canvas')].filter((c) => c.getClientRects().length > 0);
  const boxes = canvases.map((canvas) => ({ canvas, r: canvas.getBoundingClientRect() }));
  const top = Math.min(...boxes.map((b) => b.r.top));
  const bottom = Math.max(...boxes.map((b) => b.r.bottom));
  return {
    width: STILL_WIDTH,
    height: Math.round(bottom - top),
    items: boxes.map(({ canvas, r }) => ({ canvas, x: r.left - origin.left, y: r.top - top, w: r.width, h: r.height })),
  };
}

/**
 * Sizes measured, by state: the SIZES_KEPT most recently asked for, and
 * only for states whose key is at most KEY_KEPT characters. A state can hold
 * a pasted config of up to 1 MiB (rope-config), and a Map that kept every
 * state kept each such config for the page's life; measuring again costs a
 * copy's first frame.
 */
const sizes = new Map();
const SIZES_KEPT = 16, KEY_KEPT = 4096;

/** { width, height } of the still picture of `fig` in its current state (CSS pixels). */
export function stillSize(fig) {
  const key = `${fig.localName}|${fig.language}|${JSON.stringify(fig.values)}`;
  let size = sizes.get(key);
  if (size) {
    // most recently used last: the first is the one to drop
    sizes.delete(key);
    sizes.set(key, size);
  } else {
    const copy = makeCopy(fig);
    try {
      const { width, height } = stillLayout(copy);
      size = { width, height };
    } finally {
      copy.remove();
    }
    if (key.length <= KEY_KEPT) {
      sizes.set(key, size);
      if (sizes.size > SIZES_KEPT) sizes.delete(sizes.keys().next().value);
    }
  }
  return size;
}
