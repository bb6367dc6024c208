import type { Posnorm } from '../../../src/js/posnorm.js';

/** The `detail` of `posnorm-change`: a control changed (after the figure settled on the page). */
export interface FigureChangeDetail {
  /** The property name of the control, e.g. 'dModel'. */
  name: string;
  value: number | string;
  /** What asked for the change; a control clamped by another's change carries that change's source. */
  source: 'user' | 'attribute' | 'property' | 'url';
}

/** Every event a posnorm figure fires (all bubble and cross shadow roots). */
export interface PosnormFigureEventMap extends HTMLElementEventMap {
  /** A control changed. */
  'posnorm-change': CustomEvent<FigureChangeDetail>;
  /** The first frame was drawn (`time`: performance.now()). */
  'posnorm-ready': CustomEvent<{ time: number }>;
  /** The figure cannot run (no WebAssembly, or the wasm failed to load); it shows its poster. */
  'posnorm-error': CustomEvent<{ error: Error; message: string }>;
  /** "Copy link" made a link. */
  'posnorm-share': CustomEvent<{ url: string }>;
  /** The heatmap cursor moved. */
  'posnorm-cursor': CustomEvent<{ pos: number; dim: number }>;
}

/** What every posnorm figure element has. */
export declare class PnFigure extends HTMLElement {
  /** Milliseconds each of the last renders took (kernel calls + drawing). */
  readonly renderTimes: number[];
  /** performance.now() when the first frame was drawn, once it was. */
  readonly firstFrameAt: number | undefined;
  /** The shared kernel instance, once started. */
  readonly pn: Posnorm | null;
  /** Resolves after the first frame; rejects where the figure cannot run (no WebAssembly). */
  readonly ready: Promise<void>;
  /** Every control's current value, by property name. */
  readonly values: Record<string, number | string>;
  /** URL parameter prefix for links (id or tag name; '' for plain names). */
  shareKey: string;
  /** A link to this page that restores the figure's controls. */
  shareUrl(): string;
  /** Copies shareUrl() to the clipboard (or shows it) and fires `posnorm-share`. */
  copyLink(): Promise<void>;
  /** Saves the pixels at devicePixelRatio as PNG. */
  downloadPng(): void;
  /** Saves the numbers behind the figure as CSV. */
  downloadCsv(): void;
  /** The numbers behind the figure as CSV text (the figure must be on the page and started). */
  toCsv(): string;
  /** The text alternative of the picture for the current values. */
  describe(): string;
  /** Schedules a repaint (only while on the page). */
  invalidate(): void;

  addEventListener<K extends keyof PosnormFigureEventMap>(type: K, listener: (this: PnFigure, ev: PosnormFigureEventMap[K]) => unknown, options?: boolean | AddEventListenerOptions): void;
  addEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: boolean | AddEventListenerOptions): void;
  removeEventListener<K extends keyof PosnormFigureEventMap>(type: K, listener: (this: PnFigure, ev: PosnormFigureEventMap[K]) => unknown, options?: boolean | EventListenerOptions): void;
  removeEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: boolean | EventListenerOptions): void;
}
