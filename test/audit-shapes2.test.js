// audit-shapes2.test.js - the second audit of shaped decoding (docs/messages.md
// "Shapes", "Decoding without garbage", "Inputs read from a copy"), after the
// changes since test/audit-shapes.test.js: the copy of a small view from
// offset 0 of wasm memory (Decoder mustCopy(), lifetimes.js isOwned()),
// decodeFrom()'s value scan and copies buffer, the field reader's window.
// 1. Found (failed on e54270b): a stream whose chunk is a small view from
//    offset 0 of wasm memory (which the boundary reads as ordinary memory,
//    docs/typed-arrays.md) was refused STALE at its second value, with no call
//    in between: the chunk was not copied when it arrived (mustCopy() asks
//    isOwned() of shaped decoders only), and the stream reads each value through
//    a view from the value's start, no longer from offset 0. decodeMulti() of
//    such an input, whose loop body made a fastmp call that grew memory, was
//    DETACHED at its next value; shaped, both read a copy. (js/codec/decoder-inputs.js
//    readable(): the input or chunk is copied once when it is such a view.)
// 2. Confirmed, kept as a guard (no other test drives random shapes through
//    these placements): random shapes (nested maps, [S], mapOf(S), optional(S),
//    Boolean, every typed kind) over valid, cut and mutated messages, with tight
//    limits, integralFloats and useBigInt64, decode on every build as pure JS
//    does, value for value and error for error: decode(), a reusing Decoder
//    twice, decodeFrom() at an offset, the input in an alloc() array (whole, and
//    at an offset), in a SharedArrayBuffer read twice by one Decoder (its copies
//    buffer reused), and from streams whose chunks are plain, shared or alloc()
//    arrays.
import { describe, expect, test } from 'vitest';
import { FastmpError, MapOf, Optional, createFastmpSync, mapOf, optional } from '../js/index.js';
import { rng } from './helpers.js';

const WASM_BUILDS = [['simd', { backend: 'simd' }], ['scalar', { backend: 'scalar' }]];

async function collect(iterable) {
  const out = [];
  for await (const v of iterable) out.push(v);
  return out;
}

describe('1: a small view from offset 0 of wasm memory, read by a stream or by decodeMulti(), is copied when it arrives (js/codec/decoder-inputs.js readable())', () => {
  /** An instance that has handed out a view of its memory, and a small view from offset 0 of that memory holding `bytes`. */
  function lowView(options, bytes) {
    const m = createFastmpSync(options);
    const handed = m.alloc(Uint8Array, 16); // (from now on the heap watches its views)
    const view = new Uint8Array(handed.buffer, 0, bytes.length); // (below address 1024: read as ordinary memory)
    view.set(bytes);
    return { m, view };
  }

  test.each(WASM_BUILDS)('%s: decodeMultiStream() and decodeArrayStream(), unshaped as shaped', async (_, options) => {
    const { m, view } = lowView(options, [0x01, 0x02, 0x03]);
    async function* chunk(x) {
      yield x;
    }
    expect(await collect(m.decodeMultiStream(chunk(view)))).toEqual([1, 2, 3]); // (STALE at the second value)
    expect(await collect(m.decodeMultiStream(chunk(view), { maxDepth: 5 }))).toEqual([1, 2, 3]);
    const array = lowView(options, [0x92, 0x91, 0x01, 0x91, 0x02]);
    expect(await collect(array.m.decodeArrayStream(chunk(array.view)))).toEqual([[1], [2]]);
    expect(await collect(array.m.decodeArrayStream(chunk(array.view), { shape: Int8Array }))).toEqual([Int8Array.of(1), Int8Array.of(2)]);
  });

  test.each(WASM_BUILDS)('%s: decodeMulti() whose loop body grows memory', (_, options) => {
    for (const shape of [undefined, { v: Float32Array }]) {
      const { m, view } = lowView(options, [0x81, 0xa1, 0x76, 0x91, 0x01, 0x81, 0xa1, 0x76, 0x91, 0x02]);
      const size = m.memoryStats().wasmMemory;
      const got = [];
      for (const value of m.decodeMulti(view, shape && { shape })) {
        got.push(value);
        m.alloc(Uint8Array, size); // (more than is free: memory grows, which detaches every view of it)
      }
      expect(m.memoryStats().wasmMemory).toBeGreaterThan(size);
      const v = shape ? Float32Array : Array;
      expect(got).toEqual([{ v: v.of(1) }, { v: v.of(2) }]);
    }
  });
});

// ---- 2: random shapes, every build, every placement -------------------------------------------

const BUILDS = [
  ['js', createFastmpSync({ backend: 'js' })],
  ['scalar', createFastmpSync({ backend: 'scalar', pureJs: 'never' })],
  ['simd', createFastmpSync({ backend: 'simd', pureJs: 'never' })],
  ['auto', createFastmpSync({})],
];
const JS = BUILDS[0][1];
const TYPES = [Float32Array, Float64Array, Int8Array, Uint8Array, Uint8ClampedArray, Int16Array, Uint16Array, Int32Array, Uint32Array, BigInt64Array, BigUint64Array, Boolean];
const EXT_CODE = new Map(TYPES.slice(0, 11).map((T) => [T, ['Int8Array', 'Uint8Array', 'Uint8ClampedArray', 'Int16Array', 'Uint16Array', 'Int32Array', 'Uint32Array', 'Float32Array', 'Float64Array', 'BigInt64Array', 'BigUint64Array'].indexOf(T.name)]));

/** A small msgpack writer of its own (not fastmp's encoder): numbers, strings, arrays, maps, and { raw } bytes as they are. */
function writer(r) {
  const header = (out, n, fix, t16) => {
    if (n < 16) out.push(fix | n);
    else out.push(t16, n >> 8, n & 0xff);
  };
  const write = (out, v) => {
    if (v?.raw) out.push(...v.raw);
    else if (v === null) out.push(0xc0);
    else if (typeof v === 'boolean') out.push(v ? 0xc3 : 0xc2);
    else if (typeof v === 'bigint') {
      const b = Buffer.alloc(9);
      b[0] = v < 0n ? 0xd3 : 0xcf;
      if (v < 0n) b.writeBigInt64BE(v, 1);
      else b.writeBigUInt64BE(v, 1);
      out.push(...b);
    } else if (typeof v === 'number') {
      if (Number.isInteger(v) && v >= 0 && v < 128) out.push(v);
      else if (Number.isInteger(v) && v >= -32 && v < 0) out.push(v & 0xff);
      else if (Number.isInteger(v) && v >= -128 && v < 128) out.push(0xd0, v & 0xff);
      else if (Number.isInteger(v) && v >= 0 && v < 65536) out.push(0xcd, v >> 8, v & 0xff);
      else {
        const b = Buffer.alloc(9);
        b[0] = 0xcb;
        b.writeDoubleBE(v, 1);
        out.push(...b);
      }
    } else if (typeof v === 'string') out.push(0xa0 | v.length, ...Buffer.from(v));
    else if (Array.isArray(v)) {
      header(out, v.length, 0x90, 0xdc);
      for (const x of v) write(out, x);
    } else {
      const entries = Object.entries(v);
      header(out, entries.length, 0x80, 0xde);
      for (const [k, x] of entries) {
        write(out, /^\d+$/.test(k) && r.int(2) ? Number(k) : k); // (a number key, as Python and Go clients write it)
        write(out, x);
      }
    }
  };
  return (v) => {
    const out = [];
    write(out, v);
    return Uint8Array.from(out);
  };
}

function randomShape(r, depth = 0) {
  const c = r.int(depth > 2 ? 1 : 5);
  if (c <= 1) return TYPES[r.int(TYPES.length)];
  if (c === 2) return [randomShape(r, depth + 1)];
  if (c === 3) return mapOf(randomShape(r, depth + 1));
  const shape = {};
  for (let i = 1 + r.int(3); i > 0; i--) {
    const s = randomShape(r, depth + 1);
    shape[r.int(4) ? `k${i}` : String(i)] = r.int(4) === 0 ? optional(s) : s;
  }
  return shape;
}

/** A typed field of type T: a numeric (or boolean) array, mostly of what T holds; a bin; or an ext 0x74, now and then of another code or not whole. */
function typedField(r, T) {
  const n = r.int(4) === 0 ? r.int(300) : r.int(20);
  const form = T === Boolean ? 0 : r.int(4);
  const big = T === BigInt64Array || T === BigUint64Array;
  const odd = [1.5, -1, 300, 2 ** 40, true, 2.0000001, { raw: [0xca, 0x3f, 0x80, 0, 0] }, null, 'x'];
  if (form <= 1) {
    return Array.from({ length: n }, () => {
      if (r.int(8) === 0) return odd[r.int(odd.length)];
      if (T === Boolean) return r.int(2) === 1;
      if (T === Float32Array || T === Float64Array) return r.int(1000) / 8;
      return big && r.int(2) ? BigInt(r.int(100)) : r.int(100);
    });
  }
  const size = n * T.BYTES_PER_ELEMENT + (r.int(10) === 0 ? 1 : 0);
  const bytes = Array.from({ length: size }, () => r.int(256));
  if (form === 2) return { raw: [...(size < 256 ? [0xc4, size] : [0xc5, size >> 8, size & 0xff]), ...bytes] };
  const payload = [r.int(10) === 0 ? r.int(12) : EXT_CODE.get(T), ...bytes];
  const fixed = { 1: 0xd4, 2: 0xd5, 4: 0xd6, 8: 0xd7, 16: 0xd8 }[payload.length];
  const head = fixed ? [fixed, 0x74] : payload.length < 256 ? [0xc7, payload.length, 0x74] : [0xc8, payload.length >> 8, payload.length & 0xff, 0x74];
  return { raw: [...head, ...payload] };
}

/** A message for `shape`: mostly what it names, now and then a field left out, a wrong value, or a key it does not name. */
function message(r, shape) {
  if (r.int(40) === 0) return r.int(2) ? 'x' : null;
  if (typeof shape === 'function') return typedField(r, shape);
  if (Array.isArray(shape)) return Array.from({ length: r.int(4) }, () => message(r, shape[0]));
  if (shape instanceof MapOf) {
    return Object.fromEntries(Array.from({ length: r.int(3) }, (_, i) => [`m${i}`, message(r, shape.shape)]));
  }
  const out = {};
  for (const [key, field] of Object.entries(shape)) {
    if (field instanceof Optional) {
      const x = r.int(3);
      if (x > 0) out[key] = x === 1 ? null : message(r, field.shape);
    } else if (r.int(30) !== 0) out[key] = message(r, field);
  }
  if (r.int(3) === 0) out.extra = r.int(2) ? 'e' : [1, 2];
  return out;
}

/** What fn gives, as a string to compare: typed arrays by type and bytes; an error by every field fastmp sets (anything else: as it is). */
function outcome(fn) {
  const canon = (v) => {
    if (ArrayBuffer.isView(v)) return `${v.constructor.name}:${Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('hex')}`;
    if (Array.isArray(v)) return v.map(canon);
    if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, canon(x)]));
    if (Object.is(v, -0) || Number.isNaN(v)) return String(v);
    return typeof v === 'bigint' ? `${v}n` : v;
  };
  try {
    return JSON.stringify(canon(fn()));
  } catch (err) {
    if (!(err instanceof FastmpError)) return `not a FastmpError: ${err?.constructor?.name}: ${err?.message}`;
    const { code, index, offset, path, needed, message: text } = err;
    return JSON.stringify({ code, index, offset, path, needed, message: text.replace(/ \(the value at byte 0 of the stream\)$/, '') });
  }
}

const settle = (promise) => promise.then((v) => outcome(() => v), (err) => outcome(() => {
  throw err;
}));

/** A stream's outcome against decode()'s: the same, but that bytes after the value are TRAILING in the stream's own words (counted from where they start). */
const streamed = (got, want) => (want.startsWith('{"code":"TRAILING"') ? JSON.parse(got).code : got);

describe('2: random shapes decode on every build, from every placement, as pure JS decodes them (confirmed)', () => {
  test('200 shapes and messages: decode, reuse, decodeFrom, alloc() arrays, SharedArrayBuffers, streams of plain, shared and alloc() chunks', async () => {
    const r = rng(0x5ba9e2);
    const write = writer(r);
    let errors = 0;
    for (let it = 0; it < 200; it++) {
      const shape = randomShape(r);
      let bytes = write(message(r, shape));
      const mutation = r.int(4);
      if (mutation === 1) bytes = bytes.subarray(0, r.int(bytes.length + 1));
      if (mutation === 2 && bytes.length > 0) bytes[r.int(bytes.length)] = r.int(256);
      const options = { shape, integralFloats: r.int(3) === 0 };
      if (r.int(4) === 0) options.maxArrayLength = r.int(40);
      if (r.int(4) === 0) options.maxBinLength = r.int(60);
      if (r.int(4) === 0) options.maxExtLength = r.int(60);
      if (r.int(4) === 0) options.maxDepth = 1 + r.int(5);
      if (r.int(4) === 0) options.useBigInt64 = true;
      const pre = 1 + r.int(40);
      const padded = new Uint8Array(pre + bytes.length + 3).fill(0xc0);
      padded.set(bytes, pre);
      const from = (d, input) => () => {
        const { value, end } = d.decodeFrom(input, pre);
        return { value, end };
      };
      const want = outcome(() => JS.decode(bytes, options));
      const wantFrom = outcome(from(new JS.Decoder(options), padded));
      if (want.startsWith('{"code"')) errors++;
      const sizes = [1 + r.int(9), 1 + r.int(60)];
      for (const [name, api] of BUILDS) {
        const label = `${it} ${name}`;
        expect(outcome(() => api.decode(bytes, options)), `${label} decode`).toBe(want);
        const reusing = new api.Decoder({ ...options, reuseTypedArrays: true });
        outcome(() => reusing.decode(bytes.slice()));
        expect(outcome(() => reusing.decode(bytes)), `${label} reuse`).toBe(want);
        expect(outcome(from(new api.Decoder(options), padded)), `${label} decodeFrom`).toBe(wantFrom);
        if (name !== 'js') {
          const whole = api.alloc(Uint8Array, bytes.length);
          whole.set(bytes);
          expect(outcome(() => api.decode(whole, options)), `${label} alloc`).toBe(want);
          expect(outcome(() => reusing.decode(api.refresh(whole))), `${label} alloc reuse`).toBe(want);
          api.free(api.refresh(whole));
          const around = api.alloc(Uint8Array, padded.length);
          around.set(padded);
          expect(outcome(from(reusing, around)), `${label} alloc decodeFrom`).toBe(wantFrom);
          api.free(api.refresh(around));
        }
        const shared = new Uint8Array(new SharedArrayBuffer(padded.length));
        shared.set(padded);
        const reader = new api.Decoder(options);
        expect(outcome(from(reader, shared)), `${label} shared decodeFrom`).toBe(wantFrom);
        outcome(() => reader.decodeFrom(shared, padded.length - 1)); // (its copies buffer now holds other bytes)
        expect(outcome(from(reader, shared)), `${label} shared decodeFrom again`).toBe(wantFrom);
        if (bytes.length === 0) continue; // (a stream says the empty stream its own way)
        const place = r.int(name === 'js' ? 2 : 3);
        async function* chunks() {
          for (let p = 0, i = 0; p < bytes.length; p += sizes[i++ % 2]) {
            const chunk = bytes.slice(p, p + sizes[i % 2]);
            if (place === 0) yield chunk;
            else if (place === 1) {
              const s = new Uint8Array(new SharedArrayBuffer(chunk.length));
              s.set(chunk);
              yield s;
            } else {
              const a = api.alloc(Uint8Array, chunk.length);
              a.set(chunk);
              yield a;
              api.free(api.refresh(a));
            }
          }
        }
        const wantStreamed = streamed(want, want);
        expect(streamed(await settle(api.decodeAsync(chunks(), options)), want), `${label} stream ${place} ${sizes}`).toBe(wantStreamed);
        const streaming = new api.Decoder({ ...options, reuseTypedArrays: true });
        await settle(streaming.decodeAsync(chunks()));
        expect(streamed(await settle(streaming.decodeAsync(chunks())), want), `${label} reusing stream ${place} ${sizes}`).toBe(wantStreamed);
      }
    }
    expect(errors).toBeGreaterThan(50);
    expect(errors).toBeLessThan(150);
  }, 120_000);
});
