// helpers.js - test data and the drivers of the builds under test. Nothing
// here reuses fastmp's own encoder: expected bytes and values are computed
// independently, so a bug in fastmp cannot confirm itself.

import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { CODE_NAMES } from '../js/errors.js';
import { BOOL, KERNEL_KINDS } from '../js/kinds.js';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The sizes every round trip and parity test covers (issue 2). */
export const SIZES = [0, 1, 2, 3, 15, 16, 17, 31, 63, 64, 65, 65535, 65536, 1 << 20];

// ---- element types: js/kinds.js's ---------------------------------------------------

/** One kind per C element type, in js/kinds.js's order (the first of each `c`: Uint8Array for u8), then BOOL. */
export const C_KINDS = KERNEL_KINDS;

/** The element types by the C name the harness and the kernels give them: 'f32', ..., 'bool'. */
export const TYPE_NAMES = C_KINDS.map((k) => k.c);

const KIND_OF_C = new Map(C_KINDS.map((k) => [k.c, k]));

/** The kind of a C type name ('u8': Uint8Array's, 'bool': BOOL). */
export function kindOfC(c) {
  const kind = KIND_OF_C.get(c);
  if (!kind) throw new Error(`no element type ${c}: one of ${TYPE_NAMES}`);
  return kind;
}

// ---- deterministic randomness -------------------------------------------------

import { rng } from './rng.js';

export { rng };

// ---- special floats, as bit patterns ------------------------------------------

export const F32_SPECIAL_BITS = [
  0x7fc00000, // quiet NaN
  0xffc00000, // negative quiet NaN
  0x7f800001, // signalling NaN, smallest payload
  0x7fa5a5a5, // signalling NaN, odd payload
  0xffffffff, // negative NaN, all payload bits
  0x7fc12345, // quiet NaN with payload
  0x00000000, 0x80000000, // +0, -0
  0x7f800000, 0xff800000, // +Inf, -Inf
  0x00000001, 0x80000001, 0x007fffff, // subnormals: min, -min, max
  0x00800000, // min normal
  0x7f7fffff, 0xff7fffff, // max, -max
  0x3f800000, 0xbf800000, // 1, -1
];

export const F64_SPECIAL_BITS = [
  [0x7ff80000, 0], [0xfff80000, 0], [0x7ff00000, 1], [0x7ff4a5a5, 0xa5a5a5a5], [0xffffffff, 0xffffffff],
  [0x7ff80000, 0x12345678], [0x7ff00000, 0x20000000], // a NaN whose payload lies only below f32 precision
  [0, 0], [0x80000000, 0], [0x7ff00000, 0], [0xfff00000, 0],
  [0, 1], [0x80000000, 1], [0x000fffff, 0xffffffff], [0x00100000, 0],
  [0x7fefffff, 0xffffffff], [0xffefffff, 0xffffffff],
  [0x36a00000, 0], // 2^-149: the smallest f32 subnormal, as a double
  [0x36900000, 0], // 2^-150: halfway to zero, rounds to +0 in f32
  [0x47efffff, 0xe0000000], // f32 max, as a double
  [0x47efffff, 0xf0000000], // just past halfway above f32 max: rounds to Infinity
  [0x3ff00000, 0x10000000], // 1 + 2^-24 - 2^-...: a rounding tie region
];

/** A Float32Array of n random values (random bit patterns of every class), specials sprinkled in. */
export function randomF32(n, seed) {
  const r = rng(seed);
  const bits = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    const pick = r.int(8);
    bits[i] = pick === 0 ? F32_SPECIAL_BITS[r.int(F32_SPECIAL_BITS.length)] : r();
  }
  return new Float32Array(bits.buffer);
}

/** A Float64Array of n random values, specials sprinkled in. */
export function randomF64(n, seed) {
  const r = rng(seed);
  const bits = new Uint32Array(2 * n);
  for (let i = 0; i < n; i++) {
    const [hi, lo] = r.int(8) === 0 ? F64_SPECIAL_BITS[r.int(F64_SPECIAL_BITS.length)] : [r(), r()];
    bits[2 * i] = lo;
    bits[2 * i + 1] = hi;
  }
  return new Float64Array(bits.buffer);
}

/** Raw bytes of a typed array, for bit-exact comparison. */
export const bytesOf = (t) => Buffer.from(t.buffer, t.byteOffset, t.byteLength);

// ---- an independent msgpack writer, element by element ------------------------

// Numeric element forms and the values each can hold.
export const FORMS = {
  posfix: { size: 1, min: 0n, max: 127n },
  negfix: { size: 1, min: -32n, max: -1n },
  u8: { size: 2, tag: 0xcc, min: 0n, max: 255n },
  u16: { size: 3, tag: 0xcd, min: 0n, max: 65535n },
  u32: { size: 5, tag: 0xce, min: 0n, max: 2n ** 32n - 1n },
  u64: { size: 9, tag: 0xcf, min: 0n, max: 2n ** 64n - 1n },
  i8: { size: 2, tag: 0xd0, min: -128n, max: 127n },
  i16: { size: 3, tag: 0xd1, min: -32768n, max: 32767n },
  i32: { size: 5, tag: 0xd2, min: -(2n ** 31n), max: 2n ** 31n - 1n },
  i64: { size: 9, tag: 0xd3, min: -(2n ** 63n), max: 2n ** 63n - 1n },
  f32: { size: 5, tag: 0xca },
  f64: { size: 9, tag: 0xcb },
};

/**
 * Encodes elements [{ form, value }] after an array header of `count`
 * (default: the number of elements). Integer values are BigInt; float values
 * are bit patterns: a u32 for f32, [hi, lo] for f64.
 */
export function encodeElements(elements, count = elements.length) {
  const size = headerBytes(count) + elements.reduce((s, e) => s + FORMS[e.form].size, 0);
  const out = Buffer.alloc(size);
  let p = writeHeader(out, count);
  for (const { form, value } of elements) {
    const f = FORMS[form];
    if (form === 'posfix' || form === 'negfix') {
      out[p] = Number(BigInt.asUintN(8, value));
    } else {
      out[p] = f.tag;
      if (form === 'f32') out.writeUInt32BE(value, p + 1);
      else if (form === 'f64') {
        out.writeUInt32BE(value[0], p + 1);
        out.writeUInt32BE(value[1], p + 5);
      } else {
        const width = f.size - 1;
        const v = BigInt.asUintN(width * 8, value);
        for (let k = 0; k < width; k++) out[p + 1 + k] = Number((v >> BigInt(8 * (width - 1 - k))) & 0xffn);
      }
    }
    p += f.size;
  }
  return new Uint8Array(out.buffer, out.byteOffset, out.length);
}

export const headerBytes = (n) => (n <= 15 ? 1 : n <= 0xffff ? 3 : 5);

function writeHeader(out, n) {
  if (n <= 15) {
    out[0] = 0x90 | n;
    return 1;
  }
  if (n <= 0xffff) {
    out[0] = 0xdc;
    out.writeUInt16BE(n, 1);
    return 3;
  }
  out[0] = 0xdd;
  out.writeUInt32BE(n, 1);
  return 5;
}

const INT_FORMS = ['posfix', 'negfix', 'u8', 'u16', 'u32', 'u64', 'i8', 'i16', 'i32', 'i64'];

/** A random value for an integer form, biased to its edges. */
function randomInt(form, r) {
  const { min, max } = FORMS[form];
  const span = max - min + 1n;
  const pick = r.int(6);
  if (pick === 0) return min;
  if (pick === 1) return max;
  const raw = (BigInt(r()) << 32n) | BigInt(r());
  return min + (raw % span);
}

/** One random element of the given form. */
export function randomElement(form, r) {
  if (form === 'f32') return { form, value: r.int(8) === 0 ? F32_SPECIAL_BITS[r.int(F32_SPECIAL_BITS.length)] : r() };
  if (form === 'f64') return { form, value: r.int(8) === 0 ? F64_SPECIAL_BITS[r.int(F64_SPECIAL_BITS.length)] : [r(), r()] };
  return { form, value: randomInt(form, r) };
}

/**
 * n elements whose forms follow `mix`: 'mixed' (any form per element),
 * 'f32' / 'f64' / 'fixint' (uniform, the SIMD fast paths), or 'runs' (uniform
 * runs of random length with odd elements between them).
 */
export function randomElements(n, seed, mix) {
  const r = rng(seed);
  const all = [...INT_FORMS, 'f32', 'f64'];
  const out = new Array(n);
  let runForm = 'f32';
  let runLeft = 0;
  for (let i = 0; i < n; i++) {
    let form;
    if (mix === 'mixed') form = all[r.int(all.length)];
    else if (mix === 'fixint') form = r.int(2) ? 'posfix' : 'negfix';
    else if (mix === 'runs') {
      if (runLeft === 0) {
        runForm = ['f32', 'f64', 'posfix', 'negfix', all[r.int(all.length)]][r.int(5)];
        runLeft = 1 + r.int(40);
        form = all[r.int(all.length)]; // one odd element between runs
      } else {
        form = runForm;
        runLeft--;
      }
    } else form = mix;
    out[i] = randomElement(form, r);
  }
  return out;
}

// ---- the value fastmp must produce, computed independently ----------------------

const f64FromBits = (hi, lo) => {
  const b = Buffer.alloc(8);
  b.writeUInt32BE(hi >>> 0, 0);
  b.writeUInt32BE(lo >>> 0, 4);
  return b.readDoubleBE(0);
};
const f32FromBits = (bits) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(bits >>> 0, 0);
  return b.readFloatBE(0);
};
const f32Bits = (v) => {
  const b = Buffer.alloc(4);
  b.writeFloatBE(v, 0);
  return b.readUInt32BE(0);
};

/** The exact rational value of a finite f32, as [BigInt numerator, power of two]. */
function exactF32(bits) {
  const exp = (bits >>> 23) & 0xff;
  const mant = BigInt(bits & 0x7fffff);
  const m = exp === 0 ? mant : mant | 0x800000n;
  const e = (exp === 0 ? 1 : exp) - 150;
  return [bits >>> 31 ? -m : m, e];
}

/**
 * The nearest f32 to an integer, ties to even, by comparing the exact errors
 * of the candidates around Math.fround(Number(v)) (no double rounding).
 */
function nearestF32ToBigInt(v) {
  const guess = f32Bits(Math.fround(Number(v)));
  let best = null;
  for (const delta of [-2, -1, 0, 1, 2]) {
    const bits = (guess + delta) >>> 0;
    if ((bits & 0x7f800000) === 0x7f800000) continue; // Inf or NaN: never nearest to a 64-bit int
    const [num, e] = exactF32(bits);
    // |v - num * 2^e|, scaled by 2^149 so that every candidate's error is an integer
    const err = (v << 149n) - (num << BigInt(e + 149));
    const abs = err < 0n ? -err : err;
    if (best === null || abs < best.abs || (abs === best.abs && (bits & 1) === 0)) best = { abs, bits };
  }
  return f32FromBits(best.bits);
}

const isNaN32 = (b) => (b & 0x7fffffff) >>> 0 > 0x7f800000;

/**
 * The bits fastmp must write for one element into a Float32Array (u32) or a
 * Float64Array ([hi, lo]), following the documented rules.
 */
export function expectedBits({ form, value }, wide) {
  if (form === 'f32') {
    if (!wide) return value >>> 0;
    if (isNaN32(value)) return [((value & 0x80000000) | 0x7ff00000 | ((value & 0x7fffff) >>> 3)) >>> 0, (value << 29) >>> 0];
    return f64Split(f32FromBits(value));
  }
  if (form === 'f64') {
    const [hi, lo] = value;
    if (wide) return [hi >>> 0, lo >>> 0];
    const nan = (hi & 0x7fffffff) >>> 0 > 0x7ff00000 || ((hi & 0x7fffffff) === 0x7ff00000 && lo !== 0);
    if (nan) {
      const payload = BigInt(((hi & 0xfffff) >>> 0)) * 2n ** 32n + BigInt(lo >>> 0);
      return ((hi & 0x80000000) | 0x7fc00000 | Number((payload >> 29n) & 0x3fffffn)) >>> 0;
    }
    return f32Bits(Math.fround(f64FromBits(hi, lo)));
  }
  return wide ? f64Split(Number(value)) : f32Bits(nearestF32ToBigInt(value));
}

function f64Split(v) {
  const b = Buffer.alloc(8);
  b.writeDoubleBE(v, 0);
  return [b.readUInt32BE(0), b.readUInt32BE(4)];
}

/** The little-endian bytes a Float32Array / Float64Array of these elements holds. */
export function expectedArrayBytes(elements, wide) {
  const out = Buffer.alloc(elements.length * (wide ? 8 : 4));
  elements.forEach((e, i) => {
    const bits = expectedBits(e, wide);
    if (wide) {
      out.writeUInt32LE(bits[1], 8 * i);
      out.writeUInt32LE(bits[0], 8 * i + 4);
    } else out.writeUInt32LE(bits, 4 * i);
  });
  return out;
}

// ---- the native builds ------------------------------------------------------------

export const NATIVE_BUILDS = [
  { name: 'x86_64-simd', run: [] },
  { name: 'x86_64-scalar', run: [] },
  { name: 'aarch64-simd', run: ['qemu-aarch64'] },
  { name: 'aarch64-scalar', run: ['qemu-aarch64'] },
];

// The harness's op numbers are its own: `fm-cli --ops` prints them (from
// c/harness/fm_ops.h) and they are read from there.

let ops = null;

/** The harness's ops, name -> number, as `fm-cli --ops` prints them ("1 PACK_f32"): read once. */
export function harnessOps() {
  if (ops === null) {
    const build = NATIVE_BUILDS[0];
    const exe = join(ROOT, 'build', build.name, 'fm-cli');
    if (!existsSync(exe)) throw new Error(`${exe} is missing: run ./build.sh first`);
    const [cmd, ...args] = [...build.run, exe, '--ops'];
    ops = new Map(execFileSync(cmd, args, { encoding: 'utf8' }).trim().split('\n').map((line) => {
      const m = /^(\d+) (\w+)$/.exec(line);
      if (!m) throw new Error(`fm-cli --ops: not "<number> <name>": ${line}`);
      return [m[2], Number(m[1])];
    }));
  }
  return ops;
}

/**
 * The harness op a request names (its FM_OP_ suffix): { op: 'pack' | 'unpack',
 * type, integralFloats? } is PACK_<type>, UNPACK_<type> or UNPACK_INTEGRAL_<type>;
 * a string op's camelCase name is its C name word by word (derReadBMP:
 * DER_READ_BMP, ia5Encode: IA5_ENCODE).
 */
export function harnessOpName({ op, type, integralFloats }) {
  if (op === 'pack' || op === 'unpack') return `${op.toUpperCase()}${integralFloats ? '_INTEGRAL' : ''}_${type}`;
  return op.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase();
}

/** The number of a request's harness op. */
export function harnessOp(request) {
  const name = harnessOpName(request);
  const n = harnessOps().get(name);
  if (n === undefined) throw new Error(`fm-cli --ops lists no ${name}`);
  return n;
}

/**
 * Runs requests [{ op, type, integralFloats?, bytes }] through one native build's fm-cli in one
 * process; returns one outcome per request: { code, index, offset, end, value, data }.
 */
export function runNative(build, requests) {
  const exe = join(ROOT, 'build', build.name, 'fm-cli');
  if (!existsSync(exe)) throw new Error(`${exe} is missing: run ./build.sh first`);
  const dir = mkdtempSync(join(tmpdir(), 'fastmp-parity-'));
  try {
    const parts = [];
    for (const request of requests) {
      const { bytes } = request;
      const head = Buffer.alloc(5);
      head[0] = harnessOp(request);
      head.writeUInt32LE(bytes.length, 1);
      parts.push(head, Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length));
    }
    writeFileSync(join(dir, 'in'), Buffer.concat(parts));
    const [cmd, ...args] = [...build.run, exe, join(dir, 'in'), join(dir, 'out')];
    execFileSync(cmd, args, { stdio: ['ignore', 'ignore', 'inherit'] });
    const out = readFileSync(join(dir, 'out'));
    const outcomes = [];
    let p = 0;
    while (p < out.length) {
      const w = (k) => out.readUInt32LE(p + 4 * k);
      const index = w(2) === 0xffffffff ? -1 : w(2);
      const value = (BigInt(w(7)) << 32n) | BigInt(w(6));
      const data = out.subarray(p + 36, p + 36 + w(8));
      outcomes.push({ code: CODE_NAMES[w(0)], index, offset: w(3), end: w(4), value, data });
      p += 36 + w(8);
    }
    return outcomes;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// ---- integers ---------------------------------------------------------------------

/**
 * The range of an integer typed array, as the engine itself defines it: its
 * element width, and whether it is signed (whether it stores -1 as -1). Facts
 * about JS's typed arrays that the tests check fastmp against, so found here,
 * not read from fastmp.
 */
export function intRange(Type) {
  const big = Type.name.startsWith('Big');
  const bits = BigInt(8 * Type.BYTES_PER_ELEMENT);
  const signed = new Type([big ? -1n : -1])[0] < 0;
  return signed ? [-(2n ** (bits - 1n)), 2n ** (bits - 1n) - 1n] : [0n, 2n ** bits - 1n];
}

/** The integer element types, one per C type: { name (the harness's type name), Type, big, min, max }. */
export const INT_TYPES = C_KINDS.filter((k) => !k.float && k !== BOOL).map((k) => {
  const [min, max] = intRange(k.Type);
  return { name: k.c, Type: k.Type, big: k.big, min, max };
});

/** The edge values, for the types that hold them. */
export const INT_EDGES = [
  -(2n ** 63n), -(2n ** 31n) - 1n, -(2n ** 31n), -32769n, -32768n, -129n, -128n, -33n, -32n, -1n, 0n,
  127n, 128n, 255n, 256n, 65535n, 65536n, 2n ** 32n - 1n, 2n ** 32n, 2n ** 63n - 1n, 2n ** 64n - 1n,
];

/** The smallest msgpack form of an integer, by value (the rule fastmp and @msgpack/msgpack follow). */
export function smallestForm(v) {
  if (v >= 0n) return v < 128n ? 'posfix' : v < 256n ? 'u8' : v < 65536n ? 'u16' : v < 2n ** 32n ? 'u32' : 'u64';
  return v >= -32n ? 'negfix' : v >= -128n ? 'i8' : v >= -32768n ? 'i16' : v >= -(2n ** 31n) ? 'i32' : 'i64';
}

/**
 * n BigInt values of an integer type: 'fixint' (small values), 'random' (the
 * type's whole range), 'edges' (the edge values it holds, cycled), 'mixed'
 * (each element from a random size class, so SIMD vectors mix forms).
 */
export function randomInts(type, n, seed, content) {
  const r = rng(seed);
  const { min, max } = type;
  const span = max - min + 1n;
  const edges = INT_EDGES.filter((v) => v >= min && v <= max);
  const big = () => (BigInt(r()) << 32n) | BigInt(r());
  const out = new Array(n);
  for (let i = 0; i < n; i++) {
    if (content === 'fixint') out[i] = BigInt(r.int(min < 0n ? 160 : 128) - (min < 0n ? 32 : 0));
    else if (content === 'edges') out[i] = edges[i % edges.length];
    else if (content === 'mixed') {
      const bits = [4, 7, 8, 12, 16, 24, 32, 48, 64][r.int(9)];
      const v = (big() & ((1n << BigInt(bits)) - 1n)) * (min < 0n && r.int(2) ? -1n : 1n);
      out[i] = v < min ? min : v > max ? max : v;
    } else out[i] = min + (big() % span);
  }
  return out;
}

/** A typed array of BigInt values. */
export const typedOf = (type, values) => (type.big ? type.Type.from(values) : type.Type.from(values, Number));

/** The forms that can hold v, for building inputs in every form a sender might choose. */
export function formsHolding(v) {
  return Object.entries(FORMS).filter(([, f]) => f.min !== undefined && v >= f.min && v <= f.max).map(([name]) => name);
}

// ---- strings (BMPString, IA5String, VisibleString) --------------------------------

/** Plane-0 units that are easy to get wrong: the ends of each valid range, the BOM, NUL. */
export const BMP_EDGE_UNITS = [0x0000, 0x007f, 0x0080, 0x00ff, 0x0100, 0xd7ff, 0xe000, 0xfeff, 0xfffe, 0xffff];

/** n valid BMPString units (no surrogates): mixed scripts, edges sprinkled in. */
export function randomBMPUnits(n, seed) {
  const r = rng(seed);
  const units = new Uint16Array(n);
  for (let i = 0; i < n; i++) {
    const pick = r.int(8);
    let u;
    if (pick === 0) u = BMP_EDGE_UNITS[r.int(BMP_EDGE_UNITS.length)];
    else if (pick < 3) u = 0x20 + r.int(95);
    else u = r.int(0x10000 - 0x800);
    units[i] = u >= 0xd800 && pick >= 3 ? u + 0x800 : u; // skip over the surrogates
  }
  return units;
}

/** n units from [lo, hi]. */
export function randomRangeUnits(n, seed, lo, hi) {
  const r = rng(seed);
  return Uint16Array.from({ length: n }, () => lo + r.int(hi - lo + 1));
}

/**
 * The chars of each one-byte ASN.1 string kind, written out here from X.680
 * 41.4 (IA5String and VisibleString by their ranges), not taken from fastmp.
 */
export const CHAR_SETS = {
  IA5: Array.from({ length: 0x80 }, (_, c) => c),
  Visible: Array.from({ length: 0x7f - 0x20 }, (_, c) => 0x20 + c),
  Printable: [..."ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789 '()+,-./:=?"].map((ch) => ch.charCodeAt(0)),
  Numeric: [...'0123456789 '].map((ch) => ch.charCodeAt(0)),
};

/** n units drawn from `chars` (for a range, the same units as randomRangeUnits). */
export function randomSetUnits(n, seed, chars) {
  const r = rng(seed);
  return Uint16Array.from({ length: n }, () => chars[r.int(chars.length)]);
}

/** A JS string of the given units (chunked: fromCharCode takes a bounded argument count). */
export function stringOfUnits(units) {
  let s = '';
  for (let i = 0; i < units.length; i += 4096) s += String.fromCharCode.apply(null, units.subarray(i, i + 4096));
  return s;
}

/** The units of a string, as a Uint16Array. */
export const unitsOfString = (s) => Uint16Array.from({ length: s.length }, (_, i) => s.charCodeAt(i));

/** Big-endian bytes of units (what BMPString content must be), written byte by byte. */
export function bigEndianBytes(units) {
  const out = new Uint8Array(2 * units.length);
  units.forEach((u, i) => {
    out[2 * i] = u >> 8;
    out[2 * i + 1] = u & 0xff;
  });
  return out;
}

/** A DER header for `length` content bytes, from the X.690 rules (not fastmp's writer). */
export function derHeader(tag, length) {
  if (length < 0x80) return [tag, length];
  const octets = [];
  for (let v = length; v > 0; v = Math.floor(v / 256)) octets.unshift(v & 0xff);
  return [tag, 0x80 | octets.length, ...octets];
}

/** Little-endian bytes of a Uint16Array (harness input and output). */
export const leBytes = (units) => new Uint8Array(units.buffer, units.byteOffset, units.byteLength);

// ---- every build at once ---------------------------------------------------------

/** The JS-reachable paths: both wasm builds forced at every size, and the pure-JS path. */
export const JS_PATHS = [
  ['wasm-simd', { backend: 'simd', pureJs: 'never' }],
  ['wasm-scalar', { backend: 'scalar', pureJs: 'never' }],
  ['pure-js', { pureJs: 'always' }],
];

/**
 * Outcomes of every case on every build: the JS paths through `init` and
 * `jsOutcomes(cases)` (which may give several named lists per path), then the
 * four native builds through the harness. Returns { [build]: outcome[] }.
 */
export async function outcomesOfEveryBuild(cases, init, jsOutcomes) {
  const outcomes = {};
  for (const [name, options] of JS_PATHS) {
    await init(options);
    for (const [suffix, list] of Object.entries(jsOutcomes(cases))) outcomes[`${name}${suffix}`] = list;
  }
  for (const build of NATIVE_BUILDS) outcomes[build.name] = runNative(build, cases);
  return outcomes;
}

/**
 * Grows the wasm memory of instance `fm` a little, as any call that needs
 * more than is free grows it (which detaches every view of it): allocates
 * 64 KB arrays until memory grows, then frees them.
 */
export function growMemory(fm) {
  const before = fm.memoryStats().wasmMemory;
  const held = [];
  while (fm.memoryStats().wasmMemory === before) held.push(fm.alloc(Uint8Array, 1 << 16));
  for (const x of held) fm.free(x);
}

/** A fresh copy of msgpackr's CommonJS build: its own module scope, so its own extension list. */
export function freshMsgpackr() {
  const requireHere = createRequire(`${ROOT}package.json`);
  const path = requireHere.resolve('msgpackr');
  const saved = requireHere.cache[path];
  delete requireHere.cache[path];
  try {
    return requireHere(path);
  } finally {
    if (saved) requireHere.cache[path] = saved;
    else delete requireHere.cache[path];
  }
}

/**
 * `script` (an ES module's body) run by Node in the repository, with `env`
 * added to the environment: its stdout, trimmed, or how it ended ("exited N:"
 * and its stderr's first error line), for a test to compare.
 */
export function runNode(script, env = {}) {
  try {
    return execFileSync(process.execPath, ['--input-type=module', '-e', script], {
      cwd: ROOT, encoding: 'utf8', env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'],
    }).trim();
  } catch (e) {
    return `exited ${e.status}: ${String(e.stderr).split('\n').find((line) => /Error/.test(line)) ?? e.message}`;
  }
}

/**
 * make(), with this realm's WebAssembly.Module refusing to compile more than
 * 4 KB synchronously, as V8 refuses it on a page's main thread (a
 * RangeError): what an engine that compiles large modules only
 * asynchronously does.
 */
export function refusingLargeSyncCompiles(make) {
  const real = WebAssembly.Module;
  WebAssembly.Module = new Proxy(real, {
    construct(target, args, newTarget) {
      if ((args[0]?.byteLength ?? 0) > 4096) throw new RangeError('WebAssembly.Module(): Wasm code generation disallowed by embedder');
      return Reflect.construct(target, args, newTarget);
    },
  });
  try {
    return make();
  } finally {
    WebAssembly.Module = real;
  }
}

/**
 * A TypeScript project in `dir` that checks `probes` ({ file: text }), strict,
 * module nodenext, lib es2022 and dom, without skipLibCheck, with the package
 * installed as a link ('fastmp-wasm' resolves through package.json "exports")
 * and each package of `links` (names in node_modules) linked beside it.
 */
export function tscProject(dir, probes, links = []) {
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(ROOT, join(dir, 'node_modules', 'fastmp-wasm'), 'dir');
  for (const name of links) symlinkSync(join(ROOT, 'node_modules', name), join(dir, 'node_modules', name), 'dir');
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'probe', private: true, type: 'module' }));
  for (const [file, text] of Object.entries(probes)) writeFileSync(join(dir, file), text);
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({
    compilerOptions: {
      strict: true, noEmit: true, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', lib: ['es2022', 'dom'],
      types: [], skipLibCheck: false,
    },
    files: Object.keys(probes),
  }));
}

/**
 * `tsc` (its bin script) run on tscProject(dir, probes): its diagnostics by
 * probe, '' for each that compiles. A probe's diagnostics start with its name
 * (tsc --pretty false when not a terminal); others (the declarations') are
 * kept for every probe.
 */
export async function tscReport(dir, probes, tsc = join(ROOT, 'node_modules/typescript/bin/tsc')) {
  let out = '';
  try {
    await promisify(execFile)(process.execPath, [tsc, '-p', '.'], { cwd: dir, encoding: 'utf8' });
  } catch (e) {
    out = `${e.stdout}${e.stderr}` || String(e);
  }
  const files = Object.keys(probes);
  return Object.fromEntries(files.map((file) => [file, out.split('\n').filter((line) => line && !files.some((f) => f !== file && line.startsWith(f))).join('\n')]));
}
