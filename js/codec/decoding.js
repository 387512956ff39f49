// decoding.js - the decoding half of the codec over a port: the Decoder class
// bound to it, and the decode functions (decode() and decodeFrom() reuse one
// Decoder between calls; the others make their own). Apart from encoding.js
// so that an app that only decodes bundles no encoder.

import { bindPort } from './bind.js';
import { Decoder as BaseDecoder } from './decoder.js';

/**
 * The decoding functions over a decoding port (js/codec/port-contract.js).
 * (Without options, one Decoder serves decode() and decodeFrom(); a call made
 * during another, from an extension, gets a fresh one of its own.)
 * @param {object | (() => object)} port
 */
export function makeDecoding(port) {
  const Decoder = bindPort(BaseDecoder, port);
  let shared = null;
  const decoderFor = (options) => (options === undefined ? (shared ??= new Decoder()) : new Decoder(options));
  return {
    Decoder,
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
    /** @returns {Promise<unknown>} */
    decodeAsync: (stream, options) => new Decoder(options).decodeAsync(stream),
    /** @returns {AsyncGenerator<unknown, void, unknown>} */
    decodeMultiStream: (stream, options) => new Decoder(options).decodeStream(stream),
    /** @returns {AsyncGenerator<unknown, void, unknown>} */
    decodeArrayStream: (stream, options) => new Decoder(options).decodeArrayStream(stream),
  };
}
