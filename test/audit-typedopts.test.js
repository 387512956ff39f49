// audit-typedopts.test.js - an audit of typed arrays inside messages, every way
// they are written and read back: the Encoder's `typedArrays` modes
// (js/codec/encoder.js writeView / writeTypedArray / writeTypedExt), the
// shaped decode's typed paths (js/codec/decoder.js readTypedField /
// readTypedFields, js/io.js FieldReader, js/wire.js), reuseTypedArrays,
// integralFloats, and the encoder options that touch numbers. The numbered
// describe() is a finding that failed on 76530ce; the last one holds what was
// confirmed right and no other test covers.
import { describe, expect, test } from 'vitest';
import { asBools, createFastmpSync } from '../js/index.js';
import { KINDS } from '../js/kinds.js';
import { catchError, hex } from './messages-helpers.js';

/** Every build, each taking the path it would take for every size (pure JS; each wasm build with no pure-JS shortcut; auto). */
const BUILDS = [
  ['pure JS', createFastmpSync({ backend: 'js' })],
  ['wasm scalar', createFastmpSync({ backend: 'scalar', pureJs: 'never' })],
  ['wasm SIMD', createFastmpSync({ backend: 'simd', pureJs: 'never' })],
  ['auto', createFastmpSync()],
];

/** value inside `levels` arrays: at depth levels + 1 (the top value has depth 1). */
const nestedIn = (value, levels) => {
  for (let i = 0; i < levels; i++) value = [value];
  return value;
};

describe.each(BUILDS)('1: encode() counts the elements of a typed array it writes as a standard array as a level, as decode() does (js/codec/encoder.js writeTypedArray) [%s]', (_, fm) => {
  // A typed array written as a msgpack array (typedArrays 'array', and a
  // BoolArray in every mode) was written whatever its depth: its elements were
  // no level to the encoder, where they are to decode() without a shape (an
  // array of numbers, as a plain array's) and to the encoder for a plain array.
  // So `encode()` wrote, with the default maxDepth (or the one both sides set),
  // messages that `decode()` with the same maxDepth refuses (DEPTH), while
  // docs/messages.md says decode's maxDepth is "counted as encode counts it".
  const leaves = [
    ['Float32Array', () => Float32Array.of(1.5, -2)],
    ['BigInt64Array', () => BigInt64Array.of(-(2n ** 63n))],
    ['Int16Array', () => Int16Array.of(7)],
    ['asBools()', () => asBools(Uint8Array.of(1, 0))],
  ];

  test.each(leaves)('%s at every depth: what encode() writes, decode() with the same maxDepth reads', (name, make) => {
    for (const typedArrays of ['array', 'ext', 'bin']) {
      for (const [maxDepth, levels] of [[100, 98], [100, 99], [100, 100], [3, 1], [3, 2], [1, 0]]) {
        const value = nestedIn(make(), levels);
        let bytes;
        try {
          bytes = fm.encode(value, { typedArrays, maxDepth });
        } catch (err) {
          expect(err.code, `${typedArrays}, maxDepth ${maxDepth}, ${levels} levels`).toBe('DEPTH');
          continue;
        }
        expect(() => fm.decode(bytes, { maxDepth }), `${typedArrays}, maxDepth ${maxDepth}, ${levels} levels`).not.toThrow();
      }
    }
  });

  test('as a plain array of the same numbers: refused where it is, written where it is; empty ones, bins and exts are no level', () => {
    const deep = { a: { b: Float32Array.of(1) } }; // the elements at depth 4
    expect(catchError(() => fm.encode({ a: { b: [1] } }, { maxDepth: 3 }))).toMatchObject({ code: 'DEPTH' });
    expect(catchError(() => fm.encode(deep, { maxDepth: 3 }))).toMatchObject({ code: 'DEPTH', path: '$.a.b' });
    expect(catchError(() => fm.encode({ a: { b: asBools(Uint8Array.of(1)) } }, { maxDepth: 3, typedArrays: 'bin' }))).toMatchObject({ code: 'DEPTH' });
    expect(fm.decode(fm.encode(deep, { maxDepth: 4 }), { maxDepth: 4 })).toEqual({ a: { b: [1] } });
    // An empty array has no elements (decode takes it at maxDepth too); a bin or an ext is one value.
    expect(fm.decode(fm.encode({ a: { b: new Float32Array(0) } }, { maxDepth: 3 }), { maxDepth: 3 })).toEqual({ a: { b: [] } });
    for (const typedArrays of ['ext', 'bin']) {
      const bytes = fm.encode(deep, { typedArrays, maxDepth: 3 });
      expect(fm.decode(bytes, { maxDepth: 3, shape: { a: { b: Float32Array } } })).toEqual(deep);
    }
  });
});

describe('confirmed right (no other test covers it)', () => {
  test('forceFloat32 and forceIntegerToFloat leave typed arrays as pack(x, { bin: false }) writes them, in every build (they apply to plain numbers)', () => {
    const x = {
      f64: Float64Array.of(0.1, -0, NaN, 2 ** 53 + 2, 5e-324),
      f32: Float32Array.of(1, -0, 16777217, 1e-45),
      i32: Int32Array.of(1, -1, 2 ** 31 - 1),
      u64: BigUint64Array.of(2n ** 64n - 1n, 7n),
    };
    for (const [name, fm] of BUILDS) {
      for (const options of [{ forceFloat32: true }, { forceIntegerToFloat: true }, { forceFloat32: true, forceIntegerToFloat: true }]) {
        for (const [key, typed] of Object.entries(x)) {
          expect(hex(fm.encode(typed, options)), `${name} ${key} ${JSON.stringify(options)}`).toBe(hex(fm.pack(typed, { bin: false })));
          expect(hex(fm.encode(typed, { ...options, typedArrays: 'bin' }))).toBe(hex(fm.encode(typed, { typedArrays: 'bin' })));
        }
        // The options are in effect: a plain 0.1 becomes a float32, a plain 1 a float.
        const plain = fm.encode([0.1, 1], options);
        if (options.forceFloat32) expect(plain[1]).toBe(0xca);
        if (options.forceIntegerToFloat) expect(plain.at(-5) === 0xca || plain.at(-9) === 0xcb).toBe(true);
      }
    }
  });

  test('shaped decode of every numeric form, around the crossover lengths, with reuse and integralFloats: every build reads what an independent reference computes', () => {
    // Random in-range elements in every form that holds them (fixints, int 8-64, uint 8-64,
    // float32 / float64; integral floats into integer arrays with integralFloats); the
    // expected element computed here from the value (the nearest float, ties to even).
    let seed = 12345;
    const random = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32);
    const int = (n) => Math.floor(random() * n);
    const bits = (n) => {
      let v = 0n;
      for (let i = 0; i < n; i += 16) v = (v << 16n) | BigInt(int(65536));
      return v & ((1n << BigInt(n)) - 1n);
    };
    const be = (bytes, v) => Array.from({ length: bytes }, (_, i) => Number((BigInt.asUintN(8 * bytes, v) >> BigInt(8 * (bytes - 1 - i))) & 0xffn));
    const intForms = (v) => [
      ...(v >= 0n && v < 128n ? [[Number(v)]] : []), ...(v >= -32n && v < 0n ? [[Number(v) & 0xff]] : []),
      ...[[0xcc, 1], [0xcd, 2], [0xce, 4], [0xcf, 8]].filter(([, b]) => v >= 0n && v < 2n ** BigInt(8 * b)).map(([t, b]) => [t, ...be(b, v)]),
      ...[[0xd0, 1], [0xd1, 2], [0xd2, 4], [0xd3, 8]].filter(([, b]) => v >= -(2n ** BigInt(8 * b - 1)) && v < 2n ** BigInt(8 * b - 1)).map(([t, b]) => [t, ...be(b, v)]),
    ];
    const float = (tag, x) => {
      const b = new Uint8Array(tag === 0xca ? 5 : 9);
      const view = new DataView(b.buffer);
      b[0] = tag;
      if (tag === 0xca) view.setFloat32(1, x);
      else view.setFloat64(1, x);
      return [...b];
    };
    const nearest = (v, digits) => { // the nearest float of `digits` significant bits to the BigInt v, ties to even
      const m = v < 0n ? -v : v;
      const length = m.toString(2).length;
      let x = Number(m);
      if (length > digits) {
        const shift = BigInt(length - digits);
        let q = m >> shift;
        const rest = m - (q << shift);
        const half = 1n << (shift - 1n);
        if (rest > half || (rest === half && (q & 1n) === 1n)) q++;
        x = Number(q) * 2 ** Number(shift);
      }
      return v < 0n ? -x : x;
    };
    const LENGTHS = [0, 1, 3, 4, 5, 7, 8, 9, 15, 16, 17, 23, 24, 25, 31, 32, 33, 47, 48, 49, 63, 64, 65, 95, 96, 97, 127, 128, 129, 255, 256, 257, 511, 512, 513, 1023, 1024, 1025];
    for (let round = 0; round < 160; round++) {
      const kind = KINDS[int(KINDS.length)];
      const n = LENGTHS[int(LENGTHS.length)];
      const integralFloats = random() < 0.5;
      const want = new kind.Type(n);
      const elements = [];
      for (let i = 0; i < n; i++) {
        if (kind.float && random() < 0.5) {
          const x = (random() - 0.5) * 10 ** int(40);
          const tag = random() < 0.7 ? (kind.bytes === 4 ? 0xca : 0xcb) : (kind.bytes === 4 ? 0xcb : 0xca);
          elements.push(...float(tag, x));
          want[i] = tag === 0xca ? Math.fround(x) : x;
        } else if (kind.float) {
          let v = bits([7, 8, 16, 24, 32, 53, 54, 60, 63, 64][int(10)]);
          if (random() < 0.4 && v < 2n ** 63n) v = -v;
          if (random() < 0.2) v = [2n ** 64n - 1n, -(2n ** 63n), 2n ** 53n + 1n, 2n ** 24n + 1n, 2n ** 64n - 2n ** 39n, 2n ** 63n + 2n ** 39n][int(6)];
          const forms = intForms(v);
          elements.push(...forms[int(forms.length)]);
          want[i] = nearest(v, kind.bytes === 4 ? 24 : 53);
        } else {
          const lo = BigInt(kind.min);
          const hi = BigInt(kind.max);
          const pick = int(6);
          let v = pick === 0 ? lo : pick === 1 ? hi : pick === 2 ? BigInt(int(300)) - 150n : lo + (bits((hi - lo).toString(2).length + 2) % (hi - lo + 1n));
          v = v < lo ? lo : v > hi ? hi : v;
          if (integralFloats && random() < 0.3 && v >= -(2n ** 53n) && v <= 2n ** 53n) {
            elements.push(...float(Math.fround(Number(v)) === Number(v) && random() < 0.5 ? 0xca : 0xcb, Number(v)));
          } else {
            const forms = intForms(v);
            elements.push(...forms[int(forms.length)]);
          }
          want[i] = kind.big ? v : Number(v);
        }
      }
      const array = [...(n <= 15 ? [0x90 | n] : [0xdc, n >> 8, n & 0xff]), ...elements];
      const message = [0x82, 0xa1, 0x76, ...array, 0xa1, 0x77, 0x92, ...array, ...array];
      const pad = int(5);
      const input = new Uint8Array(message.length + pad).fill(0xc1);
      input.set(message, pad);
      for (const [name, fm] of BUILDS) {
        for (const reuseTypedArrays of [false, true]) {
          const decoder = new fm.Decoder({ shape: { v: kind.Type, w: [kind.Type] }, integralFloats, reuseTypedArrays });
          for (let again = 0; again < 2; again++) {
            const got = decoder.decode(input.subarray(pad));
            for (const field of [got.v, ...got.w]) {
              expect(field).toBeInstanceOf(kind.Type);
              expect(hex(field), `${name} ${kind.name}(${n}) integralFloats ${integralFloats} reuse ${reuseTypedArrays}`).toBe(hex(want));
            }
          }
        }
      }
    }
  });
});
