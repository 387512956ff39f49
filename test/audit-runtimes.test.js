// audit-runtimes.test.js - an audit of what test/engines does not cover, on
// the engines users run (Node 22 / 24, Bun, Chromium, Firefox ESR; Node 20 the
// reference), through test/engines/launch.js's getters, runDriver(), serve(),
// launch() and runPage():
//
// - finding: a web ReadableStream of an engine whose streams are not async
//   iterable (Safari, Chrome < 124: js/codec/stream.js readerIterable()) was
//   not cancelled when a stream decoder stopped early or failed, where the
//   engines with iterable streams cancel it ("Leaving early closes the
//   source", docs/messages.md); a fetch body went on downloading. Simulated
//   here on Node 20 with a stream that has only getReader().
// - coverage: one probe (the message codec: timestamps, numbers, strings,
//   maps, extensions, every typed array in every typedArrays mode and shape,
//   errors with code / index / offset / path / streamOffset; decodeAsync,
//   decodeMultiStream and decodeArrayStream over async generators, web
//   streams, Blob and Response bodies; the five ASN.1 kinds with a bad char at
//   SIMD block edges; pack / unpack of every kind into every target;
//   BigInt64 edges; Float16Array where the engine has it; detached,
//   resizable and shared inputs; memory growth under 3000 alloc() calls),
//   run on each engine's default instance and on forced scalar, pure-JS and
//   wasm-only instances, in a server runtime through the Node entry and
//   js/inline.js, in each browser on a page and in a module Worker, through
//   js/index.js and js/inline.js; every result equal to Node 20's byte for
//   byte (the Float16Array results to Node 24's). The codec's plain values
//   (dates, numbers, ExtData, extensions) also equal @msgpack/msgpack's.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as msgpack from '@msgpack/msgpack';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ENGINES, launch, runPage, runProbe, serve } from './engines/launch.js';
import { decodeArrayStream, decodeAsync, decodeMultiStream, encode } from '../js/index.js';

// ---- the finding: streams of engines without iterable ReadableStreams --------------------

/** A web ReadableStream of `chunks` (then open, or closed), as an engine without async-iterable streams has it: getReader() only. */
function readerOnlyStream(chunks, log, { close = true } = {}) {
  const stream = new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      if (close) controller.close();
    },
    cancel() {
      log.push('cancel');
    },
  });
  Object.defineProperty(stream, Symbol.asyncIterator, { value: undefined }); // Safari's ReadableStream
  return stream;
}

describe('a ReadableStream that is not async iterable (Safari) is cancelled as an iterable one is', () => {
  const array = encode([1, 2, 3, 4, 5, 6]);
  const oneByteChunks = Array.from(array, (b) => Uint8Array.of(b));

  test('the engines here: leaving decodeArrayStream() early cancels a native stream (the behaviour to match)', async () => {
    const log = [];
    const stream = new ReadableStream({ start(c) { for (const chunk of oneByteChunks) c.enqueue(chunk); c.close(); }, cancel() { log.push('cancel'); } });
    for await (const v of decodeArrayStream(stream)) if (v === 2) break;
    expect(log).toEqual(['cancel']);
  });

  test('decodeArrayStream() left early: the stream is cancelled', async () => {
    const log = [];
    const stream = readerOnlyStream(oneByteChunks, log);
    for await (const v of decodeArrayStream(stream)) if (v === 2) break;
    expect(stream.locked).toBe(false);
    expect(log).toEqual(['cancel']);
  });

  test('decodeMultiStream() left early: the stream is cancelled', async () => {
    const log = [];
    const stream = readerOnlyStream([encode(1), encode(2), encode(3)], log, { close: false });
    for await (const v of decodeMultiStream(stream)) if (v === 1) break;
    expect(log).toEqual(['cancel']);
  });

  test('decodeAsync() of a bad byte (0xc1) on a stream still open: TAG, and the stream is cancelled', async () => {
    const log = [];
    const stream = readerOnlyStream([Uint8Array.of(0xc1)], log, { close: false });
    await expect(decodeAsync(stream)).rejects.toMatchObject({ code: 'TAG', streamOffset: 0 });
    expect(log).toEqual(['cancel']);
  });

  test('a stream read to its end is not cancelled', async () => {
    const log = [];
    expect(await decodeAsync(readerOnlyStream([array.subarray(0, 3), array.subarray(3)], log))).toEqual([1, 2, 3, 4, 5, 6]);
    expect(log).toEqual([]);
  });
});

// ---- the probe, run in every engine -------------------------------------------------------
// Plain functions (no imports, no closures): their source is what every engine runs.

const hex = (b) => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
const raw = (t) => new Uint8Array(t.buffer.slice(t.byteOffset, t.byteOffset + t.byteLength));
const u8 = (...b) => Uint8Array.from(b);

function err(e) {
  if (e?.name === 'FastmpError' || e?.code !== undefined && e?.name !== 'TypeError' && e?.name !== 'RangeError') {
    return ['E', e.name, e.code, e.index, e.offset, e.path, e.needed, e.streamOffset, e instanceof RangeError];
  }
  if (e?.code !== undefined) return ['E', e.name, e.code, e.index, e.offset, e.path, e.needed, e.streamOffset, e instanceof RangeError];
  return ['X', e?.name ?? String(e)];
}
function show(v, depth = 0) {
  if (depth > 20) return '…';
  if (v === null) return 'null';
  if (v === undefined) return 'undef';
  if (typeof v === 'number') return Object.is(v, -0) ? '-0' : String(v);
  if (typeof v === 'bigint') return `${v}n`;
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'boolean') return String(v);
  if (v instanceof Date) return `Date(${v.getTime()})`;
  if (ArrayBuffer.isView(v)) return `${v.constructor.name}[${v.length ?? v.byteLength}]:${hex(raw(v))}`;
  if (v instanceof Map) return `Map{${[...v].map(([k, x]) => `${show(k)}=>${show(x, depth + 1)}`).join(',')}}`;
  if (Array.isArray(v)) return `[${v.map((x) => show(x, depth + 1)).join(',')}]`;
  if (typeof v === 'object') {
    const name = v.constructor?.name ?? 'null-proto';
    return `${name}{${Object.keys(v).map((k) => `${k}:${show(v[k], depth + 1)}`).join(',')}}`;
  }
  return typeof v;
}
function tryShow(fn) {
  try {
    const r = fn();
    return r instanceof Uint8Array && r.constructor === Uint8Array ? hex(r) : show(r);
  } catch (e) {
    return JSON.stringify(err(e));
  }
}
async function tryShowAsync(fn) {
  try {
    return show(await fn());
  } catch (e) {
    return JSON.stringify(err(e));
  }
}

function rng(seed) {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13; s >>>= 0; s ^= s >>> 17; s ^= s << 5; s >>>= 0;
    return s;
  };
}

async function probe(fm, { withStreams = true } = {}) {
  const out = {};
  const put = (k, v) => { out[k] = v; };
  const has16 = typeof globalThis.Float16Array === 'function';

  // ---- codec values -----------------------------------------------------------
  const dates = [0, -1, 1, 999, -999, 1000, 2 ** 32 * 1000 - 1, 2 ** 32 * 1000, 2 ** 34 * 1000 - 1, 2 ** 34 * 1000,
    -62135596800000, 8.64e15, -8.64e15, 1.7e12 + 123, -1e12 - 7];
  for (const t of dates) put(`date ${t}`, tryShow(() => fm.encode(new Date(t))));
  put('date NaN', tryShow(() => fm.encode(new Date(NaN))));
  for (const t of dates) put(`date back ${t}`, tryShow(() => fm.decode(fm.encode(new Date(t)))));
  // raw timestamps
  const ts = [
    [0xd6, 0xff, 0, 0, 0, 1], [0xd6, 0xff, 0xff, 0xff, 0xff, 0xff],
    [0xd7, 0xff, 0, 0, 0, 4, 0, 0, 0, 1], [0xd7, 0xff, 0xee, 0x6b, 0x27, 0xfc, 0, 0, 0, 1], [0xd7, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff],
    [0xc7, 12, 0xff, 0, 0, 0, 1, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff], [0xc7, 12, 0xff, 0x3b, 0x9a, 0xc9, 0xff, 0, 0, 0, 0, 0, 0, 0, 0],
    [0xc7, 12, 0xff, 0x3b, 0x9a, 0xca, 0x00, 0, 0, 0, 0, 0, 0, 0, 0], [0xc7, 12, 0xff, 0, 0, 0, 0, 0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff],
    [0xc7, 12, 0xff, 0, 0, 0, 0, 0x80, 0, 0, 0, 0, 0, 0, 0], [0xc7, 12, 0xff, 0, 0, 0, 0, 0x00, 0x00, 0x31, 0xf4, 0x33, 0xe2, 0x80, 0x00],
    [0xd5, 0xff, 0, 1], [0xc7, 3, 0xff, 0, 0, 1],
  ];
  for (const t of ts) {
    put(`ts ${hex(t)}`, tryShow(() => fm.decode(Uint8Array.from(t))));
    put(`ts spec ${hex(t)}`, tryShow(() => fm.decodeTimestampToTimeSpec?.(Uint8Array.from(t.slice(t[0] === 0xc7 ? 3 : 2)))));
  }
  // numbers
  const nums = [0, -0, 1, -1, 127, 128, 255, 256, -32, -33, -128, -129, 65535, 65536, -32768, -32769, 2 ** 31, -(2 ** 31), 2 ** 32, 2 ** 53, -(2 ** 53),
    2 ** 63, -(2 ** 63), 2 ** 64, 1.5, 0.1, NaN, Infinity, -Infinity, 5e-324, 1e-310, 3.4028234663852886e38, 1e39, Number.MAX_VALUE];
  for (const n of nums) {
    put(`num ${show(n)}`, tryShow(() => fm.encode(n)));
    put(`num f32 ${show(n)}`, tryShow(() => fm.encode(n, { forceFloat32: true })));
    put(`num i2f ${show(n)}`, tryShow(() => fm.encode(n, { forceIntegerToFloat: true })));
  }
  const bigs = [0n, 1n, -1n, 127n, -33n, 2n ** 32n, 2n ** 63n - 1n, 2n ** 63n, -(2n ** 63n), 2n ** 64n - 1n, 2n ** 64n, -(2n ** 63n) - 1n];
  for (const b of bigs) {
    put(`big ${b}`, tryShow(() => fm.encode(b, { useBigInt64: true })));
    put(`big back ${b}`, tryShow(() => fm.decode(fm.encode(b, { useBigInt64: true }), { useBigInt64: true })));
    put(`big noopt ${b}`, tryShow(() => fm.encode(b)));
  }
  put('uint64 max plain', tryShow(() => fm.decode(u8(0xcf, 255, 255, 255, 255, 255, 255, 255, 255))));
  put('int64 min plain', tryShow(() => fm.decode(u8(0xd3, 0x80, 0, 0, 0, 0, 0, 0, 0))));
  put('int64 min big', tryShow(() => fm.decode(u8(0xd3, 0x80, 0, 0, 0, 0, 0, 0, 0), { useBigInt64: true })));
  put('f32 nan payload', tryShow(() => fm.decode(u8(0xca, 0x7f, 0xa5, 0xa5, 0xa5))));
  put('f64 -0', tryShow(() => fm.decode(u8(0xcb, 0x80, 0, 0, 0, 0, 0, 0, 0))));
  // strings
  const strs = ['', 'a', 'x'.repeat(31), 'x'.repeat(32), 'x'.repeat(255), 'x'.repeat(256), 'é'.repeat(16), '\uD800', 'a\uDC00b', '😀',
    '\uD83D', '\u0000', '\uFEFF', 'é'.repeat(40000), 'x'.repeat(65535), 'x'.repeat(65536), 'ab\uD83D\uDE00'.repeat(300) + '\uD83D'];
  for (const s of strs) {
    put(`str ${s.length} ${hex(new TextEncoder().encode(s.slice(0, 4)))}`, (() => { const r = tryShow(() => fm.encode(s)); return r.length > 400 ? `${r.length}:${r.slice(0, 60)}…${r.slice(-60)}` : r; })());
    put(`str back ${s.length} ${hex(new TextEncoder().encode(s.slice(0, 4)))}`, tryShow(() => fm.decode(fm.encode(s)) === s));
  }
  put('bad utf8', tryShow(() => fm.decode(u8(0xa3, 0x61, 0xc3, 0x28))));
  put('bad utf8 overlong', tryShow(() => fm.decode(u8(0xa2, 0xc0, 0x80))));
  put('bad utf8 surrogate', tryShow(() => fm.decode(u8(0xa3, 0xed, 0xa0, 0x80))));
  put('bad utf8 long', tryShow(() => fm.decode(Uint8Array.from([0xd9, 200, ...Array(150).fill(0x61), 0xf4, 0x90, 0x80, 0x80, ...Array(46).fill(0x62)]))));
  put('rawStrings', tryShow(() => fm.decode(u8(0xa3, 0x61, 0xc3, 0x28), { rawStrings: true })));
  // maps, sets, keys
  put('map', tryShow(() => fm.encode(new Map([[1, 'a'], ['b', 2], [-1, null]]))));
  put('set', tryShow(() => fm.encode(new Set([1, 'a', null]))));
  put('sortKeys', tryShow(() => fm.encode({ b: 1, a: 2, é: 3, Z: 4, '😀': 5, '\uFF5E': 6, 10: 7, 2: 8 }, { sortKeys: true })));
  put('keys order', tryShow(() => fm.encode({ b: 1, 10: 2, a: 3, 2: 4 })));
  put('undefined', tryShow(() => fm.encode({ a: undefined, b: [undefined] })));
  put('ignoreUndefined', tryShow(() => fm.encode({ a: undefined, b: 1 }, { ignoreUndefined: true })));
  put('numkey', tryShow(() => fm.decode(u8(0x82, 0x01, 0xa1, 0x61, 0xff, 0xa1, 0x62))));
  put('proto key', tryShow(() => fm.decode(u8(0x81, 0xa9, ...new TextEncoder().encode('__proto__'), 1))));
  put('dup key', tryShow(() => fm.decode(u8(0x82, 0xa1, 0x61, 1, 0xa1, 0x61, 2))));
  put('mapKeyConverter', tryShow(() => fm.decode(u8(0x81, 0xc3, 1), { mapKeyConverter: (k) => String(k) })));
  // typed arrays in messages
  const TYPES = ['Int8Array', 'Uint8Array', 'Uint8ClampedArray', 'Int16Array', 'Uint16Array', 'Int32Array', 'Uint32Array', 'Float32Array', 'Float64Array', 'BigInt64Array', 'BigUint64Array'];
  if (has16) TYPES.push('Float16Array');
  for (const name of TYPES) {
    const T = globalThis[name];
    const r = rng(name.length * 7 + 3);
    const words = new Uint32Array(Math.ceil((40 * T.BYTES_PER_ELEMENT) / 4));
    for (let i = 0; i < words.length; i++) words[i] = r();
    const full = new T(words.buffer, 0, 40);
    const x = name.startsWith('Float') ? full.map((v, i) => (Number.isNaN(v) ? i : v)) : full;
    const sub = x.subarray(3, 40);
    for (const mode of ['array', 'ext', 'bin']) {
      const key = `${name}${has16 && name === 'Float16Array' ? '#f16' : ''}`;
      const bytes = (() => { try { return fm.encode({ v: sub }, { typedArrays: mode }); } catch (e) { return e; } })();
      put(`${key} ${mode}`, bytes instanceof Uint8Array ? hex(bytes) : JSON.stringify(err(bytes)));
      if (!(bytes instanceof Uint8Array)) continue;
      put(`${key} ${mode} plain`, tryShow(() => fm.decode(bytes)));
      put(`${key} ${mode} shaped`, tryShow(() => fm.decode(bytes, { shape: { v: T } })));
      put(`${key} ${mode} as F64`, tryShow(() => fm.decode(bytes, { shape: { v: Float64Array } })));
      put(`${key} ${mode} as I16`, tryShow(() => fm.decode(bytes, { shape: { v: Int16Array } })));
      put(`${key} ${mode} as BI64`, tryShow(() => fm.decode(bytes, { shape: { v: BigInt64Array } })));
      put(`${key} ${mode} as BU64 integral`, tryShow(() => fm.decode(bytes, { shape: { v: BigUint64Array }, integralFloats: true })));
      if (has16) put(`${key} ${mode} as F16#f16`, tryShow(() => fm.decode(bytes, { shape: { v: globalThis.Float16Array } })));
    }
  }
  put('DataView', tryShow(() => fm.encode(new DataView(new ArrayBuffer(5), 1, 3))));
  put('ArrayBuffer', tryShow(() => fm.encode(new ArrayBuffer(3))));
  // bin at odd offset into a shaped Float64Array
  put('odd bin', tryShow(() => {
    const b = fm.encode({ v: new Float64Array([1.5, -2, 3e300]) }, { typedArrays: 'bin' });
    const shifted = new Uint8Array(b.length + 1);
    shifted.set(b, 1);
    return fm.decode(shifted.subarray(1), { shape: { v: Float64Array } });
  }));
  put('bin partial element', tryShow(() => fm.decode(u8(0x81, 0xa1, 0x76, 0xc4, 3, 1, 2, 3), { shape: { v: Int16Array } })));
  // shapes
  const msgs = fm.encode({ frames: [{ t: 1, a: [1, 2.5], ok: [true, false] }, { t: 2, a: [3], ok: [], gps: null }], m: { x: [1], y: [2, 3] } });
  put('shape nested', tryShow(() => fm.decode(msgs, { shape: { frames: [{ a: Float32Array, ok: Boolean, gps: fm.optional(Float64Array) }], m: fm.mapOf(Int8Array) } })));
  put('shape missing', tryShow(() => fm.decode(msgs, { shape: { frames: [{ a: Float32Array, z: Int8Array }] } })));
  put('shape bad elem', tryShow(() => fm.decode(msgs, { shape: { frames: [{ a: Int8Array }] } })));
  put('shape bool bad', tryShow(() => fm.decode(fm.encode({ ok: [true, 1] }), { shape: { ok: Boolean } })));
  put('asBools', tryShow(() => fm.encode({ ok: fm.asBools(u8(1, 0, 7)) })));
  {
    const d = new fm.Decoder({ shape: { v: Float32Array }, reuseTypedArrays: true });
    const a = d.decode(fm.encode({ v: new Float32Array([1, 2, 3]) })).v;
    const b = d.decode(fm.encode({ v: new Float32Array([4, 5, 6]) })).v;
    put('reuse', `${a === b} ${show(a)} ${show(b)}`);
  }
  // extensions
  {
    class P { constructor(x, y) { this.x = x; this.y = y; } }
    const codec = new fm.ExtensionCodec();
    codec.register({
      type: 5,
      encode: (v) => (v instanceof P ? fm.encode([v.x, v.y]) : null),
      decode: (d) => { const [x, y] = fm.decode(d); return new P(x, y); },
    });
    codec.register({
      type: -5,
      encode: (v) => (typeof v === 'symbol' ? new TextEncoder().encode(v.description) : null),
      decode: (d) => Symbol.for(new TextDecoder().decode(d)),
    });
    const value = { p: new P(1, 'two'), q: [new P(3.5, null)], s: Symbol.for('zz') };
    const bytes = fm.encode(value, { extensionCodec: codec });
    put('ext codec', hex(bytes));
    put('ext codec back', tryShow(() => { const v = fm.decode(bytes, { extensionCodec: codec }); return [v.p instanceof P, v.p.x, v.p.y, v.q[0].x, String(v.s)]; }));
    put('ext codec plain', tryShow(() => fm.decode(bytes)));
    for (const n of [0, 1, 2, 3, 4, 8, 16, 17, 255, 256, 65536]) {
      put(`extdata ${n}`, (() => { const r = tryShow(() => fm.encode(new fm.ExtData(9, new Uint8Array(n).fill(n & 255)))); return r.length > 200 ? `${r.length}:${r.slice(0, 40)}` : r; })());
    }
    put('extdata back', tryShow(() => { const e = fm.decode(u8(0xd5, 0x09, 1, 2)); return [e instanceof fm.ExtData, e.type, hex(e.data)]; }));
    put('extdata neg', tryShow(() => { const e = fm.decode(u8(0xd4, 0x80, 1)); return [e.type, hex(e.data)]; }));
    put('ext ctx', tryShow(() => {
      const c = new fm.ExtensionCodec();
      c.register({ type: 1, encode: (v, ctx) => (v === 'X' ? u8(ctx.n) : null), decode: (d, t, ctx) => d[0] + ctx.n });
      const b = fm.encode(['X', 'Y'], { extensionCodec: c, context: { n: 7 } });
      return [hex(b), fm.decode(b, { extensionCodec: c, context: { n: 100 } })];
    }));
    put('ext throws', tryShow(() => {
      const c = new fm.ExtensionCodec();
      c.register({ type: 1, encode: () => null, decode: () => { throw new fm.DecodeError('nope'); } });
      return fm.decode(u8(0x92, 1, 0xd4, 1, 0), { extensionCodec: c });
    }));
  }
  // errors
  const bad = {
    tag: u8(0xc1), trunc: u8(0x92, 1), trailing: u8(1, 2), deep: Uint8Array.from(Array(101).fill(0x91).concat([1])),
    keyArr: u8(0x81, 0x90, 1), strLen: u8(0xdb, 0xff, 0xff, 0xff, 0xff), json: new TextEncoder().encode('{"a":1}'),
    html: new TextEncoder().encode('<html>'), empty: u8(), extTrunc: u8(0xc7, 5, 1, 0), ts5: u8(0xc7, 5, 0xff, 0, 0, 0, 0, 0),
    nested: fm.encode({ a: [1, { b: [2, 3, { c: 'x' }] }] }).subarray(0, 14), rec: u8(0xd4, 0x72, 0),
    typedExt: u8(0xc7, 3, 0x74, 0x55, 0, 0),
  };
  for (const [k, b] of Object.entries(bad)) put(`err ${k}`, tryShow(() => fm.decode(b)));
  put('err maxStr', tryShow(() => fm.decode(fm.encode({ a: 'hello' }), { maxStrLength: 3 })));
  put('err maxArr', tryShow(() => fm.decode(fm.encode({ a: [1, 2, 3] }), { maxArrayLength: 2 })));
  put('err depth enc', tryShow(() => { const a = []; a.push(a); return fm.encode(a); }));
  put('err fn', tryShow(() => fm.encode({ f: () => 1 })));
  put('err sym', tryShow(() => fm.encode({ f: Symbol('x') })));
  put('err big', tryShow(() => fm.encode({ b: [1n] })));
  put('decodeFrom', tryShow(() => fm.decodeFrom(u8(0x92, 1, 2, 3, 4))));
  put('decodeMulti', tryShow(() => [...fm.decodeMulti(u8(1, 0xa1, 0x61, 0xc0))]));
  put('decodeMulti err', tryShow(() => [...fm.decodeMulti(u8(1, 0xa1, 0x61, 0x92, 1))]));
  put('encodeInto small', tryShow(() => fm.encodeInto({ a: 'hello' }, new Uint8Array(3))));
  put('encodeInto small needed', (() => { try { fm.encodeInto({ a: 'hello' }, new Uint8Array(3)); return 'none'; } catch (e) { return `${e.name} ${e.needed}`; } })());

  // ---- streams -----------------------------------------------------------------
  if (withStreams) {
    const value = { id: 1, v: new Float32Array([1.5, 2, -3]), s: 'é'.repeat(100), d: new Date(1.7e12), b: u8(1, 2, 3) };
    const one = fm.encode(value);
    const many = (() => { const parts = [one, fm.encode(2), fm.encode('three'), fm.encode([4])]; const o = new Uint8Array(parts.reduce((n, p) => n + p.length, 0)); let at = 0; for (const p of parts) { o.set(p, at); at += p.length; } return o; })();
    const arr = fm.encode([1, 'a', value, null, [2]]);
    async function* gen(b, size) { for (let i = 0; i < b.length; i += size) yield b.slice(i, i + size); }
    const rs = (b, size) => new ReadableStream({ pull(c) { if (!this.i) this.i = 0; if (this.i >= b.length) { c.close(); return; } c.enqueue(b.slice(this.i, this.i + size)); this.i += size; } });
    const collect = async (it) => { const r = []; for await (const x of it) r.push(x); return r; };
    for (const size of [1, 3, 17, 1000]) {
      for (const [src, mk] of [['gen', gen], ['rs', rs]]) {
        put(`async ${src} ${size}`, await tryShowAsync(() => fm.decodeAsync(mk(one, size), { shape: { v: Float32Array } })));
        put(`multi ${src} ${size}`, await tryShowAsync(() => collect(fm.decodeMultiStream(mk(many, size)))));
        put(`array ${src} ${size}`, await tryShowAsync(() => collect(fm.decodeArrayStream(mk(arr, size)))));
        put(`async trunc ${src} ${size}`, await tryShowAsync(() => fm.decodeAsync(mk(one.subarray(0, one.length - 2), size))));
        put(`async trailing ${src} ${size}`, await tryShowAsync(() => fm.decodeAsync(mk(many, size))));
        put(`multi bad ${src} ${size}`, await tryShowAsync(() => collect(fm.decodeMultiStream(mk(Uint8Array.from([...many, 0xc1]), size)))));
        put(`array notarray ${src} ${size}`, await tryShowAsync(() => collect(fm.decodeArrayStream(mk(one, size)))));
        put(`array bad ${src} ${size}`, await tryShowAsync(() => collect(fm.decodeArrayStream(mk(Uint8Array.from([0x93, 1, 0xa2, 0xc3, 0x28, 2]), size)))));
      }
    }
    put('async arraybuffer chunks', await tryShowAsync(() => fm.decodeAsync((async function* () { yield one.slice(0, 5).buffer; yield one.slice(5).buffer; })())));
    put('async array-of-number chunks', await tryShowAsync(() => fm.decodeAsync((async function* () { yield [0x92, 1]; yield [2]; })())));
    put('async string chunk', await tryShowAsync(() => fm.decodeAsync((async function* () { yield 'ab'; })())));
    put('async sync iterable', await tryShowAsync(() => fm.decodeAsync([u8(0x92, 1), u8(2)])));
    put('async empty', await tryShowAsync(() => fm.decodeAsync(gen(u8(), 1))));
    put('async DataView chunk', await tryShowAsync(() => fm.decodeAsync((async function* () { yield new DataView(u8(0x92, 1, 2).buffer); })())));
    put('async Float32 chunk', await tryShowAsync(() => fm.decodeAsync((async function* () { yield new Uint16Array([0x0192, 0x0002]); })())));
    put('async decoder shaped', await tryShowAsync(() => new fm.Decoder({ shape: { v: Float32Array } }).decodeAsync(gen(one, 5))));
    put('async maxlen', await tryShowAsync(() => fm.decodeAsync(gen(one, 4), { maxStrLength: 10 })));
    put('blob stream', await tryShowAsync(() => fm.decodeAsync(new Blob([one]).stream())));
    put('response body', await tryShowAsync(() => fm.decodeAsync(new Response(one).body)));
    put('response body array', await tryShowAsync(() => collect(fm.decodeArrayStream(new Response(arr).body))));
  }

  // ---- ASN.1 strings -------------------------------------------------------------
  const kinds = [
    ['BMP', 'a', '\uDC00', 0x1e], ['IA5', 'a', 'é', 0x16], ['Visible', 'x', '\u007f', 0x1a], ['Printable', 'A', '@', 0x13], ['Numeric', '7', 'A', 0x12],
  ];
  const positions = [0, 1, 7, 8, 15, 16, 31, 32, 33, 63, 64, 65, 127, 128, 200, 255, 256, 1000, 1023, 1024, 3000];
  for (const [k, good, badc, tag] of kinds) {
    for (const n of [0, 1, 15, 16, 64, 100, 257, 1025, 5000]) {
      const s = good.repeat(n);
      put(`${k} enc ${n}`, (() => { const r = tryShow(() => fm[`encode${k}`](s)); return r.length > 200 ? `${r.length}:${r.slice(0, 40)}` : r; })());
      put(`${k} rt ${n}`, tryShow(() => fm[`decode${k}`](fm[`encode${k}`](s)) === s && fm[`read${k}String`](fm[`write${k}String`](s)).value === s));
      put(`${k} der ${n}`, tryShow(() => hex(fm[`write${k}String`](s).subarray(0, 6))));
    }
    for (const at of positions) {
      for (const len of [at + 1, at + 40, 4096]) {
        if (len <= at) continue;
        const s = good.repeat(at) + badc + good.repeat(len - at - 1);
        put(`${k} enc bad ${at}/${len}`, tryShow(() => fm[`encode${k}`](s)));
        put(`${k} write bad ${at}/${len}`, tryShow(() => fm[`write${k}String`](s)));
        const units = Uint16Array.from(s, (c) => c.charCodeAt(0));
        put(`${k} enc units bad ${at}/${len}`, tryShow(() => fm[`encode${k}`](units)));
        // decode side: bytes
        const content = k === 'BMP' ? Uint8Array.from([...s].flatMap((c) => [c.charCodeAt(0) >> 8, c.charCodeAt(0) & 255])) : Uint8Array.from(s, (c) => c.charCodeAt(0) & 255);
        put(`${k} dec bad ${at}/${len}`, tryShow(() => fm[`decode${k}`](content)));
        put(`${k} dec16 bad ${at}/${len}`, tryShow(() => fm[`decode${k}ToUint16`](content)));
      }
    }
    // high bytes for one-byte kinds
    if (k !== 'BMP') {
      for (const b of [0x80, 0xff, 0xc3, 0xa0]) put(`${k} dec byte ${b}`, tryShow(() => fm[`decode${k}`](Uint8Array.from([...Array(70).fill(good.charCodeAt(0)), b]))));
      put(`${k} enc latin1`, tryShow(() => fm[`encode${k}`](good.repeat(70) + '\u00ff')));
      put(`${k} enc astral`, tryShow(() => fm[`encode${k}`](good.repeat(300) + '😀')));
      put(`${k} enc lone`, tryShow(() => fm[`encode${k}`](good.repeat(300) + '\uD800' + good)));
    } else {
      put('BMP odd 1001', tryShow(() => fm.decodeBMP(new Uint8Array(1001))));
      put('BMP latin', tryShow(() => fm.decodeBMP(fm.encodeBMP('\u00ff\u0080\u00a0é'.repeat(100)))));
      put('BMP ctl', tryShow(() => fm.decodeBMP(fm.encodeBMP('\u0080\u009f'.repeat(100)))));
      put('BMP feff', tryShow(() => fm.decodeBMP(fm.encodeBMP('\uFEFF' + 'a'.repeat(300)))));
      put('BMP fffe', tryShow(() => fm.decodeBMP(fm.encodeBMP('\uFFFE' + 'a'.repeat(300)))));
    }
    put(`${k} read len4`, tryShow(() => fm[`read${k}String`](u8(tag, 0x84, 0, 0, 0, 1, 0x41))));
    put(`${k} read lenff`, tryShow(() => fm[`read${k}String`](u8(tag, 0xff, 0x41))));
    put(`${k} read len85`, tryShow(() => fm[`read${k}String`](u8(tag, 0x85, 0, 0, 0, 0, 1, 0x41))));
    put(`${k} read offset`, tryShow(() => fm[`read${k}String`](u8(0, 0, tag, 2, 0x30, 0x31), 2)));
    put(`${k} read empty`, tryShow(() => fm[`read${k}String`](u8())));
    put(`${k} read offset end`, tryShow(() => fm[`read${k}String`](u8(tag, 0), 2)));
  }

  // ---- typed arrays: pack/unpack over every kind with errors ---------------------
  for (const name of TYPES) {
    const T = globalThis[name];
    const key = name === 'Float16Array' ? `${name}#f16` : name;
    for (const n of [0, 15, 16, 17, 100, 1000]) {
      const r = rng(n + name.length);
      const words = new Uint32Array(Math.ceil((n * T.BYTES_PER_ELEMENT) / 4) + 1);
      for (let i = 0; i < words.length; i++) words[i] = r();
      const x = new T(words.buffer, 0, n);
      const p = (() => { try { return fm.pack(x); } catch (e) { return e; } })();
      put(`pack ${key} ${n}`, p instanceof Uint8Array ? (p.length > 300 ? `${p.length}:${hex(p.subarray(0, 40))}:${hex(p.subarray(-40))}` : hex(p)) : JSON.stringify(err(p)));
      if (!(p instanceof Uint8Array)) continue;
      const arrayForm = name === 'Uint8Array' || name === 'Uint8ClampedArray' ? fm.pack(x, { bin: false }) : p;
      for (const Target of ['Int8Array', 'Uint16Array', 'Int32Array', 'Float32Array', 'BigInt64Array', 'BigUint64Array', ...(has16 ? ['Float16Array'] : [])]) {
        const tk = Target === 'Float16Array' || name === 'Float16Array' ? `#f16` : '';
        put(`unpack ${key} ${n} -> ${Target}${tk}`, (() => { const s = tryShow(() => fm.unpack(arrayForm, globalThis[Target])); return s.length > 200 ? `${s.length}:${s.slice(0, 60)}:${s.slice(-60)}` : s; })());
        put(`unpack integral ${key} ${n} -> ${Target}${tk}`, (() => { const s = tryShow(() => fm.unpack(arrayForm, globalThis[Target], { integralFloats: true })); return s.length > 200 ? `${s.length}:${s.slice(0, 60)}:${s.slice(-60)}` : s; })());
      }
    }
  }
  // BigInt64 specifics
  put('unpack u64 max -> BI64', tryShow(() => fm.unpack(u8(0x91, 0xcf, 255, 255, 255, 255, 255, 255, 255, 255), BigInt64Array)));
  put('unpack i64 min -> BU64', tryShow(() => fm.unpack(u8(0x91, 0xd3, 0x80, 0, 0, 0, 0, 0, 0, 0), BigUint64Array)));
  put('unpack f64 2^63 -> BI64', tryShow(() => fm.unpack(u8(0x91, 0xcb, 0x43, 0xe0, 0, 0, 0, 0, 0, 0), BigInt64Array, { integralFloats: true })));
  put('unpack f64 2^64 -> BU64', tryShow(() => fm.unpack(u8(0x91, 0xcb, 0x43, 0xf0, 0, 0, 0, 0, 0, 0), BigUint64Array, { integralFloats: true })));
  put('unpack f64 -2^63 -> BI64', tryShow(() => fm.unpack(u8(0x91, 0xcb, 0xc3, 0xe0, 0, 0, 0, 0, 0, 0), BigInt64Array, { integralFloats: true })));
  put('unpack f32 2^63 -> BI64', tryShow(() => fm.unpack(u8(0x91, 0xca, 0x5f, 0, 0, 0), BigInt64Array, { integralFloats: true })));
  put('unpack f32 2^64-ish -> BU64', tryShow(() => fm.unpack(u8(0x91, 0xca, 0x5f, 0x7f, 0xff, 0xff), BigUint64Array, { integralFloats: true })));
  put('unpack f64 -0 -> BU64', tryShow(() => fm.unpack(u8(0x91, 0xcb, 0x80, 0, 0, 0, 0, 0, 0, 0), BigUint64Array, { integralFloats: true })));
  put('pack BI64 edge', tryShow(() => fm.pack(BigInt64Array.of(-(2n ** 63n), 2n ** 63n - 1n, -33n, -32n, 127n, 128n, -129n, 2n ** 32n))));
  put('pack BU64 edge', tryShow(() => fm.pack(BigUint64Array.of(2n ** 64n - 1n, 2n ** 63n, 0n, 255n, 256n, 2n ** 32n - 1n))));
  put('packBool', tryShow(() => fm.packBool([true, false, 1, 0, 'x', null])));
  put('unpackFrom', tryShow(() => fm.unpackFrom(u8(0xc0, 0x92, 1, 2, 0xc0), Float32Array, 1)));
  put('unpackFrom bad offset', tryShow(() => fm.unpackFrom(u8(0x92, 1, 2), Float32Array, 5)));
  put('packInto', tryShow(() => { const t = new Uint8Array(20); const end = fm.packInto(new Int16Array([1, -1, 300]), t, 2); return [end, hex(t)]; }));
  put('packInto small', tryShow(() => fm.packInto(new Int16Array([1, -1, 300]), new Uint8Array(4))));
  return out;
}

/** Memory growth under many alloc() calls: a separate probe (it grows memory). */
function memoryProbe(fm) {
  const out = {};
  const before = fm.memoryStats().wasmMemory;
  const arrays = [];
  let stale = 0;
  for (let i = 0; i < 3000; i++) {
    const a = fm.alloc(i % 2 ? Float64Array : Int32Array, 1 + (i * 37) % 4000);
    a.fill(i);
    arrays.push(a);
  }
  // check values via refresh
  let bad = 0;
  for (let i = 0; i < arrays.length; i++) {
    const a = arrays[i].length === 0 ? fm.refresh(arrays[i]) : arrays[i];
    if (arrays[i].length === 0) stale++;
    const want = 1 + (i * 37) % 4000;
    if (a.length !== want || a[0] !== i || a[a.length - 1] !== i) bad++;
  }
  const peak = fm.memoryStats().wasmMemory;
  for (const a of arrays) fm.free(a.length === 0 ? fm.refresh(a) : a);
  // again: memory must not grow
  const again = [];
  for (let i = 0; i < 3000; i++) again.push(fm.alloc(i % 2 ? Float64Array : Int32Array, 1 + (i * 37) % 4000));
  const after = fm.memoryStats().wasmMemory;
  for (const a of again) fm.free(a.length === 0 ? fm.refresh(a) : a);
  // a loop of alloc/free of one size: no growth
  for (let i = 0; i < 20000; i++) fm.free(fm.alloc(Float32Array, 1000 + (i % 7)));
  const loop = fm.memoryStats().wasmMemory;
  out.growth = { bad, grewFrom: before, peak, sameAfterReuse: after === peak, sameAfterLoop: loop === peak, someStale: stale > 0 };
  // a huge alloc: refused by a FastmpError / RangeError, instance still usable
  const big = [];
  for (const n of [2 ** 31, 2 ** 29 + 1, 2 ** 32]) {
    try {
      const a = fm.alloc(Float64Array, n);
      big.push(['ok', a.length]);
      fm.free(a);
    } catch (e) {
      big.push([e.name, e.code ?? null]);
    }
  }
  out.huge = big;
  out.after = Array.from(fm.unpack(fm.pack(new Float32Array([1, 2, 3])), Float32Array));
  return out;
}

async function detachProbe(fm) {
  const out = {};
  const e2 = (e) => (e?.code !== undefined ? [e.name, e.code, e.index, e.offset] : [e?.name]);
  const t = (k, fn) => { try { const r = fn(); out[k] = r instanceof Uint8Array ? Array.from(r).join(',') : (typeof r === 'object' && r !== null ? JSON.stringify(r, (_, v) => (typeof v === 'bigint' ? `${v}n` : ArrayBuffer.isView(v) ? Array.from(v, String) : v)) : String(r)); } catch (e) { out[k] = JSON.stringify(e2(e)); } };
  const detach = (buf) => { if (buf.transfer) buf.transfer(); else structuredClone(buf, { transfer: [buf] }); };
  const mk = (T, n) => { const x = new T(n); for (let i = 0; i < n; i++) x[i] = T === BigInt64Array ? BigInt(i) : i % 100; return x; };
  for (const n of [3, 1000]) {
    const f = mk(Float32Array, n); detach(f.buffer);
    t(`pack detached ${n}`, () => fm.pack(f));
    t(`packView detached ${n}`, () => fm.packView(f));
    t(`encode detached ${n}`, () => fm.encode({ f }));
    t(`encode detached bin ${n}`, () => fm.encode({ f }, { typedArrays: 'bin' }));
    const b = fm.pack(mk(Float32Array, n)); detach(b.buffer);
    t(`unpack detached ${n}`, () => fm.unpack(b, Float32Array));
    t(`decode detached ${n}`, () => fm.decode(b));
    const s = fm.encodeBMP('x'.repeat(n)); detach(s.buffer);
    t(`decodeBMP detached ${n}`, () => fm.decodeBMP(s));
    const u = Uint16Array.from({ length: n }, () => 65); detach(u.buffer);
    t(`encodeBMP units detached ${n}`, () => fm.encodeBMP(u));
    t(`encodeIA5 units detached ${n}`, () => fm.encodeIA5(u));
    const dv = new DataView(new ArrayBuffer(8)); detach(dv.buffer);
    t(`encode DataView detached ${n}`, () => fm.encode(dv));
    t(`decode DataView detached ${n}`, () => fm.decode(dv));
    const ab = new ArrayBuffer(4); detach(ab);
    t(`decode ArrayBuffer detached ${n}`, () => fm.decode(ab));
    t(`encode ArrayBuffer detached ${n}`, () => fm.encode(ab));
    // resizable
    if (typeof ArrayBuffer.prototype.resize === 'function') {
      const rb = new ArrayBuffer(8 * n, { maxByteLength: 16 * n });
      const fixed = new Float32Array(rb, 0, 2 * n);
      const tracking = new Float32Array(rb);
      fixed.fill(1.5);
      t(`pack resizable fixed ${n}`, () => fm.pack(fixed).length);
      t(`pack resizable tracking ${n}`, () => fm.pack(tracking).length);
      rb.resize(4 * n);
      t(`pack shrunk fixed ${n}`, () => fm.pack(fixed));
      t(`pack shrunk tracking ${n}`, () => fm.pack(tracking).length);
      t(`encode shrunk fixed ${n}`, () => fm.encode({ fixed }));
      t(`encode shrunk tracking ${n}`, () => fm.encode({ tracking }).length);
      rb.resize(0);
      t(`pack zero tracking ${n}`, () => fm.pack(tracking));
      t(`encode zero tracking ${n}`, () => fm.encode({ tracking }));
      const rb2 = new ArrayBuffer(0, { maxByteLength: 64 });
      const bytes = new Uint8Array(rb2);
      rb2.resize(3); bytes.set([0x92, 1, 2]);
      t(`decode resizable tracking ${n}`, () => fm.decode(bytes));
      t(`decode resizable buffer ${n}`, () => fm.decode(rb2));
      t(`unpack resizable ${n}`, () => fm.unpack(bytes, Int8Array));
      const rb3 = new ArrayBuffer(16, { maxByteLength: 32 });
      const fixedBytes = new Uint8Array(rb3, 4, 8); rb3.resize(6);
      t(`decode shrunk fixed ${n}`, () => fm.decode(fixedBytes));
      t(`decodeBMP shrunk fixed ${n}`, () => fm.decodeBMP(fixedBytes));
      t(`unpack shrunk fixed ${n}`, () => fm.unpack(fixedBytes, Int8Array));
      const dvr = new DataView(rb3, 2, 2); rb3.resize(1);
      t(`decode shrunk DataView ${n}`, () => fm.decode(dvr));
      t(`encode shrunk DataView ${n}`, () => fm.encode(dvr));
    }
    if (typeof SharedArrayBuffer === 'function') {
      const sab = new SharedArrayBuffer(4 * n + 8);
      const sf = new Float32Array(sab, 4, n); sf.fill(2.5);
      t(`pack shared ${n}`, () => fm.pack(sf).length);
      t(`encode shared ${n}`, () => fm.encode({ sf }).length);
      const sb = new Uint8Array(new SharedArrayBuffer(3)); sb.set([0x92, 1, 2]);
      t(`decode shared ${n}`, () => fm.decode(sb));
      t(`decode shared buffer ${n}`, () => fm.decode(sb.buffer));
      t(`unpack shared ${n}`, () => fm.unpack(sb, Int8Array));
      const ss = new Uint8Array(new SharedArrayBuffer(2 * n)); ss.set(fm.encodeBMP('y'.repeat(n)));
      t(`decodeBMP shared ${n}`, () => fm.decodeBMP(ss).length);
      if (typeof SharedArrayBuffer.prototype.grow === 'function') {
        const gsab = new SharedArrayBuffer(3, { maxByteLength: 64 });
        const g = new Uint8Array(gsab); g.set([0x92, 1, 2]);
        t(`decode growable ${n}`, () => fm.decode(g));
      }
    }
  }
  // ext decoder detaching the input mid-decode
  {
    const codec = new fm.ExtensionCodec();
    let victim;
    codec.register({ type: 3, encode: () => null, decode: () => { detach(victim.buffer); return 'x'; } });
    victim = Uint8Array.of(0x93, 0xd4, 3, 0, 0xa1, 0x61, 0xc4, 1, 7);
    t('detach during decode', () => fm.decode(victim, { extensionCodec: codec }));
    victim = Uint8Array.of(0x92, 0xd4, 3, 0, 0x92, 1, 2);
    t('detach during shaped decode', () => fm.decode(victim, { extensionCodec: codec, shape: [fm.optional ? Float32Array : Float32Array] }));
  }
  return out;
}


/** Every instance of an entry, probed; then memory growth on a fresh instance. */
async function runAll(fm) {
  await fm.init?.();
  const res = { backend: fm.backend(), simd: fm.simdSupported(), float16Array: typeof globalThis.Float16Array === 'function' };
  const instances = {
    default: fm,
    scalar: await fm.createFastmp({ backend: 'scalar' }),
    wasmOnly: await fm.createFastmp({ pureJs: 'never' }),
    wasmOnlyScalar: await fm.createFastmp({ pureJs: 'never', backend: 'scalar' }),
    js: await fm.createFastmp({ backend: 'js' }),
  };
  for (const [name, api] of Object.entries(instances)) {
    // (An instance has the functions; the classes and helpers are the module's.)
    const full = new Proxy(api, { get: (t, p) => (p in t ? t[p] : fm[p]) });
    res[name] = { ...(await probe(full)), ...(await detachProbe(full)) };
  }
  res.memory = memoryProbe(await fm.createFastmp({}));
  return res;
}

const HELPERS = { hex, raw, u8, err, show, tryShow, tryShowAsync, rng, probe, memoryProbe, detachProbe, runAll };
/** The probe's source, for a script of any engine. */
const PROBE_SOURCE = Object.entries(HELPERS).map(([name, fn]) => `const ${name} = ${fn.toString()};`).join('\n');

// ---- running it ---------------------------------------------------------------------------

let dir;
const results = {};

/** Runs runAll() on `entry` (a file) with a server runtime's binary. */
const inServer = (binary, entry) => runProbe(binary, dir, PROBE_SOURCE, 'runAll', entry);

/** A page that runs runAll() on `entry`, then the same in a module Worker (built into a blob, as docs/browsers.md names). */
const page = (entry) => `<!doctype html><meta charset="utf-8"><script type="module">
${PROBE_SOURCE}
try {
  const result = await runAll(await import('${entry}'));
  const source = ${JSON.stringify(PROBE_SOURCE)} + "\\nconst fm = await import('" + new URL('${entry}', location.href).href + "');\\n"
    + "try { postMessage(await runAll(fm)); } catch (e) { postMessage({ error: String(e && e.stack || e) }); }";
  const worker = new Worker(URL.createObjectURL(new Blob([source], { type: 'text/javascript' })), { type: 'module' });
  result.worker = await new Promise((resolve) => {
    worker.onmessage = (e) => resolve(e.data);
    worker.onerror = (e) => resolve({ error: 'worker: ' + (e.message || e) });
  });
  window.__result = result;
} catch (e) {
  window.__result = { error: String(e && e.stack || e) };
}
</script>`;

/** Where `got` differs from `want` (the Float16Array results against `want16`): a few lines, or ''. */
function differences(label, got, want, want16) {
  if (got?.error) return `${label}: ${got.error}`;
  const lines = [];
  for (const instance of ['default', 'scalar', 'wasmOnly', 'wasmOnlyScalar', 'js']) {
    const a = got[instance];
    if (!a) {
      lines.push(`${label} ${instance}: no result`);
      continue;
    }
    const keys = new Set([...Object.keys(want.default), ...Object.keys(a)]);
    for (const key of keys) {
      const f16 = key.includes('#f16');
      if (f16 && !got.float16Array) continue;
      const reference = f16 ? want16?.default[key] : want.default[key];
      if (a[key] !== reference) lines.push(`${label} ${instance} ${key}:\n    got  ${String(a[key]).slice(0, 300)}\n    want ${String(reference).slice(0, 300)}`);
    }
  }
  if (JSON.stringify(got.memory) !== JSON.stringify(want.memory)) lines.push(`${label} memory: ${JSON.stringify(got.memory)} vs ${JSON.stringify(want.memory)}`);
  if (got.backend !== 'simd' || got.simd !== true) lines.push(`${label}: backend ${got.backend}, simdSupported() ${got.simd}`);
  return lines.slice(0, 12).join('\n');
}

const SERVER = [['node22', 'Node 22'], ['node24', 'Node 24'], ['bun', 'Bun']];
const BROWSERS = [['chromium', 'Chromium'], ['firefox', 'Firefox ESR']];
const getter = (id) => ENGINES.find((e) => e.id === id).get({ who: 'audit-runtimes' });

describe('every engine: the probe gives Node 20\'s results byte for byte', () => {
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'fastmp-audit-runtimes-'));
    const node20 = await getter('node20');
    results.node20 = inServer(node20.path, 'dist/fastmp-node.js');
    const node24 = await getter('node24');
    if (!node24.missing) results.node24 = inServer(node24.path, 'dist/fastmp-node.js');
  }, 600_000);

  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test('Node 20 (the reference): every instance agrees; memory growth bounded; plain values as @msgpack/msgpack writes them', () => {
    const ref = results.node20;
    expect(differences('Node 20', ref, ref, results.node24)).toBe('');
    expect(ref.memory.growth).toMatchObject({ bad: 0, sameAfterReuse: true, sameAfterLoop: true });
    expect(ref.memory.after).toEqual([1, 2, 3]);
    // The codec's plain values: @msgpack/msgpack's bytes (dates, numbers, ExtData, a registered extension).
    const hexOf = (b) => Buffer.from(b).toString('hex');
    const dates = [0, -1, 1, 999, -999, 1000, 2 ** 32 * 1000 - 1, 2 ** 32 * 1000, 2 ** 34 * 1000 - 1, 2 ** 34 * 1000, -62135596800000, 8.64e15, -8.64e15, 1.7e12 + 123, -1e12 - 7];
    for (const t of dates) expect(ref.default[`date ${t}`], `date ${t}`).toBe(hexOf(msgpack.encode(new Date(t))));
    // The probe's extension codec, written with @msgpack/msgpack.
    class P {
      constructor(x, y) {
        this.x = x;
        this.y = y;
      }
    }
    const codec = new msgpack.ExtensionCodec();
    codec.register({ type: 5, encode: (v) => (v instanceof P ? msgpack.encode([v.x, v.y]) : null), decode: () => null });
    codec.register({ type: -5, encode: (v) => (typeof v === 'symbol' ? new TextEncoder().encode(v.description) : null), decode: () => null });
    expect(ref.default['ext codec']).toBe(hexOf(msgpack.encode({ p: new P(1, 'two'), q: [new P(3.5, null)], s: Symbol.for('zz') }, { extensionCodec: codec })));
    for (const n of [0, 1, -1, 127, 128, 255, 256, -32, -33, -128, -129, 65535, 65536, -32768, -32769, 2 ** 31, -(2 ** 31), 2 ** 32, 2 ** 53, -(2 ** 53), 2 ** 63, -(2 ** 63), 2 ** 64, 1.5, 0.1, NaN, Infinity, -Infinity, 5e-324]) {
      expect(ref.default[`num ${n}`], `num ${n}`).toBe(hexOf(msgpack.encode(n)));
      expect(ref.default[`num f32 ${n}`], `num f32 ${n}`).toBe(hexOf(msgpack.encode(n, { forceFloat32: true })));
      expect(ref.default[`num i2f ${n}`], `num i2f ${n}`).toBe(hexOf(msgpack.encode(n, { forceIntegerToFloat: true })));
    }
    for (const n of [0, 1, 2, 3, 4, 8, 16, 17]) expect(ref.default[`extdata ${n}`], `extdata ${n}`).toBe(hexOf(msgpack.encode(new msgpack.ExtData(9, new Uint8Array(n).fill(n)))));
  }, 600_000);

  for (const [id, name] of SERVER) {
    test(`${name}: the Node entry and js/inline.js`, async () => {
      const got = await getter(id);
      expect(got.missing).toBeUndefined();
      const main = id === 'node24' ? results.node24 : inServer(got.path, 'dist/fastmp-node.js');
      const inline = inServer(got.path, 'js/inline.js');
      expect(differences(`${name} (Node entry)`, main, results.node20, results.node24)).toBe('');
      expect(differences(`${name} (js/inline.js)`, inline, results.node20, results.node24)).toBe('');
    }, 600_000);
  }

  for (const [id, name] of BROWSERS) {
    test(`${name}: js/index.js and js/inline.js, on a page and in a module Worker`, async () => {
      const got = await getter(id);
      expect(got.missing).toBeUndefined();
      // Cross-origin isolated, for SharedArrayBuffer inputs.
      const headers = { 'cross-origin-opener-policy': 'same-origin', 'cross-origin-embedder-policy': 'require-corp' };
      const { server, origin } = await serve({ pages: { '/index.html': page('/js/index.js'), '/inline.html': page('/js/inline.js') }, headers });
      const { browser } = await launch(got);
      try {
        for (const which of ['index', 'inline']) {
          const result = await runPage(browser, `${origin}${which}.html`, { timeout: 300_000 });
          expect(differences(`${name} ${which} page`, result, results.node20, results.node24)).toBe('');
          expect(differences(`${name} ${which} Worker`, result.worker, results.node20, results.node24)).toBe('');
        }
      } finally {
        await browser.close();
        server.close();
      }
    }, 600_000);
  }
});
