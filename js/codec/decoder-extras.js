// decoder-extras.js - what a public Decoder class is given besides decode():
// decodeFrom() and decodeMulti() (js/codec/decoder-inputs.js) and the stream
// decoders (js/codec/stream.js). Apart from both, so that neither imports the
// other's code, and an app that calls only the module-level decode(),
// decodeFrom() or decodeMulti() bundles no stream decoding.

import { decodeFrom, decodeMulti } from './decoder-inputs.js';
import { decodeArrayStream, decodeAsync, decodeMultiStream } from './stream.js';

/** As js/codec/decoder.js `extras` takes it. */
export const DECODER_EXTRAS = /* @__PURE__ */ Object.freeze({ decodeFrom, decodeMulti, decodeAsync, decodeMultiStream, decodeArrayStream });
