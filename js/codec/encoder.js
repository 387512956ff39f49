// encoder.js - values to MessagePack. Without typed arrays, Maps and Sets the
// bytes are @msgpack/msgpack's (same choice of every form, same option
// semantics; a Date's time is the engine's, not an overridden getTime's); a
// Map or Set is written as msgpackr writes it (its entries); a
// typed array is written by the store (js/codec/stores.js, through the
// typed-array I/O, js/io.js) straight into the output: a standard msgpack
// array by default, msgpackr's ext 0x74 or a bin on request.
//
// The output lives in a store borrowed from the instance's pool for the call
// (js/codec/stores.js); JS writes headers, scalars and strings into it
// through cached bytes/view, re-read after every store call (any of which may
// replace them). Each value is visited once: getters run once, nothing calls
// toJSON.
//
// Every input a call reads (a bin, a DataView, an ExtData payload, a typed
// array in any mode, the encodeInto target) is read as it was when the call
// began, wherever it lies (the aliasing rule: session() below, and
// js/codec/encoder-outputs.js), and one past its lifetime is refused
// (js/lifetimes.js). encodeSharedRef() and encodeInto() run
// js/codec/encoder-outputs.js, which the public Encoder classes are given.

import { dateTime, isMap, isSet, lengthOf, typedArrayName, viewBytes } from '../args.js';
import { BOOL, KIND_OF_NAME, kindOfName } from '../kinds.js';
import { refuse, refuseSized } from '../lifetimes.js';
import { MAX_ELEMENTS } from '../wire.js';
import { ExtData, ExtensionCodec, encodesTimestamps } from './ext.js';
import { encoderConfig } from './options.js';
import { EntrySegment, KeySegment, addSegment, codecError, fromCallerCode, impostorError, show, withPath } from './path.js';
import { jsPort } from './port-js.js';
import { storePool } from './stores.js';
import { timeSpecOfDate, timestampSize, writeTimeSpec } from './timestamp.js';
import { BoolArray, EXT_TYPED_ARRAY, boolOriginal, isHalf, widenHalf } from './typed.js';
import { TEXT_ENCODER_THRESHOLD, encodeUtf8Into, writeUtf8Short } from './utf8.js';

const UINT8 = KIND_OF_NAME.get('Uint8Array');
const UINT8_CLAMPED = KIND_OF_NAME.get('Uint8ClampedArray');
const FLOAT32 = KIND_OF_NAME.get('Float32Array');
const UINT32_LIMIT = 0x100000000;
const BIGINT_MAX = 2n ** 64n - 1n;
const BIGINT_MIN = -(2n ** 63n);
/** Strings of at least this many UTF-16 units: room for one byte a unit first, more only when needed. */
const HUGE_STRING = 0x10000;

const mapForEach = Map.prototype.forEach;
const setForEach = Set.prototype.forEach;
const objectToString = Object.prototype.toString;

/**
 * Map, Set or Date when an object that instanceof did not take is one of
 * another realm (a vm context, an iframe), by its tag and then its brand;
 * else null. An object of this realm (a plain one, a class instance) is
 * asked nothing: its Symbol.toStringTag, which a getter or a Proxy's get
 * trap answers, is not read (@msgpack/msgpack reads it not).
 */
function foreignKind(value) {
  const proto = Object.getPrototypeOf(value);
  if (proto === Object.prototype || proto === null || value instanceof Object) return null;
  const tag = objectToString.call(value);
  if (tag === '[object Map]' && isMap(value)) return Map;
  if (tag === '[object Set]' && isSet(value)) return Set;
  if (tag === '[object Date]' && dateTime(value) !== undefined) return Date;
  return null;
}

/**
 * [key, value] pairs of a Map (a Set: [value, value]), through its
 * intrinsic forEach, all read before any is written. An object that only
 * inherits from Map / Set (or a Proxy of one) fails the brand check
 * (`is`): a TYPE error rather than an empty map.
 */
function snapshot(forEach, is, collection, name, offset) {
  if (!is(collection)) throw impostorError(collection, name, offset);
  const entries = [];
  forEach.call(collection, (value, key) => {
    entries.push([key, value]);
  });
  return entries;
}

/** sortKeys for a Map: its entries (indexes into entries) ordered as an object's keys are, which takes string keys only. */
function sortedByKey(entries, order, offset) {
  const bad = order.find((i) => typeof entries[i][0] !== 'string');
  if (bad !== undefined) {
    throw codecError('TYPE', `sortKeys orders string keys only; this Map's entry ${bad} has the key ${show(entries[bad][0])}`, offset);
  }
  return order.sort((a, b) => (entries[a][0] < entries[b][0] ? -1 : entries[a][0] > entries[b][0] ? 1 : 0));
}

/** Bytes of the smallest header of an array or map of n entries. */
const containerHeaderSize = (n) => (n <= 15 ? 1 : n < 0x10000 ? 3 : 5);

const takeCopy = (encoder) => encoder.store.take(encoder.pos);

/**
 * A view met in the value as the call reads it: found again where the call's
 * own growth of wasm memory detached it (store.live()), and refused past its
 * lifetime (js/lifetimes.js). (`original`: what the view was made of.)
 */
function liveSource(encoder, view, original = view) {
  const live = encoder.store.live(view, original);
  refuse(live, 'encode', original);
  return live;
}

// No store until a call borrows one: these empty views, shared by every Encoder, stand in.
const NO_BYTES = new Uint8Array(0);
const NO_VIEW = new DataView(NO_BYTES.buffer);

/**
 * @typedef {object} EncoderOptions
 * @property {object} [extensionCodec] an ExtensionCodec (ours or @msgpack/msgpack's)
 * @property {unknown} [context] passed to the extension encoders
 * @property {boolean} [useBigInt64=false] write BigInts as int64/uint64 (and safe integers beyond 32 bits as float64)
 * @property {number} [maxDepth=100] the deepest nesting written (the top value has depth 1)
 * @property {number} [initialBufferSize=2048] the store's first capacity
 * @property {boolean} [sortKeys=false] write map keys sorted (canonical output; a Map's keys must be strings)
 * @property {boolean} [forceFloat32=false] non-integer numbers as float32
 * @property {boolean} [ignoreUndefined=false] leave out map entries whose value is undefined
 * @property {boolean} [forceIntegerToFloat=false] integers as floats too
 * @property {'array'|'ext'|'bin'} [typedArrays='array'] how typed arrays other than Uint8Array are written
 */

export class Encoder {
  /**
   * @param {EncoderOptions} [options]
   * @param {object} [port] the instance's core (js/core.js) whose pool lends the stores and whose kernels pack (default: pure JS)
   * @param {typeof import('./encoder-outputs.js').ENCODER_OUTPUTS | null} [outputs] what
   *   encodeSharedRef() and encodeInto() run (js/codec/encoder-outputs.js): the
   *   public Encoder classes pass it; the Encoders that encode() keeps have
   *   none, so that an app that only calls encode() bundles neither
   */
  constructor(options, port = jsPort, outputs = null) {
    const c = encoderConfig(options, ExtensionCodec.defaultCodec);
    this.config = c;
    this.port = port;
    this.outputs = outputs;
    // Each option as a field of its own, one by one: Object.assign() from the
    // frozen config took V8's slow path, most of a new Encoder's cost
    // (test/drop-in.test.js checks that every option is here).
    this.extensionCodec = c.extensionCodec;
    this.context = c.context;
    this.useBigInt64 = c.useBigInt64;
    this.maxDepth = c.maxDepth;
    this.initialBufferSize = c.initialBufferSize;
    this.sortKeys = c.sortKeys;
    this.forceFloat32 = c.forceFloat32;
    this.ignoreUndefined = c.ignoreUndefined;
    this.forceIntegerToFloat = c.forceIntegerToFloat;
    this.typedArrays = c.typedArrays;
    this.store = null; // borrowed for a call
    this.shared = null; // encodeSharedRef()'s output (SharedOutput), made on its first call
    // No store until a call borrows one; these empty views, shared by every
    // Encoder, stand in (a fresh pair per Encoder cost most of its making).
    this.bytes = NO_BYTES;
    this.view = NO_VIEW;
    this.pos = 0;
    this.base = 0; // where the output will start in its final buffer (encodeInto's offset)
    this.entered = false;
    this.fastDates = false;
    this.noExtensions = false;
  }

  /**
   * @param {unknown} value
   * @returns {Uint8Array} a new Uint8Array with its own ArrayBuffer
   */
  encode(value) {
    return this.entered ? this.clone().encode(value) : this.session(value, 0, takeCopy);
  }

  /**
   * encode() without a fresh output: a view of a buffer the Encoder reuses,
   * valid until its next call ends, or dispose(). The next call may read it
   * (as a bin, say).
   * @param {unknown} value
   * @returns {Uint8Array}
   */
  encodeSharedRef(value) {
    return this.outputsOf().encodeSharedRef(this, value);
  }

  /** The latest encodeSharedRef() output expires, and the Encoder lets go of its buffer. */
  dispose() {
    if (this.entered || this.shared === null) return;
    this.shared.expire();
    this.shared = null;
  }

  // `using encoder = new Encoder()` ends its latest encodeSharedRef() output at the
  // end of its block (engines without explicit resource management call dispose()
  // themselves). Its stores go back at the end of every call already.
  static {
    if (typeof Symbol.dispose === 'symbol') this.prototype[Symbol.dispose] = this.prototype.dispose;
  }

  /**
   * Encodes into target[offset...] without allocating an output.
   * @param {unknown} value
   * @param {Uint8Array} target
   * @param {number} [offset=0]
   * @returns {number} the offset after the message
   * @throws {RangeError} when the message does not fit (err.needed: its size)
   */
  encodeInto(value, target, offset = 0) {
    return this.outputsOf().encodeInto(this, value, target, offset);
  }

  /** What this Encoder's encodeSharedRef() and encodeInto() run (a public Encoder class's always has it). */
  outputsOf() {
    if (this.outputs === null) throw new TypeError('fastmp: this Encoder was made without encodeSharedRef() and encodeInto() (js/codec/encoder-outputs.js)');
    return this.outputs;
  }

  /**
   * One call: the value into a store borrowed for it (the output will start
   * at `base`), then `finish` of this. The store goes back when the call
   * ends; an earlier encodeSharedRef() output expires then, unless this call
   * made the next one. THE ALIASING RULE (the Encoder's side of it): a call
   * writes into the store it borrowed and nowhere else, and no store is lent
   * while a call may read it, so that an input is read as it was when the
   * call began, wherever it lies (js/codec/encoder-outputs.js, the outputs').
   */
  session(value, base, finish) {
    const pool = storePool(this.port);
    this.store = pool.borrow(this.initialBufferSize);
    this.entered = true; // (after the borrow, which may fail: growth refused)
    const use = this.shared?.use;
    try {
      this.run(value, base);
      return finish(this);
    } finally {
      this.store.stop();
      pool.giveBack(this.store, this.pos);
      this.store = null;
      this.bytes = NO_BYTES; // (an Encoder kept between calls holds no store's buffer)
      this.view = NO_VIEW;
      if (this.shared !== null && this.shared.use === use) this.shared.expire();
      this.entered = false;
    }
  }

  /** A fresh encoder with the same options, port and outputs (for a call made while this one is busy). */
  clone() {
    return new Encoder(this.config, this.port, this.outputs); // (not this.constructor: a subclass's constructor takes arguments of its own)
  }

  run(value, base) {
    const codec = this.extensionCodec;
    // (A subclass that encodes otherwise is asked as any other codec is.)
    const ours = codec instanceof ExtensionCodec && codec.tryToEncode === ExtensionCodec.prototype.tryToEncode;
    this.fastDates = ours && codec.nativeTimestamp;
    this.noExtensions = ours && codec.onlyTimestamps;
    const store = this.store;
    store.start();
    this.bytes = store.bytes;
    this.view = store.view;
    this.pos = 0;
    this.base = base;
    try {
      this.encodeAny(value, 1);
    } catch (err) {
      throw withPath(err);
    }
  }

  /** Room for `extra` more bytes at pos: the store grows, bytes/view are re-read. */
  grow(extra) {
    this.growAt(this.pos, extra);
  }

  /**
   * Room for `extra` more bytes at pos, `data` to be copied in there: returns
   * data, or a copy of it when the growth could detach it (wasm memory);
   * data in a store being written is refused (store.source()).
   */
  roomFor(extra, data) {
    const growing = this.pos + extra > this.bytes.length;
    const kept = this.store.source(data, growing);
    if (growing) this.grow(extra);
    return kept;
  }

  /** Room for `extra` bytes at p, keeping every byte before p (pos <= p). */
  growAt(p, extra) {
    const store = this.store;
    store.ensure(p, extra);
    this.bytes = store.bytes;
    this.view = store.view;
  }

  /** DEPTH: a value (or a typed array's elements) at `depth`, beyond maxDepth. */
  tooDeep(depth) {
    return codecError('DEPTH', `value nested too deep: depth ${depth} is beyond maxDepth ${this.maxDepth} (a cyclic reference?)`, this.pos);
  }

  encodeAny(value, depth) {
    if (depth > this.maxDepth) throw this.tooDeep(depth);
    switch (typeof value) {
      case 'number':
        this.writeNumber(value);
        return;
      case 'string':
        this.writeString(value);
        return;
      case 'boolean':
        this.writeByte(value ? 0xc3 : 0xc2);
        return;
      case 'undefined':
        this.writeByte(0xc0);
        return;
      case 'object':
        if (value === null) this.writeByte(0xc0);
        else this.encodeObject(value, depth);
        return;
      case 'bigint':
        if (this.useBigInt64) this.writeBigInt(value);
        else this.encodeObject(value, depth);
        return;
      default: // function, symbol: only an extension can take them
        this.encodeObject(value, depth);
    }
  }

  writeByte(b) {
    if (this.pos >= this.bytes.length) this.grow(1);
    this.bytes[this.pos++] = b;
  }

  /** A number in its smallest form, as @msgpack/msgpack chooses it. */
  writeNumber(v) {
    if (this.forceIntegerToFloat || !Number.isSafeInteger(v)) {
      this.writeFloat(v);
      return;
    }
    if (this.pos + 9 > this.bytes.length) this.grow(9);
    const b = this.bytes;
    const p = this.pos;
    if (v >= 0) {
      if (v < 0x80) {
        b[p] = v;
        this.pos = p + 1;
        return;
      }
      if (v < 0x100) {
        b[p] = 0xcc;
        b[p + 1] = v;
        this.pos = p + 2;
        return;
      }
      if (v < 0x10000) {
        b[p] = 0xcd;
        b[p + 1] = v >>> 8;
        b[p + 2] = v;
        this.pos = p + 3;
        return;
      }
      if (v < UINT32_LIMIT) {
        b[p] = 0xce;
        this.view.setUint32(p + 1, v);
        this.pos = p + 5;
        return;
      }
      if (this.useBigInt64) {
        this.writeFloat(v); // int64 reads back as a BigInt there
        return;
      }
      b[p] = 0xcf;
    } else {
      if (v >= -0x20) {
        b[p] = v;
        this.pos = p + 1;
        return;
      }
      if (v >= -0x80) {
        b[p] = 0xd0;
        b[p + 1] = v;
        this.pos = p + 2;
        return;
      }
      if (v >= -0x8000) {
        b[p] = 0xd1;
        b[p + 1] = v >> 8;
        b[p + 2] = v;
        this.pos = p + 3;
        return;
      }
      if (v >= -0x80000000) {
        b[p] = 0xd2;
        this.view.setInt32(p + 1, v);
        this.pos = p + 5;
        return;
      }
      if (this.useBigInt64) {
        this.writeFloat(v);
        return;
      }
      b[p] = 0xd3;
    }
    this.view.setUint32(p + 1, Math.floor(v / UINT32_LIMIT));
    this.view.setUint32(p + 5, v >>> 0);
    this.pos = p + 9;
  }

  writeFloat(v) {
    if (this.pos + 9 > this.bytes.length) this.grow(9);
    const p = this.pos;
    if (this.forceFloat32) {
      this.bytes[p] = 0xca;
      this.view.setFloat32(p + 1, v);
      this.pos = p + 5;
    } else {
      this.bytes[p] = 0xcb;
      this.view.setFloat64(p + 1, v);
      this.pos = p + 9;
    }
  }

  writeBigInt(v) {
    if (v > BIGINT_MAX || v < BIGINT_MIN) {
      throw codecError('RANGE', `the BigInt ${v} does not fit in 64 bits`, this.pos, { value: v });
    }
    if (this.pos + 9 > this.bytes.length) this.grow(9);
    const p = this.pos;
    if (v >= 0n) {
      this.bytes[p] = 0xcf;
      this.view.setBigUint64(p + 1, v);
    } else {
      this.bytes[p] = 0xd3;
      this.view.setBigInt64(p + 1, v);
    }
    this.pos = p + 9;
  }

  /**
   * A str. Room for the longest UTF-8 form (3 bytes a unit) is made first and
   * the text written after the header it needs at most; when the byte length
   * turns out to need a shorter header, the text moves down (rare: only
   * strings of 11-31 or 86-255 units whose bytes cross a header boundary).
   */
  writeString(str) {
    const n = str.length;
    if (n > TEXT_ENCODER_THRESHOLD) {
      this.writeLongString(str, n);
      return;
    }
    if (this.pos + 2 + 3 * n > this.bytes.length) this.grow(2 + 3 * n);
    const b = this.bytes;
    const p = this.pos;
    if (n < 32) {
      const end = writeUtf8Short(str, b, p + 1);
      const size = end - p - 1;
      if (size < 32) {
        b[p] = 0xa0 | size;
        this.pos = end;
        return;
      }
      b.copyWithin(p + 2, p + 1, end);
      b[p] = 0xd9;
      b[p + 1] = size;
      this.pos = end + 1;
      return;
    }
    const end = writeUtf8Short(str, b, p + 2); // 32..150 bytes: str 8
    b[p] = 0xd9;
    b[p + 1] = end - p - 2;
    this.pos = end;
  }

  writeLongString(str, n) {
    // More than 50 units: 51 to 3n bytes, so str 8, 16 or 32; room for the longest header first.
    const most = 3 * n;
    const head = most < 0x100 ? 2 : most < 0x10000 ? 3 : 5;
    const start = this.pos + head;
    const end = this.writeUtf8(str, n, start);
    const size = end - start;
    if (size >= UINT32_LIMIT) throw codecError('LENGTH', `a string of ${size} UTF-8 bytes is longer than msgpack's limit of 2^32-1`, this.pos);
    const fits = size < 0x100 ? 2 : size < 0x10000 ? 3 : 5;
    if (fits !== head) this.bytes.copyWithin(this.pos + fits, start, end);
    this.putHeader(this.pos, size, fits, 0xd9, 0xda, 0xdb);
    this.pos += fits + size;
  }

  /** Writes str (n units) as UTF-8 at `start` (beyond pos: the header goes before it); returns its end. */
  writeUtf8(str, n, start) {
    const headRoom = start - this.pos;
    if (n < HUGE_STRING) {
      if (start + 3 * n > this.bytes.length) this.grow(headRoom + 3 * n);
      return encodeUtf8Into(str, this.bytes, start).end;
    }
    // Huge: room for one byte a unit, then more as TextEncoder reports what it could not write.
    if (start + n > this.bytes.length) this.grow(headRoom + n);
    let { read, end } = encodeUtf8Into(str, this.bytes, start);
    while (read < n) {
      const rest = str.substring(read);
      this.growAt(end, 3 * rest.length);
      const more = encodeUtf8Into(rest, this.bytes, end);
      read += more.read;
      end = more.end;
    }
    return end;
  }

  /** Writes the header of `size` bytes (1, 2 for the 8-bit form, 3, 5) for n at p. */
  putHeader(p, n, size, tag8or1, tag16, tag32) {
    const b = this.bytes;
    if (size === 1) {
      b[p] = tag8or1 | n;
    } else if (size === 2) {
      b[p] = tag8or1;
      b[p + 1] = n;
    } else if (size === 3) {
      b[p] = tag16;
      b[p + 1] = n >>> 8;
      b[p + 2] = n;
    } else {
      b[p] = tag32;
      this.view.setUint32(p + 1, n);
    }
  }

  /** A fixarray/fixmap, 16- or 32-bit array/map header for n entries. */
  writeContainerHeader(n, fix, tag16, tag32) {
    if (this.pos + 5 > this.bytes.length) this.grow(5);
    const size = containerHeaderSize(n);
    this.putHeader(this.pos, n, size, fix, tag16, tag32);
    this.pos += size;
  }

  encodeObject(value, depth) {
    if (this.fastDates && value instanceof Date) {
      this.writeDate(value);
      return;
    }
    if (!this.noExtensions) {
      let ext;
      try {
        ext = this.extensionCodec.tryToEncode(value, this.context) ?? (value instanceof ExtData ? value : null);
      } catch (err) {
        throw fromCallerCode(err, this.pos); // (an extension's error, located at the value)
      }
      if (ext != null) {
        this.writeExt(ext);
        return;
      }
    } else if (value instanceof ExtData) {
      this.writeExt(value);
      return;
    }
    if (Array.isArray(value)) {
      this.writeArray(value, depth);
    } else if (ArrayBuffer.isView(value)) {
      this.writeView(value, depth);
    } else if (value instanceof BoolArray) {
      this.writeBools(value, depth);
    } else if (value instanceof Map) {
      this.writeMapEntries(value, depth);
    } else if (value instanceof Set) {
      this.writeSetValues(value, depth);
    } else if (typeof value === 'object') {
      this.writeOtherObject(value, depth);
    } else {
      const how = typeof value === 'bigint'
        ? 'pass useBigInt64: true to write BigInts as int64 / uint64, or register an extension for them'
        : 'an extension may take it';
      throw codecError('TYPE', `cannot encode ${show(value)} (unrecognized object: ${how})`, this.pos);
    }
  }

  writeArray(array, depth) {
    const n = array.length;
    // (An Array's length always is; a Proxy of one may say anything: 2.5, -1, 2^32.)
    if (n >>> 0 !== n) throw codecError('TYPE', `cannot encode an array of length ${show(n)}`, this.pos);
    this.writeContainerHeader(n, 0x90, 0xdc, 0xdd);
    let i = 0;
    try {
      for (; i < n; i++) this.encodeAny(array[i], depth + 1);
    } catch (err) {
      throw addSegment(err, i);
    }
  }

  /**
   * An object as a map of its own enumerable string keys, unless it is a
   * Map, Set or Date of another realm (a Date: the timestamp extension, when
   * the codec has an encoder for it). A Date that no extension took (the
   * codec has no timestamp encoder), of any realm, is a map, as
   * @msgpack/msgpack writes it.
   */
  writeOtherObject(object, depth) {
    const kind = foreignKind(object);
    if (kind === Map) this.writeMapEntries(object, depth);
    else if (kind === Set) this.writeSetValues(object, depth);
    // (When the codec has a timestamp encoder, which asks instanceof Date and so did not take it.)
    else if (kind === Date && !(object instanceof Date) && encodesTimestamps(this.extensionCodec)) this.writeDate(object);
    else this.writeMap(object, depth);
  }

  writeMap(object, depth) {
    const keys = Object.keys(object);
    if (this.sortKeys) keys.sort();
    if (this.ignoreUndefined) {
      this.writeMapWithoutUndefined(object, keys, depth);
      return;
    }
    const n = keys.length;
    this.writeContainerHeader(n, 0x80, 0xde, 0xdf);
    let i = 0;
    try {
      for (; i < n; i++) {
        const key = keys[i];
        this.writeString(key);
        this.encodeAny(object[key], depth + 1);
      }
    } catch (err) {
      throw addSegment(err, keys[i]);
    }
  }

  /**
   * A Map as a msgpack map of its entries, in insertion order, keys of any
   * type (msgpackr's rule; @msgpack/msgpack writes an empty map). The entries
   * are taken first, through the intrinsic forEach: the header counts what is
   * written even if encoding a value changes the Map, and a subclass's own
   * size or iterator is never asked.
   */
  writeMapEntries(map, depth) {
    const entries = snapshot(mapForEach, isMap, map, 'Map', this.pos);
    let order = entries.map((_, i) => i);
    if (this.ignoreUndefined) order = order.filter((i) => entries[i][1] !== undefined);
    if (this.sortKeys) order = sortedByKey(entries, order, this.pos);
    this.writeContainerHeader(order.length, 0x80, 0xde, 0xdf);
    for (const i of order) {
      const [key, value] = entries[i];
      try {
        this.encodeAny(key, depth + 1);
      } catch (err) {
        throw addSegment(err, new KeySegment(i));
      }
      try {
        this.encodeAny(value, depth + 1);
      } catch (err) {
        throw addSegment(err, typeof key === 'string' || typeof key === 'number' ? key : new EntrySegment(i));
      }
    }
  }

  /** A Set as a msgpack array of its values, in insertion order (msgpackr's rule), taken first as a Map's entries are. */
  writeSetValues(set, depth) {
    const values = snapshot(setForEach, isSet, set, 'Set', this.pos).map(([value]) => value);
    this.writeContainerHeader(values.length, 0x90, 0xdc, 0xdd);
    let i = 0;
    try {
      for (; i < values.length; i++) this.encodeAny(values[i], depth + 1);
    } catch (err) {
      throw addSegment(err, i);
    }
  }

  /**
   * ignoreUndefined, each value read once (getters run once). Under 16 keys
   * the header is a fixmap's one byte whatever the count: written first,
   * and the count put in once the entries are. From 16 keys its size
   * depends on the count, which must be known before the entries are
   * written (moved afterwards, a deferred extension payload among them would
   * have been told another position): the values are read first.
   */
  writeMapWithoutUndefined(object, keys, depth) {
    const n = keys.length;
    const ahead = n < 16 ? null : new Array(n);
    const start = this.pos;
    let count = 0;
    let i = 0;
    try {
      if (ahead !== null) for (; i < n; i++) if ((ahead[i] = object[keys[i]]) !== undefined) count++;
      this.writeContainerHeader(ahead === null ? n : count, 0x80, 0xde, 0xdf);
      for (count = 0, i = 0; i < n; i++) {
        const value = ahead === null ? object[keys[i]] : ahead[i];
        if (value === undefined) continue;
        this.writeString(keys[i]);
        this.encodeAny(value, depth + 1);
        count++;
      }
    } catch (err) {
      throw addSegment(err, keys[i]);
    }
    if (ahead !== null) return;
    this.grow(0); // (the last getter may have run user code that grew wasm memory: views taken again)
    this.bytes[start] = 0x80 | count;
  }

  /**
   * A typed array or DataView, by kind and the typedArrays option. A
   * Float16Array is written as its values widened to a Float32Array (exact;
   * msgpack and msgpackr's ext have no float16), except as 'bin': its bytes.
   * `depth`: the value's, as encodeAny() was given it.
   */
  writeView(value, depth) {
    const brand = typedArrayName(value); // (read once: the live view is of the same type)
    let kind = kindOfName(brand);
    // The common case first, read once: a typed array written as a standard
    // array that reports elements is attached and in bounds, so it is its own
    // live view (the port contract's live()).
    const n = kind === undefined ? 0 : lengthOf(value);
    if (n !== 0 && this.typedArrays === 'array' && kind !== UINT8 && kind !== UINT8_CLAMPED) {
      this.writeTypedArray(kind, value, n, depth);
      return;
    }
    let view = liveSource(this, value);
    if (kind === undefined && this.typedArrays !== 'bin' && isHalf(view)) {
      view = widenHalf(view, 'encode');
      kind = FLOAT32;
    }
    if (kind === undefined || kind === UINT8 || this.typedArrays === 'bin') this.writeBin(viewBytes(view));
    else if (this.typedArrays === 'ext') this.writeTypedExt(kind, viewBytes(view));
    else if (kind === UINT8_CLAMPED) this.writeBin(viewBytes(view)); // bytes (canvas pixels): a bin, as pack() writes them
    else this.writeTypedArray(kind, view, lengthOf(view), depth);
  }

  /** A BoolArray (one its constructor made: an object that only inherits from it is refused). */
  writeBools(value, depth) {
    const bytes = value.bytes;
    if (typedArrayName(bytes) !== 'Uint8Array') throw new TypeError(`fastmp: a BoolArray holds a Uint8Array, not ${show(bytes)}`);
    const x = liveSource(this, bytes, boolOriginal(value));
    this.writeTypedArray(BOOL, x, lengthOf(x), depth);
  }

  /**
   * A standard msgpack array of the n elements of x (a live view: refused
   * past its lifetime), written by the store at pos. Its elements are a
   * level deeper than the array (at `depth`), as a plain array's are and as
   * decode() without a shape counts them: beyond maxDepth, DEPTH.
   */
  writeTypedArray(kind, x, n, depth) {
    if (n !== 0 && depth >= this.maxDepth) throw this.tooDeep(depth + 1);
    if (n > MAX_ELEMENTS) {
      throw codecError('LENGTH', `a ${kind.name} of ${n} elements is longer than a msgpack array can be (2^32-1)`, this.pos);
    }
    if (n === 0) refuse(x, 'encode');
    else refuseSized(x, n * kind.bytes, 'encode'); // (n read through the intrinsics: x is attached)
    const store = this.store;
    this.pos = store.writeTyped(kind, x, n, this.pos);
    // The store's bytes, taken again: the call may have grown it, or grown memory (a kernel's scratch).
    const bytes = store.bytes;
    if (bytes !== this.bytes) {
      this.bytes = bytes;
      this.view = store.view;
    }
  }

  writeBin(data) {
    const n = data.length;
    if (n >= UINT32_LIMIT) throw codecError('LENGTH', `a bin of ${n} bytes is longer than msgpack's limit of 2^32-1`, this.pos);
    const bytes = this.roomFor(5 + n, data);
    const size = n < 0x100 ? 2 : n < 0x10000 ? 3 : 5;
    this.putHeader(this.pos, n, size, 0xc4, 0xc5, 0xc6);
    this.bytes.set(bytes, this.pos + size);
    this.pos += size + n;
  }

  /** msgpackr's typed-array ext: always ext 8/16/32, then 0x74, the element code and the raw bytes. */
  writeTypedExt(kind, data) {
    const n = data.length + 1;
    if (n >= UINT32_LIMIT) throw codecError('LENGTH', `a ${kind.name} of ${data.length} bytes is too long for an ext`, this.pos);
    const bytes = this.roomFor(7 + n, data);
    const size = n < 0x100 ? 2 : n < 0x10000 ? 3 : 5;
    this.putHeader(this.pos, n, size, 0xc7, 0xc8, 0xc9);
    const p = this.pos + size;
    this.bytes[p] = EXT_TYPED_ARRAY;
    this.bytes[p + 1] = kind.ext;
    this.bytes.set(bytes, p + 2);
    this.pos = p + 1 + n;
  }

  /** An ExtData; a function payload is called with its position in the output and written as ext 32. */
  writeExt(ext) {
    const type = ext.type;
    // The type as the number its byte is written from, first: an object's
    // valueOf() is user code, which may grow wasm memory or detach the data,
    // and must run before they are checked and the store's bytes are read.
    // It must be an integer that msgpack's type byte holds (-128..127, as register() takes): another is RANGE, never written wrapped.
    const typeByte = +type;
    if (typeByte !== typeByte << 24 >> 24) throw codecError('RANGE', `ext type ${typeByte} is not -128..127`, this.pos, { value: typeByte });
    let data = ext.data;
    const deferred = typeof data === 'function';
    if (deferred) {
      try {
        data = data(this.base + this.pos + 6);
      } catch (err) {
        throw fromCallerCode(err, this.pos);
      }
    }
    data = this.extBytes(data, type);
    const n = lengthOf(data);
    if (n >= UINT32_LIMIT) throw this.extTooLong(n);
    data = this.roomFor(6 + n, data);
    const b = this.bytes;
    let p = this.pos;
    if (deferred) {
      b[p] = 0xc9;
      this.view.setUint32(p + 1, n);
      p += 5;
    } else {
      p += this.writeExtHeader(p, n);
    }
    b[p] = typeByte;
    b.set(data, p + 1);
    this.pos = p + 1 + n;
  }

  /**
   * An extension's bytes as a typed array, whose length is the engine's: a
   * typed array as it is (an alloc() array this call's growth detached found
   * again), any other array-like copied once. (A subclass's `length` getter
   * could claim more bytes than it holds, and the output's stale bytes after
   * them would go out; an array-like's getters could run between reads.)
   */
  extBytes(data, type) {
    if (typedArrayName(data) !== undefined) return liveSource(this, data);
    const length = data?.length; // read once, checked before anything is allocated for it
    if (!Number.isSafeInteger(length) || length < 0) throw new TypeError(`fastmp: extension ${type}'s data is ${show(data)}, not a Uint8Array`);
    if (length >= UINT32_LIMIT) throw this.extTooLong(length);
    const bytes = new Uint8Array(length);
    for (let i = 0; i < length; i++) bytes[i] = data[i];
    return bytes;
  }

  extTooLong(n) {
    return codecError('LENGTH', `an extension of ${n} bytes is longer than msgpack's limit of 2^32-1`, this.pos);
  }

  /** fixext 1/2/4/8/16 or ext 8/16/32 for n bytes at p; returns its size (without the type byte). */
  writeExtHeader(p, n) {
    const fixed = n === 1 ? 0xd4 : n === 2 ? 0xd5 : n === 4 ? 0xd6 : n === 8 ? 0xd7 : n === 16 ? 0xd8 : 0;
    if (fixed !== 0) {
      this.bytes[p] = fixed;
      return 1;
    }
    const size = n < 0x100 ? 2 : n < 0x10000 ? 3 : 5;
    this.putHeader(p, n, size, 0xc7, 0xc8, 0xc9);
    return size;
  }

  /** A Date as the timestamp extension, written in place (what the built-in extension would return). */
  writeDate(date) {
    const spec = timeSpecOfDate(date, this.pos);
    const n = timestampSize(spec);
    if (this.pos + 3 + n > this.bytes.length) this.grow(3 + n);
    const p = this.pos + this.writeExtHeader(this.pos, n);
    this.bytes[p] = 0xff;
    writeTimeSpec(this.view, p + 1, spec, n);
    this.pos = p + 1 + n;
  }
}
