// posnorm.d.ts — types of the public API (src/js/posnorm.js).

/** Largest element count of one tensor: 2^28 (1 GiB of float32). */
export declare const MAX_ELEMENTS: number;

/** Whether this engine validates WebAssembly SIMD128. */
export declare function simdSupported(): boolean;

/*
 * The host's WebAssembly.Module and WebAssembly.Memory types where its lib
 * declares them (TypeScript's dom or webworker lib), and the little posnorm
 * needs of them where it does not: the main entry's types need no dom lib
 * (a Node project with lib es2022 checks). Note that lib.dom's
 * WebAssembly.Module is an empty interface, which every object fits: with
 * the dom lib `wasm` takes any object as far as TypeScript can tell.
 */
type HostWasm = typeof globalThis extends { WebAssembly: { Module: abstract new (...args: any[]) => infer M; Memory: abstract new (...args: any[]) => infer Mem } }
  ? { module: M; memory: Mem }
  : { module: { readonly [Symbol.toStringTag]: 'WebAssembly.Module' }; memory: { readonly buffer: ArrayBuffer; grow(delta: number): number } };
/** A compiled WebAssembly.Module (the host's type where its lib has one). */
export type WasmModule = HostWasm['module'];
/** A WebAssembly.Memory (the host's type where its lib has one). */
export type WasmMemory = HostWasm['memory'];

/** A URL (any object with an href, as URL under any lib), a string, the bytes, or a compiled module. */
export type WasmSource = { readonly href: string } | string | ArrayBuffer | ArrayBufferView | WasmModule;

/** Options of transformerBlock. */
export interface TransformerBlockOptions {
  /** 1…1024; x.length / dModel tokens (1…512) */
  dModel: number;
  /** 1…dModel, dividing dModel; default 1 */
  heads?: number;
  /** the FFN's hidden width, 1…4096; default 4·dModel */
  dFF?: number;
  /** 'pre' (default): x + Attn(Norm(x)), h + FFN(Norm(h)); 'post': Norm(x + Attn(x)), Norm(h + FFN(h)) */
  placement?: 'pre' | 'post';
  /** 'layer' (default) or 'rms' */
  norm?: 'layer' | 'rms';
  /** the FFN's GELU: 'erf' (default; z·Φ(z), the article's nn.GELU()) or 'tanh' (approximate='tanh', GPT-2's) */
  gelu?: 'erf' | 'tanh';
  /** >= 0, default 1e-5 */
  eps?: number;
}

/** transformerBlock's tensors, each [tokens × dModel] unless noted. */
export interface TransformerBlockTrace {
  /** the input */
  x: F32Array;
  /** Pre: Norm1(x); Post: x */
  attnInput: F32Array;
  /** a = concat(heads)·Wo */
  attnOutput: F32Array;
  /** x + a */
  residual1: F32Array;
  /** Norm(x + a): Pre-Norm's Norm2; Post-Norm's Norm1, also the stream h */
  ffnInput: F32Array;
  /** f = GELU(ffnInput·W1)·W2 */
  ffnOutput: F32Array;
  /** Pre: (x + a) + f; Post: h + f */
  residual2: F32Array;
  /** Pre: residual2; Post: Norm2(residual2) */
  output: F32Array;
  /** [heads × tokens × tokens], softmax rows */
  attention: F32Array;
}

export interface InitOptions {
  /**
   * 'auto' (default) uses the SIMD build where SIMD128 validates; true or
   * false forces one. With true or false, a `wasm` of the other build is a
   * TypeError (after it was compiled; nothing is kept).
   */
  simd?: 'auto' | boolean;
  /**
   * The wasm to load: a URL (or string), its bytes, or a compiled Module; or
   * `{ simd, scalar }` with one of those for each build, chosen by `simd`.
   * Default: build/wasm/posnorm-simd.wasm or posnorm-scalar.wasm, found
   * next to this package with `new URL(..., import.meta.url)`.
   */
  wasm?: WasmSource | { simd?: WasmSource; scalar?: WasmSource };
}

/** Loads posnorm and returns the kernel API. */
export declare function init(options?: InitOptions): Promise<Posnorm>;

/**
 * The typed arrays posnorm returns (and PnBuffer views): over an ArrayBuffer,
 * never a SharedArrayBuffer (the module's memory is not shared), so that
 * ImageData, Blob and Response take them under TypeScript 5.7 and later, whose
 * typed arrays name their buffer. Each is what its type's `slice()` returns:
 * the ArrayBuffer form from 5.7 on, the plain type before, so the same
 * declarations read in both.
 */
export type F32Array = ReturnType<Float32Array['slice']>;
export type U32Array = ReturnType<Uint32Array['slice']>;
export type I32Array = ReturnType<Int32Array['slice']>;
export type U8cArray = ReturnType<Uint8ClampedArray['slice']>;

/** An array of numbers: an Array, or a typed array of numbers (not BigInt); what longrope's factors may be. */
export type NumberArray = readonly number[] | Float32Array | Float64Array | Int8Array | Int16Array | Int32Array | Uint8Array | Uint8ClampedArray | Uint16Array | Uint32Array;

/** Not exported (see `export {}` at the end): what the classes' constructors ask for, which no caller has. */
declare const posnormInternal: unique symbol;

export type BufferType = 'f32' | 'u32' | 'i32' | 'u8c';
interface BufferArrays {
  f32: F32Array;
  u32: U32Array;
  i32: I32Array;
  u8c: U8cArray;
}

/**
 * A typed array in the module's memory that kernels read and write without
 * copies. Memory growth detaches old views: read `array` again after any
 * posnorm call instead of keeping it. Free it with `free()`.
 */
export declare class PnBuffer<T extends BufferType = 'f32'> {
  /** Buffers come from `pn.alloc()` (and `subarray()`); the class is exported for `instanceof` (a constructor no caller can satisfy: `new PnBuffer()` is a type error, while helpers typed `abstract new (...args: any[]) => T` still take the class). */
  constructor(internal: { readonly [posnormInternal]: true });
  readonly isPnBuffer: true;
  /** Byte offset in the module's memory. Throws once freed. */
  readonly ptr: number;
  readonly length: number;
  readonly type: T;
  readonly byteLength: number;
  /** True once freed (for a subarray: once the buffer it was taken from is freed). */
  readonly freed: boolean;
  /** The current view; re-created once after the memory grows. */
  readonly array: BufferArrays[T];
  /** Copies `source` (an array-like, or another PnBuffer's values) in at `offset` (takes the view after `source` is computed). */
  set(source: ArrayLike<number> | PnBuffer, offset?: number): this;
  /** A copy of the contents. */
  toArray(): BufferArrays[T];
  /**
   * A zero-copy view of values [begin, end) (negative indices count from the
   * end). It shares this buffer's memory, lives as long as it, and cannot be freed itself.
   */
  subarray(begin?: number, end?: number): PnBuffer<T>;
  /**
   * Returns the memory. A buffer belongs to the instance that allocated it;
   * passing it to another instance throws a TypeError. A buffer dropped
   * without free() is freed when garbage-collected (a safety net only).
   */
  free(): void;
  // Also has [Symbol.dispose]() (so `using buf = pn.alloc(n)` frees it at the
  // end of the block); not declared here so that consumers without the
  // esnext.disposable lib still type-check.
}

/**
 * A float32 input: a Float32Array (copied in — unless it is a view of this
 * instance's own memory, which is used in place) or a PnBuffer (zero copy).
 * A detached view (taken before the memory grew) throws a TypeError.
 */
export type F32Input = Float32Array | PnBuffer<'f32'>;
/** Where a result goes: a new array (default), a Float32Array to fill, or a PnBuffer written in place. */
export type F32Out = Float32Array | PnBuffer<'f32'>;

export interface PositionalEncodingOptions<O extends F32Out | undefined = undefined> {
  seqLen: number;
  dModel: number;
  /** default 10000; must be > 1 */
  base?: number;
  /** first position, default 0 */
  offset?: number;
  /** 'interleaved' (sin, cos per pair; default) or 'concat' (all sin, then all cos) */
  layout?: 'interleaved' | 'concat';
  /**
   * 'float64' (default): angles in float64, each value rounded once.
   * 'float32': the article's PyTorch float32 code step by step (float32 div_term,
   * product and sin/cos), to show its error; not for use.
   * 'bfloat16' | 'float16': that code with the model in the type (see `compute`);
   * the result is a Float32Array whose every value is a value of the type.
   */
  precision?: Precision;
  /**
   * With 'bfloat16'/'float16' only. 'float32' (default): the float32 code's table
   * rounded to the type (model.to(dtype) of a stored table). 'low': every step —
   * positions, arange(0, d, 2), the exponent, exp, the angle, sin/cos — computed in
   * float32 and rounded to the type (round to nearest even), as PyTorch's CPU ops on
   * bfloat16/float16 tensors. Steps: docs/api.md#low-precision.
   */
  compute?: LowPrecisionCompute;
  out?: O;
}

/** float64 (posnorm's accurate path), float32 (the float32 code), or a 16-bit type. */
export type Precision = 'float64' | 'float32' | 'bfloat16' | 'float16';
/** Which steps of a bfloat16/float16 computation run in the type. */
export type LowPrecisionCompute = 'float32' | 'low';

export interface RoundToPrecisionOptions<O extends F32Out | undefined = undefined> {
  /** the type to round to, round to nearest, ties to even (float16: subnormals, overflow to ±Inf from 65520; NaN → 0x7FC00000) */
  precision: 'bfloat16' | 'float16';
  out?: O;
}

export interface PeSampleOptions<O extends F32Out | undefined = undefined> {
  /** number of samples */
  n: number;
  /** column index 0…dModel−1: even = sin, odd = cos of pair floor(dim/2) */
  dim: number;
  dModel: number;
  base?: number;
  /** first position (fractional allowed), default 0 */
  start?: number;
  /** distance between samples, default 1 */
  step?: number;
  out?: O;
}

export interface LayerNormOptions<
  O extends F32Out | undefined = undefined,
  M extends F32Out | undefined = undefined,
  S extends F32Out | undefined = undefined,
> {
  /** values per row (the normalised size) */
  cols: number;
  gamma?: F32Input | null;
  beta?: F32Input | null;
  /** default 1e-5 */
  eps?: number;
  /** may be the same PnBuffer as x (in place) */
  out?: O;
  /** where each row's mean goes (rows values; overlaps as for out); default a new Float32Array */
  meanOut?: M;
  /** where each row's 1/sqrt(var + eps) goes (rows values; overlaps as for out); default a new Float32Array */
  invStdDevOut?: S;
}

export interface RmsNormOptions<O extends F32Out | undefined = undefined, S extends F32Out | undefined = undefined> {
  cols: number;
  gamma?: F32Input | null;
  /** default 1e-6 */
  eps?: number;
  out?: O;
  /** where each row's 1/sqrt(mean(x²) + eps) goes (rows values; overlaps as for out); default a new Float32Array */
  invRmsOut?: S;
}

export interface BatchNormOptions<O extends F32Out | undefined = undefined> {
  /** channels; rows = x.length / cols is the batch */
  cols: number;
  gamma?: F32Input | null;
  beta?: F32Input | null;
  /** default 1e-5 */
  eps?: number;
  /** default true: batch statistics; false: running statistics */
  training?: boolean;
  /** read, and in training updated in place: momentum·running + (1 − momentum)·batch */
  runningMean?: F32Input;
  runningVar?: F32Input;
  /** default 0.9 (ONNX convention) */
  momentum?: number;
  out?: O;
}

export interface RopeOptions<O extends F32Out | undefined = undefined> {
  /** default 1 */
  batch?: number;
  seqLen: number;
  /** heads per token (with headDim); or give numHeads for ONNX's 3-D input */
  heads?: number;
  /** ONNX's 3-D input [batch, seqLen, numHeads·headDim]: headDim is x.length / (batch·seqLen·numHeads) */
  numHeads?: number;
  headDim?: number;
  /** 'bshd' = [batch, seq, heads, headDim] (default); 'bhsd' = [batch, heads, seq, headDim] (ONNX 4-D, Hugging Face) */
  layout?: 'bshd' | 'bhsd';
  /** default 10000 (not with caches); with a precision other than float64 at most the largest float32, 3.4028234663852886e38 */
  base?: number;
  /** position of token 0 (when positionIds is not given), default 0 */
  offset?: number;
  /**
   * one position per [batch, seq] token, each an integer in [0, 2^31) (with caches:
   * [0, cache rows)); an array's values are checked as given (1.5 or '1' is an error,
   * not converted); with caches, the cache row of each token
   */
  positionIds?: Int32Array | readonly number[] | PnBuffer<'i32'> | null;
  /**
   * ONNX RotaryEmbedding's cos/sin inputs: [maxPosition, rotaryDim/2] indexed
   * by positionIds, or [batch, seqLen, rotaryDim/2] (one row per token) without them.
   */
  cosCache?: F32Input;
  sinCache?: F32Input;
  /** pairs (2i, 2i+1) when true; (i, i + rotaryDim/2) when false (default) */
  interleaved?: boolean;
  /** even, 2…headDim (at most 65536 with scaling); default headDim (rounded down to even) */
  rotaryDim?: number;
  /** long-context frequency scaling (not with caches); dynamic/longrope use the highest position + 1 as the sequence length */
  scaling?: RopeScaling | null;
  /**
   * 'float64' (default): angles in float64, cos/sin rounded once, float32 rotation.
   * 'float32': Hugging Face's float32 code (float32 inv_freq, angles, cos/sin, rotation).
   * 'bfloat16' | 'float16': that code with the model in the type — x, cos/sin and every
   * product and sum of the rotation rounded to the type (see `compute`); the result's
   * values are all values of the type. Not with scaling or caches.
   */
  precision?: Precision;
  /**
   * With 'bfloat16'/'float16' only. 'float32' (default): float32 inv_freq and angles,
   * cos/sin cast to the type, the rotation in the type (HF's path). 'low': inv_freq,
   * positions and angles computed in the type too (each op in float32, rounded to the type).
   */
  compute?: LowPrecisionCompute;
  out?: O;
}

/**
 * A Hugging Face transformers `rope_scaling` (main branch, late 2026), keys in camelCase;
 * `originalMaxPositions` plays the role of HF's (original_)max_position_embeddings.
 *
 * Ranges (a RangeError naming the key otherwise): `factor` and every short/long
 * factor in [1e-9, 1e9] (the frequencies are divided by them); `attentionFactor`,
 * `lowFreqFactor`, `highFreqFactor` in (0, 1e9];
 * `originalMaxPositions` an integer in [1, 2^31]; yarn's `betaFast`, `betaSlow`
 * in [1e-9, 1e9]; `mscale`, `mscaleAllDim` in [-1e9, 1e9]. What the rule derives
 * from them is checked too: the attention factor must be finite and > 0 (yarn's
 * m(factor, mscale)/m(factor, mscaleAllDim), m(s, k) = 0.1·k·ln s + 1, with
 * neither m within 1e-12 of 0; longrope's sqrt(1 + ln factor / ln originalMaxPositions),
 * so longrope with factor > 1 needs originalMaxPositions >= 2 unless `attentionFactor`
 * is given), and dynamic's grown base, base·(factor·s/orig − factor + 1)^(dim/(dim − 2)),
 * must be in (1, 2^1023] (the error names `base` and `scaling.factor`).
 */
export type RopeScaling =
  | { type: 'linear'; factor: number }
  | { type: 'dynamic'; factor: number; originalMaxPositions: number }
  | { type: 'yarn'; factor: number; originalMaxPositions: number; betaFast?: number; betaSlow?: number; mscale?: number; mscaleAllDim?: number; attentionFactor?: number; truncate?: boolean }
  | { type: 'llama3'; factor: number; originalMaxPositions: number; lowFreqFactor: number; highFreqFactor: number }
  | { type: 'longrope'; originalMaxPositions: number; shortFactor: NumberArray; longFactor: NumberArray; factor?: number; attentionFactor?: number };

export interface RopeFrequenciesOptions {
  /** rotary dimension, even */
  dim: number;
  /** default 10000 */
  base?: number;
  /** undefined: plain RoPE */
  scaling?: RopeScaling | null;
  /** the current sequence length (dynamic grows its base with it; longrope switches to longFactor past originalMaxPositions); default 0 */
  seqLen?: number;
}

/**
 * A Hugging Face config.json (parsed), read for its RoPE fields; see docs/api.md.
 * Any object (an interface of the caller's own too: Record<string, unknown>
 * refused one without an index signature); an array is refused at run time.
 */
export type HfConfig = object;

export interface RopeFromConfigOptions {
  /** the current sequence length, as in ropeFrequencies (longrope: long_factor past original_max_position_embeddings; dynamic: grown base); default 0, the frequencies a model starts with */
  seqLen?: number;
}

/** What ropeFromConfig found in a config, and the frequencies. */
export interface RopeFromConfig {
  /** 'default' | 'linear' | 'dynamic' | 'yarn' | 'llama3' | 'longrope' */
  ropeType: string;
  /** the head size RoPE works on: qk_rope_head_dim, head_dim or hidden_size // num_attention_heads */
  headDim: number;
  /** int(headDim · partial_rotary_factor) */
  rotaryDim: number;
  /** rope_theta */
  base: number;
  /** posnorm's camelCase scaling, ready for rope() and ropeFrequencies(); null for plain RoPE */
  scaling: RopeScaling | null;
  /** rotaryDim/2 frequencies, rounded once from float64 */
  invFreq: F32Array;
  attentionFactor: number;
  /** max_position_embeddings, or null */
  contextLength: number | null;
  /** the pre-training length the scaling stretches (original_max_position_embeddings; dynamic: max_position_embeddings), or null */
  originalContextLength: number | null;
  /** what Hugging Face would ignore, rename or warn about and still compute, each saying what HF does with it (what HF rejects throws instead) */
  warnings: { key: string; message: string }[];
}

export interface HistogramResult {
  counts: U32Array;
  below: number;
  above: number;
  nan: number;
  /** the range used (given, or the finite data range) */
  min: number;
  max: number;
}

/**
 * T, hidden from inference: a call's result type comes from its arguments
 * (its `out`), never from the type of the variable it is assigned to (with
 * `const b: PnBuffer = pn.positionalEncoding(…)`, without `out`, O was
 * inferred as PnBuffer, and a Float32Array came back). NoInfer before 5.4.
 * Result<O> still splits over a union O (`PnBuffer | undefined` gives
 * `PnBuffer | F32Array`, as with exactOptionalPropertyTypes).
 */
type FromArguments<T> = [T][T extends unknown ? 0 : never];
type Result<O> = O extends F32Out ? FromArguments<O> : F32Array;

/**
 * The kernel API bound to one wasm instance.
 *
 * Errors: every argument is checked before the call allocates anything. A wrong
 * type (also a PnBuffer of another instance, a freed buffer, a detached view) is a
 * TypeError, a value out of range a RangeError; the message starts with
 * `posnorm.<call>: ` and names the argument and what is allowed. A call whose
 * copies of its inputs, outputs and kernel scratch ("Scratch:" lines of posnorm.h and posnorm_figures.h),
 * added up, exceed the module's 2 GiB memory throws a RangeError "not enough
 * WebAssembly memory for <the arguments that set the size>" before allocating; one
 * that fits in 2 GiB but not beside what the instance already holds throws a
 * RangeError that also says "not enough WebAssembly memory". After any error the
 * instance holds what it held before and gives the same results.
 */
export declare class Posnorm {
  /** Instances come from `init()`; the class is exported for `instanceof` (see PnBuffer's constructor). */
  constructor(internal: { readonly [posnormInternal]: true });
  /** true when this instance runs the SIMD128 build */
  readonly simd: boolean;
  readonly version: string;
  /** The compiled module this instance runs: pass it as `init({ wasm: module })` (e.g. in a Worker, to which a WebAssembly.Module can be posted) for another instance without fetching or compiling again. */
  readonly module: WasmModule;
  readonly memory: WasmMemory;
  /** Live allocations (buffers not yet freed), their bytes, and the memory's size (it never shrinks). */
  heapStats(): { allocations: number; bytes: number; memoryBytes: number };
  /** the C exports (see src/posnorm.h and src/posnorm_figures.h), for callers who manage pointers; a PnBuffer's `ptr` is not malloc's pointer: free it with `buf.free()`, never `raw.free`. The module's other exports are here too, untyped: `memory` (the same as `this.memory`) and `__indirect_function_table` */
  readonly raw: Record<string, (...args: number[]) => number>;

  /** Allocates a zero-copy buffer of `length` values, starting on a 64-byte boundary (`ptr % 64 === 0`). */
  alloc<T extends BufferType = 'f32'>(length: number, type?: T): PnBuffer<T>;

  /** Sinusoidal PE, row-major [seqLen × dModel]. */
  positionalEncoding<O extends F32Out | undefined = undefined>(options: PositionalEncodingOptions<O>): Result<O>;
  /** x rounded to bfloat16 or float16 (round to nearest, ties to even), as a Float32Array of the type's values. */
  roundToPrecision<O extends F32Out | undefined = undefined>(x: F32Input, options: RoundToPrecisionOptions<O>): Result<O>;
  /** One PE column at positions start + k·step (smooth curves). */
  peSample<O extends F32Out | undefined = undefined>(options: PeSampleOptions<O>): Result<O>;
  /** LayerNorm over each row of `cols` values. */
  layerNorm<O extends F32Out | undefined = undefined, M extends F32Out | undefined = undefined, S extends F32Out | undefined = undefined>(
    x: F32Input,
    options: LayerNormOptions<O, M, S>,
  ): { y: Result<O>; mean: Result<M>; invStdDev: Result<S> };
  /** RMSNorm over each row of `cols` values. */
  rmsNorm<O extends F32Out | undefined = undefined, S extends F32Out | undefined = undefined>(x: F32Input, options: RmsNormOptions<O, S>): { y: Result<O>; invRms: Result<S> };
  /** BatchNorm over the rows (batch) of each column; returns the statistics used. */
  batchNorm<O extends F32Out | undefined = undefined>(x: F32Input, options: BatchNormOptions<O>): { y: Result<O>; mean: F32Array; var: F32Array };
  /** Rotary embedding of x laid out [batch, seqLen, heads, headDim] (or bhsd; see RopeOptions). */
  rope<O extends F32Out | undefined = undefined>(x: F32Input, options: RopeOptions<O>): Result<O>;
  /** inv_freq (rounded once from float64) and the attention factor of a rope_scaling, as Hugging Face transformers computes them. */
  ropeFrequencies(options: RopeFrequenciesOptions): { invFreq: F32Array; attentionFactor: number };
  /** Reads a Hugging Face config.json (v4 rope_scaling or v5 rope_parameters) as HF does: its RoPE geometry, scaling, frequencies and warnings. Unreadable values throw a TypeError/RangeError naming the config key. */
  ropeFromConfig(config: HfConfig, options?: RopeFromConfigOptions): RopeFromConfig;
  /** ALiBi slopes m_h for `heads` heads. */
  alibiSlopes(heads: number): F32Array;
  /** ALiBi bias [heads × seqLen × seqLen], bias[h][i][j] = −m_h·|i − j|. */
  alibi<O extends F32Out | undefined = undefined>(options: { heads: number; seqLen: number; out?: O }): Result<O>;
  /** n reproducible samples of N(mean, std²); default seed 0. */
  randomNormal<O extends F32Out | undefined = undefined>(n: number, options?: { mean?: number; std?: number; seed?: number; out?: O }): Result<O>;
  /** Equal-width histogram over [min, max] (default: the finite data range). */
  histogram(x: F32Input, options: { bins: number; min?: number; max?: number }): HistogramResult;
  /** RGBA8 pixels for an ImageData: 4 bytes per value. */
  colormap<O extends Uint8ClampedArray | PnBuffer<'u8c'> | undefined = undefined>(
    x: F32Input,
    options?: { map?: 'diverging' | 'sequential'; vmin?: number; vmax?: number; out?: O },
  ): O extends undefined ? U8cArray : FromArguments<O>;
  /** The 256-entry RGBA table of a colormap. */
  colormapTable(map?: 'diverging' | 'sequential'): U8cArray;

  /** Single-head self-attention of x [seqLen × dModel] with W [dModel × dHead]; float64 sums. */
  attention(x: F32Input, options: { dModel: number; dHead?: number; wq: F32Input; wk: F32Input; wv: F32Input }): { out: F32Array; weights: F32Array };
  /** Row × row dot products of x [rows × cols]. */
  gram(x: F32Input, options: { cols: number }): F32Array;
  /** The closest two rows of x [rows × cols] (rows ≥ 2). */
  minRowDistance(x: F32Input, options: { cols: number }): { distance: number; i: number; j: number };
  /** R(k)·PE(p): the per-pair rotation that maps a PE row at p to p + k (even dModel). */
  peShift(peRow: F32Input, options: { k: number; base?: number }): F32Array;
  /**
   * Per-layer std of activations through `layers` residual blocks of GELU(h·scale·W) (gelu 'tanh',
   * the default, or 'erf'); uses the first layers·width² weights. With `memory` (width finite values, a
   * decoder's encoder output) each block also adds m·scale·C_l (Post-LN: LN(x + f(x) + m·C_l); Pre-Norm:
   * x + m·C_l, then x + f(Norm(x))), and weights holds W_l then C_l per layer (2·layers·width² values).
   */
  residualStack(x0: F32Input, weights: F32Input, options: { width: number; layers: number; block?: 'plain' | 'post-ln' | 'pre-ln' | 'pre-rms'; scale?: number; gelu?: 'tanh' | 'erf'; memory?: F32Input; gradients?: false }): F32Array;
  /**
   * With gradients: the stack in float64 with loss = Σ readout·y (y after a final norm for the
   * Pre-Norm variants; readout default: N(0, 1/(rows·width)) with seed 20200), grad = ∂loss/∂weights
   * (same layout as the weights used: W_l, then C_l with memory) and gradNorm = the Frobenius norm of
   * each layer's W_l gradient.
   */
  residualStack(x0: F32Input, weights: F32Input, options: { width: number; layers: number; block?: 'plain' | 'post-ln' | 'pre-ln' | 'pre-rms'; scale?: number; gelu?: 'tanh' | 'erf'; memory?: F32Input; gradients: true; readout?: F32Input }): { std: F32Array; loss: number; grad: F32Array; gradNorm: F32Array };
  /**
   * One Transformer block over the rows (tokens) of x [tokens × dModel], every intermediate kept:
   * multi-head self-attention (no mask) and a GELU FFN (erf form unless gelu: 'tanh'), each behind a residual
   * connection, with Pre-Norm (default, GPT-2 and later) or Post-Norm (the original paper);
   * norms with γ = 1, β = 0 and linear layers without biases (their values at initialisation).
   * weights: Wq, Wk, Wv, Wo [dModel × dModel], W1 [dModel × dFF], W2 [dFF × dModel], one after
   * the other, row-major [in × out]. Float64 inside, each value rounded once. The eight tensors
   * are views of one array; attention is [heads × tokens × tokens].
   */
  transformerBlock(x: F32Input, weights: F32Input, options: TransformerBlockOptions): TransformerBlockTrace;
  /** LayerNorm of one vector with every step kept. */
  layerNormSteps(x: F32Input, options?: { gamma?: F32Input | null; beta?: F32Input | null; eps?: number }): { centered: F32Array; normalized: F32Array; y: F32Array; mean: number; variance: number };
}

// Only what is marked `export` above is exported: without this line a
// declaration file exports every top-level declaration (posnormInternal,
// BufferArrays, Result), names the module does not have at run time.
export {};
