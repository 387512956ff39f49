// path.js - where in a message an error happened: `$.frames[3].accel`. Nothing
// is tracked while things go well: each array and map level catches an error
// on its way out, adds its own segment, and rethrows; the outermost call
// writes the path into the error once (err.path and the message's start).

import { describe } from '../args.js';
import { FastmpError, NO_INDEX, decodeError } from '../errors.js';

const SEGMENTS = Symbol('fastmp.pathSegments');
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** A FastmpError of the encoder (`offset`: in the output) or of misuse. */
export const codecError = (code, message, offset, extra) => withExtra(new FastmpError(code, `fastmp: ${message}`, NO_INDEX, offset), extra);

/** A DecodeError (errors.js decodeError: a RangeError too for input cut short or going on) of the decoder; `offset`: in the input. */
export const inputError = (code, message, offset, extra) => withExtra(decodeError(code, `fastmp: ${message}`, NO_INDEX, offset), extra);

function withExtra(err, extra) {
  if (extra !== undefined) Object.assign(err, extra);
  return err;
}

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

/**
 * The engine's stack overflows passing outwards through the codec's arrays
 * and maps: how many levels each has passed (addSegment(); a WeakMap, so that
 * the error itself is untouched). withPath() tells by it the codec's own
 * recursion from the caller's code (a getter, an extension) that ran out of
 * stack by itself.
 */
const OVERFLOW_LEVELS = new WeakMap();

/**
 * The levels a stack overflow must have passed to be the codec's own: more
 * than maxDepth's default lets a value have. (The codec at 100 levels is far
 * from any engine's stack limit: an overflow there is the caller's code, or
 * a caller that was already that deep.)
 */
const OWN_OVERFLOW_LEVELS = 100;

/** Adds one segment (an array index or a map key) to an error passing outwards; returns it. */
export function addSegment(err, segment) {
  if (err instanceof FastmpError) {
    if (Object.isExtensible(err)) (err[SEGMENTS] ??= []).push(segment);
  } else if (isStackOverflow(err)) {
    OVERFLOW_LEVELS.set(err, (OVERFLOW_LEVELS.get(err) ?? 0) + 1);
  }
  return err;
}

/**
 * An error thrown by the caller's code (an extension's encode or decode)
 * that the item at `offset` ran: a FastmpError is located at that item, in
 * this call's input (or output), and gets this call's path. One that a
 * fastmp call of that code made located in its own input (a nested
 * decode() of the payload) keeps that place in its message only, after
 * this call's path; its `needed` was for that input. Any other error, and a
 * frozen one, passes untouched.
 */
export function fromCallerCode(err, offset) {
  if (err instanceof FastmpError && Object.isExtensible(err)) {
    err.offset = offset;
    delete err.path;
    delete err.needed;
    delete err[SEGMENTS];
  }
  return err;
}

/**
 * Writes the collected path into the error: err.path = '$.a[1]' and the
 * message starts with it. Errors of user code (extensions, getters) pass
 * through untouched, the engine's stack overflow in them too. (The codec's
 * own overflow, deeper than OWN_OVERFLOW_LEVELS, becomes a DEPTH error: with
 * `decoding`, a DecodeError.)
 */
export function withPath(err, decoding = false) {
  if (isStackOverflow(err) && OVERFLOW_LEVELS.get(err) > OWN_OVERFLOW_LEVELS) {
    err = (decoding ? inputError : codecError)('DEPTH', 'value nested too deep for the engine\'s stack (lower maxDepth)', -1);
  }
  if (!(err instanceof FastmpError) || err.path !== undefined || !Object.isExtensible(err)) return err;
  const segments = err[SEGMENTS] ?? [];
  let path = '$';
  for (let i = segments.length - 1; i >= 0; i--) path += formatSegment(segments[i]);
  err.path = path;
  // (A path of more than 200 chars, a key of megabytes say, is cut in the message. No regular
  // expression here: V8 compiles one when it first runs, which near the stack's limit throws.)
  const message = err.message.startsWith('fastmp: ') ? err.message.slice(8) : err.message;
  err.message = `fastmp: at ${path.length > 200 ? `${path.slice(0, 200)}…` : path}: ${message}`;
  delete err[SEGMENTS];
  return err;
}

/**
 * What input that is text, not msgpack, looks like (a wrong endpoint, a JSON
 * body, an HTML error page): a sentence for an error message, or ''. Text
 * decodes as a small int (its first char) followed by bytes: the error alone
 * would send one looking for a prefix.
 */
export function textHint(bytes) {
  const n = Math.min(bytes.length, 48);
  const first = bytes[0];
  if (!(first >= 0x20 && first < 0x7f) && !(first >= 0x09 && first <= 0x0d)) return '';
  let sample = '';
  for (let i = 0; i < n; i++) {
    const b = bytes[i];
    if (b === 0x7f || (b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d)) return ''; // a control char: not text
    sample += b < 0x80 ? String.fromCharCode(b) : '\ufffd';
  }
  const char = sample.trimStart()[0] ?? '';
  const quoted = JSON.stringify(sample.trim().slice(0, 24));
  const what = char === '<' ? 'HTML or XML (an error page, a wrong URL?)' : char !== '' && '{["'.includes(char) ? 'JSON text (meant for JSON.parse()?)' : 'text';
  return `: the input looks like ${what}, not MessagePack: it starts ${quoted}`;
}

/**
 * The engine's stack overflow (the codec's own only with a very large
 * maxDepth; addSegment() counts its levels): V8's and JavaScriptCore's
 * RangeError. Told by includes(), not a regular expression: V8 compiles one
 * when it first runs, which at the stack's limit throws a SyntaxError (Node
 * 24, Chromium). (SpiderMonkey's InternalError, "too much recursion", is not
 * taken for one: it passes through as the engine threw it.)
 */
const isStackOverflow = (err) => err instanceof RangeError && String(err.message).includes('call stack');

function formatSegment(s) {
  if (typeof s === 'number') return `[${s}]`;
  if (s instanceof KeySegment) return `{key ${s.index}}`;
  if (s instanceof EntrySegment) return `{entry ${s.index}}`;
  const key = String(s);
  return IDENTIFIER.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`;
}

/** A value as an error message shows it (without running any of its code): args.js describe(). */
export { describe as show } from '../args.js';
