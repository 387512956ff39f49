// Bad input and hostile values: lying lengths, limits, deep and cyclic
// nesting, __proto__ keys, invalid UTF-8, input cut at every byte, trailing
// bytes, msgpackr records, bad options and values whose getters misbehave.
// Each gives a documented FastmpError (or TypeError / RangeError for misuse),
// never a crash, a stack overflow, a huge allocation or a polluted prototype.

import vm from 'node:vm';
import * as msgpack from '@msgpack/msgpack';
import { Packr } from 'msgpackr';
import { describe, expect, test } from 'vitest';
import { FastmpError } from '../js/errors.js';
import { createFastmpSync } from '../js/index.js';
import {
  BoolArray, Decoder, Encoder, ExtensionCodec, asBools, decode, decodeFrom, encode, mapOf,
} from '../js/codec/index.js';
import { catchError, difference, hex } from './messages-helpers.js';

const bytesOf = (...parts) => Uint8Array.from(parts.flat(2));

describe('lying lengths never allocate', () => {
  const claims = {
    'array 32 of 2^32-1': [0xdd, 0xff, 0xff, 0xff, 0xff, 0xc0],
    'map 32 of 2^32-1': [0xdf, 0xff, 0xff, 0xff, 0xff, 0xa1, 0x61, 0xc0],
    'str 32 of 2^32-1': [0xdb, 0xff, 0xff, 0xff, 0xff, 0x61],
    'bin 32 of 2^32-1': [0xc6, 0xff, 0xff, 0xff, 0xff, 0x00],
    'ext 32 of 2^32-1': [0xc9, 0xff, 0xff, 0xff, 0xff, 0x01, 0x00],
    'array 16 inside an array': [0x91, 0xdc, 0xff, 0xff, 0x01],
    'map 16 of 3 entries in 5 bytes': [0xde, 0x00, 0x03, 0xa1, 0x61, 0x01, 0xa1],
  };
  test.each(Object.entries(claims))('%s: LENGTH, with the bytes it would need', (name, parts) => {
    const bytes = bytesOf(parts);
    const err = catchError(() => decode(bytes));
    expect(err).toBeInstanceOf(FastmpError);
    expect(err.code).toBe('LENGTH');
    expect(err.needed).toBeGreaterThan(bytes.length);
    expect(() => msgpack.decode(bytes)).toThrow();
  });

  test('a claim one element beyond the bytes left is refused before anything is read', () => {
    for (const bytes of [[0x93, 0xc0, 0xc0], [0x82, 0xa1, 0x61, 0xc0], [0xa3, 0x61, 0x61], [0xc4, 0x03, 0, 0]]) {
      expect(catchError(() => decode(bytes))).toMatchObject({ code: 'LENGTH', offset: 0, needed: bytes.length + 1 });
    }
  });

  test('10 000 lying headers cost no memory', () => {
    const bytes = bytesOf(claims['array 32 of 2^32-1']);
    globalThis.gc?.();
    const before = process.memoryUsage().heapUsed;
    for (let i = 0; i < 10_000; i++) expect(() => decode(bytes)).toThrow(FastmpError);
    const grown = process.memoryUsage().heapUsed - before;
    expect(grown).toBeLessThan(64 << 20);
  });

  test('the same holds at shaped positions', () => {
    const err = catchError(() => decode(bytesOf(0x81, 0xa1, 0x76, 0xdd, 0xff, 0xff, 0xff, 0xff, 0xca), { shape: { v: Float32Array } }));
    expect(err).toMatchObject({ code: 'LENGTH', path: '$.v' });
    const bin = catchError(() => decode(bytesOf(0x81, 0xa1, 0x76, 0xc6, 0x7f, 0xff, 0xff, 0xfc, 0), { shape: { v: Float32Array } }));
    expect(bin).toMatchObject({ code: 'LENGTH', path: '$.v' });
  });
});

describe('max*Length options: MAX_LENGTH where @msgpack/msgpack also refuses', () => {
  const value = { str: 'x'.repeat(20), bin: new Uint8Array(20), array: Array(20).fill(0), map: Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`k${i}`, i])), ext: new msgpack.ExtData(1, new Uint8Array(20)) };
  const bytes = msgpack.encode(value);
  for (const option of ['maxStrLength', 'maxBinLength', 'maxArrayLength', 'maxMapLength', 'maxExtLength']) {
    test(option, () => {
      expect(() => msgpack.decode(bytes, { [option]: 19 })).toThrow();
      expect(catchError(() => decode(bytes, { [option]: 19 }))).toMatchObject({ code: 'MAX_LENGTH' });
      expect(difference(decode(bytes, { [option]: 20 }), msgpack.decode(bytes, { [option]: 20 }))).toBe('');
    });
  }
  test('maxBinLength also bounds raw strings; maxStrLength map keys', () => {
    expect(catchError(() => decode(bytes, { rawStrings: true, maxBinLength: 19 }))).toMatchObject({ code: 'MAX_LENGTH' });
    expect(catchError(() => decode(msgpack.encode({ ['k'.repeat(30)]: 1 }), { maxStrLength: 29 }))).toMatchObject({ code: 'MAX_LENGTH' });
  });
});

describe('deep nesting and cyclic values: a clear error, never a stack overflow', () => {
  const deep = (n) => bytesOf(Array(n).fill(0x91), 0xc0);
  test('decode: maxDepth (default 100) counts as the encoder does', () => {
    expect(decode(deep(99)).flat(Infinity)).toEqual([null]);
    expect(catchError(() => decode(deep(100)))).toMatchObject({ code: 'DEPTH', offset: 99 });
    expect(catchError(() => decode(deep(5), { maxDepth: 5 }))).toMatchObject({ code: 'DEPTH' });
    expect(decode(deep(4), { maxDepth: 5 }).flat(Infinity)).toEqual([null]);
    // The same limit as the encoder: what encode(v, { maxDepth }) writes, decode(b, { maxDepth }) reads.
    let v = null;
    for (let i = 0; i < 7; i++) v = i % 2 ? [v] : { k: v };
    expect(() => encode(v, { maxDepth: 7 })).toThrow();
    expect(() => decode(encode(v, { maxDepth: 8 }), { maxDepth: 7 })).toThrow(/too deep/);
    expect(difference(decode(encode(v, { maxDepth: 8 }), { maxDepth: 8 }), v)).toBe('');
  });

  test('decode: 1 000 000 levels with maxDepth Infinity is a DEPTH error, not a RangeError of the engine', () => {
    const err = catchError(() => decode(deep(1_000_000), { maxDepth: Infinity }));
    expect(err).toBeInstanceOf(FastmpError);
    expect(err.code).toBe('DEPTH');
    const maps = catchError(() => decode(bytesOf(Array(200_000).fill([0x81, 0xa1, 0x6b]), 0xc0), { maxDepth: Infinity }));
    expect(maps.code).toBe('DEPTH');
  });

  test('encode: cyclic arrays and objects (as @msgpack/msgpack: /too deep/)', () => {
    const array = [];
    array.push(array);
    const object = {};
    object.self = object;
    for (const cyclic of [array, object, { a: [{ b: object }] }]) {
      const err = catchError(() => encode(cyclic));
      expect(err).toMatchObject({ code: 'DEPTH' });
      expect(err.message).toMatch(/too deep/i);
      expect(() => msgpack.encode(cyclic)).toThrow(/too deep/i);
    }
    expect(catchError(() => encode(object)).path).toBe(`$${'.self'.repeat(100)}`);
  });

  test('encode: deep values with maxDepth Infinity end in DEPTH, not the engine stack', () => {
    let v = 1;
    for (let i = 0; i < 1_000_000; i++) v = [v];
    expect(catchError(() => encode(v, { maxDepth: Infinity }))).toMatchObject({ code: 'DEPTH' });
  });

  test('an Encoder and a Decoder work on after any error', () => {
    const encoder = new Encoder();
    const decoder = new Decoder();
    const cyclic = [];
    cyclic.push(cyclic);
    const good = { foo: 1, bar: 2, baz: ['one', 'two', 'three'] };
    for (const bad of [cyclic, () => 1, Symbol('s'), 1n]) {
      expect(() => encoder.encode(bad)).toThrow();
      expect(hex(encoder.encode(good))).toBe(hex(msgpack.encode(good)));
    }
    for (const bad of [[0xc1], [0x92, 0xc0], [0x90, 0xc0], [], [0x81, 0xc0, 0xc0]]) {
      expect(() => decoder.decode(bad)).toThrow(FastmpError);
      expect(decoder.decode(msgpack.encode(good))).toEqual(good);
    }
  });
});

describe('__proto__ keys never change a prototype', () => {
  test("@msgpack/msgpack's prototype-pollution case: a KEY error", () => {
    const o = { foo: 'bar' };
    Object.defineProperty(o, '__proto__', { value: new Date(0), enumerable: true });
    const encoded = encode(o);
    expect(hex(encoded)).toBe(hex(msgpack.encode(o)));
    expect(() => msgpack.decode(encoded)).toThrow(msgpack.DecodeError);
    expect(catchError(() => decode(encoded))).toMatchObject({ code: 'KEY', path: '${key 1}' });
  });

  test('in nested and shaped maps, as str 8 too, and through mapKeyConverter', () => {
    const key = (s) => [0xd9, s.length, ...Buffer.from(s)];
    const inner = bytesOf(0x81, 0xa1, 0x61, 0x81, key('__proto__'), 0x81, 0xa8, ...Buffer.from('polluted'), 0xc3);
    for (const options of [undefined, { shape: { a: mapOf(Float32Array) } }, { shape: { a: { x: Int8Array } } }, { keyDecoder: null }]) {
      expect(catchError(() => decode(inner, options))).toMatchObject({ code: 'KEY' });
    }
    const renamed = msgpack.encode({ a: 1, b: 2 });
    expect(catchError(() => decode(renamed, { mapKeyConverter: (k) => (k === 'b' ? '__proto__' : k) }))).toMatchObject({ code: 'KEY' });
    expect(catchError(() => decode(renamed, { mapKeyConverter: (k) => (k === 'b' ? { toString: () => '__proto__' } : k) }))).toMatchObject({ code: 'KEY' });
    expect({}.polluted).toBe(undefined);
    expect(Object.prototype.polluted).toBe(undefined);
  });

  test('keys that are not strings or numbers: a KEY error, as @msgpack/msgpack refuses them', () => {
    for (const key of [[0xc0], [0x90], [0x80], [0xc3], [0xc4, 0x00]]) {
      const bytes = bytesOf(0x81, key, 0x01);
      expect(() => msgpack.decode(bytes)).toThrow();
      expect(catchError(() => decode(bytes))).toMatchObject({ code: 'KEY', offset: 1 });
    }
  });
});

describe('invalid UTF-8: a UTF8 error at the str (rawStrings reads the bytes)', () => {
  const fatal = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  const sequences = {
    'overlong 2-byte': [0xc0, 0x80], 'overlong 3-byte': [0xe0, 0x80, 0x80], 'overlong 4-byte': [0xf0, 0x80, 0x80, 0x80],
    'surrogate (WTF-8)': [0xed, 0xa0, 0x80], 'low surrogate': [0xed, 0xbf, 0xbf], 'above U+10FFFF': [0xf4, 0x90, 0x80, 0x80],
    'F5 lead': [0xf5, 0x80, 0x80, 0x80], 'FF byte': [0xff], 'lone continuation': [0x80], 'cut 3-byte': [0xe2, 0x82],
    'cut 4-byte at the end': [0xf0, 0x9f, 0x98], 'bad continuation': [0xc3, 0x28],
  };
  for (const [name, seq] of Object.entries(sequences)) {
    test(name, () => {
      for (const pad of [0, 3, 250]) {
        const text = [...Array(pad).fill(0x61), ...seq];
        expect(() => fatal.decode(Uint8Array.from(text))).toThrow(); // the oracle agrees it is invalid
        const bytes = msgpack.encode(['ok', 'str-to-replace']);
        const body = Uint8Array.from([0x92, 0xa2, 0x6f, 0x6b, 0xdb, 0, 0, text.length >> 8, text.length & 0xff, ...text]);
        expect(catchError(() => decode(body))).toMatchObject({ code: 'UTF8', offset: 4, path: '$[1]' });
        expect([...decode(body, { rawStrings: true })[1]]).toEqual(text);
        const key = Uint8Array.from([0x81, 0xd9, text.length, ...text, 0xc0]);
        if (text.length < 256) expect(catchError(() => decode(key))).toMatchObject({ code: 'UTF8', offset: 1 });
        expect(bytes.length).toBeGreaterThan(0);
      }
    });
  }

  test('valid edges read as TextDecoder reads them; a leading U+FEFF is kept', () => {
    const texts = ['\ufeffbom', '\uffff', '\u{10ffff}', '\u0080', '\u07ff', '\u0800', '\ud7ff\ue000', '😀'.repeat(60), '\ufeff'.repeat(100)];
    for (const t of texts) {
      const bytes = Buffer.from(t, 'utf8');
      expect(fatal.decode(bytes)).toBe(t);
      expect(decode(msgpack.encode(t))).toBe(t);
      expect(decode(msgpack.encode({ [t]: 1 }))).toEqual({ [t]: 1 });
    }
  });
});

describe('input cut at every byte, and trailing bytes', () => {
  const message = {
    nil: null, t: true, f: false, ints: [0, 127, 128, 255, 256, 65535, 65536, 2 ** 32 - 1, 2 ** 32, -1, -33, -129, -32769, -(2 ** 31) - 1],
    floats: [0.5, -1e300], f32: Math.fround(1.5), str: 'x'.repeat(40), long: '€'.repeat(100), bin: new Uint8Array(300),
    date: new Date(1556636810389), d96: new Date(-1002), ext: new msgpack.ExtData(7, new Uint8Array(3)), fix: new msgpack.ExtData(2, new Uint8Array(8)),
    nested: { a: [{ b: [] }], m: {} }, big: Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`key${i}`, i])),
  };
  const bytes = msgpack.encode(message, { forceFloat32: false });
  const f32bytes = msgpack.encode([Math.fround(1.5)], { forceFloat32: true });

  test('every prefix is TRUNCATED or LENGTH, with an offset inside the input; @msgpack/msgpack throws too', () => {
    for (const whole of [bytes, f32bytes]) {
      for (let n = 0; n < whole.length; n++) {
        const prefix = whole.subarray(0, n);
        expect(() => msgpack.decode(prefix), `prefix ${n}`).toThrow();
        const err = catchError(() => decode(prefix));
        expect(err, `prefix ${n}`).toBeInstanceOf(FastmpError);
        expect(['TRUNCATED', 'LENGTH'], `prefix ${n}: ${err.message}`).toContain(err.code);
        expect(err.offset).toBeLessThanOrEqual(n);
        expect(err.needed).toBeGreaterThan(n);
      }
    }
  });

  test('every prefix of a shaped message too', () => {
    const value = { frames: [{ accel: new Float32Array([1, 2, 3]), ids: new Int32Array([1, 1000, -100000]) }], tag: 'x' };
    const shaped = encode(value);
    const shape = { frames: [{ accel: Float32Array, ids: Int32Array }] };
    for (let n = 0; n < shaped.length; n++) {
      const err = catchError(() => decode(shaped.subarray(0, n), { shape }));
      expect(['TRUNCATED', 'LENGTH'], `prefix ${n}: ${err.message}`).toContain(err.code);
    }
  });

  test('trailing bytes: decode() says TRAILING at the end of the value; decodeFrom() returns the end', () => {
    const extra = bytesOf([...bytes], 0xc0, 0x01);
    expect(() => msgpack.decode(extra)).toThrow(RangeError);
    expect(catchError(() => decode(extra))).toMatchObject({ code: 'TRAILING', offset: bytes.length });
    const { value, end } = decodeFrom(extra);
    expect(end).toBe(bytes.length);
    expect(difference(value, msgpack.decode(bytes))).toBe('');
  });

  test('0xc1 is a TAG error; an empty input TRUNCATED', () => {
    expect(catchError(() => decode([0x92, 0x01, 0xc1]))).toMatchObject({ code: 'TAG', offset: 2, path: '$[1]' });
    expect(catchError(() => decode([]))).toMatchObject({ code: 'TRUNCATED', offset: 0 });
  });
});

describe("msgpackr's records (ext 0x72): a clear UNSUPPORTED", () => {
  test('what msgpackr writes by default', () => {
    const bytes = new Packr().pack({ a: 1, list: [{ x: 1 }, { x: 2 }] });
    const err = catchError(() => decode(bytes));
    expect(err).toMatchObject({ code: 'UNSUPPORTED' });
    expect(err.message).toMatch(/record/);
    expect(err.message).toMatch(/useRecords: false/);
  });

  test('unless an extension is registered for 0x72', () => {
    const codec = new ExtensionCodec();
    codec.register({ type: 0x72, encode: null, decode: (data) => `record ${data.length}` });
    expect(decode(bytesOf(0xd4, 0x72, 0x40), { extensionCodec: codec })).toBe('record 1');
  });
});

describe('options: read once, checked, unknown keys refused', () => {
  test('unknown keys are TypeErrors naming the key', () => {
    expect(() => encode(1, { sortkeys: true })).toThrow(/'sortkeys'/);
    expect(() => decode([1], { maxStringLength: 1 })).toThrow(/'maxStringLength'/);
    expect(() => decode([1], { sortKeys: true })).toThrow(TypeError); // an encoder option
    expect(() => new Encoder({ shape: {} })).toThrow(TypeError);
  });

  test('wrong types are TypeErrors', () => {
    const bad = [
      [{ sortKeys: 1 }], [{ forceFloat32: 'yes' }], [{ maxDepth: -1 }], [{ maxDepth: 1.5 }], [{ maxDepth: '5' }],
      [{ initialBufferSize: 0 }], [{ initialBufferSize: 2 ** 40 }], [{ extensionCodec: {} }], [{ typedArrays: 'array ' }], ['options'],
    ];
    for (const [options] of bad) expect(() => new Encoder(options), JSON.stringify(options)).toThrow(TypeError);
    const badDecode = [
      { useBigInt64: 0 }, { rawStrings: null }, { maxStrLength: NaN }, { maxBinLength: -5 }, { mapKeyConverter: 'f' },
      { keyDecoder: {} }, { shape: 'Float32Array' }, { integralFloats: 'no' }, { extensionCodec: { decode: 1 } },
    ];
    for (const options of badDecode) expect(() => new Decoder(options), JSON.stringify(options)).toThrow(TypeError);
  });

  test('each option is read exactly once, however hostile its getter', () => {
    const reads = {};
    const returned = {};
    let flip = false;
    const options = {};
    for (const key of ['sortKeys', 'ignoreUndefined', 'forceFloat32']) {
      Object.defineProperty(options, key, {
        enumerable: true,
        get() {
          reads[key] = (reads[key] ?? 0) + 1;
          flip = !flip;
          returned[key] = flip;
          return flip;
        },
      });
    }
    const value = { b: 1.5, a: undefined };
    const got = encode(value, options);
    expect(reads).toEqual({ sortKeys: 1, ignoreUndefined: 1, forceFloat32: 1 });
    // encoded with what each getter returned the one time it ran
    expect(hex(got)).toBe(hex(msgpack.encode(value, returned)));
  });

  test('a Proxy as options: its traps run, the result is checked the same', () => {
    const seen = [];
    const proxy = new Proxy({ maxDepth: 3 }, { get: (t, k) => { seen.push(k); return t[k]; } });
    expect(() => encode([[[[1]]]], proxy)).toThrow(/too deep/);
    expect(seen.filter((k) => k === 'maxDepth')).toEqual(['maxDepth']);
  });
});

describe('hostile values', () => {
  test('each getter of a value runs once; a throwing getter propagates untouched', () => {
    let calls = 0;
    const value = { get g() { calls++; return calls; }, plain: 1 };
    expect(decode(encode(value, { ignoreUndefined: true }))).toEqual({ g: 1, plain: 1 });
    expect(calls).toBe(1);
    const boom = new Error('boom');
    const throwing = { get bad() { throw boom; } };
    expect(catchError(() => encode(throwing))).toBe(boom);
  });

  test('a getter that returns undefined only on its second call cannot corrupt ignoreUndefined', () => {
    let n = 0;
    const value = {};
    for (let i = 0; i < 20; i++) Object.defineProperty(value, `k${i}`, { enumerable: true, get: () => ((n++ % 2) ? undefined : i) });
    const got = decode(encode(value, { ignoreUndefined: true }));
    expect(Object.keys(got).length).toBe(10);
  });

  test('a value that changes the object while it is encoded: the output is still one well-formed message', () => {
    const value = { a: 1, get b() { value.c = 3; delete value.a; return 2; } };
    expect(decode(encode(value))).toEqual({ a: 1, b: 2 });
    const array = [1, 2, 3];
    Object.defineProperty(array, 1, { get() { array.length = 1; return 2; } });
    expect(decode(encode(array))).toEqual([1, 2, null]);
  });

  test('toJSON is never called (as @msgpack/msgpack)', () => {
    class Model {
      constructor() {
        this.x = 1;
      }

      toJSON() {
        throw new Error('called');
      }
    }
    const value = { m: new Model(), d: new Date(5) };
    expect(hex(encode(value))).toBe(hex(msgpack.encode(value)));
  });

  test('a typed array that lies about its byteLength / length is written from its real bytes', () => {
    const u8 = Uint8Array.from([1, 2, 3]);
    Object.defineProperty(u8, 'byteLength', { value: 1e9 });
    expect(decode(encode(u8))).toEqual(Uint8Array.from([1, 2, 3]));
    const f32 = Float32Array.from([1, 2]);
    Object.defineProperty(f32, 'byteLength', { value: 1e9 });
    expect([...decode(encode(f32, { typedArrays: 'bin' }))].length).toBe(8);
    expect(decode(encode(f32, { typedArrays: 'ext' }))).toEqual(Float32Array.from([1, 2]));
  });

  test('a Date is read through the intrinsic getTime: a subclass cannot lie, one of another realm is a timestamp too', () => {
    class LyingDate extends Date {
      getTime() { return 0; }
      valueOf() { return 0; }
    }
    const codec = new ExtensionCodec();
    codec.register({ type: 3, encode: (v) => (v instanceof RegExp ? Uint8Array.of(1) : null), decode: () => null });
    for (const options of [undefined, { extensionCodec: codec }]) {
      expect(hex(encode({ d: new LyingDate(5000) }, options))).toBe(hex(msgpack.encode({ d: new Date(5000) })));
      const foreign = vm.runInNewContext('new Date(1556636810389)');
      expect(hex(encode({ d: foreign }, options))).toBe(hex(msgpack.encode({ d: new Date(1556636810389) })));
      expect(decode(encode(foreign, options))).toEqual(new Date(1556636810389));
    }
  });

  test('an object that only inherits from Date: a TYPE error with its path, not the engine\'s TypeError', () => {
    expect(() => msgpack.encode({ d: Object.create(Date.prototype) })).toThrow(TypeError);
    expect(catchError(() => encode({ d: Object.create(Date.prototype) }))).toMatchObject({
      code: 'TYPE', path: '$.d', offset: 3, message: expect.stringMatching(/inherits from Date but is not one/),
    });
  });

  test('Proxies of objects and arrays encode as what they present', () => {
    const obj = new Proxy({ a: 1 }, {});
    const arr = new Proxy([1, 2], {});
    expect(hex(encode({ obj, arr }))).toBe(hex(msgpack.encode({ obj, arr })));
  });

  test('a BoolArray\'s bytes cannot be replaced; an object that only inherits from BoolArray is a TypeError', () => {
    const flags = asBools(Uint8Array.of(1, 0));
    expect(() => { flags.bytes = Uint8Array.of(0, 0, 1); }).toThrow(TypeError);
    expect(decode(encode({ flags }))).toEqual({ flags: [true, false] });
    const fake = Object.create(BoolArray.prototype, { bytes: { value: { length: 2, 0: 1, 1: 0 } } });
    expect(() => encode({ fake })).toThrow(/a BoolArray holds a Uint8Array, not an object/);
  });

  test('an extension\'s bytes whose length getter lies: its real bytes, never the output\'s stale bytes after them', () => {
    class Lying extends Uint8Array {
      get length() {
        return 8;
      }
    }
    class Marked {}
    const codec = new ExtensionCodec();
    codec.register({ type: 3, encode: (v) => (v instanceof Marked ? new Lying([1, 2]) : null), decode: (d) => Array.from(d) });
    const encoder = new Encoder({ extensionCodec: codec });
    encoder.encode('SECRET-SECRET-SECRET'); // leaves its bytes in the encoder's output buffer
    const bytes = encoder.encode([new Marked()]);
    expect(hex(bytes)).toBe(hex(Uint8Array.of(0x91, 0xd5, 3, 1, 2))); // fixext 2
    // An array-like is read once: a getter that changes its answer changes nothing.
    let reads = 0;
    const shifty = { get length() { reads += 1; return reads === 1 ? 2 : 9; }, 0: 5, 1: 6 };
    codec.register({ type: 4, encode: (v) => (v === shifty ? shifty : null), decode: (d) => Array.from(d) });
    expect(hex(encoder.encode(shifty))).toBe(hex(Uint8Array.of(0xd5, 4, 5, 6)));
  });

  test('a detached typed array or DataView: DETACHED with its path, as a bin, an array, an ext or an extension\'s bytes', () => {
    const detached = (view) => {
      structuredClone(view.buffer, { transfer: [view.buffer] });
      return view;
    };
    const u = detached(new Uint8Array(4));
    const f = detached(new Float32Array(4));
    const d = detached(new DataView(new ArrayBuffer(8)));
    expect(catchError(() => encode({ u }))).toMatchObject({ code: 'DETACHED', path: '$.u' });
    expect(catchError(() => encode({ f }))).toMatchObject({ code: 'DETACHED', path: '$.f' });
    expect(catchError(() => encode({ f }, { typedArrays: 'ext' }))).toMatchObject({ code: 'DETACHED', path: '$.f' });
    expect(catchError(() => encode([d]))).toMatchObject({ code: 'DETACHED', path: '$[0]' });
    class Marked {}
    const codec = new ExtensionCodec();
    codec.register({ type: 3, encode: (v) => (v instanceof Marked ? u : null), decode: (data) => data });
    expect(catchError(() => encode({ m: new Marked() }, { extensionCodec: codec }))).toMatchObject({ code: 'DETACHED', path: '$.m' });
    // Empty views are not detached ones.
    expect(decode(encode({ e: new Uint8Array(0), v: new DataView(new ArrayBuffer(0)) }))).toEqual({ e: new Uint8Array(0), v: new Uint8Array(0) });
  });

  test('a typed array is read by its intrinsic length: out of bounds of a shrunk resizable buffer is DETACHED, a length-tracking one writes what is left, a lying length getter is not asked (pure JS and wasm)', () => {
    for (const [port, write] of [['pure JS', encode], ['wasm', createFastmpSync().encode]]) {
      const rab = new ArrayBuffer(16, { maxByteLength: 32 });
      const fixed = new Float32Array(rab, 4, 3);
      const short = new Int16Array(rab, 8, 1);
      const tracking = new Float32Array(rab);
      tracking.set([1, 2, 3, 4]);
      rab.resize(8);
      expect(catchError(() => write({ fixed })), port).toMatchObject({ code: 'DETACHED', path: '$.fixed' });
      expect(catchError(() => write([short])), port).toMatchObject({ code: 'DETACHED', path: '$[0]' });
      expect(hex(write({ tracking })), port).toBe(hex(encode({ tracking: Float32Array.of(1, 2) })));
      class Lying extends Float64Array {
        get length() {
          return 1;
        }
      }
      expect(decode(write({ lying: new Lying([0.5, 1.5, 2.5]) })), port).toEqual({ lying: [0.5, 1.5, 2.5] });
    }
  });

  test('a BigInt beyond 64 bits: RANGE (where @msgpack/msgpack silently wraps)', () => {
    expect(catchError(() => encode({ v: 2n ** 64n }, { useBigInt64: true }))).toMatchObject({ code: 'RANGE', path: '$.v' });
    expect(catchError(() => encode(-(2n ** 63n) - 1n, { useBigInt64: true }))).toMatchObject({ code: 'RANGE' });
  });
});
