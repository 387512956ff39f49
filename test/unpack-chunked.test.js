// Chunked unpack (js/io.js unpackChunked): a long input from outside wasm
// memory is decoded a chunk at a time, the kernel told FM_ELEMENTS_ONLY, and
// the element a chunk cuts begins the next chunk. With chunks lowered to a few
// bytes, every element of these inputs is cut somewhere: each decode must give
// what the same build gives on the whole input and what the pure-JS path
// gives, value for value or error for error (code, index, offset, message).
import { afterEach, describe, expect, test } from 'vitest';
import { createFastmpSync } from '../js/index.js';
import { UNPACK_CHUNK } from '../js/io.js';
import { C_KINDS, encodeElements, randomElements, rng } from './helpers.js';

const DEFAULT = { ...UNPACK_CHUNK };
afterEach(() => Object.assign(UNPACK_CHUNK, DEFAULT));

const WHOLE = { bytes: DEFAULT.bytes, from: Infinity };
// Chunks from the smallest allowed (one byte more than the longest element) up.
const CHUNKS = [10, 11, 12, 16, 17, 23, 64, 100];

const BUILDS = ['simd', 'scalar'].map((backend) => [backend, createFastmpSync({ backend, pureJs: 'never' })]);
const pureJs = createFastmpSync({ backend: 'js' });

/** What one call gives: the value's bytes (and end), or the error's facts. */
function outcome(call) {
  try {
    const r = call();
    const value = r.value ?? r;
    return { bytes: Array.from(new Uint8Array(value.buffer, value.byteOffset, value.byteLength)), end: r.end };
  } catch (e) {
    return { error: e.constructor.name, code: e.code, index: e.index, offset: e.offset, message: e.message };
  }
}

/** The inputs: valid arrays of every mix, and the same with a bad byte, a cut, or a header claiming more. */
function inputs(seed) {
  const r = rng(seed);
  const out = [];
  for (const mix of ['mixed', 'runs', 'f32', 'f64', 'fixint']) {
    const n = 40 + r.int(300);
    const good = encodeElements(randomElements(n, seed + n, mix));
    out.push([`${mix} ${n}`, good]);
    const bad = Uint8Array.from(good);
    const at = 1 + r.int(good.length - 1);
    bad[at] = 0xc1; // never used: a TYPE error when it lands on a tag, else a changed payload
    out.push([`${mix} ${n}, 0xc1 at byte ${at}`, bad]);
    const cut = 1 + r.int(good.length - 1);
    out.push([`${mix} ${n} cut at ${cut}`, good.subarray(0, cut)]);
  }
  const bools = Uint8Array.from({ length: 200 }, () => 0xc2 + r.int(2));
  out.push(['booleans 197', Uint8Array.from([0xdc, 0, 197, ...bools.subarray(0, 197)])]);
  out.push(['booleans, one short', Uint8Array.from([0xdc, 0, 198, ...bools.subarray(0, 197)])]);
  return out;
}

/** Every decode of `bytes` one instance offers for a kind: unpack, unpackFrom at an offset, integralFloats. */
function decodes(fm, c, bytes) {
  const shifted = new Uint8Array(bytes.length + 7);
  shifted.set(bytes, 7);
  if (c === 'bool') return [() => fm.unpackBool(bytes), () => fm.unpackBoolFrom(shifted, 7)];
  const { Type } = C_KINDS.find((k) => k.c === c);
  return [
    () => fm.unpack(bytes, Type),
    () => fm.unpackFrom(shifted, Type, 7),
    () => fm.unpack(bytes, Type, { integralFloats: true }),
  ];
}

describe.each(BUILDS)('chunked unpack, %s build', (_, fm) => {
  test.each(C_KINDS.map((k) => k.c))('%s: every chunk size decodes as the whole input does', (c) => {
    let errors = 0;
    for (const [name, bytes] of inputs(c.length * 7 + c.charCodeAt(0))) {
      const forms = decodes(fm, c, bytes);
      const reference = decodes(pureJs, c, bytes).map(outcome);
      Object.assign(UNPACK_CHUNK, WHOLE);
      expect(forms.map(outcome), `${name}: whole vs pure JS`).toEqual(reference);
      for (const chunk of CHUNKS) {
        Object.assign(UNPACK_CHUNK, { bytes: chunk, from: 0 });
        expect(forms.map(outcome), `${name}: chunks of ${chunk} bytes`).toEqual(reference);
      }
      errors += reference.filter((o) => o.error).length;
    }
    expect(errors).toBeGreaterThan(0); // the bad inputs were refused, at the same place everywhere
  });
});

test('a long input is decoded a chunk at a time: scratch holds a chunk, not the input', () => {
  const fm = createFastmpSync({ backend: 'simd', pureJs: 'never' });
  const x = Float32Array.from({ length: 1 << 20 }, (_, i) => i / 3);
  const bytes = pureJs.pack(x); // (fm.pack() would grow the scratch region itself)
  expect(bytes.length).toBeGreaterThanOrEqual(DEFAULT.from);
  expect(fm.unpack(bytes, Float32Array)).toEqual(x);
  // A chunk and its output: 64 KB and up to 64 K elements of 4 bytes, to a
  // power of two. Whole, the 5 MB input and its 4 MB output would take 16 MB.
  expect(fm.memoryStats().scratch).toBeLessThanOrEqual(DEFAULT.bytes * 8);
});

// The same inputs as the field of a message: a shaped decode reads a long
// field a chunk at a time too (js/wasm/reader.js WasmReader), straight from the input.
/** The message { a: <bytes>, z: 1 } around an array's bytes (a cut array reads into what follows). */
const inMessage = (bytes) => Uint8Array.from([0x82, 0xa1, 0x61, ...bytes, 0xa1, 0x7a, 0x01]);

describe.each(BUILDS)('chunked shaped decode, %s build', (_, fm) => {
  test.each(C_KINDS.map((k) => k.c))('%s: a field decodes in chunks of every size as whole and as pure JS', (c) => {
    const shape = { a: c === 'bool' ? Boolean : C_KINDS.find((k) => k.c === c).Type };
    for (const [name, bytes] of inputs(c.length * 11 + c.charCodeAt(1))) {
      const message = inMessage(bytes);
      const decode = (f) => () => ({ value: f.decode(message, { shape }).a });
      const reference = outcome(decode(pureJs));
      Object.assign(UNPACK_CHUNK, WHOLE);
      expect(outcome(decode(fm)), `${name}: whole vs pure JS`).toEqual(reference);
      for (const chunk of CHUNKS) {
        Object.assign(UNPACK_CHUNK, { bytes: chunk, from: 0 });
        expect(outcome(decode(fm)), `${name}: chunks of ${chunk} bytes`).toEqual(reference);
      }
    }
  });
});

test('a long field of a shaped decode: wasm memory holds a chunk, not the message', () => {
  const fm = createFastmpSync({ backend: 'simd', pureJs: 'never' });
  const x = Float32Array.from({ length: 1 << 20 }, (_, i) => i / 7);
  const small = Int16Array.from({ length: 500 }, (_, i) => i - 250);
  // Small fields before and after it: the region copy of the first must not take the long one along.
  const message = pureJs.encode({ small, x, after: small });
  const before = fm.memoryStats().wasmMemory;
  const back = fm.decode(message, { shape: { small: Int16Array, x: Float32Array, after: Int16Array } });
  expect([back.x.length, back.x[12345], back.small[3], back.after[499]]).toEqual([x.length, x[12345], -247, 249]);
  expect(Buffer.from(back.x.buffer).equals(Buffer.from(x.buffer))).toBe(true);
  // The 5 MB message whole (and the 4 MB output) would grow memory by more than 9 MB.
  expect(fm.memoryStats().wasmMemory - before).toBeLessThanOrEqual(4 << 20);
});
