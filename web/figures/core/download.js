// download.js — the figure's pixels as PNG and its numbers as CSV.

/** The canvases of `root` as one canvas, laid side by side on `background`. */
export function joinCanvases(root, background) {
  const canvases = [...root.querySelectorAll('canvas')];
  if (canvases.length === 1) return canvases[0];
  const out = document.createElement('canvas');
  out.width = canvases.reduce((w, c) => w + c.width, 0);
  out.height = Math.max(...canvases.map((c) => c.height));
  const ctx = out.getContext('2d');
  ctx.fillStyle = background;
  ctx.fillRect(0, 0, out.width, out.height);
  let x = 0;
  for (const c of canvases) {
    ctx.drawImage(c, x, 0);
    x += c.width;
  }
  return out;
}

/** Offers `blob` as a file named `name` (through a link in `root`). */
export function saveBlob(root, blob, name) {
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = name;
  root.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10000);
}

/** File name stem: the tag name and the visible controls. */
export function fileStem(fig) {
  const values = fig.values;
  return [fig.localName, ...fig.constructor.controls.filter((c) => !c.hidden).map((c) => `${c.attr}-${values[c.prop]}`)].join('_');
}
