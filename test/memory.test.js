// The JS/wasm boundary: no leak over 100 000 calls of mixed sizes (wasm memory
// stops growing once the largest size has been seen), results stay right
// across memory growth (no stale views), outputs belong to the caller.
import { beforeAll, expect, test } from 'vitest';
import { createFastmp, init, memoryStats, pack, unpack } from '../js/index.js';
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

// The heap's sizes reach 4 GiB: no 32-bit wrap anywhere (issue 6).
test('align16 is exact past 2 GiB', async () => {
  const { align16 } = await import('../js/wasm/allocator.js');
  for (const [n, want] of [[0, 0], [1, 16], [16, 16], [2 ** 31 - 1, 2 ** 31], [2 ** 31 + 1, 2 ** 31 + 16], [2 ** 32 - 17, 2 ** 32 - 16], [4.5e9 + 1, 4.5e9 + 16]]) {
    expect(align16(n)).toBe(want);
  }
});

// The heap's allocator (js/wasm/allocator.js), over a stand-in memory: it
// grows memory by no more than a request needs beyond the free block at the
// top, reuses and merges what is released, and says 0 when memory cannot
// grow (the heap then throws a RangeError that says so: test/huge.test.js).
test('the allocator grows memory by what a request lacks, reuses and merges released blocks, and says 0 past the limit', async () => {
  const { Allocator } = await import('../js/wasm/allocator.js');
  const LIMIT = 2 ** 32;
  let end = 2 ** 21;
  const grown = [];
  const space = new Allocator(2 ** 20, end, (bytes) => {
    grown.push(bytes);
    if (end + bytes > LIMIT) return -1;
    end += bytes;
    return end;
  });
  const a = space.malloc(1000);
  expect(a).toBe(2 ** 20);
  expect(space.sizeOf(a)).toBe(1008); // 16-byte aligned
  const b = space.malloc(2.2e9); // past 2 GiB: memory grows by what the free block at the top lacks
  expect(grown).toEqual([2.2e9 - (2 ** 20 - 1008)]);
  expect(b).toBe(a + 1008);
  expect(space.malloc(2.3e9)).toBe(0); // more than wasm32 holds with it: refused, nothing half-done
  expect(space.malloc(16)).toBe(b + 2.2e9); // (memory grows by 16 bytes: none was left at the top)
  expect(grown.slice(1)).toEqual([2.3e9, 16]);
  space.free(b);
  expect(space.malloc(2.1e9)).toBe(b); // released memory is reused...
  space.free(a);
  space.free(b);
  expect(space.malloc(2.2e9 + 1000)).toBe(a); // ...and merged with its free neighbours
  expect(grown).toHaveLength(3);
});

// A heap that holds nothing but scratch takes its blocks as a stack (no
// Allocator bundled for a page that only packs); its first other region or
// alloc() array makes the Allocator, which takes the stack's blocks over.
test('the stack hands out from its top, reuses its top block, and its Allocator keeps its blocks and reuses its holes', async () => {
  const { Allocator, Stack } = await import('../js/wasm/allocator.js');
  let end = 2 ** 21;
  const grown = [];
  const stack = new Stack(2 ** 20, end, (bytes) => {
    grown.push(bytes);
    if (end + bytes > 2 ** 32) return -1;
    return (end += bytes);
  });
  const result = stack.malloc(32);
  const scratch = stack.malloc(2 ** 16);
  expect([result, scratch, stack.sizeOf(scratch)]).toEqual([2 ** 20, 2 ** 20 + 32, 2 ** 16]);
  stack.free(scratch); // scratch grows: freed first, then taken again from the same start
  expect(stack.malloc(2 ** 21)).toBe(scratch);
  expect(grown).toEqual([scratch + 2 ** 21 - 2 ** 21]); // by what the top lacked
  expect(stack.malloc(2 ** 32)).toBe(0); // refused: nothing taken
  const above = stack.malloc(100);
  stack.free(scratch); // not the top: a hole
  expect(stack.holes).toEqual([{ start: scratch, end: scratch + 2 ** 21 }]);
  const space = Allocator.over(stack);
  expect(space.sizeOf(result)).toBe(32); // blocks in use stay in use
  expect(space.sizeOf(above)).toBe(112);
  expect(space.malloc(2 ** 20)).toBe(scratch); // the hole is free
  expect(() => space.free(scratch + 16)).toThrow(/internal: no block/);
  space.free(above); // merged with what is left of the hole below it
  expect(space.malloc(2 ** 20 + 112)).toBe(scratch + 2 ** 20);
});

test('a heap that packs, then allocates, keeps its scratch and its arrays apart as the allocator takes over', async () => {
  const fm = await createFastmp({ backend: 'scalar' });
  const big = new Float64Array(100_000).map((_, i) => i + 0.5);
  const packed = fm.pack(big); // scratch grows on the stack
  const arrays = Array.from({ length: 8 }, (_, i) => fm.alloc(Int32Array, 1000 * (i + 1)).fill(i));
  expect(fm.pack(new Float64Array(300_000).fill(2.5)).length).toBe(5 + 9 * 300_000); // scratch grows again, now the allocator's
  expect(Buffer.compare(fm.pack(big), packed)).toBe(0);
  arrays.forEach((a, i) => expect(fm.refresh(a).every((v) => v === i)).toBe(true));
  for (const a of arrays) fm.free(a);
});
