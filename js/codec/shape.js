// shape.js - what decode(bytes, { shape }) is told about a message, compiled
// once into a small tree of nodes (cached per shape object), which the
// decoder follows alongside the message.
//
// A shape mirrors the message:
//   Float32Array, Int16Array, ... (any type of js/kinds.js)  that typed array
//   Float16Array (where the engine has it)  read as float64, then one rounding to float16
//   Boolean (or BoolArray)                a Uint8Array of 0 / 1 from an array of booleans
//   [S]                                   a msgpack array, each element by S
//   { key: S, ... }                       a msgpack map: listed keys by their S (each must be
//                                         there), others as usual
//   { key: optional(S), ... }             a listed key that may be absent, or nil (null)
//   mapOf(S)                              a msgpack map, every value by S
// Shapes may refer to themselves (a tree of nodes), and a shape object may be
// reused in many places; anything else in a shape is a TypeError at compile.

import { BOOL, KIND_OF_TYPE } from '../kinds.js';
import { show } from './path.js';
import { BoolArray, halfTarget } from './typed.js';

/** Node types. */
export const TYPED = 1;
export const ARRAY = 2;
export const MAP = 3;
export const EVERY = 4;

/** "Every value of this map has shape S": the marker mapOf() returns. */
export class MapOf {
  constructor(shape) {
    /** @readonly */ this.shape = shape;
    Object.freeze(this);
  }
}

/** @param {unknown} shape the shape of every value of a map @returns {MapOf} */
export const mapOf = (shape) => new MapOf(shape);

/** "This field of a map may be absent, or nil": the marker optional() returns. */
export class Optional {
  constructor(shape) {
    /** @readonly */ this.shape = shape;
    Object.freeze(this);
  }
}

/** @param {unknown} shape the shape of a map's field that may be absent or nil @returns {Optional} */
export const optional = (shape) => new Optional(shape);

/**
 * @typedef {object} ShapeNode
 * @property {number} type  TYPED, ARRAY, MAP or EVERY
 * @property {import('../kinds.js').Kind} [kind]  TYPED: the element type (kinds.js BOOL for booleans, typed.js HALF for Float16Array)
 * @property {ShapeNode} [elem]  ARRAY, EVERY: the shape of each element / value
 * @property {Map<string, Field>} [keys]  MAP: the listed keys
 * @property {number} [required]  MAP: the bits of the required fields (Field.bit), or-ed
 * @property {string[]} [more]  MAP: required keys beyond the 30 that have a bit
 */

/**
 * @typedef {object} Field
 * @property {ShapeNode} node    its shape
 * @property {boolean} optional  may be absent, or nil
 * @property {number} bit        a required field's own bit (the first 30 of a map), else 0
 */

/** Required fields of a map that get a bit of their own: the decoder marks each it meets in a small integer. */
const FIELD_BITS = 30;

const compiled = new WeakMap();

/** The compiled tree of a shape (cached per shape object). */
export function compileShape(shape) {
  if (shape !== null && (typeof shape === 'object' || typeof shape === 'function')) {
    const known = compiled.get(shape);
    if (known !== undefined) return known;
  }
  const seen = new Map();
  const node = compile(shape, seen, '$');
  // Every object of the shape is cached with its node, once the whole shape
  // compiled: an object met again, alone or in another shape, is compiled once.
  for (const [object, known] of seen) compiled.set(object, known);
  return node;
}

/** `seen`: nodes of the objects being compiled, so that a shape can refer to itself. */
function compile(shape, seen, path) {
  if (typeof shape === 'function') return typedNode(shape, path);
  if (shape instanceof Optional) throw new TypeError(`fastmp: shape at ${path}: optional(S) marks a field of a map ({ key: optional(S) }), not ${path === '$' ? 'the whole message' : 'an element'}`);
  if (shape === null || typeof shape !== 'object') throw badShape(shape, path);
  const known = seen.get(shape) ?? compiled.get(shape);
  if (known !== undefined) return known;
  if (Array.isArray(shape)) {
    if (shape.length !== 1) throw new TypeError(`fastmp: shape at ${path}: an array shape is [S] with one element, not ${shape.length}`);
    const node = { type: ARRAY, elem: null };
    seen.set(shape, node);
    node.elem = compile(shape[0], seen, `${path}[]`);
    return node;
  }
  if (shape instanceof MapOf) {
    const node = { type: EVERY, elem: null };
    seen.set(shape, node);
    node.elem = compile(shape.shape, seen, `${path}[*]`);
    return node;
  }
  const proto = Object.getPrototypeOf(shape);
  // (null, or a realm's Object.prototype: this one's, a vm context's, an iframe's, whose prototype is null)
  if (proto !== null && Object.getPrototypeOf(proto) !== null) throw badShape(shape, path);
  const node = { type: MAP, keys: new Map(), required: 0, more: [] };
  seen.set(shape, node);
  let bits = 0;
  for (const key of Object.keys(shape)) {
    const field = shape[key];
    const isOptional = field instanceof Optional;
    const bit = isOptional || bits === FIELD_BITS ? 0 : 1 << bits++;
    if (!isOptional && bit === 0) node.more.push(key);
    node.required |= bit;
    node.keys.set(key, { node: compile(isOptional ? field.shape : field, seen, `${path}.${key}`), optional: isOptional, bit });
  }
  return node;
}

function typedNode(Type, path) {
  if (Type === Boolean || Type === BoolArray) return { type: TYPED, kind: BOOL };
  const kind = KIND_OF_TYPE.get(Type) ?? halfTarget(Type);
  if (kind === undefined) throw badShape(Type, path);
  return { type: TYPED, kind };
}

const badShape = (v, path) => new TypeError(
  `fastmp: shape at ${path}: expected a typed-array constructor, Boolean, [S], mapOf(S) or a plain object of shapes (optional(S) for a field), not ${show(v)}`,
);
