// Types of web/figures/index.js: importing it registers every figure (the
// figures of registry.js; tests/figures_registry.test.mjs holds them to it).
export { PosnormHeatmap } from './heatmap.js';
export { PosnormWaveform } from './waveform.js';
export { PosnormLnSimulator } from './ln-simulator.js';
export { PosnormOrder } from './order.js';
export { PosnormProperties } from './properties.js';
export { PosnormCompare } from './compare.js';
export { PosnormLongContext } from './long-context.js';
export { PosnormRopeConfig } from './rope-config.js';
export { PosnormPrecision } from './precision.js';
export { PosnormDepth } from './depth.js';
export { PosnormLnSteps } from './ln-steps.js';
export { PosnormBnVsLn } from './bn-vs-ln.js';
export { PosnormBlock } from './block.js';
export { configure, figureSettings } from './core/runtime.js';
export type { EmbedCode, EmbedOptions, FigureChangeDetail, PosnormFigureEventMap } from './core/base.js';
