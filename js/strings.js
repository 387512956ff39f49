// strings.js - the ASN.1 character strings: BMPString (big-endian UCS-2,
// plane 0 without surrogates), IA5String (0x00-0x7F) and VisibleString
// (0x20-0x7E), as content bytes and as DER primitive encodings. The wasm
// kernels are c/fm_string.c; the pure-JS path below follows them rule for
// rule, and the parity tests hold both to the native builds.
//
// The API is made by stringsApi(ready), which index.js calls once with its own
// state getter: each instance of index.js (e.g. one per benchmark path) gets
// functions bound to its own wasm instance and options.

import { asBytes, asOffset, describe } from './args.js';
import { FastmpError, NO_INDEX } from './errors.js';
import { NodeBuffer, align16, copyOut, freshBytes } from './memory.js';

/**
 * Below these lengths (in chars) the pure-JS path is faster than a wasm call.
 * Measured per build with `node --expose-gc bench/strings-crossover.js`
 * (Node 20, x86-64): near them both paths are within noise of each other.
 * ASCII covers IA5String and VisibleString.
 */
const JS_BELOW = {
  simd: { encodeBMP: 96, decodeBMP: 48, encodeASCII: 64, decodeASCII: 32 },
  scalar: { encodeBMP: 128, decodeBMP: 48, encodeASCII: 96, decodeASCII: 48 },
};

// One shape for all three (BMP's lo/hi/check unused): the shared functions
// below then see a single map, where three would make their accesses polymorphic.
const BMP = { name: 'BMPString', api: 'BMP', tag: 0x1e, wide: true, lo: 0x0000, hi: 0xffff, encode: 'fm_bmp_encode', decode: 'fm_bmp_decode', check: null };
const IA5 = { name: 'IA5String', api: 'IA5', tag: 0x16, wide: false, lo: 0x00, hi: 0x7f, encode: 'fm_ia5_encode', decode: 'fm_ia5_decode', check: 'fm_ia5_check' };
const VISIBLE = { name: 'VisibleString', api: 'Visible', tag: 0x1a, wide: false, lo: 0x20, hi: 0x7e, encode: 'fm_visible_encode', decode: 'fm_visible_decode', check: 'fm_visible_check' };

// Node's Buffer writes a string's UTF-16 units (lone surrogates as they are)
// or its UTF-8 natively, and builds strings from UTF-16LE or Latin-1 bytes
// natively; browsers have TextDecoder and TextEncoder.encodeInto.
const utf16le = typeof TextDecoder === 'function' ? new TextDecoder('utf-16le', { ignoreBOM: true }) : null;
// For bytes 0x00-0x7F (all that is ever decoded with it) windows-1252 is the identity.
const latin1 = typeof TextDecoder === 'function' ? new TextDecoder('windows-1252') : null;
const utf8 = typeof TextEncoder === 'function' ? new TextEncoder() : null;

// ---- errors -------------------------------------------------------------------

const hex = (v, digits) => v.toString(16).toUpperCase().padStart(digits, '0');
const charName = (unit) => `U+${hex(unit, 4)}`;
const rangeName = (kind) => `${charName(kind.lo)}-${charName(kind.hi)}`;

/** A bad char found while encoding: `index` in the input, `offset` in the output. */
function encodeError(code, kind, index, offset, unit) {
  const why = code === 'SURROGATE'
    ? 'a surrogate code unit (U+D800-U+DFFF); BMPString holds plane-0 chars only'
    : `outside ${kind.name}'s range ${rangeName(kind)}`;
  return new FastmpError(code, `${kind.name}: char ${index} (${charName(unit)}) is ${why}`, index, offset);
}

/** A bad char found while decoding: `index` in the content, `offset` in the whole input. */
function decodeError(code, kind, index, offset, unit) {
  const why = code === 'SURROGATE'
    ? 'a surrogate code unit (0xD800-0xDFFF); BMPString holds plane-0 chars only'
    : `outside ${kind.name}'s range 0x${hex(kind.lo, 2)}-0x${hex(kind.hi, 2)}`;
  const found = kind.wide ? `0x${hex(unit, 4)}` : `0x${hex(unit, 2)}`;
  return new FastmpError(code, `${kind.name}: char ${index} at byte ${offset} is ${found}, ${why}`, index, offset);
}

function oddLengthError(len, last) {
  return new FastmpError('ODD_LENGTH', `BMPString content of ${len} bytes is not whole chars: its last byte, at ${last}, is half a char`, (len - 1) / 2, last);
}

// Engines cap the length of a string (V8: 2^29 - 24 chars on 64-bit), and
// Node reports it with a plain Error (ERR_STRING_TOO_LONG), after the whole
// decode. Node tells the cap up front; elsewhere what the engine throws while
// making a string that long becomes the same RangeError.
const MAX_STRING = globalThis.process?.getBuiltinModule?.('node:buffer')?.constants?.MAX_STRING_LENGTH ?? Infinity;
const MIN_ENGINE_MAX_STRING = 2 ** 28 - 16; // no engine caps strings below this (V8 on 32-bit)

function stringTooLong(kind, chars, cause) {
  const cap = MAX_STRING === Infinity ? '' : ` (at most ${MAX_STRING} chars)`;
  return new RangeError(`fastmp: ${kind.name} content of ${chars} chars is longer than a JS string can be here${cap}; decode${kind.api}ToUint16() returns the chars as a Uint16Array`, { cause });
}

function derError(code, kind, offset, detail) {
  return new FastmpError(code, `${kind.name}: ${detail}`, NO_INDEX, offset);
}

// ---- DER headers (X.690 8.1.2-8.1.3, DER 10.1) ----------------------------------

const headerSize = (length) => (length < 0x80 ? 2 : length <= 0xff ? 3 : length <= 0xffff ? 4 : length <= 0xffffff ? 5 : 6);

/** Writes tag and shortest definite length at out[0]; returns the header size. */
function writeHeader(out, tag, length) {
  const size = headerSize(length);
  out[0] = tag;
  if (size === 2) {
    out[1] = length;
  } else {
    out[1] = 0x80 | (size - 2);
    for (let k = size - 1, v = length; k >= 2; k--, v = Math.floor(v / 256)) out[k] = v & 0xff;
  }
  return size;
}

/**
 * Reads the header of a primitive `kind` at bytes[at]; returns the content's
 * { start, end }. Errors name the byte of the tag or of the first length octet.
 */
function readHeader(kind, bytes, at) {
  const len = bytes.length;
  const tagName = (t) => `0x${hex(t, 2)}`;
  if (at >= len) throw new FastmpError('TRUNCATED', `${kind.name}: input ends at byte ${at}, where its tag should be`, NO_INDEX, at);
  const tag = bytes[at];
  if (tag === (kind.tag | 0x20)) {
    throw derError('DER_CONSTRUCTED', kind, at, `tag ${tagName(tag)} at byte ${at} is the constructed form, which DER does not allow (expected ${tagName(kind.tag)})`);
  }
  if (tag !== kind.tag) throw derError('DER_TAG', kind, at, `expected tag ${tagName(kind.tag)} at byte ${at}, found ${tagName(tag)}`);
  const lengthAt = at + 1;
  if (lengthAt >= len) throw new FastmpError('TRUNCATED', `${kind.name}: input ends at byte ${lengthAt}, where its length should be`, NO_INDEX, lengthAt);
  const first = bytes[lengthAt];
  let start = lengthAt + 1;
  let length = first;
  if (first === 0x80) throw derError('DER_INDEFINITE', kind, lengthAt, `indefinite length (0x80) at byte ${lengthAt}; DER requires a definite length`);
  if (first > 0x80) {
    const octets = first & 0x7f;
    if (first === 0xff) throw derError('DER_LENGTH', kind, lengthAt, `length octet 0xFF at byte ${lengthAt} is reserved (X.690 8.1.3.5)`);
    if (octets > 4) throw derError('DER_LENGTH', kind, lengthAt, `length at byte ${lengthAt} takes ${octets} octets; lengths above 2^32-1 are not supported`);
    if (len - start < octets) throw new FastmpError('TRUNCATED', `${kind.name}: input ends inside the length at byte ${lengthAt}`, NO_INDEX, lengthAt);
    length = 0;
    for (let k = 0; k < octets; k++) length = length * 256 + bytes[start + k];
    if (bytes[start] === 0 || length < 0x80) {
      throw derError('DER_NONMINIMAL', kind, lengthAt, `length ${length} at byte ${lengthAt} takes ${octets + 1} octets where DER requires the fewest (${headerSize(length) - 1})`);
    }
    start += octets;
  }
  if (length > len - start) {
    throw new FastmpError('TRUNCATED', `${kind.name}: length at byte ${lengthAt} says ${length} content bytes, but only ${len - start} follow`, NO_INDEX, lengthAt);
  }
  return { start, end: start + length };
}

// ---- the pure-JS path ------------------------------------------------------------

const unitAt = (value, i) => (typeof value === 'string' ? value.charCodeAt(i) : value[i]);

/** BMP content of `value` (string or Uint16Array) into out[at..]; error offsets are in `out`. */
function jsEncodeBMP(value, out, at) {
  const isString = typeof value === 'string';
  for (let i = 0, n = value.length, p = at; i < n; i++, p += 2) {
    const c = isString ? value.charCodeAt(i) : value[i];
    if ((c & 0xf800) === 0xd800) throw encodeError('SURROGATE', BMP, i, p, c);
    out[p] = c >>> 8;
    out[p + 1] = c & 0xff;
  }
}

/** IA5 / Visible content of `value` into out[at..]. */
function jsEncodeNarrow(kind, value, out, at) {
  const { lo, hi } = kind;
  const isString = typeof value === 'string';
  for (let i = 0, n = value.length; i < n; i++) {
    const c = isString ? value.charCodeAt(i) : value[i];
    if (c < lo || c > hi) throw encodeError('RANGE', kind, i, at + i, c);
    out[at + i] = c;
  }
}

/** The units of BMP content bytes[start, end), checked. Small inputs as an Array (for fromCharCode). */
function jsDecodeBMP(bytes, start, end, asArray) {
  const n = (end - start) / 2; // even: odd lengths are refused before
  const units = asArray ? new Array(n) : new Uint16Array(n);
  for (let i = 0, p = start; i < n; i++, p += 2) {
    const c = (bytes[p] << 8) | bytes[p + 1];
    if ((c & 0xf800) === 0xd800) throw decodeError('SURROGATE', BMP, i, p, c);
    units[i] = c;
  }
  return units;
}

/** Checks IA5 / Visible content bytes[start, end); small inputs come back as an Array of chars. */
function jsCheck(kind, bytes, start, end, asArray) {
  const { lo, hi } = kind;
  const chars = asArray ? new Array(end - start) : null;
  for (let p = start; p < end; p++) {
    const c = bytes[p];
    if (c < lo || c > hi) throw decodeError('RANGE', kind, p - start, p, c);
    if (asArray) chars[p - start] = c;
  }
  return chars;
}

const SMALL = 128; // below this many chars, String.fromCharCode.apply on an Array wins
const CHUNK = 8192; // fromCharCode.apply arguments per call, well inside engine limits

/** A string from checked units (Array below SMALL, else Uint16Array). */
function unitsToString(units) {
  const n = units.length;
  if (n < SMALL) return String.fromCharCode.apply(null, units);
  if (NodeBuffer) return NodeBuffer.from(units.buffer, units.byteOffset, 2 * n).toString('utf16le');
  if (utf16le) return utf16le.decode(units);
  let s = '';
  for (let i = 0; i < n; i += CHUNK) s += String.fromCharCode.apply(null, units.subarray(i, i + CHUNK));
  return s;
}

/** A string from checked ASCII bytes[start, end) (SMALL chars or more). */
function asciiToString(bytes, start, end) {
  if (NodeBuffer) return NodeBuffer.from(bytes.buffer, bytes.byteOffset + start, end - start).toString('latin1');
  if (latin1) return latin1.decode(bytes.subarray(start, end));
  let s = '';
  for (let i = start; i < end; i += CHUNK) s += String.fromCharCode.apply(null, bytes.subarray(i, Math.min(end, i + CHUNK)));
  return s;
}

// ---- the wasm path -----------------------------------------------------------------

// Per boundary: a Uint16Array and (in Node) a Buffer over wasm memory, remade
// when memory grows (the boundary then replaces its u8 view).
const VIEWS = Symbol('fastmp string views');

function viewsOf(b) {
  let v = b[VIEWS];
  if (v === undefined || v.u8 !== b.u8) {
    const { buffer } = b.u8;
    v = { u8: b.u8, u16: new Uint16Array(buffer), buf: NodeBuffer ? NodeBuffer.from(buffer) : null };
    b[VIEWS] = v;
  }
  return v;
}

/** The error of a failed kernel call; offsets shifted by `shift` (DER header bytes, or the content's start). */
function encodeFailure(b, kind, value, shift) {
  const r = b.readResult();
  return encodeError(r.code, kind, r.index, shift + r.offset, unitAt(value, r.index));
}

function decodeFailure(b, kind, input, shift) {
  const r = b.readResult();
  const p = shift + r.offset;
  return decodeError(r.code, kind, r.index, p, kind.wide ? (input[p] << 8) | input[p + 1] : input[p]);
}

/**
 * Encodes `value` into scratch memory; returns the address of its content
 * (2n bytes for BMP, n for IA5 / Visible). `shift` counts DER header bytes in
 * error offsets.
 */
function wasmEncode(b, kind, value, shift) {
  const n = value.length;
  const isString = typeof value === 'string';
  const k = b.wasm;
  if (isString && !kind.wide && (NodeBuffer || utf8)) {
    // The UTF-8 of a string is its chars, one byte each, up to its first
    // non-ASCII char, whose first byte (>= 0xC2) is out of range: checking
    // the first n bytes finds the first bad char at its own index. At most
    // 3 bytes per UTF-16 unit, so all of it fits.
    const base = b.reserve(3 * n);
    const v = viewsOf(b);
    if (v.buf) v.buf.write(value, base, 3 * n, 'utf8');
    else utf8.encodeInto(value, v.u8.subarray(base, base + 3 * n));
    if (k[kind.check](base, n, b.result) !== 0) throw encodeFailure(b, kind, value, shift);
    return base;
  }
  // The units, in place: BMP swaps them, IA5 / Visible narrow them.
  const base = b.reserve(2 * n);
  const v = viewsOf(b);
  if (!isString) v.u16.set(value, base >>> 1);
  else if (v.buf) v.buf.write(value, base, 2 * n, 'utf16le');
  else for (let i = 0, p = base >>> 1; i < n; i++) v.u16[p + i] = value.charCodeAt(i);
  if (k[kind.encode](base, n, base, b.result) !== 0) throw encodeFailure(b, kind, value, shift);
  return base;
}

/**
 * Decodes content bytes[start, end) (of even length for BMP) to a string, or
 * to a Uint16Array when `toUnits`.
 */
function wasmDecode(b, kind, input, start, end, toUnits) {
  // A view of wasm memory (an alloc() array, a packView() output) is copied
  // first: the call may move what it points at, or decode over it in place.
  const bytes = input.buffer === b.buffer ? input.slice() : input;
  const len = end - start;
  const k = b.wasm;
  const wide = kind.wide;
  // BMP in place; IA5 / Visible widen into a second region, or only check.
  const out = wide ? 0 : align16(len);
  const base = b.reserve(wide || !toUnits ? len : out + 2 * len);
  b.u8.set(start === 0 && end === bytes.length ? bytes : bytes.subarray(start, end), base);
  if (wide) {
    if (k.fm_bmp_decode(base, len, base, b.result) !== 0) throw decodeFailure(b, kind, bytes, start);
    const v = viewsOf(b);
    if (toUnits) return copyOut(v.u16, base >>> 1, (base + len) >>> 1);
    return v.buf ? v.buf.toString('utf16le', base, base + len) : utf16le.decode(v.u8.subarray(base, base + len));
  }
  if (toUnits) {
    if (k[kind.decode](base, len, base + out, b.result) !== 0) throw decodeFailure(b, kind, bytes, start);
    const first = (base + out) >>> 1;
    return copyOut(viewsOf(b).u16, first, first + len);
  }
  if (k[kind.check](base, len, b.result) !== 0) throw decodeFailure(b, kind, bytes, start);
  const v = viewsOf(b);
  return v.buf ? v.buf.toString('latin1', base, base + len) : asciiToString(v.u8, base, base + len);
}


// ---- arguments ------------------------------------------------------------------------

function asChars(value, fn) {
  if (typeof value === 'string' || value instanceof Uint16Array) return value;
  throw new TypeError(`fastmp: ${fn}() takes a string or a Uint16Array of UTF-16 code units, not ${describe(value)}`);
}

// ---- the API ---------------------------------------------------------------------------

/**
 * The string functions bound to one fastmp instance: `ready()` returns its
 * state { boundary, backend, pureJs } (or throws before init()).
 */
export function stringsApi(ready) {
  const useJs = (s, op, n) => s.pureJs === 'always' || (s.pureJs === 'auto' && n < JS_BELOW[s.backend][op]);
  const encodeOp = (kind) => (kind.wide ? 'encodeBMP' : 'encodeASCII');
  const decodeOp = (kind) => (kind.wide ? 'decodeBMP' : 'decodeASCII');

  /** Content bytes of `value`, with `header` bytes of room before them. */
  function encode(kind, value, header, tag) {
    const s = ready();
    const n = value.length;
    const size = kind.wide ? 2 * n : n;
    if (useJs(s, encodeOp(kind), n)) {
      const out = freshBytes(header + size);
      if (header) writeHeader(out, tag, size);
      if (kind.wide) jsEncodeBMP(value, out, header);
      else jsEncodeNarrow(kind, value, out, header);
      return out;
    }
    const b = s.boundary;
    // Units in wasm memory (an alloc() array) are copied first: the call may move them.
    const units = typeof value === 'string' || value.buffer !== b.buffer ? value : value.slice();
    const base = wasmEncode(b, kind, units, header);
    if (!header) return copyOut(b.u8, base, base + size);
    const out = freshBytes(header + size);
    writeHeader(out, tag, size);
    out.set(b.u8.subarray(base, base + size), header);
    return out;
  }

  /** Content bytes[start, end) as a string (or units). */
  function decode(kind, bytes, start, end, toUnits) {
    ready();
    const len = end - start;
    if (kind.wide && len % 2) throw oddLengthError(len, end - 1);
    const n = kind.wide ? len / 2 : len; // no >> 1: content reaches 4 GiB
    if (toUnits) return decodeContent(kind, bytes, start, end, n, true);
    if (n > MAX_STRING) throw stringTooLong(kind, n);
    try {
      return decodeContent(kind, bytes, start, end, n, false);
    } catch (e) {
      if (e instanceof FastmpError || e instanceof RangeError || n <= MIN_ENGINE_MAX_STRING) throw e;
      throw stringTooLong(kind, n, e);
    }
  }

  function decodeContent(kind, bytes, start, end, n, toUnits) {
    const s = ready();
    if (useJs(s, decodeOp(kind), n)) {
      if (kind.wide) {
        const units = jsDecodeBMP(bytes, start, end, !toUnits && n < SMALL);
        return toUnits ? units : unitsToString(units);
      }
      if (toUnits) {
        jsCheck(kind, bytes, start, end, false);
        return Uint16Array.from(bytes.subarray(start, end));
      }
      if (n < SMALL) return String.fromCharCode.apply(null, jsCheck(kind, bytes, start, end, true));
      jsCheck(kind, bytes, start, end, false);
      return asciiToString(bytes, start, end);
    }
    return wasmDecode(s.boundary, kind, bytes, start, end, toUnits);
  }

  /** A string, or a Uint16Array (checked like any input that may be fastmp's own view). */
  function charsOf(value, fn) {
    const chars = asChars(value, fn);
    if (typeof chars !== 'string') ready().boundary.checkInput(chars, fn);
    return chars;
  }

  function write(kind, value, fn) {
    const chars = charsOf(value, fn);
    const size = kind.wide ? 2 * chars.length : chars.length;
    if (size > 0xffffffff) throw new RangeError(`fastmp: ${fn}(): ${size} content bytes have no DER length (at most 2^32-1)`);
    return encode(kind, chars, headerSize(size), kind.tag);
  }

  /** Input bytes, checked (the wasm path copies a view of wasm memory first). */
  function inputOf(bytes, fn) {
    const input = asBytes(bytes, fn);
    ready().boundary.checkInput(input, fn);
    return input;
  }

  function read(kind, bytes, offset, fn) {
    const input = inputOf(bytes, fn);
    const { start, end } = readHeader(kind, input, asOffset(offset, input, fn));
    return { value: decode(kind, input, start, end, false), end };
  }

  function decodeAll(kind, bytes, fn, toUnits) {
    const input = inputOf(bytes, fn);
    return decode(kind, input, 0, input.length, toUnits);
  }

  return {
    /** string | Uint16Array -> BMPString content (big-endian UCS-2). */
    encodeBMP: (value) => encode(BMP, charsOf(value, 'encodeBMP'), 0),
    /** BMPString content -> string. */
    decodeBMP: (bytes) => decodeAll(BMP, bytes, 'decodeBMP', false),
    /** BMPString content -> Uint16Array of its chars. */
    decodeBMPToUint16: (bytes) => decodeAll(BMP, bytes, 'decodeBMPToUint16', true),
    /** string | Uint16Array -> DER BMPString (tag 0x1E). */
    writeBMPString: (value) => write(BMP, value, 'writeBMPString'),
    /** The DER BMPString at bytes[offset] -> { value, end }. */
    readBMPString: (bytes, offset = 0) => read(BMP, bytes, offset, 'readBMPString'),

    encodeIA5: (value) => encode(IA5, charsOf(value, 'encodeIA5'), 0),
    decodeIA5: (bytes) => decodeAll(IA5, bytes, 'decodeIA5', false),
    decodeIA5ToUint16: (bytes) => decodeAll(IA5, bytes, 'decodeIA5ToUint16', true),
    writeIA5String: (value) => write(IA5, value, 'writeIA5String'),
    readIA5String: (bytes, offset = 0) => read(IA5, bytes, offset, 'readIA5String'),

    encodeVisible: (value) => encode(VISIBLE, charsOf(value, 'encodeVisible'), 0),
    decodeVisible: (bytes) => decodeAll(VISIBLE, bytes, 'decodeVisible', false),
    decodeVisibleToUint16: (bytes) => decodeAll(VISIBLE, bytes, 'decodeVisibleToUint16', true),
    writeVisibleString: (value) => write(VISIBLE, value, 'writeVisibleString'),
    readVisibleString: (bytes, offset = 0) => read(VISIBLE, bytes, offset, 'readVisibleString'),
  };
}
