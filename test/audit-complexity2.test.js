// audit-complexity2.test.js - the second complexity audit: work and memory
// that must grow linearly in the input (counted, never timed). Each numbered
// describe() is a finding that failed on 426ced1 (the other one holds what
// fix 1 must keep right):
// 1. decodeFrom() of an input read from a copy (a SharedArrayBuffer, an
//    alloc() array) finds the value's end with a scanner of headers
//    (js/codec/scan.js) and copies that value only. Where the scanner stops at
//    a header the options refuse, decodeFrom() copied the whole input instead
//    (js/codec/decoder-inputs.js). The scanner refuses what the decoder takes
//    all the same: a shaped typed-array field at maxDepth (the decoder does
//    not count its elements as a level; audit-bounds2 holds that it is read).
//    A loop of decoder.decodeFrom(shared, offset) over such values then copied
//    the whole input for every value: quadratic (400 values of 24 bytes, a
//    9.6 KB input: 3.8 MB copied).
// 2. read*String(bytes, offset) of a one-byte ASN.1 kind (IA5, Visible,
//    Printable, Numeric) on the pure-JS path (backend 'js', and on Firefox
//    contents from 128 chars up to its crossover, 512 or 1024) copied the whole
//    input when it lies in a SharedArrayBuffer, to read the content (128 chars
//    or more) twice from one reading (js/strings.js jsDecodeNarrowString()). A
//    loop of read*String() over the DER strings of a shared input was
//    quadratic (4 000 strings of 200 chars, 812 KB: 3.2 GB copied, 5.6 s).
// 3. An Encoder's store in wasm memory (once the pack kernels are loaded)
//    grew to exactly what each long typed-array field needed, copying all
//    the message so far every time (js/wasm/heap.js ensureIn(), which the
//    kernel path of js/io.js packToStore() reaches through place(); the
//    store's own ensure() doubles, that path did not). A message of n long
//    typed arrays copied O(n^2) bytes: 4 000 Float32Array(256) fields (a
//    5 MB message) moved 10 GB, 1.3 s, on the first encode of an instance and
//    again after every smaller message (the pool releases a store over 1 MB
//    that a call used under a quarter of).
// 4. A shaped decode copies its input into a window of wasm memory for the
//    kernels, each window twice the last (up to 1 MB) so that many fields
//    cost O(input). Another decode that takes the window over in between (an
//    extension's decode() of its payload with a shape: a nested message)
//    made the next field copy the window again, still twice the last: with
//    a nested decode between every two fields, each field copied up to 1 MB
//    (js/io.js FieldReader.copyFrom()). 4 000 elements of a Float32Array(128)
//    and such an ext (a 5.2 MB message): 3.8 GB copied, 14x the time of the
//    same message whose extension reads its payload otherwise.
import { afterEach, describe, expect, test, vi } from 'vitest';
import { FieldReader } from '../js/io.js';
import { Decoder, ExtData, ExtensionCodec, alloc, createFastmp, encode, free, init } from '../js/node.js';

await init();

afterEach(() => vi.restoreAllMocks());

/**
 * What `fn` makes `proto[name]` do, counted: the sum of count(self, args,
 * result) over every call while `fn` runs (the method still does its work).
 */
function counted(proto, name, count, fn) {
  let total = 0;
  const real = proto[name];
  vi.spyOn(proto, name).mockImplementation(function (...args) {
    const out = real.apply(this, args);
    total += count(this, args, out);
    return out;
  });
  try {
    fn();
  } finally {
    vi.restoreAllMocks();
  }
  return total;
}

/** Bytes that Uint8Array.prototype.slice() copies while `fn` runs. */
const copiedBySlice = (fn) => counted(Uint8Array.prototype, 'slice', (self, args, out) => out.length, fn);

/** n messages one after another, in `memory` ('shared': a SharedArrayBuffer; 'alloc': an alloc() array). */
function inputOf(memory, messages) {
  const parts = messages.map((m) => encode(m));
  const total = parts.reduce((sum, p) => sum + p.length, 0);
  const bytes = memory === 'shared' ? new Uint8Array(new SharedArrayBuffer(total)) : alloc(Uint8Array, total);
  let at = 0;
  for (const p of parts) {
    bytes.set(p, at);
    at += p.length;
  }
  return bytes;
}

describe('1: decodeFrom() over an input read from a copy copies each value once, also past a header the scanner refuses (js/codec/decoder-inputs.js)', () => {
  const messages = Array.from({ length: 400 }, (_, i) => ({ id: i, v: new Float32Array([i, i / 2, -i]) }));
  test.each([
    ['a SharedArrayBuffer', 'shared'],
    ['an alloc() array', 'alloc'],
  ])('a shaped typed-array field at maxDepth, in %s: the bytes copied stay within the input\'s size', (_, memory) => {
    const bytes = inputOf(memory, messages);
    const total = bytes.length;
    const decoder = new Decoder({ shape: { v: Float32Array }, maxDepth: 2 });
    const got = [];
    const copied = copiedBySlice(() => {
      for (let offset = 0; offset < total;) {
        const { value, end } = decoder.decodeFrom(bytes, offset);
        got.push(value);
        offset = end;
      }
    });
    expect(got).toEqual(messages);
    expect(copied).toBeLessThanOrEqual(total); // was 400 whole copies (400 x 8 KB) on 426ced1
    if (memory === 'alloc') free(bytes);
  });
});

describe('what fix 1 must keep right: a header the options refuse, at an offset of a shared input, is reported as in place', () => {
  // Each case: a value after a 3-byte prefix, with options; the error of decodeFrom() on a
  // SharedArrayBuffer must be the error of decodeFrom() on the same bytes in plain memory.
  const nested = (levels, inner) => [...new Array(levels).fill(0x91), ...inner];
  const cases = [
    ['a str beyond maxStrLength, then more entries', [0x82, 0xa1, 0x61, 0xa5, 104, 101, 108, 108, 111, 0xa1, 0x62, 0x01], { maxStrLength: 3 }],
    ['a bin beyond maxBinLength in an array', [0x92, 0x01, 0xc4, 0x04, 1, 2, 3, 4], { maxBinLength: 2 }],
    ['an array beyond maxArrayLength in a map', [0x81, 0xa1, 0x76, 0x93, 1, 2, 3], { maxArrayLength: 2 }],
    ['a fixext beyond maxExtLength', [0x91, 0xd6, 0x05, 1, 2, 3, 4], { maxExtLength: 2 }],
    ['nesting beyond maxDepth', nested(6, [0x01]), { maxDepth: 3 }],
    ['nesting beyond maxDepth, cut by the input', nested(6, []), { maxDepth: 3 }],
    ['a 0xc1 in an array', [0x93, 0x01, 0xc1, 0x02], {}],
    ['nesting past 4096 levels, maxDepth Infinity', nested(5000, [0xc1]), { maxDepth: Infinity }],
    ['a map key beyond maxStrLength, rawStrings', [0x81, 0xa4, 97, 98, 99, 100, 0xa4, 97, 98, 99, 100], { maxStrLength: 3, rawStrings: true }],
    ['an array beyond maxArrayLength whose items have not all come', [0x92, 0xdc, 0x00, 0x05, 0x01], { maxArrayLength: 2 }],
  ];
  const errorOf = (fn) => {
    try {
      return { value: fn() };
    } catch (err) {
      return { code: err.code, message: err.message, offset: err.offset, path: err.path, needed: err.needed, name: err.name };
    }
  };
  test.each(cases)('%s', (_, value, options) => {
    const plain = Uint8Array.from([0x01, 0x02, 0x03, ...value, 0xc0, 0xc0]);
    const shared = new Uint8Array(new SharedArrayBuffer(plain.length));
    shared.set(plain);
    const want = errorOf(() => new Decoder(options).decodeFrom(plain, 3));
    expect(want.code).toBeDefined();
    expect(errorOf(() => new Decoder(options).decodeFrom(shared, 3))).toEqual(want);
    const decoder = new Decoder(options); // (a Decoder that read the values before it)
    decoder.decodeFrom(shared, 0);
    decoder.decodeFrom(shared, 1);
    expect(errorOf(() => decoder.decodeFrom(shared, 3))).toEqual(want);
  });
});

describe('2: read*String() of a one-byte kind in a SharedArrayBuffer copies the string it reads, not the input (js/strings.js)', () => {
  const kinds = ['IA5', 'Visible', 'Printable', 'Numeric'];
  test.each(kinds)('read%sString() at every string of a shared input, pure-JS path', async (kind) => {
    const m = await createFastmp({ backend: 'js' });
    const texts = Array.from({ length: 200 }, (_, i) => `${i}`.padStart(130 + (i % 200), '7'));
    const parts = texts.map((t) => m[`write${kind}String`](t));
    const total = parts.reduce((sum, p) => sum + p.length, 0);
    const shared = new Uint8Array(new SharedArrayBuffer(total));
    parts.reduce((at, p) => (shared.set(p, at), at + p.length), 0);
    const got = [];
    const copied = copiedBySlice(() => {
      for (let offset = 0; offset < total;) {
        const { value, end } = m[`read${kind}String`](shared, offset);
        got.push(value);
        offset = end;
      }
    });
    expect(got).toEqual(texts);
    expect(copied).toBeLessThanOrEqual(total); // was 200 whole copies (200 x 53 KB) on 426ced1
  });

  test.each(kinds)('read%sString(): a bad char of a long string in a shared input is reported as in plain memory', async (kind) => {
    const m = await createFastmp({ backend: 'js' });
    const text = '1'.repeat(300);
    const der = m[`write${kind}String`](text);
    const plain = Uint8Array.from([0x05, 0x05, ...der, 0x05]);
    plain[2 + 4 + 250] = kind === 'IA5' ? 0x80 : 0x7f; // (after the tag and a 3-byte length; DEL is in none of the other sets)
    const shared = new Uint8Array(new SharedArrayBuffer(plain.length));
    shared.set(plain);
    const errorOf = (bytes) => {
      try {
        m[`read${kind}String`](bytes, 2);
        return null;
      } catch (err) {
        return { code: err.code, index: err.index, offset: err.offset, message: err.message };
      }
    };
    const want = errorOf(plain);
    expect(want).toMatchObject({ code: 'RANGE', index: 250, offset: 256 });
    expect(errorOf(shared)).toEqual(want);
  });
});

describe('3: a message of many long typed arrays grows its wasm store by doubling (js/wasm/heap.js ensureIn)', () => {
  /** Bytes that Uint8Array.prototype.copyWithin() moves while `fn` runs (how a region of wasm memory moves when it grows). */
  const movedByCopyWithin = (fn) => counted(Uint8Array.prototype, 'copyWithin', (self, [, start, end = self.length]) => Math.max(0, end - start), fn);

  test.each(['simd', 'scalar'])('%s: 1 000 Float32Array(256) fields move O(message) bytes, on a fresh instance and after a small message', async (backend) => {
    const m = await createFastmp({ backend });
    m.encode({ f: new Float32Array(64) }); // (the kernels attached: the pool's stores are regions of wasm memory)
    const value = Array.from({ length: 1000 }, (_, i) => new Float32Array(256).fill(i + 0.5));
    let out;
    const first = movedByCopyWithin(() => { out = m.encode(value); });
    expect(out.length).toBe(1000 * (3 + 256 * 5) + 3);
    m.encode({ a: 1 }); // (the pool lets go of the 1.3 MB store, which this call used under a quarter of)
    let again;
    const second = movedByCopyWithin(() => { again = m.encode(value); });
    expect(Buffer.compare(again, out)).toBe(0);
    const back = m.decode(out, { shape: [Float32Array] });
    expect(back.length).toBe(1000);
    expect(back.every((v, i) => v.length === 256 && v.every((x) => x === i + 0.5))).toBe(true);
    expect(first).toBeLessThanOrEqual(2 * out.length); // was 641 MB moved for this 1.3 MB message on 426ced1
    expect(second).toBeLessThanOrEqual(2 * out.length);
  });
});

describe('4: a shaped decode whose extension makes a shaped decode between its fields copies O(message) into wasm memory (js/io.js FieldReader)', () => {
  /** Bytes FieldReader windows copy into wasm memory while `fn` runs. */
  const windowed = (fn) => counted(FieldReader.prototype, 'copyFrom', (reader) => reader.to - reader.from, fn);

  test.each(['simd', 'scalar'])('%s: 600 elements, each a Float32Array(300) and an ext decoded with a shape', async (backend) => {
    const m = await createFastmp({ backend });
    const inner = new m.Decoder({ shape: { v: Float32Array } });
    const codec = new ExtensionCodec();
    codec.register({ type: 1, decode: (data) => inner.decode(data).v[0] });
    const payload = m.encode({ v: new Float32Array(300).fill(2.5) });
    const value = Array.from({ length: 600 }, (_, i) => ({ v: new Float32Array(300).fill(i), e: new ExtData(1, payload) }));
    const bytes = m.encode(value);
    const outer = new m.Decoder({ shape: [{ v: Float32Array }], extensionCodec: codec });
    let got;
    const copied = windowed(() => { got = outer.decode(bytes); });
    expect(got.length).toBe(600);
    expect(got.every((x, i) => x.e === 2.5 && x.v.length === 300 && x.v[299] === i)).toBe(true);
    expect(copied).toBeGreaterThan(0); // (the kernels read the fields)
    expect(copied).toBeLessThanOrEqual(2 * bytes.length); // was 440 MB for this 1.8 MB message on 426ced1
  });
});
