// core.js - an instance's state (a Core), the default instance the
// module-level functions use, and how kernels get loaded.
//
// An instance runs every call from the start: in pure JS until the wasm
// module of that kind of call is loaded, with its kernels after. A module
// loads on the first call that needs it (js/io.js asks ready()): at once
// where it can be read synchronously (Node, an inlined build, a module
// given in the options), else in the background, the call and those after
// it running in pure JS until it is there. init() loads, and waits for, the
// modules of the functions a program imports (each marks its module when
// evaluated: uses()) and of those it has called. Which module each function
// needs is stated once, in js/surface.js.

import { ANY, oneOf, readOptions } from './args.js';
import { PACK, STRINGS, UNPACK, limitsOf } from './io.js';
import { isNode } from './runtime.js';
import { chooseBuild, compile, compileSync, moduleOf } from './loader.js';
import * as heapVerbs from './wasm/heap.js';

export { PACK, STRINGS, UNPACK };
const MODULES = [PACK, UNPACK, STRINGS];

// ---- marks ---------------------------------------------------------------------------------

/** The modules of the functions this program holds (their files call uses() when evaluated). */
const MARKED = new Set();

/** The module a public function marks (its property: test/surface.test.js reads it). */
export const MODULE = Symbol('fastmp module');

/**
 * `value` (a public function), after marking its module as one this program
 * uses. Its calls are annotated pure: a bundler drops one with the function.
 */
export function uses(module, value) {
  MARKED.add(module);
  value[MODULE] = module;
  return value;
}

// ---- options ------------------------------------------------------------------------------

/** What the `backend` option (and Node's FASTMP_BACKEND) may name. */
export const BACKENDS = ['auto', 'simd', 'scalar', 'js'];

const INIT_OPTIONS = {
  backend: oneOf(...BACKENDS), wasm: ANY, stringsWasm: ANY, pureJs: oneOf('auto', 'never', 'always'),
};

/**
 * The options of createFastmp() / init() (`fn`), read once and checked:
 * { backend, pureJs, given }, `given` the modules given ({ source, what,
 * modules }: what it may be): `wasm`, the typed-array kernels (the pack or
 * the unpack module, or an array of both) and `stringsWasm`, the string
 * kernels: a WebAssembly.Module, its bytes or a Response each.
 */
export function readInitOptions(options, fn) {
  const { backend, pureJs, wasm, stringsWasm } = readOptions(options, fn, INIT_OPTIONS);
  const given = [];
  const add = (source, option, modules) => {
    if (Array.isArray(source)) source.forEach((s, i) => given.push({ source: s, what: `${fn}() options.${option}[${i}]`, modules }));
    else if (source !== undefined) given.push({ source, what: `${fn}() options.${option}`, modules });
  };
  add(wasm, 'wasm', [PACK, UNPACK]);
  add(stringsWasm, 'stringsWasm', [STRINGS]);
  // A promise given is watched now, as Promise.all() watches its own: it is awaited later, one
  // after another (none after one that fails, none where the options are refused), and one
  // rejecting meanwhile would be unhandled (Node ends the process). The caller still gets it.
  // (Any thenable, as await takes it: a promise of another realm (an iframe's fetch()) is no
  // `instanceof Promise`. Watched once, through this realm's promise, which is then what is awaited.)
  for (const g of given) if (typeof g.source?.then === 'function') (g.source = Promise.resolve(g.source)).catch(() => {});
  return { backend, pureJs, given };
}

// ---- a core --------------------------------------------------------------------------------

/**
 * One instance's state: its options, its heap (js/wasm/heap.js, once a
 * module is loaded), the build its kernels are (or will be), its limits
 * (js/io.js), and what the message codec keeps between calls.
 */
export class Core {
  /**
   * @param {object} o the checked options: backend ('auto' | 'simd' |
   *   'scalar' | 'js'), pureJs ('auto' | 'never' | 'always'), given (the
   *   modules the caller gave: readInitOptions()), finder (the entry's:
   *   js/loader.js)
   */
  constructor({ backend = 'auto', pureJs = 'auto', given = [], finder }) {
    if (backend === 'js' && (pureJs === 'never' || given.length > 0)) {
      throw new TypeError("fastmp: backend 'js' runs no wasm: it takes neither pureJs 'never' nor a wasm module");
    }
    this.backend = backend;
    this.pureJs = pureJs;
    this.given = given; // each compiled, and attached as the module its exports say, on first need
    this.finder = finder;
    this.build = null; // 'simd' | 'scalar' | 'js', decided on first need (build())
    this.limits = null;
    this.heap = null;
    this.loading = { pack: null, unpack: null, strings: null }; // each module's load in progress
    this.failed = { pack: null, unpack: null, strings: null }; // why a module could not load
    this.called = new Set(); // modules a call needed
    this.settling = null; // settleGiven() under way: every load waits for it (the build is not known before)
    // The message codec's, kept between calls (js/codec/): store pools, kept Encoders / Decoders, the field reader's window.
    this.pools = { js: null, wasm: null };
    this.encoder = null;
    this.encoders = [];
    this.decoder = null;
    this.decoders = [];
    this.window = null;
    this.windowUses = 0;
    this.setBuild(backend === 'auto' && given.length > 0 ? null : chooseBuild(backend));
  }

  /** Sets the build (null: not known until a given module is loaded: 'auto' with a module given) and the limits it has. */
  setBuild(build) {
    this.build = build;
    this.limits = limitsOf(build ?? chooseBuild('auto'), this.pureJs);
  }

  /** Whether `module`'s kernels are attached to this instance's heap. */
  attached(module) {
    return this.heap !== null && heapVerbs.has(this.heap, module);
  }

  /**
   * Whether `module`'s kernels can run now: attached, or loaded synchronously
   * here. Else its load starts (unless it is under way or failed), and the
   * caller takes its pure-JS path.
   */
  ready(module) {
    return this.attached(module) || this.readyNow(module);
  }

  /** ready() of a module not attached yet (apart, so that V8 inlines ready() into every call that asks). */
  readyNow(module) {
    this.called.add(module);
    if (this.build === 'js' || this.failed[module] !== null || this.loading[module] !== null) return false;
    if (this.loadSync(module, true)) return true;
    if (this.failed[module] !== null) return false; // (it could not be read: kept, as a load's failure is)
    this.load(module).catch(() => {}); // (its failure is kept: init() reports it)
    return false;
  }

  /**
   * Loads `module` synchronously where its source can be read so; false where
   * it cannot. What the entry's finder found and cannot be had (a missing or
   * broken file) throws, or with `keep` is kept in failed[], as a load in the
   * background keeps it: the calls then run in pure JS, and init() says why.
   * (A module given in the options that cannot be had always throws.)
   */
  loadSync(module, keep = false) {
    if (!this.settleGivenSync()) return false;
    if (this.attached(module)) return true;
    try {
      const source = this.finder.findSync(module, this.build);
      if (source === null) return false;
      const compiled = compileSync(source, `the ${module} module`);
      if (compiled === null) return false; // (too large to compile synchronously here)
      this.attachSync(module, checkedFound(compiled, module), 'found');
    } catch (err) {
      if (!keep) throw err;
      this.failed[module] = err;
      return false;
    }
    return true;
  }

  /** Loads `module` (resolves when its kernels are attached; rejects, and remembers why, when it cannot be had). */
  load(module) {
    if (this.attached(module) || this.build === 'js') return Promise.resolve();
    this.loading[module] ??= this.loadNow(module).then(
      () => { this.loading[module] = null; },
      (err) => {
        this.loading[module] = null;
        this.failed[module] = err;
        throw err;
      },
    );
    return this.loading[module];
  }

  async loadNow(module) {
    await this.settleGiven();
    if (this.attached(module)) return;
    const compiled = checkedFound(await compile(await this.finder.find(module, this.build), `the ${module} module`), module);
    this.attach(module, await heapVerbs.attach(this.heapOf(), module, compiled, this.build), 'found');
  }

  /** The given modules compiled and attached (the first tells an 'auto' build); false where one cannot be compiled synchronously, or is being compiled asynchronously. */
  settleGivenSync() {
    if (this.settling !== null) return false;
    while (this.given.length > 0) {
      const { source, what, modules } = this.given[0];
      const compiled = compileSync(source, what);
      if (compiled === null) return false;
      this.attachSync(moduleOf(compiled, what, modules), compiled);
      this.given.shift(); // (after: one refused stays, and is refused again)
    }
    return true;
  }

  /** settleGiven() once at a time: a load made while a given module compiles waits for it (it tells the build to find). */
  settleGiven() {
    if (this.given.length > 0) {
      this.settling ??= this.settleGivenNow().finally(() => {
        this.settling = null;
        // A given module that failed told no build: the modules not given are then the engine's.
        if (this.build === null && this.given.length === 0) this.setBuild(chooseBuild('auto'));
      });
    }
    return this.settling ?? Promise.resolve();
  }

  async settleGivenNow() {
    while (this.given.length > 0) {
      const { source, what, modules } = this.given.shift();
      const compiled = await compile(await source, what);
      const module = moduleOf(compiled, what, modules);
      this.attach(module, await heapVerbs.attach(this.heapOf(), module, compiled, this.build));
    }
  }

  attachSync(module, compiled, how) {
    this.attach(module, heapVerbs.attachSync(this.heapOf(), module, compiled, this.build), how);
  }

  /**
   * A module of `build` is attached: the instance's build, where it was not
   * known; a module of another build is refused (the heap attached it only
   * if it is of this.build). `how`: 'given' in the options, or 'found' by
   * the entry (an 'auto' build is then this engine's).
   */
  attach(module, build, how = 'given') {
    if (this.build === null) this.setBuild(build);
    else if (build !== this.build) {
      const asked = this.backend === 'auto' ? `the ${this.build} build${how === 'given' ? ' of the module given before it' : ''}` : `the ${this.backend} backend`;
      throw new Error(`fastmp: asked for ${asked} but the ${module} module ${how} is the ${build} build`);
    }
  }

  heapOf() {
    return (this.heap ??= new heapVerbs.Heap());
  }

  /** Loads every module of `modules` (and waits for loads under way); rejects with the first that cannot be had. */
  async loadAll(modules) {
    await this.settleGiven();
    await Promise.all(modules.map((m) => this.load(m)));
  }

  /** The build its kernels are: 'simd', 'scalar', or 'js' (no wasm; or no module could be loaded). */
  builtAs() {
    // (Not "no heap": a module of the other build, refused, was instantiated on the instance's memory.)
    if (this.build !== null && this.build !== 'js' && MODULES.every((m) => this.failed[m] !== null && !this.attached(m))) return 'js';
    return this.build ?? chooseBuild('auto');
  }
}

/** memoryStats() of an instance. */
export const statsOf = (core) => (core.heap === null ? { wasmMemory: 0, scratch: 0 } : heapVerbs.stats(core.heap));

// ---- the default instance -------------------------------------------------------------------
// One per realm, shared by the ES module and require() entries (Node's
// require() of ES modules loads this same module). Each entry says how it
// finds its wasm and with what options the default instance starts
// (setEntry()); it is made on the first call.

const DEFAULT = { core: null, finder: null, options: {}, calls: 0, installed: 0, implicit: false };

/** The finders of the entries evaluated, the latest first (js/inline.js takes what its bundle does not hold from another). */
export const ENTRIES = [];

/**
 * What an entry's import does: how its default instance finds the wasm, and
 * its options (FASTMP_BACKEND in Node). The entry evaluated last before the
 * first call decides how the wasm is found (js/node.js after the js/index.js
 * it re-exports; fastmp-wasm/inline after either), and an entry's init()
 * without options after a call; options given by any entry hold (an
 * environment's backend stays whichever entry comes next).
 */
export function setEntry(finder, options = {}) {
  ENTRIES.unshift(finder);
  if (DEFAULT.core !== null) return;
  DEFAULT.finder = finder;
  DEFAULT.options = { ...DEFAULT.options, ...options };
}

/** The default instance's core (made on the first call). Small: every module-level call inlines it. */
export const current = () => DEFAULT.core ?? defaultCore();

function defaultCore() {
  if (DEFAULT.finder === null) throw new Error('fastmp: internal: no entry set the default instance');
  DEFAULT.core = new Core({ ...DEFAULT.options, finder: DEFAULT.finder });
  DEFAULT.implicit = true; // (made by a call: init() without options keeps it, with what it loaded)
  return DEFAULT.core;
}

/**
 * The core init() / initSync() (`fn`) of the entry `finder` is install: the
 * default one a call made, when no options are given (its modules found from
 * now on as this entry finds them: the call may have come before this entry
 * was evaluated); else a new one.
 */
function coreFor(finder, options, fn) {
  // The first init() of all is the default instance's start: calls made while it is under way use it.
  if (options === undefined && DEFAULT.core === null) defaultCore();
  if (options === undefined && DEFAULT.implicit && DEFAULT.core !== null) {
    DEFAULT.core.finder = finder;
    return DEFAULT.core;
  }
  const read = readInitOptions(options, fn);
  // A backend left out is the entry's (FASTMP_BACKEND), but where modules are given: they tell their own build.
  if (read.given.length === 0) read.backend ??= DEFAULT.options.backend;
  return new Core({ ...read, finder });
}

/** Installs `core`, made by init() call number `call`, unless a later call's is installed already. */
function install(core, call) {
  if (call < DEFAULT.installed) return;
  DEFAULT.core = core;
  DEFAULT.implicit = false;
  DEFAULT.installed = call;
}

/** The modules a program uses so far: those its functions mark and those its calls needed. */
const usedModules = (core) => MODULES.filter((m) => MARKED.has(m) || core.called.has(m));

/**
 * init(options) of an entry whose builds `finder` finds: a default instance
 * made anew (but for one a call made before any init(), which init() without
 * options keeps, with what it has loaded), into which the modules of the
 * functions this program imports (and has called) are loaded; resolves to
 * the build in use. When calls overlap, the last one made wins: an earlier
 * call that finishes later does not install its instance.
 */
export async function initFrom(finder, options) {
  const call = ++DEFAULT.calls;
  const core = coreFor(finder, options, 'init');
  const used = usedModules(core);
  // In Node what the entry can read synchronously is loaded now, as a call would load it: a call made before the promise settles finds no load under way.
  if (isNode && core.given.length === 0) for (const m of used) core.loadSync(m, true);
  await core.loadAll(used);
  install(core, call);
  return current().builtAs();
}

/** initFrom() done synchronously: what can be read synchronously (Node, inlined or given modules); throws when nothing could. */
export function initSyncFrom(finder, options) {
  const core = coreFor(finder, options, 'initSync');
  const wanted = core.build === 'js' ? [] : usedModules(core);
  const loaded = wanted.map((m) => core.loadSync(m)); // (every one: not only up to the first that loads)
  if (wanted.length > 0 && !loaded.includes(true)) throw notReadableSync(wanted[0], core);
  install(core, ++DEFAULT.calls);
  return core.builtAs();
}

/** `compiled`, which an entry's finder gave for `module`, after checking that it is that module (a wrong or stale file). */
function checkedFound(compiled, module) {
  moduleOf(compiled, `the file found for the ${module} module`, [module]);
  return compiled;
}

function notReadableSync(module, core) {
  return new Error(`fastmp: initSync() cannot read the ${module} module (fastmp-${module}-${core.build}.wasm) synchronously here (only Node >= 20.16, an inlined build and a module given in the options are): \`await init()\`, or pass initSync() the module as options.wasm (bytes or a WebAssembly.Module)`);
}
