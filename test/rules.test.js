// rules.test.js - the boundary's rules held by code (issue 42), checked:
// one file compares lengths with the crossover table; the heap's state is
// private to it; a kernel reads only an input place() placed.
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { expect, test } from 'vitest';
import { KINDS } from '../js/kinds.js';
import { createFastmp } from '../js/index.js';
import { CORE } from '../js/instances.js';
import * as heapVerbs from '../js/wasm/heap.js';
import { ROOT } from './helpers.js';

/** Every .js file under js/, as [path relative to the root, its text]. */
function sources(dir = join(ROOT, 'js')) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sources(path);
    return e.name.endsWith('.js') ? [[relative(ROOT, path), readFileSync(path, 'utf8')]] : [];
  });
}

test('js/io.js alone reads the crossover table: it alone imports crossovers.js and reads a core\'s limits', () => {
  const files = sources();
  const importers = files.filter(([, text]) => /from '\.{1,2}\/crossovers\.js'/.test(text)).map(([path]) => path);
  expect(importers).toEqual(['js/io.js']);
  const readers = files.filter(([path, text]) => path.startsWith('js/') && /\bcore\.limits\b(?!\s*=[^=])|\.limits\.\w/.test(text)).map(([path]) => path);
  expect(readers).toEqual(['js/io.js']);
});

test('the heap\'s state is private: a live heap has no property a caller can read or write, and no file reaches past its verbs', async () => {
  const fm = await createFastmp({ backend: 'scalar' });
  const heap = fm[CORE].heap;
  fm.pack(new Float64Array(4096)); // (in use: modules attached, scratch grown)
  expect(Object.getOwnPropertyNames(heap)).toEqual([]);
  expect(Object.getOwnPropertySymbols(heap)).toEqual([]);
  expect(Object.getOwnPropertyNames(Object.getPrototypeOf(heap))).toEqual(['constructor']); // (no methods: its verbs are heap.js's functions)
  // The verbs read a Heap's state, and only a Heap's: anything else is a TypeError, and heap.js exports no way to the state.
  expect(heapVerbs.scratchOf(heap)).toBeDefined();
  for (const forged of [{}, Object.create(heap), new Proxy(heap, {})]) expect(() => heapVerbs.scratchOf(forged)).toThrow(TypeError);
  const exported = Object.values(heapVerbs).filter((v) => typeof v === 'function').map((f) => f.name);
  expect(exported).not.toContain('stateOf');
  expect(exported.some((name) => /state/i.test(name))).toBe(false);
  // Nothing outside js/wasm/heap.js makes a Region or a Source.
  const makers = sources().filter(([, text]) => /new (Region|Source)\(/.test(text)).map(([path]) => path);
  expect(makers).toEqual(['js/wasm/heap.js']);
});

test('a kernel reads only what place() placed: an address or a forged source is refused before any kernel runs', async () => {
  const fm = await createFastmp({ backend: 'scalar' });
  const heap = fm[CORE].heap;
  fm.pack(new Float32Array(4096));
  const region = heapVerbs.region(heap, 64);
  const f32 = KINDS.find((k) => k.Type === Float32Array);
  for (const forged of [64, { address: 64 }, Object.create(null)]) {
    expect(() => heapVerbs.pack(heap, f32, forged, region, 0)).toThrow(TypeError);
  }
  // The kernel takes the count placed, which no caller passes again (a view detached since reads as 0 elements).
  const placed = heapVerbs.place(heap, Float32Array, new Float32Array([1, 2, 3, 4]), 1, 3, 'pack', null, region, 32);
  expect(heapVerbs.pack(heap, f32, placed, region, 0)).toBe(1 + 5 * 3); // a fixarray header, three float 32s
  expect([...region.bytes.subarray(0, 6)]).toEqual([0x93, 0xca, 0x40, 0, 0, 0]); // [2, 3, 4]
  const bytes = heapVerbs.place(heap, Uint8Array, Uint8Array.of(0x91, 1), 0, 2, 'unpack', null, region, 64);
  expect(() => heapVerbs.unpack(heap, f32, bytes, 0, 3, 1, 0, region, 0)).toThrow(/read past its end/);
  // A Source of a region that has moved since is refused: the input is no longer where it was placed.
  heapVerbs.ensure(heap, region, 1 << 20, 0);
  expect(() => heapVerbs.pack(heap, f32, placed, region, 0)).toThrow(/moved since/);
  heapVerbs.release(heap, region);
});

test('a codec store\'s views are live whenever read: memory grown by any other call leaves no stale view to refresh', async () => {
  const { storePool } = await import('../js/codec/stores.js');
  const fm = await createFastmp({ backend: 'scalar' });
  fm.pack(new Float32Array(4096));
  const pool = storePool(fm[CORE]);
  const store = pool.borrow(256);
  store.start();
  store.bytes.set([1, 2, 3]);
  const before = store.bytes;
  fm.pack(new Float64Array(1 << 20)); // grows wasm memory: the view taken before is detached
  expect(before.length).toBe(0);
  expect(store.bytes.length).toBeGreaterThanOrEqual(256);
  expect([...store.bytes.subarray(0, 3)]).toEqual([1, 2, 3]);
  expect(store.view.getUint8(2)).toBe(3);
  expect('refresh' in store).toBe(false); // (no verb to forget)
  store.stop();
  pool.giveBack(store);
});
