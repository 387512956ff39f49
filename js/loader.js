// loader.js - finds, compiles and instantiates one of the two wasm builds.
// The only file that calls WebAssembly.* (memory.js only reads the views).

// The smallest module that uses SIMD128 (i32.const 0; i8x16.splat;
// i8x16.popcnt): engines without SIMD refuse to validate it.
const SIMD_PROBE = new Uint8Array([
  0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8, 0, 65, 0, 253, 15, 253,
  98, 11,
]);

/** True when this engine runs wasm SIMD128. */
export function simdSupported() {
  return WebAssembly.validate(SIMD_PROBE);
}

// Literal URLs, so that bundlers see and copy the files.
const SIBLINGS = {
  simd: () => new URL('../dist/fastmp-simd.wasm', import.meta.url),
  scalar: () => new URL('../dist/fastmp-scalar.wasm', import.meta.url),
};

const isNode = typeof process !== 'undefined' && process.versions != null && process.versions.node != null;

async function readSibling(backend) {
  const url = SIBLINGS[backend]();
  if (url.protocol === 'file:' && isNode) {
    // A variable specifier keeps bundlers from pulling a Node builtin into browser code.
    const fsName = 'node:fs/promises';
    const fs = await import(/* @vite-ignore */ fsName);
    return fs.readFile(url);
  }
  const response = await fetch(url);
  if (!response.ok) throw new Error(`fastmp: cannot fetch ${url}: HTTP ${response.status}`);
  return response;
}

async function compile(source) {
  if (source instanceof WebAssembly.Module) return source;
  if (typeof Response !== 'undefined' && source instanceof Response) {
    // Streaming compile needs the server to send application/wasm.
    if (WebAssembly.compileStreaming && source.headers.get('content-type') === 'application/wasm') {
      return WebAssembly.compileStreaming(source);
    }
    return WebAssembly.compile(await source.arrayBuffer());
  }
  if (ArrayBuffer.isView(source) || source instanceof ArrayBuffer) return WebAssembly.compile(source);
  throw new TypeError('fastmp: options.wasm must be a WebAssembly.Module, a Response, an ArrayBuffer or a typed array');
}

/**
 * Instantiates a build. `backend` is 'auto', 'simd' or 'scalar'; `wasm`, when
 * given, is the module (or its bytes, or a Response) to use instead of the
 * sibling file, and `backend` is then read from the module itself.
 * `onMemoryGrowth` runs whenever the module's memory grows.
 * Resolves to { exports, backend }.
 */
export async function instantiate({ backend = 'auto', wasm, onMemoryGrowth }) {
  if (!['auto', 'simd', 'scalar'].includes(backend)) {
    throw new TypeError(`fastmp: backend must be 'auto', 'simd' or 'scalar', not ${String(backend)}`);
  }
  let source = wasm;
  if (source === undefined) {
    const want = backend === 'auto' ? (simdSupported() ? 'simd' : 'scalar') : backend;
    if (want === 'simd' && !simdSupported()) throw new Error("fastmp: this engine has no wasm SIMD128; use backend: 'scalar'");
    source = await readSibling(want);
  }
  const module = await compile(await source);
  const instance = await WebAssembly.instantiate(module, {
    env: { emscripten_notify_memory_growth: () => onMemoryGrowth() },
  });
  const { exports } = instance;
  exports._initialize();
  const actual = exports.fm_simd_enabled() ? 'simd' : 'scalar';
  if (backend !== 'auto' && backend !== actual) {
    throw new Error(`fastmp: asked for the ${backend} backend but the module given is the ${actual} build`);
  }
  return { exports, backend: actual };
}
