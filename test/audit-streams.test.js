// audit-streams.test.js - an audit of the stream decoders (decodeAsync,
// decodeMultiStream, decodeArrayStream and the Decoder methods), each test a
// finding that failed on 4f56312 (and the working tree of this audit): a
// header the scanner stops at (LIMIT) but the decoder lets through (a shaped
// typed field at maxDepth, a 0xc1 inside a shaped field the chunk cuts),
// after which a value the chunk goes on past was an "internal" TRAILING error
// and the options' limits no longer applied early; extension decoders and
// mapKeyConverter called twice for a value a chunk cuts; an error of the
// source's return() reported instead of the stream's own; and stream errors
// without the `path` every error carries.
import * as msgpack from '@msgpack/msgpack';
import { describe, expect, test } from 'vitest';
import * as codec from '../js/codec/index.js';
import * as entry from '../js/index.js';
import { FastmpError, decode, decodeArrayStream, decodeAsync, decodeMultiStream, encode, init } from '../js/index.js';
import { chunksOf, collect, rejection } from './messages-helpers.js';

await init();

const f32 = (x) => [0xca, ...new Uint8Array(Float32Array.of(x).buffer).reverse()];

describe('1: a value the decoder reads whole after a LIMIT it let through, with bytes after it in the tail', () => {
  // { v: [1.5, 2.5, 3.5] } with shape { v: Float32Array } and maxDepth 2: decode() takes it (a
  // typed field's numbers are no level of their own); the scanner stops at the array's header
  // (LIMIT), the decoder needs the rest, and once it has it the value ended before bytes the
  // feed had added to the tail: the second value's.
  const options = { shape: { v: Float32Array }, maxDepth: 2 };
  const one = Uint8Array.from([0x81, 0xa1, 0x76, 0x93, ...f32(1.5), ...f32(2.5), ...f32(3.5)]);
  const want = decode(one, options);

  test('decodeMultiStream: both values, at every cut', async () => {
    expect(want.v).toEqual(Float32Array.of(1.5, 2.5, 3.5));
    const two = Uint8Array.from([...one, ...one]);
    for (let cut = 1; cut < two.length; cut++) {
      expect(await collect(decodeMultiStream(chunksOf(two, [cut, two.length]), options)), `cut ${cut}`).toEqual([want, want]);
    }
  });

  test('decodeArrayStream (maxDepth one more): both elements, at every cut', async () => {
    const array = Uint8Array.from([0x92, ...one, ...one]);
    const arrayOptions = { shape: options.shape, maxDepth: 3 };
    expect(decode(array, { shape: [options.shape], maxDepth: 3 })).toEqual([want, want]);
    for (let cut = 1; cut < array.length; cut++) {
      expect(await collect(decodeArrayStream(chunksOf(array, [cut, array.length]), arrayOptions)), `cut ${cut}`).toEqual([want, want]);
    }
  });
});

describe('2: limits apply early after a header the decoder let through', () => {
  // After such a LIMIT the scanner checked nothing more in that value: a str32 further on that
  // claims 1e9 bytes, beyond maxStrLength, was waited for byte by byte (all of it held), where
  // decode() refuses it on sight and the docs say "before the bytes it claims arrive".
  const str32 = [0xdb, 0x3b, 0x9a, 0xca, 0x00]; // a str of 1e9 bytes
  const cases = [
    ['a shaped field at maxDepth', { shape: { v: Float32Array }, maxDepth: 2, maxStrLength: 100 },
      [0x82, 0xa1, 0x76, 0x93, ...f32(1.5), ...f32(2.5), ...f32(3.5), 0xa1, 0x77, ...str32]],
    ['0xc1 in a shaped field', { shape: { v: Float32Array }, maxStrLength: 100 },
      [0x82, 0xa1, 0x76, 0x93, 0xc1, 0xa1, 0x77, ...str32]],
  ];

  test.each(cases)('%s, the header cut from what follows', async (_, options, prefix) => {
    let sent = 0;
    async function* source() {
      for (const b of prefix) { // a byte at a time: each header is cut
        sent++;
        yield Uint8Array.of(b);
      }
      const filler = new Uint8Array(4096).fill(0x61);
      for (let i = 0; i < 4096; i++) { // up to 16 MB of the str's bytes
        sent += filler.length;
        yield filler;
      }
    }
    expect(() => decode(Uint8Array.from(prefix), options)).toThrow(/beyond maxStrLength|not a number/);
    const err = await rejection(decodeAsync(source(), options));
    expect(err).toBeInstanceOf(FastmpError);
    expect(['MAX_LENGTH', 'TYPE']).toContain(err.code);
    expect(sent).toBeLessThan(1 << 16);
  });
});

describe('3: extension decoders and mapKeyConverter run once a value, whatever the chunking (as @msgpack/msgpack)', () => {
  // The first try at a value, on the chunk, ran them for the part of the value the chunk held,
  // and the read of the whole value from the tail ran them again.
  const ext = (v) => [0xd4, 5, v];
  const bytes = Uint8Array.from([0x93, ...ext(1), ...ext(2), ...msgpack.encode({ a: 1, b: 'x'.repeat(300) })]);

  const count = async (lib, ExtensionCodec, sizes) => {
    let calls = 0;
    const extensionCodec = new ExtensionCodec();
    extensionCodec.register({ type: 5, encode: () => null, decode: (data) => { calls++; return data[0]; } });
    const mapKeyConverter = (key) => { calls++; return key; };
    const value = await lib.decodeAsync(chunksOf(bytes, sizes), { extensionCodec, mapKeyConverter });
    return { value, calls };
  };

  test.each([['fastmp-wasm', entry], ['pure-JS codec', codec]])('%s: at every cut', async (_, lib) => {
    const want = await count(msgpack, msgpack.ExtensionCodec, [bytes.length]);
    expect(want.calls).toBe(4);
    for (let cut = 1; cut < bytes.length; cut++) {
      const got = await count(lib, lib.ExtensionCodec, [cut, bytes.length]);
      expect(got, `cut ${cut}`).toEqual(want);
    }
  });
});

describe("4: an error of the source's return() does not replace the stream's error (as for await does)", () => {
  test('a web ReadableStream whose cancel() throws: the DecodeError of its bad byte', async () => {
    const stream = () => new ReadableStream({
      start(controller) { controller.enqueue(Uint8Array.of(0xc1)); },
      cancel() { throw new Error('cancel failed'); },
    });
    const theirs = await rejection(msgpack.decodeAsync(stream()));
    expect(theirs).toBeInstanceOf(msgpack.DecodeError);
    const ours = await rejection(decodeAsync(stream()));
    expect(ours).toBeInstanceOf(entry.DecodeError);
    expect(ours.code).toBe('TAG');
  });

  test('an iterator whose return() rejects: TRAILING, and the source\'s own error', async () => {
    const source = (chunks) => ({
      [Symbol.asyncIterator]() {
        let i = 0;
        return {
          next: () => (i < chunks.length ? Promise.resolve({ done: false, value: chunks[i++] })
            : i++ === chunks.length ? Promise.reject(new Error('source failed')) : Promise.resolve({ done: true })),
          return: () => Promise.reject(new Error('return failed')),
        };
      },
    });
    expect(await rejection(decodeAsync(source([encode(1), encode(2)])))).toMatchObject({ code: 'TRAILING' });
    expect((await rejection(decodeAsync(source([encode('abc').subarray(0, 2)])))).message).toBe('source failed');
    expect((await rejection(collect(decodeMultiStream(source([encode(1)]))))).message).toBe('source failed');
  });
});

describe('5: stream errors carry a path, as every decoder error does', () => {
  // The errors the stream itself raised (bytes after the value, the stream ending before a value
  // or inside decodeArrayStream's header, a header that is no array) had no `path`, where
  // decode()'s errors for the same bytes have '$'.
  const cases = [
    ['bytes after the value', () => decodeAsync(chunksOf(Uint8Array.of(1, 2), [1])), Uint8Array.of(1, 2)],
    ['bytes after the array', () => collect(decodeArrayStream(chunksOf(Uint8Array.of(0x91, 1, 2), [1]))), Uint8Array.of(0x91, 1, 2)],
    ['an empty stream', () => decodeAsync(chunksOf(new Uint8Array(0), [1])), new Uint8Array(0)],
    ['an empty stream, decodeArrayStream', () => collect(decodeArrayStream(chunksOf(new Uint8Array(0), [1]))), new Uint8Array(0)],
    ['an array cut short', () => collect(decodeArrayStream(chunksOf(Uint8Array.of(0x93, 1), [1]))), Uint8Array.of(0x93, 1)],
    ['a cut array16 header', () => collect(decodeArrayStream(chunksOf(Uint8Array.of(0xdc, 0), [1]))), Uint8Array.of(0xdc, 0)],
    ['no array', () => collect(decodeArrayStream(chunksOf(Uint8Array.of(0xc0), [1]))), null],
  ];

  test.each(cases)('%s', async (_, run, bytes) => {
    const err = await rejection(run());
    expect(err).toBeInstanceOf(FastmpError);
    if (bytes !== null) expect(err.code).toBe(decodeErrorOf(bytes).code === 'LENGTH' ? 'TRUNCATED' : decodeErrorOf(bytes).code);
    expect(err.path).toBe('$');
    expect(err.streamOffset).toEqual(expect.any(Number));
  });
});

function decodeErrorOf(bytes) {
  try {
    decode(bytes);
  } catch (err) {
    return err;
  }
  throw new Error('expected decode() to throw');
}
