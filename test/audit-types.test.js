// audit-types.test.js - the TypeScript declarations (js/index.d.ts) against
// what the code does. Findings, each a test that fails on 7b94542:
//   1. `class X extends Encoder` (or Decoder) type-checks, as the declarations
//      make them classes, but js/codec/bind.js made every instance a base
//      Encoder: X's methods were missing (`new X().m()`: TypeError) and
//      `new X() instanceof X` false. (And the codec's clone() called
//      `new this.constructor(config, ...)`, which is a subclass's own
//      constructor with arguments it does not take.)
//   2. `encode(x, { extensionCodec })` with an `ExtensionCodec<Ctx>` and no
//      `context` type-checked: the extensions, typed to get a Ctx, get
//      undefined. @msgpack/msgpack's types require `context` there.
//   3. An array shape of other than one element (`[]`, `[A, B]`) type-checked,
//      typed as an array of either; js/codec/shape.js refuses it at once
//      (TypeError "an array shape is [S] with one element").
// The type-level ones are probes compiled by the repo's TypeScript (--strict,
// skipLibCheck false): every @ts-expect-error must find its error, and every
// line without one must compile.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { Decoder, Encoder, ExtensionCodec, createFastmpSync, decode, encode, mapOf } from '../js/node.js';
import { tscProject, tscReport } from './helpers.js';

// ---- the probes, compiled once ----------------------------------------------------------------

const PROBES = {
  'context.ts': `import { Decoder, Encoder, ExtensionCodec, decode, decodeMultiStream, encode, type DecoderOptions, type EncoderOptions } from 'fastmp-wasm';
import { ExtensionCodec as TheirCodec } from '@msgpack/msgpack';
interface Units { scale: number }
const units = new ExtensionCodec<Units>();
units.register({ type: 1, encode: (value, context) => (typeof value === 'number' ? Uint8Array.of(value * context.scale) : null) });
// @ts-expect-error: the extensions get a Units: the context is required
encode(1, { extensionCodec: units });
// @ts-expect-error: the same for decode()
decode(new Uint8Array(1), { extensionCodec: units });
// @ts-expect-error: and for the classes
new Encoder({ extensionCodec: units });
// @ts-expect-error: and for a shaped Decoder
new Decoder({ extensionCodec: units, shape: Float32Array });
// @ts-expect-error: and for the streams
decodeMultiStream((async function* () {})(), { extensionCodec: units });
// @ts-expect-error: @msgpack/msgpack's codec of a context, the same
encode(1, { extensionCodec: new TheirCodec<Units>() });
// @ts-expect-error: an options type of a context needs one
export const needs: DecoderOptions<Units> = { maxDepth: 1 };
// @ts-expect-error: the context is the codec's
encode(1, { extensionCodec: units, context: { scale: '2' } });
export const given: Uint8Array = encode(1, { extensionCodec: units, context: { scale: 2 } });
export const shaped: Float32Array | undefined = new Decoder({ extensionCodec: units, context: { scale: 1 }, shape: { v: Float32Array } }).decode(given).v;
export const theirs: Uint8Array = encode(1, { extensionCodec: new TheirCodec() }) ?? encode(1, { extensionCodec: new TheirCodec<Units>(), context: { scale: 1 } });
export const maybe: Uint8Array = encode(1, { extensionCodec: new ExtensionCodec<Units | undefined>() });
export const plain: EncoderOptions = { sortKeys: true };
export const anyContext: Uint8Array = encode(1, { context: 5 });
`,
  'shapes.ts': `import { Decoder, decode, decodeArrayStream, mapOf, optional, type Shape } from 'fastmp-wasm';
const bytes = new Uint8Array(1);
// @ts-expect-error: an array shape has one element, not none
decode(bytes, { shape: [] });
// @ts-expect-error: nor two
decode(bytes, { shape: [Float32Array, Int8Array] });
// @ts-expect-error: in a field
decode(bytes, { shape: { v: [] } });
// @ts-expect-error: in an optional field
decode(bytes, { shape: { v: optional([Int8Array, Int8Array]) } });
// @ts-expect-error: in mapOf()
new Decoder({ shape: mapOf([]) });
// @ts-expect-error: deep in a stream's shape
decodeArrayStream((async function* () {})(), { shape: [{ a: [{ b: [] }] }] });
const TWO = [Float32Array, Int8Array] as const;
// @ts-expect-error: a const tuple of two
decode(bytes, { shape: TWO });
// One element, array types (a shape kept in a const) and the general type Shape still compile, typed as before.
const FRAME = { t: Float64Array, tags: mapOf(Int16Array) };
const BATCH = { frames: [FRAME], extra: optional([Int32Array]) };
const batch = new Decoder({ shape: BATCH }).decode(bytes);
export const t: Float64Array = batch.frames[0].t;
export const tag: Int16Array | undefined = batch.frames[0].tags.any;
export const extra: Int32Array[] | null | undefined = batch.extra;
export const one: Float32Array[] = decode(bytes, { shape: [Float32Array] });
export const nested: Int8Array | undefined = decode(bytes, { shape: { a: [{ b: [Int8Array] }] } }).a[0].b[0];
const list: Float32ArrayConstructor[] = [Float32Array];
export const fromList: Float32Array[] = decode(bytes, { shape: list });
declare const some: Shape;
export const opaque: unknown = decode(bytes, { shape: some }) ?? new Decoder({ shape: some }).decode(bytes);
`,
  'subclass.ts': `import { Decoder, Encoder } from 'fastmp-wasm';
// The declarations make Encoder and Decoder classes: a subclass type-checks (test 1 runs it).
class Framed extends Encoder { frame(value: unknown): Uint8Array { return this.encode([value]); } }
class Depth extends Decoder { constructor(depth: number) { super({ maxDepth: depth }); } }
export const framed: Uint8Array = new Framed().frame(1);
export const depth: Decoder = new Depth(2);
`,
};

let work;
/** tsc's report on the probes, by file ('' for each that compiles). */
let report;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'fastmp-audit-types-'));
  tscProject(work, PROBES, ['@msgpack']);
  report = await tscReport(work, PROBES);
}, 180_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

// ---- 1: subclasses of Encoder and Decoder --------------------------------------------------------

describe('1: a subclass of Encoder or Decoder (the declarations make them classes) has its own methods', () => {
  test('it type-checks', () => {
    expect(report['subclass.ts']).toBe('');
  });

  test.each([['the module\'s classes', { Encoder, Decoder }], ['an instance\'s', createFastmpSync()]])('%s: instanceof, methods, and calls made during a call', async (_, { Encoder: E, Decoder: D }) => {
    class Framed extends E {
      frame(value) {
        return this.encode([value]);
      }
    }
    const framed = new Framed({ sortKeys: true });
    expect(framed).toBeInstanceOf(Framed);
    expect(framed).toBeInstanceOf(E);
    expect(typeof framed.frame).toBe('function');
    expect([...framed.frame({ b: 1, a: 2 })]).toEqual([0x91, 0x82, 0xa1, 0x61, 2, 0xa1, 0x62, 1]);

    // A constructor of its own arguments: the codec's own copies (a call made during a call, a stream) are not made by it.
    class Depth extends D {
      constructor(depth) {
        super({ maxDepth: depth });
        this.depth = depth;
      }
    }
    const decoder = new Depth(2);
    expect(decoder).toBeInstanceOf(Depth);
    expect(decoder.depth).toBe(2);
    expect(decoder.decode(Uint8Array.of(0x91, 1))).toEqual([1]);
    expect(() => decoder.decode(Uint8Array.of(0x91, 0x91, 1))).toThrow(expect.objectContaining({ code: 'DEPTH' }));
    async function* chunks() {
      yield Uint8Array.of(0x91, 1, 2);
    }
    const streamed = [];
    for await (const value of decoder.decodeStream(chunks())) streamed.push(value);
    expect(streamed).toEqual([[1], 2]);
    // An extension that decodes with the same Decoder during its decode (a call made during a call).
    const codec = new ExtensionCodec();
    codec.register({ type: 1, decode: (data) => inner.decode(data) });
    class Inner extends D {
      constructor(tag) {
        super({ extensionCodec: codec });
        this.tag = tag;
      }
    }
    const inner = new Inner('x');
    expect(inner.decode(Uint8Array.of(0xd4, 1, 7))).toBe(7);
  });
});

// ---- 2: the context of an ExtensionCodec<Ctx> --------------------------------------------------

test('2: an ExtensionCodec<Ctx> needs the `context` option (without it the extensions, typed to get a Ctx, get undefined)', () => {
  const seen = [];
  const codec = new ExtensionCodec();
  codec.register({ type: 1, encode: (value, context) => (seen.push(context), null), decode: () => null });
  encode({ a: 1 }, { extensionCodec: codec });
  expect(seen.length).toBeGreaterThan(0);
  expect(seen[0]).toBeUndefined(); // what the declarations' `context: Ctx` was without the option
  expect(report['context.ts']).toBe('');
});

// ---- 3: array shapes of one element ------------------------------------------------------------

test('3: an array shape of none or several elements, which the decoder refuses at once, does not type-check', () => {
  const bytes = encode([[1]]);
  for (const shape of [[], [Float32Array, Int8Array], { v: [] }, mapOf([])]) {
    expect(() => decode(bytes, { shape })).toThrow(/an array shape is \[S\] with one element/);
  }
  expect(report['shapes.ts']).toBe('');
});
