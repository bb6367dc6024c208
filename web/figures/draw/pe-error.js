// pe-error.js — the line every PE figure adds to its readout: the max error
// of what it draws against float64, for posnorm's values and for the
// article's float32 PyTorch code at the same sizes. Computed in idle time
// after the frame (a 2048 × 1024 matrix takes a few tens of ms), cached by
// the sizes, so a repaint never waits for it.
import { createReadout } from './canvas.js';
import { fmt } from './format.js';
import { whenIdle } from '../core/observers.js';

/**
 * Max |PE − float64| over positions [offset, offset + seqLen) and the
 * columns in `dims` (all when omitted), for posnorm and the float32 code.
 */
export function peErrors(pn, { seqLen, dModel, base = 10000, offset = 0, layout = 'interleaved', dims }) {
  const ours = pn.positionalEncoding({ seqLen, dModel, base, offset, layout });
  const code = pn.positionalEncoding({ seqLen, dModel, base, offset, layout, precision: 'float32' });
  const half = Math.ceil(dModel / 2);
  const cols = dims ?? Array.from({ length: dModel }, (_, c) => c);
  const pair = cols.map((c) => (layout === 'concat' ? (c < half ? [c, false] : [c - half, true]) : [c >> 1, c % 2 === 1]));
  const w = pair.map(([i]) => Math.exp((-2 * i / dModel) * Math.log(base)));
  let posnorm = 0, float32 = 0;
  for (let r = 0; r < seqLen; r++) {
    const p = offset + r;
    for (let k = 0; k < cols.length; k++) {
      const ref = pair[k][1] ? Math.cos(p * w[k]) : Math.sin(p * w[k]);
      const at = r * dModel + cols[k];
      posnorm = Math.max(posnorm, Math.abs(ours[at] - ref));
      float32 = Math.max(float32, Math.abs(code[at] - ref));
    }
  }
  return { posnorm, float32 };
}

/**
 * The error line of a figure (`element`, a `p.readout.pe-error` the figure
 * places); the figure's `peErrors` holds the numbers shown, with their sizes.
 */
export class PeErrorLine {
  constructor(host) {
    this.host = host;
    this.element = createReadout('p', false);
    this.element.classList.add('pe-error');
    this._key = null;
  }

  /** Shows the errors for `sizes` (peErrors' options): at once when known, else after the frame. */
  show(sizes) {
    const { host, element } = this;
    const key = JSON.stringify(sizes);
    const write = () => {
      const e = host.peErrors;
      element.textContent = host.t.peErrorLine(fmt(e.posnorm, 3), fmt(e.float32, 3));
    };
    if (this._key === key && host.peErrors) {
      write();
      return;
    }
    this._key = key;
    host.peErrors = null;
    element.textContent = host.t.peErrorPending;
    whenIdle(() => {
      if (this._key !== key || !host.pn || !host.isConnected) return;
      host.peErrors = { ...peErrors(host.pn, sizes), sizes };
      write();
    });
  }
}
