// The plain page's module Worker.
import * as api from '/node_modules/fastmp-wasm/js/index.js';
import { check } from '/check.js';

api.init().then(
  (init) => postMessage({ init, ...check(api) }),
  (e) => postMessage({ error: String(e?.stack ?? e) }),
);
