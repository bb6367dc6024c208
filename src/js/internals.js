// internals.js — the door between posnorm-core.js's class and the package's
// own modules that add methods to it (figure-kernels.js): each Posnorm puts
// its private state here when it is made, and every method and getter of the
// API checks its receiver against it first (inside; PnBuffer's words its
// error the same way, receiverKind). Not in the package's exports.

/**
 * Posnorm → { exports, heap, reserve }: the instance's raw C exports, its
 * Heap, and its #reserve (the last step of a call's validation,
 * posnorm-core.js).
 * @type {WeakMap<object, { exports: Record<string, Function>, heap: object, reserve: Function }>}
 */
export const internals = new WeakMap();

/**
 * The private state of `pn`, on which the method or getter `fn` was used;
 * a TypeError naming `fn` when `pn` is not an instance (an unbound method,
 * `const { layerNorm } = pn`, another object, an instance in a Proxy).
 * Every method and getter of the API starts with it. What `pn` is, is said
 * from its type alone: no code of the receiver runs (a Proxy's traps, a
 * getter, its toString), so the error is always this TypeError.
 */
export function inside(pn, fn) {
  const state = internals.get(pn);
  if (state) return state;
  throw new TypeError(`posnorm.${fn}: this must be an instance from init() (pn.${fn}), got ${receiverKind(pn, 'an instance')}`);
}

/**
 * What a receiver that is not `one` (an instance, a buffer) is, from its
 * type alone (none of its code runs), for the TypeError of inside() and of
 * PnBuffer's methods.
 */
export function receiverKind(self, one) {
  return self === null ? 'null' : typeof self === 'object' ? `an object that is not one (${one} in a Proxy, as a reactive store makes, or an object made from one is not one either)`
    : typeof self === 'undefined' ? 'undefined' : `a ${typeof self}`;
}
