import { PnFigure } from './core/base.js';
import type { TransformerBlockTrace } from '../../src/js/posnorm.js';
export { configure } from './core/runtime.js';
export type { EmbedCode, EmbedOptions, FigureChangeDetail, PosnormFigureEventMap } from './core/base.js';

type TokenStats = { mean: number; std: number; rms: number };

/** `<posnorm-block>`: the article's tokens through one Pre- or Post-Norm Transformer block, every tensor shown. */
export declare class PosnormBlock extends PnFigure {
  /** attribute placement: 'pre' (the article's code) or 'post' (the original paper), default 'pre' */
  placement: 'pre' | 'post';
  /** attribute norm: 'layer' or 'rms', default 'layer' */
  norm: 'layer' | 'rms';
  /** attribute pe: sinusoidal PE added to the embeddings ('on') or not ('off'), default 'on' */
  pe: 'on' | 'off';
  /** attribute gelu, default 'erf': the FFN's GELU, 'erf' (the article's nn.GELU()) or 'tanh' (approximate='tanh') */
  gelu: 'erf' | 'tanh';
  /** attribute d-model, 8…32 by 8, default 16 */
  dModel: number;
  /** attribute heads, 1…4: 1, 2 or 4 (3 reads as 4), default 2 */
  heads: number;
  /** attribute seed, default 4 */
  seed: number;
  /** x (embeddings + PE), the weights and the transformerBlock options the figure runs; undefined until the figure has started */
  readonly inputs: { x: Float32Array; weights: Float32Array; options: { dModel: number; heads: number; dFF: number; placement: 'pre' | 'post'; norm: 'layer' | 'rms'; gelu: 'erf' | 'tanh'; eps: number } } | undefined;
  /** the block's tensors, per-token statistics of each shown tensor, and how tightly the norms pinned the tokens */
  readonly result: TransformerBlockTrace & { stats: Record<string, TokenStats[]>; pinned: { mean?: number; std?: number; rms?: number } } | undefined;
}
declare global { interface HTMLElementTagNameMap { 'posnorm-block': PosnormBlock } }
