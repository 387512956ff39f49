// An ES module consumer of the declarations, type-checked under --strict with
// lib ES2022 + DOM by types.test.js (module nodenext, node16 and bundler).
// Every `@ts-expect-error` must find its error: a wrong call that compiled
// would fail the test.
import {
  FastmpError, backend, createFastmp, createFastmpSync, decodeBMP, decodeBMPToUint16, decodeIA5, encodeBMP,
  encodeVisible, init, initSync, memoryStats, pack, packBool, packView, readBMPString, readVisibleString, alloc,
  free, refresh, simdSupported, unpack, unpackBool, unpackBoolFrom, unpackFrom, writeIA5String,
  type Backend, type Fastmp, type FastmpErrorCode, type TypedArrayOf,
} from 'fastmp-wasm';

async function main(): Promise<void> {
  const b: Backend = await init({ backend: 'auto', pureJs: 'auto' });
  const s: Backend = initSync({ backend: 'scalar', wasm: new Uint8Array(8) });
  const again: 'simd' | 'scalar' = backend();
  const simd: boolean = simdSupported();
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
      if (e.code === 'SURROGATE' || e.code === 'DER_NONMINIMAL' || e.code === 'DETACHED') void e.offset;
      const value: number | bigint | undefined = e.value;
      const path: string | undefined = e.path;
      void [where, code, value, path];
    }
  }
  void [b, s, again, simd, f32, f64, value, end, stats, ints, bigs, clamped, flags];

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

// Fresh arrays are over an ArrayBuffer (TypeScript >= 5.7 tells it from a
// SharedArrayBuffer), so they are a BufferSource / BlobPart as they are.
export async function send(url: string, x: Float32Array): Promise<ArrayBuffer> {
  const bytes = pack(x);
  const own: Uint8Array<ArrayBuffer> = bytes;
  const blob = new Blob([bytes, packBool([true]), encodeBMP('a'), writeIA5String('b'), packView(x)]);
  await fetch(url, { method: 'POST', body: bytes });
  await fetch(url, { method: 'POST', body: packView(x) });
  const floats: Float32Array<ArrayBuffer> = unpack(bytes, Float32Array);
  const { value }: { value: BigInt64Array<ArrayBuffer> } = unpackFrom(bytes, BigInt64Array);
  const units: Uint16Array<ArrayBuffer> = decodeBMPToUint16(bytes);
  const view: Float64Array<ArrayBuffer> = refresh(alloc(Float64Array, 4));
  free(view);
  await crypto.subtle.digest('SHA-256', floats);
  await crypto.subtle.digest('SHA-256', unpackBool(bytes));
  void [own, blob, value, units];
  return crypto.subtle.digest('SHA-256', bytes);
}

// The check above means something: a Uint8Array over any buffer is no BlobPart.
declare const anyBuffer: Uint8Array;
// @ts-expect-error: Uint8Array<ArrayBufferLike> may be over a SharedArrayBuffer
void new Blob([anyBuffer]);

// unpack() and alloc() return the array of the constructor passed.
declare const someType: Float32ArrayConstructor | Int8ArrayConstructor;
export const either: Float32Array<ArrayBuffer> | Int8Array<ArrayBuffer> = unpack(new Uint8Array(1), someType);
export const mapped: TypedArrayOf<Uint16ArrayConstructor> = new Uint16Array(2);
// @ts-expect-error: an Int8Array is not a Float32Array
export const wrongType: Float32Array = unpack(new Uint8Array(1), Int8Array);
// @ts-expect-error: nor a Uint8Array a Uint8ClampedArray
export const wrongBytes: Uint8ClampedArray = alloc(Uint8Array, 1);

// Instances: the same API as methods, and methods may be destructured.
export async function instances(): Promise<string> {
  const fm: Fastmp = await createFastmp({ backend: 'scalar', pureJs: 'never' });
  const sync: Fastmp = createFastmpSync({ wasm: new Uint8Array(8) });
  const { pack: packOn, unpack: unpackOn } = sync;
  const back: Int32Array<ArrayBuffer> = unpackOn(packOn(new Int32Array([1])), Int32Array);
  const ab: ArrayBuffer = fm.encodeBMP('x').buffer;
  const where: ArrayBuffer = fm.packView(new Float32Array(1)).buffer;
  const stats = fm.memoryStats();
  // @ts-expect-error: init belongs to the module, not to an instance
  void fm.init;
  // @ts-expect-error: no such pureJs mode
  createFastmpSync({ pureJs: 'sometimes' });
  void [back, ab, where, stats.scratch];
  return `${fm.backend()} ${fm.decodeVisible(fm.writeVisibleString('ok').subarray(2))}`;
}

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
// @ts-expect-error: no such error code
export const noCode: FastmpErrorCode = 'OVERFLOW';
