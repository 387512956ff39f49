// decoding.js - decode() and decodeFrom() of a port (an instance's core,
// js/core.js, or the pure-JS port): each reaches a Decoder's method at once,
// a Decoder the port keeps between calls. Apart from encoding.js so that an
// app that only decodes bundles no encoder; the Decoders it makes have no
// extras (js/codec/decoder-extras.js), so that an app that never decodes a
// stream (nor makes a Decoder) bundles no stream code.

import { Decoder } from './decoder.js';
import { decodeMulti } from './decoder-inputs.js';
import { ExtensionCodec } from './ext.js';
import { decoderConfigOf, keep, keptFor, readDecoderOptions } from './options.js';

// How many Decoders the calls with options keep, one per distinct options.
const KEPT_DECODERS = 4;

/**
 * The Decoder a call of `port` with `options` runs on. Without options, one
 * Decoder serves decode() and decodeFrom(). With options, a call reuses the
 * Decoder of an earlier call that gave the same options (the latest
 * KEPT_DECODERS distinct ones; a shape compiles once per shape object in any
 * case), except for options with a `context` (per-call data, which keeping
 * would hold alive) or reuseTypedArrays (each call's arrays are its own:
 * only a Decoder of the caller's reuses them). A call made during another,
 * from an extension, gets a fresh Decoder of its own (Decoder.decode()).
 */
export function decoderOf(port, options) {
  if (options === undefined) return (port.decoder ??= new Decoder(undefined, port));
  const defaultCodec = ExtensionCodec.defaultCodec;
  const given = readDecoderOptions(options);
  const kept = port.decoders;
  const known = keptFor(kept, given, defaultCodec);
  if (known !== undefined) return known;
  const made = new Decoder(decoderConfigOf(given, defaultCodec), port);
  return made.config.context !== undefined || made.config.reuseTypedArrays ? made : keep(kept, made, KEPT_DECODERS);
}

/** decodeMulti() of a port: a Decoder of its own for the generator's life. */
export const decodeMultiOf = (port, bytes, options) => decodeMulti(new Decoder(options, port), bytes);
