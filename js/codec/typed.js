// typed.js - typed arrays inside messages: which kind a value is, the boolean
// marker, and msgpackr's typed-array extension (0x74: one element-code byte,
// then the elements' raw little-endian bytes).

import { ownView, typedArrayName } from '../args.js';
import { KIND_OF_EXT } from '../kinds.js';
import { inputError } from './path.js';

/** msgpackr's typed-array extension type ('t'). */
export const EXT_TYPED_ARRAY = 0x74;
/** msgpackr's record-definition extension type ('r'), which fastmp does not read. */
export const EXT_RECORD = 0x72;
/** msgpackr's 0x74 codes for a whole ArrayBuffer and a DataView. */
const EXT_CODE_ARRAY_BUFFER = 16;
const EXT_CODE_DATA_VIEW = 17;

// The array each BoolArray was made of (its `bytes` are a view of it, and
// cannot be replaced): an alloc() array is found again by it when memory
// growth detached both (the encoder's store, live()).
const ORIGINALS = new WeakMap();
/** The Uint8Array asBools() was given (undefined for an object the constructor did not make). */
export const boolOriginal = (b) => ORIGINALS.get(b);

/**
 * Marks bytes as booleans: encode() writes a BoolArray as a msgpack array of
 * false (0) / true (anything else), in every `typedArrays` mode.
 */
export class BoolArray {
  /** @param {Uint8Array} bytes */
  constructor(bytes) {
    if (typedArrayName(bytes) !== 'Uint8Array') throw new TypeError('fastmp: asBools() takes a Uint8Array (0 = false, else true)');
    // Any realm; its real length. Read-only (an assignment throws in strict code).
    /** @readonly @type {Uint8Array} */ this.bytes = undefined;
    Object.defineProperty(this, 'bytes', { value: ownView(bytes, Uint8Array, 'asBools'), enumerable: true, writable: false, configurable: false });
    ORIGINALS.set(this, bytes);
  }

  get length() {
    return this.bytes.length;
  }
}

/** @param {Uint8Array} bytes 0 = false, anything else = true @returns {BoolArray} */
export const asBools = (bytes) => new BoolArray(bytes);

/**
 * A new, aligned typed array of `kind` holding bytes[start, start + n) read
 * as little-endian elements (n a multiple of the element size); or `into`
 * (a kind.Type of n / kind.bytes elements) holding them.
 */
export function typedFromBytes(kind, bytes, start, n, into = undefined) {
  const copy = into === undefined ? new Uint8Array(n) : new Uint8Array(into.buffer, into.byteOffset, n);
  copy.set(bytes.subarray(start, start + n));
  return into ?? new kind.Type(copy.buffer);
}

/**
 * The value of a typed-array extension payload (code byte, raw bytes), as
 * msgpackr decodes it: the typed array, or an ArrayBuffer / DataView.
 * `offset` (of the ext in the input) is for the error. `into`: the typed
 * array to hold the elements, whose kind the caller has checked.
 */
export function typedFromExt(data, offset, into = undefined) {
  if (data.length === 0) throw inputError('EXT', 'a typed-array extension (0x74) without its element code', offset);
  const code = data[0];
  const n = data.length - 1;
  if (code === EXT_CODE_ARRAY_BUFFER || code === EXT_CODE_DATA_VIEW) {
    const buffer = data.slice(1).buffer;
    return code === EXT_CODE_ARRAY_BUFFER ? buffer : new DataView(buffer);
  }
  const kind = KIND_OF_EXT.get(code);
  if (kind === undefined) throw inputError('EXT', `unknown typed-array element code ${code} in extension 0x74`, offset);
  if (n % kind.bytes !== 0) {
    throw inputError('EXT', `a typed-array extension of ${kind.name} holds ${n} bytes, not a multiple of ${kind.bytes}`, offset);
  }
  return typedFromBytes(kind, data, 1, n, into);
}

// ---- Float16Array, where the engine has one ------------------------------------------
// Not a kind of js/kinds.js: no kernel reads or writes float16 and msgpack has
// no float16 element. The API's edges turn a Float16Array into float32
// elements on the way out (widenHalf: exact) and read float arrays back into
// one through float64 (halfOf: one rounding). Node 20 and 22 have no
// Float16Array: every use of the constructor is behind HALF.Type.

/** This realm's Float16Array constructor, or undefined where the engine has none. */
const Float16 = /* @__PURE__ */ (() => (typeof globalThis.Float16Array === 'function' ? globalThis.Float16Array : undefined))();

/**
 * The Float16Array target of unpack() and of a shape: a marker, not a kind
 * (no `pack` / `unpack` kernel). `Type` is undefined where the engine has no
 * Float16Array, and then nothing resolves to HALF.
 */
export const HALF = /* @__PURE__ */ Object.freeze({ name: 'Float16Array', Type: Float16, bytes: 2, float: true, big: false, ext: -1 });

/** Whether x is a Float16Array (any realm: by its brand, so without the global). */
export const isHalf = (x) => typedArrayName(x) === 'Float16Array';

/** HALF for this realm's Float16Array constructor, else undefined. */
export const halfTarget = (Type) => (Float16 !== undefined && Type === Float16 ? HALF : undefined);

/**
 * The values of a Float16Array as a new Float32Array, read as its raw bits
 * (exact: every float16 is a float32). A NaN keeps its sign, quiet bit and
 * payload (shifted to the top of the float32 fraction), without going through
 * the engine's number conversion, so every engine writes the same bits. `fn`
 * and `detached` as args.js ownView() takes them (a detached array is refused).
 */
export function widenHalf(x, fn, detached) {
  return widenHalfBits(ownView(x, Uint16Array, fn, detached));
}

/** widenHalf() of float16 bit patterns (a Uint16Array): usable, and tested, without Float16Array. */
export function widenHalfBits(bits) {
  const n = bits.length;
  const words = new Uint32Array(n);
  for (let i = 0; i < n; i++) words[i] = widenHalfWord(bits[i]);
  return new Float32Array(words.buffer);
}

/** The float32 bits of the float16 bits h. */
function widenHalfWord(h) {
  const sign = (h & 0x8000) << 16;
  const exponent = h & 0x7c00;
  let fraction = h & 0x3ff;
  if (exponent === 0x7c00) return sign | 0x7f800000 | (fraction << 13); // ±Infinity, NaN
  if (exponent !== 0) return sign | (((h & 0x7fff) + 0x1c000) << 13); // normal: the exponent's bias 15 -> 127
  if (fraction === 0) return sign; // ±0
  let e = 113; // a subnormal, fraction × 2^-24: normal in float32
  while ((fraction & 0x400) === 0) {
    fraction <<= 1;
    e--;
  }
  return sign | (e << 23) | ((fraction & 0x3ff) << 13);
}

/**
 * A new Float16Array of a Float32Array's or Float64Array's values, each
 * rounded once to the nearest float16 (ties to even, as Math.f16round does;
 * beyond the largest float16, ±Infinity). A NaN keeps its sign and the top
 * 10 bits of its payload and becomes quiet (as a float64 into a Float32Array
 * does), the same bits on every engine: a quiet NaN that widenHalf() wrote
 * comes back as it was. Only where the engine has Float16Array (HALF.Type).
 */
export function halfOf(src) {
  const out = new Float16(src);
  const n = src.length;
  const step = src.BYTES_PER_ELEMENT >> 2; // 32-bit words a element: 1 (float32) or 2 (float64)
  const shift = step === 1 ? 13 : 10; // where the top 10 fraction bits start in its (high) word
  let words;
  let bits;
  for (let i = 0; i < n; i++) {
    if (src[i] === src[i]) continue;
    words ??= new Uint32Array(src.buffer, src.byteOffset, n * step);
    bits ??= new Uint16Array(out.buffer);
    const w = words[i * step + step - 1]; // little-endian: a float64's high word is its second
    bits[i] = ((w >>> 16) & 0x8000) | 0x7e00 | ((w >>> shift) & 0x3ff);
  }
  return out;
}
