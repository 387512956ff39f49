// errors.js - FastmpError, the one error type for bad input and misuse, and
// the codes it shares with the C kernels (c/fastmp.h; test/c-interface.test.js
// checks that both agree). Codes of the JS layer alone: TRAILING (bytes after
// a value), STALE / FREED (a view of wasm memory used after its lifetime),
// DETACHED (an input whose buffer is detached).

import { lengthOf } from './intrinsics.js';
import { plural, withArticle } from './text.js';
import { FIXED_SIZE, describeTag, headerSize } from './tags.js';

/** C fm_code number (c/fastmp.h) -> FastmpError code. */
export const CODE_NAMES = {
  0: 'OK', 1: 'NOT_ARRAY', 2: 'TRUNCATED', 3: 'LENGTH', 4: 'TYPE', 5: 'CAPACITY', 6: 'RANGE',
  // Strings and DER (c/fm_string.c); a DER input cut short is TRUNCATED (2).
  16: 'SURROGATE', 17: 'ODD_LENGTH', 18: 'RANGE', 19: 'DER_TAG', 20: 'DER_CONSTRUCTED',
  21: 'DER_INDEFINITE', 22: 'DER_NONMINIMAL', 23: 'DER_LENGTH',
};

/** `index` of an error that belongs to no element. */
export const NO_INDEX = -1;

/** The fields every fastmp error has, set by each constructor below. */
function init(err, code, index, offset, value) {
  err.name = 'FastmpError';
  err.code = code;
  err.index = index;
  err.offset = offset;
  if (value !== undefined) err.value = value;
}

const ordinaryInstanceOf = (C, x) => Function.prototype[Symbol.hasInstance].call(C, x);

/**
 * Every error fastmp throws about its input or the lifetime of a view (misuse
 * of an argument is a TypeError / RangeError of the engine's kind instead).
 * Two kinds of it, for code written against @msgpack/msgpack: DecodeError,
 * msgpack input that cannot be decoded; and, of those, input that ends too
 * early or goes on after the value (TRUNCATED, LENGTH, TRAILING), which is a
 * RangeError as well (InputRangeError), as @msgpack/msgpack throws there. All
 * have name 'FastmpError' and the fields below.
 */
export class FastmpError extends Error {
  /**
   * @param {string} code   machine-readable reason, e.g. 'TRUNCATED'
   * @param {string} message
   * @param {number} index  element index, or -1 when no element is at fault
   * @param {number} offset byte offset of the fault in the input
   * @param {number|bigint} [value] the offending value (RANGE, and TYPE for a float)
   */
  constructor(code, message, index, offset, value) {
    super(message);
    init(this, code, index, offset, value);
  }

  /** An InputRangeError is a FastmpError and a DecodeError too (its class cannot extend both Error lines). */
  static [Symbol.hasInstance](x) {
    return ordinaryInstanceOf(this, x) || ((this === FastmpError || this === DecodeError) && ordinaryInstanceOf(InputRangeError, x));
  }
}

/**
 * msgpack input that cannot be decoded (@msgpack/msgpack's DecodeError). Code
 * written for @msgpack/msgpack makes its own as `new DecodeError(message)`
 * (an extension's decoder, say): one argument is that message, code 'DECODE'.
 */
export class DecodeError extends FastmpError {
  constructor(code, message, index = NO_INDEX, offset = NO_INDEX, value = undefined) {
    if (message === undefined) super('DECODE', String(code ?? ''), index, offset, value);
    else super(code, message, index, offset, value);
  }
}

/**
 * msgpack input that ends too early or goes on after the value: a RangeError
 * (as @msgpack/msgpack's), and by FastmpError's instanceof a FastmpError and
 * a DecodeError. Not exported: catch it as any of those three.
 */
class InputRangeError extends RangeError {
  constructor(code, message, index, offset, value) {
    super(message);
    init(this, code, index, offset, value);
  }
}

/** The codes of input that ends too early or goes on after the value. */
const RANGE_CODES = new Set(['TRUNCATED', 'LENGTH', 'TRAILING']);

/** The error for msgpack input that cannot be decoded: a DecodeError, or for RANGE_CODES an InputRangeError. */
export function decodeError(code, message, index, offset, value) {
  return RANGE_CODES.has(code) ? new InputRangeError(code, message, index, offset, value) : new DecodeError(code, message, index, offset, value);
}

/**
 * The DecodeError for a failed decode, from the C result fields or the same
 * facts found by the pure-JS path, so both paths word errors identically.
 * `extra` may name the `target` (typed array name, or 'boolean') and the
 * offending `value`. Input that ends too early carries `needed`: the length
 * that could hold what was cut (at least one more byte). Messages carry
 * @msgpack/msgpack's phrase where the situation is the one it names.
 */
// unpack() reads a bin only into a Uint8Array; what a sender wrote as a typed array's bytes, the codec reads by shape.
const BIN_POINTER = '; fastmp\'s unpack() reads a bin only into a Uint8Array: decode(bytes, { shape: Float32Array }) (any typed array type) reads a bin of its bytes';

export function msgpackError(code, index, offset, bytes, count = 0, extra = {}) {
  const length = lengthOf(bytes); // the intrinsic: `bytes` may be the caller's own array
  const tag = offset < length ? bytes[offset] : undefined;
  const { target, value } = extra;
  const at = `element ${index} at byte ${offset}`;
  switch (code) {
    case 'NOT_ARRAY':
      return decodeError(code, `expected a msgpack array at byte ${offset}, found ${describeTag(tag)}${tag >= 0xc4 && tag <= 0xc6 ? BIN_POINTER : ''}`, index, offset);
    case 'TRUNCATED':
      return withNeeded(decodeError(code, `insufficient data: ${index === NO_INDEX
        ? `input ends inside the ${tag >= 0xc4 && tag <= 0xc6 ? 'bin' : 'array'} header at byte ${offset}`
        : offset >= length ? `input ends at byte ${offset}, before element ${index}`
          : `input ends inside element ${index}, which starts at byte ${offset}`}`, index, offset),
      offset + (offset >= length ? 1 : index === NO_INDEX ? headerSize(tag) : FIXED_SIZE[tag] || 1));
    case 'LENGTH':
      return withNeeded(decodeError(code, `insufficient data: array header at byte ${offset} claims ${plural(count, 'element')}, more than the ${plural(length - offset - headerSize(tag), 'byte')} after it hold`, index, offset), offset + headerSize(tag) + count);
    case 'BIN_LENGTH':
      return withNeeded(decodeError('LENGTH', `insufficient data: bin header at byte ${offset} claims ${plural(count, 'byte')}, more than the ${plural(length - offset - headerSize(tag), 'byte')} after it hold`, index, offset), offset + headerSize(tag) + count);
    case 'TYPE':
      if (target === 'boolean') return decodeError(code, `${at} is not a boolean: found ${describeTag(tag)}`, index, offset);
      if (target === undefined || target.startsWith('Float')) {
        return decodeError(code, `${at} is not a number: found ${describeTag(tag)}`, index, offset);
      }
      if (tag === 0xca || tag === 0xcb) {
        return decodeError(code, `${at} is a float (${value}); ${withArticle(target)} takes floats only with { integralFloats: true }`, index, offset, value);
      }
      return decodeError(code, `${at} is not an integer: found ${describeTag(tag)}`, index, offset);
    case 'RANGE':
      return decodeError(code, `${at} is ${formatValue(value)} (${describeTag(tag)}), which ${withArticle(target)} cannot hold exactly`, index, offset, value);
    case 'TRAILING':
      return decodeError(code, `${extraBytes(length - offset, length, offset)} after the array (use ${target} to read a prefix)`, index, offset);
    default:
      return decodeError(code, `internal error ${code} at element ${index}, byte ${offset}`, index, offset);
  }
}

/** err with its `needed` set. */
function withNeeded(err, needed) {
  err.needed = needed;
  return err;
}

/** @msgpack/msgpack's phrase for bytes after a value: "extra 2 of 9 bytes found at buffer[7]". */
export const extraBytes = (extra, length, at) => `extra ${extra} of ${plural(length, 'byte')} found at buffer[${at}]`;

/** Misuse of a view of wasm memory (STALE, FREED) or of a detached input: names no input position. */
export const usageError = (code, message) => new FastmpError(code, `fastmp: ${message}`, NO_INDEX, NO_INDEX);

/** An output of fastmp's own (packView(), a live encodeSharedRef()) given to `fn` as the array to write into. */
export const ownOutputTargetError = (fn) => new TypeError(`fastmp: ${fn}() cannot write into an output of fastmp's own (packView(), encodeSharedRef()): the call overwrites it; write into your own Uint8Array or an alloc() one`);

/** An encodeSharedRef() output given to `fn` after its encoder's next call (or dispose()) gave its store back. */
export const expiredRefError = (fn) => usageError('STALE', `${fn}() was given an encodeSharedRef() output after its encoder's next call (it is valid until then: copy it (slice()) to keep it)`);

/** STALE: an input that lies in the output an encode is writing (read now, it would be what the call wrote there). */
export const writtenOutputError = (fn) => usageError('STALE', `${fn}() was given a view of the output an encode is writing (an encodeSharedRef() output is valid until its encoder's next call ends; copy it (slice()) to keep it)`);

const formatValue = (v) => (typeof v === 'bigint' ? `${v}` : Object.is(v, -0) ? '-0' : String(v));
