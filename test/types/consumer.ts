// A consumer of the declarations, type-checked under --strict by types.test.js.
import {
  FastmpError, backend, init, memoryStats, pack, packBool, unpack, unpackBool, unpackBoolFrom, unpackFrom, type Backend,
} from 'fastmp-wasm';

async function main(): Promise<void> {
  const b: Backend = await init({ backend: 'auto', pureJs: 'auto' });
  const again: 'simd' | 'scalar' = backend();
  const bytes: Uint8Array = pack(new Float32Array([1, 2]));
  const f32: Float32Array = unpack(bytes, Float32Array);
  const f64: Float64Array = unpack(bytes.buffer, Float64Array);
  const { value, end }: { value: Float32Array; end: number } = unpackFrom(bytes, Float32Array, 0);
  const stats: number = memoryStats().wasmMemory + memoryStats().scratch;
  const ints: Int16Array = unpack(pack(new Int16Array([1, -300])), Int16Array, { integralFloats: true });
  const bigs: BigUint64Array = unpackFrom(pack(new BigUint64Array([1n])), BigUint64Array, 0).value;
  const bin: Uint8Array = pack(new Uint8Array([1]), { bin: false });
  const clamped: Uint8ClampedArray = unpack(bin, Uint8ClampedArray);
  const flags: Uint8Array = unpackBool(packBool([true, false])) ?? unpackBoolFrom(packBool(new Uint8Array(2)), 0).value;
  try {
    unpack(new Uint8Array([0xc0]), Float32Array);
  } catch (e) {
    if (e instanceof FastmpError) {
      const where: number = e.index + e.offset;
      const code: 'NOT_ARRAY' | 'TRUNCATED' | 'LENGTH' | 'TYPE' | 'RANGE' | 'TRAILING' = e.code;
      const value: number | bigint | undefined = e.value;
      void value;
      void where;
      void code;
    }
  }
  void [b, again, f32, f64, value, end, stats, ints, bigs, clamped, flags];
}
void main;

// @ts-expect-error: only typed arrays are packed
pack([1, 2, 3]);
// @ts-expect-error: packBool takes booleans
packBool([1, 0]);
// @ts-expect-error: no such option
unpack(new Uint8Array(1), Int8Array, { integral: true });
// @ts-expect-error: the target is a constructor
unpack(new Uint8Array(1), new Float32Array(1));
