// api.js - the typed-array API of one instance: makeTypedApi(core) returns the
// functions bound to `core` = { boundary, backend, pureJs } (js/instance.js).
// It holds no state of its own. Every function reads and checks all of its
// arguments first (hostile getters run then, once), then asks the boundary
// where the input is (its lifetime), then runs the pure-JS path or a kernel.

import { MAX_ELEMENTS, INTEGRAL_FLOATS } from './abi.js';
import {
  BOOLEAN, asOffset, copyInto, describe, inputBytes, kindOfArray, lengthOf, ownView, readOption, typedArrayName, usableLength,
} from './args.js';
import { NO_INDEX, msgpackError } from './errors.js';
import { BOOL, KIND_OF_NAME, TYPE_NAMES, kindOfType } from './kinds.js';
import { jsLimits } from './port.js';
import { allocArray, detachedError, locate, locateSized, locateTarget, refreshed, release } from './wasm/lifetimes.js';
import * as wasmTyped from './wasm/typed.js';
import { HALF, halfOf, halfTarget, isHalf, widenHalf } from './codec/typed.js';
import {
  arrayCount, arrayHeaderSize, binHeaderSize, decodeKind, isBinAt, newCursor, packBin as packBinBytes, packKind, packKindInto, readBin,
} from './wire.js';

const PACK_OPTIONS = { bin: BOOLEAN };
const UNPACK_OPTIONS = { integralFloats: BOOLEAN };

const FLOAT64 = KIND_OF_NAME.get('Float64Array');
// A Float16Array (where the engine has one) is packed as float32 elements and
// unpacked through float64: codec/typed.js HALF. alloc() makes none: no kernel reads float16.
const API_TYPE_NAMES = HALF.Type === undefined ? TYPE_NAMES : `${TYPE_NAMES}, Float16Array`;

const tooManyElements = (n) => new RangeError(`fastmp: a msgpack array holds at most 2^32-1 elements, not ${n}`);
// A bin's length field is a u32 too, and its header takes up to 5 bytes of the output.
const tooManyBytes = (n) => new RangeError(`fastmp: a msgpack bin holds at most 2^32-1 bytes, not ${n}`);

/**
 * A bin of x's bytes. Its output is up to 5 bytes longer than x: past the
 * engine's largest typed array (2^32 bytes in V8), a RangeError that says so
 * rather than the engine's "Invalid typed array length".
 */
function packBin(x, n) {
  if (n > MAX_ELEMENTS) throw tooManyBytes(n);
  try {
    return packBinBytes(x, n);
  } catch (e) {
    if (!(e instanceof RangeError)) throw e;
    throw new RangeError(`fastmp: a bin of ${n} bytes takes ${n + binHeaderSize(n)} bytes, more than a typed array can hold in this engine`, { cause: e });
  }
}

// packInto()'s pure-JS output, reused (the path runs below the crossovers, a
// few KB at most; a larger output, with pureJs 'always', is a fresh array).
let jsScratch = new Uint8Array(1024);
const JS_SCRATCH_MAX = 1 << 16;

/** x packed by the pure-JS path, as a view of jsScratch (valid until the next packSmall). */
function packSmall(kind, x, n) {
  const largest = arrayHeaderSize(n) + n * kind.wire;
  if (largest > JS_SCRATCH_MAX) return packKind(kind, x, n);
  if (largest > jsScratch.length) jsScratch = new Uint8Array(JS_SCRATCH_MAX);
  return jsScratch.subarray(0, packKindInto(kind, x, n, jsScratch, 0));
}

/** `bytes` into target[offset...] when they fit the room left; returns their length. */
function put(bytes, target, offset, room) {
  const size = lengthOf(bytes);
  if (size > room) throw noRoom(size, offset, room);
  copyInto(target, bytes, offset);
  return size;
}

const noRoom = (size, offset, room) => new RangeError(`fastmp: packInto() needs ${size} bytes from offset ${offset}; the target has ${room}`);

// The small-input path of pack() and unpack() (N = 1-16: a call in V8 costs
// about what the allocation of its output costs) is kept small: V8 inlines
// a call's callees only up to ~900 bytes of their bytecode in all, and what
// does not fit is called, and loses the optimizations across the call (a
// checked call costs more than the decoding of one element). So each step on
// that path is a small function whose rare cases (errors, other inputs) are
// calls to functions of their own, which never run there; and the second
// results (where an array's elements begin, where it ends) are not objects.

/** The typed-array functions bound to one instance's core (js/instance.js). */
export function makeTypedApi(core) {
  const { boundary: b } = core;
  const limits = jsLimits(core);
  const jsPack = limits.pack;
  const jsUnpack = limits.unpack;
  const detached = (x, fn) => detachedError(b, x, fn);
  // The readers' cursor (js/wire.js newCursor()): after unpackAt(), its pos is
  // where the array ended (the second result, read by the caller at once): no
  // { value, end } object per call.
  const cursor = newCursor();

  /** The kind of typed array x (HALF for a Float16Array); a TypeError for anything else. */
  const packable = (x, fn) => kindOfArray(x) ?? otherPackable(x, fn);

  /** packable() of what is no KINDS typed array: HALF, or a TypeError. */
  function otherPackable(x, fn) {
    if (isHalf(x)) return HALF;
    throw new TypeError(`fastmp: ${fn}() takes a ${API_TYPE_NAMES}, not ${describe(x)}`);
  }

  // ---- pack ---------------------------------------------------------------------
  // The packers read x by index and through the intrinsic getters only (n is
  // read once): no property of x is asked again.

  function pack(x, options) {
    const kind = packable(x, 'pack');
    const bin = readOption(options, 'pack', PACK_OPTIONS, 'bin') ?? true;
    const n = usableLength(x, 'pack', detached);
    const at = locateSized(b, x, n * kind.bytes, 'pack', x);
    // (A limit of jsPack is at most MAX_ELEMENTS + 1: below it n fits an array.)
    if (kind !== HALF && !(bin && kind.c === 'u8') && n < jsPack[kind.index]) return packKind(kind, x, n);
    return packOther(kind, x, n, at, bin);
  }

  /** pack() of all but the pure-JS path's inputs: a Float16Array, a bin, the wasm path, or too many elements. */
  function packOther(kind, x, n, at, bin) {
    if (kind === HALF) return pack(widenHalf(x, 'pack', detached)); // float32 elements, from a copy in JS memory
    if (kind.c === 'u8' && bin) return packBin(x, n);
    if (n > MAX_ELEMENTS) throw tooManyElements(n);
    return wasmTyped.pack(b, kind, x, n, at);
  }

  function packView(x, options) {
    const kind = packable(x, 'packView');
    const bin = readOption(options, 'packView', PACK_OPTIONS, 'bin') ?? true;
    const n = usableLength(x, 'packView', detached);
    const at = locate(b, x, 'packView', x);
    if (kind === HALF) return packView(widenHalf(x, 'packView', detached));
    if (kind.c === 'u8' && bin) return wasmTyped.bytesView(b, packBin(x, n));
    if (n > MAX_ELEMENTS) throw tooManyElements(n);
    return wasmTyped.packView(b, kind, x, n, at);
  }

  /**
   * pack() into target[offset...]; returns the offset just past the output.
   * Allocates no output: both paths pack into scratch (to learn the exact
   * size, and because x may share target's memory), then copy. An output
   * larger than the room left is a RangeError, with target unchanged.
   */
  function packInto(x, target, offset = 0, options = undefined) {
    const kind = packable(x, 'packInto');
    if (typedArrayName(target) !== 'Uint8Array') {
      throw new TypeError(`fastmp: packInto() writes into a Uint8Array, not ${describe(target)}`);
    }
    usableLength(target, 'packInto', detached); // DETACHED, before its offset is checked against its length
    asOffset(offset, target, 'packInto');
    const bin = readOption(options, 'packInto', PACK_OPTIONS, 'bin') ?? true;
    const length = usableLength(target, 'packInto', detached); // again: an options getter may have detached it
    const n = usableLength(x, 'packInto', detached);
    const at = locate(b, x, 'packInto', x);
    const targetAt = locateTarget(b, target, 'packInto');
    if (kind === HALF) return packInto(widenHalf(x, 'packInto', detached), target, offset);
    const room = length - offset;
    if (kind.c === 'u8' && bin) return offset + put(packBin(x, n), target, offset, room);
    if (n > MAX_ELEMENTS) throw tooManyElements(n);
    if (n < jsPack[kind.index]) return offset + put(packSmall(kind, x, n), target, offset, room);
    const size = wasmTyped.packInto(b, kind, x, n, at, target, targetAt, offset, room);
    if (size < 0) throw noRoom(-size, offset, room);
    return offset + size;
  }

  function packBool(x) {
    const { bytes, n, at } = boolBytes(x, 'packBool');
    if (n < jsPack[BOOL.index]) return packKind(BOOL, bytes, n);
    return wasmTyped.pack(b, BOOL, bytes, n, at);
  }

  /** packBool() without the copy out (and for an alloc() array without the copy in): as packView(). */
  function packBoolView(x) {
    const { bytes, n, at } = boolBytes(x, 'packBoolView');
    return wasmTyped.packView(b, BOOL, bytes, n, at);
  }

  /**
   * packBool()'s input as bytes: an array of booleans (copied, each element
   * read once), or a Uint8Array (the caller's own, read by index and through
   * the intrinsics); their count, and where they are (locate()).
   */
  function boolBytes(x, fn) {
    if (Array.isArray(x)) {
      const n = x.length;
      if (n > MAX_ELEMENTS) throw tooManyElements(n);
      const bytes = new Uint8Array(n);
      for (let i = 0; i < n; i++) {
        const v = x[i];
        if (typeof v !== 'boolean') throw new TypeError(`fastmp: ${fn}() element ${i} is ${describe(v)}, not a boolean`);
        bytes[i] = v ? 1 : 0;
      }
      return { bytes, n, at: locate(b, bytes, fn, bytes) };
    }
    if (kindOfArray(x)?.name !== 'Uint8Array') {
      throw new TypeError(`fastmp: ${fn}() takes an array of booleans or a Uint8Array, not ${describe(x)}`);
    }
    const n = usableLength(x, fn, detached);
    if (n > MAX_ELEMENTS) throw tooManyElements(n);
    return { bytes: x, n, at: locate(b, x, fn, x) };
  }

  // ---- zero-copy ------------------------------------------------------------------

  function alloc(Type, n) {
    const kind = kindOfType(Type);
    if (kind === undefined) {
      const what = halfTarget(Type) === HALF ? 'a Float16Array (no kernel reads float16: pack() one from JS memory)' : describe(Type);
      throw new TypeError(`fastmp: alloc() makes a ${TYPE_NAMES}, not ${what}`);
    }
    if (!Number.isSafeInteger(n) || n < 0 || n > MAX_ELEMENTS) {
      throw new RangeError(`fastmp: alloc() takes a length from 0 to 2^32-1, not ${describe(n)}`);
    }
    return allocArray(b, kind, n);
  }

  function free(x) {
    if (!release(b, x)) throw new TypeError(`fastmp: free() takes an array from alloc(), not ${describe(x)}`);
  }

  function refresh(x) {
    const view = refreshed(b, x);
    if (view === undefined) throw new TypeError(`fastmp: refresh() takes an array from alloc(), not ${describe(x)}`);
    return view;
  }

  // ---- unpack -------------------------------------------------------------------

  /** The kind unpack() decodes into: a constructor of this realm's typed arrays (HALF for Float16Array). */
  const targetKind = (Type, fn) => kindOfType(Type) ?? otherTarget(Type, fn);

  /** targetKind() of what is not a KINDS constructor: HALF, or a TypeError. */
  function otherTarget(Type, fn) {
    const kind = halfTarget(Type);
    if (kind === undefined) throw new TypeError(`fastmp: ${fn}() decodes into a ${API_TYPE_NAMES}; the second argument was ${describe(Type)}`);
    return kind;
  }

  // Each reads its input's length (usableLength()) after its arguments, whose
  // getters may detach it (a packView() output, by growing memory), and
  // before any call into wasm, which may do the same: the length is the one
  // every later step uses.

  function unpack(bytes, Type, options) {
    const input = inputBytes(bytes, 'unpack'); // the caller's Uint8Array itself: only the kernels get an own view
    const kind = targetKind(Type, 'unpack');
    const integralFloats = readOption(options, 'unpack', UNPACK_OPTIONS, 'integralFloats') ?? false;
    const length = usableLength(input, 'unpack', detached);
    const value = unpackAt(input, length, locateSized(b, input, length, 'unpack', bytes), kind, 0, integralFloats, 'unpack');
    if (cursor.pos !== length) throw trailing(cursor.pos, input, length);
    return value;
  }

  function unpackFrom(bytes, Type, offset = 0, options = undefined) {
    const input = inputBytes(bytes, 'unpackFrom');
    const kind = targetKind(Type, 'unpackFrom');
    usableLength(input, 'unpackFrom', detached); // DETACHED, before the offset is checked against its length
    asOffset(offset, input, 'unpackFrom');
    const integralFloats = readOption(options, 'unpackFrom', UNPACK_OPTIONS, 'integralFloats') ?? false;
    const length = usableLength(input, 'unpackFrom', detached);
    const value = unpackAt(input, length, locateSized(b, input, length, 'unpackFrom', bytes), kind, offset, integralFloats, 'unpackFrom');
    return { value, end: cursor.pos };
  }

  function unpackBool(bytes) {
    const input = inputBytes(bytes, 'unpackBool');
    const length = usableLength(input, 'unpackBool', detached);
    const value = unpackAt(input, length, locateSized(b, input, length, 'unpackBool', bytes), BOOL, 0, false, 'unpackBool');
    if (cursor.pos !== length) throw trailing(cursor.pos, input, length);
    return value;
  }

  function unpackBoolFrom(bytes, offset = 0) {
    const input = inputBytes(bytes, 'unpackBoolFrom');
    const length = usableLength(input, 'unpackBoolFrom', detached);
    asOffset(offset, input, 'unpackBoolFrom');
    const value = unpackAt(input, length, locateSized(b, input, length, 'unpackBoolFrom', bytes), BOOL, offset, false, 'unpackBoolFrom');
    return { value, end: cursor.pos };
  }

  /**
   * The array at input[start] (input holds `length` bytes; a bin too, for
   * Uint8Array / Uint8ClampedArray) as a new typed array of kind (BOOL: a
   * Uint8Array of 0 / 1); sets cursor.pos to where it ends.
   */
  function unpackAt(input, length, at, kind, start, integralFloats, fn) {
    if (kind === HALF || (kind.c === 'u8' && isBinAt(input, start))) return unpackOther(input, length, at, kind, start, integralFloats, fn);
    const count = arrayCount(input, start, length, cursor);
    if (count >= jsUnpack[kind.index]) return unpackWasm(input, at, kind, start, count, integralFloats, fn);
    return decodeKind(kind, input, length, cursor.pos, count, integralFloats, cursor);
  }

  /** unpackAt() into a Float16Array (through float64: one rounding), or of a bin. */
  function unpackOther(input, length, at, kind, start, integralFloats, fn) {
    if (kind === HALF) return halfOf(unpackAt(input, length, at, FLOAT64, start, integralFloats, fn));
    return readBin(input, start, kind.Type, cursor);
  }

  /** The kernel's decode of the array of `count` elements at input[start], its header just read (arrayCount()); sets cursor.pos to where it ends. */
  function unpackWasm(input, at, kind, start, count, integralFloats, fn) {
    const body = cursor.pos;
    const view = ownView(input, Uint8Array, fn, detached);
    const r = wasmTyped.unpack(b, kind, view, start, body, count, integralFloats ? INTEGRAL_FLOATS : 0, at);
    cursor.pos = r.end;
    return r.value;
  }

  return { pack, packBool, packBoolView, packInto, packView, unpack, unpackFrom, unpackBool, unpackBoolFrom, alloc, free, refresh };
}

/**
 * Bytes after the array. The input may be a packView() output that the call's
 * memory growth detached (length 0 now): the message needs only its length.
 */
function trailing(end, input, length) {
  return msgpackError('TRAILING', NO_INDEX, end, lengthOf(input) === length ? input : new Uint8Array(length));
}
