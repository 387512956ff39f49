// io.js - THE TYPED-ARRAY I/O. Every pack and unpack of a typed array, for
// every caller (the bare API js/typed.js, the message codec's stores and
// reader, the pure-JS port), goes through here, and this is the one file that
// compares a length with the crossover table (js/crossovers.js): below an
// instance's limit the pure-JS codec (js/wire.js) runs, from it on a kernel,
// through the instance's heap (js/wasm/heap.js), which places every input it
// reads; a long input outside wasm memory a chunk at a time. The ASN.1
// strings ask here too (kernelTakes()).
//
// `core` is an instance's state (js/core.js; or the pure-JS port, js/codec/port-js.js): `limits` (limitsOf()),
// `heap`, and ready(module), which says whether a module's kernels can run
// now (loading them, synchronously where it can, on first need).

import { ELEMENTS_ONLY, INTEGRAL_FLOATS, MAX_ELEMENTS, MAX_NUMBER_BYTES, packBound } from './abi.js';
import { STRING_OPS, packBelow, stringsBelow, unpackBelow } from './crossovers.js';
import { copyInto, lengthOf } from './intrinsics.js';
import { FastmpError } from './errors.js';
import { BOOL, KINDS } from './kinds.js';
import { refuseSized } from './lifetimes.js';
import { kernelError } from './wasm/errors.js';
import { freshOutput } from './wasm/outputs.js';
import { arrayHeaderSize, decodeKind, packKind, packKindInto } from './wire.js';
import * as heapVerbs from './wasm/heap.js';

/** The wasm modules of the kernels (c/fastmp.h, js/surface.js). */
export const PACK = 'pack';
export const UNPACK = 'unpack';
export const STRINGS = 'strings';


// ---- the crossovers ------------------------------------------------------------------

const ALL = MAX_ELEMENTS + 1; // 'always': every count a msgpack array can hold

/**
 * An instance's limits: the pure-JS path takes n elements of kind (chars of
 * a string op) when n < limits[op][kind.index] (limits.strings[op]). 'js'
 * runs no kernel; pureJs 'always' none either, 'never' every one. Each op's
 * are read from its table on its first call (opLimits()): a page bundles
 * only the tables of the ops it calls.
 */
export const limitsOf = (backend, pureJs) => ({ backend, pureJs, pack: null, unpack: null, strings: null });

/** limits[op], made from below(backend) (a table of js/crossovers.js) on first use, with `keys` its entries in order. */
function opLimits(limits, op, below, keys, all) {
  const { backend, pureJs } = limits;
  const js = backend === 'js' || pureJs === 'always';
  const table = js || pureJs === 'never' ? null : below(backend);
  return limits[op] = keys((key) => (js ? all : table === null ? 0 : table[key]));
}
const forEachKind = (of) => [...KINDS, BOOL].map((k) => of(k.c));
const forEachStringOp = (of) => Object.fromEntries(STRING_OPS.map((op) => [op, of(op)]));
const packLimits = (limits) => limits.pack ?? opLimits(limits, 'pack', packBelow, forEachKind, ALL);
const unpackLimits = (limits) => limits.unpack ?? opLimits(limits, 'unpack', unpackBelow, forEachKind, ALL);
const stringLimits = (limits) => limits.strings ?? opLimits(limits, 'strings', stringsBelow, forEachStringOp, Infinity);

/** Whether `n` elements of kind are packed by the kernel: from the crossover on, with the pack kernels ready. */
const kernelPacks = (core, kind, n) => n >= packLimits(core.limits)[kind.index] && core.ready(PACK);

/** Whether `count` elements of kind are unpacked by the kernel. */
export const kernelUnpacks = (core, kind, count) => count >= unpackLimits(core.limits)[kind.index] && core.ready(UNPACK);

/**
 * The decoder's small fields: whether every fixarray-sized field of kind
 * (at most 15 elements) is decoded in JS; the decoder then reads them itself.
 */
export const smallInJs = (core, kind) => unpackLimits(core.limits)[kind.index] > 15;

/** Whether a string op (js/strings.js) runs its kernel for n chars: from the crossover on, with the string kernels ready. */
export const kernelTakes = (core, op, n) => n >= stringLimits(core.limits)[op] && core.ready(STRINGS);

// ---- pack -------------------------------------------------------------------------------

/**
 * core's heap, once `module` is ready; else a FastmpError that says why
 * (`fn` needs the kernels by nature).
 */
function kernelsOf(core, module, fn) {
  if (core.ready(module)) return core.heap;
  if (core.build === 'js') throw new FastmpError('NO_WASM', `fastmp: ${fn}() needs wasm, which this instance does not run (backend 'js': asked for, or a Content Security Policy refuses to compile wasm)`, -1, -1);
  const why = core.failed[module] === null ? 'still loading' : `not loaded (${core.failed[module].message})`;
  throw new FastmpError('NOT_READY', `fastmp: ${fn}() needs the wasm kernels, ${why}: \`await init()\` first (every call with a pure-JS path works before)`, -1, -1);
}

/**
 * Where in scratch the output of n elements starts: its elements, after the
 * array header, then start at a 16-byte boundary (the SIMD packers' vector
 * stores never straddle a cache line).
 */
const outputAt = (n) => -arrayHeaderSize(n) & 15;

/** Packs n elements of kind from x into scratch: { at, size } of the output there. */
function packInScratch(heap, kind, x, n, fn) {
  const at = outputAt(n);
  const scratch = heapVerbs.scratchOf(heap);
  const source = heapVerbs.place(heap, kind.Type, x, 0, n, fn, x, scratch, at + packBound(n, kind.wire));
  return { at, size: heapVerbs.pack(heap, kind, source, scratch, at) };
}

/** pack() in JS, of x (attached: its n elements read through the intrinsics) refused past its lifetime first (on the kernel's path, the heap's placing refuses it). */
function packInJs(kind, x, n, fn) {
  refuseSized(x, n * kind.bytes, fn);
  return packKind(kind, x, n);
}

/** x's n elements of kind as a standard msgpack array in a fresh Uint8Array. */
export function pack(core, kind, x, n, fn) {
  if (!kernelPacks(core, kind, n)) return packInJs(kind, x, n, fn);
  return heapVerbs.packOut(core.heap, kind, x, n, fn, outputAt(n), packBound(n, kind.wire));
}

/**
 * pack() as a view of wasm memory, valid until the next call (the kernel
 * packs at every size: no copy out). An instance without wasm (backend 'js')
 * gives a fresh array, valid as long as the caller likes.
 */
export function packView(core, kind, x, n, fn) {
  if (core.build === 'js') return packInJs(kind, x, n, fn);
  const heap = kernelsOf(core, PACK, fn);
  const { at, size } = packInScratch(heap, kind, x, n, fn);
  return heapVerbs.view(heap, at, size);
}

/** Bytes already packed (a bin) as packView() gives them: copied into scratch (without wasm, the bytes themselves). */
export function packedView(core, bytes, fn) {
  return core.build === 'js' ? bytes : heapVerbs.viewOf(kernelsOf(core, PACK, fn), bytes);
}

/**
 * A `kind` array of n elements in wasm memory, for the caller to fill and
 * pack without a copy in: the scratch its packing needs is reserved first,
 * so that packing it never grows memory.
 */
export function alloc(core, kind, n) {
  return heapVerbs.alloc(kernelsOf(core, PACK, 'alloc'), kind, n, outputAt(n) + packBound(n, kind.wire));
}

// packInto()'s pure-JS output, reused (the path runs below the crossovers, a
// few KB at most; a larger output, with pureJs 'always', is a fresh array).
let jsScratch = new Uint8Array(1024);
const JS_SCRATCH_MAX = 1 << 16;

/**
 * pack() into target[offset...], which has `room` bytes left (target: a
 * Uint8Array checked as a target: not a live output of fastmp's); returns
 * the size written, or a RangeError (thrown) when it does not fit, with the
 * target unchanged: both paths pack where the caller cannot see first (to
 * learn the size, and because x may share the target's memory).
 */
export function packInto(core, kind, x, n, target, offset, room, fn) {
  if (!kernelPacks(core, kind, n)) {
    const largest = arrayHeaderSize(n) + n * kind.wire;
    let bytes;
    if (largest > JS_SCRATCH_MAX) {
      bytes = packKind(kind, x, n);
    } else {
      if (largest > jsScratch.length) jsScratch = new Uint8Array(JS_SCRATCH_MAX);
      bytes = jsScratch.subarray(0, packKindInto(kind, x, n, jsScratch, 0));
    }
    if (bytes.length > room) throw noRoom(bytes.length, offset, room);
    copyInto(target, bytes, offset);
    return bytes.length;
  }
  const heap = core.heap;
  const { at, size } = packInScratch(heap, kind, x, n, fn);
  if (size > room) throw noRoom(size, offset, room);
  heapVerbs.copyTo(heap, target, offset, heapVerbs.scratchOf(heap), at, size);
  return size;
}

export const noRoom = (size, offset, room) => new RangeError(`fastmp: packInto() needs ${size} bytes from offset ${offset}; the target has ${room}`);

/**
 * A message's typed-array field: x's n elements of kind written at
 * store.bytes[pos] (store: a Store of js/codec/port-contract.js); returns
 * the end. In JS, or by the kernel: into the store itself when it is a
 * region of the heap's (js/codec/stores.js WasmStore), else into scratch
 * and copied over. The store's own ensure() makes the room.
 */
export function packToStore(core, kind, x, n, store, pos, fn) {
  const room = packBound(n, kind.wire);
  if (!kernelPacks(core, kind, n)) {
    const elements = store.beforeGrowth(kind, x, n, pos + room);
    store.ensure(pos, room);
    return packKindInto(kind, elements, n, store.bytes, pos);
  }
  const heap = core.heap;
  const region = store.regionOf(heap);
  if (region !== null) {
    const source = heapVerbs.place(heap, kind.Type, x, 0, n, fn, x, region, pos + room, pos);
    return pos + heapVerbs.pack(heap, kind, source, region, pos);
  }
  const { at, size } = packInScratch(heap, kind, x, n, fn);
  store.ensure(pos, size);
  store.bytes.set(heapVerbs.take(heap, heapVerbs.scratchOf(heap), at, size), pos);
  return pos + size;
}

// ---- unpack -----------------------------------------------------------------------------

/**
 * Where unpack() of an input from outside wasm memory goes a chunk at a
 * time (unpackChunked()): inputs of `from` bytes and more, `bytes` at a time.
 * Chunks of 64 KB (the input's, and up to 8x that of output) stay in L2;
 * below 256 KB the whole input does. (Tests lower both, to cut elements at
 * every place; `bytes` must exceed the longest element, 9 bytes.)
 */
export const UNPACK_CHUNK = { bytes: 1 << 16, from: 1 << 18 };

/** The bytes `count` elements of kind can span (none is longer than 9 bytes, a boolean 1), at most what is left. */
const spanOf = (kind, count, left) => Math.min(left, count * (kind === BOOL ? 1 : MAX_NUMBER_BYTES));

/**
 * The msgpack array of `count` elements at input[start] (its elements from
 * input[body]; the input holds `length` bytes) as a typed array of kind (a
 * Uint8Array of 0 / 1 for BOOL), new or written into `into`; where it ends
 * is set as cursor.pos. In JS below the crossover, else by the kernel: only
 * the bytes the elements can span are copied in (unpackFrom at the start
 * of a large buffer copies the array, not the buffer), a long input from
 * outside wasm memory a chunk at a time. Errors are FastmpErrors with the
 * element index and the byte offset in the input. (`fn`, `original`: the
 * call and what its caller passed, for refusals.)
 */
export function unpack(core, kind, input, length, start, body, count, integralFloats, cursor, fn, original, into = undefined) {
  if (!kernelUnpacks(core, kind, count)) return decodeKind(kind, input, length, body, count, integralFloats, cursor, undefined, into);
  const heap = core.heap;
  const len = spanOf(kind, count, length - body);
  const flags = (integralFloats ? INTEGRAL_FLOATS : 0) | ELEMENTS_ONLY;
  if (len >= UNPACK_CHUNK.from && !heapVerbs.holds(heap, input, length, fn, original)) {
    return unpackChunked(heap, kind, input, start, body, count, body + len, flags, cursor, fn, original, into);
  }
  const scratch = heapVerbs.scratchOf(heap);
  const source = heapVerbs.place(heap, Uint8Array, input, body, len, fn, original, scratch, count * kind.bytes);
  if (!heapVerbs.unpack(heap, kind, source, 0, len, count, flags, scratch, 0)) {
    // The error quotes the input; one a growth has detached since, from where it was placed.
    throw kernelError(kind, body, heapVerbs.failure(heap), lengthOf(input) === length ? input : heapVerbs.quote(heap, source, body, len));
  }
  cursor.pos = body + heapVerbs.end(heap);
  return heapVerbs.takeTyped(heap, kind.Type, scratch, 0, count, into);
}

/**
 * unpack() of a long array from outside wasm memory, UNPACK_CHUNK.bytes of
 * its input at a time: each chunk copied in, decoded and copied out while it
 * is in the CPU's cache, where the whole input copied in, decoded and copied
 * out crosses main memory three times; and scratch holds a chunk, not the
 * input and its output (1 M floats: 512 KB, not 16 MB, which wasm memory
 * would keep). bench/unpack-stages.js times each stage. The kernel decodes a
 * chunk's elements with no header (FM_ELEMENTS_ONLY); a chunk ends anywhere,
 * and the element it cuts (TRUNCATED there) begins the next one. The input
 * ends at inputEnd: TRUNCATED in the last chunk is the input's own error.
 */
function unpackChunked(heap, kind, input, start, body, count, inputEnd, flags, cursor, fn, original, into) {
  const value = into ?? freshOutput(kind, count); // first: a refused output leaves scratch as it was
  const chunk = UNPACK_CHUNK.bytes;
  const outBytes = Math.min(count, chunk) * kind.bytes; // every element takes at least a byte
  const scratch = heapVerbs.scratchOf(heap);
  let pos = body;
  for (let i = 0; i < count;) {
    const avail = Math.min(chunk, inputEnd - pos);
    // (At least one element asked for: an input that has ended is then TRUNCATED.)
    const asked = Math.min(count - i, Math.max(avail, 1));
    const source = heapVerbs.place(heap, Uint8Array, input, pos, avail, fn, original, scratch, outBytes);
    let done = asked;
    let used;
    if (heapVerbs.unpack(heap, kind, source, 0, avail, asked, flags, scratch, 0)) {
      used = heapVerbs.end(heap);
    } else {
      const r = heapVerbs.failure(heap);
      if (r.code !== 'TRUNCATED' || pos + avail === inputEnd) {
        throw kernelError(kind, start, { ...r, count, index: i + r.index, offset: pos - start + r.offset }, input);
      }
      done = r.index; // >= 1: a chunk holds more than the longest element
      used = r.offset;
    }
    heapVerbs.takeTyped(heap, kind.Type, scratch, 0, done, value.subarray(i, i + done));
    i += done;
    pos += used;
  }
  cursor.pos = pos;
  return value;
}

// ---- the message decoder's fields ----------------------------------------------------------

// The most of a message a shaped decode copies into its input window at once
// (fields longer than UNPACK_CHUNK.from go a chunk at a time instead): 1 MB.
const WINDOW_MOST = 1 << 20;

/**
 * The shaped typed-array fields of one decode's input (a Reader of
 * js/codec/port-contract.js), each in JS below the crossover or by the
 * kernel. The kernels read the input from a window of it copied into wasm
 * memory, which the fields share: the first window takes what its field can
 * span, each later one twice the one before (up to WINDOW_MOST), so the
 * bytes copied stay within a few times the message's own, however much
 * input follows it (decodeMulti(), a stream's chunk). The window's region
 * is the instance's (core.window); a decode made meanwhile (by an extension
 * of the one in progress) takes it over, and this one copies again
 * (core.windowUses counts the takings).
 */
export class FieldReader {
  constructor(core, input, fn) {
    this.core = core;
    this.input = input; // the decoder's (in JS memory: the decoder reads wasm memory from a copy)
    this.fn = fn;
    this.from = -1; // input[from, to) is in the window
    this.to = -1;
    this.source = null;
    this.uses = 0; // core.windowUses when the window was copied
    this.size = 0; // the last window's size
    this.cursor = { pos: 0 };
    this.end = 0; // where the array read() last decoded ends
  }

  /**
   * The array of `count` elements at input[offset], whose header the caller
   * read (its elements from input[body]; the input holds them), as a typed
   * array of kind, new or `into`, range-checked as unpack() checks it;
   * `end` is then where it ends.
   */
  read(kind, offset, body, count, integralFloats, into) {
    const { core, input, cursor } = this;
    const length = input.length;
    if (!kernelUnpacks(core, kind, count)) {
      const value = decodeKind(kind, input, length, body, count, integralFloats, cursor, undefined, into);
      this.end = cursor.pos;
      return value;
    }
    const heap = core.heap;
    const len = spanOf(kind, count, length - body);
    const flags = (integralFloats ? INTEGRAL_FLOATS : 0) | ELEMENTS_ONLY;
    if (len >= UNPACK_CHUNK.from) {
      const value = unpackChunked(heap, kind, input, offset, body, count, body + len, flags, cursor, this.fn, input, into);
      this.end = cursor.pos;
      return value;
    }
    if (this.from < 0 || body < this.from || body + len > this.to || this.uses !== core.windowUses) this.copyFrom(heap, body, len);
    heapVerbs.ensure(heap, heapVerbs.scratchOf(heap), count * kind.bytes, 0);
    if (!heapVerbs.unpack(heap, kind, this.source, body - this.from, len, count, flags, heapVerbs.scratchOf(heap), 0)) {
      throw kernelError(kind, body, heapVerbs.failure(heap), input);
    }
    this.end = body + heapVerbs.end(heap);
    return heapVerbs.takeTyped(heap, kind.Type, heapVerbs.scratchOf(heap), 0, count, into);
  }

  /**
   * The input from `offset` into the window: `len` bytes or twice the last
   * window, whichever is longer, up to the input's end; only `len` when
   * another decode took the window over since (a nested decode between two
   * fields would otherwise have each field copy up to WINDOW_MOST).
   */
  copyFrom(heap, offset, len) {
    const core = this.core;
    this.size = this.uses === core.windowUses ? Math.max(len, Math.min(WINDOW_MOST, 2 * this.size)) : len;
    const end = Math.min(this.input.length, offset + this.size);
    core.window ??= heapVerbs.region(heap, 0);
    core.windowUses++;
    this.source = heapVerbs.place(heap, Uint8Array, this.input, offset, end - offset, this.fn, this.input, core.window, 0);
    this.uses = core.windowUses;
    this.from = offset;
    this.to = end;
  }
}
