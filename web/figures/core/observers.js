// observers.js — one IntersectionObserver and one ResizeObserver for all
// the figures of a page (as distill's figures share theirs), created on
// first use.

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

/** Calls `onResize()` whenever `el` changes size. Returns a stop function. */
export function onResize(el, onResizeCb) {
  if (typeof ResizeObserver !== 'function') return () => {};
  resized ??= new ResizeObserver((entries) => {
    for (const e of entries) callbacks.get(e.target)?.resize?.();
  });
  entryOf(el).resize = onResizeCb;
  resized.observe(el);
  return () => resized.unobserve(el);
}
