// pe-errors.js — the PE error line's numbers in one piece (peErrors), in a
// module that imports nothing: the kernel Worker (worker/kernel-worker.js)
// imports it, and a Worker's imports must not lead back to the code that
// starts the Worker (a bundler that follows `new Worker(new URL(…))` into
// its script would go round: Next.js's Turbopack build never finished).
// draw/pe-error.js re-exports it beside its sliced form, peErrorSteps.

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
