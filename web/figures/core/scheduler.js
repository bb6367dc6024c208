// scheduler.js — when a figure draws: at most once per animation frame after
// a change, again when its box changes width, and at once when asked (the
// first frame, a download). It times every render; the first frame settles
// the figure's `ready` and fires `posnorm-ready`. A controller (base.js):
// while the figure is off the page it neither observes nor draws.
import { emit } from './element.js';
import { onColorSchemeChange, onResize } from './observers.js';

/** The colour properties the canvases draw with (style.js): a theme that changes any of them repaints. */
const THEME_PROBES = ['--pn-bg', '--pn-fg', '--pn-muted', '--pn-grid', '--pn-accent', '--pn-sin', '--pn-cos', '--pn-ref-sin', '--pn-ref-cos', '--pn-bar-before', '--pn-bar-after', '--pn-focus'];
const themeOf = (style) => THEME_PROBES.map((name) => style.getPropertyValue(name)).join('|');

export class RenderScheduler {
  constructor(host) {
    this.host = host;
    /** Milliseconds each of the last renders took (compute + draw). */
    this.times = [];
    /** performance.now() at the end of the first frame. */
    this.firstFrameAt = undefined;
    /** The figure's computed style during a render (read by its color()). */
    this.style = null;
    this._frame = 0;
    /** Resolves after the first frame; rejects where the figure cannot run. */
    this.firstFrame = new Promise((resolve, reject) => {
      this._resolve = resolve;
      this._reject = reject;
    });
    this.firstFrame.catch(() => {}); // a page that never awaits `ready` gets no unhandled rejection
    host.addController(this);
  }

  hostConnected() {
    // a new width repaints; a new height alone does not: every canvas is
    // sized from widths (its own, observers.js cssWidth, or the figure's),
    // and the height changes that come are the render's own (a readout that
    // wraps to one more line), which gave a second render after one input in
    // 4 of a 32-input precision d_model drag and 10 of depth's stack drag
    // (issue #20)
    this._width = undefined;
    this._stopResize = onResize(this.host.shadowRoot.querySelector('figure'), (width) => {
      if (width === this._width) return;
      this._width = width;
      this.request();
    });
    // canvases keep the colours they were drawn in: repaint when the
    // figure's colours change under it (a dark system scheme, a page's theme switch)
    // (the colours are read here and at the first render only, not in every frame)
    this._stopScheme = onColorSchemeChange(() => {
      if (this._theme === undefined) return;
      const theme = themeOf(getComputedStyle(this.host));
      if (theme === this._theme) return;
      this._theme = theme;
      this.request();
    }, this.host.ownerDocument);
    this.request();
  }

  hostDisconnected() {
    this._stopResize?.();
    this._stopScheme?.();
    if (this._frame) cancelAnimationFrame(this._frame);
    this._frame = 0;
  }

  /** Schedules one render for the next animation frame (once started, and only on the page). */
  request() {
    if (!this.host.pn || !this.host.onPage || this._frame) return;
    this._frame = requestAnimationFrame(() => {
      this._frame = 0;
      this.now();
    });
  }

  /** Renders now if a frame is requested (in place of that frame). */
  flush() {
    if (!this._frame) return;
    cancelAnimationFrame(this._frame);
    this._frame = 0;
    this.now();
  }

  /** Renders synchronously and logs how long it took. */
  now() {
    const { host } = this;
    if (!host.pn || !host.onPage) return;
    const t0 = performance.now();
    this.style = getComputedStyle(host);
    // the colours of the first render: what a colour-scheme change is compared with
    this._theme ??= themeOf(this.style);
    host.render();
    const t1 = performance.now();
    this.times.push(t1 - t0);
    if (this.times.length > 200) this.times.shift();
    if (this.firstFrameAt === undefined) {
      this.firstFrameAt = t1;
      this._resolve();
      emit(host, 'posnorm-ready', { time: t1 });
    }
  }

  /** The figure will never draw (it cannot run): `ready` rejects with `error`. */
  abandon(error) {
    this._reject(error);
  }
}
