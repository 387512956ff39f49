// kinds.js - the one table of element types on the JS side: every typed array
// fastmp packs and unpacks, with the C kernels' type name, the element size,
// the largest msgpack form of an element and msgpackr's typed-array ext (0x74)
// code. pack/unpack, the message codec, the shape decoder, the tests and the
// bench all read it; c/fastmp.h's FM_ELEMENT_TYPES is its C twin.

/**
 * @typedef {object} Kind
 * @property {string} name   the constructor's name, as the brand check reports it
 * @property {Function} Type the constructor (of this realm)
 * @property {string} c      the C kernels' type name: fm_pack_<c>, fm_unpack_<c>
 * @property {number} bytes  bytes per element
 * @property {number} wire   the longest msgpack form of one element, in bytes
 * @property {boolean} float float elements (0xca / 0xcb)
 * @property {boolean} big   BigInt elements
 * @property {number} ext    msgpackr's typed-array ext (0x74) element code, -1 for none
 * @property {number} index  its position in KINDS (BOOL: KINDS.length): tables by kind are arrays
 * @property {number|bigint} min the smallest value an integer kind holds (floats, booleans: 0)
 * @property {number|bigint} max the largest value an integer kind holds (floats, booleans: 0)
 */

/**
 * The element types: [constructor, C type name, longest wire form, traits],
 * each a row. Adding a kind: docs/contributing.md ("Adding an element type").
 * @type {readonly Kind[]}
 */
export const KINDS = Object.freeze([
  [Float32Array, 'f32', 5, { float: true, ext: 7 }],
  [Float64Array, 'f64', 9, { float: true, ext: 8 }],
  [Int8Array, 'i8', 2, { ext: 0, min: -128, max: 127 }],
  [Uint8Array, 'u8', 2, { ext: 1, max: 255 }],
  [Uint8ClampedArray, 'u8', 2, { ext: 2, max: 255 }],
  [Int16Array, 'i16', 3, { ext: 3, min: -32768, max: 32767 }],
  [Uint16Array, 'u16', 3, { ext: 4, max: 65535 }],
  [Int32Array, 'i32', 5, { ext: 5, min: -2147483648, max: 2147483647 }],
  [Uint32Array, 'u32', 5, { ext: 6, max: 4294967295 }],
  [BigInt64Array, 'i64', 9, { big: true, ext: 9, min: -(2n ** 63n), max: 2n ** 63n - 1n }],
  [BigUint64Array, 'u64', 9, { big: true, ext: 10, min: 0n, max: 2n ** 64n - 1n }],
].map(([Type, c, wire, traits], index) => kind(index, Type, c, wire, traits)));

/** Booleans: packed from / unpacked into a Uint8Array of 0 / 1, each element one byte on the wire. */
export const BOOL = Object.freeze({
  name: 'boolean', Type: Uint8Array, c: 'bool', bytes: 1, wire: 1, float: false, big: false, ext: -1,
  pack: 'fm_pack_bool', unpack: 'fm_unpack_bool', index: KINDS.length, min: 0, max: 0,
});

// Every kind has the same properties in the same order (BOOL too): one shape,
// so that code reading a kind's fields sees one kind of object.
function kind(index, Type, c, wire, { float = false, big = false, ext, min = 0, max = 0 }) {
  return Object.freeze({
    name: Type.name, Type, c, bytes: Type.BYTES_PER_ELEMENT, wire, float, big, ext,
    pack: `fm_pack_${c}`, unpack: `fm_unpack_${c}`, index, min, max,
  });
}

/**
 * One kind per C kernel type, then BOOL: what the kernels and js/crossovers.js
 * are keyed by (Uint8ClampedArray shares Uint8Array's u8). For the tests and
 * the benches.
 */
export const KERNEL_KINDS = /* @__PURE__ */ [...KINDS, BOOL].filter((k, i, all) => all.findIndex((other) => other.c === k.c) === i);

/** "Float32Array, Float64Array, …": the names, for error messages. */
export const TYPE_NAMES = /* @__PURE__ */ KINDS.map((k) => k.name).join(', ');

/** A Map of KINDS by `key` (a function, so that a page that never reads the Map bundles none of it). */
const kindsBy = (key) => new Map(KINDS.map((k) => [key(k), k]));
/** Kind by constructor (of this realm). */
export const KIND_OF_TYPE = /* @__PURE__ */ kindsBy((k) => k.Type);
/** Kind by the brand name the engine reports (any realm). */
export const KIND_OF_NAME = /* @__PURE__ */ kindsBy((k) => k.name);
/** Kind by msgpackr ext 0x74 element code. */
export const KIND_OF_EXT = /* @__PURE__ */ kindsBy((k) => k.ext);

// The per-call lookups of pack() / unpack(): a switch of identity
// comparisons, which V8 compiles to pointer comparisons (the brand names are
// internalized strings): cheaper for every type than a Map lookup or a search
// of KINDS, which would be a visible part of a whole call at N = 1
// (bench/one-type.js times that call).
// (test/kinds.test.js checks that both find every kind.)
const [F32, F64, I8, U8, U8C, I16, U16, I32, U32, I64, U64] = KINDS;

/** KIND_OF_TYPE.get(Type), for the API's every call. */
export function kindOfType(Type) {
  switch (Type) {
    case Float32Array: return F32;
    case Float64Array: return F64;
    case Int8Array: return I8;
    case Uint8Array: return U8;
    case Uint8ClampedArray: return U8C;
    case Int16Array: return I16;
    case Uint16Array: return U16;
    case Int32Array: return I32;
    case Uint32Array: return U32;
    case BigInt64Array: return I64;
    case BigUint64Array: return U64;
    default: return undefined;
  }
}

/** KIND_OF_NAME.get(name), for the API's every call (name: a brand, or undefined). */
export function kindOfName(name) {
  switch (name) {
    case 'Float32Array': return F32;
    case 'Float64Array': return F64;
    case 'Int8Array': return I8;
    case 'Uint8Array': return U8;
    case 'Uint8ClampedArray': return U8C;
    case 'Int16Array': return I16;
    case 'Uint16Array': return U16;
    case 'Int32Array': return I32;
    case 'Uint32Array': return U32;
    case 'BigInt64Array': return I64;
    case 'BigUint64Array': return U64;
    default: return undefined;
  }
}
