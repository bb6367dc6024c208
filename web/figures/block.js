// block.js — <posnorm-block> (§10): the article's example tokens, seeded
// embeddings + sinusoidal PE, through one Transformer block — Pre-Norm (the
// article's code) or Post-Norm (the original paper) — every intermediate
// tensor as a heatmap with each token's mean and std beside it (C kernel
// pn_transformer_block_f32: multi-head attention, GELU FFN — the erf form of
// the article's nn.GELU(), or the tanh approximation — residuals).
import { addKoreanStrings } from '../i18n.js';
import koStrings from '../i18n/ko/block.js';
import { PnFigure } from './core/base.js';
// pn.transformerBlock (core/runtime.js's instance has the core's calls alone)
import '../../src/js/figure-kernels.js';
import { fitCanvas, plotWithReadout, showLines, canvasWidth } from './draw/canvas.js';
import { fmt } from './draw/format.js';
import { drawMatrix } from './draw/matrix.js';
import { title } from './draw/plots.js';
import { TOKENS } from '../i18n/notation.js';
import { maxAbs } from './draw/extent.js';

export { configure } from './core/runtime.js';

// this module's own Korean labels (English ones load with every other label)
addKoreanStrings(koStrings);

const T = TOKENS.length;
const EPS = 1e-5;

/** Per-token mean, std and root mean square of a [T × d] tensor. */
function tokenStats(a, d) {
  return TOKENS.map((_, r) => {
    const row = a.subarray(r * d, (r + 1) * d);
    let m = 0, q = 0;
    for (const v of row) { m += v; q += v * v; }
    m /= d;
    let s = 0;
    for (const v of row) s += (v - m) ** 2;
    return { mean: m, std: Math.sqrt(s / d), rms: Math.sqrt(q / d) };
  });
}

export class PosnormBlock extends PnFigure {
  static controls = [
    { prop: 'placement', attr: 'placement', kind: 'choice', choices: ['pre', 'post'], choiceLabels: { pre: 'blockPre', post: 'blockPost' }, def: 'pre', label: 'blockPlacement' },
    { prop: 'norm', attr: 'norm', kind: 'choice', choices: ['layer', 'rms'], choiceLabels: { layer: 'normLayer', rms: 'normRms' }, def: 'layer', label: 'blockNorm' },
    { prop: 'pe', attr: 'pe', kind: 'choice', choices: ['on', 'off'], choiceLabels: { off: 'peOff', on: 'peOn' }, def: 'on', label: 'withPe' },
    { prop: 'gelu', attr: 'gelu', kind: 'choice', choices: ['erf', 'tanh'], choiceLabels: { erf: 'geluErf', tanh: 'geluTanh' }, def: 'erf', label: 'geluForm' },
    { prop: 'dModel', attr: 'd-model', kind: 'int', min: 8, max: 32, step: 8, def: 16, label: 'dModel', round: (v) => Math.max(8, 8 * Math.round(v / 8)) },
    // 1, 2 or 4 heads (d_model 8 is not split in 3): a slider over log10 by
    // log10(2), so each arrow key moves one head count either way (an int
    // slider that rounded 3 up to 4 could not step down from 4)
    { prop: 'heads', attr: 'heads', kind: 'log', min: 1, max: 4, logStep: Math.log10(2), def: 2, label: 'attnHeads', round: (v) => (v < 1.5 ? 1 : v < 3 ? 2 : 4) },
    { prop: 'seed', attr: 'seed', kind: 'int', min: 0, max: 2 ** 31 - 1, def: 4, label: 'seed', hidden: true },
  ];

  buildBody(figure) {
    ({ canvas: this.canvas, readout: this._readoutEl } = plotWithReadout(figure));
  }

  /**
   * x = seeded embeddings (+ PE) and the seeded weights, drawn again only
   * when the seed, d_model or PE change (not on every repaint).
   */
  _draw() {
    const d = this.dModel, dFF = 4 * d, key = `${this.seed}|${d}|${this.pe}`;
    if (key !== this._drawKey) {
      const x = this.pn.randomNormal(T * d, { seed: this.seed });
      if (this.pe === 'on') {
        const pe = this.pn.positionalEncoding({ seqLen: T, dModel: d });
        for (let k = 0; k < x.length; k++) x[k] += pe[k];
      }
      const weights = new Float32Array(4 * d * d + 2 * d * dFF);
      weights.set(this.pn.randomNormal(4 * d * d + d * dFF, { seed: this.seed + 1, std: 1 / Math.sqrt(d) }));
      weights.set(this.pn.randomNormal(dFF * d, { seed: this.seed + 2, std: 1 / Math.sqrt(dFF) }), 4 * d * d + d * dFF);
      this._drawn = { x, weights };
      this._drawKey = key;
    }
    return { ...this._drawn, options: { dModel: d, heads: this.heads, dFF, placement: this.placement, norm: this.norm, gelu: this.gelu, eps: EPS } };
  }

  /** What the block is run on (copies): x = embeddings (+ PE), the weights and the options; undefined until the figure has started (they are drawn by the kernels). */
  get inputs() {
    if (!this.onPage || !this.pn) return undefined;
    const { x, weights, options } = this._draw();
    return { x: x.slice(), weights: weights.slice(), options };
  }

  /** The panels in the order the block computes them: [tensor key, title]. */
  _panels() {
    const t = this.t;
    const order = this.placement === 'pre'
      ? ['x', 'attnInput', 'attention', 'attnOutput', 'residual1', 'ffnInput', 'ffnOutput', 'output']
      : ['x', 'attention', 'attnOutput', 'residual1', 'ffnInput', 'ffnOutput', 'residual2', 'output'];
    const titles = { x: this.pe === 'on' ? t.blockEmbPe : t.blockEmb, attention: t.blockAttn, ...t.blockTensors(this.placement, t.blockNormName(this.norm)) };
    return order.map((key) => [key, titles[key]]);
  }

  render() {
    const t = this.t, d = this.dModel, heads = this.heads;
    const { x, weights, options } = this._draw();
    const r = this.pn.transformerBlock(x, weights, options);
    const panels = this._panels();
    const stats = Object.fromEntries(panels.filter(([k]) => k !== 'attention').map(([k]) => [k, tokenStats(r[k], d)]));
    // where a norm has just run: Pre-Norm's two inputs, Post-Norm's h and y
    const normed = this.placement === 'pre' ? ['attnInput', 'ffnInput'] : ['ffnInput', 'output'];
    const pin = normed.flatMap((k) => stats[k]);
    const pinned = this.norm === 'rms'
      ? { rms: Math.max(...pin.map((s) => Math.abs(s.rms - 1))) }
      : { mean: Math.max(...pin.map((s) => Math.abs(s.mean))), std: Math.max(...pin.map((s) => Math.abs(s.std - 1))) };
    this.result = { ...r, stats, pinned };

    const width = canvasWidth(this.canvas) || 300;
    const cols = width >= 620 ? 2 : 1;
    const pw = (width - 8 * (cols + 1)) / cols, rowH = 18, ph = T * rowH + 30;
    const height = Math.ceil(panels.length / cols) * ph + 4;
    const { ctx } = fitCanvas(this.canvas, height);
    ctx.clearRect(0, 0, width, height);
    const lim = maxAbs(panels.filter(([k]) => k !== 'attention').map(([k]) => r[k]), 1e-6);
    ctx.font = '11px system-ui, sans-serif';
    const label = 58, statW = ctx.measureText(t.blockTokenStats('-0.00e-0', '0.000')).width + 6;
    this._m ??= {};
    panels.forEach(([key, name], k) => {
      const px = 8 + (k % cols) * (pw + 8), py = Math.floor(k / cols) * ph + 18;
      title(this, ctx, name, px, py - 3);
      ctx.font = '11px system-ui, sans-serif';
      const rect = { x: px + label, y: py, w: pw - label - (key === 'attention' ? 0 : statW), h: T * rowH };
      if (key === 'attention') {
        const hw = (rect.w - 6 * (heads - 1)) / heads;
        for (let h = 0; h < heads; h++) {
          const cell = { ...rect, x: rect.x + h * (hw + 6), w: hw };
          drawMatrix(this, ctx, (this._m[`a${h}`] ??= {}), r.attention.subarray(h * T * T, (h + 1) * T * T), T, T, cell, { map: 'sequential', vmin: 0, vmax: 1 });
        }
      } else {
        drawMatrix(this, ctx, (this._m[key] ??= {}), r[key], T, d, rect, { vmin: -lim, vmax: lim });
      }
      ctx.fillStyle = this.color('--pn-fg');
      ctx.textBaseline = 'middle';
      TOKENS.forEach((tok, i) => {
        const y = py + (i + 0.5) * rowH;
        ctx.textAlign = 'right';
        ctx.fillText(tok, px + label - 4, y);
        if (key === 'attention') return;
        const s = stats[key][i];
        ctx.textAlign = 'left';
        ctx.fillText(t.blockTokenStats(fmt(s.mean, 2), fmt(s.std, 3)), rect.x + rect.w + 4, y);
      });
    });

    const outStd = stats.output.map((s) => fmt(s.std, 3)).join(', ');
    const items = [
      this.norm === 'rms' ? t.blockPinnedRms(fmt(pinned.rms, 2)) : t.blockPinned(fmt(pinned.mean, 2), fmt(pinned.std, 2)),
      this.placement === 'pre' ? t.blockPreOut(outStd) : t.blockPostOut(outStd),
      t.blockScale(fmt(lim, 3)),
    ];
    showLines(this._readoutEl, items, 'div');
  }

  describe() { return this.t.blockAlt(this); }

  csv() {
    const r = this.result, d = this.dModel;
    const lines = [`tensor,token,${Array.from({ length: Math.max(d, T) }, (_, c) => `v${c}`).join(',')}`];
    for (const [key] of this._panels()) {
      if (key === 'attention') {
        for (let h = 0; h < this.heads; h++) TOKENS.forEach((tok, i) => lines.push(`attention_head${h},${tok},${[...r.attention.subarray((h * T + i) * T, (h * T + i + 1) * T)].join(',')}`));
      } else {
        TOKENS.forEach((tok, i) => lines.push(`${key},${tok},${[...r[key].subarray(i * d, (i + 1) * d)].join(',')}`));
      }
    }
    return `${lines.join('\n')}\n`;
  }
}

PosnormBlock.define('posnorm-block');
