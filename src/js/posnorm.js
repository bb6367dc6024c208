// posnorm.js — the public entry point: init() and the kernel calls.
//
//   import { init } from 'posnorm';
//   const pn = await init();
//   const pe = pn.positionalEncoding({ seqLen: 50, dModel: 128 });
//
// Every call but four is in posnorm-core.js; this module re-exports it and
// adds pn.ropeFromConfig (rope-config.js) and the figures' own kernels
// (figure-kernels.js), which the figures, importing the core alone (and
// figure-kernels.js where they need it), leave out of a page's first load.
// posnorm.d.ts types them all.

import { Posnorm } from './posnorm-core.js';
import { inside } from './internals.js';
import { ropeFromConfig } from './rope-config.js';
// pn.residualStack, pn.transformerBlock and pn.layerNormSteps
import './figure-kernels.js';

export * from './posnorm-core.js';

// a method like the others: not enumerable, on the prototype
Object.defineProperty(Posnorm.prototype, 'ropeFromConfig', {
  // (a method definition: its name is ropeFromConfig, and inside it that
  // name is still the imported function)
  value: { ropeFromConfig(config, opts) { inside(this, 'ropeFromConfig'); return ropeFromConfig(this, config, opts); } }.ropeFromConfig,
  writable: true,
  configurable: true,
});
