// figure-kernels.js — the calls of the kernels that exist for the figures
// (posnorm_figures.h): pn.residualStack (the depth figure and its gradients),
// pn.transformerBlock (the block figure) and pn.layerNormSteps (ln-steps),
// added to Posnorm's prototype when this module is imported. posnorm.js (the
// package's entry), those three figures and the kernel Worker import it; the
// rest of the figures import posnorm-core.js alone, so a page's first load
// does not carry these calls (docs/decisions.md, "Page budget"). They check
// their arguments, reserve and frame their memory like every call of
// posnorm-core.js (call.js), through the instance's internals (internals.js).
import { check, finiteF32, framed, optionalF32, rowsOf } from './call.js';
import { inside } from './internals.js';
import { Posnorm } from './posnorm-core.js';
import * as v from './validate.js';

const BLOCKS = ['plain', 'post-ln', 'pre-ln', 'pre-rms'];
const PLACEMENTS = ['pre', 'post'];
const NORM_KINDS = ['layer', 'rms'];
/** GELU's forms, in the order of enum pn_gelu_form. */
const GELU_FORMS = ['tanh', 'erf'];
/** transformerBlock's tensors, in the order of enum pn_block_trace. */
const TRACE = ['x', 'attnInput', 'attnOutput', 'residual1', 'ffnInput', 'ffnOutput', 'residual2', 'output'];
/** Seed of the fixed read-out of residualStack's loss: N(0, 1/(rows·width)). */
const READOUT_SEED = 20200;

const methods = {
  residualStack(x0, weights, opts) {
    const fn = 'residualStack';
    const { exports: k, heap, reserve } = inside(this, fn);
    const o = v.options(fn, opts, ['width', 'layers', 'block', 'scale', 'gelu', 'memory', 'gradients', 'readout']);
    v.f32(fn, 'x0', x0);
    const width = v.int(fn, 'width', o.width, 1, 4096);
    const rows = v.int(fn, 'x0.length / width', rowsOf(fn, x0, width), 1, 4096);
    const layers = v.int(fn, 'layers', o.layers, 1, 1024);
    // a decoder's memory: one vector of width finite values, read now (before any allocation)
    const memory = o.memory === undefined ? undefined : finiteF32(fn, 'memory', o.memory, width);
    const perLayer = memory ? 2 : 1;
    const need = v.total(fn, memory ? 'layers × 2 × width × width (W_l and C_l)' : 'layers × width × width', perLayer * layers * width * width);
    v.f32(fn, 'weights', weights);
    if (weights.length < need) {
      throw new RangeError(`posnorm.${fn}: weights.length must be at least ${memory ? 'layers × 2 × width × width (W_l then C_l per layer, with memory)' : 'layers × width × width'} = ${need}, got ${weights.length}`);
    }
    const block = v.oneOf(fn, 'block', o.block ?? 'plain', BLOCKS);
    const gelu = v.oneOf(fn, 'gelu', o.gelu ?? 'tanh', GELU_FORMS);
    const scale = v.num(fn, 'scale', o.scale ?? 1, -v.F32_MAX, v.F32_MAX);
    const n = rows * width;
    const what = `rows ${rows} × width ${width} with layers ${layers}`;
    const geluForm = GELU_FORMS.indexOf(gelu), blockKind = BLOCKS.indexOf(block);
    const gradients = v.bool(fn, 'gradients', o.gradients ?? false);
    // (the element limit of the gradients' activations first, as the kernel checks sizes)
    if (gradients) v.total(fn, 'rows × width × (layers + 1)', n * (layers + 1));
    const times = gradients ? '3 × ' : '';
    v.work(fn, `${times}layers × width² × ${memory ? '(rows + 1)' : 'rows'} = ${times}${layers} × ${width * width} × ${rows + (memory ? 1 : 0)}${gradients ? ' with gradients' : ''}${memory ? ' with a memory' : ''}`,
      (gradients ? 3 : 1) * layers * width * width * (rows + (memory ? 1 : 0)));
    if (gradients) {
      // the read-out of the loss: given, or a fixed seeded one (documented),
      // drawn into a temporary of the call
      const readout = o.readout === undefined ? undefined : v.f32(fn, 'readout', o.readout, n);
      // scratch (posnorm_figures.h): 8·rows·width·(3·layers + 5) + 8·rows·(layers + 1) (+ 8·width with memory)
      const scratch = 8 * n * (3 * layers + 5) + 8 * rows * (layers + 1) + (memory ? 8 * width : 0);
      reserve(fn, what, [['x0', x0], ['weights', weights], ['memory', memory], ['readout', readout]], [],
        (readout ? 0 : 4 * n) + 8 * layers + 8 + 4 * need + scratch);
      return framed(heap, fn, (f) => {
        const px = f.input(x0, 'x0');
        const pw = f.input(weights, 'weights');
        const pm = memory ? f.input(memory, 'memory') : 0;
        let pr;
        if (readout) {
          pr = f.input(readout, 'readout');
        } else {
          const r = f.output(n, 'f32', undefined, 'the read-out');
          check(fn, k.pn_random_normal_f32(r.ptr, n, READOUT_SEED, 0, 1 / Math.sqrt(n)));
          pr = r.ptr;
        }
        const std = f.output(layers, 'f32', undefined, 'the deviations');
        const loss = f.output(1, 'f64', undefined, 'the loss');
        const grad = f.output(need, 'f32', undefined, 'the gradient');
        const gn = f.output(layers, 'f32', undefined, 'the gradient norms');
        check(fn, k.pn_residual_stack_grad_f32(std.ptr, loss.ptr, grad.ptr, gn.ptr, px, pw, pm, pr, layers, rows, width, blockKind, geluForm, scale), scratch);
        return { std: std.result(), loss: loss.result()[0], grad: grad.result(), gradNorm: gn.result() };
      });
    }
    if (o.readout !== undefined) throw new TypeError(`posnorm.${fn}: readout is used only with gradients: true`);
    // scratch (posnorm_figures.h): 4·(3·rows·width + width)
    const scratch = 4 * (3 * n + width);
    reserve(fn, what, [['x0', x0], ['weights', weights], ['memory', memory]], [], 4 * layers + scratch);
    return framed(heap, fn, (f) => {
      const px = f.input(x0, 'x0');
      const pw = f.input(weights, 'weights');
      const pm = memory ? f.input(memory, 'memory') : 0;
      const y = f.output(layers, 'f32', undefined, 'the deviations');
      check(fn, k.pn_residual_stack_f32(y.ptr, px, pw, pm, layers, rows, width, blockKind, geluForm, scale), scratch);
      return y.result();
    });
  },

  transformerBlock(x, weights, opts) {
    const fn = 'transformerBlock';
    const { exports: k, heap, reserve } = inside(this, fn);
    const o = v.options(fn, opts, ['dModel', 'heads', 'dFF', 'placement', 'norm', 'gelu', 'eps']);
    v.f32(fn, 'x', x);
    const dModel = v.int(fn, 'dModel', o.dModel, 1, 1024);
    const tokens = v.int(fn, 'x.length / dModel', rowsOf(fn, x, dModel), 1, 512);
    const heads = v.int(fn, 'heads', o.heads ?? 1, 1, dModel);
    if (dModel % heads !== 0) throw new RangeError(`posnorm.${fn}: heads must divide dModel (${dModel}), got ${heads}`);
    const dFF = v.int(fn, 'dFF', o.dFF ?? 4 * dModel, 1, 4096);
    const placement = v.oneOf(fn, 'placement', o.placement ?? 'pre', PLACEMENTS);
    const norm = v.oneOf(fn, 'norm', o.norm ?? 'layer', NORM_KINDS);
    // the article's block uses nn.GELU(), whose default is the exact erf form
    const gelu = v.oneOf(fn, 'gelu', o.gelu ?? 'erf', GELU_FORMS);
    const eps = v.eps(fn, o.eps ?? 1e-5);
    v.f32(fn, 'weights (Wq, Wk, Wv, Wo, W1, W2)', weights, 4 * dModel * dModel + 2 * dModel * dFF);
    const n = tokens * dModel;
    // scratch (posnorm_figures.h): 8·(12·tokens·d_model + tokens + tokens·d_ff)
    const scratch = 8 * (12 * n + tokens + tokens * dFF);
    reserve(fn, `tokens ${tokens}, dModel ${dModel}, dFF ${dFF}`, [['x', x], ['weights', weights]], [],
      4 * TRACE.length * n + 4 * heads * tokens * tokens + scratch);
    return framed(heap, fn, (f) => {
      const px = f.input(x, 'x');
      const pw = f.input(weights, 'weights');
      const trace = f.output(TRACE.length * n, 'f32', undefined, 'the trace');
      const attn = f.output(heads * tokens * tokens, 'f32', undefined, 'the attention weights');
      check(fn, k.pn_transformer_block_f32(trace.ptr, attn.ptr, px, pw, tokens, dModel, heads, dFF,
        PLACEMENTS.indexOf(placement), NORM_KINDS.indexOf(norm), GELU_FORMS.indexOf(gelu), eps), scratch);
      const all = trace.result();
      const out = { attention: attn.result() };
      TRACE.forEach((name, k) => { out[name] = all.subarray(k * n, (k + 1) * n); });
      return out;
    });
  },

  layerNormSteps(x, opts) {
    const fn = 'layerNormSteps';
    const { exports: k, heap, reserve } = inside(this, fn);
    const o = v.options(fn, opts, ['gamma', 'beta', 'eps']);
    v.f32(fn, 'x', x);
    const n = x.length;
    const gamma = optionalF32(fn, 'gamma', o.gamma, n);
    const beta = optionalF32(fn, 'beta', o.beta, n);
    const eps = v.eps(fn, o.eps ?? 1e-5);
    reserve(fn, `x.length ${n}`, [['x', x], ['gamma', gamma], ['beta', beta]], [], 12 * n + 8);
    return framed(heap, fn, (f) => {
      const px = f.input(x, 'x');
      const pg = f.input(gamma, 'gamma');
      const pb = f.input(beta, 'beta');
      const c = f.output(n, 'f32', undefined, 'centered');
      const h = f.output(n, 'f32', undefined, 'normalized');
      const y = f.output(n, 'f32', undefined, 'y');
      const st = f.output(2, 'f32', undefined, 'stats');
      check(fn, k.pn_layernorm_steps_f32(c.ptr, h.ptr, y.ptr, st.ptr, px, pg, pb, n, eps));
      const [mean, variance] = st.result();
      return { centered: c.result(), normalized: h.result(), y: y.result(), mean, variance };
    });
  },
};

// methods like the others: not enumerable, on the prototype
for (const [name, value] of Object.entries(methods)) {
  Object.defineProperty(Posnorm.prototype, name, { value, writable: true, configurable: true });
}
