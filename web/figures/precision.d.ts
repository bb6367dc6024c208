import { PnFigure } from './core/base.js';
export { configure } from './core/runtime.js';
export type { EmbedCode, EmbedOptions, FigureChangeDetail, PosnormFigureEventMap } from './core/base.js';

/** `<posnorm-precision>`: what float32, bfloat16 and float16 do to the article's PyTorch PE code, positions 1 … 2^24. */
export declare class PosnormPrecision extends PnFigure {
  /** attribute d-model, 16…1024 by 16, default 512 */
  dModel: number;
  /** attribute max-exp, 8…24, default 24: positions up to 2^maxExp − 1 */
  maxExp: number;
  /** attribute base, 100…100000, default 10000 */
  base: number;
  /** attribute pos, 1…2^maxExp − 1, default 65536: the cursor */
  pos: number;
  /** attribute type, default 'float32': the number type the article's code runs in */
  type: 'float32' | 'bfloat16' | 'float16';
  /** attribute compute, default 'float32' (bfloat16/float16 only): 'float32' computes in float32 and rounds the table (model.to(dtype)), 'low' rounds every step to the type */
  compute: 'float32' | 'low';
  /**
   * The numbers at the cursor and over the samples. err32, dist32 and blur are those of the
   * selected code (float32, or the 16-bit type); err32 is its row's largest error against
   * float64 and errNorm32 that error's length over the row, sqrt(Σ (code − float64)²); exact: positions are exact integers up to it;
   * stored: the cursor position as stored, share: how many integers share that value;
   * constantFrom: the first column from which every cos column is 1 at pos (so constant over
   * 0…pos), or null; constantColumns: how many cos columns that is. Where the type stores the
   * position as Infinity (float16 with compute 'low': every integer from overflowFrom, 65520;
   * its largest finite value overflowMax, 65504) overflow is true, err32, errNorm32, blur and
   * share are null, and dist32 is null there and where pos + 1 overflows.
   */
  readonly result: {
    p: number; err32: number | null; err64: number; errNorm32: number | null; dist32: number | null; dist64: number; blur: number | null;
    overflow: boolean;
    type: 'float32' | 'bfloat16' | 'float16'; compute: 'float32' | 'low';
    exact: number; stored: number; share: number | null; overflowFrom: number; overflowMax: number;
    constantFrom: number | null; constantColumns: number;
    crossover: number | null;
    samples: Array<{ p: number; err32: number | null; err64: number; errNorm32: number | null; dist32: number | null; dist64: number; blur: number | null; overflow: boolean }>;
  } | undefined;
}

declare global {
  interface HTMLElementTagNameMap { 'posnorm-precision': PosnormPrecision }
}
