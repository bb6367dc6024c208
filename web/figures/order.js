// order.js — <posnorm-order> (Fig. 1): self-attention cannot see order.
// Three tokens with small seeded embeddings go through one attention head
// (C kernel). Without PE a token's output is the same wherever it stands;
// with PE added, it changes with the order.
import { PnFigure } from './core/base.js';
import { createPlot, createReadout, fitCanvas, showLines, canvasWidth } from './draw/canvas.js';
import { fmt } from './draw/format.js';
import { drawMatrix } from './draw/matrix.js';
import { TOKENS } from '../i18n/notation.js';
import { maxAbs } from './draw/extent.js';

export { configure } from './core/runtime.js';

const D = 8;
const PERMS = ['012', '021', '102', '120', '201', '210'];

export class PosnormOrder extends PnFigure {
  static controls = [
    { prop: 'pe', attr: 'pe', kind: 'choice', choices: ['off', 'on'], choiceLabels: { off: 'peOff', on: 'peOn' }, def: 'off', label: 'withPe' },
    { prop: 'order', attr: 'order', kind: 'choice', choices: PERMS, def: '012', label: 'order', hidden: true },
    { prop: 'seed', attr: 'seed', kind: 'int', min: 0, max: 2 ** 31 - 1, def: 3, label: 'seed', hidden: true },
  ];

  static css = `
    .tokens { display: flex; flex-wrap: wrap; gap: 0.5em; margin: 0 0 0.6em; padding: 0; list-style: none; }
    .tokens { touch-action: pan-y; }
    .tokens li { display: flex; align-items: center; gap: 0.15em; border: 1px solid var(--pn-grid); border-radius: 8px; padding: 0.15em; }
    .tokens .tok { font-weight: 600; min-width: 4.5em; }
    .tokens button { min-height: 2.2em; min-width: 2.2em; }
  `;

  buildBody(figure) {
    this._list = document.createElement('ol');
    this._list.className = 'tokens';
    this._list.setAttribute('part', 'tokens');
    // drag a token sideways past half a chip to move it (mouse and touch);
    // the list keeps the pointer while the chips move under it
    this._list.addEventListener('pointerdown', (e) => {
      const chip = e.target.closest?.('button.tok');
      if (!chip) return;
      this._drag = { token: chip.dataset.token, x: e.clientX, step: chip.getBoundingClientRect().width };
      this._list.setPointerCapture?.(e.pointerId);
    });
    this._list.addEventListener('pointermove', (e) => {
      const d = this._drag;
      if (!d) return;
      const dx = e.clientX - d.x;
      if (Math.abs(dx) < d.step / 2) return;
      this._move(this.order.indexOf(d.token), Math.sign(dx), true);
      d.x = e.clientX;
    });
    const end = () => { this._drag = null; };
    this._list.addEventListener('pointerup', end);
    this._list.addEventListener('pointercancel', end);
    const { plot, canvas } = createPlot();
    this.canvas = canvas;
    this._readoutEl = createReadout('div');
    figure.append(this._list, plot, this._readoutEl);
  }

  /**
   * Moves the token at position `at` by `step` (−1 left, +1 right), as a
   * property change (positions and steps are whole numbers; a move that
   * starts or ends where no token stands does nothing): a page's script calling it leaves the focus where the
   * reader has it (it took it to the token, scrolling the page).
   */
  move(at, step) {
    this._move(at, step, false);
  }

  /** move(); `byReader` (its keys, buttons or a drag): the reader's change, and the focus follows the token. */
  _move(at, step, byReader) {
    const o = [...this.order];
    const to = at + step;
    // a token at `at` and a place at `to`, whole positions both: else
    // nothing moves (past the ends, as a key does there; a fraction or
    // NaN swapped in undefined, which reset the order to its default)
    if (!Number.isInteger(at) || !Number.isInteger(to) || at < 0 || at >= o.length || to < 0 || to >= o.length) return;
    [o[at], o[to]] = [o[to], o[at]];
    this.request('order', o.join(''), byReader ? 'user' : 'property');
    if (byReader) this._focusToken = Number(o[to]);
  }

  /**
   * The ◀ chip ▶ item of token `tok`, made once and kept: a redraw updates
   * it in place and a move reorders the items, so the control a reader is
   * on stays the same element. Its handlers look up where the token stands
   * when they run (two presses may come before the next frame).
   */
  _item(tok) {
    this._items ??= new Map();
    let item = this._items.get(tok);
    if (item) return item;
    const li = document.createElement('li');
    const left = document.createElement('button');
    const chip = document.createElement('button');
    const right = document.createElement('button');
    left.type = chip.type = right.type = 'button';
    left.textContent = '◀';
    right.textContent = '▶';
    chip.className = 'tok';
    chip.textContent = TOKENS[tok];
    chip.dataset.token = String(tok);
    const moveBy = (step) => this._move(this.order.indexOf(chip.dataset.token), step, true);
    left.addEventListener('click', () => moveBy(-1));
    right.addEventListener('click', () => moveBy(1));
    chip.addEventListener('keydown', (e) => {
      if (e.key === 'ArrowLeft' || e.key === 'ArrowRight') {
        e.preventDefault();
        moveBy(e.key === 'ArrowLeft' ? -1 : 1);
      }
    });
    li.append(left, chip, right);
    item = { li, left, chip, right };
    this._items.set(tok, item);
    return item;
  }

  _chips() {
    const t = this.t;
    const order = [...this.order].map(Number);
    // the control that has focus, if it is one of the tokens'
    const active = this.shadowRoot.activeElement;
    const had = active && this._list.contains(active) ? active : null;
    const items = order.map((tok, at) => {
      const { li, left, chip, right } = this._item(tok);
      left.setAttribute('aria-label', t.moveLeft(TOKENS[tok]));
      right.setAttribute('aria-label', t.moveRight(TOKENS[tok]));
      left.disabled = at === 0;
      right.disabled = at === order.length - 1;
      chip.setAttribute('aria-label', t.tokenAt(TOKENS[tok], at + 1, order.length));
      return li;
    });
    // reorder only what moved (an item taken out of the list loses focus)
    items.forEach((li, at) => {
      const here = this._list.children[at];
      if (here !== li) this._list.insertBefore(li, here ?? null);
    });
    if (this._focusToken !== undefined) {
      // after a move: the moved token
      this._item(this._focusToken).chip.focus({ preventScroll: true });
      this._focusToken = undefined;
    } else if (had) {
      // any other redraw: the same control again, or its token where that
      // control is now disabled (the browser would drop its focus later, at
      // the next frame)
      const to = had.disabled ? had.parentElement.querySelector('button.tok') : had;
      if (this.shadowRoot.activeElement !== to) to.focus({ preventScroll: true });
    }
  }

  _data() {
    if (this._inputsSeed !== this.seed) {
      const r = this.pn.randomNormal(3 * D + 3 * D * D, { seed: this.seed });
      const w = (k) => r.slice(3 * D + k * D * D, 3 * D + (k + 1) * D * D).map((v) => v / Math.sqrt(D));
      this.inputs = { emb: r.slice(0, 3 * D), wq: w(0), wk: w(1), wv: w(2), pe: this.pn.positionalEncoding({ seqLen: 3, dModel: D }) };
      this._inputsSeed = this.seed;
    }
    return this.inputs;
  }

  /** Outputs per token (by token index) for an order string. */
  _run(order) {
    const { emb, wq, wk, wv, pe } = this._data();
    const x = new Float32Array(3 * D);
    [...order].map(Number).forEach((tok, at) => {
      for (let c = 0; c < D; c++) x[at * D + c] = emb[tok * D + c] + (this.pe === 'on' ? pe[at * D + c] : 0);
    });
    const { out } = this.pn.attention(x, { dModel: D, dHead: D, wq, wk, wv });
    const byToken = [];
    [...order].map(Number).forEach((tok, at) => { byToken[tok] = out.slice(at * D, at * D + D); });
    return { out, byToken };
  }

  render() {
    const t = this.t;
    this._chips();
    const now = this._run(this.order), ref = this._run('012');
    let delta = 0;
    for (let tok = 0; tok < 3; tok++) for (let c = 0; c < D; c++) delta = Math.max(delta, Math.abs(now.byToken[tok][c] - ref.byToken[tok][c]));
    this.result = { order: this.order, pe: this.pe, outputs: now.byToken, delta };
    const width = canvasWidth(this.canvas) || 300;
    const { ctx } = fitCanvas(this.canvas, 150);
    ctx.clearRect(0, 0, width, 150);
    const lim = maxAbs([now.out], 1e-6);
    const rect = { x: 80, y: 8, w: width - 90, h: 132 };
    drawMatrix(this, ctx, (this._m ??= {}), now.out, 3, D, rect, { vmin: -lim, vmax: lim });
    ctx.fillStyle = this.color('--pn-fg');
    ctx.font = '13px system-ui, sans-serif';
    ctx.textAlign = 'right';
    ctx.textBaseline = 'middle';
    [...this.order].map(Number).forEach((tok, at) => ctx.fillText(TOKENS[tok], 74, rect.y + (at + 0.5) * (rect.h / 3)));
    const lines = [...this.order].map(Number).map((tok, at) => t.orderRow(at, TOKENS[tok], [...now.byToken[tok].slice(0, 4)].map((v) => v.toFixed(4))));
    lines.push(t.orderDelta(delta < 5e-7 ? '0' : fmt(delta, 3), this.pe === 'on'));
    showLines(this._readoutEl, lines, 'div');
  }

  describe() { return this.t.orderAlt([...this.order].map((k) => TOKENS[k]).join(' ')); }

  csv() {
    const { byToken } = this._run(this.order);
    return `token,${Array.from({ length: D }, (_, c) => `out${c}`).join(',')}\n${byToken.map((v, k) => `${TOKENS[k]},${[...v].join(',')}`).join('\n')}\n`;
  }
}

PosnormOrder.define('posnorm-order');
