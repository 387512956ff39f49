// ext.js - msgpack extension types: ExtData and ExtensionCodec, with
// @msgpack/msgpack's interface and order (built-in types, negative, are tried
// before custom ones; an ExtData passes through as itself).

import { show } from './path.js';
import { timestampExtension } from './timestamp.js';

/** An extension value as it is on the wire: a type from -128 to 127 and its payload. */
export class ExtData {
  /**
   * @param {number} type
   * @param {Uint8Array | ((pos: number) => Uint8Array)} data the payload, or a
   *   function of the payload's position in the output that returns it (to align it)
   */
  constructor(type, data) {
    this.type = type;
    this.data = data;
  }
}

/**
 * @callback ExtensionEncoder
 * @param {unknown} value
 * @param {unknown} context the encoder's `context` option
 * @returns {Uint8Array | ((pos: number) => Uint8Array) | null | undefined}
 *   the payload, a function of its output position returning it (written as
 *   ext 32), or null/undefined when `value` is not this extension's
 */
/**
 * @callback ExtensionDecoder
 * @param {Uint8Array} data the payload (a view of the input)
 * @param {number} type
 * @param {unknown} context the decoder's `context` option
 * @returns {unknown}
 */

export class ExtensionCodec {
  /** The codec encode()/decode() use when no `extensionCodec` option is given (timestamps only). */
  static defaultCodec = new ExtensionCodec();

  constructor() {
    /** @type {(ExtensionEncoder|undefined)[]} */ this.builtInEncoders = [];
    /** @type {(ExtensionDecoder|undefined)[]} */ this.builtInDecoders = [];
    /** @type {(ExtensionEncoder|undefined)[]} */ this.encoders = [];
    /** @type {(ExtensionDecoder|undefined)[]} */ this.decoders = [];
    /** The built-in timestamp encoder handles Dates (the encoder then writes them itself). */
    this.nativeTimestamp = false;
    /** No encoder but that one: the encoder then calls nothing for other objects. */
    this.onlyTimestamps = false;
    this.register(timestampExtension);
  }

  /**
   * Adds (or replaces) the extension of `type`. Either function may be
   * null for a type only decoded or only encoded.
   * @param {{ type: number, encode?: ExtensionEncoder | null, decode?: ExtensionDecoder | null }} extension
   */
  register({ type, encode, decode }) {
    if (!Number.isInteger(type) || type < -128 || type > 127) {
      throw new TypeError(`fastmp: an extension type is an integer from -128 to 127, not ${show(type)}`);
    }
    for (const [name, fn] of [['encode', encode], ['decode', decode]]) {
      if (fn != null && typeof fn !== 'function') throw new TypeError(`fastmp: extension ${type}: ${name} must be a function`);
    }
    if (type >= 0) {
      this.encoders[type] = encode ?? undefined;
      this.decoders[type] = decode ?? undefined;
    } else {
      this.builtInEncoders[-1 - type] = encode ?? undefined;
      this.builtInDecoders[-1 - type] = decode ?? undefined;
    }
    this.nativeTimestamp = this.builtInEncoders[0] === timestampExtension.encode;
    this.onlyTimestamps = this.nativeTimestamp && this.builtInEncoders.every((e, i) => i === 0 || e == null)
      && this.encoders.every((e) => e == null);
  }

  /** Whether a decoder is registered for `type`. */
  decodes(type) {
    return (type < 0 ? this.builtInDecoders[-1 - type] : this.decoders[type]) != null;
  }


  /** The ExtData for `value`, or null when no extension takes it. */
  tryToEncode(value, context) {
    for (let i = 0; i < this.builtInEncoders.length; i++) {
      const encode = this.builtInEncoders[i];
      if (encode != null) {
        const data = encode(value, context);
        if (data != null) return new ExtData(-1 - i, data);
      }
    }
    for (let type = 0; type < this.encoders.length; type++) {
      const encode = this.encoders[type];
      if (encode != null) {
        const data = encode(value, context);
        if (data != null) return new ExtData(type, data);
      }
    }
    return value instanceof ExtData ? value : null;
  }

  /** The value of an extension; an ExtData when no decoder is registered for `type`. */
  decode(data, type, context) {
    const decode = type < 0 ? this.builtInDecoders[-1 - type] : this.decoders[type];
    return decode ? decode(data, type, context) : new ExtData(type, data);
  }
}

/**
 * What a codec, ours or @msgpack/msgpack's (the same fields), has registered:
 * a decoder for ext `type` (0 to 127; such a decoder decides, even when it
 * returns an ExtData of the payload), an encoder for timestamps (type -1).
 */
export const decodesExt = (codec, type) => codec.decoders?.[type] != null;
export const encodesTimestamps = (codec) => codec.builtInEncoders?.[0] != null;

/**
 * Whether decoding with `codec` may call a decoder of the caller's: any but
 * the built-in timestamp decoder, and any of a codec not of this class or
 * whose decode() is not this class's.
 */
export function decodesCallerCode(codec) {
  // (A subclass's own decode() is the caller's code, as a codec of another class is.)
  if (!(codec instanceof ExtensionCodec) || codec.decode !== ExtensionCodec.prototype.decode) return true;
  return codec.decoders.some((d) => d != null)
    || codec.builtInDecoders.some((d, i) => d != null && (i > 0 || d !== timestampExtension.decode));
}
