// instances.js - createFastmp(): an instance of one's own, with its own wasm
// memory and modules, every function of js/surface.js as a method over its
// core (js/core.js), through the same code the module API runs on the
// default instance. Instances share nothing: two with different backends
// live side by side.

import { Core, readInitOptions, statsOf } from './core.js';
import { makeCodec } from './codec/make.js';
import { PACK, STRINGS, UNPACK } from './io.js';
import * as strings from './strings.js';
import * as typed from './typed.js';

const ALL_MODULES = [PACK, UNPACK, STRINGS];

/** An instance's methods over `core`: js/surface.js's names (test/surface.test.js holds them to it). */
function makeInstance(core) {
  const stringMethods = Object.fromEntries(Object.entries(strings).map(([name, fn]) => [name, (a, b) => fn(core, a, b)]));
  const instance = {
    pack: (x, options) => typed.pack(core, x, options),
    packBool: (x) => typed.packBool(core, x),
    packBoolView: (x) => typed.packBoolView(core, x),
    packInto: (x, target, offset, options) => typed.packInto(core, x, target, offset, options),
    packView: (x, options) => typed.packView(core, x, options),
    unpack: (bytes, Type, options) => typed.unpack(core, bytes, Type, options),
    unpackFrom: (bytes, Type, offset, options) => typed.unpackFrom(core, bytes, Type, offset, options),
    unpackBool: (bytes) => typed.unpackBool(core, bytes),
    unpackBoolFrom: (bytes, offset) => typed.unpackBoolFrom(core, bytes, offset),
    alloc: (Type, n) => typed.alloc(core, Type, n),
    free: (x) => typed.free(core, x),
    refresh: (x) => typed.refresh(core, x),
    ...stringMethods,
    ...makeCodec(core),
    backend: () => core.builtAs(),
    memoryStats: () => statsOf(core),
  };
  return Object.freeze(Object.defineProperty(instance, CORE, { value: core }));
}

/** An instance's core, reachable from the instance (tests and tools read it by this key). */
export const CORE = Symbol('fastmp core');

/**
 * createFastmp() of an entry whose builds `finder` finds: a new instance
 * with its own wasm memory, every module loaded. Options: backend 'auto'
 * (default: SIMD where the engine has it; pure JS where compiling wasm is
 * refused) | 'simd' | 'scalar' | 'js' (pure JS, WebAssembly never touched);
 * wasm: one of fastmp's modules (a WebAssembly.Module, its bytes, or a
 * Response), or an array of them, instead of the entry's own builds; pureJs
 * 'auto' (default: small inputs in JS) | 'never' | 'always'.
 */
export async function createInstance(finder, options) {
  const core = new Core({ ...readInitOptions(options, 'createFastmp'), finder });
  await core.loadAll(ALL_MODULES);
  return makeInstance(core);
}

/**
 * createInstance() without a promise: the modules it can read synchronously
 * (Node, an inlined build, the modules given) are loaded now; any other
 * loads on its first call that needs it.
 */
export function createInstanceSync(finder, options) {
  const core = new Core({ ...readInitOptions(options, 'createFastmpSync'), finder });
  // Only what loads synchronously: ready() would start every other module's load now (on a
  // page, a fetch of each), not on the first call that needs it.
  if (core.build !== 'js') for (const module of ALL_MODULES) core.loadSync(module, true);
  return makeInstance(core);
}
