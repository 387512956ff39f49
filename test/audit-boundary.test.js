// audit-boundary.test.js - the fourth audit's findings (issue 42, sixth
// step), each a test that failed on a0fb5a2: a call whose own growth of wasm
// memory detached the caller's view of it, which a path then read (or wrote)
// through that view instead of where the heap placed or keeps it; a
// decodeMulti() loop whose body detached the input; and arguments that
// reached the engine's own errors.
import { decode as msgpackDecode } from '@msgpack/msgpack';
import { describe, expect, test } from 'vitest';
import { catchError } from './messages-helpers.js';
import { FastmpError, asBools, createFastmp, decodeMulti, encode, packBool, packInto, unpack, unpackFrom } from '../js/node.js';

// Default (SIMD) and scalar: each finding showed on both. (With pureJs 'never' the first did not:
// the kernel path places its input.)
const BACKENDS = [['simd', {}], ['scalar', { backend: 'scalar' }]];


describe('1: a small typed field in wasm memory, where the store grows for it, is read after the growth', () => {
  // A bin of 1 MB fills the store to the byte (its room is exactly its size, more than twice the
  // store's first size); the field after it grows the store to twice that, which grows wasm memory
  // and detaches the field's alloc() array. Small fields (below the pack crossovers) are packed
  // in JS, from the array as it can be read after that growth.
  const FIELDS = [
    ['Float32Array', (m) => m.alloc(Float32Array, 4).fill(1.5), [1.5, 1.5, 1.5, 1.5]],
    ['Int32Array', (m) => m.alloc(Int32Array, 3).fill(-7), [-7, -7, -7]],
    ['asBools()', (m) => asBools(m.alloc(Uint8Array, 3).fill(1)), [true, true, true]],
  ];

  test.each(BACKENDS.flatMap(([b, o]) => FIELDS.map(([name, make, want]) => [b, name, o, make, want])))('%s: %s', async (_, __, options, make, want) => {
    const m = await createFastmp(options);
    const field = make(m);
    const before = m.memoryStats().wasmMemory;
    const bytes = m.encode([new Uint8Array(1 << 20), field]);
    expect(m.memoryStats().wasmMemory).toBeGreaterThan(before); // (the case: memory grew in the call)
    expect(Array.from(msgpackDecode(bytes)[1])).toEqual(want);
  });
});

describe('2: ASN.1 units in the latest packView() output are encoded from where they were placed', () => {
  // 1.5 MB of units inside a packView() output: placing them (a copy, as the output is scratch)
  // grows scratch past memory, which detaches the caller's view; the kernel converts the n
  // units the call was given, and a bad one is quoted as the kernel read it.
  const N = 1_500_000;
  const unitsInOutput = (m, unit) => {
    const output = m.packView(new Uint8Array(N));
    return new Uint16Array(output.buffer, output.byteOffset + 6, N / 2 - 3).fill(unit);
  };

  test.each(BACKENDS.flatMap(([b, o]) => ['encodeBMP', 'encodeIA5', 'writeBMPString'].map((fn) => [b, fn, o])))('%s: %s', async (_, fn, options) => {
    const m = await createFastmp(options);
    const units = unitsInOutput(m, 0x42);
    const expected = (await createFastmp(options))[fn](units.slice());
    const got = m[fn](units);
    expect(got.length).toBe(expected.length);
    expect(Buffer.compare(got, expected)).toBe(0); // (1.5 MB: toEqual() would compare them element by element)
  });

  test.each(BACKENDS)('%s: a surrogate among them is SURROGATE, quoted', async (_, options) => {
    const m = await createFastmp(options);
    const err = catchError(() => m.encodeBMP(unitsInOutput(m, 0xd800)));
    expect(err).toBeInstanceOf(FastmpError);
    expect([err.code, err.index, err.offset]).toEqual(['SURROGATE', 0, 0]);
    expect(err.message).toMatch(/char 0 \(U\+D800\)/);
  });
});

describe('3: packInto() of an alloc() target that the call\'s growth detached writes the array', () => {
  test.each(BACKENDS)('%s', async (_, options) => {
    const m = await createFastmp(options);
    const n = 800_000; // more scratch than alloc() reserved for the target: the call grows memory
    const target = m.alloc(Uint8Array, n + 5);
    const before = m.memoryStats().wasmMemory;
    const end = m.packInto(new Int8Array(n).fill(7), target);
    expect(m.memoryStats().wasmMemory).toBeGreaterThan(before);
    expect(end).toBe(n + 5);
    const written = m.refresh(target);
    expect(Array.from(written.subarray(0, 8))).toEqual([0xdd, 0, 0x0c, 0x35, 0, 7, 7, 7]);
    expect(written.subarray(5).every((b) => b === 7)).toBe(true);
  });
});

describe('4: an ASN.1 decode error in an input the call\'s growth detached quotes the char the kernel read', () => {
  const N = 1_500_001; // the content and the output do not fit in scratch: the call grows memory
  test.each(BACKENDS)('%s: decodeIA5ToUint16', async (_, options) => {
    const m = await createFastmp(options);
    const err = catchError(() => m.decodeIA5ToUint16(m.packView(new Uint8Array(N).fill(0x41)))); // a bin: 0xC6 first
    expect(err).toBeInstanceOf(FastmpError);
    expect([err.code, err.index, err.offset]).toEqual(['RANGE', 0, 0]);
    expect(err.message).toMatch(/char 0 at byte 0 is 0xC6,/);
  });

  test.each(BACKENDS)('%s: decodeBMPToUint16', async (_, options) => {
    const m = await createFastmp(options);
    const content = new Uint8Array(N).fill(0x41);
    content.set([0xd8, 0], 1); // bytes 6 and 7 of the bin: char 3
    const err = catchError(() => m.decodeBMPToUint16(m.packView(content)));
    expect([err.code, err.index, err.offset]).toEqual(['SURROGATE', 3, 6]);
    expect(err.message).toMatch(/char 3 at byte 6 is 0xD800,/);
  });
});

describe('5: decodeMulti() refuses an input its loop\'s body detached or shrank (DETACHED), not ending early', () => {
  const VALUES = [{ a: 1 }, [1, 2, 3], 'hello'];
  const joined = (buffer) => {
    const parts = VALUES.map((v) => encode(v));
    const bytes = new Uint8Array(buffer, 0, parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const p of parts) {
      bytes.set(p, at);
      at += p.length;
    }
    return bytes;
  };
  const HOW = [
    ['transferred', () => new ArrayBuffer(64), (bytes) => structuredClone(bytes.buffer, { transfer: [bytes.buffer] })],
    ['shrunk', () => new ArrayBuffer(64, { maxByteLength: 64 }), (bytes) => bytes.buffer.resize(2)],
  ];

  test.each(HOW)('%s after the first value', (_, buffer, spoil) => {
    const bytes = joined(buffer());
    const seen = [];
    const err = catchError(() => {
      for (const value of decodeMulti(bytes)) {
        seen.push(value);
        spoil(bytes);
      }
    });
    expect(seen).toEqual([VALUES[0]]);
    expect(err).toBeInstanceOf(FastmpError);
    expect([err.code, err.offset, err.path]).toEqual(['DETACHED', 4, '$']);
  });

  test('an input left whole reads to its end', () => {
    expect([...decodeMulti(joined(new ArrayBuffer(64)))]).toEqual(VALUES);
  });
});

describe('6: a revoked Proxy given as the array or as the options is the call\'s TypeError, not the engine\'s', () => {
  const revoked = () => {
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    return proxy;
  };
  test.each([
    ['packBool', () => packBool(revoked()), /^fastmp: packBool\(\) takes an array of booleans or a Uint8Array, not an object$/],
    ['encode options', () => encode(1, revoked()), /options must be a plain object, not an object$/],
    ['unpack options', () => unpack(Uint8Array.of(0x90), Int8Array, revoked()), /^fastmp: unpack\(\) options must be a plain object, not an object$/],
  ])('%s', (_, call, message) => {
    const err = catchError(call);
    expect(err).toBeInstanceOf(TypeError);
    expect(err.message).toMatch(message);
  });
});

describe('7: an options getter that shrinks the target or the input below the offset: the offset is refused again, as after the shrink', () => {
  test('packInto()', () => {
    const buffer = new ArrayBuffer(64, { maxByteLength: 64 });
    const target = new Uint8Array(buffer); // (tracks the buffer's length)
    const err = catchError(() => packInto(Float32Array.of(1), target, 40, { get bin() { buffer.resize(8); return true; } }));
    expect(err).toBeInstanceOf(RangeError);
    expect(err.message).toBe('fastmp: packInto() offset must be an integer from 0 to 8, not the number 40');
  });

  test('unpackFrom()', () => {
    const buffer = new ArrayBuffer(16, { maxByteLength: 16 });
    const input = new Uint8Array(buffer).fill(0x90);
    const err = catchError(() => unpackFrom(input, Int8Array, 10, { get integralFloats() { buffer.resize(4); return false; } }));
    expect(err).toBeInstanceOf(RangeError);
    expect(err.message).toBe('fastmp: unpackFrom() offset must be an integer from 0 to 4, not the number 10');
  });
});
