// port-js.js - the pure-JS port (the contract: port-contract.js): the state
// of an instance that runs no wasm, as the codec and the typed-array I/O
// (js/io.js) ask an instance's core (js/core.js) for it. Its stores are JS
// buffers (js/codec/stores.js) and every typed-array field is packed and
// unpacked by js/wire.js. It needs nothing but JS, so the codec works where
// wasm cannot be compiled.

import { limitsOf } from '../io.js';

/** The pure-JS port. @type {import('./port-contract.js').Port} */
export const jsPort = {
  build: 'js',
  limits: /* @__PURE__ */ limitsOf('js', 'always'),
  heap: null,
  ready: () => false,
  pools: { js: null, wasm: null },
  window: null,
  windowUses: 0,
  // (what the codec keeps between calls: js/codec/encoding.js, decoding.js)
  encoder: null,
  encoders: [],
  decoder: null,
  decoders: [],
};
