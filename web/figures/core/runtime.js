// runtime.js — the one posnorm instance all figures on a page share, and
// the page-wide figure settings.
import { init } from '../../../src/js/posnorm-core.js';

let shared = null;
let initOptions = {};
const settings = { history: false, embedBase: undefined };

/**
 * Sets how the figures of this page load and behave. Takes init()'s options
 * (`wasm`, `simd`) for the shared instance — call before the first figure
 * starts — and `history: true`, which lets "Copy link" also put the link in
 * the address bar (posnorm's own pages do; on someone else's page the
 * figures leave the page's history alone unless it asks), and `embedBase`,
 * the URL of the host the Embed snippets point at (the folder that holds
 * web/ and build/; by default the one these modules were loaded from).
 */
export function configure(options = {}) {
  const { history, embedBase, ...rest } = options;
  if (history !== undefined) settings.history = history === true;
  if (embedBase !== undefined) settings.embedBase = embedBase === null ? undefined : String(embedBase);
  if (Object.keys(rest).length) initOptions = { ...rest };
}

/** The page-wide settings (read-only view). */
export function figureSettings() {
  return { ...settings };
}

/** Bytes of WebAssembly memory the figures' instance holds from the start (see reserveFloor). */
export const MEMORY_FLOOR = 8 * 1024 * 1024;

/**
 * Grows the shared instance's memory past MEMORY_FLOOR at load: one buffer
 * of that size allocated and freed at once, which leaves the space to
 * malloc. A growth while a figure's code is optimised costs that code: on
 * figure.html, long-context's first drag of d_model grew the memory from
 * 1 to 1.3 MB at d_model 240, and that input's render took 20–31 ms
 * instead of 6–8 (V8 deoptimised the figure's functions at once,
 * --trace-deopt). The figures stay within 8 MB at their default sizes
 * except the heatmap (30 MB at its largest), where a growth still pays
 * this once. Pages not written to cost no memory; the reservation stays
 * for the page's life. Where it cannot be had, the figures start anyway.
 */
function reserveFloor(pn) {
  if (pn.memory.buffer.byteLength >= MEMORY_FLOOR) return;
  try {
    pn.alloc(MEMORY_FLOOR / 4).free();
  } catch {
    // not enough memory for the reservation: the figures grow it as before
  }
}

/** Resolves to the shared posnorm instance, loading it on first use. */
export function getPosnorm() {
  if (!shared) {
    if (typeof WebAssembly !== 'object') return Promise.reject(new Error('posnorm: this browser has no WebAssembly'));
    shared = init(initOptions).then((pn) => {
      reserveFloor(pn);
      return pn;
    });
    shared.catch(() => { shared = null; });
  }
  return shared;
}
