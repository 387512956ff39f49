// audit-dropin2.test.js - fastmp-wasm as a drop-in for @msgpack/msgpack 3.1.3, a
// second look. The numbered describe() is a finding that failed on c612e28:
// the declarations lacked @msgpack/msgpack's type names ExtensionEncoderType and
// ExtensionDecoderType, so code written against its types did not compile after
// the import change the README promises is all a switch takes. The rest is a
// differential fuzz with value generators no earlier audit used (numeric-like
// keys, Symbol keys, non-enumerable properties, getters, classes with toJSON,
// boxed primitives, sparse arrays with own extras, subnormals, 2^53±1, BigInts at
// every int boundary, strings at the UTF-8 writers' byte-length switches, Dates
// before 1970 / after 2106 / invalid / fractional, ext types -128..127, nested
// ExtData) under every encoder option, and the peer's bytes decoded under limits
// set at the lengths the generator makes (exactly at the limit, one past it), with
// rawStrings, useBigInt64, mapKeyConverter, keyDecoder and context: confirmed on
// c612e28, together with msgpackr's structuredClone references to a typed array
// the plug-in wrote.

import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import * as msgpack from '@msgpack/msgpack';
import { describe, expect, test } from 'vitest';
import * as fm from '../dist/fastmp-node.js';
import { useFastmpForTypedArrays } from '../js/msgpackr-node.js';
import { rng } from './rng.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const hex = (b) => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('hex');

// ---- 1: the declarations -------------------------------------------------------------

describe("1: @msgpack/msgpack's type names ExtensionEncoderType and ExtensionDecoderType are exported (js/index.d.ts, js/index.d.cts)", () => {
  // Code written against @msgpack/msgpack's types, as its README and its index.d.ts give them:
  // it must type-check against fastmp-wasm's declarations, the import the only change.
  const body = (lib) => `
import { decode, encode, ExtensionCodec } from '${lib}';
import type { DecoderOptions, EncoderOptions, ExtensionCodecType, ExtensionDecoderType, ExtensionEncoderType } from '${lib}';

class Ctx { seen = 0; }
const encodeSet: ExtensionEncoderType<Ctx> = (input, context) => {
  context.seen++;
  return input instanceof Set ? encode([...input]) : null;
};
const decodeSet: ExtensionDecoderType<Ctx> = (data, type, context) => {
  context.seen += type;
  return new Set(decode(data) as unknown[]);
};
const codec = new ExtensionCodec<Ctx>();
codec.register({ type: 0, encode: encodeSet, decode: decodeSet });
const asType: ExtensionCodecType<Ctx> = codec;
const context = new Ctx();
const eo: EncoderOptions<Ctx> = { extensionCodec: codec, context };
const dopt: DecoderOptions<Ctx> = { extensionCodec: codec, context };
export const back: unknown = decode(encode(new Set([1]), eo), dopt);
export { asType };
`;
  const work = mkdtempSync(join(tmpdir(), 'fastmp-audit-dropin2-'));
  const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');

  test.each([['ES modules', 'consumer.ts'], ['CommonJS', 'consumer.cts']])('%s: a consumer of them type-checks (tsc --strict), as it does against @msgpack/msgpack', async (_, file) => {
    const dir = join(work, file.replace('.', '-'));
    mkdirSync(join(dir, 'node_modules', '@msgpack'), { recursive: true });
    symlinkSync(ROOT, join(dir, 'node_modules', 'fastmp-wasm'), 'dir');
    symlinkSync(join(ROOT, 'node_modules', '@msgpack', 'msgpack'), join(dir, 'node_modules', '@msgpack', 'msgpack'), 'dir');
    const peerFile = file.replace('consumer', 'peer');
    writeFileSync(join(dir, file), body('fastmp-wasm'));
    writeFileSync(join(dir, peerFile), body('@msgpack/msgpack'));
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({
      compilerOptions: { strict: true, noEmit: true, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', lib: ['es2022', 'dom'], types: [], skipLibCheck: false },
      files: [file, peerFile],
    }));
    let report = '';
    try {
      await promisify(execFile)(process.execPath, [TSC, '-p', join(dir, 'tsconfig.json')], { encoding: 'utf8' });
    } catch (e) {
      report = `${e.stdout}${e.stderr}`.trim();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    expect(report).toBe('');
  }, 120_000);
});

// ---- values: one seed builds the same value for each library ---------------------------

const INT_EDGES = [];
for (const p of [0, 4, 5, 7, 8, 15, 16, 31, 32, 53]) for (const d of [-1, 0, 1]) INT_EDGES.push(2 ** p + d, -(2 ** p) + d);
const FLOAT_EDGES = [-0, NaN, Infinity, -Infinity, 5e-324, -5e-324, 2.2250738585072014e-308, 2.225073858507201e-308, 1.401298464324817e-45,
  1.1754942106924411e-38, 3.4028234663852886e38, 3.4028235677973366e38, Math.fround(0.1), 0.1, 2 ** 53 + 2, 2 ** 63, 2 ** 64, -(2 ** 63) - 4096, 1e308];
const BIG_EDGES = [];
for (const p of [0n, 7n, 8n, 15n, 16n, 31n, 32n, 53n, 63n]) for (const d of [-1n, 0n, 1n]) BIG_EDGES.push(2n ** p + d, -(2n ** p) + d);
BIG_EDGES.push(2n ** 64n - 1n, -(2n ** 63n));
BIG_EDGES.splice(0, Infinity, ...BIG_EDGES.filter((b) => b >= -(2n ** 63n))); // (within 64 bits: "Differences" 5)
const CHARS = ['a', 'Z', '\u0000', '\u007f', '\u0080', 'é', '\u07ff', '\u0800', '€', '\ud7ff', '\ue000', '\uffff', '😀', '\u{10ffff}'];
const LONE = ['\ud800', '\udbff', '\udc00', '\udfff'];
const UTF8_SIZE = new Map([...CHARS, ...LONE].map((c) => [c, Buffer.byteLength(c.toWellFormed())])); // (a lone surrogate: U+FFFD, 3)
const BYTE_LENGTHS = [0, 1, 15, 16, 17, 31, 32, 33, 49, 50, 51, 150, 199, 200, 201, 255, 256, 257];
const KEYS = ['01', '1', '2', '10', '4294967294', '4294967295', '4294967296', '-0', '-1', '1e3', '1.0', '', ' ', 'a', 'b', 'constructor', 'valueOf', 'k'.repeat(31), 'k'.repeat(32)];
const DATES = [0, -1, -999, -1000, -1001, 1.5, -1.5, 2 ** 32 * 1000 - 1, 2 ** 32 * 1000, 2 ** 34 * 1000 - 1, 2 ** 34 * 1000, 8.64e15, -8.64e15, -62135596800001, NaN];

/** A class instance with a toJSON (neither library asks it: a map of its own properties). */
class Point {
  toJSON() {
    return 'json';
  }
}

/**
 * A value built for `lib` from `seed`: the same structure for each library, with its own ExtData
 * class (messages.md "Differences" 16), and for the peer strings made well-formed (lone surrogates
 * as U+FFFD, as fastmp writes them: "Differences" 1). Maps, Sets, typed arrays other than bytes
 * and msgpackr's ext types are left out (differences 6, 7, 13).
 */
function build(seed, lib) {
  const r = rng(seed);
  const peer = lib === msgpack;
  const pick = (list) => list[r.int(list.length)];
  const string = (lone) => { // a string of an exact UTF-8 byte length
    const long = r.int(40) === 0;
    const target = long ? pick([65535, 65536]) : pick(BYTE_LENGTHS);
    let s = long ? 'a'.repeat(target - 64) : ''; // (the last 64 bytes random: the str 16 / str 32 switch)
    let n = s.length;
    const ascii = r.int(3) === 0;
    while (n < target) {
      let c = ascii ? String.fromCharCode(32 + r.int(95)) : lone && r.int(25) === 0 ? pick(LONE) : pick(CHARS);
      let size = ascii ? 1 : UTF8_SIZE.get(c);
      if (n + size > target) [c, size] = ['a', 1];
      s += c;
      n += size;
    }
    return peer ? s.toWellFormed() : s;
  };
  const bytes = () => {
    const n = pick([0, 1, 15, 16, 31, 32, 255, 256, 257]);
    const backing = new Uint8Array(n + 7).map(() => r() & 0xff);
    const at = r.int(7);
    switch (r.int(4)) {
      case 0: return Buffer.from(backing.buffer, at, n);
      case 1: return new DataView(backing.buffer, at, n);
      case 2: return new Uint8ClampedArray(backing.buffer, at, n);
      default: return backing.subarray(at, at + n);
    }
  };
  const extType = () => {
    const t = r.int(256) - 128;
    return t === 0x72 || t === 0x74 ? 5 : t;
  };
  const scalar = () => {
    switch (r.int(12)) {
      case 0: return pick([null, undefined, true, false]);
      case 1: return pick(INT_EDGES);
      case 2: return pick(FLOAT_EDGES);
      case 3: return r.int(2) ? Math.fround((r.float() - 0.5) * 10 ** (r.int(80) - 40)) : (r.float() - 0.5) * 10 ** (r.int(600) - 300);
      case 4: case 5: return string(true);
      case 6: return new Date(pick(DATES));
      case 7: return bytes();
      case 8: {
        const data = r.int(4) === 0 ? lib.encode([new lib.ExtData(extType(), Uint8Array.of(r.int(256)))]) : bytes();
        return new lib.ExtData(extType(), data instanceof Uint8Array ? data : new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
      }
      case 9: return pick(BIG_EDGES);
      case 10: return pick([() => new Number(-0), () => new String('ab'), () => new Boolean(true), () => Object(2n)])();
      default: return new Date(pick(DATES) + r.int(1000));
    }
  };
  const value = (depth) => {
    if (depth <= 0 || r.int(3) === 0) return scalar();
    const n = pick([0, 1, 2, 3, 15, 16, 17]);
    switch (r.int(6)) {
      case 0: { // a sparse array, maybe with own extras
        const a = new Array(n);
        for (let i = 0; i < n; i++) if (r.int(2)) a[i] = value(depth - 1);
        if (r.int(2)) Object.assign(a, { extra: 1, '-1': 2 });
        return a;
      }
      case 1: case 2: return Array.from({ length: Math.min(n, 6) }, () => value(depth - 1));
      default: {
        const kind = r.int(5);
        const o = kind === 0 ? Object.create(null)
          : kind === 1 ? new Point()
            : {};
        const m = Math.min(n, 8);
        for (let i = 0; i < m; i++) {
          const k = r.int(4) ? pick(KEYS) : string(false);
          const v = value(depth - 1);
          if (r.int(6) === 0) Object.defineProperty(o, k, { get: () => v, enumerable: true, configurable: true });
          else Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
        }
        if (r.int(4) === 0) Object.defineProperty(o, 'hidden', { value: 1, enumerable: false });
        if (r.int(4) === 0) o[Symbol('s')] = 1;
        return o;
      }
    }
  };
  return value(3);
}

/** '' when the values are the same (NaN, -0, bytes, Dates, ExtData), else where they differ. */
function difference(got, want, path = '$') {
  if (typeof got !== typeof want) return `${path}: ${typeof got} vs ${typeof want}`;
  if (typeof want === 'number') return Object.is(got, want) || (Number.isNaN(got) && Number.isNaN(want)) ? '' : `${path}: ${got} vs ${want}`;
  if (want === null || typeof want !== 'object') return got === want ? '' : `${path}: ${String(got)} vs ${String(want)}`;
  if (got === null) return `${path}: null`;
  if (want instanceof Uint8Array) return got instanceof Uint8Array && hex(got) === hex(want) ? '' : `${path}: bytes`;
  if (want instanceof Date) return got instanceof Date && Object.is(got.getTime(), want.getTime()) ? '' : `${path}: ${got} vs ${want}`;
  if (want instanceof msgpack.ExtData) return got instanceof fm.ExtData && got.type === want.type && hex(got.data) === hex(want.data) ? '' : `${path}: ext`;
  if (Array.isArray(want) !== Array.isArray(got)) return `${path}: array vs not`;
  if (Object.getPrototypeOf(got) !== Object.getPrototypeOf(want)) return `${path}: prototype`;
  const keys = Object.keys(want);
  if (Object.keys(got).join('\u0000') !== keys.join('\u0000')) return `${path}: keys ${Object.keys(got)} vs ${keys}`;
  for (const k of keys) {
    const d = difference(got[k], want[k], `${path}.${k}`);
    if (d) return d;
  }
  return '';
}

const outcome = (fn) => {
  try {
    return { value: fn() };
  } catch (error) {
    return { error };
  }
};

// ---- encode ------------------------------------------------------------------------------

describe('encode: the peer\'s bytes under every option, or an error where it errs', () => {
  test('2 000 values from seeds 0xd20_0000 on, kept Encoders too', () => {
    const r = rng(0xe2c0);
    const kept = new Map();
    const failures = [];
    let written = 0;
    let refused = 0;
    for (let i = 0; i < 2000 && failures.length < 5; i++) {
      const seed = 0xd200000 + i;
      const options = {};
      for (const key of ['sortKeys', 'forceFloat32', 'ignoreUndefined', 'forceIntegerToFloat', 'useBigInt64']) if (r.int(3) === 0) options[key] = r.int(3) !== 0;
      if (r.int(3) === 0) options.initialBufferSize = [1, 2, 3, 5, 9][r.int(5)];
      if (r.int(4) === 0) options.maxDepth = r.int(7);
      const want = outcome(() => hex(msgpack.encode(build(seed, msgpack), options)));
      const ours = build(seed, fm);
      const got = outcome(() => hex(fm.encode(ours, options)));
      const key = JSON.stringify(options);
      if (!kept.has(key)) kept.set(key, new fm.Encoder(options));
      const again = outcome(() => hex(kept.get(key).encode(build(seed, fm))));
      const label = `seed ${seed} ${key}`;
      if (got.error && !(got.error instanceof fm.FastmpError)) failures.push(`${label}: not a FastmpError: ${got.error.constructor.name} ${got.error.message}`);
      else if (want.error && !got.error) failures.push(`${label}: the peer threw (${want.error.message}), fastmp wrote ${got.value.slice(0, 80)}`);
      else if (got.error && !want.error) failures.push(`${label}: fastmp threw (${got.error.message.slice(0, 160)})`);
      else if (!got.error && got.value !== want.value) failures.push(`${label}:\n ${got.value.slice(0, 200)}\n ${want.value.slice(0, 200)}`);
      else if (got.error) {
        refused++;
        // the peer's phrase, where it has one for the situation
        if (/Too deep/.test(want.error.message) && got.error.code !== 'DEPTH') failures.push(`${label}: ${got.error.code} for the peer's ${want.error.message}`);
        if (/Unrecognized object/.test(want.error.message) && !/unrecognized object/i.test(got.error.message)) failures.push(`${label}: ${got.error.message}`);
      } else written++;
      if (again.value !== got.value || (again.error === undefined) !== (got.error === undefined)) failures.push(`${label}: a kept Encoder differs`);
    }
    expect(failures).toEqual([]);
    expect(written).toBeGreaterThan(700);
    expect(refused).toBeGreaterThan(100);
  });
});

// ---- decode ------------------------------------------------------------------------------

const LIMITS = [0, 1, 2, 3, 15, 16, 17, 31, 32, 33, 50, 199, 200, 255, 256, 257, 65535];

describe('decode of the peer\'s bytes under limits at the generated lengths, rawStrings, useBigInt64, keyDecoder, mapKeyConverter, context', () => {
  test('2 000 messages from seeds 0xdec_0000 on: the peer\'s values, or its error class and phrase', () => {
    const r = rng(0xd2c0);
    const failures = [];
    let decoded = 0;
    let refused = 0;
    for (let i = 0; i < 2000 && failures.length < 5; i++) {
      const seed = 0xdec0000 + i;
      const bytes = outcome(() => msgpack.encode(build(seed, msgpack), { useBigInt64: true })).value;
      if (!bytes) continue;
      const o = {};
      for (const key of ['maxStrLength', 'maxBinLength', 'maxArrayLength', 'maxMapLength', 'maxExtLength']) if (r.int(3) === 0) o[key] = LIMITS[r.int(LIMITS.length)];
      for (const key of ['useBigInt64', 'rawStrings']) if (r.int(3) === 0) o[key] = r.int(3) !== 0;
      if (r.int(6) === 0) o.keyDecoder = null;
      if (r.int(6) === 0) o.mapKeyConverter = (k) => (typeof k === 'string' ? `${k}!` : typeof k === 'number' ? k : String(k));
      const extras = r.int(4) === 0;
      const codecOf = (lib) => {
        const codec = new lib.ExtensionCodec();
        codec.register({ type: 3, encode: () => null, decode: (data, type, context) => `ext ${type} ${data.length} ${context.tag}` });
        return codec;
      };
      const label = `seed ${seed} ${JSON.stringify(o, (k, v) => (typeof v === 'function' ? 'fn' : v))}`;
      const want = outcome(() => msgpack.decode(bytes, extras ? { ...o, extensionCodec: codecOf(msgpack), context: { tag: 't' } } : o));
      const got = outcome(() => fm.decode(bytes, extras ? { ...o, extensionCodec: codecOf(fm), context: { tag: 't' } } : o));
      const viaDecoder = outcome(() => new fm.Decoder(o).decode(bytes));
      if (got.error) {
        if (!(got.error instanceof fm.FastmpError)) {
          failures.push(`${label}: not a FastmpError: ${got.error.constructor.name} ${got.error.message}`);
          continue;
        }
        if (!want.error) {
          failures.push(`${label}: fastmp threw (${got.error.message.slice(0, 160)}); the peer decoded it`);
          continue;
        }
        refused++;
        const sameClass = want.error instanceof RangeError ? got.error instanceof RangeError : got.error instanceof fm.DecodeError && !(got.error instanceof RangeError);
        if (!sameClass) failures.push(`${label}: ${got.error.constructor.name} for the peer's ${want.error.constructor.name} (${want.error.message})`);
        if (/^Max length exceeded/.test(want.error.message) && (got.error.code !== 'MAX_LENGTH' || !/max length exceeded/i.test(got.error.message))) {
          failures.push(`${label}: ${got.error.message} for the peer's ${want.error.message}`);
        }
      } else if (want.error) {
        failures.push(`${label}: the peer threw (${want.error.message}); fastmp decoded it`);
      } else {
        decoded++;
        const d = difference(got.value, want.value);
        if (d) failures.push(`${label}: ${d}`);
      }
      if (!extras && (viaDecoder.error === undefined) !== (got.error === undefined)) failures.push(`${label}: a new Decoder differs from decode()`);
    }
    expect(failures).toEqual([]);
    expect(decoded).toBeGreaterThan(700);
    expect(refused).toBeGreaterThan(100);
  });
});

// ---- msgpackr: structuredClone's references to an array the plug-in wrote ---------------

test('msgpackr with structuredClone: a typed array met twice (and in a cycle) is one array when msgpackr reads it back, its numbers exact', () => {
  // A private copy of msgpackr's CommonJS build: its extension list is process-wide per copy.
  const require = createRequire(`${ROOT}package.json`);
  const path = require.resolve('msgpackr');
  const saved = require.cache[path];
  delete require.cache[path];
  const copy = require(path);
  if (saved) require.cache[path] = saved;
  else delete require.cache[path];
  useFastmpForTypedArrays(copy);
  const f32 = Float32Array.of(1.5, -0, 3);
  const ids = Int32Array.of(0x41, 0x7f, -1); // record-id-sized numbers
  const long = new Float64Array(100).map((_, i) => i / 3);
  const cyclic = { f32 };
  cyclic.self = cyclic;
  for (const options of [{ structuredClone: true }, { structuredClone: true, useRecords: false }, { structuredClone: true, bundleStrings: true }]) {
    // (a cycle through an object, with useRecords false: msgpackr's own reader fails, plug-in or not)
    const message = { a: f32, b: f32, ids: [ids, ids], long: [long, long], cyclic: options.useRecords === false ? { f32, self: null } : cyclic };
    const back = new copy.Unpackr({ ...options }).unpack(new copy.Packr({ ...options }).pack(message));
    expect(back.a).toBe(back.b);
    expect(back.ids[0]).toBe(back.ids[1]);
    expect(back.long[0]).toBe(back.long[1]);
    if (options.useRecords !== false) expect(back.cyclic.self).toBe(back.cyclic);
    expect(back.a).toEqual([1.5, -0, 3]);
    expect(Object.is(back.a[1], -0)).toBe(true);
    expect(back.ids[0]).toEqual([0x41, 0x7f, -1]);
    expect(back.long[0]).toEqual(Array.from(long));
    expect(back.cyclic.f32).toEqual([1.5, -0, 3]);
  }
});
