// node.js - the Node entry: the same API, initialised on import (top-level
// await), so `import { pack } from 'fastmp-wasm'` is ready to use.
// FASTMP_BACKEND=scalar (or simd) in the environment picks the build.

import { init } from './index.js';

export * from './index.js';

await init({ backend: process.env.FASTMP_BACKEND || 'auto' });
