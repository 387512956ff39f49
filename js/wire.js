// wire.js - the pure-JS codec: array headers for every path, and the whole
// pack/unpack for inputs too small for the wasm call to pay off. It follows
// the C kernels rule for rule (c/fm_msgpack.h); the parity tests hold it to
// them byte for byte.

import { FastmpError, NO_INDEX, decodeError } from './errors.js';

/** Largest msgpack array: its length field is a u32. */
export const MAX_ELEMENTS = 0xffffffff;

export function arrayHeaderSize(n) {
  return n <= 15 ? 1 : n <= 0xffff ? 3 : 5;
}

/** Writes the smallest array header for n elements at out[0]; returns its size. */
export function writeArrayHeader(out, n) {
  if (n <= 15) {
    out[0] = 0x90 | n;
    return 1;
  }
  if (n <= 0xffff) {
    out[0] = 0xdc;
    out[1] = n >>> 8;
    out[2] = n & 0xff;
    return 3;
  }
  out[0] = 0xdd;
  out[1] = n >>> 24;
  out[2] = (n >>> 16) & 0xff;
  out[3] = (n >>> 8) & 0xff;
  out[4] = n & 0xff;
  return 5;
}

const be32 = (b, p) => ((b[p] << 24) | (b[p + 1] << 16) | (b[p + 2] << 8) | b[p + 3]) >>> 0;

/**
 * Reads the array header at bytes[start]. Every element takes at least one
 * byte, so a count beyond the remaining bytes is rejected before anything is
 * allocated for it.
 */
export function readArrayHeader(bytes, start) {
  const len = bytes.length;
  const fail = (code, count = 0) => decodeError(code, NO_INDEX, start, bytes, count);
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

/**
 * Float32Array -> msgpack array of float32. A NaN's bits come from the
 * array's own bytes: the float -> double -> float trip through a JS number
 * may quiet a signalling NaN, and every payload must be kept.
 */
export function packF32(x) {
  const n = x.length;
  const out = new Uint8Array(arrayHeaderSize(n) + 5 * n);
  for (let i = 0, p = writeArrayHeader(out, n); i < n; i++, p += 5) {
    const v = x[i];
    let b;
    if (v === v) {
      scratchF32[0] = v;
      b = scratchU32[0];
    } else {
      b = new Uint32Array(x.buffer, x.byteOffset + 4 * i, 1)[0];
    }
    out[p] = 0xca;
    out[p + 1] = b >>> 24;
    out[p + 2] = b >>> 16;
    out[p + 3] = b >>> 8;
    out[p + 4] = b;
  }
  return out;
}

/** Float64Array -> msgpack array of float64 (NaN bits kept, as in packF32). */
export function packF64(x) {
  const n = x.length;
  const out = new Uint8Array(arrayHeaderSize(n) + 9 * n);
  for (let i = 0, p = writeArrayHeader(out, n); i < n; i++, p += 9) {
    const v = x[i];
    let hi;
    let lo;
    if (v === v) {
      scratchF64[0] = v;
      lo = scratchU32[0];
      hi = scratchU32[1];
    } else {
      const words = new Uint32Array(x.buffer, x.byteOffset + 8 * i, 2);
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
  return out;
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
function nearestF32OfInt64(hi, lo, view, p, signed) {
  if (hi < 0x200000 && hi >= -0x200000) return hi * 4294967296 + lo;
  const v = signed ? view.getBigInt64(p) : view.getBigUint64(p);
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
  const len = bytes.length;
  const fastTag = wide ? 0xcb : 0xca;
  const fastSize = wide ? 9 : 5;
  let view = null; // made only for the other forms: see scratchU32
  let p = body;
  for (let i = 0; i < count; i++) {
    for (; i < count && bytes[p] === fastTag && len - p >= fastSize; i++, p += fastSize) {
      let v;
      if (wide) {
        scratchU32[1] = be32(bytes, p + 1);
        scratchU32[0] = be32(bytes, p + 5);
        v = scratchF64[0];
      } else {
        scratchU32[0] = be32(bytes, p + 1);
        v = scratchF32[0];
      }
      if (v !== v) break; // NaN: readElement copies its bits exactly
      out[i] = v;
    }
    if (i === count) break;
    view ??= new DataView(bytes.buffer, bytes.byteOffset, len);
    p += readElement(bytes, view, p, i, out, wide);
  }
  return { value: out, end: p };
}

/** Reads any numeric element at bytes[p] (element i) into out[i]; returns its size. */
function readElement(bytes, view, p, i, out, wide) {
  const len = bytes.length;
  if (p >= len) throw decodeError('TRUNCATED', i, p, bytes);
  const tag = bytes[p];
  if (tag < 0x80 || tag >= 0xe0) {
    out[i] = (tag << 24) >> 24;
    return 1;
  }
  const size = tag === 0xcc || tag === 0xd0 ? 2 : tag === 0xcd || tag === 0xd1 ? 3
    : tag === 0xca || tag === 0xce || tag === 0xd2 ? 5 : tag === 0xcb || tag === 0xcf || tag === 0xd3 ? 9 : 0;
  if (size === 0) throw decodeError('TYPE', i, p, bytes);
  if (size > len - p) throw decodeError('TRUNCATED', i, p, bytes);
  const q = p + 1;
  switch (tag) {
    case 0xcc: out[i] = bytes[q]; break;
    case 0xcd: out[i] = view.getUint16(q); break;
    case 0xce: out[i] = view.getUint32(q); break;
    case 0xd0: out[i] = view.getInt8(q); break;
    case 0xd1: out[i] = view.getInt16(q); break;
    case 0xd2: out[i] = view.getInt32(q); break;
    case 0xcf:
    case 0xd3: {
      const hi = tag === 0xd3 ? view.getInt32(q) : view.getUint32(q);
      const lo = view.getUint32(q + 4);
      // hi * 2^32 + lo: both terms exact, so one rounding to double.
      out[i] = wide ? hi * 4294967296 + lo : nearestF32OfInt64(hi, lo, view, q, tag === 0xd3);
      break;
    }
    case 0xca: {
      const b = view.getUint32(q);
      if (!isNaN32(b)) {
        out[i] = view.getFloat32(q);
      } else if (wide) {
        const words = new Uint32Array(out.buffer, 8 * i, 2);
        words[1] = (b & 0x80000000) | 0x7ff00000 | ((b & 0x7fffff) >>> 3);
        words[0] = b << 29;
      } else {
        new Uint32Array(out.buffer, 4 * i, 1)[0] = b;
      }
      break;
    }
    default: { // 0xcb
      const hi = view.getUint32(q);
      const lo = view.getUint32(q + 4);
      if (!isNaN64(hi, lo)) {
        out[i] = view.getFloat64(q);
      } else if (wide) {
        const words = new Uint32Array(out.buffer, 8 * i, 2);
        words[1] = hi;
        words[0] = lo;
      } else {
        new Uint32Array(out.buffer, 4 * i, 1)[0] = narrowNaN(hi, lo);
      }
    }
  }
  return size;
}

export { FastmpError };
