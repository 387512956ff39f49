// audit-promises.test.js - an audit of what the package promises (the
// declarations, README.md and docs/) against what it does. Each test states
// a promise, where it is made, and fails on c449a78, where the code (or the
// page) says otherwise. The type-level findings that need tsc are cases of
// test/types (consumer.ts: the codes alloc() throws; consumer-float16.*:
// the CommonJS TypedArrayOf); the one here reads the declarations with the
// TypeScript parser.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, test } from 'vitest';
import { catchError } from './messages-helpers.js';
import { Decoder, Encoder, FastmpError, createFastmpSync, decode, decodeArrayStream, decodeMultiStream, encode } from '../js/node.js';
import { ROOT } from './helpers.js';

/** An async iterable of the chunks given. */
async function* chunks(...parts) {
  for (const part of parts) yield part;
}

/** The error an async iteration of `iterable` ends with (undefined when none). */
async function iterationError(iterable) {
  try {
    for await (const _ of iterable); // eslint-disable-line no-unused-vars
  } catch (e) {
    return e;
  }
  return undefined;
}

describe('1: docs/messages.md "Differences" 10 says what two encodeSharedRef() outputs in a row do', () => {
  // It said: "An encodeSharedRef() output stays intact through the encoder's next call (which may
  // read it), so two outputs in a row lie apart and the first still reads as it did, where
  // @msgpack/msgpack writes the second over the first." The second output is written into the
  // same bytes (js/codec/encoder-outputs.js SharedOutput.write(): one buffer per Encoder), so
  // the first reads as the second once that call ends. The page and the code must agree.
  const claimsApart = /two outputs in a row lie apart/.test(readFileSync(join(ROOT, 'docs/messages.md'), 'utf8'));

  test('the first output after the second call: unchanged where the page says they lie apart', () => {
    const encoder = new Encoder();
    const first = encoder.encodeSharedRef({ a: 1 });
    const copy = first.slice();
    const second = encoder.encodeSharedRef({ b: 2 });
    expect(Array.from(second)).toEqual(Array.from(encode({ b: 2 })));
    const unchanged = first.every((byte, i) => byte === copy[i]);
    const apart = first.buffer !== second.buffer
      || first.byteOffset + first.byteLength <= second.byteOffset || second.byteOffset + second.byteLength <= first.byteOffset;
    expect({ unchanged, apart }).toEqual({ unchanged: claimsApart, apart: claimsApart });
  });
});

describe('2: misuse names the function called (docs/errors.md "Misuse is the engine\'s kind of error, naming the function")', () => {
  // A chunk that is not bytes: js/codec/stream.js chunkOf() and take() name 'decodeAsync'
  // whichever stream function read it.
  // (Decoder#decodeStream() is decodeMultiStream(): either name is the function's.)
  test.each([
    ['decodeArrayStream()', (source) => decodeArrayStream(source), ['decodeArrayStream()']],
    ['decodeMultiStream()', (source) => decodeMultiStream(source), ['decodeMultiStream()']],
    ['Decoder#decodeArrayStream()', (source) => new Decoder().decodeArrayStream(source), ['decodeArrayStream()']],
    ['Decoder#decodeStream()', (source) => new Decoder().decodeStream(source), ['decodeStream()', 'decodeMultiStream()']],
  ])('a string chunk given to %s', async (_, call, names) => {
    const err = await iterationError(call(chunks('not bytes')));
    expect(err).toBeInstanceOf(TypeError);
    expect(err.message).not.toContain('decodeAsync()');
    expect(names.some((name) => err.message.includes(name)), err.message).toBe(true);
  });
});

test('3: a stream error says where it is in the stream (errors.md "streamOffset: in streams"): decodeArrayStream() of an empty stream', async () => {
  // decodeAsync() of an empty stream carries streamOffset 0; decodeArrayStream()'s TRUNCATED
  // ("the stream ended before an array", js/codec/stream.js valuesOf()) is thrown without it.
  const err = await iterationError(decodeArrayStream(chunks()));
  expect(err).toBeInstanceOf(FastmpError);
  expect(err.code).toBe('TRUNCATED');
  expect(err.streamOffset).toBe(0);
});

describe('4: decode counts maxDepth as encode does (messages.md "Differences" 2; index.d.ts: "the top value being depth 1")', () => {
  // encode() refuses a top value at maxDepth 0 (depth 1 is beyond 0); decode() reads it, and
  // reads an empty map or array there (js/codec/decoder.js checkArrayLimits() / checkMap()
  // check only non-empty containers), so the two disagree on what maxDepth 0 allows.
  const outcome = (fn) => {
    try {
      fn();
      return 'accepted';
    } catch (e) {
      return e.code ?? e.constructor.name;
    }
  };
  test.each([['a number', 1], ['an empty map', {}], ['an empty array', []]])('maxDepth 0, %s: encode and decode agree', (_, value) => {
    const bytes = encode(value);
    expect(outcome(() => decode(bytes, { maxDepth: 0 }))).toBe(outcome(() => encode(value, { maxDepth: 0 })));
  });

  // errors.md's DEPTH row said `offset` is "the value" (the one nested too deep): encode names
  // it ($[0][0], depth 3); decode names its parent ($[0], at byte 1: js/codec/decoder.js
  // checkArrayLimits() / checkMap() check a container's elements), while saying "depth 3".
  test('the error points where docs/errors.md says', () => {
    const row = readFileSync(join(ROOT, 'docs/errors.md'), 'utf8').split('\n').find((line) => line.startsWith('| `DEPTH`'));
    const saysParent = /decode: the array or map/.test(row);
    const value = [[[1]]];
    expect(catchError(() => encode(value, { maxDepth: 2 })).path).toBe('$[0][0]');
    const err = catchError(() => decode(encode(value), { maxDepth: 2 }));
    expect(err.code).toBe('DEPTH');
    expect([err.path, err.offset]).toEqual(saysParent ? ['$[0]', 1] : ['$[0][0]', 2]);
  });
});

test('5: FastmpErrorCode (js/index.d.ts) names every code fastmp throws: NO_WASM and NOT_READY too', () => {
  // js/io.js kernelsOf() throws NO_WASM (alloc() on backend 'js') and NOT_READY (before the
  // pack kernels load); docs/errors.md lists both; the declarations' union has neither, so
  // `e.code === 'NO_WASM'` is TS2367 in a consumer (test/types/consumer.ts zeroCopyOrNull()).
  const file = join(ROOT, 'js/index.d.ts');
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const aliases = new Map();
  for (const node of source.statements) if (ts.isTypeAliasDeclaration(node)) aliases.set(node.name.text, node.type);
  const codes = new Set();
  const collect = (type) => {
    if (ts.isUnionTypeNode(type)) type.types.forEach(collect);
    else if (ts.isLiteralTypeNode(type) && ts.isStringLiteral(type.literal)) codes.add(type.literal.text);
    else if (ts.isTypeReferenceNode(type) && aliases.has(type.typeName.getText(source))) collect(aliases.get(type.typeName.getText(source)));
  };
  collect(aliases.get('FastmpErrorCode'));
  expect(codes.has('STALE')).toBe(true); // (the parse found the union)
  const thrown = catchError(() => createFastmpSync({ backend: 'js' }).alloc(Float32Array, 4));
  expect(thrown).toBeInstanceOf(FastmpError);
  expect(thrown.code).toBe('NO_WASM');
  expect(['NO_WASM', 'NOT_READY'].filter((code) => !codes.has(code))).toEqual([]);
});

test('6: pureJs \'always\' does what docs/typed-arrays.md "Instances" says', () => {
  // The page said "'always' (no wasm at all, e.g. where WebAssembly is disabled)" (and
  // index.d.ts "'always': never wasm"). With WebAssembly available, such an instance reports
  // backend() 'simd', makes a wasm memory and loads the pack module for alloc() / packView():
  // only the size crossovers change (js/io.js opLimits()).
  const page = readFileSync(join(ROOT, 'docs/typed-arrays.md'), 'utf8');
  const claimsNoWasm = /`'always'` \(no wasm at all/.test(page);
  const instance = createFastmpSync({ pureJs: 'always' });
  let code = 'none';
  try {
    instance.alloc(Float32Array, 2);
  } catch (e) {
    code = e.code;
  }
  expect(code === 'NO_WASM').toBe(claimsNoWasm);
});
