// streaming.js - the module API's Decoder class and stream decoders, on the
// default instance (js/core.js current()). Apart from decoding.js so that an
// app that never decodes a stream (nor makes a Decoder) bundles no stream
// code. Each marks the unpack module (js/surface.js).

import { UNPACK, current, uses } from '../core.js';
import { bindPort } from '../codec/bind.js';
import { Decoder as CodecDecoder } from '../codec/decoder.js';
import { DECODER_EXTRAS } from '../codec/decoder-extras.js';
import * as streams from '../codec/stream.js';

/** A Decoder of the default instance (as it is when the Decoder is made). */
export const Decoder = /* @__PURE__ */ uses(UNPACK, /* @__PURE__ */ bindPort(CodecDecoder, current, DECODER_EXTRAS));

/** One value from an async iterable of chunks (a Node stream, a web ReadableStream); bad options reject, as the stream's errors do. */
export const decodeAsync = /* @__PURE__ */ uses(UNPACK, async (stream, options) => streams.decodeAsync(new CodecDecoder(options, current()), stream));

/** The values of a stream as they complete. */
export const decodeMultiStream = /* @__PURE__ */ uses(UNPACK, (stream, options) => streams.decodeMultiStream(new CodecDecoder(options, current()), stream));

/** The elements of the one array a stream holds, as they complete. */
export const decodeArrayStream = /* @__PURE__ */ uses(UNPACK, (stream, options) => streams.decodeArrayStream(new CodecDecoder(options, current()), stream));
