import { PnFigure } from './core/base.js';
export { configure } from './core/runtime.js';
export type { EmbedCode, EmbedOptions, FigureChangeDetail, PosnormFigureEventMap } from './core/base.js';

/** `<posnorm-ln-steps>`: one vector through x → x − μ → x̂ → γ·x̂ + β. */
export declare class PosnormLnSteps extends PnFigure {
  /** attribute gamma, 0…3, default 1 */
  gamma: number;
  /** attribute beta, −3…3, default 0 */
  beta: number;
  /** attribute seed, default 2 */
  seed: number;
  readonly result: { x: Float32Array; centered: Float32Array; normalized: Float32Array; y: Float32Array; mean: number; variance: number } | undefined;
}
declare global { interface HTMLElementTagNameMap { 'posnorm-ln-steps': PosnormLnSteps } }
