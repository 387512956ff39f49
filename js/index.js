// index.js - the public API, and the browser entry: `await init()` once before
// the first call. Node: import 'fastmp-wasm' (js/node.js), which is ready on
// import. The functions are js/module-api.js's; this entry's instances load
// the sibling .wasm files (js/siblings.js).

import { loaders } from './instance.js';
import { SIBLING_WASM } from './siblings.js';

export * from './module-api.js';
export { default } from './module-api.js';

export const { createFastmp, createFastmpSync, init, initSync } = loaders(SIBLING_WASM);
