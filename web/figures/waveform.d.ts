import { PnFigure } from './core/base.js';
export { configure } from './core/runtime.js';
export type { EmbedCode, EmbedOptions, FigureChangeDetail, PosnormFigureEventMap } from './core/base.js';

interface PairValues { i: number; sin: number; cos: number; wavelength: number }

/** `<posnorm-waveform>`: sin and cos of pair i against position, beside pair 0. */
export declare class PosnormWaveform extends PnFigure {
  /** attribute i, 0…dModel/2 − 1, default 4 */
  i: number;
  /** attribute pos, 0…100, default 10 */
  pos: number;
  /** attribute d-model, 2…1024 (even), default 64 */
  dModel: number;
  /** attribute base, 100…100000, default 10000 */
  base: number;
  /** The curves' values at the marker. */
  readonly readout: { pos: number; ref: PairValues; sel: PairValues } | undefined;
}

declare global {
  interface HTMLElementTagNameMap { 'posnorm-waveform': PosnormWaveform }
}
