// messages-memory.test.js - where a message's bytes live in the wasm builds:
// a reused Encoder writes every typed-array field in place and stops growing
// memory; a shaped decode copies its input into wasm memory once.

import { describe, expect, test, vi } from 'vitest';
import { Boundary } from '../js/memory.js';
import { createFastmp } from '../js/index.js';

const BUILDS = [['simd', { backend: 'simd', pureJs: 'never' }], ['scalar', { backend: 'scalar', pureJs: 'never' }]];

/** A W1-like message: a 1536-float embedding and the fields around it. */
function message(seed) {
  const embedding = new Float32Array(1536);
  for (let i = 0; i < embedding.length; i++) embedding[i] = Math.sin(seed + i);
  return { id: seed, model: 'm1', embedding, scores: Float64Array.of(seed, 0.5), ids: Int32Array.of(seed, -seed, 70000), tags: ['a', 'b', 'c'], ts: new Date(1e12 + seed) };
}

describe.each(BUILDS)('%s', (name, options) => {
  test('a reused Encoder: wasm memory and the scratch region stop growing, and every output is whole', async () => {
    const fm = await createFastmp(options);
    const encoder = new fm.Encoder();
    encoder.encode(message(1));
    const settled = fm.memoryStats();
    for (let i = 0; i < 2000; i++) {
      const bytes = encoder.encode(message(i));
      expect(bytes.length).toBeGreaterThan(1536 * 5);
      if (i % 500 === 0) {
        const back = fm.decode(bytes, { shape: { embedding: Float32Array } });
        expect(back.embedding).toEqual(message(i).embedding);
      }
    }
    expect(fm.memoryStats()).toEqual(settled);
  });

  test('the typed-array fields are written by the kernels straight into the Encoder\'s output (no packed copy)', async () => {
    const fm = await createFastmp(options);
    const encoder = new fm.Encoder();
    encoder.encode(message(0)); // the store and scratch exist
    const set = vi.spyOn(Uint8Array.prototype, 'set');
    try {
      const bytes = encoder.encode(message(2));
      // One set() copies the elements into scratch per typed-array field (embedding, scores,
      // ids), and one copies the whole message out; none copies a packed array into the output.
      const sizes = set.mock.calls.map(([source]) => source.length);
      expect(sizes.filter((n) => n >= 1536 * 5)).toEqual([bytes.length]);
    } finally {
      set.mockRestore();
    }
  });

  test('a shaped decode copies its input into wasm memory once, however many fields it has', async () => {
    const fm = await createFastmp(options);
    const frames = Array.from({ length: 64 }, (_, t) => ({ t, accel: Float32Array.of(t, 1, 2), samples: new Int16Array(256).fill(t) }));
    const bytes = fm.encode({ frames });
    const copies = vi.spyOn(Boundary.prototype, 'inputRegion');
    try {
      const back = fm.decode(bytes, { shape: { frames: [{ accel: Float32Array, samples: Int16Array }] } });
      expect(back.frames[63].samples).toEqual(new Int16Array(256).fill(63));
      expect(back.frames[5].accel).toEqual(Float32Array.of(5, 1, 2));
      expect(copies).toHaveBeenCalledTimes(1);
    } finally {
      copies.mockRestore();
    }
  });
});
