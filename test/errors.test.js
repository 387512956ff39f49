// Bad input and wrong arguments: every class gets its documented error, with
// the element index and byte offset, identically on every path.
import { beforeAll, describe, expect, test } from 'vitest';
import { FastmpError, init, memoryStats, pack, unpack, unpackFrom } from '../js/index.js';
import { KINDS } from '../js/kinds.js';
import { encodeElements, randomElements } from './helpers.js';

const PATHS = [
  ['wasm-simd', { backend: 'simd', pureJs: 'never' }],
  ['wasm-scalar', { backend: 'scalar', pureJs: 'never' }],
  ['pure-js', { pureJs: 'always' }],
];

/** The FastmpError that fn throws (fails the test if it throws anything else or nothing). */
function fastmpError(fn) {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(FastmpError);
    expect(e).toBeInstanceOf(Error);
    expect(e.name).toBe('FastmpError');
    return e;
  }
  throw new Error('expected a FastmpError, nothing was thrown');
}

const u8 = (...b) => Uint8Array.from(b.flat());
const f32Block = (n) => encodeElements(randomElements(n, 5, 'f32'));

for (const [name, options] of PATHS) {
  describe(name, () => {
    beforeAll(() => init(options));

    test.each([
      ['nil', u8(0xc0), 'NOT_ARRAY', -1, 0, /array at byte 0, found 0xc0 \(nil\)/],
      ['a map', u8(0x80), 'NOT_ARRAY', -1, 0, /0x80 \(fixmap\)/],
      ['a string', u8(0xa1, 0x61), 'NOT_ARRAY', -1, 0, /fixstr/],
      // A bin is read into a Uint8Array only; the error points to the call that reads typed arrays sent as bytes.
      ['a bin', u8(0xc4, 4, 0, 0, 0x80, 0x3f), 'NOT_ARRAY', -1, 0, /0xc4 \(bin\); fastmp's unpack\(\) reads a bin only into a Uint8Array: decode\(bytes, \{ shape: Float32Array \}\)/],
      ['empty input', u8(), 'TRUNCATED', -1, 0, /array header/],
      ['a cut array16 header', u8(0xdc, 0), 'TRUNCATED', -1, 0, /array header/],
      ['a cut array32 header', u8(0xdd, 0, 0, 0), 'TRUNCATED', -1, 0, /array header/],
      ['2^32-1 elements claimed by 10 bytes', u8(0xdd, 0xff, 0xff, 0xff, 0xff, 1, 2, 3, 4, 5), 'LENGTH', -1, 0, /claims 4294967295 elements/],
      ['16 claimed, 15 bytes follow', u8(0xdc, 0, 16, Array(15).fill(1)), 'LENGTH', -1, 0, /claims 16/],
      ['nil as element 1', u8(0x93, 1, 0xc0, 2), 'TYPE', 1, 2, /element 1 at byte 2 is not a number: found 0xc0 \(nil\)/],
      ['true as element 0', u8(0x91, 0xc3), 'TYPE', 0, 1, /0xc3 \(bool\)/],
      ['a nested array', u8(0x92, 0x91, 1), 'TYPE', 0, 1, /fixarray/],
      ['the never-used byte', u8(0x91, 0xc1), 'TYPE', 0, 1, /never used/],
      ['a float32 cut short', u8(0x92, 0xca, 0, 0), 'TRUNCATED', 0, 1, /inside element 0, which starts at byte 1/],
      ['a uint64 cut short', u8(0x92, 1, 0xcf, 0, 0, 0, 0, 0, 0, 0), 'TRUNCATED', 1, 2, /inside element 1/],
      ['elements that use up the input', u8(0x93, 0xcb, 0, 0, 0, 0, 0, 0, 0, 0), 'TRUNCATED', 1, 10, /ends at byte 10, before element 1/],
    ])('%s', (_, bytes, code, index, offset, message) => {
      for (const { Type } of KINDS.filter((k) => k.float)) {
        const e = fastmpError(() => unpack(bytes, Type));
        expect({ code: e.code, index: e.index, offset: e.offset }).toEqual({ code, index, offset });
        expect(e.message).toMatch(message);
      }
    });

    test('a bad element deep inside SIMD-sized input names its index and offset', () => {
      for (const at of [0, 15, 16, 17, 40, 63, 64, 99]) {
        const bytes = Uint8Array.from(f32Block(100));
        const offset = 3 + 5 * at; // array16 header, then 5 bytes per float32
        bytes[offset] = 0xc0;
        const e = fastmpError(() => unpack(bytes, Float32Array));
        expect([e.code, e.index, e.offset]).toEqual(['TYPE', at, offset]);
      }
    });

    test('input cut at every byte of a 40-element array', () => {
      const whole = f32Block(40);
      for (let cut = 0; cut < whole.length; cut++) {
        const e = fastmpError(() => unpack(whole.subarray(0, cut), Float64Array));
        if (cut < 3) expect([e.code, e.index, e.offset]).toEqual(['TRUNCATED', -1, 0]);
        else if (cut < 43) expect([e.code, e.index]).toEqual(['LENGTH', -1]); // 40 elements need 40 bytes
        else {
          const element = Math.floor((cut - 3) / 5);
          expect([e.code, e.index, e.offset]).toEqual(['TRUNCATED', element, 3 + 5 * element]);
        }
      }
    });

    test('trailing bytes: unpack rejects them, unpackFrom reports where the array ended', () => {
      const bytes = u8(0x92, 1, 0xca, 0x3f, 0x80, 0, 0, 0xc0, 0xc0);
      const e = fastmpError(() => unpack(bytes, Float32Array));
      expect([e.code, e.index, e.offset]).toEqual(['TRAILING', -1, 7]);
      expect(e.message).toMatch(/extra 2 of 9 bytes found at buffer\[7\] after the array/);
      const { value, end } = unpackFrom(bytes, Float32Array);
      expect([...value]).toEqual([1, 1]);
      expect(end).toBe(7);
    });

    test('unpackFrom reads consecutive arrays, with offsets relative to the whole input', () => {
      const long = f32Block(40);
      const bytes = u8(0xff, 0x92, 1, 2, [...long], 0x91, 0xc0);
      const first = unpackFrom(bytes, Float64Array, 1);
      expect([...first.value]).toEqual([1, 2]);
      expect(first.end).toBe(4);
      const second = unpackFrom(bytes, Float32Array, first.end);
      expect(second.value.length).toBe(40);
      expect(second.end).toBe(4 + long.length);
      const e = fastmpError(() => unpackFrom(bytes, Float32Array, second.end));
      expect([e.code, e.index, e.offset]).toEqual(['TYPE', 0, second.end + 1]);
      const atEnd = fastmpError(() => unpackFrom(bytes, Float32Array, bytes.length));
      expect([atEnd.code, atEnd.offset]).toEqual(['TRUNCATED', bytes.length]);
    });

    test('an ArrayBuffer or SharedArrayBuffer is accepted as input', () => {
      expect([...unpack(u8(0x92, 1, 0xff).buffer, Float32Array)]).toEqual([1, -1]);
      const shared = new SharedArrayBuffer(3);
      new Uint8Array(shared).set([0x92, 2, 0xfe]);
      expect([...unpack(shared, Float64Array)]).toEqual([2, -2]);
    });

    test('a hostile length is refused before anything is allocated for it', () => {
      const before = memoryStats();
      const e = fastmpError(() => unpack(u8(0xdd, 0xff, 0xff, 0xff, 0xff, 0xca, 0, 0, 0, 0), Float64Array));
      expect(e.code).toBe('LENGTH');
      expect(memoryStats()).toEqual(before);
    });

    test('wrong arguments are TypeErrors (or RangeErrors for a bad offset)', () => {
      for (const bad of [[1, 2], null, undefined, 'abc', 3, new DataView(new ArrayBuffer(4)), {}]) {
        expect(() => pack(bad)).toThrow(TypeError);
      }
      expect(() => pack([1.5])).toThrow(/pack\(\) takes a Float32Array, Float64Array, Int8Array, .*, not an Array/);
      for (const bad of [[0x90], 'x', null, undefined, new Uint16Array(2), 7]) {
        expect(() => unpack(bad, Float32Array)).toThrow(TypeError);
      }
      for (const bad of [undefined, Array, DataView, 'Float32Array', Float32Array.prototype, null, Boolean]) {
        expect(() => unpack(u8(0x90), bad)).toThrow(TypeError);
      }
      for (const bad of [-1, 1.5, 3, NaN, '1']) {
        expect(() => unpackFrom(u8(0x91, 1), Float32Array, bad)).toThrow(RangeError);
      }
    });

    test('after an error the module keeps working', () => {
      fastmpError(() => unpack(u8(0x93, 1, 0xc0, 2), Float32Array));
      const x = new Float32Array([1, 2, 3, 4.5]);
      expect([...unpack(pack(x), Float32Array)]).toEqual([...x]);
    });
  });
}
