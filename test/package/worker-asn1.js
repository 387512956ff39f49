// A module Worker that imports only ASN.1 string functions: its bundle marks
// only the string module used, so its init() fetches only that module's wasm.
import { decodeBMP, encodeBMP, init } from 'fastmp-wasm';

const text = 'Zoë € '.repeat(50); // long enough for the kernels, not the pure-JS path

init().then(
  (backend) => postMessage({ backend, value: decodeBMP(encodeBMP(text)) === text }),
  (e) => postMessage({ error: String(e?.stack ?? e) }),
);
