// audit-bare2.test.js - a second look at the bare typed-array API (pack,
// packView, packInto, unpack, unpackFrom, the bool functions, alloc / free /
// refresh) against docs/typed-arrays.md, on both wasm builds. The numbered
// describe() is a finding that failed on c9889a0; test/audit-bare.test.js
// holds the first look.
//
// 1. A length-tracking view of a growable SharedArrayBuffer can grow at any
// moment: another thread may call grow(). pack() reads x's length once, and
// then copies x into wasm memory with %TypedArray%.prototype.set, which
// copies x's length *now*: grown in between, the copy ran past the region
// it was placed in, over whatever the heap had handed out after it (here the
// caller's alloc() array), or past the end of memory (the engine's
// "RangeError: offset is out of bounds"). A test cannot make another
// thread's grow() land between two statements, so this file puts it there:
// before fastmp loads (and captures the intrinsic getters), the getters of
// %TypedArray%.prototype are wrapped so that one armed read of one array
// grows its buffer just after it returned, as a worker's grow() would.
// Unarmed, the wrappers return what the originals return.
import { afterEach, describe, expect, test } from 'vitest';

const TypedArrayPrototype = Object.getPrototypeOf(Uint8Array.prototype);
/** { key: 'length' | 'byteLength', x, grow } : the next read of x[key] through the intrinsic then runs grow(). */
let armed = null;
for (const key of ['length', 'byteLength']) {
  const original = Object.getOwnPropertyDescriptor(TypedArrayPrototype, key);
  Object.defineProperty(TypedArrayPrototype, key, {
    ...original,
    get() {
      const value = original.get.call(this);
      if (armed !== null && armed.key === key && armed.x === this) {
        const { grow } = armed;
        armed = null;
        grow();
      }
      return value;
    },
  });
}
afterEach(() => {
  armed = null;
});

// Loaded after the wrappers (a static import would be hoisted above them).
const { createFastmpSync } = await import('../js/index.js');

const BUILDS = ['simd', 'scalar'].map((backend) => [backend, { backend, pureJs: 'never' }]);
const hex = (b) => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('hex');

/** What a call gave: its bytes, or its error's class and code. */
function outcome(call) {
  try {
    const r = call();
    return typeof r === 'number' ? { end: r } : { bytes: hex(r) };
  } catch (e) {
    return { error: e.constructor.name, code: e.code, message: e.message };
  }
}

describe('1: a length-tracking view of a growable SharedArrayBuffer that grows during the call is copied as read, never past its place in wasm memory (js/wasm/heap.js placeAt)', () => {
  const N = 16; // the elements the call reads
  const GROWN = 1 << 17; // what another thread grows them to: 512 KB of floats, past the scratch region

  /** A Float32Array tracking a growable SharedArrayBuffer of N elements 0.5, 1.5, ..., and grow(): to GROWN elements, the new ones -1. */
  function growable() {
    const gsab = new SharedArrayBuffer(4 * N, { maxByteLength: 4 * GROWN });
    const x = new Float32Array(gsab);
    for (let i = 0; i < N; i++) x[i] = i + 0.5;
    const grow = () => {
      gsab.grow(4 * GROWN);
      new Float32Array(gsab).fill(-1, N);
    };
    return { x, grow };
  }

  // An instance whose scratch region is followed by an alloc() array that the caller keeps.
  function instance(options) {
    const fm = createFastmpSync(options);
    const kept = fm.alloc(Float32Array, 1 << 16).fill(7);
    return { fm, kept };
  }
  const untouched = (fm, kept) => fm.refresh(kept).every((v) => v === 7);

  test.each(BUILDS)('%s: pack() (its length read, then grown)', (_, options) => {
    const { fm, kept } = instance(options);
    const { x, grow } = growable();
    const expected = hex(fm.pack(new Float32Array(x))); // the N elements the call reads
    armed = { key: 'length', x, grow };
    const got = outcome(() => fm.pack(x));
    expect(armed).toBe(null); // (the grow ran)
    expect(x.length).toBe(GROWN);
    // On c9889a0: the copy of 512 KB ran over `kept` (its 7s became -1s), and the output was still N elements.
    expect({ got, untouched: untouched(fm, kept) }).toEqual({ got: { bytes: expected }, untouched: true });
  });

  test.each(BUILDS)('%s: packView() and packInto() (their byte length read where x is placed, then grown)', (_, options) => {
    const into = (fm, x) => {
      const target = new Uint8Array(256);
      return target.subarray(0, fm.packInto(x, target, 3));
    };
    for (const call of [(fm, x) => fm.packView(x).slice(), into]) {
      const { fm, kept } = instance(options);
      const { x, grow } = growable();
      const expected = outcome(() => call(fm, new Float32Array(x)));
      armed = { key: 'byteLength', x, grow };
      const got = outcome(() => call(fm, x));
      expect(armed).toBe(null);
      expect({ got, untouched: untouched(fm, kept) }).toEqual({ got: expected, untouched: true });
    }
  });

  test.each(BUILDS)('%s: grown far past the end of wasm memory: the elements read, not the engine\'s RangeError', (_, options) => {
    const fm = createFastmpSync(options);
    const gsab = new SharedArrayBuffer(4 * N, { maxByteLength: 64 << 20 });
    const x = new Float32Array(gsab).fill(2);
    const expected = hex(fm.pack(new Float32Array(x)));
    armed = { key: 'length', x, grow: () => gsab.grow(64 << 20) };
    expect(outcome(() => fm.pack(x))).toEqual({ bytes: expected }); // on c9889a0: RangeError "offset is out of bounds"
  });

  test.each(BUILDS)('%s: unchanged: a view that does not grow, and a fixed-length view of a growable buffer', (_, options) => {
    const { fm, kept } = instance(options);
    const { x, grow } = growable();
    const fixed = new Float32Array(x.buffer, 0, N);
    const expected = hex(fm.pack(new Float32Array(x)));
    expect(hex(fm.pack(x))).toBe(expected);
    armed = { key: 'length', x: fixed, grow };
    expect(hex(fm.pack(fixed))).toBe(expected);
    expect(untouched(fm, kept)).toBe(true);
  });
});
