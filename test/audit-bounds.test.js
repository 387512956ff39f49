// audit-bounds.test.js - resource use of a long-running process that keeps
// one Encoder / Decoder (and the module-level functions) for its whole life,
// under hostile traffic: what stays pinned after one large message, the key
// cache's bound, and a stream's work for a value that never completes
// (counted, not timed).
import { spawnSync } from 'node:child_process';
import { afterEach, expect, test, vi } from 'vitest';
import { Decoder as CodecDecoder } from '../js/codec/decoder.js';
import { ValueScanner } from '../js/codec/scan.js';
import { Decoder, encode } from '../js/node.js';
import { ROOT } from './helpers.js';

/** Runs `body` (an ES module's text) in a fresh `node --expose-gc` from the repository's root; returns what it prints as JSON. */
function child(body) {
  const run = spawnSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', body], { cwd: ROOT, encoding: 'utf8', maxBuffer: 1 << 20 });
  if (run.status !== 0) throw new Error(`child failed (${run.status}): ${run.stderr}`);
  return JSON.parse(run.stdout.trim().split('\n').at(-1));
}

afterEach(() => vi.restoreAllMocks());

test('one large encode before the pack kernels came: no JS buffer of its size stays pinned once the next call has run (the idle JS store pool, the kept Encoder\'s view)', () => {
  // The default instance loads the pack kernels on the first long typed array. That first
  // call borrows a JS store (the kernels are not attached when it starts), grows it to the
  // message's size, and gives it back to the JS pool, which storePool() never lends from
  // again once the kernels are attached: on HEAD it stays idle for the process's life
  // (js/codec/stores.js), and the kept Encoder's `bytes` still views it until its next call
  // (js/codec/encoder.js session()).
  const got = child(`
    import { encode, memoryStats } from './js/node.js';
    import { current } from './js/core.js';
    const settle = async () => { for (let i = 0; i < 4; i++) { gc(); await new Promise((r) => setTimeout(r, 10)); } return process.memoryUsage().arrayBuffers; };
    encode({ a: 1 });
    const before = await settle();
    let out = encode({ v: new Float64Array(4 << 20).fill(1.5) }); // a 32 MB message
    const size = out.length;
    out = null;
    const afterBig = await settle();
    for (let i = 0; i < 10; i++) encode({ a: i });
    const afterSmall = await settle();
    const core = current();
    console.log(JSON.stringify({
      size, before, afterBig, afterSmall,
      idleJs: (core.pools.js?.idle ?? []).map((s) => s.bytes.length),
      encoderBytes: core.encoder.bytes.length,
      wasm: memoryStats().wasmMemory,
    }));
  `);
  expect(got.size).toBeGreaterThan(32 << 20);
  expect(got.wasm).toBeGreaterThan(0); // the kernels are attached (wasm memory holds the message: documented)
  expect(got.idleJs.filter((n) => n > 1 << 20)).toEqual([]);
  expect(got.encoderBytes).toBeLessThan(1 << 20);
  // JS memory (ArrayBuffers) after GC (and the backing stores' sweeper: a turn of the event loop): back
  // near where it was, not a message's size more.
  // (Until the next call the JS pool still holds it: the pool is let go of when the next call
  // finds the kernels attached, which costs no check at the end of every call.)
  expect(got.afterSmall - got.before).toBeLessThan(got.size / 4);
});

test('the shared map-key cache stays bounded however many distinct keys a kept Decoder meets', () => {
  const decoder = new Decoder();
  const cache = decoder.keyDecoder; // (the shared cache every Decoder without a keyDecoder uses)
  for (let i = 0; i < 20_000; i++) {
    const key = `k${i}`.padEnd(1 + (i % 16), 'x').slice(0, 1 + (i % 16));
    const value = { [key]: i, [`${i}${key}`.slice(0, 16)]: 1 };
    expect(decoder.decode(encode(value))).toEqual(value);
  }
  const records = cache.keys.reduce((sum, list) => sum + list.length, 0);
  expect(records).toBeLessThanOrEqual(16 * 16);
});

/** Decodes a stream of `head` then `n` one-byte chunks of `byte` with a Decoder of `options`; counts the scanner's calls and the bytes the decoder reads. */
async function counted(head, n, byte, options) {
  const counts = { scans: 0, decodes: 0, decodedBytes: 0 };
  const scan = ValueScanner.prototype.scan;
  vi.spyOn(ValueScanner.prototype, 'scan').mockImplementation(function (bytes, length) {
    counts.scans++;
    return scan.call(this, bytes, length);
  });
  const readTop = CodecDecoder.prototype.readTop;
  vi.spyOn(CodecDecoder.prototype, 'readTop').mockImplementation(function () {
    counts.decodes++;
    counts.decodedBytes += this.end - this.pos;
    return readTop.call(this);
  });
  async function* source() {
    yield Uint8Array.from(head);
    for (let i = 0; i < n; i++) yield Uint8Array.of(byte);
  }
  try {
    for await (const value of new Decoder(options).decodeStream(source())) void value;
  } catch (err) {
    counts.code = err.code;
  }
  vi.restoreAllMocks();
  return counts;
}

test.each([
  ['an array 32 of 2^32-1 nils', [0xdd, 0xff, 0xff, 0xff, 0xff], 0xc0, undefined],
  ['a str 32 whose payload never ends', [0xdb, 0x7f, 0xff, 0xff, 0xff], 0x61, undefined],
  ['the same array read by a mapKeyConverter decoder (scanned first)', [0xdd, 0xff, 0xff, 0xff, 0xff], 0xc0, { mapKeyConverter: (k) => k }],
  ['an array after a 0xc1 too far to pad (the decoder re-reads at doublings)', [0xdd, 0xff, 0xff, 0xff, 0xff, 0xc1], 0xc0, undefined],
])('a stream fed 1 byte a chunk, %s that never completes: O(1) work per chunk, counted', async (name, head, byte, options) => {
  const n = 4000;
  const got = await counted(head, n, byte, options);
  expect(got.code).toMatch(/^(LENGTH|TRUNCATED|TAG)$/);
  expect(got.scans).toBeLessThanOrEqual(n + 8); // one resumed scan per chunk
  expect(got.decodes).toBeLessThanOrEqual(2 + Math.ceil(Math.log2(n)) + 2); // the decoder reads the tail only at doublings
  expect(got.decodedBytes).toBeLessThanOrEqual(4 * (n + head.length)); // linear in the bytes, not quadratic
});

test('decodeFrom() over a shared input at rising offsets: the Decoder\'s one copy buffer stays within twice the part read, and is allocated O(log n) times', () => {
  const values = Array.from({ length: 300 }, (_, i) => ({ i, s: 'x'.repeat(i % 50) }));
  const parts = values.map((v) => encode(v));
  const total = parts.reduce((sum, p) => sum + p.length, 0);
  const shared = new Uint8Array(new SharedArrayBuffer(total));
  let offset = 0;
  for (const p of parts) { shared.set(p, offset); offset += p.length; }
  const decoder = new Decoder();
  const buffers = new Set();
  offset = 0;
  for (const value of values) {
    const got = decoder.decodeFrom(shared, offset);
    expect(got.value).toEqual(value);
    offset = got.end;
    if (decoder.copies) {
      buffers.add(decoder.copies);
      expect(decoder.copies.length).toBeGreaterThanOrEqual(offset);
      expect(decoder.copies.length).toBeLessThanOrEqual(2 * offset);
    }
  }
  expect(offset).toBe(total);
  expect(buffers.size).toBeGreaterThan(0); // (the copy path was taken)
  expect(buffers.size).toBeLessThanOrEqual(Math.ceil(Math.log2(total)) + 1);
});
