import { PnFigure } from './core/base.js';
export { configure } from './core/runtime.js';
export type { EmbedCode, EmbedOptions, FigureChangeDetail, PosnormFigureEventMap } from './core/base.js';

/** `<posnorm-long-context>`: RoPE past the training length, with PI, dynamic NTK, YaRN and Llama 3 scaling. */
export declare class PosnormLongContext extends PnFigure {
  /** attribute train-len, 256…16384 (powers of two), default 4096 */
  trainLen: number;
  /** attribute factor, 1…32 (powers of two), default 8 */
  factor: number;
  /** attribute dim, 16…256 by 16, default 128 */
  dim: number;
  /** attribute base, 1000…1000000, default 10000 */
  base: number;
  /** attribute distance, 0…trainLen·factor (the slider moves by 64), default 12288: the cursor */
  distance: number;
  /** attribute seed (hidden), default 7 */
  seed: number;
  /** The numbers behind the readouts. */
  readonly result: {
    distance: number;
    scores: Record<'none' | 'linear' | 'dynamic' | 'yarn' | 'llama3', number>;
    attentionFactors: Record<string, number>;
    pairsTurningInside: Record<string, number>;
    trainRange: [number, number];
    invFreq: Record<string, Float32Array>;
    q: Float32Array;
    k: Float32Array;
  } | undefined;
}

declare global {
  interface HTMLElementTagNameMap { 'posnorm-long-context': PosnormLongContext }
}
