// kernel-worker.js — the Worker of core/off-thread.js: its own posnorm
// instance (made from the page's compiled module, posted with the first
// request, so nothing is fetched or compiled again), running kernel calls
// too long for a slice of the page's main thread, and the figures' own
// functions of such work (FUNCTIONS). In a folder of its own: it imports
// from draw/ (the functions, in modules that import nothing back:
// draw/pe-errors.js), and neither draw/ nor core/ imports it
// (core/off-thread.js names it by URL).
//
// A request: { id, module?, keep?, calls }, or { forget: [names] } (no answer).
//   keep  — { name: { version, array } }: inputs kept here between requests
//           (depth's weights, 1.5 MB at 96 layers × 64, are sent once per
//           version, not per request);
//   calls — [{ method, args, pick }]: pn[method](...args), where an argument
//           { kept: name } stands for a kept array, and the answer keeps the
//           field `pick` of each result (all of it without one); or
//           [{ fn, args, pick }]: FUNCTIONS[fn](pn, ...args).
// The answer: { id, results, longestCall (ms) } or { id, error }, with
// fatal: true when the Worker has no posnorm instance (its init failed).
import '../../../src/js/figure-kernels.js';
import { init } from '../../../src/js/posnorm-core.js';
import { peErrors } from '../draw/pe-errors.js';

let posnorm = null;
const kept = new Map();
/**
 * The figures' functions a request may name, each called as fn(pn, ...args):
 * imported here, so that a bundler that bundles the Worker bundles them too.
 */
const FUNCTIONS = { peErrors };

const resolve = (arg) => (arg && typeof arg === 'object' && typeof arg.kept === 'string' ? kept.get(arg.kept).array : arg);

/** An error as the answer carries it: "Name: message". */
const describe = (error) => `${error?.name ?? 'Error'}: ${error?.message ?? error}`;

/** Answers one request (the Worker's message handler). */
export async function answer({ data }) {
  if (data.forget) {
    for (const name of data.forget) kept.delete(name);
    return;
  }
  const { id, module, keep, calls } = data;
  let pn;
  try {
    if (module) posnorm = init({ wasm: module });
    pn = await posnorm;
    if (!pn) throw new Error('posnorm kernel worker: no module was sent');
  } catch (error) {
    // no instance, now or later: every request would fail alike
    globalThis.postMessage({ id, error: describe(error), fatal: true });
    return;
  }
  try {
    for (const [name, entry] of Object.entries(keep ?? {})) kept.set(name, entry);
    const results = [];
    let longestCall = 0;
    for (const { method, fn, args, pick } of calls) {
      if (fn !== undefined && !Object.hasOwn(FUNCTIONS, fn)) throw new TypeError(`posnorm kernel worker: no function ${fn}`);
      const t0 = performance.now();
      const r = fn !== undefined ? FUNCTIONS[fn](pn, ...args.map(resolve)) : pn[method](...args.map(resolve));
      longestCall = Math.max(longestCall, performance.now() - t0);
      results.push(pick ? r[pick] : r);
    }
    globalThis.postMessage({ id, results, longestCall });
  } catch (error) {
    globalThis.postMessage({ id, error: describe(error) });
  }
}

// only in a Worker (imported anywhere else, e.g. in Node, it does nothing).
// One message at a time, in order: the first request awaits init(), and a
// `forget` or a later request's `keep` handled meanwhile would act before it.
let queue = Promise.resolve();
if (typeof WorkerGlobalScope === 'function' && globalThis instanceof WorkerGlobalScope) {
  globalThis.onmessage = (event) => {
    queue = queue.then(() => answer(event));
  };
}
