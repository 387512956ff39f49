// peers.js - what a JS developer has today, for the benchmark to compare
// against: handwritten loops, @msgpack/msgpack, msgpackr, TextDecoder, Node's
// Buffer, asn1js and node-forge. Each peer is used the way its documentation
// suggests for the job.
import { Decoder as MsgpackDecoder, Encoder as MsgpackEncoder } from '@msgpack/msgpack';
import * as asn1js from 'asn1js';
import { FLOAT32_OPTIONS, Packr, Unpackr } from 'msgpackr';
import forge from 'node-forge';

import { toArray } from '../bin/loops.js';

export { JS_LOOP, dataViewPack, dataViewUnpack, jsLoop } from '../bin/loops.js';

// ---- memcpy: the floor of a copying pack -------------------------------------------

/**
 * 'memcpy': the packed output's bytes copied into a preallocated array of the
 * same size (TypedArray#set), no allocation: what writing the output costs at
 * the least in JS, the twin of fm-bench's native memcpy of the output size.
 */
export function memcpy(packed) {
  const src = packed.slice();
  const out = new Uint8Array(src.length);
  return () => {
    out.set(src);
    return out;
  };
}

// ---- msgpack: the libraries, reused instances as their READMEs advise --------------
// @msgpack/msgpack: "reusing Encoder instance is about 20% faster than encode()";
// msgpackr: a Packr / Unpackr made once. Each has two rows: with the user's
// conversion in the timed region (Array.from before packing, Type.from after
// unpacking) and without it (the values already a plain array / left as one).

const isBig = (Type) => Type === BigInt64Array || Type === BigUint64Array;
export const PEER_ROWS = {
  pack: { converted: 'incl. copy loop', plain: 'values pre-converted' },
  unpack: { converted: 'incl. Type.from', plain: 'plain array out' },
};
/** The four library rows of a case: { name, fn } for each library and each conversion. */
export function libraryPeers(op, Type, bool, x, bytes) {
  const f32 = Type === Float32Array;
  const encoder = new MsgpackEncoder({ forceFloat32: f32, useBigInt64: isBig(Type) });
  const decoder = new MsgpackDecoder({ useBigInt64: isBig(Type) });
  const packr = new Packr({ useRecords: false, useFloat32: f32 ? FLOAT32_OPTIONS.ALWAYS : 0 });
  const unpackr = new Unpackr({ useRecords: false, int64AsType: 'bigint' });
  // Small ints decode as numbers even with useBigInt64: BigInt arrays take them through BigInt().
  const toTyped = bool ? (a) => Uint8Array.from(a, Number) : isBig(Type) ? (a) => Type.from(a, BigInt) : (a) => Type.from(a);
  const toPlain = bool ? (v) => toArray(v, Boolean) : (v) => toArray(v);
  const plain = toPlain(x);
  const libs = [['@msgpack/msgpack', (v) => encoder.encode(v), (b) => decoder.decode(b)],
    ['msgpackr', (v) => packr.pack(v), (b) => unpackr.unpack(b)]];
  const { converted, plain: pre } = PEER_ROWS[op];
  return libs.flatMap(([lib, enc, dec]) => (op === 'pack'
    ? [{ name: `${lib} ${converted}`, fn: () => enc(toPlain(x)) }, { name: `${lib}, ${pre}`, fn: () => enc(plain) }]
    : [{ name: `${lib} ${converted}`, fn: () => toTyped(dec(bytes)) }, { name: `${lib}, ${pre}`, fn: () => dec(bytes) }]));
}

// ---- strings -----------------------------------------------------------------------

/**
 * A method's result, a string flattened. V8 builds a string by concatenation
 * as a rope (a cons string) and flattens it only when it is first read: a
 * peer that concatenates (asn1js, node-forge, the fromCharCode loop) would
 * otherwise leave that cost to its caller, outside the timed region. The first
 * charCodeAt flattens, at a cost that grows with the rope's length; a flat
 * string pays nothing. Applied to every method of a string case, fastmp's
 * included.
 */
export function settled(v) {
  if (typeof v === 'string') v.charCodeAt(0);
  return v;
}

export const utf16be = new TextDecoder('utf-16be', { fatal: true, ignoreBOM: true });
const latin1 = new TextDecoder('windows-1252');

/** The loop a JS developer writes, as strict as fastmp (surrogates rejected). */
export function loopEncodeBMP(s) {
  const out = new Uint8Array(2 * s.length);
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if ((c & 0xf800) === 0xd800) throw new Error(`surrogate at ${i}`);
    out[2 * i] = c >> 8;
    out[2 * i + 1] = c & 0xff;
  }
  return out;
}

export function loopDecodeBMP(bytes) {
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

/** IA5 / Visible: the loop that narrows and checks the range. */
export function loopEncodeASCII(s, lo, hi) {
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < lo || c > hi) throw new Error(`out of range at ${i}`);
    out[i] = c;
  }
  return out;
}

/** IA5 / Visible: TextDecoder after a range check loop. */
/**
 * The same two loops for a set of chars that is no range (PrintableString,
 * NumericString): `allowed` is a 128-entry table, 1 for the set's chars.
 */
export const allowedTable = (chars) => Uint8Array.from({ length: 128 }, (_, c) => (chars.includes(String.fromCharCode(c)) ? 1 : 0));
export function loopEncodeSet(s, allowed) {
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c > 127 || allowed[c] === 0) throw new Error(`not in the set at ${i}`);
    out[i] = c;
  }
  return out;
}
export function checkedDecodeSet(bytes, allowed) {
  for (let i = 0; i < bytes.length; i++) if (bytes[i] > 127 || allowed[bytes[i]] === 0) throw new Error(`not in the set at ${i}`);
  return latin1.decode(bytes);
}

export function checkedDecodeASCII(bytes, lo, hi) {
  for (let i = 0; i < bytes.length; i++) if (bytes[i] < lo || bytes[i] > hi) throw new Error(`out of range at ${i}`);
  return latin1.decode(bytes);
}

// Node's Buffer: no validation at all (surrogates pass).
export const bufferEncodeBMP = (s) => Buffer.from(s, 'utf16le').swap16();
export const bufferDecodeBMP = (bytes) => Buffer.from(bytes).swap16().toString('utf16le');

const ASN1JS = {
  BMPString: asn1js.BmpString, IA5String: asn1js.IA5String, VisibleString: asn1js.VisibleString,
  PrintableString: asn1js.PrintableString, NumericString: asn1js.NumericString,
};
/** asn1js writes and reads DER (tag + length + content). */
export const asn1jsWrite = (kind, s) => new Uint8Array(new ASN1JS[kind]({ value: s }).toBER());
export const asn1jsRead = (der) => asn1js.fromBER(der).result.valueBlock.value;

// node-forge works on binary strings: its natural input and output.
const { asn1 } = forge;
// (node-forge names no VisibleString or NumericString type: their universal tags.)
const FORGE = {
  BMPString: asn1.Type.BMPSTRING, IA5String: asn1.Type.IA5STRING, VisibleString: 26,
  PrintableString: asn1.Type.PRINTABLESTRING, NumericString: 18,
};
export const forgeWrite = (kind, s) => asn1.toDer(asn1.create(asn1.Class.UNIVERSAL, FORGE[kind], false, s)).getBytes();
export const forgeRead = (binary) => asn1.fromDer(forge.util.createBuffer(binary)).value;
