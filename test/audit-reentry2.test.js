// audit-reentry2.test.js - an audit of the state a call leaves after it
// throws, and of calls made from inside a call (js/codec/encoder*.js,
// decoder*.js, js/core.js, js/wasm/heap.js, js/io.js). The numbered describe()
// blocks are findings that fail on 50fbdea; the others hold what was confirmed
// right and no other test covers: a random driver that throws (and calls
// fastmp first) at random points of random values and messages, then checks
// the call's own result and the next calls against fresh pure-JS codecs and
// @msgpack/msgpack; and the engine's own stack overflow met at every depth of
// a call's chain, after which the same Encoder, Decoder and instance work on.
import * as msgpack from '@msgpack/msgpack';
import { describe, expect, test } from 'vitest';
import * as pure from '../js/codec/index.js';
import * as entry from '../js/node.js';
import { DecodeError, ExtData, ExtensionCodec, FastmpError, createFastmpSync, init } from '../js/node.js';
import { catchError, difference, hex } from './messages-helpers.js';
import { rng } from './rng.js';

await init();
const INSTANCES = [
  ['default', entry],
  ['scalar', createFastmpSync({ backend: 'scalar' })],
  ['js', createFastmpSync({ backend: 'js' })],
  ['pureJs never', createFastmpSync({ pureJs: 'never' })],
];
const ENTRIES = [['fastmp-wasm', entry], ['pure-JS codec', pure]];
const isOverflow = (err) => err instanceof RangeError && /call stack/i.test(err.message);

describe("1: the engine's stack overflow in the caller's own code passes through untouched (js/codec/path.js withPath)", () => {
  // withPath() made every RangeError "Maximum call stack size exceeded" that reached the top of
  // an encode or a decode a DEPTH FastmpError ("value nested too deep for the engine's stack
  // (lower maxDepth)", path '$'), whoever ran out of stack: a getter that recurses without end
  // (`get name() { return this.name; }`), an extension's encode or decode, a mapKeyConverter, in a
  // message one level deep under the default maxDepth. docs/errors.md: an extension's errors
  // other than FastmpErrors "pass through untouched"; path.js: "Errors of user code (extensions,
  // getters) pass through untouched"; @msgpack/msgpack throws the engine's RangeError. The
  // codec's own recursion past the stack (maxDepth Infinity) stays DEPTH (messages-hostile.test.js).
  const recurse = (n) => recurse(n + 1) + 1;
  const cases = (lib, peer) => [
    ['a getter', () => lib.encode({ id: 1, o: { get name() { return this.name; } } }), () => peer.encode({ id: 1, o: { get name() { return this.name; } } })],
    ['a Proxy trap', () => lib.encode([new Proxy({ a: 1 }, { ownKeys: () => recurse(0) })]), () => peer.encode([new Proxy({ a: 1 }, { ownKeys: () => recurse(0) })])],
    ['an extension\'s encode', () => {
      const codec = new lib.ExtensionCodec();
      codec.register({ type: 1, encode: (v) => (v instanceof Set ? recurse(0) : null), decode: (d) => d });
      return lib.encode({ s: new Set() }, { extensionCodec: codec });
    }, () => {
      const codec = new msgpack.ExtensionCodec();
      codec.register({ type: 1, encode: (v) => (v instanceof Set ? recurse(0) : null), decode: (d) => d });
      return msgpack.encode({ s: new Set() }, { extensionCodec: codec });
    }],
    ['an extension\'s decode', () => {
      const codec = new lib.ExtensionCodec();
      codec.register({ type: 1, encode: null, decode: () => recurse(0) });
      return lib.decode(Uint8Array.of(0x91, 0xd4, 1, 0), { extensionCodec: codec });
    }, () => {
      const codec = new msgpack.ExtensionCodec();
      codec.register({ type: 1, encode: null, decode: () => recurse(0) });
      return msgpack.decode(Uint8Array.of(0x91, 0xd4, 1, 0), { extensionCodec: codec });
    }],
    ['a mapKeyConverter', () => lib.decode(Uint8Array.of(0x81, 0xa1, 0x61, 1), { mapKeyConverter: (k) => recurse(k) }),
      () => peer.decode(Uint8Array.of(0x81, 0xa1, 0x61, 1), { mapKeyConverter: (k) => recurse(k) })],
  ];

  test.each(ENTRIES)('%s: the RangeError, as @msgpack/msgpack throws it; the next calls right', (_, lib) => {
    for (const [what, ours, theirs] of cases(lib, msgpack)) {
      expect(isOverflow(catchError(theirs)), what).toBe(true); // (the peer: the engine's error)
      const err = catchError(ours);
      // (50fbdea: FastmpError DEPTH at '$', "lower maxDepth")
      expect([what, err instanceof FastmpError, isOverflow(err)]).toEqual([what, false, true]);
      const value = { a: [1, 'x', { b: 2.5 }] };
      expect(hex(lib.encode(value))).toBe(hex(msgpack.encode(value)));
      expect(lib.decode(msgpack.encode(value))).toEqual(value);
    }
  });
});

describe('2: an Encoder whose call could not borrow a store is not left inside a call (js/codec/encoder.js session())', () => {
  test('the borrow throws (wasm memory refused to grow, say): the next call ends the encodeSharedRef() output, and dispose() does', () => {
    let refuse = true;
    const pools = { js: null, wasm: null };
    // (The pure-JS port with a pool that cannot be had once: what a store whose region cannot grow memory throws.)
    const port = { ...pure.jsPort, encoders: [], decoders: [], get pools() {
      if (refuse) throw new RangeError('WebAssembly.Memory.grow(): Maximum memory size exceeded');
      return pools;
    } };
    const encoder = new (pure.makeCodec(port).Encoder)();
    expect(catchError(() => encoder.encode({ a: 1 }))).toBeInstanceOf(RangeError);
    refuse = false;
    const first = encoder.encodeSharedRef('first');
    expect(msgpack.decode(first)).toBe('first');
    encoder.encodeSharedRef('second');
    expect(catchError(() => pure.decode(first))?.code).toBe('STALE');
    const last = encoder.encodeSharedRef('last');
    encoder.dispose();
    expect(catchError(() => pure.decode(last))?.code).toBe('STALE');
  });
});

describe('a random driver: throws and nested calls at random points, then the next calls (confirmed)', () => {
  const ROUNDS = 120;
  const throwers = [
    () => { throw new Error('hook'); },
    () => { throw new FastmpError('TYPE', 'from hook', -1, -1); },
    () => { throw new RangeError('hook range'); },
    () => { throw new DecodeError('hook decode'); },
    () => { throw new FastmpError('TRUNCATED', 'hook', -1, -1); },
  ];

  test.each(INSTANCES)('%s: encode, encodeSharedRef and encodeInto', (name, m) => {
    const r = rng(0x5eed + name.length);
    const other = INSTANCES[1][1];
    const failures = [];
    const fail = (...what) => failures.push(what.join(' '));
    let armed = null; // what the next hook reached runs
    const fire = () => {
      const a = armed;
      armed = null;
      a?.();
    };
    const codec = new ExtensionCodec();
    codec.register({ type: 9, encode: (v) => (v instanceof Set ? (fire(), Uint8Array.of(1, 2, 3)) : null), decode: (d) => d });
    const refOf = (v, opts) => new pure.Encoder({ extensionCodec: codec, ...opts }).encode(v);
    const plain = (depth) => {
      switch (r.int(depth > 3 ? 6 : 10)) {
        case 0: return r.int(300) - 100;
        case 1: return r.float() * 1e6 - 5e5;
        case 2: return 'abc\u00e9\u20ac'.repeat(r.int(3) === 0 ? r.int(60) : r.int(4));
        case 3: return r.int(2) === 0;
        case 4: return null;
        case 5: return r.int(3) === 0 ? new Float32Array(r.int(3) === 0 ? 3000 : r.int(20)).fill(r.float()) : new Uint8Array(r.int(70)).fill(7);
        case 6: return Array.from({ length: r.int(5) }, () => plain(depth + 1));
        case 7: return Object.fromEntries(Array.from({ length: r.int(5) }, (_, i) => [`k${i}`, plain(depth + 1)]));
        case 8: return new Date(r.int(2e12));
        default: return 2 ** 40 + r.int(1000);
      }
    };
    // [a value whose hooks fire(), the same value without hooks]
    const build = (depth) => {
      const k = r.int(depth > 3 ? 4 : 12);
      if (k < 4) {
        const v = plain(depth + 2);
        return [v, v];
      }
      if (k === 4) {
        const [h, p] = build(depth + 1);
        return [{ a: 1, get g() { fire(); return h; } }, { a: 1, g: p }];
      }
      if (k === 5) {
        const [h, p] = build(depth + 1);
        return [new Proxy({ x: h, y: 2 }, { get(t, key) { fire(); return t[key]; } }), { x: p, y: 2 }];
      }
      if (k === 6) {
        const [h, p] = build(depth + 1);
        return [new Proxy({ x: h }, { ownKeys(t) { fire(); return Reflect.ownKeys(t); } }), { x: p }];
      }
      if (k === 7) {
        const [h, p] = build(depth + 1);
        return [new Proxy([h, 3], { get(t, key) { if (key === 'length') fire(); return t[key]; } }), [p, 3]];
      }
      if (k === 8) return [new Set(), new Set()]; // (the codec's ext 9: fires)
      if (k === 9) {
        const data = Uint8Array.of(4, 5, 6, 7);
        return [new ExtData(5, () => { fire(); return data; }), new ExtData(5, () => data)];
      }
      if (k === 10) {
        const data = Uint8Array.of(8, 9);
        return [new ExtData({ valueOf() { fire(); return 6; } }, data), new ExtData(6, data)];
      }
      const pairs = Array.from({ length: r.int(4) + 1 }, () => build(depth + 1));
      return [pairs.map(([h]) => h), pairs.map(([, p]) => p)];
    };
    let current;
    let held = []; // encodeSharedRef() outputs of nested calls, and their bytes
    const inner = () => ({ q: new Float32Array(r.int(2) ? 5000 : 4).fill(0.25), s: 'y'.repeat(r.int(400)), d: new Date(5) });
    const same = (what, got, v, opts = current.opts) => {
      if (hex(got) !== hex(refOf(v, opts))) fail(name, what);
    };
    const nested = [
      ['same.encode', () => { const v = inner(); same('nested encode', current.encode(v), v); }],
      ['same.encodeSharedRef', () => {
        const v = inner();
        const out = current.encodeSharedRef(v);
        held.push([out, hex(out)]);
        same('nested encodeSharedRef', out, v);
      }],
      ['same.encodeInto', () => {
        const v = inner();
        const t = new Uint8Array(40000);
        same('nested encodeInto', t.subarray(3, current.encodeInto(v, t, 3)), v);
      }],
      ['same.dispose', () => current.dispose()],
      ['module encode', () => { const v = inner(); same('nested module encode', m.encode(v), v, {}); }],
      ['module encode, options', () => { const v = inner(); same('nested module encode', m.encode(v, { extensionCodec: codec }), v, {}); }],
      ['another instance', () => { const v = inner(); same('nested other instance', other.encode(v), v, {}); }],
      ['pack', () => { const x = new Float64Array(r.int(2) ? 1 << 16 : 5).fill(1.5); if (hex(m.pack(x)) !== hex(pure.encode(x))) fail(name, 'nested pack'); }],
      ['alloc, free', () => { if (name !== 'js') m.free(m.alloc(Float64Array, 1 << (10 + r.int(10))).fill(2)); }],
      ['packView', () => { if (name !== 'js') m.packView(new Float32Array(300).fill(3)); }],
      ['decode', () => { const v = inner(); if (difference(m.decode(refOf(v), { shape: { q: Float32Array } }), v)) fail(name, 'nested decode'); }],
    ];
    const optionSets = [{}, { typedArrays: 'bin' }, { typedArrays: 'ext' }, { sortKeys: true }, { ignoreUndefined: true }, { forceFloat32: true }, { maxDepth: 6 }, { useBigInt64: true }, { initialBufferSize: 1 }];
    for (let round = 0; round < ROUNDS; round++) {
      const opts = optionSets[r.int(optionSets.length)];
      if (current?.opts !== opts || r.int(2) === 0) {
        current = new m.Encoder({ extensionCodec: codec, ...opts });
        current.opts = opts;
      }
      const [hooked, twin] = build(0);
      const prev = current.encodeSharedRef({ prev: r.int(1000) }); // (valid until this round's call ends: read in it)
      let want;
      let wantErr;
      try {
        want = refOf({ v: twin, p: prev.slice() }, opts);
      } catch (e) {
        wantErr = e;
      }
      const kind = r.int(4); // nothing, throw, a nested call, a nested call then a throw
      const [nestedName, call] = nested[r.int(nested.length)];
      const thrower = throwers[r.int(throwers.length)];
      held = [];
      armed = [null, thrower, call, () => { call(); thrower(); }][kind];
      const how = r.int(3);
      const target = new Uint8Array(1 << 17);
      let got;
      let gotErr;
      try {
        if (how === 0) got = current.encode({ v: hooked, p: prev });
        else if (how === 1) got = current.encodeSharedRef({ v: hooked, p: prev }).slice();
        else got = target.slice(5, current.encodeInto({ v: hooked, p: prev }, target, 5));
      } catch (e) {
        gotErr = e;
      }
      const threw = armed === null && (kind === 1 || kind === 3);
      armed = null;
      const tag = `${name} round ${round} ${JSON.stringify(opts)} kind ${kind} ${nestedName} call ${how}:`;
      if (gotErr !== undefined) {
        if (!threw && wantErr?.code !== gotErr.code) fail(tag, 'unexpected error', gotErr.message);
      } else if (threw || wantErr !== undefined) {
        fail(tag, 'no error');
      } else if (hex(got) !== hex(want)) {
        fail(tag, 'bytes differ');
      }
      for (const [out, bytes] of held) if (hex(out) !== bytes) fail(tag, 'a nested encodeSharedRef() output changed');
      if (catchError(() => m.decode(prev))?.code !== 'STALE') fail(tag, 'the earlier output is not STALE once the call ended');
      // The next calls: the same Encoder, the module functions.
      const after = { a: [1, 'x'.repeat(r.int(100)), { b: new Date(7) }], c: new Uint8Array(300).fill(1), f: 2.5 };
      same(`${tag} next encode`, current.encode(after), after);
      same(`${tag} next encodeSharedRef`, current.encodeSharedRef(after), after);
      if (hex(m.encode(after)) !== hex(msgpack.encode(after))) fail(tag, 'next module encode');
    }
    expect(failures).toEqual([]);
  });

  test.each(INSTANCES)('%s: decode, decodeFrom and decodeMulti, reusing arrays or not, of every kind of input', (name, m) => {
    const r = rng(0xdec0 + name.length);
    const other = INSTANCES[1][1];
    const failures = [];
    const fail = (...what) => failures.push(what.join(' '));
    const SHAPE = { vec: Float32Array, ids: Int32Array, list: [Float64Array] };
    const typedIn = (v, out = []) => {
      if (ArrayBuffer.isView(v)) out.push(v);
      else if (v !== null && typeof v === 'object') for (const k of Object.keys(v)) typedIn(v[k], out);
      return out;
    };
    let armed = null;
    const fire = () => {
      const a = armed;
      armed = null;
      a?.();
    };
    const codec = new ExtensionCodec();
    codec.register({ type: 7, encode: (v) => (v instanceof Set ? Uint8Array.from(v) : null), decode: (d) => { fire(); return Array.from(d); } });
    const refCodec = new ExtensionCodec();
    refCodec.register({ type: 7, encode: null, decode: (d) => Array.from(d) });
    const len = () => (r.int(3) === 0 ? 300 + r.int(3000) : r.int(6));
    const any = (depth) => {
      switch (r.int(depth > 2 ? 5 : 8)) {
        case 0: return r.int(1000) - 500;
        case 1: return 'str'.repeat(r.int(20));
        case 2: return new Set([r.int(9), 1]);
        case 3: return r.float();
        case 4: return new Uint8Array(r.int(40)).fill(3);
        case 5: return Array.from({ length: r.int(4) }, () => any(depth + 1));
        case 6: return Object.fromEntries(Array.from({ length: r.int(4) }, (_, i) => [r.int(4) === 0 ? 'hk' : `k${i}`, any(depth + 1)]));
        default: return { hk: any(depth + 1) };
      }
    };
    const message = (n1 = len(), n2 = len(), n3 = len()) => ({
      a: any(0),
      vec: new Float32Array(n1).map((_, i) => i / 3),
      b: any(0),
      ids: new Int32Array(n2).map((_, i) => i * 77 - 5),
      list: [new Float64Array(n3).fill(r.float()), new Float64Array(r.int(3))],
      c: any(0),
    });
    const enc = new pure.Encoder({ extensionCodec: codec });
    const E = new m.Encoder({ extensionCodec: codec }); // whose encodeSharedRef() output may be the input
    const outcome = (fn) => {
      try {
        return { value: fn() };
      } catch (e) {
        return { error: `${e.code} ${e.path}` };
      }
    };
    let current;
    const nestedValues = [];
    const sameAs = (what, bytes, fn) => {
      const got = outcome(fn);
      if (got.value !== undefined) nestedValues.push(got.value);
      const d = difference(got, outcome(() => new pure.Decoder({ extensionCodec: refCodec, ...current.opts }).decode(bytes)));
      if (d) fail(name, what, d);
    };
    const nested = [
      ['same.decode', () => { const b = enc.encode(message()); sameAs('nested decode', b, () => current.decode(b)); }],
      ['same.decodeFrom', () => {
        const b = enc.encode(message());
        const t = new Uint8Array(b.length + 9);
        t.set(b, 9);
        sameAs('nested decodeFrom', b, () => current.decodeFrom(t, 9).value);
      }],
      ['same.decodeMulti', () => {
        const b = enc.encode(message());
        sameAs('nested decodeMulti', b, () => {
          const both = [...current.decodeMulti(new Uint8Array([...b, ...b]))];
          nestedValues.push(both[1]);
          return both[0];
        });
      }],
      ['module decode', () => {
        const b = enc.encode(message());
        if (difference(m.decode(b, { extensionCodec: refCodec, shape: SHAPE }), pure.decode(b, { extensionCodec: refCodec, shape: SHAPE }))) fail(name, 'nested module decode');
      }],
      ['another instance', () => {
        const b = enc.encode(message());
        if (difference(other.decode(b, { extensionCodec: refCodec, shape: SHAPE }), pure.decode(b, { extensionCodec: refCodec, shape: SHAPE }))) fail(name, 'nested other instance');
      }],
      ['E.encodeSharedRef', () => E.encodeSharedRef(message())],
      ['E.dispose', () => E.dispose()],
      ['encode', () => m.encode({ f: new Float32Array(r.int(2) ? 1 << 16 : 3).fill(1) })],
      ['alloc, free', () => { if (name !== 'js') m.free(m.alloc(Float64Array, 1 << (10 + r.int(10))).fill(9)); }],
      ['packView', () => { if (name !== 'js') m.packView(new Int32Array(500).fill(-1)); }],
    ];
    const optionSets = [{}, { shape: SHAPE }, { shape: SHAPE, reuseTypedArrays: true }, { shape: SHAPE, reuseTypedArrays: true }, { maxDepth: 3 }, { maxStrLength: 30 }, { shape: SHAPE, maxArrayLength: 1000 }];
    let last = null; // the latest value the next-call check decoded with `current` (its arrays are the kept ones)
    for (let round = 0; round < ROUNDS; round++) {
      const opts = optionSets[r.int(optionSets.length)];
      if (current?.opts !== opts || r.int(3) === 0) {
        const keys = r.int(3) === 0 ? { mapKeyConverter: (k) => { if (k === 'hk') fire(); return k; } } : {};
        current = new m.Decoder({ extensionCodec: codec, ...opts, ...keys });
        current.opts = opts;
        last = null;
      }
      const value = message();
      const bytes = enc.encode(value);
      const want = outcome(() => new pure.Decoder({ extensionCodec: refCodec, ...opts }).decode(bytes));
      const where = r.int(5);
      let input = bytes;
      if (where === 1) {
        input = new Uint8Array(new SharedArrayBuffer(bytes.length));
        input.set(bytes);
      } else if (where === 2 && name !== 'js') {
        input = m.alloc(Uint8Array, bytes.length);
        input.set(bytes);
      } else if (where === 3) {
        input = E.encodeSharedRef(value);
      } else if (where === 4 && last !== null && opts.reuseTypedArrays) { // in an array this Decoder returned, and will write into
        const kept = typedIn(last).find((t) => t.byteLength >= bytes.length);
        if (kept !== undefined) {
          input = new Uint8Array(kept.buffer, kept.byteOffset, bytes.length);
          input.set(bytes);
        }
      }
      const kind = r.int(4);
      const [nestedName, call] = nested[r.int(2) === 0 ? r.int(3) : r.int(nested.length)]; // (half of them into the same Decoder)
      const thrower = throwers[r.int(throwers.length)];
      nestedValues.length = 0;
      armed = [null, thrower, call, () => { call(); thrower(); }][kind];
      const how = r.int(3);
      let got;
      try {
        if (how === 0) got = { value: current.decode(input) };
        else if (how === 1) got = { value: current.decodeFrom(input, 0).value };
        else got = { value: [...current.decodeMulti(input)] };
      } catch (e) {
        got = { error: `${e.code} ${e.path}` };
        if (e instanceof TypeError) fail(name, round, 'a TypeError', e.message);
      }
      const threw = armed === null && (kind === 1 || kind === 3);
      armed = null;
      const tag = `${name} round ${round} ${JSON.stringify(opts)} input ${where} kind ${kind} ${nestedName} call ${how}:`;
      if (how === 2 && got.value !== undefined) got.value = got.value.length === 1 ? got.value[0] : got.value;
      if (threw) {
        if (got.error === undefined) fail(tag, 'no error');
      } else {
        const d = difference(got, want);
        if (d) fail(tag, 'differs', d);
        // No typed array handed out twice: in the value, and in it and a nested call's.
        const mine = typedIn(got.value);
        if (new Set(mine).size !== mine.length) fail(tag, 'one array twice in a value');
        for (const v of nestedValues) for (const t of typedIn(v)) if (mine.includes(t)) fail(tag, 'a nested call\'s value shares an array');
      }
      if (where === 2 && name !== 'js') m.free(input);
      // The next calls: the same Decoder, the module functions.
      const next = enc.encode(message(3, 4, 300));
      const after = outcome(() => current.decode(next));
      const d = difference(after, outcome(() => new pure.Decoder({ extensionCodec: refCodec, ...opts }).decode(next)));
      if (d) fail(tag, 'next decode', d);
      last = after.value ?? null;
      if (opts.reuseTypedArrays && last !== null && current.decode(next).vec !== last.vec) fail(tag, 'no longer reusing its arrays');
      const plain = msgpack.encode({ a: [1, 'x', { b: 2.5 }], s: new Uint8Array(3) });
      if (difference(m.decode(plain), msgpack.decode(plain))) fail(tag, 'next module decode');
    }
    expect(failures).toEqual([]);
  });
});

describe("the engine's stack overflow at every depth of a call (confirmed)", () => {
  // A recursion to the engine's stack limit calls fastmp at every depth on its way back, so
  // that the overflow meets each function of the call's chain (the store's borrowing, session's
  // finally, the heap's allocator, the decoder's leave()). Afterwards the same Encoder, Decoder
  // (a reusing one too) and instance give what a fresh one gives.
  const ladder = (fn) => {
    const down = () => {
      try {
        down();
      } catch {} // eslint-disable-line no-empty
      try {
        fn();
      } catch {} // eslint-disable-line no-empty
    };
    down();
  };

  test.each(INSTANCES)('%s', (name, m) => {
    const value = { a: [1, 'x'.repeat(40)], f: new Float32Array(400).fill(0.5), d: new Date(3) };
    const bytes = m.encode(value);
    const encoder = new m.Encoder();
    const decoder = new m.Decoder({ shape: { f: Float32Array } });
    const reusing = new m.Decoder({ shape: { f: Float32Array }, reuseTypedArrays: true });
    const first = reusing.decode(bytes).f;
    ladder(() => encoder.encode(value));
    ladder(() => encoder.encodeSharedRef(value));
    ladder(() => m.encode(value));
    ladder(() => decoder.decode(bytes));
    ladder(() => reusing.decode(bytes));
    ladder(() => m.decode(bytes, { shape: { f: Float32Array } }));
    ladder(() => [...decoder.decodeMulti(bytes)]);
    const want = pure.encode(value);
    expect(hex(encoder.encode(value))).toBe(hex(want));
    expect(hex(m.encode(value))).toBe(hex(want));
    const shared = encoder.encodeSharedRef(value);
    expect(hex(shared)).toBe(hex(want));
    encoder.encode(1);
    expect(catchError(() => m.decode(shared)).code).toBe('STALE'); // (the Encoder is not left inside a call)
    expect(difference(decoder.decode(bytes), pure.decode(bytes, { shape: { f: Float32Array } }))).toBe('');
    expect(reusing.decode(bytes).f).toBe(first); // (still reusing: not left inside a call)
    // The heap's stores and regions: a message that holds two stores at once (a nested encode).
    const codec = new ExtensionCodec();
    const inner = { s: 'y'.repeat(70000), f: new Float64Array(9000).fill(2.5) };
    codec.register({ type: 1, encode: (v) => (v instanceof Set ? m.encode(inner) : null), decode: (d) => d });
    const outer = { a: 'z'.repeat(50000), set: new Set(), b: new Float32Array(20000).fill(1.5) };
    expect(hex(new m.Encoder({ extensionCodec: codec }).encode(outer))).toBe(hex(new pure.Encoder({ extensionCodec: codec }).encode(outer)));
  });
});
