// port-contract.js - the codec's port: where the message codec gets its
// output buffer and how it packs and unpacks typed-array fields. Two
// implementations: the pure-JS one (port-js.js), and the wasm one
// (js/wasm/store.js, js/wasm/reader.js), whose kernels write straight into
// a region of wasm memory. A port has two halves, so that an app that only
// encodes bundles no reader, and one that only decodes no store: an Encoder
// takes an EncodingPort, a Decoder a DecodingPort; a CodecPort is both.
// test/port-contract.test.js checks every port against PORT_MEMBERS.

/**
 * @typedef {object} EncodingPort
 * @property {(initialBytes: number) => Store} newOutput a new store; the codec
 *   keeps a pool of them per port (encoder.js) and lends one to an Encoder
 *   for each call
 * @property {boolean} jsMemory whether stores live in JS memory, which the
 *   garbage collector reclaims with them (then any number may be held by
 *   encodeSharedRef() outputs; in wasm memory, which never shrinks, a few)
 * @property {(view: ArrayBufferView, fn: string) => (Error | undefined)} detachedError
 *   for a detached view: the error when it was one of the port's own (an
 *   alloc() array free() released: FREED; another view of wasm memory, which
 *   memory growth detached: STALE); undefined for any other (DETACHED)
 */

/**
 * An Encoder's output. Indices are store-relative. The encoder re-reads
 * `bytes` / `view` after every call that MAY REPLACE them.
 * @typedef {object} Store
 * @property {Uint8Array} bytes the store; its length is the capacity
 * @property {DataView} view over the same bytes
 * @property {number} use counted up by the codec each time the store goes
 *   back to its pool (its encodeSharedRef() views expire); 0 in a new store
 * @property {number} shared set by the codec: bytes [0, shared) are an
 *   encodeSharedRef() output that has not expired; 0 when none is (a new
 *   store's, one given back)
 * @property {() => void} start at the start of every encode: as refresh(),
 *   and growth from here on is the call's own (live())
 * @property {() => void} stop at the end of every encode
 * @property {() => void} refresh re-takes bytes / view if they went stale
 *   (wasm memory growth)
 * @property {(view: ArrayBufferView, original?: ArrayBufferView, fn?: string) => ArrayBufferView} live
 *   a typed array or DataView met in the value (or encodeInto's target), as
 *   the call can read it (a growth of the call's own may have detached it);
 *   one detached otherwise is refused (DETACHED, STALE). `original`: the
 *   array `view` was made of, whole (asBools()); `fn` names the call. Called
 *   before its bytes are taken, except for a typed array that reports
 *   elements (its intrinsic length above 0): such an array is attached and in
 *   bounds, so live() returns it as it is, and the codec skips the call.
 * @property {(data: Uint8Array, growing?: boolean) => Uint8Array} source bytes
 *   about to be copied into the store (a bin, an ext's payload): refused when
 *   they lie in a store a call is writing (STALE); a copy when `growing`
 *   (ensure() comes first) could detach them
 * @property {(pos: number, extra: number) => void} ensure capacity >= pos +
 *   extra afterwards, bytes [0, pos) kept; MAY REPLACE bytes / view
 * @property {(kind: object, x: ArrayBufferView, n: number, pos: number) => number} writeTyped
 *   writes the standard msgpack array of x's n elements at pos (x: a live
 *   view; n: its intrinsic length, at most 2^32-1, which the codec read and
 *   checked: the store reads none of its own; kind: a Kind of
 *   js/kinds.js, or kinds.BOOL with x a Uint8Array read as 0 = false, else
 *   true), exactly as pack(x, { bin: false }) / packBool(x) write it, and
 *   returns its end; ensures capacity itself (MAY REPLACE bytes / view);
 *   writes nothing outside the store (no shared scratch); x in a store a call
 *   is writing is refused (STALE)
 * @property {(pos: number) => Uint8Array} take a fresh copy of [0, pos) with
 *   its own ArrayBuffer
 * @property {(target: Uint8Array, offset: number, pos: number) => void} copyInto
 *   copies [0, pos) to target[offset]; a target in memory of the port's
 *   own that holds an output of fastmp's (packView(), a live
 *   encodeSharedRef()) is refused (TypeError; a stale one STALE). (The
 *   codec refuses an encodeSharedRef() output itself on every port.)
 * @property {() => void} release frees what the store holds (its pool is
 *   full); it is not used again
 */

/**
 * @typedef {object} DecodingPort
 * @property {readonly number[]} unpackInJsBelow by kind index (js/kinds.js,
 *   BOOL last): a shaped typed-array field of n elements with n <
 *   unpackInJsBelow[kind.index] is decoded by the decoder itself, with
 *   wire.js (as unpack() decodes it below its crossover); a longer one by the
 *   reader
 * @property {((input: Uint8Array) => Reader) | undefined} typedReader one per
 *   decode call that meets a shaped field at or above that limit (input: the
 *   bytes being decoded); undefined where every limit is Infinity
 * @property {(bytes: Uint8Array, original: unknown, fn: string) => boolean} checkInput
 *   refuses an input that is a view of the port's memory past its lifetime
 *   (a packView() output a later call overwrote, an array free() released,
 *   the bytes of a store outside its live output: shared-refs.js
 *   checkStoreBytes()); true when the input lies in memory the port may
 *   write during the call (wasm memory, a live output's store), which the
 *   decoder then reads from a copy
 * @property {(view: ArrayBufferView, fn: string) => (Error | undefined)} detachedError
 *   as EncodingPort's
 */

/**
 * @typedef {object} Reader
 * @property {(kind: object, offset: number, body: number, count: number, integralFloats: boolean, into?: ArrayBufferView) => ArrayBufferView} read
 *   the standard msgpack array at input[offset], whose header the caller has
 *   read (its `count` elements begin at input[body], and the input holds at
 *   least `count` bytes from there), as a new typed array of kind
 *   (kinds.BOOL: a Uint8Array of 0 / 1), range-checked as unpack() does, or
 *   written into `into` (a kind.Type of `count` elements; returned);
 *   errors are FastmpErrors with the element index and the absolute byte offset
 * @property {number} end after read(): the absolute offset after that array
 *   (a field, not a { value, end } object per call)
 */

/** @typedef {EncodingPort & DecodingPort} CodecPort */

/** The members of each interface above, as the contract test checks them. */
export const PORT_MEMBERS = Object.freeze({
  EncodingPort: ['newOutput', 'jsMemory', 'detachedError'],
  Store: ['bytes', 'view', 'use', 'shared', 'start', 'stop', 'refresh', 'live', 'source', 'ensure', 'writeTyped', 'take', 'copyInto', 'release'],
  DecodingPort: ['unpackInJsBelow', 'typedReader', 'checkInput', 'detachedError'],
  Reader: ['read', 'end'],
});
