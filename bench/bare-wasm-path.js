// bare-wasm-path.js - the lightest honest way from an encoder to the pack
// kernels: a size baseline, as the benchmarks' JS loops are speed baselines.
// No app runs it. bench/size-costs.js puts it in the place of the package's
// wasm path (js/loader.js, js/core.js, js/wasm/, ...) to tell what an
// encode-only app would weigh with nothing between the codec and the kernels
// but this: a SIMD probe, one instantiate, and per typed array a copy in, a
// call and a copy out. What it leaves out is what the package's path adds:
// options and instances, a given module checked, synchronous loading, pure JS
// where wasm is refused, outputs written in place in wasm memory, lifetimes
// and aliasing checks. It imports nothing, so that its own bytes are its cost;
// test/size.test.js checks that it packs every kind as pack() does.

// The smallest module that uses SIMD128: engines without SIMD refuse to validate it.
const PROBE = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8, 0, 65, 0, 253, 15, 253, 98, 11]);
// Bytes a packer may write besides its elements: the longest array header, and SIMD stores past the end.
export const BARE_HEADER_AND_SLACK = 5 + 16;

// The module's memory: the kernels' input and output from its first free megabyte (c/fastmp.h FM_HEAP_BASE).
const FREE_FROM = 0x100000;
const PAGE = 65536;

let kernels = null;
let memory = null;

/** Loads the pack module's build for this engine; `read(url)` resolves to its bytes (a page: fetch's arrayBuffer). */
export async function bareInit(read = async (url) => (await fetch(url)).arrayBuffer()) {
  const simd = WebAssembly.validate(PROBE);
  const url = simd ? new URL('../dist/fastmp-pack-simd.wasm', import.meta.url) : new URL('../dist/fastmp-pack-scalar.wasm', import.meta.url);
  memory = new WebAssembly.Memory({ initial: 32, maximum: 65536 });
  const { instance } = await WebAssembly.instantiate(await read(url), { env: { memory } });
  kernels = instance.exports;
  kernels._initialize();
}

/** The msgpack array of `values` (a typed array of `kind`, js/kinds.js: its kernel and widest element form). */
export function barePack(kind, values) {
  const size = values.byteLength;
  const bound = values.length * kind.wire + BARE_HEADER_AND_SLACK;
  const input = FREE_FROM;
  const output = input + size + (-size & 15);
  const need = output + bound - memory.buffer.byteLength;
  if (need > 0) memory.grow(Math.ceil(need / PAGE));
  new Uint8Array(memory.buffer, input, size).set(new Uint8Array(values.buffer, values.byteOffset, size));
  const written = kernels[kind.pack](input, values.length, output);
  return new Uint8Array(memory.buffer, output, written).slice();
}
