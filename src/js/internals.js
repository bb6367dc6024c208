// internals.js — the door between posnorm-core.js's class and the package's
// own modules that add methods to it (figure-kernels.js): each Posnorm puts
// its private state here when it is made. Not in the package's exports.
import { describe } from './validate.js';

/**
 * Posnorm → { exports, heap, reserve }: the instance's raw C exports, its
 * Heap, and its #reserve (the last step of a call's validation,
 * posnorm-core.js).
 * @type {WeakMap<object, { exports: Record<string, Function>, heap: object, reserve: Function }>}
 */
export const internals = new WeakMap();

/**
 * The private state of `pn`, which a method named `fn` was called on; a
 * TypeError naming the method when `pn` is not an instance (an unbound
 * method, `const { layerNorm } = pn`, or one called on another object).
 * Every method of the API starts with it.
 */
export function inside(pn, fn) {
  const state = internals.get(pn);
  if (!state) throw new TypeError(`posnorm.${fn}: call it on an instance from init() (pn.${fn}(…)), got this = ${describe(pn)}`);
  return state;
}
