// audit-errors2.test.js - the error contract, a second look (docs/errors.md,
// js/errors.js, js/codec/path.js, the throw sites of js/). Each describe
// block is a finding that failed on 50fbdea: misuse that reached the
// engine's own TypeError (or ran the caller's code) instead of fastmp's
// message naming the function, and messages that printed a huge input whole
// (a map key of megabytes through the path). (A BigInt of millions of bits
// that encode() refuses is still printed in decimal: only a caller's own
// value can be one, and the check weighs on every codec page. A revoked
// Proxy given to decode() as its input still gets the engine's TypeError,
// a TypeError as misuse is: the try around the hint weighed 17 B on the
// shaped page, which has 9 B left under its ceiling.) errors.md: "Misuse is the engine's kind of error, naming the
// function ... a RangeError for an offset that is not an integer within the
// input (whatever its type)".

import { describe, expect, test } from 'vitest';
import * as fm from '../js/index.js';
import { DecodeError, FastmpError } from '../js/index.js';

/** What fn throws (sync or async). */
async function thrown(fn) {
  try {
    const r = await fn();
    if (r && typeof r.next === 'function' && typeof r[Symbol.iterator] === 'function') [...r];
  } catch (e) {
    return e;
  }
  throw new Error('expected an error, nothing was thrown');
}

/** A message short enough to log: what a huge input puts in it is cut. */
const SHORT = 400;

describe('1: Decoder.decodeFrom() offset of any type: the RangeError unpackFrom() gives, without running its code', () => {
  // js/codec/decoder-inputs.js formatted the offset with String(): an object
  // without a prototype threw the engine's TypeError, an object's toString()
  // ran, and a string offset was printed whole.
  const bytes = Uint8Array.of(0x01, 0x02);

  test('an object without a prototype, a Symbol-keyed or a converting object', async () => {
    let ran = false;
    const offsets = [Object.create(null), { toString: () => { ran = true; return '1'; } }, { [Symbol.toPrimitive]: () => { ran = true; return 1; } }, [1]];
    for (const offset of offsets) {
      const err = await thrown(() => new fm.Decoder().decodeFrom(bytes, offset));
      expect(err, err.message).toBeInstanceOf(RangeError);
      expect(err.message).toMatch(/^fastmp: decodeFrom\(\) offset must be an integer from 0 to 2, not (an object|an Array)$/);
      // (the same words as unpackFrom()'s)
      expect(() => fm.unpackFrom(Uint8Array.of(0x90), Float32Array, offset)).toThrow(/^fastmp: unpackFrom\(\) offset must be an integer from 0 to 1, not (an object|an Array)$/);
    }
    expect(ran).toBe(false);
  });

  test('a string offset of a megabyte is named, not printed', async () => {
    const err = await thrown(() => new fm.Decoder().decodeFrom(bytes, 'k'.repeat(1 << 20)));
    expect(err).toBeInstanceOf(RangeError);
    expect(err.message.length).toBeLessThan(SHORT);
    expect(err.message).toMatch(/not the string "k+…"$/);
  });
});

describe('2: a map key of a megabyte on the path: the message cuts the path', () => {
  // js/codec/path.js withPath() wrote every key whole into the message.
  const big = 'k'.repeat(1 << 20);
  const str32 = (s) => [0xdb, 0, (s.length >> 16) & 0xff, (s.length >> 8) & 0xff, s.length & 0xff, ...Buffer.from(s)];
  // { [big]: [1, 0xc1] }: the 0xc1 at byte 1 + 5 + 2^20 + 2
  const message = Uint8Array.from([0x81, ...str32(big), 0x92, 0x01, 0xc1]);
  const at = 1 + 5 + big.length + 2;

  test('decode, decodeMulti and decodeAsync: the path\'s start, then …; code, offset and err.path as before', async () => {
    const calls = {
      decode: () => fm.decode(message),
      decodeMulti: () => fm.decodeMulti(message),
      decodeAsync: () => fm.decodeAsync((async function* () { yield message.slice(0, 1000); yield message.slice(1000); })()),
    };
    for (const [name, call] of Object.entries(calls)) {
      const err = await thrown(call);
      expect(err, name).toBeInstanceOf(DecodeError);
      expect([name, err.code, err.offset]).toEqual([name, 'TAG', at]);
      expect(err.path).toBe(`$.${big}[1]`); // (the field holds the path whole)
      expect(err.message.length, name).toBeLessThan(SHORT);
      expect(err.message).toMatch(/^fastmp: at \$\.k{198}…: unrecognized type byte/); // (its first 200 chars)
    }
  });

  test('encode: an object key and a Map key', async () => {
    for (const value of [{ [big]: [1, 2n] }, new Map([[big, [1, 2n]]])]) {
      const err = await thrown(() => fm.encode(value));
      expect(err).toBeInstanceOf(FastmpError);
      expect([err.code, err.path]).toEqual(['TYPE', `$.${big}[1]`]);
      expect(err.message.length).toBeLessThan(SHORT);
      expect(err.message).toMatch(/^fastmp: at \$\.k{198}…: cannot encode the bigint 2n/);
    }
  });
});

describe('3: misuse named by fastmp, whatever the argument: no engine TypeError, no huge name printed', () => {
  test('ExtensionCodec.register() of a type that is an object without a prototype, or a megabyte string', async () => {
    // js/codec/ext.js: String(type).
    const codec = new fm.ExtensionCodec();
    for (const type of [Object.create(null), 'k'.repeat(1 << 20), { toString: () => { throw new Error('ran'); } }]) {
      const err = await thrown(() => codec.register({ type, encode: null, decode: null }));
      expect(err).toBeInstanceOf(TypeError);
      expect(err.message).toMatch(/^fastmp: an extension type is an integer from -128 to 127, not (an object|the string "k{40}…")$/);
    }
  });
});

describe('4: a polluted prototype has no say in what an error says (js/tags.js headerSize(); seen by the ASN.1 audit)', () => {
  test('unpack() of an array header that claims more than the input holds: its message and `needed` count the header\'s own bytes', async () => {
    const expected = await thrown(() => fm.unpack(Uint8Array.of(0x93, 1), Int32Array));
    expect(expected).toMatchObject({ code: 'LENGTH', needed: 4 });
    Object.prototype[0x93] = 100;
    try {
      const err = await thrown(() => fm.unpack(Uint8Array.of(0x93, 1), Int32Array));
      expect({ code: err.code, needed: err.needed, message: err.message }).toEqual({ code: 'LENGTH', needed: 4, message: expected.message });
    } finally {
      delete Object.prototype[0x93];
    }
  });
});
