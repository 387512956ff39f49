// instance.js - fastmp instances, and the default one the module-level API uses.
//
// createFastmp(options) loads a wasm build and returns an instance: every API
// function as a method, bound to the instance's own wasm module and boundary
// (js/memory.js). Instances share nothing: two with different backends live
// side by side. init() / initSync() replace the default instance, which the
// module-level functions of js/module-api.js delegate to. Each entry gets
// these functions from loaders(finder), with the finder of its wasm builds
// (js/loader.js): so an entry's bundle holds only its own way to the wasm.

import { ANY, readOptions, oneOf } from './args.js';
import { makeApi } from './api.js';
import { instantiate, instantiateSync, wasmCompileAllowed } from './loader.js';
import { Boundary, NoWasmBoundary } from './memory.js';

const INIT_OPTIONS = { backend: oneOf('auto', 'simd', 'scalar', 'js'), wasm: ANY, pureJs: oneOf('auto', 'never', 'always') };

/** The options of createFastmp() / init(), read once and checked: a fresh object of the given keys. */
const readInitOptions = (options, fn) => readOptions(options, fn, INIT_OPTIONS);

/**
 * The checked options, and what loading needs: the boundary is made once the
 * module exists. `noWasm` is set when no module is to be loaded: backend 'js',
 * or 'auto' where compiling wasm is refused (a strict Content Security Policy).
 */
function prepare(options, fn, finder) {
  const { backend = 'auto', wasm, pureJs = 'auto' } = readInitOptions(options, fn);
  if (backend === 'js' && (pureJs === 'never' || wasm !== undefined)) {
    throw new TypeError(`fastmp: ${fn}() backend 'js' runs no wasm: it takes neither pureJs 'never' nor a wasm module`);
  }
  const noWasm = backend === 'js' || (backend === 'auto' && !wasmCompileAllowed());
  let boundary = null;
  const load = { backend, wasm, finder, onMemoryGrowth: () => boundary?.refreshViews() };
  const make = (loaded) => {
    boundary = new Boundary(loaded.exports);
    return Object.freeze(makeApi({ boundary, backend: loaded.backend, pureJs }));
  };
  const makeJs = () => Object.freeze(makeApi({ boundary: new NoWasmBoundary(), backend: 'js', pureJs: 'always' }));
  return { load, make, makeJs, noWasm };
}

async function load(options, fn, finder) {
  const { load: args, make, makeJs, noWasm } = prepare(options, fn, finder);
  return noWasm ? makeJs() : make(await instantiate(args));
}

function loadSync(options, fn, finder) {
  const { load: args, make, makeJs, noWasm } = prepare(options, fn, finder);
  return noWasm ? makeJs() : make(instantiateSync(args));
}

// ---- the default instance ---------------------------------------------------------------
// One per realm, shared by the ES module and require() entries (Node's require()
// of ES modules loads this same module): an entry that finds it made, or being
// made, leaves it alone.

const shared = { instance: null, calls: 0, latest: null };

/** The default instance; throws before init(). (Small: every module-level call inlines it.) */
export const current = () => shared.instance ?? notInitialised();

function notInitialised() {
  throw new Error('fastmp: not initialised: `await init()` first (Node: import "fastmp-wasm" does it)');
}

/**
 * The loading functions of an entry whose wasm builds `finder` finds (see
 * js/loader.js): createFastmp / createFastmpSync, and init / initSync and
 * what an entry runs on load, over the one default instance of the realm.
 */
export function loaders(finder) {
  /**
   * A new instance with its own wasm module. Options: backend 'auto' (default:
   * SIMD where the engine has it; pure JS where compiling wasm is refused) |
   * 'simd' | 'scalar' | 'js' (pure JS, WebAssembly never touched); wasm: a
   * WebAssembly.Module, its bytes, or a Response, instead of the entry's own
   * build; pureJs 'auto' (default: small inputs in JS) | 'never' | 'always'.
   */
  const createFastmp = (options) => load(options, 'createFastmp', finder);

  /** createFastmp() without a promise: Node (which reads the sibling file), Workers, inlined builds, or a precompiled module. */
  const createFastmpSync = (options) => loadSync(options, 'createFastmpSync', finder);

  /**
   * Replaces the default instance; resolves to the backend in use. When calls
   * overlap, the last one made wins: an earlier call that finishes later does
   * not install its instance, and resolves to the backend in use once the
   * last call has settled.
   */
  async function init(options) {
    const call = ++shared.calls;
    const made = load(options, 'init', finder);
    if (call === shared.calls) shared.latest = made;
    const instance = await made;
    if (call === shared.calls) {
      shared.instance = instance;
      return instance.backend();
    }
    await shared.latest?.catch(() => {});
    return current().backend();
  }

  /** init() done synchronously; returns the backend in use. It wins over any init() still loading. */
  function initSync(options) {
    const instance = loadSync(options, 'initSync', finder);
    shared.calls++;
    shared.latest = null;
    shared.instance = instance;
    return instance.backend();
  }

  /** What an entry (js/node.js, js/node.cjs) does on load: init() unless an instance exists or is loading. */
  function initDefault(options) {
    if (shared.instance !== null || shared.calls > 0) return shared.latest ?? Promise.resolve();
    return init(options);
  }

  /** initDefault() synchronously: initSync() unless an instance exists (one still loading is superseded). */
  function initDefaultSync(options) {
    if (shared.instance === null) initSync(options);
  }

  return { createFastmp, createFastmpSync, init, initSync, initDefault, initDefaultSync };
}
