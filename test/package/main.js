// The Vite page: imports the package as an app does (no Vite configuration),
// runs check() on the page and in a module Worker. ?entry=inline takes
// fastmp-wasm/inline instead, whose wasm is in the JS (nothing to fetch).
// ?entry=families runs, one after the other, a Worker that imports only
// encode() and one that imports only ASN.1 functions (nothing on the page).
// ?entry=noinit never calls init(); ?entry=before-after calls before init()
// has resolved and again after: the same bytes and values each time.
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

const hex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
const frame = { id: 7, v: new Float32Array([1.5, -2]), big: Float32Array.from({ length: 4096 }, (_, i) => i / 3) };
const shape = { v: Float32Array, big: Float32Array };

/** A message with Float32Arrays through encode() and a shaped decode(), and the strings and typed-array calls. */
function roundTrip() {
  const bytes = fastmp.encode(frame);
  const back = fastmp.decode(bytes, { shape });
  const floats = fastmp.unpack(fastmp.pack(frame.big), Float32Array);
  return {
    small: hex(fastmp.encode({ id: 7, v: frame.v })),
    bytes: hex(bytes),
    typed: back.v instanceof Float32Array && back.big instanceof Float32Array,
    values: back.id === 7 && [...back.v].join() === '1.5,-2' && back.big.every((x, i) => x === frame.big[i]),
    floats: floats.every((x, i) => x === frame.big[i]),
    bmp: fastmp.decodeBMP(fastmp.encodeBMP('Zoë € '.repeat(50))) === 'Zoë € '.repeat(50),
  };
}

/** Calls before init() resolves, and after: the same results (pure JS first, the kernels after). */
async function beforeAndAfter() {
  const before = roundTrip();
  const init = fastmp.init();
  const during = roundTrip();
  const backend = await init;
  const after = roundTrip();
  return { before, during, after, backend };
}

async function run() {
  if (entry === 'families') return families();
  if (entry === 'noinit') return roundTrip();
  if (entry === 'before-after') return beforeAndAfter();
  const api = inline ? await import('fastmp-wasm/inline') : fastmp;
  const init = await api.init();
  const page = check(api);
  const worker = inline
    ? new Worker(new URL('./worker-inline.js', import.meta.url), { type: 'module' })
    : new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
  return { init, page, worker: await workerResult(worker) };
}

window.result = run().catch((e) => ({ error: String(e?.stack ?? e) }));
