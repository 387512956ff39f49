// loops.js - the bench's JS baseline for bare typed arrays (bin/bench.js, and
// the repository's bench/ through bench/peers.js): the loops a developer
// writes when speed matters, writing the same standard msgpack bytes as
// fastmp and reading them back, and the 12-line DataView loop.

// ---- msgpack: the fastest honest JS loops (the ratio baseline) ------------------------
// What a JS developer writes when speed matters, with fastmp's argument checks
// (the input's type by its brand, as fastmp reads it, for pack and unpack
// alike; the 2^32-1 element limit) and its contract (a fresh array out,
// owning its bytes). Variants were timed at N = 1..1 M (kept memory); why
// these won:
// - pack writes a module-level scratch through a DataView made once (grown
//   when too small) and returns scratch.slice(0, end). A fresh output with
//   `new DataView(out.buffer)` per call costs far more at small N, because
//   asking a small on-heap array for its buffer moves it off the V8 heap
//   (that loop stays below, as 'DataView loop', and the tables show it).
// - unpack copies the input into the scratch (TypedArray#set) and reads it
//   through the scratch's DataView. Against a DataView over the input made
//   per call (free of the on-heap move once the input is off-heap), and
//   against assembling each float from bytes through a Float32Array alias,
//   the copy won over the sizes timed: the scratch's view is one V8 already
//   knows, and the caller's small array stays on the heap.
// Each loop is its own function per element type (ints: one copy per type,
// see perType), so that each keeps the monomorphic feedback a hand-written
// per-type loop has.

/**
 * A typed array's elements as a plain array, by the loop a developer writes
 * when speed matters: the peers' users' conversion before packing. (Not
 * `Array.from(typedArray)`, which V8 runs through the iterator, many times
 * slower: the peers' rows would time the conversion more than the peer.)
 */
export function toArray(x, map) {
  const n = x.length;
  const out = new Array(n);
  if (map === undefined) for (let i = 0; i < n; i++) out[i] = x[i];
  else for (let i = 0; i < n; i++) out[i] = map(x[i]);
  return out;
}

/** The baseline's name in the results. */
export const JS_LOOP = 'JS loop';

const TypedArrayPrototype = Object.getPrototypeOf(Uint8Array.prototype);
const brandOf = Object.getOwnPropertyDescriptor(TypedArrayPrototype, Symbol.toStringTag).get;
const MAX_ELEMENTS = 0xffffffff;
/** The input checks fastmp makes before anything else (js/args.js, js/typed.js). */
function checked(x, name) {
  if (brandOf.call(x) !== name) throw new TypeError(`takes a ${name}`);
  if (x.length > MAX_ELEMENTS) throw new RangeError('a msgpack array holds at most 2^32-1 elements');
  return x.length;
}

// The scratch every loop writes or reads through: one object, so that the
// per-type copies made by perType() share it.
const S = { bytes: new Uint8Array(1 << 16), view: null, start: 0 };
S.view = new DataView(S.bytes.buffer);
/** The scratch, at least `size` bytes long. */
function room(size) {
  if (S.bytes.length < size) {
    S.bytes = new Uint8Array(Math.max(size, 2 * S.bytes.length));
    S.view = new DataView(S.bytes.buffer);
  }
  return S.bytes;
}
/** Writes the smallest array header for n elements into the scratch; returns its size. */
function header(n) {
  if (n <= 15) {
    S.bytes[0] = 0x90 | n;
    return 1;
  }
  if (n <= 0xffff) {
    S.bytes[0] = 0xdc;
    S.view.setUint16(1, n);
    return 3;
  }
  S.bytes[0] = 0xdd;
  S.view.setUint32(1, n);
  return 5;
}
/**
 * Reads the array header at bytes[0]: returns the count, and sets S.start to
 * where the elements begin; first checks the input as fastmp does (a
 * Uint8Array by its brand). (No [count, start] pair: with one, V8's code for
 * a loop that had also run at small sizes ran slower at large ones;
 * docs/performance.md.)
 */
function readHeader(bytes) {
  checked(bytes, 'Uint8Array');
  const tag = bytes[0];
  if ((tag & 0xf0) === 0x90) return (S.start = 1, tag & 0x0f);
  if (tag === 0xdc) return (S.start = 3, (bytes[1] << 8) | bytes[2]);
  if (tag === 0xdd) return (S.start = 5, ((bytes[1] << 24) | (bytes[2] << 16) | (bytes[3] << 8) | bytes[4]) >>> 0);
  throw new Error('not an array');
}
/** The input's bytes in the scratch, and the scratch's DataView to read them (see above). */
function viewOf(bytes) {
  room(bytes.length).set(bytes);
  return S.view;
}

function packF32(x) {
  const n = checked(x, 'Float32Array');
  room(5 + 5 * n);
  const { bytes, view } = S;
  let p = header(n);
  for (let i = 0; i < n; i++, p += 5) {
    bytes[p] = 0xca;
    view.setFloat32(p + 1, x[i]);
  }
  return bytes.slice(0, p);
}

function packF64(x) {
  const n = checked(x, 'Float64Array');
  room(5 + 9 * n);
  const { bytes, view } = S;
  let p = header(n);
  for (let i = 0; i < n; i++, p += 9) {
    bytes[p] = 0xcb;
    view.setFloat64(p + 1, x[i]);
  }
  return bytes.slice(0, p);
}

function unpackF32(bytes) {
  const n = readHeader(bytes);
  const start = S.start;
  if (bytes.length < start + 5 * n) throw new Error('truncated');
  const view = viewOf(bytes);
  const out = new Float32Array(n);
  for (let i = 0, p = start; i < n; i++, p += 5) {
    if (bytes[p] !== 0xca) throw new Error('not a float32');
    out[i] = view.getFloat32(p + 1);
  }
  return out;
}

function unpackF64(bytes) {
  const n = readHeader(bytes);
  const start = S.start;
  if (bytes.length < start + 9 * n) throw new Error('truncated');
  const view = viewOf(bytes);
  const out = new Float64Array(n);
  for (let i = 0, p = start; i < n; i++, p += 9) {
    if (bytes[p] !== 0xcb) throw new Error('not a float64');
    out[i] = view.getFloat64(p + 1);
  }
  return out;
}

/** Writes an int of at most 32 bits (a number) in its smallest msgpack form at bytes[p]; returns the next p. */
function writeInt(bytes, view, p, v) {
  if (v >= 0 ? v < 0x80 : v >= -32) {
    bytes[p] = v;
    return p + 1;
  }
  if (v >= 0) {
    if (v <= 0xff) return (bytes[p] = 0xcc, bytes[p + 1] = v, p + 2);
    if (v <= 0xffff) return (bytes[p] = 0xcd, view.setUint16(p + 1, v), p + 3);
    return (bytes[p] = 0xce, view.setUint32(p + 1, v), p + 5);
  }
  if (v >= -128) return (bytes[p] = 0xd0, bytes[p + 1] = v, p + 2);
  if (v >= -32768) return (bytes[p] = 0xd1, view.setInt16(p + 1, v), p + 3);
  return (bytes[p] = 0xd2, view.setInt32(p + 1, v), p + 5);
}

/** Ints of 8-32 bits (numbers), each in its smallest msgpack form. */
function packInts(x, name) {
  const n = checked(x, name);
  room(5 + 5 * n);
  const { bytes, view } = S;
  let p = header(n);
  for (let i = 0; i < n; i++) p = writeInt(bytes, view, p, x[i]);
  return bytes.slice(0, p);
}

/** BigInt64 / BigUint64: values that fit 32 bits as packInts writes them, the others in 8 bytes. */
function packBigInts(x, name) {
  const n = checked(x, name);
  room(5 + 9 * n);
  const { bytes, view } = S;
  let p = header(n);
  for (let i = 0; i < n; i++) {
    const b = x[i];
    if (b >= -2147483648n && b <= 4294967295n) p = writeInt(bytes, view, p, Number(b));
    else if (b > 0n) p = (bytes[p] = 0xcf, view.setBigUint64(p + 1, b), p + 9);
    else p = (bytes[p] = 0xd3, view.setBigInt64(p + 1, b), p + 9);
  }
  return bytes.slice(0, p);
}

const MAX_I64 = 2n ** 63n - 1n;
/**
 * Any msgpack int (the forms fastmp reads for an int type), checked against
 * the target's range [lo, hi] (for BigInt types: of the forms up to 32 bits).
 */
function unpackInts(bytes, Type, lo, hi) {
  const n = readHeader(bytes);
  const start = S.start;
  const view = viewOf(bytes);
  const out = new Type(n);
  const big = Type === BigInt64Array || Type === BigUint64Array;
  let p = start;
  for (let i = 0; i < n; i++) {
    const tag = bytes[p];
    let v;
    if (tag < 0x80) (v = tag, p += 1);
    else if (tag >= 0xe0) (v = tag - 256, p += 1);
    else if (tag === 0xcc) (v = bytes[p + 1], p += 2);
    else if (tag === 0xcd) (v = view.getUint16(p + 1), p += 3);
    else if (tag === 0xce) (v = view.getUint32(p + 1), p += 5);
    else if (tag === 0xd0) (v = view.getInt8(p + 1), p += 2);
    else if (tag === 0xd1) (v = view.getInt16(p + 1), p += 3);
    else if (tag === 0xd2) (v = view.getInt32(p + 1), p += 5);
    else if (big && (tag === 0xcf || tag === 0xd3)) {
      const b = tag === 0xcf ? view.getBigUint64(p + 1) : view.getBigInt64(p + 1);
      if (Type === BigInt64Array ? b > MAX_I64 : b < 0n) throw new RangeError(`out of range at ${i}`);
      out[i] = b;
      p += 9;
      continue;
    } else throw new Error(`not an int at ${p}`);
    if (v < lo || v > hi) throw new RangeError(`out of range at ${i}`);
    out[i] = big ? BigInt(v) : v;
  }
  // (Payloads are read from the scratch: one that ran past the input's end read what lay beyond it.)
  if (p > bytes.length) throw new Error('truncated');
  return out;
}

function packBools(x) {
  const n = checked(x, 'Uint8Array');
  room(5 + n);
  const { bytes } = S;
  let p = header(n);
  for (let i = 0; i < n; i++) bytes[p++] = x[i] ? 0xc3 : 0xc2;
  return bytes.slice(0, p);
}

function unpackBools(bytes) {
  const n = readHeader(bytes);
  const start = S.start;
  const out = new Uint8Array(n);
  for (let i = 0, p = start; i < n; i++, p++) {
    const tag = bytes[p];
    if ((tag & 0xfe) !== 0xc2) throw new Error('not a boolean');
    out[i] = tag & 1;
  }
  return out;
}

/**
 * A copy of fn of its own (its own feedback), with the module state it reads
 * passed in: one per int type, as one hand-written loop per type would be.
 */
function perType(fn) {
  // new Function: a fresh function (own feedback) per type is the point.
  return new Function('S', 'room', 'header', 'readHeader', 'viewOf', 'checked', 'writeInt', 'MAX_I64', `return ${fn}`)(
    S, room, header, readHeader, viewOf, checked, writeInt, MAX_I64);
}
const INT_LOOPS = new Map();
function intLoops(Type) {
  if (!INT_LOOPS.has(Type)) {
    const big = Type === BigInt64Array || Type === BigUint64Array;
    const unsigned = Type.name.startsWith('Uint') || Type === BigUint64Array;
    const bits = big ? 32 : 8 * Type.BYTES_PER_ELEMENT;
    const [lo, hi] = unsigned ? [0, 2 ** bits - 1] : big ? [-(2 ** 31), 2 ** 32 - 1] : [-(2 ** (bits - 1)), 2 ** (bits - 1) - 1];
    const pack = perType(big ? packBigInts : packInts);
    const unpack = perType(unpackInts);
    INT_LOOPS.set(Type, { pack: (x) => pack(x, Type.name), unpack: (bytes) => unpack(bytes, Type, lo, hi) });
  }
  return INT_LOOPS.get(Type);
}

/** The fastest JS loop's pack and unpack for a type: Float32Array ... BigUint64Array, or 'boolean' (a Uint8Array of 0/1). */
export function jsLoop(Type, bool = false) {
  if (bool) return { pack: packBools, unpack: unpackBools };
  if (Type === Float32Array) return { pack: packF32, unpack: unpackF32 };
  if (Type === Float64Array) return { pack: packF64, unpack: unpackF64 };
  return intLoops(Type);
}

// ---- msgpack: the 12-line DataView loop (a fresh output and a DataView per call) ------

/** Float32Array / Float64Array -> msgpack array of floats of that width: what REFERENCE §5 timed. */
export function dataViewPack(x) {
  const wide = x instanceof Float64Array;
  const size = wide ? 9 : 5;
  const n = x.length;
  const out = new Uint8Array((n <= 15 ? 1 : n <= 0xffff ? 3 : 5) + size * n);
  const view = new DataView(out.buffer);
  let p = n <= 15 ? 1 : n <= 0xffff ? 3 : 5;
  if (n <= 15) out[0] = 0x90 | n;
  else if (n <= 0xffff) { out[0] = 0xdc; view.setUint16(1, n); }
  else { out[0] = 0xdd; view.setUint32(1, n); }
  for (let i = 0; i < n; i++, p += size) {
    out[p] = wide ? 0xcb : 0xca;
    if (wide) view.setFloat64(p + 1, x[i]);
    else view.setFloat32(p + 1, x[i]);
  }
  return out;
}

/** Its decoding twin (a DataView over the input per call), for arrays of floats of the target's width. */
export function dataViewUnpack(bytes, Type) {
  const wide = Type === Float64Array;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const n = readHeader(bytes);
  const start = S.start;
  const out = new Type(n);
  for (let i = 0, p = start; i < n; i++, p += wide ? 9 : 5) {
    if (bytes[p] !== (wide ? 0xcb : 0xca)) throw new Error('not a float');
    out[i] = wide ? view.getFloat64(p + 1) : view.getFloat32(p + 1);
  }
  return out;
}
