// audit-boundary2.test.js - the second audit of the wasm boundary (js/wasm/heap.js
// and its callers). Each numbered describe() is a finding that failed on c9e544a:
// 1. A message call whose first store (a region of wasm memory, made when the
//    call borrows it) grew memory did not count that growth as its own: an
//    alloc() array given as a field or as the encodeInto() target, detached by
//    it, was STALE ("refresh(x) gives a live one") instead of read (written)
//    where it lies (js/codec/stores.js WasmStore start()).
// 2. decode() read a small view from offset 0 of wasm memory (which the
//    boundary reads as ordinary memory: docs/typed-arrays.md) in place; a shaped
//    field whose kernel decode grew memory detached it, and the decoder went on
//    reading the detached view: the engine's TypeError (js/codec/decoder.js
//    mustCopy()).
import { decode as msgpackDecode, encode as msgpackEncode } from '@msgpack/msgpack';
import { describe, expect, test } from 'vitest';
import { createFastmpSync } from '../js/node.js';

const BUILDS = [['simd', { backend: 'simd', pureJs: 'never' }], ['scalar', { backend: 'scalar', pureJs: 'never' }]];
const js = createFastmpSync({ backend: 'js' });

/**
 * A fresh instance whose free wasm memory is `left` bytes, at its top, after
 * `first` (an alloc() made first, which sizes scratch): the next region of
 * more than that grows memory.
 */
function tight(options, first, left) {
  const m = createFastmpSync(options);
  const array = first(m);
  const top = array.byteOffset + array.byteLength + (-(array.byteOffset + array.byteLength) & 15);
  const size = m.memoryStats().wasmMemory;
  const filler = m.alloc(Uint8Array, size - top - left); // (within the scratch the first reserved: no growth)
  expect(m.memoryStats().wasmMemory).toBe(size);
  expect(filler.byteOffset).toBe(top);
  return { m, array };
}

describe('1: the growth of the store a message call makes first is the call\'s own: an alloc() array it detached is found again', () => {
  test.each(BUILDS)('%s: encode() of an alloc() array', (_, options) => {
    const { m, array } = tight(options, (fm) => fm.alloc(Float32Array, 1 << 20).fill(0.5), 1024);
    const before = m.memoryStats().wasmMemory;
    const bytes = m.encode({ frame: array, tail: 7 });
    expect(m.memoryStats().wasmMemory).toBeGreaterThan(before); // (the case: the call's store grew memory)
    expect(array.length).toBe(0); // (detached by it)
    expect(Buffer.from(bytes).equals(Buffer.from(js.encode({ frame: new Float32Array(1 << 20).fill(0.5), tail: 7 })))).toBe(true);
  });

  test.each(BUILDS)('%s: encodeInto() an alloc() target', (_, options) => {
    const { m, array } = tight(options, (fm) => fm.alloc(Uint8Array, 1 << 20), 1024);
    const before = m.memoryStats().wasmMemory;
    const value = { a: 1, s: 'two' };
    const end = m.encodeInto(value, array, 3);
    expect(m.memoryStats().wasmMemory).toBeGreaterThan(before);
    const written = m.refresh(array).subarray(3, end);
    expect(msgpackDecode(written)).toEqual(value);
  });
});

describe('2: decode() of a small view from offset 0 of wasm memory, when a shaped field\'s decode grows memory, reads the message from a copy', () => {
  test.each(BUILDS)('%s', (_, options) => {
    // A uint64 field is decoded by the kernel from one element (pureJs 'never'): the first
    // input window is a new region, which grows memory when none is free.
    const { m, array } = tight(options, (fm) => fm.alloc(Uint8Array, 1 << 20), 0);
    const message = { x: [5], s: 'after the field', n: 300 };
    const wire = msgpackEncode(message);
    const input = new Uint8Array(array.buffer, 0, wire.length); // (read as ordinary memory: below address 1024)
    input.set(wire);
    const before = m.memoryStats().wasmMemory;
    const value = m.decode(input, { shape: { x: BigUint64Array } });
    expect(m.memoryStats().wasmMemory).toBeGreaterThan(before);
    expect(value).toEqual({ x: BigUint64Array.of(5n), s: 'after the field', n: 300 });
  });
});
