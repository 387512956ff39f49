// Audit of the error contract (docs/errors.md): every error about input is a
// FastmpError with a declared code, the same index / offset / path on every
// build, never an engine TypeError. Found: user code that the decoder runs
// and does not check afterwards (a keyDecoder of the caller's; a stream
// consumer's loop body) could detach the input, and the decode then threw
// the engine's TypeError; and a stream's text hint named an HTML body "text".

import { readFileSync } from 'node:fs';
import * as msgpack from '@msgpack/msgpack';
import { beforeAll, describe, expect, test } from 'vitest';
import { FastmpError, createFastmp, mapOf, optional } from '../js/index.js';
import * as fm from '../js/index.js';

const DECLARED = (() => {
  const dts = readFileSync(new URL('../js/index.d.ts', import.meta.url), 'utf8');
  const decl = dts.slice(dts.indexOf('export type FastmpErrorCode'), dts.indexOf('export class FastmpError'));
  return new Set(decl.match(/'[A-Z_0-9]+'/g).map((s) => s.slice(1, -1)));
})();

const BUILDS = { default: fm };
beforeAll(async () => {
  await fm.init();
  BUILDS.scalar = await createFastmp({ backend: 'scalar', pureJs: 'never' });
  BUILDS.js = await createFastmp({ backend: 'js' });
});

const u8 = (...parts) => Uint8Array.from(parts.flat(Infinity));
const detach = (bytes) => structuredClone(bytes.buffer, { transfer: [bytes.buffer] });
/** Every value of an async iterable, in an array. */
async function all(iterable) {
  const out = [];
  for await (const v of iterable) out.push(v);
  return out;
}
async function* chunksOf(bytes, size) {
  for (let i = 0; i < bytes.length; i += size) yield bytes.slice(i, i + size);
}

/** The error fn throws (sync or async), checked to be a FastmpError with a declared code. */
async function fastmpError(fn) {
  let err;
  try {
    await fn();
  } catch (e) {
    err = e;
  }
  expect(err, 'expected an error').toBeDefined();
  expect(err, `${err?.constructor?.name}: ${err?.message}`).toBeInstanceOf(FastmpError);
  expect(DECLARED.has(err.code), err.code).toBe(true);
  return err;
}

describe('user code that detaches the input mid-decode: DETACHED, never the engine\'s TypeError', () => {
  // [1, { a: 1.0 }]: the key "a" at byte 3 (its content at 4), its float64 value at byte 5.
  const message = () => u8(0x92, 1, 0x81, 0xa1, 0x61, 0xcb, 0x3f, 0xf0, 0, 0, 0, 0, 0, 0);

  for (const hook of ['canBeCached', 'decode']) {
    test(`a keyDecoder of the caller's whose ${hook}() detaches the input: DETACHED at the key's content (a mapKeyConverter's: at the key)`, async () => {
      for (const [name, f] of Object.entries(BUILDS)) {
        const input = message();
        const keyDecoder = {
          canBeCached: () => (hook === 'canBeCached' && detach(input), true),
          decode: () => (hook === 'decode' && detach(input), 'a'),
        };
        const err = await fastmpError(() => f.decode(input, { keyDecoder }));
        expect([name, err.code, err.offset, err.path]).toEqual([name, 'DETACHED', 4, '$[1]{key 0}']);
        // What a mapKeyConverter that does the same gets.
        const again = message();
        const converted = await fastmpError(() => f.decode(again, { mapKeyConverter: (k) => (detach(again), k) }));
        expect([converted.code, converted.offset, converted.path]).toEqual(['DETACHED', 3, '$[1]{key 0}']);
      }
    });
  }

  test('a stream consumer whose loop body detaches or shrinks the chunk it was given, before the chunk\'s next value', async () => {
    for (const [name, f] of Object.entries(BUILDS)) {
      for (const fn of ['decodeMultiStream', 'decodeArrayStream']) {
        for (const how of ['detach', 'shrink']) {
          const bytes = fn === 'decodeArrayStream' ? [0x93, 1, 2, 3] : [1, 2, 3];
          const buffer = new ArrayBuffer(bytes.length, { maxByteLength: 16 });
          const chunk = new Uint8Array(buffer);
          chunk.set(bytes);
          async function* source() { yield chunk; }
          const got = [];
          const err = await fastmpError(async () => {
            for await (const v of f[fn](source())) {
              got.push(v);
              if (how === 'detach') detach(chunk);
              else buffer.resize(1);
            }
          });
          const at = bytes.length - 2; // the second value's byte in the stream
          expect([name, fn, how, got, err.code, err.streamOffset]).toEqual([name, fn, how, [1], 'DETACHED', at]);
          expect(err.message.match(/of the stream/g)).toEqual(['of the stream']); // (where the value starts, said once)
        }
      }
    }
  });
});

describe('a stream of a text body is named as decode() names it', () => {
  const html = new TextEncoder().encode('<!DOCTYPE html><html><body>502 Bad Gateway</body></html>');
  const json = new TextEncoder().encode('{"id":1,"name":"x"}');

  test('decodeAsync(res.body) of an HTML error page says HTML, at every chunking', async () => {
    expect(() => fm.decode(html)).toThrow(/looks like HTML or XML/);
    for (const size of [1, 2, 7, html.length]) {
      const err = await fastmpError(() => fm.decodeAsync(chunksOf(html, size)));
      expect([size, err.code, err.streamOffset]).toEqual([size, 'TRAILING', 1]);
      expect(err.message).toMatch(/looks like HTML or XML/);
    }
    const whole = await fastmpError(() => fm.decodeAsync(chunksOf(html, html.length)));
    expect(whole.message).toMatch(/it starts "<!DOCTYPE html>/); // from its first byte, as decode() quotes it
  });

  test('a JSON body quoted from its first byte', async () => {
    const err = await fastmpError(() => fm.decodeAsync(chunksOf(json, 4)));
    expect(err.message).toMatch(/looks like JSON text .*it starts "\{\\"id/);
  });
});

describe('a never-used byte (0xc1) on a stream that stays open: refused at once, as @msgpack/msgpack refuses it', () => {
  // The decoder holds an array's count to the bytes left before it reads an element (LENGTH),
  // and a stream waits on LENGTH: it waited for bytes that could not make the value valid.
  /** A web stream of `bytes` in chunks of `size`, never closed. */
  const open = (bytes, size) => new ReadableStream({
    start(controller) {
      for (let i = 0; i < bytes.length; i += size) controller.enqueue(bytes.slice(i, i + size));
    },
  });
  /** The error of p, or 'waits' when p has not settled after `ms`. */
  const settled = (p, ms = 2000) => Promise.race([p.then(() => 'a value', (e) => e), new Promise((resolve) => setTimeout(() => resolve('waits'), ms))]);

  test.each([
    ['[0xc1, …]', u8(0x92, 0xc1), 1, '$[0]'],
    ['{ a: 0xc1, … }', u8(0x82, 0xa1, 0x61, 0xc1), 3, '$.a'],
    ['[1, [2, 0xc1]] in a longer array', u8(0x93, 0x01, 0x92, 0x02, 0xc1), 4, '$[1][1]'],
  ])('%s', async (_, bytes, offset, path) => {
    for (const [name, build] of Object.entries(BUILDS)) {
      for (const size of [1, bytes.length]) {
        const err = await settled(build.decodeAsync(open(bytes, size)));
        expect(err, `${name}, chunks of ${size}`).toBeInstanceOf(FastmpError);
        expect([name, size, err.code, err.offset, err.path, err.streamOffset]).toEqual([name, size, 'TAG', offset, path, 0]);
      }
    }
    expect(await settled(msgpack.decodeAsync(open(bytes, 1)))).toBeInstanceOf(msgpack.DecodeError); // (the peer's behaviour)
  });
});

describe('one error, whichever entry point and build (confirmed)', () => {
  // [{ a: 1 }, { b: [1, { c: X }] }] with X at byte 13: $[1].b[1].c
  const nested = (x) => u8(0x92, 0x81, 0xa1, 0x61, 1, 0x81, 0xa1, 0x62, 0x92, 1, 0x81, 0xa1, 0x63, x);
  const cases = [
    ['TAG', nested([0xc1]), undefined, { code: 'TAG', index: -1, offset: 13, path: '$[1].b[1].c' }, /unrecognized type byte/],
    ['LENGTH', nested([0xdb, 0xff, 0xff, 0xff, 0xff, 0x61]), undefined, { code: 'LENGTH', index: -1, offset: 13, path: '$[1].b[1].c', needed: 13 + 5 + 0xffffffff }, /insufficient data/],
    ['KEY', nested([0x81, 0xa9, [...Buffer.from('__proto__')], 1]), undefined, { code: 'KEY', index: -1, offset: 14, path: '$[1].b[1].c{key 0}' }, /__proto__/],
    // A long shaped field (the kernel reads it on a wasm build): the element's index and byte.
    // [{ a: 1 }, { b: { c: X } }], X at byte 11: 255 elements, then 300.
    ['RANGE', u8(0x92, 0x81, 0xa1, 0x61, 1, 0x81, 0xa1, 0x62, 0x81, 0xa1, 0x63, 0xdc, 0x01, 0x00, Array(255).fill(5), 0xcd, 0x01, 0x2c),
      { shape: [{ b: optional({ c: Int8Array }) }] },
      { code: 'RANGE', index: 255, offset: 11 + 3 + 255, path: '$[1].b.c', value: 300 }, /element 255 at byte 269 is 300 .*Int8Array cannot hold/],
  ];

  test.each(cases)('%s', async (_, bytes, options, want, message) => {
    for (const [name, f] of Object.entries(BUILDS)) {
      const calls = {
        decode: () => f.decode(bytes, options),
        decodeFrom: () => f.decodeFrom(bytes, options),
        decodeMulti: () => [...f.decodeMulti(bytes, options)],
        'Decoder.decode': () => new f.Decoder(options).decode(bytes),
        'decodeAsync (1-byte chunks)': () => f.decodeAsync(chunksOf(bytes, 1), options),
        decodeMultiStream: () => all(f.decodeMultiStream(chunksOf(bytes, 3), options)),
      };
      for (const [call, run] of Object.entries(calls)) {
        const err = await fastmpError(run);
        expect({ at: `${name} ${call}`, ...Object.fromEntries(Object.keys(want).map((k) => [k, err[k]])) }).toEqual({ at: `${name} ${call}`, ...want });
        expect(err.message).toMatch(message);
        expect(err.message.startsWith(`fastmp: at ${want.path}: `)).toBe(true);
      }
      // An element of decodeArrayStream(): its path from the array, its offset from the element.
      const err = await fastmpError(() => all(f.decodeArrayStream(chunksOf(bytes, 2), options && { shape: options.shape[0] })));
      expect([err.code, err.path, err.offset, err.streamOffset]).toEqual([want.code, want.path, want.offset - 5, 5]);
    }
  });
});

describe('keys named as Object.prototype\'s members: own properties, whatever the options (confirmed)', () => {
  const names = ['constructor', 'prototype', 'hasOwnProperty', 'toString', 'valueOf', '__defineGetter__', 'isPrototypeOf'];
  const str = (s, form) => {
    const b = [...Buffer.from(s)];
    return form === 0 ? [0xa0 | b.length, b] : form === 1 ? [0xd9, b.length, b] : [0xdb, 0, 0, 0, b.length, b];
  };
  const optionSets = [
    undefined, { keyDecoder: null }, { mapKeyConverter: (k) => k }, { rawStrings: true },
    { keyDecoder: { canBeCached: () => true, decode: (b, p, n) => Buffer.from(b.subarray(p, p + n)).toString() } },
    { shape: { constructor: Float32Array, prototype: optional(Int8Array) } }, { shape: mapOf(Float64Array) },
  ];

  test('decode, decodeMulti, Decoder and decodeAsync, as @msgpack/msgpack reads them; __proto__ a KEY error', async () => {
    for (const form of [0, 1, 2]) {
      for (const name of [...names, '__proto__']) {
        const bytes = u8(0x82, str(name, form), 0x91, 0x01, 0xa1, 0x7a, 0x91, 0x02);
        for (const options of optionSets) {
          for (const f of Object.values(BUILDS)) {
            const reads = [() => f.decode(bytes, options), () => [...f.decodeMulti(bytes, options)][0], () => new f.Decoder(options).decode(bytes), () => f.decodeAsync(chunksOf(bytes, 1), options)];
            for (const read of reads) {
              if (name === '__proto__') {
                expect((await fastmpError(read)).code).toBe('KEY');
                continue;
              }
              let value;
              try {
                value = await read();
              } catch (e) {
                // Only a shape that names other fields may refuse the map.
                expect(options?.shape !== undefined && e instanceof FastmpError && ['MISSING', 'TYPE'].includes(e.code)).toBe(true);
                continue;
              }
              expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
              expect(Object.hasOwn(value, name)).toBe(true);
              expect(Object.hasOwn(value, 'z')).toBe(true);
            }
          }
        }
        if (name !== '__proto__') expect(Object.hasOwn(msgpack.decode(bytes), name)).toBe(true);
      }
    }
    expect(Object.prototype.z).toBe(undefined);
    expect({}.z).toBe(undefined);
  });
});
