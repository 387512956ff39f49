// loader.js - compiles and instantiates one of the two wasm builds, from the
// module the caller gives or the one its finder finds. The only file that
// calls WebAssembly.* (js/wasm/ only reads the views).
//
// A finder says where an entry's builds come from: { find(module, build),
// findSync(module, build) }, `module` one of js/modules.js, `build` 'simd' or
// 'scalar'; find() returns (a promise of) bytes, a Response or a
// WebAssembly.Module, findSync() bytes or a Module, or null where it cannot
// read the build synchronously (a page fetches). js/siblings.js finds
// the .wasm files next to the package; js/inline.js decodes its hex copies.

import { FAMILY, FILE_STEM, MODULE_MARK, TYPED } from './modules.js';

// The smallest module that uses SIMD128 (i32.const 0; i8x16.splat;
// i8x16.popcnt): engines without SIMD refuse to validate it.
const SIMD_PROBE = new Uint8Array([
  0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8, 0, 65, 0, 253, 15, 253,
  98, 11,
]);

/** True when this engine runs wasm SIMD128. */
export function simdSupported() {
  return typeof WebAssembly === 'object' && WebAssembly.validate(SIMD_PROBE);
}

// The smallest module (magic and version only).
const EMPTY_MODULE = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]);

/**
 * True when this page or process may compile wasm at all. A Content Security
 * Policy without 'wasm-unsafe-eval' (e.g. script-src 'self'), or an embedder
 * that turned code generation off, refuses even the smallest module; validating
 * one compiles nothing, so only compiling tells.
 */
export function wasmCompileAllowed() {
  if (typeof WebAssembly !== 'object') return false;
  try {
    new WebAssembly.Module(EMPTY_MODULE); // compiling is the question
    return true;
  } catch {
    return false;
  }
}

/**
 * Module bytes as engines take them everywhere: any ArrayBufferView (V8 in
 * Node 20 refuses a DataView, which BufferSource allows) as a Uint8Array.
 */
function wasmBytes(source) {
  if (source instanceof ArrayBuffer) return source;
  if (ArrayBuffer.isView(source)) return new Uint8Array(source.buffer, source.byteOffset, source.byteLength);
  return undefined;
}

async function compile(source, option) {
  if (source instanceof WebAssembly.Module) return source;
  if (typeof Response !== 'undefined' && source instanceof Response) {
    // Streaming compile needs the server to send application/wasm.
    if (WebAssembly.compileStreaming && source.headers.get('content-type') === 'application/wasm') {
      return WebAssembly.compileStreaming(source);
    }
    return WebAssembly.compile(await source.arrayBuffer());
  }
  const bytes = wasmBytes(source);
  if (bytes !== undefined) return WebAssembly.compile(bytes);
  throw new TypeError(`fastmp: options.${option} must be a WebAssembly.Module, a Response, an ArrayBuffer or a typed array`);
}

/**
 * The build to load for `backend` ('auto', 'simd' or 'scalar'): 'auto' is
 * 'simd' where the engine has SIMD128. Throws when it cannot run here.
 */
export function chooseBackend(backend = 'auto') {
  checkBackend(backend);
  const want = backend === 'auto' ? (simdSupported() ? 'simd' : 'scalar') : backend;
  if (want === 'simd' && !simdSupported()) throw new Error("fastmp: this engine has no wasm SIMD128; use backend: 'scalar'");
  return want;
}

function checkBackend(backend) {
  if (!['auto', 'simd', 'scalar'].includes(backend)) {
    throw new TypeError(`fastmp: backend must be 'auto', 'simd' or 'scalar', not ${String(backend)}`);
  }
}

const imports = (onMemoryGrowth) => ({ env: { emscripten_notify_memory_growth: () => onMemoryGrowth() } });

/** Checks a compiled module is fastmp's `module` (a module given as options.wasm may be another). */
function checkModule(compiled, module, option) {
  const names = WebAssembly.Module.exports(compiled).map((e) => e.name);
  if (!names.includes(MODULE_MARK[FAMILY[module]]) || !names.includes('fm_simd_enabled')) {
    throw new TypeError(`fastmp: options.${option} is not fastmp's ${module} module (dist/${FILE_STEM[module]}<build>.wasm)`);
  }
  return compiled;
}

/** The option of createFastmp() / init() that gives `module` (js/instance.js reads them). */
const moduleOption = (module) => (FAMILY[module] === TYPED ? 'wasm' : 'stringsWasm');

/** Starts an instance and checks it is the build asked for: { exports, backend }. */
function started(instance, backend) {
  const { exports } = instance;
  exports._initialize();
  const actual = exports.fm_simd_enabled() ? 'simd' : 'scalar';
  if (backend !== 'auto' && backend !== actual) {
    throw new Error(`fastmp: asked for the ${backend} backend but the module given is the ${actual} build`);
  }
  return { exports, backend: actual };
}

/**
 * Instantiates a build of `module` (js/modules.js). `backend` is 'auto',
 * 'simd' or 'scalar'; `wasm`, when given, is the module (or its bytes, or a
 * Response) to use, and `backend` is then read from the module itself;
 * otherwise `finder.find()` gets the build `backend` picks. `onMemoryGrowth`
 * runs whenever the module's memory grows. Resolves to { exports, backend }.
 */
export async function instantiate({ module, backend = 'auto', wasm, finder, onMemoryGrowth }) {
  checkBackend(backend);
  const source = wasm === undefined ? finder.find(module, chooseBackend(backend)) : wasm;
  const compiled = checkModule(await compile(await source, moduleOption(module)), module, moduleOption(module));
  return started(await WebAssembly.instantiate(compiled, imports(onMemoryGrowth)), backend);
}

/**
 * instantiate() without a promise, for Node, workers and precompiled modules:
 * `wasm` (or what `finder.findSync()` returns) is a WebAssembly.Module or its
 * bytes. Returns null when `finder` cannot read the build synchronously. It
 * blocks while it compiles (tens of KB; Chrome once refused more than 4 KB on
 * a page's main thread), so pages should prefer instantiate().
 */
export function instantiateSync({ module, backend = 'auto', wasm, finder, onMemoryGrowth }) {
  checkBackend(backend);
  const source = wasm === undefined ? finder.findSync(module, chooseBackend(backend)) : wasm;
  if (source === null) return null; // the finder cannot read it synchronously here
  const bytes = wasmBytes(source);
  let compiled = source;
  if (bytes !== undefined) compiled = new WebAssembly.Module(bytes);
  else if (!(source instanceof WebAssembly.Module)) {
    throw new TypeError(`fastmp: initSync() options.${moduleOption(module)} must be a WebAssembly.Module, an ArrayBuffer or a typed array`);
  }
  checkModule(compiled, module, moduleOption(module));
  return started(new WebAssembly.Instance(compiled, imports(onMemoryGrowth)), backend);
}
