// surface.js - THE PUBLIC SURFACE, once: every function and class of an
// instance (the module API's, and createFastmp()'s methods), with the wasm
// module its calls may need (js/core.js loads it on a call's first need;
// init() loads those of the functions a program holds), or null for none.
// The module API (js/api/*.js, js/module-api.js), the inline entry
// (js/inline.js) and an instance's methods (js/instances.js) are written from
// it, and test/surface.test.js holds them and the declarations (js/index.d.ts)
// to it: what each exports, and which module each function marks and holds.

import { PACK, STRINGS, UNPACK } from './io.js';

const STRING_STEMS = ['BMP', 'IA5', 'Visible', 'Printable', 'Numeric'];

/** name -> the module its calls may need. */
export const SURFACE = Object.freeze({
  // typed arrays (js/typed.js)
  pack: PACK, packBool: PACK, packBoolView: PACK, packInto: PACK, packView: PACK, alloc: PACK, free: PACK, refresh: PACK,
  unpack: UNPACK, unpackFrom: UNPACK, unpackBool: UNPACK, unpackBoolFrom: UNPACK,
  // ASN.1 strings (js/strings.js)
  ...Object.fromEntries(STRING_STEMS.flatMap((k) => [`encode${k}`, `decode${k}`, `decode${k}ToUint16`, `write${k}String`, `read${k}String`].map((name) => [name, STRINGS]))),
  // whole messages (js/codec/)
  encode: PACK, encodeInto: PACK, Encoder: PACK,
  decode: UNPACK, decodeFrom: UNPACK, decodeMulti: UNPACK, decodeAsync: UNPACK, decodeMultiStream: UNPACK, decodeArrayStream: UNPACK, Decoder: UNPACK,
  // the instance itself
  backend: null, memoryStats: null,
});

/**
 * What the entries export besides an instance's functions: loading
 * (init, initSync, createFastmp, createFastmpSync, simdSupported), and what
 * no instance owns (errors, extensions, shapes, timestamps, booleans), and
 * `default` (@msgpack/msgpack's names as one object).
 */
export const MODULE_ONLY = Object.freeze([
  'init', 'initSync', 'createFastmp', 'createFastmpSync', 'simdSupported',
  'FastmpError', 'DecodeError', 'ExtData', 'ExtensionCodec', 'MapOf', 'Optional', 'mapOf', 'optional', 'BoolArray', 'asBools',
  'EXT_TIMESTAMP', 'decodeTimestampExtension', 'decodeTimestampToTimeSpec', 'encodeDateToTimeSpec', 'encodeTimeSpecToTimestamp',
  'encodeTimestampExtension', 'default',
]);
