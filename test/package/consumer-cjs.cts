// A CommonJS TypeScript consumer: require() of the package (tsc --strict).
import fastmp = require('fastmp-wasm');

const bytes: Uint8Array = fastmp.pack(new Int32Array([1, -1]));
const back: Int32Array = fastmp.unpack(bytes, Int32Array);
export const backend: 'simd' | 'scalar' = fastmp.backend();
export const first: number = back[0];
// @ts-expect-error: unpack needs the target type
fastmp.unpack(bytes);
