// Parity: the six builds of the same C (wasm SIMD, wasm scalar, x86-64 SIMD
// via SIMDe, x86-64 scalar, aarch64 SIMD via SIMDe -> NEON, aarch64 scalar
// under qemu) and the pure-JS path give identical bytes for pack and identical
// values or identical errors for unpack; valid inputs also match values
// computed independently in helpers.js.
import { beforeAll, describe, expect, test } from 'vitest';
import { FastmpError, init, pack, packBool, unpackBoolFrom, unpackFrom } from '../js/index.js';
import {
  FORMS, INT_TYPES, JS_PATHS, SIZES, bytesOf, encodeElements, expectedArrayBytes, formsHolding, kindOfC, randomElements,
  outcomesOfEveryBuild, randomF32, randomF64, randomInts, rng, smallestForm, typedOf,
} from './helpers.js';

const MIXES = ['f32', 'f64', 'fixint', 'mixed', 'runs'];

/** Float requests, with what the valid ones must decode to. */
function floatCases() {
  const cases = [];
  for (const n of SIZES) {
    cases.push({ name: `pack f32 ${n}`, op: 'pack', type: 'f32', bytes: new Uint8Array(randomF32(n, 10 + n).buffer) });
    cases.push({ name: `pack f64 ${n}`, op: 'pack', type: 'f64', bytes: new Uint8Array(randomF64(n, 20 + n).buffer) });
    for (const mix of MIXES) {
      if (n === 1 << 20 && mix === 'mixed') continue; // 64 K mixed already crosses every block shape
      const elements = randomElements(n, 30 + n + mix.length, mix);
      const bytes = encodeElements(elements);
      for (const wide of [false, true]) {
        cases.push({
          name: `unpack ${mix} ${n} into ${wide ? 'f64' : 'f32'}`,
          op: 'unpack', type: wide ? 'f64' : 'f32',
          bytes,
          expected: expectedArrayBytes(elements, wide),
        });
      }
    }
  }
  // Bad input at every kind of position: before, inside and after SIMD blocks.
  const r = rng(99);
  for (const n of [1, 15, 16, 17, 31, 32, 33, 64, 65, 4096]) {
    for (const mix of MIXES) {
      const elements = randomElements(n, 40 + n, mix);
      const good = encodeElements(elements);
      for (let k = 0; k < 6; k++) {
        const bad = Uint8Array.from(good);
        const at = r.int(n);
        let p = good.length - elements.slice(at).reduce((s, e) => s + (e.form.endsWith('fix') ? 1 : e.form.match(/8$/) ? 2 : e.form.match(/16$/) ? 3 : e.form.match(/32$/) ? 5 : 9), 0);
        bad[p] = [0xc0, 0xc2, 0xa1, 0x91, 0xc4, 0xc1][k]; // nil, false, fixstr, fixarray, bin8, never-used
        cases.push({ name: `type error at ${at} of ${mix} ${n}`, op: 'unpack', type: k % 2 ? 'f64' : 'f32', bytes: bad });
        const cut = 1 + r.int(good.length - 1);
        cases.push({ name: `truncated at ${cut} of ${mix} ${n}`, op: 'unpack', type: k % 2 ? 'f32' : 'f64', bytes: good.subarray(0, cut) });
      }
      // A header claiming one element more than there are (within the bytes: truncation or junk).
      const more = encodeElements(elements, n + 1);
      cases.push({ name: `count + 1 of ${mix} ${n}`, op: 'unpack', type: 'f32', bytes: Uint8Array.from([...more, 0xcb, 0, 0]) });
      // Trailing bytes after a valid array: not an error at this level; `end` says where it stopped.
      cases.push({ name: `trailing after ${mix} ${n}`, op: 'unpack', type: 'f64', bytes: Uint8Array.from([...good, 0x01, 0xc0]) });
    }
  }
  // Every element of a uniform SIMD block replaced by its tag's neighbours: the
  // block test must notice each one, whether it is bad (ext32, never-used,
  // map, nil) or a valid number of another form (u32 for f32, u64/i64 for f64).
  const neighbours = { fixint: [0x80, 0xdf, 0xc0, 0xcc], f32: [0xc9, 0xcb, 0xce, 0xd2], f64: [0xca, 0xcf, 0xd3, 0xc1] };
  for (const [mix, tags] of Object.entries(neighbours)) {
    const elements = randomElements(48, 50 + mix.length, mix);
    const good = encodeElements(elements);
    const width = mix === 'fixint' ? 1 : mix === 'f32' ? 5 : 9;
    for (let at = 0; at < 48; at++) {
      for (const tag of tags) {
        const bytes = Uint8Array.from(good);
        bytes[3 + at * width] = tag; // 3: the array16 header
        cases.push({ name: `${mix} block, element ${at} tagged 0x${tag.toString(16)}`, op: 'unpack', type: at % 2 ? 'f32' : 'f64', bytes });
      }
    }
  }
  for (const bytes of [[], [0xdc, 0], [0xdd, 0, 0, 0], [0xdd, 0xff, 0xff, 0xff, 0xff, 1, 2, 3, 4, 5], [0x9f, 1, 2], [0xc0], [0x80], [0xa3, 0x61, 0x62, 0x63]]) {
    for (const type of ['f32', 'f64', 'i8', 'u64', 'bool']) cases.push({ name: `header ${bytes} into ${type}`, op: 'unpack', type, bytes: Uint8Array.from(bytes) });
  }
  return cases;
}

/** Integer requests: pack at every size and content; unpack of every form a sender may choose. */
function intCases() {
  const cases = [];
  for (const type of INT_TYPES) {
    for (const n of SIZES) {
      for (const content of n > 65536 ? ['random'] : ['random', 'fixint', 'mixed', 'edges']) {
        const values = randomInts(type, n, 60 + n + content.length, content);
        const x = typedOf(type, values);
        const name = `${type.name} ${content} ${n}`;
        cases.push({ name: `pack ${name}`, op: 'pack', type: type.name, bytes: new Uint8Array(x.buffer) });
        if (n > 65536) continue;
        // The smallest forms (what fastmp writes), any form that holds each value, and
        // the target's own width only (the SIMD fast path), each decoded back.
        const r = rng(n + 7);
        const mixes = {
          smallest: values.map((value) => ({ form: smallestForm(value), value })),
          anyForm: values.map((value) => {
            const forms = formsHolding(value);
            return { form: forms[r.int(forms.length)], value };
          }),
        };
        const own = ownWidthForms(type);
        if (values.every((v) => own.some((f) => formsHolding(v).includes(f)))) {
          mixes.ownWidth = values.map((value) => ({ form: own.find((f) => formsHolding(value).includes(f)), value }));
        }
        for (const [mix, elements] of Object.entries(mixes)) {
          cases.push({ name: `unpack ${name} (${mix})`, op: 'unpack', type: type.name, bytes: encodeElements(elements), expected: Buffer.from(x.buffer) });
        }
      }
    }
    // Bad elements at positions around SIMD blocks, in own-width and fixint runs.
    for (const n of [16, 17, 33, 64]) {
      for (const content of ['random', 'fixint']) {
        const values = randomInts(type, n, 90 + n, content);
        const own = ownWidthForms(type);
        const base = values.map((value) => ({ form: content === 'fixint' ? smallestForm(value) : own.find((f) => formsHolding(value).includes(f)) ?? smallestForm(value), value }));
        for (const at of [0, 7, 15, 16, n - 1]) {
          const bads = [
            ['above max', { form: 'u64', value: type.max + 1n > 2n ** 64n - 1n ? 2n ** 64n - 1n : type.max + 1n }],
            ['below min', { form: 'i64', value: type.min - 1n < -(2n ** 63n) ? -(2n ** 63n) : type.min - 1n }],
            ['own width, top bit', { form: own[0], value: FORMS[own[0]].max }],
            ['float 2.0', { form: 'f64', value: [0x40000000, 0] }],
            ['float 2.5', { form: 'f32', value: 0x40200000 }],
            ['negfix', { form: 'negfix', value: -1n }],
          ];
          for (const [what, element] of bads) {
            const elements = base.slice();
            elements[at] = element;
            const bytes = encodeElements(elements);
            for (const integralFloats of [false, true]) {
              cases.push({ name: `${type.name} ${content} ${n}: ${what} at ${at}${integralFloats ? ' (integral floats)' : ''}`, op: 'unpack', type: type.name, integralFloats, bytes });
            }
          }
        }
      }
    }
  }
  return cases;
}

/** The unsigned and signed forms of a type's own width ('u8'/'i8' for bytes, ...). */
const ownWidthForms = (type) => {
  const bits = type.name.slice(1);
  return [`u${bits}`, `i${bits}`];
};

/** Boolean requests. */
function boolCases() {
  const cases = [];
  for (const n of SIZES) {
    const r = rng(n + 3);
    const flags = Uint8Array.from({ length: n }, () => (r.int(2) ? r.int(256) : 0));
    cases.push({ name: `pack bool ${n}`, op: 'pack', type: 'bool', bytes: flags });
    const tags = Uint8Array.from(flags, (f) => (f ? 0xc3 : 0xc2));
    const packed = Uint8Array.from([...encodeElements([], n), ...tags]);
    cases.push({ name: `unpack bool ${n}`, op: 'unpack', type: 'bool', bytes: packed, expected: Buffer.from(flags.map((f) => (f ? 1 : 0))) });
    if (n >= 16 && n <= 65536) {
      for (const at of [0, 15, 16, n - 1]) {
        for (const tag of [0xc0, 0xc1, 0xc4, 0x01, 0xff]) {
          const bad = Uint8Array.from(packed);
          bad[packed.length - n + at] = tag;
          cases.push({ name: `bool ${n}: 0x${tag.toString(16)} at ${at}`, op: 'unpack', type: 'bool', bytes: bad });
        }
      }
    }
  }
  return cases;
}

/** One outcome in the shape runNative gives, from the public JS API. */
function apiOutcome({ op, type, integralFloats, bytes }) {
  const { Type } = kindOfC(type);
  if (op === 'pack') {
    const copy = Uint8Array.from(bytes).buffer;
    const packed = type === 'bool' ? packBool(new Uint8Array(copy)) : pack(new Type(copy), { bin: false });
    return { code: 'OK', data: Buffer.from(packed) };
  }
  try {
    const { value, end } = type === 'bool' ? unpackBoolFrom(bytes) : unpackFrom(bytes, Type, 0, { integralFloats });
    return { code: 'OK', end, data: bytesOf(value) };
  } catch (e) {
    if (!(e instanceof FastmpError)) throw e;
    return { code: e.code, index: e.index, offset: e.offset, value: e.value };
  }
}

/** The value a native build reported with a RANGE error: raw 64 bits read by the element's tag. */
function nativeValue(bytes, outcome) {
  const tag = bytes[outcome.offset];
  const raw = outcome.value;
  const b = Buffer.alloc(8);
  b.writeBigUint64BE(raw);
  if (tag === 0xca) return b.readFloatBE(4);
  if (tag === 0xcb) return b.readDoubleBE(0);
  const unsigned = tag < 0x80 || (tag >= 0xcc && tag <= 0xcf);
  const v = unsigned ? raw : BigInt.asIntN(64, raw);
  return v <= 2n ** 53n && v >= -(2n ** 53n) ? Number(v) : v;
}

/** What must agree between builds. */
function comparable(outcome, { op, bytes }, native) {
  if (outcome.code !== 'OK') {
    const error = { code: outcome.code, index: outcome.index, offset: outcome.offset };
    if (outcome.code === 'RANGE') error.value = native ? nativeValue(bytes, outcome) : outcome.value;
    return error;
  }
  const data = Buffer.from(outcome.data).toString('base64');
  return op === 'pack' ? { code: 'OK', data } : { code: 'OK', end: outcome.end, data };
}

const cases = [...floatCases(), ...intCases(), ...boolCases()];
let outcomes;
beforeAll(async () => {
  outcomes = await outcomesOfEveryBuild(cases, init, (list) => ({ '': list.map(apiOutcome) }));
});

describe('six builds and the pure-JS path agree', () => {
  test('the batch covers every build', () => {
    expect(Object.keys(outcomes).sort()).toEqual(
      ['aarch64-scalar', 'aarch64-simd', 'pure-js', 'wasm-scalar', 'wasm-simd', 'x86_64-scalar', 'x86_64-simd'],
    );
    for (const list of Object.values(outcomes)) expect(list.length).toBe(cases.length);
    // The batch must exercise both outcomes, and errors of every kind.
    const codes = new Set(outcomes['wasm-simd'].map((o) => o.code));
    expect([...codes].sort()).toEqual(['LENGTH', 'NOT_ARRAY', 'OK', 'RANGE', 'TRUNCATED', 'TYPE']);
  });

  test.each(cases.map((c, i) => [c.name, i]))('%s', (_, i) => {
    const { expected } = cases[i];
    const reference = comparable(outcomes['wasm-simd'][i], cases[i], false);
    for (const [name, list] of Object.entries(outcomes)) {
      const native = !JS_PATHS.some(([path]) => path === name);
      expect({ build: name, ...comparable(list[i], cases[i], native) }).toEqual({ build: name, ...reference });
    }
    if (expected) {
      expect(reference.code).toBe('OK');
      expect(Buffer.from(outcomes['wasm-simd'][i].data).equals(expected)).toBe(true);
    }
  });
});
