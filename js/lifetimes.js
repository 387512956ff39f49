// lifetimes.js - THE LIFETIME RULES, in one place: the views fastmp hands
// out that live shorter than a caller may keep them, and the one question
// every path asks of a view before it reads or writes it, refuse().
//
// Two kinds of memory hand out such views, each registered here by its owner
// with the function that judges a view of it:
// - an instance's wasm memory (js/wasm/heap.js): alloc() arrays, live until
//   free(); packView() outputs, until the next call. A growth of memory
//   detaches every view of it.
// - an Encoder's shared output (encodeSharedRef()), a JS buffer of the
//   Encoder's, live until that Encoder's next call.
// No owner hands out bytes below LOW_BYTES of its buffer: a view from offset
// 0 of at most LOW_BYTES bytes is never one of theirs, and is not asked for
// its buffer (the engine keeps such small arrays on its heap, and asking
// moves one off, which costs a small call many times over).
//
// A view past its lifetime is refused with what happened to it: FREED (an
// alloc() array free() released, or a view of its bytes), STALE (a view of
// wasm memory that a later call overwrote or memory growth detached, an
// expired encodeSharedRef() output), or DETACHED (any other view whose
// buffer is detached).

import { ownOutputTargetError, usageError } from './errors.js';
import { bufferOf, byteLengthOf, byteOffsetOf, isDetached, typedArrayName, viewBuffer, viewByteLength, viewByteOffset } from './intrinsics.js';
import { withArticle } from './text.js';

/** No owner hands out the first LOW_BYTES bytes of its buffer. */
export const LOW_BYTES = 1024;

/** alloc() and refresh() views -> their allocation's record (its `live` is false once freed). */
export const HANDLES = new WeakMap();

/** Wasm memory buffers that growth has detached. */
const PAST_BUFFERS = new WeakSet();

/** Where a view lies, as refuse() says: memory no owner hands out, a live alloc() array, a live output. */
export const ELSEWHERE = 'elsewhere';
export const IN_ALLOCATION = 'in an alloc() array';
export const IN_OUTPUT = 'in an output';

/** The buffers owners registered -> judge(start, end, fn, original): where the view's bytes [start, end) lie (IN_ALLOCATION, IN_OUTPUT), or a refusal. */
const OWNERS = new WeakMap();

/** The base that lets a subclass install its private field on any object: its constructor returns `target`. */
class Stamped {
  constructor(target) {
    return target;
  }
}

/**
 * A mark an owner puts on the views it hands out, to know each again by its
 * identity: { mark(view, value), markOf(x) } (undefined for a view it never
 * marked). The mark is a private field of a class made here for that owner
 * alone, invisible to everything else; a WeakMap entry per view cost several
 * times what a small packView() or encodeSharedRef() call does besides.
 */
export function makeMark() {
  let mark;
  let markOf;
  // eslint-disable-next-line no-unused-vars -- (used by its static block)
  class Mark extends Stamped {
    #value;

    static {
      mark = (view, value) => {
        new Mark(view);
        view.#value = value;
      };
      markOf = (x) => (#value in x ? x.#value : undefined);
    }
  }
  return { mark, markOf };
}

/** Registers an owner's buffer and its judge (see OWNERS). */
export const own = (buffer, judge) => void OWNERS.set(buffer, judge);

/** Records that growth has detached `buffer`, a wasm memory's. */
export const markDetachedByGrowth = (buffer) => void PAST_BUFFERS.add(buffer);

/** A FastmpError of a view used past its lifetime (STALE, FREED) or a detached input (DETACHED): no input position. */
export const lifetimeError = usageError;

export const freedError = (fn) => lifetimeError('FREED', `${fn}() was given an array that free() has released`);

/**
 * For a view that is detached (or out of bounds): FREED when it is an
 * alloc() array that free() released, STALE when it is a view of wasm memory
 * that memory growth detached; undefined for any other.
 */
function releasedError(view, fn) {
  if (HANDLES.get(view)?.live === false) return freedError(fn);
  if (!PAST_BUFFERS.has(viewBuffer(view))) return undefined;
  return lifetimeError('STALE', `${fn}() was given a view of wasm memory that memory growth has detached; refresh(x) gives a live one of an alloc() array (a packView() output is valid until the next call only)`);
}

/**
 * releasedError once a heap has handed out a view of wasm memory (js/wasm/heap.js
 * watching() calls watchReleased()); null before, when no such view exists
 * outside a heap: a page whose app hands none out bundles neither the
 * function nor its messages.
 */
let released = null;
export const watchReleased = () => void (released = releasedError);

/**
 * Whether `buffer` is the memory of a heap that has handed out a view of it
 * (or another owner's): a small view from its offset 0, which refuse() reads
 * as memory outside (belowOwned()), still lies in memory that a call's growth
 * detaches. (Before any heap hands out a view, none exists: no lookup.)
 */
export const isOwned = (buffer) => released !== null && OWNERS.has(buffer);

/** The error for a detached view: FREED or STALE where releasedError() knows it, else DETACHED. */
export function detachedError(view, fn) {
  return released?.(view, fn) ?? lifetimeError('DETACHED', `${fn}() was given ${describeView(view)} whose buffer is detached (or a resizable buffer shrank below it)`);
}

const describeView = (view) => withArticle(typedArrayName(view) ?? 'DataView');

/** Whether typed array x (of `size` bytes) lies below LOW_BYTES from offset 0: no owner's (its buffer is not asked). */
export const belowOwned = (x, size) => size <= LOW_BYTES && byteOffsetOf(x) === 0;

/**
 * THE QUESTION every path asks of a view it reads or writes (`fn`: the call
 * that was given it; `original`: the object the caller passed, whose
 * identity an owner may know): refuses one past its lifetime (see above),
 * and says where it lies: ELSEWHERE (memory no owner hands out),
 * IN_ALLOCATION (a live alloc() array) or IN_OUTPUT (a live output of
 * fastmp's: a packView() or encodeSharedRef() output). Bytes in wasm memory
 * or in a live output may be written by a fastmp call during this one: a
 * path that runs kernels or user code before it is done reading them reads
 * them from a copy, and no output is a target to write into.
 */
export function refuse(view, fn, original = view) {
  const typed = typedArrayName(view) !== undefined;
  const size = typed ? byteLengthOf(view) : viewByteLength(view);
  if (size === 0 && isDetached(view)) throw detachedError(view, fn);
  if (typed) return refuseSized(view, size, fn, original);
  const judge = OWNERS.get(viewBuffer(view));
  if (judge === undefined) return ELSEWHERE;
  const start = viewByteOffset(view);
  return judge(start, start + size, fn, original);
}

/**
 * refuse() of a typed array of `size` bytes that is attached (the caller
 * read its length through the intrinsics, or refused it detached), without
 * asking again.
 */
export const refuseSized = (x, size, fn, original = x) => (belowOwned(x, size) ? ELSEWHERE : refuseOwned(x, size, fn, original));

/** refuseSized() of a view that may be an owner's (apart, so that V8 inlines the common case: a small field's every call asks). */
function refuseOwned(x, size, fn, original) {
  const judge = OWNERS.get(bufferOf(x));
  if (judge === undefined) return ELSEWHERE;
  const start = byteOffsetOf(x);
  return judge(start, start + size, fn, original);
}

/**
 * refuse() of a view a call writes into (`fn`'s target, a Uint8Array;
 * `original`, what the caller passed): an output of fastmp's own is no
 * target (a TypeError). Without belowOwned()'s shortcut: a small view from
 * offset 0 of wasm memory (below every module's slot) is read as memory
 * outside, but never written (STALE), on every path. (Asking a small fresh
 * target for its buffer moves it off the engine's heap, once per target.)
 */
export function refuseTarget(target, fn, original = target) {
  const size = byteLengthOf(target);
  if (size === 0 && isDetached(target)) throw detachedError(target, fn);
  if (refuseOwned(target, size, fn, original) === IN_OUTPUT) throw ownOutputTargetError(fn);
}
