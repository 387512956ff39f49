// strings-crossover.js - where does a wasm call start to beat the pure-JS
// loop for the string codecs? Each operation at small lengths (in chars),
// pure JS vs wasm (SIMD and scalar), in one run; JS_BELOW in js/strings.js
// comes from this.
//   node --expose-gc bench/strings-crossover.js
import { formatNs, loadPaths, medians, printTable } from './lib.js';

const paths = await loadPaths();
const SIZES = [2, 4, 8, 16, 24, 32, 48, 64, 96, 128, 192, 256];

/** A string of n chars: BMP chars from several scripts, or printable ASCII. */
function text(n, ascii) {
  let s = '';
  for (let i = 0; i < n; i++) s += String.fromCharCode(ascii ? 0x20 + ((i * 7) % 95) : [0x41, 0xe9, 0x436, 0x4e2d, 0x3042][i % 5] + (i % 13));
  return s;
}

const OPS = {
  encodeBMP: { input: (n) => text(n, false), call: (api, x) => api.encodeBMP(x) },
  decodeBMP: { input: (n) => paths['pure-js'].encodeBMP(text(n, false)), call: (api, x) => api.decodeBMP(x) },
  encodeASCII: { input: (n) => text(n, true), call: (api, x) => api.encodeVisible(x) },
  decodeASCII: { input: (n) => paths['pure-js'].encodeVisible(text(n, true)), call: (api, x) => api.decodeVisible(x) },
};

const only = process.argv[2];
const rows = [];
for (const [op, { input, call }] of Object.entries(OPS)) {
  if (only && op !== only) continue;
  for (const n of SIZES) {
    const x = input(n);
    const tasks = ['pure-js', 'wasm-simd', 'wasm-scalar'].map((name) => ({ name, fn: () => call(paths[name], x) }));
    const m = await medians(tasks, { time: 150, warmupTime: 50 });
    rows.push({
      op, n,
      'pure-js': formatNs(m.get('pure-js')),
      'wasm-simd': formatNs(m.get('wasm-simd')),
      'wasm-scalar': formatNs(m.get('wasm-scalar')),
      'simd/js': (m.get('wasm-simd') / m.get('pure-js')).toFixed(2),
      'scalar/js': (m.get('wasm-scalar') / m.get('pure-js')).toFixed(2),
    });
  }
}
printTable(rows);
