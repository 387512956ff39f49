// A module Worker on fastmp-wasm/inline: initSync() compiles the inlined
// bytes synchronously, which a Worker may do.
import * as api from 'fastmp-wasm/inline';
import { check } from './check.js';

try {
  const init = api.initSync();
  postMessage({ init, ...check(api) });
} catch (e) {
  postMessage({ error: String(e?.stack ?? e) });
}
