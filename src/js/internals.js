// internals.js — the door between posnorm-core.js's class and the package's
// own modules that add methods to it (figure-kernels.js): each Posnorm puts
// its private state here when it is made. Not in the package's exports.

/**
 * Posnorm → { exports, heap, reserve }: the instance's raw C exports, its
 * Heap, and its #reserve (the last step of a call's validation,
 * posnorm-core.js).
 * @type {WeakMap<object, { exports: Record<string, Function>, heap: object, reserve: Function }>}
 */
export const internals = new WeakMap();
