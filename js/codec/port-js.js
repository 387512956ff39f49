// port-js.js - the pure-JS port (the contract: port-contract.js): output
// stores over JS ArrayBuffers, every typed-array field packed and unpacked
// by wire.js. It needs nothing but JS, so the codec works where wasm cannot
// be compiled.

import { packBound } from '../abi.js';
import { usableView, viewBuffer, viewByteLength, viewByteOffset } from '../args.js';
import { ownOutputTargetError } from '../errors.js';
import { checkStoreBytes } from '../shared-refs.js';
import { BOOL, KINDS } from '../kinds.js';
import { packKindInto } from '../wire.js';

// Bytes [0, LOW) of a store's buffer hold no output: a view from offset 0 of
// at most LOW bytes is never one of a store's outputs, and is not asked for
// its buffer (the engine keeps such small arrays on its heap, and asking
// moves one off), as a wasm port takes such a view for one outside its
// memory (js/wasm/lifetimes.js outsideForSure()).
const LOW = 64;

/** Every store's buffer -> its region { pointer, capacity, writing, shared } (shared-refs.js checkStoreBytes()). */
const STORES = new WeakMap();

/**
 * Whether an ArrayBuffer view lies in the live encodeSharedRef() output of a
 * store of this port (then a decode reads it from a copy, and it is no
 * target to write into); false when it lies in no store. Bytes of a store
 * that hold no live output, or that a call is writing, are refused (STALE),
 * by the rule every port keeps (shared-refs.js checkStoreBytes()).
 */
function inLiveOutput(view, fn) {
  const offset = viewByteOffset(view);
  const size = viewByteLength(view);
  if (offset === 0 && size <= LOW) return false;
  const store = STORES.get(viewBuffer(view));
  if (store === undefined || offset + size <= LOW) return false;
  checkStoreBytes(store, Math.max(offset, LOW), offset + size, fn);
  return true;
}

/** An output store over a JS ArrayBuffer that doubles when it grows: a Store of port-contract.js. */
class JsStore {
  constructor(initialBytes) {
    // writing: during a call; shared: the bytes of a live encodeSharedRef() output
    this.region = { pointer: LOW, capacity: 0, writing: false, shared: 0 };
    this.use = 0;
    this.grow(0, initialBytes);
  }

  get shared() {
    return this.region.shared;
  }

  set shared(size) {
    this.region.shared = size;
  }

  start() {
    this.region.writing = true;
  }

  stop() {
    this.region.writing = false;
  }

  refresh() {}

  release() {}

  live(view, original, fn = 'encode') {
    return usableView(view, fn);
  }

  source(data) {
    inLiveOutput(data, 'encode');
    return data;
  }

  ensure(pos, extra) {
    const need = pos + extra;
    if (need > this.bytes.length) this.grow(pos, Math.max(need, 2 * this.bytes.length));
  }

  /** A buffer of `capacity` bytes after LOW, holding the old one's [0, keep). */
  grow(keep, capacity) {
    const bytes = new Uint8Array(new ArrayBuffer(LOW + capacity), LOW, capacity);
    if (keep > 0) bytes.set(this.bytes.subarray(0, keep));
    this.bytes = bytes;
    this.view = new DataView(bytes.buffer, LOW, capacity);
    this.region.capacity = capacity;
    STORES.set(bytes.buffer, this.region);
  }

  writeTyped(kind, x, n, pos) {
    inLiveOutput(x, 'encode');
    this.ensure(pos, packBound(n, kind.wire));
    return packKindInto(kind, x, n, this.bytes, pos);
  }

  take(pos) {
    return this.bytes.slice(0, pos);
  }

  copyInto(target, offset, pos) {
    if (inLiveOutput(target, 'encodeInto')) throw ownOutputTargetError('encodeInto');
    target.set(this.bytes.subarray(0, pos), offset);
  }
}

/** No view is the pure-JS port's own: a detached one is DETACHED, whatever it was. */
const noDetachedError = () => undefined;

/** The pure-JS encoding port. @type {import('./port-contract.js').EncodingPort} */
export const jsEncodingPort = Object.freeze({
  newOutput: (initialBytes) => new JsStore(initialBytes),
  jsMemory: true,
  detachedError: noDetachedError,
});

/**
 * The pure-JS decoding port: the decoder decodes every field itself (no
 * reader), and reads any input in place (a JS array stays where it is).
 * @type {import('./port-contract.js').DecodingPort}
 */
export const jsDecodingPort = Object.freeze({
  unpackInJsBelow: Object.freeze([...KINDS, BOOL].map(() => Infinity)),
  typedReader: undefined,
  detachedError: noDetachedError,
  checkInput: (bytes, original, fn) => inLiveOutput(bytes, fn),
});

/** The pure-JS port, both halves. @type {import('./port-contract.js').CodecPort} */
export const jsPort = Object.freeze({ ...jsEncodingPort, ...jsDecodingPort });
