// The Vite page: imports the package as an app does (no Vite configuration),
// runs check() on the page and in a module Worker. ?entry=inline takes
// fastmp-wasm/inline instead, whose wasm is in the JS (nothing to fetch).
import * as fastmp from 'fastmp-wasm';
import { check } from './check.js';

const inline = new URLSearchParams(location.search).get('entry') === 'inline';

function workerResult(worker) {
  return new Promise((resolve, reject) => {
    worker.onmessage = (e) => resolve(e.data);
    worker.onerror = (e) => reject(new Error(`worker: ${e.message}`));
  });
}

async function run() {
  const api = inline ? await import('fastmp-wasm/inline') : fastmp;
  const init = await api.init();
  const page = check(api);
  const worker = inline
    ? new Worker(new URL('./worker-inline.js', import.meta.url), { type: 'module' })
    : new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
  return { init, page, worker: await workerResult(worker) };
}

window.result = run().catch((e) => ({ error: String(e?.stack ?? e) }));
