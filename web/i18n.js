// i18n.js — the figures' labels, one table per language (i18n/ko.js,
// i18n/en.js). Korean, the article's language and the default, is always
// here; English is loaded the first time a figure asks for it, so a page in
// one language does not download the other.

import ko from './i18n/ko.js';

const tables = { ko };
const loading = {};

/** The strings of `lang` if loaded ('ko' until then, and for unknown languages). */
export function strings(lang) {
  return tables[lang] ?? tables.ko;
}

/** Whether `lang` needs no loading: loaded already, or not a language of its own. */
export function hasStrings(lang) {
  return Boolean(tables[lang]) || lang !== 'en';
}

/** Resolves once the strings of `lang` are loaded (at once for 'ko'). */
export function loadStrings(lang) {
  if (hasStrings(lang)) return Promise.resolve();
  loading.en ??= import('./i18n/en.js').then((m) => { tables.en = m.default; });
  return loading.en;
}
