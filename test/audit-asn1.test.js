// audit-asn1.test.js - the ASN.1 strings audit: BMPString, IA5String, VisibleString,
// PrintableString and NumericString (js/strings.js, c/fm_string.c, docs/asn1.md) against
// X.680 / X.690 and an independent implementation, on the default build,
// createFastmp({ backend: 'scalar' }), createFastmp({ backend: 'js' }) and the SIMD kernels at
// every length (pureJs: 'never').
//
// The peer is Debian's OpenSSL (the `openssl` CLI, installed with apt-get by
// test/engines/launch.js fromApt() when missing; the tests that need it skip only when it
// cannot be had). Its string generator (`asn1parse -genstr` / `-genconf`, ASN1_mbstring_copy)
// checks the sets of PrintableString, NumericString, IA5String and BMPString as X.680 41.4
// states them (no '*', '&' or '@' in a PrintableString; plane 0 only in a BMPString), and its
// parser reads the length forms fastmp writes. (It does not check VisibleString's set; its BER
// reader, like asn1js, node-forge, pyasn1 and libtasn1, takes non-minimal and indefinite
// lengths, constructed strings and chars outside the sets, which DER and fastmp refuse: not
// compared here.)
//
// Finding (a test that fails on 9f1a630):
//   1. A RANGE error of the string functions carries no `value`: docs/errors.md ("`value` |
//      `RANGE` …: the element's value") and index.d.ts (FastmpError.value: "RANGE …: the
//      element's value") promise it, and the kernels already report the bad unit
//      (js/strings.js charEncodeError / charDecodeError drop it).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { FastmpError, createFastmp } from '../js/index.js';
import { fromApt } from './engines/launch.js';

const BACKENDS = [
  ['default', {}],
  ['scalar', { backend: 'scalar' }],
  ['js', { backend: 'js' }],
  ['simd kernels', { backend: 'simd', pureJs: 'never' }],
];
const instances = {};
beforeAll(async () => {
  for (const [name, options] of BACKENDS) instances[name] = await createFastmp(options);
});

const u8 = (...b) => Uint8Array.from(b.flat());
const hex = (bytes) => Buffer.from(bytes).toString('hex');

/** What fn throws, as [code, index, offset, value] (fails on anything but a FastmpError). */
function failure(fn) {
  try {
    fn();
  } catch (e) {
    if (!(e instanceof FastmpError)) throw e;
    return [e.code, e.index, e.offset, e.value];
  }
  throw new Error('expected a FastmpError, nothing was thrown');
}

describe.each(BACKENDS.map(([name]) => [name]))('%s', (name) => {
  test('a RANGE error carries the bad char in `value` (docs/errors.md, index.d.ts), encoding and decoding', () => {
    const fm = instances[name];
    const long = (n, c, at, bad) => { const u = new Uint16Array(n).fill(c); u[at] = bad; return u; };
    const cases = [
      [() => fm.encodeIA5('café'), ['RANGE', 3, 3, 0xe9]],
      [() => fm.encodeIA5(`${'a'.repeat(300)}é`), ['RANGE', 300, 300, 0xe9]],
      [() => fm.writeIA5String(`${'a'.repeat(200)}\uD800`), ['RANGE', 200, 203, 0xd800]],
      [() => fm.encodeVisible(Uint16Array.of(0x41, 0x7f)), ['RANGE', 1, 1, 0x7f]],
      [() => fm.encodeNumeric(long(300, 0x31, 200, 0x141)), ['RANGE', 200, 200, 0x141]],
      [() => fm.writePrintableString('A*'), ['RANGE', 1, 3, 0x2a]],
      [() => fm.encodePrintable(`${'b'.repeat(129)}&`), ['RANGE', 129, 129, 0x26]],
      [() => fm.decodeIA5(u8(0x41, 0x80)), ['RANGE', 1, 1, 0x80]],
      [() => fm.decodePrintable(u8(Array(257).fill(0x41), 0x40)), ['RANGE', 257, 257, 0x40]],
      [() => fm.decodeVisibleToUint16(u8(Array(100).fill(0x41), 0x1f)), ['RANGE', 100, 100, 0x1f]],
      [() => fm.readNumericString(u8(0x12, 0x03, 0x31, 0x41, 0x32)), ['RANGE', 1, 3, 0x41]],
      [() => fm.readPrintableString(u8(0x13, 0x81, 0x90, Array(143).fill(0x41), 0x40, Array(0x90 - 144).fill(0x41))), ['RANGE', 143, 146, 0x40]],
    ];
    for (const [call, want] of cases) expect(failure(call)).toEqual(want);
  });
});

// ---- OpenSSL ------------------------------------------------------------------------------

const OPENSSL = fromApt('/usr/bin/openssl', 'openssl', { who: 'audit-asn1' });
const noOpenssl = OPENSSL.missing !== undefined;
if (noOpenssl) console.log(`audit-asn1: skipping the OpenSSL comparisons: ${OPENSSL.missing}`);

let scratch;
afterAll(() => scratch && rmSync(scratch, { recursive: true, force: true }));
const scratchFile = (name, data) => {
  scratch ??= mkdtempSync(join(tmpdir(), 'fastmp-audit-asn1-'));
  const path = join(scratch, name);
  writeFileSync(path, data);
  return path;
};

/** OpenSSL's DER of `asn1parse -genstr spec` (or -genconf of a file), or null when it refuses the value. */
function generate(option, spec) {
  const out = scratchFile('out.der', '');
  const r = spawnSync(OPENSSL.path, ['asn1parse', option, spec, '-noout', '-out', out], { encoding: 'latin1' });
  return r.status === 0 ? new Uint8Array(readFileSync(out)) : null;
}
const genstr = (spec) => generate('-genstr', spec);

/** OpenSSL's DER of a long value (a -genconf file: no argv limit). */
function genconf(type, value) {
  const der = generate('-genconf', scratchFile('gen.cnf', `asn1=FORMAT:UTF8,${type}:${value}\n`));
  if (der === null) throw new Error(`openssl asn1parse -genconf refused a ${type}`);
  return der;
}

/** OpenSSL's reading of DER bytes: the header length, content length, type and (printed types) value. */
function asn1parse(der) {
  const path = scratchFile('in.der', der);
  const r = spawnSync(OPENSSL.path, ['asn1parse', '-inform', 'DER', '-in', path], { maxBuffer: 1 << 26, encoding: 'latin1' });
  const first = /^\s*0:d=0\s+hl=(\d+)\s+l=\s*(\d+)\s+prim:\s+(\w+)\s*(?::(.*))?$/m.exec(r.stdout);
  if (r.status !== 0 || !first) throw new Error(`openssl asn1parse: ${r.stderr || r.stdout.slice(0, 200)}`);
  return { hl: Number(first[1]), l: Number(first[2]), type: first[3], value: first[4] };
}

const KINDS = [
  { stem: 'BMP', type: 'BMPSTRING', checked: true },
  { stem: 'IA5', type: 'IA5STRING', checked: true },
  { stem: 'Visible', type: 'VISIBLESTRING', checked: false }, // OpenSSL's generator does not check this set
  { stem: 'Printable', type: 'PRINTABLESTRING', checked: true },
  { stem: 'Numeric', type: 'NUMERICSTRING', checked: true },
];

describe.skipIf(noOpenssl)('OpenSSL (Debian)', () => {
  test('the char sets: OpenSSL generates a string of a char iff fastmp writes it, with the same bytes, and fastmp reads OpenSSL\'s back', () => {
    // Every printable ASCII char, Latin-1, CJK, a surrogate pair (plane 1: not BMPString's);
    // between two digits, which every kind holds.
    const chars = [...Array.from({ length: 0x5f }, (_, i) => String.fromCharCode(0x20 + i)), 'é', '\u00ff', '\u4e2d', '\ufffd', '😀'];
    const mismatches = [];
    for (const k of KINDS) {
      for (const c of chars) {
        const value = `1${c}2`;
        const theirs = genstr(`FORMAT:UTF8,${k.type}:${value}`);
        for (const name of Object.keys(instances)) {
          const fm = instances[name];
          let ours = null;
          try {
            ours = fm[`write${k.stem}String`](value);
          } catch (e) {
            if (!(e instanceof FastmpError) || e.index !== 1) throw e;
          }
          if (k.checked && (theirs === null) !== (ours === null)) mismatches.push(`${name} ${k.stem} ${JSON.stringify(c)}: OpenSSL ${theirs ? 'writes' : 'refuses'} it, fastmp ${ours ? 'writes' : 'refuses'} it`);
          if (theirs && ours && hex(theirs) !== hex(ours)) mismatches.push(`${name} ${k.stem} ${JSON.stringify(c)}: OpenSSL ${hex(theirs)}, fastmp ${hex(ours)}`);
          if (theirs && ours) {
            const read = fm[`read${k.stem}String`](theirs);
            if (read.value !== value || read.end !== theirs.length) mismatches.push(`${name} ${k.stem} ${JSON.stringify(c)}: fastmp reads ${JSON.stringify(read)}`);
          }
        }
      }
    }
    expect(mismatches).toEqual([]);
  });

  test('every length form, to 4 octets (> 16 MB): OpenSSL reads what fastmp writes, fastmp reads what OpenSSL writes', () => {
    const fm = instances.default;
    for (const len of [0, 1, 127, 128, 255, 256, 65535, 65536, 0xffffff, 1 << 24]) {
      const der = fm.writeIA5String('q'.repeat(len));
      const got = asn1parse(der);
      const hl = len < 0x80 ? 2 : len <= 0xff ? 3 : len <= 0xffff ? 4 : len <= 0xffffff ? 5 : 6;
      expect([got.hl, got.l, got.type, der.length]).toEqual([hl, len, 'IA5STRING', hl + len]);
      expect(got.value === 'q'.repeat(len)).toBe(true);
    }
    for (const [k, len] of [['Printable', 300], ['Numeric', 70000], ['Visible', 128]]) {
      const value = (k === 'Numeric' ? '0123456789 ' : "Az09 '()+,-./:=?").repeat(len).slice(0, len);
      const got = asn1parse(fm[`write${k}String`](value));
      expect([got.l, got.type, got.value === value]).toEqual([len, `${k.toUpperCase()}STRING`, true]);
    }
    // Long forms from OpenSSL's writer, read by every backend (BMP: 64, 128 and 40000 chars).
    for (const [k, type, value] of [
      ['BMP', 'BMPSTRING', 'Zoë'.repeat(22).slice(0, 64)],
      ['BMP', 'BMPSTRING', '\u4e2d\ufeff'.repeat(64)],
      ['BMP', 'BMPSTRING', '\u4e2d'.repeat(40000)],
      ['IA5', 'IA5STRING', 'a@b~'.repeat(17000)],
      ['Printable', 'PRINTABLESTRING', 'AB(1)'.repeat(60)],
    ]) {
      const theirs = genconf(type, value);
      for (const name of Object.keys(instances)) {
        const read = instances[name][`read${k}String`](u8([...theirs], 0x05, 0x00));
        expect(read.value === value && read.end === theirs.length).toBe(true);
        expect(hex(instances[name][`write${k}String`](value))).toBe(hex(theirs));
      }
    }
  });
});
