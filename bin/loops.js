// loops.js - the bench's JS baseline for bare typed arrays: the loops a
// developer writes when speed matters, writing the same standard msgpack
// bytes as fastmp (an array of float32, or of ints each in its smallest form)
// and reading them back. What makes them fast: one scratch buffer reused
// across calls, written and read through a DataView made once (made afresh
// only when the scratch grows); the output a fresh array (`slice`), as
// fastmp's pack() and unpack() return. Each is a function of its own per
// element type, so that each keeps the monomorphic feedback of a loop
// written for one type.

const S = { bytes: new Uint8Array(1 << 16), view: null };
S.view = new DataView(S.bytes.buffer);

/** The scratch, at least `size` bytes. */
function room(size) {
  if (S.bytes.length < size) {
    S.bytes = new Uint8Array(Math.max(size, 2 * S.bytes.length));
    S.view = new DataView(S.bytes.buffer);
  }
}

/** Writes the array header of n elements at the scratch's start; returns its size. */
function writeHeader(n) {
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

/** Copies `bytes` into the scratch and reads its array header: [count, header size]. */
function readHeader(bytes) {
  room(bytes.length);
  S.bytes.set(bytes);
  const tag = bytes[0];
  if ((tag & 0xf0) === 0x90) return [tag & 0x0f, 1];
  if (tag === 0xdc) return [S.view.getUint16(1), 3];
  if (tag === 0xdd) return [S.view.getUint32(1), 5];
  throw new TypeError('not a msgpack array');
}

/** Float32Array -> msgpack array of float32 (0xca + 4 bytes big-endian each). */
export function packF32(x) {
  const n = x.length;
  room(5 + 5 * n);
  const { bytes, view } = S;
  let p = writeHeader(n);
  for (let i = 0; i < n; i++, p += 5) {
    bytes[p] = 0xca;
    view.setFloat32(p + 1, x[i]);
  }
  return bytes.slice(0, p);
}

/** A msgpack array of float32 -> Float32Array (the form packF32 writes; anything else is an error). */
export function unpackF32(bytes) {
  const [n, start] = readHeader(bytes);
  if (bytes.length < start + 5 * n) throw new RangeError('msgpack array cut short');
  const { bytes: b, view } = S;
  const out = new Float32Array(n);
  for (let i = 0, p = start; i < n; i++, p += 5) {
    if (b[p] !== 0xca) throw new TypeError(`element ${i} is not a float32`);
    out[i] = view.getFloat32(p + 1);
  }
  return out;
}

/** Int32Array -> msgpack array, each int in its smallest form. */
export function packI32(x) {
  const n = x.length;
  room(5 + 5 * n);
  const { bytes, view } = S;
  let p = writeHeader(n);
  for (let i = 0; i < n; i++) {
    const v = x[i];
    if (v >= -32 && v <= 127) {
      bytes[p++] = v & 0xff;
    } else if (v >= 0) {
      if (v <= 0xff) (bytes[p] = 0xcc, bytes[p + 1] = v, p += 2);
      else if (v <= 0xffff) (bytes[p] = 0xcd, view.setUint16(p + 1, v), p += 3);
      else (bytes[p] = 0xce, view.setUint32(p + 1, v), p += 5);
    } else if (v >= -128) (bytes[p] = 0xd0, view.setInt8(p + 1, v), p += 2);
    else if (v >= -32768) (bytes[p] = 0xd1, view.setInt16(p + 1, v), p += 3);
    else (bytes[p] = 0xd2, view.setInt32(p + 1, v), p += 5);
  }
  return bytes.slice(0, p);
}

/** A msgpack array of ints (any form up to 32 bits whose value fits) -> Int32Array. */
export function unpackI32(bytes) {
  const [n, start] = readHeader(bytes);
  const { bytes: b, view } = S;
  const end = bytes.length;
  const out = new Int32Array(n);
  let p = start;
  for (let i = 0; i < n; i++) {
    if (p >= end) throw new RangeError('msgpack array cut short');
    const tag = b[p];
    let v;
    if (tag < 0x80) (v = tag, p += 1);
    else if (tag >= 0xe0) (v = tag - 256, p += 1);
    else if (tag === 0xcc) (v = b[p + 1], p += 2);
    else if (tag === 0xcd) (v = view.getUint16(p + 1), p += 3);
    else if (tag === 0xce) (v = view.getUint32(p + 1), p += 5);
    else if (tag === 0xd0) (v = view.getInt8(p + 1), p += 2);
    else if (tag === 0xd1) (v = view.getInt16(p + 1), p += 3);
    else if (tag === 0xd2) (v = view.getInt32(p + 1), p += 5);
    else throw new TypeError(`element ${i} is not an int of at most 32 bits`);
    if (v > 0x7fffffff) throw new RangeError(`element ${i} does not fit an Int32Array`);
    out[i] = v;
  }
  if (p > end) throw new RangeError('msgpack array cut short');
  return out;
}
