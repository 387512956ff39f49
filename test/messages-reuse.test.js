// reuseTypedArrays (issue 27): a Decoder that decodes a shape's typed-array
// fields into the arrays it returned for the same fields last time, when the
// lengths match. Over each port (pure JS, wasm SIMD and scalar) and both of
// a field's paths (decoded in JS below the crossover, by the kernels above):
// the same values as a decode without reuse, the same array objects across
// calls, new ones where a length changes, the same errors on hostile input,
// an input that lies in a kept array read before it is written, streams, and
// no ArrayBuffer allocated in steady state.

import * as msgpack from '@msgpack/msgpack';
import { describe, expect, test } from 'vitest';
import { FastmpError } from '../js/errors.js';
import { makeCodec, mapOf } from '../js/codec/index.js';
import { BOOL, KINDS } from '../js/kinds.js';
import { rng } from './helpers.js';
import { PORTS, difference, hex, mutate } from './messages-helpers.js';

/** n elements of kind, from seed: small and large ints, fractions for floats. */
function elements(kind, n, seed) {
  const r = rng(seed);
  const x = new kind.Type(n);
  for (let i = 0; i < n; i++) {
    if (kind === BOOL) x[i] = r.int(2);
    else if (kind.big) x[i] = BigInt(r.int(200) - (kind.c === 'u64' ? 0 : 100)) * 1_000_000_007n;
    else if (kind.float) x[i] = (r() - 0.5) * 1e6;
    else x[i] = Number(kind.min) + r.int(Math.min(Number(kind.max) - Number(kind.min), 1e9));
  }
  return x;
}

/** Lengths on both sides of every crossover: 3 (JS below it) and 300 (the kernels, unless pure JS). */
const LENGTHS = [3, 300];

const all = (port) => {
  const codec = makeCodec(port);
  return { ...codec, reusing: (shape) => new codec.Decoder({ shape, reuseTypedArrays: true }) };
};

describe.each(PORTS)('%s port', (portName, port) => {
  const { Decoder, Encoder, encode, reusing } = all(port);

  test.each([...KINDS, BOOL].map((k) => [k.name, k]))('%s fields: decoded into the same arrays while their lengths match', (name, kind) => {
    const shape = { a: kind === BOOL ? Boolean : kind.Type, list: [kind === BOOL ? Boolean : kind.Type] };
    const plain = new Decoder({ shape });
    const reuse = reusing(shape);
    for (const n of LENGTHS) {
      const messages = [1, 2, 3].map((seed) => {
        const value = (k) => (kind === BOOL ? Array.from(elements(kind, n, seed * 7 + k), Boolean) : elements(kind, n, seed * 7 + k));
        return encode({ a: value(0), list: [value(1), value(2)] });
      });
      const first = reuse.decode(messages[0]);
      for (const bytes of [...messages, messages[0]]) {
        const got = reuse.decode(bytes);
        expect(difference(got, plain.decode(bytes)), `${hex(bytes.subarray(0, 16))}…`).toBe('');
        expect(got.a).toBe(first.a);
        expect(got.list[0]).toBe(first.list[0]);
        expect(got.list[1]).toBe(first.list[1]);
        expect(got.a).not.toBe(got.list[0]);
      }
    }
  });

  test('a field whose length changes gets a new array; the one returned before keeps its values', () => {
    const reuse = reusing({ v: Float32Array });
    const a = reuse.decode(encode({ v: Float32Array.of(1, 2, 3) })).v;
    const b = reuse.decode(encode({ v: Float32Array.of(4, 5) })).v;
    expect(b).not.toBe(a);
    expect([...a]).toEqual([1, 2, 3]);
    expect([...b]).toEqual([4, 5]);
    // The new length is what is kept now.
    expect(reuse.decode(encode({ v: Float32Array.of(6, 7) })).v).toBe(b);
    expect([...b]).toEqual([6, 7]);
  });

  test('arrays of shapes: the k-th field of a node reuses the k-th array, however many come', () => {
    const reuse = reusing({ frames: [{ p: Float32Array }], m: mapOf(Int16Array) });
    const message = (count, base) => encode({
      frames: Array.from({ length: count }, (_, i) => ({ p: Float32Array.of(base + i, 0.5) })),
      m: Object.fromEntries(Array.from({ length: count }, (_, i) => [`k${i}`, Int16Array.of(base - i)])),
    });
    const three = reuse.decode(message(3, 10));
    const two = reuse.decode(message(2, 20));
    expect(two.frames.map((f) => f.p)).toEqual(three.frames.slice(0, 2).map((f) => f.p));
    expect(two.frames[0].p).toBe(three.frames[0].p);
    expect([...two.frames[1].p]).toEqual([21, 0.5]);
    expect(two.m.k1).toBe(three.m.k1);
    // The third array, unused by the message of two, is still kept.
    const four = reuse.decode(message(4, 30));
    expect(four.frames[2].p).toBe(three.frames[2].p);
    expect(four.frames.map((f) => f.p[0])).toEqual([30, 31, 32, 33]);
    expect([...four.m.k3]).toEqual([27]);
  });

  test('bins and typed-array exts by shape are decoded into the kept arrays too', () => {
    const shape = { f: Float64Array, u: Uint8Array, i: Int32Array };
    const reuse = reusing(shape);
    const plain = new Decoder({ shape });
    for (const typedArrays of ['bin', 'ext']) {
      const enc = new Encoder({ typedArrays });
      const m1 = enc.encode({ f: Float64Array.of(1.5, -2), u: Uint8Array.of(1, 2, 3), i: Int32Array.of(-7, 8) });
      const m2 = enc.encode({ f: Float64Array.of(3.25, 4), u: Uint8Array.of(9, 8, 7), i: Int32Array.of(70000, -1) });
      const a = reuse.decode(m1);
      const b = reuse.decode(m2);
      expect(difference(b, plain.decode(m2)), typedArrays).toBe('');
      for (const key of ['f', 'u', 'i']) expect(b[key], `${typedArrays} ${key}`).toBe(a[key]);
    }
  });

  test('an input that lies in a kept array is read before that array is written', () => {
    const n = 64;
    const reuse = reusing({ v: Float64Array });
    const kept = reuse.decode(encode({ v: new Float64Array(n) })).v;
    // A message of the same length, written as float32s (5 bytes each), fits in the kept array's 8n bytes.
    const values = Array.from({ length: n }, (_, i) => Math.fround(i / 3));
    const bytes = msgpack.encode({ v: values }, { forceFloat32: true });
    expect(bytes.length).toBeLessThan(8 * n);
    const inKept = new Uint8Array(kept.buffer, 0, bytes.length);
    inKept.set(bytes);
    const got = reuse.decode(inKept);
    expect(got.v).toBe(kept);
    expect([...got.v]).toEqual(values);
  });

  test('hostile input: mutated messages give what a decoder without reuse gives, and a valid one after each is right', () => {
    const shape = { a: Float32Array, b: [Int16Array], c: mapOf(Boolean), d: { e: BigUint64Array } };
    const reuse = reusing(shape);
    const plain = new Decoder({ shape });
    const r = rng(0x7e5e);
    const fields = () => ({
      a: Array.from({ length: r.int(40) }, () => r() / 3),
      b: [Array.from({ length: r.int(40) }, () => r.int(64000) - 32000), []],
      c: { x: [true, false], y: [] },
      d: { e: [r.int(1000), 2 ** 50] },
    });
    const outcome = (decoder, bytes) => {
      try {
        return { value: decoder.decode(bytes) };
      } catch (err) {
        expect(err, `${hex(bytes)}: ${err.message}`).toBeInstanceOf(FastmpError);
        return { error: `${err.code} at ${err.offset} ${err.path}` };
      }
    };
    for (let i = 0; i < 3000; i++) {
      const bytes = mutate(msgpack.encode(fields()), r);
      const want = outcome(plain, bytes);
      const got = outcome(reuse, bytes);
      if (want.error) expect(got.error, hex(bytes)).toBe(want.error);
      else expect(difference(got.value, want.value), hex(bytes)).toBe('');
      const valid = msgpack.encode(fields());
      expect(difference(reuse.decode(valid), plain.decode(valid)), hex(valid)).toBe('');
    }
  });

  test('streams: the values of one stream share their arrays, each right when it is read', async () => {
    const shape = { v: Float32Array, w: Int32Array };
    const messages = [1, 2, 3].map((k) => ({ v: Float32Array.of(k, k + 0.5, 300 * k), w: Int32Array.from({ length: 500 }, (_, i) => i * k) }));
    const bytes = msgpack.encode(messages[0]);
    const all3 = new Uint8Array([...bytes, ...msgpack.encode(messages[1]), ...msgpack.encode(messages[2])]);
    async function* chunks(input) {
      for (let p = 0; p < input.length; p += 37) yield input.slice(p, p + 37);
    }
    const reuse = reusing(shape);
    let first;
    let k = 0;
    for await (const value of reuse.decodeStream(chunks(all3))) {
      expect(difference(value, messages[k]), `value ${k}`).toBe('');
      first ??= value;
      expect(value.v).toBe(first.v);
      expect(value.w).toBe(first.w);
      k++;
    }
    expect(k).toBe(3);
    // decodeArrayStream: the elements of one array.
    let firstElement;
    k = 0;
    for await (const value of reuse.decodeArrayStream(chunks(msgpack.encode(messages)))) {
      expect(difference(value, messages[k]), `element ${k}`).toBe('');
      firstElement ??= value;
      expect(value.w).toBe(firstElement.w);
      k++;
    }
    expect(k).toBe(3);
  });
});

describe('the option', () => {
  const { Decoder } = makeCodec(PORTS[1][1]);

  test('needs a shape, and is a boolean', () => {
    expect(() => new Decoder({ reuseTypedArrays: true })).toThrow(/reuseTypedArrays reuses the typed arrays that a shape decodes: give a shape too/);
    expect(() => new Decoder({ shape: { a: Float32Array }, reuseTypedArrays: 1 })).toThrow(TypeError);
    expect(() => new Decoder({ reuseTypedArrays: false })).not.toThrow();
  });

  test('steady state: same-shaped messages allocate no ArrayBuffer', () => {
    const { encode } = makeCodec(PORTS[1][1]);
    const reuse = new Decoder({ shape: { embedding: Float32Array, ids: Int32Array }, reuseTypedArrays: true });
    const messages = [1, 2].map((k) => encode({ id: k, embedding: new Float32Array(1536).fill(k / 3), ids: new Int32Array(4096).fill(k) }));
    const first = reuse.decode(messages[0]);
    for (let i = 0; i < 50; i++) reuse.decode(messages[i & 1]); // warm
    const before = process.memoryUsage().arrayBuffers;
    for (let i = 0; i < 2000; i++) {
      const got = reuse.decode(messages[i & 1]);
      if (got.embedding !== first.embedding || got.ids !== first.ids) throw new Error(`decode ${i} returned a new array`);
    }
    // 2000 decodes without reuse would take 2000 x 22 KB of ArrayBuffers; reuse takes none.
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(64 * 1024);
    expect(first.embedding[0]).toBe(Math.fround(2 / 3));
  });
});
