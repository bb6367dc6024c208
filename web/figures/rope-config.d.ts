import { PnFigure } from './core/base.js';
export { configure } from './core/runtime.js';
export type { EmbedCode, EmbedOptions, FigureChangeDetail, PosnormFigureEventMap } from './core/base.js';

/** config.json text → the share link's compressed form (deflate-raw, base64url). */
export declare function packConfig(text: string): Promise<string>;
/** The share link's compressed form → config.json text (at most 1 MiB). */
export declare function unpackConfig(packed: string): Promise<string>;
/** Per pair: 'kept' (unchanged), 'interpolated' (stretched by `factor` or more) or 'blended'. */
export declare function classifyPairs(plain: ArrayLike<number>, scaled: ArrayLike<number>, factor: number): ('kept' | 'interpolated' | 'blended')[];

/** `<posnorm-rope-config>`: a model's RoPE as its Hugging Face config.json describes it, read by pn.ropeFromConfig. */
export declare class PosnormRopeConfig extends PnFigure {
  /** Milliseconds a preset stays chosen before its config.json goes into the text box (150; the first preset's at once). */
  static presetTextDelay: number;
  /** attribute preset, default 'llama-3.1-8b': a published config, or 'custom' (the config in `config`) */
  preset: 'llama-3.1-8b' | 'llama-3.2-1b' | 'mistral-7b-v0.1' | 'qwen2.5-7b-instruct' | 'phi-3-mini-128k-instruct' | 'gpt-oss-20b' | 'deepseek-v3' | 'custom';
  /** attribute seq-len, 1…2097152 (log slider), default 131072: the sequence length the frequencies are for (longrope's long factors past the original length, dynamic's grown base), drawn as a line */
  seqLen: number;
  /** attribute pair, 0…rotaryDim/2 − 1, default 40: the pair the readout describes */
  pair: number;
  /** attribute config (hidden), default '': a pasted config.json, compressed (deflate-raw, base64url), used with preset 'custom' */
  config: string;
  /** The numbers behind the picture (or { error, waiting } while there is nothing to show). */
  readonly result: {
    ropeType: string;
    headDim: number;
    rotaryDim: number;
    base: number;
    scaling: object | null;
    seqLen: number;
    pair: number;
    invFreq: Float32Array;
    plainInvFreq: Float32Array;
    classes: ('kept' | 'interpolated' | 'blended')[];
    counts: { kept: number; interpolated: number; blended: number };
    attentionFactor: number;
    contextLength: number | null;
    originalContextLength: number | null;
    warnings: { key: string; message: string }[];
  } | { error: string | null; waiting: string | null } | undefined;
}

declare global {
  interface HTMLElementTagNameMap { 'posnorm-rope-config': PosnormRopeConfig }
}
