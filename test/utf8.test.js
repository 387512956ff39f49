// js/codec/utf8.js's strict reader against a fatal TextDecoder, over the
// lengths where its routes change (ASCII eight chars at a time up to 16
// bytes, Node's latin1Slice above, a JS loop for other text, TextDecoder
// above 200 bytes): the same string for UTF-8, undefined where TextDecoder
// refuses.
import { expect, test } from 'vitest';
import { KeyCache, readUtf8 } from '../js/codec/utf8.js';
import { rng } from './rng.js';

const fatal = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const expected = (bytes) => {
  try {
    return fatal.decode(bytes);
  } catch {
    return undefined;
  }
};
const r = rng(8);
const ascii = (n) => Uint8Array.from({ length: n }, () => r.int(0x80));

/** readUtf8 of `bytes` placed at an offset inside a larger array, as a message holds them. */
function read(bytes) {
  const host = new Uint8Array(bytes.length + 7).fill(0xff);
  host.set(bytes, 3);
  return readUtf8(host, 3, 3 + bytes.length);
}

test('ASCII of every length to 210 bytes reads as TextDecoder reads it', () => {
  for (let n = 0; n <= 210; n++) {
    const bytes = ascii(n);
    expect(read(bytes), `${n} bytes`).toBe(expected(bytes));
  }
});

test('a wider char, or a byte that is not UTF-8, at every position of short and middle lengths', () => {
  const inserts = [[0xc3, 0xa9], [0xe2, 0x82, 0xac], [0xf0, 0x9f, 0x98, 0x80], [0x80], [0xff], [0xc0, 0x80], [0xed, 0xa0, 0x80], [0xe2, 0x82]];
  for (const n of [1, 2, 7, 8, 9, 15, 16, 17, 18, 33, 64]) {
    const base = ascii(n);
    for (let at = 0; at <= n; at++) {
      for (const insert of inserts) {
        const bytes = new Uint8Array([...base.subarray(0, at), ...insert, ...base.subarray(at)]);
        expect(read(bytes), `${n} bytes, ${insert} at ${at}`).toBe(expected(bytes));
      }
    }
  }
});

test('the key cache gives the same keys, remembered or not', () => {
  const cache = new KeyCache();
  for (let round = 0; round < 3; round++) {
    for (let n = 1; n <= 16; n++) {
      const bytes = n % 3 === 0 ? new Uint8Array([...ascii(n - 2), 0xc3, 0xa9]) : ascii(n);
      const host = new Uint8Array([0, ...bytes, 0]);
      expect(cache.decode(host, 1, bytes.length)).toBe(expected(bytes));
    }
  }
  expect(cache.decode(new Uint8Array([0x41, 0xff]), 0, 2)).toBeUndefined();
});
