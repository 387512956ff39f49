// typed.js - typed arrays inside messages: which kind a value is, the boolean
// marker, and msgpackr's typed-array extension (0x74: one element-code byte,
// then the elements' raw little-endian bytes).

import { bufferOf, byteLengthOf, byteOffsetOf, ownView, typedArrayName } from '../args.js';
import { KIND_OF_EXT, KIND_OF_NAME } from '../kinds.js';
import { codecError } from './path.js';

/** msgpackr's typed-array extension type ('t'). */
export const EXT_TYPED_ARRAY = 0x74;
/** msgpackr's record-definition extension type ('r'), which fastmp does not read. */
export const EXT_RECORD = 0x72;
/** msgpackr's 0x74 codes for a whole ArrayBuffer and a DataView. */
const EXT_CODE_ARRAY_BUFFER = 16;
const EXT_CODE_DATA_VIEW = 17;

/** The kind (js/kinds.js) of an ArrayBuffer view, or undefined (DataView, Float16Array): by its brand (args.js). */
export const viewKind = (view) => KIND_OF_NAME.get(typedArrayName(view));

// A DataView's bytes through its intrinsic getters (a typed array's: args.js).
const getter = (name) => Object.getOwnPropertyDescriptor(DataView.prototype, name).get;
const [dataViewBuffer, dataViewByteOffset, dataViewByteLength] = ['buffer', 'byteOffset', 'byteLength'].map(getter);

/** The bytes of an ArrayBuffer view (typed array or DataView) as a Uint8Array over the same memory. */
export function viewBytes(view) {
  if (typedArrayName(view) !== undefined) return new Uint8Array(bufferOf(view), byteOffsetOf(view), byteLengthOf(view));
  return new Uint8Array(dataViewBuffer.call(view), dataViewByteOffset.call(view), dataViewByteLength.call(view));
}

/**
 * Marks bytes as booleans: encode() writes a BoolArray as a msgpack array of
 * false (0) / true (anything else), in every `typedArrays` mode.
 */
export class BoolArray {
  /** @param {Uint8Array} bytes */
  constructor(bytes) {
    if (typedArrayName(bytes) !== 'Uint8Array') throw new TypeError('fastmp: asBools() takes a Uint8Array (0 = false, else true)');
    /** @readonly */ this.bytes = ownView(bytes, Uint8Array, 'asBools'); // any realm; its real length
  }

  get length() {
    return this.bytes.length;
  }
}

/** @param {Uint8Array} bytes 0 = false, anything else = true @returns {BoolArray} */
export const asBools = (bytes) => new BoolArray(bytes);

/**
 * A new, aligned typed array of `kind` holding bytes[start, start + n) read
 * as little-endian elements (n a multiple of the element size).
 */
export function typedFromBytes(kind, bytes, start, n) {
  const copy = new Uint8Array(n);
  copy.set(bytes.subarray(start, start + n));
  return new kind.Type(copy.buffer);
}

/**
 * The value of a typed-array extension payload (code byte, raw bytes), as
 * msgpackr decodes it: the typed array, or an ArrayBuffer / DataView.
 * `offset` (of the ext in the input) is for the error.
 */
export function typedFromExt(data, offset) {
  if (data.length === 0) throw codecError('EXT', 'a typed-array extension (0x74) without its element code', offset);
  const code = data[0];
  const n = data.length - 1;
  if (code === EXT_CODE_ARRAY_BUFFER || code === EXT_CODE_DATA_VIEW) {
    const buffer = data.slice(1).buffer;
    return code === EXT_CODE_ARRAY_BUFFER ? buffer : new DataView(buffer);
  }
  const kind = KIND_OF_EXT.get(code);
  if (kind === undefined) throw codecError('EXT', `unknown typed-array element code ${code} in extension 0x74`, offset);
  if (n % kind.bytes !== 0) {
    throw codecError('EXT', `a typed-array extension of ${kind.name} holds ${n} bytes, not a multiple of ${kind.bytes}`, offset);
  }
  return typedFromBytes(kind, data, 1, n);
}
