// audit-ext.test.js - the extensions-and-timestamps audit: ExtensionCodec,
// ExtData, the timestamp extension (type -1) and its helpers, `context`,
// compared with @msgpack/msgpack 3.1.3. The first four describe blocks are
// findings (each failed on 7b94542); the last holds edges no other test
// covered (hand-made timestamp payloads and TimeSpecs, ext payloads of 64 KiB),
// where fastmp already gives the peer's bytes and values.
import * as msgpack from '@msgpack/msgpack';
import { describe, expect, test } from 'vitest';
import {
  DecodeError, ExtData, ExtensionCodec, FastmpError, decode, decodeMultiStream, decodeTimestampExtension,
  decodeTimestampToTimeSpec, encode, encodeTimeSpecToTimestamp,
} from '../js/node.js';
import { catchError } from './messages-helpers.js';

const hex = (bytes) => Buffer.from(bytes).toString('hex');


/** The Set extension of @msgpack/msgpack's README: each side calls the codec again for the payload. */
const setCodec = () => {
  const codec = new ExtensionCodec();
  codec.register({
    type: 1,
    encode: (v) => (v instanceof Set ? encode([...v], { extensionCodec: codec }) : null),
    decode: (data) => new Set(decode(data, { extensionCodec: codec })),
  });
  return codec;
};

describe("1: a fault inside an extension's own fastmp call is located at the extension, in the outer message", () => {
  test('decode: the path and offset are the ext\'s, not those of the place in the payload', () => {
    // { a: 1, list: [0, { s: Set }] } with the payload [1, 0xc1]: the ext (c7 03 01) at byte 14.
    const bytes = Uint8Array.of(0x82, 0xa1, 0x61, 0x01, 0xa4, 0x6c, 0x69, 0x73, 0x74, 0x92, 0x00, 0x81, 0xa1, 0x73,
      0xc7, 0x03, 0x01, 0x92, 0x01, 0xc1);
    const err = catchError(() => decode(bytes, { extensionCodec: setCodec() }));
    expect(err).toBeInstanceOf(DecodeError);
    // (7b94542: path '$[1]' and offset 2, the payload's own, as if at the outer message's byte 2.)
    expect(err).toMatchObject({ code: 'TAG', path: '$.list[1].s', offset: 14 });
    expect(err.message).toMatch(/unrecognized type byte/);
  });

  test('encode: the path and offset are the value\'s, in the outer output', () => {
    const err = catchError(() => encode({ a: 1, list: [0, { s: new Set([1, 2n]) }] }, { extensionCodec: setCodec() }));
    // 82 a1 61 01 a4 'list' 92 00 81 a1 73: the Set is written at byte 14.
    expect(err).toMatchObject({ code: 'TYPE', path: '$.list[1].s', offset: 14 });
    expect(err.message).toMatch(/bigint 2n/);
  });

  test('a stream runs the extension\'s decoder once, and the error claims no missing bytes', async () => {
    let calls = 0;
    const codec = new ExtensionCodec();
    codec.register({ type: 1, decode: (data) => { calls++; return decode(data); } });
    // [1, ext 1 of the payload 92 01 (an array of 2 cut short), 2]: the value is whole, its payload is not.
    const wire = Uint8Array.of(0x93, 0x01, 0xc7, 0x02, 0x01, 0x92, 0x01, 0x02);
    const chunks = async function* () {
      yield wire;
    };
    let err;
    try {
      for await (const value of decodeMultiStream(chunks(), { extensionCodec: codec })) expect(value).toBe('never');
    } catch (e) {
      err = e;
    }
    // (7b94542: the nested LENGTH was taken for the chunk's end: the decoder ran twice, and the
    // error said path '$', offset 0, needed 3, of a value whose 8 bytes were all there.)
    expect(calls).toBe(1);
    expect(err).toMatchObject({ code: 'LENGTH', path: '$[1]', offset: 2, streamOffset: 0 });
    expect(err.needed).toBeUndefined();
    const sync = catchError(() => decode(wire, { extensionCodec: codec }));
    expect(sync).toMatchObject({ code: 'LENGTH', path: '$[1]', offset: 2 });
    expect(sync.needed).toBeUndefined();
  });
});

describe('2: a decoder registered for ext 0x72 or 0x74 decides, also when it returns an ExtData of the payload', () => {
  // messages.md "Differences" 7: "Ext 0x72 ... is an UNSUPPORTED error unless registered in your
  // ExtensionCodec ... a decoder registered for either type decides".
  test.each([['fastmp', ExtensionCodec, ExtData], ['@msgpack/msgpack', msgpack.ExtensionCodec, msgpack.ExtData]])('%s\'s codec', (_, Codec, Data) => {
    const codec = new Codec();
    codec.register({ type: 0x72, encode: null, decode: (data, type) => new Data(type, data) }); // keep records opaque
    codec.register({ type: 0x74, encode: null, decode: (data, type) => new Data(type, data) });
    const record = decode(Uint8Array.of(0xd4, 0x72, 0x05), { extensionCodec: codec });
    expect(record).toBeInstanceOf(Data); // (7b94542: UNSUPPORTED)
    expect([record.type, hex(record.data)]).toEqual([0x72, '05']);
    const typed = decode(Uint8Array.of(0xc7, 0x05, 0x74, 0x07, 0x00, 0x00, 0x00, 0xc0), { extensionCodec: codec });
    expect(typed).toBeInstanceOf(Data); // (7b94542: a Float32Array)
    expect([typed.type, hex(typed.data)]).toEqual([0x74, '07000000c0']);
    // Without those decoders, msgpackr's reading stays.
    expect(decode(Uint8Array.of(0xc7, 0x05, 0x74, 0x07, 0x00, 0x00, 0x00, 0xc0), { extensionCodec: new Codec() })).toEqual(Float32Array.of(-2));
    expect(catchError(() => decode(Uint8Array.of(0xd4, 0x72, 0x05), { extensionCodec: new Codec() })).code).toBe('UNSUPPORTED');
    // At a shaped typed-array position the shape decides (the same paragraph): the codec is not asked.
    expect(decode(Uint8Array.of(0x81, 0xa1, 0x76, 0xc7, 0x05, 0x74, 0x07, 0x00, 0x00, 0x00, 0xc0), { extensionCodec: codec, shape: { v: Float32Array } }))
      .toEqual({ v: Float32Array.of(-2) });
  });
});

describe('3: a frozen error thrown by an extension passes through as itself', () => {
  test('from a decoder, nested in a map and an array', () => {
    const thrown = Object.freeze(new DecodeError('bad point'));
    const codec = new ExtensionCodec();
    codec.register({ type: 1, decode: () => { throw thrown; } });
    // (7b94542: the engine's TypeError "Cannot assign to read only property 'offset'".)
    expect(catchError(() => decode(Uint8Array.of(0x81, 0xa1, 0x70, 0x91, 0xd4, 0x01, 0x00), { extensionCodec: codec }))).toBe(thrown);
  });

  test('from an encoder, nested in a map and an array', () => {
    const thrown = Object.freeze(new FastmpError('TYPE', 'not this one', -1, -1));
    const codec = new ExtensionCodec();
    codec.register({ type: 1, encode: (v) => (v instanceof Set ? (() => { throw thrown; })() : null) });
    // (7b94542: the engine's TypeError "Cannot add property Symbol(fastmp.pathSegments), object is not extensible".)
    expect(catchError(() => encode({ p: [new Set()] }, { extensionCodec: codec }))).toBe(thrown);
  });
});

describe("edges the peer's results hold (confirmed correct)", () => {
  const peerSpec = (data) => msgpack.decodeTimestampToTimeSpec(data);

  test('hand-made timestamp payloads: nsec at and past 999 999 999, sec at 2^32-1, 2^34-1, negative 96-bit forms', () => {
    const payloads = [
      'ffffffff', // ts32 at 2^32-1
      'ee6b27fcffffffff', 'ee6b2800ffffffff', 'fffffffcffffffff', 'ffffffffffffffff', // ts64: nsec 999999999, 1e9, 2^30-1; sec 2^34-1
      '3b9ac9ffffffffffffffffff', '3b9aca00ffffffffffffffff', 'ffffffff8000000000000000', // ts96: sec -1 / nsec 1e9 / sec -2^63
      '0000000100000003ffffffff', '3b9ac9ff00000000ffffffff', '000000007fffffffffffffff', // 2^34-1 in ts96, 2^63-1
    ];
    for (const h of payloads) {
      const data = Uint8Array.from(Buffer.from(h, 'hex'));
      expect(decodeTimestampToTimeSpec(data), h).toEqual(peerSpec(data));
      expect(Object.is(decodeTimestampExtension(data).getTime(), msgpack.decodeTimestampExtension(data).getTime()), h).toBe(true);
      const wire = msgpack.encode(new msgpack.ExtData(-1, data));
      expect(Object.is(decode(wire).getTime(), msgpack.decode(wire).getTime()), h).toBe(true);
    }
  });

  test('TimeSpecs outside a Date\'s: nsec >= 1e9 or negative or fractional, sec at 2^34 and past 2^53', () => {
    const specs = [
      { sec: 0, nsec: 1e9 }, { sec: 0, nsec: 2 ** 30 - 1 }, { sec: 0, nsec: 2 ** 30 }, { sec: 0, nsec: -1 }, { sec: 0, nsec: 1.5 },
      { sec: 1.5, nsec: 0 }, { sec: 2 ** 32, nsec: 0 }, { sec: 2 ** 34 - 1, nsec: 1 }, { sec: 2 ** 34, nsec: 0 }, { sec: -1, nsec: 999999999 },
      { sec: 2 ** 53, nsec: 1 }, { sec: -(2 ** 63), nsec: 0 }, { sec: NaN, nsec: 0 },
    ];
    for (const spec of specs) expect(hex(encodeTimeSpecToTimestamp(spec)), JSON.stringify(spec)).toBe(hex(msgpack.encodeTimeSpecToTimestamp(spec)));
  });

  test('ext payloads of 65535 and 65536 bytes (ext 16 / ext 32), as ExtData and as a function of their position', () => {
    for (const n of [65535, 65536]) {
      const data = Uint8Array.from({ length: n }, (_, i) => i * 7);
      const at = (pos) => {
        const out = data.slice();
        out[0] = pos;
        return out;
      };
      expect(hex(encode(['x', new ExtData(5, data)]))).toBe(hex(msgpack.encode(['x', new msgpack.ExtData(5, data)])));
      expect(hex(encode(['x', new ExtData(-7, at)]))).toBe(hex(msgpack.encode(['x', new msgpack.ExtData(-7, at)])));
      const back = decode(msgpack.encode([new msgpack.ExtData(127, data)]))[0];
      expect([back.type, back.data.length, hex(back.data.subarray(n - 4))]).toEqual([127, n, hex(data.subarray(n - 4))]);
    }
  });
});
