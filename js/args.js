// args.js - reading the arguments every API function shares. Arguments are
// hostile until read: a typed array's facts come from the engine's intrinsic
// getters (a subclass or an own property cannot lie about its length, and a
// typed array of another realm is recognised by its brand, not instanceof);
// options are read once, own keys only, and checked before anything else
// happens; wrong types are TypeErrors, out-of-range numbers RangeErrors, each
// naming the function, and describing a value never runs the value's code.

import { FastmpError } from './errors.js';
import {
  bufferOf, byteOffsetOf, hasUsableBytes, isArrayBuffer, isDataView, isDetached, isShared, isSharedArrayBuffer, lengthOf, typedArrayName,
} from './intrinsics.js';
import { kindOfName } from './kinds.js';
import { detachedError } from './lifetimes.js';
import { withArticle } from './text.js';

// ---- intrinsics (js/intrinsics.js; re-exported for the modules that read arguments) ----

export * from './intrinsics.js';

/**
 * A typed array of this realm's `Type` over exactly x's elements: the view
 * every later step reads, so that nothing reads a property of x again. A
 * detached x, or a fixed-length view of a resizable buffer that shrank below
 * it, is refused (the engine reports length 0 for both): js/lifetimes.js
 * detachedError() says what it was (FREED, STALE, else DETACHED).
 */
export function ownView(x, Type, fn) {
  return new Type(bufferOf(x), byteOffsetOf(x), usableLength(x, fn));
}

/**
 * x's element count, as the engine knows it; a detached x (or one out of its
 * resizable buffer's bounds) is refused as ownView() refuses it. For a path
 * that reads x only by index and through the intrinsics (the packers).
 */
export function usableLength(x, fn) {
  const length = lengthOf(x);
  return length !== 0 ? length : emptyLength(x, fn);
}

/** usableLength() of a typed array of length 0: 0, or refused (apart, so that V8 inlines the common case). */
function emptyLength(x, fn) {
  if (!hasUsableBytes(x)) throw detachedError(x, fn); // (values() validates both)
  return 0;
}

/** An ArrayBuffer view (typed array or DataView) as it is; a detached one is refused as usableLength() refuses one. */
export function usableView(view, fn) {
  if (isDetached(view)) throw detachedError(view, fn);
  return view;
}

// ---- describing values ---------------------------------------------------------------

/**
 * How an error message names a value: "a Float32Array", "an Array", "null",
 * "the number 3". Reads no property that could run the value's code: a typed
 * array by its brand, anything else by its kind.
 */
export function describe(v) {
  if (v === null) return 'null';
  switch (typeof v) {
    case 'undefined': return 'undefined';
    case 'function': return 'a function';
    case 'string': return `the string ${JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v)}`;
    case 'number': case 'boolean': return `the ${typeof v} ${String(v)}`;
    case 'bigint': return `the bigint ${v}n`;
    case 'symbol': return 'a symbol';
    default: break;
  }
  const brand = typedArrayName(v);
  if (brand !== undefined) return withArticle(brand);
  if (isArrayBuffer(v)) return 'an ArrayBuffer';
  if (isSharedArrayBuffer(v)) return 'a SharedArrayBuffer';
  if (isDataView(v)) return 'a DataView';
  return isArray(v) ? 'an Array' : 'an object';
}

/** Array.isArray(x), which a revoked Proxy throws for: false then. */
export function isArray(x) {
  try {
    return Array.isArray(x);
  } catch {
    return false;
  }
}

// ---- bytes and offsets ------------------------------------------------------------------

/**
 * Input bytes as an own Uint8Array view: a Uint8Array of any realm (a Buffer
 * too), or a whole ArrayBuffer / SharedArrayBuffer. (A path that reads a byte
 * twice copies bytes in a SharedArrayBuffer first: see onceReadable.)
 */
export function asBytes(bytes, fn) {
  const input = asInput(bytes, fn);
  return input === bytes ? ownView(bytes, Uint8Array, fn) : input;
}

/**
 * asBytes() without the own view: a Uint8Array is the caller's array itself
 * (making a view of a small array costs more than decoding it). For a path
 * that reads it only by index and through the intrinsic getters.
 */
export function asInput(bytes, fn) {
  const input = inputBytes(bytes, fn);
  usableLength(input, fn);
  return input;
}

/**
 * asInput() without its check of the length, for a caller that reads the
 * length next (usableLength(): read once, not twice).
 */
export const inputBytes = (bytes, fn) => (typedArrayName(bytes) === 'Uint8Array' ? bytes : otherInput(bytes, fn));

/** inputBytes() of what is not a Uint8Array (apart, so that V8 inlines the common case). */
function otherInput(bytes, fn) {
  if (isArrayBuffer(bytes) || isSharedArrayBuffer(bytes)) return wholeBuffer(bytes, fn);
  throw new TypeError(`fastmp: ${fn}() takes a Uint8Array (or an ArrayBuffer), not ${describe(bytes)}`);
}

/**
 * Bytes a path may read more than once (check, then convert): a copy when
 * they are in a SharedArrayBuffer, whose bytes another thread may change
 * between the two reads; else the bytes themselves.
 */
export const onceReadable = (view) => (isShared(bufferOf(view)) ? view.slice() : view);

/** A Uint8Array over a whole ArrayBuffer; a detached one is a FastmpError DETACHED. */
function wholeBuffer(buffer, fn) {
  try {
    return new Uint8Array(buffer);
  } catch {
    throw new FastmpError('DETACHED', `fastmp: ${fn}() was given a detached ArrayBuffer`, -1, -1);
  }
}

/** A typed array's kind (js/kinds.js) by its brand, or undefined. */
export const kindOfArray = (x) => kindOfName(typedArrayName(x));

/** An offset into `bytes`: an integer from 0 to its length. */
export function asOffset(offset, bytes, fn) {
  const length = lengthOf(bytes);
  if (!Number.isSafeInteger(offset) || offset < 0 || offset > length) {
    throw new RangeError(`fastmp: ${fn}() offset must be an integer from 0 to ${length}, not ${describe(offset)}`);
  }
  return offset;
}

// ---- options -----------------------------------------------------------------------------

// What readOptions() returns has no prototype: a key that was not given is
// undefined, never an inherited value (a polluted Object.prototype's).
const NO_OPTIONS = Object.freeze(Object.create(null));

/** An option that must be true or false. */
export const BOOLEAN = /* @__PURE__ */ Object.freeze({ check: (v) => typeof v === 'boolean', says: 'true or false' });
/** An option that must be one of `values`. */
export const oneOf = (...values) => ({ check: (v) => values.includes(v), says: values.map((v) => `'${v}'`).join(', ') });
/** An option taken as it is (checked where it is used). */
export const ANY = /* @__PURE__ */ Object.freeze({ check: () => true, says: '' });

/**
 * Reads an options object once: a plain object (or undefined, for none) whose
 * own enumerable keys are all in `spec` ({ key: BOOLEAN | oneOf(...) | ANY }).
 * Each key is read once, so a getter runs once, before the call does anything
 * else. Inherited keys are refused (a polluted Object.prototype's too), as
 * are string keys it does not know. Returns a fresh object without a
 * prototype holding only the known keys that were given. Symbol keys are not
 * options, and are left unread.
 */
export const readOptions = (options, fn, spec) => (options === undefined ? NO_OPTIONS : optionsOf(readGiven(options, fn, spec)));

const NO_GIVEN = Object.freeze([]);

/**
 * readOptions()'s reading, by the same rules, without making the object:
 * the keys given and their values as one list [key, value, key,
 * value, ...], in the options' own key order (a key whose value is
 * undefined counts as not given). A caller that compares the options of one
 * call with those of an earlier one compares these lists.
 */
export function readGiven(options, fn, spec) {
  if (options === undefined) return NO_GIVEN;
  checkOptions(options, fn, spec, undefined);
  const given = [];
  const keys = Object.keys(options);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i];
    const value = options[key];
    if (value === undefined) continue;
    checkValue(value, key, fn, spec);
    given.push(key, value);
  }
  return given; // (symbol keys name no option, and are not read)
}

/** readOptions()'s object of a readGiven() list. */
export function optionsOf(given) {
  if (given.length === 0) return NO_OPTIONS;
  const read = Object.create(null);
  for (let i = 0; i < given.length; i += 2) read[given[i]] = given[i + 1];
  return read;
}

/**
 * readOptions() of a function whose spec has one key, `key` (pack's bin,
 * unpack's integralFloats), by the same rules: its value, or undefined when it
 * is not given, with no object made for it (at N = 1 that object and
 * Object.keys() cost as much as the pack).
 */
export const readOption = (options, fn, spec, key) => (options === undefined ? undefined : givenOption(options, fn, spec, key));

function givenOption(options, fn, spec, key) {
  if (!checkOptions(options, fn, spec, key)) return undefined;
  const value = options[key];
  if (value !== undefined) checkValue(value, key, fn, spec);
  return value;
}

/**
 * Refuses what is not a plain object (prototype null or a realm's
 * Object.prototype: this one's, a vm context's, an iframe's),
 * a key it inherits (any enumerable one: a polluted Object.prototype's too),
 * and an own key that `spec` does not know, in that order; reads no value.
 * Returns whether `key` is one of its own enumerable keys (its keys as
 * Object.keys() lists them).
 */
function checkOptions(options, fn, spec, key) {
  if (options === null || typeof options !== 'object') throw notPlain(options, fn);
  let proto;
  try {
    proto = Object.getPrototypeOf(options);
  } catch {
    throw notPlain(options, fn); // (a revoked Proxy)
  }
  let unknown;
  let given = false;
  // for-in: own enumerable string keys, then the inherited ones. (V8 folds the
  // hasOwnProperty of a for-in key of an object that inherits none to true.)
  for (const k in options) {
    if (!Object.prototype.hasOwnProperty.call(options, k)) throw new TypeError(`fastmp: ${fn}() options: '${k}' is inherited, not the options' own`);
    if (k === key) given = true;
    else if (unknown === undefined && !Object.hasOwn(spec, k)) unknown = k;
  }
  // (null, or a realm's Object.prototype: this one's, a vm context's, an iframe's, whose prototype is null)
  if (proto !== null && Object.getPrototypeOf(proto) !== null) throw notPlain(options, fn);
  if (unknown !== undefined) throw unknownOption(unknown, fn, spec);
  return given;
}

function checkValue(value, key, fn, spec) {
  const rule = spec[key];
  if (!rule.check(value)) throw new TypeError(`fastmp: ${fn}() option '${key}' must be ${rule.says}, not ${describe(value)}`);
}

const notPlain = (options, fn) => new TypeError(`fastmp: ${fn}() options must be a plain object, not ${describe(options)}`);
const unknownOption = (name, fn, spec) => new TypeError(`fastmp: ${fn}() has no option '${name}' (it knows: ${Object.keys(spec).join(', ')})`);
