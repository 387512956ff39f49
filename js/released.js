// released.js - what fastmp knows of the views of wasm memory it handed out,
// whatever instance made them: the arrays alloc() and refresh() hand out
// (with their record: live until free()), and the wasm memory buffers that a
// growth of memory has detached. A view of either that is used after its
// lifetime is refused with what happened to it (FREED, STALE), not as a
// mere detached buffer; every path that finds a view detached asks here
// (js/args.js usableLength()), so the answer is the same on every path.

import { usageError } from './errors.js';
import { viewBuffer } from './intrinsics.js';

/** alloc() and refresh() views -> their allocation's record ({ live, ... }). */
export const HANDLES = new WeakMap();

/** Wasm memory buffers that growth has detached. */
const PAST_BUFFERS = new WeakSet();

/** Records that growth has detached `buffer`, a wasm memory's. */
export const markDetachedByGrowth = (buffer) => void PAST_BUFFERS.add(buffer);

/**
 * For a view that is detached (or out of bounds): FREED when it is an
 * alloc() array that free() released, STALE when it is a view of wasm memory
 * that memory growth detached; undefined for any other (the caller's
 * DETACHED).
 */
export function releasedError(view, fn) {
  if (HANDLES.get(view)?.live === false) return usageError('FREED', `${fn}() was given an array that free() has released`);
  if (!PAST_BUFFERS.has(viewBuffer(view))) return undefined;
  return usageError('STALE', `${fn}() was given a view of wasm memory that memory growth has detached; refresh(x) gives a live one of an alloc() array (a packView() output is valid until the next call only)`);
}
