// typed.js - the module API's typed-array functions: js/typed.js's, on the
// default instance (js/core.js current()). Each marks the wasm module its
// calls may need (js/surface.js), so that init() loads it.

import { PACK, UNPACK, current, uses } from '../core.js';
import * as typed from '../typed.js';

/**
 * Packs a typed array as a standard msgpack array: floats as floats of the
 * array's own width (bit for bit), integers each in its smallest form.
 * Uint8Array and Uint8ClampedArray become msgpack `bin`, or with
 * { bin: false } an array of ints. Returns a new Uint8Array.
 */
export const pack = /* @__PURE__ */ uses(PACK, (x, options) => typed.pack(current(), x, options));

/**
 * Packs booleans as a msgpack array of false (0xc2) / true (0xc3): an array
 * of booleans, or a Uint8Array read as 0 = false, anything else = true.
 */
export const packBool = /* @__PURE__ */ uses(PACK, (x) => typed.packBool(current(), x));

/**
 * packBool() without the copy out (and, for an alloc() array, without the
 * copy in): a view of the output in wasm memory, valid as packView()'s.
 */
export const packBoolView = /* @__PURE__ */ uses(PACK, (x) => typed.packBoolView(current(), x));

/**
 * pack() into target[offset...] (a Uint8Array: yours, or an alloc() one);
 * returns the offset past the output. Allocates no output; an output longer
 * than the room left is a RangeError with the target unchanged.
 */
export const packInto = /* @__PURE__ */ uses(PACK, (x, target, offset, options) => typed.packInto(current(), x, target, offset, options));

/**
 * pack() without the copy out (and, for an alloc() array, without the copy
 * in either): the result is a view of the output in wasm memory, valid until
 * the next fastmp call (which may overwrite it; passing it to fastmp after
 * that is a FastmpError STALE). Send it or copy it (slice()) before then.
 */
export const packView = /* @__PURE__ */ uses(PACK, (x, options) => typed.packView(current(), x, options));

/**
 * Unpacks a msgpack array that fills the whole input into a new Type:
 * - Float32Array / Float64Array: any int or float form, as the nearest float;
 * - integer arrays: any int form whose value fits (else FastmpError RANGE);
 *   floats are a TYPE error unless options.integralFloats, which accepts
 *   floats that are exactly integral and in range;
 * - Uint8Array / Uint8ClampedArray: also a msgpack bin.
 * Bytes after the array are an error (TRAILING); see unpackFrom.
 */
export const unpack = /* @__PURE__ */ uses(UNPACK, (bytes, Type, options) => typed.unpack(current(), bytes, Type, options));

/** Unpacks the array (or bin) that starts at bytes[offset]; returns { value, end }. */
export const unpackFrom = /* @__PURE__ */ uses(UNPACK, (bytes, Type, offset, options) => typed.unpackFrom(current(), bytes, Type, offset, options));

/** Unpacks a msgpack array of booleans (0xc2 / 0xc3 only) into a Uint8Array of 0 / 1. */
export const unpackBool = /* @__PURE__ */ uses(UNPACK, (bytes) => typed.unpackBool(current(), bytes));

/** unpackBool for the array that starts at bytes[offset]; returns { value, end }. */
export const unpackBoolFrom = /* @__PURE__ */ uses(UNPACK, (bytes, offset) => typed.unpackBoolFrom(current(), bytes, offset));

/**
 * A typed array of n elements that lives in wasm memory: fill it, then pack()
 * or packView() it without the copy in. Valid until free(x); wasm memory growth
 * (a call with a larger input than any before, or another alloc()) detaches
 * the view — refresh(x) then returns a live one over the same elements.
 */
export const alloc = /* @__PURE__ */ uses(PACK, (Type, n) => typed.alloc(current(), Type, n));

/** Releases an array from alloc(). Using it (or any view of it) after is a FastmpError FREED. */
export const free = /* @__PURE__ */ uses(PACK, (x) => typed.free(current(), x));

/** A live view of an array from alloc(), after wasm memory growth detached the old one. */
export const refresh = /* @__PURE__ */ uses(PACK, (x) => typed.refresh(current(), x));
