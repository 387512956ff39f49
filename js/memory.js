// memory.js - the JS/wasm boundary. Every call copies its input once into one
// reused scratch region of wasm memory, runs a kernel there, and copies the
// output once into a fresh array the caller owns. The scratch region only
// grows (to the next power of two), so once the largest input has been seen,
// wasm memory stops growing. Views are rebuilt whenever memory grows, so no
// view of a detached buffer is ever used.

import { CODE_NAMES, FastmpError } from './errors.js';

const MIN_SCRATCH = 1 << 16;
// The largest scratch region: wasm32 memory is at most 4 GiB (65536 pages); one page less.
const MAX_SCRATCH = 0xffff0000;
// Room for emmalloc's region headers and alignment around an allocation (see allocate()).
const ALLOC_MARGIN = 1 << 16;
const RESULT_WORDS = 8; // fm_result on wasm32: code, count, index, offset, end, tag, value (u64)

// Sizes reach 4 GiB: no 32-bit bitwise arithmetic on them ((n + 15) & ~15 wrapped
// from 2 GiB on, and the boundary then reserved too little; found by test/huge.test.js).
const align16 = (n) => n + (-n & 15);

export class Boundary {
  /** @param {WebAssembly.Exports} exports an instance of a fastmp build */
  constructor(exports) {
    this.wasm = exports;
    this.memory = exports.memory;
    this.scratch = 0;
    this.capacity = 0;
    this.views = new Map();
    // Zero-copy: every view fastmp hands out -> its record. An array from
    // alloc(): { pointer, length, Type, live, generation: -1 }; a packView()
    // output: the same shape with the generation it belongs to, one more at
    // every reserve(), i.e. at every call that uses the scratch region. One
    // map (and one record shape): checkInput() runs on every call, and one
    // WeakMap lookup costs less than reading a typed array's .buffer.
    this.handed = new WeakMap();
    this.generation = 0;
    this.refreshViews();
    this.result = exports.malloc(RESULT_WORDS * 4) >>> 0;
    if (this.result === 0) throw new RangeError('fastmp: wasm memory exhausted');
  }

  /** Called by the module (emscripten_notify_memory_growth) and at start. */
  refreshViews() {
    // memory.buffer is a host getter, slow next to a field: hot paths compare
    // inputs against this copy, which every growth notification renews.
    const buffer = this.memory.buffer;
    this.buffer = buffer;
    this.u8 = new Uint8Array(buffer);
    this.u32 = new Uint32Array(buffer);
    this.views.clear();
  }

  /** A view of all of wasm memory as `Type` (cached until memory grows). */
  view(Type) {
    let v = this.views.get(Type);
    if (v === undefined) {
      v = new Type(this.buffer);
      this.views.set(Type, v);
    }
    return v;
  }

  /**
   * A 16-byte aligned scratch region of at least `bytes` bytes, valid until the
   * next reserve(). Throws RangeError when wasm32 memory cannot hold it.
   */
  reserve(bytes) {
    this.generation++;
    if (bytes > this.capacity) {
      if (bytes + 16 > MAX_SCRATCH) throw new RangeError(`fastmp: ${bytes} bytes do not fit in wasm32 memory (at most 4 GiB)`);
      if (this.scratch) this.wasm.free(this.scratch);
      this.scratch = 0;
      this.capacity = 0;
      // Next power of two: bounded growth, and one allocation serves a range of
      // sizes. When that much cannot be had (past 2 GiB the next power is 4 GiB,
      // more than wasm32 holds with anything else in it), exactly what is asked.
      let size = Math.max(MIN_SCRATCH, 2 ** Math.ceil(Math.log2(bytes + 16)));
      let pointer = this.allocate(size);
      if (pointer === 0) {
        size = bytes + 16;
        pointer = this.allocate(size);
      }
      if (pointer === 0) {
        throw new RangeError(`fastmp: wasm memory cannot grow to hold ${bytes} bytes (wasm32 memory is at most 4 GiB; ${this.memory.buffer.byteLength} bytes now)`);
      }
      this.scratch = pointer;
      this.capacity = size - 16;
    }
    return align16(this.scratch);
  }

  /**
   * malloc(size), or 0 when it cannot be had. Emscripten 3.1.6's emmalloc
   * computes the end of a region in 32-bit arithmetic: asked for a size that
   * reaches past 4 GiB from a free region, it wraps around and returns a
   * pointer to a few bytes, and its heap is corrupt from then on (found by
   * test/huge.test.js: a request for 4294901737 bytes "succeeded" in 4 MB of
   * memory, and a fresh instance's malloc(0xfffefff0) returned 0x11888). Every
   * free region lies below the memory's current size, so a request that stays
   * below 4 GiB from there cannot wrap; one that does not could only be served
   * from free memory, and the boundary frees its scratch region only to ask
   * for a larger one.
   */
  allocate(size) {
    if (size + this.memory.buffer.byteLength + ALLOC_MARGIN > 2 ** 32) return 0;
    return this.wasm.malloc(size) >>> 0;
  }

  // ---- zero-copy ----------------------------------------------------------------

  /**
   * A Type array of n elements in wasm memory, for the caller to fill and pack
   * without a copy in. `packBytes` of scratch are reserved first, so that
   * packing it never needs to grow memory (which would detach the view).
   */
  allocArray(Type, n, packBytes) {
    this.reserve(packBytes);
    const pointer = this.allocate(Math.max(n * Type.BYTES_PER_ELEMENT, 1));
    if (pointer === 0) throw new RangeError(`fastmp: wasm memory cannot grow to hold ${n} elements`);
    const view = new Type(this.buffer, pointer, n);
    this.handed.set(view, { pointer, length: n, Type, live: true, generation: -1 });
    return view;
  }

  /** The record of an array from alloc(), or undefined. */
  allocationOf(x) {
    const record = this.handed.get(x);
    return record === undefined || record.generation >= 0 ? undefined : record;
  }

  /** A live view of the same allocation as x (after memory growth detached x). */
  refreshed(x) {
    const record = this.allocationOf(x);
    if (record === undefined) return undefined;
    if (!record.live) throw usageError('FREED', 'refresh() was given an array that free() has released');
    const view = new record.Type(this.buffer, record.pointer, record.length);
    this.handed.set(view, record);
    return view;
  }

  /** Releases an allocation; false when x is not from alloc(). */
  release(x) {
    const record = this.allocationOf(x);
    if (record === undefined) return false;
    if (!record.live) throw usageError('FREED', 'free() was given an array that is already freed');
    record.live = false;
    this.wasm.free(record.pointer);
    return true;
  }

  /** A view of output bytes in scratch, valid until the next call (see checkInput). */
  outputView(start, size) {
    const view = new Uint8Array(this.buffer, start, size);
    this.handed.set(view, { pointer: start, length: size, Type: Uint8Array, live: true, generation: this.generation });
    return view;
  }

  /**
   * Refuses an input that is one of fastmp's own views gone stale: a packView()
   * output after a later call reused the scratch, or an array from alloc() that
   * was freed or detached. Returns the record of a live alloc() array (its
   * elements are read in place), else undefined: the input is the caller's
   * (or a current packView() output) and is read or copied like any other.
   */
  checkInput(bytes, fn) {
    const record = this.handed.get(bytes);
    if (record === undefined) return undefined;
    if (record.generation >= 0) {
      if (record.generation !== this.generation || bytes.buffer !== this.buffer) {
        throw usageError('STALE', `${fn}() was given a packView() output that a later call has overwritten or memory growth has detached; copy it (slice()) to keep it`);
      }
      return undefined;
    }
    if (!record.live) throw usageError('FREED', `${fn}() was given an array that free() has released`);
    if (bytes.buffer !== this.buffer) {
      throw usageError('STALE', `${fn}() was given an array from alloc() whose view wasm memory growth has detached; refresh(x) gives a live one`);
    }
    return record;
  }

  /**
   * A view of wasm memory, copied out when reserving `bytes` of scratch would
   * grow memory (which detaches it); any other input as it is. Without growth
   * a view of wasm memory stays valid, and TypedArray set() copies correctly
   * between overlapping views of one buffer. Reading .buffer only when growth
   * is due keeps it off the common path.
   */
  stable(input, bytes) {
    return bytes > this.capacity && input.buffer === this.buffer ? input.slice() : input;
  }

  /** fm_result.end: where the array stopped, after a successful decode. */
  resultEnd() {
    return this.u32[(this.result >>> 2) + 4];
  }

  /** The fm_result the kernels filled, with its code as a name. */
  readResult() {
    const w = this.result >>> 2;
    const u32 = this.u32;
    return {
      code: CODE_NAMES[u32[w]] ?? `C${u32[w]}`,
      count: u32[w + 1],
      index: u32[w + 2] === 0xffffffff ? -1 : u32[w + 2],
      offset: u32[w + 3],
      end: u32[w + 4],
      tag: u32[w + 5],
      value: (BigInt(u32[w + 7]) << 32n) | BigInt(u32[w + 6]),
    };
  }
}

export { align16 };

/** Misuse of the zero-copy API: a FastmpError that names no input position. */
const usageError = (code, message) => new FastmpError(code, `fastmp: ${message}`, -1, -1);

// ---- outputs ------------------------------------------------------------------
// Every output is a fresh array with its own ArrayBuffer, that the caller owns.
// From UNINIT_FROM bytes on, Node allocates an uninitialised ArrayBuffer and
// copies into it faster than it allocates a zero-filled one (what `new
// Uint8Array` and `slice` do): measured 330 vs 490 ns at 2 KB, 2.6 vs 3.6 µs at
// 128 KB. Every byte is written before the caller sees the array. The result
// is a plain typed array, never a Buffer (whose slice() would not copy).
/** Node's Buffer, only in Node (a bundler's Buffer polyfill is not taken for it). */
export const NodeBuffer = typeof process !== 'undefined' && process.versions?.node != null ? globalThis.Buffer : null;
const UNINIT_FROM = 1024;

/** A fresh Uint8Array of `size` bytes, with its own ArrayBuffer, contents undefined. */
export function freshBytes(size) {
  if (NodeBuffer === null || size < UNINIT_FROM) return new Uint8Array(size);
  return new Uint8Array(NodeBuffer.allocUnsafeSlow(size).buffer);
}

/** A fresh copy of view[start, end), of the view's own type (a view over wasm memory). */
export function copyOut(view, start, end) {
  const bytes = (end - start) * view.BYTES_PER_ELEMENT;
  if (NodeBuffer === null || bytes < UNINIT_FROM) return view.slice(start, end);
  const out = new view.constructor(NodeBuffer.allocUnsafeSlow(bytes).buffer);
  out.set(view.subarray(start, end));
  return out;
}

