// matrix.js — a matrix as a heatmap: the colormap kernel writes its pixels
// into wasm memory, and they are drawn scaled, without smoothing.

let matrices = 0;

/**
 * Paints `data` [rows × cols] (a Float32Array or PnBuffer) with the
 * colormap kernel into `rect` of ctx. `cache` names the figure's wasm pixel
 * buffer and keeps the offscreen canvas between frames. `key`, when given,
 * names the data's contents: a repaint whose key (with map, range and
 * shape) is the one already painted draws the kept pixels, without the
 * colormap and putImageData (a control that moves something else, or only
 * the canvas's size, then costs the copy to the screen alone).
 */
export function drawMatrix(fig, ctx, cache, data, rows, cols, rect, { map = 'diverging', vmin = -1, vmax = 1, key } = {}) {
  cache.name ??= `matrix${++matrices}`;
  const painted = key === undefined ? undefined : `${key}|${map}|${vmin}|${vmax}|${rows}|${cols}`;
  if (painted === undefined || painted !== cache.painted) {
    cache.px = fig.buffer(cache.name, rows * cols * 4, 'u8c');
    fig.pn.colormap(data, { map, vmin, vmax: vmax > vmin ? vmax : vmin + 1, out: cache.px });
    cache.canvas ??= document.createElement('canvas');
    // (setting a canvas's size, even to the same value, clears and reallocates it)
    if (cache.canvas.width !== cols) cache.canvas.width = cols;
    if (cache.canvas.height !== rows) cache.canvas.height = rows;
    cache.canvas.getContext('2d').putImageData(new ImageData(cache.px.array, cols, rows), 0, 0);
    cache.painted = painted;
  }
  ctx.imageSmoothingEnabled = false;
  ctx.drawImage(cache.canvas, rect.x, rect.y, rect.w, rect.h);
}
