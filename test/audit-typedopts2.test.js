// audit-typedopts2.test.js - the second audit of typed arrays inside messages:
// the Encoder's `typedArrays` modes (js/codec/encoder.js writeView and its
// kin), the stores they are written into (js/codec/stores.js, and the pool's
// release of large stores since c164dbd), the kernels' crossovers
// (js/crossovers.js) and where a field lies. The numbered describe() is a
// finding that failed on c9889a0; the last one holds what was confirmed right
// and no other test covers.
import { encode as msgpackEncode } from '@msgpack/msgpack';
import { describe, expect, test } from 'vitest';
import { jsPort, makeCodec } from '../js/codec/index.js';
import { packBelow, unpackBelow } from '../js/crossovers.js';
import { asBools, createFastmpSync } from '../js/index.js';
import { CORE } from '../js/instances.js';
import { KINDS } from '../js/kinds.js';
import { hex, watchedPort } from './messages-helpers.js';

const MB = 1 << 20;

/** Every build, each taking the path it would take for every size (pure JS; each wasm build with no pure-JS shortcut; auto). */
const BUILDS = [
  ['pure JS', createFastmpSync({ backend: 'js' })],
  ['wasm scalar', createFastmpSync({ backend: 'scalar', pureJs: 'never' })],
  ['wasm SIMD', createFastmpSync({ backend: 'simd', pureJs: 'never' })],
  ['auto', createFastmpSync()],
];
const reference = BUILDS[0][1];
const PORTS = [['pure-JS port', jsPort], ['wasm SIMD', BUILDS[2][1][CORE]], ['wasm scalar', BUILDS[1][1][CORE]]];

describe.each(PORTS)('1: an Encoder whose initialBufferSize is over 1 MB keeps its store between calls (js/codec/stores.js StorePool.giveBack) [%s]', (_, port) => {
  // Since c164dbd the pool releases a store of more than 1 MB that a call used
  // under a quarter of, so that one outlier does not keep its size. A store made
  // at the size the caller asked for (initialBufferSize, @msgpack/msgpack's option:
  // "the Encoder's buffer") is no outlier, yet it was released after every call
  // with a small message, and the next call made a new one: an Encoder reused on
  // a hot path, as messages.md tells, allocated (and zero-filled) its
  // initialBufferSize anew at every call (@msgpack/msgpack allocates it once per
  // Encoder), in JS memory or as a region of wasm memory.
  test('ten small messages, one store', () => {
    const watched = watchedPort(port);
    const { Encoder, encode } = makeCodec(watched.port);
    const encoder = new Encoder({ initialBufferSize: 4 * MB });
    for (let i = 0; i < 10; i++) expect(hex(encoder.encode({ i, v: Float32Array.of(i, 0.5) }))).toBe(hex(reference.encode({ i, v: Float32Array.of(i, 0.5) })));
    expect(watched.stores.length).toBe(1); // 10 on c9889a0
    for (let i = 0; i < 10; i++) encode({ i }, { initialBufferSize: 2 * MB, typedArrays: 'bin' });
    expect(watched.stores.length).toBe(1); // (the idle store is as large: it serves these too)
  });

  test('a store that an outlier grew beyond what was asked is still let go of after a small message', () => {
    const watched = watchedPort(port);
    const encoder = new (makeCodec(watched.port).Encoder)({ initialBufferSize: 2 * MB });
    encoder.encode({ v: new Float64Array(MB) }); // 9 MB: the store grows
    expect(watched.stores.length).toBe(1);
    expect(watched.stores[0].bytes.length).toBeGreaterThan(8 * MB);
    encoder.encode({ a: 1 }); // used under a quarter: released
    encoder.encode({ a: 2 });
    expect(watched.stores.length).toBe(2);
    expect(watched.stores[1].bytes.length).toBeLessThan(4 * MB);
  });
});

describe('confirmed right (no other test covers it)', () => {
  test('large, small, large messages in every mode and build: encode(), encodeSharedRef() read by the next call, encodeInto() an alloc() array, alloc() fields', () => {
    const large = (k) => ({ id: k, v: new Float64Array(150_000).map((_, i) => i * 0.5 + k), w: Int32Array.from({ length: 50_000 }, (_, i) => (i * 7919 * (k + 1)) | 0) });
    const small = (k) => ({ id: k, v: Float32Array.of(k, 1.5), s: 'x'.repeat(k) });
    for (const [name, m] of BUILDS) {
      const wasm = m.backend() !== 'js';
      for (const typedArrays of ['array', 'bin', 'ext']) {
        const encoder = new m.Encoder({ typedArrays });
        for (const [i, v] of [large(1), small(2), small(3), large(4), small(5), large(6)].entries()) {
          const at = `${name} ${typedArrays} message ${i}`;
          const want = reference.encode(v, { typedArrays });
          const shared = encoder.encodeSharedRef(v);
          expect(hex(shared), at).toBe(hex(want));
          // The next call reads the live output (as a bin) while it writes its own.
          expect(hex(encoder.encodeSharedRef({ again: shared })), at).toBe(hex(reference.encode({ again: want }, { typedArrays })));
          const target = wasm ? m.alloc(Uint8Array, want.length + 7) : new Uint8Array(want.length + 7);
          expect(encoder.encodeInto(v, target, 7), at).toBe(want.length + 7);
          expect(hex((wasm ? m.refresh(target) : target).subarray(7)), at).toBe(hex(want));
          expect(hex(encoder.encode(v)), at).toBe(hex(want));
          if (!wasm) continue;
          m.free(m.refresh(target));
          const field = m.alloc(v.v.constructor, v.v.length);
          field.set(v.v);
          expect(hex(m.encode({ a: field, k: i }, { typedArrays })), at).toBe(hex(reference.encode({ a: v.v, k: i }, { typedArrays })));
          m.free(m.refresh(field));
        }
      }
    }
  });

  test('every element type at the crossovers ±1, at odd store offsets and element offsets, in every build: @msgpack/msgpack\'s bytes for the same numbers (ints in their smallest form, floats at the array\'s width)', () => {
    const lengths = new Set([0, 1, 2, 3, 15, 16, 17, 31, 32, 33, 63, 64, 65]);
    for (const table of [packBelow('simd'), packBelow('scalar'), unpackBelow('simd'), unpackBelow('scalar')]) {
      for (const n of Object.values(table)) for (const d of [-1, 0, 1]) lengths.add(n + d);
    }
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32);
    const pick = (list) => list[Math.floor(random() * list.length)];
    const INTS = [0, 1, 127, 128, 255, 256, 65535, 65536, -1, -32, -33, -128, -129, -32768, -32769, 2 ** 31 - 1, -(2 ** 31), 2 ** 32 - 1, 2 ** 32, 2 ** 53 - 1, -(2 ** 53) + 1];
    const BIGS = [...INTS.map(BigInt), 2n ** 64n - 1n, 2n ** 63n, 2n ** 63n - 1n, -(2n ** 63n), 2n ** 53n, -(2n ** 53n), 2n ** 53n + 1n];
    const element = (kind) => {
      if (kind.big) return pick(BIGS);
      if (kind.float && random() < 0.3) return pick([-0, 0, Infinity, -Infinity, NaN, 2 ** 31, 2 ** 32, 2 ** 53, 2 ** 64, 5e-324, 1e-45, 7, -150]);
      if (kind.float) return (random() - 0.5) * 10 ** Math.floor(random() * 20 - 5);
      return random() < 0.5 ? pick(INTS) : Math.floor((random() - 0.5) * 2 ** Math.floor(random() * 33));
    };
    const header = (n) => (n < 16 ? [0x90 | n] : [0xdc, n >> 8, n & 0xff]);
    // The peer's bytes, element by element: numbers (BigInts within 2^53 as numbers) as
    // @msgpack/msgpack writes them; floats with forceIntegerToFloat (and forceFloat32 for a Float32Array).
    const peerArray = (kind, x) => Buffer.concat([Buffer.from(header(x.length)), ...Array.from(x, (v) => {
      if (typeof v === 'bigint' && v >= -(2n ** 53n) + 1n && v <= 2n ** 53n - 1n) return msgpackEncode(Number(v));
      if (typeof v === 'bigint') return msgpackEncode(v, { useBigInt64: true });
      return msgpackEncode(v, kind.float ? { forceIntegerToFloat: true, forceFloat32: kind.bytes === 4 } : {});
    })]);
    const standard = KINDS.filter((k) => k.name !== 'Uint8Array' && k.name !== 'Uint8ClampedArray');
    for (const kind of standard) {
      for (const n of lengths) {
        const base = new kind.Type(n + 3);
        for (let i = 0; i < base.length; i++) base[i] = kind.big ? element(kind) : Number(element(kind));
        for (const from of [0, 1, 3]) {
          const x = base.subarray(from, from + n);
          const array = hex(peerArray(kind, x));
          for (const p of [0, 1, 2, 5, 13]) {
            const want = `82a170${hex(msgpackEncode('p'.repeat(p)))}a178${array}`;
            for (const [name, m] of BUILDS) expect(hex(m.encode({ p: 'p'.repeat(p), x })), `${name} ${kind.name}(${n}) from ${from}, ${p}`).toBe(want);
          }
        }
      }
    }
    for (const n of lengths) {
      const bytes = Uint8Array.from({ length: n + 1 }, () => (random() < 0.5 ? 0 : Math.floor(random() * 256)));
      const x = bytes.subarray(1);
      const want = hex(msgpackEncode({ q: 'qqq', x: Array.from(x, (b) => b !== 0) }));
      for (const [name, m] of BUILDS) {
        for (const typedArrays of ['array', 'bin', 'ext']) expect(hex(m.encode({ q: 'qqq', x: asBools(x) }, { typedArrays })), `${name} booleans(${n})`).toBe(want);
      }
    }
  });

  test('a typed array as a Map\'s key and value, in a Set, at depth 100: written where decode() with the same maxDepth reads it, DEPTH past that, in every mode and build', () => {
    const wraps = [(v) => [v], (v) => new Map([['k', v]]), (v) => new Map([[v, 1]]), (v) => new Set([v]), (v) => ({ k: v })];
    const leaves = [() => Float32Array.of(1), () => new BigUint64Array(70).fill(2n ** 64n - 1n), () => asBools(Uint8Array.of(1)), () => new Int8Array(0)];
    for (const [name, m] of BUILDS.slice(0, 3)) {
      for (const [w, wrap] of wraps.entries()) {
        for (const typedArrays of ['array', 'ext', 'bin']) {
          for (const [l, leaf] of leaves.entries()) {
            for (const levels of [98, 99, 100]) {
              let value = leaf();
              for (let i = 0; i < levels; i++) value = wrap(value);
              const at = `${name} wrap ${w} ${typedArrays} leaf ${l} ${levels} levels`;
              let bytes;
              try {
                bytes = m.encode(value, { typedArrays });
              } catch (err) {
                expect(err.code, at).toBe('DEPTH');
                expect(levels, at).not.toBe(98); // (the leaf at depth 99, its elements at 100)
                continue;
              }
              expect(levels, at).not.toBe(100); // (the leaf at depth 101)
              expect(() => m.decode(bytes, { mapKeyConverter: (k) => (typeof k === 'object' ? 'key' : k) }), at).not.toThrow();
            }
          }
        }
      }
    }
  });
});
