// families.js - an instance's functions, family by family, each made on first
// use and kept on the instance's core (js/instance.js): the typed-array API
// (js/api.js), the ASN.1 strings (js/strings.js), and the codec's encoding and
// decoding halves over the instance's ports (js/port.js). The module-level
// functions (js/module-api.js) reach each family through its own accessor, so
// a bundler keeps only the families an app calls; an instance from
// createFastmp() has them all (makeInstance()).

import { makeTypedApi } from './api.js';
import { makeDecoding, makeStreaming } from './codec/decoding.js';
import { makeEncoding } from './codec/encoding.js';
import { decodingPort, encodingPort } from './port.js';
import { STRINGS, TYPED } from './modules.js';
import { STRING_FUNCTIONS, stringsApi } from './strings.js';
import { boundaryStats } from './wasm/index.js';

/** `core`, once its wasm module `module` is loaded (init() loads those of the families a program imports). */
const withModule = (core, module) => (core.need(module), core);

/** The core's ports (the contract: js/codec/port-contract.js), one per half of the codec. */
export const encodingPortOf = (core) => core.encodingPort ?? (core.encodingPort = encodingPort(withModule(core, TYPED)));
export const decodingPortOf = (core) => core.decodingPort ?? (core.decodingPort = decodingPort(withModule(core, TYPED)));

/** pack, unpack, alloc, … of the core. */
export const typedOf = (core) => core.typed ?? (core.typed = makeTypedApi(withModule(core, TYPED)));
/** encodeBMP, readIA5String, … of the core. */
export const stringsOf = (core) => core.strings ?? (core.strings = stringsApi(withModule(core, STRINGS)));

/** What memoryStats() reports: the sums over the core's wasm modules (js/wasm/index.js). */
export function memoryStatsOf(core) {
  const [a, b] = [core.boundary, core.stringsBoundary].map((x) => (x === null ? { wasmMemory: 0, scratch: 0 } : boundaryStats(x)));
  return { wasmMemory: a.wasmMemory + b.wasmMemory, scratch: a.scratch + b.scratch };
}
/** Encoder, encode, encodeInto of the core. */
export const encodingOf = (core) => core.encoding ?? (core.encoding = makeEncoding(encodingPortOf(core)));
/** decode, decodeFrom, decodeMulti of the core. */
export const decodingOf = (core) => core.decoding ?? (core.decoding = makeDecoding(decodingPortOf(core)));
/** Decoder and the stream decoders of the core. */
export const streamingOf = (core) => core.streaming ?? (core.streaming = makeStreaming(decodingPortOf(core)));

/** An instance's codec port, as a property of the instance (tests and tools reach the port by it). */
export const CODEC_PORT = Symbol('fastmp codec port');

/**
 * The string functions of an instance, each reaching the family on its call:
 * the string module then loads on first use (createFastmpSync() on a page,
 * given only the typed-array module, makes an instance whose string
 * functions ask for theirs).
 */
const lazyStrings = (core) => Object.fromEntries(STRING_FUNCTIONS.map((name) => [name, (a, b) => stringsOf(core)[name](a, b)]));

/** The instance createFastmp() returns: every family's functions, bound to `core`, in one frozen object. */
export function makeInstance(core) {
  const instance = {
    ...typedOf(core),
    backend: () => core.backend,
    memoryStats: () => memoryStatsOf(core),
    ...lazyStrings(core),
    ...encodingOf(core),
    ...decodingOf(core),
    ...streamingOf(core),
  };
  Object.defineProperty(instance, CODEC_PORT, { value: Object.freeze({ ...encodingPortOf(core), ...decodingPortOf(core) }) });
  return Object.freeze(instance);
}
