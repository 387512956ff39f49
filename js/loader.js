// loader.js - what the engine allows (wasm at all, SIMD128), and compiling a
// wasm module from what an entry's finder found or the caller gave: the
// one file that compiles wasm (js/wasm/heap.js instantiates it on its
// memory). A finder says where an entry's builds come from:
// { find(module, build), findSync(module, build) }, `module` 'pack',
// 'unpack' or 'strings', `build` 'simd' or 'scalar'; find() returns (a
// promise of) bytes, a Response or a WebAssembly.Module, findSync() bytes or
// a Module, or null where it cannot read the build synchronously (a page
// fetches). js/siblings.js and js/node.js find the .wasm files next to the
// package; js/inline.js decodes its hex copies.

import { isArrayBuffer } from './intrinsics.js';

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
 * The build an instance runs for `backend` ('auto', 'simd', 'scalar', 'js'):
 * 'auto' is 'simd' where the engine has SIMD128, 'js' where it may not
 * compile wasm. Throws when the build asked for cannot run here.
 */
export function chooseBuild(backend) {
  if (backend === 'js') return 'js';
  if (backend === 'auto') return !wasmCompileAllowed() ? 'js' : simdSupported() ? 'simd' : 'scalar';
  if (typeof WebAssembly !== 'object') throw new Error("fastmp: this engine has no WebAssembly; use backend: 'js'");
  if (backend === 'simd' && !simdSupported()) throw new Error("fastmp: this engine has no wasm SIMD128; use backend: 'scalar'");
  return backend;
}

/**
 * Module bytes as engines take them everywhere: an ArrayBuffer of any realm
 * (known by its brand, as every input is), any ArrayBufferView (V8 in Node 20
 * refuses a DataView, which BufferSource allows) as a Uint8Array; undefined
 * for anything else. (Response is not asked for here: in Node, its first use
 * loads the fetch implementation.)
 */
function wasmBytes(source) {
  if (isArrayBuffer(source)) return source;
  if (ArrayBuffer.isView(source)) return new Uint8Array(source.buffer, source.byteOffset, source.byteLength);
  return undefined;
}

const notAModule = (what, response = true) => new TypeError(`fastmp: ${what} must be a WebAssembly.Module, ${response ? 'a Response, ' : ''}an ArrayBuffer or a typed array`);

/** A compiled module from a Module, a Response or bytes (`what` names the option or finder it came from). */
export async function compile(source, what) {
  if (source instanceof WebAssembly.Module) return source;
  const bytes = wasmBytes(source);
  if (bytes !== undefined) return WebAssembly.compile(bytes);
  if (typeof Response === 'function' && source instanceof Response) {
    if (!source.ok) throw new Error(`fastmp: cannot fetch ${source.url}: HTTP ${source.status}`);
    // Streaming compile needs the server to send application/wasm.
    if (WebAssembly.compileStreaming && source.headers.get('content-type') === 'application/wasm') return WebAssembly.compileStreaming(source);
    return WebAssembly.compile(await source.arrayBuffer());
  }
  throw notAModule(what);
}

/**
 * compile() without a promise: a Module or bytes. A page's main thread may
 * refuse to compile more than a few KB synchronously (Chrome: 4 KB): null
 * then, and the caller compiles asynchronously.
 */
export function compileSync(source, what) {
  if (source instanceof WebAssembly.Module) return source;
  const bytes = wasmBytes(source);
  if (bytes === undefined) throw notAModule(what, false);
  try {
    return new WebAssembly.Module(bytes);
  } catch (e) {
    if (e instanceof RangeError) return null; // (the engine's limit on synchronous compiling)
    throw e;
  }
}

/** An export only each module has: what tells a given module's kind. */
const MODULE_MARK = { pack: 'fm_pack_f32', unpack: 'fm_unpack_f32', strings: 'fm_bmp_encode' };

/**
 * Which of `modules` (of 'pack', 'unpack', 'strings') `compiled` is; a
 * TypeError for any other module (`what` names where it came from).
 */
export function moduleOf(compiled, what, modules = Object.keys(MODULE_MARK)) {
  const names = new Set(WebAssembly.Module.exports(compiled).map((e) => e.name));
  const module = modules.find((m) => names.has(MODULE_MARK[m]));
  // (Its one import is the instance's memory: a module with a memory of its own, an older build's, would run its kernels where nothing reads.)
  if (module === undefined || !names.has('fm_simd_enabled') || WebAssembly.Module.imports(compiled).length !== 1) {
    const files = modules.map((m) => `dist/fastmp-${m}-<build>.wasm`).join(' or ');
    throw new TypeError(`fastmp: ${what} is not fastmp's ${modules.join(' or ')} module (${files})`);
  }
  return module;
}
