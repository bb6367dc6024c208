// matrix.js — a matrix as a heatmap: the colormap kernel writes its pixels
// into wasm memory, and they are drawn scaled, without smoothing.

let matrices = 0;

/**
 * Paints `data` [rows × cols] (a Float32Array or PnBuffer) with the
 * colormap kernel into `rect` of ctx. `cache` names the figure's wasm pixel
 * buffer and keeps the offscreen canvas between frames.
 */
export function drawMatrix(fig, ctx, cache, data, rows, cols, rect, { map = 'diverging', vmin = -1, vmax = 1 } = {}) {
  cache.name ??= `matrix${++matrices}`;
  cache.px = fig.buffer(cache.name, rows * cols * 4, 'u8c');
  fig.pn.colormap(data, { map, vmin, vmax: vmax > vmin ? vmax : vmin + 1, out: cache.px });
  cache.canvas ??= document.createElement('canvas');
  cache.canvas.width = cols;
  cache.canvas.height = rows;
  cache.canvas.getContext('2d').putImageData(new ImageData(cache.px.array, cols, rows), 0, 0);
  ctx.imageSmoothingEnabled = false;
  ctx.drawImage(cache.canvas, rect.x, rect.y, rect.w, rect.h);
}
