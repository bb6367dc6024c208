// observers.js — one IntersectionObserver, one ResizeObserver and one
// colour-scheme watch for all the figures of a page (as distill's figures
// share theirs), created on first use.

const callbacks = new WeakMap();
let nearViewport = null;
let resized = null;

/** The callbacks kept for `el` (made on first use). */
function entryOf(el) {
  let entry = callbacks.get(el);
  if (!entry) callbacks.set(el, (entry = {}));
  return entry;
}

/**
 * Calls `onNear()` once, when `el` comes within 300 px of the viewport
 * (at once where IntersectionObserver is missing). Returns a cancel function.
 */
export function whenNearViewport(el, onNear) {
  if (typeof IntersectionObserver !== 'function') {
    onNear();
    return () => {};
  }
  nearViewport ??= new IntersectionObserver((entries) => {
    for (const e of entries) {
      if (!e.isIntersecting) continue;
      const cb = callbacks.get(e.target)?.near;
      nearViewport.unobserve(e.target);
      cb?.();
    }
  }, { rootMargin: '300px 0px' });
  entryOf(el).near = onNear;
  nearViewport.observe(el);
  return () => nearViewport.unobserve(el);
}

/** The shared ResizeObserver: widths first, then the callbacks (which may read them). */
function resizeObserver() {
  resized ??= new ResizeObserver((entries) => {
    const changed = [];
    for (const e of entries) {
      const entry = callbacks.get(e.target);
      if (!entry || !('width' in entry)) continue;
      const width = Math.round(e.contentRect.width);
      // a change of more than a pixel: at a fractional devicePixelRatio a
      // canvas whose CSS width follows its backing size (width: auto) moves
      // by one rounded pixel at each render, and a repaint for that would
      // go on at every frame
      if (Math.abs(width - entry.width) > 1 && entry.widthChanged) changed.push(e.target);
      entry.width = width;
    }
    for (const e of entries) callbacks.get(e.target)?.resize?.(e.contentRect.width);
    for (const el of changed) callbacks.get(el).widthChanged(el);
  });
  return resized;
}

/** Calls `onResize(width)` whenever `el` changes size, with its content box's width (CSS px). Returns a stop function. */
export function onResize(el, onResizeCb) {
  if (typeof ResizeObserver !== 'function') return () => {};
  entryOf(el).resize = onResizeCb;
  resizeObserver().observe(el);
  return () => resized.unobserve(el);
}

/**
 * The CSS width of `el` (its clientWidth when first asked, then as the
 * shared ResizeObserver last reported it, rounded as clientWidth is), so
 * that a render() can size its canvas without reading layout: clientWidth
 * read after a DOM change (the slider's value, the last readout) forces a
 * style and layout pass in the middle of the frame, which the frame then
 * does again (about 3 ms per input of a precision drag in a Chromium trace).
 * A width change reaches the figure through onResize() of its <figure>,
 * delivered by the same observer after the widths are updated; a change of
 * `el`'s width alone calls `onWidthChange(el)` (given on any call; the
 * first one given is kept). Without ResizeObserver, clientWidth every time.
 */
export function cssWidth(el, onWidthChange) {
  if (typeof ResizeObserver !== 'function') return el.clientWidth;
  const entry = entryOf(el);
  // called with `el` when its width changes on its own (a page's
  // ::part(canvas) rule): its figure's box, observed by onResize(), may not
  entry.widthChanged ??= onWidthChange;
  if (!('width' in entry)) {
    entry.width = el.clientWidth;
    resizeObserver().observe(el);
  }
  return entry.width;
}

/**
 * Reads `el`'s clientWidth into cssWidth's cache now: for a render that
 * runs synchronously (a download, a still picture), which may follow a
 * layout change the observer has not reported yet. A forced layout is
 * acceptable there; a drag's renders do not come here.
 */
export function refreshWidth(el) {
  const entry = callbacks.get(el);
  if (entry && 'width' in entry) entry.width = el.clientWidth;
}

const schemeCallbacks = new Set();
let schemeWatch = null;

/**
 * Calls `onChange()` when the page's colours may have changed: the reader's
 * colour scheme (prefers-color-scheme: dark, as when the system turns dark
 * at dusk), or any attribute of <html> or <body> (a theme switch's class,
 * style or data attribute). The callee
 * checks whether its colours really changed. Returns a stop function.
 */
export function onColorSchemeChange(onChange) {
  if (!schemeWatch && typeof document !== 'undefined') {
    const fire = () => { for (const cb of [...schemeCallbacks]) cb(); };
    const dark = typeof matchMedia === 'function' ? matchMedia('(prefers-color-scheme: dark)') : null;
    dark?.addEventListener?.('change', fire);
    const attrs = typeof MutationObserver === 'function' ? new MutationObserver(fire) : null;
    // every attribute (themes use many: data-color-mode, data-md-color-scheme, …);
    // one that changes no colour costs each figure a style read
    for (const el of [document.documentElement, document.body]) if (el) attrs?.observe(el, { attributes: true });
    schemeWatch = { dark, attrs };
  }
  schemeCallbacks.add(onChange);
  return () => schemeCallbacks.delete(onChange);
}

const languageCallbacks = new Set();
let languageWatch = null;

/**
 * Calls `onChange()` when a `lang` attribute changes anywhere in the
 * document (<html lang> switched by a page, a section's lang): one
 * MutationObserver for all figures. The callee checks whether its own
 * language changed (a figure with its own lang does not follow). Attributes
 * inside other shadow roots are not seen. Returns a stop function.
 */
export function onLanguageChange(onChange) {
  if (!languageWatch && typeof document !== 'undefined' && typeof MutationObserver === 'function') {
    languageWatch = new MutationObserver(() => { for (const cb of [...languageCallbacks]) cb(); });
    languageWatch.observe(document.documentElement, { attributes: true, attributeFilter: ['lang'], subtree: true });
  }
  languageCallbacks.add(onChange);
  return () => languageCallbacks.delete(onChange);
}
