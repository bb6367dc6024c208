// base.js — what every posnorm figure shares: controls that are attributes
// and properties at once, lazy start, resizing, drawing at devicePixelRatio,
// language, events and the frame-time log.
//
// A figure subclass declares `static controls` and implements
//   buildBody(figure)  — add its canvas(es) and readouts (once),
//   render()           — compute with this.pn and draw (every change),
//   relabel()          — update texts that depend on the language (optional).
import { strings } from '../i18n.js';
import { getPosnorm } from './runtime.js';
import { FIGURE_CSS } from './style.js';

let uid = 0;

/**
 * Control kinds:
 *   int / float: a range slider over [min, max] by step
 *   log:  a slider over log10 of the value; `round` rounds the value
 *   choice: a <select> over `choices` (labelled by choiceLabels[choice] or
 *           the choice itself as a string key)
 * Each has prop (camelCase property), attr (attribute), label (string key),
 * def (default). `max` may be a function of the figure (a dependent range).
 */
export class PnFigure extends HTMLElement {
  static controls = [];

  static get observedAttributes() {
    return [...this.controls.map((c) => c.attr), 'lang'];
  }

  /** Defines a property per control on the subclass prototype. */
  static define(tag) {
    for (const c of this.controls) {
      Object.defineProperty(this.prototype, c.prop, {
        get() { return this._values[c.prop]; },
        set(v) { this._set(c.prop, v, 'property'); },
        configurable: true,
      });
    }
    if (!customElements.get(tag)) customElements.define(tag, this);
  }

  constructor() {
    super();
    this.attachShadow({ mode: 'open' });
    this._values = {};
    for (const c of this.constructor.controls) this._values[c.prop] = c.def;
    this._inputs = new Map();
    this._built = false;
    this._started = false;
    this._frameRequested = false;
    this._reflecting = false;
    /** Milliseconds each of the last renders took (compute + draw). */
    this.renderTimes = [];
    /** wasm buffers this figure owns; freed when it leaves the page. */
    this.buffers = new Set();
    this.pn = null;
  }

  /** The language of the labels: own lang, an ancestor's, or 'ko'. */
  get language() {
    const el = this.closest('[lang]');
    const lang = (el?.getAttribute('lang') || document.documentElement.lang || 'ko').slice(0, 2);
    return lang === 'en' ? 'en' : 'ko';
  }

  get t() { return strings(this.language); }

  connectedCallback() {
    if (!this._built) this._build();
    this._resize = new ResizeObserver(() => this.invalidate());
    this._resize.observe(this._figure);
    if (this._started) return;
    if (typeof WebAssembly !== 'object') {
      this._showMessage('wasmMissing');
      return;
    }
    if ('IntersectionObserver' in window) {
      this._visible = new IntersectionObserver((entries) => {
        if (entries.some((e) => e.isIntersecting)) {
          this._visible.disconnect();
          this._start();
        }
      }, { rootMargin: '300px 0px' });
      this._visible.observe(this);
    } else {
      this._start();
    }
  }

  disconnectedCallback() {
    this._resize?.disconnect();
    this._visible?.disconnect();
    for (const b of this.buffers) b.free();
    this.buffers.clear();
  }

  /** A wasm buffer of `length` values kept under `name` until it leaves the page. */
  buffer(name, length, type = 'f32') {
    this._named ??= new Map();
    let b = this._named.get(name);
    if (!b || b.freed || b.length !== length) {
      b?.free();
      b = this.pn.alloc(length, type);
      this._named.set(name, b);
      this.buffers.add(b);
    }
    return b;
  }

  attributeChangedCallback(name, _old, value) {
    if (name === 'lang') {
      if (this._built) this._relabelAll();
      return;
    }
    if (this._reflecting) return;
    const c = this.constructor.controls.find((k) => k.attr === name);
    if (c && value !== null) this._set(c.prop, value, 'attribute');
  }

  /** Resolves once the figure has computed its first frame. */
  get ready() {
    return this._readyPromise ??= new Promise((resolve) => { this._resolveReady = resolve; });
  }

  async _start() {
    this._started = true;
    try {
      this.pn = await getPosnorm();
    } catch {
      this._showMessage('wasmMissing');
      return;
    }
    this._message.hidden = true;
    this.invalidate();
  }

  _showMessage(key) {
    if (!this._built) this._build();
    this._message.dataset.key = key;
    this._message.textContent = this.t[key];
    this._message.hidden = false;
    this._figure.querySelector('.plot')?.setAttribute('hidden', '');
  }

  // ---- controls ---------------------------------------------------------

  _control(prop) { return this.constructor.controls.find((c) => c.prop === prop); }

  _bound(c, key) {
    const b = c[key];
    return typeof b === 'function' ? b(this) : b;
  }

  /** Parses, clamps and stores a control value; reflects and notifies. */
  _set(prop, raw, source) {
    const c = this._control(prop);
    let value;
    if (c.kind === 'choice') {
      value = c.choices.includes(raw) ? raw : c.def;
    } else {
      value = typeof raw === 'number' ? raw : Number(raw);
      if (!Number.isFinite(value)) value = c.def;
      const min = this._bound(c, 'min'), max = this._bound(c, 'max');
      value = Math.min(max, Math.max(min, value));
      if (c.kind === 'int') value = Math.round(value);
      if (c.round) value = c.round(value);
    }
    if (Object.is(value, this._values[prop]) && source !== 'init') return;
    this._values[prop] = value;
    this._reflect(c, value);
    this._syncInput(c);
    // a dependent range (e.g. i < d_model/2) may clamp another control
    for (const other of this.constructor.controls) {
      if (other !== c && typeof other.max === 'function') {
        const cur = this._values[other.prop];
        if (cur > other.max(this)) this._set(other.prop, other.max(this), source);
        else this._syncInput(other);
      }
    }
    if (source !== 'init') {
      this.dispatchEvent(new CustomEvent('change', { detail: { name: prop, value, source }, bubbles: true, composed: true }));
    }
    this.onControlChange?.(prop, value, source);
    this.invalidate();
  }

  _reflect(c, value) {
    const text = String(value);
    if (this.getAttribute(c.attr) === text) return;
    this._reflecting = true;
    this.setAttribute(c.attr, text);
    this._reflecting = false;
  }

  _format(c, value) {
    return c.format ? c.format(value) : String(value);
  }

  _syncInput(c) {
    const entry = this._inputs.get(c.prop);
    if (!entry) return;
    const value = this._values[c.prop];
    const { input, output } = entry;
    if (c.kind === 'choice') {
      input.value = value;
      return;
    }
    input.max = String(c.kind === 'log' ? Math.log10(this._bound(c, 'max')) : this._bound(c, 'max'));
    input.min = String(c.kind === 'log' ? Math.log10(this._bound(c, 'min')) : this._bound(c, 'min'));
    const pos = c.kind === 'log' ? Math.log10(value) : value;
    if (Number(input.value) !== pos) input.value = String(pos);
    const text = this._format(c, value);
    output.value = text;
    input.setAttribute('aria-valuetext', text);
  }

  _buildControl(c, form) {
    const id = `pn-${++uid}-${c.prop}`;
    const wrap = document.createElement('div');
    wrap.className = 'control';
    const label = document.createElement('label');
    label.htmlFor = id;
    label.dataset.key = c.label;
    wrap.append(label);
    let input;
    let output = null;
    if (c.kind === 'choice') {
      input = document.createElement('select');
      for (const choice of c.choices) {
        const opt = document.createElement('option');
        opt.value = choice;
        opt.dataset.key = c.choiceLabels?.[choice] ?? choice;
        input.append(opt);
      }
      input.addEventListener('change', () => this._set(c.prop, input.value, 'user'));
    } else {
      input = document.createElement('input');
      input.type = 'range';
      input.step = String(c.kind === 'log' ? (c.logStep ?? 0.01) : (c.step ?? 1));
      output = document.createElement('output');
      output.htmlFor = id;
      wrap.append(output);
      input.addEventListener('input', () => {
        const pos = Number(input.value);
        this._set(c.prop, c.kind === 'log' ? 10 ** pos : pos, 'user');
      });
    }
    input.id = id;
    input.name = c.prop;
    wrap.append(input);
    form.append(wrap);
    this._inputs.set(c.prop, { input, output, label });
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
    const style = document.createElement('style');
    style.textContent = FIGURE_CSS + (this.constructor.css ?? '');
    const figure = document.createElement('figure');
    figure.setAttribute('part', 'figure');
    this._figure = figure;
    this._message = document.createElement('p');
    this._message.className = 'message';
    this._message.setAttribute('part', 'message');
    this._message.dataset.key = 'loading';
    this.buildBody(figure);
    const form = document.createElement('form');
    form.className = 'controls';
    form.setAttribute('part', 'controls');
    form.addEventListener('submit', (e) => e.preventDefault());
    this._form = form;
    for (const c of this.constructor.controls) if (!c.hidden) this._buildControl(c, form);
    this.buildExtraControls?.(form);
    figure.append(form, this._buildToolbar(), this._message);
    this.shadowRoot.append(style, figure);
    this._restoreFromUrl();
    // attributes present before upgrade; dependent ranges last
    const order = [...this.constructor.controls].sort((a, b) => (typeof a.max === 'function') - (typeof b.max === 'function'));
    for (const c of order) {
      const a = this.getAttribute(c.attr);
      this._set(c.prop, a ?? this._values[c.prop], 'init');
    }
    this._relabelAll();
  }

  _relabelAll() {
    const t = this.t;
    for (const el of this.shadowRoot.querySelectorAll('[data-key]')) {
      const s = t[el.dataset.key];
      if (typeof s === 'string') el.textContent = s;
    }
    for (const el of this.shadowRoot.querySelectorAll('[data-key-label]')) el.setAttribute('aria-label', t[el.dataset.keyLabel]);
    this.relabel?.();
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

  _param(attr) { return this.shareKey ? `${this.shareKey}.${attr}` : attr; }

  _restoreFromUrl() {
    const params = new URLSearchParams(location.search);
    // only the attributes are written here; the caller then applies them in
    // dependency order (d-model before i)
    this._reflecting = true;
    for (const c of this.constructor.controls) {
      const v = params.get(this._param(c.attr));
      if (v !== null) this.setAttribute(c.attr, v);
    }
    this._reflecting = false;
  }

  /** A link to the current page that restores this figure's controls. */
  shareUrl() {
    const url = new URL(location.href);
    for (const c of this.constructor.controls) url.searchParams.set(this._param(c.attr), String(this._values[c.prop]));
    if (this.id) url.hash = this.id;
    return url.href;
  }

  /** The canvas a PNG is made of (several canvases are laid side by side). */
  exportCanvas() {
    const canvases = [...this.shadowRoot.querySelectorAll('canvas')];
    if (canvases.length === 1) return canvases[0];
    const out = document.createElement('canvas');
    out.width = canvases.reduce((w, c) => w + c.width, 0);
    out.height = Math.max(...canvases.map((c) => c.height));
    const ctx = out.getContext('2d');
    ctx.fillStyle = this.color('--pn-bg');
    ctx.fillRect(0, 0, out.width, out.height);
    let x = 0;
    for (const c of canvases) {
      ctx.drawImage(c, x, 0);
      x += c.width;
    }
    return out;
  }

  /** File name stem for downloads: the tag name and the controls. */
  fileStem() {
    return [this.localName, ...this.constructor.controls.filter((c) => !c.hidden).map((c) => `${c.attr}-${this._values[c.prop]}`)].join('_');
  }

  _download(blob, name) {
    const a = document.createElement('a');
    a.href = URL.createObjectURL(blob);
    a.download = name;
    this.shadowRoot.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 10000);
  }

  /** Saves the figure's pixels (at devicePixelRatio) as a PNG file. */
  downloadPng() {
    if (!this.pn) return;
    this.renderNow();
    this.exportCanvas().toBlob((blob) => this._download(blob, `${this.fileStem()}.png`), 'image/png');
  }

  /** Saves the numbers behind the figure (this.toCsv()) as a CSV file. */
  downloadCsv() {
    if (!this.pn) return;
    this._download(new Blob([this.toCsv()], { type: 'text/csv' }), `${this.fileStem()}.csv`);
  }

  async copyLink() {
    const url = this.shareUrl();
    history.replaceState(history.state, '', url);
    const status = this._status;
    try {
      await navigator.clipboard.writeText(url);
      status.replaceChildren(this.t.linkCopied);
    } catch {
      // no clipboard (insecure context, iframe policy): show the link to copy by hand
      const input = document.createElement('input');
      input.readOnly = true;
      input.value = url;
      input.setAttribute('aria-label', this.t.linkShown);
      status.replaceChildren(`${this.t.linkShown} `, input);
      input.select();
    }
    this.dispatchEvent(new CustomEvent('share', { detail: { url }, bubbles: true, composed: true }));
  }

  _buildToolbar() {
    const bar = document.createElement('div');
    bar.className = 'toolbar';
    bar.setAttribute('part', 'toolbar');
    bar.setAttribute('role', 'group');
    bar.dataset.keyLabel = 'toolbar';
    for (const [key, action] of [['copyLink', () => this.copyLink()], ['downloadPng', () => this.downloadPng()], ['downloadCsv', () => this.downloadCsv()]]) {
      const b = document.createElement('button');
      b.type = 'button';
      b.dataset.key = key;
      b.dataset.action = key;
      b.addEventListener('click', action);
      bar.append(b);
    }
    this._status = document.createElement('span');
    this._status.className = 'status';
    this._status.setAttribute('role', 'status');
    bar.append(this._status);
    return bar;
  }

  // ---- drawing ----------------------------------------------------------

  /** Schedules one render for the next animation frame. */
  invalidate() {
    if (!this._started || !this.pn || this._frameRequested) return;
    this._frameRequested = true;
    requestAnimationFrame(() => {
      this._frameRequested = false;
      this.renderNow();
    });
  }

  /** Renders synchronously and logs how long it took. */
  renderNow() {
    if (!this.pn) return;
    const t0 = performance.now();
    this._style = getComputedStyle(this); // read by color() for this frame
    this.render();
    const dt = performance.now() - t0;
    this.renderTimes.push(dt);
    if (this.renderTimes.length > 200) this.renderTimes.shift();
    this._resolveReady?.();
    this._readyPromise ??= Promise.resolve();
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

  /** A `.plot` box holding a canvas with role img (focusable if asked). */
  createPlot({ focusable = false } = {}) {
    const plot = document.createElement('div');
    plot.className = 'plot';
    plot.setAttribute('part', 'plot');
    const canvas = document.createElement('canvas');
    canvas.setAttribute('role', 'img');
    canvas.setAttribute('part', 'canvas');
    if (focusable) canvas.tabIndex = 0;
    plot.append(canvas);
    return { plot, canvas };
  }

  /** A readout element (`p` by default), announced politely when `live`. */
  createReadout(tag = 'p', live = true) {
    const el = document.createElement(tag);
    el.className = 'readout';
    el.setAttribute('part', 'readout');
    if (live) el.setAttribute('aria-live', 'polite');
    return el;
  }

  /**
   * Sizes a canvas to its CSS width and the given CSS height at
   * devicePixelRatio; returns a 2D context in CSS pixels.
   */
  fitCanvas(canvas, cssHeight) {
    const dpr = window.devicePixelRatio || 1;
    const cssWidth = Math.max(1, canvas.clientWidth || this._figure.clientWidth || 300);
    canvas.style.height = `${cssHeight}px`;
    const w = Math.round(cssWidth * dpr), h = Math.round(cssHeight * dpr);
    if (canvas.width !== w) canvas.width = w;
    if (canvas.height !== h) canvas.height = h;
    const ctx = canvas.getContext('2d');
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    return { ctx, width: cssWidth, height: cssHeight, dpr };
  }

  /** The current value of a CSS custom property of this figure. */
  color(name) {
    return (this._style ?? getComputedStyle(this)).getPropertyValue(name).trim() || '#888';
  }
}

/** Formats a number with `digits` significant digits, no exponent for common ranges. */
export function fmt(x, digits = 4) {
  if (!Number.isFinite(x)) return String(x);
  if (x === 0) return '0';
  const a = Math.abs(x);
  if (a >= 1e6 || a < 1e-4) return x.toExponential(digits - 1);
  return Number(x.toPrecision(digits)).toString();
}

/** "Nice" tick values covering [lo, hi] with about `count` ticks. */
export function ticks(lo, hi, count = 5) {
  const span = hi - lo;
  if (!(span > 0)) return [lo];
  const raw = span / count;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * mag).find((s) => span / s <= count) ?? 10 * mag;
  const out = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + step * 1e-9; v += step) out.push(Number(v.toPrecision(12)));
  return out;
}
