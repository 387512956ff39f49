// scan.js - where a msgpack value ends, found a few bytes at a time: how a
// stream waits for a whole value without decoding it again for every chunk.
//
// The scanner reads headers only (tags, lengths, counts) and keeps its place
// between calls: how many items each open array or map still holds, and
// where the next item starts, which may lie past the bytes seen so far (in a
// str, bin or ext payload still to come). A header cut by the end of the
// bytes is read again, whole, once more bytes are there. So each byte is
// looked at about once whatever the chunking, and the decoder then reads the
// whole value once.
//
// A header the decoder refuses on sight (the never-used tag 0xc1, a length
// beyond a max*Length option, nesting beyond maxDepth) stops the scan with
// LIMIT, so that the stream can let the decoder report it (with its path)
// without waiting for the bytes the value claims.

import { FIXED_SIZE } from '../tags.js';
import { be32 } from '../wire.js';

/** scan(): the value goes on past the bytes given. */
export const MORE = -1;
/** scan(): stopped at a header that the decoder's options refuse (see above). */
export const LIMIT = -2;

/** The end of one msgpack value in bytes that arrive a few at a time (one scanner per value: reset()). */
export class ValueScanner {
  /**
   * @param {object} limits the decoder's options: maxDepth, rawStrings and
   *   maxStrLength, maxBinLength, maxArrayLength, maxMapLength, maxExtLength
   */
  constructor(limits) {
    this.maxDepth = limits.maxDepth;
    this.outer = 0; // levels around the value (1: an element of a streamed array, readElements())
    this.maxStr = limits.maxStrLength;
    this.maxValueStr = limits.rawStrings ? limits.maxBinLength : limits.maxStrLength; // a str that is not a key
    this.maxBin = limits.maxBinLength;
    this.maxArray = limits.maxArrayLength;
    this.maxMap = limits.maxMapLength;
    this.maxExt = Math.min(limits.maxExtLength, limits.maxBinLength); // (an ext's payload is held to both: Decoder extLength())
    this.reset();
  }

  /** For a value that starts at byte 0. */
  reset() {
    this.next = 0; // where the next item starts (may be past the bytes seen)
    // Items still to come in each open container, innermost last; the top
    // value is the one item of a container of its own. A map counts its keys
    // and values (2n), so an item is a key where that count is even.
    this.left = [1];
    this.isMap = [false];
    this.checking = true; // LIMIT is reported (the stream turns it off once the decoder has looked)
  }

  /**
   * Reads on from where the last call stopped, in bytes[0, length) (the
   * bytes given before, and more). Returns where the value ends once all of
   * it is there; MORE; or LIMIT (the next call reads on past that header).
   */
  scan(bytes, length) {
    let p = this.next;
    const left = this.left;
    // (A top value is itself one level deeper than maxDepth allows at maxDepth 0: decode() refuses any.)
    if (this.outer >= this.maxDepth && this.checking && left.length === 1 && left[0] === 1 && p < length) return this.stop(p);
    while (left.length > 0 && p < length) {
      const tag = bytes[p];
      let size = FIXED_SIZE[tag];
      let count = -1; // an array or map header: its item count
      let map = false;
      if (tag >= 0xd4 && tag <= 0xd8) { // fixext 1-16: its payload is held to the limits too
        if (this.checking && size - 2 > this.maxExt) return this.stop(p);
      } else if (size === 0) {
        if (tag >= 0x80 && tag <= 0x9f) { // fixmap, fixarray
          count = tag & 0x0f;
          map = tag <= 0x8f;
          size = 1;
        } else if (tag >= 0xa0 && tag <= 0xbf) { // fixstr
          size = 1 + (tag & 0x1f);
          if (this.checking && this.strTooLong(tag & 0x1f)) return this.stop(p);
        } else if (tag === 0xc1) {
          if (this.checking) return this.stop(p);
          size = 1; // the decoder reports it once the value is here
        } else {
          const field = lengthFieldSize(tag);
          const headerEnd = p + 1 + field;
          if (headerEnd > length) break; // the header is cut: read again with more bytes
          const n = field === 1 ? bytes[p + 1] : field === 2 ? (bytes[p + 1] << 8) | bytes[p + 2] : be32(bytes, p + 1);
          if (tag >= 0xdc) { // array 16/32, map 16/32
            count = n;
            map = tag >= 0xde;
            size = 1 + field;
          } else {
            size = 1 + field + n + (tag >= 0xc7 && tag <= 0xc9 ? 1 : 0); // an ext has a type byte
            if (this.checking && this.payloadTooLong(tag, n)) return this.stop(p);
          }
        }
      }
      if (count > 0) {
        if (this.checking && this.containerRefused(map, count)) return this.stop(p);
        p += size;
        left.push(map ? 2 * count : count);
        this.isMap.push(map);
        continue;
      }
      p += size; // a whole item (an empty container too): the containers it completes close
      while (left.length > 0 && --left[left.length - 1] === 0) {
        left.pop();
        this.isMap.pop();
      }
    }
    this.next = p;
    return left.length === 0 && p <= length ? p : MORE;
  }

  /** How many items the open containers still hold (the one where the scan stopped among them): each takes a byte at least. */
  itemsLeft() {
    let items = 0;
    for (const n of this.left) items += n;
    return items;
  }

  /** Stops at the header at p (scan() reads it again next time). */
  stop(p) {
    this.next = p;
    return LIMIT;
  }

  /** Whether a str of n bytes here is longer than the decoder takes (a key: maxStrLength). */
  strTooLong(n) {
    const top = this.left.length - 1;
    const isKey = this.isMap[top] && this.left[top] % 2 === 0;
    return n > (isKey ? this.maxStr : this.maxValueStr);
  }

  payloadTooLong(tag, n) {
    if (tag >= 0xd9) return this.strTooLong(n); // str 8/16/32
    return n > (tag <= 0xc6 ? this.maxBin : this.maxExt); // bin 8/16/32, ext 8/16/32
  }

  /** An array or map of count > 0 items beyond its max*Length, or one level deeper than maxDepth allows. */
  containerRefused(map, count) {
    return count > (map ? this.maxMap : this.maxArray) || this.left.length + this.outer >= this.maxDepth;
  }

  /** From now on, each value scanned is an element of an array: one level deeper. */
  readElements() {
    this.outer = 1;
  }
}

/** Bytes of the length field after the tags whose size depends on it (bin, ext, str, array, map 8/16/32). */
function lengthFieldSize(tag) {
  switch (tag) {
    case 0xc4: case 0xc7: case 0xd9: return 1;
    case 0xc5: case 0xc8: case 0xda: case 0xdc: case 0xde: return 2;
    default: return 4; // 0xc6, 0xc9, 0xdb, 0xdd, 0xdf
  }
}
