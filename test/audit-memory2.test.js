// audit-memory2.test.js - memory a long-running process keeps after one large
// call, measured in a fresh `node --expose-gc` (JS memory after GC, or a
// WeakRef to the caller's buffer), never timed. Each describe() is a finding
// that failed on c9e544a:
// 1. A stream's tail (js/codec/stream.js Tail) kept the capacity of the
//    largest value a chunk ever cut, for the stream's life: one 32 MB value
//    early in a long-lived decodeMultiStream() pinned 32 MB while the stream
//    went on with small values (whole in their chunks, or cut too).
//    @msgpack/msgpack's decodeMultiStream() lets its joined buffer go at the
//    next chunk.
// 2. A Decoder kept between calls (the one decode(bytes, { shape }) keeps, a
//    caller's `new Decoder({ shape })`) held the caller's whole input alive
//    after a shaped decode whose typed-array field the kernels read: its
//    FieldReader (js/io.js), which Decoder.leave() did not drop, viewed it
//    (js/codec/decoder.js leave(), whose comment promises "a Decoder kept
//    between calls holds no message alive").
// 3. An instance's pool of stores kept each as large as the largest message
//    it ever held, for the instance's life: on a pure-JS instance
//    (createFastmp({ backend: 'js' }), the pure-JS codec, a page that may not
//    compile wasm) one 32 MB encode() pinned 32 MB of JS memory, where
//    @msgpack/msgpack's encode() keeps nothing; on a wasm instance its region
//    stayed reserved, and alloc() grew memory beside it (js/codec/stores.js
//    StorePool giveBack()). (audit-bounds holds the same rule for the JS
//    store used before the kernels load.)
// The last describe() holds what the fixes must keep right and no other test
// covers: streams of values over a MB, each cut by chunks.
import { spawnSync } from 'node:child_process';
import { isDeepStrictEqual } from 'node:util';
import * as msgpack from '@msgpack/msgpack';
import { describe, expect, test } from 'vitest';
import { Decoder, decode, decodeMultiStream, encode, init } from '../js/node.js';
import { chunksOf, collect } from './messages-helpers.js';
import { ROOT } from './helpers.js';

/** Runs `body` (an ES module's text, with `settle()` and MB) in a fresh `node --expose-gc` from the repository's root; returns what it prints last, as JSON. */
function child(body) {
  const prelude = `
    const MB = 1 << 20;
    /** JS memory (ArrayBuffers) after GC and the backing stores' sweeper (a turn of the event loop); WeakRefs cleared. */
    const settle = async () => { for (let i = 0; i < 4; i++) { gc(); await new Promise((r) => setTimeout(r, 10)); } return process.memoryUsage().arrayBuffers; };
  `;
  const run = spawnSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', prelude + body], { cwd: ROOT, encoding: 'utf8', maxBuffer: 1 << 20 });
  if (run.status !== 0) throw new Error(`child failed (${run.status}): ${run.stderr}`);
  return JSON.parse(run.stdout.trim().split('\n').at(-1));
}

describe('1: a stream lets go of a large value\'s tail once the value is read (js/codec/stream.js)', () => {
  // A 32 MB bin cut by the chunks (1 MB, then the rest), then 16 small values: each its own
  // chunk, or cut by chunks of 5 bytes. Measured in the loop's body at the last small value:
  // the stream is open, the bin and every chunk of it are garbage.
  const program = (fn, small) => `
    import * as fastmp from './js/node.js';
    import * as msgpack from '@msgpack/msgpack';
    const fn = ${fn};
    let big = fastmp.encode(new Uint8Array(32 * MB));
    const chunks = [big.slice(0, MB), big.slice(MB)];
    big = null;
    const values = Array.from({ length: 16 }, (_, i) => ({ i, s: 'abc' }));
    const tail = values.map((v) => fastmp.encode(v));
    if (${small} === 0) chunks.push(...tail);
    else {
      const all = Uint8Array.from(tail.flatMap((b) => Array.from(b)));
      for (let at = 0; at < all.length; at += ${small}) chunks.push(all.slice(at, at + ${small}));
    }
    const before = (await settle()) - 33 * MB; // (less the chunks still to come)
    async function* source() { while (chunks.length > 0) yield chunks.shift(); }
    let after;
    const got = [];
    for await (const v of fn(source())) {
      got.push(v instanceof Uint8Array ? v.length : v.i);
      if (v.i === 15) after = await settle();
    }
    console.log(JSON.stringify({ got, kept: after - before }));
  `;
  const cases = [
    ['@msgpack/msgpack decodeMultiStream (the behaviour to match)', '(s) => msgpack.decodeMultiStream(s)'],
    ['fastmp decodeMultiStream', '(s) => fastmp.decodeMultiStream(s)'],
    ['pure-JS codec decodeMultiStream', '(s) => fastmp.createFastmpSync({ backend: "js" }).decodeMultiStream(s)'],
  ].flatMap(([name, fn]) => [[`${name}, small values a chunk each`, fn, 0], [`${name}, small values cut by 5-byte chunks`, fn, 5]]);
  test.each(cases)('%s: the stream, open, keeps well under the 32 MB value', (name, fn, small) => {
    const { got, kept } = child(program(fn, small));
    expect(got).toEqual([32 << 20, ...Array.from({ length: 16 }, (_, i) => i)]);
    expect(kept).toBeLessThan(8 << 20); // was 33 MB on c9e544a (fastmp)
  });
});

describe('2: a Decoder kept between calls holds no shaped input alive (js/codec/decoder.js leave())', () => {
  // A 20 MB message whose Float32Array field the kernels read (js/io.js FieldReader). The
  // caller drops its input and the output: the input's buffer must be collectable.
  const program = (make) => `
    import * as fastmp from './js/node.js';
    const results = {};
    for (const backend of ['simd', 'scalar', 'js']) {
      const m = await fastmp.createFastmp({ backend });
      const decode = ${make};
      let input = m.encode({ id: 1, v: new Float32Array(4 << 20).fill(1.5) });
      const ref = new WeakRef(input.buffer);
      let out = decode(input);
      const ok = out.id === 1 && out.v.length === 4 << 20 && out.v[5] === 1.5;
      input = null;
      out = null;
      await settle();
      results[backend] = { ok, collected: ref.deref() === undefined };
    }
    console.log(JSON.stringify(results));
  `;
  const cases = [
    ['decode(bytes, { shape }) (the Decoder it keeps for those options)', '(b) => m.decode(b, { shape: SHAPE })'],
    ['a kept new Decoder({ shape })', '((d) => (b) => d.decode(b))(new m.Decoder({ shape: SHAPE }))'],
    ['a kept Decoder\'s decodeFrom()', '((d) => (b) => d.decodeFrom(b).value)(new m.Decoder({ shape: SHAPE }))'],
  ];
  test.each(cases)('%s: the input is garbage once the caller drops it, on every backend', (_, make) => {
    const got = child(program(`(() => { const SHAPE = { v: Float32Array }; return ${make}; })()`));
    const want = { ok: true, collected: true };
    expect(got).toEqual({ simd: want, scalar: want, js: want }); // simd and scalar: collected false on c9e544a
  });
});

describe('3: an instance\'s pool keeps no store of a large message\'s size (js/codec/stores.js StorePool)', () => {
  const program = (make) => `
    import * as fastmp from './js/node.js';
    import * as codec from './js/codec/index.js';
    const m = ${make};
    m.encode({ a: 0 });
    const before = await settle();
    let out = m.encode({ s: 'x'.repeat(32 * MB) }); // a 32 MB message
    const size = out.length;
    out = null;
    const bytes = m.encode({ a: 1 }); // the instance goes on with small messages
    const after = await settle();
    console.log(JSON.stringify({ size, small: Array.from(bytes), kept: after - before }));
  `;
  test.each([
    ['createFastmp({ backend: "js" })', 'await fastmp.createFastmp({ backend: "js" })'],
    ['the pure-JS codec (js/codec/index.js)', 'codec'],
  ])('%s: one 32 MB encode() does not pin 32 MB for the instance\'s life (as @msgpack/msgpack\'s encode())', (_, make) => {
    const got = child(program(make));
    expect(got.size).toBeGreaterThan(32 << 20);
    expect(got.small).toEqual(Array.from(msgpack.encode({ a: 1 })));
    expect(got.kept).toBeLessThan(8 << 20); // was 32 MB on c9e544a
  });

  test.each(['simd', 'scalar'])('a %s instance: the region of wasm memory a 32 MB message took is given back, for alloc() to use', (backend) => {
    const got = child(`
      import * as fastmp from './js/node.js';
      const m = fastmp.createFastmpSync({ backend: '${backend}' });
      m.encode({ f: new Float32Array(64) }); // (the pool's store is a region of wasm memory)
      const size = m.encode({ f: new Float32Array(8 * MB) }).length; // a 32 MB message
      m.encode({ a: 1 }); // the instance goes on with small messages
      const before = m.memoryStats().wasmMemory;
      m.alloc(Uint8Array, 8 * MB); // (and the scratch alloc() reserves to pack it: 24 MB in all)
      console.log(JSON.stringify({ size, grew: m.memoryStats().wasmMemory - before }));
    `);
    expect(got.size).toBeGreaterThan(32 << 20);
    expect(got.grew).toBe(0); // on c9e544a the store kept its region: alloc() grew memory
  });
});

await init();

describe('what the fixes must keep right: values over a MB, one after another, each cut by the chunks', () => {
  // Each value goes through the tail, which is let go of after each; the values after it
  // begin in the chunk that ended it.
  const values = [
    new Uint8Array(1.25 * 2 ** 20).map((_, i) => i * 7),
    'é'.repeat(600_000) + 'z',
    { id: 3, v: new Float32Array(250_000).map((_, i) => i / 4) },
    Array.from({ length: 250_000 }, (_, i) => (i % 3 === 0 ? i : -i)),
    7,
    new Uint8Array(2 ** 20 + 3).fill(9),
  ];
  const parts = values.map((v) => encode(v));
  const bytes = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  parts.reduce((at, p) => (bytes.set(p, at), at + p.length), 0);
  const want = parts.map((p) => decode(p));
  test.each([[65_536], [1_048_573]])('decodeMultiStream, chunks of %i bytes', async (size) => {
    const got = await collect(decodeMultiStream(chunksOf(bytes, [size])));
    expect(got.length).toBe(want.length);
    for (let i = 0; i < want.length; i++) expect(isDeepStrictEqual(got[i], want[i]), `value ${i}`).toBe(true);
  });
  test('decodeArrayStream with a shape, reusing its arrays, chunks of 262 147 bytes', async () => {
    const messages = [1, 2, 3].map((id) => ({ id, v: new Float32Array(250_000 + id).fill(id / 2) }));
    const array = encode(messages); // (each message's typed array a standard array)
    const decoder = new Decoder({ shape: { v: Float32Array }, reuseTypedArrays: true });
    const got = [];
    for await (const m of decoder.decodeArrayStream(chunksOf(array, [262_147]))) got.push({ id: m.id, v: m.v.slice() });
    expect(isDeepStrictEqual(got, messages)).toBe(true);
  });
});
