import { PnFigure } from './core/base.js';
export { configure } from './core/runtime.js';
export type { EmbedCode, EmbedOptions, FigureChangeDetail, PosnormFigureEventMap } from './core/base.js';

/** `<posnorm-heatmap>`: the PE matrix with an exact-value cursor. */
export declare class PosnormHeatmap extends PnFigure {
  /** attribute d-model, 2…1024, default 64 */
  dModel: number;
  /** attribute seq-len, 1…2048, default 30 */
  seqLen: number;
  /** attribute base, 100…100000, default 10000 */
  base: number;
  /** attribute layout, default 'interleaved' */
  layout: 'interleaved' | 'concat';
  /** The cursor's cell (frozen). Setting it is moveCursor(pos, dim): rounded, clamped, a posnorm-cursor event; a value that is not an object is ignored. */
  get cursor(): { readonly pos: number; readonly dim: number };
  set cursor(v: { pos: number | string; dim: number | string });
  moveCursor(pos: number, dim: number): void;
  /** The value under the cursor. */
  readonly readout: { pos: number; dim: number; value: number; fn: 'sin' | 'cos'; i: number; wavelength: number; /** value and wavelength as the readout writes them */ text: string; wavelengthText: string } | undefined;
}

declare global {
  interface HTMLElementTagNameMap { 'posnorm-heatmap': PosnormHeatmap }
}
