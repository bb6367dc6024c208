// runtime.js — the one posnorm instance all figures on a page share.
import { init } from '../../src/js/posnorm.js';

let shared = null;
let options = {};

/**
 * Sets the options (see InitOptions) the shared instance is created with,
 * e.g. a different wasm location. Call before the first figure starts.
 */
export function configure(initOptions) {
  options = { ...initOptions };
}

/** Resolves to the shared posnorm instance, loading it on first use. */
export function getPosnorm() {
  if (!shared) {
    if (typeof WebAssembly !== 'object') return Promise.reject(new Error('no WebAssembly'));
    shared = init(options);
    shared.catch(() => { shared = null; });
  }
  return shared;
}
