// outputs.js - the fresh arrays every call returns. Each has its own
// ArrayBuffer, which the caller owns. From UNINIT_FROM bytes on, Node
// allocates an uninitialised ArrayBuffer and copies into it faster than it
// allocates a zero-filled one (what `new Uint8Array` and `slice` do); below,
// the zero-filled one is as fast or faster (bench/run.js times the outputs of
// every size). Every byte is written before the caller sees the array. The
// result is a plain typed array, never a Buffer (whose slice() would not copy).

import { NodeBuffer } from '../runtime.js';

const UNINIT_FROM = 4096;

/** A fresh Uint8Array of `size` bytes, with its own ArrayBuffer, contents undefined. */
export function freshBytes(size) {
  if (NodeBuffer === null || size < UNINIT_FROM) return new Uint8Array(size);
  return new Uint8Array(NodeBuffer.allocUnsafeSlow(size).buffer);
}

/**
 * A fresh kind.Type array of n elements, contents undefined (freshBytes()).
 * Its size is the engine's to refuse (Node: 2^32 bytes), wasm32 memory's no
 * longer: a RangeError that says so, not the engine's own.
 */
export function freshOutput(kind, n) {
  const bytes = n * kind.Type.BYTES_PER_ELEMENT;
  try {
    return new kind.Type(freshBytes(bytes).buffer);
  } catch (e) {
    if (!(e instanceof RangeError)) throw e;
    throw new RangeError(`fastmp: ${n} elements of a ${kind.Type.name} take ${bytes} bytes, more than a typed array can hold in this engine`, { cause: e });
  }
}

/** A fresh copy of view[start, end), of the view's own type. */
export function copyOut(view, start, end) {
  const bytes = (end - start) * view.BYTES_PER_ELEMENT;
  if (NodeBuffer === null || bytes < UNINIT_FROM) return view.slice(start, end);
  const out = new view.constructor(NodeBuffer.allocUnsafeSlow(bytes).buffer);
  out.set(view.subarray(start, end));
  return out;
}
