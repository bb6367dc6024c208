// rope-config.js — <posnorm-rope-config>: a model's RoPE as its Hugging Face
// config.json describes it, read by ropeFromConfig (pn.ropeFromConfig). For every dimension
// pair i, the wavelength 2π/ω_i (log axis) before and after the config's
// scaling, against the original (pre-training) and the extended context;
// each pair coloured by what the scaling does to it: kept, interpolated
// (stretched by the whole factor or more) or blended (in between). Presets of
// published configs, or a pasted / dropped / chosen config.json, which the
// share link carries compressed (deflate-raw, base64url; no server).
import { addKoreanStrings } from '../i18n.js';
import koStrings from '../i18n/ko/rope-config.js';
import { PnFigure } from './core/base.js';
import { fitCanvas, plotWithReadout, showLines, canvasWidth } from './draw/canvas.js';
import { fmt } from './draw/format.js';
import { drawLines, legend, legendBottom, title, titleExtra, titleRoom } from './draw/plots.js';
import { labelledRules, vRule } from './draw/axes.js';
import { PRESETS } from './data/rope-config-presets.js';
import { readRopeConfig, ropeFromConfig } from '../../src/js/rope-config.js';

export { configure } from './core/runtime.js';

// this module's own Korean labels (English ones load with every other label)
addKoreanStrings(koStrings);

const NAMES = Object.keys(PRESETS);
/** The longest link parameter and the largest config it may unpack to. */
const MAX_PACKED = 60000, MAX_TEXT = 1 << 20;
/** Warnings the readout lists (the rest are counted in a line; all are in result.warnings). */
const SHOWN_WARNINGS = 50;
/** A pair's frequency ratio within this of 1 (or of the factor) counts as equal. */
const REL = 1e-6;
/** Each class's colour and marker shape (shape as well as colour, for readers who do not tell the colours apart). */
const CLASSES = [['kept', '--pn-sin', 'circle'], ['interpolated', '--pn-accent', 'square'], ['blended', '--pn-fg', 'triangle']];
const SHAPE = Object.fromEntries(CLASSES.map(([c, , s]) => [c, s]));

/** A filled marker of `shape` and radius r at (x, y). */
function marker(ctx, shape, x, y, r) {
  ctx.beginPath();
  if (shape === 'square') ctx.rect(x - r, y - r, 2 * r, 2 * r);
  else if (shape === 'triangle') { ctx.moveTo(x, y - r * 1.2); ctx.lineTo(x + r * 1.1, y + r * 0.8); ctx.lineTo(x - r * 1.1, y + r * 0.8); ctx.closePath(); }
  else ctx.arc(x, y, r, 0, 2 * Math.PI);
  ctx.fill();
}

const toB64url = (bytes) => {
  let s = '';
  for (let k = 0; k < bytes.length; k += 0x8000) s += String.fromCharCode(...bytes.subarray(k, k + 0x8000));
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
};
const fromB64url = (text) => {
  const bin = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(bin, (ch) => ch.charCodeAt(0));
};

/** config.json text → the link's compressed form. */
export async function packConfig(text) {
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream('deflate-raw'));
  return toB64url(new Uint8Array(await new Response(stream).arrayBuffer()));
}

/** The link's compressed form → config.json text (at most 1 MiB; a longer or corrupt one rejects). */
export async function unpackConfig(packed) {
  const reader = new Blob([fromB64url(packed)]).stream().pipeThrough(new DecompressionStream('deflate-raw')).getReader();
  const parts = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > MAX_TEXT) {
      await reader.cancel();
      throw new RangeError('the config in the link unpacks to more than 1 MiB');
    }
    parts.push(value);
  }
  return new TextDecoder('utf-8', { fatal: true }).decode(await new Blob(parts).arrayBuffer());
}

/**
 * What the scaling does to each pair: ratio = plain ω_i / scaled ω_i; kept
 * (ratio 1), interpolated (the whole factor, or more: longrope's long
 * factors may exceed it), blended (in between). `factor` is the context's
 * stretch: the scaling's factor, or for longrope max/original.
 */
export function classifyPairs(plain, scaled, factor) {
  return Array.from(scaled, (w, i) => {
    const ratio = plain[i] / w;
    // both 0 where float32 ω_i underflowed (a base past about 1e45): the
    // same without scaling; with it, what the scaling did is not known there
    if ((plain[i] === w && (w !== 0 || factor <= 1)) || Math.abs(ratio - 1) <= REL) return 'kept';
    if (factor > 1 && ratio >= factor * (1 - REL)) return 'interpolated';
    return 'blended';
  });
}

/**
 * A wavelength (or a ratio of frequencies) for the readout: ∞ where a
 * float32 ω_i underflowed to 0 (rope_theta past about 1e45), not "Infinity".
 */
const wave = (v) => (Number.isFinite(v) ? fmt(v, 5) : '∞');

export class PosnormRopeConfig extends PnFigure {
  /**
   * How long a preset stays chosen before its JSON is written into the text
   * box (ms; _showPresetText). A page (or a test) may set it.
   */
  static presetTextDelay = 150;

  static controls = [
    { prop: 'preset', attr: 'preset', kind: 'choice', choices: [...NAMES, 'custom'], choiceLabels: { custom: 'rcCustom' }, def: 'llama-3.1-8b', label: 'rcPreset' },
    { prop: 'seqLen', attr: 'seq-len', kind: 'log', min: 1, max: 2 ** 21, logStep: 0.01, def: 131072, label: 'rcSeqLen', round: (v) => Math.round(v) },
    { prop: 'pair', attr: 'pair', kind: 'int', min: 0, max: (f) => f._pairCount() - 1, def: 40, label: 'rcPair' },
    { prop: 'config', attr: 'config', kind: 'text', pattern: /^[A-Za-z0-9_-]*$/, maxLength: MAX_PACKED, def: '', label: 'rcPaste', hidden: true },
  ];

  static css = `
    .rc-input { grid-column: 1 / -1; display: grid; gap: 0.3em; }
    .rc-input label { font-size: 0.9em; color: var(--pn-muted); }
    .rc-input textarea { width: 100%; min-height: 6.5em; font: 12px/1.4 ui-monospace, SFMono-Regular, Menlo, monospace; color: var(--pn-fg); background: var(--pn-bg); border: 1px solid var(--pn-grid); border-radius: 6px; padding: 0.4em; resize: vertical; }
    .rc-input textarea.drop { border-color: var(--pn-accent); }
    .rc-input .row { display: flex; flex-wrap: wrap; gap: 0.5em; align-items: center; }
    .rc-input input[type=file] { font: inherit; font-size: 0.85em; max-width: 100%; color: var(--pn-fg); }
    .rc-warn { color: var(--pn-accent); }
  `;

  /** Pairs of the config shown last (64 before the first). */
  /**
   * The pairs of the config shown (the pair slider's range): a preset's, or
   * a pasted config's once read, from the config itself (readRopeConfig, no
   * kernels: known before the figure starts), so that a preset change
   * clamps the pair in its own batch. Until a link's config is read, and
   * for one that cannot be read, the last count (64 at first).
   */
  _pairCount() {
    const config = this.preset !== 'custom' ? PRESETS[this.preset].config : this._custom?.config;
    if (config === undefined) return this._pairs ?? 64;
    if (config !== this._pairsKey) {
      let pairs;
      try {
        const { rotaryDim } = readRopeConfig(config);
        // (past 65536 ropeFrequencies refuses it: shown as an error, as one that cannot be read)
        pairs = rotaryDim <= 65536 ? rotaryDim / 2 : (this._pairs ?? 64);
      } catch {
        pairs = this._pairs ?? 64; // a config that cannot be read shows its error, and keeps the range
      }
      this._pairsKey = config;
      this._pairs = pairs;
    }
    return this._pairs;
  }

  /**
   * Notes what asked for a new preset or config once the figure has
   * settled: a pair clamped when that config is read (a link's, unpacked
   * later) carries its source; before, the values are those the figure
   * starts with, and clamping them says nothing.
   */
  request(prop, raw, source) {
    if ((prop === 'preset' || prop === 'config') && this._settled) this._rangeSource = source;
    super.request(prop, raw, source);
  }

  /** Each batch: the pair count its values were clamped to. */
  controlsChanged(changed) {
    this._batchPairs = this._pairCount();
    super.controlsChanged(changed);
  }

  buildBody(figure) {
    ({ canvas: this.canvas, readout: this._readoutEl } = plotWithReadout(figure, { list: true }));
  }

  buildExtraControls(form) {
    const box = document.createElement('div');
    box.className = 'rc-input';
    const id = `rc-${Math.random().toString(36).slice(2)}`;
    const label = Object.assign(document.createElement('label'), { htmlFor: `${id}-text` });
    label.dataset.key = 'rcPaste';
    const area = Object.assign(document.createElement('textarea'), { id: `${id}-text`, spellcheck: false, name: 'config-json' });
    area.setAttribute('autocomplete', 'off');
    const row = document.createElement('div');
    row.className = 'row';
    const read = Object.assign(document.createElement('button'), { type: 'button' });
    read.dataset.key = 'rcRead';
    const fileLabel = Object.assign(document.createElement('label'), { htmlFor: `${id}-file` });
    fileLabel.dataset.key = 'rcFile';
    const file = Object.assign(document.createElement('input'), { type: 'file', id: `${id}-file`, accept: '.json,application/json' });
    row.append(read, fileLabel, file);
    box.append(label, area, row);
    form.append(box);
    // the models' names are the same in every language
    for (const o of form.querySelectorAll('select[name=preset] option')) if (PRESETS[o.value]) o.textContent = PRESETS[o.value].label;
    this._area = area;
    area.addEventListener('input', () => clearTimeout(this._textTimer));
    read.addEventListener('click', () => this._readText(area.value));
    file.addEventListener('change', () => { if (file.files?.[0]) this._readFile(file.files[0]); });
    area.addEventListener('dragover', (e) => { e.preventDefault(); area.classList.add('drop'); });
    area.addEventListener('dragleave', () => area.classList.remove('drop'));
    area.addEventListener('drop', (e) => {
      area.classList.remove('drop');
      const f = e.dataTransfer?.files?.[0];
      if (!f) return;
      e.preventDefault();
      this._readFile(f);
    });
  }

  /**
   * A file or a pasted text the reader gave that cannot be read: shown as the
   * custom config, whichever preset was shown (a file over 1 MiB chosen on a
   * preset was refused out of sight); `error(t)` is the message in strings t.
   */
  _cannotRead(error) {
    this._custom = { error };
    this.request('preset', 'custom', 'user');
    this.invalidate();
  }

  async _readFile(f) {
    if (f.size > MAX_TEXT) {
      this._cannotRead((t) => t.rcTooBig);
      return;
    }
    const text = await f.text();
    if (this._area) this._area.value = text;
    this._readText(text);
  }

  /** Reads a pasted config: shows it at once, then puts it (compressed) in the link. */
  _readText(text) {
    let config;
    try {
      config = JSON.parse(text);
    } catch (e) {
      this._cannotRead((t) => t.rcBadJson(e.message));
      return;
    }
    const stamp = (this._stamp = (this._stamp ?? 0) + 1);
    this._custom = { config };
    this.request('preset', 'custom', 'user');
    this.invalidate();
    packConfig(JSON.stringify(config)).then((packed) => {
      if (stamp !== this._stamp) return;
      if (packed.length > MAX_PACKED) { this._custom = { config, note: (t) => t.rcTooLongForLink }; this.invalidate(); return; }
      this._custom = { config, packed };
      this.request('config', packed, 'user');
    }, () => {});
  }

  /** The custom config of the link (unpacked once per value). */
  _fromLink() {
    const packed = this.config;
    // a config read here whose link is still being packed (or that could not be read) stays
    if (this._custom && !('packed' in this._custom)) return;
    if (this._custom?.packed === packed || this._unpacking === packed) return;
    if (!packed) { if (this._custom?.packed !== undefined) this._custom = null; return; }
    this._unpacking = packed;
    // a link that does not unpack (cut short when copied, say) and one that
    // unpacks to text that is not JSON are told apart, as a pasted config's is
    unpackConfig(packed).then((text) => {
      if (this.config !== packed) return;
      let config;
      try {
        config = JSON.parse(text);
      } catch (e) {
        // the text the message is about goes in the box, as a pasted one is there
        this._custom = { error: (t) => t.rcBadJson(e.message), packed };
        if (this._area) this._area.value = text;
        return;
      }
      this._custom = { config, packed };
      if (this._area) this._area.value = JSON.stringify(config, null, 1);
    }, () => { if (this.config === packed) this._custom = { error: (t) => t.rcBadLink, packed }; },
    ).finally(() => { this._unpacking = null; this.invalidate(); });
  }

  /** The config shown now: { config, name } or { error } or { waiting }. */
  _source() {
    if (this.preset !== 'custom') return { config: PRESETS[this.preset].config, name: PRESETS[this.preset].label };
    this._fromLink();
    // (messages are kept as functions of the strings: a language change relabels them)
    if (this._custom?.error) return { error: this._custom.error(this.t) };
    if (this._custom?.config !== undefined) return { config: this._custom.config, name: this.t.rcCustom, note: this._custom.note?.(this.t) };
    return { waiting: this._unpacking ? this.t.rcUnpacking : this.t.rcPasteFirst };
  }

  _compute(src) {
    if (src.config === this._keyConfig && this.seqLen === this._keyLen) return this._data;
    let data;
    try {
      const r = ropeFromConfig(this.pn, src.config, { seqLen: 0 });
      // the frequencies for a sequence of seqLen tokens (longrope: long factors past the original length; dynamic: its grown base)
      const ext = ropeFromConfig(this.pn, src.config, { seqLen: this.seqLen });
      const plain = this.pn.ropeFrequencies({ dim: r.rotaryDim, base: r.base }).invFreq;
      const stretch = r.ropeType === 'longrope' ? (r.scaling.factor ?? 1) : (r.scaling?.factor ?? 1);
      const classes = classifyPairs(plain, ext.invFreq, stretch);
      data = { r, ext, plain, classes, stretch };
    } catch (e) {
      data = { error: e.message };
    }
    this._keyConfig = src.config;
    this._keyLen = this.seqLen;
    this._data = data;
    // the pair slider's range follows the config's number of pairs: learned
    // after the batch that asked for the config (a link's, unpacked in a
    // promise), it runs a batch of its own, which clamps the pair and says
    // so with the source of that config's change (silently for a config the
    // figure started with)
    const pairs = this._pairCount();
    if (pairs !== this._batchPairs) {
      this._batchPairs = pairs;
      this.rangesChanged(this._rangeSource);
    }
    return data;
  }

  /**
   * Puts the preset's JSON in the text box: at once for the first preset
   * shown, and once the reader has stayed on a preset for presetTextDelay
   * ms after that. Laying out the new text took 3–4 ms of each frame of a
   * keyboard run through the presets (make bench, issue #20), for a box the
   * reader is not reading while the presets go by. Typing in the box first
   * cancels the write, and a write for a preset no longer chosen (a file or
   * a link read since) does nothing, so it never replaces what the reader
   * gave. A figure taken off the page still gets the write, so the box is
   * right when it comes back.
   */
  _showPresetText() {
    clearTimeout(this._textTimer);
    const preset = this.preset;
    const write = () => {
      this._textTimer = 0;
      if (this.preset === preset && this._area) this._area.value = JSON.stringify(PRESETS[preset].config, null, 1);
    };
    if (this._shownPreset === undefined) write();
    else this._textTimer = setTimeout(write, this.constructor.presetTextDelay);
  }

  render() {
    const t = this.t;
    const src = this._source();
    if (this._area && this.preset !== 'custom' && this._shownPreset !== this.preset) this._showPresetText();
    this._shownPreset = this.preset;
    const d = src.config !== undefined ? this._compute(src) : { error: src.error, waiting: src.waiting };
    const width = canvasWidth(this.canvas) || 300;
    const ph = Math.min(260, Math.max(170, width * 0.45));
    // the plot starts 40 px below the legend's last row, which wraps on a
    // narrow canvas (English at 320 px: two rows), and the canvas ends 48 px
    // below the plot (its x labels and caption), whatever the legend's rows
    // (a paste that cannot be read yet keeps the height: no jump as one types)
    const colours = Object.fromEntries(CLASSES.map(([c, v]) => [c, this.color(v)]));
    const entries = [[t.rcUnscaled, this.color('--pn-muted'), [4, 3]], ...CLASSES.map(([c]) => [t[`rc_${c}`], colours[c], []])];
    const plotTop = legendBottom(this.canvas.getContext('2d'), entries, 4, 12) + 40;
    const height = plotTop + ph + 48;
    const { ctx } = fitCanvas(this.canvas, height);
    ctx.clearRect(0, 0, width, height);
    if (!d.r) {
      this.result = { error: d.error ?? null, waiting: d.waiting ?? null };
      // (wrapped to the canvas: the paste hint is 445 px wide in English)
      const text = d.error ? t.rcCannotRead : d.waiting;
      title(this, ctx, text, 8, 26 + titleExtra(ctx, text, titleRoom(ctx, 8)));
      showLines(this._readoutEl, [d.error ? t.rcError(d.error) : d.waiting]);
      return;
    }
    const { r, ext, plain, classes } = d;
    const waves = Array.from(ext.invFreq, (w) => (2 * Math.PI) / w);
    const plainWaves = Array.from(plain, (w) => (2 * Math.PI) / w);
    const counts = Object.fromEntries(CLASSES.map(([c]) => [c, classes.filter((x) => x === c).length]));
    const i = Math.min(this.pair, waves.length - 1);
    this.result = {
      ropeType: r.ropeType, headDim: r.headDim, rotaryDim: r.rotaryDim, base: r.base, scaling: r.scaling,
      seqLen: this.seqLen, pair: i, invFreq: Float32Array.from(ext.invFreq), plainInvFreq: Float32Array.from(plain), classes, counts,
      attentionFactor: ext.attentionFactor, contextLength: r.contextLength, originalContextLength: r.originalContextLength,
      warnings: r.warnings,
    };
    const rect = { x: 50, y: plotTop, w: width - 62, h: ph };
    ctx.save();
    legend(this, ctx, entries, 4, 12);
    title(this, ctx, t.rcTitle, rect.x - 44, rect.y - 8);
    const finite = [...waves, ...plainWaves].filter(Number.isFinite);
    const marks = [r.originalContextLength, r.contextLength].filter((v) => v);
    const Y = drawLines(this, ctx, rect, [{ ys: plainWaves, colour: this.color('--pn-muted'), dash: [4, 3] }, { ys: waves, colour: this.color('--pn-grid') }],
      { x0: 0, yMin: Math.min(...finite), yMax: Math.max(...finite, ...marks) * 2, log: true });
    const n = waves.length;
    const X = (k) => rect.x + (n > 1 ? (k / (n - 1)) * rect.w : rect.w / 2);
    waves.forEach((v, k) => {
      ctx.fillStyle = colours[classes[k]];
      marker(ctx, SHAPE[classes[k]], X(k), Y(v), n > 96 ? 2 : 3);
    });
    // the context lines labelled at their left ends, the sequence line at
    // its right end unless it lies on a context line; a label that would
    // meet another (lengths close together, a narrow canvas) moves off its
    // line to the nearest free place
    const rules = [];
    if (r.originalContextLength && r.originalContextLength !== r.contextLength) rules.push({ y: Y(r.originalContextLength), dash: [3, 3], label: t.rcOriginalMark(r.originalContextLength) });
    if (r.contextLength) rules.push({ y: Y(r.contextLength), colour: '--pn-fg', dash: [6, 3], label: t.rcContextMark(r.contextLength) });
    const onMark = this.seqLen === r.contextLength || this.seqLen === r.originalContextLength;
    rules.push({ y: Y(this.seqLen), colour: '--pn-focus', dash: [1, 3], label: onMark ? undefined : t.rcSeqMark(this.seqLen), right: true });
    labelledRules(this, ctx, rect, rules);
    vRule(this, ctx, rect, X(i), { colour: '--pn-focus', dash: [2, 2] });
    ctx.strokeStyle = this.color('--pn-fg');
    ctx.lineWidth = 2;
    ctx.beginPath();
    ctx.arc(X(i), Y(waves[i]), 6, 0, 2 * Math.PI);
    ctx.stroke();
    ctx.lineWidth = 1;
    ctx.fillStyle = this.color('--pn-muted');
    ctx.font = '11px system-ui, sans-serif';
    ctx.textAlign = 'center';
    ctx.textBaseline = 'top';
    ctx.fillText(t.rcPairAxis, rect.x + rect.w / 2, rect.y + rect.h + 20);
    ctx.restore();
    const items = [
      t.rcReadoutModel(src.name, r.ropeType, r.headDim, r.rotaryDim, fmt(r.base, 6)),
      t.rcReadoutCounts(counts.kept, counts.interpolated, counts.blended, n, fmt(d.stretch, 5)),
      t.rcReadoutFactor(fmt(ext.attentionFactor, 6)),
      t.rcReadoutLength(this.seqLen, waves.filter((v) => v > this.seqLen).length, n),
      t.rcReadoutPair(i, wave(plainWaves[i]), wave(waves[i]), wave(plain[i] === ext.invFreq[i] ? 1 : plain[i] / ext.invFreq[i]), t[`rc_${classes[i]}`]),
      ...(src.note ? [src.note] : []),
      r.warnings.length ? t.rcWarnings(r.warnings.length) : t.rcNoWarnings,
    ];
    // the first SHOWN_WARNINGS of them: a config can hold tens of thousands
    // of keys its type does not read (a link's 60 000 characters, a file's
    // 1 MiB), and a line each was one main-thread task of 1–4 s to lay out
    const shown = r.warnings.slice(0, SHOWN_WARNINGS).map((w) => ({ className: 'rc-warn', parts: [['code', w.key], `: ${w.message}`] }));
    const more = r.warnings.length > SHOWN_WARNINGS ? [{ className: 'rc-warn', parts: [t.rcMoreWarnings(r.warnings.length - SHOWN_WARNINGS)] }] : [];
    showLines(this._readoutEl, [...items, ...shown, ...more, t.rcSources]);
  }

  describe() {
    // the config shown now (the text alternative is written when the
    // controls change, before the render that would compute it: it named
    // the preset before with its type)
    const src = this.pn ? this._source() : null;
    const d = src?.config !== undefined ? this._compute(src) : null;
    return this.t.rcAlt({ preset: this.preset === 'custom' ? this.t.rcCustom : PRESETS[this.preset].label, type: d?.r?.ropeType ?? '—', pairs: d?.r ? d.r.rotaryDim / 2 : 0, seqLen: this.seqLen });
  }

  csv() {
    // the config shown now: a custom one still to paste, or one that cannot
    // be read, has no rows (this._data, the last config computed, gave the
    // preset before's)
    // (before the figure has started there is no posnorm to compute with:
    // computing then cached an error under the config's key)
    const src = this.pn ? this._source() : null;
    const d = src?.config !== undefined ? this._compute(src) : null;
    if (!d?.r) return 'pair,inv_freq_plain,inv_freq,wavelength,class\n';
    return `pair,inv_freq_plain,inv_freq,wavelength,class\n${Array.from(d.ext.invFreq, (w, i) => [i, d.plain[i], w, (2 * Math.PI) / w, d.classes[i]].join(',')).join('\n')}\n`;
  }
}

PosnormRopeConfig.define('posnorm-rope-config');
