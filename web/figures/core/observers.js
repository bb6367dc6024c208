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
  nearViewport ??= new IntersectionObserver(nearViewportEntries, { rootMargin: '300px 0px' });
  entryOf(el).near = onNear;
  nearViewport.observe(el);
  return () => nearViewport.unobserve(el);
}

// The shared observers' callbacks are module functions, not closures made
// in the function that first asked for them: V8 gives the closures of one
// call a common scope, and a callback made beside a stop function that
// holds `el` (or `onChange`) kept the first figure of the page alive for
// the page's life, off the page and unreferenced (a heap snapshot's
// retainer path: the observer → its callback → that scope → the figure).

/** The shared IntersectionObserver's callback: each figure that came near, once. */
function nearViewportEntries(entries) {
  for (const e of entries) {
    if (!e.isIntersecting) continue;
    const cb = callbacks.get(e.target)?.near;
    nearViewport.unobserve(e.target);
    cb?.();
  }
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
/** The documents whose <html> and <body> are watched for a theme, each with its observer. */
const schemeWatched = new WeakMap();
let schemeMedia = null;

/** Calls every colour callback (each checks whether its colours changed). */
function schemeChanged() {
  for (const cb of [...schemeCallbacks]) cb();
}

/**
 * The colour watch's MutationObserver callback: attributes of <html> or
 * <body>, and <html>'s children, where a page that swaps its <body> (Turbo,
 * pjax: `document.body = newBody`) puts a new one, which is watched from
 * then on.
 */
function schemeMutations(records, observer) {
  for (const r of records) {
    if (r.type !== 'childList') continue;
    const body = r.target.ownerDocument?.body;
    if (body) observer.observe(body, { attributes: true });
  }
  schemeChanged();
}

/**
 * Calls `onChange()` when the page's colours may have changed: the reader's
 * colour scheme (prefers-color-scheme: dark, as when the system turns dark
 * at dusk), or any attribute of <html> or <body> of `doc` (a theme switch's
 * class, style or data attribute; the figure's document, which is another
 * one when the figure was moved into an iframe's), also of a <body> the
 * page put in place of the first. The callee checks whether its colours
 * really changed. Returns a stop function.
 */
export function onColorSchemeChange(onChange, doc = globalThis.document) {
  if (!schemeMedia && typeof matchMedia === 'function') {
    schemeMedia = matchMedia('(prefers-color-scheme: dark)');
    schemeMedia.addEventListener?.('change', schemeChanged);
  }
  const html = doc?.documentElement;
  if (html && !schemeWatched.has(doc) && typeof MutationObserver === 'function') {
    // every attribute (themes use many: data-color-mode, data-md-color-scheme, …);
    // one that changes no colour costs each figure a style read
    const attrs = new MutationObserver(schemeMutations);
    attrs.observe(html, { attributes: true, childList: true });
    if (doc.body) attrs.observe(doc.body, { attributes: true });
    schemeWatched.set(doc, attrs);
  }
  schemeCallbacks.add(onChange);
  return () => schemeCallbacks.delete(onChange);
}

const languageCallbacks = new Set();
/** The documents watched for lang attributes, each with its observer. */
const languageWatched = new WeakMap();

/** The language watch's MutationObserver callback. */
function languageMutations() {
  for (const cb of [...languageCallbacks]) cb();
}

/**
 * Calls `onChange()` when a `lang` attribute changes anywhere in `doc` (the
 * figure's document: <html lang> switched by a page, a section's lang):
 * one MutationObserver per document for all figures. The callee checks
 * whether its own language changed (a figure with its own lang does not
 * follow). Attributes inside other shadow roots are not seen. Returns a
 * stop function.
 */
export function onLanguageChange(onChange, doc = globalThis.document) {
  const html = doc?.documentElement;
  if (html && !languageWatched.has(doc) && typeof MutationObserver === 'function') {
    const watch = new MutationObserver(languageMutations);
    watch.observe(html, { attributes: true, attributeFilter: ['lang'], subtree: true });
    languageWatched.set(doc, watch);
  }
  languageCallbacks.add(onChange);
  return () => languageCallbacks.delete(onChange);
}
