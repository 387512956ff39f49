// Node ESM: the package is ready on import (js/node.js); fastmp-wasm/inline
// needs init() and, being the same API, shares its one instance.
import * as api from 'fastmp-wasm';
import * as inline from 'fastmp-wasm/inline';
import { check } from './check.js';

const main = check(api);
const inlineBackend = await inline.init({ backend: 'scalar' });
const inlined = check(inline);
console.log(JSON.stringify({ main, inlineBackend, inline: inlined, shared: api.backend() === 'scalar' }));
