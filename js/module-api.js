// module-api.js - the module-level API: every function of js/surface.js on
// the default instance (js/core.js current()), family by family in js/api/
// (so that a bundler keeps only the families an app calls, each marking the
// wasm module its calls may need), and what no instance owns. The entries
// add how the default instance finds its wasm: js/index.js and js/node.js
// the sibling .wasm files, js/inline.js the inlined ones. Keeping the
// loaders out of this file keeps the sibling files out of the inline
// entry's module graph, so that a bundler emits no .wasm for it.

import { current, statsOf } from './core.js';
import { decode, decodeMulti } from './api/decoding.js';
import { Encoder, encode } from './api/encoding.js';
import { Decoder, decodeArrayStream, decodeAsync, decodeMultiStream } from './api/streaming.js';
import { DecodeError } from './errors.js';
import { ExtData, ExtensionCodec } from './codec/ext.js';
import {
  EXT_TIMESTAMP, decodeTimestampExtension, decodeTimestampToTimeSpec, encodeDateToTimeSpec, encodeTimeSpecToTimestamp,
  encodeTimestampExtension,
} from './codec/timestamp.js';

export * from './api/typed.js';
export * from './api/strings.js';
export * from './api/encoding.js';
export * from './api/decoding.js';
export * from './api/streaming.js';
export { simdSupported } from './loader.js';
export { DecodeError, FastmpError } from './errors.js';
export { ExtData, ExtensionCodec } from './codec/ext.js';
export { MapOf, Optional, mapOf, optional } from './codec/shape.js';
export { BoolArray, asBools } from './codec/typed.js';
export {
  EXT_TIMESTAMP, decodeTimestampExtension, decodeTimestampToTimeSpec, encodeDateToTimeSpec, encodeTimeSpecToTimestamp,
  encodeTimestampExtension,
} from './codec/timestamp.js';

/** 'simd' or 'scalar': the build of the default instance's kernels ('js': none, where wasm cannot run or was not asked for). */
export const backend = () => current().builtAs();

/**
 * Memory the default instance holds: `wasmMemory`, the size of its wasm
 * memory, and `scratch`, the reused region that inputs and outputs pass
 * through. Both only grow, and only until the largest input so far fits.
 */
export const memoryStats = () => statsOf(current());

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
