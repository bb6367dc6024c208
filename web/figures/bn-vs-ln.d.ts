import { PnFigure } from './core/base.js';
export { configure } from './core/runtime.js';
export type { EmbedCode, EmbedOptions, FigureChangeDetail, PosnormFigureEventMap } from './core/base.js';

/** `<posnorm-bn-vs-ln>`: BatchNorm down the columns, LayerNorm along the rows. */
export declare class PosnormBnVsLn extends PnFigure {
  /** attribute batch, 1…64, default 8 */
  batch: number;
  /** attribute features, 2…16, default 6 */
  features: number;
  /** attribute mode: batch statistics ('train') or running ones ('infer'), default 'train' */
  mode: 'train' | 'infer';
  /** attribute seed, default 4 */
  seed: number;
  readonly result: { x: Float32Array; bn: Float32Array; bnMean: Float32Array; bnVar: Float32Array; ln: Float32Array; lnMean: Float32Array; lnInv: Float32Array } | undefined;
}
declare global { interface HTMLElementTagNameMap { 'posnorm-bn-vs-ln': PosnormBnVsLn } }
