// port-js.js - the pure-JS "port": where the message codec gets its output
// buffer and how it packs and unpacks typed-array fields. The wasm port
// (js/memory.js) implements the same contract with the SIMD kernels writing
// straight into a region of wasm memory; this one needs nothing but JS, so the
// codec works where wasm cannot be compiled.
//
// THE PORT CONTRACT
//
//   port.newOutput(initialBytes) -> store        a new store; the codec keeps a pool of
//                                                them per port (js/codec/encoder.js) and
//                                                lends one to an Encoder for each call
//     store.bytes   Uint8Array of the store; indices are store-relative;
//                   its length is the capacity
//     store.view    DataView over the same bytes
//     store.use     a number the codec counts up each time the store goes back to its
//                   pool (its encodeSharedRef() views expire); 0 in a new store
//     store.start()             called at the start of every encode: as refresh(),
//                               and growth from here on is the call's own (live())
//     store.stop()              called at the end of every encode
//     store.refresh()           re-take bytes/view if they went stale (wasm memory growth)
//     store.live(view, original?, fn?) -> view   a typed array or DataView met in
//                               the value (or encodeInto's target), as the call can
//                               read it (a growth of the call's own may have detached
//                               it: wasm memory); a view detached otherwise is refused
//                               (DETACHED, STALE); `original`: the array view
//                               was made of, whole (asBools()); `fn` names the call;
//                               called before its bytes are taken
//     store.source(data, growing?) -> data   bytes (a typed array) about to be copied
//                               into the store (a bin, an ext's payload): refused when
//                               they lie in a store a call is writing (STALE); a copy
//                               when `growing` (ensure() comes first) could detach them
//     store.ensure(pos, extra)  capacity >= pos + extra afterwards; bytes [0, pos)
//                               are kept; MAY REPLACE store.bytes / store.view
//     store.writeTyped(kind, x, pos) -> end
//                               writes the standard msgpack array of x at pos
//                               (kind: a Kind of js/kinds.js, or kinds.BOOL with x
//                               a Uint8Array read as 0 = false, else true), exactly
//                               as pack(x, { bin: false }) / packBool(x) write it,
//                               ensuring capacity itself; MAY REPLACE bytes / view;
//                               writes nothing outside the store (no shared scratch);
//                               x in a store a call is writing is refused (STALE)
//     store.take(pos) -> Uint8Array   a fresh copy of [0, pos) with its own ArrayBuffer
//     store.copyInto(target, offset, pos)   copies [0, pos) to target[offset]
//     store.release()           frees what the store holds (its pool is full); it is
//                               not used again
//   The encoder re-reads store.bytes / store.view after every store call.
//
//   port.unpackInJsBelow      an array by kind index (js/kinds.js, BOOL last): a
//                             shaped typed-array field of n elements of a kind with
//                             n < unpackInJsBelow[kind.index] is decoded by the decoder
//                             itself, with wire.js decodeKind() (as unpack() decodes
//                             it below its crossover); a longer one by the reader
//   port.typedReader(input) -> reader    one per decode call that meets a shaped
//                                        typed-array field at or above that limit
//                                        (input: the Uint8Array being decoded); a
//                                        port whose limits are all Infinity has none
//     reader.read(kind, offset, integralFloats) -> value
//                               the standard msgpack array at input[offset] as a new
//                               typed array of kind (kinds.BOOL: a Uint8Array of 0 / 1),
//                               range-checked as unpack() does. Errors are FastmpErrors
//                               with the element index and the absolute byte offset.
//     reader.end                after read(): the absolute offset after that array
//                               (a field, not a { value, end } object per call)

import { MAX_ELEMENTS, packBound } from '../abi.js';
import { usableLength, usableView, viewBuffer, viewByteLength, viewByteOffset } from '../args.js';
import { writtenOutputError } from '../errors.js';
import { BOOL, KINDS } from '../kinds.js';
import { packKindInto } from '../wire.js';

/** An output store over a JS ArrayBuffer that doubles when it grows. */
class JsStore {
  constructor(initialBytes) {
    this.bytes = new Uint8Array(initialBytes);
    this.view = new DataView(this.bytes.buffer);
    this.use = 0;
  }

  start() {}

  stop() {}

  refresh() {}

  release() {}

  live(view, original, fn = 'encode') {
    return usableView(view, fn);
  }

  source(data) {
    this.refuseOwn(data);
    return data;
  }

  /**
   * Refuses a view of this store while a call writes it (only an
   * encodeSharedRef() output kept past its lifetime can be one: STALE). A
   * view from offset 0 of up to 64 bytes is not asked for its buffer (the
   * engine may keep such an array on its heap, and asking moves it off).
   */
  refuseOwn(view) {
    if ((viewByteOffset(view) !== 0 || viewByteLength(view) > 64) && viewBuffer(view) === this.bytes.buffer) throw writtenOutputError('encode');
  }

  ensure(pos, extra) {
    const need = pos + extra;
    if (need <= this.bytes.length) return;
    const bytes = new Uint8Array(Math.max(need, 2 * this.bytes.length));
    bytes.set(this.bytes.subarray(0, pos));
    this.bytes = bytes;
    this.view = new DataView(bytes.buffer);
  }

  writeTyped(kind, x, pos) {
    const n = usableLength(x, 'encode');
    if (n > MAX_ELEMENTS) throw new RangeError(`fastmp: a msgpack array holds at most 2^32-1 elements, not ${n}`);
    this.refuseOwn(x);
    this.ensure(pos, packBound(n, kind.wire));
    return packKindInto(kind, x, n, this.bytes, pos);
  }

  take(pos) {
    return this.bytes.slice(0, pos);
  }

  copyInto(target, offset, pos) {
    target.set(this.bytes.subarray(0, pos), offset);
  }
}

/** The pure-JS port. */
export const jsPort = Object.freeze({
  newOutput: (initialBytes) => new JsStore(initialBytes),
  unpackInJsBelow: Object.freeze([...KINDS, BOOL].map(() => Infinity)), // every field: no typedReader
});
