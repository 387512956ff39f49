// A heap watches its views from the first it hands out (js/wasm/heap.js
// watching(), js/lifetimes.js watchReleased()): before, no view of its memory
// exists outside it, and a page that hands none out bundles none of the
// watching. Alone in its file, so that nothing else in this process has
// handed out a view before the test does: a heap that forgot to start
// watching is caught.
import { expect, test } from 'vitest';
import { createFastmp } from '../js/index.js';

test('a heap that grew before it handed out any view still refuses what it hands out later, past its lifetime', async () => {
  // Growth before the first hand-out records nothing; growth after it must.
  const fm = await createFastmp();
  const before = fm.memoryStats().wasmMemory;
  fm.pack(new Float32Array(1 << 20).fill(0.5)); // the kernel's scratch grows memory; no view handed out yet
  expect(fm.memoryStats().wasmMemory).toBeGreaterThan(before);
  const array = fm.alloc(Float32Array, 16); // the first view handed out
  array.fill(2);
  expect(fm.unpack(fm.pack(array), Float32Array)[15]).toBe(2);
  const output = fm.packView(new Float32Array(64).fill(1)); // valid until the next call
  expect(fm.unpack(output, Float32Array)[63]).toBe(1);
  const grown = fm.memoryStats().wasmMemory;
  fm.pack(new Float32Array(1 << 22).fill(0.5)); // grows again: both views detached (not DETACHED: what they were)
  expect(fm.memoryStats().wasmMemory).toBeGreaterThan(grown);
  expect(() => fm.unpack(output, Float32Array)).toThrow(expect.objectContaining({ code: 'STALE' }));
  expect(() => fm.pack(array)).toThrow(expect.objectContaining({ code: 'STALE' }));
  expect(fm.unpack(fm.pack(fm.refresh(array)), Float32Array)[15]).toBe(2);
  fm.free(fm.refresh(array));
  expect(() => fm.pack(array)).toThrow(expect.objectContaining({ code: 'FREED' }));
});
