// bn-vs-ln.js — <posnorm-bn-vs-ln> (Fig. 6): a B × H batch, normalised by
// BatchNorm down each column and by LayerNorm along each row; batch size 1
// shows BatchNorm's failure in training mode; inference uses running
// statistics gathered from earlier seeded batches.
import { addKoreanStrings } from '../i18n.js';
import koStrings from '../i18n/ko/bn-vs-ln.js';
import { PnFigure } from './core/base.js';
import { fitCanvas, plotWithReadout, showLines, canvasWidth } from './draw/canvas.js';
import { fmt } from './draw/format.js';
import { drawMatrix } from './draw/matrix.js';
import { title, titleRowShifts } from './draw/plots.js';
import { maxAbs } from './draw/extent.js';

export { configure } from './core/runtime.js';

// this module's own Korean labels (English ones load with every other label)
addKoreanStrings(koStrings);

const WARMUP = 30;
/** Height of each panel in CSS px; the matrix fills it when the batch is at least about half as tall as it is wide. */
const PANEL_H = 220;

export class PosnormBnVsLn extends PnFigure {
  static controls = [
    { prop: 'batch', attr: 'batch', kind: 'int', min: 1, max: 64, def: 8, label: 'batch' },
    { prop: 'features', attr: 'features', kind: 'int', min: 2, max: 16, def: 6, label: 'features' },
    { prop: 'mode', attr: 'mode', kind: 'choice', choices: ['train', 'infer'], def: 'train', label: 'mode' },
    { prop: 'seed', attr: 'seed', kind: 'int', min: 0, max: 2 ** 31 - 1, def: 4, label: 'seed', hidden: true },
  ];

  buildBody(figure) {
    ({ canvas: this.canvas, readout: this._readoutEl } = plotWithReadout(figure));
  }

  /** A batch whose columns have different means and scales. */
  _batch(seed) {
    const { batch: B, features: H } = this;
    const x = this.pn.randomNormal(B * H, { seed });
    for (let b = 0; b < B; b++) for (let h = 0; h < H; h++) x[b * H + h] = (h - H / 2) + (0.5 + h / 4) * x[b * H + h];
    return x;
  }

  /** Running statistics after WARMUP earlier seeded batches (cached per shape and seed). */
  _running() {
    const { batch: B, features: H, seed } = this;
    const key = `${B}|${H}|${seed}`;
    if (key !== this._runningKey) {
      const runningMean = new Float32Array(H), runningVar = new Float32Array(H).fill(1);
      for (let k = 1; k <= WARMUP; k++) this.pn.batchNorm(this._batch(seed + 1000 * k), { cols: H, runningMean, runningVar, momentum: 0.9 });
      this._runningStats = { runningMean, runningVar };
      this._runningKey = key;
    }
    return this._runningStats;
  }

  _compute() {
    const { batch: B, features: H } = this;
    const x = this._batch(this.seed);
    const bn = this.mode === 'train' ? this.pn.batchNorm(x, { cols: H }) : this.pn.batchNorm(x, { cols: H, training: false, ...this._running() });
    const ln = this.pn.layerNorm(x, { cols: H });
    return { x, bn, ln, B, H };
  }

  render() {
    const t = this.t;
    const r = this._compute();
    this.result = { x: r.x, bn: r.bn.y, bnMean: r.bn.mean, bnVar: r.bn.var, ln: r.ln.y, lnMean: r.ln.mean, lnInv: r.ln.invStdDev };
    const width = canvasWidth(this.canvas) || 300;
    const cols = width >= 520 ? 3 : 1;
    // the panels keep their height, PANEL_H, whatever the batch's shape: a
    // canvas that changed height at each input of a batch or features drag
    // moved the page under the reader's pointer and got a new backing store
    // each time (7–12 ms of page faults a frame, docs/decisions.md); the
    // matrix keeps square cells within 60 … PANEL_H px, from the panel's top
    const pw = (width - 16 * cols) / cols, mh = Math.min(PANEL_H, Math.max(60, (pw * r.B) / r.H));
    // (a title wider than its panel wraps, and its row moves down by as
    // much: the titles do not change with the controls)
    const labels = [t.matInput, t.matBn, t.matLn];
    const sizing = this.canvas.getContext('2d');
    const shifts = titleRowShifts(sizing, labels, cols, () => pw);
    const height = (PANEL_H + 30) * (3 / cols) + 6 + shifts.at(-1);
    const { ctx } = fitCanvas(this.canvas, height);
    ctx.clearRect(0, 0, width, height);
    const rect = (k) => ({ x: 8 + (k % cols) * (pw + 16), y: 22 + Math.floor(k / cols) * (PANEL_H + 30) + shifts[Math.floor(k / cols)], w: pw, h: mh });
    const lim = maxAbs([r.x]);
    const panels = [[labels[0], r.x, lim], [labels[1], r.bn.y, 3], [labels[2], r.ln.y, 3]];
    panels.forEach(([label, data, l], k) => {
      const q = rect(k);
      title(this, ctx, label, q.x, q.y - 5, pw);
      drawMatrix(this, ctx, (this[`_m${k}`] ??= {}), data, r.B, r.H, q, { vmin: -l, vmax: l });
      // the axis the statistics run over: a column for BatchNorm, a row for LayerNorm
      ctx.strokeStyle = this.color('--pn-fg');
      ctx.lineWidth = 2;
      if (k === 1) ctx.strokeRect(q.x + 1, q.y + 1, q.w / r.H - 2, q.h - 2);
      if (k === 2) ctx.strokeRect(q.x + 1, q.y + 1, q.w - 2, q.h / r.B - 2);
      ctx.lineWidth = 1;
    });
    const f = (v) => fmt(v, 5);
    const lines = [t.bnReadout(f(r.bn.mean[0]), f(r.bn.var[0])), t.lnReadout(f(r.ln.mean[0]), f(1 / r.ln.invStdDev[0] ** 2 - 1e-5))];
    if (r.B === 1 && this.mode === 'train') lines.push(t.bnBatchOne);
    showLines(this._readoutEl, lines, 'div');
  }

  describe() { return this.t.bnAlt(this); }

  csv() {
    const { x, bn, ln } = this.result;
    const H = this.features;
    return `row,col,x,batchnorm,layernorm\n${[...x].map((v, k) => [Math.floor(k / H), k % H, v, bn[k], ln[k]].join(',')).join('\n')}\n`;
  }
}

PosnormBnVsLn.define('posnorm-bn-vs-ln');
