// encoding.js - encode() and encodeInto() of a port (an instance's core,
// js/core.js, or the pure-JS port): each reaches an Encoder's method at once,
// an Encoder the port keeps between calls. Apart from decoding.js so that an
// app that only encodes bundles no decoder.

import { Encoder } from './encoder.js';
import { ExtensionCodec } from './ext.js';
import { encoderConfigOf, keep, keptFor, readEncoderOptions } from './options.js';

// How many Encoders the calls with options keep, one per distinct options.
const KEPT_ENCODERS = 4;

/**
 * The Encoder a call of `port` with `options` runs on. Without options, one
 * Encoder serves every call. With options, the call reuses the Encoder of an
 * earlier call whose options read the same (the latest KEPT_ENCODERS
 * distinct ones), as msgpackr's pack() reuses one Packr: an app that writes
 * encode(v, { typedArrays: 'bin' }) pays for its options once, not per call.
 * Options with a `context` are not kept (it is per-call data, and keeping it
 * would hold it alive). A call made during another, from an extension, gets
 * a fresh Encoder of its own (Encoder.encode()).
 */
export function encoderOf(port, options) {
  if (options === undefined) return (port.encoder ??= new Encoder(undefined, port));
  const defaultCodec = ExtensionCodec.defaultCodec;
  const given = readEncoderOptions(options);
  // The options as an earlier call gave them: no config to make.
  const kept = port.encoders;
  const known = keptFor(kept, given, defaultCodec);
  if (known !== undefined) return known;
  const config = encoderConfigOf(given, defaultCodec);
  for (let i = 0; i < kept.length; i++) if (kept[i].config.sameAs(config)) return kept[i];
  const made = new Encoder(config, port);
  return config.context !== undefined ? made : keep(kept, made, KEPT_ENCODERS);
}
