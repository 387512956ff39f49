// timestamp.js - Date <-> the msgpack timestamp extension (type -1) in its
// three forms: 32 bits (whole seconds up to 2^32-1), 64 bits (nanoseconds and
// seconds up to 2^34-1), 96 bits (anything else). The functions and the
// choice of form are @msgpack/msgpack's, so the bytes are too.

import { dateTime } from '../args.js';
import { impostorError, inputError } from './path.js';

export const EXT_TIMESTAMP = -1;

const TIMESTAMP32_MAX_SEC = 0x100000000 - 1;
const TIMESTAMP64_MAX_SEC = 0x400000000 - 1;

/**
 * @typedef {object} TimeSpec
 * @property {number} sec  seconds since the epoch (may be negative)
 * @property {number} nsec nanoseconds, 0 to 999 999 999
 */

/** @param {Date} date @returns {TimeSpec} (an invalid Date gives NaNs, which write as 0 like @msgpack/msgpack) */
export function encodeDateToTimeSpec(date) {
  return timeSpecOf(date.getTime());
}

/**
 * The TimeSpec of a Date met in a message, from its own time value (the
 * intrinsic getTime: a subclass cannot lie); an object that only inherits
 * from Date is a TYPE error at `offset` (the encoder adds the path).
 */
export function timeSpecOfDate(date, offset = -1) {
  const msec = dateTime(date);
  if (msec === undefined) throw impostorError(date, 'Date', offset);
  return timeSpecOf(msec);
}

/** @param {number} msec milliseconds since the epoch @returns {TimeSpec} */
function timeSpecOf(msec) {
  const sec = Math.floor(msec / 1e3);
  const nsec = (msec - sec * 1e3) * 1e6;
  const carry = Math.floor(nsec / 1e9);
  return { sec: sec + carry, nsec: nsec - carry * 1e9 };
}

/** Bytes of the timestamp payload for a TimeSpec: 4, 8 or 12. */
export function timestampSize({ sec, nsec }) {
  if (sec >= 0 && nsec >= 0 && sec <= TIMESTAMP64_MAX_SEC) return nsec === 0 && sec <= TIMESTAMP32_MAX_SEC ? 4 : 8;
  return 12;
}

/** Writes the payload of `size` (timestampSize(spec)) bytes at view[p]. */
export function writeTimeSpec(view, p, spec, size) {
  const { sec, nsec } = spec;
  if (size === 4) {
    view.setUint32(p, sec);
  } else if (size === 8) {
    view.setUint32(p, (nsec << 2) | ((sec / 0x100000000) & 0x3));
    view.setUint32(p + 4, sec & 0xffffffff);
  } else {
    view.setUint32(p, nsec);
    view.setUint32(p + 4, Math.floor(sec / 0x100000000));
    view.setUint32(p + 8, sec);
  }
}

/** @param {TimeSpec} spec @returns {Uint8Array} the timestamp payload */
export function encodeTimeSpecToTimestamp({ sec, nsec }) {
  const spec = { sec, nsec }; // (each field read once, and its form chosen once, as @msgpack/msgpack does: a getter or valueOf() may answer otherwise the next time)
  const size = timestampSize(spec);
  const out = new Uint8Array(size);
  writeTimeSpec(new DataView(out.buffer), 0, spec, size);
  return out;
}

/** The timestamp payload of a Date, or null for anything else (an extension encoder; a Date of another realm is the encoder's to find). */
export function encodeTimestampExtension(value) {
  return value instanceof Date ? encodeTimeSpecToTimestamp(timeSpecOfDate(value)) : null;
}

/** @param {Uint8Array} data a timestamp payload @returns {TimeSpec} */
export function decodeTimestampToTimeSpec(data) {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  switch (data.byteLength) {
    case 4:
      return { sec: view.getUint32(0), nsec: 0 };
    case 8: {
      const high = view.getUint32(0);
      return { sec: (high & 0x3) * 0x100000000 + view.getUint32(4), nsec: high >>> 2 };
    }
    case 12:
      return { sec: view.getInt32(4) * 0x100000000 + view.getUint32(8), nsec: view.getUint32(0) };
    default:
      throw inputError('EXT', `unrecognized data size for timestamp: a timestamp (ext -1) holds 4, 8 or 12 bytes, not ${data.byteLength}`, -1);
  }
}

/** @param {Uint8Array} data a timestamp payload @returns {Date} */
export function decodeTimestampExtension(data) {
  const { sec, nsec } = decodeTimestampToTimeSpec(data);
  return new Date(sec * 1e3 + nsec / 1e6);
}

export const timestampExtension = Object.freeze({
  type: EXT_TIMESTAMP,
  encode: encodeTimestampExtension,
  decode: decodeTimestampExtension,
});
