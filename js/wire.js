// wire.js - the pure-JS codec: array headers for every path, and the whole
// pack/unpack for inputs too small for the wasm call to pay off. It follows
// the C kernels rule for rule (c/fm_msgpack.h); the parity tests hold it to
// them byte for byte.

import { FastmpError, NO_INDEX, decodeError } from './errors.js';

/** Largest msgpack array: its length field is a u32. */
export const MAX_ELEMENTS = 0xffffffff;

// One scratch word pair, to move float bits through without an FP operation.
const scratchU32 = new Uint32Array(2);
const scratchF32 = new Float32Array(scratchU32.buffer, 0, 1);
const scratchF64 = new Float64Array(scratchU32.buffer);

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

/** Float32Array -> msgpack array of float32, from the raw bits (NaN payloads kept). */
export function packF32(x) {
  const n = x.length;
  const out = new Uint8Array(arrayHeaderSize(n) + 5 * n);
  const bits = new Uint32Array(x.buffer, x.byteOffset, n);
  for (let i = 0, p = writeArrayHeader(out, n); i < n; i++, p += 5) {
    const b = bits[i];
    out[p] = 0xca;
    out[p + 1] = b >>> 24;
    out[p + 2] = b >>> 16;
    out[p + 3] = b >>> 8;
    out[p + 4] = b;
  }
  return out;
}

/** Float64Array -> msgpack array of float64. */
export function packF64(x) {
  const n = x.length;
  const out = new Uint8Array(arrayHeaderSize(n) + 9 * n);
  const bits = new Uint32Array(x.buffer, x.byteOffset, 2 * n);
  for (let i = 0, p = writeArrayHeader(out, n); i < n; i++, p += 9) {
    const lo = bits[2 * i];
    const hi = bits[2 * i + 1];
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
 * (wide = false) or Float64Array (wide = true). Returns { value, end }.
 */
export function unpackFloats(bytes, body, count, wide) {
  const out = wide ? new Float64Array(count) : new Float32Array(count);
  const bits = new Uint32Array(out.buffer);
  const len = bytes.length;
  let view;
  let p = body;
  for (let i = 0; i < count; i++) {
    if (p >= len) throw decodeError('TRUNCATED', i, p, bytes);
    const tag = bytes[p];
    let size;
    if (tag < 0x80) {
      out[i] = tag;
      size = 1;
    } else if (tag >= 0xe0) {
      out[i] = tag - 0x100;
      size = 1;
    } else {
      size = tag === 0xcc || tag === 0xd0 ? 2 : tag === 0xcd || tag === 0xd1 ? 3
        : tag === 0xca || tag === 0xce || tag === 0xd2 ? 5 : tag === 0xcb || tag === 0xcf || tag === 0xd3 ? 9 : 0;
      if (size === 0) throw decodeError('TYPE', i, p, bytes);
      if (size > len - p) throw decodeError('TRUNCATED', i, p, bytes);
      const q = p + 1;
      switch (tag) {
        case 0xcc: out[i] = bytes[q]; break;
        case 0xcd: out[i] = (bytes[q] << 8) | bytes[q + 1]; break;
        case 0xce: out[i] = be32(bytes, q); break;
        case 0xd0: out[i] = (bytes[q] << 24) >> 24; break;
        case 0xd1: out[i] = (((bytes[q] << 8) | bytes[q + 1]) << 16) >> 16; break;
        case 0xd2: out[i] = be32(bytes, q) | 0; break;
        case 0xcf:
        case 0xd3: {
          const hi = tag === 0xd3 ? be32(bytes, q) | 0 : be32(bytes, q);
          const lo = be32(bytes, q + 4);
          if (wide) {
            out[i] = hi * 4294967296 + lo; // both terms exact: one rounding
          } else {
            view ??= new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
            out[i] = nearestF32OfInt64(hi, lo, view, q, tag === 0xd3);
          }
          break;
        }
        case 0xca: {
          const b = be32(bytes, q);
          if (!wide) {
            bits[i] = b;
          } else if (isNaN32(b)) {
            bits[2 * i + 1] = (b & 0x80000000) | 0x7ff00000 | ((b & 0x7fffff) >>> 3);
            bits[2 * i] = (b << 29) >>> 0;
          } else {
            scratchU32[0] = b;
            out[i] = scratchF32[0];
          }
          break;
        }
        default: { // 0xcb
          const hi = be32(bytes, q);
          const lo = be32(bytes, q + 4);
          if (wide) {
            bits[2 * i] = lo;
            bits[2 * i + 1] = hi;
          } else if (isNaN64(hi, lo)) {
            bits[i] = narrowNaN(hi, lo);
          } else {
            scratchU32[0] = lo;
            scratchU32[1] = hi;
            out[i] = scratchF64[0];
          }
        }
      }
    }
    p += size;
  }
  return { value: out, end: p };
}

export { FastmpError };
