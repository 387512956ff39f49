// Round trips of Float32Array / Float64Array through every JS-reachable path:
// the SIMD wasm build, the scalar wasm build and the pure-JS path, each forced
// for every size, checked bit for bit against independently computed bytes.
import { beforeAll, describe, expect, test } from 'vitest';
import { backend, init, pack, unpack } from '../js/index.js';
import {
  F32_SPECIAL_BITS, F64_SPECIAL_BITS, SIZES, bytesOf, encodeElements, expectedArrayBytes, randomF32, randomF64,
} from './helpers.js';

const PATHS = [
  { name: 'wasm-simd', options: { backend: 'simd', pureJs: 'never' } },
  { name: 'wasm-scalar', options: { backend: 'scalar', pureJs: 'never' } },
  { name: 'pure-js', options: { pureJs: 'always' } },
  { name: 'auto', options: {} },
];

// Expected encodings, computed once from the bit patterns (not by fastmp).
const cases = new Map();
function caseFor(wide, n) {
  const key = `${wide}:${n}`;
  if (!cases.has(key)) {
    const x = wide ? randomF64(n, 1000 + n) : randomF32(n, 2000 + n);
    const bits = new Uint32Array(x.buffer);
    const elements = wide
      ? Array.from({ length: n }, (_, i) => ({ form: 'f64', value: [bits[2 * i + 1], bits[2 * i]] }))
      : Array.from(bits, (b) => ({ form: 'f32', value: b }));
    cases.set(key, {
      x,
      packed: Buffer.from(encodeElements(elements)),
      asF32: expectedArrayBytes(elements, false),
      asF64: expectedArrayBytes(elements, true),
    });
  }
  return cases.get(key);
}

for (const path of PATHS) {
  describe(path.name, () => {
    beforeAll(async () => {
      const got = await init(path.options);
      if (path.options.backend) expect(got).toBe(path.options.backend);
      expect(backend()).toBe(got);
    });

    for (const wide of [false, true]) {
      const type = wide ? 'Float64Array' : 'Float32Array';
      test.each(SIZES)(`${type} of %i round-trips bit for bit`, (n) => {
        const c = caseFor(wide, n);
        const packed = pack(c.x);
        expect(packed).toBeInstanceOf(Uint8Array);
        expect(Buffer.from(packed).equals(c.packed)).toBe(true);
        const same = unpack(packed, wide ? Float64Array : Float32Array);
        expect(same).toBeInstanceOf(wide ? Float64Array : Float32Array);
        expect(same.length).toBe(n);
        expect(bytesOf(same).equals(bytesOf(c.x))).toBe(true);
        const other = unpack(packed, wide ? Float32Array : Float64Array);
        expect(bytesOf(other).equals(wide ? c.asF32 : c.asF64)).toBe(true);
      });
    }

    test('every special value in every position of a SIMD block', () => {
      for (const [wide, specials] of [[false, F32_SPECIAL_BITS], [true, F64_SPECIAL_BITS]]) {
        for (let at = 0; at < 33; at++) {
          for (const s of specials) {
            const n = 33;
            const bits = new Uint32Array(n * (wide ? 2 : 1)).fill(wide ? 0 : 0x3f800000);
            if (wide) [bits[2 * at + 1], bits[2 * at]] = s;
            else bits[at] = s;
            const x = wide ? new Float64Array(bits.buffer) : new Float32Array(bits.buffer);
            const back = unpack(pack(x), wide ? Float64Array : Float32Array);
            expect(bytesOf(back).equals(bytesOf(x))).toBe(true);
          }
        }
      }
    });

    test('a subarray at an offset packs only its own elements', () => {
      const big = randomF32(100, 7);
      const sub = big.subarray(3, 40);
      expect(bytesOf(unpack(pack(sub), Float32Array)).equals(bytesOf(sub))).toBe(true);
      const big64 = randomF64(100, 8);
      const sub64 = big64.subarray(5, 22);
      expect(bytesOf(unpack(pack(sub64), Float64Array)).equals(bytesOf(sub64))).toBe(true);
    });

    test('the array header takes its smallest form', () => {
      expect(pack(new Float32Array(15))[0]).toBe(0x9f);
      expect([...pack(new Float32Array(16)).subarray(0, 3)]).toEqual([0xdc, 0, 16]);
      expect([...pack(new Float64Array(65535)).subarray(0, 3)]).toEqual([0xdc, 0xff, 0xff]);
      expect([...pack(new Float64Array(65536)).subarray(0, 5)]).toEqual([0xdd, 0, 1, 0, 0]);
    });

    test('integral floats stay floats', () => {
      expect([...pack(new Float32Array([1, 0, -3]))]).toEqual([0x93, 0xca, 0x3f, 0x80, 0, 0, 0xca, 0, 0, 0, 0, 0xca, 0xc0, 0x40, 0, 0]);
      expect([...pack(new Float64Array([2]))]).toEqual([0x91, 0xcb, 0x40, 0, 0, 0, 0, 0, 0, 0]);
    });
  });
}
