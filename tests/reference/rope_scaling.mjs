// RoPE frequencies and attention factor for long context in float64, as Hugging Face transformers'
// rope_scaling types define them (modeling_rope_utils: linear = Chen et al. 2023, dynamic NTK, YaRN =
// Peng et al. 2023, llama3 = the Llama 3.1 rule, longrope = Ding et al. 2024), keys in camelCase.

/** { inv: inv_freq[dim/2], af: attention factor } for scaling s (undefined: plain RoPE) at sequence length seqLen. */
export function hfRopeFrequencies(dim, base, s, seqLen = 0) {
  const half = dim / 2;
  const plain = (b) => Array.from({ length: half }, (_, i) => 1 / b ** ((2 * i) / dim));
  if (!s) return { inv: plain(base), af: 1 };
  const orig = s.originalMaxPositions;
  const mscale = (scale, m = 1) => (scale <= 1 ? 1 : 0.1 * m * Math.log(scale) + 1);
  switch (s.type) {
    case 'linear': return { inv: plain(base).map((w) => w / s.factor), af: 1 };
    case 'dynamic': {
      const sl = Math.max(seqLen, orig);
      const b = base * (s.factor * sl / orig - (s.factor - 1)) ** (dim / (dim - 2));
      return { inv: plain(b), af: 1 };
    }
    case 'yarn': {
      const af = s.attentionFactor ?? (s.mscale && s.mscaleAllDim ? mscale(s.factor, s.mscale) / mscale(s.factor, s.mscaleAllDim) : mscale(s.factor));
      const corr = (rot) => (dim * Math.log(orig / (rot * 2 * Math.PI))) / (2 * Math.log(base));
      let low = corr(s.betaFast ?? 32), high = corr(s.betaSlow ?? 1);
      if (s.truncate ?? true) { low = Math.floor(low); high = Math.ceil(high); }
      low = Math.max(low, 0);
      high = Math.min(high, dim - 1);
      if (low === high) high += 0.001;
      const inv = plain(base).map((w, i) => {
        const ramp = Math.min(1, Math.max(0, (i - low) / (high - low)));
        const extrapolation = 1 - ramp;
        return (w / s.factor) * (1 - extrapolation) + w * extrapolation;
      });
      return { inv, af };
    }
    case 'llama3': {
      const lowWave = orig / s.lowFreqFactor, highWave = orig / s.highFreqFactor;
      const inv = plain(base).map((w) => {
        const wave = (2 * Math.PI) / w;
        if (wave < highWave) return w;
        if (wave > lowWave) return w / s.factor;
        const t = (orig / wave - s.lowFreqFactor) / (s.highFreqFactor - s.lowFreqFactor);
        return ((1 - t) * w) / s.factor + t * w;
      });
      return { inv, af: 1 };
    }
    case 'longrope': {
      const ext = seqLen > orig ? s.longFactor : s.shortFactor;
      const factor = s.factor ?? 1;
      const af = s.attentionFactor ?? (factor <= 1 ? 1 : Math.sqrt(1 + Math.log(factor) / Math.log(orig)));
      return { inv: plain(base).map((w, i) => w / ext[i]), af };
    }
    default: throw new Error(`unknown rope_scaling type ${s.type}`);
  }
}

/**
 * The five methods <posnorm-long-context> draws, as posnorm's scaling
 * options for factor f and training length L (undefined: plain RoPE).
 */
export const LONG_CONTEXT_METHODS = {
  none: () => undefined,
  linear: (f) => ({ type: 'linear', factor: f }),
  dynamic: (f, L) => ({ type: 'dynamic', factor: f, originalMaxPositions: L }),
  yarn: (f, L) => ({ type: 'yarn', factor: f, originalMaxPositions: L }),
  llama3: (f, L) => ({ type: 'llama3', factor: f, originalMaxPositions: L, lowFreqFactor: 1, highFreqFactor: 4 }),
};
