// index.js - the public API, and the browser entry: `await init()` once before
// the first call. Node: import 'fastmp-wasm' (js/node.js), which is ready on
// import. The functions are js/module-api.js's; this entry's instances load
// the sibling .wasm files (js/siblings.js).

import { createInstance, createInstanceSync, initFrom, initSyncFrom } from './instance.js';
import { SIBLING_WASM } from './siblings.js';

export * from './module-api.js';
export { default } from './module-api.js';

/**
 * Loads the build this engine runs (SIMD where it has it) as the default
 * instance; resolves to the backend in use ('simd', 'scalar' or 'js'). When
 * calls overlap, the last one made wins. Options as createFastmp()'s.
 */
export const init = (options) => initFrom(SIBLING_WASM, options);
/** init() done synchronously (Node, Workers, or options.wasm); returns the backend in use. */
export const initSync = (options) => initSyncFrom(SIBLING_WASM, options);
/**
 * A new instance with its own wasm module: every function of this module as a
 * method. Options: backend 'auto' | 'simd' | 'scalar' | 'js', wasm (a module,
 * its bytes or a Response, instead of the sibling file), pureJs 'auto' |
 * 'never' | 'always'.
 */
export const createFastmp = (options) => createInstance(SIBLING_WASM, options);
/** createFastmp() without a promise. */
export const createFastmpSync = (options) => createInstanceSync(SIBLING_WASM, options);
