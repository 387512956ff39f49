// path.js - where in a message an error happened: `$.frames[3].accel`. Nothing
// is tracked while things go well: each array and map level catches an error
// on its way out, adds its own segment, and rethrows; the outermost call
// writes the path into the error once (err.path and the message's start).

import { describe } from '../args.js';
import { FastmpError, NO_INDEX } from '../errors.js';

const SEGMENTS = Symbol('fastmp.pathSegments');
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** A FastmpError for the codec: `offset` is a byte offset in the input (decode) or output (encode). */
export const codecError = (code, message, offset, extra) => {
  const err = new FastmpError(code, `fastmp: ${message}`, NO_INDEX, offset);
  if (extra !== undefined) Object.assign(err, extra);
  return err;
};

/** The TYPE error of an object that only inherits from `name` (Map, Set, Date) without being one. */
export const impostorError = (value, name, offset) => codecError('TYPE', `cannot encode ${describe(value)}: it inherits from ${name} but is not one`, offset);

/** The segment of a map key that could not be read: `{key 3}` (the 4th entry's key). */
export class KeySegment {
  constructor(index) {
    this.index = index;
  }
}

/** The segment of a Map entry whose key is neither a string nor a number: `{entry 3}` (the 4th entry's value). */
export class EntrySegment {
  constructor(index) {
    this.index = index;
  }
}

/** Adds one segment (an array index or a map key) to an error passing outwards; returns it. */
export function addSegment(err, segment) {
  if (err instanceof FastmpError) (err[SEGMENTS] ??= []).push(segment);
  return err;
}

/**
 * Writes the collected path into the error: err.path = '$.a[1]' and the
 * message starts with it. Errors of user code (extensions, getters) pass
 * through untouched.
 */
export function withPath(err) {
  if (isStackOverflow(err)) err = codecError('DEPTH', 'value nested too deep for the engine\'s stack (lower maxDepth)', -1);
  if (!(err instanceof FastmpError) || err.path !== undefined) return err;
  const segments = err[SEGMENTS] ?? [];
  let path = '$';
  for (let i = segments.length - 1; i >= 0; i--) path += formatSegment(segments[i]);
  err.path = path;
  err.message = err.message.startsWith('fastmp: ')
    ? `fastmp: at ${path}: ${err.message.slice(8)}`
    : `fastmp: at ${path}: ${err.message}`;
  delete err[SEGMENTS];
  return err;
}

/** The engine's own stack overflow: only reachable with a very large maxDepth. */
const isStackOverflow = (err) => err instanceof RangeError && /call stack/i.test(err.message);

function formatSegment(s) {
  if (typeof s === 'number') return `[${s}]`;
  if (s instanceof KeySegment) return `{key ${s.index}}`;
  if (s instanceof EntrySegment) return `{entry ${s.index}}`;
  const key = String(s);
  return IDENTIFIER.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`;
}

/** A value as an error message shows it (without running any of its code): args.js describe(). */
export { describe as show } from '../args.js';
