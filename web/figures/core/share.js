// share.js — links that restore a figure: its controls as URL parameters
// `KEY.ATTR=value` (KEY is the element's id, else its tag name, numbered
// from the second figure of that kind without an id; '' for a page that
// holds one figure and uses plain names).
import { figureSettings } from './runtime.js';
import { labelSpan } from './language.js';

/**
 * The key of a figure without an id: its tag name, and `TAG-2`, `TAG-3` …
 * for the second, third … figure of its kind without an id in its document
 * (or shadow root), in document order. With the tag name for all of them, a
 * link copied from one (a post with two heatmap snippets) restored every
 * one of them to its values. Figures whose key was set (shareKey) do not
 * count: the Embed dialog's still copy, figure.html's one figure.
 */
export function defaultShareKey(fig) {
  const root = fig.getRootNode?.();
  let n = 1;
  if (fig.isConnected && typeof root?.querySelectorAll === 'function') {
    for (const other of root.querySelectorAll(fig.localName)) {
      if (other === fig) break;
      if (!other.id && other._shareKey === undefined) n++;
    }
  }
  return n === 1 ? fig.localName : `${fig.localName}-${n}`;
}

function param(fig, attr) {
  return fig.shareKey ? `${fig.shareKey}.${attr}` : attr;
}

/** Asks the figure for the control values its page URL records. */
export function restoreFromUrl(fig) {
  if (typeof location !== 'object') return;
  const params = new URLSearchParams(location.search);
  for (const c of fig.constructor.controls) {
    const v = params.get(param(fig, c.attr));
    if (v !== null) fig.request(c.prop, v, 'url');
  }
}

/**
 * Whether the page's fragment `hash` may give way to the figure's id: it is
 * empty, or names an element of the page (an anchor). Any other fragment is
 * the page's own — a hash router's route ("#/posts/rope") — and the link
 * must keep it to open the same page.
 */
function replaceableFragment(fig, hash) {
  if (!hash) return true;
  let id = hash.slice(1);
  try {
    id = decodeURIComponent(id);
  } catch {
    // a malformed escape: the fragment as written
  }
  return fig.ownerDocument.getElementById(id) !== null;
}

/** The page URL with the figure's current controls (and its id as the fragment, to scroll to it). */
export function shareUrl(fig) {
  const url = new URL(location.href);
  const values = fig.values;
  for (const c of fig.constructor.controls) url.searchParams.set(param(fig, c.attr), String(values[c.prop]));
  if (fig.id && replaceableFragment(fig, url.hash)) url.hash = fig.id;
  return url.href;
}

/**
 * Copies the link (or shows it to copy by hand where the clipboard is not
 * available); puts it in the address bar only where the page opted in.
 * `status` is the element that tells the reader. What it writes there is
 * marked as labels (language.js): shown until the next message, it follows
 * the figure's language meanwhile; its strings are the figure's when it is
 * written (the clipboard may answer after a language change).
 */
export async function copyLink(fig, status) {
  const url = shareUrl(fig);
  if (figureSettings().history) history.replaceState(history.state, '', url);
  try {
    await navigator.clipboard.writeText(url);
    status.replaceChildren(labelSpan('linkCopied', fig.t));
  } catch {
    const input = document.createElement('input');
    input.readOnly = true;
    input.value = url;
    input.dataset.keyLabel = 'linkShown'; // its name, relabelled as the text is
    input.setAttribute('aria-label', fig.t.linkShown);
    status.replaceChildren(labelSpan('linkShown', fig.t), ' ', input);
    input.select();
  }
  return url;
}
