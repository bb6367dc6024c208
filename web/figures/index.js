// index.js — registers every posnorm figure.
export { PosnormHeatmap } from './heatmap.js';
export { PosnormWaveform } from './waveform.js';
export { PosnormLnSimulator } from './ln-simulator.js';
export { configure } from './runtime.js';
