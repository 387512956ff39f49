// audit-bare.test.js - the bare typed-array API (pack, unpack, packInto,
// packView, unpackFrom, the bool functions, alloc / free / refresh) against
// docs/typed-arrays.md, on every build. Each numbered describe() is a
// finding that failed on 76530ce; "(confirmed)" holds what was checked and
// found right that no other test covers.
import { describe, expect, test } from 'vitest';
import { createFastmpSync, pack, packBool, packBoolView, unpack, unpackBool } from '../js/index.js';
import { jsBelowFor } from '../js/crossovers.js';
import { KINDS } from '../js/kinds.js';
import { catchError } from './messages-helpers.js';

const BUILDS = [
  ['js', { backend: 'js' }],
  ['scalar', { backend: 'scalar', pureJs: 'never' }],
  ['simd', { backend: 'simd', pureJs: 'never' }],
  ['auto', {}],
  ['scalar auto', { backend: 'scalar' }],
].map(([name, options]) => [name, createFastmpSync(options)]);

/** What a call gave: its bytes, or everything its error says. */
function outcome(call) {
  try {
    const r = call();
    const v = r.value ?? r;
    return { end: r.end, bytes: Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('hex'), type: v.constructor.name };
  } catch (e) {
    return { error: e.constructor.name, code: e.code, index: e.index, offset: e.offset, value: e.value, needed: e.needed, message: e.message };
  }
}

describe('1: packBool() / packBoolView() of an array whose length is no array length: the call\'s TypeError, not the engine\'s (js/typed.js boolBytes)', () => {
  // A Proxy of an array may report any length. It sized `new Uint8Array(n)` as it was:
  // -1 was the engine's "Invalid typed array length: -1" (naming no function), 2n its
  // "Cannot convert a BigInt value to a number"; 1.5, NaN, null or an object packed an
  // array of another count than the loop read, an object's valueOf() called at every
  // step. The encoder refuses the same Proxy (test/audit-reentrancy.test.js 5).
  const LENGTHS = [-1, 1.5, NaN, 2n, Symbol('n'), null, '2', 2 ** 32];
  const lying = (length) => new Proxy([true, false, true], { get: (t, k) => (k === 'length' ? length : t[k]) });
  const cases = [['module', { packBool, packBoolView }], ...BUILDS];

  test.each(cases)('%s', (_, fm) => {
    for (const fn of ['packBool', 'packBoolView']) {
      for (const length of LENGTHS) {
        const err = outcome(() => fm[fn](lying(length)));
        expect([String(length), err.error, err.message?.startsWith(`fastmp: ${fn}() `)]).toEqual([String(length), 'TypeError', true]);
      }
      let calls = 0;
      const err = outcome(() => fm[fn](lying({ valueOf: () => (calls++, 2) })));
      expect([err.error, calls]).toEqual(['TypeError', 0]);
      // An honest Proxy of an array packs as the array does.
      expect(outcome(() => fm[fn](new Proxy([true, false], {}))).bytes).toBe('92c3c2');
    }
  });
});

test('bytes after the array: the message names the function that reads a prefix (unpackFrom, unpackBoolFrom)', () => {
  const tail = (bytes) => Uint8Array.of(...bytes, 0xc0);
  const messageOf = (fn) => {
    const err = catchError(fn);
    return `${err.code}: ${err.message}`;
  };
  expect(messageOf(() => unpack(tail(pack(new Int8Array([1]))), Int8Array))).toMatch(/^TRAILING: .*use unpackFrom to read a prefix/);
  expect(messageOf(() => unpackBool(tail(packBool([true]))))).toMatch(/^TRAILING: .*use unpackBoolFrom to read a prefix/);
});

describe('every build, at the crossovers (confirmed)', () => {
  // Every numeric form at the range edges of the element types, as the last element of
  // arrays of 1 element and of the V8 unpack crossovers +-1 of both backends (so that
  // `auto` takes each path): the pure-JS path, both wasm builds and both `auto` instances
  // give the same value, or the same error with the same message, `value` and `needed`.
  // (test/parity.test.js compares code, index, offset and value at its own sizes.)
  const be = (n, write) => {
    const b = new Uint8Array(n);
    write(new DataView(b.buffer));
    return [...b];
  };
  const ELEMENTS = [
    [0x7f], [0xe0], [0xcc, 0xff], [0xcd, 0xff, 0xff], [0xd0, 0x80], [0xd1, 0x80, 0x00],
    [0xce, ...be(4, (d) => d.setUint32(0, 2 ** 31))], [0xd2, ...be(4, (d) => d.setInt32(0, -(2 ** 31)))],
    [0xcf, ...be(8, (d) => d.setBigUint64(0, 2n ** 63n))], [0xcf, ...be(8, (d) => d.setBigUint64(0, 2n ** 64n - 2n ** 39n - 1n))],
    [0xd3, ...be(8, (d) => d.setBigInt64(0, -(2n ** 63n)))], [0xd3, ...be(8, (d) => d.setBigInt64(0, 2n ** 53n + 1n))],
    [0xcb, ...be(8, (d) => d.setFloat64(0, -0))], [0xcb, ...be(8, (d) => d.setFloat64(0, 2 ** 31))], [0xcb, ...be(8, (d) => d.setFloat64(0, 2.5))],
    [0xcb, ...be(8, (d) => d.setFloat64(0, 1e300))], [0xcb, ...be(8, (d) => d.setBigUint64(0, 0xfff4000000000001n))],
    [0xca, ...be(4, (d) => d.setFloat32(0, 255))], [0xca, ...be(4, (d) => d.setUint32(0, 0x7f800001))], [0xca, ...be(4, (d) => d.setFloat32(0, -Infinity))],
    [0xc0], [0xc1], [0xc3], [0xcb, 0x3f],
  ];
  const table = jsBelowFor('v8');

  test.each(KINDS.map((k) => [k.name, k]))('%s', (_, kind) => {
    const counts = new Set([1]);
    for (const backend of ['simd', 'scalar']) {
      const c = table[backend].unpack[kind.c];
      for (const n of [c - 1, c, c + 1]) if (n >= 1) counts.add(n);
    }
    let errors = 0;
    for (const n of counts) {
      for (const element of ELEMENTS) {
        const header = n <= 15 ? [0x90 | n] : [0xdc, n >> 8, n & 0xff];
        const bytes = Uint8Array.from([...header, ...new Array(n - 1).fill(0x01), ...element]);
        for (const options of [undefined, { integralFloats: true }]) {
          const outcomes = BUILDS.map(([name, fm]) => [name, outcome(() => fm.unpack(bytes, kind.Type, options))]);
          const reference = outcomes[0][1];
          for (const [name, got] of outcomes) expect({ name, n, element, ...got }).toEqual({ name, n, element, ...reference });
          if (reference.error) errors++;
        }
      }
    }
    expect(errors).toBeGreaterThan(0);
  });
});
