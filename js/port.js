// port.js - what an instance's kernels offer the message codec: its ports (the
// contract is js/codec/port-contract.js), with the element counts below which a
// field is packed or unpacked in JS. The bare typed-array API (js/api.js)
// takes the same limits from here, and the kernels' errors are worded in one
// place (js/wasm/errors.js), so that a field and a bare array take the same path.

import { MAX_ELEMENTS } from './abi.js';
import { jsDecodingPort, jsEncodingPort } from './codec/port-js.js';
import { jsBelowFor } from './crossovers.js';
import { BOOL, KINDS } from './kinds.js';
import { PACK, UNPACK_MARK, useModule } from './modules.js';
import { wasmDecodingPort } from './wasm/reader.js';
import { wasmEncodingPort } from './wasm/store.js';

// The typed-array API and the codec run the kernels of the typed family: a
// program that imports either loads at least its pack-only module, PACK (the
// code that unpacks marks the whole one, js/modules.js).
useModule(PACK);

// Below these element counts `auto` runs the pure-JS path (js/crossovers.js:
// measured per backend, operation and type; per JS engine where one differs).
const JS_BELOW = jsBelowFor();

/**
 * JS_BELOW of a core's backend as arrays by kind index (js/kinds.js: BOOL
 * last), with its pureJs option folded in: the pure-JS path takes n elements
 * when n < limits[op][kind.index]. ('always': every n that a msgpack array
 * can hold; 'never': none.) A typed module without unpack kernels (js/modules.js
 * PACK) leaves every unpack to the pure-JS path, whatever pureJs says.
 */
export function jsLimits({ backend, pureJs, boundary }) {
  const ALL = MAX_ELEMENTS + 1;
  const limit = (op, k) => (pureJs === 'always' ? ALL : pureJs === 'never' ? 0 : JS_BELOW[backend][op][k.c]);
  const of = (op) => [...KINDS, BOOL].map((k) => limit(op, k));
  const unpacks = typeof boundary.wasm?.[UNPACK_MARK] === 'function';
  return { pack: of('pack'), unpack: unpacks ? of('unpack') : [...KINDS, BOOL].map(() => ALL) };
}

// The one place that picks an instance's ports: the pure-JS ones for an
// instance without wasm, else the wasm ones with the limits above.

/** The encoding port of an instance's core. */
export function encodingPort(core) {
  if (core.backend === 'js') return jsEncodingPort;
  return wasmEncodingPort(core.boundary, jsLimits(core).pack);
}

/** The decoding port of an instance's core. */
export function decodingPort(core) {
  if (core.backend === 'js') return jsDecodingPort;
  return wasmDecodingPort(core.boundary, jsLimits(core).unpack);
}
