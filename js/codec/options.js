// options.js - the encoder's and decoder's options, read once, and their input. Every option
// is read from the caller's object exactly once (a getter runs once), checked,
// and copied into a frozen plain config object; nothing reads the caller's
// object again. Unknown own keys and wrong types are TypeErrors naming the key.

import {
  ANY, asBytes, isArrayBuffer, isSharedArrayBuffer, optionsOf, ownView, readGiven, typedArrayName,
  usableLength, usableView, viewBytes,
} from '../args.js';
import { show } from './path.js';
import { compileShape } from './shape.js';

/** @msgpack/msgpack's defaults. */
export const DEFAULT_MAX_DEPTH = 100;
export const DEFAULT_INITIAL_BUFFER_SIZE = 2048;
export const UINT32_MAX = 0xffffffff;

/** The ways a typed array (other than Uint8Array) can be written. */
export const TYPED_ARRAY_MODES = Object.freeze(['array', 'ext', 'bin']);

export const ENCODER_KEYS = [
  'extensionCodec', 'context', 'useBigInt64', 'maxDepth', 'initialBufferSize', 'sortKeys',
  'forceFloat32', 'ignoreUndefined', 'forceIntegerToFloat', 'typedArrays',
];
export const DECODER_KEYS = [
  'extensionCodec', 'context', 'useBigInt64', 'rawStrings', 'maxStrLength', 'maxBinLength',
  'maxArrayLength', 'maxMapLength', 'maxExtLength', 'keyDecoder', 'mapKeyConverter', 'maxDepth',
  'shape', 'integralFloats', 'reuseTypedArrays',
];

// Every key is taken as given by args.js readGiven(); its type is checked below.
const ENCODER_SPEC = Object.fromEntries(ENCODER_KEYS.map((key) => [key, ANY]));
const DECODER_SPEC = /* @__PURE__ */ (() => Object.fromEntries(DECODER_KEYS.map((key) => [key, ANY])))();

// Checked options, frozen: an Encoder/Decoder given one (its clone) takes it
// as it is. Each is made by its constructor, field by field (a literal
// assigned onto one costs several times as much, and an Encoder is made per
// call of encode() with new options).

/**
 * Whether options read as `given` (readEncoderOptions(), readDecoderOptions()),
 * with `defaultCodec` as ExtensionCodec.defaultCodec, make `config`: the same
 * keys in the same order with the very same values (each was checked when
 * the config was made; a shape compiles once per shape object). Allocates
 * nothing: what encode() and decode() with options ask first of the
 * Encoders and Decoders they keep.
 */
export function madeFrom(config, given, defaultCodec) {
  const mine = config.given;
  if (mine.length !== given.length || config.defaultCodec !== defaultCodec) return false;
  for (let i = 0; i < given.length; i++) if (mine[i] !== given[i]) return false;
  return true;
}

/** Of `kept` (Encoders or Decoders), the one whose config options read as `given` make (madeFrom()), or undefined. */
export function keptFor(kept, given, defaultCodec) {
  for (let i = 0; i < kept.length; i++) if (madeFrom(kept[i].config, given, defaultCodec)) return kept[i];
  return undefined;
}

/** `made`, kept in `kept` (the oldest let go beyond `most`). */
export function keep(kept, made, most) {
  if (kept.length === most) kept.shift();
  kept.push(made);
  return made;
}

class EncoderConfig {
  constructor(o, defaultCodec, typedArrays, given) {
    this.given = Object.freeze(given);
    this.defaultCodec = defaultCodec;
    this.extensionCodec = codecOption(o.extensionCodec, defaultCodec, 'tryToEncode');
    this.context = o.context;
    this.useBigInt64 = flag(o.useBigInt64, 'useBigInt64');
    this.maxDepth = count(o.maxDepth, DEFAULT_MAX_DEPTH, 'maxDepth');
    this.initialBufferSize = bufferSize(o.initialBufferSize);
    this.sortKeys = flag(o.sortKeys, 'sortKeys');
    this.forceFloat32 = flag(o.forceFloat32, 'forceFloat32');
    this.ignoreUndefined = flag(o.ignoreUndefined, 'ignoreUndefined');
    this.forceIntegerToFloat = flag(o.forceIntegerToFloat, 'forceIntegerToFloat');
    this.typedArrays = typedArrays;
    Object.freeze(this);
  }

  /** Whether `c` asks for the same output: every option the same (objects: the very same). Field by field, as fast as the lookup needs. */
  sameAs(c) {
    return this.typedArrays === c.typedArrays && this.extensionCodec === c.extensionCodec && this.context === c.context
      && this.useBigInt64 === c.useBigInt64 && this.maxDepth === c.maxDepth && this.initialBufferSize === c.initialBufferSize
      && this.sortKeys === c.sortKeys && this.forceFloat32 === c.forceFloat32 && this.ignoreUndefined === c.ignoreUndefined
      && this.forceIntegerToFloat === c.forceIntegerToFloat;
  }
}

class DecoderConfig {
  constructor(o, defaultCodec, mapKeyConverter, given) {
    this.given = Object.freeze(given);
    this.defaultCodec = defaultCodec;
    this.extensionCodec = codecOption(o.extensionCodec, defaultCodec, 'decode');
    this.context = o.context;
    this.useBigInt64 = flag(o.useBigInt64, 'useBigInt64');
    this.rawStrings = flag(o.rawStrings, 'rawStrings');
    this.maxStrLength = count(o.maxStrLength, UINT32_MAX, 'maxStrLength');
    this.maxBinLength = count(o.maxBinLength, UINT32_MAX, 'maxBinLength');
    this.maxArrayLength = count(o.maxArrayLength, UINT32_MAX, 'maxArrayLength');
    this.maxMapLength = count(o.maxMapLength, UINT32_MAX, 'maxMapLength');
    this.maxExtLength = count(o.maxExtLength, UINT32_MAX, 'maxExtLength');
    this.keyDecoder = keyDecoderOption(o.keyDecoder);
    this.mapKeyConverter = mapKeyConverter ?? null;
    this.maxDepth = count(o.maxDepth, DEFAULT_MAX_DEPTH, 'maxDepth');
    this.shape = o.shape === undefined ? null : compileShape(o.shape);
    this.integralFloats = flag(o.integralFloats, 'integralFloats');
    this.reuseTypedArrays = reuseOption(o.reuseTypedArrays, o.shape);
    Object.freeze(this);
  }
}

/**
 * The encoder config from `options` (undefined: all defaults).
 * @param {object} [options]
 * @param {object} defaultCodec the ExtensionCodec used when none is given
 */
export function encoderConfig(options, defaultCodec) {
  if (options instanceof EncoderConfig) return options;
  return encoderConfigOf(readEncoderOptions(options), defaultCodec);
}

/** The encoder options given, each read once (args.js readGiven(); null counts as none). */
export const readEncoderOptions = (options) => readGiven(options === null ? undefined : options, 'Encoder', ENCODER_SPEC);

/** The encoder config of options read by readEncoderOptions(). */
export function encoderConfigOf(given, defaultCodec) {
  const o = optionsOf(given);
  const typedArrays = o.typedArrays ?? 'array';
  if (!TYPED_ARRAY_MODES.includes(typedArrays)) {
    throw new TypeError(`fastmp: option typedArrays must be 'array', 'ext' or 'bin', not ${show(typedArrays)}`);
  }
  return new EncoderConfig(o, defaultCodec, typedArrays, given);
}

/**
 * The decoder config from `options` (undefined: all defaults).
 * @param {object} [options]
 * @param {object} defaultCodec the ExtensionCodec used when none is given
 */
export function decoderConfig(options, defaultCodec) {
  if (options instanceof DecoderConfig) return options;
  return decoderConfigOf(readDecoderOptions(options), defaultCodec);
}

/** The decoder options given, each read once (args.js readGiven(); null counts as none). */
export const readDecoderOptions = (options) => readGiven(options === null ? undefined : options, 'Decoder', DECODER_SPEC);

/** The decoder config of options read by readDecoderOptions(). */
export function decoderConfigOf(given, defaultCodec) {
  const o = optionsOf(given);
  const mapKeyConverter = o.mapKeyConverter;
  if (mapKeyConverter !== undefined && typeof mapKeyConverter !== 'function') {
    throw new TypeError(`fastmp: option mapKeyConverter must be a function, not ${show(mapKeyConverter)}`);
  }
  return new DecoderConfig(o, defaultCodec, mapKeyConverter, given);
}

/** reuseTypedArrays: a flag, which only a shape gives anything to reuse. */
function reuseOption(v, shape) {
  const reuse = flag(v, 'reuseTypedArrays');
  if (reuse && shape === undefined) {
    throw new TypeError('fastmp: option reuseTypedArrays reuses the typed arrays that a shape decodes: give a shape too');
  }
  return reuse;
}

function flag(v, name) {
  if (v === undefined) return false;
  if (typeof v !== 'boolean') throw new TypeError(`fastmp: option ${name} must be a boolean, not ${show(v)}`);
  return v;
}

/** A limit: a non-negative integer or Infinity. */
function count(v, fallback, name) {
  if (v === undefined) return fallback;
  if (typeof v !== 'number' || !(v >= 0) || (v !== Infinity && !Number.isInteger(v))) {
    throw new TypeError(`fastmp: option ${name} must be a non-negative integer, not ${show(v)}`);
  }
  return v;
}

function bufferSize(v) {
  if (v === undefined) return DEFAULT_INITIAL_BUFFER_SIZE;
  if (!Number.isSafeInteger(v) || v < 1 || v > 2 ** 31) {
    throw new TypeError(`fastmp: option initialBufferSize must be an integer from 1 to 2^31, not ${show(v)}`);
  }
  return v;
}

/** An extension codec: any object with the method this direction calls (ours, or @msgpack/msgpack's). */
function codecOption(v, fallback, method) {
  if (v === undefined || v === null) return fallback;
  if (typeof v !== 'object' || typeof v[method] !== 'function') {
    throw new TypeError(`fastmp: option extensionCodec must be an ExtensionCodec, not ${show(v)}`);
  }
  return v;
}

/** keyDecoder: undefined (the shared cache), null (no cache) or { canBeCached, decode }. */
function keyDecoderOption(v) {
  if (v === undefined || v === null) return v;
  if (typeof v !== 'object' || typeof v.canBeCached !== 'function' || typeof v.decode !== 'function') {
    throw new TypeError(`fastmp: option keyDecoder must be null or an object with canBeCached() and decode(), not ${show(v)}`);
  }
  return v;
}

/**
 * For an input that holds bytes without being them (a fetch Response, a Blob,
 * a stream): how to get them, or ''. Asked with instanceof and `in` only
 * (no getter of the input runs).
 */
function notBytesHint(input) {
  if (input === null || typeof input !== 'object') return '';
  if (typeof Response === 'function' && input instanceof Response) {
    return ': a fetch Response: decode(new Uint8Array(await res.arrayBuffer())), or decodeAsync(res.body) to decode it as it arrives';
  }
  if (typeof Blob === 'function' && input instanceof Blob) return ': a Blob: decode(new Uint8Array(await blob.arrayBuffer()))';
  if (Symbol.asyncIterator in input || (typeof ReadableStream === 'function' && input instanceof ReadableStream)) {
    return ': a stream: decodeAsync(stream) reads one value from it (decodeMultiStream(), decodeArrayStream() more)';
  }
  return '';
}

/**
 * Input bytes, as an own Uint8Array view read through the intrinsic getters
 * (any realm; a lying subclass or Buffer cannot change what is read): a
 * Uint8Array is read in place; any other ArrayBuffer view or an ArrayBuffer
 * is viewed; an array of numbers is copied. A detached input is a FastmpError
 * DETACHED (STALE, FREED: js/lifetimes.js). The decoder refuses a view past
 * its lifetime, and says which inputs it reads from a copy (Decoder.mustCopy()).
 */
export function asInput(input, fn) {
  if (typedArrayName(input) === 'Uint8Array') return ownView(input, Uint8Array, fn);
  if (ArrayBuffer.isView(input)) { // any other typed array, a DataView (any realm): its bytes
    if (typedArrayName(input) !== undefined) usableLength(input, fn); // a detached one is DETACHED
    else usableView(input, fn); // (a DataView's offset getter throws once it is detached)
    return viewBytes(input);
  }
  if (isArrayBuffer(input) || isSharedArrayBuffer(input)) return asBytes(input, fn);
  if (Array.isArray(input)) return Uint8Array.from(input);
  throw new TypeError(`fastmp: ${fn}() takes a Uint8Array, an ArrayBuffer or an array of bytes, not ${show(input)}${notBytesHint(input)}`);
}
