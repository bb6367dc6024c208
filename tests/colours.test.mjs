// The figures' colours against their background, in light and dark mode:
// every colour that draws a curve, a bar or text has at least the 3:1 of
// WCAG 2.1's non-text contrast (1.4.11) against --pn-bg, and text 4.5:1
// (1.4.3), by the WCAG relative-luminance formula worked here. --pn-grid is
// decoration (grid lines), left out. An audit found the light mode's
// reference cos curve at 2.35:1 and the "after" bars at 2.83:1.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import { FIGURE_CSS } from '../web/figures/core/style.js';

/**
 * The colour properties the figures' stylesheets give to text (`color:
 * var(--pn-…)`, not accent-color or border-color), in the shared stylesheet
 * and in every figure's own (read as the sources' text): these are held to
 * text's 4.5:1. (The test once held --pn-fg and --pn-muted alone, while
 * .steps b and rope-config's warning are --pn-accent: an accent of 3.58:1
 * passed.)
 */
function textColours() {
  const dir = new URL('../web/figures/', import.meta.url);
  const sources = [FIGURE_CSS, ...readdirSync(dir, { recursive: true }).filter((f) => f.endsWith('.js')).map((f) => readFileSync(new URL(f, dir), 'utf8'))];
  const names = new Set(sources.flatMap((src) => [...src.matchAll(/(?<![-\w])color:\s*var\(--pn-([a-z-]+)\)/g)].map((m) => m[1])));
  return names;
}

/** WCAG 2.1 relative luminance of #rrggbb. */
function luminance(hex) {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255)
    .map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}
const contrast = (a, b) => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
};

/**
 * The colour custom properties of the first `:host` block after the first
 * match of `from` (a RegExp; null: from the start) in the stylesheet, which
 * must be there (a dark block the search missed once read the light one
 * again); every --pn- declaration but the font must be a #rrggbb this test
 * can read (another notation would slip past it).
 */
function colours(from) {
  const start = from ? from.exec(FIGURE_CSS)?.index : 0;
  assert.ok(start !== undefined, `the figures' stylesheet has ${from}`);
  const host = /:host\s*\{/g;
  host.lastIndex = start;
  const at = host.exec(FIGURE_CSS)?.index;
  assert.ok(at !== undefined, `a :host block after ${from ?? 'the start'}`);
  const block = FIGURE_CSS.slice(at, FIGURE_CSS.indexOf('}', at));
  const declared = [...block.matchAll(/--pn-([a-z-]+):\s*([^;]+);/g)].filter((m) => m[1] !== 'font');
  for (const [, name, value] of declared) assert.match(value.trim(), /^#[0-9a-f]{6}$/, `--pn-${name}: ${value} is not a #rrggbb colour the test can check`);
  return Object.fromEntries(declared.map((m) => [m[1], m[2].trim()]));
}

test('every curve, bar and text colour of the figures stands out from their background, in light and dark mode', () => {
  const schemes = { light: colours(null), dark: colours(/@media[^{]*prefers-color-scheme\s*:\s*dark/) };
  const text = textColours();
  assert.ok(['fg', 'muted', 'accent'].every((n) => text.has(n)), `text colours found: ${[...text]}`);
  assert.notEqual(schemes.dark.bg, schemes.light.bg, 'the dark block is another block than the light one');
  for (const [scheme, c] of Object.entries(schemes)) {
    assert.ok(c.bg && Object.keys(c).length >= 12, `${scheme}: ${Object.keys(c)}`);
    // dark mode sets every colour light mode does (one it left out would be light mode's on a dark background)
    if (scheme === 'dark') assert.deepEqual(Object.keys(c).sort(), Object.keys(schemes.light).sort());
    for (const [name, hex] of Object.entries(c)) {
      if (name === 'bg' || name === 'grid') continue;
      const need = text.has(name) ? 4.5 : 3;
      assert.ok(contrast(hex, c.bg) >= need, `${scheme} --pn-${name} ${hex} on ${c.bg}: ${contrast(hex, c.bg).toFixed(2)}:1, needs ${need}:1`);
    }
  }
  // the formula itself, on WCAG's own ends: black on white is 21:1, white on white 1:1
  assert.equal(contrast('#000000', '#ffffff'), 21);
  assert.equal(contrast('#ffffff', '#ffffff'), 1);
});
