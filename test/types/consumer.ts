// A consumer of the declarations, type-checked under --strict by types.test.js.
import {
  FastmpError, backend, decodeBMP, decodeBMPToUint16, decodeIA5, encodeBMP, encodeVisible, init, memoryStats, pack,
  packBool, readBMPString, readVisibleString, unpack, unpackBool, unpackBoolFrom, unpackFrom, writeIA5String,
  type Backend, type FastmpErrorCode,
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
      const code: FastmpErrorCode = e.code;
      if (e.code === 'SURROGATE' || e.code === 'DER_NONMINIMAL') void e.offset;
      const value: number | bigint | undefined = e.value;
      void value;
      void where;
      void code;
    }
  }
  void [b, again, f32, f64, value, end, stats, ints, bigs, clamped, flags];

  const bmp: Uint8Array = encodeBMP('Zoë');
  const fromUnits: Uint8Array = encodeBMP(new Uint16Array([0x5a, 0x6f]));
  const text: string = decodeBMP(bmp) + decodeIA5(bmp.buffer);
  const units: Uint16Array = decodeBMPToUint16(bmp);
  const der: Uint8Array = writeIA5String('a@b.example');
  const read: { value: string; end: number } = readBMPString(der, 0);
  const next: string = readVisibleString(der, read.end).value;
  void [fromUnits, text, units, next, encodeVisible('DE')];
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
// @ts-expect-error: BMPString chars are a string or a Uint16Array
encodeBMP([0x41]);
// @ts-expect-error: decoders take bytes
decodeBMP('AB');
