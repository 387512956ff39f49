// messages.js - the whole-message benchmark:
// four workloads encoded and decoded by fastmp (every path), @msgpack/msgpack
// and msgpackr, configured as their READMEs advise, each table (a workload's
// encode or decode, every contender) in a fresh process, contenders
// interleaved in rotated rounds, ratios taken within the table's process.
//
//   node --expose-gc bench/messages.js [--quick] [--out DIR] [--only REGEX] [--regime plain|kept|both]
//
// The parent process runs the suite in two memory regimes, each table in a
// child node process of its own: as a plain process (glibc's defaults: freed
// blocks go back to the kernel, and every fresh page then costs what `npm run
// bench` prints first, bench/lib.js pageFaultProbe), and with GLIBC_TUNABLES
// set so that glibc keeps its memory (KEPT_TUNABLES below). It writes
// RESULTS-messages.md and results-messages.json into DIR (default: bench/):
// the file holds every row's round medians, the report is made from it
// (writeMessages). --only keeps the tables whose name ("W1 encode", ...)
// matches; --child runs them in this process and prints JSON (for
// profiling: node --cpu-prof --expose-gc bench/messages.js --child --only 'W1 encode');
// --child --table NAME runs the one table NAME, --child --list prints the names.
// `npm run bench` runs this suite too (bench/run.js).
import { Decoder as MsgpackDecoder, Encoder as MsgpackEncoder, decodeAsync as msgpackDecodeAsync } from '@msgpack/msgpack';
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FLOAT32_OPTIONS, Packr, Unpackr, isNativeAccelerationEnabled } from 'msgpackr';
import { Bench } from 'tinybench';
import { toArray } from '../bin/loops.js';
import { random } from '../bin/workloads.js';
import { Decoder, Encoder, backend, createFastmp, decode, decodeAsync, encode, init } from '../js/index.js';
import { writeResults } from './results-json.js';

const HERE = fileURLToPath(new URL('.', import.meta.url));
const ROOT = join(HERE, '..');
export const KEPT_TUNABLES = 'glibc.malloc.trim_threshold=1073741824:glibc.malloc.mmap_threshold=33554432:glibc.malloc.top_pad=67108864';
export const REGIMES = {
  plain: { title: 'Plain process (glibc defaults: freed memory returned to the kernel)', env: null },
  kept: { title: `Kept memory (GLIBC_TUNABLES=${KEPT_TUNABLES})`, env: KEPT_TUNABLES },
};

// ---- the workloads ------------------------------------------------------------------

// random(seed): the seeded generator the package's own bench (bin/) uses, so that every run times the same values.

/** A typed array over a bin's bytes: a view where aligned (what users write), else a copy. */
function binTo(Type, u8) {
  const size = Type.BYTES_PER_ELEMENT;
  if (u8.byteOffset % size === 0) return new Type(u8.buffer, u8.byteOffset, u8.byteLength / size);
  return new Type(Uint8Array.prototype.slice.call(u8).buffer); // (a Buffer's slice() would be a view)
}

/**
 * Each workload: its value, the shape fastmp decodes it by, and the code a
 * peer's user writes around the peer: toPlain (typed arrays -> standard
 * arrays, before encoding), fromPlain / fromBin (after decoding: the typed
 * arrays back, in place, from standard arrays / from bins).
 */
export function workloads() {
  const r = random(12);
  const f32 = (n) => Float32Array.from({ length: n }, () => r() * 2 - 1);

  const w1 = {
    id: 'W1',
    title: 'W1: one embedding message `{id, model, embedding: Float32Array(1536), tags: [3 strings], ts: Date}`',
    value: { id: 912_345_678, model: 'text-embedding-3-small', embedding: f32(1536), tags: ['news', 'en', 'v2'], ts: new Date(1_733_011_200_123) },
    shape: { embedding: Float32Array },
    typed: 'Float32Array',
    toPlain: (m) => ({ id: m.id, model: m.model, embedding: toArray(m.embedding), tags: m.tags, ts: m.ts }),
    fromPlain: (v) => {
      v.embedding = Float32Array.from(v.embedding);
      return v;
    },
    fromBin: (v) => {
      v.embedding = binTo(Float32Array, v.embedding);
      return v;
    },
  };

  const frames = Array.from({ length: 64 }, (_, i) => ({
    t: 1_000_000 + 5 * i,
    accel: f32(3),
    gyro: f32(3),
    samples: Int16Array.from({ length: 256 }, () => Math.round((r() * 2 - 1) * 12000)),
  }));
  const w2 = {
    id: 'W2',
    title: 'W2: a sensor batch `{device, seq, frames: 64 × {t, accel: Float32Array(3), gyro: Float32Array(3), samples: Int16Array(256)}}`',
    value: { device: 'imu-7', seq: 4242, frames },
    shape: { frames: [{ accel: Float32Array, gyro: Float32Array, samples: Int16Array }] },
    typed: 'Float32Array / Int16Array',
    toPlain: (m) => ({
      device: m.device,
      seq: m.seq,
      frames: m.frames.map((f) => ({ t: f.t, accel: toArray(f.accel), gyro: toArray(f.gyro), samples: toArray(f.samples) })),
    }),
    fromPlain: (v) => {
      for (const f of v.frames) {
        f.accel = Float32Array.from(f.accel);
        f.gyro = Float32Array.from(f.gyro);
        f.samples = Int16Array.from(f.samples);
      }
      return v;
    },
    fromBin: (v) => {
      for (const f of v.frames) {
        f.accel = binTo(Float32Array, f.accel);
        f.gyro = binTo(Float32Array, f.gyro);
        f.samples = binTo(Int16Array, f.samples);
      }
      return v;
    },
  };

  // W3: a typical API object, no typed arrays: the mix of MessagePack-CSharp's and
  // Nino's "SimpleClass" benchmarks (ids, a name, an int array, int-keyed maps,
  // nested objects and lists of them, ~700 bytes), with floats and a non-ASCII string.
  const w3 = {
    id: 'W3',
    title: 'W3: a typical API object, no typed arrays (ints, floats, strings, nested arrays and maps; ~700 B)',
    value: {
      id: 48213,
      name: 'Widget Pro 3000',
      active: true,
      price: 129.99,
      rating: 4.73,
      stock: 1200,
      createdAt: 1_700_000_000,
      numbers: [0, 1, -1, 7, 42, 127, 128, 255, 256, -33, -129, 1000, 65535, 65536, 100_000, -40_000, 2_147_483_647, 3, 14, 15],
      tags: ['electronics', 'gadgets', 'sale', 'new'],
      dims: { w: 12.5, h: 3.25, d: 0.75, unit: 'cm' },
      map1: { 1: 'one', 2: 'two', 3: 'three', 4: 'four', 5: 'five', 6: 'six', 7: 'seven', 8: 'eight' },
      map2: { 1: 100, 2: 200, 3: 300, 4: 400, 5: -500, 6: 60_000, 7: 7, 8: 0 },
      owner: { id: 7, name: 'Ada Lovelace', email: 'ada@example.com', city: 'Zürich', roles: ['admin', 'editor'] },
      items: Array.from({ length: 6 }, (_, i) => ({ sku: `A-${100 + i}`, qty: i + 1, price: 9.99 + i, discount: i % 2 ? 0.1 : 0, gift: i === 3 })),
      note: null,
      description: 'A compact widget with three modes, a long battery life and a two-year warranty.',
    },
    shape: undefined,
    typed: null,
  };

  const w4 = {
    id: 'W4',
    title: 'W4: 10 000 `Float32Array(3)` vectors in one array (per-array overhead)',
    value: Array.from({ length: 10_000 }, () => f32(3)),
    shape: [Float32Array],
    typed: 'Float32Array',
    toPlain: (vs) => vs.map((v) => toArray(v)),
    fromPlain: (a) => {
      for (let i = 0; i < a.length; i++) a[i] = Float32Array.from(a[i]);
      return a;
    },
  };
  return [w1, w2, w3, w4];
}

// ---- the contenders -----------------------------------------------------------------

/**
 * Four more fastmp instances beside the package's default one: each path
 * forced (wasm-simd and wasm-scalar at every size, pure-js never wasm) and
 * auto. Every instance's Encoder / Decoder share one class: a class per
 * instance would make the codec's property caches megamorphic in a process
 * like this one, and slow every row down (W3 the most).
 */
const PATHS = [
  ['auto', {}],
  ['wasm-simd', { backend: 'simd', pureJs: 'never' }],
  ['wasm-scalar', { backend: 'scalar', pureJs: 'never' }],
  ['pure-js', { pureJs: 'always' }],
];

/** The peers' and fastmp's rows, one place: the target table and the tables name them alike. */
const MR = 'msgpackr Packr useFloat32:ALWAYS';
const MM = '@msgpack/msgpack Encoder forceFloat32';
export const NAMES = {
  fastmpEncoder: 'fastmp new Encoder(), reused',
  fastmpEncode: 'fastmp encode() (module-level)',
  fastmpInto: 'fastmp Encoder.encodeInto, reused target',
  fastmpBin: "fastmp new Encoder({typedArrays:'bin'}), reused",
  fastmpDecoder: 'fastmp new Decoder({shape}), reused',
  fastmpReuse: 'fastmp new Decoder({shape, reuseTypedArrays}), reused',
  fastmpEncodeBin: "fastmp encode(v, {typedArrays:'bin'}) (module-level)",
  fastmpDecode: 'fastmp decode(bytes, {shape}) (module-level)',
  fastmpDecoderPlain: 'fastmp new Decoder(), reused',
  fastmpDecodePlain: 'fastmp decode(bytes) (module-level)',
  fastmpBinDecoder: 'fastmp new Decoder({shape}), bin input',
  fastmpBinReuse: 'fastmp new Decoder({shape, reuseTypedArrays}), bin input',
  fastmpSharedRef: 'fastmp Encoder.encodeSharedRef, reused (the write, no copy out)',
  binEncodeFloor: "floor: Encoder({typedArrays:'bin'}).encodeSharedRef (the write, no copy out) plus one Buffer.allocUnsafeSlow of its length",
  binFloor: 'floor: the reuseTypedArrays bin decode plus one fresh Float32Array(1536) per call',
  arrayFloor: 'floor: the reuseTypedArrays decode plus one fresh Float32Array(1536) per call',
  floor: 'copy floor: Uint8Array#slice of fastmp output',
  vectorsFloor: 'floor: a bare loop making the 10 000 Float32Array(3), no checks',
  msgpackrFrom: `${MR} + copy loop (timed)`,
  msgpackrPre: `${MR}, pre-converted input`,
  msgpackFrom: `${MM} + copy loop (timed)`,
  msgpackPre: `${MM}, pre-converted input`,
  msgpackrBin: 'msgpackr Packr default ({useRecords:false}; bin)',
  msgpackrRecords: 'msgpackr new Packr() (records ext; bin)',
  msgpackBin: '@msgpack/msgpack Encoder default (bin)',
  msgpackrPlainEnc: 'msgpackr Packr {useRecords:false}, reused',
  msgpackrRecordsEnc: 'msgpackr new Packr() (records ext, not standard maps)',
  msgpackEnc: '@msgpack/msgpack Encoder, reused',
  msgpackrUnpackFrom: 'msgpackr Unpackr + TypedArray.from',
  msgpackrUnpack: 'msgpackr Unpackr, plain arrays (no conversion)',
  msgpackUnpackFrom: '@msgpack/msgpack Decoder + TypedArray.from',
  msgpackrUnpackBin: 'msgpackr Unpackr, bin input + typed view',
  msgpackUnpackBin: '@msgpack/msgpack Decoder, bin input + typed view',
  msgpackrUnpackPlain: 'msgpackr Unpackr {useRecords:false}, reused',
  msgpackrUnpackRecords: 'msgpackr Unpackr, records input',
  msgpackDec: '@msgpack/msgpack Decoder, reused',
  fastmpStream: 'fastmp decodeAsync(chunks)',
  msgpackStream: '@msgpack/msgpack decodeAsync(chunks)',
};

/** The peers of a workload, as their READMEs advise. */
function peerRows(w, fastmpOut, binBytes) {
  const v = w.value;
  const typed = w.typed !== null;
  const withBin = binBytes !== null;
  const plain = typed ? w.toPlain(v) : v;
  const enc = [];
  const dec = [];
  if (typed) {
    const packr32 = new Packr({ useRecords: false, useFloat32: FLOAT32_OPTIONS.ALWAYS });
    const encoder32 = new MsgpackEncoder({ forceFloat32: true });
    enc.push({ name: NAMES.msgpackrFrom, fn: () => packr32.pack(w.toPlain(v)) });
    enc.push({ name: NAMES.msgpackrPre, fn: () => packr32.pack(plain) });
    enc.push({ name: NAMES.msgpackFrom, fn: () => encoder32.encode(w.toPlain(v)) });
    enc.push({ name: NAMES.msgpackPre, fn: () => encoder32.encode(plain) });
    if (withBin) {
      const packr = new Packr({ useRecords: false });
      const records = new Packr();
      const encoder = new MsgpackEncoder();
      enc.push({ name: NAMES.msgpackrBin, fn: () => packr.pack(v), wire: 'bin' });
      enc.push({ name: NAMES.msgpackrRecords, fn: () => records.pack(v), wire: 'records', info: true });
      enc.push({ name: NAMES.msgpackBin, fn: () => encoder.encode(v), wire: 'bin' });
    }
    const unpackr = new Unpackr({ useRecords: false });
    const decoder = new MsgpackDecoder();
    const Types = w.id === 'W2' ? 'Float32Array.from / Int16Array.from' : 'Float32Array.from';
    dec.push({ name: NAMES.msgpackrUnpackFrom.replace('TypedArray.from', Types), key: NAMES.msgpackrUnpackFrom, fn: () => w.fromPlain(unpackr.unpack(fastmpOut)) });
    dec.push({ name: NAMES.msgpackrUnpack, fn: () => unpackr.unpack(fastmpOut), info: true });
    dec.push({ name: NAMES.msgpackUnpackFrom.replace('TypedArray.from', Types), key: NAMES.msgpackUnpackFrom, fn: () => w.fromPlain(decoder.decode(fastmpOut)) });
    if (withBin) {
      dec.push({ name: NAMES.msgpackrUnpackBin, fn: () => w.fromBin(unpackr.unpack(binBytes)), bin: true });
      dec.push({ name: NAMES.msgpackUnpackBin, fn: () => w.fromBin(decoder.decode(binBytes)), bin: true });
    }
  } else {
    const packr = new Packr({ useRecords: false });
    const records = new Packr();
    const encoder = new MsgpackEncoder();
    enc.push({ name: NAMES.msgpackEnc, fn: () => encoder.encode(v) });
    enc.push({ name: NAMES.msgpackrPlainEnc, fn: () => packr.pack(v) });
    enc.push({ name: NAMES.msgpackrRecordsEnc, fn: () => records.pack(v), wire: 'records', info: true });
    const unpackr = new Unpackr({ useRecords: false });
    const recordsBytes = new Packr().pack(v);
    const recordsUnpackr = new Unpackr();
    const decoder = new MsgpackDecoder();
    dec.push({ name: NAMES.msgpackDec, fn: () => decoder.decode(fastmpOut) });
    dec.push({ name: NAMES.msgpackrUnpackPlain, fn: () => unpackr.unpack(fastmpOut) });
    dec.push({ name: NAMES.msgpackrUnpackRecords, fn: () => recordsUnpackr.unpack(recordsBytes), info: true });
  }
  return { enc, dec };
}

/**
 * W4's bytes (an array16 of fixarrays of float32) as Float32Arrays by the
 * barest loop: no checks but the ones that keep it from reading garbage, a
 * DataView made once: what any decoder that makes these typed arrays pays at
 * least, so that fastmp's own overhead per field can be read off the table.
 */
function vectorsFloor(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes[0] !== 0xdc) throw new Error('W4 floor: expected an array16');
  const n = view.getUint16(1);
  const out = new Array(n);
  let p = 3;
  for (let i = 0; i < n; i++) {
    const count = bytes[p++] & 0x0f;
    const a = new Float32Array(count);
    for (let j = 0; j < count; j++, p += 5) {
      if (bytes[p] !== 0xca) throw new Error('W4 floor: expected float32 elements');
      a[j] = view.getFloat32(p + 1);
    }
    out[i] = a;
  }
  return out;
}

/**
 * The encode and decode tables of one workload: { name, op, input, refs,
 * tasks: [{ name, fn, wire?, info?, floor? }], check() }. refs: the rows the
 * ratio columns divide by. check() throws unless every contender's output
 * decodes, by every decoder that can read it, to the workload's numbers, and
 * every decoder gives them.
 */
function tables(w, api) {
  const v = w.value;
  const typed = w.typed !== null;
  const withBin = w.id === 'W1' || w.id === 'W2';
  const options = w.shape ? { shape: w.shape } : undefined;
  const fastmpOut = api.encode(v);
  const binBytes = withBin ? api.encode(v, { typedArrays: 'bin' }) : null;
  const enc = [];
  const dec = [];
  // What users write: the package's default instance.
  const encoder = new api.Encoder();
  const decoder = new api.Decoder(options);
  enc.push({ name: NAMES.fastmpEncoder, fn: () => encoder.encode(v) });
  enc.push({ name: NAMES.fastmpEncode, fn: () => api.encode(v) });
  dec.push({ name: w.shape ? NAMES.fastmpDecoder : NAMES.fastmpDecoderPlain, fn: () => decoder.decode(fastmpOut) });
  if (w.shape) {
    // Its typed arrays are the same objects at every call (valid until the next).
    const reusing = new api.Decoder({ ...options, reuseTypedArrays: true });
    dec.push({ name: NAMES.fastmpReuse, fn: () => reusing.decode(fastmpOut) });
  }
  dec.push({ name: w.shape ? NAMES.fastmpDecode : NAMES.fastmpDecodePlain, fn: () => api.decode(fastmpOut, options) });
  if (withBin) {
    const target = new Uint8Array(2 * fastmpOut.length + 1024);
    enc.push({ name: NAMES.fastmpInto, fn: () => encoder.encodeInto(v, target, 0), wire: 'into', info: true, target });
    const binEncoder = new api.Encoder({ typedArrays: 'bin' });
    enc.push({ name: NAMES.fastmpBin, fn: () => binEncoder.encode(v), wire: 'bin' });
    enc.push({ name: NAMES.fastmpEncodeBin, fn: () => api.encode(v, { typedArrays: 'bin' }), wire: 'bin' });
    // What an encode() that returns its own ArrayBuffer costs at least: the write, and the output's allocation.
    const sink = { bytes: null };
    const floorEncoder = new api.Encoder({ typedArrays: 'bin' });
    const writeAndAllocate = () => {
      const out = floorEncoder.encodeSharedRef(v);
      sink.bytes = Buffer.allocUnsafeSlow(out.length); // Node's cheapest own ArrayBuffer (not zeroed)
      return out;
    };
    enc.push({ name: NAMES.binEncodeFloor, fn: writeAndAllocate, wire: 'bin', info: true });
    enc.push({ name: NAMES.floor, fn: () => fastmpOut.slice(), floor: true });
    dec.push({ name: NAMES.fastmpBinDecoder, fn: () => decoder.decode(binBytes), bin: true });
    const binReusing = new api.Decoder({ ...options, reuseTypedArrays: true });
    dec.push({ name: NAMES.fastmpBinReuse, fn: () => binReusing.decode(binBytes), bin: true });
  }
  if (w.id === 'W1') {
    // What a decode into a fresh array costs at least: the decode that allocates
    // nothing, plus the one allocation it saves (the array is dropped), from the
    // bin input and from the standard one.
    const flooring = new api.Decoder({ ...options, reuseTypedArrays: true });
    // (Stored where it stays reachable until the next call, so that the engine cannot skip making it.)
    const sink = { array: null };
    const fresh = () => (sink.array = new Float32Array(w.value.embedding.length));
    dec.push({ name: NAMES.binFloor, fn: () => (fresh(), flooring.decode(binBytes)), bin: true, info: true });
    dec.push({ name: NAMES.arrayFloor, fn: () => (fresh(), flooring.decode(fastmpOut)), info: true });
  }
  if (w.id === 'W4') {
    dec.push({ name: NAMES.vectorsFloor, fn: () => vectorsFloor(fastmpOut), info: true });
    // encode() less the copy out to an ArrayBuffer of the output's own, which msgpackr does not make.
    const sharing = new api.Encoder();
    enc.push({ name: NAMES.fastmpSharedRef, fn: () => sharing.encodeSharedRef(v), info: true });
  }
  // The paths: an instance each.
  for (const [path] of PATHS) {
    const pathEncoder = new api.paths[path].Encoder();
    const pathDecoder = new api.paths[path].Decoder(options);
    enc.push({ name: `fastmp Encoder (${path} instance), reused`, fn: () => pathEncoder.encode(v), info: true });
    dec.push({ name: `fastmp Decoder${w.shape ? ' {shape}' : ''} (${path} instance), reused`, fn: () => pathDecoder.decode(fastmpOut), info: true });
  }
  const peers = peerRows(w, fastmpOut, binBytes);
  enc.push(...peers.enc);
  dec.push(...peers.dec);

  const encRefs = typed ? [NAMES.msgpackrFrom, NAMES.msgpackrPre] : [NAMES.msgpackEnc, NAMES.msgpackrPlainEnc];
  const decRefs = typed ? [NAMES.msgpackrUnpackFrom, NAMES.msgpackrUnpack] : [NAMES.msgpackDec, NAMES.msgpackrUnpackPlain];
  return [
    {
      name: `${w.id} encode`, workload: w.id, op: 'encode', refs: encRefs, tasks: enc,
      input: typed ? 'the typed-array value; "pre-converted": the same value with standard arrays, made before timing' : 'the object',
      check: () => checkEncoders(w, enc, api.reference),
    },
    {
      name: `${w.id} decode`, workload: w.id, op: 'decode', refs: decRefs, tasks: dec,
      input: `fastmp's output, ${fastmpOut.length} bytes (standard msgpack${typed ? ' arrays of floats / ints' : ''}, what @msgpack/msgpack writes for it)${withBin ? `; "bin input": fastmp's typedArrays:'bin' output, ${binBytes.length} bytes (what @msgpack/msgpack writes by default)` : ''}`,
      check: () => checkDecoders(w, dec),
    },
  ];
}

// ---- streams: one value from many small chunks ------------------------------------------

/** The stream tables' values (bytes, about) and chunk sizes. */
export const STREAM_SIZES = [100_000, 400_000, 1_000_000];
export const STREAM_CHUNKS = [64, 16];
const streamName = (size, chunk) => `S ${size >= 1e6 ? `${size / 1e6} MB` : `${size / 1e3} KB`}, ${chunk} B chunks`;

/** `bytes` in chunks of `size` bytes, each a view made as it is handed out, by an async generator (as a socket's reader). */
async function* chunksOf(bytes, size) {
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}

/**
 * decodeAsync of one value of about `size` bytes (a list of W3's API
 * objects) from chunks of `chunk` bytes, by fastmp and @msgpack/msgpack:
 * a table per size and chunking.
 */
function streamTables(api, w3) {
  const each = api.encode(w3.value).length;
  return STREAM_CHUNKS.flatMap((chunk) => STREAM_SIZES.map((size) => {
    const count = Math.round(size / each);
    const bytes = api.encode({ items: Array.from({ length: count }, () => w3.value) });
    const tasks = [
      { name: NAMES.fastmpStream, fn: () => api.decodeAsync(chunksOf(bytes, chunk)) },
      { name: NAMES.msgpackStream, fn: () => msgpackDecodeAsync(chunksOf(bytes, chunk)) },
    ];
    return {
      name: streamName(size, chunk), workload: 'S', op: 'decode', refs: [NAMES.msgpackStream], tasks,
      input: `fastmp's output, ${bytes.length} bytes (${count} W3 objects in a list), in ${Math.ceil(bytes.length / chunk)} chunks of ${chunk} bytes from an async generator`,
      check: async () => {
        const want = api.decode(bytes);
        for (const t of tasks) same(want, await t.fn());
      },
    };
  }));
}

// ---- correctness: the same numbers from every contender, before anything is timed ----

/** Typed arrays at the shape's positions, from standard arrays or bins (a canonical form). */
function canon(shape, v) {
  if (shape === undefined) return v;
  if (typeof shape === 'function') {
    if (v instanceof shape) return v;
    if (v instanceof Uint8Array) return new shape(Uint8Array.prototype.slice.call(v).buffer);
    if (Array.isArray(v)) return shape.from(v);
    throw new Error(`expected a ${shape.name}, an array or a bin, got ${Object.prototype.toString.call(v)}`);
  }
  if (Array.isArray(shape)) return v.map((x) => canon(shape[0], x));
  const out = { ...v };
  for (const k of Object.keys(shape)) out[k] = canon(shape[k], v[k]);
  return out;
}

/** Deep equality: numbers by Object.is, typed arrays element by element (same type), Dates by time. */
function same(a, b, path = '$') {
  if (typeof a === 'number' || typeof b === 'number') {
    if (!Object.is(a, b)) throw new Error(`${path}: ${a} !== ${b}`);
    return;
  }
  if (ArrayBuffer.isView(a)) {
    if (!ArrayBuffer.isView(b) || a.constructor !== b.constructor || a.length !== b.length) {
      throw new Error(`${path}: ${a.constructor.name}(${a.length}) vs ${b?.constructor?.name}(${b?.length})`);
    }
    for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) throw new Error(`${path}[${i}]: ${a[i]} !== ${b[i]}`);
    return;
  }
  if (a instanceof Date) {
    if (!(b instanceof Date) || a.getTime() !== b.getTime()) throw new Error(`${path}: ${a} vs ${b}`);
    return;
  }
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) throw new Error(`${path}: array of ${a.length} vs ${b?.length}`);
    a.forEach((x, i) => same(x, b[i], `${path}[${i}]`));
    return;
  }
  if (a !== null && typeof a === 'object') {
    if (b === null || typeof b !== 'object') throw new Error(`${path}: object vs ${b}`);
    const ka = Object.keys(a).sort();
    const kb = Object.keys(b).sort();
    if (ka.join() !== kb.join()) throw new Error(`${path}: keys ${ka} vs ${kb}`);
    for (const k of ka) same(a[k], b[k], `${path}.${k}`);
    return;
  }
  if (a !== b) throw new Error(`${path}: ${a} !== ${b}`);
}

/** The decoders every encoder's output must satisfy: the peers and fastmp (`fastmpDecode`: one of the process's own). */
const referenceDecoders = (fastmpDecode) => [
  ['msgpackr Unpackr', (bytes) => new Unpackr({ useRecords: false }).unpack(bytes)],
  ['@msgpack/msgpack Decoder', (bytes) => new MsgpackDecoder().decode(bytes)],
  ['fastmp decode', fastmpDecode],
];

function checkEncoders(w, tasks, fastmpDecode) {
  for (const t of tasks) {
    let bytes = t.fn();
    if (t.wire === 'into') bytes = t.target.subarray(0, bytes);
    t.bytes = bytes.length;
    // msgpackr's records are read by msgpackr alone.
    const decoders = t.wire === 'records' ? [['msgpackr Unpackr', (b) => new Unpackr().unpack(b)]] : referenceDecoders(fastmpDecode);
    for (const [name, read] of decoders) {
      try {
        same(w.value, canon(w.shape, read(bytes)));
      } catch (e) {
        throw new Error(`${w.id} encode: ${name} reads from '${t.name}' other numbers: ${e.message}`, { cause: e });
      }
    }
  }
}

function checkDecoders(w, tasks) {
  for (const t of tasks) {
    try {
      same(w.value, canon(w.shape, t.fn()));
    } catch (e) {
      throw new Error(`${w.id} decode: '${t.name}' gives other numbers: ${e.message}`, { cause: e });
    }
  }
}

// ---- timing ----------------------------------------------------------------------------

function budget(quick) {
  if (quick) return { rounds: 1, time: 5, warmupTime: 1, iterations: 2, warmupIterations: 1, gc: false };
  return { rounds: 5, time: 250, warmupTime: 40, iterations: 16, warmupIterations: 8, gc: true };
}

/**
 * Every task's median time (ns) in each round. Each round is one tinybench run
 * of all tasks of a table, in an order rotated by one per round, a full GC
 * before each task's warm-up and run (with --expose-gc; not in quick mode).
 */
async function rounds(tasks, { rounds: n, time, warmupTime, iterations, warmupIterations, gc }) {
  const perTask = tasks.map(() => []);
  for (let round = 0; round < n; round++) {
    const bench = new Bench({ time, warmupTime, iterations, warmupIterations, setup: () => gc && globalThis.gc?.() });
    const order = tasks.map((_, k) => (k + round) % tasks.length);
    for (const k of order) bench.add(String(k), tasks[k].fn);
    await bench.run();
    for (const t of bench.tasks) {
      if (t.result.error) throw new Error(`task '${tasks[Number(t.name)].name}' failed: ${t.result.error.message}`, { cause: t.result.error });
      perTask[Number(t.name)].push(t.result.latency.p50 * 1e6);
    }
  }
  return perTask;
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** Every table of the suite, over this process's fastmp (after init()). */
async function allTables() {
  await init();
  const paths = {};
  for (const [name, options] of PATHS) paths[name] = await createFastmp(options);
  const api = { encode, decode, decodeAsync, Encoder, Decoder, paths, reference: (bytes) => decode(bytes) };
  return [...workloads().flatMap((w) => tables(w, api)), ...streamTables(api, workloads()[2])];
}

/** The names of the tables that --only keeps, in the suite's order. */
async function tableNames(only) {
  return (await allTables()).map((t) => t.name).filter((name) => !only || only.test(name));
}

/**
 * In this process: the tables named `names` (every table --only keeps when
 * `names` is null), each checked, then timed.
 */
async function runChild({ quick, only, names = null }) {
  const all = await allTables();
  const started = Date.now();
  const out = [];
  const selected = all.filter((t) => (names ? names.includes(t.name) : !only || only.test(t.name)));
  if (names && selected.length !== names.length) throw new Error(`--table: no table named ${names.filter((n) => !all.some((t) => t.name === n)).join(', ')}`);
  for (const [k, table] of selected.entries()) {
    await table.check();
    const ns = await rounds(table.tasks, budget(quick));
    const rows = table.tasks.map((t, i) => ({
      name: t.name, key: t.key ?? t.name, ns: ns[i], median: median(ns[i]), min: Math.min(...ns[i]), max: Math.max(...ns[i]),
      bytes: t.bytes ?? null, info: Boolean(t.info),
    }));
    out.push({ name: table.name, workload: table.workload, op: table.op, refs: table.refs, input: table.input, pid: process.pid, rows });
    if (!names) process.stderr.write(`[this process ${k + 1}/${selected.length}] ${table.name}: ${rows[0].name} ${formatNs(rows[0].median)}\n`);
  }
  return { seconds: (Date.now() - started) / 1000, loadavg: os.loadavg(), tables: out, backend: backend() };
}

// ---- the parent: both regimes, the report ----------------------------------------------

export function formatNs(ns) {
  if (ns === undefined || !Number.isFinite(ns)) return '–';
  if (ns >= 1e6) return `${(ns / 1e6).toFixed(2)} ms`;
  if (ns >= 1e4) return `${(ns / 1e3).toFixed(1)} µs`;
  if (ns >= 1e3) return `${(ns / 1e3).toFixed(2)} µs`;
  return `${ns.toFixed(0)} ns`;
}

/** A child node process in `regime` (its GLIBC_TUNABLES), its JSON read back. */
function spawnChild(regime, args) {
  const env = { ...process.env, FASTMP_BENCH_REGIME: regime };
  delete env.GLIBC_TUNABLES;
  if (REGIMES[regime].env) env.GLIBC_TUNABLES = REGIMES[regime].env;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--expose-gc', fileURLToPath(import.meta.url), '--child', ...args], { env, stdio: ['ignore', 'pipe', 'inherit'] });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (s) => (stdout += s));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(JSON.parse(stdout)) : reject(new Error(`the ${regime} process (${args.join(' ')}) exited with ${code}`))));
  });
}

/**
 * One regime: each table in a fresh node process of its own, as a harness
 * that times one comparison would run it: in one process shared by all
 * tables, earlier tables make a peer's code polymorphic (other object
 * shapes, other numbers), and every ratio then depends on their order.
 */
async function runRegime(regime, { quick, only }) {
  const names = await spawnChild(regime, ['--list', ...(only ? ['--only', only.source] : [])]);
  const merged = { seconds: 0, loadavg: null, tables: [], backend: null };
  for (const [k, name] of names.entries()) {
    const one = await spawnChild(regime, [...(quick ? ['--quick'] : []), '--table', name]);
    merged.seconds += one.seconds;
    merged.loadavg = one.loadavg;
    merged.backend ??= one.backend;
    merged.tables.push(...one.tables);
    const first = one.tables[0].rows[0];
    process.stderr.write(`[${regime} ${k + 1}/${names.length}] ${name}: ${first.name} ${formatNs(first.median)}\n`);
  }
  return merged;
}

const row = (table, key) => table?.rows.find((r) => r.key === key);
/** A ratio ref / row: of the medians, and its min..max over the rounds (each round's own ratio). */
function ratio(ref, mine) {
  if (!ref || !mine) return undefined;
  const perRound = ref.ns.map((x, i) => x / mine.ns[i]);
  return { value: ref.median / mine.median, min: Math.min(...perRound), max: Math.max(...perRound) };
}
const fmtRatio = (q) => (q === undefined ? '–' : `${q.value.toFixed(2)}× (${q.min.toFixed(2)}–${q.max.toFixed(2)})`);

/** The issue's targets: [target, fastmp row, peer row, table, goal]; ratio = peer time / fastmp time. */
export const TARGETS = [
  ['W1 encode ≥ 10× msgpackr (float32 arrays), the copy loop in the timed region', NAMES.fastmpEncoder, NAMES.msgpackrFrom, 'W1 encode', 10],
  ['W1 encode ≥ 10× msgpackr (float32 arrays), input pre-converted', NAMES.fastmpEncoder, NAMES.msgpackrPre, 'W1 encode', 10],
  ['W1 encode within 2× of the copy floor (floor time ÷ fastmp time ≥ 0.5)', NAMES.fastmpEncoder, NAMES.floor, 'W1 encode', 0.5],
  ['W1 decode by shape with reuseTypedArrays ≥ 10× msgpackr + Float32Array.from', NAMES.fastmpReuse, NAMES.msgpackrUnpackFrom, 'W1 decode', 10],
  ['W1 decode by shape without reuse ≥ 8× msgpackr + Float32Array.from', NAMES.fastmpDecoder, NAMES.msgpackrUnpackFrom, 'W1 decode', 8],
  ['W2 encode ≥ 5× msgpackr, the copy loop in the timed region', NAMES.fastmpEncoder, NAMES.msgpackrFrom, 'W2 encode', 5],
  ['W2 encode ≥ 5× msgpackr, input pre-converted', NAMES.fastmpEncoder, NAMES.msgpackrPre, 'W2 encode', 5],
  ['W2 decode by shape ≥ 5× msgpackr + Float32Array.from / Int16Array.from', NAMES.fastmpDecoder, NAMES.msgpackrUnpackFrom, 'W2 decode', 5],
  ['W3 encode ≥ 1.0× @msgpack/msgpack', NAMES.fastmpEncoder, NAMES.msgpackEnc, 'W3 encode', 1],
  ['W3 decode ≥ 1.0× @msgpack/msgpack', NAMES.fastmpDecoderPlain, NAMES.msgpackDec, 'W3 decode', 1],
  ['W3 encode ≥ 1.2× msgpackr {useRecords:false}', NAMES.fastmpEncoder, NAMES.msgpackrPlainEnc, 'W3 encode', 1.2],
  ['W3 decode ≥ 1.0× msgpackr {useRecords:false}', NAMES.fastmpDecoderPlain, NAMES.msgpackrUnpackPlain, 'W3 decode', 1],
  ['W4 encode ≥ 1.0× msgpackr writing the same vectors as plain arrays (pre-converted)', NAMES.fastmpEncoder, NAMES.msgpackrPre, 'W4 encode', 1],
  ['W4 decode by shape ≥ 1.0× msgpackr reading them as plain arrays (no conversion)', NAMES.fastmpDecoder, NAMES.msgpackrUnpack, 'W4 decode', 1],
  ['W4 decode with reuseTypedArrays ≥ 1.5× msgpackr reading them as plain arrays (no conversion)', NAMES.fastmpReuse, NAMES.msgpackrUnpack, 'W4 decode', 1.5],
  ["W1 typedArrays:'bin' decode by shape ≥ 1.2× msgpackr + typed view", NAMES.fastmpBinDecoder, NAMES.msgpackrUnpackBin, 'W1 decode', 1.2],
  ["W1 typedArrays:'bin' one-shot encode() ≥ 1.2× msgpackr's default (bin)", NAMES.fastmpEncodeBin, NAMES.msgpackrBin, 'W1 encode', 1.2],
  ["W1 typedArrays:'bin' encode ≥ 1.0× msgpackr's default (bin; {useRecords:false}, as its pack())", NAMES.fastmpBin, NAMES.msgpackrBin, 'W1 encode', 1],
  ["W1 typedArrays:'bin' encode ≥ 1.0× msgpackr new Packr() (records: its literal default)", NAMES.fastmpBin, NAMES.msgpackrRecords, 'W1 encode', 1],
  ...STREAM_CHUNKS.flatMap((chunk) => STREAM_SIZES.map((size) => [
    `${streamName(size, chunk)}: decodeAsync ≥ 1.0× @msgpack/msgpack's`, NAMES.fastmpStream, NAMES.msgpackStream, streamName(size, chunk), 1,
  ])),
];

/**
 * Streams are linear in the input: the time for 4× the bytes, in chunks of
 * the same size, at most 5× the time (ratio = big table's time ÷ small
 * table's, per round). [what, row, small table, big table, most].
 */
export const LINEAR = STREAM_CHUNKS.flatMap((chunk) => [NAMES.fastmpStream, NAMES.msgpackStream].map((name) => [
  `${chunk} B chunks, ${name}: 400 KB ÷ 100 KB (4× the bytes)`, name, streamName(100_000, chunk), streamName(400_000, chunk), name === NAMES.fastmpStream ? 5 : undefined,
]));
/** Reported beside the targets, without a goal: [what, fastmp row, row divided by, table]. */
const INFO = [
  ['W1 encode: module-level encode() vs msgpackr + copy loop', NAMES.fastmpEncode, NAMES.msgpackrFrom, 'W1 encode'],
  ['W1 decode: module-level decode(bytes, {shape}) vs msgpackr + Float32Array.from', NAMES.fastmpDecode, NAMES.msgpackrUnpackFrom, 'W1 decode'],
  ["W2 encode: typedArrays:'bin' vs msgpackr default (bin)", NAMES.fastmpBin, NAMES.msgpackrBin, 'W2 encode'],
  ["W1 'bin' one-shot encode(): the floor (the write + one output-sized allocation) vs msgpackr's default (bin)", NAMES.binEncodeFloor, NAMES.msgpackrBin, 'W1 encode'],
  ["W1 'bin' one-shot encode() vs the floor (the write + one output-sized allocation)", NAMES.fastmpEncodeBin, NAMES.binEncodeFloor, 'W1 encode'],
  ['W1 decode by shape without reuse vs the floor (the reuse decode + one fresh Float32Array(1536))', NAMES.fastmpDecoder, NAMES.arrayFloor, 'W1 decode'],
  ['W1 decode: the floor (the reuse decode + one fresh Float32Array(1536)) vs msgpackr + Float32Array.from', NAMES.arrayFloor, NAMES.msgpackrUnpackFrom, 'W1 decode'],
  ["W1 'bin' decode with reuseTypedArrays vs msgpackr + typed view", NAMES.fastmpBinReuse, NAMES.msgpackrUnpackBin, 'W1 decode'],
  ["W1 'bin' decode: without reuse vs the floor (the reuse decode + one fresh Float32Array(1536))", NAMES.fastmpBinDecoder, NAMES.binFloor, 'W1 decode'],
  ["W1 'bin' decode: the floor (the reuse decode + one fresh Float32Array(1536)) vs msgpackr + typed view", NAMES.binFloor, NAMES.msgpackrUnpackBin, 'W1 decode'],
  ['W4 encode: encodeSharedRef() (the write, no copy out) vs msgpackr writing plain arrays', NAMES.fastmpSharedRef, NAMES.msgpackrPre, 'W4 encode'],
  ['W4 encode: encode() vs encodeSharedRef() (what the copy out to its own ArrayBuffer costs)', NAMES.fastmpEncoder, NAMES.fastmpSharedRef, 'W4 encode'],
  ['W4 decode vs msgpackr + Float32Array.from', NAMES.fastmpDecoder, NAMES.msgpackrUnpackFrom, 'W4 decode'],
  ['W4 decode: fastmp vs the bare Float32Array(3) loop (floor)', NAMES.fastmpDecoder, NAMES.vectorsFloor, 'W4 decode'],
  ['W4 decode: the bare Float32Array(3) loop (floor) vs msgpackr reading plain arrays', NAMES.vectorsFloor, NAMES.msgpackrUnpack, 'W4 decode'],
  ['W1 encode: wasm-simd ÷ wasm-scalar instance', 'fastmp Encoder (wasm-simd instance), reused', 'fastmp Encoder (wasm-scalar instance), reused', 'W1 encode'],
  ['W1 decode: wasm-simd ÷ wasm-scalar instance', 'fastmp Decoder {shape} (wasm-simd instance), reused', 'fastmp Decoder {shape} (wasm-scalar instance), reused', 'W1 decode'],
  ['W1 encode: auto instance vs pure-js instance', 'fastmp Encoder (auto instance), reused', 'fastmp Encoder (pure-js instance), reused', 'W1 encode'],
];

export function evaluate(regimes) {
  const lines = [];
  for (const [what, mine, peer, tableName, goal] of [...TARGETS, ...INFO]) {
    const cells = {};
    for (const [regime, run] of Object.entries(regimes)) {
      const table = run.tables.find((t) => t.name === tableName);
      const q = ratio(row(table, peer), row(table, mine));
      cells[regime] = { ratio: q, met: q === undefined || goal === undefined ? undefined : q.value >= goal };
    }
    lines.push({ what, mine, peer, goal, cells });
  }
  return lines;
}

/** LINEAR's rows: the time ratio of the big table to the small one, per regime, against its most (if any). */
export function evaluateLinear(regimes) {
  return LINEAR.map(([what, name, small, big, most]) => {
    const cells = {};
    for (const [regime, run] of Object.entries(regimes)) {
      const q = ratio(row(run.tables.find((t) => t.name === big), name), row(run.tables.find((t) => t.name === small), name));
      cells[regime] = { ratio: q, met: q === undefined || most === undefined ? undefined : q.value <= most };
    }
    return { what, most, cells };
  });
}

function mdTable(rows) {
  const keys = Object.keys(rows[0]);
  const line = (cells) => `| ${cells.join(' | ')} |`;
  return [line(keys), line(keys.map(() => '---')), ...rows.map((r) => line(keys.map((k) => String(r[k]).replaceAll('|', '\\|'))))].join('\n');
}

export function markdown(regimes, meta) {
  const out = [];
  const names = Object.keys(regimes);
  out.push('# fastmp-wasm: whole-message benchmark', '');
  out.push(`Produced by \`${meta.command}\` on ${meta.date} (${meta.mode} mode, ${meta.seconds.toFixed(0)} s). Rerun it to replace this file.`, '');
  if (meta.mode === 'quick') out.push('**Quick mode: a smoke run of one short round per table; its numbers are not measurements.**', '');
  out.push(mdTable([
    { what: 'machine', value: `${meta.cpu}, ${meta.cores} cores (${meta.platform}), shared with other work: load average ${meta.loadavg} at the start` },
    { what: 'Node / V8', value: `${meta.node} / ${meta.v8}` },
    { what: 'fastmp', value: `${meta.git}; backend of the default instance: ${meta.backend}` },
    { what: 'peers', value: `msgpackr ${meta.msgpackr} (native string extraction: ${meta.msgpackrNative}), @msgpack/msgpack ${meta.msgpack}` },
    ...names.map((r) => ({ what: `regime ${r}`, value: `${REGIMES[r].title}; ${regimes[r].seconds.toFixed(0)} s, load average ${regimes[r].loadavg.map((x) => x.toFixed(2)).join(' ')} at its end` })),
  ]), '');
  out.push('How to read. Each table ran in a node process of its own, per regime. fastmp rows: what users write (the package\'s',
    'default instance: `new Encoder()` / `new Decoder()` reused, the module-level `encode()` / `decode()`), and, marked (info),',
    'an instance per path (`createFastmp()`): `wasm-simd` / `wasm-scalar` force the wasm kernels at every size, `pure-js` never',
    'uses wasm, `auto` chooses as the default does. The targets use the reused `Encoder` / `Decoder` of the default instance.',
    '',
    'Each table is one tinybench run per round, all its rows interleaved, the order rotated by one each round',
    `(${meta.rounds} rounds), a full GC before each row's warm-up and run. Time: the median of the round medians, with the lowest`,
    'and highest round median. Ratios: the named row\'s time ÷ this row\'s (above 1: this row is faster), of the medians, with',
    'the lowest and highest ratio within one round. Before timing, every output is decoded by msgpackr, @msgpack/msgpack',
    'and fastmp and every decoder\'s result compared: all must give the workload\'s numbers, or the run stops.',
    '',
    'Peers as their READMEs advise: a reused `Encoder` / `Decoder` / `Packr` / `Unpackr`; msgpackr with `useRecords: false`',
    '(standard maps, as its module-level `pack()`) unless the row says records; float32 arrays on the wire through',
    '`useFloat32: FLOAT32_OPTIONS.ALWAYS` / `forceFloat32: true` and standard arrays: "+ copy loop (timed)" converts the',
    'typed arrays inside the timed call (an indexed loop into a plain array, bin/loops.js toArray(): `Array.from` takes V8\'s',
    'iterator path, about 10x slower), "pre-converted" is given standard arrays made before timing; decoders given',
    'standard arrays convert them back with `TypedArray.from` (in place). "bin" rows: typed arrays as raw bytes (both',
    'libraries\' default for typed arrays), read back as typed views (a copy where unaligned).',
    `The machine has ${meta.cores} cores shared with other work: round-to-round spreads of 10–30 % are noise, not signal.`, '');

  out.push('## Targets', '', `Ratio (lowest–highest round) and verdict per regime: ${names.map((r) => `**${r}** = ${REGIMES[r].title}`).join('; ')}.`, '');
  const lines = evaluate(regimes);
  const targetRows = (list) => list.map((l) => {
    const r = { target: l.what, 'fastmp row': l.mine, 'peer row (the divisor)': l.peer };
    for (const n of names) {
      const c = l.cells[n];
      r[n] = c.ratio === undefined ? 'not measured' : `${fmtRatio(c.ratio)}${c.met === undefined ? '' : c.met ? ' **PASS**' : ' **MISS**'}`;
    }
    return r;
  });
  out.push(mdTable(targetRows(lines.filter((l) => l.goal !== undefined))), '');
  out.push('Reported without a goal:', '', mdTable(targetRows(lines.filter((l) => l.goal === undefined))), '');
  const linear = evaluateLinear(regimes);
  if (linear.some((l) => names.some((n) => l.cells[n].ratio !== undefined))) {
    out.push('Streams, linear in the input: the time for 4× the bytes in chunks of the same size (goal for fastmp: at most 5×).', '');
    out.push(mdTable(linear.map((l) => {
      const r = { what: l.what };
      for (const n of names) {
        const c = l.cells[n];
        r[n] = c.ratio === undefined ? 'not measured' : `${fmtRatio(c.ratio)}${c.met === undefined ? '' : c.met ? ' **PASS**' : ' **MISS**'}`;
      }
      return r;
    })), '');
  }

  const workloadTitles = Object.fromEntries(workloads().map((w) => [w.id, w.title]));
  workloadTitles.S = 'S: one value (a list of W3 objects) from a stream of small chunks, by decodeAsync';
  for (const regime of names) {
    out.push(`## ${regime}: ${REGIMES[regime].title}`, '');
    let lastWorkload = null;
    for (const t of regimes[regime].tables) {
      if (t.workload !== lastWorkload) out.push(`### ${workloadTitles[t.workload]} (${regime})`, '');
      lastWorkload = t.workload;
      out.push(`**${t.name}** (${regime}). Input: ${t.input}.`, '');
      const refs = t.refs.map((k) => t.rows.find((r) => r.key === k));
      out.push(mdTable(t.rows.map((r) => {
        const o = { contender: `${r.name}${r.info ? ' (info)' : ''}`, median: formatNs(r.median), 'round medians': `${formatNs(r.min)}..${formatNs(r.max)}` };
        if (t.op === 'encode') o['output bytes'] = r.bytes ?? '–';
        for (const ref of refs) o[`÷ ${ref.name}`] = fmtRatio(ratio(ref, r));
        return o;
      })), '');
    }
  }
  return out.join('\n');
}

const versionOf = (name) => JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8')).version;
function gitState() {
  try {
    const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--', 'js', 'c'], { cwd: ROOT, encoding: 'utf8' }).split('\n').filter(Boolean);
    return dirty.length ? `commit ${head} with uncommitted changes in ${dirty.map((l) => l.slice(3)).join(', ')} (measured as they are)` : `commit ${head}`;
  } catch {
    return 'unknown commit';
  }
}

/**
 * Runs the suite, each table in a child process of its own per regime (runRegime), and writes RESULTS-messages.md
 * and results-messages.json into outDir (writeMessages). Returns { meta, regimes, targets, linear }.
 */
export async function runMessages({ quick = false, outDir = HERE, only = null, regimes = ['plain', 'kept'], command }) {
  const started = Date.now();
  const loadavg = os.loadavg().map((x) => x.toFixed(2)).join(' ');
  const results = {};
  for (const regime of regimes) results[regime] = await runRegime(regime, { quick, only });
  const meta = {
    date: new Date().toISOString(),
    mode: quick ? 'quick' : only ? 'subset' : 'full',
    command: command ?? `node --expose-gc bench/messages.js${process.argv.length > 2 ? ` ${process.argv.slice(2).join(' ')}` : ''}`,
    seconds: (Date.now() - started) / 1000,
    rounds: budget(quick).rounds,
    cpu: os.cpus()[0]?.model ?? 'unknown',
    cores: os.cpus().length,
    loadavg,
    platform: `${os.platform()} ${os.release()} ${os.arch()}`,
    node: process.version,
    v8: process.versions.v8,
    git: gitState(),
    backend: results[regimes[0]]?.backend,
    msgpackr: versionOf('msgpackr'),
    msgpackrNative: isNativeAccelerationEnabled,
    msgpack: versionOf('@msgpack/msgpack'),
  };
  writeMessages(outDir, { meta, regimes: results });
  process.stderr.write(`wrote ${join(outDir, 'RESULTS-messages.md')} and results-messages.json in ${meta.seconds.toFixed(0)} s\n`);
  return { meta, regimes: results, targets: evaluate(results), linear: evaluateLinear(results) };
}

/**
 * results-messages.json ({ meta, regimes }: every row's round medians, which
 * the ratios' ranges are taken from; a row per line) and RESULTS-messages.md
 * made from it (writeMessagesReport). The targets are not stored: evaluate()
 * and evaluateLinear() give them from the file.
 */
export function writeMessages(outDir, { meta, regimes }) {
  mkdirSync(outDir, { recursive: true });
  writeMessagesReport(outDir, writeResults(join(outDir, 'results-messages.json'), { meta, regimes }, 6));
}

/** RESULTS-messages.md in outDir from { meta, regimes }: a run's, or results-messages.json's (`npm run bench -- --report`). */
export function writeMessagesReport(outDir, { meta, regimes }) {
  writeFileSync(join(outDir, 'RESULTS-messages.md'), `${markdown(regimes, meta)}\n`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const arg = (name) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : undefined);
  const quick = process.argv.includes('--quick');
  const only = arg('--only') === undefined ? null : new RegExp(arg('--only'));
  if (process.argv.includes('--child')) {
    const table = arg('--table');
    const result = process.argv.includes('--list') ? await tableNames(only) : await runChild({ quick, only, names: table === undefined ? null : [table] });
    process.stdout.write(`${JSON.stringify(result)}\n`);
  } else {
    const regime = arg('--regime') ?? 'both';
    if (regime !== 'both' && !REGIMES[regime]) throw new Error(`--regime: plain, kept or both, not ${regime}`);
    await runMessages({ quick, only, outDir: arg('--out') ?? HERE, regimes: regime === 'both' ? ['plain', 'kept'] : [regime] });
  }
}
