// A CommonJS TypeScript consumer: require() of the package (tsc --strict,
// module node16: the package's `require` types, js/index.d.cts).
import fastmp = require('fastmp-wasm');
import inline = require('fastmp-wasm/inline');
import { unpack } from 'fastmp-wasm';

const bytes: Uint8Array<ArrayBuffer> = fastmp.pack(new Int32Array([1, -1]));
const back: Int32Array = unpack(bytes, Int32Array);
export const backend: fastmp.Backend = fastmp.backend();
export const first: number = back[0];
export const blob = new Blob([bytes, inline.encodeBMP('a')]);
// @ts-expect-error: unpack needs the target type
fastmp.unpack(bytes);
