import { PnFigure } from './core/base.js';
export { configure } from './core/runtime.js';
export type { EmbedCode, EmbedOptions, FigureChangeDetail, PosnormFigureEventMap } from './core/base.js';

/** `<posnorm-precision>`: what float32 does to the article's PyTorch PE code, positions 1 … 2^24. */
export declare class PosnormPrecision extends PnFigure {
  /** attribute d-model, 16…1024 by 16, default 512 */
  dModel: number;
  /** attribute max-exp, 8…24, default 24: positions up to 2^maxExp − 1 */
  maxExp: number;
  /** attribute base, 100…100000, default 10000 */
  base: number;
  /** attribute pos, 1…2^maxExp − 1, default 65536: the cursor */
  pos: number;
  /** The numbers at the cursor and over the samples. */
  readonly result: {
    p: number; err32: number; err64: number; errNorm32: number; dist32: number; dist64: number;
    crossover: number | null;
    samples: Array<{ p: number; err32: number; err64: number; errNorm32: number; dist32: number; dist64: number }>;
  };
}

declare global {
  interface HTMLElementTagNameMap { 'posnorm-precision': PosnormPrecision }
}
