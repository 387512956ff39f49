// intrinsics.js - what the engine itself knows of a value, read through the
// intrinsic getters and brand checks captured when this module loads: a
// subclass or an own property cannot lie about a typed array's length, and a
// value of another realm is recognised by its brand, not instanceof. A leaf
// module: it imports nothing, so errors.js and args.js both build on it.

const TypedArrayPrototype = Object.getPrototypeOf(Uint8Array.prototype);
const intrinsicGetter = (prototype, key) => Object.getOwnPropertyDescriptor(prototype, key).get;
/**
 * The getter (method) of `key` on constructor C's prototype. Takes C, not its
 * prototype: a bundler keeps the arguments of a call it drops as unused, and
 * `C.prototype`, a property read, would stay on every page.
 */
const getterOf = (C, key) => intrinsicGetter(C.prototype, key);
const methodOf = (C, key) => Object.getOwnPropertyDescriptor(C.prototype, key).value;
const brandGetter = /* @__PURE__ */ intrinsicGetter(TypedArrayPrototype, Symbol.toStringTag);
const lengthGetter = /* @__PURE__ */ intrinsicGetter(TypedArrayPrototype, 'length');
const bufferGetter = /* @__PURE__ */ intrinsicGetter(TypedArrayPrototype, 'buffer');
const byteOffsetGetter = /* @__PURE__ */ intrinsicGetter(TypedArrayPrototype, 'byteOffset');
const byteLengthGetter = /* @__PURE__ */ intrinsicGetter(TypedArrayPrototype, 'byteLength');
const typedValues = TypedArrayPrototype.values;
const typedSet = TypedArrayPrototype.set;
const arrayBufferByteLength = /* @__PURE__ */ getterOf(ArrayBuffer, 'byteLength');
const sharedByteLength = typeof SharedArrayBuffer === 'function' ? intrinsicGetter(SharedArrayBuffer.prototype, 'byteLength') : null;

/** Whether a brand check passes: `getter` throws a TypeError for any other kind of object. */
function hasBrand(getter, v) {
  if (getter === null || v === null || typeof v !== 'object') return false;
  try {
    getter.call(v);
    return true;
  } catch {
    return false;
  }
}

/** 'Float32Array' for a typed array of any realm (a subclass, a Buffer: their base type), else undefined. */
export const typedArrayName = (x) => brandGetter.call(x);
/** A typed array's element count, as the engine knows it. */
export const lengthOf = (x) => lengthGetter.call(x);
/** A typed array's buffer, as the engine knows it. */
export const bufferOf = (x) => bufferGetter.call(x);
/** target.set(source, offset) through the intrinsic: no property of target or source is read. */
export const copyInto = (target, source, offset) => typedSet.call(target, source, offset);
/** A typed array's byte offset in its buffer, as the engine knows it. */
export const byteOffsetOf = (x) => byteOffsetGetter.call(x);

/** A typed array's size in bytes, as the engine knows it. */
export const byteLengthOf = (x) => byteLengthGetter.call(x);

/** Whether v is an ArrayBuffer (any realm; not a SharedArrayBuffer). */
export const isArrayBuffer = (v) => hasBrand(arrayBufferByteLength, v);
/** Whether v is a SharedArrayBuffer (any realm). */
export const isSharedArrayBuffer = (v) => hasBrand(sharedByteLength, v);
const mapSize = /* @__PURE__ */ getterOf(Map, 'size');
const setSize = /* @__PURE__ */ getterOf(Set, 'size');
/** Whether v is a Map (any realm, a subclass's too; not an object that only inherits from Map, nor a Proxy). */
export const isMap = (v) => hasBrand(mapSize, v);
/** Whether v is a Set, as isMap() asks. */
export const isSet = (v) => hasBrand(setSize, v);
const dateGetTime = /* @__PURE__ */ methodOf(Date, 'getTime');
/** A Date's time value (any realm; a subclass's own getTime is not asked), or undefined when v is no Date. */
export function dateTime(v) {
  try {
    return dateGetTime.call(v);
  } catch {
    return undefined;
  }
}
/**
 * Whether a typed array's buffer is shared, i.e. another thread may write it
 * while we read. Asked as "not an ArrayBuffer": the common case then throws
 * nothing; a SharedArrayBuffer of this realm is known first by instanceof,
 * which throws nothing either (a buffer whose prototype lies is copied, or
 * found out by its brand).
 */
const SharedBuffer = typeof SharedArrayBuffer === 'function' ? SharedArrayBuffer : null;
export const isShared = (buffer) => (SharedBuffer !== null && buffer instanceof SharedBuffer) || !isArrayBuffer(buffer);

// A DataView's, for the few checks that take any ArrayBuffer view.
const dataViewBuffer = /* @__PURE__ */ getterOf(DataView, 'buffer');
const dataViewByteLength = /* @__PURE__ */ getterOf(DataView, 'byteLength');
const dataViewByteOffset = /* @__PURE__ */ getterOf(DataView, 'byteOffset');

/** Whether v is a DataView (any realm; a detached one too). */
export const isDataView = (v) => hasBrand(dataViewBuffer, v);
/** The buffer of an ArrayBuffer view (a typed array or a DataView), as the engine knows it. */
export const viewBuffer = (view) => (typedArrayName(view) !== undefined ? bufferOf(view) : dataViewBuffer.call(view));
/** The byte offset of an ArrayBuffer view (a typed array or a DataView), as the engine knows it. */
export const viewByteOffset = (view) => (typedArrayName(view) !== undefined ? byteOffsetOf(view) : dataViewByteOffset.call(view));
/** The byte length of an ArrayBuffer view (a typed array or a DataView), as the engine knows it. */
export const viewByteLength = (view) => (typedArrayName(view) !== undefined ? byteLengthOf(view) : dataViewByteLength.call(view));
/** The bytes of an ArrayBuffer view (a typed array or a DataView) as a Uint8Array over the same memory. */
export function viewBytes(view) {
  if (typedArrayName(view) !== undefined) return new Uint8Array(bufferOf(view), byteOffsetOf(view), byteLengthOf(view));
  return new Uint8Array(dataViewBuffer.call(view), dataViewByteOffset.call(view), dataViewByteLength.call(view));
}

/**
 * Whether an ArrayBuffer view (typed array or DataView) has lost its bytes:
 * its buffer detached, or a resizable buffer shrank below it. (Only a view
 * of length 0 is asked further: a detached typed array reports 0.)
 */
export function isDetached(view) {
  if (typedArrayName(view) !== undefined) return lengthOf(view) === 0 && !hasBrand(typedValues, view);
  // (A DataView's buffer getter takes a detached one, its byteLength getter does not.)
  return isDataView(view) && !hasBrand(dataViewByteLength, view);
}

/** Whether a typed array's bytes can be read: not detached, and not a view past the end of a resizable buffer that shrank (values() validates both). */
export const hasUsableBytes = (x) => hasBrand(typedValues, x);
