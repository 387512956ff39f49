// tags.js - what a msgpack tag byte says on its own: its name, and the size of
// an item whose size the tag fixes. Read by the error messages, the stream
// scanner and anything else that needs these facts without decoding.

const TAG_NAMES = [
  [0x00, 0x7f, 'positive fixint'], [0x80, 0x8f, 'fixmap'], [0x90, 0x9f, 'fixarray'],
  [0xa0, 0xbf, 'fixstr'], [0xc0, 0xc0, 'nil'], [0xc1, 0xc1, 'never used'],
  [0xc2, 0xc3, 'bool'], [0xc4, 0xc6, 'bin'], [0xc7, 0xc9, 'ext'], [0xca, 0xca, 'float32'],
  [0xcb, 0xcb, 'float64'], [0xcc, 0xcf, 'uint'], [0xd0, 0xd3, 'int'], [0xd4, 0xd8, 'fixext'],
  [0xd9, 0xdb, 'str'], [0xdc, 0xdd, 'array'], [0xde, 0xdf, 'map'], [0xe0, 0xff, 'negative fixint'],
];

/** "0xc0 (nil)" - a byte as a reader of the msgpack spec would name it. */
export function describeTag(tag) {
  const entry = TAG_NAMES.find(([lo, hi]) => tag >= lo && tag <= hi);
  return `0x${tag.toString(16).padStart(2, '0')} (${entry[2]})`;
}

/**
 * Bytes of the whole item by its tag, where the tag fixes them (fixints,
 * nil, booleans, numbers, fixext): 0 for a tag whose item's size depends on
 * a length that follows it (str, bin, ext, array, map), for a fixstr, fixmap
 * and fixarray, and for 0xc1.
 */
export const FIXED_SIZE = /* @__PURE__ */ new Uint8Array(256).map((_, tag) => {
  if (tag < 0x80 || tag >= 0xe0 || tag === 0xc0 || tag === 0xc2 || tag === 0xc3) return 1;
  const sizes = {
    0xca: 5, 0xcb: 9, 0xcc: 2, 0xcd: 3, 0xce: 5, 0xcf: 9, 0xd0: 2, 0xd1: 3, 0xd2: 5, 0xd3: 9,
    0xd4: 3, 0xd5: 4, 0xd6: 6, 0xd7: 10, 0xd8: 18,
  };
  return sizes[tag] ?? 0;
});

/** Bytes of the header of a bin or an array (array16/32, bin8/16/32) from its tag; 1 for any other tag. */
export const headerSize = (tag) => (tag === 0xdc || tag === 0xc5 ? 3 : tag === 0xdd || tag === 0xc6 ? 5 : tag === 0xc4 ? 2 : 1); // (no object lookup: a polluted prototype has no say)
