// decoding.js - the module API's functions that decode whole inputs, on the
// default instance (js/core.js current()): each reaches a Decoder's method
// at once. Each marks the unpack module (js/surface.js), whose kernels read
// long shaped fields, so that init() loads it.

import { UNPACK, current, uses } from '../core.js';
import { decodeMultiOf, decoderOf } from '../codec/decoding.js';
import { decodeFrom as decodeFromOf } from '../codec/decoder-inputs.js';

/** The one value that fills `bytes`; `options.shape` decodes typed-array fields into typed arrays. */
export const decode = /* @__PURE__ */ uses(UNPACK, (bytes, options) => decoderOf(current(), options).decode(bytes));

/** The value at the start of `bytes` and where it ends: { value, end }. */
export const decodeFrom = /* @__PURE__ */ uses(UNPACK, (bytes, options) => decodeFromOf(decoderOf(current(), options), bytes, 0));

/** The values of `bytes`, one after another. */
export const decodeMulti = /* @__PURE__ */ uses(UNPACK, (bytes, options) => decodeMultiOf(current(), bytes, options));
