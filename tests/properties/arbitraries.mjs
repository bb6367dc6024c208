// arbitraries.mjs — fast-check arbitraries for every public call of the JS
// API, as plain-data specs (so a shrunk or hanging input can be printed and
// replayed), and how each spec becomes a call on an instance.
//
// Each call has `valid` (a spec within every documented range, small sizes
// so a run stays fast) and `bad` (per key, values outside the ranges: 0, −0,
// subnormals, ±Inf, NaN, 2^31, 2^32 + 1, strings, null, arrays of the wrong
// type or length, freed buffers, another instance's buffers, too-small or
// aliasing `out`, sizes whose byte counts pass 32 bits). A run's spec is a
// valid one or a valid one with one key replaced by a bad value, about half
// each; some bad values are in range after all (−0 as an offset): the
// suite measures the fraction that really succeeds.
import fc from 'fast-check';

const F32_MAX = 3.4028234663852886e38;
const f = Math.fround;

// ---- scalars ----------------------------------------------------------------

/** Values that are not numbers at all, or not numbers of any range. */
const notNumbers = fc.constantFrom('4', '', null, true, [], {}, [3]);
const nonFinite = fc.constantFrom(NaN, Infinity, -Infinity);
/** Bad integers: out of range, not integers, not numbers, byte counts past 2^32. */
const badInt = fc.oneof(
  fc.constantFrom(0, -1, -0, 1.5, 2 ** 31, 2 ** 32 + 1, 2 ** 28 + 1, 2 ** 53, -(2 ** 31), 5e-324, 1e-310),
  nonFinite, notNumbers, fc.constant(10n),
);
/** Bad reals for a finite-number option. */
const badReal = fc.oneof(nonFinite, notNumbers, fc.constantFrom(-1, -0, 0, 5e-324, 1e-310, 1e39, -1e39, 2 ** 31, 2 ** 32 + 1, F32_MAX * 2, 10n));
/** A base: > 1 and finite. */
const base = fc.oneof(fc.constantFrom(10000, 2, 500000, 1 + 2 ** -52, 1e6), fc.double({ min: 1.01, max: 1e8, noNaN: true }));
const badBase = fc.oneof(fc.constantFrom(1, 0.5, 0, -0, -2, 5e-324, 1 - 2 ** -53), nonFinite, notNumbers);
/** eps: finite, >= 0, up to FLT_MAX (0 and subnormals included). */
const eps = fc.oneof(fc.constantFrom(0, -0, 1e-5, 1e-12, 5e-324, 1e-45, 1, F32_MAX), fc.double({ min: 0, max: 10, noNaN: true }));
const badEps = fc.oneof(fc.constantFrom(-1e-5, -5e-324, 3.5e38, 1e300), nonFinite, notNumbers);
const badString = fc.oneof(fc.constantFrom('', 'nope', 'INTERLEAVED', 'Diverging'), fc.constantFrom(0, 1, null, true, NaN));
const badOptions = fc.constantFrom(null, 42, 'opts', [], new Float32Array(2));
/** A misspelt extra option. */
const unknownKey = fc.constantFrom('gama', 'eps_', 'seq_len', 'colums', 'outt');

// ---- tensors ------------------------------------------------------------------

/**
 * A float32 tensor spec: n values of a kind (normal, wide magnitudes from
 * 1e-45 to FLT_MAX, or with NaN/±Inf/−0/subnormals mixed in), living as a
 * plain Float32Array, a PnBuffer, a view of the module's memory, or a
 * zero-copy subarray of a larger buffer.
 */
function tensor(n, { kinds = ['normal', 'wide', 'special', 'const'] } = {}) {
  return fc.record({
    t: fc.constant('f32'),
    n: fc.constant(n),
    vals: fc.constantFrom(...kinds),
    where: fc.constantFrom('js', 'js', 'buf', 'view', 'sub'),
    seed: fc.nat(1000),
  });
}

/** A bad tensor for an argument of n values. */
function badTensor(n) {
  return fc.oneof(
    fc.record({ t: fc.constant('f32'), n: fc.constantFrom(0, n + 1, Math.max(0, n - 1), 2 * n + 3), vals: fc.constant('normal'), where: fc.constantFrom('js', 'buf'), seed: fc.constant(1) })
      .filter((s) => s.n !== n),
    fc.record({ t: fc.constant('f32'), n: fc.constant(n), vals: fc.constant('normal'), where: fc.constantFrom('freed', 'foreign', 'detached', 'freedParent'), seed: fc.constant(2) }),
    fc.record({ t: fc.constantFrom('f64', 'i32', 'array', 'u8c-buf'), n: fc.constant(n), vals: fc.constant('normal'), where: fc.constant('js'), seed: fc.constant(3) }),
    fc.constantFrom(null, 'x', 42, {}),
  );
}

/** An out spec: none, a fresh Float32Array, a buffer, a view, or bad ones (too small, freed, foreign, wrong type, aliasing x). */
const goodOut = fc.constantFrom(undefined, { out: 'js' }, { out: 'buf' }, { out: 'view' });
const badOut = fc.constantFrom({ out: 'small' }, { out: 'big' }, { out: 'freed' }, { out: 'foreign' }, { out: 'f64' }, { out: 'detached' }, { out: 'string' });
const aliasOut = fc.constantFrom({ out: 'alias' });

/** One key of a valid spec replaced by a bad value (the rest kept). */
function mutate(valid, bad) {
  const keys = Object.keys(bad);
  return fc.tuple(valid, fc.constantFrom(...keys)).chain(([spec, key]) => bad[key].map((value) => ({ ...spec, [key]: value, mutated: key })));
}

/** About half valid, half mutated. */
function specs(valid, bad) {
  return fc.oneof({ arbitrary: valid, weight: 1 }, { arbitrary: mutate(valid, bad), weight: 1 });
}

// ---- per call ---------------------------------------------------------------

const rows = fc.integer({ min: 1, max: 8 });
const cols = fc.integer({ min: 1, max: 40 });

/** Row-normalisation calls: x [rows × cols] and per-column vectors. */
function rowNorm(withBeta) {
  const valid = fc.tuple(rows, cols).chain(([r, c]) => fc.record({
    rows: fc.constant(r), cols: fc.constant(c),
    x: tensor(r * c),
    gamma: fc.option(tensor(c, { kinds: ['normal', 'const'] }), { nil: undefined }),
    ...(withBeta ? { beta: fc.option(tensor(c, { kinds: ['normal', 'const'] }), { nil: undefined }) } : {}),
    eps: fc.option(eps, { nil: undefined }),
    out: fc.oneof(goodOut, aliasOut),
  }));
  const bad = {
    cols: fc.oneof(badInt, fc.constantFrom(3, 7, 1000)),
    x: badTensor(12), gamma: badTensor(5), eps: badEps, out: badOut, opts: badOptions, extra: unknownKey,
    ...(withBeta ? { beta: badTensor(5) } : {}),
  };
  return specs(valid, bad);
}

export const ARBITRARIES = {
  alloc: specs(
    fc.record({ length: fc.integer({ min: 1, max: 5000 }), type: fc.constantFrom(undefined, 'f32', 'u32', 'i32', 'u8c'), sub: fc.tuple(fc.integer({ min: -50, max: 50 }), fc.option(fc.integer({ min: -50, max: 5000 }), { nil: undefined })), fillOffset: fc.integer({ min: 0, max: 10 }) }),
    { length: fc.oneof(badInt, fc.constantFrom(2 ** 28 + 1, 2 ** 30)), type: fc.oneof(badString, fc.constant('f64')), sub: fc.constantFrom([5, 5], [-1, -1], ['a', null], [0, 0]), fillOffset: fc.constantFrom(-1, 1e9, 'x') },
  ),
  positionalEncoding: specs(
    fc.record({ seqLen: fc.integer({ min: 1, max: 40 }), dModel: fc.integer({ min: 1, max: 40 }), base: fc.option(base, { nil: undefined }),
      offset: fc.option(fc.oneof(fc.integer({ min: 0, max: 100 }), fc.constant(2 ** 31 - 40)), { nil: undefined }),
      layout: fc.constantFrom(undefined, 'interleaved', 'concat'),
      low: fc.constantFrom(undefined, ['float64'], ['float32'], ['bfloat16'], ['float16', 'float32'], ['bfloat16', 'low'], ['float16', 'low']), out: goodOut }),
    { seqLen: badInt, dModel: badInt, base: badBase, offset: fc.oneof(badInt.filter((v) => !Object.is(v, -0) && v !== 0), fc.constant(2 ** 31 - 1)),
      layout: badString, low: fc.constantFrom(['half'], ['float64', 'low'], ['float32', 'float32'], ['bfloat16', 'bfloat16'], ['float16', 1], [null, 'low'], ['BFLOAT16']), out: badOut, opts: badOptions, extra: unknownKey, shape: fc.constantFrom([65536, 65537], [2 ** 16, 2 ** 16], [2 ** 14, 2 ** 14 + 1]) },
  ),
  peSample: specs(
    fc.integer({ min: 1, max: 64 }).chain((dModel) => fc.record({ n: fc.integer({ min: 1, max: 64 }), dModel: fc.constant(dModel), dim: fc.integer({ min: 0, max: dModel - 1 }),
      base: fc.option(base, { nil: undefined }), start: fc.option(fc.double({ min: -1e6, max: 1e6, noNaN: true }), { nil: undefined }),
      step: fc.option(fc.double({ min: -100, max: 100, noNaN: true }), { nil: undefined }), out: goodOut })),
    { n: badInt, dModel: badInt, dim: fc.oneof(badInt, fc.constant(64)), base: badBase, start: fc.oneof(badReal, fc.constantFrom(2 ** 31 + 1, -(2 ** 31) - 1)),
      step: fc.oneof(nonFinite, notNumbers, fc.constantFrom(1e30, 2 ** 31)), out: badOut, opts: badOptions, extra: unknownKey },
  ),
  layerNorm: rowNorm(true),
  rmsNorm: rowNorm(false),
  batchNorm: specs(
    fc.tuple(rows, cols).chain(([r, c]) => fc.record({
      rows: fc.constant(r), cols: fc.constant(c), x: tensor(r * c),
      gamma: fc.option(tensor(c, { kinds: ['normal', 'const'] }), { nil: undefined }), beta: fc.option(tensor(c, { kinds: ['normal'] }), { nil: undefined }),
      eps: fc.option(eps, { nil: undefined }), training: fc.constantFrom(undefined, true, false),
      running: fc.option(fc.record({ mean: tensor(c, { kinds: ['normal'] }), var: tensor(c, { kinds: ['const'] }) }), { nil: undefined }),
      momentum: fc.option(fc.oneof(fc.constantFrom(0, -0, 1, 0.9, 5e-324), fc.double({ min: 0, max: 1, noNaN: true })), { nil: undefined }),
      out: fc.oneof(goodOut, aliasOut) })).map((s) => (s.training === false && !s.running ? { ...s, training: undefined } : s)),
    { cols: badInt, x: badTensor(12), gamma: badTensor(3), eps: badEps, training: fc.constantFrom(0, 1, 'true', null),
      momentum: fc.oneof(badReal, fc.constantFrom(1 + 2 ** -52, -1e-300)), running: fc.constantFrom({ mean: null, var: 'half' }, { mean: 'missing', var: null }, { mean: 'bad', var: 'bad' }),
      out: badOut, opts: badOptions, extra: unknownKey },
  ),
  rope: specs(ropeValid(), {
    batch: badInt, seqLen: badInt, heads: badInt, headDim: fc.oneof(badInt, fc.constant(1)), rotaryDim: fc.oneof(badInt, fc.constantFrom(3, 1000)),
    base: badBase, offset: fc.oneof(badInt.filter((v) => v !== 0 && !Object.is(v, -0)), fc.constant(2 ** 31 - 1)),
    ids: fc.constantFrom('wrongLength', 'negative', 'fraction', 'huge', 'strings', 'float32', 'freed', 'foreign', 'withOffset', 'beyondCache'),
    layout: badString, interleaved: fc.constantFrom(0, 1, 'yes', null), x: badTensor(16),
    scaling: badScaling(), cache: fc.constantFrom('wrongRows', 'withBase', 'withScaling', 'onlyCos', 'sinShort'),
    numHeads: fc.constantFrom(0, 3, 'h', 1.5, 'withHeads', 'bhsd'),
    out: badOut, opts: badOptions, extra: unknownKey,
  }),
  ropeFrequencies: specs(
    fc.integer({ min: 1, max: 32 }).chain((h) => fc.record({ dim: fc.constant(2 * h), base: fc.option(base, { nil: undefined }), scaling: fc.option(scalingValid(h), { nil: undefined }),
      seqLen: fc.option(fc.oneof(fc.integer({ min: 0, max: 100000 }), fc.constantFrom(0, 2 ** 31)), { nil: undefined }) })),
    { dim: fc.oneof(badInt, fc.constantFrom(3, 65538)), base: badBase, scaling: badScaling(), seqLen: fc.oneof(badInt.filter((v) => v !== 0 && !Object.is(v, -0) && v !== 2 ** 31), fc.constant(2 ** 31 + 1)), opts: badOptions, extra: unknownKey },
  ),
  alibiSlopes: specs(fc.record({ heads: fc.oneof(fc.integer({ min: 1, max: 70 }), fc.constantFrom(65536, 1000)) }), { heads: fc.oneof(badInt, fc.constant(65537)) }),
  alibi: specs(
    fc.record({ heads: fc.integer({ min: 1, max: 12 }), seqLen: fc.integer({ min: 1, max: 24 }), out: goodOut }),
    { heads: fc.oneof(badInt, fc.constant(65537)), seqLen: fc.oneof(badInt, fc.constant(16385)), shape: fc.constantFrom([64, 4096], [65536, 16384], [1, 16384 + 1]), out: badOut, opts: badOptions, extra: unknownKey },
  ),
  randomNormal: specs(
    fc.record({ n: fc.integer({ min: 1, max: 300 }), mean: fc.option(fc.oneof(fc.double({ min: -1e6, max: 1e6, noNaN: true }), fc.constantFrom(-0, 5e-324)), { nil: undefined }),
      std: fc.option(fc.oneof(fc.double({ min: 0, max: 1e3, noNaN: true }), fc.constantFrom(0, -0, 5e-324)), { nil: undefined }),
      seed: fc.option(fc.oneof(fc.nat(), fc.constant(2 ** 32 - 1)), { nil: undefined }), out: goodOut }),
    { n: fc.oneof(badInt, fc.constant(2 ** 31)), mean: badReal.filter((v) => typeof v !== 'number' || !Number.isFinite(v) || Math.abs(v) > 1e300), std: fc.oneof(nonFinite, notNumbers, fc.constantFrom(-1, -5e-324)),
      seed: fc.oneof(badInt.filter((v) => v !== 0 && !Object.is(v, -0) && v !== 2 ** 31), fc.constant(2 ** 32)), out: badOut, opts: badOptions, extra: unknownKey },
  ),
  histogram: specs(
    fc.integer({ min: 1, max: 300 }).chain((n) => fc.record({ x: tensor(n), bins: fc.oneof(fc.integer({ min: 1, max: 64 }), fc.constant(65536)),
      range: fc.option(fc.oneof(fc.constantFrom([-4, 4], [0, 1e-45], [-F32_MAX, F32_MAX], [1, f(1 + 2 ** -23)]), fc.tuple(fc.double({ min: -1e3, max: 0, noNaN: true }), fc.double({ min: 1e-3, max: 1e3, noNaN: true }))), { nil: undefined }),
      only: fc.constantFrom(undefined, 'min', 'max') })),
    { x: badTensor(10), bins: fc.oneof(badInt, fc.constant(65537)), range: fc.constantFrom([1, 1], [2, 1], [NaN, 1], [0, Infinity], [-1e39, 0], ['0', 1], [1, 1 + 1e-12]), opts: badOptions, extra: unknownKey },
  ),
  colormap: specs(
    fc.integer({ min: 1, max: 300 }).chain((n) => fc.record({ x: tensor(n), map: fc.constantFrom(undefined, 'diverging', 'sequential'),
      range: fc.option(fc.constantFrom([-1, 1], [-F32_MAX, F32_MAX], [0, 1e-45], [1, f(1 + 2 ** -23)], [-3.4e38, 3.4e38]), { nil: undefined }), out: goodOut })),
    { x: badTensor(10), map: badString, range: fc.constantFrom([1, 1], [2, 1], [NaN, 1], [-Infinity, 1], [0, 1e39], [1, 1 + 1e-12], ['a', 2]), out: fc.oneof(badOut, fc.constant({ out: 'f32' })), opts: badOptions, extra: unknownKey },
  ),
  roundToPrecision: specs(
    fc.integer({ min: 1, max: 300 }).chain((n) => fc.record({ x: tensor(n), precision: fc.constantFrom('bfloat16', 'float16'), out: goodOut })),
    { x: badTensor(10), precision: fc.oneof(badString, fc.constantFrom('float32', 'float64', undefined)), out: badOut, opts: badOptions, extra: unknownKey },
  ),
  colormapTable: specs(fc.record({ map: fc.constantFrom(undefined, 'diverging', 'sequential') }), { map: badString }),
  attention: specs(
    fc.tuple(fc.integer({ min: 1, max: 10 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 12 })).chain(([s, d, h]) => fc.record({
      seq: fc.constant(s), dModel: fc.constant(d), dHead: fc.constantFrom(undefined, h), x: tensor(s * d, { kinds: ['normal', 'const'] }),
      w: fc.tuple(tensor(d * h, { kinds: ['normal'] }), tensor(d * h, { kinds: ['normal'] }), tensor(d * h, { kinds: ['normal'] })) })).map((s) => (s.dHead === undefined ? { ...s, w: s.w.map((t) => ({ ...t, n: s.dModel * s.dModel })) } : s)),
    { dModel: fc.oneof(badInt, fc.constant(4097)), dHead: fc.oneof(badInt, fc.constant(4097)), x: badTensor(12), w: fc.constantFrom('wrongLength', 'missing', 'freed', 'foreign'), shape: fc.constantFrom([4097, 1], [1, 4097]), opts: badOptions, extra: unknownKey },
  ),
  gram: specs(
    fc.tuple(fc.integer({ min: 1, max: 24 }), cols).chain(([r, c]) => fc.record({ rows: fc.constant(r), cols: fc.constant(c), x: tensor(r * c) })),
    { cols: fc.oneof(badInt, fc.constant(7)), x: badTensor(12), shape: fc.constantFrom([8193, 1]), opts: badOptions, extra: unknownKey },
  ),
  minRowDistance: specs(
    fc.tuple(fc.integer({ min: 2, max: 24 }), cols).chain(([r, c]) => fc.record({ rows: fc.constant(r), cols: fc.constant(c), x: tensor(r * c) })),
    { cols: fc.oneof(badInt, fc.constantFrom(7, 12)), x: badTensor(12), shape: fc.constantFrom([8193, 1], [1, 5]), opts: badOptions, extra: unknownKey },
  ),
  peShift: specs(
    fc.integer({ min: 1, max: 40 }).chain((h) => fc.record({ x: tensor(2 * h), k: fc.oneof(fc.integer({ min: -1000, max: 1000 }), fc.constantFrom(2 ** 31 - 1, -(2 ** 31) + 1, 0, -0)), base: fc.option(base, { nil: undefined }) })),
    { x: fc.oneof(badTensor(10), fc.constant({ t: 'f32', n: 7, vals: 'normal', where: 'js', seed: 1 })), k: fc.oneof(badInt.filter((v) => v !== 0 && !Object.is(v, -0) && v !== -1), fc.constant(2 ** 31)), base: badBase, opts: badOptions, extra: unknownKey },
  ),
  residualStack: specs(
    fc.tuple(fc.integer({ min: 1, max: 6 }), fc.integer({ min: 1, max: 8 }), fc.integer({ min: 1, max: 6 })).chain(([r, w, l]) => fc.record({
      rows: fc.constant(r), width: fc.constant(w), layers: fc.constant(l), x: tensor(r * w, { kinds: ['normal', 'const', 'wide'] }),
      weights: fc.nat(3).chain((extra) => tensor(l * w * w + extra, { kinds: ['normal'] })), block: fc.constantFrom(undefined, 'plain', 'post-ln', 'pre-ln', 'pre-rms'),
      gelu: fc.constantFrom(undefined, 'tanh', 'erf'),
      scale: fc.option(fc.oneof(fc.double({ min: -4, max: 4, noNaN: true }), fc.constantFrom(0, -0, 5e-324, F32_MAX)), { nil: undefined }),
      gradients: fc.constantFrom(undefined, false, true), readout: fc.option(tensor(r * w, { kinds: ['normal'] }), { nil: undefined }) }))
      .map((s) => (s.gradients === true ? s : { ...s, readout: undefined })),
    { width: fc.oneof(badInt, fc.constant(4097)), layers: fc.oneof(badInt, fc.constant(1025)), x: badTensor(6), weights: fc.oneof(badTensor(4), fc.constant('short')),
      block: badString, gelu: fc.constantFrom('', 'exact', 'ERF', 'none', 0, 1, true, NaN), scale: fc.oneof(nonFinite, notNumbers, fc.constantFrom(1e39, -3.5e38)), gradients: fc.constantFrom(0, 1, 'yes', null), readout: fc.oneof(badTensor(5), fc.constant('withoutGradients')),
      shape: fc.constantFrom('scratch4GiB', 'layersWidth', 'gradTotal'), opts: badOptions, extra: unknownKey },
  ),
  transformerBlock: specs(
    fc.tuple(fc.integer({ min: 1, max: 5 }), fc.constantFrom(1, 2, 3, 4, 6, 8), fc.integer({ min: 1, max: 16 })).chain(([t, d, ff]) => fc.record({
      tokens: fc.constant(t), dModel: fc.constant(d), heads: fc.constantFrom(...[undefined, ...[1, 2, 3, 4, 6, 8].filter((h) => d % h === 0)]),
      dFF: fc.constantFrom(undefined, ff), placement: fc.constantFrom(undefined, 'pre', 'post'), norm: fc.constantFrom(undefined, 'layer', 'rms'), gelu: fc.constantFrom(undefined, 'erf', 'tanh'),
      eps: fc.option(eps, { nil: undefined }), x: tensor(t * d, { kinds: ['normal', 'const'] }), seed: fc.nat(100) })),
    { dModel: fc.oneof(badInt, fc.constant(1025)), heads: fc.oneof(badInt, fc.constantFrom(5, 7, 1025)), dFF: fc.oneof(badInt, fc.constant(4097)), placement: badString, norm: badString,
      gelu: fc.constantFrom('', 'exact', 'TANH', 0, true, NaN), eps: badEps, x: badTensor(6), weights: fc.constantFrom('wrongLength', 'freed', 'foreign', 'f64'), shape: fc.constantFrom([513, 1]), opts: badOptions, extra: unknownKey },
  ),
  layerNormSteps: specs(
    fc.integer({ min: 1, max: 100 }).chain((n) => fc.record({ x: tensor(n), gamma: fc.option(tensor(n, { kinds: ['normal'] }), { nil: undefined }), beta: fc.option(tensor(n, { kinds: ['normal'] }), { nil: undefined }), eps: fc.option(eps, { nil: undefined }) })),
    { x: badTensor(6), gamma: badTensor(6), beta: badTensor(6), eps: badEps, opts: badOptions, extra: unknownKey },
  ),
};

/** Valid rope specs: shapes, positions (offset, ids), caches, scaling. */
function ropeValid() {
  return fc.tuple(fc.integer({ min: 1, max: 2 }), fc.integer({ min: 1, max: 6 }), fc.integer({ min: 1, max: 3 }), fc.integer({ min: 1, max: 6 })).chain(([b, s, h, half]) => {
    const headDim = 2 * half + (half % 2); // odd head dims too
    return fc.record({
      batch: fc.constant(b), seqLen: fc.constant(s), heads: fc.constant(h), headDim: fc.constant(headDim),
      rotaryDim: fc.constantFrom(undefined, ...Array.from({ length: half }, (_, k) => 2 * (k + 1))),
      layout: fc.constantFrom(undefined, 'bshd', 'bhsd'), interleaved: fc.constantFrom(undefined, true, false),
      base: fc.option(base, { nil: undefined }),
      pos: fc.oneof(
        fc.record({ kind: fc.constant('offset'), offset: fc.option(fc.oneof(fc.integer({ min: 0, max: 1000 }), fc.constant(2 ** 31 - 8)), { nil: undefined }) }),
        fc.record({ kind: fc.constant('ids'), where: fc.constantFrom('array', 'i32', 'buf', 'view'), ids: fc.array(fc.oneof(fc.integer({ min: 0, max: 5000 }), fc.constant(2 ** 31 - 1)), { minLength: b * s, maxLength: b * s }) }),
        fc.record({ kind: fc.constant('cache'), ids: fc.boolean(), rows: fc.integer({ min: 1, max: 8 }), seed: fc.nat(50) }),
      ),
      scaling: fc.option(scalingValid(half), { nil: undefined }),
      numHeads: fc.boolean(),
      x: fc.constant({ t: 'f32', n: b * s * h * headDim, vals: 'normal', where: 'js', seed: 4 }),
      xWhere: fc.constantFrom('js', 'buf', 'view'),
      out: fc.oneof(goodOut, aliasOut),
    });
  }).map((s) => {
    // what the options cannot combine, dropped from valid specs
    const r = { ...s };
    if (r.pos.kind === 'cache') { r.scaling = undefined; r.base = undefined; }
    if (r.numHeads && r.layout === 'bhsd') r.layout = undefined;
    return r;
  });
}

/** Valid rope_scaling objects for a rotary dim of 2·half. */
function scalingValid(half) {
  const factor = fc.oneof(fc.double({ min: 1, max: 64, noNaN: true }), fc.constantFrom(0.5, 1, 4, 1e-9, 1e9));
  const orig = fc.oneof(fc.integer({ min: 1, max: 8192 }), fc.constantFrom(1, 2, 2 ** 31));
  const factors = fc.array(fc.double({ min: 0.5, max: 64, noNaN: true }), { minLength: half, maxLength: half });
  const list = [
    fc.record({ type: fc.constant('linear'), factor }),
    fc.record({ type: fc.constant('yarn'), factor, originalMaxPositions: orig, betaFast: fc.option(fc.constantFrom(32, 1e-9, 1e9, 8), { nil: undefined }),
      betaSlow: fc.option(fc.constantFrom(1, 1e-9, 1e9, 2), { nil: undefined }), mscale: fc.option(fc.constantFrom(1, 0.707, 0, -0, 2), { nil: undefined }),
      mscaleAllDim: fc.option(fc.constantFrom(1, 0.707, 0, 3), { nil: undefined }), attentionFactor: fc.option(fc.constantFrom(1, 0.5, 1e-9, 1e9), { nil: undefined }), truncate: fc.option(fc.boolean(), { nil: undefined }) }),
    fc.record({ type: fc.constant('llama3'), factor, originalMaxPositions: orig, lowFreqFactor: fc.constantFrom(1, 0.5, 1e-9), highFreqFactor: fc.constantFrom(4, 2, 1e9) }),
    fc.record({ type: fc.constant('longrope'), originalMaxPositions: fc.oneof(fc.integer({ min: 2, max: 8192 }), fc.constant(2 ** 31)), shortFactor: factors, longFactor: factors,
      factor: fc.option(factor, { nil: undefined }), attentionFactor: fc.option(fc.constantFrom(1, 1.2), { nil: undefined }) }),
  ];
  if (half >= 2) list.push(fc.record({ type: fc.constant('dynamic'), factor: fc.oneof(fc.double({ min: 1, max: 64, noNaN: true }), fc.constant(1)), originalMaxPositions: orig }));
  return fc.oneof(...list).map((s) => Object.fromEntries(Object.entries(s).filter(([, v]) => v !== undefined)));
}

/** Bad rope_scaling objects: unknown types and keys, missing keys, out-of-range values and derived values. */
function badScaling() {
  return fc.constantFrom(
    'linear', 42, [], { type: 'ntk', factor: 2 }, { type: 'linear' }, { type: 'linear', factor: 0 }, { type: 'linear', factor: -0 }, { type: 'linear', factor: NaN },
    { type: 'linear', factor: 5e-324 }, { type: 'linear', factor: 2, originalMaxPositions: 4 }, { type: 'dynamic', factor: 2 },
    { type: 'dynamic', factor: 1e9, originalMaxPositions: 1, base: 1 }, { type: 'yarn', factor: 8, originalMaxPositions: 4096, betaFast: 5e-324 },
    { type: 'yarn', factor: 8, originalMaxPositions: 4096, betaSlow: 1e-10 }, { type: 'yarn', factor: 8, originalMaxPositions: 4096, betaFast: Infinity },
    { type: 'yarn', factor: 8, originalMaxPositions: 4096, betaFast: 2e9 }, { type: 'yarn', factor: Math.E, originalMaxPositions: 64, mscale: -20, mscaleAllDim: 1 },
    { type: 'yarn', factor: Math.E, originalMaxPositions: 64, mscale: 1, mscaleAllDim: -10 }, { type: 'yarn', factor: 8, originalMaxPositions: 0 },
    { type: 'yarn', factor: 8, originalMaxPositions: 2 ** 31 + 1 }, { type: 'yarn', factor: 8, originalMaxPositions: 4096, truncate: 1 },
    { type: 'yarn', factor: 8, originalMaxPositions: 4096, attentionFactor: 0 }, { type: 'yarn', factor: 8, originalMaxPositions: 4096, attentionFactor: Infinity },
    { type: 'llama3', factor: 8, originalMaxPositions: 8192, lowFreqFactor: 4, highFreqFactor: 1 }, { type: 'llama3', factor: 8, originalMaxPositions: 8192, lowFreqFactor: 1, highFreqFactor: 1 },
    { type: 'longrope', originalMaxPositions: 1, factor: 2, shortFactor: 'half', longFactor: 'half' }, { type: 'longrope', originalMaxPositions: 16, shortFactor: [1], longFactor: [1] },
    { type: 'longrope', originalMaxPositions: 16, shortFactor: 'zeros', longFactor: 'half' }, { type: 'longrope', originalMaxPositions: 16, shortFactor: 'strings', longFactor: 'half' },
    { type: 'dynamic', factor: 1e9, originalMaxPositions: 1 },
  );
}
