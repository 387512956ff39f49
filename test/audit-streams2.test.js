// audit-streams2.test.js - an audit of the stream decoders' sources and
// entry points (decodeAsync, decodeMultiStream, decodeArrayStream, the
// Decoder methods; js/codec/stream.js), against @msgpack/msgpack 3.1.3. Each
// numbered describe() is a finding that failed on 76530ce:
// 1. decodeAsync(stream, options) with options the Decoder refuses threw
//    synchronously: a Promise-returning function whose error escaped a
//    `.catch()`, where init(), createFastmp(), Decoder#decodeAsync() and
//    @msgpack/msgpack's decodeAsync() (an async function) reject.
// 2. A frozen (or non-extensible) FastmpError thrown by the caller's code (an
//    extension's decode, a mapKeyConverter) during a stream was replaced by the
//    engine's TypeError "Cannot add property streamOffset" (stream.js
//    located()), where decode() passes it through untouched (docs/errors.md)
//    and @msgpack/msgpack's decodeAsync() rethrows it.
// The last describe() holds what was confirmed right and no other test covers:
// a source that refills one buffer for every chunk (docs/messages.md
// "Nothing holds on to a chunk"), checked with every value kept to the end.
import * as msgpack from '@msgpack/msgpack';
import { describe, expect, test } from 'vitest';
import * as codec from '../js/codec/index.js';
import * as entry from '../js/index.js';
import { DecodeError, ExtensionCodec, createFastmpSync, decode, decodeArrayStream, decodeAsync, decodeMultiStream, encode, init } from '../js/index.js';

await init();

async function* chunks(...parts) {
  for (const part of parts) yield part;
}

/** What call() does: { sync } when it throws, else { promise } (the value it returned). */
function outcome(call) {
  try {
    return { promise: call() };
  } catch (err) {
    return { sync: err };
  }
}

describe('1: decodeAsync() with options the Decoder refuses rejects, as every Promise-returning function does (js/api/streaming.js, js/codec/index.js, js/instances.js)', () => {
  const bad = [['an unknown option', { nope: 1 }], ['maxDepth -1', { maxDepth: -1 }], ['reuseTypedArrays without a shape', { reuseTypedArrays: true }]];
  const entries = [
    ['fastmp-wasm', entry.decodeAsync],
    ['the pure-JS codec', codec.decodeAsync],
    ['an instance', createFastmpSync().decodeAsync],
  ];

  test('the behaviour to match: init(), createFastmp(), Decoder#decodeAsync() and @msgpack/msgpack reject', async () => {
    for (const call of [() => entry.init({ nope: 1 }), () => entry.createFastmp({ nope: 1 }), () => new entry.Decoder().decodeAsync(42), () => msgpack.decodeAsync(42)]) {
      const { promise, sync } = outcome(call);
      expect(sync).toBeUndefined();
      await expect(promise).rejects.toThrow(TypeError);
    }
  });

  for (const [name, fn] of entries) {
    test.each(bad)(`${name}: %s`, async (_, options) => {
      const { promise, sync } = outcome(() => fn(chunks(encode(1)), options));
      expect(sync, String(sync)).toBeUndefined();
      expect(promise).toBeInstanceOf(Promise);
      await expect(promise).rejects.toThrow(TypeError);
    });
  }
});

describe("2: a frozen FastmpError of the caller's code passes through a stream untouched, as through decode() (js/codec/stream.js located())", () => {
  const bytes = Uint8Array.of(0x92, 0x01, 0xd4, 3, 0); // [1, ext 3]
  const cases = [
    ['frozen, from an extension', Object.freeze, (err) => ({ extensionCodec: codecThrowing(ExtensionCodec, err) })],
    ['non-extensible, from an extension', Object.preventExtensions, (err) => ({ extensionCodec: codecThrowing(ExtensionCodec, err) })],
    ["frozen, from @msgpack/msgpack's ExtensionCodec", Object.freeze, (err) => ({ extensionCodec: codecThrowing(msgpack.ExtensionCodec, err) })],
    ['frozen, from a mapKeyConverter', Object.freeze, (err) => ({ mapKeyConverter: () => { throw err; } })],
  ];
  const input = (name) => (name.includes('mapKeyConverter') ? encode([1, { a: 1 }]) : bytes);

  test.each(cases)('%s: decode() throws it as it is (the behaviour to match)', (name, seal, optionsOf) => {
    const err = seal(new DecodeError('mine'));
    expect(() => decode(input(name), optionsOf(err))).toThrow(err);
  });

  test.each(cases)('%s: decodeAsync(), decodeMultiStream(), decodeArrayStream(), in one chunk and cut', async (name, seal, optionsOf) => {
    const err = seal(new DecodeError('mine'));
    const options = optionsOf(err);
    const whole = input(name);
    for (const parts of [[whole], [whole.subarray(0, 3), whole.subarray(3)]]) {
      await expect(decodeAsync(chunks(...parts), options)).rejects.toBe(err);
      await expect(collect(decodeMultiStream(chunks(...parts), options))).rejects.toBe(err);
      await expect(collect(decodeArrayStream(chunks(...parts), options))).rejects.toBe(err);
    }
  });

  test("@msgpack/msgpack's decodeAsync() rethrows it", async () => {
    const err = Object.freeze(new DecodeError('mine'));
    await expect(msgpack.decodeAsync(chunks(bytes), { extensionCodec: codecThrowing(msgpack.ExtensionCodec, err) })).rejects.toBe(err);
  });
});

function codecThrowing(Codec, err) {
  const extensionCodec = new Codec();
  extensionCodec.register({ type: 3, encode: () => null, decode: () => { throw err; } });
  return extensionCodec;
}

async function collect(iterable) {
  const out = [];
  for await (const v of iterable) out.push(v);
  return out;
}

test('a chunk that is a string (a Node stream with setEncoding()) is a TypeError that says so, in every stream decoder', async () => {
  const { Readable } = await import('node:stream');
  const text = () => Readable.from([Buffer.from(encode({ a: 1 }))]).setEncoding('latin1');
  const settle = async (run) => {
    try {
      await run();
    } catch (err) {
      return err;
    }
    return null;
  };
  for (const run of [
    () => decodeAsync(text()),
    async () => { for await (const v of decodeMultiStream(text())) void v; },
    async () => { for await (const v of decodeArrayStream(text())) void v; },
  ]) {
    const err = await settle(run);
    expect(err).toBeInstanceOf(TypeError);
    expect(err.message).toMatch(/a chunk that is a string .*setEncoding\(\)/);
  }
});

describe('confirmed: a source that refills one buffer for every chunk (docs/messages.md "Nothing holds on to a chunk")', () => {
  // Every value kept until the stream ends, then compared with decode() of its bytes: bins,
  // raw strs, ExtData payloads and shaped typed arrays (bins, msgpackr's ext 0x74 and plain
  // arrays, small and large enough for the kernels) hold no view of the refilled buffer,
  // whatever the chunk sizes (values that lie whole in a chunk, that a chunk cuts, that end
  // exactly at a chunk's end).
  function ring(bytes, sizes) {
    const buffer = new Uint8Array(Math.max(...sizes));
    return (async function* () {
      for (let at = 0, i = 0; at < bytes.length; i++) {
        const n = Math.min(sizes[i % sizes.length], bytes.length - at);
        buffer.set(bytes.subarray(at, at + n));
        at += n;
        yield buffer.subarray(0, n);
        buffer.fill(0xc1); // (what a value still holding a view would then read)
      }
    })();
  }
  const frame = (i, n, typedArrays) => encode({
    i, bin: Uint8Array.from({ length: n }, (_, j) => j + i), s: 'é'.repeat(n), x: new entry.ExtData(9, Uint8Array.of(i, n)),
    v: Float32Array.from({ length: n }, (_, j) => j / 4 + i), w: Int16Array.from({ length: n }, (_, j) => j - i),
  }, { typedArrays });

  test.each([['array'], ['bin'], ['ext']])('typedArrays %s', async (typedArrays) => {
    const wire = Uint8Array.from([0, 1, 5, 40, 300, 2000].flatMap((n, i) => [...frame(i, n, typedArrays)]));
    for (const options of [{}, { shape: { v: Float32Array, w: Int16Array } }, { rawStrings: true }]) {
      const want = [...new entry.Decoder(options).decodeMulti(wire.slice())];
      for (const sizes of [[1], [7, 3], [64], [255, 256, 257], [4096], [wire.length]]) {
        const got = await collect(decodeMultiStream(ring(wire, sizes), options));
        expect(got, `${JSON.stringify(options)} ${sizes}`).toEqual(want);
      }
    }
  });
});
