// encoding.js - the encoding half of the codec over a port: the Encoder class
// bound to it, and encode() / encodeInto(), which reuse one Encoder between
// calls. Apart from decoding.js so that an app that only encodes bundles no
// decoder.

import { bindPort } from './bind.js';
import { Encoder as BaseEncoder } from './encoder.js';

/**
 * The encoding functions over an encoding port (js/codec/port-contract.js).
 * (Without options, one Encoder serves every call; a call made during
 * another, from an extension, gets a fresh one of its own.)
 * @param {object | (() => object)} port
 */
export function makeEncoding(port) {
  const Encoder = bindPort(BaseEncoder, port);
  let shared = null;
  const encoderFor = (options) => (options === undefined ? (shared ??= new Encoder()) : new Encoder(options));
  return {
    Encoder,
    /**
     * @param {unknown} value
     * @param {import('./encoder.js').EncoderOptions} [options]
     * @returns {Uint8Array}
     */
    encode: (value, options) => encoderFor(options).encode(value),
    /**
     * @param {unknown} value
     * @param {Uint8Array} target
     * @param {number} [offset=0]
     * @param {import('./encoder.js').EncoderOptions} [options]
     * @returns {number} the end offset
     */
    encodeInto: (value, target, offset = 0, options = undefined) => encoderFor(options).encodeInto(value, target, offset),
  };
}
