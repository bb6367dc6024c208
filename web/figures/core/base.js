// base.js — a posnorm figure's life on a page: it builds its shadow DOM
// when first connected, starts computing when it comes near the viewport,
// repaints at most once per animation frame after a change, holds wasm
// memory only while it is on the page, and falls back to its poster where
// it cannot run.
//
// A figure subclass declares `static controls` (controls.js) and implements
//   buildBody(figure)  — add its canvas(es) and readouts (once),
//   render()           — compute with this.pn and draw (every change),
//   describe()         — the text alternative of its picture, from its values,
//   relabel()          — update texts that depend on the language (optional).
import { PnElement, emit } from './element.js';
import { buildControl, syncControl } from './controls.js';
import { FigureBuffers } from './buffers.js';
import { onResize, whenNearViewport } from './observers.js';
import { ensureLanguage, languageOf, stringsFor } from './language.js';
import { copyLink, restoreFromUrl, shareUrl } from './share.js';
import { fileStem, joinCanvases, saveBlob } from './download.js';
import { buildToolbar } from './toolbar.js';
import { createPlot, createReadout, fitCanvas } from '../draw/canvas.js';
import { FIGURE_CSS, adoptStyles } from './style.js';
import { buildPoster, showPoster } from './poster.js';
import { getPosnorm } from './runtime.js';

export { fmt, ticks } from '../draw/format.js';

let uid = 0;

export class PnFigure extends PnElement {
  constructor() {
    super();
    /** Milliseconds each of the last renders took (compute + draw). */
    this.renderTimes = [];
    /** performance.now() at the end of the first frame. */
    this.firstFrameAt = undefined;
    /** wasm buffers this figure owns; freed when it leaves the page. */
    this.buffers = new FigureBuffers();
    this.pn = null;
    this._inputs = new Map();
    this._built = false;
    this._started = false;
    this._failed = false;
    this._frame = 0;
    this._ready = new Promise((resolve, reject) => {
      this._resolveReady = resolve;
      this._rejectReady = reject;
    });
    this._ready.catch(() => {}); // a page that never awaits `ready` gets no unhandled rejection
  }

  /** The language of the labels: own lang, an ancestor's, or 'ko'. */
  get language() { return languageOf(this); }

  get t() { return stringsFor(this); }

  /** Resolves after the first frame; rejects where the figure cannot run. */
  get ready() { return this._ready; }

  connectedCallback() {
    if (!this._built) this._build();
    this.settle();
    this._stopResize = onResize(this._figure, () => this.invalidate());
    if (this._failed) return;
    if (this._started) {
      this.invalidate();
      return;
    }
    if (typeof WebAssembly !== 'object') {
      this._fail(new Error('posnorm: this browser has no WebAssembly'));
      return;
    }
    this._cancelStart = whenNearViewport(this, () => this._start());
  }

  disconnectedCallback() {
    this._stopResize?.();
    this._cancelStart?.();
    if (this._frame) cancelAnimationFrame(this._frame);
    this._frame = 0;
    this.buffers.clear();
  }

  /**
   * The wasm buffer kept under `name` (made anew when its length or type
   * changes). Only while the figure is on the page and started.
   */
  buffer(name, length, type = 'f32') {
    if (!this.isConnected || !this.pn) {
      throw new Error(`${this.localName}: wasm buffers exist only while the figure is on the page and started`);
    }
    return this.buffers.get(this.pn, name, length, type);
  }

  async _start() {
    if (this._started) return;
    this._started = true;
    try {
      // the figure's language (if not Korean) loads with the wasm, so its first frame is labelled
      [this.pn] = await Promise.all([getPosnorm(), ensureLanguage(this, () => this._relabelAll())]);
    } catch (error) {
      this._fail(error);
      return;
    }
    this._message.hidden = true;
    // the first frame is drawn at once, to be painted with the page's next frame
    if (this.isConnected && this.firstFrameAt === undefined) this.renderNow();
    else this.invalidate();
  }

  /** No WebAssembly (or it failed to load): poster and message, no controls. */
  _fail(error) {
    this._failed = true;
    for (const el of [this._form, this._toolbar, ...this._figure.querySelectorAll('.plot, .readout, .hint, .steps, table, .tokens')]) el.hidden = true;
    showPoster(this._poster, this, this.language, this.describe?.() ?? '');
    this._message.dataset.key = 'wasmMissing';
    this._message.textContent = this.t.wasmMissing;
    this._message.hidden = false;
    this._rejectReady(error);
    emit(this, 'posnorm-error', { error, message: this.t.wasmMissing });
  }

  // ---- controls ---------------------------------------------------------

  /** Called by the core after each batch of control changes. */
  controlsChanged() {
    if (!this._built) return;
    const values = this.values;
    for (const c of this.constructor.controls) {
      const entry = this._inputs.get(c.prop);
      if (entry) syncControl(this, c, entry, values[c.prop]);
    }
    this._describeCanvases();
    this.invalidate();
  }

  languageChanged() {
    if (!this._built) return;
    this._relabelAll();
    ensureLanguage(this, () => this._relabelAll());
  }

  /** Adds a button to the controls; returns it. */
  addButton(key, onClick) {
    const button = document.createElement('button');
    button.type = 'button';
    button.dataset.key = key;
    button.addEventListener('click', onClick);
    const wrap = document.createElement('div');
    wrap.className = 'control';
    wrap.append(button);
    this._form.append(wrap);
    return button;
  }

  _build() {
    this._built = true;
    const root = this.shadowRoot ?? this.attachShadow({ mode: 'open' });
    adoptStyles(root, FIGURE_CSS, this.constructor.css);
    const figure = document.createElement('figure');
    figure.setAttribute('part', 'figure');
    this._figure = figure;
    this._poster = buildPoster();
    this._message = document.createElement('p');
    this._message.className = 'message';
    this._message.setAttribute('part', 'message');
    this._message.setAttribute('role', 'status');
    this._message.dataset.key = 'loading';
    figure.append(this._poster);
    this.buildBody(figure);
    const form = document.createElement('form');
    form.className = 'controls';
    form.setAttribute('part', 'controls');
    form.addEventListener('submit', (e) => e.preventDefault());
    this._form = form;
    for (const c of this.constructor.controls) {
      if (c.hidden) continue;
      const entry = buildControl(c, `pn-${++uid}-${c.prop}`, (value) => this.request(c.prop, value, 'user'));
      form.append(entry.wrap);
      this._inputs.set(c.prop, entry);
    }
    this.buildExtraControls?.(form);
    const { bar, status } = buildToolbar({
      copyLink: () => this.copyLink(),
      downloadPng: () => this.downloadPng(),
      downloadCsv: () => this.downloadCsv(),
    });
    this._toolbar = bar;
    this._status = status;
    figure.append(form, bar, this._message);
    root.append(figure);
    restoreFromUrl(this);
    this.controlsChanged();
    this._relabelAll();
    ensureLanguage(this, () => this._relabelAll());
  }

  /** Gives every picture its text alternative (also before the first frame). */
  _describeCanvases() {
    const text = this.describe?.();
    if (!text) return;
    for (const c of this.shadowRoot.querySelectorAll('canvas[role=img]')) {
      if (!c.dataset.ownLabel) c.setAttribute('aria-label', text);
    }
  }

  _relabelAll() {
    const t = this.t;
    for (const el of this.shadowRoot.querySelectorAll('[data-key]')) {
      const s = t[el.dataset.key];
      if (typeof s === 'string') el.textContent = s;
    }
    for (const el of this.shadowRoot.querySelectorAll('[data-key-label]')) el.setAttribute('aria-label', t[el.dataset.keyLabel]);
    this.relabel?.();
    this._describeCanvases();
    this.invalidate();
  }

  // ---- links and downloads ------------------------------------------------

  /**
   * The prefix of this figure's parameters in a page URL: its id, else its
   * tag name ("fig-a1.d-model=128"). Set `shareKey = ''` for a page that
   * holds one figure and uses plain names ("d-model=128").
   */
  get shareKey() { return this._shareKey ?? (this.id || this.localName); }
  set shareKey(v) { this._shareKey = String(v); }

  /** A link to the current page that restores this figure's controls. */
  shareUrl() { return shareUrl(this); }

  /** Copies shareUrl() (or shows it) and fires `posnorm-share`. */
  async copyLink() {
    const url = await copyLink(this, this._status, this.t);
    emit(this, 'posnorm-share', { url });
  }

  /** The canvas a PNG is made of (several canvases are laid side by side). */
  exportCanvas() { return joinCanvases(this.shadowRoot, this.color('--pn-bg')); }

  /** File name stem for downloads: the tag name and the controls. */
  fileStem() { return fileStem(this); }

  /** Saves the figure's pixels (at devicePixelRatio) as a PNG file. */
  downloadPng() {
    if (!this.pn || !this.isConnected) return;
    this.renderNow();
    this.exportCanvas().toBlob((blob) => saveBlob(this.shadowRoot, blob, `${this.fileStem()}.png`), 'image/png');
  }

  /** Saves the numbers behind the figure (this.toCsv()) as a CSV file. */
  downloadCsv() {
    if (!this.pn || !this.isConnected) return;
    this.renderNow();
    saveBlob(this.shadowRoot, new Blob([this.toCsv()], { type: 'text/csv' }), `${this.fileStem()}.csv`);
  }

  // ---- drawing ----------------------------------------------------------

  /** Schedules one render for the next animation frame (only on the page). */
  invalidate() {
    if (!this._started || !this.pn || !this.isConnected || this._frame) return;
    this._frame = requestAnimationFrame(() => {
      this._frame = 0;
      this.renderNow();
    });
  }

  /** Renders synchronously and logs how long it took. */
  renderNow() {
    if (!this.pn || !this.isConnected) return;
    const t0 = performance.now();
    this._style = getComputedStyle(this); // read by color() for this frame
    this.render();
    const t1 = performance.now();
    this.renderTimes.push(t1 - t0);
    if (this.renderTimes.length > 200) this.renderTimes.shift();
    if (this.firstFrameAt === undefined) {
      this.firstFrameAt = t1;
      this._resolveReady();
      emit(this, 'posnorm-ready', { time: t1 });
    }
  }

  /**
   * The default body: one canvas and one readout below it (an `ol.steps`
   * when the subclass sets `static readoutList = true`).
   */
  buildBody(figure) {
    const { plot, canvas } = this.createPlot();
    this.canvas = canvas;
    this._readoutEl = this.createReadout(this.constructor.readoutList ? 'ol' : 'div');
    if (this.constructor.readoutList) this._readoutEl.classList.add('steps');
    figure.append(plot, this._readoutEl);
  }

  createPlot(options) { return createPlot(options); }

  createReadout(tag, live) { return createReadout(tag, live); }

  fitCanvas(canvas, cssHeight) { return fitCanvas(canvas, cssHeight, this._figure.clientWidth || 300); }

  /** The current value of a CSS custom property of this figure. */
  color(name) {
    return (this._style ?? getComputedStyle(this)).getPropertyValue(name).trim() || '#888';
  }
}
