// stream.js - decoding from an async iterable of chunks (a Node stream, a web
// ReadableStream, an async generator). Chunks are collected until a value can
// be complete; the value is then read by the ordinary decoder. A value still
// cut short is read again from its start once enough bytes have arrived for
// what the failed read asked for (err.needed), so a value that arrives in k
// chunks is read at most k times, usually far fewer. Buffers handed out are
// never written again: bins and raw strings may be views of them.

import { FastmpError } from '../errors.js';
import { asInput } from './options.js';
import { codecError, show } from './path.js';

const EMPTY = new Uint8Array(0);

/** An AsyncIterable of a web ReadableStream (for engines whose streams are not iterable yet). */
function asAsyncIterable(source) {
  if (source != null && typeof source[Symbol.asyncIterator] === 'function') return source;
  if (source != null && typeof source.getReader === 'function') return readerIterable(source);
  throw new TypeError(`fastmp: expected an async iterable or a ReadableStream of bytes, not ${show(source)}`);
}

async function* readerIterable(stream) {
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    reader.releaseLock();
  }
}

/** A read that failed only because the input stops too early. */
const isIncomplete = (err) => err instanceof FastmpError && (err.code === 'TRUNCATED' || err.code === 'LENGTH');

/**
 * The unread bytes of a stream: `bytes` from `pos`, and chunks not yet
 * joined to them (joined only when a read could succeed).
 */
class Pending {
  /** `port`: the decoder's (a chunk in wasm memory is taken as a copy: a later call may overwrite it). */
  constructor(source, port) {
    this.chunks = asAsyncIterable(source)[Symbol.asyncIterator]();
    this.port = port;
    this.bytes = EMPTY;
    this.pos = 0;
    this.queue = [];
    this.queued = 0;
    this.needed = 1; // bytes from pos a read needs before it is worth trying
    this.done = false;
  }

  get left() {
    return this.bytes.length - this.pos + this.queued;
  }

  /** Waits for chunks until `needed` bytes are unread or the stream ends; false when nothing is left. */
  async fill() {
    while (!this.done && this.left < this.needed) {
      const { done, value } = await this.chunks.next();
      if (done) {
        this.done = true;
      } else {
        const chunk = asInput(value, this.port);
        this.queue.push(chunk);
        this.queued += chunk.length;
      }
    }
    this.join();
    return this.pos < this.bytes.length;
  }

  /** One buffer of every unread byte (a new one: buffers read before are never written again). */
  join() {
    if (this.queue.length === 0) return;
    const rest = this.bytes.subarray(this.pos);
    let joined;
    if (rest.length === 0 && this.queue.length === 1) {
      joined = this.queue[0];
    } else {
      joined = new Uint8Array(rest.length + this.queued);
      joined.set(rest);
      let at = rest.length;
      for (const chunk of this.queue) {
        joined.set(chunk, at);
        at += chunk.length;
      }
    }
    this.bytes = joined;
    this.pos = 0;
    this.queue = [];
    this.queued = 0;
  }

  /** `read(bytes, pos)` -> { value, end } once enough bytes are here; undefined at the stream's clean end. */
  async next(read) {
    this.needed = 1;
    for (;;) {
      if (!(await this.fill())) return undefined;
      try {
        const { value, end } = read(this.bytes, this.pos);
        this.pos = end;
        return { value };
      } catch (err) {
        if (this.done || !isIncomplete(err)) throw err;
        this.needed = Math.max((err.needed ?? this.bytes.length + 1) - this.pos, this.bytes.length - this.pos + 1);
      }
    }
  }

  /** Lets the source go (a generator's finally runs, a stream's reader is released). */
  async close() {
    if (!this.done) {
      this.done = true;
      await this.chunks.return?.();
    }
  }

  /** Throws TRAILING when any byte is left after the last value. */
  async expectEnd(what) {
    this.needed = 1;
    if (await this.fill()) {
      throw codecError('TRAILING', `bytes follow ${what} in the stream`, this.pos);
    }
  }
}

/**
 * The values of a stream, each as it completes: `count` of them (Infinity:
 * until the stream ends) after an array header when `array`; with a finite
 * count, bytes after the last are TRAILING.
 */
async function* valuesOf(decoder, source, count, array) {
  const pending = new Pending(source, decoder.port);
  const read = (bytes, pos) => decoder.decodeFrom(bytes, pos);
  try {
    if (array) {
      const header = await pending.next(readArrayHeader);
      if (header === undefined) throw codecError('TRUNCATED', 'the stream ended before an array', 0, { needed: 1 });
      count = header.value;
    }
    for (let i = 0; i < count; i++) {
      const got = await pending.next(read);
      if (got === undefined) {
        if (count === Infinity) return;
        throw codecError('TRUNCATED', `the stream ended before value ${i + 1} of ${count}`, pending.pos, { needed: pending.pos + 1 });
      }
      yield got.value;
    }
    await pending.expectEnd(array ? 'the array' : 'the value');
  } finally {
    await pending.close();
  }
}

/**
 * One value from a stream of chunks (bytes after it: TRAILING).
 * @param {import('./decoder.js').Decoder} decoder
 * @param {AsyncIterable<Uint8Array|ArrayBufferLike|ArrayLike<number>>|ReadableStream} source
 */
export async function decodeAsync(decoder, source) {
  let value;
  for await (value of valuesOf(decoder, source, 1, false));
  return value;
}

/**
 * Every value in a stream of chunks, as it completes.
 * @param {import('./decoder.js').Decoder} decoder
 * @param {AsyncIterable<Uint8Array|ArrayBufferLike|ArrayLike<number>>|ReadableStream} source
 */
export const decodeMultiStream = (decoder, source) => valuesOf(decoder, source, Infinity, false);

/**
 * The elements of one msgpack array in a stream of chunks, each as it
 * completes (a shape applies to each element).
 * @param {import('./decoder.js').Decoder} decoder
 * @param {AsyncIterable<Uint8Array|ArrayBufferLike|ArrayLike<number>>|ReadableStream} source
 */
export const decodeArrayStream = (decoder, source) => valuesOf(decoder, source, 0, true);

/** The element count of the array header at bytes[pos] (its elements may not be here yet). */
function readArrayHeader(bytes, pos) {
  const tag = bytes[pos];
  if (tag >= 0x90 && tag <= 0x9f) return { value: tag & 0x0f, end: pos + 1 };
  const size = tag === 0xdc ? 3 : tag === 0xdd ? 5 : 0;
  if (size === 0) throw codecError('TYPE', `decodeArrayStream() expects an array, found byte 0x${tag.toString(16)}`, pos);
  if (bytes.length - pos < size) {
    throw codecError('TRUNCATED', `the stream ends inside the array header at byte ${pos}`, pos, { needed: pos + size });
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset + pos + 1, size - 1);
  return { value: size === 3 ? view.getUint16(0) : view.getUint32(0), end: pos + size };
}
