// suite.js - every case of the benchmark: an operation on one type, size and
// content, the JS methods that do it (fastmp's paths and the peers), the
// native requests for the C harness, and the baseline its ratios refer to.
import { INT_DISTRIBUTIONS, typicalContent, values } from './contents.js';
import {
  JS_LOOP, allowedTable, asn1jsRead, asn1jsWrite, bufferDecodeBMP, bufferEncodeBMP, checkedDecodeASCII, checkedDecodeSet,
  dataViewPack, dataViewUnpack, forgeRead, forgeWrite, jsLoop, libraryPeers, loopDecodeBMP, loopEncodeASCII, loopEncodeBMP,
  loopEncodeSet, memcpy, settled, utf16be,
} from './peers.js';
import { kernelCalls } from './lib.js';
import { BOOL } from '../js/kinds.js';
import { C_KINDS, harnessOp, rng } from '../test/helpers.js';

// The msgpack-c peer ops of c/harness/fm_bench.c (pack; unpack is one more),
// by C type name. fm-bench defines them but does not print them.
const MSGPACK_C = { f32: 100, f64: 102, i32: 104 };

/**
 * The string kinds: the stem of their API and harness names (encodeIA5,
 * readIA5String; the harness's ia5Encode), and their char range.
 */
export const STRINGS = [
  { id: 'BMPString', stem: 'BMP' },
  { id: 'IA5String', stem: 'IA5', lo: 0x00, hi: 0x7f },
  { id: 'VisibleString', stem: 'Visible', lo: 0x20, hi: 0x7e },
  // Sets that are no range (X.680 41.4): `chars` lists them.
  { id: 'PrintableString', stem: 'Printable', chars: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789 '()+,-./:=?" },
  { id: 'NumericString', stem: 'Numeric', chars: '0123456789 ' },
];

/**
 * Sizes, trimmed to those that tell something (a full run of both memory
 * regimes must fit in 35 minutes on 2 cores): the small sizes where the
 * N <= 16 targets are set and the crossovers lie (1, 4, 16, 64), 4096 where
 * the kernel targets are set, and 1 M / 4 M only for the types with targets
 * there. Seed 000's other lengths (3, 8, 31) fell between these without a
 * target of their own. The empty array once, for Float32Array.
 */
const SIZES = [1, 4, 16, 64, 4096];
const LARGE = { f32: [0, 1 << 20, 4 << 20], i32: [4 << 20] };
/** Int types whose kernel speed is reported per distribution (at 4096). */
const PER_DISTRIBUTION = new Set(['i16', 'i32', 'i64']);
/** Seed 003's string lengths, less 8 and 32 (between 2, 20, 16 and 64, no target of their own). */
const STRING_SIZES = [['country code', 2], ['common name', 20], ['16', 16], ['64', 64], ['256', 256], ['1024', 1024],
  ['64 K', 65536]];
/** Where the library peers are left out: above it each of their calls takes long and no target names them. */
const LIBRARIES_UP_TO = 1 << 20;

/** The contents of a numeric case of `kind` at size n: the typical one; at 4096 also 'fixed' and the distributions. */
function contentsOf(kind, n) {
  const typical = typicalContent(kind);
  if (n !== 4096) return [typical];
  return ['fixed', ...(PER_DISTRIBUTION.has(kind.c) ? INT_DISTRIBUTIONS : [typical])];
}

/** How many distinct inputs the rotating kernel rows take in turn: too many for a branch predictor to learn (bench/kernels.js --inputs). */
const DISTINCT_INPUTS = 16;
/** DISTINCT_INPUTS inputs of one content from one seeded generator: the first is the case's own input. */
function distinctInputs(kind, n, content) {
  const next = rng(0x5eed);
  return Array.from({ length: DISTINCT_INPUTS }, () => values(kind, n, content, next));
}

/** Calls per timed sample, every method of a case alike: calls under ~1 µs in batches (bench/lib.js timeRounds). */
const batchOf = (n) => (n <= 64 ? 32 : n <= 4096 ? 4 : 1);

/**
 * BMPString sizes that also run with ASCII-only text (content 'ascii'): V8
 * builds a string of chars below 0x100 (one byte each) much faster than a
 * two-byte one, and BMPString content is often plain ASCII (names, hosts).
 */
const ASCII_BMP_SIZES = new Set(['16', '1024', '64 K']);

/** The contents of a string case: 'text' (mixed scripts for BMPString), and 'ascii' for BMPString at ASCII_BMP_SIZES. */
const stringContents = (kind, name) => (kind.id === 'BMPString' && ASCII_BMP_SIZES.has(name) ? ['text', 'ascii'] : ['text']);

/** Text of a string case: mixed scripts for BMPString ('text'), printable ASCII for the others and for 'ascii'. */
function text(kind, name, n, content) {
  const named = { 'country code': kind.id === 'NumericString' ? '49' : 'DE', 'common name': kind.id === 'NumericString' ? '0049 30 1234567890' : 'www.example-host.com' }[name];
  if (named !== undefined) return named;
  if (kind.chars) return Array.from({ length: n }, (_, i) => kind.chars[(i * 7) % kind.chars.length]).join('');
  if (kind.id !== 'BMPString' || content === 'ascii') return Array.from({ length: n }, (_, i) => String.fromCharCode(0x20 + ((i * 7) % 95))).join('');
  const pieces = ['Grüße ', 'Москва ', 'Ελλάδα ', '東京都 ', 'São Paulo '];
  let s = '';
  for (let i = 0; s.length < n; i++) s += pieces[i % pieces.length];
  return s.slice(0, n);
}

const leBytes = (x) => new Uint8Array(x.buffer, x.byteOffset, x.byteLength);

/**
 * The cases, as { group, n, make() }: make() builds the case (inputs of 4 M
 * elements exist only while their case runs). `paths` are the API instances
 * of bench/lib.js loadPaths(). quick: a few types and sizes, for a smoke run.
 */
export function* cases(paths, { quick = false, kernels } = {}) {
  for (const type of C_KINDS) { // one per C type of js/kinds.js (Uint8Array for u8), then booleans
    if (quick && !['f32', 'i32', 'bool'].includes(type.c)) continue;
    const sizes = quick ? [16, 4096] : [...SIZES, ...(LARGE[type.c] ?? [])].sort((a, b) => a - b);
    for (const n of sizes) {
      for (const content of quick ? [typicalContent(type)] : contentsOf(type, n)) {
        for (const op of ['pack', 'unpack']) {
          yield { group: `${op} ${type.name}`, n, make: () => numericCase(paths, kernels, type, n, content, op) };
        }
      }
    }
  }
  for (const kind of STRINGS) {
    if (quick && kind.id !== 'BMPString') continue;
    for (const [name, n] of quick ? [['16', 16], ['1024', 1024]] : STRING_SIZES) {
      for (const content of quick ? ['text'] : stringContents(kind, name)) {
        for (const op of ['encode', 'decode']) {
          yield { group: `${op} ${kind.id}`, n, make: () => stringCase(paths, kind, name, n, op, content) };
        }
      }
    }
  }
}

function numericCase(paths, kernels, type, n, content, op) {
  const { Type, name: label, float } = type; // label: 'Float32Array', ..., 'boolean'
  const x = values(type, n, content);
  const bool = type === BOOL;
  const asArray = type.c === 'u8' ? { bin: false } : undefined; // a Uint8Array as an array, not a bin; no options where they change nothing
  const packWith = (api) => (bool ? api.packBool(x) : api.pack(x, asArray));
  const bytes = packWith(paths['pure-js']);
  const unpackWith = (api, input) => (bool ? api.unpackBool(input) : api.unpack(input, Type));

  // Zero-copy: the input already in wasm memory, made once; packView (packBoolView)
  // leaves the output there. Other methods on the same instance may grow wasm memory,
  // which detaches the view (byteLength 0): it is then refreshed, as the README tells users to.
  const zeroCopy = (api) => {
    let held = api.alloc(op === 'pack' ? Type : Uint8Array, op === 'pack' ? n : bytes.length);
    held.set(op === 'pack' ? x : bytes);
    const live = () => (held.byteLength === 0 ? (held = api.refresh(held)) : held);
    if (op === 'unpack') return () => unpackWith(api, live());
    return bool ? () => api.packBoolView(live()) : () => api.packView(live(), asArray);
  };
  const fastmp = ['wasm-simd', 'wasm-scalar', 'pure-js', 'auto'].map((path) => ({
    name: path,
    fn: op === 'pack' ? () => packWith(paths[path]) : () => unpackWith(paths[path], bytes),
  }));
  fastmp.push({ name: 'zero-copy simd', fn: zeroCopy(paths['wasm-simd']) });
  fastmp.push({ name: 'zero-copy scalar', fn: zeroCopy(paths['wasm-scalar']) });
  // The kernels alone, on each build's bare module: input and output already
  // in its memory, no JS boundary (what the SIMD ÷ scalar and wasm ÷ native
  // targets compare). Checked below like the paths.
  const bare = Object.entries(kernels ?? {}).map(([build, k]) => ({ build, calls: kernelCalls(k, type, leBytes(x), bytes) }));
  const kernelRows = bare.map(({ build, calls }) => ({ name: `kernel ${build}`, fn: op === 'pack' ? calls.pack : calls.unpack }));
  // The int kernels per distribution at 4096 also over DISTINCT_INPUTS inputs
  // of it, a call each in turn: with one input repeated, the branch predictor
  // learns the scalar kernel's branches for its 4096 values (bench/kernels.js
  // --inputs). (Not at 4 M: no predictor learns that many, and 16 inputs of
  // 4 M would take some 2 GB of the bare modules' memory.)
  const distinct = n === 4096 && PER_DISTRIBUTION.has(type.c) && INT_DISTRIBUTIONS.includes(content) ? distinctInputs(type, n, content) : [];
  const distinctPacked = distinct.map((v) => paths['pure-js'].pack(v, asArray));
  const rotating = distinct.length === 0 ? [] : Object.entries(kernels ?? {}).map(([build, k]) => ({
    build, calls: distinct.map((v, i) => kernelCalls(k, type, leBytes(v), distinctPacked[i])),
  }));
  for (const { build, calls } of rotating) {
    let i = 0;
    const next = () => calls[i = (i + 1) % calls.length];
    kernelRows.push({ name: `kernel ${build}, ${calls.length} inputs`, fn: op === 'pack' ? () => next().pack() : () => next().unpack() });
  }

  // The peers: the fastest JS loop (the baseline), the 12-line DataView loop
  // for floats, the libraries, and for pack from 4096 on a JS memcpy of the output.
  const loop = jsLoop(Type, bool);
  const peers = [{ name: JS_LOOP, fn: op === 'pack' ? () => loop.pack(x) : () => loop.unpack(bytes) }];
  if (float) peers.push({ name: 'DataView loop', fn: op === 'pack' ? () => dataViewPack(x) : () => dataViewUnpack(bytes, Type) });
  if (n <= LIBRARIES_UP_TO) peers.push(...libraryPeers(op, Type, bool, x, bytes));
  if (op === 'pack' && n >= 4096) peers.push({ name: 'memcpy', fn: memcpy(bytes) });

  const harness = harnessOp({ op, type: type.c });
  const input = op === 'pack' ? leBytes(x) : bytes;
  const native = [
    { name: 'native simd', build: 'x86_64-simd', op: harness, data: input, memcpy: 'native memcpy' },
    { name: 'native scalar', build: 'x86_64-scalar', op: harness, data: input },
  ];
  const peer = MSGPACK_C[type.c];
  if (peer) native.push({ name: 'msgpack-c', build: 'x86_64-simd', op: peer + (op === 'pack' ? 0 : 1), data: input });

  return {
    group: `${op} ${label}`, op, type: label, n, size: String(n), content, wireBytes: bytes.length,
    baseline: JS_LOOP, batch: batchOf(n),
    methods: [...fastmp, ...kernelRows, ...peers], native,
    // Every fastmp path, each kernel, and the JS loop must give the same result before any is timed.
    check: () => {
      const ref = Buffer.from(leBytes(op === 'pack' ? bytes : unpackWith(paths['pure-js'], bytes)));
      const disagrees = (name) => new Error(`${name} disagrees on ${op} ${label} ${n} ${content}`);
      for (const { name, fn } of [...fastmp, peers[0]]) {
        if (!Buffer.from(leBytes(fn())).equals(ref)) throw disagrees(name);
      }
      const agrees = (calls, expected) => {
        const failed = op === 'unpack' && calls.unpack() !== 0;
        if (op === 'pack') calls.pack();
        return !failed && Buffer.from(op === 'pack' ? calls.packed() : calls.unpacked()).equals(expected);
      };
      for (const { build, calls } of bare) if (!agrees(calls, ref)) throw disagrees(`kernel ${build}`);
      for (const { build, calls } of rotating) {
        calls.forEach((c, i) => {
          const expected = op === 'pack' ? distinctPacked[i] : leBytes(distinct[i]);
          if (!agrees(c, Buffer.from(expected))) throw disagrees(`kernel ${build}, input ${i} of ${calls.length}`);
        });
      }
    },
    dispose: () => [...bare.map((b) => b.calls), ...rotating.flatMap((r) => r.calls)].forEach((calls) => calls.free()),
  };
}

function stringCase(paths, kind, name, n, op, content) {
  const s = text(kind, name, n, content);
  const bmp = kind.id === 'BMPString';
  const { stem } = kind;
  const allowed = kind.chars && allowedTable(kind.chars);
  // encodeBMP / decodeIA5 / writeVisibleString ...: the API's names for this kind
  const fn = (api, what) => api[`${what}${stem}${what === 'write' || what === 'read' ? 'String' : ''}`].bind(api);
  const encoded = fn(paths['pure-js'], 'encode')(s);
  const der = fn(paths['pure-js'], 'write')(s);
  const derBuffer = der.slice().buffer;
  const derBinary = Buffer.from(der).toString('latin1');
  // Each function looked up once, not inside the timed closure.
  const fastmp = ['wasm-simd', 'wasm-scalar', 'pure-js', 'auto'].map((path) => {
    const call = fn(paths[path], op);
    return { name: path, fn: op === 'encode' ? () => call(s) : () => call(encoded) };
  });
  const derWrite = fn(paths.auto, 'write');
  const derRead = fn(paths.auto, 'read');
  const peers = op === 'encode'
    ? [
      { name: 'charCodeAt loop', fn: bmp ? () => loopEncodeBMP(s) : allowed ? () => loopEncodeSet(s, allowed) : () => loopEncodeASCII(s, kind.lo, kind.hi) },
      ...(bmp ? [{ name: 'Buffer utf16le + swap16', fn: () => bufferEncodeBMP(s) }] : []),
      { name: 'asn1js (DER)', fn: () => asn1jsWrite(kind.id, s) },
      { name: 'node-forge (DER)', fn: () => forgeWrite(kind.id, s) },
      { name: 'fastmp DER', fn: () => derWrite(s) },
    ]
    : [
      ...(bmp
        ? [{ name: "TextDecoder('utf-16be')", fn: () => utf16be.decode(encoded) },
          { name: 'Buffer swap16 + utf16le', fn: () => bufferDecodeBMP(encoded) },
          { name: 'fromCharCode loop', fn: () => loopDecodeBMP(encoded) }]
        : [{ name: 'check loop + TextDecoder', fn: allowed ? () => checkedDecodeSet(encoded, allowed) : () => checkedDecodeASCII(encoded, kind.lo, kind.hi) }]),
      { name: 'asn1js (DER)', fn: () => asn1jsRead(derBuffer) },
      { name: 'node-forge (DER)', fn: () => forgeRead(derBinary) },
      { name: 'fastmp DER', fn: () => derRead(der) },
    ];
  const units = leBytes(Uint16Array.from(s, (c) => c.charCodeAt(0)));
  const harness = harnessOp({ op: `${stem.toLowerCase()}${op === 'encode' ? 'Encode' : 'Decode'}` }); // bmpEncode, ...
  const input = op === 'encode' ? units : encoded;
  return {
    group: `${op} ${kind.id}`, op, type: kind.id, n, size: name, content, wireBytes: encoded.length,
    baseline: op === 'encode' ? 'charCodeAt loop' : bmp ? "TextDecoder('utf-16be')" : 'check loop + TextDecoder',
    // Every method's output that is a string is flattened in the timed region (peers.js settled()).
    methods: [...fastmp, ...peers].map((m) => ({ name: m.name, fn: () => settled(m.fn()) })), batch: batchOf(n),
    native: [
      { name: 'native simd', build: 'x86_64-simd', op: harness, data: input, memcpy: 'native memcpy' },
      { name: 'native scalar', build: 'x86_64-scalar', op: harness, data: input },
    ],
    check: () => {
      for (const { name: method, fn: call } of fastmp) {
        const got = call();
        const same = op === 'encode' ? Buffer.from(got).equals(Buffer.from(encoded)) : got === s;
        if (!same) throw new Error(`${method} disagrees on ${op} ${kind.id} ${name}`);
      }
      const peerOut = op === 'encode' ? asn1jsWrite(kind.id, s) : asn1jsRead(derBuffer);
      if (op === 'encode' ? !Buffer.from(peerOut).equals(Buffer.from(der)) : peerOut !== s) throw new Error(`asn1js disagrees on ${kind.id} ${name}`);
      if (op === 'decode' && forgeRead(derBinary) !== s) throw new Error(`node-forge disagrees on ${kind.id} ${name}`);
    },
  };
}
