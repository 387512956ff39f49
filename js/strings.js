// strings.js - the ASN.1 character strings: BMPString (big-endian UCS-2,
// plane 0 without surrogates), IA5String (0x00-0x7F), VisibleString
// (0x20-0x7E), PrintableString and NumericString (the sets of X.680 41.4),
// as content bytes and as DER primitive encodings. The wasm
// kernels are c/fm_string.c; the pure-JS path below follows them rule for
// rule, and the parity tests hold both to the native builds.
//
// Each function takes an instance's core (js/core.js) first: its options
// and its heap. js/io.js says
// when a kernel runs (kernelTakes()); the wasm side of every such call
// (placing, kernel calls, copies out) is js/wasm/strings.js's. An input may
// be an alloc() array or a packView() output: refused past its lifetime
// (js/lifetimes.js), read in place or from a copy as the heap places it.

import { asOffset, bufferOf, byteOffsetOf, describe, inputBytes, onceReadable, ownView, typedArrayName, usableLength } from './args.js';
import { FastmpError, NO_INDEX } from './errors.js';
import { kernelTakes } from './io.js';
import { refuseSized } from './lifetimes.js';
import { isNode, NodeBuffer } from './runtime.js';
import { freshBytes } from './wasm/outputs.js';
import { decodeNarrowChars, decodeWideChars, encodeNarrowChars, encodeWideChars } from './wasm/strings.js';

/** 1 for each char 0x00-0x7F that `test` admits: the pure-JS path's set of a one-byte kind. */
const charSet = (test) => Uint8Array.from({ length: 0x80 }, (_, c) => (test(String.fromCharCode(c)) ? 1 : 0));

// What differs by width, BMP's or the one-byte kinds': the pure-JS loops
// (see "the pure-JS path" below) and the kernels' calls (js/wasm/strings.js).
// A kind carries its width's (`width`): a page bundles those of the kinds it calls.
const WIDE = {
  wide: true,
  jsEncode: jsEncodeBMP, jsDecodeShort: jsDecodeBMPShort, jsDecodeUnits: jsDecodeBMPUnits, jsDecodeString: jsDecodeBMPString,
  encodeChars: encodeWideChars, decodeChars: decodeWideChars,
};
const NARROW = {
  wide: false,
  jsEncode: jsEncodeNarrow, jsDecodeShort: jsDecodeNarrowShort, jsDecodeUnits: jsDecodeNarrowUnits, jsDecodeString: jsDecodeNarrowString,
  encodeChars: encodeNarrowChars, decodeChars: decodeNarrowChars,
};

// The string kinds (the C kernels are named after `c`). One shape for all
// (BMP's set, lo, hi and check unused): the shared functions below then see a
// single map, where several would make their accesses polymorphic. `lo`-`hi`
// bound the set (`test`: which chars of 0x00-0x7F it admits); `chars` names
// a set with holes in messages. (Pure: a page bundles the kinds it calls.)
const stringKind = (name, api, tag, width, lo, hi, test, chars) => {
  const c = api.toLowerCase();
  const set = test === null ? null : charSet(test);
  const { wide } = width;
  return { name, api, tag, wide, lo, hi, set, chars, width, encode: `fm_${c}_encode`, decode: `fm_${c}_decode`, check: wide ? null : `fm_${c}_check` };
};
const BMP = /* @__PURE__ */ stringKind('BMPString', 'BMP', 0x1e, WIDE, 0x0000, 0xffff, null, null);
const IA5 = /* @__PURE__ */ stringKind('IA5String', 'IA5', 0x16, NARROW, 0x00, 0x7f, (ch) => ch <= '\x7f', null);
const VISIBLE = /* @__PURE__ */ stringKind('VisibleString', 'Visible', 0x1a, NARROW, 0x20, 0x7e, (ch) => ch >= ' ' && ch <= '~', null);
// X.680 41.4 Table 10.
const PRINTABLE = /* @__PURE__ */ stringKind('PrintableString', 'Printable', 0x13, NARROW, 0x20, 0x7a, (ch) => /[A-Za-z0-9 '()+,\-./:=?]/.test(ch),
  "A-Z a-z 0-9 space ' ( ) + , - . / : = ?");
const NUMERIC = /* @__PURE__ */ stringKind('NumericString', 'Numeric', 0x12, NARROW, 0x20, 0x39, (ch) => /[0-9 ]/.test(ch), '0-9 and space');

// Node's Buffer builds strings from UTF-16LE or Latin-1 bytes natively; browsers have TextDecoder.
const utf16le = typeof TextDecoder === 'function' ? /* @__PURE__ */ new TextDecoder('utf-16le', { ignoreBOM: true }) : null;
// For bytes 0x00-0x7F (all that is ever decoded with it) windows-1252 is the identity.
const latin1 = typeof TextDecoder === 'function' ? /* @__PURE__ */ new TextDecoder('windows-1252') : null;

// ---- errors -------------------------------------------------------------------

const hex = (v, digits) => v.toString(16).toUpperCase().padStart(digits, '0');
const charName = (unit) => `U+${hex(unit, 4)}`;
/** "range U+0020-U+007E", or the named set; `unit` words a bound. */
const setName = (kind, unit) => (kind.chars === null ? `range ${unit(kind.lo)}-${unit(kind.hi)}` : `set ${kind.chars}`);
/** True when the char (any code unit) is in a one-byte kind's set. */
const inSet = (set, c) => c < 0x80 && set[c] === 1;

/** A bad char found while encoding: `index` in the input, `offset` in the output. */
function charEncodeError(code, kind, index, offset, unit) {
  const why = code === 'SURROGATE'
    ? 'a surrogate code unit (U+D800-U+DFFF); BMPString holds plane-0 chars only'
    : `outside ${kind.name}'s ${setName(kind, charName)}`;
  return new FastmpError(code, `${kind.name}: char ${index} (${charName(unit)}) is ${why}`, index, offset, unit);
}

/** A bad char found while decoding: `index` in the content, `offset` in the whole input. */
function charDecodeError(code, kind, index, offset, unit) {
  const why = code === 'SURROGATE'
    ? 'a surrogate code unit (0xD800-0xDFFF); BMPString holds plane-0 chars only'
    : `outside ${kind.name}'s ${setName(kind, (b) => `0x${hex(b, 2)}`)}`;
  const found = kind.wide ? `0x${hex(unit, 4)}` : `0x${hex(unit, 2)}`;
  return new FastmpError(code, `${kind.name}: char ${index} at byte ${offset} is ${found}, ${why}`, index, offset, unit);
}

function oddLengthError(len, last) {
  return new FastmpError('ODD_LENGTH', `BMPString content of ${len} bytes is not whole chars: its last byte, at ${last}, is half a char`, (len - 1) / 2, last);
}

// Engines cap the length of a string (V8: 2^29 - 24 chars on 64-bit), and
// Node reports it with a plain Error (ERR_STRING_TOO_LONG), after the whole
// decode. Node tells the cap up front; elsewhere what the engine throws while
// making a string that long becomes the same RangeError.
const MAX_STRING = (isNode && process.getBuiltinModule?.('node:buffer')?.constants?.MAX_STRING_LENGTH) || Infinity;
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
function readHeader(kind, bytes, at, len) {
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
    // Each octet read once (a SharedArrayBuffer's may change between two readings).
    const lead = bytes[start];
    length = lead;
    for (let k = 1; k < octets; k++) length = length * 256 + bytes[start + k];
    if (lead === 0 || length < 0x80) {
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

// Each takes the kind first (the wide ones leave it: BMP is their only kind).

/** BMP content of `value` (string or Uint16Array) into out[at..]; error offsets are in `out`. */
function jsEncodeBMP(kind, value, out, at) {
  const isString = typeof value === 'string';
  for (let i = 0, n = value.length, p = at; i < n; i++, p += 2) {
    const c = isString ? value.charCodeAt(i) : value[i];
    if ((c & 0xf800) === 0xd800) throw charEncodeError('SURROGATE', BMP, i, p, c);
    out[p] = c >>> 8;
    out[p + 1] = c & 0xff;
  }
}

/** One-byte kind content of `value` into out[at..]. */
function jsEncodeNarrow(kind, value, out, at) {
  const { set } = kind;
  const isString = typeof value === 'string';
  for (let i = 0, n = value.length; i < n; i++) {
    const c = isString ? value.charCodeAt(i) : value[i];
    if (!inSet(set, c)) throw charEncodeError('RANGE', kind, i, at + i, c);
    out[at + i] = c;
  }
}

// Each loop below reads every byte of the content once (so content in a
// SharedArrayBuffer is checked and converted as one reading), by index: the
// caller's Uint8Array itself, whose properties are not asked. Each takes one
// kind of output, so that its stores stay monomorphic.

// The arrays the short decodes fill for String.fromCharCode.apply: one of
// each length below SMALL, made once (as packed arrays of small ints, the
// fastest for apply) and refilled whole by every call of that length. Kept
// by an object of no prototype: a length whose array is not made yet is looked
// up nowhere else, where a polluted index (Object.prototype[3] = …) would be
// taken for the array.
const ARRAYS = /* @__PURE__ */ Object.create(null);
const arrayOf = (n) => ARRAYS[n] ?? (ARRAYS[n] = new Array(n).fill(0));

/** BMP content bytes[start, end) (fewer than SMALL chars) as a string, checked. */
function jsDecodeBMPShort(kind, bytes, start, end) {
  const n = (end - start) >>> 1; // even, and below 2 * SMALL
  const units = arrayOf(n);
  for (let i = 0, p = start; i < n; i++, p += 2) {
    const c = (bytes[p] << 8) | bytes[p + 1];
    if ((c & 0xf800) === 0xd800) throw charDecodeError('SURROGATE', BMP, i, p, c);
    units[i] = c;
  }
  return String.fromCharCode.apply(null, units);
}

/** The units of BMP content bytes[start, end), checked. */
function jsDecodeBMPUnits(kind, bytes, start, end) {
  const n = (end - start) / 2;
  const units = new Uint16Array(n);
  for (let i = 0, p = start; i < n; i++, p += 2) {
    const c = (bytes[p] << 8) | bytes[p + 1];
    if ((c & 0xf800) === 0xd800) throw charDecodeError('SURROGATE', BMP, i, p, c);
    units[i] = c;
  }
  return units;
}

/** One-byte kind content bytes[start, end) (fewer than SMALL chars) as a string, checked. */
function jsDecodeNarrowShort(kind, bytes, start, end) {
  const { set } = kind;
  const chars = arrayOf(end - start);
  for (let p = start; p < end; p++) {
    const c = bytes[p];
    if (!inSet(set, c)) throw charDecodeError('RANGE', kind, p - start, p, c);
    chars[p - start] = c;
  }
  return String.fromCharCode.apply(null, chars);
}

/** The units of one-byte kind content bytes[start, end), checked. */
function jsDecodeNarrowUnits(kind, bytes, start, end) {
  const { set } = kind;
  const units = new Uint16Array(end - start);
  for (let p = start; p < end; p++) {
    const c = bytes[p];
    if (!inSet(set, c)) throw charDecodeError('RANGE', kind, p - start, p, c);
    units[p - start] = c;
  }
  return units;
}

/**
 * BMP content input[start, end) (SMALL chars or more) as a string, checked.
 * No one-byte route here: V8 makes a one-byte string of Latin-1 units
 * itself, and in Chromium the loop costs more than TextDecoder saves.
 */
function jsDecodeBMPString(kind, input, original, fn, start, end) {
  return unitsToString(jsDecodeBMPUnits(kind, input, start, end));
}

/**
 * One-byte kind content input[start, end) (SMALL chars or more) as a string:
 * checked, then converted (read twice, so from an own view of the content,
 * which in a SharedArrayBuffer is a copy of the content alone: a read*String()
 * at each offset of a large shared input copies its string, not the input).
 */
function jsDecodeNarrowString(kind, input, original, fn, start, end) {
  const bytes = onceReadable(new Uint8Array(bufferOf(input), byteOffsetOf(input) + start, end - start));
  jsCheck(kind, bytes, start, end - start);
  return asciiToString(bytes, 0, end - start);
}

/** Checks the n bytes of one-byte kind content `bytes` (an own view: then converted by asciiToString, a second reading), which starts at byte `start` of the input. */
function jsCheck(kind, bytes, start, n) {
  const { set } = kind;
  for (let i = 0; i < n; i++) {
    const c = bytes[i];
    if (!inSet(set, c)) throw charDecodeError('RANGE', kind, i, start + i, c);
  }
}

const SMALL = 128; // below this many chars, String.fromCharCode.apply on an Array wins
const CHUNK = 8192; // fromCharCode.apply arguments per call, well inside engine limits

/** A string from checked units (a Uint16Array of SMALL units or more). */
function unitsToString(units) {
  const n = units.length;
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

// ---- arguments ------------------------------------------------------------------------

/** A string, or an own view of a Uint16Array of code units (refused past its lifetime). */
function asChars(value, fn) {
  if (typeof value === 'string') return value;
  if (typedArrayName(value) === 'Uint16Array') {
    const chars = ownView(value, Uint16Array, fn);
    refuseSized(value, 2 * chars.length, fn);
    return chars;
  }
  throw new TypeError(`fastmp: ${fn}() takes a string or a Uint16Array of UTF-16 code units, not ${describe(value)}`);
}

// ---- the API ---------------------------------------------------------------------------

// Per kind (stem: BMP, IA5, Visible, Printable, Numeric): encode<stem>
// (string | Uint16Array -> content), decode<stem> (content -> string),
// decode<stem>ToUint16 (content -> its chars), write<stem>String (-> DER),
// read<stem>String (the DER string at bytes[offset] -> { value, end }).
// ---- one call, of any kind -------------------------------------------------------------

/**
 * The input as the wasm path and the Buffer / TextDecoder routes read it: an
 * own view (inputBytes() gave the caller's Uint8Array itself, which the pure-JS
 * loops read by index only), or the view it made of an ArrayBuffer.
 */
const own = (input, original, fn) => (input === original ? ownView(input, Uint8Array, fn) : input);

/** Content bytes of `chars`, with `header` bytes of room before them. */
function encode(core, kind, chars, original, header, tag, fn) {
  const n = chars.length;
  const size = kind.wide ? 2 * n : n;
  if (!kernelTakes(core, kind.wide ? 'encodeBMP' : 'encodeASCII', n)) {
    const out = freshBytes(header + size);
    if (header) writeHeader(out, tag, size);
    kind.width.jsEncode(kind, chars, out, header);
    return out;
  }
  // The bad char: a string's own, else the value the kernel read (the caller's view may be detached by now).
  const fail = (r, text) => charEncodeError(r.code, kind, r.index, header + r.offset, text === undefined ? Number(r.value) : text.charCodeAt(r.index));
  const out = kind.width.encodeChars(core.heap, kind, chars, n, original, header, fail, fn);
  if (header) writeHeader(out, tag, size);
  return out;
}

/** Content bytes[start, end) as a string (or units). */
function decode(core, kind, bytes, original, fn, start, end, toUnits) {
  const len = end - start;
  if (kind.wide && len % 2) throw oddLengthError(len, end - 1);
  const n = kind.wide ? len / 2 : len; // no >> 1: content reaches 4 GiB
  const kernel = kernelTakes(core, kind.wide ? 'decodeBMP' : 'decodeASCII', n);
  if (n < SMALL && !toUnits && !kernel) { // the short strings, first
    return kind.width.jsDecodeShort(kind, bytes, start, end);
  }
  if (toUnits) return decodeContent(core, kind, bytes, original, fn, start, end, true, kernel);
  if (n > MAX_STRING) throw stringTooLong(kind, n);
  try {
    return decodeContent(core, kind, bytes, original, fn, start, end, false, kernel);
  } catch (e) {
    if (e instanceof FastmpError || e instanceof RangeError || n <= MIN_ENGINE_MAX_STRING) throw e;
    throw stringTooLong(kind, n, e);
  }
}

function decodeContent(core, kind, input, original, fn, start, end, toUnits, kernel) {
  if (!kernel) return toUnits ? kind.width.jsDecodeUnits(kind, input, start, end) : kind.width.jsDecodeString(kind, input, original, fn, start, end);
  // The bad char as the kernel read it (the caller's view may be detached by now).
  const fail = (r) => charDecodeError(r.code, kind, r.index, start + r.offset, Number(r.value));
  return kind.width.decodeChars(core.heap, kind, own(input, original, fn), original, start, end, toUnits, fail, fn);
}

/** Every argument is read and checked before where the chars are is asked (their lifetime). */
function encodeAll(core, kind, value, fn) {
  return encode(core, kind, asChars(value, fn), value, 0, 0, fn);
}

function write(core, kind, value, fn) {
  const chars = asChars(value, fn);
  const size = kind.wide ? 2 * chars.length : chars.length;
  if (size > 0xffffffff) throw new RangeError(`fastmp: ${fn}(): ${size} content bytes have no DER length (at most 2^32-1)`);
  return encode(core, kind, chars, value, headerSize(size), kind.tag, fn);
}

// The input is the caller's Uint8Array itself (the pure-JS loops read it
// by index; an own view is made for the rest), its length read once.
function read(core, kind, bytes, offset, fn) {
  const input = inputBytes(bytes, fn);
  const len = usableLength(input, fn);
  asOffset(offset, input, fn); // (a number: no code of the caller's runs, and the input stays attached)
  refuseSized(input, len, fn, bytes); // a freed or stale input is refused before its bytes are read
  const { start, end } = readHeader(kind, input, offset, len);
  return { value: decode(core, kind, input, bytes, fn, start, end, false), end };
}

function decodeAll(core, kind, bytes, fn, toUnits) {
  const input = inputBytes(bytes, fn);
  const len = usableLength(input, fn);
  refuseSized(input, len, fn, bytes); // a freed or stale input is refused before its bytes are read
  return decode(core, kind, input, bytes, fn, 0, len, toUnits);
}

// ---- the functions, each of an instance's core (js/core.js) --------------------------------
// One export a function, so that a page bundles only the kinds and the
// directions it calls (js/api/strings.js; an instance's methods: js/instances.js).

export const encodeBMP = (core, value) => encodeAll(core, BMP, value, 'encodeBMP');
export const decodeBMP = (core, bytes) => decodeAll(core, BMP, bytes, 'decodeBMP', false);
export const decodeBMPToUint16 = (core, bytes) => decodeAll(core, BMP, bytes, 'decodeBMPToUint16', true);
export const writeBMPString = (core, value) => write(core, BMP, value, 'writeBMPString');
export const readBMPString = (core, bytes, offset = 0) => read(core, BMP, bytes, offset, 'readBMPString');
export const encodeIA5 = (core, value) => encodeAll(core, IA5, value, 'encodeIA5');
export const decodeIA5 = (core, bytes) => decodeAll(core, IA5, bytes, 'decodeIA5', false);
export const decodeIA5ToUint16 = (core, bytes) => decodeAll(core, IA5, bytes, 'decodeIA5ToUint16', true);
export const writeIA5String = (core, value) => write(core, IA5, value, 'writeIA5String');
export const readIA5String = (core, bytes, offset = 0) => read(core, IA5, bytes, offset, 'readIA5String');
export const encodeVisible = (core, value) => encodeAll(core, VISIBLE, value, 'encodeVisible');
export const decodeVisible = (core, bytes) => decodeAll(core, VISIBLE, bytes, 'decodeVisible', false);
export const decodeVisibleToUint16 = (core, bytes) => decodeAll(core, VISIBLE, bytes, 'decodeVisibleToUint16', true);
export const writeVisibleString = (core, value) => write(core, VISIBLE, value, 'writeVisibleString');
export const readVisibleString = (core, bytes, offset = 0) => read(core, VISIBLE, bytes, offset, 'readVisibleString');
export const encodePrintable = (core, value) => encodeAll(core, PRINTABLE, value, 'encodePrintable');
export const decodePrintable = (core, bytes) => decodeAll(core, PRINTABLE, bytes, 'decodePrintable', false);
export const decodePrintableToUint16 = (core, bytes) => decodeAll(core, PRINTABLE, bytes, 'decodePrintableToUint16', true);
export const writePrintableString = (core, value) => write(core, PRINTABLE, value, 'writePrintableString');
export const readPrintableString = (core, bytes, offset = 0) => read(core, PRINTABLE, bytes, offset, 'readPrintableString');
export const encodeNumeric = (core, value) => encodeAll(core, NUMERIC, value, 'encodeNumeric');
export const decodeNumeric = (core, bytes) => decodeAll(core, NUMERIC, bytes, 'decodeNumeric', false);
export const decodeNumericToUint16 = (core, bytes) => decodeAll(core, NUMERIC, bytes, 'decodeNumericToUint16', true);
export const writeNumericString = (core, value) => write(core, NUMERIC, value, 'writeNumericString');
export const readNumericString = (core, bytes, offset = 0) => read(core, NUMERIC, bytes, offset, 'readNumericString');
