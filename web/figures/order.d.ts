import { PnFigure } from './core/base.js';
export { configure } from './core/runtime.js';
export type { EmbedCode, EmbedOptions, FigureChangeDetail, PosnormFigureEventMap } from './core/base.js';

/** `<posnorm-order>`: self-attention over three tokens, with or without PE. */
export declare class PosnormOrder extends PnFigure {
  /** attribute pe: add sinusoidal PE or not (default 'off') */
  pe: 'off' | 'on';
  /** attribute order: the token order as a permutation of "012" (default "012") */
  order: '012' | '021' | '102' | '120' | '201' | '210';
  /** attribute seed: embeddings and weights (default 3) */
  seed: number;
  /** Moves the token at position `at` one place left (−1) or right (+1), as a property change (`source` 'property'): the focus stays where the reader has it. */
  move(at: number, step: -1 | 1): void;
  /** the embeddings, weights and PE the figure runs; undefined before its first frame */
  readonly inputs: { emb: Float32Array; wq: Float32Array; wk: Float32Array; wv: Float32Array; pe: Float32Array } | undefined;
  /** outputs[token] is that token's output vector; delta its largest change from the order "012". */
  readonly result: { order: string; pe: 'off' | 'on'; outputs: Float32Array[]; delta: number } | undefined;
}
declare global { interface HTMLElementTagNameMap { 'posnorm-order': PosnormOrder } }
