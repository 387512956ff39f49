// A module Worker: the same package, its own instance, init() as on a page.
import * as api from 'fastmp-wasm';
import { check } from './check.js';

api.init().then(
  (init) => postMessage({ init, ...check(api) }),
  (e) => postMessage({ error: String(e?.stack ?? e) }),
);
