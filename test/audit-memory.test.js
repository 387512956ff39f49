// audit-memory.test.js - the memory audit's finding that a test can hold: an
// alloc() that the free block at the top of memory holds asked wasm memory to
// grow by 0 bytes, which detaches every view of it all the same. (Its other
// finding, alloc() / free() slower with every block the allocator keeps, is
// timed by bench/linearity.js: "alloc() / free() with n arrays held".)
import { expect, test } from 'vitest';
import { createFastmp } from '../js/node.js';

test('an alloc() that the free block at the top of memory holds grows no memory and detaches no view of it', async () => {
  // The allocator looks at the first 8 blocks of a request's own size class (NEAR_MISSES) and then
  // grows memory by what the free block at the top lacks: when that block holds the request
  // already, it asks for a growth of 0 bytes, and WebAssembly.Memory.grow(0) detaches the buffer
  // all the same. Every alloc() array the caller holds then reads as length 0 (refresh() needed),
  // though wasm memory did not grow.
  const m = await createFastmp({ backend: 'scalar' });
  const kept = m.alloc(Float32Array, 4).fill(1.5);
  const holes = [];
  for (let i = 0; i < 16; i++) {
    holes.push(m.alloc(Uint8Array, 4112)); // free blocks of 4112 bytes (size class 4096-8191)...
    m.alloc(Uint8Array, 16); // ...kept apart
  }
  // Eight freed before the top block joins that class and eight after: whichever end of the
  // class the allocator looks at first (NEAR_MISSES of them), it finds no block that fits.
  for (const h of holes.slice(0, 8)) m.free(h);
  // Every free block of 8192 bytes and more used up: 8192-byte arrays until memory grows, then the rest of that 64 KB page.
  const fillers = [];
  let memory = m.memoryStats().wasmMemory;
  while (m.memoryStats().wasmMemory === memory) fillers.push(m.alloc(Uint8Array, 8192));
  for (let i = 0; i < 7; i++) fillers.push(m.alloc(Uint8Array, 8192));
  memory = m.memoryStats().wasmMemory;
  const last = fillers.at(-1);
  const left = memory - (last.byteOffset + 8192); // the free block at the top
  expect(left).toBeLessThan(8192);
  for (const f of fillers.slice(-3)) m.free(f); // merged with it...
  m.alloc(Uint8Array, 3 * 8192 + left - 8176); // ...and taken but its last 8176 bytes, which hold 8000
  for (const h of holes.slice(8)) m.free(h);
  const view = m.refresh(kept);
  m.alloc(Uint8Array, 8000);
  expect(m.memoryStats().wasmMemory).toBe(memory); // (no growth was needed)
  expect(view.length).toBe(4); // was 0: detached by memory.grow(0)
  expect(Array.from(view)).toEqual([1.5, 1.5, 1.5, 1.5]);
});
