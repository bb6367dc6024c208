// base.js — a posnorm figure's life on a page. It builds its shadow DOM
// when first connected, starts when it comes near the viewport (the page's
// shared wasm instance and the figure's language, together), draws after
// every change, holds wasm memory only while it is on the page, and gives
// its pictures their text alternative.
//
// What every figure also does is done by controllers, in the manner of
// Lit's reactive controllers: objects that follow the figure's life through
// hostConnected() and hostDisconnected() (addController) and ask it to draw
// with invalidate(). The base composes
//   RenderScheduler (scheduler.js)    when it draws, how long it took, the first frame
//   LanguageController (language.js)  its labels in its language
//   ToolbarController (toolbar.js)    "Copy link", "Download PNG", "Download CSV", "Embed"
//   PosterController (poster.js)      a message while it starts, the poster where it cannot run
//   ControlsForm (form.js)            the native inputs of its controls
// and a figure may compose its own (draw/pe-error.js).
//
// A figure subclass declares `static controls` (controls.js), optionally
// `static css`, and implements
//   buildBody(figure)  — add its canvas(es) and readouts (once),
//   render()           — compute with this.pn and draw (every change),
//   describe()         — the text alternative of its picture, from its values,
//   csv()              — the numbers behind the picture (toCsv() draws a
//                        pending change first, then asks csv()),
//   buildExtraControls(form) — add its buttons (addButton; optional).
import { PnElement, emit } from './element.js';
import { ControlsForm } from './form.js';
import { FigureBuffers, FigureScratch } from './buffers.js';
import { refreshWidth, whenNearViewport } from './observers.js';
import { LanguageController } from './language.js';
import { PosterController } from './poster.js';
import { RenderScheduler } from './scheduler.js';
import { ToolbarController } from './toolbar.js';
import { defaultShareKey, restoreFromUrl, shareUrl } from './share.js';
import { embedCode } from './embed.js';
import { FIGURE_CSS, adoptStyles, restyle } from './style.js';
import { getPosnorm } from './runtime.js';

/** How long a figure that cannot run waits for its strings before `ready` rejects and posnorm-error fires (ms). */
const FAIL_STRINGS_WAIT_MS = 1000;

export class PnFigure extends PnElement {
  constructor() {
    super();
    /** wasm buffers this figure owns; freed when it leaves the page. */
    this.buffers = new FigureBuffers();
    /** plain arrays reused across repaints (core/buffers.js); dropped when it leaves. */
    this.scratch = new FigureScratch();
    /** The shared kernel instance, once started. */
    this.pn = null;
    this._controllers = new Set();
    this._scheduler = new RenderScheduler(this);
    this._language = new LanguageController(this, () => {
      this._describePictures();
      this._toolbar.relabelled();
      this.invalidate();
    });
    this.addController(this._language);
    this._toolbar = new ToolbarController(this);
    this._poster = new PosterController(this);
    this._form = new ControlsForm(this);
    this._built = false;
    this._started = false;
    /** Whether the controllers follow a page now (between connecting to one and leaving it). */
    this._here = false;
  }

  /** Adds a controller: its hostConnected() and hostDisconnected() follow the figure's. */
  addController(controller) {
    this._controllers.add(controller);
    // one added after the figure connected hears of it now; one added while
    // it builds (buildBody) hears it from connectedCallback, once
    if (this._built && this._here && !this._building) controller.hostConnected?.();
  }

  removeController(controller) {
    this._controllers.delete(controller);
  }

  /** The language of the labels: own lang, an ancestor's, or 'ko'. */
  get language() { return this._language.lang; }

  /** The strings of that language. */
  get t() { return this._language.strings; }

  /** Resolves after the first frame; rejects where the figure cannot run. */
  get ready() { return this._scheduler.firstFrame; }

  /** Milliseconds each of the last renders took (compute + draw). */
  get renderTimes() { return this._scheduler.times; }

  /** performance.now() at the end of the first frame. */
  get firstFrameAt() { return this._scheduler.firstFrameAt; }

  /**
   * Whether the figure is on a page: connected to a document that has a
   * window. One made by document.implementation.createHTMLDocument() or
   * DOMParser has none, and an iframe's loses its window when the iframe is
   * removed, with no disconnectedCallback for what is in it: a figure there
   * is shown nowhere, so it draws nothing and holds no wasm memory (it drew,
   * took 16 MB anew at the heatmap's largest sizes and ran its error line
   * there, and in a removed iframe's document kept it all for good).
   */
  get onPage() { return this.isConnected && Boolean(this.ownerDocument.defaultView); }

  connectedCallback() {
    // in a document without a window it stays as it was off the page
    if (!this.ownerDocument.defaultView) return;
    if (!this._built) {
      this._building = true;
      try {
        this._build();
      } finally {
        this._building = false;
      }
    } else {
      restyle(this.shadowRoot); // its sheets, if it comes from another document
    }
    this.settle();
    this._here = true;
    for (const c of this._controllers) c.hostConnected?.();
    this._watchWindow();
    if (this._started || this._failing) return;
    if (typeof WebAssembly !== 'object') {
      this._fail(new Error('posnorm: this browser has no WebAssembly'));
      return;
    }
    this._cancelStart = whenNearViewport(this, () => this._start());
  }

  disconnectedCallback() {
    this._leave();
  }

  /**
   * In another window's document (an iframe's), the figure leaves the page
   * when that document goes (the iframe removed or navigated): `pagehide`,
   * not persisted, is the last the figure hears of it. Its own window's
   * pages end with the figure.
   */
  _watchWindow() {
    const view = this.ownerDocument.defaultView;
    if (view === globalThis) return;
    const onHide = (event) => {
      if (!event.persisted) this._leave();
    };
    view.addEventListener('pagehide', onHide);
    this._stopWatch = () => view.removeEventListener('pagehide', onHide);
  }

  /** Off the page (once per arrival): nothing drawn or computed, every buffer freed. */
  _leave() {
    if (!this._here) return;
    this._here = false;
    this._stopWatch?.();
    this._stopWatch = null;
    this._cancelStart?.();
    for (const c of this._controllers) c.hostDisconnected?.();
    this.buffers.clear();
    this.scratch.clear();
  }

  async _start() {
    if (this._started) return;
    this._started = true;
    try {
      // the figure's language (if not Korean) loads with the wasm, so its first frame is labelled
      [this.pn] = await Promise.all([getPosnorm(), this._language.load()]);
    } catch (error) {
      this._fail(error);
      return;
    }
    this._poster.started();
    // the first frame is drawn at once, to be painted with the page's next frame
    if (this.onPage && this.firstFrameAt === undefined) this.renderNow();
    else this.invalidate();
  }

  /**
   * No WebAssembly, or its module failed to load: the poster and a message
   * saying which, at once (the message is marked with its key, so it is
   * relabelled when the figure's strings arrive: a refusal can come before
   * the English ones); `ready` rejects and posnorm-error fires once those
   * strings are in, so that the event's message is in the figure's
   * language, or after FAIL_STRINGS_WAIT_MS, so that a strings file that
   * never comes does not hold them back.
   */
  _fail(error) {
    if (this._failing) return;
    this._failing = true;
    this._poster.show();
    const waited = new Promise((resolve) => setTimeout(resolve, FAIL_STRINGS_WAIT_MS));
    Promise.race([this._language.load(), waited]).then(() => {
      this._scheduler.abandon(error);
      emit(this, 'posnorm-error', { error, message: this.t[this._poster.messageKey] });
    });
  }

  _build() {
    this._built = true;
    const root = this.shadowRoot ?? this.attachShadow({ mode: 'open' });
    adoptStyles(root, FIGURE_CSS, this.constructor.css);
    const figure = document.createElement('figure');
    figure.setAttribute('part', 'figure');
    const { box, message } = this._poster.build();
    figure.append(box);
    this.buildBody(figure);
    const form = this._form.build();
    this.buildExtraControls?.(form);
    figure.append(form, this._toolbar.build(), message);
    root.append(figure);
    restoreFromUrl(this);
    this.controlsChanged();
    this._language.relabel();
    this._language.load();
  }

  /**
   * `length` values of the wasm buffer kept under `name` (FigureBuffers:
   * the buffer or a subarray of it; made anew only when it is missing,
   * freed, shorter or of another type). Only while the figure is on the page and started.
   */
  buffer(name, length, type = 'f32') {
    if (!this.onPage || !this.pn) {
      throw new Error(`${this.localName}: wasm buffers exist only while the figure is on the page and started`);
    }
    return this.buffers.get(this.pn, name, length, type);
  }

  /** Called by the element core after each batch of control changes. */
  controlsChanged() {
    if (!this._built) return;
    this._form.sync(this.values);
    this._describePictures();
    this.invalidate();
  }

  languageChanged() {
    this._language.refresh();
  }

  /** Adds a button (labelled by string `key`) to the controls; returns it. */
  addButton(key, onClick) { return this._form.addButton(key, onClick); }

  /**
   * Gives every canvas the text alternative of the picture, describe(), from
   * the moment it is built; a canvas marked data-panel="KEY" shows a part of
   * it, named by string KEY after the text.
   */
  _describePictures() {
    const text = this.describe?.();
    if (!text) return;
    for (const c of this.shadowRoot.querySelectorAll('canvas[role=img]')) {
      c.setAttribute('aria-label', c.dataset.panel ? `${text} (${this.t[c.dataset.panel]})` : text);
    }
  }

  // ---- drawing (RenderScheduler) ------------------------------------------

  /** Schedules one render for the next animation frame (only on the page). */
  invalidate() { this._scheduler.request(); }

  /** Renders synchronously and logs how long it took. */
  renderNow() {
    // a synchronous render reads its canvases' widths afresh (core/observers.js)
    for (const canvas of this.shadowRoot?.querySelectorAll('canvas') ?? []) refreshWidth(canvas);
    this._scheduler.now();
  }

  /** The current value of a CSS custom property of this figure. */
  color(name) {
    return (this._scheduler.style ?? getComputedStyle(this)).getPropertyValue(name).trim() || '#888';
  }

  // ---- links and downloads (ToolbarController) ---------------------------

  /**
   * The prefix of this figure's parameters in a page URL: its id, else its
   * tag name, numbered from the second figure of its kind without an id
   * ("fig-a1.d-model=128", "posnorm-heatmap-2.d-model=128"; share.js). Set
   * `shareKey = ''` for a page that holds one figure and uses plain names
   * ("d-model=128").
   */
  get shareKey() { return this._shareKey ?? (this.id || defaultShareKey(this)); }
  set shareKey(v) { this._shareKey = String(v); }

  /** A link to the current page that restores this figure's controls. */
  shareUrl() { return shareUrl(this); }

  /** Copies shareUrl() (or shows it) and fires `posnorm-share`. */
  copyLink() { return this._toolbar.copyLink(); }

  /** Saves the figure's pixels (at devicePixelRatio) as a PNG file. */
  downloadPng() { this._toolbar.downloadPng(); }

  /**
   * The numbers behind the figure as CSV text, for its current values: a
   * change not yet drawn (a property set in this task, a frame not yet
   * come) is drawn first, so a script that sets a value and asks at once
   * gets that value's numbers (six figures gave the previous state's
   * before). Such a change is then drawn once more in its own frame. The
   * figure must be on the page and started. Figures implement csv().
   */
  toCsv() {
    // the values are read afresh (element.js), so the pending batch need
    // not be applied here: it runs in its microtask as always, and its
    // events keep their order (a listener may call toCsv() too)
    if (this._queued) this.invalidate();
    this._scheduler.flush();
    return this.csv();
  }

  /** Saves the numbers behind the figure (this.toCsv()) as a CSV file. */
  downloadCsv() { this._toolbar.downloadCsv(); }

  /**
   * The snippets that reproduce this figure, in its current state and
   * language, on another page: { element, iframe, markdown, html }
   * (core/embed.js). `base` is the host they point at; `picture` where the
   * still picture is. The figure must be on the page and started.
   */
  embedCode(options) { return embedCode(this, options); }

  /** Opens the Embed dialog (its code loads on first use); resolves once it is open. */
  showEmbed() { return this._toolbar.showEmbed(); }
}
