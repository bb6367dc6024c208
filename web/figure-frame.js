// figure-frame.js — the code of figure.html: one figure, its parameters
// from the URL, its content height posted to the parent page.
//
// A classic script (not a module) on purpose: in <iframe sandbox="allow-scripts">
// the page has an opaque origin, and module scripts and fetch() are CORS
// requests that a plain static host refuses. There it loads the
// self-contained build/frame/posnorm-frame.js (classic, wasm inside);
// everywhere else it imports the figure modules, which the page shares
// with other figures and the browser caches.
(() => {
  const FIGURES = new Map(['order', 'heatmap', 'waveform', 'properties', 'compare', 'long-context', 'precision', 'depth', 'ln-simulator', 'ln-steps', 'bn-vs-ln', 'block']
    .map((f) => [f, `posnorm-${f}`]));
  const params = new URLSearchParams(location.search);
  const name = params.get('fig') ?? 'heatmap';
  const host = document.getElementById('figure');
  const tag = FIGURES.get(name);

  function postHeight() {
    const height = Math.ceil(document.body.getBoundingClientRect().height);
    if (height !== postHeight.last && parent !== window) {
      postHeight.last = height;
      parent.postMessage({ type: 'posnorm-figure-height', height }, '*');
    }
  }

  if (!tag) {
    const p = document.createElement('p');
    p.className = 'error';
    p.textContent = `Unknown figure "${name}"; use one of: ${[...FIGURES.keys()].join(', ')}.`;
    host.append(p);
    return;
  }
  document.documentElement.lang = params.get('lang') === 'en' ? 'en' : 'ko';
  const opaque = self.origin === 'null';
  const here = document.currentScript?.src ?? location.href;
  const loaded = opaque
    ? new Promise((resolve, reject) => {
      const s = document.createElement('script');
      s.src = new URL('../build/frame/posnorm-frame.js', here).href;
      s.onload = resolve;
      s.onerror = () => reject(new Error('could not load posnorm-frame.js'));
      document.head.append(s);
    })
    : import('./figures/index.js');
  loaded.then(() => customElements.whenDefined(tag)).then(() => {
    const el = document.createElement(tag);
    el.shareKey = ''; // plain parameter names: ?d-model=128
    host.append(el);
    new ResizeObserver(postHeight).observe(document.body);
  }, (error) => {
    const p = document.createElement('p');
    p.className = 'error';
    p.textContent = `The figure could not be loaded (${error.message}).`;
    host.append(p);
  });
})();
