// shared-refs.js - the views encodeSharedRef() hands out, and when each
// expires: when its store goes back to its pool (store.use counts that), at
// its encoder's next call or dispose(). Every call that takes bytes asks
// here first, whatever its port: a view that expired is refused (STALE)
// rather than read as what another call has since written there. This knows
// the views themselves only; js/wasm/lifetimes.js refuses, by byte range,
// any view of a store in wasm memory that holds no live output there.

import { expiredRefError, writtenOutputError } from './errors.js';

/** encodeSharedRef() outputs -> { store, use, size }: live while store.use is `use`. */
const REFS = new WeakMap();

/** Records `view`, the first `size` bytes of `store`, as an encodeSharedRef() output; returns it. */
export function shareView(view, store, size) {
  REFS.set(view, { store, use: store.use, size });
  return view;
}

/**
 * The record of x when x is an encodeSharedRef() output still live; undefined
 * for any value that is not one; STALE (named for `fn`) once it expired.
 */
export function liveRef(x, fn) {
  const ref = REFS.get(x);
  if (ref !== undefined && ref.store.use !== ref.use) throw expiredRefError(fn);
  return ref;
}

/**
 * THE ALIASING RULE for the bytes of an output store, on every port (the
 * encoder's header states why): a store is a region { pointer, capacity,
 * writing, shared } of its port's memory. Bytes [start, end) that lie in a
 * store are refused while a call writes that store (STALE: read now, they
 * would be what the call wrote over them); they are read when they lie in
 * its live encodeSharedRef() output (the pool lends no store an output
 * holds); any other bytes of a store are an output that expired (STALE).
 * The caller has found [start, end) within the store; returns normally when
 * they are live output bytes.
 */
export function checkStoreBytes(store, start, end, fn) {
  if (store.writing) throw writtenOutputError(fn);
  if (start < store.pointer || end > store.pointer + store.shared) throw expiredRefError(fn);
}
