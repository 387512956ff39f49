// strings.js - the ASN.1 string kernels' calls (js/strings.js decides when
// they run): content encoded or checked in the scratch region (core.js) of
// the string module's boundary, copied out once. That module's memory holds
// nothing but scratch, so no input lies in it: every input is copied in.

import { align16 } from './core.js';
import { copyOut } from './outputs.js';

// Browsers decode strings with TextDecoder and encode with TextEncoder.encodeInto.
const utf16le = typeof TextDecoder === 'function' ? new TextDecoder('utf-16le', { ignoreBOM: true }) : null;
// For bytes 0x00-0x7F (all that is ever decoded with it) windows-1252 is the identity.
const latin1 = typeof TextDecoder === 'function' ? new TextDecoder('windows-1252') : null;
const utf8 = typeof TextEncoder === 'function' ? new TextEncoder() : null;

/**
 * Encodes chars (a string, or a Uint16Array of code units) as `kind` content
 * into a fresh Uint8Array with `header` bytes of room before it. On a bad
 * char throws fail(result).
 */
export function encodeChars(b, kind, chars, header, fail) {
  const n = chars.length;
  const size = kind.wide ? 2 * n : n;
  const k = b.wasm;
  // The content at a 16-byte boundary with 16 bytes of scratch before it,
  // where the header's room is (at most 6 bytes, which the caller writes):
  // the output is copied out of scratch once, room and content together.
  const base = b.reserve(16 + (kind.wide || typeof chars !== 'string' ? 2 * n : 3 * n));
  const content = base + 16;
  if (typeof chars === 'string' && !kind.wide && (b.nodeBuffer !== null || utf8 !== null)) {
    // A one-byte kind from a string: its bytes (see writeOneByte), only checked.
    writeOneByte(b, chars, content, 3 * n);
    if (k[kind.check](content, n, b.result) !== 0) throw fail(b.readResult(), chars);
  } else {
    // Units, encoded in place (BMP swaps them, the one-byte kinds narrow them).
    if (typeof chars === 'string') writeUtf16(b, chars, content);
    else b.u16.set(chars, content >>> 1);
    if (k[kind.encode](content, n, content, b.result) !== 0) throw fail(b.readResult(), chars);
  }
  return copyOut(b.u8, content - header, content + size);
}

/**
 * A string's bytes for the check kernels of the one-byte kinds, at `at`
 * (room: 3 bytes per unit): its UTF-8, which is its chars, one byte each,
 * up to its first non-ASCII char, whose first byte (>= 0xC2) is out of
 * every set, so checking n bytes finds the first bad char at its own index.
 * Through Buffer's utf8Write, not write(), whose argument handling costs
 * more than the copy of a short string. (Latin-1 would be faster to write,
 * but it truncates chars above 0xFF, and asking first whether the UTF-8 is
 * one byte per char costs a pass over a two-byte string.)
 */
function writeOneByte(b, value, at, room) {
  const buffer = b.nodeBuffer;
  if (buffer !== null) {
    // (Node's and Bun's Buffer have utf8Write; a Buffer of another runtime may not.)
    if (typeof buffer.utf8Write === 'function') buffer.utf8Write(value, at, room);
    else buffer.write(value, at, room, 'utf8');
  } else {
    utf8.encodeInto(value, b.u8.subarray(at, at + room));
  }
}

/** A string's UTF-16 units into scratch at `at` (even). */
function writeUtf16(b, value, at) {
  const n = value.length;
  const buffer = b.nodeBuffer;
  if (buffer !== null && typeof buffer.ucs2Write === 'function') buffer.ucs2Write(value, at, 2 * n);
  else if (buffer !== null) buffer.write(value, at, 2 * n, 'utf16le');
  else for (let i = 0, p = at >>> 1, u16 = b.u16; i < n; i++) u16[p + i] = value.charCodeAt(i);
}

/**
 * Decodes content input[start, end) (even length for BMP) to a string, or to
 * a Uint16Array when `toUnits`. On a bad char throws fail(result, quoted).
 */
export function decodeChars(b, kind, bytes, start, end, toUnits, fail) {
  const len = end - start;
  const k = b.wasm;
  // BMP in place (as a string: first narrowed into a second region, see
  // below); IA5 / Visible widen into a second region, or only check.
  const narrowing = kind.wide && !toUnits && len % 2 === 0; // an odd length: fm_bmp_decode reports it
  const out = kind.wide && !narrowing ? 0 : align16(len);
  const base = b.reserve(narrowing ? out + len / 2 : kind.wide || !toUnits ? len : out + 2 * len);
  b.u8.set(start === 0 && end === bytes.length ? bytes : bytes.subarray(start, end), base);
  const failed = () => fail(b.readResult(), bytes);
  if (narrowing) {
    // Every char one byte wide: the string from those bytes, which engines
    // make much faster than one from units (bench/strings-crossover.js).
    // Node's 'latin1' is ISO-8859-1 (chars to 0xFF); TextDecoder's is
    // windows-1252, the identity below 0x80 only. Otherwise (fm_bmp_narrow
    // stops at the first wider char, and checks nothing) the units, as below.
    const n = len / 2;
    const narrowed = base + out;
    if (k.fm_bmp_narrow(base, n, narrowed, b.nodeBuffer !== null ? 0xff : 0x7f) >>> 0 === n) {
      return b.nodeBuffer !== null ? b.nodeBuffer.toString('latin1', narrowed, narrowed + n) : latin1.decode(b.u8.subarray(narrowed, narrowed + n));
    }
  }
  if (kind.wide) {
    if (k.fm_bmp_decode(base, len, base, b.result) !== 0) throw failed();
    if (toUnits) return copyOut(b.u16, base >>> 1, (base + len) >>> 1);
    return b.nodeBuffer !== null ? b.nodeBuffer.toString('utf16le', base, base + len) : utf16le.decode(b.u8.subarray(base, base + len));
  }
  if (toUnits) {
    if (k[kind.decode](base, len, base + out, b.result) !== 0) throw failed();
    const first = (base + out) >>> 1;
    return copyOut(b.u16, first, first + len);
  }
  if (k[kind.check](base, len, b.result) !== 0) throw failed();
  return b.nodeBuffer !== null ? b.nodeBuffer.toString('latin1', base, base + len) : latin1.decode(b.u8.subarray(base, base + len));
}
