// poster.js — what a figure shows where it cannot run (no WebAssembly, or
// loading failed): its poster — a picture of its default state with a text
// description — and a message, and no live-looking controls.
//
// The page's own poster — children of the element with slot="poster", e.g.
// <img slot="poster" …> and <p slot="poster">…</p>, which is also what
// readers without JavaScript see — is shown through the "poster" slot;
// without one, the packaged picture in web/posters/ is used. Nothing is fetched unless the figure falls back.

/** The packaged poster of figure `name` ('heatmap', …) in `lang`. */
export function posterUrl(name, lang) {
  return new URL(`../../posters/${name}.${lang}.png`, import.meta.url).href;
}

/** Builds the (hidden) poster box: a slot whose default is the packaged picture. */
export function buildPoster() {
  const box = document.createElement('div');
  box.className = 'poster';
  box.setAttribute('part', 'poster');
  box.hidden = true;
  const slot = document.createElement('slot');
  slot.name = 'poster';
  box.append(slot);
  return box;
}

/** Shows the poster of `fig` (tag posnorm-NAME) described by `text`. */
export function showPoster(box, fig, lang, text) {
  const slot = box.querySelector('slot');
  if (!slot.firstChild) {
    const img = document.createElement('img');
    img.src = posterUrl(fig.localName.replace(/^posnorm-/, ''), lang);
    img.alt = text;
    img.decoding = 'async';
    slot.append(img);
  }
  box.hidden = false;
}
