// The Vite page: imports the package as an app does (no Vite configuration),
// runs check() on the page and in a module Worker. ?entry=inline takes
// fastmp-wasm/inline instead, whose wasm is in the JS (nothing to fetch).
// ?entry=families runs, one after the other, a Worker that imports only
// encode() and one that imports only ASN.1 functions (nothing on the page).
import * as fastmp from 'fastmp-wasm';
import { check } from './check.js';

const entry = new URLSearchParams(location.search).get('entry');
const inline = entry === 'inline';

function workerResult(worker) {
  return new Promise((resolve, reject) => {
    worker.onmessage = (e) => resolve(e.data);
    worker.onerror = (e) => reject(new Error(`worker: ${e.message}`));
  });
}

/** Each one-family Worker's result, the second started once the first has answered. */
async function families() {
  const encodeOnly = await workerResult(new Worker(new URL('./worker-encode.js', import.meta.url), { type: 'module' }));
  const asn1Only = await workerResult(new Worker(new URL('./worker-asn1.js', import.meta.url), { type: 'module' }));
  return { encodeOnly, asn1Only };
}

async function run() {
  if (entry === 'families') return families();
  const api = inline ? await import('fastmp-wasm/inline') : fastmp;
  const init = await api.init();
  const page = check(api);
  const worker = inline
    ? new Worker(new URL('./worker-inline.js', import.meta.url), { type: 'module' })
    : new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
  return { init, page, worker: await workerResult(worker) };
}

window.result = run().catch((e) => ({ error: String(e?.stack ?? e) }));
