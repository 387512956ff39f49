// peers.js - what a JS developer has today, for the benchmark to compare
// against: handwritten loops, @msgpack/msgpack, msgpackr, TextDecoder, Node's
// Buffer, asn1js and node-forge. Each peer is used the way its documentation
// suggests for the job.
import { decode, encode } from '@msgpack/msgpack';
import * as asn1js from 'asn1js';
import { Packr, Unpackr } from 'msgpackr';
import forge from 'node-forge';

// ---- msgpack: the 12-line DataView loops -------------------------------------------

function header(out, view, n) {
  if (n <= 15) {
    out[0] = 0x90 | n;
    return 1;
  }
  if (n <= 0xffff) {
    out[0] = 0xdc;
    view.setUint16(1, n);
    return 3;
  }
  out[0] = 0xdd;
  view.setUint32(1, n);
  return 5;
}

/** Float32Array / Float64Array -> msgpack array of floats of that width. */
export function dataViewPack(x) {
  const wide = x instanceof Float64Array;
  const size = wide ? 9 : 5;
  const n = x.length;
  const out = new Uint8Array((n <= 15 ? 1 : n <= 0xffff ? 3 : 5) + size * n);
  const view = new DataView(out.buffer);
  for (let i = 0, p = header(out, view, n); i < n; i++, p += size) {
    out[p] = wide ? 0xcb : 0xca;
    if (wide) view.setFloat64(p + 1, x[i]);
    else view.setFloat32(p + 1, x[i]);
  }
  return out;
}

/** Its decoding twin, for arrays of floats of the target's width only. */
export function dataViewUnpack(bytes, Type) {
  const wide = Type === Float64Array;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const tag = bytes[0];
  const n = tag === 0xdc ? view.getUint16(1) : tag === 0xdd ? view.getUint32(1) : tag & 0x0f;
  const out = new Type(n);
  for (let i = 0, p = tag === 0xdc ? 3 : tag === 0xdd ? 5 : 1; i < n; i++, p += wide ? 9 : 5) {
    if (bytes[p] !== (wide ? 0xcb : 0xca)) throw new Error('not a float');
    out[i] = wide ? view.getFloat64(p + 1) : view.getFloat32(p + 1);
  }
  return out;
}

// ---- msgpack: the libraries, given a plain array as they expect -------------------

const isBig = (x) => x instanceof BigInt64Array || x instanceof BigUint64Array;
const packr32 = new Packr({ useFloat32: 1 });
const packr = new Packr();
const unpackr = new Unpackr({ int64AsType: 'bigint' });

/** @msgpack/msgpack: floats as float32 for a Float32Array, BigInts as 64-bit ints. */
export const msgpackPack = (x) => encode(Array.from(x), { forceFloat32: x instanceof Float32Array, useBigInt64: isBig(x) });
// Small ints decode as numbers even with useBigInt64: BigInt arrays take them through BigInt().
export const msgpackUnpack = (bytes, Type) => (Type.name.startsWith('Big')
  ? Type.from(decode(bytes, { useBigInt64: true }), BigInt) : Type.from(decode(bytes)));
export const msgpackrPack = (x) => (x instanceof Float32Array ? packr32 : packr).pack(Array.from(x));
export const msgpackrUnpack = (bytes, Type) => Type.from(unpackr.unpack(bytes), Type.name.startsWith('Big') ? BigInt : undefined);
export const msgpackPackBool = (flags) => encode(Array.from(flags, Boolean));
export const msgpackUnpackBool = (bytes) => Uint8Array.from(decode(bytes), Number);

// ---- strings -----------------------------------------------------------------------

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
export function checkedDecodeASCII(bytes, lo, hi) {
  for (let i = 0; i < bytes.length; i++) if (bytes[i] < lo || bytes[i] > hi) throw new Error(`out of range at ${i}`);
  return latin1.decode(bytes);
}

// Node's Buffer: no validation at all (surrogates pass).
export const bufferEncodeBMP = (s) => Buffer.from(s, 'utf16le').swap16();
export const bufferDecodeBMP = (bytes) => Buffer.from(bytes).swap16().toString('utf16le');

const ASN1JS = { BMPString: asn1js.BmpString, IA5String: asn1js.IA5String, VisibleString: asn1js.VisibleString };
/** asn1js writes and reads DER (tag + length + content). */
export const asn1jsWrite = (kind, s) => new Uint8Array(new ASN1JS[kind]({ value: s }).toBER());
export const asn1jsRead = (der) => asn1js.fromBER(der).result.valueBlock.value;

// node-forge works on binary strings: its natural input and output.
const { asn1 } = forge;
const FORGE = { BMPString: asn1.Type.BMPSTRING, IA5String: asn1.Type.IA5STRING, VisibleString: 26 };
export const forgeWrite = (kind, s) => asn1.toDer(asn1.create(asn1.Class.UNIVERSAL, FORGE[kind], false, s)).getBytes();
export const forgeRead = (binary) => asn1.fromDer(forge.util.createBuffer(binary)).value;
