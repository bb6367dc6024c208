import { PnFigure } from './core/base.js';
export { configure } from './core/runtime.js';
export type { EmbedCode, EmbedOptions, FigureChangeDetail, PosnormFigureEventMap } from './core/base.js';

/** `<posnorm-compare>`: sinusoidal, learned, RoPE and ALiBi side by side. */
export declare class PosnormCompare extends PnFigure {
  /** attribute seq-len, 4…128, default 32 */
  seqLen: number;
  /** attribute d-model, 4…128 even, default 32 */
  dModel: number;
  /** attribute base, 100…100000, default 10000 */
  base: number;
  /** attribute max-len, 1…128, default 20 */
  maxLen: number;
  /** attribute heads, 1…16, default 8 */
  heads: number;
  /** attribute head, 0…heads − 1, default 0 */
  head: number;
  /** attribute offset, 0…100, default 10 */
  offset: number;
  readonly result: { ropeScores: [number[], number[]]; ropeDiff: number; slopes: Float32Array; bias: Float32Array; learnedRows: number; q: Float32Array; k: Float32Array } | undefined;
}
declare global { interface HTMLElementTagNameMap { 'posnorm-compare': PosnormCompare } }
