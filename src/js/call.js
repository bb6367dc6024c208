// call.js — what every kernel call of the API does around its kernel: runs
// in a Frame of the instance's heap (framed), turns the kernel's status into
// an error (check), and the argument checks the calls of posnorm-core.js and
// figure-kernels.js share. Not in the package's exports.
import { Frame, isPnBuffer } from './memory.js';
import * as v from './validate.js';

const STATUS = { '-1': 'a required pointer was NULL', '-2': 'a size was out of range', '-3': 'an argument was out of range', '-5': 'out of memory' };

/** Runs `body` with a Frame and always releases it. */
export function framed(heap, fn, body) {
  const frame = new Frame(heap, fn);
  // what #reserve found the call needs, reserved before its first allocation
  const need = heap.needed;
  heap.needed = null;
  // (after the frame took memoryAtStart: the reservation may grow the memory)
  if (need) heap.reserve(need.bytes, MEMORY_LIMIT, fn, need.what);
  try {
    return body(frame);
  } finally {
    frame.release();
  }
}

/** The module's memory limit (MAXIMUM_MEMORY in build.sh): 2 GiB. */
export const MEMORY_LIMIT = 2 ** 31;

/**
 * Turns a kernel status into an error. Out of memory (the kernel's scratch
 * did not fit beside what the instance holds now) is a RangeError that says
 * "not enough WebAssembly memory"; the other codes cannot be reached from
 * the API, whose checks come first, and are reported as a rejection if a
 * kernel ever disagrees.
 */
export function check(fn, status, scratch = 0) {
  if (status === -5) {
    throw new RangeError(`posnorm.${fn}: the kernel rejected its arguments (out of memory): not enough WebAssembly memory for its scratch of ${scratch} bytes beside what this instance holds (the module's memory is limited to 2 GiB)`);
  }
  if (status !== 0) {
    const Err = status === -1 ? TypeError : RangeError;
    throw new Err(`posnorm.${fn}: the kernel rejected its arguments (${STATUS[status] ?? `status ${status}`})`);
  }
}

/** Optional float32 input of a given length (gamma, beta, running stats). */
export function optionalF32(fn, name, value, length) {
  return value === undefined || value === null ? undefined : v.f32(fn, name, value, length);
}

/** A float32 input of exactly `length` values, every one finite (the index of the first that is not is named). */
export function finiteF32(fn, name, value, length) {
  v.f32(fn, name, value, length);
  const a = isPnBuffer(value) ? value.array : value;
  for (let k = 0; k < a.length; k++) {
    if (!Number.isFinite(a[k])) throw new RangeError(`posnorm.${fn}: ${name} must hold finite values, got ${a[k]} at index ${k}`);
  }
  return value;
}

/** rows = x.length / cols, which must be a whole number. */
export function rowsOf(fn, x, cols) {
  if (x.length % cols !== 0) {
    throw new RangeError(`posnorm.${fn}: x.length (${x.length}) must be a multiple of cols (${cols})`);
  }
  return x.length / cols;
}
