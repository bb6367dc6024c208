// language.js — which language a figure speaks: its own `lang`, the
// nearest ancestor's, the document's, else Korean (the article's).
import { strings } from '../i18n.js';

/** 'en' or 'ko' for element `el`. */
export function languageOf(el) {
  const owner = el.closest?.('[lang]');
  const lang = (owner?.getAttribute('lang') || globalThis.document?.documentElement.lang || 'ko').slice(0, 2).toLowerCase();
  return lang === 'en' ? 'en' : 'ko';
}

/** The strings table for `el`'s language. */
export function stringsFor(el) {
  return strings(languageOf(el));
}
