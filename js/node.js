// node.js - the Node entry: the same API, initialised on import (top-level
// await), so `import { pack } from 'fastmp-wasm'` is ready to use. When the
// package was require()d first (js/node.cjs), the instance it made is kept.
// FASTMP_BACKEND=scalar (or simd) in the environment picks the build.

import { initDefault } from './instance.js';
import { SIBLING_WASM } from './siblings.js';

export * from './index.js';
export { default } from './index.js';

await initDefault(SIBLING_WASM, { backend: process.env.FASTMP_BACKEND || 'auto' });
