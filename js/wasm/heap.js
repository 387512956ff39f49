// heap.js - THE BOUNDARY: one instance's wasm memory and all that lies in it.
// A Heap creates the memory its wasm modules import (pack, unpack, strings:
// c/fastmp.h "the wasm modules' memory"), grows it, allocates from it
// (allocator.js), and alone reads and writes it. A Heap is a handle with
// language-private state and no methods; the verbs are this module's
// functions (place(heap, ...), pack(heap, ...)), the only code that reaches
// that state, and they keep the rules below whatever the caller does.
// (Functions, not methods, so that a page bundles only the verbs it calls.)
//
// - Inputs: a kernel reads a caller's typed array only through place()
//   (or packOut(), which places as it does),
//   which locates it first (refusing one past its lifetime: js/lifetimes.js;
//   a view of this memory exists only once the heap has handed one out, and
//   is located from then on: watching()),
//   copies it out of a live packView() output (which the call's own scratch
//   use would overwrite), copies a small view from offset 0 (never asked for
//   its buffer) when the call may grow memory (which would detach it), and
//   then either reads it in place (a live alloc() array: its address
//   survives growth) or copies it into a region of the heap's. The kernel
//   verbs take only what place() returned (a Source: its address and the
//   count placed), or bytes of the heap's own regions. A path that reads an
//   input in JS after growing a region takes it from readableAfterGrowth(),
//   by the same rule; a target of this memory that the call's growth
//   detached is found again (targetAddress()).
// - Regions: scratch (one, reused by every call; only grows), the message
//   codec's stores and input windows. A region moves only in ensure(); a
//   Source of a region that has moved since is refused.
// - Growth: only the allocator grows memory, through grow(), which renews
//   every view of it. A region's own views (region.bytes, region.view) are
//   taken again whenever it moves or memory grows: read through the region,
//   they are never stale.
// - Outputs: packView() outputs are views of scratch, valid until the next
//   verb that uses scratch; alloc() arrays until free().

import { HEAP_BASE, MEMORY_PAGES, NO_INDEX_U32, RESULT } from '../abi.js';
import { CODE_NAMES, ownOutputTargetError } from '../errors.js';
import { bufferOf, byteLengthOf, byteOffsetOf, copyInto, isDetached, viewBuffer } from '../intrinsics.js';
import {
  HANDLES, IN_ALLOCATION, IN_OUTPUT as IN_AN_OUTPUT, belowOwned, freedError, lifetimeError, makeMark, markDetachedByGrowth, own,
  refuseSized, watchReleased,
} from '../lifetimes.js';
import { Allocator, Stack, align16 } from './allocator.js';
import { NodeBuffer } from '../runtime.js';
import { copyOut } from './outputs.js';
import { RangeSet } from './ranges.js';

const PAGE = 65536;
/** wasm32 memory: at most 65536 pages, 4 GiB. */
const MAX_PAGES = 65536;
/** The smallest scratch region, and the rule by which it grows (to the next power of two that holds the request). */
export const MIN_SCRATCH = 1 << 16;


const staleOutputError = (fn) => lifetimeError('STALE', `${fn}() was given a view of wasm memory that a later call has overwritten (a packView() output is valid until the next call; copy it (slice()) to keep it)`);
const noRoom = (bytes, now) => new RangeError(`fastmp: wasm memory cannot grow to hold ${bytes} bytes (wasm32 memory is at most 4 GiB; ${now} bytes now)`);

// ---- handles: what other files hold of the heap, and cannot read or forge ----------

// A Region's and a Source's state is read through these accessors, which only
// this module has (set in the classes' static blocks).
let regionOf;
let sourceOf;
let countOf;
const MADE_HERE = Symbol('heap');

/** A region of wasm memory: scratch, a store, an input window. Its offsets are what other files use. */
class Region {
  #state;

  constructor(key, state) {
    if (key !== MADE_HERE) throw new TypeError('fastmp: internal: regions are made by a Heap');
    this.#state = state;
  }

  /** The region's bytes: live whenever read (the heap takes them again when the region moves or memory grows). */
  get bytes() {
    return this.#state.bytes;
  }

  /** A DataView of the same bytes, as live. */
  get view() {
    return this.#state.data;
  }

  static {
    regionOf = (region) => region.#state;
  }
}

/**
 * Where a kernel reads a placed input (place()): an address, valid while its
 * region has not moved, and how many elements were placed there, which is
 * what the kernel verbs read (no count a caller could have read again since).
 */
class Source {
  #address;
  #count;
  #region; // the state of the region it was copied into (null: in place, in an alloc() array)
  #moves; // that region's move count then

  constructor(key, address, count, region) {
    if (key !== MADE_HERE) throw new TypeError('fastmp: internal: sources are made by place()');
    this.#address = address;
    this.#count = count;
    this.#region = region === null ? null : regionOf(region);
    this.#moves = region === null ? 0 : this.#region.moves;
  }

  static {
    sourceOf = (source) => {
      if (source.#region !== null && source.#region.moves !== source.#moves) {
        throw new Error('fastmp: internal: a placed input whose region has moved since');
      }
      return source.#address;
    };
    countOf = (source) => source.#count;
  }
}

/** What a Heap holds (its fields: newState()); set in Heap's static block. */
let stateOf;

/**
 * One instance's wasm memory. It has no property and no method: what it
 * holds is read and written only by this module's verbs (place(heap, ...),
 * pack(heap, ...), ...), through stateOf(), which no other module has.
 * (Verbs, not methods: a page bundles only the verbs it calls.)
 */
export class Heap {
  #state;

  constructor() {
    this.#state = newState();
  }

  static {
    stateOf = (heap) => heap.#state;
  }
}

function newState() {
  const h = {
    memory: new WebAssembly.Memory({ initial: MEMORY_PAGES, maximum: MAX_PAGES }),
    buffer: null,
    u8: null,
    views: new Map(), // Type -> a view of all of memory
    lastType: null, // the Type viewAs() was last asked for, and its view
    lastView: null,
    epoch: 0, // growths so far
    epochs: new WeakMap(), // buffer -> the growth that made it
    kernels: { pack: null, unpack: null, strings: null }, // each module's exports, once attached
    space: null, // the free space: a Stack, until the first region but scratch or alloc() array makes the Allocator (allocating())
    result: 0, // the address of the kernels' fm_result
    scratch: null,
    regions: new Set(), // every live region, whose views renew() takes again
    // alloc()'s bookkeeping (js/wasm/ranges.js RangeSets), made by the first alloc():
    allocations: null, // live alloc() arrays: { start, end, length, Type, live }
    records: null, // every alloc() record of this heap's, live or freed (a WeakSet)
    freed: null, // ranges free() released, until an allocation reuses them
    generation: 0, // one more at every use of scratch: packView() outputs of an older one have expired
    output: { start: 0, end: 0, generation: -1 }, // the latest packView() output
    readInPlace: false, // whether the latest placeAt() input is read in place
    watch: null, // WATCH once a view of memory has been handed out (watching())
  };
  renew(h);
  h.space = new Stack(HEAP_BASE, h.buffer.byteLength, (bytes) => grow(h, bytes));
  h.result = h.space.malloc(RESULT.size);
  h.scratch = newRegion(h, 0);
  return h;
}

// ---- modules --------------------------------------------------------------------------

/**
 * Instantiates compiled `module` ('pack', 'unpack', 'strings') on this
 * memory; resolves to its build ('simd', 'scalar'). It is attached only when
 * of build `expected` (null: any); the caller refuses another.
 */
export async function attach(heap, module, compiled, expected = null) {
  const h = stateOf(heap);
  return started(h, module, await WebAssembly.instantiate(compiled, imports(h)), expected);
}

/** attach() without a promise (blocks while it instantiates). */
export function attachSync(heap, module, compiled, expected = null) {
  const h = stateOf(heap);
  return started(h, module, new WebAssembly.Instance(compiled, imports(h)), expected);
}

function imports(h) {
  return { env: { memory: h.memory } };
}

function started(h, module, instance, expected) {
  const kernels = instance.exports;
  const build = kernels.fm_simd_enabled() ? 'simd' : 'scalar';
  if (expected !== null && build !== expected) return build; // (not attached: refused by the caller)
  kernels._initialize?.();
  h.kernels[module] = kernels;
  return build;
}

/** Whether module's kernels are attached. */
export const has = (heap, module) => stateOf(heap).kernels[module] !== null;

/** What memoryStats() reports of this heap. */
export function stats(heap) {
  const h = stateOf(heap);
  return { wasmMemory: h.buffer.byteLength, scratch: regionOf(h.scratch).capacity };
}

// ---- memory, views and growth ---------------------------------------------------------------

/** Memory grows by at least `bytes`; returns its new size, or -1 when wasm32 memory cannot hold it. */
function grow(h, bytes) {
  const pages = Math.ceil(bytes / PAGE);
  if (h.buffer.byteLength / PAGE + pages > MAX_PAGES) return -1;
  try {
    h.memory.grow(pages);
  } catch {
    return -1; // (the engine may refuse before wasm32's limit)
  }
  renew(h);
  return h.buffer.byteLength;
}

/** Takes the views of memory again (at start, and after every growth). */
function renew(h) {
  const old = h.buffer;
  const buffer = h.memory.buffer;
  h.buffer = buffer;
  h.epochs.set(buffer, ++h.epoch);
  h.u8 = new Uint8Array(buffer);
  h.views.clear();
  h.lastType = null;
  for (const region of h.regions) retake(h, regionOf(region));
  if (h.watch !== null) h.watch.renewed(h, old);
}

/** A view of all of memory as `Type` (kept until memory grows). */
function viewAs(h, Type) {
  if (Type === h.lastType) return h.lastView; // (most calls ask for the type the previous one did)
  let v = h.views.get(Type);
  if (v === undefined) h.views.set(Type, (v = new Type(h.buffer)));
  h.lastType = Type;
  h.lastView = v;
  return v;
}

/** malloc(), or a RangeError that says memory is full. Memory in use again is no longer what free() released. */
function malloc(h, bytes) {
  if (bytes + HEAP_BASE > 2 ** 32) throw new RangeError(`fastmp: ${bytes} bytes do not fit in wasm32 memory (at most 4 GiB)`);
  const now = h.buffer.byteLength;
  const at = h.space.malloc(bytes);
  if (at === 0) throw noRoom(bytes, now);
  if (h.freed !== null && h.freed.size > 0) h.freed.deleteOverlapping(at, at + bytes);
  return at;
}

// ---- regions ------------------------------------------------------------------------------------

/** A new region of at least `bytes` bytes (no memory until ensure() when 0). */
export const region = (heap, bytes) => newRegion(allocating(stateOf(heap)), bytes);

function newRegion(h, bytes) {
  const region = new Region(MADE_HERE, { address: 0, capacity: 0, moves: 0, bytes: NO_BYTES, data: NO_DATA, typed: null, typedType: null });
  h.regions.add(region);
  if (bytes > 0) ensureIn(h, region, bytes, 0);
  return region;
}

/** h, its space an Allocator from now on (js/wasm/allocator.js): a heap with no region but scratch needs none. */
function allocating(h) {
  if (h.space instanceof Stack) h.space = Allocator.over(h.space);
  return h;
}

const NO_BYTES = new Uint8Array(0);
const NO_DATA = new DataView(NO_BYTES.buffer);

/** Region state r has moved (or been released): its views are taken again. */
function moved(h, r) {
  r.moves++;
  retake(h, r);
}

/** Region state r's views, taken anew (after it moved, or memory grew). */
function retake(h, r) {
  r.bytes = new Uint8Array(h.buffer, r.address, r.capacity);
  r.data = new DataView(h.buffer, r.address, r.capacity);
  r.typedType = null;
}

/** Region state r's bytes as a view of `Type` (the last Type asked, kept until the region moves or memory grows). */
function regionAs(h, r, Type) {
  if (r.typedType !== Type) {
    r.typed = new Type(h.buffer, r.address, r.capacity / Type.BYTES_PER_ELEMENT);
    r.typedType = Type;
  }
  return r.typed;
}

/** The scratch region, which every call may reuse. */
export const scratchOf = (heap) => stateOf(heap).scratch;

/**
 * The region holds at least `need` bytes afterwards, its first `keep`
 * bytes as they were. When it must grow it moves (scratch to the next
 * power of two, a region that keeps bytes to twice its size at least, where
 * that can be had), which may grow memory; a refused
 * growth leaves it as it was (a RangeError).
 */
export const ensure = (heap, region, need, keep) => ensureIn(stateOf(heap), region, need, keep);

function ensureIn(h, region, need, keep) {
  const r = regionOf(region);
  if (region === h.scratch) h.generation++;
  if (need <= r.capacity) return;
  // Nothing to keep: the old block is free before the new one is asked
  // for (a region past 2 GiB cannot have both), and had again if refused.
  const old = r.capacity;
  if (keep === 0 && old > 0) h.space.free(r.address);
  let at;
  try {
    at = mallocRegion(h, region, need, keep > 0 ? 2 * old : 0);
  } catch (e) {
    if (keep === 0 && old > 0) {
      r.address = h.space.malloc(old);
      r.capacity = r.address === 0 ? 0 : h.space.sizeOf(r.address);
      moved(h, r);
    }
    throw e;
  }
  if (keep > 0) {
    h.u8.copyWithin(at, r.address, r.address + keep);
    h.space.free(r.address);
  }
  r.address = at;
  r.capacity = h.space.sizeOf(at);
  moved(h, r);
}

/**
 * A block for a region of `need` bytes: scratch's the next power of two, a
 * region that keeps its bytes (a store, written field after field) at least
 * `least` (twice its size: a run of growths copies each byte O(1) times),
 * where that can be had; else exactly `need`.
 */
function mallocRegion(h, region, need, least) {
  const size = region === h.scratch ? Math.max(MIN_SCRATCH, 2 ** Math.ceil(Math.log2(need))) : Math.max(need, least);
  if (size === need) return malloc(h, need);
  try {
    return malloc(h, size);
  } catch {
    return malloc(h, need); // (past 2 GiB the next power is 4 GiB: exactly what is asked)
  }
}

/** Frees a region's memory (it is not used again). */
export const release = (heap, region) => releaseIn(stateOf(heap), region);

function releaseIn(h, region) {
  const r = regionOf(region);
  if (r.capacity > 0) h.space.free(r.address);
  r.capacity = 0;
  r.address = 0;
  moved(h, r);
  h.regions.delete(region);
}

// ---- alloc(), free(), refresh() ------------------------------------------------------------------

/**
 * A `kind` array of n elements in wasm memory. The scratch its packing
 * needs (`room` bytes) is reserved first, so that packing it never grows
 * memory. A refused allocation (a RangeError) leaves scratch as it was.
 */
export function alloc(heap, kind, n, room) {
  const h = allocating(stateOf(heap));
  const scratch = regionOf(h.scratch);
  const previous = scratch.capacity;
  ensureIn(h, h.scratch, room, 0);
  const bytes = Math.max(n * kind.bytes, 1);
  let start;
  try {
    start = malloc(h, bytes);
  } catch (e) {
    // A refused allocation leaves scratch as it was (a grown one would hold that memory for good).
    if (scratch.capacity !== previous) {
      releaseIn(h, h.scratch);
      if (previous > 0) ensureIn(h, h.scratch, previous, 0);
    }
    throw e;
  }
  const record = { start, end: start + bytes, length: n, Type: kind.Type, live: true };
  if (h.allocations === null) {
    h.allocations = new RangeSet();
    h.records = new WeakSet();
    h.freed = new RangeSet();
  }
  h.allocations.add(record);
  h.records.add(record);
  return handOut(h, record);
}

function handOut(h, record) {
  watching(h);
  const view = new record.Type(h.buffer, record.start, record.length);
  HANDLES.set(view, record);
  return view;
}

/** A live view of the same allocation as x (after growth detached x); undefined when x is none of this heap's. */
export function refresh(heap, x) {
  const h = stateOf(heap);
  const record = HANDLES.get(x);
  if (h.records === null || !h.records.has(record)) return undefined;
  if (!record.live) throw lifetimeError('FREED', 'refresh() was given an array that free() has released');
  return handOut(h, record);
}

/** Releases an allocation; false when x is none of this heap's alloc() arrays. */
export function free(heap, x) {
  const h = stateOf(heap);
  const record = HANDLES.get(x);
  if (h.records === null || !h.records.has(record)) return false;
  if (!record.live) throw lifetimeError('FREED', 'free() was given an array that is already freed');
  record.live = false;
  h.allocations.delete(record);
  h.freed.add({ start: record.start, end: record.end });
  h.space.free(record.start);
  return true;
}

// ---- watching the views handed out ------------------------------------------------------------
// A heap's memory is its own: no view of it exists outside the heap until
// one is handed out (a packView() output, an alloc() array). The first
// hand-out makes the heap watch its views from then on (watching()): each
// buffer of its memory is an owner's (js/lifetimes.js own(), whose judge
// locates a view), and growth records the buffer it detached. Until then a
// view of its memory is none of the caller's, and a page whose app hands
// none out bundles none of this.

/**
 * What a watching heap does (h.watch): locate a view of its memory; find
 * again one that growth detached (reattach()); register a buffer that growth
 * made.
 */
const WATCH = { locate, found, renewed: (h, old) => { markDetachedByGrowth(old); ownBuffer(h); } };

/** h.watch, which only a heap that handed out a view has: a view of its memory met before then is none a caller could hold. */
function watchOf(h, fn) {
  if (h.watch === null) throw new Error(`fastmp: internal: ${fn}() was given a view of wasm memory that no call handed out`);
  return h.watch;
}

/** h, watching its views from now on (called by every verb that hands one out). */
function watching(h) {
  if (h.watch === null) {
    h.watch = WATCH;
    ownBuffer(h);
    watchReleased();
  }
  return h;
}

function ownBuffer(h) {
  own(h.buffer, (start, end, fn, original) => (locate(h, start, end, fn, original) === IN_OUTPUT ? IN_AN_OUTPUT : IN_ALLOCATION));
}

// ---- where a view lies -------------------------------------------------------------------------

/**
 * Where bytes [start, end) of this memory lie (those of a view of it): an InAllocation
 * (a live alloc() array: read in place), IN_OUTPUT (the latest packView()
 * output: copied before the call uses scratch) or OUTSIDE (not this
 * memory). Any other view of it is refused: an expired output (by its
 * identity too: STALE wherever a later output lies), a freed array or its
 * bytes (FREED), anything else (STALE).
 */
function locate(h, start, end, fn, original) {
  const handed = OUTPUT_MARK.markOf(original);
  if (handed !== undefined && handed !== h.generation) throw staleOutputError(fn);
  // (An empty alloc() array overlaps no range: only its record tells that it was freed.)
  if (HANDLES.get(original)?.live === false) throw freedError(fn);
  if (h.allocations !== null && h.allocations.holding(start, end) !== undefined) return new InAllocation(start);
  const o = h.output;
  if (o.generation === h.generation && start >= o.start && end <= o.end) return IN_OUTPUT;
  if (h.freed !== null && h.freed.overlaps(start, end)) throw lifetimeError('FREED', `${fn}() was given a view of an array that free() has released`);
  throw staleOutputError(fn);
}

/** locate() of typed array x (read through the intrinsics), with the shortcut for small views from offset 0. */
function whereIs(h, x, size, fn, original) {
  if (belowOwned(x, size)) return OUTSIDE;
  if (bufferOf(x) !== h.buffer) {
    refuseSized(x, size, fn, original); // (another owner's view: refused past its lifetime by its own rules)
    return OUTSIDE;
  }
  const start = byteOffsetOf(x);
  return watchOf(h, fn).locate(h, start, start + size, fn, original);
}

// ---- placing inputs ---------------------------------------------------------------------------

/**
 * Places `count` elements of typed array x (a Type, read through the
 * intrinsics), from its element `from`, for a kernel whose output takes
 * region[0, outEnd) (a store's: from its write position); returns the
 * Source the kernel verbs read. They are read in place when x lies in a
 * live alloc() array, else copied into the region at align16(outEnd); the
 * region holds what is needed afterwards, its first `keep` bytes as they
 * were. The order is the rule: locate x, copy it out of a live output,
 * make it readable after growth, grow the region, copy it in. (`fn`,
 * `original`: the call and the object the caller passed, for refusals.)
 */
export function place(heap, Type, x, from, count, fn, original, region, outEnd, keep = 0) {
  const h = stateOf(heap);
  const address = placeAt(h, Type, x, byteLengthOf(x), from, count, fn, original, region, outEnd, keep);
  return new Source(MADE_HERE, address, count, h.readInPlace ? null : region);
}

/** place() without the Source: the address (h.readInPlace says whether it is the caller's alloc() array). */
function placeAt(h, Type, x, size, from, count, fn, original, region, outEnd, keep) {
  const bytes = Type.BYTES_PER_ELEMENT;
  const where = whereIs(h, x, size, fn, original);
  const inPlace = where instanceof InAllocation;
  h.readInPlace = inPlace;
  const at = align16(outEnd);
  const need = inPlace ? outEnd : at + count * bytes;
  let input = from === 0 && count * bytes === size ? x : new Type(bufferOf(x), byteOffsetOf(x) + from * bytes, count);
  // A copy of a live output, which the call's scratch use would overwrite;
  // or of a small view not asked for its buffer, which a growth would detach if it were of this memory.
  if (where === IN_OUTPUT || (where === OUTSIDE && need > regionOf(region).capacity && belowOwned(x, size))) input = new Type(input);
  ensureIn(h, region, need, keep);
  if (inPlace) return where.address + from * bytes;
  // Into a view of the region alone: x may be a length-tracking view of a growable
  // SharedArrayBuffer that another thread grew since its length was read, and the copy takes
  // the length x has then. Grown within the region, the elements past `count` land in the
  // region's free bytes; past its end, the copy is refused (a RangeError, nothing written) and
  // the `count` elements the call read are copied.
  const r = regionOf(region);
  try {
    copyInto(regionAs(h, r, Type), input, at / bytes);
  } catch {
    copyInto(regionAs(h, r, Type), new Type(bufferOf(x), byteOffsetOf(x) + from * bytes, count), at / bytes);
  }
  return r.address + at;
}

/**
 * pack() of all n elements of x (its size: n * kind.bytes, which is not
 * asked again) in one verb: x placed (as place() places it) after an output
 * of `room` bytes at scratch[at], packed there, and the output returned as a
 * fresh copy.
 */
export function packOut(heap, kind, x, n, fn, at, room) {
  const h = stateOf(heap);
  const scratch = h.scratch;
  const address = placeAt(h, kind.Type, x, n * kind.bytes, 0, n, fn, x, scratch, at + room, 0);
  const out = regionOf(scratch).address + at;
  const size = h.kernels.pack[kind.pack](address, n, out) >>> 0;
  return copyOut(h.u8, out, out + size);
}

/**
 * The input bytes [0, from + len) a kernel's error quotes, the bytes at
 * `from` as the Source holds them (an input in wasm memory may have been
 * detached by a growth since: quoted from where it was placed).
 */
export function quote(heap, source, from, len) {
  const h = stateOf(heap);
  const address = sourceOf(source);
  const bytes = new Uint8Array(from + len);
  bytes.set(h.u8.subarray(address, address + len), from);
  return bytes;
}

/** The Source of `count` elements at region[at] (what a verb or the caller wrote through region.bytes). */
export function sourceIn(heap, region, at, count) {
  stateOf(heap); // (a Heap's, or a TypeError)
  return new Source(MADE_HERE, regionOf(region).address + at, count, region);
}

/** Whether typed array x (its `size` bytes, live: refused before) lies in this memory (io.js reads such an input whole, not a chunk at a time). */
export function holds(heap, x, size, fn, original) {
  const h = stateOf(heap);
  return whereIs(h, x, size, fn, original) !== OUTSIDE;
}

/**
 * Typed array x (its `size` bytes, live) as JS code can read it after a
 * growth of memory: a copy (a new Type of its elements) where the growth
 * could detach it (a view of this memory, or a small one from offset 0,
 * which is not asked for its buffer), else x itself. For the paths that grow
 * a region and then read x in JS (a store's small typed fields, bins and
 * extensions), as place() does for a kernel's input.
 */
export function readableAfterGrowth(heap, Type, x, size, fn, original = x) {
  const h = stateOf(heap);
  return belowOwned(x, size) || whereIs(h, x, size, fn, original) !== OUTSIDE ? new Type(x) : x;
}

// ---- kernels -----------------------------------------------------------------------------------

/** The pack kernel of `kind` on the elements placed at `source`, its output at region[outAt]; returns the bytes written. */
export function pack(heap, kind, source, region, outAt) {
  const h = stateOf(heap);
  return h.kernels.pack[kind.pack](sourceOf(source), countOf(source), regionOf(region).address + outAt) >>> 0;
}

/**
 * The unpack kernel of `kind`: `count` elements from source + from (at most
 * `len` bytes), into region[outAt]; true when it succeeded (end()), else
 * false (failure()).
 */
export function unpack(heap, kind, source, from, len, count, flags, region, outAt) {
  const h = stateOf(heap);
  if (from + len > countOf(source)) throw new Error('fastmp: internal: a placed input read past its end');
  return h.kernels.unpack[kind.unpack](sourceOf(source) + from, len, regionOf(region).address + outAt, count, flags, h.result) === 0;
}

/** A string kernel `name` (c/fm_string.c) of (the elements placed at source, region[outAt]) with the result record; true when it succeeded. */
export function convert(heap, name, source, region, outAt) {
  const h = stateOf(heap);
  return h.kernels.strings[name](sourceOf(source), countOf(source), regionOf(region).address + outAt, h.result) === 0;
}

/** A one-byte kind's check kernel `name` on the bytes placed at source; true when every char is in its set. */
export function check8(heap, name, source) {
  const h = stateOf(heap);
  return h.kernels.strings[name](sourceOf(source), countOf(source), h.result) === 0;
}

/** fm_bmp_narrow: how many of the BMP chars placed at source (its bytes, an even count) are at most `max`, written one byte each to region[outAt]. */
export function narrow(heap, source, region, outAt, max) {
  const h = stateOf(heap);
  return h.kernels.strings.fm_bmp_narrow(sourceOf(source), countOf(source) / 2, regionOf(region).address + outAt, max) >>> 0;
}

/** fm_result.end after a kernel succeeded: where the array it decoded ends. */
export function end(heap) {
  const h = stateOf(heap);
  return viewAs(h, Uint32Array)[(h.result + RESULT.end) >>> 2];
}

/** The fm_result of a kernel that failed, its code as a name. */
export function failure(heap) {
  const h = stateOf(heap);
  const words = viewAs(h, Uint32Array);
  const field = (name) => words[(h.result + RESULT[name]) >>> 2];
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

// ---- outputs --------------------------------------------------------------------------------

/** A fresh copy of region[at, at + size), with its own ArrayBuffer. */
export function take(heap, region, at, size) {
  const h = stateOf(heap);
  const from = regionOf(region).address + at;
  return copyOut(h.u8, from, from + size);
}

/** count elements of Type at region[at] (aligned to Type), as a fresh Type or written into `into`. */
export function takeTyped(heap, Type, region, at, count, into) {
  const h = stateOf(heap);
  const first = (regionOf(region).address + at) / Type.BYTES_PER_ELEMENT;
  const elements = viewAs(h, Type);
  if (into === undefined) return copyOut(elements, first, first + count);
  into.set(elements.subarray(first, first + count));
  return into;
}

/** As take(), into target[offset...] (the caller's Uint8Array, located as a target: locateTarget()). */
export function copyTo(heap, target, offset, region, at, size) {
  const h = stateOf(heap);
  const from = regionOf(region).address + at;
  const address = targetAddress(h, target, 'packInto');
  if (address !== null) h.u8.copyWithin(address + offset, from, from + size); // (an alloc() target, by address: growth may have detached the caller's view)
  else copyInto(target, h.u8.subarray(from, from + size), offset);
}

/**
 * Where target (a Uint8Array a call writes into) lies: the address of a
 * live alloc() array, or null outside this memory. An output of fastmp's
 * own is refused (the call would overwrite it: a TypeError), as is any
 * other view of this memory (STALE, FREED), low addresses included. A
 * target of this memory that the call's growth detached is found again
 * (an alloc() array stays where it was).
 */
function targetAddress(h, target, fn) {
  const buffer = bufferOf(target);
  if (buffer !== h.buffer) return h.epochs.has(buffer) ? byteOffsetOf(watchOf(h, fn).found(h, fn, target)) : null;
  const start = byteOffsetOf(target);
  const where = locate(h, start, start + byteLengthOf(target), fn, target);
  if (where === IN_OUTPUT) throw ownOutputTargetError(fn);
  return where instanceof InAllocation ? where.address : null;
}

/** region[at, at + size) of scratch as a packView() output: valid until the next call that uses scratch. */
export const view = (heap, at, size) => outputView(stateOf(heap), at, size);

function outputView(h, at, size) {
  watching(h);
  const start = regionOf(h.scratch).address + at;
  const o = h.output;
  o.start = start;
  o.end = start + size;
  o.generation = h.generation;
  const view = new Uint8Array(h.buffer, start, size);
  OUTPUT_MARK.mark(view, h.generation);
  return view;
}

/** Bytes already packed (a bin) as a packView() output: copied into scratch. */
export function viewOf(heap, bytes) {
  const h = stateOf(heap);
  ensureIn(h, h.scratch, bytes.length, 0);
  h.u8.set(bytes, regionOf(h.scratch).address);
  return outputView(h, 0, bytes.length);
}

/**
 * `view` (a typed array or DataView) as a call that began at memory epoch
 * `since` reads it: itself, unless the call's own growth of memory has
 * detached it; then a live view of the same alloc() array, which stays
 * where it was, or of the latest packView() output. Another view of wasm
 * memory loses its place with its buffer: STALE, saying why. A view
 * detached before the call is returned as it is, for the usual refusal.
 * (`original`: the array `view` was made of, whole, as asBools() makes one.)
 */
export function reattach(heap, view, since, fn, original = view) {
  const h = stateOf(heap);
  if (!isDetached(view) || !(h.epochs.get(viewBuffer(view)) >= since)) return view;
  return watchOf(h, fn).found(h, fn, original);
}

/** reattach() of a view of this memory that growth detached: the array it was (`original`), found again, or refused. */
function found(h, fn, original) {
  const record = HANDLES.get(original);
  if (record?.live) return handOut(h, record);
  if (record !== undefined) throw freedError(fn);
  // (Only the latest output is live: h.output says where it lies.)
  const o = h.output;
  if (OUTPUT_MARK.markOf(original) === h.generation && o.generation === h.generation) return new Uint8Array(h.buffer, o.start, o.end - o.start);
  throw lifetimeError('STALE', `${fn}() grew wasm memory, which detached this view of wasm memory before the call was done with it; only an array from alloc() and a packView() output themselves are found again: pass a copy of a subarray`);
}

/** The growths of memory so far: a call that starts now owns every later one (reattach()). */
export const epochOf = (heap) => stateOf(heap).epoch;

// ---- strings in and out of memory ------------------------------------------------------------

/**
 * Writes string `text` into region[at] as 'utf8' (at most `room` bytes;
 * returns the bytes written) or 'utf16le' (2 bytes a unit).
 */
export function writeText(heap, region, at, text, encoding, room) {
  const h = stateOf(heap);
  const address = regionOf(region).address + at;
  if (NodeBuffer !== null) {
    const buffer = nodeBuffer(h);
    // (Node's and Bun's Buffer have utf8Write / ucs2Write, which skip write()'s argument handling.)
    if (encoding === 'utf8') return typeof buffer.utf8Write === 'function' ? buffer.utf8Write(text, address, room) : buffer.write(text, address, room, 'utf8');
    return typeof buffer.ucs2Write === 'function' ? buffer.ucs2Write(text, address, room) : buffer.write(text, address, room, 'utf16le');
  }
  if (encoding === 'utf8') return UTF8.encodeInto(text, h.u8.subarray(address, address + room)).written;
  const units = viewAs(h, Uint16Array);
  for (let i = 0, p = address >>> 1; i < text.length; i++) units[p + i] = text.charCodeAt(i);
  return 2 * text.length;
}

/** region[at, at + size) as a string: 'latin1' (bytes 0x00-0xFF; without Node, 0x00-0x7F only) or 'utf16le'. */
export function readText(heap, region, at, size, encoding) {
  const h = stateOf(heap);
  const address = regionOf(region).address + at;
  if (NodeBuffer !== null) return nodeBuffer(h).toString(encoding, address, address + size);
  return (encoding === 'latin1' ? LATIN1 : UTF16LE).decode(h.u8.subarray(address, address + size));
}

/** As readText(), of the bytes placed at a Source (the caller's alloc() array, or its copy). */
export function textAt(heap, source, encoding) {
  const h = stateOf(heap);
  const address = sourceOf(source);
  const size = countOf(source);
  if (NodeBuffer !== null) return nodeBuffer(h).toString(encoding, address, address + size);
  return (encoding === 'latin1' ? LATIN1 : UTF16LE).decode(h.u8.subarray(address, address + size));
}

/** Whether readText(…, 'latin1') reads bytes up to 0xFF (Node's Buffer), not only up to 0x7F (TextDecoder's windows-1252). */
export const LATIN1_MAX = NodeBuffer !== null ? 0xff : 0x7f;

function nodeBuffer(h) {
  const buffer = h.views.get(NodeBuffer);
  if (buffer !== undefined) return buffer;
  const made = NodeBuffer.from(h.buffer);
  h.views.set(NodeBuffer, made);
  return made;
}

// Every packView() output carries the generation it was made in (a mark of
// lifetimes.js's): an expired output is known by its identity, wherever a
// later output lies.
const OUTPUT_MARK = /* @__PURE__ */ makeMark();

/** A location in a live alloc() array: its address. */
class InAllocation {
  constructor(address) {
    this.address = address;
  }
}
const OUTSIDE = Object.freeze({ where: 'outside' });
const IN_OUTPUT = Object.freeze({ where: 'latest packView() output' });

const UTF8 = typeof TextEncoder === 'function' ? /* @__PURE__ */ new TextEncoder() : null;
const UTF16LE = typeof TextDecoder === 'function' ? /* @__PURE__ */ new TextDecoder('utf-16le', { ignoreBOM: true }) : null;
// For bytes 0x00-0x7F (all that is ever read with it) windows-1252 is the identity.
const LATIN1 = typeof TextDecoder === 'function' ? /* @__PURE__ */ new TextDecoder('windows-1252') : null;
