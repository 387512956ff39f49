// index.js - the public API. Browsers: `await init()` once before the first
// call. Node: import 'fastmp-wasm' (js/node.js), which is ready on import.

import { FastmpError, NO_INDEX, decodeError } from './errors.js';
import { instantiate, simdSupported } from './loader.js';
import { Boundary, align16 } from './memory.js';
import { stringsApi } from './strings.js';
import * as wire from './wire.js';

/**
 * Below these element counts the pure-JS path is faster than a wasm call: the
 * call and the copy in cost more than the loop saves. Crossovers measured per
 * build with `node bench/crossover.js` (Node 20, x86-64; README "Performance"):
 * near them both paths are within noise of each other.
 */
const JS_BELOW = {
  simd: { packF32: 32, packF64: 32, unpackF32: 64, unpackF64: 8 },
  scalar: { packF32: 48, packF64: 48, unpackF32: 128, unpackF64: 8 },
};

// The element kinds: the typed array, its kernels and its wire size.
const FLOAT32 = { name: 'Float32Array', bytes: 4, wire: 5, wide: false, pack: 'fm_pack_f32', unpack: 'fm_unpack_f32' };
const FLOAT64 = { name: 'Float64Array', bytes: 8, wire: 9, wide: true, pack: 'fm_pack_f64', unpack: 'fm_unpack_f64' };

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
  const { backend = 'auto', wasm, pureJs = 'auto' } = options;
  if (!['auto', 'never', 'always'].includes(pureJs)) {
    throw new TypeError(`fastmp: pureJs must be 'auto', 'never' or 'always', not ${String(pureJs)}`);
  }
  let boundary = null;
  const loaded = await instantiate({ backend, wasm, onMemoryGrowth: () => boundary?.refreshViews() });
  boundary = new Boundary(loaded.exports);
  state = { boundary, backend: loaded.backend, pureJs };
  return loaded.backend;
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

function useJs(s, op, n) {
  return s.pureJs === 'always' || (s.pureJs === 'auto' && n < JS_BELOW[s.backend][op]);
}

function floatKindOfArray(x) {
  if (x instanceof Float32Array) return FLOAT32;
  if (x instanceof Float64Array) return FLOAT64;
  return null;
}

function floatKindOfType(Type) {
  if (Type === Float32Array) return FLOAT32;
  if (Type === Float64Array) return FLOAT64;
  return null;
}

/**
 * Packs a typed array as a standard msgpack array. Float32Array elements are
 * written as float32 (0xca), Float64Array elements as float64 (0xcb), always,
 * bit for bit. Returns a new Uint8Array.
 */
export function pack(x) {
  const s = ready();
  const kind = floatKindOfArray(x);
  if (kind === null) {
    throw new TypeError(`fastmp: pack() takes a Float32Array or Float64Array, not ${describe(x)}`);
  }
  const n = x.length;
  if (n > wire.MAX_ELEMENTS) throw new RangeError(`fastmp: a msgpack array holds at most 2^32-1 elements, not ${n}`);
  if (useJs(s, kind.wide ? 'packF64' : 'packF32', n)) return kind.wide ? wire.packF64(x) : wire.packF32(x);

  const b = s.boundary;
  const inBytes = align16(n * kind.bytes);
  const base = b.reserve(inBytes + 5 + n * kind.wire);
  (kind.wide ? b.f64 : b.f32).set(x, base / kind.bytes);
  const out = base + inBytes;
  const size = b.wasm[kind.pack](base, n, out) >>> 0;
  return b.u8.slice(out, out + size);
}

/**
 * Unpacks a msgpack array of numbers (every int and float form) filling the
 * whole input. Type is Float32Array or Float64Array. Bytes after the array
 * are an error (code TRAILING); use unpackFrom to read an array that others follow.
 */
export function unpack(bytes, Type) {
  const input = asBytes(bytes, 'unpack');
  const { value, end } = unpackAt(input, Type, 0, 'unpack');
  if (end !== input.length) throw decodeError('TRAILING', NO_INDEX, end, input);
  return value;
}

/** Unpacks the array that starts at bytes[offset]; returns { value, end }. */
export function unpackFrom(bytes, Type, offset = 0) {
  const input = asBytes(bytes, 'unpackFrom');
  if (!Number.isSafeInteger(offset) || offset < 0 || offset > input.length) {
    throw new RangeError(`fastmp: unpackFrom() offset must be an integer from 0 to ${input.length}, not ${String(offset)}`);
  }
  return unpackAt(input, Type, offset, 'unpackFrom');
}

function unpackAt(input, Type, start, fn) {
  const s = ready();
  const kind = floatKindOfType(Type);
  if (kind === null) {
    throw new TypeError(`fastmp: ${fn}() decodes into Float32Array or Float64Array; the second argument was ${describe(Type)}`);
  }
  const { count, body } = wire.readArrayHeader(input, start);
  if (useJs(s, kind.wide ? 'unpackF64' : 'unpackF32', count)) return wire.unpackFloats(input, body, count, kind.wide);

  const b = s.boundary;
  const len = input.length - start;
  const inBytes = align16(len);
  const base = b.reserve(inBytes + count * kind.bytes);
  b.u8.set(start === 0 ? input : input.subarray(start), base);
  const out = base + inBytes;
  if (b.wasm[kind.unpack](base, len, out, count, b.result) !== 0) {
    const r = b.readResult();
    throw decodeError(r.code, r.index, start + r.offset, input, r.count);
  }
  const first = out / kind.bytes;
  const value = (kind.wide ? b.f64 : b.f32).slice(first, first + count);
  return { value, end: start + b.resultEnd() };
}

function asBytes(bytes, fn) {
  if (bytes instanceof Uint8Array) return bytes;
  if (bytes instanceof ArrayBuffer || (typeof SharedArrayBuffer !== 'undefined' && bytes instanceof SharedArrayBuffer)) {
    return new Uint8Array(bytes);
  }
  throw new TypeError(`fastmp: ${fn}() takes a Uint8Array (or an ArrayBuffer) of msgpack bytes, not ${describe(bytes)}`);
}

function describe(v) {
  if (v === null) return 'null';
  if (typeof v === 'function') return v.name ? `the function ${v.name}` : 'a function';
  const name = typeof v === 'object' ? v.constructor?.name ?? 'object' : typeof v;
  return `${/^[aeiou]/i.test(name) ? 'an' : 'a'} ${name}`;
}
