// instance.js - fastmp instances, and the default one the module-level API uses.
//
// createFastmp(options) loads a wasm build and returns an instance: every API
// function as a method, bound to the instance's own wasm modules and their
// boundaries (js/wasm/). Instances share nothing: two with different backends live
// side by side. init() / initSync() replace the default instance, which the
// module-level functions of js/module-api.js delegate to. Each entry passes
// the finder of its wasm builds (js/loader.js) to these functions, so that an
// entry's bundle holds only its own way to the wasm.

import { ANY, readOptions, oneOf } from './args.js';
import { makeInstance } from './families.js';
import { chooseBackend, instantiate, instantiateSync, wasmCompileAllowed } from './loader.js';
import { FAMILY, FILE_STEM, STRINGS, TYPED, usedModules } from './modules.js';
import { memoryGrew, newBoundary } from './wasm/index.js';

const INIT_OPTIONS = {
  backend: oneOf('auto', 'simd', 'scalar', 'js'), wasm: ANY, stringsWasm: ANY, pureJs: oneOf('auto', 'never', 'always'),
};

/** The options of createFastmp() / init(), read once and checked: a fresh object of the given keys. */
const readInitOptions = (options, fn) => readOptions(options, fn, INIT_OPTIONS);

/** Where a core keeps the boundary of each family's wasm module (js/modules.js). */
const SLOT = { [TYPED]: 'boundary', [STRINGS]: 'stringsBoundary' };
const BOUNDARY = (module) => SLOT[FAMILY[module]];

/**
 * An instance's core: the boundary of each of its wasm modules (js/wasm/:
 * the module's memory; null until the module loads, a boundary of no wasm
 * for backend 'js'), the backend that runs it, its pureJs option, `need`
 * (loads a module synchronously: for a family whose module init() did not
 * load), and a slot per family of functions, made on first use (js/families.js).
 */
const newCore = (backend, pureJs) => ({
  boundary: null, stringsBoundary: null, backend, pureJs, need: null,
  encodingPort: null, decodingPort: null, typed: null, strings: null, encoding: null, decoding: null,
});

/** A core without wasm: every module's boundary one of no wasm. */
function jsCore() {
  const core = newCore('js', 'always');
  core.boundary = core.stringsBoundary = newBoundary(null);
  core.need = () => {};
  return core;
}

/**
 * The checked options, and the core they make before any module loads.
 * `noWasm` is set when no module is to be loaded: backend 'js', or 'auto'
 * where compiling wasm is refused (a strict Content Security Policy).
 * `argsOf(module)` are js/loader.js's arguments for one module: a module
 * given in the options decides the build where backend is 'auto'; every
 * other module then loads that build.
 */
function prepare(options, fn, finder) {
  const { backend = 'auto', wasm, stringsWasm, pureJs = 'auto' } = readInitOptions(options, fn);
  const given = { [TYPED]: wasm, [STRINGS]: stringsWasm };
  if (backend === 'js' && (pureJs === 'never' || wasm !== undefined || stringsWasm !== undefined)) {
    throw new TypeError(`fastmp: ${fn}() backend 'js' runs no wasm: it takes neither pureJs 'never' nor a wasm module`);
  }
  const noWasm = backend === 'js' || (backend === 'auto' && !wasmCompileAllowed());
  if (noWasm) return { noWasm, core: jsCore() };
  const core = newCore(null, pureJs);
  const argsOf = (module) => ({
    module, backend: core.backend ?? backend, wasm: given[module], finder,
    onMemoryGrowth: () => core[BOUNDARY(module)] !== null && memoryGrew(core[BOUNDARY(module)]),
  });
  const install = (module, loaded) => {
    core.backend = loaded.backend;
    core[BOUNDARY(module)] = newBoundary(loaded.exports);
  };
  core.need = (module) => core[BOUNDARY(module)] ?? install(module, instantiateSync(argsOf(module)) ?? notLoaded(module, core.backend));
  // The modules to load now: one per family this program uses (the typed
  // family's TYPED or PACK, js/modules.js), a given module in its family's place.
  const moduleOf = (family) => (given[family] !== undefined ? family : usedModules().find((m) => FAMILY[m] === family));
  const modules = [TYPED, STRINGS].map(moduleOf).filter((m) => m !== undefined);
  const first = modules.filter((m) => given[m] !== undefined); // they tell the build
  const rest = modules.filter((m) => given[m] === undefined);
  const settle = () => (core.backend ??= chooseBackend(backend));
  return { noWasm, core, argsOf, install, first, rest, settle };
}

/** A core with the wasm modules its program uses (of the builds `finder` finds, unless given). */
async function loadCore(options, fn, finder) {
  const { noWasm, core, argsOf, install, first, rest, settle } = prepare(options, fn, finder);
  if (noWasm) return core;
  for (const m of first) install(m, await instantiate(argsOf(m)));
  settle();
  const loaded = await Promise.all(rest.map((m) => instantiate(argsOf(m))));
  rest.forEach((m, i) => install(m, loaded[i]));
  return core;
}

/**
 * loadCore() without a promise. A module the entry cannot read synchronously
 * (a page: the sibling files are fetched) and that was not given is left to
 * load on first use, which then says what to do; none loaded at all is that
 * error now.
 */
function loadCoreSync(options, fn, finder) {
  const { noWasm, core, argsOf, install, first, rest, settle } = prepare(options, fn, finder);
  if (noWasm) return core;
  for (const m of first) install(m, instantiateSync(argsOf(m)));
  settle();
  const unread = rest.filter((m) => {
    const loaded = instantiateSync(argsOf(m));
    if (loaded !== null) install(m, loaded);
    return loaded === null;
  });
  if (first.length === 0 && rest.length > 0 && unread.length === rest.length) notLoaded(rest[0], core.backend);
  return core;
}

/** Throws: `module` is neither loaded nor readable synchronously by this entry here. */
function notLoaded(module, build) {
  const file = `${FILE_STEM[module]}${build}.wasm`;
  throw new Error(`fastmp: the ${module} module (${file}) is not loaded, and only Node >= 20.16 reads it synchronously: \`await init()\` once the code that calls its functions is imported (init() loads the modules of the functions imported so far), or pass initSync() or createFastmpSync() the module as options.${FAMILY[module] === TYPED ? 'wasm' : 'stringsWasm'} (bytes or a WebAssembly.Module)`);
}

/**
 * createFastmp() of an entry whose builds `finder` finds: a new instance with
 * its own wasm modules. Options: backend 'auto' (default: SIMD where the engine
 * has it; pure JS where compiling wasm is refused) | 'simd' | 'scalar' | 'js'
 * (pure JS, WebAssembly never touched); wasm, stringsWasm: a
 * WebAssembly.Module, its bytes, or a Response, instead of the entry's own
 * build of the typed-array or the string module; pureJs 'auto' (default:
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
