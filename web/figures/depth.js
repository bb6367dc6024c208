// depth.js — <posnorm-depth> (Fig. 4): activation spread through a stack of
// seeded random residual layers, without normalisation and with Post-Norm,
// Pre-Norm and Pre-RMSNorm (C kernel pn_residual_stack_f32).
import { PnFigure } from './core/base.js';
import { whenIdle } from './core/observers.js';
import { fitCanvas, plotWithReadout, showLines } from './draw/canvas.js';
import { fmt } from './draw/format.js';
import { drawLines, legend, title } from './draw/plots.js';

export { configure } from './core/runtime.js';

const ROWS = 16;
/** Rows the gradients are taken over (fewer than ROWS, to stay cheap at 96 layers). */
const GRAD_ROWS = 4;
const MAX_LAYERS = 96;
const BLOCKS = [['plain', 'blockPlain', '--pn-fg'], ['post-ln', 'blockPost', '--pn-sin'], ['pre-ln', 'blockPre', '--pn-cos'], ['pre-rms', 'blockRms', '--pn-ref-sin']];

export class PosnormDepth extends PnFigure {
  static controls = [
    { prop: 'layers', attr: 'layers', kind: 'int', min: 1, max: MAX_LAYERS, def: 24, label: 'layers' },
    { prop: 'scale', attr: 'scale', kind: 'float', min: 0.1, max: 3, step: 0.05, def: 1, label: 'weightScale', round: (v) => Math.round(v * 100) / 100 },
    { prop: 'width', attr: 'width', kind: 'int', min: 8, max: 64, step: 8, def: 32, label: 'width', round: (v) => Math.max(8, v - (v % 8)) },
    { prop: 'seed', attr: 'seed', kind: 'int', min: 0, max: 2 ** 31 - 1, def: 1, label: 'seed', hidden: true },
  ];

  buildBody(figure) {
    ({ canvas: this.canvas, readout: this._readoutEl } = plotWithReadout(figure));
  }

  _compute() {
    const { layers, width, scale, seed } = this;
    const x0 = this.buffer('x0', ROWS * width), w = this.buffer('w', MAX_LAYERS * width * width);
    // unit-scale weights for the deepest stack, drawn again only when their
    // width or seed changes: a shallower stack uses the first layers
    const wKey = `${width}|${seed}`;
    if (wKey !== this._wKey || w !== this._w) {
      this.pn.randomNormal(ROWS * width, { seed, out: x0 });
      this.pn.randomNormal(MAX_LAYERS * width * width, { seed: seed + 1, std: 1 / Math.sqrt(width), out: w });
      this._wKey = wKey;
      this._w = w;
      this._key = undefined;
    }
    const key = `${layers}|${scale}`;
    if (key !== this._key) {
      this.stds = BLOCKS.map(([block]) => this.pn.residualStack(x0, w, { width, layers, block, scale }));
      this._key = key;
    }
    return this.stds;
  }

  /** The inputs of the current stack (copies; weights already scaled), for checks. */
  get inputs() {
    this._compute();
    const weights = Float32Array.from(this.buffer('w', MAX_LAYERS * this.width ** 2).array.subarray(0, this.layers * this.width ** 2), (t) => t * this.scale);
    return { x0: Float32Array.from(this.buffer('x0', ROWS * this.width).array), weights, rows: ROWS };
  }

  /**
   * Weight-gradient norms per layer for every block (residualStack with
   * gradients, on the first GRAD_ROWS rows), computed after the frame in
   * idle time and cached by the stack's inputs; null until they are ready.
   */
  _gradients() {
    const { layers, width, scale, seed } = this;
    const key = `${layers}|${width}|${scale}|${seed}`;
    if (this._gradKey === key) return this._grads;
    this._gradKey = key;
    this._grads = null;
    const run = () => {
      if (this._gradKey !== key || !this.pn || !this.isConnected) return;
      const x0 = this.buffer('x0', ROWS * width).subarray(0, GRAD_ROWS * width);
      const w = this.buffer('w', MAX_LAYERS * width * width);
      this._grads = BLOCKS.map(([block]) => this.pn.residualStack(x0, w, { width, layers, block, scale, gradients: true }).gradNorm);
      this.invalidate();
    };
    whenIdle(run);
    return null;
  }

  render() {
    const t = this.t;
    const stds = this._compute();
    const grads = this._gradients();
    const width = this.canvas.clientWidth || 300;
    const wide = width >= 620;
    const ph = Math.round(Math.min(300, Math.max(200, (wide ? width / 2 : width) * 0.5)));
    const height = wide ? ph + 70 : 2 * ph + 110;
    const { ctx } = fitCanvas(this.canvas, height);
    ctx.clearRect(0, 0, width, height);
    const top = legend(this, ctx, BLOCKS.map(([, key, c], k) => [t[key], this.color(c), k === 3 ? [5, 4] : []]), 44, 12);
    const pw = wide ? (width - 120) / 2 : width - 56;
    const a = { x: 44, y: top + 36, w: pw, h: ph };
    const b = wide ? { x: 44 + pw + 64, y: top + 36, w: pw, h: ph } : { x: 44, y: top + ph + 100, w: pw, h: ph };
    const panel = (rect, data, label) => {
      const finite = data.flatMap((s) => [...s]).filter((v) => Number.isFinite(v) && v > 0);
      const lo = Math.min(...finite, 1), hi = Math.max(...finite, 1);
      title(this, ctx, label, rect.x - 40, rect.y - 10);
      drawLines(this, ctx, rect, BLOCKS.map(([, , c], k) => ({ ys: [...data[k]], colour: this.color(c), dash: k === 3 ? [5, 4] : [] })), { x0: 1, yMin: lo / 2, yMax: hi * 2, log: true });
    };
    panel(a, stds, t.depthStdTitle);
    if (grads) panel(b, grads, t.depthGradTitle);
    else title(this, ctx, t.depthGradPending, b.x - 40, b.y - 10);
    const last = t.listed(BLOCKS.map(([, key], k) => t.named(t[key], fmt(stds[k][this.layers - 1], 4))));
    this.result = { stds: stds.map((s) => Float32Array.from(s)), gradNorms: grads ? grads.map((g) => Float32Array.from(g)) : null };
    const items = [t.depthReadout(last)];
    if (grads) {
      const ratio = (k) => grads[k][this.layers - 1] / grads[k][0];
      const post = ratio(1), pre = ratio(2);
      this.result.gradRatio = { post, pre };
      items.push(t.depthGradReadout(fmt(post, 3), fmt(pre, 3), post > 1.5 * pre && post > 1));
    }
    items.push(t.depthXiong);
    showLines(this._readoutEl, items, 'div');
  }

  describe() { return this.t.depthAlt(this); }

  toCsv() {
    const stds = this._compute();
    return `layer,${BLOCKS.map(([b]) => `std_${b}`).join(',')}\n${[...stds[0]].map((_, l) => [l + 1, ...stds.map((s) => s[l])].join(',')).join('\n')}\n`;
  }
}

PosnormDepth.define('posnorm-depth');
