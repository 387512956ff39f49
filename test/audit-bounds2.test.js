// audit-bounds2.test.js - the second bounds audit: what a length or a count
// in the input can make fastmp hold. The first describe() is a finding
// that failed on 59c446b (and on a6ee764):
// 1. In streams, a fixext (0xd4-0xd8) beyond maxExtLength / maxBinLength was
//    not refused on sight, as every other header the options refuse is: the
//    scanner (js/codec/scan.js) took it as a fixed-size item and waited for
//    what followed (a str 32 of 1e9 bytes after it: all of it held).
// (Also found, and not fixed: in streams, a header the options refuse inside
//    an array or map whose count the bytes so far do not hold (an array 32
//    of 2^32-1 elements) is refused only once the container's items have
//    come, since the decoder checks that count first (LENGTH). The audit's
//    fix, a decode of the tail with the open counts cut, made a stream that
//    then ends report MAX_LENGTH where decodeMulti() of the same bytes
//    reports LENGTH: messages-fuzz.test.js holds them equal.)
// (decodeFrom()'s scan of a shared input, which held memory for every level
// of nesting, this audit found too; a6ee764 fixed it, audit-concurrency2
// holds it.)
import { describe, expect, test } from 'vitest';
import { decode, decodeAsync, decodeMultiStream, init } from '../js/node.js';
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
