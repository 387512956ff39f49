// stores.js - where an Encoder writes a message (a Store of
// port-contract.js): a JS buffer, or a region of its instance's wasm memory
// once the pack kernels are there, where they write each long typed-array
// field in place (js/io.js packToStore()). An Encoder borrows a store from
// its instance's pool for each call and gives it back when the call ends,
// so that encoders made and dropped per call (as @msgpack/msgpack's encode()
// makes them) reuse a few stores: no store outlives the call that borrowed
// it, and none is ever handed out (encodeSharedRef()'s output is a copy of
// the Encoder's own: js/codec/encoder.js).

import { byteLengthOf, usableView } from '../args.js';
import { PACK, packToStore } from '../io.js';
import * as heapVerbs from '../wasm/heap.js';

/** Idle stores a pool keeps (each as large as the largest message it held lately); others are released. */
const POOLED_STORES = 4;
/**
 * A store of more bytes than this, and than it was made with (an Encoder's
 * initialBufferSize, which is no outlier), given back by a call that used
 * under a quarter of them, is released: one large message does not keep its
 * size (JS memory, or a region of wasm memory that alloc() could use) for the
 * instance's life, while large messages one after another reuse theirs.
 */
const STORE_KEPT = 1 << 20;

/** The idle stores of one kind of one instance. */
class StorePool {
  constructor(core, Store) {
    this.core = core;
    this.Store = Store;
    this.idle = [];
  }

  borrow(initialBytes) {
    return this.idle.pop() ?? new this.Store(this.core, initialBytes);
  }

  /** `store`, back from a call that wrote `used` bytes into it. */
  giveBack(store, used) {
    const size = store.bytes.length;
    if (this.idle.length < POOLED_STORES && (size <= STORE_KEPT || size <= store.first || used >= size >>> 2)) this.idle.push(store);
    else store.release();
  }
}

/**
 * The pool an Encoder of `core` (an instance's: js/core.js; or the pure-JS
 * port's) borrows from now: of wasm stores once its pack kernels are
 * attached (the JS pool then dropped), else of JS stores. (Asking does not
 * load the kernels: a message without long typed arrays needs none.)
 */
export function storePool(core) {
  const pools = core.pools;
  if (core.heap !== null && heapVerbs.has(core.heap, PACK)) {
    if (!pools.wasm) {
      // The JS stores are never borrowed again: let go of them (one may be as
      // large as the largest message before the kernels came; one lent now
      // is given back to the pool let go of, and goes with it).
      pools.js = null;
      pools.wasm = new StorePool(core, WasmStore);
    }
    return pools.wasm;
  }
  return (pools.js ??= new StorePool(core, JsStore));
}

/** A store over a JS ArrayBuffer that doubles when it grows. */
class JsStore {
  constructor(core, initialBytes) {
    this.core = core;
    this.bytes = new Uint8Array(Math.max(initialBytes, 64));
    this.view = new DataView(this.bytes.buffer);
    this.first = this.bytes.length; // (the size it was made with: StorePool.giveBack())
  }

  start() {}

  stop() {}

  live(view, original, fn = 'encode') {
    return usableView(view, fn);
  }

  source(data) {
    return data;
  }

  ensure(pos, extra) {
    const need = pos + extra;
    if (need <= this.bytes.length) return;
    const bytes = new Uint8Array(Math.max(need, 2 * this.bytes.length));
    bytes.set(this.bytes.subarray(0, pos));
    this.bytes = bytes;
    this.view = new DataView(bytes.buffer);
  }

  /** x as it can be read once the store has grown: a JS store's growth detaches nothing. */
  beforeGrowth(kind, x) {
    return x;
  }

  /** The store's region in `heap`'s memory: none. */
  regionOf() {
    return null;
  }

  writeTyped(kind, x, n, pos) {
    return packToStore(this.core, kind, x, n, this, pos, 'encode');
  }

  take(pos) {
    return this.bytes.slice(0, pos);
  }

  copyInto(target, offset, pos) {
    target.set(this.bytes.subarray(0, pos), offset);
  }

  release() {}
}

/** A store in a region of the instance's wasm memory (its heap's: js/wasm/heap.js). */
class WasmStore {
  constructor(core, initialBytes) {
    this.core = core;
    this.heap = core.heap;
    // A store is made by the call that borrows it first: the growth its region makes is that call's own (start()).
    this.made = heapVerbs.epochOf(this.heap);
    this.region = heapVerbs.region(this.heap, Math.max(initialBytes, 64));
    this.first = this.region.bytes.length; // (the size it was made with: StorePool.giveBack())
    this.since = 0;
  }

  // The region's views: live whenever read (the heap takes them again after
  // any growth of memory or move of the region, whoever caused it).
  get bytes() {
    return this.region.bytes;
  }

  get view() {
    return this.region.view;
  }

  /** At the start of every encode: the memory epoch from which growth is the call's own (live()). */
  start() {
    this.since = this.made ?? heapVerbs.epochOf(this.heap);
    this.made = null;
  }

  stop() {}

  /**
   * A view met in the message (or the encodeInto target), as the call reads
   * it: found again when the call's own growth of memory detached it (an
   * alloc() array, the latest packView() output); refused when it was
   * detached otherwise.
   */
  live(view, original, fn = 'encode') {
    return usableView(heapVerbs.reattach(this.heap, view, this.since, fn, original), fn);
  }

  /** Bytes about to be copied in: when `growing` (the store grows first), as the heap makes them readable after growth. */
  source(data, growing) {
    return growing ? heapVerbs.readableAfterGrowth(this.heap, Uint8Array, data, byteLengthOf(data), 'encode') : data;
  }

  /** Whether the region holds fewer than `need` bytes (its live view spans all it holds). */
  #short(need) {
    return need > this.region.bytes.length;
  }

  ensure(pos, extra) {
    const need = pos + extra;
    if (this.#short(need)) heapVerbs.ensure(this.heap, this.region, Math.max(need, 2 * this.region.bytes.length), pos);
  }

  /** x as it can be read once the store holds `need` bytes: as the heap makes it readable after growth, where the store grows. */
  beforeGrowth(kind, x, n, need) {
    return this.#short(need) ? heapVerbs.readableAfterGrowth(this.heap, kind.Type, x, n * kind.bytes, 'encode') : x;
  }

  /** The store's region in `heap`'s memory (where the kernels write in place). */
  regionOf(heap) {
    return heap === this.heap ? this.region : null;
  }

  writeTyped(kind, x, n, pos) {
    return packToStore(this.core, kind, x, n, this, pos, 'encode');
  }

  take(pos) {
    return heapVerbs.take(this.heap, this.region, 0, pos);
  }

  copyInto(target, offset, pos) {
    target.set(this.bytes.subarray(0, pos), offset);
  }

  release() {
    heapVerbs.release(this.heap, this.region);
  }
}
