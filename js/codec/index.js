// index.js - the message codec's public surface.
//
// A complete MessagePack codec with @msgpack/msgpack's names, defaults and
// options, plus typed arrays inside messages (written by the port's kernels
// straight into the output) and decoding into typed arrays by shape.
//
//   encode(value, options?) -> Uint8Array            a new array with its own ArrayBuffer
//   encodeInto(value, target, offset = 0, options?) -> number
//                                                    the end offset; nothing allocated for the
//                                                    output; RangeError (err.needed) when it does not fit
//   decode(bytes, options?) -> unknown               exactly one value (bytes after it: TRAILING)
//   decodeFrom(bytes, options?) -> { value, end }    the value at bytes[0] and where it ends
//   decodeMulti(bytes, options?) -> Generator        values one after another
//   decodeAsync(stream, options?) -> Promise         one value from an async iterable of chunks
//   decodeMultiStream(stream, options?) -> AsyncGenerator     values as they complete
//   decodeArrayStream(stream, options?) -> AsyncGenerator     one array's elements as they complete
//        (stream: an AsyncIterable of Uint8Array / ArrayBuffer / byte arrays, or a web ReadableStream)
//   new Encoder(options?)   .encode(v) .encodeInto(v, target, offset?) .encodeSharedRef(v)
//   new Decoder(options?)   .decode(b) .decodeFrom(b, offset?) .decodeMulti(b)
//                           .decodeAsync(s) .decodeStream(s) .decodeArrayStream(s)
//        (both keep their buffers between calls; reuse them on hot paths)
//   new ExtensionCodec()    .register({ type, encode, decode })   encode may return a
//                           Uint8Array, a function (pos) => Uint8Array (written as ext 32,
//                           pos = the payload's offset in the output), or null
//   ExtData(type, data)     an ext value as it is (unregistered types decode to one)
//   EXT_TIMESTAMP, encodeDateToTimeSpec, encodeTimeSpecToTimestamp,
//   decodeTimestampToTimeSpec, encodeTimestampExtension, decodeTimestampExtension
//   asBools(u8) -> BoolArray     marks bytes as booleans: written as an array of true/false
//   mapOf(shape) -> MapOf        a shape: every value of this map has this shape
//   optional(shape) -> Optional  a shape: this field of a map may be absent, or nil
//   makeCodec(port) -> { encode, encodeInto, decode, ..., Encoder, Decoder }
//                                the same API over another port (js/codec/port-contract.js)
//   jsPort                       the pure-JS port (the default)
//
// Encoder options (defaults): extensionCodec, context, useBigInt64 (false), maxDepth (100),
// initialBufferSize (2048), sortKeys (false), forceFloat32 (false), ignoreUndefined (false),
// forceIntegerToFloat (false), typedArrays ('array' | 'ext' | 'bin'; 'array').
// Decoder options: extensionCodec, context, useBigInt64, rawStrings, maxStrLength,
// maxBinLength, maxArrayLength, maxMapLength, maxExtLength (all 2^32-1), keyDecoder,
// mapKeyConverter, maxDepth (100), shape, integralFloats (false).
// Unknown option keys and wrong types are TypeErrors; each option is read once.
//
// Typed arrays (encode): a Uint8Array (a Buffer) is always a bin. Every other typed array
// at any depth is, by `typedArrays`: 'array' a standard msgpack array exactly as
// pack(x, { bin: false }) writes it (floats as float32/float64 bit for bit, integers
// each in its smallest form); 'ext' msgpackr's typed-array ext 0x74 (what msgpackr's
// moreTypes writes); 'bin' its raw bytes (what @msgpack/msgpack writes). A DataView
// (and any other view) is a bin. asBools(u8) is an array of booleans in every mode.
//
// Shapes (decode): { shape } mirrors the message. Float32Array (any type of js/kinds.js)
// at a position reads a numeric msgpack array there into that typed array (range-checked
// as unpack() does), or a bin of whole elements (little-endian), or a typed-array ext
// 0x74 of that type; Boolean (or BoolArray) reads an array of booleans into a Uint8Array
// of 0 / 1; [S] is an array of S; { key: S } a map whose listed keys have their shapes
// (other keys decode as usual), each of which must be there (MISSING) unless it is
// optional(S) (absent, or nil: null); mapOf(S) a map whose every value is S. Anything
// else at a shaped position is a DecodeError TYPE. Shapes are compiled once (cached per object).
// Without a shape, ext 0x74 decodes to its typed array (as msgpackr does).
//
// Errors: bad input is a FastmpError with `code`, `offset` (byte offset of the value
// at fault), `index` (element index inside a typed array, else -1) and `path` ('$.a[3].b',
// also at the start of the message); from the decoder a DecodeError, and a RangeError too
// where the input ends early or goes on (TRUNCATED, LENGTH, TRAILING: errors.js).
// Messages carry @msgpack/msgpack's phrase for the same situation. Codes: TRUNCATED (input ends inside a value),
// LENGTH (a length claims more bytes than are left; nothing is allocated for it; encode:
// a str, bin or ext beyond 2^32-1 bytes),
// TRAILING (decode(): bytes after the value), TAG (0xc1), MAX_LENGTH (beyond a max*Length
// option), DEPTH (beyond maxDepth, encode or decode; cyclic values end here), UTF8 (a str
// that is not UTF-8), KEY (a map key that is not a string or number, or is __proto__),
// EXT (a malformed timestamp or typed-array ext), UNSUPPORTED (msgpackr records, ext 0x72),
// TYPE (a shaped position holds something else; encode: a value nothing can encode),
// MISSING (a map lacks a field its shape names),
// RANGE (a shaped integer out of range; encode: a BigInt beyond 64 bits). Inside a shaped
// array the element's `index` is set, with unpack()'s wording. TRUNCATED and LENGTH from
// the decoder carry `needed`: the input length that could complete the value. In streams,
// offsets count from the value at fault, which starts at byte `streamOffset` of the stream.
// Misuse (a bad option, an input that is not bytes, an encodeInto target too small) is a
// TypeError / RangeError, never a FastmpError.

import { bindPort } from './bind.js';
import { ExtData, ExtensionCodec } from './ext.js';
import { makeCodec } from './make.js';
import { jsPort } from './port-js.js';
import { MapOf, Optional, mapOf, optional } from './shape.js';
import { BoolArray, asBools } from './typed.js';

export {
  EXT_TIMESTAMP, decodeTimestampExtension, decodeTimestampToTimeSpec, encodeDateToTimeSpec,
  encodeTimeSpecToTimestamp, encodeTimestampExtension,
} from './timestamp.js';
export { DecodeError, FastmpError } from '../errors.js';
export { BoolArray, ExtData, ExtensionCodec, MapOf, Optional, asBools, bindPort, jsPort, makeCodec, mapOf, optional };

/** The codec over the pure-JS port. */
export const {
  encode, encodeInto, decode, decodeFrom, decodeMulti, decodeAsync, decodeMultiStream, decodeArrayStream,
  Encoder, Decoder,
} = makeCodec(jsPort);
