// @ts-check
// A CommonJS JavaScript consumer, checked by tsc (allowJs, checkJs) as an
// editor checks it: require() destructured.
const { pack, unpack, createFastmpSync, FastmpError, encode, decode, Encoder } = require('fastmp-wasm');

/** @type {Uint8Array<ArrayBuffer>} */
const bytes = pack(new Float32Array([1]));
/** @type {Float32Array<ArrayBuffer>} */
const floats = unpack(bytes, Float32Array);
const fm = createFastmpSync();
/** @type {Uint16Array<ArrayBuffer>} */
const units = fm.decodeBMPToUint16(fm.encodeBMP('a'));

// Whole messages: the shape types the result in JavaScript too.
const message = encode({ embedding: floats });
/** @type {Float32Array<ArrayBuffer> | undefined} */
const embedding = decode(message, { shape: { embedding: Float32Array } }).embedding;
const again = new Encoder({ sortKeys: true }).encode(decode(message));

/** @param {unknown} e */
function where(e) {
  return e instanceof FastmpError ? `${e.code} at ${e.offset}` : '';
}

// @ts-expect-error: pack takes a typed array
pack([1]);
// @ts-expect-error: no such option
encode(floats, { typedArray: 'ext' });

module.exports = { bytes, floats, units, where, embedding, again };
