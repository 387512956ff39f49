// Parity: the six builds of the same C (wasm SIMD, wasm scalar, x86-64 SIMD
// via SIMDe, x86-64 scalar, aarch64 SIMD via SIMDe -> NEON, aarch64 scalar
// under qemu) and the pure-JS path give identical bytes for pack and identical
// values or identical errors for unpack; valid inputs also match values
// computed independently in helpers.js.
import { beforeAll, describe, expect, test } from 'vitest';
import { FastmpError, init, pack, unpackFrom } from '../js/index.js';
import {
  NATIVE_BUILDS, SIZES, bytesOf, encodeElements, expectedArrayBytes, randomElements, randomF32, randomF64, rng, runNative,
} from './helpers.js';

const MIXES = ['f32', 'f64', 'fixint', 'mixed', 'runs'];

/** Every request of the parity batch, with what the valid ones must decode to. */
function buildCases() {
  const cases = [];
  for (const n of SIZES) {
    cases.push({ name: `pack f32 ${n}`, op: 'packF32', bytes: new Uint8Array(randomF32(n, 10 + n).buffer) });
    cases.push({ name: `pack f64 ${n}`, op: 'packF64', bytes: new Uint8Array(randomF64(n, 20 + n).buffer) });
    for (const mix of MIXES) {
      if (n === 1 << 20 && mix === 'mixed') continue; // 64 K mixed already crosses every block shape
      const elements = randomElements(n, 30 + n + mix.length, mix);
      const bytes = encodeElements(elements);
      for (const wide of [false, true]) {
        cases.push({
          name: `unpack ${mix} ${n} into ${wide ? 'f64' : 'f32'}`,
          op: wide ? 'unpackF64' : 'unpackF32',
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
        cases.push({ name: `type error at ${at} of ${mix} ${n}`, op: k % 2 ? 'unpackF64' : 'unpackF32', bytes: bad });
        const cut = 1 + r.int(good.length - 1);
        cases.push({ name: `truncated at ${cut} of ${mix} ${n}`, op: k % 2 ? 'unpackF32' : 'unpackF64', bytes: good.subarray(0, cut) });
      }
      // A header claiming one element more than there are (within the bytes: truncation or junk).
      const more = encodeElements(elements, n + 1);
      cases.push({ name: `count + 1 of ${mix} ${n}`, op: 'unpackF32', bytes: Uint8Array.from([...more, 0xcb, 0, 0]) });
      // Trailing bytes after a valid array: not an error at this level; `end` says where it stopped.
      cases.push({ name: `trailing after ${mix} ${n}`, op: 'unpackF64', bytes: Uint8Array.from([...good, 0x01, 0xc0]) });
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
        cases.push({ name: `${mix} block, element ${at} tagged 0x${tag.toString(16)}`, op: at % 2 ? 'unpackF32' : 'unpackF64', bytes });
      }
    }
  }
  for (const bytes of [[], [0xdc, 0], [0xdd, 0, 0, 0], [0xdd, 0xff, 0xff, 0xff, 0xff, 1, 2, 3, 4, 5], [0x9f, 1, 2], [0xc0], [0x80], [0xa3, 0x61, 0x62, 0x63]]) {
    for (const op of ['unpackF32', 'unpackF64']) cases.push({ name: `header ${bytes}`, op, bytes: Uint8Array.from(bytes) });
  }
  return cases;
}

/** One outcome in the shape runNative gives, from the public JS API. */
function apiOutcome({ op, bytes }) {
  if (op === 'packF32' || op === 'packF64') {
    const copy = Uint8Array.from(bytes).buffer;
    return { code: 'OK', data: Buffer.from(pack(op === 'packF32' ? new Float32Array(copy) : new Float64Array(copy))) };
  }
  try {
    const { value, end } = unpackFrom(bytes, op === 'unpackF32' ? Float32Array : Float64Array);
    return { code: 'OK', end, data: bytesOf(value) };
  } catch (e) {
    if (!(e instanceof FastmpError)) throw e;
    return { code: e.code, index: e.index, offset: e.offset };
  }
}

/** What must agree between builds. */
function comparable(outcome, op) {
  if (outcome.code !== 'OK') return { code: outcome.code, index: outcome.index, offset: outcome.offset };
  const data = Buffer.from(outcome.data).toString('base64');
  return op.startsWith('pack') ? { code: 'OK', data } : { code: 'OK', end: outcome.end, data };
}

const cases = buildCases();
const outcomes = {};

const JS_PATHS = [
  ['wasm-simd', { backend: 'simd', pureJs: 'never' }],
  ['wasm-scalar', { backend: 'scalar', pureJs: 'never' }],
  ['pure-js', { pureJs: 'always' }],
];

beforeAll(async () => {
  for (const [name, options] of JS_PATHS) {
    await init(options);
    outcomes[name] = cases.map(apiOutcome);
  }
  for (const build of NATIVE_BUILDS) outcomes[build.name] = runNative(build, cases);
});

describe('six builds and the pure-JS path agree', () => {
  test('the batch covers every build', () => {
    expect(Object.keys(outcomes).sort()).toEqual(
      ['aarch64-scalar', 'aarch64-simd', 'pure-js', 'wasm-scalar', 'wasm-simd', 'x86_64-scalar', 'x86_64-simd'],
    );
    for (const list of Object.values(outcomes)) expect(list.length).toBe(cases.length);
    // The batch must exercise both outcomes, and errors of every kind.
    const codes = new Set(outcomes['wasm-simd'].map((o) => o.code));
    expect([...codes].sort()).toEqual(['LENGTH', 'NOT_ARRAY', 'OK', 'TRUNCATED', 'TYPE']);
  });

  test.each(cases.map((c, i) => [c.name, i]))('%s', (_, i) => {
    const { op, expected } = cases[i];
    const reference = comparable(outcomes['wasm-simd'][i], op);
    for (const [name, list] of Object.entries(outcomes)) {
      expect({ build: name, ...comparable(list[i], op) }).toEqual({ build: name, ...reference });
    }
    if (expected) {
      expect(reference.code).toBe('OK');
      expect(Buffer.from(outcomes['wasm-simd'][i].data).equals(expected)).toBe(true);
    }
  });
});
