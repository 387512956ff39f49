// audit-regressions.test.js - the third audit's findings (issue 41), each a
// test that failed on d3de7ab. The aliasing rule on every port (finding 3)
// is the port contract's (test/port-contract.test.js); the speed of
// decodeFrom() loops and of alloc() / free() is the bench's
// (bench/linearity.js), where rows show that 4x the work costs about 4x the time.
import { ExtensionCodec as MsgpackCodec, decode as msgpackDecode, encode as msgpackEncode } from '@msgpack/msgpack';
import { describe, expect, test } from 'vitest';
import {
  Decoder, ExtensionCodec, FastmpError, alloc, asBools, createFastmpSync, decode, decodeAsync, decodeFrom, decodeMulti, encode, free,
  refresh,
} from '../js/node.js';
import { catchError } from './messages-helpers.js';

const detachedDataView = () => {
  const buffer = new ArrayBuffer(8);
  const view = new DataView(buffer);
  structuredClone(buffer, { transfer: [buffer] });
  return view;
};


describe('1: an extension codec is asked first for ext 0x74 and 0x72, whoever made it', () => {
  class Point {
    constructor(x, y) {
      this.x = x;
      this.y = y;
    }
  }
  const registered = (Codec) => {
    const codec = new Codec();
    codec.register({ type: 0x74, encode: (v) => (v instanceof Point ? Uint8Array.of(v.x, v.y) : null), decode: (d) => new Point(d[0], d[1]) });
    codec.register({ type: 0x72, encode: null, decode: (d) => ({ record: d.length }) });
    return codec;
  };

  test.each([['@msgpack/msgpack', MsgpackCodec], ['fastmp', ExtensionCodec]])('%s\'s codec with decoders of 0x74 and 0x72', (_, Codec) => {
    const codec = registered(Codec);
    const point = msgpackEncode(new Point(1, 9), { extensionCodec: codec });
    expect(decode(point, { extensionCodec: codec })).toEqual(new Point(1, 9));
    expect(msgpackDecode(point, { extensionCodec: codec })).toEqual(new Point(1, 9)); // (what the peer reads)
    expect(decode(Uint8Array.of(0xd4, 0x72, 5), { extensionCodec: codec })).toEqual({ record: 1 });
  });

  test.each([['@msgpack/msgpack', MsgpackCodec], ['fastmp', ExtensionCodec]])('%s\'s codec without them: msgpackr\'s typed array, and records refused', (_, Codec) => {
    const codec = new Codec();
    const typed = Uint8Array.of(0xc7, 5, 0x74, 7, 0, 0, 0, 0xc0); // ext 8 0x74: one Float32 (code 7), -2
    expect(decode(typed, { extensionCodec: codec })).toEqual(Float32Array.of(-2));
    expect(catchError(() => decode(Uint8Array.of(0xd4, 0x72, 5), { extensionCodec: codec })).code).toBe('UNSUPPORTED');
  });
});

describe('2: a shaped decode near the 4 GiB limit', () => {
  // A message of twelve 144 KB fields: the decode copies it into wasm memory
  // in windows of 144 KB, 288 KB, 576 KB and then the 1 MB left. With wasm
  // memory 1.5 MB short of 4 GiB, a window may be had only at its exact
  // size; a later, longer window must grow the region again, not be copied
  // past it. (At d3de7ab the region recorded the power of two it asked for,
  // not the exact size it got, and the last window was written past it.)
  test('decodes right or says memory is full, and never writes past its region', () => {
    const fm = createFastmpSync({ backend: 'simd' });
    const MB = 2 ** 20;
    const field = new Float64Array(16000).map((_, i) => i + 0.25);
    const bytes = fm.encode({ f: Array.from({ length: 12 }, () => field) });
    const memory = () => fm.memoryStats().wasmMemory;
    const held = [fm.alloc(Int8Array, 2 ** 30)];
    held.push(fm.alloc(Int8Array, 2 ** 32 - memory() - 8 * MB));
    while (memory() < 4094.5 * MB) held.push(fm.alloc(Int8Array, 1 << 16));
    const victim = fm.alloc(Uint8Array, 100_000).fill(0xab);
    for (let i = 0; i < 2; i++) {
      try {
        const back = fm.decode(bytes, { shape: { f: [Float64Array] } });
        expect(back.f.every((a) => a.every((v, j) => v === field[j]))).toBe(true);
      } catch (err) {
        expect(err).toBeInstanceOf(RangeError);
        expect(err.message).toMatch(/^fastmp: wasm memory cannot grow/);
      }
    }
    expect(fm.refresh(victim).every((b) => b === 0xab)).toBe(true);
  });
});

describe('4: decodeFrom() and decodeMulti() copy a value, not the rest of the input, whatever memory it lies in', () => {
  const one = encode({ a: 1, b: 'xyzxyzxyzxyz' });
  const COUNT = 2000;
  const fill = (bytes) => {
    for (let i = 0; i < COUNT; i++) bytes.set(one, i * one.length);
    return bytes;
  };
  const INPUTS = [
    ['a SharedArrayBuffer', () => fill(new Uint8Array(new SharedArrayBuffer(one.length * COUNT)))],
    ['an alloc() array', () => fill(alloc(Uint8Array, one.length * COUNT))],
  ];

  /** The bytes that TypedArray.prototype.slice and set copy while fn runs. */
  function bytesCopied(fn) {
    const proto = Object.getPrototypeOf(Uint8Array.prototype);
    const { slice, set } = proto;
    let copied = 0;
    proto.slice = function countedSlice(...args) {
      const out = slice.apply(this, args);
      copied += out.byteLength;
      return out;
    };
    proto.set = function countedSet(source, offset) {
      copied += source.byteLength ?? source.length;
      return set.call(this, source, offset);
    };
    try {
      fn();
    } finally {
      proto.slice = slice;
      proto.set = set;
    }
    return copied;
  }

  test.each(INPUTS)('%s: Decoder.decodeFrom(bytes, offset) in a loop', (_, make) => {
    const bytes = make();
    const decoder = new Decoder();
    let values = 0;
    const copied = bytesCopied(() => {
      for (let offset = 0; offset < bytes.length; values++) offset = decoder.decodeFrom(bytes, offset).end;
    });
    expect(values).toBe(COUNT);
    expect(copied).toBeLessThan(4 * bytes.length);
  });

  test.each(INPUTS)('%s: decodeFrom(bytes.subarray(offset)) in a loop', (_, make) => {
    const bytes = make();
    let values = 0;
    const copied = bytesCopied(() => {
      for (let offset = 0; offset < bytes.length; values++) offset += decodeFrom(bytes.subarray(offset)).end;
    });
    expect(values).toBe(COUNT);
    expect(copied).toBeLessThan(4 * bytes.length);
  });

  test('a reuseTypedArrays Decoder\'s decodeMulti() of its own returned array: one copy', () => {
    const decoder = new Decoder({ shape: { v: Float32Array }, reuseTypedArrays: true });
    const kept = decoder.decode(encode({ v: new Float32Array(COUNT) })).v;
    const bytes = new Uint8Array(kept.buffer);
    for (let i = 0; i < COUNT; i++) bytes.set([0x81, 0xa1, 0x76, 0x90], 4 * i); // { v: [] }, in its 4 * COUNT bytes
    let values = 0;
    const copied = bytesCopied(() => {
      for (const value of decoder.decodeMulti(bytes)) values += value.v.length === 0 ? 1 : 0;
    });
    expect(values).toBe(COUNT);
    expect(copied).toBeLessThan(4 * bytes.length);
  });

  test('values read from a copy are right, and hold none of the Decoder\'s reused buffer', () => {
    const bin = Uint8Array.of(1, 2, 3);
    const one = encode({ bin, s: 'x' });
    const bytes = new Uint8Array(new SharedArrayBuffer(3 * one.length));
    for (let i = 0; i < 3; i++) bytes.set(one, i * one.length);
    const decoder = new Decoder();
    const first = decoder.decodeFrom(bytes, 0);
    const second = decoder.decodeFrom(bytes, first.end);
    const third = decoder.decodeFrom(bytes, second.end);
    expect(third.end).toBe(bytes.length);
    for (const { value } of [first, second, third]) expect(value).toEqual({ bin, s: 'x' });
    expect(second.value.bin.buffer).not.toBe(third.value.bin.buffer);
    // An error in a later value counts its offset in the whole input.
    const cut = bytes.slice(0, 2 * one.length - 1);
    const err = catchError(() => decoder.decodeFrom(new Uint8Array(new SharedArrayBuffer(cut.length)).fill(0).map((_, i) => cut[i]), one.length));
    expect(['TRUNCATED', 'LENGTH']).toContain(err.code);
    expect(err.offset).toBeGreaterThanOrEqual(one.length);
  });
});

describe('5: alloc() and free() keep their books in O(log n) a call', () => {
  // Counts the records the bookkeeping's array methods go over (each call's
  // length): quadratic bookkeeping (a filter of every freed range at each
  // alloc(), a search and a splice of every live one) went over ~n^2 / 2.
  test('5 000 allocs, 5 000 frees, 5 000 allocs: the array methods go over a few records a call', () => {
    const n = 5000;
    const proto = Array.prototype;
    const methods = ['filter', 'splice', 'indexOf', 'findIndex', 'some', 'find'];
    const saved = methods.map((m) => proto[m]);
    let visited = 0;
    methods.forEach((m, i) => {
      proto[m] = function counted(...args) {
        visited += this.length;
        return saved[i].apply(this, args);
      };
    });
    let arrays;
    try {
      arrays = Array.from({ length: n }, () => alloc(Float32Array, 4));
      for (const x of arrays) free(x);
      arrays = Array.from({ length: n }, () => alloc(Float32Array, 4));
    } finally {
      methods.forEach((m, i) => {
        proto[m] = saved[i];
      });
    }
    for (const x of arrays) free(x);
    expect(visited / (3 * n)).toBeLessThan(300);
  });

  test('a subarray of a freed array is FREED, of a live one read in place, after thousands of others came and went', () => {
    const keep = alloc(Float32Array, 8).fill(2);
    const gone = alloc(Float32Array, 8);
    const others = Array.from({ length: 3000 }, (_, i) => alloc(Int32Array, i % 7));
    others.forEach((x, i) => i % 2 === 0 && free(x));
    const part = gone.subarray(2, 6);
    free(gone);
    expect(catchError(() => encode({ part })).code).toBe('FREED');
    expect(decode(encode({ part: keep.subarray(1, 3) }), { shape: { part: Float32Array } }).part).toEqual(Float32Array.of(2, 2));
    others.forEach((x, i) => i % 2 === 1 && free(x));
    free(keep);
  });
});

describe('6: a detached DataView input is DETACHED on every entry point', () => {
  test.each([
    ['decode', (x) => decode(x)],
    ['decodeFrom', (x) => decodeFrom(x)],
    ['decodeMulti', (x) => [...decodeMulti(x)]],
    ['createFastmpSync({ backend: "js" }).decode', (x) => createFastmpSync({ backend: 'js' }).decode(x)],
  ])('%s', (fn, call) => {
    const err = catchError(() => call(detachedDataView()));
    expect(err).toBeInstanceOf(FastmpError);
    expect(err.code).toBe('DETACHED');
    expect(err.message).toContain(`${fn.split('.').at(-1)}() was given a DataView whose buffer is detached`);
  });

  test('as a stream chunk', async () => {
    const err = await decodeAsync((async function* chunks() {
      yield detachedDataView();
    })()).catch((e) => e);
    expect(err.code).toBe('DETACHED');
  });

  test('encode() names it a DataView', () => {
    const err = catchError(() => encode({ d: detachedDataView() }));
    expect(err.code).toBe('DETACHED');
    expect(err.message).toContain('encode() was given a DataView whose buffer is detached');
  });
});

describe('7: every growth-detached alloc() array is STALE, asBools() too', () => {
  test('asBools(), pack() and encode() of an alloc() array that memory growth detached', () => {
    const bools = alloc(Uint8Array, 16).fill(1);
    const grow = alloc(Uint8Array, 64 << 20); // wasm memory grows: `bools` is detached
    try {
      expect(catchError(() => asBools(bools)).code).toBe('STALE');
      expect(catchError(() => encode({ bools })).code).toBe('STALE');
      expect(asBools(refresh(bools)).length).toBe(16);
    } finally {
      free(grow);
      free(bools);
    }
  });
});
