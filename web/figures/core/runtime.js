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

/** Resolves to the shared posnorm instance, loading it on first use. */
export function getPosnorm() {
  if (!shared) {
    if (typeof WebAssembly !== 'object') return Promise.reject(new Error('posnorm: this browser has no WebAssembly'));
    shared = init(initOptions);
    shared.catch(() => { shared = null; });
  }
  return shared;
}
