// Float16Array (issue 14, item 3). The test runner's Node (20) has no
// Float16Array, and nothing here fakes one: on such an engine these tests
// check that the Float16 paths stay out of the way (the API names no
// Float16Array, a missing constructor is refused as any other non-type), and
// check the one piece that needs no Float16Array, the exact widening of
// float16 bits to float32. Where the engine has Float16Array (Node >= 24 runs
// this file too) the whole behaviour is checked here; test/engines/behaviour.js
// checks it on Node 24, Bun, Chromium and Firefox (npm run test:engines).
// The declarations are type-checked against TypeScript's lib esnext, which
// declares Float16Array, whatever the engine.

import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, test } from 'vitest';
import { HALF, halfTarget, isHalf, widenHalfBits } from '../js/codec/typed.js';
import { createFastmpSync } from '../js/index.js';
import { ROOT, rng } from './helpers.js';

const Float16 = globalThis.Float16Array;
const HAS_FLOAT16 = typeof Float16 === 'function';

const INSTANCES = [
  ['default', createFastmpSync()],
  ['scalar, wasm only', createFastmpSync({ backend: 'scalar', pureJs: 'never' })],
  ['pure JS', createFastmpSync({ pureJs: 'always' })],
];
const fm = INSTANCES[0][1];

const hex = (b) => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('hex');
const bitsOf = (x) => new Uint16Array(x.buffer, x.byteOffset, x.length);

/** The value of float16 bits h, by the IEEE 754 binary16 definition (NaN: NaN). */
function halfValue(h) {
  const sign = h & 0x8000 ? -1 : 1;
  const e = (h >> 10) & 0x1f;
  const f = h & 0x3ff;
  if (e === 0x1f) return f === 0 ? sign * Infinity : NaN;
  return e === 0 ? sign * f * 2 ** -24 : sign * (1 + f / 1024) * 2 ** (e - 15);
}

describe('widening float16 bits to float32 (no Float16Array needed)', () => {
  test('every one of the 65536 float16 values widens exactly; NaNs keep sign, quiet bit and payload', () => {
    const all = Uint16Array.from({ length: 65536 }, (_, i) => i);
    const wide = widenHalfBits(all);
    const words = new Uint32Array(wide.buffer);
    for (let h = 0; h < 65536; h++) {
      const want = halfValue(h);
      if (Number.isNaN(want)) {
        expect(words[h] >>> 0, `0x${h.toString(16)}`).toBe((((h & 0x8000) << 16) | 0x7f800000 | ((h & 0x3ff) << 13)) >>> 0);
      } else if (!Object.is(wide[h], want)) {
        expect(wide[h], `0x${h.toString(16)}`).toBe(want);
      }
    }
  });
});

describe.skipIf(HAS_FLOAT16)('an engine without Float16Array', () => {
  test('nothing resolves to Float16: the marker has no constructor, a missing global is no type', () => {
    expect(HALF.Type).toBeUndefined();
    expect(halfTarget(undefined)).toBeUndefined();
    expect(halfTarget(Float32Array)).toBeUndefined();
    expect(isHalf(new Uint16Array(2))).toBe(false);
  });

  test('errors name the types there are, and refuse an undefined Float16Array as any non-type', () => {
    const message = (fn) => {
      try {
        fn();
      } catch (e) {
        return `${e.name}: ${e.message}`;
      }
      return 'no error';
    };
    expect(message(() => fm.pack([1]))).toMatch(/^TypeError: fastmp: pack\(\) takes a Float32Array, .*BigUint64Array, not an Array$/);
    expect(message(() => fm.pack([1]))).not.toMatch(/Float16/);
    expect(message(() => fm.unpack(fm.pack(new Float32Array(1)), Float16))).toMatch(/^TypeError: .*BigUint64Array; the second argument was undefined$/);
    expect(message(() => fm.unpackFrom(fm.pack(new Float32Array(1)), Float16))).toMatch(/^TypeError/);
    expect(message(() => fm.alloc(Float16, 1))).toMatch(/^TypeError: .* not undefined$/);
    expect(message(() => fm.decode(fm.encode({ h: [1] }), { shape: { h: Float16 } }))).toMatch(/^TypeError: fastmp: shape at \$\.h: .* not undefined/);
  });

  test('the typed arrays there are encode and decode as before (a Uint16Array is ints, a DataView a bin)', () => {
    const u16 = new Uint16Array([1, 0x3c00, 65535]);
    expect(hex(fm.pack(u16))).toBe('9301cd3c00cdffff');
    expect(hex(fm.encode({ u: u16 }))).toBe('81a1759301cd3c00cdffff');
    expect(hex(fm.encode(new DataView(u16.buffer)))).toBe('c4060100003cffff');
    expect(fm.decode(fm.encode({ u: u16 }), { shape: { u: Uint16Array } }).u).toEqual(u16);
  });
});

describe.runIf(HAS_FLOAT16)('Float16Array (this engine has one)', () => {
  const VALUES = [1.5, -2, 65504, -0, Infinity, NaN, 6.1e-5, 0.1];

  test('pack / packView write float32 elements: the bytes of a Float32Array of the same values', () => {
    const h = new Float16(VALUES);
    const want = hex(fm.pack(Float32Array.from(h)));
    expect(want).toBe('98ca3fc00000cac0000000ca477fe000ca80000000ca7f800000ca7fc00000ca387fc000ca3dccc000');
    for (const [label, api] of INSTANCES) {
      expect(hex(api.pack(h)), label).toBe(want);
      expect(hex(api.packView(h)), label).toBe(want);
      expect(hex(api.pack(h.subarray(2, 4))), label).toBe('92ca477fe000ca80000000');
    }
  });

  test('all 65536 float16 values: pack writes the exact widening; unpack brings them back (signalling NaNs quieted)', () => {
    const bits = Uint16Array.from({ length: 65536 }, (_, i) => i);
    const h = new Float16(bits.buffer);
    const want = fm.pack(widenHalfBits(bits));
    for (const [label, api] of INSTANCES) {
      const packed = api.pack(h);
      expect(Buffer.compare(packed, want), label).toBe(0);
      const back = bitsOf(api.unpack(packed, Float16));
      for (let i = 0; i < 65536; i++) {
        const nan = (i & 0x7c00) === 0x7c00 && (i & 0x3ff) !== 0;
        if (back[i] !== (nan ? i | 0x200 : i)) expect(back[i].toString(16), `${label} 0x${i.toString(16)}`).toBe((nan ? i | 0x200 : i).toString(16));
      }
    }
  });

  test('unpack rounds each float once to float16, as Math.f16round does (float64, float32 and int elements)', () => {
    const r = rng(16);
    const doubles = Float64Array.from({ length: 5000 }, (_, i) => {
      const m = (r() / 2 ** 32) * 2 - 1;
      return i % 3 === 0 ? m * 2 ** ((i % 40) - 26) : m * 70000;
    });
    doubles.set([0.1, 65519.99, 65520, -65520, 2 ** -25, 2 ** -25 + 2 ** -60, 1 + 2 ** -11, 1 + 3 * 2 ** -11, 5e-324, -0]);
    const singles = Float32Array.from(doubles);
    const ints = Int32Array.from(doubles, (d) => Math.trunc(d));
    for (const [label, api] of INSTANCES) {
      for (const [what, x] of [['float64', doubles], ['float32', singles], ['int', ints]]) {
        const got = api.unpack(api.pack(x), Float16);
        expect(got).toBeInstanceOf(Float16);
        for (let i = 0; i < x.length; i++) {
          if (!Object.is(got[i], Math.f16round(x[i]))) expect(got[i], `${label} ${what}[${i}] ${x[i]}`).toBe(Math.f16round(x[i]));
        }
      }
      const { value, end } = api.unpackFrom(Uint8Array.of(0xff, 0x91, 0xcb, ...new Uint8Array(new Float64Array([0.1]).buffer).reverse(), 0xc0), Float16, 1);
      expect([value[0], end], label).toEqual([Math.f16round(0.1), 11]);
    }
  });

  test('a NaN read into a Float16Array: its sign and top 10 payload bits, quiet', () => {
    const f32 = new Float32Array(new Uint32Array([0xffa5a5a5, 0x7f800001, 0x7fc00000]).buffer);
    const f64 = new Float64Array(new Uint32Array([0, 0xfff4a5a5, 1, 0x7ff00000]).buffer);
    for (const [label, api] of INSTANCES) {
      expect(Array.from(bitsOf(api.unpack(api.pack(f32), Float16)), (b) => b.toString(16)), label).toEqual(['ff2d', '7e00', '7e00']);
      expect(Array.from(bitsOf(api.unpack(api.pack(f64), Float16)), (b) => b.toString(16)), label).toEqual(['ff29', '7e00']);
    }
  });

  test('alloc(Float16Array) is a TypeError; a detached Float16Array is DETACHED', () => {
    expect(() => fm.alloc(Float16, 4)).toThrow(/alloc\(\) makes a .*, not a Float16Array \(no kernel reads float16/);
    const h = new Float16(4);
    structuredClone(h.buffer, { transfer: [h.buffer] });
    expect(() => fm.pack(h)).toThrow(expect.objectContaining({ code: 'DETACHED' }));
    expect(() => fm.encode({ h })).toThrow(expect.objectContaining({ code: 'DETACHED' }));
  });

  test("messages: 'array' and 'ext' write a Float32Array of the values, 'bin' the raw bytes; the shape reads all three back", () => {
    const h = new Float16(VALUES);
    const f32 = Float32Array.from(h);
    for (const [label, api] of INSTANCES) {
      for (const typedArrays of ['array', 'ext']) {
        expect(hex(api.encode({ h }, { typedArrays })), `${label} ${typedArrays}`).toBe(hex(api.encode({ h: f32 }, { typedArrays })));
      }
      expect(hex(api.encode({ h }, { typedArrays: 'bin' })), label).toBe(`81a168c410${hex(h)}`);
      for (const typedArrays of ['array', 'ext', 'bin']) {
        const got = api.decode(api.encode({ h, n: 1 }, { typedArrays }), { shape: { h: Float16 } });
        expect(got.h, `${label} ${typedArrays}`).toBeInstanceOf(Float16);
        expect(hex(got.h), `${label} ${typedArrays}`).toBe(hex(h));
        expect(got.n).toBe(1);
      }
      // float64 elements round once; a Float64Array ext too; an odd bin is a TYPE error.
      const d = api.decode(api.encode({ h: new Float64Array([0.1, 65520]) }), { shape: { h: Float16 } }).h;
      expect([...d], label).toEqual([Math.f16round(0.1), Infinity]);
      const e = api.decode(api.encode({ h: new Float64Array([0.1]) }, { typedArrays: 'ext' }), { shape: { h: Float16 } }).h;
      expect([...e], label).toEqual([Math.f16round(0.1)]);
      expect(() => api.decode(api.encode({ h: new Uint8Array(3) }), { shape: { h: Float16 } })).toThrow(expect.objectContaining({ code: 'TYPE', path: '$.h' }));
      expect(() => api.decode(api.encode({ h: new Int16Array(1) }, { typedArrays: 'ext' }), { shape: { h: Float16 } }))
        .toThrow(/typed-array ext of Float32Array or Float64Array/);
    }
  });
});

describe('declarations: Float16Array under TypeScript lib esnext', () => {
  const work = mkdtempSync(join(tmpdir(), 'fastmp-f16-types-'));
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  test('pack / unpack / unpackFrom / decode by shape type Float16Array; alloc does not take it', async () => {
    const index = join(ROOT, 'js/index.js');
    writeFileSync(join(work, 'consumer.ts'), `
import { alloc, decode, pack, packView, unpack, unpackFrom, type DecodedBy, type TypedArrayOf } from ${JSON.stringify(index)};
const h = new Float16Array([1, 2]);
const bytes: Uint8Array = pack(h);
void packView(h.subarray(1));
const back: Float16Array<ArrayBuffer> = unpack(bytes, Float16Array);
const { value }: { value: Float16Array } = unpackFrom(bytes, Float16Array, 0);
const f32: Float32Array<ArrayBuffer> = unpack(bytes, Float32Array);
const d = decode(bytes, { shape: { h: Float16Array, f: Float32Array } });
const dh: Float16Array | undefined = d.h;
const df: Float32Array | undefined = d.f;
const t: TypedArrayOf<Float16ArrayConstructor> = new Float16Array(2);
const s: DecodedBy<[Float16ArrayConstructor]> = [new Float16Array(1)];
// @ts-expect-error alloc() makes no Float16Array
alloc(Float16Array, 3);
// @ts-expect-error unpack(bytes, Float16Array) is not a Float32Array
const wrong: Float32Array = unpack(bytes, Float16Array);
void [back, value, f32, dh, df, t, s, wrong];
`);
    writeFileSync(join(work, 'tsconfig.json'), JSON.stringify({
      compilerOptions: {
        strict: true, noEmit: true, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022',
        lib: ['esnext', 'dom'], types: [], skipLibCheck: false,
      },
      files: ['consumer.ts'],
    }));
    const tsc = join(ROOT, 'node_modules/typescript/bin/tsc');
    const report = await promisify(execFile)(process.execPath, [tsc, '-p', work], { encoding: 'utf8' })
      .then(() => '', (e) => `${e.stdout}${e.stderr}`);
    expect(report).toBe('');
  }, 60_000);
});
