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
 */

/** @type {readonly Kind[]} */
export const KINDS = Object.freeze([
  kind(Float32Array, 'f32', 5, { float: true, ext: 7 }),
  kind(Float64Array, 'f64', 9, { float: true, ext: 8 }),
  kind(Int8Array, 'i8', 2, { ext: 0 }),
  kind(Uint8Array, 'u8', 2, { ext: 1 }),
  kind(Uint8ClampedArray, 'u8', 2, { ext: 2 }),
  kind(Int16Array, 'i16', 3, { ext: 3 }),
  kind(Uint16Array, 'u16', 3, { ext: 4 }),
  kind(Int32Array, 'i32', 5, { ext: 5 }),
  kind(Uint32Array, 'u32', 5, { ext: 6 }),
  kind(BigInt64Array, 'i64', 9, { big: true, ext: 9 }),
  kind(BigUint64Array, 'u64', 9, { big: true, ext: 10 }),
]);

/** Booleans: packed from / unpacked into a Uint8Array of 0 / 1, each element one byte on the wire. */
export const BOOL = Object.freeze({
  name: 'boolean', Type: Uint8Array, c: 'bool', bytes: 1, wire: 1, float: false, big: false, ext: -1,
  pack: 'fm_pack_bool', unpack: 'fm_unpack_bool',
});

function kind(Type, c, wire, { float = false, big = false, ext }) {
  return Object.freeze({
    name: Type.name, Type, c, bytes: Type.BYTES_PER_ELEMENT, wire, float, big, ext,
    pack: `fm_pack_${c}`, unpack: `fm_unpack_${c}`,
  });
}

/** "Float32Array, Float64Array, …": the names, for error messages. */
export const TYPE_NAMES = KINDS.map((k) => k.name).join(', ');

/** Kind by constructor (of this realm). */
export const KIND_OF_TYPE = new Map(KINDS.map((k) => [k.Type, k]));
/** Kind by the brand name the engine reports (any realm). */
export const KIND_OF_NAME = new Map(KINDS.map((k) => [k.name, k]));
/** Kind by msgpackr ext 0x74 element code. */
export const KIND_OF_EXT = new Map(KINDS.map((k) => [k.ext, k]));
