// Audit (C kernels, second look): every kernel at EVERY length 0..300 (the
// parity test takes a few sizes: 0-3, 15-17, 31, 63-65, ...), each result
// field (code, count, index, offset, end, tag, value) and every output byte,
// on the four native builds (one fm-cli process each) and on both wasm builds
// called bare (test/bare-kernels.js), there with the input and the output at
// every offset of a 16-byte line (element-aligned for typed inputs/outputs,
// as a JS typed array always is). x86_64-simd is the reference.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, expect, test } from 'vitest';
import { bareKernels } from './bare-kernels.js';
import { NATIVE_BUILDS, ROOT, encodeElements, harnessOps, randomElements, rng } from './helpers.js';

const TYPES = [
  ['f32', 4], ['f64', 8], ['i8', 1], ['u8', 1], ['i16', 2], ['u16', 2],
  ['i32', 4], ['u32', 4], ['i64', 8], ['u64', 8], ['bool', 1],
];
const INTS = TYPES.filter(([t]) => /^[iu]/.test(t));
const MAX = 300;
const MIXES = ['f32', 'f64', 'fixint', 'mixed', 'runs'];
const SETS = { IA5: [0, 0x7f], VISIBLE: [0x20, 0x7e], PRINTABLE: [0x20, 0x7a], NUMERIC: [0x20, 0x39] };

/** Random typed-array bytes biased to the form boundaries of its type. */
function typedBytes(type, size, n, r) {
  const b = new Uint8Array(n * size);
  if (type === 'bool') { for (let i = 0; i < n; i++) b[i] = r.int(4) === 0 ? r.int(256) : r.int(2); return b; }
  const edges = [0n, 1n, 31n, 32n, 33n, 127n, 128n, 255n, 256n, 32767n, 32768n, 65535n, 65536n, 2n ** 31n - 1n, 2n ** 31n, 2n ** 32n - 1n, 2n ** 32n, 2n ** 63n - 1n];
  for (let i = 0; i < n; i++) {
    if (type === 'f32' || type === 'f64' || r.int(3) === 0) { for (let k = 0; k < size; k++) b[i * size + k] = r.int(256); continue; }
    let v = edges[r.int(edges.length)] + BigInt(r.int(3) - 1);
    if (r.int(2)) v = -v;
    const bits = BigInt.asUintN(8 * size, v);
    for (let k = 0; k < size; k++) b[i * size + k] = Number((bits >> BigInt(8 * k)) & 0xffn);
  }
  return b;
}

/** Units of a set, one bad unit at a random place in a third of them. */
function setUnits(name, n, r, bad) {
  const [lo, hi] = SETS[name];
  const u = new Uint16Array(n);
  for (let i = 0; i < n; i++) {
    let c = lo + r.int(hi - lo + 1);
    if (name === 'PRINTABLE' && !/[A-Za-z0-9 '()+,\-./:=?]/.test(String.fromCharCode(c))) c = 0x41 + r.int(26);
    if (name === 'NUMERIC' && c < 0x30) c = r.int(2) ? 0x20 : 0x30;
    u[i] = c;
  }
  if (bad && n) u[r.int(n)] = [0x80, 0xff, 0x100, 0x7f, 0x1f, 0x21, 0x3a, 0xd800][r.int(8)];
  return u;
}

const le = (u) => new Uint8Array(u.buffer, u.byteOffset, u.byteLength);

function cases() {
  const r = rng(2026);
  const list = [];
  for (let n = 0; n <= MAX; n++) {
    for (const [type, size] of TYPES) {
      list.push({ op: `PACK_${type}`, type, size, bytes: typedBytes(type, size, n, r) });
      const mixes = type === 'bool' ? [null] : [MIXES[n % 5], MIXES[(n + 2) % 5]];
      for (const mix of mixes) {
        let bytes;
        if (type === 'bool') {
          const h = n <= 15 ? [0x90 | n] : [0xdc, n >> 8, n & 255];
          bytes = Uint8Array.from([...h, ...Array.from({ length: n }, () => 0xc2 + r.int(2))]);
          if (n && r.int(3) === 0) bytes[h.length + r.int(n)] = [0xc0, 0xc4, 0xc1][r.int(3)];
        } else {
          bytes = encodeElements(randomElements(n, 7 * n + size + mix.length, mix));
          if (n && r.int(4) === 0) bytes = bytes.subarray(0, bytes.length - 1 - r.int(4)); // cut
        }
        list.push({ op: `UNPACK_${type}`, type, size, bytes });
        if (INTS.some(([t]) => t === type)) list.push({ op: `UNPACK_INTEGRAL_${type}`, type, size, bytes, integral: true });
      }
    }
    const bmp = new Uint16Array(n);
    for (let i = 0; i < n; i++) bmp[i] = r.int(5) === 0 ? r.int(0x10000) : r.int(r.int(2) ? 0x80 : 0x100);
    const bmpClean = bmp.map((u) => (u >= 0xd800 && u < 0xe000 ? 0x41 : u));
    for (const units of [bmp, bmpClean]) {
      list.push({ op: 'BMP_ENCODE', bytes: le(units.slice()) });
      const wire = new Uint8Array(2 * n);
      for (let i = 0; i < n; i++) { wire[2 * i] = units[i] >> 8; wire[2 * i + 1] = units[i] & 255; }
      list.push({ op: 'BMP_DECODE', bytes: wire });
      list.push({ op: 'BMP_NARROW_ASCII', bytes: wire });
      list.push({ op: 'BMP_NARROW_LATIN1', bytes: wire });
      list.push({ op: 'DER_WRITE_BMP', bytes: le(units.slice()), nativeOnly: true });
    }
    for (const name of Object.keys(SETS)) {
      for (const bad of [false, true]) {
        const units = setUnits(name, n, r, bad);
        list.push({ op: `${name}_ENCODE`, bytes: le(units) });
        const bytes = Uint8Array.from(units, (u) => u & 0xff);
        list.push({ op: `${name}_DECODE`, bytes });
        list.push({ op: `${name}_CHECK`, bytes });
        list.push({ op: `DER_WRITE_${name}`, bytes: le(units), nativeOnly: true });
        const tag = { IA5: 0x16, VISIBLE: 0x1a, PRINTABLE: 0x13, NUMERIC: 0x12 }[name];
        const head = n < 0x80 ? [tag, n] : [tag, 0x81, n];
        list.push({ op: `DER_READ_${name}`, bytes: Uint8Array.from([...head, ...bytes]), nativeOnly: true });
      }
    }
  }
  return list;
}

// ---- native: fm-cli, every field of its response -----------------------------------
function runNativeFull(build, requests) {
  const exe = join(ROOT, 'build', build.name, 'fm-cli');
  if (!existsSync(exe)) throw new Error(`${exe} is missing: run ./build.sh first`);
  const ops = harnessOps();
  const dir = mkdtempSync(join(tmpdir(), 'fastmp-cnative2-'));
  try {
    const parts = [];
    for (const q of requests) {
      const head = Buffer.alloc(5);
      head[0] = ops.get(q.op);
      if (head[0] === undefined) throw new Error(`no op ${q.op}`);
      head.writeUInt32LE(q.bytes.length, 1);
      parts.push(head, Buffer.from(q.bytes.buffer, q.bytes.byteOffset, q.bytes.length));
    }
    writeFileSync(join(dir, 'in'), Buffer.concat(parts));
    const [cmd, ...args] = [...build.run, exe, join(dir, 'in'), join(dir, 'out')];
    execFileSync(cmd, args, { stdio: ['ignore', 'ignore', 'inherit'], maxBuffer: 1 << 28 });
    const out = readFileSync(join(dir, 'out'));
    const list = [];
    for (let p = 0; p < out.length;) {
      const w = (k) => out.readUInt32LE(p + 4 * k);
      list.push({ code: w(0), count: w(1), index: w(2), offset: w(3), end: w(4), tag: w(5), value: [w(6), w(7)], data: Buffer.from(out.subarray(p + 36, p + 36 + w(8))).toString('hex') });
      p += 36 + w(8);
    }
    return list;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// ---- wasm: the same ops on the bare kernels, at a chosen offset of in and out -------
function wasmRunner(build) {
  const k = bareKernels(build, ['pack', 'unpack', 'strings']);
  const inBase = k.malloc(1 << 16), outBase = k.malloc(1 << 16), res = k.malloc(32);
  return (q, inOff, outOff) => {
    const u8 = () => new Uint8Array(k.memory.buffer);
    const inAt = inBase + inOff, outAt = outBase + outOff;
    u8().fill(0xa5, outAt, outAt + 4096);
    u8().set(q.bytes, inAt);
    u8().fill(0xee, res, res + 32);
    const len = q.bytes.length;
    let size = 0;
    const m = /^(PACK|UNPACK_INTEGRAL|UNPACK)_([a-z0-9]+)$/.exec(q.op);
    const r = () => new DataView(k.memory.buffer, res, 32);
    const name = q.op.split('_')[0].toLowerCase();
    let full = true;
    if (m && m[1] === 'PACK') {
      size = k[`fm_pack_${m[2]}`](inAt, len / q.size, outAt) >>> 0;
      return { code: 0, count: len / q.size, index: 0, offset: 0, end: size, tag: 0, value: [0, 0], data: Buffer.from(u8().subarray(outAt, outAt + size)).toString('hex') };
    }
    if (m) {
      k[`fm_unpack_${m[2]}`](inAt, len, outAt, len, q.integral ? 1 : 0, res);
      size = r().getUint32(0, true) === 0 ? r().getUint32(4, true) * q.size : 0;
    } else if (q.op.startsWith('BMP_NARROW')) {
      const done = k.fm_bmp_narrow(inAt, len / 2, outAt, q.op.endsWith('ASCII') ? 0x7f : 0xff) >>> 0;
      return { code: 0, count: done, index: 0xffffffff, offset: 0, end: 2 * done, tag: 0, value: [0, 0], data: Buffer.from(u8().subarray(outAt, outAt + done)).toString('hex') };
    } else if (q.op.endsWith('_ENCODE')) {
      const at = q.op === 'BMP_ENCODE' ? inAt : outAt; // in place, as fm-cli runs it
      k[`fm_${name}_encode`](inAt, len / 2, at, res);
      if (r().getUint32(0, true) === 0) size = r().getUint32(16, true);
      return fields(r(), Buffer.from(u8().subarray(at, at + size)).toString('hex'));
    } else if (q.op.endsWith('_DECODE')) {
      const at = q.op === 'BMP_DECODE' ? inAt : outAt;
      k[`fm_${name}_decode`](inAt, len, at, res);
      if (r().getUint32(0, true) === 0) size = 2 * r().getUint32(4, true);
      return fields(r(), Buffer.from(u8().subarray(at, at + size)).toString('hex'));
    } else if (q.op.endsWith('_CHECK')) {
      k[`fm_${name}_check`](inAt, len, res);
      full = false;
    }
    return fields(r(), full ? Buffer.from(u8().subarray(outAt, outAt + size)).toString('hex') : '');
  };
}
function fields(dv, data) {
  const w = (o) => dv.getUint32(o, true);
  return { code: w(0), count: w(4), index: w(8), offset: w(12), end: w(16), tag: w(20), value: [w(24), w(28)], data };
}
// fm-cli's pack response leaves index 0; a pack has no other fields.

const CASES = cases();
let native;
beforeAll(() => {
  native = Object.fromEntries(NATIVE_BUILDS.map((b) => [b.name, runNativeFull(b, CASES)]));
}, 600_000);

test('the batch: every op at every length 0..300', () => {
  const ops = new Set(CASES.map((q) => q.op));
  expect(ops.size).toBe(11 + 11 + 8 + 4 + 1 + 4 * 5);
  const codes = new Set(native['x86_64-simd'].map((o) => o.code));
  for (const c of [0, 2, 3, 4, 6, 16, 18]) expect(codes.has(c), `code ${c} reached`).toBe(true);
});

test.each(NATIVE_BUILDS.slice(1).map((b) => [b.name]))('%s agrees with x86_64-simd on every field and byte', (name) => {
  const ref = native['x86_64-simd'];
  const bad = [];
  native[name].forEach((o, i) => { if (JSON.stringify(o) !== JSON.stringify(ref[i])) bad.push({ op: CASES[i].op, len: CASES[i].bytes.length, got: o, want: ref[i] }); });
  expect(bad.slice(0, 3)).toEqual([]);
});

test.each([['simd'], ['scalar']])('wasm %s agrees with x86_64-simd at every in/out offset of a 16-byte line', (build) => {
  const run = wasmRunner(build);
  const ref = native['x86_64-simd'];
  const bad = [];
  CASES.forEach((q, i) => {
    if (q.nativeOnly) return;
    const elem = q.size ?? 1;
    const inStep = q.op.startsWith('PACK') ? elem : q.op.endsWith('_ENCODE') || q.op === 'BMP_DECODE' ? 2 : 1;
    const outStep = q.op.startsWith('UNPACK') ? elem : q.op.endsWith('_DECODE') ? 2 : 1;
    for (const [a, b] of [[0, 0], [(i * inStep) % 16, (i * 7 * outStep) % 16], [16 - inStep, 16 - outStep]]) {
      const got = run(q, a - (a % inStep), b - (b % outStep));
      const want = { ...ref[i] };
      if (q.op.startsWith('PACK')) got.index = want.index; // fm-cli leaves a pack's index at 0
      if (JSON.stringify(got) !== JSON.stringify(want)) { bad.push({ op: q.op, len: q.bytes.length, a, b, got, want }); break; }
    }
  });
  expect(bad.slice(0, 3)).toEqual([]);
});
