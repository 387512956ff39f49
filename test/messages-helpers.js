// messages-helpers.js - what the message-codec tests share: a deep equality
// that tells -0 from 0 and compares NaNs and float32 bits exactly, the value
// generators for fast-check, and the Python peer. Expected values always come
// from the peers (@msgpack/msgpack, msgpackr, Python), never from fastmp.

import { execFileSync } from 'node:child_process';
import fc from 'fast-check';
import { jsPort } from '../js/codec/index.js';
import { storePool } from '../js/codec/stores.js';
import { createFastmpSync } from '../js/index.js';
import { CORE } from '../js/instances.js';

/** Wasm instances whose kernels take every typed array (no pure-JS shortcut for small ones). */
export const WASM = {
  simd: createFastmpSync({ backend: 'simd', pureJs: 'never' }),
  scalar: createFastmpSync({ backend: 'scalar', pureJs: 'never' }),
};

/**
 * The ports the typed-array and shape tests run over (js/codec/port-contract.js
 * states the contract): pure JS, and each wasm build's. Rows: name, port,
 * the wasm instance that owns it (null for pure JS).
 */
export const PORTS = [['pure-JS', jsPort, null], ['wasm SIMD', WASM.simd[CORE], WASM.simd], ['wasm scalar', WASM.scalar[CORE], WASM.scalar]];

/**
 * `port` with the stores its pools make watched: `stores` lists every store
 * the codec had it make (an Encoder borrows one from its port's pool per
 * call: js/codec/stores.js). The watched port is a port of its own, with
 * pools and codec state of its own, over the same instance.
 */
export function watchedPort(port) {
  const stores = [];
  const watched = Object.create(port, {
    pools: { value: { js: null, wasm: null } },
    encoder: { value: null, writable: true },
    encoders: { value: [] },
    decoder: { value: null, writable: true },
    decoders: { value: [] },
  });
  const pool = storePool(watched);
  const borrow = pool.borrow.bind(pool);
  pool.borrow = (initialBytes) => {
    const idle = pool.idle.length;
    const store = borrow(initialBytes);
    if (pool.idle.length === idle) stores.push(store); // (a new store, not an idle one)
    return store;
  };
  return { port: watched, stores };
}

/** A typed array's raw bytes. */
const rawBytes = (x) => new Uint8Array(x.buffer, x.byteOffset, x.byteLength);

/**
 * Deep equality: numbers by Object.is (NaN equals NaN, -0 differs from 0),
 * typed arrays by type and raw bytes (so float bits, NaN payloads and -0
 * count), Dates by time, plain objects by own keys and prototype.
 * Returns '' when equal, else the path of the first difference.
 */
export function difference(a, b, path = '$') {
  if (typeof a !== typeof b) return `${path}: ${typeof a} vs ${typeof b}`;
  if (typeof a !== 'object' || a === null || b === null) {
    return Object.is(a, b) ? '' : `${path}: ${String(a)} vs ${String(b)}`;
  }
  if (a.constructor?.name === 'ExtData' && b.constructor?.name === 'ExtData') { // fastmp's or @msgpack/msgpack's
    return a.type === b.type ? difference(a.data, b.data, `${path}.data`) : `${path}: ext type ${a.type} vs ${b.type}`;
  }
  if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return `${path}: prototypes differ (${a.constructor?.name} vs ${b.constructor?.name})`;
  if (a instanceof Date) return Object.is(a.getTime(), b.getTime()) ? '' : `${path}: ${a.getTime()} vs ${b.getTime()}`;
  if (ArrayBuffer.isView(a) || a instanceof ArrayBuffer) {
    const x = a instanceof ArrayBuffer ? new Uint8Array(a) : rawBytes(a);
    const y = b instanceof ArrayBuffer ? new Uint8Array(b) : rawBytes(b);
    if (x.length !== y.length) return `${path}: ${x.length} vs ${y.length} bytes`;
    for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return `${path}: byte ${i} differs`;
    return '';
  }
  if (Array.isArray(a)) {
    if (a.length !== b.length) return `${path}: length ${a.length} vs ${b.length}`;
    for (let i = 0; i < a.length; i++) {
      const d = difference(a[i], b[i], `${path}[${i}]`);
      if (d) return d;
    }
    return '';
  }
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.join('\u0000') !== kb.join('\u0000')) return `${path}: keys ${JSON.stringify(ka)} vs ${JSON.stringify(kb)}`;
  for (const k of ka) {
    const d = difference(a[k], b[k], `${path}.${k}`);
    if (d) return d;
  }
  return '';
}

/** A plain object (Object.prototype or none): what a decoder makes of a msgpack map. */
export const isPlain = (v) => v !== null && typeof v === 'object' && [Object.prototype, null].includes(Object.getPrototypeOf(v));

/** A str of more than 200 bytes starting with U+FEFF: fastmp keeps the character, @msgpack/msgpack drops it (messages.md "Differences" 1). */
const bomOnly = (got, want) => typeof got === 'string' && typeof want === 'string' && got === `\ufeff${want}`;

/** difference() of fastmp's value (got) and @msgpack/msgpack's (want), but for the documented BOM difference, in strings and map keys. */
export function differenceButBom(got, want, path = '$') {
  if (bomOnly(got, want)) return '';
  if (Array.isArray(got) && Array.isArray(want) && got.length === want.length) {
    for (let i = 0; i < got.length; i++) {
      const d = differenceButBom(got[i], want[i], `${path}[${i}]`);
      if (d) return d;
    }
    return '';
  }
  if (isPlain(got) && isPlain(want)) {
    const ka = Object.keys(got);
    const kb = Object.keys(want);
    if (ka.length !== kb.length) return `${path}: keys ${ka} vs ${kb}`;
    for (let i = 0; i < ka.length; i++) {
      if (ka[i] !== kb[i] && !bomOnly(ka[i], kb[i])) return `${path}: key ${ka[i]} vs ${kb[i]}`;
      const d = differenceButBom(got[ka[i]], want[kb[i]], `${path}.${ka[i]}`);
      if (d) return d;
    }
    return Object.getPrototypeOf(got) === Object.getPrototypeOf(want) ? '' : `${path}: prototypes differ`;
  }
  return difference(got, want, path);
}

/** The error fn throws (failing the test when it throws none). */
export function catchError(fn) {
  try {
    fn();
  } catch (err) {
    return err;
  }
  throw new Error('expected an error');
}

/** An async source of `bytes` in chunks of the given sizes (cycled); each chunk a copy (an Array's slice for byte arrays). */
export async function* chunksOf(bytes, sizes) {
  let at = 0;
  for (let i = 0; at < bytes.length; i++) {
    const n = sizes[i % sizes.length];
    yield bytes.slice(at, at + n);
    at += n;
  }
}

/** The values of an async iterable, in an array. */
export async function collect(iterable) {
  const out = [];
  for await (const v of iterable) out.push(v);
  return out;
}

/** The error `promise` rejects with (failing the test when it resolves). */
export async function rejection(promise) {
  try {
    await promise;
  } catch (err) {
    return err;
  }
  throw new Error('expected a rejection');
}

export const hex = (bytes) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');

/** Runs Python's msgpack (Debian's python3-msgpack) with `script` (any common indent removed) on stdin bytes; returns stdout. */
export function python(script, input) {
  const lines = script.split('\n');
  const indent = Math.min(...lines.filter((l) => l.trim()).map((l) => l.length - l.trimStart().length));
  const body = lines.map((l) => l.slice(indent)).join('\n');
  return execFileSync('/usr/bin/python3', ['-c', `import sys, msgpack, struct, json\n${body}`], { input, maxBuffer: 1 << 28 });
}

// ---- generators --------------------------------------------------------------

/** Numbers that reach every int form's edges, floats of every kind. */
export const anyNumber = fc.oneof(
  fc.integer({ min: -40, max: 140 }),
  fc.integer(),
  fc.integer({ min: -(2 ** 31) - 300, max: 2 ** 32 + 300 }),
  fc.maxSafeInteger(),
  fc.double(),
  fc.double({ noDefaultInfinity: true, noNaN: true, min: -1e6, max: 1e6 }),
  fc.constantFrom(0, -0, 127, 128, 255, 256, 65535, 65536, 2 ** 32 - 1, 2 ** 32, -32, -33, -128, -129, -32768, -32769,
    -(2 ** 31), -(2 ** 31) - 1, 2 ** 53 - 1, -(2 ** 53 - 1), 2 ** 53, 2 ** 64, 0.5, NaN, Infinity, -Infinity, 5e-324),
);

/** 64-bit BigInts, edges included. */
export const anyBigInt = fc.oneof(
  fc.bigInt({ min: -(2n ** 63n), max: 2n ** 64n - 1n }),
  fc.constantFrom(0n, -1n, 1n, 2n ** 63n - 1n, -(2n ** 63n), 2n ** 64n - 1n, 2n ** 32n, 127n, -33n),
);

/**
 * Strings of every length class (fixstr, str 8/16/32 boundaries, the 50-unit
 * switch to TextEncoder) and content. `lone`: lone surrogates too (which
 * @msgpack/msgpack writes as WTF-8 below 51 units and as U+FFFD above).
 */
export function anyString({ lone = false } = {}) {
  const unit = lone ? 'binary' : 'grapheme';
  return fc.oneof(
    fc.string({ maxLength: 40 }),
    fc.string({ unit, maxLength: 40 }),
    fc.string({ unit, minLength: 10, maxLength: 34 }),
    fc.string({ unit, minLength: 45, maxLength: 120 }),
    fc.string({ unit: 'binary-ascii', minLength: 240, maxLength: 300 }),
    fc.string({ unit, minLength: 80, maxLength: 260 }),
    fc.constantFrom('', 'x'.repeat(31), 'x'.repeat(32), 'é'.repeat(16), '€'.repeat(11), 'x'.repeat(255), 'x'.repeat(256),
      '😀'.repeat(13), 'x'.repeat(65535), 'x'.repeat(65536), 'é'.repeat(21846), '\ufeffbom'),
  );
}

/** Dates, each timestamp form and the invalid Date. */
export const anyDate = fc.oneof(
  fc.date({ noInvalidDate: true }),
  fc.integer({ min: -1e13, max: 2e13 }).map((t) => new Date(t)),
  fc.constantFrom(new Date(0), new Date(-1), new Date(-1000), new Date(-1002), new Date(1556636810000),
    new Date(1556636810389), new Date(Date.UTC(2200, 0)), new Date(0x400000000 * 1000), new Date(0x400000000 * 1000 + 2),
    new Date(8.64e15), new Date(-8.64e15), new Date(NaN)),
);

/**
 * A msgpack-able value without typed arrays (other than Uint8Array bins):
 * nested arrays and maps of everything. `bigints` adds BigInts (for useBigInt64).
 */
export function anyValue({ bigints = false, lone = false, maxDepth = 4 } = {}) {
  const scalars = [
    fc.constant(null), fc.constant(undefined), fc.boolean(), anyNumber, anyString({ lone }), anyDate,
    fc.uint8Array({ maxLength: 300 }),
  ];
  if (bigints) scalars.push(anyBigInt);
  const { value } = fc.letrec((tie) => ({
    value: fc.oneof({ depthSize: 'small', maxDepth }, ...scalars, tie('array'), tie('map')),
    array: fc.array(tie('value'), { maxLength: 20 }),
    // (Not the key __proto__, which fast-check makes now and then: decoding refuses it, on purpose.)
    map: fc.dictionary(fc.oneof(fc.string({ maxLength: 8 }), anyString({ lone })).filter((k) => k !== '__proto__'), tie('value'), { maxKeys: 20 }),
  }));
  return value;
}

// ---- an independent writer of typed arrays as standard msgpack arrays ----------

function pushHeader(out, n) {
  if (n <= 15) out.push(0x90 | n);
  else if (n <= 0xffff) out.push(0xdc, n >> 8, n & 0xff);
  else out.push(0xdd, n >>> 24, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff);
}

/** Big-endian bytes of the low `width` bytes of v (two's complement). */
function pushBigEndian(out, v, width) {
  const u = BigInt.asUintN(8 * width, v);
  for (let k = width - 1; k >= 0; k--) out.push(Number((u >> BigInt(8 * k)) & 0xffn));
}

/** An integer (BigInt) in its smallest msgpack form, by the spec's table. */
function pushInt(out, v) {
  if (v >= 0n) {
    if (v < 128n) out.push(Number(v));
    else if (v <= 0xffn) out.push(0xcc, Number(v));
    else if (v <= 0xffffn) { out.push(0xcd); pushBigEndian(out, v, 2); }
    else if (v <= 0xffffffffn) { out.push(0xce); pushBigEndian(out, v, 4); }
    else { out.push(0xcf); pushBigEndian(out, v, 8); }
  } else if (v >= -32n) out.push(Number(256n + v));
  else if (v >= -128n) { out.push(0xd0); pushBigEndian(out, v, 1); }
  else if (v >= -32768n) { out.push(0xd1); pushBigEndian(out, v, 2); }
  else if (v >= -(2n ** 31n)) { out.push(0xd2); pushBigEndian(out, v, 4); }
  else { out.push(0xd3); pushBigEndian(out, v, 8); }
}

/**
 * What a typed array must become in 'array' mode, written here from the spec
 * and the project's rules (floats keep their width and bits, read from the
 * array's own bytes; integers in their smallest form): an oracle that shares
 * no code with fastmp. `bools`: a Uint8Array read as booleans.
 */
export function referenceArray(x, { bools = false } = {}) {
  const out = [];
  pushHeader(out, x.length);
  const view = new DataView(x.buffer, x.byteOffset, x.byteLength);
  const name = Object.prototype.toString.call(x).slice(8, -1);
  for (let i = 0; i < x.length; i++) {
    if (bools) out.push(x[i] ? 0xc3 : 0xc2);
    else if (name === 'Float32Array') { out.push(0xca); pushBigEndian(out, BigInt(view.getUint32(4 * i, true)), 4); }
    else if (name === 'Float64Array') { out.push(0xcb); pushBigEndian(out, view.getBigUint64(8 * i, true), 8); }
    else pushInt(out, BigInt(x[i]));
  }
  return Uint8Array.from(out);
}

/** One of: flip a byte, replace it by a tag, insert, delete, cut, duplicate a run. */
export function mutate(bytes, r) {
  const out = Array.from(bytes);
  for (let m = 1 + r.int(3); m > 0; m--) {
    const at = r.int(out.length + 1);
    switch (r.int(6)) {
      case 0: out[at] = (out[at] ?? 0) ^ (1 << r.int(8)); break;
      case 1: out[at] = 0xc0 + r.int(64); break;
      case 2: out.splice(at, 0, r() & 0xff); break;
      case 3: out.splice(at, 1); break;
      case 4: out.length = at; break;
      default: out.splice(at, 0, ...out.slice(at, at + r.int(6)));
    }
  }
  return Uint8Array.from(out.map((b) => b & 0xff));
}
