// make.js - makeCodec(port): the message codec's functions and classes over
// one port, written once for the pure-JS codec (js/codec/index.js) and for an
// instance's methods (js/instances.js). The module API keeps a function per
// name (js/api/) so that a page bundles only what it calls; those call the
// same functions.

import { bindPort } from './bind.js';
import { Decoder } from './decoder.js';
import { DECODER_EXTRAS } from './decoder-extras.js';
import { decodeFrom } from './decoder-inputs.js';
import { decodeMultiOf, decoderOf } from './decoding.js';
import { Encoder } from './encoder.js';
import { ENCODER_OUTPUTS } from './encoder-outputs.js';
import { encoderOf } from './encoding.js';
import { decodeArrayStreamOn, decodeAsyncOn, decodeMultiStreamOn } from './stream.js';

/**
 * The codec over a port (an instance's core, or the pure-JS port): classes
 * bound to it, and functions that reuse the port's Encoder and Decoder
 * between calls, as the module API's do.
 * @param {import('./port-contract.js').Port} port
 */
export const makeCodec = (port) => ({
  Encoder: bindPort(Encoder, port, ENCODER_OUTPUTS),
  Decoder: bindPort(Decoder, port, DECODER_EXTRAS),
  encode: (value, options) => encoderOf(port, options).encode(value),
  encodeInto: (value, target, offset = 0, options = undefined) => ENCODER_OUTPUTS.encodeInto(encoderOf(port, options), value, target, offset),
  decode: (bytes, options) => decoderOf(port, options).decode(bytes),
  decodeFrom: (bytes, options) => decodeFrom(decoderOf(port, options), bytes, 0),
  decodeMulti: (bytes, options) => decodeMultiOf(port, bytes, options),
  decodeAsync: (stream, options) => decodeAsyncOn(port, stream, options),
  decodeMultiStream: (stream, options) => decodeMultiStreamOn(port, stream, options),
  decodeArrayStream: (stream, options) => decodeArrayStreamOn(port, stream, options),
});
