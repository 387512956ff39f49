// index.js - the public API, and the browser entry. Every function works
// from the first call, in pure JS until the wasm kernels its kind of call
// needs are loaded (each loads in the background on its first need; init()
// loads those of the functions the app imports, and resolves when they are
// ready). The functions are js/module-api.js's; this entry's instances fetch
// the sibling .wasm files (js/siblings.js).

import { initFrom, initSyncFrom, setEntry } from './core.js';
import { createInstance, createInstanceSync } from './instances.js';
import { SIBLING_WASM } from './siblings.js';

export * from './module-api.js';
export { default } from './module-api.js';

setEntry(SIBLING_WASM);

/**
 * Loads the kernels of the functions this program imports (and has called)
 * into the default instance, made anew when options are given; resolves to
 * the build in use ('simd', 'scalar' or 'js'). When calls overlap, the last
 * one made wins. Options as createFastmp()'s.
 */
export const init = (options) => initFrom(SIBLING_WASM, options);
/** init() done synchronously (Node, Workers given the modules); returns the build in use. */
export const initSync = (options) => initSyncFrom(SIBLING_WASM, options);
/**
 * A new instance with its own wasm memory, every module loaded: every
 * function of this module as a method. Options: backend 'auto' | 'simd' |
 * 'scalar' | 'js', wasm (one of fastmp's modules, or an array of them,
 * instead of the sibling files), pureJs 'auto' | 'never' | 'always'.
 */
export const createFastmp = (options) => createInstance(SIBLING_WASM, options);
/** createFastmp() without a promise: the modules it cannot read synchronously load on first need. */
export const createFastmpSync = (options) => createInstanceSync(SIBLING_WASM, options);
