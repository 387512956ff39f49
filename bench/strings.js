// strings.js - BMPString encode and decode at the lengths of seed 003 (a
// 2-char country code, a 20-char common name, 8 to 1024 chars) and 64 K,
// through fastmp's paths and against what JS offers today: TextDecoder
// ('utf-16be'), Node's Buffer (utf16le + swap16), a plain JS loop
// (charCodeAt / fromCharCode), asn1js and node-forge. All in one run; ratios
// are peer time / fastmp time (above 1: fastmp is faster).
//   node --expose-gc bench/strings.js [--quick]
import * as asn1js from 'asn1js';
import forge from 'node-forge';
import { formatNs, loadPaths, medians, printTable } from './lib.js';

const quick = process.argv.includes('--quick');
const paths = await loadPaths();
const fastmp = paths.auto;

const LENGTHS = quick ? [['16', 16], ['1024', 1024], ['64 K', 65536]] : [
  ['country code', 2], ['common name', 20], ['8', 8], ['16', 16], ['32', 32], ['64', 64], ['256', 256],
  ['1024', 1024], ['64 K', 65536],
];

/** n chars of mixed plane-0 text (Latin, Cyrillic, Greek, CJK); the fixed names for the first two. */
function text(name, n) {
  if (name === 'country code') return 'DE';
  if (name === 'common name') return 'www.example-host.com';
  const pieces = ['Grüße ', 'Москва ', 'Ελλάδα ', '東京都 ', 'São Paulo '];
  let s = '';
  for (let i = 0; s.length < n; i++) s += pieces[i % pieces.length];
  return s.slice(0, n);
}

// ---- the peers ----------------------------------------------------------------

const utf16be = new TextDecoder('utf-16be', { fatal: true, ignoreBOM: true });

/** The loop a JS developer writes, as strict as fastmp (surrogates rejected). */
function loopEncode(s) {
  const out = new Uint8Array(2 * s.length);
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if ((c & 0xf800) === 0xd800) throw new Error(`surrogate at ${i}`);
    out[2 * i] = c >> 8;
    out[2 * i + 1] = c & 0xff;
  }
  return out;
}

function loopDecode(bytes) {
  if (bytes.length % 2) throw new Error('odd length');
  const n = bytes.length >> 1;
  let s = '';
  for (let i = 0; i < n; i += 4096) {
    const units = new Array(Math.min(4096, n - i));
    for (let k = 0; k < units.length; k++) {
      const c = (bytes[2 * (i + k)] << 8) | bytes[2 * (i + k) + 1];
      if ((c & 0xf800) === 0xd800) throw new Error(`surrogate at ${i + k}`);
      units[k] = c;
    }
    s += String.fromCharCode.apply(null, units);
  }
  return s;
}

// Node's Buffer: no validation at all (surrogates pass).
const bufferEncode = (s) => Buffer.from(s, 'utf16le').swap16();
const bufferDecode = (bytes) => Buffer.from(bytes).swap16().toString('utf16le');

const asn1jsWrite = (s) => new Uint8Array(new asn1js.BmpString({ value: s }).toBER());
const asn1jsRead = (der) => asn1js.fromBER(der).result.valueBlock.value;

// node-forge works on binary strings: its natural input and output.
const { asn1 } = forge;
const forgeWrite = (s) => asn1.toDer(asn1.create(asn1.Class.UNIVERSAL, asn1.Type.BMPSTRING, false, s)).getBytes();
const forgeRead = (binary) => asn1.fromDer(forge.util.createBuffer(binary)).value;

// ---- the run ------------------------------------------------------------------

const rows = [];
const ratios = [];
for (const [name, n] of LENGTHS) {
  const s = text(name, n);
  const content = fastmp.encodeBMP(s);
  const der = fastmp.writeBMPString(s);
  const derBuffer = der.slice().buffer;
  const derBinary = Buffer.from(der).toString('latin1');
  // Every peer must agree with fastmp on this input before it is timed.
  const agree = [
    bufferDecode(content) === s, loopDecode(content) === s, utf16be.decode(content) === s, asn1jsRead(derBuffer) === s,
    forgeRead(derBinary) === s, Buffer.from(asn1jsWrite(s)).equals(der), forgeWrite(s) === derBinary,
    Buffer.from(loopEncode(s)).equals(content), bufferEncode(s).equals(content),
  ];
  if (agree.includes(false)) throw new Error(`a peer disagrees at ${name}: ${agree}`);

  const big = n >= 65536;
  const options = { time: big ? 1200 : 400, warmupTime: big ? 200 : 100 };
  const fastmpTasks = (op) => ['auto', 'wasm-simd', 'wasm-scalar', 'pure-js'].map((path) => ({
    name: `fastmp ${path}`,
    fn: op === 'encode' ? () => paths[path].encodeBMP(s) : () => paths[path].decodeBMP(content),
  }));
  const encodeTasks = [
    ...fastmpTasks('encode'),
    { name: 'fastmp writeBMPString (DER)', fn: () => fastmp.writeBMPString(s) },
    { name: 'Buffer utf16le + swap16', fn: () => bufferEncode(s) },
    { name: 'charCodeAt loop', fn: () => loopEncode(s) },
    { name: 'asn1js (DER)', fn: () => asn1jsWrite(s) },
    { name: 'node-forge (DER)', fn: () => forgeWrite(s) },
  ];
  const decodeTasks = [
    ...fastmpTasks('decode'),
    { name: 'fastmp readBMPString (DER)', fn: () => fastmp.readBMPString(der) },
    { name: "TextDecoder('utf-16be')", fn: () => utf16be.decode(content) },
    { name: 'Buffer swap16 + utf16le', fn: () => bufferDecode(content) },
    { name: 'fromCharCode loop', fn: () => loopDecode(content) },
    { name: 'asn1js (DER)', fn: () => asn1jsRead(derBuffer) },
    { name: 'node-forge (DER)', fn: () => forgeRead(derBinary) },
  ];
  const m = {};
  for (const [op, tasks] of [['encode', encodeTasks], ['decode', decodeTasks]]) {
    m[op] = await medians(tasks, options);
    const base = m[op].get('fastmp auto');
    for (const { name: method } of tasks) {
      const t = m[op].get(method);
      const ref = method.endsWith('(DER)') ? m[op].get(op === 'encode' ? 'fastmp writeBMPString (DER)' : 'fastmp readBMPString (DER)') : base;
      rows.push({ op, chars: name, method, median: formatNs(t), 'time / fastmp': `${(t / ref).toFixed(2)}x` });
    }
    process.stderr.write(`${op} ${name} done\n`);
  }
  const r = (op, peer, ours = 'fastmp auto') => `${(m[op].get(peer) / m[op].get(ours)).toFixed(2)}x`;
  ratios.push({
    chars: name,
    'encode: loop': r('encode', 'charCodeAt loop'),
    'encode: Buffer': r('encode', 'Buffer utf16le + swap16'),
    'encode: asn1js': r('encode', 'asn1js (DER)', 'fastmp writeBMPString (DER)'),
    'encode: forge': r('encode', 'node-forge (DER)', 'fastmp writeBMPString (DER)'),
    'decode: TextDecoder': r('decode', "TextDecoder('utf-16be')"),
    'decode: loop': r('decode', 'fromCharCode loop'),
    'decode: Buffer': r('decode', 'Buffer swap16 + utf16le'),
    'decode: asn1js': r('decode', 'asn1js (DER)', 'fastmp readBMPString (DER)'),
    'decode: forge': r('decode', 'node-forge (DER)', 'fastmp readBMPString (DER)'),
  });
}
printTable(rows);
console.log('\nPeer time / fastmp time (above 1: fastmp is faster). Content codecs against encodeBMP /');
console.log('decodeBMP (auto path); asn1js and node-forge (DER) against writeBMPString / readBMPString.\n');
printTable(ratios);
