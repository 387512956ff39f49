// node.js - the Node entry: the same API as js/index.js. Nothing is loaded on
// import: the first call that needs a wasm module reads and compiles it
// synchronously, so a program that never needs a kernel never compiles one.
// FASTMP_BACKEND=scalar (or simd, or js) in the environment picks the build.

import { BACKENDS, setEntry } from './core.js';
import { SIBLING_WASM } from './siblings.js';

const backend = process.env.FASTMP_BACKEND || 'auto';
if (!BACKENDS.includes(backend)) {
  throw new TypeError(`fastmp-wasm: FASTMP_BACKEND must be one of ${BACKENDS.map((b) => `'${b}'`).join(', ')}, not ${JSON.stringify(backend)}`);
}
setEntry(SIBLING_WASM, { backend });

export * from './index.js';
export { default } from './index.js';
