// node.cjs - the CommonJS entry: `require('fastmp-wasm')` in Node. It is not a
// second copy of the API: Node (>= 20.19, 22.12) require()s the ES module
// that `import` loads (dist/fastmp-node.js, js/node.js built into one file:
// scripts/build-node.js), so a program that both imports and requires the
// package shares one module instance, and one default instance.
'use strict';

try {
  module.exports = require('../dist/fastmp-node.js');
} catch (e) {
  if (e?.code !== 'ERR_REQUIRE_ESM') throw e;
  throw new Error(`fastmp-wasm: require() needs require() of ES modules (Node >= 20.19 or 22.12, not turned off by --no-experimental-require-module); this is Node ${process.versions.node}: use import`, { cause: e });
}
