// decoding.js - the decoding half of the codec over a port, as two families:
// the decode functions of whole inputs (decode() and decodeFrom() reuse a
// Decoder between calls; decodeMulti() makes its own), and the public Decoder
// class with the stream decoders. Apart from encoding.js so that an app that
// only decodes bundles no encoder; two families so that an app that never
// decodes a stream (nor makes a Decoder) bundles no stream code.

import { bindPort } from './bind.js';
import { Decoder as BaseDecoder } from './decoder.js';
import { ExtensionCodec } from './ext.js';
import { decoderConfigOf, keep, keptFor, readDecoderOptions } from './options.js';
import { STREAM_DECODERS } from './stream.js';

// How many Decoders the calls with options keep, one per distinct options.
const KEPT_DECODERS = 4;

/**
 * The functions that decode whole inputs over a decoding port (js/codec/port-contract.js).
 * Without options, one Decoder serves decode() and decodeFrom(). With
 * options, a call reuses the Decoder of an earlier call that gave the same
 * options (the latest KEPT_DECODERS distinct ones; a shape compiles once per
 * shape object in any case), except for options with a `context` (per-call
 * data, which keeping would hold alive) or reuseTypedArrays (each call's
 * arrays are its own: only a Decoder of the caller's reuses them). A call
 * made during another, from an extension, gets a fresh Decoder of its own.
 * @param {object | (() => object)} port
 */
export function makeDecoding(port) {
  // Its Decoders never leave these functions: they need no stream decoders.
  const Decoder = bindPort(BaseDecoder, port);
  let shared = null;
  const kept = [];
  function decoderFor(options) {
    if (options === undefined) return (shared ??= new Decoder());
    const defaultCodec = ExtensionCodec.defaultCodec;
    const given = readDecoderOptions(options);
    const known = keptFor(kept, given, defaultCodec);
    if (known !== undefined) return known;
    const made = new Decoder(decoderConfigOf(given, defaultCodec));
    return made.config.context !== undefined || made.config.reuseTypedArrays ? made : keep(kept, made, KEPT_DECODERS);
  }
  return {
    /**
     * @param {Uint8Array|ArrayBufferLike|ArrayLike<number>} bytes
     * @param {import('./decoder.js').DecoderOptions} [options]
     */
    decode: (bytes, options) => decoderFor(options).decode(bytes),
    /**
     * @param {Uint8Array|ArrayBufferLike|ArrayLike<number>} bytes
     * @param {import('./decoder.js').DecoderOptions} [options]
     * @returns {{ value: unknown, end: number }}
     */
    decodeFrom: (bytes, options) => decoderFor(options).decodeFrom(bytes, 0),
    /**
     * @param {Uint8Array|ArrayBufferLike|ArrayLike<number>} bytes
     * @param {import('./decoder.js').DecoderOptions} [options]
     * @returns {Generator<unknown, void, unknown>}
     */
    decodeMulti: (bytes, options) => new Decoder(options).decodeMulti(bytes),
  };
}

/**
 * The public Decoder class over a decoding port, whose Decoders decode
 * streams too, and the stream decoders.
 * @param {object | (() => object)} port
 */
export function makeStreaming(port) {
  const Decoder = bindPort(BaseDecoder, port, STREAM_DECODERS);
  return {
    Decoder,
    /** @returns {Promise<unknown>} */
    decodeAsync: (stream, options) => new Decoder(options).decodeAsync(stream),
    /** @returns {AsyncGenerator<unknown, void, unknown>} */
    decodeMultiStream: (stream, options) => new Decoder(options).decodeStream(stream),
    /** @returns {AsyncGenerator<unknown, void, unknown>} */
    decodeArrayStream: (stream, options) => new Decoder(options).decodeArrayStream(stream),
  };
}
