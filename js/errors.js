// errors.js - FastmpError, the one error type for bad input and misuse, and
// the codes it shares with the C kernels (c/fastmp.h; test/c-interface.test.js
// checks that both agree). Codes of the JS layer alone: TRAILING (bytes after
// a value), STALE / FREED (a view of wasm memory used after its lifetime),
// DETACHED (an input whose buffer is detached).

import { lengthOf, plural, withArticle } from './args.js';

/** C fm_code number (c/fastmp.h) -> FastmpError code. */
export const CODE_NAMES = { 0: 'OK', 1: 'NOT_ARRAY', 2: 'TRUNCATED', 3: 'LENGTH', 4: 'TYPE', 5: 'CAPACITY', 6: 'RANGE' };
// Strings and DER (c/fm_string.c); a DER input cut short is TRUNCATED (2).
Object.assign(CODE_NAMES, {
  16: 'SURROGATE', 17: 'ODD_LENGTH', 18: 'RANGE', 19: 'DER_TAG', 20: 'DER_CONSTRUCTED',
  21: 'DER_INDEFINITE', 22: 'DER_NONMINIMAL', 23: 'DER_LENGTH',
});

/** `index` of an error that belongs to no element. */
export const NO_INDEX = -1;

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
    this.name = 'FastmpError';
    this.code = code;
    this.index = index;
    this.offset = offset;
    if (value !== undefined) this.value = value;
  }
}

const TAG_NAMES = [
  [0x00, 0x7f, 'positive fixint'], [0x80, 0x8f, 'fixmap'], [0x90, 0x9f, 'fixarray'],
  [0xa0, 0xbf, 'fixstr'], [0xc0, 0xc0, 'nil'], [0xc1, 0xc1, 'never used'],
  [0xc2, 0xc3, 'bool'], [0xc4, 0xc6, 'bin'], [0xc7, 0xc9, 'ext'], [0xca, 0xca, 'float32'],
  [0xcb, 0xcb, 'float64'], [0xcc, 0xcf, 'uint'], [0xd0, 0xd3, 'int'], [0xd4, 0xd8, 'fixext'],
  [0xd9, 0xdb, 'str'], [0xdc, 0xdd, 'array'], [0xde, 0xdf, 'map'], [0xe0, 0xff, 'negative fixint'],
];

/** "0xc0 (nil)" - a byte as a reader of the msgpack spec would name it. */
export function describeTag(tag) {
  const entry = TAG_NAMES.find(([lo, hi]) => tag >= lo && tag <= hi);
  return `0x${tag.toString(16).padStart(2, '0')} (${entry[2]})`;
}

/**
 * The FastmpError for a failed decode, from the C result fields or the same
 * facts found by the pure-JS path, so both paths word errors identically.
 * `extra` may name the `target` (typed array name, or 'boolean') and the
 * offending `value`.
 */
export function msgpackError(code, index, offset, bytes, count = 0, extra = {}) {
  const length = lengthOf(bytes); // the intrinsic: `bytes` may be the caller's own array
  const tag = offset < length ? bytes[offset] : undefined;
  const { target, value } = extra;
  const at = `element ${index} at byte ${offset}`;
  switch (code) {
    case 'NOT_ARRAY':
      return new FastmpError(code, `expected a msgpack array at byte ${offset}, found ${describeTag(tag)}`, index, offset);
    case 'TRUNCATED':
      return new FastmpError(code, index === NO_INDEX
        ? `input ends inside the ${tag >= 0xc4 && tag <= 0xc6 ? 'bin' : 'array'} header at byte ${offset}`
        : offset >= length ? `input ends at byte ${offset}, before element ${index}`
          : `input ends inside element ${index}, which starts at byte ${offset}`, index, offset);
    case 'LENGTH':
      return new FastmpError(code, `array header at byte ${offset} claims ${plural(count, 'element')}, more than the ${plural(length - offset - headerSize(tag), 'byte')} after it hold`, index, offset);
    case 'BIN_LENGTH':
      return new FastmpError('LENGTH', `bin header at byte ${offset} claims ${plural(count, 'byte')}, more than the ${plural(length - offset - headerSize(tag), 'byte')} after it hold`, index, offset);
    case 'TYPE':
      if (target === 'boolean') return new FastmpError(code, `${at} is not a boolean: found ${describeTag(tag)}`, index, offset);
      if (target === undefined || target.startsWith('Float')) {
        return new FastmpError(code, `${at} is not a number: found ${describeTag(tag)}`, index, offset);
      }
      if (tag === 0xca || tag === 0xcb) {
        return new FastmpError(code, `${at} is a float (${value}); ${withArticle(target)} takes floats only with { integralFloats: true }`, index, offset, value);
      }
      return new FastmpError(code, `${at} is not an integer: found ${describeTag(tag)}`, index, offset);
    case 'RANGE':
      return new FastmpError(code, `${at} is ${formatValue(value)} (${describeTag(tag)}), which ${withArticle(target)} cannot hold exactly`, index, offset, value);
    case 'TRAILING':
      return new FastmpError(code, `${plural(length - offset, 'byte')} follow${length - offset === 1 ? 's' : ''} the array, from byte ${offset} (use unpackFrom to read a prefix)`, index, offset);
    default:
      return new FastmpError(code, `internal error ${code} at element ${index}, byte ${offset}`, index, offset);
  }
}

/** Bytes of an array or bin header, from its tag. */
const headerSize = (tag) => ({ 0xdc: 3, 0xdd: 5, 0xc4: 2, 0xc5: 3, 0xc6: 5 })[tag] ?? 1;

/** Misuse of a view of wasm memory (STALE, FREED) or of a detached input: names no input position. */
export const usageError = (code, message) => new FastmpError(code, `fastmp: ${message}`, NO_INDEX, NO_INDEX);

/** STALE: an input that lies in the output an encode is writing (read now, it would be what the call wrote there). */
export const writtenOutputError = (fn) => usageError('STALE', `${fn}() was given a view of the output an encode is writing (an encodeSharedRef() output is valid until its encoder's next call ends; copy it (slice()) to keep it)`);

const formatValue = (v) => (typeof v === 'bigint' ? `${v}` : Object.is(v, -0) ? '-0' : String(v));
