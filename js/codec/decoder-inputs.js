// decoder-inputs.js - a Decoder's readings of an input that goes on past a
// value: decodeFrom() (the value at an offset, and where it ends) and
// decodeMulti() (every value, one after another), and the chunk check the
// stream decoders share (readable()). The public Decoder classes are given
// them (js/codec/decoder-extras.js), and the module-level decodeFrom() and
// decodeMulti() call them; the Decoders that decode() keeps are not, so that
// an app that only calls decode() bundles none of this file.

import { bufferOf, byteOffsetOf, copyInto, lengthOf } from '../args.js';
import { FastmpError } from '../errors.js';
import { dataViewOf } from './decoder.js';
import { asInput } from './options.js';
import { show, withPath } from './path.js';
import { ValueScanner } from './scan.js';

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
    if (decoder.mustCopy(bytes, input, 'decodeFrom')) decoder.setInput(valueCopy(decoder, bytes, offset), offset, true);
    else decoder.setInput(bytes, offset, false);
    const value = decoder.readTop();
    return { value, end: decoder.pos };
  } finally {
    decoder.leave();
  }
}

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

/** An input checked by asInput(), and copied once when the decoder's mustCopy() says (decodeMulti(), a stream's chunk). */
export function readable(decoder, input, fn) {
  const bytes = asInput(input, fn);
  return decoder.mustCopy(bytes, input, fn) ? bytes.slice() : bytes;
}

/**
 * For decodeFrom() of an input read from a copy: the bytes of the value at
 * `offset` copied, at their own offsets, into a buffer of the Decoder's,
 * which it reuses (so that a loop over one input copies each value once);
 * its end found by the scanner (js/codec/scan.js), which reads headers
 * only; a value the input cuts, to the input's end. From offset 0, a fresh
 * copy of the value alone (what the module-level decodeFrom() reads), so
 * that no large buffer is kept.
 */
function valueCopy(decoder, bytes, offset) {
  const scanner = (decoder.scanner ??= new ValueScanner(decoder));
  scanner.reset();
  scanner.checking = false; // (the decoder reports what its options refuse)
  scanner.next = offset;
  const length = lengthOf(bytes);
  const found = scanner.scan(bytes, length);
  const end = found >= 0 ? found : length;
  const value = new Uint8Array(bufferOf(bytes), byteOffsetOf(bytes) + offset, end - offset);
  if (offset === 0) return value.slice();
  if (decoder.copies === null || decoder.copies.length < end) decoder.copies = new Uint8Array(Math.max(end, 2 * (decoder.copies?.length ?? 0)));
  copyInto(decoder.copies, value, offset);
  return decoder.copies.subarray(0, end);
}
