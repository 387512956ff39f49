// typed.js - the typed-array kernels' calls: pack() and unpack() of the bare
// API (js/api.js) through the boundary's scratch region (core.js), with
// inputs placed by lifetimes.js locate().

import { ELEMENTS_ONLY, MAX_NUMBER_BYTES } from '../abi.js';
import { copyInto } from '../args.js';
import { TYPED, useModule } from '../modules.js';
import { arrayHeaderSize, packKind } from '../wire.js';
import { IN_OUTPUT, OUTSIDE, align16, inAllocation } from './core.js';
import { kernelError } from './errors.js';
import { outputView, packRoom, readableAfterGrowth } from './lifetimes.js';
import { copyOut, freshOutput } from './outputs.js';

// The unpack kernels are here (the bare API's and, through reader.js, the
// decoder's): a program that holds this file loads the typed module whole,
// not its pack-only build (js/modules.js).
useModule(TYPED);

/**
 * Where unpack() of an input from outside wasm memory goes a chunk at a time
 * (unpackChunked()): inputs of `from` bytes and more, `bytes` at a time.
 * Chunks of 64 KB (the input's, and up to 8x that of output) stay in L2;
 * below 256 KB the whole input does. (Tests lower both, to cut elements at
 * every place; `bytes` must exceed the longest element, 9 bytes.)
 */
export const UNPACK_CHUNK = { bytes: 1 << 16, from: 1 << 18 };

/** Packs n elements of x into a fresh Uint8Array; `at` is locate()'s answer for x. */
export function pack(b, kind, x, n, at) {
  const { out, size } = packInScratch(b, kind, x, n, at);
  return copyOut(b.u8, out, out + size);
}

/**
 * pack() without the copy out: a view of the output, valid until the next
 * call. Without wasm, a fresh array (valid as long as the caller likes).
 */
export function packView(b, kind, x, n, at) {
  if (b.wasm === null) return packKind(kind, x, n);
  const { out, size } = packInScratch(b, kind, x, n, at);
  return outputView(b, out, size);
}

/**
 * pack() into target[offset...] (the caller's Uint8Array; `targetAt`
 * locate()'s answer for it: its address, or OUTSIDE), through scratch;
 * returns the bytes written, or -size when the output's size bytes exceed
 * `room` (then nothing is written).
 */
export function packInto(b, kind, x, n, at, target, targetAt, offset, room) {
  const { out, size } = packInScratch(b, kind, x, n, at);
  if (size > room) return -size;
  // An alloc() target by its address: packing may have grown memory, which detached the caller's view.
  if (inAllocation(targetAt)) b.u8.copyWithin(targetAt + offset, out, out + size);
  else copyInto(target, b.u8.subarray(out, out + size), offset);
  return size;
}

/** Bytes already packed (a bin) into scratch, as a packView() output; without wasm, the bytes themselves. */
export function bytesView(b, packed) {
  if (b.wasm === null) return packed;
  const out = b.reserve(packed.length);
  b.u8.set(packed, out);
  return outputView(b, out, packed.length);
}

/**
 * Packs n elements of x (at: locate()'s answer) into scratch; returns where
 * the output starts and its size. The output starts so that its elements,
 * after the array header, are at a 16-byte boundary: the SIMD packers'
 * vector stores then never straddle a cache line.
 */
function packInScratch(b, kind, x, n, at) {
  const outBytes = packRoom(n, kind);
  const lead = -arrayHeaderSize(n) & 15;
  if (inAllocation(at)) { // x lives in wasm memory: no copy in
    const out = b.reserve(outBytes) + lead;
    return { out, size: b.wasm[kind.pack](at, n, out) >>> 0 };
  }
  // The latest output is overwritten by the copy in: copy it out first.
  const inBytes = align16(n * kind.bytes);
  const source = at === IN_OUTPUT ? new kind.Type(x) : readableAfterGrowth(kind.Type, x, n * kind.bytes, inBytes + outBytes > b.capacity);
  const base = b.reserve(inBytes + outBytes);
  b.view(kind.Type).set(source, base / kind.bytes);
  const out = base + inBytes + lead;
  return { out, size: b.wasm[kind.pack](base, n, out) >>> 0 };
}

/**
 * Decodes the msgpack array of `count` elements at input[start] (its
 * elements from input[body]) into a fresh kind.Type; returns { value, end }.
 * Only the bytes the elements can span are copied: no element is longer than
 * 9 bytes (a boolean: 1), so unpackFrom at the start of a large buffer
 * copies the array, not the rest of the buffer. A kernel error is a
 * FastmpError (errors.js kernelError()) quoting the input.
 */
export function unpack(b, kind, input, start, body, count, flags, at) {
  // The elements only (FM_ELEMENTS_ONLY): the caller read the header, and the
  // kernel is told where the elements begin and how many there are.
  const len = Math.min(input.length - body, count * (kind.c === 'bool' ? 1 : MAX_NUMBER_BYTES));
  if (at === OUTSIDE && len >= UNPACK_CHUNK.from) return unpackChunked(b, kind, input, start, body, count, body + len, flags);
  let base;
  let out;
  let source = input;
  if (inAllocation(at)) { // in place
    base = at + body;
    out = b.reserve(count * kind.bytes);
  } else {
    const inBytes = align16(len);
    const need = inBytes + count * kind.bytes;
    source = at === IN_OUTPUT ? input.slice(body, body + len) : readableAfterGrowth(Uint8Array, input, input.length, need > b.capacity);
    const from = at === IN_OUTPUT ? 0 : body;
    base = b.reserve(need);
    b.u8.set(from === 0 && len === source.length ? source : source.subarray(from, from + len), base);
    out = base + inBytes;
  }
  if (b.wasm[kind.unpack](base, len, out, count, flags | ELEMENTS_ONLY, b.result) !== 0) {
    // The error quotes the input; one in wasm memory is quoted from a copy.
    throw kernelError(kind, body, b.readResult(), at === OUTSIDE ? source : quoted(b, base, body, len));
  }
  const first = out / kind.bytes;
  return { value: copyOut(b.view(kind.Type), first, first + count), end: body + b.resultEnd() };
}

/**
 * unpack() of a long array from outside wasm memory, UNPACK_CHUNK.bytes of
 * its input at a time: each chunk copied in, decoded and copied out while it
 * is in the CPU's cache, where the whole input copied in, decoded and copied
 * out crosses main memory three times; and scratch holds a chunk, not the
 * input and its output (1 M floats: 512 KB, not 16 MB, which wasm memory
 * would keep). bench/unpack-stages.js times each stage. The kernel decodes a
 * chunk's elements with no header (FM_ELEMENTS_ONLY); a chunk ends anywhere,
 * and the element it cuts (TRUNCATED there) begins the next one. The input
 * ends at inputEnd: TRUNCATED in the last chunk is the input's own error.
 * `into`: a kind.Type of `count` elements to decode into, instead of a new one.
 */
export function unpackChunked(b, kind, input, start, body, count, inputEnd, flags, into = undefined) {
  const value = into ?? freshOutput(kind, count); // first: a refused output leaves scratch as it was
  const chunk = UNPACK_CHUNK.bytes;
  const most = Math.min(count, chunk); // every element takes at least a byte
  const base = b.reserve(align16(chunk) + most * kind.bytes);
  const outAt = base + align16(chunk);
  const elements = b.view(kind.Type);
  const first = outAt / kind.bytes;
  let pos = body;
  for (let i = 0; i < count;) {
    const avail = Math.min(chunk, inputEnd - pos);
    // (At least one element asked for: an input that has ended is then TRUNCATED.)
    const asked = Math.min(count - i, Math.max(avail, 1));
    b.u8.set(input.subarray(pos, pos + avail), base);
    let done = asked;
    let used;
    if (b.wasm[kind.unpack](base, avail, outAt, asked, flags | ELEMENTS_ONLY, b.result) === 0) {
      used = b.resultEnd();
    } else {
      const r = b.readResult();
      if (r.code !== 'TRUNCATED' || pos + avail === inputEnd) {
        throw kernelError(kind, start, { ...r, count, index: i + r.index, offset: pos - start + r.offset }, input);
      }
      done = r.index; // >= 1: a chunk holds more than the longest element
      used = r.offset;
    }
    value.set(elements.subarray(first, first + done), i);
    i += done;
    pos += used;
  }
  return { value, end: pos };
}

/** Bytes [0, start + len) with the input's bytes from `start` as copied to `base`. */
function quoted(b, base, start, len) {
  const bytes = new Uint8Array(start + len);
  bytes.set(b.u8.subarray(base, base + len), start);
  return bytes;
}
