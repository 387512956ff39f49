// instance.js - fastmp instances, and the default one the module-level API uses.
//
// createFastmp(options) loads a wasm build and returns an instance: every API
// function as a method, bound to the instance's own wasm module and boundary
// (js/wasm/). Instances share nothing: two with different backends live
// side by side. init() / initSync() replace the default instance, which the
// module-level functions of js/module-api.js delegate to. Each entry passes
// the finder of its wasm builds (js/loader.js) to these functions, so that an
// entry's bundle holds only its own way to the wasm.

import { ANY, readOptions, oneOf } from './args.js';
import { makeInstance } from './families.js';
import { instantiate, instantiateSync, wasmCompileAllowed } from './loader.js';
import { memoryGrew, newBoundary } from './wasm/index.js';

const INIT_OPTIONS = { backend: oneOf('auto', 'simd', 'scalar', 'js'), wasm: ANY, pureJs: oneOf('auto', 'never', 'always') };

/** The options of createFastmp() / init(), read once and checked: a fresh object of the given keys. */
const readInitOptions = (options, fn) => readOptions(options, fn, INIT_OPTIONS);

/**
 * An instance's core: its boundary (js/wasm/: the wasm module's memory, or
 * none for backend 'js'), the backend that runs it, its pureJs option, and a
 * slot per family of functions, made on first use (js/families.js).
 */
const newCore = (boundary, backend, pureJs) => ({
  boundary, backend, pureJs, encodingPort: null, decodingPort: null, typed: null, strings: null, encoding: null, decoding: null,
});

/**
 * The checked options, and what loading needs: the core is made once the
 * module exists. `noWasm` is set when no module is to be loaded: backend 'js',
 * or 'auto' where compiling wasm is refused (a strict Content Security Policy).
 */
function prepare(options, fn, finder) {
  const { backend = 'auto', wasm, pureJs = 'auto' } = readInitOptions(options, fn);
  if (backend === 'js' && (pureJs === 'never' || wasm !== undefined)) {
    throw new TypeError(`fastmp: ${fn}() backend 'js' runs no wasm: it takes neither pureJs 'never' nor a wasm module`);
  }
  const noWasm = backend === 'js' || (backend === 'auto' && !wasmCompileAllowed());
  let core = null;
  const load = { backend, wasm, finder, onMemoryGrowth: () => core !== null && memoryGrew(core.boundary) };
  const make = (loaded) => (core = newCore(newBoundary(loaded.exports), loaded.backend, pureJs));
  const makeJs = () => newCore(newBoundary(null), 'js', 'always');
  return { load, make, makeJs, noWasm };
}

/** A core with its own wasm module (of the build `finder` finds, unless options.wasm). */
async function loadCore(options, fn, finder) {
  const { load: args, make, makeJs, noWasm } = prepare(options, fn, finder);
  return noWasm ? makeJs() : make(await instantiate(args));
}

function loadCoreSync(options, fn, finder) {
  const { load: args, make, makeJs, noWasm } = prepare(options, fn, finder);
  return noWasm ? makeJs() : make(instantiateSync(args));
}

/**
 * createFastmp() of an entry whose builds `finder` finds: a new instance with
 * its own wasm module. Options: backend 'auto' (default: SIMD where the engine
 * has it; pure JS where compiling wasm is refused) | 'simd' | 'scalar' | 'js'
 * (pure JS, WebAssembly never touched); wasm: a WebAssembly.Module, its bytes,
 * or a Response, instead of the entry's own build; pureJs 'auto' (default:
 * small inputs in JS) | 'never' | 'always'.
 */
export const createInstance = async (finder, options) => makeInstance(await loadCore(options, 'createFastmp', finder));

/** createInstance() without a promise: Node (which reads the sibling file), Workers, inlined builds, or a precompiled module. */
export const createInstanceSync = (finder, options) => makeInstance(loadCoreSync(options, 'createFastmpSync', finder));

// ---- the default instance ---------------------------------------------------------------
// One per realm, shared by the ES module and require() entries (Node's require()
// of ES modules loads this same module): an entry that finds it made, or being
// made, leaves it alone.

const shared = { core: null, calls: 0, latest: null };

/** The default instance's core; throws before init(). (Small: every module-level call inlines it.) */
export const current = () => shared.core ?? notInitialised();

function notInitialised() {
  throw new Error('fastmp: not initialised: `await init()` first (Node: import "fastmp-wasm" does it)');
}

/**
 * init() of an entry whose builds `finder` finds: replaces the default
 * instance; resolves to the backend in use. When calls overlap, the last one
 * made wins: an earlier call that finishes later does not install its
 * instance, and resolves to the backend in use once the last call has settled.
 */
export async function initFrom(finder, options) {
  const call = ++shared.calls;
  const made = loadCore(options, 'init', finder);
  if (call === shared.calls) shared.latest = made;
  const core = await made;
  if (call === shared.calls) {
    shared.core = core;
    return core.backend;
  }
  await shared.latest?.catch(() => {});
  return current().backend;
}

/** initFrom() done synchronously; returns the backend in use. It wins over any init() still loading. */
export function initSyncFrom(finder, options) {
  const core = loadCoreSync(options, 'initSync', finder);
  shared.calls++;
  shared.latest = null;
  shared.core = core;
  return core.backend;
}

/** What an entry (js/node.js, js/node.cjs) does on load: init() unless an instance exists or is loading. */
export function initDefault(finder, options) {
  if (shared.core !== null || shared.calls > 0) return shared.latest ?? Promise.resolve();
  return initFrom(finder, options);
}

/** initDefault() synchronously: initSync() unless an instance exists (one still loading is superseded). */
export function initDefaultSync(finder, options) {
  if (shared.core === null) initSyncFrom(finder, options);
}
