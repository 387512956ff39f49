// encoding.js - the encoding half of the codec over a port: the Encoder class
// bound to it, and encode() / encodeInto(), which reuse one Encoder between
// calls. Apart from decoding.js so that an app that only encodes bundles no
// decoder.

import { bindPort } from './bind.js';
import { Encoder as BaseEncoder } from './encoder.js';
import { ExtensionCodec } from './ext.js';
import { encoderConfigOf, keep, keptFor, readEncoderOptions } from './options.js';

// How many Encoders the calls with options keep, one per distinct options.
const KEPT_ENCODERS = 4;

/**
 * The encoding functions over an encoding port (js/codec/port-contract.js).
 * Without options, one Encoder serves every call. With options, the call
 * reuses the Encoder of an earlier call whose options read the same (the
 * latest KEPT_ENCODERS distinct ones), as msgpackr's pack() reuses one
 * Packr: an app that writes encode(v, { typedArrays: 'bin' }) pays for its
 * options once, not per call. Options with a `context` are not kept (it is
 * per-call data, and keeping it would hold it alive). A call made during
 * another, from an extension, gets a fresh Encoder of its own.
 * @param {object | (() => object)} port
 */
export function makeEncoding(port) {
  const Encoder = bindPort(BaseEncoder, port);
  let shared = null;
  const kept = [];
  function encoderFor(options) {
    if (options === undefined) return (shared ??= new Encoder());
    const defaultCodec = ExtensionCodec.defaultCodec;
    const given = readEncoderOptions(options);
    // The options as an earlier call gave them: no config to make.
    const known = keptFor(kept, given, defaultCodec);
    if (known !== undefined) return known;
    const config = encoderConfigOf(given, defaultCodec);
    for (let i = 0; i < kept.length; i++) if (kept[i].config.sameAs(config)) return kept[i];
    const made = new Encoder(config);
    return config.context !== undefined ? made : keep(kept, made, KEPT_ENCODERS);
  }
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
