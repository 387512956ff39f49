// The zero-copy API: alloc() arrays in wasm memory, packView() outputs in
// wasm memory, free() and refresh(); their lifetimes across memory growth
// and later calls, and clear errors for every misuse.
import { beforeEach, describe, expect, test } from 'vitest';
import {
  FastmpError, alloc, decodeBMP, encodeBMP, free, init, memoryStats, pack, packBool, packBoolView, packView, refresh, unpack,
  unpackBool, unpackFrom,
} from '../js/index.js';
import { bytesOf, headerBytes, randomF32, randomF64 } from './helpers.js';

/** The FastmpError fn throws, checked for its code. */
function usageError(fn, code) {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(FastmpError);
    expect([e.code, e.index, e.offset]).toEqual([code, -1, -1]);
    return e;
  }
  throw new Error(`expected a FastmpError ${code}, nothing was thrown`);
}

/** Grows wasm memory past anything seen so far, with a call that needs a big scratch. */
function growMemory() {
  const before = memoryStats().wasmMemory;
  pack(new Float64Array(memoryStats().wasmMemory / 4));
  expect(memoryStats().wasmMemory).toBeGreaterThan(before);
}

for (const backend of ['simd', 'scalar']) {
  describe(backend, () => {
    beforeEach(() => init({ backend }));

    test('alloc() gives a typed array in wasm memory; pack() and packView() give the same bytes as for a copy', () => {
      for (const [Type, values] of [[Float32Array, randomF32(1000, 1)], [Float64Array, randomF64(300, 2)],
        [Int16Array, Int16Array.from({ length: 500 }, (_, i) => i * 131 - 30000)],
        [BigUint64Array, BigUint64Array.from({ length: 40 }, (_, i) => 2n ** BigInt(i + 20) + 3n)]]) {
        const x = alloc(Type, values.length);
        expect(x).toBeInstanceOf(Type);
        expect(x.length).toBe(values.length);
        x.set(values);
        const expected = Buffer.from(pack(values));
        expect(Buffer.from(pack(x)).equals(expected)).toBe(true);
        const view = packView(x);
        expect(view).toBeInstanceOf(Uint8Array);
        expect(Buffer.from(view).equals(expected)).toBe(true);
        expect(bytesOf(unpack(view, Type)).equals(bytesOf(values))).toBe(true); // a fresh output is fine as input
        free(x);
      }
    });

    test("packView() output's elements start at a 16-byte boundary of wasm memory (the SIMD packers' stores then stay within cache lines), from an alloc() array or a copy", () => {
      for (const n of [16, 17, 100, 65535, 65536, 70000]) {
        for (const x of [randomF32(n, n), randomF64(n, n + 1), Int32Array.from(randomF32(n, n + 2), (v) => v * 1e6)]) {
          const expected = Buffer.from(pack(x));
          const held = alloc(x.constructor, n);
          held.set(x);
          // held first: packing a copy may grow memory, which detaches held
          for (const [input, from] of [[held, 'alloc()'], [x, 'a copy']]) {
            const view = packView(input);
            expect((view.byteOffset + headerBytes(n)) % 16, `${x.constructor.name} ${n} from ${from}`).toBe(0);
            expect(Buffer.from(view).equals(expected)).toBe(true);
          }
          free(held);
        }
      }
    });

    test('Uint8Array: packView() writes bin by default, an array of ints with { bin: false }', () => {
      const x = alloc(Uint8Array, 300);
      x.set(Uint8Array.from({ length: 300 }, (_, i) => i * 7));
      expect(Buffer.from(packView(x)).equals(Buffer.from(pack(Uint8Array.from(x))))).toBe(true);
      expect(Buffer.from(packView(x, { bin: false })).equals(Buffer.from(pack(Uint8Array.from(x), { bin: false })))).toBe(true);
      expect(Buffer.from(pack(x)).equals(Buffer.from(pack(Uint8Array.from(x))))).toBe(true);
      expect(Buffer.from(packBool(x)).equals(Buffer.from(packBool(Uint8Array.from(x))))).toBe(true);
      free(x);
    });

    test('booleans without copies: packBoolView() of an alloc() array, unpackBool() of an alloc() input', () => {
      for (const n of [0, 1, 17, 4096, 100_003]) {
        const x = alloc(Uint8Array, n);
        for (let i = 0; i < n; i++) x[i] = (i * 2654435761) % 7 < 3 ? 0 : (i % 5) + 1; // truthy bytes other than 1 too
        const expected = Buffer.from(packBool(Uint8Array.from(x)));
        const before = memoryStats();
        const view = packBoolView(x);
        expect(memoryStats()).toEqual(before); // alloc() reserved the scratch
        expect(Buffer.from(view).equals(expected)).toBe(true);
        expect(Array.from(packBoolView(Array.from(x, Boolean)))).toEqual(Array.from(expected));
        const input = alloc(Uint8Array, view.length);
        input.set(packBoolView(x));
        expect(Array.from(unpackBool(input))).toEqual(Array.from(x, (v) => (v ? 1 : 0)));
        usageError(() => unpackBool(view), 'STALE'); // the later calls overwrote it
        free(input);
        free(x);
        usageError(() => packBoolView(x), 'FREED');
      }
    });

    test('packView() of an alloc() array never grows memory (its scratch is reserved by alloc)', () => {
      const x = alloc(Float64Array, 50_000);
      x.fill(1.5);
      const before = memoryStats();
      const view = packView(x);
      expect(view.length).toBe(3 + 9 * 50_000);
      expect(memoryStats()).toEqual(before);
      expect(x.length).toBe(50_000); // still attached
      free(x);
    });

    test('unpack() reads an alloc(Uint8Array) input without a copy, errors quoting the right bytes', () => {
      const packed = pack(randomF32(2000, 3));
      const input = alloc(Uint8Array, packed.length + 2);
      input.set(packed);
      input.set([0x91, 0xc0], packed.length);
      const { value, end } = unpackFrom(input, Float32Array);
      expect(end).toBe(packed.length);
      expect(Buffer.from(pack(value)).equals(Buffer.from(packed))).toBe(true);
      try {
        unpackFrom(input, Float32Array, packed.length);
        throw new Error('no error');
      } catch (err) {
        expect([err.code, err.index, err.offset]).toEqual(['TYPE', 0, packed.length + 1]);
        expect(err.message).toMatch(/0xc0 \(nil\)/);
      }
      free(input);
    });

    test('memory growth detaches alloc() views: fastmp refuses them, refresh() gives a live one with the same elements', () => {
      const x = alloc(Float32Array, 64);
      x.set(randomF32(64, 4));
      const saved = Float32Array.from(x);
      growMemory();
      expect(x.length).toBe(0); // detached: what JS does to a view of a grown wasm memory
      const e = usageError(() => pack(x), 'STALE');
      expect(e.message).toMatch(/refresh\(x\) gives a live one/);
      usageError(() => packView(x), 'STALE');
      const live = refresh(x);
      expect(bytesOf(live).equals(bytesOf(saved))).toBe(true);
      expect(Buffer.from(packView(live)).equals(Buffer.from(pack(saved)))).toBe(true);
      free(live);
      usageError(() => refresh(x), 'FREED'); // every view of a freed allocation is freed
    });

    test('a packView() output is refused once a later call may have overwritten it', () => {
      const x = alloc(Float32Array, 100);
      x.fill(2);
      const view = packView(x);
      expect(unpack(view, Float32Array).length).toBe(100); // right away: fine
      const again = packView(x);
      usageError(() => unpack(view, Float32Array), 'STALE'); // unpack() above was a later call
      pack(new Float32Array(1000)); // a call through wasm: it reuses the scratch
      const e = usageError(() => unpack(again, Float32Array), 'STALE');
      expect(e.message).toMatch(/copy it \(slice\(\)\) to keep it/);
      usageError(() => decodeBMP(again), 'STALE');
      const kept = packView(x).slice();
      pack(new Float32Array(1000));
      expect(unpack(kept, Float32Array).length).toBe(100);
      free(x);
    });

    test('free(): twice, or use after, is FREED; anything not from alloc() is a TypeError', () => {
      const x = alloc(Int32Array, 10);
      free(x);
      usageError(() => free(x), 'FREED');
      usageError(() => pack(x), 'FREED');
      usageError(() => packView(x), 'FREED');
      expect(() => free(new Int32Array(10))).toThrow(TypeError);
      expect(() => packView([1, 2])).toThrow(/packView\(\) takes a Float32Array/);
      expect(() => refresh(new Float32Array(4))).toThrow(TypeError);
      expect(() => alloc(Array, 4)).toThrow(TypeError);
      expect(() => alloc(Float32Array, -1)).toThrow(RangeError);
      expect(() => alloc(Float32Array, 1.5)).toThrow(RangeError);
    });

    test('packView() of an ordinary typed array: one copy in, none out', () => {
      for (const x of [randomF32(5000, 9), Int16Array.from({ length: 3000 }, (_, i) => i * 7 - 9000), new Uint8Array([1, 2, 3])]) {
        const view = packView(x);
        expect(view.buffer).not.toBe(x.buffer);
        expect(Buffer.from(view).equals(Buffer.from(pack(x)))).toBe(true);
      }
      const bytes = new Uint8Array([5, 200]);
      expect([...packView(bytes, { bin: false })]).toEqual([0x92, 5, 0xcc, 200]);
    });

    test('a subarray of an alloc() array packs correctly (copied, as any view of wasm memory)', () => {
      const x = alloc(Float64Array, 100);
      x.set(randomF64(100, 5));
      const sub = x.subarray(10, 60);
      expect(Buffer.from(pack(sub)).equals(Buffer.from(pack(Float64Array.from(sub))))).toBe(true);
      expect(Buffer.from(packView(sub)).equals(Buffer.from(pack(Float64Array.from(sub))))).toBe(true);
      free(x);
    });

    test('a packView() output unpacked by a call that grows memory is copied before the growth detaches it', () => {
      // Pack 1 M fixints: scratch ~3 MB. Unpacking them as Float64Array needs ~9 MB more: growth.
      const ints = Int8Array.from({ length: 1 << 20 }, (_, i) => (i % 200) - 100);
      const view = packView(ints, { bin: false });
      const before = memoryStats().wasmMemory;
      const floats = unpack(view, Float64Array);
      expect(memoryStats().wasmMemory).toBeGreaterThan(before);
      expect(floats).toEqual(Float64Array.from(ints));
    });

    test('a packView() output that fails to unpack gets an error quoting its own bytes', () => {
      const ints = new Int32Array(5000).fill(7);
      ints[4321] = 300;
      const view = packView(ints);
      const offset = 3 + 4321; // array16 header, then one byte per fixint
      const e = (() => { try { unpack(view, Int8Array); } catch (err) { return err; } throw new Error('no error'); })();
      expect(e).toBeInstanceOf(FastmpError);
      expect([e.code, e.index, e.offset, e.value]).toEqual(['RANGE', 4321, offset, 300]);
      expect(e.message).toMatch(/300/);
    });

    test('encodeBMP() takes an alloc(Uint16Array) array: encoded in place, refused once freed or detached', () => {
      const units = alloc(Uint16Array, 3);
      units.set([0x41, 0x4e2d, 0xfeff]);
      expect([...encodeBMP(units)]).toEqual([0x00, 0x41, 0x4e, 0x2d, 0xfe, 0xff]);
      const big = alloc(Uint16Array, 100);
      big.fill(0x263a);
      growMemory();
      usageError(() => encodeBMP(big), 'STALE');
      expect(encodeBMP(refresh(big))).toEqual(encodeBMP('\u263a'.repeat(100)));
      free(units);
      usageError(() => encodeBMP(units), 'FREED');
      free(big);
    });

    test('strings read alloc() bytes too', () => {
      const bmp = encodeBMP('zero-copy ✓');
      const input = alloc(Uint8Array, bmp.length);
      input.set(bmp);
      expect(decodeBMP(input)).toBe('zero-copy ✓');
      free(input);
    });

    test('allocations are released: 10 000 alloc/free cycles leave wasm memory where it was', () => {
      const before = memoryStats().wasmMemory;
      for (let i = 0; i < 10_000; i++) free(alloc(Float32Array, 1000 + (i % 7) * 100));
      expect(memoryStats().wasmMemory).toBe(before);
    });
  });
}
