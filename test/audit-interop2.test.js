// audit-interop2: interop with other languages' msgpack, a second look.
// Python's msgpack (Debian's python3-msgpack, /usr/bin/python3) and msgpack-c
// (libmsgpackc, a small reader / writer compiled here) against fastmp, both
// ways, at the kernels' crossover lengths ±1 (js/crossovers.js) and at 0, 1,
// 15, 16, 17, 65535 and 65536 elements, on the SIMD, scalar and pure-JS paths.
// interop.test.js and messages-typed.test.js hold the float round trips and
// random messages; this file adds every element type and typedArrays mode as
// the peers see them, every numeric form the peers write into every
// TypedArray (range and type errors with their index and offset), and the
// peers' whole messages (timestamps, int keys, ext, strings).
// Expected values come from the wire bytes, parsed here, and from
// docs/typed-arrays.md "Numbers: rules of conversion", never from fastmp.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as msgpack from '@msgpack/msgpack';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { packBelow, unpackBelow } from '../js/crossovers.js';
import { createFastmpSync } from '../js/index.js';
import { randomF32, randomF64, rng } from './helpers.js';
import { difference } from './messages-helpers.js';

const INSTANCES = {
  simd: createFastmpSync({ backend: 'simd', pureJs: 'never' }),
  scalar: createFastmpSync({ backend: 'scalar', pureJs: 'never' }),
  js: createFastmpSync({ backend: 'js' }),
};

/** 0, 1, 15, 16, 17, 65535, 65536 and every crossover ±1 of pack and unpack, both builds. */
const SIZES = (() => {
  const sizes = new Set([0, 1, 15, 16, 17, 65535, 65536]);
  for (const b of ['simd', 'scalar']) {
    for (const n of [...Object.values(packBelow(b, 'v8')), ...Object.values(unpackBelow(b, 'v8'))]) {
      for (const d of [-1, 0, 1]) if (n + d >= 0) sizes.add(n + d);
    }
  }
  return [...sizes].sort((a, b) => a - b);
})();

const TYPES = [Float32Array, Float64Array, Int8Array, Uint8Array, Uint8ClampedArray, Int16Array, Uint16Array, Int32Array, Uint32Array, BigInt64Array, BigUint64Array];
const RANGES = {
  Int8Array: [-128n, 127n], Uint8Array: [0n, 255n], Uint8ClampedArray: [0n, 255n], Int16Array: [-32768n, 32767n], Uint16Array: [0n, 65535n],
  Int32Array: [-(2n ** 31n), 2n ** 31n - 1n], Uint32Array: [0n, 2n ** 32n - 1n], BigInt64Array: [-(2n ** 63n), 2n ** 63n - 1n], BigUint64Array: [0n, 2n ** 64n - 1n],
};
const isBig = (T) => T === BigInt64Array || T === BigUint64Array;
const hexOf = (b) => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('hex');

/** Runs Debian's Python with python3-msgpack: `script` reads stdin, writes stdout. */
function python(script, input = '') {
  return execFileSync('/usr/bin/python3', ['-c', `import sys, json, struct, datetime, random, msgpack\n${script}`], { input, maxBuffer: 1 << 30 });
}

// ---- msgpack-c, the native peer -------------------------------------------------------

// "read": every value on stdin, as records (below); "write": arrays described on stdin.
// Record: 'L' u32 n, then n × (tag, 8 bytes LE): 'f' float32 bits, 'd' float64 bits, 'u' u64,
// 'i' i64, 't' / 'F' booleans, 'n' nil; 'B' u32 len bytes (bin); 'E' i8 type u32 len bytes;
// 'S' u32 len bytes (str); 'M' u32 n then n keys and values; 'T' / 'x' / 'N' for a top-level bool / nil.
const PEER_C = String.raw`
#include <msgpack.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <inttypes.h>
static void u32(uint32_t v) { fwrite(&v, 4, 1, stdout); }
static void el(char tag, const void *p, size_t n) { char b[8] = {0}; memcpy(b, p, n); putchar(tag); fwrite(b, 8, 1, stdout); }
static void out(const msgpack_object *o) {
  switch (o->type) {
  case MSGPACK_OBJECT_NIL: el('n', "", 0); break;
  case MSGPACK_OBJECT_BOOLEAN: el(o->via.boolean ? 't' : 'F', "", 0); break;
  case MSGPACK_OBJECT_POSITIVE_INTEGER: el('u', &o->via.u64, 8); break;
  case MSGPACK_OBJECT_NEGATIVE_INTEGER: el('i', &o->via.i64, 8); break;
  case MSGPACK_OBJECT_FLOAT32: { float f = (float)o->via.f64; el('f', &f, 4); break; }
  case MSGPACK_OBJECT_FLOAT64: el('d', &o->via.f64, 8); break;
  case MSGPACK_OBJECT_STR: putchar('S'); u32(o->via.str.size); fwrite(o->via.str.ptr, 1, o->via.str.size, stdout); break;
  case MSGPACK_OBJECT_BIN: putchar('B'); u32(o->via.bin.size); fwrite(o->via.bin.ptr, 1, o->via.bin.size, stdout); break;
  case MSGPACK_OBJECT_EXT: putchar('E'); putchar(o->via.ext.type); u32(o->via.ext.size); fwrite(o->via.ext.ptr, 1, o->via.ext.size, stdout); break;
  case MSGPACK_OBJECT_ARRAY: putchar('L'); u32(o->via.array.size); for (uint32_t i = 0; i < o->via.array.size; i++) out(&o->via.array.ptr[i]); break;
  case MSGPACK_OBJECT_MAP: putchar('M'); u32(o->via.map.size); for (uint32_t i = 0; i < o->via.map.size; i++) { out(&o->via.map.ptr[i].key); out(&o->via.map.ptr[i].val); } break;
  default: exit(4);
  }
}
int main(int argc, char **argv) {
  if (argc > 1 && !strcmp(argv[1], "read")) {
    size_t cap = 1 << 16, len = 0, n; char *buf = malloc(cap);
    while ((n = fread(buf + len, 1, cap - len, stdin)) > 0) { len += n; if (len == cap) buf = realloc(buf, cap *= 2); }
    msgpack_unpacked r; msgpack_unpacked_init(&r);
    size_t off = 0;
    while (off < len) {
      if (msgpack_unpack_next(&r, buf, len, &off) != MSGPACK_UNPACK_SUCCESS) { fprintf(stderr, "msgpack-c: cannot unpack at %zu\n", off); return 1; }
      out(&r.data);
    }
    return 0;
  }
  msgpack_sbuffer sb; msgpack_sbuffer_init(&sb);
  msgpack_packer pk; msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
  char form; unsigned long n;
  while (scanf(" %c %lu", &form, &n) == 2) {
    if (form == 'T') { /* a timestamp: seconds, nanoseconds */
      long long sec; unsigned long ns; if (scanf("%lld %lu", &sec, &ns) != 2) return 2;
      msgpack_timestamp ts = { sec, (uint32_t)ns }; msgpack_pack_timestamp(&pk, &ts); continue;
    }
    msgpack_pack_array(&pk, n);
    for (unsigned long k = 0; k < n; k++) {
      char tok[64]; if (scanf("%63s", tok) != 1) return 2;
      if (!strcmp(tok, "nil")) { msgpack_pack_nil(&pk); continue; }
      if (!strcmp(tok, "true")) { msgpack_pack_true(&pk); continue; }
      if (!strcmp(tok, "false")) { msgpack_pack_false(&pk); continue; }
      switch (form) {
      case 'F': { uint32_t b = strtoul(tok, 0, 16); float f; memcpy(&f, &b, 4); msgpack_pack_float(&pk, f); break; }
      case 'D': { uint64_t b = strtoull(tok, 0, 16); double d; memcpy(&d, &b, 8); msgpack_pack_double(&pk, d); break; }
      case 'I': msgpack_pack_int64(&pk, strtoll(tok, 0, 10)); break;
      case 'U': msgpack_pack_uint64(&pk, strtoull(tok, 0, 10)); break;
      case 'c': msgpack_pack_fix_uint8(&pk, strtoull(tok, 0, 10)); break;
      case 's': msgpack_pack_fix_uint16(&pk, strtoull(tok, 0, 10)); break;
      case 'w': msgpack_pack_fix_uint32(&pk, strtoull(tok, 0, 10)); break;
      case 'l': msgpack_pack_fix_uint64(&pk, strtoull(tok, 0, 10)); break;
      case 'b': msgpack_pack_fix_int8(&pk, strtoll(tok, 0, 10)); break;
      case 'h': msgpack_pack_fix_int16(&pk, strtoll(tok, 0, 10)); break;
      case 'i': msgpack_pack_fix_int32(&pk, strtoll(tok, 0, 10)); break;
      case 'q': msgpack_pack_fix_int64(&pk, strtoll(tok, 0, 10)); break;
      default: return 3;
      }
    }
  }
  fwrite(sb.data, 1, sb.size, stdout);
  return 0;
}
`;

let dir;
let peerC;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'fastmp-interop2-'));
  writeFileSync(join(dir, 'peer.c'), PEER_C);
  peerC = join(dir, 'peer');
  execFileSync('cc', ['-O1', '-o', peerC, join(dir, 'peer.c'), '-lmsgpackc']);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const msgpackC = (args, input) => execFileSync(peerC, args, { input, maxBuffer: 1 << 30 });

/** Parses peer records (above) into values: { list: [{ tag, bits (BigInt of the 8 bytes) }] }, { bin }, { ext, data }, { str }, { map }. */
function readRecords(buf) {
  let p = 0;
  const u32 = () => { const v = buf.readUInt32LE(p); p += 4; return v; };
  const one = () => {
    const kind = String.fromCharCode(buf[p++]);
    if (kind === 'L') { const n = u32(); return { list: Array.from({ length: n }, one) }; }
    if (kind === 'M') { const n = u32(); return { map: Array.from({ length: n }, () => [one(), one()]) }; }
    if (kind === 'B' || kind === 'S') { const n = u32(); const b = buf.subarray(p, p + n); p += n; return kind === 'B' ? { bin: b } : { str: b }; }
    if (kind === 'E') { const type = buf.readInt8(p++); const n = u32(); const b = buf.subarray(p, p + n); p += n; return { ext: type, data: b }; }
    const bits = buf.readBigUInt64LE(p);
    p += 8;
    return { tag: kind, bits };
  };
  const values = [];
  while (p < buf.length) values.push(one());
  return values;
}

// ---- what a peer reads, against what was packed ------------------------------------

const F32 = new Float32Array(1);
const F32_BITS = new Uint32Array(F32.buffer);
const F64 = new Float64Array(1);
const F64_BITS = new BigUint64Array(F64.buffer);

/**
 * '' when the peer's element `e` ({ tag, bits }) is element i of x, else what differs. A float32
 * that a peer hands over as a double (Python) must widen exactly; a NaN may come back quieted.
 */
function elementDiffers(e, x, i) {
  const T = x.constructor;
  if (T === Float64Array) {
    F64[0] = x[i];
    const want = new BigUint64Array(x.buffer, x.byteOffset + 8 * i, 1)[0];
    return e.tag === 'd' && e.bits === want ? '' : `${e.tag} ${e.bits.toString(16)}, packed ${want.toString(16)}`;
  }
  if (T === Float32Array) {
    const want = new Uint32Array(x.buffer, x.byteOffset + 4 * i, 1)[0];
    const nan = (want & 0x7f800000) === 0x7f800000 && (want & 0x7fffff) !== 0;
    let got;
    if (e.tag === 'f') got = Number(e.bits & 0xffffffffn);
    else if (e.tag === 'd') {
      // The double must be the float32 widened: sign, exponent, and a fraction of 23 bits.
      const d = e.bits;
      const exp = Number((d >> 52n) & 0x7ffn);
      const frac = d & ((1n << 52n) - 1n);
      if (exp === 0x7ff) got = ((Number(d >> 63n) << 31) | 0x7f800000 | Number(frac >> 29n)) >>> 0;
      else {
        F64_BITS[0] = d;
        F32[0] = F64[0];
        got = F32_BITS[0];
        if (F32[0] !== F64[0]) return `double ${d.toString(16)} is not a float32, packed ${want.toString(16)}`;
      }
    } else return `tag ${e.tag}, packed a float32`;
    const ok = nan ? (got | 0x400000) === (want | 0x400000) : got === want;
    return ok ? '' : `float32 ${got.toString(16)}, packed ${want.toString(16)}`;
  }
  const want = BigInt(x[i]);
  const got = e.tag === 'u' ? e.bits : e.tag === 'i' ? BigInt.asIntN(64, e.bits) : null;
  return got === want ? '' : `${e.tag} ${got}, packed ${want}`;
}

/** Random content for an element type: every bit pattern, with small values sprinkled in (fixints). */
function contentOf(T, n, seed) {
  if (T === Float32Array) return randomF32(n, seed);
  if (T === Float64Array) return randomF64(n, seed);
  const r = rng(seed);
  const x = new T(n);
  const bytes = new Uint8Array(x.buffer);
  for (let i = 0; i < bytes.length; i++) bytes[i] = r() & 0xff;
  const signed = RANGES[T.name][0] < 0n;
  for (let i = 0; i < n; i++) {
    if (r.int(3) === 0) {
      const v = r.int(300) - (signed ? 150 : 0);
      x[i] = isBig(T) ? BigInt(v) : v;
    }
  }
  return x;
}

describe('what fastmp writes, Python and msgpack-c read', () => {
  test('every element type, by pack() and by encode() in each typedArrays mode, at every crossover ±1 and 0/1/15/16/17/65535/65536', () => {
    const cases = [];
    let seed = 1;
    for (const T of TYPES) {
      for (const n of SIZES) {
        const x = contentOf(T, n, seed++);
        for (const via of ['pack', 'array', 'bin', 'ext']) {
          const write = (fm) => (via === 'pack' ? fm.pack(x) : via === 'array' ? fm.encode(x) : fm.encode(x, { typedArrays: via }));
          const bytes = write(INSTANCES.simd);
          for (const name of ['scalar', 'js']) expect(hexOf(write(INSTANCES[name])), `${name} ${via} ${T.name}(${n})`).toBe(hexOf(bytes));
          cases.push({ x, via, bytes });
        }
      }
    }
    const stream = Buffer.concat(cases.map((c) => c.bytes));
    // Python: each value as a record; ints as u64 / i64, floats as the double Python holds.
    const fromPython = readRecords(python(`
w = sys.stdout.buffer.write
def out(v):
    if isinstance(v, msgpack.ExtType): w(b'E' + struct.pack('<bI', v.code, len(v.data)) + v.data)
    elif isinstance(v, bytes): w(b'B' + struct.pack('<I', len(v)) + v)
    elif isinstance(v, list):
        w(b'L' + struct.pack('<I', len(v)))
        w(b''.join(b'd' + struct.pack('<d', e) if isinstance(e, float) else (b'u' + struct.pack('<Q', e) if e >= 0 else b'i' + struct.pack('<q', e)) for e in v))
    else: raise TypeError(repr(v))
up = msgpack.Unpacker(raw=False, strict_map_key=False, max_buffer_size=0)
up.feed(sys.stdin.buffer.read())
for v in up: out(v)`, stream));
    const fromC = readRecords(msgpackC(['read'], stream));
    for (const [peer, values] of [['Python', fromPython], ['msgpack-c', fromC]]) {
      expect(values.length, peer).toBe(cases.length);
      cases.forEach(({ x, via, bytes }, k) => {
        const where = `${peer} reading ${via} of ${x.constructor.name}(${x.length})`;
        const got = values[k];
        const raw = hexOf(x);
        const T = x.constructor;
        if (T === Uint8Array || (T === Uint8ClampedArray && via !== 'ext') || via === 'bin') {
          expect(got.bin && hexOf(got.bin), where).toBe(raw);
        } else if (via === 'ext') {
          expect(got.ext, where).toBe(0x74);
          expect(hexOf(got.data), where).toBe(hexOf(Uint8Array.of(bytes[bytes.length - x.byteLength - 1])) + raw);
        } else {
          expect(got.list?.length, where).toBe(x.length);
          for (let i = 0; i < x.length; i++) {
            const differs = elementDiffers(got.list[i], x, i);
            if (differs) expect(differs, `${where}: element ${i}`).toBe('');
          }
        }
      });
    }
  });
});

// ---- what the peers write, fastmp reads --------------------------------------------

/** Parses a msgpack array of numbers, booleans and nils: [{ off, int } | { off, f32 } | { off, f64 } | { off, other }]. */
function parseArray(b, at = 0) {
  const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const t = b[at];
  let n;
  let p;
  if ((t & 0xf0) === 0x90) [n, p] = [t & 15, at + 1];
  else if (t === 0xdc) [n, p] = [dv.getUint16(at + 1), at + 3];
  else if (t === 0xdd) [n, p] = [dv.getUint32(at + 1), at + 5];
  else throw new Error(`not an array: 0x${t.toString(16)}`);
  const els = [];
  const ints = { 0xcc: [2, () => BigInt(b[p + 1])], 0xcd: [3, () => BigInt(dv.getUint16(p + 1))], 0xce: [5, () => BigInt(dv.getUint32(p + 1))], 0xcf: [9, () => dv.getBigUint64(p + 1)],
    0xd0: [2, () => BigInt(dv.getInt8(p + 1))], 0xd1: [3, () => BigInt(dv.getInt16(p + 1))], 0xd2: [5, () => BigInt(dv.getInt32(p + 1))], 0xd3: [9, () => dv.getBigInt64(p + 1)] };
  for (let i = 0; i < n; i++) {
    const tag = b[p];
    if (tag < 0x80 || tag >= 0xe0) { els.push({ off: p, int: BigInt(tag < 0x80 ? tag : tag - 256) }); p += 1; }
    else if (ints[tag]) { els.push({ off: p, int: ints[tag][1]() }); p += ints[tag][0]; }
    else if (tag === 0xca) { els.push({ off: p, f32: dv.getUint32(p + 1) }); p += 5; }
    else if (tag === 0xcb) { els.push({ off: p, f64: dv.getBigUint64(p + 1) }); p += 9; }
    else if (tag === 0xc0 || tag === 0xc2 || tag === 0xc3) { els.push({ off: p, other: tag }); p += 1; }
    else throw new Error(`element 0x${tag.toString(16)}`);
  }
  return { els, end: p };
}

/** The float32 nearest a BigInt (ties to even), as bits. */
function bigIntToF32Bits(v) {
  if (v === 0n) return 0;
  const neg = v < 0n;
  const a = neg ? -v : v;
  let e = a.toString(2).length - 1;
  let mant;
  if (e <= 23) mant = a << BigInt(23 - e);
  else {
    const sh = BigInt(e - 23);
    mant = a >> sh;
    const rem = a - (mant << sh);
    const half = 1n << (sh - 1n);
    if (rem > half || (rem === half && (mant & 1n))) {
      mant += 1n;
      if (mant === 1n << 24n) { mant >>= 1n; e += 1; }
    }
  }
  const bits = e > 127 ? 0x7f800000 : ((e + 127) << 23) | Number(mant & 0x7fffffn);
  return (neg ? bits | 0x80000000 : bits) >>> 0;
}

const doubleOf = (bits) => { F64_BITS[0] = bits; return F64[0]; };
const floatOf = (bits) => { F32_BITS[0] = bits; return F32[0]; };

/**
 * What unpacking `els` into T gives, by docs/typed-arrays.md "Numbers: rules of conversion":
 * { out } or the first error { code, index, offset, value? }.
 */
function expectedUnpack(els, T, integralFloats) {
  const out = new T(els.length);
  const dv = new DataView(out.buffer);
  const range = RANGES[T.name];
  for (let i = 0; i < els.length; i++) {
    const e = els[i];
    if ('other' in e) return { code: 'TYPE', index: i, offset: e.off };
    if (T === Float64Array) {
      if ('int' in e) dv.setFloat64(8 * i, Number(e.int), true);
      else if ('f64' in e) dv.setBigUint64(8 * i, e.f64, true);
      else if ((e.f32 & 0x7f800000) === 0x7f800000 && (e.f32 & 0x7fffff)) { // a NaN keeps its whole payload
        dv.setBigUint64(8 * i, (BigInt(e.f32 >>> 31) << 63n) | (0x7ffn << 52n) | (BigInt(e.f32 & 0x7fffff) << 29n), true);
      } else dv.setFloat64(8 * i, floatOf(e.f32), true);
    } else if (T === Float32Array) {
      if ('int' in e) dv.setUint32(4 * i, bigIntToF32Bits(e.int), true);
      else if ('f32' in e) dv.setUint32(4 * i, e.f32, true);
      else if (((e.f64 >> 52n) & 0x7ffn) === 0x7ffn && (e.f64 & ((1n << 52n) - 1n))) { // NaN: sign, top payload bits, quiet
        dv.setUint32(4 * i, (Number(e.f64 >> 63n) << 31 | 0x7fc00000 | Number((e.f64 >> 29n) & 0x7fffffn)) >>> 0, true);
      } else dv.setFloat32(4 * i, doubleOf(e.f64), true);
    } else {
      let v = e.int;
      if (v === undefined) {
        if (!integralFloats) return { code: 'TYPE', index: i, offset: e.off };
        const d = 'f32' in e ? floatOf(e.f32) : doubleOf(e.f64);
        if (!Number.isInteger(d)) return { code: 'RANGE', index: i, offset: e.off };
        v = BigInt(d);
        if (v < range[0] || v > range[1]) return { code: 'RANGE', index: i, offset: e.off };
      }
      if (v < range[0] || v > range[1]) return { code: 'RANGE', index: i, offset: e.off, value: v };
      out[i] = isBig(T) ? v : Number(v);
    }
  }
  return { out };
}

/** '' when `run` (unpack or a shaped decode) gives `want` (expectedUnpack's) into T, else what differs. */
function checkUnpack(run, want, T, path, shift = 0) {
  let got;
  try {
    got = run();
  } catch (error) {
    if (want.out) return `threw ${error.code}: ${error.message}`;
    const ok = error.code === want.code && error.index === want.index && error.offset === want.offset + shift && (path === undefined || error.path === path)
      && (want.value === undefined || BigInt(error.value) === want.value) && error.name === 'FastmpError';
    return ok ? '' : `${error.name} ${error.code} index ${error.index} offset ${error.offset} path ${error.path} value ${error.value}, want ${want.code} ${want.index} ${want.offset + shift} ${want.value}: ${error.message}`;
  }
  if (!want.out) return `no error, want ${want.code} at ${want.index}`;
  if (!(got instanceof T)) return `a ${got?.constructor?.name}`;
  if (hexOf(got) === hexOf(want.out)) return '';
  const i = want.out.findIndex((v, k) => !Object.is(v, got[k]) || (typeof v === 'number' && Number.isNaN(v)));
  return `element ${i}: ${got[i]}, want ${want.out[i]}`;
}

const CLASSES = [[0n, 127n], [-32n, -1n], [128n, 255n], [256n, 65535n], [65536n, 2n ** 32n - 1n], [2n ** 32n, 2n ** 64n - 1n],
  [-128n, -33n], [-32768n, -129n], [-(2n ** 31n), -32769n], [-(2n ** 63n), -(2n ** 31n) - 1n]];
function randomInt(r, [lo, hi]) {
  const span = hi - lo + 1n;
  if (r.int(4) === 0) return r.int(2) ? lo : hi;
  return lo + ((BigInt(r() >>> 0) << 64n) | (BigInt(r() >>> 0) << 32n) | BigInt(r() >>> 0)) % span;
}
function randomDouble(r) {
  switch (r.int(6)) {
    case 0: return ['nan', 'inf', '-inf', '0.0', '-0.0', '5e-324', '1.7976931348623157e308', '3.4028235677973366e38', '3.4028235677973366e38000001', '1e-46', '1.401298464324817e-45', '7.006492321624085e-46'][r.int(12)].replace('e38000001', 'e38');
    case 1: return `${r.int(1000) - 500}.0`; // integral
    case 2: return `${r.int(2) ? '-' : ''}${2 ** r.int(70)}.0`;
    default: return String((r.float() - 0.5) * 10 ** (r.int(20) - 10));
  }
}

/**
 * Arrays as a JS or Python service builds them: ints of every width, floats, mixes, and, for
 * each target, values that fit it with one bad element (nil, bool, a float, an int out of range).
 * Elements: { i: '123' } | { f: '1.5' } | { b: true } | { n: 1 }.
 */
function peerArrays(seed0, sizes) {
  const arrays = [];
  let seed = seed0;
  for (const n of sizes) {
    for (const mix of ['int', 'float', 'mixed']) {
      const r = rng(seed++);
      const element = () => {
        const k = mix === 'int' ? 0 : mix === 'float' ? 1 : r.int(12) < 6 ? 0 : r.int(6) ? 1 : 2;
        if (k === 0) return { i: String(randomInt(r, CLASSES[r.int(CLASSES.length)])) };
        if (k === 1) return { f: randomDouble(r) };
        return r.int(2) ? { b: !!r.int(2) } : { n: 1 };
      };
      arrays.push({ single: r.int(2) === 1, elems: Array.from({ length: n }, element) });
    }
    for (const T of n < 65535 ? TYPES : [Float64Array, Int8Array, Uint16Array, BigInt64Array]) { // (each array is read into every type)
      const r = rng(seed++);
      const [lo, hi] = RANGES[T.name] ?? [-1000n, 1000n];
      const small = () => ({ i: String((lo < -100n ? -100n : lo) + BigInt(r.int(Number((hi > 100n ? 100n : hi) - (lo < -100n ? -100n : lo)) + 1))) });
      const elems = Array.from({ length: n }, () => (T === Float32Array || T === Float64Array) && r.int(2) ? { f: randomDouble(r) } : small());
      arrays.push({ single: r.int(2) === 1, elems });
      if (!n) continue;
      const bads = [{ n: 1 }, { b: true }, { f: '2.0' }, { f: '2.5' }, { i: String(hi + 1n) }, { i: String(lo - 1n) }, { i: String(2n ** 64n - 1n) }, { i: String(-(2n ** 63n)) }];
      for (let k = 0; k < 3; k++) {
        const bad = bads[r.int(bads.length)];
        if ('i' in bad && (BigInt(bad.i) >= 2n ** 64n || BigInt(bad.i) < -(2n ** 63n))) continue;
        const at = [0, n - 1, Math.min(n - 1, 15), Math.min(n - 1, 16), r.int(n)][r.int(5)];
        const copy = elems.slice();
        copy[at] = bad;
        arrays.push({ single: r.int(2) === 1, elems: copy });
      }
    }
  }
  return arrays;
}

describe('what Python writes, fastmp reads', () => {
  test('numeric arrays in every form Python chooses (ints of every width, float 32 and 64, mixes, bools and None among them) into every TypedArray: unpack() and a shaped field under int keys, with the right index, offset and path', () => {
    const arrays = peerArrays(1000, SIZES);
    // Each array bare, and as the field 'v' of a map under the int key 1 (8 bytes before it).
    const out = JSON.parse(python(`
def conv(e):
    if 'i' in e: return int(e['i'])
    if 'f' in e: return float(e['f'])
    if 'b' in e: return e['b']
    return None
res = []
for a in json.load(sys.stdin):
    vals = [conv(e) for e in a['elems']]
    res.append([msgpack.packb(vals, use_single_float=a['single']).hex(), msgpack.packb({1: {'a': None, 'v': vals}}, use_single_float=a['single']).hex()])
print(json.dumps(res))`, JSON.stringify(arrays)));
    let errors = 0;
    const failures = [];
    out.forEach(([bare, message], k) => {
      const bytes = Buffer.from(bare, 'hex');
      const wrapped = Buffer.from(message, 'hex');
      const { els, end } = parseArray(bytes);
      expect(end).toBe(bytes.length);
      expect(hexOf(wrapped.subarray(0, 8))).toBe('810182a161c0a176');
      for (const T of TYPES) {
        for (const integralFloats of [false, true]) {
          const want = expectedUnpack(els, T, integralFloats);
          if (want.code) errors++;
          for (const [name, fm] of Object.entries(INSTANCES)) {
            const where = `${name}: ${T.name}${integralFloats ? ' (integralFloats)' : ''} of array ${k} (${els.length})`;
            const a = checkUnpack(() => fm.unpack(bytes, T, { integralFloats }), want, T);
            if (a) failures.push(`unpack ${where}: ${a}`);
            const b = checkUnpack(() => {
              const value = fm.decode(wrapped, { shape: { 1: { v: T } }, integralFloats });
              expect(value[1].a).toBe(null);
              return value[1].v;
            }, want, T, '$[1].v', 8);
            if (b) failures.push(`decode ${where}: ${b}`);
          }
        }
      }
    });
    expect(failures.slice(0, 10)).toEqual([]);
    expect(errors).toBeGreaterThan(1000); // the bad elements were reached
  });

  test('booleans at the bool crossovers ±1, a None or an int among them: unpackBool() and the Boolean shape', () => {
    const sizes = [...new Set([15, 16, 17, 65535, 65536, ...['simd', 'scalar'].flatMap((b) => [unpackBelow(b, 'v8').bool - 1, unpackBelow(b, 'v8').bool, unpackBelow(b, 'v8').bool + 1])])];
    const out = JSON.parse(python(`
random.seed(11)
res = []
for n in json.load(sys.stdin):
    vals = [random.random() < 0.5 for _ in range(n)]
    res.append([n, -1, msgpack.packb(vals).hex(), msgpack.packb({'v': vals}).hex()])
    for bad in (None, 1, 0.0):
        at = random.choice([0, n - 1, min(n - 1, 15), min(n - 1, 16), random.randrange(n)])
        vs = list(vals); vs[at] = bad
        res.append([n, at, msgpack.packb(vs).hex(), msgpack.packb({'v': vs}).hex()])
print(json.dumps(res))`, JSON.stringify(sizes)));
    for (const [n, at, bare, message] of out) {
      const bytes = Buffer.from(bare, 'hex');
      const wrapped = Buffer.from(message, 'hex');
      const { els } = parseArray(bytes);
      const want = Uint8Array.from(els, (e) => (e.other === 0xc3 ? 1 : 0));
      for (const [name, fm] of Object.entries(INSTANCES)) {
        const where = `${name}: ${n} booleans, bad at ${at}`;
        if (at < 0) {
          expect(hexOf(fm.unpackBool(bytes)), where).toBe(hexOf(want));
          expect(hexOf(fm.decode(wrapped, { shape: { v: Boolean } }).v), where).toBe(hexOf(want));
          continue;
        }
        for (const [run, shift, path] of [[() => fm.unpackBool(bytes), 0, undefined], [() => fm.decode(wrapped, { shape: { v: Boolean } }), 3, '$.v']]) {
          let error;
          try { run(); } catch (e) { error = e; }
          expect([error?.code, error?.index, error?.offset, error?.path], where).toEqual(['TYPE', at, els[at].off + shift, path]);
        }
      }
    }
  });

  test('whole messages: nested maps with int keys, ext types, timestamps -1 of all three sizes, datetimes with a time zone: decoded as @msgpack/msgpack decodes them, with and without a shape', () => {
    const hexes = JSON.parse(python(`
from msgpack import Timestamp, ExtType
tz = datetime.timezone(datetime.timedelta(hours=5, minutes=30))
m = {
  'ts': [Timestamp(0, 0), Timestamp(1, 0), Timestamp(2**32 - 1, 0), Timestamp(1, 1), Timestamp(0, 999999999), Timestamp(2**34 - 1, 999999999),
         Timestamp(2**34, 0), Timestamp(-1, 0), Timestamp(-1, 500000), Timestamp(-62135596800, 0), Timestamp(2**62, 0), Timestamp(-2**63, 0)],
  'dt': [datetime.datetime(2026, 1, 2, 3, 4, 5, 678901, tzinfo=tz), datetime.datetime(1900, 1, 1, 0, 0, 0, 1000, tzinfo=datetime.timezone.utc),
         datetime.datetime(1969, 12, 31, 23, 59, 59, 999000, tzinfo=datetime.timezone(-datetime.timedelta(hours=8)))],
  1: {2: [1, 2.5, None, True], -3: {'x': b'\\x00\\x01'}, 300: {'vec': [0.5, -1.25, 3]}},
  2**40: 'big', -2**40: 'nbig', 1.5: 'float key',
  'ext': [ExtType(1, b'abc'), ExtType(127, b'x' * 70000), ExtType(5, b'1234'), ExtType(6, b''), ExtType(0x74, b'\\x03' + struct.pack('<2h', 1, -2))],
}
print(json.dumps({'msg': msgpack.packb(m, datetime=True).hex(), 'unix': [t.to_unix_nano() for t in m['ts']], 'dtms': [int(d.timestamp() * 1000) for d in m['dt']]}))`));
    const bytes = Buffer.from(hexes.msg, 'hex');
    const theirs = msgpack.decode(Uint8Array.from(bytes)); // bins as Uint8Array (messages.md difference 15)
    expect(theirs.ext[4]).toBeInstanceOf(msgpack.ExtData);
    theirs.ext[4] = new Int16Array([1, -2]); // ext 0x74 is a typed array (difference 7)
    const shape = { 1: { 300: { vec: Float32Array } } };
    for (const [name, fm] of Object.entries(INSTANCES)) {
      const plain = fm.decode(bytes);
      expect(difference(plain, theirs), name).toBe('');
      const shaped = fm.decode(bytes, { shape });
      expect(shaped[1][300].vec, name).toEqual(new Float32Array([0.5, -1.25, 3]));
      shaped[1][300].vec = theirs[1][300].vec;
      expect(difference(shaped, theirs), name).toBe('');
    }
    const dates = INSTANCES.js.decode(bytes).ts;
    hexes.unix.forEach((ns, i) => {
      const ms = Number(BigInt(ns) / 1000000n);
      // @msgpack/msgpack's rule: sec * 1000 + nsec / 1e6, truncated by Date (toward zero)
      if (Math.abs(ms) <= 8.64e15) expect(dates[i].getTime(), `ts ${i}`).toBe(ms);
      else expect(Number.isNaN(dates[i].getTime()), `ts ${i}`).toBe(true);
    });
    expect(INSTANCES.js.decode(bytes).dt.map((d) => d.getTime())).toEqual(hexes.dtms);
  });

  test('strings: astral characters at every str length class both ways, a lone surrogate as U+FFFD, and surrogateescape\'d bytes refused as UTF-8 at their offset', () => {
    const r = rng(5);
    const pieces = ['a', 'é', '€', '😀', '\ud800', '\udc00', '\uffff', '\u0000', '\u{10ffff}', '\ufeff'];
    const strs = [];
    for (const n of [0, 1, 15, 16, 17, 31, 32, 33, 49, 50, 51, 63, 64, 65, 199, 200, 201, 255, 256, 257, 1000, 65535, 65536, 70000]) {
      let s = '';
      while (s.length < n) s += r.int(4) ? String.fromCharCode(0x20 + r.int(90)) : pieces[r.int(pieces.length)];
      strs.push(s.slice(0, n)); // may split a pair: a lone surrogate
      if (n) strs.push(`${s.slice(0, n - 1)}😀`);
    }
    for (const [name, fm] of Object.entries(INSTANCES)) {
      const got = JSON.parse(python(`
m = msgpack.unpackb(sys.stdin.buffer.read(), raw=False)
print(json.dumps([s.encode('utf-8', 'surrogatepass').hex() for s in m]))`, fm.encode(strs)));
      strs.forEach((s, i) => expect(got[i], `${name}: string ${i}`).toBe(Buffer.from(s, 'utf8').toString('hex')));
    }
    const back = JSON.parse(python(`
random.seed(3)
pieces = ['a', 'é', '€', '😀', '\\uffff', '\\x00', '\\U0010ffff', '\\ufeff', '\\u07ff', '\\u0800']
ss = [''.join(random.choice(pieces) if random.random() < 0.4 else chr(random.randint(32, 126)) for _ in range(n)) for n in [0, 1, 15, 16, 17, 31, 32, 33, 50, 63, 64, 65, 200, 255, 256, 65535, 65536, 70000] for k in range(3)]
esc = b'ab\\xff\\xfe\\xed\\xa0\\x80c'.decode('utf-8', 'surrogateescape')
print(json.dumps({'packed': msgpack.packb(ss).hex(), 'utf8': [s.encode('utf-8').hex() for s in ss],
  'esc': msgpack.packb([1, esc], unicode_errors='surrogateescape').hex()}))`));
    const esc = Buffer.from(back.esc, 'hex');
    for (const [name, fm] of Object.entries(INSTANCES)) {
      fm.decode(Buffer.from(back.packed, 'hex')).forEach((s, i) => expect(Buffer.from(s, 'utf8').toString('hex'), `${name}: Python string ${i}`).toBe(back.utf8[i]));
      let error;
      try { fm.decode(esc); } catch (e) { error = e; }
      expect([error?.code, error?.offset, error?.path], name).toEqual(['UTF8', 2, '$[1]']);
      expect(hexOf(fm.decode(esc, { rawStrings: true })[1]), name).toBe('6162fffeeda08063');
    }
  });
});

describe('what msgpack-c writes, fastmp reads', () => {
  test('arrays in every form msgpack-c writes (smallest ints, each fixed width, float, double; bools and nils among them) into every TypedArray', () => {
    // Each form with values it holds; a nil or a bool now and then.
    const FORMS = { I: [-(2n ** 63n), 2n ** 63n - 1n], U: [0n, 2n ** 64n - 1n], c: [0n, 255n], s: [0n, 65535n], w: [0n, 2n ** 32n - 1n], l: [0n, 2n ** 64n - 1n],
      b: [-128n, 127n], h: [-32768n, 32767n], i: [-(2n ** 31n), 2n ** 31n - 1n], q: [-(2n ** 63n), 2n ** 63n - 1n], F: null, D: null };
    const lines = [];
    let seed = 7;
    for (const n of SIZES) {
      for (const [form, range] of Object.entries(FORMS)) {
        const r = rng(seed++);
        const bad = n && r.int(3) === 0 ? r.int(n) : -1;
        const tokens = Array.from({ length: n }, (_, i) => {
          if (i === bad) return ['nil', 'true', 'false'][r.int(3)];
          if (form === 'F') return (r.int(4) ? r() >>> 0 : [0x7f800001, 0xffc00000, 0x80000000, 0x00000001, 0x7f7fffff, 0x4b800000][r.int(6)]).toString(16);
          if (form === 'D') return (r.int(4) ? (BigInt(r() >>> 0) << 32n) | BigInt(r() >>> 0) : [0x7ff0000000000001n, 0x7ff8000020000000n, 0x4000000000000000n, 0x8000000000000000n][r.int(4)]).toString(16);
          if (r.int(2)) return String(randomInt(r, range)); // anywhere in the form's range
          const small = BigInt(r.int(200) - 100); // small values, in a wide form
          return String(small < range[0] ? -small : small);
        });
        lines.push(`${form} ${n} ${tokens.join(' ')}`);
      }
    }
    const stream = msgpackC(['write'], lines.join('\n'));
    const failures = [];
    let at = 0;
    for (let k = 0; k < lines.length; k++) {
      const bytes = stream.subarray(at, parseArray(stream, at).end);
      const { els } = parseArray(bytes);
      at += bytes.length;
      for (const T of TYPES) {
        const want = expectedUnpack(els, T, false);
        for (const [name, fm] of Object.entries(INSTANCES)) {
          const differs = checkUnpack(() => fm.unpack(bytes, T), want, T);
          if (differs) failures.push(`${name}: ${T.name} of msgpack-c's ${lines[k].slice(0, 10)}…: ${differs}`);
        }
      }
    }
    expect(at).toBe(stream.length);
    expect(failures.slice(0, 10)).toEqual([]);
  });

  test('msgpack-c reads a fastmp message (typed fields, Dates of all three timestamp sizes) and writes timestamps fastmp reads back', () => {
    const dates = [0, 1000, (2 ** 32 - 1) * 1000, 1, (2 ** 34 - 1) * 1000 + 999, 2 ** 34 * 1000, -1, -1000, -8.64e15, 8.64e15];
    const message = { f: new Float32Array([0.5, -0, NaN]), i: new BigInt64Array([-(2n ** 63n), 5n]), u: new Uint16Array([65535, 0]), d: dates.map((t) => new Date(t)) };
    const [value] = readRecords(msgpackC(['read'], INSTANCES.simd.encode(message)));
    const fields = Object.fromEntries(value.map.map(([k, v]) => [Buffer.from(k.str).toString(), v]));
    expect(fields.f.list.map((e) => e.tag + e.bits.toString(16))).toEqual(['f3f000000', 'f80000000', 'f7fc00000']);
    expect(fields.i.list.map((e) => `${e.tag}${BigInt.asIntN(64, e.bits)}`)).toEqual(['i-9223372036854775808', 'u5']);
    expect(fields.u.list.map((e) => `${e.tag}${e.bits}`)).toEqual(['u65535', 'u0']);
    // The timestamps as msgpack-c's own writer writes the same instants: the same bytes.
    const specs = dates.map((t) => [Math.floor(t / 1000), ((t % 1000) + 1000) % 1000 * 1e6]);
    const theirs = msgpackC(['write'], specs.map(([s, ns]) => `T 0 ${s} ${ns}`).join('\n'));
    expect(fields.d.list.map((e) => e.ext)).toEqual(dates.map(() => -1));
    const ours = Buffer.concat(dates.map((t) => INSTANCES.simd.encode(new Date(t))));
    expect(hexOf(ours)).toBe(hexOf(theirs));
    for (const [name, fm] of Object.entries(INSTANCES)) {
      expect([...fm.decodeMulti(theirs)].map((d) => d.getTime()), name).toEqual(dates);
    }
  });
});
