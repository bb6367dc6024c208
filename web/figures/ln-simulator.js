// ln-simulator.js — <posnorm-ln-simulator>: H features drawn from N(μ, σ²),
// normalised by LayerNorm with scalar γ and β; histograms before and after,
// measured statistics, and the four steps of the formula with live numbers.
import { addKoreanStrings } from '../i18n.js';
import koStrings from '../i18n/ko/ln-simulator.js';
import { PnFigure } from './core/base.js';
import { createPlot, createReadout, fitCanvas, canvasWidth, setText, showLines } from './draw/canvas.js';
import { fmt, ticks } from './draw/format.js';
import { vRule, xTicks } from './draw/axes.js';

export { configure } from './core/runtime.js';

// this module's own Korean labels (English ones load with every other label)
addKoreanStrings(koStrings);

const BINS = 40;

export class PosnormLnSimulator extends PnFigure {
  static controls = [
    { prop: 'features', attr: 'features', kind: 'int', min: 8, max: 4096, def: 256, label: 'features' },
    { prop: 'mu', attr: 'mu', kind: 'float', min: -10, max: 10, step: 0.1, def: 3, label: 'mu', round: (v) => Math.round(v * 10) / 10 },
    { prop: 'sigma', attr: 'sigma', kind: 'float', min: 0.1, max: 10, step: 0.1, def: 2, label: 'sigma', round: (v) => Math.round(v * 10) / 10 },
    { prop: 'gamma', attr: 'gamma', kind: 'float', min: 0, max: 3, step: 0.05, def: 1, label: 'gamma', round: (v) => Math.round(v * 100) / 100 },
    { prop: 'beta', attr: 'beta', kind: 'float', min: -3, max: 3, step: 0.05, def: 0, label: 'beta', round: (v) => Math.round(v * 100) / 100 },
    { prop: 'eps', attr: 'eps', kind: 'log', min: 1e-8, max: 1, logStep: 1, def: 1e-5, label: 'eps', round: (v) => 10 ** Math.round(Math.log10(v)), format: (v) => v.toExponential(0) },
    { prop: 'seed', attr: 'seed', kind: 'int', min: 0, max: 2 ** 31 - 1, def: 1, label: 'seed', hidden: true },
  ];

  static css = `
    .panels { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(100%, 16rem), 1fr)); gap: 0.8em; }
    .panel h3 { margin: 0 0 0.2em; font-size: 0.95em; font-weight: 600; }
  `;

  buildBody(figure) {
    const panels = document.createElement('div');
    panels.className = 'panels plot';
    panels.setAttribute('part', 'plot');
    this._panels = ['before', 'after'].map((key) => {
      const box = document.createElement('div');
      box.className = 'panel';
      const h = document.createElement('h3');
      h.dataset.key = key;
      const { canvas } = createPlot();
      canvas.dataset.panel = key; // its text alternative: the figure's, then the panel's name
      const stats = createReadout('p', false);
      box.append(h, canvas, stats);
      panels.append(box);
      return { canvas, stats, key };
    });
    this._steps = document.createElement('ol');
    this._steps.className = 'steps';
    this._steps.setAttribute('part', 'steps');
    this._steps.setAttribute('aria-live', 'polite');
    figure.append(panels, this._steps);
  }

  buildExtraControls() {
    this.addButton('resample', () => this.request('seed', (this.seed + 1) % 2 ** 31, 'user'));
  }

  _compute() {
    const h = this.features;
    const [x, y, g, b, tmp] = ['x', 'y', 'gamma', 'beta', 'tmp'].map((name) => this.buffer(name, h));
    this.pn.randomNormal(h, { mean: this.mu, std: this.sigma, seed: this.seed, out: x });
    g.array.fill(this.gamma);
    b.array.fill(this.beta);
    const out = this.pn.layerNorm(x, { cols: h, gamma: g, beta: b, eps: this.eps, out: y });
    // measured statistics: population mean and std, via the same kernel with eps = 0
    const sx = this.pn.layerNorm(x, { cols: h, eps: 0, out: tmp });
    const sy = this.pn.layerNorm(y, { cols: h, eps: 0, out: tmp });
    const stdOf = (inv) => (Number.isFinite(inv) ? 1 / inv : 0);
    return {
      inputMean: sx.mean[0], inputStd: stdOf(sx.invStdDev[0]),
      outputMean: sy.mean[0], outputStd: stdOf(sy.invStdDev[0]),
      mu: out.mean[0], variance: stdOf(sx.invStdDev[0]) ** 2, inv: out.invStdDev[0],
      x1: x.array[0], y1: y.array[0],
    };
  }

  _histogram(panel, data, colourVar, mean) {
    const width = canvasWidth(panel.canvas) || 280;
    const height = Math.round(Math.min(220, Math.max(150, width * 0.5)));
    const { ctx } = fitCanvas(panel.canvas, height);
    const h = this.pn.histogram(data, { bins: BINS });
    const m = { l: 8, r: 8, t: 6, b: 22 };
    const w = width - m.l - m.r, ph = height - m.t - m.b;
    const peak = Math.max(1, ...h.counts);
    ctx.clearRect(0, 0, width, height);
    ctx.fillStyle = this.color(colourVar);
    const bw = w / BINS;
    for (let k = 0; k < BINS; k++) {
      const bh = (h.counts[k] / peak) * ph;
      ctx.fillRect(m.l + k * bw + 0.5, m.t + ph - bh, Math.max(1, bw - 1), bh);
    }
    const X = (v) => m.l + ((v - h.min) / (h.max - h.min)) * w;
    xTicks(this, ctx, ticks(h.min, h.max, Math.max(2, Math.floor(w / 60))), X, m.t + ph, (v) => fmt(v, 3));
    vRule(this, ctx, { y: m.t, h: ph }, X(mean), { colour: '--pn-fg', dash: [4, 3] });
    return h;
  }

  describe() {
    return this.t.lnAlt({ h: this.features, mu: this.mu, sigma: this.sigma, gamma: this.gamma, beta: this.beta });
  }

  /** Input and output per feature as CSV. */
  csv() {
    this._compute();
    const x = this.buffer('x', this.features).array, y = this.buffer('y', this.features).array;
    const lines = ['feature,x,y'];
    for (let k = 0; k < x.length; k++) lines.push(`${k},${x[k]},${y[k]}`);
    return `${lines.join('\n')}\n`;
  }

  render() {
    const t = this.t;
    const s = this._compute();
    this.stats = s;
    const [before, after] = this._panels;
    this._histogram(before, this.buffer('x', this.features), '--pn-bar-before', s.inputMean);
    this._histogram(after, this.buffer('y', this.features), '--pn-bar-after', s.outputMean);
    const d4 = (v) => (Math.abs(v) < 5e-5 ? 0 : v).toFixed(4); // no "-0.0000"
    setText(before.stats, t.lnStats(d4(s.inputMean), d4(s.inputStd)));
    setText(after.stats, t.lnStats(d4(s.outputMean), d4(s.outputStd)));
    const f = (v) => fmt(v, 5);
    const xhat = (s.x1 - s.mu) * s.inv;
    const items = [
      [t.step1, t.lnStepMean(f(s.mu))],
      [t.step2, t.lnStepVariance(f(s.variance))],
      [t.step3, t.lnStepNormalize(f(s.x1), f(s.mu), f(s.variance), this.eps.toExponential(0), f(xhat))],
      [t.step4, t.lnStepScale(this.gamma, f(xhat), this.beta, f(s.y1))],
    ];
    showLines(this._steps, items.map(([label, text]) => ({ parts: [['b', `${label} `], text] })));
  }
}

PosnormLnSimulator.define('posnorm-ln-simulator');
