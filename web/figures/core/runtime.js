// runtime.js — the one posnorm instance all figures on a page share, and
// the page-wide figure settings.
import { init } from '../../../src/js/posnorm.js';

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
 * Grows the shared instance's memory past MEMORY_FLOOR at load, through its
 * own allocator (one buffer of that size allocated and freed at once, so
 * malloc reuses the space; growing the Memory from JS would not give malloc
 * the pages).
 * A growth while a figure's code is optimised costs that code: on
 * figure.html, long-context's first drag of d_model grew the memory from
 * 1 to 1.3 MB at d_model 240, and that input's render took 20–31 ms
 * instead of 6–8 (V8 deoptimised 26 functions at once, --trace-deopt). The
 * figures stay within 8 MB at their default sizes except the heatmap
 * (30 MB at its largest); pages not written to cost no memory.
 */
function reserveFloor(pn) {
  if (pn.memory.buffer.byteLength < MEMORY_FLOOR) pn.alloc(MEMORY_FLOOR / 4).free();
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
