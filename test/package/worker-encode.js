// A module Worker that imports only encode(): its bundle marks only the
// pack module used (js/surface.js), so its init() fetches only that module.
import { encode, init } from 'fastmp-wasm';

init().then(
  (backend) => postMessage({ backend, value: encode({ v: new Float32Array(64).fill(1.5) }).length }),
  (e) => postMessage({ error: String(e?.stack ?? e) }),
);
