// i18n.js — the figures' labels, one table per language (i18n/ko.js,
// i18n/en.js). Korean, the article's language and the default, is always
// here; English is loaded the first time a figure asks for it, so a page in
// one language does not download the other. A figure's own Korean labels
// (i18n/ko/<figure>.js) come with the figure's module, which adds them
// (addKoreanStrings): a page that shows one figure does not download the labels
// of the other eleven, and the demo page's first load carries only the
// first figure's (docs/decisions.md, "Page budget").

import ko from './i18n/ko.js';

const tables = { ko: { ...ko } };
const loading = {};
let arrived;
/**
 * Resolves when the English strings arrive, whichever request loaded them:
 * a figure whose own load failed waits on it to relabel (language.js).
 */
export const englishArrived = new Promise((resolve) => { arrived = resolve; });

/** The strings of `lang` if loaded ('ko' until then, and for unknown languages). */
export function strings(lang) {
  return tables[lang] ?? tables.ko;
}

/** Whether `lang` needs no loading: loaded already, or not a language of its own. */
export function hasStrings(lang) {
  return Boolean(tables[lang]) || lang !== 'en';
}

/**
 * Resolves once the strings of `lang` are loaded (at once for 'ko'). A
 * failed load (a network hiccup) is forgotten, so the next request tries
 * again; kept, it would have kept English off the page for good.
 */
export function loadStrings(lang) {
  if (hasStrings(lang)) return Promise.resolve();
  return (loading.en ??= import('./i18n/en.js').then((m) => {
    tables.en = m.default;
    arrived();
  }, (error) => {
    loading.en = null;
    throw error;
  }));
}

/**
 * Adds a module's own Korean labels to the Korean table (a figure's, when
 * its module loads; English has every label in one table, loaded on
 * demand). Keys are unique across the files (tests/figures_i18n.test.mjs).
 */
export function addKoreanStrings(table) {
  Object.assign(tables.ko, table);
}
