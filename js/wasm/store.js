// store.js - the codec's encoding port over wasm memory (the contract:
// js/codec/port-contract.js): an Encoder's output lives in a region of wasm memory,
// where the kernels write each typed-array field in place.

import { packBound } from '../abi.js';
import { bufferOf, byteLengthOf, byteOffsetOf, typedArrayName, viewBytes } from '../args.js';
import { packKindInto } from '../wire.js';
import { IN_OUTPUT, MAX_SCRATCH, OUTSIDE, align16, inAllocation } from './core.js';
import { detachedError, locate, locateSized, locateTarget, outsideForSure, readableAfterGrowth, reattached, refuseWritten } from './lifetimes.js';
import { copyOut } from './outputs.js';

/**
 * The encoding port of boundary b: stores in wasm memory. `packInJsBelow`
 * (by kind index: js/port.js jsLimits()) says below how many elements a
 * field is packed by wire.js, which is faster there.
 * @returns {import('../codec/port-contract.js').EncodingPort}
 */
export const wasmEncodingPort = (b, packInJsBelow) => Object.freeze({
  newOutput: (initialBytes) => new WasmStore(b, packInJsBelow, initialBytes),
  jsMemory: false,
  detachedError: (x, fn) => detachedError(b, x, fn),
});

// A store's region is freed when its Encoder is garbage: the registry holds
// the region's current address (the store moves it as it grows).
const regions = typeof FinalizationRegistry === 'function'
  ? new FinalizationRegistry(({ boundary, region }) => {
    boundary.regions.delete(region);
    if (region.pointer) boundary.wasm.free(region.pointer);
  })
  : null;

/** An Encoder's output, in wasm memory: a Store of js/codec/port-contract.js. */
class WasmStore {
  constructor(boundary, packInJsBelow, initialBytes) {
    this.b = boundary;
    this.jsBelow = packInJsBelow; // by kind index: fields of fewer elements are packed by wire.js
    // writing: during a call (lifetimes.js refuseWritten()); shared: the bytes
    // of a live encodeSharedRef() output (lifetimes.js locateView())
    this.region = { pointer: 0, capacity: 0, writing: false, shared: 0 };
    this.use = 0;
    this.grow(0, Math.max(initialBytes, 64));
    boundary.regions.add(this.region);
    regions?.register(this, { boundary, region: this.region }, this);
  }

  get shared() {
    return this.region.shared;
  }

  set shared(size) {
    this.region.shared = size;
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

  /**
   * A view met in the message (or the encodeInto target), as the call reads
   * it: lifetimes.js reattached(); then refused where locate() refuses it (a
   * freed alloc() array: FREED; an expired output: STALE), which its bytes,
   * copied or written, would otherwise hide.
   */
  live(view, original = view, fn = 'encode') {
    const live = reattached(this.b, view, this.since, fn, original);
    locate(this.b, typedArrayName(live) !== undefined ? live : viewBytes(live), fn, original); // (locate() reads typed arrays)
    return live;
  }

  /**
   * Bytes about to be copied in: refused in a store being written, a copy
   * when they are in wasm memory and a growth could detach them. (A view
   * from offset 0 that ends below LOW_MEMORY is never in a store, and its
   * buffer is not asked for: lifetimes.js outsideForSure().)
   */
  source(data, growing) {
    const size = byteLengthOf(data);
    if (outsideForSure(data, size)) return readableAfterGrowth(Uint8Array, data, size, growing);
    if (bufferOf(data) !== this.b.buffer) return data;
    const start = byteOffsetOf(data);
    refuseWritten(this.b, start, start + size, 'encode');
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

  writeTyped(kind, x, n, pos) {
    // The common case of many small fields, kept small so that V8 inlines
    // it: few elements outside wasm memory are packed by wire.js straight
    // into the store.
    if (n < this.jsBelow[kind.index] && outsideForSure(x, n * kind.bytes)) {
      const room = packBound(n, kind.wire);
      const elements = this.beforeGrowth(kind, x, n, pos, room);
      this.ensure(pos, room);
      return packKindInto(kind, elements, n, this.bytes, pos);
    }
    return this.writeTypedFrom(kind, x, n, pos);
  }

  /** x as it can be read once the store has room for pos + extra bytes (lifetimes.js readableAfterGrowth()). */
  beforeGrowth(kind, x, n, pos, extra) {
    return readableAfterGrowth(kind.Type, x, n * kind.bytes, pos + extra > this.region.capacity);
  }

  /** writeTyped() of any x: in wasm memory (read in place or copied out of harm's way), or many elements (by the kernel). */
  writeTypedFrom(kind, x, n, pos) {
    const b = this.b;
    // Where x is, before the store grows (which may grow memory and detach
    // x): an alloc() array is read at its address, which growth keeps; the
    // latest packView() output (or an Encoder's) is copied out of the way.
    let at = locateSized(b, x, n * kind.bytes, 'encode', x);
    let elements = x;
    if (at === IN_OUTPUT) {
      elements = new kind.Type(x);
      at = OUTSIDE;
    }
    const room = packBound(n, kind.wire);
    if (n < this.jsBelow[kind.index]) {
      this.ensure(pos, room);
      return packKindInto(kind, inAllocation(at) ? new kind.Type(b.buffer, at, n) : elements, n, this.bytes, pos);
    }
    if (inAllocation(at)) {
      this.ensure(pos, room);
    } else {
      // Elements from JS memory are copied into the store itself, past the
      // output's room (16-byte aligned): a call writes into its own store
      // only, never into the scratch region that a packView() output in the
      // same message may lie in.
      const extra = room + 16 + n * kind.bytes;
      if (elements === x) elements = this.beforeGrowth(kind, x, n, pos, extra);
      this.ensure(pos, extra);
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
    locateTarget(this.b, target, 'encodeInto');
    this.refresh();
    target.set(this.bytes.subarray(0, pos), offset);
  }
}
