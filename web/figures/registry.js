// registry.js — the figures, in the article's order: the one list that
// everything listing them reads (the demo page's lazy loading, figure.html's
// `fig=`, the posters, the frame bench, the tests). index.js and
// package.json name the modules statically, for bundlers; tests hold them
// to this list.
//
// Adding a figure: write NAME.js (a PnFigure subclass that ends with
// `.define('posnorm-NAME')`; see core/base.js) and NAME.d.ts, put its own
// Korean labels in ../i18n/ko/NAME.js (added by NAME.js with
// addKoreanStrings) and its English ones in ../i18n/en.js, and add one line
// below; then give
// index.js and index.d.ts its export line (a test names what is missing),
// and, to show it on the demo page, its <figure> in ../index.html. `make
// posters` takes its pictures.
//
// name: the module (NAME.js), the `fig=` of figure.html and the package
//       subpath posnorm/figures/NAME; the element is <posnorm-NAME>
// className: the class the module exports
// part: the article's part, A (positional encoding) or B (normalisation)
// load: imports the module, which defines the element (one literal path
//       per figure, so that a bundler gives each its own chunk)

const figure = (name, className, part, load) => Object.freeze({ name, tag: `posnorm-${name}`, module: `${name}.js`, className, part, load });

/** Every figure: { name, tag, module, className, part, load }. */
export const FIGURES = Object.freeze([
  figure('order', 'PosnormOrder', 'A', () => import('./order.js')),
  figure('heatmap', 'PosnormHeatmap', 'A', () => import('./heatmap.js')),
  figure('waveform', 'PosnormWaveform', 'A', () => import('./waveform.js')),
  figure('properties', 'PosnormProperties', 'A', () => import('./properties.js')),
  figure('compare', 'PosnormCompare', 'A', () => import('./compare.js')),
  figure('long-context', 'PosnormLongContext', 'A', () => import('./long-context.js')),
  figure('rope-config', 'PosnormRopeConfig', 'A', () => import('./rope-config.js')),
  figure('precision', 'PosnormPrecision', 'A', () => import('./precision.js')),
  figure('depth', 'PosnormDepth', 'B', () => import('./depth.js')),
  figure('ln-simulator', 'PosnormLnSimulator', 'B', () => import('./ln-simulator.js')),
  figure('ln-steps', 'PosnormLnSteps', 'B', () => import('./ln-steps.js')),
  figure('bn-vs-ln', 'PosnormBnVsLn', 'B', () => import('./bn-vs-ln.js')),
  figure('block', 'PosnormBlock', 'B', () => import('./block.js')),
]);
