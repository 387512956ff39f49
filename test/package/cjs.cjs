// Node CommonJS: require() returns the API ready to use (js/node.cjs), the
// same module instance that import() gives.
const api = require('fastmp-wasm');
const { check } = require('./check.js');

const main = check(api);
import('fastmp-wasm').then((esm) => {
  console.log(JSON.stringify({ main, oneInstance: esm.pack === api.pack }));
});
