// typed.js - the typed-array functions (pack, unpack, alloc, ...) of an
// instance, each taking the instance's core (js/core.js) first: the module
// API (js/api/typed.js) passes the default one, an instance from
// createFastmp() its own. Every function reads and checks all of its
// arguments first (hostile getters run then, once), then asks where its
// input lies (js/lifetimes.js refuse(): a view past its lifetime is refused),
// then hands it to the typed-array I/O (js/io.js), which picks the path.

import { MAX_ELEMENTS } from './abi.js';
import { BOOLEAN, asOffset, copyInto, describe, inputBytes, isArray, kindOfArray, lengthOf, readOption, typedArrayName, usableLength } from './args.js';
import { NO_INDEX, msgpackError } from './errors.js';
import * as io from './io.js';
import { BOOL, KIND_OF_NAME, TYPE_NAMES, kindOfType } from './kinds.js';
import { refuse, refuseSized, refuseTarget } from './lifetimes.js';
import { HALF, halfOf, halfTarget, isHalf, widenHalf } from './codec/typed.js';
import { arrayCount, binHeaderSize, isBinAt, newCursor, packBin as packBinBytes, readBin } from './wire.js';
import * as heapVerbs from './wasm/heap.js';

const PACK_OPTIONS = { bin: BOOLEAN };
const UNPACK_OPTIONS = { integralFloats: BOOLEAN };

const FLOAT64 = /* @__PURE__ */ KIND_OF_NAME.get('Float64Array');
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

// The small-input path of pack() and unpack() (N = 1-16: a call in V8 costs
// about what the allocation of its output costs) is kept small: V8 inlines
// a call's callees only up to ~900 bytes of their bytecode in all, and what
// does not fit is called, and loses the optimizations across the call (a
// checked call costs more than the decoding of one element). So each step on
// that path is a small function whose rare cases (errors, other inputs) are
// calls to functions of their own, which never run there.

/** The kind of typed array x (HALF for a Float16Array); a TypeError for anything else. */
const packable = (x, fn) => kindOfArray(x) ?? otherPackable(x, fn);

/** packable() of what is no KINDS typed array: HALF, or a TypeError. */
function otherPackable(x, fn) {
  if (isHalf(x)) return HALF;
  throw new TypeError(`fastmp: ${fn}() takes a ${API_TYPE_NAMES}, not ${describe(x)}`);
}

// ---- pack ---------------------------------------------------------------------------
// The packers read x by index and through the intrinsic getters only (n is
// read once): no property of x is asked again.

export function pack(core, x, options) {
  const kind = packable(x, 'pack');
  const bin = readOption(options, 'pack', PACK_OPTIONS, 'bin') ?? true;
  const n = usableLength(x, 'pack');
  if (kind === HALF || (bin && kind.c === 'u8') || n > MAX_ELEMENTS) return packOther(core, kind, refused(x, n * kind.bytes, 'pack'), n, bin);
  return io.pack(core, kind, x, n, 'pack'); // (which refuses x past its lifetime, on either path)
}

/** x (attached, of `size` bytes), once refuseSized() has let it through. */
const refused = (x, size, fn) => {
  refuseSized(x, size, fn);
  return x;
};

/** pack() of a Float16Array, a bin, or too many elements. */
function packOther(core, kind, x, n, bin) {
  if (kind === HALF) return pack(core, widenHalf(x, 'pack')); // float32 elements, from a copy in JS memory
  if (kind.c === 'u8' && bin) return packBin(x, n);
  throw tooManyElements(n);
}

/** packView() of a Float16Array, a bin, or too many elements (apart from packOther(): a page that packs bundles no packView()). */
function packViewOther(core, kind, x, n, bin) {
  if (kind === HALF) return packView(core, widenHalf(x, 'packView'));
  if (kind.c === 'u8' && bin) return io.packedView(core, packBin(x, n), 'packView');
  throw tooManyElements(n);
}

export function packView(core, x, options) {
  const kind = packable(x, 'packView');
  const bin = readOption(options, 'packView', PACK_OPTIONS, 'bin') ?? true;
  const n = usableLength(x, 'packView');
  if (kind === HALF || (bin && kind.c === 'u8') || n > MAX_ELEMENTS) return packViewOther(core, kind, refused(x, n * kind.bytes, 'packView'), n, bin);
  return io.packView(core, kind, x, n, 'packView'); // (which refuses x past its lifetime, on either path)
}

/**
 * pack() into target[offset...]; returns the offset just past the output.
 * Allocates no output. An output larger than the room left is a RangeError,
 * with target unchanged.
 */
export function packInto(core, x, target, offset = 0, options = undefined) {
  const kind = packable(x, 'packInto');
  if (typedArrayName(target) !== 'Uint8Array') {
    throw new TypeError(`fastmp: packInto() writes into a Uint8Array, not ${describe(target)}`);
  }
  usableLength(target, 'packInto'); // DETACHED, before its offset is checked against its length
  asOffset(offset, target, 'packInto');
  const bin = readOption(options, 'packInto', PACK_OPTIONS, 'bin') ?? true;
  const length = usableLength(target, 'packInto'); // again: an options getter may have detached it
  if (offset > length) asOffset(offset, target, 'packInto'); // (or shrunk it below the offset)
  const n = usableLength(x, 'packInto');
  refuse(x, 'packInto');
  refuseTarget(target, 'packInto');
  if (kind === HALF) return packInto(core, widenHalf(x, 'packInto'), target, offset);
  const room = length - offset;
  if (kind.c === 'u8' && bin) {
    const bytes = packBin(x, n);
    if (bytes.length > room) throw io.noRoom(bytes.length, offset, room);
    copyInto(target, bytes, offset);
    return offset + bytes.length;
  }
  if (n > MAX_ELEMENTS) throw tooManyElements(n);
  return offset + io.packInto(core, kind, x, n, target, offset, room, 'packInto');
}

export function packBool(core, x) {
  const bytes = boolBytes(x, 'packBool');
  return io.pack(core, BOOL, bytes, lengthOf(bytes), 'packBool');
}

/** packBool() without the copy out (and for an alloc() array without the copy in): as packView(). */
export function packBoolView(core, x) {
  const bytes = boolBytes(x, 'packBoolView');
  return io.packView(core, BOOL, bytes, lengthOf(bytes), 'packBoolView');
}

/**
 * packBool()'s input as bytes: an array of booleans (copied, each element
 * read once), or a Uint8Array (the caller's own, read by index and through
 * the intrinsics; refused past its lifetime).
 */
function boolBytes(x, fn) {
  if (isArray(x)) {
    const n = x.length;
    // An Array's length always is an array length (at most MAX_ELEMENTS); a
    // Proxy of one may say anything (-1, 2.5, 2n, an object whose valueOf the
    // loop below would call): refused before it sizes anything.
    if (typeof n !== 'number' || n >>> 0 !== n) {
      throw new TypeError(`fastmp: ${fn}() takes an array of booleans or a Uint8Array, not an Array of length ${describe(n)}`);
    }
    const bytes = new Uint8Array(n);
    for (let i = 0; i < n; i++) {
      const v = x[i];
      if (typeof v !== 'boolean') throw new TypeError(`fastmp: ${fn}() element ${i} is ${describe(v)}, not a boolean`);
      bytes[i] = v ? 1 : 0;
    }
    return bytes;
  }
  if (kindOfArray(x)?.name !== 'Uint8Array') {
    throw new TypeError(`fastmp: ${fn}() takes an array of booleans or a Uint8Array, not ${describe(x)}`);
  }
  const n = usableLength(x, fn);
  if (n > MAX_ELEMENTS) throw tooManyElements(n);
  refuse(x, fn);
  return x;
}

// ---- zero-copy ----------------------------------------------------------------------

export function alloc(core, Type, n) {
  const kind = kindOfType(Type);
  if (kind === undefined) {
    const what = halfTarget(Type) === HALF ? 'a Float16Array (no kernel reads float16: pack() one from JS memory)' : describe(Type);
    throw new TypeError(`fastmp: alloc() makes a ${TYPE_NAMES}, not ${what}`);
  }
  if (!Number.isSafeInteger(n) || n < 0 || n > MAX_ELEMENTS) {
    throw new RangeError(`fastmp: alloc() takes a length from 0 to 2^32-1, not ${describe(n)}`);
  }
  return io.alloc(core, kind, n);
}

export function free(core, x) {
  if (core.heap === null || !heapVerbs.free(core.heap, x)) throw new TypeError(`fastmp: free() takes an array from alloc(), not ${describe(x)}`);
}

export function refresh(core, x) {
  const view = core.heap === null ? undefined : heapVerbs.refresh(core.heap, x);
  if (view === undefined) throw new TypeError(`fastmp: refresh() takes an array from alloc(), not ${describe(x)}`);
  return view;
}

// ---- unpack ---------------------------------------------------------------------------

/** The kind unpack() decodes into: a constructor of this realm's typed arrays (HALF for Float16Array). */
const targetKind = (Type, fn) => kindOfType(Type) ?? otherTarget(Type, fn);

/** targetKind() of what is not a KINDS constructor: HALF, or a TypeError. */
function otherTarget(Type, fn) {
  const kind = halfTarget(Type);
  if (kind === undefined) throw new TypeError(`fastmp: ${fn}() decodes into a ${API_TYPE_NAMES}; the second argument was ${describe(Type)}`);
  return kind;
}

// The readers' cursor (js/wire.js newCursor()): after unpackAt(), its pos is
// where the array ended (the second result, read at once by the caller): no
// { value, end } object per call. (No user code runs while it is in use.)
const CURSOR = newCursor();

// Each reads its input's length (usableLength()) after its arguments, whose
// getters may detach it (a packView() output, by growing memory), and
// before any call into wasm, which may do the same: the length is the one
// every later step uses.

export function unpack(core, bytes, Type, options) {
  const input = inputBytes(bytes, 'unpack'); // the caller's Uint8Array itself: read by index and through the intrinsics
  const kind = targetKind(Type, 'unpack');
  const integralFloats = readOption(options, 'unpack', UNPACK_OPTIONS, 'integralFloats') ?? false;
  const length = usableLength(input, 'unpack');
  refuse(input, 'unpack', bytes);
  const value = unpackAt(core, input, length, kind, 0, integralFloats, 'unpack', bytes);
  if (CURSOR.pos !== length) throw trailing(CURSOR.pos, input, length, 'unpackFrom');
  return value;
}

export function unpackFrom(core, bytes, Type, offset = 0, options = undefined) {
  const input = inputBytes(bytes, 'unpackFrom');
  const kind = targetKind(Type, 'unpackFrom');
  usableLength(input, 'unpackFrom'); // DETACHED, before the offset is checked against its length
  asOffset(offset, input, 'unpackFrom');
  const integralFloats = readOption(options, 'unpackFrom', UNPACK_OPTIONS, 'integralFloats') ?? false;
  const length = usableLength(input, 'unpackFrom');
  if (offset > length) asOffset(offset, input, 'unpackFrom'); // (an options getter shrank it below the offset)
  refuse(input, 'unpackFrom', bytes);
  const value = unpackAt(core, input, length, kind, offset, integralFloats, 'unpackFrom', bytes);
  return { value, end: CURSOR.pos };
}

export function unpackBool(core, bytes) {
  const input = inputBytes(bytes, 'unpackBool');
  const length = usableLength(input, 'unpackBool');
  refuse(input, 'unpackBool', bytes);
  const value = unpackAt(core, input, length, BOOL, 0, false, 'unpackBool', bytes);
  if (CURSOR.pos !== length) throw trailing(CURSOR.pos, input, length, 'unpackBoolFrom');
  return value;
}

export function unpackBoolFrom(core, bytes, offset = 0) {
  const input = inputBytes(bytes, 'unpackBoolFrom');
  const length = usableLength(input, 'unpackBoolFrom');
  asOffset(offset, input, 'unpackBoolFrom');
  refuse(input, 'unpackBoolFrom', bytes);
  const value = unpackAt(core, input, length, BOOL, offset, false, 'unpackBoolFrom', bytes);
  return { value, end: CURSOR.pos };
}

/**
 * The array at input[start] (input holds `length` bytes; a bin too, for
 * Uint8Array / Uint8ClampedArray) as a new typed array of kind (BOOL: a
 * Uint8Array of 0 / 1); sets CURSOR.pos to where it ends.
 */
function unpackAt(core, input, length, kind, start, integralFloats, fn, original) {
  if (kind === HALF || (kind.c === 'u8' && isBinAt(input, start))) return unpackOther(core, input, length, kind, start, integralFloats, fn, original);
  const count = arrayCount(input, start, length, CURSOR);
  return io.unpack(core, kind, input, length, start, CURSOR.pos, count, integralFloats, CURSOR, fn, original);
}

/** unpackAt() into a Float16Array (through float64: one rounding), or of a bin. */
function unpackOther(core, input, length, kind, start, integralFloats, fn, original) {
  if (kind === HALF) return halfOf(unpackAt(core, input, length, FLOAT64, start, integralFloats, fn, original));
  return readBin(input, start, kind.Type, CURSOR);
}

/**
 * Bytes after the array (`prefix`: the function that reads one). The input may be a packView() output that the call's
 * memory growth detached (length 0 now): the message needs only its length.
 */
function trailing(end, input, length, prefix) {
  return msgpackError('TRAILING', NO_INDEX, end, lengthOf(input) === length ? input : new Uint8Array(length), 0, { target: prefix });
}
