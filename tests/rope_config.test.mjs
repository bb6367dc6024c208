// pn.ropeFromConfig: published Hugging Face config.json files (their RoPE
// fields, tests/fixtures/hf-configs/) read as Hugging Face reads them,
// against the float64 reading of tests/reference/rope_config.mjs (HF's
// standardisation and compute functions restated independently of
// src/js/rope-config.js); hand-worked facts of each model; the v5 spelling
// of the same configs; malformed variants and the warning or error each
// gets; extreme values.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { test } from 'node:test';
import { builds, compareValues, ulp32 } from './helpers.mjs';
import { hfRopeFromConfig } from './reference/rope_config.mjs';

const dir = new URL('./fixtures/hf-configs/', import.meta.url);
const FIXTURES = Object.fromEntries(readdirSync(dir).filter((f) => f.endsWith('.json'))
  .map((f) => [f.replace(/\.json$/, ''), JSON.parse(readFileSync(new URL(f, dir), 'utf8'))]));
const clone = (o) => JSON.parse(JSON.stringify(o));

/**
 * Hand-worked facts: the rotary dim and base as the config states them, the
 * attention factor from its closed form, and the keys the reader must warn
 * about (DeepSeek-V3 and the Phi-3 configs spell rope_type as v4's `type`).
 */
const FACTS = {
  'llama-3.1-8b': { type: 'llama3', dim: 128, base: 500000, af: 1, warn: [] },
  'llama-3.2-1b': { type: 'llama3', dim: 64, base: 500000, af: 1, warn: [] },
  'mistral-7b-v0.1': { type: 'default', dim: 128, base: 10000, af: 1, warn: [] },
  'qwen2.5-7b-instruct': { type: 'default', dim: 128, base: 1e6, af: 1, warn: [] },
  // yarn: 0.1·ln 32 + 1
  'gpt-oss-20b': { type: 'yarn', dim: 64, base: 150000, af: 0.1 * Math.log(32) + 1, warn: [] },
  // mscale = mscale_all_dim: their ratio is 1
  'deepseek-v3': { type: 'yarn', dim: 64, base: 10000, af: 1, warn: ['rope_scaling.type'] },
  // longrope, factor = 131072/4096 = 32: sqrt(1 + ln 32 / ln 4096) = sqrt(1 + 5/12)
  'phi-3-mini-128k-instruct': { type: 'longrope', dim: 96, base: 10000, af: Math.sqrt(17 / 12), warn: ['rope_scaling.type', 'rope_scaling.factor'] },
  'phi-3.5-mini-instruct': { type: 'longrope', dim: 96, base: 10000, af: Math.sqrt(17 / 12), warn: ['rope_scaling.type', 'rope_scaling.factor'] },
};

/** The same config in v5's spelling: rope_parameters holding rope_type and rope_theta. */
function toV5(config) {
  const c = clone(config);
  const rp = { ...(c.rope_scaling ?? {}) };
  if ('type' in rp) { rp.rope_type = rp.type; delete rp.type; }
  if (!rp.rope_type) rp.rope_type = 'default';
  rp.rope_theta = c.rope_theta;
  delete c.rope_scaling;
  delete c.rope_theta;
  c.rope_parameters = rp;
  return c;
}

const all = await builds();

test('the fixtures are the eight configs, and FACTS covers each', () => {
  assert.deepEqual(Object.keys(FIXTURES).sort(), Object.keys(FACTS).sort());
});

for (const { name, pn } of all) {
  test(`${name}: every published config is read as Hugging Face reads it (invFreq within 1 float32 ulp of the float64 reference, attention factor within 1e-6)`, () => {
    let n = 0;
    for (const [model, config] of Object.entries(FIXTURES)) {
      const want = FACTS[model];
      // longrope switches to long_factor past original_max_position_embeddings
      const lens = want.type === 'longrope' ? [0, 4096, 4097, 131072] : [0, 100000];
      for (const seqLen of lens) {
        const got = pn.ropeFromConfig(config, { seqLen });
        const ref = hfRopeFromConfig(config, seqLen);
        assert.equal(got.ropeType, want.type, model);
        assert.equal(got.rotaryDim, want.dim, `${model} rotaryDim`);
        assert.equal(ref.dim, want.dim, `${model} reference dim`);
        assert.equal(got.base, want.base, `${model} base`);
        assert.equal(got.invFreq.length, want.dim / 2);
        const c = compareValues(got.invFreq, ref.inv, ulp32);
        assert.ok(c.err <= 1 && c.compared === want.dim / 2, `${model} seqLen ${seqLen}: invFreq ${c.err} ulp`);
        assert.ok(Math.abs(got.attentionFactor - ref.af) <= 1e-6, `${model}: attention factor ${got.attentionFactor} vs reference ${ref.af}`);
        assert.ok(Math.abs(got.attentionFactor - want.af) <= 1e-6, `${model}: attention factor ${got.attentionFactor} vs closed form ${want.af}`);
        assert.deepEqual(got.warnings.map((w) => w.key).sort(), [...want.warn].sort(), `${model} warnings: ${JSON.stringify(got.warnings)}`);
        for (const w of got.warnings) assert.match(w.message, /\bHF\b/, `${model}: each warning says what HF does`);
        n++;
      }
    }
    assert.equal(n, 2 * 6 + 4 * 2);
  });

  test(`${name}: attention_factor, unequal mscales and dynamic's growth, which no fixture has, against their closed forms`, () => {
    const mistral = FIXTURES['mistral-7b-v0.1']; // head 128, base 10000, max 32768
    const m = (s, k) => 0.1 * k * Math.log(s) + 1;
    const yarn = (extra) => ({ ...mistral, rope_scaling: { rope_type: 'yarn', factor: 40, original_max_position_embeddings: 4096, ...extra } });
    const cases = [
      ['yarn, mscale 1 over mscale_all_dim 0.707', yarn({ mscale: 1, mscale_all_dim: 0.707 }), 0, m(40, 1) / m(40, 0.707)],
      ['yarn, attention_factor given beside the mscales (HF takes it)', yarn({ mscale: 1, mscale_all_dim: 0.5, attention_factor: 1.25 }), 0, 1.25],
      ['yarn, neither: 0.1·ln factor + 1', yarn({}), 0, m(40, 1)],
      ['longrope, attention_factor given', { ...FIXTURES['phi-3-mini-128k-instruct'], rope_scaling: { ...FIXTURES['phi-3-mini-128k-instruct'].rope_scaling, attention_factor: 1.1 } }, 5000, 1.1],
    ];
    for (const [label, config, seqLen, af] of cases) {
      const got = pn.ropeFromConfig(config, { seqLen });
      assert.ok(Math.abs(got.attentionFactor - af) <= 1e-12, `${label}: ${got.attentionFactor} vs ${af}`);
      assert.ok(Math.abs(hfRopeFromConfig(config, seqLen).af - af) <= 1e-12, `${label}: the reference`);
      assert.ok(compareValues(got.invFreq, hfRopeFromConfig(config, seqLen).inv, ulp32).err <= 1, `${label}: invFreq`);
    }
    // dynamic NTK, factor 2 from max_position_embeddings 32768: within it the
    // plain frequencies; at 65536 the base grows to 10000·(2·65536/32768 − 1)^(128/126)
    const dyn = { ...mistral, rope_scaling: { rope_type: 'dynamic', factor: 2 } };
    const plain = pn.ropeFromConfig(dyn, { seqLen: 32768 });
    assert.deepEqual([plain.originalContextLength, plain.attentionFactor], [32768, 1]);
    plain.invFreq.forEach((w, i) => assert.ok(Math.abs(w - 10000 ** (-2 * i / 128)) <= ulp32(10000 ** (-2 * i / 128)), `plain ${i}`));
    const grown = 10000 * 3 ** (128 / 126);
    const long = pn.ropeFromConfig(dyn, { seqLen: 65536 });
    long.invFreq.forEach((w, i) => {
      const want = grown ** (-2 * i / 128);
      assert.ok(Math.abs(w - want) <= ulp32(want), `grown ${i}: ${w} vs ${want}`);
    });
    assert.ok(long.invFreq[63] < plain.invFreq[63] * 0.98, 'the slowest pair slows down');
  });

  test(`${name}: the scaling returned is ready for rope() and ropeFrequencies()`, () => {
    for (const [model, config] of Object.entries(FIXTURES)) {
      const got = pn.ropeFromConfig(config);
      const again = pn.ropeFrequencies({ dim: got.rotaryDim, base: got.base, scaling: got.scaling ?? undefined });
      assert.deepEqual(again.invFreq, got.invFreq, model);
      const x = new Float32Array(2 * got.headDim).fill(0.5);
      const y = pn.rope(x, { seqLen: 2, heads: 1, headDim: got.headDim, rotaryDim: got.rotaryDim, base: got.base, scaling: got.scaling ?? undefined });
      assert.equal(y.length, x.length, model);
    }
    // the lengths of each model, for the figure's context lines
    const phi = pn.ropeFromConfig(FIXTURES['phi-3-mini-128k-instruct']);
    assert.deepEqual([phi.contextLength, phi.originalContextLength], [131072, 4096]);
    const mistral = pn.ropeFromConfig(FIXTURES['mistral-7b-v0.1']);
    assert.deepEqual([mistral.contextLength, mistral.originalContextLength, mistral.scaling], [32768, null, null]);
  });

  test(`${name}: v5's rope_parameters (rope_theta inside, rope_type) gives the same frequencies and no spelling warnings`, () => {
    for (const [model, config] of Object.entries(FIXTURES)) {
      const v4 = pn.ropeFromConfig(config), v5c = toV5(config), v5 = pn.ropeFromConfig(v5c);
      assert.deepEqual(v5.invFreq, v4.invFreq, model);
      assert.equal(v5.attentionFactor, v4.attentionFactor, model);
      const ref = hfRopeFromConfig(v5c);
      assert.ok(compareValues(v5.invFreq, ref.inv, ulp32).err <= 1, model);
      assert.ok(!v5.warnings.some((w) => /type/.test(w.key)), `${model}: ${JSON.stringify(v5.warnings)}`);
    }
  });

  test(`${name}: every malformed variant gets its warning, naming the key and what Hugging Face does`, () => {
    const llama = FIXTURES['llama-3.1-8b'], yarn = FIXTURES['gpt-oss-20b'], ds = FIXTURES['deepseek-v3'], phi = FIXTURES['phi-3-mini-128k-instruct'];
    const edit = (base, f) => { const c = clone(base); f(c); return c; };
    const cases = [
      ['unknown key', edit(llama, (c) => { c.rope_scaling.foo = 1; }), 'rope_scaling.foo', /not read for llama3: HF logs "Unrecognized keys" and ignores it/],
      ['type and rope_type both', edit(llama, (c) => { c.rope_scaling.type = 'llama3'; }), 'rope_scaling.type', /HF reads rope_type and drops type/],
      ['type and rope_type disagree', edit(llama, (c) => { c.rope_scaling.type = 'linear'; }), 'rope_scaling.type', /HF uses rope_type and ignores type/],
      ['attn_factor', edit(yarn, (c) => { c.rope_scaling.attn_factor = 1.5; }), 'rope_scaling.attn_factor', /HF's is attention_factor.*ignores it/],
      ['factor < 1', edit(llama, (c) => { c.rope_scaling.factor = 0.5; }), 'rope_scaling.factor', /below 1: HF warns/],
      ['yarn factor vs the context ratio', edit(yarn, (c) => { c.rope_scaling.factor = 16; }), 'rope_scaling.factor', /16 is not max_position_embeddings \/ original \(32\): HF warns and uses 16/],
      ['yarn without factor', edit(yarn, (c) => { delete c.rope_scaling.factor; }), 'rope_scaling.factor', /raises KeyError.*= 32, used here/],
      ['yarn without original', edit(yarn, (c) => { delete c.rope_scaling.original_max_position_embeddings; }), 'rope_scaling.original_max_position_embeddings', /fills it in from max_position_embeddings \(131072\)/],
      ['llama3 original >= max', edit(llama, (c) => { c.max_position_embeddings = 8192; }), 'rope_scaling.original_max_position_embeddings', /not below max_position_embeddings \(8192\): HF warns/],
      ['beta_fast < beta_slow', edit(yarn, (c) => { c.rope_scaling.beta_fast = 0.5; c.rope_scaling.beta_slow = 2; }), 'rope_scaling.beta_fast', /below beta_slow/],
      ['beta_fast 0', edit(yarn, (c) => { c.rope_scaling.beta_fast = 0; }), 'rope_scaling.beta_fast', /0 counts as missing in HF: it uses 32/],
      ['mscale alone', edit(ds, (c) => { delete c.rope_scaling.mscale_all_dim; c.rope_scaling.mscale = 0.707; }), 'rope_scaling.mscale', /only when both are non-zero/],
      ['head size that does not divide', edit(llama, (c) => { c.hidden_size = 4100; }), 'hidden_size', /floors hidden_size \/\/ num_attention_heads = 128/],
      ['head_dim null', edit(llama, (c) => { c.head_dim = null; }), 'head_dim', /falls back to hidden_size \/\/ num_attention_heads/],
      ['head_dim beside qk_rope_head_dim', edit(ds, (c) => { c.head_dim = 192; }), 'head_dim', /HF's DeepSeek configs set head_dim = qk_rope_head_dim/],
      ['partial_rotary_factor not whole', edit(FIXTURES['mistral-7b-v0.1'], (c) => { c.partial_rotary_factor = 0.3; }), 'partial_rotary_factor', /128 × 0.3 = 38\.4 is not whole: HF truncates it to 38/],
      // truncated, not rounded: 46.72 → 46 (rounding would give 47, odd)
      ['partial_rotary_factor truncated', edit(FIXTURES['mistral-7b-v0.1'], (c) => { c.partial_rotary_factor = 0.365; }), 'partial_rotary_factor', /= 46\.72 is not whole: HF truncates it to 46/],
      ['partial_rotary_factor in both places', edit(toV5(FIXTURES['mistral-7b-v0.1']), (c) => { c.partial_rotary_factor = 0.5; c.rope_parameters.partial_rotary_factor = 0.25; }), 'rope_parameters.partial_rotary_factor', /HF overwrites it with that/],
      ['rope_theta missing', edit(FIXTURES['mistral-7b-v0.1'], (c) => { delete c.rope_theta; }), 'rope_theta', /HF uses its default_theta, 10000/],
      ['rope_theta in both places', edit(toV5(llama), (c) => { c.rope_theta = 10000; }), 'rope_theta', /HF uses the one inside rope_parameters/],
      ['rope_scaling and rope_parameters', edit(llama, (c) => { c.rope_parameters = { rope_type: 'default' }; }), 'rope_parameters', /HF takes rope_scaling/],
      ['original in both places', edit(phi, (c) => { c.rope_scaling.original_max_position_embeddings = 2048; }), 'rope_scaling.original_max_position_embeddings', /HF gives that priority/],
      ['original for dynamic', edit(FIXTURES['mistral-7b-v0.1'], (c) => { c.rope_scaling = { rope_type: 'dynamic', factor: 2, original_max_position_embeddings: 4096 }; }), 'rope_scaling.original_max_position_embeddings', /not read for dynamic.*dynamic grows from max_position_embeddings/],
      ['key of another type', edit(llama, (c) => { c.rope_scaling.beta_fast = 32; }), 'rope_scaling.beta_fast', /not read for llama3/],
      ['per-layer parameters', edit(FIXTURES['mistral-7b-v0.1'], (c) => { c.layer_types = ['sliding_attention', 'full_attention']; c.rope_parameters = { full_attention: { rope_type: 'linear', factor: 8, rope_theta: 1e6 }, sliding_attention: { rope_type: 'default', rope_theta: 10000 } }; }), 'rope_parameters', /per layer type.*read here: full_attention/],
    ];
    for (const [label, config, key, message] of cases) {
      const got = pn.ropeFromConfig(config);
      const w = got.warnings.find((x) => x.key === key);
      assert.ok(w, `${label}: no warning on ${key}; got ${JSON.stringify(got.warnings)}`);
      assert.match(w.message, message, label);
      // the values are still HF's (the reference reads the same config)
      const ref = hfRopeFromConfig(config);
      assert.ok(compareValues(got.invFreq, ref.inv, ulp32).err <= 1, `${label}: invFreq`);
      assert.ok(Math.abs(got.attentionFactor - ref.af) <= 1e-6, `${label}: attention factor ${got.attentionFactor} vs ${ref.af}`);
    }
    assert.equal(cases.length, 25);
  });

  test(`${name}: what HF reads without complaint gets no warning, and the choices it makes are HF's (hand-worked)`, () => {
    const mistral = FIXTURES['mistral-7b-v0.1'], phi = FIXTURES['phi-3-mini-128k-instruct'], yarn = FIXTURES['gpt-oss-20b'];
    const edit = (base, f) => { const c = clone(base); f(c); return c; };
    // 4120 / 32 = 128.75: floored (HF's //), not rounded to 129
    const floored = pn.ropeFromConfig(edit(mistral, (c) => { c.hidden_size = 4120; }));
    assert.deepEqual([floored.headDim, floored.rotaryDim], [128, 128]);
    assert.match(floored.warnings.find((w) => w.key === 'hidden_size')?.message ?? '', /= 128$/);
    // per-layer parameters: the full_attention set, wherever it stands among the layer types
    const perLayer = pn.ropeFromConfig(edit(mistral, (c) => {
      c.layer_types = ['sliding_attention', 'full_attention'];
      c.rope_parameters = { sliding_attention: { rope_type: 'default', rope_theta: 10000 }, full_attention: { rope_type: 'linear', factor: 8, rope_theta: 1e6 } };
    }));
    assert.equal(perLayer.ropeType, 'linear');
    for (const i of [0, 1, 63]) {
      const want = 1e6 ** (-2 * i / 128) / 8;
      assert.ok(Math.abs(perLayer.invFreq[i] - want) <= ulp32(want), `per-layer invFreq[${i}] ${perLayer.invFreq[i]} vs ${want}`);
    }
    assert.match(perLayer.warnings.find((w) => w.key === 'rope_parameters')?.message ?? '', /read here: full_attention/);
    // yarn's factor equal to max_position_embeddings / original (32768 / 32768 = 1 is HF's exemption
    // too: implicit_factor != 1), and linear at factor 1: nothing to say
    assert.deepEqual(pn.ropeFromConfig(edit(mistral, (c) => { c.rope_scaling = { rope_type: 'yarn', factor: 4, original_max_position_embeddings: 32768 }; })).warnings, []);
    assert.deepEqual(pn.ropeFromConfig(edit(mistral, (c) => { c.rope_scaling = { rope_type: 'linear', factor: 1 }; })).warnings, []);
    // longrope reads attention_factor: only the fixture's own two warnings
    assert.deepEqual(pn.ropeFromConfig(edit(phi, (c) => { c.rope_scaling.attention_factor = 1.1; })).warnings.map((w) => w.key), ['rope_scaling.type', 'rope_scaling.factor']);
    // beta_slow 0 counts as missing: HF's default for it is 1 (beta_fast's is 32)
    assert.match(pn.ropeFromConfig(edit(yarn, (c) => { c.rope_scaling.beta_slow = 0; })).warnings.find((w) => w.key === 'rope_scaling.beta_slow')?.message ?? '', /it uses 1$/);
  });

  test(`${name}: what Hugging Face rejects or cannot build is a TypeError or RangeError naming the key`, () => {
    const llama = FIXTURES['llama-3.1-8b'], yarn = FIXTURES['gpt-oss-20b'], phi = FIXTURES['phi-3-mini-128k-instruct'];
    const edit = (base, f) => { const c = clone(base); f(c); return c; };
    const cases = [
      ['not an object', null, TypeError, /config must be an object/],
      ['an array', [], TypeError, /config must be an object/],
      ['rope_scaling a string', edit(llama, (c) => { c.rope_scaling = 'llama3'; }), TypeError, /config\.rope_scaling must be an object or null/],
      ['unknown type', edit(llama, (c) => { c.rope_scaling.rope_type = 'ntk'; }), RangeError, /config\.rope_scaling\.rope_type must be one of/],
      ['"su"', edit(phi, (c) => { c.rope_scaling.type = 'su'; }), RangeError, /config\.rope_scaling\.type .*early name of longrope/],
      ['rope_type not a string', edit(llama, (c) => { c.rope_scaling.rope_type = 3; }), TypeError, /rope_scaling\.rope_type must be a string/],
      ['missing factor (llama3)', edit(llama, (c) => { delete c.rope_scaling.factor; }), TypeError, /config\.rope_scaling\.factor is missing.*HF raises KeyError/],
      ['missing low_freq_factor', edit(llama, (c) => { delete c.rope_scaling.low_freq_factor; }), TypeError, /low_freq_factor is missing/],
      ['low >= high', edit(llama, (c) => { c.rope_scaling.low_freq_factor = 4; c.rope_scaling.high_freq_factor = 1; }), RangeError, /high_freq_factor must be greater than low_freq_factor \(4\).*HF warns/],
      ['longrope list of the wrong length', edit(phi, (c) => { c.rope_scaling.short_factor.pop(); }), RangeError, /short_factor must be an array of rotaryDim\/2 = 48 factors.*length 47/],
      ['longrope list missing', edit(phi, (c) => { delete c.rope_scaling.long_factor; }), TypeError, /long_factor is missing/],
      // every index is read, holes too (forEach skipped them, and the error named posnorm's own option)
      ['longrope list with a hole', edit(phi, (c) => { delete c.rope_scaling.short_factor[5]; }), TypeError, /^posnorm\.ropeFromConfig: config\.rope_scaling\.short_factor\[5\] is missing: it must be a finite number/],
      // the length before the values: forEach over this sparse list took about 100 s
      ['longrope list sparse, 2^32 - 1 long', edit(phi, (c) => { c.rope_scaling.long_factor = new Array(2 ** 32 - 1); }), RangeError, /long_factor must be an array of rotaryDim\/2 = 48 factors.*length 4294967295/],
      ['longrope factor a string', edit(phi, (c) => { c.rope_scaling.long_factor[3] = '1.3'; }), TypeError, /long_factor\[3\] must be a finite number/],
      ['factor a string', edit(llama, (c) => { c.rope_scaling.factor = '8'; }), TypeError, /rope_scaling\.factor must be a finite number, got "8"/],
      ['no head size', edit(llama, (c) => { delete c.hidden_size; }), TypeError, /^posnorm\.ropeFromConfig: config\.hidden_size is missing: it must be an integer >= 1 \(or give head_dim\)$/],
      ['attention_factor 0', edit(yarn, (c) => { c.rope_scaling.attention_factor = 0; }), RangeError, /attention_factor must be a number > 0/],
      ['truncate a string', edit(yarn, (c) => { c.rope_scaling.truncate = 'false'; }), TypeError, /truncate must be true or false/],
      ['odd rotary dim', edit(llama, (c) => { c.head_dim = 127; }), RangeError, /config\.head_dim must be a value that gives an even rotary dim/],
      ['dynamic without max_position_embeddings', edit(llama, (c) => { c.rope_scaling = { rope_type: 'dynamic', factor: 2 }; delete c.max_position_embeddings; }), TypeError, /^posnorm\.ropeFromConfig: config\.max_position_embeddings is missing: it must be an integer >= 1 \(dynamic grows from it\)$/],
      ['dynamic base beyond 2^1023 (checked by ropeFrequencies)', [edit(llama, (c) => { c.rope_theta = 1e300; c.rope_scaling = { rope_type: 'dynamic', factor: 1e9 }; }), { seqLen: 2 ** 31 }], RangeError, /^posnorm\.ropeFromConfig: scaling type "dynamic" grows config\.rope_theta 1e\+300 .* with config\.rope_scaling\.factor 1000000000, s = max\(seqLen, config\.max_position_embeddings\) = 2147483648, .*grown base .*: lower config\.rope_theta or config\.rope_scaling\.factor$/],
      // values HF derives from two keys, or fills in from another, named by those keys
      ['yarn factor derived, out of range', edit(yarn, (c) => { delete c.rope_scaling.factor; c.max_position_embeddings = 2 ** 31; c.rope_scaling.original_max_position_embeddings = 1; }), RangeError,
        /^posnorm\.ropeFromConfig: config\.max_position_embeddings \/ config\.rope_scaling\.original_max_position_embeddings must be a finite number in \[1e-9, 1000000000\], got 2147483648$/],
      ['longrope original filled in from max_position_embeddings = 1', edit(phi, (c) => { delete c.original_max_position_embeddings; c.max_position_embeddings = 1; c.rope_scaling.factor = 2; }), RangeError,
        /needs config\.max_position_embeddings >= 2 for its attention factor .*got 1; or give config\.rope_scaling\.attention_factor$/],
      ['dynamic with rotary dim 2', edit(llama, (c) => { c.head_dim = 2; c.rope_scaling = { rope_type: 'dynamic', factor: 2 }; }), RangeError, /config\.head_dim must be a value that gives an even rotary dim >= 4 .*got 2 \(rotary dim 2\)/],
      // issue #16's hang, pasted as a config: named in the config's terms
      ['beta_fast 1e-320 (checked by ropeFrequencies)', edit(yarn, (c) => { c.rope_scaling.beta_fast = 1e-320; }), RangeError, /^posnorm\.ropeFromConfig: config\.rope_scaling\.beta_fast must be a finite number in \[1e-9, /],
      ['short_factor subnormal (checked by ropeFrequencies)', edit(phi, (c) => { c.rope_scaling.short_factor[3] = 5e-324; }), RangeError, /^posnorm\.ropeFromConfig: config\.rope_scaling\.short_factor\[3\] must be a finite number in \[1e-9, /],
    ];
    for (const [label, config, Err, message] of cases) {
      const args = label.startsWith('dynamic base') ? config : [config];
      const t0 = performance.now();
      assert.throws(() => pn.ropeFromConfig(...args), (e) => e instanceof Err && message.test(e.message), label);
      // (at once: the sparse list's values were read before its length, for minutes)
      assert.ok(performance.now() - t0 < 5000, `${label}: ${Math.round(performance.now() - t0)} ms`);
    }
    assert.throws(() => pn.ropeFromConfig(llama, { seqLen: -1 }), RangeError);
    assert.throws(() => pn.ropeFromConfig(llama, { seqlen: 5 }), /unknown option "seqlen"/);
  });

  test(`${name}: a config's own keys are read, as JSON.parse makes them; one it only inherits is named in a warning, not read`, () => {
    const INHERITED = "inherited from the object's prototype, not read: ropeFromConfig reads a config's own keys, as JSON.parse gives them";
    // head size from hidden_size / heads (3072 / 16 = 192), all of it rotated:
    // the prototype's head_dim 256 and partial_rotary_factor 0.25 are not read
    const withDefaults = Object.assign(Object.create({ head_dim: 256, partial_rotary_factor: 0.25 }), { hidden_size: 3072, num_attention_heads: 16, rope_theta: 10000, max_position_embeddings: 8192 });
    const a = pn.ropeFromConfig(withDefaults);
    assert.deepEqual([a.headDim, a.rotaryDim, a.base], [192, 192, 10000]);
    assert.deepEqual(a.warnings.filter((w) => w.message === INHERITED).map((w) => w.key), ['head_dim', 'partial_rotary_factor']);
    // rope_scaling and rope_theta on the prototype: neither is read (plain
    // RoPE at HF's default theta), where rope_scaling was read and rope_theta not
    const proto = { rope_theta: 500000, rope_scaling: { rope_type: 'llama3', factor: 8, low_freq_factor: 1, high_freq_factor: 4, original_max_position_embeddings: 8192 } };
    const b = pn.ropeFromConfig(Object.assign(Object.create(proto), { hidden_size: 4096, num_attention_heads: 32, max_position_embeddings: 131072 }));
    assert.deepEqual([b.ropeType, b.base, b.scaling], ['default', 10000, null]);
    assert.deepEqual(b.warnings.filter((w) => w.message === INHERITED).map((w) => w.key), ['rope_scaling', 'rope_theta']);
    const plain = pn.ropeFrequencies({ dim: 128, base: 10000 }).invFreq;
    assert.deepEqual([...b.invFreq], [...plain]);
    // the same keys as own ones: read
    const c = pn.ropeFromConfig({ ...proto, hidden_size: 4096, num_attention_heads: 32, max_position_embeddings: 131072 });
    assert.deepEqual([c.ropeType, c.base, c.warnings.length], ['llama3', 500000, 0]);
    // the parameters' own keys too: a rope_scaling whose keys are all inherited is plain RoPE, each key named
    const e = pn.ropeFromConfig({ hidden_size: 4096, num_attention_heads: 32, max_position_embeddings: 131072, rope_scaling: Object.create(proto.rope_scaling) });
    assert.deepEqual([e.ropeType, e.scaling], ['default', null]);
    assert.deepEqual(e.warnings.filter((w) => w.message === INHERITED).map((w) => w.key), ['rope_scaling.rope_type']);
    // a required key it only inherits is missing, and the error says why
    assert.throws(() => pn.ropeFromConfig(Object.create({ hidden_size: 4096, num_attention_heads: 32 })),
      (err) => err instanceof TypeError && err.message.startsWith('posnorm.ropeFromConfig: config.hidden_size is missing: it must be an integer >= 1 (or give head_dim); inherited from'));
    // a revoked Proxy as the config or its parameters: named, not the engine's "Cannot perform 'IsArray'"
    const revoked = () => { const r = Proxy.revocable({}, {}); r.revoke(); return r.proxy; };
    assert.throws(() => pn.ropeFromConfig(revoked()), (err) => err instanceof TypeError && /^posnorm\.ropeFromConfig: config must be an object .*got a revoked Proxy/.test(err.message));
    assert.throws(() => pn.ropeFromConfig({ hidden_size: 64, num_attention_heads: 4, rope_scaling: revoked() }),
      (err) => err instanceof TypeError && /^posnorm\.ropeFromConfig: config\.rope_scaling must be an object or null, got a revoked Proxy/.test(err.message));
    // a key on Object.prototype itself is inherited too
    Object.prototype.rope_theta = 5; // eslint-disable-line no-extend-native
    try {
      const d = pn.ropeFromConfig({ hidden_size: 64, num_attention_heads: 4 });
      assert.equal(d.base, 10000);
      assert.ok(d.warnings.some((w) => w.key === 'rope_theta' && w.message === INHERITED));
    } finally {
      delete Object.prototype.rope_theta;
    }
  });

  test(`${name}: extreme values are read within range or named`, () => {
    const base = FIXTURES['mistral-7b-v0.1'];
    const withTheta = (t) => ({ ...base, rope_theta: t });
    for (const t of [0, -0, 1, -5, 5e-324]) assert.throws(() => pn.ropeFromConfig(withTheta(t)), /config\.rope_theta must be a number > 1/, String(t));
    for (const t of [NaN, Infinity, -Infinity, '10000', null]) assert.throws(() => pn.ropeFromConfig(withTheta(t)), /config\.rope_theta must be a finite number/, String(t));
    // a base of 2^1000: the slow frequencies underflow float32 to 0, the first is 1
    const huge = pn.ropeFromConfig(withTheta(2 ** 1000)).invFreq;
    assert.ok(huge[0] === 1 && huge.every((w) => w >= 0 && w <= 1) && huge[huge.length - 1] === 0);
    for (const h of [0, -0, 0.5, 2 ** 31 + 1, 2 ** 53]) assert.throws(() => pn.ropeFromConfig({ ...base, head_dim: h }), /config\.head_dim must be an integer in \[1, 2\^31\]/, String(h));
    // dim beyond ropeFrequencies' 65536, named as the config gives it
    assert.throws(() => pn.ropeFromConfig({ ...base, head_dim: 2 ** 31 }), /^RangeError: posnorm\.ropeFromConfig: the rotary dim \(from config\.head_dim\) must be an integer in \[2, 65536\], got 2147483648$/);
    const lin = (f) => ({ ...base, rope_scaling: { rope_type: 'linear', factor: f } });
    for (const f of [0, -0, -1]) assert.throws(() => pn.ropeFromConfig(lin(f)), /config\.rope_scaling\.factor must be a number > 0/, String(f));
    for (const f of [NaN, Infinity]) assert.throws(() => pn.ropeFromConfig(lin(f)), TypeError, String(f));
    assert.throws(() => pn.ropeFromConfig(lin(5e-324)), /config\.rope_scaling\.factor must be a finite number in \[1e-9, /, 'subnormal factor, below ropeFrequencies\' 1e-9');
    const big = pn.ropeFromConfig(lin(1e9));
    assert.ok(big.invFreq.every((w) => w > 0) && big.warnings.length === 0);
    for (const p of [0, -0, 1.5, -1]) assert.throws(() => pn.ropeFromConfig({ ...base, partial_rotary_factor: p }), /partial_rotary_factor must be a number in \(0, 1\]/, String(p));
    assert.throws(() => pn.ropeFromConfig({ ...base, max_position_embeddings: 2 ** 31 + 1, rope_scaling: { rope_type: 'dynamic', factor: 2 } }), /max_position_embeddings must be an integer in \[1, 2\^31\]/);
  });

  test(`${name}: errors leave nothing allocated and the instance usable`, () => {
    const before = pn.heapStats();
    for (let k = 0; k < 50; k++) {
      pn.ropeFromConfig(FIXTURES['phi-3-mini-128k-instruct'], { seqLen: 5000 });
      assert.throws(() => pn.ropeFromConfig({ ...FIXTURES['llama-3.1-8b'], rope_theta: 1e300, rope_scaling: { rope_type: 'dynamic', factor: 1e9 } }, { seqLen: 2 ** 31 }), RangeError);
    }
    const after = pn.heapStats();
    assert.equal(after.allocations, before.allocations);
    assert.equal(after.bytes, before.bytes);
    assert.equal(pn.ropeFromConfig(FIXTURES['gpt-oss-20b']).invFreq.length, 32);
  });
}

test('the figure\'s presets are the fixtures (without _source), and its link form round-trips a config', async () => {
  const { PRESETS } = await import('../web/figures/data/rope-config-presets.js');
  for (const [name, { config }] of Object.entries(PRESETS)) {
    const { _source, ...fixture } = FIXTURES[name];
    assert.ok(_source.startsWith(PRESETS[name].label), name);
    assert.deepEqual(config, fixture, name);
  }
  const { packConfig, unpackConfig, classifyPairs } = await import('../web/figures/rope-config.js');
  const text = JSON.stringify(FIXTURES['phi-3-mini-128k-instruct']);
  const packed = await packConfig(text);
  assert.match(packed, /^[A-Za-z0-9_-]+$/, 'base64url');
  assert.ok(packed.length < text.length / 2, `compressed ${text.length} → ${packed.length}`);
  assert.equal(await unpackConfig(packed), text);
  await assert.rejects(unpackConfig('not-deflate'));
  // a bomb: 2 MiB of spaces packs small and is refused past 1 MiB
  await assert.rejects(unpackConfig(await packConfig(' '.repeat(2 ** 21))), /more than 1 MiB/);
  // kept (ratio 1), interpolated (the factor or more), blended (between)
  assert.deepEqual(classifyPairs([1, 1, 1, 1], [1, 1 / 8, 1 / 9, 1 / 3], 8), ['kept', 'interpolated', 'interpolated', 'blended']);
  assert.deepEqual(classifyPairs([1], [1 / 2], 1), ['blended'], 'no factor: nothing is interpolated');
});

test('an odd head size from hidden_size / num_attention_heads is reported with the values the config holds, not the quotient as hidden_size\'s value', () => {
  const pn = all[0].pn;
  // hidden_size 15 over 5 heads: a head of 3, an odd rotary dim. The error
  // named config.hidden_size and said "got 3", which the config does not hold
  const config = { hidden_size: 15, num_attention_heads: 5, rope_theta: 10000, max_position_embeddings: 64 };
  assert.throws(() => pn.ropeFromConfig(config), (e) => {
    assert.ok(e instanceof RangeError, `${e.name}: ${e.message}`);
    assert.ok(e.message.startsWith('posnorm.ropeFromConfig: config.'), e.message);
    // hidden_size's own value, and the head size as the quotient it comes from
    assert.ok(/config\.hidden_size\b[^,]*, got 15 \(hidden_size \/\/ num_attention_heads = 15 \/\/ 5 = 3, rotary dim 3\)$/.test(e.message),
      `the message gives hidden_size a value the config does not hold: ${e.message}`);
    return true;
  });
  // (head_dim itself odd is reported with its own value: that holds already)
  assert.throws(() => pn.ropeFromConfig({ ...config, head_dim: 3 }), /config\.head_dim must be a value that gives an even rotary dim >= 2, got 3 \(rotary dim 3\)/);
});
