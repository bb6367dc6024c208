import { PnFigure } from './core/base.js';
export { configure } from './core/runtime.js';
export type { EmbedCode, EmbedOptions, FigureChangeDetail, PosnormFigureEventMap } from './core/base.js';

/** `<posnorm-properties>`: bounded, unique, relative, extrapolating. */
export declare class PosnormProperties extends PnFigure {
  /** attribute d-model, 4…256 even, default 64 */
  dModel: number;
  /** attribute seq-len, 2…200, default 50 */
  seqLen: number;
  /** attribute base, 100…100000, default 10000 */
  base: number;
  /** attribute k, 1…50, default 5 */
  k: number;
  /** attribute pos, 0…200, default 10 */
  pos: number;
  /** attribute train-len, 10…100, default 40 */
  trainLen: number;
  readonly result: {
    min: number; max: number; closest: { distance: number; i: number; j: number };
    maxShiftError: number; rotation: [[number, number], [number, number]]; shifted: Float32Array; ahead: Float32Array;
    /** the pairs whose rotation R(k) the figure shows: pair i, sin kω_i and cos kω_i */
    blocks: { i: number; sin: number; cos: number }[];
  } | undefined;
}
declare global { interface HTMLElementTagNameMap { 'posnorm-properties': PosnormProperties } }
