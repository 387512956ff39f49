// audit-buffers2.test.js - the second buffers audit: the kinds of memory a
// caller passes (pooled Buffers at odd offsets, SharedArrayBuffers growable or
// not, resizable ArrayBuffers with fixed and length-tracking views, DataViews,
// other typed arrays' bytes, vm realms, alloc() arrays, packView() outputs, a
// view from offset 0 of wasm memory, encodeSharedRef() outputs), each given to
// the decoders, the stream decoders and as encodeInto() / packInto() targets,
// while user code the call runs (a mapKeyConverter, an extension's decode or
// encode, a stream's loop body, an options getter) grows, shrinks or
// transfers that memory, writes a SharedArrayBuffer, or makes fastmp calls
// that overwrite scratch and grow wasm memory. No finding on a43e2e4: each
// outcome is the pure-JS instance's on a plain copy, or DETACHED / STALE /
// FREED, and no byte outside a target's view is written. Kept as a
// differential that no other test runs over these kinds together.
import vm from 'node:vm';
import { describe, expect, test } from 'vitest';
import { ExtData, ExtensionCodec, createFastmpSync } from '../js/node.js';

const js = createFastmpSync({ backend: 'js' });
const BUILDS = [['js', { backend: 'js' }], ['simd', { backend: 'simd', pureJs: 'never' }], ['scalar', { backend: 'scalar', pureJs: 'never' }]];
const LIFETIME = ['DETACHED', 'STALE', 'FREED'];
const bufferOf = (x) => (ArrayBuffer.isView(x) ? x.buffer : x);

/** An outcome to compare: the value, with typed arrays as [type, ...elements], or 'Class code'. */
function outcome(fn) {
  try {
    return JSON.stringify(fn(), (_, v) => (ArrayBuffer.isView(v) ? [v.constructor.name, ...Array.from(v, String)] : typeof v === 'bigint' ? `${v}n` : v));
  } catch (e) {
    return `${e.constructor.name} ${e.code}`;
  }
}

/** `bytes` in each kind of memory (with an instance `m`): [name, make()]. */
function memoryKinds(bytes, m) {
  const n = bytes.length;
  const placed = (buffer, offset) => {
    const v = new Uint8Array(buffer, offset, n);
    v.set(bytes);
    return v;
  };
  const kinds = [
    ['odd offset', () => placed(new ArrayBuffer(n + 5), 3)],
    ['pooled Buffer', () => Buffer.from(bytes)],
    ['SharedArrayBuffer', () => placed(new SharedArrayBuffer(n + 4), 1)],
    ['growable SharedArrayBuffer, tracking', () => placed(new SharedArrayBuffer(n + 1, { maxByteLength: 2 * n + 64 }), 1)],
    ['resizable, fixed', () => placed(new ArrayBuffer(n + 4, { maxByteLength: 2 * n + 64 }), 3)],
    ['resizable, tracking', () => { const b = new ArrayBuffer(n + 3, { maxByteLength: 2 * n + 64 }); placed(b, 3); return new Uint8Array(b, 3); }],
    ['resizable ArrayBuffer', () => { const b = new ArrayBuffer(n, { maxByteLength: 2 * n + 64 }); placed(b, 0); return b; }],
    ['DataView, tracking', () => { const b = new ArrayBuffer(n + 1, { maxByteLength: 2 * n + 64 }); placed(b, 1); return new DataView(b, 1); }],
    ['vm realm', () => { const v = vm.runInNewContext(`new Uint8Array(${n + 2})`).subarray(2); v.set(bytes); return v; }],
    ['encodeSharedRef() output', () => { const o = new m.Encoder().encodeSharedRef(bytes); return o.subarray(o.length - n); }],
  ];
  if (m.backend() === 'js') return kinds;
  return [...kinds,
    ['alloc()', () => { const v = m.alloc(Uint8Array, n + 3).subarray(3); v.set(bytes); return v; }],
    ['packView() output', () => { const o = m.packView(new Uint8Array(n)); const v = o.subarray(o.length - n); v.set(bytes); return v; }],
    // (read as ordinary memory below 1024 bytes: docs/typed-arrays.md; no module's data lies there)
    ...(n <= 1024 ? [['offset 0 of wasm memory', () => placed(m.alloc(Uint8Array, 1).buffer, 0)]] : []),
  ];
}

/** What user code does mid-call to `x` (the input or target) and to the instance `m`. */
const MUTATIONS = [
  ['nothing', () => {}],
  ['grows its buffer', (x) => { const b = bufferOf(x); if (b.growable) b.grow(b.maxByteLength); else if (b.resizable) b.resize(b.maxByteLength); }],
  ['shrinks its buffer', (x) => { const b = bufferOf(x); if (b.resizable) b.resize(1); }],
  ['transfers its buffer', (x) => { try { structuredClone(bufferOf(x), { transfer: [bufferOf(x)] }); } catch { /* (shared, or wasm memory) */ } }],
  ['writes its SharedArrayBuffer', (x) => { const b = bufferOf(x); if (!(b instanceof ArrayBuffer) && b.constructor.name === 'SharedArrayBuffer') new Uint8Array(b).fill(0xc1); }],
  ['calls fastmp (scratch overwritten, memory grown)', (_, m) => { m.packView(new Float32Array(3000)); m.pack(new Float64Array(Math.min(m.memoryStats().wasmMemory, 8 << 20) / 4)); }],
];

/** Options whose user code (an extension's decode of ext 5, a mapKeyConverter) runs `mutate` once. */
function decodeOptions(mutate) {
  let done = false;
  const once = () => { if (!done) { done = true; mutate(); } };
  const extensionCodec = new ExtensionCodec();
  extensionCodec.register({ type: 5, encode: () => null, decode: (d) => { once(); return Array.from(d); } });
  return { extensionCodec, mapKeyConverter: (k) => { once(); return k; } };
}

const MESSAGE = {
  k: 1,
  e: new ExtData(5, Uint8Array.of(1, 2, 3)),
  f: Float32Array.from({ length: 600 }, (_, i) => i / 4),
  b: Uint8Array.from({ length: 300 }, (_, i) => i),
  s: 'é'.repeat(40),
  i: new Int16Array([1, -2, 300]),
};
const WIRE = js.encode(MESSAGE);

describe('decoders: every memory kind, mutated by the user code a decode runs', () => {
  const CALLS = [
    ['decode', (fm, x, o) => fm.decode(x, o)],
    ['decode by shape', (fm, x, o) => fm.decode(x, { ...o, shape: { f: Float32Array, i: Int16Array } })],
    ['decodeFrom', (fm, x, o) => fm.decodeFrom(x, o)],
    ['decodeMulti', (fm, x, o) => [...fm.decodeMulti(x, o)]],
    ['Decoder.decodeFrom', (fm, x, o) => new fm.Decoder(o).decodeFrom(x, 0)],
  ];
  test.each(BUILDS)('%s', (_, options) => {
    const m = createFastmpSync(options);
    const wrong = [];
    for (const [call, run] of CALLS) {
      const want = outcome(() => run(js, WIRE.slice(), decodeOptions(() => {})));
      for (const [kind, make] of memoryKinds(WIRE, m)) {
        for (const [how, mutate] of MUTATIONS) {
          let input;
          const o = decodeOptions(() => mutate(input, m));
          input = make();
          const got = outcome(() => run(m, input, o));
          if (got !== want && !LIFETIME.some((c) => got.endsWith(` ${c}`))) wrong.push(`${call}, ${kind}, ${how}: ${got.slice(0, 120)}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });
});

describe('streams: chunks of every memory kind, mutated by the loop body', () => {
  const VALUES = Array.from({ length: 5 }, (_, i) => ({ i, f: Float32Array.from({ length: [0, 3, 300][i % 3] }, (__, j) => j + i), b: Uint8Array.from({ length: 9 * i }, (__, j) => j) }));
  const STREAM = Uint8Array.from(VALUES.flatMap((v) => [...js.encode(v)]));
  const shape = { f: Float32Array };
  const want = outcome(() => VALUES.map((v) => js.decode(js.encode(v), { shape })));
  test.each(BUILDS)('%s', async (_, options) => {
    const m = createFastmpSync(options);
    const wrong = [];
    for (const size of [7, 400]) {
      for (const [kind] of memoryKinds(STREAM.subarray(0, 1), m)) {
        for (const [how, mutate] of MUTATIONS) {
          let last = null;
          async function* chunks() {
            for (let at = 0; at < STREAM.length; at += size) {
              const part = STREAM.subarray(at, at + size);
              last = memoryKinds(part, m).find(([k]) => k === kind)[1]();
              yield last;
            }
          }
          let got;
          try {
            const seen = [];
            for await (const v of new m.Decoder({ shape }).decodeStream(chunks())) {
              seen.push(v);
              mutate(last, m);
            }
            got = outcome(() => seen);
          } catch (e) {
            got = `${e.constructor.name} ${e.code}`;
          }
          if (got !== want && !LIFETIME.some((c) => got.endsWith(` ${c}`))) wrong.push(`${size}, ${kind}, ${how}: ${got.slice(0, 120)}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });
});

describe('targets: encodeInto() and packInto() write the message or refuse, and nothing outside the view', () => {
  const MARK = { mark: true };
  const value = { f: MESSAGE.f, m: MARK, s: MESSAGE.s };
  const codecOf = (run) => {
    const codec = new ExtensionCodec();
    codec.register({ type: 9, encode: (v) => (v === MARK ? (run(), Uint8Array.of(1)) : null), decode: () => 0 });
    return codec;
  };
  const message = js.encode(value, { extensionCodec: codecOf(() => {}) });
  const packed = js.pack(MESSAGE.f);
  const AT = 7; // (the offset written at)
  const FILL = 0xee;

  /** A target of `room` bytes from byte 9 of a buffer filled with FILL: [view, buffer, alloc() array or null]. */
  const targets = (m, room) => {
    const filled = (buffer) => { new Uint8Array(buffer).fill(FILL); return buffer; };
    const list = [
      ['odd offset', () => { const b = filled(new ArrayBuffer(room + 20)); return [new Uint8Array(b, 9, room), b]; }],
      ['SharedArrayBuffer', () => { const b = filled(new SharedArrayBuffer(room + 20)); return [new Uint8Array(b, 9, room), b]; }],
      ['growable SharedArrayBuffer, tracking', () => { const b = filled(new SharedArrayBuffer(room + 9, { maxByteLength: 3 * room })); return [new Uint8Array(b, 9), b]; }],
      ['resizable, fixed', () => { const b = filled(new ArrayBuffer(room + 20, { maxByteLength: 3 * room })); return [new Uint8Array(b, 9, room), b]; }],
      ['resizable, tracking', () => { const b = filled(new ArrayBuffer(room + 9, { maxByteLength: 3 * room })); return [new Uint8Array(b, 9), b]; }],
      ['vm realm', () => { const t = vm.runInNewContext(`new Uint8Array(${room + 20}).fill(${FILL}).subarray(9, ${9 + room})`); return [t, t.buffer]; }],
    ];
    if (m.backend() === 'js') return list;
    return [...list, ['alloc()', () => { const a = m.alloc(Uint8Array, room + 20).fill(FILL); return [a.subarray(9, 9 + room), null, a]; }]];
  };

  test.each(BUILDS)('%s', (_, options) => {
    const m = createFastmpSync(options);
    const wrong = [];
    for (const call of ['encodeInto', 'Encoder.encodeInto', 'packInto']) {
      const bytes = call === 'packInto' ? packed : message;
      for (const [kind, make] of targets(m, message.length + AT + 4)) {
        for (const [how, mutate] of MUTATIONS) {
          if (call === 'packInto' && how === 'shrinks its buffer') continue; // (an options getter: the offset is refused again, audit-boundary 7)
          const [target, buffer, allocated] = make();
          const size = (allocated ?? null) === null ? buffer.byteLength : allocated.length; // (what it grows by is not the call's)
          let got;
          try {
            const run = () => mutate(target, m);
            if (call === 'packInto') got = m.packInto(MESSAGE.f, target, AT, { get bin() { run(); return true; } });
            else if (call === 'encodeInto') got = m.encodeInto(value, target, AT, { extensionCodec: codecOf(run) });
            else got = new m.Encoder({ extensionCodec: codecOf(run) }).encodeInto(value, target, AT);
          } catch (e) {
            got = `${e.constructor.name} ${e.code}`;
          }
          const whole = allocated !== null && allocated !== undefined ? m.refresh(allocated) : buffer.byteLength > 0 ? new Uint8Array(buffer) : null;
          if (typeof got === 'number') {
            const written = whole.subarray(9 + AT, 9 + got);
            if (got !== AT + bytes.length || !Buffer.from(written).equals(Buffer.from(bytes))) wrong.push(`${call}, ${kind}, ${how}: wrong output`);
          } else if (!LIFETIME.some((c) => got.endsWith(` ${c}`))) wrong.push(`${call}, ${kind}, ${how}: ${got}`);
          if (whole !== null && how !== 'writes its SharedArrayBuffer') {
            const kept = how === 'shrinks its buffer' ? 1 : size;
            const outside = whole.findIndex((byte, i) => i < kept && (i < 9 + AT || i >= 9 + AT + bytes.length) && byte !== FILL);
            if (outside >= 0) wrong.push(`${call}, ${kind}, ${how}: byte ${outside} of the buffer written`);
          }
        }
      }
    }
    expect(wrong).toEqual([]);
  });
});
