// embed-dialog.js — the Embed dialog of a figure (toolbar.js loads this
// module the first time a reader presses "Embed"): the snippets of
// embed.js for the figure's current state and language, each with a Copy
// button, and "Download picture", the still picture those snippets name.
//
// A native modal <dialog> in the figure's shadow root, labelled by its
// heading; the rest of the page is inert while it is open, Tab and
// Shift+Tab go round inside it, Esc and "Close" close it and give the focus
// back to the Embed button. Every string comes from the figure's language
// table; the styles are an adopted stylesheet (no inline style).
import { addKoreanStrings } from '../../i18n.js';
import koStrings from '../../i18n/ko/embed-dialog.js';
import { FIGURE_CSS, addStyles } from './style.js';
import { labelSpan } from './language.js';
import { saveBlob } from './download.js';
import { embedCode, stillFileName } from './embed.js';
import { makeCopy, stillLayout } from './still.js';

// the dialog's own Korean labels (English ones load with every other label)
addKoreanStrings(koStrings);

const DIALOG_CSS = `
dialog.embed {
  box-sizing: border-box; width: min(44rem, calc(100vw - 1rem)); max-width: none; max-height: calc(100vh - 1rem);
  overflow: auto; padding: 0.8rem 1rem 1rem; color: var(--pn-fg); background: var(--pn-bg);
  border: 1px solid var(--pn-grid); border-radius: 8px; font: 14px/1.45 var(--pn-font);
}
dialog.embed::backdrop { background: rgb(0 0 0 / 0.5); }
.embed .head { display: flex; justify-content: space-between; align-items: flex-start; gap: 0.6em; }
.embed h2 { font-size: 1.15em; margin: 0.2em 0; }
.embed h3 { font-size: 1em; margin: 1.1em 0 0.2em; }
.embed p { margin: 0.3em 0; }
.embed p, .embed h2, .embed h3, .embed label { word-break: keep-all; overflow-wrap: anywhere; }
.embed .help { color: var(--pn-muted); font-size: 0.9em; }
.embed label { display: block; margin: 0.6em 0 0.2em; font-size: 0.9em; }
.embed textarea, .embed input {
  box-sizing: border-box; width: 100%; font: 12px/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
  color: var(--pn-fg); background: var(--pn-bg); border: 1px solid var(--pn-grid); border-radius: 4px; padding: 0.4em;
}
.embed textarea { resize: vertical; white-space: pre; overflow-wrap: normal; overflow-x: auto; }
.embed textarea.wrap { white-space: pre-wrap; overflow-wrap: anywhere; }
.embed textarea:focus-visible, .embed input:focus-visible { outline: 2px solid var(--pn-focus); outline-offset: 1px; }
.embed .row { display: flex; flex-wrap: wrap; gap: 0.4em; align-items: center; margin: 0.3em 0 0; }
.embed .status { min-height: 1.45em; color: var(--pn-muted); font-size: 0.9em; }
`;

let uid = 0;

/** The light theme's colours: the custom properties of the first :host rule of the figures' stylesheet. */
export function lightColors() {
  const block = FIGURE_CSS.match(/:host\s*\{([^}]*)\}/)[1];
  return Object.fromEntries([...block.matchAll(/(--pn-[\w-]+)\s*:\s*([^;]+)/g)].map((m) => [m[1], m[2].trim()]));
}

const frames = (n) => new Promise((resolve) => {
  const step = (k) => (k === 0 ? resolve() : requestAnimationFrame(() => step(k - 1)));
  step(n);
});
const idle = () => new Promise((resolve) => {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(() => resolve(), { timeout: 500 });
  else setTimeout(resolve, 50);
});

/**
 * The still picture of `fig`'s current state as a PNG blob: its plots
 * 640 CSS px wide at twice the resolution, light-themed, whatever the page's
 * colour scheme and pixel ratio; what the figure computes after its first
 * frame (gradients, error lines) is in it.
 */
export async function stillPicture(fig) {
  const colors = lightColors();
  const copy = makeCopy(fig, { scale: 2, colors });
  try {
    const layout = stillLayout(copy);
    await frames(2);
    await idle();
    await frames(2);
    copy.renderNow();
    const out = document.createElement('canvas');
    out.width = layout.width * 2;
    out.height = layout.height * 2;
    const ctx = out.getContext('2d');
    ctx.fillStyle = colors['--pn-bg'];
    ctx.fillRect(0, 0, out.width, out.height);
    // each canvas at its own pixel size (its CSS width may be fractional), on whole pixels: no resampling
    for (const { canvas, x, y } of layout.items) ctx.drawImage(canvas, Math.round(x * 2), Math.round(y * 2));
    return await new Promise((resolve) => out.toBlob(resolve, 'image/png'));
  } finally {
    copy.remove();
  }
}

export class EmbedDialog {
  /** `host`: the figure; `opener`: the button that opens it (it gets the focus back). */
  constructor(host, opener) {
    this.host = host;
    this.opener = opener;
    this.fields = {};
    this.dialog = this._build();
  }

  _build() {
    const { host } = this;
    const root = host.shadowRoot;
    addStyles(root, DIALOG_CSS);
    const id = `pn-embed-${++uid}`;
    const el = (tag, props = {}, ...children) => {
      const node = document.createElement(tag);
      for (const [k, v] of Object.entries(props)) {
        if (k === 'key') node.dataset.key = v;
        else if (k in node && k !== 'id' && k !== 'htmlFor') node[k] = v;
        else node.setAttribute(k === 'htmlFor' ? 'for' : k, v);
      }
      node.append(...children);
      return node;
    };
    const dialog = el('dialog', { className: 'embed', 'aria-labelledby': `${id}-title` });
    this.status = el('p', { className: 'status', role: 'status' });
    const close = el('button', { type: 'button', key: 'embedClose', autofocus: true });
    close.addEventListener('click', () => dialog.close());
    const snippet = (field, labelKey, rows) => {
      const area = el('textarea', { id: `${id}-${field}`, readOnly: true, rows, spellcheck: false, autocomplete: 'off' });
      if (field !== 'element' && field !== 'iframe') area.className = 'wrap';
      this.fields[field] = area;
      const copy = el('button', { type: 'button', key: 'embedCopy' });
      copy.dataset.copy = field;
      copy.addEventListener('click', () => this._copy(field));
      return [el('label', { htmlFor: area.id, key: labelKey }), area, el('div', { className: 'row' }, copy)];
    };
    const section = (key, helpKey, ...body) => el('section', { 'aria-labelledby': `${id}-${key}` },
      el('h3', { id: `${id}-${key}`, key }), el('p', { className: 'help', key: helpKey }), ...body);
    const download = el('button', { type: 'button', key: 'embedDownload' });
    download.dataset.action = 'downloadPicture';
    download.addEventListener('click', () => this.downloadPicture());
    this.picture = el('input', { id: `${id}-picture`, type: 'text', inputMode: 'url', spellcheck: false, autocomplete: 'off' });
    this.picture.addEventListener('input', () => this._fill());
    dialog.append(
      el('div', { className: 'head' }, el('h2', { id: `${id}-title`, key: 'embedTitle' }), close),
      el('p', { className: 'help', key: 'embedIntro' }),
      section('embedScript', 'embedScriptHelp', ...snippet('element', 'embedElement', 7),
        ...snippet('hugo', 'embedHugo', 3), ...snippet('jekyll', 'embedJekyll', 3)),
      section('embedIframe', 'embedIframeHelp', ...snippet('iframe', 'embedIframeCode', 6)),
      section('embedPicture', 'embedPictureHelp',
        el('div', { className: 'row' }, download),
        el('label', { htmlFor: this.picture.id, key: 'embedPictureAddress' }), this.picture,
        ...snippet('markdown', 'embedMarkdown', 3), ...snippet('html', 'embedHtml', 3)),
      this.status,
    );
    dialog.addEventListener('keydown', (e) => this._keepFocus(e));
    dialog.addEventListener('close', () => this.opener?.focus());
    root.querySelector('figure').append(dialog);
    return dialog;
  }

  /** Shows the dialog with the snippets of the figure as it is now. */
  open() {
    this.host._language.relabel();
    this.status.textContent = '';
    this._fill();
    if (!this.dialog.open) this.dialog.showModal();
  }

  /** The figure's language changed: an open dialog's snippets and names are written again in it. */
  relabelled() {
    if (this.dialog.open) this._fill();
  }

  /** Puts the snippets (and the Copy buttons' names) in place. */
  _fill() {
    const t = this.host.t;
    const code = embedCode(this.host, { picture: this.picture.value.trim() || undefined });
    this.picture.placeholder = stillFileName(this.host);
    for (const [field, area] of Object.entries(this.fields)) {
      area.value = code[field];
      const label = this.dialog.querySelector(`label[for="${area.id}"]`).textContent;
      this.dialog.querySelector(`[data-copy="${field}"]`).setAttribute('aria-label', `${t.embedCopy}: ${label}`);
    }
  }

  // (the strings are the figure's when a message is written: the language
  // may change while the clipboard or the picture is awaited)
  async _copy(field) {
    const area = this.fields[field];
    try {
      await navigator.clipboard.writeText(area.value);
      this.status.replaceChildren(labelSpan('embedCopied', this.host.t));
    } catch {
      area.focus();
      area.select();
      this.status.replaceChildren(labelSpan('embedCopyFailed', this.host.t));
    }
  }

  /** Saves the still picture of the figure's current state under the name the snippets use. */
  async downloadPicture() {
    this.status.replaceChildren(labelSpan('embedBusy', this.host.t));
    const blob = await stillPicture(this.host);
    // the link goes in the dialog: the rest of the page is inert while it is open
    saveBlob(this.dialog, blob, stillFileName(this.host));
    this.status.replaceChildren(labelSpan('embedSaved', this.host.t));
  }

  /** Tab and Shift+Tab go round inside the dialog. */
  _keepFocus(e) {
    if (e.key !== 'Tab') return;
    const stops = [...this.dialog.querySelectorAll('button, textarea, input')].filter((n) => !n.disabled && n.getClientRects().length > 0);
    const first = stops[0], last = stops.at(-1);
    const active = this.host.shadowRoot.activeElement;
    if (e.shiftKey && active === first) {
      e.preventDefault();
      last.focus();
    } else if (!e.shiftKey && active === last) {
      e.preventDefault();
      first.focus();
    }
  }
}
