// rope-config.js — reads the RoPE fields of a Hugging Face config.json as
// published (snake_case) into posnorm's camelCase `scaling` form, and lists
// what Hugging Face would ignore, rename or reject (readRopeConfig, pure JS);
// ropeFromConfig() turns that into frequencies with pn.ropeFrequencies. It
// is pn.ropeFromConfig of the package (posnorm.js adds it to Posnorm), and
// the rope-config figure calls it directly: kept out of posnorm-core.js, it
// is not in the first load of a page whose figures do not read configs.
//
// Fact source for every rule below: Hugging Face transformers,
// src/transformers/modeling_rope_utils.py on its main branch (2026):
// RotaryEmbeddingConfigMixin.convert_rope_params_to_dict and
// standardize_rope_params (where each value is taken from), the
// _validate_<type>_rope_parameters methods and _check_received_keys (what is
// required, optional, warned about or raised), and the _compute_<type>_parameters
// functions (which value each computation uses). The rules are restated
// here in our own words; no code is taken from there.

import * as v from './validate.js';

/** The rope types posnorm computes, and the keys HF reads for each besides COMMON_KEYS (which each requires is checked below). */
const TYPE_KEYS = {
  default: '',
  linear: 'factor',
  dynamic: 'factor',
  yarn: 'factor original_max_position_embeddings attention_factor beta_fast beta_slow mscale mscale_all_dim truncate',
  longrope: 'short_factor long_factor original_max_position_embeddings attention_factor factor',
  llama3: 'factor original_max_position_embeddings low_freq_factor high_freq_factor',
};
const COMMON_KEYS = 'rope_type type rope_theta partial_rotary_factor';
/** HF fills original_max_position_embeddings in from the top level for these types only. */
const WITH_ORIGINAL = ['llama3', 'yarn', 'longrope'];
const FN = 'ropeFromConfig';
/** The camelCase names of posnorm's scaling options. */
const SCALING_NAMES = ['factor', 'originalMaxPositions', 'betaFast', 'betaSlow', 'mscale', 'mscaleAllDim', 'attentionFactor',
  'lowFreqFactor', 'highFreqFactor', 'shortFactor', 'longFactor', 'truncate'];

const show = (x) => (v.isRevokedProxy(x) ? 'a revoked Proxy (or one whose prototype chain cannot be walked)' : typeof x === 'string' ? JSON.stringify(x) : typeof x === 'bigint' ? `the BigInt ${x}n` : Array.isArray(x) ? `an array of length ${x.length}` : x === null ? 'null' : typeof x === 'object' ? 'an object' : String(x));
const isObject = (x) => x !== null && typeof x === 'object' && !v.isRevokedProxy(x) && !Array.isArray(x);
/** The warning for a key a config (or its parameters) only inherits. */
const INHERITED = "inherited from the object's prototype, not read: ropeFromConfig reads a config's own keys, as JSON.parse gives them";
/** The top-level keys ropeFromConfig reads. */
const TOP_KEYS = ['rope_scaling', 'rope_parameters', 'layer_types', 'rope_theta', 'head_dim', 'qk_rope_head_dim', 'partial_rotary_factor',
  'hidden_size', 'num_attention_heads', 'max_position_embeddings', 'original_max_position_embeddings'];
/** Whether o has a value for k through its prototype chain (false where asking throws: a revoked Proxy's chain). */
const inherited = (o, k) => {
  try {
    return k in o && o[k] !== undefined;
  } catch {
    return false;
  }
};
const has = (o, k) => isObject(o) && Object.hasOwn(o, k) && o[k] !== undefined;
/** o[k] checked by `check` under the name `name`, or undefined where it is absent or null. */
const opt = (o, k, name, check = number) => (has(o, k) && o[k] !== null ? check(name, o[k]) : undefined);

function typeError(key, what, v) {
  // a key that is absent is named as such, not as "got undefined" (a reader pastes the config, not a JS value)
  if (v === undefined) return new TypeError(`posnorm.${FN}: config.${key} is missing: it must be ${what}`);
  return new TypeError(`posnorm.${FN}: config.${key} must be ${what}, got ${show(v)}`);
}
function rangeError(key, what, v, hf) {
  return new RangeError(`posnorm.${FN}: config.${key} must be ${what}, got ${show(v)}${hf ? ` (${hf})` : ''}`);
}
/** A finite number (JSON numbers only: a string is not converted). */
function number(key, v) {
  if (typeof v !== 'number' || !Number.isFinite(v)) throw typeError(key, 'a finite number', v);
  return v;
}
function positiveInt(key, v) {
  if (typeof v !== 'number') throw typeError(key, 'an integer >= 1', v);
  if (!Number.isInteger(v) || v < 1 || v > 2 ** 31) throw rangeError(key, 'an integer in [1, 2^31]', v);
  return v;
}

/**
 * Reads `config` (a parsed config.json). Returns { ropeType, headDim,
 * rotaryDim, base, scaling (camelCase, or null for plain RoPE),
 * contextLength, originalContextLength, warnings, sources } or throws a
 * TypeError / RangeError naming the config key. `sources` maps each value
 * handed to ropeFrequencies ('dim', 'base', 'scaling.factor', …) to the
 * config key it was read from ('config.rope_scaling.factor'; for a value
 * derived from two keys, both), so that an error about it can name them.
 */
export function readRopeConfig(config) {
  if (!isObject(config)) throw new TypeError(`posnorm.${FN}: config must be an object (a parsed config.json), got ${show(config)}`);
  const warnings = [];
  const warn = (key, message) => warnings.push({ key, message });
  const sources = {};
  // a config's own keys are read, as JSON.parse makes them, each the same
  // way (rope_theta and head_dim were read as own keys, rope_scaling and
  // hidden_size through the prototype chain, so a config with inherited
  // defaults got a mix of the two); a key it only inherits is named
  const own = (k) => (Object.hasOwn(config, k) ? config[k] : undefined);
  for (const k of TOP_KEYS) {
    if (!Object.hasOwn(config, k) && inherited(config, k)) warn(k, INHERITED);
  }

  // ---- where the RoPE parameters are: v4 rope_scaling, v5 rope_parameters
  let where = null, params = {};
  for (const k of ['rope_scaling', 'rope_parameters']) {
    if (has(config, k) && config[k] !== null && !isObject(config[k])) throw typeError(k, 'an object or null', config[k]);
  }
  const ropeScaling = own('rope_scaling'), ropeParameters = own('rope_parameters');
  const scalingGiven = isObject(ropeScaling), paramsGiven = isObject(ropeParameters);
  if (scalingGiven && paramsGiven) {
    warn('rope_parameters', 'rope_scaling is also given: HF takes rope_scaling and drops this');
  }
  if (scalingGiven) { where = 'rope_scaling'; params = ropeScaling; }
  else if (paramsGiven) { where = 'rope_parameters'; params = ropeParameters; }
  // v5 per-layer-type parameters: { full_attention: {...}, sliding_attention: {...} }
  const types = own('layer_types'), layerTypes = Array.isArray(types) ? types : null;
  if (where && layerTypes && Object.keys(params).length > 0 && Object.keys(params).every((k) => layerTypes.includes(k))) {
    const pick = has(params, 'full_attention') ? 'full_attention' : Object.keys(params)[0];
    if (!isObject(params[pick])) throw typeError(`${where}.${pick}`, 'an object', params[pick]);
    warn(`${where}`, `one set per layer type: HF gives each its own; read here: ${pick}`);
    where = `${where}.${pick}`;
    params = params[pick];
  }
  const P = (k) => `${where ?? 'rope_scaling'}.${k}`;

  // ---- rope type: rope_type, or v4's type
  let ropeType = 'default';
  const hasRopeType = has(params, 'rope_type'), hasType = has(params, 'type');
  if (hasRopeType && typeof params.rope_type !== 'string') throw typeError(P('rope_type'), 'a string', params.rope_type);
  if (hasType && typeof params.type !== 'string') throw typeError(P('type'), 'a string', params.type);
  if (hasRopeType) ropeType = params.rope_type;
  else if (hasType) ropeType = params.type;
  if (hasRopeType && hasType) {
    warn(P('type'), params.type === params.rope_type
      ? 'rope_type is also given: HF reads rope_type and drops type'
      : `disagrees with rope_type: HF uses rope_type and ignores type`);
  } else if (hasType) {
    warn(P('type'), 'the v4 name: HF reads it as rope_type and saves it so');
  }
  if (!Object.hasOwn(TYPE_KEYS, ropeType)) {
    const key = hasRopeType ? P('rope_type') : P('type');
    throw rangeError(key, `one of ${Object.keys(TYPE_KEYS).map((t) => JSON.stringify(t)).join(', ')}`, ropeType,
      ropeType === 'su' ? 'the early name of longrope, which HF no longer knows' : 'HF has no rope function for it');
  }
  const known = `${COMMON_KEYS} ${TYPE_KEYS[ropeType]}`.split(' ');
  // (the parameters' own keys too: one they only inherit is named, not read)
  for (const k of known) if (!Object.hasOwn(params, k) && inherited(params, k)) warn(P(k), INHERITED);

  // ---- unknown keys (HF logs "Unrecognized keys" and ignores them)
  for (const k of Object.keys(params)) {
    if (known.includes(k) || params[k] === undefined) continue;
    warn(P(k), `${k === 'attn_factor' ? 'not an HF key (HF\'s is attention_factor)' : `not read for ${ropeType}`}: HF logs "Unrecognized keys" and ignores it${k === 'original_max_position_embeddings' && ropeType === 'dynamic' ? '; dynamic grows from max_position_embeddings' : ''}`);
  }

  // ---- base
  let base;
  const topTheta = has(config, 'rope_theta') ? number('rope_theta', config.rope_theta) : undefined; // null: HF's rope functions fail on None
  const innerTheta = opt(params, 'rope_theta', P('rope_theta'));
  if (innerTheta !== undefined) {
    base = innerTheta;
    if (topTheta !== undefined && topTheta !== innerTheta) warn('rope_theta', `${topTheta} disagrees with ${P('rope_theta')} (${innerTheta}): HF uses the one inside ${where}`);
  } else if (topTheta !== undefined) {
    base = topTheta;
  } else {
    base = 10000;
    warn('rope_theta', 'missing: HF uses its default_theta, 10000 for most models');
  }
  const baseKey = innerTheta !== undefined ? P('rope_theta') : 'rope_theta';
  sources.base = `config.${baseKey}`;
  if (!(base > 1)) throw rangeError(baseKey, 'a number > 1', base);

  // ---- head size: head_dim, DeepSeek's qk_rope_head_dim, or hidden_size / num_attention_heads
  let headDim, headKey, headFrom = null;
  if (has(config, 'qk_rope_head_dim')) {
    headDim = positiveInt('qk_rope_head_dim', config.qk_rope_head_dim);
    headKey = 'qk_rope_head_dim';
    if (has(config, 'head_dim') && config.head_dim !== null && config.head_dim !== headDim) {
      warn('head_dim', `differs from qk_rope_head_dim (${headDim}): HF's DeepSeek configs set head_dim = qk_rope_head_dim`);
    }
  } else if (has(config, 'head_dim') && config.head_dim !== null) {
    headDim = positiveInt('head_dim', config.head_dim);
    headKey = 'head_dim';
  }
  if (headDim === undefined) {
    if (has(config, 'head_dim') && config.head_dim === null) {
      warn('head_dim', 'null: HF falls back to hidden_size // num_attention_heads (some rope functions fail on it)');
    }
    for (const k of ['hidden_size', 'num_attention_heads']) {
      if (!has(config, k)) throw typeError(k, `an integer >= 1 (or give head_dim)${inherited(config, k) ? `; ${INHERITED}` : ''}`, own(k));
    }
    const hidden = positiveInt('hidden_size', own('hidden_size'));
    const heads = positiveInt('num_attention_heads', own('num_attention_heads'));
    headDim = Math.floor(hidden / heads);
    headKey = 'hidden_size';
    // an error about the head size shows hidden_size's own value, and the quotient
    headFrom = { value: hidden, note: `hidden_size // num_attention_heads = ${hidden} // ${heads} = ${headDim}` };
    if (hidden % heads !== 0) warn('hidden_size', `not a multiple of num_attention_heads (${heads}): HF floors hidden_size // num_attention_heads = ${headDim}`);
    if (headDim < 1) throw rangeError('hidden_size', `at least num_attention_heads (${heads})`, hidden);
  }

  // ---- partial_rotary_factor: the top level wins over the one in the parameters (standardize_rope_params)
  let prf = 1, prfKey = null;
  const topPrf = opt(config, 'partial_rotary_factor', 'partial_rotary_factor');
  const innerPrf = opt(params, 'partial_rotary_factor', P('partial_rotary_factor'));
  if (topPrf !== undefined) {
    prf = topPrf; prfKey = 'partial_rotary_factor';
    if (innerPrf !== undefined && innerPrf !== topPrf) warn(P('partial_rotary_factor'), `differs from the top-level value (${topPrf}): HF overwrites it with that`);
  } else if (innerPrf !== undefined) {
    prf = innerPrf; prfKey = P('partial_rotary_factor');
  }
  if (!(prf > 0 && prf <= 1)) throw rangeError(prfKey, 'a number in (0, 1]', prf);
  const exact = headDim * prf;
  const rotaryDim = Math.trunc(exact);
  if (prfKey && rotaryDim !== exact) warn(prfKey, `${headDim} × ${prf} = ${exact} is not whole: HF truncates it to ${rotaryDim}`);
  sources.dim = `config.${prfKey ?? headKey}`;
  // dynamic's exponent is dim/(dim − 2): HF divides by 0 at 2
  const minDim = ropeType === 'dynamic' ? 4 : 2;
  if (rotaryDim < minDim || rotaryDim % 2 !== 0) {
    const value = prfKey ? prf : headFrom ? headFrom.value : headDim;
    const note = !prfKey && headFrom ? `${headFrom.note}, rotary dim ${rotaryDim}` : `rotary dim ${rotaryDim}`;
    throw rangeError(prfKey ?? headKey, `a value that gives an even rotary dim >= ${minDim}${minDim > 2 ? ' (dynamic raises the base to dim/(dim − 2))' : ''}`, value, note);
  }

  // ---- context lengths
  const maxPos = opt(config, 'max_position_embeddings', 'max_position_embeddings', positiveInt);
  const needMax = (why) => {
    if (maxPos === undefined) throw typeError('max_position_embeddings', `an integer >= 1 (${why})`, own('max_position_embeddings'));
    return maxPos;
  };
  const topOrig = opt(config, 'original_max_position_embeddings', 'original_max_position_embeddings', positiveInt);
  const innerOrig = opt(params, 'original_max_position_embeddings', P('original_max_position_embeddings'), positiveInt);
  let orig;
  if (WITH_ORIGINAL.includes(ropeType)) {
    if (topOrig !== undefined) {
      orig = topOrig;
      sources['scaling.originalMaxPositions'] = 'config.original_max_position_embeddings';
      if (innerOrig !== undefined && innerOrig !== topOrig) warn(P('original_max_position_embeddings'), `differs from the top-level value (${topOrig}): HF gives that priority`);
    } else if (innerOrig !== undefined) {
      orig = innerOrig;
      sources['scaling.originalMaxPositions'] = `config.${P('original_max_position_embeddings')}`;
    } else {
      orig = needMax('the missing original length falls back to it');
      sources['scaling.originalMaxPositions'] = 'config.max_position_embeddings';
      warn(P('original_max_position_embeddings'), `missing: HF fills it in from max_position_embeddings (${orig})`);
    }
  } else if (topOrig !== undefined && ropeType !== 'default') {
    warn('original_max_position_embeddings', `HF reads it only for llama3, yarn and longrope; ignored`);
  }

  // ---- the type's own keys
  const missing = (k) => new TypeError(`posnorm.${FN}: config.${P(k)} is missing: rope_type ${JSON.stringify(ropeType)} requires it (HF raises KeyError)`);
  const factorOf = () => {
    const f = number(P('factor'), params.factor);
    if (!(f > 0)) throw rangeError(P('factor'), 'a number > 0', f);
    if (f < 1) warn(P('factor'), `${f} is below 1: HF warns and uses it, raising the frequencies`);
    return f;
  };
  const attention = (sc) => {
    const af = opt(params, 'attention_factor', P('attention_factor'));
    if (af === undefined) return;
    if (!(af > 0)) throw rangeError(P('attention_factor'), 'a number > 0', af, 'HF multiplies cos and sin by it');
    sc.attentionFactor = af;
  };
  let scaling = null;
  switch (ropeType) {
    case 'default':
      break;
    case 'linear': {
      if (!has(params, 'factor')) throw missing('factor');
      scaling = { type: 'linear', factor: factorOf() };
      break;
    }
    case 'dynamic': {
      if (!has(params, 'factor')) throw missing('factor');
      scaling = { type: 'dynamic', factor: factorOf(), originalMaxPositions: needMax('dynamic grows from it') };
      sources['scaling.originalMaxPositions'] = 'config.max_position_embeddings';
      break;
    }
    case 'yarn': {
      const implicit = maxPos === undefined ? undefined : maxPos / orig;
      let factor;
      if (has(params, 'factor') && params.factor !== null) {
        factor = factorOf();
        if (implicit !== undefined && implicit !== factor && implicit !== 1) {
          warn(P('factor'), `${factor} is not max_position_embeddings / original (${implicit}): HF warns and uses ${factor} (HF before its v5 configs used the ratio)`);
        }
      } else {
        factor = needMax('yarn without factor uses it') / orig;
        sources['scaling.factor'] = `config.max_position_embeddings / ${sources['scaling.originalMaxPositions']}`;
        warn(P('factor'), `missing: HF's check raises KeyError; its yarn function uses max_position_embeddings / original = ${factor}, used here`);
      }
      scaling = { type: 'yarn', factor, originalMaxPositions: orig };
      for (const [k, camel] of [['beta_fast', 'betaFast'], ['beta_slow', 'betaSlow']]) {
        if (!has(params, k) || params[k] === null) continue;
        const b = number(P(k), params[k]);
        if (b === 0) { warn(P(k), `0 counts as missing in HF: it uses ${k === 'beta_fast' ? 32 : 1}`); continue; }
        if (!(b > 0)) throw rangeError(P(k), 'a number > 0', b);
        scaling[camel] = b;
      }
      if ((scaling.betaFast ?? 32) < (scaling.betaSlow ?? 1)) warn(P('beta_fast'), `below beta_slow: HF warns and uses them, the ramp reversed`);
      const ms = opt(params, 'mscale', P('mscale'));
      const msa = opt(params, 'mscale_all_dim', P('mscale_all_dim'));
      if (ms !== undefined) scaling.mscale = ms;
      if (msa !== undefined) scaling.mscaleAllDim = msa;
      if ((ms !== undefined || msa !== undefined) && !(ms && msa) && !has(params, 'attention_factor')) {
        warn(P(ms !== undefined ? 'mscale' : 'mscale_all_dim'), 'HF uses mscale and mscale_all_dim only when both are non-zero: ignored');
      }
      attention(scaling);
      if (has(params, 'truncate')) {
        if (typeof params.truncate !== 'boolean') throw typeError(P('truncate'), 'true or false', params.truncate);
        scaling.truncate = params.truncate;
      }
      break;
    }
    case 'longrope': {
      for (const k of ['short_factor', 'long_factor']) {
        if (!has(params, k)) throw missing(k);
        const a = params[k];
        if (!Array.isArray(a)) throw typeError(P(k), 'an array of numbers', a);
        // the length first: a sparse new Array(2 ** 32 - 1) took forEach
        // about 100 s; and every index read, holes too (forEach skips them)
        if (a.length !== rotaryDim / 2) {
          throw rangeError(P(k), `an array of rotaryDim/2 = ${rotaryDim / 2} factors`, a, `length ${a.length}; HF warns, then fails to divide ${rotaryDim / 2} frequencies by them`);
        }
        for (let i = 0; i < rotaryDim / 2; i++) {
          const x = a[i];
          if (!(number(`${P(k)}[${i}]`, x) > 0)) throw rangeError(`${P(k)}[${i}]`, 'a number > 0', x);
        }
      }
      scaling = { type: 'longrope', originalMaxPositions: orig, shortFactor: params.short_factor.slice(), longFactor: params.long_factor.slice() };
      if (has(params, 'factor') && params.factor !== null) {
        scaling.factor = factorOf();
      } else if (maxPos !== undefined) {
        scaling.factor = maxPos / orig;
        sources['scaling.factor'] = `config.max_position_embeddings / ${sources['scaling.originalMaxPositions']}`;
        warn(P('factor'), `missing: HF warns and takes max_position_embeddings / original = ${scaling.factor}`);
      }
      attention(scaling);
      break;
    }
    case 'llama3': {
      for (const k of ['factor', 'low_freq_factor', 'high_freq_factor']) if (!has(params, k)) throw missing(k);
      const low = number(P('low_freq_factor'), params.low_freq_factor), high = number(P('high_freq_factor'), params.high_freq_factor);
      if (!(low > 0)) throw rangeError(P('low_freq_factor'), 'a number > 0', low);
      if (!(high > low)) {
        throw rangeError(P('high_freq_factor'), `greater than low_freq_factor (${low})`, high, 'HF warns, then builds no smooth band (or divides by 0)');
      }
      scaling = { type: 'llama3', factor: factorOf(), originalMaxPositions: orig, lowFreqFactor: low, highFreqFactor: high };
      if (maxPos !== undefined && orig >= maxPos) warn(P('original_max_position_embeddings'), `not below max_position_embeddings (${maxPos}): HF warns and computes anyway`);
      break;
    }
  }
  // every other scaling value is (or would be, as attention_factor in a
  // message that suggests it) the key of its snake_case name
  for (const k of SCALING_NAMES) sources[`scaling.${k}`] ??= `config.${P(k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`))}`;
  return {
    ropeType,
    headDim,
    rotaryDim,
    base,
    scaling,
    contextLength: maxPos ?? null,
    originalContextLength: orig ?? (ropeType === 'dynamic' ? maxPos : null) ?? null,
    warnings,
    sources,
  };
}

/**
 * A ropeFrequencies error message restated in config.json terms
 * (`sources` from readRopeConfig): `scaling.betaFast` becomes
 * `config.rope_scaling.beta_fast`, the option `dim` the rotary dim read from
 * its key, the option `base` the rope_theta key.
 */
function inConfigTerms(message, sources) {
  return message
    .replace(/^posnorm\.ropeFrequencies: /, '')
    .replace(/^dim\b/, `the rotary dim (from ${sources.dim})`)
    .replace(/^base\b|\bgrows base\b|\blower base\b/g, (m) => m.replace('base', sources.base))
    .replace(/\bscaling\.([A-Za-z]+)/g, (m) => sources[m] ?? m);
}

/**
 * pn.ropeFromConfig(config, opts): `config` read by readRopeConfig, then its
 * frequencies from pn.ropeFrequencies at opts.seqLen (default 0); a value
 * the reader passed that the frequencies refuse is reported in config.json
 * terms. See posnorm.d.ts.
 */
export function ropeFromConfig(pn, config, opts) {
  const fn = 'ropeFromConfig';
  const seqLen = v.int(fn, 'seqLen', v.options(fn, opts, ['seqLen']).seqLen ?? 0, 0, v.POS_LIMIT);
  const { sources, ...r } = readRopeConfig(config);
  try {
    return { ...r, ...pn.ropeFrequencies({ dim: r.rotaryDim, base: r.base, scaling: r.scaling ?? undefined, seqLen }) };
  } catch (e) {
    // a value the reader passed that the frequencies cannot take (a beta
    // of 1e-320, dynamic's grown base, …): the message names the config key
    throw new (e instanceof TypeError ? TypeError : RangeError)(`posnorm.${fn}: ${inConfigTerms(e.message, sources)}`);
  }
}
