// audit-runtimes2.test.js - a second look at the engines users run (Node 22 /
// 24, Bun, Chromium, Firefox ESR; Node 20 the reference), through
// test/engines/launch.js's getters, runDriver(), serve(), launch() and
// runPage(), as test/audit-runtimes.test.js does.
//
// - finding: with maxDepth raised, the codec's own recursion past the
//   engine's stack was not a DEPTH error on two engines: path.js asked
//   /call stack/i of the RangeError at the stack's limit, where V8 13 (Node
//   24, Chromium) compiles that regular expression and throws a SyntaxError
//   ("Invalid regular expression: /call stack/i: Stack overflow") to the
//   caller. (SpiderMonkey's overflow, an InternalError ("too much
//   recursion"), passes through as Firefox throws it: errors.md says so.)
// - coverage, what the first probe does not hold: a differential of a seeded
//   random corpus whose sizes sit at every crossover of every engine's row of
//   js/crossovers.js (n - 1, n, n + 1: each engine's own `auto` path switches
//   inside the corpus), float NaN payloads, -0 and subnormals left in (the
//   first probe replaced NaNs), on every instance (default, forced scalar,
//   wasm only, pure JS): pack / packInto / packView / unpack / unpackFrom /
//   packBool / unpackBool of every kind, a bad element at the start, middle
//   and end; messages with typed-array fields of every kind in every
//   typedArrays mode, decoded plain, shaped, with decodeMulti and over
//   chunked streams (decodeMultiStream, decodeArrayStream, decodeAsync,
//   reuseTypedArrays); the five ASN.1 kinds around the string crossovers with
//   a bad char at every position below 72, in the last 24 and at and beside
//   each 16th (strings, units, content, DER); Float16Array fields and targets
//   with every kind of NaN (equal to Node 24's). Each engine's results are
//   digests, equal to Node 20's.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ENGINES, launch, runPage, runProbe, serve } from './engines/launch.js';

// ---- the probe, run in every engine (plain functions: their source is what each engine runs) ----

function rng(seed) {
  let s = seed >>> 0 || 1;
  const next = () => {
    s ^= s << 13; s >>>= 0; s ^= s >>> 17; s ^= s << 5; s >>>= 0;
    return s;
  };
  next.int = (n) => next() % n;
  return next;
}

/** A 64-bit FNV-1a digest of a string, as 16 hex chars. */
function digest(str) {
  let h1 = 0x811c9dc5;
  let h2 = 0x01000193 ^ str.length;
  for (let i = 0; i < str.length; i++) {
    const c = str.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x01000193) >>> 0;
    h2 = Math.imul(h2 ^ (c + 0x9e37), 0x5bd1e995) >>> 0;
  }
  return h1.toString(16).padStart(8, '0') + h2.toString(16).padStart(8, '0');
}

function hexOf(view) {
  const b = view instanceof Uint8Array ? view : new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
  let s = '';
  for (let i = 0; i < b.length; i++) s += (b[i] < 16 ? '0' : '') + b[i].toString(16);
  return s;
}

function errOf(e) {
  if (e?.code !== undefined) return `E:${e.name}:${e.code}:${e.index}:${e.offset}:${e.path}:${typeof e.value === 'bigint' ? `${e.value}n` : e.value}:${e.streamOffset}`;
  return `X:${e?.name ?? String(e)}`;
}

function showV(v, depth = 0) {
  if (depth > 30) return '…';
  if (v === null) return 'null';
  if (v === undefined) return 'undef';
  if (typeof v === 'number') return Object.is(v, -0) ? '-0' : String(v);
  if (typeof v === 'bigint') return `${v}n`;
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'boolean') return String(v);
  if (v instanceof Date) return `Date(${v.getTime()})`;
  if (ArrayBuffer.isView(v)) return `${Object.prototype.toString.call(v).slice(8, -1)}[${v.length ?? v.byteLength}]:${hexOf(v)}`;
  if (v instanceof Map) return `Map{${[...v].map(([k, x]) => `${showV(k)}=>${showV(x, depth + 1)}`).join(',')}}`;
  if (Array.isArray(v)) return `[${v.map((x) => showV(x, depth + 1)).join(',')}]`;
  if (typeof v === 'object') {
    const name = Object.getPrototypeOf(v) === null ? 'null-proto' : (v.constructor?.name ?? '?');
    return `${name}{${Object.keys(v).map((k) => `${k}:${showV(v[k], depth + 1)}`).join(',')}}`;
  }
  return typeof v;
}

/** The result of fn() as a short string: itself when short, else its length and digest. */
function res(fn) {
  let s;
  try {
    const r = fn();
    s = r instanceof Uint8Array && r.constructor === Uint8Array ? hexOf(r) : showV(r);
  } catch (e) {
    s = errOf(e);
  }
  return s.length > 96 ? `${s.length}#${digest(s)}` : s;
}
async function resAsync(fn) {
  let s;
  try {
    s = showV(await fn());
  } catch (e) {
    s = errOf(e);
  }
  return s.length > 96 ? `${s.length}#${digest(s)}` : s;
}

/** The crossover sizes of every engine's rows (js/crossovers.js's, copied here: n - 1, n, n + 1 of each). */
function crossoverSizes() {
  const crossovers = [1, 4, 8, 16, 24, 32, 48, 64, 96, 128, 256, 512, 1024];
  const sizes = new Set([0, 1, 2, 15, 16, 17]);
  for (const c of crossovers) for (const n of [c - 1, c, c + 1]) if (n >= 0) sizes.add(n);
  return [...sizes].sort((a, b) => a - b);
}

const F32_SPECIAL = [0x7fc00000, 0xffc00000, 0x7f800001, 0x7fa5a5a5, 0xffffffff, 0x7fc12345, 0xff812345,
  0x00000000, 0x80000000, 0x7f800000, 0xff800000, 0x00000001, 0x807fffff, 0x7f7fffff, 0x4b800000, 0xcf000000, 0x5f000000];
const F64_SPECIAL = [[0x7ff80000, 0], [0xfff80000, 0], [0x7ff00000, 1], [0x7ff4a5a5, 0xa5a5a5a5], [0xffffffff, 0xffffffff],
  [0x7ff80000, 0x12345678], [0x7ff00000, 0x20000000], [0xfff00001, 0x80000000], [0, 0], [0x80000000, 0], [0x7ff00000, 0], [0xfff00000, 0],
  [0, 1], [0x000fffff, 0xffffffff], [0x36a00000, 0], [0x36900000, 0], [0x47efffff, 0xe0000000], [0x47efffff, 0xf0000000],
  [0x41e00000, 0], [0xc3e00000, 0], [0x43e00000, 0], [0x43f00000, 0], [0x3ff00000, 0x10000001], [0x40f00000, 0]];

/** n elements of Type from seed: random bits, a quarter of them specials (floats) or small values (ints). */
function sampleOf(Type, n, seed) {
  const r = rng(seed);
  const bytes = Type.BYTES_PER_ELEMENT;
  const words = new Uint32Array(Math.ceil((n * bytes) / 4) + 1);
  for (let i = 0; i < words.length; i++) words[i] = r();
  const x = new Type(words.buffer, 0, n);
  const name = Object.prototype.toString.call(x).slice(8, -1);
  for (let i = 0; i < n; i++) {
    const pick = r.int(4);
    if (pick !== 0) {
      if (pick === 1 && !name.startsWith('Float') && !name.startsWith('Big')) x[i] = r.int(300) - 150;
      continue;
    }
    if (name === 'Float32Array') new Uint32Array(words.buffer, 4 * i, 1)[0] = F32_SPECIAL[r.int(F32_SPECIAL.length)];
    else if (name === 'Float64Array') new Uint32Array(words.buffer, 8 * i, 2).set(F64_SPECIAL[r.int(F64_SPECIAL.length)].slice().reverse());
    else if (name === 'Float16Array') new Uint16Array(words.buffer, 2 * i, 1)[0] = [0x7e00, 0xfe00, 0x7c01, 0x7d55, 0xffff, 0x8000, 0x0001, 0x03ff, 0x7bff, 0x7c00, 0xfc00][r.int(11)];
    else if (name.startsWith('Big')) x[i] = BigInt(r.int(600) - 300);
    else x[i] = r.int(600) - 300;
  }
  return x;
}

const TYPE_NAMES = ['Int8Array', 'Uint8Array', 'Uint8ClampedArray', 'Int16Array', 'Uint16Array', 'Int32Array', 'Uint32Array', 'Float32Array', 'Float64Array', 'BigInt64Array', 'BigUint64Array'];

/** pack / unpack / packInto / packView / shaped fields at every crossover size. */
function typedProbe(fm, put) {
  const has16 = typeof globalThis.Float16Array === 'function';
  const names = has16 ? [...TYPE_NAMES, 'Float16Array'] : TYPE_NAMES;
  const sizes = crossoverSizes();
  names.forEach((name, k) => {
    const T = globalThis[name];
    const tag = name === 'Float16Array' ? '#f16' : '';
    for (const n of sizes) {
      const x = sampleOf(T, n, 7919 * (k + 1) + n);
      const key = `${name}${tag} ${n}`;
      put(`pack ${key}`, res(() => fm.pack(x)));
      const arrayForm = (() => { try { return fm.pack(x, { bin: false }); } catch { return null; } })();
      put(`pack array ${key}`, arrayForm === null ? 'err' : `${arrayForm.length}#${digest(hexOf(arrayForm))}`);
      put(`packView ${key}`, res(() => (fm.backend() === 'js' ? fm.pack(x, { bin: false }) : fm.packView(x, { bin: false }).slice())));
      put(`packInto ${key}`, res(() => { const t = new Uint8Array(16 + 9 * n + 8).fill(0xee); const end = fm.packInto(x, t, 3, { bin: false }); return [end, t]; }));
      put(`packInto short ${key}`, res(() => fm.packInto(x, new Uint8Array(arrayForm ? arrayForm.length - 1 : 0), 0, { bin: false })));
      if (arrayForm === null) continue;
      // Every target: values widened, narrowed, rounded or refused (RANGE / TYPE at an index).
      for (const target of ['Int8Array', 'Uint16Array', 'Int32Array', 'Float32Array', 'Float64Array', 'BigUint64Array', ...(has16 ? ['Float16Array'] : [])]) {
        const t16 = target === 'Float16Array' || tag ? '#f16' : '';
        put(`unpack ${key} -> ${target}${t16}`, res(() => fm.unpack(arrayForm, globalThis[target])));
        if (target !== 'Float32Array' && target !== 'Float64Array') put(`unpack integral ${key} -> ${target}${t16}`, res(() => fm.unpack(arrayForm, globalThis[target], { integralFloats: true })));
      }
      put(`unpack own ${key}`, res(() => fm.unpack(arrayForm, T)));
      // unpackFrom inside a larger buffer (odd offset: the kernels read unaligned input)
      put(`unpackFrom ${key}`, res(() => { const b = new Uint8Array(arrayForm.length + 6); b.set(arrayForm, 3); const r = fm.unpackFrom(b, name === 'Float16Array' ? Float32Array : T, 3); return [r.end, r.value]; }));
      // A bad element at the start, middle and end: a nil.
      for (const at of new Set(n ? [0, n >> 1, n - 1] : [])) {
        const y = name.startsWith('Big') ? BigInt64Array.from({ length: n }, (_, i) => BigInt(i % 100)) : Float64Array.from({ length: n }, (_, i) => i % 100);
        const packed = fm.pack(y);
        // Replace element `at` by 0xc0 (nil) when its encoding is one byte (fixint / float64: find by walking).
        const bad = (() => {
          const b = packed.slice();
          let p = n < 16 ? 1 : n < 65536 ? 3 : 5;
          for (let i = 0; i < at; i++) p += b[p] === 0xcb ? 9 : 1;
          if (b[p] === 0xcb) { const out = new Uint8Array(b.length - 8); out.set(b.subarray(0, p)); out[p] = 0xc0; out.set(b.subarray(p + 9), p + 1); return out; }
          b[p] = 0xc0;
          return b;
        })();
        put(`unpack nil@${at} ${key}`, res(() => fm.unpack(bad, name === 'Float16Array' ? Float32Array : T)));
        // An out-of-range value for the target at `at`.
        const big = name.startsWith('Big') ? null : Float64Array.from({ length: n }, (_, i) => (i === at ? 300 : i % 100));
        if (big) put(`unpack range@${at} ${key}`, res(() => fm.unpack(fm.pack(Int32Array.from(big)), Int8Array)));
        if (big) put(`unpack frac@${at} ${key}`, res(() => fm.unpack(fm.pack(Float64Array.from(big, (v, i) => (i === at ? 0.5 : v))), Int16Array, { integralFloats: true })));
      }
      if (n) put(`unpack trunc ${key}`, res(() => fm.unpack(arrayForm.subarray(0, arrayForm.length - 1), name === 'Float16Array' ? Float32Array : T)));
    }
  });
  // Booleans at every size.
  for (const n of sizes) {
    const r = rng(n + 5);
    const bits = Uint8Array.from({ length: n }, () => (r.int(3) === 0 ? 0 : r.int(256)));
    const packed = (() => { try { return fm.packBool(bits); } catch (e) { return e; } })();
    put(`packBool ${n}`, packed instanceof Uint8Array ? `${packed.length}#${digest(hexOf(packed))}` : errOf(packed));
    if (!(packed instanceof Uint8Array)) continue;
    put(`packBool array ${n}`, res(() => fm.packBool(Array.from(bits, Boolean))));
    put(`unpackBool ${n}`, res(() => fm.unpackBool(packed)));
    if (n) {
      for (const at of new Set([0, n >> 1, n - 1])) {
        const bad = packed.slice();
        bad[(n < 16 ? 1 : 3) + at] = 0x01;
        put(`unpackBool bad@${at} ${n}`, res(() => fm.unpackBool(bad)));
        put(`shape bool bad@${at} ${n}`, res(() => fm.decode(Uint8Array.of(0x81, 0xa1, 0x62, ...bad), { shape: { b: Boolean } })));
      }
    }
    put(`shape bool ${n}`, res(() => fm.decode(fm.encode({ b: fm.asBools(bits) }), { shape: { b: Boolean } })));
  }
}

/** A random message: typed-array fields of every kind (sizes at the crossovers), strings, numbers, dates, maps. */
function messageOf(seed, half) {
  const r = rng(seed);
  const sizes = crossoverSizes();
  const names = half ? ['Float16Array', 'Float32Array'] : TYPE_NAMES;
  const msg = {};
  const shape = {};
  const count = 2 + r.int(5);
  for (let i = 0; i < count; i++) {
    const name = names[r.int(names.length)];
    const n = sizes[r.int(sizes.length)] >> (r.int(3) === 0 ? 0 : 2);
    msg[`f${i}`] = sampleOf(globalThis[name], n, r());
    shape[`f${i}`] = globalThis[name];
  }
  const ascii = 'abcdefghijklmnopqrstuvwxyz0123456789 ';
  const wide = ['é', 'ß', '日', '本', '😀', '\u00ff', '\u0080', 'x'];
  const str = (n, chars) => { let s = ''; for (let j = 0; j < n; j++) s += chars[r.int(chars.length)]; return s; };
  msg.s1 = str([0, 15, 16, 17, 31, 32, 49, 50, 51, 199, 200, 201, 300][r.int(13)], ascii);
  msg.s2 = str([1, 16, 17, 50, 67, 100, 201][r.int(7)], wide);
  msg.n = [r() | 0, r() / 7, -(r() % 33), 2 ** 53 + r(), -0, NaN, r.int(2) ? 1e-310 : 3.4e38];
  msg.when = new Date(1e12 + (r() % 1e9) * (r.int(2) ? 1 : -1000));
  msg.m = new Map([[r.int(100), 'a'], ['k', [true, null]]]);
  msg.nested = { list: [{ v: sampleOf(Float32Array, r.int(20), r()) }, { v: sampleOf(Float32Array, r.int(70), r()) }], raw: sampleOf(Uint8Array, r.int(300), r()) };
  shape.nested = { list: [{ v: Float32Array }] };
  return { msg, shape };
}

function concat(parts) {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) { out.set(p, at); at += p.length; }
  return out;
}

/** Messages, encoded every way and decoded every way, also over chunked streams. */
async function messageProbe(fm, put) {
  const has16 = typeof globalThis.Float16Array === 'function';
  const collect = async (it) => { const out = []; for await (const v of it) out.push(v); return out; };
  for (let m = 0; m < (has16 ? 24 : 18); m++) {
    // Messages 18 on have Float16Array fields (#f16 keys: compared with Node 24's).
    const { msg, shape } = messageOf(1000 + m, m >= 18);
    const key = `msg ${m}${m >= 18 ? '#f16' : ''}`;
    for (const mode of ['array', 'ext', 'bin']) {
      const bytes = (() => { try { return fm.encode(msg, { typedArrays: mode }); } catch (e) { return e; } })();
      put(`${key} ${mode}`, bytes instanceof Uint8Array ? `${bytes.length}#${digest(hexOf(bytes))}` : errOf(bytes));
      if (!(bytes instanceof Uint8Array)) continue;
      put(`${key} ${mode} plain`, res(() => fm.decode(bytes)));
      put(`${key} ${mode} shaped`, res(() => fm.decode(bytes, { shape })));
      put(`${key} ${mode} shaped integral`, res(() => fm.decode(bytes, { shape, integralFloats: true })));
      put(`${key} ${mode} as f64`, res(() => fm.decode(bytes, { shape: Object.fromEntries(Object.keys(shape).filter((k) => k[0] === 'f').map((k) => [k, Float64Array])) })));
      if (mode === 'array') {
        const into = new Uint8Array(bytes.length + 4);
        put(`${key} encodeInto`, res(() => [fm.encodeInto(msg, into, 2), into]));
        const multi = concat([bytes, fm.encode(m), bytes]);
        put(`${key} decodeMulti`, res(() => [...fm.decodeMulti(multi, { shape: undefined })]));
        const d = new fm.Decoder({ shape });
        put(`${key} decodeMulti shaped`, res(() => [...d.decodeMulti(concat([bytes, bytes]))]));
        // Chunked: sizes from the seed, some one byte, some cutting typed arrays.
        const r = rng(m + 77);
        const chunks = (b) => { const out = []; for (let i = 0; i < b.length;) { const step = [1, 2, 3, 7, 16, 64, 333, 4096][r.int(8)]; out.push(b.slice(i, i + step)); i += step; } return out; };
        async function* gen(list) { for (const c of list) yield c; }
        put(`${key} stream multi`, await resAsync(() => collect(new fm.Decoder({ shape }).decodeMultiStream(gen(chunks(multi.subarray(0, bytes.length)).concat(chunks(bytes)))))));
        put(`${key} stream async`, await resAsync(() => fm.decodeAsync(gen(chunks(bytes)), { shape })));
        const arr = concat([Uint8Array.of(0x93), bytes, fm.encode('mid'), bytes]);
        put(`${key} stream array`, await resAsync(() => collect(fm.decodeArrayStream(gen(chunks(arr))))));
        put(`${key} stream trunc`, await resAsync(() => fm.decodeAsync(gen(chunks(bytes.subarray(0, bytes.length - 1))), { shape })));
        put(`${key} stream bad`, await resAsync(() => collect(fm.decodeMultiStream(gen(chunks(concat([bytes, Uint8Array.of(0xc1)]))), { shape }))));
        const reuse = new fm.Decoder({ shape, reuseTypedArrays: true });
        put(`${key} reuse`, res(() => { const a = reuse.decode(bytes); const b = reuse.decode(bytes); return [a, b]; }));
      }
    }
  }
}

/** The ASN.1 kinds around the string crossovers, a bad char at every position. */
function stringProbe(fm, put) {
  const kinds = [
    ['BMP', 'a\u00e9\u00ff\u0080\u65e5\u00a0b\uffff', ['\ud800', '\udfff'], 0x1e],
    ['IA5', 'a\u0000\u007f~ Z', ['\u0080', '\u00ff', '\u0100', '\ud83d'], 0x16],
    ['Visible', 'x ~!Z', ['\u007f', '\u001f', '\u00e9'], 0x1a],
    ['Printable', "Az09 '()+,-./:=?", ['@', '*', '\u00c0'], 0x13],
    ['Numeric', '0123456789 ', ['A', '/', '\u0660'], 0x12],
  ];
  const lengths = [47, 48, 49, 63, 64, 65, 95, 96, 97, 127, 128, 129, 255, 256, 257, 511, 512, 513, 1023, 1024, 1025];
  // (Every position below 72 and in the last 24; beyond, at and beside each 16th: the kernels' blocks.)
  for (const [k, goodChars, bads, tag] of kinds) {
    const r = rng(k.length * 131);
    for (const len of lengths) {
      let s = '';
      for (let i = 0; i < len; i++) s += goodChars[r.int(goodChars.length)];
      const content = (str) => (k === 'BMP' ? Uint8Array.from([...str].flatMap((c) => [c.charCodeAt(0) >> 8, c.charCodeAt(0) & 255])) : Uint8Array.from(str, (c) => c.charCodeAt(0) & 255));
      put(`${k} ${len} enc`, res(() => fm[`encode${k}`](s)));
      put(`${k} ${len} dec`, res(() => fm[`decode${k}`](content(s))));
      put(`${k} ${len} dec16`, res(() => fm[`decode${k}ToUint16`](content(s))));
      put(`${k} ${len} der`, res(() => { const der = fm[`write${k}String`](s); return [der, fm[`read${k}String`](der).value === s]; }));
      // A bad char at every position up to 130 and within 40 of the end, beyond 130 at and beside each 16th.
      const out = { enc: [], units: [], dec: [], dec16: [], write: [] };
      const units = Uint16Array.from(s, (c) => c.charCodeAt(0));
      const bytes = content(s);
      for (let at = 0; at < len; at++) {
        if (at >= 72 && at < len - 24 && (at + 1) % 16 > 2) continue;
        const bad = bads[at % bads.length];
        const t = s.slice(0, at) + bad + s.slice(at + 1);
        out.enc.push(res(() => fm[`encode${k}`](t)));
        const u = units.slice();
        u[at] = bad.charCodeAt(0);
        out.units.push(res(() => fm[`encode${k}`](u)));
        out.write.push(res(() => fm[`write${k}String`](t)));
        // Decoding: the bad unit as bytes (BMP: the surrogate; the one-byte kinds: its low byte, when that is bad too).
        const c = bytes.slice();
        if (k === 'BMP') c.set([u[at] >> 8, u[at] & 255], 2 * at);
        else c[at] = u[at] & 255;
        if (k === 'BMP' || c[at] !== u[at]) {
          out.dec.push(res(() => fm[`decode${k}`](c)));
          out.dec16.push(res(() => fm[`decode${k}ToUint16`](c)));
        }
      }
      for (const [op, list] of Object.entries(out)) put(`${k} ${len} bad ${op}`, `${list.length}#${digest(list.join('|'))}|${list.slice(0, 2).join('|')}`);
    }
    // Odd / cut content, and the one-byte kinds' high bytes at every position near the ends.
    if (k === 'BMP') for (const len of [63, 127, 1025]) put(`BMP odd ${len}`, res(() => fm.decodeBMP(new Uint8Array(len).fill(0x41))));
    else for (const b of [0x80, 0xc3, 0xff]) for (const len of [64, 1024]) put(`${k} high ${b} ${len}`, res(() => fm[`decode${k}`](Uint8Array.from({ length: len }, (_, i) => (i === len - 1 ? b : goodChars.charCodeAt(0))))));
    put(`${k} read der long`, res(() => fm[`read${k}String`](Uint8Array.of(tag, 0x82, 0x04, 0x00, ...new Uint8Array(1024).fill(k === 'BMP' ? 0 : 0x30)))));
  }
}

/**
 * The codec's own recursion past the engine's stack (maxDepth Infinity) and a
 * caller's getter that overflows by itself: { code, decoding } of a
 * FastmpError (decoding: a DecodeError), else { error: its name }.
 */
async function overflowProbe(fm) {
  const what = (e) => (e?.code === undefined ? { error: e?.name } : { code: e.code, decoding: e.name === 'FastmpError' && e.constructor?.name === 'DecodeError' });
  const run = (f) => { try { f(); return 'no error'; } catch (e) { return what(e); } };
  const deepBytes = (n) => { const b = new Uint8Array(n + 1).fill(0x91); b[n] = 0xc0; return b; };
  let deep = [];
  for (let i = 0; i < 300_000; i++) deep = [deep];
  const cyclic = [];
  cyclic.push(cyclic);
  const self = {};
  self.self = self;
  const getter = { get x() { return this.x; } };
  return {
    decode: run(() => fm.decode(deepBytes(1_000_000), { maxDepth: Infinity })),
    decodeMaps: run(() => fm.decode(Uint8Array.from({ length: 600_001 }, (_, i) => (i === 600_000 ? 0xc0 : [0x81, 0xa1, 0x6b][i % 3])), { maxDepth: Infinity })),
    decodeMulti: run(() => [...fm.decodeMulti(deepBytes(1_000_000), { maxDepth: Infinity })]),
    decodeAsync: await (async () => { try { await fm.decodeAsync((async function* () { yield deepBytes(1_000_000); })(), { maxDepth: Infinity }); return 'no error'; } catch (e) { return what(e); } })(),
    encode: run(() => fm.encode(deep, { maxDepth: Infinity })),
    encodeCyclic: run(() => fm.encode(cyclic, { maxDepth: Infinity })),
    encodeCyclicObject: run(() => fm.encode(self, { maxDepth: Infinity })),
    encodeInto: run(() => fm.encodeInto(cyclic, new Uint8Array(64), 0, { maxDepth: Infinity })),
    getter: run(() => fm.encode({ a: [getter] })),
  };
}

async function probe2(fm) {
  const out = {};
  const put = (k, v) => {
    if (Object.hasOwn(out, k)) throw new Error(`duplicate key ${k}`);
    out[k] = v;
  };
  typedProbe(fm, put);
  await messageProbe(fm, put);
  stringProbe(fm, put);
  return out;
}

/** Every instance of an entry, probed. */
async function runAll2(fm) {
  await fm.init?.();
  const result = { backend: fm.backend(), simd: fm.simdSupported(), float16Array: typeof globalThis.Float16Array === 'function' };
  result.overflow = await overflowProbe(fm);
  result.overflowJs = await overflowProbe(await fm.createFastmp({ backend: 'js' }));
  result.overflowName = (() => { try { const f = () => f() + 1; return f(); } catch (e) { return e.name; } })();
  const instances = {
    default: fm,
    scalar: await fm.createFastmp({ backend: 'scalar' }),
    wasmOnly: await fm.createFastmp({ pureJs: 'never' }),
    js: await fm.createFastmp({ backend: 'js' }),
  };
  for (const [name, api] of Object.entries(instances)) {
    const full = new Proxy(api, { get: (t, p) => (p in t ? t[p] : fm[p]) });
    result[name] = await probe2(full);
  }
  return result;
}

const HELPERS = { overflowProbe, rng, digest, hexOf, errOf, showV, res, resAsync, crossoverSizes, sampleOf, typedProbe, messageOf, concat, messageProbe, stringProbe, probe2, runAll2 };
const CONSTANTS = { F32_SPECIAL, F64_SPECIAL, TYPE_NAMES };
const PROBE_SOURCE = [
  ...Object.entries(CONSTANTS).map(([name, v]) => `const ${name} = ${JSON.stringify(v)};`),
  ...Object.entries(HELPERS).map(([name, fn]) => `const ${name} = ${fn.toString()};`),
].join('\n');

// ---- running it --------------------------------------------------------------------------------

let dir;
const results = {}; // id: a promise of runAll2()'s result

const inServer = (binary, entry) => runProbe(binary, dir, PROBE_SOURCE, 'runAll2', entry);

const page = (entry) => `<!doctype html><meta charset="utf-8"><script type="module">
${PROBE_SOURCE}
try {
  window.__result = await runAll2(await import('${entry}'));
} catch (e) {
  window.__result = { error: String(e && e.stack || e) };
}
</script>`;

/** How many results of `got` differ from Node 20's (its #f16 keys: from Node 24's `want16`), and the first 16. */
function differences(label, got, want, want16) {
  if (got?.error) return `${label}: ${got.error}`;
  const lines = [];
  for (const instance of ['default', 'scalar', 'wasmOnly', 'js']) {
    const a = got[instance];
    const ref = want.default;
    const keys = new Set([...Object.keys(ref), ...Object.keys(a ?? {})]);
    for (const key of keys) {
      const f16 = key.includes('#f16');
      if (f16 && (!got.float16Array || want16 === null)) continue;
      const reference = f16 ? want16.default[key] : ref[key];
      if (a?.[key] !== reference) lines.push(`${label} ${instance} ${key}:\n    got  ${String(a?.[key]).slice(0, 300)}\n    want ${String(reference).slice(0, 300)}`);
    }
  }
  if (got.backend !== 'simd' || got.simd !== true) lines.push(`${label}: backend ${got.backend}, simdSupported() ${got.simd}`);
  return `${lines.length} differences\n${lines.slice(0, 16).join('\n')}`;
}

const getter = (id) => ENGINES.find((e) => e.id === id).get({ who: 'audit-runtimes2' });
const SERVER = [['node22', 'Node 22'], ['node24', 'Node 24'], ['bun', 'Bun']];
const BROWSERS = [['chromium', 'Chromium'], ['firefox', 'Firefox ESR']];
const NAMES = Object.fromEntries([['node20', 'Node 20'], ...SERVER, ...BROWSERS]);
const got = {};

/** runAll2() in engine `id` (once: the tests of an engine share it), or { missing }. */
function resultOf(id) {
  results[id] ??= (async () => {
    got[id] ??= await getter(id);
    if (got[id].missing) return { missing: got[id].missing };
    if (!BROWSERS.some(([b]) => b === id)) return inServer(got[id].path, 'dist/fastmp-node.js');
    const { server, origin } = await serve({ pages: { '/probe2.html': page('/js/index.js') } });
    const { browser } = await launch(got[id]);
    try {
      return await runPage(browser, `${origin}probe2.html`, { timeout: 240_000 });
    } finally {
      await browser.close();
      server.close();
    }
  })();
  return results[id];
}

/** Node 24's result, the reference of the Float16Array keys (null without Node 24: those keys are then not compared). */
const reference16 = async () => ((await resultOf('node24')).default ? resultOf('node24') : null);

/**
 * What every engine must give: DEPTH for the codec's own overflow where the
 * engine's is a RangeError (V8, JavaScriptCore), the engine's own error,
 * untouched, where it is not (SpiderMonkey's InternalError: docs/errors.md),
 * and for a getter's.
 */
const OVERFLOW = (engineError) => {
  const own = (decoding) => (engineError === 'RangeError' ? { code: 'DEPTH', decoding } : { error: engineError });
  return {
    decode: own(true),
    decodeMaps: own(true),
    decodeMulti: own(true),
    decodeAsync: own(true),
    encode: own(false),
    encodeCyclic: own(false),
    encodeCyclicObject: own(false),
    encodeInto: own(false),
    getter: { error: engineError },
  };
};

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'fastmp-audit-runtimes2-'));
});
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

// ---- the finding: the engine's stack overflow, as each engine throws it -------------------------
// js/codec/path.js isStackOverflow() asked /call stack/i.test(message) of a
// RangeError: V8 13 (Node 24, Chromium) compiles that regular expression when
// it first runs, at the stack's limit, and throws a SyntaxError ("Invalid
// regular expression: /call stack/i: Stack overflow"), which reached the
// caller. docs/errors.md: an overflow more than 100 levels deep is the
// codec's own, a DEPTH error. (SpiderMonkey's overflow is an InternalError,
// "too much recursion": it passes through as Firefox threw it, as
// errors.md says; telling it too weighed 50 B on the encode page.)

describe('maxDepth Infinity: the codec\'s own stack overflow is DEPTH on every engine whose overflow is a RangeError (Node 24, Chromium: a SyntaxError)', () => {
  for (const id of Object.keys(NAMES)) {
    test(`${NAMES[id]}`, async (ctx) => {
      const result = await resultOf(id);
      if (result.missing) ctx.skip(`${NAMES[id]} cannot be had here: ${result.missing}`);
      expect(result.error).toBeUndefined();
      expect(result.overflow, 'default instance').toEqual(OVERFLOW(result.overflowName));
      expect(result.overflowJs, 'pure-JS instance').toEqual(OVERFLOW(result.overflowName));
    }, 300_000);
  }
});

// ---- the differential ------------------------------------------------------------------------------

test('the probe\'s sizes hold n - 1, n and n + 1 of every crossover of js/crossovers.js, every engine, both builds', async () => {
  const { jsBelowFor } = await import('../js/crossovers.js');
  const sizes = new Set(crossoverSizes());
  for (const engine of ['v8', 'jsc', 'spidermonkey']) {
    for (const [build, tables] of Object.entries(jsBelowFor(engine))) {
      for (const [op, table] of Object.entries(tables)) {
        if (op === 'strings') continue; // (the string probe's lengths: stringProbe())
        for (const [column, n] of Object.entries(table)) {
          for (const m of [n - 1, n, n + 1]) expect(sizes.has(m), `${engine} ${build} ${op} ${column} ${n}: ${m}`).toBe(true);
        }
      }
    }
  }
});

describe('a seeded corpus at every engine\'s crossovers: Node 20\'s results on every engine and instance', () => {
  test('Node 20 (the reference): every instance agrees with the default one', async () => {
    const node20 = await resultOf('node20');
    expect(node20.missing).toBeUndefined();
    expect(differences('Node 20', node20, node20, await reference16())).toBe('0 differences\n');
  }, 300_000);

  for (const [id, name] of [...SERVER, ...BROWSERS]) {
    test(`${name}${BROWSERS.some(([b]) => b === id) ? ': js/index.js on a page' : ': the Node entry'}`, async (ctx) => {
      const result = await resultOf(id);
      if (result.missing) ctx.skip(`${name} cannot be had here: ${result.missing}`);
      expect(differences(name, result, await resultOf('node20'), await reference16())).toBe('0 differences\n');
    }, 300_000);
  }
});
