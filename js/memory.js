// memory.js - the JS/wasm boundary of one instance, and the only file that does
// pointer arithmetic, copies into and out of wasm memory, or holds views of it.
//
// Every call copies its input once into one reused scratch region of wasm
// memory, runs a kernel there, and copies the output once into a fresh array
// the caller owns (a long unpack() input a chunk at a time: unpackChunked).
// The scratch region only grows (to the next power of two), so once the
// largest input has been seen, wasm memory stops growing. Views
// are rebuilt whenever memory grows, so no view of a detached buffer is used.
//
// Zero-copy: alloc() arrays live in wasm memory and are read in place;
// packView() returns a view of the output in scratch, valid until the next
// call. Whether an input is one of those, and still alive, is decided by its
// buffer and byte range, never by object identity: a subarray of a freed
// array is as freed as the array.

import { ELEMENTS_ONLY, INTEGRAL_FLOATS, MAX_ELEMENTS, MAX_NUMBER_BYTES, NO_INDEX_U32, RESULT, packBound } from './abi.js';
import {
  bufferOf, byteLengthOf, byteOffsetOf, copyInto, isDetached, lengthOf, usableLength, usableView, viewBuffer,
} from './args.js';
import { CODE_NAMES, usageError, writtenOutputError } from './errors.js';
import { jsPort } from './codec/port-js.js';
import { arrayCount, arrayHeaderSize, found, packKind, packKindInto } from './wire.js';

const MIN_SCRATCH = 1 << 16;
// The largest scratch region: wasm32 memory is at most 4 GiB (65536 pages); one page less.
const MAX_SCRATCH = 0xffff0000;
// Room for emmalloc's region headers and alignment around an allocation (see allocate()).
const ALLOC_MARGIN = 1 << 16;

// Sizes reach 4 GiB: no 32-bit bitwise arithmetic on them ((n + 15) & ~15 wrapped
// from 2 GiB on, and the boundary then reserved too little; found by test/huge.test.js).
export const align16 = (n) => n + (-n & 15);
/** Scratch bytes packInScratch() takes for the output of n elements of kind: its bound, and up to 15 bytes to align its elements. */
const packRoom = (n, kind) => packBound(n, kind.wire) + 16;

// Wasm addresses below this hold no allocation: Emscripten places static data
// from 1024 (its GLOBAL_BASE), then the stack, and malloc's heap above both.
const LOW_MEMORY = 1024;

/** Where an input is, as locate() reports it (a pointer >= 0: in a live alloc() array). */
const OUTSIDE = -1; // not in wasm memory: copied in
const IN_OUTPUT = -2; // in the latest packView() output: copied out of harm's way first

export class Boundary {
  /** @param {WebAssembly.Exports} exports an instance of a fastmp build */
  constructor(exports) {
    this.wasm = exports;
    this.memory = exports.memory;
    this.scratch = 0;
    this.capacity = 0;
    this.views = new Map();
    this.pastBuffers = new WeakSet(); // wasm memory buffers that growth has detached
    this.buffer = null;
    // Memory growths so far, and each buffer -> the growth that made it: an
    // encode() tells the views its own growth detached from older ones.
    this.epoch = 0;
    this.bufferEpochs = new WeakMap();
    // Live alloc() arrays, sorted by pointer: { pointer, end, length, Type, live }.
    this.allocations = [];
    // The records of the views alloc() and refresh() handed out (free/refresh take those).
    this.handles = new WeakMap();
    // Ranges free() released, until an allocation reuses them: inputs there are FREED.
    this.freed = [];
    // The output regions of the message codec's Encoders ({ pointer, capacity }):
    // encodeSharedRef() hands out views of them, valid until that Encoder's next call.
    this.regions = new Set();
    // The latest packView() output: valid while `generation` is the boundary's.
    this.output = { start: 0, end: 0, generation: -1 };
    // Every packView() output handed out -> { generation, start, size }: the
    // very object is refused once stale even where a later output lies at the
    // same place, and found again while valid if memory growth detached it.
    this.outputs = new WeakMap();
    this.generation = 0; // one more at every reserve(), i.e. every call that uses scratch
    this.regionUses = 0; // one more at every inputRegion()
    this.refreshViews();
    this.result = exports.malloc(RESULT.size) >>> 0;
    if (this.result === 0) throw new RangeError('fastmp: wasm memory exhausted');
  }

  /** Called by the module (emscripten_notify_memory_growth) and at start. */
  refreshViews() {
    if (this.buffer !== null) this.pastBuffers.add(this.buffer);
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

  /** What memoryStats() reports. */
  stats() {
    return { wasmMemory: this.memory.buffer.byteLength, scratch: this.capacity };
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
    if (pointer !== 0 && this.freed.length > 0) this.freed = this.freed.filter((r) => r.end <= pointer || r.start >= pointer + size);
    return pointer;
  }

  // ---- zero-copy: alloc(), free(), refresh(), packView() ---------------------------

  /**
   * A `kind` array of n elements in wasm memory, for the caller to fill and
   * pack without a copy in. The scratch region its packing needs is reserved
   * first, so that packing it never grows memory. A refused allocation leaves
   * the scratch region as it was.
   */
  allocArray(kind, n) {
    const previous = this.capacity;
    this.reserve(packRoom(n, kind));
    const bytes = Math.max(n * kind.bytes, 1);
    const pointer = this.allocate(bytes);
    if (pointer === 0) {
      if (this.capacity !== previous) {
        this.releaseScratch();
        this.restoreScratch(previous);
      }
      throw new RangeError(`fastmp: wasm memory cannot grow to hold ${n} elements`);
    }
    const record = { pointer, end: pointer + bytes, length: n, Type: kind.Type, live: true };
    const at = this.allocations.findIndex((r) => r.pointer > pointer);
    this.allocations.splice(at < 0 ? this.allocations.length : at, 0, record);
    return this.handOut(record);
  }

  handOut(record) {
    const view = new record.Type(this.buffer, record.pointer, record.length);
    this.handles.set(view, record);
    return view;
  }

  /** A live view of the same allocation as x (after memory growth detached x); undefined when x is no alloc() array. */
  refreshed(x) {
    const record = this.handles.get(x);
    if (record === undefined) return undefined;
    if (!record.live) throw usageError('FREED', 'refresh() was given an array that free() has released');
    return this.handOut(record);
  }

  /** Releases an allocation; false when x is not an array alloc() or refresh() returned. */
  release(x) {
    const record = this.handles.get(x);
    if (record === undefined) return false;
    if (!record.live) throw usageError('FREED', 'free() was given an array that is already freed');
    record.live = false;
    this.allocations.splice(this.allocations.indexOf(record), 1);
    this.freed.push({ start: record.pointer, end: record.end });
    this.wasm.free(record.pointer);
    return true;
  }

  /** A view of output bytes in scratch, valid until the next call that uses scratch. */
  outputView(start, size) {
    this.output = { start, end: start + size, generation: this.generation };
    const view = new Uint8Array(this.buffer, start, size);
    this.outputs.set(view, { generation: this.generation, start, size });
    return view;
  }

  /**
   * What args.js ownView() reports for a detached input x: FREED for an
   * alloc() array that was freed, STALE for another view of this wasm memory.
   */
  detachedError(x, fn) {
    if (this.handles.get(x)?.live === false) return usageError('FREED', `${fn}() was given an array that free() has released`);
    if (!this.pastBuffers.has(viewBuffer(x))) return undefined;
    return usageError('STALE', `${fn}() was given a view of wasm memory that memory growth has detached; refresh(x) gives a live one of an alloc() array (a packView() output is valid until the next call only)`);
  }

  /**
   * `view` (a typed array or DataView) as a call that began at memory epoch
   * `since` reads it: itself, unless the call's own memory growth has
   * detached it since; then a live view of the same alloc() array, which
   * stays where it was. Another view of wasm memory loses its place with its
   * buffer (a detached view reports offset and length 0): STALE, saying why.
   * One detached before the call is left to the usual checks. (`original`:
   * the array `view` was made of, whole, as asBools() makes one.)
   */
  reattached(view, since, fn, original = view) {
    if (!isDetached(view)) return view;
    if (!(this.bufferEpochs.get(viewBuffer(view)) >= since)) return usableView(view, fn, (v, f) => this.detachedError(v, f));
    const record = this.handles.get(original);
    if (record?.live) return this.handOut(record);
    if (record !== undefined) throw usageError('FREED', `${fn}() was given an array that free() has released`);
    const output = this.outputs.get(original);
    if (output?.generation === this.generation) return new Uint8Array(this.buffer, output.start, output.size);
    throw usageError('STALE', `${fn}() grew wasm memory for this message, which detached this view of wasm memory before it was read; only an array from alloc(), a packView() output and an encodeSharedRef() output themselves are found again: pass a copy of a subarray`);
  }

  /**
   * Where the elements of typed array `x` are (read through the intrinsics): a
   * pointer >= 0 when they lie in a live alloc() array (read in place),
   * IN_OUTPUT when in the latest packView() output or an Encoder's output
   * (encodeSharedRef(): copied before use), OUTSIDE when not in wasm
   * memory. Any other view of wasm memory is refused: FREED in memory free()
   * released, else STALE (a packView() output a later call overwrote, or a
   * view that memory growth detached).
   */
  locate(x, fn, original) {
    return this.locateSized(x, byteLengthOf(x), fn, original);
  }

  /**
   * locate() of x whose byteLength the caller has from the intrinsics already
   * (its length times its element size): read once. Small, so that V8 inlines
   * it into every call.
   */
  locateSized(x, byteLength, fn, original) {
    // A view from offset 0 that ends below LOW_MEMORY overlaps nothing the
    // boundary hands out, whatever its buffer: it is read as memory outside.
    // Its buffer is not asked for, because asking makes the engine move a
    // fresh small array off its heap (V8: ~360 ns, a small pack's cost ten times).
    return byteOffsetOf(x) === 0 && byteLength <= LOW_MEMORY ? OUTSIDE : this.locateView(x, fn, original);
  }

  /** locate() without the shortcut for small views: for what a call writes into. */
  locateView(x, fn, original) {
    if (bufferOf(x) !== this.buffer) return OUTSIDE; // (a detached view was refused by args.js usableLength)
    const handed = this.outputs.get(original);
    if (handed !== undefined && handed.generation !== this.generation) throw this.staleOutput(fn);
    // (An empty alloc() array overlaps no range: only its record tells that it was freed.)
    if (this.handles.get(original)?.live === false) throw usageError('FREED', `${fn}() was given an array that free() has released`);
    const start = byteOffsetOf(x);
    const end = start + byteLengthOf(x);
    if (this.allocationHolding(start, end) !== undefined) return start;
    const o = this.output;
    if (o.generation === this.generation && start >= o.start && end <= o.end) return IN_OUTPUT;
    this.refuseWritten(start, end, fn);
    for (const r of this.regions) if (start >= r.pointer && end <= r.pointer + r.capacity) return IN_OUTPUT;
    if (this.freed.some((r) => start < r.end && end > r.start)) {
      throw usageError('FREED', `${fn}() was given a view of an array that free() has released`);
    }
    throw this.staleOutput(fn);
  }

  /**
   * Refuses bytes [start, end) of wasm memory when an Encoder's store that a
   * call is writing holds any of them (STALE): read now, they would be what
   * the call has written over them. (Only a view kept past its lifetime can
   * be there: an encodeSharedRef() output after its encoder's next call.)
   */
  refuseWritten(start, end, fn) {
    for (const r of this.regions) {
      if (r.writing && start < r.pointer + r.capacity && end > r.pointer) {
        throw writtenOutputError(fn);
      }
    }
  }

  /**
   * Where a target of packInto() is: a pointer into a live alloc() array, or
   * OUTSIDE. An output of fastmp's own (packView(), encodeSharedRef()) is
   * refused: the call would overwrite it, or it belongs to an Encoder. So is
   * any other view of wasm memory (STALE), low addresses included.
   */
  locateTarget(target, fn) {
    const at = this.locateView(target, fn, target);
    if (at === IN_OUTPUT) throw new TypeError(`fastmp: ${fn}() cannot write into an output of fastmp's own (packView(), encodeSharedRef()): the call overwrites it; write into your own Uint8Array or an alloc() one`);
    return at;
  }

  staleOutput(fn) {
    return usageError('STALE', `${fn}() was given a view of wasm memory that a later call has overwritten (a packView() output is valid until the next call; copy it (slice()) to keep it)`);
  }

  /** The live allocation that holds bytes [start, end), or undefined (binary search). */
  allocationHolding(start, end) {
    const list = this.allocations;
    let lo = 0;
    let hi = list.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      if (list[mid].pointer <= start) lo = mid + 1;
      else hi = mid - 1;
    }
    const r = list[hi];
    return r !== undefined && end <= r.end ? r : undefined;
  }

  // ---- typed arrays -----------------------------------------------------------------

  /** Packs n elements of x into a fresh Uint8Array; `at` is locate()'s answer for x. */
  pack(kind, x, n, at) {
    const { out, size } = this.packInScratch(kind, x, n, at);
    return copyOut(this.u8, out, out + size);
  }

  /** pack() without the copy out: a view of the output, valid until the next call. */
  packView(kind, x, n, at) {
    const { out, size } = this.packInScratch(kind, x, n, at);
    return this.outputView(out, size);
  }

  /**
   * pack() into target[offset...] (the caller's Uint8Array; `targetAt`
   * locate()'s answer for it: a pointer, or OUTSIDE), through scratch;
   * returns the bytes written, or -size when the output's size bytes exceed
   * `room` (then nothing is written).
   */
  packInto(kind, x, n, at, target, targetAt, offset, room) {
    const { out, size } = this.packInScratch(kind, x, n, at);
    if (size > room) return -size;
    // An alloc() target by its address: packing may have grown memory, which detached the caller's view.
    if (targetAt >= 0) this.u8.copyWithin(targetAt + offset, out, out + size);
    else copyInto(target, this.u8.subarray(out, out + size), offset);
    return size;
  }

  /** Bytes already packed (a bin) into scratch, as a packView() output. */
  bytesView(packed) {
    const out = this.reserve(packed.length);
    this.u8.set(packed, out);
    return this.outputView(out, packed.length);
  }

  /**
   * Packs n elements of x (at: locate()'s answer) into scratch; returns where
   * the output starts and its size. The output starts so that its elements,
   * after the array header, are at a 16-byte boundary: the SIMD packers'
   * vector stores then never straddle a cache line (float32, 1 M: ~5-10 %).
   */
  packInScratch(kind, x, n, at) {
    const outBytes = packRoom(n, kind);
    const lead = -arrayHeaderSize(n) & 15;
    if (at >= 0) { // x lives in wasm memory: no copy in
      const out = this.reserve(outBytes) + lead;
      return { out, size: this.wasm[kind.pack](at, n, out) >>> 0 };
    }
    // The latest output is overwritten by the copy in: copy it out first.
    const source = at === IN_OUTPUT ? new kind.Type(x) : x;
    const inBytes = align16(n * kind.bytes);
    const base = this.reserve(inBytes + outBytes);
    this.view(kind.Type).set(source, base / kind.bytes);
    const out = base + inBytes + lead;
    return { out, size: this.wasm[kind.pack](base, n, out) >>> 0 };
  }

  /**
   * Decodes the msgpack array of `count` elements at input[start] (its
   * elements from input[body]) into a fresh kind.Type; returns { value, end }.
   * Only the bytes the array can span are copied: no element is longer than
   * 9 bytes (a boolean: 1), so unpackFrom at the start of a large buffer
   * copies the array, not the rest of the buffer. On a kernel error, throws
   * fail(kind, start, result, quoted), `quoted` holding the input as the error quotes it.
   */
  unpack(kind, input, start, body, count, flags, at, fail) {
    const len = Math.min(input.length - start, body - start + count * (kind.c === 'bool' ? 1 : MAX_NUMBER_BYTES));
    if (at === OUTSIDE && len >= UNPACK_CHUNK.from) return this.unpackChunked(kind, input, start, body, count, start + len, flags, fail);
    let base;
    let out;
    let source = input;
    if (at >= 0) { // in place
      base = at + start;
      out = this.reserve(count * kind.bytes);
    } else {
      if (at === IN_OUTPUT) source = input.slice(start, start + len);
      const from = at === IN_OUTPUT ? 0 : start;
      const inBytes = align16(len);
      base = this.reserve(inBytes + count * kind.bytes);
      this.u8.set(from === 0 && len === source.length ? source : source.subarray(from, from + len), base);
      out = base + inBytes;
    }
    if (this.wasm[kind.unpack](base, len, out, count, flags, this.result) !== 0) {
      // The error quotes the input; one in wasm memory is quoted from a copy.
      throw fail(kind, start, this.readResult(), at === OUTSIDE ? input : this.quoted(base, start, len));
    }
    const first = out / kind.bytes;
    return { value: copyOut(this.view(kind.Type), first, first + count), end: start + this.resultEnd() };
  }

  /**
   * unpack() of a long array from outside wasm memory, UNPACK_CHUNK.bytes of
   * its input at a time: each chunk copied in, decoded and copied out while it
   * is in the CPU's cache, where the whole input copied in, decoded and copied
   * out crosses main memory three times; and scratch holds a chunk, not the
   * input and its output (1 M floats: 512 KB, not 16 MB, which wasm memory
   * would keep). bench/unpack-stages.js: ~10 % faster at 1 M floats; the
   * fresh output's first writes remain the larger cost. The kernel decodes a
   * chunk's elements with no header (FM_ELEMENTS_ONLY); a chunk ends anywhere, and
   * the element it cuts (TRUNCATED there) begins the next one. The input ends
   * at inputEnd: TRUNCATED in the last chunk is the input's own error.
   */
  unpackChunked(kind, input, start, body, count, inputEnd, flags, fail) {
    const value = freshOutput(kind, count); // first: a refused output leaves scratch as it was
    const chunk = UNPACK_CHUNK.bytes;
    const most = Math.min(count, chunk); // every element takes at least a byte
    const base = this.reserve(align16(chunk) + most * kind.bytes);
    const outAt = base + align16(chunk);
    const elements = this.view(kind.Type);
    const first = outAt / kind.bytes;
    let pos = body;
    for (let i = 0; i < count;) {
      const avail = Math.min(chunk, inputEnd - pos);
      // (At least one element asked for: an input that has ended is then TRUNCATED.)
      const asked = Math.min(count - i, Math.max(avail, 1));
      this.u8.set(input.subarray(pos, pos + avail), base);
      let done = asked;
      let used;
      if (this.wasm[kind.unpack](base, avail, outAt, asked, flags | ELEMENTS_ONLY, this.result) === 0) {
        used = this.resultEnd();
      } else {
        const r = this.readResult();
        if (r.code !== 'TRUNCATED' || pos + avail === inputEnd) {
          throw fail(kind, start, { ...r, count, index: i + r.index, offset: pos - start + r.offset }, input);
        }
        done = r.index; // >= 1: a chunk holds more than the longest element
        used = r.offset;
      }
      value.set(elements.subarray(first, first + done), i);
      i += done;
      pos += used;
    }
    return { value, end: pos };
  }

  /** Bytes [0, start + len) with the input's bytes from `start` as copied to `base`. */
  quoted(base, start, len) {
    const bytes = new Uint8Array(start + len);
    bytes.set(this.u8.subarray(base, base + len), start);
    return bytes;
  }

  // ---- strings --------------------------------------------------------------------------

  /**
   * Encodes chars (a string, or a Uint16Array of code units that locate()
   * placed at `at`) as `kind` content into a fresh Uint8Array with `header`
   * bytes of room before it. On a bad char throws fail(result).
   */
  encodeChars(kind, value, at, header, fail) {
    // Units in wasm memory are copied out first: the call may move what they point at.
    const chars = at === OUTSIDE ? value : new Uint16Array(value);
    const n = chars.length;
    const size = kind.wide ? 2 * n : n;
    const k = this.wasm;
    // The content at a 16-byte boundary with 16 bytes of scratch before it,
    // where the header's room is (at most 6 bytes, which the caller writes):
    // the output is copied out of scratch once, room and content together.
    const base = this.reserve(16 + (kind.wide || typeof chars !== 'string' ? 2 * n : 3 * n));
    const content = base + 16;
    if (typeof chars === 'string' && !kind.wide && (this.nodeBuffer !== null || utf8 !== null)) {
      // A one-byte kind from a string: its bytes (see writeOneByte), only checked.
      this.writeOneByte(chars, content, 3 * n);
      if (k[kind.check](content, n, this.result) !== 0) throw fail(this.readResult(), chars);
    } else {
      // Units, encoded in place (BMP swaps them, the one-byte kinds narrow them).
      if (typeof chars === 'string') this.writeUtf16(chars, content);
      else this.u16.set(chars, content >>> 1);
      if (k[kind.encode](content, n, content, this.result) !== 0) throw fail(this.readResult(), chars);
    }
    return copyOut(this.u8, content - header, content + size);
  }

  /**
   * A string's bytes for the check kernels of the one-byte kinds, at `at`
   * (room: 3 bytes per unit): its UTF-8, which is its chars, one byte each,
   * up to its first non-ASCII char, whose first byte (>= 0xC2) is out of
   * every set, so checking n bytes finds the first bad char at its own index.
   * Through Buffer's utf8Write, not write(), whose argument handling cost
   * more than the copy of 1 K chars. (Latin-1 would be 2.5x faster to write,
   * but it truncates chars above 0xFF, and asking first whether the UTF-8 is
   * one byte per char costs 140 µs for 64 K chars of a two-byte string.)
   */
  writeOneByte(value, at, room) {
    const b = this.nodeBuffer;
    if (b !== null) {
      // (Node's and Bun's Buffer have utf8Write; a Buffer of another runtime may not.)
      if (typeof b.utf8Write === 'function') b.utf8Write(value, at, room);
      else b.write(value, at, room, 'utf8');
    } else {
      utf8.encodeInto(value, this.u8.subarray(at, at + room));
    }
  }

  /** A string's UTF-16 units into scratch at `at` (even). */
  writeUtf16(value, at) {
    const n = value.length;
    const b = this.nodeBuffer;
    if (b !== null && typeof b.ucs2Write === 'function') b.ucs2Write(value, at, 2 * n);
    else if (b !== null) b.write(value, at, 2 * n, 'utf16le');
    else for (let i = 0, p = at >>> 1, u16 = this.u16; i < n; i++) u16[p + i] = value.charCodeAt(i);
  }

  /**
   * Decodes content input[start, end) (even length for BMP) to a string, or to
   * a Uint16Array when `toUnits`. On a bad char throws fail(result, quoted).
   */
  decodeChars(kind, input, start, end, toUnits, at, fail) {
    // A view of wasm memory is copied first: the call may decode over it in place.
    const bytes = at === OUTSIDE ? input : input.slice();
    const len = end - start;
    const k = this.wasm;
    // BMP in place (as a string: first narrowed into a second region, see
    // below); IA5 / Visible widen into a second region, or only check.
    const narrowing = kind.wide && !toUnits && len % 2 === 0; // an odd length: fm_bmp_decode reports it
    const out = kind.wide && !narrowing ? 0 : align16(len);
    const base = this.reserve(narrowing ? out + len / 2 : kind.wide || !toUnits ? len : out + 2 * len);
    this.u8.set(start === 0 && end === bytes.length ? bytes : bytes.subarray(start, end), base);
    const failed = () => fail(this.readResult(), bytes);
    if (narrowing) {
      // Every char one byte wide: the string from those bytes, which engines
      // make much faster than one from units (V8, 64 K ASCII chars: 5x
      // TextDecoder('utf-16be'), against 2.4x from units). Node's 'latin1' is
      // ISO-8859-1 (chars to 0xFF); TextDecoder's is windows-1252, the
      // identity below 0x80 only. Otherwise (fm_bmp_narrow stops at the first
      // wider char, and checks nothing) the units, as below.
      const n = len / 2;
      const narrowed = base + out;
      if (k.fm_bmp_narrow(base, n, narrowed, this.nodeBuffer !== null ? 0xff : 0x7f) >>> 0 === n) {
        return this.nodeBuffer !== null ? this.nodeBuffer.toString('latin1', narrowed, narrowed + n) : latin1.decode(this.u8.subarray(narrowed, narrowed + n));
      }
    }
    if (kind.wide) {
      if (k.fm_bmp_decode(base, len, base, this.result) !== 0) throw failed();
      if (toUnits) return copyOut(this.u16, base >>> 1, (base + len) >>> 1);
      return this.nodeBuffer !== null ? this.nodeBuffer.toString('utf16le', base, base + len) : utf16le.decode(this.u8.subarray(base, base + len));
    }
    if (toUnits) {
      if (k[kind.decode](base, len, base + out, this.result) !== 0) throw failed();
      const first = (base + out) >>> 1;
      return copyOut(this.u16, first, first + len);
    }
    if (k[kind.check](base, len, this.result) !== 0) throw failed();
    return this.nodeBuffer !== null ? this.nodeBuffer.toString('latin1', base, base + len) : latin1.decode(this.u8.subarray(base, base + len));
  }

  // ---- the message codec's port (contract: js/codec/port-js.js) ---------------------------

  /**
   * The port through which the message codec (js/codec/) packs and unpacks
   * typed-array fields: an Encoder's output lives in wasm memory, where the
   * kernels write each field in place; a shaped decode copies its input into
   * wasm memory once. `packInJsBelow` and `unpackInJsBelow` (by kind index:
   * api.js jsLimits()) say below how many elements the pure-JS path is
   * faster; `kernelError(kind, start, result, input)` words a kernel's
   * failure as unpack() does.
   */
  codecPort(packInJsBelow, unpackInJsBelow, kernelError) {
    return Object.freeze({
      newOutput: (initialBytes) => new WasmStore(this, packInJsBelow, initialBytes),
      unpackInJsBelow,
      typedReader: (input) => new WasmReader(this, kernelError, input),
      // An input in wasm memory is decoded from a copy: a call during the
      // decode (a shaped field's, an extension's) may grow memory and detach it.
      checkInput: (bytes, original, fn) => {
        this.locate(bytes, fn, original);
        return bufferOf(bytes) === this.buffer ? bytes.slice() : bytes;
      },
    });
  }

  /**
   * The input region: a grow-only allocation apart from scratch, where a
   * shaped decode copies its input once (scratch then takes each field's output).
   * Each call counts in `regionUses`: a decode made meanwhile (by an
   * extension of the one in progress) takes the region over, and the reader
   * that copied before it copies again (WasmReader.read()).
   */
  inputRegion(bytes) {
    this.regionUses++;
    if (bytes > (this.inputCapacity ?? 0)) {
      if (this.inputPointer) this.wasm.free(this.inputPointer);
      this.inputPointer = 0;
      this.inputCapacity = 0;
      const size = Math.max(MIN_SCRATCH, 2 ** Math.ceil(Math.log2(bytes + 16)));
      const pointer = this.allocate(size) || this.allocate(bytes + 16);
      if (pointer === 0) throw new RangeError(`fastmp: wasm memory cannot grow to hold a ${bytes}-byte input`);
      this.inputPointer = pointer;
      this.inputCapacity = size === bytes + 16 ? bytes : size - 16;
    }
    return align16(this.inputPointer);
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

// ---- an instance without wasm ------------------------------------------------------------

/**
 * The boundary of an instance that runs no wasm (backend 'js': asked for, or
 * where a Content Security Policy refuses to compile it). Every call takes the
 * pure-JS path, so no input is ever in wasm memory; alloc() has no memory to
 * give, and packView() returns a fresh array (valid as long as the caller likes).
 */
export class NoWasmBoundary {
  locate() {
    return OUTSIDE;
  }

  locateSized() {
    return OUTSIDE;
  }

  locateTarget() {
    return OUTSIDE;
  }

  detachedError() {
    return undefined;
  }

  stats() {
    return { wasmMemory: 0, scratch: 0 };
  }

  packView(kind, x, n) {
    return packKind(kind, x, n);
  }

  bytesView(packed) {
    return packed;
  }

  allocArray() {
    throw new TypeError("fastmp: alloc() gives arrays in wasm memory; this instance runs without wasm (backend 'js')");
  }

  release() {
    return false;
  }

  refreshed() {
    return undefined;
  }

  codecPort() {
    return jsPort;
  }
}

// ---- the message codec's output store and typed-array reader ------------------------------

// A store's region is freed when its Encoder is garbage: the registry holds
// the region's current address (the store moves it as it grows).
const regions = typeof FinalizationRegistry === 'function'
  ? new FinalizationRegistry(({ boundary, region }) => {
    boundary.regions.delete(region);
    if (region.pointer) boundary.wasm.free(region.pointer);
  })
  : null;

/** An Encoder's output, in wasm memory: see the port contract in js/codec/port-js.js. */
class WasmStore {
  constructor(boundary, packInJsBelow, initialBytes) {
    this.b = boundary;
    this.jsBelow = packInJsBelow; // by kind index: fields of fewer elements are packed by wire.js
    this.detached = (v, fn) => boundary.detachedError(v, fn); // made once: writeTyped() runs per typed array
    this.region = { pointer: 0, capacity: 0, writing: false }; // writing: during a call (Boundary.refuseWritten())
    this.use = 0;
    this.grow(0, Math.max(initialBytes, 64));
    boundary.regions.add(this.region);
    regions?.register(this, { boundary, region: this.region }, this);
  }

  /** At the start of every encode: the memory epoch from which growth is the call's own (live()). */
  start() {
    this.since = this.b.epoch;
    this.region.writing = true;
    this.refresh();
  }

  /** At the end of every encode. */
  stop() {
    this.region.writing = false;
  }

  /** Frees the region (the store is not used again). */
  release() {
    this.b.regions.delete(this.region);
    regions?.unregister(this);
    this.b.wasm.free(this.region.pointer);
    this.region.pointer = 0;
    this.region.capacity = 0;
  }

  /** A view met in the message, as the call reads it: Boundary.reattached(). */
  live(view, original = view, fn = 'encode') {
    return this.b.reattached(view, this.since, fn, original);
  }

  /**
   * Bytes about to be copied in: refused in a store being written, a copy
   * when they are in wasm memory and a growth could detach them. (A view
   * from offset 0 that ends below LOW_MEMORY is neither: its buffer is not
   * asked for, see Boundary.locateSized().)
   */
  source(data, growing) {
    const start = byteOffsetOf(data);
    const size = byteLengthOf(data);
    if ((start === 0 && size <= LOW_MEMORY) || bufferOf(data) !== this.b.buffer) return data;
    this.b.refuseWritten(start, start + size, 'encode');
    return growing ? new Uint8Array(data) : data;
  }

  /** Views of the region, taken again whenever memory has grown since. */
  refresh() {
    if (this.buffer !== this.b.buffer) this.takeViews();
  }

  takeViews() {
    const { pointer, capacity } = this.region;
    this.buffer = this.b.buffer;
    this.bytes = new Uint8Array(this.buffer, pointer, capacity);
    this.view = new DataView(this.buffer, pointer, capacity);
  }

  ensure(pos, extra) {
    const need = pos + extra;
    if (need > this.region.capacity) this.grow(pos, Math.max(need, 2 * this.region.capacity));
    else this.refresh();
  }

  /** A region of `capacity` bytes holding the old one's [0, keep). */
  grow(keep, capacity) {
    const b = this.b;
    if (capacity > MAX_SCRATCH) throw new RangeError(`fastmp: a message of ${capacity} bytes does not fit in wasm32 memory (at most 4 GiB)`);
    const pointer = b.allocate(capacity);
    if (pointer === 0) throw new RangeError(`fastmp: wasm memory cannot grow to hold a ${capacity}-byte message`);
    const old = this.region.pointer;
    if (old) {
      b.u8.copyWithin(pointer, old, old + keep);
      b.wasm.free(old);
    }
    this.region.pointer = pointer;
    this.region.capacity = capacity;
    this.takeViews();
  }

  writeTyped(kind, x, pos) {
    const b = this.b;
    const n = usableLength(x, 'encode', this.detached);
    if (n > MAX_ELEMENTS) throw new RangeError(`fastmp: a msgpack array holds at most 2^32-1 elements, not ${n}`);
    // Where x is, before the store grows (which may grow memory and detach
    // x): an alloc() array is read at its address, which growth keeps; the
    // latest packView() output (or an Encoder's) is copied out of the way.
    let at = b.locate(x, 'encode', x);
    let elements = x;
    if (at === IN_OUTPUT) {
      elements = new kind.Type(x);
      at = OUTSIDE;
    }
    const room = packBound(n, kind.wire);
    if (n < this.jsBelow[kind.index]) {
      this.ensure(pos, room);
      return packKindInto(kind, at >= 0 ? new kind.Type(b.buffer, at, n) : elements, n, this.bytes, pos);
    }
    if (at >= 0) {
      this.ensure(pos, room);
    } else {
      // Elements from JS memory are copied into the store itself, past the
      // output's room (16-byte aligned): a call writes into its own store
      // only, never into the scratch region that a packView() output in the
      // same message may lie in.
      this.ensure(pos, room + 16 + n * kind.bytes);
      at = align16(this.region.pointer + pos + room);
      b.view(kind.Type).set(elements, at / kind.bytes);
    }
    const size = b.wasm[kind.pack](at, n, this.region.pointer + pos) >>> 0;
    this.refresh();
    return pos + size;
  }

  take(pos) {
    this.refresh();
    return copyOut(this.bytes, 0, pos);
  }

  copyInto(target, offset, pos) {
    this.refresh();
    target.set(this.bytes.subarray(0, pos), offset);
  }
}

// The most of a message a shaped decode copies into the input region at once
// (fields longer than UNPACK_CHUNK.from go a chunk at a time instead): 1 MB.
const REGION_WINDOW = 1 << 20;

/** Shaped typed-array fields of one input, decoded by the kernels: see js/codec/port-js.js. */
class WasmReader {
  constructor(boundary, kernelError, input) {
    this.b = boundary;
    this.kernelError = kernelError;
    this.input = input;
    this.from = -1; // input[from, to) is copied at `base` (on the first field that needs it)
    this.to = -1;
    this.base = 0;
    this.use = 0; // Boundary.regionUses when the copy was made
    this.end = 0; // where the array read() last decoded ends
  }

  read(kind, offset, integralFloats) {
    const { b, input } = this;
    const inputLength = lengthOf(input);
    const count = arrayCount(input, offset, inputLength);
    const body = found();
    // The bytes the array can span (no element is longer than 9 bytes, a boolean 1).
    const len = Math.min(inputLength - offset, body - offset + count * (kind.c === 'bool' ? 1 : MAX_NUMBER_BYTES));
    const flags = integralFloats ? INTEGRAL_FLOATS : 0;
    // A long field a chunk at a time, straight from the input (which is in JS
    // memory: asInput() copies one in wasm memory): wasm memory holds a chunk,
    // not the field and its output.
    if (len >= UNPACK_CHUNK.from) {
      const { value, end } = b.unpackChunked(kind, input, offset, body, count, offset + len, flags, this.kernelError);
      this.end = end;
      return value;
    }
    if (this.from < 0 || offset < this.from || offset + len > this.to || this.use !== b.regionUses) this.copyFrom(offset, len);
    const out = b.reserve(count * kind.bytes);
    const base = this.base + (offset - this.from);
    if (b.wasm[kind.unpack](base, len, out, count, flags, b.result) !== 0) {
      throw this.kernelError(kind, offset, b.readResult(), input);
    }
    const first = out / kind.bytes;
    this.end = offset + b.resultEnd();
    return copyOut(b.view(kind.Type), first, first + count);
  }

  /**
   * The input from `offset` into the input region: to its end, or the next
   * REGION_WINDOW bytes when it goes on longer (at least `len`, what the field
   * at `offset` can span), so that the region stays small for a long message.
   * Fields come in order: a message of less than that is copied once per decode.
   */
  copyFrom(offset, len) {
    const end = Math.min(this.input.length, offset + Math.max(len, REGION_WINDOW));
    const part = this.input.subarray(offset, end);
    this.base = this.b.inputRegion(part.length);
    this.use = this.b.regionUses;
    this.b.u8.set(part, this.base);
    this.from = offset;
    this.to = end;
  }
}

// Browsers decode strings with TextDecoder and encode with TextEncoder.encodeInto.
const utf16le = typeof TextDecoder === 'function' ? new TextDecoder('utf-16le', { ignoreBOM: true }) : null;
// For bytes 0x00-0x7F (all that is ever decoded with it) windows-1252 is the identity.
const latin1 = typeof TextDecoder === 'function' ? new TextDecoder('windows-1252') : null;
const utf8 = typeof TextEncoder === 'function' ? new TextEncoder() : null;

// ---- outputs ------------------------------------------------------------------
// Every output is a fresh array with its own ArrayBuffer, that the caller owns.
// From UNINIT_FROM bytes on, Node allocates an uninitialised ArrayBuffer and
// copies into it faster than it allocates a zero-filled one (what `new
// Uint8Array` and `slice` do): with freed memory kept, 571 vs 677 ns at 4 KB,
// 1.07 vs 1.40 µs at 16 KB; at 1-2 KB it was up to 15 % slower (a dip in the
// crossovers at 1 KB outputs, issue 14), hence 4 KB. Every byte is written
// before the caller sees the array. The result is a plain typed array, never
// a Buffer (whose slice() would not copy).
/** Node's Buffer, only in Node (a bundler's Buffer polyfill is not taken for it). */
export const NodeBuffer = typeof process !== 'undefined' && process.versions?.node != null ? globalThis.Buffer : null;
const UNINIT_FROM = 4096;

/** A fresh Uint8Array of `size` bytes, with its own ArrayBuffer, contents undefined. */
export function freshBytes(size) {
  if (NodeBuffer === null || size < UNINIT_FROM) return new Uint8Array(size);
  return new Uint8Array(NodeBuffer.allocUnsafeSlow(size).buffer);
}

/**
 * A fresh kind.Type array of n elements, contents undefined (freshBytes()).
 * Its size is the engine's to refuse (Node: 2^32 bytes), wasm32 memory's no
 * longer: a RangeError that says so, not the engine's own.
 */
function freshOutput(kind, n) {
  const bytes = n * kind.Type.BYTES_PER_ELEMENT;
  try {
    return new kind.Type(freshBytes(bytes).buffer);
  } catch (e) {
    if (!(e instanceof RangeError)) throw e;
    throw new RangeError(`fastmp: ${n} elements of a ${kind.Type.name} take ${bytes} bytes, more than a typed array can hold in this engine`, { cause: e });
  }
}

/**
 * Where unpack() of an input from outside wasm memory goes a chunk at a time
 * (Boundary.unpackChunked): inputs of `from` bytes and more, `bytes` at a
 * time. Chunks of 64 KB (the input's, and up to 8x that of output) stay in
 * L2; below 256 KB the whole input does. (Tests lower both, to cut elements
 * at every place; `bytes` must exceed the longest element, 9 bytes.)
 */
export const UNPACK_CHUNK = { bytes: 1 << 16, from: 1 << 18 };

/** A fresh copy of view[start, end), of the view's own type. */
export function copyOut(view, start, end) {
  const bytes = (end - start) * view.BYTES_PER_ELEMENT;
  if (NodeBuffer === null || bytes < UNINIT_FROM) return view.slice(start, end);
  const out = new view.constructor(NodeBuffer.allocUnsafeSlow(bytes).buffer);
  out.set(view.subarray(start, end));
  return out;
}
