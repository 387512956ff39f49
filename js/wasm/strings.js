// strings.js - the ASN.1 string kernels' calls (js/strings.js decides when
// they run, by js/io.js kernelTakes()): content encoded or checked in the
// heap's scratch (heap.js), copied out once. An input of chars or bytes is
// placed as every kernel input is (an alloc() array is read in place); a
// string is written into scratch by the heap.

import * as heapVerbs from './heap.js';

/**
 * Encodes chars (a string, or a Uint16Array of code units: `original` is
 * what the caller passed) as `kind` content into a fresh Uint8Array with
 * `header` bytes of room before it. On a bad char throws fail(result, chars).
 */
export function encodeChars(heap, kind, chars, original, header, fail, fn) {
  const n = chars.length;
  const size = kind.wide ? 2 * n : n;
  const scratch = heapVerbs.scratchOf(heap);
  // The content at offset 16, the header's room before it (at most 6 bytes,
  // which the caller writes): the output is copied out once, room and content together.
  const at = 16;
  if (typeof chars === 'string') {
    if (!kind.wide) {
      // A one-byte kind: the string's UTF-8, which is its chars, one byte
      // each, up to its first non-ASCII char, whose first byte (>= 0xC2) is
      // out of every set: checking n bytes finds the first bad char at its own index.
      heapVerbs.ensure(heap, scratch, at + 3 * n, 0);
      heapVerbs.writeText(heap, scratch, at, chars, 'utf8', 3 * n);
      if (!heapVerbs.check8(heap, kind.check, heapVerbs.sourceIn(heap, scratch, at), n)) throw fail(heapVerbs.failure(heap), chars);
    } else {
      // BMP: the string's units, swapped in place.
      heapVerbs.ensure(heap, scratch, at + 2 * n, 0);
      heapVerbs.writeText(heap, scratch, at, chars, 'utf16le', 2 * n);
      if (!heapVerbs.convert(heap, kind.encode, heapVerbs.sourceIn(heap, scratch, at), n, scratch, at)) throw fail(heapVerbs.failure(heap), chars);
    }
  } else {
    // Units, encoded from where they are placed (BMP swaps them, the one-byte kinds narrow them).
    const source = heapVerbs.place(heap, Uint16Array, chars, 0, n, fn, original, scratch, at + size);
    if (!heapVerbs.convert(heap, kind.encode, source, n, scratch, at)) throw fail(heapVerbs.failure(heap), chars);
  }
  return heapVerbs.take(heap, scratch, at - header, header + size);
}

/**
 * Decodes content bytes[start, end) (even length for BMP) to a string, or to
 * a Uint16Array when `toUnits`. On a bad char throws fail(result).
 * (`bytes`: a view of the caller's input, `original` what the caller passed.)
 */
export function decodeChars(heap, kind, bytes, original, start, end, toUnits, fail, fn) {
  const len = end - start;
  const scratch = heapVerbs.scratchOf(heap);
  // BMP as a string: first narrowed (below), then, if any char is wider,
  // decoded to units; otherwise units, or (one-byte kinds) only checked.
  const narrowing = kind.wide && !toUnits && len % 2 === 0; // an odd length: fm_bmp_decode reports it
  const outEnd = narrowing ? len + len / 2 : kind.wide ? len : toUnits ? 2 * len : 0;
  const source = heapVerbs.place(heap, Uint8Array, bytes, start, len, fn, original, scratch, outEnd);
  if (narrowing) {
    // Every char one byte wide: the string from those bytes, which engines
    // make much faster than one from units (bench/strings-crossover.js).
    // Node's 'latin1' is ISO-8859-1 (chars to 0xFF); TextDecoder's is
    // windows-1252, the identity below 0x80 only (heapVerbs.LATIN1_MAX). Otherwise
    // (fm_bmp_narrow stops at the first wider char, and checks nothing) the units.
    const n = len / 2;
    if (heapVerbs.narrow(heap, source, n, scratch, len, heapVerbs.LATIN1_MAX) === n) return heapVerbs.readText(heap, scratch, len, n, 'latin1');
  }
  if (kind.wide) {
    if (!heapVerbs.convert(heap, 'fm_bmp_decode', source, len, scratch, 0)) throw fail(heapVerbs.failure(heap));
    return toUnits ? heapVerbs.takeTyped(heap, Uint16Array, scratch, 0, len / 2) : heapVerbs.readText(heap, scratch, 0, len, 'utf16le');
  }
  if (toUnits) {
    if (!heapVerbs.convert(heap, kind.decode, source, len, scratch, 0)) throw fail(heapVerbs.failure(heap));
    return heapVerbs.takeTyped(heap, Uint16Array, scratch, 0, len);
  }
  if (!heapVerbs.check8(heap, kind.check, source, len)) throw fail(heapVerbs.failure(heap));
  return heapVerbs.textAt(heap, source, len, 'latin1');
}
