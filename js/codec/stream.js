// stream.js - decoding from an async iterable of chunks (a Node stream, a web
// ReadableStream, an async generator), in time linear in the bytes whatever
// the chunking.
//
// A value that lies whole in a chunk is decoded from the chunk. A value the
// chunk cuts is copied, from its first byte, into a buffer the stream owns
// (the tail), and the chunks after it are added to the tail only until a
// scanner (js/codec/scan.js), which keeps its place between chunks, finds the
// value's end; the decoder then reads the value once. So no value is decoded
// again for every chunk that arrives, and no chunk is kept across the next
// pull: a source may refill one buffer for all its chunks. Values never hold a
// view of a chunk or of the tail (Decoder.forStream(): bins are copies).
//
// A chunk in wasm memory or in a SharedArrayBuffer is copied once, when it
// arrives (chunkOf()): its values are read after the consumer's loop body has
// run, which may overwrite wasm memory, and the decoder would otherwise copy
// the rest of the chunk again for every value in it.
//
// Errors count `offset` from the first byte of the value at fault, and
// `streamOffset` says where that value starts in the stream.

import { bufferOf, byteOffsetOf, copyInto, lengthOf, usableLength } from '../args.js';
import { FastmpError } from '../errors.js';
import { describeTag } from '../tags.js';
import { Decoder } from './decoder.js';
import { decodeFrom, readable } from './decoder-inputs.js';
import { decodesCallerCode } from './ext.js';
import { inputError, show, textHint, withPath } from './path.js';
import { LIMIT, MORE, ValueScanner } from './scan.js';

const EMPTY = new Uint8Array(0);
/** Bytes of a chunk added to the tail at a time beyond those the scanner knows the value needs. */
const STEP = 4096;
/**
 * A value that starts fewer bytes than this before its chunk's end is scanned
 * before it is read: a try that the chunk cuts throws (a FastmpError made,
 * its stack captured), which costs more than scanning these bytes.
 */
const SCAN_BELOW = 256;
/** The most nils refuseNeverUsed() adds beyond the tail's own length. */
const PAD_AT_MOST = 1 << 16;
/**
 * The most bytes the tail keeps when no value that needed more has been cut
 * lately: a larger tail is let go of when a value read from it used under a
 * quarter of it, or after TAIL_IDLE_PULLS chunks that began with no value
 * cut, so that one large value early in a long-lived stream does not hold its
 * size for the stream's life, while large values cut one after another
 * reuse it.
 */
const TAIL_KEPT = 1 << 20;
const TAIL_IDLE_PULLS = 4;

/** An AsyncIterable of a web ReadableStream (for engines whose streams are not iterable yet). */
function asAsyncIterable(source) {
  if (source != null && typeof source[Symbol.asyncIterator] === 'function') return source;
  if (source != null && typeof source.getReader === 'function') return readerIterable(source);
  throw new TypeError(`fastmp: expected an async iterable or a ReadableStream of bytes, not ${show(source)}`);
}

async function* readerIterable(stream) {
  const reader = stream.getReader();
  let atYield = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      atYield = true;
      yield value;
      atYield = false;
    }
  } finally {
    // Left at a yield (the decoder's return(): it stopped early, or failed):
    // cancel the stream, as a stream's own async iterator does (the lock
    // released whatever cancel() does).
    try {
      if (atYield) await reader.cancel();
    } finally {
      reader.releaseLock();
    }
  }
}

/**
 * Whether reading a value may run the caller's code (an extension's decoder,
 * mapKeyConverter, a keyDecoder of its own): a value is then read only once
 * the scanner has found its end, so that no such call is made for a first
 * try that a chunk's end cuts short, and made again for the value whole.
 */
const runsCallerCode = (decoder) => decoder.mapKeyConverter != null || decoder.config.keyDecoder != null
  || decodesCallerCode(decoder.extensionCodec);

/** DETACHED: the chunk a value lies in was detached or shrunk (by the consumer's loop body) before that value was read (located() says where it starts). */
const detachedChunk = () => new FastmpError('DETACHED', 'fastmp: the stream\'s chunk was detached or shrunk by the loop\'s body before this value was read', -1, 0);

/** A read that failed only because the input stops too early (not a nested call's error an extension threw: fromCallerCode()). */
const isIncomplete = (err) => err instanceof FastmpError && (err.code === 'TRUNCATED' || err.code === 'LENGTH') && err.needed !== undefined;

/**
 * An iterator result of the source's next(), checked as for await checks it
 * (a TypeError when it is no object). Its callers count the source done while
 * they await next() and set it from the result: a source whose next()
 * rejected, or answered no result, is left done, and close() calls no
 * return() of it, as a for-await loop leaves an iterator that failed.
 */
const resultOf = (result) => {
  if (result === null || (typeof result !== 'object' && typeof result !== 'function')) throw new TypeError(`fastmp: the stream's source answered next() with ${show(result)}, not an iterator result`);
  return result;
};

/** A growable buffer of bytes the stream owns: the start of a value that a chunk cut. */
class Tail {
  constructor() {
    this.bytes = EMPTY;
    this.length = 0;
  }

  /** Adds bytes[from, to) at the end (the capacity doubles: each byte is copied O(1) times). */
  append(bytes, from, to) {
    const at = this.length;
    const need = at + to - from;
    if (need > this.bytes.length) {
      const grown = new Uint8Array(Math.max(need, 2 * this.bytes.length, 256));
      grown.set(this.bytes.subarray(0, at));
      this.bytes = grown;
    }
    const out = this.bytes;
    if (to - from <= 64) {
      for (let i = from; i < to; i++) out[at + i - from] = bytes[i]; // (a call to set() costs more)
    } else {
      copyInto(out, viewOf(bytes, from, to), at);
    }
    this.length = need;
  }
}

/**
 * A chunk as the stream reads it, by readable() (js/codec/decoder-inputs.js): a plain
 * Uint8Array view of the caller's bytes, not a copy (a source that refills
 * one buffer is read before its next pull), except that a chunk the decoder
 * reads from a copy (in wasm memory, in a SharedArrayBuffer:
 * Decoder mustCopy()) is copied, once, here. Every view viewOf() makes of
 * the chunk for the decoder is then of a plain buffer, which the decoder
 * reads in place: each byte is copied O(1) times, and a fastmp call in the
 * consumer's loop body, which may write over wasm memory, cannot change the
 * values still to come. (A stale packView() output or a freed alloc() array
 * is refused here: STALE, FREED.)
 */
const chunkOf = (value, decoder, fn) => {
  if (typeof value === 'string') throw new TypeError(`fastmp: ${fn}() reads a stream of bytes, and was given a chunk that is a string (a Node stream with setEncoding(), a TextDecoderStream): read the stream as bytes`);
  return readable(decoder, value, fn);
};

/** chunk[from, to) as a plain Uint8Array view (no species: a subclass's constructor is not asked). */
const viewOf = (chunk, from, to) => new Uint8Array(bufferOf(chunk), byteOffsetOf(chunk) + from, to - from);

/** How the header of decodeArrayStream()'s array is found: it ends after 1, 3 or 5 bytes. */
class HeaderScanner {
  next = 0; // (no payload to wait for)

  reset() {}

  scan(bytes, length) {
    const tag = bytes[0];
    const size = tag === 0xdc ? 3 : tag === 0xdd ? 5 : 1; // (not an array: readArrayHeader() says so)
    return length >= size ? size : MORE;
  }
}

/** The chunks of a stream, read a value at a time. */
class StreamReader {
  constructor(decoder, source, fn) {
    this.fn = fn; // the function called, named in its misuse errors
    this.decoder = decoder.forStream();
    this.chunks = asAsyncIterable(source)[Symbol.asyncIterator]();
    this.chunk = EMPTY; // the latest chunk, read from `at`; the source may reuse it after the next pull
    this.chunkLength = 0;
    this.at = 0;
    this.chunkStart = 0; // where the chunk starts in the stream
    this.tail = new Tail(); // the value the chunk cut, from its first byte
    this.tailStart = 0; // where that value starts in the stream
    this.tailIdle = 0; // chunks pulled since a value was last read from the tail
    this.first = -1; // the stream's first byte (for the hint of expectEnd())
    this.done = false;
    this.values = new ValueScanner(this.decoder);
    this.header = new HeaderScanner();
    this.readValue = (bytes) => decodeFrom(this.decoder, bytes, 0);
    this.scanFirst = runsCallerCode(this.decoder);
  }

  /** The next chunk (the current one is read to its end). False at the end of the stream. */
  async pull() {
    // (Between values: no byte of the tail is read again.)
    if (this.tail.bytes.length > TAIL_KEPT && ++this.tailIdle > TAIL_IDLE_PULLS) this.tail.bytes = EMPTY;
    while (!this.done) {
      this.done = true; // (until next() answers: see resultOf())
      const { done, value } = resultOf(await this.chunks.next());
      this.done = Boolean(done);
      if (!done && this.take(value)) return true;
    }
    return false;
  }

  /** A chunk from the source as the current one; false when it is empty. */
  take(value) {
    const chunk = chunkOf(value, this.decoder, this.fn);
    this.chunkStart += this.chunkLength;
    this.chunk = chunk;
    this.chunkLength = usableLength(chunk, this.fn); // (a detached chunk: DETACHED)
    this.at = 0;
    if (this.first < 0 && this.chunkLength > 0) this.first = chunk[0];
    return this.chunkLength > 0;
  }

  /**
   * The next value, by `read(bytes)` -> { value, end } of a value at bytes[0]
   * and `scanner`, which finds where such a value ends: { value }, or
   * undefined at the stream's end before any byte of it.
   */
  async next(read, scanner) {
    while (this.at === this.chunkLength) {
      if (!(await this.pull())) return undefined;
    }
    const start = this.at;
    // (The consumer's loop body ran since the chunk's last value: it may have detached or shrunk the chunk.)
    if (start > 0 && lengthOf(this.chunk) < this.chunkLength) throw this.located(detachedChunk(), this.chunkStart + start);
    // (A view from the value's start: errors count from it.)
    const bytes = viewOf(this.chunk, start, this.chunkLength);
    let cut = false; // (the scanner found the chunk's end inside the value: its place is kept for the tail, which starts at the same byte)
    if (this.scanFirst || bytes.length < SCAN_BELOW) {
      scanner.reset();
      cut = scanner.scan(bytes, bytes.length) === MORE;
    }
    if (!cut) {
      try {
        this.decoder.streamAt = this.chunkStart + start;
        const { value, end } = read(bytes);
        this.at = start + end;
        return { value };
      } catch (err) {
        if (!isIncomplete(err)) throw this.located(err, this.chunkStart + start);
      }
      scanner.reset();
    }
    // The chunk ends inside the value: from here on it is read from the tail.
    this.tailStart = this.chunkStart + start;
    this.tail.length = 0;
    this.tail.append(this.chunk, start, this.chunkLength);
    this.at = this.chunkLength;
    return this.finish(read, scanner);
  }

  /** The value begun in the tail: chunks added until the scanner finds its end, then read once. */
  async finish(read, scanner) {
    const tail = this.tail;
    let end = scanner.scan(tail.bytes, tail.length);
    let recheck = Infinity; // the tail length at which the decoder reads it again (after a LIMIT it let through)
    for (;;) {
      if (end >= 0) {
        // Bytes after the end came from the current chunk, which reads on from them.
        this.at -= tail.length - end;
        tail.length = end;
        return this.readTail(read);
      }
      if (end === LIMIT) {
        // A header the options refuse: the decoder reports it, unless it first
        // needs bytes still to come (the header is then in a shaped field, say).
        // (Its value may then end in the tail, before bytes the feed added.)
        try {
          return this.readTail(read);
        } catch (err) {
          if (!isIncomplete(err)) throw err;
          this.refuseNeverUsed(read, scanner);
          // Once a value the scanner checks no more (each check reads the tail
          // again); the decoder then reads the tail each time it has doubled,
          // so that what the options refuse further on is still refused
          // before more than twice the bytes up to it are held.
          scanner.checking = false;
          recheck = 2 * tail.length;
        }
        end = scanner.scan(tail.bytes, tail.length);
        if (end === MORE) end = this.feed(scanner);
        continue;
      }
      if (tail.length >= recheck) {
        recheck = 2 * tail.length;
        try {
          return this.readTail(read); // (the scanner says the value goes on: the decoder refuses it, or waits too)
        } catch (err) {
          if (!isIncomplete(err)) throw err;
        }
      }
      // MORE, the chunk used up. (The source is awaited here, not in pull(): an
      // async call less per chunk, the most a stream of small chunks pays.)
      this.done = true; // (until next() answers: see resultOf())
      const { done, value } = resultOf(await this.chunks.next());
      this.done = Boolean(done);
      if (done) return this.readTail(read); // the stream ends inside the value: the decoder's TRUNCATED or LENGTH
      this.take(value);
      end = this.feed(scanner);
    }
  }

  /**
   * Adds bytes of the current chunk to the tail while the scanner needs more
   * (each time what it knows the value spans, a payload's length, and STEP
   * bytes more), and scans them. Returns the scanner's answer: an end, MORE
   * with the chunk used up, or LIMIT.
   */
  feed(scanner) {
    const { tail, chunk, chunkLength } = this;
    let end = MORE;
    while (end === MORE && this.at < chunkLength) {
      const to = Math.min(chunkLength, this.at + Math.max(scanner.next - tail.length, 0) + STEP);
      tail.append(chunk, this.at, to);
      this.at = to;
      end = scanner.scan(tail.bytes, tail.length);
    }
    return end;
  }

  /**
   * A LIMIT at a 0xc1 is refused whatever bytes follow, but the decoder first
   * holds each open array's and map's count to the bytes left, and waits for
   * them (LENGTH): an open stream would wait for bytes that cannot make the
   * value valid. The tail up to the 0xc1, then one nil (0xc0) for every item
   * still to come, lets the decoder read up to it and report it, with its
   * path. (A count too large to pad is left to wait: the limits bound it.)
   */
  refuseNeverUsed(read, scanner) {
    const at = scanner.next;
    const tail = this.tail;
    if (at >= tail.length || tail.bytes[at] !== 0xc1) return;
    const items = scanner.itemsLeft();
    if (items > tail.length + PAD_AT_MOST) return;
    const padded = new Uint8Array(at + 1 + items).fill(0xc0);
    padded.set(tail.bytes.subarray(0, at + 1));
    try {
      read(padded);
    } catch (err) {
      if (!isIncomplete(err)) throw this.located(err, this.tailStart);
    }
  }

  /** read() of the tail: { value } when it holds the value whole. */
  readTail(read) {
    const tail = this.tail;
    this.decoder.streamAt = this.tailStart;
    try {
      const { value, end } = read(tail.bytes.subarray(0, tail.length));
      // (Past a LIMIT the decoder let through, the feed may have added bytes
      // after the value, all of the current chunk: it reads on from them.)
      this.at -= tail.length - end;
      tail.length = end;
      // (Its value read, no byte of the tail is read again.)
      this.tailIdle = 0;
      if (tail.bytes.length > TAIL_KEPT && end < tail.bytes.length >>> 2) tail.bytes = EMPTY;
      return { value };
    } catch (err) {
      throw this.located(err, this.tailStart);
    }
  }

  /** An error of the value that starts at stream byte `start`, saying where that is (a frozen one of the caller's code passes untouched, as withPath() lets it). */
  located(err, start) {
    if (err instanceof FastmpError && err.streamOffset === undefined && Object.isExtensible(err)) {
      err.streamOffset = start;
      err.message += ` (the value at byte ${start} of the stream)`;
    }
    return withPath(err, true);
  }

  /** Throws TRAILING when any byte is left. */
  async expectEnd(what) {
    while (this.at === this.chunkLength) {
      if (!(await this.pull())) return;
    }
    const start = this.chunkStart + this.at;
    // (After a one-byte first value, bytes that look like text are named as such.)
    const hint = start === 1 ? textHint(Uint8Array.of(this.first, ...viewOf(this.chunk, this.at, Math.min(this.chunkLength, this.at + 47)))) : '';
    const err = inputError('TRAILING', `extra bytes found after ${what} in the stream, from its byte ${start}${hint}`, 0);
    err.streamOffset = start;
    throw withPath(err, true);
  }

  /**
   * Lets the source go (a generator's finally runs, a stream's reader is
   * released). After an error (`failed`), as a for-await loop closes its
   * iterator: an error of the source's return() does not replace it.
   */
  async close(failed) {
    if (this.done) return;
    this.done = true;
    try {
      await this.chunks.return?.();
    } catch (err) {
      if (!failed) throw err; // (else the error that ends the stream is the one reported)
    }
  }
}

/**
 * The values of a stream, each as it completes: `count` of them (Infinity:
 * until the stream ends) after an array header when `array`; with a finite
 * count, bytes after the last are TRAILING.
 */
async function* valuesOf(decoder, source, count, array, fn) {
  const reader = new StreamReader(decoder, source, fn);
  let failed = false;
  try {
    if (array) {
      const header = await reader.next((bytes) => readArrayHeader(bytes, reader.decoder), reader.header);
      if (header === undefined) throw reader.located(inputError('TRUNCATED', 'insufficient data: the stream ended before an array', 0, { needed: 1 }), reader.chunkStart + reader.at);
      count = header.value;
      reader.decoder.readElements(); // (its elements are one level deep: maxDepth counts from the array)
      reader.values.readElements();
    }
    for (let i = 0; i < count; i++) {
      reader.decoder.element = i;
      const got = await reader.next(reader.readValue, reader.values);
      if (got === undefined) {
        if (count === Infinity) return;
        throw reader.located(inputError('TRUNCATED', `insufficient data: the stream ended before value ${i + 1} of ${count}`, 0, { needed: 1 }), reader.chunkStart + reader.at);
      }
      yield got.value;
    }
    await reader.expectEnd(array ? 'the array' : 'the value');
  } catch (err) {
    failed = true;
    throw err;
  } finally {
    await reader.close(failed);
  }
}

/**
 * One value from a stream of chunks (bytes after it: TRAILING).
 * @param {import('./decoder.js').Decoder} decoder
 * @param {AsyncIterable<Uint8Array|ArrayBufferLike|ArrayLike<number>>|ReadableStream} source
 */
export async function decodeAsync(decoder, source) {
  let value;
  for await (value of valuesOf(decoder, source, 1, false, 'decodeAsync'));
  return value;
}

/**
 * Every value in a stream of chunks, as it completes.
 * @param {import('./decoder.js').Decoder} decoder
 * @param {AsyncIterable<Uint8Array|ArrayBufferLike|ArrayLike<number>>|ReadableStream} source
 */
export const decodeMultiStream = (decoder, source) => valuesOf(decoder, source, Infinity, false, 'decodeMultiStream');

/**
 * The elements of one msgpack array in a stream of chunks, each as it
 * completes (a shape applies to each element).
 * @param {import('./decoder.js').Decoder} decoder
 * @param {AsyncIterable<Uint8Array|ArrayBufferLike|ArrayLike<number>>|ReadableStream} source
 */
export const decodeArrayStream = (decoder, source) => valuesOf(decoder, source, 0, true, 'decodeArrayStream');

/**
 * The three as an API's functions over `port` (the module API's default
 * instance, an instance's core, the pure-JS port): a new Decoder of `options`
 * for each stream. decodeAsyncOn() is async, so that bad options reject as the
 * stream's errors do.
 */
export const decodeAsyncOn = async (port, source, options) => decodeAsync(new Decoder(options, port), source);
export const decodeMultiStreamOn = (port, source, options) => decodeMultiStream(new Decoder(options, port), source);
export const decodeArrayStreamOn = (port, source, options) => decodeArrayStream(new Decoder(options, port), source);

/**
 * The element count of the array header at bytes[0] (its elements may not be
 * here yet) -> { value, end }. What the decoder's options refuse of the array
 * (maxArrayLength, maxDepth) is refused at once, before any element, with the
 * error decode() gives.
 */
function readArrayHeader(bytes, decoder) {
  const tag = bytes[0];
  if (tag >= 0x90 && tag <= 0x9f) return checkedHeader(tag & 0x0f, 1, decoder);
  const size = tag === 0xdc ? 3 : tag === 0xdd ? 5 : 0;
  if (size === 0) throw inputError('TYPE', `unrecognized array type byte: decodeArrayStream() expects an array, found ${describeTag(tag)}`, 0);
  if (bytes.length < size) throw inputError('TRUNCATED', 'insufficient data: the stream ends inside the array header', 0, { needed: size });
  const view = new DataView(bytes.buffer, bytes.byteOffset + 1, size - 1);
  return checkedHeader(size === 3 ? view.getUint16(0) : view.getUint32(0), size, decoder);
}

/** readArrayHeader()'s { value: n, end } once the decoder's options allow an array of n elements (maxArrayLength, maxDepth). */
function checkedHeader(n, end, decoder) {
  try {
    if (decoder.maxDepth < 1) throw decoder.tooDeep(0, 0); // (the array is depth 1, as decode()'s readTop() counts it, even when empty)
    decoder.checkArrayLimits(n, 0, 1);
  } catch (err) {
    throw withPath(err, true);
  }
  return { value: n, end };
}
