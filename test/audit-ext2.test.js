// audit-ext2.test.js - the second audit of extensions and timestamps
// (ExtensionCodec, ExtData, the timestamp extension and its helpers,
// `context`), against @msgpack/msgpack 3.1.3. The numbered describe()s are
// findings (each failed on c9889a0); the last holds what was confirmed and no
// other test covers in one place. test/audit-ext.test.js holds the first audit.
import * as msgpack from '@msgpack/msgpack';
import { describe, expect, test } from 'vitest';
import * as fm from '../js/node.js';
import { chunksOf, collect } from './messages-helpers.js';

const hex = (bytes) => Buffer.from(bytes).toString('hex');

/** @msgpack/msgpack's README "Faster way to decode a large array of floating point numbers": a Float32Array payload aligned by its position. */
function alignedFloats(lib) {
  const codec = new lib.ExtensionCodec();
  codec.register({
    type: 0,
    encode: (object) => (object instanceof Float32Array
      ? (pos) => {
        const bpe = Float32Array.BYTES_PER_ELEMENT;
        const padding = 1 + ((bpe - ((pos + 1) % bpe)) % bpe);
        const data = new Uint8Array(object.buffer);
        const result = new Uint8Array(padding + data.length);
        result[0] = padding;
        result.set(data, padding);
        return result;
      }
      : null),
    decode: (data) => {
      const padding = data[0];
      return new Float32Array(data.buffer, data.byteOffset + padding, (data.byteLength - padding) / Float32Array.BYTES_PER_ELEMENT);
    },
  });
  return codec;
}

describe('1: a payload a stream copies for an extension keeps its place mod 8, as a view of it would (js/codec/decoder.js readExt, js/codec/stream.js)', () => {
  // Streams copy ext payloads (they keep no chunk) with slice(): every payload at byteOffset 0 of
  // its own buffer. @msgpack/msgpack's README extension, which aligns a Float32Array by the
  // payload's position, then threw the engine's "RangeError: start offset of Float32Array should
  // be a multiple of 4" in decodeAsync() of a message in one chunk, which @msgpack/msgpack reads.
  const value = { id: 'abc', v: Float32Array.of(1.5, -2.25, 3), list: [1, Float32Array.of(7)] };
  const want = { id: 'abc', v: Float32Array.of(1.5, -2.25, 3), list: [1, Float32Array.of(7)] };

  test('decodeAsync, decodeMultiStream, decodeArrayStream of one chunk, as @msgpack/msgpack reads them', async () => {
    const bytes = fm.encode(value, { extensionCodec: alignedFloats(fm) });
    expect(hex(bytes)).toBe(hex(msgpack.encode(value, { extensionCodec: alignedFloats(msgpack) })));
    const array = fm.encode([value, value], { extensionCodec: alignedFloats(fm) });
    for (const [name, lib] of [['@msgpack/msgpack', msgpack], ['fastmp', fm]]) {
      const options = { extensionCodec: alignedFloats(lib) };
      expect(await lib.decodeAsync(chunksOf(bytes, [bytes.length]), options), name).toEqual(want);
      expect(await collect(lib.decodeMultiStream(chunksOf(bytes, [bytes.length]), options)), name).toEqual([want]);
      expect(await collect(lib.decodeArrayStream(chunksOf(array, [array.length]), options)), name).toEqual([want, want]);
    }
  });

  test('fastmp: whatever the chunking (the payload\'s place is counted from the stream\'s start)', async () => {
    const options = { extensionCodec: alignedFloats(fm) };
    const bytes = fm.encode(value, options);
    for (let cut = 1; cut < bytes.length; cut++) {
      expect([cut, await fm.decodeAsync(chunksOf(bytes, [cut, bytes.length]), options)]).toEqual([cut, want]);
    }
    const decoder = new fm.Decoder(options);
    const two = Uint8Array.from([...fm.encode([1, 2, 3], options), ...bytes]); // (the second value at byte 4)
    expect(await collect(decoder.decodeStream(chunksOf(two, [5, two.length])))).toEqual([[1, 2, 3], want]);
  });

  test('every payload\'s byteOffset is its stream offset mod 8, in a chunk and in the tail', async () => {
    // Exts at each offset mod 8: where their payloads start in the stream, against where the decoder sees them.
    const seen = [];
    const codec = new fm.ExtensionCodec();
    codec.register({ type: 1, decode: (data) => { seen.push(data.byteOffset & 7); return data[0]; } });
    const items = [];
    for (let k = 0; k < 16; k++) items.push(...msgpack.encode('x'.repeat(k)), 0xd4, 1, 0);
    const bytes = Uint8Array.from([0xdc, 0, 32, ...items]);
    const wantOffsets = [];
    for (let i = 0; i < bytes.length; i++) if (bytes[i] === 0xd4 && bytes[i + 1] === 1) wantOffsets.push((i + 2) & 7);
    for (const sizes of [[bytes.length], [7, 40, bytes.length], [1, 2, 3, 50, 51, bytes.length]]) {
      seen.length = 0;
      const got = await fm.decodeAsync(chunksOf(bytes, sizes), { extensionCodec: codec });
      expect(got.length).toBe(32);
      expect([sizes, seen]).toEqual([sizes, wantOffsets]);
    }
  });

  test('decodeFrom() of an input read from a copy (a SharedArrayBuffer), at an offset', () => {
    const options = { extensionCodec: alignedFloats(fm) };
    const bytes = fm.encode(value, options);
    const shared = new Uint8Array(new SharedArrayBuffer(bytes.length + 8));
    shared.set(bytes, 8);
    const decoder = new fm.Decoder(options);
    expect(decoder.decodeFrom(shared.subarray(8), 0)).toEqual({ value: want, end: bytes.length });
    expect(decoder.decodeFrom(shared, 8).value).toEqual(want);
  });
});

describe('2: encodeTimeSpecToTimestamp() reads the TimeSpec once, as @msgpack/msgpack does (js/codec/timestamp.js)', () => {
  // The spec was read three times (its size, then the write, which asked its size again): a
  // getter that answered otherwise the second time gave the engine's "RangeError: Offset is
  // outside the bounds of the DataView", and a valueOf() was asked more often than the peer asks it.
  test('a getter that changes its answer: the bytes of the first answer', () => {
    for (const lib of [msgpack, fm]) {
      let reads = 0;
      const spec = { get sec() { reads++; return reads === 1 ? 1 : -1; }, nsec: 0 };
      expect(hex(lib.encodeTimeSpecToTimestamp(spec))).toBe('00000001');
      expect(reads).toBe(1);
    }
  });

  test('a valueOf() per field: asked as often as @msgpack/msgpack asks it, the same bytes', () => {
    for (const [sec, nsec] of [[1, 0], [2 ** 33, 5], [-3, 7], [2 ** 40, 0]]) {
      const counted = (lib) => {
        const calls = { sec: 0, nsec: 0 };
        const spec = { sec: { valueOf: () => (calls.sec++, sec) }, nsec: { valueOf: () => (calls.nsec++, nsec) } };
        return [hex(lib.encodeTimeSpecToTimestamp(spec)), calls];
      };
      expect(counted(fm), `${sec} ${nsec}`).toEqual(counted(msgpack));
    }
  });
});

describe('confirmed: `context` reaches the extensions from every entry point', () => {
  test('the module functions, Encoder and Decoder methods, and the streams', async () => {
    const context = { tag: 'ctx' };
    const seen = [];
    const codec = new fm.ExtensionCodec();
    codec.register({
      type: 3,
      encode: (v, c) => (v instanceof Set ? (seen.push(c), Uint8Array.of(1)) : null),
      decode: (d, t, c) => (seen.push(c), 'S'),
    });
    const o = { extensionCodec: codec, context };
    const bytes = fm.encode([new Set()], o);
    const target = new Uint8Array(16);
    fm.encodeInto([new Set()], target, 1, o);
    const encoder = new fm.Encoder(o);
    encoder.encode(new Set());
    encoder.encodeSharedRef(new Set());
    encoder.encodeInto(new Set(), target, 2);
    expect(seen.length).toBe(5);
    const decoder = new fm.Decoder(o);
    const values = [
      fm.decode(bytes, o), fm.decodeFrom(bytes, o).value, ...fm.decodeMulti(bytes, o),
      decoder.decode(bytes), decoder.decodeFrom(bytes, 0).value, ...decoder.decodeMulti(bytes),
      await fm.decodeAsync(chunksOf(bytes, [1, bytes.length]), o), ...await collect(fm.decodeMultiStream(chunksOf(bytes, [2, bytes.length]), o)),
      await collect(fm.decodeArrayStream(chunksOf(bytes, [bytes.length]), o)),
      await decoder.decodeAsync(chunksOf(bytes, [bytes.length])), ...await collect(decoder.decodeStream(chunksOf(bytes, [bytes.length]))),
      await collect(decoder.decodeArrayStream(chunksOf(bytes, [1, bytes.length]))),
    ];
    expect(values).toEqual(Array(12).fill(['S']));
    expect(seen.length).toBe(17);
    expect(seen.every((c) => c === context)).toBe(true);
  });
});
