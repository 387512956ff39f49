// BMPString, IA5String, VisibleString, PrintableString and NumericString on
// every path: round trips at every length that crosses a SIMD block, every
// char 0x0000-0xFFFF classified, the exact index of the first bad char in
// both directions, odd lengths, the BOM kept, DER edge cases, and agreement
// with TextDecoder('utf-16be'), asn1js and Python's pyasn1 on valid input.
// Expected bytes are built here byte by byte (helpers.js), never by fastmp.
import { execFileSync } from 'node:child_process';
import { Worker } from 'node:worker_threads';
import * as asn1js from 'asn1js';
import { beforeAll, describe, expect, test } from 'vitest';
import * as api from '../js/index.js';
import { bareKernels } from './bare-kernels.js';
import {
  CHAR_SETS, bigEndianBytes, derHeader, randomBMPUnits, randomRangeUnits, randomSetUnits, rng, stringOfUnits,
  unitsOfString,
} from './helpers.js';

const { FastmpError, createFastmp, init, memoryStats } = api;

const PATHS = [
  ['wasm-simd', { backend: 'simd', pureJs: 'never' }],
  ['wasm-scalar', { backend: 'scalar', pureJs: 'never' }],
  ['pure-js', { pureJs: 'always' }],
  ['auto', {}],
];

const LENGTHS = [...Array(71).keys(), 1024, 65536, 1 << 20];
const utf16be = new TextDecoder('utf-16be', { fatal: true, ignoreBOM: true });
const u8 = (...b) => Uint8Array.from(b.flat());
const same = (got, want) => expect(Buffer.from(got).equals(Buffer.from(want))).toBe(true);

/** The FastmpError fn throws, as [code, index, offset] (fails on anything else). */
function failure(fn) {
  try {
    fn();
  } catch (e) {
    if (!(e instanceof FastmpError)) throw e;
    return [e.code, e.index, e.offset];
  }
  throw new Error('expected a FastmpError, nothing was thrown');
}

function messageOf(fn) {
  try {
    fn();
  } catch (e) {
    return e.message;
  }
  return null;
}

const KINDS = {
  BMP: { tag: 0x1e, encode: 'encodeBMP', decode: 'decodeBMP', toUnits: 'decodeBMPToUint16', write: 'writeBMPString', read: 'readBMPString' },
};
// The one-byte kinds, each with its chars (helpers.js CHAR_SETS) and the API's names.
const NARROW = Object.entries({ IA5: 0x16, Visible: 0x1a, Printable: 0x13, Numeric: 0x12 }).map(([stem, tag]) => ({
  stem, tag, chars: CHAR_SETS[stem], has: new Set(CHAR_SETS[stem]),
  encode: `encode${stem}`, decode: `decode${stem}`, toUnits: `decode${stem}ToUint16`, write: `write${stem}String`, read: `read${stem}String`,
}));
for (const k of NARROW) KINDS[k.stem] = k;
/** Units outside some set but inside ASCII: the holes of Printable and Numeric, and the range ends. */
const HOLES = [0x00, 0x1f, 0x21, 0x22, 0x26, 0x2a, 0x2f, 0x30, 0x39, 0x3a, 0x3b, 0x3c, 0x3e, 0x40, 0x5a, 0x5b, 0x60, 0x7a, 0x7b, 0x7e, 0x7f];

for (const [name, options] of PATHS) {
  describe(name, () => {
    beforeAll(() => init(options));

    test('BMPString round trips at lengths 0-70, 1 K, 64 K and 1 M (string and Uint16Array)', () => {
      for (const n of LENGTHS) {
        const units = randomBMPUnits(n, 7 + n);
        const s = stringOfUnits(units);
        const content = bigEndianBytes(units);
        const der = u8(derHeader(0x1e, 2 * n), [...content]);
        same(api.encodeBMP(s), content);
        same(api.encodeBMP(units), content);
        expect(utf16be.decode(api.encodeBMP(s)) === s).toBe(true);
        expect(api.decodeBMP(content) === s).toBe(true);
        same(api.decodeBMPToUint16(content), units);
        same(api.writeBMPString(s), der);
        const read = api.readBMPString(der);
        expect(read.value === s && read.end === der.length).toBe(true);
      }
    });

    test('IA5String, VisibleString, PrintableString and NumericString round trips at lengths 0-70, 1 K, 64 K and 1 M', () => {
      for (const k of NARROW) {
        for (const n of LENGTHS) {
          const units = randomSetUnits(n, 3 + n, k.chars);
          const s = stringOfUnits(units);
          const content = Uint8Array.from(units);
          same(api[k.encode](s), content);
          same(api[k.encode](units), content);
          expect(api[k.decode](content) === s).toBe(true);
          same(api[k.toUnits](content), units);
          const der = u8(derHeader(k.tag, n), [...content]);
          same(api[k.write](s), der);
          expect(api[k.read](der)).toEqual({ value: s, end: der.length });
        }
      }
    });

    test('a surrogate at every position around vector boundaries: the exact char index, both ways', () => {
      const bad = [0xd800, 0xdbff, 0xdc00, 0xdfff];
      for (const n of [...Array(71).keys()].slice(1).concat([127, 128, 129, 200])) {
        const good = randomBMPUnits(n, 100 + n);
        for (let at = 0; at < n; at++) {
          const units = Uint16Array.from(good);
          units[at] = bad[(at + n) % 4];
          // A second surrogate later must not hide the first.
          if (at + 9 < n) units[at + 9] = 0xd801;
          const s = stringOfUnits(units);
          expect(failure(() => api.encodeBMP(s))).toEqual(['SURROGATE', at, 2 * at]);
          expect(failure(() => api.encodeBMP(units))).toEqual(['SURROGATE', at, 2 * at]);
          const content = bigEndianBytes(units);
          expect(failure(() => api.decodeBMP(content))).toEqual(['SURROGATE', at, 2 * at]);
          expect(failure(() => api.decodeBMPToUint16(content))).toEqual(['SURROGATE', at, 2 * at]);
          // In DER, offsets count the header; the index stays the char's.
          const head = derHeader(0x1e, 2 * n).length;
          expect(failure(() => api.writeBMPString(s))).toEqual(['SURROGATE', at, head + 2 * at]);
          expect(failure(() => api.readBMPString(u8(0xff, derHeader(0x1e, 2 * n), [...content]), 1)))
            .toEqual(['SURROGATE', at, 1 + head + 2 * at]);
        }
      }
    });

    test('a valid surrogate pair is rejected at its high half: BMPString is plane 0 only', () => {
      const s = 'ab\u{1F600}c'.padEnd(40, 'x');
      expect(failure(() => api.encodeBMP(s))).toEqual(['SURROGATE', 2, 4]);
      const content = bigEndianBytes(unitsOfString(s));
      expect(failure(() => api.decodeBMP(content))).toEqual(['SURROGATE', 2, 4]);
      // TextDecoder('utf-16be') accepts the pair: the reason this codec exists.
      expect(utf16be.decode(content)).toBe(s);
    });

    // Content whose chars are all one byte wide can be made into a string
    // from one byte per char (fm_bmp_narrow: to 0xFF with Node's Buffer, to
    // 0x7F with TextDecoder; test/browser.test.js runs the latter in
    // Chromium): every length around the pure-JS short strings (128 chars)
    // and the kernels' blocks (16, 64), a wider char or a surrogate at every
    // position of an ASCII stretch.
    test('BMPString of one-byte chars (ASCII, Latin-1), and where the first wider char or a surrogate ends the stretch', () => {
      const lengths = [...Array(20).keys()].map((k) => 120 + k).concat([143, 144, 145, 191, 192, 193, 255, 256, 257, 1024, 1025, 4099, 65536]);
      for (const n of lengths) {
        for (const max of [0x7f, 0xff]) {
          const units = randomRangeUnits(n, 40 + n + max, 0, max);
          const s = stringOfUnits(units);
          const content = bigEndianBytes(units);
          expect(api.decodeBMP(content) === s).toBe(true);
          same(api.decodeBMPToUint16(content), units);
          const read = api.readBMPString(u8(derHeader(0x1e, 2 * n), [...content]));
          expect(read.value === s).toBe(true);
        }
      }
      // 0x7F / 0x80 and 0xFF / 0x100 are where the routes end; 0x4E2D is far past both.
      const wider = [0x80, 0x9f, 0xff, 0x100, 0x17f, 0x4e2d, 0xfeff, 0xffff];
      for (const n of [1, 15, 16, 17, 47, 48, 63, 64, 65, 127, 128, 129, 143, 144, 200, 1024]) {
        const ascii = randomRangeUnits(n, 500 + n, 0x00, 0x7f);
        for (let at = 0; at < n; at += n > 200 ? 7 : 1) {
          const units = Uint16Array.from(ascii);
          units[at] = wider[at % wider.length];
          if (at + 1 < n) units[at + 1] = 0x41; // one-byte again after it
          const s = stringOfUnits(units);
          expect(api.decodeBMP(bigEndianBytes(units)) === s).toBe(true);
          units[at] = [0xd800, 0xdbff, 0xdc00, 0xdfff][at % 4];
          if (at + 2 < n) units[at + 2] = 0xdabc; // a later surrogate must not hide the first
          expect(failure(() => api.decodeBMP(bigEndianBytes(units)))).toEqual(['SURROGATE', at, 2 * at]);
          expect(failure(() => api.decodeBMPToUint16(bigEndianBytes(units)))).toEqual(['SURROGATE', at, 2 * at]);
        }
      }
    });

    test('odd byte lengths are rejected at the last byte, before any char is looked at', () => {
      for (const len of [1, 3, 15, 17, 31, 33, 63, 65, 69, 1025]) {
        const bytes = new Uint8Array(len).fill(0x41);
        const want = ['ODD_LENGTH', len >> 1, len - 1];
        expect(failure(() => api.decodeBMP(bytes))).toEqual(want);
        expect(failure(() => api.decodeBMPToUint16(bytes))).toEqual(want);
        bytes[0] = 0xd8; // a surrogate first: the odd length is still what is reported
        expect(failure(() => api.decodeBMP(bytes))).toEqual(want);
        expect(failure(() => api.readBMPString(u8(derHeader(0x1e, len), [...bytes])))).toEqual(
          ['ODD_LENGTH', len >> 1, derHeader(0x1e, len).length + len - 1],
        );
      }
      expect(messageOf(() => api.decodeBMP(u8(0, 0x41, 0)))).toMatch(/3 bytes .* last byte, at 2, is half a char/);
    });

    test('a leading U+FEFF is an ordinary char: nothing is stripped or added', () => {
      expect(api.decodeBMP(u8(0xfe, 0xff, 0x00, 0x41))).toBe('\uFEFFA');
      expect(api.decodeBMP(u8(0xff, 0xfe, 0x00, 0x41))).toBe('\uFFFEA');
      same(api.encodeBMP('\uFEFFA'), u8(0xfe, 0xff, 0x00, 0x41));
      const long = `\uFEFF${'z'.repeat(100)}`;
      expect(api.decodeBMP(api.encodeBMP(long))).toBe(long);
      expect(api.decodeBMPToUint16(u8(0xfe, 0xff))[0]).toBe(0xfeff);
      expect(api.readBMPString(u8(0x1e, 2, 0xfe, 0xff)).value).toBe('\uFEFF');
      expect(api.decodeBMP(u8(0xfe, 0xff))).toHaveLength(1);
    });

    test('every char 0x0000-0xFFFF is classified as the set says, in both directions and at every place in a vector', () => {
      for (const k of NARROW) {
        const base = randomSetUnits(70, 5, k.chars);
        for (let unit = 0; unit < 0x10000; unit++) {
          const at = unit % 67; // a different place, inside and across SIMD blocks
          const chars = base.slice(0, at + 3);
          chars[at] = unit;
          const ok = k.has.has(unit);
          if (unit % 16 === 0 || unit < 0x100) { // the string route too (UTF-8 in Node's wasm path)
            const s = stringOfUnits(chars);
            if (ok) expect(api[k.encode](s)[at]).toBe(unit);
            else expect(failure(() => api[k.encode](s))).toEqual(['RANGE', at, at]);
          }
          if (ok) expect(api[k.encode](chars)[at]).toBe(unit);
          else expect(failure(() => api[k.encode](chars))).toEqual(['RANGE', at, at]);
          if (unit > 0xff) continue;
          const bytes = Uint8Array.from(chars);
          if (ok) expect(api[k.toUnits](bytes)[at]).toBe(unit);
          else expect(failure(() => api[k.decode](bytes))).toEqual(['RANGE', at, at]);
        }
      }
    });

    test('one-byte kinds: bounds and holes (0x1F, 0x20, 0x2A, 0x7E, 0x7F, 0x80 and beyond) at every kind of position', () => {
      const units = [...HOLES, 0x20, 0x41, 0x61, 0x80, 0xff, 0x100, 0xd800, 0xdfff, 0xfeff, 0xffff];
      for (const k of NARROW) {
        for (const n of [1, 16, 40, 70, 200]) {
          const base = randomSetUnits(n, n, k.chars);
          for (const at of [0, 1, 7, 8, 15, 16, 17, 31, 32, 33, 63, 64, 65, 69, 199].filter((p) => p < n)) {
            for (const unit of units) {
              const chars = Uint16Array.from(base);
              chars[at] = unit;
              const ok = k.has.has(unit);
              const s = stringOfUnits(chars);
              for (const input of [s, chars]) {
                if (ok) same(api[k.encode](input), Uint8Array.from(chars));
                else expect(failure(() => api[k.encode](input))).toEqual(['RANGE', at, at]);
              }
              if (unit > 0xff) continue; // bytes only from here
              const bytes = Uint8Array.from(chars);
              if (ok) {
                expect(api[k.decode](bytes)).toBe(s);
                same(api[k.toUnits](bytes), chars);
              } else {
                expect(failure(() => api[k.decode](bytes))).toEqual(['RANGE', at, at]);
                expect(failure(() => api[k.toUnits](bytes))).toEqual(['RANGE', at, at]);
                expect(failure(() => api[k.read](u8(derHeader(k.tag, n), [...bytes])))).toEqual(['RANGE', at, derHeader(k.tag, n).length + at]);
              }
            }
          }
        }
      }
      expect(messageOf(() => api.encodeIA5('caf\u00e9'))).toMatch(/IA5String: char 3 \(U\+00E9\) is outside IA5String's range U\+0000-U\+007F/);
      expect(messageOf(() => api.decodeVisible(u8(0x41, 0x7f)))).toMatch(/VisibleString: char 1 at byte 1 is 0x7F, outside VisibleString's range 0x20-0x7E/);
      expect(messageOf(() => api.writeVisibleString('a\tb'))).toMatch(/char 1 \(U\+0009\)/);
      expect(messageOf(() => api.encodePrintable('a@b'))).toMatch(/PrintableString: char 1 \(U\+0040\) is outside PrintableString's set A-Z a-z 0-9 space ' \( \) \+ , - \. \/ : = \?/);
      expect(messageOf(() => api.readNumericString(u8(0x12, 2, 0x31, 0x2d)))).toMatch(/NumericString: char 1 at byte 3 is 0x2D, outside NumericString's set 0-9 and space/);
    });

    test('DER lengths at the form boundaries (127, 128, 255, 256, 65535, 65536 content bytes)', () => {
      for (const len of [0, 1, 127, 128, 255, 256, 65535, 65536, 0xffffff, 1 << 24]) {
        const big = len > 65536; // the 3- and 4-octet forms: one repeated char keeps it quick
        const ascii = big ? null : randomRangeUnits(len, len, 0x20, 0x7e);
        const s = big ? 'q'.repeat(len) : stringOfUnits(ascii);
        const der = Buffer.concat([Buffer.from(derHeader(0x16, len)), big ? Buffer.alloc(len, 'q') : Buffer.from(Uint8Array.from(ascii))]);
        same(api.writeIA5String(s), der);
        const read = api.readIA5String(der);
        expect(read.value === s && read.end === der.length).toBe(true);
        if (len % 2 === 0 && !big) {
          const units = randomBMPUnits(len / 2, len);
          const bmp = u8(derHeader(0x1e, len), [...bigEndianBytes(units)]);
          same(api.writeBMPString(units), bmp);
          expect(api.readBMPString(bmp).value === stringOfUnits(units)).toBe(true);
        }
      }
      expect([...api.writeBMPString('x'.repeat(64)).subarray(0, 3)]).toEqual([0x1e, 0x81, 0x80]);
      expect([...api.writeVisibleString('x'.repeat(65536)).subarray(0, 5)]).toEqual([0x1a, 0x83, 0x01, 0x00, 0x00]);
      expect([...api.writeIA5String('x'.repeat(1 << 24)).subarray(0, 6)]).toEqual([0x16, 0x84, 0x01, 0x00, 0x00, 0x00]);
    });

    test.each([
      ['non-minimal: long form for 5', u8(0x1e, 0x81, 0x05, Array(5).fill(0)), 'DER_NONMINIMAL', 1],
      ['non-minimal: long form for 127', u8(0x16, 0x81, 0x7f, Array(127).fill(0x41)), 'DER_NONMINIMAL', 1],
      ['non-minimal: a leading zero octet', u8(0x16, 0x82, 0x00, 0x80, Array(128).fill(0x41)), 'DER_NONMINIMAL', 1],
      ['non-minimal: two octets for 255', u8(0x16, 0x82, 0x00, 0xff, Array(255).fill(0x41)), 'DER_NONMINIMAL', 1],
      ['non-minimal: zero length in long form', u8(0x1a, 0x81, 0x00), 'DER_NONMINIMAL', 1],
      ['indefinite length', u8(0x1e, 0x80, 0x00, 0x41, 0x00, 0x00), 'DER_INDEFINITE', 1],
      ['constructed BMPString', u8(0x3e, 0x04, 0x1e, 0x02, 0x00, 0x41), 'DER_CONSTRUCTED', 0],
      ['constructed, indefinite', u8(0x3e, 0x80, 0x1e, 0x02, 0x00, 0x41, 0, 0), 'DER_CONSTRUCTED', 0],
      ['constructed PrintableString', u8(0x33, 0x03, 0x13, 0x01, 0x41), 'DER_CONSTRUCTED', 0],
      ['constructed NumericString', u8(0x32, 0x03, 0x12, 0x01, 0x31), 'DER_CONSTRUCTED', 0],
      ['non-minimal PrintableString', u8(0x13, 0x81, 0x02, 0x41, 0x42), 'DER_NONMINIMAL', 1],
      ['indefinite NumericString', u8(0x12, 0x80, 0x31, 0x00, 0x00), 'DER_INDEFINITE', 1],
      ['NumericString past the end', u8(0x12, 0x03, 0x31), 'TRUNCATED', 1],
      ['PrintableString, 0xFF length', u8(0x13, 0xff, 0x41), 'DER_LENGTH', 1],
      ['a UTF8String', u8(0x0c, 0x01, 0x41), 'DER_TAG', 0],
      ['an OCTET STRING', u8(0x04, 0x02, 0x00, 0x41), 'DER_TAG', 0],
      ['[0] IMPLICIT', u8(0x80, 0x02, 0x00, 0x41), 'DER_TAG', 0],
      ['length past the end', u8(0x1e, 0x04, 0x00, 0x41), 'TRUNCATED', 1],
      ['long length past the end', u8(0x1e, 0x82, 0x01, 0x00, 0x00, 0x41), 'TRUNCATED', 1],
      ['length octets cut', u8(0x1e, 0x82, 0x01), 'TRUNCATED', 1],
      ['no length', u8(0x1e), 'TRUNCATED', 1],
      ['empty input', u8(), 'TRUNCATED', 0],
      ['the reserved length octet 0xFF', u8(0x1e, 0xff, 0, 0), 'DER_LENGTH', 1],
      ['five length octets', u8(0x1e, 0x85, 1, 0, 0, 0, 0), 'DER_LENGTH', 1],
    ])('DER reader: %s', (_, bytes, code, offset) => {
      const readers = {
        0x1e: 'readBMPString', 0x3e: 'readBMPString', 0x16: 'readIA5String', 0x1a: 'readVisibleString',
        0x13: 'readPrintableString', 0x33: 'readPrintableString', 0x12: 'readNumericString', 0x32: 'readNumericString',
      };
      const fn = readers[bytes[0]] ?? 'readBMPString';
      expect(failure(() => api[fn](bytes))).toEqual([code, -1, offset]);
      // The same bytes later in a buffer: offsets are in the whole input.
      const later = u8(0x05, 0x00, [...bytes]);
      expect(failure(() => api[fn](later, 2))).toEqual([code, -1, 2 + offset]);
      expect(messageOf(() => api[fn](later, 2))).toContain(`byte ${2 + offset}`);
    });

    test('DER reader: each one-byte kind refuses the others\' tags (and a PrintableString is no IA5String)', () => {
      for (const k of NARROW) {
        for (const other of NARROW.filter((o) => o !== k)) {
          const der = api[other.write]('12');
          expect(failure(() => api[k.read](der))).toEqual(['DER_TAG', -1, 0]);
        }
      }
    });

    test('DER reader: strings one after another, with `end` for the next', () => {
      const bytes = u8([...api.writeBMPString('Zoë')], [...api.writeIA5String('a@b.example')], [...api.writeVisibleString('DE')], 0x05, 0x00);
      const first = api.readBMPString(bytes);
      expect(first).toEqual({ value: 'Zoë', end: 8 });
      const second = api.readIA5String(bytes, first.end);
      expect(second).toEqual({ value: 'a@b.example', end: 21 });
      const third = api.readVisibleString(bytes, second.end);
      expect(third).toEqual({ value: 'DE', end: 25 });
      expect(failure(() => api.readVisibleString(bytes, third.end))).toEqual(['DER_TAG', -1, 25]);
      expect(failure(() => api.readVisibleString(bytes, bytes.length))).toEqual(['TRUNCATED', -1, bytes.length]);
    });

    test('asn1js writes what fastmp writes and reads what fastmp writes (valid input)', () => {
      const r = rng(11);
      for (const n of [0, 1, 2, 20, 63, 64, 127, 128, 200, 4000]) {
        const units = randomBMPUnits(n, 50 + n);
        const s = stringOfUnits(units);
        const ours = api.writeBMPString(s);
        same(new asn1js.BmpString({ value: s }).toBER(), ours);
        const theirs = asn1js.fromBER(ours.slice().buffer);
        expect(theirs.offset).toBe(ours.length);
        expect(theirs.result.valueBlock.value === s).toBe(true);
        const types = { IA5: asn1js.IA5String, Visible: asn1js.VisibleString, Printable: asn1js.PrintableString, Numeric: asn1js.NumericString };
        for (const k of NARROW) {
          const Type = types[k.stem];
          const text = stringOfUnits(randomSetUnits(n + r.int(3), n, k.chars));
          const der = api[k.write](text);
          same(new Type({ value: text }).toBER(), der);
          expect(asn1js.fromBER(der.slice().buffer).result.valueBlock.value).toBe(text);
          expect(api[k.read](new Uint8Array(new Type({ value: text }).toBER())).value).toBe(text);
        }
      }
    });

    test('wrong arguments are TypeErrors; offsets outside the input are RangeErrors', () => {
      for (const fn of ['encodeBMP', 'encodeIA5', 'encodeVisible', 'encodePrintable', 'encodeNumeric', 'writeBMPString', 'writeIA5String', 'writeVisibleString', 'writePrintableString', 'writeNumericString']) {
        for (const bad of [undefined, null, 42, [0x41], new Uint8Array(2), new Int16Array(2), { length: 1 }]) {
          expect(() => api[fn](bad)).toThrow(TypeError);
        }
      }
      expect(() => api.encodeBMP([65])).toThrow(/encodeBMP\(\) takes a string or a Uint16Array .*, not an Array/);
      for (const fn of ['decodeBMP', 'decodeBMPToUint16', 'decodeIA5', 'decodeVisibleToUint16', 'decodePrintable', 'decodeNumericToUint16', 'readBMPString', 'readIA5String', 'readPrintableString', 'readNumericString']) {
        for (const bad of [undefined, null, 'abc', [0, 65], new Uint16Array(2), 7]) {
          expect(() => api[fn](bad)).toThrow(TypeError);
        }
      }
      expect(api.decodeBMP(u8(0, 0x41).buffer)).toBe('A');
      for (const bad of [-1, 1.5, 3, NaN, '1']) {
        expect(() => api.readBMPString(u8(0x1e, 0), bad)).toThrow(RangeError);
      }
    });

    test('content in an alloc() array is read in place, and refused once freed (FREED, before any byte is read)', () => {
      const der = api.writeBMPString('Grüße, Ελλάδα '.repeat(10));
      const held = api.alloc(Uint8Array, der.length);
      held.set(der);
      expect(api.readBMPString(held).value).toBe('Grüße, Ελλάδα '.repeat(10));
      expect(api.decodeIA5(held.subarray(0, 0))).toBe('');
      api.free(held);
      // The freed bytes would be a DER_TAG error (0x1E expected) if they were read first.
      for (const call of [() => api.readBMPString(held), () => api.readIA5String(held), () => api.decodeBMP(held), () => api.decodeIA5ToUint16(held)]) {
        try {
          call();
          throw new Error('expected FREED');
        } catch (e) {
          expect(e.code).toBe('FREED');
        }
      }
    });

    test('outputs are fresh arrays the caller owns', () => {
      const a = api.encodeBMP('x'.repeat(300));
      const b = api.decodeBMPToUint16(a);
      const c = api.writeIA5String('y'.repeat(300));
      const copies = [Uint8Array.from(a), Uint16Array.from(b), Uint8Array.from(c)];
      for (let i = 0; i < 20; i++) api.decodeBMP(api.encodeBMP('z'.repeat(1000 + i)));
      expect([a, b, c]).toEqual(copies);
      for (const x of [a, b, c]) expect(x.buffer.byteLength).toBe(x.byteLength);
    });
  });
}

test('wasm memory growth between string calls never leaves a stale view', async () => {
  await init({ pureJs: 'never' }); // a fresh instance
  const before = memoryStats().wasmMemory;
  const small = 'Grüße, Ελλάδα, 日本 '.repeat(5);
  const smallBytes = api.encodeBMP(small);
  expect(api.decodeBMP(smallBytes)).toBe(small);
  const big = stringOfUnits(randomBMPUnits(3 << 20, 9)); // 6 MB each way: memory must grow
  expect(api.decodeBMP(api.encodeBMP(big)) === big).toBe(true);
  expect(memoryStats().wasmMemory).toBeGreaterThan(before);
  same(api.encodeBMP(small), smallBytes);
  expect(api.decodeBMP(smallBytes)).toBe(small);
  expect(api.decodeIA5(api.encodeIA5('after growth'.repeat(10)))).toBe('after growth'.repeat(10));
});

// fm_bmp_narrow (c/fm_string.c), called directly in both wasm builds: BMP
// content to one byte per char while every char is at most max (0x7F or
// 0xFF), the count done returned. Here the expected bytes and counts are
// computed from the units, and `out` past the count must stay untouched.
describe.each(['simd', 'scalar'])('fm_bmp_narrow (wasm %s)', (backend) => {
  let k;
  beforeAll(async () => {
    k = bareKernels(backend, ['strings']);
  });

  /** [returned count, out bytes] for the units, `in` and `out` at the given misalignments. */
  function narrow(units, max, inShift, outShift) {
    const n = units.length;
    const inAt = (k.malloc(2 * n + 32) >>> 0) + inShift;
    const outAt = (k.malloc(n + 32) >>> 0) + outShift;
    new Uint8Array(k.memory.buffer, inAt, 2 * n).set(bigEndianBytes(units));
    new Uint8Array(k.memory.buffer, outAt, n + 16).fill(0xaa);
    const done = k.fm_bmp_narrow(inAt, n, outAt, max) >>> 0;
    const out = new Uint8Array(k.memory.buffer, outAt, n + 16).slice();
    k.free(inAt - inShift);
    k.free(outAt - outShift);
    return [done, out];
  }

  /** What fm_bmp_narrow must give: the count of leading units <= max, their low bytes, 0xAA after. */
  function expected(units, max) {
    let done = 0;
    while (done < units.length && units[done] <= max) done++;
    const out = new Uint8Array(units.length + 16).fill(0xaa);
    for (let i = 0; i < done; i++) out[i] = units[i];
    return [done, out];
  }

  test('all chars one byte wide: every length 0-300 and around larger blocks, every misalignment', () => {
    for (const max of [0x7f, 0xff]) {
      for (const n of [...Array(301).keys(), 1023, 1024, 1025, 4096 + 63, 65536]) {
        const units = randomRangeUnits(n, 60 + n + max, 0, max);
        for (const [inShift, outShift] of n <= 300 ? [[0, 0], [1, 0], [0, 3], [5, 7]] : [[0, 0], [1, 3]]) {
          const [done, out] = narrow(units, max, inShift, outShift);
          expect(done).toBe(n);
          same(out, expected(units, max)[1]);
        }
      }
    }
  });

  test('the first char above max, at every position of lengths around the blocks (16, 64 chars): its index, nothing stored from it on', () => {
    for (const max of [0x7f, 0xff]) {
      // Just above max in either byte; a surrogate; far above.
      const above = [max + 1, 0x100, 0x1ff, 0xd800, 0xdfff, 0xffff, 0x4e2d, max === 0x7f ? 0xff : 0x180];
      for (const n of [1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 79, 80, 81, 127, 128, 129, 200]) {
        const good = randomRangeUnits(n, 700 + n + max, 0, max);
        for (let at = 0; at < n; at++) {
          const units = Uint16Array.from(good);
          units[at] = above[at % above.length];
          if (at + 5 < n) units[at + 5] = 0xffff; // a later one must not hide the first
          const [done, out] = narrow(units, max, at % 3, at % 5);
          const [wantDone, want] = expected(units, max);
          expect(wantDone).toBe(at);
          expect(done).toBe(at);
          same(out, want);
        }
      }
    }
  });
});

// The pure-JS BMP routes read each byte once (short strings through an
// Array, longer ones and decodeBMPToUint16 through units): content in a
// SharedArrayBuffer that another thread changes meanwhile is checked as it
// is converted.
test('the pure-JS BMPString routes read a SharedArrayBuffer input once: a racing writer never slips a surrogate past the check', async () => {
  const fm = await createFastmp({ pureJs: 'always' });
  const shared = new SharedArrayBuffer(512);
  const bytes = new Uint8Array(shared);
  for (let i = 0; i < 256; i++) bytes[2 * i + 1] = 0x41; // 256 x 'A'
  // Chars 20 and 200 flip between 'A' and the surrogate 0xD841, char 150
  // between 'A' and 0x4E41.
  const worker = new Worker(`
    const { workerData } = require('node:worker_threads');
    const b = new Uint8Array(workerData);
    for (;;) { b[40] = 0xd8; b[400] = 0xd8; b[300] = 0x4e; b[40] = 0; b[400] = 0; b[300] = 0; }`, { eval: true, workerData: shared });
  const calls = [() => fm.decodeBMP(bytes), () => fm.decodeBMP(bytes.subarray(0, 120)), () => String.fromCharCode(...fm.decodeBMPToUint16(bytes))];
  let bad = 0;
  let refused = 0;
  const end = Date.now() + 1500;
  try {
    while (Date.now() < end && refused < 3000) {
      for (const call of calls) {
        try {
          const s = call();
          if (/[\uD800-\uDFFF]/.test(s) || /[^A\u4E41]/.test(s)) bad++;
        } catch (e) {
          expect([e.code, e.index === 20 || e.index === 200]).toEqual(['SURROGATE', true]);
          refused++;
        }
      }
    }
  } finally {
    await worker.terminate();
  }
  expect(refused).toBeGreaterThan(0); // the race did happen
  expect(bad).toBe(0);
});

test("pyasn1 (Python) writes what fastmp writes and reads what fastmp writes", async () => {
  await init({ pureJs: 'never' });
  const samples = [0, 1, 2, 20, 64, 127, 128, 300, 40000].map((n) => stringOfUnits(randomBMPUnits(n, 900 + n)));
  const narrow = (stem) => [0, 5, 128, 300].map((n) => stringOfUnits(randomSetUnits(n, n, CHAR_SETS[stem])));
  const script = `
import json, sys
from pyasn1.codec.der import decoder, encoder
from pyasn1.type import char
req = json.load(sys.stdin)
types = {'bmp': char.BMPString, 'ia5': char.IA5String, 'visible': char.VisibleString,
         'printable': char.PrintableString, 'numeric': char.NumericString}
out = {'encoded': [], 'decoded': []}
for kind, text in req['encode']:
    out['encoded'].append(encoder.encode(types[kind](text)).hex())
for kind, der in req['decode']:
    value, rest = decoder.decode(bytes.fromhex(der), asn1Spec=types[kind]())
    out['decoded'].append([str(value), len(rest)])
json.dump(out, sys.stdout)
`;
  const cases = [...samples.map((s) => ['bmp', s]), ...['IA5', 'Visible', 'Printable', 'Numeric'].flatMap((stem) => narrow(stem).map((s) => [stem.toLowerCase(), s]))];
  const write = { bmp: api.writeBMPString, ia5: api.writeIA5String, visible: api.writeVisibleString, printable: api.writePrintableString, numeric: api.writeNumericString };
  const request = {
    encode: cases,
    decode: cases.map(([kind, s]) => [kind, Buffer.from(write[kind](s)).toString('hex')]),
  };
  const reply = JSON.parse(execFileSync('/usr/bin/python3', ['-c', script], { input: JSON.stringify(request), maxBuffer: 1 << 26 }).toString());
  const read = { bmp: api.readBMPString, ia5: api.readIA5String, visible: api.readVisibleString, printable: api.readPrintableString, numeric: api.readNumericString };
  cases.forEach(([kind, s], i) => {
    expect(reply.encoded[i]).toBe(request.decode[i][1]);
    expect(reply.decoded[i]).toEqual([s, 0]);
    expect(read[kind](Buffer.from(reply.encoded[i], 'hex')).value === s).toBe(true);
  });
});
