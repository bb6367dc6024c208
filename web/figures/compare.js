// compare.js — <posnorm-compare> (section 5): sinusoidal, learned, RoPE and
// ALiBi with the same seq_len, d_model and base, and the article's table.
import { addKoreanStrings } from '../i18n.js';
import koStrings from '../i18n/ko/compare.js';
import { PnFigure } from './core/base.js';
import { createPlot, createReadout, fitCanvas, canvasWidth, setText, showTable } from './draw/canvas.js';
import { fmt } from './draw/format.js';
import { drawMatrix } from './draw/matrix.js';
import { drawLines, legend, title, titleRowShifts } from './draw/plots.js';
import { PeErrorLine } from './draw/pe-error.js';
import { maxAbs } from './draw/extent.js';
import { rowDots } from './draw/row-dots.js';

export { configure } from './core/runtime.js';

// this module's own Korean labels (English ones load with every other label)
addKoreanStrings(koStrings);

export class PosnormCompare extends PnFigure {
  static controls = [
    { prop: 'seqLen', attr: 'seq-len', kind: 'int', min: 4, max: 128, def: 32, label: 'seqLen' },
    { prop: 'dModel', attr: 'd-model', kind: 'int', min: 4, max: 128, step: 2, def: 32, label: 'dModel', round: (v) => Math.max(4, 2 * Math.round(v / 2)) },
    { prop: 'base', attr: 'base', kind: 'log', min: 100, max: 100000, def: 10000, label: 'base', round: (v) => Math.round(v) },
    { prop: 'maxLen', attr: 'max-len', kind: 'int', min: 1, max: 128, def: 20, label: 'maxLen' },
    { prop: 'heads', attr: 'heads', kind: 'int', min: 1, max: 16, def: 8, label: 'heads' },
    { prop: 'head', attr: 'head', kind: 'int', min: 0, max: (f) => f.heads - 1, def: 0, label: 'head' },
    { prop: 'offset', attr: 'offset', kind: 'int', min: 0, max: 100, def: 10, label: 'ropeOffset' },
  ];

  static css = `
    table { border-collapse: collapse; margin: 0.6em 0 0; font-size: 0.9em; width: 100%; }
    th, td { border-bottom: 1px solid var(--pn-grid); padding: 0.25em 0.4em; text-align: left; }
  `;

  buildBody(figure) {
    const { plot, canvas } = createPlot();
    this.canvas = canvas;
    this._readoutEl = createReadout();
    this._table = document.createElement('table');
    this._table.setAttribute('part', 'table');
    this._errors = new PeErrorLine(this);
    figure.append(plot, this._readoutEl, this._errors.element, this._table);
    // off the page the figure's scratch is cleared: the parts kept in it
    // (tables, scores, the bias of every head) go too, and are computed
    // again at its next repaint
    this.addController({ hostDisconnected: () => { this._parts = null; } });
  }

  /** q·k after RoPE, q at start + Δ and k at start, for Δ in [0, seqLen). */
  _ropeScores(start) {
    const { seqLen, dModel, base } = this;
    const r = (this._qk ??= this.pn.randomNormal(2 * dModel, { seed: 11 }));
    const q = r.subarray(0, dModel), k = r.subarray(dModel, 2 * dModel);
    const qs = this.scratch.f32('qs', seqLen * dModel);
    for (let d = 0; d < seqLen; d++) qs.set(q, d * dModel);
    const positionIds = new Int32Array(seqLen);
    for (let d = 0; d < seqLen; d++) positionIds[d] = start + d;
    const rq = this.pn.rope(qs, { seqLen, heads: 1, headDim: dModel, base, positionIds, out: this.scratch.f32('rq', seqLen * dModel) });
    const rk = this.pn.rope(k, { seqLen: 1, heads: 1, headDim: dModel, base, offset: start, out: this.scratch.f32('rk', dModel) });
    return Array.from(rowDots(rq, rk, seqLen, dModel));
  }

  /**
   * What the panels show, each part computed again only when the controls
   * it depends on change (a drag of one control recomputes only its part):
   * the sinusoidal table, the learned table, RoPE's scores from 0 and from
   * the offset, and the ALiBi bias of every head.
   */
  _compute() {
    const { seqLen, dModel, base, maxLen, heads, offset } = this;
    const c = (this._parts ??= {});
    if (this._qkD !== dModel) { this._qk = null; this._qkD = dModel; }
    const peKey = `${seqLen}|${dModel}|${base}`;
    if (c.peKey !== peKey) {
      // (arrays of their own: a kept part must not share a scratch array with another)
      c.pe = this.pn.positionalEncoding({ seqLen, dModel, base, out: this.scratch.f32('pe', seqLen * dModel) });
      c.s0 = this._ropeScores(0);
      c.peKey = peKey;
      c.s1Key = undefined;
    }
    if (c.s1Key !== offset) {
      c.s1 = this._ropeScores(offset);
      c.s1Key = offset;
    }
    const lr = Math.min(maxLen, seqLen), learnedKey = `${lr}|${dModel}`;
    if (c.learnedKey !== learnedKey) {
      c.learned = this.pn.randomNormal(lr * dModel, { seed: 5, std: 0.5, out: this.scratch.f32('learned', lr * dModel) });
      c.learnedKey = learnedKey;
    }
    const alibiKey = `${heads}|${seqLen}`;
    if (c.alibiKey !== alibiKey) {
      c.slopes = this.pn.alibiSlopes(heads);
      c.alibi = this.pn.alibi({ heads, seqLen, out: this.scratch.f32('alibi', heads * seqLen * seqLen) });
      c.alibiKey = alibiKey;
    }
    return { ...c, lr };
  }

  render() {
    const t = this.t;
    const { seqLen, dModel, base, maxLen, heads, head, offset } = this;
    const { pe, learned, s0, s1, slopes, alibi, lr, peKey, learnedKey, alibiKey } = this._compute();
    const bias = alibi.subarray(head * seqLen * seqLen, (head + 1) * seqLen * seqLen);
    let ropeDiff = 0;
    s0.forEach((v, d) => { ropeDiff = Math.max(ropeDiff, Math.abs(v - s1[d])); });
    // (copies: s0, s1 and slopes are kept for later repaints, and a caller may write into its result)
    this.result = { ropeScores: [s0.slice(), s1.slice()], ropeDiff, slopes: slopes.slice(), bias: bias.slice(), learnedRows: lr, q: this._qk.slice(0, dModel), k: this._qk.slice(dModel) };

    const width = canvasWidth(this.canvas) || 300;
    const cols = width >= 560 ? 2 : 1;
    const pw = (width - 20 * cols) / cols, ph = Math.min(200, Math.max(120, pw * 0.6));
    const titles = [t.cmpSin, t.cmpLearned(maxLen), t.cmpRope(offset), t.cmpAlibi(head, fmt(slopes[head], 4))];
    // a row of panels moves down by the most its titles wrap on a narrow
    // canvas (the rows below with it), and the canvas grows by as much
    const sizing = this.canvas.getContext('2d');
    // (each title with its controls' longest values: max_len 128, offset 100, head 15 and its slope)
    const widest = [t.cmpSin, t.cmpLearned(128), t.cmpRope(100), t.cmpAlibi(15, '0.003906')];
    const shifts = titleRowShifts(sizing, titles.map((text, k) => [text, widest[k]]), cols, () => pw);
    const height = (ph + 34) * (4 / cols) + 10 + shifts.at(-1);
    const { ctx } = fitCanvas(this.canvas, height);
    ctx.clearRect(0, 0, width, height);
    const rect = (k) => ({ x: 10 + (k % cols) * (pw + 20), y: 24 + Math.floor(k / cols) * (ph + 34) + shifts[Math.floor(k / cols)], w: pw, h: ph });
    const r0 = rect(0), r1 = rect(1), r2 = rect(2), r3 = rect(3);
    title(this, ctx, titles[0], r0.x, r0.y - 6, pw);
    drawMatrix(this, ctx, (this._a ??= {}), pe, seqLen, dModel, r0, { key: peKey });
    title(this, ctx, titles[1], r1.x, r1.y - 6, pw);
    drawMatrix(this, ctx, (this._b ??= {}), learned, lr, dModel, { ...r1, h: (r1.h * lr) / seqLen }, { vmin: -1.5, vmax: 1.5, key: learnedKey });
    if (lr < seqLen) {
      ctx.fillStyle = this.color('--pn-grid');
      ctx.fillRect(r1.x, r1.y + (r1.h * lr) / seqLen, r1.w, r1.h - (r1.h * lr) / seqLen);
    }
    title(this, ctx, titles[2], r2.x, r2.y - 6, pw);
    const lim = maxAbs([s0, s1], 1e-6);
    const inner = { x: r2.x + 34, y: r2.y, w: r2.w - 34, h: r2.h - 18 };
    drawLines(this, ctx, inner, [{ ys: s0, colour: this.color('--pn-sin') }, { ys: s1, colour: this.color('--pn-accent'), dash: [5, 4] }], { yMin: -lim, yMax: lim });
    legend(this, ctx, [['0', this.color('--pn-sin')], [String(offset), this.color('--pn-accent'), [5, 4]]], inner.x + 4, inner.y + 8);
    title(this, ctx, titles[3], r3.x, r3.y - 6, pw);
    const sq = Math.min(r3.w * 0.6, r3.h);
    drawMatrix(this, ctx, (this._c ??= {}), bias, seqLen, seqLen, { ...r3, w: sq, h: sq }, { map: 'sequential', vmin: slopes[head] * -(seqLen - 1), vmax: 0, key: `${alibiKey}|${head}` });
    // every head's slope as a bar (log scale), the shown head in the accent colour
    const bx = r3.x + sq + 12, bw = r3.x + r3.w - bx, bh = r3.h / heads;
    slopes.forEach((m, h) => {
      ctx.fillStyle = this.color(h === head ? '--pn-accent' : '--pn-bar-before');
      ctx.fillRect(bx, r3.y + h * bh + 1, Math.max(2, bw * (1 + Math.log2(m) / 9)), Math.max(1, bh - 2));
    });

    setText(this._readoutEl, t.cmpReadout(this, ropeDiff.toExponential(1), [...slopes].map((m) => fmt(m, 4)).join(', ')));
    // the article's table (it depends on the language alone: a repaint writes none of it)
    showTable(this._table, t.cmpTable);
    this._errors.show({ seqLen, dModel, base });
  }

  describe() { return this.t.cmpAlt; }

  csv() {
    const [s0, s1] = this.result?.ropeScores ?? [[], []];
    return `distance,rope_score_start0,rope_score_start${this.offset}\n${s0.map((v, d) => `${d},${v},${s1[d]}`).join('\n')}\n`;
  }
}

PosnormCompare.define('posnorm-compare');
