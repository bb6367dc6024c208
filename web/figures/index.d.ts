// Types of web/figures/index.js: importing it registers every figure.
export { PosnormHeatmap } from './heatmap.js';
export { PosnormWaveform } from './waveform.js';
export { PosnormLnSimulator } from './ln-simulator.js';
export { configure } from './runtime.js';
