// long-context.js — <posnorm-long-context>: what RoPE does past the training
// length L, and how the long-context rules (Position Interpolation, dynamic
// NTK, YaRN, Llama 3.1) keep it inside what training saw; ALiBi as a
// reference. (a) the wavelength 2π/w_i of every dimension pair against L and
// factor·L; (b) for a seeded q and k, the score q·k after RoPE against the
// relative distance out to factor·L, the training window shaded.
import { addKoreanStrings } from '../i18n.js';
import koStrings from '../i18n/ko/long-context.js';
import { PnFigure } from './core/base.js';
import { fitCanvas, plotWithReadout, showLines, canvasWidth } from './draw/canvas.js';
import { fmt } from './draw/format.js';
import { drawLines, legend, legendBottom, title, titleExtra, titleRoom } from './draw/plots.js';
import { hRule, labelledRules, vRule } from './draw/axes.js';
import { extent, maxAbs } from './draw/extent.js';
import { rowDots } from './draw/row-dots.js';

export { configure } from './core/runtime.js';

// this module's own Korean labels (English ones load with every other label)
addKoreanStrings(koStrings);

/** The methods drawn, each with the scaling it passes to the kernels. */
// (not exported: the figure's own table, not an API of the package)
const METHODS = [
  { key: 'none', colour: '--pn-fg', dash: [], scaling: () => undefined },
  { key: 'linear', colour: '--pn-sin', dash: [], scaling: (f, L) => (f > 1 ? { type: 'linear', factor: f } : undefined) },
  { key: 'dynamic', colour: '--pn-cos', dash: [6, 3], scaling: (f, L) => (f > 1 ? { type: 'dynamic', factor: f, originalMaxPositions: L } : undefined) },
  { key: 'yarn', colour: '--pn-accent', dash: [], scaling: (f, L) => (f > 1 ? { type: 'yarn', factor: f, originalMaxPositions: L } : undefined) },
  { key: 'llama3', colour: '--pn-ref-sin', dash: [2, 3], scaling: (f, L) => (f > 1 ? { type: 'llama3', factor: f, originalMaxPositions: L, lowFreqFactor: 1, highFreqFactor: 4 } : undefined) },
];
const ALIBI_SLOPE = 1 / 256;
const SAMPLES = 256;
const TRAIN_SAMPLES = 160;
/** How many computed states long-context keeps (_state): each at most about 20 KB (dim 256). */
const KEPT_STATES = 8;

export class PosnormLongContext extends PnFigure {
  static controls = [
    { prop: 'trainLen', attr: 'train-len', kind: 'log', min: 256, max: 16384, logStep: Math.log10(2), def: 4096, label: 'lcTrainLen', round: (v) => 2 ** Math.round(Math.log2(v)) },
    { prop: 'factor', attr: 'factor', kind: 'log', min: 1, max: 32, logStep: Math.log10(2), def: 8, label: 'lcFactor', round: (v) => 2 ** Math.round(Math.log2(v)) },
    { prop: 'dim', attr: 'dim', kind: 'int', min: 16, max: 256, step: 16, def: 128, label: 'lcDim', round: (v) => Math.max(16, 16 * Math.round(v / 16)) },
    { prop: 'base', attr: 'base', kind: 'log', min: 1000, max: 1000000, def: 10000, label: 'base', round: (v) => Math.round(v) },
    // (the sequence is factor·L tokens: the farthest two are factor·L − 1
    // apart, the last distance the scores are drawn and read out at, where
    // the slider's far end, past its steps of 64, lands)
    { prop: 'distance', attr: 'distance', kind: 'int', min: 0, max: (f) => f.trainLen * f.factor - 1, step: 64, def: 12288, label: 'lcDistance' },
    { prop: 'seed', attr: 'seed', kind: 'int', min: 0, max: 2 ** 31 - 1, def: 7, label: 'seed', hidden: true },
  ];

  buildBody(figure) {
    ({ canvas: this.canvas, readout: this._readoutEl } = plotWithReadout(figure, { list: true }));
  }

  /**
   * The seeded query and key for the current dim: k is q plus a little
   * seeded noise, as for a query that attends to a matching key, so the
   * score starts high at distance 0 and its shape over distance is the
   * rotation's, not noise (scaled so that q·k ≈ 1 at distance 0).
   */
  _qk() {
    const key = `${this.dim}|${this.seed}`;
    if (key !== this._qkKey) {
      const r = this.pn.randomNormal(2 * this.dim, { seed: this.seed, std: 1 / Math.sqrt(this.dim) });
      const q = r.slice(0, this.dim);
      this._qkCache = { q, k: q.map((v, c) => v + 0.25 * r[this.dim + c]) };
      this._qkKey = key;
    }
    return this._qkCache;
  }

  /** Scores q·k at each distance in `ds` for one method: RoPE of q at d, of k at 0. */
  _scores(method, ds) {
    const { dim, base, factor, trainLen } = this;
    const { q, k } = this._qk();
    const scaling = method.scaling(factor, trainLen);
    const n = ds.length;
    // q at every distance, and the rotated copies, in arrays kept across
    // repaints (core/buffers.js: a drag would otherwise make two fresh
    // arrays of up to 257 × 256 values per method and input)
    const qs = this.scratch.f32('qs', (n + 1) * dim);
    for (let j = 0; j <= n; j++) qs.set(q, j * dim);
    // the whole sequence is factor·L long: one more token at its last position
    // makes dynamic and longrope choose their frequencies for that length
    const top = trainLen * factor;
    // (typed arrays filled in place: spreading ds and k into new arrays made
    // an iterator and a boxed number per value, most of a drag's garbage)
    const positionIds = new Int32Array(n + 1);
    for (let j = 0; j < n; j++) positionIds[j] = ds[j];
    positionIds[n] = top - 1;
    const rq = this.pn.rope(qs, { seqLen: n + 1, heads: 1, headDim: dim, base, positionIds, scaling, out: this.scratch.f32('rq', (n + 1) * dim) });
    const kk = this.scratch.f32('kk', 2 * dim);
    kk.set(k);
    kk.set(k, dim);
    const rk = this.pn.rope(kk, { seqLen: 2, heads: 1, headDim: dim, base, positionIds: Int32Array.of(0, top - 1), scaling, out: this.scratch.f32('rk', 2 * dim) });
    return rowDots(rq, rk, n, dim);
  }

  /**
   * What the drawing needs for the current dim, base, factor, training
   * length and seed: each method's frequencies, attention factor and scores
   * over the sequence, and the range of plain RoPE's scores in training.
   * The last KEPT_STATES of them are kept (most recently shown last), so a
   * reader stepping the training length or the factor back to a value seen
   * before gets its curves without the eleven RoPE sweeps that make them
   * (2.3–2.6 ms of a 3.4–3.9 ms repaint at the defaults).
   */
  _state() {
    const { dim, base, factor, trainLen } = this;
    const key = `${dim}|${base}|${factor}|${trainLen}|${this.seed}`;
    const states = (this._states ??= new Map());
    let state = states.get(key);
    if (state) states.delete(key);
    else {
      state = this._computeState();
      if (states.size >= KEPT_STATES) states.delete(states.keys().next().value);
    }
    states.set(key, state);
    return state;
  }

  /** The state of _state() for the current values, computed. */
  _computeState() {
    const { dim, base, factor, trainLen } = this;
    const top = trainLen * factor;
    const ds = Array.from({ length: SAMPLES }, (_, j) => Math.round((j / (SAMPLES - 1)) * (top - 1)));
    const methods = METHODS.map((m) => {
      const scaling = m.scaling(factor, trainLen);
      const f = this.pn.ropeFrequencies({ dim, base, scaling, seqLen: top });
      return { key: m.key, invFreq: f.invFreq, attentionFactor: f.attentionFactor, scores: this._scores(m, ds) };
    });
    // the range the plain model saw in training: scores over distances [0, L)
    const inTraining = this._scores(METHODS[0], Array.from({ length: TRAIN_SAMPLES }, (_, j) => Math.round((j / (TRAIN_SAMPLES - 1)) * (trainLen - 1))));
    // what the drawing needs of them, made once per key, in loops: spreads
    // of typed arrays ([...a], Math.max(...a)) went through the iterator
    // and made a third of what a d_model drag allocated (a heap profile of
    // a first drag: 25 MB in 32 inputs, and a minor GC every other input)
    for (const m of methods) {
      const w = m.invFreq, waves = new Float64Array(w.length);
      let turns = 0;
      for (let i = 0; i < w.length; i++) {
        waves[i] = (2 * Math.PI) / w[i];
        if (waves[i] <= trainLen) turns++;
      }
      Object.assign(m, { wavelengths: waves, waveExtent: extent(waves), turns });
    }
    const train = extent(inTraining);
    return { ds, methods, trainMin: train.min, trainMax: train.max, lim: maxAbs(methods.map((m) => m.scores), 1e-6) };
  }

  _compute() {
    const state = this._state();
    const at = METHODS.map((m) => this._scores(m, [this.distance])[0]);
    return { ...state, at };
  }

  render() {
    const t = this.t;
    const r = this._compute();
    const { trainLen: L, factor, distance } = this;
    const turns = r.methods.map((m) => m.turns);
    this.result = {
      distance,
      scores: Object.fromEntries(METHODS.map((m, k) => [m.key, r.at[k]])),
      attentionFactors: Object.fromEntries(r.methods.map((m) => [m.key, m.attentionFactor])),
      pairsTurningInside: Object.fromEntries(r.methods.map((m, k) => [m.key, turns[k]])),
      trainRange: [r.trainMin, r.trainMax],
      invFreq: Object.fromEntries(r.methods.map((m) => [m.key, Float32Array.from(m.invFreq)])),
      q: Float32Array.from(this._qk().q), k: Float32Array.from(this._qk().k),
    };
    const width = canvasWidth(this.canvas) || 300;
    const wide = width >= 620;
    const ph = Math.min(240, Math.max(150, (wide ? width / 2 : width) * 0.5));
    const colours = METHODS.map((m) => this.color(m.colour));
    const entries = METHODS.map((m, k) => [t[`lcMethod_${m.key}`], colours[k], m.dash]);
    const pw = wide ? (width - 90) / 2 : width - 60;
    // the panels start below the legend's last row, and below their titles'
    // lines where a narrow canvas wraps them; the canvas ends 22 px below
    // the last panel (its x labels)
    const sizing = this.canvas.getContext('2d');
    const top = Math.max(52, legendBottom(sizing, entries, 4, 12) + 26);
    // (side by side, the first title's room ends 8 px before the second's)
    const roomA = wide ? pw + 36 : titleRoom(sizing, 6), roomB = titleRoom(sizing, wide ? pw + 50 : 6);
    const extraA = titleExtra(sizing, t.lcWavesTitle, roomA);
    const extraB = titleExtra(sizing, t.lcScoreTitle, roomB);
    const a = { x: 46, y: top + (wide ? Math.max(extraA, extraB) : extraA), w: pw, h: ph };
    const b = wide ? { x: 46 + pw + 44, y: a.y, w: pw - 10, h: ph } : { x: 46, y: a.y + ph + 70 + extraB, w: pw, h: ph };
    const height = b.y + ph + (wide ? 18 : 22);
    const { ctx } = fitCanvas(this.canvas, height);
    ctx.clearRect(0, 0, width, height);
    legend(this, ctx, entries, 4, 12);
    // (a) wavelengths per pair, log axis, with L and factor·L
    title(this, ctx, t.lcWavesTitle, a.x - 40, a.y - 8, roomA);
    const waves = r.methods.map((m, k) => ({ ys: m.wavelengths, colour: colours[k], dash: METHODS[k].dash }));
    const yMin = Math.min(...r.methods.map((m) => m.waveExtent.min));
    const yMax = Math.max(L * factor, ...r.methods.map((m) => m.waveExtent.max));
    const Ya = drawLines(this, ctx, a, waves, { x0: 0, yMin, yMax: yMax * 2, log: true });
    // (at factor 1 the reach is L itself: one line, one label)
    labelledRules(this, ctx, a, (factor > 1 ? [[L, t.lcTrainMark(L)], [L * factor, t.lcReachMark(factor)]] : [[L, t.lcTrainMark(L)]]).map(([v, label]) => ({ y: Ya(v), dash: [3, 3], label })));
    // (b) scores against distance, the training window shaded, ALiBi's bias as reference
    title(this, ctx, t.lcScoreTitle, b.x - 40, b.y - 8, roomB);
    const lim = r.lim;
    const series = r.methods.map((m, k) => ({ ys: m.scores, colour: colours[k], dash: METHODS[k].dash }));
    const alibi = r.ds.map((d) => Math.max(-lim, -ALIBI_SLOPE * d * (lim / 8)));
    series.push({ ys: alibi, colour: this.color('--pn-muted'), dash: [1, 3] });
    const span = r.ds.at(-1) || 1;
    const Yb = drawLines(this, ctx, b, series, { x0: 0, dx: span / (SAMPLES - 1), yMin: -lim, yMax: lim, marker: L });
    for (const v of [r.trainMin, r.trainMax]) hRule(this, ctx, b, Yb(v), { dash: [4, 4] });
    vRule(this, ctx, b, b.x + (Math.min(distance, span) / span) * b.w);
    const inside = (v) => v >= r.trainMin && v <= r.trainMax;
    const each = (value) => t.listed(METHODS.map((m, k) => t.named(t[`lcMethod_${m.key}`], value(k))));
    const items = [
      t.lcReadoutScores(distance, each((k) => (inside(r.at[k]) ? fmt(r.at[k], 4) : t.lcOutside(fmt(r.at[k], 4)))), fmt(r.trainMin, 3), fmt(r.trainMax, 3)),
      t.lcReadoutTurns(L, each((k) => `${turns[k]}/${this.dim / 2}`)),
      t.lcReadoutFactors(each((k) => fmt(r.methods[k].attentionFactor, 5))),
      t.lcSources,
    ];
    showLines(this._readoutEl, items);
  }

  describe() { return this.t.lcAlt(this); }

  csv() {
    const r = this._compute();
    return `distance,${METHODS.map((m) => `score_${m.key}`).join(',')}\n${r.ds.map((d, j) => [d, ...r.methods.map((m) => m.scores[j])].join(',')).join('\n')}\n`;
  }
}

PosnormLongContext.define('posnorm-long-context');
