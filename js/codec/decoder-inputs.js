// decoder-inputs.js - a Decoder's readings of an input that goes on past a
// value: decodeFrom() (the value at an offset, and where it ends) and
// decodeMulti() (every value, one after another), and the chunk check the
// stream decoders share (readable()). The public Decoder classes are given
// them (js/codec/decoder-extras.js), and the module-level decodeFrom() and
// decodeMulti() call them; the Decoders that decode() keeps are not, so that
// an app that only calls decode() bundles none of this file.

import { bufferOf, byteOffsetOf, copyInto, lengthOf } from '../args.js';
import { FastmpError } from '../errors.js';
import { isOwned } from '../lifetimes.js';
import { dataViewOf } from './decoder.js';
import { asInput } from './options.js';
import { show, withPath } from './path.js';
import { LIMIT, ValueScanner } from './scan.js';

/**
 * decoder.decodeFrom(input, offset): the value at input[offset], and where
 * it ends ({ value, end }).
 */
export function decodeFrom(decoder, input, offset = 0) {
  if (decoder.entered) return decodeFrom(decoder.clone(), input, offset);
  const bytes = asInput(input, 'decodeFrom');
  if (!Number.isSafeInteger(offset) || offset < 0 || offset > bytes.length) {
    throw new RangeError(`fastmp: decodeFrom() offset must be an integer from 0 to ${bytes.length}, not ${show(offset)}`);
  }
  decoder.entered = true;
  try {
    if (!decoder.mustCopy(bytes, input, 'decodeFrom')) {
      decoder.setInput(bytes, offset, false);
      return { value: decoder.readTop(), end: decoder.pos };
    }
    const copy = valueCopy(decoder, bytes, offset);
    if (copy !== null) {
      decoder.setInput(copy, offset, true);
      try {
        return { value: decoder.readTop(), end: decoder.pos };
      } catch (err) {
        // The copy ends where the scan of the input found the value's end, and the decoder reads
        // the same bytes as the scan: a value that needs more means that another thread wrote the
        // input between the scan and the copy. It is read again, as below.
        if (!isIncomplete(err) || lengthOf(copy) >= lengthOf(bytes)) throw err;
      }
    }
    // (A value the scans could not follow, or the input changed meanwhile: from a copy of the
    // whole input, as decode() reads one, which the decoder reports on as it does in place.)
    decoder.setInput(bytes.slice(), offset, true);
    return { value: decoder.readTop(), end: decoder.pos };
  } finally {
    decoder.leave();
  }
}

/** The error of a value that the input cuts short (withPath() drops `needed` from a nested call's: the caller's code's). */
const isIncomplete = (err) => err instanceof FastmpError && (err.code === 'TRUNCATED' || err.code === 'LENGTH') && err.needed !== undefined;

/**
 * The deepest nesting valueCopy()'s scan follows (each open level costs it
 * memory): a value nested deeper, which only maxDepth Infinity lets the
 * decoder try, is read from a copy of the whole input.
 */
const SCAN_DEPTH_MOST = 1 << 12;

/**
 * decoder.decodeMulti(input): every value in the input, one after another.
 * The input is checked (and copied, where mustCopy() says) once, not once a
 * value; its length is read then. The loop's body runs between two values:
 * an input it detached or shrank is refused (DETACHED) before the next.
 */
export function* decodeMulti(decoder, input) {
  const bytes = readable(decoder, input, 'decodeMulti');
  const view = dataViewOf(bytes);
  const length = lengthOf(bytes);
  for (let offset = 0; offset < length;) {
    if (offset > 0 && lengthOf(bytes) < length) throw detachedBetween(offset);
    const reading = decoder.entered ? decoder.clone() : decoder; // (the loop body may be decoding with this decoder)
    const value = readAt(reading, bytes, view, offset);
    offset = reading.pos;
    yield value;
  }
}

const detachedBetween = (offset) => withPath(new FastmpError('DETACHED', `fastmp: decodeMulti(): the input was detached or shrunk by the loop's body, before the value at byte ${offset}`, -1, offset), true);

/** One value at bytes[offset] (checked input, and its DataView); decoder.pos is then where it ends. */
function readAt(decoder, bytes, view, offset) {
  decoder.entered = true;
  try {
    decoder.setInput(bytes, offset, false, view);
    return decoder.readTop();
  } finally {
    decoder.leave();
  }
}

/**
 * An input checked by asInput(), and copied once when the decoder's
 * mustCopy() says (decodeMulti(), a stream's chunk), or when it is a small
 * view from offset 0 of wasm memory, which mustCopy() asks of shaped decodes
 * only: its values are read after the loop's body has run, whose fastmp calls
 * may grow memory and detach it, and a stream reads each value through a view
 * from the value's start, no longer from offset 0 (STALE). (Once an input, or
 * a chunk: no cost per value.)
 */
export function readable(decoder, input, fn) {
  const bytes = asInput(input, fn);
  return decoder.mustCopy(bytes, input, fn) || isOwned(bufferOf(bytes)) ? bytes.slice() : bytes;
}

/** A scanner for valueCopy(): nesting followed to SCAN_DEPTH_MOST levels at most. */
function depthBound(scanner) {
  scanner.maxDepth = Math.min(scanner.maxDepth, SCAN_DEPTH_MOST);
  return scanner;
}

/**
 * valueCopy()'s second scan, past a header the options refuse: no length
 * limit, nesting to SCAN_DEPTH_MOST levels (it stops at 0xc1 still, which no
 * decoder takes). One, shared by every Decoder: a scan runs no caller code.
 */
let wideScanner = null;
const WIDE = { maxDepth: SCAN_DEPTH_MOST, rawStrings: false, maxStrLength: Infinity, maxBinLength: Infinity, maxArrayLength: Infinity, maxMapLength: Infinity, maxExtLength: Infinity };

/** Where the value at bytes[offset] ends (`length` bytes), by `scanner` from its start: an end, MORE or LIMIT. */
function scanFrom(scanner, bytes, offset, length) {
  scanner.reset(); // (checking: the scan stops at a header the options refuse; it would follow nesting as deep as the input)
  scanner.next = offset;
  return scanner.scan(bytes, length);
}

/**
 * For decodeFrom() of an input read from a copy: the bytes of the value at
 * `offset` copied, at their own offsets, into a buffer of the Decoder's,
 * which it reuses (so that a loop over one input copies each value once);
 * its end found by the scanner (js/codec/scan.js), which reads headers
 * only; a value the input cuts, to the input's end. From offset 0, a fresh
 * copy of the value alone (what the module-level decodeFrom() reads), so
 * that no large buffer is kept. Null when no scan can follow the value
 * (0xc1, nesting past SCAN_DEPTH_MOST levels).
 */
function valueCopy(decoder, bytes, offset) {
  const length = lengthOf(bytes);
  let found = scanFrom(decoder.scanner ??= depthBound(new ValueScanner(decoder)), bytes, offset, length);
  // A header the options refuse, which the decoder may take all the same (a shaped typed array
  // at maxDepth: its elements are no level of the decoder's): the value's end is found past it,
  // so that a loop over the input copies each value once, not the whole input for each.
  if (found === LIMIT) found = scanFrom(wideScanner ??= new ValueScanner(WIDE), bytes, offset, length);
  if (found === LIMIT) return null;
  const end = found >= 0 ? found : length;
  const value = new Uint8Array(bufferOf(bytes), byteOffsetOf(bytes) + offset, end - offset);
  if (offset === 0) return value.slice();
  if (decoder.copies === null || decoder.copies.length < end) decoder.copies = new Uint8Array(Math.max(end, 2 * (decoder.copies?.length ?? 0)));
  copyInto(decoder.copies, value, offset);
  return decoder.copies.subarray(0, end);
}
