// language.js — which language a figure speaks: its own `lang`, the
// nearest ancestor's, the document's, else Korean (the article's).
import { hasStrings, loadStrings, strings } from '../../i18n.js';

/** 'en' or 'ko' for element `el`. */
export function languageOf(el) {
  const owner = el.closest?.('[lang]');
  const lang = (owner?.getAttribute('lang') || globalThis.document?.documentElement.lang || 'ko').slice(0, 2).toLowerCase();
  return lang === 'en' ? 'en' : 'ko';
}

/** The strings table for `el`'s language (Korean until another has loaded). */
export function stringsFor(el) {
  return strings(languageOf(el));
}

/**
 * Loads `el`'s language if it is not here yet, then calls `onLoaded` (to
 * relabel); resolves when the figure's strings are in place.
 */
export function ensureLanguage(el, onLoaded) {
  const lang = languageOf(el);
  if (hasStrings(lang)) return Promise.resolve();
  return loadStrings(lang).then(onLoaded, () => {});
}
