// workloads.js - what the bench times: bare typed arrays of real-looking
// content, and four whole messages, with the code a peer's user writes around
// the peer (typed arrays to plain arrays before encoding, and back after
// decoding). Values come from a seeded generator: every run times the same.

import { toArray } from './loops.js';

/** A small deterministic generator (mulberry32): floats in [0, 1). */
export function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Floats with fractions, as measurements are: about ±100, never integral (an integral float is an int on some peers' wire). */
export function floats(n, r) {
  const x = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const v = Math.fround((r() * 2 - 1) * 100);
    x[i] = Number.isInteger(v) ? v + 0.5 : v;
  }
  return x;
}

/** Ints as ids and counters are: half of them fixints, 30 % within ±40 000, the rest anywhere in 32 bits. */
export function ints(n, r) {
  const x = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const k = r();
    x[i] = k < 0.5 ? Math.floor(r() * 160) - 32 : k < 0.8 ? Math.floor((r() * 2 - 1) * 40000) : Math.floor(r() * 2 ** 32) | 0;
  }
  return x;
}

export const SIZES = [16, 4096, 1 << 20];
export const sizeLabel = (n) => (n === 1 << 20 ? '1 M' : String(n));

/** The bare typed-array cases: { type: 'f32' | 'i32', Type, name, n, x }. */
export function typedInputs() {
  const r = random(43);
  const cases = [];
  for (const [type, Type, make] of [['f32', Float32Array, floats], ['i32', Int32Array, ints]]) {
    for (const n of SIZES) cases.push({ type, Type, name: Type.name, n, x: make(n, r) });
  }
  return cases;
}

/**
 * The whole messages: { id, label, about, value, shape, toPlain(value),
 * fromPlain(decoded) }. toPlain makes the value a peer encodes into standard
 * arrays (each typed array through loops.js toArray()); fromPlain turns a peer's
 * decoded plain arrays back into the typed arrays (TypedArray.from).
 */
export function messages() {
  const r = random(44);
  const samples = (n) => Int16Array.from({ length: n }, () => Math.round((r() * 2 - 1) * 12000));
  return [
    {
      id: 'small',
      label: 'small msg',
      about: '{ id, model, ts, ok, embedding: Float32Array(16) }',
      value: { id: 912_345_678, model: 'text-embedding-small', ts: 1_733_011_200_123, ok: true, embedding: floats(16, r) },
      shape: { embedding: Float32Array },
      toPlain: (m) => ({ ...m, embedding: toArray(m.embedding) }),
      fromPlain: (v) => ((v.embedding = Float32Array.from(v.embedding)), v),
    },
    {
      id: 'sensor',
      label: 'sensor batch',
      about: '{ device, seq, frames: 64 × { t, accel: Float32Array(3), samples: Int16Array(256) } }',
      value: {
        device: 'imu-7',
        seq: 4242,
        frames: Array.from({ length: 64 }, (_, i) => ({ t: 1_000_000 + 5 * i, accel: floats(3, r), samples: samples(256) })),
      },
      shape: { frames: [{ accel: Float32Array, samples: Int16Array }] },
      toPlain: (m) => ({ ...m, frames: m.frames.map((f) => ({ t: f.t, accel: toArray(f.accel), samples: toArray(f.samples) })) }),
      fromPlain: (v) => {
        for (const f of v.frames) {
          f.accel = Float32Array.from(f.accel);
          f.samples = Int16Array.from(f.samples);
        }
        return v;
      },
    },
    {
      id: 'big',
      label: '1 M floats',
      about: '{ id, data: Float32Array(1 048 576) }',
      value: { id: 7, data: floats(1 << 20, r) },
      shape: { data: Float32Array },
      toPlain: (m) => ({ id: m.id, data: toArray(m.data) }),
      fromPlain: (v) => ((v.data = Float32Array.from(v.data)), v),
    },
    {
      id: 'vectors',
      label: '10 000 × 8',
      about: 'an array of 10 000 Float32Array(8)',
      value: Array.from({ length: 10_000 }, () => floats(8, r)),
      shape: [Float32Array],
      toPlain: (vs) => vs.map((v) => toArray(v)),
      fromPlain: (a) => {
        for (let i = 0; i < a.length; i++) a[i] = Float32Array.from(a[i]);
        return a;
      },
    },
  ];
}

/** Whether two decoded values are the same: typed arrays by type and bits, the rest deeply. */
export function sameValue(a, b) {
  if (ArrayBuffer.isView(a) || ArrayBuffer.isView(b)) {
    if (!ArrayBuffer.isView(a) || !ArrayBuffer.isView(b) || a.constructor !== b.constructor || a.byteLength !== b.byteLength) return false;
    return Buffer.compare(new Uint8Array(a.buffer, a.byteOffset, a.byteLength), new Uint8Array(b.buffer, b.byteOffset, b.byteLength)) === 0;
  }
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((v, i) => sameValue(v, b[i]));
  if (a && typeof a === 'object') {
    if (!b || typeof b !== 'object') return false;
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => sameValue(a[k], b[k]));
  }
  return Object.is(a, b) || (typeof a === 'bigint' && typeof b === 'number' && Number(a) === b) || (typeof b === 'bigint' && typeof a === 'number' && Number(b) === a);
}
