// frame-entry.js — the entry of build/frame/posnorm-frame.js (tools/build-frame.mjs):
// every figure and both wasm builds in one classic script, for figure.html
// in a sandboxed iframe, where module imports and fetch() are refused. The
// registry is what the bundle exports: figure-frame.js finds it in
// self.posnormFrame.
import { configure } from '../web/figures/index.js';
import simd from '../build/wasm/posnorm-simd.wasm';
import scalar from '../build/wasm/posnorm-scalar.wasm';

configure({ wasm: { simd, scalar } });

export { FIGURES } from '../web/figures/registry.js';
