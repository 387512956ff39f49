// audit-encode2.test.js - a second look at encoding plain values: encode(),
// Encoder.encode / encodeSharedRef / encodeInto on everything that is not a
// typed array (js/codec/encoder.js, js/codec/utf8.js). The numbered describe()
// is a finding that fails on 02f08ec; the others hold what was confirmed right
// and no other test covers: encodeInto() one byte short at every header class
// and store growth boundary, and strings of 2^16 units and more whose UTF-8
// outgrows the first room of one byte a unit with a 4-byte char or a lone
// surrogate cut at that room's end.
import * as msgpack from '@msgpack/msgpack';
import { describe, expect, test } from 'vitest';
import * as pure from '../js/codec/index.js';
import * as entry from '../js/node.js';
import { ExtData, FastmpError, createFastmpSync, init } from '../js/node.js';
import { catchError } from './messages-helpers.js';

await init();
const INSTANCES = [
  ['default', entry],
  ['scalar', createFastmpSync({ backend: 'scalar' })],
  ['js', createFastmpSync({ backend: 'js' })],
  ['pure-JS codec', pure],
];
const hex = (bytes) => Buffer.from(bytes).toString('hex');

describe('1: an ExtData whose type is no ext type byte (-128..127) is a RANGE error, not written as its low byte (js/codec/encoder.js writeExt)', () => {
  // writeExt wrote `+type` into the type byte through a Uint8Array: 300 went out as 44, 128 as
  // -128, -129 as 127, 'x', undefined and NaN as 0, 1.5 as 1 (an ExtData's type is a number:
  // js/index.d.ts). The decoder then hands the payload
  // to another extension, or none: silent data loss. ExtensionCodec.register() refuses such
  // types ("as msgpack's ext type byte holds", docs/messages.md 16), js/index.d.ts declares
  // `type` "from -128 to 127", and docs/messages.md 5 refuses a BigInt beyond 64 bits where
  // @msgpack/msgpack wraps it: an encoder that wraps the type byte breaks all three.
  // @msgpack/msgpack's own ExtensionCodec (accepted as extensionCodec) registers any type.
  // The type is taken as a number, as @msgpack/msgpack takes it ('5' is 5, null 0, true 1:
  // the same bytes as the peer's); one that is then no integer from -128 to 127 is refused,
  // `value` the number. (A BigInt type stays the engine's TypeError, as in the peer.)
  const BAD = [300, 128, -129, 255, -256, 1.5, NaN, Infinity, -Infinity, 'x', '300', undefined, { valueOf: () => 128 }];
  test.each(INSTANCES)('%s: every entry point, the Encoder usable after', (name, m) => {
    const encoder = new m.Encoder();
    for (const type of BAD) {
      for (const deferred of [false, true]) {
        let called = 0;
        const data = deferred ? () => { called++; return Uint8Array.of(1); } : Uint8Array.of(1);
        const value = { a: 1, e: [new ExtData(type, data)] };
        for (const [how, call] of [
          ['encode()', () => m.encode(value)],
          ['Encoder.encode()', () => encoder.encode(value)],
          ['encodeSharedRef()', () => encoder.encodeSharedRef(value)],
          ['encodeInto()', () => encoder.encodeInto(value, new Uint8Array(64), 3)],
        ]) {
          const err = catchError(call);
          expect(err, `${name} ${how} type ${String(type)}`).toBeInstanceOf(FastmpError);
          expect({ code: err.code, path: err.path, offset: err.offset, value: err.value }, `${name} ${how} type ${String(type)}`)
            .toEqual({ code: 'RANGE', path: '$.e[0]', offset: 7, value: +type });
          expect(hex(encoder.encode({ a: 1 }))).toBe('81a16101');
        }
        expect(called).toBe(0); // (refused before its payload is asked for)
      }
    }
  });

  test("@msgpack/msgpack's ExtensionCodec with a type it registered beyond 127: RANGE, not a payload under type -56", () => {
    const codec = new msgpack.ExtensionCodec();
    codec.register({ type: 200, encode: (v) => (v instanceof Set ? Uint8Array.of(7) : null), decode: () => 'mine' });
    const err = catchError(() => entry.encode({ s: new Set() }, { extensionCodec: codec }));
    expect({ code: err.code, path: err.path, value: err.value }).toEqual({ code: 'RANGE', path: '$.s', value: 200 });
  });

  test('every type from -128 to 127 (and an object whose valueOf gives one) is written as @msgpack/msgpack writes it', () => {
    for (let type = -128; type <= 127; type++) {
      const got = entry.encode([new entry.ExtData(type, Uint8Array.of(type & 255))]);
      expect(hex(got)).toBe(hex(msgpack.encode([new msgpack.ExtData(type, Uint8Array.of(type & 255))])));
    }
    expect(hex(entry.encode(new entry.ExtData({ valueOf: () => 127 }, Uint8Array.of(9))))).toBe('d47f09');
    for (const type of ['5', '', null, true, false, '-128', -0]) { // (converted as the peer converts them)
      expect(hex(entry.encode([new entry.ExtData(type, Uint8Array.of(1))])), String(type)).toBe(hex(msgpack.encode([new msgpack.ExtData(type, Uint8Array.of(1))])));
    }
  });
});

describe('encodeInto() one byte short and exact at every header class and store growth boundary (confirmed)', () => {
  // Messages of 1..70 000 bytes around the str / array / map header classes and the stores'
  // first sizes (64, the default 2048): one byte short is a RangeError with `needed`, the target
  // untouched; exact writes @msgpack/msgpack's bytes and nothing around them; the Encoder's
  // next call is right either way.
  const values = [];
  for (const n of [0, 1, 15, 16, 30, 31, 32, 62, 63, 64, 254, 255, 256, 2042, 2043, 2045, 2046, 2047, 2048, 65534, 65535, 65536]) {
    values.push('x'.repeat(n), 'é'.repeat(n >> 1), { k: 'y'.repeat(n) }, Array.from({ length: Math.min(n, 2100) }, (_, i) => i & 0x7f));
  }
  test.each(INSTANCES)('%s', (name, m) => {
    for (const options of [{}, { initialBufferSize: 1 }]) {
      const encoder = new m.Encoder(options);
      for (const value of values) {
        const want = msgpack.encode(value);
        const size = want.length;
        for (const offset of [0, 5]) {
          const short = new Uint8Array(offset + size - 1).fill(0xee);
          const err = catchError(() => encoder.encodeInto(value, short, offset));
          expect(err instanceof RangeError && err.needed === size, `${name} ${size} bytes at ${offset}`).toBe(true);
          expect(short.every((b) => b === 0xee)).toBe(true);
          expect(hex(encoder.encode(value))).toBe(hex(want));
          const exact = new Uint8Array(offset + size + 2).fill(0xee);
          expect(encoder.encodeInto(value, exact.subarray(0, offset + size), offset)).toBe(offset + size);
          expect(hex(exact)).toBe('ee'.repeat(offset) + hex(want) + 'eeee');
        }
      }
    }
  });
});

describe('strings of 2^16 units and more: UTF-8 beyond the first room of one byte a unit, a 4-byte char or a lone surrogate at its end (confirmed)', () => {
  // writeUtf8() makes room for one byte a unit, then TextEncoder's unread rest asks for more: a
  // surrogate pair that the room cuts, or a lone surrogate there, is written once, whole, as
  // TextEncoder writes the whole string (U+FFFD for the lone one: docs/messages.md 1).
  const te = new TextEncoder();
  const str32 = (s) => {
    const body = te.encode(s);
    const head = Buffer.alloc(5);
    head[0] = 0xdb;
    head.writeUInt32BE(body.length, 1);
    return hex(head) + hex(body);
  };
  const strings = [];
  for (const n of [0x10000, 0x10001, 100_003]) {
    for (const tail of ['😀', '\ud800', '\udc00', '\ud800\ud800', 'é😀', '€\udbff']) {
      strings.push('é'.repeat(8) + 'x'.repeat(n - 8 - tail.length) + tail); // cut at the room's end
      strings.push('x'.repeat(n - 2) + tail + 'x'); // a unit after it
      strings.push(tail.repeat(Math.ceil(n / tail.length))); // nothing but them
    }
  }
  test.each(INSTANCES)('%s: encode(), encodeSharedRef(), encodeInto(), in an array', (name, m) => {
    const encoder = new m.Encoder({ initialBufferSize: 64 });
    for (const s of strings) {
      const want = str32(s);
      expect(hex(m.encode(s)), `${name} ${s.length}`).toBe(want);
      expect(hex(encoder.encodeSharedRef([1, s]))).toBe(`9201${want}`);
      const target = new Uint8Array(want.length / 2 + 1);
      expect(encoder.encodeInto(s, target, 1)).toBe(target.length);
      expect(hex(target.subarray(1))).toBe(want);
    }
  });
});
