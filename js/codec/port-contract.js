// port-contract.js - the codec's port: what the message codec (and the
// typed-array I/O, js/io.js) ask of the instance they run on. Two kinds:
// an instance's core (js/core.js), whose kernels write and read long
// typed-array fields in its wasm memory once they are loaded, and the
// pure-JS port (port-js.js). An Encoder borrows its output store from the
// port's pool for each call (stores.js); a Decoder's long shaped fields are
// read by a Reader (js/io.js FieldReader). test/port-contract.test.js checks
// every port, store and reader against PORT_MEMBERS. (The calls that need
// the kernels by nature, packView(), packInto(), alloc(), run on a core
// only: js/io.js kernelsOf().)

/**
 * @typedef {object} Port
 * @property {'simd'|'scalar'|'js'|null} build the kernels' build ('js': none; null: not known until a given module loads)
 * @property {object} limits below these counts the pure-JS path runs (js/io.js limitsOf(), which alone reads them)
 * @property {object|null} heap the instance's wasm memory (js/wasm/heap.js), once a module is loaded
 * @property {(module: string) => boolean} ready whether a module's kernels can run now (loading them where it can)
 * @property {{ js: object|null, wasm: object|null }} pools the Encoders' store pools (stores.js storePool())
 * @property {object|null} window the FieldReaders' input window (a heap region), and windowUses how often one took it
 */

/**
 * An Encoder's output. Indices are store-relative. `bytes` / `view` are
 * live when read; a copy the encoder keeps is read again after every call
 * that MAY REPLACE them (and a kept view that growth detached has length 0,
 * so the encoder's next room check grows, and reads them again).
 * @typedef {object} Store
 * @property {Uint8Array} bytes the store; its length is the capacity
 * @property {DataView} view over the same bytes
 * @property {() => void} start at the start of every encode: growth from
 *   here on is the call's own (live())
 * @property {() => void} stop at the end of every encode
 * @property {(view: ArrayBufferView, original?: ArrayBufferView, fn?: string) => ArrayBufferView} live
 *   a typed array or DataView met in the value (or encodeInto's target), as
 *   the call can read it (a growth of the call's own may have detached it);
 *   one detached otherwise is refused (DETACHED, STALE, FREED)
 * @property {(data: Uint8Array, growing?: boolean) => Uint8Array} source bytes
 *   about to be copied into the store (a bin, an ext's payload): a copy when
 *   `growing` (ensure() comes first) could detach them
 * @property {(pos: number, extra: number) => void} ensure capacity >= pos +
 *   extra afterwards, bytes [0, pos) kept; MAY REPLACE bytes / view
 * @property {(kind: object, x: ArrayBufferView, n: number, need: number) => ArrayBufferView} beforeGrowth
 *   x as it can be read once the store holds `need` bytes (a copy where that growth could detach it)
 * @property {(heap: object) => object|null} regionOf the store's region of `heap`'s memory (the kernels write there in place), or null
 * @property {(kind: object, x: ArrayBufferView, n: number, pos: number) => number} writeTyped
 *   writes the standard msgpack array of x's n elements at pos (x: a live
 *   view; n: its intrinsic length, at most 2^32-1, which the codec read and
 *   checked; kind: a Kind of js/kinds.js, or kinds.BOOL with x a Uint8Array
 *   read as 0 = false, else true), exactly as pack(x, { bin: false }) /
 *   packBool(x) write it (js/io.js packToStore()), and returns its end;
 *   MAY REPLACE bytes / view
 * @property {(pos: number) => Uint8Array} take a fresh copy of [0, pos) with
 *   its own ArrayBuffer
 * @property {(target: Uint8Array, offset: number, pos: number) => void} copyInto
 *   copies [0, pos) to target[offset] (the codec has refused a target that is an output of fastmp's)
 * @property {() => void} release frees what the store holds (its pool is
 *   full, or it has grown past 1 MB and its size is no longer used); it is
 *   not used again
 * @property {number} first its capacity when it was made (at least the
 *   initialBufferSize asked for): its pool keeps a store no larger
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

/** The members of each interface above, as the contract test checks them. */
export const PORT_MEMBERS = Object.freeze({
  Port: ['build', 'limits', 'heap', 'ready', 'pools', 'window', 'windowUses'],
  Store: ['bytes', 'view', 'start', 'stop', 'live', 'source', 'ensure', 'beforeGrowth', 'regionOf', 'writeTyped', 'take', 'copyInto', 'release', 'first'],
  Reader: ['read', 'end'],
});
