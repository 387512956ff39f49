// The fastmp-wasm/msgpackr entry (js/msgpackr.js): once registered, msgpackr
// itself writes typed arrays (not Uint8Array / Buffer) as standard msgpack
// arrays, exactly the bytes fastmp's pack(x, { bin: false }) writes.
//
// msgpackr's extensions are process-wide (msgpackr #93), so the registering
// and the packing happen in child processes (`node -e`), which hand back the
// bytes msgpackr wrote. This worker never registers: its msgpackr is the
// unchanged reference for envelopes and the decoder. Expected bytes come from
// an independent writer (referenceArray) and the peers, never from the entry.

import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as msgpack from '@msgpack/msgpack';
import * as msgpackr from 'msgpackr';
import { beforeAll, describe, expect, test } from 'vitest';
import { createFastmpSync } from '../js/index.js';
import { KINDS } from '../js/kinds.js';
import { F32_SPECIAL_BITS, ROOT } from './helpers.js';
import { difference, python, referenceArray } from './messages-helpers.js';

const fastmp = createFastmpSync();

// The classes the entry must take over, found here independently of it: every
// element type that fastmp's pack() writes as a standard array (not a bin).
// (Float16Array too, where the engine has it: pack() writes its values as float 32s.)
const REGISTERED = [...KINDS.map((k) => k.Type), ...(globalThis.Float16Array ? [globalThis.Float16Array] : [])].filter((Type) => fastmp.pack(new Type(1))[0] === 0x91);
const isRegistered = (v) => REGISTERED.some((C) => v instanceof C);

const SIZES = [0, 1, 15, 16, 4096, 1 << 20];

/**
 * The messages packed on both sides: self-contained (its source text runs in
 * the child too), deterministic. Floats: every special bit pattern (signalling
 * and payload NaNs, -0, subnormals, integral values) then random bits; ints:
 * every smallest-form boundary then random values.
 */
function makeMessages(specials, sizes) {
  let s = 0x9e3779b9;
  const next = () => {
    s ^= s << 13; s >>>= 0; s ^= s >>> 17; s ^= s << 5; s >>>= 0;
    return s;
  };
  const f32 = (n) => {
    const bits = new Uint32Array(n);
    for (let i = 0; i < n; i++) bits[i] = i < specials.length ? specials[i] : next() % 4 === 0 ? specials[next() % specials.length] : next();
    return new Float32Array(bits.buffer);
  };
  const EDGES = [0, 1, 127, 128, 255, 256, 65535, 65536, 2147483647, -1, -32, -33, -128, -129, -32768, -32769, -2147483648];
  const i32 = (n) => {
    const x = new Int32Array(n);
    for (let i = 0; i < n; i++) x[i] = i < EDGES.length ? EDGES[i] : next() % 2 ? next() : (next() % 600) - 300;
    return x;
  };
  /** A typed array of n elements of random bytes, every third element a small value. */
  const random = (Type, n) => {
    const raw = new Uint8Array(n * Type.BYTES_PER_ELEMENT);
    for (let i = 0; i < raw.length; i++) raw[i] = next();
    const x = new Type(raw.buffer);
    const big = typeof x[0] === 'bigint';
    for (let i = 0; i < n; i += 3) x[i] = big ? BigInt((next() % 300) - 150) : (next() % 300) - 150;
    return x;
  };
  class Vec3 extends Float32Array {}
  const messages = sizes.map((n) => [`${n} elements`, {
    vec: f32(n), ids: i32(n), b: Uint8Array.from({ length: n }, (_, i) => i * 7), n: 5, s: 'x',
  }]);
  for (const n of [0, 15, 16, 300, 65536]) {
    messages.push([`every class, ${n} elements`, {
      f32: random(Float32Array, n), f64: random(Float64Array, n), i8: random(Int8Array, n), i16: random(Int16Array, n),
      i32: random(Int32Array, n), u16: random(Uint16Array, n), u32: random(Uint32Array, n), c8: random(Uint8ClampedArray, n),
      i64: random(BigInt64Array, n), u64: random(BigUint64Array, n), bytes: random(Uint8Array, n),
    }]);
  }
  messages.push(['nested, a subclass, a Map, a Buffer-free bin', [
    new Float64Array([-0, 0.1]), { deep: [new Int16Array([-1, 300, -32768]), new Uint8Array([1, 2])] },
    new Map([['m', new Uint32Array([7, 4294967295])], ['v', Vec3.of(1, 2, 3)]]), 'tail',
  ]]);
  messages.push(['a bare typed array', new Float32Array([1, -0, 2.5])]);
  return messages;
}

/**
 * Runs `body` in a fresh Node process (cwd: the package, so 'fastmp-wasm/msgpackr'
 * resolves through package.json "exports" as a user's import does), with msgpackr
 * imported and the entry imported, nothing registered yet. `body` sets `out`,
 * which comes back through JSON.
 */
function child(body) {
  const program = `
    import * as msgpackr from 'msgpackr';
    import { typedArrayClasses, useFastmpForTypedArrays } from 'fastmp-wasm/msgpackr';
    const makeMessages = ${makeMessages};
    const messages = makeMessages(${JSON.stringify(F32_SPECIAL_BITS)}, ${JSON.stringify(SIZES)});
    const b64 = (bytes) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
    const out = {};
    ${body}
    process.stdout.write(JSON.stringify(out));
  `;
  const stdout = execFileSync(process.execPath, ['--input-type=module', '-e', program], { cwd: ROOT, maxBuffer: 1 << 29, encoding: 'utf8' });
  return JSON.parse(stdout);
}

const fromB64 = (s) => new Uint8Array(Buffer.from(s, 'base64'));
const hexOf = (bytes) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');

/** The first index where two byte arrays differ ('' when equal), for readable failures. */
function byteDifference(got, want) {
  const a = Buffer.from(got.buffer, got.byteOffset, got.byteLength);
  const b = Buffer.from(want.buffer, want.byteOffset, want.byteLength);
  if (a.equals(b)) return '';
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return `${a.length} vs ${b.length} bytes, first difference at ${i}: ${a.subarray(i, i + 12).toString('hex')} vs ${b.subarray(i, i + 12).toString('hex')}`;
}

/**
 * What msgpackr must write once registered: what the unregistered msgpackr of
 * this worker writes for the value with each registered typed array replaced
 * by a placeholder string, with each placeholder's bytes replaced by the
 * independent writer's array. So the envelope is msgpackr's own, whatever its
 * habits (it writes objects with a map16 header by default).
 */
function expectedByMsgpackr(value, packr = msgpackr) {
  const arrays = [];
  const swap = (v) => {
    if (isRegistered(v)) {
      arrays.push(v);
      return `\u0000fastmp placeholder ${arrays.length - 1}\u0000`;
    }
    if (Array.isArray(v)) return v.map(swap);
    if (v instanceof Map) return new Map([...v].map(([k, x]) => [k, swap(x)]));
    if (v && v.constructor === Object) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, swap(x)]));
    return v;
  };
  const envelope = Buffer.from(packr.pack(swap(value)));
  const parts = [];
  let from = 0;
  arrays.forEach((x, i) => {
    const marker = Buffer.from(msgpack.encode(`\u0000fastmp placeholder ${i}\u0000`));
    const at = envelope.indexOf(marker, from);
    expect(at, `placeholder ${i} in msgpackr's envelope`).toBeGreaterThanOrEqual(0);
    parts.push(envelope.subarray(from, at), referenceArray(x));
    from = at + marker.length;
  });
  parts.push(envelope.subarray(from));
  return new Uint8Array(Buffer.concat(parts));
}

/**
 * The "preferred serialization" of the value (smallest headers), from a small
 * writer here and @msgpack/msgpack for keys and scalars: what msgpackr writes
 * with variableMapSize, and what @msgpack/msgpack writes where it writes the
 * same numbers.
 */
function expectedPreferred(value) {
  const header = (n, fix, w16) => (n < 16 ? [fix | n] : [w16, n >> 8, n & 0xff]);
  if (isRegistered(value)) return referenceArray(value);
  let parts;
  if (Array.isArray(value)) parts = [Uint8Array.from(header(value.length, 0x90, 0xdc)), ...value.map(expectedPreferred)];
  else if (value instanceof Map || value?.constructor === Object) {
    const entries = value instanceof Map ? [...value] : Object.entries(value);
    parts = [Uint8Array.from(header(entries.length, 0x80, 0xde)), ...entries.flatMap(([k, v]) => [msgpack.encode(k), expectedPreferred(v)])];
  } else return msgpack.encode(value);
  return new Uint8Array(Buffer.concat(parts));
}

/** Each registered typed array in a value: [path, array, the keys and indices that lead to it]. */
function typedArraysIn(value, steps = [], found = []) {
  if (isRegistered(value)) found.push([`$${steps.map((k) => (typeof k === 'number' ? `[${k}]` : `.${k}`)).join('')}`, value, steps]);
  else if (Array.isArray(value)) value.forEach((v, i) => typedArraysIn(v, [...steps, i], found));
  else if (value instanceof Map) for (const [k, v] of value) typedArraysIn(v, [...steps, k], found);
  else if (value?.constructor === Object) for (const [k, v] of Object.entries(value)) typedArraysIn(v, [...steps, k], found);
  return found;
}

/** '' when `got` (a peer's decoded array) holds the same numbers as x: Object.is, NaN == NaN, BigInt by value. */
function sameNumbers(got, x) {
  if (!Array.isArray(got)) return `not an Array but ${Object.prototype.toString.call(got)}`;
  if (got.length !== x.length) return `length ${got.length} vs ${x.length}`;
  for (let i = 0; i < x.length; i++) {
    const want = x[i];
    const ok = typeof want === 'bigint' ? BigInt(got[i]) === want : Number.isNaN(want) ? Number.isNaN(got[i]) : Object.is(got[i], want);
    if (!ok) return `[${i}]: ${got[i]} vs ${want}`;
  }
  return '';
}

const MESSAGES = makeMessages(F32_SPECIAL_BITS, SIZES);
let packed; // what the registered msgpackr wrote in the child, per message

beforeAll(() => {
  packed = child(`
    out.first = useFastmpForTypedArrays(msgpackr);
    out.classes = typedArrayClasses.map((C) => C.name);
    const preferred = new msgpackr.Packr({ useRecords: false, variableMapSize: true });
    out.messages = messages.map(([name, value]) => ({ name, pack: b64(msgpackr.pack(value)), preferred: b64(preferred.pack(value)) }));
  `);
  expect(packed.messages.map((m) => m.name)).toEqual(MESSAGES.map(([name]) => name));
});

test('this worker is not registered: its msgpackr writes a Float32Array as bin, so it is a fair reference', () => {
  expect(hexOf(msgpackr.pack(new Float32Array([1])))).toBe('c4040000803f');
});

test('the entry registers exactly the typed array classes that are not bytes (nine, and Float16Array where the engine has it)', () => {
  expect(packed.first).toBe(true);
  expect(packed.classes).toEqual(REGISTERED.map((C) => C.name));
});

describe('msgpackr writes standard arrays, byte for byte', () => {
  test.each(MESSAGES.map(([name], i) => [name, i]))('%s: msgpackr.pack is msgpackr\'s envelope with each typed array as the independent writer\'s array', (_, i) => {
    expect(byteDifference(fromB64(packed.messages[i].pack), expectedByMsgpackr(MESSAGES[i][1]))).toBe('');
  });

  test.each(MESSAGES.map(([name], i) => [name, i]))('%s: a Packr with variableMapSize writes the smallest-header message', (_, i) => {
    expect(byteDifference(fromB64(packed.messages[i].preferred), expectedPreferred(MESSAGES[i][1]))).toBe('');
  });

  test('the independent writer agrees with fastmp\'s pack(x) on every typed array here (the entry\'s promise)', () => {
    for (const [, value] of MESSAGES) {
      for (const [path, x] of typedArraysIn(value)) expect(byteDifference(fastmp.pack(x), referenceArray(x)), path).toBe('');
    }
  });

  test('where @msgpack/msgpack writes the same float32s (no integral values, no -0), its whole message is identical', () => {
    // @msgpack/msgpack's forceFloat32 still writes integral floats (and -0) as ints, and
    // canonicalises NaN; fractional values, Infinity and the canonical NaN it writes as float32.
    const vec = Float32Array.from({ length: 300 }, (_, i) => (i % 50 === 7 ? NaN : i % 50 === 9 ? -Infinity : (i - 150) / 7 + 0.01));
    const ids = Int32Array.from([0, -1, 127, 128, -33, 65536, -2147483648, 2147483647]);
    const message = { vec, ids, b: new Uint8Array([1, 2, 3]), n: 5, s: 'x' };
    const peer = msgpack.encode({ vec: Array.from(vec), ids: Array.from(ids), b: message.b, n: 5, s: 'x' }, { forceFloat32: true });
    const { bytes } = child(`
      useFastmpForTypedArrays(msgpackr);
      const vec = new Float32Array(new Uint8Array(Buffer.from('${Buffer.from(vec.buffer).toString('base64')}', 'base64')).buffer);
      const message = { vec, ids: Int32Array.from(${JSON.stringify(Array.from(ids))}), b: new Uint8Array([1, 2, 3]), n: 5, s: 'x' };
      out.bytes = b64(new msgpackr.Packr({ useRecords: false, variableMapSize: true }).pack(message));
    `);
    expect(byteDifference(fromB64(bytes), peer)).toBe('');
  });
});

describe('the peers read it back', () => {
  test.each(MESSAGES.map(([name], i) => [name, i]))('%s: msgpackr decodes the same numbers (as plain Arrays)', (_, i) => {
    const value = MESSAGES[i][1];
    const decoded = new msgpackr.Unpackr({ useRecords: false, int64AsType: 'bigint' }).unpack(fromB64(packed.messages[i].pack));
    const found = typedArraysIn(value);
    expect(found.length).toBeGreaterThan(0);
    for (const [path, x, steps] of found) expect(sameNumbers(steps.reduce((o, k) => (o instanceof Map ? o.get(k) : o[k]), decoded), x), path).toBe('');
  });

  test.each(SIZES.map((n, i) => [n, i]))('%i elements: Python\'s msgpack decodes vec as floats, ids as ints, b as bytes', (n, i) => {
    const { vec, ids, b } = MESSAGES[i][1];
    const got = JSON.parse(python(`
      m = msgpack.unpackb(sys.stdin.buffer.read(), raw=False)
      print(json.dumps({
        'keys': list(m),
        'vecFloats': all(type(v) is float for v in m['vec']),
        'vec': struct.pack('<%dd' % len(m['vec']), *m['vec']).hex(),
        'idsInts': all(type(v) is int for v in m['ids']),
        'ids': m['ids'],
        'b': m['b'].hex() if isinstance(m['b'], bytes) else repr(type(m['b'])),
        'n': m['n'], 's': m['s'],
      }))
    `, fromB64(packed.messages[i].pack)));
    expect(got.keys).toEqual(['vec', 'ids', 'b', 'n', 's']);
    expect(got.vecFloats).toBe(true);
    expect(got.idsInts).toBe(true);
    const pyVec = new Float64Array(new Uint8Array(Buffer.from(got.vec, 'hex')).buffer);
    expect(sameNumbers(Array.from(pyVec), vec)).toBe('');
    expect(got.ids).toEqual(Array.from(ids));
    expect(got.b).toBe(hexOf(b));
    expect([got.n, got.s]).toEqual([5, 'x']);
  });

  test.each(SIZES.map((n, i) => [n, i]))('%i elements: fastmp\'s decode by shape reads vec back as a Float32Array, bit for bit', (n, i) => {
    const message = MESSAGES[i][1];
    const decoded = fastmp.decode(fromB64(packed.messages[i].pack), { shape: { vec: Float32Array, ids: Int32Array } });
    expect(decoded.vec).toBeInstanceOf(Float32Array);
    expect(decoded.ids).toBeInstanceOf(Int32Array);
    expect(difference(decoded, message)).toBe(''); // typed arrays by raw bytes: signalling NaNs, payloads, -0
  });
});

test('registering twice is harmless: once per msgpackr, the second call registers nothing and returns false', () => {
  const out = child(`
    const calls = [];
    const spy = { addExtension: (extension) => calls.push(extension) };
    out.spy = [useFastmpForTypedArrays(spy), useFastmpForTypedArrays(spy), calls.length];
    out.spyClasses = calls.map((e) => e.Class.name);
    out.spyTypes = [...new Set(calls.map((e) => e.type))];
    out.real = [useFastmpForTypedArrays(msgpackr), useFastmpForTypedArrays(msgpackr)];
    const [, message] = messages[2];
    out.twice = b64(msgpackr.pack(message));
    try { useFastmpForTypedArrays({}); } catch (e) { out.bad = e.constructor.name + ': ' + e.message; }
  `);
  expect(out.spy).toEqual([true, false, 9]);
  expect(out.spyClasses.toSorted()).toEqual(REGISTERED.map((C) => C.name).toSorted());
  expect(out.spyTypes.length).toBe(1);
  expect(out.spyTypes[0] < 0 || out.spyTypes[0] > 255).toBe(true); // never an ext type byte msgpackr's decoder looks up
  expect(out.real).toEqual([true, false]);
  expect(byteDifference(fromB64(out.twice), expectedByMsgpackr(MESSAGES[2][1]))).toBe('');
  expect(out.bad).toMatch(/^TypeError: useFastmpForTypedArrays\(msgpackr\): pass the msgpackr module/);
});

test('a Packr that writes records takes positive fixints from 0x40 (0x20 with structs) for record ids: integer arrays write those numbers as uint 8, as msgpackr does, and read back', () => {
  const VALUES = [0, 31, 32, 63, 64, 100, 127, 128, 255, -1, -32, -33];
  const out = child(`
    const VALUES = ${JSON.stringify(VALUES)};
    const TYPES = [Int8Array, Int16Array, Int32Array, Uint16Array, Uint32Array, BigInt64Array, BigUint64Array];
    const make = (Type) => Type.from(VALUES.filter((v) => v >= 0 || !Type.name.startsWith('U') && !Type.name.startsWith('BigU')).filter((v) => Type !== Int8Array || v < 128), (v) => (Type.name.startsWith('Big') ? BigInt(v) : v));
    const plain = (x) => Array.from(x, Number);
    const unregistered = Object.fromEntries([{}, { structuredClone: true }, { useRecords: false }].map((o) => [JSON.stringify(o), TYPES.map((T) => b64(new msgpackr.Packr(o).pack({ id: 1, x: plain(make(T)), tail: 'end' })))]));
    const calls = [];
    useFastmpForTypedArrays({ addExtension: (e) => calls.push(e) });
    useFastmpForTypedArrays(msgpackr);
    out.cases = [];
    for (const options of Object.keys(unregistered)) { // (a Packr writes into the options it is given)
      const packr = new msgpackr.Packr(JSON.parse(options));
      TYPES.forEach((T, i) => {
        const bytes = packr.pack({ id: 1, x: make(T), tail: 'end' });
        let back;
        try { back = packr.unpack(bytes); back = { ...back, x: plain(back.x) }; } catch (e) { back = e.message; }
        out.cases.push({ options, type: T.name, bytes: b64(bytes), msgpackrs: unregistered[options][i], back, want: { id: 1, x: plain(make(T)), tail: 'end' } });
      });
    }
    // With a struct writer (msgpackr's hook for struct libraries), from 0x20.
    const int32 = calls.find((e) => e.Class === Int32Array);
    const target = new Uint8Array(16);
    int32.pack.call({ _writeStruct: () => {} }, Int32Array.of(31, 32, 64, -1), (size) => ({ target, position: 0, size }));
    out.structs = b64(target.subarray(0, 8));
  `);
  expect(out.cases.length).toBe(21);
  for (const c of out.cases) {
    expect(c.back, `${c.type} ${c.options}`).toEqual(c.want);
    // Numbers (not BigInts): the very bytes msgpackr writes for the same plain array.
    if (!c.type.startsWith('Big')) expect(byteDifference(fromB64(c.bytes), fromB64(c.msgpackrs)), `${c.type} ${c.options}`).toBe('');
  }
  expect(hexOf(fromB64(out.structs))).toBe('941fcc20cc40ff00');
});

test('an alloc() array that an earlier field\'s packing detached (wasm memory grew) is packed from where it lives, as refresh() finds it', () => {
  const out = child(`
    const fastmp = await import('fastmp-wasm');
    useFastmpForTypedArrays(msgpackr);
    const a = fastmp.alloc(Float32Array, 4);
    a.set([1, 2, 3, 4]);
    const before = fastmp.memoryStats().wasmMemory;
    const bytes = new msgpackr.Packr({ useRecords: false }).pack({ big: new Float64Array(1 << 20).fill(0.5), a });
    out.grew = fastmp.memoryStats().wasmMemory > before;
    out.a = Array.from(msgpackr.unpack(bytes).a);
    fastmp.free(fastmp.refresh(a));
    try { new msgpackr.Packr({ useRecords: false }).pack({ a }); } catch (e) { out.freed = e.code; }
  `);
  expect(out).toEqual({ grew: true, a: [1, 2, 3, 4], freed: 'FREED' });
});

test('Uint8Array, Buffer, Uint8ClampedArray, DataView and ArrayBuffer are written as before (bin), as fastmp writes bytes', () => {
  const bytes = Uint8Array.from({ length: 300 }, (_, i) => i);
  const values = [bytes, Buffer.from(bytes), new Uint8ClampedArray(bytes), new DataView(bytes.buffer, 3, 9), bytes.buffer.slice(0, 5), new Uint8Array(0)];
  const out = child(`
    useFastmpForTypedArrays(msgpackr);
    const bytes = Uint8Array.from({ length: 300 }, (_, i) => i);
    const values = [bytes, Buffer.from(bytes), new Uint8ClampedArray(bytes), new DataView(bytes.buffer, 3, 9), bytes.buffer.slice(0, 5), new Uint8Array(0)];
    out.values = values.map((v) => b64(msgpackr.pack(v)));
  `);
  expect(out.values.map((s) => hexOf(fromB64(s)))).toEqual(values.map((v) => hexOf(msgpackr.pack(v))));
  expect(out.values.map((s) => fromB64(s)[0])).toEqual([0xc5, 0xc5, 0xc5, 0xc4, 0xc4, 0xc4]);
  expect(hexOf(fromB64(out.values[2]))).toBe(hexOf(fastmp.pack(new Uint8ClampedArray(bytes))));
});

test('require(\'fastmp-wasm/msgpackr\') on Node 20: the CommonJS entry, ready on return, and its declarations for a CommonJS consumer', () => {
  const script = `
    const msgpackr = require('msgpackr');
    const plugin = require('fastmp-wasm/msgpackr');
    const fastmp = require('fastmp-wasm');
    console.log(plugin.useFastmpForTypedArrays(msgpackr), Buffer.from(msgpackr.pack(new Int16Array([1, -300]))).toString('hex'), fastmp.backend());`;
  const out = execFileSync(process.execPath, ['-e', script], { cwd: ROOT, encoding: 'utf8' }).trim().split(' ');
  expect(out.slice(0, 2)).toEqual(['true', hexOf(referenceArray(new Int16Array([1, -300])))]);
  expect(['simd', 'scalar']).toContain(out[2]);
});

test('process-wide, as documented: every Packr changes, moreTypes ones too; msgpackr\'s decoders of every ext type are unchanged', () => {
  const out = child(`
    const probe = () => Array.from({ length: 256 }, (_, t) => [[0xd4, t, 0], [0xc7, 1, t, 0]].map((bytes) => {
      try { const v = msgpackr.unpack(Uint8Array.from(bytes)); return 'value ' + Object.prototype.toString.call(v); } catch (e) { return 'error ' + e.message; }
    }).join(' / '));
    const x = new Float64Array([0.5, -0]);
    const moreTypes = new msgpackr.Packr({ moreTypes: true });
    out.before = [b64(moreTypes.pack(x)), b64(msgpackr.pack(x))];
    out.decodersBefore = probe();
    useFastmpForTypedArrays(msgpackr);
    out.after = [b64(moreTypes.pack(x)), b64(msgpackr.pack(x)), b64(new msgpackr.Packr({ structuredClone: true }).pack(x))];
    out.decodersAfter = probe();
    out.extStillRead = Object.prototype.toString.call(msgpackr.unpack(Buffer.from(out.before[0], 'base64')));
  `);
  const x = new Float64Array([0.5, -0]);
  expect(out.before.map((s) => hexOf(fromB64(s)))).toEqual([hexOf(new msgpackr.Packr({ moreTypes: true }).pack(x)), hexOf(msgpackr.pack(x))]);
  expect(hexOf(fromB64(out.before[0])).slice(0, 6)).toBe('c71174'); // ext 0x74 before registering
  expect(out.after.map((s) => hexOf(fromB64(s)))).toEqual(Array(3).fill(hexOf(referenceArray(x))));
  expect(out.decodersAfter).toEqual(out.decodersBefore);
  // The probe tells a registered type from a free one (0xfa is the entry's type's low byte).
  expect(out.decodersBefore[0x74]).toBe('value [object Int8Array] / value [object Int8Array]');
  expect(out.decodersAfter[0xfa]).toBe('error Unknown extension 250 / error Unknown extension type 250');
  expect(out.extStillRead).toBe('[object Float64Array]');
});

test('msgpackr\'s ESM and CommonJS builds are two copies: each is registered on its own', () => {
  const out = child(`
    const { createRequire } = await import('node:module');
    const cjs = createRequire(process.cwd() + '/package.json')('msgpackr');
    const x = new Int16Array([1, -300]);
    useFastmpForTypedArrays(msgpackr);
    out.cjsBefore = b64(cjs.pack(x));
    out.esm = b64(msgpackr.pack(x));
    out.registered = useFastmpForTypedArrays(cjs);
    out.cjsAfter = b64(cjs.pack(x));
  `);
  const x = new Int16Array([1, -300]);
  expect(hexOf(fromB64(out.cjsBefore))).toBe(hexOf(msgpackr.pack(x))); // bin: the ESM registration did not reach it
  expect(hexOf(fromB64(out.esm))).toBe(hexOf(referenceArray(x)));
  expect(out.registered).toBe(true);
  expect(hexOf(fromB64(out.cjsAfter))).toBe(hexOf(referenceArray(x)));
});

test('the declarations type-check for a consumer that passes msgpackr\'s module (tsc --strict, nodenext; ESM and CommonJS)', () => {
  const dir = mkdtempSync(join(ROOT, 'test', '.msgpackr-types-'));
  try {
    writeFileSync(join(dir, 'consumer.ts'), `
      import * as msgpackr from 'msgpackr';
      import { typedArrayClasses, useFastmpForTypedArrays } from 'fastmp-wasm/msgpackr';
      const registered: boolean = useFastmpForTypedArrays(msgpackr);
      const first: ArrayBufferView = new typedArrayClasses[0](2); // constructors of typed arrays
      // @ts-expect-error: the bytes stay bin, so no class is a Uint8ArrayConstructor
      const bytes: Uint8ArrayConstructor = typedArrayClasses[0];
      // @ts-expect-error: a module without addExtension
      useFastmpForTypedArrays({ pack: msgpackr.pack });
      export { registered, first, bytes };
    `);
    // msgpackr's declarations name Node's Buffer and 'stream'; there is no @types/node here.
    writeFileSync(join(dir, 'node-shim.d.ts'), `
      interface Buffer extends Uint8Array {}
      declare module 'stream' { export class Transform {} export class Readable {} }
    `);
    writeFileSync(join(dir, 'consumer-cjs.cts'), `
      import msgpackr = require('msgpackr');
      import plugin = require('fastmp-wasm/msgpackr');
      const registered: boolean = plugin.useFastmpForTypedArrays(msgpackr);
      const last = new plugin.typedArrayClasses[0](2); // constructors of typed arrays
      const length: number = last.length;
      export { registered, length };
    `);
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({
      compilerOptions: { strict: true, noEmit: true, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', lib: ['es2022', 'dom'], types: [], skipLibCheck: false },
      files: ['consumer.ts', 'consumer-cjs.cts', 'node-shim.d.ts'],
    }));
    let report = '';
    try {
      execFileSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', dir], { encoding: 'utf8' });
    } catch (e) {
      report = `${e.stdout}${e.stderr}`;
    }
    expect(report).toBe('');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
