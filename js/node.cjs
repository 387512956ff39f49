// node.cjs - the CommonJS entry: `require('fastmp-wasm')` in Node, ready on
// return. It is not a second copy of the API: Node (>= 20.19, 22.12) require()s
// the ES modules themselves (they have no top-level await, unlike node.js), so
// a program that both imports and requires the package shares one module
// instance. initSync() reads and instantiates the sibling .wasm synchronously.
// FASTMP_BACKEND=scalar (or simd) in the environment picks the build.
'use strict';

let api;
let instance;
let siblings;
try {
  api = require('./index.js');
  instance = require('./instance.js');
  siblings = require('./siblings.js');
} catch (e) {
  if (e?.code !== 'ERR_REQUIRE_ESM') throw e;
  throw new Error(`fastmp-wasm: require() needs require() of ES modules (Node >= 20.19 or 22.12, not turned off by --no-experimental-require-module); this is Node ${process.versions.node}: use import`, { cause: e });
}
// A program that imported the package first keeps the instance it has.
instance.initDefaultSync(siblings.SIBLING_WASM, { backend: process.env.FASTMP_BACKEND || 'auto' });
module.exports = api;
