// loader.js — finds, compiles and instantiates the right posnorm wasm.
import { isInstance } from './validate.js';

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

/**
 * Where a wasm given as a string or URL is: a URL as it is; a string
 * against the page in a browser, as fetch() would take it; elsewhere (Node,
 * Deno, Bun) a string with a scheme (file:, https:, data:) as that URL and
 * any other string as a file path, relative to the working directory as
 * fs takes it (it was relative to this file before 0.3.0).
 */
async function wasmUrl(source) {
  if (isInstance(source, URL)) return source;
  const s = String(source);
  if (typeof location === 'object') return new URL(s, location.href);
  // a scheme of two letters or more: C:\x.wasm is a path
  if (/^[a-z][a-z0-9+.-]+:/i.test(s)) return new URL(s);
  // kept out of bundlers' static analysis, as readFileUrl's import
  const urlName = 'node:url';
  const { pathToFileURL } = await import(/* @vite-ignore */ urlName);
  return pathToFileURL(s);
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
  if (isInstance(source, WebAssembly.Module)) return source;
  if (isInstance(source, ArrayBuffer) || ArrayBuffer.isView(source)) {
    // any view of the bytes: WebAssembly.compile takes typed arrays but not
    // a DataView (an engine TypeError naming neither wasm nor posnorm)
    // (a detached one has no offset to read: no bytes, as a detached typed array)
    const bytes = !isInstance(source, DataView) ? source
      : source.buffer.byteLength === 0 ? new Uint8Array(0)
        : new Uint8Array(source.buffer, source.byteOffset, source.byteLength);
    return compileBytes(() => WebAssembly.compile(bytes), 'its bytes');
  }
  if (typeof source === 'string' || isInstance(source, URL)) {
    const url = await wasmUrl(source);
    // a file or address that cannot be read is an Error (not a TypeError:
    // the argument may be right and the file or network wrong) naming wasm
    // and the URL, with the I/O error as its cause (its code: ENOENT, …)
    const unreadable = (why, cause) => new Error(`posnorm.init: could not load wasm from ${url} (${why})`, cause ? { cause } : undefined);
    if (url.protocol === 'file:') {
      let bytes;
      try {
        bytes = await readFileUrl(url);
      } catch (e) {
        throw unreadable(e?.code ?? e?.message ?? String(e), e);
      }
      return compileBytes(() => WebAssembly.compile(bytes), url);
    }
    let response;
    try {
      response = await fetch(url);
    } catch (e) {
      throw unreadable(e?.message ?? String(e), e);
    }
    if (!response.ok) throw unreadable(`HTTP ${response.status}`);
    if (WebAssembly.compileStreaming && response.headers.get('content-type') === 'application/wasm') {
      return compileBytes(() => WebAssembly.compileStreaming(response), url);
    }
    const bytes = await response.arrayBuffer();
    return compileBytes(() => WebAssembly.compile(bytes), url);
  }
  throw new TypeError('posnorm.init: wasm must be a URL, a string, an ArrayBuffer, a typed array or a WebAssembly.Module');
}

/**
 * Runs a compile; bytes that are not a WebAssembly module (a CompileError:
 * wrong file, empty or detached bytes) are a TypeError naming wasm. A page
 * whose Content Security Policy refuses to compile WebAssembly gets a
 * CompileError too (Chromium) though the bytes are right: an Error that
 * says what the policy needs.
 */
async function compileBytes(compile, what) {
  try {
    return await compile();
  } catch (e) {
    if (!(e instanceof WebAssembly.CompileError)) throw e;
    if (/Content Security Policy/i.test(e.message)) {
      throw new Error(`posnorm.init: this page's Content Security Policy does not allow WebAssembly: its script-src needs 'wasm-unsafe-eval' (${what}: ${e.message})`, { cause: e });
    }
    throw new TypeError(`posnorm.init: wasm is not a WebAssembly module (${what}: ${e.message})`, { cause: e });
  }
}

/** What init() needs of a posnorm build's exports. */
const REQUIRED = ['memory', 'malloc', 'free', 'pn_simd_enabled', 'pn_version'];

/**
 * The kernels the wrapper calls (tests/api.test.mjs holds this list to
 * every `.pn_…` name in src/js): a build without one of them (another
 * version's, a cached older one) is refused at init, not at the first call
 * of that kernel with an engine error that named neither wasm nor posnorm.
 * (Written as the names' stems: every reader's first load carries it.)
 */
export const KERNELS = ['alibi_bias alibi_slopes attention batchnorm_infer batchnorm_train gram histogram layernorm layernorm_steps',
  'min_row_distance pe_float32_code pe_lowprec pe_sample pe_shift pe_sinusoidal random_normal residual_stack residual_stack_grad',
  'rmsnorm rope rope_cache rope_lowprec rope_scaled rope_scaled_dd round transformer_block'].join(' ').split(' ').map((n) => `pn_${n}_f32`)
  .concat('pn_colormap_rgba8', 'pn_colormap_lut_rgba8', 'pn_rope_frequencies_f64', 'pn_rope_frequencies_dd_f64');

/**
 * Instantiates a compiled posnorm module with the one import it needs.
 * @param {WebAssembly.Module} module
 * @param {() => void} onGrow called after wasm memory grows
 */
export async function instantiate(module, onGrow) {
  // another module than posnorm's: its imports fail to link, or it lacks an
  // export init() calls (an engine error naming neither wasm nor posnorm)
  const notPosnorm = (why, cause) => new TypeError(`posnorm.init: wasm is not a posnorm build: ${why}`, cause ? { cause } : undefined);
  const imports = WebAssembly.Module.imports(module).filter((i) => !(i.module === 'env' && i.name === 'emscripten_notify_memory_growth' && i.kind === 'function'));
  if (imports.length) throw notPosnorm(`it imports ${imports.map((i) => `${i.module}.${i.name}`).join(', ')}, which posnorm does not give`);
  const instance = await WebAssembly.instantiate(module, {
    env: { emscripten_notify_memory_growth: () => onGrow() },
  });
  const exports = instance.exports;
  const missing = REQUIRED.filter((name) => (name === 'memory' ? !(exports.memory instanceof WebAssembly.Memory) : typeof exports[name] !== 'function'));
  if (missing.length) throw notPosnorm(`it has no ${missing.join(', ')}`);
  const lacking = KERNELS.filter((name) => typeof exports[name] !== 'function');
  if (lacking.length) throw notPosnorm(`it has no ${lacking.join(', ')}, which this wrapper calls (a build of another posnorm version?)`);
  if (typeof exports._initialize === 'function') exports._initialize();
  return exports;
}
