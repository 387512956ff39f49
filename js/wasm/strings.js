// strings.js - the ASN.1 string kernels' calls (js/strings.js decides when
// they run, by js/io.js kernelTakes()): content encoded or checked in the
// heap's scratch (heap.js), copied out once. An input of chars or bytes is
// placed as every kernel input is (an alloc() array is read in place); a
// string is written into scratch by the heap. The calls of each width are
// apart (BMP's, the one-byte kinds'): a kind carries those of its width
// (js/strings.js), and a page bundles the widths of the kinds it calls.

import * as heapVerbs from './heap.js';

// The content at offset 16 of scratch, the header's room before it (at most
// 6 bytes, which the caller writes): the output is copied out once, room and
// content together.
const AT = 16;

/**
 * Encodes chars (a string, or a Uint16Array of code units: `original` is
 * what the caller passed; n, their count, read before anything could detach
 * them) as BMP content into a fresh Uint8Array with `header` bytes of room
 * before it. On a bad char throws fail(result, chars) (a string), or
 * fail(result) (units: the result's value is the char as the kernel read it,
 * from where they were placed).
 */
export function encodeWideChars(heap, kind, chars, n, original, header, fail, fn) {
  if (typeof chars !== 'string') return encodeUnits(heap, kind, chars, n, original, header, fail, fn, 2 * n);
  // The string's units, swapped in place.
  const scratch = heapVerbs.scratchOf(heap);
  heapVerbs.ensure(heap, scratch, AT + 2 * n, 0);
  heapVerbs.writeText(heap, scratch, AT, chars, 'utf16le', 2 * n);
  if (!heapVerbs.convert(heap, kind.encode, heapVerbs.sourceIn(heap, scratch, AT, n), scratch, AT)) throw fail(heapVerbs.failure(heap), chars);
  return heapVerbs.take(heap, scratch, AT - header, header + 2 * n);
}

/** encodeWideChars() of a one-byte kind. */
export function encodeNarrowChars(heap, kind, chars, n, original, header, fail, fn) {
  if (typeof chars !== 'string') return encodeUnits(heap, kind, chars, n, original, header, fail, fn, n);
  // The string's UTF-8, which is its chars, one byte each, up to its first
  // non-ASCII char, whose first byte (>= 0xC2) is out of every set: checking
  // n bytes finds the first bad char at its own index. Room for n + 3 bytes
  // is room for that char whole (a writer writes no part of a char: 3 bytes,
  // or 4 for a pair, from index n - 1 or n - 2 at the latest); what the
  // writer leaves out after it is never read.
  const scratch = heapVerbs.scratchOf(heap);
  heapVerbs.ensure(heap, scratch, AT + n + 3, 0);
  heapVerbs.writeText(heap, scratch, AT, chars, 'utf8', n + 3);
  if (!heapVerbs.check8(heap, kind.check, heapVerbs.sourceIn(heap, scratch, AT, n))) throw fail(heapVerbs.failure(heap), chars);
  return heapVerbs.take(heap, scratch, AT - header, header + n);
}

/**
 * n units (a Uint16Array), encoded from where they are placed (BMP swaps
 * them, the one-byte kinds narrow them) into `size` bytes. (Placing them
 * may grow memory, which detaches the caller's view of it: they are read
 * from the Source only.)
 */
function encodeUnits(heap, kind, units, n, original, header, fail, fn, size) {
  const scratch = heapVerbs.scratchOf(heap);
  const source = heapVerbs.place(heap, Uint16Array, units, 0, n, fn, original, scratch, AT + size);
  if (!heapVerbs.convert(heap, kind.encode, source, scratch, AT)) throw fail(heapVerbs.failure(heap));
  return heapVerbs.take(heap, scratch, AT - header, header + size);
}

/**
 * Decodes BMP content bytes[start, end) to a string, or to a Uint16Array
 * when `toUnits`. On a bad char throws fail(result), whose value is the char
 * as the kernel read it (placing the input may grow memory, which detaches
 * the caller's view of it). (`bytes`: a view of the caller's input,
 * `original` what the caller passed.)
 */
export function decodeWideChars(heap, kind, bytes, original, start, end, toUnits, fail, fn) {
  const len = end - start;
  const scratch = heapVerbs.scratchOf(heap);
  // As a string: first narrowed (below), then, if any char is wider, decoded to units.
  const narrowing = !toUnits && len % 2 === 0; // an odd length: fm_bmp_decode reports it
  const source = heapVerbs.place(heap, Uint8Array, bytes, start, len, fn, original, scratch, narrowing ? len + len / 2 : len);
  if (narrowing) {
    // Every char one byte wide: the string from those bytes, which engines
    // make much faster than one from units (bench/strings-crossover.js).
    // Node's 'latin1' is ISO-8859-1 (chars to 0xFF); TextDecoder's is
    // windows-1252, the identity below 0x80 only (heapVerbs.LATIN1_MAX). Otherwise
    // (fm_bmp_narrow stops at the first wider char, and checks nothing) the units.
    const n = len / 2;
    if (heapVerbs.narrow(heap, source, scratch, len, heapVerbs.LATIN1_MAX) === n) return heapVerbs.readText(heap, scratch, len, n, 'latin1');
  }
  if (!heapVerbs.convert(heap, kind.decode, source, scratch, 0)) throw fail(heapVerbs.failure(heap));
  return toUnits ? heapVerbs.takeTyped(heap, Uint16Array, scratch, 0, len / 2) : heapVerbs.readText(heap, scratch, 0, len, 'utf16le');
}

/** decodeWideChars() of a one-byte kind: its units, or (as a string) only checked. */
export function decodeNarrowChars(heap, kind, bytes, original, start, end, toUnits, fail, fn) {
  const len = end - start;
  const scratch = heapVerbs.scratchOf(heap);
  const source = heapVerbs.place(heap, Uint8Array, bytes, start, len, fn, original, scratch, toUnits ? 2 * len : 0);
  if (toUnits) {
    if (!heapVerbs.convert(heap, kind.decode, source, scratch, 0)) throw fail(heapVerbs.failure(heap));
    return heapVerbs.takeTyped(heap, Uint16Array, scratch, 0, len);
  }
  if (!heapVerbs.check8(heap, kind.check, source)) throw fail(heapVerbs.failure(heap));
  return heapVerbs.textAt(heap, source, 'latin1');
}
