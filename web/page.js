// page.js — the demo page: language switch and engine note.
//
// The figure at the top is defined first and each other one is loaded as
// the reader nears it, so that a phone paints the first figure without
// waiting for the code of all twelve (make demo bundles this file). The
// page's Korean text is in index.html itself; the page's own strings
// (page-i18n.js) are loaded only for English.
import './figures/order.js'; // the top figure, the registry's first
import { configure, getPosnorm } from './figures/core/runtime.js';
import { languageCode } from './figures/core/language.js';
import { FIGURES } from './figures/registry.js';

// posnorm's own page: "Copy link" may also update the address bar
configure({ history: true });

const params = new URLSearchParams(location.search);
// the rule of a figure's own lang: ?lang=EN and ?lang=en-GB are English too
let lang = languageCode(params.get('lang'));
let simd = null;
let pageStrings = null;
// the engine note in Korean, so that the Korean page never loads page-i18n.js
const ENGINE_KO = { simd: '지금 SIMD128 빌드로 실행 중입니다.', scalar: '이 브라우저는 SIMD를 지원하지 않아 스칼라 빌드로 실행 중입니다.' };
// a failed load is forgotten, so that the next switch to English tries again
const strings = () => (pageStrings ??= import('./page-i18n.js').then((m) => m.PAGE_STRINGS, (error) => {
  pageStrings = null;
  throw error;
}));

async function apply() {
  document.documentElement.lang = lang;
  for (const fig of document.querySelectorAll('figure.article-figure > :first-child')) {
    if (fig.getAttribute('lang') !== lang) fig.setAttribute('lang', lang);
  }
  for (const b of document.querySelectorAll('[data-lang]')) b.setAttribute('aria-pressed', String(b.dataset.lang === lang));
  if (lang === 'ko' && pageStrings === null) {
    // the markup already says it all in Korean; only the engine note is left
    const engine = document.getElementById('engine');
    if (engine && simd !== null) engine.textContent = simd ? ENGINE_KO.simd : ENGINE_KO.scalar;
    return;
  }
  const s = (await strings())[lang];
  document.title = `${s.title} — posnorm`;
  for (const el of document.querySelectorAll('[data-i18n]')) {
    const v = s[el.dataset.i18n];
    if (typeof v === 'string' && el.textContent !== v) el.textContent = v;
  }
  const engine = document.getElementById('engine');
  if (engine && simd !== null) engine.textContent = s.engine(simd);
}

// a failed load of the English text leaves the page in Korean (the next
// switch to English tries again): not an unhandled rejection
const show = () => apply().catch(() => {});

for (const b of document.querySelectorAll('[data-lang]')) {
  b.addEventListener('click', () => {
    lang = b.dataset.lang;
    const url = new URL(location.href);
    url.searchParams.set('lang', lang);
    history.replaceState(null, '', url);
    show();
  });
}
show();
getPosnorm().then((pn) => { simd = pn.simd; show(); }, () => {});

// Every other figure's code loads when the reader comes within a screen of
// it (make demo gives each its own chunk: figures/registry.js imports each
// with a literal path): the first load carries the top figure and the
// shared core only, and a reader who stops halfway never downloads the
// rest. Posters stay hidden meanwhile (styles.css: they show only where
// scripts do not run).
const load = new Map(FIGURES.map((f) => [f.tag, f.load]));
const figures = [...document.querySelectorAll(FIGURES.map((f) => f.tag).join(','))].filter((el) => !customElements.get(el.localName));
if (typeof IntersectionObserver === 'function') {
  // watch each figure's box (figure.article-figure), not the element: the
  // box has its size while it is off-screen (content-visibility: auto with
  // an intrinsic size), the element inside it has not been laid out yet
  const boxes = new Map(figures.map((el) => [el.closest('figure') ?? el, el.localName]));
  const near = new IntersectionObserver((entries) => {
    for (const e of entries) {
      if (!e.isIntersecting) continue;
      near.unobserve(e.target);
      load.get(boxes.get(e.target))();
    }
  }, { rootMargin: '100% 0px' });
  for (const box of boxes.keys()) near.observe(box);
} else {
  for (const el of figures) load.get(el.localName)();
}
