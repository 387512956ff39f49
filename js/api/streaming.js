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

/** One value from an async iterable of chunks (a Node stream, a web ReadableStream). */
export const decodeAsync = /* @__PURE__ */ uses(UNPACK, (stream, options) => streams.decodeAsyncOn(current(), stream, options));

/** The values of a stream as they complete. */
export const decodeMultiStream = /* @__PURE__ */ uses(UNPACK, (stream, options) => streams.decodeMultiStreamOn(current(), stream, options));

/** The elements of the one array a stream holds, as they complete. */
export const decodeArrayStream = /* @__PURE__ */ uses(UNPACK, (stream, options) => streams.decodeArrayStreamOn(current(), stream, options));
