// Hugging Face's reading of a config.json's RoPE fields, in float64, written
// from transformers' modeling_rope_utils.py (main, 2026: convert_rope_params_to_dict,
// standardize_rope_params, _compute_<type>_parameters) as an independent check
// of src/js/rope-config.js: the same steps HF takes, in HF's order, with HF's
// key names — no warnings, only the values. The frequencies then come from
// hfRopeFrequencies (tests/reference/rope_scaling.mjs).
import { hfRopeFrequencies } from './rope_scaling.mjs';

/** { dim, base, type, hf (the standardised rope dict), inv, af } for config at sequence length seqLen. */
export function hfRopeFromConfig(config, seqLen = 0) {
  // convert_rope_params_to_dict: rope_scaling wins, then rope_parameters
  let src = config.rope_scaling || config.rope_parameters || {};
  // v5 per-layer-type dicts: the full-attention layers' parameters
  const lt = config.layer_types;
  if (Array.isArray(lt) && Object.keys(src).length && Object.keys(src).every((k) => lt.includes(k))) src = src.full_attention;
  const rp = { ...src };
  if (!('rope_theta' in rp) || rp.rope_theta == null) rp.rope_theta = config.rope_theta ?? 10000;
  if (!('rope_type' in rp)) rp.rope_type = rp.type ?? 'default';
  if (config.partial_rotary_factor != null) rp.partial_rotary_factor = config.partial_rotary_factor;
  if (['llama3', 'yarn', 'longrope'].includes(rp.rope_type)) {
    if (config.original_max_position_embeddings != null) rp.original_max_position_embeddings = config.original_max_position_embeddings;
    else if (rp.original_max_position_embeddings == null) rp.original_max_position_embeddings = config.max_position_embeddings;
  }
  // the head: DeepSeek's config classes set head_dim = qk_rope_head_dim
  const headDim = config.qk_rope_head_dim ?? config.head_dim ?? Math.floor(config.hidden_size / config.num_attention_heads);
  const dim = Math.trunc(headDim * (rp.partial_rotary_factor ?? 1));
  const base = rp.rope_theta;
  const M = config.max_position_embeddings;
  let s;
  switch (rp.rope_type) {
    case 'default': s = undefined; break;
    case 'linear': s = { type: 'linear', factor: rp.factor }; break;
    case 'dynamic': s = { type: 'dynamic', factor: rp.factor, originalMaxPositions: M }; break;
    case 'yarn': {
      const factor = rp.factor ?? M / rp.original_max_position_embeddings;
      s = { type: 'yarn', factor, originalMaxPositions: rp.original_max_position_embeddings, betaFast: rp.beta_fast || 32, betaSlow: rp.beta_slow || 1, truncate: rp.truncate ?? true };
      if (rp.attention_factor != null) s.attentionFactor = rp.attention_factor;
      else if (rp.mscale && rp.mscale_all_dim) { s.mscale = rp.mscale; s.mscaleAllDim = rp.mscale_all_dim; }
      break;
    }
    case 'longrope': {
      s = { type: 'longrope', factor: rp.factor ?? M / rp.original_max_position_embeddings, originalMaxPositions: rp.original_max_position_embeddings, shortFactor: rp.short_factor, longFactor: rp.long_factor };
      if (rp.attention_factor != null) s.attentionFactor = rp.attention_factor;
      break;
    }
    case 'llama3': s = { type: 'llama3', factor: rp.factor, originalMaxPositions: rp.original_max_position_embeddings, lowFreqFactor: rp.low_freq_factor, highFreqFactor: rp.high_freq_factor }; break;
    default: throw new Error(`no rope function for ${rp.rope_type}`);
  }
  const { inv, af } = hfRopeFrequencies(dim, base, s, seqLen);
  return { dim, base, type: rp.rope_type, hf: rp, inv, af };
}
