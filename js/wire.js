// wire.js - the pure-JS codec: array headers for every path, and the whole
// pack/unpack for inputs too small for the wasm call to pay off. It follows
// the C kernels rule for rule (c/fm_msgpack.h); the parity tests hold it to
// them byte for byte.

import { bufferOf, byteOffsetOf, lengthOf } from './args.js';
import { NO_INDEX, msgpackError } from './errors.js';

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
// costs more than decoding it (300-850 ns in V8).
const be16 = (b, p) => (b[p] << 8) | b[p + 1];
const be32 = (b, p) => ((b[p] << 24) | (b[p + 1] << 16) | (b[p + 2] << 8) | b[p + 3]) >>> 0;
/** The 64-bit int at b[p], as a BigInt: signed (int64) or not (uint64). */
const be64 = (b, p, signed) => {
  const v = (BigInt(be32(b, p)) << 32n) | BigInt(be32(b, p + 4));
  return signed ? BigInt.asIntN(64, v) : v;
};

/**
 * Reads the array header at bytes[start]. Every element takes at least one
 * byte, so a count beyond the remaining bytes is rejected before anything is
 * allocated for it.
 */
export function readArrayHeader(bytes, start) {
  const len = lengthOf(bytes);
  const fail = (code, count = 0) => msgpackError(code, NO_INDEX, start, bytes, count);
  if (start >= len) throw fail('TRUNCATED');
  const tag = bytes[start];
  let count;
  let body;
  if ((tag & 0xf0) === 0x90) {
    count = tag & 0x0f;
    body = start + 1;
  } else if (tag === 0xdc) {
    if (len - start < 3) throw fail('TRUNCATED');
    count = (bytes[start + 1] << 8) | bytes[start + 2];
    body = start + 3;
  } else if (tag === 0xdd) {
    if (len - start < 5) throw fail('TRUNCATED');
    count = be32(bytes, start + 1);
    body = start + 5;
  } else {
    throw fail('NOT_ARRAY');
  }
  if (count > len - body) throw fail('LENGTH', count);
  return { count, body };
}

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

/**
 * Decodes `count` numeric elements from bytes[body] into a new Float32Array
 * (wide = false) or Float64Array (wide = true); returns { value, end }.
 * Runs of the target's own float form take a tight loop (V8 optimizes it
 * well only while it stays small); every other form goes through readElement.
 */
export function unpackFloats(bytes, body, count, wide) {
  const out = wide ? new Float64Array(count) : new Float32Array(count);
  const len = lengthOf(bytes);
  const fastTag = wide ? 0xcb : 0xca;
  const fastSize = wide ? 9 : 5;
  let p = body;
  for (let i = 0; i < count; i++) {
    for (; i < count && bytes[p] === fastTag && len - p >= fastSize; i++, p += fastSize) {
      const v = wide ? f64At(bytes, p + 1) : f32At(bytes, p + 1);
      if (v !== v) break; // NaN: readElement copies its bits exactly
      out[i] = v;
    }
    if (i === count) break;
    p += readElement(bytes, len, p, i, out, wide);
  }
  return { value: out, end: p };
}

/** The float32 / float64 whose big-endian bits are at b[p] (through the scratch words). */
function f32At(b, p) {
  scratchU32[0] = be32(b, p);
  return scratchF32[0];
}
function f64At(b, p) {
  scratchU32[1] = be32(b, p);
  scratchU32[0] = be32(b, p + 4);
  return scratchF64[0];
}

/** Reads any numeric element at bytes[p] (element i; the input holds len bytes) into out[i]; returns its size. */
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

/** Writes a safe-integer number in its smallest form at out[p]; returns the next p. */
function writeInt(out, p, v) {
  if (v >= 0 ? v < 0x80 : v >= -32) {
    out[p] = v;
    return p + 1;
  }
  const size = v >= 0 ? (v <= 0xff ? 1 : v <= 0xffff ? 2 : v <= 0xffffffff ? 4 : 8)
    : v >= -128 ? 1 : v >= -32768 ? 2 : v >= -2147483648 ? 4 : 8;
  // 0xcc 0xcd 0xce 0xcf for 1 2 4 8 bytes; the signed forms are 4 higher.
  out[p] = (size === 1 ? 0xcc : size === 2 ? 0xcd : size === 4 ? 0xce : 0xcf) + (v < 0 ? 4 : 0);
  if (size === 8) {
    // Beyond 32 bits (a BigInt64Array value that is a safe integer): two words.
    const hi = Math.floor(v / 4294967296);
    writeWord(out, p + 1, hi);
    writeWord(out, p + 5, v - hi * 4294967296);
  } else {
    // Big-endian bytes of the low `size` bytes (two's complement for negatives).
    for (let k = size; k >= 1; k--, v = Math.floor(v / 256)) out[p + k] = v & 0xff;
  }
  return p + 1 + size;
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

/** An integer typed array of numbers (not BigInts) -> msgpack array of ints. */
export function packInts(x, n = lengthOf(x)) {
  let size = arrayHeaderSize(n);
  for (let i = 0; i < n; i++) size += intSize(x[i]);
  const out = new Uint8Array(size);
  packIntsInto(x, n, out, 0);
  return out;
}

/** packInts into out[at...] (room for the header and its width + 1 bytes an element); returns the end. */
export function packIntsInto(x, n, out, at) {
  let p = at + writeArrayHeaderAt(out, at, n);
  for (let i = 0; i < n; i++) p = writeInt(out, p, x[i]);
  return p;
}

/** BigInt64Array / BigUint64Array -> msgpack array of ints. */
export function packBigInts(x, n = lengthOf(x)) {
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

/** The pure-JS packer of a kind of js/kinds.js (BOOL too): x's standard msgpack array. */
export function packKind(kind, x, n = lengthOf(x)) {
  if (kind.c === 'bool') return packBools(x, n);
  if (kind.float) return kind.c === 'f32' ? packF32(x, n) : packF64(x, n);
  return kind.big ? packBigInts(x, n) : packInts(x, n);
}

/** The pure-JS unpacker of a kind: the array of `count` elements at bytes[body] as a new typed array. */
export function unpackKind(kind, bytes, body, count, integralFloats) {
  if (kind.c === 'bool') return unpackBools(bytes, body, count);
  if (kind.float) return unpackFloats(bytes, body, count, kind.c === 'f64');
  return unpackInts(bytes, body, count, kind, integralFloats);
}

/**
 * The pure-JS packer of a kind, into out[at...], which has room for
 * abi.js packBound(n, kind.wire) bytes from there; returns the end.
 */
export function packKindInto(kind, x, n, out, at) {
  if (kind.c === 'bool') return packBoolsInto(x, n, out, at);
  if (kind.float) return kind.c === 'f32' ? packF32Into(x, n, out, at) : packF64Into(x, n, out, at);
  return kind.big ? packBigIntsInto(x, n, out, at) : packIntsInto(x, n, out, at);
}

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

/** Reads the bin at bytes[start] into a new Type (Uint8Array or Uint8ClampedArray). */
export function readBin(bytes, start, Type) {
  const tag = bytes[start];
  const head = tag === 0xc4 ? 2 : tag === 0xc5 ? 3 : 5;
  const len = lengthOf(bytes);
  if (len - start < head) throw msgpackError('TRUNCATED', NO_INDEX, start, bytes);
  const n = head === 2 ? bytes[start + 1] : head === 3 ? (bytes[start + 1] << 8) | bytes[start + 2] : be32(bytes, start + 1);
  const body = start + head;
  if (n > len - body) throw msgpackError('BIN_LENGTH', NO_INDEX, start, bytes, n);
  const value = new Type(n);
  value.set(new Uint8Array(bufferOf(bytes), byteOffsetOf(bytes) + body, n));
  return { value, end: body + n };
}

// The range of each integer target (by the kernels' type name, js/kinds.js c),
// and whether its elements are BigInts.
const INT_RANGES = {
  i8: { min: -128, max: 127 },
  u8: { min: 0, max: 255 },
  i16: { min: -32768, max: 32767 },
  u16: { min: 0, max: 65535 },
  i32: { min: -2147483648, max: 2147483647 },
  u32: { min: 0, max: 4294967295 },
  i64: { min: -(2n ** 63n), max: 2n ** 63n - 1n, big: true },
  u64: { min: 0n, max: 2n ** 64n - 1n, big: true },
};

/**
 * Decodes `count` integer elements from bytes[body] into a new typed array of
 * `kind` (js/kinds.js, an integer kind). Every int form whose value fits is taken; a float is
 * a TYPE error, or with integralFloats taken when exactly integral and in
 * range; what does not fit is a RANGE error. Returns { value, end }.
 */
export function unpackInts(bytes, body, count, kind, integralFloats) {
  const { min, max, big } = INT_RANGES[kind.c];
  const { Type } = kind;
  // Stores into one array type only: V8 shares type feedback per code site, and
  // stores into seven kinds of typed array there run ~10x slower (measured:
  // Int32Array of 4096 fixints, 118 µs). Numbers collect in a Float64Array
  // (exact for every value that fits), converted once at the end.
  const out = big ? new BigInt64Array(count) : numberScratch(count);
  const len = lengthOf(bytes);
  let p = body;
  for (let i = 0; i < count; i++) {
    if (p >= len) throw msgpackError('TRUNCATED', i, p, bytes);
    const tag = bytes[p];
    if (tag < 0x80 || tag >= 0xe0) { // fixint: the common case
      const v = (tag << 24) >> 24;
      if (v < min) throw rangeError(bytes, i, p, v, kind);
      if (big) out[i] = BigInt(v);
      else out[i] = v;
      p += 1;
      continue;
    }
    const size = elementSize(tag);
    if (size === 0) throw msgpackError('TYPE', i, p, bytes, 0, { target: kind.name });
    if (size > len - p) throw msgpackError('TRUNCATED', i, p, bytes);
    const v = elementValue(bytes, tag, p + 1);
    if ((tag === 0xca || tag === 0xcb) && !integralFloats) {
      throw msgpackError('TYPE', i, p, bytes, 0, { target: kind.name, value: v });
    }
    // Number and BigInt compare exactly with each other; NaN and fractions fail isInteger.
    if (v < min || v > max || (typeof v === 'number' && !Number.isInteger(v))) throw rangeError(bytes, i, p, v, kind);
    // BigUint64Array values above 2^63 pass through BigInt64Array as their two's complement.
    if (big) out[i] = BigInt.asIntN(64, BigInt(v));
    else out[i] = Number(v);
    p += size;
  }
  return { value: big ? new Type(out.buffer) : fromNumbers(out, count, Type), end: p };
}

// unpackInts' numbers, reused up to 4096 of them (32 KB; more are a fresh
// array): nothing runs between filling and converting it.
let numbers = new Float64Array(64);
function numberScratch(count) {
  if (count <= numbers.length) return numbers;
  if (count > 4096) return new Float64Array(count);
  numbers = new Float64Array(4096);
  return numbers;
}

/**
 * A new Type of the first `count` numbers. new Type(floats) converts in the
 * engine's runtime, ~95 ns a call in V8 (a small decode's whole budget): a
 * loop converts small arrays, whose few stores can afford to see every type.
 */
function fromNumbers(floats, count, Type) {
  if (count > 64) return new Type(floats.subarray(0, count));
  const value = new Type(count);
  for (let i = 0; i < count; i++) value[i] = floats[i];
  return value;
}

/** Decodes `count` booleans (0xc2 / 0xc3 only) from bytes[body] into a Uint8Array of 0 / 1. */
export function unpackBools(bytes, body, count) {
  const out = new Uint8Array(count);
  const len = lengthOf(bytes);
  for (let i = 0, p = body; i < count; i++, p++) {
    if (p >= len) throw msgpackError('TRUNCATED', i, p, bytes);
    const tag = bytes[p];
    if (tag !== 0xc2 && tag !== 0xc3) throw msgpackError('TYPE', i, p, bytes, 0, { target: 'boolean' });
    out[i] = tag - 0xc2;
  }
  return { value: out, end: body + count };
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
