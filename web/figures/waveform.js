// waveform.js — <posnorm-waveform>: sin and cos of one frequency pair against
// position, beside the highest-frequency reference pair i = 0. Curves are
// sampled by the kernel at fractional positions, one sample per device pixel.
import { addKoreanStrings } from '../i18n.js';
import koStrings from '../i18n/ko/waveform.js';
import { PnFigure } from './core/base.js';
import { createPlot, createReadout, fitCanvas, canvasWidth, setText } from './draw/canvas.js';
import { strokeCurve } from './draw/curve.js';
import { fmt, signed, ticks } from './draw/format.js';
import { vRule, xLabels, yGrid } from './draw/axes.js';
import { PeErrorLine } from './draw/pe-error.js';
import { title, titleExtra, titleRoom } from './draw/plots.js';

export { configure } from './core/runtime.js';

// this module's own Korean labels (English ones load with every other label)
addKoreanStrings(koStrings);

const MARGIN = { left: 40, right: 12, top: 30, bottom: 28 };
const X_MAX = 100;

export class PosnormWaveform extends PnFigure {
  static controls = [
    { prop: 'i', attr: 'i', kind: 'int', min: 0, max: (f) => Math.floor(f.dModel / 2) - 1, def: 4, label: 'pairIndex' },
    { prop: 'pos', attr: 'pos', kind: 'int', min: 0, max: X_MAX, def: 10, label: 'position' },
    { prop: 'dModel', attr: 'd-model', kind: 'int', min: 2, max: 1024, step: 2, def: 64, label: 'dModel', round: (v) => Math.max(2, 2 * Math.round(v / 2)) },
    { prop: 'base', attr: 'base', kind: 'log', min: 100, max: 100000, def: 10000, label: 'base', round: (v) => Math.round(v) },
  ];

  buildBody(figure) {
    const { plot, canvas } = createPlot();
    this.canvas = canvas;
    const readout = createReadout('div');
    this._readoutEl = readout;
    this._errors = new PeErrorLine(this);
    figure.append(plot, readout, this._errors.element);
    this._n = 0;
    const fromPointer = (e) => {
      const g = this._geom;
      if (!g) return;
      const x = e.clientX - canvas.getBoundingClientRect().left - g.x0;
      this.request('pos', Math.round((x / g.w) * X_MAX), 'user');
    };
    canvas.addEventListener('pointerdown', fromPointer);
    canvas.addEventListener('pointermove', (e) => { if (e.buttons) fromPointer(e); });
  }

  /**
   * The four curves' samples as views of the module's memory, read after the
   * last peSample call; they are valid until the next posnorm call.
   */
  _samples(n) {
    this._n = n;
    const bufs = [0, 1, 2, 3].map((k) => this.buffer(`curve${k}`, n));
    const { dModel, base, i } = this;
    // moving the marker only redraws: the curves depend on these alone
    const key = `${n}|${dModel}|${base}|${i}`;
    if (key === this._curvesKey && bufs[0] === this._curves0) return bufs.map((b) => b.array);
    this._curvesKey = key;
    this._curves0 = bufs[0];
    const step = X_MAX / (n - 1);
    [0, 1, 2 * i, 2 * i + 1].forEach((dim, k) => {
      this.pn.peSample({ n, start: 0, step, dim, dModel, base, out: bufs[k] });
    });
    return bufs.map((b) => b.array);
  }

  describe() {
    const v = this.values;
    return this.t.waveformAlt({ ...v, wavelengthText: fmt(2 * Math.PI * v.base ** ((2 * v.i) / v.dModel), 5) });
  }

  /** Exact values of the four curves at the marker. */
  _readout() {
    const { dModel, base, i, pos } = this;
    const at = (dim) => this.pn.peSample({ n: 1, start: pos, dim, dModel, base })[0];
    return {
      pos,
      ref: { i: 0, sin: at(0), cos: at(1), wavelength: 2 * Math.PI },
      sel: { i, sin: at(2 * i), cos: at(2 * i + 1), wavelength: 2 * Math.PI * base ** ((2 * i) / dModel) },
    };
  }

  /** The plotted samples as CSV: position and the four curves. */
  csv() {
    const n = this._n || 101;
    const [s0, c0, si, ci] = this._samples(n);
    const i = this.i;
    const lines = [`pos,sin_pair0,cos_pair0,sin_pair${i},cos_pair${i}`];
    for (let k = 0; k < n; k++) lines.push([(k * X_MAX) / (n - 1), s0[k], c0[k], si[k], ci[k]].join(','));
    return `${lines.join('\n')}\n`;
  }

  render() {
    const t = this.t;
    const width = canvasWidth(this.canvas) || 300;
    const g = { x0: MARGIN.left, w: width - MARGIN.left - MARGIN.right };
    // the readout's peSample calls may grow the memory, which detaches views
    // of it: they come first, and the curves' views are read after the last call
    const r = this._readout();
    this.readout = r;
    // a panel's title wrapped on a narrow canvas moves its panel (and the
    // next) down, and the canvas grows by as much
    const titles = [t.waveformPanel(t.reference, fmt(r.ref.wavelength, 5)), t.waveformPanel(t.selected(this.i), fmt(r.sel.wavelength, 5))];
    const sizing = this.canvas.getContext('2d');
    // (the chosen pair's title at its longest, i = 511 and a wavelength of
    // six digits, fits on one line from 320 px: tests/figure_text.test.mjs
    // drags i and base there and checks that the height stays)
    const [extra0, extra1] = titles.map((text) => titleExtra(sizing, text, titleRoom(sizing, g.x0)));
    const plainHeight = Math.round(Math.min(420, Math.max(260, width * 0.5)));
    const panelH = (plainHeight - MARGIN.top * 2 - MARGIN.bottom) / 2;
    const height = plainHeight + extra0 + extra1;
    const { ctx, dpr } = fitCanvas(this.canvas, height);
    this._geom = g;
    const n = Math.max(2, Math.min(4096, Math.round(g.w * dpr)));
    const [s0, c0, si, ci] = this._samples(n);
    ctx.clearRect(0, 0, width, height);
    ctx.font = '11px system-ui, sans-serif';
    const X = (p) => g.x0 + (p / X_MAX) * g.w;
    const panels = [
      { top: MARGIN.top + extra0, title: titles[0], curves: [[s0, '--pn-ref-sin', 'sin'], [c0, '--pn-ref-cos', 'cos']], vals: r.ref },
      { top: MARGIN.top * 2 + panelH + extra0 + extra1, title: titles[1], curves: [[si, '--pn-sin', 'sin'], [ci, '--pn-cos', 'cos']], vals: r.sel },
    ];
    for (const p of panels) {
      const Y = (v) => p.top + ((1 - v) / 2) * panelH;
      yGrid(this, ctx, { x: g.x0, w: g.w }, [-1, 0, 1], Y, { label: signed, gap: 5 });
      title(this, ctx, p.title, g.x0, p.top - 10);
      for (const [data, colourVar, name] of p.curves) {
        ctx.strokeStyle = this.color(colourVar);
        strokeCurve(ctx, n, (k) => g.x0 + (k / (n - 1)) * g.w, (k) => Y(data[k]), { width: 2, dash: name === 'cos' ? [6, 3] : [] });
        ctx.fillStyle = this.color(colourVar);
        ctx.beginPath();
        ctx.arc(X(this.pos), Y(p.vals[name]), 4, 0, 2 * Math.PI);
        ctx.fill();
      }
    }
    // x axis and marker
    xLabels(this, ctx, ticks(0, X_MAX, Math.max(2, Math.floor(g.w / 70))), X, height - MARGIN.bottom + 8);
    const top = panels[0].top - 2;
    vRule(this, ctx, { y: top, h: height - MARGIN.bottom + 4 - top }, X(this.pos), { width: 1.5 });

    const v7 = (x) => x.toFixed(7);
    setText(this._readoutEl, t.waveformReadout({
      pos: r.pos, i: r.sel.i, base: this.base, dModel: this.dModel, wavelength: fmt(r.sel.wavelength, 6),
      ref: { sin: v7(r.ref.sin), cos: v7(r.ref.cos) }, sel: { sin: v7(r.sel.sin), cos: v7(r.sel.cos) },
    }));
    this._errors.show({ seqLen: X_MAX + 1, dModel: this.dModel, base: this.base, dims: [...new Set([0, 1, 2 * this.i, 2 * this.i + 1])] });
  }
}

PosnormWaveform.define('posnorm-waveform');
