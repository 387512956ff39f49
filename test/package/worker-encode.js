// A module Worker that imports only encode(): its bundle marks only the
// typed-array module's pack-only build used (js/modules.js PACK), so its
// init() fetches only that build's wasm.
import { encode, init } from 'fastmp-wasm';

init().then(
  (backend) => postMessage({ backend, value: encode({ v: new Float32Array(64).fill(1.5) }).length }),
  (e) => postMessage({ error: String(e?.stack ?? e) }),
);
