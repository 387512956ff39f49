// encoding.js - the module API's encoding functions, on the default instance
// (js/core.js current()): each reaches an Encoder's method at once. Each
// marks the pack module (js/surface.js), whose kernels write long
// typed-array fields, so that init() loads it.

import { PACK, current, uses } from '../core.js';
import { bindPort } from '../codec/bind.js';
import { Encoder as CodecEncoder } from '../codec/encoder.js';
import { ENCODER_OUTPUTS } from '../codec/encoder-outputs.js';
import { encoderOf } from '../codec/encoding.js';

/** A value as MessagePack: a new Uint8Array. Typed arrays become standard msgpack arrays by default. */
export const encode = /* @__PURE__ */ uses(PACK, (value, options) => encoderOf(current(), options).encode(value));

/** encode() into target[offset...]; returns the end offset. Allocates no output. */
export const encodeInto = /* @__PURE__ */ uses(PACK, (value, target, offset = 0, options = undefined) => ENCODER_OUTPUTS.encodeInto(encoderOf(current(), options), value, target, offset));

/** An Encoder of the default instance (as it is when the Encoder is made): reuse one on hot paths. */
export const Encoder = /* @__PURE__ */ uses(PACK, /* @__PURE__ */ bindPort(CodecEncoder, current, ENCODER_OUTPUTS));
