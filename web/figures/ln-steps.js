// ln-steps.js — <posnorm-ln-steps> (Fig. 5): one token vector through
// x → x − μ → x̂ → γ·x̂ + β, four panels with live numbers.
import { addKoreanStrings } from '../i18n.js';
import koStrings from '../i18n/ko/ln-steps.js';
import { PnFigure } from './core/base.js';
// pn.layerNormSteps (core/runtime.js's instance has the core's calls alone)
import '../../src/js/figure-kernels.js';
import { fitCanvas, plotWithReadout, showLines, canvasWidth } from './draw/canvas.js';
import { fmt } from './draw/format.js';
import { drawBars, title } from './draw/plots.js';
import { maxAbs } from './draw/extent.js';

export { configure } from './core/runtime.js';

// this module's own Korean labels (English ones load with every other label)
addKoreanStrings(koStrings);

const H = 16;

export class PosnormLnSteps extends PnFigure {
  static controls = [
    { prop: 'gamma', attr: 'gamma', kind: 'float', min: 0, max: 3, step: 0.05, def: 1, label: 'gamma', round: (v) => Math.round(v * 100) / 100 },
    { prop: 'beta', attr: 'beta', kind: 'float', min: -3, max: 3, step: 0.05, def: 0, label: 'beta', round: (v) => Math.round(v * 100) / 100 },
    { prop: 'seed', attr: 'seed', kind: 'int', min: 0, max: 2 ** 31 - 1, def: 2, label: 'seed', hidden: true },
  ];

  buildBody(figure) {
    ({ canvas: this.canvas, readout: this._readoutEl } = plotWithReadout(figure, { list: true }));
  }

  buildExtraControls() {
    this.addButton('resample', () => this.request('seed', (this.seed + 1) % 2 ** 31, 'user'));
  }

  render() {
    const t = this.t;
    const x = this.pn.randomNormal(H, { seed: this.seed, mean: 2, std: 1.5 });
    const s = this.pn.layerNormSteps(x, { gamma: new Float32Array(H).fill(this.gamma), beta: new Float32Array(H).fill(this.beta) });
    this.result = { x, ...s };
    const panels = [[t.stepX, x, '--pn-bar-before'], [t.stepCentered, s.centered, '--pn-bar-before'], [t.stepNormalized, s.normalized, '--pn-bar-after'], [t.stepY, s.y, '--pn-bar-after']];
    const width = canvasWidth(this.canvas) || 300;
    const ph = 70, height = panels.length * (ph + 22);
    const { ctx } = fitCanvas(this.canvas, height);
    ctx.clearRect(0, 0, width, height);
    const lim = maxAbs(panels.map(([, v]) => v), 1e-6);
    panels.forEach(([label, values, colour], k) => {
      const y = k * (ph + 22) + 18;
      title(this, ctx, label, 4, y - 2);
      drawBars(this, ctx, { x: 4, y, w: width - 8, h: ph }, values, lim, this.color(colour));
    });
    const f = (v) => fmt(v, 5);
    const sigma = Math.sqrt(s.variance);
    const items = [
      t.stepsReadout(f(s.mean), f(sigma)),
      t.stepsChain(f(x[0]), f(s.centered[0]), f(s.normalized[0]), f(s.y[0])),
    ];
    showLines(this._readoutEl, items);
  }

  describe() { return this.t.stepsAlt; }

  csv() {
    const r = this.result;
    return `feature,x,centered,normalized,y\n${[...r.x].map((v, j) => [j, v, r.centered[j], r.normalized[j], r.y[j]].join(',')).join('\n')}\n`;
  }
}

PosnormLnSteps.define('posnorm-ln-steps');
