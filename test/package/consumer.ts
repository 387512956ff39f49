// A consumer of the installed package, type-checked with tsc --strict.
import { FastmpError, backend, createFastmp, decodeBMP, encodeBMP, init, initSync, pack, unpack, type Backend } from 'fastmp-wasm';
import * as inline from 'fastmp-wasm/inline';

export async function main(): Promise<string> {
  const b: Backend = await init({ backend: 'auto' });
  const s: Backend = initSync({ backend: 'scalar', wasm: new Uint8Array(8) });
  const i: Backend = await inline.init();
  const bytes: Uint8Array = pack(new Float32Array([1.5]));
  const floats: Float32Array = unpack(bytes, Float32Array);
  const text: string = decodeBMP(encodeBMP('Zoë'));
  try {
    unpack(new Uint8Array([0xc0]), Int16Array);
  } catch (e) {
    if (e instanceof FastmpError) return e.code;
  }
  return `${b} ${s} ${i} ${backend()} ${floats[0]} ${text}`;
}

// Results are over an ArrayBuffer: a BufferSource as they are (TypeScript >= 5.7).
export async function send(url: string): Promise<ArrayBuffer> {
  const fm = await createFastmp();
  const bytes = fm.pack(new Float32Array([1.5]));
  await fetch(url, { method: 'POST', body: new Blob([bytes, inline.encodeBMP('a')]) });
  const floats: Float32Array<ArrayBuffer> = unpack(bytes, Float32Array);
  return crypto.subtle.digest('SHA-256', floats);
}

// @ts-expect-error: pack takes a typed array
pack([1.5]);
// @ts-expect-error: no such backend
initSync({ backend: 'fast' });
