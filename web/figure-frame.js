// figure-frame.js — the code of figure.html: one figure, its parameters
// from the URL, its content height posted to the parent page.
//
// A classic script (not a module) on purpose: in <iframe sandbox="allow-scripts">
// the page has an opaque origin, and module scripts and fetch() are CORS
// requests that a plain static host refuses. There it loads the
// self-contained build/frame/posnorm-frame.js (classic, every figure and
// both wasm builds inside; it leaves the figures' registry in
// self.posnormFrame); everywhere else it imports the registry and the one
// figure's module, which the page shares with other figures and the
// browser caches.
(() => {
  const params = new URLSearchParams(location.search);
  // a page of one figure (web/fig/NAME.LANG.html, tools/build-oembed.mjs) names it on <html data-fig>
  const name = document.documentElement.dataset.fig ?? params.get('fig') ?? 'heatmap';
  const host = document.getElementById('figure');
  const here = document.currentScript?.src ?? location.href;

  function postHeight() {
    const height = Math.ceil(document.body.getBoundingClientRect().height);
    if (height !== postHeight.last && parent !== window) {
      postHeight.last = height;
      parent.postMessage({ type: 'posnorm-figure-height', height }, '*');
    }
  }

  /**
   * 'en' or 'ko': the rule of a figure's own lang (core/language.js
   * languageCode, not importable from this classic script), so
   * that lang=EN or lang=en-US is English as <x lang="en-US"> is; an empty
   * lang= leaves the page's own (web/fig/NAME.en.html stays English).
   */
  function frameLanguage(asked, page) {
    return (asked || page || 'ko').split(/[-_]/)[0].toLowerCase() === 'en' ? 'en' : 'ko';
  }

  function say(text) {
    const p = document.createElement('p');
    p.className = 'error';
    p.textContent = text;
    host.append(p);
  }

  const registry = self.origin === 'null'
    ? new Promise((resolve, reject) => {
      const s = document.createElement('script');
      s.src = new URL('../build/frame/posnorm-frame.js', here).href;
      s.onload = () => resolve(self.posnormFrame);
      s.onerror = () => reject(new Error('could not load posnorm-frame.js'));
      document.head.append(s);
    })
    : import('./figures/registry.js');
  registry.then(({ FIGURES }) => {
    const figure = FIGURES.find((f) => f.name === name);
    if (!figure) {
      say(`Unknown figure "${name}"; use one of: ${FIGURES.map((f) => f.name).join(', ')}.`);
      return undefined;
    }
    document.documentElement.lang = frameLanguage(params.get('lang'), document.documentElement.lang);
    return figure.load().then(() => customElements.whenDefined(figure.tag)).then(() => {
      const el = document.createElement(figure.tag);
      el.shareKey = ''; // plain parameter names: ?d-model=128
      host.append(el);
      new ResizeObserver(postHeight).observe(document.body);
    });
  }).catch((error) => say(`The figure could not be loaded (${error.message}).`));
})();
