// decoder.js - MessagePack to values: what @msgpack/msgpack decodes, read by
// recursive descent with an explicit depth limit, every length checked
// against the bytes left before anything is allocated for it; plus, with a
// compiled shape (js/codec/shape.js), typed arrays at the shaped positions,
// through the typed-array I/O (js/io.js): small ones here, long ones by the
// instance's kernels.

import { bufferOf, hasUsableBytes, isShared, lengthOf } from '../args.js';
import { plural } from '../text.js';
import { FastmpError, extraBytes } from '../errors.js';
import { BOOL, KIND_OF_NAME } from '../kinds.js';
import { FieldReader, kernelUnpacks, smallInJs } from '../io.js';
import { ELSEWHERE, isOwned, refuse } from '../lifetimes.js';
import { checkCount, decodeKind, leadingOwnForm, newCursor } from '../wire.js';
import { ExtensionCodec, decodesExt } from './ext.js';
import { asInput, decoderConfig } from './options.js';
import { describeTag } from '../tags.js';
import { KeySegment, addSegment, fromCallerCode, inputError, show, textHint, withPath } from './path.js';
import { jsPort } from './port-js.js';
import { ARRAY, EVERY, TYPED } from './shape.js';
import { EXT_RECORD, EXT_TYPED_ARRAY, HALF, halfOf, typedFromBytes, typedFromExt } from './typed.js';

const FLOAT32 = KIND_OF_NAME.get('Float32Array');
const FLOAT64 = KIND_OF_NAME.get('Float64Array');
import { KeyCache, readUtf8 } from './utf8.js';

const EMPTY = new Uint8Array(0);
const EMPTY_VIEW = new DataView(EMPTY.buffer);
/** A DataView over exactly `bytes` (a checked input: a plain Uint8Array). */
export const dataViewOf = (bytes) => new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
const UINT32_LIMIT = 0x100000000;
const sharedKeyCache = new KeyCache();

/**
 * A keyDecoder of the caller's, as the decoder reads keys through it: its
 * calls are user code, which may detach or shrink the input, so the input is
 * checked after each (DETACHED, at the key's content), and a FastmpError its
 * decode() throws is located there, as an extension's is. Wrapped once, when the
 * Decoder is made, so that reading a key through the shared cache asks nothing more.
 */
const callerKeys = (decoder, keys) => ({
  canBeCached: (n) => {
    const cacheable = keys.canBeCached(n);
    decoder.afterUserCode(decoder.pos);
    return cacheable;
  },
  decode: (bytes, p, n) => {
    let key;
    try {
      key = keys.decode(bytes, p, n);
    } catch (err) {
      throw fromCallerCode(err, p);
    }
    decoder.afterUserCode(p);
    return key;
  },
});
/**
 * Whether an extension codec's answer for an ext is the payload passed
 * through: an ExtData (of any library) of this type holding this very
 * payload, which is what a codec returns for a type no decoder takes.
 */
const passedThrough = (value, type, data) => value !== null && typeof value === 'object' && value.type === type && value.data === data;

/**
 * @typedef {object} DecoderOptions
 * @property {object} [extensionCodec] an ExtensionCodec (ours or @msgpack/msgpack's)
 * @property {unknown} [context] passed to the extension decoders
 * @property {boolean} [useBigInt64=false] int64/uint64 as BigInt (else a number, rounded beyond 2^53)
 * @property {boolean} [rawStrings=false] str values (not map keys) as Uint8Array views of the input
 * @property {number} [maxStrLength] longest str in bytes (default 2^32-1)
 * @property {number} [maxBinLength] longest bin (default 2^32-1)
 * @property {number} [maxArrayLength] most array elements (default 2^32-1)
 * @property {number} [maxMapLength] most map entries (default 2^32-1)
 * @property {number} [maxExtLength] longest ext payload (default 2^32-1)
 * @property {object|null} [keyDecoder] map-key cache ({ canBeCached, decode }); null: none
 * @property {(key: unknown) => string|number} [mapKeyConverter] turns every map key into a property key
 * @property {number} [maxDepth=100] deepest nesting read (the top value has depth 1)
 * @property {unknown} [shape] where typed arrays are (js/codec/shape.js)
 * @property {boolean} [integralFloats=false] shaped integer arrays accept floats that are exact integers
 * @property {boolean} [reuseTypedArrays=false] a shape's typed-array fields are decoded into the arrays of the previous decode (same length), valid until the next
 */

export class Decoder {
  /**
   * @param {DecoderOptions} [options]
   * @param {object} [port] the instance's core (js/core.js) whose kernels read long shaped fields (default: pure JS)
   * @param {typeof import('./decoder-extras.js').DECODER_EXTRAS | null} [extras] what
   *   decodeFrom(), decodeMulti() and decodeAsync() and its kin run
   *   (js/codec/decoder-extras.js): the public Decoder classes pass it; the
   *   Decoders that decode() keeps have none, so that an app that only calls
   *   decode() bundles none of it
   */
  constructor(options, port = jsPort, extras = null) {
    const c = decoderConfig(options, ExtensionCodec.defaultCodec);
    this.config = c;
    this.port = port;
    this.extras = extras;
    this.cursor = newCursor(); // where the pure-JS readers (js/wire.js) say a field ended
    // Each option as a field of its own, one by one: Object.assign() from the
    // frozen config took V8's slow path, most of a new Decoder's cost
    // (test/drop-in.test.js checks that every option is here; keyDecoder below).
    this.extensionCodec = c.extensionCodec;
    this.context = c.context;
    this.useBigInt64 = c.useBigInt64;
    this.rawStrings = c.rawStrings;
    this.maxStrLength = c.maxStrLength;
    this.maxBinLength = c.maxBinLength;
    this.maxArrayLength = c.maxArrayLength;
    this.maxMapLength = c.maxMapLength;
    this.maxExtLength = c.maxExtLength;
    this.mapKeyConverter = c.mapKeyConverter;
    this.maxDepth = c.maxDepth;
    this.shape = c.shape;
    this.integralFloats = c.integralFloats;
    this.reuseTypedArrays = c.reuseTypedArrays;
    this.keyDecoder = c.keyDecoder === undefined ? sharedKeyCache : c.keyDecoder;
    this.keys = c.keyDecoder ? callerKeys(this, c.keyDecoder) : this.keyDecoder;
    this.bytes = EMPTY;
    this.view = EMPTY_VIEW;
    this.pos = 0;
    this.end = 0;
    this.reader = null;
    this.entered = false;
    this.copiesBytes = false; // bins, raw strs and ext payloads as copies, not views of the input (streams)
    this.copyBytes = false; // the same, for the call in progress (also when it reads a copy of ours)
    this.streamAt = 0; // where the input read starts in its stream (a stream's chunk or tail): payload copies keep their place mod 8
    this.copies = null; // decodeFrom()'s buffer (js/codec/decoder-inputs.js valueCopy())
    this.scanner = null;
    this.topDepth = 1; // the depth of a value read (2: an element of a streamed array, readElements())
    this.element = 0; // that element's index
    // reuseTypedArrays: per shape node, the typed arrays its fields were
    // decoded into ({ arrays, next, decode }: keptArray()); their buffers,
    // which an input must not share (setInput()); decodes so far.
    this.kept = c.reuseTypedArrays ? new Map() : null;
    this.keptBuffers = c.reuseTypedArrays ? new WeakSet() : null;
    this.decodes = 0;
  }

  /**
   * One value that fills the input exactly (bytes after it: TRAILING).
   * @param {Uint8Array|ArrayBufferLike|ArrayLike<number>} input
   * @returns {unknown}
   */
  decode(input) {
    if (this.entered) return this.clone().decode(input);
    const bytes = asInput(input, 'decode');
    this.entered = true;
    try {
      this.setInput(this.mustCopy(bytes, input, 'decode') ? bytes.slice() : bytes, 0, false);
      const value = this.readTop();
      if (this.pos < this.end) {
        const hint = this.pos === 1 ? textHint(this.bytes) : '';
        const why = hint || ' after the value (decodeFrom() reads a prefix)';
        throw withPath(inputError('TRAILING', `${extraBytes(this.end - this.pos, this.end, this.pos)}${why}`, this.pos), true);
      }
      return value;
    } finally {
      this.leave();
    }
  }

  /**
   * The value at input[offset], and where it ends.
   * @param {Uint8Array|ArrayBufferLike|ArrayLike<number>} input
   * @param {number} [offset=0]
   * @returns {{ value: unknown, end: number }}
   */
  decodeFrom(input, offset = 0) {
    return this.extrasOf().decodeFrom(this, input, offset);
  }

  /** The end of a call: the input let go of (a Decoder kept between calls holds no message alive). */
  leave() {
    this.bytes = EMPTY;
    this.view = EMPTY_VIEW;
    this.reader = null; // (a shaped field's FieldReader holds the input too)
    this.entered = false;
  }

  /**
   * Every value in the input, one after another.
   * @param {Uint8Array|ArrayBufferLike|ArrayLike<number>} input
   * @returns {Generator<unknown, void, unknown>}
   */
  decodeMulti(input) {
    return this.extrasOf().decodeMulti(this, input);
  }

  /**
   * THE INPUT RULE: whether `bytes` (checked by asInput(); `original`, what
   * the caller passed) must be read from a copy. An input is read in place,
   * unless it lies where the decode itself, or user code it runs, may change
   * it while it is read: wasm memory (which a kernel or an extension may
   * grow or overwrite) or a live encodeSharedRef() output (whose encoder an
   * extension may call), as js/lifetimes.js refuse() says (which refuses a
   * view past its lifetime); shared memory (another thread may write it,
   * and the decoder reads some bytes twice), or the buffer of a typed array
   * this Decoder reuses (reuseTypedArrays). What is copied is what the call
   * reads, once: the input (decode(), and decodeMulti() and a stream's
   * chunk, whose values are all read), or the value at the offset
   * (decodeFrom(): js/codec/decoder-inputs.js valueCopy()), never the rest
   * of the input once a value.
   */
  mustCopy(bytes, original, fn) {
    if (refuse(bytes, fn, original) !== ELSEWHERE) return true;
    const buffer = bufferOf(bytes);
    // (A small view from offset 0 of wasm memory, which refuse() reads as memory outside, is wasm memory all the same:
    // a shaped decode's kernels may grow memory, which detaches it. Asked only of shaped decodes: an unshaped one runs no kernel.)
    return isShared(buffer) || (this.keptBuffers !== null && this.keptBuffers.has(buffer)) || (this.shape !== null && isOwned(buffer));
  }

  /**
   * One value from a stream of chunks (bytes after it: TRAILING).
   * @param {AsyncIterable<Uint8Array|ArrayBufferLike|ArrayLike<number>>|ReadableStream} stream
   * @returns {Promise<unknown>}
   */
  decodeAsync(stream) {
    return this.extrasOf().decodeAsync(this, stream);
  }

  /**
   * Every value in a stream of chunks, each as soon as it is complete.
   * @param {AsyncIterable<Uint8Array|ArrayBufferLike|ArrayLike<number>>|ReadableStream} stream
   * @returns {AsyncGenerator<unknown, void, unknown>}
   */
  decodeStream(stream) {
    return this.extrasOf().decodeMultiStream(this, stream);
  }

  /**
   * The elements of the one array a stream of chunks holds, each as soon as it is complete.
   * @param {AsyncIterable<Uint8Array|ArrayBufferLike|ArrayLike<number>>|ReadableStream} stream
   * @returns {AsyncGenerator<unknown, void, unknown>}
   */
  decodeArrayStream(stream) {
    return this.extrasOf().decodeArrayStream(this, stream);
  }

  /** What this Decoder's decodeFrom(), decodeMulti() and stream decoding run (a Decoder of the public classes always has it). */
  extrasOf() {
    if (this.extras === null) throw new TypeError('fastmp: this Decoder was made without decodeFrom(), decodeMulti() and the stream decoders (js/codec/decoder-extras.js)');
    return this.extras;
  }

  /** A fresh decoder with the same options, port and extras (for a call made while this one is busy). */
  clone() {
    return new Decoder(this.config, this.port, this.extras); // (not this.constructor: a subclass's constructor takes arguments of its own)
  }

  /**
   * The decoder of one stream: a clone whose values hold no view of the
   * bytes it reads (the stream's source may refill its chunks, and the
   * stream reuses its own buffer).
   */
  forStream() {
    const decoder = this.clone();
    decoder.copiesBytes = true;
    // (A chunk in an array this Decoder returned is copied when it arrives, as
    // its mustCopy() says: a decode with it in the loop body writes there.)
    if (this.keptBuffers !== null) decoder.keptBuffers = this.keptBuffers;
    return decoder;
  }

  /** From now on, each value read is an element of an array (decodeArrayStream()'s): one level deeper, its index (`element`, which the stream sets) the first step of an error's path. */
  readElements() {
    this.topDepth = 2;
  }

  /** The input of a call: bytes checked (and copied where mustCopy() says), read from `offset`; `copied`: a copy of ours; `view`: its DataView, where the caller has one (decodeMulti()'s, made once). */
  setInput(bytes, offset, copied, view = dataViewOf(bytes)) {
    this.decodes++;
    this.bytes = bytes;
    this.view = view;
    this.pos = offset;
    this.end = bytes.length;
    this.reader = null;
    this.copyBytes = this.copiesBytes || copied; // (a copy of ours in this.copies is reused: values hold none of it)
  }

  readTop() {
    try {
      if (this.topDepth > this.maxDepth) throw this.tooDeep(this.pos, this.topDepth - 1);
      return this.shape === null ? this.readAny(this.topDepth) : this.readShaped(this.shape, this.topDepth);
    } catch (err) {
      throw withPath(this.topDepth === 2 ? addSegment(err, this.element) : err, true);
    }
  }

  // ---- errors --------------------------------------------------------------

  /** The input ends inside the value at `start`, which needs `size` bytes from there. */
  truncated(start, size) {
    const where = start >= this.end ? `input ends at byte ${start}, where a value should start`
      : `input ends inside the value at byte ${start} (${describeTag(this.bytes[start])})`;
    return inputError('TRUNCATED', `insufficient data: ${where}`, start, { needed: start + size });
  }

  /** A header at `start` claims more bytes than are left. */
  tooLong(start, what, claimed, needed) {
    return inputError('LENGTH', `insufficient data: ${what} at byte ${start} claims ${claimed}, more than the ${plural(this.end - this.pos, 'byte')} left`, start, { needed });
  }

  /** MAX_LENGTH: `what` at `start`, of length n, beyond the limit this Decoder's `option` (maxStrLength, ...) sets. */
  overLimit(start, what, n, option) {
    return inputError('MAX_LENGTH', `max length exceeded: ${what} at byte ${start} has length ${n}, beyond ${option} (${this[option]})`, start);
  }

  tooDeep(start, depth) {
    return inputError('DEPTH', `value nested too deep at byte ${start}: depth ${depth + 1} is beyond maxDepth ${this.maxDepth}`, start);
  }

  /** Throws unless `size` bytes are left from `start`. */
  need(start, size) {
    if (this.end - start < size) throw this.truncated(start, size);
  }

  // ---- any value -------------------------------------------------------------

  readAny(depth) {
    const start = this.pos;
    if (start >= this.end) throw this.truncated(start, 1);
    const tag = this.bytes[start];
    this.pos = start + 1;
    if (tag < 0xc0) {
      if (tag < 0x80) return tag;
      if (tag < 0x90) return this.readMap(tag & 0x0f, start, depth);
      if (tag < 0xa0) return this.readArray(tag & 0x0f, start, depth);
      return this.readStr(tag & 0x1f, start);
    }
    if (tag >= 0xe0) return tag - 0x100;
    return this.readTagged(tag, start, depth);
  }

  /** Tags 0xc0 to 0xdf. */
  readTagged(tag, start, depth) {
    const view = this.view;
    switch (tag) {
      case 0xc0: return null;
      case 0xc2: return false;
      case 0xc3: return true;
      case 0xca: this.need(start, 5); this.pos = start + 5; return view.getFloat32(start + 1);
      case 0xcb: this.need(start, 9); this.pos = start + 9; return view.getFloat64(start + 1);
      case 0xcc: this.need(start, 2); this.pos = start + 2; return this.bytes[start + 1];
      case 0xcd: this.need(start, 3); this.pos = start + 3; return view.getUint16(start + 1);
      case 0xce: this.need(start, 5); this.pos = start + 5; return view.getUint32(start + 1);
      case 0xd0: this.need(start, 2); this.pos = start + 2; return view.getInt8(start + 1);
      case 0xd1: this.need(start, 3); this.pos = start + 3; return view.getInt16(start + 1);
      case 0xd2: this.need(start, 5); this.pos = start + 5; return view.getInt32(start + 1);
      case 0xcf:
      case 0xd3: return this.readInt64(tag === 0xd3, start);
      case 0xd9:
      case 0xda:
      case 0xdb: return this.readStr(this.lengthAfter(tag - 0xd9, start), start);
      case 0xc4:
      case 0xc5:
      case 0xc6: return this.readBin(this.lengthAfter(tag - 0xc4, start), start);
      case 0xdc:
      case 0xdd: return this.readArray(this.lengthAfter(tag - 0xdb, start), start, depth);
      case 0xde:
      case 0xdf: return this.readMap(this.lengthAfter(tag - 0xdd, start), start, depth);
      case 0xc7:
      case 0xc8:
      case 0xc9: return this.readExt(this.lengthAfter(tag - 0xc7, start), start);
      case 0xd4: case 0xd5: case 0xd6: case 0xd7: case 0xd8:
        return this.readExt(1 << (tag - 0xd4), start);
      default: // 0xc1
        throw inputError('TAG', `unrecognized type byte: byte ${start} is ${describeTag(tag)}, which msgpack never uses`, start);
    }
  }

  /**
   * The length field after the tag at `start`: form 0 is 8 bits, 1 is 16,
   * 2 is 32. Moves pos past it.
   */
  lengthAfter(form, start) {
    const size = 1 << form;
    this.need(start, 1 + size);
    this.pos = start + 1 + size;
    if (form === 0) return this.bytes[start + 1];
    return form === 1 ? this.view.getUint16(start + 1) : this.view.getUint32(start + 1);
  }

  readInt64(signed, start) {
    this.need(start, 9);
    this.pos = start + 9;
    const view = this.view;
    if (this.useBigInt64) return signed ? view.getBigInt64(start + 1) : view.getBigUint64(start + 1);
    const high = signed ? view.getInt32(start + 1) : view.getUint32(start + 1);
    return high * UINT32_LIMIT + view.getUint32(start + 5);
  }

  readStr(n, start) {
    if (this.rawStrings) return this.readBin(n, start, 'a str (rawStrings: its bytes)');
    return this.readText(n, start);
  }

  /** The UTF-8 text of the str at `start` (pos: its first byte), a value's or (isKey) a map key's. */
  readText(n, start, isKey = false) {
    if (n > this.maxStrLength) throw this.overLimit(start, 'a str', n, 'maxStrLength');
    const p = this.pos;
    if (n > this.end - p) throw this.tooLong(start, 'a str', plural(n, 'byte'), p + n);
    const text = readUtf8(this.bytes, p, p + n);
    if (text === undefined) throw this.notUtf8(start, isKey);
    this.pos = p + n;
    return text;
  }

  /** A str that is not UTF-8; a value's error says how to read its bytes (rawStrings, which keys do not take). */
  notUtf8(start, isKey) {
    return inputError('UTF8', isKey ? `the map key at byte ${start} is not valid UTF-8` : `the str at byte ${start} is not valid UTF-8 (rawStrings: true reads its bytes)`, start);
  }

  /** A bin (and a raw str): a view of the input, as @msgpack/msgpack returns it (a stream's: a copy). */
  readBin(n, start, what = 'a bin') {
    if (n > this.maxBinLength) throw this.overLimit(start, what, n, 'maxBinLength');
    const p = this.pos;
    if (n > this.end - p) throw this.tooLong(start, what, plural(n, 'byte'), p + n);
    this.pos = p + n;
    return this.bytesAt(p, n);
  }

  /**
   * input[p, p + n): a view, or with copyBytes a copy, at byte `at` of a
   * buffer of its own. An ext payload's copy lies where a view of it would,
   * mod 8 (a stream's from the stream's start): an extension that aligns its
   * payload by its position ((pos) => payload, as @msgpack/msgpack's README
   * does for a Float32Array) finds it aligned in a copy too.
   */
  bytesAt(p, n, at = 0) {
    if (!this.copyBytes) return this.bytes.subarray(p, p + n);
    if (at === 0) return this.bytes.slice(p, p + n);
    const copy = new Uint8Array(at + n).subarray(at);
    copy.set(this.bytes.subarray(p, p + n));
    return copy;
  }

  /** An array of n elements; `elem`: the shape of each (null: none). */
  readArray(n, start, depth, elem = null) {
    this.checkArray(n, start, depth);
    if (elem !== null && elem.type === TYPED) return this.readTypedFields(n, elem);
    const array = new Array(n);
    let i = 0;
    try {
      for (; i < n; i++) array[i] = elem === null ? this.readAny(depth + 1) : this.readShaped(elem, depth + 1);
    } catch (err) {
      throw addSegment(err, i);
    }
    return array;
  }

  /**
   * The n elements of an array whose shape is [Type]: typed-array fields one
   * after another (W4: 10 000 vectors). A field with a fixarray header, of
   * fewer elements than the JS path takes, is decoded here by what
   * readTypedField() would come to (typedInJs()), without the calls through
   * readShaped() and readTypedField() that each field pays elsewhere; every
   * other field goes that way, its errors too.
   */
  readTypedFields(n, node) {
    const array = new Array(n);
    const { kind } = node;
    const { bytes, end } = this;
    // Counts this loop takes: below the JS path's limit and maxArrayLength, and
    // at most 15, so that only a fixarray's tag (0x90-0x9f) gives one.
    const below = kind === HALF || !smallInJs(this.port, kind) ? 0 : Math.min(this.maxArrayLength + 1, 16);
    const slot = this.kept === null || kind === HALF ? null : this.keptSlot(node);
    const leading = leadingOwnForm(kind); // floats: each field's own-form elements read here, by one call
    let i = 0;
    try {
      for (; i < n; i++) {
        const start = this.pos;
        const count = start < end ? bytes[start] - 0x90 : -1; // a fixarray's count
        // (Each element takes a byte at least: a count the bytes left cannot hold is checkCount()'s error, on the other path.)
        if (count >= 0 && count < below && count < end - start) {
          let into = slot === null ? undefined : this.keptOf(slot, kind, count);
          if (leading !== null && count * kind.wire < end - start) {
            into ??= new kind.Type(count);
            if (leading(bytes, this.view, into, start + 1, count) === count) {
              this.pos = start + 1 + count * kind.wire;
              array[i] = into;
              continue;
            }
          }
          array[i] = decodeKind(kind, bytes, end, start + 1, count, this.integralFloats, this.cursor, this.view, into);
          this.pos = this.cursor.pos;
        } else {
          array[i] = this.readTypedField(kind, node);
        }
      }
    } catch (err) {
      throw addSegment(err, i);
    }
    return array;
  }

  /**
   * Limits of an array of n elements: they are one level deeper, and each
   * takes at least a byte. The options first: a stream (js/codec/stream.js)
   * asks this decoder whether a header its scanner stopped at is refused,
   * with the bytes so far, which the elements may not have reached yet.
   */
  checkArray(n, start, depth) {
    this.checkArrayLimits(n, start, depth);
    if (n > this.end - this.pos) throw this.tooLong(start, 'an array', plural(n, 'element'), this.pos + n);
  }

  /** What the options refuse of an array of n elements at `depth`: also decodeArrayStream()'s header. */
  checkArrayLimits(n, start, depth) {
    if (n > this.maxArrayLength) throw this.overLimit(start, 'an array', n, 'maxArrayLength');
    if (n > 0 && depth >= this.maxDepth) throw this.tooDeep(start, depth);
  }

  /** A map of n entries; `every` (null: none) the shape of every value (mapOf(S)). */
  readMap(n, start, depth, every = null) {
    this.checkMap(n, start, depth);
    const map = {};
    let i = 0;
    let key;
    try {
      for (; i < n; i++) {
        key = undefined;
        key = this.readKey(depth + 1);
        map[key] = every === null ? this.readAny(depth + 1) : this.readShaped(every, depth + 1);
      }
    } catch (err) {
      throw addSegment(err, key === undefined ? new KeySegment(i) : key);
    }
    return map;
  }

  /**
   * A map of n entries whose keys a MAP shape lists are read by their shapes
   * (other keys as usual): each required one must be there (MISSING), an
   * optional one may be absent, or nil (null).
   */
  readFields(n, start, depth, node) {
    this.checkMap(n, start, depth);
    const map = {};
    let seen = 0; // the bits of the required fields met
    let i = 0;
    let key;
    try {
      for (; i < n; i++) {
        key = undefined;
        key = this.readKey(depth + 1);
        // (A number key, as Python and Go clients send, is the property String(key), which the shape names.)
        const field = node.keys.get(typeof key === 'number' ? String(key) : key);
        if (field === undefined) {
          map[key] = this.readAny(depth + 1);
        } else {
          seen |= field.bit;
          map[key] = field.optional && this.bytes[this.pos] === 0xc0 ? this.readNil() : this.readShaped(field.node, depth + 1);
        }
      }
    } catch (err) {
      throw addSegment(err, key === undefined ? new KeySegment(i) : key);
    }
    if (seen !== node.required || node.more.length > 0) this.checkFields(node, map, seen, start);
    return map;
  }

  readNil() {
    this.pos++;
    return null;
  }

  /** Throws MISSING for the first required field of `node` that the map at `start` lacks. */
  checkFields(node, map, seen, start) {
    for (const [key, field] of node.keys) {
      if (field.optional || (field.bit !== 0 ? (seen & field.bit) !== 0 : Object.hasOwn(map, key))) continue;
      const err = inputError('MISSING', `the map at byte ${start} has no key ${JSON.stringify(key)}, which the shape names (a field that may be absent or nil: optional(S))`, start);
      throw addSegment(err, key);
    }
  }

  checkMap(n, start, depth) {
    if (n > this.maxMapLength) throw this.overLimit(start, 'a map', n, 'maxMapLength');
    if (n > 0 && depth >= this.maxDepth) throw this.tooDeep(start, depth);
    if (2 * n > this.end - this.pos) throw this.tooLong(start, 'a map', plural(n, 'entry', 'entries'), this.pos + 2 * n);
  }

  /**
   * A map key: a str is always text (rawStrings does not apply) and goes
   * through the key cache; other keys are read as values. Then
   * mapKeyConverter, or the default rule: strings and numbers only. A key
   * `__proto__` is refused (before and after conversion), so no decoded
   * object ever gets a prototype from the message.
   */
  readKey(depth) {
    const start = this.pos;
    if (start >= this.end) throw this.truncated(start, 1);
    const tag = this.bytes[start];
    let key;
    if (tag >= 0xa0 && tag <= 0xbf) {
      this.pos = start + 1;
      key = this.readKeyText(tag & 0x1f, start);
    } else if (tag >= 0xd9 && tag <= 0xdb) {
      key = this.readKeyText(this.lengthAfter(tag - 0xd9, start), start);
    } else {
      key = this.readAny(depth);
    }
    if (key === '__proto__') throw this.badKey(start, 'is __proto__, which is not allowed');
    if (this.mapKeyConverter !== null) {
      try {
        key = this.mapKeyConverter(key);
        if (typeof key !== 'string' && typeof key !== 'number' && typeof key !== 'symbol') key = String(key); // (its toString() is user code too)
      } catch (err) {
        throw fromCallerCode(err, start); // (a FastmpError of its own, or of a fastmp call it made on the key: located at the key, as an extension's is)
      }
      this.afterUserCode(start);
      if (key === '__proto__') throw this.badKey(start, 'converts to __proto__, which is not allowed');
    } else if (typeof key !== 'string' && typeof key !== 'number') {
      throw this.badKey(start, `is ${show(key)}: the type of key must be string or number (see mapKeyConverter)`);
    }
    return key;
  }

  readKeyText(n, start) {
    const cache = this.keys;
    if (cache === null || !cache.canBeCached(n) || n > this.maxStrLength || n > this.end - this.pos) {
      return this.readText(n, start, true);
    }
    const p = this.pos;
    const key = cache.decode(this.bytes, p, n);
    // (Our cache's undefined: not UTF-8; another keyDecoder's is its key, refused as any key of another type is.)
    if (key === undefined && cache instanceof KeyCache) throw this.notUtf8(start, true);
    this.pos = p + n;
    return key;
  }

  badKey(start, what) {
    return inputError('KEY', `the map key at byte ${start} ${what}`, start);
  }

  /** Refuses an ext of n payload bytes beyond maxExtLength, or beyond maxBinLength, which @msgpack/msgpack holds a payload to as well (it reads one as a bin). */
  extLength(n, start) {
    if (n > this.maxExtLength) throw this.overLimit(start, 'an ext', n, 'maxExtLength');
    if (n > this.maxBinLength) throw this.overLimit(start, 'an ext', n, 'maxBinLength');
  }

  /** An ext of n payload bytes (pos: its type byte). */
  readExt(n, start) {
    this.extLength(n, start);
    const p = this.pos;
    if (n + 1 > this.end - p) throw this.tooLong(start, 'an ext', plural(n, 'byte'), p + n + 1);
    const type = (this.bytes[p] << 24) >> 24;
    const data = this.bytesAt(p + 1, n, (this.streamAt + p + 1) & 7);
    this.pos = p + 1 + n;
    return this.extValue(type, data, start);
  }

  /**
   * The extension codec first, whichever it is (ours or @msgpack/msgpack's:
   * their one shared interface is decode(data, type, context)); when it
   * passes the payload through (an ExtData of this very payload: no decoder
   * registered for the type), msgpackr's typed arrays (0x74) as msgpackr
   * reads them and records (0x72) refused; any other type as the codec
   * returned it.
   */
  extValue(type, data, start) {
    let value;
    try {
      value = this.extensionCodec.decode(data, type, this.context);
    } catch (err) {
      throw fromCallerCode(err, start);
    }
    this.afterUserCode(start);
    if ((type === EXT_TYPED_ARRAY || type === EXT_RECORD) && passedThrough(value, type, data) && !decodesExt(this.extensionCodec, type)) {
      if (type === EXT_TYPED_ARRAY) return typedFromExt(data, start);
      throw this.record(start);
    }
    return value;
  }

  /**
   * After user code has run mid-decode (a mapKeyConverter, an extension's
   * decode; `start`: the item's byte): the input must still hold its bytes,
   * which that code may have detached (transferred) or shrunk (a resizable
   * buffer). Reading on would read nothing: DETACHED.
   */
  afterUserCode(start) {
    if (lengthOf(this.bytes) < this.end) {
      throw new FastmpError('DETACHED', `fastmp: the input was detached or shrunk during the decode, by user code (a mapKeyConverter, a keyDecoder, an extension's decode) that ran at byte ${start}`, -1, start);
    }
  }

  // ---- shaped values -----------------------------------------------------

  readShaped(node, depth) {
    switch (node.type) {
      case TYPED: return this.readTypedField(node.kind, node);
      case ARRAY: return this.readShapedArray(node.elem, depth);
      default: return this.readShapedMap(node, depth);
    }
  }

  /** The tag at pos, which must exist. */
  peekTag() {
    if (this.pos >= this.end) throw this.truncated(this.pos, 1);
    return this.bytes[this.pos];
  }

  readShapedArray(elem, depth) {
    const start = this.pos;
    const n = this.arrayHeader(this.peekTag(), start);
    if (n < 0) throw this.notShaped(start, 'an array');
    return this.readArray(n, start, depth, elem);
  }

  /** A map by a MAP shape (its listed fields) or an EVERY shape (mapOf(S)). */
  readShapedMap(node, depth) {
    const start = this.pos;
    const n = this.mapHeader(this.peekTag(), start);
    if (n < 0) throw this.notShaped(start, 'a map');
    return node.type === EVERY ? this.readMap(n, start, depth, node.elem) : this.readFields(n, start, depth, node);
  }

  /** Element count of the array header at `start` (pos moves past it), or -1 when it is not an array. */
  arrayHeader(tag, start) {
    if (tag >= 0x90 && tag <= 0x9f) {
      this.pos = start + 1;
      return tag & 0x0f;
    }
    return tag === 0xdc || tag === 0xdd ? this.lengthAfter(tag - 0xdb, start) : -1;
  }

  mapHeader(tag, start) {
    if (tag >= 0x80 && tag <= 0x8f) {
      this.pos = start + 1;
      return tag & 0x0f;
    }
    return tag === 0xde || tag === 0xdf ? this.lengthAfter(tag - 0xdd, start) : -1;
  }

  /**
   * A typed array of `kind` at pos: from a numeric msgpack array (by the
   * port, range-checked), a bin of whole elements, or a typed-array ext of
   * the same element type. A Float16Array (HALF) from a numeric array read
   * as a Float64Array, or from a Float32Array / Float64Array ext, then
   * rounded once to float16 (typed.js halfOf); from a bin, its bytes.
   */
  readTypedField(kind, node) {
    const start = this.pos;
    const tag = this.peekTag();
    const n = this.arrayHeader(tag, start);
    if (n >= 0) {
      if (n > this.maxArrayLength) throw this.overLimit(start, 'an array', n, 'maxArrayLength');
      if (kind === HALF) return halfOf(this.typedFromArray(FLOAT64, start, n, undefined));
      const into = this.kept === null ? undefined : this.keptArray(node, kind, n, start);
      return this.typedFromArray(kind, start, n, into);
    }
    if (kind !== BOOL && tag >= 0xc4 && tag <= 0xc6) return this.typedFromBin(kind, start, node);
    if (kind !== BOOL && ((tag >= 0xc7 && tag <= 0xc9) || (tag >= 0xd4 && tag <= 0xd8))) return this.typedFromExtAt(kind, start, node);
    throw this.notShaped(start, kind === BOOL ? 'an array of booleans' : `${kind.name} (an array, a bin or a typed-array ext)`);
  }

  /**
   * The `n` elements from pos of the array at `start` (its header read) as a
   * typed array of kind, decoded here by wire.js: what every port does below
   * its crossover (port-js.js), without a call to the port per field (that
   * call read the header again and asked the crossover again: a cost per
   * field, which a message of many small typed arrays pays many times;
   * bench/messages.js W4 decode measures such a message).
   */
  typedInJs(kind, start, n, into) {
    const { bytes, end } = this;
    checkCount(bytes, start, this.pos, n, end);
    const value = decodeKind(kind, bytes, end, this.pos, n, this.integralFloats, this.cursor, this.view, into);
    this.pos = this.cursor.pos;
    return value;
  }

  /** The array at `start` (n elements, its header read) as a typed array of kind, new or `into`: in JS, or by the kernels (js/io.js says which). */
  typedFromArray(kind, start, n, into) {
    return kernelUnpacks(this.port, kind, n) ? this.typedByKernel(kind, start, n, into) : this.typedInJs(kind, start, n, into);
  }

  /** The array at `start` (n elements from pos, its header read) as a typed array of kind, decoded by the kernels (js/io.js FieldReader). */
  typedByKernel(kind, start, n, into) {
    checkCount(this.bytes, start, this.pos, n, this.end);
    this.reader ??= new FieldReader(this.port, this.bytes, 'decode');
    const value = this.reader.read(kind, start, this.pos, n, this.integralFloats, into);
    this.pos = this.reader.end;
    return value;
  }

  /**
   * reuseTypedArrays: the array of n elements of kind that the field at
   * `node` of the shape takes, the how-manieth time this decode meets that
   * node: the one kept from the previous decode when its length is n, else a
   * new one, kept from now on. Asked for only once the input holds n
   * elements' bytes (checkCount: each takes at least one), so that a length
   * field allocates no more than the input could fill.
   */
  keptArray(node, kind, n, start) {
    checkCount(this.bytes, start, this.pos, n, this.end);
    return this.keptOf(this.keptSlot(node), kind, n);
  }

  /** The kept arrays of a shape node, as this decode meets it: { arrays, next, decode }. */
  keptSlot(node) {
    let slot = this.kept.get(node);
    if (slot === undefined) this.kept.set(node, (slot = { arrays: [], next: 0, decode: 0 }));
    if (slot.decode !== this.decodes) {
      slot.decode = this.decodes;
      slot.next = 0;
    }
    return slot;
  }

  /** The slot's next array: the one kept from the previous decode when its length is n, else a new one, kept from now on. */
  keptOf(slot, kind, n) {
    const i = slot.next++;
    const kept = slot.arrays[i];
    // (A kept array the caller transferred reports length 0: not one to hand out again, nor to write into.)
    if (kept !== undefined && kept.length === n && (n !== 0 || hasUsableBytes(kept))) return kept;
    const fresh = new kind.Type(n);
    slot.arrays[i] = fresh;
    this.keptBuffers.add(fresh.buffer);
    return fresh;
  }

  typedFromBin(kind, start, node) {
    const n = this.lengthAfter(this.bytes[start] - 0xc4, start);
    if (n > this.maxBinLength) throw this.overLimit(start, 'a bin', n, 'maxBinLength');
    if (n > this.end - this.pos) throw this.tooLong(start, 'a bin', plural(n, 'byte'), this.pos + n);
    if (n % kind.bytes !== 0) {
      throw inputError('TYPE', `the bin at byte ${start} holds ${n} bytes, not a whole number of ${kind.name} elements`, start);
    }
    const into = this.kept === null || kind === HALF ? undefined : this.keptArray(node, kind, n / kind.bytes, this.pos);
    const value = typedFromBytes(kind, this.bytes, this.pos, n, into);
    this.pos += n;
    return value;
  }

  typedFromExtAt(kind, start, node) {
    const tag = this.bytes[start];
    let n;
    if (tag >= 0xd4) {
      n = 1 << (tag - 0xd4);
      this.pos = start + 1;
    } else {
      n = this.lengthAfter(tag - 0xc7, start);
    }
    this.extLength(n, start);
    const p = this.pos;
    if (n + 1 > this.end - p) throw this.tooLong(start, 'an ext', plural(n, 'byte'), p + n + 1);
    const type = (this.bytes[p] << 24) >> 24;
    const code = this.bytes[p + 1];
    const half = kind === HALF && (code === FLOAT32.ext || code === FLOAT64.ext);
    if (type !== EXT_TYPED_ARRAY || n === 0 || (code !== kind.ext && !half)) {
      const of = kind === HALF ? 'Float32Array or Float64Array' : kind.name;
      throw this.notShaped(start, `${kind.name} (this ext is not a typed-array ext of ${of})`);
    }
    const into = this.kept === null || kind === HALF || (n - 1) % kind.bytes !== 0 ? undefined : this.keptArray(node, kind, (n - 1) / kind.bytes, start);
    this.pos = p + 1 + n;
    const value = typedFromExt(this.bytes.subarray(p + 1, p + 1 + n), start, into);
    return half ? halfOf(value) : value;
  }

  /** A value at a shaped position that the shape does not take (a msgpackr record: the records error). */
  notShaped(start, expected) {
    if (this.extTypeAt(start) === EXT_RECORD && !decodesExt(this.extensionCodec, EXT_RECORD)) return this.record(start);
    return inputError('TYPE', `expected ${expected} at byte ${start}, found ${describeTag(this.bytes[start])}`, start);
  }

  /** The type of the ext at `start` (whose header is there), or undefined when no ext is. */
  extTypeAt(start) {
    const tag = this.bytes[start];
    const at = tag >= 0xd4 && tag <= 0xd8 ? start + 1 : tag >= 0xc7 && tag <= 0xc9 ? start + 1 + (1 << (tag - 0xc7)) : -1;
    return at >= 0 && at < this.end ? (this.bytes[at] << 24) >> 24 : undefined;
  }

  record(start) {
    return inputError('UNSUPPORTED', `the ext at byte ${start} is a msgpackr record (0x72): fastmp does not read records (pack with useRecords: false)`, start);
  }
}
