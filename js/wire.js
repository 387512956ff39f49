// wire.js - the pure-JS codec: array headers for every path, and the whole
// pack/unpack for inputs too small for the wasm call to pay off. It follows
// the C kernels rule for rule (c/fm_msgpack.h); the parity tests hold it to
// them byte for byte.

import { bufferOf, byteOffsetOf, copyInto, isShared, lengthOf } from './args.js';
import { NO_INDEX, msgpackError } from './errors.js';
import { BOOL, KINDS } from './kinds.js';

export { MAX_ELEMENTS } from './abi.js';

export function arrayHeaderSize(n) {
  return n <= 15 ? 1 : n <= 0xffff ? 3 : 5;
}

/** Writes the smallest array header for n elements at out[0]; returns its size. */
export const writeArrayHeader = (out, n) => writeArrayHeaderAt(out, 0, n);

/** Writes the smallest array header for n elements at out[at]; returns its size. */
export function writeArrayHeaderAt(out, at, n) {
  if (n <= 15) {
    out[at] = 0x90 | n;
    return 1;
  }
  if (n <= 0xffff) {
    out[at] = 0xdc;
    out[at + 1] = n >>> 8;
    out[at + 2] = n & 0xff;
    return 3;
  }
  out[at] = 0xdd;
  out[at + 1] = n >>> 24;
  out[at + 2] = (n >>> 16) & 0xff;
  out[at + 3] = (n >>> 8) & 0xff;
  out[at + 4] = n & 0xff;
  return 5;
}

// Big-endian reads by index. The unpackers read the caller's bytes only by
// index and through the intrinsic getters (args.js), never through a
// DataView: a DataView of a small on-heap array moves it off-heap first, which
// costs more than decoding it.
const be16 = (b, p) => (b[p] << 8) | b[p + 1];
export const be32 = (b, p) => ((b[p] << 24) | (b[p + 1] << 16) | (b[p + 2] << 8) | b[p + 3]) >>> 0;
/** The 64-bit int at b[p], as a BigInt: signed (int64) or not (uint64). */
const be64 = (b, p, signed) => {
  const v = (BigInt(be32(b, p)) << 32n) | BigInt(be32(b, p + 4));
  return signed ? BigInt.asIntN(64, v) : v;
};

// The second result of the readers below (arrayCount(): where an array's
// elements begin; a decode...(): where the array ends) is written to a
// cursor the caller passes, as a C function writes through a pointer: any
// object with a number `pos` that the caller owns (the message decoder passes
// itself; the typed-array API and the wasm reader one newCursor() each), so
// that no { count, body } or { value, end } object is made per call on the
// small-input path.

/** A cursor for the readers below: they set its `pos`. */
export const newCursor = () => ({ pos: 0 });

/**
 * The element count of the array header at bytes[start] (the input holds len
 * bytes: lengthOf(bytes)); where its elements begin is set as cursor.pos. Every
 * element takes at least one byte, so a count beyond the remaining bytes is
 * rejected before anything is allocated for it. Each byte is read once
 * (bytes in a SharedArrayBuffer may change meanwhile).
 */
export function arrayCount(bytes, start, len, cursor) {
  const tag = start < len ? bytes[start] : -1;
  if ((tag & 0xf0) !== 0x90 || (tag & 0x0f) > len - start - 1) return longArrayCount(bytes, start, len, tag, cursor);
  cursor.pos = start + 1;
  return tag & 0x0f;
}

/** arrayCount() of what is not a fixarray that fits: array16, array32, or an error. */
function longArrayCount(bytes, start, len, tag, cursor) {
  let count;
  let body;
  if (tag === -1) throw headerError('TRUNCATED', bytes, start);
  if ((tag & 0xf0) === 0x90) {
    count = tag & 0x0f;
    body = start + 1;
  } else if (tag === 0xdc) {
    if (len - start < 3) throw headerError('TRUNCATED', bytes, start);
    count = (bytes[start + 1] << 8) | bytes[start + 2];
    body = start + 3;
  } else if (tag === 0xdd) {
    if (len - start < 5) throw headerError('TRUNCATED', bytes, start);
    count = be32(bytes, start + 1);
    body = start + 5;
  } else {
    throw headerError('NOT_ARRAY', bytes, start);
  }
  checkCount(bytes, start, body, count, len);
  cursor.pos = body;
  return count;
}

/**
 * Throws LENGTH unless the `count` elements that the array header at
 * bytes[start] claims can fit in bytes[body, len): every element takes at
 * least one byte. arrayCount() checks every header it reads with it; the
 * message decoder, which reads its headers itself, checks with it before it
 * decodes a shaped field's elements.
 */
export function checkCount(bytes, start, body, count, len) {
  if (count > len - body) throw headerError('LENGTH', bytes, start, count);
}

/** The FastmpError of a bad array header at bytes[start] (a plain function: no closure per call). */
const headerError = (code, bytes, start, count = 0) => msgpackError(code, NO_INDEX, start, bytes, count);

// ---- pack -----------------------------------------------------------------

// One scratch word pair: a float written here can be read back as its bits
// (and the reverse) without allocating a view of the caller's buffer, which
// for a small on-heap typed array costs more than the whole loop.
const scratchU32 = new Uint32Array(2);
const scratchF32 = new Float32Array(scratchU32.buffer, 0, 1);
const scratchF64 = new Float64Array(scratchU32.buffer);

// The packers read x's elements by index (which no property of x can
// intercept) and its length and buffer through the intrinsic getters: n is
// the element count the caller read once, or the engine's.

/**
 * Float32Array -> msgpack array of float32. A NaN's bits come from the
 * array's own bytes: the float -> double -> float trip through a JS number
 * may quiet a signalling NaN, and every payload must be kept.
 */
export function packF32(x, n = lengthOf(x)) {
  const out = new Uint8Array(arrayHeaderSize(n) + 5 * n);
  packF32Into(x, n, out, 0);
  return out;
}

/** packF32 into out[at...] (room for the header and 5 bytes an element); returns the end. */
export function packF32Into(x, n, out, at) {
  let p = at + writeArrayHeaderAt(out, at, n);
  for (let i = 0; i < n; i++, p += 5) {
    const v = x[i];
    let b;
    if (v === v) {
      scratchF32[0] = v;
      b = scratchU32[0];
    } else {
      b = new Uint32Array(bufferOf(x), byteOffsetOf(x) + 4 * i, 1)[0];
    }
    out[p] = 0xca;
    out[p + 1] = b >>> 24;
    out[p + 2] = b >>> 16;
    out[p + 3] = b >>> 8;
    out[p + 4] = b;
  }
  return p;
}

/** Float64Array -> msgpack array of float64 (NaN bits kept, as in packF32). */
export function packF64(x, n = lengthOf(x)) {
  const out = new Uint8Array(arrayHeaderSize(n) + 9 * n);
  packF64Into(x, n, out, 0);
  return out;
}

/** packF64 into out[at...] (room for the header and 9 bytes an element); returns the end. */
export function packF64Into(x, n, out, at) {
  let p = at + writeArrayHeaderAt(out, at, n);
  for (let i = 0; i < n; i++, p += 9) {
    const v = x[i];
    let hi;
    let lo;
    if (v === v) {
      scratchF64[0] = v;
      lo = scratchU32[0];
      hi = scratchU32[1];
    } else {
      const words = new Uint32Array(bufferOf(x), byteOffsetOf(x) + 8 * i, 2);
      lo = words[0];
      hi = words[1];
    }
    out[p] = 0xcb;
    out[p + 1] = hi >>> 24;
    out[p + 2] = hi >>> 16;
    out[p + 3] = hi >>> 8;
    out[p + 4] = hi;
    out[p + 5] = lo >>> 24;
    out[p + 6] = lo >>> 16;
    out[p + 7] = lo >>> 8;
    out[p + 8] = lo;
  }
  return p;
}

// ---- float conversions (same NaN rules as c/fm_msgpack.h) -----------------

const isNaN32 = (b) => (b & 0x7fffffff) >>> 0 > 0x7f800000;
const isNaN64 = (hi, lo) => (hi & 0x7fffffff) >>> 0 > 0x7ff00000 || ((hi & 0x7fffffff) === 0x7ff00000 && lo !== 0);

/** f64 NaN -> f32 NaN: sign, top payload bits, quiet bit set (as Math.fround on x86-64/aarch64). */
const narrowNaN = (hi, lo) => ((hi & 0x80000000) | 0x7fc00000 | ((hi << 3) & 0x3ffff8) | (lo >>> 29)) >>> 0;

/**
 * The nearest float32 to a 64-bit integer, rounded once. hi * 2^32 + lo is
 * exact below 2^53; above, a plain Math.fround of the double would round twice,
 * so round to odd at 53 bits first (exact for any final precision <= 51 bits).
 */
function nearestF32OfInt64(hi, lo, bytes, p, signed) {
  if (hi < 0x200000 && hi >= -0x200000) return hi * 4294967296 + lo;
  const v = be64(bytes, p, signed);
  const m = v < 0n ? -v : v;
  const shift = m.toString(2).length - 53;
  let t = m >> BigInt(shift);
  if (t << BigInt(shift) !== m) t |= 1n;
  const r = Number(t) * 2 ** shift;
  return v < 0n ? -r : r;
}

// ---- unpack ---------------------------------------------------------------

// An input of up to COPY_BYTES bytes with COPY_FROM elements or more is
// decoded from a copy in a scratch of our own, read through a DataView made
// once (as the fastest JS loop does): from COPY_FROM elements on, a float's or
// an int's bytes read one by one cost more than that copy; below, the copy
// costs more than it saves (bench/one-type.js times these calls at N = 4 and
// 16, one instance and one type a process, against the JS loop). The copy is
// taken by the intrinsic set (the caller's internal slots, no property). A
// decoder's first loop reads the copy only, for as long as the elements have
// its own form; the second, from where the first stopped (another form, a NaN,
// an error) or for a short input, the caller's bytes: each element is read
// once either way, and errors quote the caller's bytes. No DataView of the
// caller's array is made, nor its buffer asked for (for a small on-heap
// array that moves it off the heap, see above); a caller that has one
// already passes it (leadingF32s()).
const COPY_BYTES = 1024;
const COPY_FROM = 8;
const COPY = new Uint8Array(COPY_BYTES);
/** (A function: a bundler keeps the arguments of a dropped call, and `COPY.buffer` is a property read.) */
const dataViewOf = (bytes) => new DataView(bytes.buffer);
const COPY_VIEW = /* @__PURE__ */ dataViewOf(COPY);

/** Whether the decode of `count` elements reads bytes[0, len) faster from a copy in COPY; if so, copies them. */
function copied(bytes, len, count) {
  if (count < COPY_FROM || len > COPY_BYTES) return false;
  copyInto(COPY, bytes, 0);
  return true;
}

/**
 * A float decoder's first loop: the elements of src (bytes, or their copy
 * COPY) from `body` while they are float32 and no NaN, read through `from`
 * (src's DataView, offsets alike), into out; returns how many. The message
 * decoder passes its own view of the input (before, its fields of fewer than
 * COPY_FROM elements, or in an input of more than COPY_BYTES, were read byte
 * by byte, and f32At() and be32() were a large part of a profile of
 * bench/messages.js W4 decode).
 */
function leadingF32s(src, from, out, body, whole) {
  let i = 0;
  for (let p = body; i < whole && src[p] === 0xca; i++, p += 5) {
    const v = from.getFloat32(p + 1);
    if (v !== v) break;
    out[i] = v;
  }
  return i;
}

/**
 * The own-form reader of a float kind (leadingF32s(), leadingF64s()), else
 * null: for a caller that decodes many small fields of one kind (decoder.js
 * readTypedFields()), which calls it directly and decodeKind() only for a
 * field with other forms or a NaN.
 */
export const leadingOwnForm = (kind) => (kind.c === 'f32' ? leadingF32s : kind.c === 'f64' ? leadingF64s : null);

/** leadingF32s() of float64 elements. */
function leadingF64s(src, from, out, body, whole) {
  let i = 0;
  for (let p = body; i < whole && src[p] === 0xcb; i++, p += 9) {
    const v = from.getFloat64(p + 1);
    if (v !== v) break;
    out[i] = v;
  }
  return i;
}

/**
 * Decodes `count` numeric elements from bytes[body] (the input holds len
 * bytes) into a new Float32Array; returns it, and where the array ends is
 * set as cursor.pos. Float32 elements are read by leadingF32s() as long as they
 * come; the rest, and all of a short input, by the second loop, where a
 * NaN and every other form go through readElement() (which copies a NaN's bits
 * exactly). Float32Array and Float64Array each have a decoder of their own:
 * one store site that saw both would serve each more slowly.
 */
function decodeF32s(bytes, len, body, count, kind, integralFloats, cursor, view, into) {
  const out = into ?? new Float32Array(count);
  let i = 0;
  if (view !== undefined || copied(bytes, len, count)) {
    const whole = Math.min(count, Math.floor((len - body) / 5)); // elements that fit in the input
    // Two call sites, each inlined with its own arguments (COPY's are constants).
    i = view !== undefined ? leadingF32s(bytes, view, out, body, whole) : leadingF32s(COPY, COPY_VIEW, out, body, whole);
  }
  let p = body + 5 * i;
  for (; i < count; i++) {
    if (bytes[p] === 0xca && len - p >= 5) {
      const v = f32At(bytes, p + 1);
      if (v === v) {
        out[i] = v;
        p += 5;
        continue;
      }
    }
    p += readElement(bytes, len, p, i, out, false);
  }
  cursor.pos = p;
  return out;
}

/** decodeF32s() into a new Float64Array, whose own form is float64. */
function decodeF64s(bytes, len, body, count, kind, integralFloats, cursor, view, into) {
  const out = into ?? new Float64Array(count);
  let i = 0;
  if (view !== undefined || copied(bytes, len, count)) {
    const whole = Math.min(count, Math.floor((len - body) / 9));
    // Two call sites, each inlined with its own arguments (COPY's are constants).
    i = view !== undefined ? leadingF64s(bytes, view, out, body, whole) : leadingF64s(COPY, COPY_VIEW, out, body, whole);
  }
  let p = body + 9 * i;
  for (; i < count; i++) {
    if (bytes[p] === 0xcb && len - p >= 9) {
      const v = f64At(bytes, p + 1);
      if (v === v) {
        out[i] = v;
        p += 9;
        continue;
      }
    }
    p += readElement(bytes, len, p, i, out, true);
  }
  cursor.pos = p;
  return out;
}

/** The float32 whose big-endian bits are at b[p] (through the scratch word). */
function f32At(b, p) {
  scratchU32[0] = be32(b, p);
  return scratchF32[0];
}

/**
 * The float64 whose big-endian bits are at b[p] (NaN for every NaN: its
 * bits are readElement()'s to copy). Computed from its fields, not through
 * the scratch words: a float64 loaded just after two 32-bit stores to the
 * same place waits for them (the CPU cannot forward two stores into one
 * load), a stall that a small decode feels. Exact: the significand is an
 * integer below 2^53 and POW2[e] a power of two, whose product is the value.
 */
function f64At(b, p) {
  const hi = be32(b, p);
  const lo = be32(b, p + 4);
  const e = (hi >>> 20) & 0x7ff;
  const m = (hi & 0xfffff) * 4294967296 + lo;
  let v;
  if (e === 0) v = m * 2 ** -1074; // zero, subnormal
  else if (e !== 0x7ff) v = (m + 4503599627370496) * POW2[e]; // 2^52 + m
  else if (m === 0) v = Infinity;
  else return NaN;
  return hi >= 0x80000000 ? -v : v;
}

/** POW2[e] = 2^(e - 1075): the weight of a float64 significand's last bit at biased exponent e (1..2046). */
const POW2 = /* @__PURE__ */ new Float64Array(2047).map((_, e) => 2 ** (e - 1075));

/**
 * Reads any numeric element at bytes[p] (element i; the input holds len
 * bytes) into out[i]; returns its size. `out` starts its buffer (offset 0,
 * as every caller makes it): a NaN's bits are stored through out.buffer at
 * 4i or 8i, since a store of the number would not keep its payload.
 */
function readElement(bytes, len, p, i, out, wide) {
  if (p >= len) throw msgpackError('TRUNCATED', i, p, bytes);
  const tag = bytes[p];
  if (tag < 0x80 || tag >= 0xe0) {
    out[i] = (tag << 24) >> 24;
    return 1;
  }
  const size = elementSize(tag);
  if (size === 0) throw msgpackError('TYPE', i, p, bytes);
  if (size > len - p) throw msgpackError('TRUNCATED', i, p, bytes);
  const q = p + 1;
  switch (tag) {
    case 0xcf:
    case 0xd3: {
      const hi = tag === 0xd3 ? be32(bytes, q) | 0 : be32(bytes, q);
      const lo = be32(bytes, q + 4);
      // hi * 2^32 + lo: both terms exact, so one rounding to double.
      out[i] = wide ? hi * 4294967296 + lo : nearestF32OfInt64(hi, lo, bytes, q, tag === 0xd3);
      break;
    }
    case 0xca: {
      const b = be32(bytes, q);
      if (!isNaN32(b)) {
        out[i] = f32At(bytes, q);
      } else if (wide) {
        const words = new Uint32Array(out.buffer, 8 * i, 2);
        words[1] = (b & 0x80000000) | 0x7ff00000 | ((b & 0x7fffff) >>> 3);
        words[0] = b << 29;
      } else {
        new Uint32Array(out.buffer, 4 * i, 1)[0] = b;
      }
      break;
    }
    case 0xcb: {
      const hi = be32(bytes, q);
      const lo = be32(bytes, q + 4);
      if (!isNaN64(hi, lo)) {
        out[i] = f64At(bytes, q);
      } else if (wide) {
        const words = new Uint32Array(out.buffer, 8 * i, 2);
        words[1] = hi;
        words[0] = lo;
      } else {
        new Uint32Array(out.buffer, 4 * i, 1)[0] = narrowNaN(hi, lo);
      }
      break;
    }
    default: out[i] = smallIntAt(bytes, tag, q); // the int forms of up to 32 bits
  }
  return size;
}

/** The value of an int element of up to 32 bits (0xcc-0xce, 0xd0-0xd2) whose payload is at b[q]. */
function smallIntAt(b, tag, q) {
  switch (tag) {
    case 0xcc: return b[q];
    case 0xcd: return be16(b, q);
    case 0xce: return be32(b, q);
    case 0xd0: return (b[q] << 24) >> 24;
    case 0xd1: return (be16(b, q) << 16) >> 16;
    default: return be32(b, q) | 0; // 0xd2
  }
}

// ---- integers ---------------------------------------------------------------

/** Bytes of the smallest msgpack form of an integer (a safe-integer number). */
function intSize(v) {
  if (v >= 0) return v < 0x80 ? 1 : v <= 0xff ? 2 : v <= 0xffff ? 3 : v <= 0xffffffff ? 5 : 9;
  return v >= -32 ? 1 : v >= -128 ? 2 : v >= -32768 ? 3 : v >= -2147483648 ? 5 : 9;
}

/**
 * Writes a safe-integer number in its smallest form at out[p]; returns the
 * next p. (A store into a Uint8Array keeps the low 8 bits: two's complement
 * for negatives.)
 */
function writeInt(out, p, v) {
  if (v >= 0 ? v < 0x80 : v >= -32) {
    out[p] = v;
    return p + 1;
  }
  if (v >= 0 ? v <= 0xff : v >= -128) {
    out[p] = v < 0 ? 0xd0 : 0xcc;
    out[p + 1] = v;
    return p + 2;
  }
  if (v >= 0 ? v <= 0xffff : v >= -32768) {
    out[p] = v < 0 ? 0xd1 : 0xcd;
    out[p + 1] = v >>> 8;
    out[p + 2] = v;
    return p + 3;
  }
  if (v >= 0 ? v <= 0xffffffff : v >= -2147483648) {
    out[p] = v < 0 ? 0xd2 : 0xce;
    writeWord(out, p + 1, v);
    return p + 5;
  }
  // Beyond 32 bits (a BigInt64Array value that is a safe integer): two words.
  const hi = Math.floor(v / 4294967296);
  out[p] = v < 0 ? 0xd3 : 0xcf;
  writeWord(out, p + 1, hi);
  writeWord(out, p + 5, v - hi * 4294967296);
  return p + 9;
}

/** Writes a word (any number whose low 32 bits are wanted) big-endian. */
function writeWord(out, p, w) {
  out[p] = w >>> 24;
  out[p + 1] = w >>> 16;
  out[p + 2] = w >>> 8;
  out[p + 3] = w;
}

const SAFE = 2n ** 53n;
/** A BigInt as a number when that is exact (then the number writers apply). */
const asSafe = (v) => (v < SAFE && v > -SAFE ? Number(v) : v);

/**
 * x's first n elements as a packer that reads them twice (to size its output,
 * then to write it) may read them: x itself, or a copy when x is in a
 * SharedArrayBuffer, where another thread may change them between the two
 * readings (the header would then disagree with the body). Only for arrays of
 * more than 64 bytes: a smaller one may be on the engine's heap, where asking
 * for its buffer moves it off (such a caller copies it anyway, see packInts()).
 */
function readOnce(x, n, kind) {
  const buffer = bufferOf(x);
  return isShared(buffer) ? new kind.Type(new kind.Type(buffer, byteOffsetOf(x), n)) : x;
}

/**
 * An integer typed array of numbers (not BigInts) -> msgpack array of ints.
 * Up to 64 elements are read once, by a loop of their own type, into a
 * Float64Array that the rest reads (see toNumbers()); more, see readOnce().
 */
export function packInts(x, n, kind) {
  const values = n <= 64 ? toNumbers(x, n, kind) : readOnce(x, n, kind);
  let size = arrayHeaderSize(n);
  for (let i = 0; i < n; i++) size += intSize(values[i]);
  const out = new Uint8Array(size);
  packIntsInto(values, n, out, 0);
  return out;
}

/** packInts into out[at...] (room for the header and its width + 1 bytes an element); returns the end. */
export function packIntsInto(x, n, out, at) {
  let p = at + writeArrayHeaderAt(out, at, n);
  for (let i = 0; i < n; i++) p = writeInt(out, p, x[i]);
  return p;
}

/**
 * The first n (<= 64) elements of an integer typed array of kind, as numbers
 * in SMALL_NUMBERS (valid until the next call). One loop per type: V8 keeps
 * type feedback per code site, and a load site that has seen every integer
 * type reads each element several times more slowly (the benchmark runs every
 * type in one process).
 */
const toNumbers = (x, n, kind) => TO_NUMBERS[kind.index](x, n, SMALL_NUMBERS);

/** x's first n (<= 8) elements, read once by index. */
function copySmall(x, n, kind) {
  const copy = new kind.Type(n);
  for (let i = 0; i < n; i++) copy[i] = x[i];
  return copy;
}

/** BigInt64Array / BigUint64Array -> msgpack array of ints (read once: see readOnce()). */
export function packBigInts(x, n, kind) {
  x = n <= 8 ? copySmall(x, n, kind) : readOnce(x, n, kind);
  let size = arrayHeaderSize(n);
  for (let i = 0; i < n; i++) {
    const v = asSafe(x[i]);
    size += typeof v === 'bigint' ? 9 : intSize(v);
  }
  const out = new Uint8Array(size);
  packBigIntsInto(x, n, out, 0);
  return out;
}

/** packBigInts into out[at...] (room for the header and 9 bytes an element); returns the end. */
export function packBigIntsInto(x, n, out, at) {
  let view = null; // only for values beyond 2^53
  let p = at + writeArrayHeaderAt(out, at, n);
  for (let i = 0; i < n; i++) {
    const v = asSafe(x[i]);
    if (typeof v === 'number') {
      p = writeInt(out, p, v);
    } else {
      out[p] = v >= 0n ? 0xcf : 0xd3;
      view ??= new DataView(out.buffer, out.byteOffset, out.byteLength);
      if (v >= 0n) view.setBigUint64(p + 1, v);
      else view.setBigInt64(p + 1, v);
      p += 9;
    }
  }
  return p;
}

/** Bytes (0 = false, else true) -> msgpack array of booleans. */
export function packBools(x, n = lengthOf(x)) {
  const out = new Uint8Array(arrayHeaderSize(n) + n);
  packBoolsInto(x, n, out, 0);
  return out;
}

/** packBools into out[at...] (room for the header and 1 byte an element); returns the end. */
export function packBoolsInto(x, n, out, at) {
  const body = at + writeArrayHeaderAt(out, at, n);
  for (let i = 0; i < n; i++) out[body + i] = x[i] ? 0xc3 : 0xc2;
  return body + n;
}

// ---- by kind ------------------------------------------------------------------
// Tables by kind index (js/kinds.js; BOOL last): one call site that a program
// of one type finds monomorphic (V8 then inlines the one packer or decoder),
// and smaller than a dispatch by the kind's fields.

/** [f32, f64, other ints, 64-bit ints, booleans] -> by kind index. */
const byKind = (f32, f64, ints, bigs, bools) => [...KINDS, BOOL].map((k) => (
  k === BOOL ? bools : k.c === 'f32' ? f32 : k.c === 'f64' ? f64 : k.big ? bigs : ints));
// (Pure: a bundler drops a table, and the functions only it names, from an
// app that never reads it; an encode-only app has no decoder.)
const PACKERS = /* @__PURE__ */ byKind(packF32, packF64, packInts, packBigInts, packBools);
const PACKERS_INTO = /* @__PURE__ */ byKind(packF32Into, packF64Into, packIntsInto, packBigIntsInto, packBoolsInto);
const DECODERS = /* @__PURE__ */ byKind(decodeF32s, decodeF64s, decodeInts, decodeInts, decodeBools);

/** The pure-JS packer of a kind of js/kinds.js (BOOL too): x's standard msgpack array. */
export const packKind = (kind, x, n) => PACKERS[kind.index](x, n, kind);

/**
 * The pure-JS unpacker of a kind (BOOL too): the array of `count` elements at
 * bytes[body] (the input holds len bytes) as a new typed array, or written
 * into `into` (a kind.Type of `count` elements, returned; its contents are
 * undefined after an error); where the array ends is set as cursor.pos (see newCursor()). `view`,
 * where the caller has one: a DataView of bytes' own memory with the same
 * offsets (the message decoder's), which the float decoders read through.
 */
export const decodeKind = (kind, bytes, len, body, count, integralFloats, cursor, view = undefined, into = undefined) => (
  DECODERS[kind.index](bytes, len, body, count, kind, integralFloats, cursor, view, into));

/**
 * The pure-JS packer of a kind, into out[at...], which has room for
 * abi.js packBound(n, kind.wire) bytes from there; returns the end.
 */
export const packKindInto = (kind, x, n, out, at) => PACKERS_INTO[kind.index](x, n, out, at);

/** Bytes of the bin header for n bytes. */
export const binHeaderSize = (n) => (n <= 0xff ? 2 : n <= 0xffff ? 3 : 5);

/** Uint8Array / Uint8ClampedArray -> msgpack bin (what the ecosystem writes for bytes). */
export function packBin(x, n = lengthOf(x)) {
  const head = binHeaderSize(n);
  const out = new Uint8Array(head + n);
  if (head === 2) {
    out[0] = 0xc4;
    out[1] = n;
  } else if (head === 3) {
    out[0] = 0xc5;
    out[1] = n >>> 8;
    out[2] = n & 0xff;
  } else {
    out[0] = 0xc6;
    new DataView(out.buffer).setUint32(1, n);
  }
  out.set(x, head);
  return out;
}

/** Whether bytes[start] starts a bin (0xc4 / 0xc5 / 0xc6). */
export const isBinAt = (bytes, start) => start < lengthOf(bytes) && bytes[start] >= 0xc4 && bytes[start] <= 0xc6;

/** Reads the bin at bytes[start] into a new Type (Uint8Array or Uint8ClampedArray); where it ends is set as cursor.pos. */
export function readBin(bytes, start, Type, cursor) {
  const tag = bytes[start];
  const head = tag === 0xc4 ? 2 : tag === 0xc5 ? 3 : 5;
  const len = lengthOf(bytes);
  if (len - start < head) throw msgpackError('TRUNCATED', NO_INDEX, start, bytes);
  const n = head === 2 ? bytes[start + 1] : head === 3 ? (bytes[start + 1] << 8) | bytes[start + 2] : be32(bytes, start + 1);
  const body = start + head;
  if (n > len - body) throw msgpackError('BIN_LENGTH', NO_INDEX, start, bytes, n);
  const value = new Type(n);
  value.set(new Uint8Array(bufferOf(bytes), byteOffsetOf(bytes) + body, n));
  cursor.pos = body + n;
  return value;
}

/**
 * Decodes `count` integer elements from bytes[body] into a new typed array of
 * `kind` (js/kinds.js, an integer kind: its range is kind.min..kind.max).
 * Every int form whose value fits is taken; a float is a TYPE error, or with
 * integralFloats taken when exactly integral and in range; what does not fit
 * is a RANGE error. Returns the array; where it ends is set as cursor.pos.
 */
function decodeInts(bytes, len, body, count, kind, integralFloats, cursor, view, into) {
  if (kind.big) return decodeBigInts(bytes, len, body, count, kind, integralFloats, cursor, into);
  // Numbers here (a kind's bounds may be BigInts, so V8 would compare them as
  // any value: a call per element).
  const min = Number(kind.min);
  const max = Number(kind.max);
  // Stores into one array type only: V8 shares type feedback per code site, and
  // stores into seven kinds of typed array there turn megamorphic, many
  // times slower. Numbers collect in a Float64Array
  // (exact for every value that fits), converted once at the end.
  const out = numberScratch(count);
  let i = 0;
  let p = body;
  if (copied(bytes, len, count)) {
    // The forms of up to 32 bits, as long as they come; the loop below takes over at any other.
    for (; i < count; i++) {
      const tag = p < len ? COPY[p] : 0xc1;
      const size = SMALL_INT_SIZE[tag];
      if (size === 0 || size > len - p) break;
      const v = size === 1 ? (tag << 24) >> 24 : copyIntAt(tag, p + 1);
      if (v < min || v > max) throw rangeError(bytes, i, p, v, kind);
      out[i] = v;
      p += size;
    }
  }
  for (; i < count; i++) {
    // The forms of up to 32 bits here; any other (and every error) in intElement().
    const tag = p < len ? bytes[p] : 0xc1; // (0xc1, never used: intElement() finds the input's end)
    const size = SMALL_INT_SIZE[tag];
    if (size === 0 || size > len - p) {
      p = intElement(bytes, len, p, i, out, kind, integralFloats);
      continue;
    }
    const v = size === 1 ? (tag << 24) >> 24 : smallIntAt(bytes, tag, p + 1);
    if (v < min || v > max) throw rangeError(bytes, i, p, v, kind);
    out[i] = v;
    p += size;
  }
  cursor.pos = p;
  if (into === undefined) return fromNumbers(out, count, kind);
  into.set(count === out.length ? out : out.subarray(0, count));
  return into;
}

/** smallIntAt() of COPY, through COPY_VIEW. */
function copyIntAt(tag, q) {
  switch (tag) {
    case 0xcc: return COPY[q];
    case 0xcd: return COPY_VIEW.getUint16(q);
    case 0xce: return COPY_VIEW.getUint32(q);
    case 0xd0: return COPY_VIEW.getInt8(q);
    case 0xd1: return COPY_VIEW.getInt16(q);
    default: return COPY_VIEW.getInt32(q); // 0xd2
  }
}

// Bytes of the int forms of up to 32 bits by tag (fixints 1), 0 for every other tag.
const SMALL_INT_SIZE = /* @__PURE__ */ new Uint8Array(256).map((_, tag) => (
  tag < 0x80 || tag >= 0xe0 ? 1 : tag === 0xcc || tag === 0xd0 ? 2 : tag === 0xcd || tag === 0xd1 ? 3 : tag === 0xce || tag === 0xd2 ? 5 : 0));

/** decodeInts() into a BigInt64Array / BigUint64Array: every element through intElement(). */
function decodeBigInts(bytes, len, body, count, kind, integralFloats, cursor, into) {
  const out = into === undefined ? new BigInt64Array(count) : new BigInt64Array(into.buffer, into.byteOffset, count);
  let p = body;
  for (let i = 0; i < count; i++) p = intElement(bytes, len, p, i, out, kind, integralFloats);
  cursor.pos = p;
  return into ?? (kind.c === 'u64' ? new BigUint64Array(out.buffer) : out);
}

/**
 * Element i of an integer array, of any form, at bytes[p] (the input holds
 * len bytes) into out[i]: numbers, or BigInts for a 64-bit kind (a
 * BigInt64Array: a BigUint64Array value above 2^63 as its two's complement).
 * Checked as decodeInts() says; returns where the next element starts.
 */
function intElement(bytes, len, p, i, out, kind, integralFloats) {
  if (p >= len) throw msgpackError('TRUNCATED', i, p, bytes);
  const tag = bytes[p];
  let v;
  let size = 1;
  if (tag < 0x80 || tag >= 0xe0) {
    v = (tag << 24) >> 24;
  } else {
    size = elementSize(tag);
    if (size === 0) throw msgpackError('TYPE', i, p, bytes, 0, { target: kind.name });
    if (size > len - p) throw msgpackError('TRUNCATED', i, p, bytes);
    v = elementValue(bytes, tag, p + 1);
    if ((tag === 0xca || tag === 0xcb) && !integralFloats) {
      throw msgpackError('TYPE', i, p, bytes, 0, { target: kind.name, value: v });
    }
  }
  // Number and BigInt compare exactly with each other; NaN and fractions fail isInteger.
  if (v < kind.min || v > kind.max || (typeof v === 'number' && !Number.isInteger(v))) throw rangeError(bytes, i, p, v, kind);
  if (kind.big) out[i] = BigInt.asIntN(64, BigInt(v));
  else out[i] = Number(v);
  return p + size;
}

// decodeInts' numbers, reused up to 4096 of them (32 KB; more are a fresh
// array): nothing runs between filling and converting it. Up to 64 (what
// fromNumbers() converts by a loop) in an array of their own that never
// changes, which V8 then knows at every store.
const SMALL_NUMBERS = /* @__PURE__ */ new Float64Array(64);
let numbers = null;
function numberScratch(count) {
  if (count <= 64) return SMALL_NUMBERS;
  if (count > 4096) return new Float64Array(count);
  numbers ??= new Float64Array(4096);
  return numbers;
}

/**
 * A new typed array of kind holding the first `count` numbers. new
 * Type(floats) converts in the engine's runtime, a call that costs as much as
 * a whole small decode: small arrays are converted by a loop of their own
 * type (one store site per type, as decodeInts() has one).
 */
function fromNumbers(floats, count, kind) {
  if (count > 64) return new kind.Type(floats.subarray(0, count));
  return FROM_NUMBERS[kind.index](floats, count);
}

// One function per element type, each with its own load or store site (see
// toNumbers()). A kind without an entry takes the shared loop below: the same
// result, at the cost of a store site that sees every such type.
const sharedToNumbers = (x, n, f) => { for (let i = 0; i < n; i++) f[i] = x[i]; return f; };
const sharedFromNumbers = (Type) => (f, n) => { const v = new Type(n); for (let i = 0; i < n; i++) v[i] = f[i]; return v; };
const TO_NUMBERS = /* @__PURE__ */ KINDS.map((k) => ({
  Int8Array:         (x, n, f) => { for (let i = 0; i < n; i++) f[i] = x[i]; return f; },
  Uint8Array:        (x, n, f) => { for (let i = 0; i < n; i++) f[i] = x[i]; return f; },
  Uint8ClampedArray: (x, n, f) => { for (let i = 0; i < n; i++) f[i] = x[i]; return f; },
  Int16Array:        (x, n, f) => { for (let i = 0; i < n; i++) f[i] = x[i]; return f; },
  Uint16Array:       (x, n, f) => { for (let i = 0; i < n; i++) f[i] = x[i]; return f; },
  Int32Array:        (x, n, f) => { for (let i = 0; i < n; i++) f[i] = x[i]; return f; },
  Uint32Array:       (x, n, f) => { for (let i = 0; i < n; i++) f[i] = x[i]; return f; },
})[k.name] ?? sharedToNumbers);
const FROM_NUMBERS = /* @__PURE__ */ KINDS.map((k) => ({
  Int8Array:         (f, n) => { const v = new Int8Array(n);         for (let i = 0; i < n; i++) v[i] = f[i]; return v; },
  Uint8Array:        (f, n) => { const v = new Uint8Array(n);        for (let i = 0; i < n; i++) v[i] = f[i]; return v; },
  Uint8ClampedArray: (f, n) => { const v = new Uint8ClampedArray(n); for (let i = 0; i < n; i++) v[i] = f[i]; return v; },
  Int16Array:        (f, n) => { const v = new Int16Array(n);        for (let i = 0; i < n; i++) v[i] = f[i]; return v; },
  Uint16Array:       (f, n) => { const v = new Uint16Array(n);       for (let i = 0; i < n; i++) v[i] = f[i]; return v; },
  Int32Array:        (f, n) => { const v = new Int32Array(n);        for (let i = 0; i < n; i++) v[i] = f[i]; return v; },
  Uint32Array:       (f, n) => { const v = new Uint32Array(n);       for (let i = 0; i < n; i++) v[i] = f[i]; return v; },
})[k.name] ?? sharedFromNumbers(k.Type));

/** Decodes `count` booleans (0xc2 / 0xc3 only) from bytes[body] into a Uint8Array of 0 / 1; the end is set as cursor.pos. */
function decodeBools(bytes, len, body, count, kind, integralFloats, cursor, view, into) {
  const out = into ?? new Uint8Array(count);
  for (let i = 0, p = body; i < count; i++, p++) {
    if (p >= len) throw msgpackError('TRUNCATED', i, p, bytes);
    const tag = bytes[p];
    if (tag !== 0xc2 && tag !== 0xc3) throw msgpackError('TYPE', i, p, bytes, 0, { target: 'boolean' });
    out[i] = tag - 0xc2;
  }
  cursor.pos = body + count;
  return out;
}

/** Wire size of a numeric element from its tag (not fixints); 0 when the tag is not a number. */
function elementSize(tag) {
  switch (tag) {
    case 0xcc: case 0xd0: return 2;
    case 0xcd: case 0xd1: return 3;
    case 0xca: case 0xce: case 0xd2: return 5;
    case 0xcb: case 0xcf: case 0xd3: return 9;
    default: return 0;
  }
}

/** The value of a (non-fixint) numeric element whose payload is at b[q]: a number, or a BigInt for 64-bit ints. */
function elementValue(b, tag, q) {
  switch (tag) {
    case 0xcf: return be64(b, q, false);
    case 0xd3: return be64(b, q, true);
    case 0xca: return f32At(b, q);
    case 0xcb: return f64At(b, q);
    default: return smallIntAt(b, tag, q);
  }
}

const rangeError = (bytes, i, p, v, kind) => msgpackError('RANGE', i, p, bytes, 0, { target: kind.name, value: asSafe(v) });

/**
 * The value a C decoder reported with a RANGE or TYPE error: its raw 64 bits
 * (fm_result.value), read by the element's tag. Numbers where exact, else BigInt.
 */
export function reportedValue(tag, raw) {
  if (tag === 0xca) return new Float32Array(new Uint32Array([Number(raw & 0xffffffffn)]).buffer)[0];
  if (tag === 0xcb) return new Float64Array(new BigUint64Array([raw]).buffer)[0];
  const unsigned = tag < 0x80 || (tag >= 0xcc && tag <= 0xcf);
  return asSafe(unsigned ? raw : BigInt.asIntN(64, raw));
}
