// String parity: the six builds of c/fm_string.c (wasm SIMD, wasm scalar,
// x86-64 and aarch64, SIMD through SIMDe and scalar) and the pure-JS path
// agree on every string and DER request, valid or not: the same bytes, units
// and `end`, or the same error code, char index and byte offset. The JS paths
// are driven through the public API twice, with strings and with Uint16Arrays
// (the Node routes differ: Buffer writes vs a typed-array copy). Valid
// requests, and the bad ones built here, also match what is computed
// independently in helpers.js. fm_bmp_narrow, which no API function is
// named after, is compared at the end: both wasm builds called directly and
// the four native ones through the harness, against counts and bytes
// computed here from the units.
import { beforeAll, describe, expect, test } from 'vitest';
import * as api from '../js/index.js';
import { bareKernels } from './bare-kernels.js';
import {
  CHAR_SETS, NATIVE_BUILDS, bigEndianBytes, derHeader, leBytes, randomBMPUnits, randomRangeUnits, randomSetUnits, outcomesOfEveryBuild,
  rng, runNative, stringOfUnits, unitsOfString,
} from './helpers.js';

const { FastmpError, init } = api;

const SIZES = [...Array(41).keys(), 47, 48, 49, 63, 64, 65, 70, 127, 128, 129, 1024, 65536, 1 << 20];
// The one-byte kinds by their harness / camelCase name, with the API's stem and chars (helpers.js CHAR_SETS).
const ONE_BYTE = Object.fromEntries(['IA5', 'Visible', 'Printable', 'Numeric'].map((K) => [
  K === 'IA5' ? 'ia5' : K.toLowerCase(), { K, chars: CHAR_SETS[K], has: new Set(CHAR_SETS[K]) },
]));
const TAGS = { BMP: 0x1e, IA5: 0x16, Visible: 0x1a, Printable: 0x13, Numeric: 0x12 };
const KIND_OF_OP = /bmp|ia5|visible|printable|numeric/i;
const cat = (...parts) => Uint8Array.from(parts.flatMap((p) => [...p]));
const unitsOf = (bytes) => new Uint16Array(bytes.slice().buffer); // little-endian request bytes -> units

/** Every request of the batch: { name, op, bytes, expected? } (expected: { data, end } or { error }). */
function buildCases() {
  const cases = [];
  const add = (name, op, bytes, expected) => cases.push({ name, op, bytes, expected });
  for (const n of SIZES) {
    const units = randomBMPUnits(n, 60 + n);
    const content = bigEndianBytes(units);
    add(`BMP encode ${n}`, 'bmpEncode', leBytes(units), { data: content });
    add(`BMP decode ${n}`, 'bmpDecode', content, { data: leBytes(units) });
    add(`DER write BMP ${n}`, 'derWriteBMP', leBytes(units), { data: cat(derHeader(0x1e, 2 * n), content) });
    const der = cat(derHeader(0x1e, 2 * n), content);
    add(`DER read BMP ${n}`, 'derReadBMP', cat(der, [0x05, 0x00]), { data: leBytes(units), end: der.length });
    for (const [kind, { K, chars: set }] of Object.entries(ONE_BYTE)) {
      const chars = randomSetUnits(n, 70 + n + set[0], set);
      const bytes = Uint8Array.from(chars);
      add(`${K} encode ${n}`, `${kind}Encode`, leBytes(chars), { data: bytes });
      add(`${K} decode ${n}`, `${kind}Decode`, bytes, { data: leBytes(chars) });
      add(`${K} check ${n}`, `${kind}Check`, bytes, {});
      add(`DER write ${K} ${n}`, `derWrite${K}`, leBytes(chars), { data: cat(derHeader(TAGS[K], n), bytes) });
      const derK = cat(derHeader(TAGS[K], n), bytes);
      add(`DER read ${K} ${n}`, `derRead${K}`, derK, { data: leBytes(chars), end: derK.length });
    }
  }
  // A surrogate at every position of lengths around the vector blocks (8 and
  // 32 units), plus one more later that must not hide the first.
  const surrogates = [0xd800, 0xdbff, 0xdc00, 0xdfff];
  for (const n of [1, 7, 8, 9, 15, 16, 17, 31, 32, 33, 40, 63, 64, 65, 70, 100]) {
    const good = randomBMPUnits(n, 200 + n);
    for (let at = 0; at < n; at++) {
      const units = Uint16Array.from(good);
      units[at] = surrogates[at % 4];
      if (at + 33 < n) units[at + 33] = 0xdabc;
      const error = ['SURROGATE', at, 2 * at];
      add(`BMP encode ${n}, surrogate at ${at}`, 'bmpEncode', leBytes(units), { error });
      add(`BMP decode ${n}, surrogate at ${at}`, 'bmpDecode', bigEndianBytes(units), { error });
      if (at % 5 === 0) {
        const head = derHeader(0x1e, 2 * n).length;
        add(`DER write BMP ${n}, surrogate at ${at}`, 'derWriteBMP', leBytes(units), { error: ['SURROGATE', at, head + 2 * at] });
        add(`DER read BMP ${n}, surrogate at ${at}`, 'derReadBMP', cat(derHeader(0x1e, 2 * n), bigEndianBytes(units)), { error: ['SURROGATE', at, head + 2 * at] });
      }
    }
  }
  for (const len of [1, 3, 7, 15, 17, 63, 65, 1025]) {
    const bytes = new Uint8Array(len).fill(0x30);
    add(`BMP decode, odd length ${len}`, 'bmpDecode', bytes, { error: ['ODD_LENGTH', len >> 1, len - 1] });
    add(`DER read BMP, odd length ${len}`, 'derReadBMP', cat(derHeader(0x1e, len), bytes), { error: ['ODD_LENGTH', len >> 1, derHeader(0x1e, len).length + len - 1] });
  }
  // One-byte kinds' bounds at positions around the blocks (16 units, 16 and 64
  // bytes): every unit below 0x100 on either side of a change in the set, and
  // units no one-byte kind has.
  for (const [kind, { K, chars: set, has }] of Object.entries(ONE_BYTE)) {
    const edges = Array.from({ length: 0x100 }, (_, u) => u).filter((u) => has.has(u) !== has.has(u - 1) || has.has(u) !== has.has(u + 1));
    for (const n of [1, 15, 16, 17, 33, 64, 65, 70, 130]) {
      const base = randomSetUnits(n, 300 + n, set);
      for (const at of [0, 1, 7, 8, 15, 16, 17, 31, 32, 47, 48, 63, 64, 65, 69, 129].filter((p) => p < n)) {
        for (const unit of [...edges, 0xff, 0x100, 0xd800, 0xffff]) {
          const chars = Uint16Array.from(base);
          chars[at] = unit;
          const ok = has.has(unit);
          const error = ok ? undefined : ['RANGE', at, at];
          add(`${K} encode ${n}, U+${unit.toString(16)} at ${at}`, `${kind}Encode`, leBytes(chars), ok ? { data: Uint8Array.from(chars) } : { error });
          if (unit > 0xff) continue;
          const bytes = Uint8Array.from(chars);
          add(`${K} decode ${n}, 0x${unit.toString(16)} at ${at}`, `${kind}Decode`, bytes, ok ? { data: leBytes(chars) } : { error });
          add(`${K} check ${n}, 0x${unit.toString(16)} at ${at}`, `${kind}Check`, bytes, ok ? {} : { error });
        }
      }
    }
  }
  // DER headers: every rule, with the content after them valid.
  const A = (n) => new Array(n).fill(0x41);
  const headers = [
    ['length 127', [0x16, 0x7f, ...A(127)]], ['length 128', [0x16, 0x81, 0x80, ...A(128)]],
    ['length 255', [0x16, 0x81, 0xff, ...A(255)]], ['length 256', [0x16, 0x82, 0x01, 0x00, ...A(256)]],
    ['length 65536', [0x16, 0x83, 0x01, 0x00, 0x00, ...A(65536)]],
    ['non-minimal 5', [0x16, 0x81, 0x05, ...A(5)]], ['non-minimal 127', [0x16, 0x81, 0x7f, ...A(127)]],
    ['non-minimal zero', [0x16, 0x81, 0x00]], ['leading zero octet', [0x16, 0x82, 0x00, 0x80, ...A(128)]],
    ['leading zero, 4 octets', [0x16, 0x84, 0x00, 0x00, 0x01, 0x00, ...A(256)]],
    ['indefinite', [0x16, 0x80, 0x41, 0x00, 0x00]], ['constructed', [0x36, 0x03, 0x16, 0x01, 0x41]],
    ['UTF8String tag', [0x0c, 0x01, 0x41]], ['past the end', [0x16, 0x05, 0x41]],
    ['long form past the end', [0x16, 0x82, 0x01, 0x00, 0x41]], ['length octets cut', [0x16, 0x83, 0x01, 0x00]],
    ['no length', [0x16]], ['empty', []], ['reserved 0xFF', [0x16, 0xff, 0x41]],
    ['five length octets', [0x16, 0x85, 0x01, 0x00, 0x00, 0x00, 0x00]],
  ];
  for (const [name, bytes] of headers) {
    for (const K of Object.keys(TAGS)) {
      const retagged = Uint8Array.from(bytes);
      if (retagged[0] === 0x16 || retagged[0] === 0x36) retagged[0] = TAGS[K] | (retagged[0] & 0x20);
      add(`DER read ${K}: ${name}`, `derRead${K}`, retagged);
    }
  }
  return cases;
}

/** One outcome from the public API, in the shape runNative gives. */
function apiOutcome({ op, bytes }, form) {
  const strings = form === 'string';
  const input = () => (strings ? stringOfUnits(unitsOf(bytes)) : unitsOf(bytes));
  const units = (s) => leBytes(unitsOfString(s));
  const kind = op.match(KIND_OF_OP)[0].toLowerCase();
  const K = kind === 'bmp' ? 'BMP' : ONE_BYTE[kind].K;
  try {
    switch (op) {
      case 'bmpEncode': case 'ia5Encode': case 'visibleEncode': case 'printableEncode': case 'numericEncode':
        return { code: 'OK', data: api[`encode${K}`](input()) };
      case 'bmpDecode': case 'ia5Decode': case 'visibleDecode': case 'printableDecode': case 'numericDecode':
        return { code: 'OK', data: strings ? units(api[`decode${K}`](bytes)) : leBytes(api[`decode${K}ToUint16`](bytes)) };
      case 'ia5Check': case 'visibleCheck': case 'printableCheck': case 'numericCheck': // the string route checks without widening
        if (strings) api[`decode${K}`](bytes);
        else api[`decode${K}ToUint16`](bytes);
        return { code: 'OK', data: new Uint8Array(0) };
      case 'derWriteBMP': case 'derWriteIA5': case 'derWriteVisible': case 'derWritePrintable': case 'derWriteNumeric':
        return { code: 'OK', data: api[`write${K}String`](input()) };
      default: {
        const { value, end } = api[`read${K}String`](bytes);
        return { code: 'OK', end, data: units(value) };
      }
    }
  } catch (e) {
    if (!(e instanceof FastmpError)) throw e;
    return { code: e.code, index: e.index, offset: e.offset };
  }
}

/** What must agree between builds. */
function comparable(outcome, op) {
  if (outcome.code !== 'OK') return { code: outcome.code, index: outcome.index, offset: outcome.offset };
  const data = Buffer.from(outcome.data).toString('base64');
  return op.startsWith('derRead') ? { code: 'OK', end: outcome.end, data } : { code: 'OK', data };
}

const cases = buildCases();
let outcomes;
beforeAll(async () => {
  outcomes = await outcomesOfEveryBuild(cases, init, (list) => ({
    ' (string)': list.map((c) => apiOutcome(c, 'string')),
    ' (units)': list.map((c) => apiOutcome(c, 'units')),
  }));
});

describe('six builds and the pure-JS path agree on strings and DER', () => {
  test('the batch covers every build and every outcome', () => {
    expect(Object.keys(outcomes)).toHaveLength(10);
    for (const list of Object.values(outcomes)) expect(list.length).toBe(cases.length);
    const codes = new Set(outcomes['wasm-simd (string)'].map((o) => o.code));
    expect([...codes].sort()).toEqual([
      'DER_CONSTRUCTED', 'DER_INDEFINITE', 'DER_LENGTH', 'DER_NONMINIMAL', 'DER_TAG', 'ODD_LENGTH', 'OK', 'RANGE',
      'SURROGATE', 'TRUNCATED',
    ]);
  });

  test.each(cases.map((c, i) => [c.name, i]))('%s', (_, i) => {
    const { op, expected } = cases[i];
    const reference = comparable(outcomes['x86_64-scalar'][i], op);
    for (const [name, list] of Object.entries(outcomes)) {
      expect({ build: name, ...comparable(list[i], op) }).toEqual({ build: name, ...reference });
    }
    if (expected?.error) {
      expect([reference.code, reference.index, reference.offset]).toEqual(expected.error);
    } else if (expected) {
      expect(reference.code).toBe('OK');
      if (expected.data) expect(reference.data).toBe(Buffer.from(expected.data).toString('base64'));
      if (expected.end !== undefined) expect(reference.end).toBe(expected.end);
    }
  });
});

// ---- fm_bmp_narrow -------------------------------------------------------------------
// BMPString content to one byte per char while every char is at most max:
// the harness ops BMP_NARROW_ASCII (0x7F) and BMP_NARROW_LATIN1 (0xFF), the
// count of chars done (the harness's `end` is their content bytes) and the
// bytes. Content within ASCII, within Latin-1 and of any units at every size
// above, every length 0..300 within max (and with its last char above it),
// and a char above max at every position of lengths around the blocks (16
// and 64 chars; 4 in the scalar words), a later one that must not hide it.

const NARROW = { bmpNarrowAscii: 0x7f, bmpNarrowLatin1: 0xff };

/** Every request: { name, op, bytes, units, max }. */
function buildNarrowCases() {
  const cases = [];
  for (const [op, max] of Object.entries(NARROW)) {
    const M = max === 0x7f ? 'ASCII' : 'Latin-1';
    const add = (what, units) => cases.push({ name: `${M} narrow ${what}`, op, max, units, bytes: bigEndianBytes(units) });
    const r = rng(31 + max);
    for (const n of SIZES) {
      add(`${n}, ASCII`, randomRangeUnits(n, 800 + n + max, 0, 0x7f));
      add(`${n}, Latin-1`, randomRangeUnits(n, 900 + n + max, 0, 0xff));
      add(`${n}, any units`, randomRangeUnits(n, 1000 + n + max, 0, 0xffff));
      if (n > 0) {
        const late = randomRangeUnits(n, 1100 + n + max, 0, max);
        late[(n >> 1) + r.int(n - (n >> 1))] = max + 1 + r.int(0xffff - max);
        add(`${n}, within max but one char in the second half`, late);
      }
    }
    for (let n = 0; n <= 300; n++) {
      const units = randomRangeUnits(n, 1200 + n + max, 0, max);
      add(`every length: ${n}`, units);
      if (n > 0) {
        const last = Uint16Array.from(units);
        last[n - 1] = max + 1;
        add(`every length: ${n}, the last char above max`, last);
      }
    }
    // Above max in the low byte only, in the high byte only (0x0141: its low
    // byte is 'A'), in both; surrogates; the top bit.
    const above = [max + 1, 0x100, 0x141, 0x1ff, 0x4e2d, 0xd800, 0xdfff, 0x8000, 0xffff, max === 0x7f ? 0xff : 0x180];
    for (const n of [1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 79, 80, 81, 127, 128, 129, 200]) {
      const good = randomRangeUnits(n, 1300 + n + max, 0, max);
      for (let at = 0; at < n; at++) {
        const units = Uint16Array.from(good);
        units[at] = above[at % above.length];
        if (at + 5 < n) units[at + 5] = 0xffff;
        add(`${n}, U+${units[at].toString(16)} at ${at}`, units);
      }
    }
  }
  return cases;
}

/** What fm_bmp_narrow must give, from the units: the leading chars at most max, and their low bytes. */
function expectedNarrow({ units, max }) {
  let count = 0;
  while (count < units.length && units[count] <= max) count++;
  return { count, data: Buffer.from(units.subarray(0, count).map((u) => u & 0xff)).toString('base64') };
}

/**
 * One wasm build's outcomes, by calling its fm_bmp_narrow: { code, end, data }
 * as runNative gives them (end: 2 * count). A byte stored past the count (the
 * output is one byte per char and 16 more, all 0xAA before) is reported as
 * the code 'STORED PAST THE COUNT'.
 */
async function wasmNarrowOutcomes(backend, cases) {
  const k = bareKernels(backend, ['strings']);
  expect(k.fm_simd_enabled()).toBe(backend === 'simd' ? 1 : 0);
  return cases.map(({ bytes, max }) => {
    const n = bytes.length / 2;
    const inAt = k.malloc(2 * n) >>> 0;
    const outAt = k.malloc(n + 16) >>> 0;
    new Uint8Array(k.memory.buffer, inAt, 2 * n).set(bytes);
    new Uint8Array(k.memory.buffer, outAt, n + 16).fill(0xaa);
    const count = k.fm_bmp_narrow(inAt, n, outAt, max) >>> 0;
    const out = new Uint8Array(k.memory.buffer, outAt, n + 16).slice();
    k.free(inAt);
    k.free(outAt);
    const stored = count > n || out.subarray(count).some((b) => b !== 0xaa);
    return { code: stored ? 'STORED PAST THE COUNT' : 'OK', end: 2 * count, data: out.subarray(0, Math.min(count, n)) };
  });
}

describe('six builds and an independent computation agree on fm_bmp_narrow', () => {
  const narrowCases = buildNarrowCases();
  const comparableNarrow = ({ code, end, data }) => ({ code, count: end / 2, data: Buffer.from(data).toString('base64') });
  let narrowOutcomes;
  beforeAll(async () => {
    narrowOutcomes = {};
    for (const backend of ['simd', 'scalar']) narrowOutcomes[`wasm-${backend}`] = await wasmNarrowOutcomes(backend, narrowCases);
    for (const build of NATIVE_BUILDS) narrowOutcomes[build.name] = runNative(build, narrowCases);
  });

  test('the batch covers every build, both ops, whole and short narrows', () => {
    expect(Object.keys(narrowOutcomes)).toHaveLength(6);
    for (const list of Object.values(narrowOutcomes)) expect(list.length).toBe(narrowCases.length);
    expect(new Set(narrowCases.map((c) => c.op))).toEqual(new Set(Object.keys(NARROW)));
    const counts = narrowCases.map((c) => expectedNarrow(c).count);
    expect(counts.filter((count, i) => count === narrowCases[i].units.length).length).toBeGreaterThan(600);
    expect(counts.filter((count, i) => count < narrowCases[i].units.length && count >= 64).length).toBeGreaterThan(200);
    expect(Math.max(...counts)).toBe(1 << 20);
  });

  test.each(narrowCases.map((c, i) => [c.name, i]))('%s', (_, i) => {
    const expected = { code: 'OK', ...expectedNarrow(narrowCases[i]) };
    for (const [name, list] of Object.entries(narrowOutcomes)) {
      expect({ build: name, ...comparableNarrow(list[i]) }).toEqual({ build: name, ...expected });
    }
  });
});
