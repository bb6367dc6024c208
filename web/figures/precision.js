// precision.js — <posnorm-precision>: what float32 does to the article's own
// PyTorch PE code. For positions from 1 to 2^24 (log axis): the max error of
// the float32 code and of posnorm against float64, the distance between
// neighbouring positions' encodings (float64: the same at every position,
// since PE(p+1) is a rotation of PE(p); float32 code: whatever its errors
// leave), and where neighbouring positions become closer than the float32
// code's own error: the first position where some pair's error reaches the
// step that pair takes from p to p + 1 (the slow pairs, which carry
// long-range position, get there first). The type selector runs the same
// code in bfloat16 or float16 (in float32 then rounded, or every step in the
// type) and adds where the type breaks: the integer positions it still
// tells apart, and the dimension from which the table's cos columns are
// constant over positions 0 … pos. float16 with every step in it cannot
// hold positions from 65520 (stored as Infinity: the code's sin and cos are
// NaN there); the readout says so, and gives no numbers for that code there.
import { addKoreanStrings } from '../i18n.js';
import koStrings from '../i18n/ko/precision.js';
import { PnFigure } from './core/base.js';
import { fitCanvas, plotWithReadout, showLines, canvasWidth } from './draw/canvas.js';
import { fmt } from './draw/format.js';
import { drawLines, legend, legendBottom, title, titleExtra, titleRoom } from './draw/plots.js';
import { vRule, xLabels } from './draw/axes.js';

export { configure } from './core/runtime.js';

// this module's own Korean labels (English ones load with every other label)
addKoreanStrings(koStrings);

const SAMPLES = 72;
const LINES = [['err32', '--pn-accent', []], ['blur', '--pn-bar-after', [1, 2]], ['err64', '--pn-sin', []], ['dist64', '--pn-fg', [6, 3]], ['dist32', '--pn-cos', [2, 3]]];
/** Significant bits of each type's significand: integers are exact up to 2^bits. */
const BITS = { float32: 24, bfloat16: 8, float16: 11 };
/** Each type's largest exponent: its largest finite value is (2 − 2^(1−bits))·2^emax. */
const EMAX = { float32: 127, bfloat16: 127, float16: 15 };

/**
 * The type's largest finite value and the first integer it stores as
 * Infinity: halfway from that value to 2^(emax+1), where round to nearest
 * even goes up (the largest finite value's significand is odd). float16:
 * 65504 and 65520; bfloat16 and float32 only past 3.4e38, far above 2^24.
 */
const OVERFLOW = Object.fromEntries(Object.keys(BITS).map((type) => {
  const e = EMAX[type], bits = BITS[type];
  return [type, { max: 2 ** (e + 1) - 2 ** (e + 1 - bits), from: 2 ** (e + 1) - 2 ** (e - bits) }];
}));

/**
 * How many integers a type with `bits` significant bits stores as v (finite,
 * at least 1): those less than half a spacing from v, and those exactly half
 * a spacing away when v's significand is even (round to nearest even sends
 * a tie to it). The spacing below a power of two is half that above it.
 * float16: 65504 (odd) is shared by 31 integers, 65472 (even) by 33, 2048
 * by 2 (2048, and 2049 halfway to 2050); 1 wherever integers are exact.
 */
function sharing(v, bits) {
  let e = Math.floor(Math.log2(v));
  if (2 ** e > v) e--;
  else if (2 ** (e + 1) <= v) e++;
  const up = 2 ** (e + 1 - bits), down = v === 2 ** e ? up / 2 : up;
  const even = (v / up) % 2 === 0;
  // the integers k ≥ 1 with k < half, and k = half when it is a tie won by v
  const side = (half) => Math.ceil(half) - 1 + (half >= 1 && Number.isInteger(half) && even ? 1 : 0);
  return 1 + side(down / 2) + side(up / 2);
}

/** codeErrors' four results, read at once by _at (one figure computes at a time). */
const ERRORS = new Float64Array(4);

/**
 * Writes the float64 row of position p (row[at + c] = sin, row[at + c + 1] =
 * cos of p·w[c]) and returns posnorm's largest error on it, max |own − row|.
 * The error loops are functions of their own, with typed arrays and
 * numbers only (as draw/row-dots.js): inside `_at`, the first drag that
 * read kept rows (the type selector's) took `_at` down a branch it had no
 * type feedback for, and its loop ran deoptimised for the first inputs
 * (its second input rendered in 7–15 ms against 2–4, issue #20).
 */
function referenceRow(row, at, p, w, own, d) {
  let err = 0;
  for (let c = 0; c < d; c += 2) {
    const angle = p * w[c], s = Math.sin(angle), co = Math.cos(angle);
    row[at + c] = s;
    row[at + c + 1] = co;
    err = Math.max(err, Math.abs(own[c] - s), Math.abs(own[c + 1] - co));
  }
  return err;
}

/**
 * The selected code's rows p and p + 1 (a32, 2·d values) against the
 * float64 row of p (row from `at`): out = [largest error, the sum of the
 * squared errors, the squared distance between the code's rows (_at takes
 * the square roots), the largest pair error over the
 * pair's chord (at 1 the code cannot tell p from p + 1)].
 */
function codeErrors(a32, row, at, chord, d, out) {
  let err32 = 0, norm32 = 0, dist32 = 0, blur = 0;
  for (let c = 0; c < d; c += 2) {
    const es = Math.abs(a32[c] - row[at + c]), ec = Math.abs(a32[c + 1] - row[at + c + 1]), e2 = es * es + ec * ec;
    // sqrt of the sum, not Math.hypot: errors are at most 2, and hypot's
    // scaling was half of this loop's time
    blur = Math.max(blur, Math.sqrt(e2) / chord[c >> 1]);
    err32 = Math.max(err32, es, ec);
    norm32 += e2;
    const ds = a32[d + c] - a32[c], dc = a32[d + c + 1] - a32[c + 1];
    dist32 += ds * ds + dc * dc;
  }
  out[0] = err32;
  out[1] = norm32;
  out[2] = dist32;
  out[3] = blur;
  return out;
}

export class PosnormPrecision extends PnFigure {
  static controls = [
    { prop: 'dModel', attr: 'd-model', kind: 'int', min: 16, max: 1024, step: 16, def: 512, label: 'dModel', round: (v) => Math.max(16, 16 * Math.round(v / 16)) },
    { prop: 'maxExp', attr: 'max-exp', kind: 'int', min: 8, max: 24, def: 24, label: 'precMaxExp' },
    { prop: 'base', attr: 'base', kind: 'log', min: 100, max: 100000, def: 10000, label: 'base', round: (v) => Math.round(v) },
    { prop: 'pos', attr: 'pos', kind: 'log', min: 1, max: (f) => 2 ** f.maxExp - 1, logStep: 0.01, def: 65536, label: 'precPos', round: (v) => Math.round(v) },
    { prop: 'type', attr: 'type', kind: 'choice', choices: ['float32', 'bfloat16', 'float16'], choiceLabels: { float32: 'precTypeF32', bfloat16: 'precTypeBf16', float16: 'precTypeF16' }, def: 'float32', label: 'precType' },
    { prop: 'compute', attr: 'compute', kind: 'choice', choices: ['float32', 'low'], choiceLabels: { float32: 'precComputeF32', low: 'precComputeLow' }, def: 'float32', label: 'precCompute' },
  ];

  /** The posnorm options of the selected type (compute only matters for the 16-bit types). */
  _precision() {
    return this.type === 'float32' ? { precision: 'float32' } : { precision: this.type, compute: this.compute };
  }

  /** What the readouts call the selected code. */
  _code() { return this.t.precCode(this.type, this.compute === 'low'); }

  /**
   * The type positions are stored in: the selected type when every step is
   * in it (compute 'low', the article's `position` tensor cast), else
   * float32 (the code runs in float32 and its finished table is rounded,
   * model.to(dtype): the position is never in the 16-bit type).
   */
  _posType() { return this.type !== 'float32' && this.compute === 'low' ? this.type : 'float32'; }

  buildBody(figure) {
    ({ canvas: this.canvas, readout: this._readoutEl } = plotWithReadout(figure, { list: true }));
    // off the page the figure's scratch is cleared: the samples' float64
    // rows, which live there, go with it (written again from the second
    // computation at the same sizes once it is back)
    this.addController({
      hostDisconnected: () => { this._ref = null; },
    });
  }

  /**
   * The frequency w_i of every column, each pair's chord 2·sin(w_i/2) (the
   * step it takes from p to p + 1) and the float64 neighbour distance
   * ‖PE(p+1) − PE(p)‖ = sqrt(Σ chord²), the same at every p; kept per
   * (d_model, base).
   */
  _freqs() {
    const key = `${this.dModel}|${this.base}`;
    if (key !== this._freqKey) {
      this._w = Float64Array.from({ length: this.dModel }, (_, c) => Math.exp((-2 * (c >> 1) / this.dModel) * Math.log(this.base)));
      this._chord = Float64Array.from({ length: this.dModel >> 1 }, (_, i) => 2 * Math.sin(this._w[2 * i] / 2));
      this._dist64 = Math.sqrt(this._chord.reduce((a, c) => a + c * c, 0));
      this._freqKey = key;
    }
    return this._w;
  }

  /**
   * The float64 rows of the sampled positions (sample k's at k·d: sin and
   * cos of p·w_i, interleaved as the code's rows are) and posnorm's own
   * error at each. They do not depend on the type or compute selected, so a
   * drag of those selectors reads them instead of computing them again (they
   * were 1.2 of the 8 ms a type input cost, issue #20). They are written by
   * the second computation in a row at the same (d_model, base, max
   * exponent), not the first: a d_model drag, whose sizes change at every
   * input, writes none (keeping them at each input cost it 1 ms an input).
   * Returns { key, rows, err64, filled } — filled false while the samples
   * are being computed into it — or null (compute each row afresh), always
   * while the figure is off the page (its computation fails there anyway,
   * at its first wasm buffer; nothing is kept for it).
   */
  _reference(samples) {
    if (!this.onPage || !this.pn) return null;
    const d = this.dModel;
    const key = `${d}|${this.base}|${this.maxExp}`;
    if (this._ref?.key === key) return this._ref;
    this._ref = null;
    const again = this._refKey === key;
    this._refKey = key;
    if (!again) return null;
    // the rows live in a scratch array (core/buffers.js), reallocated only
    // when they outgrow it (err64, 72 values, is made anew)
    this._ref = { key, rows: this.scratch.f64('reference', samples * d), err64: new Float64Array(samples), filled: false };
    return this._ref;
  }

  /**
   * Errors and neighbour distances at position p (float64 reference computed
   * here, or read from / written to sample k of `ref`, _reference()). A
   * sample (`sample` true) writes its code rows into the figure's wasm
   * buffers and returns no row (its float64 row is kept in `ref` when one is
   * given); the cursor's row is its own.
   */
  _at(p, sample = false, ref = null, k = 0) {
    const { dModel: d, base } = this;
    const wc = this._freqs(), chord = this._chord;
    const read = ref?.filled, rows = ref?.rows, o = k * d;
    // a sample's rows go to wasm buffers kept by the figure: written in
    // place, no temporary copy per call (51 to 69 distinct positions a
    // repaint, one or two calls each). The selected code's rows p and p + 1
    // (their distance is plotted); posnorm's own row p alone, as only its
    // error at p is (its row p + 1 was a third of posnorm's PE time a
    // repaint, issue #20)
    const out32 = sample ? this.buffer('a32', 2 * d) : undefined;
    const outOwn = sample && !read ? this.buffer('own', d) : undefined;
    let a32 = this.pn.positionalEncoding({ seqLen: 2, dModel: d, base, offset: p, ...this._precision(), out: out32 });
    let own = read ? null : this.pn.positionalEncoding({ seqLen: 1, dModel: d, base, offset: p, out: outOwn });
    // views taken after both calls (a call may grow the memory)
    if (sample) {
      a32 = out32.array;
      if (!read) own = outOwn.array;
    }
    // the float64 row of p: sample k's kept row, or computed here (into
    // the kept rows when they are being written, else a scratch row)
    if (!rows && this._row64?.length !== d) this._row64 = new Float64Array(d);
    const row = rows ?? this._row64, at = rows ? o : 0;
    let err64;
    if (read) err64 = ref.err64[k];
    else {
      err64 = referenceRow(row, at, p, wc, own, d);
      if (ref) ref.err64[k] = err64;
    }
    const e = codeErrors(a32, row, at, chord, d, ERRORS);
    // a position the type stores as Infinity (float16, every step in it:
    // from 65520) makes every angle of the code's row Infinity and its sin
    // and cos NaN: its errors there are none (null), not numbers to show
    // (overflow marks the row), and so is its distance to pos + 1 when
    // that one is stored as Infinity (at 65519)
    const from = OVERFLOW[this._posType()].from, over = p >= from, next = p + 1 >= from;
    return { p, err32: over ? null : e[0], err64, errNorm32: over ? null : Math.sqrt(e[1]), dist32: next ? null : Math.sqrt(e[2]), dist64: this._dist64, blur: over ? null : e[3], overflow: over, row: sample ? null : a32.subarray(0, d) };
  }

  /**
   * Where the type breaks at the cursor: the largest integer up to which
   * positions are exact (2^bits: with compute 'float32' the positions stay
   * float32), what the cursor position is stored as and how many integers
   * share that value (null when it is Infinity: every integer from
   * overflowFrom on, the type's largest finite value being overflowMax); and
   * the first dimension from which every cos column is exactly 1 at pos —
   * over 0 … pos then, since the angles grow with the position and the cos
   * falls from 1, those columns are constant.
   */
  _breaks(at) {
    const posType = this._posType();
    const exact = 2 ** BITS[posType];
    const stored = posType === 'float32' ? Math.fround(at.p) : this.pn.roundToPrecision(Float32Array.of(at.p), { precision: posType })[0];
    const { max, from } = OVERFLOW[posType];
    const share = Number.isFinite(stored) ? sharing(stored, BITS[posType]) : null;
    const d = this.dModel;
    let first = d;
    for (let c = d - 1; c >= 1; c -= 2) {
      if (at.row[c] !== 1) break;
      first = c;
    }
    const constantFrom = first < d ? first : null;
    return { exact, stored, share, overflowFrom: from, overflowMax: max, constantFrom, constantColumns: constantFrom === null ? 0 : (d - constantFrom + 1) >> 1 };
  }

  _compute() {
    const key = `${this.dModel}|${this.maxExp}|${this.base}|${this.type}|${this.compute}`;
    if (key !== this._key) {
      const top = 2 ** this.maxExp - 1;
      // log-spaced (small positions repeat, so that sample k sits at log p = k/(n−1)·log top)
      const ps = Array.from({ length: SAMPLES }, (_, k) => Math.round(top ** (k / (SAMPLES - 1))));
      const ref = this._reference(ps.length);
      // a position sampled twice in a row (the small ones: 3 of 72 at 2^24,
      // 21 at 2^8) is computed once; its second sample of `ref` is neither
      // written nor read
      const rows = [];
      for (let k = 0; k < ps.length; k++) rows.push(k > 0 && ps[k] === ps[k - 1] ? rows[k - 1] : this._at(ps[k], true, ref, k));
      if (ref) ref.filled = true;
      // the first sampled position where some pair's float32 error reaches the
      // step that pair takes to the next position: from there the code's slow
      // pairs — the ones that carry long-range position — blur neighbours together
      const cross = rows.find((r) => r.blur >= 1);
      this._data = { ps, rows, crossover: cross ? cross.p : null };
      this._key = key;
    }
    const cursor = this._at(Math.min(this.pos, 2 ** this.maxExp - 1));
    return { ...this._data, cursor, breaks: this._breaks(cursor) };
  }

  render() {
    const t = this.t;
    const r = this._compute();
    const { row, ...c } = r.cursor;
    const code = this._code();
    this.result = { ...c, type: this.type, compute: this.type === 'float32' ? 'float32' : this.compute, ...r.breaks, crossover: r.crossover, samples: r.rows.map(({ row: _, ...rest }) => rest) };
    const width = canvasWidth(this.canvas) || 300;
    const names = { err32: t.precErrCode(code), blur: t.precBlur, err64: t.precErr64, dist64: t.precDist64, dist32: t.precDistCode(code) };
    const entries = LINES.map(([key, colour, dash]) => [names[key], this.color(colour), dash]);
    const heading = t.precTitle(this.dModel);
    // a title wrapped on a narrow canvas pushes the plot down, and the
    // canvas grows by as much (the room taken for d_model's longest value)
    const sizing = this.canvas.getContext('2d');
    const top = legendBottom(sizing, entries, 4, 12), extra = titleExtra(sizing, [heading, t.precTitle(1024)], titleRoom(sizing, 4));
    const height = Math.round(Math.min(380, Math.max(260, width * 0.55))) + extra;
    const { ctx } = fitCanvas(this.canvas, height);
    ctx.clearRect(0, 0, width, height);
    legend(this, ctx, entries, 4, 12);
    const rect = { x: 50, y: top + 34 + extra, w: width - 62, h: height - top - 68 - extra };
    // (a sample the type cannot hold, null, is left out of its line: NaN)
    const series = LINES.map(([key, colour, dash]) => ({ ys: r.rows.map((sample) => sample[key] ?? NaN), colour: this.color(colour), dash }));
    // the y range: the positive values of every series (in loops: a
    // flatMap, filter and two spreads were a quarter of what a drag allocated)
    let yMin = Infinity, yMax = -Infinity;
    for (const s of series) {
      for (const v of s.ys) {
        if (v > 0) {
          yMin = Math.min(yMin, v);
          yMax = Math.max(yMax, v);
        }
      }
    }
    title(this, ctx, heading, 4, top + 20 + extra);
    // x: sample index over log-spaced positions, labelled below as the
    // positions' powers of two
    drawLines(this, ctx, rect, series, { x0: 0, dx: 1, yMin: yMin / 2, yMax: yMax * 2, log: true, xAxis: false });
    const X = (p) => rect.x + (Math.log(p) / Math.log(r.ps.at(-1))) * rect.w;
    // every second or fourth power, or fewer where labels would be closer than 36 px (a phone)
    let step = this.maxExp > 16 ? 4 : 2;
    while (step < this.maxExp && (rect.w * step) / this.maxExp < 36) step *= 2;
    xLabels(this, ctx, Array.from({ length: Math.floor(this.maxExp / step) + 1 }, (_, k) => k * step), (e) => X(2 ** e), rect.y + rect.h + 4, (e) => `2^${e}`);
    vRule(this, ctx, rect, X(Math.max(1, c.p)));
    if (r.crossover) vRule(this, ctx, rect, X(Math.max(1, r.crossover)), { colour: '--pn-muted', dash: [4, 4] });
    const b = r.breaks;
    const posType = this._posType();
    // past the type's range the code has no numbers at pos (or none for its
    // distance to pos + 1, at the last integer before): the readout says so
    const items = [
      c.overflow
        ? t.precReadoutOverflow(c.p, code, posType, fmt(c.err64, 3), fmt(c.dist64, 4))
        : t.precReadout(c.p, code, fmt(c.err32, 3), fmt(c.err64, 3), fmt(c.dist64, 4), c.dist32 === null ? t.precDistOverflow(c.p + 1, posType) : fmt(c.dist32, 4), fmt(c.blur, 3)),
      r.crossover ? t.precCrossover(r.crossover, code) : t.precNoCrossover(2 ** this.maxExp - 1, code),
      c.overflow ? t.precPositionsOverflow(posType, b.exact, c.p, b.overflowMax, b.overflowFrom) : t.precPositions(posType, b.exact, c.p, b.stored, b.share),
      t.precConstant(c.p, b.constantFrom, b.constantColumns, this.dModel),
    ];
    showLines(this._readoutEl, items);
  }

  describe() { return this.t.precAlt(this); }

  /**
   * One row per sample. Where the code has no value — its position is
   * stored as Infinity (float16, every step in the type: positions from
   * 65520), or the next position is, for the neighbour distance — the cell
   * is empty (result.samples has null there), never NaN.
   */
  csv() {
    const r = this._compute();
    // the selected code's columns are named after its type (and compute)
    const code = this.type === 'float32' ? 'float32_code' : `${this.type}_${this.compute === 'low' ? 'low' : 'rounded'}_code`;
    return `pos,max_error_${code},max_error_posnorm,neighbour_distance_float64,neighbour_distance_${code},worst_pair_error_over_step\n${r.rows.map((x) => [x.p, x.err32 ?? '', x.err64, x.dist64, x.dist32 ?? '', x.blur ?? ''].join(',')).join('\n')}\n`;
  }
}

PosnormPrecision.define('posnorm-precision');
