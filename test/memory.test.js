// The JS/wasm boundary: no leak over 100 000 calls of mixed sizes (wasm memory
// stops growing once the largest size has been seen), results stay right
// across memory growth (no stale views), outputs belong to the caller.
import { beforeAll, expect, test } from 'vitest';
import { init, memoryStats, pack, unpack } from '../js/index.js';
import { bytesOf, randomF32, randomF64, rng } from './helpers.js';

beforeAll(() => init({ pureJs: 'never' }));

test('memory growth between calls never leaves a stale view', () => {
  const small = randomF32(20, 1);
  const before = memoryStats().wasmMemory;
  expect(bytesOf(unpack(pack(small), Float32Array)).equals(bytesOf(small))).toBe(true);
  const big = randomF64(3 << 20, 2); // 24 MB in, 27 MB out: memory must grow
  const packedBig = pack(big);
  expect(memoryStats().wasmMemory).toBeGreaterThan(before);
  expect(bytesOf(unpack(packedBig, Float64Array)).equals(bytesOf(big))).toBe(true);
  expect(bytesOf(unpack(pack(small), Float32Array)).equals(bytesOf(small))).toBe(true);
});

test('outputs are fresh arrays the caller owns, unaffected by later calls', () => {
  const a = pack(new Float32Array([1, 2, 3]));
  const b = unpack(pack(new Float64Array(100).fill(7)), Float64Array);
  const aCopy = Uint8Array.from(a);
  const bCopy = Float64Array.from(b);
  for (let i = 0; i < 50; i++) unpack(pack(randomF64(1000, i)), Float64Array);
  expect(a).toEqual(aCopy);
  expect(b).toEqual(bCopy);
  expect(a.buffer.byteLength).toBe(a.length); // not a window on a larger buffer
  expect(b.buffer.byteLength).toBe(b.byteLength);
});

test('100 000 calls of mixed sizes: wasm memory stops growing once the largest size is seen', async () => {
  await init({ pureJs: 'never' }); // a fresh instance: nothing seen yet
  const fresh = memoryStats();
  const r = rng(123);
  const LARGEST = 200_000;
  const inputs = [16, 100, 1000, 4096, 20_000, LARGEST].flatMap((n) => [randomF32(n, n), randomF64(n, n + 1)]);
  const packed = inputs.map((x) => pack(x));
  // Warm up: the largest inputs, both ways, once.
  for (const [i, x] of inputs.entries()) unpack(packed[i], x instanceof Float32Array ? Float32Array : Float64Array);
  const settled = memoryStats();
  expect(settled.scratch).toBeGreaterThan(fresh.scratch);
  expect(settled.wasmMemory).toBeGreaterThan(fresh.wasmMemory);
  let checked = 0;
  for (let call = 0; call < 100_000; call++) {
    // Mostly small and medium sizes, the largest now and then.
    const k = r.int(100) === 0 ? inputs.length - 1 - r.int(2) : r.int(inputs.length - 4);
    const x = inputs[k];
    if (call % 2) {
      const out = pack(x);
      if (call % 997 === 1) {
        expect(Buffer.from(out).equals(Buffer.from(packed[k]))).toBe(true);
        checked++;
      }
    } else {
      const out = unpack(packed[k], x instanceof Float32Array ? Float32Array : Float64Array);
      if (call % 997 === 0) {
        expect(bytesOf(out).equals(bytesOf(x))).toBe(true);
        checked++;
      }
    }
    if (call % 10_000 === 0) expect(memoryStats()).toEqual(settled);
  }
  expect(memoryStats()).toEqual(settled);
  expect(checked).toBeGreaterThan(100);
});

// The boundary's sizes reach 4 GiB: no 32-bit wrap anywhere (issue 6).
test('align16 is exact past 2 GiB', async () => {
  const { align16 } = await import('../js/wasm/core.js');
  for (const [n, want] of [[0, 0], [1, 16], [16, 16], [2 ** 31 - 1, 2 ** 31], [2 ** 31 + 1, 2 ** 31 + 16], [2 ** 32 - 17, 2 ** 32 - 16], [4.5e9 + 1, 4.5e9 + 16]]) {
    expect(align16(n)).toBe(want);
  }
});

test('reserve never asks malloc for a region that would reach past 4 GiB, and falls back to the exact size', async () => {
  const { Boundary } = await import('../js/wasm/core.js');
  // A stand-in for the wasm exports: memory of `size` bytes, a malloc that
  // records what it is asked and grows memory like sbrk (up to 4 GiB).
  const fake = (size) => {
    const asked = [];
    let top = 1024;
    const exports = {
      memory: { buffer: { byteLength: size } },
      malloc: (n) => {
        asked.push(n >>> 0);
        if (top + (n >>> 0) > 2 ** 32) return 0;
        const p = top;
        top += n >>> 0;
        exports.memory.buffer = { byteLength: Math.max(exports.memory.buffer.byteLength, top) };
        return p;
      },
      free: () => {},
    };
    return { exports, asked };
  };
  const { exports, asked } = fake(2 ** 21);
  // No views of the stand-in memory (it has no bytes).
  const b = new (class extends Boundary { refreshViews() {} })(exports);
  // 2.2 GB: the next power of two (4 GiB) is never asked for; the exact size is.
  b.reserve(2.2e9);
  expect(asked.slice(1)).toEqual([2.2e9 + 16]);
  expect(b.capacity).toBe(2.2e9);
  // With 2.2 GB of memory in use, 2.3 GB more cannot be had: no malloc call at all, a RangeError.
  expect(() => b.reserve(2.3e9)).toThrow(/wasm memory cannot grow to hold 2300000000 bytes/);
  expect(asked.length).toBe(2);
  expect([b.scratch, b.capacity]).toEqual([0, 0]); // nothing half-done
  // Past wasm32's 4 GiB: refused before anything is freed or asked.
  expect(() => b.reserve(2 ** 32)).toThrow(/do not fit in wasm32 memory/);
  // Every request malloc saw stays below 4 GiB from the memory's size at the time.
  for (const n of asked) expect(n + 2 ** 21).toBeLessThanOrEqual(2 ** 32);
});
