// validate.js — argument checks that name the argument and the allowed range.
import { BUILT_IN, PnBuffer, isDetached, isPnBuffer, noteOffset, plainBuffer, typedArrayTag } from './memory.js';

/** %TypedArray%.prototype's length getter: a typed array's own length, whatever an own `length` says. */
const TA_LENGTH = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(Uint8Array).prototype, 'length').get;

/** This realm's %TypedArray%: every typed array made here inherits from it. */
const TYPED_ARRAY = Object.getPrototypeOf(Uint8Array);

/** Object.getPrototypeOf, or undefined where it throws (a revoked Proxy). */
function protoOf(v) {
  try {
    return Object.getPrototypeOf(v);
  } catch {
    return undefined;
  }
}

/**
 * The most links a prototype chain may have. An ordinary chain cannot loop
 * and is short (a class hierarchy); a Proxy's getPrototypeOf trap can give
 * one that loops (itself) or never ends (a new Proxy each time), where
 * instanceof overflowed the stack and the options' walk never returned.
 */
const CHAIN_LIMIT = 1000;

/**
 * Walks v's prototype chain, at most CHAIN_LIMIT links: `stop` where a link
 * is `stop`, null where the chain ends, undefined where a link cannot be
 * read or the chain goes on past the limit.
 */
function walkChain(v, stop) {
  let o = v;
  for (let links = 0; links <= CHAIN_LIMIT; links++) {
    o = protoOf(o);
    if (o === stop || o === null || o === undefined) return o;
  }
  return undefined;
}

/**
 * Whether v is an object whose prototype chain cannot be walked: a revoked
 * Proxy (every operation on it throws), or a Proxy whose trap throws, or
 * whose chain loops or does not end (walkChain). Checked first where a check
 * would ask (instanceof, Array.isArray, the options' names): the engine's
 * own error named no argument, and a chain without end hung the call.
 */
export function isRevokedProxy(v) {
  return v !== null && (typeof v === 'object' || typeof v === 'function') && walkChain(v, null) !== null;
}

/**
 * `v instanceof Type` for the built-in types the checks ask about, by one
 * walk of at most CHAIN_LIMIT links: false (not the engine's error) for a
 * revoked Proxy, and for a Proxy whose chain does not end, even one whose
 * trap answered an ending chain to isRevokedProxy and a loop afterwards.
 */
export function isInstance(v, Type) {
  return v !== null && (typeof v === 'object' || typeof v === 'function') && walkChain(v, Type.prototype) === Type.prototype;
}

/** This realm's typed array types, by their prototypes. */
const TYPED_BY_PROTO = new Map(['Int8Array', 'Uint8Array', 'Uint8ClampedArray', 'Int16Array', 'Uint16Array', 'Int32Array', 'Uint32Array',
  'Float16Array', 'Float32Array', 'Float64Array', 'BigInt64Array', 'BigUint64Array'].filter((n) => typeof globalThis[n] === 'function').map((n) => [globalThis[n].prototype, n]));

/** Whether typed array v has one built-in type's prototype and is made as another (Object.setPrototypeOf). */
function relabelled(v) {
  const said = TYPED_BY_PROTO.get(protoOf(v));
  return said !== undefined && said !== typedArrayTag(v);
}

/** The largest finite float32, 3.4028234663852886e38. */
export const F32_MAX = 3.4028234663852886e38;

/** The largest position a call takes (offsets, position ids, ropeFrequencies' seqLen): 2^31. */
export const POS_LIMIT = 2 ** 31;

/** Largest element count of one tensor, as PN_MAX_ELEMENTS in posnorm.h. */
export const MAX_ELEMENTS = 2 ** 28;

/**
 * The descriptor of property `key` of v or of its prototype chain, found
 * without reading the property (no getter runs); undefined where it is
 * absent, or where a Proxy's trap threw.
 */
function descriptorOf(v, key) {
  try {
    for (let o = v, links = 0; links <= CHAIN_LIMIT && o !== null && (typeof o === 'object' || typeof o === 'function'); links++, o = Object.getPrototypeOf(o)) {
      const d = Object.getOwnPropertyDescriptor(o, key);
      if (d) return d;
    }
  } catch { /* a Proxy's trap threw */ }
  return undefined;
}

/** The value of data property `key` of v or of its chain (descriptorOf); undefined for a getter. */
const dataProperty = (v, key) => descriptorOf(v, key)?.value;

/** The name of constructor f when it is a string held as data, else undefined. */
function nameOf(f) {
  const name = dataProperty(f, 'name');
  return typeof name === 'string' && name.length < 41 ? name : undefined;
}

/**
 * The name of the typed array type v poses as (a Proxy of a typed array:
 * its constructor has BYTES_PER_ELEMENT), read as describe() reads, running
 * no getter of v; undefined for anything else.
 */
export function posingTypedArray(v) {
  const c = dataProperty(v, 'constructor');
  return typeof dataProperty(c, 'BYTES_PER_ELEMENT') === 'number' ? nameOf(c) : undefined;
}

/** PnBuffer.prototype's getters: a buffer's type from its private state, and the mark that says it is one. */
const BUFFER_TYPE = Object.getOwnPropertyDescriptor(PnBuffer.prototype, 'type').get;
const BUFFER_MARK = Object.getOwnPropertyDescriptor(PnBuffer.prototype, 'isPnBuffer').get;

/**
 * A value as an error message shows it. A BigInt is written with its n (4n
 * printed as 4 read as an allowed value: "seqLen must be an integer in
 * [1, …], got 4"), an object without a constructor name as "an object",
 * one that says isPnBuffer (as data, or by PnBuffer's getter: one that
 * inherits from a buffer, or a Proxy of one) but is no buffer alloc() made
 * as posing. It runs none of the value's own code (no getter, toString or
 * valueOf: the message is always the TypeError or RangeError naming the
 * argument, however strict the object), and it stays short (a long string
 * is cut, a function is not printed).
 */
export const describe = (v, d = descriptorOf(v, 'isPnBuffer'), name = nameOf(dataProperty(v, 'constructor'))) =>
  isRevokedProxy(v) ? (protoOf(v) === undefined ? 'a revoked Proxy (or one whose getPrototypeOf throws)' : `an object whose prototype chain does not end within ${CHAIN_LIMIT} links (a Proxy's getPrototypeOf trap)`)
  : typeof v === 'string' ? (v.length < 41 ? JSON.stringify(v) : `${JSON.stringify(v.slice(0, 24))}… (${v.length} characters)`)
  : typeof v === 'bigint' ? `the BigInt ${v}n`
  : typeof v === 'function' ? 'a function'
  : v === null || typeof v !== 'object' ? String(v)
  : Array.isArray(v) ? `an array of length ${dataProperty(v, 'length')}`
  : isInstance(v, DataView) ? 'a DataView'
  // (another realm's: an iframe's or a node:vm context's arrays are not this
  // realm's Float32Array, and "must be a Float32Array, got a Float32Array"
  // said nothing)
  : ArrayBuffer.isView(v) && typedArrayTag(v) === undefined ? 'a DataView of another realm'
  : ArrayBuffer.isView(v) && !isInstance(v, TYPED_ARRAY) ? `a ${typedArrayTag(v)} of another realm (an iframe's or a vm context's; copy it into one of this realm's first, e.g. with ${typedArrayTag(v)}.from)`
  : ArrayBuffer.isView(v) && relabelled(v) ? `a ${typedArrayTag(v)} whose prototype was changed`
  : ArrayBuffer.isView(v) ? `a ${typedArrayTag(v)} of length ${TA_LENGTH.call(v)}`
  : isPnBuffer(v) ? `a posnorm ${BUFFER_TYPE.call(v)} buffer`
  : d && (d.get ? d.get === BUFFER_MARK : d.value === true) ? 'an object posing as a posnorm buffer (not one that alloc() or subarray() made)'
  : name && name !== 'Object' ? `a ${name}`
  : 'an object';

/** Checks that v is an integer in [min, max]. */
export function int(fn, name, v, min, max = MAX_ELEMENTS) {
  if (typeof v !== 'number') {
    throw new TypeError(`posnorm.${fn}: ${name} must be an integer in [${min}, ${max}], got ${describe(v)}`);
  }
  if (!Number.isInteger(v) || v < min || v > max) {
    throw new RangeError(`posnorm.${fn}: ${name} must be an integer in [${min}, ${max}], got ${describe(v)}`);
  }
  return v;
}

/** Checks that v is a finite number in [min, max] (open ends where said). */
export function num(fn, name, v, min = -Infinity, max = Infinity, { minOpen = false, maxOpen = false } = {}) {
  // the message (and its range) is written only for a value that fails: a
  // valid call allocates nothing (figures make hundreds of calls per frame)
  if (typeof v === 'number' && Number.isFinite(v) && v >= min && v <= max && !(minOpen && v === min) && !(maxOpen && v === max)) return v;
  // an infinite end is written ∞ and open: a finite number never reaches it
  const range = `${minOpen || min === -Infinity ? '(' : '['}${min === -Infinity ? '−∞' : min}, ${max === Infinity ? '∞' : max}${maxOpen || max === Infinity ? ')' : ']'}`;
  const Err = typeof v === 'number' ? RangeError : TypeError;
  throw new Err(`posnorm.${fn}: ${name} must be a finite number in ${range}, got ${describe(v)}`);
}

/** Checks that v is one of the allowed strings. */
export function oneOf(fn, name, v, allowed) {
  if (!allowed.includes(v)) {
    const list = allowed.map((a) => JSON.stringify(a)).join(' or ');
    const Err = typeof v === 'string' ? RangeError : TypeError;
    throw new Err(`posnorm.${fn}: ${name} must be ${list}, got ${describe(v)}`);
  }
  return v;
}

/** Checks that v is a boolean. */
export function bool(fn, name, v) {
  if (typeof v !== 'boolean') throw new TypeError(`posnorm.${fn}: ${name} must be true or false, got ${describe(v)}`);
  return v;
}

/** The TypeError for an option name `key` that `fn` does not know. */
function unknownOption(fn, name, allowed, key) {
  return new TypeError(name === 'options'
    ? `posnorm.${fn}: unknown option ${JSON.stringify(key)}; the options are ${allowed.join(', ')}`
    : `posnorm.${fn}: unknown option ${JSON.stringify(key)} in ${name}; its options are ${allowed.join(', ')}`);
}

/** Whether `o` is some realm's Object.prototype (the end of an object literal's chain in a vm context or an iframe). */
function isObjectPrototype(o) {
  return protoOf(o) === null && Object.hasOwn(o, 'isPrototypeOf') && Object.hasOwn(o, 'hasOwnProperty')
    && typeof o.constructor === 'function' && o.constructor.prototype === o;
}

/**
 * Checks that an options argument is an object (or undefined) that names
 * no option outside `allowed`: a misspelt option (`gama`, `precison`) would
 * otherwise be ignored without a word. Returns a plain copy of the options
 * it names that are not undefined.
 */
export function options(fn, v, allowed, name = 'options') {
  if (v === undefined) return {};
  if (v === null || typeof v !== 'object' || isRevokedProxy(v) || ArrayBuffer.isView(v) || Array.isArray(v)) {
    throw new TypeError(`posnorm.${fn}: ${name} must be an object, got ${describe(v)}`);
  }
  const notAnObject = () => new TypeError(`posnorm.${fn}: ${name} must be an object, got ${describe(v)}`);
  const proto = protoOf(v);
  if (proto === undefined) throw notAnObject();
  if (proto === Object.prototype || proto === null) {
    // an object literal, the usual case: its own keys (not for-in, which
    // walks the chain again, and a Proxy's trap may answer it otherwise)
    for (const key of Object.keys(v)) if (!allowed.includes(key)) throw unknownOption(fn, name, allowed, key);
  } else {
    // an instance of a class, Object.create(defaults), or a literal of
    // another realm (a vm context's, an iframe's): every option is read
    // through the prototype chain below, so a name on the chain (a getter
    // `gama` on the class, `gama` in the defaults) is checked too, up to a
    // realm's Object.prototype (whose own names are the language's). On
    // the prototypes, a method (a function-valued data property: a class's
    // constructor, describe()) is not an option; a getter or a value is.
    let links = 0;
    for (let o = v; o !== null && o !== Object.prototype && !isObjectPrototype(o); o = protoOf(o)) {
      // (a trap that answered isRevokedProxy an ending chain may loop or throw here)
      if (o === undefined || ++links > CHAIN_LIMIT) throw notAnObject();
      for (const key of Object.getOwnPropertyNames(o)) {
        if (allowed.includes(key)) continue;
        if (o !== v && typeof Object.getOwnPropertyDescriptor(o, key).value === 'function') continue;
        throw unknownOption(fn, name, allowed, key);
      }
    }
  }
  // A snapshot, each option read once and here: a getter or a Proxy could
  // otherwise give the checks one value and the copy another (a longer
  // cosCache checked, a shorter one copied), or resize or detach an array
  // in the middle of the checks. Each is read with get, not tested with
  // `in`: a Proxy with a get trap alone answers `in` from its bare target.
  const snapshot = {};
  for (const key of allowed) {
    const value = v[key];
    if (value !== undefined) snapshot[key] = value;
  }
  return snapshot;
}

/**
 * Checks that v is a Float32Array or a float32 PnBuffer; with `length`, that
 * it holds exactly that many values.
 */
export function f32(fn, name, v, length) {
  const ok = isInstance(v, Float32Array) || (isPnBuffer(v) && v.type === 'f32');
  if (!ok) throw new TypeError(`posnorm.${fn}: ${name} must be a Float32Array or a posnorm f32 buffer, got ${describe(v)}`);
  live(fn, name, v);
  if (v.length < 1 || v.length > MAX_ELEMENTS) {
    throw new RangeError(`posnorm.${fn}: ${name}.length must be in [1, ${MAX_ELEMENTS}], got ${v.length}`);
  }
  if (length !== undefined && v.length !== length) {
    throw new RangeError(`posnorm.${fn}: ${name}.length must be ${length}, got ${v.length}`);
  }
  return v;
}

/** The error for a buffer argument that is not plainBuffer(). */
export const bufferShadowed = (fn, name) => `posnorm.${fn}: ${name} must be a posnorm buffer as alloc() or subarray() made it: not one given its own ptr, length, byteLength, type, freed or array, or another prototype (the call sizes and places its work by them)`;

/**
 * Checks that a buffer was not freed and a typed array is not detached (a
 * view of WebAssembly memory taken before the memory grew).
 */
export function live(fn, name, v) {
  if (isPnBuffer(v)) {
    if (!plainBuffer(v)) throw new TypeError(bufferShadowed(fn, name));
    if (v.freed) throw new TypeError(`posnorm.${fn}: ${name} is a posnorm buffer that was already freed`);
  } else if (!Array.isArray(v) && !plainView(v)) {
    throw new TypeError(`posnorm.${fn}: ${name} must be a typed array as the engine makes it: not a Proxy, a subclass, one whose prototype was changed, or one with its own length, byteLength, byteOffset, buffer, constructor or set (the call sizes its copies by them); copy it into a new typed array first`);
  }
  if (isDetached(v)) {
    // its buffer was transferred (postMessage, ArrayBuffer.prototype.transfer)
    // or is a WebAssembly memory that grew: which, a detached buffer no longer says
    throw new TypeError(`posnorm.${fn}: ${name} is a detached typed array: a view of WebAssembly memory taken before the memory grew (take a fresh view, e.g. buf.array), or of an ArrayBuffer that was transferred (its values are gone: pass a live copy)`);
  }
  noteOffset(v);
  return v;
}

/** Half the smallest positive float32: a positive number at or below it rounds to float32 0. */
const F32_HALF_MIN = 2 ** -150;

/**
 * Checks a normalisation's eps, which the kernels take as a float32: 0, or
 * a positive number float32 can hold (a positive eps that rounded to 0
 * would turn a constant row's β into NaN), at most the largest float32.
 */
export function eps(fn, value) {
  const e = num(fn, 'eps', value, 0, F32_MAX);
  if (e > 0 && e <= F32_HALF_MIN) {
    throw new RangeError(`posnorm.${fn}: eps must be 0 or in (${F32_HALF_MIN}, ${F32_MAX}] (a smaller positive eps rounds to float32 0), got ${e}`);
  }
  return e;
}

/** What a typed array's own properties must not shadow. */
const SHADOWED = ['length', 'byteLength', 'byteOffset', 'buffer', 'constructor', 'set'];

/**
 * Whether v is a typed array of a built-in type with nothing in front of
 * its built-in getters: ArrayBuffer.isView is false for a Proxy, the
 * prototype is a subclass's, an own property shadows a getter. A typed
 * array whose length or byteLength lied made a copy smaller than what the
 * kernel read or wrote (a RuntimeError that left the module unusable).
 */
function plainView(v) {
  if (!ArrayBuffer.isView(v)) return false;
  // its prototype is a built-in type's, and the type it is made as: a
  // Uint8Array given Float32Array.prototype says length n and holds n
  // bytes (the call copied n bytes and wrote 4n: a RuntimeError)
  const Type = BUILT_IN.get(Object.getPrototypeOf(v));
  if (Type === undefined || typedArrayTag(v) !== Type.name) return false;
  for (const key of SHADOWED) if (Object.hasOwn(v, key)) return false;
  return true;
}

/** The most multiply-adds one call of attention, gram, minRowDistance or residualStack takes (PN_MAX_WORK). */
export const MAX_WORK = 2 ** 32;

/**
 * Checks a figure kernel's count of multiply-adds, `n`, described by `what`
 * (a formula of its sizes), against MAX_WORK: their size limits alone
 * allowed calls that blocked the thread for hours.
 */
export function work(fn, what, n) {
  if (n > MAX_WORK) {
    throw new RangeError(`posnorm.${fn}: ${what}, its multiply-adds, must be at most ${MAX_WORK} (2^32; a call that size takes seconds), got ${n}`);
  }
  return n;
}

/** Checks a product of sizes against the per-tensor limit. */
export function total(fn, what, n) {
  if (n > MAX_ELEMENTS) {
    throw new RangeError(`posnorm.${fn}: ${what} must be at most ${MAX_ELEMENTS} elements (1 GiB of float32), got ${n}`);
  }
  return n;
}
