// drop-in.test.js - switching from @msgpack/msgpack without surprises: its
// error classes (DecodeError; RangeError for input cut short or going on),
// its phrases in the messages, hints where a user's mistake is recognisable,
// and shapes whose named fields are required unless optional(S).

import * as msgpack from '@msgpack/msgpack';
import { Packr } from 'msgpackr';
import { describe, expect, test } from 'vitest';
import { DecodeError, ExtData, ExtensionCodec, FastmpError, createFastmpSync, decodeTimestampToTimeSpec, optional } from '../js/index.js';
import { catchError } from './messages-helpers.js';

const fm = createFastmpSync();

/** What @msgpack/msgpack throws for the same call, and what fastmp throws. */
function both(call) {
  return { theirs: catchError(() => call(msgpack)), ours: catchError(() => call({ ...fm, decodeTimestampToTimeSpec })) };
}

describe('error classes', () => {
  const cases = [
    ['LENGTH', () => fm.decode(Uint8Array.of(0x92, 0xc0)), true],
    ['TRUNCATED', () => fm.decode(Uint8Array.of(0x91, 0xcb, 0)), true],
    ['TRUNCATED', () => fm.decode(new Uint8Array(0)), true],
    ['LENGTH', () => fm.decode(Uint8Array.of(0xd9, 5, 0x41)), true],
    ['TRAILING', () => fm.decode(Uint8Array.of(0x90, 0xc0)), true],
    ['TRUNCATED', () => fm.unpack(Uint8Array.of(0x92, 0xca, 0), Float32Array), true],
    ['TRAILING', () => fm.unpack(Uint8Array.of(0x90, 0xc0), Float32Array), true],
    ['TAG', () => fm.decode([0xc1]), false],
    ['MAX_LENGTH', () => fm.decode(fm.encode('abc'), { maxStrLength: 1 }), false],
    ['KEY', () => fm.decode([0x81, 0xc0, 1]), false],
    ['UTF8', () => fm.decode([0xa1, 0xff]), false],
    ['DEPTH', () => fm.decode([0x91, 0x91, 0x90], { maxDepth: 2 }), false],
    ['EXT', () => fm.decode([0xd4, 0xff, 0]), false],
    ['UNSUPPORTED', () => fm.decode(new Packr().pack({ a: 1 })), false],
    ['TYPE', () => fm.decode(fm.encode({ v: 'x' }), { shape: { v: Float32Array } }), false],
    ['MISSING', () => fm.decode(fm.encode({}), { shape: { v: Float32Array } }), false],
    ['RANGE', () => fm.unpack(fm.encode([300]), Int8Array), false],
  ];

  test.each(cases)('%s: a FastmpError and a DecodeError; a RangeError too exactly for input cut short or going on', (code, call, range) => {
    const err = catchError(call);
    expect(err.code).toBe(code);
    expect(err).toBeInstanceOf(FastmpError);
    expect(err).toBeInstanceOf(DecodeError);
    expect(err).toBeInstanceOf(Error);
    expect(err instanceof RangeError).toBe(range);
    expect(err.name).toBe('FastmpError');
  });

  test('errors that are not about msgpack input are FastmpErrors only; a subclass of them is an ordinary class', () => {
    const encoding = catchError(() => fm.encode({ n: 1n }));
    const view = fm.packView(Float32Array.of(1));
    fm.packView(Float32Array.of(2)); // overwrites it
    const stale = catchError(() => fm.unpack(view, Float32Array));
    expect(stale.code).toBe('STALE');
    const ascii = catchError(() => fm.decodeIA5(Uint8Array.of(0x80)));
    for (const err of [encoding, ascii]) {
      expect(err).toBeInstanceOf(FastmpError);
      expect(err).not.toBeInstanceOf(DecodeError);
      expect(err).not.toBeInstanceOf(RangeError);
    }
    expect(stale).not.toBeInstanceOf(DecodeError);
    class Mine extends FastmpError {}
    expect(catchError(() => fm.decode([0xc1]))).not.toBeInstanceOf(Mine);
    expect(catchError(() => fm.decode([0x92]))).not.toBeInstanceOf(Mine);
    expect(new Mine('X', 'm', -1, -1)).toBeInstanceOf(FastmpError);
    expect(new DecodeError('X', 'm', -1, -1)).not.toBeInstanceOf(RangeError);
  });

  test('@msgpack/msgpack throws the same classes for the same inputs', () => {
    const inputs = [[0x92, 0xc0], [], [0x90, 0xc0], [0xc1], [0x81, 0xc0, 1]];
    for (const bytes of inputs) {
      const { theirs, ours } = both((lib) => lib.decode(Uint8Array.from(bytes)));
      expect(ours instanceof RangeError, JSON.stringify(bytes)).toBe(theirs instanceof RangeError);
      expect(ours instanceof DecodeError, JSON.stringify(bytes)).toBe(theirs instanceof msgpack.DecodeError || theirs instanceof RangeError);
    }
  });
});

test('new DecodeError(message), as code written for @msgpack/msgpack makes one, keeps its message and is caught as one', () => {
  const made = new DecodeError('bad point ext');
  const theirs = new msgpack.DecodeError('bad point ext');
  expect(made.message).toBe(theirs.message);
  expect(made.code).toBe('DECODE');
  expect([made instanceof DecodeError, made instanceof FastmpError, made instanceof Error]).toEqual([true, true, true]);
  // Thrown from an extension's decoder, as @msgpack/msgpack's docs show it.
  const extensionCodec = new ExtensionCodec();
  extensionCodec.register({ type: 1, encode: () => null, decode: () => { throw new DecodeError('bad point ext'); } });
  const err = catchError(() => fm.decode(Uint8Array.of(0x81, 0xa1, 0x70, 0xd4, 1, 0), { extensionCodec }));
  expect(err).toBeInstanceOf(DecodeError);
  expect(err.message).toMatch(/bad point ext/);
});

describe("@msgpack/msgpack's phrase where the situation is the same, and fastmp's detail", () => {
  const PHRASES = [
    ['insufficient data', (lib) => lib.decode(Uint8Array.of(0xd9, 5, 0x41), { maxStrLength: 10 }), 'sync'],
    ['extra 1 of 2 byte', (lib) => lib.decode(Uint8Array.of(0x90, 0xc0))],
    ['unrecognized type byte', (lib) => lib.decode(Uint8Array.of(0xc1))],
    ['max length exceeded', (lib) => lib.decode(lib.encode('abc'), { maxStrLength: 1 })],
    ['max length exceeded', (lib) => lib.decode(lib.encode('abc'), { rawStrings: true, maxBinLength: 1 })],
    ['max length exceeded', (lib) => lib.decode(lib.encode([1, 2]), { maxArrayLength: 1 })],
    ['max length exceeded', (lib) => lib.decode(lib.encode({ a: 1, b: 2 }), { maxMapLength: 1 })],
    ['max length exceeded', (lib) => lib.decode(Uint8Array.of(0xc4, 3, 1, 2, 3), { maxBinLength: 1 })],
    ['max length exceeded', (lib) => lib.decode(Uint8Array.of(0xd6, 1, 0, 0, 0, 0), { maxExtLength: 1 })],
    ['the type of key must be string', (lib) => lib.decode(Uint8Array.of(0x81, 0xc0, 1))],
    ['unrecognized data size for timestamp', (lib) => lib.decodeTimestampToTimeSpec(Uint8Array.of(0))],
  ];
  test.each(PHRASES)('%s', (phrase, call, theirsWordsItOtherwise) => {
    const { theirs, ours } = both(call);
    const pattern = new RegExp(phrase.replace(/[[\]]/g, '\\$&'), 'i');
    if (!theirsWordsItOtherwise) expect(theirs.message).toMatch(pattern);
    expect(ours.message).toMatch(pattern);
    expect(ours.message).toMatch(/byte \d|buffer\[\d|bytes, not/); // fastmp's detail: where
  });

  test('"insufficient data" from a stream cut short, as @msgpack/msgpack words it there', async () => {
    async function* cut() {
      yield Uint8Array.of(0x92, 0xc0);
    }
    const theirs = await msgpack.decodeAsync(cut()).catch((e) => e);
    const ours = await fm.decodeAsync(cut()).catch((e) => e);
    expect(theirs.message).toMatch(/insufficient data/i);
    expect(ours.message).toMatch(/insufficient data/i);
    expect(ours).toBeInstanceOf(RangeError);
  });

  test('decodeArrayStream() of something else than an array: "unrecognized array type byte"', async () => {
    async function* chunks() {
      yield fm.encode('abc');
    }
    const err = await (async () => {
      for await (const v of fm.decodeArrayStream(chunks())) void v;
    })().catch((e) => e);
    expect(err.message).toMatch(/unrecognized array type byte/i);
    expect(err).toBeInstanceOf(DecodeError);
  });
});

describe('hints for recognisable mistakes', () => {
  test('a JSON or HTML body is named as such, not "bytes follow the value (decodeFrom reads a prefix)"', () => {
    const json = catchError(() => fm.decode(new TextEncoder().encode('{"user": "ada", "id": 7}')));
    expect(json.message).toMatch(/looks like JSON text .*not MessagePack: it starts "\{\\"user\\"/);
    expect(json.message).not.toMatch(/decodeFrom/);
    const html = catchError(() => fm.decode(new TextEncoder().encode('<!DOCTYPE html>\n<title>404</title>')));
    expect(html.message).toMatch(/looks like HTML or XML/);
    // Bytes that are msgpack after all keep the usual advice.
    expect(catchError(() => fm.decode(Uint8Array.of(0x01, 0x02))).message).toMatch(/decodeFrom\(\) reads a prefix/);
  });

  test('a BigInt without useBigInt64 names the option', () => {
    expect(catchError(() => fm.encode({ big: 2n ** 60n })).message).toMatch(/unrecognized object: pass useBigInt64: true/);
  });

  test('a fetch Response, a Blob or a stream given to decode() says how to get its bytes', () => {
    expect(catchError(() => fm.decode(new Response(fm.encode(1)))).message).toMatch(/a fetch Response: decode\(new Uint8Array\(await res\.arrayBuffer\(\)\)\), or decodeAsync\(res\.body\)/);
    expect(catchError(() => fm.decode(new Blob([fm.encode(1)]))).message).toMatch(/await blob\.arrayBuffer\(\)/);
    expect(catchError(() => fm.decode(new ReadableStream())).message).toMatch(/decodeAsync\(stream\)/);
    expect(catchError(() => fm.decode(new Response(fm.encode(1))))).toBeInstanceOf(TypeError);
  });

  test('truncated input with a shape has `needed`; a msgpackr record where a shape expects a map says so', () => {
    const bytes = fm.encode({ v: new Float32Array(100) });
    const err = catchError(() => fm.decode(bytes.subarray(0, 200), { shape: { v: Float32Array } }));
    expect(err).toMatchObject({ code: 'TRUNCATED', path: '$.v' });
    expect(err.needed).toBeGreaterThan(200); // at least the element that was cut
    expect(err.needed).toBeLessThanOrEqual(bytes.length);
  });

  test('a msgpackr record at a shaped position is the records error, not a TYPE error', () => {
    const records = new Packr().pack({ v: [1, 2] });
    expect(catchError(() => fm.decode(records, { shape: { v: Float32Array } }))).toMatchObject({ code: 'UNSUPPORTED' });
    expect(catchError(() => fm.decode(new Packr().pack([{ v: [1] }]), { shape: [{ v: Float32Array }] })).message).toMatch(/msgpackr record/);
  });

  test('"1 byte", not "1 bytes"', () => {
    expect(catchError(() => fm.decode(Uint8Array.of(0xd9, 5, 0x41))).message).toMatch(/the 1 byte left/);
  });

  test('a map key that is not UTF-8 is named a map key, without the rawStrings hint (keys never take that option)', () => {
    const key = Uint8Array.of(0x81, 0xa3, 0xed, 0xa0, 0x80, 0x01); // { '\ud800': 1 }, its key in WTF-8
    const longKey = Uint8Array.of(0x81, 0xd9, 40, ...new Uint8Array(39).fill(0x61), 0xff, 0x01); // past the key cache
    for (const [bytes, at] of [[key, 1], [longKey, 1]]) {
      for (const options of [{}, { rawStrings: true }]) {
        const err = catchError(() => fm.decode(bytes, options));
        expect(err).toMatchObject({ code: 'UTF8', offset: at });
        expect(err.message).toMatch(new RegExp(`the map key at byte ${at} is not valid UTF-8`));
        expect(err.message).not.toMatch(/rawStrings/);
      }
    }
    expect(catchError(() => fm.decode(Uint8Array.of(0xa1, 0xff))).message).toMatch(/the str at byte 0 is not valid UTF-8 \(rawStrings: true reads its bytes\)/);
  });
});

describe('maxBinLength holds an ext\'s payload too, as @msgpack/msgpack\'s does (it reads the payload as a bin)', () => {
  const TIMESTAMP = Uint8Array.of(0xd6, 0xff, 0, 0, 0, 1); // fixext 4: 1970-01-01T00:00:01Z
  const UNKNOWN = Uint8Array.of(0xc7, 3, 5, 1, 2, 3); // ext 8, type 5, 3 bytes
  const TYPED = Uint8Array.of(0x81, 0xa1, 0x76, 0xc7, 5, 0x74, 7, 0, 0, 0, 0xc0); // { v: msgpackr's ext 0x74 of one Float32 -2 }: 5 payload bytes

  const outcome = (fn) => {
    try {
      return fn();
    } catch (err) {
      return err;
    }
  };

  test.each([['a timestamp', TIMESTAMP, 4], ['an unknown ext', UNKNOWN, 3], ["msgpackr's typed array", TYPED, 5]])('%s', (_, bytes, size) => {
    for (const limit of [size - 1, size]) {
      const refused = limit < size;
      expect(outcome(() => msgpack.decode(bytes, { maxBinLength: limit })) instanceof Error).toBe(refused); // (the peer's rule)
      const ours = outcome(() => fm.decode(bytes, { maxBinLength: limit }));
      expect(ours instanceof Error).toBe(refused);
      if (refused) expect(ours).toMatchObject({ code: 'MAX_LENGTH', message: expect.stringMatching(`beyond maxBinLength \\(${limit}\\)`) });
    }
  });

  test('a shaped field from msgpackr\'s typed array too', () => {
    const shape = { v: Float32Array };
    expect(outcome(() => fm.decode(TYPED, { shape, maxBinLength: 4 }))).toMatchObject({ code: 'MAX_LENGTH' });
    expect(fm.decode(TYPED, { shape, maxBinLength: 5 })).toEqual({ v: Float32Array.of(-2) });
  });

  test('a stream of small chunks says the same', async () => {
    const chunks = async function* () {
      for (const b of UNKNOWN) yield Uint8Array.of(b);
    };
    await expect(fm.decodeAsync(chunks(), { maxBinLength: 2 })).rejects.toMatchObject({ code: 'MAX_LENGTH' });
    await expect(fm.decodeAsync(chunks(), { maxBinLength: 3 })).resolves.toBeInstanceOf(ExtData);
  });
});

describe('shapes: named fields are required, optional(S) may be absent or nil', () => {
  const frames = [{ t: 1, accel: Float32Array.of(1, 2, 3) }, { t: 2, accel: Float32Array.of(4) }, { t: 3 }];
  const shape = { frames: [{ accel: Float32Array }] };

  test('a missing field is MISSING, with its path (a typo in a shape key is caught so)', () => {
    const err = catchError(() => fm.decode(fm.encode({ frames }), { shape }));
    expect(err).toMatchObject({ code: 'MISSING', path: '$.frames[2].accel' });
    expect(err.message).toMatch(/has no key "accel", which the shape names .*optional\(S\)/);
    expect(catchError(() => fm.decode(fm.encode({ embedding: [1] }), { shape: { embeding: Float32Array } }))).toMatchObject({ code: 'MISSING', path: '$.embeding' });
  });

  test('optional(S): absent stays absent, nil is null, present is decoded by S', () => {
    const got = fm.decode(fm.encode({ frames: [...frames, { t: 4, accel: null }] }), { shape: { frames: [{ accel: optional(Float32Array) }] } });
    expect(got.frames.map((f) => f.accel)).toEqual([Float32Array.of(1, 2, 3), Float32Array.of(4), undefined, null]);
    expect('accel' in got.frames[2]).toBe(false);
    // A required field given nil is a TYPE error, as before.
    expect(catchError(() => fm.decode(fm.encode({ v: null }), { shape: { v: Float32Array } }))).toMatchObject({ code: 'TYPE', path: '$.v' });
  });

  test('many required fields (more than fit in one bit set) are each checked', () => {
    const keys = Array.from({ length: 40 }, (_, i) => `k${i}`);
    const manyShape = Object.fromEntries(keys.map((k) => [k, Int8Array]));
    const full = Object.fromEntries(keys.map((k) => [k, [1]]));
    expect(Object.keys(fm.decode(fm.encode(full), { shape: manyShape }))).toHaveLength(40);
    for (const gone of ['k0', 'k29', 'k30', 'k39']) {
      const { [gone]: _, ...rest } = full;
      expect(catchError(() => fm.decode(fm.encode(rest), { shape: manyShape })), gone).toMatchObject({ code: 'MISSING', path: `$.${gone}` });
    }
    // A key met twice counts once.
    const twice = Uint8Array.of(0x82, 0xa1, 0x61, 0x91, 1, 0xa1, 0x61, 0x91, 2);
    expect(catchError(() => fm.decode(twice, { shape: { a: Int8Array, b: Int8Array } }))).toMatchObject({ code: 'MISSING', path: '$.b' });
  });

  test('optional(S) anywhere but as a field of a map is a TypeError', () => {
    expect(() => fm.decode(fm.encode(1), { shape: optional(Int8Array) })).toThrow(TypeError);
    expect(() => fm.decode(fm.encode([]), { shape: [optional(Int8Array)] })).toThrow(/optional\(S\) marks a field of a map/);
  });
});

describe('encode(value, options): the Encoder of earlier calls with the same options is reused', () => {
  const fm = createFastmpSync();
  const value = { b: 1, a: [1.5, 2 ** 40, -1], t: new Float32Array([0.5, -2]), u: undefined };

  test('each option tells configs apart: a config differing in any one option is not the same', async () => {
    const { ENCODER_KEYS, encoderConfig } = await import('../js/codec/options.js');
    const codec = new ExtensionCodec();
    const other = {
      extensionCodec: new ExtensionCodec(), context: {}, useBigInt64: true, maxDepth: 7, initialBufferSize: 64, sortKeys: true,
      forceFloat32: true, ignoreUndefined: true, forceIntegerToFloat: true, typedArrays: 'bin',
    };
    expect(Object.keys(other).sort()).toEqual([...ENCODER_KEYS].sort());
    const base = encoderConfig({ extensionCodec: codec }, codec);
    expect(base.sameAs(encoderConfig({ extensionCodec: codec }, codec))).toBe(true);
    for (const key of ENCODER_KEYS) {
      expect(base.sameAs(encoderConfig({ extensionCodec: codec, [key]: other[key] }, codec)), key).toBe(false);
    }
  });

  test('calls alternating between options each write what a new Encoder of their own options writes', () => {
    const options = [{ sortKeys: true }, { typedArrays: 'bin' }, { forceFloat32: true }, { ignoreUndefined: true }, { typedArrays: 'ext' },
      { useBigInt64: true }, undefined, { sortKeys: true, typedArrays: 'bin' }];
    for (let round = 0; round < 3; round++) {
      for (const o of options) {
        const got = fm.encode(value, o && { ...o });
        expect(Buffer.from(got).toString('hex'), JSON.stringify(o)).toBe(Buffer.from(new fm.Encoder(o).encode(value)).toString('hex'));
      }
    }
  });

  test('a kept Encoder serves only options that give the same keys, in the same order, with the very same values, and the same default codec', async () => {
    const { readEncoderOptions, encoderConfigOf, madeFrom } = await import('../js/codec/options.js');
    const codec = new ExtensionCodec();
    const config = encoderConfigOf(readEncoderOptions({ typedArrays: 'bin', maxDepth: 7 }), codec);
    expect(madeFrom(config, readEncoderOptions({ typedArrays: 'bin', maxDepth: 7, sortKeys: undefined }), codec)).toBe(true);
    expect(madeFrom(config, readEncoderOptions({ typedArrays: 'bin', maxDepth: 7 }), new ExtensionCodec())).toBe(false);
    for (const other of [{ maxDepth: 7, typedArrays: 'bin' }, { typedArrays: 'bin', maxDepth: 8 }, { typedArrays: 'bin' },
      { typedArrays: 'bin', maxDepth: 7, sortKeys: false }]) {
      expect(madeFrom(config, readEncoderOptions(other), codec), JSON.stringify(other)).toBe(false);
    }
  });

  test('one options object changed between calls, and ExtensionCodec.defaultCodec replaced: each call writes what its options say then', () => {
    const options = { typedArrays: 'bin' };
    const hexOf = (bytes) => Buffer.from(bytes).toString('hex');
    for (const mode of ['bin', 'array', 'ext', 'bin']) {
      options.typedArrays = mode;
      expect(hexOf(fm.encode(value, options)), mode).toBe(hexOf(new fm.Encoder({ typedArrays: mode }).encode(value)));
    }
    let reads = 0;
    const counted = { get typedArrays() { reads++; return 'ext'; } };
    fm.encode(value, counted);
    fm.encode(value, counted);
    expect(reads, 'each call reads each option once').toBe(2);
    class Point {}
    const saved = ExtensionCodec.defaultCodec;
    const before = hexOf(fm.encode({ p: 1 }, options));
    try {
      ExtensionCodec.defaultCodec = new ExtensionCodec();
      ExtensionCodec.defaultCodec.register({ type: 5, encode: (x) => (x instanceof Point ? Uint8Array.of(9) : null), decode: () => new Point() });
      expect(hexOf(fm.encode({ p: new Point() }, options))).toBe('81a170d40509');
    } finally {
      ExtensionCodec.defaultCodec = saved;
    }
    expect(hexOf(fm.encode({ p: new Point() }, options)), 'the default codec again: a Point is a map').toBe('81a17080');
    expect(hexOf(fm.encode({ p: 1 }, options))).toBe(before);
  });

  test('an extension that encodes with the same options during a call gets an Encoder of its own', () => {
    const codec = new ExtensionCodec();
    class Inner {}
    codec.register({ type: 3, encode: (x) => (x instanceof Inner ? fm.encode({ inner: [1, 2] }, { extensionCodec: codec, sortKeys: true }) : null), decode: (d) => d });
    const out = fm.encode({ z: new Inner(), a: 1 }, { extensionCodec: codec, sortKeys: true });
    const inner = fm.encode({ inner: [1, 2] }, { extensionCodec: codec, sortKeys: true });
    expect(Buffer.from(out).toString('hex')).toBe(`82a161${'01'}a17ac7${inner.length.toString(16).padStart(2, '0')}03${Buffer.from(inner).toString('hex')}`);
  });
});

describe('decode(bytes, options): the Decoder of earlier calls with the same options is reused', () => {
  const fm = createFastmpSync();
  const bytes = fm.encode({ v: new Float32Array([0.5, 2]), w: [1, 2] });

  test('one options object changed between calls: each call decodes by what its options say then', () => {
    const options = { shape: { v: Float32Array } };
    const typeOf = (value) => Object.fromEntries(Object.entries(value).map(([k, x]) => [k, x.constructor.name]));
    for (const [shape, want] of [[{ v: Float32Array }, { v: 'Float32Array', w: 'Array' }], [{ v: Float64Array, w: Int8Array }, { v: 'Float64Array', w: 'Int8Array' }],
      [undefined, { v: 'Array', w: 'Array' }], [{ v: Float32Array }, { v: 'Float32Array', w: 'Array' }]]) {
      options.shape = shape;
      expect(typeOf(fm.decode(bytes, options)), JSON.stringify(want)).toEqual(want);
      expect(typeOf(fm.decodeFrom(bytes, { ...options }).value)).toEqual(want);
    }
    let reads = 0;
    const counted = { get maxDepth() { reads++; return 5; } };
    fm.decode(bytes, counted);
    fm.decode(bytes, counted);
    expect(reads, 'each call reads each option once').toBe(2);
    expect(() => fm.decode(bytes, { ...options, maxArrayLength: 1 })).toThrow(/maxArrayLength/);
    expect(fm.decode(bytes, options).w).toEqual([1, 2]);
  });

  test('reuseTypedArrays through decode(): every call\'s arrays are its own; a context reaches the call that gives it', () => {
    const options = { shape: { v: Float32Array }, reuseTypedArrays: true };
    const first = fm.decode(bytes, options).v;
    const second = fm.decode(bytes, options).v;
    expect(second).not.toBe(first);
    const codec = new ExtensionCodec();
    codec.register({ type: 9, encode: () => null, decode: (data, type, context) => context.name });
    const withExt = Uint8Array.of(0xd4, 9, 0);
    expect([fm.decode(withExt, { extensionCodec: codec, context: { name: 'a' } }), fm.decode(withExt, { extensionCodec: codec, context: { name: 'b' } })]).toEqual(['a', 'b']);
  });

  test('a replaced ExtensionCodec.defaultCodec is the one the next call uses; a Decoder lets go of its input after the call', () => {
    const options = { maxDepth: 10 };
    const withExt = Uint8Array.of(0xd4, 9, 7);
    expect(fm.decode(withExt, options)).toBeInstanceOf(ExtData);
    const saved = ExtensionCodec.defaultCodec;
    try {
      ExtensionCodec.defaultCodec = new ExtensionCodec();
      ExtensionCodec.defaultCodec.register({ type: 9, encode: () => null, decode: (data) => data[0] * 2 });
      expect(fm.decode(withExt, options)).toBe(14);
    } finally {
      ExtensionCodec.defaultCodec = saved;
    }
    expect(fm.decode(withExt, options)).toBeInstanceOf(ExtData);
    const decoder = new fm.Decoder(options);
    decoder.decode(bytes);
    expect(decoder.bytes.length, 'no reference to the last input').toBe(0);
  });
});

test('every option of an Encoder and a Decoder is a field of it, as its config holds it', async () => {
  const { DECODER_KEYS, ENCODER_KEYS } = await import('../js/codec/options.js');
  const fm = createFastmpSync();
  const codec = new ExtensionCodec();
  const encoder = new fm.Encoder({
    extensionCodec: codec, context: { c: 1 }, useBigInt64: true, maxDepth: 7, initialBufferSize: 64, sortKeys: true,
    forceFloat32: true, ignoreUndefined: true, forceIntegerToFloat: true, typedArrays: 'bin',
  });
  for (const key of ENCODER_KEYS) expect(encoder[key], key).toBe(encoder.config[key]);
  expect(encoder.typedArrays).toBe('bin');
  const keyDecoder = { canBeCached: () => false, decode: () => '' };
  const decoder = new fm.Decoder({
    extensionCodec: codec, context: { c: 2 }, useBigInt64: true, rawStrings: true, maxStrLength: 1, maxBinLength: 2, maxArrayLength: 3,
    maxMapLength: 4, maxExtLength: 5, keyDecoder, mapKeyConverter: String, maxDepth: 6, shape: { v: Float32Array }, integralFloats: true,
    reuseTypedArrays: true,
  });
  for (const key of DECODER_KEYS) expect(decoder[key], key).toBe(decoder.config[key]);
  expect([decoder.maxExtLength, decoder.keyDecoder, decoder.reuseTypedArrays]).toEqual([5, keyDecoder, true]);
});

describe("extension codecs and keys as @msgpack/msgpack's encoder and decoder take them", () => {
  const hex = (bytes) => Buffer.from(bytes).toString('hex');

  test('a subclass of ExtensionCodec that overrides tryToEncode() is asked, as @msgpack/msgpack asks it', () => {
    class Point {
      constructor(x) {
        this.x = x;
      }
    }
    const written = [[msgpack, msgpack.ExtensionCodec, msgpack.ExtData], [fm, ExtensionCodec, ExtData]].map(([lib, Codec, Data]) => {
      class PointCodec extends Codec {
        tryToEncode(value, context) {
          return value instanceof Point ? new Data(9, Uint8Array.of(value.x)) : super.tryToEncode(value, context);
        }
      }
      return hex(lib.encode({ p: new Point(3), t: new Date(5) }, { extensionCodec: new PointCodec() }));
    });
    expect(written[1]).toBe(written[0]);
    expect(written[0]).toBe('82a170d40903a174d7ff01312d0000000000'); // p: fixext 1 of type 9; t: the timestamp, through super
  });

  test('a Date that no extension takes (the timestamp encoder unregistered, or a codec that passes it) is a map, as @msgpack/msgpack writes it', () => {
    for (const [lib, Codec, Data] of [[msgpack, msgpack.ExtensionCodec, msgpack.ExtData], [fm, ExtensionCodec, ExtData]]) {
      const unregistered = new Codec();
      unregistered.register({ type: -1, encode: null, decode: null });
      const passing = { tryToEncode: () => null, decode: (data, type) => new Data(type, data) };
      expect([unregistered, passing].map((extensionCodec) => hex(lib.encode(new Date(5), { extensionCodec })))).toEqual(['80', '80']);
    }
  });

  test("an extension's payload of an impossible length is refused before anything is allocated for it", () => {
    const encodeWith = (length) => {
      const extensionCodec = new ExtensionCodec();
      extensionCodec.register({ type: 1, encode: (v) => (v instanceof Set ? { length } : null), decode: null });
      return catchError(() => fm.encode({ s: new Set() }, { extensionCodec }));
    };
    expect(encodeWith(2 ** 32)).toMatchObject({ code: 'LENGTH', path: '$.s', message: expect.stringMatching(/an extension of 4294967296 bytes/) });
    for (const length of [-1, 2.5, '3']) expect(encodeWith(length)).toMatchObject({ name: 'TypeError', message: expect.stringMatching(/extension 1's data is an object, not a Uint8Array/) });
    // An ExtData made by hand is no extension's return value: its data is named as such.
    expect(catchError(() => fm.encode(new ExtData(3, null)))).toMatchObject({ name: 'TypeError', message: expect.stringMatching(/extension 3's data is null, not a Uint8Array/) });
  });

  test("a keyDecoder's undefined is a key of the wrong type (KEY), as @msgpack/msgpack says; not UTF8", () => {
    const keyDecoder = { canBeCached: () => true, decode: () => undefined };
    const bytes = msgpack.encode({ id: 1 });
    expect(catchError(() => msgpack.decode(bytes, { keyDecoder })).message).toMatch(/must be string or number but undefined/);
    expect(catchError(() => fm.decode(bytes, { keyDecoder }))).toMatchObject({ code: 'KEY', offset: 1, message: expect.stringMatching(/is undefined: the type of key must be string or number/) });
  });

  test("decodeArrayStream(): an element's error has the path decode() gives, from the array", async () => {
    const bytes = Uint8Array.of(0x92, 0x01, 0x81, 0xa1, 0x61, 0xc1); // [1, { a: 0xc1 }]
    expect(catchError(() => fm.decode(bytes))).toMatchObject({ code: 'TAG', path: '$[1].a' });
    const stream = async function* () {
      yield bytes;
    };
    const seen = [];
    await expect((async () => {
      for await (const value of fm.decodeArrayStream(stream())) seen.push(value);
    })()).rejects.toMatchObject({ code: 'TAG', path: '$[1].a', streamOffset: 2 });
    expect(seen).toEqual([1]);
  });
});
