// boundary.test.js - the JS boundary under hostile arguments: the thirteen
// defects of issue 11, each reproduced as an adversarial user would, on both
// builds (and the pure-JS path where it has its own code). Every test here
// failed before its fix.

import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import vm from 'node:vm';
import { Worker } from 'node:worker_threads';
import { encode as mpEncode } from '@msgpack/msgpack';
import { describe, expect, test } from 'vitest';
import { FastmpError, createFastmp } from '../js/index.js';
import { ROOT } from './helpers.js';

const BUILDS = [['simd', { backend: 'simd', pureJs: 'never' }], ['scalar', { backend: 'scalar', pureJs: 'never' }]];
const PATHS = [...BUILDS, ['pure-js', { pureJs: 'always' }]];
// The pack module of each build (a module given tells the instance's build).
const simdBytes = readFileSync(`${ROOT}dist/fastmp-pack-simd.wasm`);
const scalarBytes = readFileSync(`${ROOT}dist/fastmp-pack-scalar.wasm`);

/** The FastmpError `fn` throws, checked to carry `code`. */
function fastmpError(fn, code) {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(FastmpError);
    expect(e.code).toBe(code);
    return e;
  }
  throw new Error(`expected a FastmpError ${code}, nothing was thrown`);
}

/** Random floats whose msgpack form is known independently (@msgpack/msgpack, forceFloat32). */
function floats(n, seed = 1) {
  const x = new Float32Array(n);
  for (let i = 0, s = seed; i < n; i++) {
    s = (s * 1103515245 + 12345) >>> 0;
    x[i] = (s / 2 ** 32 - 0.5) * 1000;
  }
  return x;
}

const detach = (buffer) => structuredClone(buffer, { transfer: [buffer] });

describe.each(BUILDS)('%s', (name, options) => {
  // 1. A Buffer over wasm memory was "copied" with Buffer#slice, which is a view.
  test('1: a Buffer over a packView() output is read as it was, when the call grows memory', async () => {
    const fm = await createFastmp(options);
    // Bytes >= 128 as ints take two bytes each: unpacking them as Float64Array
    // needs more scratch than packing them had, so the call grows memory.
    const x = new Uint8Array(300_000).map((_, i) => 128 + (i % 128));
    const view = fm.packView(x, { bin: false });
    const buf = Buffer.from(view.buffer, view.byteOffset, view.length);
    const before = fm.memoryStats().wasmMemory;
    expect(Array.from(fm.unpack(buf, Float64Array))).toEqual(Array.from(x));
    expect(fm.memoryStats().wasmMemory).toBeGreaterThan(before); // the case that went wrong
  });

  test('1: decodeIA5ToUint16 of a Buffer over a packView() output, when the call grows memory', async () => {
    const fm = await createFastmp(options);
    const text = 'fastmp '.repeat(40_000);
    const bin = fm.packView(new Uint8Array(Buffer.from(text, 'latin1'))); // bin32: 5-byte header
    const buf = Buffer.from(bin.buffer, bin.byteOffset + 5, text.length);
    expect(String.fromCharCode(...fm.decodeIA5ToUint16(buf).subarray(0, 14))).toBe('fastmp fastmp ');
    expect(fm.decodeIA5(new Uint8Array(Buffer.from(text, 'latin1')))).toBe(text);
  });

  // 2. Lifetimes were checked before options were read.
  test('2: an options getter that calls fastmp makes the call fail STALE, not decode the getter\'s data', async () => {
    const fm = await createFastmp(options);
    const view = fm.packView(floats(1000));
    const evil = { get integralFloats() { fm.pack(floats(5000, 7)); return false; } };
    fastmpError(() => fm.unpack(view, Float32Array, evil), 'STALE');
    const x = fm.alloc(Float32Array, 100);
    const freeing = { get bin() { fm.free(x); return true; } };
    fastmpError(() => fm.pack(x, freeing), 'FREED');
  });

  // 3. STALE / FREED were checked by object identity.
  test('3: views derived from a stale output or a freed array are refused too', async () => {
    const fm = await createFastmp(options);
    const view = fm.packView(floats(100));
    fm.pack(floats(1000, 3)); // a later call through wasm reuses the scratch
    fastmpError(() => fm.unpack(view.subarray(0), Float32Array), 'STALE');
    fastmpError(() => fm.unpack(new Uint8Array(view.buffer, view.byteOffset, view.length), Float32Array), 'STALE');
    fastmpError(() => fm.decodeBMP(view.subarray(2, 10)), 'STALE');
    const x = fm.alloc(Float32Array, 100);
    x.fill(1.5);
    const part = x.subarray(10, 20);
    const alias = new Float32Array(x.buffer, x.byteOffset, 5);
    expect(fm.unpack(fm.pack(part), Float32Array)).toEqual(new Float32Array(10).fill(1.5)); // live: fine
    fm.free(x);
    fastmpError(() => fm.pack(part), 'FREED');
    fastmpError(() => fm.packView(alias), 'FREED');
  });

  // 5. Lengths came from the object.
  test('5: a subclass whose length getter lies packs its real elements', async () => {
    const fm = await createFastmp(options);
    class Liar extends Float32Array {
      get length() { return 1000; }
    }
    const x = new Liar(64);
    x.set(floats(64));
    const honest = new Float32Array(x.buffer);
    expect(Buffer.from(fm.pack(x)).equals(Buffer.from(mpEncode(Array.from(honest), { forceFloat32: true })))).toBe(true);
    const own = new Float32Array(64);
    Object.defineProperty(own, 'length', { get: () => 4096 });
    expect(fm.pack(own).length).toBe(3 + 64 * 5);
  });

  // 8. A refused alloc() left ~3 GiB reserved as scratch.
  test('8: a refused alloc() leaves the scratch region as it was, and later allocations work', async () => {
    const fm = await createFastmp(options);
    const before = fm.memoryStats().scratch;
    // Packing 6e8 floats needs 3 GB of scratch, which can be had; the array's 2.4 GB more cannot.
    expect(() => fm.alloc(Float32Array, 6e8)).toThrow(RangeError);
    expect(fm.memoryStats().scratch).toBe(before);
    const x = fm.alloc(Float32Array, 1e6);
    x.fill(2);
    expect(fm.unpack(fm.pack(x), Float32Array)[999_999]).toBe(2);
    fm.free(x);
  });

  // 13. wasm: a DataView (BufferSource allows one).
  test('13: createFastmp({ wasm }) takes a DataView of the module bytes', async () => {
    const bytes = name === 'simd' ? simdBytes : scalarBytes;
    const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
    expect((await createFastmp({ wasm: dv })).backend()).toBe(name);
  });
});

describe.each(PATHS)('%s', (name, options) => {
  // The unpackers read the caller's Uint8Array itself (no view of it is made
  // on the pure-JS path): only by index and through the intrinsic getters.
  test('unpack reads an input whose own properties throw by index and intrinsics only, errors included', async () => {
    const fm = await createFastmp(options);
    const trap = (bytes) => {
      for (const key of ['length', 'buffer', 'byteOffset', 'byteLength', 'subarray', 'slice', 'set']) {
        Object.defineProperty(bytes, key, { get: () => { throw new Error(`read ${key}`); } });
      }
      return bytes;
    };
    const ints = Int32Array.of(1, -100_000, 2 ** 31 - 1, -(2 ** 31), 300, -5, 0, 70_000);
    const floats32 = Float32Array.of(1.5, NaN, -0, 3e38);
    const bigs = BigInt64Array.of(-(2n ** 63n), 2n ** 53n + 1n, 5n);
    for (const x of [ints, floats32, bigs, Float64Array.of(Math.PI, -1e300)]) {
      const Type = x.constructor;
      const packed = fm.pack(x);
      const got = fm.unpack(trap(packed.slice()), Type);
      expect(Buffer.from(got.buffer).equals(Buffer.from(x.buffer))).toBe(true);
      const framed = new Uint8Array(packed.length + 3);
      framed.set(packed, 2);
      fastmpError(() => fm.unpack(trap(framed.slice()), Type), 'NOT_ARRAY');
      expect(fm.unpackFrom(trap(framed), Type, 2).end).toBe(packed.length + 2);
      fastmpError(() => fm.unpack(trap(Uint8Array.of(...packed, 0xc0)), Type), 'TRAILING');
      fastmpError(() => fm.unpack(trap(packed.slice(0, packed.length - 1)), Type), 'TRUNCATED');
    }
    fastmpError(() => fm.unpack(trap(fm.pack(ints)), Int16Array), 'RANGE');
    fastmpError(() => fm.unpack(trap(fm.pack(floats32)), Int32Array), 'TYPE');
    expect(Array.from(fm.unpack(trap(Uint8Array.of(0xc4, 2, 7, 9)), Uint8Array))).toEqual([7, 9]);
    expect(Array.from(fm.unpackBool(trap(Uint8Array.of(0x92, 0xc3, 0xc2))))).toEqual([1, 0]);
    fastmpError(() => fm.unpackBool(trap(Uint8Array.of(0x92, 0xc3, 0xc0))), 'TYPE');
  });

  // 9. Detached or out-of-bounds inputs gave an empty result on one path and a raw TypeError on another.
  test('9: detached and out-of-bounds inputs are a FastmpError DETACHED on every path', async () => {
    const fm = await createFastmp(options);
    const f = new Float32Array(8);
    detach(f.buffer);
    fastmpError(() => fm.pack(f), 'DETACHED');
    const bytes = new Uint8Array([0x91, 0x01]);
    const whole = bytes.buffer;
    detach(whole);
    fastmpError(() => fm.unpack(bytes, Int32Array), 'DETACHED');
    fastmpError(() => fm.unpack(whole, Int32Array), 'DETACHED');
    fastmpError(() => fm.decodeBMP(bytes), 'DETACHED');
    const units = new Uint16Array(4);
    detach(units.buffer);
    fastmpError(() => fm.encodeBMP(units), 'DETACHED');
    const rab = new ArrayBuffer(16, { maxByteLength: 64 });
    const fixed = new Float32Array(rab, 0, 4);
    rab.resize(8);
    fastmpError(() => fm.pack(fixed), 'DETACHED');
    fastmpError(() => fm.packView(fixed), 'DETACHED');
    const tracking = new Float32Array(rab); // a length-tracking view follows the buffer: fine
    expect(fm.unpack(fm.pack(tracking), Float32Array)).toEqual(new Float32Array(2));
  });

  // 10. Options were not checked as the README says.
  test('10: options are own keys of a plain object, with values of the documented type', async () => {
    const fm = await createFastmp(options);
    const f = new Float32Array(4);
    const u8 = new Uint8Array(4);
    expect(() => fm.pack(u8, { bin: 'false' })).toThrow(/option 'bin' must be true or false, not the string "false"/);
    expect(() => fm.unpack(fm.pack(f), Int8Array, { integralFloats: 'no' })).toThrow(TypeError);
    expect(() => fm.pack(u8, Object.create({ bin: false }))).toThrow(/'bin' is inherited/);
    expect(() => fm.pack(u8, 'bin')).toThrow(/options must be a plain object/);
    expect(() => fm.pack(u8, [])).toThrow(/options must be a plain object/);
    expect(() => fm.pack(u8, { bni: false })).toThrow(/has no option 'bni' \(it knows: bin\)/);
    expect(fm.pack(u8, { [Symbol('bin')]: false })[0]).toBe(0xc4); // symbols name no option: not read
    expect(fm.pack(u8, Object.assign(Object.create(null), { bin: false }))[0]).toBe(0x94);
    expect(fm.pack(u8, { bin: undefined })[0]).toBe(0xc4); // undefined: the default
    // The message codec reads its options by the same rules.
    expect(() => fm.encode({ b: 1, a: 2 }, Object.create({ sortKeys: true }))).toThrow(/'sortKeys' is inherited/);
    expect(() => fm.decode(fm.encode(1), { maxDepht: 3 })).toThrow(/has no option 'maxDepht'/);
    expect(() => fm.encode(1, { typedArrays: 'raw' })).toThrow(TypeError);
  });

  // 11. Typed arrays from another realm were refused.
  test('11: typed arrays from another realm are taken', async () => {
    const fm = await createFastmp(options);
    const other = vm.runInNewContext('({ f: new Float32Array([1.5, -2, 3]), u8: new Uint8Array([0x93, 1, 2, 3]), u16: new Uint16Array([0x41, 0x42]), b: new Uint8Array([1, 0]) })');
    expect(fm.unpack(fm.pack(other.f), Float32Array)).toEqual(new Float32Array([1.5, -2, 3]));
    expect(fm.unpack(other.u8, Int32Array)).toEqual(new Int32Array([1, 2, 3]));
    expect(fm.decodeBMP(fm.encodeBMP(other.u16))).toBe('AB');
    expect(fm.unpackBool(fm.packBool(other.b))).toEqual(new Uint8Array([1, 0]));
  });

  // 12. Hostile offsets and values escaped as engine errors.
  test('12: null-prototype offsets and throwing getters give the documented TypeError / RangeError', async () => {
    const fm = await createFastmp(options);
    const bytes = fm.pack(new Float32Array(2));
    expect(() => fm.unpackFrom(bytes, Float32Array, Object.create(null))).toThrow(/offset must be an integer from 0 to 11, not an object/);
    const throwing = { toString() { throw new Error('boom'); }, valueOf() { throw new Error('boom'); } };
    expect(() => fm.unpackFrom(bytes, Float32Array, throwing)).toThrow(RangeError);
    const hostile = { get constructor() { throw new Error('boom'); } };
    expect(() => fm.pack(hostile)).toThrow(/takes a Float32Array, .* not an object/);
    expect(() => fm.unpack(hostile, Float32Array)).toThrow(TypeError);
    expect(() => fm.unpack(bytes, hostile)).toThrow(TypeError);
    expect(() => fm.alloc(Float32Array, throwing)).toThrow(RangeError);
    const revoked = Proxy.revocable([], {});
    revoked.revoke();
    expect(() => fm.pack(revoked.proxy)).toThrow(/not an object/);
  });

  // 13. Messages.
  test('13: error messages count bytes after the header, and say "a Uint8Array" and "1 byte"', async () => {
    const fm = await createFastmp(options);
    const claim = new Uint8Array([0xdc, 0x00, 0x05, 0x01, 0x02, 0x03]); // array16 of 5, 3 bytes after its header
    expect(fastmpError(() => fm.unpack(claim, Int8Array), 'LENGTH').message).toBe('insufficient data: array header at byte 0 claims 5 elements, more than the 3 bytes after it hold');
    const bin = new Uint8Array([0xc5, 0x00, 0x04, 0x01]);
    expect(fastmpError(() => fm.unpack(bin, Uint8Array), 'LENGTH').message).toBe('insufficient data: bin header at byte 0 claims 4 bytes, more than the 1 byte after it hold');
    expect(fastmpError(() => fm.unpack(new Uint8Array([0x91, 0x01, 0x02]), Int8Array), 'TRAILING').message).toMatch(/^extra 1 of 3 bytes found at buffer\[2\] after the array/);
    expect(() => fm.alloc(new Uint8Array(1), 1)).toThrow(/not a Uint8Array$/);
    expect(() => fm.pack(new DataView(new ArrayBuffer(4)))).toThrow(/not a DataView$/);
  });
});

// 4. The pure-JS string path validated a SharedArrayBuffer input, then read it again.
test('4: the pure-JS path reads a SharedArrayBuffer input once: a racing writer never slips a bad char past the check', async () => {
  const fm = await createFastmp({ pureJs: 'always' });
  const shared = new SharedArrayBuffer(256);
  const bytes = new Uint8Array(shared).fill(0x41);
  // Another thread flips the last byte between 'A' and 0xFF (not IA5) as fast as it can.
  const worker = new Worker(`
    const { workerData } = require('node:worker_threads');
    const b = new Uint8Array(workerData);
    for (;;) { b[255] = 0xff; b[255] = 0x41; }`, { eval: true, workerData: shared });
  let bad = 0;
  let refused = 0;
  const end = Date.now() + 1500;
  try {
    while (Date.now() < end && refused < 1000) {
      try {
        const s = fm.decodeIA5(bytes);
        if (s.charCodeAt(255) !== 0x41) bad++;
      } catch (e) {
        expect(e.code).toBe('RANGE');
        refused++;
      }
    }
  } finally {
    await worker.terminate();
  }
  expect(refused).toBeGreaterThan(0); // the race did happen
  expect(bad).toBe(0);
});

// 6. import and require() of the package shared one instance only until require() re-initialised it.
test('6: importing the package, then require()-ing it (and the reverse) keeps one instance', () => {
  // By the package's name, as a program does (Node's `node` conditions: dist/fastmp-node.js, js/node.cjs).
  const requireHere = `(await import('node:module')).createRequire(${JSON.stringify(`${ROOT}package.json`)})`;
  const esmFirst = `
    const fm = await import('fastmp-wasm');
    await fm.init({ backend: 'scalar', pureJs: 'never' });
    const x = fm.alloc(Float32Array, 4);
    const cjs = ${requireHere}('fastmp-wasm');
    cjs.free(x);
    console.log(fm.backend(), cjs.backend());`;
  const cjsFirst = `
    const cjs = ${requireHere}('fastmp-wasm');
    cjs.initSync({ backend: 'scalar' });
    const x = cjs.alloc(Float32Array, 4);
    const fm = await import('fastmp-wasm');
    fm.free(x);
    console.log(fm.backend(), cjs.backend());`;
  for (const program of [esmFirst, cjsFirst]) {
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', program], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, FASTMP_BACKEND: '' } });
    expect(out.trim()).toBe('scalar scalar');
  }
});

// 7. init() raced: the call that finished last won.
test('7: when init() calls overlap, the last call made wins, and every promise names the backend in use', async () => {
  const fm = await import('../js/index.js');
  const later = (bytes, ms) => new Promise((resolve) => setTimeout(() => resolve(bytes), ms));
  const first = fm.init({ wasm: later(scalarBytes, 300) }); // finishes last
  const second = fm.init({ backend: 'simd' });
  expect(await Promise.all([first, second])).toEqual(['simd', 'simd']);
  expect(fm.backend()).toBe('simd');
  const third = fm.init({ backend: 'scalar' });
  expect(fm.initSync({ backend: 'simd' })).toBe('simd'); // made after the pending init(): it wins
  expect(await third).toBe('simd');
  expect(fm.backend()).toBe('simd');
});

// 10 (init). init() options.
test('10: init() and createFastmp() refuse unknown, inherited and mistyped options', async () => {
  const fm = await import('../js/index.js');
  await expect(fm.init({ backends: 'scalar' })).rejects.toThrow(/has no option 'backends'/);
  await expect(fm.init('scalar')).rejects.toThrow(/options must be a plain object, not the string "scalar"/);
  await expect(fm.createFastmp(Object.create({ backend: 'scalar' }))).rejects.toThrow(/inherited/);
  expect(() => fm.createFastmpSync({ pureJs: true })).toThrow(/option 'pureJs' must be 'auto', 'never', 'always'/);
});

// 13 (bin). A bin of >= 2^32-4 bytes gave V8's "Invalid typed array length".
test('13: a bin too large for a typed array is a RangeError that says so', async () => {
  const fm = await createFastmp();
  let big;
  try {
    big = new Uint8Array(2 ** 32 - 4);
  } catch {
    return; // this engine cannot make the input at all
  }
  try {
    new Uint8Array(2 ** 32 + 1); // can this engine make the output?
    return; // yes (V8 from 12 or so): the bin is packed, nothing to refuse
  } catch {
    // no: the case this test is about
  }
  expect(() => fm.pack(big)).toThrow(/a bin of 4294967292 bytes takes 4294967297 bytes, more than a typed array can hold/);
});

// The message decoder takes its input as the typed-array functions do.
describe.each(BUILDS)('%s: decode()', (name, options) => {
  test('a stale packView() output, a freed alloc() array and a detached buffer are refused; a lying subclass is read as it is', async () => {
    const fm = await createFastmp(options);
    const view = fm.packView(floats(100));
    expect(fm.decode(view)).toHaveLength(100); // the latest output: fine
    fm.pack(floats(1000, 3));
    fastmpError(() => fm.decode(view), 'STALE');
    fastmpError(() => fm.decode(view.subarray(0)), 'STALE');
    const x = fm.alloc(Uint8Array, 4);
    x.set([0x93, 1, 2, 3]);
    expect(fm.decode(x.subarray(0, 4))).toEqual([1, 2, 3]);
    fm.free(x);
    fastmpError(() => fm.decode(x), 'FREED');
    const bytes = new Uint8Array([0x91, 0x01]);
    detach(bytes.buffer);
    fastmpError(() => fm.decode(bytes), 'DETACHED');
    class Liar extends Uint8Array {
      get length() { return 1; }
    }
    expect(fm.decode(Liar.from([0x92, 0x01, 0x02]))).toEqual([1, 2]);
  });
});

describe.each(BUILDS)('%s: encodeSharedRef()', (name, options) => {
  test('a view of an Encoder\'s output decodes (it is the Encoder\'s region, not stale scratch)', async () => {
    const fm = await createFastmp(options);
    const encoder = new fm.Encoder();
    const value = { v: floats(300), n: 'x' };
    const shared = encoder.encodeSharedRef(value);
    expect(fm.decode(shared, { shape: { v: Float32Array } }).v).toEqual(value.v);
    expect(fm.unpackFrom(shared, Float32Array, 3).value).toEqual(value.v); // after the map header and the key 'v' (82 a1 76)
  });
});

test('encodeInto() and asBools() take Uint8Arrays of another realm, by their real length', async () => {
  const fm = await createFastmp();
  const other = vm.runInNewContext('({ target: new Uint8Array(16), bits: new Uint8Array([1, 0, 1]) })');
  const end = fm.encodeInto({ v: 1 }, other.target);
  expect(fm.decode(other.target.subarray(0, end))).toEqual({ v: 1 });
  const { asBools } = await import('../js/index.js');
  expect(fm.decode(fm.encode(asBools(other.bits)))).toEqual([true, false, true]);
  class Liar extends Uint8Array {
    get length() { return 1000; }
  }
  expect(() => fm.encodeInto('x'.repeat(40), new Liar(8))).toThrow(/needs 42 bytes from offset 0, the target has 8/);
  expect(fm.decode(new Uint8Array([0x91, 0x01, 0x02]).subarray(0, 2))).toEqual([1]);
  expect(() => fm.decode(new Uint8Array([0x91, 0x01, 0x02]))).toThrow(/^fastmp: at \$: extra 1 of 3 bytes found at buffer\[2\] after the value/);
});

// Issue 13 item 5 (per-call cost): pack() and unpack() read their one option without an
// options object, readOptions() returns objects without a prototype.
describe.each(PATHS)('%s: options', (name, options) => {
  test('a polluted Object.prototype changes no default, and is refused as an inherited option', async () => {
    const fm = await createFastmp(options);
    const bytes = Uint8Array.of(1, 2);
    const floats = fm.pack(Float32Array.of(2));
    try {
      Object.defineProperty(Object.prototype, 'bin', { value: false, configurable: true, writable: true }); // not enumerable
      Object.defineProperty(Object.prototype, 'integralFloats', { value: true, configurable: true, writable: true });
      expect(fm.pack(bytes)[0]).toBe(0xc4); // still a bin
      expect(fm.pack(bytes, {})[0]).toBe(0xc4);
      fastmpError(() => fm.unpack(floats, Int32Array), 'TYPE'); // still no floats for ints
      fastmpError(() => fm.unpack(floats, Int32Array, {}), 'TYPE');
      Object.defineProperty(Object.prototype, 'bin', { enumerable: true });
      expect(() => fm.pack(bytes, {})).toThrow(/'bin' is inherited/);
      expect(() => fm.unpack(floats, Float32Array, { integralFloats: false })).toThrow(/'bin' is inherited/);
    } finally {
      delete Object.prototype.bin;
      delete Object.prototype.integralFloats;
    }
    expect(fm.pack(bytes, { bin: false })[0]).toBe(0x92);
  });

  test('an invalid options object runs none of its getters; a valid one has each key read once', async () => {
    const fm = await createFastmp(options);
    let reads = 0;
    const counted = { get bin() { reads++; return false; } };
    expect(fm.pack(Uint8Array.of(1), counted)[0]).toBe(0x91);
    expect(reads).toBe(1);
    const unknownToo = { get bin() { reads++; return false; }, bni: 1 };
    expect(() => fm.pack(Uint8Array.of(1), unknownToo)).toThrow(/has no option 'bni'/);
    expect(reads).toBe(1);
    // Not an own enumerable key: not read, as readOptions() would not list it.
    expect(fm.pack(Uint8Array.of(1), Object.defineProperty({}, 'bin', { value: false, enumerable: false }))[0]).toBe(0xc4);
  });
});

describe.each(PATHS)('%s: lengths read after the options', (name, options) => {
  test('an options getter that detaches the input or the target makes the call fail DETACHED', async () => {
    const fm = await createFastmp(options);
    const evil = (buffer, key, value) => ({ get [key]() { detach(buffer); return value; } });
    const calls = [
      () => { const x = Float32Array.of(1, 2); return () => fm.pack(x, evil(x.buffer, 'bin', true)); },
      () => { const x = Float32Array.of(1, 2); return () => fm.packView(x, evil(x.buffer, 'bin', true)); },
      () => { const t = new Uint8Array(64); return () => fm.packInto(Float32Array.of(1, 2), t, 0, evil(t.buffer, 'bin', true)); },
      () => { const b = fm.pack(Float32Array.of(1, 2)); return () => fm.unpack(b, Float32Array, evil(b.buffer, 'integralFloats', false)); },
      () => { const b = fm.pack(Int32Array.of(1, 2)); return () => fm.unpackFrom(b, Int32Array, 0, evil(b.buffer, 'integralFloats', false)); },
    ];
    for (const make of calls) fastmpError(make(), 'DETACHED');
  });
});

test('an options getter that grows wasm memory: the packView() output it detached is STALE, not a truncated input', async () => {
  for (const options of [{ backend: 'simd' }, { backend: 'scalar', pureJs: 'never' }]) {
    const fm = await createFastmp(options);
    const view = fm.packView(floats(10));
    const evil = { get integralFloats() { fm.pack(new Float32Array(200_000)); return false; } };
    fastmpError(() => fm.unpack(view, Float32Array, evil), 'STALE');
  }
});

// The pure-JS decoders read an input of 8 elements or more from a copy (wire.js COPY), up to
// the first element not of the target's own form, and the caller's bytes from there.
test('pure-JS decoders on either side of their copy threshold: the kernels\' values and errors, at every position', async () => {
  const js = await createFastmp({ pureJs: 'always' });
  const wasm = await createFastmp({ backend: 'simd', pureJs: 'never' });
  const outcome = (fm, bytes, Type) => {
    try {
      const v = fm.unpack(bytes, Type);
      return Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('hex');
    } catch (e) {
      return `${e.code} ${e.index} ${e.offset}`;
    }
  };
  // Another form (a NaN, another width, an int), a bad tag, or an element cut short by the end.
  const others = {
    Float32Array: [[0x05], [0xcb, 0x7f, 0xf8, 0, 0, 0, 0, 0, 1], [0xca, 0x7f, 0xa0, 0, 1], [0xd2, 0, 1, 0, 0], [0xc0], [0xca, 0x3f]],
    Float64Array: [[0xe0], [0xca, 0x7f, 0xa0, 0, 1], [0xcb, 0x7f, 0xf0, 0, 0, 0, 0, 0, 1], [0xcf, 0, 0, 0, 1, 0, 0, 0, 0], [0xc2], [0xcb, 0x3f]],
    Int32Array: [[0xcc, 0xff], [0xce, 0x80, 0, 0, 0], [0xcb, 0x3f, 0xf0, 0, 0, 0, 0, 0, 0], [0xd3, 0, 0, 0, 0, 0, 0, 0, 5], [0xa1], [0xd2, 0]],
  };
  const own = { Float32Array: [0xca, 0x40, 0x49, 0x0f, 0xdb], Float64Array: [0xcb, 0x40, 0x09, 0x21, 0xfb, 0x54, 0x44, 0x2d, 0x18], Int32Array: [0xd2, 0xff, 0xff, 0x00, 0x01] };
  for (const [type, list] of Object.entries(others)) {
    const Type = globalThis[type];
    for (const n of [1, 3, 7, 8, 9, 15, 16, 20]) {
      for (const other of list) {
        for (let at = 0; at < n; at++) {
          const elements = [];
          for (let i = 0; i < n; i++) elements.push(...(i === at ? other : own[type]));
          const bytes = Uint8Array.from([...(n <= 15 ? [0x90 | n] : [0xdc, 0, n]), ...elements]);
          expect(outcome(js, bytes, Type), `${type} ${n}, at ${at}: ${other}`).toBe(outcome(wasm, bytes, Type));
        }
      }
    }
  }
});
