// lifetimes.js - what the boundary (core.js) hands out and how long it lives:
// alloc() arrays (read in place until free()), packView() outputs (valid
// until the next call), Encoders' output regions (encodeSharedRef(): until
// that Encoder's next call); and where an input lies among them. Whether an
// input is one of those, and still alive, is decided by its buffer and byte
// range (a subarray of a freed array is as freed as the array; bytes of an
// Encoder's store outside a live output are STALE), and by the view itself
// for fastmp's outputs: one that expired is STALE even where a later output
// now lies, which its bytes alone could not tell.

import { packBound } from '../abi.js';
import { bufferOf, byteLengthOf, byteOffsetOf, isDetached, usableView, viewBuffer } from '../args.js';
import { ownOutputTargetError, usageError, writtenOutputError } from '../errors.js';
import { HANDLES, releasedError } from '../released.js';
import { checkStoreBytes, liveRef } from '../shared-refs.js';
import { IN_OUTPUT, LOW_MEMORY, OUTSIDE } from './core.js';

/** Scratch bytes typed.js packInScratch() takes for the output of n elements of kind: its bound, and up to 15 bytes to align its elements. */
export const packRoom = (n, kind) => packBound(n, kind.wire) + 16;

// ---- alloc(), free(), refresh() ---------------------------------------------------

/**
 * A `kind` array of n elements in wasm memory, for the caller to fill and
 * pack without a copy in. The scratch region its packing needs is reserved
 * first, so that packing it never grows memory. A refused allocation leaves
 * the scratch region as it was.
 */
export function allocArray(b, kind, n) {
  if (b.wasm === null) throw new TypeError("fastmp: alloc() gives arrays in wasm memory; this instance runs without wasm (backend 'js')");
  const previous = b.capacity;
  b.reserve(packRoom(n, kind));
  const bytes = Math.max(n * kind.bytes, 1);
  const pointer = b.allocate(bytes);
  if (pointer === 0) {
    if (b.capacity !== previous) {
      b.releaseScratch();
      b.restoreScratch(previous);
    }
    throw new RangeError(`fastmp: wasm memory cannot grow to hold ${n} elements`);
  }
  const record = { start: pointer, end: pointer + bytes, length: n, Type: kind.Type, live: true };
  b.allocations.add(record);
  return handOut(b, record);
}

function handOut(b, record) {
  const view = new record.Type(b.buffer, record.start, record.length);
  HANDLES.set(view, record);
  return view;
}

/** A live view of the same allocation as x (after memory growth detached x); undefined when x is no alloc() array. */
export function refreshed(b, x) {
  const record = HANDLES.get(x);
  if (record === undefined) return undefined;
  if (!record.live) throw usageError('FREED', 'refresh() was given an array that free() has released');
  return handOut(b, record);
}

/** Releases an allocation; false when x is not an array alloc() or refresh() returned. */
export function release(b, x) {
  const record = HANDLES.get(x);
  if (record === undefined) return false;
  if (!record.live) throw usageError('FREED', 'free() was given an array that is already freed');
  record.live = false;
  b.allocations.delete(record);
  b.freed.add({ start: record.start, end: record.end });
  b.wasm.free(record.start);
  return true;
}

// ---- packView() outputs ---------------------------------------------------------------

/** A view of output bytes in scratch, valid until the next call that uses scratch. */
export function outputView(b, start, size) {
  b.output = { start, end: start + size, generation: b.generation };
  const view = new Uint8Array(b.buffer, start, size);
  b.outputs.set(view, { generation: b.generation, start, size });
  return view;
}

const staleOutput = (fn) => usageError('STALE', `${fn}() was given a view of wasm memory that a later call has overwritten (a packView() output is valid until the next call; copy it (slice()) to keep it)`);

// ---- where an input is --------------------------------------------------------------

/**
 * What args.js ownView() reports for a detached input x: FREED for an
 * alloc() array that was freed, STALE for another view of this wasm memory.
 */
export const detachedError = (b, x, fn) => releasedError(x, fn);

/**
 * `view` (a typed array or DataView) as a call that began at memory epoch
 * `since` reads it: itself, unless the call's own memory growth has
 * detached it since; then a live view of the same alloc() array, which
 * stays where it was. Another view of wasm memory loses its place with its
 * buffer (a detached view reports offset and length 0): STALE, saying why.
 * One detached before the call is left to the usual checks. (`original`:
 * the array `view` was made of, whole, as asBools() makes one.)
 */
export function reattached(b, view, since, fn, original = view) {
  if (!isDetached(view)) return view;
  if (!(b.bufferEpochs.get(viewBuffer(view)) >= since)) return usableView(view, fn, (v, f) => detachedError(b, v, f));
  const record = HANDLES.get(original);
  if (record?.live) return handOut(b, record);
  if (record !== undefined) throw usageError('FREED', `${fn}() was given an array that free() has released`);
  const output = b.outputs.get(original);
  if (output?.generation === b.generation) return new Uint8Array(b.buffer, output.start, output.size);
  throw usageError('STALE', `${fn}() grew wasm memory for this message, which detached this view of wasm memory before it was read; only an array from alloc(), a packView() output and an encodeSharedRef() output themselves are found again: pass a copy of a subarray`);
}

/**
 * Where the elements of typed array `x` are (read through the intrinsics), a
 * core.js Location: their address when they lie in a live alloc() array
 * (inAllocation(): read in place), IN_OUTPUT when in the latest packView()
 * output or a live encodeSharedRef() output (copied before use),
 * OUTSIDE when not in wasm memory. Any other view of wasm memory is refused:
 * FREED in memory free() released, else STALE (a packView() output a later
 * call overwrote, or a view that memory growth detached).
 * @returns {import('./core.js').Location}
 */
export function locate(b, x, fn, original) {
  return locateSized(b, x, byteLengthOf(x), fn, original);
}

/**
 * locate() of x whose byteLength the caller has from the intrinsics already
 * (its length times its element size): read once. Small, so that V8 inlines
 * it into every call.
 */
export function locateSized(b, x, byteLength, fn, original) {
  return outsideForSure(x, byteLength) ? OUTSIDE : locateView(b, x, fn, original);
}

/**
 * Whether typed array x (of byteLength bytes) is read as memory outside
 * without asking for its buffer: a view from offset 0 that ends below
 * LOW_MEMORY overlaps nothing the boundary hands out, whatever its buffer.
 * Its buffer is not asked for, because asking makes the engine move a fresh
 * small array off its heap, which costs a small call many times over. (It
 * may still be a view of wasm memory's first bytes, which a growth of memory
 * detaches: readableAfterGrowth().)
 */
export const outsideForSure = (x, byteLength) => byteOffsetOf(x) === 0 && byteLength <= LOW_MEMORY;

/**
 * Typed array x (of byteLength bytes) as it can be read after a region the
 * call copies it into has grown, if `growing` (a growth may grow memory): x
 * itself, or a copy (a new Type) when outsideForSure() took x for memory
 * outside without asking for its buffer: a view of wasm memory's first bytes
 * would be detached unread.
 */
export const readableAfterGrowth = (Type, x, byteLength, growing) => (growing && outsideForSure(x, byteLength) ? new Type(x) : x);

/** locate() without the shortcut for small views: for what a call writes into. */
function locateView(b, x, fn, original) {
  if (bufferOf(x) !== b.buffer) return OUTSIDE; // (a detached view was refused by args.js usableLength)
  const handed = b.outputs.get(original);
  if (handed !== undefined && handed.generation !== b.generation) throw staleOutput(fn);
  // (An empty alloc() array overlaps no range: only its record tells that it was freed.)
  if (HANDLES.get(original)?.live === false) throw usageError('FREED', `${fn}() was given an array that free() has released`);
  const start = byteOffsetOf(x);
  const end = start + byteLengthOf(x);
  if (b.allocations.holding(start, end) !== undefined) return start;
  const o = b.output;
  if (o.generation === b.generation && start >= o.start && end <= o.end) return IN_OUTPUT;
  refuseWritten(b, start, end, fn);
  for (const r of b.regions) {
    if (start >= r.pointer && end <= r.pointer + r.capacity) {
      checkStoreBytes(r, start, end, fn);
      liveRef(original, fn); // (an output that expired, where another's now lies: STALE)
      return IN_OUTPUT;
    }
  }
  if (b.freed.overlaps(start, end)) {
    throw usageError('FREED', `${fn}() was given a view of an array that free() has released`);
  }
  throw staleOutput(fn);
}

/**
 * Refuses bytes [start, end) of wasm memory when an Encoder's store that a
 * call is writing holds any of them (STALE): read now, they would be what
 * the call has written over them. (Only a view kept past its lifetime can
 * be there: an encodeSharedRef() output after its encoder's next call.)
 */
export function refuseWritten(b, start, end, fn) {
  for (const r of b.regions) {
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
export function locateTarget(b, target, fn) {
  const at = locateView(b, target, fn, target);
  if (at === IN_OUTPUT) throw ownOutputTargetError(fn);
  return at;
}
