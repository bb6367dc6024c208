// heatmap.js — <posnorm-heatmap>: the PE matrix [seq_len × d_model] with a
// cursor that reads out exact values.
//
// Pipeline per parameter change: the PE kernel fills a float32 buffer in
// wasm memory, the colormap kernel turns it into RGBA8 in a second wasm
// buffer, and that buffer *is* the ImageData (no copy in JS). Cursor moves
// only redraw.
import { addKoreanStrings } from '../i18n.js';
import koStrings from '../i18n/ko/heatmap.js';
import { PnFigure } from './core/base.js';
import { pow2AtLeast } from './core/buffers.js';
import { emit } from './core/element.js';
import { createPlot, createReadout, fitCanvas, canvasWidth, setText } from './draw/canvas.js';
import { fmt, signed, ticks } from './draw/format.js';
import { colourScale, xCaption, xTicks, yTicks, yTitle } from './draw/axes.js';
import { PeErrorLine } from './draw/pe-error.js';

export { configure } from './core/runtime.js';

// this module's own Korean labels (English ones load with every other label)
addKoreanStrings(koStrings);

const MARGIN = { left: 46, right: 58, top: 8, bottom: 44 };

export class PosnormHeatmap extends PnFigure {
  static controls = [
    { prop: 'dModel', attr: 'd-model', kind: 'int', min: 2, max: 1024, def: 64, label: 'dModel' },
    { prop: 'seqLen', attr: 'seq-len', kind: 'int', min: 1, max: 2048, def: 30, label: 'seqLen' },
    { prop: 'base', attr: 'base', kind: 'log', min: 100, max: 100000, def: 10000, label: 'base', round: (v) => Math.round(v) },
    { prop: 'layout', attr: 'layout', kind: 'choice', choices: ['interleaved', 'concat'], def: 'interleaved', label: 'layout' },
  ];

  constructor() {
    super();
    this._cursor = Object.freeze({ pos: 0, dim: 0 });
    // a cursor written before the element was defined is an own property
    // that would hide the accessor below for good: taken off and applied,
    // at the sizes asked for by then (the controls were replayed above)
    if (Object.hasOwn(this, 'cursor')) {
      const v = this.cursor;
      delete this.cursor;
      if (v !== null && typeof v === 'object') this._cursor = Object.freeze(this._cellOf(v.pos, v.dim));
    }
    this._key = '';
    this._image = null;
  }

  buildBody(figure) {
    const { plot, canvas } = createPlot({ focusable: true });
    this.canvas = canvas;
    this._readoutEl = createReadout();
    this._shapeEl = createReadout('p', false);
    const readout = this._readoutEl, shape = this._shapeEl;
    const hint = document.createElement('p');
    hint.className = 'hint';
    hint.setAttribute('part', 'hint');
    hint.dataset.key = 'cursorHint';
    this._errors = new PeErrorLine(this);
    figure.append(plot, readout, shape, this._errors.element, hint);
    // off the page the pixels' canvas goes with the wasm buffers (made
    // again on return); a controller, so that it goes also when the page
    // goes from under the figure (base.js onPage: a removed iframe's document)
    this.addController({
      hostDisconnected: () => {
        if (this._image) Object.assign(this._image, { width: 0, height: 0 });
        this._image = null;
      },
    });

    const fromPointer = (e) => {
      const g = this._geom;
      if (!g) return;
      const r = canvas.getBoundingClientRect();
      const x = e.clientX - r.left - g.x0, y = e.clientY - r.top - g.y0;
      if (x < 0 || y < 0 || x >= g.w || y >= g.h) return;
      this.moveCursor(Math.floor((y / g.h) * this.seqLen), Math.floor((x / g.w) * this.dModel));
    };
    canvas.addEventListener('pointerdown', fromPointer);
    canvas.addEventListener('pointermove', (e) => {
      if (e.pointerType === 'mouse' || e.buttons) fromPointer(e);
    });
    canvas.addEventListener('keydown', (e) => {
      const big = e.shiftKey || e.key.startsWith('Page') ? 10 : 1;
      const moves = {
        ArrowLeft: [0, -big], ArrowRight: [0, big], ArrowUp: [-big, 0], ArrowDown: [big, 0],
        PageUp: [-big, 0], PageDown: [big, 0], Home: [0, -Infinity], End: [0, Infinity],
      };
      const m = moves[e.key];
      if (!m) return;
      e.preventDefault();
      this.moveCursor(this.cursor.pos + m[0], this.cursor.dim + m[1]);
    });
  }

  /** The cursor's cell, frozen: a new object each time it moves. */
  get cursor() { return this._cursor; }

  /**
   * `el.cursor = { pos, dim }` is moveCursor(pos, dim): the same rounding,
   * clamping and event. Anything that is not an object (null, a number)
   * leaves the cursor where it is: written unchecked, { pos: -1 } or a
   * string broke every later repaint with an exception. It is clamped to
   * the sizes when written, as moveCursor is: set seqLen and dModel first.
   */
  set cursor(v) {
    if (v !== null && typeof v === 'object') this.moveCursor(v.pos, v.dim);
  }

  /**
   * Moves the cursor to cell (pos, dim). Each is taken as a number (numeric
   * strings too), rounded to the nearest cell and clamped to the matrix;
   * ±Infinity means the first or last cell; a coordinate that is not a
   * number (NaN, 'abc', undefined) leaves that coordinate where it is.
   */
  moveCursor(pos, dim) {
    const { pos: p, dim: d } = this._cellOf(pos, dim);
    if (p === this.cursor.pos && d === this.cursor.dim) return;
    this._cursor = Object.freeze({ pos: p, dim: d });
    emit(this, 'posnorm-cursor', { ...this.cursor });
    this.invalidate();
  }

  /** The cell moveCursor(pos, dim) goes to (its rules above), from the cursor's cell now. */
  _cellOf(pos, dim) {
    const cell = (v, current, size) => {
      const n = typeof v === 'number' || typeof v === 'string' ? Number(v) : NaN;
      if (Number.isNaN(n) || (typeof v === 'string' && v.trim() === '')) return current;
      return Math.max(0, Math.min(size - 1, n === Infinity ? size - 1 : n === -Infinity ? 0 : Math.round(n)));
    };
    return { pos: cell(pos, this._cursor.pos, this.seqLen), dim: cell(dim, this._cursor.dim, this.dModel) };
  }

  /**
   * A smaller matrix takes the cursor with it: clamped to the last row or
   * column as soon as the sizes change (not at the next frame), with a
   * posnorm-cursor event, as moveCursor() gives.
   */
  controlsChanged() {
    this._clampCursor();
    super.controlsChanged();
  }

  /**
   * Clamps the cursor to the matrix of the current sizes, with a
   * posnorm-cursor event if it moved: after each batch of changes, and
   * before anything reads the cursor's cell (a render, toCsv() or a
   * download right after a change, before the batch ends).
   */
  _clampCursor() {
    const { pos, dim } = this.cursor;
    if (pos >= this.seqLen || dim >= this.dModel) {
      this._cursor = Object.freeze({ pos: Math.min(pos, this.seqLen - 1), dim: Math.min(dim, this.dModel - 1) });
      emit(this, 'posnorm-cursor', { ...this.cursor });
    }
  }

  describe() { return this.t.heatmapAlt(this); }

  _compute() {
    const { dModel, seqLen, base, layout } = this;
    const n = dModel * seqLen;
    // buffer() hands back the same two buffers, or views of them for
    // smaller sizes, until a size needs more than they hold or the figure
    // leaves the page
    const pe = this.buffer('pe', n), rgba = this.buffer('rgba', n * 4, 'u8c');
    const key = `${dModel}|${seqLen}|${base}|${layout}`;
    if (key === this._key && pe === this._pe) return;
    this._pe = pe;
    this.pn.positionalEncoding({ seqLen, dModel, base, layout, out: pe });
    this.pn.colormap(pe, { map: 'diverging', vmin: -1, vmax: 1, out: rgba });
    const image = new ImageData(rgba.array, dModel, seqLen);
    // the pixels go to the top-left corner of a canvas whose sides are the
    // powers of two at or above them: a canvas resized at every input of a
    // d_model or seq_len drag is a new backing store each time (8 MB at
    // 1024 × 2048, whose page faults alone took about 30 ms a frame on the
    // machine of docs/benchmarks.md); this way a drag up the whole range
    // resizes it about a dozen times. It is not shrunk while the pixels fit
    // (shrunk when a drag went down, it was made anew, fresh pages, on the
    // way back up). When they do not fit, it keeps a side larger than the
    // new powers of two only while that leaves it at most twice their area:
    // keeping both sides' largest, a d_model drag to 1024 at 30 positions
    // and then a seq_len drag to 2048 at d_model 64 grew it to 1024 × 1024
    // and 1024 × 2048 (4 and 8 MB of fresh backing store for 64 × 2048
    // pixels at most; renders of 14 and 24 ms against 2 ms, issue #20).
    // The price: a reader who switches between a wide and a tall heatmap
    // again and again has it remade a few times per switch (at most twice
    // the area a new heatmap would take each time), where it settled at
    // the largest of both before
    if (!this._image) this._image = Object.assign(document.createElement('canvas'), { width: 0, height: 0 });
    if (this._image.width < dModel || this._image.height < seqLen) {
      const pw = pow2AtLeast(dModel), ph = pow2AtLeast(seqLen);
      let w = Math.max(this._image.width, pw), h = Math.max(this._image.height, ph);
      if (w * h > 2 * pw * ph) [w, h] = [pw, ph];
      Object.assign(this._image, { width: w, height: h });
    }
    this._image.getContext('2d').putImageData(image, 0, 0);
    this._key = key;
  }

  /** Value, function, pair index and wavelength at the cursor. */
  _readout() {
    this._clampCursor();
    const { pos, dim } = this.cursor;
    const d = this.dModel;
    let i, fn;
    if (this.layout === 'interleaved') {
      i = dim >> 1;
      fn = dim % 2 ? 'cos' : 'sin';
    } else {
      const half = Math.ceil(d / 2);
      fn = dim < half ? 'sin' : 'cos';
      i = dim < half ? dim : dim - half;
    }
    const value = this._pe.array[pos * d + dim];
    const wavelength = 2 * Math.PI * this.base ** ((2 * i) / d);
    return { pos, dim, value, fn, i, wavelength, text: value.toFixed(7), wavelengthText: fmt(wavelength, 6) };
  }

  /** The matrix as CSV: one row per position, one column per dimension. */
  csv() {
    this._compute();
    const { dModel, seqLen } = this;
    const pe = this._pe.array;
    const lines = [['pos', ...Array.from({ length: dModel }, (_, d) => `dim${d}`)].join(',')];
    for (let p = 0; p < seqLen; p++) lines.push([p, ...pe.subarray(p * dModel, (p + 1) * dModel)].join(','));
    return `${lines.join('\n')}\n`;
  }

  render() {
    // the clamp's posnorm-cursor comes first: a listener may take the
    // figure off the page, which frees what the drawing needs (a render
    // forced by toCsv() then threw from drawImage)
    this._clampCursor();
    if (!this.onPage) return;
    this._compute();
    const t = this.t;
    const width = canvasWidth(this.canvas) || 300;
    const height = Math.round(Math.min(460, Math.max(220, width * 0.62)));
    const { ctx } = fitCanvas(this.canvas, height);
    const g = { x0: MARGIN.left, y0: MARGIN.top, w: width - MARGIN.left - MARGIN.right, h: height - MARGIN.top - MARGIN.bottom };
    this._geom = g;
    ctx.clearRect(0, 0, width, height);
    ctx.imageSmoothingEnabled = false;
    ctx.drawImage(this._image, 0, 0, this.dModel, this.seqLen, g.x0, g.y0, g.w, g.h);
    // axes: a tick at the middle of its cell, dimensions across and positions down
    const cw = g.w / this.dModel, ch = g.h / this.seqLen;
    xTicks(this, ctx, ticks(0, this.dModel - 1, Math.max(2, Math.floor(g.w / 60))), (v) => g.x0 + (v + 0.5) * cw, g.y0 + g.h);
    const rows = ticks(0, this.seqLen - 1, Math.max(2, Math.floor(g.h / 40)));
    yTicks(this, ctx, rows, (v) => g.y0 + (v + 0.5) * ch, g.x0);
    // the axis title left of the widest row label (four digits from 1000 rows on), 5 px from the edge at least
    const widest = Math.max(...rows.map((v) => ctx.measureText(String(v)).width));
    const titleX = Math.max(5, Math.min(11, g.x0 - 6 - widest - 6));
    xCaption(this, ctx, t.highFreq, t.lowFreq, g.x0, g.x0 + g.w, height - 2);
    yTitle(this, ctx, t.posAxis, titleX, g.y0 + g.h / 2);
    colourScale(this, ctx, { x: g.x0 + g.w + 12, y: g.y0, w: 12, h: g.h }, 'diverging', -1, 1, [1, 0.5, 0, -0.5, -1].map((v) => [v, signed(v)]));
    // the cursor's cell
    const { pos, dim } = this.cursor;
    ctx.strokeStyle = this.color('--pn-fg');
    ctx.lineWidth = 2;
    ctx.strokeRect(g.x0 + dim * cw - 1, g.y0 + pos * ch - 1, Math.max(cw, 2) + 2, Math.max(ch, 2) + 2);
    ctx.lineWidth = 1;

    this.readout = this._readout();
    setText(this._readoutEl, t.heatmapReadout(this.readout));
    setText(this._shapeEl, t.heatmapShape(this));
    this._errors.show({ seqLen: this.seqLen, dModel: this.dModel, base: this.base, layout: this.layout });
  }
}

PosnormHeatmap.define('posnorm-heatmap');
