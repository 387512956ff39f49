// suite.js - every case of the benchmark: an operation on one type, size and
// content, the JS methods that do it (fastmp's paths and the peers), the
// native requests for the C harness, and the baseline its ratios refer to.
import {
  asn1jsRead, asn1jsWrite, bufferDecodeBMP, bufferEncodeBMP, checkedDecodeASCII, dataViewPack, dataViewUnpack,
  forgeRead, forgeWrite, loopDecodeBMP, loopEncodeASCII, loopEncodeBMP, msgpackPack, msgpackPackBool,
  msgpackUnpack, msgpackUnpackBool, msgpackrPack, msgpackrUnpack, utf16be,
} from './peers.js';
import { BOOL } from '../js/kinds.js';
import { C_KINDS, harnessOp } from '../test/helpers.js';

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
];

/** Seed 000's lengths (plus 1 M, where the targets are set); seed 003's for strings. */
const SIZES = [0, 1, 3, 8, 16, 31, 64, 4096, 1 << 20, 4 << 20];
const STRING_SIZES = [['country code', 2], ['common name', 20], ['8', 8], ['16', 16], ['32', 32], ['64', 64],
  ['256', 256], ['1024', 1024], ['64 K', 65536]];

/** Content of a numeric case: the small fixed value 7 in every element, or random values. */
function values(type, n, content) {
  const x = new type.Type(n);
  if (content === 'fixed') return x.fill(type === BOOL ? 1 : type.big ? 7n : 7);
  if (type === BOOL) return x.map(() => (Math.random() < 0.5 ? 1 : 0));
  if (type.float) return x.map(() => (Math.random() - 0.5) * 2e6);
  const bytes = new Uint8Array(x.buffer);
  for (let i = 0; i < bytes.length; i++) bytes[i] = Math.random() * 256;
  return x;
}

/** Text of a string case: mixed scripts for BMPString, printable ASCII for the others. */
function text(kind, name, n) {
  if (name === 'country code') return 'DE';
  if (name === 'common name') return 'www.example-host.com';
  if (kind.id !== 'BMPString') return Array.from({ length: n }, (_, i) => String.fromCharCode(0x20 + ((i * 7) % 95))).join('');
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
export function* cases(paths, { quick = false } = {}) {
  const sizes = quick ? [16, 4096] : SIZES;
  const contents = quick ? ['random'] : ['fixed', 'random'];
  for (const type of C_KINDS) { // one per C type of js/kinds.js (Uint8Array for u8), then booleans
    if (quick && !['f32', 'i32', 'bool'].includes(type.c)) continue;
    for (const n of sizes) {
      if (n === 1 << 20 && type.c !== 'f32') continue; // 1 M: only where a target is set
      for (const content of contents) {
        for (const op of ['pack', 'unpack']) {
          yield { group: `${op} ${type.name}`, n, make: () => numericCase(paths, type, n, content, op) };
        }
      }
    }
  }
  for (const kind of STRINGS) {
    if (quick && kind.id !== 'BMPString') continue;
    for (const [name, n] of quick ? [['16', 16], ['1024', 1024]] : STRING_SIZES) {
      for (const op of ['encode', 'decode']) {
        yield { group: `${op} ${kind.id}`, n, make: () => stringCase(paths, kind, name, n, op) };
      }
    }
  }
}

function numericCase(paths, type, n, content, op) {
  const { Type, name: label, float } = type; // label: 'Float32Array', ..., 'boolean'
  const x = values(type, n, content);
  const bool = type === BOOL;
  const packWith = (api) => (bool ? api.packBool(x) : api.pack(x, { bin: false }));
  const bytes = packWith(paths['pure-js']);
  const unpackWith = (api, input) => (bool ? api.unpackBool(input) : api.unpack(input, Type));

  // Zero-copy: the input already in wasm memory, made once; packView leaves the output there.
  // Other methods on the same instance may grow wasm memory, which detaches the view
  // (byteLength 0): it is then refreshed, as the README tells users to.
  const zeroCopy = (api) => {
    let held = api.alloc(op === 'pack' ? Type : Uint8Array, op === 'pack' ? n : bytes.length);
    held.set(op === 'pack' ? x : bytes);
    const live = () => (held.byteLength === 0 ? (held = api.refresh(held)) : held);
    return op === 'pack' ? () => api.packView(live(), { bin: false }) : () => unpackWith(api, live());
  };
  const fastmp = ['wasm-simd', 'wasm-scalar', 'pure-js', 'auto'].map((path) => ({
    name: path,
    fn: op === 'pack' ? () => packWith(paths[path]) : () => unpackWith(paths[path], bytes),
  }));
  if (!bool) { // packView packs arrays of ints; booleans have no view of their own
    fastmp.push({ name: 'zero-copy simd', fn: zeroCopy(paths['wasm-simd']) });
    fastmp.push({ name: 'zero-copy scalar', fn: zeroCopy(paths['wasm-scalar']) });
  }

  const peers = [];
  if (float) peers.push({ name: 'DataView loop', fn: op === 'pack' ? () => dataViewPack(x) : () => dataViewUnpack(bytes, Type) });
  if (bool) peers.push({ name: '@msgpack/msgpack', fn: op === 'pack' ? () => msgpackPackBool(x) : () => msgpackUnpackBool(bytes) });
  else {
    peers.push({ name: '@msgpack/msgpack', fn: op === 'pack' ? () => msgpackPack(x) : () => msgpackUnpack(bytes, Type) });
    peers.push({ name: 'msgpackr', fn: op === 'pack' ? () => msgpackrPack(x) : () => msgpackrUnpack(bytes, Type) });
  }

  const harness = harnessOp({ op, type: type.c });
  const input = op === 'pack' ? leBytes(x) : bytes;
  const native = [
    { name: 'native simd', build: 'x86_64-simd', op: harness, data: input, memcpy: true },
    { name: 'native scalar', build: 'x86_64-scalar', op: harness, data: input },
  ];
  const peer = MSGPACK_C[type.c];
  if (peer) native.push({ name: 'msgpack-c', build: 'x86_64-simd', op: peer + (op === 'pack' ? 0 : 1), data: input });

  return {
    group: `${op} ${label}`, op, type: label, n, size: String(n), content, wireBytes: bytes.length,
    baseline: float ? 'DataView loop' : '@msgpack/msgpack',
    methods: [...fastmp, ...peers], native,
    // Every fastmp path must give the same result before any is timed.
    check: () => {
      const ref = Buffer.from(leBytes(op === 'pack' ? bytes : unpackWith(paths['pure-js'], bytes)));
      for (const { name, fn } of fastmp) {
        const got = fn();
        if (!Buffer.from(leBytes(got)).equals(ref)) throw new Error(`${name} disagrees on ${op} ${label} ${n} ${content}`);
      }
    },
  };
}

function stringCase(paths, kind, name, n, op) {
  const s = text(kind, name, n);
  const bmp = kind.id === 'BMPString';
  const { stem } = kind;
  // encodeBMP / decodeIA5 / writeVisibleString ...: the API's names for this kind
  const fn = (api, what) => api[`${what}${stem}${what === 'write' || what === 'read' ? 'String' : ''}`].bind(api);
  const content = fn(paths['pure-js'], 'encode')(s);
  const der = fn(paths['pure-js'], 'write')(s);
  const derBuffer = der.slice().buffer;
  const derBinary = Buffer.from(der).toString('latin1');
  // Each function looked up once, not inside the timed closure.
  const fastmp = ['wasm-simd', 'wasm-scalar', 'pure-js', 'auto'].map((path) => {
    const call = fn(paths[path], op);
    return { name: path, fn: op === 'encode' ? () => call(s) : () => call(content) };
  });
  const derWrite = fn(paths.auto, 'write');
  const derRead = fn(paths.auto, 'read');
  const peers = op === 'encode'
    ? [
      { name: 'charCodeAt loop', fn: bmp ? () => loopEncodeBMP(s) : () => loopEncodeASCII(s, kind.lo, kind.hi) },
      ...(bmp ? [{ name: 'Buffer utf16le + swap16', fn: () => bufferEncodeBMP(s) }] : []),
      { name: 'asn1js (DER)', fn: () => asn1jsWrite(kind.id, s) },
      { name: 'node-forge (DER)', fn: () => forgeWrite(kind.id, s) },
      { name: 'fastmp DER', fn: () => derWrite(s) },
    ]
    : [
      ...(bmp
        ? [{ name: "TextDecoder('utf-16be')", fn: () => utf16be.decode(content) },
          { name: 'Buffer swap16 + utf16le', fn: () => bufferDecodeBMP(content) },
          { name: 'fromCharCode loop', fn: () => loopDecodeBMP(content) }]
        : [{ name: 'check loop + TextDecoder', fn: () => checkedDecodeASCII(content, kind.lo, kind.hi) }]),
      { name: 'asn1js (DER)', fn: () => asn1jsRead(derBuffer) },
      { name: 'node-forge (DER)', fn: () => forgeRead(derBinary) },
      { name: 'fastmp DER', fn: () => derRead(der) },
    ];
  const units = leBytes(Uint16Array.from(s, (c) => c.charCodeAt(0)));
  const harness = harnessOp({ op: `${stem.toLowerCase()}${op === 'encode' ? 'Encode' : 'Decode'}` }); // bmpEncode, ...
  const input = op === 'encode' ? units : content;
  return {
    group: `${op} ${kind.id}`, op, type: kind.id, n, size: name, content: 'text', wireBytes: content.length,
    baseline: op === 'encode' ? 'charCodeAt loop' : bmp ? "TextDecoder('utf-16be')" : 'check loop + TextDecoder',
    methods: [...fastmp, ...peers],
    native: [
      { name: 'native simd', build: 'x86_64-simd', op: harness, data: input, memcpy: true },
      { name: 'native scalar', build: 'x86_64-scalar', op: harness, data: input },
    ],
    check: () => {
      for (const { name: method, fn: call } of fastmp) {
        const got = call();
        const same = op === 'encode' ? Buffer.from(got).equals(Buffer.from(content)) : got === s;
        if (!same) throw new Error(`${method} disagrees on ${op} ${kind.id} ${name}`);
      }
      const peerOut = op === 'encode' ? asn1jsWrite(kind.id, s) : asn1jsRead(derBuffer);
      if (op === 'encode' ? !Buffer.from(peerOut).equals(Buffer.from(der)) : peerOut !== s) throw new Error(`asn1js disagrees on ${kind.id} ${name}`);
      if (op === 'decode' && forgeRead(derBinary) !== s) throw new Error(`node-forge disagrees on ${kind.id} ${name}`);
    },
  };
}
