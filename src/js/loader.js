// loader.js — finds, compiles and instantiates the right posnorm wasm.

/** A 29-byte module whose one function uses an i32x4.splat (SIMD128). */
const SIMD_PROBE = new Uint8Array([
  0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 8, 1, 6,
  0, 65, 0, 253, 17, 11,
]);

/** @returns {boolean} whether this engine validates WebAssembly SIMD128. */
export function simdSupported() {
  return typeof WebAssembly === 'object' && WebAssembly.validate(SIMD_PROBE);
}

/** Default location of each build: next to the package, found from this file. */
export function defaultWasmUrl(simd) {
  return simd
    ? new URL('../../build/wasm/posnorm-simd.wasm', import.meta.url)
    : new URL('../../build/wasm/posnorm-scalar.wasm', import.meta.url);
}

async function readFileUrl(url) {
  // Kept out of bundlers' static analysis: only reached in Node for file: URLs.
  const fsName = 'node:fs/promises';
  const fs = await import(/* @vite-ignore */ fsName);
  return fs.readFile(url);
}

/**
 * Compiles `source` (URL, string, bytes or WebAssembly.Module).
 * @returns {Promise<WebAssembly.Module>}
 */
export async function compileWasm(source) {
  if (source instanceof WebAssembly.Module) return source;
  if (source instanceof ArrayBuffer || ArrayBuffer.isView(source)) {
    return WebAssembly.compile(source);
  }
  if (typeof source === 'string' || source instanceof URL) {
    const url = new URL(String(source), typeof location === 'object' ? location.href : import.meta.url);
    if (url.protocol === 'file:') return WebAssembly.compile(await readFileUrl(url));
    const response = await fetch(url);
    if (!response.ok) throw new Error(`posnorm: could not load ${url} (HTTP ${response.status})`);
    if (WebAssembly.compileStreaming && response.headers.get('content-type') === 'application/wasm') {
      return WebAssembly.compileStreaming(response);
    }
    return WebAssembly.compile(await response.arrayBuffer());
  }
  throw new TypeError('posnorm.init: wasm must be a URL, a string, an ArrayBuffer, a typed array or a WebAssembly.Module');
}

/**
 * Instantiates a compiled posnorm module with the one import it needs.
 * @param {WebAssembly.Module} module
 * @param {() => void} onGrow called after wasm memory grows
 */
export async function instantiate(module, onGrow) {
  const instance = await WebAssembly.instantiate(module, {
    env: { emscripten_notify_memory_growth: () => onGrow() },
  });
  const exports = instance.exports;
  if (typeof exports._initialize === 'function') exports._initialize();
  return exports;
}
