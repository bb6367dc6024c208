import { PnFigure } from './core/base.js';
export { configure } from './core/runtime.js';
export type { EmbedCode, EmbedOptions, FigureChangeDetail, PosnormFigureEventMap } from './core/base.js';

/** `<posnorm-depth>`: activation std through a residual stack, four ways. */
export declare class PosnormDepth extends PnFigure {
  /** attribute layers, 1…96, default 24 */
  layers: number;
  /** attribute scale, 0.1…3, default 1 */
  scale: number;
  /** attribute width, 8…64 by 8, default 32 */
  width: number;
  /** attribute seed, default 1 */
  seed: number;
  readonly inputs: { x0: Float32Array; weights: Float32Array; rows: number };
  /** stds[b][l]: blocks plain, post-ln, pre-ln, pre-rms; layer l + 1 */
  readonly result: { stds: Float32Array[] };
}
declare global { interface HTMLElementTagNameMap { 'posnorm-depth': PosnormDepth } }
