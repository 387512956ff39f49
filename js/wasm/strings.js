// strings.js - the ASN.1 string kernels' calls (js/strings.js decides when
// they run, by js/io.js kernelTakes()): content encoded or checked in the
// heap's scratch (heap.js), copied out once. An input of chars or bytes is
// placed as every kernel input is (an alloc() array is read in place); a
// string is written into scratch by the heap.

/**
 * Encodes chars (a string, or a Uint16Array of code units: `original` is
 * what the caller passed) as `kind` content into a fresh Uint8Array with
 * `header` bytes of room before it. On a bad char throws fail(result, chars).
 */
export function encodeChars(heap, kind, chars, original, header, fail, fn) {
  const n = chars.length;
  const size = kind.wide ? 2 * n : n;
  const scratch = heap.scratch;
  // The content at offset 16, the header's room before it (at most 6 bytes,
  // which the caller writes): the output is copied out once, room and content together.
  const at = 16;
  if (typeof chars === 'string') {
    if (!kind.wide) {
      // A one-byte kind: the string's UTF-8, which is its chars, one byte
      // each, up to its first non-ASCII char, whose first byte (>= 0xC2) is
      // out of every set: checking n bytes finds the first bad char at its own index.
      heap.ensure(scratch, at + 3 * n, 0);
      heap.writeText(scratch, at, chars, 'utf8', 3 * n);
      if (!heap.check8(kind.check, heap.sourceIn(scratch, at), n)) throw fail(heap.failure(), chars);
    } else {
      // BMP: the string's units, swapped in place.
      heap.ensure(scratch, at + 2 * n, 0);
      heap.writeText(scratch, at, chars, 'utf16le', 2 * n);
      if (!heap.convert(kind.encode, heap.sourceIn(scratch, at), n, scratch, at)) throw fail(heap.failure(), chars);
    }
  } else {
    // Units, encoded from where they are placed (BMP swaps them, the one-byte kinds narrow them).
    const source = heap.place(Uint16Array, chars, 0, n, fn, original, scratch, at + size);
    if (!heap.convert(kind.encode, source, n, scratch, at)) throw fail(heap.failure(), chars);
  }
  return heap.take(scratch, at - header, header + size);
}

/**
 * Decodes content bytes[start, end) (even length for BMP) to a string, or to
 * a Uint16Array when `toUnits`. On a bad char throws fail(result).
 * (`bytes`: a view of the caller's input, `original` what the caller passed.)
 */
export function decodeChars(heap, kind, bytes, original, start, end, toUnits, fail, fn) {
  const len = end - start;
  const scratch = heap.scratch;
  // BMP as a string: first narrowed (below), then, if any char is wider,
  // decoded to units; otherwise units, or (one-byte kinds) only checked.
  const narrowing = kind.wide && !toUnits && len % 2 === 0; // an odd length: fm_bmp_decode reports it
  const outEnd = narrowing ? len + len / 2 : kind.wide ? len : toUnits ? 2 * len : 0;
  const source = heap.place(Uint8Array, bytes, start, len, fn, original, scratch, outEnd);
  if (narrowing) {
    // Every char one byte wide: the string from those bytes, which engines
    // make much faster than one from units (bench/strings-crossover.js).
    // Node's 'latin1' is ISO-8859-1 (chars to 0xFF); TextDecoder's is
    // windows-1252, the identity below 0x80 only (heap.latin1Max). Otherwise
    // (fm_bmp_narrow stops at the first wider char, and checks nothing) the units.
    const n = len / 2;
    if (heap.narrow(source, n, scratch, len, heap.latin1Max) === n) return heap.readText(scratch, len, n, 'latin1');
  }
  if (kind.wide) {
    if (!heap.convert('fm_bmp_decode', source, len, scratch, 0)) throw fail(heap.failure());
    return toUnits ? heap.takeTyped(Uint16Array, scratch, 0, len / 2) : heap.readText(scratch, 0, len, 'utf16le');
  }
  if (toUnits) {
    if (!heap.convert(kind.decode, source, len, scratch, 0)) throw fail(heap.failure());
    return heap.takeTyped(Uint16Array, scratch, 0, len);
  }
  if (!heap.check8(kind.check, source, len)) throw fail(heap.failure());
  return heap.textAt(source, len, 'latin1');
}
