// probes.mjs — a fixed set of small calls over every kernel, as bytes: an
// instance that went through the property runs must give the same bytes as
// a fresh instance of the same build.
const seq = (n, f) => Float32Array.from({ length: n }, (_, k) => f(k));

export function probes(pn) {
  const x = seq(4 * 16, (k) => Math.sin(k * 1.3) * (k % 5 + 1));
  const r = [
    pn.positionalEncoding({ seqLen: 7, dModel: 10 }),
    pn.positionalEncoding({ seqLen: 3, dModel: 9, offset: 1000, layout: 'concat', precision: 'float32' }),
    pn.peSample({ n: 9, dim: 3, dModel: 16, start: 0.5, step: 1.25 }),
    pn.layerNorm(x, { cols: 16 }).y,
    pn.rmsNorm(x, { cols: 16 }).y,
    pn.batchNorm(x, { cols: 16 }).y,
    pn.rope(x, { seqLen: 4, heads: 2, headDim: 8, offset: 5 }),
    pn.rope(x, { seqLen: 4, heads: 2, headDim: 8, positionIds: [3, 100, 7, 2], scaling: { type: 'yarn', factor: 8, originalMaxPositions: 64 } }),
    pn.ropeFrequencies({ dim: 16, scaling: { type: 'dynamic', factor: 4, originalMaxPositions: 16 }, seqLen: 100 }).invFreq,
    pn.alibi({ heads: 3, seqLen: 5 }),
    pn.randomNormal(33, { seed: 5 }),
    pn.histogram(x, { bins: 7 }).counts,
    pn.colormap(x, { vmin: -3, vmax: 3 }),
    pn.attention(x.subarray(0, 16), { dModel: 4, wq: x.subarray(16, 32), wk: x.subarray(32, 48), wv: x.subarray(48, 64) }).out,
    pn.gram(x, { cols: 8 }),
    pn.peShift(x.subarray(0, 8), { k: 3 }),
    pn.residualStack(x.subarray(0, 8), x, { width: 4, layers: 3, block: 'pre-ln', gradients: true }).grad,
    pn.transformerBlock(x.subarray(0, 8), seq(4 * 16 + 2 * 4 * 8, (k) => Math.cos(k) * 0.3), { dModel: 4, heads: 2, dFF: 8 }).output,
    pn.layerNormSteps(x.subarray(0, 10)).y,
  ];
  return r.map((a) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength).slice());
}
