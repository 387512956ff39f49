// audit-bounds2.test.js - the second bounds audit: what a length or a count
// in the input can make fastmp hold. Each describe() but the last is a finding
// that failed on 59c446b (and on a6ee764):
// 1. In streams, a fixext (0xd4-0xd8) beyond maxExtLength / maxBinLength was
//    not refused on sight, as every other header the options refuse is: the
//    scanner (js/codec/scan.js) took it as a fixed-size item and waited for
//    what followed (a str 32 of 1e9 bytes after it: all of it held).
// 2. In streams, a header the options refuse inside an array or map whose
//    count the bytes so far do not hold (an array 32 of 2^32-1 elements) was
//    never refused: the decoder checks that count first (LENGTH), so the
//    stream held every byte sent, where messages.md says the limits apply
//    "as soon as a header shows them, before the bytes it claims arrive".
// (decodeFrom()'s scan of a shared input, which held memory for every level
// of nesting, this audit found too; a6ee764 fixed it, audit-concurrency2
// holds it.)
import { describe, expect, test } from 'vitest';
import * as codec from '../js/codec/index.js';
import { FastmpError, createFastmpSync, decode, decodeArrayStream, decodeAsync, decodeMultiStream, init, mapOf } from '../js/node.js';
import { catchError, chunksOf, collect, rejection } from './messages-helpers.js';

await init();

/** Sends `prefix` a byte a chunk, then up to 1 MB of nils; what the stream made of it, and how many bytes had been sent. */
async function fed(decodeFn, prefix, options) {
  let sent = 0;
  async function* source() {
    for (const b of prefix) {
      sent++;
      yield Uint8Array.of(b);
    }
    const filler = new Uint8Array(4096).fill(0xc0);
    for (let i = 0; i < 256; i++) {
      sent += filler.length;
      yield filler;
    }
  }
  const err = await rejection(collect(decodeFn(source(), options)));
  return { err, sent };
}

const multi = (s, o) => decodeMultiStream(s, o);
const one = (s, o) => (async function* () { yield await decodeAsync(s, o); })();
const str32 = [0xdb, 0x3b, 0x9a, 0xca, 0x00]; // a str of 1e9 bytes
const fixext16 = [0xd8, 0x05, ...new Array(16).fill(1)];
const many = [0xdd, 0xff, 0xff, 0xff, 0xff]; // an array 32 of 2^32-1 elements
const manyEntries = [0xdf, 0xff, 0xff, 0xff, 0xff]; // a map 32 of 2^32-1 entries

describe('1: in streams, a fixext beyond maxExtLength or maxBinLength is refused on sight (js/codec/scan.js)', () => {
  test.each([
    ['maxExtLength 8', { maxExtLength: 8 }],
    ['maxBinLength 15', { maxBinLength: 15 }],
  ])('%s: a fixext 16 in an array of two, then a str 32 of 1e9 bytes: MAX_LENGTH before 64 KB are sent', async (_, options) => {
    const prefix = [0x92, ...fixext16, ...str32];
    expect(catchError(() => decode(Uint8Array.from([0x92, ...fixext16, 0xc0]), options))).toMatchObject({ code: 'MAX_LENGTH', path: '$[0]' });
    for (const fn of [multi, one]) {
      const { err, sent } = await fed(fn, prefix, options);
      expect(err).toMatchObject({ code: 'MAX_LENGTH', path: '$[0]', offset: 1 });
      expect(sent).toBeLessThan(1 << 16); // 1 MB and more on 59c446b: the str's bytes waited for
    }
  });
});

describe('2: in streams, limits apply on sight inside an array or map that claims more than has come (js/codec/stream.js)', () => {
  const cases = [
    ['a str 32 beyond maxStrLength, first in an array 32 of 2^32-1', { maxStrLength: 100 }, [...many, ...str32], '$[0]', 'MAX_LENGTH'],
    ['a map key beyond maxStrLength in a map 32', { maxStrLength: 100 }, [...manyEntries, ...str32], '${key 0}', 'MAX_LENGTH'],
    ['a value beyond maxStrLength in a map 32', { maxStrLength: 100 }, [...manyEntries, 0xa1, 0x61, ...str32], '$.a', 'MAX_LENGTH'],
    ['a bin 32 beyond maxBinLength four levels down', { maxBinLength: 100 }, [0x93, 1, 0xdc, 0xff, 0xff, 2, 0x81, 0xa1, 0x6b, ...many, 0xc6, 0x3b, 0x9a, 0xca, 0x00], '$[1][1].k[0]', 'MAX_LENGTH'],
    ['a fixext beyond maxExtLength in an array 32', { maxExtLength: 8 }, [...many, ...fixext16], '$[0]', 'MAX_LENGTH'],
    ['nesting beyond maxDepth in a map 32', { maxDepth: 3 }, [...manyEntries, 0xa1, 0x61, 0x91, 0x91, 0x91, 1], '$.a[0]', 'DEPTH'],
    ['a shaped field beyond maxArrayLength in a map 32', { shape: { v: Float32Array }, maxArrayLength: 100 }, [...manyEntries, 0xa1, 0x76, 0xdd, 0, 0, 1, 0], '$.v', 'MAX_LENGTH'],
    ['a key beyond maxStrLength in a mapOf() map 32', { shape: mapOf(Float32Array), maxStrLength: 100 }, [...manyEntries, ...str32], '${key 0}', 'MAX_LENGTH'],
  ];
  test.each(cases)('%s: refused before 64 KB are sent', async (_, options, prefix, path, code) => {
    for (const fn of [multi, one]) {
      const { err, sent } = await fed(fn, prefix, options);
      expect(err).toBeInstanceOf(FastmpError);
      expect(err).toMatchObject({ code, path, streamOffset: 0 }); // LENGTH at $ on 59c446b, after all of it
      expect(sent).toBeLessThan(1 << 16); // 1 MB (all of it) on 59c446b
    }
  });

  test('decodeArrayStream: an element that claims 2^32-1 elements around a str beyond maxStrLength', async () => {
    const { err, sent } = await fed((s, o) => decodeArrayStream(s, o), [0x92, 7, ...many, ...str32], { maxStrLength: 100 });
    expect(err).toMatchObject({ code: 'MAX_LENGTH', path: '$[1][0]' });
    expect(sent).toBeLessThan(1 << 16);
  });

  test('on every backend and the pure-JS codec', async () => {
    for (const m of [createFastmpSync({ backend: 'simd', pureJs: 'never' }), createFastmpSync({ backend: 'js' }), codec]) {
      const { err, sent } = await fed((s, o) => m.decodeMultiStream(s, o), [...many, ...str32], { maxStrLength: 100 });
      expect(err).toMatchObject({ code: 'MAX_LENGTH', path: '$[0]' });
      expect(sent).toBeLessThan(1 << 16);
    }
  });
});

describe('what the fixes must keep right: limits at their boundary in streams, at every cut', () => {
  // The value at the limit is read, one byte more is refused, whatever the chunking; a
  // LIMIT the decoder lets through (a shaped field at maxDepth) is no error.
  const values = [
    ['fixext 16 at maxExtLength', [0x92, ...fixext16, 0xc0], 'maxExtLength', 16, {}],
    ['fixext 1 at maxBinLength', [0x91, 0xd4, 0x05, 0x01], 'maxBinLength', 1, {}],
    ['a str in an array 16', [0xdc, 0x00, 0x02, 0xa3, 0x61, 0x62, 0x63, 0xc0], 'maxStrLength', 3, {}],
    ['a key in a map 16', [0xde, 0x00, 0x01, 0xa2, 0x6b, 0x6b, 0x01], 'maxStrLength', 2, {}],
    ['nesting', [0x92, 0x91, 0x91, 0x90, 0xc0], 'maxDepth', 4, {}],
    ['a shaped field', [0x82, 0xa1, 0x61, 0x01, 0xa1, 0x76, 0x92, 0x01, 0x02], 'maxArrayLength', 2, { shape: { v: Float32Array } }],
  ];
  test.each(values)('%s', async (_, bytes, option, max, base) => {
    const input = Uint8Array.from(bytes);
    const atMax = { ...base, [option]: max };
    const below = { ...base, [option]: max - 1 };
    const want = decode(input, atMax);
    expect(catchError(() => decode(input, below)).code).toBe(option === 'maxDepth' ? 'DEPTH' : 'MAX_LENGTH');
    for (let cut = 1; cut <= input.length; cut++) {
      expect(await collect(decodeMultiStream(chunksOf(input, [cut]), atMax)), `cut ${cut}`).toEqual([want]);
      const err = await rejection(collect(decodeMultiStream(chunksOf(input, [cut]), below)));
      expect(err.code, `cut ${cut}`).toBe(option === 'maxDepth' ? 'DEPTH' : 'MAX_LENGTH');
    }
  });

  test('a shaped field at maxDepth, in a map that claims more entries than have come, is read (no false refusal)', async () => {
    const options = { shape: { v: Float32Array }, maxDepth: 2 };
    const bytes = Uint8Array.from([0x82, 0xa1, 0x76, 0x92, 0x01, 0x02, 0xa1, 0x77, 0xc0]);
    const want = decode(bytes, options);
    for (let cut = 1; cut <= bytes.length; cut++) {
      expect(await collect(decodeMultiStream(chunksOf(bytes, [cut]), options)), `cut ${cut}`).toEqual([want]);
    }
  });
});
