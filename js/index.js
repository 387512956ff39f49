// index.js - the public API. Browsers: `await init()` once before the first
// call. Node: import 'fastmp-wasm' (js/node.js), which is ready on import.

import { asBytes, asOffset, asOptions, describe } from './args.js';
import { FastmpError, NO_INDEX, decodeError } from './errors.js';
import { instantiate, instantiateSync, simdSupported } from './loader.js';
import { Boundary, align16, copyOut } from './memory.js';
import { stringsApi } from './strings.js';
import * as wire from './wire.js';

/**
 * The typed arrays fastmp packs and unpacks: the C kernels' type name, the
 * element size and the largest msgpack form of an element. Order matters for
 * instanceof lookups: a Buffer is an instance of Uint8Array.
 */
const KINDS = [
  { Type: Float32Array, c: 'f32', bytes: 4, wire: 5, float: true },
  { Type: Float64Array, c: 'f64', bytes: 8, wire: 9, float: true },
  { Type: Int8Array, c: 'i8', bytes: 1, wire: 2 },
  { Type: Uint8Array, c: 'u8', bytes: 1, wire: 2 },
  { Type: Uint8ClampedArray, c: 'u8', bytes: 1, wire: 2 },
  { Type: Int16Array, c: 'i16', bytes: 2, wire: 3 },
  { Type: Uint16Array, c: 'u16', bytes: 2, wire: 3 },
  { Type: Int32Array, c: 'i32', bytes: 4, wire: 5 },
  { Type: Uint32Array, c: 'u32', bytes: 4, wire: 5 },
  { Type: BigInt64Array, c: 'i64', bytes: 8, wire: 9 },
  { Type: BigUint64Array, c: 'u64', bytes: 8, wire: 9 },
];
const BOOL = { Type: Uint8Array, c: 'bool', bytes: 1, wire: 1 };
for (const kind of [...KINDS, BOOL]) {
  kind.pack = `fm_pack_${kind.c}`;
  kind.unpack = `fm_unpack_${kind.c}`;
}
const TYPE_NAMES = KINDS.map((k) => k.Type.name).join(', ');

// Kinds by constructor and by prototype: one Map lookup per call, where
// KINDS.find() with instanceof (megamorphic there) cost ~100 ns at the
// 8th type, as much as packing a short array.
const KIND_OF_TYPE = new Map(KINDS.map((k) => [k.Type, k]));
const KIND_OF_PROTO = new Map(KINDS.map((k) => [k.Type.prototype, k]));

/** The kind of a typed array x (a subclass such as Buffer too), or undefined. */
function kindOf(x) {
  if (x === null || typeof x !== 'object') return undefined;
  return KIND_OF_PROTO.get(Object.getPrototypeOf(x)) ?? KINDS.find((k) => x instanceof k.Type);
}

/**
 * Below these element counts the pure-JS path is faster than a wasm call: the
 * call and the copy in cost more than the loop saves. Each is the first size
 * from which wasm stayed ahead in `node --expose-gc bench/crossover.js`
 * (Node 20, x86-64, random content; README "Performance"). Near a crossover
 * both paths are within noise of each other; 1 means wasm wins from one element.
 */
const JS_BELOW = {
  simd: {
    pack: { f32: 48, f64: 64, i8: 64, u8: 16, i16: 16, u16: 24, i32: 8, u32: 8, i64: 1, u64: 1, bool: 128 },
    unpack: { f32: 48, f64: 8, i8: 4, u8: 1, i16: 1, u16: 4, i32: 1, u32: 1, i64: 1, u64: 1, bool: 128 },
  },
  scalar: {
    pack: { f32: 64, f64: 96, i8: 96, u8: 16, i16: 16, u16: 48, i32: 4, u32: 4, i64: 1, u64: 1, bool: 512 },
    unpack: { f32: 256, f64: 8, i8: 4, u8: 1, i16: 1, u16: 1, i32: 1, u32: 1, i64: 1, u64: 1, bool: 512 },
  },
};

let state = null;

function ready() {
  if (state === null) throw new Error('fastmp: not initialised: `await init()` first (Node: import "fastmp-wasm" does it)');
  return state;
}

/**
 * Loads a wasm build. Options:
 * - backend: 'auto' (default: SIMD where the engine has it) | 'simd' | 'scalar'
 * - wasm: a WebAssembly.Module, its bytes, or a Response (instead of the sibling .wasm file)
 * - pureJs: 'auto' (default: small inputs in JS) | 'never' (always wasm) | 'always' (never wasm)
 * Resolves to the backend in use. Calling it again replaces the instance.
 */
export async function init(options = {}) {
  const { args, use } = prepare(options);
  return use(await instantiate(args));
}

/**
 * init() done synchronously, for Node (which reads the sibling file), Web
 * Workers, or a precompiled module: options.wasm is a WebAssembly.Module or
 * its bytes (no Response). Returns the backend in use.
 */
export function initSync(options = {}) {
  const { args, use } = prepare(options);
  return use(instantiateSync(args));
}

/** What init() and initSync() share: the checked options, and what to do with the instance. */
function prepare(options) {
  const { backend = 'auto', wasm, pureJs = 'auto' } = options;
  if (!['auto', 'never', 'always'].includes(pureJs)) {
    throw new TypeError(`fastmp: pureJs must be 'auto', 'never' or 'always', not ${String(pureJs)}`);
  }
  let boundary = null;
  const args = { backend, wasm, onMemoryGrowth: () => boundary?.refreshViews() };
  const use = (loaded) => {
    boundary = new Boundary(loaded.exports);
    state = { boundary, backend: loaded.backend, pureJs };
    return loaded.backend;
  };
  return { args, use };
}

/** 'simd' or 'scalar': the build that runs the kernels. */
export function backend() {
  return ready().backend;
}

/**
 * Memory the wasm instance holds: `wasmMemory`, the size of its linear memory,
 * and `scratch`, the reused region that inputs and outputs pass through. Both
 * only grow, and only until the largest input so far fits.
 */
export function memoryStats() {
  const b = ready().boundary;
  return { wasmMemory: b.memory.buffer.byteLength, scratch: b.capacity };
}

export { simdSupported, FastmpError };

/** BMPString, IA5String and VisibleString: content and DER (js/strings.js), bound to this instance. */
export const {
  encodeBMP, decodeBMP, decodeBMPToUint16, writeBMPString, readBMPString,
  encodeIA5, decodeIA5, decodeIA5ToUint16, writeIA5String, readIA5String,
  encodeVisible, decodeVisible, decodeVisibleToUint16, writeVisibleString, readVisibleString,
} = stringsApi(ready);

function useJs(s, op, kind, n) {
  return s.pureJs === 'always' || (s.pureJs === 'auto' && n < JS_BELOW[s.backend][op][kind.c]);
}

// ---- pack ---------------------------------------------------------------------

/**
 * Packs a typed array as a standard msgpack array: floats as floats of the
 * array's own width (bit for bit), integers each in its smallest form.
 * Uint8Array and Uint8ClampedArray become msgpack `bin`, or with
 * { bin: false } an array of ints. Returns a new Uint8Array.
 */
export function pack(x, options = {}) {
  const s = ready();
  const kind = kindOf(x);
  if (kind === undefined) throw new TypeError(`fastmp: pack() takes a ${TYPE_NAMES}, not ${describe(x)}`);
  const { bin = true } = asOptions(options, 'pack', ['bin']);
  const record = s.boundary.checkInput(x, 'pack');
  if (kind.c === 'u8' && bin) return wire.packBin(x);
  if (x.length > wire.MAX_ELEMENTS) throw new RangeError(`fastmp: a msgpack array holds at most 2^32-1 elements, not ${x.length}`);
  if (useJs(s, 'pack', kind, x.length)) {
    return kind.c === 'f32' ? wire.packF32(x) : kind.c === 'f64' ? wire.packF64(x)
      : kind.bytes === 8 ? wire.packBigInts(x) : wire.packInts(x);
  }
  return packWasm(s.boundary, kind, x, record);
}

/**
 * Packs booleans as a msgpack array of false (0xc2) / true (0xc3): an array
 * of booleans, or a Uint8Array read as 0 = false, anything else = true.
 */
export function packBool(x) {
  const s = ready();
  let bytes = x;
  let record;
  if (Array.isArray(x)) {
    bytes = new Uint8Array(x.length);
    for (let i = 0; i < x.length; i++) {
      if (typeof x[i] !== 'boolean') throw new TypeError(`fastmp: packBool() element ${i} is ${describe(x[i])}, not a boolean`);
      bytes[i] = x[i] ? 1 : 0;
    }
  } else if (!(x instanceof Uint8Array)) {
    throw new TypeError(`fastmp: packBool() takes an array of booleans or a Uint8Array, not ${describe(x)}`);
  } else {
    record = s.boundary.checkInput(x, 'packBool');
  }
  if (bytes.length > wire.MAX_ELEMENTS) throw new RangeError(`fastmp: a msgpack array holds at most 2^32-1 elements, not ${bytes.length}`);
  if (useJs(s, 'pack', BOOL, bytes.length)) return wire.packBools(bytes);
  return packWasm(s.boundary, BOOL, bytes, record);
}

/** Copy in once (unless x is from alloc()), pack in wasm, copy out once into a fresh Uint8Array. */
function packWasm(b, kind, x, record) {
  const { out, size } = packInWasm(b, kind, x, record);
  return copyOut(b.u8, out, out + size);
}

/**
 * Packs x in wasm; returns where the output is in wasm memory and its size.
 * `record`: checkInput()'s record of x when x is from alloc().
 */
function packInWasm(b, kind, x, record) {
  const n = x.length;
  const outBytes = 5 + n * kind.wire + 16; // 16: FM_PACK_SLACK
  if (record !== undefined) { // zero-copy in: x already lives in wasm memory
    const out = b.reserve(outBytes);
    return { out, size: b.wasm[kind.pack](record.pointer, n, out) >>> 0 };
  }
  // Any other view of wasm memory (a subarray of an alloc() array, say) is
  // copied out first if reserve() is about to grow memory and detach it.
  const inBytes = align16(n * kind.bytes);
  const source = b.stable(x, inBytes + outBytes);
  const base = b.reserve(inBytes + outBytes);
  b.view(kind === BOOL ? Uint8Array : kind.Type).set(source, base / kind.bytes);
  const out = base + inBytes;
  return { out, size: b.wasm[kind.pack](base, n, out) >>> 0 };
}

// ---- zero-copy ------------------------------------------------------------------

/**
 * A typed array of n elements that lives in wasm memory: fill it, then pack()
 * or packView() it without the copy in. Valid until free(x); wasm memory growth
 * (a call with a larger input than any before, or another alloc()) detaches
 * the view — refresh(x) then returns a live one over the same elements. Types:
 * every type pack() takes (Uint8Array also for packBool and as unpack input).
 */
export function alloc(Type, n) {
  const s = ready();
  const kind = KIND_OF_TYPE.get(Type);
  if (kind === undefined) throw new TypeError(`fastmp: alloc() makes a ${TYPE_NAMES}, not ${describe(Type)}`);
  if (!Number.isSafeInteger(n) || n < 0 || n > wire.MAX_ELEMENTS) {
    throw new RangeError(`fastmp: alloc() takes a length from 0 to 2^32-1, not ${String(n)}`);
  }
  return s.boundary.allocArray(Type, n, 5 + n * kind.wire + 16);
}

/** Releases an array from alloc(). Freeing it twice, or using it after, is a FastmpError FREED. */
export function free(x) {
  if (!ready().boundary.release(x)) throw new TypeError(`fastmp: free() takes an array from alloc(), not ${describe(x)}`);
}

/** A live view of an array from alloc(), after wasm memory growth detached the old one. */
export function refresh(x) {
  const view = ready().boundary.refreshed(x);
  if (view === undefined) throw new TypeError(`fastmp: refresh() takes an array from alloc(), not ${describe(x)}`);
  return view;
}

/**
 * pack() without the copy out (and, for an alloc() array, without the copy
 * in either): the result is a view of the output in wasm memory, valid until
 * the next fastmp call (which may overwrite it; passing it to fastmp after
 * that is a FastmpError STALE). Send it or copy it (slice()) before then. No
 * output array is allocated: in browsers, where allocating one costs more
 * than packing it, this is the fast path.
 */
export function packView(x, options = {}) {
  const s = ready();
  const b = s.boundary;
  const kind = kindOf(x);
  if (kind === undefined) throw new TypeError(`fastmp: packView() takes a ${TYPE_NAMES}, not ${describe(x)}`);
  const { bin = true } = asOptions(options, 'packView', ['bin']);
  const record = b.checkInput(x, 'packView');
  if (x.length > wire.MAX_ELEMENTS) throw new RangeError(`fastmp: a msgpack array holds at most 2^32-1 elements, not ${x.length}`);
  if (kind.c === 'u8' && bin) {
    const packed = wire.packBin(x.buffer === b.buffer ? x.slice() : x);
    const out = b.reserve(packed.length);
    b.u8.set(packed, out);
    return b.outputView(out, packed.length);
  }
  const { out, size } = packInWasm(b, kind, x, record);
  return b.outputView(out, size);
}

// ---- unpack -------------------------------------------------------------------

/**
 * Unpacks a msgpack array that fills the whole input into a new Type:
 * - Float32Array / Float64Array: any int or float form, as the nearest float;
 * - integer arrays: any int form whose value fits (else FastmpError RANGE);
 *   floats are a TYPE error unless options.integralFloats, which accepts
 *   floats that are exactly integral and in range;
 * - Uint8Array / Uint8ClampedArray: also a msgpack bin.
 * Bytes after the array are an error (TRAILING); see unpackFrom.
 */
export function unpack(bytes, Type, options) {
  const input = asBytes(bytes, 'unpack');
  const length = input.length; // before the call: a packView() output may be detached by it
  const { value, end } = unpackAt(input, Type, 0, options, 'unpack');
  if (end !== length) throw trailing(end, input, length);
  return value;
}

/** Unpacks the array (or bin) that starts at bytes[offset]; returns { value, end }. */
export function unpackFrom(bytes, Type, offset = 0, options) {
  const input = asBytes(bytes, 'unpackFrom');
  asOffset(offset, input, 'unpackFrom');
  return unpackAt(input, Type, offset, options, 'unpackFrom');
}

/** Unpacks a msgpack array of booleans (0xc2 / 0xc3 only) into a Uint8Array of 0 / 1. */
export function unpackBool(bytes) {
  const input = asBytes(bytes, 'unpackBool');
  const length = input.length;
  const { value, end } = unpackBoolAt(input, 0, 'unpackBool');
  if (end !== length) throw trailing(end, input, length);
  return value;
}

/**
 * Bytes after the array. `input` may be a packView() output that the call's
 * memory growth detached (length 0 now): the message needs only the length.
 */
const trailing = (end, input, length) => decodeError('TRAILING', NO_INDEX, end, input.length === length ? input : new Uint8Array(length));

/** unpackBool for the array that starts at bytes[offset]; returns { value, end }. */
export function unpackBoolFrom(bytes, offset = 0) {
  const input = asBytes(bytes, 'unpackBoolFrom');
  asOffset(offset, input, 'unpackBoolFrom');
  return unpackBoolAt(input, offset, 'unpackBoolFrom');
}

function unpackAt(input, Type, start, options = {}, fn) {
  const s = ready();
  const record = s.boundary.checkInput(input, fn);
  const kind = KIND_OF_TYPE.get(Type);
  if (kind === undefined) throw new TypeError(`fastmp: ${fn}() decodes into a ${TYPE_NAMES}; the second argument was ${describe(Type)}`);
  const { integralFloats = false } = asOptions(options, fn, ['integralFloats']);
  if (kind.c === 'u8' && wire.isBinAt(input, start)) return wire.readBin(input, start, Type);
  const { count, body } = wire.readArrayHeader(input, start);
  if (useJs(s, 'unpack', kind, count)) {
    return kind.float ? wire.unpackFloats(input, body, count, kind.c === 'f64')
      : wire.unpackInts(input, body, count, Type, integralFloats);
  }
  return unpackWasm(s.boundary, kind, input, start, body, count, integralFloats ? 1 : 0, record);
}

function unpackBoolAt(input, start, fn) {
  const s = ready();
  const record = s.boundary.checkInput(input, fn);
  const { count, body } = wire.readArrayHeader(input, start);
  if (useJs(s, 'unpack', BOOL, count)) return wire.unpackBools(input, body, count);
  return unpackWasm(s.boundary, BOOL, input, start, body, count, 0, record);
}

/**
 * Copy in once (unless the input is from alloc()), decode in wasm, copy out
 * once into a fresh typed array. Only the bytes the array can span are
 * copied: no element is longer than 9 bytes (a boolean: 1), so unpackFrom at
 * the start of a large buffer copies the array, not the rest of the buffer.
 */
function unpackWasm(b, kind, input, start, body, count, flags, record) {
  const len = Math.min(input.length - start, body - start + count * (kind === BOOL ? 1 : 9));
  let bytes = input; // what error messages quote
  let base;
  let out;
  if (record !== undefined) { // zero-copy in
    base = record.pointer + start;
    out = b.reserve(count * kind.bytes);
  } else {
    // A view of wasm memory that is not from alloc() (a packView() output) is
    // copied out first if reserve() is about to grow memory and detach it.
    const inBytes = align16(len);
    bytes = b.stable(input, inBytes + count * kind.bytes);
    base = b.reserve(inBytes + count * kind.bytes);
    b.u8.set(start === 0 && len === bytes.length ? bytes : bytes.subarray(start, start + len), base);
    out = base + inBytes;
  }
  if (b.wasm[kind.unpack](base, len, out, count, flags, b.result) !== 0) {
    const r = b.readResult();
    const target = kind === BOOL ? 'boolean' : kind.Type.name;
    const value = r.code === 'RANGE' || r.code === 'TYPE' ? wire.reportedValue(r.tag, r.value) : undefined;
    if (record !== undefined) bytes = new Uint8Array(b.buffer, record.pointer, record.length);
    else if (bytes.buffer === b.buffer) bytes = quotedCopy(b, base, start, len); // the input may be overwritten
    throw decodeError(r.code, r.index, start + r.offset, bytes, r.count, { target, value });
  }
  const first = out / kind.bytes;
  const value = copyOut(b.view(kind.Type), first, first + count);
  return { value, end: start + b.resultEnd() };
}

/**
 * The input as an error message quotes it, rebuilt from the copy at `base`:
 * an input that is itself in scratch (a packView() output) may have been
 * overwritten by the copy in or by the output.
 */
function quotedCopy(b, base, start, len) {
  const bytes = new Uint8Array(start + len);
  bytes.set(b.u8.subarray(base, base + len), start);
  return bytes;
}
