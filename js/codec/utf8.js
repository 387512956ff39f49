// utf8.js - strings to and from UTF-8, the way @msgpack/msgpack writes them
// and a strict reader.
//
// Writing copies @msgpack/msgpack 3.x byte for byte: up to 50 UTF-16 units a JS
// loop, above that TextEncoder.encodeInto; with one difference: a lone
// surrogate is U+FFFD in every string, as TextEncoder writes it (@msgpack/msgpack's
// loop writes its 3-byte WTF-8 form, which is not UTF-8 and which a strict
// reader, ours included, refuses). Both are 3 bytes, so sizes do not change.
// Reading is strict: any byte sequence that is not UTF-8 (overlong forms,
// surrogates, code points above U+10FFFF, cut sequences) is rejected, and a
// leading U+FEFF is kept as a character. Short strings: ASCII ones eight
// chars per String.fromCharCode call (or Node's latin1Slice above 16 bytes),
// others by a JS loop; long ones by a fatal TextDecoder. (The decoder's input
// is never in a SharedArrayBuffer here: bytes checked stay as checked.)

import { NodeBuffer } from '../runtime.js';

/** Above this many UTF-16 units @msgpack/msgpack writes with TextEncoder. */
export const TEXT_ENCODER_THRESHOLD = 50;
/** Above this many bytes strings are read with TextDecoder. */
const TEXT_DECODER_THRESHOLD = 200;

const encoder = /* @__PURE__ */ new TextEncoder();
const decoder = /* @__PURE__ */ new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Writes str (at most 50 units: the caller has room for 3 bytes a unit) at
 * out[p] by @msgpack/msgpack's rules; returns the end.
 */
export function writeUtf8Short(str, out, p) {
  const n = str.length;
  for (let i = 0; i < n; i++) {
    let c = str.charCodeAt(i);
    if (c < 0x80) {
      out[p++] = c;
      continue;
    }
    if (c < 0x800) {
      out[p++] = 0xc0 | (c >> 6);
    } else {
      if ((c & 0xf800) === 0xd800) {
        const d = c <= 0xdbff && i + 1 < n ? str.charCodeAt(i + 1) : 0;
        if ((d & 0xfc00) === 0xdc00) {
          i++;
          c = ((c & 0x3ff) << 10) + (d & 0x3ff) + 0x10000;
        } else {
          c = 0xfffd; // a lone surrogate
        }
      }
      if (c < 0x10000) {
        out[p++] = 0xe0 | (c >> 12);
        out[p++] = 0x80 | ((c >> 6) & 0x3f);
      } else {
        out[p++] = 0xf0 | (c >> 18);
        out[p++] = 0x80 | ((c >> 12) & 0x3f);
        out[p++] = 0x80 | ((c >> 6) & 0x3f);
      }
    }
    out[p++] = 0x80 | (c & 0x3f);
  }
  return p;
}

/**
 * Writes as much of str as fits at out[p] with TextEncoder (which writes
 * U+FFFD for a lone surrogate); returns the units `read` and the `end`.
 */
export function encodeUtf8Into(str, out, p) {
  const { read, written } = encoder.encodeInto(str, out.subarray(p));
  return { read, end: p + written };
}

// (Read in a pure function: a bundler keeps a property read at the top level, used or not.)
const sliceCopy = /* @__PURE__ */ (() => Uint8Array.prototype.slice)();

/**
 * The string in bytes[start, end), or undefined when those bytes are not
 * UTF-8. (The caller reports the error: it knows the offset of the str.)
 */
export function readUtf8(bytes, start, end) {
  if (end - start > TEXT_DECODER_THRESHOLD) {
    try {
      return decoder.decode(bytes.subarray(start, end));
    } catch {
      return undefined;
    }
  }
  return readUtf8Short(bytes, start, end);
}

const fromCharCode = /* @__PURE__ */ (() => String.fromCharCode)();

/**
 * Node's Buffer method that makes a string of bytes read as Latin-1, called on
 * any Uint8Array (checked here: another runtime's Buffer may have none, or
 * one that takes other arguments); null without one (a page's Buffer
 * polyfill is not asked: js/runtime.js NodeBuffer).
 */
const latin1Slice = /* @__PURE__ */ (() => {
  const slice = NodeBuffer?.prototype?.latin1Slice;
  try {
    return typeof slice === 'function' && slice.call(new Uint8Array([0x41, 0x62, 0x63]), 1, 3) === 'bc' ? slice : null;
  } catch {
    return null;
  }
})();

/** Above this many bytes an ASCII string is made by latin1Slice, where there is one. */
const LATIN1_SLICE_FROM = 16;

/** Whether bytes[start, end) are all ASCII. */
function isAscii(bytes, start, end) {
  let any = 0;
  for (let i = start; i < end; i++) any |= bytes[i];
  return any < 0x80;
}

/**
 * The ASCII bytes[s, end) as a string, its chars made eight at a time with
 * no array in between (what most keys and short values are).
 */
function asciiString(b, s, end) {
  switch (end - s) {
    case 0: return '';
    case 1: return fromCharCode(b[s]);
    case 2: return fromCharCode(b[s], b[s + 1]);
    case 3: return fromCharCode(b[s], b[s + 1], b[s + 2]);
    case 4: return fromCharCode(b[s], b[s + 1], b[s + 2], b[s + 3]);
    case 5: return fromCharCode(b[s], b[s + 1], b[s + 2], b[s + 3], b[s + 4]);
    case 6: return fromCharCode(b[s], b[s + 1], b[s + 2], b[s + 3], b[s + 4], b[s + 5]);
    case 7: return fromCharCode(b[s], b[s + 1], b[s + 2], b[s + 3], b[s + 4], b[s + 5], b[s + 6]);
    default: return fromCharCode(b[s], b[s + 1], b[s + 2], b[s + 3], b[s + 4], b[s + 5], b[s + 6], b[s + 7]) + asciiString(b, s + 8, end);
  }
}

function readUtf8Short(bytes, start, end) {
  if (isAscii(bytes, start, end)) {
    return latin1Slice !== null && end - start > LATIN1_SLICE_FROM ? latin1Slice.call(bytes, start, end) : asciiString(bytes, start, end);
  }
  const units = []; // a fresh array costs less than emptying a reused one
  let i = start;
  while (i < end) {
    const b = bytes[i++];
    if (b < 0x80) {
      units.push(b);
    } else if (b >= 0xc2 && b < 0xe0) {
      if (i >= end || (bytes[i] & 0xc0) !== 0x80) return undefined;
      units.push(((b & 0x1f) << 6) | (bytes[i++] & 0x3f));
    } else if (b >= 0xe0 && b < 0xf0) {
      if (end - i < 2) return undefined;
      const c1 = bytes[i];
      const c2 = bytes[i + 1];
      // E0 needs A0..BF (no overlong forms), ED needs 80..9F (no surrogates).
      const lo = b === 0xe0 ? 0xa0 : 0x80;
      const hi = b === 0xed ? 0x9f : 0xbf;
      if (c1 < lo || c1 > hi || (c2 & 0xc0) !== 0x80) return undefined;
      units.push(((b & 0x0f) << 12) | ((c1 & 0x3f) << 6) | (c2 & 0x3f));
      i += 2;
    } else if (b >= 0xf0 && b <= 0xf4) {
      if (end - i < 3) return undefined;
      const c1 = bytes[i];
      // F0 needs 90..BF (no overlong forms), F4 needs 80..8F (nothing above U+10FFFF).
      const lo = b === 0xf0 ? 0x90 : 0x80;
      const hi = b === 0xf4 ? 0x8f : 0xbf;
      if (c1 < lo || c1 > hi || (bytes[i + 1] & 0xc0) !== 0x80 || (bytes[i + 2] & 0xc0) !== 0x80) return undefined;
      const c = (((b & 0x07) << 18) | ((c1 & 0x3f) << 12) | ((bytes[i + 1] & 0x3f) << 6) | (bytes[i + 2] & 0x3f)) - 0x10000;
      units.push(0xd800 | (c >> 10), 0xdc00 | (c & 0x3ff));
      i += 3;
    } else {
      return undefined;
    }
  }
  return String.fromCharCode.apply(null, units);
}

/**
 * Map keys up to 16 bytes, remembered by their bytes (what @msgpack/msgpack's
 * CachedKeyDecoder does): a message's keys repeat, and comparing a few bytes
 * costs less than building the string again. Same interface, so a
 * `keyDecoder` option of either library fits.
 */
export class KeyCache {
  constructor(maxKeyLength = 16, maxPerLength = 16) {
    this.maxKeyLength = maxKeyLength;
    this.maxPerLength = maxPerLength;
    this.keys = Array.from({ length: maxKeyLength }, () => []);
    this.next = 0;
  }

  canBeCached(byteLength) {
    return byteLength > 0 && byteLength <= this.maxKeyLength;
  }

  /** The key in bytes[start, start + n), or undefined when it is not UTF-8. */
  decode(bytes, start, n) {
    const records = this.keys[n - 1];
    search: for (let r = 0; r < records.length; r++) {
      const record = records[r];
      const known = record.bytes;
      for (let j = 0; j < n; j++) if (known[j] !== bytes[start + j]) continue search;
      return record.str;
    }
    const str = readUtf8Short(bytes, start, start + n);
    if (str === undefined) return undefined;
    // Uint8Array's slice: a Buffer's own slice() returns a view, not a copy.
    const record = { bytes: sliceCopy.call(bytes, start, start + n), str };
    if (records.length < this.maxPerLength) records.push(record);
    else records[(this.next = (this.next + 1) % this.maxPerLength)] = record;
    return str;
  }
}
