// Property tests (fast-check) over every path at once: the wasm SIMD and
// scalar builds forced at every size, the pure-JS path, and the default
// (auto) routing, each its own instance of js/index.js.
// - pack -> unpack is the identity for every type, bit for bit (NaN payloads
//   included), and every path packs the same bytes, which @msgpack/msgpack
//   and msgpackr decode to the same numbers;
// - unpack(peerEncode(x)) equals x for @msgpack/msgpack and msgpackr;
// - BMPString / IA5String / VisibleString round trips (content and DER), and
//   the exact index of the first bad char;
// - random and msgpack- / DER-shaped bytes given to every decoder: every path
//   returns the same value or throws the same FastmpError (code, index,
//   offset); bad arguments throw only the documented TypeError / RangeError;
//   nothing else is ever thrown, and no call takes long.
// Run counts are bounded so the file takes seconds; set FASTMP_PROPERTY_RUNS
// to run more (and FASTMP_PROPERTY_SEED to replay a failure fast-check reports).
import { decode as mpDecode, encode as mpEncode } from '@msgpack/msgpack';
import fc from 'fast-check';
import { FLOAT32_OPTIONS, Packr, unpack as mrUnpack } from 'msgpackr';
import { beforeAll, describe, expect, test } from 'vitest';
import { FastmpError, createFastmp } from '../js/index.js';
import { KINDS } from '../js/kinds.js';
import { intRange } from './helpers.js';

const RUNS = Number(process.env.FASTMP_PROPERTY_RUNS ?? 150);
const SEED = process.env.FASTMP_PROPERTY_SEED === undefined ? undefined : Number(process.env.FASTMP_PROPERTY_SEED);
const check = (property, runs = RUNS) => fc.assert(property, { numRuns: runs, seed: SEED, endOnFailure: true });

// One instance per path, side by side in this process.
const PATHS = [
  ['wasm-simd', { backend: 'simd', pureJs: 'never' }],
  ['wasm-scalar', { backend: 'scalar', pureJs: 'never' }],
  ['pure-js', { pureJs: 'always' }],
  ['auto', {}],
];
const instances = [];
beforeAll(async () => {
  for (const [name, options] of PATHS) instances.push([name, await createFastmp(options)]);
  expect(instances.map(([, api]) => api.backend())).toEqual(['simd', 'scalar', 'simd', 'simd']);
});
const paths = () => instances;

const bytesOf = (t) => Buffer.from(t.buffer, t.byteOffset, t.byteLength);
/** Same number, as a peer can keep it: NaN equals NaN, -0 equals 0 (peers write -0 as the int 0). */
const sameNumber = (a, b) => a === b || (a !== a && b !== b);

// ---- typed arrays ------------------------------------------------------------------

// Lengths up to MAX cross every SIMD block size and every pure-JS crossover (js/crossovers.js JS_BELOW).
const MAX = 700;
const len = { maxLength: MAX, size: 'max' };
/**
 * Arrays of a type, by what the engine says of it. Floats: raw bits (every NaN
 * payload, subnormal, infinity), fast-check's floats of the type's width
 * (which lean to -0, infinities and the extremes) and small integral values.
 * Integers: the type's whole range (fast-check leans to its ends), and small
 * values in runs, so that the fixint and own-width SIMD blocks are taken too.
 */
function arbitraryOf(Type) {
  const of = (values) => fc.array(values, len).map((a) => Type.from(a));
  const probe = new Type(1);
  if (typeof probe[0] === 'number' && ((probe[0] = 0.5), probe[0] === 0.5)) {
    const rawBits = fc.uint8Array({ maxLength: MAX * Type.BYTES_PER_ELEMENT, size: 'max' })
      .map((u) => new Type(u.buffer, 0, Math.floor(u.length / Type.BYTES_PER_ELEMENT)));
    const floats = Type.BYTES_PER_ELEMENT === 4 ? fc.float() : fc.double();
    return fc.oneof(rawBits, of(floats), of(fc.integer({ min: -100, max: 100 })));
  }
  const [min, max] = intRange(Type);
  const clip = (v) => (v < min ? min : v > max ? max : v);
  const ints = (lo, hi) => (typeof probe[0] === 'bigint'
    ? fc.bigInt({ min: clip(lo), max: clip(hi) })
    : fc.integer({ min: Number(clip(lo)), max: Number(clip(hi)) }));
  return fc.oneof(of(ints(min, max)), of(ints(-32n, 127n)), of(ints(-300n, 300n)));
}
/** [name, kind, arbitrary] for every kind of js/kinds.js. */
const ARBITRARIES = KINDS.map((kind) => [kind.name, kind, arbitraryOf(kind.Type)]);
const TYPES = KINDS.map((k) => k.Type);

describe('pack -> unpack', () => {
  test.each(ARBITRARIES)('%s: the identity on every path, every path packs the same bytes', (_, kind, arbitrary) => {
    const { Type } = kind;
    check(fc.property(arbitrary, fc.boolean(), (x, bin) => {
      const options = kind.c === 'u8' ? { bin } : undefined; // bytes pack as bin unless { bin: false }
      let first = null;
      for (const [path, f] of paths()) {
        const packed = f.pack(x, options);
        if (first === null) first = packed;
        else expect(Buffer.compare(packed, first), `${path} packs other bytes`).toBe(0);
        const back = f.unpack(packed, Type);
        expect(back).toBeInstanceOf(Type);
        expect(bytesOf(back).equals(bytesOf(x)), `${path}: not the same bits`).toBe(true);
      }
      // What fastmp packs, the peers read as the same numbers (bin: the same bytes).
      const peer = mpDecode(first, { useBigInt64: true });
      const theirs = mrUnpack(first);
      for (const decoded of [peer, theirs]) {
        if (decoded instanceof Uint8Array) {
          expect(Buffer.from(decoded).equals(bytesOf(x))).toBe(true);
        } else {
          expect(decoded.length).toBe(x.length);
          decoded.forEach((v, i) => {
            if (!(kind.big ? BigInt(v) === x[i] : sameNumber(v, x[i]))) {
              throw new Error(`element ${i}: peer read ${v}, packed ${x[i]}`);
            }
          });
        }
      }
    }));
  });

  test('booleans: packBool -> unpackBool keeps every truth value, on every path', () => {
    check(fc.property(fc.oneof(fc.array(fc.boolean(), len), fc.uint8Array(len)), (x) => {
      const truth = Uint8Array.from(x, (v) => (v ? 1 : 0));
      let first = null;
      for (const [path, f] of paths()) {
        const packed = f.packBool(x);
        if (first === null) first = packed;
        else expect(Buffer.compare(packed, first), `${path} packs other bytes`).toBe(0);
        expect(Buffer.from(f.unpackBool(packed)).equals(Buffer.from(truth)), path).toBe(true);
      }
      expect(mpDecode(first)).toEqual(Array.from(truth, Boolean));
    }));
  });
});

// ---- peers' encodings ------------------------------------------------------------------

/** What each peer writes for an array of numbers (or BigInts). */
const PEERS = {
  '@msgpack/msgpack': (values) => mpEncode(values, { useBigInt64: true }),
  '@msgpack/msgpack forceFloat32': (values) => mpEncode(values, { useBigInt64: true, forceFloat32: true }),
  msgpackr: (values) => new Packr({ useRecords: false }).pack(values),
  'msgpackr useFloat32': (values) => new Packr({ useRecords: false, useFloat32: FLOAT32_OPTIONS.ALWAYS }).pack(values),
};

describe('unpack(peerEncode(x)) is x', () => {
  test.each(ARBITRARIES)('%s from every peer encoding, on every path', (_, { Type }, arbitrary) => {
    check(fc.property(arbitrary, fc.constantFrom(...Object.keys(PEERS)), (x, peer) => {
      const f32 = Type === Float32Array;
      // float32 modes only for float32 data: they would round a double.
      if (peer.endsWith('32') && !f32) peer = peer.replace(/ (forceFloat32|useFloat32)$/, '');
      const encoded = PEERS[peer](Array.from(x));
      // Peers' typed-array default: bytes as bin (what they write for any typed array).
      const bin = Type === Uint8Array ? PEERS[peer](x) : null;
      for (const [path, f] of paths()) {
        const back = f.unpack(encoded, Type);
        expect(back.length).toBe(x.length);
        for (let i = 0; i < x.length; i++) {
          if (!sameNumber(back[i], x[i])) throw new Error(`${path}, ${peer}: element ${i} is ${back[i]}, not ${x[i]}`);
        }
        if (bin) expect(Buffer.from(f.unpack(bin, Type)).equals(Buffer.from(x)), `${path}: bin`).toBe(true);
      }
    }), Math.ceil(RUNS / 2));
  });

  test('booleans from both peers, on every path', () => {
    check(fc.property(fc.array(fc.boolean(), len), (x) => {
      for (const encoded of [mpEncode(x), new Packr().pack(x)]) {
        for (const [path, f] of paths()) expect(Array.from(f.unpackBool(encoded), Boolean), path).toEqual(x);
      }
    }));
  });
});

// ---- strings ----------------------------------------------------------------------------

const units = (arb) => fc.array(arb, { maxLength: 400, size: 'max' });
const BMP_UNIT = fc.oneof(fc.integer({ min: 0, max: 0xd7ff }), fc.integer({ min: 0xe000, max: 0xffff }),
  fc.constantFrom(0, 0x7f, 0x80, 0xd7ff, 0xe000, 0xfeff, 0xfffe, 0xffff));
const STRING_KINDS = {
  BMP: { unit: BMP_UNIT, bad: fc.integer({ min: 0xd800, max: 0xdfff }), code: 'SURROGATE', wide: true },
  IA5: { unit: fc.integer({ min: 0, max: 0x7f }), bad: fc.integer({ min: 0x80, max: 0xffff }), code: 'RANGE' },
  Visible: {
    unit: fc.integer({ min: 0x20, max: 0x7e }),
    bad: fc.oneof(fc.integer({ min: 0, max: 0x1f }), fc.integer({ min: 0x7f, max: 0xffff })),
    code: 'RANGE',
  },
};
const stringOf = (u) => String.fromCharCode(...u);

describe('strings', () => {
  test.each(Object.keys(STRING_KINDS))('%s: encode -> decode and write -> read round trips, on every path', (kind) => {
    const { unit, wide } = STRING_KINDS[kind];
    check(fc.property(units(unit), fc.boolean(), (u, asUnits) => {
      const value = asUnits ? Uint16Array.from(u) : stringOf(u);
      const s = stringOf(u);
      // Independent expectations: big-endian UCS-2, or one byte per char.
      const content = wide ? Buffer.from(s, 'utf16le').swap16() : Buffer.from(s, 'latin1');
      for (const [path, f] of paths()) {
        const encoded = f[`encode${kind}`](value);
        expect(Buffer.from(encoded).equals(content), path).toBe(true);
        expect(f[`decode${kind}`](encoded), path).toBe(s);
        expect(Array.from(f[`decode${kind}ToUint16`](encoded)), path).toEqual(u);
        const der = f[`write${kind}String`](value);
        const prefixed = new Uint8Array([0x05, 0x00, ...der, 0xff]); // NULL before it, a byte after
        expect(f[`read${kind}String`](prefixed, 2), path).toEqual({ value: s, end: 2 + der.length });
      }
    }));
  });

  test.each(Object.keys(STRING_KINDS))('%s: the first bad char is reported at its exact index, on every path', (kind) => {
    const { unit, bad, code, wide } = STRING_KINDS[kind];
    check(fc.property(units(unit), fc.array(fc.tuple(fc.nat(), bad), { minLength: 1, maxLength: 3 }), (u, bads) => {
      const chars = [...u, 0x41];
      for (const [at, b] of bads) chars[at % chars.length] = b;
      const first = chars.findIndex((c) => !isGood(kind, c));
      const value = stringOf(chars);
      for (const [path, f] of paths()) {
        expect(() => f[`encode${kind}`](value), path).toThrow(FastmpError);
        try {
          f[`encode${kind}`](value);
        } catch (e) {
          expect([e.code, e.index, e.offset], path).toEqual([code, first, wide ? 2 * first : first]);
        }
      }
    }));
  });
});

function isGood(kind, c) {
  if (kind === 'BMP') return c < 0xd800 || c > 0xdfff;
  if (kind === 'IA5') return c <= 0x7f;
  return c >= 0x20 && c <= 0x7e;
}

// ---- hostile bytes ------------------------------------------------------------------------

const TAGS = [0xca, 0xcb, 0xcc, 0xcd, 0xce, 0xcf, 0xd0, 0xd1, 0xd2, 0xd3];
const SIZE = { 0xca: 5, 0xcb: 9, 0xcc: 2, 0xcd: 3, 0xce: 5, 0xcf: 9, 0xd0: 2, 0xd1: 3, 0xd2: 5, 0xd3: 9 };
const ELEMENT = fc.oneof(
  { weight: 4, arbitrary: fc.integer({ min: -32, max: 127 }).map((v) => [v & 0xff]) },
  { weight: 4, arbitrary: fc.tuple(fc.constantFrom(...TAGS), fc.uint8Array({ minLength: 8, maxLength: 8 })).map(([t, p]) => [t, ...p.subarray(0, SIZE[t] - 1)]) },
  { weight: 1, arbitrary: fc.constantFrom([0xc2], [0xc3], [0xc0], [0xc4, 1, 7], [0x91, 1], [0xc1]) },
  { weight: 1, arbitrary: fc.integer({ min: 0, max: 255 }).map((b) => [b]) },
);
/** An array header for `count` (any form that holds it, sometimes a larger one). */
const header = (count, form) => {
  if (form === 0 && count <= 15) return [0x90 | count];
  if (form <= 1 && count <= 0xffff) return [0xdc, count >> 8, count & 0xff];
  return [0xdd, count >>> 24, (count >>> 16) & 0xff, (count >>> 8) & 0xff, count & 0xff];
};
/** msgpack-shaped: a header near the element count (or huge), elements, maybe cut or with a tail. */
const MSGPACK = fc.record({
  elements: fc.array(ELEMENT, { maxLength: 80, size: 'max' }),
  uniform: fc.option(fc.constantFrom(...TAGS, 0x05, 0xe5, 0xc2), { nil: null }),
  delta: fc.oneof(fc.constant(0), fc.integer({ min: -2, max: 2 }), fc.constant(0xffffffff)),
  form: fc.nat(2),
  cut: fc.option(fc.nat(), { nil: null }),
  tail: fc.uint8Array({ maxLength: 4 }),
}).map(({ elements, uniform, delta, form, cut, tail }) => {
  // A uniform run (one tag throughout) reaches the SIMD blocks.
  const els = uniform === null ? elements : elements.map((e) => (SIZE[uniform] ? [uniform, ...Array(SIZE[uniform] - 1).fill(e[0])] : [uniform]));
  const count = delta === 0xffffffff ? delta : Math.max(0, els.length + delta);
  const bytes = [...header(count, form), ...els.flat(), ...tail];
  return Uint8Array.from(cut === null ? bytes : bytes.slice(0, cut % (bytes.length + 1)));
});
/** DER-shaped: one of the three string tags (or a near miss), any length form, content. */
const DER = fc.record({
  tag: fc.constantFrom(0x1e, 0x16, 0x1a, 0x3e, 0x36, 0x04, 0x00),
  lengthForm: fc.constantFrom('short', 'long', 'padded', 'indefinite', 'reserved', 'huge', 'random'),
  content: fc.oneof(fc.uint8Array({ maxLength: 300, size: 'max' }),
    fc.array(fc.integer({ min: 0x20, max: 0x7e }), { maxLength: 300, size: 'max' }).map((a) => Uint8Array.from(a))),
  delta: fc.integer({ min: -2, max: 2 }),
  random: fc.uint8Array({ maxLength: 6 }),
}).map(({ tag, lengthForm, content, delta, random }) => {
  const n = Math.max(0, content.length + delta);
  const be = (v) => (v > 0xff ? [...be(Math.floor(v / 256)), v & 0xff] : [v]);
  const length = {
    short: n < 0x80 ? [n] : [0x80 | be(n).length, ...be(n)],
    long: [0x80 | be(n).length, ...be(n)],
    padded: [0x80 | (be(n).length + 1), 0, ...be(n)],
    indefinite: [0x80],
    reserved: [0xff],
    huge: [0x84, 0xff, 0xff, 0xff, 0xff],
    random: [...random],
  }[lengthForm];
  return Uint8Array.from([tag, ...length, ...content]);
});
/** BMP-shaped: even lengths of mostly valid units, a surrogate now and then. */
const BMP_BYTES = fc.array(fc.oneof({ weight: 20, arbitrary: BMP_UNIT }, { weight: 1, arbitrary: fc.integer({ min: 0xd800, max: 0xdfff }) }),
  { maxLength: 300, size: 'max' }).chain((u) => fc.nat(2).map((odd) => {
  const b = Buffer.from(Uint16Array.from(u).buffer).swap16();
  return Uint8Array.from(odd === 1 ? [...b, 0x41] : b);
}));
const BYTES = fc.oneof(fc.uint8Array({ maxLength: 600, size: 'max' }), MSGPACK, DER, BMP_BYTES);

/** Every decoder with valid argument types, as (api, bytes, offset) -> value. */
const DECODERS = [
  ...TYPES.flatMap((T) => [
    [`unpack ${T.name}`, (f, b) => f.unpack(b, T)],
    [`unpack ${T.name} integralFloats`, (f, b) => f.unpack(b, T, { integralFloats: true })],
    [`unpackFrom ${T.name}`, (f, b, o) => f.unpackFrom(b, T, o)],
  ]),
  ['unpackBool', (f, b) => f.unpackBool(b)],
  ['unpackBoolFrom', (f, b, o) => f.unpackBoolFrom(b, o)],
  ...['BMP', 'IA5', 'Visible'].flatMap((k) => [
    [`decode${k}`, (f, b) => f[`decode${k}`](b)],
    [`decode${k}ToUint16`, (f, b) => f[`decode${k}ToUint16`](b)],
    [`read${k}String`, (f, b, o) => f[`read${k}String`](b, o)],
  ]),
];

/** What a call did: its value (as comparable data) or its error (class, code, index, offset). */
function outcome(call) {
  const start = performance.now();
  let result;
  try {
    const v = call();
    const value = v !== null && typeof v === 'object' && 'end' in v ? v.value : v;
    result = { ok: typeof value === 'string' ? value : [value.constructor.name, bytesOf(value).toString('hex')], end: v?.end };
  } catch (e) {
    result = { error: e instanceof FastmpError ? 'FastmpError' : e.constructor.name, code: e.code, index: e.index, offset: e.offset, message: e.message };
  }
  const ms = performance.now() - start;
  if (ms > 250) throw new Error(`a call took ${ms.toFixed(0)} ms`);
  return result;
}

describe('hostile bytes', () => {
  test('every decoder on every path: the same value or the same FastmpError, nothing else', () => {
    let errors = 0;
    let values = 0;
    check(fc.property(BYTES, fc.nat(), (bytes, at) => {
      const offset = bytes.length ? at % (bytes.length + 1) : 0;
      for (const [name, decoder] of DECODERS) {
        let first = null;
        for (const [path, f] of paths()) {
          const o = outcome(() => decoder(f, bytes, offset));
          if ('error' in o && o.error !== 'FastmpError') {
            throw new Error(`${name} on ${path} threw a ${o.error}: ${o.message} (bytes ${Buffer.from(bytes).toString('hex')}, offset ${offset})`);
          }
          if ('error' in o) errors++;
          else values++;
          const { message, ...facts } = o; // messages may word the same fault differently
          if (first === null) first = facts;
          else if (JSON.stringify(facts) !== JSON.stringify(first)) {
            throw new Error(`${name}: ${path} gave ${JSON.stringify(facts)}, wasm-simd gave ${JSON.stringify(first)} (bytes ${Buffer.from(bytes).toString('hex')}, offset ${offset})`);
          }
        }
      }
    }), RUNS * 4);
    // Both outcomes were reached: the generators make decodable input too.
    expect(errors).toBeGreaterThan(0);
    expect(values).toBeGreaterThan(0);
  });

  test('bad arguments throw only the documented TypeError / RangeError', () => {
    const good = Uint8Array.of(0x91, 0x01);
    const notBytes = fc.oneof(fc.anything(), fc.constantFrom(new Uint16Array(2), [0x91, 1], 'x', null, undefined, new DataView(new ArrayBuffer(2))));
    const badOffset = fc.oneof(fc.integer({ min: -5, max: -1 }), fc.integer({ min: 3, max: 1000 }), fc.double({ noInteger: true }),
      fc.constantFrom(NaN, Infinity, '1', null, 1n));
    check(fc.property(notBytes, badOffset, fc.anything(), (bytes, offset, options) => {
      for (const [path, f] of paths()) {
        for (const [name, decoder] of DECODERS) {
          // Not bytes: a TypeError naming the function.
          if (!(bytes instanceof Uint8Array || bytes instanceof ArrayBuffer)) {
            const o = outcome(() => decoder(f, bytes, 0));
            expect(o.error, `${path} ${name}(${typeof bytes})`).toBe('TypeError');
          }
          // Offsets outside 0..length: a RangeError (offset undefined means 0).
          if (name.includes('From') || name.startsWith('read')) {
            const o = outcome(() => decoder(f, good, offset));
            expect(o.error, `${path} ${name} at ${String(offset)}`).toBe('RangeError');
          }
        }
        // Options that are not an object, or hold unknown keys: a TypeError.
        if (options !== undefined && (options === null || typeof options !== 'object' || Object.keys(options).some((k) => k !== 'integralFloats'))) {
          expect(outcome(() => f.unpack(good, Int8Array, options)).error, path).toBe('TypeError');
        }
        // Not a target type: a TypeError.
        expect(outcome(() => f.unpack(good, bytes)).error, path).toBe('TypeError');
      }
    }), Math.ceil(RUNS / 3));
  });
});
