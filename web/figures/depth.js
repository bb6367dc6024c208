// depth.js — <posnorm-depth> (Fig. 4): activation spread through a stack of
// seeded random residual layers, without normalisation and with Post-Norm,
// Pre-Norm and Pre-RMSNorm (C kernel pn_residual_stack_f32), as an encoder or
// as a decoder whose blocks also add a cross-attention branch to one memory
// vector, m·C_l (issue #19: what makes Post-LN's gradients grow).
import { addKoreanStrings } from '../i18n.js';
import koStrings from '../i18n/ko/depth.js';
import { PnFigure } from './core/base.js';
// pn.residualStack (core/runtime.js's instance has the core's calls alone)
import '../../src/js/figure-kernels.js';
import { emit } from './core/element.js';
import { KernelTask, dropKept } from './core/off-thread.js';
import { fitCanvas, plotWithReadout, showLines, canvasWidth } from './draw/canvas.js';
import { fmt } from './draw/format.js';
import { drawLines, legend, legendBottom, title, titleExtra, titleRoom, wrapWords } from './draw/plots.js';
import { positiveRange } from './draw/extent.js';

export { configure } from './core/runtime.js';

// this module's own Korean labels (English ones load with every other label)
addKoreanStrings(koStrings);

const ROWS = 16;
/** Rows the gradients are taken over (fewer than ROWS, to stay cheap at 96 layers). */
const GRAD_ROWS = 4;
const MAX_LAYERS = 96;
/** Depth figures made on this page so far (each keeps its own weights in the kernel Worker). */
let depthFigures = 0;
const STACKS = ['encoder', 'decoder'];
const BLOCKS = [['plain', 'blockPlain', '--pn-fg'], ['post-ln', 'blockPost', '--pn-sin'], ['pre-ln', 'blockPre', '--pn-cos'], ['pre-rms', 'blockRms', '--pn-ref-sin']];

/** The index of the first value of `a` that is not finite, or -1. */
function firstNonFinite(a) {
  for (let i = 0; i < a.length; i++) if (!Number.isFinite(a[i])) return i;
  return -1;
}

/**
 * The runs of finite values of `a`, each as an array of a's length that is
 * NaN outside the run: drawLines (strokeCurve) leaves out points that are
 * not finite but joins the points on either side, so each run is a curve of
 * its own, and every one spans a's layers (the x axis stays that of a).
 */
function finiteRuns(a) {
  const runs = [];
  for (let i = 0; i < a.length;) {
    if (!Number.isFinite(a[i])) {
      i++;
      continue;
    }
    const run = new Float64Array(a.length).fill(NaN);
    for (; i < a.length && Number.isFinite(a[i]); i++) run[i] = a[i];
    runs.push(run);
  }
  return runs;
}

/** The layers (1-based) at which `a` is not finite, as ranges: '1–96', '26, 31–33'. */
function nonFiniteLayers(a) {
  const parts = [];
  let count = 0;
  for (let i = 0; i < a.length; i++) {
    if (Number.isFinite(a[i])) continue;
    let j = i;
    while (j + 1 < a.length && !Number.isFinite(a[j + 1])) j++;
    parts.push(j > i ? `${i + 1}–${j + 1}` : `${i + 1}`);
    count += j - i + 1;
    i = j;
  }
  return { ranges: parts.join(', '), count };
}

export class PosnormDepth extends PnFigure {
  static controls = [
    { prop: 'layers', attr: 'layers', kind: 'int', min: 1, max: MAX_LAYERS, def: 24, label: 'layers' },
    { prop: 'scale', attr: 'scale', kind: 'float', min: 0.1, max: 3, step: 0.05, def: 1, label: 'weightScale', round: (v) => Math.round(v * 100) / 100 },
    { prop: 'width', attr: 'width', kind: 'int', min: 8, max: 64, step: 8, def: 32, label: 'width', round: (v) => Math.max(8, 8 * Math.round(v / 8)) },
    { prop: 'stack', attr: 'stack', kind: 'choice', choices: STACKS, choiceLabels: { encoder: 'depthEncoder', decoder: 'depthDecoder' }, def: 'encoder', label: 'depthStack' },
    { prop: 'seed', attr: 'seed', kind: 'int', min: 0, max: 2 ** 31 - 1, def: 1, label: 'seed', hidden: true },
  ];

  buildBody(figure) {
    ({ canvas: this.canvas, readout: this._readoutEl } = plotWithReadout(figure));
    // off the page: the gradients' run is abandoned, and the kernel Worker
    // drops this figure's weights (a run starts again when it draws)
    this.addController({
      hostDisconnected: () => {
        this._gradTask?.cancel();
        // back on the page, inputs that failed are tried again
        this._gradFailedKey = undefined;
        for (const stack of STACKS) dropKept(this._weightsName(stack));
      },
    });
  }

  /**
   * The name this figure's weights for `stack` are kept under in the kernel
   * Worker (one per figure and stack: switching between encoder and decoder
   * sends neither again; one name for both sent the 1.5 or 3 MB anew at
   * every switch, a fresh copy whose page faults alone took 8 ms at width
   * 64, issue #20).
   */
  _weightsName(stack) {
    this._sentVersions ??= new Map();
    this._weightsId ??= `depth-weights-${++depthFigures}`;
    return `${this._weightsId}-${stack}`;
  }

  _compute() {
    const { layers, width, scale, stack } = this;
    // the decoder takes all 96 W_l (_decoderInputs): drawn at once, not `layers` first
    const { x0, w } = this._weights(stack === 'decoder' ? MAX_LAYERS : layers);
    const key = this._spreadsKey();
    if (key !== this._key) {
      // the spreads of the state shown just before are kept beside the
      // current ones, so a reader who switches encoder ↔ decoder back and
      // forth at the same sizes (to compare them) waits for each stack
      // once: at 96 layers of width 64 a stack's four blocks took 23–28 ms
      // a repaint (make bench's stack drag at the largest sizes, 29.0 and
      // 38.8 ms p95 against 33, issue #20). The first switch at new sizes
      // costs that still. _weights() drops both when the weights change;
      // four arrays of at most 96 floats.
      const last = this._key === undefined ? null : { key: this._key, stds: this.stds };
      if (this._last?.key === key) this.stds = this._last.stds;
      else {
        const dec = stack === 'decoder' ? this._decoderInputs() : null;
        this.stds = BLOCKS.map(([block]) => (dec
          ? this.pn.residualStack(x0, dec.weights.subarray(0, 2 * layers * width * width), { width, layers, block, scale, memory: dec.memory })
          : this.pn.residualStack(x0, w, { width, layers, block, scale })));
      }
      this._last = last;
      this._key = key;
    }
    return this.stds;
  }

  /**
   * The figure's stack inputs: x0 (ROWS × width) and the unit-scale weights
   * W_0 … W_95 of the deepest stack, drawn again when their width or seed
   * changes, and then only the first `layers` of them: a seeded stream's
   * first values do not depend on how many are drawn (posnorm_figures.h),
   * so the rest are drawn, all 96 once more, when a stack first needs them.
   * A width drag at 24 layers drew 96 × 64² values per new width (11 ms of
   * a 15 ms repaint at width 64 on the machine of docs/benchmarks.md),
   * where it uses a quarter of them (issue #20).
   */
  _weights(layers) {
    const { width, seed } = this, ww = width * width;
    const x0 = this.buffer('x0', ROWS * width), w = this.buffer('w', MAX_LAYERS * ww);
    const wKey = `${width}|${seed}`;
    const fresh = wKey !== this._wKey || w !== this._w;
    if (fresh || layers > this._wLayers) {
      if (fresh) this.pn.randomNormal(ROWS * width, { seed, out: x0 });
      const drawn = fresh ? layers : MAX_LAYERS;
      this.pn.randomNormal(drawn * ww, { seed: seed + 1, std: 1 / Math.sqrt(width), out: w.subarray(0, drawn * ww) });
      this._wKey = wKey;
      this._w = w;
      this._wLayers = drawn;
      if (fresh) {
        // the Worker's copies are named anew from here (_gradientCalls)
        this._sentVersions?.clear();
        // and the spreads are of other weights; drawing the rest of the 96
        // leaves the first ones, and the spreads taken from them, as they are
        this._key = undefined;
        this._last = null;
      }
      this._decoder = null;
    }
    return { x0, w };
  }

  /**
   * The decoder's weights — the encoder's W_l (the same draws), each followed
   * by a cross-attention weight C_l N(0, 1/width) (seed + 2) — and its memory
   * m N(0, 1) (seed + 3): the stack is the encoder's plus the branch m·C_l.
   */
  _decoderInputs() {
    if (this._decoder && !this._decoder.weights.freed) return this._decoder;
    const { width, seed } = this, ww = width * width, n = MAX_LAYERS * ww;
    // the encoder's W_l, all 96 of them, go between the C_l
    this._weights(MAX_LAYERS);
    // in a wasm buffer of the figure, so that the stack's calls read it in
    // place (a Float32Array was copied into wasm memory by each of them)
    const weights = this.buffer('decoder', 2 * n);
    // C_0 … C_95 are drawn into the upper half, then moved down to their
    // places between the W_l in ascending order: C_l goes to (2l+1)·ww and
    // W_l to 2l·ww, below every C_m not yet moved, at (96+m)·ww, m > l
    this.pn.randomNormal(n, { seed: seed + 2, std: 1 / Math.sqrt(width), out: weights.subarray(n) });
    const memory = this.pn.randomNormal(width, { seed: seed + 3 });
    // the views after the calls above (a memory grow detaches earlier views)
    const w = this.buffer('w', n).array, d = weights.array;
    for (let l = 0; l < MAX_LAYERS; l++) {
      d.copyWithin((2 * l + 1) * ww, (MAX_LAYERS + l) * ww, (MAX_LAYERS + l + 1) * ww);
      d.set(w.subarray(l * ww, (l + 1) * ww), 2 * l * ww);
    }
    this._decoder = { weights, memory };
    return this._decoder;
  }

  /** The inputs of the current stack (copies; weights already scaled; with the decoder W_l, C_l per layer and the memory), for checks. */
  get inputs() {
    // (undefined until the figure has started: its inputs live in wasm buffers)
    if (!this.onPage || !this.pn) return undefined;
    this._compute();
    const { layers, width, scale, stack } = this;
    const src = (stack === 'decoder' ? this._decoderInputs().weights : this.buffer('w', MAX_LAYERS * width ** 2)).array;
    const n = (stack === 'decoder' ? 2 : 1) * layers * width ** 2;
    const weights = Float32Array.from(src.subarray(0, n), (t) => t * scale);
    const out = { x0: Float32Array.from(this.buffer('x0', ROWS * width).array), weights, rows: ROWS, stack };
    if (stack === 'decoder') out.memory = Float32Array.from(this._decoderInputs().memory);
    return out;
  }

  /** The key of the gradients' inputs now. */
  _gradInputs() {
    const { layers, width, scale, seed, stack } = this;
    return `${layers}|${width}|${scale}|${seed}|${stack}`;
  }

  /**
   * Weight-gradient norms per layer for every block (residualStack with
   * gradients, on the first GRAD_ROWS rows), computed after the frame in the
   * page's kernel Worker (core/off-thread.js: one call per block takes up to
   * 8–12 ms at 96 layers × 64, too long for a slice of the main thread) or,
   * where no Worker can run, in background slices of one block each; those
   * of the inputs shown and of the inputs shown before them are kept; null
   * until they are ready. A change of the inputs abandons the run; during a
   * drag the Worker gets only the inputs the drag pauses at (KernelTask:
   * keys less than 150 ms apart wait), so the panel says "computing…" until
   * then, and after its first input the drag's frames share the machine
   * with no gradients' run.
   */
  _gradients() {
    const { layers, width, scale, seed, stack } = this;
    const key = this._gradInputs();
    this._gradTask ??= new KernelTask('depth-gradients', (grads, k) => {
      // null: the figure left the page, or its inputs changed under the run
      if (!grads) {
        this._gradTask.cancel();
        return;
      }
      // the last gradients kept (shown or not) stay beside the new ones (below)
      if (this._gradKey !== undefined && this._gradKey !== k) this._gradBefore = { key: this._gradKey, grads: this._grads };
      this._grads = grads;
      this._gradKey = k;
      this._gradFailedKey = undefined;
      this.invalidate();
      // a unit is one residualStack call with gradients: 0.5–1 ms at the
      // defaults but 8–12 ms at 96 layers × 64 on the machine of
      // docs/benchmarks.md, so a first run waits for its key to settle
      // until one has shown how long the calls take
    }, {
      expectLongUnits: true,
      // a call threw (wasm memory ran out, …): the panel says so and the
      // figure fires posnorm-error; these inputs are not tried again until
      // others have been computed or the figure has left the page and come
      // back (each try would repaint and fail again)
      onError: (error, k) => {
        this._gradFailedKey = k;
        emit(this, 'posnorm-error', { error, message: this.t.depthGradFailed });
        this.invalidate();
      },
    });
    if (this._gradFailedKey === key || this._gradKey === key) {
      // back to the values shown: a run for other values is no longer wanted
      if (this._gradTask.key !== undefined && this._gradTask.key !== key) this._gradTask.cancel();
      return this._gradKey === key ? this._grads : null;
    }
    // the gradients of the inputs shown before _gradKey's, kept as the
    // spreads are (_compute): a reader who switches encoder ↔ decoder (or
    // steps a slider back and forth) sees each at once from the second
    // switch on, and no run starts. Each switch (32 of make bench's stack
    // drag at the defaults) had run the four calls in the Worker again and
    // repainted when they came, next to the frames of the following inputs
    // (p95 21.0 ms, against 9.2 of CPU time, issue #20)
    if (this._gradBefore?.key === key) {
      const shown = { key: this._gradKey, grads: this._grads };
      ({ key: this._gradKey, grads: this._grads } = this._gradBefore);
      this._gradBefore = shown;
      if (this._gradTask.key !== undefined) this._gradTask.cancel();
      return this._grads;
    }
    // the gradients kept stay those of _gradKey and _gradBefore (a drag
    // that comes back to them shows them at once); other inputs wait for
    // their run
    this._gradTask.run(key, {
      offThread: () => this._gradientCalls(layers, width, scale, stack, seed),
      sliced: () => this._gradientSteps(layers, width, scale, stack, seed),
    });
    return null;
  }

  /**
   * Whether the figure's buffers hold the inputs of width × seed × stack: on
   * the page, with those values, and drawn for them (_compute() redraws the
   * weights at the next render after a change, not at the change).
   */
  _inputsAre(width, seed, stack, layers) {
    return Boolean(this.pn) && this.onPage && this.width === width && this.seed === seed && this.stack === stack && this._wKey === `${width}|${seed}` && this._wLayers >= layers;
  }

  /**
   * The calls of _gradientSteps() for the kernel Worker: the same inputs
   * (the unscaled weights of the deepest stack of this width, seed and
   * stack, sent once per version and kept there under this figure's name;
   * the first `layers` are used), one residualStack call per block; null
   * when the buffers no longer hold them (the run is abandoned).
   */
  _gradientCalls(layers, width, scale, stack, seed) {
    if (!this._inputsAre(width, seed, stack, layers)) return null;
    const x0 = Float32Array.from(this.buffer('x0', ROWS * width).array.subarray(0, GRAD_ROWS * width));
    const dec = stack === 'decoder' ? this._decoderInputs() : null;
    const name = this._weightsName(stack);
    // the version names the width, the seed and how many layers the copy
    // holds (the layers drawn when it is first asked for, a number that only
    // grows until the next fresh draw, which forgets the versions); a copy
    // that holds `layers` or more is used again, so the decoder's full draw
    // does not send the encoder's weights anew, and a copy with fewer is
    // never used for more
    const wKey = `${width}|${seed}`, drawn = dec ? MAX_LAYERS : this._wLayers;
    const had = this._sentVersions.get(name);
    const version = had?.wKey === wKey && had.layers >= layers ? had.version : `${wKey}|${drawn}`;
    if (version !== had?.version) this._sentVersions.set(name, { wKey, layers: drawn, version });
    const weights = {
      version,
      array: () => Float32Array.from(dec ? dec.weights.array : this.buffer('w', MAX_LAYERS * width * width).array.subarray(0, drawn * width * width)),
    };
    // (one copy of the decoder's memory for the four calls)
    const memory = dec ? { memory: Float32Array.from(dec.memory) } : {};
    const calls = BLOCKS.map(([block]) => ({
      method: 'residualStack',
      args: [x0, { kept: name }, { width, layers, block, scale, gradients: true, ...memory }],
      pick: 'gradNorm',
    }));
    return { pn: this.pn, keep: { [name]: weights }, calls };
  }

  /** The gradients for the stack of `layers` × `width` at `scale` (encoder or decoder), one block per unit. */
  *_gradientSteps(layers, width, scale, stack, seed) {
    const grads = [];
    for (const [block] of BLOCKS) {
      if (!this._inputsAre(width, seed, stack, layers)) return null;
      // the buffers are looked up per unit: another call may have grown the memory
      const x0 = this.buffer('x0', ROWS * width).subarray(0, GRAD_ROWS * width);
      const dec = stack === 'decoder' ? this._decoderInputs() : null;
      const w = dec ? dec.weights.subarray(0, 2 * layers * width * width) : this.buffer('w', MAX_LAYERS * width * width);
      const opts = { width, layers, block, scale, gradients: true, ...(dec ? { memory: dec.memory } : {}) };
      grads.push(this.pn.residualStack(x0, w, opts).gradNorm);
      yield;
    }
    return grads;
  }

  render() {
    const t = this.t;
    const stds = this._compute();
    const grads = this._gradients();
    const width = canvasWidth(this.canvas) || 300;
    const wide = width >= 620;
    const ph = Math.round(Math.min(300, Math.max(200, (wide ? width / 2 : width) * 0.5)));
    const entries = BLOCKS.map(([, key, c], k) => [t[key], this.color(c), k === 3 ? [5, 4] : []]);
    const pw = wide ? (width - 120) / 2 : width - 56;
    // the panels start below the legend's last row and their titles' lines
    // (wrapped on a narrow canvas, or side by side at the next title; the
    // gradients' panel makes room for the most its title, its pending note
    // and its failure note take, so it does not move when they arrive),
    // and the canvas ends 22 px below the last (its x labels)
    const gradTitle = grads ? t.depthGradTitle : this._gradFailedKey === this._gradInputs() ? t.depthGradFailed : t.depthGradPending;
    const sizing = this.canvas.getContext('2d');
    const top = legendBottom(sizing, entries, 44, 12);
    const roomA = wide ? pw + 56 : titleRoom(sizing, 4), roomB = titleRoom(sizing, wide ? pw + 68 : 4);
    const extraA = titleExtra(sizing, t.depthStdTitle, roomA);
    const extraB = titleExtra(sizing, [t.depthGradTitle, t.depthGradPending, t.depthGradFailed], roomB);
    const a = { x: 44, y: top + 36 + (wide ? Math.max(extraA, extraB) : extraA), w: pw, h: ph };
    const b = wide ? { x: 44 + pw + 64, y: a.y, w: pw, h: ph } : { x: 44, y: a.y + ph + 64 + extraB, w: pw, h: ph };
    const height = b.y + ph + 22;
    const { ctx } = fitCanvas(this.canvas, height);
    ctx.clearRect(0, 0, width, height);
    legend(this, ctx, entries, 44, 12);
    const layerX = (rect, k) => rect.x + (this.layers > 1 ? (k / (this.layers - 1)) * rect.w : rect.w / 2);
    // notes in a panel (what it leaves out), wrapped to about half its
    // width, on the panel's background, where the fewest of the drawn points
    // `data` (by Y) fall under them: at its left or right edge, as high as
    // that allows
    const note = (rect, texts, data, Y) => {
      if (!texts.length) return;
      ctx.font = '11px system-ui, sans-serif';
      ctx.textAlign = 'left';
      ctx.textBaseline = 'top';
      const room = Math.min(rect.w - 16, Math.max(180, rect.w * 0.55));
      const { lines, w } = this._noteLines(ctx, texts, room), h = 14 * lines.length + 4;
      // the place is kept with the values it was found for (`data`, the
      // arrays the kernel gave: a drag that comes back to them finds it again)
      const place = `${rect.x},${rect.y},${rect.w},${rect.h},${w},${h}`;
      this._placed ??= new WeakMap();
      let kept = this._placed.get(data);
      if (kept?.place !== place) {
        // the drawn points, once (up to 14 places are tried)
        const n = this.layers, px = this.scratch.f64('note-x', n), py = this.scratch.f64('note-y', data.length * n);
        for (let k = 0; k < n; k++) px[k] = layerX(rect, k);
        data.forEach((ys, s) => {
          for (let k = 0; k < n; k++) py[s * n + k] = Number.isFinite(ys[k]) ? Y(ys[k]) : NaN;
        });
        const under = (x0, y0) => {
          let count = 0;
          for (let i = 0; i < py.length; i++) {
            const x = px[i % n], y = py[i];
            if (x >= x0 - 2 && x <= x0 + w + 2 && y >= y0 - 2 && y <= y0 + h + 2) count++;
          }
          return count;
        };
        kept = { place, x0: rect.x + 4, y0: rect.y + 4 };
        let least = Infinity;
        const rows = 6, drop = Math.max(0, rect.h - 8 - h) / rows;
        for (let i = 0; i <= rows && least > 0; i++) {
          for (const x of [rect.x + 4, rect.x + rect.w - 4 - w]) {
            const count = under(x, rect.y + 4 + i * drop);
            if (count < least) {
              least = count;
              kept.x0 = x;
              kept.y0 = rect.y + 4 + i * drop;
            }
          }
        }
        this._placed.set(data, kept);
      }
      const { x0, y0 } = kept;
      ctx.fillStyle = this.color('--pn-bg');
      ctx.globalAlpha = 0.85;
      ctx.fillRect(x0, y0, w, h);
      ctx.globalAlpha = 1;
      ctx.fillStyle = this.color('--pn-fg');
      lines.forEach((l, row) => ctx.fillText(l, x0 + 4, y0 + 2 + 14 * row, room));
    };
    const panel = (rect, data, label, room) => {
      const { lo, hi } = positiveRange(data, 1);
      title(this, ctx, label, rect.x - 40, rect.y - 10, room);
      // a value that is not finite (the plain stack's float32 activations
      // overflowed, or a float64 gradient norm past float32's range rounded
      // to infinity) is left out, and the curve stops there: no line is
      // drawn through it, nor along the top edge as if it were a value
      const series = [];
      BLOCKS.forEach(([, , c], k) => {
        const colour = this.color(c), dash = k === 3 ? [5, 4] : [];
        if (firstNonFinite(data[k]) < 0) series.push({ ys: data[k], colour, dash });
        else {
          // (kept with the kernel's array, as the notes' places)
          this._runs ??= new WeakMap();
          if (!this._runs.has(data[k])) this._runs.set(data[k], finiteRuns(data[k]));
          for (const ys of this._runs.get(data[k])) series.push({ ys, colour, dash });
        }
      });
      return drawLines(this, ctx, rect, series, { x0: 1, yMin: lo / 2, yMax: hi * 2, log: true });
    };
    const Y = panel(a, stds, t.depthStdTitle, roomA);
    // where a stack's float32 activations overflowed (its spreads are NaN
    // from there on, the kernel's Inf − Inf): a dotted line from its last
    // finite spread up to the top edge at that layer, a marker, and a note
    const overflows = this._overflows(stds);
    overflows.forEach(({ k, layer }) => {
      const colour = this.color(BLOCKS[k][2]), x = layerX(a, layer - 1);
      if (layer > 1) {
        ctx.strokeStyle = colour;
        ctx.lineWidth = 1.5;
        ctx.setLineDash([2, 3]);
        ctx.beginPath();
        ctx.moveTo(layerX(a, layer - 2), Y(stds[k][layer - 2]));
        ctx.lineTo(x, a.y);
        ctx.stroke();
        ctx.setLineDash([]);
      }
      ctx.fillStyle = colour;
      ctx.beginPath();
      ctx.moveTo(x, a.y - 6);
      ctx.lineTo(x - 5, a.y + 3);
      ctx.lineTo(x + 5, a.y + 3);
      ctx.closePath();
      ctx.fill();
    });
    note(a, overflows.map(({ k, layer }) => t.named(t[BLOCKS[k][1]], t.depthOverflow(layer))), stds, Y);
    // gradient norms are float64 in the kernel, rounded once to float32: a
    // norm past float32's range comes back as Infinity (never NaN), and is
    // left out of the panel with a note
    const gradOverflows = [];
    if (grads) {
      const Yb = panel(b, grads, t.depthGradTitle, roomB);
      BLOCKS.forEach(([, key], k) => {
        if (firstNonFinite(grads[k]) < 0) return;
        const { ranges, count } = nonFiniteLayers(grads[k]);
        gradOverflows.push(t.depthGradOverflow(t[key], ranges, count));
      });
      note(b, gradOverflows, grads, Yb);
    } else title(this, ctx, gradTitle, b.x - 40, b.y - 10, roomB);
    const lastOf = (k) => {
      const over = overflows.find((o) => o.k === k);
      return over ? t.depthOverflow(over.layer) : fmt(stds[k][this.layers - 1], 4);
    };
    const last = t.listed(BLOCKS.map(([, key], k) => t.named(t[key], lastOf(k))));
    this.result = { stds: stds.map((s) => Float32Array.from(s)), gradNorms: grads ? grads.map((g) => Float32Array.from(g)) : null };
    const items = [t.depthReadout(last)];
    if (grads) {
      const ratio = (k) => grads[k][this.layers - 1] / grads[k][0];
      const post = ratio(1), pre = ratio(2);
      this.result.gradRatio = { post, pre };
      items.push(t.depthGradReadout(fmt(post, 3), fmt(pre, 3), post > 1.5 * pre && post > 1));
      items.push(...gradOverflows);
    }
    items.push(this.stack === 'decoder' ? t.depthWhyDecoder : t.depthWhyEncoder);
    items.push(t.depthXiong);
    showLines(this._readoutEl, items, 'div');
    // the text alternative names the overflows of what is drawn now: it was
    // written when the values changed, before their spreads were computed
    if (this._described !== this._overflowKey(overflows)) this._describePictures();
  }

  /**
   * `texts` broken into lines of at most `room` px in ctx's font, and the
   * widest line's width + 8: { lines, w }, kept for the texts and width
   * shown (a drag at the largest sizes shows the same notes at every input).
   */
  _noteLines(ctx, texts, room) {
    const key = `${room}|${ctx.font}|${texts.join('\n')}`;
    this._notes ??= new Map();
    let made = this._notes.get(key);
    if (!made) {
      const lines = texts.flatMap((text) => wrapWords(ctx, text, room));
      let widest = 0;
      for (const l of lines) widest = Math.max(widest, ctx.measureText(l).width);
      made = { lines, w: Math.min(room, widest) + 8 };
      if (this._notes.size >= 8) this._notes.clear();
      this._notes.set(key, made);
    }
    return made;
  }

  /**
   * [{ k, layer }]: the blocks whose spreads in `stds` stop being finite,
   * and the layer (1-based) where they first do — where the stack's float32
   * activations overflowed (past about 3.4e38: the kernel's products and
   * sums give ±Infinity there, then NaN, and its spreads NaN from that
   * layer on). The figure's inputs are finite, so nothing else makes them.
   */
  _overflows(stds) {
    const out = [];
    stds.forEach((s, k) => {
      const i = firstNonFinite(s);
      if (i >= 0) out.push({ k, layer: i + 1 });
    });
    return out;
  }

  _overflowKey(overflows) { return overflows.map(({ k, layer }) => `${k}@${layer}`).join(); }

  /** The overflows of the spreads of the current values, once computed (none before). */
  _currentOverflows() {
    return this._key === this._spreadsKey() && this.stds ? this._overflows(this.stds) : [];
  }

  /**
   * What the spreads of the current values are computed for: the sizes, the
   * stack and the weights' width and seed (spreads kept for a key are
   * those of these weights).
   */
  _spreadsKey() { return `${this.layers}|${this.scale}|${this.stack}|${this.width}|${this.seed}`; }

  describe() {
    const overflows = this._currentOverflows();
    this._described = this._overflowKey(overflows);
    return this.t.depthAlt(this, overflows.map(({ k, layer }) => [this.t[BLOCKS[k][1]], layer]));
  }

  /**
   * One row per layer, a column per block. A spread that is not finite (the
   * stack's float32 activations overflowed) is an empty cell, and a comment
   * line before the header says from which layer, for each such column.
   */
  csv() {
    const stds = this._compute();
    const notes = this._overflows(stds).map(({ k, layer }) => `# std_${BLOCKS[k][0]} is empty from layer ${layer} on: the stack's float32 activations overflowed there (values past about 3.4e38)\n`);
    const cell = (v) => (Number.isFinite(v) ? v : '');
    return `${notes.join('')}layer,${BLOCKS.map(([b]) => `std_${b}`).join(',')}\n${[...stds[0]].map((_, l) => [l + 1, ...stds.map((s) => cell(s[l]))].join(',')).join('\n')}\n`;
  }
}

PosnormDepth.define('posnorm-depth');
