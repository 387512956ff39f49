// pack-into.test.js - packInto(x, target, offset?, options?): the bytes pack()
// writes, at the offset, on every path and type; the end offset; no room is a
// RangeError with the target unchanged; targets that fastmp itself owns, or
// that share memory with x, and hostile targets.

import { describe, expect, test } from 'vitest';
import { FastmpError, createFastmp, init, packInto as modulePackInto, pack as modulePack } from '../js/index.js';
import { KINDS } from '../js/kinds.js';
import { rng as makeRng } from './rng.js';

const PATHS = [
  ['simd', { backend: 'simd', pureJs: 'never' }],
  ['scalar', { backend: 'scalar', pureJs: 'never' }],
  ['pure-js', { pureJs: 'always' }],
  ['auto', {}],
  ['js backend', { backend: 'js' }],
];

/** Random elements of a kind: ints of every form, floats with NaNs. */
function sample(kind, n, rng) {
  const x = new kind.Type(n);
  const bytes = new Uint8Array(x.buffer);
  for (let i = 0; i < bytes.length; i++) bytes[i] = rng() * 256;
  if (!kind.float && !kind.big) for (let i = 0; i < n; i += 3) x[i] = (rng() - 0.5) * 200; // fixints and small forms too
  return x;
}

describe.each(PATHS)('%s', (name, options) => {
  test('writes what pack() returns, at the offset, for every type and size; returns the end', async () => {
    const fm = await createFastmp(options);
    const next = makeRng(7);
    const rng = next.float;
    for (const kind of KINDS) {
      for (const n of [0, 1, 4, 15, 16, 100, 5000]) {
        const x = sample(kind, n, rng);
        for (const bin of [true, false]) {
          const expected = fm.pack(x, { bin });
          const offset = Math.floor(rng() * 9);
          const target = new Uint8Array(offset + expected.length + 7).fill(0xee);
          const end = fm.packInto(x, target, offset, { bin });
          expect(end).toBe(offset + expected.length);
          expect(Buffer.from(target.subarray(offset, end)).equals(Buffer.from(expected))).toBe(true);
          expect(target.subarray(0, offset).every((b) => b === 0xee)).toBe(true);
          expect(target.subarray(end).every((b) => b === 0xee)).toBe(true);
        }
      }
    }
  });

  test('an exact fit works; one byte less is a RangeError and leaves the target as it was', async () => {
    const fm = await createFastmp(options);
    for (const x of [Int32Array.of(1, 2, 3), Float32Array.from({ length: 300 }, (_, i) => i / 3), new Int16Array(2000).fill(5)]) {
      const size = fm.pack(x).length;
      expect(fm.packInto(x, new Uint8Array(size))).toBe(size);
      const short = new Uint8Array(size + 2).fill(9);
      expect(() => fm.packInto(x, short, 3)).toThrow(new RangeError(`fastmp: packInto() needs ${size} bytes from offset 3; the target has ${size - 1}`));
      expect(short.every((b) => b === 9)).toBe(true);
    }
  });

  test('x and target in the same memory, overlapping: the output is what x held', async () => {
    const fm = await createFastmp(options);
    const buffer = new ArrayBuffer(4096);
    const x = new Float32Array(buffer, 16, 100).map((_, i) => i * 1.25);
    const expected = fm.pack(x);
    const target = new Uint8Array(buffer);
    expect(fm.packInto(x, target, 8)).toBe(8 + expected.length);
    expect(Buffer.from(target.subarray(8, 8 + expected.length)).equals(Buffer.from(expected))).toBe(true);
  });

  test('arguments: target, offset and options are checked before anything is written', async () => {
    const fm = await createFastmp(options);
    const x = Float32Array.of(1);
    expect(() => fm.packInto(x, new ArrayBuffer(8))).toThrow(/packInto\(\) writes into a Uint8Array, not an ArrayBuffer/);
    expect(() => fm.packInto(x, new Int8Array(8))).toThrow(/not an Int8Array/);
    expect(() => fm.packInto(x, new Uint8Array(8), 9)).toThrow(/offset must be an integer from 0 to 8, not the number 9/);
    expect(() => fm.packInto(x, new Uint8Array(8), -1)).toThrow(RangeError);
    expect(() => fm.packInto(x, new Uint8Array(8), 1.5)).toThrow(RangeError);
    expect(() => fm.packInto(x, new Uint8Array(8), 0, { bim: true })).toThrow(/has no option 'bim'/);
    expect(() => fm.packInto([1], new Uint8Array(8))).toThrow(/packInto\(\) takes a Float32Array/);
    const target = new Uint8Array(8);
    structuredClone(target.buffer, { transfer: [target.buffer] });
    expect(() => fm.packInto(x, target)).toThrow(FastmpError);
  });

  test('a target whose own properties throw is written through the intrinsics only', async () => {
    const fm = await createFastmp(options);
    const target = new Uint8Array(64);
    for (const key of ['length', 'buffer', 'byteOffset', 'byteLength', 'set', 'subarray']) {
      Object.defineProperty(target, key, { get: () => { throw new Error(`read ${key}`); } });
    }
    const x = Int32Array.of(1, -1000, 70_000);
    const end = fm.packInto(x, target, 2);
    expect(Buffer.from(Uint8Array.prototype.slice.call(target, 2, end)).equals(Buffer.from(fm.pack(x)))).toBe(true);
  });
});

describe.each(PATHS.slice(0, 2))('%s: wasm memory', (name, options) => {
  test('an alloc() target is written in place, also when the call grows memory', async () => {
    const fm = await createFastmp(options);
    const target = fm.alloc(Uint8Array, 64);
    const small = Float64Array.of(1, 2, 3);
    const end = fm.packInto(small, target, 5);
    expect(Buffer.from(target.subarray(5, end)).equals(Buffer.from(fm.pack(small)))).toBe(true);
    // A big input grows memory (the caller's view is then detached: refresh() gives it back).
    const big = Float64Array.from({ length: 300_000 }, (_, i) => i);
    const room = fm.alloc(Uint8Array, 9 * 300_000 + 5);
    const bigEnd = fm.packInto(big, room);
    const live = room.length === 0 ? fm.refresh(room) : room;
    expect(Buffer.from(live.subarray(0, bigEnd)).equals(Buffer.from(fm.pack(big)))).toBe(true);
  });

  test("fastmp's own outputs and stale views are refused as targets", async () => {
    const fm = await createFastmp(options);
    const x = Float32Array.of(1, 2);
    const view = fm.packView(x);
    expect(() => fm.packInto(x, view)).toThrow(/cannot write into an output of fastmp's own/);
    const freed = fm.alloc(Uint8Array, 64);
    fm.free(freed);
    expect(() => fm.packInto(x, freed)).toThrow(expect.objectContaining({ code: 'FREED' }));
    // Low wasm memory (static data) is no target, however small the view.
    const low = new Uint8Array(fm.alloc(Uint8Array, 1).buffer, 0, 64);
    expect(() => fm.packInto(x, low)).toThrow(expect.objectContaining({ code: 'STALE' }));
  });
});

test('the module-level packInto is the default instance', async () => {
  await init();
  const target = new Uint8Array(32);
  const x = Float32Array.of(0.5, 7);
  expect(Buffer.from(target.subarray(0, modulePackInto(x, target))).equals(Buffer.from(modulePack(x)))).toBe(true);
});
