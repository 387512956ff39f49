// kinds.test.js - js/kinds.js, the one list of element types on the JS side:
// each kind's facts agree with the engine's typed array, and every lookup
// finds every kind (the per-call switches are written out by hand, so a kind
// added to the list but not to a switch fails here). Its C twin is checked
// against it by test/c-interface.test.js.
import { expect, test } from 'vitest';
import { BOOL, KINDS, KIND_OF_EXT, KIND_OF_NAME, KIND_OF_TYPE, TYPE_NAMES, kindOfName, kindOfType } from '../js/kinds.js';
import { intRange } from './helpers.js';

test('each kind is at its index, with its constructor\'s name and element size; BOOL comes after them', () => {
  KINDS.forEach((k, i) => {
    expect([k.index, k.name, k.bytes]).toEqual([i, k.Type.name, k.Type.BYTES_PER_ELEMENT]);
    expect(Object.isFrozen(k)).toBe(true);
  });
  expect(BOOL.index).toBe(KINDS.length);
  expect(TYPE_NAMES.split(', ')).toEqual(KINDS.map((k) => k.name));
});

test('every kind has the properties of every other, in the same order (one object shape)', () => {
  for (const k of [...KINDS, BOOL]) expect(Object.keys(k)).toEqual(Object.keys(KINDS[0]));
});

test('an integer kind\'s min and max are its typed array\'s range; floats are flagged and hold fractions', () => {
  for (const k of KINDS) {
    const probe = new k.Type(1);
    if (k.float) {
      probe[0] = 0.5;
      expect(probe[0], k.name).toBe(0.5);
      expect([k.min, k.max, k.big]).toEqual([0, 0, false]);
      continue;
    }
    expect(k.big, k.name).toBe(typeof probe[0] === 'bigint');
    expect([BigInt(k.min), BigInt(k.max)], k.name).toEqual(intRange(k.Type));
  }
});

test('every lookup finds every kind: by constructor, by brand name, by msgpackr ext code', () => {
  for (const k of KINDS) {
    expect(kindOfType(k.Type), k.name).toBe(k);
    expect(kindOfName(k.name), k.name).toBe(k);
    expect(KIND_OF_TYPE.get(k.Type)).toBe(k);
    expect(KIND_OF_NAME.get(k.name)).toBe(k);
    expect(KIND_OF_EXT.get(k.ext)).toBe(k);
  }
  expect(new Set(KINDS.map((k) => k.ext)).size).toBe(KINDS.length); // codes are distinct
  for (const other of [Array, DataView, Object, undefined]) expect(kindOfType(other)).toBeUndefined();
  for (const other of ['Array', 'DataView', 'Float16Array', 'boolean', undefined]) expect(kindOfName(other)).toBeUndefined();
});
