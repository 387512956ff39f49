// Streams: decodeAsync, decodeMultiStream and decodeArrayStream over async
// iterables of chunks (async generators, Node streams, web ReadableStreams),
// split at every byte, against @msgpack/msgpack's own stream functions.

import { Readable } from 'node:stream';
import * as msgpack from '@msgpack/msgpack';
import { describe, expect, test } from 'vitest';
import { FastmpError } from '../js/errors.js';
import { Decoder, decodeArrayStream, decodeAsync, decodeMultiStream, encode } from '../js/codec/index.js';
import * as entry from '../js/index.js';
import * as inlineEntry from '../js/inline.js';
import { rng } from './helpers.js';
import { chunksOf, collect, difference, rejection } from './messages-helpers.js';

const message = {
  id: 7, name: 'x'.repeat(300), list: [1, -2, 3.5, null, true], bin: Uint8Array.from([1, 2, 3]),
  when: new Date(1556636810389), nested: { a: { b: ['é€😀'] } },
};
const bytes = msgpack.encode(message);

describe('decodeAsync', () => {
  test('split at every byte, and byte by byte: the value @msgpack/msgpack decodes', async () => {
    const want = await msgpack.decodeAsync(chunksOf(bytes, [bytes.length]));
    for (let cut = 0; cut <= bytes.length; cut++) {
      const got = await decodeAsync(chunksOf(bytes, [cut || 1, bytes.length]));
      expect(difference(got, want), `cut ${cut}`).toBe('');
    }
    expect(difference(await decodeAsync(chunksOf(bytes, [1])), want)).toBe('');
  });

  test('web ReadableStream, Node Readable, ArrayBuffer and byte-array chunks', async () => {
    const web = new ReadableStream({
      start(controller) {
        controller.enqueue(bytes.subarray(0, 10));
        controller.enqueue(bytes.slice(10).buffer);
        controller.close();
      },
    });
    const noIterator = { getReader: () => web.getReader() };
    expect(difference(await decodeAsync(noIterator), message)).toBe('');
    const node = Readable.from([Buffer.from(bytes.subarray(0, 5)), Buffer.from(bytes.subarray(5))]);
    expect(difference(await decodeAsync(node), message)).toBe('');
    expect(difference(await decodeAsync(chunksOf(Array.from(bytes), [3])), message)).toBe('');
    await expect(decodeAsync(42)).rejects.toThrow(TypeError);
  });

  test('bins stay intact while later chunks arrive (no buffer is reused)', async () => {
    const many = Uint8Array.from([...msgpack.encode({ b: Uint8Array.from([9, 9, 9]) }), ...msgpack.encode({ b: Uint8Array.from([7, 7]) })]);
    const values = await collect(decodeMultiStream(chunksOf(many, [2, 3])));
    expect(values.map((v) => [...v.b])).toEqual([[9, 9, 9], [7, 7]]);
  });

  test('a stream cut short is TRUNCATED or LENGTH; bytes after the value TRAILING', async () => {
    for (const n of [0, 1, 5, bytes.length - 1]) {
      const err = await rejection(decodeAsync(chunksOf(bytes.subarray(0, n), [3])));
      expect(err).toBeInstanceOf(FastmpError);
      expect(['TRUNCATED', 'LENGTH']).toContain(err.code);
    }
    const extra = Uint8Array.from([...bytes, 0xc0]);
    expect(await rejection(decodeAsync(chunksOf(extra, [bytes.length, 1])))).toMatchObject({ code: 'TRAILING' });
    expect(await rejection(decodeAsync(chunksOf(extra, [7])))).toMatchObject({ code: 'TRAILING' });
  });

  test('a large value in many chunks: read again only when enough bytes are there', async () => {
    const big = encode({ data: new Uint8Array(1 << 20), list: Array.from({ length: 1000 }, (_, i) => i) });
    const start = performance.now();
    const got = await decodeAsync(chunksOf(big, [1024]));
    expect(got.data.length).toBe(1 << 20);
    expect(performance.now() - start).toBeLessThan(20_000);
  });
});

describe('decodeMultiStream and decodeArrayStream', () => {
  const values = [{ a: 1 }, 'two', [3, 4], null, 'x'.repeat(1000), { nested: { deep: [new Date(5)] } }];
  const concatenated = Uint8Array.from(values.flatMap((v) => [...msgpack.encode(v)]));

  test('values as they complete, in random chunkings: what @msgpack/msgpack yields', async () => {
    const want = await collect(msgpack.decodeMultiStream(chunksOf(concatenated, [concatenated.length])));
    const r = rng(3);
    for (let trial = 0; trial < 50; trial++) {
      const sizes = Array.from({ length: 8 }, () => 1 + r.int(40));
      expect(difference(await collect(decodeMultiStream(chunksOf(concatenated, sizes))), want), `${sizes}`).toBe('');
    }
    expect(await collect(decodeMultiStream(chunksOf(new Uint8Array(0), [1])))).toEqual([]);
  });

  test('the elements of one array as they complete: what @msgpack/msgpack yields', async () => {
    const array = msgpack.encode(values);
    const want = await collect(msgpack.decodeArrayStream(chunksOf(array, [array.length])));
    for (const sizes of [[1], [2, 5], [array.length], [3, 100]]) {
      expect(difference(await collect(decodeArrayStream(chunksOf(array, sizes))), want)).toBe('');
    }
    const long = msgpack.encode(Array.from({ length: 70000 }, (_, i) => i));
    expect((await collect(decodeArrayStream(chunksOf(long, [999])))).length).toBe(70000);
    expect(await collect(decodeArrayStream(chunksOf(msgpack.encode([]), [1])))).toEqual([]);
    expect(await rejection(collect(decodeArrayStream(chunksOf(msgpack.encode({ a: 1 }), [1]))))).toMatchObject({ code: 'TYPE' });
    expect(await rejection(collect(decodeArrayStream(chunksOf(Uint8Array.from([...array, 1]), [4]))))).toMatchObject({ code: 'TRAILING' });
  });

  test('a shape applies to each value of the stream', async () => {
    const frames = Array.from({ length: 5 }, (_, i) => ({ t: i, accel: Float32Array.of(i, i + 0.5, -i) }));
    const stream = Uint8Array.from(frames.flatMap((f) => [...encode(f)]));
    const got = await collect(new Decoder({ shape: { accel: Float32Array } }).decodeStream(chunksOf(stream, [7])));
    expect(difference(got, frames)).toBe('');
    const array = encode(frames);
    expect(difference(await collect(decodeArrayStream(chunksOf(array, [11]), { shape: { accel: Float32Array } })), frames)).toBe('');
  });

  test('breaking out of the loop lets the source go', async () => {
    let closed = false;
    async function* source() {
      try {
        yield concatenated;
        yield concatenated;
      } finally {
        closed = true;
      }
    }
    for await (const v of decodeMultiStream(source())) {
      expect(v).toEqual({ a: 1 });
      break;
    }
    expect(closed).toBe(true);
  });
});

// decode() keeps Decoders made without the extras (js/codec/decoder-extras.js:
// decodeFrom(), decodeMulti() and the stream decoders, so that an app which
// only calls decode() bundles none); every Decoder a user can make has them,
// and so do its clones (a call made during another).
test('every public Decoder class decodes streams, prefixes and runs of values, its clones too; a Decoder made without them says so', async () => {
  await entry.init();
  const classes = {
    'pure-JS codec': Decoder, 'fastmp-wasm': entry.Decoder, 'fastmp-wasm/inline': inlineEntry.Decoder,
    'an instance': entry.createFastmpSync().Decoder,
  };
  const two = Uint8Array.from([...encode({ a: 1 }), ...encode([2])]);
  for (const [name, Class] of Object.entries(classes)) {
    const decoder = new Class();
    expect(await collect(decoder.decodeStream(chunksOf(two, [3]))), name).toEqual([{ a: 1 }, [2]]);
    expect(await decoder.clone().decodeAsync(chunksOf(encode('x'), [1])), name).toBe('x');
    expect(await collect(decoder.decodeArrayStream(chunksOf(encode([1, 2]), [2]))), name).toEqual([1, 2]);
    expect(decoder.clone().decodeFrom(two, 0), name).toEqual({ value: { a: 1 }, end: two.length - 2 });
    expect([...decoder.clone().decodeMulti(two)], name).toEqual([{ a: 1 }, [2]]);
  }
  const { Decoder: Bare } = await import('../js/codec/decoder.js');
  expect(() => new Bare().decodeFrom(two)).toThrow(/without decodeFrom\(\), decodeMulti\(\) and the stream decoders/);
  expect(() => new Bare().decodeMulti(two)).toThrow(/without decodeFrom\(\), decodeMulti\(\) and the stream decoders/);
  expect(() => new Bare().decodeAsync(chunksOf(two, [3]))).toThrow(/without decodeFrom\(\), decodeMulti\(\) and the stream decoders/);
  expect(new Bare().decode(encode('x'))).toBe('x');
});
