// A CommonJS TypeScript consumer: require() of the package, type-checked
// under --strict by types.test.js (module node16 and nodenext). node16 has no
// require() of ES modules: the package's `require` types (js/index.d.cts)
// are what make this compile.
import fastmp = require('fastmp-wasm');
import { pack, unpack, FastmpError, type Backend, type Fastmp } from 'fastmp-wasm';

const bytes: Uint8Array<ArrayBuffer> = fastmp.pack(new Int32Array([1, -1]));
const back: Int32Array<ArrayBuffer> = fastmp.unpack(bytes, Int32Array);
const same: Float64Array<ArrayBuffer> = unpack(pack(new Float64Array([0.5])), Float64Array);
export const backend: Backend = fastmp.backend();
export const first: number = back[0] + same[0];
export const blob = new Blob([bytes, fastmp.encodeBMP('a')]);

export function codeOf(e: unknown): fastmp.FastmpErrorCode | undefined {
  if (e instanceof fastmp.FastmpError || e instanceof FastmpError) return e.code;
  return undefined;
}

export async function instance(): Promise<fastmp.Fastmp> {
  const fm: Fastmp = await fastmp.createFastmp({ backend: 'simd' });
  const options: fastmp.InitSyncOptions = { pureJs: 'never' };
  return fm.backend() === 'simd' ? fm : fastmp.createFastmpSync(options);
}

// @ts-expect-error: unpack needs the target type
fastmp.unpack(bytes);

// Whole messages, with the types named through the namespace.
const shape = { v: Float32Array, tags: [Uint16Array] } satisfies fastmp.Shape;
const options: fastmp.DecoderOptions<undefined, typeof shape> = { shape, maxDepth: 4 };
export const message: fastmp.DecodedBy<typeof shape> = fastmp.decode(fastmp.encode({ v: new Float32Array(1) }), options);
export const v: Float32Array<ArrayBuffer> | undefined = message.v;
export const encoder: fastmp.Encoder = new fastmp.Encoder({ typedArrays: 'bin' });
export const decoder: fastmp.Decoder<undefined, typeof shape> = new fastmp.Decoder({ shape });
export const codec: fastmp.ExtensionCodec<{ id: number }> = new fastmp.ExtensionCodec<{ id: number }>();
export const marker: fastmp.MapOf = fastmp.mapOf(Int8Array);
export const messageCode: fastmp.MessageErrorCode = 'DEPTH';

// @ts-expect-error: no such export
fastmp.encodeMessage;
// @ts-expect-error: no such Encoder option
new fastmp.Encoder({ sorted: true });
