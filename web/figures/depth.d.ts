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
  /** attribute stack, default 'encoder': 'encoder' (blocks x + GELU(h·W_l)) or 'decoder' (each block also adds a cross-attention branch m·C_l to one memory vector) */
  stack: 'encoder' | 'decoder';
  /** attribute seed, default 1 */
  seed: number;
  /** with the decoder, weights holds W_l then C_l per layer and memory the memory vector; undefined until the figure has started (they live in wasm memory) */
  readonly inputs: { x0: Float32Array; weights: Float32Array; rows: number; stack: 'encoder' | 'decoder'; memory?: Float32Array } | undefined;
  /** stds[b][l]: blocks plain, post-ln, pre-ln, pre-rms; layer l + 1; gradNorms likewise once computed (null before), gradRatio: last ÷ first for Post-LN and Pre-LN */
  readonly result: { stds: Float32Array[]; gradNorms: Float32Array[] | null; gradRatio?: { post: number; pre: number } } | undefined;
}
declare global { interface HTMLElementTagNameMap { 'posnorm-depth': PosnormDepth } }
