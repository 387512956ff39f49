// audit-dropin.test.js - fastmp-wasm as a drop-in for @msgpack/msgpack, fuzzed
// differentially through the package's Node entry (what `import 'fastmp-wasm'`
// gives): random plain values under random option sets of both Encoder and
// Decoder, the same bytes out and the same values back, an error where the
// peer errs and none where it does not; then mutated messages through
// decode(), decodeMulti() and the three stream decoders in random chunks.
// Expected values always come from @msgpack/msgpack; the differences
// docs/messages.md lists are allowed only where an oracle confirms them
// (invalid UTF-8, nesting beyond maxDepth read from the bytes, msgpackr's ext
// 0x74, the BOM, fastmp's ExtData, lone surrogates, BigInts beyond 64 bits,
// streams cut inside a value). Confirmed on f58f07e: encode's bytes, decode's
// values and errors under every option, the stream decoders at every chunking.
// The numbered describe() at the end is a finding that failed on f58f07e
// (and 48d9f27): decodeArrayStream() read an empty array at maxDepth 0, which
// decode() of the whole refuses.

import * as msgpack from '@msgpack/msgpack';
import { Unpackr } from 'msgpackr';
import { describe, expect, test } from 'vitest';
import * as fm from '../dist/fastmp-node.js';
import { rng } from './rng.js';
import { differenceButBom, hex, isPlain, mutate } from './messages-helpers.js';

// ---- values ------------------------------------------------------------------

class Point {
  constructor(x, k) {
    this.x = x;
    this.k = k;
  }
}

const INTS = [0, 1, 127, 128, 255, 256, 65535, 65536, 2 ** 31 - 1, 2 ** 31, 2 ** 32 - 1, 2 ** 32, 2 ** 53 - 1, 2 ** 53, 2 ** 53 + 2,
  2 ** 63, 2 ** 64, -1, -31, -32, -33, -127, -128, -129, -32767, -32768, -32769, -(2 ** 31), -(2 ** 31) - 1, -(2 ** 32),
  -(2 ** 53 - 1), -(2 ** 53), -(2 ** 63)];
const FLOATS = [-0, NaN, Infinity, -Infinity, 5e-324, 1.7976931348623157e308, 0.1, 1.5, -2.5, 3.4028234663852886e38, 1e-45,
  Math.fround(0.1), 2 ** -149, 1e300];
const BIGINTS = [0n, 1n, -1n, 127n, 128n, -32n, -33n, 2n ** 31n, 2n ** 32n, 2n ** 53n + 1n, 2n ** 63n - 1n, 2n ** 63n, 2n ** 64n - 1n,
  -(2n ** 63n), -(2n ** 31n) - 1n];
const OUT_OF_64 = [2n ** 64n, -(2n ** 63n) - 1n, 2n ** 70n];
const CHARS = ['a', 'Z', '0', ' ', '\u0000', '\u007f', 'é', 'ß', '\u0080', '\u07ff', '€', '\u0800', '\uffff', '\ufeff', '😀', '\u{10ffff}'];
const LONE = ['\ud800', '\udbff', '\udc00', '\udfff'];
const KEYS = ['', 'a', 'id', 'constructor', 'prototype', 'toString', 'hasOwnProperty', '0', '10', '-1', '1.5', 'é', '😀', 'key with spaces',
  'x'.repeat(16), 'x'.repeat(31), 'x'.repeat(32), 'long'.repeat(20)];

/** Random value generators over a seeded rng; `lone` lets strings hold lone surrogates. */
function generator(r, { bigints = false, lone = false, exotic = false, big = true } = {}) {
  const pick = (list) => list[r.int(list.length)];
  const string = (keyish = false) => {
    const n = !keyish && big && r.int(300) === 0 ? 65530 + r.int(10) : pick([r.int(6), 28 + r.int(8), 45 + r.int(10), 80 + r.int(10), 200 + r.int(100)]);
    const ascii = r.int(3) === 0;
    let s = '';
    for (let i = 0; i < n; i++) {
      s += ascii ? String.fromCharCode(32 + r.int(95)) : lone && r.int(30) === 0 ? pick(LONE) : pick(CHARS);
    }
    return s;
  };
  const bin = () => {
    const n = pick([0, 1, r.int(40), 255, 256, r.int(300), big && r.int(40) === 0 ? 65536 : 3]);
    const backing = new Uint8Array(n + 8);
    for (let i = 0; i < backing.length; i++) backing[i] = r() & 0xff;
    const at = r.int(8);
    const view = backing.subarray(at, at + n);
    return r.int(6) === 0 ? Buffer.from(view.buffer, view.byteOffset, view.length) : view;
  };
  const number = () => {
    switch (r.int(5)) {
      case 0: return pick(INTS) + (r.int(3) - 1);
      case 1: return pick(INTS);
      case 2: return pick(FLOATS);
      case 3: return (r.int(2) ? -1 : 1) * r() * 10 ** (r.int(24) - 12);
      default: return r.int(2) ? Math.fround(r() * 1000 - 500) : r.int(70000) - 35000;
    }
  };
  const date = () => new Date(pick([0, -1, -1000, -1001, 1556636810389, 2 ** 32 * 1000 - 1, 2 ** 32 * 1000, 2 ** 34 * 1000, 2 ** 34 * 1000 - 1,
    8.64e15, -8.64e15, NaN, Math.round(r() * 2e13 - 1e13), r.int(2 ** 31) * 1000]));
  const ext = () => new msgpack.ExtData(pick([0, 1, 5, 127, -128, -2, -1, r.int(256) - 128]), bin().slice(0, pick([0, 1, 2, 4, 8, 12, 16, 3, 17, 255, 256, 300])));
  const scalar = () => {
    switch (r.int(exotic ? 13 : 11)) {
      case 0: return pick([null, undefined, true, false]);
      case 1: case 2: return number();
      case 3: case 4: return string();
      case 5: return date();
      case 6: return bin();
      case 7: return ext();
      case 8: return bigints ? (r.int(15) === 0 ? pick(OUT_OF_64) : pick(BIGINTS)) : number();
      case 9: return new Point(r.int(200), 0);
      case 10: return r.int(2) ? new DataView(bin().slice().buffer) : pick(INTS);
      case 11: return pick([() => 1n, () => () => 1, () => Symbol('s'), () => new Number(3), () => new String('ab'), () => new Boolean(false),
        () => new ArrayBuffer(4), () => Object.create(null), () => new (class K { constructor() { this.q = 1; } })(),
        () => Object.assign([1, , 3], { extra: 1 }), () => new Error('e'), () => ({ toJSON: () => 'j', a: 1 })])(); // eslint-disable-line no-sparse-arrays
      default: return pick([() => Object.assign(Object.create({ inherited: 1 }), { own: 2 }), () => [undefined], () => ({ u: undefined, v: 1 })])();
    }
  };
  const value = (depth) => {
    if (depth <= 0 || r.int(3) === 0) return scalar();
    if (r.int(25) === 0) { // a chain, for maxDepth
      let v = scalar();
      for (let d = 2 + r.int(9); d > 0; d--) v = r.int(2) ? [v] : { k: v };
      return v;
    }
    const n = pick([0, 1, 2, r.int(6), r.int(17), 15, 16]);
    if (r.int(2)) return Array.from({ length: n }, () => value(depth - 1));
    const o = {};
    const taken = new Set();
    for (let i = 0; i < n; i++) {
      let k = r.int(3) ? pick(KEYS) : string(true);
      if (r.int(300) === 0) k = '__proto__';
      if (taken.has(k.toWellFormed())) continue; // (two keys one after U+FFFD replaces their surrogates: a key written twice)
      taken.add(k.toWellFormed());
      Object.defineProperty(o, k, { value: value(depth - 1), enumerable: true, writable: true, configurable: true });
    }
    return o;
  };
  return { value, scalar, string, number };
}

// ---- the two sides -------------------------------------------------------------


/**
 * The value as fastmp is to be given it (fastmp's ExtData: messages.md "Differences" 16), and as
 * @msgpack/msgpack is (strings well-formed: "Differences" 1).
 */
function sides(v, note = { reordered: false }) {
  if (typeof v === 'string') return { ours: v, theirs: v.toWellFormed(), note };
  if (v instanceof msgpack.ExtData) return { ours: new fm.ExtData(v.type, v.data), theirs: v, note };
  if (v === null || typeof v !== 'object' || ArrayBuffer.isView(v) || v instanceof Date || v instanceof Point) return { ours: v, theirs: v, note };
  if (Array.isArray(v) && Object.getPrototypeOf(v) === Array.prototype && Object.keys(v).length === v.length) {
    const parts = Array.from(v, (x) => sides(x, note));
    return { ours: parts.map((p) => p.ours), theirs: parts.map((p) => p.theirs), note };
  }
  if (isPlain(v)) {
    const ours = Object.create(Object.getPrototypeOf(v));
    const theirs = Object.create(Object.getPrototypeOf(v));
    // sortKeys orders the keys as they are (fastmp as the peer: checked below), before U+FFFD
    // replaces their surrogates; where that changes their order the peer's bytes are no oracle.
    const keys = Object.keys(v);
    const sorted = [...keys].sort();
    if (sorted.map((k) => k.toWellFormed()).join('\u0000') !== sorted.map((k) => k.toWellFormed()).sort().join('\u0000')) note.reordered = true;
    for (const k of keys) {
      const p = sides(v[k], note);
      Object.defineProperty(ours, k, { value: p.ours, enumerable: true, writable: true, configurable: true });
      Object.defineProperty(theirs, k.toWellFormed(), { value: p.theirs, enumerable: true, writable: true, configurable: true });
    }
    return { ours, theirs, note };
  }
  return { ours: v, theirs: v, note };
}

/** Does v hold a BigInt beyond 64 bits (messages.md "Differences" 5: fastmp RANGE, the peer wraps)? */
const holdsWideBigInt = (v) => (typeof v === 'bigint' ? v < -(2n ** 63n) || v >= 2n ** 64n
  : Array.isArray(v) ? v.some(holdsWideBigInt) : isPlain(v) ? Object.values(v).some(holdsWideBigInt) : false);

/** A codec pair registering Point (type 7), whose encoding reads the context. */
function pointCodecs() {
  const register = (codec) => {
    codec.register({
      type: 7,
      encode: (input, context) => (input instanceof Point ? Uint8Array.of(input.x, context.k) : null),
      decode: (data, type, context) => {
        if (data.length !== 2) throw new msgpack.DecodeError('bad point');
        return new Point(data[0], data[1] * 1000 + context.k);
      },
    });
    return codec;
  };
  return { ours: register(new fm.ExtensionCodec()), theirs: register(new msgpack.ExtensionCodec()) };
}

// msgpackr's typed-array ext (0x74) and records (0x72) in the peer's codec, as fastmp reads
// them ("Differences" 7): only a mutation makes them.
const unpackr = new Unpackr({ useRecords: false, mapsAsObjects: true });
function withMsgpackrTypes(codec) {
  codec.register({
    type: 0x74,
    encode: () => null,
    decode: (data) => unpackr.unpack(Uint8Array.from([0xc9, 0, 0, data.length >> 8, data.length & 0xff, 0x74, ...data])),
  });
  codec.register({ type: 0x72, encode: () => null, decode: () => { throw new Error('record'); } });
  return codec;
}

function randomEncodeOptions(r, codecs) {
  const o = {};
  for (const key of ['sortKeys', 'forceFloat32', 'forceIntegerToFloat', 'ignoreUndefined', 'useBigInt64']) if (r.int(3) === 0) o[key] = r.int(4) !== 0;
  if (r.int(4) === 0) o.initialBufferSize = [1, 2, 7, 16, 100, 2048, 65536][r.int(7)];
  if (r.int(4) === 0) o.maxDepth = r.int(9);
  if (r.int(3) === 0) o.context = { k: 1 + r.int(9) };
  const withCodec = r.int(3) === 0 && o.context;
  return {
    ours: withCodec ? { ...o, extensionCodec: codecs.ours } : o,
    theirs: withCodec ? { ...o, extensionCodec: codecs.theirs } : o,
    withCodec,
  };
}

const outcomeOf = (fn) => {
  try {
    return { value: fn() };
  } catch (error) {
    return { error };
  }
};

/**
 * The depth of the value at bytes[at], map keys included (a key that is an array nests as a
 * value does: fastmp counts it so both ways), read from the bytes: { depth, end }, or null
 * when they end first or hold 0xc1. Counted as encode counts maxDepth: the top value depth 1.
 */
function depthAt(bytes, at) {
  if (at >= bytes.length) return null;
  const tag = bytes[at];
  const be = (from, n) => {
    let x = 0;
    for (let i = 0; i < n; i++) x = x * 256 + (bytes[from + i] ?? NaN);
    return x;
  };
  const items = (n, head, perItem) => {
    let end = at + head;
    let depth = 1;
    for (let i = 0; i < n * perItem; i++) {
      const inner = depthAt(bytes, end);
      if (!inner) return null;
      depth = Math.max(depth, 1 + inner.depth);
      end = inner.end;
    }
    return { depth, end };
  };
  const skip = (n) => (at + n <= bytes.length && !Number.isNaN(n) ? { depth: 1, end: at + n } : null);
  if (tag < 0x80 || tag >= 0xe0 || (tag >= 0xc0 && tag <= 0xc3)) return tag === 0xc1 ? null : skip(1);
  if (tag < 0x90) return items(tag & 15, 1, 2);
  if (tag < 0xa0) return items(tag & 15, 1, 1);
  if (tag < 0xc0) return skip(1 + (tag & 31));
  const sized = { 0xc4: [1, 0], 0xc5: [2, 0], 0xc6: [4, 0], 0xc7: [1, 1], 0xc8: [2, 1], 0xc9: [4, 1], 0xd9: [1, 0], 0xda: [2, 0], 0xdb: [4, 0] }[tag];
  if (sized) return skip(1 + sized[0] + sized[1] + be(at + 1, sized[0]));
  const fixed = { 0xca: 5, 0xcb: 9, 0xcc: 2, 0xcd: 3, 0xce: 5, 0xcf: 9, 0xd0: 2, 0xd1: 3, 0xd2: 5, 0xd3: 9, 0xd4: 3, 0xd5: 4, 0xd6: 6, 0xd7: 10, 0xd8: 18 }[tag];
  if (fixed) return skip(fixed);
  const n = tag === 0xdc || tag === 0xde ? be(at + 1, 2) : be(at + 1, 4);
  if (Number.isNaN(n)) return null;
  return items(n, tag === 0xdc || tag === 0xde ? 3 : 5, tag >= 0xde ? 2 : 1);
}

/** A message cut to a readable length. */
const short = (s) => (String(s).length > 300 ? `${String(s).slice(0, 300)}…` : String(s));


// ---- encode -------------------------------------------------------------------

describe('encode under random options: the peer\'s bytes, or an error where it errs', () => {
  test('3 000 values, Encoders kept per option set and reused after errors', () => {
    const r = rng(0xd120);
    const codecs = pointCodecs();
    const gen = generator(r, { bigints: true, lone: true, exotic: true });
    const failures = [];
    const kept = new Map(); // an Encoder per option set, used again after its errors
    let encoded = 0;
    let refused = 0;
    for (let i = 0; i < 3000 && failures.length < 5; i++) {
      const options = randomEncodeOptions(r, codecs);
      const value = gen.value(4);
      const { ours, theirs, note } = sides(value);
      if (note.reordered && options.ours.sortKeys) continue;
      const want = outcomeOf(() => hex(msgpack.encode(theirs, options.theirs)));
      const got = outcomeOf(() => hex(fm.encode(ours, options.ours)));
      const key = JSON.stringify(options.ours);
      if (!kept.has(key)) kept.set(key, new fm.Encoder(options.ours));
      const viaEncoder = outcomeOf(() => hex(i % 2 ? kept.get(key).encode(ours) : kept.get(key).encodeSharedRef(ours)));
      if (got.error && !(got.error instanceof Error)) failures.push(`${i}: threw a non-Error`);
      if (options.ours.useBigInt64 && holdsWideBigInt(value)) {
        if (!got.error || (got.error.code !== 'RANGE' && !want.error)) failures.push(`${i}: a BigInt beyond 64 bits: ${short(got.error?.message ?? got.value)}`);
        continue;
      }
      if (want.error) {
        refused++;
        if (!got.error) failures.push(`${i}: the peer threw (${short(want.error.message)}), fastmp wrote ${short(got.value)}`);
      } else if (got.error) {
        failures.push(`${i}: fastmp threw (${short(got.error.message)}), the peer wrote ${short(want.value)}`);
      } else {
        encoded++;
        if (got.value !== want.value) failures.push(`${i} ${JSON.stringify(options.ours)}: ${short(got.value)}\n   vs ${short(want.value)}`);
      }
      if ((viaEncoder.error === undefined) !== (got.error === undefined) || viaEncoder.value !== got.value) failures.push(`${i}: a kept Encoder's encode() or encodeSharedRef() differs from encode()`);
    }
    expect(failures).toEqual([]);
    expect(encoded).toBeGreaterThan(1500);
    expect(refused).toBeGreaterThan(100);
  });
});

// ---- decode -------------------------------------------------------------------

const fatal = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The content of the str at bytes[offset] (fixstr, str 8/16/32), or null when no str starts there. */
function strAt(bytes, offset) {
  const tag = bytes[offset];
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const [n, head] = tag >= 0xa0 && tag <= 0xbf ? [tag & 0x1f, 1] : tag === 0xd9 ? [bytes[offset + 1], 2]
    : tag === 0xda ? [view.getUint16(offset + 1), 3] : tag === 0xdb ? [view.getUint32(offset + 1), 5] : [-1, 0];
  return n < 0 ? null : bytes.subarray(offset + head, offset + head + n);
}
const invalidUtf8At = (bytes, offset) => {
  const str = strAt(bytes, offset);
  if (str === null) return false;
  try {
    fatal.decode(str);
    return false;
  } catch {
    return true;
  }
};


/** Decoder options of both libraries, drawn at random; each side's codec reads what the other's does. */
function randomDecodeOptions(r, codecs) {
  const o = {};
  const limit = () => [0, 1, 2, 3, 4, 8, 15, 16, 31, 32, 100, 255, 256, 65535][r.int(14)];
  for (const key of ['maxStrLength', 'maxBinLength', 'maxArrayLength', 'maxMapLength', 'maxExtLength']) if (r.int(4) === 0) o[key] = limit();
  for (const key of ['useBigInt64', 'rawStrings']) if (r.int(3) === 0) o[key] = r.int(4) !== 0;
  if (r.int(4) === 0) o.maxDepth = r.int(8);
  if (r.int(10) === 0) o.keyDecoder = null;
  if (r.int(10) === 0) o.mapKeyConverter = (k) => (typeof k === 'number' ? k : `${k}:${typeof k}`);
  if (r.int(3) === 0) o.context = { k: 1 + r.int(9) };
  const withCodec = r.int(2) === 0 && o.context;
  return {
    ours: withCodec ? { ...o, extensionCodec: codecs.point.ours } : o,
    theirs: { ...o, extensionCodec: withCodec ? codecs.point.theirs : codecs.plain },
  };
}

function decodeCodecs() {
  const point = pointCodecs();
  withMsgpackrTypes(point.theirs);
  return { point, plain: withMsgpackrTypes(new msgpack.ExtensionCodec()) };
}

/**
 * '' when fastmp's outcome is the peer's, or differs only as a documented difference that an
 * oracle confirms: invalid UTF-8 (UTF8, the str at err.offset fails a fatal TextDecoder) and
 * nesting beyond maxDepth (DEPTH, the peer's value that deep).
 */
function judge(got, want, bytes, maxDepth = 100, base = 0, at = got.error?.offset) { // (base: where the value starts; at: the error's offset in bytes)
  const deep = () => (depthAt(bytes, base)?.depth ?? 0) > maxDepth;
  if (got.error) {
    if (!(got.error instanceof fm.FastmpError)) {
      // An extension decoder's own error goes through, as in the peer.
      if (want.error?.message === got.error.message && want.error.constructor === got.error.constructor) return '';
      return `fastmp threw a ${got.error.constructor.name}: ${got.error.message}`;
    }
    if (want.error) return '';
    if (got.error.code === 'UTF8') return invalidUtf8At(bytes, at) ? '' : `UTF8 error on valid UTF-8 at ${got.error.offset}`;
    if (got.error.code === 'DEPTH') return deep() ? '' : `DEPTH error on a value ${depthAt(bytes, base)?.depth} deep`;
    return `fastmp threw (${short(got.error.message)}); the peer decoded it`;
  }
  if (want.error) return `the peer threw (${short(want.error.message)}); fastmp decoded it`;
  if (deep()) return `fastmp decoded a value ${depthAt(bytes, base).depth} deep, beyond maxDepth ${maxDepth}`;
  return differenceButBom(got.value, want.value);
}

/** A message as the peer writes it, or a mutation of one. */
function message(r, gen, mutated, depth = 3) {
  for (;;) {
    const { theirs } = sides(gen.value(depth));
    const { value: bytes } = outcomeOf(() => msgpack.encode(theirs, { forceFloat32: r.int(4) === 0, useBigInt64: true }));
    if (bytes) return mutated ? mutate(bytes, r) : bytes;
  }
}

describe('decode under random Decoder options: the peer\'s value, or an error where it errs', () => {
  test.each([['messages as the peer writes them', false, 0xdec0], ['mutations of them', true, 0xbad]])('%s: 3 000 runs, decode(), a kept Decoder and decodeMulti()', (_, mutated, seed) => {
    const r = rng(seed);
    const codecs = decodeCodecs();
    const gen = generator(r, { bigints: true });
    const kept = new Map();
    const failures = [];
    let decoded = 0;
    let refused = 0;
    for (let i = 0; i < 3000 && failures.length < 5; i++) {
      const options = randomDecodeOptions(r, codecs);
      const bytes = message(r, gen, mutated);
      const maxDepth = options.ours.maxDepth ?? 100;
      const want = outcomeOf(() => msgpack.decode(bytes, options.theirs));
      const got = outcomeOf(() => fm.decode(bytes, options.ours));
      const key = JSON.stringify(options.ours) + (options.ours.mapKeyConverter ? 'c' : '');
      if (!kept.has(key)) kept.set(key, new fm.Decoder(options.ours));
      const again = outcomeOf(() => kept.get(key).decode(bytes));
      const where = `${i} ${key}: ${hex(bytes).slice(0, 400)}`;
      const verdict = judge(got, want, bytes, maxDepth);
      if (verdict) failures.push(`${where}\n   ${verdict}`);
      if (got.error ? again.error?.code !== got.error.code : differenceButBom(again.value, got.value)) failures.push(`${where}\n   a kept Decoder differs from decode()`);
      if (want.error) refused++;
      else decoded++;
      // decodeMulti(): the peer's values, then its error (or a documented one).
      const theirs = multiOf(bytes, options.theirs);
      const ours = multiOf(bytes, options.ours, fm);
      const n = ours.values.length;
      const prefix = differenceButBom(ours.values, theirs.values.slice(0, n));
      if (prefix) failures.push(`${where}\n   decodeMulti(): ${prefix}`);
      else if (n < theirs.values.length || ours.error || theirs.error) {
        const next = n < theirs.values.length ? { value: theirs.values[n] } : { error: theirs.error ?? new Error('no more values') };
        const nextOurs = ours.error ? { error: ours.error } : { value: undefined, error: new Error('fastmp: no more values') };
        if (!ours.error && next.value !== undefined) failures.push(`${where}\n   decodeMulti(): fastmp ended after ${n} values, the peer read more`);
        else if (ours.error) {
          // Where does the value at fault start? decodeMulti's offsets count from the input.
          let start = 0;
          for (let k = 0; k < n; k++) start = depthAt(bytes, start).end;
          const verdict = judge(nextOurs, next, bytes, maxDepth, start);
          if (verdict) failures.push(`${where}\n   decodeMulti() value ${n}: ${verdict}`);
        }
      }
    }
    expect(failures).toEqual([]);
    expect(decoded).toBeGreaterThan(mutated ? 300 : 1000);
    expect(refused).toBeGreaterThan(300);
  });
});

// ---- streams ------------------------------------------------------------------

/** bytes as a stream of the kind and in the chunks r draws: chunks of 1 to 40 bytes (or all in one), each a copy of one of the kinds both libraries take. */
function streamOf(bytes, r) {
  const kind = r.int(8);
  const one = r.int(6) === 0;
  const cuts = [];
  for (let at = 0; at < bytes.length;) {
    const n = one ? bytes.length : Math.min(1 + r.int(r.int(2) && bytes.length < 2000 ? 4 : 64), bytes.length - at);
    cuts.push(bytes.slice(at, at + n));
    at += n;
  }
  const chunks = cuts.map((c) => [c, Buffer.from(c), c.buffer, Array.from(c), new DataView(c.buffer), c, c, c][kind]);
  if (r.int(4) === 0) chunks.splice(r.int(chunks.length + 1), 0, new Uint8Array(0)); // (an empty chunk anywhere, the last too)
  if (r.int(5) === 0) {
    return new ReadableStream({
      pull(controller) {
        if (chunks.length) controller.enqueue(chunks.shift());
        else controller.close();
      },
    });
  }
  return (async function* source() {
    yield* chunks;
  })();
}

/** The values a stream decode yields, then its error. */
async function drain(iterable) {
  const values = [];
  try {
    for await (const v of iterable) values.push(v);
    return { values };
  } catch (error) {
    return { values, error };
  }
}

/** A library's one-shot decodeMulti() (the peer's unless `lib` says): its values, then its error. */
function multiOf(bytes, options, lib = msgpack) {
  const values = [];
  try {
    for (const v of lib.decodeMulti(bytes, options)) values.push(v);
    return { values };
  } catch (error) {
    return { values, error };
  }
}

/** Where each value of a run of them starts (from the bytes), up to n values. */
function startsOf(bytes, from, n) {
  const starts = [];
  for (let at = from; starts.length < n; at = depthAt(bytes, at)?.end ?? bytes.length) starts.push(at);
  return starts;
}

/**
 * A stream's values then error, against the peer's one-shot reading of the whole input: every
 * value the peer reads, in order, then an error exactly where the peer's reading ends in one
 * (or a documented error an oracle confirms: UTF8, DEPTH; a stream cut inside a value is an
 * error, "Differences" 18). `want`: { values, error } of the elements at `starts`.
 */
function judgeRun(got, want, bytes, starts, maxDepth) {
  const n = got.values.length;
  const prefix = differenceButBom(got.values, want.values.slice(0, n));
  if (prefix) return `values: ${prefix}`;
  if (n < want.values.length) {
    if (!got.error) return `ended after ${n} values, the peer read ${want.values.length}`;
    const next = { value: want.values[n] };
    const at = (got.error.streamOffset ?? 0) + (got.error.offset ?? 0);
    return judge(got, next, bytes, maxDepth, starts[n], at);
  }
  if (want.error && !got.error) return `no error after ${n} values; the peer threw ${short(want.error.message)}`;
  if (got.error && !want.error) return `fastmp threw after all ${n} values: ${short(got.error.message)}`;
  if (got.error && !(got.error instanceof fm.FastmpError) && (want.error.message !== got.error.message || want.error.constructor !== got.error.constructor)) return `fastmp threw a ${got.error.constructor.name}: ${got.error.message}`;
  return '';
}

describe('the stream decoders, in random chunks of every kind, under random options: the peer\'s one-shot values and errors', () => {
  test.each([['messages as the peer writes them', false, 0x57e0], ['mutations of them', true, 0x57e1]])('%s: 1 500 runs each of decodeAsync(), decodeMultiStream() and decodeArrayStream()', async (_, mutated, seed) => {
    const r = rng(seed);
    const codecs = decodeCodecs();
    const gen = generator(r, { bigints: true, big: false });
    const failures = [];
    const counts = { values: 0, errors: 0 };
    for (let i = 0; i < 1500 && failures.length < 5; i++) {
      const options = randomDecodeOptions(r, codecs);
      const maxDepth = options.ours.maxDepth ?? 100;
      const where = (what, bytes) => `${i} ${what} ${JSON.stringify(options.ours)}: ${hex(bytes).slice(0, 400)}`;

      // decodeAsync(): one value, as decode() of the whole.
      const one = message(r, gen, mutated, 2);
      const wantOne = outcomeOf(() => msgpack.decode(one, options.theirs));
      let gotOne;
      try {
        gotOne = { value: await fm.decodeAsync(streamOf(one, r), options.ours) };
      } catch (error) {
        gotOne = { error };
      }
      const v1 = judge(gotOne, wantOne, one, maxDepth, 0, (gotOne.error?.streamOffset ?? 0) + (gotOne.error?.offset ?? 0));
      if (v1) failures.push(`${where('decodeAsync', one)}\n   ${v1}`);

      // decodeMultiStream(): a run of values, as decodeMulti() of the whole.
      const parts = Array.from({ length: 1 + r.int(3) }, () => message(r, gen, false, 2));
      const run = mutated ? mutate(Uint8Array.from(parts.flatMap((p) => [...p])), r) : Uint8Array.from(parts.flatMap((p) => [...p]));
      const wantRun = multiOf(run, options.theirs);
      const gotRun = await drain(fm.decodeMultiStream(streamOf(run, r), options.ours));
      const v2 = judgeRun(gotRun, wantRun, run, startsOf(run, 0, wantRun.values.length + 1), maxDepth);
      if (v2) failures.push(`${where('decodeMultiStream', run)}\n   ${v2}`);

      // decodeArrayStream(): the elements of one array, as decode() of the whole reads them.
      const elements = Array.from({ length: r.int(6) }, () => message(r, gen, false, 1));
      const header = elements.length < 16 ? [0x90 + elements.length] : [0xdc, 0, elements.length];
      let array = Uint8Array.from([...header, ...elements.flatMap((p) => [...p])]);
      if (mutated) array = mutate(array, r);
      const whole = outcomeOf(() => msgpack.decode(array, options.theirs));
      const gotArray = await drain(fm.decodeArrayStream(streamOf(array, r), options.ours));
      let v3;
      if (!whole.error && !Array.isArray(whole.value)) {
        v3 = gotArray.error?.code === 'TYPE' || gotArray.error instanceof fm.FastmpError ? '' : `a ${typeof whole.value} read as an array`;
      } else {
        const tag = array[0];
        const head = tag >= 0x90 && tag <= 0x9f ? 1 : tag === 0xdc && array.length >= 3 ? 3 : tag === 0xdd && array.length >= 5 ? 5 : 0;
        const count = head === 1 ? array[0] & 15 : head === 3 ? array[1] * 256 + array[2] : head === 5 ? new DataView(array.buffer).getUint32(1) : 0;
        // Refused at its header (its length, or maxDepth 0: the array is depth 1), the array yields nothing.
        const refused = head && (count > (options.ours.maxArrayLength ?? Infinity) || maxDepth < 1);
        const peer = head && !refused ? multiOf(array.subarray(head), options.theirs) : { values: [], error: whole.error };
        const want = whole.error || refused ? { values: peer.values.slice(0, count), error: whole.error ?? new Error('maxDepth 0') } : { values: whole.value };
        // Depth counts from the array: an element is one level down.
        const starts = startsOf(array, head, want.values.length + 1);
        v3 = refused && maxDepth < 1 && !whole.error ? (gotArray.error?.code === 'DEPTH' && !gotArray.values.length ? '' : 'maxDepth 0: the array read')
          : judgeRun(gotArray, want, array, starts, maxDepth - 1);
      }
      if (v3) failures.push(`${where('decodeArrayStream', array)}\n   ${v3}`);
      for (const got of [gotOne, gotRun, gotArray]) counts[got.error ? 'errors' : 'values']++;
    }
    expect(failures).toEqual([]);
    expect(counts.values).toBeGreaterThan(mutated ? 300 : 1500);
    expect(counts.errors).toBeGreaterThan(mutated ? 1500 : 300);
  });
});

// ---- findings -------------------------------------------------------------------

describe('1: decodeArrayStream() refuses what decode() of the whole array refuses: maxDepth 0 and an empty array (js/codec/stream.js checkedHeader)', () => {
  // messages.md "Streams": "decodeArrayStream() applies them to its array as decode() of the
  // whole array would: maxArrayLength to its header, and maxDepth counted from it". decode()
  // refuses any top value at maxDepth 0 (depth 1, as encode counts it); the stream's header
  // check (checkArrayLimits) refuses only arrays with elements, so an empty one was read.
  const outcome = async (bytes, options) => {
    const values = [];
    try {
      for await (const v of fm.decodeArrayStream((async function* source() {
        yield bytes;
      })(), options)) values.push(v);
      return { values };
    } catch (err) {
      return { values, code: err.code, message: err.message.replace(/ \(the value at byte \d+ of the stream\)$/, '') };
    }
  };
  const whole = (bytes, options) => {
    try {
      return { values: fm.decode(bytes, options) };
    } catch (err) {
      return { values: [], code: err.code, message: err.message };
    }
  };

  test.each([['an empty array', [0x90]], ['an array of one', [0x91, 0x01]], ['an array 16 of nils', [0xdc, 0, 16, ...new Array(16).fill(0xc0)]]])('%s, maxDepth 0', async (_, bytes) => {
    const input = Uint8Array.from(bytes);
    const options = { maxDepth: 0 };
    expect(whole(input, options).code).toBe('DEPTH');
    expect(encodeOutcome(() => fm.encode([], options))).toBe('DEPTH'); // (encode counts so too)
    expect(await outcome(input, options)).toEqual(whole(input, options));
  });
});

function encodeOutcome(fn) {
  try {
    fn();
    return 'accepted';
  } catch (err) {
    return err.code;
  }
}
