// Stream chunks the decoder must take as they arrive: a chunk in wasm memory
// (a packView() output, an alloc() array) or in a SharedArrayBuffer is copied
// once, when it arrives, so that a fastmp call in the consumer's loop body
// cannot change the values still to come, and so that reading its values
// copies each of its bytes O(1) times (not the rest of the chunk per value).
// And decodeArrayStream() applies maxArrayLength to the array it streams, as
// decode() applies it.

import { describe, expect, test } from 'vitest';
import {
  Decoder, FastmpError, alloc, decode, decodeArrayStream, decodeAsync, decodeMultiStream, encode, free, init, packView,
} from '../js/index.js';

await init(); // (before the values below are encoded)

/** An async source of the given chunks, in order. */
async function* sourceOf(...chunks) {
  for (const chunk of chunks) yield chunk;
}

async function* chunksOf(bytes, size) {
  for (let at = 0; at < bytes.length; at += size) yield bytes.slice(at, at + size);
}

async function collect(iterable) {
  const out = [];
  for await (const v of iterable) out.push(v);
  return out;
}

const TypedArrayPrototype = Object.getPrototypeOf(Uint8Array.prototype);

/**
 * fn()'s result and the bytes that typed arrays' slice() copied while it ran:
 * slice() is how the decoder's asInput() copies an input in wasm memory or a
 * SharedArrayBuffer. (Values without bins: the stream copies no other way.)
 */
async function slicedBytes(fn) {
  const slice = TypedArrayPrototype.slice;
  let bytes = 0;
  TypedArrayPrototype.slice = function (...args) {
    const out = slice.apply(this, args);
    bytes += out.byteLength;
    return out;
  };
  try {
    return { value: await fn(), bytes };
  } finally {
    TypedArrayPrototype.slice = slice;
  }
}

// n small values ({ v: 0..127 }, 4 bytes each) one after another.
const N = 2000;
const values = Array.from({ length: N }, (_, i) => ({ v: i & 0x7f }));
const wire = Uint8Array.from(values.flatMap((v) => [...encode(v)]));

/** `wire` in a SharedArrayBuffer. */
function sharedCopy(bytes) {
  const shared = new Uint8Array(new SharedArrayBuffer(bytes.length));
  shared.set(bytes);
  return shared;
}

describe('a chunk in wasm memory is read as it was when it arrived', () => {
  test('a packView() output overwritten by a packView() call in the loop body', async () => {
    const got = [];
    for await (const x of decodeArrayStream(sourceOf(packView(Int8Array.of(1, 2, 3))))) { // 93 01 02 03
      got.push(x);
      packView(Int8Array.of(50, 60, 70)); // same size: the same scratch bytes
    }
    expect(got).toEqual([1, 2, 3]);

    const many = [];
    const fixints = packView(new Uint8Array([1, 2, 3, 4]), { bin: false }).subarray(1); // 01 02 03 04: four values
    for await (const x of decodeMultiStream(sourceOf(fixints))) {
      many.push(x);
      packView(new Uint8Array([0, 99, 98, 97]), { bin: false });
    }
    expect(many).toEqual([1, 2, 3, 4]);
  });

  test('a packView() output that a later call overwrote before it arrived: STALE, not the new bytes', async () => {
    const stale = packView(Int8Array.of(1, 2, 3));
    packView(Int8Array.of(4, 5, 6)); // same size, same place
    const err = await collect(decodeArrayStream(sourceOf(stale))).then(() => null, (e) => e);
    expect(err).toBeInstanceOf(FastmpError);
    expect(err.code).toBe('STALE');
  });

  test('an alloc() chunk written over in the loop body', async () => {
    const chunk = alloc(Uint8Array, wire.length);
    try {
      chunk.set(wire);
      const got = [];
      for await (const x of decodeMultiStream(sourceOf(chunk))) {
        if (got.push(x) === 1) chunk.fill(0xc0); // nil from here on, were the chunk read again
      }
      expect(got).toEqual(values);
    } finally {
      free(chunk);
    }
  });
});

describe('a chunk in a SharedArrayBuffer or wasm memory is copied once (a plain one is not copied)', () => {
  test('SharedArrayBuffer: the right values, from one copy of the chunk', async () => {
    const chunk = sharedCopy(wire);
    const { value, bytes } = await slicedBytes(() => collect(decodeMultiStream(sourceOf(chunk))));
    expect(value).toEqual(values);
    // Copying the rest of the chunk for each value would be about N / 2 times the chunk.
    expect(bytes).toBeGreaterThanOrEqual(wire.length);
    expect(bytes).toBeLessThanOrEqual(2 * wire.length);

    // Written over (as another thread may) after the first value: the rest comes from the copy.
    const racing = sharedCopy(wire);
    const got = [];
    for await (const x of decodeMultiStream(sourceOf(racing))) {
      if (got.push(x) === 1) racing.fill(0xc0);
    }
    expect(got).toEqual(values);

    // A plain chunk is read in place, not copied.
    const plain = wire.slice();
    const inPlace = await slicedBytes(() => collect(decodeMultiStream(sourceOf(plain))));
    expect(inPlace.value).toEqual(values);
    expect(inPlace.bytes).toBe(0);
  });

  test('wasm memory (an alloc() array): the right values, from one copy of the chunk', async () => {
    const chunk = alloc(Uint8Array, wire.length);
    try {
      chunk.set(wire);
      const { value, bytes } = await slicedBytes(() => collect(decodeMultiStream(sourceOf(chunk))));
      expect(value).toEqual(values);
      expect(bytes).toBeGreaterThanOrEqual(wire.length);
      expect(bytes).toBeLessThanOrEqual(2 * wire.length);
    } finally {
      free(chunk);
    }
  });

  test('several such chunks, a value cut between two: each chunk copied once', async () => {
    const cut = wire.length / 2 + 1; // inside a value
    const chunks = [sharedCopy(wire.subarray(0, cut)), sharedCopy(wire.subarray(cut))];
    const { value, bytes } = await slicedBytes(() => collect(decodeMultiStream(sourceOf(...chunks))));
    expect(value).toEqual(values);
    expect(bytes).toBeLessThanOrEqual(2 * wire.length);
  });
});

describe('decodeArrayStream applies maxArrayLength to the array it streams', () => {
  /** The error a stream of `bytes` in chunks of `size` ends with, and the elements it yielded before it. */
  async function failure(stream) {
    let yielded = 0;
    try {
      for await (const _ of stream) yielded++; // eslint-disable-line no-unused-vars
    } catch (err) {
      return { err, yielded };
    }
    throw new Error(`expected an error, the stream yielded ${yielded} elements`);
  }

  /** The error decode() gives for bytes (to compare with). */
  function decodeError(bytes, options) {
    try {
      decode(bytes, options);
    } catch (err) {
      return err;
    }
    throw new Error('expected decode() to throw');
  }

  const cases = [
    ['a fixarray', 5],
    ['an array16', 1000],
    ['an array32', 70000],
  ];

  for (const [name, length] of cases) {
    test(`${name} of ${length}: refused beyond the limit before any element, as decode() refuses it; accepted at it`, async () => {
      const array = Array.from({ length }, (_, i) => i & 0x7f);
      const bytes = encode(array);
      const options = { maxArrayLength: length - 1 };
      const want = decodeError(bytes, options);
      expect(want.code).toBe('MAX_LENGTH');
      const asOneValue = await decodeAsync(sourceOf(bytes), options).then(() => null, (e) => e);
      for (const size of [bytes.length, 1, 2]) { // whole; the header cut (a byte at a time)
        for (const stream of [decodeArrayStream(chunksOf(bytes, size), options), new Decoder(options).decodeArrayStream(chunksOf(bytes, size))]) {
          const { err, yielded } = await failure(stream);
          expect(yielded, `chunks of ${size}`).toBe(0);
          expect(err).toBeInstanceOf(FastmpError);
          expect(err.constructor).toBe(want.constructor);
          expect([err.code, err.offset, err.path, err.streamOffset]).toEqual([want.code, want.offset, want.path, 0]);
          expect(err.message.startsWith(want.message), err.message).toBe(true);
          // decodeAsync() of the array as one value says the same.
          expect([err.code, err.offset, err.path, err.streamOffset, err.message])
            .toEqual([asOneValue.code, asOneValue.offset, asOneValue.path, asOneValue.streamOffset, asOneValue.message]);
        }
      }
      const atLimit = { maxArrayLength: length };
      expect(await collect(decodeArrayStream(chunksOf(bytes, 3), atLimit))).toEqual(array);
      expect(await collect(new Decoder(atLimit).decodeArrayStream(chunksOf(bytes, bytes.length)))).toEqual(array);
    });
  }
});

describe('decodeArrayStream counts maxDepth from the array it streams, as decode() does', () => {
  /** Whether decoding `stream` ends in an error, and its code. */
  const outcome = (promise) => promise.then(() => 'ok', (err) => err.code);

  test('every nesting and maxDepth: the same outcome as decode() of the whole array, whatever the chunking', async () => {
    const nested = (depth) => (depth === 0 ? 7 : [nested(depth - 1)]);
    for (let depth = 0; depth <= 4; depth++) {
      const bytes = encode([1, nested(depth), { a: nested(depth) }]);
      for (let maxDepth = 1; maxDepth <= 6; maxDepth++) {
        const want = await outcome(Promise.resolve().then(() => decode(bytes, { maxDepth })));
        for (const size of [bytes.length, 1]) { // whole (the decoder refuses); a byte at a time (the scanner stops first)
          const got = await outcome(collect(decodeArrayStream(chunksOf(bytes, size), { maxDepth })));
          expect(got, `elements nested ${depth} deep, maxDepth ${maxDepth}, chunks of ${size}`).toBe(want);
        }
      }
    }
  });

  test('an element nesting without end is refused at the level decode() refuses, before a byte more arrives', async () => {
    const whole = Uint8Array.from([...new Array(12).fill(0x91), 0x07]);
    const want = (() => {
      try {
        decode(whole, { maxDepth: 4 });
      } catch (err) {
        return err;
      }
      throw new Error('expected decode() to refuse it');
    })();
    expect(want.code).toBe('DEPTH');
    let pulled = 0;
    async function* endless() {
      for (;;) {
        pulled++;
        yield Uint8Array.of(0x91); // the array, then an element of arrays in arrays
      }
    }
    const err = await collect(decodeArrayStream(endless(), { maxDepth: 4 })).catch((e) => e);
    expect(err.code).toBe('DEPTH');
    expect(pulled).toBe(want.offset + 1); // the refused header is the last byte pulled
  });
});
