// style.js — the shadow-DOM stylesheet every figure shares, adopted as one
// constructable stylesheet (no <style> element, so a page whose CSP says
// `style-src 'self'` shows the figures styled). Colours are CSS custom
// properties: a host page overrides them on the element or an ancestor
// (e.g. `posnorm-heatmap { --pn-accent: crimson }`).
// The host has what `container-type: inline-size` gave it — inline-size
// and style containment (a wide canvas cannot widen it), no layout
// containment (its baseline and positioned content are as before), and
// its content in a formatting context of its own (the figure's flow-root:
// no margin inside escapes it, whatever display a page gives the host) —
// but is not a container for @container queries, which no rule uses: as a
// query container, every canvas text call and colour read of a render
// after an input made Blink lay the page out for it, and then again for
// the frame (a precision d_model drag: two layouts an input, 1.06 ms,
// against one of 0.65 ms without; issue #20).
export const FIGURE_CSS = `
:host {
  --pn-bg: #ffffff;
  --pn-fg: #1d1f24;
  --pn-muted: #5d6470;
  --pn-grid: #d9dde3;
  --pn-accent: #c2410c;
  --pn-sin: #1d5fa8;
  --pn-cos: #b45309;
  --pn-ref-sin: #7c93b8;
  --pn-ref-cos: #a9865f;
  --pn-bar-before: #7c93b8;
  --pn-bar-after: #b8783f;
  --pn-focus: #2563eb;
  --pn-font: system-ui, -apple-system, "Segoe UI", "Noto Sans KR", "Apple SD Gothic Neo", sans-serif;
  display: block;
  color: var(--pn-fg);
  background: var(--pn-bg);
  font: 14px/1.45 var(--pn-font);
  max-width: 100%;
  box-sizing: border-box;
  contain: inline-size style;
}
@media (prefers-color-scheme: dark) {
  :host {
    --pn-bg: #16181d;
    --pn-fg: #e6e8ec;
    --pn-muted: #a3aab5;
    --pn-grid: #353a44;
    --pn-accent: #fb923c;
    --pn-sin: #7fb2f0;
    --pn-cos: #f5b86b;
    --pn-ref-sin: #55708f;
    --pn-ref-cos: #8f7355;
    --pn-bar-before: #5b7cab;
    --pn-bar-after: #d0874a;
    --pn-focus: #93c5fd;
  }
}
*, *::before, *::after { box-sizing: border-box; }
[hidden] { display: none !important; }
.poster { margin: 0 0 0.6em; }
.poster img, ::slotted(img) { display: block; max-width: 100%; height: auto; }
figure { margin: 0; padding: 0; min-width: 0; display: flow-root; }
.plot { position: relative; width: 100%; }
canvas { display: block; width: 100%; touch-action: pan-y; border-radius: 4px; }
canvas:focus-visible { outline: 2px solid var(--pn-focus); outline-offset: 2px; }
.readout { min-height: 1.45em; margin: 0.4em 0; font-variant-numeric: tabular-nums; overflow-wrap: anywhere; }
.readout .value { font-weight: 600; }
.hint { color: var(--pn-muted); font-size: 0.86em; margin: 0.2em 0 0.6em; }
.controls {
  display: grid;
  grid-template-columns: repeat(auto-fill, minmax(min(100%, 15rem), 1fr));
  gap: 0.5em 1.2em;
  margin: 0.6em 0 0;
}
.control { display: grid; grid-template-columns: 1fr auto; align-items: center; gap: 0 0.5em; min-width: 0; }
.control label { grid-column: 1; font-size: 0.9em; color: var(--pn-muted); }
.control output { grid-column: 2; font-variant-numeric: tabular-nums; font-weight: 600; }
.control input[type=range], .control select { grid-column: 1 / 3; width: 100%; min-width: 0; margin: 0.15em 0; accent-color: var(--pn-accent); }
.control input[type=range] { height: 1.6em; }
select, button {
  font: inherit; color: var(--pn-fg); background: var(--pn-bg);
  border: 1px solid var(--pn-grid); border-radius: 6px; padding: 0.3em 0.6em;
}
button { cursor: pointer; min-height: 2.2em; }
button:focus-visible, select:focus-visible, input:focus-visible { outline: 2px solid var(--pn-focus); outline-offset: 2px; }
.toolbar { display: flex; flex-wrap: wrap; gap: 0.4em; align-items: center; margin: 0.7em 0 0; }
.toolbar button { font-size: 0.85em; min-height: 2em; }
.toolbar .status { color: var(--pn-muted); font-size: 0.85em; overflow-wrap: anywhere; }
.toolbar input { font: inherit; font-size: 0.85em; width: 100%; color: var(--pn-fg); background: var(--pn-bg); border: 1px solid var(--pn-grid); }
.message { padding: 1em; border: 1px dashed var(--pn-grid); border-radius: 6px; color: var(--pn-muted); }
.stats { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(100%, 14rem), 1fr)); gap: 0.3em 1.2em; font-variant-numeric: tabular-nums; }
.steps { margin: 0.6em 0 0; padding: 0; list-style: none; display: grid; gap: 0.25em; font-variant-numeric: tabular-nums; overflow-wrap: anywhere; }
.steps b { color: var(--pn-accent); font-weight: 600; }
.sr-only { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
@media (prefers-reduced-motion: reduce) { * { transition: none !important; animation: none !important; } }
`;

/** The stylesheets made for each document: document → (CSS text → CSSStyleSheet). */
const sheetsByDocument = new WeakMap();
/** The CSS texts each shadow root was given, in order (to give them again in another document). */
const textsOf = new WeakMap();

const constructable = (root) =>
  'adoptedStyleSheets' in root && typeof CSSStyleSheet === 'function' && 'replaceSync' in CSSStyleSheet.prototype;

/**
 * The shared sheet for `text` in `doc`. A constructed stylesheet can be
 * adopted only by shadow roots of the document whose window made it, so
 * each document (an iframe's too) gets its own, made by its window's
 * constructor.
 */
function sheetFor(doc, text) {
  let sheets = sheetsByDocument.get(doc);
  if (!sheets) sheetsByDocument.set(doc, (sheets = new Map()));
  let sheet = sheets.get(text);
  if (!sheet) {
    const Sheet = doc.defaultView?.CSSStyleSheet ?? CSSStyleSheet;
    sheet = new Sheet();
    sheet.replaceSync(text);
    sheets.set(text, sheet);
  }
  return sheet;
}

/** Puts the root's texts in place: adopted sheets of its document, or a <style> element per text (older engines). */
function apply(root) {
  const texts = textsOf.get(root) ?? [];
  const doc = root.ownerDocument;
  if (constructable(root)) {
    if (!doc.defaultView) return; // a document without a window: nothing is shown there
    const wanted = texts.map((text) => sheetFor(doc, text));
    const have = root.adoptedStyleSheets;
    if (have.length !== wanted.length || wanted.some((sheet, k) => have[k] !== sheet)) root.adoptedStyleSheets = wanted;
    return;
  }
  // (':scope >' matches nothing in a shadow root: its children are read directly)
  const present = [...root.children].filter((el) => el.localName === 'style' && 'pnStyle' in el.dataset);
  if (present.length === texts.length && present.every((el, k) => el.textContent === texts[k])) return;
  // all of them again, in order, first in the root (the cascade's order is the texts')
  for (const el of present) el.remove();
  root.prepend(...texts.map((text) => {
    const style = doc.createElement('style');
    style.dataset.pnStyle = '';
    style.textContent = text;
    return style;
  }));
}

/**
 * Gives `root` (a shadow root) the stylesheets for `cssTexts`: one shared
 * CSSStyleSheet per text and document where constructable stylesheets
 * exist, else <style> elements (older engines).
 */
export function adoptStyles(root, ...cssTexts) {
  textsOf.set(root, cssTexts.filter(Boolean));
  apply(root);
}

/** Adds the stylesheet for `cssText` to what `root` has (once). */
export function addStyles(root, cssText) {
  const texts = textsOf.get(root) ?? [];
  if (!texts.includes(cssText)) textsOf.set(root, [...texts, cssText]);
  apply(root);
}

/**
 * Gives `root` its stylesheets again where it is now: a shadow root moved
 * to another document loses its adopted sheets (they belong to the
 * document that made them), and a figure brought back, or shown in an
 * iframe's document, was left unstyled.
 */
export function restyle(root) {
  if (textsOf.has(root)) apply(root);
}
