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
export interface PosnormFigureEventMap extends HTMLElementEventMap, PosnormFigureEvents {}

declare global {
  /** The figures' events bubble and cross shadow roots: typed on every element and on document and window too (`document.addEventListener('posnorm-change', …)`). */
  interface GlobalEventHandlersEventMap extends PosnormFigureEvents {}
}

/** The events themselves (see PosnormFigureEventMap). */
export interface PosnormFigureEvents {
  /** A control changed. */
  'posnorm-change': CustomEvent<FigureChangeDetail>;
  /** The first frame was drawn (`time`: performance.now()). */
  'posnorm-ready': CustomEvent<{ time: number }>;
  /** The figure cannot run (no WebAssembly, or the wasm failed to load; it shows its poster), or a background readout failed (the PE error line, depth's gradients; the figure runs on and says so). */
  'posnorm-error': CustomEvent<{ error: Error; message: string }>;
  /** "Copy link" made a link. */
  'posnorm-share': CustomEvent<{ url: string }>;
  /** The heatmap cursor moved. */
  'posnorm-cursor': CustomEvent<{ pos: number; dim: number }>;
}

/** What el.embedCode() returns: snippets that reproduce the figure, in its current state and language, elsewhere. */
export interface EmbedCode {
  /** For pages that allow scripts: the stylesheet <link>, the module <script>, and the element with every control as an attribute and its still picture as slot="poster". */
  element: string;
  /** For pages that allow only iframes: figure.html with the state in its query, sandbox="allow-scripts", a title, and a script that fits the frame's height. */
  iframe: string;
  /** For places that run nothing: the still picture as a Markdown image linking to the live figure in this state. */
  markdown: string;
  /** The same as HTML: <a href="live figure"><img …></a>. */
  html: string;
  /** The element through the package's Hugo shortcode (integrations/hugo): {{< posnorm fig="…" … >}}. */
  hugo: string;
  /** The element through the package's Jekyll include (integrations/jekyll): {% include posnorm.html fig="…" … %}. */
  jekyll: string;
}

/** Options of el.embedCode(). */
export interface EmbedOptions {
  /** The host the snippets point at: an absolute http(s) URL of the folder that holds web/ and build/. Default: configure({ embedBase }), else where the figure's module was loaded from. */
  base?: string | URL;
  /** Where the still picture is (after it was uploaded). Default: its file name, the name "Download picture" saves it under. */
  picture?: string;
}

/** What every posnorm figure element has. */
export declare class PnFigure extends HTMLElement {
  /** Milliseconds each of the last renders took (kernel calls + drawing). */
  readonly renderTimes: number[];
  /** performance.now() when the first frame was drawn, once it was. */
  readonly firstFrameAt: number | undefined;
  /** The shared kernel instance, once started. Its `ropeFromConfig` works once the page imports 'posnorm' itself (the figures load the API without the config reader; the call says so). */
  readonly pn: Posnorm | null;
  /** Resolves after the first frame; rejects where the figure cannot run (no WebAssembly). A figure's numbers (`result`; heatmap's and waveform's `readout`, ln-simulator's `stats`) and inputs (`inputs`) are undefined until then. */
  readonly ready: Promise<void>;
  /** Whether it is on a page: connected to a document that has a window (not one made by createHTMLDocument, nor a removed iframe's); only then does it draw and hold wasm memory. */
  readonly onPage: boolean;
  /** Every control's current value, by property name. */
  readonly values: Record<string, number | string>;
  /** URL parameter prefix for links (id, else tag name, numbered from the second figure of its kind without an id: TAG-2; '' for plain names). */
  shareKey: string;
  /** A link to this page that restores the figure's controls. */
  shareUrl(): string;
  /** Copies shareUrl() to the clipboard (or shows it) and fires `posnorm-share`. */
  copyLink(): Promise<void>;
  /** Saves the pixels at devicePixelRatio as PNG. */
  downloadPng(): void;
  /** Saves the numbers behind the figure as CSV. */
  downloadCsv(): void;
  /**
   * Snippets that reproduce the figure as it is now on another page; the
   * figure must be on the page and started. Throws a TypeError naming
   * `base` when it is not an absolute http(s) URL.
   */
  embedCode(options?: EmbedOptions): EmbedCode;
  /** Opens the Embed dialog (its code loads on first use); resolves once it is open. */
  showEmbed(): Promise<void>;
  /** The numbers behind the figure as CSV text, for its current values (a change not yet drawn is drawn first; the figure must be on the page and started). */
  toCsv(): string;
  /** A figure's own CSV of what it last drew; implemented by each figure, called by toCsv(). */
  protected csv(): string;
  /** The text alternative of the picture for the current values. */
  describe(): string;
  /** Schedules a repaint (only while on the page). */
  invalidate(): void;

  addEventListener<K extends keyof PosnormFigureEventMap>(type: K, listener: (this: PnFigure, ev: PosnormFigureEventMap[K]) => unknown, options?: boolean | AddEventListenerOptions): void;
  addEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: boolean | AddEventListenerOptions): void;
  removeEventListener<K extends keyof PosnormFigureEventMap>(type: K, listener: (this: PnFigure, ev: PosnormFigureEventMap[K]) => unknown, options?: boolean | EventListenerOptions): void;
  removeEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: boolean | EventListenerOptions): void;
}
