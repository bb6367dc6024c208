// properties.js — <posnorm-properties> (section 4): the four reasons for
// sin/cos — bounded, unique, relative, extrapolating — each shown with a
// number computed by the kernels.
import { addKoreanStrings } from '../i18n.js';
import koStrings from '../i18n/ko/properties.js';
import { PnFigure } from './core/base.js';
import { fitCanvas, plotWithReadout, showLines, showTable, canvasWidth } from './draw/canvas.js';
import { fmt } from './draw/format.js';
import { drawMatrix } from './draw/matrix.js';
import { drawBars, drawLines, title } from './draw/plots.js';
import { PeErrorLine } from './draw/pe-error.js';

export { configure } from './core/runtime.js';

// this module's own Korean labels (English ones load with every other label)
addKoreanStrings(koStrings);

export class PosnormProperties extends PnFigure {
  static controls = [
    { prop: 'dModel', attr: 'd-model', kind: 'int', min: 4, max: 256, step: 2, def: 64, label: 'dModel', round: (v) => Math.max(4, 2 * Math.round(v / 2)) },
    { prop: 'seqLen', attr: 'seq-len', kind: 'int', min: 2, max: 200, def: 50, label: 'seqLen' },
    { prop: 'base', attr: 'base', kind: 'log', min: 100, max: 100000, def: 10000, label: 'base', round: (v) => Math.round(v) },
    { prop: 'k', attr: 'k', kind: 'int', min: 1, max: 50, def: 5, label: 'shiftK' },
    { prop: 'pos', attr: 'pos', kind: 'int', min: 0, max: 200, def: 10, label: 'probePos' },
    { prop: 'trainLen', attr: 'train-len', kind: 'int', min: 10, max: 100, def: 40, label: 'trainLen' },
  ];

  static css = `
    table { border-collapse: collapse; margin: 0.4em 0 0; font-size: 0.85em; font-variant-numeric: tabular-nums; }
    th, td { border-bottom: 1px solid var(--pn-grid); padding: 0.15em 0.5em; text-align: right; }
  `;

  buildBody(figure) {
    ({ canvas: this.canvas, readout: this._readoutEl } = plotWithReadout(figure, { list: true }));
    this._blocks = document.createElement('table');
    this._blocks.setAttribute('part', 'table');
    this._errors = new PeErrorLine(this);
    figure.append(this._errors.element, this._blocks);
  }

  _compute() {
    const { dModel, seqLen, base, k, pos } = this;
    const pe = this.buffer('pe', seqLen * dModel);
    // the matrix, its range, dot products and closest pair depend on these
    // alone; k, pos and train-len only need the cheap parts below
    const key = `${dModel}|${seqLen}|${base}`;
    if (key !== this._matrixKey || pe !== this._pe) {
      this.pn.positionalEncoding({ seqLen, dModel, base, out: pe });
      const a = pe.array;
      let lo = Infinity, hi = -Infinity;
      for (let j = 0; j < a.length; j++) { lo = Math.min(lo, a[j]); hi = Math.max(hi, a[j]); }
      this._matrix = { lo, hi, gram: this.pn.gram(pe, { cols: dModel }), closest: this.pn.minRowDistance(pe, { cols: dModel }) };
      this._matrixKey = key;
      this._pe = pe;
    }
    const { lo, hi, gram, closest } = this._matrix;
    const at = this.pn.positionalEncoding({ seqLen: 1, dModel, base, offset: pos });
    const ahead = this.pn.positionalEncoding({ seqLen: 1, dModel, base, offset: pos + k });
    const shifted = this.pn.peShift(at, { k, base });
    let err = 0;
    for (let c = 0; c < dModel; c++) err = Math.max(err, Math.abs(shifted[c] - ahead[c]));
    // R(k) for pair i is [[cos kω_i, sin kω_i], [−sin kω_i, cos kω_i]], and
    // (sin kω_i, cos kω_i) is exactly PE(k) — the kernel's own values
    const atK = this.pn.positionalEncoding({ seqLen: 1, dModel, base, offset: k });
    const blocks = [...new Set([0, 1, 2, 3, dModel / 2 - 1])].filter((i) => i < dModel / 2)
      .map((i) => ({ i, sin: atK[2 * i], cos: atK[2 * i + 1] }));
    const [b0] = blocks;
    return { lo, hi, gram, closest, shifted, ahead, err, blocks, rotation: [[b0.cos, b0.sin], [-b0.sin, b0.cos]] };
  }

  render() {
    const t = this.t;
    const r = this._compute();
    this.result = { min: r.lo, max: r.hi, closest: r.closest, maxShiftError: r.err, rotation: r.rotation, blocks: r.blocks, shifted: r.shifted, ahead: r.ahead };
    const width = canvasWidth(this.canvas) || 300;
    const wide = width >= 560;
    const side = wide ? Math.min(260, width / 2 - 30) : Math.min(width - 20, 300);
    const barsH = 90;
    const height = (wide ? side + 50 : side * 2 + 100) + barsH + 30;
    const { ctx } = fitCanvas(this.canvas, height);
    ctx.clearRect(0, 0, width, height);
    const half = this.dModel / 2;
    title(this, ctx, t.gramTitle, 4, 16);
    drawMatrix(this, ctx, (this._g ??= {}), r.gram, this.seqLen, this.seqLen, { x: 4, y: 22, w: side, h: side }, { vmin: -half, vmax: half, key: this._matrixKey });
    const box = wide ? { x: side + 60, y: 22, w: width - side - 70, h: side - 20 } : { x: 36, y: side + 60, w: width - 46, h: side - 40 };
    // four dimensions from fast to slow: 2, d/4, d/2, 3d/4 (even, i.e. sin)
    const dims = [2, this.dModel / 4, this.dModel / 2, (3 * this.dModel) / 4].map((d) => Math.min(this.dModel - 2, 2 * Math.round(d / 2)));
    title(this, ctx, t.extrapolateTitle(dims.join(', ')), box.x - 32 > 0 ? box.x - 30 : 4, box.y - 6);
    const L = this.trainLen, n = Math.max(2, Math.round(box.w));
    const colours = ['--pn-sin', '--pn-cos', '--pn-accent', '--pn-ref-sin'].map((c) => this.color(c));
    const series = dims.map((dim, j) => ({
      ys: this.pn.peSample({ n, dim, dModel: this.dModel, base: this.base, start: 0, step: (2.5 * L) / (n - 1) }),
      colour: colours[j],
    }));
    drawLines(this, ctx, box, series, { x0: 0, dx: (2.5 * L) / (n - 1), yMin: -1, yMax: 1, marker: L });
    // R(k)·PE(pos) as bars, PE(pos + k) as dots, over the first 16 dimensions
    const m = Math.min(16, this.dModel);
    const bars = { x: 4, y: height - barsH - 6, w: width - 8, h: barsH };
    title(this, ctx, t.shiftTitle(this.pos, this.k), 4, bars.y - 6);
    drawBars(this, ctx, bars, r.shifted.subarray(0, m), 1, this.color('--pn-bar-before'));
    ctx.fillStyle = this.color('--pn-accent');
    for (let c = 0; c < m; c++) {
      ctx.beginPath();
      ctx.arc(bars.x + (c + 0.5) * (bars.w / m), bars.y + bars.h / 2 - r.ahead[c] * (bars.h / 2), 3.5, 0, 2 * Math.PI);
      ctx.fill();
    }
    const f = (v) => fmt(v, 4);
    const rot = t.matrix2(r.rotation.map((row) => row.map(f)));
    const items = [
      t.propBounded(r.lo.toFixed(4), r.hi.toFixed(4)),
      t.propUnique(r.closest.distance.toFixed(6), r.closest.i, r.closest.j, this.seqLen),
      t.propRelative(this.k, rot, r.err.toExponential(2), this.pos),
      t.propExtrapolate(L),
    ];
    showLines(this._readoutEl, items);
    showTable(this._blocks, [t.rotationHead(this.k), ...r.blocks.map((b) => {
      const theta = this.k * this.base ** ((-2 * b.i) / this.dModel);
      return [b.i, fmt(theta, 5), t.matrix2([[f(b.cos), f(b.sin)], [f(-b.sin), f(b.cos)]])];
    })]);
    this._errors.show({ seqLen: this.seqLen, dModel: this.dModel, base: this.base });
  }

  describe() { return this.t.propAlt(this); }

  csv() {
    const { dModel, seqLen } = this;
    const pe = this.buffer('pe', seqLen * dModel).array;
    const lines = [`pos,${Array.from({ length: dModel }, (_, d) => `dim${d}`).join(',')}`];
    for (let p = 0; p < seqLen; p++) lines.push([p, ...pe.subarray(p * dModel, (p + 1) * dModel)].join(','));
    return `${lines.join('\n')}\n`;
  }
}

PosnormProperties.define('posnorm-properties');
