// audit-reentrancy.test.js - an audit of the places where fastmp runs the
// caller's code in the middle of its own work (extension codecs, getters,
// Proxy traps, valueOf/toString, mapKeyConverter, keyDecoder, stream
// sources and loop bodies) and calls fastmp again from there. Each numbered
// describe() is a finding that failed on 50aa336 (the second, left alone: a
// stream reads a value again after a header at maxDepth the decoder lets
// through, running its extension decoders again); the last one holds what was
// confirmed right and no other test covers (callbacks that call the same
// Encoder / Decoder, the module functions, another instance, and grow wasm
// memory, on the default build, scalar and pure JS).
import * as msgpack from '@msgpack/msgpack';
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, test } from 'vitest';
import * as codec from '../js/codec/index.js';
import * as entry from '../js/node.js';
import { ExtData, ExtensionCodec, FastmpError, createFastmp, encode, init } from '../js/node.js';
import { catchError, chunksOf, hex } from './messages-helpers.js';

await init();
const INSTANCES = [['default', entry], ['scalar', await createFastmp({ backend: 'scalar' })], ['js', await createFastmp({ backend: 'js' })]];
const ENTRIES = [['fastmp-wasm', entry], ['pure-JS codec', codec]];

describe('1: a stream runs an ExtensionCodec subclass\'s own decode() once a value, whatever the chunking (js/codec/ext.js decodesCallerCode)', () => {
  // A codec whose class overrides decode() was taken for one that calls no code of the caller's:
  // the stream read a value on the chunk first, and again, whole, from its tail once the chunk
  // was found to cut it, calling decode() twice for each ext before the cut.
  const bytes = Uint8Array.from([0x93, 0xd4, 5, 1, 0xd4, 5, 2, ...msgpack.encode({ a: 1, b: 'x'.repeat(300) })]);
  const counting = (Base) => class extends Base {
    calls = 0;

    decode(data, type, context) {
      if (type !== 5) return super.decode(data, type, context);
      this.calls++;
      return data[0];
    }
  };

  test.each(ENTRIES)('%s: at every cut, as @msgpack/msgpack', async (_, lib) => {
    const peer = new (counting(msgpack.ExtensionCodec))();
    const want = await msgpack.decodeAsync(chunksOf(bytes, [bytes.length]), { extensionCodec: peer });
    expect(peer.calls).toBe(2);
    const Counting = counting(lib.ExtensionCodec);
    for (let cut = 1; cut < bytes.length; cut++) {
      const extensionCodec = new Counting();
      const value = await lib.decodeAsync(chunksOf(bytes, [cut, bytes.length]), { extensionCodec });
      expect([cut, value, extensionCodec.calls]).toEqual([cut, want, 2]);
    }
  });
});

describe('3: an ExtData type whose valueOf() grows wasm memory: the bytes of the type as a number (js/codec/encoder.js writeExt)', () => {
  // The type was converted by the write of its byte, into the store's bytes read before it:
  // memory grown meanwhile had detached them, and the payload's copy was the engine's TypeError
  // ("Cannot perform %TypedArray%.prototype.set on a detached ArrayBuffer") on the wasm builds.
  test.each(INSTANCES)('%s', (name, m) => {
    for (const deferred of [false, true]) {
      const grown = [];
      const type = {
        valueOf() {
          const before = m.memoryStats().wasmMemory;
          if (name !== 'js') m.alloc(Uint8Array, before); // (kept: memory must grow)
          grown.push(m.memoryStats().wasmMemory > before);
          return 5;
        },
      };
      const data = Uint8Array.of(1, 2, 3);
      const value = { a: 'x'.repeat(40), e: new ExtData(type, deferred ? () => data : data), z: [1, 2] };
      const got = m.encode(value);
      const want = msgpack.encode({ a: 'x'.repeat(40), e: new msgpack.ExtData(5, deferred ? () => data : data), z: [1, 2] });
      expect(hex(got)).toBe(hex(want));
      expect(grown).toEqual([name !== 'js']); // (valueOf ran once, and grew memory where there is wasm)
    }
  });
});

describe('4: a mapKeyConverter result whose toString() detaches the input: DETACHED, as the converter\'s own (js/codec/decoder.js readKey)', () => {
  // The input was checked after the converter and before its result was made a string: the
  // decode read on from a detached input, and the next byte, undefined, reached describeTag():
  // "TypeError: Cannot read properties of undefined (reading 'toString')".
  test.each(ENTRIES)('%s', (_, lib) => {
    const bytes = lib.encode([{ k: 1.5, j: 2 }, 2.5]);
    const input = bytes.slice();
    let detached = false;
    const mapKeyConverter = (key) => ({
      toString() {
        if (!detached) structuredClone(input.buffer, { transfer: [input.buffer] });
        detached = true;
        return key;
      },
    });
    const err = catchError(() => lib.decode(input, { mapKeyConverter }));
    expect(err).toBeInstanceOf(FastmpError);
    expect([err.code, err.offset, err.path]).toEqual(['DETACHED', 2, '$[0]{key 0}']);
    expect(lib.decode(bytes, { mapKeyConverter })).toEqual([{ k: 1.5, j: 2 }, 2.5]);
  });
});

describe('5: a Proxy of an array whose length is no array length: a TYPE error, never a malformed message (js/codec/encoder.js writeArray)', () => {
  // The header was written from the length as it was (2.5: fixarray 2, then three elements;
  // -1: the byte 0xff, which reads as the integer -1), and the elements read up to it.
  test.each(ENTRIES)('%s', (_, lib) => {
    for (const length of [2.5, -1, 70000.5]) {
      const proxy = new Proxy([1, 2, 3], { get: (t, k) => (k === 'length' ? length : t[k]) });
      const err = catchError(() => lib.encode({ list: proxy }));
      expect(err).toBeInstanceOf(FastmpError);
      expect([length, err.code, err.path]).toEqual([length, 'TYPE', '$.list']);
    }
    const honest = new Proxy([1, 2, 3], {});
    expect(hex(lib.encode({ list: honest }))).toBe(hex(msgpack.encode({ list: [1, 2, 3] })));
  });
});

describe('callbacks that call fastmp again (confirmed)', () => {
  // What each callback does: the same Encoder / Decoder again, the module functions (their kept
  // Encoder / Decoder), another instance, and calls that grow wasm memory or use its scratch.
  const other = createFastmp({ backend: 'scalar' });

  test.each(INSTANCES)('%s: encode from an extension, a (pos) => payload, a getter and Proxy traps: the same bytes, an earlier encodeSharedRef() output read whole', async (name, m) => {
    const inner = { q: new Float32Array(5000).fill(3), s: 'y'.repeat(300) };
    const spare = await other;
    let encoder;
    const actions = [
      () => encoder.encode(inner),
      () => encoder.encodeSharedRef(inner),
      () => encoder.encodeInto(inner, new Uint8Array(1 << 16), 7),
      () => encoder.dispose(),
      () => m.encode(inner),
      () => spare.encode(inner),
      () => m.pack(new Float64Array(1 << 18).fill(1.5)),
      () => (name === 'js' ? null : m.free(m.alloc(Float64Array, 1 << 19))),
      () => m.decode(m.encode(inner), { shape: { q: Float32Array } }),
      () => m.decodeBMP(m.encodeBMP('h\u00e9llo'.repeat(2000))),
    ];
    let act = null;
    const fire = () => {
      const a = act;
      act = null; // (once: the inner calls meet no armed hook)
      a?.();
    };
    const extensionCodec = new ExtensionCodec();
    let armed = null; // the one hook that calls fire()
    const at = (kind) => (kind === armed ? fire() : undefined);
    extensionCodec.register({ type: 3, encode: (v) => (v instanceof Set ? (pos) => { at('set'); return Uint8Array.of(pos & 0xff, 9); } : null), decode: (d) => d });
    const value = () => ({
      head: new Float32Array(4000).fill(0.5),
      getter: { a: 1, get b() { at('getter'); return 'two'; } },
      get: new Proxy({ a: 1, b: 'two' }, { get(t, k) { at('get'); return t[k]; } }),
      ownKeys: new Proxy({ a: 1, b: 'two' }, { ownKeys(t) { at('ownKeys'); return Reflect.ownKeys(t); } }),
      proto: new Proxy({ a: 1, b: 'two' }, { getPrototypeOf() { at('proto'); return Object.prototype; } }),
      length: new Proxy([1, 'two'], { get(t, k) { if (k === 'length') at('length'); return t[k]; } }),
      set: new Set([1]),
      tail: new Int32Array(3000).fill(-100000),
    });
    const want = hex(new m.Encoder({ extensionCodec }).encode({ v: value(), prev: encode({ prev: 1 }) }));
    for (const [i, action] of actions.entries()) {
      for (const hook of ['getter', 'get', 'ownKeys', 'proto', 'length', 'set']) {
        encoder = new m.Encoder({ extensionCodec });
        const prev = encoder.encodeSharedRef({ prev: 1 }); // (valid until the next call ends: read whole in it)
        let ran = 0;
        armed = hook;
        act = () => {
          ran++;
          action();
        };
        const got = hex(encoder.encode({ v: value(), prev }));
        armed = null;
        expect([i, hook, ran, got === want]).toEqual([i, hook, 1, true]);
        expect(hex(encoder.encode({ v: value(), prev: encode({ prev: 1 }) }))).toBe(want); // (the next call as ever)
      }
    }
  });

  test.each(INSTANCES)('%s: decode from an extension and a mapKeyConverter: the same values, of every kind of input, reusing arrays or not', async (name, m) => {
    const spare = await other;
    const shape = { a: Float32Array, b: Int32Array, list: [Float64Array] };
    const ext = new ExtensionCodec();
    ext.register({ type: 7, encode: (v) => (v instanceof Set ? Uint8Array.of(1, 2, 3) : null), decode: (d) => Array.from(d) });
    const message = { a: new Float32Array(3000).map((_, i) => i / 3), e: new Set(), b: new Int32Array(500).fill(-5), k: { x: 1 }, list: [new Float64Array(700).fill(0.5)] };
    const bytes = m.encode(message, { extensionCodec: ext });
    const inner = m.encode({ a: new Float32Array(5000).fill(1.25), b: new Int32Array(3), list: [] });
    let decoder;
    const actions = [
      () => decoder.decode(inner),
      () => decoder.decodeFrom(inner, 0),
      () => [...decoder.decodeMulti(inner)],
      () => m.decode(inner, { shape }),
      () => spare.decode(inner, { shape }),
      () => m.pack(new Float64Array(1 << 18).fill(1.5)),
      () => (name === 'js' ? null : m.free(m.alloc(Float64Array, 1 << 19))),
      () => m.encode({ v: new Float32Array(1 << 16).fill(1) }),
    ];
    const inputs = {
      plain: () => bytes,
      shared: () => { const s = new Uint8Array(new SharedArrayBuffer(bytes.length)); s.set(bytes); return s; },
      alloc: () => {
        if (name === 'js') return bytes;
        const a = m.alloc(Uint8Array, bytes.length);
        a.set(bytes);
        return a;
      },
      sharedRef: () => new m.Encoder({ extensionCodec: ext }).encodeSharedRef(message),
    };
    for (const reuseTypedArrays of [false, true]) {
      for (const where of ['ext', 'key']) {
        for (const [i, action] of actions.entries()) {
          for (const [kind, input] of Object.entries(inputs)) {
            let armed = false;
            const fire = () => {
              if (!armed) return;
              armed = false;
              action();
            };
            const extensionCodec = new ExtensionCodec();
            extensionCodec.register({ type: 7, encode: () => null, decode: (d) => { if (where === 'ext') fire(); return Array.from(d); } });
            const mapKeyConverter = (key) => { if (where === 'key' && key === 'k') fire(); return key; };
            const options = { extensionCodec, shape, mapKeyConverter, reuseTypedArrays };
            const want = new m.Decoder(options).decode(bytes);
            decoder = new m.Decoder(options);
            decoder.decode(bytes); // (the arrays to reuse)
            const from = input();
            armed = true;
            const got = decoder.decode(from);
            expect([reuseTypedArrays, where, i, kind, isDeepStrictEqual(got, want)]).toEqual([reuseTypedArrays, where, i, kind, true]);
            expect(isDeepStrictEqual(decoder.decode(bytes), want)).toBe(true); // (nothing left over for the next call)
          }
        }
      }
    }
  });
});
