// language.js — which language a figure speaks: its own `lang`, the nearest
// ancestor's, the document's, else Korean (the article's); and the
// controller that keeps the figure's labels in it.
import { englishArrived, hasStrings, loadStrings, strings } from '../../i18n.js';
import { onLanguageChange } from './observers.js';

/** 'en' for a language tag of English ('en', 'EN', 'en-US', and a locale's en_GB: its primary subtag), else 'ko' (the article's). */
export function languageCode(tag) {
  return String(tag ?? '').split(/[-_]/)[0].toLowerCase() === 'en' ? 'en' : 'ko';
}

/**
 * 'en' or 'ko' for element `el`: the nearest non-empty `lang` on it or its
 * ancestors, through the shadow roots it is in (a figure inside another
 * component takes the language of that component's host and its
 * ancestors, as HTML does), else its document's <html lang>, else Korean.
 * An empty `lang` is passed over (a template that wrote lang="{{lang}}"
 * with nothing in it) where HTML would call the language unknown: the
 * figure then speaks what its surroundings speak.
 */
export function languageOf(el) {
  for (let node = el; node; node = node.getRootNode?.().host) {
    const owner = node.closest?.('[lang]:not([lang=""])');
    if (owner) return languageCode(owner.getAttribute('lang'));
  }
  return languageCode((el.ownerDocument ?? globalThis.document)?.documentElement?.lang);
}

/**
 * A <span> showing string `key` of `t`, marked as a label (data-key), so
 * that it is relabelled with the figure's others: a status message stays
 * until the next one replaces it, and says the same in the new language.
 */
export function labelSpan(key, t) {
  const span = document.createElement('span');
  span.dataset.key = key;
  span.textContent = t[key];
  return span;
}

/**
 * The figure's labels: every element of its shadow DOM marked
 * `data-key="KEY"` shows the string KEY, every one marked
 * `data-key-label="KEY"` has it as its aria-label. What the figure draws
 * or writes itself follows at its next render; `onRelabel` is called after
 * each relabelling (the base describes its pictures again and redraws).
 * While the figure is on the page it follows the language it inherits: a
 * figure moved into a section of another lang, or on a page whose <html
 * lang> is switched, relabels (a figure with its own lang keeps it).
 */
export class LanguageController {
  constructor(host, onRelabel) {
    this.host = host;
    this._onRelabel = onRelabel;
    /** the language the labels are in (set by relabel) */
    this._shown = null;
    this._stopWatch = null;
  }

  hostConnected() {
    this._stopWatch ??= onLanguageChange(() => this.refresh(), this.host.ownerDocument);
    this.refresh();
  }

  hostDisconnected() {
    this._stopWatch?.();
    this._stopWatch = null;
  }

  /** Relabels (and loads the strings) if the figure's language is not the one its labels are in. */
  refresh() {
    if (this._shown === null || this._shown === this.lang) return;
    this.relabel();
    this.load();
  }

  /** 'en' or 'ko'. */
  get lang() { return languageOf(this.host); }

  /** The strings of that language (Korean until it has loaded). */
  get strings() { return strings(this.lang); }

  /**
   * Loads the figure's language if it is not here yet, then relabels;
   * resolves once its strings are in place. If the load fails, the labels
   * stay Korean until another request (another figure's, or this one's at
   * its next language change) loads the strings: the figure then relabels
   * if it still speaks English (held weakly: a dropped figure is not kept).
   */
  load() {
    const lang = this.lang;
    if (hasStrings(lang)) return Promise.resolve();
    return loadStrings(lang).then(() => this.relabel(), () => {
      const ref = new WeakRef(this);
      englishArrived.then(() => {
        const controller = ref.deref();
        if (controller?._shown === 'en') controller.relabel();
      });
    });
  }

  /** Puts every marked label in the figure's language. */
  relabel() {
    this._shown = this.lang;
    const t = this.strings;
    const root = this.host.shadowRoot;
    for (const el of root.querySelectorAll('[data-key]')) {
      const s = t[el.dataset.key];
      if (typeof s === 'string') el.textContent = s;
    }
    for (const el of root.querySelectorAll('[data-key-label]')) el.setAttribute('aria-label', t[el.dataset.keyLabel]);
    this._onRelabel();
  }
}
