// messages-memory.test.js - where a message's bytes live in the wasm builds:
// a reused Encoder writes every typed-array field in place and stops growing
// memory; a shaped decode copies its input into wasm memory in a few windows;
// and what a call's own memory growth detaches is still read.

import { describe, expect, onTestFinished, test, vi } from 'vitest';
import { FastmpError } from '../js/errors.js';
import { FieldReader, UNPACK_CHUNK } from '../js/io.js';
import { ExtData, ExtensionCodec, asBools, createFastmp } from '../js/index.js';

const BUILDS = [['simd', { backend: 'simd', pureJs: 'never' }], ['scalar', { backend: 'scalar', pureJs: 'never' }]];

/** A W1-like message: a 1536-float embedding and the fields around it. */
function message(seed) {
  const embedding = new Float32Array(1536);
  for (let i = 0; i < embedding.length; i++) embedding[i] = Math.sin(seed + i);
  return { id: seed, model: 'm1', embedding, scores: Float64Array.of(seed, 0.5), ids: Int32Array.of(seed, -seed, 70000), tags: ['a', 'b', 'c'], ts: new Date(1e12 + seed) };
}

describe.each(BUILDS)('%s', (name, options) => {
  test('a reused Encoder: wasm memory and the scratch region stop growing, and every output is whole', async () => {
    const fm = await createFastmp(options);
    const encoder = new fm.Encoder();
    fm.decode(encoder.encode(message(1)), { shape: { embedding: Float32Array } });
    const settled = fm.memoryStats();
    for (let i = 0; i < 2000; i++) {
      const bytes = encoder.encode(message(i));
      expect(bytes.length).toBeGreaterThan(1536 * 5);
      if (i % 500 === 0) {
        const back = fm.decode(bytes, { shape: { embedding: Float32Array } });
        expect(back.embedding).toEqual(message(i).embedding);
      }
    }
    expect(fm.memoryStats()).toEqual(settled);
  });

  test('the typed-array fields are written by the kernels straight into the Encoder\'s output (no packed copy)', async () => {
    const fm = await createFastmp(options);
    const encoder = new fm.Encoder();
    encoder.encode(message(0)); // the store and scratch exist
    const set = vi.spyOn(Uint8Array.prototype, 'set');
    try {
      const bytes = encoder.encode(message(2));
      // One set() copies the elements into the store per typed-array field (embedding, scores,
      // ids), and one copies the whole message out; none copies a packed array into the output.
      const sizes = set.mock.calls.map(([source]) => source.length);
      expect(sizes.filter((n) => n >= 1536 * 5)).toEqual([bytes.length]);
    } finally {
      set.mockRestore();
    }
  });

  test('a shaped decode copies its input into wasm memory in a few windows, not a field at a time nor all that follows it', async () => {
    const fm = await createFastmp(options);
    const frames = Array.from({ length: 64 }, (_, t) => ({ t, accel: Float32Array.of(t, 1, 2), samples: new Int16Array(256).fill(t) }));
    const message = fm.encode({ frames });
    const after = new Uint8Array(1 << 20).fill(0xc0); // a megabyte of nils after the message, which decodeFrom() leaves alone
    const bytes = new Uint8Array(message.length + after.length);
    bytes.set(message);
    bytes.set(after, message.length);
    // Every copy into the input window is a reader's copyFrom() (js/io.js FieldReader): input[from, to).
    const readers = FieldReader.prototype;
    const { copyFrom } = readers;
    let copied = 0;
    const copies = vi.spyOn(readers, 'copyFrom').mockImplementation(function counted(heap, offset, len) {
      copyFrom.call(this, heap, offset, len);
      copied += this.to - this.from;
    });
    try {
      const { value: back, end } = new fm.Decoder({ shape: { frames: [{ accel: Float32Array, samples: Int16Array }] } }).decodeFrom(bytes, 0);
      expect(end).toBe(message.length);
      expect(back.frames[63].samples).toEqual(new Int16Array(256).fill(63));
      expect(back.frames[5].accel).toEqual(Float32Array.of(5, 1, 2));
      // 64 fields of samples; each window twice the last: a handful of copies, a few times the message's bytes.
      expect(copies.mock.calls.length).toBeLessThanOrEqual(Math.ceil(Math.log2(message.length)));
      expect(copied).toBeLessThan(4 * message.length);
    } finally {
      copies.mockRestore();
    }
  });
});

// A call that grows wasm memory detaches every view of it, the caller's
// alloc() arrays among them, while the call still has to read them: an input
// in wasm memory, a field met after the growth. A fresh instance has little
// memory, so a field of a few million floats grows it within the call.
describe.each(BUILDS)('%s: wasm memory that a message call reads, and the call\'s own growth', (name, options) => {
  const BIG = 3_000_000; // floats: 12 MB in, 15 MB packed, more than a fresh instance has

  /** An alloc() array of `Type` holding `values`. */
  const allocated = (fm, Type, values) => {
    const x = fm.alloc(Type, values.length);
    x.set(values);
    return x;
  };
  const grew = (fm, before) => expect(fm.memoryStats().wasmMemory).toBeGreaterThan(before);
  /** Whether two typed arrays hold the same bytes (toEqual() takes seconds at these lengths). */
  const sameBytes = (a, b) => a.constructor === b.constructor && Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength));

  test('decode() of a message in an alloc() array, whose shaped fields grow memory: the values of a decode from JS memory', async () => {
    const fm = await createFastmp(options);
    // Long fields are read a chunk at a time, which grows nothing: here they
    // go through the input region, which the whole message then grows.
    const chunking = { ...UNPACK_CHUNK };
    onTestFinished(() => Object.assign(UNPACK_CHUNK, chunking));
    UNPACK_CHUNK.from = Infinity;
    const js = await createFastmp({ backend: 'js' }); // (fm's own encode() would grow its memory first)
    const message = js.encode({ a: new Float32Array(BIG).fill(1.5), b: Float64Array.from({ length: BIG / 4 }, (_, i) => i), t: 'end' });
    const input = allocated(fm, Uint8Array, message);
    const before = fm.memoryStats().wasmMemory;
    const shape = { a: Float32Array, b: Float64Array };
    const back = fm.decode(input, { shape });
    grew(fm, before);
    const fromJs = fm.decode(message, { shape });
    expect(sameBytes(back.a, fromJs.a) && sameBytes(back.b, fromJs.b)).toBe(true);
    expect([back.t, back.a[7], back.b[12345]]).toEqual(['end', 1.5, 12345]);
  });

  test('decode() of a message in an alloc() array, whose extension grows memory: every value after it still read', async () => {
    const fm = await createFastmp(options);
    const codec = new ExtensionCodec();
    codec.register({ type: 7, encode: () => null, decode: (data) => fm.pack(new Float32Array(BIG)).length + data[0] });
    const message = fm.encode({ x: new ExtData(7, Uint8Array.of(5)), after: 'still here', n: [1, 2, 3] });
    const input = allocated(fm, Uint8Array, message);
    const before = fm.memoryStats().wasmMemory;
    expect(fm.decode(input, { extensionCodec: codec })).toEqual({ x: 5 * BIG + 5 + 5, after: 'still here', n: [1, 2, 3] });
    grew(fm, before);
  });

  test.each([['encode()', (fm, value, opts) => fm.encode(value, opts)], ['an Encoder', (fm, value, opts) => new fm.Encoder(opts).encode(value)]])(
    '%s: alloc() arrays met after the call grew memory are read from their allocation (arrays, bins, booleans, exts)',
    async (_, encode) => {
      const fm = await createFastmp(options);
      const f = allocated(fm, Float32Array, [1, 2.5, -3, 4]);
      const i = allocated(fm, Int16Array, [7, -7, 300]);
      const u = allocated(fm, Uint8Array, [1, 2, 3, 4, 5]);
      const flags = allocated(fm, Uint8Array, [1, 0, 1]);
      const before = fm.memoryStats().wasmMemory;
      const value = { big: new Float32Array(BIG).fill(0.25), f, i, u, flags: asBools(flags), again: f };
      const bytes = encode(fm, value);
      grew(fm, before);
      const expected = { big: value.big, f: Float32Array.of(1, 2.5, -3, 4), i: Int16Array.of(7, -7, 300), u: Uint8Array.of(1, 2, 3, 4, 5), flags: [true, false, true] };
      expected.again = expected.f;
      const shape = { big: Float32Array, f: Float32Array, i: Int16Array, again: Float32Array };
      const { big, ...back } = fm.decode(bytes, { shape });
      expect(sameBytes(big, value.big)).toBe(true);
      delete expected.big;
      expect(back).toEqual(expected);
      // The same bytes as the encode of JS copies of them.
      const copies = { ...value, f: expected.f, i: expected.i, u: expected.u, flags: asBools(Uint8Array.of(1, 0, 1)), again: expected.f };
      expect(sameBytes(encode(fm, copies), bytes)).toBe(true);
      // As exts and bins too (their bytes are copied, not packed).
      for (const typedArrays of ['ext', 'bin']) {
        const fresh = await createFastmp(options);
        const h = allocated(fresh, Float32Array, [9, 8]);
        const out = encode(fresh, { big: value.big, h }, { typedArrays });
        expect(sameBytes(out, encode(fresh, { big: value.big, h: Float32Array.of(9, 8) }, { typedArrays }))).toBe(true);
      }
    },
  );

  test('an extension\'s bytes in wasm memory, copied in after the output grew: kept', async () => {
    const fm = await createFastmp(options);
    const payload = allocated(fm, Uint8Array, [4, 3, 2, 1]);
    const codec = new ExtensionCodec();
    class Marker {}
    codec.register({ type: 9, encode: (v) => (v instanceof Marker ? payload : null), decode: (data) => Array.from(data) });
    const before = fm.memoryStats().wasmMemory;
    const bytes = fm.encode([new Marker(), new Float32Array(BIG), new Marker()], { extensionCodec: codec });
    grew(fm, before);
    const back = fm.decode(bytes, { extensionCodec: codec });
    expect([back[0], back[1].length, back[2]]).toEqual([[4, 3, 2, 1], BIG, [4, 3, 2, 1]]);
  });

  test('a packView() output as a bin, whose own size grows the output: copied before the growth', async () => {
    const fm = await createFastmp(options);
    const packed = fm.packView(new Float32Array(BIG).fill(2));
    const copy = packed.slice();
    const before = fm.memoryStats().wasmMemory;
    const back = fm.decode(fm.encode({ packed, after: 1 }));
    grew(fm, before);
    expect(sameBytes(back.packed, copy) && back.after === 1).toBe(true);
  });

  test('a stream chunk in wasm memory (a packView() output) is taken when it arrives, before a later call overwrites it', async () => {
    const fm = await createFastmp(options);
    const a = Float32Array.of(1.5, -2, 3e6);
    async function* chunks() {
      const packed = fm.packView(a); // valid until the next call: the stream takes it now
      yield packed.subarray(0, 7); // a value cut in two: the stream keeps this part queued
      const tail = packed.slice(7);
      fm.packView(Float32Array.of(9, 9, 9)); // the same layout: overwrites the first part
      yield tail;
    }
    expect(await fm.decodeAsync(chunks(), { shape: Float32Array })).toEqual(a);
  });

  test('an extension that makes a shaped decode of its own during one: the outer decode\'s later fields read its own bytes', async () => {
    const fm = await createFastmp(options);
    const inner = fm.encode({ c: new Float32Array(300).fill(7) });
    const codec = new ExtensionCodec();
    codec.register({ type: 7, encode: () => null, decode: () => fm.decode(inner, { shape: { c: Float32Array } }).c[0] });
    const a = Float32Array.from({ length: 200 }, (_, i) => i);
    const b = Float32Array.from({ length: 200 }, (_, i) => -i - 0.5);
    const message = fm.encode({ a, x: new ExtData(7, Uint8Array.of(1)), b });
    // (The inner decode copied its input over the outer's in the input region.)
    expect(fm.decode(message, { shape: { a: Float32Array, b: Float32Array }, extensionCodec: codec })).toEqual({ a, x: 7, b });
  });

  test('a subarray of an alloc() array met after the call grew memory: STALE, saying why (its place is lost with its buffer)', async () => {
    const fm = await createFastmp(options);
    const x = allocated(fm, Float32Array, [1, 2, 3, 4]);
    const err = (() => {
      try {
        fm.encode({ big: new Float32Array(BIG), part: x.subarray(1) });
      } catch (e) {
        return e;
      }
      return null;
    })();
    expect(err).toBeInstanceOf(FastmpError);
    expect(err.code).toBe('STALE');
    expect(err.message).toMatch(/at \$\.part: encode\(\) grew wasm memory, which detached this view/);
    // Before any growth of the call's own, the same subarray is read as it is.
    expect(fm.decode(fm.encode({ part: fm.refresh(x).subarray(1) }), { shape: { part: Float32Array } }).part).toEqual(Float32Array.of(2, 3, 4));
  });

  test('a view detached before the call is still STALE (refresh() first), not read from its allocation', async () => {
    const fm = await createFastmp(options);
    const x = allocated(fm, Float32Array, [1, 2]);
    fm.pack(new Float32Array(BIG)); // grows memory: x is detached now
    expect(() => fm.encode({ x })).toThrow(expect.objectContaining({ code: 'STALE', message: expect.stringMatching(/refresh\(x\)/) }));
    expect(fm.decode(fm.encode({ x: fm.refresh(x) }), { shape: { x: Float32Array } }).x).toEqual(Float32Array.of(1, 2));
  });
});
