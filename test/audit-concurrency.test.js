// audit-concurrency.test.js - an audit of fastmp under server traffic: many
// requests in flight at once, their async work interleaving at every await.
// Stream decodes (decodeAsync, decodeMultiStream / decodeStream,
// decodeArrayStream; module-level, on shared Decoders, on instances) run over
// sources whose chunks arrive with random splits and random delays, between
// synchronous encode / decode / pack / unpack / encodeSharedRef / packView
// calls of other requests; streams error, are cancelled, aborted or abandoned
// mid-value. Every value is checked against a sequential decode of the same
// bytes, every error against what its own stream must give, and typed arrays
// handed out are checked again later (docs/messages.md "Decoding without
// garbage" says which may change: a stream's value's arrays until the next
// value is asked for). The numbered describe() is a finding that failed on
// 48d9f27; the last is the traffic harness (confirmed right, bar that one),
// also run inside a worker_threads Worker.
import { Readable, addAbortSignal } from 'node:stream';
import { readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { describe, expect, test } from 'vitest';
import * as entry from '../js/node.js';
import { Decoder, createFastmp, encode, init } from '../js/node.js';
import { createInstanceSync } from '../js/instances.js';

await init();

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('1: a stream\'s chunk that lies in a typed array its reusing Decoder returned is read in place, and another request\'s decode() writes over it (js/codec/decoder.js forStream)', () => {
  // docs/messages.md "Inputs read from a copy": an input "in a typed array that a
  // reuseTypedArrays Decoder returned (that Decoder writes into it) ... is copied once for what
  // the call reads: the whole input for decode(), decodeMulti() and a stream's chunk".
  // decodeMulti() copies it; a stream decodes with a clone of the Decoder (forStream()), whose
  // set of kept buffers is its own, empty: the chunk was read in place, after loop bodies in
  // which that Decoder's decode() (the same request's, or another's between the awaits) wrote
  // the next envelope into it. An envelope protocol: { p: Uint8Array } by shape, its payload a
  // run of messages of the same shape.
  const shape = { p: Uint8Array };
  const run = (...ps) => new Uint8Array(ps.flatMap((p) => [...encode({ p: Uint8Array.from(p) })]));
  const payload = run([1, 1], [2, 2], [3, 3]);
  const other = run([9, 9], [8, 8], [7, 7]); // (the next envelope: a payload of the same length)

  test.each([
    ['decodeMulti() (copies it)', (d, bytes) => d.decodeMulti(bytes)],
    ['decodeStream()', async function* (d, bytes) { yield* d.decodeStream((async function* () { yield bytes; })()); }],
    ['decodeArrayStream()', async function* (d, bytes) { yield* d.decodeArrayStream((async function* () { yield Uint8Array.of(0x93); yield bytes; })()); }],
  ])('%s of an envelope\'s payload, the next envelope decoded in the loop body', async (_, values) => {
    const decoder = new Decoder({ shape, reuseTypedArrays: true });
    const envelope = decoder.decode(encode({ p: payload }));
    const got = [];
    for await (const value of values(decoder, envelope.p)) {
      got.push(Array.from(value.p));
      await turn();
      decoder.decode(encode({ p: other })); // (another request's, on the shared Decoder)
    }
    expect(got).toEqual([[1, 1], [2, 2], [3, 3]]);
  });
});

/**
 * The traffic harness: self-contained (it is also the source of a Worker's
 * code), given the fastmp module `lib`, Node's stream helpers and a plan.
 * Returns { failures, counts }.
 */
async function traffic(lib, { Readable, addAbortSignal }, plan) {
  const { seed, requests, concurrency, instances } = plan;
  const failures = [];
  const counts = {};
  const count = (what) => { counts[what] = (counts[what] ?? 0) + 1; };
  const fail = (what) => { if (failures.length < 25) failures.push(what); };

  // ---- seeded randomness (xorshift32, as test/rng.js) -----------------------------------------
  let s = seed >>> 0 || 1;
  const next = () => {
    s ^= s << 13; s >>>= 0; s ^= s >>> 17; s ^= s << 5; s >>>= 0;
    return s;
  };
  const int = (n) => Math.floor((next() / 4294967296) * n);
  const pick = (list) => list[int(list.length)];

  // ---- deep equality: -0, NaN, float bits, typed arrays by type and bytes ---------------------
  const raw = (x) => new Uint8Array(x.buffer, x.byteOffset, x.byteLength);
  function diff(a, b, path = '$') {
    if (typeof a !== typeof b) return `${path}: ${typeof a} vs ${typeof b}`;
    if (typeof a !== 'object' || a === null || b === null) return Object.is(a, b) ? '' : `${path}: ${String(a)} vs ${String(b)}`;
    if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return `${path}: ${a.constructor?.name} vs ${b.constructor?.name}`;
    if (a instanceof Date) return Object.is(a.getTime(), b.getTime()) ? '' : `${path}: dates differ`;
    if (a instanceof lib.ExtData) return a.type === b.type ? diff(a.data, b.data, `${path}.data`) : `${path}: ext types differ`;
    if (ArrayBuffer.isView(a)) {
      const x = raw(a);
      const y = raw(b);
      if (x.length !== y.length) return `${path}: ${x.length} vs ${y.length} bytes`;
      for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return `${path}: byte ${i} differs`;
      return '';
    }
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    if (ka.join('\u0000') !== kb.join('\u0000')) return `${path}: keys ${ka} vs ${kb}`;
    for (const k of ka) {
      const d = diff(a[k], b[k], `${path}.${k}`);
      if (d) return d;
    }
    return '';
  }
  const MARK = [0xa4, 0x6d, 0x61, 0x72, 0x6b, 0xa4, 0x4d, 0x41, 0x52, 0x4b]; // "mark": "MARK"
  const indexOf = (bytes, pattern, from) => {
    for (let i = from; i <= bytes.length - pattern.length; i++) if (pattern.every((b, j) => bytes[i + j] === b)) return i;
    return -1;
  };
  const sameBytes = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);

  // ---- delays ----------------------------------------------------------------------------------
  const pause = (kind = pick(['none', 'micro', 'micro', 'immediate', 'immediate', 'timer'])) => {
    if (kind === 'none') return undefined;
    if (kind === 'micro') return Promise.resolve();
    if (kind === 'immediate') return new Promise((resolve) => setImmediate(resolve));
    return new Promise((resolve) => setTimeout(resolve, int(3)));
  };
  const WAIT = 20000; // a generous bound on any one wait: reaching it is a hang
  const bounded = (promise, what) => {
    let timer;
    const timeout = new Promise((_, reject) => { timer = setTimeout(() => reject(new Error(`hang: ${what}`)), WAIT); });
    return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
  };

  // ---- what the messages hold, and the decoders' options ------------------------------------
  class Point {
    constructor(x, y) { this.x = x; this.y = y; }
  }
  const inner = new lib.Decoder(); // (an extension decodes its payload with a shared Decoder)
  const codec = new lib.ExtensionCodec();
  codec.register({
    type: 7,
    encode: (v, ctx) => (v instanceof Point ? lib.encode([v.x, v.y, ctx.name]) : null),
    decode: (data, type, ctx) => ({ point: ctx.inner.decode(data), by: ctx.name }),
  });
  const encodeContext = { name: 'writer' };
  const ctx = (name) => ({ name, inner });
  const keyCache = new Map();
  const keyDecoder = {
    canBeCached: (n) => n <= 16,
    decode(bytes, p, n) {
      const id = String.fromCharCode(...bytes.subarray(p, p + n));
      let key = keyCache.get(id);
      if (key === undefined) keyCache.set(id, (key = new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(p, p + n))));
      return key;
    },
  };
  const mapKeyConverter = (key) => (typeof key === 'number' ? `#${key}` : key);
  const SHAPE = {
    vec: Float32Array,
    ids: Int32Array,
    frames: [{ t: Float64Array, q: Int16Array }],
    meta: lib.optional(Float64Array),
  };
  const CONFIGS = [
    { name: 'plain', opts: {} },
    { name: 'shaped', opts: { shape: SHAPE } },
    { name: 'reuse', opts: { shape: SHAPE, reuseTypedArrays: true }, reuse: true },
    { name: 'ext+converter', opts: { extensionCodec: codec, context: ctx('a'), mapKeyConverter } },
    { name: 'ext+keyDecoder+shape', opts: { extensionCodec: codec, context: ctx('b'), keyDecoder, shape: SHAPE } },
    { name: 'reuse+ext+converter', opts: { shape: SHAPE, reuseTypedArrays: true, extensionCodec: codec, context: ctx('c'), mapKeyConverter }, reuse: true },
  ];
  const without = (opts) => { const { reuseTypedArrays, ...rest } = opts; return rest; };

  const LENGTHS = [0, 3, 3, 3, 16, 100, 1536, 1536];
  const f32 = (n) => Float32Array.from({ length: n }, () => Math.fround((int(2000) - 1000) / 8));
  function message(k) {
    const n = pick(LENGTHS);
    const m = {
      id: k,
      vec: f32(n),
      ids: Int32Array.from({ length: int(2) ? n : 3 }, () => next() | 0),
      frames: Array.from({ length: int(3) }, () => ({ t: Float64Array.of(k / 7, -0), q: Int16Array.from({ length: pick([2, 40]) }, () => int(65536) - 32768) })),
      mark: 'MARK',
      name: 'é'.repeat(int(3) === 0 ? 200 : int(20)),
      blob: Uint8Array.from({ length: pick([0, 5, 300]) }, () => int(256)),
      when: new Date(1700000000000 + k),
      at: new Point(k, -k),
    };
    if (int(2)) m.meta = Float64Array.of(k, 0.5);
    if (int(3) === 0) m.nums = new Map([[1, 'one'], [k + 2, 'more']]);
    return m;
  }
  const POOL = Array.from({ length: 48 }, (_, k) => message(k));
  const encodeOptions = { extensionCodec: codec, context: encodeContext };
  const POOL_BYTES = POOL.map((m) => lib.encode(m, encodeOptions));

  const INSTANCES = [['default', lib], ...instances];
  // Per instance: a Decoder per configuration, shared by every request; a shared Encoder.
  const shared = new Map(INSTANCES.map(([name, inst]) => [name, {
    decoders: CONFIGS.map((c) => new inst.Decoder(c.opts)),
    encoder: new inst.Encoder(encodeOptions),
  }]));
  // The sequential truth: a fresh Decoder of the same options (no reuse), on the whole bytes.
  const truth = (inst, config) => new inst.Decoder(without(config.opts));

  // ---- held values: typed arrays handed out must keep their bytes ------------------------------
  const held = [];
  const hold = (value, want, where) => held.push({ value, want, where });
  const checkHeld = (when) => {
    for (const { value, want, where } of held) {
      const d = diff(value, want);
      if (d) { fail(`${where}: a value handed out changed (${when}): ${d}`); return; }
    }
  };

  // ---- sources -------------------------------------------------------------------------------
  /** Random cuts of `bytes`: [from, to) each chunk. */
  function cutsOf(bytes) {
    const cuts = [];
    for (let at = 0; at < bytes.length;) {
      const n = Math.min(bytes.length - at, pick([1, 2, 7, 64, 300, 1000, 5000, bytes.length]));
      cuts.push([at, at + n]);
      at += n;
    }
    return cuts;
  }
  /**
   * A source of `bytes` in `cuts`, each chunk after a random delay and in a
   * random form, in a container ('gen' an async generator, 'web' a
   * ReadableStream, 'node' a Readable, 'reader' an iterable over a reader
   * the test holds); `stop` ('throw' | 'end' | 'hang') at chunk `stopAt`.
   * Returns { source, closed, hung (resolves when it hangs), thrown, reader, cuts, ... }.
   */
  function makeSource(bytes, { container, stop = null, stopAt = Infinity, signal, cuts = cutsOf(bytes) }) {
    const forms = container === 'gen' ? ['slice', 'view', 'refill', 'arraybuffer', 'numbers', 'shared-ref'] : ['slice', 'view', 'arraybuffer', 'numbers'];
    const refill = new Uint8Array(bytes.length);
    const own = new lib.Encoder();
    const state = { closed: false, hung: null, encoder: own, live: null, stopAt };
    const hang = {};
    state.hung = new Promise((resolve) => { hang.open = resolve; });
    const chunkAt = (i) => {
      const [from, to] = cuts[i];
      const part = bytes.subarray(from, to);
      const form = pick(forms);
      if (form === 'slice') return part.slice();
      if (form === 'view') return part;
      if (form === 'refill') { refill.fill(0xc1); refill.set(part); return refill.subarray(0, part.length); }
      if (form === 'arraybuffer') return part.slice().buffer;
      if (form === 'numbers' && part.length <= 64) return Array.from(part);
      if (form === 'shared-ref') {
        const out = own.encodeSharedRef(part); // (a bin: the chunk is its payload, in the encoder's buffer)
        state.live = part.length;
        return out.subarray(out.length - part.length);
      }
      return part.slice();
    };
    async function* generate() {
      try {
        for (let i = 0; i < cuts.length; i++) {
          if (i === stopAt) {
            if (stop === 'throw') throw state.thrown = new Error(`source failure ${seed}/${i}`);
            if (stop === 'end') return;
            if (stop === 'hang') { hang.open(); await new Promise(() => {}); }
          }
          await pause();
          yield chunkAt(i);
        }
      } finally {
        state.closed = true;
      }
    }
    let source;
    if (container === 'gen') {
      source = generate();
    } else if (container === 'node') {
      source = Readable.from(generate(), { objectMode: true });
      if (signal !== undefined) addAbortSignal(signal, source);
    } else {
      const it = generate();
      const web = new ReadableStream({
        async pull(controller) {
          const r = await it.next();
          if (r.done) controller.close();
          else controller.enqueue(r.value);
        },
        async cancel() { await it.return(); },
      }, { highWaterMark: 0 });
      if (container === 'web') {
        source = web;
      } else { // 'reader': an iterable of the caller's over a reader it holds, which another request may cancel
        const reader = web.getReader();
        state.reader = reader;
        source = { [Symbol.asyncIterator]: () => ({ next: () => reader.read(), return: async () => ({ done: true }) }) };
      }
    }
    state.source = source;
    state.cuts = cuts;
    return state;
  }

  // ---- the synchronous work of other requests, between awaits ---------------------------------
  const inits = [];
  function syncWork(where) {
    const [instName, inst] = pick(INSTANCES);
    const { decoders, encoder } = shared.get(instName);
    const k = int(POOL.length);
    const bytes = POOL_BYTES[k];
    const which = int(CONFIGS.length);
    const config = CONFIGS[which];
    const op = pick(['decode', 'decode', 'module-decode', 'encode', 'shared-ref', 'pack', 'packView', 'decodeMulti', ...(plan.reinit && inits.length < 4 ? ['init'] : [])]);
    count(`sync ${op}`);
    const label = `${where} sync ${op} on ${instName}/${config.name} #${k}`;
    try {
      if (op === 'init') { // (a new default instance, installed while requests are in flight on the old one)
        inits.push(lib.init(pick([{ backend: 'scalar' }, { backend: 'simd', pureJs: 'never' }, undefined])));
      } else if (op === 'decode' || op === 'module-decode') {
        const got = op === 'decode' ? decoders[which].decode(bytes) : inst.decode(bytes, without(config.opts));
        const want = truth(inst, config).decode(bytes);
        const d = diff(got, want);
        if (d) fail(`${label}: ${d}`);
        else if (!(op === 'decode' && config.reuse)) hold(got, want, label); // (a reusing Decoder's arrays are valid until its next decode)
      } else if (op === 'encode') {
        if (!sameBytes(inst.encode(POOL[k], encodeOptions), bytes)) fail(`${label}: other bytes`);
      } else if (op === 'shared-ref') {
        const out = encoder.encodeSharedRef(POOL[k]);
        if (!sameBytes(out, bytes)) fail(`${label}: other bytes`);
        const back = decoders[which].decode(out); // (a live output as the input: read from a copy)
        const d = diff(back, truth(inst, config).decode(bytes));
        if (d) fail(`${label}, decoded again: ${d}`);
      } else if (op === 'pack' || op === 'packView') {
        const x = POOL[k].vec;
        const want = lib.pack(x);
        const packed = op === 'pack' ? inst.pack(x) : inst.packView(x); // (a packView() output: valid until the next call)
        if (!sameBytes(packed, want)) fail(`${label}: other bytes`);
        const back = inst.unpack(packed, Float32Array);
        const d = diff(back, x);
        if (d) fail(`${label}, unpacked: ${d}`);
        else hold(back, x.slice(), label);
      } else {
        const two = new Uint8Array([...bytes, ...POOL_BYTES[(k + 1) % POOL.length]]);
        const got = [...decoders[which].decodeMulti(two)];
        const want = [...truth(inst, config).decodeMulti(two)];
        if (got.length !== 2) fail(`${label}: ${got.length} values`);
        else if (config.reuse) { // (the first value's arrays are valid until the second is produced)
          const d = diff(got[1], want[1]);
          if (d) fail(`${label}: ${d}`);
        } else {
          const d = diff(got, want);
          if (d) fail(`${label}: ${d}`);
          else hold(got, want, label);
        }
      }
    } catch (err) {
      if (op === 'packView' && err?.code === 'NOT_READY' && instName.includes('background')) count('packView before the kernels'); // (as documented)
      else fail(`${label}: threw ${err?.code ?? ''} ${err?.message}`);
    }
  }

  // ---- one streaming request -------------------------------------------------------------------
  const APIS = ['decodeAsync', 'decodeStream', 'decodeArrayStream', 'module decodeAsync', 'module decodeMultiStream', 'module decodeArrayStream'];
  const FATES = ['ok', 'ok', 'ok', 'ok', 'corrupt', 'throw', 'end', 'break', 'abort', 'cancel', 'abandon'];

  async function streamRequest(id) {
    const [instName, inst] = pick(INSTANCES);
    const which = int(CONFIGS.length);
    const config = CONFIGS[which];
    const decoder = shared.get(instName).decoders[which];
    const api = pick(APIS);
    const one = api.endsWith('decodeAsync');
    const array = api.endsWith('decodeArrayStream');
    let fate = pick(FATES);
    if (one && fate === 'break') fate = 'ok';
    const container = fate === 'abort' ? 'node' : fate === 'cancel' ? 'reader' : pick(['gen', 'gen', 'gen', 'web', 'node']);
    const label = `request ${id} (seed ${seed}): ${api} on ${instName}/${config.name}, ${fate}, ${container}`;
    count(`stream ${fate}`);
    count(`api ${api}`);

    // The values and their bytes; where each value starts.
    const ks = Array.from({ length: one ? 1 : 1 + int(4) }, () => int(POOL.length));
    const parts = ks.map((k) => POOL_BYTES[k]);
    const header = array ? Array.from(lib.encode(new Array(parts.length).fill(0))).slice(0, parts.length < 16 ? 1 : 3) : [];
    let bytes = new Uint8Array([...header, ...parts.flatMap((p) => Array.from(p))]);
    const starts = [];
    for (let at = header.length, i = 0; i < parts.length; at += parts[i].length, i++) starts.push(at);
    const check = truth(inst, config);
    const want = one ? [check.decode(bytes)] : array ? parts.map((p) => check.decode(p)) : [...check.decodeMulti(bytes)]; // (a shape applies to each element)

    // What must end the stream, and how.
    let expectError = null; // (err) => '' when err is the one this stream must fail with
    let bad = -1; // the value at fault
    const controller = new AbortController();
    let source;
    if (fate === 'corrupt') {
      bad = int(parts.length);
      const start = starts[bad];
      const mark = indexOf(bytes, MARK, start) + 6; // the 'MARK' str of value `bad`: not UTF-8 now
      bytes = bytes.slice();
      if (int(2)) bytes[start] = 0xc1;
      else bytes[mark] = 0xff;
      // (What decode() of that value alone says: its code, offset and path, under the element's index in an array.)
      let alone;
      try { check.decode(bytes.subarray(start, start + parts[bad].length)); } catch (err) { alone = err; }
      const path = array ? alone.path.replace(/^\$/, `$[${bad}]`) : alone.path;
      expectError = (err) => (err?.code === alone.code && err.streamOffset === start && err.offset === alone.offset && err.path === path ? '' : `${err?.code} at ${err?.streamOffset}+${err?.offset} ${err?.path}, not ${alone.code} at ${start}+${alone.offset} ${path}`);
      source = makeSource(bytes, { container });
    } else {
      const stop = fate === 'abandon' ? 'hang' : fate === 'throw' || fate === 'end' ? fate : null;
      const cuts = cutsOf(bytes);
      const stopAt = stop === null ? Infinity : cuts.length === 1 ? 0 : 1 + int(cuts.length - 1);
      source = makeSource(bytes, { container, stop, stopAt, cuts, signal: controller.signal });
    }
    // The values complete before stream byte `at`.
    const completeBefore = (at) => starts.filter((st, i) => st + parts[i].length <= at).length;
    const stopByte = source.stopAt === undefined || source.stopAt >= source.cuts.length ? bytes.length : source.cuts[source.stopAt][0];

    const stream = api === 'decodeAsync' ? null
      : api === 'decodeStream' ? decoder.decodeStream(source.source)
        : api === 'decodeArrayStream' ? decoder.decodeArrayStream(source.source)
          : api === 'module decodeMultiStream' ? inst.decodeMultiStream(source.source, config.opts)
            : api === 'module decodeArrayStream' ? inst.decodeArrayStream(source.source, config.opts) : null;
    const got = [];
    let error = null;
    let broke = false;
    const breakAfter = fate === 'break' ? int(parts.length) : -1;
    if (fate === 'abort') setTimeout(() => controller.abort(), int(4));
    if (fate === 'cancel') setTimeout(() => source.reader.cancel().catch(() => {}), int(4));

    // (The source hangs: after what a Node Readable read ahead of it has been decoded.)
    const hungFor = () => source.hung.then(() => new Promise((resolve) => setTimeout(() => resolve('hung'), 30)));
    const verify = (value, i, when) => {
      const d = i < want.length ? diff(value, want[i]) : `value ${i} beyond the ${want.length} expected`;
      if (d) fail(`${label}: value ${i} ${when}: ${d}`);
      return !d;
    };
    try {
      if (one) {
        const promise = api === 'decodeAsync' ? decoder.decodeAsync(source.source) : inst.decodeAsync(source.source, config.opts);
        const race = fate === 'abandon' ? Promise.race([promise, hungFor()]) : promise;
        const value = await bounded(race, label);
        if (value === 'hung') {
          promise.catch(() => {}); // (left pending for ever)
          count('abandoned');
        } else if (verify(value, 0, 'when produced')) {
          got.push(value);
          hold(value, want[0], label);
        }
      } else {
        const it = stream[Symbol.asyncIterator]();
        for (let i = 0; ; i++) {
          const step = it.next();
          const r = await bounded(fate === 'abandon' ? Promise.race([step, hungFor()]) : step, label);
          if (r === 'hung') {
            step.catch(() => {});
            count('abandoned');
            break;
          }
          if (r.done) break;
          if (!verify(r.value, i, 'when produced')) break;
          got.push(r.value);
          if (source.live !== null && int(2)) source.encoder.encodeSharedRef(new Uint8Array(source.live).fill(0xc1)); // (the chunk's output expires)
          for (let j = int(3); j > 0; j--) {
            await pause();
            syncWork(label);
          }
          verify(r.value, i, 'after the loop body\'s awaits'); // (other requests never write this stream's arrays)
          if (!config.reuse) hold(r.value, want[i], label);
          if (i === breakAfter) {
            broke = true;
            await bounded(it.return(), `${label}: return()`);
            break;
          }
        }
        // (Of a stream left waiting inside a value, the last value's arrays may already hold the
        // next one's fields: finding 1 above.)
        if (config.reuse && got.length > 0 && fate !== 'abandon') hold(got[got.length - 1], want[got.length - 1], `${label}: the last value`);
      }
    } catch (err) {
      error = err;
    }

    // The outcome, by fate.
    const report = (what) => { if (what) fail(`${label}: ${what}`); };
    const produced = (n) => report(got.length === n ? '' : `${got.length} values, not ${n}`);
    /** '' when the stream ended as one ending at byte `at` must: clean at a value's end, else TRUNCATED or LENGTH where the value it cuts starts. */
    const endedAt = (at) => {
      const n = completeBefore(at);
      produced(one ? 0 : n);
      const cleanly = !one && !array && (n === parts.length || starts[n] === at);
      if (cleanly) return error === null ? '' : `failed: ${error.code} ${error.message}`;
      const where = array && at < header.length ? 0 : starts[n];
      if (error?.code !== 'TRUNCATED' && error?.code !== 'LENGTH') return `ended with ${error?.code} ${error?.message}, not TRUNCATED or LENGTH`;
      return error.streamOffset === where ? '' : `${error.code} at ${error.streamOffset}, not at ${where}`;
    };
    if (fate === 'ok') {
      report(error ? `failed: ${error.code} ${error.message}` : '');
      produced(want.length);
    } else if (fate === 'corrupt') {
      report(error ? expectError(error) : 'no error');
      produced(bad);
    } else if (fate === 'throw') {
      report(error === source.thrown ? '' : `failed with ${error?.message}, not the source's own error`);
      produced(one ? 0 : completeBefore(stopByte));
    } else if (fate === 'end') {
      report(endedAt(stopByte));
    } else if (fate === 'abandon') {
      produced(one ? 0 : completeBefore(stopByte));
      report(error === null ? '' : `failed: ${error.message}`);
    } else if (fate === 'cancel' || fate === 'abort') {
      // (Cancelled at some byte, or after the end: the values before it, and a prefix.)
      if (fate === 'abort' && error !== null) report(error.name === 'AbortError' ? '' : `failed with ${error.code ?? error.name}: ${error.message}`);
      if (fate === 'abort' && error === null) produced(want.length); // (an aborted source never ends cleanly short)
      if (fate === 'cancel' && error !== null) {
        const at = one || (array && got.length === 0 && error.streamOffset === 0) ? 0 : starts[got.length];
        report((error.code === 'TRUNCATED' || error.code === 'LENGTH') && error.streamOffset === at ? '' : `failed with ${error.code} at ${error.streamOffset}: ${error.message}`);
      }
      count(`${fate} ${error === null ? (got.length === want.length ? 'after the end' : 'clean') : error.code ?? error.name}`);
    } else if (fate === 'break') {
      report(error ? `failed: ${error.message}` : '');
      report(broke ? '' : 'did not break');
    }
    if (fate !== 'abandon' && fate !== 'cancel') {
      // (A Node Readable reads ahead: its generator, busy in a delay, closes once that ends.)
      for (let waited = 0; !source.closed && waited < WAIT; waited += 5) await new Promise((resolve) => setTimeout(resolve, 5));
      if (!source.closed) report('the source was not closed');
    }

    // The next user of the shared Decoder: a whole value, and a stream, right.
    const k = int(POOL.length);
    const after = decoder.decode(POOL_BYTES[k]);
    const d = diff(after, check.decode(POOL_BYTES[k]));
    if (d) fail(`${label}: the shared Decoder's next decode: ${d}`);
    const again = await bounded(decoder.decodeAsync(makeSource(POOL_BYTES[k], { container: 'gen' }).source), `${label}: the next stream`);
    const d2 = diff(again, check.decode(POOL_BYTES[k]));
    if (d2) fail(`${label}: the shared Decoder's next stream: ${d2}`);
    else if (!config.reuse) hold(again, check.decode(POOL_BYTES[k]), `${label}: the next stream`);
  }

  // ---- the traffic: `concurrency` clients, each sending requests one after another -------------
  let issued = 0;
  const client = async () => {
    while (issued < requests) {
      const id = issued++;
      await pause();
      if (int(4) === 0) syncWork(`request ${id}`);
      else await streamRequest(id);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, client));
  await Promise.all(inits);
  checkHeld('at the end');
  return { failures, counts };
}

describe('traffic: concurrent stream decodes over random chunkings and delays, between synchronous calls (confirmed)', () => {
  // A page-like instance: its modules are fetched in the background (no synchronous read), so
  // that they attach while requests on it are in flight, in pure JS until then.
  const slowFinder = (delay) => ({
    findSync: () => null,
    find: async (module, build) => {
      await new Promise((resolve) => setTimeout(resolve, delay));
      return readFileSync(new URL(`../dist/fastmp-${module}-${build}.wasm`, import.meta.url));
    },
  });
  const instancesOf = async (seed) => [
    ['simd instance (kernels for every field)', await createFastmp({ pureJs: 'never' })],
    ['scalar instance', await createFastmp({ backend: 'scalar' })],
    ['js instance', await createFastmp({ backend: 'js' })],
    ['instance loading in the background', createInstanceSync(slowFinder(20 * seed))],
  ];

  test.each([1, 2, 3, 4, 5, 6])('seed %i', async (seed) => {
    const plan = { seed, requests: 200, concurrency: 20, instances: await instancesOf(seed), reinit: seed === 2 };
    const { failures, counts } = await traffic(entry, { Readable, addAbortSignal }, plan);
    if (plan.reinit) await init(); // (the default instance as the file began)
    expect(failures).toEqual([]);
    // Every kind of request happened (a harness that ran none could not fail).
    for (const what of ['stream ok', 'stream corrupt', 'stream throw', 'stream end', 'stream break', 'stream abort', 'stream cancel', 'abandoned', 'sync decode', 'sync packView', 'sync shared-ref']) {
      expect([what, counts[what] > 0]).toEqual([what, true]);
    }
  });

  test('inside a worker_threads Worker, while the main thread runs its own traffic', async () => {
    const source = `
      const { parentPort, workerData } = require('node:worker_threads');
      const { Readable, addAbortSignal } = require('node:stream');
      const traffic = ${traffic.toString()};
      (async () => {
        const lib = await import(workerData.url);
        const instances = [['simd instance', await lib.createFastmp()], ['scalar instance', await lib.createFastmp({ backend: 'scalar' })]];
        parentPort.postMessage(await traffic(lib, { Readable, addAbortSignal }, { ...workerData.plan, instances }));
      })().catch((err) => parentPort.postMessage({ failures: [String(err && err.stack)], counts: {} }));`;
    const url = pathToFileURL(fileURLToPath(new URL('../js/node.js', import.meta.url))).href;
    const worker = new Worker(source, { eval: true, workerData: { url, plan: { seed: 11, requests: 80, concurrency: 12 } } });
    try {
      const inWorker = new Promise((resolve, reject) => {
        worker.once('message', resolve);
        worker.once('error', reject);
      });
      const here = traffic(entry, { Readable, addAbortSignal }, { seed: 12, requests: 80, concurrency: 12, instances: [] });
      const [there, mine] = await Promise.all([inWorker, here]);
      expect(there.failures).toEqual([]);
      expect(there.counts['stream ok']).toBeGreaterThan(0);
      expect(mine.failures).toEqual([]);
    } finally {
      await worker.terminate();
    }
  });
});
