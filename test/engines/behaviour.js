// behaviour.js - the API's behaviour checks, and a fixed corpus of outputs,
// for any JS engine: plain ESM that needs only ES2020, WebAssembly, web
// streams and crypto.subtle (no vitest, no Node API), so that Node, Bun and a
// browser page run the same file (test/engines/run.js drives them).
//
//   const { facts, checks, corpus } = await run(fastmp)
//
// `fastmp` is the package's module namespace (js/index.js, or js/node.js in a
// server runtime). run() calls fastmp.init() itself, makes instances with
// forced backends (scalar, simd where the engine has it, pure JS) and:
// - checks every result against what is known without fastmp: a small
//   reference writer of msgpack arrays, strings and DER below, and round trips;
// - checks that every instance produces the same bytes as the default one;
// - returns the corpus: for each named part (a deterministic input, seeded
//   PRNG only), the SHA-256 of the bytes produced, and one digest of all
//   parts. run.js compares it with Node 20's.
// A check is { name, pass, message }; a failing one says what differed.

import { rng } from '../rng.js';
import { jsBelowFor, jsEngine } from '../../js/crossovers.js';
import { KINDS as FASTMP_KINDS } from '../../js/kinds.js';
import { KIND_OF_NAME } from '../../js/kinds.js';

// ---- small tools ----------------------------------------------------------------

/** The first index of needle's bytes in hay, or -1. */
function indexOfBytes(hay, needle) {
  const last = hay.length - needle.length;
  outer: for (let i = 0; i <= last; i++) {
    if (hay[i] !== needle[0]) continue;
    for (let j = 1; j < needle.length; j++) if (hay[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}

const hex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
const utf8 = (s) => new TextEncoder().encode(s);
/** The bytes of a typed array (or a copy of a Uint8Array): compared bit for bit, NaN payloads included. */
const raw = (t) => new Uint8Array(t.buffer.slice(t.byteOffset, t.byteOffset + t.byteLength));

function sameBytes(a, b) {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Where two byte strings first differ, for messages. */
function firstDifference(a, b) {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    if (a[i] !== b[i]) return `byte ${i}: ${hex(a.subarray(i, i + 8))} vs ${hex(b.subarray(i, i + 8))}`;
  }
  return `lengths ${a.length} vs ${b.length}`;
}

function concat(parts) {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/**
 * A thrown error as [code, index, offset] (plus path / needed where set) for
 * a FastmpError, else ['Name: message'], or ['no error'].
 */
function caught(fn) {
  try {
    fn();
  } catch (e) {
    if (e?.name !== 'FastmpError') return [`${e?.name}: ${e?.message}`];
    const out = [e.code, e.index, e.offset];
    if (e.path !== undefined) out.push(e.path);
    if (e.needed !== undefined) out.push(e.needed);
    return out;
  }
  return ['no error'];
}

/** caught() without the message of an error of the engine's own (its wording is the engine's). */
const caughtName = (fn) => caught(fn).map((part) => (typeof part === 'string' ? part.split(':')[0] : part));

// ---- deterministic inputs ----------------------------------------------------------

export const SIZES = [0, 1, 16, 37, 4096];

const F32_SPECIAL = [
  0x7fc00000, 0xffc00000, 0x7f800001, 0x7fa5a5a5, 0xffffffff, 0x7fc12345, // NaNs, signalling ones too
  0x00000000, 0x80000000, 0x7f800000, 0xff800000, 0x00000001, 0x807fffff, 0x7f7fffff,
];
const F64_SPECIAL = [
  [0x7ff80000, 0], [0xfff80000, 0], [0x7ff00000, 1], [0x7ff4a5a5, 0xa5a5a5a5], [0xffffffff, 0xffffffff],
  [0x7ff80000, 0x12345678], [0x7ff00000, 0x20000000], [0, 0], [0x80000000, 0], [0x7ff00000, 0],
  [0xfff00000, 0], [0, 1], [0x000fffff, 0xffffffff], [0x36a00000, 0], [0x36900000, 0], [0x47efffff, 0xe0000000],
  [0x47efffff, 0xf0000000], [0x41e00000, 0], [0xc3e00000, 0],
];

/**
 * The typed arrays pack() takes (js/kinds.js), each with its element bytes and
 * how msgpack writes it, found from the engine (the reference writer below
 * reads these, so they are not taken from fastmp): 'f32' / 'f64' (floats, by
 * width), 'big' (BigInt elements), 'bin' (unsigned bytes) or 'int'.
 */
export const KINDS = FASTMP_KINDS.map(({ name, Type }) => ({ name, Type, bytes: Type.BYTES_PER_ELEMENT, form: formOf(Type) }));

/** KINDS by name: KIND.Float32Array ... */
const KIND = Object.fromEntries(KINDS.map((k) => [k.name, k]));

function formOf(Type) {
  const probe = new Type(1);
  if (typeof probe[0] === 'bigint') return 'big';
  probe[0] = 0.5;
  if (probe[0] === 0.5) return Type.BYTES_PER_ELEMENT === 4 ? 'f32' : 'f64';
  probe[0] = -1;
  return Type.BYTES_PER_ELEMENT === 1 && probe[0] >= 0 ? 'bin' : 'int';
}

/** n elements of a kind: random bits over the whole range, specials and small values sprinkled in. */
export function sample(kind, n, seed) {
  const r = rng(seed);
  const words = new Uint32Array(Math.ceil((n * kind.bytes) / 4));
  for (let i = 0; i < words.length; i++) words[i] = r();
  const x = new kind.Type(words.buffer, 0, n);
  for (let i = 0; i < n; i++) {
    const pick = r.int(4);
    if (kind.form === 'f32' && pick === 0) new Uint32Array(words.buffer, 4 * i, 1)[0] = F32_SPECIAL[r.int(F32_SPECIAL.length)];
    else if (kind.form === 'f64' && pick === 0) {
      const [hi, lo] = F64_SPECIAL[r.int(F64_SPECIAL.length)];
      new Uint32Array(words.buffer, 8 * i, 2).set([lo, hi]);
    } else if (kind.form === 'big' && pick === 0) x[i] = BigInt(r.int(600) - 300);
    else if ((kind.form === 'int' || kind.form === 'bin') && pick === 0) x[i] = r.int(600) - 300;
  }
  return x;
}

/** Chars for strings: BMP text (no surrogates), IA5 (0x00-0x7F), Visible (0x20-0x7E). */
const ALPHABETS = {
  bmp: [0x41, 0x7a, 0x20, 0xfc, 0xdf, 0x395, 0x3bb, 0x65e5, 0x672c, 0xfeff, 0xfffd, 0xd7ff, 0xe000, 0xffff, 0x0, 0x7f],
  ia5: [0x00, 0x09, 0x0a, 0x20, 0x40, 0x41, 0x5a, 0x61, 0x7a, 0x7e, 0x7f, 0x2e, 0x30],
  visible: [0x20, 0x21, 0x30, 0x39, 0x40, 0x41, 0x5a, 0x61, 0x7a, 0x7e, 0x2e],
};

function text(alphabet, n, seed) {
  const r = rng(seed);
  const chars = ALPHABETS[alphabet];
  let s = '';
  for (let i = 0; i < n; i++) s += String.fromCharCode(chars[r.int(chars.length)]);
  return s;
}

// ---- the reference: msgpack and DER written here, without fastmp --------------------

function writeInt(out, v) { // v: a BigInt, written in msgpack's smallest form
  if (v >= 0n) {
    if (v < 128n) out.push(Number(v));
    else if (v < 256n) out.push(0xcc, Number(v));
    else if (v < 65536n) out.push(0xcd, ...be(v, 2));
    else if (v < 4294967296n) out.push(0xce, ...be(v, 4));
    else out.push(0xcf, ...be(v, 8));
  } else if (v >= -32n) out.push(Number(v) & 0xff);
  else if (v >= -128n) out.push(0xd0, Number(v) & 0xff);
  else if (v >= -32768n) out.push(0xd1, ...be(v, 2));
  else if (v >= -2147483648n) out.push(0xd2, ...be(v, 4));
  else out.push(0xd3, ...be(v, 8));
}

function be(v, n) { // the low n bytes of the BigInt v, big-endian
  const out = [];
  for (let i = n - 1; i >= 0; i--) out.push(Number((BigInt.asUintN(64, v) >> BigInt(8 * i)) & 0xffn));
  return out;
}

function arrayHeader(out, n) {
  if (n < 16) out.push(0x90 | n);
  else if (n < 65536) out.push(0xdc, n >> 8, n & 0xff);
  else out.push(0xdd, ...be(BigInt(n), 4));
}

/** What pack(x, { bin }) must write, from the msgpack spec. */
export function referencePack(kind, x, bin = true) {
  const out = [];
  if (kind.form === 'bin' && bin) {
    const n = x.length;
    if (n < 256) out.push(0xc4, n);
    else if (n < 65536) out.push(0xc5, n >> 8, n & 0xff);
    else out.push(0xc6, ...be(BigInt(n), 4));
    return Uint8Array.from([...out, ...x]);
  }
  arrayHeader(out, x.length);
  const bytes = raw(x);
  for (let i = 0; i < x.length; i++) {
    if (kind.form === 'f32' || kind.form === 'f64') {
      out.push(kind.form === 'f32' ? 0xca : 0xcb);
      for (let b = kind.bytes - 1; b >= 0; b--) out.push(bytes[i * kind.bytes + b]); // little-endian in, big-endian out
    } else {
      writeInt(out, BigInt(x[i]));
    }
  }
  return Uint8Array.from(out);
}

/**
 * float16 bits (a Uint16Array) as the Float32Array of the same values, by
 * IEEE 754's definitions: a value exactly; a NaN with its sign, quiet bit and
 * payload at the top of the float32 fraction (written as bits).
 */
function halfBitsToF32(bits) {
  const out = new Float32Array(bits.length);
  const words = new Uint32Array(out.buffer);
  bits.forEach((h, i) => {
    const sign = h & 0x8000 ? -1 : 1;
    const e = (h >> 10) & 0x1f;
    const f = h & 0x3ff;
    if (e === 0x1f && f !== 0) words[i] = (h & 0x8000 ? 0x80000000 : 0) + 0x7f800000 + f * 8192;
    else if (e === 0x1f) out[i] = sign * Infinity;
    else out[i] = e === 0 ? sign * f * 2 ** -24 : sign * (1 + f / 1024) * 2 ** (e - 15);
  });
  return out;
}

/** BMPString content: big-endian UCS-2. */
const referenceBMP = (s) => Uint8Array.from([...s].flatMap((c) => [c.charCodeAt(0) >> 8, c.charCodeAt(0) & 0xff]));
const referenceAscii = (s) => Uint8Array.from(s, (c) => c.charCodeAt(0));

/** DER: tag, shortest definite length, content. */
function referenceDER(tag, content) {
  const n = content.length;
  const len = n < 128 ? [n] : n < 256 ? [0x81, n] : n < 65536 ? [0x82, n >> 8, n & 0xff] : [0x83, n >> 16, (n >> 8) & 0xff, n & 0xff];
  return Uint8Array.from([tag, ...len, ...content]);
}

// ---- what the engine is ------------------------------------------------------------------

async function engineFacts(fastmp) {
  const facts = {
    userAgent: globalThis.navigator?.userAgent ?? null,
    simd: fastmp.simdSupported(),
    backend: tryOr(() => fastmp.backend()),
    float16Array: typeof globalThis.Float16Array === 'function',
    mathF16round: typeof Math.f16round === 'function',
    compileStreaming: typeof WebAssembly.compileStreaming === 'function',
    buffer: typeof globalThis.Buffer === 'function',
    // The JS engine js/crossovers.js sees (which JS_BELOW `auto` uses): run.js checks it against the runtime.
    jsEngine: jsEngine(),
  };
  const proc = globalThis.process;
  if (proc?.versions) facts.versions = { node: proc.versions.node, v8: proc.versions.v8, bun: proc.versions.bun };
  // What fastmp writes for a Float16Array (issue 14 item 3), recorded per engine in results.json.
  if (facts.float16Array) {
    const half = new globalThis.Float16Array([1.5, -2, 65504]);
    facts.packFloat16 = ((r) => (r instanceof Uint8Array ? hex(r) : r))(tryOr(() => fastmp.pack(half)));
    facts.encodeFloat16 = ((r) => (r instanceof Uint8Array ? hex(r) : r))(tryOr(() => fastmp.encode({ h: half })));
  }
  return facts;
}

function tryOr(fn) {
  try {
    return fn();
  } catch (e) {
    return `${e?.name}: ${e?.code ?? e?.message}`;
  }
}

// ---- the corpus: every output, by name ------------------------------------------------------

/** The message the codec corpus encodes: every msgpack type, typed arrays inside. */
function message() {
  return {
    id: 7,
    name: 'fastmp ✓ 日本',
    ok: true,
    no: false,
    none: null,
    ints: [0, 127, 128, -32, -33, 255, 256, 65535, 65536, -32769, 2 ** 32, -(2 ** 31) - 1, 2 ** 53 - 1],
    floats: [0.5, -0, 1e300, Math.PI, -1.25e-310, Infinity],
    long: 'x'.repeat(300) + 'é'.repeat(40),
    when: new Date(Date.UTC(2024, 0, 2, 3, 4, 5, 678)),
    before: new Date(-1),
    far: new Date(Date.UTC(2500, 5, 6)),
    blob: sample(KIND.Uint8Array, 300, 11),
    nested: { a: [1, [2, [3, { deep: 'yes' }]]], m: { '': 0, 'ключ': 1 } },
    v: sample(KIND.Float32Array, 37, 12),
    d: sample(KIND.Float64Array, 16, 13),
    i: sample(KIND.Int32Array, 16, 14),
    s: sample(KIND.Int16Array, 16, 15),
    u: sample(KIND.Uint32Array, 33, 16),
    b: sample(KIND.BigInt64Array, 5, 17),
  };
}

export const SHAPE = { v: Float32Array, d: Float64Array, i: Int32Array, s: Int16Array, u: Uint32Array, b: BigInt64Array };

/** The corpus: [name, bytes] for every deterministic input, as `api` produces it. */
export function corpusParts(api) {
  const parts = [];
  const add = (name, bytes) => parts.push([name, bytes]);
  const errors = (name, list) => add(name, utf8(JSON.stringify(list.map(caughtName))));

  // Typed arrays: pack, and unpack into every float target (floats narrowed or widened, ints rounded).
  KINDS.forEach((kind, k) => {
    for (const n of SIZES) {
      const x = sample(kind, n, 1000 * k + n + 1);
      const packed = api.pack(x);
      add(`pack ${kind.name} ${n}`, packed);
      if (kind.form === 'bin') add(`pack ${kind.name} ${n} bin:false`, api.pack(x, { bin: false }));
      const asArray = kind.form === 'bin' ? api.pack(x, { bin: false }) : packed;
      add(`unpack ${kind.name} ${n} as Float32Array`, raw(api.unpack(asArray, Float32Array)));
      add(`unpack ${kind.name} ${n} as Float64Array`, raw(api.unpack(asArray, Float64Array)));
    }
  });
  // Integral floats into integer arrays.
  const integral = Float64Array.from({ length: 100 }, (_, i) => (i % 2 ? -1 : 1) * Math.floor(1.7 ** (i % 40)));
  add('unpack integral floats as Int32Array', raw(api.unpack(api.pack(integral), Int32Array, { integralFloats: true })));
  add('unpack integral floats as BigInt64Array', raw(api.unpack(api.pack(integral), BigInt64Array, { integralFloats: true })));
  // Booleans.
  for (const n of SIZES) {
    const bits = sample(KIND.Uint8Array, n, 77 + n).map((b) => (b & 1 ? b : 0));
    const packed = api.packBool(bits);
    add(`packBool ${n}`, packed);
    add(`unpackBool ${n}`, api.unpackBool(packed));
  }
  // Strings and DER.
  for (const n of SIZES) {
    const s = text('bmp', n, 500 + n);
    const bmp = api.encodeBMP(s);
    add(`encodeBMP ${n}`, bmp);
    add(`decodeBMPToUint16 ${n}`, raw(api.decodeBMPToUint16(bmp)));
    add(`writeBMPString ${n}`, api.writeBMPString(s));
    const ia5 = text('ia5', n, 600 + n);
    add(`encodeIA5 ${n}`, api.encodeIA5(ia5));
    add(`writeIA5String ${n}`, api.writeIA5String(ia5));
    const visible = text('visible', n, 700 + n);
    add(`encodeVisible ${n}`, api.encodeVisible(visible));
    add(`writeVisibleString ${n}`, api.writeVisibleString(visible));
    add(`decodeVisibleToUint16 ${n}`, raw(api.decodeVisibleToUint16(api.encodeVisible(visible))));
  }
  // Errors: code, index, offset (path, needed) of each.
  const floats = api.pack(sample(KIND.Float32Array, 4096, 9));
  floats[3 + 5 * 3000] = 0xc0; // element 3000, inside a SIMD block, is nil
  const bmp = api.encodeBMP('y'.repeat(4096));
  bmp[2 * 3001] = 0xdc; // char 3001 a low surrogate
  const u8 = (...b) => Uint8Array.from(b);
  errors('unpack errors', [
    () => api.unpack(u8(0xc0), Float32Array),
    () => api.unpack(u8(), Float32Array),
    () => api.unpack(u8(0x93, 1, 0xc0, 2), Float64Array),
    () => api.unpack(u8(0xdc, 0, 16, 1, 1, 1), Float32Array),
    () => api.unpack(u8(0x92, 0xca, 0, 0), Float32Array),
    () => api.unpack(u8(0x91, 1, 0), Float32Array),
    () => api.unpack(u8(0x91, 0xcd, 1, 0), Int8Array),
    () => api.unpack(u8(0x91, 0xca, 0x3f, 0xc0, 0, 0), Int32Array),
    () => api.unpack(u8(0x92, 0xcf, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 1), BigInt64Array),
    () => api.unpack(floats, Float32Array),
    () => api.unpackBool(u8(0x92, 0xc3, 1)),
  ]);
  errors('string errors', [
    () => api.encodeBMP('a'.repeat(40) + '\uDC00' + 'b'.repeat(60)),
    () => api.encodeBMP('a'.repeat(3000) + '\uD800'),
    () => api.decodeBMP(bmp),
    () => api.decodeBMP(u8(0, 0x41, 0)),
    () => api.encodeIA5('a'.repeat(50) + 'é' + 'a'.repeat(50)),
    () => api.encodeVisible('x'.repeat(70) + '\u007f'),
    () => api.decodeIA5(u8(...Array(33).fill(0x41), 0x80)),
    () => api.decodeVisible(u8(...Array(20).fill(0x41), 0x1f, 0x41)),
    () => api.readBMPString(u8(0x1e, 0x81, 2, 0, 0x41)),
    () => api.readBMPString(u8(0x1e, 0x80, 0, 0x41)),
    () => api.readBMPString(u8(0x3e, 2, 0, 0x41)),
    () => api.readBMPString(u8(0x16, 2, 0, 0x41)),
    () => api.readBMPString(u8(0x1e, 4, 0, 0x41)),
    () => api.readIA5String(u8(0x16, 0x84, 0, 0, 0, 1, 0x41)),
  ]);
  // The message codec.
  const msg = message();
  add('encode message', api.encode(msg));
  add("encode message typedArrays:'ext'", api.encode(msg, { typedArrays: 'ext' }));
  add("encode message typedArrays:'bin'", api.encode(msg, { typedArrays: 'bin' }));
  add('encode message sortKeys forceFloat32', api.encode(msg, { sortKeys: true, forceFloat32: true }));
  add('encode message useBigInt64', api.encode({ ...msg, big: [2n ** 63n - 1n, -(2n ** 63n), 2n ** 64n - 1n, 5n] }, { useBigInt64: true }));
  add('encode decoded message', api.encode(api.decode(api.encode(msg), { shape: SHAPE })));
  add('encode decoded ext message', api.encode(api.decode(api.encode(msg, { typedArrays: 'ext' }))));
  errors('codec errors', [
    () => api.decode(u8(0xc1)),
    () => api.decode(u8(0x92, 1)),
    () => api.decode(u8(1, 2)),
    () => api.decode(api.encode({ a: { v: 'x' } }), { shape: { a: { v: Float32Array } } }),
    () => api.decode(api.encode({ v: [1, 2, 300] }), { shape: { v: Int8Array } }),
    () => api.decode(u8(0xa2, 0xff, 0x41)),
    () => api.decode(u8(0x81, 0xc0, 1)),
    () => api.encode({ f: () => 1 }),
    () => api.encode({ big: 2n ** 64n }, { useBigInt64: true }),
  ]);
  return parts;
}

async function digest(bytes) {
  return hex(new Uint8Array(await crypto.subtle.digest('SHA-256', bytes)));
}

// ---- the checks -------------------------------------------------------------------

/**
 * Runs every check; resolves to { facts, checks, corpus }.
 * corpus: { sha256 of all parts in order, parts: { name: sha256 }, bytes }.
 */
export async function run(fastmp) {
  const checks = [];
  const check = async (name, fn) => {
    try {
      const message = await fn();
      checks.push({ name, pass: true, message: message ?? '' });
    } catch (e) {
      checks.push({ name, pass: false, message: `${e?.name ?? 'Error'}: ${e?.message ?? e}` });
    }
  };
  const assert = (ok, message) => {
    if (!ok) throw new Error(message);
  };
  const equal = (got, want, what) => {
    const [a, b] = [JSON.stringify(got), JSON.stringify(want)];
    assert(a === b, `${what}: got ${a}, want ${b}`);
  };

  // Loader and SIMD detection.
  const simd = fastmp.simdSupported();
  const expected = simd ? 'simd' : 'scalar';
  let initBackend;
  await check('loader: init() picks SIMD where simdSupported()', async () => {
    assert(typeof simd === 'boolean', `simdSupported() is ${typeof simd}`);
    initBackend = await fastmp.init();
    equal([initBackend, fastmp.backend()], [expected, expected], 'init() and backend()');
    return `simdSupported() ${simd}, backend ${initBackend}`;
  });

  // The instances every output is compared across: forced builds and pure JS.
  const instances = [['default', fastmp]];
  await check('loader: createFastmp({ backend: scalar }) runs the scalar build', async () => {
    const fm = await fastmp.createFastmp({ backend: 'scalar' });
    equal(fm.backend(), 'scalar', 'backend()');
    instances.push(['scalar', fm]);
  });
  await check('loader: createFastmp({ backend: simd }) runs SIMD, or is refused without it', async () => {
    if (!simd) {
      const refused = await fastmp.createFastmp({ backend: 'simd' }).then(() => 'loaded', (e) => e.message);
      assert(/SIMD128/.test(refused), `an engine without SIMD: ${refused}`);
      return 'no SIMD here: refused';
    }
    const fm = await fastmp.createFastmp({ backend: 'simd' });
    equal(fm.backend(), 'simd', 'backend()');
    instances.push(['simd', fm]);
    return undefined;
  });
  await check('loader: createFastmp({ pureJs }) makes instances that run in JS only / wasm only', async () => {
    const always = await fastmp.createFastmp({ pureJs: 'always' });
    const never = await fastmp.createFastmp({ pureJs: 'never', backend: 'scalar' });
    instances.push(['pureJs always', always], ['pureJs never (scalar)', never]);
    return `pureJs always: backend() ${always.backend()}`;
  });
  await check("crossovers: 'auto' runs pure JS below this engine's JS_BELOW (js/crossovers.js) and wasm from it", async () => {
    const engine = jsEngine();
    const table = jsBelowFor(engine);
    const maker = await fastmp.createFastmp({ pureJs: 'always' }); // the messages, made outside the probed memory
    // Fresh values every call: a probe must not find what an earlier call left in memory.
    const next = rng(14);
    const content = { Float32Array: () => 1e6 + next() / 2 ** 22, Float64Array: () => 1e12 + next() / 2 ** 12 };
    let probes = 0;
    for (const backend of simd ? ['simd', 'scalar'] : ['scalar']) {
      const fm = await fastmp.createFastmp({ backend, pureJs: 'auto' });
      for (const type of Object.keys(content)) {
        for (const op of ['pack', 'unpack']) {
          const from = table[backend][op][KIND_OF_NAME.get(type).c];
          for (const n of [from - 1, from].filter((k) => k >= 1)) {
            const x = globalThis[type].from({ length: n }, content[type]);
            const message = maker.pack(x);
            // The wasm path copies a JS-heap input into wasm memory (and writes there); pure JS never touches it.
            const memory = new Uint8Array(fm.packView(new globalThis[type](0)).buffer);
            if (op === 'pack') equal([...fm.pack(x)], [...message], `${backend} pack ${type}[${n}]`);
            else equal([...fm.unpack(message, globalThis[type])], [...x], `${backend} unpack ${type}[${n}]`);
            const seen = indexOfBytes(memory, message.subarray(message.length - 8)) >= 0;
            assert(seen === (n >= from), `${backend} ${op} ${type}[${n}], JS_BELOW ${from} on ${engine}: ran ${seen ? 'wasm' : 'pure JS'}`);
            probes++;
          }
        }
      }
    }
    return `JS engine ${engine}, ${probes} probes`;
  });
  await check('loader: createFastmpSync() and modules given as { wasm }', async () => {
    const urlOf = (module) => new URL(`../../dist/fastmp-${module}-scalar.wasm`, import.meta.url);
    if (urlOf('pack').protocol === 'file:') {
      // A server runtime: the sibling files, read synchronously on first need.
      equal(fastmp.createFastmpSync().backend(), expected, 'createFastmpSync()');
      equal(fastmp.createFastmpSync({ backend: 'scalar' }).backend(), 'scalar', "createFastmpSync({ backend: 'scalar' })");
      return 'server runtime: the sibling files, read synchronously';
    }
    // A page: the bytes fetched, compiled here, and the Response itself.
    const bytesOf = async (module) => new Uint8Array(await (await fetch(urlOf(module))).arrayBuffer());
    const [pack, unpack, strings] = await Promise.all(['pack', 'unpack', 'strings'].map(bytesOf));
    const sync = fastmp.createFastmpSync({ wasm: [new WebAssembly.Module(pack), new WebAssembly.Module(unpack)] });
    equal(sync.backend(), 'scalar', 'createFastmpSync({ wasm: [Module, Module] })');
    const floats = Float32Array.from({ length: 4096 }, (_, i) => i / 7);
    equal([...sync.unpack(sync.pack(floats), Float32Array)], [...floats], 'createFastmpSync({ wasm }) pack / unpack');
    // The string module was not given: its calls run in pure JS until it is fetched, with the same results.
    const text = 'Zoë €'.repeat(100);
    equal(sync.decodeBMP(sync.encodeBMP(text)), text, 'encodeBMP() without the string module');
    const both = fastmp.createFastmpSync({ wasm: [pack, unpack], stringsWasm: strings });
    equal(both.decodeBMP(both.encodeBMP(text)), text, 'createFastmpSync({ wasm, stringsWasm }) strings');
    equal((await fastmp.createFastmp({ wasm: pack })).backend(), 'scalar', 'createFastmp({ wasm: bytes })');
    equal((await fastmp.createFastmp({ wasm: fetch(urlOf('unpack')) })).backend(), 'scalar', 'createFastmp({ wasm: fetch() })');
    const refused = await fastmp.createFastmp({ wasm: pack, backend: 'simd' }).then(() => 'loaded', (e) => e.message);
    assert(/scalar build/.test(refused), `the scalar module as { backend: 'simd' }: ${refused}`);
    return 'page: Modules, bytes and a fetch() Response';
  });
  await check('loader: bad options are TypeErrors', async () => {
    const got = await fastmp.createFastmp({ backend: 'fast' }).then(() => 'loaded', (e) => e.name);
    equal(got, 'TypeError', "createFastmp({ backend: 'fast' })");
  });

  // Typed arrays: each kind, each size, against the reference writer; round trips on every instance.
  for (const kind of KINDS) {
    await check(`typed arrays: ${kind.name} pack / unpack (sizes ${SIZES.join(', ')})`, () => {
      for (const n of SIZES) {
        const x = sample(kind, n, 31 + n);
        const want = referencePack(kind, x);
        const wantArray = kind.form === 'bin' ? referencePack(kind, x, false) : want;
        for (const [label, api] of instances) {
          const got = api.pack(x);
          assert(sameBytes(got, want), `${label} pack ${n}: ${firstDifference(got, want)}`);
          const view = api.packView(x);
          assert(sameBytes(view, want), `${label} packView ${n}: ${firstDifference(view, want)}`);
          const back = api.unpack(got, kind.Type);
          assert(back instanceof kind.Type && sameBytes(raw(back), raw(x)), `${label} unpack ${n}: ${firstDifference(raw(back), raw(x))}`);
          if (kind.form === 'bin') {
            const array = api.pack(x, { bin: false });
            assert(sameBytes(array, wantArray), `${label} pack bin:false ${n}: ${firstDifference(array, wantArray)}`);
            assert(sameBytes(raw(api.unpack(array, kind.Type)), raw(x)), `${label} unpack of bin:false ${n}`);
          }
          const twice = concat([wantArray, wantArray]);
          const first = api.unpackFrom(twice, kind.Type, 0);
          const second = api.unpackFrom(twice, kind.Type, first.end);
          assert(second.end === twice.length && sameBytes(raw(second.value), raw(x)), `${label} unpackFrom ${n}`);
        }
      }
    });
  }
  await check('typed arrays: floats narrowed and widened, integers rounded, the same on every instance', () => {
    for (const kind of KINDS) {
      const x = sample(kind, 4096, 99);
      const packed = kind.form === 'bin' ? referencePack(kind, x, false) : referencePack(kind, x);
      const [, base] = instances[0];
      const w32 = raw(base.unpack(packed, Float32Array));
      const w64 = raw(base.unpack(packed, Float64Array));
      for (const [label, api] of instances.slice(1)) {
        assert(sameBytes(raw(api.unpack(packed, Float32Array)), w32), `${label}: ${kind.name} -> Float32Array differs from the default instance`);
        assert(sameBytes(raw(api.unpack(packed, Float64Array)), w64), `${label}: ${kind.name} -> Float64Array differs`);
      }
      if (kind.form !== 'f32' && kind.form !== 'f64') {
        const f64 = new Float64Array(w64.buffer);
        for (let i = 0; i < x.length; i++) {
          assert(Object.is(f64[i], Number(x[i])), `${kind.name}[${i}] ${x[i]} -> Float64Array ${f64[i]}`);
        }
      }
    }
  });
  await check('typed arrays: packBool / unpackBool', () => {
    for (const n of SIZES) {
      const bits = sample(KIND.Uint8Array, n, 5 + n);
      const want = Uint8Array.from([...(n < 16 ? [0x90 | n] : [0xdc, n >> 8, n & 0xff]), ...Array.from(bits, (b) => (b ? 0xc3 : 0xc2))]);
      for (const [label, api] of instances) {
        const got = api.packBool(bits);
        assert(sameBytes(got, want), `${label} packBool ${n}: ${firstDifference(got, want)}`);
        assert(sameBytes(api.unpackBool(got), bits.map((b) => (b ? 1 : 0))), `${label} unpackBool ${n}`);
        assert(sameBytes(api.packBool(Array.from(bits, Boolean)), want), `${label} packBool of booleans ${n}`);
      }
    }
  });
  await check('typed arrays: alloc() / pack() / free(), then FREED', () => {
    for (const [label, api] of instances) {
      const x = api.alloc(Float32Array, 1000);
      const want = sample(KIND.Float32Array, 1000, 3);
      x.set(want);
      assert(sameBytes(api.pack(x), referencePack(KIND.Float32Array, want)), `${label} pack of an alloc() array`);
      api.free(x);
      equal(caught(() => api.pack(x))[0], 'FREED', `${label} pack after free()`);
    }
  });

  // Strings.
  for (const [alphabet, enc, dec, dec16, write, read, tag] of [
    ['bmp', 'encodeBMP', 'decodeBMP', 'decodeBMPToUint16', 'writeBMPString', 'readBMPString', 0x1e],
    ['ia5', 'encodeIA5', 'decodeIA5', 'decodeIA5ToUint16', 'writeIA5String', 'readIA5String', 0x16],
    ['visible', 'encodeVisible', 'decodeVisible', 'decodeVisibleToUint16', 'writeVisibleString', 'readVisibleString', 0x1a],
  ]) {
    await check(`strings: ${enc} / ${dec} / ${write} / ${read}`, () => {
      for (const n of SIZES) {
        const s = text(alphabet, n, 40 + n);
        const want = alphabet === 'bmp' ? referenceBMP(s) : referenceAscii(s);
        const codes = Uint16Array.from(s, (c) => c.charCodeAt(0));
        for (const [label, api] of instances) {
          const got = api[enc](s);
          assert(sameBytes(got, want), `${label} ${enc} ${n}: ${firstDifference(got, want)}`);
          assert(sameBytes(api[enc](codes), want), `${label} ${enc} of a Uint16Array ${n}`);
          assert(api[dec](got) === s, `${label} ${dec} ${n}`);
          assert(sameBytes(raw(api[dec16](got)), raw(codes)), `${label} ${dec16} ${n}`);
          const der = api[write](s);
          assert(sameBytes(der, referenceDER(tag, want)), `${label} ${write} ${n}: ${firstDifference(der, referenceDER(tag, want))}`);
          const at = concat([Uint8Array.of(0xaa, 0xbb), der]);
          equal(api[read](at, 2), { value: s, end: at.length }, `${label} ${read} ${n}`);
        }
      }
    });
  }
  await check('strings: a TextDecoder agrees with encodeBMP', () => {
    const s = text('bmp', 4096, 8);
    equal(new TextDecoder('utf-16be', { ignoreBOM: true }).decode(fastmp.encodeBMP(s)) === s, true, 'utf-16be decode');
  });

  // Errors: exact codes, indexes and offsets, the same on every instance.
  const errorCases = [
    ['unpack: nil', (a) => a.unpack(Uint8Array.of(0xc0), Float32Array), ['NOT_ARRAY', -1, 0]],
    ['unpack: nil as element 1', (a) => a.unpack(Uint8Array.of(0x93, 1, 0xc0, 2), Float64Array), ['TYPE', 1, 2]],
    ['unpack: 16 claimed, 3 follow', (a) => a.unpack(Uint8Array.of(0xdc, 0, 16, 1, 1, 1), Float32Array), ['LENGTH', -1, 0, 19]],
    ['unpack: a float32 cut short', (a) => a.unpack(Uint8Array.of(0x92, 0xca, 0, 0), Float32Array), ['TRUNCATED', 0, 1, 6]],
    ['unpack: trailing byte', (a) => a.unpack(Uint8Array.of(0x91, 1, 0), Float32Array), ['TRAILING', -1, 2]],
    ['unpack: 256 into Int8Array', (a) => a.unpack(Uint8Array.of(0x91, 0xcd, 1, 0), Int8Array), ['RANGE', 0, 1]],
    ['unpack: 1.5 into Int32Array', (a) => a.unpack(Uint8Array.of(0x91, 0xca, 0x3f, 0xc0, 0, 0), Int32Array), ['TYPE', 0, 1]],
    ['unpack: nil at element 3000 of 4096 floats', (a) => {
      const bytes = referencePack(KIND.Float32Array, sample(KIND.Float32Array, 4096, 9));
      bytes[3 + 5 * 3000] = 0xc0;
      return a.unpack(bytes, Float32Array);
    }, ['TYPE', 3000, 15003]],
    ['encodeBMP: a lone surrogate at char 40', (a) => a.encodeBMP('a'.repeat(40) + '\uDC00' + 'b'.repeat(60)), ['SURROGATE', 40, 80]],
    ['encodeBMP: a lone surrogate at char 3000', (a) => a.encodeBMP('a'.repeat(3000) + '\uD800' + 'b'.repeat(100)), ['SURROGATE', 3000, 6000]],
    ['decodeBMP: odd length', (a) => a.decodeBMP(Uint8Array.of(0, 0x41, 0)), ['ODD_LENGTH', 1, 2]],
    ['decodeBMP: a surrogate at char 70', (a) => {
      const b = referenceBMP('y'.repeat(100));
      b[140] = 0xdb;
      return a.decodeBMP(b);
    }, ['SURROGATE', 70, 140]],
    ['encodeIA5: é at char 50', (a) => a.encodeIA5('a'.repeat(50) + 'é' + 'a'.repeat(50)), ['RANGE', 50, 50]],
    ['encodeVisible: DEL at char 70', (a) => a.encodeVisible('x'.repeat(70) + '\u007f'), ['RANGE', 70, 70]],
    ['decodeVisible: 0x7f at byte 90', (a) => {
      const b = referenceAscii('v'.repeat(100));
      b[90] = 0x7f;
      return a.decodeVisible(b);
    }, ['RANGE', 90, 90]],
    ['readBMPString: non-minimal length', (a) => a.readBMPString(Uint8Array.of(0x1e, 0x81, 2, 0, 0x41)), ['DER_NONMINIMAL', -1, 1]],
    ['readBMPString: indefinite length', (a) => a.readBMPString(Uint8Array.of(0x1e, 0x80, 0, 0x41)), ['DER_INDEFINITE', -1, 1]],
    ['readBMPString: constructed', (a) => a.readBMPString(Uint8Array.of(0x3e, 2, 0, 0x41)), ['DER_CONSTRUCTED', -1, 0]],
    ['readBMPString: another tag', (a) => a.readBMPString(Uint8Array.of(0x16, 2, 0, 0x41)), ['DER_TAG', -1, 0]],
    ['readBMPString: content cut short', (a) => a.readBMPString(Uint8Array.of(0x1e, 4, 0, 0x41)), ['TRUNCATED', -1, 1]],
    ['decode: 0xc1', (a) => a.decode(Uint8Array.of(0xc1)), ['TAG', -1, 0, '$']],
    ['decode: an array cut short', (a) => a.decode(Uint8Array.of(0x92, 1)), ['LENGTH', -1, 0, '$', 3]],
    ['decode: trailing byte', (a) => a.decode(Uint8Array.of(1, 2)), ['TRAILING', -1, 1, '$']],
    ['decode: a str where the shape says Float32Array', (a) => a.decode(a.encode({ a: { v: 'x' } }), { shape: { a: { v: Float32Array } } }), ['TYPE', -1, 6, '$.a.v']],
    ['decode: 300 where the shape says Int8Array', (a) => a.decode(a.encode({ v: [1, 2, 300] }), { shape: { v: Int8Array } }), ['RANGE', 2, 6, '$.v']],
  ];
  await check(`errors: FastmpError code / index / offset (${errorCases.length} inputs, every instance)`, () => {
    for (const [label, api] of instances) {
      for (const [what, fn, want] of errorCases) equal(caught(() => fn(api)), want, `${label}, ${what}`);
    }
    let e;
    try {
      fastmp.unpack(Uint8Array.of(0x92, 1, 0xc0), Float32Array);
    } catch (err) {
      e = err;
    }
    assert(e instanceof fastmp.FastmpError && e instanceof Error && e.name === 'FastmpError', 'a FastmpError, an Error');
    assert(/element 1 at byte 2 is not a number: found 0xc0 \(nil\)/.test(e.message), `message: ${e.message}`);
    return undefined;
  });
  await check('errors: misuse is a TypeError, not a FastmpError', () => {
    equal(caughtName(() => fastmp.pack([1, 2, 3])), ['TypeError'], 'pack of an Array');
    equal(caughtName(() => fastmp.unpack(Uint8Array.of(0x90), Array)), ['TypeError'], 'unpack into Array');
    equal(caughtName(() => fastmp.encode({}, { nope: 1 })), ['TypeError'], 'an unknown option');
  });

  // The message codec.
  await check('codec: a message with typed-array fields, decoded by shape', () => {
    const msg = message();
    for (const [label, api] of instances) {
      const bytes = api.encode(msg);
      const got = api.decode(bytes, { shape: SHAPE });
      for (const key of Object.keys(SHAPE)) {
        assert(got[key] instanceof SHAPE[key] && sameBytes(raw(got[key]), raw(msg[key])), `${label} ${key}`);
      }
      equal(got.v.length, 37, `${label} v.length`);
      assert(got.when instanceof Date && got.when.getTime() === msg.when.getTime(), `${label} when`);
      assert(got.before.getTime() === -1 && got.far.getTime() === msg.far.getTime(), `${label} dates`);
      assert(got.blob instanceof Uint8Array && sameBytes(got.blob, msg.blob), `${label} blob`);
      equal([got.id, got.name, got.ok, got.no, got.none, got.ints, got.long, got.nested], [msg.id, msg.name, true, false, null, msg.ints, msg.long, msg.nested], `${label} plain fields`);
      // -0 is an integer 0 on the wire, as @msgpack/msgpack writes it.
      equal(got.floats.map(String), ['0.5', '0', '1e+300', String(Math.PI), '-1.25e-310', 'Infinity'], `${label} floats`);
      const plain = api.decode(bytes);
      assert(Array.isArray(plain.v) && plain.v.length === 37, `${label}: without a shape, v is an array`);
      // The typed arrays are written as pack(x, { bin: false }) writes them.
      const v = referencePack(KIND.Float32Array, msg.v);
      assert(hex(bytes).includes(hex(v)), `${label}: v as pack() writes it`);
    }
  });
  await check("codec: typedArrays: 'ext' decodes back to typed arrays without a shape", () => {
    const msg = message();
    for (const [label, api] of instances) {
      const got = api.decode(api.encode(msg, { typedArrays: 'ext' }));
      for (const key of Object.keys(SHAPE)) {
        assert(got[key] instanceof SHAPE[key] && sameBytes(raw(got[key]), raw(msg[key])), `${label} ${key}`);
      }
      const shaped = api.decode(api.encode(msg, { typedArrays: 'bin' }), { shape: SHAPE });
      for (const key of Object.keys(SHAPE)) {
        assert(shaped[key] instanceof SHAPE[key] && sameBytes(raw(shaped[key]), raw(msg[key])), `${label} bin ${key}`);
      }
    }
  });
  await check('codec: Encoder / Decoder reuse, encodeInto, decodeMulti, useBigInt64', () => {
    const msg = message();
    for (const [label, api] of instances) {
      const once = api.encode(msg);
      const encoder = new api.Encoder();
      assert(sameBytes(encoder.encode(msg), once) && sameBytes(encoder.encode(msg), once), `${label} Encoder`);
      assert(sameBytes(encoder.encodeSharedRef(msg), once), `${label} encodeSharedRef`);
      const target = new Uint8Array(once.length + 10);
      equal(api.encodeInto(msg, target, 3), once.length + 3, `${label} encodeInto end`);
      assert(sameBytes(target.subarray(3, 3 + once.length), once), `${label} encodeInto bytes`);
      const decoder = new api.Decoder({ shape: SHAPE });
      const values = [...api.decodeMulti(concat([once, api.encode(1), api.encode('two')]))];
      equal([values.length, values[1], values[2]], [3, 1, 'two'], `${label} decodeMulti`);
      assert(sameBytes(raw(decoder.decode(once).v), raw(msg.v)), `${label} Decoder`);
      const big = { a: 2n ** 63n - 1n, b: -(2n ** 63n), c: 2n ** 64n - 1n };
      const back = api.decode(api.encode(big, { useBigInt64: true }), { useBigInt64: true });
      assert(back.a === big.a && back.b === big.b && back.c === big.c, `${label} useBigInt64`);
    }
  });
  await check('codec: decodeAsync / decodeArrayStream from a web ReadableStream', async () => {
    const msg = message();
    const bytes = fastmp.encode(msg);
    const chunks = (b, size) => new ReadableStream({
      start(controller) {
        for (let i = 0; i < b.length; i += size) controller.enqueue(b.slice(i, i + size));
        controller.close();
      },
    });
    const got = await fastmp.decodeAsync(chunks(bytes, 7), { shape: SHAPE });
    assert(sameBytes(raw(got.v), raw(msg.v)) && got.name === msg.name, 'decodeAsync');
    const items = [];
    for await (const item of fastmp.decodeArrayStream(chunks(fastmp.encode([1, 'a', msg.v]), 3))) items.push(item);
    equal(items.slice(0, 2), [1, 'a'], 'decodeArrayStream');
    equal(items[2].length, 37, 'decodeArrayStream third element');
  });

  // Float16Array (issue 14 item 3), where the engine has it: float32 elements
  // out, one rounding (Math.f16round) in. Checked against bytes known without
  // fastmp (halfBitsToF32 below), so every engine that has Float16Array is held
  // to the same bytes; the shared corpus stays what Node 20 can produce.
  if (typeof globalThis.Float16Array === 'function') {
    const Half = globalThis.Float16Array;
    const VALUES = [1.5, -2, 65504, -0, Infinity, NaN, 6.1e-5, 0.1];
    const PACKED = '98ca3fc00000cac0000000ca477fe000ca80000000ca7f800000ca7fc00000ca387fc000ca3dccc000';
    const halfBits = (x) => new Uint16Array(x.buffer, x.byteOffset, x.length);
    const allBits = Uint16Array.from({ length: 65536 }, (_, i) => i);
    const quieted = (h) => ((h & 0x7c00) === 0x7c00 && (h & 0x3ff) !== 0 ? h | 0x200 : h);
    await check('Float16Array: pack / packView write float32 elements, the exact widening (NaN payloads kept)', () => {
      const h = new Half(VALUES);
      for (const [label, api] of instances) {
        equal(hex(api.pack(h)), PACKED, `${label} pack`);
        equal(hex(api.pack(h)), hex(api.pack(Float32Array.from(h))), `${label} pack vs pack(Float32Array.from(x))`);
        equal(hex(api.packView(h)), PACKED, `${label} packView`);
        equal(hex(api.pack(h.subarray(2, 4))), '92ca477fe000ca80000000', `${label} pack of a subarray`);
        const all = api.pack(new Half(allBits.buffer));
        const want = referencePack(KIND.Float32Array, halfBitsToF32(allBits));
        assert(sameBytes(all, want), `${label} pack of all 65536 float16 values: ${firstDifference(all, want)}`);
      }
      return `${PACKED.slice(0, 22)}...`;
    });
    await check('Float16Array: unpack / unpackFrom round once to float16 (Math.f16round), bit for bit back', () => {
      const r = rng(16);
      const doubles = Float64Array.from({ length: 4096 }, (_, i) => ((r() / 4294967296) * 2 - 1) * (i % 2 ? 70000 : 2 ** ((i % 40) - 26)));
      doubles.set([0.1, 65519.99, 65520, -65520, 2 ** -25, 2 ** -25 + 2 ** -60, 1 + 2 ** -11, 1 + 3 * 2 ** -11, 5e-324, -0]);
      const packed = referencePack(KIND.Float64Array, doubles);
      const singles = Float32Array.from(doubles);
      for (const [label, api] of instances) {
        for (const [what, x, bytes] of [['float64', doubles, packed], ['float32', singles, referencePack(KIND.Float32Array, singles)]]) {
          const got = api.unpack(bytes, Half);
          assert(got instanceof Half && got.length === x.length, `${label} ${what}: a Float16Array of ${x.length}`);
          for (let i = 0; i < x.length; i++) assert(Object.is(got[i], Math.f16round(x[i])), `${label} ${what}[${i}] ${x[i]}: ${got[i]}, Math.f16round ${Math.f16round(x[i])}`);
        }
        equal(api.unpack(Uint8Array.of(0x91, 0xcb, 0x3f, 0xb9, 0x99, 0x99, 0x99, 0x99, 0x99, 0x9a), Half)[0], Math.f16round(0.1), `${label} float64 0.1`);
        const { value, end } = api.unpackFrom(Uint8Array.of(0xc0, 0x92, 0x01, 0xcd, 0xff, 0xf0), Half, 1);
        equal([Array.from(value, String), end], [['1', 'Infinity'], 6], `${label} unpackFrom of ints`);
        const back = halfBits(api.unpack(api.pack(new Half(allBits.buffer)), Half));
        for (let i = 0; i < 65536; i++) assert(back[i] === quieted(i), `${label} float16 0x${i.toString(16)} came back as 0x${back[i].toString(16)}`);
        const nans = new Float32Array(Uint32Array.of(0xffa5a5a5, 0x7f800001).buffer);
        equal(Array.from(halfBits(api.unpack(referencePack(KIND.Float32Array, nans), Half))), [0xff2d, 0x7e00], `${label} float32 NaNs`);
      }
      return `Math.f16round(0.1) = ${Math.f16round(0.1)}`;
    });
    await check("Float16Array: encode writes a Float32Array of the values ('array', 'ext') or its bytes ('bin'); decode by shape reads them", () => {
      const h = new Half(VALUES);
      for (const [label, api] of instances) {
        equal(hex(api.encode({ h })), hex(api.encode({ h: Float32Array.from(h) })), `${label} 'array'`);
        equal(hex(api.encode({ h })), `81a168${PACKED}`, `${label} 'array' bytes`);
        equal(hex(api.encode({ h }, { typedArrays: 'ext' })), hex(api.encode({ h: Float32Array.from(h) }, { typedArrays: 'ext' })), `${label} 'ext'`);
        equal(hex(api.encode({ h }, { typedArrays: 'bin' })), `81a168c410${hex(raw(h))}`, `${label} 'bin'`);
        for (const typedArrays of ['array', 'ext', 'bin']) {
          const got = api.decode(api.encode({ h, n: 2 }, { typedArrays }), { shape: { h: Half } });
          assert(got.h instanceof Half && sameBytes(raw(got.h), raw(h)) && got.n === 2, `${label} decode of '${typedArrays}' by shape`);
        }
        const d = api.decode(api.encode({ h: new Float64Array([0.1, 65520]) }), { shape: { h: Half } }).h;
        equal([d[0], d[1]].map(String), [String(Math.f16round(0.1)), 'Infinity'], `${label} float64 elements by shape`);
      }
    });
    await check('Float16Array: alloc() refuses it (no kernel reads float16); errors name it', () => {
      equal(caughtName(() => fastmp.alloc(Half, 4)), ['TypeError'], 'alloc(Float16Array)');
      const said = caught(() => fastmp.pack([1]))[0];
      assert(/BigUint64Array, Float16Array, not an Array$/.test(said), `pack of an Array: ${said}`);
    });
  } else {
    await check('Float16Array: none here; the API names none and refuses the missing constructor', () => {
      const said = caught(() => fastmp.pack([1]))[0];
      assert(/BigUint64Array, not an Array$/.test(said), `pack of an Array: ${said}`);
      equal(caughtName(() => fastmp.unpack(Uint8Array.of(0x90), globalThis.Float16Array)), ['TypeError'], 'unpack into undefined');
      equal(caughtName(() => fastmp.decode(Uint8Array.of(0x80), { shape: { h: globalThis.Float16Array } })), ['TypeError'], 'the shape { h: undefined }');
    });
  }

  // The corpus: the same bytes from every instance; digests of the default's.
  let corpus = null;
  await check('corpus: every instance produces the same bytes', async () => {
    const base = corpusParts(fastmp);
    for (const [label, api] of instances.slice(1)) {
      const other = corpusParts(api);
      equal(other.length, base.length, `${label} part count`);
      base.forEach(([name, bytes], i) => {
        assert(other[i][0] === name && sameBytes(other[i][1], bytes), `${label}, ${name}: ${firstDifference(other[i][1], bytes)}`);
      });
    }
    const parts = {};
    for (const [name, bytes] of base) parts[name] = await digest(bytes);
    const all = concat(base.map(([, b]) => b));
    corpus = { sha256: await digest(all), bytes: all.length, parts };
    return `${base.length} parts, ${all.length} bytes, across ${instances.map(([l]) => l).join(', ')}`;
  });

  return { facts: await engineFacts(fastmp), instances: instances.map(([l]) => l), checks, corpus };
}
