import type { Posnorm } from '../../src/js/posnorm.js';

/** The `detail` of the `change` event every figure fires. */
export interface FigureChangeDetail {
  name: string;
  value: number | string;
  source: 'user' | 'attribute' | 'property';
}

/** What every posnorm figure element has. */
export declare class PnFigure extends HTMLElement {
  /** Milliseconds each of the last renders took (kernel calls + drawing). */
  readonly renderTimes: number[];
  /** The shared kernel instance, once started. */
  readonly pn: Posnorm | null;
  /** Resolves after the first frame. */
  readonly ready: Promise<void>;
  /** URL parameter prefix for links (id or tag name; '' for plain names). */
  shareKey: string;
  /** A link to this page that restores the figure's controls. */
  shareUrl(): string;
  /** Copies shareUrl() to the clipboard (or shows it) and fires `share`. */
  copyLink(): Promise<void>;
  /** Saves the pixels at devicePixelRatio as PNG. */
  downloadPng(): void;
  /** Saves the numbers behind the figure as CSV. */
  downloadCsv(): void;
  /** The numbers behind the figure as CSV text. */
  toCsv(): string;
  /** Schedules a repaint. */
  invalidate(): void;
}
