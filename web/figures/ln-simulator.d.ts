import { PnFigure } from './core/base.js';
export { configure } from './core/runtime.js';
export type { EmbedCode, EmbedOptions, FigureChangeDetail, PosnormFigureEventMap } from './core/base.js';

/** `<posnorm-ln-simulator>`: LayerNorm of H features drawn from N(μ, σ²). */
export declare class PosnormLnSimulator extends PnFigure {
  /** attribute features, 8…4096, default 256 */
  features: number;
  /** attribute mu, −10…10, default 3 */
  mu: number;
  /** attribute sigma, 0.1…10, default 2 */
  sigma: number;
  /** attribute gamma, 0…3, default 1 */
  gamma: number;
  /** attribute beta, −3…3, default 0 */
  beta: number;
  /** attribute eps, 1e-8…1, default 1e-5 */
  eps: number;
  /** attribute seed: the draw (the resample button adds 1), default 1 */
  seed: number;
  /** Measured statistics of the current draw. */
  readonly stats: {
    inputMean: number; inputStd: number; outputMean: number; outputStd: number;
    mu: number; variance: number; inv: number; x1: number; y1: number;
  } | undefined;
}

declare global {
  interface HTMLElementTagNameMap { 'posnorm-ln-simulator': PosnormLnSimulator }
}
