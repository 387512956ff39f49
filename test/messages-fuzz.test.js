// The decoder differentially fuzzed against @msgpack/msgpack: random bytes
// and mutations of real messages must decode to the same value in both, or
// be an error in both. Where fastmp differs on purpose the difference is
// checked against an independent oracle, never waved through:
// - invalid UTF-8 (fastmp: UTF8): the str at err.offset must fail a fatal TextDecoder;
// - nesting beyond maxDepth 100 (fastmp: DEPTH; @msgpack/msgpack has no limit):
//   @msgpack/msgpack's value must be that deep;
// - msgpackr's typed-array ext 0x74: fastmp decodes it as msgpackr does, so
//   the oracle's side reads it with msgpackr itself; records (0x72) fail on both;
// - a str of more than 200 bytes starting with U+FEFF: fastmp keeps the
//   character, @msgpack/msgpack's TextDecoder drops it.

import * as msgpack from '@msgpack/msgpack';
import { Unpackr } from 'msgpackr';
import { describe, expect, test } from 'vitest';
import { FastmpError } from '../js/errors.js';
import { decode, makeCodec, mapOf } from '../js/codec/index.js';
import { rng } from './helpers.js';
import { PORTS, difference, differenceButBom, hex, isPlain, mutate } from './messages-helpers.js';

const unpackr = new Unpackr({ useRecords: false, mapsAsObjects: true });
const fatal = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** @msgpack/msgpack with msgpackr's reading of ext 0x74 and a refusal of 0x72. */
const oracleCodec = new msgpack.ExtensionCodec();
oracleCodec.register({
  type: 0x74,
  encode: () => null,
  decode: (data) => unpackr.unpack(Uint8Array.from([0xc9, 0, 0, data.length >> 8, data.length & 0xff, 0x74, ...data])),
});
oracleCodec.register({ type: 0x72, encode: () => null, decode: () => { throw new Error('record'); } });

function oracle(bytes) {
  try {
    return { value: msgpack.decode(bytes, { extensionCodec: oracleCodec }) };
  } catch (error) {
    return { error };
  }
}

/** A decoded map: by prototype (a map may have a key named "constructor"). */

function depthOf(v) {
  if (Array.isArray(v)) return 1 + Math.max(0, ...v.map(depthOf));
  if (isPlain(v)) return 1 + Math.max(0, ...Object.values(v).map(depthOf));
  return 1;
}

/** The content of the str at bytes[offset] (fixstr, str 8/16/32). */
function strAt(bytes, offset) {
  const tag = bytes[offset];
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const [n, head] = tag >= 0xa0 && tag <= 0xbf ? [tag & 0x1f, 1] : tag === 0xd9 ? [bytes[offset + 1], 2]
    : tag === 0xda ? [view.getUint16(offset + 1), 3] : [view.getUint32(offset + 1), 5];
  return bytes.subarray(offset + head, offset + head + n);
}


/** '' when fastmp and the oracle agree on bytes (or differ only as the header explains). */
function check(bytes) {
  const want = oracle(bytes);
  let got;
  try {
    got = decode(bytes);
  } catch (err) {
    if (!(err instanceof FastmpError)) return `fastmp threw a ${err.constructor.name}: ${err.message}`;
    if (want.error) return '';
    if (err.code === 'UTF8') {
      let valid = true;
      try {
        fatal.decode(strAt(bytes, err.offset));
      } catch {
        valid = false;
      }
      return valid ? `UTF8 error on valid UTF-8 at ${err.offset}` : '';
    }
    if (err.code === 'DEPTH') return depthOf(want.value) > 100 ? '' : 'DEPTH error on a shallow value';
    return `fastmp: ${err.message}; @msgpack/msgpack decoded it`;
  }
  if (want.error) return `@msgpack/msgpack threw (${want.error.message}); fastmp decoded it`;
  return differenceButBom(got, want.value);
}

/** Bytes that look like msgpack: tags, lengths and payload bytes mixed. */
function randomBytes(r) {
  const n = r.int(48);
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const pick = r.int(8);
    out[i] = pick < 3 ? 0xc0 + r.int(32) : pick < 5 ? 0x80 + r.int(64) : pick === 5 ? r.int(4) : r();
  }
  return out;
}

/** A message of every kind of value, as @msgpack/msgpack writes it. */
function realMessage(r) {
  const pick = (list) => list[r.int(list.length)];
  const scalar = () => pick([null, true, false, r.int(300) - 150, r() * 3 - 1, r() / 7, 'key', 'é€😀', 'x'.repeat(r.int(40)),
    '\ufeff'.repeat(r.int(3)) + 'y'.repeat(r.int(300)), new Uint8Array(r.int(20)), new Date(r() * 1000),
    new msgpack.ExtData(r.int(4), new Uint8Array(r.int(18))), 2 ** 40 + r.int(9), -(2 ** 33)]);
  const value = (depth) => {
    if (depth > 3 || r.int(3) === 0) return scalar();
    if (r.int(2)) return Array.from({ length: r.int(5) }, () => value(depth + 1));
    return Object.fromEntries(Array.from({ length: r.int(5) }, () => [`k${r.int(20)}`, value(depth + 1)]));
  };
  return msgpack.encode(value(0));
}

describe('differential fuzz against @msgpack/msgpack', () => {
  test('20 000 random byte strings', () => {
    const r = rng(0x5eed);
    for (let i = 0; i < 20_000; i++) {
      const bytes = randomBytes(r);
      expect(check(bytes), hex(bytes)).toBe('');
    }
  });

  test('25 000 mutations of real messages', () => {
    const r = rng(0xfa57);
    for (let i = 0; i < 25_000; i++) {
      const bytes = mutate(realMessage(r), r);
      expect(check(bytes), hex(bytes)).toBe('');
    }
  });

  test('the unmutated messages decode to the same values', () => {
    const r = rng(7);
    for (let i = 0; i < 5_000; i++) {
      const bytes = realMessage(r);
      expect(differenceButBom(decode(bytes), msgpack.decode(bytes)), hex(bytes)).toBe('');
    }
  });

  test.each(PORTS)('%s port: shaped decoding of 20 000 mutated messages: a value or a FastmpError, nothing else', (portName, port) => {
    const shapedDecode = makeCodec(port).decode;
    const r = rng(0xbeef);
    const shape = { a: Float32Array, b: [Int16Array], c: mapOf(Boolean), d: { e: BigUint64Array } };
    const fields = () => ({
      a: Array.from({ length: r.int(6) }, () => r() / 3),
      b: [Array.from({ length: r.int(6) }, () => r.int(64000) - 32000)],
      c: { x: [true, false], y: [] },
      d: { e: [r.int(1000), 2 ** 50] },
      z: 'plain',
    });
    let decoded = 0;
    for (let i = 0; i < 20_000; i++) {
      const bytes = mutate(msgpack.encode(fields()), r);
      try {
        const value = shapedDecode(bytes, { shape });
        decoded++;
        const want = oracle(bytes);
        // Unshaped parts decode as @msgpack/msgpack decodes them.
        if (!want.error && isPlain(value) && 'z' in value) expect(differenceButBom(value.z, want.value.z)).toBe('');
      } catch (err) {
        expect(err, `${hex(bytes)}: ${err.message}`).toBeInstanceOf(FastmpError);
        expect(typeof err.path).toBe('string');
      }
    }
    expect(decoded).toBeGreaterThan(1000);
  });

  // The kernels read a field's elements from where the decoder found them
  // (FM_ELEMENTS_ONLY): every error must still name the element, the byte and
  // the path that the pure-JS port names.
  test('20 000 mutated shaped messages: each wasm port decodes each as the pure-JS port does, error for error', () => {
    const ports = PORTS.map(([name, port]) => [name, makeCodec(port).decode]);
    const r = rng(0xfe1d);
    const shape = { a: Float32Array, b: [Int16Array], c: mapOf(Boolean), d: { e: BigUint64Array }, f: Float64Array };
    const outcomeOf = (decodeBy, bytes) => {
      try {
        return { value: decodeBy(bytes, { shape }) };
      } catch (err) {
        return { code: err.code, index: err.index, offset: err.offset, path: err.path };
      }
    };
    let errors = 0;
    for (let i = 0; i < 20_000; i++) {
      const bytes = mutate(msgpack.encode({
        a: Array.from({ length: r.int(40) }, () => r() / 3),
        b: [Array.from({ length: r.int(40) }, () => r.int(64000) - 32000)],
        c: { x: [true, false, true], y: [] },
        d: { e: [r.int(1000), 2 ** 50, 7] },
        f: Array.from({ length: r.int(20) }, () => (r.int(2) ? r.int(300) : r())),
      }), r);
      const [first, ...others] = ports.map(([, decodeBy]) => outcomeOf(decodeBy, bytes));
      if (first.code !== undefined) errors++;
      for (const [k, other] of others.entries()) expect(differenceButBom(other, first), `${ports[k + 1][0]}: ${hex(bytes)}`).toBe('');
    }
    expect(errors).toBeGreaterThan(2000);
  });
});

// Streams against the one-shot decoder: the same bytes in chunks of random
// sizes (and from one refilled buffer) give decodeMulti()'s values, then its
// error (code and path), whatever the chunking; the limits included, which a
// stream applies before the bytes a header claims have arrived.
describe('streams against decodeMulti(), on mutated messages', () => {
  /** The values `run()` yields, then its error as { code, path } (or null). */
  async function outcome(run) {
    const values = [];
    try {
      for await (const v of run()) values.push(v);
      return { values, error: null };
    } catch (err) {
      expect(err, err.message).toBeInstanceOf(FastmpError);
      return { values, error: { code: err.code, path: err.path } };
    }
  }

  /** bytes in chunks of the sizes r draws (1 to 24), each handed out in one buffer that is refilled when `refill`. */
  async function* chunks(bytes, r, refill) {
    const buffer = new Uint8Array(24);
    for (let at = 0; at < bytes.length;) {
      const n = Math.min(1 + r.int(24), bytes.length - at);
      if (!refill) {
        yield bytes.slice(at, at + n);
      } else {
        buffer.set(bytes.subarray(at, at + n));
        yield buffer.subarray(0, n);
      }
      at += n;
    }
  }

  test.each(PORTS)('%s port: 3 000 runs of mutated messages, plain and shaped, tight limits or none', async (portName, port) => {
    const { Decoder } = makeCodec(port);
    const r = rng(0x57ea);
    const optionSets = [
      undefined,
      { maxStrLength: 20, maxBinLength: 8, maxArrayLength: 4, maxMapLength: 3, maxExtLength: 6, maxDepth: 3 },
      { shape: { a: Float32Array, b: [Int16Array] }, maxArrayLength: 5 },
    ];
    for (let i = 0; i < 3000; i++) {
      const options = optionSets[i % optionSets.length];
      const parts = Array.from({ length: 1 + r.int(3) }, () => (options?.shape
        ? msgpack.encode({ a: Array.from({ length: r.int(7) }, () => r() / 3), b: [[r.int(999), -7]], z: 'x'.repeat(r.int(30)) })
        : realMessage(r)));
      const bytes = mutate(Uint8Array.from(parts.flatMap((p) => [...p])), r);
      const want = await outcome(function* oneShot() {
        yield* new Decoder(options).decodeMulti(bytes);
      });
      const got = await outcome(() => new Decoder(options).decodeStream(chunks(bytes, r, i % 2 === 1)));
      expect(got.error, hex(bytes)).toEqual(want.error);
      expect(difference(got.values, want.values), hex(bytes)).toBe('');
    }
  });
});

// An array shaped [Type] decodes its fields by a loop of its own (decoder.js
// readTypedFields()), which takes the common field itself and hands any other
// to the path every typed field takes: each field must decode as that field
// alone does, error for error. A message is fields of every form a typed
// field takes or refuses, the last one perhaps mutated, so that alone it has
// the very bytes it has inside the array.
describe('an array shaped [Type]: each field decodes as the same field alone', () => {
  const { decode: decodeBy, encode: encodeBy } = makeCodec(PORTS[0][1]);
  let r;
  // A typed array as its type and its bytes: NaN payloads compared bit for bit.
  const bitsOf = (v) => (ArrayBuffer.isView(v) ? `${v.constructor.name} ${hex(new Uint8Array(v.buffer, v.byteOffset, v.byteLength))}` : v);
  const outcomeOf = (bytes, options) => {
    try {
      const value = decodeBy(bytes, options);
      return { value: Array.isArray(value) ? value.map(bitsOf) : bitsOf(value) };
    } catch (err) {
      if (!(err instanceof FastmpError)) throw err;
      return { code: err.code, index: err.index, offset: err.offset, path: err.path };
    }
  };
  const header = (n) => (n < 16 ? [0x90 + n] : [0xdc, n >> 8, n & 0xff]);
  /** A float array with a NaN of a random payload (a signalling one too) among its values. */
  const withNaN = (Type, n) => {
    const x = Type.from({ length: 1 + n }, (_, i) => i / 3);
    const words = new Uint32Array(x.buffer);
    words[Type === Float32Array ? n : 2 * n + 1] = Type === Float32Array ? 0x7f800001 + r.int(0x3fffff) : 0x7ff00001 + r.int(0x7ffff);
    return x;
  };

  test.each([[Float32Array], [Float64Array], [Int16Array], [BigInt64Array], [Boolean]])('[%o], reuseTypedArrays off and on', (Type) => {
    r = rng(0x7f1e1d);
    const numbers = (n) => Array.from({ length: n }, () => (Type === Boolean ? r.int(2) === 1 : r.int(3) === 0 ? r() * 100 : r.int(70000) - 35000));
    const fields = [
      () => encodeBy(Type === Boolean ? numbers(r.int(20)) : Type.name.startsWith('Big') ? BigInt64Array.from(numbers(r.int(20)), (v) => BigInt(Math.trunc(v) % 30000)) : Type.from(numbers(r.int(20)), (v) => (Type === Int16Array ? Math.trunc(v) % 30000 : v))),
      () => msgpack.encode(numbers(r.int(20))), // other forms: float64, every int form
      () => msgpack.encode(new Uint8Array(8 * r.int(3))), // a bin
      () => msgpack.encode(null),
      () => msgpack.encode('x'),
      () => encodeBy(Type === Float32Array || Type === Float64Array ? withNaN(Type, r.int(14)) : null),
    ];
    let errors = 0;
    for (let i = 0; i < 3000; i++) {
      const parts = Array.from({ length: 1 + r.int(12) }, () => Uint8Array.from(fields[r.int(3) === 0 ? r.int(fields.length) : 0]()));
      const mutated = Uint8Array.from(mutate(parts[parts.length - 1], r));
      // (Each field keeps a byte at least: the array's own check of its count against the bytes left comes first.)
      if (r.int(2) === 0 && mutated.length > 0) parts[parts.length - 1] = mutated;
      const message = Uint8Array.from([...header(parts.length), ...parts.flatMap((p) => [...p])]);
      // A limit below some fields' lengths (not the array's: at most 12 fields).
      const limits = r.int(2) === 0 ? { maxArrayLength: 13 } : {};
      for (const reuseTypedArrays of [false, true]) {
        const whole = outcomeOf(message, { shape: [Type], reuseTypedArrays, ...limits });
        let start = header(parts.length).length;
        let want = { value: [] };
        for (const [k, part] of parts.entries()) {
          const alone = outcomeOf(part, { shape: Type, ...limits });
          if (alone.code !== undefined) {
            const path = alone.code === 'TRAILING' ? alone.path : `$[${k}]${alone.path.slice(1)}`;
            want = { code: alone.code, index: alone.index, offset: start + alone.offset, path };
            break;
          }
          want.value.push(alone.value);
          start += part.length;
        }
        if (whole.code !== undefined) errors++;
        expect(whole, hex(message)).toEqual(want);
      }
    }
    expect(errors).toBeGreaterThan(500);
  });
});
