// core.js - the core of one instance's JS/wasm boundary: its wasm memory (the
// heap: malloc, the scratch region), the views of that memory and their
// renewal when it grows, and the kernels' result record. Only the files of
// js/wasm/ import it (a lint rule holds them to that); they alone do pointer
// arithmetic, copy into and out of wasm memory, or hold views of it:
//   lifetimes.js  where an input lies (alloc() arrays, packView() outputs,
//                 Encoders' regions), and what is FREED or STALE
//   typed.js      the typed-array kernels' calls (pack, unpack)
//   strings.js    the ASN.1 string kernels' calls
//   store.js      the codec's encoding port: an Encoder's output in wasm memory
//   reader.js     the codec's decoding port: shaped fields read by the kernels
//   index.js      what an instance needs of it: a boundary, its stats
//   outputs.js    the fresh arrays every call returns (no wasm memory)
//   errors.js     a typed-array kernel's failure as its FastmpError
//
// Every call copies its input once into one reused scratch region of wasm
// memory, runs a kernel there, and copies the output once into a fresh array
// the caller owns. The scratch region only grows (to the next power of two),
// so once the largest input has been seen, wasm memory stops growing. Views
// are rebuilt whenever memory grows, so no view of a detached buffer is used.

import { NO_INDEX_U32, RESULT } from '../abi.js';
import { CODE_NAMES } from '../errors.js';
import { markDetachedByGrowth } from '../released.js';
import { NodeBuffer } from './outputs.js';
import { RangeSet } from './ranges.js';

export const MIN_SCRATCH = 1 << 16;
// The largest scratch region: wasm32 memory is at most 4 GiB (65536 pages); one page less.
export const MAX_SCRATCH = 0xffff0000;
// Room for emmalloc's region headers and alignment around an allocation (see allocate()).
const ALLOC_MARGIN = 1 << 16;

// Sizes reach 4 GiB: no 32-bit bitwise arithmetic on them ((n + 15) & ~15 wrapped
// from 2 GiB on, and the boundary then reserved too little; found by test/huge.test.js).
export const align16 = (n) => n + (-n & 15);

// Wasm addresses below this hold no allocation: Emscripten places static data
// from 1024 (its GLOBAL_BASE), then the stack, and malloc's heap above both.
export const LOW_MEMORY = 1024;

/**
 * Where an input is, as lifetimes.js locate() reports it: its address when it
 * lies in a live alloc() array (read there, in place: inAllocation()), else
 * one of these codes, which no address equals.
 * @typedef {number} Location
 */
export const OUTSIDE = -1; // not in wasm memory: copied in
export const IN_OUTPUT = -2; // in the latest packView() output: copied out of harm's way first

/** Whether a Location is an address in a live alloc() array (the input is read in place). */
export const inAllocation = (at) => at >= 0;

export class Boundary {
  /** @param {WebAssembly.Exports} exports an instance of a fastmp build */
  constructor(exports) {
    this.wasm = exports;
    this.memory = exports.memory;
    this.scratch = 0;
    this.capacity = 0;
    this.views = new Map();
    this.buffer = null;
    // Memory growths so far, and each buffer -> the growth that made it: an
    // encode() tells the views its own growth detached from older ones.
    this.epoch = 0;
    this.bufferEpochs = new WeakMap();
    // The lifetimes of what the boundary hands out (lifetimes.js):
    // live alloc() arrays, sorted by pointer: { pointer, end, length, Type, live };
    this.allocations = new RangeSet();
    // ranges free() released, until an allocation reuses them: inputs there are FREED;
    this.freed = new RangeSet();
    // the output regions of the message codec's Encoders ({ pointer, capacity, writing }):
    // encodeSharedRef() hands out views of them, valid until that Encoder's next call;
    this.regions = new Set();
    // the latest packView() output: valid while `generation` is the boundary's;
    this.output = { start: 0, end: 0, generation: -1 };
    // every packView() output handed out -> { generation, start, size }: the
    // very object is refused once stale even where a later output lies at the
    // same place, and found again while valid if memory growth detached it.
    this.outputs = new WeakMap();
    this.generation = 0; // one more at every reserve(), i.e. every call that uses scratch
    // The decoding port's input region (reader.js): where, how large, how often taken.
    this.inputPointer = 0;
    this.inputCapacity = 0;
    this.regionUses = 0;
    this.refreshViews();
    this.result = exports.malloc(RESULT.size) >>> 0;
    if (this.result === 0) throw new RangeError('fastmp: wasm memory exhausted');
  }

  /** Called by the module (emscripten_notify_memory_growth) and at start. */
  refreshViews() {
    if (this.buffer !== null) markDetachedByGrowth(this.buffer);
    // memory.buffer is a host getter, slow next to a field: hot paths compare
    // inputs against this copy, which every growth notification renews.
    const buffer = this.memory.buffer;
    this.buffer = buffer;
    this.bufferEpochs.set(buffer, ++this.epoch);
    this.u8 = new Uint8Array(buffer);
    this.u16 = new Uint16Array(buffer);
    this.u32 = new Uint32Array(buffer);
    this.nodeBuffer = NodeBuffer === null ? null : NodeBuffer.from(buffer);
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

  // ---- scratch ------------------------------------------------------------------

  /**
   * A 16-byte aligned scratch region of at least `bytes` bytes, valid until the
   * next reserve(). Throws RangeError when wasm32 memory cannot hold it; the
   * scratch region is then what it was before.
   */
  reserve(bytes) {
    this.generation++;
    if (bytes > this.capacity) this.growScratch(bytes);
    return align16(this.scratch);
  }

  growScratch(bytes) {
    if (bytes + 16 > MAX_SCRATCH) throw new RangeError(`fastmp: ${bytes} bytes do not fit in wasm32 memory (at most 4 GiB)`);
    const previous = this.capacity;
    this.releaseScratch();
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
      const now = this.memory.buffer.byteLength;
      this.restoreScratch(previous);
      throw new RangeError(`fastmp: wasm memory cannot grow to hold ${bytes} bytes (wasm32 memory is at most 4 GiB; ${now} bytes now)`);
    }
    this.scratch = pointer;
    this.capacity = size - 16;
  }

  releaseScratch() {
    if (this.scratch) this.wasm.free(this.scratch);
    this.scratch = 0;
    this.capacity = 0;
  }

  /** After a refused growth: a scratch region as large as before (the space it had is free again). */
  restoreScratch(capacity) {
    if (capacity === 0) return;
    const pointer = this.allocate(capacity + 16);
    if (pointer !== 0) {
      this.scratch = pointer;
      this.capacity = capacity;
    }
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
    const pointer = this.wasm.malloc(size) >>> 0;
    // Memory in use again is no longer what free() released.
    if (pointer !== 0 && this.freed.size > 0) this.freed.deleteOverlapping(pointer, pointer + size);
    return pointer;
  }

  // ---- results --------------------------------------------------------------------------

  /** fm_result.end: where the array stopped, after a successful decode. */
  resultEnd() {
    return this.u32[(this.result + RESULT.end) >>> 2];
  }

  /** The fm_result the kernels filled, with its code as a name. */
  readResult() {
    const field = (name) => this.u32[(this.result + RESULT[name]) >>> 2];
    const index = field('index');
    return {
      code: CODE_NAMES[field('code')] ?? `C${field('code')}`,
      count: field('count'),
      index: index === NO_INDEX_U32 ? -1 : index,
      offset: field('offset'),
      end: field('end'),
      tag: field('tag'),
      value: (BigInt(field('valueHi')) << 32n) | BigInt(field('valueLo')),
    };
  }
}

/**
 * The boundary of an instance that runs no wasm (backend 'js': asked for, or
 * where a Content Security Policy refuses to compile it): no memory, so
 * lifetimes.js finds every input OUTSIDE and no view its own. Every call
 * takes the pure-JS path (its limits say so: js/port.js jsLimits()).
 */
export const noWasmBoundary = () => ({
  wasm: null, memory: null, buffer: null, outputs: new WeakMap(),
});
