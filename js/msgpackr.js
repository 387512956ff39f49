// msgpackr.js - the `fastmp-wasm/msgpackr` entry: makes msgpackr itself write
// typed arrays as standard msgpack arrays, by fastmp (its wasm kernels from 64
// elements on; below that, fastmp's own choice, mostly its pure-JS writer).
//
//   import * as msgpackr from 'msgpackr';
//   import { useFastmpForTypedArrays } from 'fastmp-wasm/msgpackr';
//   useFastmpForTypedArrays(msgpackr);
//   msgpackr.pack({ vec: new Float32Array([1, -0, 2.5]) }); // vec: 93 ca3f800000 ca80000000 ca40200000
//
// PROCESS-WIDE: msgpackr keeps one list of extensions per copy of msgpackr
// (msgpackr issue #93), so registering changes EVERY Packr of that msgpackr
// in the process - `pack`, `new Packr(...)`, other libraries' Packrs, and
// Packrs with `moreTypes` (which then no longer write ext 0x74 for these
// types). It cannot be undone. msgpackr's ESM and CommonJS builds are two
// copies with two lists: register the one whose `pack` you call (pass the
// module you imported or require()d).
//
// Written as a standard array, exactly the bytes `pack(x)` writes: every
// typed array of js/kinds.js but the bytes (and their subclasses), and a
// Float16Array where the engine has one (its values as float 32s). Floats keep
// their width and bits (-0, NaN payloads), integers take their smallest form,
// but for the positive fixints a Packr that writes records takes for record
// ids (writeTypedArray()), and but for a Float32Array in a Packr whose reader
// rounds every float32 it reads (useFloat32 DECIMAL_ROUND / DECIMAL_FIT):
// float 64s there (asDoubles()).
// Bytes are not registered: Uint8Array (and Buffer), Uint8ClampedArray, DataView and
// ArrayBuffer are written as msgpackr writes them (bin), as fastmp's own
// encode() and pack() write bytes.
//
// Decoding is msgpackr's own: it reads a standard array as a plain JS Array
// of numbers (its readArray has no hook, so no extension can change that). To
// get typed arrays back, decode with fastmp: `decode(bytes, { shape: { vec:
// Float32Array } })`, or `unpack(bytes, Float32Array)` for a bare array.
//
// Readiness: this module packs through the default instance (js/index.js),
// which works from the first call: until its kernels are loaded (in Node on
// the first call that needs them; on a page in the background, or by `await
// init()`), in pure JS.
//
// Registration is explicit, never a side effect of importing this module:
// fastmp-wasm does not depend on msgpackr (the caller passes theirs, whichever
// copy and version), the change is process-wide and should be visible where
// it is made, and bundlers drop side-effect-only imports of this package
// (package.json "sideEffects" lists only the Node entries).

import { HALF } from './codec/typed.js';
import { pack, packView, refresh } from './index.js';
import { isDetached, typedArrayName } from './intrinsics.js';
import { KINDS, kindOfName } from './kinds.js';

/**
 * The classes whose instances msgpackr will write as standard arrays: every
 * type pack() takes but the bytes ('u8'), so Float16Array too where the
 * engine has it (pack() writes its values as float 32s).
 */
const WRITTEN = /* @__PURE__ */ (() => {
  const types = KINDS.filter((k) => k.c !== 'u8').map((k) => k.Type);
  if (HALF.Type !== undefined) types.push(HALF.Type);
  return types;
})();
export const typedArrayClasses = /* @__PURE__ */ Object.freeze(WRITTEN);

// msgpackr's addExtension refuses a `pack` without a `type`, and also files
// the extension under `type` in its decoder's table. This extension never
// writes an ext (its pack returns nothing, see writer below), so the type is
// never emitted; it is chosen outside 0-255 because msgpackr's decoder looks
// its table up by the ext type byte it reads, so this entry is never consulted
// and registering replaces no decoder of a real ext type (0x74 included).
const UNUSED_EXT_TYPE = 0x1fa;

/**
 * msgpackr calls an extension's pack as `pack.call(packr, value,
 * allocateForWrite, pack)`; allocateForWrite(size) reserves `size` bytes in
 * msgpackr's own output buffer (growing it if need be) and returns
 * `{ target, targetView, position }`. What is written at target[position...]
 * is the value's encoding; returning nothing tells msgpackr to write nothing
 * else (a returned buffer would be wrapped as an ext of `type`).
 *
 * fastmp's kernels run in wasm and can only write into wasm memory, not into
 * msgpackr's buffer (a JS ArrayBuffer). So the nearest thing to writing in
 * place: from SMALL elements on, packView() - the elements are copied into
 * wasm memory (unless the array is one of fastmp's alloc() arrays), the
 * kernel writes the msgpack array into fastmp's reused scratch there, and that
 * output is copied once into msgpackr's buffer (packView's result is valid
 * until the next fastmp call; none runs before the copy, allocateForWrite is
 * msgpackr's own code). Below SMALL, pack(): fastmp writes in pure JS below
 * its own per-kind crossover (js/crossovers.js)
 * and in wasm with a copy out above it; either way a fresh small array, then
 * copied. Its per-call cost is lower than packView's (which tracks its view
 * for staleness), and for a small array the per-call cost is most of the
 * cost: a message of many small typed arrays packs faster with pack() below
 * SMALL than with packView() for all.
 */
const SMALL = 64;
function writeArray(typedArray, allocateForWrite) {
  write(packed(live(typedArray)), allocateForWrite);
}

/**
 * What every registered class is written by, called with the Packr as `this`:
 * an integer array as writeArray() writes it, but where
 * the Packr writes records, msgpackr takes the positive fixints from 0x40
 * (0x20 with its structs) for record ids, and writes those numbers as a
 * uint 8; so are they written here, the rest as pack() writes it.
 */
function writeTypedArray(typedArray, allocateForWrite) {
  // The array's brand decides, not the class msgpackr matched by instanceof
  // (which a prototype set by hand fools): floats, and bytes (a bin), have no
  // fixints to tag.
  const name = typedArrayName(typedArray);
  const kind = kindOfName(name);
  if ((kind?.c === 'f32' || name === HALF.name) && this?.useFloat32 > 2) return writeArray(asDoubles(typedArray), allocateForWrite);
  if (kind === undefined || kind.float || kind.c === 'u8') return writeArray(typedArray, allocateForWrite);
  const from = this?.useRecords === false ? 0x80 : this?._writeStruct ? 0x20 : 0x40; // (msgpackr's pack.js: a positive int's form)
  const bytes = packed(live(typedArray));
  write(from < 0x80 ? withTaggedFixints(bytes, from) : bytes, allocateForWrite);
}

function write(bytes, allocateForWrite) {
  const { target, position } = allocateForWrite(bytes.length);
  target.set(bytes, position);
}

const packed = (typedArray) => (typedArray.length < SMALL ? pack(typedArray) : packedView(typedArray));

/**
 * The array as it can be packed: an alloc() array whose view a growth of
 * wasm memory detached (this message's earlier fields are fastmp calls, and
 * may grow it) is found again where it lives, as refresh() finds it; any
 * other array as it is (a detached one is then refused as pack() refuses it).
 */
function live(typedArray) {
  if (!isDetached(typedArray)) return typedArray;
  try {
    return refresh(typedArray);
  } catch (e) {
    if (e instanceof TypeError) return typedArray; // (not an alloc() array)
    throw e;
  }
}

/**
 * A Float32Array's (or Float16Array's) values as a Float64Array, for a Packr with useFloat32
 * DECIMAL_ROUND or DECIMAL_FIT, whose reader rounds every float32 it reads to
 * the decimal digits a float32 holds (NaN and ±Infinity read 0, 16777216
 * 16777220): as float 64s they read back exactly. A detached array as it is,
 * for pack() to refuse.
 */
function asDoubles(typedArray) {
  const x = live(typedArray);
  return isDetached(x) ? x : new Float64Array(x);
}

/** Bytes per element of a standard array of ints, by its tag (js/wire.js's forms): fixints 1, 0xcc-0xcf and 0xd0-0xd3 their widths. */
const INT_ELEMENT_SIZE = { 0xcc: 2, 0xcd: 3, 0xce: 5, 0xcf: 9, 0xd0: 2, 0xd1: 3, 0xd2: 5, 0xd3: 9 };

/** bytes (a standard msgpack array of ints) with each positive fixint from `from` on as a uint 8 (0xcc, then the byte). */
function withTaggedFixints(bytes, from) {
  const head = bytes[0] === 0xdc ? 3 : bytes[0] === 0xdd ? 5 : 1;
  let tagged = 0;
  for (let p = head; p < bytes.length;) {
    const b = bytes[p];
    if (b < 0x80 || b >= 0xe0) {
      if (b >= from && b < 0x80) tagged++;
      p++;
    } else {
      p += INT_ELEMENT_SIZE[b];
    }
  }
  if (tagged === 0) return bytes;
  const out = new Uint8Array(bytes.length + tagged);
  out.set(bytes.subarray(0, head));
  let q = head;
  for (let p = head; p < bytes.length;) {
    const b = bytes[p];
    const size = b < 0x80 || b >= 0xe0 ? 1 : INT_ELEMENT_SIZE[b];
    if (b >= from && b < 0x80) out[q++] = 0xcc;
    out.set(bytes.subarray(p, p + size), q);
    p += size;
    q += size;
  }
  return out;
}

/** packView(), or pack() while the kernels are still loading (a page that has not awaited init()). */
function packedView(typedArray) {
  try {
    return packView(typedArray);
  } catch (e) {
    if (e?.code !== 'NOT_READY') throw e;
    return pack(typedArray);
  }
}

// The addExtension functions registered through, so that a second call for
// the same msgpackr copy is a no-op (a second registration would only put a
// duplicate in front of msgpackr's list, but msgpackr scans that list for
// every object it packs that is not a plain Object, Array or Map).
const registered = new WeakSet();

/**
 * Registers, with the msgpackr passed (the module, or any object holding its
 * addExtension), an extension per class in typedArrayClasses that writes the
 * array as a standard msgpack array by fastmp. Process-wide for
 * that copy of msgpackr (see the top of this file). Idempotent: returns true
 * when it registered, false when that msgpackr was already registered.
 */
export function useFastmpForTypedArrays(msgpackr) {
  const addExtension = msgpackr?.addExtension;
  if (typeof addExtension !== 'function') {
    throw new TypeError("useFastmpForTypedArrays(msgpackr): pass the msgpackr module (import * as msgpackr from 'msgpackr'), or an object with its addExtension");
  }
  if (registered.has(addExtension)) return false;
  // addExtension puts each extension in front of msgpackr's list, which it
  // tries in order: registered in reverse, Float32Array is tried first.
  for (const Type of [...WRITTEN].reverse()) {
    addExtension({ Class: Type, type: UNUSED_EXT_TYPE, pack: writeTypedArray }); // (which writes floats as writeArray() does)
  }
  registered.add(addExtension);
  return true;
}
