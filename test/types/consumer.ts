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
import {
  BoolArray, Decoder, EXT_TIMESTAMP, Encoder, ExtData, ExtensionCodec, MapOf, asBools, decode, decodeArrayStream,
  decodeAsync, decodeFrom, decodeMulti, decodeMultiStream, decodeTimestampExtension, decodeTimestampToTimeSpec,
  encode, encodeDateToTimeSpec, encodeInto, encodeTimeSpecToTimestamp, encodeTimestampExtension, mapOf, optional,
  DecodeError,
  type DecodedBy, type DecoderOptions, type EncoderOptions, type MessageErrorCode, type Shape, type TimeSpec,
} from 'fastmp-wasm';
import msgpack from 'fastmp-wasm';

async function main(): Promise<void> {
  const b: Backend = await init({ backend: 'auto', pureJs: 'auto' });
  const s: Backend = initSync({ backend: 'scalar', wasm: new Uint8Array(8) });
  const both: Backend = await init({ wasm: fetch('/typed.wasm'), stringsWasm: fetch('/strings.wasm') });
  const syncBoth: Backend = initSync({ wasm: new Uint8Array(8), stringsWasm: new Uint8Array(8) });
  const again: 'simd' | 'scalar' | 'js' = backend(); // 'js': pure JS (backend 'js', or wasm refused by a CSP)
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
// @ts-expect-error: nor a Uint8ClampedArray a Uint8Array
export const wrongClamped: Uint8Array = unpack(new Uint8Array(1), Uint8ClampedArray);
export const bigOnes: BigUint64Array<ArrayBuffer> = unpack(new Uint8Array(1), BigUint64Array);

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

// ---- whole messages ---------------------------------------------------------------

// A typed array inside a message, read back by shape into the same typed array.
export function embeddings(embedding: Float32Array): Float32Array<ArrayBuffer> | undefined {
  const bytes = encode({ id: 7, embedding });
  const own: Uint8Array<ArrayBuffer> = bytes;
  const blob = new Blob([encode({ embedding }), bytes]);
  const message = decode(bytes, { shape: { embedding: Float32Array, scores: optional(Float64Array) } });
  const id: unknown = message.id; // keys the shape does not list: any value
  const sure: Float32Array = message.embedding; // a listed key is there (or the decode failed: MISSING)
  // @ts-expect-error: an optional(S) field may be absent or null
  const scores: Float64Array = message.scores;
  const maybe: Float64Array | null | undefined = message.scores;
  const plain: unknown = decode(bytes);
  // @ts-expect-error: without a shape the value is unknown
  void decode(bytes).embedding;
  void [own, blob, id, sure, scores, maybe, plain];
  return message.embedding;
}

// A shape kept in a const (no `as const`): arrays of shapes, nesting, mapOf, optional.
const FRAME = { t: Float64Array, accel: Float32Array, tags: mapOf(Int16Array) };
const BATCH = { device: Uint8Array, frames: [FRAME], extra: optional([Int32Array]) };
export function batches(bytes: Uint8Array): number {
  const batch = new Decoder({ shape: BATCH }).decode(bytes);
  const accel: Float32Array<ArrayBuffer> = batch.frames[0].accel;
  const tag: Int16Array<ArrayBuffer> = batch.frames[0].tags.any;
  const extra: Int32Array<ArrayBuffer>[] | null | undefined = batch.extra;
  const viaFunction = decode(bytes, { shape: BATCH });
  const device: Uint8Array<ArrayBuffer> = viaFunction.device;
  void [tag, extra, device];
  return accel[0];
}

// One Encoder reused: its buffer is kept between calls.
export function frames(rows: readonly Float64Array[], target: Uint8Array): Blob {
  const encoder = new Encoder({ typedArrays: 'ext', sortKeys: true, maxDepth: 8, initialBufferSize: 1 << 16 });
  const parts: Uint8Array<ArrayBuffer>[] = rows.map((row) => encoder.encode({ row, flags: asBools(new Uint8Array(row.length)) }));
  const view: Uint8Array<ArrayBuffer> = encoder.encodeSharedRef(rows[0]);
  const end: number = encoder.encodeInto(rows, target, 0) + encodeInto(rows, target) + encodeInto(rows, target, 4, { forceFloat32: true });
  void [view, end];
  return new Blob(parts);
}

declare const unknownShape: Shape;

// Shapes: nested objects, [S] arrays, mapOf(S), booleans; the result's type follows the shape.
export function shapes(bytes: Uint8Array): number {
  const shape = {
    frames: [{ accel: Float32Array, stamps: BigInt64Array }],
    byName: mapOf(Int16Array),
    flags: Boolean,
    mask: BoolArray,
  } satisfies Shape;
  const value = decode(bytes, { shape, integralFloats: true, useBigInt64: true });
  const accel: Float32Array<ArrayBuffer> | undefined = value.frames?.[0]?.accel;
  const stamps: BigInt64Array<ArrayBuffer> | undefined = value.frames?.[0]?.stamps;
  const named: Int16Array<ArrayBuffer> | undefined = value.byName?.['x'];
  const flags: Uint8Array<ArrayBuffer> | undefined = value.flags ?? value.mask;
  const top: Float64Array<ArrayBuffer> = decode(bytes, { shape: Float64Array });
  const list: Uint8Array<ArrayBuffer>[] = decode(bytes, { shape: [Boolean] });
  const spelled: DecodedBy<{ v: Uint32ArrayConstructor }> = { v: new Uint32Array(1) };
  const marker: MapOf<Int8ArrayConstructor> = mapOf(Int8Array);
  const { value: first, end }: { value: Float32Array<ArrayBuffer>; end: number } = decodeFrom(bytes, { shape: Float32Array });
  const decoder = new Decoder({ shape: { v: [Uint16Array] }, maxArrayLength: 1024 });
  const v: Uint16Array<ArrayBuffer>[] | undefined = decoder.decode(bytes).v;
  const at: unknown = new Decoder({ rawStrings: true }).decodeFrom(bytes, 2).value;
  for (const each of decodeMulti(bytes, { shape: Int32Array })) void (each satisfies Int32Array<ArrayBuffer>);
  const opaque: unknown = decode(bytes, { shape: unknownShape });
  const options: DecoderOptions = { maxDepth: 10, keyDecoder: null, mapKeyConverter: (key) => String(key) };
  const plain: unknown = decode(bytes.buffer, options) ?? decode([0x90]) ?? decode(new DataView(bytes.buffer));
  void [accel, stamps, named, flags, top, list, spelled, marker, first, v, at, opaque, plain];
  return end;
}

// Streams: async iterables of chunks, or a web ReadableStream (fetch's body).
export async function streams(url: string): Promise<number> {
  const response = await fetch(url);
  let count = 0;
  for await (const row of decodeArrayStream(response.body!, { shape: { v: Float32Array } })) {
    const v: Float32Array<ArrayBuffer> | undefined = row.v;
    count += v?.length ?? 0;
  }
  async function* chunks() {
    yield new Uint8Array([0x92, 1]);
    yield new ArrayBuffer(1);
    yield [2];
  }
  for await (const value of decodeMultiStream(chunks())) void (value satisfies unknown);
  const one: unknown = await decodeAsync(chunks(), { maxDepth: 4 });
  for await (const value of new Decoder().decodeStream(chunks())) void value;
  void one;
  return count;
}

// Extensions: a context type flows from the codec to the options.
interface Units { scale: number }
export class Meters {
  constructor(readonly m: number) {}
}
export const units = new ExtensionCodec<Units>();
units.register({
  type: 1,
  encode: (value, context) => (value instanceof Meters ? new Uint8Array(new Float64Array([value.m * context.scale]).buffer) : null),
  decode: (data, type, context) => new Meters(data[0] * context.scale + type),
});
units.register({ type: 2, decode: (data) => data.length, encode: null });
export const withUnits = encode(new Meters(1), { extensionCodec: units, context: { scale: 2 } });
export const backWithUnits: unknown = decode(withUnits, { extensionCodec: units, context: { scale: 2 } });
export const encoderWithUnits = new Encoder({ extensionCodec: units, context: { scale: 1 } });
export const raw: ExtData = new ExtData(5, (pos: number) => new Uint8Array(pos & 7));
export const stamp: TimeSpec = decodeTimestampToTimeSpec(encodeTimeSpecToTimestamp(encodeDateToTimeSpec(new Date())));
export const date: Date = decodeTimestampExtension(encodeTimestampExtension(new Date()) ?? new Uint8Array(4));
export const minusOne: -1 = EXT_TIMESTAMP;
export const encoderOptions: EncoderOptions = { ignoreUndefined: true, forceIntegerToFloat: false, useBigInt64: true };
// @ts-expect-error: the context must be the codec's
encode(new Meters(1), { extensionCodec: units, context: { scale: '2' } });

// Errors of the codec: where in the message (`path`), and what a stream waits for (`needed`).
export function whereInMessage(e: unknown): string {
  if (!(e instanceof FastmpError)) return '';
  const code: MessageErrorCode | FastmpErrorCode = e.code;
  if (e.code === 'DEPTH' || e.code === 'MAX_LENGTH' || e.code === 'UTF8' || e.code === 'KEY') return e.path ?? '$';
  if (e.code === 'TAG' || e.code === 'EXT' || e.code === 'UNSUPPORTED') return `${e.offset}`;
  return `${code} ${e.needed ?? -1}`;
}

// Instances: their own encode / decode, and Encoder / Decoder constructors bound to them.
export function onInstance(fm: Fastmp, x: Int32Array): Int32Array<ArrayBuffer> | undefined {
  const { encode: encodeOn, decode: decodeOn, Encoder: InstanceEncoder, Decoder: InstanceDecoder } = fm;
  const bytes: Uint8Array<ArrayBuffer> = new InstanceEncoder({ typedArrays: 'array' }).encode({ x }) ?? encodeOn({ x });
  const back: Int32Array<ArrayBuffer> | undefined = decodeOn(bytes, { shape: { x: Int32Array } }).x;
  void fm.decodeArrayStream;
  return back ?? new InstanceDecoder({ shape: { x: Int32Array } }).decode(bytes).x;
}

// @ts-expect-error: no such option (typedArrays)
encode(new Float32Array(1), { typedArray: 'ext' });
// @ts-expect-error: no such typedArrays mode
new Encoder({ typedArrays: 'raw' });
// @ts-expect-error: no such decoder option
decode(new Uint8Array(1), { shapes: { v: Float32Array } });
// @ts-expect-error: maxDepth is a number
decode(new Uint8Array(1), { maxDepth: '8' });
// @ts-expect-error: Array is no typed array
decode(new Uint8Array(1), { shape: { v: Array } });
// @ts-expect-error: decode takes bytes, not a string
decode('x');
// @ts-expect-error: the Decoder's shape types its results
export const wrongShape: Float64Array | undefined = new Decoder({ shape: { v: Float32Array } }).decode(new Uint8Array(1)).v;
// @ts-expect-error: no such error code
export const noMessageCode: MessageErrorCode = 'NOT_ARRAY';

// Errors as @msgpack/msgpack users catch them: DecodeError, RangeError; the default export.
export function caught(bytes: Uint8Array): string {
  try {
    msgpack.decode(bytes);
    return 'ok';
  } catch (e) {
    if (e instanceof RangeError && e instanceof FastmpError) return `cut short: ${e.code} ${e.needed ?? -1} ${e.path ?? ''}`;
    if (e instanceof DecodeError) return `bad input: ${e.code} at ${e.offset}`;
    throw e;
  }
}

// A DecodeError of one's own: the message alone (code 'DECODE'), or a code and message (index, offset -1).
export const ownErrors: DecodeError[] = [new DecodeError('bad payload'), new DecodeError('TYPE', 'not a point')];

// The codes alloc() and packView() throw are FastmpErrorCodes (NOT_READY before the pack
// kernels have loaded, NO_WASM on an instance that runs no wasm).
export function zeroCopyOrNull(n: number): Float32Array | null {
  try {
    return alloc(Float32Array, n);
  } catch (e) {
    if (e instanceof FastmpError && (e.code === 'NO_WASM' || e.code === 'NOT_READY')) return null;
    throw e;
  }
}
