// args.js - checks of the arguments every API function shares: wrong types
// are TypeErrors, offsets out of range RangeErrors, each naming the function.

/** "an Int32Array", "a Uint8Array": a name with its article. */
export const withArticle = (name) => `${/^[aeiou]/i.test(name) ? 'an' : 'a'} ${name}`;

/** "a Float32Array", "an Array", "null": a value as an error message names it. */
export function describe(v) {
  if (v === null) return 'null';
  if (typeof v === 'function') return v.name ? `the function ${v.name}` : 'a function';
  return withArticle(typeof v === 'object' ? v.constructor?.name ?? 'object' : typeof v);
}

/** Input bytes: a Uint8Array (a Buffer too), or a whole ArrayBuffer / SharedArrayBuffer. */
export function asBytes(bytes, fn) {
  if (bytes instanceof Uint8Array) return bytes;
  if (bytes instanceof ArrayBuffer || (typeof SharedArrayBuffer !== 'undefined' && bytes instanceof SharedArrayBuffer)) {
    return new Uint8Array(bytes);
  }
  throw new TypeError(`fastmp: ${fn}() takes a Uint8Array (or an ArrayBuffer), not ${describe(bytes)}`);
}

/** An offset into `bytes`: an integer from 0 to its length. */
export function asOffset(offset, bytes, fn) {
  if (!Number.isSafeInteger(offset) || offset < 0 || offset > bytes.length) {
    throw new RangeError(`fastmp: ${fn}() offset must be an integer from 0 to ${bytes.length}, not ${String(offset)}`);
  }
  return offset;
}

/** An options object whose keys are all known (undefined: no options). */
export function asOptions(options, fn, known) {
  if (options === undefined) return {};
  if (options === null || typeof options !== 'object') throw new TypeError(`fastmp: ${fn}() options must be an object, not ${describe(options)}`);
  for (const key of Object.keys(options)) {
    if (!known.includes(key)) throw new TypeError(`fastmp: ${fn}() has no option '${key}' (it knows: ${known.join(', ')})`);
  }
  return options;
}
