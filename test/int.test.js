// Integer typed arrays and booleans through every JS-reachable path: the
// SIMD and scalar wasm builds (forced at every size), the pure-JS path and
// the default. Expected bytes come from the independent encoder in helpers.js
// and from @msgpack/msgpack; msgpackr decodes what fastmp writes.
import { encode } from '@msgpack/msgpack';
import { Unpackr } from 'msgpackr';
import { beforeAll, describe, expect, test } from 'vitest';
import { FastmpError, init, pack, packBool, unpack, unpackBool, unpackBoolFrom, unpackFrom } from '../js/index.js';
import { INT_DISTRIBUTIONS, fill } from '../bench/contents.js';
import { KIND_OF_TYPE } from '../js/kinds.js';
import {
  INT_EDGES, INT_TYPES, SIZES, bytesOf, encodeElements, randomInts, rng, smallestForm, typedOf,
} from './helpers.js';

const PATHS = [
  ['wasm-simd', { backend: 'simd', pureJs: 'never' }],
  ['wasm-scalar', { backend: 'scalar', pureJs: 'never' }],
  ['pure-js', { pureJs: 'always' }],
  ['auto', {}],
];

const u8 = (...b) => Uint8Array.from(b.flat());
const smallest = (values) => encodeElements(values.map((value) => ({ form: smallestForm(value), value })));
const packInts = (x) => pack(x, { bin: false }); // Uint8Array as an array of ints, others as usual

/** The FastmpError that fn throws. */
function fastmpError(fn) {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(FastmpError);
    return e;
  }
  throw new Error('expected a FastmpError, nothing was thrown');
}

// Inputs and their independently encoded bytes, made once for all paths.
const cases = new Map();
function caseFor(type, n, content) {
  const key = `${type.name}:${n}:${content}`;
  if (!cases.has(key)) {
    const values = randomInts(type, n, n * 31 + type.name.length + content.length, content);
    cases.set(key, { x: typedOf(type, values), packed: n <= 65536 ? Buffer.from(smallest(values)) : null });
  }
  return cases.get(key);
}

// The 1 M packed bytes of each type from the first path, that the others must match.
const firstPacked = new Map();

for (const [pathName, options] of PATHS) {
  describe(pathName, () => {
    beforeAll(() => init(options));

    for (const type of INT_TYPES) {
      test.each(SIZES)(`${type.Type.name} of %i: smallest forms, round trip`, (n) => {
        for (const content of n > 65536 ? ['random'] : ['random', 'fixint', 'mixed']) {
          const { x, packed } = caseFor(type, n, content);
          const bytes = Buffer.from(packInts(x));
          if (packed) expect(bytes.equals(packed)).toBe(true);
          else {
            const key = `${type.name}:${n}`;
            if (!firstPacked.has(key)) firstPacked.set(key, bytes);
            expect(bytes.equals(firstPacked.get(key))).toBe(true);
          }
          const back = unpack(bytes, type.Type);
          expect(back).toBeInstanceOf(type.Type);
          expect(bytesOf(back).equals(bytesOf(x))).toBe(true);
        }
      });

      // The SIMD packers lay out each vector by the forms of its lanes (a
      // table by key): every form at every lane position of a 16-lane block,
      // among every other form, and the benchmark's distributions.
      test(`${type.Type.name}: every form at every lane position, and the benchmark distributions`, () => {
        const edges = INT_EDGES.filter((v) => v >= type.min && v <= type.max);
        const values = [];
        for (const base of edges) {
          for (const other of edges) for (let j = 0; j < 16; j++) values.push(...Array.from({ length: 16 }, (_, i) => (i === j ? other : base)));
        }
        for (const content of INT_DISTRIBUTIONS) {
          const kind = KIND_OF_TYPE.get(type.Type);
          values.push(...Array.from(fill(new type.Type(4099), kind, content), BigInt));
        }
        const x = typedOf(type, values);
        expect(Buffer.from(packInts(x)).equals(Buffer.from(smallest(values)))).toBe(true);
        expect(bytesOf(unpack(packInts(x), type.Type)).equals(bytesOf(x))).toBe(true);
      });

      // Every form mixed inside each vector: the edges (each form's bounds)
      // in a cycle, rotated one lane at a time so that each edge meets every
      // lane position beside every form; then shuffled (seeded).
      test(`${type.Type.name}: all forms mixed inside every vector, at every lane position`, () => {
        const edges = INT_EDGES.filter((v) => v >= type.min && v <= type.max);
        const values = [];
        for (let r = 0; r < Math.max(edges.length, 16); r++) for (let i = 0; i < 32; i++) values.push(edges[(i + r) % edges.length]);
        const r = rng(13);
        for (let i = 0; i < 4096; i++) values.push(edges[r.int(edges.length)]);
        const x = typedOf(type, values);
        expect(Buffer.from(packInts(x)).equals(Buffer.from(smallest(values)))).toBe(true);
        expect(bytesOf(unpack(packInts(x), type.Type)).equals(bytesOf(x))).toBe(true);
      });

      // The SIMD packer takes a block of 16 lanes down to narrower lanes when
      // all of them fit (64 -> 32 bits, 32 -> 16 bits, all fixints -> bytes),
      // and lays out each vector from a key of its lanes' classes and signs.
      // Blocks of one base value (one per narrower path) with one lane at each
      // position set to a value at or just past a boundary of those tests
      // (int16 / uint16 / int32 / uint32 limits included), also shifted by 7
      // elements so that each such group straddles two blocks.
      test(`${type.Type.name}: one boundary value at every lane of blocks of each narrower path`, () => {
        const inRange = (v) => v >= type.min && v <= type.max;
        const bounds = [...new Set([...INT_EDGES, 32767n, 32768n, -32767n, 2n ** 31n - 1n, 2n ** 31n, 2n ** 32n + 1n])].filter(inRange);
        const bases = [0n, 100n, -5n, 200n, -100n, 1000n, -1000n, 40000n, 100000n, -100000n, 2n ** 31n + 5n, -(2n ** 40n)].filter(inRange);
        for (const shift of [0, 7]) {
          const values = Array.from({ length: shift }, () => 1n);
          for (const base of bases) {
            for (const bound of bounds) for (let j = 0; j < 16; j++) values.push(...Array.from({ length: 16 }, (_, i) => (i === j ? bound : base)));
          }
          const x = typedOf(type, values);
          expect(Buffer.from(packInts(x)).equals(Buffer.from(smallest(values)))).toBe(true);
          expect(bytesOf(unpack(packInts(x), type.Type)).equals(bytesOf(x))).toBe(true);
        }
      });

      test(`${type.Type.name}: the edge values, byte for byte what @msgpack/msgpack writes; msgpackr reads them back`, () => {
        const values = [...INT_EDGES.filter((v) => v >= type.min && v <= type.max), ...randomInts(type, 200, 5, 'random')];
        const x = typedOf(type, values);
        const peer = Buffer.concat([
          Buffer.from(encode([]).subarray(0, 0)),
          Buffer.from(values.length <= 15 ? [0x90 | values.length] : [0xdc, values.length >> 8, values.length & 0xff]),
          ...values.map((v) => {
            const safe = v <= BigInt(Number.MAX_SAFE_INTEGER) && v >= BigInt(Number.MIN_SAFE_INTEGER);
            return Buffer.from(safe ? encode(Number(v)) : encode(v, { useBigInt64: true }));
          }),
        ]);
        const bytes = packInts(x);
        expect(Buffer.from(bytes).equals(peer)).toBe(true);
        const decoded = new Unpackr({ int64AsType: 'bigint' }).unpack(bytes).map(BigInt);
        expect(decoded).toEqual(values);
      });
    }

    test('out-of-range values are RANGE errors with index, offset and value', () => {
      const cases = [
        [u8(0x93, 1, 2, 0xcd, 0x01, 0x2c), Int8Array, 2, 3, 300],
        [u8(0x92, 0, 0xff), Uint32Array, 1, 2, -1],
        [u8(0x91, 0xce, 0x80, 0, 0, 0), Int32Array, 0, 1, 2 ** 31],
        [u8(0x91, 0xd2, 0x80, 0, 0, 0), Uint16Array, 0, 1, -(2 ** 31)],
        [u8(0x92, 0x7f, 0xcc, 0x80), Int8Array, 1, 2, 128],
        [u8(0x91, 0xd1, 0xff, 0x7f), Uint8Array, 0, 1, -129],
        [u8(0x91, 0xcf, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff), BigInt64Array, 0, 1, 2n ** 64n - 1n],
        [u8(0x91, 0xd3, 0x80, 0, 0, 0, 0, 0, 0, 0), BigUint64Array, 0, 1, -(2n ** 63n)],
        [u8(0x91, 0xcf, 0, 0, 0, 1, 0, 0, 0, 0), Uint32Array, 0, 1, 2 ** 32],
      ];
      for (const [bytes, Type, index, offset, value] of cases) {
        const e = fastmpError(() => unpack(bytes, Type));
        expect({ code: e.code, index: e.index, offset: e.offset, value: e.value }).toEqual({ code: 'RANGE', index, offset, value });
        expect(e.message).toMatch(new RegExp(`element ${index} at byte ${offset} is ${value}.*an? ${Type.name} cannot hold`));
      }
    });

    test('a RANGE error deep in SIMD-sized input names the right element', () => {
      for (const type of INT_TYPES.filter((t) => t.min < 0n && t.max < 2n ** 40n)) {
        for (const at of [0, 15, 16, 17, 40, 99]) {
          const values = randomInts(type, 100, at, 'random');
          const elements = values.map((value) => ({ form: smallestForm(value), value }));
          elements[at] = { form: 'u64', value: type.max + 1n };
          const bytes = encodeElements(elements);
          const offset = 3 + elements.slice(0, at).reduce((sum, e) => sum + smallest([e.value]).length - 1, 0);
          const e = fastmpError(() => unpack(bytes, type.Type));
          expect([e.code, e.index, e.offset, e.value]).toEqual(['RANGE', at, offset, Number(type.max + 1n)]);
        }
      }
    });

    test('floats into integer arrays: TYPE by default; with integralFloats, exactly integral values in range', () => {
      const f64 = (v) => { const b = Buffer.alloc(9); b[0] = 0xcb; b.writeDoubleBE(v, 1); return [...b]; };
      const f32 = (v) => { const b = Buffer.alloc(5); b[0] = 0xca; b.writeFloatBE(v, 1); return [...b]; };
      const e = fastmpError(() => unpack(u8(0x92, 1, f64(2)), Int16Array));
      expect([e.code, e.index, e.offset, e.value]).toEqual(['TYPE', 1, 2, 2]);
      expect(e.message).toMatch(/is a float \(2\); an Int16Array takes floats only with \{ integralFloats: true \}/);
      const opts = { integralFloats: true };
      expect([...unpack(u8(0x94, 1, f64(2), f32(-3), f64(-0)), Int16Array, opts)]).toEqual([1, 2, -3, 0]);
      expect([...unpack(u8(0x92, f64(2 ** 63), f64(2 ** 53)), BigUint64Array, opts)]).toEqual([2n ** 63n, 2n ** 53n]);
      expect([...unpack(u8(0x91, f64(-(2 ** 63))), BigInt64Array, opts)]).toEqual([-(2n ** 63n)]);
      for (const [bytes, Type, value] of [
        [u8(0x91, f64(2.5)), Int32Array, 2.5],
        [u8(0x91, f64(NaN)), Int32Array, NaN],
        [u8(0x91, f32(Infinity)), Uint8Array, Infinity],
        [u8(0x91, f64(1e10)), Int32Array, 1e10],
        [u8(0x91, f64(2 ** 63)), BigInt64Array, 2 ** 63],
        [u8(0x91, f64(2 ** 64)), BigUint64Array, 2 ** 64],
        [u8(0x91, f64(-1)), Uint16Array, -1],
        [u8(0x91, f32(0.5)), Int8Array, 0.5],
      ]) {
        const err = fastmpError(() => unpack(bytes, Type, opts));
        expect([err.code, err.index, err.offset]).toEqual(['RANGE', 0, 1]);
        expect(Object.is(err.value, value)).toBe(true);
      }
    });

    test('non-numbers in integer arrays are TYPE errors', () => {
      for (const [bytes, at] of [[u8(0x92, 1, 0xc0), 2], [u8(0x91, 0xc3), 1], [u8(0x92, 0xa1, 0x61), 1]]) {
        const e = fastmpError(() => unpack(bytes, Int32Array, { integralFloats: true }));
        expect([e.code, e.offset]).toEqual(['TYPE', at]);
        expect(e.message).toMatch(/is not an integer/);
      }
    });

    test('Uint8Array and Uint8ClampedArray: bin by default, an array of ints when asked; both decode', () => {
      const x = Uint8Array.from({ length: 300 }, (_, i) => (i * 37) & 0xff);
      const bin = pack(x);
      expect([...bin.subarray(0, 3)]).toEqual([0xc5, 0x01, 0x2c]);
      expect(Buffer.from(bin.subarray(3)).equals(Buffer.from(x))).toBe(true);
      expect([...pack(new Uint8Array([1, 200]))]).toEqual([0xc4, 2, 1, 200]);
      expect([...pack(new Uint8Array([1, 200]), { bin: false })]).toEqual([0x92, 1, 0xcc, 200]);
      expect(pack(new Uint8Array(70000))[0]).toBe(0xc6);
      const clamped = Uint8ClampedArray.from(x);
      expect([...pack(clamped)]).toEqual([...bin]);
      for (const Type of [Uint8Array, Uint8ClampedArray]) {
        const fromBin = unpack(bin, Type);
        expect(fromBin).toBeInstanceOf(Type);
        expect([...fromBin]).toEqual([...x]);
        const fromArray = unpack(pack(x, { bin: false }), Type);
        expect(fromArray).toBeInstanceOf(Type);
        expect([...fromArray]).toEqual([...x]);
      }
      expect(fastmpError(() => unpack(u8(0x91, 0xcd, 1, 0), Uint8ClampedArray)).code).toBe('RANGE');
      expect(fastmpError(() => unpack(u8(0xc4, 5, 1, 2), Uint8Array)).code).toBe('LENGTH');
      expect(fastmpError(() => unpack(u8(0xc5, 0), Uint8Array)).code).toBe('TRUNCATED');
      expect(fastmpError(() => unpack(u8(0xc4, 1, 7, 8), Uint8Array)).code).toBe('TRAILING');
      expect(unpackFrom(u8(0xc4, 1, 7, 8), Uint8Array)).toEqual({ value: new Uint8Array([7]), end: 3 });
      expect(fastmpError(() => unpack(u8(0xc4, 1, 7), Int8Array)).code).toBe('NOT_ARRAY');
    });

    test.each([0, 1, 15, 16, 17, 31, 33, 64, 65, 4096, 65536])('booleans of %i round-trip', (n) => {
      const r = rng(n + 1);
      const flags = Uint8Array.from({ length: n }, () => (r.int(3) === 0 ? 0 : r.int(256) || 1));
      const packed = packBool(flags);
      expect(packed.length).toBe((n <= 15 ? 1 : n <= 65535 ? 3 : 5) + n);
      flags.forEach((f, i) => expect(packed[packed.length - n + i]).toBe(f ? 0xc3 : 0xc2));
      const back = unpackBool(packed);
      expect(back).toBeInstanceOf(Uint8Array);
      expect([...back]).toEqual([...flags].map((f) => (f ? 1 : 0)));
      const asArray = [...flags].map(Boolean);
      expect(Buffer.from(packBool(asArray)).equals(Buffer.from(packed))).toBe(true);
      expect(Buffer.from(packed).equals(Buffer.from(encode(asArray)))).toBe(true);
    });

    // The SIMD pack writes a first vector unaligned, then vectors aligned to
    // 16 bytes in runs of 8, then single vectors, then a last one unaligned
    // (overlapping): every length crosses each of those boundaries, with every
    // byte value that means true, and with a header of 1 and of 3 bytes.
    test('booleans of every length 0..300 and 4096..4112: tags, round trip', () => {
      const r = rng(21);
      for (const n of [...Array.from({ length: 301 }, (_, i) => i), ...Array.from({ length: 17 }, (_, i) => 4096 + i)]) {
        const flags = Uint8Array.from({ length: n }, (_, i) => (r.int(2) ? 0 : i % 256 || 0x80));
        const packed = packBool(flags);
        const expected = [...(n <= 15 ? [0x90 | n] : [0xdc, n >> 8, n & 0xff]), ...Array.from(flags, (f) => (f ? 0xc3 : 0xc2))];
        expect(Buffer.from(packed).equals(Buffer.from(expected))).toBe(true);
        expect(Buffer.from(unpackBool(packed)).equals(Buffer.from(flags.map((f) => (f ? 1 : 0))))).toBe(true);
      }
    });

    test('booleans: bad elements and bad arguments', () => {
      for (const at of [0, 5, 15, 16, 30]) {
        const bytes = Uint8Array.from(packBool(new Uint8Array(40).fill(1)));
        bytes[3 + at] = [0xc0, 0x01, 0xc4, 0xc1, 0xc2 + 2][at % 5];
        const e = fastmpError(() => unpackBool(bytes));
        expect([e.code, e.index, e.offset]).toEqual(['TYPE', at, 3 + at]);
        expect(e.message).toMatch(/is not a boolean/);
      }
      expect(fastmpError(() => unpackBool(u8(0x93, 0xc2, 0xc3))).code).toBe('LENGTH');
      expect(fastmpError(() => unpackBool(u8(0x92, 0xc2, 0xc3, 0xc3))).code).toBe('TRAILING');
      expect(unpackBoolFrom(u8(0xff, 0x92, 0xc2, 0xc3, 0xc3), 1)).toEqual({ value: new Uint8Array([0, 1]), end: 4 });
      expect(() => packBool([true, 1])).toThrow(/element 1 is the number 1, not a boolean/);
      expect(() => packBool('yes')).toThrow(TypeError);
      expect(() => packBool(new Int8Array(2))).toThrow(TypeError);
    });

    test('options are checked', () => {
      expect(() => pack(new Int8Array(2), { binary: false })).toThrow(/no option 'binary'/);
      expect(() => unpack(u8(0x90), Int8Array, { integralFloat: true })).toThrow(/no option 'integralFloat'/);
      expect(() => unpack(u8(0x90), Int8Array, 'fast')).toThrow(TypeError);
    });
  });
}
