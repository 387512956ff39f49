// families.js - an instance's functions, family by family, each made on first
// use and kept on the instance's core (js/instance.js): the typed-array API
// (js/api.js), the ASN.1 strings (js/strings.js), and the codec's encoding and
// decoding halves over the instance's port (js/port.js). The module-level
// functions (js/module-api.js) reach each family through its own accessor, so
// a bundler keeps only the families an app calls; an instance from
// createFastmp() has them all (makeInstance()).

import { makeTypedApi } from './api.js';
import { makeDecoding } from './codec/decoding.js';
import { makeEncoding } from './codec/encoding.js';
import { makePort } from './port.js';
import { stringsApi } from './strings.js';

/** The core's codec port (the contract: js/codec/port-js.js). */
export const portOf = (core) => core.port ?? (core.port = makePort(core));
/** pack, unpack, alloc, … of the core. */
export const typedOf = (core) => core.typed ?? (core.typed = makeTypedApi(core));
/** encodeBMP, readIA5String, … of the core. */
export const stringsOf = (core) => core.strings ?? (core.strings = stringsApi(core));
/** Encoder, encode, encodeInto of the core. */
export const encodingOf = (core) => core.encoding ?? (core.encoding = makeEncoding(portOf(core)));
/** Decoder, decode, decodeFrom, decodeMulti and the stream decoders of the core. */
export const decodingOf = (core) => core.decoding ?? (core.decoding = makeDecoding(portOf(core)));

/** An instance's codec port, as a property of the instance (tests and tools reach the port by it). */
export const CODEC_PORT = Symbol('fastmp codec port');

/** The instance createFastmp() returns: every family's functions, bound to `core`, in one frozen object. */
export function makeInstance(core) {
  const instance = {
    ...typedOf(core),
    backend: () => core.backend,
    memoryStats: () => core.boundary.stats(),
    ...stringsOf(core),
    ...encodingOf(core),
    ...decodingOf(core),
  };
  Object.defineProperty(instance, CODEC_PORT, { value: portOf(core) });
  return Object.freeze(instance);
}
