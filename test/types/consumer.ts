// A consumer of the declarations, type-checked under --strict by types.test.js.
import { FastmpError, backend, init, memoryStats, pack, unpack, unpackFrom, type Backend } from 'fastmp-wasm';

async function main(): Promise<void> {
  const b: Backend = await init({ backend: 'auto', pureJs: 'auto' });
  const again: 'simd' | 'scalar' = backend();
  const bytes: Uint8Array = pack(new Float32Array([1, 2]));
  const f32: Float32Array = unpack(bytes, Float32Array);
  const f64: Float64Array = unpack(bytes.buffer, Float64Array);
  const { value, end }: { value: Float32Array; end: number } = unpackFrom(bytes, Float32Array, 0);
  const stats: number = memoryStats().wasmMemory + memoryStats().scratch;
  try {
    unpack(new Uint8Array([0xc0]), Float32Array);
  } catch (e) {
    if (e instanceof FastmpError) {
      const where: number = e.index + e.offset;
      const code: 'NOT_ARRAY' | 'TRUNCATED' | 'LENGTH' | 'TYPE' | 'TRAILING' = e.code;
      void where;
      void code;
    }
  }
  void [b, again, f32, f64, value, end, stats];
}
void main;

// @ts-expect-error: only float typed arrays are packed
pack([1, 2, 3]);
// @ts-expect-error: the target is a constructor
unpack(new Uint8Array(1), new Float32Array(1));
