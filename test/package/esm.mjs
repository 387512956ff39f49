// Node ESM: the package works on import (dist/fastmp-node.js, js/node.js
// built into one file); fastmp-wasm/inline is the same module in Node, so
// its init() sets the one default instance both use.
import * as api from 'fastmp-wasm';
import * as inline from 'fastmp-wasm/inline';
import { check } from './check.js';

const main = check(api);
const inlineBackend = await inline.init({ backend: 'scalar' });
const inlined = check(inline);
console.log(JSON.stringify({ main, inlineBackend, inline: inlined, shared: api.backend() === 'scalar' }));
