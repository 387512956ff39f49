// traffic.test.js - what real traffic does to a codec, beyond hostile bytes:
// inputs that lie in memory the call writes (an output of ours fed back in),
// stream sources that refill one buffer, chunkings of every size and the
// work they cost, encoders made per call, and other threads writing an input.
// The numbered tests are the seven findings of issue 24, each of which failed
// before its fix.

import { Worker } from 'node:worker_threads';
import * as msgpack from '@msgpack/msgpack';
import fc from 'fast-check';
import { describe, expect, test, vi } from 'vitest';
import { Decoder as BaseDecoder } from '../js/codec/decoder.js';
import { ValueScanner } from '../js/codec/scan.js';
import { ExtData, ExtensionCodec, FastmpError, asBools, createFastmpSync } from '../js/index.js';
import { FieldReader } from '../js/io.js';
import { growMemory } from './helpers.js';
import { anyValue, catchError, difference, hex } from './messages-helpers.js';

/** The options of instances whose every typed array goes through the kernels, and of one without wasm. */
const OPTIONS = [
  ['pure JS', { backend: 'js' }],
  ['wasm SIMD', { backend: 'simd', pureJs: 'never' }],
  ['wasm scalar', { backend: 'scalar', pureJs: 'never' }],
];

/** Such instances, shared by the tests that need no fresh one. */
const INSTANCES = OPTIONS.map(([name, options]) => [name, createFastmpSync(options)]);

/** Chunks of `bytes`, each `size` long, all handed out in one buffer that the source refills. */
async function* refilled(bytes, size) {
  const buffer = new Uint8Array(size);
  for (let at = 0; at < bytes.length; at += size) {
    const n = Math.min(size, bytes.length - at);
    buffer.set(bytes.subarray(at, at + n));
    yield buffer.subarray(0, n);
  }
  buffer.fill(0xc1); // what the source writes next: nothing may still read it
}

/** Chunks of `bytes` of the given sizes, in turn. */
async function* chunked(bytes, sizes) {
  for (let at = 0, i = 0; at < bytes.length; i++) {
    const n = sizes[i % sizes.length];
    yield bytes.slice(at, at + n);
    at += n;
  }
}

async function collect(iterable) {
  const out = [];
  for await (const value of iterable) out.push(value);
  return out;
}

// ---- inputs that alias what the call writes --------------------------------------------

describe.each(INSTANCES)('%s: a source in memory the encoder writes is read as it was', (name, fm) => {
  const wasm = name !== 'pure JS';
  /** Where the source bytes come from: each a view that fastmp itself handed out (or owns). */
  const sources = [
    ['its own encodeSharedRef() output', (encoder) => encoder.encodeSharedRef({ hello: 'world', list: [1, 2, 3, 4, 5, 6, 7] })],
    ['another Encoder\'s encodeSharedRef() output', () => new fm.Encoder().encodeSharedRef({ other: 1.5, text: 'abcdefgh' })],
    ['a packView() output', () => fm.packView(Int16Array.of(1, -300, 70, 5, 9, 1000, -1))],
    ...(wasm ? [['an alloc() array', () => {
      const x = fm.alloc(Uint8Array, 24);
      x.set(Array.from({ length: 24 }, (_, i) => i * 7));
      return x;
    }]] : []),
  ];
  /** How the bytes are put in the value: every kind of field that is written from a view. */
  const fields = [
    ['a bin', (b) => b],
    ['a DataView', (b) => new DataView(b.buffer, b.byteOffset, b.byteLength)],
    ['an ExtData payload', (b) => new ExtData(9, b)],
    ['an Int8Array view', (b) => new Int8Array(b.buffer, b.byteOffset, b.byteLength)],
    ['asBools() of it', (b) => asBools(b)],
  ];
  /** Where the field sits: before or after a typed field that the kernels write, nested. */
  const places = [
    ['first', (f) => ({ f, t: new Float32Array(2000).fill(0.5) })],
    ['after a typed field', (f) => ({ t: new Float32Array(2000).fill(0.5), f })],
    ['nested after typed fields', (f) => ({ a: [1, { t: new Float64Array(700).fill(-2), deep: [Int32Array.of(9, 99999), f] }] })],
  ];
  const cases = sources.flatMap(([s, source]) => fields.flatMap(([f, field]) => places.map(([p, place]) => [`${s} as ${f}, ${p}`, source, field, place])));

  test.each(['array', 'bin', 'ext'])("typedArrays '%s': the bytes of a copy taken before the call, every source, field and place", (typedArrays) => {
    for (const [what, source, field, place] of cases) {
      const encoder = new fm.Encoder({ typedArrays });
      const bytes = source(encoder);
      const copy = bytes.slice();
      const want = hex(new fm.Encoder({ typedArrays }).encode(place(field(copy))));
      expect(hex(encoder.encode(place(field(bytes)))), what).toBe(want);
    }
  });

  test('1: encode({ b: encoder.encodeSharedRef(v) }) on the same Encoder writes b whole', () => {
    const encoder = new fm.Encoder();
    const ref = encoder.encodeSharedRef({ hello: 'world' });
    expect(hex(encoder.encode({ b: ref }))).toBe(hex(msgpack.encode({ b: msgpack.encode({ hello: 'world' }) })));
  });

  test('2: a packView() output as a bin after a typed-array field keeps its own bytes', () => {
    const x = fm.packView(Float32Array.of(1, 2, 3));
    const want = x.slice();
    const back = fm.decode(fm.encode({ t: new Float32Array(2000), b: x }));
    expect(hex(back.b)).toBe(hex(want));
  });

  test('7: encodeInto() of a target a getter detaches is DETACHED, with no `needed`', () => {
    const target = new Uint8Array(100);
    const value = {
      get x() {
        structuredClone(target.buffer, { transfer: [target.buffer] });
        return 1;
      },
    };
    const err = catchError(() => fm.encodeInto(value, target));
    expect(err).toMatchObject({ name: 'FastmpError', code: 'DETACHED' });
    expect(err.needed).toBeUndefined();
    const small = catchError(() => fm.encodeInto({ x: 'too long for it' }, new Uint8Array(4)));
    expect(small).toBeInstanceOf(RangeError);
    expect(small.needed).toBe(msgpack.encode({ x: 'too long for it' }).length);
  });
});

describe.each(INSTANCES.slice(1))('%s: a target that the call\'s own growth of wasm memory detaches', (name) => {
  const options = { backend: name === 'wasm SIMD' ? 'simd' : 'scalar' };
  const big = { big: new Float32Array(1_500_000).fill(0.5) }; // grows a fresh instance's memory

  test('7: an alloc() target is found again and written; a subarray of one is STALE', () => {
    const fm = createFastmpSync(options);
    const size = fm.encode(big).length;
    const fresh = createFastmpSync(options);
    const target = fresh.alloc(Uint8Array, size + 8);
    const before = fresh.memoryStats().wasmMemory;
    expect(fresh.encodeInto(big, target, 8)).toBe(size + 8);
    expect(fresh.memoryStats().wasmMemory).toBeGreaterThan(before);
    expect(Buffer.compare(fresh.refresh(target).subarray(8), fm.encode(big))).toBe(0);

    const other = createFastmpSync(options);
    const part = other.alloc(Uint8Array, size + 8).subarray(8);
    expect(catchError(() => other.encodeInto(big, part))).toMatchObject({ code: 'STALE' });
  });
});

// ---- encoders made per call ----------------------------------------------------------------

describe.each(INSTANCES.slice(1))('%s: Encoders made and dropped per call', (name) => {
  const options = { backend: name === 'wasm SIMD' ? 'simd' : 'scalar' };
  const message = { id: 1, frame: new Float32Array(25_000).fill(0.25), tags: ['a', 'b'] }; // 100 KB of floats

  test('5: 2000 new Encoder().encode(100 KB) grow wasm memory by at most 32 MB (no garbage collection needed)', () => {
    const fm = createFastmpSync(options);
    const before = fm.memoryStats().wasmMemory;
    for (let i = 0; i < 2000; i++) {
      const bytes = new fm.Encoder(i % 2 ? { sortKeys: true } : undefined).encode(message);
      if (i % 500 === 0) expect(fm.decode(bytes, { shape: { frame: Float32Array } }).frame).toEqual(message.frame);
    }
    expect(fm.memoryStats().wasmMemory - before).toBeLessThanOrEqual(32 << 20);
  });

  test('3000 new Encoder().encodeSharedRef() never disposed, in a loop that does not yield: wasm memory bounded, every output kept whole', () => {
    const fm = createFastmpSync(options);
    const before = fm.memoryStats().wasmMemory;
    const small = (i) => ({ i, frame: new Float32Array(4000).fill(i) }); // 20 KB: 3000 stores would be 96 MB
    const kept = [];
    for (let i = 0; i < 3000; i++) {
      const view = new fm.Encoder().encodeSharedRef(small(i));
      if (i < 20 || i >= 2950) kept.push([i, view]);
    }
    expect(fm.memoryStats().wasmMemory - before).toBeLessThanOrEqual(8 << 20);
    for (const [i, view] of kept) expect(fm.decode(view, { shape: { frame: Float32Array } }), `output ${i}`).toEqual(small(i));
  });

  test('encodeSharedRef() keeps one store until the next call ends or dispose() (Symbol.dispose)', () => {
    const fm = createFastmpSync(options);
    const before = fm.memoryStats().wasmMemory;
    for (let i = 0; i < 1000; i++) {
      const encoder = new fm.Encoder();
      const view = encoder.encodeSharedRef(message);
      expect(view.length).toBeGreaterThan(125_000);
      if (i % 2) encoder.dispose();
      else encoder[Symbol.dispose]();
      expect(catchError(() => fm.encode({ v: view }))).toMatchObject({ code: 'STALE' });
    }
    expect(fm.memoryStats().wasmMemory - before).toBeLessThanOrEqual(32 << 20);
  });

  test('dispose() lets go of the buffer: a kept Encoder holds no large output after it, and works on', () => {
    const fm = createFastmpSync(options);
    const encoder = new fm.Encoder();
    const large = encoder.encodeSharedRef(message);
    expect(encoder.encodeSharedRef([1]).buffer, 'reused while not disposed').toBe(large.buffer);
    encoder.dispose();
    const after = encoder.encodeSharedRef([2]);
    expect(after.buffer).not.toBe(large.buffer);
    expect(after.buffer.byteLength).toBeLessThan(large.length);
    expect(fm.decode(after)).toEqual([2]);
    expect(catchError(() => fm.decode(large))).toMatchObject({ code: 'STALE' });
  });
});

// An encodeSharedRef() output that expired lies in a store the pool lends again: whatever reads it
// reads another call's message, and whatever writes it writes over another Encoder's live output.
// (Fresh instances: outputs that other tests' dropped encoders hold would make these copies.)
describe.each(OPTIONS)('%s: an encodeSharedRef() output after it expired', (name, options) => {
  /** v1, expired by its encoder's next call, and v2, that call's live output, where v1 lay (the Encoder reuses its buffer). */
  function expiredAndLive() {
    const fm = createFastmpSync(options);
    const first = new fm.Encoder();
    const v1 = first.encodeSharedRef({ who: 'first', n: 1 });
    const v2 = first.encodeSharedRef({ who: 'other', n: 2 });
    expect(v2.buffer, 'the Encoder reused the buffer v1 lies in').toBe(v1.buffer);
    expect(v2.byteOffset).toBe(v1.byteOffset);
    return { fm, v1, v2 };
  }

  test('is STALE to decode() and decodeFrom(), as to encode(), though another output now lies there', () => {
    const { fm, v1, v2 } = expiredAndLive();
    for (const read of [() => fm.decode(v1), () => new fm.Decoder().decodeFrom(v1), () => fm.encode({ bin: v1 })]) {
      expect(catchError(read)).toMatchObject({ code: 'STALE' });
    }
    expect(fm.decode(v2)).toEqual({ who: 'other', n: 2 });
  });

  test('is STALE as an encodeInto() target, and the live output it overlaps stays whole', () => {
    const { fm, v1, v2 } = expiredAndLive();
    expect(catchError(() => new fm.Encoder().encodeInto({ who: 'third', n: 3 }, v1))).toMatchObject({ code: 'STALE' });
    expect(fm.decode(v2)).toEqual({ who: 'other', n: 2 });
  });

  test('live, it is no encodeInto() target (TypeError), and stays whole', () => {
    const { fm, v2 } = expiredAndLive();
    expect(() => new fm.Encoder().encodeInto({ who: 'third', n: 3 }, v2)).toThrow(TypeError);
    expect(fm.decode(v2)).toEqual({ who: 'other', n: 2 });
  });
});

describe.each(OPTIONS.slice(1))('%s: views of an Encoder\'s output', (name, options) => {
  const fm = createFastmpSync(options);

  test('a live encodeSharedRef() output or packView() output is no encodeInto() target (TypeError), and stays whole', () => {
    const v2 = new fm.Encoder().encodeSharedRef({ who: 'other', n: 2 });
    expect(() => new fm.Encoder().encodeInto({ who: 'third', n: 3 }, v2)).toThrow(TypeError);
    expect(fm.decode(v2)).toEqual({ who: 'other', n: 2 });
    const packed = fm.packView(new Float64Array(40).fill(0.5));
    const copy = packed.slice();
    expect(() => fm.encodeInto('x'.repeat(50), packed)).toThrow(TypeError);
    expect(packed).toEqual(copy);
  });

  test('a view made of an expired output (subarray(), its buffer and offset) is STALE, the output itself too, to the bare API as to decode()', () => {
    const encoder = new fm.Encoder();
    const v = encoder.encodeSharedRef([1, 2, 3]);
    expect(fm.decode(v.subarray(0))).toEqual([1, 2, 3]); // (while it lives, a view of it reads it)
    encoder.dispose(); // it expires
    for (const x of [v, v.subarray(0), new Uint8Array(v.buffer, v.byteOffset, v.length)]) {
      expect(catchError(() => fm.decode(x))).toMatchObject({ code: 'STALE' });
      expect(catchError(() => fm.unpack(x, Int8Array))).toMatchObject({ code: 'STALE' });
    }
  });
});

// A freed alloc() array or an expired output, written as bytes (a bin, an ext's payload, 'bin' and
// 'ext' typed arrays) or as the encodeInto target, and views that memory growth detached, given
// to the decoders: refused as every other path refuses them, not read (or written) where other
// arrays now lie.
describe.each(OPTIONS.slice(1))('%s: freed and expired views on the message paths', (name, options) => {
  const fm = createFastmpSync(options);
  const codeOf = (fn) => catchError(fn).code;

  test('a freed alloc() array is FREED however the encoder writes it, though another array now lies there', () => {
    const f = fm.alloc(Float32Array, 4);
    f.set([1, 2, 3, 4]);
    fm.free(f);
    const other = fm.alloc(Float32Array, 4);
    expect(other.byteOffset, 'alloc() took the freed memory again').toBe(f.byteOffset);
    other.fill(9);
    for (const typedArrays of ['array', 'bin', 'ext']) expect(codeOf(() => fm.encode({ v: f }, { typedArrays })), typedArrays).toBe('FREED');
    const bytes = new Uint8Array(f.buffer, f.byteOffset, 16);
    fm.free(other);
    const x = fm.alloc(Uint8Array, 16);
    expect(x.byteOffset).toBe(bytes.byteOffset);
    fm.free(x);
    expect(codeOf(() => fm.encode({ b: x }))).toBe('FREED');
    expect(codeOf(() => fm.encode(new ExtData(5, x)))).toBe('FREED');
  });

  test('an expired packView() output is STALE as a bin or an ext payload', () => {
    const old = fm.packView(Int8Array.of(1, 2, 3), { bin: false });
    fm.packView(Int8Array.of(7, 8, 9), { bin: false });
    expect(codeOf(() => fm.encode({ b: old }))).toBe('STALE');
    expect(codeOf(() => fm.encode(new ExtData(1, old)))).toBe('STALE');
  });

  test('encodeInto() of a freed alloc() target is FREED, and the array alloc() put there keeps its bytes; so when a getter frees it mid-call', () => {
    const t = fm.alloc(Uint8Array, 64);
    fm.free(t);
    const other = fm.alloc(Uint8Array, 64).fill(0xaa);
    expect(other.byteOffset).toBe(t.byteOffset);
    expect(codeOf(() => fm.encodeInto({ hello: 'x' }, t))).toBe('FREED');
    expect(codeOf(() => new fm.Encoder().encodeInto({ hello: 'x' }, t))).toBe('FREED');
    expect(fm.refresh(other).every((b) => b === 0xaa)).toBe(true);
    fm.free(other);
    const target = fm.alloc(Uint8Array, 64);
    let next;
    const value = {
      get a() {
        fm.free(target);
        next = fm.alloc(Uint8Array, 64).fill(0xbb);
        return 1;
      },
    };
    expect(codeOf(() => fm.encodeInto(value, target))).toBe('FREED');
    expect(next.byteOffset).toBe(target.byteOffset);
    expect(fm.refresh(next).every((b) => b === 0xbb)).toBe(true);
  });

  test('the decoders and the encodeInto target: a view memory growth detached is STALE, a freed array FREED, as to unpack()', () => {
    // A little more memory, as any call that grows it adds (this detaches every view of it).
    const grow = () => growMemory(fm);
    const made = {
      STALE: () => {
        const a = fm.alloc(Uint8Array, 4);
        a.set([0x93, 1, 2, 3]);
        grow();
        return a;
      },
      FREED: () => {
        const a = fm.alloc(Uint8Array, 4);
        fm.free(a);
        grow();
        return a;
      },
    };
    for (const [code, make] of Object.entries(made)) {
      for (const [call, fn] of [
        ['unpack', (x) => fm.unpack(x, Int8Array)], ['decode', (x) => fm.decode(x)], ['decodeFrom', (x) => fm.decodeFrom(x)],
        ['Decoder.decode', (x) => new fm.Decoder().decode(x)], ['encodeInto', (x) => fm.encodeInto(1, x)],
      ]) {
        expect(codeOf(() => fn(make())), `${call}, ${code}`).toBe(code);
      }
    }
  });
});

// User code run mid-decode (a mapKeyConverter, an extension's decode) that detaches or shrinks the
// input: the decode stops with DETACHED, naming the byte, not an engine TypeError from within.
describe.each(OPTIONS)('%s: an input detached by user code during the decode', (name, options) => {
  const fm = createFastmpSync(options);
  const detach = (view) => structuredClone(view.buffer, { transfer: [view.buffer] });
  const bytes = () => fm.encode({ a: 1, b: [1, 2, 3], c: 'text' });

  test.each([
    ['a mapKeyConverter transfers its buffer', (input) => ({ mapKeyConverter: (k) => (detach(input), k) })],
    ['a mapKeyConverter shrinks its resizable buffer', (input) => ({ mapKeyConverter: (k) => (input.buffer.resize(2), k) })],
  ])('%s: DETACHED', (what, optionsOf) => {
    const original = bytes();
    const buffer = new ArrayBuffer(original.length, { maxByteLength: 1024 });
    const input = new Uint8Array(buffer);
    input.set(original);
    const err = catchError(() => fm.decode(input, optionsOf(input)));
    expect(err).toBeInstanceOf(FastmpError);
    expect(err).toMatchObject({ code: 'DETACHED', offset: 1 });
  });

  test('an extension\'s decode transfers the buffer: DETACHED', () => {
    const codec = new ExtensionCodec();
    let input;
    codec.register({ type: 3, encode: () => null, decode: () => (detach(input), 'x') });
    input = Uint8Array.from([0x92, 0xd4, 0x03, 0x00, 0x01]);
    expect(catchError(() => fm.decode(input, { extensionCodec: codec }))).toMatchObject({ code: 'DETACHED', offset: 1 });
  });
});

// ---- another thread writing an input ---------------------------------------------------------

describe.each([['pure JS', { backend: 'js' }], ['wasm, pure-JS path', { pureJs: 'always' }]])('%s', (name, options) => {
  // Values whose msgpack forms differ in size (1 and 5 bytes; 1 and 9), flipped as fast as the thread can.
  test.each([['Int32Array', Int32Array, 'i % 3 ? 1 : 100000'], ['BigInt64Array', BigInt64Array, 'BigInt(i % 3 ? 1 : 2 ** 40)']])(
    '6: pack() of a %s in a SharedArrayBuffer that a Worker writes: every output is well-formed msgpack',
    async (_, Type, value) => {
      const fm = createFastmpSync(options);
      const shared = new SharedArrayBuffer(1000 * Type.BYTES_PER_ELEMENT);
      const x = new Type(shared);
      const worker = new Worker(`
        const { workerData } = require('node:worker_threads');
        const x = new ${Type.name}(workerData);
        for (let i = 0; ; i++) x[i % x.length] = ${value};`, { eval: true, workerData: shared });
      let bad = 0;
      const end = Date.now() + 1500;
      try {
        await new Promise((resolve) => setTimeout(resolve, 50));
        for (let k = 0; Date.now() < end; k++) {
          for (const input of [x, x.subarray(0, 50), x.subarray(0, 8)]) {
            try {
              if (msgpack.decode(fm.pack(input), { useBigInt64: true }).length !== input.length) bad++;
            } catch {
              bad++;
            }
          }
        }
      } finally {
        await worker.terminate();
      }
      expect(bad).toBe(0);
    },
  );
});

// ---- streams ------------------------------------------------------------------------------

describe('streams', () => {
  const values = [{ a: 1, s: 'x'.repeat(40), b: Uint8Array.of(1, 2, 3) }, [1, 2, 3], 'hello world', { nested: { bin: new Uint8Array(300).fill(7) } }];
  const bytes = Uint8Array.from(values.flatMap((v) => [...msgpack.encode(v)]));

  test('3: a source that refills one buffer for every chunk, at every chunk size: the values, and bins that stay intact', async () => {
    const want = [...msgpack.decodeMulti(bytes)].map((v) => structuredClone(v));
    for (let size = 1; size <= bytes.length; size += size < 48 ? 1 : 37) {
      const got = await collect(INSTANCES[1][1].decodeMultiStream(refilled(bytes, size)));
      expect(difference(got, want), `chunks of ${size}`).toBe('');
      const [one] = await collect(INSTANCES[1][1].decodeArrayStream(refilled(msgpack.encode([values[3]]), size)));
      expect(difference(one, values[3]), `array stream, chunks of ${size}`).toBe('');
    }
  });

  /**
   * The work of one stream decode per input byte: the bytes the decoder is
   * given, and the bytes the scanner reads on, summed over every call.
   */
  async function workOf(decode, input, size) {
    let work = 0;
    const { decodeFrom } = BaseDecoder.prototype;
    const { scan } = ValueScanner.prototype;
    vi.spyOn(BaseDecoder.prototype, 'decodeFrom').mockImplementation(function counted(b, offset) {
      work += b.length - (offset ?? 0);
      return decodeFrom.call(this, b, offset);
    });
    vi.spyOn(ValueScanner.prototype, 'scan').mockImplementation(function counted(b, length) {
      work += Math.max(0, length - this.next);
      return scan.call(this, b, length);
    });
    try {
      await decode(chunked(input, [size]));
      return work / input.length;
    } finally {
      vi.restoreAllMocks();
    }
  }

  test('4: work is linear in the bytes whatever the chunking: each byte decoded and scanned a bounded number of times', async () => {
    const fm = INSTANCES[1][1];
    const big = msgpack.encode({ list: Array.from({ length: 12_000 }, (_, i) => ({ i, s: 'abc', f: i / 3 })) }); // ~200 KB
    const typed = fm.encode({ t: new Float32Array(40_000).fill(1.25), id: 'x' });
    for (const size of [1, 16, 64, 1000]) {
      expect(await workOf((s) => fm.decodeAsync(s), big, size), `chunks of ${size}`).toBeLessThan(4);
      expect(await workOf((s) => fm.decodeAsync(s, { shape: { t: Float32Array } }), typed, size), `typed, chunks of ${size}`).toBeLessThan(4);
    }
    const many = Uint8Array.from(Array.from({ length: 500 }, (_, i) => [...msgpack.encode({ i, s: 'y'.repeat(i % 50) })]).flat());
    for (const size of [1, 7, 64]) expect(await workOf((s) => collect(fm.decodeMultiStream(s)), many, size)).toBeLessThan(4);
  });

  test('many shaped values from one input (decodeMulti, a stream\'s one chunk) copy each byte into wasm memory a bounded number of times', async () => {
    const fm = INSTANCES[1][1];
    const shape = { v: Float64Array, w: BigUint64Array };
    const one = (i) => fm.encode({ v: new Float64Array(3).fill(i / 2), w: BigUint64Array.of(BigInt(i)) });
    const input = Uint8Array.from(Array.from({ length: 3000 }, (_, i) => [...one(i)]).flat());
    // Every copy into wasm memory of a shaped decode's input is a window its reader copies (js/io.js FieldReader).
    const copied = async (decodeAll) => {
      let bytes = 0;
      const { copyFrom } = FieldReader.prototype;
      vi.spyOn(FieldReader.prototype, 'copyFrom').mockImplementation(function counted(heap, offset, len) {
        copyFrom.call(this, heap, offset, len);
        bytes += this.to - this.from;
      });
      try {
        const got = await decodeAll();
        expect(got).toHaveLength(3000);
        expect(got[2999].v).toEqual(new Float64Array(3).fill(2999 / 2));
        expect(got[2999].w).toEqual(BigUint64Array.of(2999n));
      } finally {
        vi.restoreAllMocks();
      }
      return bytes / input.length;
    };
    // (Each value's fields are copied in and their elements out: a few bytes a byte; the whole
    // rest of the input for each value would be a thousand.)
    for (const [name, decodeAll] of [
      ['decodeMulti', () => [...fm.decodeMulti(input, { shape })]],
      ['decodeMultiStream, one chunk', () => collect(fm.decodeMultiStream(chunked(input, [input.length]), { shape }))],
    ]) {
      const perByte = await copied(decodeAll);
      expect(perByte, name).toBeGreaterThan(0.5);
      expect(perByte, name).toBeLessThan(8);
    }
  });

  test('a limit met in a value still arriving is reported at once, not after the bytes it claims', async () => {
    const fm = INSTANCES[0][1];
    let pulled = 0;
    async function* endless() {
      yield Uint8Array.of(0x82, 0xa1, 0x61, 0x01, 0xa1, 0x62, 0xdb, 0x7f, 0xff, 0xff, 0xff); // { a: 1, b: str of 2 GB }
      for (;;) {
        pulled++;
        yield new Uint8Array(64).fill(0x41);
      }
    }
    const err = await fm.decodeAsync(endless(), { maxStrLength: 1000 }).catch((e) => e);
    expect(err).toMatchObject({ code: 'MAX_LENGTH', path: '$.b', streamOffset: 0 });
    expect(pulled).toBe(0);
    async function* deep() {
      for (let i = 0; ; i++) yield Uint8Array.of(0x91);
    }
    expect(await fm.decodeAsync(deep(), { maxDepth: 50 }).catch((e) => e)).toMatchObject({ code: 'DEPTH' });
  });

  test('random values in random chunkings and refilled buffers: what decodeMulti() reads from the whole', async () => {
    const fm = INSTANCES[2][1];
    await fc.assert(fc.asyncProperty(fc.array(anyValue(), { minLength: 1, maxLength: 6 }), fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 5 }), async (list, sizes) => {
      const whole = Uint8Array.from(list.flatMap((v) => [...fm.encode(v)]));
      const want = [...fm.decodeMulti(whole)];
      expect(difference(await collect(fm.decodeMultiStream(chunked(whole, sizes))), want)).toBe('');
      expect(difference(await collect(fm.decodeMultiStream(refilled(whole, sizes[0]))), want)).toBe('');
    }), { numRuns: 300 });
  });
});

// A view from offset 0 that ends within wasm memory's first kilobyte is taken
// for memory outside without asking for its buffer (lifetimes.js
// outsideForSure()). One made of wasm memory itself, met as a call grows
// memory, is read before the growth, which detaches it.
describe('a view of wasm memory\'s first bytes, met as the call grows memory, is read as it was before', () => {
  /**
   * A fresh instance whose free wasm memory is used up (64 KB arrays until
   * memory grew: less than 64 KB is left), so that the next allocation of
   * 64 KB or more grows memory; and its memory's buffer, read from an alloc() array.
   */
  function exhausted() {
    const fm = createFastmpSync();
    const probe = fm.alloc(Uint8Array, 1);
    const before = fm.memoryStats().wasmMemory;
    while (fm.memoryStats().wasmMemory === before) fm.alloc(Uint8Array, 1 << 16);
    return { fm, probe };
  }

  /**
   * fn(view) of a `Type` view of `values` written at address 0 (below every
   * module's slot: no wasm code uses it; put back after), as the view was
   * made before the call.
   */
  function atAddressZero({ fm, probe }, Type, values, fn) {
    const bytes = new Uint8Array(Type.from(values).buffer);
    const saved = new Uint8Array(fm.refresh(probe).buffer, 0, bytes.length).slice();
    new Uint8Array(fm.refresh(probe).buffer, 0, bytes.length).set(bytes);
    try {
      const view = new Type(fm.refresh(probe).buffer, 0, values.length);
      fn(view);
      expect(view.length, 'the view was detached during the call').toBe(0);
    } finally {
      new Uint8Array(fm.refresh(probe).buffer, 0, bytes.length).set(saved); // (memory's buffer after the growth: the contents moved with it)
    }
  }

  const floats = [1.5, -2, 3.25];
  const ints = Array.from({ length: 200 }, (_, i) => i * 7 - 600);

  test('a message field, packed by JS and by the kernel', () => {
    for (const [Type, values, path] of [[Float32Array, floats, 'packed by JS'], [Int32Array, ints, 'packed by the kernel']]) {
      const state = exhausted();
      const { fm } = state;
      const encoder = new fm.Encoder({ initialBufferSize: 1 << 16 });
      encoder.encode(0); // its store exists: the growth below is the field's
      const pad = new Uint8Array((1 << 16) - 30); // a bin that leaves the store too little room for the field after it
      atAddressZero(state, Type, values, (x) => {
        const out = encoder.encode([pad, x]);
        expect(hex(out.subarray(out.length - fm.pack(Type.from(values), { bin: false }).length)), path).toBe(hex(fm.pack(Type.from(values), { bin: false })));
      });
    }
  });

  test('a bin field', () => {
    const state = exhausted();
    const { fm } = state;
    const encoder = new fm.Encoder({ initialBufferSize: 1 << 16 });
    encoder.encode(0); // its store exists: the growth below is the field's
    const pad = new Uint8Array((1 << 16) - 20);
    const values = Array.from({ length: 16 }, (_, i) => 200 - i);
    atAddressZero(state, Uint8Array, values, (x) => {
      const out = encoder.encode([pad, x]); // the store's 64 KB cannot hold the bin too
      expect(fm.decode(out)[1]).toEqual(Uint8Array.from(values));
    });
  });

  // The bare API's calls need no more scratch for such a view than scratch
  // holds from its first use (64 KB: MIN_SCRATCH), and a view of wasm memory
  // can be had only after that use: they never grow memory while reading one.
  test('pack() and unpack() of the bare API read it without growing memory', () => {
    const state = exhausted();
    const before = state.fm.memoryStats().wasmMemory;
    const read = (Type, values, fn) => {
      const bytes = new Uint8Array(Type.from(values).buffer);
      const memory = new Uint8Array(state.fm.refresh(state.probe).buffer, 0, bytes.length);
      const saved = memory.slice();
      memory.set(bytes);
      try {
        fn(new Type(memory.buffer, 0, values.length));
      } finally {
        new Uint8Array(state.fm.refresh(state.probe).buffer, 0, bytes.length).set(saved);
      }
    };
    read(Int32Array, ints, (x) => expect(hex(state.fm.pack(x))).toBe(hex(state.fm.pack(Int32Array.from(ints)))));
    const values = Int32Array.from({ length: 100 }, (_, i) => i); // fixints: unpacked by the kernel
    read(Uint8Array, state.fm.pack(values), (input) => expect(state.fm.unpack(input, Int32Array)).toEqual(values));
    expect(state.fm.memoryStats().wasmMemory).toBe(before);
  });

});

