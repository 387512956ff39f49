// audit-promises2.test.js - the second audit of what returns a promise or an
// async iterator (init, createFastmp, the stream decoders) and of what a load
// in the background does (js/core.js, js/loader.js, js/siblings.js). The
// numbered describe() is a finding that failed on 59c446b:
// 1. A promise given to init() / createFastmp() (options.wasm, stringsWasm:
//    "a (promise of a) fetch Response", js/index.d.ts WasmSource) was first
//    looked at when its turn came (js/core.js settleGivenNow() awaits them one
//    after another), or never (an earlier one failed; the options refused by
//    the Core). One that rejected meanwhile was an unhandled rejection: Node
//    (whose default is --unhandled-rejections=throw) ended the process, though
//    the app awaited init() in a try; a page logged it. Promise.all() observes
//    every promise it is given at once, and so must a function that takes
//    several.
// The last describe() holds what was confirmed and no other test covers: the
// web ReadableStream reader (js/codec/stream.js readerIterable(), for engines
// whose streams are not async iterable) lets go of the stream's lock on every
// way out, and a load in the background that fails is no unhandled rejection.
import { describe, expect, test } from 'vitest';
import { decodeArrayStream, decodeAsync, decodeMultiStream, encode } from '../js/index.js';
import { runNode } from './helpers.js';


/** n turns of the event loop (no wall clock). */
const TURNS = 'const turns = async (n) => { for (let i = 0; i < n; i++) await new Promise((r) => setImmediate(r)); };';

describe('1: a promise given to init() / createFastmp() that rejects is that call\'s rejection, never an unhandled one (js/core.js readInitOptions, settleGivenNow)', () => {
  // Each case records the call's outcome and every 'unhandledRejection' the process saw.
  const cases = [
    ['createFastmp({ wasm: [a promise still pending, one that rejects] }): the second rejects while the first is awaited', `
      const slow = (async () => { await turns(3); return pack; })();
      const call = fm.createFastmp({ wasm: [slow, Promise.reject(new Error('offline'))] });`, 'rejected: offline'],
    ['init({ wasm: a promise still pending, stringsWasm: one that rejects })', `
      const slow = (async () => { await turns(3); return pack; })();
      const call = fm.init({ wasm: slow, stringsWasm: Promise.reject(new Error('offline')) });`, 'rejected: offline'],
    ['createFastmp({ wasm: [bytes that do not compile, a promise that rejects later] }): the second is never awaited', `
      let fail;
      const later = new Promise((_, reject) => { fail = reject; });
      const call = fm.createFastmp({ wasm: [Uint8Array.of(1, 2, 3), later] });
      call.catch(() => {}).then(() => fail(new Error('offline')));`, 'rejected: CompileError'],
    ["init({ backend: 'js', wasm: a promise that rejects later }): options refused before the promise is looked at", `
      let fail;
      const later = new Promise((_, reject) => { fail = reject; });
      const call = fm.init({ backend: 'js', wasm: later });
      call.catch(() => {}).then(() => fail(new Error('offline')));`, 'rejected: TypeError'],
  ];

  test.each(cases)('%s', (_, body, outcome) => {
    const script = `
      import { readFileSync } from 'node:fs';
      const fm = await import('./js/index.js');
      const unhandled = [];
      process.on('unhandledRejection', (reason) => unhandled.push(String(reason)));
      ${TURNS}
      const pack = readFileSync('./dist/fastmp-pack-simd.wasm');
      ${body}
      let out;
      try { await call; out = 'resolved'; } catch (e) { out = 'rejected: ' + (e.message === 'offline' ? e.message : e.name); }
      await turns(10);
      console.log(JSON.stringify({ out, unhandled }));`;
    expect(runNode(script)).toBe(JSON.stringify({ out: outcome, unhandled: [] }));
  });

  test('without a listener, Node does not end the process of an app that awaits the call in a try', () => {
    const script = `
      import { readFileSync } from 'node:fs';
      const fm = await import('./js/index.js');
      ${TURNS}
      const slow = (async () => { await turns(3); return readFileSync('./dist/fastmp-pack-simd.wasm'); })();
      try { await fm.init({ wasm: [slow, Promise.reject(new Error('offline'))] }); console.log('resolved'); } catch (e) { console.log('caught ' + e.message); }`;
    expect(runNode(script)).toBe('caught offline');
  });
});

describe('confirmed', () => {
  const wire = Uint8Array.from([...encode([1, 2]), ...encode('three'), ...encode({ four: 4 })]);

  /** A web ReadableStream of `chunks`, made as an engine whose streams are not async iterable has it (stream.js readerIterable() reads it). */
  function webStream(chunks, { error } = {}) {
    const state = { cancelled: false };
    let i = 0;
    const stream = new ReadableStream({
      pull(controller) {
        if (i < chunks.length) controller.enqueue(chunks[i++]);
        else if (error) controller.error(error);
        else controller.close();
      },
      cancel() { state.cancelled = true; },
    }, { highWaterMark: 0 });
    Object.defineProperty(stream, Symbol.asyncIterator, { value: undefined });
    return { stream, state };
  }

  test('a web ReadableStream read by getReader(): the lock is released on every way out, and the stream cancelled only when left early', async () => {
    const parts = [wire.subarray(0, 2), wire.subarray(2, 5), wire.subarray(5)];
    const ends = {};
    // to its end
    let { stream, state } = webStream(parts);
    const all = [];
    for await (const v of decodeMultiStream(stream)) all.push(v);
    expect(all).toEqual([[1, 2], 'three', { four: 4 }]);
    ends.end = [stream.locked, state.cancelled];
    // left early (break)
    ({ stream, state } = webStream(parts));
    for await (const v of decodeMultiStream(stream)) { void v; break; }
    ends.break = [stream.locked, state.cancelled];
    // the consumer's throw() at a yield
    ({ stream, state } = webStream(parts));
    const it = decodeMultiStream(stream);
    await it.next();
    await expect(it.throw(new Error('mine'))).rejects.toThrow('mine');
    ends.throw = [stream.locked, state.cancelled];
    // a decode error (TRAILING after decodeAsync()'s value; a TAG in an array)
    ({ stream, state } = webStream(parts));
    await expect(decodeAsync(stream)).rejects.toMatchObject({ code: 'TRAILING' });
    ends.trailing = [stream.locked, state.cancelled];
    ({ stream, state } = webStream([Uint8Array.of(0x92, 1), Uint8Array.of(0xc1)]));
    await expect((async () => { for await (const v of decodeArrayStream(stream)) void v; })()).rejects.toMatchObject({ code: 'TAG' });
    ends.tag = [stream.locked, state.cancelled];
    // the stream errors inside a value: its own error, as it is
    const error = new Error('network');
    ({ stream, state } = webStream([wire.subarray(0, 2)], { error }));
    await expect(decodeAsync(stream)).rejects.toBe(error);
    ends.errored = [stream.locked, state.cancelled];
    // return() before the first next(): the stream never touched
    ({ stream, state } = webStream(parts));
    await decodeMultiStream(stream).return();
    ends.unstarted = [stream.locked, state.cancelled];
    expect(ends).toEqual({
      end: [false, false], break: [false, true], throw: [false, true], trailing: [false, true], tag: [false, true],
      errored: [false, false], unstarted: [false, false],
    });
  });

  test('next() called again before the last settles: the values in order, each once', async () => {
    const { stream } = webStream([wire.subarray(0, 1), wire.subarray(1, 4), wire.subarray(4)]);
    const it = decodeMultiStream(stream);
    const got = await Promise.all([it.next(), it.next(), it.next(), it.next(), it.next()]);
    expect(got).toEqual([
      { value: [1, 2], done: false }, { value: 'three', done: false }, { value: { four: 4 }, done: false },
      { value: undefined, done: true }, { value: undefined, done: true },
    ]);
  });

  test('a load in the background that fails (no file, HTTP 404, not wasm) is kept for init(), never an unhandled rejection; the calls run in pure JS', () => {
    // What a page meets, served from Node by a finder of the test's own (js/loader.js): nothing synchronous.
    const script = `
      const { createInstanceSync, CORE } = await import('./js/instances.js');
      const unhandled = [];
      process.on('unhandledRejection', (reason) => unhandled.push(String(reason)));
      ${TURNS}
      const js = createInstanceSync(null, { backend: 'js' });
      const big = Float32Array.from({ length: 5000 }, (_, i) => i / 3);
      const hex = (b) => Buffer.from(b).toString('hex');
      const out = [];
      for (const [name, serve] of [
        ['missing', async () => { throw new TypeError('Failed to fetch'); }],
        ['404', async () => new Response('no', { status: 404 })],
        ['html', async () => new Response('<!doctype html>', { headers: { 'content-type': 'text/html' } })],
      ]) {
        const fm = createInstanceSync({ findSync: () => null, find: serve });
        const same = hex(fm.pack(big)) === hex(js.pack(big)) && hex(fm.encode({ big })) === hex(js.encode({ big }))
          && fm.decode(js.encode({ big }), { shape: { big: Float32Array } }).big.length === 5000 && fm.decodeBMP(js.encodeBMP('é'.repeat(5000))).length === 5000;
        const core = fm[CORE];
        for (let n = 0; n < 100000 && ['pack', 'unpack', 'strings'].some((m) => core.failed[m] === null); n++) await turns(1);
        out.push(name + ':' + same + ':' + ['pack', 'unpack', 'strings'].map((m) => core.failed[m]?.name).join('/') + ':' + fm.backend());
      }
      await turns(10);
      console.log(JSON.stringify({ out, unhandled }));`;
    expect(JSON.parse(runNode(script))).toEqual({
      out: ['missing:true:TypeError/TypeError/TypeError:js', '404:true:Error/Error/Error:js', 'html:true:CompileError/CompileError/CompileError:js'],
      unhandled: [],
    });
  });
});
