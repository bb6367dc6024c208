// toolbar.js — the "Copy link", "Download PNG", "Download CSV" and "Embed"
// buttons under a figure and the status line that answers them: the link
// from share.js, the files from download.js, the Embed dialog from
// embed-dialog.js, whose code is loaded only when it is first opened.
// A status message stays until the next one (it is not transient: a reader
// may come back to it, and the link shown for copying by hand must stay);
// its text is marked as a label (labelSpan), so a language change while it
// is shown says the same message in the new language.
import { emit } from './element.js';
import { labelSpan } from './language.js';
import { copyLink } from './share.js';
import { fileStem, joinCanvases, saveBlob } from './download.js';

export class ToolbarController {
  constructor(host) {
    this.host = host;
    this.element = null;
    this._status = null;
    this._dialog = null;
  }

  /** Builds the toolbar (once); its buttons call the figure's own methods. */
  build() {
    const bar = document.createElement('div');
    bar.className = 'toolbar';
    bar.setAttribute('part', 'toolbar');
    bar.setAttribute('role', 'group');
    bar.dataset.keyLabel = 'toolbar';
    for (const action of ['copyLink', 'downloadPng', 'downloadCsv', 'showEmbed']) {
      const b = document.createElement('button');
      b.type = 'button';
      b.dataset.key = action;
      b.dataset.action = action;
      b.addEventListener('click', () => {
        const done = this.host[action]();
        // Embed fails where the snippets' host is unknown (configure({ embedBase })): the reader is told
        if (action === 'showEmbed') {
          done.catch((error) => {
            if (!(error instanceof TypeError && /\bbase must be\b/.test(error.message))) throw error;
            this._status.replaceChildren(labelSpan('embedNoHost', this.host.t));
          });
        }
      });
      bar.append(b);
    }
    this._status = document.createElement('span');
    this._status.className = 'status';
    this._status.setAttribute('role', 'status');
    bar.append(this._status);
    this.element = bar;
    return bar;
  }

  /** Copies the figure's link (or shows it) and fires `posnorm-share`. */
  async copyLink() {
    const url = await copyLink(this.host, this._status);
    emit(this.host, 'posnorm-share', { url });
  }

  /** Saves the figure's pixels (at devicePixelRatio; several canvases side by side) as a PNG file. */
  downloadPng() {
    const { host } = this;
    if (!host.pn || !host.onPage) return;
    host.renderNow();
    joinCanvases(host.shadowRoot, host.color('--pn-bg')).toBlob((blob) => saveBlob(host.shadowRoot, blob, `${fileStem(host)}.png`), 'image/png');
  }

  /** Saves the numbers behind the figure (its toCsv()) as a CSV file. */
  downloadCsv() {
    const { host } = this;
    if (!host.pn || !host.onPage) return;
    // (toCsv() draws a change not yet drawn first)
    saveBlob(host.shadowRoot, new Blob([host.toCsv()], { type: 'text/csv' }), `${fileStem(host)}.csv`);
  }

  /** After a relabelling: an open Embed dialog's snippets and its Copy buttons' names follow the language too. */
  relabelled() {
    this._dialog?.then((dialog) => dialog.relabelled(), () => {});
  }

  /** Opens the Embed dialog for the figure (loading its code the first time); resolves once it is open. */
  async showEmbed() {
    const { host } = this;
    if (!host.pn || !host.onPage) return;
    this._dialog ??= import('./embed-dialog.js').then(({ EmbedDialog }) => new EmbedDialog(host, this.element.querySelector('[data-action=showEmbed]')), (error) => {
      this._dialog = null; // a failed load is tried again on the next press
      throw error;
    });
    (await this._dialog).open();
  }
}
