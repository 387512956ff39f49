// audit-maps.test.js - an audit of maps and keys in messages (js/codec/encoder.js
// writeMap / writeMapEntries / writeMapWithoutUndefined, js/codec/decoder.js
// readMap / readKey, the key cache of js/codec/utf8.js; sortKeys,
// ignoreUndefined, mapKeyConverter, keyDecoder), against @msgpack/msgpack 3.1.3.
// Each numbered describe() is a finding that failed on 6f008b8; the last one
// holds what was confirmed right and no other test covers.
import * as msgpack from '@msgpack/msgpack';
import { CachedKeyDecoder } from '@msgpack/msgpack/dist.esm/CachedKeyDecoder.mjs'; // (not exported by its index)
import { describe, expect, test } from 'vitest';
import * as codec from '../js/codec/index.js';
import * as entry from '../js/node.js';
import { hex } from './messages-helpers.js';

const ENTRIES = [['fastmp-wasm', entry], ['pure-JS codec', codec]];

describe('1: ignoreUndefined: an extension\'s (pos) => payload is told where its payload lies (js/codec/encoder.js writeMapWithoutUndefined)', () => {
  // The header of an object's map was reserved for every key and shrunk, the
  // entries moved down, once the written ones were counted: a deferred
  // payload inside (a function of its position, "to align it") had been told
  // a position that was 2 bytes (map 16 -> fixmap) or 2 (map 32 -> map 16)
  // beyond where it ended up.
  class Aligned {
    constructor(bytes) {
      this.bytes = bytes;
    }
  }
  const withCodec = (lib, seen) => {
    const extensionCodec = new lib.ExtensionCodec();
    extensionCodec.register({
      type: 7,
      encode: (v) => (v instanceof Aligned ? (pos) => (seen.push(pos), v.bytes) : null),
      decode: (d) => d,
    });
    return extensionCodec;
  };
  const keyed = (n, undefinedAt, alignedAt) => {
    const o = {};
    for (let i = 0; i < n; i++) o[`k${i}`] = i === undefinedAt ? undefined : i === alignedAt ? new Aligned(Uint8Array.of(0xaa, 0xbb, 0xcc, i & 0xff)) : i;
    return o;
  };
  const values = {
    '16 keys, one undefined (map 16 -> fixmap)': () => keyed(16, 0, 5),
    'nested: the aligned value in an inner map, the outer one shrinking': () => ({ ...keyed(16, 3, -1), inner: { a: 1, b: keyed(2, -1, 1) } }),
    '65536 keys, one undefined (map 32 -> map 16)': () => keyed(65536, 7, 65535),
  };
  test.each(ENTRIES)('%s: every payload at the position it was given, the bytes @msgpack/msgpack writes', (_, lib) => {
    for (const [name, make] of Object.entries(values)) {
      const want = [];
      const peer = msgpack.encode(make(), { ignoreUndefined: true, extensionCodec: withCodec(msgpack, want) });
      const seen = [];
      const out = lib.encode(make(), { ignoreUndefined: true, extensionCodec: withCodec(lib, seen) });
      expect(hex(out), name).toBe(hex(peer));
      expect(seen, name).toEqual(want);
      for (const pos of seen) expect([out[pos - 6], out[pos - 1], out[pos], out[pos + 1]], name).toEqual([0xc9, 7, 0xaa, 0xbb]);
      // encodeInto at an offset: the position in the target.
      const at = [];
      const target = new Uint8Array(out.length + 10);
      const end = new lib.Encoder({ ignoreUndefined: true, extensionCodec: withCodec(lib, at) }).encodeInto(make(), target, 10);
      expect(end, name).toBe(out.length + 10);
      expect(at, name).toEqual(seen.map((p) => p + 10));
    }
  });
});

describe('2: an object of this realm is encoded without reading its Symbol.toStringTag (js/codec/encoder.js foreignKind)', () => {
  // Looking for a Map, Set or Date of another realm, the encoder read the tag
  // of every class instance (Object.prototype.toString): a Proxy whose get
  // trap throws on properties it does not know (a common guard against
  // typos), or a class whose tag getter throws, failed where
  // @msgpack/msgpack, which never reads the tag, writes the object's map.
  class Point {
    constructor() {
      this.x = 1;
      this.y = 2;
    }
  }
  const strict = (target) => new Proxy(target, {
    get(t, key) {
      if (!(key in t)) throw new Error(`no property ${String(key)}`);
      return t[key];
    },
  });
  let tagReads = 0;
  class Tagged {
    a = 1;

    get [Symbol.toStringTag]() {
      tagReads++;
      throw new Error('tag asked');
    }
  }
  test.each(ENTRIES)('%s: a strict Proxy of a class instance, a throwing tag getter: the bytes @msgpack/msgpack writes; the getter never runs', (_, lib) => {
    tagReads = 0;
    const values = [strict(new Point()), { p: strict(new Point()), list: [strict(new Point())] }, new Tagged(), { t: new Tagged() }];
    for (const value of values) {
      for (const options of [undefined, { sortKeys: true }, { ignoreUndefined: true }]) {
        expect(hex(lib.encode(value, options))).toBe(hex(msgpack.encode(value, options)));
      }
    }
    expect(tagReads).toBe(0);
  });
});

describe('confirmed right: maps and keys as @msgpack/msgpack 3.1.3 writes and reads them', () => {
  const u8 = (...parts) => Uint8Array.from(parts.flat());
  const utf8 = (s) => [...Buffer.from(s)];
  const outcome = (f) => {
    try {
      return { value: f() };
    } catch (err) {
      return { error: err.constructor.name, code: err.code, offset: err.offset };
    }
  };

  test.each(ENTRIES)('%s: integer-like, non-ASCII and astral keys in JS order, sortKeys by UTF-16 units, keys of every length class', (_, lib) => {
    const objects = [
      { b: 1, 1: 2, '01': 3, 4294967295: 4, 4294967294: 5, '-1': 6, 1.5: 7, a: 8, 0: 9 },
      { '\u{1F600}': 1, '\uFF5E': 2, é: 3, z: 4, '\u{1F600}x': 5 },
      Object.fromEntries([0, 1, 15, 16, 31, 32, 33, 255, 256, 65535, 65536].map((n, i) => ['k'.repeat(n), i])),
      Object.fromEntries(['é'.repeat(10), 'é'.repeat(16), '€'.repeat(11), '€'.repeat(85), '€'.repeat(86)].map((k, i) => [k, i])),
      Object.fromEntries(Array.from({ length: 16 }, (_, i) => [`k${i}`, i])),
    ];
    for (const value of objects) {
      for (const sortKeys of [false, true]) {
        const bytes = lib.encode(value, { sortKeys });
        expect(hex(bytes)).toBe(hex(msgpack.encode(value, { sortKeys })));
        expect(Object.entries(lib.decode(bytes))).toEqual(Object.entries(msgpack.decode(bytes)));
      }
    }
  });

  test.each(ENTRIES)('%s: keys that are not strings: what a mapKeyConverter receives and what the map gets; refused without one (KEY, at the key)', (_, lib) => {
    const codec = new lib.ExtensionCodec();
    const peerCodec = new msgpack.ExtensionCodec();
    const keys = {
      int: [0x01], negative: [0xff], uint32: [0xce, 0xff, 0xff, 0xff, 0xff], float: [0xcb, 0x3f, 0xf8, 0, 0, 0, 0, 0, 0],
      'float32 NaN': [0xca, 0x7f, 0xc0, 0, 0], '-0': [0xcb, 0x80, 0, 0, 0, 0, 0, 0, 0], nil: [0xc0], true: [0xc3],
      bin: [0xc4, 1, 0x61], array: [0x92, 0x01, 0xa1, 0x61], map: [0x81, 0xa1, 0x61, 0x01], ext: [0xd4, 0x05, 0x01],
      timestamp: [0xd6, 0xff, 0, 0, 0, 1], 'str 16 of 1 byte': [0xda, 0, 1, 0x61],
    };
    const seen = (k) => (k instanceof Uint8Array ? `bin ${[...k]}` : k instanceof Date ? `date ${k.getTime()}` : k !== null && typeof k === 'object'
      ? `${Array.isArray(k) ? 'array' : k.constructor === Object ? 'map' : 'ext'} ${JSON.stringify(k, (_, x) => (x instanceof Uint8Array ? [...x] : x))}` : Object.is(k, -0) ? '-0' : k);
    for (const [name, key] of Object.entries(keys)) {
      // In a map of two entries, one key before it (the map header of 2^16 and 2^32 forms too).
      for (const header of [[0x82], [0xde, 0, 2], [0xdf, 0, 0, 0, 2]]) {
        const bytes = u8(header, 0xa1, 0x7a, 0x00, key, 0xc3);
        const got = [];
        const want = [];
        const ours = outcome(() => lib.decode(bytes, { extensionCodec: codec, mapKeyConverter: (k) => (got.push(seen(k)), typeof k === 'number' ? k : String(seen(k))) }));
        const peer = outcome(() => msgpack.decode(bytes, { extensionCodec: peerCodec, mapKeyConverter: (k) => (want.push(seen(k)), typeof k === 'number' ? k : String(seen(k))) }));
        expect([ours, got], name).toEqual([peer, want]);
        const plain = outcome(() => lib.decode(bytes, { extensionCodec: codec }));
        if ('value' in outcome(() => msgpack.decode(bytes, { extensionCodec: peerCodec }))) {
          expect(plain, name).toEqual(outcome(() => msgpack.decode(bytes, { extensionCodec: peerCodec })));
        } else {
          expect(plain, name).toEqual({ error: 'DecodeError', code: 'KEY', offset: header.length + 3 });
        }
      }
    }
  });

  test.each(ENTRIES)('%s: the key cache: keys that differ only in their last byte (up to 17), multi-byte ones, duplicates (the last wins), __proto__ (KEY) and constructor / hasOwnProperty (own), by every keyDecoder', (_, lib) => {
    const keys = [];
    for (let n = 1; n <= 17; n++) keys.push(`${'a'.repeat(n - 1)}b`, `${'a'.repeat(n - 1)}c`);
    keys.push('é'.repeat(8), `${'é'.repeat(7)}è`, '😀'.repeat(4), `${'😀'.repeat(3)}😁`, `${'x'.repeat(15)}é`, '\0'.repeat(16), 'constructor', 'hasOwnProperty', 'toString');
    const value = Object.fromEntries(keys.map((k, i) => [k, i]));
    const bytes = msgpack.encode(value);
    const duplicated = u8(0x83, 0xa1, 0x61, 1, 0xa1, 0x62, 2, 0xa1, 0x61, 3);
    const proto = u8(0x82, 0xa1, 0x61, 1, 0xd9, 9, utf8('__proto__'), 2);
    for (const keyDecoder of [undefined, null, new CachedKeyDecoder(), new CachedKeyDecoder(4, 1)]) {
      const options = keyDecoder === undefined ? undefined : { keyDecoder };
      for (let round = 0; round < 3; round++) {
        const got = new lib.Decoder(options).decode(bytes);
        expect(Object.entries(got)).toEqual(Object.entries(value));
        expect(Object.getPrototypeOf(got)).toBe(Object.prototype);
        expect(Object.entries(lib.decode(duplicated, options))).toEqual([['a', 3], ['b', 2]]);
        expect(outcome(() => lib.decode(proto, options))).toEqual({ error: 'DecodeError', code: 'KEY', offset: 4 });
      }
    }
  });
});
