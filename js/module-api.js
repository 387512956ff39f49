// module-api.js - the module-level API: each function delegates to the
// default instance (js/instance.js) through the accessor of its family
// (js/families.js), so that a bundler keeps only the families an app calls.
// The entries add how an instance finds its wasm: js/index.js the sibling
// .wasm files, js/inline.js the inlined ones. Keeping the loaders out of this
// file keeps the sibling files out of the inline entry's module graph, so that
// a bundler emits no .wasm for it. createFastmp() makes instances of one's
// own, with the same functions as methods. This file holds no state.

import { bindPort } from './codec/bind.js';
import { Decoder as CodecDecoder } from './codec/decoder.js';
import { Encoder as CodecEncoder } from './codec/encoder.js';
import { ExtData, ExtensionCodec } from './codec/ext.js';
import { STREAM_DECODERS } from './codec/stream.js';
import {
  EXT_TIMESTAMP, decodeTimestampExtension, decodeTimestampToTimeSpec, encodeDateToTimeSpec, encodeTimeSpecToTimestamp,
  encodeTimestampExtension,
} from './codec/timestamp.js';
import { DecodeError } from './errors.js';
import { decodingOf, decodingPortOf, encodingOf, encodingPortOf, memoryStatsOf, streamingOf, stringsOf, typedOf } from './families.js';
import { current } from './instance.js';

export { simdSupported } from './loader.js';
export { DecodeError, FastmpError } from './errors.js';
export { ExtData, ExtensionCodec } from './codec/ext.js';
export { MapOf, Optional, mapOf, optional } from './codec/shape.js';
export { BoolArray, asBools } from './codec/typed.js';
export {
  EXT_TIMESTAMP, decodeTimestampExtension, decodeTimestampToTimeSpec, encodeDateToTimeSpec, encodeTimeSpecToTimestamp,
  encodeTimestampExtension,
} from './codec/timestamp.js';

/** 'simd' or 'scalar': the build that runs the default instance's kernels. */
export const backend = () => current().backend;

/**
 * Memory the default instance holds: `wasmMemory`, the size of its wasm
 * modules' linear memories, and `scratch`, the reused regions that inputs and
 * outputs pass through (each summed over the modules). Both only grow, and only until the largest input so far fits.
 */
export const memoryStats = () => memoryStatsOf(current());

// ---- typed arrays ---------------------------------------------------------------

/**
 * Packs a typed array as a standard msgpack array: floats as floats of the
 * array's own width (bit for bit), integers each in its smallest form.
 * Uint8Array and Uint8ClampedArray become msgpack `bin`, or with
 * { bin: false } an array of ints. Returns a new Uint8Array.
 */
export const pack = (x, options) => typedOf(current()).pack(x, options);

/**
 * Packs booleans as a msgpack array of false (0xc2) / true (0xc3): an array
 * of booleans, or a Uint8Array read as 0 = false, anything else = true.
 */
export const packBool = (x) => typedOf(current()).packBool(x);

/**
 * packBool() without the copy out (and, for an alloc() array, without the
 * copy in): a view of the output in wasm memory, valid as packView()'s.
 */
export const packBoolView = (x) => typedOf(current()).packBoolView(x);

/**
 * pack() into target[offset...] (a Uint8Array: yours, or an alloc() one);
 * returns the offset past the output. Allocates no output; an output longer
 * than the room left is a RangeError with the target unchanged.
 */
export const packInto = (x, target, offset, options) => typedOf(current()).packInto(x, target, offset, options);

/**
 * pack() without the copy out (and, for an alloc() array, without the copy
 * in either): the result is a view of the output in wasm memory, valid until
 * the next fastmp call (which may overwrite it; passing it to fastmp after
 * that is a FastmpError STALE). Send it or copy it (slice()) before then.
 */
export const packView = (x, options) => typedOf(current()).packView(x, options);

/**
 * Unpacks a msgpack array that fills the whole input into a new Type:
 * - Float32Array / Float64Array: any int or float form, as the nearest float;
 * - integer arrays: any int form whose value fits (else FastmpError RANGE);
 *   floats are a TYPE error unless options.integralFloats, which accepts
 *   floats that are exactly integral and in range;
 * - Uint8Array / Uint8ClampedArray: also a msgpack bin.
 * Bytes after the array are an error (TRAILING); see unpackFrom.
 */
export const unpack = (bytes, Type, options) => typedOf(current()).unpack(bytes, Type, options);

/** Unpacks the array (or bin) that starts at bytes[offset]; returns { value, end }. */
export const unpackFrom = (bytes, Type, offset, options) => typedOf(current()).unpackFrom(bytes, Type, offset, options);

/** Unpacks a msgpack array of booleans (0xc2 / 0xc3 only) into a Uint8Array of 0 / 1. */
export const unpackBool = (bytes) => typedOf(current()).unpackBool(bytes);

/** unpackBool for the array that starts at bytes[offset]; returns { value, end }. */
export const unpackBoolFrom = (bytes, offset) => typedOf(current()).unpackBoolFrom(bytes, offset);

/**
 * A typed array of n elements that lives in wasm memory: fill it, then pack()
 * or packView() it without the copy in. Valid until free(x); wasm memory growth
 * (a call with a larger input than any before, or another alloc()) detaches
 * the view — refresh(x) then returns a live one over the same elements.
 */
export const alloc = (Type, n) => typedOf(current()).alloc(Type, n);

/** Releases an array from alloc(). Using it (or any view of it) after is a FastmpError FREED. */
export const free = (x) => typedOf(current()).free(x);

/** A live view of an array from alloc(), after wasm memory growth detached the old one. */
export const refresh = (x) => typedOf(current()).refresh(x);

// ---- ASN.1 strings (js/strings.js) ----------------------------------------------

/** string | Uint16Array -> BMPString content (big-endian UCS-2). */
export const encodeBMP = (value) => stringsOf(current()).encodeBMP(value);
/** BMPString content -> string. */
export const decodeBMP = (bytes) => stringsOf(current()).decodeBMP(bytes);
/** BMPString content -> Uint16Array of its chars. */
export const decodeBMPToUint16 = (bytes) => stringsOf(current()).decodeBMPToUint16(bytes);
/** string | Uint16Array -> DER BMPString (tag 0x1E). */
export const writeBMPString = (value) => stringsOf(current()).writeBMPString(value);
/** The DER BMPString at bytes[offset] -> { value, end }. */
export const readBMPString = (bytes, offset) => stringsOf(current()).readBMPString(bytes, offset);

/** string | Uint16Array -> IA5String content (0x00-0x7F, one byte a char). */
export const encodeIA5 = (value) => stringsOf(current()).encodeIA5(value);
export const decodeIA5 = (bytes) => stringsOf(current()).decodeIA5(bytes);
export const decodeIA5ToUint16 = (bytes) => stringsOf(current()).decodeIA5ToUint16(bytes);
export const writeIA5String = (value) => stringsOf(current()).writeIA5String(value);
export const readIA5String = (bytes, offset) => stringsOf(current()).readIA5String(bytes, offset);

/** string | Uint16Array -> VisibleString content (0x20-0x7E, one byte a char). */
export const encodeVisible = (value) => stringsOf(current()).encodeVisible(value);
export const decodeVisible = (bytes) => stringsOf(current()).decodeVisible(bytes);
export const decodeVisibleToUint16 = (bytes) => stringsOf(current()).decodeVisibleToUint16(bytes);
export const writeVisibleString = (value) => stringsOf(current()).writeVisibleString(value);
export const readVisibleString = (bytes, offset) => stringsOf(current()).readVisibleString(bytes, offset);

/** string | Uint16Array -> PrintableString content (A-Z a-z 0-9 space ' ( ) + , - . / : = ?). */
export const encodePrintable = (value) => stringsOf(current()).encodePrintable(value);
export const decodePrintable = (bytes) => stringsOf(current()).decodePrintable(bytes);
export const decodePrintableToUint16 = (bytes) => stringsOf(current()).decodePrintableToUint16(bytes);
export const writePrintableString = (value) => stringsOf(current()).writePrintableString(value);
export const readPrintableString = (bytes, offset) => stringsOf(current()).readPrintableString(bytes, offset);

/** string | Uint16Array -> NumericString content (0-9 and space). */
export const encodeNumeric = (value) => stringsOf(current()).encodeNumeric(value);
export const decodeNumeric = (bytes) => stringsOf(current()).decodeNumeric(bytes);
export const decodeNumericToUint16 = (bytes) => stringsOf(current()).decodeNumericToUint16(bytes);
export const writeNumericString = (value) => stringsOf(current()).writeNumericString(value);
export const readNumericString = (bytes, offset) => stringsOf(current()).readNumericString(bytes, offset);

// ---- whole messages (js/codec/index.js documents the codec) -----------------------

/** A value as MessagePack: a new Uint8Array. Typed arrays become standard msgpack arrays by default. */
export const encode = (value, options) => encodingOf(current()).encode(value, options);
/** encode() into target[offset...]; returns the end offset. Allocates no output. */
export const encodeInto = (value, target, offset, options) => encodingOf(current()).encodeInto(value, target, offset, options);
/** The one value that fills `bytes`; `options.shape` decodes typed-array fields into typed arrays. */
export const decode = (bytes, options) => decodingOf(current()).decode(bytes, options);
/** The value at the start of `bytes` and where it ends: { value, end }. */
export const decodeFrom = (bytes, options) => decodingOf(current()).decodeFrom(bytes, options);
/** The values of `bytes`, one after another. */
export const decodeMulti = (bytes, options) => decodingOf(current()).decodeMulti(bytes, options);
/** One value from an async iterable of chunks (a Node stream, a web ReadableStream). */
export const decodeAsync = (stream, options) => streamingOf(current()).decodeAsync(stream, options);
/** The values of a stream as they complete. */
export const decodeMultiStream = (stream, options) => streamingOf(current()).decodeMultiStream(stream, options);
/** The elements of the one array a stream holds, as they complete. */
export const decodeArrayStream = (stream, options) => streamingOf(current()).decodeArrayStream(stream, options);

/** An Encoder of the default instance (as it is when the Encoder is made): reuse one on hot paths. */
export const Encoder = /* @__PURE__ */ bindPort(CodecEncoder, () => encodingPortOf(current()));

/** A Decoder of the default instance (as it is when the Decoder is made). */
export const Decoder = /* @__PURE__ */ bindPort(CodecDecoder, () => decodingPortOf(current()), STREAM_DECODERS);

/**
 * The message codec as one object, with @msgpack/msgpack's names: for
 * `import msgpack from 'fastmp-wasm'`, as code written against
 * @msgpack/msgpack's CommonJS build imports it. (Unused, a bundler drops it.)
 */
export default {
  encode, decode, decodeMulti, decodeAsync, decodeArrayStream, decodeMultiStream, Encoder, Decoder,
  ExtensionCodec, ExtData, DecodeError, EXT_TIMESTAMP, encodeDateToTimeSpec, encodeTimeSpecToTimestamp,
  decodeTimestampToTimeSpec, encodeTimestampExtension, decodeTimestampExtension,
};
