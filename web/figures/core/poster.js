// poster.js — what a figure shows before it has started and where it
// cannot run (no WebAssembly, or loading failed): a message while it
// starts; if it cannot, its poster — a picture of its default state with a
// text description — and a message, and no live-looking controls.
//
// The page's own poster — children of the element with slot="poster", e.g.
// <img slot="poster" …> and <p slot="poster">…</p>, which is also what
// readers without JavaScript see — is shown through the "poster" slot;
// without one, the packaged picture in web/posters/ is used. Nothing is
// fetched unless the figure falls back.

/** The packaged poster of figure `name` ('heatmap', …) in `lang`. */
export function posterUrl(name, lang) {
  return new URL(`../../posters/${name}.${lang}.png`, import.meta.url).href;
}

export class PosterController {
  constructor(host) {
    this.host = host;
    /** Whether the figure fell back to its poster. */
    this.shown = false;
    this.box = null;
    this.message = null;
  }

  /** Builds the hidden poster box (a slot whose default is the packaged picture) and the message; the figure places them. */
  build() {
    this.box = document.createElement('div');
    this.box.className = 'poster';
    this.box.setAttribute('part', 'poster');
    this.box.hidden = true;
    const slot = document.createElement('slot');
    slot.name = 'poster';
    this.box.append(slot);
    this.message = document.createElement('p');
    this.message.className = 'message';
    this.message.setAttribute('part', 'message');
    this.message.setAttribute('role', 'status');
    this.message.dataset.key = 'loading';
    return { box: this.box, message: this.message };
  }

  /** The key of the message show() gives. */
  get messageKey() {
    return typeof WebAssembly === 'object' ? 'wasmFailed' : 'wasmMissing';
  }

  /** The figure has started: the message goes. */
  started() {
    this.message.hidden = true;
  }

  /**
   * The figure cannot run: its poster and the message instead of everything
   * else it shows. The message says why: no WebAssembly in this engine
   * (wasmMissing), or a module that could not be loaded or compiled here —
   * a wrong path on the site (HTTP 404), a page whose CSP refuses wasm
   * (wasmFailed).
   */
  show() {
    const { host, box, message } = this;
    this.shown = true;
    for (const el of box.parentElement.children) if (el !== box && el !== message) el.hidden = true;
    const slot = box.querySelector('slot');
    if (!slot.firstChild) {
      const img = document.createElement('img');
      img.src = posterUrl(host.localName.replace(/^posnorm-/, ''), host.language);
      img.alt = host.describe?.() ?? '';
      img.decoding = 'async';
      slot.append(img);
    }
    box.hidden = false;
    message.dataset.key = this.messageKey;
    message.textContent = host.t[this.messageKey];
    message.hidden = false;
  }
}
