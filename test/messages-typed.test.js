// Typed arrays inside messages: written as standard msgpack arrays (checked
// byte for byte against an independent writer, and read back by
// @msgpack/msgpack, msgpackr and Python to the same numbers), as msgpackr's
// ext 0x74 (byte for byte what msgpackr's moreTypes writes) or as bin; and
// read back into typed arrays by shape, from fastmp's output and the peers'.

import * as msgpack from '@msgpack/msgpack';
import fc from 'fast-check';
import { FLOAT32_OPTIONS, Packr, Unpackr } from 'msgpackr';
import { describe, expect, test } from 'vitest';
import { BoolArray, ExtensionCodec, asBools, makeCodec, mapOf, optional } from '../js/codec/index.js';
import { KINDS, KIND_OF_NAME } from '../js/kinds.js';
import { randomF32, randomF64, rng } from './helpers.js';
import { PORTS, catchError, difference, hex, python, referenceArray, watchedPort } from './messages-helpers.js';

const SIZES = [0, 1, 15, 16, 17, 255, 65535, 65536];

/** A typed array of `kind` with n random elements over its whole range (floats: every bit class). */
function randomTyped(kind, n, seed) {
  if (kind.name === 'Float32Array') return randomF32(n, seed);
  if (kind.name === 'Float64Array') return randomF64(n, seed);
  const r = rng(seed);
  const bytes = new Uint8Array(n * kind.bytes);
  for (let i = 0; i < bytes.length; i++) bytes[i] = r();
  const x = new kind.Type(bytes.buffer);
  // Small values too, so that every integer form appears.
  for (let i = 0; i < n; i += 3) x[i] = kind.big ? BigInt(r.int(300) - 150) : r.int(300) - 150;
  return x;
}

/** The elements as a peer hands them back: numbers or BigInts, compared exactly (floats as float32 when f32). */
function sameElements(got, x, name) {
  expect(got.length).toBe(x.length);
  for (let i = 0; i < x.length; i++) {
    const want = x[i];
    const have = got[i];
    if (typeof want === 'bigint') expect(BigInt(have), `${name}[${i}]`).toBe(want);
    else if (Number.isNaN(want)) expect(Number.isNaN(have), `${name}[${i}]`).toBe(true);
    else expect(Object.is(name === 'Float32Array' ? Math.fround(have) : have, want), `${name}[${i}] ${have} vs ${want}`).toBe(true);
  }
}

const unpackr = new Unpackr({ useRecords: false, mapsAsObjects: true, int64AsType: 'bigint' });
/** The kinds 'array' writes as standard arrays: all but bytes (Uint8Array, Uint8ClampedArray: a bin, as pack() writes them). */
const nonBytes = KINDS.filter((k) => k.name !== 'Uint8Array' && k.name !== 'Uint8ClampedArray');

const packr = () => new Packr({ moreTypes: true, useRecords: false });

describe.each(PORTS)('the %s port', (portName, port, instance) => {
  const { Decoder, Encoder, decode, encode } = makeCodec(port);

  // Packs ever larger arrays with the port's own instance: each call grows its wasm memory.
  let growBy = 1 << 20;
  const growMemory = () => {
    instance?.pack(new Float32Array((growBy *= 2)));
  };

  test('user code that grows wasm memory mid-encode (getters, extensions): the output stays whole', () => {
    const value = { f: Float32Array.of(1, 2), map: {} };
    for (let i = 0; i < 15; i++) value.map[`k${i}`] = i;
    // 16 keys: a map 16 header first, a fixmap once the last value turns out undefined.
    Object.defineProperty(value.map, 'last', { enumerable: true, get: () => { growMemory(); return undefined; } });
    const bytes = encode(value, { ignoreUndefined: true });
    expect(msgpack.decode(bytes)).toEqual({ f: [1, 2], map: Object.fromEntries(Array.from({ length: 15 }, (_, i) => [`k${i}`, i])) });
    const codec = new ExtensionCodec();
    codec.register({ type: 1, encode: (v) => (v instanceof Set ? (growMemory(), Uint8Array.of(v.size)) : null), decode: null });
    const mixed = { a: new Set([1]), b: Float64Array.of(0.5), get c() { growMemory(); return 'after'; }, d: Int32Array.of(-5) };
    const got = msgpack.decode(encode(mixed, { extensionCodec: codec }));
    expect(got.b).toEqual([0.5]);
    expect(got.c).toBe('after');
    expect(got.d).toEqual([-5]);
  });

  describe("typedArrays: 'array' (the default)", () => {
    test.each(nonBytes.map((k) => [k.name, k]))('%s: the bytes of the standard array, at any depth', (name, kind) => {
      for (const n of SIZES) {
        const x = randomTyped(kind, n, n + 1);
        const want = hex(referenceArray(x));
        expect(hex(encode(x))).toBe(want);
        const nested = encode({ a: [{ b: x }] });
        expect(hex(nested)).toBe(`81a16191${'81a162'}${want}`);
      }
    });

    test('Uint8ClampedArray (canvas pixels) is a bin, as pack() and @msgpack/msgpack write it, at any depth', () => {
      for (const n of SIZES) {
        const x = randomTyped(KINDS.find((k) => k.name === 'Uint8ClampedArray'), n, n + 1);
        expect(hex(encode(x))).toBe(hex(msgpack.encode(x)));
        expect(hex(encode({ a: [{ b: x }] }))).toBe(hex(msgpack.encode({ a: [{ b: x }] })));
        expect(hex(encode(x))).toBe(hex(instance?.pack(x) ?? msgpack.encode(x)));
      }
    });

    test.each(nonBytes.map((k) => [k.name, k]))('%s: @msgpack/msgpack and msgpackr read the same numbers', (name, kind) => {
      for (const n of [0, 1, 17, 4096]) {
        const x = randomTyped(kind, n, 7 * n + 3);
        const bytes = encode({ x, after: 'end' });
        const theirs = msgpack.decode(bytes, { useBigInt64: true });
        sameElements(theirs.x, x, name);
        expect(theirs.after).toBe('end');
        sameElements(unpackr.unpack(bytes).x, x, name);
      }
    });

    test('subarrays, -0, NaN payloads and Uint8Array as bin', () => {
      const base = new Float32Array([1, -0, NaN, 2.5, 3]);
      new Uint32Array(base.buffer)[2] = 0x7fa5a5a5; // a signalling NaN: its bits are kept
      const sub = base.subarray(1, 4);
      expect(hex(encode(sub))).toBe(hex(referenceArray(sub)));
      expect(hex(encode(Buffer.from([1, 2])))).toBe(hex(msgpack.encode(Buffer.from([1, 2]))));
      expect(hex(encode({ u8: new Uint8Array([9]) }))).toBe(hex(msgpack.encode({ u8: new Uint8Array([9]) })));
    });

    test('BoolArray: an array of booleans in every mode', () => {
      const bytes = Uint8Array.from([0, 1, 2, 255, 0]);
      for (const typedArrays of ['array', 'ext', 'bin']) {
        const out = encode({ flags: asBools(bytes) }, { typedArrays });
        expect(hex(out)).toBe(`81a5666c616773${hex(referenceArray(bytes, { bools: true }))}`);
        expect(msgpack.decode(out)).toEqual({ flags: [false, true, true, true, false] });
      }
      expect(asBools(bytes)).toBeInstanceOf(BoolArray);
      expect(asBools(bytes).length).toBe(5);
      expect(() => asBools([1, 0])).toThrow(TypeError);
    });

    test('a reused Encoder writes many typed arrays without growing once warm', () => {
      const watched = watchedPort(port);
      const encoder = new (makeCodec(watched.port).Encoder)();
      const message = { embedding: randomF32(1536, 1), scores: randomF64(10, 2), ids: randomTyped(KIND_OF_NAME.get('Int32Array'), 100, 3) };
      const first = encoder.encode(message);
      const [store] = watched.stores;
      const capacity = store.bytes.length;
      for (let i = 0; i < 20; i++) expect(hex(encoder.encode(message))).toBe(hex(first));
      expect(watched.stores).toEqual([store]);
      expect(store.bytes.length).toBe(capacity);
    });
  });

  describe("typedArrays: 'ext' and 'bin'", () => {
    const packr = new Packr({ moreTypes: true, useRecords: false });
    test.each(KINDS.map((k) => [k.name, k]))("%s: 'ext' writes what msgpackr's moreTypes writes", (name, kind) => {
      for (const n of [0, 1, 63, 64, 65, 16383, 16384, 70000]) {
        const x = randomTyped(kind, n, n + 11);
        const bytes = encode(x, { typedArrays: 'ext' });
        if (kind.name === 'Uint8Array') {
          expect(hex(bytes)).toBe(hex(msgpack.encode(x))); // a bin in every mode
        } else {
          expect(hex(bytes)).toBe(hex(packr.pack(x)));
          expect(difference(unpackr.unpack(bytes), x)).toBe('');
        }
      }
    });

    test.each(KINDS.map((k) => [k.name, k]))("%s: 'bin' writes what @msgpack/msgpack writes", (name, kind) => {
      const x = randomTyped(kind, 100, 5);
      const value = { x, y: [x.subarray(3, 7)] };
      expect(hex(encode(value, { typedArrays: 'bin' }))).toBe(hex(msgpack.encode(value)));
    });

    test('an unknown typedArrays mode is a TypeError', () => {
      expect(() => encode(1, { typedArrays: 'packed' })).toThrow(TypeError);
    });
  });

  describe('decode by shape', () => {
    test.each(KINDS.map((k) => [k.name, k]))('%s: fastmp in every mode, and the peers, read back bit for bit', (name, kind) => {
      const x = randomTyped(kind, 300, 99);
      const shape = { x: kind.Type, list: [kind.Type], every: mapOf(kind.Type) };
      const value = { x, list: [x, x.subarray(1, 2)], every: { a: x, b: x.subarray(5) }, plain: [1, 'two'] };
      for (const typedArrays of ['array', 'ext', 'bin']) {
        const got = decode(encode(value, { typedArrays }), { shape });
        expect(difference(got, value), typedArrays).toBe('');
      }
      expect(difference(decode(packr().pack(value), { shape }), value), 'msgpackr moreTypes').toBe('');
      expect(difference(decode(msgpack.encode(value), { shape }), value), '@msgpack/msgpack (bin)').toBe('');
      const plain = { ...value, x: Array.from(x), list: [Array.from(x), Array.from(x.subarray(1, 2))], every: { a: Array.from(x), b: Array.from(x.subarray(5)) } };
      if (!kind.float) {
        expect(difference(decode(msgpack.encode(plain, { useBigInt64: true }), { shape }), value), '@msgpack/msgpack arrays').toBe('');
      }
    });

    test('plain float arrays as the peers write them (float64, float32, integral floats as ints)', () => {
      const f32 = Float32Array.from([1, -0, 0.5, 3, 16777216, NaN, Infinity, -2.25, 0.1]);
      const plain = { v: Array.from(f32) };
      const f32Packr = new Packr({ useFloat32: FLOAT32_OPTIONS.ALWAYS, useRecords: false });
      for (const bytes of [msgpack.encode(plain), msgpack.encode(plain, { forceFloat32: true }), f32Packr.pack(plain), new Packr({ useRecords: false }).pack(plain)]) {
        const got = decode(bytes, { shape: { v: Float32Array } }).v;
        expect(got).toBeInstanceOf(Float32Array);
        for (let i = 0; i < f32.length; i++) {
          // Peers that write an integral float as an int lose -0; everything else is exact.
          if (Object.is(f32[i], -0)) expect(got[i]).toBe(0);
          else expect(Object.is(got[i], f32[i]), `${i}: ${got[i]}`).toBe(true);
        }
      }
      const f64 = decode(msgpack.encode(plain), { shape: { v: Float64Array } }).v;
      expect(f64).toBeInstanceOf(Float64Array);
      expect(f64[8]).toBe(Math.fround(0.1));
    });

    test('a sensor batch: arrays of maps of typed arrays (W2)', () => {
      const frames = Array.from({ length: 64 }, (_, i) => ({
        t: i * 0.01, accel: randomF32(3, i), gyro: randomF32(3, i + 100), samples: randomTyped(KIND_OF_NAME.get('Int16Array'), 256, i),
      }));
      const shape = { frames: [{ accel: Float32Array, gyro: Float32Array, samples: Int16Array }] };
      const decoder = new Decoder({ shape });
      const bytes = new Encoder().encode({ frames });
      expect(difference(decoder.decode(bytes), { frames })).toBe('');
      expect(difference(decoder.decode(bytes), { frames })).toBe('');
    });

    test('integer map keys (as Python and Go write them) are read by the shape key that names their property', () => {
      const bytes = packr().pack(new Map([[1, [0.5, 1.5]], [-7, [3]], ['name', 'x']])); // (int keys: @msgpack/msgpack writes no Map entries)
      const got = decode(bytes, { shape: { 1: Float32Array, '-7': Int16Array } });
      expect(got).toEqual({ 1: Float32Array.of(0.5, 1.5), '-7': Int16Array.of(3), name: 'x' });
      expect(Object.keys(got)).toEqual(['1', '-7', 'name']);
      expect(catchError(() => decode(bytes, { shape: { 2: Float32Array } }))).toMatchObject({ code: 'MISSING', path: '$["2"]' });
      expect(decode(packr().pack(new Map([[1, null]])), { shape: { 1: optional(Float32Array) } })).toEqual({ 1: null });
    });

    test('Boolean / BoolArray shapes read an array of booleans into 0 / 1 bytes', () => {
      const bytes = msgpack.encode({ a: [true, false, true], b: [] });
      expect(decode(bytes, { shape: { a: Boolean, b: BoolArray } })).toEqual({ a: Uint8Array.from([1, 0, 1]), b: new Uint8Array(0) });
      expect(() => decode(msgpack.encode({ a: [true, 1] }), { shape: { a: Boolean } }))
        .toThrow(expect.objectContaining({ code: 'TYPE', path: '$.a', index: 1, offset: 5 }));
    });

    test('integralFloats: integer shapes take floats that are exact integers', () => {
      const bytes = msgpack.encode({ ids: [1, 2.0, 3.5].map((v, i) => (i === 1 ? 2.5 - 0.5 : v)) }, { forceIntegerToFloat: true });
      expect(() => decode(bytes, { shape: { ids: Int32Array } })).toThrow(expect.objectContaining({ code: 'TYPE', path: '$.ids', index: 0 }));
      expect(() => decode(bytes, { shape: { ids: Int32Array }, integralFloats: true }))
        .toThrow(expect.objectContaining({ code: 'RANGE', path: '$.ids', index: 2 }));
      const exact = msgpack.encode({ ids: [1, 2, -3] }, { forceIntegerToFloat: true });
      expect(decode(exact, { shape: { ids: Int32Array }, integralFloats: true }).ids).toEqual(Int32Array.from([1, 2, -3]));
    });

    test('errors name the path, the element and the byte', () => {
      const value = { frames: [{ accel: [1, 2, 3] }, { accel: [1, 2, 3] }, { accel: [0.5, 1000, 7] }] };
      const bytes = msgpack.encode(value);
      let err;
      try {
        decode(bytes, { shape: { frames: [{ accel: Int8Array }] } });
      } catch (e) {
        err = e;
      }
      expect(err.code).toBe('TYPE');
      expect(err.path).toBe('$.frames[2].accel');
      expect(err.index).toBe(0);
      expect(err.message).toContain('$.frames[2].accel');
      expect(bytes[err.offset]).toBe(0xcb); // the float 0.5
      const err2 = catchError(() => decode(msgpack.encode({ frames: [{ accel: [1, 300] }] }), { shape: { frames: [{ accel: Int8Array }] } }));
      expect(err2).toMatchObject({ code: 'RANGE', path: '$.frames[0].accel', index: 1, value: 300 });
      const err3 = catchError(() => decode(msgpack.encode({ 'odd key': { v: 'text' } }), { shape: mapOf({ v: Float32Array }) }));
      expect(err3).toMatchObject({ code: 'TYPE', path: '$["odd key"].v', index: -1 });
    });

    test('anything else at a shaped position is a TYPE error naming it', () => {
      const cases = [
        [{ v: null }, { v: Float32Array }, '$.v'],
        [{ v: 'str' }, { v: Float32Array }, '$.v'],
        [{ v: { a: 1 } }, { v: [Float32Array] }, '$.v'],
        [{ v: [1] }, { v: { a: Float32Array } }, '$.v'],
        [{ v: [1] }, { v: mapOf(Float32Array) }, '$.v'],
        [{ v: new Uint8Array(6) }, { v: Float32Array }, '$.v'], // 6 bytes: not whole float32s
        [{ v: new msgpack.ExtData(5, new Uint8Array(4)) }, { v: Int32Array }, '$.v'],
      ];
      for (const [value, shape, path] of cases) {
        expect(catchError(() => decode(msgpack.encode(value), { shape }))).toMatchObject({ code: 'TYPE', path });
      }
      // msgpackr's ext 0x74 of another element type
      expect(catchError(() => decode(packr().pack({ v: new Int16Array(2) }), { shape: { v: Uint16Array } })))
        .toMatchObject({ code: 'TYPE', path: '$.v' });
    });

    test('shapes: compiled once per object, self-reference allowed, anything unknown a TypeError', () => {
      const tree = { value: Float32Array, children: [] };
      tree.children.push(tree);
      const value = { value: Float32Array.of(1), children: [{ value: Float32Array.of(2), children: [] }] };
      expect(difference(decode(encode(value), { shape: tree }), value)).toBe('');
      for (const bad of [Array, Number, 'Float32Array', 1, null, [Float32Array, Int8Array], [], new Map(), { a: undefined }, { a: { b: Date } }]) {
        expect(() => decode(encode({}), { shape: bad }), String(bad)).toThrow(TypeError);
      }
      expect(() => decode(encode({}), { shape: { a: { b: Date } } })).toThrow(/\$\.a\.b/);
      // Changed after its first use, a shape object still decodes as it first did (docs/messages.md).
      const shape = { v: Float32Array };
      const bytes = encode({ v: Float32Array.of(1.5) });
      expect(decode(bytes, { shape }).v).toBeInstanceOf(Float32Array);
      shape.v = Float64Array;
      expect(decode(bytes, { shape }).v).toBeInstanceOf(Float32Array);
      expect(decode(bytes, { shape: { v: Float64Array } }).v).toBeInstanceOf(Float64Array);
    });

    test('without a shape: msgpackr typed-array ext decodes to the typed array, standard arrays to plain arrays', () => {
      const value = { f: randomF32(5, 1), i: new Int16Array([1, -2]), u: new BigUint64Array([2n ** 64n - 1n]), c: new Uint8ClampedArray([4]) };
      expect(difference(decode(packr().pack(value)), unpackr.unpack(packr().pack(value)))).toBe('');
      expect(decode(packr().pack(new ArrayBuffer(3)))).toEqual(new ArrayBuffer(3));
      expect(decode(encode({ i: new Int16Array([1, -2]) }))).toEqual({ i: [1, -2] });
    });
  });

  describe('Python msgpack (python3-msgpack) as the peer', () => {
    const fields = {
      f32: randomF32(500, 1).map((v) => (Number.isNaN(v) ? NaN : v)),
      f64: randomF64(300, 2).map((v) => (Number.isNaN(v) ? NaN : v)),
      i8: randomTyped(KIND_OF_NAME.get('Int8Array'), 200, 3),
      u16: randomTyped(KIND_OF_NAME.get('Uint16Array'), 200, 4),
      i32: randomTyped(KIND_OF_NAME.get('Int32Array'), 200, 5),
      u32: randomTyped(KIND_OF_NAME.get('Uint32Array'), 200, 6),
      i64: randomTyped(KIND_OF_NAME.get('BigInt64Array'), 200, 7),
      u64: randomTyped(KIND_OF_NAME.get('BigUint64Array'), 200, 8),
    };
    const shape = { f32: Float32Array, f64: Float64Array, i8: Int8Array, u16: Uint16Array, i32: Int32Array, u32: Uint32Array, i64: BigInt64Array, u64: BigUint64Array };

    test('Python reads what fastmp writes to the same numbers (floats compared as float32 / float64 bits)', () => {
      const message = { model: 'm1', ...fields, tags: ['a', 'b'] };
      const out = python(`
  m = msgpack.unpackb(sys.stdin.buffer.read(), raw=False)
  res = {}
  for k, v in m.items():
      if k == 'f32': res[k] = ['nan' if x != x else struct.pack('<f', x).hex() for x in v]
      elif k == 'f64': res[k] = ['nan' if x != x else struct.pack('<d', x).hex() for x in v]
      elif isinstance(v, list) and v and isinstance(v[0], int): res[k] = [str(x) for x in v]
      else: res[k] = v
  print(json.dumps(res))`, encode(message));
      const got = JSON.parse(out);
      expect(got.model).toBe('m1');
      expect(got.tags).toEqual(['a', 'b']);
      const bits = (x, i, width) => Buffer.from(x.buffer, x.byteOffset + width * i, width).toString('hex');
      got.f32.forEach((h, i) => expect(h, `f32[${i}]`).toBe(Number.isNaN(fields.f32[i]) ? 'nan' : bits(fields.f32, i, 4)));
      got.f64.forEach((h, i) => expect(h, `f64[${i}]`).toBe(Number.isNaN(fields.f64[i]) ? 'nan' : bits(fields.f64, i, 8)));
      for (const k of ['i8', 'u16', 'i32', 'u32', 'i64', 'u64']) expect(got[k]).toEqual(Array.from(fields[k], String));
    });

    test('fastmp reads what Python writes, by shape, to the same numbers', () => {
      // Python builds {"model", "vec" (float32 list), "ids" (ints), ...} from the raw bytes of each array.
      const raw = Object.fromEntries(Object.entries(fields).map(([k, x]) => [k, Buffer.from(x.buffer, x.byteOffset, x.byteLength).toString('hex')]));
      const fmt = { f32: 'f', f64: 'd', i8: 'b', u16: 'H', i32: 'i', u32: 'I', i64: 'q', u64: 'Q' };
      const out = python(`
  raw = json.loads(sys.stdin.read())
  fmt = ${JSON.stringify(fmt)}
  def values(k):
      b = bytes.fromhex(raw[k]); n = len(b) // struct.calcsize(fmt[k])
      return list(struct.unpack('<%d%s' % (n, fmt[k]), b))
  singles = msgpack.packb({'model': 'm1', 'f32': values('f32')}, use_single_float=True)
  doubles = msgpack.packb({k: values(k) for k in fmt if k != 'f32'})
  sys.stdout.write(singles.hex() + ' ' + doubles.hex())`, JSON.stringify(raw)).toString().split(' ');
      const singles = decode(Buffer.from(out[0], 'hex'), { shape: { f32: Float32Array } });
      expect(singles.model).toBe('m1');
      const doubles = decode(Buffer.from(out[1], 'hex'), { shape: { ...shape, f32: optional(Float32Array) } }); // (this message has no f32)
      const want = { ...fields };
      delete want.f32;
      // Python's float() of a float32 NaN may quiet it: NaN-ness is what is compared there.
      const f32 = singles.f32;
      for (let i = 0; i < f32.length; i++) {
        if (Number.isNaN(fields.f32[i])) expect(Number.isNaN(f32[i])).toBe(true);
        else expect(Object.is(f32[i], fields.f32[i])).toBe(true);
      }
      for (const [k, x] of Object.entries(want)) {
        if (k === 'f64') sameElements(doubles[k], x, 'Float64Array');
        else expect(difference(doubles[k], x), k).toBe('');
      }
    });
  });

  describe('random typed-array messages (fast-check)', () => {
    const typedArray = fc.oneof(
      fc.float32Array({ maxLength: 40 }), fc.float64Array({ maxLength: 40 }), fc.int8Array({ maxLength: 40 }),
      fc.int16Array({ maxLength: 40 }), fc.int32Array({ maxLength: 40 }), fc.uint8ClampedArray({ maxLength: 40 }),
      fc.uint16Array({ maxLength: 40 }), fc.uint32Array({ maxLength: 40 }), fc.bigInt64Array({ maxLength: 40 }),
      fc.bigUint64Array({ maxLength: 40 }),
    );
    test('every mode round-trips by shape, and @msgpack/msgpack reads the same numbers (3 000 messages)', () => {
      fc.assert(fc.property(fc.dictionary(fc.string({ maxLength: 6 }), typedArray, { maxKeys: 6 }), (fieldsOf) => {
        const value = { ...fieldsOf };
        const shape = Object.fromEntries(Object.entries(value).map(([k, x]) => [k, x.constructor]));
        for (const typedArrays of ['array', 'ext', 'bin']) {
          expect(difference(decode(encode(value, { typedArrays }), { shape }), value)).toBe('');
        }
        const theirs = msgpack.decode(encode(value), { useBigInt64: true });
        for (const [k, x] of Object.entries(value)) sameElements(theirs[k], x, x.constructor.name);
      }), { numRuns: 3000 });
    });
  });
});
